// The parallel layer templates (layers/parallel_dense.roof, parallel_moe.roof,
// parallel_mla.roof; docs/multichip.md, "Serving layouts") by hand, and the
// import's other layout options: --flash, --request, the families on their
// layouts.
#include "layout_support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;

namespace {

// Mixtral 8x7B's shapes on a grid of DP x TP_EP x TP_ETP GPUs, decode.
std::string mixtral_grid(int dp, int tp_ep, int tp_etp) {
    return "scenario \"Mixtral on the grid\"\n"
           "include \"hardware/catalog.roof\"\n"
           "include \"layers/parallel_moe.roof\"\n"
           "target h100_sxm\n"
           "let DP = " + std::to_string(dp) + "\nlet TP_EP = " + std::to_string(tp_ep) +
           "\nlet TP_ETP = " + std::to_string(tp_etp) + "\n"
           "mesh dp = DP over nvlink, tp_ep = TP_EP over nvlink, tp_etp = TP_ETP over nvlink\n"
           "sweep B = [8, 64]\n"
           "tokens = B\n"
           "use embedding_grid(N = B, D = 4096, V = 32000)\n"
           "use moe_grid_decode(B = B, S = 8192, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336,\n"
           "                    E = 8, k = 2, DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP) as decoder x 32\n"
           "use lm_head_grid(N = B, D = 4096, V = 32000)\n";
}

}  // namespace

