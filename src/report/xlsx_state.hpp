#pragma once
// The state of an XlsxWriter, shared by the files that write report.xlsx:
//   xlsx_writer.cpp          opening (the scenario flattened), closing, the API
//   xlsx_formats.cpp         cell formats and colours
//   xlsx_hardware_sheet.cpp  the Hardware sheet
//   xlsx_cases_sheet.cpp     the Cases columns, headers and each case's row
//                            (through output::FastRows)
//   xlsx_summary_sheet.cpp   the Summary sheet (with its Step section)
//   xlsx_steps_sheet.cpp     the Steps sheet: the step per sweep point and target
//   xlsx_requests_sheet.cpp  the Requests sheet: each request's TTFT, TPOT, e2e
//   xlsx_serve_sheet.cpp     the Serve and Fleet sheets: the serve points, the fleet
//   xlsx_charts_sheet.cpp    the chart samples and the Charts sheet
//   xlsx_kernels_sheet.cpp   the Kernels sheets: each kernel case's members
// Private to src/report; the workbook itself is an output::Workbook.

#include "roofline/engine/members.hpp"
#include "roofline/report/case_columns.hpp"
#include "roofline/report/kernel_columns.hpp"
#include "roofline/report/request_columns.hpp"
#include "roofline/report/serve_columns.hpp"
#include "roofline/report/chart_writer.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include "formula_pieces.hpp"
#include "hardware_columns.hpp"
#include "output/fast_rows.hpp"
#include "output/workbook.hpp"
#include "output/xlsx_cells.hpp"

#include <xlsxwriter.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::report {

// Formula cells x cases above which the formulas that read every case
// (SUMPRODUCT over Cases) are values: a recalculation of 5e7 cells already
// takes seconds.
inline constexpr double max_formula_cells = 5e7;

// A number as formula text: the shortest that reads back, with an upper-case
// exponent as spreadsheets write it (xlsx_cases_sheet.cpp).
void put_formula_number(output::Formula& f, double value);
std::string formula_number(double value);

struct XlsxWriter::State {
    ReportContext const& ctx;
    XlsxOptions options;
    std::string path;
    std::optional<output::Workbook> book;
    std::optional<output::FastRows> rows;  // the Cases rows
    bool finished = false;

    lxw_worksheet* summary = nullptr;
    lxw_worksheet* steps = nullptr;
    lxw_worksheet* requests = nullptr;  // with requests only
    lxw_worksheet* serve = nullptr;     // with a serve statement only
    lxw_worksheet* fleet = nullptr;     // with `fleet rate` only
    lxw_worksheet* hardware = nullptr;
    lxw_worksheet* charts = nullptr;
    std::vector<lxw_worksheet*> cases;
    std::vector<std::string> cases_names;

    struct Formats {
        lxw_format *header_number;  // over numbers, right-aligned as they are
        lxw_format *title, *label, *header, *section, *note, *sci, *ratio, *time, *fraction,
            *center, *indent, *energy, *compute, *memory, *unsupported, *never, *bytes, *whole, *rate;
        lxw_format *onchip, *network;  // static bound cells, as compute and memory
        lxw_format *cf_compute_row, *cf_memory_row, *cf_unsupported_row, *cf_onchip_row,
            *cf_network_row;
        lxw_format *cf_compute_cell, *cf_memory_cell, *cf_unsupported_cell, *cf_onchip_cell,
            *cf_network_cell;
    } fmt{};

    // The scenario, flattened once.
    std::size_t targets = 0, sweeps = 0, points = 0, matmuls = 0, total_cases = 0;
    std::vector<int> dtypes;             // compute dtypes used, first-use order
    std::vector<std::size_t> slot_of;    // scenario dtype index -> index into dtypes
    std::vector<std::string> op_dtypes;  // matmul -> its compute dtypes, "bf16" or "bf16, fp8"
    std::vector<std::string> op_label;   // matmul -> "layer/op" (charts)
    std::vector<std::string> dtype_names;  // per slot

