// The step of a multi-chip scenario composes serially (issue 21, point 2;
// docs/multichip.md section 6): each op's max(t_math, t_comms, t_onchip),
// then its collectives' t_net, unless written `overlapped`; and a step with
// an unsupported case is unsupported, never a smaller number (point 1).
// Every expected value is worked out here from the formulas.
#include "command.hpp"
#include "helpers.hpp"
#include "stepped.hpp"

#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace roofline;
using Catch::Matchers::WithinRel;
using test::stepped;

namespace {

// Llama 3 70B's MLP on the 8 GPUs of one H100 board (Megatron: the
// column-parallel `up`, then the row-parallel `down` and its AllReduce of
// B x D bf16), at B = 1, 64 and 1024.
std::string megatron(char const* down_suffix = "") {
    return std::string(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }
        target h100
        mesh tp = 8 over nvlink
        let D = 8192
        let F = 28672
        sweep B = [1, 64, 1024]
        tokens = B
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        matmul down = bf16[B, F@tp] * weight bf16[F@tp, D] -> bf16[B, D])")
        .append(down_suffix);
}

// Per GPU, F / 8 = 3584 columns of each weight; bf16 is 2 bytes.
struct Mlp {
    double t_math, t_comms, t_net;
    explicit Mlp(double B) {
        double const D = 8192, F8 = 28672 / 8.0;
        t_math = 2 * B * D * F8 / 9.89e14;                  // up and down alike
        t_comms = 2 * (B * D + D * F8 + B * F8) / 3.35e12;  // up and down alike
        // AllReduce = 2 x AllGather of V = B D 2 bytes over N = 8: bandwidth
        // 2 x 7/8 x V / 450 GB/s, floor 2 x 7 steps of nvlink_latency = 1 us.
        t_net = std::max(2 * (7.0 / 8) * B * D * 2 / 450e9, 2 * 7 * 1e-6);
    }
    double roof() const { return std::max(t_math, t_comms); }
    double serial() const { return 2 * roof() + t_net; }
    double overlapped() const { return roof() + std::max(roof(), t_net); }
};

}  // namespace

TEST_CASE("the Megatron MLP on 8 H100s: the AllReduce after the row-parallel matmul, by hand",
          "[serial][multichip]") {
    auto s = stepped(megatron());
    std::vector<double> const batches = {1, 64, 1024};
    for (std::size_t p = 0; p < batches.size(); ++p) {
        double const B = batches[p];
        INFO("B = " << B);
        Mlp const mlp(B);
        auto const& down = s->metrics("down", p);
        CHECK_THAT(down.t_net, WithinRel(mlp.t_net, 1e-15));
        CHECK(down.t_net_serial == down.t_net);
        CHECK_THAT(down.t_step, WithinRel(mlp.roof() + mlp.t_net, 1e-15));
        auto const step = s->step(p);
        CHECK_FALSE(step.unsupported);
        CHECK_THAT(step.t_lower, WithinRel(mlp.serial(), 1e-15));
        CHECK_THAT(step.t_overlapped, WithinRel(mlp.overlapped(), 1e-15));
        CHECK_THAT(step.tokens_per_s, WithinRel(B / mlp.serial(), 1e-15));
        // The network's share of the step is the AllReduce's time.
        CHECK_THAT(step.network_share, WithinRel(mlp.t_net / mlp.serial(), 1e-12));
    }
    // B = 1: both matmuls read their weights (17.5 us each) and the
    // AllReduce sits at its 14 us floor: 49.1 us serial, 35.1 us overlapped.
    CHECK_THAT(s->step(0).t_lower, WithinRel(2 * 2 * 29371904 / 3.35e12 + 14e-6, 1e-15));
    // B = 1024: compute-bound matmuls (60.8 us each) and a 65.2 us AllReduce
    // over bandwidth: the serial step is 47 % above the overlapped one.
    double const B = 1024, t_math = 2 * B * 8192 * 3584 / 9.89e14, t_net = 2 * 0.875 * B * 8192 * 2 / 450e9;
    CHECK_THAT(s->step(2).t_lower, WithinRel(2 * t_math + t_net, 1e-15));
    CHECK_THAT(s->step(2).t_overlapped, WithinRel(t_math + t_net, 1e-15));
}

