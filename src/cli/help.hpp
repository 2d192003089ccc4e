#pragma once
// The help of each command, written by hand for people (README.md, "Usage"):
// a usage line that lists every option, then what the command does and each
// option. parse_options checks that every option a command accepts is
// described here, so that the two cannot drift apart.

#include <string>

namespace roofline::cli {

struct CommandHelp {
    char const* name;     // "run"
    char const* usage;    // "roofline run SCENARIO.roof [-o OUT] ..."
    char const* missing;  // the required argument, "SCENARIO.roof"; nullptr when none
    char const* text;     // what it does, then "options:" and one entry per option
};

// The help of `command`, or nullptr when there is no such command.
CommandHelp const* find_help(std::string const& command);

// "usage: <usage>\n\n<text>": what `roofline help COMMAND` prints.
std::string help_text(CommandHelp const& help);

// The list of commands: `roofline help`, `roofline` alone.
std::string general_help();

}  // namespace roofline::cli
