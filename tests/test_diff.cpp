// `roofline diff` end to end: real reports made by the built binary from
// small scenarios whose numbers make the expectations easy to compute by hand.
//
//   chip_a: 1e12 B/s, bf16 1e14 FLOP/s  (ridge 100 FLOP/byte)
//   chip_b: 2e12 B/s, bf16 4e14 FLOP/s  (ridge 200 FLOP/byte)
//   proj = bf16[B, D] * bf16[D, F] -> bf16[B, F] with D = F = 4096:
//     flops = 2 B D F, bytes = 2 (B D + D F + B F),
//     intensity = B D F / (B D + D F + B F) = 4096 B / (2 B + 4096)
//   B = 64:   intensity 62.1, memory-bound on both: speedup = 2e12 / 1e12 = 2
//   B = 150:  intensity 139.8, between the ridges: compute-bound on chip_a,
//             memory-bound on chip_b (a flip); speedup = (flops / 1e14) / (bytes / 2e12)
//   B = 1024: intensity 682.7, compute-bound on both: speedup = 4e14 / 1e14 = 4
#include "roofline/diff/cases_reader.hpp"
#include "roofline/output/sha256.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using roofline::test::contains;
using roofline::test::python3;
using roofline::test::quoted;
using roofline::test::read_file;
using roofline::test::run_command;
using roofline::test::run_roofline;

// The shared sandbox with the two chips of these tests in chips.roof.
struct Sandbox : roofline::test::Sandbox {
    Sandbox() {
        write("chips.roof",
              "hardware chip_a { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }\n"
              "hardware chip_b { hbm_bandwidth = 2e12 B/s  peak bf16 = 4e14 FLOP/s }\n");
    }
    // A scenario NAME.roof with `proj` (and `layer l { tail }`) on `targets`.
    void scenario(std::string const& name, std::string const& targets) const {
        write(name + ".roof",
              "include \"chips.roof\"\ntarget " + targets +
                  "\nsweep B = [64, 150, 1024]\nlet D = 4096\nlet F = 4096\n"
                  "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n"
                  "layer l { matmul tail = bf16[B, D] * bf16[D, F] -> bf16[B, F] }\n");
    }
    // Runs a scenario (no charts: faster); requires success.
    void run(std::string const& args) const {
        auto r = run_roofline(path, "run " + args + " --no-charts");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
    }
    // No diff folder and no temporary folder were left (only the lock file
    // of out/diffs, which stays, as a report folder's .lock does).
    void check_nothing_published() const {
        if (!fs::exists(path / "out/diffs")) return;
        for (auto const& entry : fs::directory_iterator(path / "out/diffs"))
            if (entry.path().filename() != ".lock") FAIL_CHECK(entry.path());
    }
};

