#include "options.hpp"

#include <iostream>

namespace roofline::cli {

std::optional<Parsed> parse_options(std::string const& command, std::string const& usage,
                                    std::vector<std::string> const& args,
                                    po::options_description const& visible,
                                    po::positional_options_description const& positional) {
    po::options_description all;
    all.add(visible);
    all.add_options()("help,h", "show this help");
    Parsed parsed;
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(),
                  parsed.vm);
        if (parsed.vm.count("help")) {
            std::cout << "usage: " << usage << "\n\n" << all;
            parsed.help = true;
            return parsed;
        }
        po::notify(parsed.vm);
    } catch (po::error const& e) {
        std::cerr << "roofline " << command << ": error: " << e.what() << "\n"
                  << "usage: " << usage << "\n"
                  << "(see 'roofline " << command << " --help')\n";
        return std::nullopt;
    }
    return parsed;
}

po::typed_value<std::vector<std::string>>* repeated() {
    return po::value<std::vector<std::string>>()->default_value({}, "");
}

void print_diagnostics(Diagnostics const& diagnostics) {
    std::cerr << format(diagnostics);
}

}  // namespace roofline::cli
