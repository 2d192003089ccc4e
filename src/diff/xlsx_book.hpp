#pragma once
// The workbook behind diff.xlsx: an output::Workbook (constant memory, a
// fixed document time, every lxw_error checked) with the formats the diff's
// sheets share, its speedup and flip colours, and cells that leave out empty
// text.

#include "output/workbook.hpp"

#include <xlsxwriter.h>

#include <cstddef>
#include <string>

namespace roofline::diff {

class XlsxBook {
public:
    // The workbook's common formats (title, bold, header, note, time, ratio)
    // and the diff's own.
    struct Formats : output::CommonFormats {
        lxw_format* speedup;                 // a number format
        lxw_format *faster, *slower, *flip;  // conditional formats
    };

    // Creates the file (so that an unwritable place fails now) and the formats.
    XlsxBook(std::string path, std::string const& title);
    // The workbook closes an unclosed file without throwing.
    XlsxBook(XlsxBook const&) = delete;
    XlsxBook& operator=(XlsxBook const&) = delete;

    output::Workbook& workbook() { return book_; }
    Formats const& fmt() const { return fmt_; }
    bool closed() const { return book_.closed(); }

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

    void close() { book_.close(); }

private:
    output::Workbook book_;
    Formats fmt_{};
};

}  // namespace roofline::diff
