// One serve point: its settings and one simulation's figures (the memory
// of a replica: serve_memory.cpp; serve_point.hpp).
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
    // calibration's per-request terms (the front end's part of the first
    // token: request_overhead, prompt_token_overhead per prompt token,
    // request_launch per kernel of a prompt's forward) add to TTFT and e2e,
    // not to the steps.
    auto const* calibration = scenario.calibration_of_target(target);
    std::vector<double> ttft, tpot, e2e;
    double first_arrival = std::numeric_limits<double>::infinity(), last_finish = 0, tokens = 0;
    for (std::size_t i = settings.warmup; i < sim.requests.size(); ++i) {
        auto const& r = sim.requests[i];
        double const request_front = request_front_seconds(calibration, r.prompt, model.forward_launches());
        ttft.push_back(r.first_token - r.arrival + request_front);
        e2e.push_back(r.finish - r.arrival + request_front);
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
    // stream_overhead per output token per second streamed, admission_wait
    // steps (each the mean TPOT) per sequence in flight (the mean running),
    // and first_token_steps steps (each the mean TPOT) after the step that
    // computes it.
    double wait = 0;
    if (calibration) {
        wait += calibration->stream_overhead_s * result.output_tokens_per_s;
        if (std::isfinite(result.tpot.mean))
            wait += (calibration->admission_wait * result.mean_running + calibration->first_token_steps) *
                    result.tpot.mean;
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
