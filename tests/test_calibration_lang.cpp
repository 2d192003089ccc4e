// `calibration NAME for HW { ... }` and `target HW with NAME` (docs/language.md,
// 9.8; docs/calibration.md, section 1): parsed and checked into
// model::Calibration, every value in SI base units (seconds, plain
// fractions), and Scenario::target_calibrations. Each error at its line and
// column, counted by hand in the texts below.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using test::contains;

namespace {

// Lines 1 to 3: two chips and an alias; what a test adds starts at line 4.
std::string const head =
    "hardware h100_sxm { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s }\n"
    "hardware b200 { hbm_bandwidth = 8e12 B/s  peak bf16 = 2.25e15 FLOP/s }\n"
    "alias h100 = h100_sxm\n";

// The contract's example (docs/calibration.md), at lines 4 to 19.
std::string const full =
    "calibration trtllm_h100 for h100_sxm {\n"
    "    source = \"serving-train.csv sha256 3f2a..., 604 rows, fitted 2026-12-03\"\n"
    "    efficiency gemm bf16 = 0.78           # e_math\n"
    "    efficiency gemm fp8 = 0.66\n"
    "    efficiency attention bf16 = 0.5\n"
    "    efficiency attention hbm = 0.67       # e_hbm\n"
    "    efficiency hbm = 0.88                 # every other class\n"
    "    efficiency onchip = 0.9\n"
    "    efficiency network = 0.8\n"
    "    latency allreduce nvlink = 14 us\n"
    "    launch = 4 us\n"
    "    step_overhead = 0.9 ms\n"
    "    layer_overhead = 40 us\n"
    "    sequence_overhead = 20 us\n"
    "    stream_overhead = 30 us\n"
    "    admission_wait = 0.05\n"
    "    first_token_steps = 1.5\n"
    "    prompt_token_overhead = 12 ns\n"
    "    request_launch = 25 us\n"
    "    cold_start = 0.1\n"
    "}\n";

// The first error's full text (file:line:col: error: message) is among the errors.
void expect_error(std::string const& text, std::string const& expected,
                  std::vector<std::pair<std::string, std::string>> const& files = {}) {
    auto checked = test::check_text(text, files);
    INFO(checked->errors());
    CHECK(checked->diagnostics.has_errors());
    CHECK(contains(checked->errors(), expected));
}

}  // namespace

