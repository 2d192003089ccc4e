// Disaggregated prefill and decode (docs/serving.md): the pools' syntax and
// its errors at line:col, the two-pool scheduler against times worked out by
// hand with synthetic step costs and transfers, and a tiny scenario end to
// end (its chips and its transfer by hand).
#include "helpers.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/serve.hpp"
#include "roofline/report/serve_columns.hpp"
#include "roofline/cli/format.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::engine::serving;
using Catch::Matchers::WithinRel;
using test::contains;

namespace {

// Lines 1-2: the chip, the target and sizes; line 3 the sweep; `serve chat {`
// line 4; its settings line 5; its parts lines 6 to 9; the pools from line 10.
std::string const head =
    "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
    "target chip  let D = 64  let F = 128  let H = 4\n"
    "sweep TP = [2, 4, 8]\n";
std::string const settings = "prompt = 2048 output = 256 arrivals = poisson(20)\n";
std::string const parts =
    "linear: let N = tokens matmul up = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]\n"
    "decode: matmul qk = bf16[H, D] * cache bf16[context, D] -> bf16[H, context]\n"
    "prefill: let K = start + chunk\n"
    "matmul pq = bf16[chunk, D] * cache bf16[K, D] -> bf16[chunk, K]\n";

std::string pools_text(std::string const& pools, std::string const& set = settings) {
    return head + "serve chat {\n" + set + parts + pools + "}\n";
}

void expect_error(std::string const& text, std::string const& message) {
    auto checked = test::check_text(text);
    INFO(checked->errors());
    CHECK(checked->diagnostics.has_errors());
    CHECK(contains(checked->errors(), message));
}

StepCost affine(double a, double b) {
    return [a, b](StepWork const& work) { return a + b * static_cast<double>(work.tokens); };
}

}  // namespace

TEST_CASE("serve pools: replicas and sweep values as written", "[serve-disagg]") {
    auto checked = test::check_text(pools_text("prefill_pool(replicas = 1, TP = 4)\n"
                                               "decode_pool(replicas = 3, TP = 8)\n"));
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& serve = *checked->scenario.serve;
    REQUIRE(serve.prefill_pool);
    REQUIRE(serve.decode_pool);
    CHECK(serve.prefill_pool->replicas == 1);
    CHECK(serve.decode_pool->replicas == 3);
    // TP is sweep 0.
    REQUIRE(serve.prefill_pool->values.size() == 1);
    CHECK(serve.prefill_pool->values[0] == std::pair<int, double>{0, 4});
    CHECK(serve.decode_pool->values[0] == std::pair<int, double>{0, 8});
    // Neither pool: aggregated.
    auto plain = test::check_text(pools_text(""));
    REQUIRE_FALSE(plain->diagnostics.has_errors());
    CHECK_FALSE(plain->scenario.serve->prefill_pool);
}

TEST_CASE("serve pools: errors at the token", "[serve-disagg]") {
    // "prefill_pool(replicas = 1, " is 27 characters: Tp at column 28.
    expect_error(pools_text("prefill_pool(replicas = 1, Tp = 4)\ndecode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:28: error: 'Tp' is not a sweep of the scenario: a pool takes replicas and values "
                 "of sweeps (e.g. TP = 4); did you mean 'TP'?");
    // "prefill_pool(replicas = 1, TP = " is 32 characters: the 3 at column 33.
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 3)\ndecode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:33: error: sweep TP has no value 3 (its values are 2, 4, 8)");
    // "decode_pool(replicas = " is 23 characters: the value at column 24, line 11.
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 4)\ndecode_pool(replicas = 1.5, TP = 8)\n"),
                 "test.roof:11:24: error: replicas must be a positive whole number of at most 1,000,000, not 1.5");
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 4)\ndecode_pool(replicas = 0, TP = 8)\n"),
                 "test.roof:11:24: error: replicas must be a positive whole number of at most 1,000,000, not 0");
    expect_error(pools_text("decode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:1: error: decode_pool without a prefill_pool: disaggregated serving needs both pools");
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 4)\ndecode_pool(replicas = 1, TP = 8)\n"
                            "prefill_pool(replicas = 2, TP = 2)\n"),
                 "test.roof:12:1: error: the serve has a prefill_pool already");
    expect_error(pools_text("prefil_pool(replicas = 1, TP = 4)\ndecode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:1: error: a serve's pools are prefill_pool(...) and decode_pool(...), not "
                 "'prefil_pool(...)'; did you mean 'prefill_pool'?");
    expect_error(pools_text("prefill_pool(TP = 4)\ndecode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:1: error: prefill_pool needs its replica count: write replicas = N");
    // "prefill_pool(replicas = 1, TP = 4, " is 35 characters: the second TP at column 36.
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 4, TP = 2)\ndecode_pool(replicas = 1, TP = 8)\n"),
                 "test.roof:10:36: error: 'TP' is given twice in prefill_pool");
    expect_error(pools_text("prefill_pool(replicas = 1, TP = 4)\ndecode_pool(replicas = 1, TP = 8)\n",
                            "prompt = 2048 output = 256 arrivals = closed(4)\n"),
                 "test.roof:10:1: error: pools need open-loop arrivals, poisson(R)");
}

