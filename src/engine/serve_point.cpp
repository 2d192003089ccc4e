// One serve point: its settings, the memory of a replica and one
// simulation's figures (serve_point.hpp).
#include "serve_point.hpp"

#include "point_errors.hpp"
#include "point_facts.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::engine::serving {

namespace {

constexpr double max_requests = 10'000'000;  // simulated per point
constexpr double max_length = 4'294'967'295.0;  // tokens of a prompt or an output

Span slot_span(model::Scenario const& scenario, int slot) {
    auto const& s = scenario.slots[static_cast<std::size_t>(slot)];
    return s.expr.span.file ? s.expr.span : s.span;
}

// A whole-number setting: `fallback` when not written; `least` 0 allows 0.
std::optional<model::EvalError> whole(model::Scenario const& scenario, int slot,
                                      std::span<double const> slots, char const* what, double least,
                                      double most, double& value) {
    if (slot < 0) return std::nullopt;
    value = slots[static_cast<std::size_t>(slot)];
    std::optional<std::string> problem;
    if (least == 0 && value == 0) problem = std::nullopt;
    else problem = model::whole_number_problem(value);
    if (least == 0 && problem) problem = "a whole number, 0 or more";
    if (!problem && value > most) problem = "at most " + model::format_number(most);
    if (!problem) return std::nullopt;
    return model::EvalError{slot_span(scenario, slot), std::string(what) + " must be " + *problem +
                                                           ", but it is " + model::format_number(value)};
}

std::optional<model::EvalError> lengths(model::Scenario const& scenario, model::ServeLengths const& l,
                                        std::span<double const> slots, char const* what,
                                        std::uint32_t& low, std::uint32_t& high) {
    if (l.kind == model::ServeLengths::Kind::trace) return std::nullopt;
    double lo = 1, hi = 1;
    if (auto e = whole(scenario, l.slot, slots, what, 1, max_length, lo)) return e;
    hi = lo;
    if (l.kind == model::ServeLengths::Kind::uniform) {
        if (auto e = whole(scenario, l.high_slot, slots, what, 1, max_length, hi)) return e;
        if (hi < lo)
            return model::EvalError{l.span, std::string(what) + ": uniform(" + model::format_number(lo) +
                                                ", " + model::format_number(hi) +
                                                ") has its high end below its low end"};
    }
    low = static_cast<std::uint32_t>(lo);
    high = static_cast<std::uint32_t>(hi);
    return std::nullopt;
}

}  // namespace

