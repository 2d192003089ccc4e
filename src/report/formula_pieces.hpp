#pragma once
// A column's workbook formula ("{flops}/{hw.peak}", request_columns.cpp,
// kernel_columns.cpp) split once per column into what each row fills in:
// literal text, a cell of this row (a column of the table, by its name), or
// a Hardware cell of the row's target (by its field's name, "peak").
// Private to src/report.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

struct FormulaPiece {
    enum Kind : std::uint8_t { literal, cell, hardware } kind;
    std::string text;        // literal: the text; hardware: the field's name
    std::size_t column = 0;  // cell: the column
};

// Throws std::logic_error for a name that `column_of` does not know
// (a mistake in a column table), naming `table`.
std::vector<FormulaPiece> split_formula(
    std::string_view formula, std::function<std::optional<std::size_t>(std::string_view)> const& column_of,
    std::string_view table);

}  // namespace roofline::report
