#pragma once
// The columns of a case (reports.md, "cases.csv"): the one description that
// cases.csv, the workbook's Cases sheets, the terminal table of `eval` and the
// diff's reader of cases.csv all follow. Adding a column is one entry in
// case_columns.cpp: name, unit, formats, workbook formula and its value.

#include "roofline/engine/evaluate.hpp"
#include "roofline/model/scenario.hpp"

#include <cstddef>
#include <functional>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

// The workbook's number format of a column (report.xlsx's cell formats).
enum class CellStyle : std::uint8_t { plain, sci, ratio, time, fraction, center, indent, energy };
// How the terminal table writes a column (src/cli/format.hpp).
// si: three digits, an SI prefix and the column's unit ("989 TFLOP/s").
enum class TermStyle : std::uint8_t { text, count, general, seconds, si };

// One case as the columns' values read it.
struct CaseRow {
    model::Scenario const& scenario;
    engine::CaseGrid const& grid;
    engine::Case const& c;
    model::Hardware const& hardware() const {
        return scenario.hardware[static_cast<std::size_t>(scenario.targets[c.target])];
    }
};

struct CaseColumnSpec {
    // The header; for a per-sweep column, the prefix of the sweep's name
    // ("" for the sweep's value itself, "critical_").
    std::string_view name;
    std::string_view unit;  // "FLOP", "B", "FLOP/B", "FLOP/s", "s", or "" (none)
    bool per_sweep;
    CellStyle cell;
    TermStyle term;
    bool term_needs_layers;  // the terminal shows it only when some op is in a layer
    double min_width;        // workbook column width at least (characters); 0: by content
    // The workbook cell, when derived: a formula over this row's cells
    // ({flops}) and the target's Hardware cells ({hw.hbm_bandwidth}, {hw.peak}),
    // with the value as its cached result. Empty: the value itself.
    std::string_view formula;
    // Only with a peak: an unsupported case (no peak for its compute dtype)
    // gets its value there instead of the formula (empty, or "unsupported"
    // in `bound`).
    bool needs_peak;
    // Which reports have the column: all, those with a mesh (chips,
    // net_bytes, collective, t_net), those whose cases have on-chip operands
    // (bytes_onchip, t_onchip).
    enum class Only : std::uint8_t { always, mesh, onchip } only;
    // The value of a numeric column (NaN: not available, an empty cell);
    // `sweep`: which sweep, for a per-sweep column.
    double (*number)(CaseRow const& row, std::size_t sweep);
    // A text column's value is one of the texts the scenario fixes (an op's
    // name, a chip's id): `text_key` picks it for a case, `text_of` spells
    // it, so that a writer prepares each text once (the workbook escapes it
    // once, not per case). A dtype sweep has both a number and a text.
    std::size_t (*text_key)(CaseRow const& row, std::size_t sweep) = nullptr;
    std::string_view (*text_of)(model::Scenario const& scenario, engine::CaseGrid const& grid,
                                std::size_t key) = nullptr;
    // The formula for the levels a report has, when it depends on them
    // (t_lower, t_upper, bound): used instead of `formula`.
    std::string (*levels_formula)(bool mesh, bool onchip) = nullptr;
    // A column over an optional hardware field ("power"): only in a report
    // where some target has the field, so that a catalog without it adds no
    // empty column. Empty: no such condition.
    std::string_view hardware_field = {};
    // Whether the formula applies to a row (else its value): for t_step,
    // whose formula adds the whole t_net, the rows with no overlapped
    // collective. Null: every row.
    bool (*formula_applies)(CaseRow const& row) = nullptr;
    // Whether the terminal table of `eval` shows it (false: `calibration`,
    // which the terminal names once per target instead).
    bool terminal = true;

    bool text() const { return number == nullptr; }  // a name (or `bound`), not a number
};

// Every column spec, in the order of the columns.
std::span<CaseColumnSpec const> case_column_specs();
// The spec of this name (as in case_column_specs); throws std::logic_error if none.
CaseColumnSpec const& case_column_spec(std::string_view name);

// A column of one report: a spec, and for a per-sweep one, which sweep.
struct CaseColumn {
    CaseColumnSpec const* spec;
    std::size_t sweep = 0;
    std::string header;  // "flops", "B", "critical_B"
    bool text;           // spec->text(), or the value of a dtype sweep (a dtype's name)
    // The spec's, for this report: t_lower, t_upper and bound take the
    // levels it has (t_onchip with on-chip operands, t_net with a mesh).
    std::string formula;
};

// The columns of a report with these sweeps, in order. A dtype sweep has no
// critical column; the network's columns come only with a mesh, the on-chip
// level's only with on-chip operands, a column over a hardware field only
// when `some_target_has` that field.
std::vector<CaseColumn> case_columns(std::vector<model::Sweep> const& sweeps, bool mesh,
                                     bool onchip = false,
                                     std::function<bool(std::string_view field)> const& some_target_has = {});
std::vector<CaseColumn> case_columns(model::Scenario const& scenario);
// The position of the column with this header in `columns`; throws
// std::logic_error if none.
std::size_t column_index(std::vector<CaseColumn> const& columns, std::string_view header);

// A case's value in a numeric column (NaN: not available, an empty cell).
inline double case_number(CaseColumn const& column, CaseRow const& row) {
    return column.spec->number(row, column.sweep);
}
// A case's value in a text column.
inline std::size_t case_text_key(CaseColumn const& column, CaseRow const& row) {
    return column.spec->text_key(row, column.sweep);
}
inline std::string_view case_text(CaseColumn const& column, CaseRow const& row) {
    return column.spec->text_of(row.scenario, row.grid, case_text_key(column, row));
}

}  // namespace roofline::report
