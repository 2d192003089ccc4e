// `roofline diff REPORT_A REPORT_B`: compare two published reports case by
// case (reports.md, "Diff across hardware generations and versions"; docs/diff.md).
#include "commands.hpp"
#include "options.hpp"

#include "roofline/diff/run.hpp"
#include "roofline/output/errors.hpp"
#include "roofline/output/terminal_text.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace roofline::cli {
using namespace roofline::diff;

int cmd_diff(std::vector<std::string> const& args) {
    po::options_description options("options");
    // clang-format off
    options.add_options()
        ("output,o", po::value<std::string>()->default_value("out"),
         "reports folder: NAME@vN means OUT/NAME/vN; the diff goes to OUT/diffs/")
        ("pair", repeated(),
         "A_HW=B_HW: compare hardware A_HW of REPORT_A with B_HW of REPORT_B (repeatable; "
         "then only the named pairs are compared)")
        ("fail-if-slower", po::value<std::string>(),
         "PCT: exit 1 when a matched case is slower in B by more than PCT percent")
        ("no-charts", "skip the gnuplot charts");
    // clang-format on
    auto parsed = parse_options("diff", args, options, {"reports", -1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    auto usage = [](std::string const& what) { return usage_error_of("diff", what); };
    auto const& specs = vm["reports"].as<std::vector<std::string>>();
    if (specs.size() != 2)
        return usage("expected two reports, got " + std::to_string(specs.size()));
    std::vector<HardwarePair> requested;
    for (auto const& text : vm["pair"].as<std::vector<std::string>>()) {
        auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size() ||
            text.find('=', eq + 1) != std::string::npos)
            return usage("--pair takes A_HW=B_HW, not '" + text + "'");
        requested.push_back({text.substr(0, eq), text.substr(eq + 1)});
    }
    double threshold = NAN;
    if (vm.count("fail-if-slower")) {
        auto const& text = vm["fail-if-slower"].as<std::string>();
        auto r = std::from_chars(text.data(), text.data() + text.size(), threshold);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !(threshold >= 0) ||
            std::isinf(threshold))
            return usage("--fail-if-slower takes a percentage (0 or more), not '" + text + "'");
    }
    DiffRequest request;
    request.a = specs[0];
    request.b = specs[1];
    auto out_root = output_folder("diff", vm);
    if (!out_root) return usage_error;
    request.out_root = *out_root;
    request.pairs = std::move(requested);
    request.fail_if_slower = threshold;
    request.charts = !vm.count("no-charts");
    request.color = ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") &&
                    std::string(std::getenv("TERM") ? std::getenv("TERM") : "dumb") != "dumb";
    request.command_line = {"roofline", "diff"};
    request.command_line.insert(request.command_line.end(), args.begin(), args.end());
    auto started = std::chrono::steady_clock::now();
    try {
        auto outcome = diff::run(request);
        for (auto const& note : outcome.notes)
            std::cerr << "roofline: note: " << output::terminal_safe(note) << "\n";
        auto const& summary = outcome.summary;
        std::cout << outcome.summary_text << "\n";
        if (outcome.published) {
            double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            char elapsed[32];
            std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
            std::cout << "published " << outcome.folder << ": "
                      << summary.matched + summary.only_a + summary.only_b
                      << (outcome.validation ? " rows in " : " cases in ")
                      << elapsed << "\n";
            for (auto const& warning : outcome.warnings)
                std::cerr << "roofline: warning: " << warning << "\n";
        } else {
            std::cout << "up to date: " << outcome.folder << "\n";
        }
        if (summary.over_threshold > 0) {
            char worst[32];
            std::snprintf(worst, sizeof worst, "%.3g%%", summary.worst_slowdown * 100);
            std::cerr << "roofline: error: " << summary.over_threshold << " matched case"
                      << (summary.over_threshold == 1 ? " is" : "s are") << " slower by more than "
                      << vm["fail-if-slower"].as<std::string>()
                      << "% (--fail-if-slower); the slowest, " << worst
                      << " slower: " << output::terminal_safe(summary.worst_case) << "\n";
            return invalid_input;
        }
        return ok;
    } catch (ReportError const& e) {  // it may quote a name from a manifest
        std::cerr << "roofline: error: " << output::terminal_safe(e.what()) << "\n";
        return invalid_input;
    } catch (output::ChartError const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return io_error;
    }
}

}  // namespace roofline::cli
