// Meshes, sharded operands and collectives (docs/multichip.md) against
// numbers worked out by hand from the ring formulas and the book's problems
// (roofline.md "network communication rooflines", sharding.md pop quiz 2).
#include "helpers.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;
using Catch::Matchers::WithinRel;

namespace {

struct Run {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;

    engine::Case const& find(std::string const& op, std::string const& hw,
                             std::vector<double> const& at = {}) const {
        auto const& s = checked->scenario;
        for (auto const& c : evaluation.cases) {
            if (s.ops[c.op].name != op) continue;
            if (s.hardware[static_cast<std::size_t>(s.targets[c.target])].id != hw) continue;
            bool same = true;
            for (std::size_t v = 0; v < at.size(); ++v)
                same = same && evaluation.sweep_value(c, v) == at[v];
            if (same) return c;
        }
        FAIL("no case " << op << " on " << hw);
        throw;
    }
};

Run run(std::string const& text) {
    Run r;
    r.checked = test::check_text(text);
    INFO(r.checked->errors());
    REQUIRE_FALSE(r.checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r.checked->scenario, r.checked->diagnostics);
    INFO(r.checked->errors());
    REQUIRE(evaluation);
    r.evaluation = std::move(*evaluation);
    return r;
}

std::string errors_of(std::string const& text) {
    auto checked = test::check_text(text);
    if (!checked->diagnostics.has_errors())
        (void)engine::evaluate(checked->scenario, checked->diagnostics);
    return checked->errors();
}

// The roofline chapter's TPU: 1.97e14 bf16 FLOP/s, 4.5e10 B/s one way per ICI link.
constexpr char const* tpu = R"(
hardware tpu { hbm_bandwidth = 8.1e11 B/s  peak bf16 = 1.97e14 FLOP/s  ici_bandwidth = 4.5e10 B/s }
target tpu
)";

}  // namespace

TEST_CASE("roofline.md: a matmul split over 2 chips is compute-bound from D = 8756", "[multichip]") {
    auto r = run(std::string(tpu) + R"(
        mesh X = 2 over ici
        let B = 4096
        let F = 4096
        sweep D = [8192, 8754, 8756, 16384]
        matmul split = bf16[B, D@X] * bf16[D@X, F] -> bf16[B, F])");
    auto const& m = r.find("split", "tpu", {8192}).metrics;
    double B = 4096, F = 4096, D = 8192;
    // Each chip: half of the contraction, partial sums of the whole output.
    CHECK(m.counts.flops == 2 * B * (D / 2) * F);
    CHECK(m.counts.bytes_read == 2 * (B * D / 2 + D / 2 * F));
    CHECK(m.counts.bytes_written == 2 * B * F);
    // An AllReduce over 2 chips on a line: a ReduceScatter and an AllGather,
    // each (N-1)/N V / W, so V / W = 2BF / 4.5e10 with V = 2BF bytes; each
    // chip receives 2 (N-1)/N V = V.
    CHECK(m.net_bytes == 2 * B * F);
    CHECK_THAT(m.t_net, WithinRel(2 * B * F / 4.5e10, 1e-15));
    CHECK(m.bound == engine::Bound::network);
    CHECK(r.evaluation.chips_at(0) == 2);
    CHECK(engine::collective_text(r.checked->scenario, r.checked->scenario.ops[0]) == "allreduce(X)");
    // Compute-bound against the network when 2B(D/2)F / 1.97e14 >= 2BF / 4.5e10,
    // i.e. D/2 >= 4377.8: D = 8756 (the book: "D > 8755"), even, so it splits.
    CHECK(r.find("split", "tpu", {8754}).metrics.bound == engine::Bound::network);
    CHECK(r.find("split", "tpu", {8756}).metrics.bound == engine::Bound::compute);
    CHECK(r.evaluation.critical_value(r.find("split", "tpu", {8192}), 0) == 8756);
}

TEST_CASE("roofline.md: critical D = 8756 for any B large enough for HBM", "[multichip]") {
    auto r = run(std::string(tpu) + R"(
        mesh X = 2 over ici
        let F = 8192
        sweep B = [2048, 8192]
        sweep D = [1024]
        matmul split = bf16[B, D@X] * bf16[D@X, F] -> bf16[B, F])");
    CHECK(r.evaluation.critical_value(r.find("split", "tpu", {2048, 1024}), 1) == 8756);
    CHECK(r.evaluation.critical_value(r.find("split", "tpu", {8192, 1024}), 1) == 8756);
}

TEST_CASE("sharding.md pop quiz 2: AllGather over Y = 4 on a v5e 8 x 4 mesh", "[multichip]") {
    // X = 8, Y = 4 over ICI; 4 is not a multiple of v5e's wraparound 16, so Y
    // is a line: 3 hops of V/4 each at 4.5e10 B/s.
    auto r = run(std::string(tpu) + R"(
        mesh X = 8 over ici, Y = 4 over ici line
        sweep E = [2048, 256]
        sweep F = [8192, 256]
        collective gather = allgather(Y) bf16[E@Y, F] -> bf16[E, F])");
    auto const& big = r.find("gather", "tpu", {2048, 8192}).metrics;
    double V = 2048.0 * 8192 * 2;  // the gathered array, per chip
    CHECK(big.net_bytes == 0.75 * V);
    CHECK_THAT(big.t_net, WithinRel(0.75 * V / 4.5e10, 1e-15));  // 559.24 us (the book: ~560 us)
    CHECK_THAT(big.t_net, WithinRel(559.2405333333333e-6, 1e-12));
    CHECK(big.bound == engine::Bound::network);
    // The collective reads its shard and writes the gathered array.
    CHECK(big.counts.flops == 0);
    CHECK(big.counts.bytes_read == V / 4);
    CHECK(big.counts.bytes_written == V);
    // 256 x 256: 0.75 * 131072 / 4.5e10 = 2.18 us of bandwidth, under the
    // 3 hops of 1 us each: latency-bound, 3 us.
    auto const& small = r.find("gather", "tpu", {256, 256}).metrics;
    CHECK_THAT(small.t_net, WithinRel(3e-6, 1e-15));
    CHECK(r.evaluation.chips_at(0) == 32);
}

