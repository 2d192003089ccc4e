// The engine against numbers worked out by hand from the formulas of
// reports.md ("What is evaluated"), on the roofline chapter's hardware:
// TPU v5e 3.94e14 int8 OP/s, 1.97e14 bf16 FLOP/s, 8.2e11 B/s;
// H100 9.89e14 bf16 FLOP/s, 3.35e12 B/s.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;
using Catch::Matchers::WithinRel;

namespace {

constexpr char const* book_hardware = R"(
hardware v5e { hbm_bandwidth = 8.2e11 B/s  peak int8 = 3.94e14 OP/s  peak bf16 = 1.97e14 FLOP/s }
hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s }
)";

struct Run {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;

    // The case of matmul `op` (optionally in `layer`) on `hw` at sweep values `at`.
    engine::Case const& find(std::string const& op, std::string const& hw,
                             std::vector<double> const& at, std::string const& layer = "") const {
        auto const& s = checked->scenario;
        for (auto const& c : evaluation.cases) {
            auto const& m = s.ops[c.op];
            if (m.name != op || m.layer != layer) continue;
            if (s.hardware[static_cast<std::size_t>(s.targets[c.target])].id != hw) continue;
            bool same = true;
            for (std::size_t v = 0; v < at.size(); ++v)
                same = same && evaluation.sweep_value(c, v) == at[v];
            if (same) return c;
        }
        FAIL("no case " << op << " on " << hw);
        throw;
    }
    double critical(std::string const& op, std::string const& hw, std::vector<double> const& at,
                    std::size_t sweep = 0, std::string const& layer = "") const {
        return evaluation.critical_value(find(op, hw, at, layer), sweep);
    }
};

Run run(std::string const& text) {
    Run r;
    r.checked = test::check_text(std::string(book_hardware) + text);
    INFO(r.checked->errors());
    REQUIRE_FALSE(r.checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r.checked->scenario, r.checked->diagnostics);
    INFO(r.checked->errors());
    REQUIRE(evaluation);
    r.evaluation = std::move(*evaluation);
    return r;
}

}  // namespace

TEST_CASE("int8 matmul at D = F = 4096: counts, times and bound by hand", "[engine]") {
    auto r = run(R"(
        target v5e
        let D = 4096
        let F = 4096
        sweep B = [256]
        matmul m = int8[B, D] * int8[D, F] -> int8[B, F])");
    auto const& m = r.find("m", "v5e", {256}).metrics;
    // 2 * 256 * 4096 * 4096; 256*4096 + 4096*4096; 256*4096.
    CHECK(m.counts.flops == 8589934592.0);
    CHECK(m.counts.bytes_read == 17825792.0);
    CHECK(m.counts.bytes_written == 1048576.0);
    CHECK_THAT(m.intensity, WithinRel(4096.0 / 9.0, 1e-15));  // 8589934592 / 18874368
    CHECK(m.peak == 3.94e14);
    CHECK_THAT(m.ridge, WithinRel(3.94e14 / 8.2e11, 1e-15));
    double t_math = 8589934592.0 / 3.94e14, t_comms = 18874368.0 / 8.2e11;
    CHECK_THAT(m.t_math, WithinRel(t_math, 1e-15));
    CHECK_THAT(m.t_comms, WithinRel(t_comms, 1e-15));
    CHECK(t_math < t_comms);  // 21.8 us < 23.0 us: memory-bound at B = 256
    CHECK(m.bound == engine::Bound::memory);
    CHECK_THAT(m.t_lower, WithinRel(t_comms, 1e-15));
    CHECK_THAT(m.t_upper, WithinRel(t_math + t_comms, 1e-15));
    CHECK_THAT(m.attained, WithinRel(8589934592.0 / t_comms, 1e-15));
    CHECK_THAT(m.peak_fraction, WithinRel(8589934592.0 / t_comms / 3.94e14, 1e-15));
}