TEST_CASE("calibration: a full block, every value in SI units", "[calibration-lang]") {
    auto checked = test::check_text(head + full + "target h100_sxm with trtllm_h100, b200\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    REQUIRE(s.calibrations.size() == 1);
    auto const& c = s.calibrations[0];
    CHECK(c.name == "trtllm_h100");
    CHECK(c.hardware == "h100_sxm");
    CHECK(c.source == "serving-train.csv sha256 3f2a..., 604 rows, fitted 2026-12-03");
    using model::OpClass;
    CHECK(c.e_math(OpClass::gemm, "bf16") == 0.78);
    CHECK(c.e_math(OpClass::gemm, "fp8") == 0.66);
    CHECK(c.e_math(OpClass::attention, "bf16") == 0.5);
    CHECK(c.e_math(OpClass::attention, "fp8") == 1);  // not given: 1
    CHECK(c.e_math(OpClass::elementwise, "bf16") == 1);
    CHECK(c.math.size() == 3);
    CHECK(c.e_hbm(OpClass::attention) == 0.67);
    CHECK(c.e_hbm(OpClass::gemm) == 0.88);  // `efficiency hbm`: every class not given its own
    CHECK(c.e_hbm(OpClass::collective) == 0.88);
    CHECK(c.e_onchip() == 0.9);
    CHECK(c.e_network() == 0.8);
    // 14 us = 14 / 1e6 s = 1.4e-5 s; 4 us = 4e-6 s; 0.9 ms = 9e-4 s; 40 us =
    // 4e-5 s; 20 us = 2e-5 s.
    REQUIRE(c.latencies.size() == 1);
    CHECK(c.latencies[0].kind == model::CollectiveKind::allreduce);
    CHECK(c.latencies[0].link == model::Link::nvlink);
    CHECK(c.latencies[0].seconds == 1.4e-5);
    CHECK(c.latency(model::CollectiveKind::allreduce, model::Link::nvlink) == 1.4e-5);
    CHECK_FALSE(c.latency(model::CollectiveKind::allgather, model::Link::nvlink));
    CHECK(c.launch_s == 4e-6);
    CHECK(c.step_overhead_s == Approx(9e-4).epsilon(1e-15));
    CHECK(c.layer_overhead_s == 4e-5);
    CHECK(c.sequence_overhead_s == 2e-5);
    CHECK(c.stream_overhead_s == 3e-5);
    CHECK(c.admission_wait == 0.05);  // steps per sequence in flight: no unit
    CHECK(c.cold_start == 0.1);       // a share of the measured requests: no unit
    CHECK(c.first_token_steps == 1.5);  // steps: no unit
    CHECK(c.prompt_token_overhead_s == Approx(1.2e-8).epsilon(1e-15));  // 12 ns = 12 / 1e9 s
    CHECK(c.request_launch_s == Approx(2.5e-5).epsilon(1e-15));         // 25 us = 25 / 1e6 s
    // The targets in order: h100_sxm calibrated, b200 not.
    REQUIRE(s.targets.size() == 2);
    CHECK(s.hardware[static_cast<std::size_t>(s.targets[0])].id == "h100_sxm");
    CHECK(s.target_calibrations == std::vector<int>{0, -1});
    CHECK(s.calibration_of_target(0) == &c);
    CHECK(s.calibration_of_target(1) == nullptr);
    // Where each was written: the name at 4:13, a setting at its key.
    CHECK(c.span.offset == head.size() + 12);
    CHECK(c.math[0].span.offset == head.size() + full.find("efficiency gemm bf16"));
}

TEST_CASE("calibration: the expert class, its own factors or gemm's", "[calibration-lang]") {
    auto checked = test::check_text(head +
                                    "calibration own for h100 {\n"
                                    "    efficiency gemm bf16 = 0.8\n"
                                    "    efficiency expert bf16 = 0.4\n"
                                    "    efficiency gemm hbm = 0.9\n"
                                    "    efficiency expert hbm = 0.6\n"
                                    "}\n"
                                    "calibration borrowed for h100 {\n"
                                    "    efficiency gemm bf16 = 0.8\n"
                                    "    efficiency gemm hbm = 0.9\n"
                                    "    efficiency hbm = 0.7\n"
                                    "}\n"
                                    "target h100 with own\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    using model::OpClass;
    auto const& own = checked->scenario.calibrations[0];
    CHECK(own.e_math(OpClass::expert, "bf16") == 0.4);
    CHECK(own.e_hbm(OpClass::expert) == 0.6);
    CHECK(own.e_math(OpClass::gemm, "bf16") == 0.8);
    // Without its own, an expert GEMM runs at gemm's factors (not at
    // `efficiency hbm`, the other classes' default).
    auto const& borrowed = checked->scenario.calibrations[1];
    CHECK(borrowed.e_math(OpClass::expert, "bf16") == 0.8);
    CHECK(borrowed.e_math(OpClass::expert, "fp8") == 1);
    CHECK(borrowed.e_hbm(OpClass::expert) == 0.9);
    CHECK(borrowed.e_hbm(OpClass::elementwise) == 0.7);
}

TEST_CASE("calibration: defaults, empty blocks, aliases, several targets", "[calibration-lang]") {
    // An empty calibration is the serial roofline: every factor 1, every overhead 0.
    auto checked = test::check_text(head +
                                    "calibration none for h100 { }\n"              // line 4: for an alias
                                    "calibration fast for b200 { launch = 0 s }\n"  // line 5
                                    "calibration unused for b200 {}\n"              // line 6
                                    "target h100 with none, b200 with fast\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    REQUIRE(s.calibrations.size() == 3);
    auto const& none = s.calibrations[0];
    CHECK(none.hardware == "h100_sxm");  // the alias's entry
    CHECK(none.e_math(model::OpClass::gemm, "bf16") == 1);
    CHECK(none.e_hbm(model::OpClass::attention) == 1);
    CHECK(none.e_onchip() == 1);
    CHECK(none.e_network() == 1);
    CHECK(none.launch_s == 0);
    CHECK(none.step_overhead_s == 0);
    CHECK(none.layer_overhead_s == 0);
    CHECK(none.sequence_overhead_s == 0);
    CHECK(none.admission_wait == 0);
    CHECK(none.cold_start == 0);
    CHECK(none.source.empty());
    CHECK(s.target_calibrations == std::vector<int>{0, 1});

    // Without `with`, uncalibrated; the same calibration twice for one target is fine.
    auto plain = test::check_text(head + full + "target h100_sxm\ntarget h100 with trtllm_h100, h100_sxm with trtllm_h100\n");
    INFO(plain->errors());
    REQUIRE_FALSE(plain->diagnostics.has_errors());
    CHECK(plain->scenario.target_calibrations == std::vector<int>{0});
    auto uncalibrated = test::check_text(head + full + "target h100_sxm, b200\n");
    REQUIRE_FALSE(uncalibrated->diagnostics.has_errors());
    CHECK(uncalibrated->scenario.target_calibrations == std::vector<int>{-1, -1});
    // No target statement: every chip a target, none calibrated.
    auto all = test::check_text(head + full);
    REQUIRE_FALSE(all->diagnostics.has_errors());
    CHECK(all->scenario.target_calibrations == std::vector<int>{-1, -1});
}

TEST_CASE("calibration: values are constant expressions, and declared dtypes", "[calibration-lang]") {
    auto checked = test::check_text(head +
                                    "dtype mx = 1 bytes\n"
                                    "let L = 10\n"
                                    "calibration c for b200 {\n"
                                    "    efficiency gemm mx = 0.5 * 1.2\n"
                                    "    efficiency elementwise hbm = 1.5   # a measured kernel may beat the peak\n"
                                    "    layer_overhead = 2 * L us\n"
                                    "    latency alltoall dcn = 1 ms  latency allgather ici = 500 ns\n"
                                    "}\n"
                                    "target b200 with c\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& c = checked->scenario.calibrations.at(0);
    CHECK(c.e_math(model::OpClass::gemm, "mx") == Approx(0.6));
    CHECK(c.e_hbm(model::OpClass::elementwise) == 1.5);
    CHECK(c.layer_overhead_s == 2e-5);
    CHECK(c.latency(model::CollectiveKind::alltoall, model::Link::dcn) == 1e-3);
    CHECK(c.latency(model::CollectiveKind::allgather, model::Link::ici) == 5e-7);
}

TEST_CASE("calibration: in an included file", "[calibration-lang]") {
    auto checked = test::check_text(head + "include \"cal.roof\"\ntarget h100_sxm with trtllm_h100\n",
                                    {{"cal.roof", full}});
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    REQUIRE(checked->scenario.calibrations.size() == 1);
    CHECK(checked->scenario.calibrations[0].e_network() == 0.8);
    CHECK(checked->scenario.target_calibrations == std::vector<int>{0});
    // An error in the included file is reported there (cal.roof's line 2, the value at col 28).
    expect_error(head + "include \"cal.roof\"\n",
                 "cal.roof:2:28: error: an efficiency must be above 0 and at most 1.5, not 2",
                 {{"cal.roof", "calibration c for b200 {\n    efficiency gemm bf16 = 2\n}\n"}});
    // Over the shipped catalog, by its include path.
    auto catalog = test::check_with_catalog("include \"hardware/nvidia.roof\"\n" + full +
                                            "target h100_sxm with trtllm_h100, h200_sxm\n");
    INFO(catalog->errors());
    REQUIRE_FALSE(catalog->diagnostics.has_errors());
    CHECK(catalog->scenario.target_calibrations == std::vector<int>{0, -1});
}

TEST_CASE("calibration: its words stay names elsewhere", "[calibration-lang]") {
    // Scenarios written before calibrations name their values so.
    auto checked = test::check_text(head +
                                    "let launch = 2\nlet latency = 3\nlet efficiency = 4\nlet calibration = 5\n"
                                    "let source = 6\nlet step_overhead = 7\nlet with = 8\nlet for = 9\n"
                                    "let B = launch * latency + efficiency + calibration + source + step_overhead "
                                    "+ with + for\n"
                                    "matmul launch_op = bf16[B, launch] * weight bf16[launch, latency] -> "
                                    "bf16[B, latency]\n"
                                    "target h100_sxm\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    CHECK(checked->scenario.ops.size() == 1);
}

TEST_CASE("calibration: errors at their line and column", "[calibration-lang]") {
    // The hardware after `for`: an entry or an alias (4:19).
    expect_error(head + "calibration c for h10_sxm { }\n",
                 "test.roof:4:19: error: unknown hardware 'h10_sxm'; did you mean 'h100_sxm'?");
    // A name once (5:13), with a note at the first (4:13).
    expect_error(head + "calibration c for b200 { }\ncalibration c for b200 { }\n",
                 "test.roof:5:13: error: redefinition of calibration 'c'\n");
    expect_error(head + "calibration c for b200 { }\ncalibration c for b200 { }\n",
                 "test.roof:4:13: note: previous definition is here");
    // Efficiencies: above 0, at most 1.5 (the value at 5:28).
    std::string const open = "calibration c for b200 {\n";  // line 4
    expect_error(head + open + "    efficiency gemm bf16 = 1.6\n}\n",
                 "test.roof:5:28: error: an efficiency must be above 0 and at most 1.5, not 1.6");
    expect_error(head + open + "    efficiency gemm bf16 = 0\n}\n",
                 "test.roof:5:28: error: an efficiency must be above 0 and at most 1.5, not 0");
    expect_error(head + open + "    efficiency hbm = -0.5\n}\n",
                 "test.roof:5:22: error: an efficiency must be above 0 and at most 1.5, not -0.5");
    expect_error(head + open + "    efficiency network = 0.5 us\n}\n",
                 "test.roof:5:30: error: an efficiency is a fraction of the peak, a plain number, not 'us'");
    expect_error(head + open + "    efficiency onchip = \"high\"\n}\n",
                 "test.roof:5:25: error: 'efficiency onchip' is a number, not a string");
    // A value given twice (6:5), a note at the first (5:5).
    expect_error(head + open + "    efficiency hbm = 0.8\n    efficiency hbm = 0.9\n}\n",
                 "test.roof:6:5: error: 'efficiency hbm' is given twice in calibration 'c'");
    expect_error(head + open + "    efficiency hbm = 0.8\n    efficiency hbm = 0.9\n}\n",
                 "test.roof:5:5: note: first given here");
    expect_error(head + open + "    efficiency gemm bf16 = 0.8\n    efficiency gemm bf16 = 0.8\n}\n",
                 "test.roof:6:5: error: 'efficiency gemm bf16' is given twice in calibration 'c'");
    expect_error(head + open + "    launch = 1 us\n    launch = 2 us\n}\n",
                 "test.roof:6:5: error: 'launch' is given twice in calibration 'c'");
    // Classes and dtypes (5:16, 5:21).
    expect_error(head + open + "    efficiency gem bf16 = 0.7\n}\n",
                 "test.roof:5:16: error: unknown op class 'gem' (the classes are gemm, attention, "
                 "elementwise and expert); did you mean 'gemm'?");
    expect_error(head + open + "    efficiency collective bf16 = 0.7\n}\n",
                 "test.roof:5:16: error: the collective class has no math or HBM efficiency; a collective's "
                 "bandwidth factor is 'efficiency network'");
    expect_error(head + open + "    efficiency collective hbm = 0.7\n}\n",
                 "test.roof:5:16: error: the collective class has no math or HBM efficiency");
    expect_error(head + open + "    efficiency gemm bf61 = 0.7\n}\n",
                 "test.roof:5:21: error: unknown dtype 'bf61'; did you mean 'bf16'?");
    expect_error(head + open + "    efficiency gemm = 0.7\n}\n",
                 "test.roof:5:16: error: 'efficiency gemm' needs a dtype or 'hbm' after the class");
    expect_error(head + open + "    efficiency hbn = 0.7\n}\n",
                 "test.roof:5:16: error: unknown efficiency 'hbn'");
    // Times: a unit of seconds, at least 0 and finite (5:14, 5:16, 5:21).
    expect_error(head + open + "    launch = 4\n}\n",
                 "test.roof:5:14: error: 'launch' is a time: write a unit, e.g. '4 us'");
    expect_error(head + open + "    launch = 4 GB\n}\n",
                 "test.roof:5:16: error: 'launch' is a time (s, ms, us or ns), not 'GB'");
    expect_error(head + open + "    launch = 4 su\n}\n", "did you mean 's'?");
    expect_error(head + open + "    step_overhead = -1 ms\n}\n",
                 "test.roof:5:21: error: 'step_overhead' must be at least 0 and finite, not -1");
    expect_error(head + open + "    latency allreduce nvlink = -1 us\n}\n",
                 "test.roof:5:32: error: 'latency allreduce nvlink' must be at least 0 and finite, not -1");
    // The admission wait: steps, a plain number at least 0 (the unit at
    // 5:24, the value at 5:22).
    expect_error(head + open + "    admission_wait = 5 ms\n}\n",
                 "test.roof:5:24: error: 'admission_wait' is steps per sequence in flight, a plain number, not 'ms'");
    expect_error(head + open + "    admission_wait = -1\n}\n",
                 "test.roof:5:22: error: 'admission_wait' must be at least 0 and finite, not -1");
    expect_error(head + open + "    admission_wai = 1\n}\n", "did you mean 'admission_wait'?");
    // The cold start: a share, a plain number from 0 to 1 (the unit at
    // 5:20, the value at 5:18).
    expect_error(head + open + "    cold_start = 5 ms\n}\n",
                 "test.roof:5:20: error: 'cold_start' is a share of the requests, a plain number, not 'ms'");
    expect_error(head + open + "    cold_start = 1.5\n}\n",
                 "test.roof:5:18: error: 'cold_start' is a share: from 0 to 1, not 1.5");
    expect_error(head + open + "    cold_start = -0.1\n}\n",
                 "test.roof:5:18: error: 'cold_start' is a share: from 0 to 1, not -0.1");
    expect_error(head + open + "    cold_strat = 0.1\n}\n", "did you mean 'cold_start'?");
    // The first token's steps: a plain number at least 0 (the unit at 5:27,
    // the value at 5:25); the two per-request times take a unit (5:29, 5:22).
    expect_error(head + open + "    first_token_steps = 1 ms\n}\n",
                 "test.roof:5:27: error: 'first_token_steps' is steps a first token waits, a plain number, not 'ms'");
    expect_error(head + open + "    first_token_steps = -1\n}\n",
                 "test.roof:5:25: error: 'first_token_steps' must be at least 0 and finite, not -1");
    expect_error(head + open + "    first_token_step = 1\n}\n", "did you mean 'first_token_steps'?");
    expect_error(head + open + "    prompt_token_overhead = 20\n}\n",
                 "test.roof:5:29: error: 'prompt_token_overhead' is a time: write a unit, e.g. '20 us'");
    expect_error(head + open + "    request_launch = -5 us\n}\n",
                 "test.roof:5:22: error: 'request_launch' must be at least 0 and finite, not -5");
    // Latencies: a collective kind and a link (5:13, 5:23).
    expect_error(head + open + "    latency allreduc nvlink = 14 us\n}\n",
                 "test.roof:5:13: error: unknown collective 'allreduc'");
    expect_error(head + open + "    latency allreduce nvlnk = 14 us\n}\n",
                 "test.roof:5:23: error: unknown link 'nvlnk' (ici, nvlink or dcn); did you mean 'nvlink'?");
    expect_error(head + open + "    latency allreduce = 14 us\n}\n",
                 "test.roof:5:5: error: a latency is 'latency KIND LINK = TIME'");
    // Unknown settings and stray words (5:5, 5:12).
    expect_error(head + open + "    lunch = 4 us\n}\n",
                 "test.roof:5:5: error: a calibration has no setting 'lunch'");
    expect_error(head + open + "    lunch = 4 us\n}\n", "did you mean 'launch'?");
    expect_error(head + open + "    launch gemm = 4 us\n}\n",
                 "test.roof:5:12: error: 'launch' takes no words between it and '='");
    expect_error(head + open + "    source = 3\n}\n",
                 "test.roof:5:14: error: the source is text in quotes");
    // Only at the top level (4:11).
    expect_error(head + "layer l { calibration c for b200 { } }\n",
                 "test.roof:4:11: error: 'calibration' is not allowed inside a layer or template");
    // The grammar: `for` after the name (4:15).
    expect_error(head + "calibration c b200 { }\n", "test.roof:4:15: error: expected 'for'");
}

TEST_CASE("calibration: target HW with NAME, errors at NAME", "[calibration-lang]") {
    std::string const cals = "calibration a for b200 { }\ncalibration h for h100_sxm { }\n";  // lines 4, 5
    // For another chip (6:18), a note at the calibration's name (5:13).
    expect_error(head + cals + "target b200 with h\n",
                 "test.roof:6:18: error: calibration 'h' is for hardware 'h100_sxm', not 'b200'");
    expect_error(head + cals + "target b200 with h\n", "test.roof:5:13: note: 'h' is defined here");
    // Through an alias, the entry is compared (6:18).
    expect_error(head + cals + "target h100 with a\n",
                 "test.roof:6:18: error: calibration 'a' is for hardware 'b200', not 'h100_sxm'");
    // Unknown (6:18).
    expect_error(head + cals + "target b200 with aa\n",
                 "test.roof:6:18: error: unknown calibration 'aa'; did you mean 'a'?");
    // One chip, two calibrations (6:31; the first at 6:18).
    std::string const two = cals + "calibration b for b200 { }\n";  // line 6
    expect_error(head + two + "target b200 with a, b200 with b\n",
                 "test.roof:7:31: error: target 'b200' already has calibration 'a'");
    expect_error(head + two + "target b200 with a, b200 with b\n", "test.roof:7:18: note: first given here");
    expect_error(head + two + "target b200 with a\ntarget b200 with b\n",
                 "test.roof:8:18: error: target 'b200' already has calibration 'a'");
    // `with` needs a name (6:17).
    expect_error(head + cals + "target b200 with\n", "test.roof:7:1: error: expected a calibration name");
}

TEST_CASE("calibration: roofline check counts the calibrations", "[calibration-lang][cli]") {
    test::Sandbox box;
    test::write_file(box / "s.roof", head + full + "calibration other for b200 { }\n" +
                                         "target h100_sxm with trtllm_h100, b200\n"
                                         "let M = 4  let K = 8  let N = 16\n"
                                         "matmul m = bf16[M, K] * weight bf16[K, N] -> bf16[M, N]\n");
    auto check = test::roofline_in(box, "check s.roof");
    INFO(check.out << check.err);
    CHECK(check.exit_code == 0);
    CHECK(contains(check.out, "= 2 cases; 2 calibrations, 1 target calibrated"));
}
