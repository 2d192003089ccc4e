#pragma once
// Qwen/Qwen3.5-397B-A17B's published config (as in
// ../shared/measured/configs), for tests/test_qwen3_5.cpp (one chip) and
// tests/test_layout_qwen3_5.cpp (its serving layouts).

#include <string>

namespace roofline::test::qwen3_5 {

// Qwen/Qwen3.5-397B-A17B's config.json, its text model (the vision tower's
// config trimmed to two fields: it is not read); layer_types written below.
inline std::string qwen3_5_config(std::string const& layer_types) {
    return R"({
  "architectures": ["Qwen3_5MoeForConditionalGeneration"],
  "model_type": "qwen3_5_moe",
  "text_config": {
    "attention_bias": false,
    "attn_output_gate": true,
    "full_attention_interval": 4,
    "head_dim": 256,
    "hidden_act": "silu",
    "hidden_size": 4096,
    )" + layer_types + R"(
    "linear_conv_kernel_dim": 4,
    "linear_key_head_dim": 128,
    "linear_num_key_heads": 16,
    "linear_num_value_heads": 64,
    "linear_value_head_dim": 128,
    "max_position_embeddings": 262144,
    "mlp_only_layers": [],
    "moe_intermediate_size": 1024,
    "mtp_num_hidden_layers": 1,
    "num_attention_heads": 32,
    "num_experts": 512,
    "num_experts_per_tok": 10,
    "num_hidden_layers": 60,
    "num_key_value_heads": 2,
    "shared_expert_intermediate_size": 1024,
    "vocab_size": 248320,
    "mamba_ssm_dtype": "float32",
    "rope_parameters": {"rope_type": "default", "rope_theta": 10000000, "partial_rotary_factor": 0.25}
  },
  "tie_word_embeddings": false,
  "vision_config": {"depth": 27, "hidden_size": 1152}
})";
}

// Three linear-attention layers, then a full-attention one, 15 times.
inline std::string published_layer_types() {
    std::string list = "\"layer_types\": [";
    for (int i = 0; i < 60; ++i)
        list += std::string(i ? ", " : "") + (i % 4 == 3 ? "\"full_attention\"" : "\"linear_attention\"");
    return list + "],";
}

}  // namespace roofline::test::qwen3_5
