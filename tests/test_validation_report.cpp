// The validation report (docs/reports.md, "Validation reports") and the diff
// of two (docs/diff.md): a Validation built by hand, its errors computed by
// hand, published into a sandbox. No prediction is made here
// (calibrate::validate_measured is not called).
#include "published.hpp"
#include "sandbox.hpp"

#include "roofline/diff/run.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/validation/groups.hpp"
#include "roofline/validation/publish.hpp"

#include "output/chart_script.hpp"
#include "validation/charts.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using roofline::calibrate::RowPrediction;
using roofline::calibrate::SkippedRow;
using roofline::calibrate::Validation;
using roofline::test::read_file;
using roofline::test::Sandbox;
using Catch::Detail::Approx;

// RFC 4180 as roofline writes it (quoted fields with "" and commas), one
// map per row by column name.
using CsvRow = std::map<std::string, std::string>;

std::vector<std::vector<std::string>> parse_csv(std::string const& text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            fields.push_back(field), field.clear();
        } else if (c == '\r') {
        } else if (c == '\n') {
            fields.push_back(field), field.clear();
            records.push_back(fields), fields.clear();
        } else {
            field += c;
        }
    }
    return records;
}

std::vector<CsvRow> read_csv(fs::path const& path) {
    auto records = parse_csv(read_file(path));
    REQUIRE(!records.empty());
    std::vector<CsvRow> rows;
    for (std::size_t r = 1; r < records.size(); ++r) {
        REQUIRE(records[r].size() == records[0].size());
        auto& row = rows.emplace_back();
        for (std::size_t c = 0; c < records[0].size(); ++c) row[records[0][c]] = records[r][c];
    }
    return rows;
}

double number(CsvRow const& row, std::string const& column) {
    INFO(column);
    REQUIRE(row.count(column));
    return std::stod(row.at(column));
}

CsvRow const& find(std::vector<CsvRow> const& rows, std::string const& column, std::string const& value) {
    for (auto const& r : rows)
        if (r.at(column) == value) return r;
    FAIL("no row with " << column << " = " << value);
    return rows.front();
}

CsvRow const& group(std::vector<CsvRow> const& rows, std::string const& level, std::string const& system,
                    std::string const& backend, std::string const& model = "") {
    for (auto const& r : rows)
        if (r.at("level") == level && r.at("system") == system && r.at("backend") == backend &&
            r.at("model") == model)
            return r;
    FAIL("no group " << level << " " << system << " " << backend << " " << model);
    return rows.front();
}

// Names from the data that must stay data: a quote and a comma (CSV), a
// formula (spreadsheet), quotes and backquotes (gnuplot).
constexpr char const* odd_model = "evil\"model,=cmd";
constexpr char const* odd_id = "=1+2";
constexpr char const* odd_backend = "v'llm `x`";

RowPrediction row(std::string id, std::string system, std::string backend, std::string model,
                  double ttft_measured_ms, double ttft_predicted_ms, double tpot_measured_ms,
                  double tpot_predicted_ms, std::uint32_t line) {
    RowPrediction r;
    r.key.id = std::move(id);
    r.key.system = std::move(system);
    r.key.backend = std::move(backend);
    r.key.model = std::move(model);
    r.key.mode = "agg";
    r.key.precision = "fp8";
    r.key.layout = "tp 8";
    r.key.isl = 1024, r.key.osl = 128, r.key.batch = 16, r.key.line = line;
    r.measured_ttft_s = ttft_measured_ms / 1e3, r.predicted_ttft_s = ttft_predicted_ms / 1e3;
    r.measured_tpot_s = tpot_measured_ms / 1e3, r.predicted_tpot_s = tpot_predicted_ms / 1e3;
    r.roofline_ttft_s = r.predicted_ttft_s / 3, r.roofline_tpot_s = r.predicted_tpot_s / 3;
    r.calibration = "trtllm_h100";
    return r;
}