TEST_CASE("critical batch sizes of the chapter's exercises are exact", "[engine]") {
    // int8: B >= (D F / W) / (2 D F / P - (D + F) / W)  -> 272.17 -> 273 (rule of thumb 240)
    // w8a16 in bf16: B >= (D F / W) / (2 D F / P - 2 (D + F) / W) -> 136.09 -> 137; D = F = 1024 -> 226.3 -> 227
    // D = F = 1e8: int8 -> 240.245 -> 241; H100 bf16 -> 295.22 -> 296
    auto r = run(R"(
        target v5e, h100
        sweep B = 1 .. 512
        layer d4096 {
            let D = 4096
            let F = 4096
            matmul int8_mm = int8[B, D] * int8[D, F] -> int8[B, F]
            matmul w8a16 = bf16[B, D] * int8[D, F] -> bf16[B, F]
            matmul per_example = int8[B, D] * int8[B, D, F] -> int8[B, F]
        }
        layer d1024 {
            let D = 1024
            let F = 1024
            matmul w8a16 = bf16[B, D] * int8[D, F] -> bf16[B, F]
        }
        layer large {
            let D = 100_000_000
            let F = D
            matmul int8_mm = int8[B, D] * int8[D, F] -> int8[B, F]
            matmul bf16_mm = bf16[B, D] * bf16[D, F] -> bf16[B, F]
        })");
    CHECK(r.critical("int8_mm", "v5e", {1}, 0, "d4096") == 273);
    CHECK(r.critical("w8a16", "v5e", {1}, 0, "d4096") == 137);
    CHECK(r.critical("w8a16", "v5e", {1}, 0, "d1024") == 227);
    CHECK(std::isnan(r.critical("per_example", "v5e", {1}, 0, "d4096")));
    CHECK(r.critical("int8_mm", "v5e", {1}, 0, "large") == 241);
    CHECK(r.critical("bf16_mm", "h100", {1}, 0, "large") == 296);

    // The critical value is where the bound column flips.
    CHECK(r.find("int8_mm", "v5e", {272}, "d4096").metrics.bound == engine::Bound::memory);
    CHECK(r.find("int8_mm", "v5e", {273}, "d4096").metrics.bound == engine::Bound::compute);
    CHECK(r.find("w8a16", "v5e", {136}, "d4096").metrics.bound == engine::Bound::memory);
    CHECK(r.find("w8a16", "v5e", {137}, "d4096").metrics.bound == engine::Bound::compute);
    // The same critical value is reported at every B.
    CHECK(r.critical("int8_mm", "v5e", {512}, 0, "d4096") == 273);

    // Per-example weights: intensity 2BDF / (BD + BDF + BF) tends to 2.
    auto const& pe = r.find("per_example", "v5e", {512}, "d4096").metrics;
    CHECK(pe.intensity < 2);
    CHECK(pe.intensity > 1.99);
    CHECK(pe.bound == engine::Bound::memory);
}

TEST_CASE("critical values through lets use the search and agree with the bound", "[engine]") {
    // T = 2B is the matmul's batch: compute-bound from T = 273, i.e. B = 137.
    auto r = run(R"(
        target v5e
        let D = 4096
        let F = 4096
        sweep B = 1 .. 300
        let T = 2 * B
        matmul m = int8[T, D] * int8[D, F] -> int8[T, F])");
    CHECK(r.critical("m", "v5e", {1}) == 137);
    CHECK(r.find("m", "v5e", {136}).metrics.bound == engine::Bound::memory);
    CHECK(r.find("m", "v5e", {137}).metrics.bound == engine::Bound::compute);
}

TEST_CASE("several sweeps: each critical value holds the others fixed", "[engine]") {
    // int8, F = 4096: at D = 4096, B* = 273; at D = 1024,
    // B >= (D F / W) / (2 D F / P - (D + F) / W) = 339.9 -> 340.
    // Critical D at B = 256, F = 4096: D >= (B F / W) / (2 B F / P - (B + F) / W) = 83015.6 -> 83016.
    auto r = run(R"(
        target v5e
        let F = 4096
        sweep D = [1024, 4096]
        sweep B = [1, 256]
        matmul m = int8[B, D] * int8[D, F] -> int8[B, F])");
    CHECK(r.critical("m", "v5e", {4096, 1}, 1) == 273);
    CHECK(r.critical("m", "v5e", {1024, 1}, 1) == 340);
    CHECK(r.critical("m", "v5e", {1024, 256}, 0) == 83016);
    // Cartesian order: the first sweep varies slowest.
    REQUIRE(r.evaluation.cases.size() == 4);
    CHECK(r.evaluation.sweep_value(r.evaluation.cases[0], 0) == 1024);
    CHECK(r.evaluation.sweep_value(r.evaluation.cases[1], 0) == 1024);
    CHECK(r.evaluation.sweep_value(r.evaluation.cases[1], 1) == 256);
    CHECK(r.evaluation.sweep_value(r.evaluation.cases[2], 0) == 4096);
}