TEST_CASE("AllReduce on an ICI ring of 8 and on an NVLink switch of 8", "[multichip]") {
    auto r = run(R"(
        hardware ring8 { hbm_bandwidth = 8.1e11 B/s  peak bf16 = 1.97e14 FLOP/s  ici_bandwidth = 4.5e10 B/s }
        hardware switch8 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }
        target ring8, switch8
        mesh tp = 8 over ici ring
        let B = 8192
        let D = 8192
        collective sum = allreduce(tp) bf16[B, D] -> bf16[B, D])");
    double V = 8192.0 * 8192 * 2;
    auto const& ring = r.find("sum", "ring8").metrics;
    // A ring uses both directions: (N-1)/N V / 2W per pass, two passes.
    CHECK(ring.net_bytes == 2 * 7.0 / 8 * V);
    CHECK_THAT(ring.t_net, WithinRel(2 * (7.0 / 8) * V / (2 * 4.5e10), 1e-15));
}

TEST_CASE("AllReduce over an NVLink switch of 8, latency floor and domain", "[multichip]") {
    auto r = run(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }
        target h100
        mesh tp = TP over nvlink
        sweep TP = [8, 16]
        sweep B = [8192, 1]
        let D = 8192
        collective sum = allreduce(tp) bf16[B, D] -> bf16[B, D])");
    double V = 8192.0 * 8192 * 2;
    auto const& big = r.find("sum", "h100", {8, 8192}).metrics;
    CHECK_THAT(big.t_net, WithinRel(2 * (7.0 / 8) * V / 450e9, 1e-15));  // 522 us
    // One row: 2 x 7/8 x 16384 B / 450 GB/s = 64 ns, under 2 x 7 steps of 1 us.
    CHECK_THAT(r.find("sum", "h100", {8, 1}).metrics.t_net, WithinRel(14e-6, 1e-15));
    // 16 GPUs do not fit on one 8-GPU switch: unsupported, with a warning.
    CHECK(r.find("sum", "h100", {16, 8192}).metrics.bound == engine::Bound::unsupported);
    CHECK(test::contains(r.checked->errors(), "connects at most 8 GPUs over NVLink"));
}

TEST_CASE("an all-to-all over an NVLink switch of 8 (MoE dispatch)", "[multichip]") {
    auto r = run(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }
        target h100
        mesh ep = 8 over nvlink
        let E = 8
        let C = 1024
        let D = 4096
        collective dispatch = alltoall(ep) bf16[E@ep, C, D] -> bf16[E, C@ep, D])");
    auto const& m = r.find("dispatch", "h100").metrics;
    double shard = 1.0 * 1024 * 4096 * 2, V = 8 * shard;  // V: the whole array over ep
    CHECK(m.counts.bytes_read == shard);
    CHECK(m.counts.bytes_written == shard);
    CHECK(m.net_bytes == 7 * V / 64);  // (N-1) V / N^2: each chip keeps 1/8 of its shard
    CHECK_THAT(m.t_net, WithinRel(7 * V / (64 * 450e9), 1e-15));
}

TEST_CASE("a case over two mesh axes at once", "[multichip]") {
    auto r = run(std::string(tpu) + R"(
        mesh X = 4 over ici, Y = 2 over ici
        let B = 1024
        let D = 4096
        let F = 8192
        matmul local = bf16[B@(X, Y), D] * bf16[D, F] -> bf16[B@(X, Y), F]
        collective gather = allgather(X, Y) bf16[B@(X, Y), D] -> bf16[B, D])");
    auto const& local = r.find("local", "tpu").metrics;
    CHECK(local.counts.flops == 2.0 * (1024 / 8) * 4096 * 8192);
    CHECK(local.counts.bytes_read == 2.0 * (128 * 4096 + 4096 * 8192));
    CHECK(local.net_bytes == 0);
    CHECK(local.t_net == 0);
    // Both axes lines (no wraparound): (N-1)/N V over the two axes' links
    // together, N = 8; the hops of the axes add, 3 + 1.
    auto const& gather = r.find("gather", "tpu").metrics;
    double V = 1024.0 * 4096 * 2;
    CHECK(gather.net_bytes == 7.0 / 8 * V);
    CHECK_THAT(gather.t_net, WithinRel(7.0 / 8 * V / (2 * 4.5e10), 1e-15));
}

TEST_CASE("Megatron MLP on H100, tp = 8: memory-bound, then network-bound, never compute-bound",
          "[multichip]") {
    // Llama 3 70B's MLP widths; the row-parallel matmul ends in an AllReduce
    // of B x D bf16 over the 8 GPUs of one NVLink switch.
    auto r = run(R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }
        target h100
        mesh tp = 8 over nvlink
        let D = 8192
        let F = 28672
        sweep B = [309, 310]
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        matmul down = bf16[B, F@tp] * weight bf16[F@tp, D] -> bf16[B, D])");
    // down, per GPU: t_math = 2 B (F/8) D / 9.89e14, t_comms = 2 (B F/8 + F/8 D + B D) / 3.35e12,
    // t_net = 2 (7/8) 2 B D / 4.5e11. t_net > t_comms from B > 309.2;
    // t_net / t_math = 1.75 * 2 * 9.89e14 / (3584 * 4.5e11 * 2) * 2 > 1 for every B.
    for (double B : {309.0, 310.0}) {
        double F8 = 28672 / 8.0, D = 8192;
        double t_math = 2 * B * F8 * D / 9.89e14;
        double t_comms = 2 * (B * F8 + F8 * D + B * D) / 3.35e12;
        double t_net = 2 * (7.0 / 8) * 2 * B * D / 450e9;
        auto const& m = r.find("down", "h100", {B}).metrics;
        CHECK_THAT(m.t_math, WithinRel(t_math, 1e-15));
        CHECK_THAT(m.t_comms, WithinRel(t_comms, 1e-15));
        CHECK_THAT(m.t_net, WithinRel(t_net, 1e-15));
        CHECK(t_net > t_math);
    }
    CHECK(r.find("down", "h100", {309}).metrics.bound == engine::Bound::memory);
    CHECK(r.find("down", "h100", {310}).metrics.bound == engine::Bound::network);
    CHECK(std::isnan(r.evaluation.critical_value(r.find("down", "h100", {309}), 0)));
    CHECK(engine::collective_text(r.checked->scenario, r.checked->scenario.ops[1]) == "allreduce(tp)");
    // The column-parallel matmul does not communicate.
    CHECK(r.find("up", "h100", {309}).metrics.t_net == 0);
    CHECK(engine::collective_text(r.checked->scenario, r.checked->scenario.ops[0]).empty());
    // Each GPU holds an eighth of both weights.
    CHECK(r.evaluation.point_facts[0].weight_bytes == 2 * (8192.0 * 28672 / 8) * 2);
}

