#pragma once
// Text for people: aligned tables and numbers with units, for the terminal
// (`run`, `eval`, `hardware`, `diff`). The CSV and the workbooks have their
// own, exact, formats.

#include <string>
#include <vector>

namespace roofline::output {

std::string format_count(double value);    // 33554432, or 1.23457e+21 past 2^64; "-" for NaN
std::string format_seconds(double value);  // "81.9 µs", "1.23 ms", "2.5 s"; "-" for NaN
std::string format_general(double value);  // 4 significant digits: "273", "1.97e+14"; "-" for NaN
std::string format_bytes(double value);    // "16 GiB", "80 GB"
// A step, which can take hours on one chip: format_seconds up to 10 minutes,
// then minutes ("12.5 min") and from 2 hours hours ("10.2 h").
std::string format_long_seconds(double seconds);
// A share in percent, 0% and 100% only when exact ("<0.1%", ">99.9%").
std::string format_share(double share);

// Rows of cells, the first row the header; columns padded to their widest
// cell, numbers (cells in `right`) aligned right.
std::string render_table(std::vector<std::vector<std::string>> const& rows,
                         std::vector<bool> const& right);

}  // namespace roofline::output
