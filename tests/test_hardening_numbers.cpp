// Issue 25, item 4: numbers that would publish inf, NaN, 0 or a subnormal.
// Every hardware quantity lies in a range (model/limits.hpp: rates and
// capacities 1e-3 .. 1e30 of their base unit, times 1e-15 s .. 1e6 s) that
// keeps every published figure finite and normal; a value outside it is an
// input error at its own token, in `check` and `run` alike and through a
// --set. And `diff` refuses a cases.csv that holds inf or nan.
#include "cases_csv.hpp"
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {
namespace fs = std::filesystem;
using roofline::test::contains;
using roofline::test::run_roofline;
using roofline::test::Sandbox;

// A chip on a mesh of 4 over NVLink, a matmul and an AllReduce. Each field
// on a line of its own, its value at a known column: hbm_bandwidth at 5:21,
// peak bf16 at 6:17, nvlink_latency at 8:22. The lets are what a --set
// changes when a field names them.
std::string scenario(std::string const& bandwidth, std::string const& peak = "pk FLOP/s",
                     std::string const& latency = "lat s") {
    return "let bw = 3e12\n"
           "let pk = 1e15\n"
           "let lat = 1e-6\n"
           "hardware h {\n"
           "    hbm_bandwidth = " + bandwidth + "\n"
           "    peak bf16 = " + peak + "\n"
           "    nvlink_bandwidth = 450 GB/s\n"
           "    nvlink_latency = " + latency + "\n"
           "}\n"
           "mesh tp = 4 over nvlink\n"
           "let B = 64\n"
           "let D = 64\n"
           "let F = 64\n"
           "matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n"
           "collective sum = allreduce(tp) bf16[B, D] -> bf16[B, D]\n";
}

// `check` and `run` of s.roof both exit 1 with `error`, and nothing is
// published; with --set options in `args`, `run` alone (`check` takes none).
void refused_by_check_and_run(std::string const& text, std::string const& args,
                              std::string const& error) {
    Sandbox box;
    box.write("s.roof", text);
    std::vector<std::string> commands = {"run s.roof --no-charts"};
    if (args.empty()) commands.push_back("check s.roof");
    for (auto const& command : commands) {
        auto r = run_roofline(box.path, command + " " + args);
        INFO(command << " " << args << "\n" << r.err);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, error));
        CHECK_FALSE(contains(r.err, "warning: "));  // no plausibility warning besides
    }
    CHECK_FALSE(fs::exists(box / "out"));
}

}  // namespace

TEST_CASE("numbers: a hardware rate outside 1e-3 .. 1e30 is an error at its value, in check and run",
          "[reliability][hardening][ranges]") {
    // A subnormal bandwidth published ridge, t_comms, t_lower and t_upper = inf.
    refused_by_check_and_run(scenario("1e-320 B/s"), "",
                             "s.roof:5:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 1e-320 B/s\n    hbm_bandwidth = 1e-320 B/s\n"
                             "                    ^~~~~~\n");
    // The least double above 0: 2^-1074 = 4.94e-324, written shortest as 5e-324.
    refused_by_check_and_run(scenario("2^-1074 B/s"), "",
                             "s.roof:5:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 5e-324 B/s\n");
    // A bandwidth of 1e300 B/s made t_comms of a few kB about 1e-296 s.
    refused_by_check_and_run(scenario("1e300 B/s"), "",
                             "s.roof:5:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 1e+300 B/s\n");
    // In TB/s: the range is given in the field's base unit, with the value converted.
    refused_by_check_and_run(scenario("1e20 TB/s"), "",
                             "s.roof:5:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 1e+32 B/s\n");
    // A peak of 1e-300 FLOP/s made t_math = 524288 / 1e-300 = inf.
    refused_by_check_and_run(scenario("3 TB/s", "1e-300 FLOP/s"), "",
                             "s.roof:6:17: error: 'peak bf16' must be from 0.001 FLOP/s to 1e+30 "
                             "FLOP/s, not 1e-300 FLOP/s\n    peak bf16 = 1e-300 FLOP/s\n"
                             "                ^~~~~~\n");
    refused_by_check_and_run(scenario("3 TB/s", "1e300 FLOP/s"), "",
                             "s.roof:6:17: error: 'peak bf16' must be from 0.001 FLOP/s to 1e+30 "
                             "FLOP/s, not 1e+300 FLOP/s\n");
}