TEST_CASE("disaggregated: one request through one prefill and one decode replica", "[serve-disagg]") {
    // Step cost 0.01 s + 1 ms per token on both pools; a prompt of 100
    // tokens, an output of 4. Prefill: one step of 100 tokens = 0.01 + 0.1
    // = 0.11 s, so TTFT = 0.11 s. Transfer: 1000 B per token x 100 tokens
    // over 1e6 B/s = 0.1 s, plus a latency of 0.01 s = 0.11 s: the request
    // arrives at the decode replica at 0.22 s. There it decodes 3 tokens,
    // one step of 1 token each (0.011 s) at contexts 101, 102, 103: finish
    // = 0.22 + 0.033 = 0.253 s, TPOT = (0.253 - 0.11) / 3 = 0.143 / 3 s.
    PoolSpec prefill{1, {}, affine(0.01, 0.001)}, decode{1, {}, {}};
    prefill.settings.kv_capacity_tokens = decode.settings.kv_capacity_tokens = 1e6;
    decode.settings = prefill.settings;
    std::vector<std::vector<std::uint32_t>> contexts;
    decode.cost = [&contexts](StepWork const& work) {
        contexts.emplace_back(work.contexts.begin(), work.contexts.end());
        CHECK(work.chunks.empty());
        return 0.01 + 0.001 * static_cast<double>(work.tokens);
    };
    auto transfer = [](std::uint32_t prompt) { return 1000.0 * prompt / 1e6 + 0.01; };
    auto sim = simulate_disaggregated({RequestSpec{0, 100, 4}}, prefill, decode, transfer);
    INFO(sim.problem);
    REQUIRE(sim.problem.empty());
    REQUIRE(sim.requests.size() == 1);
    auto const& r = sim.requests[0];
    CHECK_THAT(r.first_token, WithinRel(0.11, 1e-12));
    CHECK_THAT(sim.transfer_seconds[0], WithinRel(0.11, 1e-12));
    REQUIRE(sim.decode.size() == 1);
    // The first decode starts at TTFT + transfer: the decode replica's arrival.
    CHECK_THAT(sim.decode[0].requests[0].arrival, WithinRel(0.22, 1e-12));
    CHECK(contexts == std::vector<std::vector<std::uint32_t>>{{101}, {102}, {103}});
    CHECK_THAT(r.finish, WithinRel(0.253, 1e-12));
    CHECK_THAT((r.finish - r.first_token) / (r.output - 1), WithinRel(0.143 / 3, 1e-12));
    CHECK(sim.prefill[0].steps == 1);
    CHECK(sim.decode[0].steps == 3);
    // The prefill replica reserved prompt + 1 tokens; the decode one prompt + output.
    CHECK(sim.prefill[0].peak_kv_tokens == 101);
    CHECK(sim.decode[0].peak_kv_tokens == 104);
}

