// Text from a config (its keys and values) or from the command line (the
// config's path) as it may appear in the scenario's comments and in
// messages: nothing in it can end a comment, corrupt the file or drive a
// terminal, and it is bounded.
#include "importer.hpp"

#include "roofline/lang/utf8.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace roofline::model::importer {
namespace {

std::string hex_escape(unsigned value, char const* prefix, int digits) {
    char const* hex = "0123456789abcdef";
    std::string out = prefix;
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += hex[(value >> shift) & 15];
    return out;
}

// The escape of the character at text[i] (of `length` bytes), or "" when it
// is shown as it is.
std::string escape_of(std::string_view text, std::size_t i, std::size_t length) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (length == 0) return hex_escape(byte, "\\x", 2);  // not UTF-8
    if (byte == '\n') return "\\n";
    if (byte == '\r') return "\\r";
    if (byte == '\t') return "\\t";
    if (byte < 0x20 || byte == 0x7f) return hex_escape(byte, "\\x", 2);
    // C1 controls, U+0080 .. U+009F (0xC2 0x80 .. 0xC2 0x9F): a terminal's too.
    if (byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0)
        return hex_escape(static_cast<unsigned char>(text[i + 1]), "\\u00", 2);
    return "";
}

}  // namespace

std::string visible(std::string_view text, std::size_t max_characters) {
    std::string out;
    std::size_t shown = 0, i = 0;
    while (i < text.size() && shown < max_characters) {
        std::size_t length = utf8_length(text, i);
        auto escape = escape_of(text, i, length);
        if (escape.empty())
            out.append(text.substr(i, length));
        else
            out += escape;
        i += length == 0 ? 1 : length;
        ++shown;
    }
    if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

}  // namespace roofline::model::importer
