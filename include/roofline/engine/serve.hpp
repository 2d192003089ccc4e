#pragma once
// Serving (docs/serving.md): continuous batching of requests on one replica
// (one mesh), the figures of each serve point, and the fleet that meets the
// SLOs. Three parts, each with one job:
//   - the scheduler (serve_scheduler.cpp): requests, their arrivals and a step
//     cost in, each request's times out; knows nothing of ops or chips;
//   - the step cost (serve_step.cpp): a step's decodes and prefill chunks ->
//     seconds on one target, from the serve statement's linear / decode /
//     prefill parts, counts summed before timing;
//   - evaluate_serve and the fleet search (serve.cpp, fleet.cpp): both glued
//     per sweep point and target, and the statistics.

#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/scenario.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace roofline::engine::serving {

// One request to simulate: when it arrives (closed loop: ignored, the
// scheduler sets it) and its lengths in tokens.
struct RequestSpec {
    double arrival = 0;  // seconds
    std::uint32_t prompt = 0, output = 0;
    // Disaggregated decode: the prompt's KV cache arrives with the request and
    // its first token is out (RequestTimes::first_token = arrival): no chunks,
    // only its output - 1 decodes.
    bool prefilled = false;
};

// A prompt chunk of one step: its tokens and the position it starts at.
struct Chunk {
    std::uint32_t tokens = 0, start = 0;
};

// What one engine step runs: one token for each decoding sequence (its
// context: positions in its KV cache, the new token's included) and the
// prefill chunks, in arrival order. tokens = contexts.size() + sum of chunks.
struct StepWork {
    std::span<std::uint32_t const> contexts;
    std::span<Chunk const> chunks;
    std::uint64_t tokens = 0;
    // The sequences that produce a token: every decode, and every prompt
    // whose last chunk runs in the step (its first token).
    std::uint64_t sampled = 0;
};

// The seconds of one step. Called once per step; the scheduler never calls
// it with an empty step.
using StepCost = std::function<double(StepWork const&)>;

struct SchedulerSettings {
    std::uint32_t max_seqs = 256;
    std::uint32_t max_step_tokens = 8192;
    double kv_capacity_tokens = 0;     // the KV cache of one replica, in tokens
    // closed(C): C clients, all sending at time 0, each its next request when
    // its last finishes; 0: open loop, the arrivals of the RequestSpecs.
    std::uint32_t clients = 0;
    // closed(C) only: each client's first request arrives at its
    // RequestSpec::arrival instead of at 0 (`roofline calibrate` starts the
    // clients spread over a cycle, as a long benchmark's clients drift apart).
    bool staggered = false;
    // How admission counts the KV cache (docs/serving.md, section 3):
    // reserve, a request's prompt + output held whole from admission
    // (TensorRT-LLM's default); grow, the cache a request holds now, grown by
    // one token per decode, the newest request preempted and recomputed when
    // a step would overflow it (vLLM's and SGLang's).
    enum class Admission : std::uint8_t { reserve, grow } admission = Admission::reserve;
};

// A request's times, in seconds from the start of the simulation.
struct RequestTimes {
    double arrival = 0, first_token = 0, finish = 0;
    std::uint32_t prompt = 0, output = 0;
};

struct Simulation {
    std::vector<RequestTimes> requests;  // in arrival order
    std::uint64_t steps = 0;
    double busy_seconds = 0;          // the sum of the steps' times
    double end = 0;                   // the last request's finish
    double mean_running = 0;          // sequences running (admitted, not finished), time-weighted
    double peak_kv_tokens = 0;        // the most tokens reserved (grow: held and to prefill) at once
    std::uint64_t preemptions = 0;    // grow: requests preempted (each recomputed when readmitted)
    // The queue kept growing: arrivals faster than service (docs/serving.md,
    // section 3); the figures are then lower bounds.
    bool saturated = false;
    std::string problem;  // nonempty: a request could never run (its prompt + output exceed the KV capacity)
};

// Where a request's lengths come from: fixed (low == high), uniform on
// [low, high] in whole tokens, or a trace (nonempty: one value per request,
// taken in order and repeated from the start when the requests outnumber it).
struct LengthSource {
    std::uint32_t low = 0, high = 0;
    std::span<std::uint32_t const> trace;
};

// `count` requests: per request the prompt's then the output's length, drawn
// from one stream seeded by `seed`; arrivals of a Poisson process of `rate`
// requests/s from time 0 (rate 0: every arrival at 0, for closed loops).
// Same inputs, same requests, on every compiler (serve_arrivals.cpp).
std::vector<RequestSpec> make_requests(std::size_t count, double rate, std::uint64_t seed,
                                       LengthSource const& prompt, LengthSource const& output);

// Runs the requests (sorted by arrival for an open loop) through one replica.
Simulation simulate(std::vector<RequestSpec> const& requests, SchedulerSettings const& settings,
                    StepCost const& cost);

// Disaggregated serving (serve_disaggregated.cpp, docs/serving.md): one pool
// of replicas, each its own mesh.
struct PoolSpec {
    std::uint32_t replicas = 1;
    SchedulerSettings settings;  // of one replica (its clients must be 0: open loops only)
    StepCost cost;               // of one replica's step
};
// The seconds to move a prompt's KV cache from a prefill to a decode replica.
using TransferCost = std::function<double(std::uint32_t prompt)>;

