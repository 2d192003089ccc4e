// The architectures roofline import reads, each with the family whose shape
// reader and layer templates it uses; which one a config names.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline::model::importer {
namespace {

constexpr Architecture known_architectures[] = {
    {"LlamaForCausalLM", "llama", Family::llama},
    {"MistralForCausalLM", "mistral", Family::llama},
    {"Qwen2ForCausalLM", "qwen2", Family::qwen2},
    {"MixtralForCausalLM", "mixtral", Family::mixtral},
    {"Qwen2MoeForCausalLM", "qwen2_moe", Family::qwen2_moe},
    {"GemmaForCausalLM", "gemma", Family::gemma},
    {"Gemma2ForCausalLM", "gemma2", Family::gemma2},
    {"DeepseekV2ForCausalLM", "deepseek_v2", Family::deepseek},
    {"DeepseekV3ForCausalLM", "deepseek_v3", Family::deepseek},
    {"GPT2LMHeadModel", "gpt2", Family::gpt2},
    {"Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe", Family::qwen3_5},
    {"GptOssForCausalLM", "gpt_oss", Family::gpt_oss},
    {"GlmMoeDsaForCausalLM", "glm_moe_dsa", Family::glm_dsa},
    // Kimi-K2.5's text model (text_config) is a DeepSeek-V3.
    {"Qwen3ForCausalLM", "qwen3", Family::qwen3},
    {"Qwen3MoeForCausalLM", "qwen3_moe", Family::qwen3_moe},
    {"MiniMaxM2ForCausalLM", "minimax_m2", Family::minimax_m2},
    {"KimiK25ForConditionalGeneration", "kimi_k25", Family::deepseek},
};

}  // namespace

Architecture const& find_architecture(Config& config, json const& root) {
    auto supported = supported_architectures();
    if (auto it = root.find("architectures"); it != root.end() && !it->is_null()) {
        if (!it->is_array() || it->empty() || !(*it)[0].is_string())
            config.fail("field 'architectures' must be a list of names, not " + shown(*it));
        auto name = (*it)[0].get<std::string>();
        for (auto const& a : known_architectures)
            if (name == a.name) {
                config.record("architectures", it->dump());
                return a;
            }
        config.fail("unknown architecture " + in_quotes(name) +
                    " (field 'architectures'); roofline import supports " + supported);
    }
    if (auto it = root.find("model_type"); it != root.end() && !it->is_null()) {
        if (!it->is_string()) config.fail("field 'model_type' must be a string, not " + shown(*it));
        auto type = it->get<std::string>();
        for (auto const& a : known_architectures)
            if (type == a.model_type) {
                config.record("model_type", it->dump());
                return a;
            }
        config.fail("unknown model_type " + in_quotes(type) + " (field 'model_type'); "
                    "roofline import supports " + supported);
    }
    config.fail("missing field 'architectures' (and no 'model_type'): the config does not say "
                "which model it is; roofline import supports " + supported);
}

}  // namespace roofline::model::importer

namespace roofline::model {

std::string supported_architectures() {
    std::string list;
    for (auto const& a : importer::known_architectures)
        list += (list.empty() ? "" : ", ") + std::string(a.name) + " (" + a.model_type + ")";
    return list;
}

}  // namespace roofline::model
