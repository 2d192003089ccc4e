#include "output/chart_axes.hpp"

#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace roofline::output {

bool is_geometric(std::vector<double> const& values) {
    if (values.size() < 3 || values[0] <= 0) return false;
    double ratio = values[1] / values[0];
    if (std::fabs(ratio - 1) < 1e-9) return false;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (values[i] <= 0 || std::fabs(values[i] / values[i - 1] / ratio - 1) > 1e-9) return false;
    return true;
}

Axis sweep_axis(std::string label, std::vector<double> const& values) {
    Axis x;
    x.label = std::move(label);
    if (values.empty()) return x;
    auto const [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
    double x_lo = *lo_it, x_hi = *hi_it;
    bool geometric = is_geometric(values);
    x.log = x_lo > 0 && (geometric || x_hi / x_lo > 100);
    if (x_lo == x_hi) {
        x_lo = x.log ? x_lo / 2 : x_lo - std::max(1.0, std::fabs(x_lo) / 2);
        x_hi = x.log ? x_hi * 2 : x_hi + std::max(1.0, std::fabs(x_hi) / 2);
    } else if (values.size() <= 40) {
        // Few values are drawn as points: keep them off the frame.
        if (x.log) {
            double pad = std::pow(x_hi / x_lo, 0.02);
            x_lo /= pad, x_hi *= pad;
        } else {
            double pad = (x_hi - x_lo) * 0.02;
            x_lo -= pad, x_hi += pad;
        }
    }
    x.lo = x_lo, x.hi = x_hi;
    if (x.log && geometric && values.size() <= 12) {
        for (double value : values) x.ticks.push_back({value, value_text(value)});
    } else {
        x.ticks = x.log ? log_ticks(x_lo, x_hi, value_text) : linear_ticks(x_lo, x_hi, value_text);
    }
    return x;
}

Axis log_axis(std::string label, double lo, double hi, std::string (*text)(double)) {
    return {std::move(label), true, 10, lo, hi, log_ticks(lo, hi, text), ""};
}

double fraction(Axis const& axis, double v) {
    if (axis.log) return std::log10(v / axis.lo) / std::log10(axis.hi / axis.lo);
    return (v - axis.lo) / (axis.hi - axis.lo);
}

double y_high(Axis const& y, double top, double top_fraction) {
    if (y.log) return y.lo * std::pow(top / y.lo, 1 / top_fraction);
    return y.lo + (top - y.lo) / top_fraction;
}

TimeUnit time_unit(double largest) {
    static constexpr std::array<TimeUnit, 6> units = {
        TimeUnit{3600, "h"},  TimeUnit{60, "min"},       TimeUnit{1, "s"},
        TimeUnit{1e-3, "ms"}, TimeUnit{1e-6, "\u00b5s"}, TimeUnit{1e-9, "ns"}};
    if (largest >= 7200) return units[0];
    if (largest >= 600) return units[1];
    for (std::size_t i = 2; i < units.size(); ++i)
        if (largest >= units[i].seconds) return units[i];
    return units.back();
}

std::string time_tick(double v) { return std::fabs(v) >= 1e5 ? num(v) : value_text(v); }

void zero_based(Axis& axis, double top, std::string (*label)(double)) {
    if (!(top > 0)) top = 1;
    double const raw = top / 6, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double f : {1.0, 2.0, 2.5, 5.0})
        if (magnitude * f >= raw) {
            step = magnitude * f;
            break;
        }
    axis.log = false;
    axis.lo = 0;
    axis.hi = std::ceil(top * 1.04 / step) * step;
    axis.ticks = linear_ticks(axis.lo, axis.hi, label);
}

}  // namespace roofline::output
