#pragma once
// The workbook behind diff.xlsx: libxlsxwriter in constant-memory mode (each
// sheet's rows go to a temporary file beside the output), a fixed document
// time, the formats the diff's sheets share, and cell helpers that check
// every lxw_error (report::WriteError), write names only as text and a NaN as
// an empty cell. The patterns of report/xlsx_writer.cpp (its cell text and
// column letters are reused from src/report/xlsx_cells.hpp).

#include <xlsxwriter.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace roofline::diff {

class XlsxBook {
public:
    struct Formats {
        lxw_format *title, *bold, *header, *note;
        lxw_format *time, *speedup, *ratio;  // number formats
        lxw_format *faster, *slower, *flip;  // conditional formats
    };

    // Creates the file (so that an unwritable place fails now) and the formats.
    XlsxBook(std::string path, std::string const& title);
    ~XlsxBook();  // closes an unclosed workbook without throwing
    XlsxBook(XlsxBook const&) = delete;
    XlsxBook& operator=(XlsxBook const&) = delete;

    std::string const& path() const { return path_; }
    Formats const& fmt() const { return fmt_; }
    bool closed() const { return !wb_; }

    lxw_worksheet* sheet(std::string const& name);
    void check(lxw_error err, std::string const& step) const;
    void str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
             lxw_format* format = nullptr);
    void num(lxw_worksheet* ws, std::size_t row, std::size_t col, double value,
             lxw_format* format = nullptr);
    // =<a><row>/<b><row> in `col`, with `value` as its cached result (a speedup).
    void ratio_formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::size_t a,
                       std::size_t b, double value);
    void width(lxw_worksheet* ws, std::size_t first, std::size_t last, double chars,
               lxw_format* format = nullptr);
    // Rows [first_row, last_row] of a speedup column: red below 1, green above.
    void speedup_colors(lxw_worksheet* ws, std::size_t first_row, std::size_t last_row,
                        std::size_t col);
    // Amber over columns [first_col, last_col] where `flip_col` is not empty.
    void flip_colors(lxw_worksheet* ws, std::size_t first_row, std::size_t last_row,
                     std::size_t first_col, std::size_t last_col, std::size_t flip_col);

    // Checks the sheets' temporary files (libxlsxwriter does not: a full disk
    // would silently truncate a sheet) and closes the workbook.
    void close();

private:
    struct Closer {
        void operator()(lxw_workbook* wb) const { workbook_close(wb); }
    };
    std::string path_, tmpdir_;
    std::unique_ptr<lxw_workbook, Closer> wb_;
    std::vector<lxw_worksheet*> sheets_;
    Formats fmt_{};
};

}  // namespace roofline::diff