// DP 2 x TP_EP 2 x TP_ETP 2 = 8 GPUs: attention tp 4 on 2 dp ranks, the
// experts over moe_ep 4 with moe_tp 2. At B = 64: 32 tokens per rank.
TEST_CASE("parallel_moe: Mixtral on dp 2 x tp_ep 2 x tp_etp 2, by hand", "[layout]") {
    auto r = evaluate(mixtral_grid(2, 2, 2));
    auto p = r->point("B", 64);
    // o_proj: the rank's 32 tokens x its 2 of the 8 key/value heads (4 query
    // heads each) x 128 x 4096: 2 x 32 x 1024 x 4096 FLOPs; an AllReduce of
    // 32 x 4096 x 2 B = 262,144 B over tp 4: 2 x 3/4 x 262,144 received.
    auto const& o_proj = r->find_at("o_proj", "decoder/attention", p);
    CHECK(o_proj.metrics.counts.flops == 2.0 * 32 * 1024 * 4096);
    CHECK(o_proj.metrics.net_bytes == 393'216.0);
    // The KV cache per GPU: 32 sequences x 8192 x 2 (k, v) x 2 heads x 128 x
    // 2 B x 32 layers.
    CHECK(r->facts_at(p).cache_bytes == 32.0 * 8192 * 2 * 2 * 128 * 2 * 32);
    // Dispatch: 64 tokens x k 2 = 128 rows over EP = 4 expert groups; R =
    // ceil(128 / (2 x 2 x 2)) = 16 rows to each of the 2 dp ranks, a buffer
    // of 2 x 16 x 4096 x 2 B = 262,144 B, of which the other rank's half,
    // 131,072 B, crosses NVLink.
    auto const& dispatch = r->find_at("dispatch", "decoder/moe", p);
    CHECK(dispatch.metrics.counts.bytes_read == 262'144.0);
    CHECK(dispatch.metrics.net_bytes == 131'072.0);
    // Experts: A = min(8, 4 x ceil(128 / 4)) = 8, C = 128 / 8 = 16 rows; this
    // GPU's 8 / 4 = 2 experts at 14336 / 2 = 7168 wide: gate 2 x 2 x 16 x
    // 4096 x 7168 FLOPs; 16 rows x 2 experts = 32 = 128 / 4 rows per GPU.
    CHECK(r->find_at("gate", "decoder/moe", p).metrics.counts.flops == 2.0 * 2 * 16 * 4096 * 7168);
    // combine: Kc = ceil(2 / 2) = 1 output per token on this GPU, then the one
    // AllReduce of the rank's 32 x 4096 x 2 B over tp 4, as o_proj's.
    auto const& combine = r->find_at("combine", "decoder/moe", p);
    CHECK(combine.metrics.counts.flops == 2.0 * 32 * 4096);
    CHECK(combine.metrics.net_bytes == 393'216.0);
    // Weights per GPU, per layer: attention (q, o 2 x 4096 x 4096, k, v 2 x
    // 4096 x 1024) 41,943,040 / 4 = 10,485,760; experts 3 x 2 x 4096 x 7168 =
    // 176,160,768; router 4096 x 8 = 32,768; norms 2 x 4096: 186,687,488 x 32
    // = 5,973,999,616; embedding and head 2 x 32000 x 4096 / 4 = 65,536,000;
    // final norm 4096: 6,039,539,712 parameters, x 2 B.
    CHECK(r->facts_at(p).weight_bytes == 2 * 6'039'539'712.0);
}

// Axes of one GPU: no bytes and no time on the network, the FLOPs and the
// weights of one chip (the grid's explicit all-to-alls still copy the rows
// through HBM: the permute into expert order).
TEST_CASE("parallel_moe: axes of size 1 cost nothing on the network", "[layout]") {
    auto r = evaluate(mixtral_grid(1, 1, 1));
    for (auto const& c : r->evaluation.cases) {
        INFO(r->scenario.ops[c.op].layer << "/" << r->scenario.ops[c.op].name);
        CHECK(c.metrics.net_bytes == 0.0);
        CHECK(c.metrics.t_net == 0.0);
    }
    // Mixtral 8x7B's 46,702,792,704 parameters (docs/import.md), x 2 B.
    CHECK(r->facts_at(r->point("B", 8)).weight_bytes == 2 * 46'702'792'704.0);
}

TEST_CASE("import layout: --flash and --request on Llama 3.1 70B", "[import][layout]") {
    model::ImportOptions o;
    o.targets = {"h100_sxm"};
    o.flash = true;
    CHECK(contains(import_text(llama31_70b, o), "use dense_decode_flash(B = B, S = S,"));
    o.layout.tp = 8;
    auto text = import_text(llama31_70b, o);
    CHECK(contains(text, "use dense_tp_decode_flash(B = B, S = S,"));
    CHECK(contains(text, "scenario \"LlamaForCausalLM decode, bf16, 8192 context, tp 8, flash attention\""));
    evaluate(text);

    o.flash = false;
    o.request = model::ImportRequest{2048, 256};
    text = import_text(llama31_70b, o);
    INFO(text);
    CHECK(contains(text, "let Tp = 2048"));
    CHECK(contains(text, "let Tg = 256"));
    CHECK(contains(text, "request chat(prompt = Tp, output = Tg, batch = B) {\n    prefill:\n"
                         "        use embedding_tp(N = B * prompt, D = D, V = V, wdt = wdt)\n"
                         "        use dense_tp_prefill(B = B, T = prompt,"));
    CHECK(contains(text, "    decode:\n        use embedding_tp(N = B, D = D, V = V, wdt = wdt)\n"
                         "        use dense_tp_decode(B = B, S = prompt + i,"));
    CHECK_FALSE(contains(text, "tokens ="));
    auto r = evaluate(text);
    CHECK(r->scenario.requests.size() == 1);
}

TEST_CASE("import layout: every family with parallel templates imports, checks and evaluates",
          "[import][layout]") {
    struct Layout {
        char const* config;
        model::ImportLayout layout;
    };
    using L = model::ImportLayout;
    for (auto const& [config, layout] :
         {Layout{mixtral_8x7b, L{2, {}, {}, {}, {}}}, Layout{mixtral_8x7b, L{2, 2, {}, 4, {}}},
          Layout{mixtral_8x7b, L{4, {}, {}, 4, {}}}, Layout{qwen25_7b, L{4, {}, {}, {}, {}}},
          Layout{qwen15_moe, L{4, {}, {}, 4, {}}}, Layout{qwen15_moe, L{2, 2, {}, 2, 2}},
          Layout{deepseek_v3, L{2, 4, {}, 8, {}}}, Layout{deepseek_v3, L{8, {}, {}, 2, 4}}}) {
        for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
            model::ImportOptions o;
            o.targets = {"h200"};
            o.mode = mode;
            o.layout = layout;
            auto text = import_text(config, o);
            INFO(text);
            auto r = evaluate(text);
            CHECK(r->evaluation.has_resident);
        }
    }
}
