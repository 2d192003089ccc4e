#pragma once
// One serve point (docs/serving.md, section 3), shared by evaluate_serve and
// the fleet search (serve_point.cpp): the serve's settings at a sweep point,
// the memory of one replica on each target (weights, activation reserve, KV
// bytes per token and the KV capacity in tokens), and one simulation's
// figures.

#include "serve_step.hpp"

#include "roofline/engine/serve.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace roofline::engine::serving {

// The serve statement's settings at one point, checked.
struct PointSettings {
    bool closed = false;
    double rate = 0;              // poisson(R): R requests/s
    std::uint32_t clients = 0;    // closed(C): C
    std::size_t requests = 1000, warmup = 100;
    std::uint32_t max_seqs = 256, max_step_tokens = 8192;
    double memory_utilization = 0.9;
    SchedulerSettings::Admission admission = SchedulerSettings::Admission::reserve;
    std::uint32_t prompt_low = 0, prompt_high = 0, output_low = 0, output_high = 0;
    std::vector<std::uint32_t> prompt_trace, output_trace;  // a trace: its columns
    LengthSource prompt() const { return {prompt_low, prompt_high, prompt_trace}; }
    LengthSource output() const { return {output_low, output_high, output_trace}; }
};
std::optional<model::EvalError> read_settings(model::Scenario const& scenario,
                                              std::span<double const> slots, PointSettings& out);

// The memory of one replica, per chip; problem: not simulated there.
// kv_bytes_per_token: what a context position takes at most (its rate at
// context 1). A sliding window (gpt-oss, Gemma 2) takes that only up to the
// window: past it a position costs kv_bytes_past_window (the layers that keep
// every position) and a sequence holds kv_bytes_per_sequence more (its
// windows), both measured at the longest request. replica_on keeps the
// accounting that holds more tokens (docs/serving.md, section 4); with the
// first, kv_bytes_per_sequence is 0.
struct ReplicaMemory {
    double weight_bytes = 0, reserve_bytes = 0, kv_bytes_per_token = 0, capacity_tokens = 0;
    double kv_bytes_past_window = 0, kv_bytes_per_sequence = 0;
    std::string problem;
};
// The resident bytes per chip at the point (the same on every target):
// the weights, the reserve and the KV bytes per token.
std::optional<model::EvalError> replica_bytes(model::Scenario const& scenario,
                                              std::span<double const> point,
                                              std::span<double const> mesh_sizes,
                                              PointSettings const& settings, ReplicaMemory& out);
// What evaluate_serve and the fleet both start a point from: the evaluator
// set to it (the step's names at 1), its mesh sizes, its settings and the
// replica's bytes per chip.
std::optional<model::EvalError> prepare_point(model::Scenario const& scenario, PointEvaluator& evaluator,
                                              std::span<double const> point, std::vector<double>& mesh_sizes,
                                              PointSettings& settings, ReplicaMemory& bytes);
// On target t: the capacity from its HBM, or the problem (no HBM capacity,
// no room, no peak for some op's dtype, a mesh it cannot build).
ReplicaMemory replica_on(model::Scenario const& scenario, ReplicaMemory bytes, std::size_t target,
                         std::span<double const> point, bool mesh_unsupported,
                         PointSettings const& settings);

// Simulates `requests` on result.target and fills the figures of `result`
// (whose point, target, chips and KV capacity are set); the warm-up's
// requests left out. False after an op's count failed at some step: the
// model holds the error and its step slots.
bool simulate_point(model::Scenario const& scenario, PointSettings const& settings,
                    std::vector<RequestSpec> const& requests, StepModel& model, ServeResult& result);

// The request that does not fit the cache, if one: an error at the serve's
// prompt, naming the lengths and the capacity.
std::optional<model::EvalError> check_fits(model::Scenario const& scenario,
                                           std::vector<RequestSpec> const& requests,
                                           double capacity_tokens, std::string const& hardware);

// The figure an SLO bounds (TTFT p99, ...), in seconds.
double slo_value(ServeResult const& r, model::ServeSlo const& slo);

// Where an error of the serve is: "(serve 'chat', at R = 5, context = 12)".
std::string serve_where(model::Scenario const& scenario, std::span<double const> point,
                        std::string const& step);

// Seconds as "2.4 s" or "35 ms", for messages.
std::string seconds_text(double seconds);

}  // namespace roofline::engine::serving
