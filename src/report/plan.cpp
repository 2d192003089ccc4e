// The Plan table: the capacity plan of a multi-chip scenario. Computed from
// the step totals, like the Step section; read by the terminal and the
// workbook's Summary sheet.
#include "roofline/report/report.hpp"

#include "roofline/model/expr.hpp"
#include "roofline/output/terminal_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace roofline::report {

namespace {

// A pick at the first or last value of a sweep of numbers with more than one
// value: the best may lie beyond the sweep. Not at a first value of 1 (a size
// cannot go lower), nor for a dtype sweep (its values have no order).
void note_edge(model::Scenario const& scenario, engine::CaseGrid const& grid, PlanRow& row, std::size_t v) {
    auto const& sweep = scenario.sweeps[v];
    if (sweep.of_dtypes || sweep.values.size() < 2) return;
    double const value = grid.sweep_value(row.point, v);
    bool const last = value == sweep.values.back();
    bool const first = value == sweep.values.front() && value != 1;
    if (last || first) row.edges.push_back({v, last});
}

// Why a row has no step: "h100_sxm has no peak for fp4".
std::string unsupported_why(ReportContext const& context, std::size_t target, int dtype) {
    if (dtype < 0) return "no case is supported on this chip";
    return std::string(context.target(target).id)
        .append(" has no peak for ")
        .append(context.dtype_name(dtype))
        .append(": its steps are unsupported");
}

}  // namespace

std::string_view slo_measure_name(model::Scenario const& scenario) {
    return scenario.slo_measure == model::Scenario::SloMeasure::t_upper ? "t_upper" : "step";
}

bool meets_slo(model::Scenario const& scenario, StepTotals const& step) {
    if (!scenario.slo_step_s) return true;
    double const time = scenario.slo_measure == model::Scenario::SloMeasure::t_upper ? step.t_upper : step.t_lower;
    return time <= *scenario.slo_step_s;
}

