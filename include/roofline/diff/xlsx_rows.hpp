#pragma once
// The data rows of a constant-memory libxlsxwriter worksheet, written fast.
//
// With libxlsxwriter 1.x the rows are written as XML straight into the
// sheet's temporary file (the technique of report/xlsx_writer.cpp's "direct
// rows", which lives in that file's anonymous namespace): no allocation, no
// printf and no escaping pass per cell, so the deflating of the sheet is what
// is left (the report's direct rows are bound to its own sheet's columns). Other versions go
// through the cell API. Either way the cells are the same: numbers (empty when NaN), inline
// strings, formulas with a cached number.

#include <xlsxwriter.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace roofline::diff {

class XlsxRows {
public:
    // `path`: the workbook, for messages (report::WriteError).
    XlsxRows(std::string path, std::size_t columns);

    // Rows go to `ws` from now on; its header row (row 0, written through
    // the API) is flushed first.
    void begin_sheet(lxw_worksheet* ws);
    void begin_row(std::size_t row);  // 0-based; increasing within a sheet
    void text(std::size_t col, std::string_view text, lxw_format* format = nullptr);
    void number(std::size_t col, double value, lxw_format* format = nullptr);
    // `formula` without the '=', using only references and / (no escaping).
    void formula(std::size_t col, std::string_view formula, double value, lxw_format* format);
    void end_row();
    // Writes what is buffered and gives each sheet its extent (its last row).
    void finish();

private:
    void put(std::string_view s);
    void flush();
    void open_cell(std::size_t col, lxw_format* format);
    void check_cell(lxw_error err, std::size_t col);  // throws naming the cell
    std::string const& style(lxw_format* format);
    [[noreturn]] void fail(std::string const& step, lxw_error err) const;

    std::string path_;
    bool direct_;
    std::vector<std::string> letters_;  // per column
    std::string spans_;
    lxw_worksheet* ws_ = nullptr;
    std::size_t row_ = 0;
    std::size_t next_col_ = 0;  // the column a cell without reference lands in
    char digits_[24];
    std::string_view row_digits_;
    std::vector<char> xml_;
    std::size_t size_ = 0;
    std::unordered_map<lxw_format*, std::string> styles_;
    std::vector<std::pair<lxw_worksheet*, std::size_t>> extents_;  // last row per sheet
};

}  // namespace roofline::diff
