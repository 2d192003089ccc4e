// `roofline run` end to end, as a user runs it: versions, up-to-date, --force,
// byte-identical outputs, and failures that leave nothing behind.
#include "roofline/output/sha256.hpp"

#include "command.hpp"
#include "published.hpp"
#include "sandbox.hpp"
#include "step_scenario.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using roofline::output::sha256_file;
using namespace roofline::test;  // Sandbox, run_roofline, run_command, read_file

namespace {

std::string const exercises = std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/roofline-exercises.roof";


}  // namespace

TEST_CASE("run: publishes v1 with every part, then says up to date", "[run]") {
    Sandbox box;
    auto first = run_roofline(box.path, "run '" + exercises + "'");
    INFO(first.err);
    REQUIRE(first.exit_code == 0);
    auto report = box / "out" / "roofline-exercises";
    CHECK(first.out.find("published out/roofline-exercises/v1: 8192 cases") != std::string::npos);
    CHECK(first.err.empty());  // no progress bar when stderr is not a terminal
    CHECK(fs::read_symlink(report / "latest") == "v1");
    auto v1 = report / "v1";
    for (auto const* part : {"report.xlsx", "cases.csv", "manifest.json", "inputs/roofline-exercises.roof",
                             "inputs/hardware/tpu.roof", "inputs/hardware/nvidia.roof",
                             "charts/roofline-v5e_book.svg", "charts/roofline-v5e_book.png",
                             "charts/sweep-B-h100_book.svg", "charts/sweep-B-h100_book.png"})
        CHECK(fs::exists(v1 / part));
    check_complete(v1);
    auto manifest = nlohmann::json::parse(read_file(v1 / "manifest.json"));
    CHECK(manifest["tool"] == "roofline");
    CHECK(manifest["report"] == "roofline-exercises");
    CHECK(manifest["version"] == 1);
    CHECK(manifest["cases"] == 8192);  // 8 matmuls x 2 targets x 512
    CHECK(manifest["inputs"].size() == 3);
    CHECK(manifest["created_utc"].get<std::string>().size() == 20);  // 2026-11-30T03:10:27Z
    // 8192 data rows + header in cases.csv.
    auto csv = read_file(v1 / "cases.csv");
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 8193);

    auto second = run_roofline(box.path, "run '" + exercises + "'");
    CHECK(second.exit_code == 0);
    // Up to date: the line, then v1's tables again (issue 21: the line alone before).
    CHECK(second.out ==
          "up to date: out/roofline-exercises/v1\n" + first.out.substr(first.out.find('\n') + 1));
    CHECK_FALSE(fs::exists(report / "v2"));

    auto forced = run_roofline(box.path, "run '" + exercises + "' --force");
    CHECK(forced.exit_code == 0);
    CHECK(fs::read_symlink(report / "latest") == "v2");
    CHECK(read_file(report / "v1" / "cases.csv") == read_file(report / "v2" / "cases.csv"));

    // Different --set values are different inputs: a new version.
    auto narrowed = run_roofline(box.path, "run '" + exercises + "' --set B=1..8");
    INFO(narrowed.err);
    CHECK(narrowed.exit_code == 0);
    CHECK(narrowed.out.find("v3: 128 cases") != std::string::npos);  // 8 x 2 x 8
}

