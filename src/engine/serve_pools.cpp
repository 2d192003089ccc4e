// One disaggregated serve point (serve_pools.hpp): the pools' points, the
// link between them and a group's simulation and figures.
#include "serve_pools.hpp"

#include "point_evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::engine::serving {

std::optional<model::EvalError> make_pool(model::Scenario const& scenario, CaseGrid const& grid,
                                          std::span<double const> point, model::ServePool const& pool,
                                          PoolSide& out) {
    out.point.assign(point.begin(), point.end());
    for (auto const& [sweep, value] : pool.values) out.point[static_cast<std::size_t>(sweep)] = value;
    // The pool's point in the grid: its chips and the targets that build its mesh.
    bool found = false;
    for (std::size_t p = 0; p < grid.point_count && !found; ++p)
        if (std::equal(out.point.begin(), out.point.end(), grid.point_values.begin() + static_cast<std::ptrdiff_t>(p * grid.sweep_count))) {
            out.grid_point = p;
            found = true;
        }
    if (!found) return model::EvalError{pool.span, "the pool's sweep values are no point of the scenario"};
    out.chips = grid.chips_at(out.grid_point);
    std::size_t const targets = scenario.targets.size();
    out.unsupported.assign(targets, 0);
    for (std::size_t t = 0; t < targets; ++t)
        if (!grid.mesh_unsupported.empty()) out.unsupported[t] = grid.mesh_unsupported[out.grid_point * targets + t];
    PointEvaluator evaluator(scenario);
    std::vector<double> mesh_sizes;
    auto error = set_step(evaluator, out.point, StepSlots{});
    if (!error) error = evaluator.mesh_sizes(mesh_sizes);
    if (!error) error = read_settings(scenario, evaluator.slots(), out.settings);
    if (!error) error = replica_bytes(scenario, out.point, mesh_sizes, out.settings, out.bytes);
    if (error) return error;
    out.model = std::make_unique<StepModel>(scenario, out.point, mesh_sizes, out.unsupported);
    return std::nullopt;
}

std::string pools_text(model::Scenario const& scenario, double prefill_replicas, double decode_replicas) {
    auto const& serve = *scenario.serve;
    auto one = [&](model::ServePool const& pool, double replicas, char const* what) {
        std::string text = model::format_number(replicas) + " x ";
        for (auto const& [sweep, value] : pool.values) {
            auto const* dtype = scenario.sweep_dtype_name(static_cast<std::size_t>(sweep), value);
            text.append(scenario.sweeps[static_cast<std::size_t>(sweep)].name)
                .append(" ")
                .append(dtype ? *dtype : model::format_number(value))
                .append(" ");
        }
        return text.append(what);
    };
    return one(*serve.prefill_pool, prefill_replicas, "prefill")
        .append(" + ")
        .append(one(*serve.decode_pool, decode_replicas, "decode"));
}

PoolLink pool_link(model::Hardware const& hw, double group_chips) {
    PoolLink link;
    if (hw.nvlink_bytes_per_s && hw.nvlink_domain && *hw.nvlink_domain >= group_chips) {
        link.bytes_per_s = *hw.nvlink_bytes_per_s;
        link.latency_s = hw.nvlink_latency_s;
        link.name = "nvlink";
    } else if (hw.dcn_bytes_per_s) {
        link.bytes_per_s = *hw.dcn_bytes_per_s;
        link.latency_s = hw.dcn_latency_s;
        link.name = "dcn";
    } else {
        link.problem = "hardware '" + hw.id + "' has no link between the pools: no dcn_bandwidth" +
                       (hw.nvlink_bytes_per_s ? ", and its nvlink_domain does not hold the group's " +
                                                    model::format_number(group_chips) + " chips"
                                              : std::string{});
    }
    return link;
}

namespace {

Latency latency_or_nan(std::vector<double> values) {
    if (values.empty()) {
        double const nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan, nan, nan};
    }
    return latency_of(std::move(values));
}

SchedulerSettings scheduler_of(PoolSide const& side, double capacity) {
    SchedulerSettings s;
    s.max_seqs = side.settings.max_seqs;
    s.max_step_tokens = side.settings.max_step_tokens;
    s.kv_capacity_tokens = capacity;
    s.admission = side.settings.admission;
    return s;
}

