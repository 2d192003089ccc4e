// `alias NAME = HW` (docs/language.md, section 3.5): another name for a
// hardware entry, accepted wherever a hardware name is, reported under the
// entry's own id.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using test::contains;

namespace {

// Two chips and a matmul (line 1 is empty: `hardware slow` is line 3, what a
// test appends starts at line 6).
std::string const chips = R"(
hardware fast { hbm_bandwidth = 2e12 B/s  peak bf16 = 2e15 FLOP/s }
hardware slow { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
let M = 8  let K = 8  let N = 8
matmul m = bf16[M, K] * bf16[K, N] -> bf16[M, N]
)";

std::vector<std::string> target_ids(model::Scenario const& s) {
    std::vector<std::string> ids;
    for (int t : s.targets) ids.push_back(s.hardware[static_cast<std::size_t>(t)].id);
    return ids;
}

}  // namespace

TEST_CASE("alias: a target names the entry, once, under the entry's id", "[alias]") {
    auto c = test::check_text(chips + "alias quick = fast\ntarget quick, slow, fast\n");
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    // quick and fast are one chip: two targets, not three.
    CHECK(target_ids(c->scenario) == std::vector<std::string>{"fast", "slow"});
    CHECK(c->scenario.hardware.size() == 2);
    CHECK(c->scenario.find_hardware("quick") == c->scenario.find_hardware("fast"));
    auto e = engine::evaluate(c->scenario, c->diagnostics);
    REQUIRE(e);
    CHECK(e->cases.size() == 2);  // one op x two targets
}

TEST_CASE("alias: a scenario without target evaluates each entry once", "[alias]") {
    auto c = test::check_text(chips + "alias quick = fast\nalias lazy = slow\n");
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    CHECK(target_ids(c->scenario) == std::vector<std::string>{"fast", "slow"});
}

TEST_CASE("alias: --target takes an alias", "[alias]") {
    model::CheckOptions options;
    options.targets = {"lazy"};
    auto c = test::check_text(chips + "alias lazy = slow\ntarget fast\n", {}, options);
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    CHECK(target_ids(c->scenario) == std::vector<std::string>{"slow"});
}

TEST_CASE("alias: an alias of an alias is followed, extends takes an alias", "[alias]") {
    // `late` names `quick` before `quick` is defined: definitions are in any order.
    auto c = test::check_text(chips + R"(
alias late = quick
alias quick = fast
hardware faster extends late { peak bf16 = 4e15 FLOP/s }
target late, faster
)");
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    auto const& s = c->scenario;
    CHECK(s.hardware_aliases.at("late") == "fast");
    CHECK(s.hardware_aliases.at("quick") == "fast");
    CHECK(target_ids(s) == std::vector<std::string>{"fast", "faster"});
    // faster is fast (2e12 B/s) with its own bf16 peak; its base is the entry.
    auto const& faster = s.hardware[static_cast<std::size_t>(s.find_hardware("faster"))];
    CHECK(faster.base == "fast");
    CHECK(faster.hbm_bytes_per_s == 2e12);
    CHECK(*faster.peak_for(3) == 4e15);  // dtype 3 is bf16
    REQUIRE(s.dtypes[3].name == "bf16");
}

TEST_CASE("alias: errors name the problem, with a note at the first definition", "[alias]") {
    SECTION("an unknown hardware, with a suggestion") {
        auto c = test::check_text(chips + "alias quick = fsat\n");
        CHECK(contains(c->errors(), "error: unknown hardware 'fsat'; did you mean 'fast'?"));
    }
    SECTION("the name of a hardware") {
        auto c = test::check_text(chips + "alias slow = fast\n");
        auto errors = c->errors();
        CHECK(contains(errors, "test.roof:6:7: error: redefinition of hardware 'slow' as an alias"));
        CHECK(contains(errors, "test.roof:3:10: note: previous definition is here"));
    }
    SECTION("the name of another alias") {
        auto c = test::check_text(chips + "alias quick = fast\nalias quick = slow\n");
        auto errors = c->errors();
        CHECK(contains(errors, "test.roof:7:7: error: redefinition of alias 'quick'"));
        CHECK(contains(errors, "test.roof:6:7: note: previous definition is here"));
    }
    SECTION("a cycle, once; a target through it adds nothing") {
        auto c = test::check_text(chips + "alias a = b\nalias b = a\ntarget a\n");
        auto errors = c->errors();
        CHECK(contains(errors, "test.roof:7:11: error: aliases form a cycle: a -> b -> a"));
        CHECK(c->diagnostics.error_count() == 1);
    }
    SECTION("inside a layer") {
        auto c = test::check_text(chips + "layer l { alias quick = fast }\n");
        CHECK(contains(c->errors(), "error: 'alias' is not allowed inside a layer or template"));
    }
    SECTION("a target or an extends of an unknown name offers the aliases") {
        auto c = test::check_text(chips + "alias quick = fast\ntarget quack\n");
        CHECK(contains(c->errors(), "error: unknown hardware 'quack'; did you mean 'quick'?"));
    }
}

