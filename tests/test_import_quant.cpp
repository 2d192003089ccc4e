// the checkpoint's quantization -> the weights' dtypes, checked by the
// resident weight bytes worked out by hand: fp8 blocks (DeepSeek-V3/R1),
// NVFP4 from hf_quant_config.json (DeepSeek-V3.1-NVFP4, --quant or beside
// the config), MXFP4 experts, AWQ int4; --dtype overrides.
#include "command.hpp"
#include "import_quantized.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using roofline::test::contains;
using roofline::test::evaluate_roof;

namespace {

// deepseek-ai/DeepSeek-V3 (DeepSeek-R1 has the same shapes and
// quantization_config): the fields the import reads.
std::string deepseek_v3(std::string const& quantization) {
    return R"({
  "architectures": ["DeepseekV3ForCausalLM"],
  "first_k_dense_replace": 3,
  "hidden_act": "silu",
  "hidden_size": 7168,
  "intermediate_size": 18432,
  "kv_lora_rank": 512,
  "max_position_embeddings": 163840,
  "moe_intermediate_size": 2048,
  "moe_layer_freq": 1,
  "n_routed_experts": 256,
  "n_shared_experts": 1,
  "num_attention_heads": 128,
  "num_experts_per_tok": 8,
  "num_hidden_layers": 61,
  "q_lora_rank": 1536,
  "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,)" + quantization + R"(
  "tie_word_embeddings": false,
  "v_head_dim": 128,
  "vocab_size": 129280
})";
}

char const* const fp8_blocks = R"(
  "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                          "weight_block_size": [128, 128]},)";

// nvidia/DeepSeek-V3.1-NVFP4's hf_quant_config.json, its exclude_modules cut
// to layer 0's and the MTP layer's (it lists every layer's four).
char const* const nvfp4_quant = R"({
    "producer": {"name": "modelopt", "version": "0.22.1.dev750+g59a703703"},
    "quantization": {
        "quant_algo": "NVFP4",
        "kv_cache_quant_algo": "FP8",
        "group_size": 16,
        "exclude_modules": ["lm_head", "model.layers.0.self_attn.kv_a_proj_with_mqa",
                            "model.layers.0.self_attn.kv_b_proj", "model.layers.0.self_attn.q_a_proj",
                            "model.layers.0.self_attn.q_b_proj", "model.layers.61*"]
    }
})";

// DeepSeek-V3's parameters (tests/test_import.cpp: 671,026,419,200) that no
// quantizer converts: the router 58 x 1,835,008 = 106,430,464, its bias
// 58 x 256 = 14,848, MLA's q and kv norms 61 x 2,048 = 124,928, the layer
// norms 61 x 14,336 = 874,496 and the final 7,168, the embedding and head
// 1,853,358,080: 1,960,809,984, 3,921,619,968 B in bf16. The other
// 669,065,609,216 are the matmuls' weights.
constexpr double deepseek_bf16_bytes = 3'921'619'968.0;
constexpr double deepseek_matmul_weights = 669'065'609'216.0;

// Qwen/Qwen3-32B's fields (tests/test_import_qwen3.cpp has it whole).
std::string qwen3_32b(std::string const& quantization) {
    return R"({
  "architectures": ["Qwen3ForCausalLM"],
  "head_dim": 128,
  "hidden_act": "silu",
  "hidden_size": 5120,
  "intermediate_size": 25600,
  "max_position_embeddings": 40960,
  "num_attention_heads": 64,
  "num_hidden_layers": 64,
  "num_key_value_heads": 8,)" + quantization + R"(
  "tie_word_embeddings": false,
  "vocab_size": 151936
})";
}

}  // namespace

