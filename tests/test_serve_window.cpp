// The KV capacity past a sliding window (docs/serving.md, section 4):
// gpt-oss-120b, whose 18 sliding layers keep their last 128 positions and
// whose 18 full layers keep every position, on one B200, by hand.
#include "gpt_oss_glm_configs.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/serve.hpp"
#include "roofline/importer/import_config.hpp"
#include "roofline/model/load.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace roofline;

namespace {

engine::ServeResult serve_gpt_oss(std::int64_t prompt, std::int64_t output) {
    model::ImportOptions o;
    o.targets = {"b200"};
    o.serve = true;
    o.request = model::ImportRequest{prompt, output};
    auto text = model::import_config(test::gpt_oss_glm_configs::gpt_oss_120b, "gpt-oss-120b.json", o).text;
    // One point: 256 clients at once (max_seqs 256).
    auto at = text.find("sweep R = ");
    text.replace(at, text.find('\n', at) - at, "let R = 1");
    at = text.find("    arrivals = ");
    text.replace(at, text.find('\n', at) - at, "    arrivals = closed(256)");
    Diagnostics diagnostics;
    auto loaded = model::load_scenario("gpt-oss.roof", text, {}, {}, diagnostics);
    auto grid = engine::prepare(loaded.scenario, diagnostics);
    INFO(format(diagnostics));
    REQUIRE(grid);
    auto results = engine::evaluate_serve(loaded.scenario, *grid, diagnostics);
    REQUIRE(results);
    REQUIRE(results->size() == 1);
    return (*results)[0];
}

}  // namespace

TEST_CASE("serve memory: past a sliding window a position costs the full layers only, each sequence its windows",
          "[serve-engine][gpt-oss]") {
    // A position of one layer: K and V, 8 heads x 64 x 2 B = 2,048 B.
    // Up to the window (context 1 -> 2) every layer grows: 36 x 2,048 =
    // 73,728 B. Past it (the longest request, 1,024 + 8,192 = 9,216 > 128)
    // only the 18 full layers: 36,864 B, and each sequence holds its 18
    // windows of 128 positions: 18 x 128 x 2,048 = 4,718,592 B.
    auto const r = serve_gpt_oss(1024, 8192);
    CHECK(r.problem.empty());
    CHECK(r.kv_bytes_per_token == 36864.0);
    CHECK(r.kv_bytes_per_sequence == 4718592.0);
    // The B200's 182,630 MiB = 191,501,434,880 B: capacity =
    // floor((0.9 x HBM - weights - reserve - 256 x 4,718,592) / 36,864),
    // about twice the floor((0.9 x HBM - weights - reserve) / 73,728) of
    // the rate up to the window.
    double const room = 0.9 * 191501434880.0 - r.weight_bytes - r.reserve_bytes;
    CHECK(r.kv_capacity_tokens == std::floor((room - 256 * 4718592.0) / 36864.0));
    CHECK(r.kv_capacity_tokens > 1.9 * std::floor(room / 73728.0));
    // 256 requests of 9,216 tokens all fit: 2,359,296 tokens at the peak.
    CHECK(r.peak_kv_tokens == 256 * 9216.0);

    // Requests within the window (64 + 32 < 128): a position costs every
    // layer, no sequence holds more.
    auto const short_requests = serve_gpt_oss(64, 32);
    CHECK(short_requests.kv_bytes_per_token == 73728.0);
    CHECK(short_requests.kv_bytes_per_sequence == 0);
    CHECK(short_requests.kv_capacity_tokens == std::floor(room / 73728.0));
}
