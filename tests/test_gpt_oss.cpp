// gpt-oss (GptOssForCausalLM): the parameter count against the model card,
// the import of its alternating sliding-window and full layers, and one
// layer's decode step at S < W and S > W worked out by hand, for a sliding
// and a full layer (layers/gpt_oss.roof).
#include "gpt_oss_glm_configs.hpp"
#include "import_error.hpp"
#include "layer_totals.hpp"

#include "roofline/importer/import_config.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace roofline;
using roofline::test::contains;
using namespace roofline::test::gpt_oss_glm_configs;

namespace {

constexpr char const* chip = R"(
hardware chip {
    hbm_bandwidth = 1e12 B/s
    hbm_capacity  = 1e12 B
    peak bf16     = 1e15 FLOP/s
}
target chip
)";

}  // namespace

TEST_CASE("gpt-oss-120b: 116,829,156,672 parameters, 5,132,849,472 active", "[gpt_oss][import]") {
    // D 2880, 64 heads of 64 (H Hd = 4096, not D), KV 8, 128 experts of
    // width 2880, top-4, 36 layers, V 201088. Per layer:
    //   q 2880 x 4096 + 4096 (bias)          = 11,800,576
    //   k, v 2 x (2880 x 512 + 512)           =  2,950,144
    //   o 4096 x 2880 + 2880                  = 11,799,360
    //   sinks 64                              =         64
    //   attention                               26,550,144
    //   router 2880 x 128 + 128               =    368,768
    //   expert 3 x 2880 x 2880 + 2 x 2880 + 2880 = 24,891,840; x 128 = 3,186,155,520
    //   norms 2 x 2880                        =      5,760
    //   layer                                 3,213,080,192; x 36 = 115,670,886,912
    // Embedding and LM head 2 x 201088 x 2880 = 1,158,266,880; final norm 2,880.
    // Total 116,829,156,672: the model card's 116.83B (OpenAI's gpt-oss card:
    // MLP 114.71B = 36 x (3,186,155,520 + 368,768), attention 0.96B =
    // 36 x 26,550,144, embedding + unembedding 1.16B).
    auto imported = model::import_config(gpt_oss_120b, "config.json");
    CHECK(imported.architecture == "GptOssForCausalLM");
    CHECK(imported.parameters == 116'829'156'672.0);
    CHECK(std::abs(imported.parameters / 116.83e9 - 1) < 0.0005);
    CHECK(contains(imported.text, "# Parameters: 116,829,156,672"));
    // Active per token: attention, router, 4 experts (4 x 24,891,840 =
    // 99,567,360), norms: 126,492,032 per layer, x 36 = 4,553,713,152; the
    // LM head 201088 x 2880 = 579,133,440 (not the embedding, a lookup);
    // the final norm 2,880. 5,132,849,472: the card's 5.13B active.
    CHECK(contains(imported.text, "# Active parameters per token: 5,132,849,472"));
    CHECK(std::abs(5'132'849'472.0 / 5.13e9 - 1) < 0.005);  // 5.13B, rounded: within 0.5 %

    // The checkpoint's quantization_config: mxfp4 experts (4.25 bits:
    // 0.53125 B), the rest bf16. The expert weights are 36 x 128 x 3 x 2880 x
    // 2880 = 114,661,785,600 elements; 2 x 116,829,156,672 = 233,658,313,344
    // B less (2 - 0.53125) x 114,661,785,600 = 168,409,497,600 B:
    // 65,248,815,744 B (the published checkpoint is about 65 GB).
    auto r = test::evaluate_layers(imported.text);
    CHECK(contains(imported.text, "let edt = mxfp4"));
    CHECK(r->facts(1).weight_bytes == 65'248'815'744.0);
    // The resident KV per sequence at S = 8192: 18 sliding layers hold W = 128
    // positions, 18 full layers 8192; 2 (K, V) x 8 x 64 x 2 B = 2,048 B per
    // position and layer: 18 x 2,048 x (128 + 8192) = 306,708,480 B.
    CHECK(r->facts(1).cache_bytes == 306'708'480.0);
    CHECK(r->facts(2).cache_bytes == 2 * 306'708'480.0);
    CHECK(contains(imported.text, "let Ls = 18"));
    CHECK(contains(imported.text, "let W  = 128"));
    CHECK(contains(imported.text, "use gpt_oss_decode(B = B, S = S, W = W, D = D"));
    CHECK(contains(imported.text, "as sliding x Ls\n"));
    CHECK(contains(imported.text, "as full x (L - Ls)\n"));

    // --dtype bf16 overrides the checkpoint: every weight in bf16, the
    // biases and sinks in adt (bf16).
    model::ImportOptions bf16;
    bf16.weight_dtype_given = true;
    auto all_bf16 = model::import_config(gpt_oss_120b, "config.json", bf16);
    CHECK(test::evaluate_layers(all_bf16.text)->facts(1).weight_bytes == 2 * 116'829'156'672.0);
}

TEST_CASE("gpt-oss: one layer's decode step at S < W and S > W, sliding and full",
          "[gpt_oss]") {
    // B = 1: one token. A sliding layer (W = 128) and a full layer at
    // S = 64 (both attend to 64 positions) and S = 4096 (128 and 4096).
    auto r = test::evaluate_layers(std::string(R"(
include "layers/gpt_oss.roof"
)") + chip + R"(
sweep S = [64, 4096]
tokens = 1
use gpt_oss_decode(B = 1, S = S, W = 128, D = 2880, H = 64, KV = 8, Hd = 64, F = 2880,
                   E = 128, k = 4) as sliding
use gpt_oss_decode(B = 1, S = S, D = 2880, H = 64, KV = 8, Hd = 64, F = 2880,
                   E = 128, k = 4) as full
)");
    // Sw = min(S, W) positions attended to. The ops that do not depend on Sw
    // (FLOPs; bytes read; written), with D 2880, H Hd 4096, KV Hd 512, and
    // at one token the A = 4 experts it is routed to, C = 1 token each:
    //   attn_norm, mlp_norm  4 D = 11,520; 4 D = 11,520 (x, gain); 2 D = 5,760 (each)
    //   q_proj   2 D 4096 = 23,592,960; 2 D + 2 D 4096 = 23,598,720; 8,192
    //   q_bias   4,096; 16,384; 8,192
    //   k_proj, v_proj  2 D 512 = 2,949,120; 2 D + 2 D 512 = 2,954,880; 1,024 (each)
    //   k_bias, v_bias  512; 2,048; 1,024 (each)
    //   rope_q   3 x 4096 = 12,288; 8,192 + 2 x 128 (cos, sin) = 8,448; 8,192
    //   rope_k   3 x 512 = 1,536; 1,024 + 256 = 1,280; 1,024
    //   o_proj   23,592,960; 8,192 + 2 x 4096 D = 23,601,152; 5,760
    //   o_bias   2,880; 11,520; 5,760
    //   attn_residual, mlp_residual  2,880; 11,520; 5,760 (each)
    //   router   2 D 128 = 737,280; 2 D + 2 D 128 = 743,040; 256
    //   router_bias  128; 512; 256     route  5 x 128 = 640; 256; 256
    //   gate_up  2 x 4 x D x 5760 = 132,710,400; 2 x 4 D + 2 x 4 x D x 5760 = 132,733,440; 46,080
    //   gate_up_bias  4 x 5760 = 23,040; 92,160; 46,080
    //   swiglu   10 x 4 x 2880 = 115,200; 46,080; 23,040
    //   down     2 x 4 x 2880 x D = 66,355,200; 23,040 + 66,355,200 = 66,378,240; 23,040
    //   down_bias  11,520; 46,080; 23,040
    //   combine  2 x 4 x D = 23,040; 23,040 + 8 = 23,048; 5,760
    // Sums: 253,111,232 FLOPs; 253,260,296 B read; 232,064 B written.
    // The attention over Sw positions:
    //   scores   2 x 64 x 64 x Sw = 8,192 Sw; q 8,192 + K 8 x 64 x 2 Sw = 1,024 Sw; 128 Sw
    //   softmax with the sink  64 x (5 Sw + 4) = 320 Sw + 256; 128 Sw + 128 (sinks); 128 Sw
    //   values   8,192 Sw; 128 Sw + V 1,024 Sw; 8,192
    // Layer: FLOPs 253,111,488 + 16,704 Sw; read 253,268,616 + 2,304 Sw;
    // written 240,256 + 256 Sw.
    auto check_layer = [&](char const* layer, double S, double Sw) {
        INFO(layer << " at S = " << S);
        auto t = r->totals(layer, S);
        CHECK(t.flops == 253'111'488.0 + 16'704.0 * Sw);
        CHECK(t.bytes_read == 253'268'616.0 + 2'304.0 * Sw);
        CHECK(t.bytes_written == 240'256.0 + 256.0 * Sw);
    };
    // S = 64 < W: both layers attend to 64 positions: 254,180,544 FLOPs,
    // 253,416,072 B read, 256,640 B written.
    check_layer("sliding", 64, 64);
    check_layer("full", 64, 64);
    CHECK(r->totals("sliding", 64).flops == 254'180'544.0);
    CHECK(r->totals("full", 64).bytes_read == 253'416'072.0);
    // S = 4096 > W: the sliding layer 128 (255,249,600 FLOPs, 253,563,528 B
    // read), the full layer 4096 (321,531,072 FLOPs, 262,705,800 B read).
    check_layer("sliding", 4096, 128);
    check_layer("full", 4096, 4096);
    CHECK(r->totals("sliding", 4096).flops == 255'249'600.0);
    CHECK(r->totals("full", 4096).flops == 321'531'072.0);
    CHECK(r->totals("full", 4096).bytes_read == 262'705'800.0);
    // The sink: 4 FLOPs per head beyond the 5 per score, and its 64 logits read.
    CHECK(r->counts("softmax", "sliding/attention", 4096).flops == 64 * (5 * 128 + 4.0));
    CHECK(r->counts("softmax", "sliding/attention", 4096).bytes_read == 128 * 128 + 128.0);
    // Resident KV per sequence, 2,048 B per position and layer: S = 64, 64 +
    // 64 positions: 262,144 B; S = 4096: 128 + 4096: 8,650,752 B.
    CHECK(r->facts(64).cache_bytes == 262'144.0);
    CHECK(r->facts(4096).cache_bytes == 8'650'752.0);
    // Weights: 2 layers x 3,213,080,192 parameters x 2 B (all bf16).
    CHECK(r->facts(64).weight_bytes == 2 * 2 * 3'213'080'192.0);
}

TEST_CASE("gpt-oss: prefill scores a sliding layer's band, a full layer's triangle",
          "[gpt_oss]") {
    // T = 300, W = 128. Sliding: query i scores min(i, 128) keys: 128 x 129 / 2
    // = 8,256 for i <= 128, then 172 x 128 = 22,016: P = 30,272 per head.
    // Full: 300 x 301 / 2 = 45,150. scores: 2 x 64 heads x 64 x P.
    auto r = test::evaluate_layers(std::string(R"(
include "layers/gpt_oss.roof"
)") + chip + R"(
sweep B = [1]
tokens = 300
use gpt_oss_prefill(B = 1, T = 300, W = 128, D = 2880, H = 64, KV = 8, Hd = 64, F = 2880,
                    E = 128, k = 4) as sliding
use gpt_oss_prefill(B = 1, T = 300, D = 2880, H = 64, KV = 8, Hd = 64, F = 2880,
                    E = 128, k = 4) as full
)");
    CHECK(r->counts("scores", "sliding/attention", 1).flops == 8192.0 * 30'272);
    CHECK(r->counts("values", "sliding/attention", 1).flops == 8192.0 * 30'272);
    CHECK(r->counts("scores", "full/attention", 1).flops == 8192.0 * 45'150);
    // Softmax: 5 P + 4 T per head: 64 x (5 x 30,272 + 1,200).
    CHECK(r->counts("softmax", "sliding/attention", 1).flops == 64 * (5 * 30'272 + 1'200.0));
    // The cache written: 128 positions (sliding) and 300 (full), 2,048 B each.
    CHECK(r->facts(1).cache_bytes == 2'048.0 * (128 + 300));
}

TEST_CASE("gpt-oss: layer_types other than sliding and full, or of the wrong length, are errors",
          "[gpt_oss][import]") {
    std::string config = gpt_oss_120b;
    auto at = config.find("\"full_attention\"");
    std::string odd = config;
    odd.replace(at, std::string("\"full_attention\"").size(), "\"linear_attention\"");
    CHECK(contains(test::import_error(odd), "'layer_types' holds \"linear_attention\""));
    std::string fewer = config;
    fewer.replace(fewer.find("\"num_hidden_layers\": 36"), 23, "\"num_hidden_layers\": 35");
    CHECK(contains(test::import_error(fewer), "must be a list of 35 layer kinds"));
}

TEST_CASE("gpt-oss: the templates are closed, every name a parameter or a let", "[gpt_oss]") {
    // No top-level values: a name a template does not bind is an error.
    auto r = test::evaluate_layers(std::string(R"(
include "layers/gpt_oss.roof"
)") + chip + R"(
use gpt_oss_attention(B = 3, T = 2, S = 5, R = 4, P = 9, D = 16, H = 4, KV = 2, Hd = 4)
use gpt_oss_moe(T = 3, D = 16, F = 8, E = 4, k = 2, ewdt = mxfp4)
use gpt_oss_decode(B = 3, S = 5, W = 4, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2)
use gpt_oss_prefill(B = 3, T = 5, W = 4, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2)
)");
    CHECK(r->evaluation.has_resident);
}

TEST_CASE("gpt-oss: attention_bias false is an error", "[gpt_oss][import]") {
    std::string config = gpt_oss_120b;
    config.replace(config.find("\"attention_bias\": true"), 22, "\"attention_bias\": false");
    CHECK(contains(test::import_error(config),
                   "field 'attention_bias' is false; GptOssForCausalLM is imported with biases"));
}
