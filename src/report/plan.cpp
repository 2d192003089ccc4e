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
    bool const upper = scenario.slo_measure == model::Scenario::SloMeasure::t_upper;
    // On a pipeline the slo bounds what a user waits (meets_slo).
    if (scenario.pipeline_axis >= 0 && scenario.microbatches_slot < 0)
        return upper ? "t_upper x stages" : "token latency";
    if (scenario.pipeline_axis >= 0) return upper ? "t_upper x (microbatches + stages - 1)" : "batch latency";
    return upper ? "t_upper" : "step";
}

bool meets_slo(model::Scenario const& scenario, StepTotals const& step) {
    if (!scenario.slo_step_s) return true;
    // The step: the expected one (t_lower, the serial roofline, when uncalibrated).
    double const time = scenario.slo_measure == model::Scenario::SloMeasure::t_upper ? step.t_upper : step.t_expected;
    // On a pipeline the slo bounds what a user waits: the stage's step
    // times P per token (a stream), (M + P - 1) for a batch.
    return step.latency_factor * time <= *scenario.slo_step_s;
}

namespace {

// One row of the Plan while the points are searched: what its points had.
struct RowSearch {
    PlanRow row;
    std::vector<double> dtypes;  // the dtype sweeps' values: which Plan it is in
    bool built = false, step = false, fits = false;
    int unsupported_dtype = -1;  // of a point whose step is unsupported
};

// Why a row has no pick, from what its points had.
std::string why_none(ReportContext const& context, RowSearch const& search) {
    auto const& scenario = context.scenario;
    if (!search.built) return "the chip cannot build this mesh";
    if (!search.step) return unsupported_why(context, search.row.target, search.unsupported_dtype);
    if (!search.fits) return "does not fit in HBM at any point";
    if (!scenario.slo_step_s) return "no point has a step";
    return std::string("no point meets slo ")
        .append(slo_measure_name(scenario))
        .append(" <= ")
        .append(output::format_long_seconds(*scenario.slo_step_s));
}

}  // namespace

Plan make_plan(ReportContext const& context, Summary const& summary) {
    Plan plan;
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    if (scenario.mesh.empty() || !grid.has_tokens) return plan;
    // A dtype sweep gets a Plan of its own per dtype (its rows keyed like a
    // mesh size's), so that bf16's best is not hidden under fp8's.
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        (scenario.mesh_depends_on(v)    ? plan.mesh_sweeps
         : scenario.sweeps[v].of_dtypes ? plan.dtype_sweeps
                                        : plan.other_sweeps)
            .push_back(v);
    auto values_at = [&](std::vector<std::size_t> const& sweeps, std::size_t p) {
        std::vector<double> values;
        for (std::size_t v : sweeps) values.push_back(grid.sweep_value(p, v));
        return values;
    };

    for (std::size_t t = 0; t < grid.target_count; ++t) {
        std::map<std::vector<double>, std::size_t> row_of;  // row_sweeps' values -> row
        std::vector<RowSearch> rows;
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            auto [it, inserted] = row_of.emplace(values_at(plan.row_sweeps(), p), rows.size());
            if (inserted) {
                rows.emplace_back();
                rows.back().row.target = t;
                rows.back().row.mesh_point = p;
                rows.back().dtypes = values_at(plan.dtype_sweeps, p);
            }
            auto& search = rows[it->second];
            auto& row = search.row;
            if (!grid.mesh_unsupported.empty() && grid.mesh_unsupported[p * grid.target_count + t])
                continue;
            search.built = true;
            StepTotals step = step_totals(context, summary, p, t);
            // An unsupported step is skipped, never taken for a smaller one.
            if (step.unsupported) search.unsupported_dtype = step.unsupported_dtype;
            if (step.unsupported || !(step.t_expected > 0) || std::isnan(step.tokens_per_s)) continue;
            search.step = true;
            if (!step.fits()) continue;
            search.fits = true;
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
        // The rows of one dtype together, each dtype's in mesh order.
        std::stable_sort(rows.begin(), rows.end(),
                         [](RowSearch const& a, RowSearch const& b) { return a.dtypes < b.dtypes; });
        // The best of each dtype (of each combination of the dtype sweeps).
        std::map<std::vector<double>, PlanRow*> best_of;
        for (auto& search : rows) {
            auto& row = search.row;
            if (!row.chosen) {
                row.why = why_none(context, search);
                continue;
            }
            auto& best = best_of[search.dtypes];
            if (!best || row.tokens_per_s_per_chip > best->tokens_per_s_per_chip) best = &row;
        }
        for (auto& [dtypes, best] : best_of) best->best = true;
        for (auto& search : rows) {
            auto& row = search.row;
            if (row.chosen) {
                for (std::size_t v : plan.other_sweeps) note_edge(scenario, grid, row, v);
                if (row.best)
                    for (std::size_t v : plan.mesh_sweeps) note_edge(scenario, grid, row, v);
            }
            plan.rows.push_back(std::move(row));
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
