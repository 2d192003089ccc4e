// `roofline run SCENARIO.roof`: evaluate and publish a new report version
// (reports.md, "A versioned report").
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/report/chart_writer.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/report/sha256.hpp"
#include "roofline/report/write_report.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

void write_file(fs::path const& path, std::string const& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + path.string() + "'");
}

}  // namespace

int cmd_run(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("output,o", po::value<std::string>()->default_value("out"), "reports folder")
        ("set", po::value<std::vector<std::string>>()->default_value({}, ""),
         "NAME=VALUE: override a top-level let or sweep (B=64, B=1..64, B=[1,8])")
        ("target", po::value<std::vector<std::string>>()->default_value({}, ""),
         "hardware to evaluate on, replacing the scenario's targets (repeatable)")
        ("force", "publish a new version even when nothing changed")
        ("no-charts", "skip the gnuplot charts")
        ("include,I", po::value<std::vector<std::string>>()->default_value({}, ""),
         "also search DIR for included files")
        ("scenario", po::value<std::string>()->required(), "the scenario file");
    po::positional_options_description positional;
    positional.add("scenario", 1);
    auto parsed = parse_options(
        "run", "roofline run SCENARIO.roof [-o OUT] [--set NAME=VALUE]... [--target HW]... [--force]",
        args, options, positional);
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    auto started = std::chrono::steady_clock::now();

    auto const& path = vm["scenario"].as<std::string>();
    auto const& sets = vm["set"].as<std::vector<std::string>>();
    for (auto const& set : sets) {
        if (!set_statement(set, false)) {
            std::cerr << "roofline run: error: --set takes NAME=VALUE on one line, not '" << set << "'\n";
            return usage_error;
        }
    }
    bool charts = !vm.count("no-charts");
    if (charts && !report::gnuplot_available()) {
        std::cerr << "roofline: error: gnuplot is not installed (Debian: apt-get install gnuplot-nox); "
                     "run with --no-charts to skip the charts\n";
        return io_error;
    }

    model::CheckOptions check_options;
    check_options.targets = vm["target"].as<std::vector<std::string>>();
    Diagnostics diagnostics;
    auto checked = load_and_check(path, std::nullopt, vm["include"].as<std::vector<std::string>>(),
                                  check_options, diagnostics, sets);
    std::optional<engine::CaseGrid> grid;
    if (!diagnostics.has_errors()) grid = engine::prepare(checked.scenario, diagnostics);
    if (diagnostics.has_errors() || !grid) {
        print_diagnostics(diagnostics);
        return checked.program.main_unreadable ? io_error : invalid_input;
    }

    report::RunInputs inputs{{}, sets, check_options.targets};
    for (auto const& file : checked.program.files)
        inputs.files.push_back({file->input_name, file->source->path,
                                report::sha256_hex(file->source->text)});
    report::ReportInfo info;
    info.name = fs::path(path).stem().string();
    info.tool_version = ROOFLINE_VERSION;
    info.inputs_sha256 = report::inputs_digest(inputs, info.tool_version);
    info.created_utc = utc_now();

    report::Publisher publisher(vm["output"].as<std::string>(), info.name);
    if (auto latest = publisher.latest_version(); latest && !vm.count("force")) {
        std::ifstream in(fs::path(publisher.version_dir(*latest)) / "manifest.json");
        auto manifest = nlohmann::json::parse(in, nullptr, false);
        if (!manifest.is_discarded() && manifest.value("inputs_sha256", "") == info.inputs_sha256) {
            print_diagnostics(diagnostics);  // warnings
            std::cout << "up to date: " << publisher.version_dir(*latest) << "\n";
            return ok;
        }
    }
    print_diagnostics(diagnostics);  // warnings (unsupported dtypes)

    info.version = publisher.reserve();
    fs::path folder = publisher.temp_dir();
    report::ReportContext context{checked.scenario, *grid, info};
    std::vector<std::string> written;
    report::Summary summary;
    {
        ProgressBar progress(grid->case_count());
        report::WriteOptions write_options{charts, &progress.counter(), &summary};
        if (!report::write_report(folder.string(), context, write_options, diagnostics, written)) {
            print_diagnostics(diagnostics);
            return invalid_input;  // the publisher's destructor removes the temporary folder
        }
    }
    for (auto const& file : checked.program.files) {
        write_file(folder / "inputs" / file->input_name, file->source->text);
        written.push_back("inputs/" + file->input_name);
    }
    std::vector<report::OutputFile> outputs;
    for (auto const& name : written)
        outputs.push_back({name, report::sha256_file((folder / name).string())});
    std::vector<std::string> command_line = {"roofline", "run"};
    command_line.insert(command_line.end(), args.begin(), args.end());
    auto manifest = report::make_manifest(info, context, command_line, inputs, grid->case_count(),
                                          outputs);
    write_file(folder / "manifest.json", manifest.dump(2) + "\n");

    auto published = publisher.commit();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
    std::cout << "published " << published << ": " << grid->case_count() << " cases in " << elapsed
              << "\n";
    std::cout << step_summary(context, summary);
    return ok;
}

}  // namespace roofline::cli
