#pragma once
// A validation report (docs/reports.md, "Validation reports"): the
// predictions of `roofline validate` against the measured rows, published as
// a versioned report OUT/validate-<measured file stem>/vN with a `latest`
// link, exactly as `run` publishes (report::Publisher: written into a hidden
// temporary folder, renamed into place when complete; never a half version).
// `roofline calibrate --report` publishes its cross-validated rows the same
// way, as OUT/crossval-<stem>/vN (Validation::cross_validated).
//
//   rows.csv, groups.csv, skipped.csv, memory.csv, report.xlsx,
//   charts/{ttft,tpot}-<chip>.{png,svg}, summary.txt, inputs/, manifest.json
//
// The manifest is a report::Manifest with kind "validation": `roofline diff`
// of two such reports compares their errors (docs/diff.md).

#include "roofline/calibrate/validation.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline::validation {

// The manifest's "kind" of a validation report.
inline constexpr char const* report_kind = "validation";

struct PublishRequest {
    std::string out_root = "out";
    bool charts = true;
    bool force = false;  // publish even when the latest version holds the same
    std::vector<std::string> command_line;  // recorded in the manifest
};

struct PublishOutcome {
    bool published = false;  // false: the latest version is up to date (same inputs and figures)
    std::string folder;      // the version published, or the one up to date
    int version = 0;
    std::size_t rows = 0, skipped = 0;
    std::string tables;  // summary.txt: what the command prints
    // Published, but something after the version was in place failed.
    std::vector<std::string> warnings;
    std::vector<std::string> notes;  // why a new version though nothing changed
};

// The report's folder name: "validate-" (a cross-validation's: "crossval-")
// and the measured file's stem, made safe as a file name.
std::string report_name(calibrate::Validation const& validation);

// Reads the measured file and the calibration files again to keep them in
// the version's inputs/ (the measured file must still have the SHA-256 the
// validation recorded). Throws std::runtime_error on I/O errors
// (output::ChartError for a missing gnuplot with charts); a failure leaves
// earlier versions untouched and no partial version.
PublishOutcome publish(calibrate::Validation const& validation, PublishRequest const& request);

// The tables the command prints (summary.txt): the measured file, overall
// and per chip x backend figures, the memory disagreements and the skipped
// rows by reason.
std::string summary_tables(calibrate::Validation const& validation);

}  // namespace roofline::validation
