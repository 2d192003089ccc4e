#include "roofline/model/load.hpp"

#include "roofline/lang/file_system.hpp"

namespace roofline::model {

LoadedScenario load_scenario(std::string const& path, std::optional<std::string> const& text,
                             std::vector<std::string> const& include_dirs, CheckOptions options,
                             Diagnostics& diagnostics, std::vector<std::string> const& sets) {
    DiskFileSystem fs;
    LoadOptions load_options{default_search_path(include_dirs)};
    LoadedScenario result;
    if (!sets.empty()) {
        std::string set_text;
        for (auto const& set : sets) set_text += *set_statement(set, false) + "\n";
        result.overrides = load_program_text("<--set>", set_text, fs, LoadOptions{}, diagnostics);
        options.overrides = result.overrides.statements;
    }
    result.program = text ? load_program_text(path, *text, fs, load_options, diagnostics)
                          : load_program(path, fs, load_options, diagnostics);
    if (!result.program.files.empty()) result.scenario = check(result.program, options, diagnostics);
    return result;
}

std::optional<std::string> set_statement(std::string const& set, bool always_sweep) {
    auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0 || set.find_first_of("\r\n") != std::string::npos)
        return std::nullopt;
    std::string name = set.substr(0, eq), value = set.substr(eq + 1);
    bool range_or_list = value.find("..") != std::string::npos || value.find('[') == 0;
    if (range_or_list) return "sweep " + name + " = " + value;
    if (always_sweep) return "sweep " + name + " = [" + value + "]";
    return "let " + name + " = " + value;
}

}  // namespace roofline::model
