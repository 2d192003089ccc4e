#pragma once
// One function per subcommand. Each takes the arguments after the subcommand
// name and returns the process exit code (reports.md: 0 ok, 1 invalid input,
// 2 usage error, 3 I/O or environment failure).

#include <string>
#include <vector>

namespace roofline::cli {

enum ExitCode : int { ok = 0, invalid_input = 1, usage_error = 2, io_error = 3 };

int cmd_check(std::vector<std::string> const& args);
int cmd_eval(std::vector<std::string> const& args);
int cmd_hardware(std::vector<std::string> const& args);
int cmd_run(std::vector<std::string> const& args);
int cmd_diff(std::vector<std::string> const& args);
int cmd_import(std::vector<std::string> const& args);

}  // namespace roofline::cli
