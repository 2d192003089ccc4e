#include "quant_file.hpp"

#include <filesystem>
#include <string_view>
#include <system_error>

namespace roofline::cli {

std::optional<std::string> quant_config_path(std::string const& config, std::string const& given) {
    if (!given.empty()) return given;
    constexpr std::string_view suffix = "config.json";
    std::filesystem::path path(config);
    auto name = path.filename().string();
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return std::nullopt;
    name.replace(name.size() - suffix.size(), suffix.size(), "hf_quant_config.json");
    auto beside = path.parent_path() / name;
    std::error_code error;
    if (!std::filesystem::is_regular_file(beside, error)) return std::nullopt;
    return beside.string();
}

}  // namespace roofline::cli
