// Benchmarks of the core (issue: parsing >= 20 MB/s on a 10,000-line scenario,
// evaluation >= 10 million cases per second on one core, memory proportional
// to the number of cases). Run: make bench, or build/bench/bench_core.
#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"

#include <benchmark/benchmark.h>

#include <string>

using namespace roofline;

namespace {

// A scenario of `lines` lines: hardware blocks, lets that refer to each other
// out of order, layers of matmuls, comments.
std::string generated_scenario(int lines) {
    std::string text = "# generated for bench_core\nscenario \"generated\"\nsweep B = 1 .. 64\n";
    int written = 3;
    for (int h = 0; written < lines && h < 50; ++h) {
        text += "hardware chip" + std::to_string(h) + " {\n    name = \"Chip " + std::to_string(h) +
                "\"\n    hbm_bandwidth = " + std::to_string(1 + h) + ".5 TB/s\n"
                "    peak bf16 = " + std::to_string(100 + h) + " TFLOP/s\n"
                "    peak int8 = 2 * " + std::to_string(100 + h) + " TOP/s\n}\n";
        written += 6;
    }
    int i = 0;
    for (; written < lines; ++i) {
        // Each let refers to the next one, defined below it.
        text += "let size" + std::to_string(i) + " = 2 ^ 10 + size" + std::to_string(i + 1) +
                " * 0 + max(1, 2) * 8   # a comment\n";
        ++written;
        if (i % 10 == 9) {
            text += "layer block" + std::to_string(i) + " x 2 {\n    let D = size" +
                    std::to_string(i) + "\n    matmul up = bf16[B, D] * int8[D, F] -> bf16[B, F]\n"
                    "    matmul down = bf16[B, F] * int8[F, D] -> bf16[B, D]\n}\n";
            written += 5;
        }
    }
    text += "let F = 4096\nlet size" + std::to_string(i) + " = 4096\n";  // ends the chain
    return text;
}

void BM_parse_and_check_10000_lines(benchmark::State& state) {
    std::string text = generated_scenario(10000);
    MemoryFileSystem fs;
    for (auto _ : state) {
        Diagnostics diagnostics;
        auto program = load_program_text("bench.roof", text, fs, LoadOptions{}, diagnostics);
        auto scenario = model::check(program, {}, diagnostics);
        if (diagnostics.has_errors()) {
            state.SkipWithError(format(diagnostics).substr(0, 500).c_str());
            return;
        }
        benchmark::DoNotOptimize(scenario);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(text.size()));
    state.counters["lines"] = 10000;
}
BENCHMARK(BM_parse_and_check_10000_lines)->Unit(benchmark::kMillisecond);

// The parser alone, to tell its share from the checker's.
void BM_parse_only_10000_lines(benchmark::State& state) {
    std::string text = generated_scenario(10000);
    SourceFile source("bench.roof", text);
    for (auto _ : state) {
        Diagnostics diagnostics;
        auto parsed = parse_file(source, diagnostics);
        benchmark::DoNotOptimize(parsed);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_parse_only_10000_lines)->Unit(benchmark::kMillisecond);

// points x 10 matmuls x 10 targets.
std::string evaluation_scenario(int points) {
    std::string text = "sweep B = 1 .. " + std::to_string(points) + "\nlet D = 4096\nlet F = 14336\n";
    for (int h = 0; h < 10; ++h)
        text += "hardware chip" + std::to_string(h) + " { hbm_bandwidth = " + std::to_string(1 + h) +
                " TB/s  peak bf16 = " + std::to_string(200 + 50 * h) + " TFLOP/s }\n";
    for (int m = 0; m < 10; ++m)
        text += "matmul mm" + std::to_string(m) + " = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    return text;
}

void BM_evaluate(benchmark::State& state) {
    int points = static_cast<int>(state.range(0));
    std::string text = evaluation_scenario(points);
    MemoryFileSystem fs;
    Diagnostics diagnostics;
    auto program = load_program_text("bench.roof", text, fs, LoadOptions{}, diagnostics);
    auto scenario = model::check(program, {}, diagnostics);
    if (diagnostics.has_errors()) {
        state.SkipWithError(format(diagnostics).c_str());
        return;
    }
    std::size_t cases = 0, bytes = 0;
    for (auto _ : state) {
        auto evaluation = engine::evaluate(scenario, diagnostics);
        cases = evaluation->cases.size();
        bytes = evaluation->cases.capacity() * sizeof(engine::Case) +
                evaluation->point_values.capacity() * sizeof(double);
        for (auto const& table : evaluation->critical) bytes += table.capacity() * sizeof(double);
        benchmark::DoNotOptimize(evaluation);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(cases));
    state.counters["cases"] = static_cast<double>(cases);
    state.counters["result_bytes_per_case"] = static_cast<double>(bytes) / static_cast<double>(cases);
}
BENCHMARK(BM_evaluate)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
