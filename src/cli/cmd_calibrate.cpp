// `roofline calibrate MEASURED.csv [--configs DIR] [--hardware HW]...
// [--backend NAME]... [--folds K] [-o FILE.roof|DIR] [--report [DIR]] [-I DIR]... [--quiet]`:
// one calibration per chip and engine fitted to measured serving rows
// (calibrate::calibrate_measured does the work; docs/calibration.md), and
// with --report the cross-validated predictions published as a validation
// report (validation::publish, docs/reports.md).
#include "commands.hpp"
#include "options.hpp"

#include "roofline/calibrate/calibrate.hpp"
#include "roofline/calibrate/predict.hpp"
#include "roofline/output/gnuplot.hpp"
#include "roofline/output/terminal_text.hpp"
#include "roofline/validation/publish.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace roofline::cli {

namespace {

std::string today() {
    std::time_t const now = std::time(nullptr);
    char buffer[16];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::gmtime(&now));
    return buffer;
}

std::string pct(double f, int decimals = 1) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*f %%", decimals, 100 * f);
    return buffer;
}

}  // namespace

int cmd_calibrate(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("configs", po::value<std::string>(), "the folder of the rows' config.json files")
        ("hardware", repeated(), "fit only this chip (repeatable)")
        ("backend", repeated(), "fit only this engine (repeatable)")
        ("folds", po::value<std::size_t>()->default_value(5), "cross-validation folds")
        ("pool-for", po::value<std::string>(), "one calibration per engine over every chosen chip, for HW")
        ("ttft-weight", po::value<double>()->default_value(calibrate::CalibrateOptions{}.ttft_weight),
         "the weight of TTFT against TPOT")
        ("output,o", po::value<std::string>(), "FILE.roof or a folder (one file per chip and engine)")
        ("report", po::value<std::string>()->implicit_value("out"),
         "publish the cross-validated predictions as a report in DIR (default: out)")
        ("no-charts", "with --report, skip the gnuplot charts")
        ("quiet,q", po::bool_switch(), "no progress")
        (include_option, repeated(), include_help);
    auto parsed = parse_options("calibrate", args, options, {"measured", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    calibrate::CalibrateOptions o;
    if (vm.count("configs")) o.configs_dir = vm["configs"].as<std::string>();
    o.hardware = vm["hardware"].as<std::vector<std::string>>();
    o.backends = vm["backend"].as<std::vector<std::string>>();
    o.include_dirs = vm["include"].as<std::vector<std::string>>();
    o.folds = vm["folds"].as<std::size_t>();
    if (vm.count("pool-for")) o.pool_for = vm["pool-for"].as<std::string>();
    o.ttft_weight = vm["ttft-weight"].as<double>();
    if (!(o.ttft_weight >= 0)) return usage_error_of("calibrate", "--ttft-weight takes a number >= 0");
    if (o.folds < 2) return usage_error_of("calibrate", "--folds takes 2 or more");
    o.date = today();
    // The report's checks before the fit, which takes a minute on the whole sample.
    bool const report = vm.count("report") > 0;
    bool const charts = vm.count("no-charts") == 0;
    if (report && vm["report"].as<std::string>().empty())
        return usage_error_of("calibrate", "--report takes a folder, not an empty name (--report . is the current folder)");
    if (!report && !charts) return usage_error_of("calibrate", "--no-charts is an option of --report");
    if (report && charts && !output::gnuplot_available()) {
        std::cerr << "roofline calibrate: error: gnuplot is not installed (Debian: apt-get install gnuplot-nox); "
                     "run with --no-charts to skip the report's charts\n";
        return io_error;
    }
    bool const quiet = vm["quiet"].as<bool>();
    auto const start = std::chrono::steady_clock::now();
    if (!quiet)
        o.progress = [](std::string const& phase, std::size_t done, std::size_t total) {
            std::cerr << "\r" << phase << " " << done << "/" << total << "   " << std::flush;
        };
    calibrate::CalibrateResult result;
    try {
        result = calibrate::calibrate_measured(vm["measured"].as<std::string>(), o);
    } catch (calibrate::MeasuredError const& e) {
        if (!quiet) std::cerr << "\n";
        std::cerr << e.what();
        return invalid_input;
    }
    if (!quiet) std::cerr << "\r" << std::string(40, ' ') << "\r";
    double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // The figures, per chip and engine.
    std::vector<std::vector<std::string>> table = {{"calibration", "rows", "series", "TPOT fit", "TPOT cv",
                                                     "TPOT cv signed", "TTFT fit", "TTFT cv", "TTFT cv signed"}};
    for (auto const& g : result.groups)
        table.push_back({g.calibration.name, std::to_string(g.rows), std::to_string(g.series),
                         pct(g.fit_tpot.median_ape), pct(g.cv_tpot.median_ape), pct(g.cv_tpot.signed_median),
                         pct(g.fit_ttft.median_ape), pct(g.cv_ttft.median_ape), pct(g.cv_ttft.signed_median)});
    std::vector<double> pt, mt, pp, mp;
    for (auto const& r : result.cross_validated.rows) {
        pt.push_back(r.predicted_ttft_s), mt.push_back(r.measured_ttft_s);
        pp.push_back(r.predicted_tpot_s), mp.push_back(r.measured_tpot_s);
    }
    auto const all_tpot = calibrate::error_stats(pp, mp), all_ttft = calibrate::error_stats(pt, mt);
    // The overall figures to 0.01 %: what the bars (TPOT <= 10 %, TTFT <= 20 %) are judged on.
    table.push_back({"all (cross-validated)", std::to_string(all_tpot.count), "", "", pct(all_tpot.median_ape, 2),
                     pct(all_tpot.signed_median, 2), "", pct(all_ttft.median_ape, 2),
                     pct(all_ttft.signed_median, 2)});
    std::cout << "median absolute percentage error of the mean TPOT and TTFT, in sample (fit) and\n"
                 "cross-validated by whole series (cv); signed: (predicted - measured) / measured\n";
    std::cout << output::render_table(table, {false, true, true, true, true, true, true, true, true});
    std::map<std::string, std::size_t> reasons;
    for (auto const& s : result.skipped) ++reasons[s.reason];
    std::cout << result.skipped.size() << " rows not modelled";
    std::cout << (reasons.empty() ? "\n" : ":\n");
    for (auto const& [why, n] : reasons) std::cout << "  " << n << "  " << why << "\n";

    if (vm.count("output")) {
        std::string const out = vm["output"].as<std::string>();
        bool const one_file = out.size() > 5 && out.substr(out.size() - 5) == ".roof";
        std::vector<std::pair<std::string, std::string>> files;
        // Each file includes the catalog, so that it loads on its own
        // (`--calibration FILE`) and in a scenario (read once either way).
        std::string const head = "# Fitted by roofline calibrate (docs/calibration.md); use with\n"
                                 "# `target HW with NAME` after including this file.\n"
                                 "include \"hardware/catalog.roof\"\n";
        std::string all = head;
        for (auto const& g : result.groups) {
            std::string text = calibrate::calibration_text(g, result, o.date);
            if (one_file) all += "\n" + text;
            else files.emplace_back((std::filesystem::path(out) / (g.calibration.name + ".roof")).string(),
                                    head + "\n" + text);
        }
        if (one_file) files.emplace_back(out, all);
        std::error_code ec;
        if (!one_file) std::filesystem::create_directories(out, ec);
        for (auto const& [path, text] : files) {
            std::string const temp = path + ".tmp";
            std::ofstream file(temp, std::ios::binary);
            file << text;
            file.close();
            if (!file || (std::filesystem::rename(temp, path, ec), ec)) {
                std::cerr << "roofline calibrate: error: cannot write '" << path << "'\n";
                return io_error;
            }
            std::cerr << "roofline calibrate: wrote " << path << "\n";
        }
    }
    if (report) {
        // The rows as each fold's fit predicted them: what the cv figures are of.
        validation::PublishRequest request;
        request.out_root = vm["report"].as<std::string>();
        request.charts = charts;
        request.command_line = {"roofline", "calibrate"};
        request.command_line.insert(request.command_line.end(), args.begin(), args.end());
        validation::PublishOutcome outcome;
        try {
            outcome = validation::publish(result.cross_validated, request);
        } catch (std::exception const& e) {
            std::cerr << "roofline calibrate: error: " << output::terminal_safe(e.what()) << "\n";
            return io_error;
        }
        for (auto const& note : outcome.notes)
            std::cerr << "roofline: note: " << output::terminal_safe(note) << "\n";
        std::cerr << "roofline calibrate: " << (outcome.published ? "published " : "up to date: ")
                  << outcome.folder << "\n";
        for (auto const& warning : outcome.warnings) std::cerr << "roofline: warning: " << warning << "\n";
    }
    std::cerr << "calibrated " << result.groups.size() << " chip x engine groups on "
              << result.cross_validated.rows.size() << " rows in " << static_cast<int>(seconds * 10) / 10.0
              << " s\n";
    return ok;
}

}  // namespace roofline::cli
