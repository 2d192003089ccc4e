#include "roofline/output/terminal_text.hpp"

#include "roofline/lang/utf8.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roofline::output {
namespace {

std::string printf_string(char const* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// value = mantissa x 1000^power with the mantissa in [1, 1000) once rounded
// to three significant digits (999.7 is 1.00 k, not 1000), power clamped to
// [lowest, highest].
int si_power(double value, int lowest, int highest) {
    double magnitude = std::fabs(value);
    if (magnitude == 0 || !std::isfinite(magnitude)) return 0;
    int power = static_cast<int>(std::floor(std::log10(magnitude) / 3));
    power = std::clamp(power, lowest, highest);
    if (power < highest && std::fabs(value / std::pow(1000.0, power)) >= 999.5) ++power;
    return power;
}

// Prefixes from nano (10^-9, index 0) to exa (10^18).
constexpr char const* prefixes[] = {"n", "µ", "m", "", "k", "M", "G", "T", "P", "E"};

}  // namespace

// Characters, not bytes, so that "µs" pads like "ms".
std::size_t display_width(std::string const& text) {
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
}

std::string format_si(double value, std::string const& unit) {
    if (std::isnan(value)) return "-";
    int power = si_power(value, -3, 6);
    return printf_string("%.3g ", value / std::pow(1000.0, power)) + prefixes[power + 3] + unit;
}

std::string format_si_count(double value, std::string const& unit) {
    if (std::isnan(value)) return "-";
    int power = si_power(value, 0, 6);
    std::string out = printf_string("%.3g", value / std::pow(1000.0, power));
    if (power) out.append(" ").append(prefixes[power + 3]);
    if (!unit.empty()) out.append(" ").append(unit);
    return out;
}

std::string format_thousands(double value) {
    if (std::isnan(value)) return "-";
    std::string digits = printf_string("%.0f", std::fabs(value));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return value < 0 ? std::string("-").append(out) : out;
}

std::string format_count(double value) {
    if (std::isnan(value)) return "-";
    if (value == std::floor(value) && std::fabs(value) < 1.8e19) return printf_string("%.0f", value);
    return printf_string("%.6g", value);
}

std::string format_seconds(double value) {
    if (std::isnan(value)) return "-";
    double magnitude = std::fabs(value);
    if (magnitude >= 1 || magnitude == 0) return printf_string("%.3g s", value);
    if (magnitude >= 1e-3) return printf_string("%.3g ms", value * 1e3);
    if (magnitude >= 1e-6) return printf_string("%.3g µs", value * 1e6);
    return printf_string("%.3g ns", value * 1e9);
}

std::string format_general(double value) {
    if (std::isnan(value)) return "-";
    return printf_string("%.4g", value);
}

std::string format_bytes(double value) {
    if (std::isnan(value)) return "-";
    constexpr double GiB = 1024.0 * 1024 * 1024;
    if (std::fmod(value, GiB) == 0) return printf_string("%.0f GiB", value / GiB);
    return printf_string("%.4g GB", value / 1e9);
}

// A step of a large model on one chip takes hours: minutes from 10 minutes,
// hours from 2 hours (as the step charts do), format_seconds below.
std::string format_long_seconds(double seconds) {
    if (seconds >= 7200) return printf_string("%.3g h", seconds / 3600);
    if (seconds >= 600) return printf_string("%.3g min", seconds / 60);
    return format_seconds(seconds);
}

// 0% and 100% only when exact: a step that is nearly all memory-bound is not all.
std::string format_share(double share) {
    if (std::isnan(share)) return "-";
    if (share <= 0) return "0%";
    if (share >= 1) return "100%";
    if (share < 0.001) return "<0.1%";
    if (share > 0.999) return ">99.9%";
    return printf_string("%.1f%%", share * 100);
}

std::string terminal_safe(std::string_view text, bool keep_newlines) {
    auto shown = [&](std::size_t i, std::size_t length) {
        if (length == 0) return false;  // not UTF-8
        char32_t c = utf8_code_point(text, i, length);
        if (c == '\n') return keep_newlines;
        return c >= 0x20 && c != 0x7F && !(c >= 0x80 && c <= 0x9F);
    };
    std::size_t i = 0, length = 0;
    while (i < text.size() && shown(i, length = utf8_length(text, i))) i += length;
    if (i == text.size()) return std::string(text);  // the usual case: nothing to escape
    std::string out(text.substr(0, i));
    char buf[8];
    for (; i < text.size(); i += std::max<std::size_t>(length, 1)) {
        length = utf8_length(text, i);
        if (shown(i, length)) {
            out.append(text.substr(i, length));
            continue;
        }
        if (length == 2)  // a C1 control
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(utf8_code_point(text, i, 2)));
        else  // a C0 control, DEL, or a byte that is not UTF-8
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
        out += buf;
    }
    return out;
}

std::string render_table(std::vector<std::vector<std::string>> const& rows_given,
                         std::vector<bool> const& right) {
    std::vector<std::vector<std::string>> rows = rows_given;
    for (auto& row : rows)
        for (auto& cell : row) cell = terminal_safe(cell);
    std::vector<std::size_t> widths;
    for (auto const& row : rows) {
        if (widths.size() < row.size()) widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], display_width(row[i]));
    }
    std::string out;
    for (auto const& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            std::string pad(widths[i] - display_width(row[i]), ' ');
            bool align_right = i < right.size() && right[i];
            if (i) line += "  ";
            line += align_right ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : "");
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace roofline::output
