// The speed of `roofline calibrate` (docs/calibration.md, section 3: the
// whole training file on one core in under a minute is the goal). Times
// calibrate_measured on the measured file given by ROOFLINE_MEASURED (or
// ../shared/measured/serving-train.csv beside the source tree), one group
// (h100_sxm, trtllm) and all of them; skipped when the file is not there.
// Run: build/bench/bench_calibrate --benchmark_min_time=1x (one pass each).
#include "roofline/calibrate/calibrate.hpp"
#include "roofline/calibrate/predict.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

std::string measured_path() {
    if (char const* env = std::getenv("ROOFLINE_MEASURED")) return env;
    return std::string(ROOFLINE_SOURCE_DIR) + "/../shared/measured/serving-train.csv";
}

void run(benchmark::State& state, bool one_group) {
    std::string const path = measured_path();
    if (!std::filesystem::is_regular_file(path)) {
        state.SkipWithError(("no measured file at " + path + " (set ROOFLINE_MEASURED)").c_str());
        return;
    }
    roofline::calibrate::CalibrateOptions options;
    if (one_group) {
        options.hardware = {"h100_sxm"};
        options.backends = {"trtllm"};
    }
    std::size_t rows = 0;
    for (auto _ : state) {
        auto result = roofline::calibrate::calibrate_measured(path, options);
        rows = result.cross_validated.rows.size();
        benchmark::DoNotOptimize(result);
    }
    state.counters["rows_modelled"] = static_cast<double>(rows);
}

void BM_calibrate_one_group(benchmark::State& state) { run(state, true); }
void BM_calibrate_whole_file(benchmark::State& state) { run(state, false); }

}  // namespace

BENCHMARK(BM_calibrate_one_group)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_calibrate_whole_file)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