TEST_CASE("numbers: a latency outside 1e-15 s .. 1e6 s is an error at its value",
          "[reliability][hardening][ranges]") {
    // The AllReduce over 4 GPUs waits 2 x 3 steps of the latency:
    // 6 x 1e308 s = inf in t_net, t_lower and t_upper.
    refused_by_check_and_run(scenario("3 TB/s", "1 PFLOP/s", "1e308 s"), "",
                             "s.roof:8:22: error: 'nvlink_latency' must be from 1e-15 s to 1e+06 s, "
                             "not 1e+308 s\n    nvlink_latency = 1e308 s\n"
                             "                     ^~~~~\n");
    // In ns: 1e-300 ns is 1e-309 s, a subnormal.
    refused_by_check_and_run(scenario("3 TB/s", "1 PFLOP/s", "1e-300 ns"), "",
                             "s.roof:8:22: error: 'nvlink_latency' must be from 1e-15 s to 1e+06 s, "
                             "not 1e-309 s\n");
    // The other fields are checked alike.
    std::string text = scenario("3 TB/s");
    for (auto [field, value, error] :
         {std::tuple{"ici_latency", "1e7 s", "'ici_latency' must be from 1e-15 s to 1e+06 s, not 1e+07 s"},
          std::tuple{"dcn_latency", "1e-16 s", "'dcn_latency' must be from 1e-15 s to 1e+06 s, not 1e-16 s"},
          std::tuple{"hbm_capacity", "1e31 B", "'hbm_capacity' must be from 0.001 B to 1e+30 B, not 1e+31 B"},
          std::tuple{"onchip_capacity", "1e-4 B", "'onchip_capacity' must be from 0.001 B to 1e+30 B, not 1e-04 B"},
          std::tuple{"onchip_bandwidth", "1e-4 B/s", "'onchip_bandwidth' must be from 0.001 B/s to 1e+30 B/s, not 1e-04 B/s"},
          std::tuple{"ici_bandwidth", "1e40 B/s", "'ici_bandwidth' must be from 0.001 B/s to 1e+30 B/s, not 1e+40 B/s"},
          std::tuple{"dcn_bandwidth", "1e-9 B/s", "'dcn_bandwidth' must be from 0.001 B/s to 1e+30 B/s, not 1e-09 B/s"}}) {
        std::string with = text;
        with.insert(with.find("    nvlink_bandwidth"), std::string("    ") + field + " = " + value + "\n");
        // The new field is line 7, its value after "    <field> = ".
        std::string at = "s.roof:7:" + std::to_string(4 + std::string(field).size() + 3 + 1) + ": error: ";
        refused_by_check_and_run(with, "", at + error + "\n");
    }
}

TEST_CASE("numbers: a --set that takes a hardware field out of its range is the same error, with a note",
          "[reliability][hardening][ranges]") {
    std::string text = scenario("bw B/s");
    refused_by_check_and_run(text, "--set bw=1e-320",
                             "s.roof:5:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 1e-320 B/s\n    hbm_bandwidth = bw B/s\n"
                             "                    ^~\n"
                             "<--set bw=1e-320>:1:1: note: 'bw' is set by --set\n");
    refused_by_check_and_run(text, "--set 'bw=2^-1074'",
                             "'hbm_bandwidth' must be from 0.001 B/s to 1e+30 B/s, not 5e-324 B/s\n");
    refused_by_check_and_run(text, "--set bw=1e300",
                             "'hbm_bandwidth' must be from 0.001 B/s to 1e+30 B/s, not 1e+300 B/s\n");
    refused_by_check_and_run(text, "--set pk=1e-300",
                             "s.roof:6:17: error: 'peak bf16' must be from 0.001 FLOP/s to 1e+30 "
                             "FLOP/s, not 1e-300 FLOP/s\n    peak bf16 = pk FLOP/s\n"
                             "                ^~\n<--set pk=1e-300>:1:1: note: 'pk' is set by --set\n");
    refused_by_check_and_run(text, "--set pk=1e300",
                             "'peak bf16' must be from 0.001 FLOP/s to 1e+30 FLOP/s, not 1e+300 FLOP/s\n");
    refused_by_check_and_run(text, "--set lat=1e308",
                             "s.roof:8:22: error: 'nvlink_latency' must be from 1e-15 s to 1e+06 s, "
                             "not 1e+308 s\n    nvlink_latency = lat s\n"
                             "                     ^~~\n<--set lat=1e308>:1:1: note: 'lat' is set by --set\n");
    // Through a let that names the one set: the note still finds the --set.
    std::string through = text;
    through.insert(0, "let bw2 = bw * 2\n");
    through.replace(through.find("bw B/s"), 6, "bw2 B/s");
    refused_by_check_and_run(through, "--set bw=1e300",
                             "s.roof:6:21: error: 'hbm_bandwidth' must be from 0.001 B/s to 1e+30 "
                             "B/s, not 2e+300 B/s\n");
    Sandbox box;
    box.write("s.roof", through);
    auto r = run_roofline(box.path, "run s.roof --no-charts --set bw=1e300");
    CHECK(contains(r.err, "<--set bw=1e300>:1:1: note: 'bw' is set by --set\n"));
    CHECK_FALSE(contains(r.err, "'bw2' is set by --set"));
}

