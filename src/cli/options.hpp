#pragma once
// Helpers shared by the subcommands: option parsing with usage errors, and
// loading + checking a scenario with diagnostics printed to stderr.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/load.hpp"

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace roofline::cli {
namespace po = boost::program_options;

// A command's arguments (SCENARIO.roof, REPORT_A REPORT_B): a hidden option
// `name` that takes the positional arguments, one (max 1: a std::string) or
// any number (max -1: a std::vector<std::string>, empty by default).
struct Arguments {
    char const* name;
    int max;
};

// Parses `args` against `visible` (the options, each described in the
// command's help, help.cpp) and `arguments`. On a usage error (a missing
// argument among them, named as the usage line names it) prints it with the
// usage line and returns nullopt; on --help prints the help and returns an
// empty map with `help` set. Throws std::logic_error when an option in
// `visible` is missing from the help: a programming error that every test
// of the command shows.
struct Parsed {
    po::variables_map vm;
    bool help = false;
};
std::optional<Parsed> parse_options(std::string const& command,
                                    std::vector<std::string> const& args,
                                    po::options_description const& visible, Arguments arguments);

// Prints "roofline COMMAND: error: WHAT", the usage line and where the help
// is; returns usage_error.
int usage_error_of(std::string const& command, std::string const& what);

// The folder of -o/--output, which `run` and `diff` write into; nullopt,
// after a usage error, when it is empty (which would mean the current folder
// by accident: `-o "$UNSET"`).
std::optional<std::string> output_folder(std::string const& command, po::variables_map const& vm);

void print_diagnostics(Diagnostics const& diagnostics);

// The value of an option that may be given several times (--set, --target,
// -I, ...): all of them in order, none by default.
po::typed_value<std::vector<std::string>>* repeated();
// -I DIR, which every command that reads scenarios takes.
inline constexpr char const* include_option = "include,I";
inline constexpr char const* include_help = "also search DIR for included files";

}  // namespace roofline::cli
