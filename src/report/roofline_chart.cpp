#include "chart_axes.hpp"
#include "chart_model.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

namespace roofline::report::chart_detail {

namespace {

// One point per cell of a `cells` x `cells` grid over the plot: thousands of
// cases on one roof would only draw a thick line and hide each other.
Points thin(std::vector<ChartData::Point> const& points, Axis const& x, Axis const& y, int cells) {
    Points kept;
    std::set<std::pair<long, long>> taken;
    for (auto const& p : points) {
        if (!(p.x > 0 && p.y > 0)) continue;
        auto cell =
            std::pair{std::lround(fraction(x, p.x) * cells), std::lround(fraction(y, p.y) * cells)};
        if (taken.insert(cell).second) kept.push_back({p.x, p.y});
    }
    return kept;
}

}  // namespace

Chart roofline_chart(ReportContext const& context, ChartData const& data, std::size_t t) {
    auto const& hw = context.target(t);
    auto const& matmuls = context.scenario.ops;
    auto const roof_list = roofs(context, hw);

    Chart chart;
    chart.stem = output::file_name({"roofline", hw.id});
    chart.title = chart_title(context);
    chart.subtitle = "Roofline of " + chip_name(hw);
    chart.x.label = "arithmetic intensity (FLOP/byte)";
    chart.y.label = "attained (FLOP/s)";
    chart.x.log = chart.y.log = true;

    double x_min = INFINITY, x_max = 0, y_min = INFINITY, top = 0;
    for (std::size_t i = 0; i < matmuls.size(); ++i)
        for (auto const& p : data.roofline(i, t))
            if (p.x > 0 && p.y > 0) {
                x_min = std::min(x_min, p.x), x_max = std::max(x_max, p.x);
                y_min = std::min(y_min, p.y), top = std::max(top, p.y);
            }
    for (auto const& r : roof_list) {
        x_min = std::min(x_min, r.ridge), x_max = std::max(x_max, r.ridge);
        top = std::max(top, r.peak);
    }
    if (!(x_min <= x_max)) x_min = 1, x_max = 1e4;
    chart.x.lo = nice_floor(x_min / 1.3);
    chart.x.hi = nice_ceil(x_max * 1.5);
    if (!(y_min <= top)) y_min = top = hw.hbm_bytes_per_s * chart.x.hi;
    chart.y.lo = nice_floor(y_min / 1.3);
    chart.y.hi = y_high(chart.y, top, 0.88);
    chart.x.ticks = log_ticks(chart.x.lo, chart.x.hi, decimal_tick);
    chart.y.ticks = log_ticks(chart.y.lo, chart.y.hi, power_tick);

    std::string const bandwidth = eng(hw.hbm_bytes_per_s, "B/s");
    for (std::size_t r = 0; r < roof_list.size(); ++r) {
        auto const& roof = roof_list[r];
        chart.series.push_back({r == 0 ? "roof (HBM " + bandwidth + ")" : "",
                                "with lines lw 2.5 lc rgb '" + std::string(roof_color) + "'",
                                {{chart.x.lo, hw.hbm_bytes_per_s * chart.x.lo},
                                 {roof.ridge, roof.peak},
                                 {chart.x.hi, roof.peak}},
                                ""});
        chart.series.push_back({"",
                                "with points pt 7 ps 1.4 lc rgb '" + std::string(roof_color) + "'",
                                {{roof.ridge, roof.peak}},
                                ""});
        chart.decorations.push_back("set arrow from first " + num(roof.ridge) +
                                    ", graph 0 to first " + num(roof.ridge) + ", first " +
                                    num(roof.peak) + " nohead dt 2 lw 1 lc rgb '#777777' back");
        // The label sits left of the ridge, above the bandwidth slope, where
        // nothing is drawn; right of it when the axis leaves no room.
        std::string text = roof.dtypes + ": peak " + eng(roof.peak, "FLOP/s") + ", ridge " +
                           eng(roof.ridge, "FLOP/B");
        double width = (static_cast<double>(text.size()) + 1) * char_width_graph;
        bool left = fraction(chart.x, roof.ridge) > width;
        chart.decorations.push_back("set label " + literal(text) + " at first " + num(roof.ridge) +
                                    ", first " + num(roof.peak) + (left ? " right" : " left") +
                                    " offset character " + (left ? "-0.8" : "0.8") +
                                    ", 0.9 tc rgb '" + roof_color + "' front noenhanced");
    }

    bool several_roofs = roof_list.size() > 1;
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
        auto const& m = matmuls[i];
        auto const& points = data.roofline(i, t);
        if (!context.supported_on(m, hw)) {
            chart.key_entries.push_back(key_note(unsupported_note(context, m)));
            continue;
        }
        // Cases of 0 FLOPs or 0 bytes have no place on log axes: named under
        // the chart, and an op with nothing else is no series of the key.
        auto const& off = data.off_log(i, t);
        if (off.off > 0)
            chart.key_entries.push_back(key_note(
                output::off_log_note(op_label(m), off.zero_flops, off.zero_bytes, !off.all())));
        if (off.all()) continue;
        Series s;
        s.title = op_label(m);
        if (several_roofs) s.title += " (" + dtypes_text(context, m) + ")";
        s.style = "with points pt " + std::to_string(open_point(i)) + " ps 1.3 lw 1.5 lc rgb '" +
                  color(i) + "'";
        s.points = thin(points, chart.x, chart.y, 160);
        chart.series.push_back(std::move(s));
    }
    return chart;
}

}  // namespace roofline::report::chart_detail
