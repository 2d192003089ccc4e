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

TEST_CASE("cli: a --set value that breaks a size names the --set", "[cli][set]") {
    Sandbox box;
    box.write("s.roof", scenario);
    // D = 4096.5 is no size: the error is at the axis (line 6, column 21: the D
    // of bf16[B, D]), with a note at the --set.
    auto r = run_roofline(box.path, "run s.roof --no-charts --set D=4096.5");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "s.roof:6:21: error: axis 'D' must be a positive integer, but D = 4096.5\n"));
    CHECK(contains(r.err, "<--set D=4096.5>:1:1: note: 'D' is set by --set\nD=4096.5\n^\n"));
    // A swept value likewise.
    r = run_roofline(box.path, "run s.roof --no-charts --set B=[1,2.5]");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "error: axis 'B' must be a positive integer, but sweep B takes the value 2.5\n"));
    CHECK(contains(r.err, "<--set B=[1,2.5]>:1:1: note: 'B' is set by --set\n"));
    CHECK_FALSE(fs::exists(box / "out"));
}

TEST_CASE("cli: an error inside a shipped template is reported at the user's use, once",
          "[cli][templates]") {
    Sandbox box;
    // Llama 3 8B's decoder with 28 query heads on 5 KV heads: G = 28 / 5 = 5.6
    // query heads per KV head, used by six operands of the attention template.
    box.write("bad.roof",
              "include \"layers/dense.roof\"\n"
              "sweep B = [1, 2]\n"
              "use dense_decode(B = B, S = 8192, D = 4096, H = 28, KV = 5, Hd = 128, F = 14336)"
              " as decoder x 32\n");
    auto r = run_roofline(box.path, "check bad.roof");
    INFO(r.err);
    CHECK(r.exit_code == 1);
    // At the user's line 3, column 5 (the template's name in the use).
    CHECK(contains(r.err, "bad.roof:3:5: error: in layer 'decoder', an instance of template "
                          "'dense_decode': axis 'G' must be a positive integer, but G = 5.6: "
                          "G = H / KV, so H = 28 must be a multiple of KV = 5\n"));
    // Once, not once per operand that uses G.
    auto first = r.err.find("must be a positive integer");
    CHECK(r.err.find("must be a positive integer", first + 1) == std::string::npos);
    // A note into the template, the use in between, and the values given.
    CHECK(contains(r.err, "note: here, in template 'attention' (layer 'decoder/attention')\n"));
    CHECK(contains(r.err, "note: template 'dense_decode' uses 'attention' here\n"));
    CHECK(contains(r.err, "roofline: note: 'dense_decode' (layer 'decoder') got S = 8192, "
                          "D = 4096, H = 28, KV = 5, Hd = 128, F = 14336\n"));
}
