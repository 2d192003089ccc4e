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
    Program overrides;  // the --set values, one file each ("<--set NAME=VALUE>")
    Scenario scenario;
};

// What the --set values of a command line do (see lang's parse_set for what
// a value may be).
enum class SetMode {
    // `roofline run`: `let NAME = VALUE` for an expression, `sweep NAME =
    // VALUE` for a range or a list, replacing the scenario's top-level let or
    // sweep NAME in its place.
    replace,
    // `roofline eval`: `sweep NAME = VALUE`, an expression being a one-value
    // list, defined before the scenario's own statements.
    define_sweep,
};

// Reads `path` (or takes `text` as its contents) from disk, searching
// `include_dirs` and then the shipped templates for includes. `sets` are
// --set NAME=VALUE arguments, each on one line (see is_name_value). Errors
// and warnings go to `diagnostics`.
LoadedScenario load_scenario(std::string const& path, std::optional<std::string> const& text,
                             std::vector<std::string> const& include_dirs, CheckOptions options,
                             Diagnostics& diagnostics, std::vector<std::string> const& sets = {},
                             SetMode mode = SetMode::replace);

// Whether a --set argument has the form NAME=VALUE on one line, as the
// command line requires before loading (which then checks NAME and VALUE).
bool is_name_value(std::string const& set);

}  // namespace roofline::model
