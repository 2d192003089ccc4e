// A sweep that sets a mesh axis's size skips the values at which a split
// dimension does not divide (issue 21, point 6; multichip.md section 11):
// one warning at the sweep naming each, an error only when none is left. A
// dimension that another sweep sets is still an error at its point.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

using namespace roofline;

namespace {

// One chip of an NVLink switch of 8; H = 12 heads split over tp = TP.
// 12 = 2^2 x 3 divides over 1, 2, 3, 4 and 6 chips, not over 5, 7 or 8.
std::string head_split(std::string const& sweep) {
    return "hardware gpu { hbm_bandwidth = 1 TB/s  peak bf16 = 100 TFLOP/s\n"
           "               nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }\n"
           "target gpu\n" +
           sweep +
           "\n"
           "mesh tp = TP over nvlink\n"
           "let B = 4\n"
           "let D = 64\n"
           "let H = 12\n"
           "matmul m = bf16[B, D] * bf16[D, H@tp] -> bf16[B, H@tp]\n";
}

}  // namespace

TEST_CASE("a mesh sweep skips the sizes that do not divide, with one warning at the sweep",
          "[multichip][mesh-sweep]") {
    auto checked = test::check_text(head_split("sweep TP = 1 .. 8"));
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    // At the sweep's name, line 4 column 7; each skipped value with its reason.
    CHECK(checked->errors() ==
          "test.roof:4:7: warning: sweep 'TP' skips 5, 7 and 8: a split does not divide there (at TP = "
          "5, 'H' = 12 does not split evenly over tp = 5 chips; at TP = 7, 'H' = 12 does not split "
          "evenly over tp = 7 chips; at TP = 8, 'H' = 12 does not split evenly over tp = 8 chips)\n"
          "sweep TP = 1 .. 8\n"
          "      ^~\n");
    CHECK(checked->scenario.sweeps[0].values == std::vector<double>{1, 2, 3, 4, 6});
    // The rest is evaluated: at TP = 3 each chip computes 12 / 3 = 4 heads,
    // 2 x B x D x 4 = 2 x 4 x 64 x 4 = 2048 FLOPs.
    auto evaluation = engine::evaluate(checked->scenario, checked->diagnostics);
    REQUIRE(evaluation);
    REQUIRE(evaluation->cases.size() == 5);
    bool seen = false;
    for (auto const& c : evaluation->cases)
        if (evaluation->sweep_value(c, 0) == 3) {
            seen = true;
            CHECK(c.metrics.counts.flops == 2048);
        }
    CHECK(seen);
}

TEST_CASE("a mesh sweep with no size left is an error, past 8 values they are counted",
          "[multichip][mesh-sweep]") {
    auto checked = test::check_text(head_split("sweep TP = [5, 7]"));
    CHECK(test::contains(checked->errors(),
                         "test.roof:4:7: error: sweep 'TP' has no value left: it skips 5 and 7: a split "
                         "does not divide there (at TP = 5, 'H' = 12 does not split evenly over tp = 5 "
                         "chips; at TP = 7, 'H' = 12 does not split evenly over tp = 7 chips)\n"));
    // Of 1 .. 24, the divisors of 12 (1, 2, 3, 4, 6, 12) stay; the other 18
    // are skipped: the first 8 named (5, 7, 8, 9, 10, 11, 13, 14), the 10 of
    // 15 .. 24 counted.
    checked = test::check_text(head_split("sweep TP = 1 .. 24"));
    CHECK(test::contains(checked->errors(), "warning: sweep 'TP' skips 5, 7, 8, 9, 10, 11, 13, 14 and 10 "
                                            "more: a split does not divide there (at TP = 5, "));
    CHECK(test::contains(checked->errors(),
                         "at TP = 14, 'H' = 12 does not split evenly over tp = 14 chips; and 10 more)\n"));
    CHECK(checked->scenario.sweeps[0].values == std::vector<double>{1, 2, 3, 4, 6, 12});
}

TEST_CASE("a sweep of a split dimension is still an error at its first point", "[multichip][mesh-sweep]") {
    // B@tp over a fixed mesh of 2: B = 1 does not split. Not a mesh sweep, so
    // no value is skipped (multichip.md section 11: sweep the batch per chip).
    auto checked = test::check_text(
        "hardware gpu { hbm_bandwidth = 1 TB/s  peak bf16 = 100 TFLOP/s\n"
        "               nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }\n"
        "target gpu\n"
        "sweep B = 1 .. 4\n"
        "mesh tp = 2 over nvlink\n"
        "let D = 64\n"
        "let F = 128\n"
        "matmul m = bf16[B@tp, D] * bf16[D, F] -> bf16[B@tp, F]\n");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    CHECK(checked->scenario.sweeps[0].values == std::vector<double>{1, 2, 3, 4});
    CHECK_FALSE(engine::evaluate(checked->scenario, checked->diagnostics));
    CHECK(test::contains(checked->errors(), "error: 'B' = 1 does not split evenly over tp = 2 chips"));
}

TEST_CASE("run: a mesh sweep from --set skips sizes at the --set and evaluates the rest",
          "[multichip][mesh-sweep][cli]") {
    test::Sandbox box;
    box.write("s.roof", head_split("sweep TP = [1, 2]"));
    auto r = test::roofline_in(box, "run s.roof --no-charts -q --set TP=1..6");
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.err, "<--set TP=1..6>:1:1: warning: sweep 'TP' skips 5: a split does not "
                                "divide there (at TP = 5, 'H' = 12 does not split evenly over tp = 5 "
                                "chips)\n"));
    // 1, 2, 3, 4, 6: five cases.
    CHECK(test::contains(r.out, "5 cases"));
    r = test::roofline_in(box, "check s.roof");
    CHECK(r.exit_code == 0);
    box.write("s.roof", head_split("sweep TP = [5, 7]"));
    r = test::roofline_in(box, "check s.roof");
    CHECK(r.exit_code == 1);
    CHECK(test::contains(r.err, "s.roof:4:7: error: sweep 'TP' has no value left"));
}
