// The worked example of docs/serving.md (scenarios/llama3-70b-serve.roof,
// Llama 3.1 70B) at TP 2 in bf16: the memory of a replica by hand, the H100
// that cannot hold one request and the H200 that can.
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
    // Reserve: the largest linear op's activations at 8192 tokens, the LM
    // head's: input 8192 x 8192 x 2 B + output 8192 x (128256 / 2) x 2 B =
    // 134,217,728 + 1,050,673,152 = 1,184,890,880 B.
    CHECK(h100.reserve_bytes == 1184890880.0);
    // KV: 2 (K, V) x 80 layers x (8 / 2) heads x 128 x 2 B = 163,840 B a token.
    CHECK(h100.kv_bytes_per_token == 163840.0);
    // H100, 80 GB: floor((0.9 x 80e9 - 70,555,025,408 - 1,184,890,880) / 163,840)
    // = floor(260,083,712 / 163,840) = 1,587 < 2048 + 256: its row's problem.
    CHECK(h100.kv_capacity_tokens == 1587);
    CHECK(h100.problem == "a prompt of 2048 and an output of 256 tokens need 2304 KV tokens, the cache "
                          "holds 1587 on hardware 'h100_sxm'");
    // H200, 141 GB: floor((126.9e9 - 71,739,916,288) / 163,840) = floor(336,670.4) = 336,670.
    CHECK(h200.kv_capacity_tokens == 336670);
    CHECK(h200.problem.empty());
    CHECK(h200.requests == 1800);  // 2,000 less the default warm-up of 200
}
