// On-chip operands, read factors, swept FLOPs and kernels (docs/fusion.md)
// against numbers worked out by hand: the book's VMEM problem (tpus.md), a
// kernel's sums, and the time of the max of the sums rather than the sum of
// the maxes.
#include "helpers.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/expected.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;

namespace {

struct Run {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;

    engine::Case const& find(std::string const& op, std::vector<double> const& at = {}) const {
        auto const& s = checked->scenario;
        for (auto const& c : evaluation.cases) {
            if (s.ops[c.op].name != op) continue;
            bool same = true;
            for (std::size_t v = 0; v < at.size(); ++v)
                same = same && evaluation.sweep_value(c, v) == at[v];
            if (same) return c;
        }
        FAIL("no case " << op);
        throw;
    }
    double critical(std::string const& op, std::size_t sweep = 0) const {
        return evaluation.critical_value(find(op), sweep);
    }
};

Run run(std::string const& text) {
    Run r;
    r.checked = test::check_text(text);
    INFO(r.checked->errors());
    REQUIRE_FALSE(r.checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r.checked->scenario, r.checked->diagnostics);
    INFO(r.checked->errors());
    REQUIRE(evaluation);
    r.evaluation = std::move(*evaluation);
    return r;
}

// The book's TPU v5e (tpus.md): 3.94e14 int8 OP/s, 8.1e11 B/s of HBM, and
// VMEM at 22 x that.
constexpr char const* v5e = R"(
hardware v5e { hbm_bandwidth = 8.1e11 B/s  peak int8 = 3.94e14 OP/s
               onchip_capacity = 128 MiB  onchip_bandwidth = 22 * 8.1e11 B/s }
target v5e
)";

}  // namespace

TEST_CASE("tpus.md: int8 [B, 4096] x [4096, 16384] is compute-bound from B = 263 out of HBM, "
          "B = 12 out of VMEM",
          "[fusion]") {
    auto r = run(std::string(v5e) + R"(
        let D = 4096
        let F = 16384
        sweep B = [1, 11, 12, 262, 263]
        matmul hbm  = int8[B, D] * weight int8[D, F] -> int8[B, F]
        matmul vmem = int8[B, D] * weight onchip int8[D, F] -> int8[B, F])");
    // Out of HBM: 2 B D F / 3.94e14 >= (B D + D F + B F) / 8.1e11, that is
    // B (2 D F 8.1e11 - 3.94e14 (D + F)) >= 3.94e14 D F:
    // B >= 3.94e14 * 67108864 / (134217728 * 8.1e11 - 3.94e14 * 20480) = 262.7.
    CHECK(r.critical("hbm") == 263);
    CHECK(r.find("hbm", {262}).metrics.bound == engine::Bound::memory);
    CHECK(r.find("hbm", {263}).metrics.bound == engine::Bound::compute);
    // Out of VMEM the weights are on-chip traffic: HBM carries B (D + F),
    // far below the math at any B; the weights' D F bytes at 1.782e13 B/s
    // against 2 B D F / 3.94e14: B >= 3.94e14 / (2 * 1.782e13) = 11.05.
    auto const& one = r.find("vmem", {1}).metrics;
    CHECK(one.counts.bytes_read == 4096);
    CHECK(one.counts.bytes_written == 16384);
    CHECK(one.counts.bytes_onchip == 4096.0 * 16384);
    CHECK(one.t_onchip == 4096.0 * 16384 / (22 * 8.1e11));
    CHECK(one.bound == engine::Bound::onchip);
    CHECK(one.t_lower == one.t_onchip);
    CHECK(one.t_upper == one.t_math + one.t_comms + one.t_onchip);
    CHECK(r.critical("vmem") == 12);
    CHECK(r.find("vmem", {11}).metrics.bound == engine::Bound::onchip);
    CHECK(r.find("vmem", {12}).metrics.bound == engine::Bound::compute);
    // The intensity is against HBM: 2 B D F / (B (D + F)) = 2 D F / (D + F).
    CHECK(one.intensity == 2.0 * 4096 * 16384 / (4096 + 16384));
}