TEST_CASE("`overlapped`: a fused collective matmul hides its AllReduce under its own time",
          "[serial][multichip]") {
    auto s = stepped(megatron(" overlapped"));
    for (std::size_t p = 0; p < 3; ++p) {
        Mlp const mlp(std::vector<double>{1, 64, 1024}[p]);
        CHECK(s->metrics("down", p).t_net_serial == 0);
        CHECK_THAT(s->step(p).t_lower, WithinRel(mlp.overlapped(), 1e-15));
        CHECK(s->step(p).t_lower == s->step(p).t_overlapped);
    }
}

TEST_CASE("`overlapped` on an op without a collective is a warning", "[serial][multichip]") {
    auto checked = test::check_text(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s }
        target h100
        mesh tp = 8 over nvlink
        let B = 4
        let D = 8192
        let F = 28672
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp] overlapped)");
    CHECK_FALSE(checked->diagnostics.has_errors());
    CHECK(checked->errors().find("'up' is written overlapped, but it has no collective to overlap") !=
          std::string::npos);
}

TEST_CASE("one chip: the step is the sum of count x t_lower, as before", "[serial]") {
    auto s = stepped(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s }
        target h100
        sweep B = [1, 4096]
        let D = 8192
        let F = 8192
        matmul m = bf16[B, D] * weight bf16[D, F] -> bf16[B, F])");
    // B = 4096: t_math = 2 x 4096 x 8192^2 / 9.89e14 = 555.8 us, above
    // t_comms = 2 x (2 x 4096 x 8192 + 8192^2) / 3.35e12 = 80.1 us.
    CHECK_THAT(s->step(1).t_lower, WithinRel(2 * 4096.0 * 8192 * 8192 / 9.89e14, 1e-15));
    CHECK(s->step(1).t_lower == s->step(1).t_overlapped);
}

TEST_CASE("a step with an unsupported case is unsupported, and the Plan skips it with the reason",
          "[serial][plan]") {
    // `old` has no fp8 peak: its fp8 matmul is unsupported, so its whole step
    // is; on `new` the step is the matmul (fp8, 1 byte) plus the norm (bf16).
    auto s = stepped(R"(
        hardware old { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 450 GB/s }
        hardware new { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s  nvlink_bandwidth = 450 GB/s }
        target old, new
        mesh tp = 2 over nvlink
        sweep B = [1, 2]
        tokens = B
        let D = 4096
        let F = 4096
        matmul m = fp8[B, D] * weight fp8[D, F@tp] -> bf16[B, F@tp]
        elementwise norm = bf16[B, D] -> bf16[B, D])");
    for (std::size_t p = 0; p < 2; ++p) {
        auto const old_step = s->step(p, 0);
        CHECK(old_step.unsupported);
        CHECK(old_step.unsupported_cases == 1);
        CHECK(std::isnan(old_step.t_lower));
        CHECK(std::isnan(old_step.tokens_per_s));
        double const B = p == 0 ? 1 : 2;
        // new, per GPU: m reads B x 4096 + 4096 x 2048 fp8 bytes and writes
        // B x 2048 bf16 (memory-bound); norm reads and writes B x 4096 bf16.
        double const m_bytes = B * 4096 + 4096.0 * 2048 + B * 2048 * 2, norm_bytes = 2 * B * 4096 * 2;
        CHECK_THAT(s->step(p, 1).t_lower, WithinRel((m_bytes + norm_bytes) / 1e12, 1e-15));
    }
    auto const plan = s->plan();
    REQUIRE(plan.rows.size() == 2);
    CHECK_FALSE(plan.rows[0].chosen);
    CHECK(plan.rows[0].why == "old has no peak for fp8: its steps are unsupported");
    CHECK(plan.rows[1].chosen);
    CHECK(plan.rows[1].best);
}

TEST_CASE("a dtype sweep gets a Plan per dtype", "[serial][plan]") {
    // Memory-bound at both batches: B = 2 doubles the tokens for a few bytes
    // more, so each dtype's pick is B = 2, and both dtypes keep a best row.
    auto s = stepped(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  peak fp8 = 1.979e15 FLOP/s  nvlink_bandwidth = 450 GB/s }
        target h100
        mesh tp = 2 over nvlink
        sweep wdt = [bf16, fp8]
        sweep B = [1, 2]
        tokens = B
        let D = 4096
        let F = 4096
        matmul m = wdt[B, D] * weight wdt[D, F@tp] -> bf16[B, F@tp])");
    auto const plan = s->plan();
    CHECK(plan.dtype_sweeps == std::vector<std::size_t>{0});
    REQUIRE(plan.rows.size() == 2);
    for (auto const& row : plan.rows) {
        CHECK(row.chosen);
        CHECK(row.best);
        CHECK(s->evaluation.sweep_value(row.point, 1) == 2);
    }
    CHECK(s->evaluation.sweep_value(plan.rows[0].point, 0) != s->evaluation.sweep_value(plan.rows[1].point, 0));
}