TEST_CASE("a mesh of size 1 gives the numbers of one chip, bit for bit", "[multichip]") {
    std::string ops = R"(
        let D = 8192
        let F = 28672
        sweep B = 1 .. 4096 times 2
        matmul up = bf16[B, D] * weight bf16[D, F{tp}] -> bf16[B, F{tp}]
        elementwise act = bf16[B, F{tp}] -> bf16[B, F{tp}] flops 4
        matmul down = bf16[B, F{tp}] * weight bf16[F{tp}, D] -> bf16[B, D])";
    auto with = [&](std::string const& tp) {
        std::string text = ops;
        for (auto at = text.find("{tp}"); at != std::string::npos; at = text.find("{tp}"))
            text.replace(at, 4, tp);
        return text;
    };
    std::string hw = R"(
        hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s }
        target h100
    )";
    auto one = run(hw + with(""));
    auto mesh = run(hw + "mesh tp = 1 over nvlink\n" + with("@tp"));
    REQUIRE(one.evaluation.cases.size() == mesh.evaluation.cases.size());
    for (std::size_t i = 0; i < one.evaluation.cases.size(); ++i) {
        auto const& a = one.evaluation.cases[i].metrics;
        auto const& b = mesh.evaluation.cases[i].metrics;
        INFO("case " << i);
        CHECK(a.counts.flops == b.counts.flops);
        CHECK(a.counts.bytes_read == b.counts.bytes_read);
        CHECK(a.counts.bytes_written == b.counts.bytes_written);
        CHECK(a.t_lower == b.t_lower);
        CHECK(a.t_upper == b.t_upper);
        CHECK(a.bound == b.bound);
        CHECK(b.t_net == 0);
        double ca = one.evaluation.critical_value(one.evaluation.cases[i], 0);
        double cb = mesh.evaluation.critical_value(mesh.evaluation.cases[i], 0);
        CHECK((ca == cb || (std::isnan(ca) && std::isnan(cb))));  // NaN: never, on both
    }
    CHECK(one.evaluation.point_facts[3].weight_bytes == mesh.evaluation.point_facts[3].weight_bytes);
}

TEST_CASE("the book's cases: gathers, slices and reduce-scatters are planned", "[multichip]") {
    auto r = run(std::string(tpu) + R"(
        mesh X = 4 over ici, Y = 2 over ici
        let B = 256
        let D = 1024
        let F = 2048
        matmul case2 = bf16[B, D@X] * bf16[D, F] -> bf16[B, F]
        matmul slice = bf16[B, D] * bf16[D, F] -> bf16[B@X, F]
        matmul scatter = bf16[B, D@X] * bf16[D@X, F] -> bf16[B, F@X]
        matmul gathered = bf16[B@Y, D] * bf16[D, F] -> bf16[B, F]
        let S = 64
        let T = 32
        matmul batch = bf16[B@Y, S, F] * bf16[B@Y, F, T] -> bf16[B@Y, S, T])");
    auto const& ops = r.checked->scenario.ops;
    CHECK(engine::collective_text(r.checked->scenario, ops[0]) == "allgather(X)");
    CHECK(engine::collective_text(r.checked->scenario, ops[1]).empty());
    CHECK(engine::collective_text(r.checked->scenario, ops[2]) == "reducescatter(X)");
    CHECK(engine::collective_text(r.checked->scenario, ops[3]) == "allgather(Y)");
    CHECK(engine::collective_text(r.checked->scenario, ops[4]).empty());
    // Case 2: the lhs is gathered first (V = its whole B x D), then a local matmul.
    auto const& c2 = r.find("case2", "tpu").metrics;
    CHECK(c2.counts.flops == 2.0 * 256 * 1024 * 2048);
    CHECK(c2.net_bytes == 0.75 * 256 * 1024 * 2);
    // A slice taken before the multiply: a quarter of the FLOPs and of the lhs.
    auto const& slice = r.find("slice", "tpu").metrics;
    CHECK(slice.counts.flops == 2.0 * 64 * 1024 * 2048);
    CHECK(slice.counts.bytes_read == 2.0 * (64 * 1024 + 1024 * 2048));
    // Case 3 with a ReduceScatter: V = the whole B x F partial sums, written
    // at that size before the collective.
    auto const& rs = r.find("scatter", "tpu").metrics;
    CHECK(rs.counts.bytes_written == 2.0 * 256 * 2048);
    CHECK(rs.net_bytes == 0.75 * 2 * 256 * 2048);
    CHECK_THAT(rs.t_net, WithinRel(0.75 * 2 * 256 * 2048 / 4.5e10, 1e-15));
    // The output drops B's split: an AllGather of the output (V = B x F).
    CHECK(r.find("gathered", "tpu").metrics.net_bytes == 0.5 * 256 * 2048 * 2);
}

