#pragma once
// Helpers shared by the subcommands: option parsing with usage errors, and
// loading + checking a scenario with diagnostics printed to stderr.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"

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

// Now, as ISO 8601 UTC: "2026-11-30T02:51:47Z".
std::string utc_now();

// Program + checked scenario; the program owns the sources that the
// scenario's spans point into, so they travel together.
struct Checked {
    Program program;
    Program overrides;  // the --set values, as `let`/`sweep` statements ("<--set>")
    model::Scenario scenario;
};
// `sets` are --set NAME=VALUE arguments: VALUE with ".." or "[...]" is a sweep,
// otherwise a let. Returns false (usage error printed) for a malformed one.
Checked load_and_check(std::string const& path, std::optional<std::string> const& text,
                       std::vector<std::string> const& include_dirs,
                       model::CheckOptions options, Diagnostics& diagnostics,
                       std::vector<std::string> const& sets = {});

// "let NAME = VALUE" or "sweep NAME = VALUE" for one --set; nullopt if it is
// not NAME=VALUE on one line.
std::optional<std::string> set_statement(std::string const& set, bool always_sweep);

}  // namespace roofline::cli
