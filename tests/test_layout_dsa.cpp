// GLM-5 (DeepSeek Sparse Attention) on its serving layout
// (layers/parallel_dsa.roof; docs/multichip.md, "Serving layouts"): the
// measured data's tp 8 / moe_tp 8, imported from the published config and
// worked out by hand per GPU; the indexer replicated over tp.
#include "gpt_oss_glm_configs.hpp"
#include "import_error.hpp"
#include "layout_support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;
using namespace roofline::test::gpt_oss_glm_configs;

// Shapes: L 78 (Ld 3 dense, 75 MoE), D 6144, H 64, Qr 2048, C 512, Dn 192,
// Dr 64, Dv 256, F 12288, Fe 2048, E 256, k 8, Fs 2048, Hi 32, Di 128, Kt
// 2048, V 154880; bf16 weights (2 B), the indexer's keys fp8 (1 B) with an
// fp32 scale per position. --tp 8 alone: DP 1, TP_EP 1, TP_ETP 8.
TEST_CASE("import layout: GLM-5 on 8 H200 with tp 8 (moe_tp 8), by hand", "[import][layout][glm_dsa]") {
    model::ImportOptions o;
    o.targets = {"h200"};
    o.layout.tp = 8;
    auto text = import_text(glm5, o);
    INFO(text);
    CHECK(contains(text, "include \"layers/parallel_dsa.roof\""));
    CHECK(contains(text, "let TP_ETP = 8"));
    CHECK(contains(text, "use dsa_moe_grid_decode(B = B, S = S,"));
    auto r = evaluate(text);
    auto p = r->point("B", 8);

    // Weights per GPU, elements:
    //   MLA, replicated: q_down D Qr 12,582,912, kv_down D C 3,145,728,
    //     k_rope D Dr 393,216, gains Qr + C 2,560: 16,124,416; the heads' over
    //     8: (Qr H (Dn + Dr) 33,554,432 + C H (Dn + Dv) 14,680,064 + H Dv D
    //     100,663,296) / 8 = 18,612,224
    //   the indexer, replicated: Qr Hi Di 8,388,608 + D Di 786,432 + 2 Di 256
    //     + D Hi 196,608 = 9,371,904; the layer's norms 2 D 12,288
    //   44,120,832 x 78 layers                                 =  3,441,424,896
    //   dense MLPs 3 D F / 8 = 28,311,552, x 3                 =     84,934,656
    //   per MoE layer: router D E 1,572,864 and its score bias E 256
    //     (replicated), shared 3 D Fs / 8 = 4,718,592, experts 3 E D Fe / 8
    //     = 1,207,959,552: 1,214,251,264, x 75                 = 91,068,844,800
    //   embedding and head 2 V D / 8 = 237,895,680, final norm 6,144
    //   total 94,833,106,176 elements x 2 B                    = 189,666,212,352 B
    CHECK(r->facts_at(p).weight_bytes == 189'666'212'352.0);
    // The caches are whole on every tp GPU: per token and layer the latent
    // (512 + 64) x 2 B + the index key 128 x 1 B + its scale 4 B = 1,284 B,
    // x 78 layers = 100,152 B per token; at B = 8, S = 8192: 65,536 tokens.
    CHECK(r->facts_at(p).cache_bytes == 65'536.0 * 100'152);
    // The indexer's scores on every GPU: all 32 heads over all 8192 keys,
    // 2 x 8 x 32 x 8192 x 128 FLOPs; attention on the GPU's 64 / 8 = 8 heads
    // over the 2048 positions picked: 2 x 8 x 8 x 2048 x 576.
    CHECK(r->find_at("index_scores", "moe_decoder/indexer", p).metrics.counts.flops ==
          2.0 * 8 * 32 * 8192 * 128);
    CHECK(r->find_at("scores", "moe_decoder/attention", p).metrics.counts.flops == 2.0 * 8 * 8 * 2048 * 576);
    // Per MoE layer two AllReduces of 8 x 6144 x 2 B = 98,304 B over 8 GPUs
    // (o_proj; the combine of the routed and shared experts), 2 x 7/8 x
    // 98,304 = 172,032 B received each; the replicated indexer moves nothing.
    CHECK(r->find_at("o_proj", "moe_decoder/attention", p).metrics.net_bytes == 172'032.0);
    CHECK(r->find_at("combine", "moe_decoder/moe", p).metrics.net_bytes == 172'032.0);
    CHECK(r->find_at("index_topk", "moe_decoder/indexer", p).metrics.net_bytes == 0.0);
}

TEST_CASE("import layout: GLM-5's other layouts, and the indexer's heads replicated", "[import][layout][glm_dsa]") {
    using L = model::ImportLayout;
    check_layouts(glm5, {L{4, {}, {}, {}, {}}, L{2, 4, {}, 8, {}}});
    // The indexer's 32 heads need not divide tp (every GPU holds them all):
    // tp 64 imports; the MLA heads (64) bound it.
    model::ImportOptions o;
    o.layout.tp = 64;
    CHECK(contains(import_text(glm5, o), "let TP_ETP = 64"));
    o.layout.tp = 128;
    CHECK(contains(import_error(glm5, o),
                   "error: 'num_attention_heads' (64) is not a multiple of --tp 128: each GPU holds whole heads"));
    o.layout.tp = 8;
    o.layout.pp = 2;
    CHECK(contains(import_error(glm5, o), "error: 'first_k_dense_replace' (3) is not a multiple of --pp 2"));
}
