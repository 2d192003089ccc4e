// Requests (docs/fusion.md): time to first token, then every decode step
// from context prompt + 1 to prompt + output, each evaluated as the cases are
// (count_case, case_metrics) and summed exactly, one step at a time.
#include "roofline/engine/evaluate.hpp"

#include "point_evaluator.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>

namespace roofline::engine {

namespace {

// The step of one phase on every target: the sum of count x t_lower over
// its cases (NaN when a case is unsupported there).
std::optional<model::EvalError> phase_steps(model::Scenario const& scenario,
                                            std::vector<model::Op> const& ops,
                                            PointEvaluator const& evaluator,
                                            std::span<double const> mesh_sizes,
                                            std::span<std::uint8_t const> unsupported,
                                            CaseScratch& scratch, std::vector<long double>& steps) {
    steps.assign(scenario.targets.size(), 0);
    CaseCounts counts;
    for (auto const& op : ops) {
        if (auto error = count_case(scenario, op, evaluator, mesh_sizes, scratch, counts)) return error;
        int compute = op.compute_dtype_at(evaluator.slots(), scenario.dtypes);
        for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
            Metrics m = case_metrics(scenario, op, hw, compute, counts, mesh_sizes, scratch,
                                     !unsupported.empty() && unsupported[t]);
            steps[t] += static_cast<long double>(op.count) * m.t_lower;
        }
    }
    return std::nullopt;
}

// A request's argument at the point: a positive integer.
std::optional<model::EvalError> argument(model::Scenario const& scenario, int slot,
                                         std::span<double const> slots, char const* what,
                                         double& value) {
    value = 1;  // the batch, when not given
    if (slot < 0) return std::nullopt;
    value = slots[static_cast<std::size_t>(slot)];
    auto const& s = scenario.slots[static_cast<std::size_t>(slot)];
    if (auto problem = model::whole_number_problem(value))
        return model::EvalError{s.expr.span.file ? s.expr.span : s.span,
                                std::string(what) + " must be " + *problem + ", but it is " +
                                    model::format_number(value)};
    return std::nullopt;
}

}  // namespace

std::optional<std::vector<RequestResult>> evaluate_requests(model::Scenario const& scenario,
                                                            CaseGrid const& grid,
                                                            Diagnostics& diagnostics) {
    std::vector<RequestResult> results;
    if (scenario.requests.empty()) return results;
    std::size_t targets = scenario.targets.size();
    PointEvaluator evaluator(scenario);
    std::vector<double> mesh_sizes;
    CaseScratch scratch;
    std::vector<long double> prefill, decode;
    std::vector<std::uint8_t> unsupported(targets, 0);
    ResidentBytes resident;
    // Each decode step evaluates every decode case: bounded like the cases.
    double evaluated = 0;
    for (std::size_t r = 0; r < scenario.requests.size(); ++r) {
        auto const& request = scenario.requests[r];
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                           grid.sweep_count);
            double step = 0;  // the decode step of an error; 0: the prefill
            auto fail = [&](model::EvalError const& error) {
                std::string where = describe_point(scenario, values);
                if (step > 0) where.append(where.empty() ? "" : ", ").append("i = ").append(model::format_number(step));
                diagnostics.error(error.span, error.message + " (request '" + request.name + "'" +
                                                  (where.empty() ? "" : ", at " + where) + ")");
                return std::nullopt;
            };
            if (request.step_slot >= 0) evaluator.set_slot(request.step_slot, 1);
            if (auto error = evaluator.set_point(values)) return fail(*error);
            if (!scenario.mesh.empty()) {
                if (auto error = evaluator.mesh_sizes(mesh_sizes)) return fail(*error);
                for (std::size_t t = 0; t < targets; ++t)
                    unsupported[t] = grid.mesh_unsupported[p * targets + t];
            }
            RequestResult base{};
            base.request = static_cast<std::uint32_t>(r);
            base.point = static_cast<std::uint32_t>(p);
            auto slots = evaluator.slots();
            if (auto error = argument(scenario, request.prompt_slot, slots, "the prompt", base.prompt))
                return fail(*error);
            if (auto error = argument(scenario, request.output_slot, slots, "the output", base.output))
                return fail(*error);
            if (auto error = argument(scenario, request.batch_slot, slots, "the batch", base.batch))
                return fail(*error);
            if (base.output > model::max_request_steps)
                return fail({scenario.slots[static_cast<std::size_t>(request.output_slot)].expr.span,
                             "a request has at most " + model::format_number(model::max_request_steps) +
                                 " output tokens, but the output is " + model::format_number(base.output)});
            evaluated += static_cast<double>(request.prefill.size()) +
                         base.output * static_cast<double>(request.decode.size());
            if (evaluated * static_cast<double>(std::max<std::size_t>(1, targets)) >
                static_cast<double>(model::max_cases))
                return fail({request.span, "the requests evaluate more than " +
                                               std::to_string(model::max_cases) +
                                               " cases (sweep points x output tokens x decode ops x "
                                               "targets); lower the output or the sweeps"});
            if (auto error = phase_steps(scenario, request.prefill, evaluator, mesh_sizes,
                                         unsupported, scratch, prefill))
                return fail(*error);
            auto const g = static_cast<std::size_t>(base.output);
            std::vector<std::vector<double>> per_token(targets, std::vector<double>(g));
            std::vector<long double> total(targets, 0);
            for (std::size_t i = 1; i <= g; ++i) {
                step = static_cast<double>(i);
                evaluator.set_slot(request.step_slot, step);
                if (auto error = evaluator.set_point(values)) return fail(*error);
                if (auto error = phase_steps(scenario, request.decode, evaluator, mesh_sizes,
                                             unsupported, scratch, decode))
                    return fail(*error);
                for (std::size_t t = 0; t < targets; ++t) {
                    per_token[t][i - 1] = static_cast<double>(decode[t]);
                    total[t] += decode[t];
                }
            }
            // The memory held at the last step: the KV cache at its longest.
            if (auto error = resident_bytes(scenario, request.decode, request.decode_residents,
                                            evaluator, mesh_sizes, resident))
                return fail(*error);
            for (std::size_t t = 0; t < targets; ++t) {
                RequestResult result = base;
                result.target = static_cast<std::uint32_t>(t);
                result.ttft = static_cast<double>(prefill[t]);
                result.decode_total = static_cast<double>(total[t]);
                result.tpot_first = per_token[t].front();
                result.tpot_last = per_token[t].back();
                result.tpot_mean = static_cast<double>(total[t] / static_cast<long double>(g));
                result.e2e = static_cast<double>(prefill[t] + total[t]);
                result.tokens_per_s = base.batch * base.output / result.e2e;
                result.weight_bytes = static_cast<double>(resident.weight);
                result.cache_bytes = static_cast<double>(resident.cache);
                result.per_token = std::move(per_token[t]);
                results.push_back(std::move(result));
            }
        }
    }
    return results;
}

}  // namespace roofline::engine