TEST_CASE("numbers: an slo outside 1e-15 s .. 1e6 s is an error at its value",
          "[reliability][hardening][ranges]") {
    Sandbox box;
    box.write("s.roof", scenario("3 TB/s") + "slo step <= 1e-320 s\n");
    auto r = run_roofline(box.path, "check s.roof");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "s.roof:16:13: error: the slo must be from 1e-15 s to 1e+06 s, not 1e-320 s\n"));
}

TEST_CASE("numbers: tokens outside 1e-3 .. 2^64 is an error at its value",
          "[reliability][hardening][ranges]") {
    // tokens/s = tokens / step: 1e301 over a step of about 8 ns is inf; 1e-320
    // a subnormal.
    std::string text = scenario("3 TB/s") + "let tk = 64\ntokens = tk\n";
    std::string at = "s.roof:17:10: error: tokens must be from 0.001 to 2^64 (about 1.8e19), ";
    refused_by_check_and_run(text, "--set tk=1e301",
                             at + "not 1e+301\ntokens = tk\n         ^~\n"
                                  "<--set tk=1e301>:1:1: note: 'tk' is set by --set\n");
    std::string constant = text;
    constant.replace(constant.find("tokens = tk"), 11, "tokens = 1e-320");
    refused_by_check_and_run(constant, "", at + "not 1e-320\n");
    // A swept value, at the point that crosses.
    std::string swept = text;
    swept.replace(swept.find("let tk = 64"), 11, "sweep tk = [1, 2^65]");
    refused_by_check_and_run(swept, "",
                             at + "but the expression gives 36893488147419103232 (at tk = 36893488147419103232)\n");
}

using roofline::test::csv_fields;
using roofline::test::number;
using roofline::test::read_cases;

TEST_CASE("numbers: hardware at the ends of the ranges publishes finite, normal figures",
          "[reliability][hardening][ranges]") {
    Sandbox box;
    // slow: the least rates, the largest peak and latency; fast: the reverse.
    box.write("edges.roof",
              "hardware slow { hbm_bandwidth = 1e-3 B/s  peak bf16 = 1e30 FLOP/s  "
              "nvlink_bandwidth = 1e-3 B/s  nvlink_latency = 1e6 s  hbm_capacity = 1e-3 B  "
              "onchip_capacity = 1e30 B  onchip_bandwidth = 1e-3 B/s }\n"
              "hardware fast { hbm_bandwidth = 1e30 B/s  peak bf16 = 1e-3 FLOP/s  "
              "nvlink_bandwidth = 1e30 B/s  nvlink_latency = 1e-15 s  hbm_capacity = 1e30 B  "
              "onchip_capacity = 1e-3 B  onchip_bandwidth = 1e30 B/s }\n"
              "mesh tp = 4 over nvlink\n"
              "sweep B = [1, 64]\n"
              "let D = 64\n"
              "let F = 64\n"
              "matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n"
              "collective sum = allreduce(tp) bf16[B, D] -> bf16[B, D]\n");
    auto r = run_roofline(box.path, "run edges.roof --quiet");  // with charts: gnuplot's axes
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(fs::exists(box / "out/edges/latest/charts/roofline-slow.svg"));
    CHECK(fs::exists(box / "out/edges/latest/charts/roofline-fast.svg"));
    auto rows = read_cases(box / "out/edges/latest/cases.csv");
    REQUIRE(rows.size() == 8);  // 2 ops x 2 chips x 2 values of B
    std::set<std::string> const text = {"op", "layer", "hardware", "compute_dtype", "collective", "bound",
                                        "calibration"};
    for (auto const& row : rows) {
        for (auto const& [column, value] : row) {
            if (text.count(column)) continue;
            INFO(column << " = '" << value << "' (" << row.at("op") << " on " << row.at("hardware") << ")");
            // Empty only where a figure does not exist: a size at which the
            // case never turns compute-bound.
            if (value.empty()) {
                CHECK(column == "critical_B");
                continue;
            }
            char* end = nullptr;
            double v = std::strtod(value.c_str(), &end);
            CHECK(*end == '\0');
            CHECK(std::isfinite(v));
            CHECK((v == 0 || std::fpclassify(v) == FP_NORMAL));
        }
    }
    // By hand, the matmul at B = 64: 2 x 64^3 = 524288 FLOPs, 3 x 64 x 64 x 2
    // = 24576 bytes.
    for (auto const& row : rows) {
        if (row.at("op") != "m" || row.at("B") != "64") continue;
        bool slow = row.at("hardware") == "slow";
        using Catch::Matchers::WithinRel;
        CHECK_THAT(number(row, "ridge"), WithinRel(slow ? 1e33 : 1e-33, 1e-15));
        CHECK_THAT(number(row, "t_math"), WithinRel(slow ? 524288 / 1e30 : 524288 / 1e-3, 1e-15));
        CHECK_THAT(number(row, "t_comms"), WithinRel(slow ? 24576 / 1e-3 : 24576 / 1e30, 1e-15));
        CHECK(row.at("bound") == (slow ? "memory" : "compute"));
    }
    // The AllReduce at B = 64 on the fast chip: 2 stages of max(3/4 x 8192 B /
    // 1e30 B/s, 3 steps x 1e-15 s) = 6e-15 s, the latency floor; on the slow
    // one 2 x 3/4 x 8192 / 1e-3 = 1.2288e7 s, over 2 x 3 x 1e6 s.
    for (auto const& row : rows) {
        if (row.at("op") != "sum" || row.at("B") != "64") continue;
        bool slow = row.at("hardware") == "slow";
        using Catch::Matchers::WithinRel;
        CHECK_THAT(number(row, "t_net"), WithinRel(slow ? 1.2288e7 : 6e-15, 1e-15));
    }
}

