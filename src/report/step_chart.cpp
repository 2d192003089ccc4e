// step-<V>-<HW>: the step time of one chip (the sum of count x t_lower over
// the supported cases at a sweep point, Summary::t_lower_total) against sweep
// variable V, the other sweeps at their first value, as one filled band per
// layer path stacked in Summary::layers order: the top of the stack is the
// whole step, the thickness of a band the layer's share of it.
#include "chart_axes.hpp"
#include "chart_model.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace roofline::report::chart_detail {

namespace {

// Seconds shown in the unit that keeps the largest value readable: below a
// second the largest of ms, µs, ns that it reaches; minutes from 10 minutes,
// hours from 2 hours (a large model's step on one chip).
struct TimeUnit {
    double seconds;
    char const* name;
};
TimeUnit time_unit(double largest) {
    static constexpr std::array<TimeUnit, 6> units = {
        TimeUnit{3600, "h"},  TimeUnit{60, "min"},       TimeUnit{1, "s"},
        TimeUnit{1e-3, "ms"}, TimeUnit{1e-6, "\u00b5s"}, TimeUnit{1e-9, "ns"}};
    if (largest >= 7200) return units[0];
    if (largest >= 600) return units[1];
    for (std::size_t i = 2; i < units.size(); ++i)
        if (largest >= units[i].seconds) return units[i];
    return units.back();
}

// A tick on the scaled time axis: the number alone (the unit is in the label),
// never with an SI prefix.
std::string time_tick(double v) { return std::fabs(v) >= 1e5 ? num(v) : value_text(v); }

}  // namespace

bool has_step_chart(ReportContext const& context, std::size_t v, std::size_t t) {
    // A dtype sweep has no axis to draw along.
    auto const& sweep = context.scenario.sweeps[v];
    if (sweep.values.size() < 2 || sweep.of_dtypes) return false;
    auto const& hw = context.target(t);
    auto const& matmuls = context.scenario.ops;
    return std::any_of(matmuls.begin(), matmuls.end(),
                       [&](model::Op const& m) { return context.supported_on(m, hw); });
}

Chart step_chart(ReportContext const& context, Summary const& summary, std::size_t v,
                 std::size_t t, std::size_t base) {
    auto const& grid = context.grid;
    std::size_t const targets = grid.target_count;
    auto const& sweep = context.scenario.sweeps[v];
    auto const& hw = context.target(t);

    Chart chart;
    std::string const dtypes = dtypes_at(context, base);
    chart.stem = dtypes.empty() ? output::file_name({"step", sweep.name, hw.id})
                                : output::file_name({"step", sweep.name, hw.id, dtypes});
    chart.title = chart_title(context);
    chart.subtitle = "Step time (sum of count \u00d7 t_lower, one chip) against " + sweep.name +
                     " on " + chip_name(hw);
    chart.subtitle += other_sweeps_note(context, v, base);
    chart.x = sweep_axis(sweep.name, sweep.values);

    // The values of V drawn: at most ChartData::max_points of them, evenly
    // spread over the sweep (the first and last kept), in increasing order.
    std::size_t const n = sweep.values.size();
    std::size_t const kept = std::min(n, ChartData::max_points);
    std::vector<std::size_t> indices;
    for (std::size_t k = 0; k < kept; ++k) {
        std::size_t i = kept == 1 ? 0 : (k * (n - 1) + (kept - 1) / 2) / (kept - 1);
        if (indices.empty() || indices.back() != i) indices.push_back(i);
    }
    std::stable_sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
        return sweep.values[a] < sweep.values[b];
    });
    std::size_t stride = 1;  // points between two values of V (the first sweep varies slowest)
    for (std::size_t w = v + 1; w < grid.sweep_count; ++w) stride *= grid.sweep_sizes[w];

    double largest = 0;
    for (std::size_t i : indices)
        largest = std::max(largest, summary.t_lower_total[(base + i * stride) * targets + t]);
    TimeUnit const unit = time_unit(largest > 0 ? largest : 1);
    chart.y.label = std::string("step time (") + unit.name + ")";

    // The bands, bottom up: each from the sum of the layers below it to that
    // plus its own time. A layer with no time anywhere on this chip (none of
    // its matmuls has a peak here) gets a key line instead of a band.
    std::vector<double> below(indices.size(), 0.0);
    std::size_t drawn = 0;
    for (std::size_t l = 0; l < summary.layers.size(); ++l) {
        std::string name = summary.layers[l].empty() ? "(top level)" : summary.layers[l];
        Series s;
        bool any = false;
        for (std::size_t k = 0; k < indices.size(); ++k) {
            double time = summary.layer_time(base + indices[k] * stride, l, t, targets) / unit.seconds;
            any = any || time > 0;
            s.band.emplace_back(sweep.values[indices[k]], below[k], below[k] + time);
            below[k] += time;
        }
        if (!any) {
            chart.key_entries.push_back(key_note(name + ": no time, none of its matmuls has a peak on this chip"));
            continue;
        }
        s.title = name;
        s.style = "with filledcurves fs solid 0.85 noborder lc rgb '" + color(drawn) + "'";
        chart.series.push_back(std::move(s));
        ++drawn;
    }
    // The top of the stack, the whole step, as a line; few values also as
    // points, since between them the bands are only interpolated.
    if (!chart.series.empty()) {
        Series top_line;
        top_line.style =
            std::string(indices.size() <= 40 ? "with linespoints pt 7 ps 0.6" : "with lines") +
            " lw 1.5 lc rgb '" + roof_color + "'";
        for (auto const& [x, low, high] : chart.series.back().band)
            top_line.points.push_back({x, high});
        chart.series.push_back(std::move(top_line));
    }

    double top = 0;
    for (double b : below) top = std::max(top, b);
    if (!(top > 0)) top = 1;
    // The top a little above the stack, at a tick: 1, 2, 2.5 or 5 times a
    // power of ten for about six ticks.
    double const raw = top / 6, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double f : {1.0, 2.0, 2.5, 5.0})
        if (magnitude * f >= raw) {
            step = magnitude * f;
            break;
        }
    chart.y.lo = 0;
    chart.y.hi = std::ceil(top * 1.04 / step) * step;
    chart.y.ticks = linear_ticks(chart.y.lo, chart.y.hi, time_tick);
    return chart;
}

}  // namespace roofline::report::chart_detail
