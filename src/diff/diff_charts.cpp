#include "diff_charts.hpp"

#include "diff_text.hpp"
#include "roofline/output/errors.hpp"
#include "output/chart.hpp"
#include "output/chart_axes.hpp"
#include "output/chart_roofs.hpp"
#include "output/file_names.hpp"
#include "output/gnuplot_text.hpp"
#include "output/render_charts.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>

namespace roofline::diff {

namespace {

using output::Chart;
using Points = output::Points;

// The key as the report's charts have it (output::Chart's default): below
// the plot, where it covers no case, every entry shown (a chart has at most
// max_ops_per_chart matmuls).
constexpr char const* grid = "lw 1 lc rgb '#e4e4e4'";

std::string color(std::size_t i) { return "rgb '" + output::color(i) + "'"; }

static_assert(DiffChartData::max_ops_per_chart <= output::palette_size,
              "no two matmuls of a chart may share a colour");

// The matmuls of one chart of a pair: `ops` (indices into Matcher::ops()),
// part `part` of `parts` (0-based), of `total` matmuls in all.
struct Group {
    std::vector<std::uint32_t> ops;
    std::size_t part = 0, parts = 1, total = 0;

    // The matmul's place in the group: its colour, unique within a chart.
    std::size_t slot(std::uint32_t op) const {
        return static_cast<std::size_t>(std::find(ops.begin(), ops.end(), op) - ops.begin());
    }
    bool has(std::uint32_t op) const { return slot(op) < ops.size(); }
    // The chart's file name from `names`, and the part's number ("-2") when
    // there are several: a part of its own, so that the names keep no '-'.
    std::string stem(std::vector<std::string_view> names) const {
        std::string const number = std::to_string(part + 1);
        if (parts > 1) names.push_back(number);
        return output::file_name(names);
    }
    // " (ops 11–20 of 20)" after the title of a part: matmuls and elementwise ops alike.
    std::string title_note() const {
        if (parts == 1) return "";
        std::size_t first = 0;
        for (std::size_t k = 0; k < part; ++k)
            first += total / parts + (k < total % parts ? 1 : 0);
        return std::string(" (ops ")
            .append(std::to_string(first + 1))
            .append("\u2013")
            .append(std::to_string(first + ops.size()))
            .append(" of ")
            .append(std::to_string(total))
            .append(")");
    }
};

// The matmuls of pair p that any chart of it shows, in their order, cut into
// parts of at most max_ops_per_chart, sizes as equal as can be (20: 10 + 10).
std::vector<Group> groups(DiffChartData const& d, std::uint32_t p) {
    std::vector<std::uint32_t> ops;
    for (auto const& [key, series] : d.roofline)
        if (std::get<0>(key) == p) ops.push_back(std::get<1>(key));
    for (auto const& [key, series] : d.speedup)
        if (std::get<1>(key) == p) ops.push_back(std::get<2>(key));
    for (auto const& [key, off] : d.off_log)
        if (key.first == p) ops.push_back(key.second);
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    std::size_t const max = DiffChartData::max_ops_per_chart;
    std::size_t const parts = std::max<std::size_t>(1, (ops.size() + max - 1) / max);
    std::vector<Group> result;
    std::size_t at = 0;
    for (std::size_t k = 0; k < parts; ++k) {
        std::size_t size = ops.size() / parts + (k < ops.size() % parts ? 1 : 0);
        Group g;
        g.ops.assign(ops.begin() + static_cast<std::ptrdiff_t>(at),
                     ops.begin() + static_cast<std::ptrdiff_t>(at + size));
        g.part = k, g.parts = parts, g.total = ops.size();
        result.push_back(std::move(g));
        at += size;
    }
    return result;
}

using output::add_series;
using output::ceil_decade;
using output::floor_decade;

std::string si(double v, char const* unit) { return output::eng(v, unit); }

std::string side_name(ComparedReport const& r, std::string const& hw) {
    return hw + " (" + r.label() + ")";
}

double bandwidth(std::vector<DiffChartData::Roof> const& roofs) {
    return roofs.empty() ? NAN : roofs.front().peak / roofs.front().ridge;
}

Chart roofline_chart(DiffChartData const& d, std::uint32_t p, Group const& group) {
    auto const& m = d.matcher;
    auto const& pair = m.pairing().pairs[p];
    Chart chart;
    chart.stem = group.stem({"roofline", pair.a, pair.b});
    chart.grid = grid;
    double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
    for (auto const& [key, series] : d.roofline)
        if (std::get<0>(key) == p)
            for (auto const& [x, y] : series.all())
                if (x > 0 && y > 0)
                    x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y);
    for (auto const* roofs : {&d.roofs_a[p], &d.roofs_b[p]})
        for (auto const& r : *roofs)
            x_lo = std::min(x_lo, r.ridge), x_hi = std::max(x_hi, r.ridge),
            y_hi = std::max(y_hi, r.peak);
    if (!(x_lo <= x_hi)) x_lo = 1, x_hi = 1e4;
    x_lo = floor_decade(x_lo / 1.3), x_hi = ceil_decade(x_hi * 1.5);
    // Room for the ridge labels: A's run right from its ridge, B's left from
    // it (below); a decade more where one would leave the plot.
    auto room = [&](double ridge, bool right) {
        double f = std::log(ridge / x_lo) / std::log(x_hi / x_lo);
        return right ? 1 - f : f;
    };
    for (int side = 0; side < 2; ++side)
        for (auto const& r : side == 0 ? d.roofs_a[p] : d.roofs_b[p]) {
            double need = (std::string_view("A ridge 1000 FLOP/B").size() + 1) * output::char_width_graph;
            for (int k = 0; k < 3 && room(r.ridge, side == 0) < need; ++k)
                (side == 0 ? x_hi : x_lo) *= side == 0 ? 10 : 0.1;
        }
    if (!(y_hi > 0)) y_hi = 1e15;
    y_lo = floor_decade(std::min(y_lo, y_hi / 1e3) / 1.3), y_hi *= 2.5;
    chart.title = "Rooflines: A = " + side_name(m.a(), pair.a) + group.title_note();
    chart.subtitle = "B = " + side_name(m.b(), pair.b);
    chart.x = output::log_axis("arithmetic intensity (FLOP/byte)", x_lo, x_hi, output::decimal_tick);
    chart.y = output::log_axis("attained (FLOP/s)", y_lo, y_hi, output::power_tick);
    // Ridge labels on an opaque ground: another roof may pass behind one.
    chart.decorations.push_back("set style textbox opaque noborder");
    for (int side = 0; side < 2; ++side) {
        auto const& roofs = side == 0 ? d.roofs_a[p] : d.roofs_b[p];
        auto const& other = side == 0 ? d.roofs_b[p] : d.roofs_a[p];
        if (roofs.empty()) continue;
        std::string style =
            side == 0 ? " dt 2 lw 2 lc rgb '#808080'" : " dt 1 lw 2.5 lc rgb '#202020'";
        std::string label = std::string(side == 0 ? "A roof, " : "B roof, ") +
                            (side == 0 ? pair.a : pair.b) + ": " +
                            si(roofs.front().peak / roofs.front().ridge, "B/s") + ";";
        for (std::size_t i = 0; i < roofs.size(); ++i)
            label += (i ? ", " : " ") + m.dtypes()[roofs[i].dtype] + " " + si(roofs[i].peak, "");
        label += "FLOP/s";
        for (std::size_t i = 0; i < roofs.size(); ++i) {
            auto const& r = roofs[i];
            add_series(chart, i == 0 ? label : "", "with lines" + style,
                       output::roof_points(r.peak / r.ridge, r.ridge, r.peak, x_lo, x_hi), 100);
            // The ridge: A's right of and below its kink, B's left of and above
            // it, where no case is drawn; once where both sides share it.
            bool shared =
                std::any_of(other.begin(), other.end(), [&](DiffChartData::Roof const& o) {
                    return o.peak == r.peak && o.ridge == r.ridge;
                });
            if (shared && side == 1) continue;
            std::string text = std::string(shared      ? "ridge "
                                           : side == 0 ? "A ridge "
                                                       : "B ridge ") +
                               si(r.ridge, "FLOP/B");
            chart.decorations.push_back(output::label_at(
                text, r.ridge, r.peak,
                side == 0 ? "left offset character 0.6, -1.1 tc rgb '#404040' boxed front"
                          : "right offset character -0.6, 1.1 tc rgb '#404040' boxed front"));
        }
    }
    for (auto const& [key, series] : d.roofline) {
        auto [pair_index, op, side] = key;
        if (pair_index != p || !group.has(op)) continue;
        std::string marker = side == 0 ? " pt 6 ps 1.1" : " pt 7 ps 1.0";
        // Named once, by B's markers; an op of A only (as the eager ops a
        // kernel replaces) by its own.
        auto other = key;
        std::get<2>(other) = 1;
        bool a_only = side == 0 && !d.roofline.count(other);
        add_series(chart, side == 1 ? m.ops()[op].label() : a_only ? m.ops()[op].label() + " (A only)" : "",
            "with points" + marker + " lc " + color(group.slot(op)), series.all(), 60);
    }
    // Cases of 0 FLOPs or 0 bytes: a note each, not a series.
    for (auto op : group.ops) {
        auto off = d.off_log.find({p, op});
        if (off == d.off_log.end() || off->second.off == 0) continue;
        chart.key_entries.push_back(output::key_note(
            output::off_log_note(m.ops()[op].label(), off->second.zero_flops,
                                 off->second.zero_bytes, off->second.on > 0)));
    }
    chart.key_entries.push_back({"with points pt 6 ps 1.1 lc rgb '#404040'",
                                 "open markers: A (" + pair.a + ")", 60});
    chart.key_entries.push_back({"with points pt 7 ps 1.0 lc rgb '#404040'",
                                 "filled markers: B (" + pair.b + ")", 60});
    return chart;
}

Chart speedup_chart(DiffChartData const& d, std::size_t v, std::uint32_t p, Group const& group) {
    auto const& m = d.matcher;
    auto const& pair = m.pairing().pairs[p];
    auto const& name = m.sweep_names()[v];
    Chart chart;
    chart.stem = group.stem({"speedup", name, pair.a, pair.b});
    chart.grid = grid;

    // Reference lines; those at the same value share one line and label.
    struct Line {
        double y;
        std::vector<std::string> parts;
        std::string style;
    };
    std::vector<Line> lines;
    auto line = [&](double y, std::string part, char const* style) {
        for (auto& l : lines)
            if (std::fabs(l.y / y - 1) < 1e-9) {
                l.parts.push_back(std::move(part));
                return;
            }
        lines.push_back({y, {std::move(part)}, style});
    };
    line(1, "no change", "dt 3 lw 1.5 lc rgb '#909090'");
    double bw_a = bandwidth(d.roofs_a[p]), bw_b = bandwidth(d.roofs_b[p]);
    if (bw_a > 0 && bw_b > 0) line(bw_b / bw_a, "HBM bandwidth B/A", "dt 2 lw 2 lc rgb '#404040'");
    std::vector<std::pair<double, std::string>> peaks;  // ratio, dtypes
    for (auto const& ra : d.roofs_a[p])
        for (auto const& rb : d.roofs_b[p]) {
            if (ra.dtype != rb.dtype) continue;
            double ratio = rb.peak / ra.peak;
            auto same = std::find_if(peaks.begin(), peaks.end(), [&](auto const& x) {
                return std::fabs(x.first / ratio - 1) < 1e-9;
            });
            if (same != peaks.end())
                same->second += ", " + m.dtypes()[ra.dtype];
            else
                peaks.push_back({ratio, m.dtypes()[ra.dtype]});
        }
    for (auto const& [ratio, dtypes] : peaks)
        line(ratio, dtypes + " peak B/A", "dt 4 lw 2 lc rgb '#404040'");

    double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = 0;
    for (auto const& [key, series] : d.speedup)
        if (std::get<0>(key) == v && std::get<1>(key) == p)
            for (auto const& [x, y] : series.all())
                x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y),
                y_hi = std::max(y_hi, y);
    for (auto const& l : lines) y_lo = std::min(y_lo, l.y), y_hi = std::max(y_hi, l.y);
    if (!(x_lo <= x_hi)) x_lo = 0, x_hi = 1;
    if (x_lo == x_hi) x_lo -= 1, x_hi += 1;
    bool log_x = x_lo > 0 && x_hi / x_lo > 50;
    bool log_y = y_lo > 0 && y_hi / y_lo > 20;

