#include "roofline/report/run.hpp"

#include "roofline/output/errors.hpp"
#include "roofline/output/gnuplot.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/report/summary_text.hpp"
#include "roofline/output/sha256.hpp"
#include "write_report.hpp"

#include "output/file_names.hpp"
#include "output/timestamp.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

namespace roofline::report {
namespace fs = std::filesystem;

namespace {

void write_file(fs::path const& path, std::string const& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + path.string() + "'");
}

// Whether the version `folder` is up to date: made from inputs with this
// digest, and holding every file its manifest lists, unchanged. `stale` says
// why not when the inputs are the same but a file is not; `manifest`
// receives the version's manifest.
bool up_to_date(fs::path const& folder, std::string const& inputs_sha256, std::string& stale,
                Manifest& manifest) {
    try {
        manifest = read_manifest((folder / "manifest.json").string());
    } catch (ManifestError const&) {
        return false;  // unreadable, or another format: not up to date
    }
    if (manifest.inputs_sha256 != inputs_sha256) return false;
    stale = mismatch(manifest, folder.string());
    return stale.empty();
}

// The tables of the up-to-date version `folder` (its summary.txt, which
// up_to_date has checked against `manifest`), or "" with a note saying why
// there are none.
std::string up_to_date_tables(std::string const& folder, Manifest const& manifest,
                              std::vector<std::string>& notes) {
    try {
        return read_summary_text(folder, manifest);
    } catch (std::runtime_error const& e) {
        notes.push_back(e.what());
        return "";
    }
}

// Where a serve's trace goes among the version's inputs ("" without one):
// traces/ and its file name made safe, apart from the scenario's files.
std::string trace_input_name(model::Scenario const& scenario) {
    if (!scenario.serve || scenario.serve->trace_path.empty()) return "";
    return "traces/" + output::file_name(fs::path(scenario.serve->trace_path).filename().string());
}

}  // namespace

