#pragma once
// The data rows of constant-memory worksheets, written fast: the Cases
// sheets of report.xlsx and the Cases sheet of diff.xlsx.
//
// With libxlsxwriter 1.x in constant-memory mode, each sheet's temporary
// file is copied verbatim into <sheetData>, so the rows are written there as
// XML directly: no allocation, no printf and no escaping pass per cell,
// which leaves the deflating of the sheet as the cost of a row (the cell
// API costs as much again). Other libxlsxwriter versions, and callers that
// ask for it (the tests compare both), go through the cell API. Either way
// the cells are the same: numbers (none when not finite), inline strings
// (none when empty), formulas with a cached number or text.
// Private to the core library.

#include "output/workbook.hpp"
#include "output/xlsx_cells.hpp"

#include <xlsxwriter.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace roofline::output {

// libxlsxwriter versions whose constant-memory temporary file is the sheet's
// <sheetData> as is.
#if defined(LXW_VERSION_ID) && LXW_VERSION_ID >= 100 && LXW_VERSION_ID < 200
inline constexpr bool direct_rows_supported = true;
#else
inline constexpr bool direct_rows_supported = false;
#endif

// A cell format, and its style attribute for the XML written directly.
struct Style {
    lxw_format* format = nullptr;
    std::string attr;  // ` s="7"`, or empty for the default style
};

class FastRows {
public:
    // Rows of `columns` columns in sheets of `book`; directly as XML when
    // `direct` and supported, else through the cell API.
    FastRows(Workbook& book, std::size_t columns, bool direct = true);

    bool direct() const { return direct_; }
    Style const& style(lxw_format* format);  // cached; stays valid

    // Rows go to `ws` from now on; its header row (row 0, written through
    // the API) is flushed first.
    void begin_sheet(lxw_worksheet* ws);
    void begin_row(std::size_t row);  // 0-based; increasing within a sheet
    std::string_view row_digits() const { return row_digits_; }  // row + 1
    std::string const& letters(std::size_t col) const { return letters_[col]; }

    void text(std::size_t col, Text const& text, Style const& style);
    void text(std::size_t col, std::string_view text, Style const& style);
    void number(std::size_t col, double value, Style const& style);
    // `formula` without the '='.
    void formula(std::size_t col, std::string_view formula, double value, Style const& style);
    void formula_text(std::size_t col, std::string_view formula, Text const& result,
                      Style const& style);
    void end_row();

    // Writes what is buffered and gives each sheet its extent (its last
    // row). May be called again.
    void finish();

private:
    void put(std::string_view s);
    void put_number(double v);
    void put_formula(std::string_view formula);
    void flush();
    void open_cell(std::size_t col, Style const& style);

    Workbook& book_;
    bool direct_;
    std::vector<std::string> letters_;  // per column
    std::string spans_;                 // `" spans="1:20">`
    lxw_worksheet* ws_ = nullptr;
    std::size_t row_ = 0;
    std::size_t next_col_ = 0;  // the column a cell without reference lands in
    char digits_[24];
    std::string_view row_digits_;
    std::vector<char> xml_;
    std::size_t size_ = 0;
    std::unordered_map<lxw_format*, Style> styles_;
    std::vector<std::pair<lxw_worksheet*, std::size_t>> extents_;  // last row per sheet
};

}  // namespace roofline::output
