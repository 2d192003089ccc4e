#pragma once
// The state of an XlsxWriter, shared by the files that write report.xlsx:
//   xlsx_writer.cpp          opening (the scenario flattened), closing, the API
//   xlsx_formats.cpp         cell formats and colours
//   xlsx_hardware_sheet.cpp  the Hardware sheet
//   xlsx_cases_sheet.cpp     the Cases headers and each case's row of formulas
//   xlsx_case_rows.cpp       Cases cells: through the API or as direct XML
//   xlsx_summary_sheet.cpp   the Summary sheet (with its Step section)
//   xlsx_steps_sheet.cpp     the Steps sheet: the step per sweep point and target
//   xlsx_charts_sheet.cpp    the chart samples and the Charts sheet
// Private to src/report.

#include "roofline/report/xlsx_writer.hpp"

#include "xlsx_cells.hpp"

#include <xlsxwriter.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::report::xlsx_detail {

// A cell format, and its style attribute for the XML written directly.
struct Style {
    lxw_format* format = nullptr;
    std::string attr;  // ` s="7"`, or empty for the default style
};

// libxlsxwriter 1.x in constant-memory mode copies each sheet's temporary
// file verbatim into <sheetData>; the Cases rows are written there directly
// (see State::add). Other versions fall back to the cell API.
#if defined(LXW_VERSION_ID) && LXW_VERSION_ID >= 100 && LXW_VERSION_ID < 200
constexpr bool direct_rows_supported = true;
#else
constexpr bool direct_rows_supported = false;
#endif

struct WorkbookCloser {
    void operator()(lxw_workbook* wb) const { workbook_close(wb); }
};

}  // namespace roofline::report::xlsx_detail

namespace roofline::report {

struct XlsxWriter::State {
    ReportContext const& ctx;
    XlsxOptions options;
    std::string path, tmpdir;
    std::unique_ptr<lxw_workbook, xlsx_detail::WorkbookCloser> wb;
    bool finished = false;

    lxw_worksheet* summary = nullptr;
    lxw_worksheet* steps = nullptr;
    lxw_worksheet* hardware = nullptr;
    lxw_worksheet* charts = nullptr;
    std::vector<lxw_worksheet*> cases;
    std::vector<std::string> cases_names;

    struct Formats {
        lxw_format *title, *label, *header, *section, *note, *sci, *ratio, *time, *fraction,
            *center, *indent, *compute, *memory, *unsupported, *never, *bytes, *whole, *rate;
        lxw_format *cf_compute_row, *cf_memory_row, *cf_unsupported_row;
        lxw_format *cf_compute_cell, *cf_memory_cell, *cf_unsupported_cell;
    } fmt{};

    // The scenario, flattened once.
    std::size_t targets = 0, sweeps = 0, points = 0, matmuls = 0, total_cases = 0;
    std::vector<int> dtypes;             // compute dtypes used, first-use order
    std::vector<std::size_t> slot_of;    // matmul -> index into dtypes
    std::vector<std::string> op_label;   // matmul -> "layer/op" (charts)
    std::vector<std::string> dtype_names;  // per slot

    // Cases sheet columns.
    struct Cols {
        std::size_t op = 0, layer = 1, count = 2, hardware = 3, dtype = 4, sweep0 = 5, flops,
                    bytes_read, bytes_written, intensity, peak, ridge, t_math, t_comms, t_lower,
                    t_upper, bound, attained, peak_fraction, critical0, last;
    } col;
    std::vector<std::string> letters;  // per Cases column
    std::vector<std::string> bw_ref;    // per target: Hardware!$C$2
    std::vector<std::string> peak_ref;  // [target * slots + slot]: Hardware!$F$2, "" if none
    std::vector<xlsx_detail::Text> op_text, layer_text, hw_text, dtype_text;
    xlsx_detail::Text compute_text{"compute"}, memory_text{"memory"},
        unsupported_text{"unsupported"};
    struct Styles {
        xlsx_detail::Style none, sci, ratio, time, fraction, center, indent;
    } style;

    // Hardware sheet columns.
    std::size_t hw_peak0 = 5, hw_ridge0 = 0, hw_extends = 0, hw_source = 0;
    std::vector<std::string> capacity_ref;  // per target: Hardware!$D$2, "" without hbm_capacity

    // The Steps sheet (xlsx_steps_sheet.cpp): a note, a header, then one row
    // per target and sweep point, target by target. The optional column
    // groups are left out when the whole scenario has nothing for them.
    struct StepCols {
        bool tokens = false;  // tokens, tokens/s: the scenario has a tokens statement
        bool bytes = false;   // weights, cache, resident: something is resident
        bool chips = false;   // min chips: bytes, and some target has hbm_capacity
        std::size_t hardware = 0, sweep0 = 1, t_lower = 0, t_upper = 0, memory = 0, tokens_col = 0,
                    rate = 0, weights = 0, cache = 0, resident = 0, min_chips = 0, last = 0;
        std::size_t rows = 0;    // data rows (points x targets, at most a sheet's worth)
        bool formulas = false;   // step times as SUMPRODUCT formulas over Cases
        std::string values_why;  // else why not
    } step;
    static constexpr std::size_t steps_first_row = 2;
    // The Steps row (0-based) of a target and sweep point; none past the rows written.
    std::optional<std::size_t> steps_row(std::size_t point, std::size_t target) const {
        std::size_t index = target * points + point;
        if (index >= step.rows) return std::nullopt;
        return steps_first_row + index;
    }

