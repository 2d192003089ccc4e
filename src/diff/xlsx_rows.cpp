#include "roofline/diff/xlsx_rows.hpp"

#include "report/xlsx_cells.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <algorithm>
#include <cstring>

namespace roofline::diff {

namespace xlsx_detail = report::xlsx_detail;

// libxlsxwriter 1.x copies a constant-memory sheet's temporary file verbatim
// into <sheetData> (as src/report/xlsx_state.hpp's direct_rows_supported).
#if defined(LXW_VERSION_ID) && LXW_VERSION_ID >= 100 && LXW_VERSION_ID < 200
constexpr bool direct_supported = true;
#else
constexpr bool direct_supported = false;
#endif

XlsxRows::XlsxRows(std::string path, std::size_t columns)
    : path_(std::move(path)), direct_(direct_supported), xml_(direct_ ? 1 << 20 : 0) {
    for (std::size_t c = 0; c < columns; ++c) letters_.push_back(xlsx_detail::column_letters(c));
    spans_ = "\" spans=\"1:" + std::to_string(columns) + "\">";
}

void XlsxRows::fail(std::string const& step, lxw_error err) const {
    throw report::WriteError(path_ + ": " + step + ": " + lxw_strerror(err));
}

void XlsxRows::flush() {
    if (size_ == 0) return;
    if (std::fwrite(xml_.data(), 1, size_, ws_->optimize_tmpfile) != size_)
        throw report::WriteError(path_ + ": writing the temporary data of sheet " + ws_->name +
                                 ": " + std::strerror(errno));
    size_ = 0;
}

void XlsxRows::put(std::string_view s) {
    if (size_ + s.size() > xml_.size()) {
        flush();
        if (s.size() > xml_.size()) xml_.resize(s.size());
    }
    std::memcpy(xml_.data() + size_, s.data(), s.size());
    size_ += s.size();
}

void XlsxRows::begin_sheet(lxw_worksheet* ws) {
    if (direct_) {
        if (ws_) flush();
        lxw_worksheet_write_single_row(ws);  // the header row, still in libxlsxwriter's cache
    }
    ws_ = ws;
    extents_.push_back({ws, 0});
}

void XlsxRows::begin_row(std::size_t row) {
    row_ = row;
    extents_.back().second = row;
    auto end = std::to_chars(digits_, digits_ + sizeof digits_, row + 1).ptr;
    row_digits_ = std::string_view(digits_, static_cast<std::size_t>(end - digits_));
    next_col_ = 0;
    if (direct_) {
        put("<row r=\"");
        put(row_digits_);
        put(spans_);
    }
}

void XlsxRows::end_row() {
    if (direct_) put("</row>");
}

std::string const& XlsxRows::style(lxw_format* format) {
    auto [it, added] = styles_.try_emplace(format);
    if (added && format)
        it->second = " s=\"" + std::to_string(lxw_format_get_xf_index(format)) + "\"";
    return it->second;
}

// As in the report's Cases rows: a cell right after the previous one needs no
// reference (SpreadsheetML's `r` is optional), which shrinks what is deflated.
void XlsxRows::open_cell(std::size_t col, lxw_format* format) {
    if (col == next_col_) {
        put("<c");
    } else {
        put("<c r=\"");
        put(letters_[col]);
        put(row_digits_);
        put("\"");
    }
    next_col_ = col + 1;
    put(style(format));
}

void XlsxRows::check_cell(lxw_error err, std::size_t col) {
    if (err != LXW_NO_ERROR)
        fail(std::string("writing ") + ws_->name + "!" + letters_[col] + std::string(row_digits_),
             err);
}

void XlsxRows::text(std::size_t col, std::string_view text, lxw_format* format) {
    if (text.empty()) return;
    if (!direct_) {
        lxw_error err =
            worksheet_write_string(ws_, static_cast<lxw_row_t>(row_), static_cast<lxw_col_t>(col),
                                   xlsx_detail::cell_text(text).c_str(), format);
        check_cell(err, col);
        return;
    }
    open_cell(col, format);
    put(" t=\"inlineStr\"><is><t");
    bool plain = text.find_first_of("&<>_") == std::string_view::npos &&
                 std::none_of(text.begin(), text.end(),
                              [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    if (!std::isspace(static_cast<unsigned char>(text.front())) &&
        !std::isspace(static_cast<unsigned char>(text.back())))
        put(">");
    else
        put(" xml:space=\"preserve\">");
    if (plain)
        put(text);
    else
        put(xlsx_detail::xml_escape(xlsx_detail::cell_text(text)));
    put("</t></is></c>");
}

void XlsxRows::number(std::size_t col, double value, lxw_format* format) {
    if (!std::isfinite(value)) return;
    if (!direct_) {
        lxw_error err = worksheet_write_number(ws_, static_cast<lxw_row_t>(row_),
                                               static_cast<lxw_col_t>(col), value, format);
        check_cell(err, col);
        return;
    }
    char buf[32];
    auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    open_cell(col, format);
    put("><v>");
    put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
    put("</v></c>");
}

void XlsxRows::formula(std::size_t col, std::string_view formula, double value,
                       lxw_format* format) {
    if (!direct_) {
        std::string text(formula);
        lxw_error err =
            std::isfinite(value)
                ? worksheet_write_formula_num(ws_, static_cast<lxw_row_t>(row_),
                                              static_cast<lxw_col_t>(col), text.c_str(), format,
                                              value)
                : worksheet_write_formula(ws_, static_cast<lxw_row_t>(row_),
                                          static_cast<lxw_col_t>(col), text.c_str(), format);
        check_cell(err, col);
        return;
    }
    open_cell(col, format);
    put("><f>");
    put(formula);
    if (std::isfinite(value)) {
        char buf[32];
        auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
        put("</f><v>");
        put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
        put("</v></c>");
    } else {
        put("</f></c>");
    }
}

void XlsxRows::finish() {
    if (!direct_) return;
    if (ws_) flush();
    for (auto [ws, last] : extents_)
        if (last > 0) ws->dim_rowmax = static_cast<lxw_row_t>(last);
}

}  // namespace roofline::diff
