#pragma once
// The commands of the command line, in one table (commands.cpp): main
// dispatches on it, `roofline help` lists and prints it, and parse_options
// checks each command's options against its help there. A new command is one
// entry in that table and its cmd_<name>.cpp.

#include <span>
#include <string>
#include <vector>

namespace roofline::cli {

// The process exit codes (reports.md): 0 ok, 1 invalid input, 2 usage
// error, 3 I/O or environment failure.
enum ExitCode : int { ok = 0, invalid_input = 1, usage_error = 2, io_error = 3 };

// Each help is written by hand for people (README.md, "Usage"): a usage line
// that lists every option, then what the command does and each option.
struct Command {
    char const* name;       // "run"
    // Runs the command on the arguments after its name; returns the exit code.
    int (*run)(std::vector<std::string> const& args);
    char const* arguments;  // after the name in the list of commands: "SCENARIO.roof", "[NAME]"
    char const* summary;    // the rest of its line in the list of commands
    char const* usage;      // "roofline run SCENARIO.roof [-o OUT] ..."
    char const* missing;    // the required argument, "SCENARIO.roof"; nullptr when none
    char const* text;       // what it does, then "options:" and one entry per option
};

// Every command, in the order `roofline help` lists them.
std::span<Command const> commands();

// The command called `name`, or nullptr when there is none.
Command const* find_command(std::string const& name);

}  // namespace roofline::cli
