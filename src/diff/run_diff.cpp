#include "roofline/diff/run.hpp"

#include "diff_charts.hpp"
#include "diff_csv.hpp"
#include "roofline/diff/diff_folder.hpp"
#include "diff_text.hpp"
#include "diff_xlsx.hpp"
#include "serve_diff.hpp"
#include "validation_diff.hpp"
#include "roofline/output/errors.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/output/gnuplot.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/output/sha256.hpp"

#include "output/timestamp.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <optional>

namespace roofline::diff {
namespace fs = std::filesystem;

namespace {

nlohmann::json side_json(ComparedReport const& r) {
    return {{"report", r.name},
            {"version", r.version},
            {"folder", r.folder},
            {"tool_version", r.tool_version},
            {"manifest_sha256", r.manifest_sha256},
            {"cases_sha256", r.cases_sha256}};
}

// diff.json: what made this diff, and the SHA-256 of every file in it.
void write_diff_manifest(fs::path const& folder, Matcher const& m, DiffSummary const& s,
                         ServeDiff const& serve, std::vector<std::string> const& command_line,
                         std::vector<std::string> const& files) {
    nlohmann::json j;
    j["tool"] = "roofline";
    j["diff_format"] = 1;
    j["tool_version"] = ROOFLINE_VERSION;
    j["created_utc"] = output::utc_now();
    j["command_line"] = command_line;
    j["a"] = side_json(m.a());
    j["b"] = side_json(m.b());
    auto& pairs = j["pairs"] = nlohmann::json::array();
    for (auto const& p : m.pairing().pairs) pairs.push_back({{"a", p.a}, {"b", p.b}});
    j["matched"] = s.matched;
    j["only_a"] = s.only_a;
    j["only_b"] = s.only_b;
    j["flips"] = s.flips;
    j["speedup_geomean"] = std::isnan(s.speedup()) ? nlohmann::json() : nlohmann::json(s.speedup());
    for (auto [key, part] : {std::pair{"serve", &serve.serve}, std::pair{"fleet", &serve.fleet}})
        if (*part)
            j[key] = {{"matched", (*part)->matched}, {"only_a", (*part)->only_a},
                      {"only_b", (*part)->only_b}};
    auto& outputs = j["outputs"] = nlohmann::json::array();
    for (auto const& f : files)
        outputs.push_back({{"path", f}, {"sha256", output::sha256_file((folder / f).string())}});
    std::ofstream out(folder / "diff.json", std::ios::binary);
    out << j.dump(2) << "\n";
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + (folder / "diff.json").string() + "'");
}

// An existing diff folder of the same name must come from the same reports.
void check_existing(DiffFolder const& folder, Matcher const& m) {
    std::string error;
    auto text = read_regular_file((fs::path(folder.path()) / "diff.json").string(),
                                  report::max_manifest_bytes, error);
    if (!text) return;
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    for (auto [key, report] : {std::pair{"a", &m.a()}, std::pair{"b", &m.b()}}) {
        auto recorded = j.value(
            nlohmann::json::json_pointer(std::string("/") + key + "/cases_sha256"), std::string());
        if (!recorded.empty() && !report->cases_sha256.empty() && recorded != report->cases_sha256)
            throw ReportError(
                folder.path() + " was made from another " + report->label() +
                " (its cases.csv differs): the report folder was replaced; remove the diff "
                "folder to compare again");
    }
}

std::string join(std::vector<std::string> const& items) {
    std::string out;
    for (auto const& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

}  // namespace

DiffOutcome run(DiffRequest const& request) {
    // Two validation reports compare their errors instead (validation_diff.hpp).
    if (auto validation = validation_diff(request)) return std::move(*validation);
    DiffOutcome outcome;
    ComparedReport a = read_report(request.a, request.out_root);
    ComparedReport b = read_report(request.b, request.out_root);
    if (a.tool_version != b.tool_version)
        outcome.notes.push_back(a.label() + " was made by roofline " + a.tool_version + " and " +
                                b.label() + " by roofline " + b.tool_version +
                                " (the same report format)");
    Pairing pairing = make_pairing(a, b, request.pairs);
    if (!pairing.left_out_a.empty() || !pairing.left_out_b.empty())
        outcome.notes.push_back(
            "not compared (no --pair names them): " + join(pairing.left_out_a) +
            (pairing.left_out_a.empty() ? "" : " of A") +
            (!pairing.left_out_a.empty() && !pairing.left_out_b.empty() ? "; " : "") +
            join(pairing.left_out_b) + (pairing.left_out_b.empty() ? "" : " of B"));
    Matcher matcher(a, b, pairing);
    if (matcher.sweep_names().size() != a.sweeps.size() ||
        matcher.sweep_names().size() != b.sweeps.size())
        outcome.notes.push_back(
            "the reports sweep different variables, so no case matches (a case matches only at "
            "the same value of every sweep variable)");

    // Read before anything is written: a serve.csv that does not parse publishes nothing.
    ServeDiff const serve = diff_serve(matcher);

    DiffFolder folder(request.out_root, diff_name(a, b, pairing));
    outcome.folder = folder.path();
    bool const write = !folder.exists();
    if (!write) check_existing(folder, matcher);
    if (write && request.charts && !output::gnuplot_available())
        throw output::ChartError(
            "gnuplot is not installed (Debian: apt-get install gnuplot-nox); run with "
            "--no-charts to skip the charts");
    fs::path temp;
    std::optional<DiffCsvWriter> csv;
    std::optional<DiffXlsxWriter> xlsx;
    std::optional<DiffChartData> chart_data;
    if (write) {
        temp = folder.begin();
        csv.emplace((temp / "diff.csv").string(), matcher);
        xlsx.emplace((temp / "diff.xlsx").string(), matcher);
        if (request.charts) chart_data.emplace(matcher);
        xlsx->add_serve(serve);
    }
    DiffSummaryBuilder builder(matcher, request.fail_if_slower);
    matcher.run([&](DiffCase const& c) {
        builder.add(c);
        if (csv) csv->add(c);
        if (xlsx) xlsx->add(c);
        if (chart_data) chart_data->add(c);
    });
    outcome.summary = builder.finish();

    if (write) {
        csv->close();
        std::vector<std::string> files = {"diff.csv", "diff.xlsx"};
        for (auto [name, part] : {std::pair{"serve_diff.csv", &serve.serve},
                                  std::pair{"fleet_diff.csv", &serve.fleet}})
            if (*part) {
                write_serve_diff_csv((temp / name).string(), matcher, **part);
                files.push_back(name);
            }
        std::future<std::vector<std::string>> chart_files;
        if (chart_data)  // on another core while the workbook is compressed
            chart_files = std::async(std::launch::async, [&] {
                return render_diff_charts((temp / "charts").string(), *chart_data);
            });
        std::exception_ptr xlsx_error;
        try {
            xlsx->finish(outcome.summary);
        } catch (...) {
            xlsx_error = std::current_exception();
        }
        if (chart_files.valid())
            for (auto const& f : chart_files.get()) files.push_back("charts/" + f);
        if (xlsx_error) std::rethrow_exception(xlsx_error);
        write_diff_manifest(temp, matcher, outcome.summary, serve, request.command_line, files);
        outcome.published = folder.commit();
        outcome.warnings = folder.warnings();
    }
    outcome.summary_text = summary_text(matcher, outcome.summary, request.color);
    if (auto text = serve_summary_text(matcher, serve); !text.empty())
        outcome.summary_text.append("\n").append(text);
    return outcome;
}

}  // namespace roofline::diff
