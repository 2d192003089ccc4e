// The shapes of gpt-oss (GptOssForCausalLM).
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline::model::importer {
namespace {

// layer_types: how many layers attend within the sliding window (the rest
// attend to everything). Absent: the configuration class's default, even
// layers sliding (0, 2, ...), odd layers full.
Int sliding_layers(Config& c, Int layers) {
    if (auto sliding = c.layers_of_kind(layers, "sliding_attention")) return *sliding;
    c.record("layer_types", "(absent)");
    return (layers + 1) / 2;
}

}  // namespace

// gpt-oss: grouped-query attention with biases and sinks, sliding-window
// and full layers, 128 (120b) or 32 (20b) biased experts with top-4 routing.
Shapes read_gpt_oss(Config& c) {
    Shapes s;
    s.family = Family::gpt_oss;
    c.require_one_of("hidden_act", {"silu"});
    if (!c.boolean("attention_bias", true))
        c.fail("field 'attention_bias' is false; " + c.architecture() +
               " is imported with biases on the attention projections only");
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    read_heads(c, s, "num_attention_heads", "hidden_size");
    s.F = c.integer("intermediate_size");
    s.F_field = "intermediate_size, per expert";
    s.E = c.integer("num_local_experts");
    s.K = c.integer("num_experts_per_tok");
    // The config carries the same number under a second name.
    if (auto alias = c.optional_integer("experts_per_token"); alias && *alias != s.K)
        c.fail("'experts_per_token' (" + std::to_string(*alias) + ") differs from "
               "'num_experts_per_tok' (" + std::to_string(s.K) + ")");
    if (s.K > s.E)
        c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds 'num_local_experts' (" +
               std::to_string(s.E) + ")");
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", false);
    s.window = c.integer("sliding_window");
    // The clamp's bound does not change the cost (10 FLOPs per element).
    if (c.root_has("swiglu_limit")) c.number("swiglu_limit");
    s.Ls = sliding_layers(c, s.L);
    s.assumed.push_back("attention sinks, one logit per head and layer (H parameters);\n"
                        "#   every weight in --dtype (the checkpoint's mxfp4 experts:\n"
                        "#   --set ewdt=mxfp4)");
    return s;
}

}  // namespace roofline::model::importer