// The figures of a group's requests after the warm-up (as simulate_point's).
// A calibration's per-request terms (request_overhead, prompt_token_overhead
// per prompt token, request_launch per kernel of the prefill replica's
// forward: `forward_launches`) add to TTFT and e2e as in an aggregated
// replica; its traffic terms (stream_overhead, admission_wait,
// first_token_steps), fitted on aggregated replicas' TPOT and output rate,
// do not (docs/serving.md, section 11).
void fill_figures(model::Scenario const& scenario, std::size_t warmup, DisaggregatedSimulation const& sim,
                  double forward_launches, ServeResult& result) {
    auto const* calibration = scenario.calibration_of_target(result.target);
    std::vector<double> ttft, tpot, e2e;
    double first_arrival = std::numeric_limits<double>::infinity(), last_finish = 0, tokens = 0, moved = 0;
    std::size_t moves = 0;
    for (std::size_t i = warmup; i < sim.requests.size(); ++i) {
        auto const& r = sim.requests[i];
        double const request_front = request_front_seconds(calibration, r.prompt, forward_launches);
        ttft.push_back(r.first_token - r.arrival + request_front);
        e2e.push_back(r.finish - r.arrival + request_front);
        if (r.output > 1) {
            tpot.push_back((r.finish - r.first_token) / (r.output - 1));
            moved += sim.transfer_seconds[i];
            ++moves;
        }
        first_arrival = std::min(first_arrival, r.arrival);
        last_finish = std::max(last_finish, r.finish);
        tokens += r.output;
    }
    result.requests = ttft.size();
    result.transfer_seconds = moves ? moved / static_cast<double>(moves) : 0;
    double const span = last_finish - first_arrival;
    result.served_rate = span > 0 ? static_cast<double>(result.requests) / span : 0;
    result.output_tokens_per_s = span > 0 ? tokens / span : 0;
    result.output_tokens_per_s_per_chip = result.output_tokens_per_s / result.chips;
    result.ttft = latency_or_nan(std::move(ttft));
    result.tpot = latency_or_nan(std::move(tpot));
    result.e2e = latency_or_nan(std::move(e2e));
    // The group's replicas: sequences summed, the decode steps' mean, the fullest decode cache.
    result.steps = 0;
    result.preemptions = 0;
    result.mean_running = 0;
    result.peak_kv_tokens = 0;
    double decode_busy = 0, decode_steps = 0;
    for (auto const* pool : {&sim.prefill, &sim.decode})
        for (auto const& replica : *pool) {
            result.steps += replica.steps;
            result.preemptions += replica.preemptions;
            result.mean_running += replica.mean_running;
        }
    for (auto const& replica : sim.decode) {
        decode_busy += replica.busy_seconds;
        decode_steps += static_cast<double>(replica.steps);
        result.peak_kv_tokens = std::max(result.peak_kv_tokens, replica.peak_kv_tokens);
    }
    result.mean_step = decode_steps > 0 ? decode_busy / decode_steps : 0;
    result.saturated = sim.saturated;
    result.slo_met.clear();
    for (auto const& slo : scenario.serve_slos)
        result.slo_met.push_back(!result.saturated && !(slo_value(result, slo) > slo.limit_s));
}

}  // namespace

