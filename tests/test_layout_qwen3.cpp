// Qwen3, Qwen3-MoE and MiniMax-M2 on their serving layouts (the measured
// data's most common: Qwen3-32B tp 4, Qwen3-235B-A22B tp 4 / moe_ep 4,
// MiniMax-M2.5 tp 4 / moe_tp 4): the published configs (tests/qwen3_minimax_kimi_configs.hpp)
// imported, checked and evaluated on one H200 per GPU; the weights per GPU and
// one layer's collectives by hand (docs/multichip.md, "Serving layouts").
// AllReduce over n GPUs: each receives 2 (n - 1) / n of the V bytes, in
// 2 (n - 1) steps of NVLink's 1 us latency (the catalog's default), which
// every AllReduce here takes (its bytes at 900 GB/s are well under 1 us).
#include "qwen3_minimax_kimi_configs.hpp"
#include "import_error.hpp"
#include "import_quantized.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::qwen3_minimax_kimi_configs;

namespace {

model::ImportOptions on_h200(model::ImportLayout layout,
                             model::ImportMode mode = model::ImportMode::decode) {
    model::ImportOptions o;
    o.targets = {"h200"};
    o.layout = layout;
    o.mode = mode;
    return o;
}

model::ImportLayout tp(std::int64_t n, std::optional<std::int64_t> ep = {}) {
    model::ImportLayout l;
    l.tp = n;
    l.ep = ep;
    return l;
}

// The point of the sweep B = 1 .. 256 times 2 where B = 8.
std::size_t at_b8(Evaluated const& r) {
    for (std::size_t p = 0; p < r.evaluation.point_count; ++p)
        if (r.evaluation.sweep_value(p, 0) == 8) return p;
    FAIL("no point with B = 8");
    return 0;
}

// The AllReduces `ops` ({op, layer}) at point p: `bytes` received by each GPU,
// in their latency floor `t`.
void check_allreduces(Evaluated const& r, std::size_t p,
                      std::initializer_list<std::pair<char const*, char const*>> ops, double bytes,
                      double t) {
    for (auto [op, layer] : ops) {
        auto const& c = r.find(op, layer, p);
        INFO(layer << "/" << op);
        CHECK(c.metrics.net_bytes == bytes);
        CHECK(c.metrics.t_net == Approx(t));
    }
}

}  // namespace

