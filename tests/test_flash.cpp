// Flash attention (templates/layers/dense.roof `flash_attention` and the
// `*_flash` layers; docs/fusion-flash.md) against numbers worked out by hand:
// the kernel's HBM bytes are the queries, K, V and the output; its FLOPs are
// the eager ones (causal: (T + 1) / (2T) of the square); K and V are counted
// per key/value head, never per query head; and against eager attention the
// kernel saves exactly the traffic of the scores.
//
// Llama 3 8B shapes throughout: D 4096, H 32, KV 8 (G = 4 query heads per
// key/value head), Hd 128, F 14336, bf16 (2 bytes) everywhere.
#include "helpers.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <string>

using namespace roofline;
using Catch::Matchers::WithinRel;

namespace {

struct FlashRun {
    Diagnostics diagnostics;
    Program program;
    model::Scenario scenario;
    engine::Evaluation evaluation;
    report::ReportInfo info;
    std::unique_ptr<report::ReportContext> context;
    std::unique_ptr<report::SummaryBuilder> builder;

    std::size_t target(std::string const& id) const {
        for (std::size_t t = 0; t < scenario.targets.size(); ++t)
            if (scenario.hardware[static_cast<std::size_t>(scenario.targets[t])].id == id) return t;
        FAIL("no target " << id);
        return 0;
    }
    std::size_t point(double value) const {
        for (std::size_t p = 0; p < evaluation.point_count; ++p)
            if (evaluation.sweep_value(p, 0) == value) return p;
        FAIL("no point with the first sweep at " << value);
        return 0;
    }
    engine::Case const& find(std::string const& op, std::string const& layer, std::size_t point = 0,
                             std::size_t target = 0) const {
        for (auto const& c : evaluation.cases) {
            auto const& m = scenario.ops[c.op];
            if (m.name == op && m.layer == layer && c.point == point && c.target == target) return c;
        }
        FAIL("no case " << layer << "/" << op);
        throw;
    }
    double bytes(std::string const& op, std::string const& layer, std::size_t point = 0,
                 std::size_t target = 0) const {
        auto const& c = find(op, layer, point, target).metrics.counts;
        return c.bytes_read + c.bytes_written;
    }
    double flops(std::string const& op, std::string const& layer, std::size_t point = 0,
                 std::size_t target = 0) const {
        return find(op, layer, point, target).metrics.counts.flops;
    }
    report::StepTotals step(std::size_t point, std::size_t target) const {
        return report::step_totals(*context, builder->summary(), point, target);
    }
    std::size_t warnings() const {
        std::size_t n = 0;
        for (auto const& d : diagnostics.all())
            if (d.severity == Severity::warning) ++n;
        return n;
    }
};

LoadOptions templates_path() { return LoadOptions{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}}; }

std::unique_ptr<FlashRun> finish(std::unique_ptr<FlashRun> r) {
    r->scenario = model::check(r->program, {}, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE_FALSE(r->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r->scenario, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    r->context = std::make_unique<report::ReportContext>(
        report::ReportContext{r->scenario, r->evaluation, r->info});
    r->builder = std::make_unique<report::SummaryBuilder>(*r->context);
    for (auto const& c : r->evaluation.cases) r->builder->add(c);
    return r;
}

std::unique_ptr<FlashRun> run_text(std::string const& text) {
    auto r = std::make_unique<FlashRun>();
    DiskFileSystem disk;
    r->program = load_program_text("test.roof", text, disk, templates_path(), r->diagnostics);
    return finish(std::move(r));
}

std::unique_ptr<FlashRun> run_scenario(std::string const& name) {
    auto r = std::make_unique<FlashRun>();
    DiskFileSystem disk;
    r->program = load_program(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/" + name, disk,
                              templates_path(), r->diagnostics);
    return finish(std::move(r));
}

// A chip with round numbers: 1e12 B/s HBM, 1e15 bf16 FLOP/s, 1e14 B/s on chip.
constexpr char const* chip = R"(
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 1e14 B/s }
target chip
)";

}  // namespace