TEST_CASE("slo t_upper bounds the step with nothing overlapped, slo expected is not there yet",
          "[serial][plan]") {
    auto text = [](char const* slo) {
        return std::string(R"(
            hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s }
            target h100
            mesh tp = 2 over nvlink
            sweep B = [1, 2]
            tokens = B
            let D = 4096
            let F = 4096
            matmul m = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
            )").append(slo);
    };
    // Per GPU at B = 1: t_comms = 2 (4096 + 4096 x 2048 + 2048) / 3.35e12 = 5.012 us,
    // t_math = 2 x 4096 x 2048 / 9.89e14 = 17 ns: t_upper = 5.029 us.
    {
        auto s = stepped(text("slo t_upper <= 5.02 us"));
        CHECK(s->checked->scenario.slo_measure == model::Scenario::SloMeasure::t_upper);
        auto const plan = s->plan();
        REQUIRE(plan.rows.size() == 1);
        CHECK_FALSE(plan.rows[0].chosen);
        CHECK(plan.rows[0].why == "no point meets slo t_upper <= 5.02 µs");
    }
    {
        auto s = stepped(text("slo step <= 5.02 us"));
        CHECK(s->plan().rows[0].chosen);  // step = t_comms = 5.012 us
    }
    auto expected = test::check_text(text("slo expected <= 5 ms"));
    CHECK(expected->errors().find("'slo expected' needs calibrated expected times") != std::string::npos);
    auto misspelt = test::check_text(text("slo stpe <= 5 ms"));
    CHECK(misspelt->errors().find("an slo bounds 'step', 't_upper' or 'expected', not 'stpe'; did you mean 'step'?") !=
          std::string::npos);
}

TEST_CASE("Llama 3 70B decode TP with --set wdt=fp4: unsupported on H100 and H200, no Plan pick there",
          "[serial][plan][cli]") {
    // fp4 has a peak on B200 only (templates/hardware/nvidia.roof): every
    // matmul of H100 and H200 is unsupported, so every step there is, and
    // the Plan picks nothing on them, saying why; B200 keeps its rows.
    test::Sandbox box;
    auto const scenario = std::filesystem::path(ROOFLINE_SOURCE_DIR) / "scenarios" / "llama3-70b-decode-tp.roof";
    auto r = test::run_roofline(box.path, "run " + test::quoted(scenario) + " --set wdt=fp4 --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto const plan = r.out.substr(r.out.find("plan:"));
    for (char const* chip : {"h100_sxm", "h200"}) {
        for (char const* tp : {"1", "2", "4", "8"})
            CHECK(plan.find(std::string("TP = ").append(tp).append(": ").append(chip).append(
                      " has no peak for fp4: its steps are unsupported")) != std::string::npos);
    }
    // The step tables: every H100 and H200 row says unsupported (9 B x 4 TP each).
    auto const steps = r.out.substr(0, r.out.find("plan:"));
    auto const b200 = steps.find("[b200]");
    REQUIRE(b200 != std::string::npos);
    std::size_t unsupported = 0;
    for (std::size_t at = steps.find("unsupported"); at < b200; at = steps.find("unsupported", at + 1))
        ++unsupported;
    CHECK(unsupported == 2 * 36);
    CHECK(steps.find("unsupported", b200) == std::string::npos);
    // Exactly one best row (a table row marked *, not an edge note), on B200.
    std::vector<std::size_t> best_rows;
    for (std::size_t at = plan.find("\n  *"); at != std::string::npos; at = plan.find("\n  *", at + 1)) {
        auto const line = plan.substr(at + 1, plan.find('\n', at + 1) - at - 1);
        if (line.find("value of sweep") == std::string::npos) best_rows.push_back(at);
    }
    REQUIRE(best_rows.size() == 1);
    CHECK(best_rows[0] > plan.find("[b200]"));
}