TEST_CASE("run: prints the step of each target after publishing", "[run][steps]") {
    Sandbox box;
    // A step needs tokens; without them run lists the ops one by one (below).
    box.write("steps.roof", std::string(roofline::test::step::scenario).append("tokens = B\n"));
    auto r = run_roofline(box.path, "run steps.roof");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    // step_scenario.hpp by hand: on fast 2.8038e-5, 3.376e-5 and 2.8e-4 s,
    // the t_upper 2.8318e-5, 6.616e-5 and 3.46e-4 s, 14.69% memory-bound at
    // B = 120; on half 5.6076e-5, 6.512e-5 and 2.8e-4 s. tokens/s = B / step
    // to three digits: 1 / 2.8038e-5 = 35,666 is "35.7 k", 120 / 3.376e-5 =
    // 3,554,502 "3.55 M", 1000 / 2.8e-4 = 3,571,429 "3.57 M"; on half 17,833
    // "17.8 k" and 1,842,752 "1.84 M".
    std::string const expected = "published out/steps/v1: 12 cases in ";
    REQUIRE(r.out.rfind(expected, 0) == 0);
    auto tail = r.out.substr(r.out.find('\n') + 1);
    // Uncalibrated: the first line says so, and expected is the step.
    CHECK(tail ==
          "calibration: fast, half uncalibrated (expected = the serial roofline, a lower bound of "
          "what an engine takes)\n"
          "step = sum of count x t_lower over the cases, one chip:\n"
          "expected = sum of count x t_expected + the step's overheads (the step when uncalibrated); "
          "tokens/s = tokens / expected\n"
          "Fast chip [fast]\n"
          "     B     step  expected  t_upper  memory  tokens/s\n"
          "     1    28 \u00b5s     28 \u00b5s  28.3 \u00b5s    100%    35.7 k\n"
          "   120  33.8 \u00b5s   33.8 \u00b5s  66.2 \u00b5s   14.7%    3.55 M\n"
          "  1000   280 \u00b5s    280 \u00b5s   346 \u00b5s      0%    3.57 M\n"
          "half\n"
          "     B     step  expected  t_upper  memory  tokens/s\n"
          "     1  56.1 \u00b5s   56.1 \u00b5s  56.4 \u00b5s    100%    17.8 k\n"
          "   120  65.1 \u00b5s   65.1 \u00b5s  98.7 \u00b5s    100%    1.84 M\n"
          "  1000   280 \u00b5s    280 \u00b5s   412 \u00b5s      0%    3.57 M\n");
    auto v1 = box / "out" / "steps" / "v1";
    for (auto const* part : {"charts/step-B-fast.svg", "charts/step-B-fast.png",
                             "charts/step-B-half.svg", "charts/step-B-half.png"})
        CHECK(fs::exists(v1 / part));
    check_complete(v1);  // the manifest lists the step charts with their hashes
}

