#include "xlsx_state.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace roofline::report {

using xlsx_detail::Style;
using xlsx_detail::Text;

// ---- Cases cells: through the API, or straight into the sheet's temporary file.

void XlsxWriter::State::begin_sheet(std::size_t sheet) {
    if (direct) {
        flush_rows();
        // The header row, written through the API, is still buffered in
        // libxlsxwriter's one-row cache: write it out before our rows.
        lxw_worksheet_write_single_row(cases[sheet]);
    }
    row_sheet = sheet;
    row_ws = cases[sheet];
}

void XlsxWriter::State::flush_rows() {
    if (!direct || xml_size == 0 || row_sheet >= cases.size()) return;
    std::FILE* file = cases[row_sheet]->optimize_tmpfile;
    if (std::fwrite(xml.data(), 1, xml_size, file) != xml_size)
        throw WriteError(path + ": writing the temporary data of sheet " + cases_names[row_sheet] +
                         " in " + tmpdir + ": " + std::strerror(errno));
    xml_size = 0;
}

XlsxWriter::State& XlsxWriter::State::put(std::string_view s) {
    if (xml_size + s.size() > xml.size()) {
        flush_rows();
        if (s.size() > xml.size()) xml.resize(s.size());
    }
    std::memcpy(xml.data() + xml_size, s.data(), s.size());
    xml_size += s.size();
    return *this;
}

void XlsxWriter::State::put_number(double v) {
    char buf[32];
    auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
}

void XlsxWriter::State::put_formula() {
    // Formulas hold references, operators and two quoted words: only '>' (and
    // never '&' or '<') needs escaping.
    std::string_view text = f.view();
    for (std::size_t i = 0; i < text.size();) {
        std::size_t j = text.find('>', i);
        if (j == std::string_view::npos) j = text.size();
        put(text.substr(i, j - i));
        if (j < text.size()) put("&gt;");
        i = j + 1;
    }
}

// A cell right after the previous one needs no reference (`r` is optional in
// SpreadsheetML: the position follows from the order). Leaving it out makes
// the sheet's XML, and so the deflate that dominates a run, about 15% smaller.
void XlsxWriter::State::open_cell(std::size_t column, Style const& st) {
    if (column == next_column) put("<c") << st.attr;
    else put("<c r=\"") << letters[column] << digits << "\"" << st.attr;
    next_column = column + 1;
}

void XlsxWriter::State::text_cell(std::size_t column, Text const& t, Style const& st) {
    if (direct) {
        open_cell(column, st);
        put(t.xml);
        return;
    }
    check(worksheet_write_string(row_ws, static_cast<lxw_row_t>(row_index),
                                 static_cast<lxw_col_t>(column), t.api.c_str(), st.format),
          row_ws, row_index, column);
}

void XlsxWriter::State::number_cell(std::size_t column, double v, Style const& st) {
    if (!std::isfinite(v)) return;  // not available: an empty cell
    if (direct) {
        open_cell(column, st);
        put("><v>");
        put_number(v);
        put("</v></c>");
        return;
    }
    check(worksheet_write_number(row_ws, static_cast<lxw_row_t>(row_index),
                                 static_cast<lxw_col_t>(column), v, st.format),
          row_ws, row_index, column);
}

void XlsxWriter::State::formula_cell(std::size_t column, double v, Style const& st) {
    if (direct) {
        open_cell(column, st);
        put("><f>");
        put_formula();
        if (std::isfinite(v)) {
            put("</f><v>");
            put_number(v);
            put("</v></c>");
        } else {
            put("</f></c>");
        }
    } else {
        formula(row_ws, row_index, column, f.c_str(), v, st.format);
    }
    f.clear();
}

void XlsxWriter::State::formula_text_cell(std::size_t column, Text const& result,
                                          Style const& st) {
    if (direct) {
        open_cell(column, st);
        put(" t=\"str\"><f>");
        put_formula();
        put("</f><v>") << result.escaped << "</v></c>";
    } else {
        check(worksheet_write_formula_str(row_ws, static_cast<lxw_row_t>(row_index),
                                          static_cast<lxw_col_t>(column), f.c_str(), st.format,
                                          result.api.c_str()),
              row_ws, row_index, column);
    }
    f.clear();
}

// The direct rows' tail to their file, and their extent to libxlsxwriter,
// which saw only the header rows.
void XlsxWriter::State::finish_rows() {
    if (!direct) return;
    flush_rows();
    std::size_t per_sheet = options.rows_per_cases_sheet;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        std::size_t rows = std::min(per_sheet, next_case - std::min(next_case, k * per_sheet));
        if (rows) cases[k]->dim_rowmax = static_cast<lxw_row_t>(rows);
    }
}

}  // namespace roofline::report
