// --set and --target on the command line: a repeated --set, an unknown name
// with the names that can be set, and did-you-mean for a chip's short name.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace roofline::test;

namespace {

constexpr char const* scenario =
    "include \"hardware/catalog.roof\"\n"
    "let D = 64\n"
    "let F = 2 * D\n"
    "sweep B = [1, 8]\n"
    "target h100_sxm\n"
    "matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";

}  // namespace

TEST_CASE("cli: --set a name given twice is an error in run and in eval", "[cli][set]") {
    Sandbox box;
    box.write("s.roof", scenario);
    // run used to take the last value silently.
    auto run = run_roofline(box.path, "run s.roof --no-charts --set B=2 --set D=32 --set B=4");
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "<--set B=4>:1:1: error: --set B is given twice; give each name once\n"
                            "B=4\n^\n"
                            "<--set B=2>:1:1: note: the first --set B is here\n"));
    CHECK_FALSE(fs::exists(box / "out"));
    // eval used to say "redefinition of 'B'" about a sweep the user never wrote.
    auto eval = run_roofline(box.path, "eval 'bf16[B, D] * bf16[D, F] -> bf16[B, F]' "
                                       "--set D=64 --set F=64 --set B=1 --set ' B = 2'");
    CHECK(eval.exit_code == 1);
    CHECK(contains(eval.err, "<--set  B = 2>:1:2: error: --set B is given twice; give each name "
                             "once\n"));
    CHECK(contains(eval.err, "<--set B=1>:1:1: note: the first --set B is here\n"));
    CHECK_FALSE(contains(eval.err, "redefinition"));
    // Different names are fine.
    CHECK(run_roofline(box.path, "eval 'bf16[B, D] * bf16[D, F] -> bf16[B, F]' --set D=64 "
                                 "--set F=64 --set B=1 --target h100_sxm")
              .exit_code == 0);
}

TEST_CASE("cli: --set an unknown name lists the names that can be set", "[cli][set]") {
    Sandbox box;
    box.write("s.roof", scenario);
    // The top-level lets and sweeps of the scenario, alphabetically: B, D, F.
    auto r = run_roofline(box.path, "run s.roof --no-charts --set Q=5");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "roofline: error: --set Q: the scenario has no top-level let or sweep "
                          "named 'Q'; the names that can be set are B, D, F\n"));
    // With a near name, the suggestion comes first.
    r = run_roofline(box.path, "run s.roof --no-charts --set DD=5");
    CHECK(contains(r.err, "named 'DD'; did you mean 'D'?; the names that can be set are B, D, F\n"));
}

TEST_CASE("cli: --target a short form of a chip's name suggests the chip", "[cli][suggest]") {
    Sandbox box;
    box.write("s.roof", scenario);
    // 'h100' is one letter from 'h200' but the start of 'h100_sxm' (and
    // 'h100_pcie', which is longer).
    auto r = run_roofline(box.path, "run s.roof --no-charts --target h100");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "unknown hardware 'h100' in --target; did you mean 'h100_sxm'?"));
    r = run_roofline(box.path, "hardware h100");
    CHECK(contains(r.err, "unknown hardware 'h100'; did you mean 'h100_sxm'?"));
}

TEST_CASE("did you mean: a swapped dtype and a misspelt shipped include", "[cli][suggest]") {
    Sandbox box;
    box.write("swap.roof", "include \"hardware/catalog.roof\"\n"
                           "let B = 8\nlet D = 8\nlet F = 8\n"
                           "matmul m = bf61[B, D] * bf16[D, F] -> bf16[B, F]\n");
    auto r = run_roofline(box.path, "check swap.roof");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "swap.roof:5:12: error: unknown dtype 'bf61'; did you mean 'bf16'?"));
    box.write("inc.roof", "include \"hardware/catalg.roof\"\n");
    r = run_roofline(box.path, "check inc.roof");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "inc.roof:1:9: error: cannot find include file 'hardware/catalg.roof' "));
    CHECK(contains(r.err, "; did you mean 'hardware/catalog.roof'?\n"));
}