Plan make_plan(ReportContext const& context, Summary const& summary) {
    Plan plan;
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    if (scenario.mesh.empty() || !grid.has_tokens) return plan;
    std::uint64_t mesh_bits = 0;
    for (auto const& axis : scenario.mesh)
        mesh_bits |= scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on;
    // A dtype sweep gets a Plan of its own per dtype (its rows keyed like a
    // mesh size's), so that bf16's best is not hidden under fp8's.
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        (v < 64 && (mesh_bits >> v & 1) ? plan.mesh_sweeps
         : scenario.sweeps[v].of_dtypes  ? plan.dtype_sweeps
                                         : plan.other_sweeps)
            .push_back(v);

    for (std::size_t t = 0; t < grid.target_count; ++t) {
        // (dtype, mesh sweep values) -> row: the rows of one dtype together.
        std::map<std::vector<double>, std::size_t> row_of;
        std::size_t const first_row = plan.rows.size();
        std::vector<bool> any_built, any_fits, any_step;
        std::vector<int> unsupported_dtype;  // of a row whose every step is unsupported
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            std::vector<double> key;
            for (std::size_t v : plan.dtype_sweeps) key.push_back(grid.sweep_value(p, v));
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
                unsupported_dtype.push_back(-1);
            }
            std::size_t const r = it->second;
            auto& row = plan.rows[r];
            if (!grid.mesh_unsupported.empty() && grid.mesh_unsupported[p * grid.target_count + t])
                continue;
            any_built[r - first_row] = true;
            StepTotals step = step_totals(context, summary, p, t);
            // An unsupported step is skipped, never taken for a smaller one.
            if (step.unsupported) unsupported_dtype[r - first_row] = step.unsupported_dtype;
            if (step.unsupported || !(step.t_lower > 0) || std::isnan(step.tokens_per_s)) continue;
            any_step[r - first_row] = true;
            bool const fits = std::isnan(step.capacity) || step.resident_bytes <= step.capacity;
            if (!fits) continue;
            any_fits[r - first_row] = true;
            if (!meets_slo(scenario, step)) continue;
            double per_chip = step.tokens_per_s / step.chips;
            if (row.chosen && !(per_chip > row.tokens_per_s_per_chip)) continue;
            row.chosen = true;
            row.point = p;
            row.step = step;
            row.tokens_per_s_per_chip = per_chip;
            row.compute_share =
                std::max(0.0, 1 - step.memory_share - step.network_share - step.onchip_share);
        }
        // The rows of one dtype together, each dtype's in mesh order (the
        // reasons and flags move with their rows).
        if (!plan.dtype_sweeps.empty()) {
            std::vector<std::size_t> order(plan.rows.size() - first_row);
            for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
            auto dtypes_of = [&](std::size_t k) {
                std::vector<double> key;
                for (std::size_t v : plan.dtype_sweeps) key.push_back(grid.sweep_value(plan.rows[first_row + k].mesh_point, v));
                return key;
            };
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return dtypes_of(a) < dtypes_of(b); });
            auto permute = [&](auto& items, std::size_t offset) {
                auto copy = items;
                for (std::size_t k = 0; k < order.size(); ++k) items[offset + k] = copy[offset + order[k]];
            };
            permute(plan.rows, first_row);
            permute(any_built, 0);
            permute(any_fits, 0);
            permute(any_step, 0);
            permute(unsupported_dtype, 0);
        }
        // The best of each dtype (of each combination of the dtype sweeps).
        std::map<std::vector<double>, PlanRow*> best_of;
        for (std::size_t r = first_row; r < plan.rows.size(); ++r) {
            auto& row = plan.rows[r];
            std::size_t const k = r - first_row;
            if (!row.chosen) {
                row.why = !any_built[k] ? std::string("the chip cannot build this mesh")
                          : !any_step[k] ? unsupported_why(context, t, unsupported_dtype[k])
                          : !any_fits[k] ? std::string("does not fit in HBM at any point")
                          : scenario.slo_step_s
                              ? std::string("no point meets slo ")
                                    .append(slo_measure_name(scenario))
                                    .append(" <= ")
                                    .append(output::format_long_seconds(*scenario.slo_step_s))
                              : std::string("no point has a step");
                continue;
            }
            std::vector<double> dtypes;
            for (std::size_t v : plan.dtype_sweeps) dtypes.push_back(grid.sweep_value(row.point, v));
            auto& best = best_of[dtypes];
            if (!best || row.tokens_per_s_per_chip > best->tokens_per_s_per_chip) best = &row;
        }
        for (auto& [dtypes, best] : best_of) best->best = true;
        for (std::size_t r = first_row; r < plan.rows.size(); ++r) {
            auto& row = plan.rows[r];
            if (!row.chosen) continue;
            for (std::size_t v : plan.other_sweeps) note_edge(scenario, grid, row, v);
            if (row.best)
                for (std::size_t v : plan.mesh_sweeps) note_edge(scenario, grid, row, v);
        }
    }
    return plan;
}

std::string plan_edge_text(ReportContext const& context, Plan const& plan, PlanRow const& row,
                           PlanRow::Edge const& edge) {
    auto const& scenario = context.scenario;
    auto value_of = [&](std::size_t v, std::size_t point) {
        double const value = context.grid.sweep_value(point, v);
        auto const* dtype = scenario.sweep_dtype_name(v, value);
        return std::string(scenario.sweeps[v].name)
            .append(" = ")
            .append(dtype ? *dtype : model::format_number(value));
    };
    std::string text;
    bool const mesh_edge =
        std::find(plan.mesh_sweeps.begin(), plan.mesh_sweeps.end(), edge.sweep) != plan.mesh_sweeps.end();
    for (std::size_t v : plan.row_sweeps()) {
        bool const dtype = std::find(plan.dtype_sweeps.begin(), plan.dtype_sweeps.end(), v) != plan.dtype_sweeps.end();
        if (dtype || !mesh_edge) text.append(text.empty() ? "" : ", ").append(value_of(v, row.mesh_point));
    }
    if (!text.empty()) text.append(": ");
    return text.append(value_of(edge.sweep, row.point))
        .append(edge.last ? " is the last value of sweep " : " is the first value of sweep ")
        .append(scenario.sweeps[edge.sweep].name)
        .append(": the best may lie beyond it");
}

}  // namespace roofline::report
