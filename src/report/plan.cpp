// The Plan table: the capacity plan of a multi-chip scenario. Computed from
// the step totals, like the Step section; read by the terminal and the
// workbook's Summary sheet.
#include "roofline/report/report.hpp"

#include "roofline/model/expr.hpp"

#include <cmath>
#include <map>

namespace roofline::report {

Plan make_plan(ReportContext const& context, Summary const& summary) {
    Plan plan;
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    if (scenario.mesh.empty() || !grid.has_tokens) return plan;
    std::uint64_t mesh_bits = 0;
    for (auto const& axis : scenario.mesh)
        mesh_bits |= scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on;
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        (v < 64 && (mesh_bits >> v & 1) ? plan.mesh_sweeps : plan.other_sweeps).push_back(v);

    for (std::size_t t = 0; t < grid.target_count; ++t) {
        std::map<std::vector<double>, std::size_t> row_of;  // mesh sweep values -> row
        std::size_t const first_row = plan.rows.size();
        std::vector<bool> any_built, any_fits, any_step;
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            std::vector<double> key;
            for (std::size_t v : plan.mesh_sweeps) key.push_back(grid.sweep_value(p, v));
            auto [it, inserted] = row_of.emplace(key, plan.rows.size());
            if (inserted) {
                PlanRow row;
                row.target = t;
                row.mesh_point = p;
                plan.rows.push_back(row);
                any_built.push_back(false);
                any_fits.push_back(false);
                any_step.push_back(false);
            }
            std::size_t const r = it->second;
            auto& row = plan.rows[r];
            if (!grid.mesh_unsupported.empty() && grid.mesh_unsupported[p * grid.target_count + t])
                continue;
            any_built[r - first_row] = true;
            StepTotals step = step_totals(context, summary, p, t);
            if (!(step.t_lower > 0) || std::isnan(step.tokens_per_s)) continue;
            any_step[r - first_row] = true;
            bool const fits = std::isnan(step.capacity) || step.resident_bytes <= step.capacity;
            if (!fits) continue;
            any_fits[r - first_row] = true;
            if (scenario.slo_step_s && !(step.t_lower <= *scenario.slo_step_s)) continue;
            double per_chip = step.tokens_per_s / step.chips;
            if (row.chosen && !(per_chip > row.tokens_per_s_per_chip)) continue;
            row.chosen = true;
            row.point = p;
            row.step = step;
            row.tokens_per_s_per_chip = per_chip;
            row.compute_share =
                std::max(0.0, 1 - step.memory_share - step.network_share - step.onchip_share);
        }
        PlanRow* best = nullptr;
        for (std::size_t r = first_row; r < plan.rows.size(); ++r) {
            auto& row = plan.rows[r];
            if (!row.chosen) {
                std::size_t const k = r - first_row;
                row.why = !any_built[k]                ? "the chip cannot build this mesh"
                          : !any_step[k]               ? "no case is supported on this chip"
                          : !any_fits[k]               ? "does not fit in HBM at any point"
                          : scenario.slo_step_s        ? "no point meets slo step <= " +
                                                      model::format_number(*scenario.slo_step_s * 1e3) + " ms"
                                                       : "no point has a step";
                continue;
            }
            if (!best || row.tokens_per_s_per_chip > best->tokens_per_s_per_chip) best = &row;
        }
        if (best) best->best = true;
    }
    return plan;
}

}  // namespace roofline::report
