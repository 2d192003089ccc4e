#pragma once
// Test scaffolding for processes: a shell command, or the built `roofline`
// binary (ROOFLINE_BINARY), run to its end with its exit code and its output.

#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <sys/wait.h>

namespace roofline::test {

struct CommandResult {
    int exit_code;  // -1 when the command did not exit normally (a signal)
    std::string out, err;
};

// A path single-quoted for the shell.
inline std::string quoted(std::filesystem::path const& path) {
    return std::string("'").append(path.string()).append("'");
}

// The system's Python 3 (Debian's, with python3-openpyxl, where it is there).
inline std::string python3() {
    return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

// Runs `command` through /bin/sh with its stdout and stderr captured (the
// caller quotes its arguments).
inline CommandResult run_command(std::string const& command) {
    Sandbox capture;
    auto out = capture / "stdout", err = capture / "stderr";
    std::string line = "{ " + command + "\n} >" + quoted(out) + " 2>" + quoted(err);
    int status = std::system(line.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

// Runs the built binary with `args` (through the shell: the caller quotes
// them) in the folder `cwd`; `env` goes before it, e.g. "env PATH=/nonexistent".
inline CommandResult run_roofline(std::filesystem::path const& cwd, std::string const& args,
                                  std::string const& env = "") {
    return run_command("cd " + quoted(cwd) + " && " + (env.empty() ? "" : env + " ") +
                       quoted(ROOFLINE_BINARY) + " " + args);
}

// The names of the entries of `folder` (not below it).
inline std::set<std::string> names_in(std::filesystem::path const& folder) {
    std::set<std::string> names;
    for (auto const& entry : std::filesystem::directory_iterator(folder))
        names.insert(entry.path().filename().string());
    return names;
}

// Runs `roofline ARGS` in `box`; INFO shows what it said.
inline CommandResult roofline_in(Sandbox const& box, std::string const& args) {
    auto r = run_roofline(box.path, args);
    UNSCOPED_INFO("roofline " << args << "\nstdout: " << r.out << "\nstderr: " << r.err);
    return r;
}

}  // namespace roofline::test
