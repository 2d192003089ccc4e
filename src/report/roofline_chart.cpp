#include "chart_model.hpp"
#include "output/chart_key.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
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

// The on-chip roof: with on-chip traffic on a chip with an onchip_bandwidth,
// the cases that have it are drawn once more at their on-chip intensity
// (FLOPs per on-chip byte), under attainable = min(peak, intensity x
// onchip_bandwidth). One roof per chip: the bandwidth is the chip's, the peak
// the highest of the ops drawn against it. An on-chip-bound case lies on it.
struct OnchipRoof {
    double rate = 0, peak = 0;
};

std::optional<OnchipRoof> onchip_roof(ReportContext const& context, ChartData const& data,
                                      std::size_t t) {
    auto const& scenario = context.scenario;
    auto const& hw = context.target(t);
    if (!hw.onchip_bytes_per_s || !(*hw.onchip_bytes_per_s > 0)) return std::nullopt;
    OnchipRoof roof{*hw.onchip_bytes_per_s, 0};
    for (std::size_t i = 0; i < scenario.ops.size(); ++i) {
        if (data.onchip(i, t).empty()) continue;
        for (int d : scenario.compute_dtypes_of(scenario.ops[i]))
            if (auto p = hw.peak_for(d)) roof.peak = std::max(roof.peak, *p);
    }
    if (!(roof.peak > 0)) return std::nullopt;
    return roof;
}

}  // namespace