// diff.csv as rows of fields (no quoted fields in these tests), keyed by column name.
using Row = std::map<std::string, std::string>;
std::vector<Row> read_csv(fs::path const& path) {
    std::istringstream in(read_file(path));
    std::vector<std::string> header;
    std::vector<Row> rows;
    for (std::string line; std::getline(in, line);) {
        REQUIRE(!line.empty());
        REQUIRE(line.back() == '\r');  // CRLF
        line.pop_back();
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
        if (line.back() == ',') fields.push_back("");
        if (header.empty()) {
            header = fields;
            continue;
        }
        REQUIRE(fields.size() == header.size());
        Row row;
        for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

Row const& find_row(std::vector<Row> const& rows, std::string const& status, std::string const& op,
                    std::string const& b) {
    for (auto const& row : rows)
        if (row.at("status") == status && row.at("op") == op && row.at("B") == b) return row;
    FAIL("no " << status << " row for " << op << " at B = " << b);
    throw;
}

double num(Row const& row, std::string const& column) { return std::stod(row.at(column)); }

// The hand calculation of the header comment.
constexpr double D = 4096, F = 4096;
double flops(double b) { return 2 * b * D * F; }
double bytes(double b) { return 2 * (b * D + D * F + b * F); }
double flip_speedup() { return (flops(150) / 1e14) / (bytes(150) / 2e12); }

}  // namespace

TEST_CASE("diff: memory-bound speedup = bandwidth ratio, compute-bound = peak ratio, a flip between the "
    "ridges",
    "[diff]") {
    Sandbox box;
    box.scenario("gen_a", "chip_a");
    box.scenario("gen_b", "chip_b");
    box.run("gen_a.roof");
    box.run("gen_b.roof");
    auto r = run_roofline(box.path, "diff gen_a@v1 gen_b@v1");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());

    // Intensities by hand, and which side of each ridge they are.
    REQUIRE(flops(64) / bytes(64) < 100);
    REQUIRE(flops(150) / bytes(150) > 100);
    REQUIRE(flops(150) / bytes(150) < 200);
    REQUIRE(flops(1024) / bytes(1024) > 200);
    CHECK(flip_speedup() == Approx(2.7952684).epsilon(1e-7));

    fs::path folder = box / "out/diffs/gen_a-v1--gen_b-v1";
    auto rows = read_csv(folder / "diff.csv");
    REQUIRE(rows.size() == 6);  // 2 matmuls x 3 points, all matched
    for (char const* op : {"proj", "tail"}) {
        auto const& memory = find_row(rows, "matched", op, "64");
        CHECK(num(memory, "speedup") == 2);  // exactly: halving is exact in binary
        CHECK(memory.at("bound_a") == "memory");
        CHECK(memory.at("bound_b") == "memory");
        CHECK(memory.at("flip").empty());
        CHECK(num(memory, "t_lower_a") == Approx(bytes(64) / 1e12).epsilon(1e-14));
        CHECK(num(memory, "t_lower_b") == Approx(bytes(64) / 2e12).epsilon(1e-14));
        CHECK(memory.at("hardware_a") == "chip_a");
        CHECK(memory.at("hardware_b") == "chip_b");
        CHECK(num(memory, "ridge_a") == 100);
        CHECK(num(memory, "ridge_b") == 200);

        auto const& flip = find_row(rows, "matched", op, "150");
        CHECK(flip.at("bound_a") == "compute");
        CHECK(flip.at("bound_b") == "memory");
        CHECK(flip.at("flip") == "compute->memory");
        CHECK(num(flip, "speedup") == Approx(flip_speedup()).epsilon(1e-14));
        CHECK(num(flip, "intensity_a") == Approx(flops(150) / bytes(150)).epsilon(1e-14));

        auto const& compute = find_row(rows, "matched", op, "1024");
        CHECK(num(compute, "speedup") == 4);
        CHECK(compute.at("bound_a") == "compute");
        CHECK(compute.at("bound_b") == "compute");
        CHECK(num(compute, "t_lower_a") == Approx(flops(1024) / 1e14).epsilon(1e-14));
    }
    CHECK(rows[0].at("layer").empty());
    CHECK(find_row(rows, "matched", "tail", "64").at("layer") == "l");

    // The terminal summary: one row per matmul and pair, the headline.
    char geomean[32];
    std::snprintf(geomean, sizeof geomean, "%.2f×", std::cbrt(2 * flip_speedup() * 4));
    CHECK(contains(r.out, "A: gen_a v1 (out/gen_a/v1)"));
    CHECK(contains(r.out, "B: gen_b v1 (out/gen_b/v1)"));
    CHECK(contains(r.out, "proj "));
    CHECK(contains(r.out, "l/tail "));
    CHECK(contains(r.out, "chip_a → chip_b"));
    CHECK(contains(r.out, "2.00×–4.00×"));
    CHECK(contains(r.out, "compute→memory ×1"));
    CHECK(contains(r.out, "memory..compute"));
    CHECK(contains(r.out, std::string("speedup ") + geomean +
                              " (geometric mean of 6 matched cases; 6 faster, 0 slower)"));
    CHECK(contains(r.out, "; 2 bound flips; 0 only in A, 0 only in B"));
    CHECK(contains(r.out, "published out/diffs/gen_a-v1--gen_b-v1: 6 cases in "));
    // critical B: the smallest B at which the case is compute-bound, A -> B.
    // 4096 B / (2 B + 4096) >= 100 from B = 409600 / 3896 = 105.1, so 106;
    // >= 200 from B = 819200 / 3696 = 221.6, so 222.
    CHECK(contains(r.out, "106 → 222"));

    // The published folder: every file with its hash in diff.json.
    auto manifest = nlohmann::json::parse(read_file(folder / "diff.json"));
    CHECK(manifest["a"]["report"] == "gen_a");
    CHECK(manifest["b"]["version"] == 1);
    CHECK(manifest["matched"] == 6);
    CHECK(manifest["flips"] == 2);
    std::vector<std::string> paths;
    for (auto const& output : manifest["outputs"]) {
        auto path = output["path"].get<std::string>();
        paths.push_back(path);
        CHECK(roofline::output::sha256_file((folder / path).string()) == output["sha256"]);
    }
    for (char const* expected :
         {"diff.csv", "diff.xlsx", "charts/roofline-chip_a-chip_b.png",
          "charts/roofline-chip_a-chip_b.svg", "charts/speedup-B-chip_a-chip_b.png",
          "charts/speedup-B-chip_a-chip_b.svg"})
        CHECK(std::find(paths.begin(), paths.end(), expected) != paths.end());
    for (auto const& entry : fs::directory_iterator(box / "out/diffs"))
        CHECK(entry.path().filename().string().rfind(".tmp-", 0) != 0);

    // The workbook's Cases sheet: the speedup is a formula of the two times,
    // coloured by conditional formats.
    fs::path const xlsx = folder / "diff.xlsx";
    auto sheet = [&](int n) {
        auto unzip = run_command("unzip -p " + quoted(xlsx) + " xl/worksheets/sheet" +
                                 std::to_string(n) + ".xml");
        INFO(unzip.err);
        REQUIRE(unzip.exit_code == 0);
        return unzip.out;
    };
    auto cases = sheet(2);
    CHECK(contains(cases, "<f>G2/H2</f><v>2</v>"));
    CHECK(contains(cases, "operator=\"lessThan\""));
    CHECK(contains(cases, "operator=\"greaterThan\""));
    CHECK(contains(cases, "<formula>$L2&lt;&gt;\"\"</formula>"));
    auto summary = sheet(1);
    CHECK(contains(summary, "<f>H16/I16</f>"));  // speedup of the first matmul row

    // An independent reader (Debian's python3-openpyxl, as the report's
    // workbook tests use) sees the same cells.
    box.write("read.py",
              "import json, sys, openpyxl\n"
              "wb = openpyxl.load_workbook(sys.argv[1])\n"
              "rows = [list(r) for r in wb['Cases'].iter_rows(values_only=True)]\n"
              "print(json.dumps({'sheets': wb.sheetnames, 'rows': rows}))\n");
    auto reader = run_command(python3() + " " + quoted(box / "read.py") + " " + quoted(xlsx));
    INFO(reader.err);
    REQUIRE(reader.exit_code == 0);
    auto cells = nlohmann::json::parse(reader.out);
    CHECK(cells["sheets"] == nlohmann::json({"Summary", "Cases"}));
    auto const& head = cells["rows"][0];
    CHECK(head ==
          nlohmann::json({"status", "op", "layer", "hardware A", "hardware B", "B", "t_lower A",
                          "t_lower B", "speedup A/B", "bound A", "bound B", "flip", "intensity"}));
    REQUIRE(cells["rows"].size() == 7);
    auto const& first = cells["rows"][1];  // proj at B = 64
    CHECK(first[0] == "matched");
    CHECK(first[1] == "proj");
    CHECK(first[5] == 64);
    CHECK(first[6].get<double>() == Approx(bytes(64) / 1e12).epsilon(1e-14));
    CHECK(first[8] == "=G2/H2");
    CHECK(first[9] == "memory");
    auto const& flipped = cells["rows"][3];  // proj at B = 150
    CHECK(flipped[5] == 150);
    CHECK(flipped[11] == "compute→memory");

    // Versions never change, so neither does their diff.
    auto again = run_roofline(box.path, "diff out/gen_a/v1 out/gen_b");
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "up to date: out/diffs/gen_a-v1--gen_b-v1\n"));
    CHECK(contains(again.out, std::string("speedup ") + geomean));
}

