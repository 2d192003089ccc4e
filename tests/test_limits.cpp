// The limits of language.md ("Limits"): inputs deep enough to overflow a
// recursive parser or checker are one error at the token that crosses a
// limit, and deep-but-legal inputs still check. The deep inputs are generated
// here (a few hundred kB at most), so the tests stay fast.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

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
