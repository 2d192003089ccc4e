// Qwen3 and Qwen3-MoE imported from their published configs
// (tests/qwen3_minimax_kimi_configs.hpp): the parameter counts by hand against the model cards, the q/k norms
// in the template, one Qwen3 decode layer's FLOPs and bytes by hand.
#include "qwen3_minimax_kimi_configs.hpp"
#include "import_quantized.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace roofline;
using roofline::test::contains;
using roofline::test::evaluate_roof;
using namespace roofline::test::qwen3_minimax_kimi_configs;

namespace {

model::ImportedScenario import_bf16(char const* config) {
    model::ImportOptions options;
    options.weight_dtype_given = true;  // --dtype bf16: the quantization not read
    return model::import_config(config, "config.json", options);
}

}  // namespace

TEST_CASE("import Qwen3-32B: 32,762,123,264 parameters (the card's 32.8B), q/k norms", "[import][qwen3]") {
    // D 5120, 64 heads of 128, KV 8, F 25600, V 151936, untied. Per layer:
    //   q, o 2 x 5120 x 8192 = 83,886,080;  k, v 2 x 5120 x 1024 = 10,485,760
    //   q_norm, k_norm 2 x 128 = 256 (one gain of head_dim each)
    //   gate, up, down 3 x 5120 x 25600 = 393,216,000;  norms 2 x 5120 = 10,240
    //   layer 487,598,336; x 64 = 31,206,293,504
    // embedding and LM head 2 x 151936 x 5120 = 1,555,824,640; final norm 5,120.
    // Total 32,762,123,264: the card's 32.8B is rounded (-0.12 %); its
    // "31.2B non-embedding" is 31,206,298,624.
    auto imported = model::import_config(qwen3_32b, "config.json");
    CHECK(imported.architecture == "Qwen3ForCausalLM");
    CHECK(imported.parameters == 32'762'123'264.0);
    CHECK(std::abs(imported.parameters / 32.8e9 - 1) < 0.005);
    CHECK(imported.active_parameters == 0);  // dense
    CHECK(contains(imported.text, "include \"layers/qwen3.roof\""));
    CHECK(contains(imported.text, "use qwen3_decode(B = B, S = S, D = D, H = H, KV = KV, Hd = Hd, F = F, "
                                  "wdt = wdt, mdt = mdt) as decoder x L"));
    CHECK_FALSE(contains(imported.text, "# Active parameters"));
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 2 * 32'762'123'264.0);
    // The norms on the 64 query and 8 key heads: 4 FLOPs per element, at B = 1.
    CHECK(r->find("q_norm", "decoder/attention").metrics.counts.flops == 4 * 64 * 128.0);
    CHECK(r->find("k_norm", "decoder/attention").metrics.counts.flops == 4 * 8 * 128.0);
}

TEST_CASE("import Qwen3-235B-A22B-FP8: 235,093,634,560 parameters, 21,568,433,664 active, fp8_block",
          "[import][qwen3]") {
    // D 4096, 64 heads of 128, KV 4, 128 experts of 1536, top-8. Per layer:
    //   q, o 2 x 4096 x 8192 = 67,108,864;  k, v 2 x 4096 x 512 = 4,194,304
    //   q_norm, k_norm 256;  experts 128 x 3 x 4096 x 1536 = 2,415,919,104
    //   router 4096 x 128 = 524,288;  norms 8,192
    //   layer 2,487,755,008; x 94 = 233,848,970,752
    // embedding and LM head 2 x 151936 x 4096 = 1,244,659,712; final norm 4,096.
    // Total 235,093,634,560: the card's 235B (+0.04 %).
    // Active: the 120 experts a token does not reach, 94 x 120 x 3 x 4096 x
    // 1536 = 212,280,803,328, and the embedding table 622,329,856 left out:
    // 21,568,433,664, the card's "22B activated" rounded.
    auto imported = model::import_config(qwen3_235b_fp8, "config.json");
    CHECK(imported.parameters == 235'093'634'560.0);
    CHECK(std::abs(imported.parameters / 235e9 - 1) < 0.005);
    CHECK(imported.active_parameters == 21'568'433'664.0);
    CHECK(std::round(imported.active_parameters / 1e9) == 22);
    CHECK(contains(imported.text, "# Active parameters per token: 21,568,433,664"));
    CHECK(contains(imported.text, "let wdt = fp8_block "));
    CHECK(contains(imported.text, "let rdt = bf16 "));
    CHECK(contains(imported.text, "ewdt = edt, rdt = rdt) as decoder x L"));

    // Resident weights: fp8_block (1 + 4/16384 bytes) for the attention's and
    // the experts' matmuls, 94 x (71,303,168 + 2,415,919,104) =
    // 233,798,893,568 weights: 233,798,893,568 + 57,079,808 (their /4096)
    // = 233,855,973,376 B. bf16 for the router 94 x 524,288 = 49,283,072, the
    // norms 94 x (256 + 8,192) + 4,096 = 798,208, the embedding and head
    // 1,244,659,712: 1,294,740,992 x 2 = 2,589,481,984 B.
    // Total 236,445,455,360 B.
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 236'445'455'360.0);

    // In bf16 (--dtype bf16): 2 bytes per parameter.
    auto bf16 = evaluate_roof(import_bf16(qwen3_235b_fp8).text);
    CHECK(bf16->facts().weight_bytes == 2 * 235'093'634'560.0);
}

TEST_CASE("one Qwen3-32B decode layer by hand: the q/k norms' FLOPs and bytes", "[import][qwen3]") {
    // B = 8 sequences, S = 16 cached positions, bf16 (2 B). D 5120, H 64,
    // KV 8 (G 8), Hd 128, F 25600.
    auto r = evaluate_roof(R"(
        include "layers/qwen3.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        use qwen3_decode(B = 8, S = 16, D = 5120, H = 64, KV = 8, Hd = 128, F = 25600) as q3
        use dense_decode(B = 8, S = 16, D = 5120, H = 64, KV = 8, Hd = 128, F = 25600) as llama
        tokens = 8)");
    // FLOPs:
    //   matmuls 2 x 8 x (2 x 5120 x 8192 + 2 x 5120 x 1024 + 3 x 5120 x 25600) = 7,801,405,440
    //   scores, values 2 x (2 x 8 x 64 x 16 x 128) = 4,194,304
    //   attn_norm, mlp_norm 2 x 4 x 8 x 5120 = 327,680;  q_norm 4 x 8 x 8192 = 262,144
    //   k_norm 4 x 8 x 1024 = 32,768;  rope_q 3 x 8 x 8192 = 196,608;  rope_k 24,576
    //   softmax 5 x 8 x 64 x 16 = 40,960;  residuals 2 x 40,960;  silu_mul 5 x 8 x 25600 = 1,024,000
    //   total 7,807,590,400
    // Bytes (read + written), op by op:
    //   attn_norm 81,920 + 10,240 + 81,920 = 174,080      mlp_norm the same
    //   q_proj 81,920 + 83,886,080 + 131,072 = 84,099,072  o_proj the same
    //   k_proj 81,920 + 10,485,760 + 16,384 = 10,584,064   v_proj the same
    //   q_norm 131,072 + 256 + 131,072 = 262,400          k_norm 16,384 + 256 + 16,384 = 33,024
    //   rope_q 131,072 + 2 x 2,048 + 131,072 = 266,240    rope_k 16,384 + 4,096 + 16,384 = 36,864
    //   scores 131,072 + 262,144 (K cache) + 16,384 = 409,600;  values 16,384 + 262,144 + 131,072
    //   softmax 2 x 16,384;  residuals 2 x 245,760
    //   gate, up 81,920 + 262,144,000 + 409,600 = 262,635,520 each; down 409,600 + 262,144,000 + 81,920
    //   silu_mul 3 x 409,600 = 1,228,800
    //   total 980,791,808
    auto [flops, bytes] = r->totals("q3");
    CHECK(flops == 7'807'590'400.0);
    CHECK(bytes == 980'791'808.0);
    auto const& q_norm = r->find("q_norm", "q3/attention").metrics.counts;
    CHECK(q_norm.bytes_read == 131'072.0 + 256);
    CHECK(q_norm.bytes_written == 131'072.0);
    // Against Llama's layer of the same shapes, only the two norms differ:
    // 4 x 8 x (64 + 8) x 128 = 294,912 FLOPs, 295,424 bytes, and the gains
    // 2 x 128 x 2 B = 512 B of weights.
    auto [llama_flops, llama_bytes] = r->totals("llama");
    CHECK(flops - llama_flops == 294'912.0);
    CHECK(bytes - llama_bytes == 295'424.0);
    // Resident: both layers' weights (487,598,336 and 487,598,080 parameters, 2 B
    // each) and their K and V caches, 2 x 2 x 8 x 16 x 1024 x 2 B.
    CHECK(r->facts().weight_bytes == 2 * (487'598'336.0 + 487'598'080.0));
    CHECK(r->facts().cache_bytes == 2 * 524'288.0);
}

TEST_CASE("the qwen3 and minimax_m2 templates are closed: every name is a parameter or a let",
          "[import][qwen3]") {
    // No top-level values: a name a template does not bind is an error.
    auto r = evaluate_roof(R"(
        include "layers/qwen3.roof"
        include "layers/minimax_m2.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s }
        target chip
        use qwen3_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use qwen3_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use qwen3_decode_flash(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use qwen3_prefill_flash(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use qwen3_moe_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2)
        use qwen3_moe_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2,
                              ewdt = fp8, rdt = bf16)
        use qwen3_moe_decode_flash(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2)
        use qwen3_moe_prefill_flash(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2)
        use minimax_m2_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, Rd = 2, F = 8, E = 4, k = 2)
        use minimax_m2_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, Rd = 2, F = 8, E = 4, k = 2)
        use minimax_m2_decode_flash(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, Rd = 2, F = 8, E = 4,
                                    k = 2)
        use minimax_m2_prefill_flash(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, Rd = 2, F = 8,
                                     E = 4, k = 2, ewdt = fp8))");
    CHECK(r->evaluation.has_resident);
}