// Four rows (A). TPOT errors +10 %, -5 %, +25 %, -20 %; TTFT +10 %, -25 %,
// +20 %, 0. Two skipped rows.
Validation validation_a(Sandbox const& box) {
    Validation v;
    auto const text = std::string("id,model_path\nr1,llama\n");
    v.measured_path = box.write("serving.csv", text).string();
    v.measured_sha256 = roofline::output::sha256_hex(text);
    v.measured_rows = 6;
    v.rows = {row("r1", "h100_sxm", "trtllm", "llama", 100, 110, 10, 11, 2),
              row("r2", "h100_sxm", "trtllm", "llama", 200, 150, 20, 19, 3),
              row("r3", "h100_sxm", odd_backend, odd_model, 50, 60, 8, 10, 4),
              row(odd_id, "b200_sxm", "sglang", "qwen", 400, 400, 5, 4, 5)};
    v.rows[2].fits_memory = false;
    v.rows[2].calibration = "";
    v.rows[3].fold = 1;  // the second fold (from 0): rows.csv writes 2, as "(fold 2)" names it
    SkippedRow s1, s2;
    s1.key.id = "s1", s1.key.line = 6, s1.key.model = "qwen3.5", s1.key.system = "h200_sxm", s1.key.backend = "vllm";
    s1.reason = "architecture Qwen3_5MoeForCausalLM: no serve templates";
    s2 = s1;
    s2.key.id = "s2", s2.key.line = 7, s2.key.model = odd_model;
    v.skipped = {s1, s2};
    return v;
}

// B: r1's TPOT exact, r4 gone, r5 new (TPOT +20 %).
Validation validation_b(Sandbox const& box) {
    Validation v = validation_a(box);
    v.rows[0].predicted_tpot_s = 0.010;
    v.rows.pop_back();
    v.rows.push_back(row("r5", "h100_sxm", "trtllm", "llama", 100, 100, 10, 12, 8));
    return v;
}

roofline::validation::PublishRequest request(Sandbox const& box, bool charts) {
    roofline::validation::PublishRequest r;
    r.out_root = (box / "out").string();
    r.charts = charts;
    r.command_line = {"roofline", "validate", "serving.csv"};
    return r;
}

}  // namespace

TEST_CASE("validation report: error groups by hand, medians of an even count", "[validation-report]") {
    Sandbox box;
    auto groups = roofline::validation::error_groups(validation_a(box));
    REQUIRE(groups.size() == 1 + 3 + 3);
    auto const& all = groups[0];
    CHECK(all.level == roofline::validation::Level::overall);
    CHECK(all.rows == 4);
    // TPOT APE 0.05 0.10 0.20 0.25: median (0.10 + 0.20) / 2; signed -0.20 -0.05 0.10 0.25.
    CHECK(all.tpot.median_ape == Approx(0.15));
    CHECK(all.tpot.mean_ape == Approx(0.15));
    CHECK(all.tpot.signed_median == Approx(0.025));
    // TTFT APE 0 0.10 0.20 0.25; signed -0.25 0 0.10 0.20.
    CHECK(all.ttft.median_ape == Approx(0.15));
    CHECK(all.ttft.mean_ape == Approx(0.1375));
    CHECK(all.ttft.signed_median == Approx(0.05));
}

