#include "roofline/diff/diff_charts.hpp"

#include "roofline/diff/diff_text.hpp"
#include "roofline/diff/gnuplot_run.hpp"
#include "report/gnuplot_text.hpp"
#include "roofline/report/chart_writer.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <cmath>
#include <filesystem>

namespace roofline::diff {

namespace {

constexpr std::array<char const*, 10> palette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                 "#bcbd22", "#7f7f7f"};
constexpr std::size_t max_key_series = 30;

std::string color(std::size_t i) {
    return std::string("rgb '") + palette[i % palette.size()] + "'";
}

double floor_decade(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double ceil_decade(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

namespace cd = report::chart_detail;
std::string n(double v) { return cd::num(v); }
std::string si(double v, char const* unit) { return cd::eng(v, unit); }

using Points = std::vector<std::pair<double, double>>;
using Chart = GnuplotChart;

// A file name part: letters, digits, '_', '-' and '.'; anything else '_'.
std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) {
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
        out += ok ? ch : '_';
    }
    return out.empty() || out[0] == '.' ? "_" + out : out;
}

std::string title(std::string const& text, bool in_key, std::size_t max_chars = 60) {
    return in_key ? " title " + cd::literal(text, max_chars) : " notitle";
}

std::string side_name(ReportInfo const& r, std::string const& hw) {
    return hw + " (" + r.label() + ")";
}

double bandwidth(std::vector<DiffChartData::Roof> const& roofs) {
    return roofs.empty() ? NAN : roofs.front().peak / roofs.front().ridge;
}

Chart roofline_chart(DiffChartData const& d, std::uint32_t p) {
    auto const& m = d.matcher;
    auto const& pair = m.pairing().pairs[p];
    Chart chart;
    chart.stem = "roofline-" + file_part(pair.a) + "-" + file_part(pair.b);
    chart.key =
        "inside right bottom vertical box lc rgb '#c0c0c0' opaque maxrows 16";  // below the roofs:
                                                                                // empty
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
    if (!(y_hi > 0)) y_hi = 1e15;
    y_lo = floor_decade(std::min(y_lo, y_hi / 1e3) / 1.3), y_hi *= 2.5;
    chart.settings = "set title " + cd::literal("Rooflines: A = " + side_name(m.a(), pair.a)) +
                     ".\"\\n\"." + cd::literal("B = " + side_name(m.b(), pair.b)) + "\n";
    chart.settings += "set logscale xy 10\nset xlabel 'arithmetic intensity (FLOP/byte)'\n";
    chart.settings += "set ylabel 'attained (FLOP/s)'\n";
    chart.settings += "set format y '%.0s%c'\nset xrange [" + n(x_lo) + ":" + n(x_hi) +
                      "]\nset yrange [" + n(y_lo) + ":" + n(y_hi) + "]\n";
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
            double bw = r.peak / r.ridge;
            chart.add("with lines" + style + title(label, i == 0, 100),
                      {{x_lo, bw * x_lo}, {r.ridge, r.peak}, {x_hi, r.peak}});
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
            chart.settings += "set label " + cd::literal(text) + " at first " + n(r.ridge) +
                              ", first " + n(r.peak) +
                              (side == 0 ? " left offset character 0.6, -1.1"
                                         : " right offset character -0.6, 1.1") +
                              " tc rgb '#404040' front\n";
        }
    }
    std::size_t in_key = 0;
    for (auto const& [key, series] : d.roofline) {
        auto [pair_index, matmul, side] = key;
        if (pair_index != p) continue;
        std::string marker = side == 0 ? " pt 6 ps 1.1" : " pt 7 ps 1.0";
        bool keyed = side == 1 && in_key++ < max_key_series;
        chart.add("with points" + marker + " lc " + color(matmul) +
                      title(m.ops()[matmul].label(), keyed),
                  series.all());
    }
    chart.keys.push_back("with points pt 6 ps 1.1 lc rgb '#404040'" +
                         title("open markers: A (" + pair.a + ")", true));
    chart.keys.push_back("with points pt 7 ps 1.0 lc rgb '#404040'" +
                         title("filled markers: B (" + pair.b + ")", true));
    return chart;
}

