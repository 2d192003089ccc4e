// Qwen3.5-397B-A17B on its serving layouts (layers/parallel_qwen3_5.roof):
// the Gated DeltaNet heads and state over tp, the full attention's two
// key/value heads replicated beyond tp 2, the experts on the grid; every
// figure per GPU, worked by hand in the comments.
#include "import_error.hpp"
#include "layout_support.hpp"
#include "qwen3_5_config.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;
using namespace roofline::test::qwen3_5;

namespace {

// bf16 on h200 (tpu_v5p has no NVLink: its cases would be a warning).
model::ImportOptions h200(std::int64_t tp, std::int64_t dp = 1, std::int64_t ep = 0) {
    model::ImportOptions o;
    o.targets = {"h200"};
    o.layout.tp = tp;
    if (dp > 1) o.layout.dp = dp;
    if (ep) o.layout.ep = ep;
    return o;
}

std::string published() { return qwen3_5_config(published_layer_types()); }

// The op's case in `layer` at point p.
double net_bytes(Evaluated const& r, char const* op, char const* layer, std::size_t p) {
    return r.find_at(op, layer, p).metrics.net_bytes;
}

}  // namespace

// Shapes: L 60 (Ll 45 Gated DeltaNet, 15 full attention), D 4096, H 32, KV 2,
// Hd 256, R 64; Hk 16, Hv 64, dk = dv = 128, Kc 4, Cc = 2 x 16 x 128 + 64 x
// 128 = 12,288; F 1024, E 512, k 10, Fs 1024; V 248,320. bf16: 2 B a
// parameter; the state fp32.
TEST_CASE("layout qwen3.5: 397B on tp 4 (moe_tp 4), by hand", "[qwen3_5][layout]") {
    auto text = import_text(published().c_str(), h200(4));
    INFO(text);
    CHECK(contains(text, "tp 4 x moe_tp 4\""));
    CHECK(contains(text, "include \"layers/parallel_qwen3_5.roof\""));
    CHECK(contains(text, "let TP_EP = 1"));
    CHECK(contains(text, "let TP_ETP = 4"));
    CHECK(contains(text, "use qwen3_5_linear_grid_decode(B = B, D = D, Hk = Hk, Hv = Hv, dk = dk, dv = dv, "
                         "Kc = Kc, F = F, E = E, k = K, Fs = Fs, DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP, "));
    CHECK(contains(text, ") as linear x Ll\n"));
    CHECK(contains(text, ") as full x (L - Ll)\n"));
    auto r = evaluate(text);
    auto p1 = r->point("B", 1);
    auto p8 = r->point("B", 8);

    // Weights per GPU (parameters; x 2 B):
    //   Gated DeltaNet, a quarter of each head-split weight: in_proj_qkv
    //     4096 x 3072 = 12,582,912; in_proj_z 4096 x 2048 = 8,388,608;
    //     in_proj_b, _a 2 x 4096 x 16 = 131,072; conv 3072 x 4 = 12,288;
    //     A_log, dt_bias 2 x 16 = 32; the norm's gain 128 (replicated);
    //     out_proj 2048 x 4096 = 8,388,608: 29,503,648
    //   full attention, 8 query heads and ONE key/value head per GPU (KV 2 <
    //     tp 4: each head on two GPUs): q and gate 2 x 4096 x 2048 =
    //     16,777,216; k, v 2 x 4096 x 256 = 2,097,152; o 2048 x 4096 =
    //     8,388,608; q/k norms 512: 27,263,488
    //   the MoE: router 4096 x 512 = 2,097,152 (replicated); experts 3 x 512
    //     x 4096 x 256 = 1,610,612,736; shared 3 x 4096 x 256 = 3,145,728;
    //     its gate 4096: 1,615,859,712
    //   two norms 8,192 per layer
    //   45 x 1,645,371,552 + 15 x 1,643,131,392        = 98,688,690,720
    //   embedding and head 2 x 62,080 x 4096 = 508,559,360; final norm 4,096
    //   total 99,197,254,176 parameters                 = 198,394,508,352 B
    // (The whole model's 396,346,350,336 / 4 = 99,086,587,584; the rest is
    // the replicated router, gains and key/value heads.)
    CHECK(r->facts_at(p1).weight_bytes == 198'394'508'352.0);

    // The state per GPU per sequence, per Gated DeltaNet layer: 64 / 4 = 16
    // value heads x 128 x 128 x 4 B = 1,048,576, the conv state 3072 x 3 x 2 B
    // = 18,432: 1,067,008; x 45 = 48,015,360 B. The KV cache per sequence at
    // S 8192: 2 (k, v) x 8192 x 1 head x 256 x 2 B x 15 = 125,829,120 B.
    CHECK(r->facts_at(p1).cache_bytes == 48'015'360.0 + 125'829'120.0);
    CHECK(r->facts_at(p8).cache_bytes == 8 * (48'015'360.0 + 125'829'120.0));
    // The recurrent step reads the state and its 6,272 B of inputs per
    // sequence (the one-chip 25,088 / 4: q, k 2 x 4 x 128 x 2 B, v 16 x 128 x
    // 2 B, the gates 2 x 16 x 4 B): 8 x 1,054,848 at B = 8.
    CHECK(r->find_at("delta_rule", "linear/deltanet", p8).metrics.counts.bytes_read == 8 * 1'054'848.0);
    // Scores on the one replicated head: 2 x 8 query heads x 256 x 8192
    // FLOPs, reading its cache 8192 x 256 x 2 B and the queries 8 x 256 x 2 B.
    auto const& scores = r->find_at("scores", "full/attention", p1).metrics.counts;
    CHECK(scores.flops == 2.0 * 8 * 256 * 8192);
    CHECK(scores.bytes_read == 8192.0 * 256 * 2 + 8 * 256 * 2);

    // Per layer at B = 8, two AllReduces of 8 x 4096 x 2 B = 65,536 B over 4
    // GPUs: the mixer's out projection and the MoE's combine (the shared
    // expert's partials in it), 2 x 3/4 x 65,536 = 98,304 B received each.
    CHECK(net_bytes(*r, "out_proj", "linear/deltanet", p8) == 98'304.0);
    CHECK(net_bytes(*r, "combine", "linear/mlp/moe", p8) == 98'304.0);
    CHECK(net_bytes(*r, "o_proj", "full/attention", p8) == 98'304.0);
    CHECK(net_bytes(*r, "combine", "full/mlp/moe", p8) == 98'304.0);
    CHECK(net_bytes(*r, "down", "linear/mlp/shared_expert", p8) == 0.0);
    CHECK(net_bytes(*r, "dispatch", "linear/mlp/moe", p8) == 0.0);
    // The experts: A = min(512, ceil(80)) = 80 touched by the 80 rows, C = 1
    // row each, all on every GPU at a quarter of the width (256): gate
    // 2 x 80 x 4096 x 256 FLOPs, reading 80 x 4096 x 256 x 2 B and the rows.
    auto const& gate = r->find_at("gate", "linear/mlp/moe", p8).metrics.counts;
    CHECK(gate.flops == 2.0 * 80 * 4096 * 256);
    CHECK(gate.bytes_read == 80.0 * 4096 * 256 * 2 + 80.0 * 4096 * 2);
}

TEST_CASE("layout qwen3.5: 397B on tp 8 x moe_ep 8, by hand", "[qwen3_5][layout]") {
    auto text = import_text(published().c_str(), h200(8, 1, 8));
    INFO(text);
    CHECK(contains(text, "let TP_EP = 8"));
    CHECK(contains(text, "let TP_ETP = 1"));
    auto r = evaluate(text);
    auto p1 = r->point("B", 1);
    auto p8 = r->point("B", 8);
    // Weights per GPU:
    //   Gated DeltaNet an eighth: 4096 x 1536 = 6,291,456; 4096 x 1024 =
    //     4,194,304; 2 x 4096 x 8 = 65,536; 1536 x 4 = 6,144; 16; 128;
    //     1024 x 4096 = 4,194,304: 14,751,888
    //   attention, 4 query heads and one key/value head (replicated 4 times):
    //     2 x 4096 x 1024 + 2 x 4096 x 256 + 1024 x 4096 + 512 = 14,680,576
    //   the MoE: router 2,097,152; 512 / 8 = 64 whole experts 3 x 64 x 4096
    //     x 1024 = 805,306,368; shared 3 x 4096 x 128 = 1,572,864; gate
    //     4096: 808,980,480
    //   45 x (14,751,888 + 808,980,480 + 8,192) + 15 x (14,680,576 +
    //     808,980,480 + 8,192) = 37,068,325,200 + 12,355,038,720
    //   embedding and head 2 x 31,040 x 4096 = 254,279,680; 4,096
    //   total 49,677,647,696 parameters = 99,355,295,392 B
    CHECK(r->facts_at(p1).weight_bytes == 99'355'295'392.0);
    // The state: 8 value heads x 128 x 128 x 4 B + 1536 x 3 x 2 B = 533,504
    // per layer, x 45 = 24,007,680 B; the KV cache as at tp 4 (one head per
    // GPU): 125,829,120 B per sequence.
    CHECK(r->facts_at(p1).cache_bytes == 24'007'680.0 + 125'829'120.0);
    // The AllReduces over tp_ep (8 GPUs): 2 x 7/8 x 65,536 = 114,688 B at
    // B = 8; the all-to-alls over dp (one GPU) move nothing.
    CHECK(net_bytes(*r, "out_proj", "linear/deltanet", p8) == 114'688.0);
    CHECK(net_bytes(*r, "combine", "linear/mlp/moe", p8) == 114'688.0);
    CHECK(net_bytes(*r, "o_proj", "full/attention", p8) == 114'688.0);
    CHECK(net_bytes(*r, "dispatch", "full/mlp/moe", p8) == 0.0);
    // A = min(512, 8 x ceil(80 / 8)) = 80 experts touched, 10 on this GPU,
    // C = ceil(80 / 80) = 1 row each, whole width: 2 x 10 x 4096 x 1024.
    CHECK(r->find_at("gate", "linear/mlp/moe", p8).metrics.counts.flops == 2.0 * 10 * 4096 * 1024);
}

// Attention DP: each of the 2 ranks holds B / 2 sequences; within a rank as
// tp 4 (the experts over all 8 GPUs).
TEST_CASE("layout qwen3.5: tp 4 x attention-dp 2 x moe_ep 8 splits the sequences", "[qwen3_5][layout]") {
    auto o = h200(4, 2, 8);
    for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
        o.mode = mode;
        auto r = evaluate(import_text(published().c_str(), o));
        // B = 2: one sequence per GPU, its state and cache as at tp 4.
        CHECK(r->facts_at(r->point("B", 2)).cache_bytes ==
              48'015'360.0 + (mode == model::ImportMode::decode ? 125'829'120.0 : 15 * 2 * 2048.0 * 256 * 2));
    }
}

// --tp 4 --pp 3: one stage of 15 linear and 5 full layers (the text: it
// checks once the pipeline syntax is merged).
TEST_CASE("layout qwen3.5: --pp 3 writes one stage of each kind of layer", "[qwen3_5][layout]") {
    auto o = h200(4);
    o.layout.pp = 3;
    auto text = import_text(published().c_str(), o);
    INFO(text);
    CHECK(contains(text, ") as linear x (Ll / PP)\n"));
    CHECK(contains(text, ") as full x ((L - Ll) / PP)\n"));
    CHECK_FALSE(contains(text, "use embedding"));
    CHECK(contains(text, "collective stage_send = sendrecv(pp) bf16[B@dp, D] -> bf16[B@dp, D]\n"));
}

TEST_CASE("layout qwen3.5: a layout it cannot take names the dimension and both numbers",
          "[qwen3_5][layout]") {
    auto error = [](std::string const& config, std::int64_t tp, std::int64_t pp = 1) {
        auto o = h200(tp);
        if (pp > 1) o.layout.pp = pp;
        return import_error(config, o);
    };
    CHECK(contains(error(published(), 32),
                   "error: 'linear_num_key_heads' (16) is not a multiple of --tp 32: each GPU holds "
                   "whole linear-attention heads (their conv channels and state)"));
    CHECK(contains(error(published(), 1, 2),
                   "error: the 45 linear_attention layers of 'layer_types' are not a multiple of --pp 2"));
    // 48 query heads over 3 or 6 key/value heads at tp 4: 3 does not divide
    // 4 (no whole replicas), 4 does not divide 6.
    auto heads = [](char const* kv) {
        std::string text = published();
        text.replace(text.find("\"num_attention_heads\": 32"), 25, "\"num_attention_heads\": 48");
        text.replace(text.find("\"num_key_value_heads\": 2"), 24, std::string("\"num_key_value_heads\": ") + kv);
        return text;
    };
    CHECK(contains(error(heads("3"), 4),
                   "error: --tp 4 is not a multiple of 'num_key_value_heads' (3): beyond KV GPUs each "
                   "GPU holds one key/value head, replicated over tp / KV GPUs"));
    CHECK(contains(error(heads("6"), 4), "error: 'num_key_value_heads' (6) is not a multiple of --tp 4"));
}
