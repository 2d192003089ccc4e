// The block-scaled dtypes count their scales in their bytes (docs/language.md,
// section 7); expected bytes by hand from each format's layout.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;

namespace {

// The one case of op `name` (one target, no sweep).
engine::Metrics const& metrics_of(test::Checked const& c, engine::Evaluation const& e,
                                  std::string const& name) {
    for (auto const& k : e.cases)
        if (c.scenario.ops[k.op].name == name) return k.metrics;
    FAIL("no case " << name);
    throw;
}

}  // namespace

TEST_CASE("block-scaled dtypes: bytes per element include the scales", "[dtypes]") {
    auto c = test::check_text(R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak nvfp4 = 4e15 FLOP/s }
        target chip
        let M = 16
        let K = 128
        let N = 128
        matmul nv  = nvfp4[M, K] * nvfp4[K, N] -> bf16[M, N]
        matmul mx  = bf16[M, K] * mxfp4[K, N] -> bf16[M, N]
        matmul blk = bf16[M, K] * fp8_block[K, N] -> bf16[M, N]
        matmul wo  = bf16[M, K] * int4_wo[K, N] -> bf16[M, N])");
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    auto e = engine::evaluate(c->scenario, c->diagnostics);
    REQUIRE(e);
    double out = 16.0 * 128 * 2;  // the bf16 output, 4096 bytes
    // nvfp4: 4 bits + one 8-bit scale per 16 values = 4.5 bits = 9/16 byte:
    // (16 x 128 + 128 x 128) x 9/16 = 18432 x 9/16 = 10368.
    auto const& nv = metrics_of(*c, *e, "nv");
    CHECK(nv.counts.bytes_read == 10368);
    CHECK(nv.counts.bytes_written == out);
    CHECK(nv.bound != engine::Bound::unsupported);  // the chip has an nvfp4 peak
    // mxfp4: 4 + 8/32 = 4.25 bits = 17/32 byte: 16384 x 17/32 = 8704, plus the
    // bf16 input, 16 x 128 x 2 = 4096. bf16 is the wider input: it computes in
    // bf16 (supported without an mxfp4 peak).
    CHECK(metrics_of(*c, *e, "mx").counts.bytes_read == 8704 + 4096);
    CHECK(metrics_of(*c, *e, "mx").bound != engine::Bound::unsupported);
    // fp8_block: one fp32 scale per 128 x 128 block: the 128 x 128 weight is
    // one block, 16384 + 4 bytes.
    CHECK(metrics_of(*c, *e, "blk").counts.bytes_read == 16384 + 4 + 4096);
    // int4_wo: 4-bit weights, one bf16 scale per 128: 16384 / 2 + 128 x 2 =
    // 8192 + 256; it computes in bf16, as weight-only kernels do.
    auto const& wo = metrics_of(*c, *e, "wo");
    CHECK(wo.counts.bytes_read == 8192 + 256 + 4096);
    CHECK(wo.bound != engine::Bound::unsupported);
}

TEST_CASE("a block-scaled dtype's name is built in: a dtype statement cannot redefine it",
          "[dtypes]") {
    auto c = test::check_text(R"(
        dtype nvfp4 = 4 bits
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        let M = 1
        matmul m = bf16[M, M] * bf16[M, M] -> bf16[M, M])");
    CHECK(test::contains(c->errors(), "redefinition of built-in dtype 'nvfp4'"));
}
