// Requests (docs/fusion.md): time to first token, then every decode step
// from context prompt + 1 to prompt + output, each evaluated as the cases are
// (count_case, case_metrics) and summed exactly, one step at a time.
#include "roofline/engine/evaluate.hpp"

#include "case_counts.hpp"
#include "point_facts.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/engine/network.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>

namespace roofline::engine {

namespace {

// The step of one phase on every target: the sum of count x t_step over
// its cases, the serial step (NaN when a case is unsupported there); and the
// expected step, the sum of count x t_expected with the target's calibration
// and the phase step's overheads (layers: the phase's, sequences: the batch;
// the prefill's prefill_overhead). A decode step replays a CUDA graph, as
// the engines run it: its ops' launch cost is not paid (docs/calibration.md).
std::optional<model::EvalError> phase_steps(model::Scenario const& scenario,
                                            std::vector<model::Op> const& ops,
                                            PointEvaluator const& evaluator,
                                            std::span<double const> mesh_sizes,
                                            std::span<std::uint8_t const> unsupported,
                                            double layers, double batch, bool prefill, CaseScratch& scratch,
                                            std::vector<long double>& steps,
                                            std::vector<long double>& expected) {
    steps.assign(scenario.targets.size(), 0);
    expected.assign(scenario.targets.size(), 0);
    CaseCounts counts;
    double launches = 0;
    for (auto const& op : ops) {
        launches += op.count;
        if (auto error = count_case(scenario, op, evaluator, mesh_sizes, scratch, counts)) return error;
        int compute = op.compute_dtype_at(evaluator.slots(), scenario.dtypes);
        for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
            Metrics m = case_metrics(scenario, op, hw, compute, counts, mesh_sizes, scratch,
                                     !unsupported.empty() && unsupported[t],
                                     scenario.calibration_of_target(t));
            steps[t] += static_cast<long double>(op.count) * m.t_step;
            expected[t] += static_cast<long double>(op.count) * m.t_expected;
        }
    }
    for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
        auto const* calibration = scenario.calibration_of_target(t);
        expected[t] += step_overhead_seconds(calibration, layers, batch, prefill);
        if (calibration && !prefill) expected[t] -= calibration->launch_s * launches;
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

namespace {

// Where an error of a request is: the request and the point (and the decode
// step i, past the prefill), after the message.
void request_error(Diagnostics& diagnostics, model::Scenario const& scenario,
                   model::Request const& request, std::span<double const> values, double step,
                   model::EvalError const& error) {
    std::string where = describe_point(scenario, values);
    if (step > 0)
        where.append(where.empty() ? "" : ", ").append("i = ").append(model::format_number(step));
    diagnostics.error(error.span, error.message + " (request '" + request.name + "'" +
                                      (where.empty() ? "" : ", at " + where) + ")");
}

// A request's prompt, output and batch at the point the evaluator is set to.
std::optional<model::EvalError> request_arguments(model::Scenario const& scenario,
                                                  model::Request const& request,
                                                  std::span<double const> slots,
                                                  RequestResult& base) {
    if (auto error = argument(scenario, request.prompt_slot, slots, "the prompt", base.prompt))
        return error;
    if (auto error = argument(scenario, request.output_slot, slots, "the output", base.output))
        return error;
    if (auto error = argument(scenario, request.batch_slot, slots, "the batch", base.batch))
        return error;
    if (base.output > model::max_request_steps)
        return model::EvalError{
            scenario.slots[static_cast<std::size_t>(request.output_slot)].expr.span,
            "a request has at most " + model::format_number(model::max_request_steps) +
                " output tokens, but the output is " + model::format_number(base.output)};
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
    auto point = [&](std::size_t p) {
        return std::span<double const>(grid.point_values.data() + p * grid.sweep_count,
                                       grid.sweep_count);
    };

    // First every request's arguments at every point, and the work they ask
    // for (each decode step evaluates every decode case) bounded like the
    // cases, before any step is evaluated or stored.
    std::vector<RequestResult> bases;
    bases.reserve(scenario.requests.size() * grid.point_count);
    double evaluated = 0;
    for (std::size_t r = 0; r < scenario.requests.size(); ++r) {
        auto const& request = scenario.requests[r];
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            RequestResult base{};
            base.request = static_cast<std::uint32_t>(r);
            base.point = static_cast<std::uint32_t>(p);
            if (request.step_slot >= 0) evaluator.set_slot(request.step_slot, 1);
            auto error = evaluator.set_point(point(p));
            if (!error) error = request_arguments(scenario, request, evaluator.slots(), base);
            if (error) {
                request_error(diagnostics, scenario, request, point(p), 0, *error);
                return std::nullopt;
            }
            evaluated += static_cast<double>(request.prefill.size()) +
                         base.output * static_cast<double>(request.decode.size());
            if (evaluated * static_cast<double>(std::max<std::size_t>(1, targets)) >
                static_cast<double>(model::max_cases)) {
                request_error(diagnostics, scenario, request, point(p), 0,
                              {request.span, "the requests evaluate more than " +
                                                 std::to_string(model::max_cases) +
                                                 " cases (sweep points x output tokens x decode "
                                                 "ops x targets); lower the output or the sweeps"});
                return std::nullopt;
            }
            bases.push_back(base);
        }
    }

