#pragma once
// Text -> checked scenario in one call: load a scenario file (and what it
// includes) and check it, with the --set values of the command line as
// overrides. What `run`, `check`, `eval` and `hardware` start from.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::model {

// Program + checked scenario; the program owns the sources that the
// scenario's spans point into, so they travel together.
struct LoadedScenario {
    Program program;
    Program overrides;  // the --set values, as `let`/`sweep` statements ("<--set>")
    Scenario scenario;
};

// Reads `path` (or takes `text` as its contents) from disk, searching
// `include_dirs` and then the shipped templates for includes. `sets` are
// --set NAME=VALUE arguments, each well-formed (see set_statement). Errors
// and warnings go to `diagnostics`.
LoadedScenario load_scenario(std::string const& path, std::optional<std::string> const& text,
                             std::vector<std::string> const& include_dirs, CheckOptions options,
                             Diagnostics& diagnostics, std::vector<std::string> const& sets = {});

// "let NAME = VALUE" or "sweep NAME = VALUE" for one --set NAME=VALUE: VALUE
// with ".." or "[...]" is a sweep, otherwise a let (a one-value sweep when
// `always_sweep`); nullopt if it is not NAME=VALUE on one line.
std::optional<std::string> set_statement(std::string const& set, bool always_sweep);

}  // namespace roofline::model
