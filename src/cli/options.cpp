#include "options.hpp"

#include "commands.hpp"
#include "help.hpp"

#include <iostream>
#include <stdexcept>

namespace roofline::cli {
namespace {

Command const& help_of(std::string const& command) {
    auto const* help = find_command(command);
    if (!help) throw std::logic_error("no help for command '" + command + "'");
    return *help;
}

// Every option the parser accepts is in the usage line (by its short or long
// name) and described under "options:" (by its long name).
void check_described(Command const& help, po::options_description const& visible) {
    std::string usage = std::string(" ") + help.usage + " ", text = help.text;
    for (auto const& option : visible.options()) {
        std::string long_name = "--" + option->long_name();
        // format_name(): "-o [ --output ]" or "--force".
        std::string name = option->format_name();
        std::string short_name = name.rfind("--", 0) == 0 ? "" : name.substr(0, name.find(' '));
        bool in_usage = usage.find("[" + long_name + " ") != std::string::npos ||
                        usage.find("[" + long_name + "]") != std::string::npos ||
                        (!short_name.empty() &&
                         usage.find("[" + short_name + " ") != std::string::npos);
        if (!in_usage || text.find(long_name) == std::string::npos)
            throw std::logic_error(std::string("the help of 'roofline ")
                                       .append(help.name)
                                       .append("' does not describe ")
                                       .append(long_name));
    }
}

}  // namespace

int usage_error_of(std::string const& command, std::string const& what) {
    std::cerr << "roofline " << command << ": error: " << what << "\n"
              << "usage: " << help_of(command).usage << "\n"
              << "(see 'roofline help " << command << "')\n";
    return usage_error;
}

std::optional<Parsed> parse_options(std::string const& command,
                                    std::vector<std::string> const& args,
                                    po::options_description const& visible, Arguments arguments) {
    auto const& help = help_of(command);
    check_described(help, visible);
    po::options_description all;
    all.add(visible);
    all.add_options()("help,h", "show this help");
    if (arguments.max == 1)
        all.add_options()(arguments.name, po::value<std::string>());
    else
        all.add_options()(arguments.name, repeated());
    po::positional_options_description positional;
    positional.add(arguments.name, arguments.max);
    Parsed parsed;
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(),
                  parsed.vm);
        if (parsed.vm.count("help")) {
            std::cout << help_text(help);
            parsed.help = true;
            return parsed;
        }
        po::notify(parsed.vm);
    } catch (po::error const& e) {
        usage_error_of(command, e.what());
        return std::nullopt;
    }
    // Named as the usage line names it, not by the hidden option's name.
    auto const& given = parsed.vm[arguments.name];
    if (help.missing && (given.empty() || given.defaulted())) {
        usage_error_of(command, std::string("missing ") + help.missing);
        return std::nullopt;
    }
    return parsed;
}

std::optional<std::string> output_folder(std::string const& command, po::variables_map const& vm) {
    auto const& folder = vm["output"].as<std::string>();
    if (!folder.empty()) return folder;
    usage_error_of(command, "-o takes a folder, not an empty name (-o . is the current folder)");
    return std::nullopt;
}

po::typed_value<std::vector<std::string>>* repeated() {
    return po::value<std::vector<std::string>>()->default_value({}, "");
}

void print_diagnostics(Diagnostics const& diagnostics) {
    std::cerr << format(diagnostics);
}

}  // namespace roofline::cli