TEST_CASE("diff: a report against itself gives speedup 1 and no flips", "[diff]") {
    Sandbox box;
    box.scenario("both", "chip_a, chip_b");
    box.run("both.roof");
    auto r = run_roofline(box.path, "diff both both@latest --fail-if-slower 0 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(
        r.out,
        "speedup 1.00× (geometric mean of 12 matched cases; 0 faster, 0 slower); 0 bound flips; "
        "0 only in A, 0 only in B"));
    CHECK(contains(r.out, "chip_a → chip_a"));
    CHECK(contains(r.out, "chip_b → chip_b"));
    auto rows = read_csv(box / "out/diffs/both-v1--both-v1/diff.csv");
    REQUIRE(rows.size() == 12);
    for (auto const& row : rows) {
        CHECK(row.at("status") == "matched");
        CHECK(num(row, "speedup") == 1);
        CHECK(row.at("flip").empty());
        CHECK(row.at("bound_a") == row.at("bound_b"));
    }
    CHECK_FALSE(fs::exists(box / "out/diffs/both-v1--both-v1/charts"));
}

TEST_CASE("diff: cases on one side only are listed, not dropped", "[diff]") {
    Sandbox box;
    box.scenario("gen", "chip_a");
    box.run("gen.roof");
    box.run("gen.roof --set 'B=[64, 150, 2048]'");
    auto r = run_roofline(box.path, "diff gen@v1 gen@v2 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "; 2 only in A, 2 only in B"));
    CHECK(contains(r.out, "only in A: proj on chip_a at B = 1024"));
    CHECK(contains(r.out, "only in A: l/tail on chip_a at B = 1024"));
    CHECK(contains(r.out, "only in B: proj on chip_a at B = 2048"));
    CHECK(contains(r.out, "geometric mean of 4 matched cases"));
    auto rows = read_csv(box / "out/diffs/gen-v1--gen-v2/diff.csv");
    REQUIRE(rows.size() == 8);
    auto const& only_a = find_row(rows, "only_a", "proj", "1024");
    CHECK(only_a.at("hardware_a") == "chip_a");
    CHECK(only_a.at("hardware_b").empty());
    CHECK(only_a.at("speedup").empty());
    CHECK(only_a.at("t_lower_b").empty());
    CHECK(num(only_a, "t_lower_a") == Approx(flops(1024) / 1e14).epsilon(1e-14));
    auto const& only_b = find_row(rows, "only_b", "tail", "2048");
    CHECK(only_b.at("bound_a").empty());
    CHECK(only_b.at("bound_b") == "compute");
    CHECK(num(find_row(rows, "matched", "proj", "150"), "speedup") == 1);
    // Unmatched rows come last for A: after all of B's.
    CHECK(rows.back().at("status") == "only_a");
}

TEST_CASE("diff: hardware pairs across one report, and pairing errors", "[diff]") {
    Sandbox box;
    box.scenario("both", "chip_a, chip_b");
    box.scenario("gen_a", "chip_a");
    box.run("both.roof");
    box.run("gen_a.roof");

    auto r = run_roofline(box.path, "diff both@v1 both@v1 --pair chip_a=chip_b --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(
        r.err, "roofline: note: not compared (no --pair names them): chip_b of A; chip_a of B"));
    CHECK(contains(r.out, "geometric mean of 6 matched cases"));
    CHECK(contains(r.out, "2 bound flips; 0 only in A, 0 only in B"));
    auto rows = read_csv(box / "out/diffs/both-v1--both-v1--chip_a=chip_b/diff.csv");
    CHECK(num(find_row(rows, "matched", "proj", "64"), "speedup") == 2);
    CHECK(num(find_row(rows, "matched", "proj", "1024"), "speedup") == 4);

    // Each side one target: paired automatically; an explicit pair that says
    // the same names the same folder.
    box.scenario("gen_b", "chip_b");
    box.run("gen_b.roof");
    auto same = run_roofline(box.path, "diff gen_a gen_b --pair chip_a=chip_b --no-charts");
    CHECK(same.exit_code == 0);
    CHECK(fs::exists(box / "out/diffs/gen_a-v1--gen_b-v1/diff.csv"));

    // Several targets, no --pair: equal ids; chip_b exists in A only.
    auto mixed = run_roofline(box.path, "diff both gen_a --no-charts");
    CHECK(mixed.exit_code == 0);
    CHECK(contains(mixed.out, "6 only in A, 0 only in B"));
    CHECK(contains(mixed.out, "chip_b → -"));

    auto unknown = run_roofline(box.path, "diff both gen_a --pair chip_c=chip_a");
    CHECK(unknown.exit_code == 1);
    CHECK(contains(unknown.err,
                   "roofline: error: --pair chip_c=chip_a: both v1 has no hardware 'chip_c' (its "
                   "targets: chip_a, chip_b)"));
    auto twice = run_roofline(box.path, "diff both both --pair chip_a=chip_b --pair chip_a=chip_a");
    CHECK(twice.exit_code == 1);
    CHECK(contains(twice.err, "is paired twice"));
    auto malformed = run_roofline(box.path, "diff both both --pair chip_a");
    CHECK(malformed.exit_code == 2);
    CHECK(contains(malformed.err, "--pair takes A_HW=B_HW, not 'chip_a'"));
    auto one = run_roofline(box.path, "diff both");
    CHECK(one.exit_code == 2);
    CHECK(contains(one.err, "expected two reports, got 1"));
}

