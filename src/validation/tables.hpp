#pragma once
// The tables of a validation report, built once and written as CSV
// (tables_csv.cpp) and as sheets of report.xlsx (workbook.cpp): rows.csv,
// groups.csv, skipped.csv and memory.csv (docs/reports.md, "Validation
// reports"). Private to src/validation.

#include "roofline/calibrate/validation.hpp"
#include "roofline/validation/groups.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline::validation {

// How a column's values are shown in the workbook (the CSV writes numbers as
// they are: milliseconds, fractions).
enum class Cell { text, whole, ms, fraction, signed_fraction };

struct Column {
    std::string name;    // the CSV's header
    std::string header;  // the sheet's
    Cell cell;
};

// A cell: text (from the data: written only as text, never as a formula),
// or a number (NaN: an empty field).
struct Value {
    std::string text;
    double number = 0;
    bool is_text = false;
    static Value of(std::string t) { return {std::move(t), 0, true}; }
    static Value of(double v) { return {{}, v, false}; }
};

struct Table {
    std::string file;   // "rows.csv"
    std::string sheet;  // "Rows"
    std::vector<Column> columns;
    std::vector<std::vector<Value>> rows;
};

Table rows_table(calibrate::Validation const& validation);
Table groups_table(std::vector<Group> const& groups);
Table skipped_table(calibrate::Validation const& validation);
Table memory_table(calibrate::Validation const& validation);

// Writes `table` as folder/<table.file>. Throws std::runtime_error.
void write_csv(std::string const& folder, Table const& table);

// A percentage for the terminal: "7.3%", with a sign when `sign` ("+4.1%",
// "-2.0%"); "-" for NaN.
std::string percent(double fraction, bool sign = false);

}  // namespace roofline::validation