TEST_CASE("misused meshes and shardings are errors at their place", "[multichip]") {
    std::string head = std::string(tpu) + "mesh X = 4 over ici, Y = 2 over ici\nlet B = 256\nlet D = 1024\nlet F = 2048\n";
    CHECK(test::contains(errors_of(head + "matmul m = bf16[B, D@Z] * bf16[D, F] -> bf16[B, F]"),
                         "test.roof:8:22: error: unknown mesh axis 'Z'"));
    CHECK(test::contains(errors_of(head + "matmul m = bf16[B@X, D@X] * bf16[D, F] -> bf16[B, F]"),
                         "error: mesh axis 'X' splits both 'B' and 'D'; a mesh axis splits at most one dimension of an operand"));
    CHECK(test::contains(errors_of(head + "matmul m = bf16[B@X, D] * bf16[D, F@X] -> bf16[B, F]"),
                         "error: mesh axis 'X' splits 'B' of one input and 'F' of the other: the book's case 4, which cannot proceed; gather one of them first, e.g. write bf16[D, F]"));
    CHECK(test::contains(errors_of(head + "elementwise e = bf16[B@X, D] -> bf16[B, D]"),
                         "error: 'B' is split over X here but over nothing in the output"));
    CHECK(test::contains(errors_of(head + "collective c = allgather(X) bf16[B@X, D] -> bf16[B@X, D]"),
                         "error: allgather(X) of bf16[B@X, D] gives bf16[B, D], not bf16[B@X, D]"));
    CHECK(test::contains(errors_of(head + "let G = 6\nmatmul m = bf16[B, G@X] * bf16[G@X, F] -> bf16[B, F]"),
                         "error: 'G' = 6 does not split evenly over X = 4 chips"));
    CHECK(test::contains(errors_of(std::string(tpu) + "let B = 2\nmatmul m = bf16[B@X, B] * bf16[B, B] -> bf16[B, B]"),
                         "error: 'X' is not a mesh axis: the scenario has no mesh"));
    CHECK(test::contains(errors_of(std::string(tpu) + "let X = 2\nmesh X = 2 over ici"),
                         "error: mesh axis 'X' has the name of a value"));
    CHECK(test::contains(errors_of(std::string(tpu) + "mesh X = 2 over nvlink ring"),
                         "error: 'ring' applies to ICI axes only"));
    CHECK(test::contains(errors_of(head + "collective c = allgathr(X) bf16[B@X, D] -> bf16[B, D]"),
                         "error: unknown collective 'allgathr'; did you mean 'allgather'?"));
}

namespace {

// One column-parallel matmul, no collective. Weights 32768 x 32768 bf16 =
// 2,147,483,648 B: more than the 2 GB of HBM on one chip, half of it on 2.
std::string plan_scenario(std::string const& b_values) {
    return R"(
        hardware g { hbm_bandwidth = 1e12 B/s  hbm_capacity = 2 GB  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }
        target g
        sweep TP = [1, 2, 4]
        sweep B = )" + b_values + R"(
        mesh tp = TP over nvlink
        let D = 32768
        let F = 32768
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        tokens = B
        slo step <= 1.075 ms)";
}

// The Plan of an evaluated scenario, as `run` makes it: from the step totals
// of every case.
report::Plan plan_of(report::ReportContext const& context, std::vector<engine::Case> const& cases) {
    report::SummaryBuilder builder(context);
    for (auto const& c : cases) builder.add(c);
    return report::make_plan(context, builder.summary());
}

}  // namespace

TEST_CASE("the Plan: at each mesh size the point with the most tokens/s per chip that fits and meets the slo",
          "[multichip][plan]") {
    auto r = run(plan_scenario("[1, 64]"));
    report::ReportInfo info;
    report::ReportContext context{r.checked->scenario, r.evaluation, info};
    auto plan = plan_of(context, r.evaluation.cases);
    REQUIRE(plan.rows.size() == 3);
    CHECK(plan.mesh_sweeps == std::vector<std::size_t>{0});
    CHECK(plan.other_sweeps == std::vector<std::size_t>{1});
    // TP = 1: 2.147 GB of weights in 2 GB: no point fits.
    CHECK_FALSE(plan.rows[0].chosen);
    CHECK(plan.rows[0].why == "does not fit in HBM at any point");
    // TP = 2: bytes 2 (B D + D F/2 + B F/2); at B = 64: 1,080,033,280 B, 1.080 ms,
    // over the slo; at B = 1: 1,073,840,128 B, 1.0738 ms: 1 token per step, 2 chips.
    REQUIRE(plan.rows[1].chosen);
    CHECK(r.evaluation.sweep_value(plan.rows[1].point, 1) == 1);
    CHECK_THAT(plan.rows[1].step.t_lower, WithinRel(1073840128 / 1e12, 1e-15));
    CHECK_THAT(plan.rows[1].tokens_per_s_per_chip, WithinRel(1 / (1073840128 / 1e12) / 2, 1e-15));
    // TP = 4 at B = 64: 2 (2,097,152 + 268,435,456 + 524,288) = 542,113,792 B, 0.542 ms:
    // 64 tokens on 4 chips, the most per chip: the best row.
    REQUIRE(plan.rows[2].chosen);
    CHECK(r.evaluation.sweep_value(plan.rows[2].point, 1) == 64);
    CHECK_THAT(plan.rows[2].tokens_per_s_per_chip, WithinRel(64 / (542113792 / 1e12) / 4, 1e-15));
    CHECK(plan.rows[2].best);
    CHECK_FALSE(plan.rows[1].best);
    CHECK(plan.rows[2].step.resident_bytes == 32768.0 * 32768 * 2 / 4);
    // Picks at a sweep's edge: TP = 2's B = 1 is the first value, but a size
    // cannot go below 1: no note. TP = 4's B = 64 is the last of B, and TP = 4,
    // the best row's mesh size, the last of TP: the best may lie beyond both.
    CHECK(plan.rows[1].edges.empty());
    REQUIRE(plan.rows[2].edges.size() == 2);
    CHECK(report::plan_edge_text(context, plan, plan.rows[2], plan.rows[2].edges[0]) ==
          "TP = 4: B = 64 is the last value of sweep B: the best may lie beyond it");
    CHECK(report::plan_edge_text(context, plan, plan.rows[2], plan.rows[2].edges[1]) ==
          "TP = 4 is the last value of sweep TP: the best may lie beyond it");
}

TEST_CASE("the Plan says when its pick sits at the first value of a sweep that could go lower",
          "[multichip][plan]") {
    // As above with B = [8, 64]. TP = 2 at B = 8: 2 (8 x 32768 + 32768 x 16384
    // + 8 x 16384) = 1,074,528,256 B, 1.0745 ms, within the slo; at B = 64
    // 1.080 ms is over it: the pick is B = 8, the first value, and it is not 1.
    auto r = run(plan_scenario("[8, 64]"));
    report::ReportInfo info;
    report::ReportContext context{r.checked->scenario, r.evaluation, info};
    auto plan = plan_of(context, r.evaluation.cases);
    REQUIRE(plan.rows.size() == 3);
    REQUIRE(plan.rows[1].chosen);
    CHECK_THAT(plan.rows[1].step.t_lower, WithinRel(1074528256 / 1e12, 1e-15));
    REQUIRE(plan.rows[1].edges.size() == 1);
    CHECK(report::plan_edge_text(context, plan, plan.rows[1], plan.rows[1].edges[0]) ==
          "TP = 2: B = 8 is the first value of sweep B: the best may lie beyond it");
}

