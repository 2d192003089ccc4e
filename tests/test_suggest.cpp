// "did you mean": the closest name by optimal string alignment distance, a
// prefix of a longer name, and the files an include may have meant.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/lang/suggest.hpp"

#include <catch2/catch.hpp>

using roofline::closest_name;
using roofline::did_you_mean;
using roofline::test::contains;

TEST_CASE("suggest: two swapped letters are one edit", "[suggest]") {
    // 'bf61' -> 'bf16' swaps '6' and '1': one edit, within the limit of
    // 4 / 3 = 1 (as Levenshtein distance it is 2, and nothing was suggested).
    CHECK(closest_name("bf61", {"fp16", "bf16", "fp8", "int8"}) == std::string("bf16"));
    CHECK(closest_name("hbm_bnadwidth", {"hbm_bandwidth", "hbm_capacity"}) ==
          std::string("hbm_bandwidth"));
    // A swap and another slip: 'fb61' is 2 edits from 'bf16', past the limit 1.
    CHECK_FALSE(closest_name("fb61", {"bf16"}));
}

TEST_CASE("suggest: a prefix of a longer name is a short form of it", "[suggest]") {
    // 'h100' is one letter from 'h200' but the start of 'h100_sxm' and
    // 'h100_pcie': the shorter of these.
    std::vector<std::string_view> chips{"h200", "h100_pcie", "h100_sxm", "b200"};
    CHECK(closest_name("h100", chips) == std::string("h100_sxm"));
    CHECK(closest_name("H100", chips) == std::string("h100_sxm"));  // case-insensitive
    CHECK(did_you_mean("h100", chips) == "; did you mean 'h100_sxm'?");
    // Equal lengths: the first given (the order declared; issue 21 changed
    // this from alphabetical, 'tpu_v5e'). Under 3 letters: no prefix rule
    // ('h1' is 3 edits from every chip, past the limit 0 of a 2-letter name).
    CHECK(closest_name("tpu_v5", {"tpu_v5p", "tpu_v5e", "tpu_v3"}) == std::string("tpu_v5p"));
    CHECK_FALSE(closest_name("h1", chips));
    // A name equal to a candidate is not a suggestion of itself.
    CHECK(closest_name("h200", chips) != std::string("h200"));
}

TEST_CASE("suggest: a misspelt include names the file it may have meant", "[suggest][loader]") {
    auto checked = roofline::test::check_text(
        "include \"hardware/catalg.roof\"\n", {{"hardware/catalog.roof", "let X = 1\n"}});
    CHECK(contains(checked->errors(),
                   "test.roof:1:9: error: cannot find include file 'hardware/catalg.roof' (searched "));
    CHECK(contains(checked->errors(), "; did you mean 'hardware/catalog.roof'?"));
}

TEST_CASE("suggest: a misspelt include of a shipped template, searched on the search path",
          "[suggest][loader]") {
    // The real templates folder on the search path of a text that is no file.
    auto checked = roofline::test::check_with_catalog("include \"hardware/catalg.roof\"\n");
    CHECK(contains(checked->errors(), "; did you mean 'hardware/catalog.roof'?"));
    checked = roofline::test::check_with_catalog("include \"layers/dense.rof\"\n");
    CHECK(contains(checked->errors(), "; did you mean 'layers/dense.roof'?"));
}

TEST_CASE("suggest: every equally close name, in the order given", "[suggest]") {
    // 'fp9' is one substitution from 'fp8' and from 'fp4' (limit 3 / 3 = 1),
    // with the same common prefix 'fp': both, fp8 first as the built-ins
    // declare it (fp16, fp8, ..., int4, fp4).
    CHECK(did_you_mean("fp9", {"fp32", "fp16", "fp8", "int8", "fp4"}) == "; did you mean 'fp8' or 'fp4'?");
    // Three: 'a', 'b' or 'c', as given, each once.
    CHECK(did_you_mean("aa", {"ad", "ab", "ad", "ac"}) == "; did you mean 'ad', 'ab' or 'ac'?");
    CHECK(roofline::joined({"1", "2", "3"}, " and ") == "1, 2 and 3");
    CHECK(roofline::joined({"x"}, " or ") == "x");
    // In a scenario: the values in the order they are let, then the dtypes.
    auto checked = roofline::test::check_text("let Bb = 1\nlet Ba = 2\nlet X = Bc\n");
    CHECK(contains(checked->errors(), "test.roof:3:9: error: unknown name 'Bc'; did you mean 'Bb' or 'Ba'?"));
}

TEST_CASE("suggest: an unknown dtype in --set is one error, with no follow-on", "[suggest][cli]") {
    // The flash scenario passes a softmax on chip between kernel members whose
    // dtypes come from wdt: a bad wdt used to add "'softmax' writes an on-chip
    // tensor that no later member of kernel 'flash' reads".
    roofline::test::Sandbox box;
    auto r = roofline::test::roofline_in(
        box, "run " + std::string(ROOFLINE_SOURCE_DIR) +
                 "/scenarios/llama3-8b-decode-flash.roof --no-charts -q --set wdt=fp9");
    CHECK(r.exit_code == 1);
    CHECK(r.err == "<--set wdt=fp9>:1:5: error: unknown name 'fp9'; did you mean 'fp8' or 'fp4'?\n"
                   "wdt=fp9\n"
                   "    ^~~\n");
}
