#include "output/chart.hpp"

#include <array>
#include <string>
#include <utility>

namespace roofline::output {

namespace {

// Tableau 10 and two darker hues, told apart from the others and from the
// near-black roofs.
constexpr std::array<char const*, palette_size> palette = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#7b4173", "#393b79"};
constexpr std::array<int, 6> filled_points = {7, 5, 9, 11, 13, 15};
constexpr std::array<int, 6> open_points = {6, 4, 8, 10, 12, 14};

}  // namespace

std::string color(std::size_t i) { return palette[i % palette.size()]; }
int filled_point(std::size_t i) { return filled_points[i % filled_points.size()]; }
int open_point(std::size_t i) { return open_points[i % open_points.size()]; }
int dash_type(std::size_t i) { return 1 + static_cast<int>((i / palette.size()) % 4); }

void add_series(Chart& chart, std::string title, std::string style, Points points,
                std::size_t title_chars) {
    if (points.empty()) return;
    Series series;
    series.title = std::move(title);
    series.style = std::move(style);
    series.points = std::move(points);
    series.title_chars = title_chars;
    chart.series.push_back(std::move(series));
}

std::string off_log_note(std::string_view op, bool zero_flops, bool zero_bytes, bool partly) {
    std::string why = zero_flops && zero_bytes ? "0 FLOPs, 0 bytes" : zero_flops ? "0 FLOPs" : "0 bytes";
    if (partly) why += " at some points";
    return std::string("not on a log axis: ").append(op).append(" (").append(why).append(")");
}

}  // namespace roofline::output
