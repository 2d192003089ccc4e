#include "roofline/report/kernel_columns.hpp"

#include "output/xlsx_cells.hpp"

#include <algorithm>
#include <stdexcept>

namespace roofline::report {

namespace {

using C = CellStyle;
using K = KernelRow;
using S = model::Scenario;
using output::text_width;

std::string_view kind_name(model::OpKind kind) {
    switch (kind) {
        case model::OpKind::matmul: return "matmul";
        case model::OpKind::elementwise: return "elementwise";
        case model::OpKind::collective: return "collective";
        case model::OpKind::kernel: return "kernel";
    }
    return "";
}

// The widest of a text over the scenario's kernels, with a margin.
template <class Text>
double widest_kernel(S const& s, Text const& text, double margin) {
    double w = 0;
    for (auto const& op : s.ops)
        if (op.kind == model::OpKind::kernel) w = std::max(w, text(op) + margin);
    return w;
}

model::Op const& kernel_of(K const& r) { return r.scenario.ops[r.member_case.op]; }

// clang-format off
constexpr KernelColumnSpec specs[] = {
//   name             shared  cell         formula                                          peak
    {"kernel",        false,  C::plain,    "",                                              false,
     [](S const& s) { return widest_kernel(s, [](model::Op const& op) { return text_width(op.name); }, 1); },
     nullptr, [](K const& r) -> std::string_view { return kernel_of(r).name; }},
    {"layer",         true,   C::plain,    "",                                              false,
     [](S const& s) { return widest_kernel(s, [](model::Op const& op) { return text_width(op.layer); }, 1); }},
    {"hardware",      true,   C::plain,    "",                                              false,
     [](S const& s) {
         double w = 0;
         for (int t : s.targets) w = std::max(w, text_width(s.hardware[static_cast<std::size_t>(t)].id) + 2);
         return w; }},
    {"compute_dtype", true,   C::plain,    "",                                              false},
    {"",              true,   C::plain,    "",                                              false},  // the sweeps
    {"chips",         true,   C::plain,    "",                                              false},
    {"member",        false,  C::indent,   "",                                              false,
     [](S const& s) {
         return widest_kernel(s, [](model::Op const& op) {
             double w = 0;
             for (auto const& m : op.members) w = std::max(w, text_width(m.name));
             return w; }, 2); },
     nullptr, [](K const& r) -> std::string_view { return kernel_of(r).members[r.member.member].name; }},
    {"kind",          false,  C::plain,    "",                                              false,
     [](S const&) { return text_width("elementwise") + 1; },
     nullptr, [](K const& r) { return kind_name(kernel_of(r).members[r.member.member].kind); }},
    {"repeat",        false,  C::plain,    "",                                              false,
     nullptr, [](K const& r) { return r.member.repeat; }},
    {"flops",         true,   C::plain,    "",                                              false},
    {"bytes_read",    true,   C::plain,    "",                                              false},
    {"bytes_written", true,   C::plain,    "",                                              false},
    {"bytes_onchip",  true,   C::plain,    "",                                              false},
    {"net_bytes",     true,   C::plain,    "",                                              false},
    // As in Cases, but over the Hardware sheet's peak: the sheet has no peak column.
    {"t_math",        true,   C::plain,    "{flops}/{hw.peak}",                             true},
    {"t_comms",       true,   C::plain,    "({bytes_read}+{bytes_written})/{hw.hbm_bandwidth}", false},
    {"t_onchip",      true,   C::plain,    "{bytes_onchip}/{hw.onchip_bandwidth}",          false},
    {"t_net",         true,   C::plain,    "",                                              false},
    // The member's expected time as if it ran alone (members.hpp); a value.
    {"t_expected",    true,   C::plain,    "",                                              false},
    {"flops_share",   false,  C::fraction, "",                                              false,
     nullptr, [](K const& r) { return r.member.flops_share; }},
};
// clang-format on

}  // namespace

bool has_kernels(model::Scenario const& scenario) {
    return std::any_of(scenario.ops.begin(), scenario.ops.end(),
                       [](model::Op const& op) { return op.kind == model::OpKind::kernel; });
}

std::vector<KernelColumn> kernel_columns(model::Scenario const& scenario) {
    bool const mesh = !scenario.mesh.empty();
    std::vector<KernelColumn> columns;
    for (auto const& spec : specs) {
        if (!spec.shared) {
            columns.push_back({&spec, nullptr, 0, std::string(spec.name), spec.text != nullptr, spec.cell});
            continue;
        }
        // The case's column; a member may have on-chip operands in any
        // report, so only the mesh's columns come and go.
        auto const& shared = case_column_spec(spec.name);
        if (shared.only == CaseColumnSpec::Only::mesh && !mesh) continue;
        if (!shared.per_sweep) {
            columns.push_back({&spec, &shared, 0, std::string(spec.name), shared.text(), shared.cell});
            continue;
        }
        for (std::size_t v = 0; v < scenario.sweeps.size(); ++v) {
            bool const of_dtypes = scenario.sweeps[v].of_dtypes;
            columns.push_back({&spec, &shared, v, scenario.sweeps[v].name, of_dtypes,
                               of_dtypes ? CellStyle::indent : shared.cell});
        }
    }
    return columns;
}

std::size_t kernel_row_count(model::Scenario const& scenario, engine::CaseGrid const& grid) {
    std::size_t members = 0;
    for (auto const& op : scenario.ops)
        if (op.kind == model::OpKind::kernel) members += op.members.size();
    return grid.point_count * grid.target_count * members;
}

}  // namespace roofline::report
