// `roofline diff REPORT_A REPORT_B`: compare two published reports case by
// case (reports.md, "Diff across hardware generations and versions"; docs/diff.md).
#include "commands.hpp"
#include "options.hpp"

#include "roofline/diff/diff_charts.hpp"
#include "roofline/diff/diff_csv.hpp"
#include "roofline/diff/diff_folder.hpp"
#include "roofline/diff/diff_summary.hpp"
#include "roofline/diff/diff_text.hpp"
#include "roofline/diff/diff_xlsx.hpp"
#include "roofline/report/chart_writer.hpp"
#include "roofline/report/sha256.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace roofline::cli {
namespace fs = std::filesystem;
using namespace roofline::diff;

namespace {

constexpr char const* usage_line =
    "roofline diff REPORT_A REPORT_B [--pair A_HW=B_HW]... [-o OUT] [--fail-if-slower PCT] "
    "[--no-charts]";

nlohmann::json side_json(ReportInfo const& r) {
    return {{"report", r.name},
            {"version", r.version},
            {"folder", r.folder},
            {"tool_version", r.tool_version},
            {"manifest_sha256", r.manifest_sha256},
            {"cases_sha256", r.cases_sha256}};
}

// diff.json: what made this diff, and the SHA-256 of every file in it.
void write_diff_manifest(fs::path const& folder, Matcher const& m, DiffSummary const& s,
                         std::vector<std::string> const& args,
                         std::vector<std::string> const& files) {
    nlohmann::json j;
    j["tool"] = "roofline";
    j["diff_format"] = 1;
    j["tool_version"] = ROOFLINE_VERSION;
    j["created_utc"] = utc_now();
    std::vector<std::string> command_line = {"roofline", "diff"};
    command_line.insert(command_line.end(), args.begin(), args.end());
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
    auto& outputs = j["outputs"] = nlohmann::json::array();
    for (auto const& f : files)
        outputs.push_back({{"path", f}, {"sha256", report::sha256_file((folder / f).string())}});
    std::ofstream out(folder / "diff.json", std::ios::binary);
    out << j.dump(2) << "\n";
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + (folder / "diff.json").string() + "'");
}

