#include "diff/xlsx_book.hpp"

#include "output/xlsx_cells.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <tuple>
#include <utility>

namespace roofline::diff {


namespace {

constexpr char const* speedup_format = "0.00\"×\"";
constexpr lxw_color_t faster_fill = 0xC6EFCE, faster_ink = 0x006100;
constexpr lxw_color_t slower_fill = 0xFFC7CE, slower_ink = 0x9C0006;
constexpr lxw_color_t flip_fill = 0xFFEB9C, flip_ink = 0x7F6000;

}  // namespace

XlsxBook::XlsxBook(std::string path, std::string const& title)
    : book_(std::move(path), {title, "", std::string("roofline ") + ROOFLINE_VERSION, ""}) {
    auto& F = fmt_;
    static_cast<output::CommonFormats&>(F) = book_.formats();
    F.speedup = book_.number_format(speedup_format);
    for (auto [target, fill, ink] : {std::tuple{&F.faster, faster_fill, faster_ink},
                                     std::tuple{&F.slower, slower_fill, slower_ink},
                                     std::tuple{&F.flip, flip_fill, flip_ink}}) {
        *target = book_.add_format();
        format_set_bg_color(*target, fill);
        format_set_font_color(*target, ink);
    }
}

lxw_worksheet* XlsxBook::sheet(std::string const& name) { return book_.add_sheet(name); }

void XlsxBook::check(lxw_error err, std::string const& step) const { book_.check(err, step); }

void XlsxBook::str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                   lxw_format* format) {
    if (!text.empty()) book_.text(ws, row, col, text, format);
}

void XlsxBook::num(lxw_worksheet* ws, std::size_t row, std::size_t col, double value,
                   lxw_format* format) {
    book_.number(ws, row, col, value, format);
}

void XlsxBook::ratio_formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::size_t a,
                             std::size_t b, double value) {
    if (!std::isfinite(value)) return;
    std::string n = std::to_string(row + 1);
    book_.formula(ws, row, col,
                  std::string("=").append(output::column_letters(a)) + n + "/" +
                      output::column_letters(b) + n,
                  value, fmt_.speedup);
}

void XlsxBook::width(lxw_worksheet* ws, std::size_t first, std::size_t last, double chars,
                     lxw_format* format) {
    book_.width(ws, first, last, chars, format);
}

void XlsxBook::speedup_colors(lxw_worksheet* ws, std::size_t first_row, std::size_t last_row,
                              std::size_t col) {
    if (last_row < first_row) return;
    for (auto [criteria, format] :
         {std::pair{LXW_CONDITIONAL_CRITERIA_LESS_THAN, fmt_.slower},
          std::pair{LXW_CONDITIONAL_CRITERIA_GREATER_THAN, fmt_.faster}}) {
        lxw_conditional_format cf{};
        cf.type = LXW_CONDITIONAL_TYPE_CELL;
        cf.criteria = static_cast<uint8_t>(criteria);
        cf.value = 1;
        cf.format = format;
        check(worksheet_conditional_format_range(
                  ws, static_cast<lxw_row_t>(first_row), static_cast<lxw_col_t>(col),
                  static_cast<lxw_row_t>(last_row), static_cast<lxw_col_t>(col), &cf),
              std::string("setting the speedup colours of ") + ws->name);
    }
}

void XlsxBook::flip_colors(lxw_worksheet* ws, std::size_t first_row, std::size_t last_row,
                           std::size_t first_col, std::size_t last_col, std::size_t flip_col) {
    if (last_row < first_row) return;
    std::string test = std::string("$").append(output::column_letters(flip_col)) +
                       std::to_string(first_row + 1) + "<>\"\"";
    lxw_conditional_format cf{};
    cf.type = LXW_CONDITIONAL_TYPE_FORMULA;
    cf.value_string = test.data();
    cf.format = fmt_.flip;
    check(worksheet_conditional_format_range(
              ws, static_cast<lxw_row_t>(first_row), static_cast<lxw_col_t>(first_col),
              static_cast<lxw_row_t>(last_row), static_cast<lxw_col_t>(last_col), &cf),
          std::string("setting the flip colours of ") + ws->name);
}

}  // namespace roofline::diff
