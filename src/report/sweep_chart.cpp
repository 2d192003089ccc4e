#include "chart_model.hpp"
#include "output/chart_sample.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace roofline::report::chart_detail {

namespace {

// `count` points of a sorted curve, spread evenly across the x axis and
// shifted by `phase` (0..1) of a spacing, so that curves that coincide still
// show each one's markers.
Points markers_along(Points const& curve, Axis const& x, std::size_t count, double phase) {
    Points kept;
    if (curve.empty()) return kept;
    for (std::size_t k = 0; k < count; ++k) {
        double f = (static_cast<double>(k) + phase) / static_cast<double>(count);
        double target = x.log ? x.lo * std::pow(x.hi / x.lo, f) : x.lo + (x.hi - x.lo) * f;
        auto it = std::lower_bound(curve.begin(), curve.end(), target,
                                   [](auto const& p, double v) { return p.first < v; });
        if (it == curve.end()) it = std::prev(it);
        if (it != curve.begin() &&
            std::fabs(std::prev(it)->first - target) < std::fabs(it->first - target))
            it = std::prev(it);
        if (kept.empty() || kept.back() != *it) kept.push_back(*it);
    }
    return kept;
}

// A label above the plot, for the value x at axis fraction `want`.
struct Label {
    double x, want, width;
    std::string text, color;
    double at;        // its centre, as an axis fraction, once placed
    std::size_t row;  // 0: the lowest
};

// Places labels (sorted by `want`) side by side in as few rows as their
// widths need: in each row, labels that would overlap form a cluster, laid
// out edge to edge and centred on the mean of what its labels want, within
// the plot. Returns the number of rows.
std::size_t place_labels(std::vector<Label>& labels) {
    double total = 0;
    for (auto const& l : labels) total += l.width;
    std::size_t rows = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(total / 0.9)));
    for (std::size_t row = 0; row < rows; ++row) {
        struct Cluster {
            std::vector<std::size_t> members;
            double width = 0, sum = 0;  // sum of (wanted left edge - offset in cluster)
            double left = 0;
        };
        std::vector<Cluster> clusters;
        for (std::size_t i = row; i < labels.size(); i += rows) {
            auto& l = labels[i];
            l.row = row;
            Cluster c;
            c.members = {i};
            c.width = l.width;
            c.sum = l.want - l.width / 2;
            c.left = std::clamp(c.sum, 0.0, std::max(0.0, 1 - c.width));
            clusters.push_back(std::move(c));
            while (clusters.size() > 1 &&
                   clusters[clusters.size() - 2].left + clusters[clusters.size() - 2].width >
                       clusters.back().left) {
                Cluster last = std::move(clusters.back());
                clusters.pop_back();
                auto& merged = clusters.back();
                merged.sum += last.sum - merged.width * static_cast<double>(last.members.size());
                merged.width += last.width;
                merged.members.insert(merged.members.end(), last.members.begin(),
                                      last.members.end());
                merged.left = std::clamp(merged.sum / static_cast<double>(merged.members.size()),
                                         0.0, std::max(0.0, 1 - merged.width));
            }
        }
        for (auto const& c : clusters) {
            double left = c.left;
            for (std::size_t i : c.members) {
                labels[i].at = left + labels[i].width / 2;
                left += labels[i].width;
            }
        }
    }
    return rows;
}

// The values of V whose step does not fit or misses the slo, marked in a
// row just above the x axis: the fit is the whole step's, not one op's.
void mark_steps(Chart& chart, ReportContext const& context, Summary const& summary, std::size_t v,
                std::size_t t, std::size_t base) {
    auto const& values = context.scenario.sweeps[v].values;
    std::size_t const stride = sweep_stride(context.grid, v);
    double const at = 0.035;  // of the plot's height
    double const y = chart.y.log ? chart.y.lo * std::pow(chart.y.hi / chart.y.lo, at)
                                 : chart.y.lo + (chart.y.hi - chart.y.lo) * at;
    StepMarks marks;
    for (std::size_t i : output::even_sample(values.size(), ChartData::max_points)) {
        std::size_t const p = base + i * stride;
        auto const& unbuilt = context.grid.mesh_unsupported;
        if (!unbuilt.empty() && unbuilt[p * context.grid.target_count + t]) continue;
        StepTotals const step = step_totals(context, summary, p, t);
        marks.add(context, step, values[i], y);
    }
    add_step_marks(chart, context, {marks});
}

}  // namespace

