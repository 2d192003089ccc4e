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

namespace {

// eval prints one row per case on the terminal, built before it is printed:
// a table for a person to read, not a report (run writes those). Bounded
// before anything is evaluated, so that `--set B=1..9999999` on the whole
// catalog is an error at once instead of minutes and gigabytes of rows.
constexpr std::size_t max_eval_cases = 100'000;

// The error at the first sweep (in order) whose values take points x targets
// past max_eval_cases; nothing when the table fits.
bool table_fits(model::Scenario const& scenario, Diagnostics& diagnostics) {
    double cases = static_cast<double>(std::max<std::size_t>(1, scenario.targets.size()));
    for (auto const& sweep : scenario.sweeps) {
        cases *= static_cast<double>(sweep.values.size());
        if (cases <= static_cast<double>(max_eval_cases)) continue;
        diagnostics.error(sweep.span,
                          "eval prints one row per case, at most " +
                              std::to_string(max_eval_cases) + ", but with this --set it has at least " +
                              model::format_number(cases) + " (on " +
                              std::to_string(scenario.targets.size()) +
                              " targets); narrow it, name fewer --target, or use `roofline run`, "
                              "which writes every case to files");
        return false;
    }
    return true;
}

}  // namespace

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
    // The points alone are bounded while the sweeps' values are made (a
    // 10^7-value range is refused before it is built); with the targets, below.
    check_options.max_points = max_eval_cases;
    Diagnostics diagnostics;
    auto checked = model::load_scenario("<command line>", text,
                                  vm["include"].as<std::vector<std::string>>(), check_options,
                                  diagnostics, sets, model::SetMode::define_sweep);
    std::optional<engine::Evaluation> evaluation;
    if (!diagnostics.has_errors() && table_fits(checked.scenario, diagnostics))
        evaluation = engine::evaluate(checked.scenario, diagnostics);
    print_diagnostics(diagnostics);
    if (diagnostics.has_errors() || !evaluation) return invalid_input;
    std::cout << case_table(checked.scenario, *evaluation);
    // Which t_expected each target's rows have (the table has no column for it).
    std::cout << report::calibration_lines(checked.scenario);
    return ok;
}

}  // namespace roofline::cli
