#include "output/chart.hpp"

#include <array>

namespace roofline::output {

namespace {

constexpr std::array<char const*, 10> palette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                 "#bcbd22", "#7f7f7f"};
constexpr std::array<int, 6> filled_points = {7, 5, 9, 11, 13, 15};
constexpr std::array<int, 6> open_points = {6, 4, 8, 10, 12, 14};

}  // namespace

std::string color(std::size_t i) { return palette[i % palette.size()]; }
int filled_point(std::size_t i) { return filled_points[i % filled_points.size()]; }
int open_point(std::size_t i) { return open_points[i % open_points.size()]; }
int dash_type(std::size_t i) { return 1 + static_cast<int>((i / palette.size()) % 4); }

}  // namespace roofline::output