TEST_CASE("run: --quiet prints the one published line, errors and warnings only",
          "[run][progress]") {
    Sandbox box;
    box.write("steps.roof", std::string(roofline::test::step::scenario)
                                .append(roofline::test::step::unsupported_op)
                                .append("tokens = B\n"));
    auto r = run_roofline(box.path, "run steps.roof --quiet --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    // "published out/steps/v1: 18 cases in 0.01 s\n" and nothing else.
    CHECK(r.out.rfind("published out/steps/v1: 18 cases in ", 0) == 0);
    CHECK(r.out.size() > 2);
    CHECK(r.out.substr(r.out.size() - 3) == " s\n");
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    // The scenario's warnings (no int8 peak on either chip) as without --quiet.
    auto loud = run_roofline(box.path, "run steps.roof --no-charts -o loud");
    CHECK(r.err.find("warning: hardware 'fast' has no peak for int8") != std::string::npos);
    CHECK(r.err == loud.err);
    CHECK(loud.out.find("step = sum") != std::string::npos);  // the table --quiet leaves out
    auto again = run_roofline(box.path, "run -q steps.roof --no-charts");
    CHECK(again.out == "up to date: out/steps/v1\n");
    CHECK(again.err == loud.err);
    // Errors still go to stderr, and nothing to stdout.
    box.write("bad.roof", "matmul m = bf16[B] * bf16[B] -> bf16[B]\n");
    auto bad = run_roofline(box.path, "run -q bad.roof --no-charts");
    CHECK(bad.exit_code != 0);
    CHECK(bad.out.empty());
    CHECK(bad.err.find("error") != std::string::npos);
}

TEST_CASE("run: on a terminal the progress line names the phases, then is erased",
          "[run][progress][tty]") {
    if (!fs::exists("/usr/bin/script")) {
        WARN("no /usr/bin/script (util-linux): the terminal is not tested");
        return;
    }
    Sandbox box;
    // 100,000 cases: a few seconds, past the second before anything shows.
    box.write("big.roof",
              "hardware h { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\ntarget h\n"
              "sweep B = 1..100000\nlet D = 1000\nlet F = 1000\n"
              "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    // script gives the command a terminal and prints what the terminal got.
    auto on_tty = [&](std::string const& args) {
        return run_command(std::string("cd ")
                               .append(quoted(box.path))
                               .append(" && /usr/bin/script -qec \"")
                               .append(quoted(ROOFLINE_BINARY))
                               .append(" " + args + "\" /dev/null"));
    };
    auto r = on_tty("run big.roof --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto published = r.out.find("published out/big/v1: 100000 cases in ");
    REQUIRE(published != std::string::npos);
    std::string progress = r.out.substr(0, published);
    // Redrawn in place (\r), each drawing the phases under way by name (the
    // pass may be over within the first second; compressing the workbook not).
    CHECK(progress.find("\rwriting workbook ") != std::string::npos);
    for (std::size_t at = 0; (at = progress.find('\r', at)) != std::string::npos; ++at) {
        auto drawing = progress.substr(at + 1, progress.find('\r', at + 1) - at - 1);
        INFO(drawing);
        bool known = drawing.find_first_not_of(' ') == std::string::npos;  // the erasing
        for (auto const* phase : {"evaluating ", "writing workbook ", "CSV ", "publishing"})
            known = known || drawing.rfind(phase, 0) == 0;
        CHECK(known);
    }
    CHECK(progress.find('\n') == std::string::npos);  // one line, never scrolled
    // Erased before the result: blanks over it, back to the line's start.
    CHECK(progress.size() > 2);
    CHECK(progress.back() == '\r');
    CHECK(progress.find_last_not_of(" \r") < progress.rfind("\r ", progress.size() - 2));

    // --quiet on the same terminal: the published line only (\r\n: the terminal's).
    auto quiet = on_tty("run big.roof --no-charts --force -q");
    CHECK(quiet.out.rfind("published out/big/v2: 100000 cases in ", 0) == 0);
    CHECK(quiet.out.find('\r') == quiet.out.size() - 2);
}

TEST_CASE("run: without a tokens statement prints each op, not a step", "[run][steps]") {
    Sandbox box;
    box.write("ops.roof", roofline::test::step::scenario);
    auto r = run_roofline(box.path, "run ops.roof --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto tail = r.out.substr(r.out.find('\n') + 1);
    CHECK(tail.rfind("calibration: fast, half uncalibrated (expected = the serial roofline, a lower "
                     "bound of what an engine takes)\n"
                     "each op on its own, one chip (no tokens statement: a sum of these ops is "
                     "no step):\nFast chip [fast]\n",
                     0) == 0);
    CHECK(tail.find("step = sum") == std::string::npos);
    // proj on fast: 2.004e-6 s at B = 1, 2e-5 s at B = 1000, critical_B 125
    // (step_scenario.hpp; the columns are checked in test_steps.cpp).
    CHECK(tail.find("attn/proj") != std::string::npos);
    CHECK(tail.find("125\n") != std::string::npos);
}

TEST_CASE("run: identical inputs give byte-identical cases.csv and report.xlsx", "[run]") {
    Sandbox box;
    REQUIRE(run_roofline(box.path, "run '" + exercises + "' -o a").exit_code == 0);
    REQUIRE(run_roofline(box.path, "run '" + exercises + "' -o b").exit_code == 0);
    for (auto const* part : {"cases.csv", "report.xlsx"}) {
        INFO(part);
        CHECK(sha256_file((box / "a/roofline-exercises/v1" / part).string()) ==
              sha256_file((box / "b/roofline-exercises/v1" / part).string()));
    }
}

TEST_CASE("run: an error part-way leaves no version and earlier ones untouched", "[run]") {
    Sandbox box;
    auto scenario = box.write("bad.roof", R"(
hardware h { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
sweep B = 1 .. 8
let D = 64
matmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]
let D2 = 128
)");
    REQUIRE(run_roofline(box.path, "run bad.roof --no-charts").exit_code == 0);
    auto before = sha256_file((box / "out/bad/v1/cases.csv").string());
    // Now D2 divides by B - 4: division by zero at B = 4 (and 64 elsewhere),
    // found while the cases are written.
    box.write("bad.roof", R"(
hardware h { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
sweep B = 1 .. 8
let D = 64
matmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]
let D2 = 64 + 64 / (B - 4) * 0
)");
    auto failed = run_roofline(box.path, "run bad.roof --no-charts");
    CHECK(failed.exit_code == 1);
    CHECK(failed.err.find("bad.roof:6:18: error: division by zero (at B = 4)") != std::string::npos);
    std::vector<std::string> names;
    for (auto const& entry : fs::directory_iterator(box / "out/bad"))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{".lock", "latest", "v1"});
    CHECK(sha256_file((box / "out/bad/v1/cases.csv").string()) == before);
}

TEST_CASE("run: an unwritable output folder is an I/O failure (exit 3)", "[run]") {
    Sandbox box;
    box.write("blocker", "a file, not a folder");
    auto r = run_roofline(box.path, "run '" + exercises + "' -o blocker/out");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("roofline: error: cannot create") != std::string::npos);
}

TEST_CASE("run: without gnuplot it fails clearly unless --no-charts", "[run]") {
    Sandbox box;
    auto r = run_roofline(box.path, "run '" + exercises + "'", "env PATH=/nonexistent");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("gnuplot") != std::string::npos);
    CHECK_FALSE(fs::exists(box / "out/roofline-exercises/v1"));
    auto without =
        run_roofline(box.path, "run '" + exercises + "' --no-charts", "env PATH=/nonexistent");
    CHECK(without.exit_code == 0);
    CHECK_FALSE(fs::exists(box / "out/roofline-exercises/v1/charts"));
}

// Runs killed with SIGKILL, failing disks and concurrent runs: test_faults.cpp.

TEST_CASE("run: --no-charts is part of up to date, and recorded in the manifest", "[run][uptodate]") {
    Sandbox box;
    box.write("small.roof", "include \"hardware/catalog.roof\"\nsweep B = [1, 8]\nlet D = 64\n"
                            "target h100_sxm\nmatmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]\n"
                            "let D2 = D\n");
    auto report = box / "out" / "small";
    auto r = run_roofline(box.path, "run small.roof --no-charts");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(fs::exists(report / "v1" / "charts"));
    CHECK(nlohmann::json::parse(read_file(report / "v1" / "manifest.json"))["charts"] == false);
    // Without --no-charts the report is another one (it used to say "up to
    // date" and keep the report without charts).
    r = run_roofline(box.path, "run small.roof");
    CHECK(r.out.rfind("published out/small/v2: ", 0) == 0);
    CHECK(fs::exists(report / "v2" / "charts" / "roofline-h100_sxm.svg"));
    CHECK(nlohmann::json::parse(read_file(report / "v2" / "manifest.json"))["charts"] == true);
    CHECK(run_roofline(box.path, "run small.roof").out.rfind("up to date: out/small/v2\n", 0) == 0);
    // The latest is v2, made with charts: --no-charts is a new version again.
    r = run_roofline(box.path, "run small.roof --no-charts");
    CHECK(r.out.rfind("published out/small/v3: ", 0) == 0);
    CHECK(run_roofline(box.path, "run small.roof --no-charts").out.rfind("up to date: out/small/v3\n", 0) == 0);
}

TEST_CASE("run: -I is part of up to date through the files it finds", "[run][uptodate]") {
    Sandbox box;
    fs::create_directories(box / "a");
    fs::create_directories(box / "b");
    box.write("a/width.roof", "let D = 64\n");
    box.write("b/width.roof", "let D = 128\n");
    box.write("inc.roof", "include \"hardware/catalog.roof\"\ninclude \"width.roof\"\n"
                          "let B = 8\nlet F = D\ntarget h100_sxm\n"
                          "matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    CHECK(run_roofline(box.path, "run inc.roof --no-charts -I a").out.rfind("published out/inc/v1", 0) == 0);
    CHECK(run_roofline(box.path, "run inc.roof --no-charts -I a").out.rfind("up to date: out/inc/v1\n", 0) == 0);
    // Another folder, another width.roof: another report.
    auto r = run_roofline(box.path, "run inc.roof --no-charts -I b");
    CHECK(r.out.rfind("published out/inc/v2", 0) == 0);
    CHECK(read_file(box / "out/inc/v2/inputs/width.roof") == "let D = 128\n");
    // The same files found through two folders are the same inputs.
    CHECK(run_roofline(box.path, "run inc.roof --no-charts -I b -I a").out.rfind("up to date: out/inc/v2\n", 0) == 0);
}
