#include "xlsx_state.hpp"

#include "chart_model.hpp"

#include "output/chart.hpp"
#include "output/chart_sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace roofline::report {

// ---- Charts ------------------------------------------------------------------------

// Keeps (intensity, attained) of evenly spaced sweep points for the charts:
// point floor(k (P-1) / (N-1)) for k = 0 .. N-1, every point when P <= N
// (output::sample_index rounding down, as the workbook always has: the PNG
// charts round to the nearest, and neither may move a point).
void XlsxWriter::State::sample(engine::Case const& cs) {
    auto const& x = cs.metrics;
    if (x.bound == engine::Bound::unsupported) return;
    bool const off = off_log[cs.op * targets + cs.target].add(x);
    // The network roofs' rates over every communicating case of FLOPs (as
    // the PNG's: chart_detail::network_roofs), not only the sample.
    if (network_rate.empty()) network_rate.assign(matmuls * targets, 0.0);
    if (x.net_bytes > 0 && x.t_net > 0 && x.counts.flops > 0) {
        double& rate = network_rate[cs.op * targets + cs.target];
        rate = std::max(rate, x.net_bytes / x.t_net);
    }
    std::uint64_t cap = options.chart_points_per_series, p = cs.point;
    if (points > cap) {
        auto point_of = [&](std::uint64_t k) {
            return output::sample_index(points, cap, k, output::Sampling::down);
        };
        while (sample_k < cap && point_of(sample_k) < p) ++sample_k;
        if (sample_k >= cap || point_of(sample_k) != p) return;
    }
    // A log axis has no place for 0 (nor for an infinite intensity).
    if (off || !(x.intensity > 0 && x.attained > 0) || !std::isfinite(x.intensity) ||
        !std::isfinite(x.attained))
        return;
    samples[cs.op * targets + cs.target].emplace_back(x.intensity, x.attained);
}