Chart sweep_chart(ReportContext const& context, ChartData const& data, Summary const& summary,
                  std::size_t v, std::size_t t, std::size_t base) {
    auto const& hw = context.target(t);
    auto const& scenario = context.scenario;
    auto const& matmuls = scenario.ops;
    auto const& sweep = scenario.sweeps[v];
    auto const roof_list = roofs(context, hw);

    Chart chart = chart_along(context, "sweep", v, hw, base);
    chart.subtitle = "Attained FLOP/s against " + sweep.name + " on " + chip_name(hw);
    chart.subtitle += other_sweeps_note(context, v, base);
    chart.y.label = "attained (FLOP/s)";

    auto const [lo_it, hi_it] = std::minmax_element(sweep.values.begin(), sweep.values.end());
    chart.x = sweep_axis(sweep.name, sweep.values);
    chart.y.log = chart.x.log;

    // The curves, with the critical value as a point of the curve: there the
    // case turns compute-bound, so it attains the peak exactly.
    struct Marker {
        std::size_t op;
        double x, peak;
    };
    std::vector<Marker> markers;
    std::vector<Series> curves;
    std::vector<std::pair<std::size_t, std::size_t>>
        marker_curves;  // (matmul, curve) with separate markers
    std::vector<Series> critical_points;
    double y_min = INFINITY, top = 0;
    for (auto const& r : roof_list) top = std::max(top, r.peak);
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
        auto const& m = matmuls[i];
        // The chart's slice: the other sweeps at their values at `base`.
        int const compute = context.compute_dtype_at(m, base);
        auto peak = hw.peak_for(compute);
        if (!peak) {
            chart.key_entries.push_back(
                key_note(unsupported_note(context, m, context.dtype_name(compute))));
            continue;
        }
        double critical = context.grid.critical_value(base, i, t, v);
        Series s;
        s.title = op_label(m) + ": ";
        s.title += std::isnan(critical) ? "never compute-bound"
                                        : "critical " + sweep.name + " = " + value_text(critical);
        // On a log y axis, cases of 0 FLOPs (attained 0) are named under the
        // chart; an op with nothing else is no series of the key.
        std::size_t off = 0;
        for (auto const& p : data.sweep(v, i, t, base))
            if (!chart.y.log || p.y > 0)
                s.points.push_back({p.x, p.y});
            else
                ++off;
        if (off > 0)
            chart.key_entries.push_back(key_note(
                output::off_log_note(op_label(m), true, false, !s.points.empty())));
        if (s.points.empty() && off > 0) continue;
        bool shown = !std::isnan(critical) && critical >= *lo_it && critical <= *hi_it;
        if (shown) {
            markers.push_back({i, critical, *peak});
            s.points.push_back({critical, *peak});
        }
        std::stable_sort(s.points.begin(), s.points.end(),
                         [](auto const& a, auto const& b) { return a.first < b.first; });
        for (auto const& p : s.points)
            y_min = std::min(y_min, p.second), top = std::max(top, p.second);
        std::string line =
            " lw 2 dt " + std::to_string(dash_type(i)) + " lc rgb '" + color(i) + "'";
        std::string point = " pt " + std::to_string(filled_point(i)) + " ps 0.9";
        if (s.points.size() <= 12) {
            s.style = "with linespoints" + line + point;
            curves.push_back(std::move(s));
        } else {
            // Dense curves: the line, and a few markers placed so that curves
            // lying on top of each other still show every marker.
            s.style = "with lines" + line;
            s.key_style = "with linespoints" + line + point;
            curves.push_back(std::move(s));
            marker_curves.push_back({i, curves.size() - 1});
        }
    }
    if (!(top > 0)) top = 1;
    if (!(y_min <= top)) y_min = top / 100;
    chart.y.lo = chart.y.log ? nice_floor(y_min / 1.3) : 0;

    // Critical values: a dotted line up from the axis to above the highest
    // peak, and there the value, in a band that no curve reaches. Equal values
    // share one label; labels that would touch are spread sideways and joined
    // to their lines by short leaders.
    std::stable_sort(markers.begin(), markers.end(),
                     [](Marker const& a, Marker const& b) { return a.x < b.x; });
    std::vector<Label> labels;
    for (auto const& mk : markers) {
        critical_points.push_back({"",
                                   "with points pt 6 ps 2 lw 2 lc rgb '" + color(mk.op) + "'",
                                   {{mk.x, mk.peak}},
                                   ""});
        if (!labels.empty() && labels.back().x == mk.x) {
            if (labels.back().color != color(mk.op)) labels.back().color = roof_color;
            continue;
        }
        std::string text = value_text(mk.x);
        labels.push_back({mk.x, fraction(chart.x, mk.x),
                          (static_cast<double>(text.size()) + 1.2) * char_width_graph, text,
                          color(mk.op), 0, 0});
    }
    std::size_t const rows = place_labels(labels);
    double const top_fraction = 1 - (0.075 + 1.5 * char_height_graph * static_cast<double>(rows));
    chart.y.hi = y_high(chart.y, top, top_fraction);
    chart.y.ticks = chart.y.log ? log_ticks(chart.y.lo, chart.y.hi, power_tick)
                                : linear_ticks(chart.y.lo, chart.y.hi, power_tick);
    for (auto const& label : labels) {
        double row_y =
            top_fraction + 0.05 + 1.5 * char_height_graph * static_cast<double>(label.row);
        double line_top = top_fraction + 0.012;
        std::string lc = " lc rgb '" + label.color + "'";
        chart.decorations.push_back("set arrow from first " + num(label.x) + ", graph 0 to first " +
                                    num(label.x) + ", graph " + num(line_top) +
                                    " nohead dt 3 lw 1.2" + lc + " back");
        chart.decorations.push_back("set arrow from first " + num(label.x) + ", graph " +
                                    num(line_top) + " to graph " + num(label.at) + ", graph " +
                                    num(row_y - 0.55 * char_height_graph) + " nohead lw 1" + lc +
                                    " back");
        chart.decorations.push_back("set label " + literal(label.text) + " at graph " +
                                    num(label.at) + ", graph " + num(row_y) + " center tc rgb '" +
                                    label.color + "' front noenhanced");
    }

    // The peaks: dashed lines across, named at the left end, where the
    // curves are still low; above the line, or below it when the peak above
    // is too close for two lines of text.
    double above = 2;  // axis fraction of the previous (higher) peak
    for (auto const& roof : roof_list) {
        chart.series.insert(chart.series.begin(),
                            {"",
                             "with lines dt 2 lw 1.5 lc rgb '" + std::string(roof_color) + "'",
                             {{chart.x.lo, roof.peak}, {chart.x.hi, roof.peak}},
                             ""});
        double at = fraction(chart.y, roof.peak);
        bool below = above - at < 1.4 * char_height_graph;
        chart.decorations.push_back(
            "set label " + literal(roof.dtypes + " peak " + eng(roof.peak, "FLOP/s")) +
            " at graph 0.01, first " + num(roof.peak) + " left offset 0, character " +
            (below ? "-0.8" : "0.7") + " tc rgb '" + roof_color + "' front noenhanced");
        above = below ? -1 : at;
    }
    std::vector<Series> curve_markers;
    for (std::size_t k = 0; k < marker_curves.size(); ++k) {
        auto [i, curve] = marker_curves[k];
        double phase = (static_cast<double>(k) + 0.5) / static_cast<double>(marker_curves.size());
        curve_markers.push_back({"",
                                 "with points pt " + std::to_string(filled_point(i)) +
                                     " ps 0.9 lc rgb '" + color(i) + "'",
                                 markers_along(curves[curve].points, chart.x, 10, phase), ""});
    }
    for (auto* group : {&curves, &curve_markers, &critical_points})
        for (auto& s : *group) chart.series.push_back(std::move(s));
    mark_steps(chart, context, summary, v, t, base);
    return chart;
}

}  // namespace roofline::report::chart_detail