// An existing diff folder of the same name must come from the same reports.
void check_existing(DiffFolder const& folder, Matcher const& m) {
    std::ifstream in(fs::path(folder.path()) / "diff.json");
    auto j = nlohmann::json::parse(in, nullptr, false);
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

int cmd_diff(std::vector<std::string> const& args) {
    po::options_description options("options");
    // clang-format off
    options.add_options()
        ("output,o", po::value<std::string>()->default_value("out"),
         "reports folder: NAME@vN means OUT/NAME/vN; the diff goes to OUT/diffs/")
        ("pair", po::value<std::vector<std::string>>()->default_value({}, ""),
         "A_HW=B_HW: compare hardware A_HW of REPORT_A with B_HW of REPORT_B (repeatable; "
         "then only the named pairs are compared)")
        ("fail-if-slower", po::value<std::string>(),
         "PCT: exit 1 when a matched case is slower in B by more than PCT percent")
        ("no-charts", "skip the gnuplot charts")
        ("reports", po::value<std::vector<std::string>>()->default_value({}, ""), "the two reports");
    // clang-format on
    po::positional_options_description positional;
    positional.add("reports", -1);
    auto parsed = parse_options("diff", usage_line, args, options, positional);
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;
    auto usage = [](std::string const& what) {
        std::cerr << "roofline diff: error: " << what << "\nusage: " << usage_line << "\n";
        return usage_error;
    };
    auto const& specs = vm["reports"].as<std::vector<std::string>>();
    if (specs.size() != 2)
        return usage("expected two reports, got " + std::to_string(specs.size()));
    std::vector<HardwarePair> requested;
    for (auto const& text : vm["pair"].as<std::vector<std::string>>()) {
        auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size() ||
            text.find('=', eq + 1) != std::string::npos)
            return usage("--pair takes A_HW=B_HW, not '" + text + "'");
        requested.push_back({text.substr(0, eq), text.substr(eq + 1)});
    }
    double threshold = NAN;
    if (vm.count("fail-if-slower")) {
        auto const& text = vm["fail-if-slower"].as<std::string>();
        auto r = std::from_chars(text.data(), text.data() + text.size(), threshold);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !(threshold >= 0) ||
            std::isinf(threshold))
            return usage("--fail-if-slower takes a percentage (0 or more), not '" + text + "'");
    }
    bool const charts = !vm.count("no-charts");
    std::string const out_root = vm["output"].as<std::string>();
    auto started = std::chrono::steady_clock::now();

    try {
        ReportInfo a = read_report(specs[0], out_root);
        ReportInfo b = read_report(specs[1], out_root);
        if (a.tool_version != b.tool_version)
            std::cerr << "roofline: note: " << a.label() << " was made by roofline "
                      << a.tool_version << " and " << b.label() << " by roofline " << b.tool_version
                      << " (the same report format)\n";
        Pairing pairing = make_pairing(a, b, requested);
        if (!pairing.left_out_a.empty() || !pairing.left_out_b.empty())
            std::cerr << "roofline: note: not compared (no --pair names them): "
                      << join(pairing.left_out_a) << (pairing.left_out_a.empty() ? "" : " of A")
                      << (!pairing.left_out_a.empty() && !pairing.left_out_b.empty() ? "; " : "")
                      << join(pairing.left_out_b) << (pairing.left_out_b.empty() ? "" : " of B")
                      << "\n";
        Matcher matcher(a, b, pairing);
        if (matcher.sweep_names().size() != a.sweeps.size() ||
            matcher.sweep_names().size() != b.sweeps.size())
            std::cerr << "roofline: note: the reports sweep different variables, so no case "
                         "matches (a case matches only at the same value of every sweep "
                         "variable)\n";

        DiffFolder folder(out_root, diff_name(a, b, pairing));
        bool const write = !folder.exists();
        if (!write) check_existing(folder, matcher);
        if (write && charts && !report::gnuplot_available()) {
            std::cerr << "roofline: error: gnuplot is not installed (Debian: apt-get install "
                         "gnuplot-nox); run with --no-charts to skip the charts\n";
            return io_error;
        }
        fs::path temp;
        std::optional<DiffCsvWriter> csv;
        std::optional<DiffXlsxWriter> xlsx;
        std::optional<DiffChartData> chart_data;
        if (write) {
            temp = folder.begin();
            csv.emplace((temp / "diff.csv").string(), matcher);
            xlsx.emplace((temp / "diff.xlsx").string(), matcher);
            if (charts) chart_data.emplace(matcher);
        }
        DiffSummaryBuilder builder(matcher, threshold);
        matcher.run([&](DiffCase const& c) {
            builder.add(c);
            if (csv) csv->add(c);
            if (xlsx) xlsx->add(c);
            if (chart_data) chart_data->add(c);
        });
        DiffSummary summary = builder.finish();

        bool published = false;
        if (write) {
            csv->close();
            std::vector<std::string> files = {"diff.csv", "diff.xlsx"};
            std::future<std::vector<std::string>> chart_files;
            if (chart_data)  // on another core while the workbook is compressed
                chart_files = std::async(std::launch::async, [&] {
                    return render_diff_charts((temp / "charts").string(), *chart_data);
                });
            std::exception_ptr xlsx_error;
            try {
                xlsx->finish(summary);
            } catch (...) {
                xlsx_error = std::current_exception();
            }
            if (chart_files.valid())
                for (auto const& f : chart_files.get()) files.push_back("charts/" + f);
            if (xlsx_error) std::rethrow_exception(xlsx_error);
            write_diff_manifest(temp, matcher, summary, args, files);
            published = folder.commit();
        }

        bool color = ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") &&
                     std::string(std::getenv("TERM") ? std::getenv("TERM") : "dumb") != "dumb";
        std::cout << summary_text(matcher, summary, color) << "\n";
        if (published) {
            double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            char elapsed[32];
            std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
            std::cout << "published " << folder.path() << ": "
                      << summary.matched + summary.only_a + summary.only_b << " cases in "
                      << elapsed << "\n";
        } else {
            std::cout << "up to date: " << folder.path() << "\n";
        }
        if (summary.over_threshold > 0) {
            char worst[32];
            std::snprintf(worst, sizeof worst, "%.3g%%", summary.worst_slowdown * 100);
            std::cerr << "roofline: error: " << summary.over_threshold << " matched case"
                      << (summary.over_threshold == 1 ? " is" : "s are") << " slower by more than "
                      << vm["fail-if-slower"].as<std::string>()
                      << "% (--fail-if-slower); the slowest, " << worst
                      << " slower: " << summary.worst_case << "\n";
            return invalid_input;
        }
        return ok;
    } catch (ReportError const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return invalid_input;
    } catch (output::ChartError const& e) {
        std::cerr << "roofline: error: " << e.what() << "\n";
        return io_error;
    }
}

}  // namespace roofline::cli