RunOutcome run(RunRequest const& request, Diagnostics& diagnostics) {
    using Status = RunOutcome::Status;
    if (request.charts && !output::gnuplot_available())
        throw output::ChartError(
            "gnuplot is not installed (Debian: apt-get install gnuplot-nox); run with "
            "--no-charts to skip the charts");

    RunOutcome outcome;
    model::CheckOptions check_options;
    check_options.targets = request.targets;
    outcome.loaded = model::load_scenario(request.scenario, std::nullopt, request.include_dirs,
                                          check_options, diagnostics, request.sets);
    if (!diagnostics.has_errors())
        outcome.grid = engine::prepare(outcome.loaded.scenario, diagnostics);
    // Requests first: an error in one (at some point, some step) publishes nothing.
    if (!diagnostics.has_errors() && outcome.grid) {
        auto requests = engine::evaluate_requests(outcome.loaded.scenario, *outcome.grid, diagnostics);
        if (requests) outcome.requests = std::move(*requests);
    }
    // Then the serve points and the fleet (serving.md): an error in a
    // simulation publishes nothing either.
    if (!diagnostics.has_errors() && outcome.grid && outcome.loaded.scenario.serve) {
        // The engine's progress as a phase of its own: begun at its first call
        // (which brings the total), ended once it returns.
        ProgressObserver* const observer = request.progress;
        auto run_phase = [observer](Phase p, auto const& evaluate) {
            bool begun = false;
            engine::ServeProgress progress;
            if (observer)
                progress = [&, observer](std::size_t done, std::size_t total) {
                    if (!begun) observer->begin(p, total), begun = true;
                    observer->advance(p, done);
                };
            auto result = evaluate(progress);
            if (begun) observer->end(p);
            return result;
        };
        auto const& scenario = outcome.loaded.scenario;
        auto const& grid = *outcome.grid;
        auto serve = run_phase(Phase::serving, [&](engine::ServeProgress const& progress) {
            return engine::evaluate_serve(scenario, grid, diagnostics, progress);
        });
        if (serve) outcome.serve = std::move(*serve);
        if (serve && scenario.fleet_rate && !diagnostics.has_errors()) {
            auto fleet = run_phase(Phase::fleet, [&](engine::ServeProgress const& progress) {
                return engine::plan_fleet(scenario, grid, diagnostics, progress);
            });
            if (fleet) outcome.fleet = std::move(*fleet);
        }
    }
    if (diagnostics.has_errors() || !outcome.grid) {
        outcome.status =
            outcome.loaded.program.main_unreadable ? Status::unreadable : Status::invalid_input;
        return outcome;
    }
    auto const& grid = *outcome.grid;
    outcome.cases = grid.case_count();

    RunInputs inputs{{}, request.sets, request.targets, request.charts, request.csv, request.xlsx};
    for (auto const& file : outcome.loaded.program.files)
        inputs.files.push_back(
            {file->input_name, file->source->path, output::sha256_hex(file->source->text)});
    // A serve's trace is an input like the scenario's files: an edited trace
    // makes a new version, and the version keeps the bytes it was made from.
    std::string const trace_input = trace_input_name(outcome.loaded.scenario);
    if (!trace_input.empty())
        inputs.files.push_back({trace_input, outcome.loaded.scenario.serve->trace_path,
                                output::sha256_hex(outcome.loaded.scenario.serve->trace_text)});
    ReportInfo& info = outcome.info;
    info.name = fs::path(request.scenario).stem().string();
    info.tool_version = ROOFLINE_VERSION;
    info.inputs_sha256 = inputs_digest(inputs, info.tool_version);
    info.created_utc = output::utc_now();

    // The folder's name is the report's name made safe (the manifest keeps
    // the name itself): "..roof" must not publish into out/ or above it.
    Publisher publisher(request.out_root, output::file_name(info.name));
    std::string stale;
    Manifest latest_manifest;
    auto latest = publisher.latest_version();
    if (latest && !request.force &&
        up_to_date(publisher.version_dir(*latest), info.inputs_sha256, stale, latest_manifest)) {
        publisher.clean();
        outcome.status = Status::up_to_date;
        outcome.folder = publisher.version_dir(*latest);
        if (request.tables) outcome.tables = up_to_date_tables(outcome.folder, latest_manifest, outcome.notes);
        return outcome;
    }

    info.version = publisher.reserve();
    if (!stale.empty())
        outcome.notes.push_back("latest (v" + std::to_string(*latest) +
                                ") does not match its manifest: " + stale + "; publishing v" +
                                std::to_string(info.version));
    fs::path folder = publisher.temp_dir();
    ReportContext context = outcome.context();
    std::vector<std::string> written;
    WriteOptions write_options{request.charts, request.progress, &outcome.summary, request.csv,
                               request.xlsx};
    if (!write_report(folder.string(), context, write_options, diagnostics, written)) {
        outcome.status = Status::invalid_input;
        return outcome;  // the publisher's destructor removes the temporary folder
    }
    if (request.tables) {
        outcome.tables = request.tables(context, outcome.summary);
        write_file(folder / summary_text_file, outcome.tables);
        written.push_back(summary_text_file);
    }
    if (request.progress) request.progress->begin(Phase::publishing, 0);
    for (auto const& file : outcome.loaded.program.files) {
        write_file(folder / "inputs" / file->input_name, file->source->text);
        written.push_back("inputs/" + file->input_name);
    }
    if (!trace_input.empty()) {
        write_file(folder / "inputs" / trace_input, outcome.loaded.scenario.serve->trace_text);
        written.push_back("inputs/" + trace_input);
    }
    std::vector<Manifest::Output> outputs;
    for (auto const& name : written)
        outputs.push_back({name, output::sha256_file((folder / name).string())});
    auto manifest =
        make_manifest(info, context, request.command_line, inputs, grid.case_count(), outputs);
    // The limits on names and sizes keep an ordinary manifest far below what
    // the tool reads back (reliability.md, Sizes); the counts do not (some
    // hundred targets, each with its charts), so a report that the tool could
    // not read again is refused here, and nothing is published.
    auto manifest_json = manifest_text(manifest);
    if (manifest_json.size() > request.max_manifest_bytes) {
        diagnostics.error(Span{}, "this report's manifest.json would hold " +
                                      std::to_string(manifest_json.size()) +
                                      " bytes, more than the " +
                                      std::to_string(request.max_manifest_bytes) +
                                      " that roofline reads back (up to date, diff); nothing is "
                                      "published: run fewer targets, sweeps or charts at once");
        outcome.status = Status::invalid_input;
        return outcome;  // the publisher's destructor removes the temporary folder
    }
    write_file(folder / "manifest.json", manifest_json);

    outcome.folder = publisher.commit();
    outcome.warnings = publisher.warnings();
    if (request.progress) request.progress->end(Phase::publishing);
    outcome.status = Status::published;
    return outcome;
}

}  // namespace roofline::report