    // Streaming state: the row being written.
    std::size_t next_case = 0;
    std::size_t row_sheet = static_cast<std::size_t>(-1), row_index = 0;
    lxw_worksheet* row_ws = nullptr;
    char row_digits[16];
    std::string_view digits;  // row_index + 1 in decimal
    xlsx_detail::Formula f;  // the formula of the cell being written, without '='
    // Direct rows: the Cases XML, buffered and appended to the temporary file
    // of the sheet (libxlsxwriter's constant-memory storage).
    bool direct = false;
    std::vector<char> xml;
    std::size_t xml_size = 0;
    std::string row_spans;  // `" spans="1:20">`

    // Chart samples: [matmul * targets + target] -> (intensity, attained).
    std::vector<std::vector<std::pair<double, double>>> samples;
    std::uint64_t sample_k = 0;  // the next sampled point is sample_k (P-1) / (N-1)

    std::size_t summary_row = 0;

    State(std::string const& p, ReportContext const& c, XlsxOptions const& o)
        : ctx(c), options(o), path(p) {}

    // ---- errors -------------------------------------------------------------
    [[noreturn]] void fail(std::string const& step, lxw_error err) const {
        throw WriteError(path + ": " + step + ": " + lxw_strerror(err));
    }
    [[noreturn]] void fail_cell(lxw_worksheet const* ws, std::size_t row, std::size_t col,
                                lxw_error err) const {
        fail(std::string("writing ") + ws->name + "!" + xlsx_detail::cell_name(row, col), err);
    }
    void check(lxw_error err, lxw_worksheet const* ws, std::size_t row, std::size_t col) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail_cell(ws, row, col, err);
    }
    void check(lxw_error err, std::string_view step) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail(std::string(step), err);
    }

    // ---- cells of the small sheets --------------------------------------------
    void str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& s,
             lxw_format* format = nullptr) {
        check(worksheet_write_string(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                     xlsx_detail::cell_text(s).c_str(), format),
              ws, row, col);
    }
    void num(lxw_worksheet* ws, std::size_t row, std::size_t col, double v,
             lxw_format* format = nullptr) {
        if (!std::isfinite(v)) return;  // NaN: not available, an empty cell
        check(worksheet_write_number(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                     v, format),
              ws, row, col);
    }
    void formula_text(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                      std::string const& result, lxw_format* format = nullptr) {
        check(worksheet_write_formula_str(ws, static_cast<lxw_row_t>(row),
                                          static_cast<lxw_col_t>(col), text.c_str(), format,
                                          result.c_str()),
              ws, row, col);
    }
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                 double v, lxw_format* format) {
        formula(ws, row, col, text.c_str(), v, format);
    }
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, char const* text, double v,
                 lxw_format* format) {
        auto r = static_cast<lxw_row_t>(row);
        auto c = static_cast<lxw_col_t>(col);
        check(std::isfinite(v) ? worksheet_write_formula_num(ws, r, c, text, format, v)
                               : worksheet_write_formula(ws, r, c, text, format),
              ws, row, col);
    }
    void width(lxw_worksheet* ws, std::size_t col, double chars, lxw_format* format = nullptr) {
        check(worksheet_set_column(ws, static_cast<lxw_col_t>(col), static_cast<lxw_col_t>(col),
                                   chars, format),
              std::string("setting a column width of ") + ws->name);
    }

    lxw_format* add_format() {
        lxw_format* f = workbook_add_format(wb.get());
        if (!f) throw WriteError(path + ": adding a cell format: out of memory");
        return f;
    }
    lxw_format* number_format(char const* code) {
        lxw_format* f = add_format();
        format_set_num_format(f, code);
        return f;
    }
    lxw_worksheet* add_sheet(std::string const& name) {
        lxw_worksheet* ws = workbook_add_worksheet(wb.get(), name.c_str());
        if (!ws)
            throw WriteError(path + ": adding sheet " + name +
                             ": cannot create it (out of memory, or no temporary file in " +
                             tmpdir + ")");
        return ws;
    }

    // xlsx_writer.cpp
    void open();
    void layout();
    void close();
    ~State();
    // xlsx_formats.cpp
    void make_formats();
    // xlsx_hardware_sheet.cpp
    void write_hardware();
    // xlsx_cases_sheet.cpp
    void write_cases_headers();
    void add(engine::Case const& c);
    // xlsx_case_rows.cpp
    void begin_sheet(std::size_t sheet);
    void flush_rows();
    State& put(std::string_view s);
    State& operator<<(std::string_view s) { return put(s); }
    void put_number(double v);
    void put_formula();
    void open_cell(std::size_t column, xlsx_detail::Style const& st);
    std::size_t next_column = 0;  // of the direct row being written
    void text_cell(std::size_t column, xlsx_detail::Text const& t, xlsx_detail::Style const& st);
    void number_cell(std::size_t column, double v, xlsx_detail::Style const& st);
    void formula_cell(std::size_t column, double v, xlsx_detail::Style const& st);
    void formula_text_cell(std::size_t column, xlsx_detail::Text const& result,
                           xlsx_detail::Style const& st);
    void finish_rows();
    // xlsx_summary_sheet.cpp
    void write_summary_head();
    void write_summary_tables(Summary const& summary);
    std::size_t write_summary_steps(Summary const& summary, std::size_t row);
    std::vector<std::string> summary_step_headers() const;
    // xlsx_steps_sheet.cpp
    void layout_steps();
    void write_steps(Summary const& summary);
    // xlsx_charts_sheet.cpp
    void sample(engine::Case const& c);
    void write_charts();
};

}  // namespace roofline::report
