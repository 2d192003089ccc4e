#pragma once
// manifest.json: what made a report (nlohmann::json, a well-kept library,
// rather than hand-written JSON escaping).

#include "roofline/report/report.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline::report {

// The layout of a report folder and of cases.csv; readers (roofline diff)
// refuse reports of another format.
inline constexpr int report_format = 1;

struct InputFile {
    std::string name;  // path inside inputs/
    std::string source_path;  // where it was read from
    std::string sha256;
};

struct OutputFile {
    std::string path;  // relative to the version folder
    std::string sha256;
};

struct RunInputs {
    std::vector<InputFile> files;
    std::vector<std::string> sets;     // --set NAME=VALUE, as given
    std::vector<std::string> targets;  // --target, as given
};

// One digest over the tool version, every input file (name and content
// hash), the --set and the --target values: equal digests mean an
// identical run.
std::string inputs_digest(RunInputs const& inputs, std::string const& tool_version);

nlohmann::json make_manifest(ReportInfo const& info, ReportContext const& context,
                             std::vector<std::string> const& command_line,
                             RunInputs const& inputs, std::size_t case_count,
                             std::vector<OutputFile> const& outputs);

}  // namespace roofline::report
