// scaling-<V>-<HW>: with a mesh whose size follows sweep variable V, the step
// (per chip, Summary::t_lower_total) on the left axis and, with `tokens`, the
// tokens per second of one chip (tokens / step / chips) on the right axis,
// against the chips of the mesh (log 2). One colour per value of the first
// other sweep of numbers with several values (a handful of them, spread over
// its axis as the sweep chart would draw it), the remaining sweeps at their
// value at `base`: how much faster the step gets with more chips, and what
// each chip then delivers.
#include "chart_model.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace roofline::report::chart_detail {

namespace {

// The indices of a sweep's values in increasing order of value.
std::vector<std::size_t> by_value(std::vector<double> const& values) {
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    return order;
}

}  // namespace

std::size_t line_sweep(ReportContext const& context, std::size_t v) {
    auto const& sweeps = context.scenario.sweeps;
    for (std::size_t w = 0; w < sweeps.size(); ++w)
        if (w != v && !sweeps[w].of_dtypes && sweeps[w].values.size() > 1) return w;
    return no_sweep;
}

std::vector<std::size_t> line_values(std::vector<double> const& values, std::size_t most) {
    auto order = by_value(values);
    if (most < 2 && order.size() > 1) order.erase(order.begin() + 1, order.end());
    if (order.size() <= most || most < 2) return order;
    // Even steps along the axis the sweep chart draws the sweep on.
    Axis const axis = sweep_axis("", values);
    double const lo = values[order.front()], hi = values[order.back()];
    auto place = [&](double value) { return axis.log ? std::log(value) : value; };
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < most; ++k) {
        double const f = static_cast<double>(k) / static_cast<double>(most - 1);
        double const want = place(lo) + (place(hi) - place(lo)) * f;
        std::size_t best = order.front();
        for (std::size_t i : order)
            if (std::fabs(place(values[i]) - want) < std::fabs(place(values[best]) - want)) best = i;
        if (std::find(kept.begin(), kept.end(), best) == kept.end()) kept.push_back(best);
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    return kept;
}

bool has_scaling_chart(ReportContext const& context, std::size_t v, std::size_t t) {
    auto const& grid = context.grid;
    auto const& sweep = context.scenario.sweeps[v];
    if (grid.chips.empty() || sweep.of_dtypes || sweep.values.size() < 2) return false;
    // The mesh's size follows V: it differs between two values of V, the
    // other sweeps at their first values.
    std::size_t const stride = sweep_stride(grid, v);
    bool varies = false;
    for (std::size_t i = 1; i < sweep.values.size() && !varies; ++i)
        varies = grid.chips_at(i * stride) != grid.chips_at(0);
    if (!varies) return false;
    return any_supported(context, context.target(t));
}

