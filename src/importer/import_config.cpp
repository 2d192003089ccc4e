// config.json -> scenario text: parse, find the architecture, read its
// shapes, count the parameters, write the scenario (the steps in
// importer.hpp's files).
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace roofline::model {

using namespace importer;

namespace {

// a multimodal config's text model is its text_config (Kimi-K2.5,
// Qwen3.5): the shapes are read from it, and the vision tower is left out.
json const& text_model(json const& root, Shapes& s) {
    auto text = root.find("text_config");
    if (text == root.end() || !text->is_object()) return root;
    s.left_out.push_back(std::string("the vision tower") +
                         (root.contains("vision_config") ? " (vision_config)" : "") +
                         ": the text model (text_config) only");
    return *text;
}

Shapes read_shapes(Config& config, Family family) {
    switch (family) {
    case Family::gpt2: return read_gpt2(config);
    case Family::deepseek: return read_deepseek(config);
    case Family::qwen3:
    case Family::qwen3_moe: return read_qwen3(config, family);
    case Family::minimax_m2: return read_minimax_m2(config);
    case Family::qwen3_5: return read_qwen3_5(config);
    case Family::gpt_oss: return read_gpt_oss(config);
    case Family::glm_dsa: return read_glm(config);
    default: return read_llama_like(config, family);
    }
}

}  // namespace

ImportedScenario import_config(std::string const& json_text, std::string const& file_name,
                               ImportOptions const& options) {
    json root = parse_json(json_text, file_name);
    Config outer(root, file_name);
    if (!root.is_object()) outer.fail("the config must be a JSON object, not " + std::string(root.type_name()));
    auto const& architecture = find_architecture(outer, root);
    Shapes nested;
    json const& model = text_model(root, nested);
    bool is_text_config = &model != &root;
    Config config(model, file_name, is_text_config ? "text_config." : "");
    for (auto const& [name, value] : outer.used()) config.record(name, value);
    config.set_architecture(architecture.name);

    Shapes shapes = read_shapes(config, architecture.family);
    shapes.left_out.insert(shapes.left_out.begin(), nested.left_out.begin(), nested.left_out.end());
    std::optional<json> hf_quant;
    if (!options.quant_config.empty()) hf_quant = parse_json(options.quant_config, options.quant_file);
    shapes.dtypes = weight_dtypes(config, model, hf_quant ? &*hf_quant : nullptr, options);
    auto [count, formula] = parameters(shapes);
    if (count >= 0x1p53L)
        config.fail("the shapes imply more than 2^53 parameters; roofline import counts them "
                    "exactly only below");
    shapes.active = active_parameters(shapes);
    ImportedScenario result;
    result.text = write_scenario(config, shapes, options, count, formula);
    result.architecture = architecture.name;
    result.parameters = static_cast<double>(count);
    if (shapes.active) result.active_parameters = static_cast<double>(shapes.active->first);
    return result;
}

}  // namespace roofline::model
