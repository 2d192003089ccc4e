// `roofline show REPORT`: print a published version's tables, as `run`
// printed them (reports.md, "summary.txt").
#include "commands.hpp"
#include "options.hpp"

#include "roofline/diff/report_reader.hpp"
#include "roofline/output/terminal_text.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/summary_text.hpp"

#include <iostream>

namespace roofline::cli {

int cmd_show(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("output,o", po::value<std::string>()->default_value("out"),
         "reports folder: NAME@vN means OUT/NAME/vN");
    auto parsed = parse_options("show", args, options, {"report", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto out_root = output_folder("show", parsed->vm);
    if (!out_root) return usage_error;
    // A report as diff names one, with diff's messages and exit code (1)
    // for a folder that is not a report.
    try {
        auto folder = diff::resolve_report(parsed->vm["report"].as<std::string>(), *out_root);
        report::Manifest manifest;
        try {
            manifest = report::read_manifest(folder + "/manifest.json");
        } catch (report::ManifestError const& e) {
            throw diff::ReportError(e.what());
        }
        std::cout << "report " << output::terminal_safe(manifest.report) << " v" << manifest.version
                  << " (" << output::terminal_safe(folder) << "), published " << manifest.created_utc << "\n";
        std::cout << report::read_summary_text(folder, manifest);
        return ok;
    } catch (std::runtime_error const& e) {  // ReportError, SummaryTextError: may quote a manifest
        std::cerr << "roofline: error: " << output::terminal_safe(e.what()) << "\n";
        return invalid_input;
    }
}

}  // namespace roofline::cli
