#include "output/chart_ticks.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

namespace roofline::output {

namespace {

// Shortest text of v with at most `significant` digits, never exponent form
// for the values it is given here (|v| in 1e-6 .. 1e6).
std::string fixed_digits(double v, int significant) {
    std::array<char, 64> buf;
    int decimals = std::max(0, significant - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, decimals);
    std::string text(buf.data(), r.ptr);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
    }
    return text;
}

std::string superscript(int e) {
    static constexpr std::array<std::string_view, 10> digits = {
        "\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
        "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    std::string text = e < 0 ? "\u207b" : "";
    std::string decimal = std::to_string(e < 0 ? -e : e);
    for (char d : decimal) text += digits[static_cast<std::size_t>(d - '0')];
    return text;
}

}  // namespace

double floor_decade(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double ceil_decade(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

double nice_floor(double v) {
    double decade = floor_decade(v);
    for (double m : {5.0, 2.0, 1.0})
        if (m * decade <= v * (1 + 1e-9)) return m * decade;
    return decade;
}
double nice_ceil(double v) {
    double decade = floor_decade(v);
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= v * (1 - 1e-9)) return m * decade;
    return 10 * decade;
}

Ticks log_ticks(double lo, double hi, std::string (*text)(double)) {
    double decades = std::log10(hi / lo);
    std::vector<double> steps = decades < 1.2   ? std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                : decades < 4.2 ? std::vector<double>{1, 2, 5}
                                                : std::vector<double>{1};
    int every = decades > 12 ? static_cast<int>(std::ceil(decades / 10)) : 1;
    Ticks ticks;
    for (int e = static_cast<int>(std::floor(std::log10(lo))) - 1;
         e <= static_cast<int>(std::ceil(std::log10(hi))); ++e) {
        if (e % every != 0) continue;
        for (double m : steps) {
            double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back({v, text(v)});
        }
    }
    return ticks;
}

Ticks linear_ticks(double lo, double hi, std::string (*text)(double)) {
    if (!(hi > lo)) return {{lo, text(lo)}};
    double raw = (hi - lo) / 7;
    double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double f : {1.0, 2.0, 2.5, 5.0})
        if (magnitude * f >= raw) {
            step = magnitude * f;
            break;
        }
    Ticks ticks;
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-12) + step * 1e-9; ++k) {
        double v = k * step;
        if (std::fabs(v) < step * 1e-9) v = 0;
        ticks.push_back({v, text(v)});
    }
    return ticks;
}

std::string power_tick(double v) {
    if (v == 0 || !std::isfinite(v)) return "0";
    double magnitude = std::fabs(v);
    int e = static_cast<int>(std::floor(std::log10(magnitude)));
    double factor = magnitude / std::pow(10.0, e);
    if (factor >= 9.995) factor /= 10, ++e;  // 9.999e13 is 10¹⁴ at three digits
    std::string text = v < 0 ? "\u2212" : "";
    std::string f = fixed_digits(factor, 3);
    if (f != "1") text += f + "\u00d7";
    return text + "10" + superscript(e);
}

std::string decimal_tick(double v) {
    double magnitude = std::fabs(v);
    if (v != 0 && (magnitude < 1e-6 || magnitude >= 1e6 || !std::isfinite(v))) return power_tick(v);
    if (v == 0) return "0";
    return fixed_digits(v, 6);
}

}  // namespace roofline::output