TEST_CASE("a chip without an onchip_bandwidth counts on-chip traffic as free", "[fusion]") {
    auto r = run(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        let T = 64
        let D = 4096
        let F = 4096
        matmul up = bf16[T, D] * weight onchip bf16[D, F] -> bf16[T, F])");
    auto const& m = r.find("up").metrics;
    CHECK(m.counts.bytes_onchip == 2.0 * 4096 * 4096);
    CHECK(m.t_onchip == 0);
    CHECK(m.bound == engine::Bound::compute);  // 2 T D^2 / 1e15 against 4 T D / 1e12
    CHECK(test::contains(r.checked->errors(), "warning: hardware 'chip' has no onchip_bandwidth"));
}

TEST_CASE("a kernel is one case: its members' sums, the max of the sums", "[fusion]") {
    // A chip of 1e15 FLOP/s, 1e12 B/s of HBM, 1e13 B/s on chip; M = N = 1024
    // (written N below).
    auto r = run(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 1e13 B/s }
        target chip
        let M = 1024
        let N = 1024
        let D = 256
        kernel k {
            matmul a = bf16[M, D] * weight bf16[D, N] -> onchip bf16[M, N]
            elementwise b = onchip bf16[M, N] -> bf16[M, N] flops 100
        }
        matmul a_alone = bf16[M, D] * weight bf16[D, N] -> bf16[M, N]
        elementwise b_alone = bf16[M, N] -> bf16[M, N] flops 100)");
    double N = 1024, D = 256;
    auto const& k = r.find("k").metrics;
    // a: 2 N D N FLOPs, reads 2 N D + 2 D N from HBM, writes 2 N N on chip;
    // b: 100 N N FLOPs, reads 2 N N on chip, writes 2 N N to HBM.
    CHECK(k.counts.flops == 2 * N * D * N + 100 * N * N);
    CHECK(k.counts.bytes_read == 2 * N * D + 2 * D * N);
    CHECK(k.counts.bytes_written == 2 * N * N);
    CHECK(k.counts.bytes_onchip == 2 * N * N + 2 * N * N);
    double t_math = (2 * N * D * N + 100 * N * N) / 1e15;  // 5.4e-7 + 1.0e-7
    double t_comms = (4 * N * D + 2 * N * N) / 1e12;
    CHECK(k.t_math == Approx(t_math).epsilon(1e-15));
    CHECK(k.t_comms == Approx(t_comms).epsilon(1e-15));
    CHECK(k.t_lower == std::max({k.t_math, k.t_comms, k.t_onchip}));
    // Alone, each op is memory-bound on its own traffic (b writes and reads N^2
    // in HBM): the sum of their maxima is more than the kernel's max of sums.
    auto const& a = r.find("a_alone").metrics;
    auto const& b = r.find("b_alone").metrics;
    CHECK(a.t_lower + b.t_lower > k.t_lower);
    CHECK(k.counts.flops == a.counts.flops + b.counts.flops);
    // One roofline point: the kernel's intensity is its FLOPs over its HBM bytes.
    CHECK(k.intensity == k.counts.flops / (k.counts.bytes_read + k.counts.bytes_written));
}