TEST_CASE("slo statements are checked", "[multichip][plan]") {
    CHECK(test::contains(errors_of(std::string(tpu) + "slo step <= 50"),
                         "error: the slo is a time: write a unit, e.g. '50 ms'"));
    CHECK(test::contains(errors_of(std::string(tpu) + "slo step <= 50 GB"),
                         "error: the slo is a time (s, ms, us or ns), not 'GB'"));
    CHECK(test::contains(errors_of(std::string(tpu) + "slo step <= 50 ms\nslo step <= 20 ms"),
                         "error: the scenario already has an slo"));
    auto ok = test::check_text(std::string(tpu) + "slo step <= 50 ms");
    REQUIRE(ok->scenario.slo_step_s);
    CHECK(*ok->scenario.slo_step_s == 50.0 / 1e3);
}

TEST_CASE("a misused mesh axis is reported once, and still an axis where it is used", "[multichip]") {
    // 'ring' on an NVLink axis: one error at the word, none at each use.
    auto checked = test::check_text(std::string(tpu) +
                                    "mesh tp = 2 over nvlink ring\nlet B = 8\nlet D = 64\nlet F = 256\n"
                                    "matmul m = bf16[B, D@tp] * bf16[D@tp, F] -> bf16[B, F]");
    INFO(checked->errors());
    CHECK(checked->diagnostics.error_count() == 1);
    CHECK(test::contains(checked->errors(), "test.roof:4:25: error: 'ring' applies to ICI axes only"));
    // An output that moves a split the inputs have to another dimension is
    // not the book's case 4 (no input splits that dimension).
    std::string head = std::string(tpu) + "mesh X = 4 over ici\nlet B = 256\nlet D = 1024\nlet F = 2048\n";
    auto moved = errors_of(head + "matmul m = bf16[B@X, D] * bf16[D, F] -> bf16[B, F@X]");
    CHECK(test::contains(moved, "error: mesh axis 'X' would split both 'B' and 'F'"));
    CHECK_FALSE(test::contains(moved, "case 4"));
}

TEST_CASE("sharding.md Question 2: AllGathers and an AllReduce on a TPU v4p 4x4x4 cube", "[multichip]") {
    // A whole 4x4x4 cube wraps on every axis: rings, 4.5e10 B/s one way per
    // link (the book's 9e10 bidirectional), 1 us per hop.
    auto r = run(R"(
        hardware v4p { hbm_bandwidth = 1.2e12 B/s  peak bf16 = 2.75e14 FLOP/s  ici_bandwidth = 4.5e10 B/s  ici_wraparound = 4 }
        target v4p
        mesh X = 4 over ici, Y = 4 over ici, Z = 4 over ici
        let B = 1024
        let D = 4096
        collective gather_x = allgather(X) bf16[B@X, D@Y] -> bf16[B, D@Y]
        collective gather_xy = allgather(X, Y) bf16[B@X, D@Y] -> bf16[B, D]
        collective reduce_z = allreduce(Z) bf16[B@X, D@Y] -> bf16[B@X, D@Y])");
    // 1. V = B x D/4 x 2 bytes after the gather; a ring of 4: 3/4 V / 2W.
    //    The book's 23 us is V / 2W, without the 3/4: 17.48 us exactly.
    double v1 = 1024.0 * 1024 * 2;
    CHECK_THAT(r.find("gather_x", "v4p").metrics.t_net, WithinRel(0.75 * v1 / 9e10, 1e-15));
    CHECK_THAT(r.find("gather_x", "v4p").metrics.t_net, WithinRel(17.476266666666667e-6, 1e-12));
    // 2. The whole array, 16 chips over two rings: 15/16 V / (2W + 2W); the
    //    book's 46 us drops the 15/16. Hops: 2 + 2 = 4 us, far below.
    double v2 = 1024.0 * 4096 * 2;
    CHECK_THAT(r.find("gather_xy", "v4p").metrics.t_net, WithinRel(15.0 / 16 * v2 / 1.8e11, 1e-15));
    // 3. Each chip reduces its own [B/4, D/4] block over Z: V = B D / 16 x 2
    //    bytes, twice 3/4 V / 2W = 8.74 us. (The book's 4BD/W = 190 us is the
    //    AllReduce of the whole unsharded B x D array.)
    double v3 = 1024.0 * 4096 / 16 * 2;
    CHECK_THAT(r.find("reduce_z", "v4p").metrics.t_net, WithinRel(2 * 0.75 * v3 / 9e10, 1e-15));
    CHECK(r.find("reduce_z", "v4p").metrics.net_bytes == 2 * 0.75 * v3);
}

TEST_CASE("sharding.md Question 3: a latency-bound AllGather on a ring of 4", "[multichip]") {
    auto r = run(R"(
        hardware v4p { hbm_bandwidth = 1.2e12 B/s  peak bf16 = 2.75e14 FLOP/s  ici_bandwidth = 4.5e10 B/s  ici_wraparound = 4 }
        target v4p
        mesh X = 4 over ici
        let B = 128
        collective gather = allgather(X) bf16[B@X] -> bf16[B])");
    // 256 bytes: nothing on the wire to speak of; ceil(4/2) = 2 hops of 1 us (the book: "2us").
    CHECK_THAT(r.find("gather", "v4p").metrics.t_net, WithinRel(2e-6, 1e-15));
}

namespace {

// The case of op `op` in layer `layer` (ops of one template share names).
engine::Case const& in_layer(Run const& r, std::string const& layer, std::string const& op) {
    auto const& s = r.checked->scenario;
    for (auto const& c : r.evaluation.cases)
        if (s.ops[c.op].name == op && s.ops[c.op].layer == layer) return c;
    FAIL("no case " << layer << "/" << op);
    throw;
}

std::string network_of(Run const& r, std::string const& layer, std::string const& op) {
    return engine::collective_text(r.checked->scenario, r.checked->scenario.ops[in_layer(r, layer, op).op]);
}

// Two NVLink axes of 2 and 4 chips (8 in all, one switch) at 100 GB/s per GPU.
constexpr char const* two_axes = R"(
hardware g { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }
target g
mesh a = 2 over nvlink, b = 4 over nvlink
let B = 1024
let D = 1024
let F = 4096
)";

}  // namespace

