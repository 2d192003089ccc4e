#pragma once
// The columns of kernels.csv and the Kernels sheet (reports.md, "kernels.csv"):
// one row per kernel case and member, the member's own figures next to the
// case's sweep values, hardware and names. One description for both files;
// the columns a case has too (layer, flops, t_math, ...) are the cases'
// (case_columns.cpp), read from the member as from a case.

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/members.hpp"
#include "roofline/model/scenario.hpp"
#include "roofline/report/case_columns.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

// One member of a kernel case as the columns read it: `member_case` is the
// kernel's case with the member's metrics.
struct KernelRow {
    model::Scenario const& scenario;
    engine::CaseGrid const& grid;
    engine::Case const& member_case;
    engine::MemberMetrics const& member;
    CaseRow as_case() const { return {scenario, grid, member_case}; }
};

struct KernelColumnSpec {
    std::string_view name;
    // The case column of this name: its cell style and value (and, for a
    // sweep, one column per sweep; only with a mesh where the case's is).
    // Else the kernel's own, below.
    bool shared;
    CellStyle cell;
    // The Kernels sheet's cell, when derived: a formula over this row's
    // cells and the target's Hardware cells, as in Cases.
    std::string_view formula;
    bool needs_peak;  // an unsupported case gets the value instead
    // The sheet's width at least: the widest of the column's values in this
    // scenario, with its margin (0: by the header).
    double (*widest)(model::Scenario const& scenario) = nullptr;
    double (*number)(KernelRow const& row) = nullptr;
    std::string_view (*text)(KernelRow const& row) = nullptr;
};

// A column of one report.
struct KernelColumn {
    KernelColumnSpec const* spec;
    CaseColumnSpec const* shared = nullptr;  // spec->shared: the case's column
    std::size_t sweep = 0;                   // of a sweep column
    std::string header;
    bool text;       // a name (or a dtype sweep's value), not a number
    CellStyle cell;
};

// Whether the scenario has a kernel: kernels.csv and the Kernels sheet exist
// only then.
bool has_kernels(model::Scenario const& scenario);

// The columns, in order: kernel, layer, hardware, compute_dtype, one per
// sweep, (chips), member, kind, repeat, flops, bytes_read, bytes_written,
// bytes_onchip, (net_bytes), t_math, t_comms, t_onchip, (t_net),
// t_expected, flops_share; those in parentheses only with a mesh.
std::vector<KernelColumn> kernel_columns(model::Scenario const& scenario);

// A member's value in a column (NaN: an empty field).
inline double kernel_number(KernelColumn const& column, KernelRow const& row) {
    if (column.shared) return column.shared->number(row.as_case(), column.sweep);
    return column.spec->number(row);
}
inline std::string_view kernel_text(KernelColumn const& column, KernelRow const& row) {
    if (column.shared) {
        auto const r = row.as_case();
        return column.shared->text_of(row.scenario, r.grid, column.shared->text_key(r, column.sweep));
    }
    return column.spec->text(row);
}

// Rows of the Kernels sheet and kernels.csv: kernel cases x their members.
std::size_t kernel_row_count(model::Scenario const& scenario, engine::CaseGrid const& grid);

}  // namespace roofline::report
