// Checks that run on raw bytes before the parser sees them, so that binary
// junk and pathological nesting give one clear error instead of a crash.
#include "roofline/lang/parse.hpp"
#include "roofline/lang/utf8.hpp"

namespace roofline {

std::size_t utf8_length(std::string_view text, std::size_t i) {
    auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char b0 = at(i);
    if (b0 < 0x80) return 1;
    std::size_t n;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else return 0;
    if (i + n > text.size()) return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if ((at(i + k) & 0xC0) != 0x80) return 0;
    return n;
}

char32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length) {
    auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    if (length == 1) return at(0);
    char32_t cp = at(0) & (0x7Fu >> length);
    for (std::size_t k = 1; k < length; ++k) cp = cp << 6 | (at(k) & 0x3Fu);
    return cp;
}

namespace {

std::string hex_byte(unsigned char byte) {
    char const* digits = "0123456789abcdef";
    return std::string("0x") + digits[byte >> 4] + digits[byte & 15];
}

Span at(SourceFile const& source, std::size_t offset) {
    return Span{&source, static_cast<std::uint32_t>(offset), 1};
}

}  // namespace

bool check_text(SourceFile const& source, Diagnostics& diagnostics) {
    std::string_view text = source.text;
    if (text.size() >= 0xFFFFFFF0u) {
        diagnostics.error(Span{}, "'" + source.path + "' is too large (4 GiB or more)");
        return false;
    }
    // One pass: encoding, and bracket depth outside comments and strings.
    int depth = 0;
    bool in_comment = false, in_string = false, escaped = false;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < text.size();) {
        char c = text[i];
        if (c != '\n' && i - line_start >= max_line_bytes) {
            diagnostics.error(at(source, i), "line longer than " + std::to_string(max_line_bytes) +
                                                 " bytes (1 MiB); break it into several lines");
            return false;
        }
        if (static_cast<unsigned char>(c) >= 0x80) {
            std::size_t n = utf8_length(text, i);
            if (n == 0) {
                diagnostics.error(at(source, i), "invalid UTF-8 byte " +
                                                     hex_byte(static_cast<unsigned char>(c)) +
                                                     "; .roof files are UTF-8 text");
                return false;
            }
            i += n;
            escaped = false;
            continue;
        }
        if (c == '\0') {
            diagnostics.error(at(source, i), "NUL byte in file; .roof files are UTF-8 text");
            return false;
        }
        ++i;
        if (c == '\n') line_start = i;
        if (in_comment) {
            in_comment = c != '\n';
        } else if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"' || c == '\n') in_string = false;
        } else if (c == '#') {
            in_comment = true;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '(' || c == '[' || c == '{') {
            if (++depth > max_nesting) {
                diagnostics.error(at(source, i - 1), "brackets nested too deeply (more than " +
                                                         std::to_string(max_nesting) + " levels)");
                return false;
            }
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth > 0) --depth;
        }
    }
    return true;
}

}  // namespace roofline
