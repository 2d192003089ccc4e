#include "roofline/engine/evaluate.hpp"

#include "case_counts.hpp"
#include "critical.hpp"
#include "mesh_points.hpp"
#include "point_facts.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>

namespace roofline::engine {

std::size_t CaseGrid::reduced_point(std::size_t point, std::size_t sweep) const {
    std::size_t stride = 1;
    for (std::size_t j = sweep + 1; j < sweep_sizes.size(); ++j) stride *= sweep_sizes[j];
    return point / (stride * sweep_sizes[sweep]) * stride + point % stride;
}

double CaseGrid::critical_value(std::size_t point, std::size_t matmul, std::size_t target,
                                std::size_t sweep) const {
    return critical[sweep][(reduced_point(point, sweep) * op_count + matmul) * target_count +
                           target];
}

namespace {

// The counts a case publishes, each exact.
std::optional<model::EvalError> check_counts(model::Op const& op, Counts const& counts) {
    std::string name = "'" + op.name + "' ";
    if (auto error = check_count(op.span, name + "computes ", counts.flops, " FLOPs")) return error;
    if (auto error = check_count(op.span, name + "reads ", counts.bytes_read, " bytes")) return error;
    if (auto error = check_count(op.span, name + "moves ", counts.bytes_onchip, " bytes on chip"))
        return error;
    return check_count(op.span, name + "writes ", counts.bytes_written, " bytes");
}

}  // namespace

namespace {

// The sweep values of point p (the last sweep varies fastest).
void point_digits(model::Scenario const& scenario, std::size_t p, std::span<double> out) {
    for (std::size_t i = scenario.sweeps.size(); i-- > 0;) {
        auto const& values = scenario.sweeps[i].values;
        out[i] = values[p % values.size()];
        p /= values.size();
    }
}

}  // namespace

std::optional<CaseGrid> prepare(model::Scenario const& scenario, Diagnostics& diagnostics,
                                EvaluateOptions const& options) {
    CaseGrid grid;
    std::size_t sweeps = scenario.sweeps.size();
    grid.sweep_count = sweeps;
    grid.point_count = scenario.point_count();
    grid.op_count = scenario.ops.size();
    grid.target_count = scenario.targets.size();
    for (auto const& s : scenario.sweeps) grid.sweep_sizes.push_back(s.values.size());
    // In doubles, so that no product wraps; points count even with no matmul
    // or no target, since they are evaluated (and stored) all the same.
    double points = 1;
    for (auto const& s : scenario.sweeps) points *= static_cast<double>(s.values.size());
    double total = points * static_cast<double>(std::max<std::size_t>(1, grid.op_count)) *
                   static_cast<double>(std::max<std::size_t>(1, grid.target_count));
    if (total > static_cast<double>(options.max_cases)) {
        diagnostics.error(Span{}, "the scenario has " + model::format_number(total) +
                                      " cases; the limit is " + std::to_string(options.max_cases));
        return std::nullopt;
    }
    grid.point_values.resize(grid.point_count * sweeps);
    for (std::size_t p = 0; p < grid.point_count; ++p)
        point_digits(scenario, p, std::span<double>(grid.point_values.data() + p * sweeps, sweeps));

    for (auto const& op : scenario.ops) grid.collective_texts.push_back(collective_text(scenario, op));

    PointEvaluator evaluator(scenario);
    if (!compute_mesh_points(scenario, grid, evaluator, diagnostics)) return std::nullopt;

    // Critical values: once per (other sweep values, matmul, target).
    grid.critical.resize(sweeps);
    grid.v_counts.resize(sweeps);
    std::vector<double> values(sweeps);
    for (std::size_t v = 0; v < sweeps; ++v) {
        std::size_t stride = 1;
        for (std::size_t j = v + 1; j < sweeps; ++j) stride *= grid.sweep_sizes[j];
        std::size_t reduced = grid.point_count / grid.sweep_sizes[v];
        auto& table = grid.critical[v];
        table.resize(reduced * grid.op_count * grid.target_count);
        auto& v_counts = grid.v_counts[v];
        v_counts.resize(reduced * grid.op_count);
        for (std::size_t r = 0; r < reduced; ++r) {
            std::size_t p = r / stride * stride * grid.sweep_sizes[v] + r % stride;
            point_digits(scenario, p, values);
            for (std::size_t m = 0; m < grid.op_count; ++m) {
                v_counts[r * grid.op_count + m] = counts_in_v(scenario, evaluator, m, v, values);
                for (std::size_t t = 0; t < grid.target_count; ++t)
                    table[(r * grid.op_count + m) * grid.target_count + t] =
                        solve_critical(scenario, evaluator, m, t, v, values);
            }
        }
    }
    if (!compute_point_facts(scenario, grid, evaluator, diagnostics)) return std::nullopt;
    warn_onchip(scenario, grid, diagnostics);
    return grid;
}

bool stream_cases(model::Scenario const& scenario, CaseGrid const& grid, Diagnostics& diagnostics,
                  std::function<void(Case const&)> const& sink) {
    std::size_t ops = grid.op_count, targets = grid.target_count;
    PointEvaluator evaluator(scenario);
    CaseScratch scratch;
    CaseCounts counts;
    bool on_mesh = !scenario.mesh.empty();
    return for_each_point(scenario, grid, evaluator, diagnostics,
                          [&](GridPoint const& point) -> std::optional<model::EvalError> {
        for (std::size_t m = 0; m < ops; ++m) {
            auto const& op = scenario.ops[m];
            if (auto error = count_case(scenario, op, evaluator, point.mesh_sizes, scratch, counts))
                return error;
            int compute = op.compute_dtype_at(evaluator.slots(), scenario.dtypes);
            if (auto error = check_counts(op, counts.counts)) {
                // An op that no sweep changes is wrong at every point: none is named.
                bool varies = std::any_of(op.axes.begin(), op.axes.end(), [&](auto const& a) {
                    return scenario.slots[static_cast<std::size_t>(a.slot)].depends_on != 0;
                });
                if (!varies) error->at_every_point = true;
                return error;
            }
            for (std::size_t t = 0; t < targets; ++t) {
                auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
                bool unsupported = on_mesh && grid.mesh_unsupported[point.index * targets + t];
                sink(Case{static_cast<std::uint32_t>(point.index), static_cast<std::uint32_t>(m),
                          static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(compute),
                          case_metrics(scenario, op, hw, compute, counts, point.mesh_sizes, scratch,
                                       unsupported, scenario.calibration_of_target(t))});
            }
        }
        return std::nullopt;
    });
}

std::optional<Evaluation> evaluate(model::Scenario const& scenario, Diagnostics& diagnostics,
                                   EvaluateOptions const& options) {
    auto grid = prepare(scenario, diagnostics, options);
    if (!grid) return std::nullopt;
    Evaluation result;
    static_cast<CaseGrid&>(result) = std::move(*grid);
    result.cases.reserve(result.case_count());
    if (!stream_cases(scenario, result, diagnostics,
                      [&](Case const& c) { result.cases.push_back(c); }))
        return std::nullopt;
    return result;
}

double solve_critical(model::Scenario const& scenario, std::size_t matmul, std::size_t target,
                      std::size_t sweep, std::vector<double> const& values) {
    PointEvaluator evaluator(scenario);
    return solve_critical(scenario, evaluator, matmul, target, sweep, values);
}

}  // namespace roofline::engine