    // Cases sheet columns (case_columns.hpp), and where the other sheets
    // find some of them.
    std::vector<CaseColumn> columns;
    struct Cols {
        std::size_t op, layer, count, hardware, dtype, sweep0, flops, bytes_read, bytes_written,
            intensity, peak, ridge, t_math, t_comms, t_lower, t_upper, bound, attained,
            peak_fraction, critical0, last;
        std::size_t t_step;  // the op's time in the serial step: t_lower on one chip
        std::size_t t_expected;
    } col{};
    std::vector<std::string> letters;  // per Cases column
    // A derived column's formula, split once: literal text, this row's cell
    // of a column, or the target's Hardware cell of a field (`{hw.<field>}`).
    struct Piece {
        enum Kind : std::uint8_t { literal, cell, hardware } kind;
        std::string text;        // literal
        std::size_t column = 0;  // cell: the column; hardware: the field's index in the table
    };
    std::vector<std::vector<Piece>> formulas;          // per Cases column; empty: a value
    // The case's target's cell of a hardware piece ("" where the chip lacks
    // the field); whether a formula's hardware pieces all have one.
    std::string const& hardware_cell(Piece const& piece, engine::Case const& c) const {
        return hw_cells.of(piece.column, c.target, slot_of[c.compute_dtype]);
    }
    bool has_hardware_cells(std::vector<Piece> const& pieces, engine::Case const& c) const {
        for (auto const& piece : pieces)
            if (piece.kind == Piece::hardware && hardware_cell(piece, c).empty()) return false;
        return true;
    }
    std::vector<output::Style const*> column_style;    // per Cases column
    // The Hardware sheet's cells (hardware_columns.hpp), and by name those
    // that the other sheets' formulas use.
    HardwareCells hw_cells;
    std::vector<std::string> bw_ref;    // per target: Hardware!$C$2
    std::vector<std::string> onchip_ref;  // per target: its onchip_bandwidth cell, "" if none
    std::vector<std::string> peak_ref;  // [target * slots + slot]: Hardware!$J$2, "" if none
    // Per Cases text column, its texts by key (case_columns.hpp), each made once.
    std::vector<std::vector<std::optional<output::Text>>> column_texts;
    output::Text const& case_text_cell(std::size_t column, CaseRow const& row);
    CaseColumnSpec const* critical_spec = nullptr;  // critical_V's: the workbook's own formula
    // The Cases column of sweep v's critical value; none for a dtype sweep.
    std::optional<std::size_t> critical_column(std::size_t v) const;
    // "(R=4)" or, for a dtype sweep, "EXACT(R,\"fp8\")": whether a cell of the
    // range R holds sweep v's value at `point` (a formula's factor).
    std::string sweep_test(std::string const& range, std::size_t point, std::size_t v) const;
    output::Text never_text{"never"};
    // A critical_V that is a value evaluated at the scenario's hardware (V
    // reaches the axes through lets): italic, and the Summary says why.
    lxw_format* fixed_format = nullptr;
    output::Style const* fixed_style = nullptr;
    output::Style const* critical_style = nullptr;  // a critical_V that is a formula
    // critical_V of a case (a column of the `critical` field) as a formula.
    void critical_formula(engine::Case const& c, std::size_t sweep, std::size_t column);

    HardwareColumns hw_columns;  // the Hardware sheet's
    std::vector<std::string> capacity_ref;  // per target: Hardware!$D$2, "" without hbm_capacity
    // The Hardware cell of {hw.<field>} in a table's formula (formula_pieces.hpp)
    // for a target and (for `peak`) a compute dtype; "" when the chip has none.
    std::string const& hardware_ref(std::string_view field, std::size_t target,
                                    std::size_t compute_dtype = 0) const;

    // The Steps sheet (xlsx_steps_sheet.cpp): a note, a header, then one row
    // per target and sweep point, target by target. The optional column
    // groups are left out when the whole scenario has nothing for them.
    struct StepCols {
        bool tokens = false;  // tokens, tokens/s: the scenario has a tokens statement
        bool bytes = false;   // weights, cache, resident: something is resident
        bool chips = false;   // min chips: bytes, and some target has hbm_capacity
        bool overlapped = false;  // the overlapped bound beside the step: a mesh
        // A pipeline axis: the latency beside the step, tokens/s per chip after tokens/s.
        bool pipeline = false;
        std::size_t latency = 0, per_chip = 0;
        // t_lower: the step (serial on a mesh, Cases' t_step), t_overlapped its
        // bound; t_expected the expected step (Cases' t_expected + the overheads).
        std::size_t hardware = 0, sweep0 = 1, t_lower = 0, t_expected = 0, t_overlapped = 0, t_upper = 0, memory = 0,
                    tokens_col = 0, rate = 0, weights = 0, cache = 0, resident = 0, min_chips = 0,
                    last = 0;
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
    std::size_t row_sheet = static_cast<std::size_t>(-1);
    output::Formula f;  // the formula of the cell being written, without '='

    // Chart samples: [matmul * targets + target] -> (intensity, attained).
    // Only cases a log axis can show; the others are counted in off_log.
    std::vector<std::vector<std::pair<double, double>>> samples;
    std::vector<ChartData::OffLog> off_log;  // [matmul * targets + target]
    std::vector<double> network_rate;  // [matmul * targets + target]: as ChartData::network_rate
    std::uint64_t sample_k = 0;  // the next sampled point is sample_k (P-1) / (N-1)

    std::size_t summary_row = 0;

