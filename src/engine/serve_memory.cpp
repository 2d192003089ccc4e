// The memory of one replica, per chip: its weights, the activation reserve,
// the KV bytes per position and per sequence, and the KV capacity on each
// target (serve_point.hpp; docs/serving.md, section 4).
#include "serve_point.hpp"

#include "point_errors.hpp"
#include "point_facts.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::engine::serving {

namespace {

// The HBM bytes of an op's activations (its operands and output that are
// neither resident nor on chip), per chip; a kernel's members summed.
std::optional<model::EvalError> activation_bytes(model::Scenario const& scenario, model::Op const& op,
                                                 PointEvaluator const& evaluator,
                                                 std::span<double const> mesh_sizes, long double& out) {
    out = 0;
    std::vector<double> sizes;
    for (auto const* leaf : leaf_ops(op)) {
        if (auto e = evaluator.axis_sizes(*leaf, sizes)) return e;
        auto add = [&](model::Tensor const& t) {
            // Weights, caches and experts (held by a `resident` line) are not activations.
            if (t.role != model::Role::activation || t.onchip) return;
            out += mesh_sizes.empty() || t.local.empty()
                       ? tensor_bytes(t, sizes, scenario.dtypes, evaluator.slots())
                       : tensor_bytes(t, t.local, sizes, mesh_sizes, scenario.dtypes, evaluator.slots());
        };
        for (auto const& input : leaf->inputs) add(input);
        add(leaf->out);
    }
    return std::nullopt;
}

}  // namespace

std::optional<model::EvalError> replica_bytes(model::Scenario const& scenario,
                                              std::span<double const> point,
                                              std::span<double const> mesh_sizes,
                                              PointSettings const& settings, ReplicaMemory& out) {
    auto const& serve = *scenario.serve;
    PointEvaluator evaluator(scenario);
    ResidentBytes linear, sample, decode1, decode2, prefill;
    // The linear part at the largest step and the sample part at the most
    // sequences a step samples: their weights (a mixture of experts reads
    // them all) and the reserve, the largest op's activations.
    long double reserve = 0, bytes = 0;
    auto once = [&](StepSlots const& step, std::vector<model::Op> const& ops,
                    std::vector<model::Resident> const& residents,
                    ResidentBytes& out) -> std::optional<model::EvalError> {
        if (auto e = set_step(evaluator, point, step)) return e;
        if (auto e = resident_bytes(scenario, ops, residents, evaluator, mesh_sizes, out)) return e;
        for (auto const& op : ops) {
            if (auto e = activation_bytes(scenario, op, evaluator, mesh_sizes, bytes)) return e;
            reserve = std::max(reserve, bytes);
        }
        return std::nullopt;
    };
    double const sampled = std::min(settings.max_seqs, settings.max_step_tokens);
    if (auto e = once(StepSlots{.tokens = static_cast<double>(settings.max_step_tokens)}, serve.linear,
                      serve.linear_residents, linear))
        return e;
    if (auto e = once(StepSlots{.sampled = sampled}, serve.sample, serve.sample_residents, sample)) return e;
    // The KV bytes of one context position: the decode part's caches at
    // context 2 less at context 1 (the rate of a sliding window's cache
    // before it slides: the most a position can take).
    if (auto e = set_step(evaluator, point, StepSlots{})) return e;
    if (auto e = resident_bytes(scenario, serve.decode, serve.decode_residents, evaluator, mesh_sizes, decode1))
        return e;
    if (auto e = resident_bytes(scenario, serve.prefill, serve.prefill_residents, evaluator, mesh_sizes, prefill))
        return e;
    if (auto e = set_step(evaluator, point, StepSlots{.context = 2})) return e;
    if (auto e = resident_bytes(scenario, serve.decode, serve.decode_residents, evaluator, mesh_sizes, decode2))
        return e;
    // The attention parts read the same weights in two forms (MLA's
    // absorbed decode and its prefill): the larger counted once.
    out.weight_bytes =
        static_cast<double>(linear.weight + sample.weight + std::max(decode1.weight, prefill.weight));
    out.reserve_bytes = static_cast<double>(reserve);
    out.kv_bytes_per_token = static_cast<double>(decode2.cache - decode1.cache);
    // At the longest request L: a position's rate there (past a window, the
    // layers that keep every position) and what a sequence holds beyond
    // that rate (its windows' positions): cache(L) - rate x L.
    auto longest = [](std::uint32_t high, std::vector<std::uint32_t> const& trace) {
        return std::max<std::uint64_t>(high, trace.empty() ? 0 : *std::max_element(trace.begin(), trace.end()));
    };
    auto const L = static_cast<double>(longest(settings.prompt_high, settings.prompt_trace) +
                                       longest(settings.output_high, settings.output_trace));
    out.kv_bytes_past_window = out.kv_bytes_per_token;
    out.kv_bytes_per_sequence = 0;
    if (L > 2) {
        ResidentBytes at_l, past_l;
        if (auto e = set_step(evaluator, point, StepSlots{.context = L})) return e;
        if (auto e = resident_bytes(scenario, serve.decode, serve.decode_residents, evaluator, mesh_sizes, at_l))
            return e;
        if (auto e = set_step(evaluator, point, StepSlots{.context = L + 1})) return e;
        if (auto e = resident_bytes(scenario, serve.decode, serve.decode_residents, evaluator, mesh_sizes, past_l))
            return e;
        auto const rate = static_cast<double>(past_l.cache - at_l.cache);
        auto const held = static_cast<double>(at_l.cache) - rate * L;
        // (A cache that grows alike at every context gives rate = the rate
        // at context 1 and held = 0, to rounding.)
        if (rate > 0 && rate < 0.999999 * out.kv_bytes_per_token && held > 0) {
            out.kv_bytes_past_window = rate;
            out.kv_bytes_per_sequence = held;
        }
    }
    return std::nullopt;
}

