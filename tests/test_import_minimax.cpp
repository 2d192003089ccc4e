// MiniMax-M2.5 and Kimi-K2.5 (its text_config, a DeepSeek-V3) imported
// from their published configs (tests/qwen3_minimax_kimi_configs.hpp): parameter counts by hand
// against the model cards, MiniMax-M2's per-layer q/k norm and partial RoPE,
// one MiniMax-M2 decode layer's FLOPs and bytes by hand.
#include "qwen3_minimax_kimi_configs.hpp"
#include "import_quantized.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace roofline;
using roofline::test::contains;
using roofline::test::evaluate_roof;
using namespace roofline::test::qwen3_minimax_kimi_configs;

TEST_CASE("import MiniMax-M2.5: 228,689,764,864 parameters, 10,415,956,480 active, MTP left out",
          "[import][qwen3]") {
    // D 3072, 48 heads of 128, KV 8, 256 experts of 1536, top-8. Per layer:
    //   q, o 2 x 3072 x 6144 = 37,748,736;  k, v 2 x 3072 x 1024 = 6,291,456
    //   q_norm over H x Hd 6,144, k_norm over KV x Hd 1,024 (per_layer)
    //   experts 256 x 3 x 3072 x 1536 = 3,623,878,656;  router 3072 x 256 = 786,432
    //   routing bias 256;  norms 2 x 3072 = 6,144
    //   layer 3,668,718,848; x 62 = 227,460,568,576
    // embedding and LM head 2 x 200064 x 3072 = 1,229,193,216; final norm 3,072.
    // Total 228,689,764,864: MiniMax's "230B total" (for M2; M2.5 has its
    // shapes) is rounded to two figures, -0.57 %.
    // Active: 62 x 248 x 3 x 3072 x 1536 = 217,659,211,776 experts unused and
    // the embedding table 614,596,608 left out: 10,415,956,480, the "10B".
    auto imported = model::import_config(minimax_m25, "config.json");
    CHECK(imported.architecture == "MiniMaxM2ForCausalLM");
    CHECK(imported.parameters == 228'689'764'864.0);
    CHECK(std::round(imported.parameters / 1e10) == 23);
    CHECK(imported.active_parameters == 10'415'956'480.0);
    CHECK(std::round(imported.active_parameters / 1e9) == 10);
    CHECK(contains(imported.text, "let Rd = 64          # rotary_dim"));
    CHECK(contains(imported.text, "# Left out: the multi-token-prediction modules (use_mtp, num_mtp_modules = 3)"));
    CHECK(contains(imported.text, "use minimax_m2_decode("));

    // Resident: fp8_block for the attention's and experts' matmuls, 62 x
    // (44,040,192 + 3,623,878,656) = 227,410,968,576 weights, + /4096 =
    // 55,520,256 B of scales: 227,466,488,832 B. bf16 for the router 48,758,784,
    // bias 15,872, q/k norms 444,416, norms 380,928 + 3,072, embedding and
    // head 1,229,193,216: 1,278,796,288 x 2 = 2,557,592,576 B.
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 227'466'488'832.0 + 2'557'592'576.0);
}

TEST_CASE("one MiniMax-M2.5 decode layer by hand: per-layer q/k norm, partial RoPE", "[import][qwen3]") {
    // B = 1, S = 16, bf16. D 3072, H 48, KV 8 (G 6), Hd 128, Rd 64, 256
    // experts of 1536, top-8: A = min(256, 8) = 8 experts, C = 1 token each.
    auto r = evaluate_roof(R"(
        include "layers/minimax_m2.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        use minimax_m2_decode(B = 1, S = 16, D = 3072, H = 48, KV = 8, Hd = 128, Rd = 64,
                              F = 1536, E = 256, k = 8) as mm
        tokens = 1)");
    // FLOPs:
    //   attn_norm 12,288; q_proj 2 x 3072 x 6144 = 37,748,736; k_proj, v_proj 6,291,456 each
    //   q_norm 4 x 6144 = 24,576; k_norm 4 x 1024 = 4,096
    //   rope_q 3 x 48 x 64 = 9,216; rope_k 3 x 8 x 64 = 1,536 (the Rd rotated dimensions only)
    //   scores, values 2 x 48 x 16 x 128 = 196,608 each; softmax 5 x 48 x 16 = 3,840
    //   o_proj 37,748,736; residuals 2 x 3,072; mlp_norm 12,288
    //   router 2 x 3072 x 256 = 1,572,864; route 5 x 256 = 1,280
    //   gate, up, down 2 x 8 x 3072 x 1536 = 75,497,472 each; silu_mul 5 x 8 x 1536 = 61,440
    //   combine 2 x 8 x 3072 = 49,152
    //   total 316,724,736
    // Bytes:
    //   attn_norm, mlp_norm 6,144 x 3 = 18,432 each; residuals 18,432 each
    //   q_proj, o_proj 6,144 + 37,748,736 + 12,288 = 37,767,168 each
    //   k_proj, v_proj 6,144 + 6,291,456 + 2,048 = 6,299,648 each
    //   q_norm 12,288 x 3 = 36,864 (its gain H x Hd); k_norm 2,048 x 3 = 6,144
    //   rope_q 6,144 + 128 + 128 + 6,144 = 12,544; rope_k 1,024 + 256 + 1,024 = 2,304
    //   scores 12,288 + 32,768 + 1,536 = 46,592; values 1,536 + 32,768 + 12,288; softmax 3,072
    //   router 6,144 + 1,572,864 + 512 = 1,579,520; route 1,024
    //   gate, up 49,152 + 75,497,472 + 24,576 = 75,571,200 each; down 24,576 + 75,497,472 + 49,152
    //   silu_mul 73,728; combine 49,152 + 16 + 6,144 = 55,312
    //   total 316,784,656
    auto [flops, bytes] = r->totals("mm");
    CHECK(flops == 316'724'736.0);
    CHECK(bytes == 316'784'656.0);
    auto const& rope_q = r->find("rope_q", "mm/attention").metrics.counts;
    CHECK(rope_q.flops == 9'216.0);
    CHECK(rope_q.bytes_read == 6'144.0 + 256);
    CHECK(r->find("q_norm", "mm/attention").metrics.counts.bytes_read == 2 * 12'288.0);
    // Resident: the layer's 3,668,718,848 parameters x 2 B; the K and V cache
    // 2 x 16 x 1024 x 2 B = 65,536.
    CHECK(r->facts().weight_bytes == 2 * 3'668'718'848.0);
    CHECK(r->facts().cache_bytes == 65'536.0);
}

TEST_CASE("import Kimi-K2.5: its text_config as DeepSeek-V3, int4 experts, the vision tower left out",
          "[import][qwen3]") {
    // MLA with 64 heads (D 7168, Qr 1536, C 512, Dn 128, Dr 64, Dv 128):
    //   q_a 11,010,048 + 1,536; q_b 1536 x 64 x 192 = 18,874,368; kv_a 4,128,768 + 512;
    //   kv_b 512 x 64 x 256 = 8,388,608; o 64 x 128 x 7168 = 58,720,256: 101,124,096
    // 1 dense layer: + 3 x 7168 x 18432 + 2 x 7168 = 497,500,160
    // 60 MoE layers: + 384 x 3 x 7168 x 2048 = 16,911,433,728, router
    //   2,752,512, shared 44,040,192, norms 14,336, bias 384 = 17,059,365,248
    // embedding and head 2 x 163840 x 7168 = 2,348,810,240; final norm 7,168.
    // Total 1,026,408,232,448: Kimi K2's card says 1T (1.04T in its report:
    // 1.3 % above; the config has no MTP layer, num_nextn_predict_layers 0).
    // Active: 60 x 376 x 44,040,192 = 993,546,731,520 unused, the table
    // 1,174,405,120: 31,687,095,808, the card's "32B activated".
    auto imported = model::import_config(kimi_k25, "config.json");
    CHECK(imported.architecture == "KimiK25ForConditionalGeneration");
    CHECK(imported.parameters == 1'026'408'232'448.0);
    CHECK(std::round(imported.parameters / 1e12) == 1);
    CHECK(imported.active_parameters == 31'687'095'808.0);
    CHECK(std::round(imported.active_parameters / 1e9) == 32);
    CHECK(contains(imported.text, "#   text_config.hidden_size = 7168\n"));
    CHECK(contains(imported.text, "# Left out: the vision tower (vision_config)"));
    CHECK(contains(imported.text, "dtype int4_g32 = 4 + 16 / 32 bits"));
    CHECK(contains(imported.text, "let wdt = bf16 "));
    CHECK(contains(imported.text, "let edt = int4_g32 "));
    CHECK(contains(imported.text, "use score_correction(E = E) as router_bias x (L - Ld)"));
    // Resident: the routed experts 60 x 16,911,433,728 = 1,014,686,023,680 in
    // 4.5 bits (0.5625 B): 570,760,888,320 B; the other 11,722,208,768
    // parameters (attention, dense and shared MLPs excluded by `ignore`; the
    // router, norms, embedding, head) in bf16: 23,444,417,536 B.
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 570'760'888'320.0 + 23'444'417'536.0);
}

TEST_CASE("import MiniMax-M2: what the template does not model is an error naming the field",
          "[import][qwen3]") {
    auto error_of = [](std::string config) {
        try {
            model::import_config(config, "config.json");
        } catch (model::ImportError const& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    auto replaced = [](std::string from, std::string const& what, std::string const& with) {
        return from.replace(from.find(what), what.size(), with);
    };
    CHECK(error_of(replaced(minimax_m25, R"("per_layer")", R"("per_head")")) ==
          "config.json: error: field 'qk_norm_type' is 'per_head'; MiniMaxM2ForCausalLM is imported "
          "with 'per_layer' only");
    CHECK(error_of(replaced(minimax_m25, R"("rotary_dim": 64)", R"("rotary_dim": 256)")) ==
          "config.json: error: 'rotary_dim' (256) exceeds the head dimension (128)");
    CHECK(contains(error_of(replaced(minimax_m25, R"("shared_intermediate_size": 0)",
                                     R"("shared_intermediate_size": 1536)")),
                   "field 'shared_intermediate_size' is 1536 (a shared expert)"));
    CHECK(contains(error_of(replaced(minimax_m25, "[128, 128]", "[64, 64]")),
                   "quantization_config's weight_block_size is [64,64]; fp8_block's blocks are [128, 128]"));
}