std::optional<model::EvalError> read_settings(model::Scenario const& scenario,
                                              std::span<double const> slots, PointSettings& out) {
    auto const& serve = *scenario.serve;
    out = PointSettings{};
    out.closed = serve.arrivals == model::Serve::Arrivals::closed;
    if (serve.arrivals_slot >= 0) {
        double const a = slots[static_cast<std::size_t>(serve.arrivals_slot)];
        if (out.closed) {
            double c = 1;
            if (auto e = whole(scenario, serve.arrivals_slot, slots, "closed(C)'s clients", 1, 1e6, c))
                return e;
            out.clients = static_cast<std::uint32_t>(c);
        } else if (!(a > 0) || !std::isfinite(a)) {
            return model::EvalError{slot_span(scenario, serve.arrivals_slot),
                                    "poisson(R)'s rate must be positive and finite, but it is " +
                                        model::format_number(a)};
        } else {
            out.rate = a;
        }
    }
    double requests = 1000, warmup = -1, seqs = 256, step_tokens = 8192;
    if (auto e = whole(scenario, serve.requests_slot, slots, "requests", 1, max_requests, requests)) return e;
    if (auto e = whole(scenario, serve.warmup_slot, slots, "warmup", 0, max_requests, warmup)) return e;
    if (warmup < 0) warmup = std::floor(requests / 10);  // the default: 10 %
    if (warmup >= requests)
        return model::EvalError{slot_span(scenario, serve.warmup_slot),
                                "warmup (" + model::format_number(warmup) +
                                    ") must be below requests (" + model::format_number(requests) +
                                    "), or no request is counted"};
    if (auto e = whole(scenario, serve.max_seqs_slot, slots, "max_seqs", 1, max_length, seqs)) return e;
    if (auto e = whole(scenario, serve.max_step_tokens_slot, slots, "max_step_tokens", 1, 1 << 24,
                       step_tokens))
        return e;
    if (serve.memory_utilization_slot >= 0) {
        double const u = slots[static_cast<std::size_t>(serve.memory_utilization_slot)];
        if (!(u > 0 && u <= 1))
            return model::EvalError{slot_span(scenario, serve.memory_utilization_slot),
                                    "memory_utilization must be above 0 and at most 1, but it is " +
                                        model::format_number(u)};
        out.memory_utilization = u;
    }
    out.admission = serve.admission == model::Serve::Admission::grow ? SchedulerSettings::Admission::grow
                                                                     : SchedulerSettings::Admission::reserve;
    out.requests = static_cast<std::size_t>(requests);
    out.warmup = static_cast<std::size_t>(warmup);
    out.max_seqs = static_cast<std::uint32_t>(seqs);
    out.max_step_tokens = static_cast<std::uint32_t>(step_tokens);
    if (auto e = lengths(scenario, serve.prompt, slots, "the prompt", out.prompt_low, out.prompt_high))
        return e;
    if (auto e = lengths(scenario, serve.output, slots, "the output", out.output_low, out.output_high))
        return e;
    for (auto const& [p, o] : serve.trace) {
        if (serve.prompt.kind == model::ServeLengths::Kind::trace) out.prompt_trace.push_back(p);
        if (serve.output.kind == model::ServeLengths::Kind::trace) out.output_trace.push_back(o);
    }
    return std::nullopt;
}

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

namespace {

Latency latency_or_nan(std::vector<double> values) {
    if (values.empty()) {
        double const nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan, nan, nan};
    }
    return latency_of(std::move(values));
}

}  // namespace

double slo_value(ServeResult const& r, model::ServeSlo const& slo) {
    Latency const& l = slo.figure == model::ServeSlo::Figure::ttft   ? r.ttft
                       : slo.figure == model::ServeSlo::Figure::tpot ? r.tpot
                                                                     : r.e2e;
    switch (slo.statistic) {
    case model::ServeSlo::Statistic::p50: return l.p50;
    case model::ServeSlo::Statistic::p90: return l.p90;
    case model::ServeSlo::Statistic::p99: return l.p99;
    case model::ServeSlo::Statistic::mean: return l.mean;
    }
    return l.mean;
}

std::optional<model::EvalError> prepare_point(model::Scenario const& scenario, PointEvaluator& evaluator,
                                              std::span<double const> point, std::vector<double>& mesh_sizes,
                                              PointSettings& settings, ReplicaMemory& bytes) {
    auto error = set_step(evaluator, point, StepSlots{});
    if (!error) error = evaluator.mesh_sizes(mesh_sizes);
    if (!error) error = read_settings(scenario, evaluator.slots(), settings);
    if (!error) error = replica_bytes(scenario, point, mesh_sizes, settings, bytes);
    return error;
}