// Qwen3-32B, bf16 (2 B): D 5120, H 64, KV 8, Hd 128, F 25600, V 151936, L 64.
TEST_CASE("layout Qwen3-32B --tp 4: weights per GPU and the two AllReduces by hand",
          "[import][layout][qwen3]") {
    auto text = model::import_config(qwen3_32b, "config.json", on_h200(tp(4))).text;
    INFO(text);
    CHECK(contains(text, "include \"layers/parallel_qwen3.roof\""));
    CHECK(contains(text, "mesh tp = TP over nvlink"));
    CHECK(contains(text, "use embedding_tp(N = B, D = D, V = V, wdt = wdt)"));
    CHECK(contains(text, "use qwen3_tp_decode(B = B, S = S, D = D, H = H, KV = KV, Hd = Hd, F = F, "
                         "wdt = wdt, mdt = mdt) as decoder x L"));
    CHECK(contains(text, "use lm_head_tp(N = B, D = D, V = V, wdt = wdt, mdt = mdt)"));
    auto r = evaluate_roof(text);
    auto p = at_b8(*r);
    // Per GPU and layer, 2 KV heads of 8 (16 query heads):
    //   q, o 2 x 5120 x 2 x 8 x 128 = 20,971,520;  k, v 2 x 5120 x 2 x 128 = 2,621,440
    //   MLP 3 x 5120 x 25600 / 4 = 98,304,000
    //   q_norm, k_norm 2 x 128 = 256 and the two norms 2 x 5120 = 10,240 (replicated)
    //   121,907,456 x 2 B = 243,814,912; x 64 = 15,604,154,368
    // Embedding and head 2 x 151936 / 4 x 5120 = 388,956,160, final norm 5120:
    //   388,961,280 x 2 B = 777,922,560. Total 16,382,076,928 B
    //   (= the 32,762,123,264 parameters less the replicated 676,864, / 4,
    //   plus those, x 2 B).
    CHECK(r->facts(p).weight_bytes == 16'382'076'928.0);
    // KV cache: 8 sequences x 8192 x 2 heads x 128 x (k, v) 2 x 2 B x 64.
    CHECK(r->facts(p).cache_bytes == 8.0 * 8192 * 2 * 128 * 2 * 2 * 64);
    // The layer's two AllReduces (o_proj, the MLP's down) of B x D = 8 x 5120
    // x 2 B = 81,920 B over 4 GPUs: 2 x 3/4 x 81,920 = 122,880 B each, 6 us.
    check_allreduces(*r, p, {{"o_proj", "decoder/attention"}, {"down", "decoder/mlp"}}, 122'880.0,
                     6e-6);
    // The per-head norms: the GPU's 16 query heads, no communication.
    auto const& q_norm = r->find("q_norm", "decoder/attention", p);
    CHECK(q_norm.metrics.counts.flops == 4.0 * 8 * 16 * 128);
    CHECK(q_norm.metrics.net_bytes == 0.0);
}

// Qwen3-235B-A22B-FP8: D 4096, H 64, KV 4, Hd 128, E 128 experts of F 1536,
// top-8, V 151936, L 94; fp8_block (1 + 1/4096 B) for the attention's and the
// experts' weights, bf16 for the router, the norms, the embedding and head.
// --tp 4 --ep 4: the grid dp 1 x tp_ep 4 x tp_etp 1.
TEST_CASE("layout Qwen3-235B-A22B-FP8 --tp 4 --ep 4: fp8_block weights per GPU, the MoE's "
          "collectives by hand",
          "[import][layout][qwen3]") {
    auto text = model::import_config(qwen3_235b_fp8, "config.json", on_h200(tp(4, 4))).text;
    INFO(text);
    CHECK(contains(text, "let TP_EP = 4 "));
    CHECK(contains(text, "let TP_ETP = 1 "));
    CHECK(contains(text, "use qwen3_moe_grid_decode(B = B, S = S, D = D, H = H, KV = KV, Hd = Hd, "
                         "F = F, E = E, k = K, DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP, wdt = wdt, "
                         "mdt = mdt, ewdt = edt, rdt = rdt) as decoder x L"));
    auto r = evaluate_roof(text);
    auto p = at_b8(*r);
    // Per GPU and layer, fp8_block: one KV head (16 query heads): q, o 2 x
    //   4096 x 16 x 128 = 16,777,216, k, v 2 x 4096 x 128 = 1,048,576; 32 of
    //   the 128 experts, 32 x 3 x 4096 x 1536 = 603,979,776: 621,805,568
    //   weights + 151,808 B of scales (/4096) = 621,957,376 B.
    // bf16, replicated: router 4096 x 128 = 524,288, q/k gains 256, norms
    //   8,192: 532,736 x 2 B = 1,065,472 B. Layer 623,022,848 B; x 94 =
    //   58,564,147,712 B.
    // Embedding and head 2 x 151936 / 4 x 4096 = 311,164,928, final norm
    //   4096: 311,169,024 x 2 B = 622,338,048 B.
    // Total 59,186,485,760 B (the one-chip 236,445,455,360 B less the
    // replicated parts' three quarters).
    CHECK(r->facts(p).weight_bytes == 59'186'485'760.0);
    CHECK(r->facts(p).cache_bytes == 8.0 * 8192 * 1 * 128 * 2 * 2 * 94);
    // o_proj's and the combine's AllReduces of 8 x 4096 x 2 B = 65,536 B over
    // tp_ep x tp_etp = 4 GPUs: 2 x 3/4 x 65,536 = 98,304 B each, 6 us.
    check_allreduces(*r, p, {{"o_proj", "decoder/attention"}, {"combine", "decoder/moe"}}, 98'304.0,
                     6e-6);
    // No all-to-all crosses the network (dp has one GPU); dispatch permutes
    // R = ceil(8 x 8 / 4) = 16 rows of 4096 fp8 (mdt, 1 B) through HBM.
    auto const& dispatch = r->find("dispatch", "decoder/moe", p);
    CHECK(dispatch.metrics.net_bytes == 0.0);
    CHECK(dispatch.metrics.counts.bytes_read == 16.0 * 4096);
    // The experts: A = min(128, 4 x ceil(64 / 4)) = 64 receive tokens, 16 on
    // this GPU, C = ceil(64 / 64) = 1 row each: gate reads its 16 experts'
    // 4096 x 1536 fp8_block weights (100,663,296 + 24,576 B) and 16 rows.
    auto const& gate = r->find("gate", "decoder/moe", p);
    CHECK(gate.metrics.counts.flops == 2.0 * 16 * 1 * 4096 * 1536);
    CHECK(gate.metrics.counts.bytes_read == 100'687'872.0 + 16.0 * 4096);
}

// The sample's tp 8 / moe_ep 8: the grid dp 1 x tp_ep 8 x tp_etp 1, more GPUs
// than the 4 KV heads. Each GPU holds one KV head, replicated on 8 / 4 = 2
// GPUs (vLLM's num_kv_head_replicas), and 64 / 8 = 8 query heads.
TEST_CASE("layout Qwen3-235B-A22B-FP8 --tp 8 --ep 8: one KV head per GPU, replicated, by hand",
          "[import][layout][qwen3]") {
    auto text = model::import_config(qwen3_235b_fp8, "config.json", on_h200(tp(8, 8))).text;
    INFO(text);
    CHECK(contains(text, "let TP_EP = 8 "));
    auto r = evaluate_roof(text);
    auto p = at_b8(*r);
    // Per GPU and layer, fp8_block: q, o 2 x 4096 x 8 x 128 = 8,388,608; k, v
    //   one head's, 2 x 4096 x 128 = 1,048,576; 16 of the 128 experts, 16 x 3
    //   x 4096 x 1536 = 301,989,888: 311,427,072 + 76,032 B of scales (/4096)
    //   = 311,503,104 B. bf16, replicated: 532,736 x 2 B = 1,065,472 B (as
    //   at tp 4). Layer 312,568,576 B; x 94 = 29,381,446,144 B.
    // Embedding and head 2 x 151936 / 8 x 4096 = 311,164,928 / 2 =
    //   155,582,464, final norm 4096: 155,586,560 x 2 B = 311,173,120 B.
    // Total 29,692,619,264 B.
    CHECK(r->facts(p).weight_bytes == 29'692'619'264.0);
    // KV cache per sequence: one head of 128, K and V, 94 layers, bf16, S
    // 8192: 94 x 2 x 128 x 2 x 8192 = 394,264,576 B; 8 sequences.
    CHECK(r->facts(p).cache_bytes == 8.0 * 394'264'576);
    // k_proj: one head's 4096 x 128 weights; q_proj and the scores: 8 heads.
    CHECK(r->find("k_proj", "decoder/attention", p).metrics.counts.flops == 2.0 * 8 * 4096 * 128);
    CHECK(r->find("q_proj", "decoder/attention", p).metrics.counts.flops == 2.0 * 8 * 4096 * 8 * 128);
    CHECK(r->find("scores", "decoder/attention", p).metrics.counts.flops == 2.0 * 8 * 8 * 128 * 8192);
    CHECK(r->find("q_norm", "decoder/attention", p).metrics.counts.flops == 4.0 * 8 * 8 * 128);
    // o_proj's AllReduce of 8 x 4096 x 2 B = 65,536 B over 8 GPUs: 2 x 7/8 x
    // 65,536 = 114,688 B, 14 steps of 1 us.
    check_allreduces(*r, p, {{"o_proj", "decoder/attention"}, {"combine", "decoder/moe"}}, 114'688.0,
                     14e-6);
}

// MiniMax-M2.5, fp8_block as Qwen3's (the router and the routing bias bf16):
// D 3072, H 48, KV 8, Hd 128, Rd 64, E 256 experts of F 1536, top-8, V
// 200064, L 62. --tp 4: the grid dp 1 x tp_ep 1 x tp_etp 4 (moe_tp 4).
TEST_CASE("layout MiniMax-M2.5 --tp 4 (moe_tp 4): weights per GPU and the q/k variances' "
          "AllReduce by hand",
          "[import][layout][qwen3]") {
    auto text = model::import_config(minimax_m25, "config.json", on_h200(tp(4))).text;
    INFO(text);
    CHECK(contains(text, "include \"layers/parallel_minimax_m2.roof\""));
    CHECK(contains(text, "let TP_ETP = 4 "));
    CHECK(contains(text, "use minimax_m2_grid_decode(B = B, S = S, D = D, H = H, KV = KV, Hd = Hd, "
                         "F = F, E = E, k = K, DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP, wdt = wdt, "
                         "mdt = mdt, Rd = Rd, ewdt = edt, rdt = rdt) as decoder x L"));
    auto r = evaluate_roof(text);
    auto p = at_b8(*r);
    // Per GPU and layer, fp8_block: 2 KV heads (12 query heads): q, o 2 x
    //   3072 x 12 x 128 = 9,437,184, k, v 2 x 3072 x 256 = 1,572,864; every
    //   expert at a quarter of its width, 256 x 3 x 3072 x 384 = 905,969,664:
    //   916,979,712 + 223,872 B of scales = 917,203,584 B.
    // bf16: the gains split with the heads, q 12 x 128 = 1,536 and k 256;
    //   router 3072 x 256 = 786,432, bias 256, norms 6,144 (replicated):
    //   794,624 x 2 B = 1,589,248 B. Layer 918,792,832 B; x 62 = 56,965,155,584 B.
    // Embedding and head 2 x 200064 / 4 x 3072 = 307,298,304, final norm
    //   3072: 307,301,376 x 2 B = 614,602,752 B. Total 57,579,758,336 B.
    CHECK(r->facts(p).weight_bytes == 57'579'758'336.0);
    // The per-layer norm: the q and k variances, 2 x fp32 = 8 B per token,
    // 64 B at B = 8, AllReduced over 4 GPUs: 2 x 3/4 x 64 = 96 B, 6 us.
    check_allreduces(*r, p, {{"qk_variance", "decoder/attention"}}, 96.0, 6e-6);
    // o_proj's and the combine's of 8 x 3072 x 2 B = 49,152 B: 73,728 B each.
    check_allreduces(*r, p, {{"o_proj", "decoder/attention"}, {"combine", "decoder/moe"}}, 73'728.0,
                     6e-6);
    // The norm itself on the GPU's 12 query heads, 4 FLOPs per element.
    CHECK(r->find("q_norm", "decoder/attention", p).metrics.counts.flops == 4.0 * 8 * 12 * 128);
}

// Kimi-K2.5 (a DeepSeek-V3 with int4 experts) on its tp 8 / moe_tp 8: the
// quantized experts' and router's dtypes reach parallel_mla.roof's MoE layers.
TEST_CASE("layout Qwen3, Qwen3-MoE, MiniMax-M2, Kimi-K2.5: decode and prefill on their common "
          "layouts check",
          "[import][layout][qwen3]") {
    struct Case {
        char const* config;
        model::ImportLayout layout;
    };
    model::ImportLayout dp4;  // MiniMax's dp 4 x tp 4 / moe_ep 16
    dp4.tp = 4;
    dp4.dp = 4;
    dp4.ep = 16;
    model::ImportLayout dp2;  // dp 2 x tp 2 / moe_ep 4
    dp2.tp = 2;
    dp2.dp = 2;
    dp2.ep = 4;
    for (auto const& [config, layout] :
         {Case{qwen3_32b, tp(2)}, Case{qwen3_32b, tp(8)}, Case{qwen3_235b_fp8, tp(2)},
          Case{qwen3_235b_fp8, tp(4, 4)}, Case{qwen3_235b_fp8, tp(8, 8)}, Case{minimax_m25, tp(2)},
          Case{minimax_m25, dp2}, Case{minimax_m25, dp4}, Case{kimi_k25, tp(8)}}) {
        for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
            auto text = model::import_config(config, "config.json", on_h200(layout, mode)).text;
            INFO(text);
            auto r = evaluate_roof(text);
            CHECK(r->evaluation.has_resident);
        }
    }
}

TEST_CASE("layout Qwen3, Qwen3-MoE, MiniMax-M2: a dimension that does not divide is an error",
          "[import][layout][qwen3]") {
    model::ImportOptions o;
    o.layout = tp(16);
    CHECK(contains(import_error(qwen3_32b, o),
                   "config.json: error: 'num_key_value_heads' (8) is not a multiple of --tp 16"));
    // Key/value heads replicate only onto a multiple of KV GPUs: 6 heads (of
    // 48 query heads) on 8 GPUs cannot (Qwen3-235B's 4 on 8 can, above).
    std::string six_kv(qwen3_235b_fp8);
    for (auto [from, to] : {std::pair{"\"num_attention_heads\": 64", "\"num_attention_heads\": 48"},
                            {"\"num_key_value_heads\": 4", "\"num_key_value_heads\": 6"}})
        six_kv.replace(six_kv.find(from), std::string(from).size(), to);
    o.layout = tp(8, 8);
    CHECK(contains(import_error(six_kv, o),
                   "error: --tp 8 is not a multiple of 'num_key_value_heads' (6): beyond KV GPUs "
                   "each GPU holds one key/value head"));
    o.layout = tp(32);
    CHECK(contains(import_error(minimax_m25, o),
                   "error: 'num_attention_heads' (48) is not a multiple of --tp 32"));
    o.layout = {};
    o.layout.dp = 512;
    o.layout.ep = 512;
    CHECK(contains(import_error(minimax_m25, o),
                   "error: 'num_local_experts' (256) is not a multiple of --ep 512: each GPU "
                   "holds whole experts"));
    std::string wide(qwen3_235b_fp8);
    std::string from = "\"moe_intermediate_size\": 1536";
    wide.replace(wide.find(from), from.size(), "\"moe_intermediate_size\": 1538");
    o.layout = tp(4);
    CHECK(contains(import_error(wide, o),
                   "error: 'moe_intermediate_size' (1538) is not a multiple of --etp 4: each "
                   "expert's width is split over moe_tp"));
    // MiniMax at moe_tp 8: 1536 / 8 = 192 splits fp8_block's 128-wide blocks
    // (vLLM's MiniMax-M2 recipe: "TP8 is not supported").
    o.layout = tp(8);
    CHECK(contains(import_error(minimax_m25, o),
                   "error: 'intermediate_size' (1536) / --etp 8 = 192 is not a multiple of "
                   "fp8_block's 128-wide blocks"));
    // In bf16 (--dtype bf16, the quantization not read) the blocks do not apply.
    o.weight_dtype_given = true;
    CHECK(import_error(minimax_m25, o).empty());
}