TEST_CASE("diff: --fail-if-slower exits 1 when a matched case is slower by more than PCT",
          "[diff]") {
    Sandbox box;
    box.scenario("gen_a", "chip_a");
    box.scenario("gen_b", "chip_b");
    box.run("gen_a.roof");
    box.run("gen_b.roof");
    // B -> A is slower: by 100 % (memory-bound), 179.5 % (the flip), 300 % (compute-bound).
    auto slower = run_roofline(box.path, "diff gen_b@v1 gen_a@v1 --fail-if-slower 150 --no-charts");
    INFO(slower.out << slower.err);
    CHECK(slower.exit_code == 1);
    CHECK(contains(
        slower.err,
        "roofline: error: 4 matched cases are slower by more than 150% (--fail-if-slower); "
        "the slowest, 300% slower: proj on chip_b -> chip_a at B = 1024"));
    CHECK(
        contains(slower.out, "published out/diffs/gen_b-v1--gen_a-v1"));  // published all the same
    CHECK(contains(slower.out, "0.50×"));
    auto enough = run_roofline(box.path, "diff gen_b@v1 gen_a@v1 --fail-if-slower 300 --no-charts");
    CHECK(enough.exit_code == 0);
    CHECK(contains(enough.out, "up to date: out/diffs/gen_b-v1--gen_a-v1"));
    auto faster = run_roofline(box.path, "diff gen_a@v1 gen_b@v1 --fail-if-slower 0 --no-charts");
    CHECK(faster.exit_code == 0);
    auto bad = run_roofline(box.path, "diff gen_a@v1 gen_b@v1 --fail-if-slower ten");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "--fail-if-slower takes a percentage"));
}