TEST_CASE("flash prefill, Llama 3 8B at T = 2048: HBM bytes are Q + K + V + output", "[flash]") {
    auto r = run_text(std::string(R"(include "layers/dense.roof")") + chip + R"(
        use flash_attention(B = 1, T = 2048, S = 2048, D = 4096, H = 32, KV = 8, Hd = 128) as full
        use flash_attention(B = 1, T = 2048, S = 2048, D = 4096, H = 32, KV = 8, Hd = 128,
                            Q = 128) as blocks
        use flash_attention(B = 1, T = 2048, S = 2048, D = 4096, H = 32, KV = 8, Hd = 128,
                            causal = 1) as causal
        use attention(B = 1, T = 2048, S = 2048, D = 4096, H = 32, KV = 8, Hd = 128) as eager)");
    INFO(format(r->diagnostics));
    CHECK(r->warnings() == 0);

    // One prompt of T = 2048 tokens, S = 2048 positions:
    //   queries  [1, 2048, 8, 4, 128] = 2048 x 4096 x 2 B      = 16,777,216 B (read)
    //   K        [1, 2048, 8, 128]    = 2048 x 1024 x 2 B      =  4,194,304 B (read)
    //   V        the same                                      =  4,194,304 B (read)
    //   output   [1, 2048, 8, 4, 128]                          = 16,777,216 B (written)
    //   HBM: read 25,165,824 + written 16,777,216 = 41,943,040 B
    //   = 2048*4096*2 + 2*2048*1024*2 + 2048*4096*2.
    auto const& full = r->find("flash", "full").metrics;
    CHECK(full.counts.bytes_read == 25'165'824.0);
    CHECK(full.counts.bytes_written == 16'777'216.0);
    CHECK(full.counts.bytes_read + full.counts.bytes_written ==
          2048.0 * 4096 * 2 + 2 * 2048.0 * 1024 * 2 + 2048.0 * 4096 * 2);
    // On chip: the scores [1, 8, 4, 2048, 2048] = 134,217,728 elements x 2 B =
    // 268,435,456 B, written by scores, read and written by the softmax, read
    // by values: 4 x 268,435,456 = 1,073,741,824 B.
    CHECK(full.counts.bytes_onchip == 1'073'741'824.0);
    // FLOPs: scores 2 x T x H x S x Hd = 2 x 2048 x 32 x 2048 x 128
    // = 34,359,738,368; values the same; softmax 5 x 32 x 2048 x 2048 =
    // 671,088,640. Total 69,390,565,376.
    CHECK(full.counts.flops == 69'390'565'376.0);
    // Intensity 69,390,565,376 / 41,943,040 = 1654.4 FLOP/B: over 1,000.
    CHECK_THAT(full.intensity, WithinRel(1654.4, 1e-12));
    CHECK(full.intensity > 1000);
    // On the chip: t_math 69.39 us, t_comms 41.94 us, t_onchip 10.74 us; one
    // case, so t_lower is the largest of the sums, compute.
    CHECK_THAT(full.t_math, WithinRel(69'390'565'376.0 / 1e15, 1e-12));
    CHECK_THAT(full.t_comms, WithinRel(41'943'040.0 / 1e12, 1e-12));
    CHECK_THAT(full.t_onchip, WithinRel(1'073'741'824.0 / 1e14, 1e-12));
    CHECK(full.t_lower == full.t_math);
    CHECK(full.bound == engine::Bound::compute);

    // The same FLOPs as the eager scores + softmax + values.
    CHECK(full.counts.flops == r->flops("scores", "eager") + r->flops("softmax", "eager") +
                                   r->flops("values", "eager"));

    SECTION("Q = 128: 16 query blocks, K and V each read 16 times") {
        // read = queries 16,777,216 + 16 x (4,194,304 + 4,194,304) = 150,994,944;
        // the output and the FLOPs do not change.
        auto const& blocks = r->find("flash", "blocks").metrics.counts;
        CHECK(blocks.bytes_read == 16'777'216.0 + 16 * 8'388'608.0);
        CHECK(blocks.bytes_read == 150'994'944.0);
        CHECK(blocks.bytes_written == 16'777'216.0);
        CHECK(blocks.flops == full.counts.flops);
        CHECK(blocks.bytes_onchip == full.counts.bytes_onchip);
    }
    SECTION("causal = 1: (T + 1) / (2T) of the square's FLOPs, the diagonal included") {
        // Token t (0-based) sees t + 1 positions: T (T + 1) / 2 = 2,098,176 of
        // the 4,194,304 (t, s) pairs, 2049 / 4096 of the square.
        //   scores 2 x H x Hd x T (T + 1) / 2 = 32 x 128 x 2048 x 2049
        //          = 17,188,257,792 (34,359,738,368 x 2049 / 4096); values the same
        //   softmax 5 x H x T (T + 1) / 2 = 5 x 32 x 2,098,176 = 335,708,160
        //   total 34,712,223,744.
        auto const& causal = r->find("flash", "causal").metrics;
        CHECK(causal.counts.flops == 34'712'223'744.0);
        CHECK(causal.counts.flops - 335'708'160.0 == 2 * 17'188'257'792.0);
        CHECK((causal.counts.flops - 335'708'160.0) * 4096 ==
              (r->flops("scores", "eager") + r->flops("values", "eager")) * 2049);
        // Bytes do not change (Q = T: K and V read once either way).
        CHECK(causal.counts.bytes_read == full.counts.bytes_read);
        CHECK(causal.counts.bytes_written == full.counts.bytes_written);
        // Intensity 34,712,223,744 / 41,943,040 = 827.6039...: half of 1654.4
        // and a little more (the diagonal).
        CHECK_THAT(causal.intensity, WithinRel(34'712'223'744.0 / 41'943'040.0, 1e-12));
    }
    SECTION("the projections, RoPE and o_proj are the eager ones") {
        for (auto const* op : {"q_proj", "k_proj", "v_proj", "rope_q", "rope_k", "o_proj"}) {
            INFO(op);
            CHECK(r->flops(op, "full") == r->flops(op, "eager"));
            CHECK(r->bytes(op, "full") == r->bytes(op, "eager"));
        }
    }
}

TEST_CASE("flash decode, Llama 3 8B at B = 16, S = 4096: only the scores' traffic differs",
          "[flash]") {
    auto r = run_text(std::string(R"(include "layers/dense.roof")") + chip + R"(
        use dense_decode(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336) as eager
        use dense_decode_flash(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128,
                               F = 14336) as flash
        tokens = 16)");
    // Eager, T = 1: the score tensor [16, 8, 4, 1, 4096] = 16 x 32 x 4096
    // elements x 2 B = 4,194,304 B. `scores` writes it, `softmax` reads it and
    // writes it again, `values` reads it: 4 x 4,194,304 = 16,777,216 B of HBM
    // traffic that the kernel keeps on chip.
    double eager_bytes = r->bytes("scores", "eager/attention") +
                         r->bytes("softmax", "eager/attention") +
                         r->bytes("values", "eager/attention");
    auto const& kernel = r->find("flash", "flash/attention").metrics.counts;
    CHECK(eager_bytes - (kernel.bytes_read + kernel.bytes_written) == 4 * 16.0 * 32 * 4096 * 2);
    CHECK(eager_bytes - (kernel.bytes_read + kernel.bytes_written) == 16'777'216.0);
    CHECK(kernel.bytes_onchip == 16'777'216.0);
    // The kernel's HBM bytes: queries 16 x 4096 x 2 = 131,072; K and V
    // 16 x 4096 x 8 x 128 x 2 = 134,217,728 each; output 131,072.
    CHECK(kernel.bytes_read == 131'072.0 + 2 * 134'217'728.0);
    CHECK(kernel.bytes_written == 131'072.0);
    // FLOPs are equal: scores 2 x 16 x 32 x 4096 x 128 = 536,870,912, values
    // the same, softmax 5 x 16 x 32 x 4096 = 10,485,760: 1,084,227,584.
    double eager_flops = r->flops("scores", "eager/attention") + r->flops("softmax", "eager/attention") +
                         r->flops("values", "eager/attention");
    CHECK(kernel.flops == eager_flops);
    CHECK(kernel.flops == 1'084'227'584.0);
    // Every other op of the layer is the same.
    for (auto const& [op, layer] :
         std::map<std::string, std::string>{{"attn_norm", ""}, {"q_proj", "/attention"},
                                            {"k_proj", "/attention"}, {"v_proj", "/attention"},
                                            {"rope_q", "/attention"}, {"rope_k", "/attention"},
                                            {"o_proj", "/attention"}, {"attn_residual", ""},
                                            {"mlp_norm", ""}, {"gate", "/mlp"}, {"up", "/mlp"},
                                            {"silu_mul", "/mlp"}, {"down", "/mlp"},
                                            {"mlp_residual", ""}}) {
        INFO(op);
        CHECK(r->flops(op, "flash" + layer) == r->flops(op, "eager" + layer));
        CHECK(r->bytes(op, "flash" + layer) == r->bytes(op, "eager" + layer));
    }
    // Both memory-bound on the chip: the eager three take (134,348,800 +
    // 4,194,304) + (2 x 4,194,304) + (138,412,032 + 131,072) = 285,474,816 B
    // = 285.47 us; the kernel 268,697,600 B = 268.70 us (its t_onchip is
    // 16,777,216 / 1e14 = 0.17 us).
    CHECK_THAT(eager_bytes, WithinRel(285'474'816.0, 1e-15));
    CHECK_THAT(r->find("flash", "flash/attention").metrics.t_lower, WithinRel(268'697'600.0 / 1e12, 1e-12));
    CHECK(r->find("flash", "flash/attention").metrics.bound == engine::Bound::memory);
}

TEST_CASE("flash attention reads K and V once per key/value head, not once per query head",
          "[flash]") {
    // Grouped-query attention: G = H / KV = 4 query heads share each K/V head.
    // A kernel that loads each K/V tile once for its group reads
    // B x S x KV x Hd x 2 B of K (and as much of V). A per-query-head count
    // (LLM-Viewer's: K and V re-read for each of the H heads) would be G = 4
    // times that; this test fails for it.
    auto r = run_text(std::string(R"(include "layers/dense.roof")") + chip + R"(
        use flash_attention(B = 16, T = 1, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128) as gqa
        use flash_attention(B = 16, T = 1, S = 4096, D = 4096, H = 32, KV = 32, Hd = 128) as mha)");
    double q = 16.0 * 32 * 128 * 2;                    // queries, 131,072 B
    double per_kv_head = 16.0 * 4096 * 8 * 128 * 2;    // K: 134,217,728 B
    double per_query_head = 16.0 * 4096 * 32 * 128 * 2;  // 536,870,912 B
    auto const& gqa = r->find("flash", "gqa").metrics.counts;
    CHECK(gqa.bytes_read == q + 2 * per_kv_head);
    CHECK(gqa.bytes_read != q + 2 * per_query_head);
    // Multi-head attention (KV = H): one query head per K/V head, so the
    // cache, and the kernel's reads of it, are 4 times larger; the FLOPs are
    // the same (they depend on H, not on KV).
    auto const& mha = r->find("flash", "mha").metrics.counts;
    CHECK(mha.bytes_read == q + 2 * per_query_head);
    CHECK(mha.flops == gqa.flops);
    // Resident: the cache is counted as K and V once each, per K/V head:
    // 2 x 134,217,728 B for the GQA layer, 2 x 536,870,912 for the MHA one.
    CHECK(r->evaluation.point_facts[0].cache_bytes == 2 * per_kv_head + 2 * per_query_head);
}

TEST_CASE("the flash MoE and tensor-parallel layers: the kernel on the same heads", "[flash]") {
    auto r = run_text(std::string(R"(
        include "layers/moe.roof"
        include "layers/dense_tp.roof")") + R"(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 1e14 B/s
                        nvlink_bandwidth = 1e11 B/s  nvlink_domain = 8 }
        target chip
        mesh tp = 2 over nvlink
        use moe_decode(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336, E = 8, k = 2)
            as moe_eager
        use moe_decode_flash(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336,
                             E = 8, k = 2) as moe_flash
        use moe_prefill_flash(B = 1, T = 2048, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336,
                              E = 8, k = 2) as moe_prefill
        use dense_tp_decode(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336)
            as tp_eager
        use dense_tp_decode_flash(B = 16, S = 4096, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336)
            as tp_flash)");
    INFO(format(r->diagnostics));
    CHECK(r->warnings() == 0);
    // MoE decode: the attention is the dense one (B = 16, S = 4096): the
    // kernel as in the decode test above.
    auto const& moe = r->find("flash", "moe_flash/attention").metrics.counts;
    CHECK(moe.bytes_read == 131'072.0 + 2 * 134'217'728.0);
    CHECK(moe.flops == 1'084'227'584.0);
    CHECK(r->bytes("scores", "moe_eager/attention") + r->bytes("softmax", "moe_eager/attention") +
              r->bytes("values", "moe_eager/attention") - (moe.bytes_read + moe.bytes_written) ==
          16'777'216.0);
    // MoE prefill defaults to causal: 34,712,223,744 FLOPs, as the dense
    // prefill kernel at T = 2048.
    CHECK(r->flops("flash", "moe_prefill/attention") == 34'712'223'744.0);
    // Tensor-parallel over 2 chips: each chip runs the kernel on KV / 2 = 4
    // key/value heads (16 query heads): half the FLOPs, half of every byte.
    // Queries 16 x 16 x 128 x 2 = 65,536; K, V 16 x 4096 x 4 x 128 x 2 =
    // 67,108,864 each: read 134,283,264; on chip 4 x 16 x 16 x 4096 x 2 =
    // 8,388,608.
    auto const& tp = r->find("flash", "tp_flash/attention").metrics.counts;
    CHECK(tp.bytes_read == 65'536.0 + 2 * 67'108'864.0);
    CHECK(tp.bytes_written == 65'536.0);
    CHECK(tp.bytes_onchip == 8'388'608.0);
    CHECK(tp.flops == 1'084'227'584.0 / 2);
    CHECK(r->bytes("scores", "tp_eager/attention") + r->bytes("softmax", "tp_eager/attention") +
              r->bytes("values", "tp_eager/attention") - (tp.bytes_read + tp.bytes_written) ==
          8'388'608.0);
}

TEST_CASE("the shipped flash scenarios: no warnings, the eager ones' resident bytes, faster steps",
          "[flash][models]") {
    struct Pair {
        char const* eager;
        char const* flash;
    };
    for (auto [eager_name, flash_name] : {Pair{"llama3-8b-prefill.roof", "llama3-8b-prefill-flash.roof"},
                                          Pair{"llama3-8b-decode.roof", "llama3-8b-decode-flash.roof"}}) {
        INFO(flash_name);
        auto eager = run_scenario(eager_name);
        auto flash = run_scenario(flash_name);
        INFO(format(flash->diagnostics));
        CHECK(flash->warnings() == 0);
        CHECK(flash->builder->summary().unsupported_count == 0);
        REQUIRE(flash->evaluation.point_count == eager->evaluation.point_count);
        for (std::size_t p = 0; p < flash->evaluation.point_count; ++p) {
            // The cache operands moved into the kernel are still resident,
            // once each: the same weights and KV cache as the eager scenario.
            CHECK(flash->evaluation.point_facts[p].weight_bytes ==
                  eager->evaluation.point_facts[p].weight_bytes);
            CHECK(flash->evaluation.point_facts[p].cache_bytes ==
                  eager->evaluation.point_facts[p].cache_bytes);
            for (auto const* hw : {"h100_sxm", "h200", "mi300x"})
                CHECK(flash->step(p, flash->target(hw)).t_lower <
                      eager->step(p, eager->target(hw)).t_lower);
        }
    }
}

TEST_CASE("llama3-8b-prefill-flash on an H100 at B = 1: the step saves the eager scores' time",
          "[flash][models]") {
    // Per layer on an H100 SXM (9.89e14 bf16 FLOP/s, 3.35e12 B/s HBM,
    // 3.345408e13 B/s shared memory), T = 2048:
    //   eager scores  34,359,738,368 FLOPs, 20,971,520 + 268,435,456 B:
    //                 memory-bound, 289,406,976 / 3.35e12 = 86.390 us
    //   eager softmax 2 x 268,435,456 B: 160.260 us
    //   eager values  272,629,760 + 16,777,216 = 289,406,976 B: 86.390 us
    //   flash (causal) 34,712,223,744 FLOPs: t_math 35.098 us; 41,943,040 B:
    //                 12.520 us; on chip 1,073,741,824 B: 32.096 us; compute-bound.
    // Everything else is the same op for op, so the step is shorter by
    // 32 x (289,406,976 x 2 + 536,870,912) / 3.35e12 - 32 x 34,712,223,744 / 9.89e14
    // = 32 x 333.040 us - 32 x 35.098 us = 32 x 297.942 us = 9.534 ms.
    auto eager = run_scenario("llama3-8b-prefill.roof");
    auto flash = run_scenario("llama3-8b-prefill-flash.roof");
    auto const& kernel = flash->find("flash", "decoder/attention", flash->point(1), flash->target("h100_sxm"));
    CHECK(kernel.metrics.bound == engine::Bound::compute);
    CHECK_THAT(kernel.metrics.t_lower, WithinRel(34'712'223'744.0 / 9.89e14, 1e-12));
    CHECK_THAT(kernel.metrics.t_onchip, WithinRel(1'073'741'824.0 / 3.345408e13, 1e-12));
    double saved = 32 * ((2 * 289'406'976.0 + 536'870'912.0) / 3.35e12 - 34'712'223'744.0 / 9.89e14);
    CHECK_THAT(saved, WithinRel(9.534e-3, 1e-3));
    double a = eager->step(eager->point(1), eager->target("h100_sxm")).t_lower;
    double b = flash->step(flash->point(1), flash->target("h100_sxm")).t_lower;
    CHECK_THAT(a - b, WithinRel(saved, 1e-9));
}
