#pragma once
// UTF-8 sequences, as the checks before parsing read them and as the outputs
// make text from a scenario or a report safe for XML and for the terminal.

#include <cstddef>
#include <string_view>

namespace roofline {

// Length of the valid UTF-8 sequence at text[i], or 0 (overlong forms,
// surrogates and code points past U+10FFFF are invalid too).
std::size_t utf8_length(std::string_view text, std::size_t i);

// The code point of the valid sequence of `length` bytes at text[i].
char32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length);

}  // namespace roofline
