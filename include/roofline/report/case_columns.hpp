#pragma once
// The columns of a case (reports.md, "cases.csv"): the one description that
// cases.csv, the workbook's Cases sheets, the terminal table of `eval` and the
// diff's reader of cases.csv all follow. Adding a column is one entry in
// case_columns.cpp (name, unit, formats, workbook formula) plus the engine's
// value in case_number / case_text.

#include "roofline/engine/evaluate.hpp"
#include "roofline/model/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

// What a column holds; `sweep` and `critical` come once per sweep variable.
enum class CaseField : std::uint8_t {
    op, layer, count, hardware, compute_dtype, sweep, chips,
    flops, bytes_read, bytes_written, bytes_onchip, net_bytes, collective, intensity, peak, ridge,
    t_math, t_comms, t_onchip, t_net, t_lower, t_upper, bound, attained, peak_fraction,
    critical,
};

// The workbook's number format of a column (report.xlsx's cell formats).
enum class CellStyle : std::uint8_t { plain, sci, ratio, time, fraction, center, indent };
// How the terminal table writes a column (src/cli/format.hpp).
// si: three digits, an SI prefix and the column's unit ("989 TFLOP/s").
enum class TermStyle : std::uint8_t { text, count, general, seconds, si };

struct CaseColumnSpec {
    CaseField field;
    // The header; for a per-sweep column, the prefix of the sweep's name
    // ("" for the sweep's value itself, "critical_").
    std::string_view name;
    std::string_view unit;  // "FLOP", "B", "FLOP/B", "FLOP/s", "s", or "" (none)
    bool text;              // a name (or `bound`), not a number
    bool per_sweep;
    CellStyle cell;
    TermStyle term;
    bool term_needs_layers;  // the terminal shows it only when some op is in a layer
    double min_width;        // workbook column width at least (characters); 0: by content
    // The workbook cell, when derived: a formula over this row's cells
    // ({flops}) and the target's Hardware cells ({hw.hbm_bandwidth}, {hw.peak}),
    // with the engine's value as its cached result. Empty: the value itself.
    std::string_view formula;
    // Only with a peak: an unsupported case (no peak for its compute dtype)
    // gets the engine's value there instead of the formula (empty, or
    // "unsupported" in `bound`).
    bool needs_peak;
    // Only in a report with a mesh (chips, net_bytes, collective, t_net).
    bool mesh_only = false;
    // Only in a report whose cases have on-chip operands (bytes_onchip, t_onchip).
    bool onchip_only = false;
};

// Every column spec, in the order of the columns.
std::span<CaseColumnSpec const> case_column_specs();
CaseColumnSpec const& case_column_spec(CaseField field);

// A column of one report: a spec, and for a per-sweep one, which sweep.
struct CaseColumn {
    CaseColumnSpec const* spec;
    std::size_t sweep = 0;
    std::string header;  // "flops", "B", "critical_B"
    bool text;           // spec->text, or the value of a dtype sweep (a dtype's name)
    // The spec's, for this report: t_lower, t_upper and bound take the
    // levels it has (t_onchip with on-chip operands, t_net with a mesh).
    std::string formula;
};

// The columns of a report with these sweeps, in order. A dtype sweep has no
// critical column; the network's columns come only with a mesh, the on-chip
// level's only with on-chip operands.
std::vector<CaseColumn> case_columns(std::vector<model::Sweep> const& sweeps, bool mesh,
                                     bool onchip = false);
inline std::vector<CaseColumn> case_columns(model::Scenario const& scenario) {
    return case_columns(scenario.sweeps, !scenario.mesh.empty(), scenario.has_onchip());
}

// A case's value in a numeric column (NaN: not available, an empty cell).
double case_number(CaseColumn const& column, model::Scenario const& scenario,
                   engine::CaseGrid const& grid, engine::Case const& c);
// A case's value in a text column.
std::string_view case_text(CaseColumn const& column, model::Scenario const& scenario,
                           engine::CaseGrid const& grid, engine::Case const& c);

}  // namespace roofline::report
