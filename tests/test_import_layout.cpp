// `roofline import --tp --dp --ep --etp --pp`: the scenarios on serving
// layouts, their per-GPU figures worked by hand (docs/import.md, "Layouts";
// docs/multichip.md, "Serving layouts").
#include "import_error.hpp"
#include "layout_support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;

namespace {

model::ImportOptions b200_fp8() {
    model::ImportOptions o;
    o.targets = {"b200"};
    o.weight_dtype = "fp8";
    return o;
}

}  // namespace

// DeepSeek-V3, fp8 weights (1 byte; norm gains, the router bias and the latent
// cache in bf16, 2 bytes), decode at S = 8192, B = 64 sequences on 8 B200.
// Shapes: L 61 (Ld 3 dense, 58 MoE), D 7168, H 128, Qr 1536, C 512, Dn 128,
// Dr 64, Dv 128, F 18432, Fe 2048, E 256, k 8, Fs 2048, V 129280.
// MLA's weights per layer: D Qr + Qr H (Dn + Dr) + D (C + Dr) + C H (Dn + Dv)
// + H Dv D = 11,010,048 + 37,748,736 + 4,128,768 + 16,777,216 + 117,440,512
// = 187,105,280 B, its two gains 2 x (1536 + 512) = 4,096 B; the layer's two
// norms 2 x 2 x 7168 = 28,672 B.
TEST_CASE("import layout: DeepSeek-V3 on 8 B200, attention-dp 8 x ep 8, fp8, by hand",
          "[import][layout]") {
    auto o = b200_fp8();
    o.layout.dp = 8;
    o.layout.ep = 8;
    auto text = import_text(deepseek_v3, o);
    INFO(text);
    CHECK(contains(text, "mesh dp = DP over nvlink, tp_ep = TP_EP over nvlink, tp_etp = TP_ETP over nvlink"));
    CHECK(contains(text, "let DP = 8"));
    CHECK(contains(text, "let TP_EP = 1"));
    CHECK(contains(text, "let TP_ETP = 1"));
    CHECK(contains(text, "sweep B = 8 .. 2048 times 2"));
    auto r = evaluate(text);
    auto p = r->point("B", 64);

    // Weights per GPU: everything but the routed experts replicated.
    //   attention and norms 61 x (187,109,376 + 28,672)         = 11,415,420,928
    //   dense MLPs 3 x 3 D F = 3 x 396,361,728                   =  1,189,085,184
    //   per MoE layer: router D E 1,835,008 + shared 3 D Fs 44,040,192
    //     + bias 2 E 512 = 45,875,712; x 58                      =  2,660,791,296
    //   routed experts: 256 / 8 = 32 per GPU, 3 D Fe x 32
    //     = 1,409,286,144 per layer; x 58                        = 81,738,596,352
    //   embedding and head 2 V D 1,853,358,080 + final norm 14,336 = 1,853,372,416
    //   total                                                      98,857,266,176
    CHECK(r->facts_at(p).weight_bytes == 98'857'266'176.0);
    // The latent cache of the GPU's 64 / 8 = 8 sequences: 8 x 8192 x (512 + 64)
    // x 2 B x 61 layers = 4,605,345,792 B (split 8 ways, nothing replicated).
    CHECK(r->facts_at(p).cache_bytes == 4'605'345'792.0);

    // One MoE layer's all-to-alls. Each GPU has 8 tokens x k 8 = 64 rows; R =
    // ceil(64 x 8 / (8 x 8 x 1)) = 8 rows to each of the 8 GPUs (uniform
    // routing), a send buffer of 8 x 8 rows x 7168: dispatch in fp8 (mdt)
    // 458,752 B, of which the 7 other GPUs' 7 x 8 x 7168 = 401,408 B cross
    // NVLink; collect returns bf16 rows: 2 x 401,408 = 802,816 B.
    auto const& dispatch = r->find_at("dispatch", "moe_decoder/moe", p);
    auto const& collect = r->find_at("collect", "moe_decoder/moe", p);
    CHECK(dispatch.metrics.counts.bytes_read == 458'752.0);
    CHECK(dispatch.metrics.net_bytes == 401'408.0);
    CHECK(collect.metrics.net_bytes == 802'816.0);
    // 401,408 B / 900 GB/s = 0.446 us and 0.892 us: below NVLink's 1 us step
    // latency (the catalog's default), which each all-to-all takes.
    CHECK(dispatch.metrics.t_net == Approx(1e-6));
    CHECK(collect.metrics.t_net == Approx(1e-6));
    // No AllReduce moves a byte: the tp axes have one GPU each.
    CHECK(r->find_at("o_proj", "moe_decoder/attention", p).metrics.net_bytes == 0.0);
    CHECK(r->find_at("combine", "moe_decoder/moe", p).metrics.t_net == 0.0);
    // The experts: A = min(256, 8 x ceil(512 / 8)) = 256 touched, C =
    // ceil(512 / 256) = 2 rows each, 32 on this GPU: gate 2 x 32 x 2 x 7168 x
    // 2048 FLOPs, reading its 32 experts' 7168 x 2048 B and the 64 rows.
    auto const& gate = r->find_at("gate", "moe_decoder/moe", p);
    CHECK(gate.metrics.counts.flops == 2.0 * 32 * 2 * 7168 * 2048);
    CHECK(gate.metrics.counts.bytes_read == 32.0 * 7168 * 2048 + 64.0 * 7168);

    // The step: every op memory-bound at B = 8 per GPU (MLA's scores at about
    // 100 FLOP/B, below B200's 2.25e15 / 8e12 = 281), so the step is its
    // HBM bytes / 8 TB/s plus the all-to-alls, 58 x 2 x 1 us = 116 us. The
    // bytes, by hand, at least:
    //   the weights read: all but the table (gathered), 98,857,266,176
    //     - V D 926,679,040                                 = 97,930,587,136
    //   the cache read twice, by scores ([8, 8192, 576] bf16) and values
    //     ([8, 8192, 512]): 142,606,336 x 61                =  8,698,986,496
    //   the scores [8, 128, 8192] bf16 = 16,777,216 B written, read and
    //     written by softmax, read by values: 4 x 16,777,216 x 61 = 4,093,640,704
    //   sum 110,723,214,336 B / 8e12 = 13.840 ms; + 0.116 ms = 13.956 ms.
    // The other activations (a few MB per layer) add well under 1 %.
    double floor = 110'723'214'336.0 / 8e12 + 58 * 2 * 1e-6;
    CHECK(r->step(p) > floor);
    CHECK(r->step(p) < floor * 1.01);
}

// The same on tensor-parallel attention: --tp 8, the experts' width split 8
// ways (moe_tp 8: the layout the sample runs most for DeepSeek).
TEST_CASE("import layout: DeepSeek-V3 on 8 B200 with tp 8 (moe_tp 8), fp8, by hand",
          "[import][layout]") {
    auto o = b200_fp8();
    o.layout.tp = 8;
    auto text = import_text(deepseek_v3, o);
    INFO(text);
    CHECK(contains(text, "let TP_ETP = 8"));
    CHECK(contains(text, "sweep B = 1 .. 256 times 2"));
    auto r = evaluate(text);
    auto p = r->point("B", 64);
    // Weights per GPU:
    //   MLA: q_down, kv_down, k_rope replicated D (Qr + C + Dr) = 15,138,816,
    //     gains 4,096; the heads' weights 171,966,464 / 8 = 21,495,808:
    //     36,638,720; + norms 28,672; x 61                     =  2,236,710,912
    //   dense MLPs 3 x 396,361,728 / 8                         =    148,635,648
    //   per MoE layer: router 1,835,008 (replicated) + shared 44,040,192 / 8
    //     + experts 3 E D Fe / 8 = 1,409,286,144 + bias 512; x 58 = 82,164,347,904
    //   embedding and head 1,853,358,080 / 8 + final norm 14,336 =    231,684,096
    //   total                                                     84,781,378,560
    CHECK(r->facts_at(p).weight_bytes == 84'781'378'560.0);
    // The latent cache is not split by tp: every GPU holds all 64 sequences'
    // 64 x 8192 x 576 x 2 B x 61 = 36,842,766,336 B (8 times attention DP's).
    CHECK(r->facts_at(p).cache_bytes == 36'842'766'336.0);
    // Per MoE layer, two AllReduces of 64 x 7168 x 2 B = 917,504 B over 8
    // GPUs (o_proj, and the combine that ends the routed and shared
    // experts): 2 x 7/8 x 917,504 = 1,605,632 B received each; each takes
    // its latency floor 2 x 7 x 1 us = 14 us (1.6 MB at 900 GB/s is 1.8 us).
    for (auto const* op : {"attention/o_proj", "moe/combine"}) {
        std::string name(op);
        auto slash = name.find('/');
        auto const& c = r->find_at(name.substr(slash + 1), "moe_decoder/" + name.substr(0, slash), p);
        CHECK(c.metrics.net_bytes == 1'605'632.0);
        CHECK(c.metrics.t_net == Approx(14e-6));
    }
    // No all-to-all crosses the network (dp has one GPU); the shared experts'
    // down projection is reduced by the combine, not by an AllReduce of its own.
    CHECK(r->find_at("dispatch", "moe_decoder/moe", p).metrics.net_bytes == 0.0);
    CHECK(r->find_at("down", "moe_decoder/shared_experts", p).metrics.net_bytes == 0.0);
    // Each expert's slice: 2048 / 8 = 256 wide, all 256 experts on every GPU,
    // C = ceil(512 / 256) = 2 rows each: gate 2 x 256 x 2 x 7168 x 256 FLOPs.
    CHECK(r->find_at("gate", "moe_decoder/moe", p).metrics.counts.flops == 2.0 * 256 * 2 * 7168 * 256);
}

// Llama 3.1 70B on tp 8 against the shipped scenarios/llama3-70b-decode-tp.roof
// at TP = 8 (the same shapes: D 8192, H 64, KV 8, Hd 128, F 28672, V 128256,
// L 80, S 8192).
TEST_CASE("import layout: Llama 3.1 70B --tp 8 is the shipped tensor-parallel scenario",
          "[import][layout]") {
    model::ImportOptions o;
    o.targets = {"h100_sxm", "h200", "b200"};
    o.layout.tp = 8;
    auto text = import_text(llama31_70b, o);
    INFO(text);
    CHECK(contains(text, "mesh tp = TP over nvlink"));
    auto imported = evaluate(text);
    auto shipped = evaluate(std::string("include \"") + ROOFLINE_SOURCE_DIR +
                            "/scenarios/llama3-70b-decode-tp.roof\"\n");
    for (double b : {1.0, 64.0, 256.0}) {
        auto pi = imported->point("B", b);
        std::size_t ps = shipped->evaluation.point_count;
        for (std::size_t q = 0; q < shipped->evaluation.point_count; ++q)
            if (shipped->evaluation.sweep_value(q, 0) == 8 && shipped->evaluation.sweep_value(q, 1) == b)
                ps = q;
        REQUIRE(ps < shipped->evaluation.point_count);
        // Weights per GPU, by hand: per layer q, o 2 x 8192^2 = 134,217,728,
        // k, v 2 x 8192 x 1024 = 16,777,216, the MLP 3 x 8192 x 28672 =
        // 704,643,072: 855,638,016 / 8 = 106,954,752, + norms 16,384
        // (replicated); x 80 = 8,557,690,880; embedding and head 2 x 128256 x
        // 8192 / 8 = 262,668,288; final norm 8,192: 8,820,367,360 parameters,
        // 17,640,734,720 B in bf16.
        CHECK(imported->facts_at(pi).weight_bytes == 17'640'734'720.0);
        CHECK(shipped->facts_at(ps).weight_bytes == 17'640'734'720.0);
        // KV cache per GPU: B x 8192 x 2 (k, v) x 8 / 8 heads x 128 x 2 B x 80.
        CHECK(imported->facts_at(pi).cache_bytes == b * 8192 * 2 * 1 * 128 * 2 * 80);
        // Two AllReduces per layer of B x 8192 x 2 B: 2 x 7/8 x that received.
        CHECK(imported->find_at("o_proj", "decoder/attention", pi).metrics.net_bytes ==
              2 * 7.0 / 8 * b * 8192 * 2);
        CHECK(imported->find_at("down", "decoder/mlp", pi).metrics.net_bytes == 2 * 7.0 / 8 * b * 8192 * 2);
        for (auto const& c : imported->evaluation.cases) {
            if (c.point != pi) continue;
            auto const& op = imported->scenario.ops[c.op];
            INFO(op.layer << "/" << op.name << " B = " << b);
            auto const& s = shipped->find_at(op.name, op.layer, ps);
            CHECK(c.metrics.counts.flops == s.metrics.counts.flops);
            CHECK(c.metrics.counts.bytes_read == s.metrics.counts.bytes_read);
            CHECK(c.metrics.counts.bytes_written == s.metrics.counts.bytes_written);
            CHECK(c.metrics.net_bytes == s.metrics.net_bytes);
        }
    }
}

// --pp 2 --tp 4: the text of one stage, and that stage checked and run.
TEST_CASE("import layout: Llama 3.1 70B --pp 2 --tp 4 writes one pipeline stage",
          "[import][layout]") {
    model::ImportOptions o;
    o.layout.tp = 4;
    o.layout.pp = 2;
    auto text = import_text(llama31_70b, o);
    INFO(text);
    CHECK(contains(text, "let TP = 4"));
    CHECK(contains(text, "let PP = 2"));
    CHECK(contains(text, "mesh tp = TP over nvlink, pp = PP over nvlink pipeline\n"));
    CHECK(contains(text, ") as decoder x (L / PP)\n"));
    // The last stage: the LM head, not the embedding.
    CHECK_FALSE(contains(text, "use embedding"));
    CHECK(contains(text, "use lm_head_tp(N = B, D = D, V = V, wdt = wdt, mdt = mdt)\n"));
    CHECK(contains(text, "collective stage_send = sendrecv(pp) bf16[B, D] -> bf16[B, D]\n"));
    // The stage runs. Its weights per GPU, by hand: a layer's on one of 4
    // tp GPUs is (D x (H + 2 KV) Hd + H Hd x D + 3 D F) / 4 x 2 B + 2 norms
    // x 2 D B = (8192 x 10240 + 8192 x 8192 + 3 x 8192 x 28672) / 4 x 2 +
    // 32,768 = 427,819,008 + 32,768 = 427,851,776 B; 40 layers 17,114,071,040;
    // the LM head's vocabulary quarter 128256 x 8192 / 4 x 2 = 525,336,576
    // and the final norm 16,384: 17,639,424,000 B (the first stage's
    // embedding, a gather, is left out).
    auto r = evaluate(text);
    CHECK(r->facts(1).weight_bytes == 17'639'424'000.0);
    // The send: B x D in bf16 to the next stage, B = 1: 16,384 B.
    CHECK(r->find("stage_send", "", 1).metrics.net_bytes == 16'384.0);
    o.mode = model::ImportMode::prefill;
    CHECK(contains(import_text(llama31_70b, o),
                   "collective stage_send = sendrecv(pp) bf16[B, T, D] -> bf16[B, T, D]\n"));
}

TEST_CASE("import layout: a layout the model cannot take names the dimension and both numbers",
          "[import][layout]") {
    auto error = [](std::string const& config, auto set) {
        model::ImportOptions o;
        set(o.layout);
        return import_error(config, o);
    };
    using L = model::ImportLayout;
    CHECK(contains(error(llama31_70b, [](L& l) { l.tp = 16; }),
                   "config.json: error: 'num_key_value_heads' (8) is not a multiple of --tp 16: "
                   "each GPU holds whole key/value heads (and their KV cache)"));
    CHECK(contains(error(llama31_70b, [](L& l) { l.tp = 3; }),
                   "error: 'num_attention_heads' (64) is not a multiple of --tp 3: each GPU holds whole heads"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.tp = 3; }),
                   "error: 'num_attention_heads' (128) is not a multiple of --tp 3"));
    CHECK(contains(error(llama31_70b, [](L& l) { l.pp = 3; }),
                   "error: 'num_hidden_layers' (80) is not a multiple of --pp 3: every stage holds "
                   "as many layers (the scenario is one stage)"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.pp = 2; }),
                   "error: 'first_k_dense_replace' (3) is not a multiple of --pp 2"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.tp = 8; l.ep = 3; }),
                   "error: --ep 3 does not divide the worker's 8 GPUs (--tp 8 x --dp 1): "
                   "moe_ep x moe_tp must equal tp x attention_dp"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.tp = 8; l.ep = 4; l.etp = 4; }),
                   "error: --ep 4 x --etp 4 = 16 GPUs for the experts, but the worker has --tp 8 "
                   "x --dp 1 = 8: moe_ep x moe_tp must equal tp x attention_dp"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.dp = 16; l.ep = 4; l.etp = 4; }),
                   "error: --ep 4 is not a multiple of --dp 16: each expert's width would be split "
                   "over data-parallel GPUs"));
    CHECK(contains(error(deepseek_v3, [](L& l) { l.dp = 512; l.ep = 512; }),
                   "error: 'n_routed_experts' (256) is not a multiple of --ep 512: each GPU holds "
                   "whole experts"));
    // Widths: a config with one changed (the MLP's, an expert's, the vocabulary).
    auto changed = [](char const* config, std::string const& from, std::string const& to) {
        std::string text(config);
        return text.replace(text.find(from), from.size(), to);
    };
    auto tp8 = [](L& l) { l.tp = 8; };
    CHECK(contains(error(changed(llama31_70b, "28672", "28676"), tp8),
                   "error: 'intermediate_size' (28676) is not a multiple of --tp 8: the MLP's width "
                   "is split over tp"));
    CHECK(contains(error(changed(deepseek_v3, "\"moe_intermediate_size\": 2048",
                                 "\"moe_intermediate_size\": 2052"), tp8),
                   "error: 'moe_intermediate_size' (2052) is not a multiple of --etp 8: each "
                   "expert's width is split over moe_tp"));
    CHECK(contains(error(changed(llama31_70b, "128256", "128257"), tp8),
                   "error: 'vocab_size' (128257) is not a multiple of --tp 8: the embedding and "
                   "the head are split over tp"));
    CHECK(contains(error(llama31_70b, [](L& l) { l.dp = 2; }),
                   "error: --dp 2: LlamaForCausalLM is dense, and a dense model is served with "
                   "replicas, each a worker of its own: import one with --tp (and --pp)"));
    CHECK(contains(error(llama31_70b, [](L& l) { l.ep = 2; }),
                   "error: --ep: LlamaForCausalLM has no experts"));
    model::ImportOptions flash;
    flash.flash = true;
    flash.layout.tp = 8;
    CHECK(contains(import_error(deepseek_v3, flash),
                   "error: --flash: DeepseekV3ForCausalLM has no flash-attention templates on a "
                   "parallel layout"));
}
