#pragma once
// The reports `roofline diff` compares (reports.md, "Diff across hardware
// generations and versions"): where a report named on the command line lives,
// and what its manifest.json says. Only reports of this tool's report format
// are read; a report made by another tool version of the same format is fine.

#include "roofline/report/manifest.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::diff {

// A report cannot be diffed: missing, incomplete, corrupted or of another
// format. The message names the report and says what is wrong (exit code 1).
class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A published report as `diff` reads it: where it is, what its manifest says
// (report::Manifest), and the hashes that tie its files to the manifest.
struct ComparedReport {
    std::string folder;  // the version folder, e.g. out/llama3-70b/v3
    std::string name;    // "report" in the manifest
    int version = 0;
    std::string tool_version;
    std::vector<report::Manifest::Target> targets;
    std::vector<report::Manifest::Sweep> sweeps;
    std::size_t cases = 0;
    std::string manifest_sha256;
    std::string cases_sha256;  // from "outputs"; empty when not listed
    // Every file the manifest lists: serve.csv and fleet.csv are read only
    // where listed (an older version, or a report without `serve`, has none).
    std::vector<report::Manifest::Output> outputs;

    std::string label() const { return name + " v" + std::to_string(version); }
    std::string cases_path() const { return folder + "/cases.csv"; }
};

// The version folder that `spec` names: a version folder (out/x/v3), a report
// folder (out/x: its `latest`), NAME@vN or NAME@latest (out_root/NAME/vN), or
// a bare NAME when out_root/NAME is a report folder. Throws ReportError.
std::string resolve_report(std::string const& spec, std::string const& out_root);

// Resolves `spec` and reads its manifest.json; checks that cases.csv exists.
// Throws ReportError.
ComparedReport read_report(std::string const& spec, std::string const& out_root);

}  // namespace roofline::diff
