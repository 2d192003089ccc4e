// The shapes of GPT-2.
#include "importer.hpp"

#include <optional>
#include <string>

namespace roofline::model::importer {

Shapes read_gpt2(Config& c) {
    Shapes s;
    s.family = Family::gpt2;
    c.require_one_of("activation_function", {"gelu_new", "gelu", "gelu_pytorch_tanh", "gelu_fast"});
    c.require_false("add_cross_attention", "cross-attention layers");
    s.L = c.integer("n_layer");
    s.D = c.integer("n_embd");
    read_heads(c, s, "n_head", "n_embd");
    s.KV = s.H;
    if (auto inner = c.optional_integer("n_inner")) {
        s.F = *inner;
        s.F_field = "n_inner";
    } else {
        s.F = 4 * s.D;
        s.F_field = "4 x n_embd (n_inner absent or null)";
    }
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("n_positions");
    if (!c.boolean("tie_word_embeddings", true))
        c.fail("field 'tie_word_embeddings' is false; GPT2LMHeadModel is imported with the LM "
               "head tied to the embedding only");
    s.tied = true;
    return s;
}

}  // namespace roofline::model::importer