TEST_CASE("validation report: published files, values by hand, names kept as data", "[validation-report]") {
    Sandbox box;
    auto const v = validation_a(box);
    auto outcome = roofline::validation::publish(v, request(box, true));
    REQUIRE(outcome.published);
    CHECK(outcome.version == 1);
    CHECK(outcome.rows == 4);
    CHECK(outcome.skipped == 2);
    fs::path const version = box / "out/validate-serving/v1";
    CHECK(fs::path(outcome.folder) == version);
    CHECK(fs::read_symlink(box / "out/validate-serving/latest") == "v1");
    roofline::test::check_complete(version);

    auto manifest = nlohmann::json::parse(read_file(version / "manifest.json"));
    CHECK(manifest["kind"] == "validation");
    CHECK(manifest["report"] == "validate-serving");
    CHECK(manifest["cases"] == 4);
    REQUIRE(manifest["inputs"].size() == 1);
    CHECK(manifest["inputs"][0]["sha256"] == v.measured_sha256);
    CHECK(read_file(version / "inputs/serving.csv") == read_file(v.measured_path));

    SECTION("rows.csv") {
        auto rows = read_csv(version / "rows.csv");
        REQUIRE(rows.size() == 4);
        auto const& r1 = find(rows, "id", "r1");
        CHECK(number(r1, "measured_tpot_ms") == Approx(10));
        CHECK(number(r1, "predicted_tpot_ms") == Approx(11));
        CHECK(number(r1, "tpot_error") == Approx(0.10));  // (11 - 10) / 10
        CHECK(number(r1, "ttft_error") == Approx(0.10));
        CHECK(number(r1, "roofline_tpot_ms") == Approx(11.0 / 3));
        CHECK(r1.at("fits_memory") == "yes");
        CHECK(r1.at("fold").empty());
        CHECK(r1.at("line") == "2");
        auto const& r2 = find(rows, "id", "r2");
        CHECK(number(r2, "ttft_error") == Approx(-0.25));
        CHECK(number(r2, "tpot_error") == Approx(-0.05));
        // The odd names: read back as they were, and quoted in the file.
        auto const& r3 = find(rows, "id", "r3");
        CHECK(r3.at("model") == odd_model);
        CHECK(r3.at("backend") == odd_backend);
        CHECK(r3.at("fits_memory") == "no");
        CHECK(r3.at("calibration").empty());
        auto const& r4 = find(rows, "id", odd_id);
        CHECK(r4.at("fold") == "2");
        auto const text = read_file(version / "rows.csv");
        CHECK(text.find("\"evil\"\"model,=cmd\"") != std::string::npos);
        CHECK(text.find("\"=1+2\"") != std::string::npos);  // a formula-like id is quoted
    }
    SECTION("groups.csv") {
        auto groups = read_csv(version / "groups.csv");
        REQUIRE(groups.size() == 7);
        auto const& all = group(groups, "overall", "", "");
        CHECK(number(all, "rows") == 4);
        CHECK(number(all, "tpot_median_ape") == Approx(0.15));
        CHECK(number(all, "tpot_signed_median") == Approx(0.025));
        CHECK(number(all, "ttft_mean_ape") == Approx(0.1375));
        // Two rows: the median is the mean of the two (0.10, 0.05; 0.10, 0.25).
        auto const& trt = group(groups, "chip_backend", "h100_sxm", "trtllm");
        CHECK(number(trt, "rows") == 2);
        CHECK(number(trt, "tpot_median_ape") == Approx(0.075));
        CHECK(number(trt, "tpot_signed_median") == Approx(0.025));
        CHECK(number(trt, "ttft_median_ape") == Approx(0.175));
        CHECK(number(trt, "ttft_signed_median") == Approx(-0.075));
        auto const& odd = group(groups, "chip_backend_model", "h100_sxm", odd_backend, odd_model);
        CHECK(number(odd, "tpot_median_ape") == Approx(0.25));
        CHECK(number(group(groups, "chip_backend", "b200_sxm", "sglang"), "tpot_signed_median") ==
              Approx(-0.20));
    }
    SECTION("skipped.csv, memory.csv and the summary") {
        auto skipped = read_csv(version / "skipped.csv");
        REQUIRE(skipped.size() == 2);
        CHECK(skipped[0].at("id") == "s1");
        CHECK(skipped[0].at("line") == "6");
        CHECK(skipped[0].at("reason") == "architecture Qwen3_5MoeForCausalLM: no serve templates");
        CHECK(skipped[1].at("model") == odd_model);
        auto memory = read_csv(version / "memory.csv");
        REQUIRE(memory.size() == 1);
        CHECK(memory[0].at("id") == "r3");
        auto const summary = read_file(version / "summary.txt");
        CHECK(summary == outcome.tables);
        CHECK(summary.find("15.0%") != std::string::npos);   // overall TPOT median APE
        CHECK(summary.find("+2.5%") != std::string::npos);   // its signed median
        CHECK(summary.find("skipped: 2 rows") != std::string::npos);
        CHECK(summary.find("2  architecture Qwen3_5MoeForCausalLM") != std::string::npos);
        CHECK(summary.find("1 row predicted not to fit") != std::string::npos);
    }
    SECTION("charts and workbook") {
        for (auto const* chart : {"charts/tpot-h100_sxm.png", "charts/ttft-h100_sxm.png",
                                  "charts/tpot-b200_sxm.png", "charts/ttft-b200_sxm.png"}) {
            INFO(chart);
            auto const png = read_file(version / chart);
            REQUIRE(png.size() > 1000);
            CHECK(png.substr(1, 3) == "PNG");
        }
        CHECK(read_file(version / "report.xlsx").substr(0, 2) == "PK");
        // The backend's name reaches gnuplot only as a single-quoted literal.
        auto charts = roofline::validation::validation_charts(v);
        std::string script;
        for (auto const& c : charts) script += roofline::output::chart_script(c);
        CHECK(script.find("'v''llm `x`'") != std::string::npos);
    }
}