    std::vector<double> mesh_sizes;
    CaseScratch scratch;
    std::vector<long double> prefill, decode, prefill_expected, decode_expected;
    // The layers each phase runs, for its steps' layer_overhead; the kernels
    // of the prefill, for a calibration's request_launch.
    std::vector<double> prefill_layers, decode_layers, prefill_kernels;
    for (auto const& request : scenario.requests) {
        prefill_layers.push_back(layer_count(request.prefill));
        decode_layers.push_back(layer_count(request.decode));
        double kernels = 0;
        for (auto const& op : request.prefill) kernels += op.count;
        prefill_kernels.push_back(kernels);
    }
    std::vector<std::uint8_t> unsupported(targets, 0);
    ResidentBytes resident;
    for (auto const& base : bases) {
        auto const& request = scenario.requests[base.request];
        std::size_t const p = base.point;
        auto const values = point(p);
        double step = 0;  // the decode step of an error; 0: the prefill
        auto fail = [&](model::EvalError const& error) {
            request_error(diagnostics, scenario, request, values, step, error);
            return std::nullopt;
        };
        if (request.step_slot >= 0) evaluator.set_slot(request.step_slot, 1);
        if (auto error = evaluator.set_point(values)) return fail(*error);
        if (!scenario.mesh.empty()) {
            if (auto error = evaluator.mesh_sizes(mesh_sizes)) return fail(*error);
            for (std::size_t t = 0; t < targets; ++t)
                unsupported[t] = grid.mesh_unsupported[p * targets + t];
        }
        if (auto error = phase_steps(scenario, request.prefill, evaluator, mesh_sizes, unsupported,
                                     prefill_layers[base.request], base.batch, true, scratch, prefill,
                                     prefill_expected))
            return fail(*error);
        auto const g = static_cast<std::size_t>(base.output);
        std::vector<std::vector<double>> per_token(targets, std::vector<double>(g));
        std::vector<long double> total(targets, 0), total_expected(targets, 0);
        std::vector<double> first_expected(targets, 0), last_expected(targets, 0);
        for (std::size_t i = 1; i <= g; ++i) {
            step = static_cast<double>(i);
            evaluator.set_slot(request.step_slot, step);
            if (auto error = evaluator.set_point(values)) return fail(*error);
            if (auto error = phase_steps(scenario, request.decode, evaluator, mesh_sizes, unsupported,
                                         decode_layers[base.request], base.batch, false, scratch, decode,
                                         decode_expected))
                return fail(*error);
            for (std::size_t t = 0; t < targets; ++t) {
                per_token[t][i - 1] = static_cast<double>(decode[t]);
                total[t] += decode[t];
                total_expected[t] += decode_expected[t];
                if (i == 1) first_expected[t] = static_cast<double>(decode_expected[t]);
                if (i == g) last_expected[t] = static_cast<double>(decode_expected[t]);
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
            auto const* calibration = scenario.calibration_of_target(t);
            result.decode_total_expected = static_cast<double>(total_expected[t]);
            result.tpot_first_expected = first_expected[t];
            result.tpot_last_expected = last_expected[t];
            result.tpot_mean_expected = static_cast<double>(total_expected[t] / static_cast<long double>(g));
            // The calibration's per-request terms (docs/calibration.md,
            // section 1): nothing is in flight before the batch, so no
            // admission wait or stream term; the first token still waits
            // first_token_steps decode steps.
            long double ttft_expected =
                prefill_expected[t] + request_front_seconds(calibration, base.prompt, prefill_kernels[base.request]);
            if (calibration) ttft_expected += calibration->first_token_steps * result.tpot_mean_expected;
            result.ttft_expected = static_cast<double>(ttft_expected);
            result.e2e_expected = static_cast<double>(ttft_expected + total_expected[t]);
            result.tokens_per_s_expected = base.batch * base.output / result.e2e_expected;
            results.push_back(std::move(result));
        }
    }
    return results;
}

}  // namespace roofline::engine