struct DisaggregatedSimulation {
    // In arrival order: the arrival, the first token (the prefill replica's
    // step end) and the finish (the decode replica's; the first token for an
    // output of 1, which never moves).
    std::vector<RequestTimes> requests;
    std::vector<double> transfer_seconds;  // per request, as `requests`; 0 for an output of 1
    std::vector<Simulation> prefill, decode;  // per replica
    double end = 0;                       // the last finish
    bool saturated = false;               // some replica's queue kept growing
    std::string problem;                  // nonempty: not simulated (names the replica)
};

// Requests dispatched round-robin (in arrival order) over the prefill
// replicas, which run their prompts only (each finishes with its first
// token); then each request with output > 1 moves, transfer(prompt) seconds,
// to the decode replicas, round-robin in the order of the first tokens (ties
// in arrival order), arriving there prefilled. Each replica is simulated on
// its own (simulate); transfers do not queue on the link.
DisaggregatedSimulation simulate_disaggregated(std::vector<RequestSpec> const& requests, PoolSpec const& prefill,
                                               PoolSpec const& decode, TransferCost const& transfer);

// Percentiles of a sample (p in [0, 1], nearest rank on the sorted sample) and the mean.
struct Latency {
    double p50 = 0, p90 = 0, p99 = 0, mean = 0;
};
Latency latency_of(std::vector<double> values);

}  // namespace roofline::engine::serving

namespace roofline::engine {

// One serve point: a sweep point on a target, per replica (one mesh) and per chip.
struct ServeResult {
    std::uint32_t point = 0, target = 0;
    double chips = 1;                      // of one replica
    double rate = 0;                       // offered requests/s (NaN for closed(C))
    double clients = 0;                    // closed(C): C; else 0
    double weight_bytes = 0;               // resident weights per chip
    double reserve_bytes = 0;              // the activation reserve per chip
    double kv_bytes_per_token = 0;         // per chip
    double kv_bytes_per_sequence = 0;      // per chip: a sequence's sliding windows past kv_bytes_per_token (0: none)
    double kv_capacity_tokens = 0;         // of the replica
    double served_rate = 0;                // requests/s finished, after warm-up
    double output_tokens_per_s = 0;        // per replica
    double output_tokens_per_s_per_chip = 0;
    serving::Latency ttft, tpot, e2e;      // seconds
    double mean_running = 0, mean_step = 0;
    double peak_kv_tokens = 0;
    std::uint64_t steps = 0, requests = 0;  // requests counted (after warm-up)
    std::uint64_t preemptions = 0;         // admission = grow: requests preempted (recomputed), the whole run
    bool saturated = false;
    std::vector<std::uint8_t> slo_met;     // per Scenario::serve_slos
    std::string problem;                   // nonempty: not simulated (unsupported chip, no KV room, ...)
    // Disaggregated (prefill_pool / decode_pool): the figures are of one group
    // of n_p prefill + n_d decode replicas (chips = n_p x chips_p + n_d x
    // chips_d; memory and KV capacity those of a decode replica).
    std::string pools;                     // "1 x TP 4 prefill + 3 x TP 8 decode"; "" aggregated
    std::string link;                      // the pools' link: "nvlink" or "dcn"
    double transfer_seconds = 0;           // mean KV transfer of the counted requests that decode
};

// A configuration of the fleet: a sweep point without its rate (or clients),
// on a target, and the replicas that serve `fleet rate = L` within every SLO.
struct FleetRow {
    std::uint32_t point = 0, target = 0;   // the point: its rate sweep at its first value
    double max_rate = 0;                   // per replica, within every SLO (0: none)
    double replicas = 0, chips = 0;
    double dollars_per_hour = 0;           // NaN without a price
    double dollars_per_million_tokens = 0; // output tokens
    double kilowatts = 0;                  // NaN without a power
    double joules_per_token = 0;
    bool fewest_chips = false, cheapest = false;
    std::string why_none;                  // nonempty when no rate meets the SLOs
    // Disaggregated: the prefill:decode ratio of the fewest chips (replicas
    // are then groups of that ratio, max_rate per group).
    std::string pools;
    double prefill_replicas = 0, decode_replicas = 0;  // per group
    std::uint32_t prefill_point = 0, decode_point = 0;  // the grid points of the pools' meshes
};

// Progress of a long simulation (as `run` has): called with the serve points
// done and the total.
using ServeProgress = std::function<void(std::size_t done, std::size_t total)>;

// Every serve point at every sweep point and target (the target fastest);
// nullopt after an error, which names the point. Empty without a serve.
std::optional<std::vector<ServeResult>> evaluate_serve(model::Scenario const& scenario,
                                                       CaseGrid const& grid, Diagnostics& diagnostics,
                                                       ServeProgress const& progress = {});

// With `fleet rate = L`: one row per configuration; empty without one.
std::optional<std::vector<FleetRow>> plan_fleet(model::Scenario const& scenario, CaseGrid const& grid,
                                                Diagnostics& diagnostics,
                                                ServeProgress const& progress = {});

}  // namespace roofline::engine
