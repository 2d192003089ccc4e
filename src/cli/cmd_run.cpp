// `roofline run SCENARIO.roof`: evaluate and publish a new report version
// (reports.md, "A versioned report").
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/report/run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

namespace roofline::cli {

namespace {

// --formats csv,xlsx,charts: sets the request's formats to those named, or
// returns why it cannot.
std::string parse_formats(std::string const& text, report::RunRequest& request) {
    request.csv = request.xlsx = request.charts = false;
    for (std::size_t at = 0; at <= text.size();) {
        auto end = std::min(text.find(',', at), text.size());
        auto name = text.substr(at, end - at);
        bool* format = name == "csv" ? &request.csv
                       : name == "xlsx" ? &request.xlsx
                       : name == "charts" ? &request.charts
                                          : nullptr;
        if (!format)
            return "--formats takes a list of csv, xlsx and charts (--formats csv,charts), not '" +
                   text + "'";
        *format = true;
        at = end + 1;
    }
    return "";
}

}  // namespace

int cmd_run(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("output,o", po::value<std::string>()->default_value("out"), "reports folder")
        ("set", repeated(),
         "NAME=VALUE: override a top-level let or sweep (B=64, B=1..64, B=[1,8])")
        ("target", repeated(),
         "hardware to evaluate on, replacing the scenario's targets (repeatable)")
        ("force", "publish a new version even when nothing changed")
        ("formats", po::value<std::string>(), "the formats a version holds: csv,xlsx,charts")
        ("no-charts", "skip the gnuplot charts")
        ("quiet,q", "no progress and no summary table")
        (include_option, repeated(), include_help);
    auto parsed = parse_options("run", args, options, {"scenario", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    auto started = std::chrono::steady_clock::now();

    auto const& sets = vm["set"].as<std::vector<std::string>>();
    for (auto const& set : sets) {
        if (!model::is_name_value(set))
            return usage_error_of("run", "--set takes NAME=VALUE on one line, not '" + set + "'");
    }
    report::RunRequest request;
    request.scenario = vm["scenario"].as<std::string>();
    auto out_root = output_folder("run", vm);
    if (!out_root) return usage_error;
    request.out_root = *out_root;
    request.sets = sets;
    request.targets = vm["target"].as<std::vector<std::string>>();
    request.include_dirs = vm["include"].as<std::vector<std::string>>();
    request.force = vm.count("force") > 0;
    request.charts = !vm.count("no-charts");
    if (vm.count("formats")) {
        bool const no_charts = !request.charts;
        auto error = parse_formats(vm["formats"].as<std::string>(), request);
        if (!error.empty()) return usage_error_of("run", error);
        if (no_charts && request.charts)
            return usage_error_of("run", "--no-charts contradicts --formats with charts");
    }
    request.tables = report_tables;
    request.command_line = {"roofline", "run"};
    request.command_line.insert(request.command_line.end(), args.begin(), args.end());
    bool const quiet = vm.count("quiet") > 0;
    std::optional<ProgressDisplay> progress(std::in_place, !quiet);
    request.progress = &*progress;

    Diagnostics diagnostics;
    auto outcome = report::run(request, diagnostics);
    progress.reset();  // erases the line
    print_diagnostics(diagnostics);
    for (auto const& note : outcome.notes) std::cerr << "roofline: note: " << note << "\n";
    using Status = report::RunOutcome::Status;
    switch (outcome.status) {
        case Status::unreadable: return io_error;
        case Status::invalid_input: return invalid_input;
        case Status::up_to_date:
            std::cout << "up to date: " << outcome.folder << "\n";
            if (!quiet) std::cout << outcome.tables;  // as it was published: summary.txt
            return ok;
        case Status::published: break;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
    // A scenario of requests (or a serve) alone has no cases: say what it did publish.
    std::string published = std::to_string(outcome.cases) + " cases";
    if (auto const n = outcome.requests.size(); n > 0) {
        std::string results = std::to_string(n) + (n == 1 ? " request result" : " request results");
        published = outcome.cases == 0 ? results : published.append(", ").append(results);
    }
    // And a serve alone has neither: its serve points.
    if (auto const n = outcome.serve.size(); n > 0) {
        std::string results = std::to_string(n) + (n == 1 ? " serve point" : " serve points");
        published = outcome.cases == 0 && outcome.requests.empty() ? results
                                                                   : published.append(", ").append(results);
    }
    std::cout << "published " << outcome.folder << ": " << published << " in " << elapsed << "\n";
    for (auto const& warning : outcome.warnings)
        std::cerr << "roofline: warning: " << warning << "\n";
    if (quiet) return ok;  // reports.md, "Progress": one line, then errors and warnings only
    std::cout << outcome.tables;  // report_tables, as summary.txt keeps them
    return ok;
}

}  // namespace roofline::cli