TEST_CASE("alias: the catalog gives the measured data's chip names", "[alias][catalog]") {
    // The silicon sample's `system` names (shared/measured/README.md).
    auto c = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    INFO(c->errors());
    REQUIRE_FALSE(c->diagnostics.has_errors());
    auto const& s = c->scenario;
    for (auto [name, id] : {std::pair{"h100_sxm", "h100_sxm"}, std::pair{"h200_sxm", "h200"},
                            std::pair{"b200_sxm", "b200"}, std::pair{"b300_sxm", "b300"},
                            std::pair{"gb200", "gb200"}, std::pair{"gb300", "gb300"}}) {
        INFO(name);
        int index = s.find_hardware(name);
        REQUIRE(index >= 0);
        CHECK(s.hardware[static_cast<std::size_t>(index)].id == id);
    }
    CHECK(s.hardware_aliases.size() == 3);
    // No entry twice: every target is a different chip.
    CHECK(s.targets.size() == s.hardware.size());
}

namespace {

// A scenario over the catalog: 2 x 4096^3 FLOPs.
std::string scenario_on(std::string const& target) {
    return "include \"hardware/catalog.roof\"\ntarget " + target +
           "\nlet M = 4096\nlet K = 4096\nlet N = 4096\n"
           "matmul m = bf16[M, K] * bf16[K, N] -> bf16[M, N]\n";
}

}  // namespace

TEST_CASE("alias: check, run and hardware on the command line take an alias", "[alias][cli]") {
    test::Sandbox box;
    // check: `target b200_sxm, b200` is one chip (check takes no --target).
    test::write_file(box / "b200.roof", scenario_on("b200_sxm, b200"));
    auto check = test::roofline_in(box, "check b200.roof");
    CHECK(check.exit_code == 0);
    CHECK(contains(check.out, "ok: 1 matmul x 1 target x 1 sweep point = 1 case"));
    // run: --target replaces the scenario's h100_sxm.
    test::write_file(box / "s.roof", scenario_on("h100_sxm"));
    auto run = test::roofline_in(box, "run s.roof --target b200_sxm");
    REQUIRE(run.exit_code == 0);
    // One row, under the entry's id: b200, not b200_sxm. bf16 at 2.25e15
    // FLOP/s: 2 x 4096^3 = 137,438,953,472 FLOPs / 2.25e15 = 61.08 us.
    CHECK(contains(run.out, "NVIDIA B200 (HGX) [b200]"));
    CHECK(contains(run.out, "61.1 µs"));
    auto cases = test::read_file(box / "out" / "s" / "v1" / "cases.csv");
    CHECK(contains(cases, "\nm,,1,b200,bf16,137438953472,"));
    CHECK_FALSE(contains(cases, "b200_sxm"));
    auto hardware = test::roofline_in(box, "hardware b300_sxm");
    CHECK(hardware.exit_code == 0);
    CHECK(contains(hardware.out, "NVIDIA B300 (HGX, Blackwell Ultra)"));
    auto list = test::roofline_in(box, "hardware");
    CHECK(contains(list.out, "aliases: b200_sxm = b200, b300_sxm = b300, h200_sxm = h200\n"));
    auto bad = test::roofline_in(box, "hardware b300_sx");
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.err, "unknown hardware 'b300_sx'; did you mean 'b300_sxm'?"));
}

TEST_CASE("alias: import --target writes the alias, and the scenario checks", "[alias][cli][import]") {
    // The shapes of Llama 3 8B (meta-llama/Meta-Llama-3-8B's config.json).
    test::Sandbox box;
    test::write_file(box / "config.json", R"({
  "architectures": ["LlamaForCausalLM"], "model_type": "llama",
  "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
  "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256,
  "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "tie_word_embeddings": false,
  "max_position_embeddings": 8192, "torch_dtype": "bfloat16"
})");
    auto imported = test::roofline_in(box, "import config.json --target b200_sxm --target b300_sxm -o m.roof");
    REQUIRE(imported.exit_code == 0);
    CHECK(contains(test::read_file(box / "m.roof"), "target b200_sxm, b300_sxm\n"));
    auto check = test::roofline_in(box, "check m.roof");
    CHECK(check.exit_code == 0);
    CHECK(contains(check.out, " x 2 targets x "));
}

TEST_CASE("alias: the word is contextual, an ordinary name outside the statement", "[alias]") {
    // A matmul named alias (as tests/test_steps.cpp has) beside an alias statement.
    auto c = test::check_text(chips + "alias quick = fast\nlet alias = 2\n"
                                      "matmul alias2 = bf16[M, K] * bf16[K, N] -> bf16[M, N]\n"
                                      "target quick\n");
    INFO(c->errors());
    CHECK_FALSE(c->diagnostics.has_errors());
    auto typo = test::check_text(chips + "alais quick = fast\n");
    CHECK(contains(typo->errors(), "expected a statement, found 'alais'; did you mean 'alias'?"));
}