    // The Kernels sheets (only with a kernel): a row per kernel case and
    // member, continued like Cases past rows_per_cases_sheet.
    struct Kernels {
        std::vector<lxw_worksheet*> sheets;
        std::vector<std::string> names;
        std::vector<KernelColumn> columns;
        std::optional<engine::KernelMembers> members;
        std::optional<output::FastRows> rows;
        std::vector<output::Style const*> styles;  // per column
        std::size_t total_rows = 0, next_row = 0, sheet = static_cast<std::size_t>(-1);
        std::vector<std::vector<FormulaPiece>> formulas;  // per column (formula_pieces.hpp)
    } kernels_sheet;

    State(std::string const& p, ReportContext const& c, XlsxOptions const& o)
        : ctx(c), options(o), path(p) {}

    // ---- cells of the small sheets (output::Workbook's) -------------------------
    void check(lxw_error err, std::string_view step) const { book->check(err, step); }
    void str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& s,
             lxw_format* format = nullptr) {
        book->text(ws, row, col, s, format);
    }
    void num(lxw_worksheet* ws, std::size_t row, std::size_t col, double v,
             lxw_format* format = nullptr) {
        book->number(ws, row, col, v, format);
    }
    // Sweep v's value at `point`: a number, or a dtype sweep's name (indented:
    // it may follow a number).
    // A header row of the Summary's tables, which share the sheet's column
    // widths: each header aligned as its column's values are (a number's
    // header right, so that it sits over the number, not over the next
    // column's start).
    void header_cells(lxw_worksheet* ws, std::size_t row, std::vector<std::string> const& headers,
                      std::vector<bool> const& over_numbers) {
        for (std::size_t i = 0; i < headers.size(); ++i)
            str(ws, row, i, headers[i], i < over_numbers.size() && over_numbers[i] ? fmt.header_number : fmt.header);
    }
    void sweep_cell(lxw_worksheet* ws, std::size_t row, std::size_t col, std::size_t point,
                    std::size_t v) {
        double value = ctx.grid.sweep_value(point, v);
        if (auto const* dtype = ctx.scenario.sweep_dtype_name(v, value))
            str(ws, row, col, *dtype, fmt.indent);
        else
            num(ws, row, col, value);
    }
    void formula_text(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                      std::string const& result, lxw_format* format = nullptr) {
        book->formula_text(ws, row, col, text, result, format);
    }
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& text,
                 double v, lxw_format* format) {
        book->formula(ws, row, col, text, v, format);
    }
    void width(lxw_worksheet* ws, std::size_t col, double chars, lxw_format* format = nullptr) {
        book->width(ws, col, col, chars, format);
    }
    lxw_format* add_format() { return book->add_format(); }
    lxw_format* number_format(char const* code) { return book->number_format(code); }
    lxw_worksheet* add_sheet(std::string const& name) { return book->add_sheet(name); }

    // xlsx_writer.cpp
    void open();
    void layout();
    void close(std::function<void(double)> const& progress);
    ~State();
    // xlsx_formats.cpp
    void make_formats();
    // xlsx_hardware_sheet.cpp
    void write_hardware();
    // xlsx_cases_sheet.cpp
    void write_cases_headers();
    void add(engine::Case const& c);
    void layout_cases();
    output::Style const& cell_style(CellStyle style);
    // xlsx_summary_sheet.cpp
    void write_summary_head();
    void write_summary_tables(Summary const& summary);
    std::size_t write_summary_steps(Summary const& summary, std::size_t row);
    // The Plan section (xlsx_summary_plan.cpp); returns the next free row.
    std::size_t write_summary_plan(Summary const& summary, std::size_t row);
    std::vector<std::string> summary_step_headers() const;
    // xlsx_steps_sheet.cpp
    void layout_steps();
    void write_steps(Summary const& summary);
    // xlsx_kernels_sheet.cpp
    void open_kernels();  // the sheets; call where they go in the sheet order
    void write_kernels_headers();
    void add_kernel_rows(engine::Case const& c);
    // The Summary's and the Steps sheet's line when the scenario has no op.
    std::string no_cases_note() const;
    // xlsx_requests_sheet.cpp
    void write_requests();
    lxw_format* request_format(RequestCell cell) const;
    // xlsx_serve_sheet.cpp
    void write_serve();
    lxw_format* serve_format(ServeCell cell) const;
    lxw_format* serve_wrap = nullptr;  // ServeCell::wrap, made with the Fleet sheet
    template <class Columns, class Rows, class Value>
    void serve_table(lxw_worksheet* ws, char const* what, Columns const& columns, Rows const& rows,
                     Value const& value);
    // xlsx_charts_sheet.cpp
    void sample(engine::Case const& c);
    void write_charts();
};

}  // namespace roofline::report
