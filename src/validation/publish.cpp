// Publishing a validation report as `run` publishes its report: into the
// temporary folder of a reserved version, hashed into manifest.json, renamed
// into place (report::Publisher).
#include "roofline/validation/publish.hpp"

#include "charts.hpp"
#include "tables.hpp"
#include "workbook.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/output/errors.hpp"
#include "roofline/output/gnuplot.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/report/summary_text.hpp"
#include "roofline/validation/groups.hpp"

#include "output/file_names.hpp"
#include "output/timestamp.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace roofline::validation {
namespace fs = std::filesystem;

namespace {

// A measured file or a calibration far larger than any real one is not read.
constexpr std::uintmax_t max_input_bytes = std::uintmax_t{256} << 20;

void write_file(fs::path const& path, std::string const& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + path.string() + "'");
}

struct Input {
    report::Manifest::Input entry;  // path: inside inputs/
    std::string text;
};

std::string read_input(std::string const& path, char const* what) {
    std::string error;
    auto text = read_regular_file(path, max_input_bytes, error);
    if (!text) throw std::runtime_error(std::string("cannot read the ") + what + " '" + path + "': " + error);
    return *text;
}

// The measured file and the calibration files, as the version keeps them:
// inputs/<measured name>, inputs/calibration/<name> (a repeated name gets
// its position in front).
std::vector<Input> read_inputs(calibrate::Validation const& v) {
    std::vector<Input> out;
    auto measured = read_input(v.measured_path, "measured file");
    auto sha = output::sha256_hex(measured);
    if (!v.measured_sha256.empty() && sha != v.measured_sha256)
        throw std::runtime_error("'" + v.measured_path +
                                 "' changed while it was validated (its SHA-256 is not the one read "
                                 "first); validate again");
    out.push_back({{output::file_name(fs::path(v.measured_path).filename().string()), v.measured_path, sha},
                   std::move(measured)});
    std::set<std::string> names;
    for (std::size_t i = 0; i < v.calibration_files.size(); ++i) {
        auto const& path = v.calibration_files[i];
        auto text = read_input(path, "calibration file");
        auto name = output::file_name(fs::path(path).filename().string());
        if (!names.insert(name).second) name = std::to_string(i + 1) + "-" + name;
        names.insert(name);
        out.push_back({{"calibration/" + name, path, output::sha256_hex(text)}, std::move(text)});
    }
    return out;
}

// One digest over what makes the version: the tool, the inputs' names and
// hashes, the charts or not, and the figures (every cell of rows.csv and
// skipped.csv): predictions depend on the model configs and the tool as
// well, so equal digests mean the same report.
std::string digest(std::vector<Input> const& inputs, bool charts, std::vector<Table const*> const& tables) {
    output::Sha256 sha;
    auto field = [&](std::string_view text) {
        sha.update(std::to_string(text.size()) + ":");
        sha.update(text);
    };
    field(std::string("roofline ") + ROOFLINE_VERSION);
    field(report_kind);
    for (auto const& i : inputs) {
        field(i.entry.path);
        field(i.entry.sha256);
    }
    if (!charts) field("no-charts");
    for (auto const* t : tables) {
        field(t->file);
        for (auto const& row : t->rows)
            for (auto const& value : row) {
                if (value.is_text) {
                    field(value.text);
                } else {
                    char buf[40];
                    auto r = std::to_chars(buf, buf + sizeof buf, value.number);
                    field(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
                }
            }
    }
    return sha.hex();
}

bool up_to_date(std::string const& folder, std::string const& inputs_sha256, std::string& stale) {
    report::Manifest manifest;
    try {
        manifest = report::read_manifest(folder + "/manifest.json");
    } catch (report::ManifestError const&) {
        return false;
    }
    if (manifest.kind != report_kind || manifest.inputs_sha256 != inputs_sha256) return false;
    stale = report::mismatch(manifest, folder);
    return stale.empty();
}

}  // namespace

std::string report_name(calibrate::Validation const& validation) {
    return (validation.cross_validated ? "crossval-" : "validate-") + fs::path(validation.measured_path).stem().string();
}

