#include "roofline/report/kernel_columns.hpp"

#include <algorithm>
#include <stdexcept>

namespace roofline::report {

namespace {

using F = KernelField;

std::string_view kind_name(model::OpKind kind) {
    switch (kind) {
        case model::OpKind::matmul: return "matmul";
        case model::OpKind::elementwise: return "elementwise";
        case model::OpKind::collective: return "collective";
        case model::OpKind::kernel: return "kernel";
    }
    return "";
}

}  // namespace

bool has_kernels(model::Scenario const& scenario) {
    return std::any_of(scenario.ops.begin(), scenario.ops.end(),
                       [](model::Op const& op) { return op.kind == model::OpKind::kernel; });
}

std::vector<KernelColumn> kernel_columns(model::Scenario const& scenario) {
    bool const mesh = !scenario.mesh.empty();
    std::vector<KernelColumn> columns;
    auto add = [&](F field, char const* name, bool text, CellStyle cell) {
        columns.push_back({field, 0, name, text, cell});
    };
    add(F::kernel, "kernel", true, CellStyle::plain);
    add(F::layer, "layer", true, CellStyle::plain);
    add(F::hardware, "hardware", true, CellStyle::indent);
    add(F::compute_dtype, "compute_dtype", true, CellStyle::plain);
    for (std::size_t v = 0; v < scenario.sweeps.size(); ++v)
        columns.push_back({F::sweep, v, scenario.sweeps[v].name, scenario.sweeps[v].of_dtypes,
                           scenario.sweeps[v].of_dtypes ? CellStyle::indent : CellStyle::plain});
    if (mesh) add(F::chips, "chips", false, CellStyle::plain);
    add(F::member, "member", true, CellStyle::indent);
    add(F::kind, "kind", true, CellStyle::plain);
    add(F::repeat, "repeat", false, CellStyle::plain);
    add(F::flops, "flops", false, CellStyle::sci);
    add(F::bytes_read, "bytes_read", false, CellStyle::sci);
    add(F::bytes_written, "bytes_written", false, CellStyle::sci);
    add(F::bytes_onchip, "bytes_onchip", false, CellStyle::sci);
    if (mesh) add(F::net_bytes, "net_bytes", false, CellStyle::sci);
    add(F::t_math, "t_math", false, CellStyle::time);
    add(F::t_comms, "t_comms", false, CellStyle::time);
    add(F::t_onchip, "t_onchip", false, CellStyle::time);
    if (mesh) add(F::t_net, "t_net", false, CellStyle::time);
    add(F::flops_share, "flops_share", false, CellStyle::fraction);
    return columns;
}

double kernel_number(KernelColumn const& column, engine::CaseGrid const& grid,
                     engine::Case const& c, engine::MemberMetrics const& member) {
    auto const& m = member.metrics;
    switch (column.field) {
        case F::sweep: return grid.sweep_value(c, column.sweep);
        case F::chips: return grid.chips_at(c.point);
        case F::repeat: return member.repeat;
        case F::flops: return m.counts.flops;
        case F::bytes_read: return m.counts.bytes_read;
        case F::bytes_written: return m.counts.bytes_written;
        case F::bytes_onchip: return m.counts.bytes_onchip;
        case F::net_bytes: return m.net_bytes;
        case F::t_math: return m.t_math;
        case F::t_comms: return m.t_comms;
        case F::t_onchip: return m.t_onchip;
        case F::t_net: return m.t_net;
        case F::flops_share: return member.flops_share;
        default: break;
    }
    throw std::logic_error("kernel_number of a text column");
}

std::string_view kernel_text(KernelColumn const& column, model::Scenario const& scenario,
                             engine::CaseGrid const& grid, engine::Case const& c,
                             engine::MemberMetrics const& member) {
    auto const& kernel = scenario.ops[c.op];
    switch (column.field) {
        case F::kernel: return kernel.name;
        case F::layer: return kernel.layer;
        case F::hardware:
            return scenario.hardware[static_cast<std::size_t>(scenario.targets[c.target])].id;
        case F::compute_dtype: return scenario.dtypes[c.compute_dtype].name;
        case F::sweep:  // of dtypes
            return scenario.dtypes[static_cast<std::size_t>(grid.sweep_value(c, column.sweep))].name;
        case F::member: return kernel.members[member.member].name;
        case F::kind: return kind_name(kernel.members[member.member].kind);
        default: break;
    }
    throw std::logic_error("kernel_text of a numeric column");
}

std::size_t kernel_row_count(model::Scenario const& scenario, engine::CaseGrid const& grid) {
    std::size_t members = 0;
    for (auto const& op : scenario.ops)
        if (op.kind == model::OpKind::kernel) members += op.members.size();
    return grid.point_count * grid.target_count * members;
}

}  // namespace roofline::report
