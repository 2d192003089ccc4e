#pragma once
// A reproducible libxlsxwriter workbook, as report.xlsx and diff.xlsx are
// written: constant-memory mode (each sheet's rows go to a temporary file
// beside the output, so memory stays flat in the number of rows), a fixed
// document time (the same inputs give the same bytes), and cell helpers that
// check every lxw_error (WriteError naming the cell), write names only as
// text, never as formulas, and a non-finite number as an empty cell.
// Private to the core library.

#include "roofline/output/errors.hpp"

#include <xlsxwriter.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::output {

struct DocumentProperties {
    std::string title, subject, author, comments;  // empty: left out
};

// The formats every workbook of the tool shares.
struct CommonFormats {
    lxw_format *title, *bold, *header, *note;  // text
    lxw_format* header_number;  // a header over numbers: right-aligned, as they are
    lxw_format *time, *ratio;                  // numbers: seconds, FLOP/byte and ratios
};

class Workbook {
public:
    // Creates the file now (libxlsxwriter opens it only when closing), so
    // that an unwritable place fails before any work. ZIP64 only where
    // offsets could pass 4 GB: older Excel versions warn about it.
    Workbook(std::string path, DocumentProperties const& properties, bool zip64 = false);
    ~Workbook();  // closes an unclosed workbook without throwing
    Workbook(Workbook const&) = delete;
    Workbook& operator=(Workbook const&) = delete;

    lxw_workbook* get() { return wb_.get(); }
    CommonFormats const& formats() const { return formats_; }
    std::string const& path() const { return path_; }
    std::string const& tmpdir() const { return tmpdir_; }
    bool closed() const { return !wb_; }

    lxw_worksheet* add_sheet(std::string const& name);
    lxw_format* add_format();
    lxw_format* number_format(char const* code);

    [[noreturn]] void fail(std::string const& step, lxw_error err) const;
    void check(lxw_error err, std::string_view step) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail(std::string(step), err);
    }
    void check_cell(lxw_error err, lxw_worksheet const* ws, std::size_t row, std::size_t col) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail_cell(ws, row, col, err);
    }

    // Cells of 0-based (row, col). text: always a string cell (a blank
    // formatted cell when empty); number: nothing when not finite; formula:
    // without the '=' or with it, its cached result `value` (none when not
    // finite) or the text `result`.
    void text(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string_view text,
              lxw_format* format = nullptr);
    void number(lxw_worksheet* ws, std::size_t row, std::size_t col, double value,
                lxw_format* format = nullptr);
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, char const* formula,
                 double value, lxw_format* format = nullptr);
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& formula,
                 double value, lxw_format* format = nullptr) {
        this->formula(ws, row, col, formula.c_str(), value, format);
    }
    void formula_text(lxw_worksheet* ws, std::size_t row, std::size_t col,
                      std::string const& formula, std::string const& result,
                      lxw_format* format = nullptr);
    // Columns [first, last] `chars` wide.
    void width(lxw_worksheet* ws, std::size_t first, std::size_t last, double chars,
               lxw_format* format = nullptr);

    // Checks the sheets' temporary files (libxlsxwriter does not: a full
    // disk would silently truncate a sheet) and closes the workbook. Closing
    // deflates every sheet (seconds for a large report): `progress`, if
    // given, is called from another thread about every 100 ms with the
    // estimated fraction done (0..0.99; see estimated_size in workbook.cpp).
    void close(std::function<void(double fraction)> const& progress = {});

private:
    [[noreturn]] void fail_cell(lxw_worksheet const* ws, std::size_t row, std::size_t col,
                                lxw_error err) const;
    struct Closer {
        void operator()(lxw_workbook* wb) const;
    };
    std::string path_, tmpdir_;
    std::unique_ptr<lxw_workbook, Closer> wb_;
    std::vector<lxw_worksheet*> sheets_;
    CommonFormats formats_{};
};

}  // namespace roofline::output
