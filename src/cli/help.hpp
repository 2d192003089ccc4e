#pragma once
// The help printed from the command table (commands.hpp): `roofline help`,
// `roofline help COMMAND`, `roofline COMMAND --help`, and the usage line of a
// usage error.

#include "commands.hpp"

#include <string>

namespace roofline::cli {

// "usage: <usage>\n\n<text>": what `roofline help COMMAND` prints.
std::string help_text(Command const& command);

// The list of commands: `roofline help`, `roofline` alone.
std::string general_help();

}  // namespace roofline::cli
