#pragma once
// Text for people: aligned tables and numbers with units, for the terminal
// (`run`, `eval`, `hardware`, `diff`). The CSV and the workbooks have their
// own, exact, formats.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::output {

std::string format_count(double value);    // 33554432, or 1.23457e+21 past 2^64; "-" for NaN
std::string format_seconds(double value);  // "81.9 µs", "1.23 ms", "2.5 s"; "-" for NaN
std::string format_general(double value);  // 4 significant digits: "273", "1.97e+14"; "-" for NaN
std::string format_bytes(double value);    // "16 GiB", "80 GB"
// A step, which can take hours on one chip: format_seconds up to 10 minutes,
// then minutes ("12.5 min") and from 2 hours hours ("10.2 h").
std::string format_long_seconds(double seconds);
// Three significant digits and an SI prefix joined to a unit symbol:
// "3.35 TB/s", "989 TFLOP/s", "42.4 ms", "80 GB", "0 B/s"; "-" for NaN.
std::string format_si(double value, std::string const& unit);
// The same with the prefix standing alone before a unit word, and no prefix
// below 1000: "2.97 k tok/s", "410 k rows/s", "23.6 tok/s"; `unit` may be
// empty ("2.97 k"). "-" for NaN.
std::string format_si_count(double value, std::string const& unit);
// A whole number with thousands separators: "12,288"; "-" for NaN.
std::string format_thousands(double value);
// Characters on the terminal, not bytes: "µs" is two wide.
std::size_t display_width(std::string const& text);
// A share in percent, 0% and 100% only when exact ("<0.1%", ">99.9%").
std::string format_share(double share);

// Text from a scenario or a report (a title, a chip's name, a source, a
// report's names) as the terminal shows it: what a terminal would act on
// instead of showing (C0 controls, tab included, DEL, ESC) and bytes that are
// not UTF-8 as \x1b, \x80; C1 controls (U+0080 .. U+009F) as \u009b.
// Newlines stay when `keep_newlines` (text of several lines). Any other text
// is returned as it is.
std::string terminal_safe(std::string_view text, bool keep_newlines = false);

// Rows of cells, the first row the header; columns padded to their widest
// cell, numbers (cells in `right`) aligned right; each cell through
// terminal_safe.
std::string render_table(std::vector<std::vector<std::string>> const& rows,
                         std::vector<bool> const& right);

}  // namespace roofline::output
