#include "output/xlsx_cells.hpp"

#include "roofline/lang/utf8.hpp"

#include <algorithm>
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

namespace {

constexpr std::string_view replacement_character = "\uFFFD";

// U+FFFE and U+FFFF: valid UTF-8 that XML 1.0 cannot hold.
bool is_noncharacter(std::string_view s, std::size_t i, std::size_t length) {
    if (length != 3) return false;
    char32_t c = utf8_code_point(s, i, length);
    return c == 0xFFFE || c == 0xFFFF;
}

// Characters as libxlsxwriter counts them against Excel's limit: the bytes
// that do not continue a UTF-8 sequence.
std::size_t chars(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
}

// `s` as cell text, piece by piece (an escape, or a character with its
// continuation bytes), as long as the pieces fit in `budget` characters;
// `complete` says whether all of `s` did.
std::string escaped(std::string_view s, std::size_t budget, bool& complete) {
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    std::size_t used = 0;
    complete = true;
    char buf[8];
    for (std::size_t i = 0; i < s.size();) {
        char ch = s[i];
        auto u = static_cast<unsigned char>(ch);
        std::string_view piece;
        std::size_t next = i + 1;
        if (u < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
            std::snprintf(buf, sizeof buf, "_x%04X_", u);
            piece = std::string_view(buf, 7);
        } else if (ch == '_' && i + 6 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) &&
                   hex(s[i + 3]) && hex(s[i + 4]) && hex(s[i + 5]) && s[i + 6] == '_') {
            piece = "_x005F_";
        } else if (std::size_t length = utf8_length(s, i); length == 0) {
            piece = replacement_character;
        } else if (is_noncharacter(s, i, length)) {
            std::snprintf(buf, sizeof buf, "_x%04X_", static_cast<unsigned>(utf8_code_point(s, i, length)));
            piece = std::string_view(buf, 7);
            next = i + length;
        } else {
            next = i + length;
            piece = s.substr(i, length);
        }
        std::size_t n = chars(piece);
        if (used + n > budget) {
            complete = false;
            break;
        }
        out += piece;
        used += n;
        i = next;
    }
    return out;
}

}  // namespace

std::string cell_text(std::string_view s) {
    bool complete = true;
    std::string out = escaped(s, max_cell_chars, complete);
    if (complete) return out;
    std::string marker = "\u2026 (" + std::to_string(chars(s)) + " characters)";
    return escaped(s, max_cell_chars - chars(marker), complete) + marker;
}

std::string xml_safe_text(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        auto u = static_cast<unsigned char>(s[i]);
        std::size_t length = utf8_length(s, i);
        bool forbidden = length == 0 || (u < 0x20 && u != '\t' && u != '\n' && u != '\r') ||
                         is_noncharacter(s, i, length);
        if (forbidden) out += replacement_character;
        else out.append(s.substr(i, length));
        i += std::max<std::size_t>(length, 1);
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