TEST_CASE("diff: broken, missing or foreign reports give a clear error, not a crash", "[diff]") {
    Sandbox box;
    box.scenario("gen_a", "chip_a");
    box.run("gen_a.roof");
    fs::copy(box / "out/gen_a", box / "out/copy",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::path const v1 = box / "out/copy/v1";
    auto const manifest_text = read_file(v1 / "manifest.json");
    auto const cases_text = read_file(v1 / "cases.csv");
    auto restore = [&] {
        box.write("out/copy/v1/manifest.json", manifest_text);
        box.write("out/copy/v1/cases.csv", cases_text);
    };
    auto fails = [&](std::string const& expected) {
        auto r = run_roofline(box.path, "diff gen_a@v1 copy@v1 --no-charts");
        INFO(r.out << r.err);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "roofline: error: "));
        CHECK(contains(r.err, expected));
        box.check_nothing_published();
        restore();
    };
    auto manifest = nlohmann::json::parse(manifest_text);

    SECTION("missing manifest") {
        fs::remove(v1 / "manifest.json");
        fails("out/copy/v1: no manifest.json (not a report, or an incomplete one)");
    }
    SECTION("manifest that is not JSON") {
        box.write("out/copy/v1/manifest.json", "{\"report_format\": 1,");
        fails("out/copy/v1/manifest.json: not a valid manifest");
    }
    SECTION("missing cases.csv") {
        fs::remove(v1 / "cases.csv");
        fails("out/copy/v1: cases.csv is missing");
    }
    SECTION("another report format") {
        manifest["report_format"] = 2;
        box.write("out/copy/v1/manifest.json", manifest.dump());
        fails("report format 2 (roofline 0.1.0), but roofline " ROOFLINE_VERSION
              " reads format 1 only");
    }
    SECTION("no report format") {
        manifest.erase("report_format");
        box.write("out/copy/v1/manifest.json", manifest.dump());
        fails("manifest.json: no report_format: not a roofline report");
    }
    SECTION("a field of the wrong type") {
        manifest["targets"] = "chip_a";
        box.write("out/copy/v1/manifest.json", manifest.dump());
        fails("manifest.json: field 'targets' is missing or not a list");
    }
    SECTION("a changed number") {
        auto text = cases_text;
        auto at = text.find(",memory,");
        REQUIRE(at != std::string::npos);
        text.replace(at, 8, ",compute,");
        box.write("out/copy/v1/cases.csv", text);
        fails("out/copy/v1/cases.csv: its SHA-256 differs from the one in manifest.json");
    }
    SECTION("a truncated file") {
        box.write("out/copy/v1/cases.csv",
                  cases_text.substr(0, cases_text.rfind("\r\n", cases_text.size() - 3) + 2));
        fails("out/copy/v1/cases.csv: 5 cases, but manifest.json says 6");
    }
    SECTION("a malformed row") {
        box.write("out/copy/v1/cases.csv", cases_text + "proj,,1\r\n");
        fails("out/copy/v1/cases.csv:8: 3 fields, but the header has");
    }
    SECTION("a column missing") {
        auto text = cases_text;
        text.replace(text.find("t_lower"), 7, "t_lowest");
        box.write("out/copy/v1/cases.csv", text);
        fails("out/copy/v1/cases.csv:1: the header has no column 't_lower'");
    }
    SECTION("not a number") {
        auto text = cases_text;
        auto at = text.find(",bf16,64,");
        REQUIRE(at != std::string::npos);
        text.replace(at, 9, ",bf16,6x,");
        box.write("out/copy/v1/cases.csv", text);
        fails("out/copy/v1/cases.csv:2: column 'B': '6x' is not a number");
    }
    SECTION("no such report") {
        auto r = run_roofline(box.path, "diff gen_a@v1 gen_a@v7");
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "roofline: error: no report at 'out/gen_a/v7' (from 'gen_a@v7')"));
        auto path = run_roofline(box.path, "diff gen_a@v1 nowhere/v1");
        CHECK(path.exit_code == 1);
        CHECK(contains(path.err, "roofline: error: no report at 'nowhere/v1'"));
    }
    SECTION("another tool version of the same format is fine, with a note") {
        manifest["tool_version"] = "0.0.9";
        box.write("out/copy/v1/manifest.json", manifest.dump());
        auto r = run_roofline(box.path, "diff gen_a@v1 copy@v1 --no-charts");
        CHECK(r.exit_code == 0);
        CHECK(contains(r.err, "roofline: note: gen_a v1 was made by roofline " ROOFLINE_VERSION
                              " and gen_a v1 by roofline 0.0.9 (the same report format)"));
        CHECK(contains(r.out, "speedup 1.00×"));
    }
}