TEST_CASE("quantization: DeepSeek-V3's fp8 blocks of 128 x 128 are fp8_block, W8A8", "[import][qwen3]") {
    // The matmuls' weights at 1 + 4/16384 bytes: 669,065,609,216 +
    // 163,346,096 (their / 4096) = 669,228,955,312 B; the rest in bf16.
    auto imported = model::import_config(deepseek_v3(fp8_blocks), "config.json");
    CHECK(contains(imported.text, "let wdt = fp8_block "));
    CHECK(contains(imported.text, "let mdt = fp8 "));
    CHECK(contains(imported.text, "# Quantization: quant_method fp8, weight_block_size [128, 128]"));
    CHECK(contains(imported.text, "#   quantization_config = {quant_method: fp8, 0 modules_to_not_convert}"));
    CHECK(imported.active_parameters == 36'625'618'432.0);  // the card's "37B activated"
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 669'228'955'312.0 + deepseek_bf16_bytes);

    // Without a weight_block_size: per-tensor fp8, 1 byte.
    auto plain = model::import_config(
        deepseek_v3(R"(
  "quantization_config": {"activation_scheme": "dynamic", "quant_method": "fp8"},)"), "config.json");
    CHECK(evaluate_roof(plain.text)->facts().weight_bytes == deepseek_matmul_weights + deepseek_bf16_bytes);

    // --dtype overrides: bf16 everywhere, as before.
    model::ImportOptions given;
    given.weight_dtype_given = true;
    auto bf16 = model::import_config(deepseek_v3(fp8_blocks), "config.json", given);
    CHECK(contains(bf16.text, "# Quantization: --dtype bf16 given: the checkpoint's quantization is not read"));
    CHECK(evaluate_roof(bf16.text)->facts().weight_bytes == 2 * 671'026'419'200.0);
}

TEST_CASE("quantization: DeepSeek-V3.1-NVFP4's hf_quant_config.json: nvfp4 weights and inputs, fp8 KV cache",
          "[import][qwen3]") {
    model::ImportOptions options;
    options.quant_config = nvfp4_quant;
    options.quant_file = "hf_quant_config.json";
    auto imported = model::import_config(deepseek_v3(""), "config.json", options);
    CHECK(contains(imported.text, "let wdt = nvfp4 "));
    CHECK(contains(imported.text, "let mdt = wdt "));
    CHECK(contains(imported.text, "let kvdt = fp8 "));
    CHECK(contains(imported.text, "kvdt = kvdt) as moe_decoder x (L - Ld)"));
    // The four excluded MLA projections are said to be written at nvfp4.
    CHECK(contains(imported.text, "some attention projections excluded"));
    // The matmuls' weights at 4.5 bits: 669,065,609,216 x 9 / 16 =
    // 376,349,405,184 B. The latent cache in fp8 at B = 1: 61 x 8192 x 576 x 1 B.
    auto r = evaluate_roof(imported.text);
    CHECK(r->facts().weight_bytes == 376'349'405'184.0 + deepseek_bf16_bytes);
    CHECK(r->facts().cache_bytes == 61 * 8192 * 576.0);

    // Not NVFP4 or FP8: an error naming the file and the field.
    options.quant_config = R"({"quantization": {"quant_algo": "W4A8_AWQ"}})";
    std::string message;
    try {
        model::import_config(deepseek_v3(""), "config.json", options);
    } catch (model::ImportError const& e) {
        message = e.what();
    }
    CHECK(contains(message, "hf_quant_config.json: quant_algo 'W4A8_AWQ' is not one roofline import reads"));
}

TEST_CASE("quantization: MXFP4 experts (gpt-oss's scheme), AWQ int4 in groups of 128", "[import][qwen3]") {
    // Qwen3-32B under AWQ: its 64 x 487,587,840 = 31,205,621,760 matmul
    // weights at 0.5 + 2/128 bytes: 16,090,398,720 B; the other 1,556,501,504
    // (norms, embedding, head) in bf16: 3,113,003,008 B. Inputs in bf16.
    auto awq = model::import_config(
        qwen3_32b(R"(
  "quantization_config": {"bits": 4, "group_size": 128, "quant_method": "awq", "version": "gemm"},)"),
        "config.json");
    CHECK(contains(awq.text, "let wdt = int4_wo "));
    CHECK(contains(awq.text, "let mdt = bf16 "));
    CHECK(evaluate_roof(awq.text)->facts().weight_bytes == 16'090'398'720.0 + 3'113'003'008.0);

    // Qwen3-235B-A22B's shapes with gpt-oss's quantization_config: the
    // experts 94 x 2,415,919,104 = 227,096,395,776 at 4.25 bits (17/32 B):
    // 120,644,960,256 B; the other 7,997,238,784 parameters in bf16.
    std::string moe = R"({
  "architectures": ["Qwen3MoeForCausalLM"],
  "head_dim": 128, "hidden_act": "silu", "hidden_size": 4096, "max_position_embeddings": 40960,
  "moe_intermediate_size": 1536, "num_attention_heads": 64, "num_experts": 128,
  "num_experts_per_tok": 8, "num_hidden_layers": 94, "num_key_value_heads": 4,
  "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                     "model.embed_tokens", "lm_head"],
                          "quant_method": "mxfp4"},
  "tie_word_embeddings": false, "vocab_size": 151936
})";
    auto mxfp4 = model::import_config(moe, "config.json");
    CHECK(contains(mxfp4.text, "let wdt = bf16 "));
    CHECK(contains(mxfp4.text, "let edt = mxfp4 "));
    CHECK(evaluate_roof(mxfp4.text)->facts().weight_bytes == 120'644'960'256.0 + 2 * 7'997'238'784.0);
}

TEST_CASE("cli: import finds hf_quant_config.json beside the config, --quant names one, --dtype overrides",
          "[import][qwen3]") {
    test::Sandbox box;
    box.write("DeepSeek-V3.1-NVFP4_config.json", deepseek_v3(""));
    auto cli = [&](std::string const& args) { return test::run_roofline(box.path, args); };
    // No quantization file yet: bf16.
    auto none = cli("import DeepSeek-V3.1-NVFP4_config.json");
    CHECK(none.exit_code == 0);
    CHECK(contains(none.out, "let wdt = bf16 "));
    // NAME_config.json -> NAME_hf_quant_config.json beside it.
    box.write("DeepSeek-V3.1-NVFP4_hf_quant_config.json", nvfp4_quant);
    auto beside = cli("import DeepSeek-V3.1-NVFP4_config.json --target b200");
    CHECK(beside.exit_code == 0);
    CHECK(contains(beside.out, "let wdt = nvfp4 "));
    CHECK(contains(beside.out, "# Quantization: DeepSeek-V3.1-NVFP4_hf_quant_config.json: quant_algo NVFP4"));
    // --dtype given: the quantization is not read.
    auto given = cli("import DeepSeek-V3.1-NVFP4_config.json --dtype fp8");
    CHECK(contains(given.out, "let wdt = fp8 "));
    // --quant names the file; a missing one is an I/O error (exit 3).
    box.write("other.json", nvfp4_quant);
    box.write("config.json", deepseek_v3(""));
    CHECK(contains(cli("import config.json --quant other.json").out, "let wdt = nvfp4 "));
    CHECK(cli("import config.json --quant missing.json").exit_code == 3);
}
