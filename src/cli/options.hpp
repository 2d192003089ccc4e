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

// Parses `args` against `visible` (+ positional). On a usage error prints it
// with a hint and returns nullopt; on --help prints the usage and returns an
// empty map with `help` set.
struct Parsed {
    po::variables_map vm;
    bool help = false;
};
std::optional<Parsed> parse_options(std::string const& command, std::string const& usage,
                                    std::vector<std::string> const& args,
                                    po::options_description const& visible,
                                    po::positional_options_description const& positional);

void print_diagnostics(Diagnostics const& diagnostics);

// The value of an option that may be given several times (--set, --target,
// -I, ...): all of them in order, none by default.
po::typed_value<std::vector<std::string>>* repeated();
// -I DIR, which every command that reads scenarios takes.
inline constexpr char const* include_option = "include,I";
inline constexpr char const* include_help = "also search DIR for included files";

}  // namespace roofline::cli
