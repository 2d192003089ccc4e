#pragma once
// `roofline diff` as a library call (docs/diff.md): read two published
// reports, match their cases, write diff.csv, diff.xlsx, the charts and
// diff.json into a temporary folder and publish it as out/diffs/<name>/ (or
// find it published already). The command line only parses options and
// prints.

#include "roofline/diff/diff_summary.hpp"
#include "roofline/diff/match.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::diff {

struct DiffRequest {
    std::string a, b;  // the reports, as resolve_report takes them
    std::string out_root = "out";
    std::vector<HardwarePair> pairs;  // --pair; empty: the default pairing
    double fail_if_slower = NAN;      // percent; NaN: no threshold
    bool charts = true;
    bool color = false;  // the summary text with terminal colours
    std::vector<std::string> command_line;  // recorded in diff.json
};

struct DiffOutcome {
    bool published = false;  // false: the folder existed, up to date
    // Two validation reports (docs/diff.md, "Validation reports"): the
    // summary's matched / only_a / only_b count rows, not cases.
    bool validation = false;
    std::string folder;      // out/diffs/<name>
    std::vector<std::string> notes;  // for the user: what was not compared, and why
    std::vector<std::string> warnings;  // published, but not synced to disk
    DiffSummary summary;
    std::string summary_text;  // the terminal summary
};

// Throws ReportError for reports that cannot be compared (exit code 1),
// output::ChartError (a missing gnuplot among them) and other
// std::runtime_errors for I/O failures; a failure leaves no partial diff.
DiffOutcome run(DiffRequest const& request);

}  // namespace roofline::diff