TEST_CASE("a template's mesh-axis parameter: one template split over an axis of 2 and of 4",
          "[multichip][layers]") {
    auto r = run(std::string(two_axes) + R"(
        template col(N, D, F, ax) {
            matmul up = bf16[N, D] * weight bf16[D, F@ax] -> bf16[N, F@ax]
        }
        template row(N, D, F, ax) {
            matmul down = bf16[N, F@ax] * weight bf16[F@ax, D] -> bf16[N, D]
        }
        use col(N = B, D = D, F = F, ax = a) as col_a
        use col(N = B, D = D, F = F, ax = b) as col_b
        use row(N = B, D = D, F = F, ax = a) as row_a
        use row(N = B, D = D, F = F, ax = b) as row_b)");
    double const B = 1024, D = 1024, F = 4096;
    // Column-parallel: each chip multiplies by its F / N columns of the
    // weight (replicated over the other axis), no collective.
    auto const& col_a = in_layer(r, "col_a", "up").metrics;
    CHECK(col_a.counts.flops == 2 * B * D * F / 2);  // 4,294,967,296
    CHECK(col_a.counts.bytes_read == 2 * (B * D + D * F / 2));
    CHECK(col_a.counts.bytes_written == 2 * B * F / 2);
    CHECK(col_a.net_bytes == 0);
    auto const& col_b = in_layer(r, "col_b", "up").metrics;
    CHECK(col_b.counts.flops == 2 * B * D * F / 4);  // 2,147,483,648
    CHECK(col_b.counts.bytes_read == 2 * (B * D + D * F / 4));
    CHECK(col_b.counts.bytes_written == 2 * B * F / 4);
    CHECK(network_of(r, "col_a", "up").empty());
    // Row-parallel: partial sums of the whole B x D output (V = 2 MiB in
    // bf16), an AllReduce over the parameter's axis: each chip receives
    // 2 (N-1)/N V; the time is 2 x (N-1)/N V / W, over the N-1 steps' floor.
    double const V = 2 * B * D;
    auto const& row_a = in_layer(r, "row_a", "down").metrics;
    CHECK(row_a.counts.flops == 2 * B * (F / 2) * D);
    CHECK(network_of(r, "row_a", "down") == "allreduce(a)");
    CHECK(row_a.net_bytes == 2 * 0.5 * V);
    CHECK_THAT(row_a.t_net, WithinRel(2 * 0.5 * V / 100e9, 1e-15));  // 20.97 us
    auto const& row_b = in_layer(r, "row_b", "down").metrics;
    CHECK(row_b.counts.flops == 2 * B * (F / 4) * D);
    CHECK(network_of(r, "row_b", "down") == "allreduce(b)");
    CHECK(row_b.net_bytes == 2 * 0.75 * V);
    CHECK_THAT(row_b.t_net, WithinRel(2 * 0.75 * V / 100e9, 1e-15));  // 31.46 us
    CHECK(r.evaluation.chips_at(0) == 8);
}

TEST_CASE("a mesh-axis parameter passed on to nested templates, and a default naming its own axis",
          "[multichip][layers]") {
    auto r = run(std::string(two_axes) + R"(
        template col(N, D, F, ax) {
            matmul up = bf16[N, D] * weight bf16[D, F@ax] -> bf16[N, F@ax]
        }
        # `tp = tp`: the default names the mesh axis `tp` seen at the use.
        template mlp(N, D, F, tp = tp) {
            use col(N = N, D = D, F = F, ax = tp) as up
            matmul down = bf16[N, F@tp] * weight bf16[F@tp, D] -> bf16[N, D]
            collective gather = allgather(tp) bf16[N, F@tp] -> bf16[N, F]
        }
        template block(N, D, F, x) {
            use mlp(N = N, D = D, F = F, tp = x) as mlp
        }
        use mlp(N = B, D = D, F = F, tp = a) as given
        use block(N = B, D = D, F = F, x = b) as nested
        layer inner {
            use block(N = B, D = D, F = F, x = a) as nested
        })");
    double const B = 1024, D = 1024, F = 4096;
    CHECK(in_layer(r, "given/up", "up").metrics.counts.flops == 2 * B * D * F / 2);
    CHECK(network_of(r, "given", "down") == "allreduce(a)");
    // block's x = b, passed to mlp's tp, passed to col's ax: split over 4.
    CHECK(in_layer(r, "nested/mlp/up", "up").metrics.counts.flops == 2 * B * D * F / 4);
    CHECK(in_layer(r, "nested/mlp", "down").metrics.counts.flops == 2 * B * (F / 4) * D);
    CHECK(network_of(r, "nested/mlp", "down") == "allreduce(b)");
    CHECK(network_of(r, "nested/mlp", "gather") == "allgather(b)");
    // An AllGather of the B x F output over 4 chips: (N-1)/N V with V = 2 B F.
    CHECK(in_layer(r, "nested/mlp", "gather").metrics.net_bytes == 0.75 * 2 * B * F);
    CHECK(in_layer(r, "inner/nested/mlp/up", "up").metrics.counts.flops == 2 * B * D * F / 2);

    // The default `tp = tp` with a mesh axis named tp.
    auto d = run(R"(
        hardware g { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }
        target g
        mesh dp = 2 over nvlink, tp = 4 over nvlink
        template mlp(N, D, F, tp = tp) {
            matmul up = bf16[N, D] * weight bf16[D, F@tp] -> bf16[N, F@tp]
            matmul down = bf16[N, F@tp] * weight bf16[F@tp, D] -> bf16[N, D]
        }
        use mlp(N = 1024, D = 1024, F = 4096))");
    CHECK(in_layer(d, "mlp", "up").metrics.counts.flops == 2 * B * D * F / 4);
    CHECK(network_of(d, "mlp", "down") == "allreduce(tp)");
}