Chart speedup_chart(DiffChartData const& d, std::size_t v, std::uint32_t p) {
    auto const& m = d.matcher;
    auto const& pair = m.pairing().pairs[p];
    auto const& name = m.sweep_names()[v];
    Chart chart;
    chart.stem = "speedup-" + file_part(name) + "-" + file_part(pair.a) + "-" + file_part(pair.b);

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
                      number_text(d.first[w]);
    if (!others.empty()) others += ")";
    chart.settings = "set title " + cd::literal("Speedup (t_lower A / t_lower B) against " + name) +
                     ".\"\\n\"." + cd::literal(sides, 120) + "\n";
    chart.settings += "set xlabel " + cd::literal(name + others) + "\n";
    chart.settings += "set ylabel 'speedup A/B (above 1: B is faster)'\n";
    chart.settings += log_x ? "set logscale x 2\n" : "";
    chart.settings += "set xrange [" + n(log_x ? x_lo / 1.1 : x_lo - (x_hi - x_lo) * 0.02) + ":" +
                      n(log_x ? x_hi * 1.1 : x_hi + (x_hi - x_lo) * 0.02) + "]\n";
    chart.settings +=
        log_y ? "set logscale y 10\nset yrange [" + n(y_lo / 1.5) + ":" + n(y_hi * 1.5) + "]\n"
              : "set yrange [0:" + n(y_hi * 1.15) + "]\n";
    chart.settings += "set format y '%g×'\n";
    for (auto const& l : lines) {
        std::string label;
        for (auto const& part : l.parts) label += (label.empty() ? "" : " = ") + part;
        if (l.parts.size() == 1 && label.find("HBM") == 0) label += " (memory-bound)";
        if (l.parts.size() == 1 && label.find(" peak ") != std::string::npos)
            label += " (compute-bound)";
        chart.add("with lines " + l.style + title(label + ": " + format_speedup(l.y), true, 100),
                  {{x_lo, l.y}, {x_hi, l.y}});
    }
    std::size_t in_key = 0;
    for (auto const& [key, series] : d.speedup) {
        auto [v_key, pair_index, matmul] = key;
        if (v_key != v || pair_index != p) continue;
        auto points = series.all();
        std::string style =
            points.size() <= 40 ? "with linespoints pt 7 ps 0.9 lw 2" : "with lines lw 2";
        chart.add(style + " lc " + color(matmul) +
                      title(m.ops()[matmul].label(), in_key++ < max_key_series),
                  std::move(points));
    }
    return chart;
}

}  // namespace

std::vector<std::string> render_diff_charts(std::string const& folder, DiffChartData const& data) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder))
        throw report::ChartError("cannot create chart folder " + folder + ": " +
                                 (ec ? ec.message() : "not a folder"));
    auto const& m = data.matcher;
    std::vector<Chart> charts;
    for (std::uint32_t p = 0; p < m.pairing().pairs.size(); ++p) {
        if (data.roofs_a[p].empty() && data.roofs_b[p].empty()) continue;  // no case on both sides
        charts.push_back(roofline_chart(data, p));
        for (std::size_t v = 0; v < m.sweep_names().size(); ++v)
            charts.push_back(speedup_chart(data, v, p));
    }
    std::vector<std::string> files;
    for (auto const& chart : charts) {
        files.push_back(chart.stem + ".png");
        files.push_back(chart.stem + ".svg");
    }
    auto where = std::filesystem::absolute(folder, ec);
    if (ec) throw report::ChartError("cannot find chart folder " + folder + ": " + ec.message());
    run_gnuplot(charts, where.string());
    for (auto const& file : files)
        if (std::filesystem::file_size(std::filesystem::path(folder) / file, ec) == 0 || ec)
            throw report::ChartError("gnuplot wrote no " + folder + "/" + file);
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace roofline::diff
