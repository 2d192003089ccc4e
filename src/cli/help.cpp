#include "help.hpp"

#include <algorithm>

namespace roofline::cli {
namespace {

// One line of the list of commands: "  run SCENARIO.roof", then the summary
// from column 27.
std::string list_line(std::string const& synopsis, char const* summary) {
    constexpr std::size_t summary_column = 27;
    std::string line = "  " + synopsis;
    line.append(std::max<std::size_t>(summary_column - std::min(line.size(), summary_column), 1),
                ' ');
    return line.append(summary).append("\n");
}

}  // namespace

std::string help_text(Command const& command) {
    return std::string("usage: ").append(command.usage).append("\n\n").append(command.text);
}

std::string general_help() {
    std::string text = "usage: roofline COMMAND [ARGUMENTS] [OPTIONS]\n\ncommands:\n";
    for (auto const& command : commands())
        text += list_line(std::string(command.name).append(" ").append(command.arguments),
                          command.summary);
    text += list_line("help [COMMAND]", "this list, or a command's usage and options");
    return text.append(
        "\n"
        "'roofline help COMMAND' (or 'roofline COMMAND --help') describes a command;\n"
        "'roofline --version' prints the version and the templates folder in use.\n");
}

}  // namespace roofline::cli
