#pragma once
// The columns of kernels.csv and the Kernels sheet (reports.md, "kernels.csv"):
// one row per kernel case and member, the member's own figures next to the
// case's sweep values, hardware and names. One description for both files.

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/members.hpp"
#include "roofline/model/scenario.hpp"
#include "roofline/report/case_columns.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

enum class KernelField : std::uint8_t {
    kernel, layer, hardware, compute_dtype, sweep, chips, member, kind, repeat,
    flops, bytes_read, bytes_written, bytes_onchip, net_bytes,
    t_math, t_comms, t_onchip, t_net, flops_share,
};

struct KernelColumn {
    KernelField field;
    std::size_t sweep = 0;  // of a sweep column
    std::string header;
    bool text;              // a name (or a dtype sweep's value), not a number
    CellStyle cell;
};

// Whether the scenario has a kernel: kernels.csv and the Kernels sheet exist
// only then.
bool has_kernels(model::Scenario const& scenario);

// The columns, in order: kernel, layer, hardware, compute_dtype, one per
// sweep, (chips), member, kind, repeat, flops, bytes_read, bytes_written,
// bytes_onchip, (net_bytes), t_math, t_comms, t_onchip, (t_net),
// flops_share; those in parentheses only with a mesh.
std::vector<KernelColumn> kernel_columns(model::Scenario const& scenario);

// The rows of one kernel case: one per member. (NaN: an empty field.)
double kernel_number(KernelColumn const& column, engine::CaseGrid const& grid,
                     engine::Case const& c, engine::MemberMetrics const& member);
std::string_view kernel_text(KernelColumn const& column, model::Scenario const& scenario,
                             engine::CaseGrid const& grid, engine::Case const& c,
                             engine::MemberMetrics const& member);

// Rows of the Kernels sheet and kernels.csv: kernel cases x their members.
std::size_t kernel_row_count(model::Scenario const& scenario, engine::CaseGrid const& grid);

}  // namespace roofline::report