    std::string const sides =
        "A = " + side_name(m.a(), pair.a) + "  →  B = " + side_name(m.b(), pair.b);
    std::string others;  // where the other sweeps are held
    for (std::size_t w = 0; w < m.sweep_names().size() && w < d.first.size(); ++w)
        if (w != v && !std::isnan(d.first[w]))
            others += (others.empty() ? " (" : ", ") + m.sweep_names()[w] + " = " +
                      m.sweep_text(w, d.first[w]);
    if (!others.empty()) others += ")";
    chart.title = "Speedup (t_lower A / t_lower B) against " + name + group.title_note();
    chart.subtitle = sides;
    chart.x = {name + others, log_x, 2, log_x ? x_lo / 1.1 : x_lo - (x_hi - x_lo) * 0.02,
               log_x ? x_hi * 1.1 : x_hi + (x_hi - x_lo) * 0.02, {}, ""};
    chart.y = {"speedup A/B (above 1: B is faster)", log_y, 10, log_y ? y_lo / 1.5 : 0,
               log_y ? y_hi * 1.5 : y_hi * 1.15, {}, "%g×"};
    for (auto const& l : lines) {
        std::string label;
        for (auto const& part : l.parts) label += (label.empty() ? "" : " = ") + part;
        if (l.parts.size() == 1 && label.find("HBM") == 0) label += " (memory-bound)";
        if (l.parts.size() == 1 && label.find(" peak ") != std::string::npos)
            label += " (compute-bound)";
        add_series(chart, label + ": " + format_speedup(l.y), "with lines " + l.style,
            {{x_lo, l.y}, {x_hi, l.y}}, 100);
    }
    for (auto const& [key, series] : d.speedup) {
        auto [v_key, pair_index, op] = key;
        if (v_key != v || pair_index != p || !group.has(op)) continue;
        auto points = series.all();
        std::size_t const k = group.slot(op);
        std::string style = points.size() <= 40
                                ? std::string("with linespoints pt ")
                                      .append(std::to_string(output::filled_point(k)))
                                      .append(" ps 0.9 lw 2")
                                : std::string("with lines lw 2");
        add_series(chart, m.ops()[op].label(),
            style + " dt " + std::to_string(output::dash_type(k)) + " lc " + color(k),
            std::move(points), 60);
    }
    // The reference lines again, on top and out of the key: where every op
    // sits at the HBM ratio (a memory-bound decode), its line would
    // otherwise lie hidden under theirs.
    for (auto const& l : lines)
        add_series(chart, "", "with lines " + l.style, {{x_lo, l.y}, {x_hi, l.y}}, 100);
    return chart;
}

}  // namespace

std::vector<std::string> render_diff_charts(std::string const& folder, DiffChartData const& data) {
    auto const& m = data.matcher;
    std::vector<Chart> charts;
    for (std::uint32_t p = 0; p < m.pairing().pairs.size(); ++p) {
        if (data.roofs_a[p].empty() && data.roofs_b[p].empty()) continue;  // no case on both sides
        for (auto const& group : groups(data, p)) {
            charts.push_back(roofline_chart(data, p, group));
            for (std::size_t v = 0; v < m.sweep_names().size(); ++v)
                if (!m.sweep_of_dtypes(v))  // no axis to draw a dtype along
                    charts.push_back(speedup_chart(data, v, p, group));
        }
    }
    std::vector<std::string> files;
    for (auto const& chart : charts) {
        files.push_back(chart.stem + ".png");
        files.push_back(chart.stem + ".svg");
    }
    output::render_charts(std::move(charts), folder);
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace roofline::diff
