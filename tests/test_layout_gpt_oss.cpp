// gpt-oss-120b on its serving layouts (layers/parallel_gpt_oss.roof;
// docs/multichip.md, "Serving layouts"): the measured data's most common
// layout, tp 4 / moe_tp 4, imported from the published config and worked
// out by hand per GPU; the layout errors of its own dimensions.
#include "gpt_oss_glm_configs.hpp"
#include "import_error.hpp"
#include "layout_support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;
using namespace roofline::test::gpt_oss_glm_configs;

// Shapes: L 36 (18 sliding, W 128; 18 full), D 2880, H 64, KV 8, Hd 64, F
// 2880, E 128, k 4, V 201088; attention, router, biases, sinks, norms,
// embedding and head bf16 (2 B), the experts mxfp4 (4.25 bits: 17/32 B).
// --tp 4 alone: DP 1, TP_EP 1, TP_ETP 4 (moe_tp 4, every expert on every GPU).
TEST_CASE("import layout: gpt-oss-120b on 4 H200 with tp 4 (moe_tp 4), by hand", "[import][layout][gpt_oss]") {
    model::ImportOptions o;
    o.targets = {"h200"};
    o.layout.tp = 4;
    auto text = import_text(gpt_oss_120b, o);
    INFO(text);
    CHECK(contains(text, "include \"layers/parallel_gpt_oss.roof\""));
    CHECK(contains(text, "let TP_ETP = 4"));
    CHECK(contains(text, "use gpt_oss_grid_decode(B = B, S = S, W = W, D = D, H = H, KV = KV, Hd = Hd, F = F, "
                         "E = E, k = K, DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP, wdt = wdt, mdt = mdt, "
                         "ewdt = edt) as sliding x Ls"));
    CHECK(contains(text, "let edt = mxfp4"));
    auto r = evaluate(text);
    auto p = r->point("B", 8);

    // Weights per GPU, per layer, bf16 elements:
    //   q D H Hd / 4 = 2,949,120 and its bias 1,024; k, v D KV Hd / 4 =
    //   368,640 and 128 each; o H Hd D / 4 = 2,949,120 and its bias D = 2,880
    //   (whole: added once); sinks H / 4 = 16; router D E = 368,640 and its
    //   bias 128; gate_up biases E 2F / 4 = 184,320; down biases E D = 368,640
    //   (whole on every tp_etp GPU); norms 2 D = 5,760: 7,567,184 x 2 B
    //                                                       =     15,134,368 B
    //   experts E D 2F / 4 + E (F / 4) D = 128 x 2880 x 2160 = 796,262,400
    //     mxfp4 elements x 17/32 B                           =    423,014,400 B
    //   438,148,768 B x 36 layers                            = 15,773,355,648
    //   embedding and head 2 V D / 4 x 2 B = 579,133,440, final norm 5,760
    //   total                                                  16,352,494,848
    CHECK(r->facts_at(p).weight_bytes == 16'352'494'848.0);
    // The KV cache per GPU at B = 8, S = 8192: its 8 / 4 = 2 key/value heads.
    //   sliding: 8 x min(8192, 128) x 2 (k, v) x 2 x 64 x 2 B = 524,288 per
    //     layer, x 18                                        =      9,437,184
    //   full: 8 x 8192 x 2 x 2 x 64 x 2 B = 33,554,432, x 18 =    603,979,776
    CHECK(r->facts_at(p).cache_bytes == 9'437'184.0 + 603'979'776.0);
    // The sliding layer reads its 128 positions: scores 2 x 8 x 64 / 4 heads
    // x 128 x 64 FLOPs.
    CHECK(r->find_at("scores", "sliding/attention", p).metrics.counts.flops == 2.0 * 8 * 16 * 128 * 64);

    // The collectives of one layer at B = 8: two AllReduces of 8 x 2880 x 2 B
    // = 46,080 B over tp 4, each receiving 2 x 3/4 x 46,080 = 69,120 B: o_proj
    // (its bias added after, moving nothing) and the combine ending the MoE;
    // the all-to-alls over dp (1 GPU) move nothing: 138,240 B per layer.
    for (auto const* layer : {"sliding", "full"}) {
        std::string l(layer);
        CHECK(r->find_at("o_proj", l + "/attention", p).metrics.net_bytes == 69'120.0);
        CHECK(r->find_at("o_bias", l + "/attention", p).metrics.net_bytes == 0.0);
        CHECK(r->find_at("combine", l + "/moe", p).metrics.net_bytes == 69'120.0);
        CHECK(r->find_at("dispatch", l + "/moe", p).metrics.net_bytes == 0.0);
        CHECK(r->find_at("collect", l + "/moe", p).metrics.net_bytes == 0.0);
        CHECK(r->find_at("down", l + "/moe", p).metrics.net_bytes == 0.0);
    }
    // The experts: 8 x 4 = 32 rows, A = min(128, 32) = 32 experts, C = 1 row
    // each, at the GPU's 2 x 2880 / 4 = 1440 of gate_up: 2 x 32 x 2880 x 1440
    // FLOPs, reading 32 x 2880 x 1440 x 17/32 = 70,502,400 B of mxfp4 weights
    // and the 32 rows of 2880 x 2 B.
    auto const& gate_up = r->find_at("gate_up", "full/moe", p);
    CHECK(gate_up.metrics.counts.flops == 2.0 * 32 * 2880 * 1440);
    CHECK(gate_up.metrics.counts.bytes_read == 70'502'400.0 + 32.0 * 2880 * 2);
}

TEST_CASE("import layout: gpt-oss-120b's layouts on the sample, decode and prefill", "[import][layout][gpt_oss]") {
    using L = model::ImportLayout;
    // tp 2 / moe_tp 2, tp 8 / moe_tp 8, and an expert-parallel one: dp 2 x
    // tp 2 / moe_ep 4; a pipeline of 2 stages of 9 + 9 layers.
    check_layouts(gpt_oss_120b, {L{2, {}, {}, {}, {}}, L{8, {}, {}, {}, {}}, L{2, 2, {}, 4, {}}});
    model::ImportOptions o;
    o.layout.tp = 4;
    o.layout.pp = 2;
    auto text = import_text(gpt_oss_120b, o);
    CHECK(contains(text, " as sliding x (Ls / PP)\n"));
    CHECK(contains(text, " as full x ((L - Ls) / PP)\n"));
}

TEST_CASE("import layout: gpt-oss's dimensions that a layout does not divide", "[import][layout][gpt_oss]") {
    auto error = [](std::string const& config, auto set) {
        model::ImportOptions o;
        set(o.layout);
        return import_error(config, o);
    };
    using L = model::ImportLayout;
    CHECK(contains(error(gpt_oss_120b, [](L& l) { l.tp = 16; }),
                   "error: 'num_key_value_heads' (8) is not a multiple of --tp 16: each GPU holds whole "
                   "key/value heads (and their KV cache)"));
    CHECK(contains(error(gpt_oss_120b, [](L& l) { l.tp = 3; }),
                   "error: 'num_attention_heads' (64) is not a multiple of --tp 3: each GPU holds whole "
                   "heads and their sinks"));
    CHECK(contains(error(gpt_oss_120b, [](L& l) { l.dp = 256; l.ep = 256; }),
                   "error: 'num_local_experts' (128) is not a multiple of --ep 256: each GPU holds whole experts"));
    std::string wider(gpt_oss_120b);
    wider.replace(wider.find("\"intermediate_size\": 2880"), 25, "\"intermediate_size\": 2884");
    CHECK(contains(error(wider, [](L& l) { l.tp = 8; }),
                   "error: 'intermediate_size' (2884) is not a multiple of --etp 8: each expert's width is "
                   "split over moe_tp"));
    CHECK(contains(error(gpt_oss_120b, [](L& l) { l.pp = 4; }),
                   "error: 'layer_types' (18 sliding, 18 full layers) is not a multiple of --pp 4: every "
                   "stage holds as many layers"));
}