namespace {

// A published version whose cases.csv has `value` in `column` of its first
// row, with the manifest's SHA-256 of it made to match (a forged report).
void forge(fs::path const& version, std::string const& column, std::string const& value) {
    auto path = version / "cases.csv";
    std::stringstream in(roofline::test::read_file(path));
    std::string header, row, rest;
    std::getline(in, header);
    std::getline(in, row);
    std::getline(in, rest, '\0');
    auto names = csv_fields(header);
    auto fields = csv_fields(row);
    auto at = std::find(names.begin(), names.end(), column);
    REQUIRE(at != names.end());
    fields[static_cast<std::size_t>(at - names.begin())] = value;
    std::string joined;
    for (std::size_t i = 0; i < fields.size(); ++i) joined += (i ? "," : "") + fields[i];
    roofline::test::write_file(path, header + "\n" + joined + "\r\n" + rest);
    auto manifest = nlohmann::json::parse(roofline::test::read_file(version / "manifest.json"));
    for (auto& output : manifest["outputs"])
        if (output["path"] == "cases.csv") output["sha256"] = roofline::output::sha256_file(path.string());
    roofline::test::write_file(version / "manifest.json", manifest.dump(2));
}

}  // namespace

TEST_CASE("numbers: diff refuses a cases.csv with inf or nan, naming the file, row and column",
          "[reliability][hardening][ranges]") {
    Sandbox box;
    box.write("s.roof", scenario("3 TB/s"));
    REQUIRE(run_roofline(box.path, "run s.roof --no-charts --quiet").exit_code == 0);
    REQUIRE(run_roofline(box.path, "run s.roof --no-charts --quiet --force").exit_code == 0);
    // The unforged pair compares.
    REQUIRE(run_roofline(box.path, "diff s@v1 s@v2 --no-charts").exit_code == 0);
    for (auto [column, value] : {std::pair{"ridge", "inf"}, std::pair{"t_lower", "-inf"},
                                 std::pair{"t_math", "nan"}, std::pair{"t_net", "infinity"}}) {
        Sandbox copy;
        fs::copy(box.path, copy.path, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        fs::remove_all(copy / "out/diffs");  // the unforged pair's
        forge(copy / "out/s/v2", column, value);
        auto r = run_roofline(copy.path, "diff s@v1 s@v2 --no-charts");
        INFO(r.err);
        CHECK(r.exit_code == 1);
        // Line 2: the first row after the header.
        CHECK(contains(r.err, "out/s/v2/cases.csv:2: column '" + std::string(column) + "': '" +
                                  value + "' is not a finite number"));
        // No diff folder (only out/diffs' lock file, which stays).
        for (auto const& entry : fs::directory_iterator(copy / "out/diffs"))
            CHECK(entry.path().filename() == ".lock");
    }
}
