// The limits of language.md ("Limits"): inputs deep enough to overflow a
// recursive parser or checker are one error at the token that crosses a
// limit, and deep-but-legal inputs still check; a --set is one value and
// nothing else; no count beyond what is exact is published. The deep inputs
// are generated here (a few hundred kB at most), so the tests stay fast.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/model/load.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using roofline::test::contains;
using roofline::test::run_roofline;
using roofline::test::Sandbox;

std::string repeat(std::string const& text, std::size_t n) {
    std::string out;
    out.reserve(text.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += text;
    return out;
}

// `hardware h0 extends h1 {}` ... down to a root h<n> with a bandwidth: n
// definitions extend others. Written base-last, or base-first.
std::string hardware_chain(std::size_t n, bool base_first) {
    std::string root = "hardware h" + std::to_string(n) + " { hbm_bandwidth = 1 TB/s }\n";
    std::string chain;
    for (std::size_t i = 0; i < n; ++i) {
        std::string line = "hardware h" + std::to_string(i) + " extends h" + std::to_string(i + 1) + " {}\n";
        chain = base_first ? line + chain : chain + line;
    }
    return base_first ? root + chain : chain + root;
}

// `template t0() { use t1 }` ... `template t<n>() { let X = 1 }`, and a use
// of t0: n + 1 instances inside each other.
std::string template_chain(std::size_t n) {
    std::string text = "use t0\n";
    for (std::size_t i = 0; i < n; ++i)
        text += "template t" + std::to_string(i) + "() { use t" + std::to_string(i + 1) + " }\n";
    return text + "template t" + std::to_string(n) + "() { let X = 1 }\n";
}

// `let a1 = 1`, `let a2 = a1 + 1`, ...
std::string let_chain(std::size_t n) {
    std::string text = "let a1 = 1\n";
    for (std::size_t i = 2; i <= n; ++i)
        text += "let a" + std::to_string(i) + " = a" + std::to_string(i - 1) + " + 1\n";
    return text;
}

double constant_of(roofline::test::Checked const& checked, std::string const& name) {
    for (auto const& slot : checked.scenario.slots)
        if (slot.name == name) return slot.constant;
    FAIL("no value " << name);
    return 0;
}

// The first line of each diagnostic, as printed.
std::vector<std::string> first_lines(roofline::test::Checked const& checked) {
    std::vector<std::string> lines;
    for (auto const& d : checked.diagnostics.all()) {
        auto text = roofline::format(d);
        lines.push_back(text.substr(0, text.find('\n')));
    }
    return lines;
}

std::string const too_deep = "error: expression nested too deeply (more than 256 levels)";

}  // namespace

// --- defect 1: deep inputs ----------------------------------------------------

