#include "roofline/diff/xlsx_book.hpp"

#include "report/xlsx_cells.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <tuple>
#include <utility>

namespace roofline::diff {

using report::WriteError;
namespace xlsx_detail = report::xlsx_detail;

namespace {

constexpr char const* time_format = "[<1]##0.00E+0\" s\";#,##0.000\" s\"";  // as report.xlsx
constexpr char const* speedup_format = "0.00\"×\"";
constexpr char const* ratio_format = "#,##0.00";
constexpr std::time_t document_time = 946684800;  // 2000-01-01, as report.xlsx
constexpr lxw_color_t faster_fill = 0xC6EFCE, faster_ink = 0x006100;
constexpr lxw_color_t slower_fill = 0xFFC7CE, slower_ink = 0x9C0006;
constexpr lxw_color_t flip_fill = 0xFFEB9C, flip_ink = 0x7F6000, header_fill = 0xD9E1F2;

}  // namespace

XlsxBook::XlsxBook(std::string path, std::string const& title) : path_(std::move(path)) {
    auto dir = std::filesystem::path(path_).parent_path();
    tmpdir_ = dir.empty() ? std::string(".") : dir.string();
    if (std::FILE* probe = std::fopen(path_.c_str(), "wb"))
        std::fclose(probe);
    else
        throw WriteError(path_ + ": creating the file: " + std::strerror(errno));
    lxw_workbook_options options{};
    options.constant_memory = LXW_TRUE;
    options.tmpdir = tmpdir_.data();
    options.use_zip64 = LXW_FALSE;
    wb_.reset(workbook_new_opt(path_.c_str(), &options));
    if (!wb_) throw WriteError(path_ + ": creating the workbook: out of memory");
    std::string title_text = title, author = std::string("roofline ") + ROOFLINE_VERSION;
    lxw_doc_properties props{};
    props.title = title_text.data();
    props.author = author.data();
    props.created = document_time;
    check(workbook_set_properties(wb_.get(), &props), "setting the document properties");

    auto format = [&] {
        lxw_format* f = workbook_add_format(wb_.get());
        if (!f) throw WriteError(path_ + ": adding a cell format: out of memory");
        return f;
    };
    auto& F = fmt_;
    F.title = format();
    format_set_bold(F.title);
    format_set_font_size(F.title, 14);
    F.bold = format();
    format_set_bold(F.bold);
    F.header = format();
    format_set_bold(F.header);
    format_set_bg_color(F.header, header_fill);
    format_set_bottom(F.header, LXW_BORDER_THIN);
    F.note = format();
    format_set_italic(F.note);
    format_set_font_color(F.note, 0x808080);
    for (auto [target, code] :
         {std::pair{&F.time, time_format}, std::pair{&F.speedup, speedup_format},
          std::pair{&F.ratio, ratio_format}}) {
        *target = format();
        format_set_num_format(*target, code);
    }
    for (auto [target, fill, ink] : {std::tuple{&F.faster, faster_fill, faster_ink},
                                     std::tuple{&F.slower, slower_fill, slower_ink},
                                     std::tuple{&F.flip, flip_fill, flip_ink}}) {
        *target = format();
        format_set_bg_color(*target, fill);
        format_set_font_color(*target, ink);
    }
}

XlsxBook::~XlsxBook() = default;  // the Closer closes an unclosed workbook

void XlsxBook::check(lxw_error err, std::string const& step) const {
    if (err != LXW_NO_ERROR) [[unlikely]]
        throw WriteError(path_ + ": " + step + ": " + lxw_strerror(err));
}

lxw_worksheet* XlsxBook::sheet(std::string const& name) {
    lxw_worksheet* ws = workbook_add_worksheet(wb_.get(), name.c_str());
    if (!ws)
        throw WriteError(path_ + ": adding sheet " + name +
                         " (out of memory, or no temporary file in " + tmpdir_ + ")");
    sheets_.push_back(ws);
    return ws;
}

void XlsxBook::str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                   lxw_format* format) {
    if (text.empty()) return;
    auto r = static_cast<lxw_row_t>(row);
    auto c = static_cast<lxw_col_t>(col);
    check(worksheet_write_string(ws, r, c, xlsx_detail::cell_text(text).c_str(), format),
          std::string("writing ") + ws->name + "!" + xlsx_detail::column_letters(col) +
              std::to_string(row + 1));
}

void XlsxBook::num(lxw_worksheet* ws, std::size_t row, std::size_t col, double value,
                   lxw_format* format) {
    if (!std::isfinite(value)) return;
    auto r = static_cast<lxw_row_t>(row);
    auto c = static_cast<lxw_col_t>(col);
    check(worksheet_write_number(ws, r, c, value, format),
          std::string("writing ") + ws->name + "!" + xlsx_detail::column_letters(col) +
              std::to_string(row + 1));
}

void XlsxBook::ratio_formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::size_t a,
                             std::size_t b, double value) {
    if (!std::isfinite(value)) return;
    std::string n = std::to_string(row + 1);
    // std::string("=").append(...), not "=" + ...: GCC 12 at -O3 gives a false
    // -Wrestrict for a string literal + a temporary std::string.
    std::string f = std::string("=").append(xlsx_detail::column_letters(a)) + n + "/" +
                    xlsx_detail::column_letters(b) + n;
    auto r = static_cast<lxw_row_t>(row);
    auto c = static_cast<lxw_col_t>(col);
    check(worksheet_write_formula_num(ws, r, c, f.c_str(), fmt_.speedup, value),
          std::string("writing ") + ws->name + "!" + xlsx_detail::column_letters(col) + n);
}

void XlsxBook::width(lxw_worksheet* ws, std::size_t first, std::size_t last, double chars,
                     lxw_format* format) {
    check(worksheet_set_column(ws, static_cast<lxw_col_t>(first), static_cast<lxw_col_t>(last),
                               chars, format),
          std::string("setting column widths of ") + ws->name);
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
    std::string test = std::string("$").append(xlsx_detail::column_letters(flip_col)) +
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

void XlsxBook::close() {
    for (lxw_worksheet* ws : sheets_)
        if (ws->optimize_tmpfile &&
            (std::fflush(ws->optimize_tmpfile) != 0 || std::ferror(ws->optimize_tmpfile)))
            throw WriteError(path_ + ": writing the temporary data of sheet " + ws->name + " in " +
                             tmpdir_ + ": " + std::strerror(errno));
    check(workbook_close(wb_.release()), "closing the workbook");
}

}  // namespace roofline::diff
