// GLM-5 (GlmMoeDsaForCausalLM): the parameter count against the model card,
// and one MoE layer's decode step with DeepSeek Sparse Attention worked out
// by hand (layers/dsa.roof): the indexer over every cached key, attention
// over the top-k, at S < top-k and S > top-k.
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

TEST_CASE("GLM-5: 743,911,218,432 parameters (the card's 744B), 40,833,146,112 active",
          "[glm_dsa][import]") {
    // MLA per layer (D 6144, H 64, Qr 2048, C 512, Dn 192, Dr 64, Dv 256):
    //   q_a 6144 x 2048 = 12,582,912; its norm 2,048
    //   q_b 2048 x 64 x (192 + 64) = 33,554,432
    //   kv_a 6144 x (512 + 64) = 3,538,944; its norm 512
    //   kv_b 512 x 64 x (192 + 256) = 14,680,064
    //   o 64 x 256 x 6144 = 100,663,296;  MLA 165,022,208
    // The indexer (Hi 32, Di 128): wq_b 2048 x 32 x 128 = 8,388,608, wk 6144 x
    //   128 = 786,432, k_norm 2 x 128 = 256, weights_proj 6144 x 32 = 196,608:
    //   9,371,904
    // 3 dense layers: + 3 x 6144 x 12288 = 226,492,416 + norms 12,288 = 400,898,816
    // 75 MoE layers: routed 256 x 3 x 6144 x 2048 = 9,663,676,416, router
    //   6144 x 256 = 1,572,864, score-correction bias 256, shared 3 x 6144 x
    //   2048 = 37,748,736, norms 12,288: + MLA + indexer = 9,877,404,672
    // 3 x 400,898,816 + 75 x 9,877,404,672 = 742,008,046,848; embedding and
    // LM head 2 x 154880 x 6144 = 1,903,165,440; final norm 6,144.
    // Total 743,911,218,432: the card's "744B" (a rounded figure: within
    // 0.5 %; the MTP layer, num_nextn_predict_layers, is not part of it).
    auto imported = model::import_config(glm5, "config.json");
    CHECK(imported.architecture == "GlmMoeDsaForCausalLM");
    CHECK(imported.parameters == 743'911'218'432.0);
    CHECK(std::abs(imported.parameters / 744e9 - 1) < 0.005);
    CHECK(contains(imported.text, "# Parameters: 743,911,218,432"));
    // Active per token: per MoE layer MLA + indexer 174,394,112, 8 routed
    // experts 8 x 37,748,736 = 301,989,888, router and bias 1,573,120, shared
    // 37,748,736, norms 12,288: 515,718,144; x 75 = 38,678,860,800. Dense
    // layers 3 x 400,898,816 = 1,202,696,448; the LM head 154880 x 6144 =
    // 951,582,720 (not the embedding, a lookup); final norm 6,144.
    // 40,833,146,112. The card gives "40B" only, rounded: within 2.5 % of it
    // (39,881,563,392 without the LM head).
    CHECK(contains(imported.text, "# Active parameters per token: 40,833,146,112"));
    CHECK(std::abs(40'833'146'112.0 / 40e9 - 1) < 0.025);

    auto r = test::evaluate_layers(imported.text);
    CHECK(r->facts(1).weight_bytes == 2 * 743'911'218'432.0);
    // The cache per token and layer: the latent 512 + 64 in bf16 (1,152 B),
    // the indexer's key 128 in fp8 (128 B) and its fp32 scale (4 B): 1,284 B;
    // at S = 8192, 78 layers: 78 x 8192 x 1,284 = 820,445,184 B per sequence.
    CHECK(r->facts(1).cache_bytes == 820'445'184.0);
    // --set edt=fp8: the routed experts, 75 x 9,663,676,416 =
    // 724,775,731,200 weights, at 1 B instead of 2; the rest (shared experts,
    // router, attention, indexer) stays bf16: 2 x 743,911,218,432 -
    // 724,775,731,200 = 763,046,705,664 B.
    std::string fp8 = imported.text;
    fp8.replace(fp8.find("let edt = wdt"), 13, "let edt = fp8");
    CHECK(test::evaluate_layers(fp8)->facts(1).weight_bytes == 763'046'705'664.0);
    CHECK(contains(imported.text, "let Kt = 2048"));
    CHECK(contains(imported.text, "use dsa_dense_decode(B = B, S = S, D = D"));
    CHECK(contains(imported.text, "Hi = Hi, Di = Di, Kt = Kt, wdt = wdt, mdt = mdt, ewdt = edt) as moe_decoder x (L - Ld)"));
}

TEST_CASE("GLM-5: one MoE layer's decode step, the indexer over all keys, MLA over the top-k",
          "[glm_dsa]") {
    auto r = test::evaluate_layers(R"(
include "layers/dsa.roof"
hardware chip {
    hbm_bandwidth = 1e12 B/s
    hbm_capacity  = 1e12 B
    peak bf16     = 1e15 FLOP/s
    peak fp8      = 2e15 FLOP/s
}
target chip
sweep S = [1024, 8192]
tokens = 1
use dsa_moe_decode(B = 1, S = S, D = 6144, H = 64, Qr = 2048, C = 512, Dn = 192, Dr = 64,
                   Dv = 256, F = 2048, E = 256, k = 8, Fs = 2048, Hi = 32, Di = 128,
                   Kt = 2048) as moe
)");
    // Ks = min(S, 2048) positions selected: 1024 at S = 1024, 2048 at 8192.
    // The indexer (FLOPs; bytes read; written), B = 1, bf16 but idt = fp8:
    //   iq_proj  2 x 2048 x 4096 = 16,777,216; 4,096 + 16,777,216 = 16,781,312; 8,192
    //   rope_iq  3 x 32 x 64 = 6,144; 4,096 + 256 (cos, sin) = 4,352; 4,096
    //   iq_quant 2 x 4096 = 8,192; 8,192; 4,096 (fp8)
    //   ik_proj  2 x 6144 x 128 = 1,572,864; 12,288 + 1,572,864 = 1,585,152; 256
    //   ik_norm  7 x 128 = 896; 256 + 2 x 256 (gain, bias) = 768; 256
    //   rope_ik  3 x 64 = 192; 384; 128      ik_quant  256; 256; 128
    //   iw_proj  2 x 6144 x 32 = 393,216; 12,288 + 393,216 = 405,504; 64
    //   sums 18,758,976 FLOPs; 18,785,920 B read; 17,216 B written
    // Against the S cached keys:
    //   index_scores  2 x 32 x 128 S = 8,192 S; q 4,096 + keys 128 S (fp8); 64 S
    //   index_relu    32 S; 64 S; 64 S
    //   index_sum     2 x 32 S = 64 S; 64 S + 64 (weights); 2 S
    //   index_scale   S; 2 S + 4 S (the fp32 scales); 2 S
    //   index_topk    S; 2 S (Ks divides S at both points); 4 Ks
    // Indexer: FLOPs 18,758,976 + 8,290 S; read 18,790,080 + 264 S; written
    // 17,216 + 132 S + 4 Ks.
    auto indexer = [&](double S, double Ks) {
        INFO("S = " << S);
        auto t = r->totals("moe/indexer", S);
        CHECK(t.flops == 18'758'976.0 + 8'290.0 * S);
        CHECK(t.bytes_read == 18'790'080.0 + 264.0 * S);
        CHECK(t.bytes_written == 17'216.0 + 132.0 * S + 4.0 * Ks);
    };
    indexer(1024, 1024);  // 27,247,936 FLOPs, 19,060,416 B read
    indexer(8192, 2048);  // 86,670,656 FLOPs, 20,952,768 B read
    CHECK(r->totals("moe/indexer", 1024).flops == 27'247'936.0);
    CHECK(r->totals("moe/indexer", 8192).bytes_read == 20'952'768.0);
    // MLA over the Ks gathered latents (C + Dr = 576):
    //   scores  2 x 64 x 576 Ks = 73,728 Ks; q 64 x 576 x 2 = 73,728 + 1,152 Ks; 128 Ks
    //   softmax 5 x 64 Ks = 320 Ks;   values  2 x 64 x 512 Ks = 65,536 Ks; 128 Ks + 1,024 Ks
    CHECK(r->counts("scores", "moe/attention", 1024).flops == 73'728.0 * 1024);
    CHECK(r->counts("scores", "moe/attention", 8192).flops == 73'728.0 * 2048);
    CHECK(r->counts("scores", "moe/attention", 8192).bytes_read == 73'728.0 + 1'152.0 * 2048);
    CHECK(r->counts("values", "moe/attention", 8192).bytes_read == 1'152.0 * 2048);
    // The whole layer. FLOPs not depending on S: MLA's projections, norms
    // and RoPE (q_down 25,165,824, q_norm 8,192, q_nope 50,331,648, q_rope
    // 16,777,216, rope_q 12,288, kv_down 6,291,456, kv_norm 2,048, k_rope
    // 786,432, rope_k 192, q_absorb 12,582,912, v_absorb 16,777,216, o_proj
    // 201,326,592: 330,062,016); the layer's norms, residuals and MoE (8
    // routed experts' gate, up, down 3 x 2 x 8 x 6144 x 2048 = 603,979,776,
    // shared 3 x 25,165,824 = 75,497,472, router 3,145,728, norms 49,152,
    // adds 18,432, route 1,280, SiLU 81,920 + 10,240, combine 98,304:
    // 682,882,304); the indexer's 18,758,976: 1,031,703,296. Then 8,290 S
    // (indexer) + 139,584 Ks (attention): 1,183,126,272 at S = 1024,
    // 1,385,483,008 at S = 8192.
    CHECK(r->totals("moe", 1024).flops == 1'183'126'272.0);
    CHECK(r->totals("moe", 8192).flops == 1'385'483'008.0);
    // Resident per sequence: 1,284 B per position (the latent in bf16, the
    // index key in fp8 and its fp32 scale), all S positions.
    CHECK(r->facts(1024).cache_bytes == 1'284.0 * 1024);
    CHECK(r->facts(8192).cache_bytes == 1'284.0 * 8192);
}

TEST_CASE("GLM-5: a qk_head_dim other than qk_nope + qk_rope is an error", "[glm_dsa][import]") {
    std::string config = glm5;
    config.replace(config.find("\"qk_head_dim\": 256"), 18, "\"qk_head_dim\": 192");
    CHECK(contains(test::import_error(config), "'qk_head_dim' (192) is not"));
}

TEST_CASE("DSA: the templates are closed, every name a parameter or a let", "[glm_dsa]") {
    // No top-level values: a name a template does not bind is an error.
    auto r = test::evaluate_layers(R"(
include "layers/dsa.roof"
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s }
target chip
use dsa_indexer_decode(B = 3, S = 8, D = 16, Qr = 8, Dr = 2, Hi = 2, Di = 4, Kt = 4)
use dsa_indexer_prefill(B = 3, T = 8, D = 16, Qr = 8, Dr = 2, Hi = 2, Di = 4, Kt = 4)
use dsa_dense_decode(B = 3, S = 8, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 24,
                     Hi = 2, Di = 4, Kt = 4)
use dsa_dense_prefill(B = 3, T = 8, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 24,
                      Hi = 2, Di = 4, Kt = 4)
use dsa_moe_decode(B = 3, S = 8, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 8,
                   E = 4, k = 2, Fs = 16, Hi = 2, Di = 4, Kt = 4, ewdt = fp8)
use dsa_moe_prefill(B = 3, T = 8, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 8,
                    E = 4, k = 2, Fs = 16, Hi = 2, Di = 4, Kt = 4)
)");
    CHECK(r->evaluation.has_resident);
}

TEST_CASE("GLM-5: prefill, the indexer over T x T, each query attending to the top-k",
          "[glm_dsa]") {
    auto r = test::evaluate_layers(R"(
include "layers/dsa.roof"
hardware chip { hbm_bandwidth = 1e12 B/s  hbm_capacity = 1e12 B  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s }
target chip
sweep B = [1]
tokens = 4096
use dsa_moe_prefill(B = 1, T = 4096, D = 6144, H = 64, Qr = 2048, C = 512, Dn = 192, Dr = 64,
                    Dv = 256, F = 2048, E = 256, k = 8, Fs = 2048, Hi = 32, Di = 128,
                    Kt = 2048) as moe
)");
    // T = 4096 prompt tokens, each query scoring all 4096 keys (not halved):
    // 2 x 4096 x 32 x 128 x 4096 = 137,438,953,472 FLOPs.
    CHECK(r->counts("index_scores", "moe/indexer", 1).flops == 137'438'953'472.0);
    // The top-k reads the 4096 x 4096 scores (2 blocks of 2048 per query,
    // exact) and writes 4096 x 2048 positions of 4 B: 33,554,432 B each way.
    CHECK(r->counts("index_topk", "moe/indexer", 1).bytes_read == 2.0 * 4096 * 4096);
    CHECK(r->counts("index_topk", "moe/indexer", 1).bytes_written == 4.0 * 4096 * 2048);
    // MLA prefill over min(T, 2048) keys per query, head dimension 192 + 64:
    // 2 x 4096 x 64 x 2048 x 256 = 274,877,906,944 FLOPs.
    CHECK(r->counts("scores", "moe/attention", 1).flops == 274'877'906'944.0);
    // The cache written: 4096 positions x 1,284 B.
    CHECK(r->facts(1).cache_bytes == 1'284.0 * 4096);
}
