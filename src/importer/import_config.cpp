// config.json -> scenario text: parse, find the architecture, read its
// shapes, count the parameters, write the scenario (the steps in
// importer.hpp's files).
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline::model {

using namespace importer;

ImportedScenario import_config(std::string const& json_text, std::string const& file_name,
                               ImportOptions const& options) {
    json root = parse_json(json_text, file_name);
    Config config(root, file_name);
    if (!root.is_object()) config.fail("the config must be a JSON object, not " + std::string(root.type_name()));
    auto const& architecture = find_architecture(config, root);
    config.set_architecture(architecture.name);

    Shapes shapes = architecture.family == Family::gpt2       ? read_gpt2(config)
                    : architecture.family == Family::deepseek ? read_deepseek(config)
                    : architecture.family == Family::qwen3_5  ? read_qwen3_5(config)  // famC
                    : architecture.family == Family::gpt_oss  ? read_gpt_oss(config)
                    : architecture.family == Family::glm_dsa  ? read_glm(config)
                                                              : read_llama_like(config, architecture.family);
    auto [count, formula] = parameters(shapes);
    if (count >= 0x1p53L)
        config.fail("the shapes imply more than 2^53 parameters; roofline import counts them "
                    "exactly only below");
    ImportedScenario result;
    result.text = write_scenario(config, shapes, options, count, formula);
    result.architecture = architecture.name;
    result.parameters = static_cast<double>(count);
    return result;
}

}  // namespace roofline::model
