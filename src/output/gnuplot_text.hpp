#pragma once
// Text and numbers in gnuplot commands. Everything from a scenario goes
// through `literal`. Private to the core library.

#include <cstddef>
#include <string>
#include <string_view>

namespace roofline::output {

// A gnuplot single-quoted string: '' stands for a quote and nothing else is
// special inside (no backslash escapes, no `command` or @macro substitution).
// The text is cleaned first: at most `max_chars` printable characters.
std::string literal(std::string_view text, std::size_t max_chars = 90);

// A number for a gnuplot command: shortest round-trip text, locale-free.
std::string num(double v);

// Three significant digits with an SI prefix: 1.97e14 -> "197 T" (+ unit).
std::string eng(double v, std::string_view unit = "");

// A sweep value or tick on a value axis: integers in full, others short.
std::string value_text(double v);

}  // namespace roofline::output