void XlsxWriter::State::write_charts() {
    lxw_worksheet* ws = charts;
    std::size_t const cap = options.chart_points_per_series;
    // Charts on the left (columns A..N), their data on the right from column P.
    constexpr std::size_t data_col0 = 14, data_row0 = 4, chart_rows = 32;

    struct Series {
        std::size_t target;
        std::string name;
        std::vector<std::pair<double, double>> const* points = nullptr;  // cases
        std::vector<std::pair<double, double>> roof;                     // or a roof
        int roof_index = -1;
        bool network = false;  // a network roof: drawn lighter, long dashes
        std::size_t col = 0;
        std::size_t size() const { return points ? points->size() : roof.size(); }
        std::pair<double, double> at(std::size_t i) const { return points ? (*points)[i] : roof[i]; }
    };
    struct Plot {
        std::size_t target;
        double x_min, x_max, y_min, y_max;
        std::vector<std::size_t> series;
        std::string note;  // the ops a log axis cannot show; empty: none
    };
    std::vector<Series> all;
    std::vector<Plot> plots;
    auto decade_down = [](double v) { return std::pow(10.0, std::floor(std::log10(v))); };
    auto decade_up = [](double v) { return std::pow(10.0, std::ceil(std::log10(v))); };

    for (std::size_t t = 0; t < targets; ++t) {
        auto const& hw = ctx.target(t);
        double lo = INFINITY, hi = 0, ylo = INFINITY, yhi = 0;
        std::vector<std::size_t> slots;
        for (std::size_t k = 0; k < dtypes.size(); ++k) {
            auto peak = hw.peak_for(dtypes[k]);
            if (!peak) continue;
            slots.push_back(k);
            double ridge = *peak / hw.hbm_bytes_per_s;
            lo = std::min(lo, ridge / 4);
            hi = std::max(hi, ridge * 4);
            yhi = std::max(yhi, *peak);
        }
        // With a mesh, the network roofs, as the PNG roofline draws them: the
        // slope of the rate up to the ridge, peak / rate.
        auto const net_roofs = chart_detail::network_roofs(ctx, t, [&](std::size_t m) {
            return network_rate.empty() ? 0.0 : network_rate[m * targets + t];
        });
        if (!slots.empty())
            for (auto const& r : net_roofs) {
                lo = std::min(lo, r.peak / r.rate / 4);
                hi = std::max(hi, r.peak / r.rate * 4);
            }
        for (std::size_t m = 0; m < matmuls; ++m)
            for (auto [i, a] : samples[m * targets + t]) {
                lo = std::min(lo, i);
                hi = std::max(hi, i);
                ylo = std::min(ylo, a);
                yhi = std::max(yhi, a);
            }
        if (slots.empty()) continue;  // nothing to plot on this target
        Plot plot{t, decade_down(lo), decade_up(hi), 0, 0, {}, {}};
        if (plot.x_max <= plot.x_min) plot.x_max = plot.x_min * 10;
        ylo = std::min(ylo, hw.hbm_bytes_per_s * plot.x_min);
        for (auto const& r : net_roofs) ylo = std::min(ylo, r.rate * plot.x_min);
        plot.y_min = decade_down(ylo);
        plot.y_max = decade_up(yhi * 1.01);
        int roof_index = 0;
        for (std::size_t k : slots) {
            double peak = *hw.peak_for(dtypes[k]);
            double ridge = peak / hw.hbm_bytes_per_s;
            Series sr{t, "roof " + dtype_names[k], nullptr,
                      {{plot.x_min, hw.hbm_bytes_per_s * plot.x_min}, {ridge, peak}, {plot.x_max, peak}},
                      roof_index++};
            plot.series.push_back(all.size());
            all.push_back(std::move(sr));
        }
        for (auto const& r : net_roofs) {
            Series sr{t, chart_detail::network_roof_title(r), nullptr,
                      {{plot.x_min, r.rate * plot.x_min}, {r.peak / r.rate, r.peak}}, roof_index++};
            sr.network = true;
            plot.series.push_back(all.size());
            all.push_back(std::move(sr));
        }
        for (std::size_t m = 0; m < matmuls; ++m) {
            auto const& off = off_log[m * targets + t];
            if (off.off > 0)
                plot.note.append(plot.note.empty() ? "" : "; ")
                    .append(output::off_log_note(op_label[m], off.zero_flops, off.zero_bytes,
                                                 !off.all()));
        }
        for (std::size_t m = 0; m < matmuls; ++m) {
            auto const& pts = samples[m * targets + t];
            if (pts.empty()) continue;
            plot.series.push_back(all.size());
            all.push_back(Series{t, op_label[m], &pts, {}, -1});
        }
        plots.push_back(std::move(plot));
    }

    // The data table, row by row (constant-memory mode).
    str(ws, 0, 0, "Roofline of each target: attained FLOP/s against intensity (FLOP/byte), log-log",
        fmt.section);
    str(ws, 0, data_col0,
        "Chart data: up to " + std::to_string(cap) +
            " sweep points per series, evenly spaced over the sweep (first and last included)",
        fmt.note);
    str(ws, 1, 0,
        "Each matmul's cases as points; the roof is the bandwidth slope up to the ridge, then the "
        "peak.",
        fmt.note);
    std::size_t rows = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i].col = data_col0 + 2 * i;
        rows = std::max(rows, all[i].size());
    }
    for (auto const& sr : all) str(ws, 1, sr.col, ctx.target(sr.target).id, fmt.label);
    for (auto const& sr : all) str(ws, 2, sr.col, sr.name, fmt.label);
    for (auto const& sr : all) {
        str(ws, 3, sr.col, "intensity", fmt.header);
        str(ws, 3, sr.col + 1, "attained", fmt.header);
        width(ws, sr.col, 11);
        width(ws, sr.col + 1, 11);
    }
    // Under each chart (576 px from row 3 + 32 n + 10 px: 29.3 rows of 20 px),
    // on its page: what it cannot show. Text, never a formula. Written in row
    // order with the data (the sheet is written row by row).
    std::size_t next_note = 0;
    auto notes_before = [&](std::size_t row) {
        for (; next_note < plots.size(); ++next_note) {
            std::size_t at = 3 + next_note * chart_rows + chart_rows - 1;
            if (at >= row) break;
            if (!plots[next_note].note.empty()) str(ws, at, 0, plots[next_note].note, fmt.note);
        }
    };
    for (std::size_t i = 0; i < rows; ++i) {
        notes_before(data_row0 + i + 1);
        for (auto const& sr : all)
            if (i < sr.size()) {
                auto [x, y] = sr.at(i);
                num(ws, data_row0 + i, sr.col, x, fmt.ratio);
                num(ws, data_row0 + i, sr.col + 1, y, fmt.sci);
            }
    }
    notes_before(static_cast<std::size_t>(-1));

    static constexpr std::uint8_t markers[] = {
        LXW_CHART_MARKER_CIRCLE, LXW_CHART_MARKER_SQUARE, LXW_CHART_MARKER_DIAMOND,
        LXW_CHART_MARKER_TRIANGLE, LXW_CHART_MARKER_X, LXW_CHART_MARKER_PLUS, LXW_CHART_MARKER_STAR};
    // Explicit colours (Tableau 10): viewers differ in their automatic ones.
    static constexpr lxw_color_t palette[] = {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F,
                                              0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F, 0xBAB0AC};
    static constexpr std::uint8_t dashes[] = {LXW_CHART_LINE_DASH_SOLID, LXW_CHART_LINE_DASH_DASH,
                                              LXW_CHART_LINE_DASH_ROUND_DOT,
                                              LXW_CHART_LINE_DASH_LONG_DASH_DOT};
    char const* sheet = "Charts";
    for (std::size_t n = 0; n < plots.size(); ++n) {
        auto const& plot = plots[n];
        auto const& hw = ctx.target(plot.target);
        lxw_chart* chart = workbook_add_chart(book->get(), LXW_CHART_SCATTER);
        if (!chart) throw output::WriteError(path + ": adding a chart: out of memory");
        // Names are data: a title that starts with text cannot be read as a
        // formula, and libxlsxwriter writes it into the chart's XML as it is;
        // series names point at the header cells written above.
        std::string title = output::xml_safe_text(
            "Roofline: " + hw.display_name +
            (hw.display_name == hw.id ? std::string() : " (" + hw.id + ")"));
        chart_title_set_name(chart, title.c_str());
        std::size_t marker = 0;
        for (std::size_t i : plot.series) {
            auto const& sr = all[i];
            lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
            if (!series) throw output::WriteError(path + ": adding a chart series: out of memory");
            auto first = static_cast<lxw_row_t>(data_row0);
            auto last = static_cast<lxw_row_t>(data_row0 + sr.size() - 1);
            chart_series_set_categories(series, sheet, first, static_cast<lxw_col_t>(sr.col), last,
                                        static_cast<lxw_col_t>(sr.col));
            chart_series_set_values(series, sheet, first, static_cast<lxw_col_t>(sr.col + 1), last,
                                    static_cast<lxw_col_t>(sr.col + 1));
            chart_series_set_name_range(series, sheet, 2, static_cast<lxw_col_t>(sr.col));
            if (sr.roof_index >= 0) {
                lxw_chart_line line{};
                line.color = sr.network ? 0x808080 : 0x404040;
                line.width = 1.5f;
                line.dash_type = sr.network ? std::uint8_t{LXW_CHART_LINE_DASH_LONG_DASH}
                                            : dashes[static_cast<std::size_t>(sr.roof_index) % std::size(dashes)];
                chart_series_set_line(series, &line);
                chart_series_set_marker_type(series, LXW_CHART_MARKER_NONE);
            } else {
                lxw_chart_line none{};
                none.none = LXW_TRUE;
                chart_series_set_line(series, &none);
                chart_series_set_marker_type(series, markers[marker % std::size(markers)]);
                chart_series_set_marker_size(series, 5);
                lxw_chart_fill fill{};
                fill.color = palette[marker % std::size(palette)];
                chart_series_set_marker_fill(series, &fill);
                lxw_chart_line border{};
                border.color = fill.color;
                chart_series_set_marker_line(series, &border);
                ++marker;
            }
        }
        chart_axis_set_name(chart->x_axis, "intensity (FLOP/byte)");
        chart_axis_set_log_base(chart->x_axis, 10);
        chart_axis_set_min(chart->x_axis, plot.x_min);
        chart_axis_set_max(chart->x_axis, plot.x_max);
        chart_axis_set_num_format(chart->x_axis, "General");
        chart_axis_set_name(chart->y_axis, "attained (FLOP/s)");
        chart_axis_set_log_base(chart->y_axis, 10);
        chart_axis_set_min(chart->y_axis, plot.y_min);
        chart_axis_set_max(chart->y_axis, plot.y_max);
        chart_axis_set_num_format(chart->y_axis, "0E+00");
        chart_axis_set_major_unit(chart->x_axis, 10);  // a gridline per decade
        chart_axis_set_major_unit(chart->y_axis, 10);
        chart_axis_set_crossing_min(chart->x_axis);
        chart_axis_set_crossing_min(chart->y_axis);
        // Below the plot, as the gnuplot charts have it: a model's 20 ops
        // beside it would leave the plot a third of the width.
        chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);

        lxw_chart_options place{};
        place.x_offset = 10;
        place.y_offset = 10;
        place.x_scale = 1.5;  // 720 x 576 pixels: a landscape page at 80%, with room
                              // for a default font wider than Calibri and a
        place.y_scale = 2.0;  // legend of a model's ops below the plot
        check(worksheet_insert_chart_opt(ws, static_cast<lxw_row_t>(3 + n * chart_rows), 0, chart,
                                         &place),
              "inserting the chart of " + hw.id);

    }
    if (plots.empty()) str(ws, 3, 0, "No target supports any compute dtype of the scenario.", fmt.note);
    // Print the charts, not their data, one to a page.
    std::vector<lxw_row_t> breaks;
    for (std::size_t n = 1; n < plots.size() && breaks.size() < 1000; ++n)
        breaks.push_back(static_cast<lxw_row_t>(3 + n * chart_rows));
    breaks.push_back(0);
    check(worksheet_set_h_pagebreaks(ws, breaks.data()), "setting the page breaks of Charts");
    worksheet_set_landscape(ws);
    worksheet_set_print_scale(ws, 80);  // not fit-to-page: that would override the breaks
    check(worksheet_print_area(ws, 0, 0, static_cast<lxw_row_t>(3 + std::max<std::size_t>(plots.size(), 1) * chart_rows),
                               static_cast<lxw_col_t>(data_col0 - 2)),
          "setting the print area of Charts");
}

}  // namespace roofline::report
