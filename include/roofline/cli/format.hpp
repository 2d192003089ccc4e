#pragma once
// Text for people: aligned tables and numbers with units, for the terminal.
// (The CSV and the workbook have their own, exact, formats.)

#include "roofline/engine/evaluate.hpp"
#include "roofline/model/scenario.hpp"
#include "roofline/report/report.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

std::string format_count(double value);    // 33554432, or 1.23457e+21 past 2^64; "-" for NaN
std::string format_seconds(double value);  // "81.9 µs", "1.23 ms", "2.5 s"; "-" for NaN
std::string format_general(double value);  // 4 significant digits: "273", "1.97e+14"; "-" for NaN
std::string format_bytes(double value);    // "16 GiB", "80 GB"

// Rows of cells, the first row the header; columns padded to their widest
// cell, numbers (cells in `right`) aligned right.
std::string render_table(std::vector<std::vector<std::string>> const& rows,
                         std::vector<bool> const& right);

// Every case of an evaluation, one row each, with every column of reports.md.
std::string case_table(model::Scenario const& scenario, engine::Evaluation const& evaluation);

// What `roofline run` prints after "published": per target, a small table of
// the step at the sweep points report::step_points picks: the sweep values,
// step (the sum of count x t_lower), t_upper, the memory-bound share, and,
// when the scenario has them, tokens/s, the resident GB and the minimum chips
// (when the target has an hbm_capacity).
std::string step_summary(report::ReportContext const& context, report::Summary const& summary);

}  // namespace roofline::cli
