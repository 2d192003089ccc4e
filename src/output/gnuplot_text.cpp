#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace roofline::output {

namespace {

// The length of the UTF-8 sequence at s[i] if it is valid and encodes a
// character that XML allows, else 0.
std::size_t utf8_char(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b = byte(i);
    if (b < 0x80) return 1;
    std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (n == 0 || b > 0xF4 || i + n > s.size()) return 0;
    char32_t cp = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    bool bad = cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF ||
               (cp >= 0x80 && cp <= 0x9F);
    return overlong || bad ? 0 : n;
}

// Printable text of at most `max_chars` characters: control characters (a
// newline would end the gnuplot command) become spaces, bytes that are not
// valid UTF-8 become '?', and a cut is marked with an ellipsis.
std::string clean(std::string_view s, std::size_t max_chars = 90) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size();) {
        if (chars == max_chars) {
            out += "\u2026";
            break;
        }
        auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
        std::size_t n = utf8_char(s, i);
        if (byte(i) == 0xC2 && i + 1 < s.size() && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9F) {
            out += ' ';  // a C1 control
            i += 2;
        } else if (n == 0) {
            out += '?';
            ++i;
        } else if (n == 1 && (byte(i) < 0x20 || byte(i) == 0x7F)) {
            out += ' ';
            ++i;
        } else {
            out.append(s, i, n);
            i += n;
        }
        ++chars;
    }
    return out;
}

std::string digits(double v, int significant) {
    std::array<char, 32> buf;
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general,
                           significant);
    return std::string(buf.data(), r.ptr);
}

}  // namespace

std::string literal(std::string_view text, std::size_t max_chars) {
    std::string out = "'";
    for (char ch : clean(text, max_chars)) {
        if (ch == '\'') out += '\'';
        out += ch;
    }
    return out + "'";
}

std::string num(double v) {
    std::array<char, 32> buf;
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), std::isfinite(v) ? v : 0.0);
    return std::string(buf.data(), r.ptr);
}

std::string eng(double v, std::string_view unit) {
    static constexpr std::array<char const*, 13> prefixes = {"f", "p", "n", "\u00b5", "m", "", "k",
                                                             "M", "G", "T", "P",      "E", "Z"};
    std::string text;
    if (v == 0 || !std::isfinite(v)) {
        text = '0';  // not "0": GCC 12 warns a false -Wrestrict on that here
    } else {
        int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
        double rounded = std::round(v / std::pow(10.0, e - 2)) * std::pow(10.0, e - 2);
        int group =
            std::clamp(static_cast<int>(std::floor(std::log10(std::fabs(rounded)) / 3)), -5, 7);
        text = digits(rounded / std::pow(1000.0, group), 3);
        text += " ";
        text += prefixes[static_cast<std::size_t>(group + 5)];
    }
    text += unit;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

std::string value_text(double v) {
    if (std::fabs(v) >= 1e5 || (v != 0 && std::fabs(v) < 1e-3)) return eng(v);
    if (v == std::round(v)) return digits(v, 15);
    return digits(v, 6);
}

}  // namespace roofline::output