TEST_CASE("diff: cases.csv is read as RFC 4180 (quotes, doubled quotes, CRLF, a line break in a field)",
    "[diff]") {
    Sandbox box;
    fs::create_directories(box / "r/v1");
    box.write(
        "r/v1/manifest.json",
        R"({"report_format": 1, "report": "r", "version": 1, "tool_version": "0.1.0", "cases": 2,
                  "targets": [{"id": "h", "name": "H"}], "sweeps": [{"name": "B", "points": 2}], "outputs": []})");
    std::string header =
        "op,layer,count,hardware,compute_dtype,B,flops,bytes_read,bytes_written,intensity,"
        "peak,ridge,t_math,t_comms,t_lower,t_upper,bound,attained,peak_fraction,critical_B\r\n";
    box.write("r/v1/cases.csv",
              header +
                  "\"m\"\"x\",\"a,b\",1,h,bf16,1,2,3,4,0.5,1e+14,100,1,2,2,3,memory,1,0.01,\r\n"
                  "\"-m\",\"two\nlines\",1,h,bf16,2,2,3,4,0.5,,,,,,,unsupported,,,7");
    fs::create_directory_symlink("v1", box / "r/latest");
    auto report = roofline::diff::read_report((box / "r").string(), "out");
    CHECK(report.folder == (box / "r/v1").string());
    roofline::diff::CasesReader reader(report);
    roofline::diff::CaseRow row;
    REQUIRE(reader.next(row));
    CHECK(row.op == "m\"x");
    CHECK(row.layer == "a,b");
    CHECK(row.sweep == std::vector<double>{1});
    CHECK(row.t_lower == 2);
    CHECK(std::isnan(row.critical[0]));
    CHECK(row.bound == roofline::diff::Bound::memory);
    REQUIRE(reader.next(row));
    CHECK(row.op == "-m");
    CHECK(row.layer == "two\nlines");
    CHECK(std::isnan(row.peak));
    CHECK(row.critical[0] == 7);
    CHECK(row.bound == roofline::diff::Bound::unsupported);
    CHECK_FALSE(reader.next(row));
    reader.finish();  // no SHA-256 listed: the row count only
}

namespace {

// The words of the step table's row for chip_a -> chip_b at B = `b`.
std::vector<std::string> step_row(std::string const& text, std::string const& b) {
    auto table = text.find("step = sum of count");
    if (table == std::string::npos) return {};
    std::istringstream lines(text.substr(table));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream split(line);
        std::vector<std::string> words;
        for (std::string w; split >> w;) words.push_back(w);
        if (words.size() > 3 && words[0] == "chip_a" && words[3] == b) return words;
    }
    return {};
}

}  // namespace