TEST_CASE("disaggregated: round-robin over two prefill and two decode replicas", "[serve-disagg]") {
    // Four requests arriving at 0, 1, 2, 3 s (given out of order), prompt 10,
    // output 2; every step 0.1 s, every transfer 0.05 s. Prefill replica 1
    // gets the 1st and 3rd arrivals (0, 2), replica 2 the 2nd and 4th (1, 3):
    // first tokens at 0.1, 1.1, 2.1, 3.1. In that order the decode replicas
    // get 1, 3 (arriving 0.15, 2.15) and 2, 4 (1.15, 3.15); one decode step
    // each: finishes 0.25, 1.25, 2.25, 3.25, TPOT 0.15 s.
    PoolSpec prefill{2, {}, [](StepWork const&) { return 0.1; }};
    prefill.settings.kv_capacity_tokens = 1e6;
    PoolSpec decode = prefill;
    std::vector<RequestSpec> requests = {{2, 10, 2}, {0, 10, 2}, {3, 10, 2}, {1, 10, 2}};
    auto sim = simulate_disaggregated(requests, prefill, decode, [](std::uint32_t) { return 0.05; });
    REQUIRE(sim.problem.empty());
    REQUIRE(sim.prefill.size() == 2);
    REQUIRE(sim.decode.size() == 2);
    auto arrivals = [](Simulation const& s) {
        std::vector<double> a;
        for (auto const& r : s.requests) a.push_back(r.arrival);
        return a;
    };
    CHECK(arrivals(sim.prefill[0]) == std::vector<double>{0, 2});
    CHECK(arrivals(sim.prefill[1]) == std::vector<double>{1, 3});
    auto near = [](std::vector<double> const& got, std::vector<double> const& want) {
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) CHECK_THAT(got[i], WithinRel(want[i], 1e-12));
    };
    near(arrivals(sim.decode[0]), {0.15, 2.15});
    near(arrivals(sim.decode[1]), {1.15, 3.15});
    REQUIRE(sim.requests.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        double const arrival = static_cast<double>(i);
        CHECK(sim.requests[i].arrival == arrival);
        CHECK_THAT(sim.requests[i].first_token, WithinRel(arrival + 0.1, 1e-12));
        CHECK_THAT(sim.requests[i].finish, WithinRel(arrival + 0.25, 1e-12));
    }
    CHECK_THAT(sim.end, WithinRel(3.25, 1e-12));
}

TEST_CASE("disaggregated: an output of 1 never moves, a prompt too big for the decode cache", "[serve-disagg]") {
    // Output 1: finished at the prefill's step end (0.1 s), no transfer.
    PoolSpec prefill{1, {}, [](StepWork const&) { return 0.1; }};
    prefill.settings.kv_capacity_tokens = 1e6;
    PoolSpec decode = prefill;
    auto sim = simulate_disaggregated({RequestSpec{0, 10, 1}}, prefill, decode, [](std::uint32_t) { return 1.0; });
    REQUIRE(sim.problem.empty());
    CHECK(sim.requests[0].finish == 0.1);
    CHECK(sim.transfer_seconds[0] == 0);
    CHECK(sim.decode[0].requests.empty());
    // 10 + 5 tokens do not fit a decode cache of 12 (the prefill's 11 do).
    decode.settings.kv_capacity_tokens = 12;
    auto tight = simulate_disaggregated({RequestSpec{0, 10, 5}}, prefill, decode, [](std::uint32_t) { return 1.0; });
    CHECK(tight.problem == "decode replica 1: request 1 needs 10 + 5 = 15 KV tokens, but the cache holds 12");
}

