#pragma once
// Published configs (Qwen3, Qwen3-MoE, MiniMax-M2, Kimi-K2.5), shared by the one-chip import tests
// (tests/test_import_qwen3.cpp, tests/test_import_minimax.cpp) and the
// layout tests (tests/test_layout_qwen3.cpp): Qwen3-32B, Qwen3-235B-A22B-FP8,
// MiniMax-M2.5, Kimi-K2.5.

namespace roofline::test::qwen3_minimax_kimi_configs {

// Qwen/Qwen3-32B, as published.
inline char const* const qwen3_32b = R"({
  "architectures": ["Qwen3ForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151645,
  "head_dim": 128,
  "hidden_act": "silu",
  "hidden_size": 5120,
  "initializer_range": 0.02,
  "intermediate_size": 25600,
  "max_position_embeddings": 40960,
  "max_window_layers": 64,
  "model_type": "qwen3",
  "num_attention_heads": 64,
  "num_hidden_layers": 64,
  "num_key_value_heads": 8,
  "rms_norm_eps": 1e-06,
  "rope_scaling": null,
  "rope_theta": 1000000,
  "sliding_window": null,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.51.0",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936
})";

// Qwen/Qwen3-235B-A22B-FP8, as published but for modules_to_not_convert,
// cut to its first layer's entries (it lists every layer's).
inline char const* const qwen3_235b_fp8 = R"({
  "architectures": ["Qwen3MoeForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "decoder_sparse_step": 1,
  "eos_token_id": 151645,
  "head_dim": 128,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 12288,
  "max_position_embeddings": 40960,
  "max_window_layers": 94,
  "mlp_only_layers": [],
  "model_type": "qwen3_moe",
  "moe_intermediate_size": 1536,
  "norm_topk_prob": true,
  "num_attention_heads": 64,
  "num_experts": 128,
  "num_experts_per_tok": 8,
  "num_hidden_layers": 94,
  "num_key_value_heads": 4,
  "output_router_logits": false,
  "rms_norm_eps": 1e-06,
  "rope_scaling": null,
  "rope_theta": 1000000.0,
  "router_aux_loss_coef": 0.001,
  "sliding_window": null,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.51.0",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936,
  "quantization_config": {
    "activation_scheme": "dynamic",
    "modules_to_not_convert": ["lm_head", "model.layers.0.input_layernorm", "model.layers.0.mlp.gate",
                               "model.layers.0.post_attention_layernorm"],
    "fmt": "e4m3",
    "quant_method": "fp8",
    "weight_block_size": [128, 128]
  }
})";

// MiniMaxAI/MiniMax-M2.5, as published.
inline char const* const minimax_m25 = R"({
  "architectures": ["MiniMaxM2ForCausalLM"],
  "model_type": "minimax_m2",
  "num_hidden_layers": 62,
  "hidden_size": 3072,
  "num_attention_heads": 48,
  "num_key_value_heads": 8,
  "head_dim": 128,
  "intermediate_size": 1536,
  "vocab_size": 200064,
  "num_experts_per_tok": 8,
  "num_local_experts": 256,
  "max_position_embeddings": 196608,
  "rope_theta": 5000000,
  "rotary_dim": 64,
  "hidden_act": "silu",
  "rms_norm_eps": 1e-06,
  "use_cache": true,
  "tie_word_embeddings": false,
  "use_qk_norm": true,
  "qk_norm_type": "per_layer",
  "use_routing_bias": true,
  "use_mtp": true,
  "mtp_transformer_layers": 1,
  "num_mtp_modules": 3,
  "shared_intermediate_size": 0,
  "scoring_func": "sigmoid",
  "quantization_config": {
    "quant_method": "fp8",
    "fmt": "float8_e4m3fn",
    "activation_scheme": "dynamic",
    "weight_block_size": [128, 128],
    "modules_to_not_convert": ["gate", "e_score_correction_bias", "lm_head"]
  },
  "auto_map": {
    "AutoConfig": "configuration_minimax_m2.MiniMaxM2Config",
    "AutoModelForCausalLM": "modeling_minimax_m2.MiniMaxM2ForCausalLM"
  },
  "transformers_version": "4.46.1"
})";

// moonshotai/Kimi-K2.5: the fields of its text_config that the import reads
// (the published text_config also has generation defaults, token ids and
// rope_scaling), its quantization_config as published, and the vision tower
// cut to two fields.
inline char const* const kimi_k25 = R"({
  "architectures": ["KimiK25ForConditionalGeneration"],
  "model_type": "kimi_k25",
  "text_config": {
    "architectures": ["DeepseekV3ForCausalLM"],
    "attention_bias": false,
    "first_k_dense_replace": 1,
    "hidden_act": "silu",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "kv_lora_rank": 512,
    "max_position_embeddings": 262144,
    "model_type": "kimi_k2",
    "moe_intermediate_size": 2048,
    "moe_layer_freq": 1,
    "n_routed_experts": 384,
    "n_shared_experts": 1,
    "num_attention_heads": 64,
    "num_experts_per_tok": 8,
    "num_hidden_layers": 61,
    "num_key_value_heads": 64,
    "num_nextn_predict_layers": 0,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "quantization_config": {
      "config_groups": {
        "group_0": {
          "input_activations": null,
          "output_activations": null,
          "targets": ["Linear"],
          "weights": {"actorder": null, "block_structure": null, "dynamic": false, "group_size": 32,
                      "num_bits": 4, "observer": "minmax", "observer_kwargs": {}, "strategy": "group",
                      "symmetric": true, "type": "int"}
        }
      },
      "format": "pack-quantized",
      "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*",
                 "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"],
      "kv_cache_scheme": null,
      "quant_method": "compressed-tensors",
      "quantization_status": "compressed"
    },
    "tie_word_embeddings": false,
    "v_head_dim": 128,
    "vocab_size": 163840
  },
  "tie_word_embeddings": false,
  "vision_config": {"vt_hidden_size": 1152, "vt_num_hidden_layers": 27}
})";

}  // namespace roofline::test::qwen3_minimax_kimi_configs