TEST_CASE("limits: 31,000 unary minus signs are one error at the 257th", "[limits]") {
    auto checked = roofline::test::check_text("let D = " + std::string(31'000, '-') + "1\nlet E = 2\n");
    CHECK(first_lines(*checked) == std::vector<std::string>{"test.roof:1:265: " + too_deep});
}

TEST_CASE("limits: an expression 256 levels deep is fine, 257 is an error", "[limits]") {
    // 128 brackets and 128 minus signs around the operand, or 256 minus signs.
    auto mixed = [](std::size_t extra) {
        return "let X = " + repeat("(-", 128) + std::string(extra, '-') + "3" +
               std::string(128, ')') + "\n";
    };
    auto ok = roofline::test::check_text(mixed(0) + "let Y = " + std::string(256, '-') + "5\n");
    INFO(ok->errors());
    REQUIRE_FALSE(ok->diagnostics.has_errors());
    CHECK(constant_of(*ok, "X") == 3);  // an even number of minus signs
    CHECK(constant_of(*ok, "Y") == 5);
    auto deep = roofline::test::check_text(mixed(1));
    CHECK(first_lines(*deep) == std::vector<std::string>{"test.roof:1:265: " + too_deep});
    // Each statement counts afresh, and the parser resumes after the error.
    auto again = roofline::test::check_text(mixed(1) + mixed(1) + "let Z = 1\nlet W = Q\n");
    CHECK(first_lines(*again) ==
          std::vector<std::string>{"test.roof:1:265: " + too_deep, "test.roof:2:265: " + too_deep,
                                   "test.roof:4:9: error: unknown name 'Q'"});
}

TEST_CASE("limits: a chain of 19,400 '1^-' and one of 20,000 '^' compile without recursion",
          "[limits]") {
    // 1^-(1^-(1^-...)) is 1 at any depth; 2^(1^(1^...)) is 2.
    auto checked = roofline::test::check_text("let D = " + repeat("1^-", 19'400) + "1\n" +
                                              "let E = 2" + repeat("^1", 20'000) + "\n" +
                                              "let F = 2^-1^-2 * 3 - -2^2\n");
    INFO(checked->errors().substr(0, 2000));
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    CHECK(constant_of(*checked, "D") == 1);
    CHECK(constant_of(*checked, "E") == 2);
    // 2^(-(1^(-2))) * 3 - (-(2^2)) = 2^-1 * 3 + 4
    CHECK(constant_of(*checked, "F") == 5.5);
}

TEST_CASE("limits: a chain of 9,200 hardware definitions is one error at the 65th base",
          "[limits]") {
    // Written base-last (the recursion used to follow it from h0) and base-first.
    for (bool base_first : {false, true}) {
        INFO("base first: " << base_first);
        auto checked = roofline::test::check_text(hardware_chain(9'200, base_first));
        auto lines = first_lines(*checked);
        // h9200 is the root; h9135 would extend 65 definitions (h9136 .. h9200).
        REQUIRE(lines.size() == 1);
        CHECK(contains(lines[0], ": error: hardware 'h9135' extends a chain of more than 64 "
                                 "hardware definitions"));
        CHECK(checked->scenario.find_hardware("h9136") >= 0);
        CHECK(checked->scenario.find_hardware("h9135") < 0);
        CHECK(checked->scenario.find_hardware("h0") < 0);
    }
}

TEST_CASE("limits: a chip may extend a chain of 64 definitions", "[limits]") {
    for (bool base_first : {false, true}) {
        INFO("base first: " << base_first);
        auto checked = roofline::test::check_text(hardware_chain(64, base_first));
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        auto h0 = checked->scenario.find_hardware("h0");
        REQUIRE(h0 >= 0);
        CHECK(checked->scenario.hardware[static_cast<std::size_t>(h0)].hbm_bytes_per_s == 1e12);
        CHECK(checked->scenario.hardware[static_cast<std::size_t>(h0)].base == "h1");
    }
    // Cycles are still found, without recursion.
    auto cycle = roofline::test::check_text(
        "hardware a extends b {}\nhardware b extends c {}\nhardware c extends a {}\n");
    CHECK(first_lines(*cycle) ==
          std::vector<std::string>{"test.roof:3:20: error: hardware 'c' extends itself through 'a'"});
}

TEST_CASE("limits: 8,600 templates using each other are one error at the 65th instance",
          "[limits]") {
    auto checked = roofline::test::check_text(template_chain(8'600));
    // t0 is the first instance (line 2 defines t0), t63's use of t64 the 65th.
    CHECK(first_lines(*checked) ==
          std::vector<std::string>{"test.roof:65:22: error: the instance of template 't64' is nested "
                                   "too deeply (more than 64 layers and template instances inside "
                                   "each other)"});
    auto ok = roofline::test::check_text(template_chain(63));  // 64 instances
    INFO(ok->errors());
    CHECK_FALSE(ok->diagnostics.has_errors());
    // Layers count with instances: 63 layers around the chain's 2 instances.
    auto chain = template_chain(1);  // "use t0\n" and the templates
    auto layers = roofline::test::check_text(repeat("layer l {\n", 63) + "use t0\n" +
                                             std::string(63, '}') + "\n" + chain.substr(7));
    CHECK(first_lines(*layers) ==
          std::vector<std::string>{"test.roof:66:21: error: the instance of template 't1' is nested "
                                   "too deeply (more than 64 layers and template instances inside "
                                   "each other)"});
}

TEST_CASE("limits: a chain of 60,000 lets checks fine", "[limits]") {
    auto checked = roofline::test::check_text(let_chain(60'000));
    INFO(checked->errors().substr(0, 2000));
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    CHECK(constant_of(*checked, "a60000") == 60'000);
}

// `let d1 = d2`, ..., `let dN = fp8`: each let names the next, written
// before it, so that deciding which lets are dtypes must follow the chain
// (once), not go over every let again per link.
TEST_CASE("limits: a chain of 60,000 dtype lets, each naming the next, checks fine",
          "[limits][dtype-sweep]") {
    constexpr std::size_t n = 60'000;
    std::string text = "hardware h { hbm_bandwidth = 1e12 B/s  peak fp8 = 1e15 FLOP/s }\ntarget h\n"
                       "let B = 4\nmatmul q = d1[B] * d1[B] -> d1[]\n";
    for (std::size_t i = 1; i < n; ++i)
        text += "let d" + std::to_string(i) + " = d" + std::to_string(i + 1) + "\n";
    text += "let d" + std::to_string(n) + " = fp8\n";
    auto checked = roofline::test::check_text(text);
    INFO(checked->errors().substr(0, 2000));
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    REQUIRE(checked->scenario.ops.size() == 1);
    auto const& q = checked->scenario.ops[0];
    CHECK(checked->scenario.dtypes[static_cast<std::size_t>(q.inputs[0].dtype.dtype)].name == "fp8");
}

TEST_CASE("limits: the binary exits 1 with one error on each input that used to crash it",
          "[limits][cli]") {
    Sandbox box;
    struct Case {
        std::string file, text, message;
    };
    std::vector<Case> const cases = {
        {"minus.roof", "let D = " + std::string(31'000, '-') + "1\n", "minus.roof:1:265: " + too_deep},
        {"power.roof", "let D = " + repeat("1^-", 19'400) + "1\nlet E = 1 / (D - 1)\n",
         "power.roof:2:11: error: division by zero"},
        {"hardware.roof", hardware_chain(9'200, false),
         "hardware.roof:9136:24: error: hardware 'h9135' extends a chain of more than 64 hardware "
         "definitions"},
        {"templates.roof", template_chain(8'600),
         "templates.roof:65:22: error: the instance of template 't64' is nested too deeply"},
    };
    for (auto const& c : cases) {
        INFO(c.file);
        box.write(c.file, c.text);
        auto r = run_roofline(box.path, "check " + c.file);
        INFO(r.err.substr(0, 2000));
        CHECK(r.exit_code == 1);
        CHECK(r.err.rfind(c.message, 0) == 0);
        CHECK(r.err.find("error:", 1) == r.err.find(": error:") + 2);  // one error
    }
}

// --- defect 2: a --set is one value ----------------------------------------------

namespace {

std::string const set_scenario =
    "hardware h { hbm_bandwidth = 1 TB/s peak bf16 = 1e15 FLOP/s }\n"
    "let D = 1024\nlet F = 2048\nsweep B = [1, 2]\n"
    "matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";

struct SetRun {
    roofline::Diagnostics diagnostics;
    roofline::model::LoadedScenario loaded;
    std::string errors() const { return roofline::format(diagnostics); }
};

std::unique_ptr<SetRun> load_with_sets(std::vector<std::string> const& sets,
                                       roofline::model::SetMode mode = roofline::model::SetMode::replace,
                                       std::string const& text = set_scenario) {
    auto run = std::make_unique<SetRun>();
    run->loaded = roofline::model::load_scenario("x.roof", text, {}, {}, run->diagnostics, sets, mode);
    return run;
}

}  // namespace

TEST_CASE("limits: a --set value followed by a statement is an error at the statement", "[limits]") {
    auto run = load_with_sets({"D=1 target h"});
    CHECK(run->errors() ==
          "<--set D=1 target h>:1:5: error: --set D: expected one value (an expression, a range or "
          "a list), found 'target'\n"
          "D=1 target h\n"
          "    ^~~~~~\n");
    // Not the override of F it used to be: no scenario is checked.
    auto let = load_with_sets({"D=4096 let F = 1"});
    CHECK(let->loaded.scenario.slots.empty());
    CHECK(contains(let->errors(), "<--set D=4096 let F = 1>:1:8: error: --set D: expected one value "
                                  "(an expression, a range or a list), found 'let'\n"));
    CHECK(let->diagnostics.error_count() == 1);
}

TEST_CASE("limits: a --set value is an expression, a range or a list, and nothing else",
          "[limits]") {
    using roofline::model::SetMode;
    auto ok = load_with_sets({"D = 2 * 2048", "B=1 .. 8 times 2", "F=[1, 2]"});
    INFO(ok->errors());
    REQUIRE_FALSE(ok->diagnostics.has_errors());
    auto const& s = ok->loaded.scenario;
    REQUIRE(s.sweeps.size() == 2);
    CHECK(s.sweeps[0].name == "F");  // in the scenario's order: F replaced the let F
    CHECK(s.sweeps[0].values == std::vector<double>{1, 2});
    CHECK(s.sweeps[1].values == std::vector<double>{1, 2, 4, 8});
    for (auto const& slot : s.slots)
        if (slot.name == "D") CHECK(slot.constant == 4096);

    struct Bad {
        std::string set, first_line;
    };
    for (auto const& bad : std::vector<Bad>{
             {"D=", "<--set D=>:1:3: error: --set D: expected one value (an expression, a range or "
                    "a list), found end of value"},
             {"B=[1, 2] [3]", "<--set B=[1, 2] [3]>:1:10: error: --set B: expected one value (an "
                              "expression, a range or a list), found '['"},
             {"B=1..", "<--set B=1..>:1:6: error: --set B: expected an expression, found end of value"},
             {"B=1..8 step", "<--set B=1..8 step>:1:12: error: --set B: expected an expression, "
                             "found end of value"},
             {"F=[1,2", "<--set F=[1,2>:1:7: error: --set F: expected ']', found end of value"},
             {"D=1; let F = 2", "<--set D=1; let F = 2>:1:4: error: --set D: expected one value (an "
                                "expression, a range or a list), found ';'"},
             {"1x=3", "<--set 1x=3>:1:1: error: --set: expected a name before '=', found '1x'"},
             {"let=3", "<--set let=3>:1:1: error: --set: expected a name before '=', found 'let'"},
             {"D=" + std::string(300, '-') + "1",
              "<--set D=" + std::string(300, '-') + "1>:1:259: error: --set D: " + too_deep.substr(7)},
             {"D=x + 1", "<--set D=x + 1>:1:3: error: unknown name 'x'"},
         }) {
        INFO(bad.set);
        auto run = load_with_sets({bad.set});
        auto errors = run->errors();
        CHECK(errors.substr(0, errors.find('\n')) == bad.first_line);
    }
}

TEST_CASE("limits: eval's --set values are sweeps of their own, one value each", "[limits]") {
    using roofline::model::SetMode;
    std::string const text = "hardware h { hbm_bandwidth = 1 TB/s peak bf16 = 1e15 FLOP/s }\n"
                             "matmul eval = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    auto ok = load_with_sets({"B=1..4 times 2", "D=4096", "F=[1, 2]"}, SetMode::define_sweep, text);
    INFO(ok->errors());
    REQUIRE_FALSE(ok->diagnostics.has_errors());
    auto const& sweeps = ok->loaded.scenario.sweeps;
    REQUIRE(sweeps.size() == 3);
    CHECK(sweeps[0].name == "B");
    CHECK(sweeps[1].values == std::vector<double>{4096});
    CHECK(sweeps[2].values == std::vector<double>{1, 2});
    auto injected = load_with_sets({"B=1] sweep D = [4096", "F=1"}, SetMode::define_sweep, text);
    CHECK(contains(injected->errors(), "<--set B=1] sweep D = [4096>:1:4: error: --set B: expected "
                                       "one value (an expression, a range or a list), found ']'\n"));
    CHECK(injected->diagnostics.error_count() == 1);
}

TEST_CASE("limits: run and eval exit 1 on a --set that holds more than a value", "[limits][cli]") {
    Sandbox box;
    box.write("x.roof", set_scenario);
    auto run = run_roofline(box.path, "run x.roof --no-charts --set 'D=1 target h'");
    CHECK(run.exit_code == 1);
    CHECK(run.err == "<--set D=1 target h>:1:5: error: --set D: expected one value (an expression, "
                     "a range or a list), found 'target'\nD=1 target h\n    ^~~~~~\n");
    auto let = run_roofline(box.path, "run x.roof --no-charts --set 'D=4096 let F = 1'");
    CHECK(let.exit_code == 1);
    CHECK(contains(let.err, "found 'let'"));
    CHECK_FALSE(fs::exists(box / "out/x/v1"));
    auto good = run_roofline(box.path, "run x.roof --no-charts --set D=2*2048 --set 'B=[1,8]'");
    INFO(good.err);
    CHECK(good.exit_code == 0);
    CHECK(contains(roofline::test::read_file(box / "out/x/v1/cases.csv"), "up,,1,h,bf16,8,134217728,"));

    auto eval = run_roofline(box.path, "eval 'bf16[B,D] * bf16[D,F] -> bf16[B,F]' --target tpu_v5e "
                                       "--set 'B=1] sweep D = [4096' --set F=1");
    CHECK(eval.exit_code == 1);
    CHECK(contains(eval.err, "<--set B=1] sweep D = [4096>:1:4: error: --set B: expected one value"));
    CHECK(eval.out.empty());
}

// --- defect 3: counts are exact or an error ---------------------------------------

TEST_CASE("limits: an axis of 1e300 is an error, not a report of infinities", "[limits][cli]") {
    Sandbox box;
    box.write("big.roof", "hardware h { hbm_bandwidth = 1 TB/s peak bf16 = 1e15 FLOP/s }\n"
                          "let D = 1e300\nlet F = 1e300\nsweep B = [1, 2]\n"
                          "matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    auto r = run_roofline(box.path, "run big.roof --no-charts");
    CHECK(r.exit_code == 1);
    CHECK(r.err.rfind("big.roof:5:21: error: axis 'D' must be below 2^53 (9007199254740992), but "
                      "D = 1e+300\n",
                      0) == 0);
    CHECK_FALSE(fs::exists(box / "out/big/v1"));
}

TEST_CASE("limits: counts up to 2^64 are published exactly, one more is an error", "[limits]") {
    // 2 * 2^21 * 2^21 * B FLOPs: 2^64 at B = 2^21.
    std::string const text = "hardware h { hbm_bandwidth = 1 TB/s peak bf16 = 1e15 FLOP/s }\n"
                             "let D = 2^21\nlet F = 2^21\nsweep B = [2^21]\n"
                             "matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    auto checked = roofline::test::check_text(text);
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto evaluation = roofline::engine::evaluate(checked->scenario, checked->diagnostics);
    INFO(checked->errors());
    REQUIRE(evaluation);
    CHECK(evaluation->cases.at(0).metrics.counts.flops == 18446744073709551616.0);

    // 4 * 2^21 * 2^21 * 2^20 * K FLOPs: 2^64 at G = 1, 2^65 at G = 2.
    auto over = roofline::test::check_text(
        text + "sweep G = [1, 2]\nlet K = G\nlet M = 2^20\n"
               "elementwise e = bf16[B, D, K, M] -> bf16[B, D, K, M] flops 4\n");
    REQUIRE_FALSE(over->diagnostics.has_errors());
    CHECK_FALSE(roofline::engine::evaluate(over->scenario, over->diagnostics));
    CHECK(first_lines(*over) ==
          std::vector<std::string>{"test.roof:9:13: error: 'e' computes 36893488147419103232 FLOPs; "
                                   "counts above 2^64 (about 1.8e19) are not exact (at B = 2097152, "
                                   "G = 2)"});
}
