#pragma once
// `roofline run` as a library call (reports.md, "A versioned report"): load,
// check and evaluate a scenario, write the report into a temporary folder,
// hash it, and publish it as out/<name>/v<N> (or find that the latest
// version is up to date). The command line only parses options and prints.

#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/load.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/progress.hpp"
#include "roofline/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline::report {

struct RunRequest {
    std::string scenario;        // the .roof file
    std::string out_root = "out";
    std::vector<std::string> sets;          // --set NAME=VALUE, each NAME=VALUE on one line
    std::vector<std::string> targets;       // --target: replaces the scenario's targets
    std::vector<std::string> include_dirs;  // -I
    bool force = false;   // publish even when the latest version has the same inputs
    bool charts = true;
    bool csv = true, xlsx = true;  // --formats: cases.csv (and the other CSVs), report.xlsx
    // The terminal tables of the report (the command line's step, Plan and
    // request tables), kept in the version as summary.txt (`roofline show`);
    // none when empty.
    std::function<std::string(ReportContext const&, Summary const&)> tables;
    std::vector<std::string> command_line;  // recorded in the manifest
    // Told of each phase of writing a new version (progress.hpp), if not
    // null; nothing when the inputs are invalid or the report is up to date.
    ProgressObserver* progress = nullptr;
    // The largest manifest.json a run publishes: what the tool reads back (a
    // later run's up-to-date check, diff). Only tests lower it.
    std::uintmax_t max_manifest_bytes = report::max_manifest_bytes;
};

struct RunOutcome {
    enum class Status {
        published,      // a new version
        up_to_date,     // the latest version has the same inputs and its files: nothing written
        invalid_input,  // errors in the diagnostics; nothing written
        unreadable,     // the scenario file cannot be read; nothing written
    };
    Status status = Status::invalid_input;
    std::string folder;  // the version published, or the one up to date
    std::size_t cases = 0;
    // Published, but something after the version was in place failed
    // (replacing `latest`, syncing the folder): say so, yet exit 0.
    std::vector<std::string> warnings;
    // Why a new version was published though the inputs did not change
    // (`latest` does not match its manifest), for a note before it.
    std::vector<std::string> notes;

    // What was evaluated, for a summary of the step (published only).
    model::LoadedScenario loaded;
    std::optional<engine::CaseGrid> grid;
    ReportInfo info;
    Summary summary;
    std::vector<engine::RequestResult> requests;  // the scenario's requests, evaluated
    // The serve points (engine::evaluate_serve, target fastest) and the fleet
    // (engine::plan_fleet, with `fleet rate`); empty without a serve.
    std::vector<engine::ServeResult> serve;
    std::vector<engine::FleetRow> fleet;
    // The version's summary.txt: the tables just made (published), or read
    // from the version (up to date; empty when it has none, with a note).
    std::string tables;
    ReportContext context() const { return {loaded.scenario, *grid, info, &requests, &serve, &fleet}; }
};

// Errors and warnings of the scenario go to `diagnostics`. Throws
// std::runtime_error on I/O failures (output::WriteError, output::ChartError
// among them, a missing gnuplot when charts are asked for too); a failure
// leaves earlier versions untouched and no partial version.
RunOutcome run(RunRequest const& request, Diagnostics& diagnostics);

}  // namespace roofline::report
