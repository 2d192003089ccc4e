// roofline: scenario files in, roofline numbers out. See README.md.
#include "help.hpp"

#include "roofline/lang/templates_dir.hpp"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace roofline::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << general_help();
        return usage_error;
    }
    std::string command = args.front();
    args.erase(args.begin());
    try {
        if (command == "--version" || command == "version") {
            std::cout << "roofline " << ROOFLINE_VERSION << "\n"
                      << "templates: " << roofline::templates_dir() << "\n";
            return ok;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            if (args.empty()) {
                std::cout << general_help();
                return ok;
            }
            auto const* help = find_command(args.front());
            if (args.size() > 1 || !help) {
                std::cerr << "roofline help: error: "
                          << (help ? std::string("expected one command, got ").append(std::to_string(args.size()))
                                   : "unknown command '" + args.front() + "'")
                          << "\n"
                          << general_help();
                return usage_error;
            }
            std::cout << help_text(*help);
            return ok;
        }
        if (auto const* known = find_command(command)) return known->run(args);
        std::cerr << "roofline: error: unknown command '" << command << "'\n" << general_help();
        return usage_error;
    } catch (std::bad_alloc const&) {
        std::cerr << "roofline: error: out of memory\n";
        return io_error;
    } catch (std::exception const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return io_error;
    }
}
