// step-<V>-<HW>: the step time of one chip (the sum of count x t_step over
// the cases at a sweep point, Summary::t_step_total; a point with an
// unsupported case is left out and named in the key) against sweep
// variable V, the other sweeps at their first value, as one filled band per
// layer path stacked in Summary::layers order: the top of the stack is the
// whole step, the thickness of a band the layer's share of it.
// With a mesh or on-chip traffic the bands are the bounds instead, bottom up
// compute, memory, onchip and network (the levels the report has): the time
// at each roof (Summary::memory_step_total, ... network_step_total: the
// collectives, and the rest compute-bound), per chip, so that the
// reader sees where the network or the on-chip memory takes a share of the step.
#include "chart_model.hpp"
#include "output/chart_sample.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace roofline::report::chart_detail {


bool has_step_chart(ReportContext const& context, std::size_t v, std::size_t t) {
    // A dtype sweep has no axis to draw along.
    auto const& sweep = context.scenario.sweeps[v];
    if (sweep.values.size() < 2 || sweep.of_dtypes) return false;
    return any_supported(context, context.target(t));
}

Chart step_chart(ReportContext const& context, Summary const& summary, std::size_t v,
                 std::size_t t, std::size_t base) {
    auto const& grid = context.grid;
    std::size_t const targets = grid.target_count;
    auto const& sweep = context.scenario.sweeps[v];
    auto const& hw = context.target(t);

    Chart chart = chart_along(context, "step", v, hw, base);
    bool const mesh = !context.scenario.mesh.empty(), onchip = context.scenario.has_onchip();
    bool const by_bound = mesh || onchip;
    chart.subtitle = by_bound ? std::string(mesh ? "Step time by bound (sum of count \u00d7 t_step, "
                                                 : "Step time by bound (sum of count \u00d7 t_lower, ") +
                                    std::string(!mesh                                    ? "one chip"
                                                : context.scenario.pipeline_axis >= 0 ? "one pipeline stage, per chip"
                                                                                      : "per chip") +
                                    ") against " +
                                    sweep.name + " on " + chip_name(hw)
                              : "Step time (sum of count \u00d7 t_lower, one chip) against " +
                                    sweep.name + " on " + chip_name(hw);
    chart.subtitle += other_sweeps_note(context, v, base);
    chart.x = sweep_axis(sweep.name, sweep.values);

    // The values of V drawn: at most ChartData::max_points of them, evenly
    // spread over the sweep (the first and last kept), in increasing order.
    std::vector<std::size_t> indices = output::even_sample(sweep.values.size(), ChartData::max_points);
    std::stable_sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
        return sweep.values[a] < sweep.values[b];
    });
    std::size_t const stride = sweep_stride(grid, v);
    // A point with an unsupported case has no step (issue 21): not drawn,
    // and the key says where.
    std::string missing;
    std::erase_if(indices, [&](std::size_t i) {
        if (summary.unsupported_cases[(base + i * stride) * targets + t] == 0) return false;
        missing.append(missing.empty() ? "" : ", ").append(value_text(sweep.values[i]));
        return true;
    });
    if (!missing.empty())
        chart.key_entries.push_back(key_note(std::string("not drawn, unsupported (a case has no peak here): ")
                                                 .append(sweep.name)
                                                 .append(" = ")
                                                 .append(missing)));

    double largest = 0;
    for (std::size_t i : indices)
        largest = std::max(largest, summary.t_step_total[(base + i * stride) * targets + t]);
    TimeUnit const unit = time_unit(largest > 0 ? largest : 1);
    chart.y.label = std::string("step time (") + unit.name + ")";

    std::vector<double> below(indices.size(), 0.0);
    if (by_bound) {
        // The bands, bottom up: compute, memory, onchip, network (those the
        // report has). Each band's bounds are taken from the top down (total
        // - network, below that - onchip, below that - memory: Summary keeps
        // no compute total), so the stack ends at the step exactly.
        struct Layer {
            char const* name;
            std::size_t palette;
            std::vector<double> const* total;  // null: compute, what is left
        };
        std::vector<Layer> layers = {Layer{"compute-bound cases", 2, nullptr},
                                     Layer{"memory-bound cases", 0, &summary.memory_step_total}};
        if (onchip) layers.push_back({"onchip-bound cases", 4, &summary.onchip_step_total});
        if (mesh) layers.push_back({"collectives (network)", 3, &summary.network_step_total});
        std::vector<std::vector<double>> edges;  // per value of V: 0, then each band's top
        for (std::size_t i : indices) {
            std::size_t const at = (base + i * stride) * targets + t;
            double const total = summary.t_step_total[at];
            std::vector<double> e(layers.size() + 1, 0.0);
            e.back() = total;
            double top_edge = total;
            for (std::size_t l = layers.size(); l-- > 1;) {
                top_edge = std::max(0.0, top_edge - (*layers[l].total)[at]);
                e[l] = std::min(e[l + 1], top_edge);
            }
            // The compute-bound time is what is left: sums in another order
            // leave a few ulps where there is none, not a band.
            if (e[1] <= 1e-9 * total) e[1] = 0;
            for (double& x : e) x /= unit.seconds;
            edges.push_back(std::move(e));
        }
        for (std::size_t l = 0; l < layers.size(); ++l) {
            Series s;
            bool any = false;
            for (std::size_t k = 0; k < indices.size(); ++k) {
                any = any || edges[k][l + 1] > edges[k][l];
                s.band.emplace_back(sweep.values[indices[k]], edges[k][l], edges[k][l + 1]);
                below[k] = edges[k][l + 1];
            }
            if (!any) {
                if (!indices.empty())  // with nothing drawn, the note above says why
                    chart.key_entries.push_back(key_note(std::string(layers[l].name).append(": none at these points")));
                continue;
            }
            s.title = layers[l].name;
            s.style = std::string("with filledcurves fs solid 0.85 noborder lc rgb '")
                          .append(color(layers[l].palette))
                          .append("'");
            chart.series.push_back(std::move(s));
        }
    } else {
        // The bands, bottom up: each from the sum of the layers below it to
        // that plus its own time. A layer with no time anywhere on this chip
        // (none of its matmuls has a peak here) gets a key line instead of a
        // band.
        std::size_t drawn = 0;
        for (std::size_t l = 0; l < summary.layers.size(); ++l) {
            std::string name = summary.layers[l].empty() ? "(top level)" : summary.layers[l];
            Series s;
            bool any = false;
            for (std::size_t k = 0; k < indices.size(); ++k) {
                double time =
                    summary.layer_time(base + indices[k] * stride, l, t, targets) / unit.seconds;
                any = any || time > 0;
                s.band.emplace_back(sweep.values[indices[k]], below[k], below[k] + time);
                below[k] += time;
            }
            if (!any) {
                chart.key_entries.push_back(
                    key_note(name + ": no time, none of its matmuls has a peak on this chip"));
                continue;
            }
            s.title = name;
            s.style = "with filledcurves fs solid 0.85 noborder lc rgb '" + color(drawn) + "'";
            chart.series.push_back(std::move(s));
            ++drawn;
        }
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
        StepMarks marks;
        for (std::size_t k = 0; k < indices.size(); ++k)
            marks.add(context, step_totals(context, summary, base + indices[k] * stride, t),
                      top_line.points[k].first, top_line.points[k].second);
        chart.series.push_back(std::move(top_line));
        add_step_marks(chart, context, {marks});
    }

    double top = 0;
    for (double b : below) top = std::max(top, b);
    // The top a little above the stack, at a tick.
    zero_based(chart.y, top, time_tick);
    return chart;
}

}  // namespace roofline::report::chart_detail
