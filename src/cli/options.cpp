#include "options.hpp"

#include <ctime>
#include <iostream>

namespace roofline::cli {

std::optional<Parsed> parse_options(std::string const& command, std::string const& usage,
                                    std::vector<std::string> const& args,
                                    po::options_description const& visible,
                                    po::positional_options_description const& positional) {
    po::options_description all;
    all.add(visible);
    all.add_options()("help,h", "show this help");
    Parsed parsed;
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(),
                  parsed.vm);
        if (parsed.vm.count("help")) {
            std::cout << "usage: " << usage << "\n\n" << all;
            parsed.help = true;
            return parsed;
        }
        po::notify(parsed.vm);
    } catch (po::error const& e) {
        std::cerr << "roofline " << command << ": error: " << e.what() << "\n"
                  << "usage: " << usage << "\n"
                  << "(see 'roofline " << command << " --help')\n";
        return std::nullopt;
    }
    return parsed;
}

std::string utc_now() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

void print_diagnostics(Diagnostics const& diagnostics) {
    std::cerr << format(diagnostics);
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

Checked load_and_check(std::string const& path, std::optional<std::string> const& text,
                       std::vector<std::string> const& include_dirs,
                       model::CheckOptions options, Diagnostics& diagnostics,
                       std::vector<std::string> const& sets) {
    DiskFileSystem fs;
    LoadOptions load_options{default_search_path(include_dirs)};
    Checked result;
    if (!sets.empty()) {
        std::string set_text;
        for (auto const& set : sets) set_text += *set_statement(set, false) + "\n";
        result.overrides = load_program_text("<--set>", set_text, fs, LoadOptions{}, diagnostics);
        options.overrides = result.overrides.statements;
    }
    result.program = text ? load_program_text(path, *text, fs, load_options, diagnostics)
                          : load_program(path, fs, load_options, diagnostics);
    if (!result.program.files.empty())
        result.scenario = model::check(result.program, options, diagnostics);
    return result;
}

}  // namespace roofline::cli
