// `roofline eval "bf16[B,D] * int8[D,F] -> bf16[B,F]" --set B=256 ...`: one
// matmul, evaluated through the same language, checker and engine as a
// scenario. The matmul becomes a small scenario text ("<command line>") and
// each --set a sweep of its own ("<--set NAME=VALUE>"), so errors in them
// point at the exact token like any other diagnostic.
#include "commands.hpp"
#include "options.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/engine/evaluate.hpp"

#include <iostream>

namespace roofline::cli {

int cmd_eval(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("set", repeated(),
         "NAME=VALUE: an axis size (B=256), a range (B=1..512, B=1..512 times 2) or a list (B=[1,8,64])")
        ("target", repeated(),
         "hardware to evaluate on (repeatable; default: the whole catalog)")
        (include_option, repeated(), include_help);
    auto parsed = parse_options("eval", args, options, {"matmul", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;

    // Every --set is a sweep (a single value becomes a one-element list), so
    // that the table has critical_<NAME> for each of them.
    auto const& sets = vm["set"].as<std::vector<std::string>>();
    for (auto const& set : sets) {
        if (!model::is_name_value(set))
            return usage_error_of("eval", "--set takes NAME=VALUE on one line, not '" + set + "'");
    }
    auto const& expression = vm["matmul"].as<std::string>();
    if (expression.find_first_of("\r\n") != std::string::npos)
        return usage_error_of("eval", "the matmul may not contain line breaks");
    std::string text = "include \"hardware/catalog.roof\"\nmatmul eval = " + expression + "\n";

    model::CheckOptions check_options;
    check_options.targets = vm["target"].as<std::vector<std::string>>();
    Diagnostics diagnostics;
    auto checked = model::load_scenario("<command line>", text,
                                  vm["include"].as<std::vector<std::string>>(), check_options,
                                  diagnostics, sets, model::SetMode::define_sweep);
    std::optional<engine::Evaluation> evaluation;
    if (!diagnostics.has_errors()) evaluation = engine::evaluate(checked.scenario, diagnostics);
    print_diagnostics(diagnostics);
    if (diagnostics.has_errors() || !evaluation) return invalid_input;
    std::cout << case_table(checked.scenario, *evaluation);
    return ok;
}

}  // namespace roofline::cli