bool simulate_point(model::Scenario const& scenario, PointSettings const& settings,
                    std::vector<RequestSpec> const& requests, StepModel& model, ServeResult& result) {
    SchedulerSettings scheduler;
    scheduler.max_seqs = settings.max_seqs;
    scheduler.max_step_tokens = settings.max_step_tokens;
    scheduler.kv_capacity_tokens = result.kv_capacity_tokens;
    scheduler.clients = settings.closed ? settings.clients : 0;
    scheduler.admission = settings.admission;
    std::size_t const target = result.target;
    Simulation sim = simulate(requests, scheduler,
                              [&](StepWork const& work) { return model.seconds(work, target); });
    if (model.error()) return false;
    result.steps = sim.steps;
    result.preemptions = sim.preemptions;
    result.saturated = sim.saturated;
    result.mean_running = sim.mean_running;
    result.mean_step = sim.steps ? sim.busy_seconds / static_cast<double>(sim.steps) : 0;
    result.peak_kv_tokens = sim.peak_kv_tokens;
    result.problem = sim.problem;
    // The statistics leave out the first `warmup` requests by arrival. A
    // calibration's request_overhead (the front end's part of the first
    // token) adds to TTFT and e2e, not to the steps.
    auto const* calibration = scenario.calibration_of_target(target);
    double const front = calibration ? calibration->request_overhead_s : 0;
    std::vector<double> ttft, tpot, e2e;
    double first_arrival = std::numeric_limits<double>::infinity(), last_finish = 0, tokens = 0;
    for (std::size_t i = settings.warmup; i < sim.requests.size(); ++i) {
        auto const& r = sim.requests[i];
        ttft.push_back(r.first_token - r.arrival + front);
        e2e.push_back(r.finish - r.arrival + front);
        if (r.output > 1) tpot.push_back((r.finish - r.first_token) / (r.output - 1));
        first_arrival = std::min(first_arrival, r.arrival);
        last_finish = std::max(last_finish, r.finish);
        tokens += r.output;
    }
    result.requests = ttft.size();
    double const span = last_finish - first_arrival;
    result.served_rate = span > 0 ? static_cast<double>(result.requests) / span : 0;
    result.output_tokens_per_s = span > 0 ? tokens / span : 0;
    result.output_tokens_per_s_per_chip = result.output_tokens_per_s / result.chips;
    result.tpot = latency_or_nan(std::move(tpot));
    // What the calibration puts in front of every first token under traffic:
    // stream_overhead per output token per second streamed, and
    // admission_wait steps (each the mean TPOT) per sequence in flight (the
    // mean running).
    double wait = 0;
    if (calibration) {
        wait += calibration->stream_overhead_s * result.output_tokens_per_s;
        if (calibration->admission_wait > 0 && std::isfinite(result.tpot.mean))
            wait += calibration->admission_wait * result.mean_running * result.tpot.mean;
    }
    if (wait > 0) {
        for (double& t : ttft) t += wait;
        for (double& t : e2e) t += wait;
    }
    result.ttft = latency_or_nan(std::move(ttft));
    result.e2e = latency_or_nan(std::move(e2e));
    // A saturated point's figures are lower bounds: it meets no SLO; nor
    // does one the scheduler could not run.
    result.slo_met.clear();
    for (auto const& slo : scenario.serve_slos)
        result.slo_met.push_back(!result.saturated && result.problem.empty() &&
                                 !(slo_value(result, slo) > slo.limit_s));
    return true;
}

std::string serve_where(model::Scenario const& scenario, std::span<double const> point,
                        std::string const& step) {
    std::string where = describe_point(scenario, point);
    if (!step.empty()) where.append(where.empty() ? "" : ", ").append(step);
    std::string text = " (serve '";
    text.append(scenario.serve->name).append("'");
    if (!where.empty()) text.append(", at ").append(where);
    return text.append(")");
}

std::string seconds_text(double seconds) {
    // Three significant digits in the unit that keeps them whole: 2.4 s, 35 ms, 2.82 µs.
    auto digits = [](double v) {
        double const scale = std::pow(10.0, 2 - std::floor(std::log10(v)));
        return model::format_number(std::round(v * scale) / scale);
    };
    if (!(seconds > 0) || !std::isfinite(seconds)) return model::format_number(seconds) + " s";
    if (seconds >= 1) return digits(seconds) + " s";
    if (seconds >= 1e-3) return digits(seconds * 1e3) + " ms";
    return digits(seconds * 1e6) + " µs";
}

}  // namespace roofline::engine::serving
