#pragma once
// which hf_quant_config.json `roofline import` reads beside a config.

#include <optional>
#include <string>

namespace roofline::cli {

// `given` (--quant) when not empty; else the file beside `config` whose name
// is the config's with its trailing "config.json" replaced by
// "hf_quant_config.json" (config.json -> hf_quant_config.json, as a
// checkpoint's folder has it; NAME_config.json -> NAME_hf_quant_config.json,
// as ../shared/measured/configs names them), when it exists; else nullopt.
std::optional<std::string> quant_config_path(std::string const& config, std::string const& given);

}  // namespace roofline::cli
