// The shapes of DeepSeek-V2 and V3.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline::model::importer {

// DeepSeek-V2 and V3: multi-head latent attention, dense layers first, then
// MoE layers with shared experts.
Shapes read_deepseek(Config& c) {
    Shapes s;
    s.family = Family::deepseek;
    c.require_one_of("hidden_act", {"silu"});
    c.require_false("attention_bias", "biases on the attention projections");
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    s.H = c.integer("num_attention_heads");
    s.KV = s.H;
    if (!c.root_has("q_lora_rank"))
        c.fail("field 'q_lora_rank' is missing or null (queries projected without compression, "
               "as in DeepSeek-V2-Lite), which roofline import does not model for " +
               c.architecture());
    s.Qr = c.integer("q_lora_rank");
    s.C = c.integer("kv_lora_rank");
    s.Dn = c.integer("qk_nope_head_dim");
    s.Dr = c.integer("qk_rope_head_dim");
    s.Dv = c.integer("v_head_dim");
    s.F = c.integer("intermediate_size");
    s.F_field = "intermediate_size, the dense layers' MLP";
    s.Fe = c.integer("moe_intermediate_size");
    s.E = c.integer("n_routed_experts");
    s.K = c.integer("num_experts_per_tok");
    s.shared = c.integer("n_shared_experts");
    s.Fs = s.shared * s.Fe;
    if (auto first = c.find("first_k_dense_replace"); first && first->is_number_integer() &&
                                                      first->get<Int>() == 0) {
        c.record("first_k_dense_replace", "0");
        s.Ld = 0;
    } else {
        s.Ld = c.integer("first_k_dense_replace");
    }
    if (auto freq = c.optional_integer("moe_layer_freq"); freq && *freq != 1)
        c.fail("field 'moe_layer_freq' is " + std::to_string(*freq) +
               " (dense layers between the MoE layers), which roofline import does not model "
               "for " + c.architecture());
    if (s.Ld > s.L)
        c.fail("'first_k_dense_replace' (" + std::to_string(s.Ld) + ") exceeds 'num_hidden_layers' (" +
               std::to_string(s.L) + ")");
    if (s.K > s.E)
        c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds 'n_routed_experts' (" +
               std::to_string(s.E) + ")");
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", false);
    // V3 and its descendants (Kimi K2, K2.5) have it; V2 has not.
    s.score_bias = c.architecture() != "DeepseekV2ForCausalLM";
    if (s.score_bias)
        s.assumed.push_back("the router's score-correction bias, n_routed_experts per MoE\n"
                            "#   layer (score_correction); the multi-token-prediction module\n"
                            "#   (num_nextn_predict_layers) is left out");
    return s;
}

}  // namespace roofline::model::importer
