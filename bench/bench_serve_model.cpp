// Benchmarks of `serve` on a real model (docs/serving.md, section 9): the
// worked example, Llama 3.1 70B (80 layers) at 2K in / 256 out, through the
// whole engine (step costs from the templates' ops, the scheduler, the
// figures): one serve point of 2,000 requests, all 108 points, and the
// fleet search over its 18 configurations. Run: build/bench/bench_serve_model
// (from anywhere: the scenario is read from the source tree).
#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/serve.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/load.hpp"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

using namespace roofline;

namespace {

std::string const scenario_path = std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/llama3-70b-serve.roof";

// The worked example with `sets` (--set NAME=VALUE) applied, or an error.
struct Loaded {
    model::LoadedScenario loaded;
    std::optional<engine::CaseGrid> grid;
    std::string error;
};

Loaded load(std::vector<std::string> const& sets, std::vector<std::string> const& targets) {
    Loaded out;
    Diagnostics diagnostics;
    model::CheckOptions options;
    options.targets = targets;
    out.loaded = model::load_scenario(scenario_path, std::nullopt, {}, options, diagnostics, sets);
    if (!diagnostics.has_errors()) out.grid = engine::prepare(out.loaded.scenario, diagnostics);
    if (diagnostics.has_errors()) out.error = format(diagnostics).substr(0, 500);
    return out;
}

// One serve point: H100, TP 8, bf16, 8 requests/s (below saturation).
void BM_serve_point_70b_2000_requests(benchmark::State& state) {
    auto loaded = load({"TP=8", "R=8", "wdt=bf16"}, {"h100_sxm"});
    if (!loaded.error.empty()) return state.SkipWithError(loaded.error.c_str());
    std::uint64_t steps = 0;
    for (auto _ : state) {
        Diagnostics diagnostics;
        auto results = engine::evaluate_serve(loaded.loaded.scenario, *loaded.grid, diagnostics);
        if (!results || results->size() != 1) return state.SkipWithError("no serve point");
        steps = results->front().steps;
        benchmark::DoNotOptimize(results);
    }
    state.counters["steps"] = static_cast<double>(steps);
}

// Every serve point of the worked example: 6 rates x 3 TP x 2 dtypes x 3 chips.
void BM_serve_worked_example_108_points(benchmark::State& state) {
    auto loaded = load({}, {});
    if (!loaded.error.empty()) return state.SkipWithError(loaded.error.c_str());
    for (auto _ : state) {
        Diagnostics diagnostics;
        auto results = engine::evaluate_serve(loaded.loaded.scenario, *loaded.grid, diagnostics);
        if (!results || results->size() != 108) return state.SkipWithError("not 108 serve points");
        benchmark::DoNotOptimize(results);
    }
}

// The fleet for 100 requests/s: 18 configurations, each a bisection of whole simulations.
void BM_fleet_worked_example(benchmark::State& state) {
    auto loaded = load({}, {});
    if (!loaded.error.empty()) return state.SkipWithError(loaded.error.c_str());
    for (auto _ : state) {
        Diagnostics diagnostics;
        auto rows = engine::plan_fleet(loaded.loaded.scenario, *loaded.grid, diagnostics);
        if (!rows || rows->size() != 18) return state.SkipWithError("not 18 fleet rows");
        benchmark::DoNotOptimize(rows);
    }
}

}  // namespace

BENCHMARK(BM_serve_point_70b_2000_requests)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_serve_worked_example_108_points)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_fleet_worked_example)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
