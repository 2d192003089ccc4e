// The worked example of docs/serving.md (scenarios/llama3-70b-serve.roof,
// Llama 3.1 70B) at TP 2 in bf16: the memory of a replica by hand, the H100
// that holds 13 requests at a time and the H200 that holds 169.
#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/serve.hpp"
#include "roofline/model/load.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;

TEST_CASE("worked example: Llama 3.1 70B at TP 2 in bf16, per chip by hand", "[serve-engine][models]") {
    Diagnostics diagnostics;
    model::CheckOptions options;
    options.targets = {"h100_sxm", "h200"};
    auto loaded = model::load_scenario(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/llama3-70b-serve.roof",
                                       std::nullopt, {}, options, diagnostics, {"TP=2", "wdt=bf16", "R=1"});
    auto grid = engine::prepare(loaded.scenario, diagnostics);
    REQUIRE(grid);
    auto results = engine::evaluate_serve(loaded.scenario, *grid, diagnostics);
    INFO(format(diagnostics));
    REQUIRE(results);
    REQUIRE(results->size() == 2);
    auto const& h100 = (*results)[0];
    auto const& h200 = (*results)[1];
    // Weights: half of 70,553,706,496 parameters x 2 B, and half again of the
    // norms every chip holds whole: (80 x 2 x 8192 + 8192) x 2 B / 2 =
    // 1,318,912 B: 70,553,706,496 + 1,318,912 = 70,555,025,408 B.
    CHECK(h100.weight_bytes == 70555025408.0);
    // Reserve: the largest op's activations, the linear part at 8192 tokens
    // and the sample part at min(max_seqs, max_step_tokens) = 256 sequences.
    // silu_mul's: two inputs and an output of 8192 x (28672 / 2) x 2 B =
    // 3 x 234,881,024 = 704,643,072 B (gate's and down's 369,098,752; the
    // logits' at 256: 256 x 8192 x 2 + 256 x 64,128 x 2 = 37,027,840).
    CHECK(h100.reserve_bytes == 704643072.0);
    // KV: 2 (K, V) x 80 layers x (8 / 2) heads x 128 x 2 B = 163,840 B a token.
    CHECK(h100.kv_bytes_per_token == 163840.0);
    // H100, 81008 MiB = 84,943,044,608 B (the 79.11 GiB the driver reports):
    // floor((0.9 x 84,943,044,608 - 70,555,025,408 - 704,643,072) / 163,840)
    // = floor(5,189,071,667.2 / 163,840) = floor(31,671.6) = 31,671: 13 whole
    // requests of 2048 + 256.
    CHECK(h100.kv_capacity_tokens == 31671);
    CHECK(h100.problem.empty());
    // H200, 143155 MiB = 150,108,897,280 B: floor((135,098,007,552 -
    // 71,259,668,480) / 163,840) = floor(389,638.8) = 389,638.
    CHECK(h200.kv_capacity_tokens == 389638);
    CHECK(h200.problem.empty());
    CHECK(h200.requests == 1800);  // 2,000 less the default warm-up of 200
}