TEST_CASE("a read factor and FLOPs per element may follow the sweeps", "[fusion]") {
    auto r = run(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 1e13 B/s }
        target chip
        let KV = 8
        let Hd = 128
        sweep T = [128, 1000, 2048]
        let S = T
        kernel attn {
            matmul scores = bf16[T, KV, Hd] * cache bf16[S, KV, Hd] x ceil(T / 128) -> onchip bf16[KV, T, S]
            elementwise softmax = onchip bf16[KV, T, S] -> onchip bf16[KV, T, S] flops 5 * S / S
            matmul values = onchip bf16[KV, T, S] * cache bf16[S, KV, Hd] x ceil(T / 128) -> bf16[T, KV, Hd]
                            flops 2 - (T - 1) / T
        })");
    for (double T : {128.0, 1000.0, 2048.0}) {
        auto const& m = r.find("attn", {T}).metrics;
        double reads = std::ceil(T / 128);  // 1, 8, 16
        double kv = 2 * T * 8 * 128;        // bytes of K (and of V)
        CHECK(m.counts.bytes_read == 2 * T * 8 * 128 + 2 * reads * kv);
        CHECK(m.counts.bytes_written == 2 * T * 8 * 128);
        // scores over the square; values with the causal factor (T + 1) / T,
        // exactly KV T (T + 1) Hd FLOPs even at T = 1000, where (T + 1) / T is
        // no binary fraction; softmax 5 per element.
        CHECK(m.counts.flops == 2 * T * 8 * 128 * T + 8 * T * (T + 1) * 128 + 5 * 8 * T * T);
    }
}

TEST_CASE("a request needs its phases' values, and i is the decode step", "[fusion]") {
    auto checked = test::check_text(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        let D = 1024
        let E = 1024
        request chat(prompt = 100, output = 3) {
            prefill: matmul p = bf16[prompt, D] * weight bf16[D, E] -> bf16[prompt, E]
            decode:  let S = prompt + i
                     matmul q = bf16[D] * cache bf16[S, D] -> bf16[S]
        })");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto results = engine::evaluate_requests(checked->scenario, *grid, checked->diagnostics);
    REQUIRE(results);
    REQUIRE(results->size() == 1);
    auto const& r = results->front();
    // Prefill: 2 x 100 x 1024^2 FLOPs (2.097e-7 s) against 2 (100 D + D^2 + 100 D) bytes
    // (2.507e-6 s): memory-bound.
    double D = 1024;
    CHECK(r.ttft == 2 * (100 * D + D * D + 100 * D) / 1e12);
    // Decode step i reads the cache of S = 100 + i rows and the query, writes
    // S scores: 2 (D + S D + S) bytes, memory-bound; the sum over i = 1..3 is
    // 2 (3 D + (101 + 102 + 103)(D + 1)) / 1e12.
    for (int i = 1; i <= 3; ++i)
        CHECK(r.per_token[static_cast<std::size_t>(i - 1)] == Approx(2 * (D + (100 + i) * (D + 1)) / 1e12).epsilon(1e-15));
    CHECK(r.decode_total == Approx(2 * (3 * D + 306 * (D + 1)) / 1e12).epsilon(1e-15));
    CHECK(r.e2e == Approx(r.ttft + r.decode_total).epsilon(1e-15));
    CHECK(r.tokens_per_s == Approx(3 / r.e2e).epsilon(1e-15));
    CHECK(r.cache_bytes == 2 * 103 * D);  // the cache at its longest, i = 3
}

TEST_CASE("an expert operand may be held on chip in a kernel, as a weight may: prefetched, not written",
          "[fusion]") {
    // A chip of 1e15 FLOP/s, 1e12 B/s of HBM, 1e13 B/s on chip; A = 2 experts
    // of D x F = 64 x 128 read on chip: 2 x 64 x 128 x 2 = 32,768 on-chip bytes,
    // and the expert matmul is of the expert class.
    auto r = run(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 1e13 B/s }
        target chip
        let A = 2
        let C = 4
        let D = 64
        let F = 128
        kernel moe {
            matmul gate = bf16[A, C, D] * expert onchip bf16[A, D, F] -> onchip bf16[A, C, F]
            elementwise act = onchip bf16[A, C, F] -> bf16[A, C, F] flops 5
        })");
    auto const& k = r.find("moe").metrics;
    // On chip: the experts (32,768 B) and gate's output written and read
    // (2 x 2 x 4 x 128 x 2 = 4,096 B).
    CHECK(k.counts.bytes_onchip == 32768 + 4096);
    auto const& ops = r.checked->scenario.ops;
    REQUIRE(ops.size() == 1);
    CHECK(engine::op_class(ops[0]) == model::OpClass::expert);
}
