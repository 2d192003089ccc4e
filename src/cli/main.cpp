// roofline: scenario files in, roofline numbers out. See README.md.
#include "commands.hpp"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr char const* usage =
    "usage: roofline <command> [options]\n"
    "\n"
    "commands:\n"
    "  run SCENARIO.roof        evaluate and publish a versioned report under out/\n"
    "  check SCENARIO.roof...   parse, validate and evaluate; print every diagnostic\n"
    "  eval \"A * B -> C\"        evaluate one matmul (--set NAME=VALUE, --target HW)\n"
    "  hardware [NAME]          list the hardware catalog, or one chip\n"
    "  diff REPORT_A REPORT_B   compare two reports case by case (speedups, bound flips)\n"
    "  import CONFIG.json       a scenario from a Hugging Face config.json (-o FILE.roof)\n"
    "\n"
    "'roofline <command> --help' describes a command's options; 'roofline --version'.\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace roofline::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << usage;
        return usage_error;
    }
    std::string command = args.front();
    args.erase(args.begin());
    try {
        if (command == "--version" || command == "version") {
            std::cout << "roofline " << ROOFLINE_VERSION << "\n";
            return ok;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage;
            return ok;
        }
        if (command == "run") return cmd_run(args);
        if (command == "check") return cmd_check(args);
        if (command == "eval") return cmd_eval(args);
        if (command == "hardware") return cmd_hardware(args);
        if (command == "diff") return cmd_diff(args);
        if (command == "import") return cmd_import(args);
        std::cerr << "roofline: error: unknown command '" << command << "'\n" << usage;
        return usage_error;
    } catch (std::bad_alloc const&) {
        std::cerr << "roofline: error: out of memory\n";
        return io_error;
    } catch (std::exception const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return io_error;
    }
}
