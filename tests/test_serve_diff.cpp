// `roofline diff` of two serve reports: serve.csv and fleet.csv matched by
// hardware and sweep values, the figures before (A), after (B) and B / A.
//
// Two real reports made by the built binary (a.roof on chip_a sweeping
// R = 2, 4, 8, 16; b.roof on chip_b sweeping R = 4, 8, 16, 32: one target on
// each side, so chip_a pairs with chip_b), into which the tests write
// serve.csv and fleet.csv by hand and list them in manifest.json with their
// SHA-256, as `run` does for a serve scenario. The figures are chosen by
// hand; every ratio below is B / A, worked out in the comments.

#include "roofline/output/sha256.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace roofline;

namespace {

using test::contains;
using test::read_file;
using test::run_roofline;

// serve.csv of A (chip_a), in the column order serve_columns.cpp writes.
// Saturated at R = 8 and 16 (its latencies there are lower bounds).
constexpr char const* serve_a =
    "hardware,R,chips,rate,clients,served_rate,output_tokens_per_s,output_tokens_per_s_per_chip,"
    "ttft_p50,ttft_p90,ttft_p99,ttft_mean,tpot_p50,tpot_p90,tpot_p99,tpot_mean,e2e_p50,e2e_p90,"
    "e2e_p99,e2e_mean,mean_running,mean_step,peak_kv_tokens,kv_capacity_tokens,weight_bytes,"
    "reserve_bytes,kv_bytes_per_token,steps,requests,saturated,slos_met,slo_tpot_p99,problem\r\n"
    "chip_a,2,1,2,,2,512,512,0.08,0.1,0.12,0.09,0.02,0.022,0.025,0.021,5,6,6.5,5.5,10,0.02,1e5,1e6,"
    "1e9,1e8,1e5,9000,900,no,yes,yes,\r\n"
    "chip_a,4,1,4,,4,1024,1024,0.1,0.15,0.2,0.12,0.025,0.03,0.04,0.027,8,9,10.4,8.5,20,0.025,2e5,1e6,"
    "1e9,1e8,1e5,9000,900,no,yes,yes,\r\n"
    "chip_a,8,1,8,,6,1536,1536,2,5,8,3,0.05,0.07,0.08,0.055,20,25,30,21,60,0.05,9e5,1e6,"
    "1e9,1e8,1e5,9000,900,yes,no,no,\r\n"
    "chip_a,16,1,16,,6,1536,1536,10,30,40,15,0.06,0.09,0.1,0.065,50,60,70,52,64,0.06,1e6,1e6,"
    "1e9,1e8,1e5,9000,900,yes,no,no,\r\n";

// serve.csv of B (chip_b), its columns in another order and some left out:
// the diff reads columns by name. Saturated at R = 16 and 32.
constexpr char const* serve_b =
    "tpot_p99,hardware,saturated,e2e_p99,R,served_rate,output_tokens_per_s_per_chip,ttft_p50,"
    "ttft_p99,tpot_p50,problem\r\n"
    "0.016,chip_b,no,4.2,4,4,1024,0.05,0.1,0.0125,\r\n"
    "0.02,chip_b,no,5.3,8,8,2048,0.06,0.15,0.016,\r\n"
    "0.05,chip_b,yes,25,16,12,3072,4,12,0.03,\r\n"
    "0.06,chip_b,yes,40,32,12,3072,9,30,0.04,\r\n";

// fleet.csv: fleet rate = 100 /s; R is the load sweep, so no column of it.
// A: 4 req/s per replica -> ceil(100 / 4) = 25 replicas of 1 chip; B: 8 ->
// ceil(100 / 8) = 13.
constexpr char const* fleet_a =
    "hardware,chips_per_replica,max_rate_per_replica,replicas,chips,dollars_per_hour,"
    "dollars_per_million_tokens,kilowatts,joules_per_token,fewest_chips,cheapest,why_none,vllm,"
    "trtllm,sglang\r\n"
    "chip_a,1,4,25,25,50,13.5,17.5,0.7,yes,yes,,vllm serve,trtllm-serve,sglang\r\n";
constexpr char const* fleet_b =
    "hardware,chips,replicas,max_rate_per_replica,dollars_per_million_tokens,why_none\r\n"
    "chip_b,13,13,8,9,\r\n";

struct Sandbox : test::Sandbox {
    Sandbox() {
        write("chips.roof",
              "hardware chip_a { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }\n"
              "hardware chip_b { hbm_bandwidth = 2e12 B/s  peak bf16 = 4e14 FLOP/s }\n");
        report("a", "chip_a", "[2, 4, 8, 16]");
        report("b", "chip_b", "[4, 8, 16, 32]");
    }
    void report(std::string const& name, std::string const& target, std::string const& rates) const {
        write(name + ".roof", "include \"chips.roof\"\ntarget " + target + "\nsweep R = " + rates +
                                  "\nlet D = 4096\nlet F = 4096\nmatmul proj = bf16[R, D] * bf16[D, F] -> bf16[R, F]\n");
        auto r = run_roofline(path, "run " + name + ".roof --no-charts");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
    }
    fs::path version(std::string const& name) const { return path / "out" / name / "v1"; }
    // Writes `file` into the report and lists it in its manifest, with its SHA-256.
    void add(std::string const& name, std::string const& file, std::string const& text) const {
        test::write_file(version(name) / file, text);
        auto manifest_path = version(name) / "manifest.json";
        auto manifest = nlohmann::json::parse(read_file(manifest_path));
        manifest["outputs"].push_back({{"path", file}, {"sha256", output::sha256_hex(text)}});
        test::write_file(manifest_path, manifest.dump(2) + "\n");
    }
    test::CommandResult diff() const {
        auto r = run_roofline(path, "diff a@v1 b@v1 --no-charts");
        UNSCOPED_INFO("stdout: " << r.out << "\nstderr: " << r.err);
        return r;
    }
    fs::path diff_folder() const { return path / "out/diffs/a-v1--b-v1"; }
};

// A CSV without quoted fields, as rows keyed by column name.
using Row = std::map<std::string, std::string>;
std::vector<Row> read_csv(fs::path const& file) {
    std::istringstream in(read_file(file));
    std::vector<std::string> header;
    std::vector<Row> rows;
    for (std::string line; std::getline(in, line);) {
        REQUIRE(line.back() == '\r');
        line.pop_back();
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
        if (!line.empty() && line.back() == ',') fields.push_back("");
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

Row const& at_rate(std::vector<Row> const& rows, std::string const& r) {
    for (auto const& row : rows)
        if (row.at("R") == r) return row;
    FAIL("no row at R = " << r);
    throw;
}

double num(Row const& row, std::string const& column) { return std::stod(row.at(column)); }

}  // namespace

TEST_CASE("serve diff: matched points, B / A per figure, lower bounds marked", "[serve-diff]") {
    Sandbox box;
    box.add("a", "serve.csv", serve_a);
    box.add("b", "serve.csv", serve_b);
    box.add("a", "fleet.csv", fleet_a);
    box.add("b", "fleet.csv", fleet_b);
    auto r = box.diff();
    REQUIRE(r.exit_code == 0);

    auto rows = read_csv(box.diff_folder() / "serve_diff.csv");
    // B's rows in B's order (4, 8, 16 matched; 32 only in B), then A's R = 2.
    REQUIRE(rows.size() == 5);
    std::vector<std::string> order, status;
    for (auto const& row : rows) order.push_back(row.at("R")), status.push_back(row.at("status"));
    CHECK(order == std::vector<std::string>{"4", "8", "16", "32", "2"});
    CHECK(status == std::vector<std::string>{"matched", "matched", "matched", "only_b", "only_a"});

    // R = 4, neither saturated: exact. served 4 / 4 = 1; tok/s per chip
    // 1024 / 1024 = 1; TTFT p50 0.05 / 0.1 = 0.5, p99 0.1 / 0.2 = 0.5; TPOT
    // p50 0.0125 / 0.025 = 0.5, p99 0.016 / 0.04 = 0.4; e2e p99 4.2 / 10.4.
    auto const& r4 = at_rate(rows, "4");
    CHECK(r4.at("hardware_a") == "chip_a");
    CHECK(r4.at("hardware_b") == "chip_b");
    CHECK(r4.at("saturated_a") == "no");
    CHECK(r4.at("saturated_b") == "no");
    CHECK(r4.at("latency_ratio") == "exact");
    CHECK(num(r4, "served_rate_ratio") == Approx(1));
    CHECK(num(r4, "output_tokens_per_s_per_chip_ratio") == Approx(1));
    CHECK(num(r4, "ttft_p50_ratio") == Approx(0.5));
    CHECK(num(r4, "ttft_p99_ratio") == Approx(0.5));
    CHECK(num(r4, "tpot_p50_ratio") == Approx(0.5));
    CHECK(num(r4, "tpot_p99_a") == Approx(0.04));
    CHECK(num(r4, "tpot_p99_b") == Approx(0.016));
    CHECK(num(r4, "tpot_p99_ratio") == Approx(0.4));
    CHECK(num(r4, "e2e_p99_ratio") == Approx(4.2 / 10.4));

    // R = 8, A saturated: A's latencies are lower bounds, so a latency's
    // B / A is at most the value: TPOT p99 0.02 / 0.08 = 0.25 at most. Rates
    // are no lower bounds: served 8 / 6, tok/s per chip 2048 / 1536 = 4/3.
    auto const& r8 = at_rate(rows, "8");
    CHECK(r8.at("saturated_a") == "yes");
    CHECK(r8.at("saturated_b") == "no");
    CHECK(r8.at("latency_ratio") == "at_most");
    CHECK(num(r8, "tpot_p99_ratio") == Approx(0.25));
    CHECK(num(r8, "served_rate_ratio") == Approx(8.0 / 6));
    CHECK(num(r8, "output_tokens_per_s_per_chip_ratio") == Approx(4.0 / 3));

    // R = 16, both saturated: a ratio of two lower bounds (0.05 / 0.1 = 0.5), marked so.
    auto const& r16 = at_rate(rows, "16");
    CHECK(r16.at("latency_ratio") == "lower_bounds");
    CHECK(num(r16, "tpot_p99_ratio") == Approx(0.5));
    CHECK(num(r16, "output_tokens_per_s_per_chip_ratio") == Approx(2));  // 3072 / 1536

    // Rows on one side only: that side's figures, no ratio.
    auto const& r32 = at_rate(rows, "32");
    CHECK(r32.at("hardware_a").empty());
    CHECK(r32.at("saturated_b") == "yes");
    CHECK(num(r32, "tpot_p99_b") == Approx(0.06));
    CHECK(r32.at("tpot_p99_a").empty());
    CHECK(r32.at("tpot_p99_ratio").empty());
    CHECK(r32.at("latency_ratio").empty());
    auto const& r2 = at_rate(rows, "2");
    CHECK(num(r2, "tpot_p99_a") == Approx(0.025));
    CHECK(r2.at("hardware_b").empty());

    // fleet: chips 13 / 25 = 0.52, replicas likewise, rate per replica
    // 8 / 4 = 2, $/Mtok 9 / 13.5 = 2/3; keyed by hardware alone (no sweep
    // column: R is the load).
    auto fleet = read_csv(box.diff_folder() / "fleet_diff.csv");
    REQUIRE(fleet.size() == 1);
    auto const& f = fleet[0];
    CHECK(f.count("R") == 0);
    CHECK(f.at("status") == "matched");
    CHECK(num(f, "chips_a") == 25);
    CHECK(num(f, "chips_b") == 13);
    CHECK(num(f, "chips_ratio") == Approx(0.52));
    CHECK(num(f, "replicas_ratio") == Approx(0.52));
    CHECK(num(f, "max_rate_per_replica_ratio") == Approx(2));
    CHECK(num(f, "dollars_per_million_tokens_ratio") == Approx(2.0 / 3));

    // The terminal: TPOT p99's largest changes first, by |log ratio|: R = 8
    // (0.25, at most), then R = 4 (0.40); R = 16 (both saturated) not ranked.
    // tok/s per chip: R = 16 (2.00x), R = 8 (1.33x), R = 4 (1.00x).
    CHECK(contains(r.out, "serve: 3 points matched, 1 only in A, 1 only in B"));
    CHECK(contains(r.out, "saturated: 2 in A, 2 in B"));
    CHECK(contains(r.out, "  only in B: chip_b at R = 32\n  only in A: chip_a at R = 2\n"));
    auto tpot = r.out.find("the largest changes of TPOT p99");
    REQUIRE(tpot != std::string::npos);
    auto at8 = r.out.find("chip_a → chip_b at R = 8: ≥ 80 ms → 20 ms: ≤ 0.25×", tpot);
    auto at4 = r.out.find("chip_a → chip_b at R = 4: 40 ms → 16 ms: 0.40×", tpot);
    CHECK(at8 != std::string::npos);
    CHECK(at4 != std::string::npos);
    CHECK(at8 < at4);
    CHECK(contains(r.out, "(1 point saturated in both A and B not ranked: a ratio of two lower bounds)"));
    auto tok = r.out.find("the largest changes of output tok/s per chip");
    REQUIRE(tok != std::string::npos);
    auto t16 = r.out.find("at R = 16: 1536 → 3072: 2.00×", tok);
    auto t8 = r.out.find("at R = 8: 1536 → 2048: 1.33×", tok);
    CHECK(t16 != std::string::npos);
    CHECK(t8 != std::string::npos);
    CHECK(t16 < t8);
    CHECK(contains(r.out, "fleet: 1 configuration matched, 0 only in A, 0 only in B"));
    CHECK(contains(r.out, "chip_a → chip_b: chips 25 → 13: 0.52×, $/Mtok 13.5 → 9: 0.67×, "
                          "rate per replica 4 → 8: 2.00×"));

    // diff.json lists the new files with their SHA-256 and counts the points.
    auto manifest = nlohmann::json::parse(read_file(box.diff_folder() / "diff.json"));
    CHECK(manifest["serve"]["matched"] == 3);
    CHECK(manifest["serve"]["only_a"] == 1);
    CHECK(manifest["fleet"]["matched"] == 1);
    std::map<std::string, std::string> outputs;
    for (auto const& o : manifest["outputs"]) outputs[o["path"]] = o["sha256"];
    CHECK(outputs["serve_diff.csv"] == output::sha256_file((box.diff_folder() / "serve_diff.csv").string()));
    CHECK(outputs.count("fleet_diff.csv") == 1);

    // diff.xlsx has the Serve and Fleet sheets, each ratio a formula: the
    // first data row is row 5 (title, note, blank, header), served A in G,
    // B in H, B/A in I (status, hardware A, hardware B, R, saturated A, B first).
    auto xml = test::run_command(test::python3() + " -c \"import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); "
                                 "print(''.join(z.read(n).decode() for n in z.namelist() if n.startswith('xl/')))\" " +
                                 test::quoted(box.diff_folder() / "diff.xlsx"));
    REQUIRE(xml.exit_code == 0);
    CHECK(contains(xml.out, "name=\"Serve\""));
    CHECK(contains(xml.out, "name=\"Fleet\""));
    CHECK(contains(xml.out, "<f>H5/G5</f>"));

    // Published versions never change: the second diff says the same.
    auto again = box.diff();
    REQUIRE(again.exit_code == 0);
    CHECK(contains(again.out, "serve: 3 points matched"));
}

TEST_CASE("serve diff: a report without serve.csv gives no serve part and no error",
          "[serve-diff]") {
    Sandbox box;
    SECTION("neither side") {
        auto r = box.diff();
        REQUIRE(r.exit_code == 0);
        CHECK_FALSE(contains(r.out, "serve:"));
        CHECK_FALSE(contains(r.out, "serve.csv"));
        CHECK_FALSE(fs::exists(box.diff_folder() / "serve_diff.csv"));
    }
    SECTION("only B: a note, and the cases are compared as ever") {
        box.add("b", "serve.csv", serve_b);
        auto r = box.diff();
        REQUIRE(r.exit_code == 0);
        CHECK(contains(r.out, "serve.csv only in b v1 (a v1 has none): its serve points are not compared"));
        CHECK(contains(r.out, "speedup"));
        CHECK_FALSE(fs::exists(box.diff_folder() / "serve_diff.csv"));
        CHECK(fs::exists(box.diff_folder() / "diff.csv"));
    }
    SECTION("a serve.csv on disk that the manifest does not list is not the report's") {
        test::write_file(box.version("a") / "serve.csv", serve_a);
        box.add("b", "serve.csv", serve_b);
        auto r = box.diff();
        REQUIRE(r.exit_code == 0);
        CHECK_FALSE(fs::exists(box.diff_folder() / "serve_diff.csv"));
    }
}

TEST_CASE("serve diff: a serve.csv that does not parse names the file and the line",
          "[serve-diff]") {
    Sandbox box;
    box.add("a", "serve.csv", serve_a);
    std::string const folder = "out/b/v1/serve.csv";
    auto expect_error = [&](std::string const& text, std::string const& message) {
        box.add("b", "serve.csv", text);
        auto r = box.diff();
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, message));
        CHECK_FALSE(fs::exists(box.diff_folder()));  // nothing published
    };
    std::string const head =
        "tpot_p99,hardware,saturated,e2e_p99,R,served_rate,output_tokens_per_s_per_chip,ttft_p50,"
        "ttft_p99,tpot_p50\r\n";
    SECTION("a figure that is not a number, on line 3") {
        expect_error(head + "0.016,chip_b,no,4.2,4,4,1024,0.05,0.1,0.0125\r\n"
                            "fast,chip_b,no,5.3,8,8,2048,0.06,0.15,0.016\r\n",
                     folder + ":3: column 'tpot_p99': 'fast' is not a number");
    }
    SECTION("a row of too few fields, on line 2") {
        expect_error(head + "0.016,chip_b,no\r\n", folder + ":2: 3 fields, but the header has 10");
    }
    SECTION("a header without a figure's column") {
        expect_error("hardware,R,saturated\r\nchip_b,4,no\r\n",
                     folder + ":1: the header has no column 'served_rate'");
    }
    SECTION("a header without the sweep's column") {
        expect_error("tpot_p99,hardware,saturated,e2e_p99,served_rate,output_tokens_per_s_per_chip,"
                     "ttft_p50,ttft_p99,tpot_p50\r\n",
                     folder + ":1: the header has no column 'R' for sweep 'R' of manifest.json");
    }
    SECTION("saturated neither yes nor no") {
        expect_error(head + "0.016,chip_b,maybe,4.2,4,4,1024,0.05,0.1,0.0125\r\n",
                     folder + ":2: column 'saturated': 'maybe' is not yes, no or empty");
    }
    SECTION("the same point twice") {
        expect_error(head + "0.016,chip_b,no,4.2,4,4,1024,0.05,0.1,0.0125\r\n"
                            "0.016,chip_b,no,4.2,4.0,4,1024,0.05,0.1,0.0125\r\n",
                     folder + ":3: the same point as line 2");
    }
    SECTION("a file changed after publishing") {
        box.add("b", "serve.csv", serve_b);
        test::write_file(box.version("b") / "serve.csv", std::string(serve_b) + "\r\n");
        auto r = box.diff();
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, folder + ": its SHA-256 differs from the one in manifest.json"));
    }
}