TEST_CASE("diff: the step of each hardware pair, summed over the ops with their counts",
          "[diff]") {
    Sandbox box;
    // A layer of 10 and a top-level op, memory-bound on both chips.
    auto model = [](std::string const& target, bool with_head) {
        return "include \"chips.roof\"\ntarget " + target +
               "\nsweep B = [1, 2]\nlet D = 1000\nlet F = 5000\nlet V = 3000\n"
               "layer big x 10 { matmul proj = bf16[B, D] * weight bf16[D, F] -> bf16[B, F] }\n" +
               (with_head ? "matmul head = bf16[B, D] * bf16[D, V] -> bf16[B, V]\n" : "");
    };
    box.write("a.roof", model("chip_a", true));
    box.write("b.roof", model("chip_b", true));
    box.write("c.roof", model("chip_b", false));
    box.run("a.roof");
    box.run("b.roof");
    box.run("c.roof");

    // B = 1 on chip_a (1e12 B/s; t_math is 1e7 / 1e14 = 1e-7 s, below t_comms):
    //   proj: 2,000 + 10,000,000 + 10,000 = 10,012,000 B -> 1.0012e-5 s, x 10
    //   head: 2,000 + 6,000,000 + 6,000 = 6,008,000 B -> 6.008e-6 s
    //   step 1.0012e-4 + 6.008e-6 = 1.06128e-4 s ("106 µs")
    // chip_b has twice the bandwidth: 5.3064e-5 s ("53.1 µs"), speedup 2.
    // B = 2: proj 10,024,000 B, head 6,016,000 B: 1.06256e-4 s and half of it.
    auto r = run_roofline(box.path, "diff a@v1 b@v1 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "step = sum of count × t_step over the ops of a sweep point (t_lower on one chip):"));
    auto words = step_row(r.out, "1");
    CHECK(words == std::vector<std::string>{"chip_a", "→", "chip_b", "1", "106", "µs", "53.1",
                                            "µs", "2.00×"});
    words = step_row(r.out, "2");
    CHECK(words == std::vector<std::string>{"chip_a", "→", "chip_b", "2", "106", "µs", "53.1",
                                            "µs", "2.00×"});

    // Without `head` on side B, each side's step is its own whole sum: A
    // proj x 10 + head = 1.06128e-4 s, B proj x 10 alone = 5.006e-5 s,
    // 1.06128e-4 / 5.006e-5 = 2.12, marked: the ops differ.
    r = run_roofline(box.path, "diff a@v1 c@v1 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    words = step_row(r.out, "1");
    CHECK(words == std::vector<std::string>{"chip_a", "→", "chip_b", "1", "106", "µs", "50.1",
                                            "µs", "2.12×*"});
    CHECK(contains(r.out, "*: the two sides' ops differ"));
    CHECK_FALSE(contains(r.out, "partial:"));
}

namespace {

// The colour of each plot of an SVG whose title is in `titles`: the first
// rgb(...) of its group.
std::map<std::string, std::string> plot_colours(std::string const& svg,
                                                std::vector<std::string> const& titles) {
    std::map<std::string, std::string> colours;
    std::string const open = "<g id=\"gnuplot_plot_";
    for (auto at = svg.find(open); at != std::string::npos;) {
        auto next = svg.find(open, at + 1);
        std::string group = svg.substr(at, next == std::string::npos ? next : next - at);
        auto t0 = group.find("<title>"), t1 = group.find("</title>");
        auto c0 = group.find("rgb(");
        if (t0 != std::string::npos && t1 != std::string::npos && c0 != std::string::npos) {
            std::string title = group.substr(t0 + 7, t1 - t0 - 7);
            if (std::find(titles.begin(), titles.end(), title) != titles.end())
                colours[title] = group.substr(c0, group.find(')', c0) - c0 + 1);
        }
        at = next;
    }
    return colours;
}

}  // namespace

TEST_CASE("diff: 20 matmuls make two parts of 10, every key entry shown, no colour repeated",
          "[diff][charts]") {
    Sandbox box;
    // gather (0 FLOPs: intensity 0, not on the log axes) and op01 .. op19.
    std::string text = "include \"chips.roof\"\ntarget chip_a, chip_b\nsweep B = [64, 150, 1024]\n"
                       "let D = 256\nlet F = 256\n"
                       "elementwise gather = bf16[B, D] -> bf16[B, D] flops 0\n";
    std::vector<std::string> ops = {"gather"};
    for (int i = 1; i <= 19; ++i) {
        std::string name = std::string(i < 10 ? "op0" : "op").append(std::to_string(i));
        ops.push_back(name);
        text += "matmul " + name + " = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    }
    box.write("many.roof", text);
    box.run("many.roof");
    auto r = run_roofline(box.path, "diff many@v1 many@v1 --pair chip_a=chip_b");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    fs::path charts = box / "out/diffs/many-v1--many-v1--chip_a=chip_b/charts";
    std::set<std::string> files;
    for (auto const& entry : fs::directory_iterator(charts))
        files.insert(entry.path().filename().string());
    std::set<std::string> expected;
    for (char const* stem : {"roofline-chip_a-chip_b-", "speedup-B-chip_a-chip_b-"})
        for (char const* part : {"1", "2"})
            for (char const* ext : {".svg", ".png"})
                expected.insert(std::string(stem).append(part).append(ext));
    CHECK(files == expected);

    // 20 in two parts of 10, in the scenario's order.
    std::vector<std::string> const first(ops.begin(), ops.begin() + 10),
        second(ops.begin() + 10, ops.end());
    auto text_of = [](std::string const& s) { return std::string("<text>").append(s).append("</text>"); };
    for (int part = 1; part <= 2; ++part) {
        auto const& mine = part == 1 ? first : second;
        auto const& others = part == 1 ? second : first;
        std::string const suffix = std::string("-").append(std::to_string(part)).append(".svg");
        auto roofline = read_file(charts / ("roofline-chip_a-chip_b" + suffix));
        auto speedup = read_file(charts / ("speedup-B-chip_a-chip_b" + suffix));
        std::string const title = part == 1 ? "(ops 1\u201310 of 20)" : "(ops 11\u201320 of 20)";
        CHECK(contains(roofline, title));
        CHECK(contains(speedup, title));
        // The key: both roofs, the markers' meaning, every matmul of the part
        // (gather as a note: 0 FLOPs have no place on log axes).
        CHECK(contains(roofline, "<text>A roof, chip_a: 1 TB/s; bf16 100 TFLOP/s</text>"));
        CHECK(contains(roofline, "<text>B roof, chip_b: 2 TB/s; bf16 400 TFLOP/s</text>"));
        CHECK(contains(roofline, "<text>open markers: A (chip_a)</text>"));
        CHECK(contains(roofline, "<text>filled markers: B (chip_b)</text>"));
        CHECK(contains(speedup, "<text>no change: 1.00×</text>"));
        CHECK(contains(speedup, "<text>HBM bandwidth B/A (memory-bound): 2.00×</text>"));
        CHECK(contains(speedup, "<text>bf16 peak B/A (compute-bound): 4.00×</text>"));
        for (auto const& op : mine) {
            INFO(op);
            CHECK(contains(speedup, text_of(op)));
            if (op == "gather") {
                CHECK(contains(roofline, text_of("not on a log axis: gather (0 FLOPs)")));
                CHECK_FALSE(contains(roofline, text_of("gather")));
            } else {
                CHECK(contains(roofline, text_of(op)));
            }
        }
        for (auto const& op : others) {
            CHECK_FALSE(contains(speedup, text_of(op)));
            CHECK_FALSE(contains(roofline, text_of(op)));
        }
        // No two matmuls of a chart share a colour.
        for (auto const* svg : {&roofline, &speedup}) {
            auto colours = plot_colours(*svg, mine);
            CHECK(colours.size() == (svg == &roofline && part == 1 ? 9u : 10u));
            std::set<std::string> distinct;
            for (auto const& [op, colour] : colours) distinct.insert(colour);
            CHECK(distinct.size() == colours.size());
        }
    }
}

TEST_CASE("diff: up to 12 matmuls share one chart, with 12 colours", "[diff][charts]") {
    Sandbox box;
    std::string text = "include \"chips.roof\"\ntarget chip_a, chip_b\nsweep B = [64, 1024]\n"
                       "let D = 256\nlet F = 256\n";
    std::vector<std::string> ops;
    for (int i = 1; i <= 12; ++i) {
        std::string name = std::string("m").append(std::to_string(i));
        ops.push_back(name);
        text += "matmul " + name + " = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    }
    box.write("twelve.roof", text);
    box.run("twelve.roof");
    auto r = run_roofline(box.path, "diff twelve@v1 twelve@v1 --pair chip_a=chip_b");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    fs::path charts = box / "out/diffs/twelve-v1--twelve-v1--chip_a=chip_b/charts";
    CHECK(fs::exists(charts / "roofline-chip_a-chip_b.svg"));
    CHECK(fs::exists(charts / "speedup-B-chip_a-chip_b.svg"));
    CHECK_FALSE(fs::exists(charts / "speedup-B-chip_a-chip_b-1.svg"));
    auto speedup = read_file(charts / "speedup-B-chip_a-chip_b.svg");
    CHECK_FALSE(contains(speedup, "(ops "));
    auto colours = plot_colours(speedup, ops);
    CHECK(colours.size() == 12);
    std::set<std::string> distinct;
    for (auto const& [op, colour] : colours) distinct.insert(colour);
    CHECK(distinct.size() == 12);
}

// Issue 11: a dtype sweep pairs by the dtype's name. proj reads its weight
// in the sweep's dtype: bytes = 2 B D + w D F + 2 B F with w the bytes of
// that dtype; it computes in bf16 (the wider input) on every side.
TEST_CASE("diff: dtype sweeps pair by the dtype's name", "[diff][dtype-sweep]") {
    Sandbox box;
    box.write("dt.roof",
              "include \"chips.roof\"\ntarget chip_a\nsweep wdt = [bf16, int8]\n"
              "sweep B = [64, 150, 1024]\nlet D = 4096\nlet F = 4096\n"
              "matmul proj = bf16[B, D] * weight wdt[D, F] -> bf16[B, F]\n");
    box.run("dt.roof");
    box.run("dt.roof --set 'wdt=[int8, fp8]'");
    auto r = run_roofline(box.path, "diff dt@v1 dt@v2 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "geometric mean of 3 matched cases"));
    CHECK(contains(r.out, "; 3 only in A, 3 only in B"));
    CHECK(contains(r.out, "only in A: proj on chip_a at wdt = bf16, B = 64"));
    CHECK(contains(r.out, "only in B: proj on chip_a at wdt = fp8, B = 1024"));
    CHECK_FALSE(contains(r.out, "critical wdt"));
    auto rows = read_csv(box / "out/diffs/dt-v1--dt-v2/diff.csv");
    REQUIRE(rows.size() == 9);
    CHECK_FALSE(rows.front().count("critical_wdt_a"));
    CHECK(rows.front().count("critical_B_a"));
    std::size_t int8_rows = 0;
    for (auto const& row : rows) {
        if (row.at("wdt") != "int8") continue;
        ++int8_rows;
        CHECK(row.at("status") == "matched");
        CHECK(row.at("speedup") == "1");
        CHECK(row.at("compute_dtype_a") == "bf16");
    }
    CHECK(int8_rows == 3);
    // int8 weights at B = 64: 2,147,483,648 FLOPs over 524,288 + 16,777,216 +
    // 524,288 = 17,825,792 bytes, intensity 120.5, above chip_a's ridge of
    // 100: compute-bound, t_lower = 2,147,483,648 / 1e14 s (in bf16 weights,
    // 34,603,008 bytes, it is memory-bound: intensity 62.1).
    auto const& b64 = find_row(rows, "matched", "proj", "64");
    CHECK(b64.at("wdt") == "int8");
    CHECK(b64.at("bound_a") == "compute");
    CHECK(num(b64, "t_lower_a") == Approx(2'147'483'648.0 / 1e14).epsilon(1e-14));

    // A sweep of the same name that holds numbers on the other side matches nothing.
    box.write("num.roof",
              "include \"chips.roof\"\ntarget chip_a\nsweep wdt = [1, 2]\nlet unused = wdt\n"
              "sweep B = [64, 150, 1024]\nlet D = 4096\nlet F = 4096\n"
              "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    box.run("num.roof");
    auto mixed = run_roofline(box.path, "diff dt@v1 num@v1 --no-charts");
    CHECK(mixed.exit_code != 0);
    CHECK(contains(mixed.err, "sweep 'wdt' is a sweep of dtypes in"));
    CHECK(contains(mixed.err, "so no value of it can match"));
}
