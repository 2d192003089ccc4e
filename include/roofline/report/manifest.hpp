#pragma once
// manifest.json (reports.md, "manifest.json"): what made a report and the
// SHA-256 of every file in it. The one owner of its layout: `run` writes it
// and checks it for "up to date", `diff` reads it. JSON through
// nlohmann::json, a well-kept library, rather than hand-written escaping.

#include "roofline/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::report {

// The layout of a report folder and of cases.csv; readers (roofline diff)
// refuse reports of another format.
inline constexpr int report_format = 1;

// The largest manifest.json that is read. A real one lists the inputs, the
// targets, the sweeps and the outputs (a few per target and sweep): tens of
// KiB. A larger file is refused rather than parsed.
inline constexpr std::uintmax_t max_manifest_bytes = std::uintmax_t{16} << 20;  // 16 MiB

// A manifest cannot be read: missing, not JSON, another report format, or a
// field missing or of the wrong type. The message names the file.
class ManifestError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Manifest {
    struct Input {
        std::string path;    // inputs/<name> inside the version folder
        std::string source;  // where it was read from
        std::string sha256;
    };
    struct Target {
        std::string id, name;
    };
    struct Sweep {
        std::string name;
        std::size_t points = 0;
        std::vector<std::string> dtypes;  // a dtype sweep: its values; empty for numbers
        bool mesh = false;  // it sets the size of a mesh axis (written only when true)
    };
    struct Output {
        std::string path;  // relative to the version folder
        std::string sha256;
    };

    std::string tool = "roofline";
    int format = report_format;  // "report_format"
    // "kind": what made the report. Empty for `run`'s (written only when not
    // empty, so a run's manifest is as it always was); "validation" for
    // `roofline validate`'s (validation/publish.hpp), whose "cases" are its
    // modelled rows and whose "targets" are its chips.
    std::string kind;
    std::string tool_version;
    std::string report;  // the report's name: out/<report>/v<version>
    int version = 0;
    std::string created_utc;
    std::vector<std::string> command_line;
    std::string title;
    std::string inputs_sha256;
    std::vector<Input> inputs;
    std::vector<std::string> sets;            // "set": --set NAME=VALUE, as given
    std::vector<std::string> target_options;  // --target, as given
    // "charts": false for --no-charts. Absent in manifests made before it was
    // recorded, which is read as true (they were made with charts unless
    // their outputs say otherwise).
    bool charts = true;
    // "formats": which of csv (cases.csv, kernels.csv, requests.csv, serve.csv, fleet.csv), xlsx
    // (report.xlsx) and charts (charts/) the version holds (run --formats).
    // Absent in manifests made before it: csv and xlsx, and charts as above.
    bool csv = true, xlsx = true;
    std::vector<Target> targets;
    std::vector<Sweep> sweeps;
    std::size_t ops = 0;  // "matmuls" (the name of report format 1)
    std::size_t cases = 0;
    std::vector<Output> outputs;

    // The formats as --formats takes them: "csv,xlsx,charts", "xlsx".
    std::string formats_text() const;
    // The SHA-256 an output was listed with; empty when not listed.
    std::string output_sha256(std::string const& path) const;
};

// The JSON text, indented by 2, with a final line end.
std::string manifest_text(Manifest const& manifest);

// Reads and checks `path`. Only this format's manifests are read; a
// manifest of another tool version of the same format is fine. A file that
// is not a regular file of at most max_manifest_bytes, a version outside
// 1 .. 999999999 and more sweeps than a scenario may have (64) are refused.
// Throws ManifestError; `text` receives the file's bytes when given.
Manifest read_manifest(std::string const& path, std::string* text = nullptr);

// Why the version folder `folder` does not hold what `manifest` lists, or ""
// when it does: every listed output is read and its SHA-256 compared (time
// linear in the report's size). Names the first file that differs:
// "cases.csv changed", "report.xlsx is missing", "charts/x.svg is not a
// plain file" (a symbolic link, a folder or a device is never read), or
// "it lists 'P', which is not a file inside the version" (an absolute path,
// "..": never read either).
std::string mismatch(Manifest const& manifest, std::string const& folder);

// What went into a run, for its manifest and its digest.
struct RunInputs {
    std::vector<Manifest::Input> files;  // path: the name inside inputs/
    std::vector<std::string> sets;       // --set NAME=VALUE, as given
    std::vector<std::string> targets;    // --target, as given
    bool charts = true;                  // false: --no-charts, or --formats without charts
    bool csv = true, xlsx = true;        // false: --formats without them
};

// One digest over the tool version, every input file (name and content
// hash), the --set and the --target values and --no-charts: every option
// that changes what is published, so that equal digests mean an identical
// run. (-I changes the report only through the files it finds, which are
// hashed; -o only where it goes.) Each format left out adds a field, so that
// a run with other formats is never up to date with a version that lacks
// them, and a run with all three has the digest it always had.
std::string inputs_digest(RunInputs const& inputs, std::string const& tool_version);

// The manifest of a report written from `context`.
Manifest make_manifest(ReportInfo const& info, ReportContext const& context,
                       std::vector<std::string> const& command_line, RunInputs const& inputs,
                       std::size_t case_count, std::vector<Manifest::Output> const& outputs);

}  // namespace roofline::report
