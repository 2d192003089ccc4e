// The shapes of Llama, Mistral, Qwen2, Mixtral, Qwen2-MoE, Gemma and Gemma 2,
// and the heads of every family but DeepSeek (read_heads, GPT-2 too).
#include "importer.hpp"

#include <optional>
#include <string>

namespace roofline::model::importer {

// Heads: H, KV (default H), Hd (head_dim, or hidden_size / H), with the
// divisibility checks.
void read_heads(Config& c, Shapes& s, char const* heads_field, char const* width_field) {
    s.H = c.integer(heads_field);
    if (auto kv = c.optional_integer("num_key_value_heads")) {
        s.KV = *kv;
    } else {
        s.KV = s.H;
        if (s.family != Family::gpt2)
            s.assumed.push_back("num_key_value_heads absent: KV = num_attention_heads\n"
                                "#   (multi-head attention)");
    }
    if (s.H % s.KV != 0)
        c.fail("'num_key_value_heads' (" + std::to_string(s.KV) +
               ") does not divide 'num_attention_heads' (" + std::to_string(s.H) + ")");
    bool gemma = s.family == Family::gemma || s.family == Family::gemma2;
    if (gemma) {
        s.Hd = c.integer("head_dim");
        s.Hd_comment = "head_dim";
    } else if (auto hd = s.family == Family::gpt2 ? std::nullopt : c.optional_integer("head_dim")) {
        s.Hd = *hd;
        s.Hd_comment = "head_dim";
    } else {
        if (s.D % s.H != 0)
            c.fail(in_quotes(heads_field) + " (" + std::to_string(s.H) + ") does not divide " +
                   in_quotes(width_field) + " (" + std::to_string(s.D) +
                   "), and there is no 'head_dim'");
        s.Hd = s.D / s.H;
        s.Hd_comment = std::string(width_field) + " / " + heads_field;
    }
}

// Llama, Mistral, Qwen2, Mixtral, Qwen2-MoE, Gemma, Gemma 2: the same names
// for the same shapes.
Shapes read_llama_like(Config& c, Family family) {
    Shapes s;
    s.family = family;
    bool gemma = family == Family::gemma || family == Family::gemma2;
    if (gemma) {
        c.require_one_of("hidden_act", {"gelu", "gelu_pytorch_tanh"});
        c.require_one_of("hidden_activation", {"gelu", "gelu_pytorch_tanh"});
    } else {
        c.require_one_of("hidden_act", {"silu"});
    }
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    read_heads(c, s, "num_attention_heads", "hidden_size");
    if (family == Family::qwen2_moe) {
        s.F = c.integer("moe_intermediate_size");
        s.F_field = "moe_intermediate_size, per routed expert";
    } else {
        s.F = c.integer("intermediate_size");
        if (family == Family::mixtral) s.F_field = "intermediate_size, per expert";
    }
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", gemma);
    switch (family) {
    case Family::qwen2:
    case Family::qwen2_moe:
        c.require_false("use_sliding_window", "sliding-window attention in some layers");
        break;
    case Family::gemma2:
        c.require_false("attention_bias", "biases on the attention projections");
        s.window = c.integer("sliding_window");
        c.number("attn_logit_softcapping");
        c.number("final_logit_softcapping");
        if (!s.tied)
            c.fail("field 'tie_word_embeddings' is false; Gemma2ForCausalLM is imported with the "
                   "LM head tied to the embedding only");
        if (s.L % 2 != 0)
            c.fail("'num_hidden_layers' (" + std::to_string(s.L) +
                   ") is odd; Gemma2ForCausalLM alternates sliding-window and global layers");
        break;
    default:
        c.require_false("attention_bias", "biases on the attention projections");
        c.require_false("mlp_bias", "biases on the MLP projections");
        if (!gemma) s.window = c.optional_integer("sliding_window");
        break;
    }
    if (family == Family::mixtral || family == Family::qwen2_moe) {
        bool mixtral = family == Family::mixtral;
        char const* experts = mixtral ? "num_local_experts" : "num_experts";
        s.E = c.integer(experts);
        s.K = c.integer("num_experts_per_tok");
        if (s.K > s.E)
            c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds '" + experts +
                   "' (" + std::to_string(s.E) + ")");
    }
    if (family == Family::qwen2_moe) {
        s.Fs = c.integer("shared_expert_intermediate_size");
        if (auto step = c.optional_integer("decoder_sparse_step"); step && *step != 1)
            c.fail("field 'decoder_sparse_step' is " + std::to_string(*step) +
                   " (dense MLP layers between the MoE layers), which roofline import does not "
                   "model for Qwen2MoeForCausalLM");
        c.require_empty_list("mlp_only_layers", "dense MLP layers");
    }
    return s;
}

}  // namespace roofline::model::importer