PublishOutcome publish(calibrate::Validation const& given, PublishRequest const& request) {
    if (request.charts && !output::gnuplot_available())
        throw output::ChartError(
            "gnuplot is not installed (Debian: apt-get install gnuplot-nox); run with "
            "--no-charts to skip the charts");
    // The inputs first: the measured file's SHA-256, if the validation has
    // none, is the one of the bytes kept.
    auto const inputs = read_inputs(given);
    calibrate::Validation filled;
    if (given.measured_sha256.empty()) {
        filled = given;
        filled.measured_sha256 = inputs.front().entry.sha256;
    }
    calibrate::Validation const& v = given.measured_sha256.empty() ? filled : given;
    PublishOutcome outcome;
    outcome.rows = v.rows.size();
    outcome.skipped = v.skipped.size();
    auto const groups = error_groups(v);
    Table const rows = rows_table(v), group_rows = groups_table(groups), skipped = skipped_table(v),
                memory = memory_table(v);
    std::vector<Table const*> const tables = {&rows, &group_rows, &skipped, &memory};
    auto const inputs_sha256 = digest(inputs, request.charts, {&rows, &skipped});
    outcome.tables = summary_tables(v);

    std::string const name = report_name(v);
    report::Publisher publisher(request.out_root, output::file_name(name));
    auto const latest = publisher.latest_version();
    std::string stale;
    if (latest && !request.force && up_to_date(publisher.version_dir(*latest), inputs_sha256, stale)) {
        publisher.clean();
        outcome.folder = publisher.version_dir(*latest);
        outcome.version = *latest;
        return outcome;
    }
    outcome.version = publisher.reserve();
    if (!stale.empty())
        outcome.notes.push_back("latest (v" + std::to_string(*latest) + ") does not match its manifest: " +
                                stale + "; publishing v" + std::to_string(outcome.version));
    fs::path const folder = publisher.temp_dir();
    std::vector<std::string> written;
    for (auto const* t : tables) {
        write_csv(folder.string(), *t);
        written.push_back(t->file);
    }
    std::vector<Table const*> sheets = tables;
    write_workbook((folder / "report.xlsx").string(),
                   {v, groups, sheets, name + " v" + std::to_string(outcome.version)});
    written.push_back("report.xlsx");
    if (request.charts)
        for (auto const& file : render(validation_charts(v), (folder / "charts").string()))
            written.push_back(file);
    write_file(folder / report::summary_text_file, outcome.tables);
    written.push_back(report::summary_text_file);
    for (auto const& input : inputs) {
        write_file(folder / "inputs" / input.entry.path, input.text);
        written.push_back("inputs/" + input.entry.path);
    }

    report::Manifest m;
    m.kind = report_kind;
    m.tool_version = ROOFLINE_VERSION;
    m.report = name;
    m.version = outcome.version;
    m.created_utc = output::utc_now();
    m.command_line = request.command_line;
    m.title = (v.cross_validated ? "Cross-validation of " : "Validation of ") +
              fs::path(v.measured_path).filename().string();
    m.inputs_sha256 = inputs_sha256;
    for (auto const& input : inputs)
        m.inputs.push_back({"inputs/" + input.entry.path, input.entry.source, input.entry.sha256});
    m.charts = request.charts;
    std::set<std::string> chips;
    for (auto const& r : v.rows) chips.insert(r.key.system);
    for (auto const& chip : chips) m.targets.push_back({chip, chip});
    m.cases = v.rows.size();
    for (auto const& file : written) m.outputs.push_back({file, output::sha256_file((folder / file).string())});
    auto const text = report::manifest_text(m);
    if (text.size() > report::max_manifest_bytes)
        throw std::runtime_error("this report's manifest.json would be larger than roofline reads back");
    write_file(folder / "manifest.json", text);

    outcome.folder = publisher.commit();
    outcome.warnings = publisher.warnings();
    outcome.published = true;
    return outcome;
}

}  // namespace roofline::validation