namespace {

// A tiny scenario: a sweep TP = [1, 2] of the mesh, one prefill replica at
// TP 1 and two decode replicas at TP 2. Counts per chip (D = F = 1000, bf16):
//   linear  proj   = [N, D] x weight [D, F@tp]: flops 2e6 N / TP,
//           bytes 2 (1000 N + 1e6 / TP + 1000 N / TP)
//   decode  scores = [1, D] x cache [S, D]: bytes 2 (1000 + 1000 S + S) = 2000 + 2002 S
//   prefill att    = [T, D] x cache [P + T, D]: bytes 2 (1000 T + 1000 (P + T) + T (P + T))
// The KV cache per token per chip: the decode part's cache operand [S, D]
// grows by 2 x 1000 = 2000 B per position (replicated: the same at any TP).
std::string disagg_scenario(std::string const& domain) {
    return "hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e9 B\n"
           "  nvlink_bandwidth = 1e11 B/s  nvlink_domain = " + domain + "  nvlink_latency = 1 us\n"
           "  dcn_bandwidth = 1e10 B/s  dcn_latency = 10 us }\n"
           "target toy\n"
           "let D = 1000\nlet F = 1000\nlet B = 1\n"
           "sweep TP = [1, 2]\n"
           "mesh tp = TP over nvlink\n"
           "serve chat {\n"
           "  prompt = 100  output = 3  arrivals = poisson(1)  requests = 1  warmup = 0\n"
           "  prefill_pool(replicas = 1, TP = 1)\n"
           "  decode_pool(replicas = 2, TP = 2)\n"
           "  linear: let N = tokens\n  matmul proj = bf16[N, D] * weight bf16[D, F@tp] -> bf16[N, F@tp]\n"
           "  decode: matmul scores = bf16[B, D] * cache bf16[context, D] -> bf16[B, context]\n"
           "  prefill: let K = start + chunk\n"
           "  matmul att = bf16[chunk, D] * cache bf16[K, D] -> bf16[chunk, K]\n"
           "}\n";
}

std::vector<engine::ServeResult> serve_of(test::Checked& checked) {
    auto grid = engine::prepare(checked.scenario, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(grid);
    auto results = engine::evaluate_serve(checked.scenario, *grid, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(results);
    return std::move(*results);
}

}  // namespace

TEST_CASE("disaggregated end to end: a TP sweep and both pools", "[serve-disagg]") {
    auto checked = test::check_text(disagg_scenario("8"));
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const results = serve_of(*checked);
    // Two points (TP 1, TP 2), one target; the pools set TP, so both are the same group.
    REQUIRE(results.size() == 2);
    auto const& r = results[0];
    INFO(r.problem);
    REQUIRE(r.problem.empty());
    CHECK(r.pools == "1 x TP 1 prefill + 2 x TP 2 decode");
    // chips = 1 x 1 + 2 x 2 = 5, inside the NVLink domain of 8.
    CHECK(r.chips == 5);
    CHECK(r.link == "nvlink");
    // Transfer: 2000 B per token per chip of the prefill pool x 100 tokens
    // over 1e11 B/s = 2 us, plus 1 us of latency = 3 us.
    CHECK_THAT(r.transfer_seconds, WithinRel(3e-6, 1e-9));
    // TTFT: the prefill step on TP 1 at tokens 100, one chunk of 100 at 0:
    //   proj: bytes 2 (1e5 + 1e6 + 1e5) = 2.4e6 -> 2.4e-6 s (flops 2e8: 2e-7 s)
    //   att: bytes 2 (1e5 + 1e5 + 1e4) = 4.2e5 -> 4.2e-7 s (flops 2e7: 2e-8 s)
    //   = 2.82e-6 s.
    CHECK_THAT(r.ttft.mean, WithinRel(2.82e-6, 1e-9));
    // The decodes on TP 2, one sequence, at contexts 101 and 102:
    //   proj at N = 1: bytes 2 (1000 + 5e5 + 500) = 1.003e6 -> 1.003e-6 s
    //   scores: 2000 + 2002 x 101 = 204,202 B -> 2.04202e-7 s; at 102: 2.06204e-7 s
    //   TPOT = (3e-6 + 1.207202e-6 + 1.209204e-6) / 2 = 2.708203e-6 s.
    CHECK_THAT(r.tpot.mean, WithinRel(2.708203e-6, 1e-9));
    CHECK(results[1].chips == 5);
    // A domain of 4 does not hold the 5 chips: DCN, 2e5 B / 1e10 B/s + 10 us = 30 us.
    auto dcn = test::check_text(disagg_scenario("4"));
    REQUIRE_FALSE(dcn->diagnostics.has_errors());
    auto const over_dcn = serve_of(*dcn);
    CHECK(over_dcn[0].link == "dcn");
    CHECK_THAT(over_dcn[0].transfer_seconds, WithinRel(3e-5, 1e-9));
    CHECK_THAT(over_dcn[0].tpot.mean, WithinRel((3e-5 + 1.207202e-6 + 1.209204e-6) / 2, 1e-9));
}

TEST_CASE("disaggregated: a calibration's per-request terms add to TTFT and e2e, its traffic terms do not",
          "[serve-disagg][expected]") {
    // The scenario above (TP 1 prefill, TTFT 2.82e-6 s; TPOT 2.708203e-6 s)
    // with a calibration of nothing but request_overhead = 1e-6 s,
    // prompt_token_overhead = 1e-8 s (x 100 prompt tokens = 1e-6 s),
    // request_launch = 5e-7 s (x 2 kernels of the prefill's forward, proj
    // and att: 1e-6 s) and first_token_steps = 3, which a disaggregated
    // replica does not take: TTFT and e2e gain 3e-6 s, TPOT nothing.
    auto checked = test::check_text(disagg_scenario("8"));
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const plain = serve_of(*checked);
    model::Calibration c;
    c.name = "only";
    c.hardware = "toy";
    c.request_overhead_s = 1e-6;
    c.prompt_token_overhead_s = 1e-8;
    c.request_launch_s = 5e-7;
    c.first_token_steps = 3;
    checked->scenario.calibrations = {c};
    checked->scenario.target_calibrations = {0};
    auto const r = serve_of(*checked);
    REQUIRE(r.size() == 2);
    REQUIRE(r[0].problem.empty());
    CHECK_THAT(r[0].ttft.mean, WithinRel(2.82e-6 + 3e-6, 1e-9));
    CHECK_THAT(r[0].tpot.mean, WithinRel(2.708203e-6, 1e-9));
    CHECK_THAT(r[0].e2e.mean, WithinRel(plain[0].e2e.mean + 3e-6, 1e-9));
}

TEST_CASE("disaggregated fleet: the ratio of the fewest chips", "[serve-disagg]") {
    // One request per probe never queues and meets a 1 s TTFT at any rate, so
    // every ratio serves the whole fleet rate with one group (the bisection
    // doubles past 10 /s): the fewest chips are the smallest group, 1 x TP 1
    // prefill + 1 x TP 2 decode = 1 + 2 = 3 chips, however many replicas the
    // statement wrote (1 and 2).
    auto checked = test::check_text(disagg_scenario("8") + "slo ttft_p99 <= 1 s\nfleet rate = 10 /s\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto rows = engine::plan_fleet(checked->scenario, *grid, checked->diagnostics);
    INFO(checked->errors());
    REQUIRE(rows);
    // The pools fix TP: one configuration (TP at its first value), one target.
    REQUIRE(rows->size() == 1);
    auto const& row = rows->front();
    INFO(row.why_none);
    CHECK(row.max_rate >= 10);
    CHECK(row.replicas == 1);
    CHECK(row.prefill_replicas == 1);
    CHECK(row.decode_replicas == 1);
    CHECK(row.chips == 3);
    CHECK(row.pools == "1 x TP 1 prefill + 1 x TP 2 decode");
    CHECK(row.fewest_chips);
    // The pools' grid points: TP 1 is the sweep's first value, TP 2 its second.
    CHECK(row.prefill_point == 0);
    CHECK(row.decode_point == 1);

    // The outputs: the pools' columns, the group's 3 chips, a launch line per pool.
    auto serve = engine::evaluate_serve(checked->scenario, *grid, checked->diagnostics);
    REQUIRE(serve);
    report::ReportInfo info{"pools", 1, "2026-12-02T20:00:00Z", std::string(64, 'c'), "9.9.9"};
    report::ReportContext context{checked->scenario, *grid, info, nullptr, &*serve, &*rows};
    std::vector<std::string> names;
    for (auto const& c : report::serve_columns(checked->scenario)) names.push_back(c.csv);
    CHECK(std::find(names.begin(), names.end(), "pools") != names.end());
    CHECK(std::find(names.begin(), names.end(), "transfer_mean") != names.end());
    auto const text = cli::serve_summary(context);
    INFO(text);
    CHECK(text.find("each prefill replica:\n  vLLM:          vllm serve MODEL --tensor-parallel-size 1 ") !=
          std::string::npos);
    CHECK(text.find("each decode replica:\n  vLLM:          vllm serve MODEL --tensor-parallel-size 2 ") !=
          std::string::npos);
    // Without pools, no pools columns.
    auto plain = test::check_text(pools_text(""));
    for (auto const& c : report::serve_columns(plain->scenario)) CHECK(c.csv != "pools");
}