TEST_CASE("a sweep variable that is not an axis: 1 if compute-bound, else none", "[engine]") {
    auto r = run(R"(
        target v5e
        sweep S = [1, 2]
        let B = 1024
        let D = 4096
        let F = 4096
        matmul big = int8[B, D] * int8[D, F] -> int8[B, F]
        matmul small = int8[S, D] * int8[D, F] -> int8[S, F])");
    CHECK(r.critical("big", "v5e", {1}) == 1);  // B = 1024 > 273
    CHECK(r.critical("small", "v5e", {1}) == 273);
}

TEST_CASE("the compute dtype: explicit, else the wider input, on a tie the left", "[engine]") {
    auto r = run(R"(
        target v5e
        let B = 8
        let D = 16
        let F = 16
        matmul mixed = int8[B, D] * bf16[D, F] -> bf16[B, F]
        matmul forced = bf16[B, D] * bf16[D, F] -> bf16[B, F] compute int8
        dtype mx4 = 4.25 bits
        matmul custom = mx4[B, D] * int4[D, F] -> bf16[B, F])");
    auto const& s = r.checked->scenario;
    auto dtype_of = [&](std::string const& op) {
        for (auto const& m : s.ops)
            if (m.name == op) return s.dtypes[static_cast<std::size_t>(m.compute_dtype_at({}, s.dtypes))].name;
        return std::string("?");
    };
    CHECK(dtype_of("mixed") == "bf16");
    CHECK(dtype_of("forced") == "int8");
    CHECK(dtype_of("custom") == "mx4");
    // 4.25 bits = 0.53125 bytes: 8*16*0.53125 + 16*16*0.5 = 68 + 128 = 196.
    CHECK(r.find("custom", "v5e", {}).metrics.counts.bytes_read == 196);
    // Unsupported: no mx4 peak on v5e.
    CHECK(r.find("custom", "v5e", {}).metrics.bound == engine::Bound::unsupported);
    CHECK(std::isnan(r.find("custom", "v5e", {}).metrics.t_lower));
}

TEST_CASE("unsupported dtypes: one warning per (dtype, hardware) pair", "[engine]") {
    auto checked = test::check_text(std::string(book_hardware) + R"(
        let B = 8
        matmul a = fp8[B] * fp8[B] -> fp8[]
        matmul b = fp8[B] * fp8[B] -> fp8[])");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    std::size_t warnings = 0;
    for (auto const& d : checked->diagnostics.all()) warnings += d.severity == Severity::warning;
    CHECK(warnings == 2);  // fp8 on v5e, fp8 on h100
}

TEST_CASE("exact counts for an attention-shaped contraction", "[engine]") {
    // bf16[B,S,K,G,H] * bf16[B,T,K,H] -> bf16[B,K,G,S,T]: all distinct axes B S K G H T.
    auto r = run(R"(
        target h100
        let B = 2
        let S = 3
        let T = 5
        let K = 7
        let G = 11
        let H = 13
        matmul scores = bf16[B, S, K, G, H] * bf16[B, T, K, H] -> bf16[B, K, G, S, T])");
    auto const& c = r.find("scores", "h100", {}).metrics.counts;
    CHECK(c.flops == 2.0 * 2 * 3 * 5 * 7 * 11 * 13);
    CHECK(c.bytes_read == 2.0 * (2 * 3 * 7 * 11 * 13) + 2.0 * (2 * 5 * 7 * 13));
    CHECK(c.bytes_written == 2.0 * (2 * 7 * 11 * 3 * 5));
}

TEST_CASE("counts stay exact past 2^53", "[engine]") {
    // 2 * 3 * 2^30 * 2^30 + ...: 2^64-range products keep every bit before rounding.
    auto r = run(R"(
        target v5e
        let B = 3
        let D = 1_073_741_825
        let F = 1_073_741_827
        matmul m = int8[B, D] * int8[D, F] -> int8[B, F])");
    auto const& c = r.find("m", "v5e", {}).metrics.counts;
    long double expected = 2.0L * 3 * 1073741825.0L * 1073741827.0L;
    CHECK(c.flops == static_cast<double>(expected));
}