TEST_CASE("the tensor-parallel layer templates split over the mesh axis they are given",
          "[multichip][layers]") {
    // dense_tp_decode over an axis named `model`, given as `tp = model`,
    // gives the cases of the same layer over an axis named `tp`, by default.
    auto evaluate = [](std::string const& mesh, std::string const& argument) {
        auto checked = test::check_with_catalog(R"(
            include "layers/dense_tp.roof"
            hardware g { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }
            target g
            )" + mesh + R"(
            use dense_tp_decode(B = 4, S = 64, D = 64, H = 8, KV = 2, Hd = 8, F = 128)" + argument + R"() as decoder
            use lm_head_tp(N = 4, D = 64, V = 256)" + argument + ")");
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        auto evaluation = engine::evaluate(checked->scenario, checked->diagnostics);
        REQUIRE(evaluation);
        return std::make_pair(std::move(checked), std::move(*evaluation));
    };
    auto [named, named_cases] = evaluate("mesh model = 2 over nvlink", ", tp = model");
    auto [by_default, default_cases] = evaluate("mesh tp = 2 over nvlink", "");
    REQUIRE(named_cases.cases.size() == default_cases.cases.size());
    REQUIRE(named_cases.cases.size() == 19);  // 17 decoder ops and the LM head's 2
    for (std::size_t i = 0; i < named_cases.cases.size(); ++i) {
        auto const& x = named_cases.cases[i];
        auto const& y = default_cases.cases[i];
        INFO(named->scenario.ops[x.op].layer << "/" << named->scenario.ops[x.op].name);
        CHECK(x.metrics.counts.flops == y.metrics.counts.flops);
        CHECK(x.metrics.counts.bytes_read == y.metrics.counts.bytes_read);
        CHECK(x.metrics.counts.bytes_written == y.metrics.counts.bytes_written);
        CHECK(x.metrics.net_bytes == y.metrics.net_bytes);
        CHECK(x.metrics.t_lower == y.metrics.t_lower);
        auto network = engine::collective_text(by_default->scenario, by_default->scenario.ops[y.op]);
        if (auto at = network.find("(tp)"); at != std::string::npos) network.replace(at, 4, "(model)");
        CHECK(engine::collective_text(named->scenario, named->scenario.ops[x.op]) == network);
    }
    // Two AllReduces per layer, over the axis given.
    std::vector<std::string> reduced;
    for (auto const& op : named->scenario.ops)
        if (auto network = engine::collective_text(named->scenario, op); !network.empty())
            reduced.push_back(op.layer + "/" + op.name + ": " + network);
    CHECK(reduced == std::vector<std::string>{"decoder/attention/o_proj: allreduce(model)",
                                              "decoder/mlp/down: allreduce(model)"});
}

TEST_CASE("misused mesh-axis parameters are errors at their place", "[multichip][layers]") {
    std::string head = std::string(two_axes) + R"(template col(N, D, F, ax = a) {
    matmul up = bf16[N, D] * weight bf16[D, F@ax] -> bf16[N, F@ax]
}
)";  // the template's lines 8 to 10; a use is line 11
    auto use = [&](std::string const& arguments) {
        return errors_of(head + "use col(N = B, D = D, F = F" + arguments + ")");
    };
    CHECK(use("") == "");
    CHECK(use(", ax = b") == "");
    CHECK(test::contains(use(", ax = 2"),
                         "test.roof:11:35: error: parameter 'ax' of template 'col' takes a mesh axis, not a number\n"));
    CHECK(test::contains(use(", ax = 2"), "test.roof:8:23: note: parameter 'ax' of template 'col' is declared here"));
    CHECK(test::contains(use(", ax = a * b"),
                         "test.roof:11:35: error: parameter 'ax' of template 'col' takes a mesh axis, not an expression"));
    CHECK(test::contains(use(", ax = D"),
                         "test.roof:11:35: error: parameter 'ax' of template 'col' takes a mesh axis, but 'D' is a value"));
    CHECK(test::contains(use(", ax = bf16"), "takes a mesh axis, but 'bf16' is a dtype"));
    CHECK(test::contains(use(", ax = c"), "test.roof:11:35: error: unknown mesh axis 'c'"));
    CHECK(test::contains(use(", ax = bb"), "error: unknown mesh axis 'bb'; did you mean 'b'?"));
    // One error for a wrong argument, however many places use the parameter.
    auto wrong = test::check_text(head + "use col(N = B, D = D, F = F, ax = 2)");
    CHECK(wrong->diagnostics.error_count() == 1);
    // The other way round: a mesh axis where a value or a dtype goes.
    CHECK(test::contains(errors_of(head + "use col(N = a, D = D, F = F)"),
                         "test.roof:11:13: error: parameter 'N' of template 'col' takes a value, but 'a' is a mesh axis"));
    CHECK(test::contains(errors_of(head + "let n = a"), "test.roof:11:9: error: 'a' is a mesh axis, not a value"));
    CHECK(test::contains(errors_of(head + "matmul m = bf16[B, a] * bf16[a, D] -> bf16[B, D]"),
                         "test.roof:11:20: error: 'a' is a mesh axis, not a value; a dimension is split "
                         "over it with '@', e.g. 'D@a'"));
    // A missing argument, and a template without a mesh.
    CHECK(test::contains(errors_of(std::string(two_axes) +
                                   "template ar(N, D, ax) {\n"
                                   "    collective s = allreduce(ax) bf16[N, D] -> bf16[N, D]\n}\n"
                                   "use ar(N = B, D = D)"),
                         "test.roof:11:5: error: missing argument 'ax' for template 'ar'"));
    CHECK(test::contains(errors_of("let B = 8\ntemplate t(N, ax) {\n"
                                   "    matmul m = bf16[N, N] * bf16[N, N@ax] -> bf16[N, N@ax]\n}\n"
                                   "use t(N = B, ax = tp)"),
                         "test.roof:5:19: error: 'tp' is not a mesh axis: the scenario has no mesh"));
    // Used both as a mesh axis and as a value or a dtype: once, at the template.
    auto both = test::check_text(std::string(two_axes) +
                                 "template t(N, ax) {\n"
                                 "    let n = 2 * ax\n"
                                 "    matmul m = ax[N, N] * bf16[N, N@ax] -> bf16[N, N@ax]\n}\n"
                                 "use t(N = B, ax = a) as x\nuse t(N = B, ax = b) as y");
    auto text = both->errors();
    INFO(text);
    CHECK(both->diagnostics.error_count() == 2);
    CHECK(test::contains(text, "test.roof:9:17: error: parameter 'ax' of template 't' is used here as a value and "
                               "elsewhere as a mesh axis; a parameter is one or the other"));
    CHECK(test::contains(text, "test.roof:10:16: error: parameter 'ax' of template 't' is used here as a dtype"));
    CHECK(test::contains(text, "test.roof:10:37: note: used as a mesh axis here"));
    // Through a nested use: a value of one template, a mesh axis of another.
    CHECK(test::contains(errors_of(head + "template outer(N, x) {\n"
                                          "    use col(N = N, D = D, F = F, ax = x)\n"
                                          "    matmul m = bf16[N, x] * bf16[x, D] -> bf16[N, D]\n}\n"
                                          "use outer(N = B, x = a)"),
                         "test.roof:13:24: error: parameter 'x' of template 'outer' is used here as a value"));
    // An error inside an instance names the mesh axis each parameter got.
    CHECK(test::contains(errors_of(head + "template bad(N, ax) {\n"
                                          "    matmul m = bf16[N, N] * bf16[N, D@ax] -> bf16[N, D@ax]\n}\n"
                                          "use bad(N = B, ax = b)"),
                         "note: 'bad' (layer 'bad') got N = 1024, ax = b"));
}

