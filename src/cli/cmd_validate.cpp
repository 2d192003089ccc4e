// `roofline validate MEASURED.csv`: predict every measured row and publish
// the errors as a versioned report (docs/reports.md, "Validation reports";
// the design's calibration.md, section 3).
#include "commands.hpp"
#include "options.hpp"

#include "roofline/calibrate/predict.hpp"
#include "roofline/output/errors.hpp"
#include "roofline/output/terminal_text.hpp"
#include "roofline/validation/publish.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace roofline::cli {

int cmd_validate(std::vector<std::string> const& args) {
    po::options_description options("options");
    // clang-format off
    options.add_options()
        ("configs", po::value<std::string>(), "where the rows' config.json files are")
        ("calibration", repeated(), "a .roof file of calibrations (repeatable)")
        ("uncalibrated", "predict with no calibration")
        ("output,o", po::value<std::string>()->default_value("out"), "reports folder")
        ("force", "publish a new version even when nothing changed")
        ("no-charts", "skip the gnuplot charts")
        ("quiet,q", "print only the published line")
        (include_option, repeated(), include_help);
    // clang-format on
    auto parsed = parse_options("validate", args, options, {"measured", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    auto const started = std::chrono::steady_clock::now();

    calibrate::PredictOptions predict;
    if (vm.count("configs")) predict.configs_dir = vm["configs"].as<std::string>();
    predict.calibration_files = vm["calibration"].as<std::vector<std::string>>();
    predict.include_dirs = vm["include"].as<std::vector<std::string>>();
    predict.uncalibrated = vm.count("uncalibrated") > 0;
    if (predict.uncalibrated && !predict.calibration_files.empty())
        return usage_error_of("validate", "--uncalibrated contradicts --calibration");
    validation::PublishRequest request;
    auto out_root = output_folder("validate", vm);
    if (!out_root) return usage_error;
    request.out_root = *out_root;
    request.charts = !vm.count("no-charts");
    request.force = vm.count("force") > 0;
    request.command_line = {"roofline", "validate"};
    request.command_line.insert(request.command_line.end(), args.begin(), args.end());
    bool const quiet = vm.count("quiet") > 0;

    calibrate::Validation predictions;
    try {
        predictions = calibrate::validate_measured(vm["measured"].as<std::string>(), predict);
    } catch (calibrate::MeasuredError const& e) {
        std::cerr << output::terminal_safe(e.what(), true) << "\n";
        return invalid_input;
    }
    validation::PublishOutcome outcome;
    try {
        outcome = validation::publish(predictions, request);
    } catch (output::ChartError const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return io_error;
    }
    for (auto const& note : outcome.notes) std::cerr << "roofline: note: " << output::terminal_safe(note) << "\n";
    if (!outcome.published) {
        std::cout << "up to date: " << outcome.folder << "\n";
        if (!quiet) std::cout << outcome.tables;
        return ok;
    }
    double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
    if (!quiet) std::cout << outcome.tables << "\n";
    std::cout << "published " << outcome.folder << ": " << outcome.rows << " rows modelled, "
              << outcome.skipped << " skipped in " << elapsed << "\n";
    for (auto const& warning : outcome.warnings) std::cerr << "roofline: warning: " << warning << "\n";
    return ok;
}

}  // namespace roofline::cli
