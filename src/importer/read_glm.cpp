// The shapes of GLM-5 (GlmMoeDsaForCausalLM): DeepSeek-V3's (read_deepseek)
// and the DeepSeek Sparse Attention indexer's.
#include "importer.hpp"

#include <string>

namespace roofline::model::importer {

Shapes read_glm(Config& c) {
    Shapes s = read_deepseek(c);
    s.family = Family::glm_dsa;
    // qk_head_dim, when given, is the query/key head dimension Dn + Dr.
    if (auto qk = c.optional_integer("qk_head_dim"); qk && *qk != s.Dn + s.Dr)
        c.fail("'qk_head_dim' (" + std::to_string(*qk) + ") is not 'qk_nope_head_dim' + "
               "'qk_rope_head_dim' (" + std::to_string(s.Dn + s.Dr) + ")");
    s.Hi = c.integer("index_n_heads");
    s.Di = c.integer("index_head_dim");
    s.Kt = c.integer("index_topk");
    if (s.Di < s.Dr)
        c.fail("'index_head_dim' (" + std::to_string(s.Di) + ") is smaller than "
               "'qk_rope_head_dim' (" + std::to_string(s.Dr) + "), the part of it RoPE rotates");
    // GLM-5 routes as DeepSeek-V3 (noaux_tc): a score-correction bias.
    s.score_bias = true;
    s.assumed.push_back("the router's score-correction bias, n_routed_experts per MoE\n"
                        "#   layer (score_correction); the indexer's key cache in fp8 with\n"
                        "#   an fp32 scale per token (idt, DeepSeek-V3.2's kernels); the\n"
                        "#   multi-token-prediction layer (num_nextn_predict_layers) is left out");
    return s;
}

}  // namespace roofline::model::importer
