#include "output/xlsx_cells.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace roofline::output {

std::string column_letters(std::size_t col) {
    std::string s;
    for (std::size_t n = col + 1; n > 0; n = (n - 1) / 26)
        s.insert(s.begin(), static_cast<char>('A' + (n - 1) % 26));
    return s;
}

std::string cell_name(std::size_t row, std::size_t col) {
    return column_letters(col) + std::to_string(row + 1);
}

std::string shortest(double value) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

double text_width(std::string_view s) {
    // UTF-8 continuation bytes take no width of their own.
    double n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) == 0x80 ? 0 : 1;
    return n;
}

std::string cell_text(std::string_view s) {
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char ch = s[i];
        auto u = static_cast<unsigned char>(ch);
        if (u < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "_x%04X_", u);
            out += buf;
        } else if (ch == '_' && i + 6 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) &&
                   hex(s[i + 3]) && hex(s[i + 4]) && hex(s[i + 5]) && s[i + 6] == '_') {
            out += "_x005F";
            out += ch;
        } else {
            out += ch;
        }
    }
    return out;
}

std::string xml_escape(std::string_view s) {
    std::string out;
    for (char ch : s) {
        if (ch == '&') out += "&amp;";
        else if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else out += ch;
    }
    return out;
}

}  // namespace roofline::output
