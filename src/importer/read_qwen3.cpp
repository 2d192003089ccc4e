// The shapes of Qwen3, Qwen3-MoE and MiniMax-M2: grouped-query attention
// with norms on the queries and keys (per head for Qwen3, over the whole
// projection for MiniMax-M2), Qwen3-MoE's and MiniMax-M2's routed experts.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline::model::importer {
namespace {

// The fields Qwen3, Qwen3-MoE and MiniMax-M2 share with Llama.
Shapes read_common(Config& c, Family family) {
    Shapes s;
    s.family = family;
    c.require_one_of("hidden_act", {"silu"});
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    read_heads(c, s, "num_attention_heads", "hidden_size");
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", false);
    c.require_false("attention_bias", "biases on the attention projections");
    return s;
}

void read_experts(Config& c, Shapes& s, char const* experts) {
    s.E = c.integer(experts);
    s.K = c.integer("num_experts_per_tok");
    if (s.K > s.E)
        c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds '" + experts + "' (" +
               std::to_string(s.E) + ")");
}

}  // namespace

// Qwen3 (dense) and Qwen3-MoE: q_norm and k_norm on each head.
Shapes read_qwen3(Config& c, Family family) {
    Shapes s = read_common(c, family);
    c.require_false("use_sliding_window", "sliding-window attention in some layers");
    if (family == Family::qwen3) {
        s.F = c.integer("intermediate_size");
        return s;
    }
    s.F = c.integer("moe_intermediate_size");
    s.F_field = "moe_intermediate_size, per routed expert";
    read_experts(c, s, "num_experts");
    // As Qwen2-MoE: every layer MoE, none dense.
    if (auto step = c.optional_integer("decoder_sparse_step"); step && *step != 1)
        c.fail("field 'decoder_sparse_step' is " + std::to_string(*step) +
               " (dense MLP layers between the MoE layers), which roofline import does not "
               "model for " + c.architecture());
    c.require_empty_list("mlp_only_layers", "dense MLP layers");
    return s;
}

// MiniMax-M2: a norm over the whole query and key projections, partial RoPE,
// 256 experts with a routing bias; its MTP modules are left out.
Shapes read_minimax_m2(Config& c) {
    Shapes s = read_common(c, Family::minimax_m2);
    s.F = c.integer("intermediate_size");
    s.F_field = "intermediate_size, per expert";
    read_experts(c, s, "num_local_experts");
    if (!c.boolean("use_qk_norm", false))
        c.fail("field 'use_qk_norm' is false or missing; " + c.architecture() +
               " is imported with its norms on the queries and keys only");
    c.require_one_of("qk_norm_type", {"per_layer"});
    s.Rd = s.Hd;
    if (auto rotary = c.optional_integer("rotary_dim")) {
        if (*rotary > s.Hd)
            c.fail("'rotary_dim' (" + std::to_string(*rotary) + ") exceeds the head dimension (" +
                   std::to_string(s.Hd) + ")");
        s.Rd = *rotary;
    }
    s.score_bias = c.boolean("use_routing_bias", false);
    if (json const* shared = c.find("shared_intermediate_size")) {
        if (!shared->is_number_integer() || shared->get<Int>() != 0)
            c.fail("field 'shared_intermediate_size' is " + shown(*shared) +
                   " (a shared expert), which roofline import does not model for " +
                   c.architecture());
        c.record("shared_intermediate_size", "0");
    }
    c.string("scoring_func");  // sigmoid or softmax: the same cost in `route`
    if (c.boolean("use_mtp", false)) {
        auto modules = c.optional_integer("num_mtp_modules");
        c.optional_integer("mtp_transformer_layers");
        s.left_out.push_back("the multi-token-prediction modules (use_mtp" +
                             (modules ? ", num_mtp_modules = " + std::to_string(*modules) : std::string()) +
                             "),\n#   as DeepSeek's: speculative-decoding heads, not the model's step");
    }
    return s;
}

}  // namespace roofline::model::importer
