// Benchmarks of the serve scheduler (docs/serving.md, section 6: a serve point
// of 2,000 requests on a 70B model well under a second, a fleet search in
// seconds). The step cost here is a trivial affine one, so that what is timed
// is the scheduler alone: steps (events) per second, and whole serve points.
// Run: build/bench/bench_serve.
#include "roofline/engine/serve.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <utility>
#include <vector>

using namespace roofline::engine::serving;

namespace {

// A 70B model's shape on one replica: 2K-in / 256-out, max_seqs 256, 8192
// tokens a step, room for every sequence; the step 15 ms + 2 us a token +
// 1 ns a position of context read.
SchedulerSettings seventy_b() {
    SchedulerSettings s;
    s.max_seqs = 256;
    s.max_step_tokens = 8192;
    s.kv_capacity_tokens = 256.0 * (2048 + 256);
    return s;
}

double cheap_cost(StepWork const& work) {
    std::uint64_t context = 0;
    for (auto c : work.contexts) context += c;
    return 0.015 + 2e-6 * static_cast<double>(work.tokens) + 1e-9 * static_cast<double>(context);
}

void report(benchmark::State& state, Simulation const& sim, std::size_t requests) {
    auto iterations = static_cast<double>(state.iterations());
    state.counters["steps"] = static_cast<double>(sim.steps);
    state.counters["steps_per_s"] =
        benchmark::Counter(static_cast<double>(sim.steps) * iterations, benchmark::Counter::kIsRate);
    state.counters["requests_per_s"] =
        benchmark::Counter(static_cast<double>(requests) * iterations, benchmark::Counter::kIsRate);
    state.counters["mean_running"] = sim.mean_running;
}

// Open loop at `rate` requests/s (state.range(1), per second): below the
// replica's capacity the batch is small and the steps many (10 /s);
// far above it (1,000 /s) the batch is full, 256 sequences a step.
void BM_serve_point(benchmark::State& state) {
    auto count = static_cast<std::size_t>(state.range(0));
    auto rate = static_cast<double>(state.range(1));
    auto requests = make_requests(count, rate, 1, {2048, 2048, {}}, {256, 256, {}});
    StepCost cost = cheap_cost;
    Simulation sim;
    for (auto _ : state) {
        sim = simulate(requests, seventy_b(), cost);
        benchmark::DoNotOptimize(sim.end);
    }
    if (!sim.problem.empty()) state.SkipWithError(sim.problem.c_str());
    report(state, sim, count);
}
BENCHMARK(BM_serve_point)
    ->Args({2000, 10})
    ->Args({2000, 40})
    ->Args({2000, 1000})
    ->Unit(benchmark::kMillisecond);

// closed(256): every step 256 decodes (and prefill chunks as clients resend),
// the steps' own cost at the fullest batch.
void BM_serve_closed(benchmark::State& state) {
    auto count = static_cast<std::size_t>(state.range(0));
    auto requests = make_requests(count, 0, 1, {2048, 2048, {}}, {256, 256, {}});
    auto settings = seventy_b();
    settings.clients = 256;
    StepCost cost = cheap_cost;
    Simulation sim;
    for (auto _ : state) {
        sim = simulate(requests, settings, cost);
        benchmark::DoNotOptimize(sim.end);
    }
    if (!sim.problem.empty()) state.SkipWithError(sim.problem.c_str());
    report(state, sim, count);
}
BENCHMARK(BM_serve_closed)->Arg(2000)->Unit(benchmark::kMillisecond);

// The requests themselves and the percentiles of a sample of 2,000.
void BM_make_requests_and_latency(benchmark::State& state) {
    for (auto _ : state) {
        auto requests = make_requests(2000, 20, 7, {128, 4096, {}}, {16, 512, {}});
        std::vector<double> sample(requests.size());
        for (std::size_t i = 0; i < requests.size(); ++i) sample[i] = requests[i].arrival;
        auto latency = latency_of(std::move(sample));
        benchmark::DoNotOptimize(latency);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 2000);
}
BENCHMARK(BM_make_requests_and_latency)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