Chart roofline_chart(ReportContext const& context, ChartData const& data, std::size_t t) {
    auto const& hw = context.target(t);
    auto const& matmuls = context.scenario.ops;
    auto const roof_list = roofs(context, hw);
    // An op of 0 FLOPs (a `collective` alone) has no point to draw.
    auto const net_roofs = network_roofs(context, t, [&](std::size_t i) {
        auto const& points = data.network(i, t);
        bool const drawn = std::any_of(points.begin(), points.end(),
                                       [](ChartData::Point const& p) { return p.x > 0; });
        return drawn ? data.network_rate(i, t) : 0.0;
    });
    auto const chip_roof = onchip_roof(context, data, t);

    Chart chart;
    chart.stem = output::file_name({"roofline", hw.id});
    chart.title = chart_title(context);
    chart.subtitle = "Roofline of " + chip_name(hw);
    chart.x.label = "arithmetic intensity (FLOP/byte)";
    chart.y.label = "attained (FLOP/s)";
    chart.x.log = chart.y.log = true;
    output::plot_beside_key(chart);  // the labels beside the ridges need the plot's width

    double x_min = INFINITY, x_max = 0, y_min = INFINITY, top = 0;
    // The cases a log axis can show, and a ridge with its peak.
    auto extend = [&](std::vector<ChartData::Point> const& (ChartData::*points)(std::size_t, std::size_t) const) {
        for (std::size_t i = 0; i < matmuls.size(); ++i)
            for (auto const& p : (data.*points)(i, t))
                if (p.x > 0 && p.y > 0) {
                    x_min = std::min(x_min, p.x), x_max = std::max(x_max, p.x);
                    y_min = std::min(y_min, p.y), top = std::max(top, p.y);
                }
    };
    auto reach = [&](double ridge, double peak) {
        x_min = std::min(x_min, ridge), x_max = std::max(x_max, ridge);
        top = std::max(top, peak);
    };
    extend(&ChartData::roofline);
    for (auto const& r : roof_list) reach(r.ridge, r.peak);
    if (!net_roofs.empty()) {
        chart.x.label = "intensity (FLOP/byte): open marks per HBM byte, filled marks per network byte";
        extend(&ChartData::network);
        for (auto const& r : net_roofs) reach(r.peak / r.rate, r.peak);
    }
    if (chip_roof) {
        chart.x.label = net_roofs.empty()
                            ? "intensity (FLOP/byte): open marks per HBM byte, \u00d7 per on-chip byte"
                            : "intensity (FLOP/byte): open marks per HBM byte, filled per network byte, "
                              "\u00d7 per on-chip byte";
        extend(&ChartData::onchip);
        reach(chip_roof->peak / chip_roof->rate, chip_roof->peak);
    }
    if (!(x_min <= x_max)) x_min = 1, x_max = 1e4;
    chart.x.lo = nice_floor(x_min / 1.3);
    chart.x.hi = nice_ceil(x_max * 1.5);
    if (!(y_min <= top)) y_min = top = hw.hbm_bytes_per_s * chart.x.hi;
    chart.y.lo = nice_floor(y_min / 1.3);
    chart.y.hi = y_high(chart.y, top, 0.88);
    chart.x.ticks = log_ticks(chart.x.lo, chart.x.hi, decimal_tick);
    chart.y.ticks = log_ticks(chart.y.lo, chart.y.hi, power_tick);

    // The HBM roofs' labels sit left of the ridge, above the bandwidth slope,
    // where nothing is drawn; the network ridges' right of theirs, above the
    // peak. The on-chip ridge is in the key, not at the roof: left of the HBM
    // ridge, where that roof's label already is.
    std::string const bandwidth = eng(hw.hbm_bytes_per_s, "B/s");
    for (std::size_t r = 0; r < roof_list.size(); ++r) {
        auto const& roof = roof_list[r];
        output::add_roof(chart, {.title = r == 0 ? "roof (HBM " + bandwidth + ")" : "",
                                 .bandwidth = hw.hbm_bytes_per_s,
                                 .ridge = roof.ridge,
                                 .peak = roof.peak,
                                 .line = "lw 2.5",
                                 .marker = "pt 7 ps 1.4",
                                 .label = roof.dtypes + ": peak " + eng(roof.peak, "FLOP/s") +
                                          ", ridge " + eng(roof.ridge, "FLOP/B")});
    }
    for (auto const& r : net_roofs) {
        double const ridge = r.peak / r.rate;
        output::add_roof(chart, {.title = network_roof_title(r),
                                 .bandwidth = r.rate,
                                 .ridge = ridge,
                                 .peak = r.peak,
                                 .flat = false,
                                 .line = "lw 2 dt 2",
                                 .marker = "pt 6 ps 1.4 lw 2",
                                 .drop_dash = 3,
                                 .label = std::string("network ridge ").append(eng(ridge, "FLOP/B")),
                                 .label_left = false,
                                 // a row above the HBM roofs' labels, which may reach it
                                 .label_rise = 2.2});
    }
    if (chip_roof) {
        double const ridge = chip_roof->peak / chip_roof->rate;
        output::add_roof(chart, {.title = "on-chip roof (" + eng(chip_roof->rate, "B/s") +
                                          ", ridge " + eng(ridge, "FLOP/B") + ")",
                                 .bandwidth = chip_roof->rate,
                                 .ridge = ridge,
                                 .peak = chip_roof->peak,
                                 .flat = false,
                                 .line = "lw 2 dt 4",
                                 .marker = "pt 6 ps 1.4 lw 2",
                                 .drop_dash = 3});
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
        if (chip_roof && !data.onchip(i, t).empty()) {
            Series chip;  // in the key as the op
            chip.style = std::string("with points pt 2 ps 1.3 lw 1.5 lc rgb '").append(color(i)).append("'");
            chip.points = thin(data.onchip(i, t), chart.x, chart.y, 160);
            chart.series.push_back(std::move(chip));
        }
        if (data.network(i, t).empty()) continue;
        // A case's two points share its op's colour and shape, open at its HBM
        // intensity, filled at its network intensity (the x axis says so).
        Series net;  // in the key as the op
        net.style = std::string("with points pt ")
                        .append(std::to_string(filled_point(i)))
                        .append(" ps 1.1 lc rgb '")
                        .append(color(i))
                        .append("'");
        net.points = thin(data.network(i, t), chart.x, chart.y, 160);
        chart.series.push_back(std::move(net));
    }
    // A model's ops make a long key: beside the plot, which keeps half the width.
    output::key_beside(chart);
    return chart;
}

}  // namespace roofline::report::chart_detail