ReplicaMemory replica_on(model::Scenario const& scenario, ReplicaMemory m, std::size_t target,
                         std::span<double const> point, bool mesh_unsupported,
                         PointSettings const& settings) {
    auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[target])];
    auto const& serve = *scenario.serve;
    std::string const who = "hardware '" + hw.id + "'";
    if (mesh_unsupported) {
        m.problem = who + " cannot build the mesh";
        return m;
    }
    PointEvaluator evaluator(scenario);
    if (!set_step(evaluator, point, StepSlots{}))
        for (auto const* part : {&serve.linear, &serve.decode, &serve.prefill, &serve.sample})
            for (auto const& op : *part) {
                int const dtype = op.compute_dtype_at(evaluator.slots(), scenario.dtypes);
                if (op.kind != model::OpKind::collective && !hw.peak_for(dtype)) {
                    m.problem = who + " has no peak for " +
                                scenario.dtypes[static_cast<std::size_t>(dtype)].name + " (op '" +
                                op.name + "')";
                    return m;
                }
            }
    if (!hw.hbm_capacity_bytes) {
        m.problem = who + " has no hbm_capacity: the KV cache cannot be sized";
        return m;
    }
    if (!(m.kv_bytes_per_token > 0)) {
        m.problem = "the decode part holds no KV cache (no cache operand grows with the context)";
        return m;
    }
    double const usable = settings.memory_utilization * *hw.hbm_capacity_bytes;
    double const room = usable - m.weight_bytes - m.reserve_bytes;
    m.capacity_tokens = room > 0 ? std::floor(room / m.kv_bytes_per_token) : 0;
    // Past a sliding window: max_seqs sequences' windows set aside, the rest
    // at the rate of the layers that keep every position, when that holds
    // more (both bound what the cache holds; docs/serving.md, section 4).
    double const windows = settings.max_seqs * m.kv_bytes_per_sequence;
    double const past = m.kv_bytes_per_sequence > 0 && room > windows
                            ? std::floor((room - windows) / m.kv_bytes_past_window)
                            : 0;
    if (past > m.capacity_tokens) {
        m.capacity_tokens = past;
        m.kv_bytes_per_token = m.kv_bytes_past_window;
    } else {
        m.kv_bytes_per_sequence = 0;
    }
    if (!(m.capacity_tokens >= 1))
        m.problem = "the weights (" + model::format_number(m.weight_bytes / 1e9) + " GB) and reserve (" +
                    model::format_number(m.reserve_bytes / 1e9) + " GB) leave no room for the KV cache in " +
                    model::format_number(settings.memory_utilization) + " x " +
                    model::format_number(*hw.hbm_capacity_bytes / 1e9) + " GB of " + who;
    return m;
}

std::optional<model::EvalError> check_fits(model::Scenario const& scenario,
                                           std::vector<RequestSpec> const& requests,
                                           double capacity_tokens, std::string const& hardware) {
    for (auto const& r : requests) {
        double const need = double(r.prompt) + double(r.output);
        if (need <= capacity_tokens) continue;
        return model::EvalError{scenario.serve->prompt.span,
                                "a prompt of " + model::format_number(r.prompt) + " and an output of " +
                                    model::format_number(r.output) + " tokens need " +
                                    model::format_number(need) + " KV tokens, the cache holds " +
                                    model::format_number(capacity_tokens) + " on hardware '" + hardware +
                                    "'"};
    }
    return std::nullopt;
}

}  // namespace roofline::engine::serving