TEST_CASE("an all-to-all over two ICI axes, and over NVLink and DCN, each on its own chips' share",
          "[multichip]") {
    auto r = run(R"(
        hardware t { hbm_bandwidth = 8.1e11 B/s  peak bf16 = 1.97e14 FLOP/s  ici_bandwidth = 4.5e10 B/s }
        hardware g { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8  dcn_bandwidth = 50 GB/s }
        target t
        mesh X = 8 over ici ring, Y = 4 over ici line
        let E = 64
        let C = 256
        let D = 8192
        collective a2a = alltoall(X, Y) bf16[E@(X, Y), C, D] -> bf16[E, C@(X, Y), D])");
    // One chip's shard s = 64/32 x 256 x 8192 x 2 = 8,388,608 B; V = 32 s.
    double s = 2.0 * 256 * 8192 * 2, V = 32 * s;
    auto const& m = r.find("a2a", "t").metrics;
    CHECK(m.net_bytes == 31 * V / (32.0 * 32));
    // Axis by axis, each on the array over its own chips (k s):
    // X, a ring of 8: floor(64/4) 8s / (2 x 64 W); Y, a line of 4: 4 x 4s / (16 W).
    double x = 16 * 8 * s / (2 * 64 * 4.5e10), y = 4 * 4 * s / (16 * 4.5e10);
    CHECK_THAT(m.t_net, WithinRel(x + y, 1e-15));  // 372.8 us

    auto h = run(R"(
        hardware g { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s  nvlink_bandwidth = 450 GB/s  nvlink_domain = 8  dcn_bandwidth = 50 GB/s }
        target g
        mesh tp = 8 over nvlink, dp = 2 over dcn
        let E = 16
        let C = 4096
        let D = 8192
        collective a2a = alltoall(tp, dp) bf16[E@(tp, dp), C, D] -> bf16[E, C@(tp, dp), D])");
    // s = 1 x 4096 x 8192 x 2; DCN first, over its 2 chips' array (2s):
    // (2-1) 2s / (4 x 50e9); then NVLink over its 8 chips' (8s): 7 x 8s / (64 x 450e9).
    double s2 = 4096.0 * 8192 * 2;
    double dcn = 2 * s2 / (4 * 50e9), nvlink = 7 * 8 * s2 / (64 * 450e9);
    CHECK_THAT(h.find("a2a", "g").metrics.t_net, WithinRel(dcn + nvlink, 1e-15));  // 801.6 us
}

TEST_CASE("multi-chip misuse found by review: dtypes, the mesh's size, ignored slo, parse messages",
          "[multichip]") {
    std::string head = std::string(tpu) + "mesh X = 4 over ici\nlet B = 256\nlet D = 1024\n";
    CHECK(test::contains(errors_of(head + "collective g = allgather(X) bf16[B@X, D] -> fp32[B, D]"),
                         "error: a collective's output has the input's dtype: bf16[B, D]"));
    CHECK(test::contains(errors_of(std::string(tpu) + "mesh A = 2^30 over ici, B = 2^30 over ici\n"
                                                      "let N = 8\nlet M = 8\nlet K = 8\nmatmul m = bf16[N, M] * bf16[M, K] -> bf16[N, K]"),
                         "error: the mesh has 1152921504606846976 chips; a mesh has fewer than 2^53"));
    CHECK(test::contains(errors_of(std::string(tpu) + "slo step <= 5 ms"),
                         "warning: the slo is read only by the Plan table, which needs a mesh; it changes nothing here"));
    CHECK(test::contains(errors_of(head + "collective g = allgather() bf16[B@X, D] -> bf16[B, D]"),
                         "error: expected a mesh axis, found ')'"));
    CHECK(test::contains(errors_of(std::string(tpu) + "mesh tokens = 4 over ici"),
                         "error: expected a mesh axis like tp = 8 over nvlink, found 'tokens'"));
}

TEST_CASE("the Plan says why a chip has no row, with no slo", "[multichip][plan]") {
    auto r = run(R"(
        hardware g { hbm_bandwidth = 1e12 B/s  peak fp16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s }
        target g
        mesh X = 4 over nvlink
        let B = 8
        let D = 64
        let F = 64
        tokens = B
        matmul m = bf16[B, D@X] * bf16[D@X, F] -> bf16[B, F])");
    report::ReportInfo info;
    report::ReportContext context{r.checked->scenario, r.evaluation, info};
    auto plan = plan_of(context, r.evaluation.cases);
    REQUIRE(plan.rows.size() == 1);
    CHECK_FALSE(plan.rows[0].chosen);
    // Issue 21, point 1: the reason names the chip and the dtype it lacks.
    CHECK(plan.rows[0].why == "g has no peak for bf16: its steps are unsupported");
}