bool simulate_pools(model::Scenario const& scenario, PoolSide& prefill, PoolSide& decode, double n_p, double n_d,
                    PointSettings const& traffic, std::vector<RequestSpec> const& requests, ServeResult& result,
                    std::optional<model::EvalError>& error, std::string& where) {
    std::size_t const t = result.target;
    auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
    result.chips = n_p * prefill.chips + n_d * decode.chips;
    result.pools = pools_text(scenario, n_p, n_d);
    result.slo_met.assign(scenario.serve_slos.size(), 0);
    auto const on_prefill = replica_on(scenario, prefill.bytes, t, prefill.point, prefill.unsupported[t] != 0,
                                       prefill.settings);
    auto const on_decode = replica_on(scenario, decode.bytes, t, decode.point, decode.unsupported[t] != 0,
                                      decode.settings);
    // The decode replicas hold the contexts: the report's memory is theirs.
    result.weight_bytes = on_decode.weight_bytes;
    result.reserve_bytes = on_decode.reserve_bytes;
    result.kv_bytes_per_token = on_decode.kv_bytes_per_token;
    result.kv_bytes_per_sequence = on_decode.kv_bytes_per_sequence;
    result.kv_capacity_tokens = on_decode.capacity_tokens;
    if (!on_prefill.problem.empty()) result.problem = "the prefill pool: " + on_prefill.problem;
    else if (!on_decode.problem.empty()) result.problem = "the decode pool: " + on_decode.problem;
    auto const link = pool_link(hw, result.chips);
    if (result.problem.empty()) result.problem = link.problem;
    if (!result.problem.empty()) return true;
    result.link = link.name;
    // Each chip of a prefill replica sends its share of the prompt's cache
    // over its own link (past a sliding window: the full layers' positions
    // and the windows, at most kv_bytes_per_sequence).
    double const bytes_per_token = on_prefill.kv_bytes_per_token;
    double const bytes_per_sequence = on_prefill.kv_bytes_per_sequence;
    auto transfer = [&](std::uint32_t prompt) {
        return (bytes_per_token * prompt + bytes_per_sequence) / link.bytes_per_s + link.latency_s;
    };
    PoolSpec prefill_pool{static_cast<std::uint32_t>(n_p), scheduler_of(prefill, on_prefill.capacity_tokens),
                          [&](StepWork const& work) { return prefill.model->seconds(work, t); }};
    PoolSpec decode_pool{static_cast<std::uint32_t>(n_d), scheduler_of(decode, on_decode.capacity_tokens),
                         [&](StepWork const& work) { return decode.model->seconds(work, t); }};
    auto const sim = simulate_disaggregated(requests, prefill_pool, decode_pool, transfer);
    for (auto* side : {&prefill, &decode})
        if (side->model->error()) {
            error = side->model->error();
            where = side->model->error_where();
            return false;
        }
    result.problem = sim.problem;
    if (!sim.problem.empty()) return true;
    fill_figures(scenario, traffic.warmup, sim, prefill.model->forward_launches(), result);
    return true;
}

}  // namespace roofline::engine::serving

namespace roofline::engine::serving {

std::optional<model::EvalError> make_pools(model::Scenario const& scenario, CaseGrid const& grid,
                                           std::span<double const> point, PointSettings& traffic,
                                           PoolSide& prefill, PoolSide& decode) {
    PointEvaluator evaluator(scenario);
    auto error = set_step(evaluator, point, StepSlots{});
    if (!error) error = read_settings(scenario, evaluator.slots(), traffic);
    if (!error) error = make_pool(scenario, grid, point, *scenario.serve->prefill_pool, prefill);
    if (!error) error = make_pool(scenario, grid, point, *scenario.serve->decode_pool, decode);
    return error;
}

bool evaluate_pools_point(model::Scenario const& scenario, CaseGrid const& grid, std::size_t p,
                          Diagnostics& diagnostics, std::vector<ServeResult>& results) {
    auto const& serve = *scenario.serve;
    std::span<double const> const point(grid.point_values.data() + p * grid.sweep_count, grid.sweep_count);
    auto fail = [&](model::EvalError const& error, std::string const& step = {}) {
        diagnostics.error(error.span, error.message + serve_where(scenario, point, step));
        return false;
    };
    PointSettings traffic;
    PoolSide prefill, decode;
    if (auto e = make_pools(scenario, grid, point, traffic, prefill, decode)) return fail(*e);
    auto const requests =
        make_requests(traffic.requests, traffic.rate, serve.seed, traffic.prompt(), traffic.output());
    for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
        ServeResult r;
        r.point = static_cast<std::uint32_t>(p);
        r.target = static_cast<std::uint32_t>(t);
        r.rate = traffic.rate;
        std::optional<model::EvalError> step_error;
        std::string where;
        if (!simulate_pools(scenario, prefill, decode, serve.prefill_pool->replicas, serve.decode_pool->replicas,
                            traffic, requests, r, step_error, where))
            return fail(*step_error, where);
        results.push_back(std::move(r));
    }
    return true;
}

}  // namespace roofline::engine::serving