Chart scaling_chart(ReportContext const& context, Summary const& summary, std::size_t v,
                    std::size_t t, std::size_t base) {
    auto const& grid = context.grid;
    std::size_t const targets = grid.target_count;
    auto const& sweeps = context.scenario.sweeps;
    auto const& sweep = sweeps[v];
    auto const& hw = context.target(t);
    std::size_t const w = line_sweep(context, v);
    bool const lines_of_w = w != no_sweep;
    bool const tokens = grid.has_tokens;

    Chart chart = chart_along(context, "scaling", v, hw, base, w);
    chart.subtitle = std::string(tokens ? "Step and tokens/s per chip" : "Step per chip")
                         .append(" against the chips of the mesh as ")
                         .append(sweep.name)
                         .append(" varies, on ")
                         .append(chip_name(hw))
                         .append(other_sweeps_note(context, v, base, w));

    // The points of each line: along V from the line's value of W, the other
    // sweeps at `base` (whose sweeps of numbers are at their first values).
    struct Point {
        double chips, step, per_chip;
        StepTotals totals;
    };
    struct Line {
        std::string name;
        std::vector<Point> points;
    };
    std::vector<Line> lines;
    std::size_t const stride = sweep_stride(grid, v);
    std::vector<std::size_t> const along = by_value(sweep.values);
    std::vector<std::size_t> const values_of_w =
        lines_of_w ? line_values(sweeps[w].values, 5) : std::vector<std::size_t>{0};
    std::vector<double> no_mesh;  // values of V at which the chip cannot build the mesh
    std::vector<std::string> no_peak;  // lines with an unsupported step (a case without a peak)
    bool no_peak_here = false;         // the same for the one line without lines_of_w
    for (std::size_t j : values_of_w) {
        Line line;
        std::size_t const from = base + (lines_of_w ? j * sweep_stride(grid, w) : 0);
        if (lines_of_w) {
            double const value = grid.sweep_value(from, w);
            auto const* dtype = context.scenario.sweep_dtype_name(w, value);
            line.name = sweeps[w].name + " = " + (dtype ? *dtype : value_text(value));
        }
        for (std::size_t i : along) {
            std::size_t const p = from + i * stride;
            if (!grid.mesh_unsupported.empty() && grid.mesh_unsupported[p * targets + t]) {
                if (std::find(no_mesh.begin(), no_mesh.end(), sweep.values[i]) == no_mesh.end())
                    no_mesh.push_back(sweep.values[i]);
                continue;
            }
            StepTotals const step = step_totals(context, summary, p, t);
            if (step.unsupported) {  // no step: a case has no peak here (issue 21)
                if (lines_of_w && std::find(no_peak.begin(), no_peak.end(), line.name) == no_peak.end())
                    no_peak.push_back(line.name);
                if (!lines_of_w) no_peak_here = true;
                continue;
            }
            if (!(step.t_lower > 0)) continue;
            line.points.push_back({step.chips, step.t_lower, step.tokens_per_s / step.chips, step});
        }
        std::stable_sort(line.points.begin(), line.points.end(),
                         [](Point const& a, Point const& b) { return a.chips < b.chips; });
        lines.push_back(std::move(line));
    }

    // x: the chips, log 2, a tick at each count drawn (at the powers of 2
    // when there are more than a dozen).
    std::vector<double> chips;
    double step_lo = INFINITY, step_hi = 0, rate_lo = INFINITY, rate_hi = 0;
    for (auto const& line : lines)
        for (auto const& p : line.points) {
            if (std::find(chips.begin(), chips.end(), p.chips) == chips.end()) chips.push_back(p.chips);
            step_lo = std::min(step_lo, p.step), step_hi = std::max(step_hi, p.step);
            if (p.per_chip > 0 && std::isfinite(p.per_chip))
                rate_lo = std::min(rate_lo, p.per_chip), rate_hi = std::max(rate_hi, p.per_chip);
        }
    std::sort(chips.begin(), chips.end());
    chart.x.label = "chips";
    chart.x.log = true;
    chart.x.log_base = 2;
    if (chips.empty()) chips = {1, 2};
    double const pad = std::pow(chips.back() / chips.front(), 0.04);
    chart.x.lo = chips.front() / (chips.size() > 1 ? pad : 2);
    chart.x.hi = chips.back() * (chips.size() > 1 ? pad : 2);
    if (chips.size() <= 12) {
        for (double c : chips) chart.x.ticks.push_back({c, value_text(c)});
    } else {
        for (double c = std::exp2(std::ceil(std::log2(chart.x.lo))); c <= chart.x.hi; c *= 2)
            chart.x.ticks.push_back({c, value_text(c)});
    }
    // Log 2 has no decades to split: minor grid lines only on y.
    chart.grid = "xtics ytics mytics lw 1 lc rgb '#e4e4e4', lw 0.5 lc rgb '#f2f2f2'";

    // y: the step, in the unit of the largest; log when it spans more than a
    // decade, so that the small steps of many chips still read.
    TimeUnit const unit = time_unit(step_hi > 0 ? step_hi : 1);
    chart.y.label = std::string("step time (") + unit.name + ")";
    if (step_hi > 0 && step_hi / step_lo > 10) {
        chart.y.log = true;
        chart.y.lo = nice_floor(step_lo / unit.seconds / 1.15);
        chart.y.hi = nice_ceil(step_hi / unit.seconds * 1.15);
        chart.y.ticks = log_ticks(chart.y.lo, chart.y.hi, time_tick);
    } else {
        zero_based(chart.y, step_hi / unit.seconds, time_tick);
    }
    if (tokens) {
        chart.has_y2 = true;
        chart.y2.label = "tokens/s per chip";
        if (rate_hi > 0 && rate_hi / rate_lo > 10) {
            chart.y2.log = true;
            chart.y2.lo = nice_floor(rate_lo / 1.15);
            chart.y2.hi = nice_ceil(rate_hi * 1.15);
            chart.y2.ticks = log_ticks(chart.y2.lo, chart.y2.hi, decimal_tick);
        } else {
            zero_based(chart.y2, rate_hi, decimal_tick);
        }
    }

    // The step solid, the tokens/s per chip dashed, a colour per line.
    std::string const step_title = "step time (left axis)";
    std::string const rate_title = "tokens/s per chip (right axis)";
    std::vector<Series> rates;
    StepMarks step_marks, rate_marks{"axes x1y2 "};
    for (std::size_t k = 0; k < lines.size(); ++k) {
        auto const& line = lines[k];
        std::string const lc = std::string(" ps 0.9 lc rgb '").append(color(k)).append("'");
        Series step;
        step.title = lines_of_w ? line.name : step_title;
        step.style = std::string("with linespoints lw 2 pt ").append(std::to_string(filled_point(k))).append(lc);
        Series rate;
        rate.title = lines_of_w ? "" : rate_title;
        rate.style = std::string("axes x1y2 with linespoints lw 2 dt 2 pt ")
                         .append(std::to_string(open_point(k)))
                         .append(lc);
        for (auto const& p : line.points) {
            step.points.push_back({p.chips, p.step / unit.seconds});
            step_marks.add(context, p.totals, p.chips, p.step / unit.seconds);
            if (tokens && p.per_chip > 0 && std::isfinite(p.per_chip)) {
                rate.points.push_back({p.chips, p.per_chip});
                rate_marks.add(context, p.totals, p.chips, p.per_chip);
            }
        }
        chart.series.push_back(std::move(step));
        if (tokens) rates.push_back(std::move(rate));
    }
    for (auto& s : rates) chart.series.push_back(std::move(s));
    add_step_marks(chart, context, {step_marks, rate_marks});
    if (lines_of_w && tokens) {
        std::string const lc = std::string(" lc rgb '") + roof_color + "'";
        chart.key_entries.push_back({"with lines lw 2" + lc, step_title});
        chart.key_entries.push_back({"with lines lw 2 dt 2" + lc, rate_title});
    }
    if (!no_peak.empty() || no_peak_here) {
        std::string text = "not plotted, unsupported (a case has no peak on this chip)";
        for (std::size_t i = 0; i < no_peak.size(); ++i) text.append(i ? ", " : ": ").append(no_peak[i]);
        chart.key_entries.push_back(key_note(text));
    }
    if (!no_mesh.empty()) {
        std::sort(no_mesh.begin(), no_mesh.end());
        std::string text = sweep.name + " = ";
        for (std::size_t i = 0; i < no_mesh.size(); ++i)
            text.append(i ? ", " : "").append(value_text(no_mesh[i]));
        chart.key_entries.push_back(
            key_note(text.append(": not plotted, this chip cannot build the mesh")));
    }
    return chart;
}

}  // namespace roofline::report::chart_detail