TEST_CASE("validation report: versions, up to date, and the diff of two", "[validation-report]") {
    Sandbox box;
    auto a = roofline::validation::publish(validation_a(box), request(box, false));
    REQUIRE(a.published);
    // The same data: up to date, nothing written.
    auto again = roofline::validation::publish(validation_a(box), request(box, false));
    CHECK_FALSE(again.published);
    CHECK(again.folder == a.folder);
    auto b = roofline::validation::publish(validation_b(box), request(box, false));
    REQUIRE(b.published);
    CHECK(b.version == 2);
    CHECK(fs::read_symlink(box / "out/validate-serving/latest") == "v2");
    CHECK_FALSE(fs::exists(box / "out/validate-serving/v2/charts"));

    roofline::diff::DiffRequest d;
    d.a = "validate-serving@v1";
    d.b = "validate-serving@v2";
    d.out_root = (box / "out").string();
    d.charts = false;
    auto outcome = roofline::diff::run(d);
    REQUIRE(outcome.published);
    CHECK(outcome.validation);
    CHECK(outcome.summary.matched == 3);
    CHECK(outcome.summary.only_a == 1);
    CHECK(outcome.summary.only_b == 1);
    fs::path const folder = outcome.folder;
    CHECK(folder == box / "out/diffs/validate-serving-v1--validate-serving-v2");

    auto rows = read_csv(folder / "validation_diff.csv");
    REQUIRE(rows.size() == 5);
    auto const& r1 = find(rows, "id", "r1");
    CHECK(r1.at("status") == "matched");
    CHECK(number(r1, "tpot_measured_ms") == Approx(10));
    CHECK(number(r1, "tpot_predicted_a_ms") == Approx(11));
    CHECK(number(r1, "tpot_predicted_b_ms") == Approx(10));
    CHECK(number(r1, "tpot_ape_a") == Approx(0.10));
    CHECK(number(r1, "tpot_ape_b") == Approx(0).margin(1e-12));
    CHECK(number(r1, "tpot_ape_change") == Approx(-0.10));
    CHECK(number(r1, "ttft_ape_change") == Approx(0).margin(1e-12));
    CHECK(find(rows, "id", odd_id).at("status") == "only_a");
    CHECK(find(rows, "id", "r5").at("status") == "only_b");
    CHECK(find(rows, "id", "r3").at("model") == odd_model);

    auto groups = read_csv(folder / "groups_diff.csv");
    // Overall TPOT APE: A 0.05 0.10 0.20 0.25 -> 0.15; B 0 0.05 0.20 0.25 -> 0.125.
    auto const& all = group(groups, "overall", "", "");
    CHECK(number(all, "tpot_median_ape_a") == Approx(0.15));
    CHECK(number(all, "tpot_median_ape_b") == Approx(0.125));
    CHECK(number(all, "tpot_change") == Approx(-0.025));
    // h100_sxm trtllm: A 0.10 0.05 -> 0.075; B 0 0.05 0.20 -> 0.05.
    auto const& trt = group(groups, "chip_backend", "h100_sxm", "trtllm");
    CHECK(number(trt, "rows_a") == 2);
    CHECK(number(trt, "rows_b") == 3);
    CHECK(number(trt, "tpot_change") == Approx(-0.025));
    CHECK(group(groups, "chip_backend", "b200_sxm", "sglang").at("status") == "only_a");
    CHECK(outcome.summary_text.find("-2.5 pp") != std::string::npos);
    CHECK(fs::is_regular_file(folder / "diff.json"));

    // A validation report against a run report: refused.
    fs::create_directories(box / "out/run-x/v1");
    auto manifest = nlohmann::json::parse(read_file(box / "out/validate-serving/v1/manifest.json"));
    manifest.erase("kind");
    roofline::test::write_file(box / "out/run-x/v1/manifest.json", manifest.dump());
    d.b = (box / "out/run-x/v1").string();
    CHECK_THROWS_AS(roofline::diff::run(d), roofline::diff::ReportError);
}
