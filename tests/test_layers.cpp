// Templates, operand roles, elementwise ops, resident declarations, tokens
// and the step totals, against numbers worked out by hand. The hardware has
// round numbers: 1e12 B/s, 1e15 bf16 FLOP/s, 2e15 int8 OP/s, 1e9 B of HBM.
#include "helpers.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace roofline;
using Catch::Matchers::WithinRel;

namespace {

constexpr char const* chip = R"(
hardware chip {
    hbm_bandwidth = 1e12 B/s
    hbm_capacity  = 1e9 B
    peak bf16     = 1e15 FLOP/s
    peak int8     = 2e15 OP/s
}
)";

struct Run {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;

    model::Scenario const& scenario() const { return checked->scenario; }
    engine::Case const& find(std::string const& op, std::string const& layer,
                             std::size_t point = 0) const {
        for (auto const& c : evaluation.cases) {
            auto const& m = scenario().ops[c.op];
            if (m.name == op && m.layer == layer && c.point == point) return c;
        }
        FAIL("no case " << op << " in layer '" << layer << "'");
        throw;
    }
};

Run run(std::string const& text) {
    Run r;
    r.checked = test::check_text(std::string(chip) + text);
    INFO(r.checked->errors());
    REQUIRE_FALSE(r.checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r.checked->scenario, r.checked->diagnostics);
    INFO(r.checked->errors());
    REQUIRE(evaluation);
    r.evaluation = std::move(*evaluation);
    return r;
}

report::Summary summarize(Run const& r, report::ReportContext const& context) {
    report::SummaryBuilder builder(context);
    for (auto const& c : r.evaluation.cases) builder.add(c);
    return builder.summary();
}

// A gated MLP as a template: one dtype parameter, one value parameter with a
// default that uses another parameter.
constexpr char const* mlp = R"(
template mlp(T, D, F = 4 * D, W = bf16) {
    matmul gate = bf16[T, D] * weight W[D, F] -> bf16[T, F]
    matmul up   = bf16[T, D] * weight W[D, F] -> bf16[T, F]
    elementwise act = bf16[T, F], bf16[T, F] -> bf16[T, F] flops 4
    matmul down = bf16[T, F] * weight W[F, D] -> bf16[T, D]
}
)";

}  // namespace

TEST_CASE("a template instance: layer path, count, parameters and defaults", "[layers]") {
    auto r = run(std::string(mlp) + R"(
sweep B = [1, 8]
use mlp(T = B, D = 64) as block x 3
use mlp(T = B, D = 64, F = 100, W = int8) as small
)");
    auto const& s = r.scenario();
    REQUIRE(s.ops.size() == 8);
    // In the order written: gate, up, act, down; the instance is a layer.
    CHECK(s.ops[0].name == "gate");
    CHECK(s.ops[2].name == "act");
    CHECK(s.ops[2].kind == model::OpKind::elementwise);
    CHECK(s.ops[0].layer == "block");
    CHECK(s.ops[0].count == 3);
    CHECK(s.ops[4].layer == "small");
    CHECK(s.ops[4].count == 1);

    // block at B = 8: F = 4 * 64 = 256 (the default), W = bf16.
    // gate: FLOPs 2 * 8 * 64 * 256 = 262,144; read 8*64*2 + 64*256*2 = 1,024 + 32,768.
    auto const& gate = r.find("gate", "block", 1).metrics.counts;
    CHECK(gate.flops == 262144);
    CHECK(gate.bytes_read == 33792);
    CHECK(gate.bytes_written == 8 * 256 * 2);
    // small at B = 8: F = 100, int8 weights: read 1,024 + 64*100*1 = 7,424;
    // the compute dtype is the wider input, bf16.
    auto const& small_gate = r.find("gate", "small", 1);
    CHECK(small_gate.metrics.counts.bytes_read == 7424);
    CHECK(s.dtypes[static_cast<std::size_t>(s.ops[4].compute_dtype_at({}, s.dtypes))].name == "bf16");
    CHECK(small_gate.metrics.counts.flops == 2 * 8 * 64 * 100);
}

TEST_CASE("an elementwise op: K FLOPs per output element, inputs read, output written",
          "[layers]") {
    auto r = run(R"(
sweep T = [16]
let D = 32
elementwise norm = bf16[T, D], weight bf16[D] -> bf16[T, D] flops 4
elementwise copy = fp32[T, D] -> bf16[T, D]
)");
    // norm: 4 * 16 * 32 = 2,048 FLOPs; read 16*32*2 + 32*2 = 1,088; write 1,024.
    auto const& norm = r.find("norm", "").metrics;
    CHECK(norm.counts.flops == 2048);
    CHECK(norm.counts.bytes_read == 1088);
    CHECK(norm.counts.bytes_written == 1024);
    // t_comms = 2,112 / 1e12; t_math = 2,048 / 1e15: memory-bound.
    CHECK_THAT(norm.t_comms, WithinRel(2.112e-9, 1e-12));
    CHECK(norm.bound == engine::Bound::memory);
    // copy: K defaults to 1, the compute dtype is the output's (bf16).
    auto const& copy = r.find("copy", "").metrics;
    CHECK(copy.counts.flops == 512);
    CHECK(copy.counts.bytes_read == 2048);
    // Intensity 512 / 3,072 never reaches the ridge of 1,000: no critical value.
    CHECK(std::isnan(r.evaluation.critical_value(r.find("copy", ""), 0)));
}

TEST_CASE("resident bytes: weights and caches once per layer instance, per sweep point",
          "[layers]") {
    auto r = run(R"(
sweep B = [1, 4]
let S = 1000
let D = 64
let E = 8
layer decoder x 2 {
    matmul proj   = bf16[B, D] * weight int8[D, F] -> bf16[B, F]
    matmul scores = bf16[B, D] * cache bf16[B, S, D] -> bf16[B, S]
    resident experts = weight bf16[E, D, F]
    let F = 128
}
tokens = B
)");
    auto const& grid = r.evaluation;
    REQUIRE(grid.has_resident);
    REQUIRE(grid.has_tokens);
    // Weights per instance: 64*128*1 (proj) + 8*64*128*2 (experts) = 8,192 + 131,072
    // = 139,264; two instances: 278,528 at every point.
    CHECK(grid.point_facts[0].weight_bytes == 278528);
    CHECK(grid.point_facts[1].weight_bytes == 278528);
    // Cache per instance: B*1000*64*2 = 128,000 B; two instances: 256,000 B.
    CHECK(grid.point_facts[0].cache_bytes == 256000);
    CHECK(grid.point_facts[1].cache_bytes == 1024000);
    CHECK(grid.point_facts[1].tokens == 4);
    // The matmul reads its weight operand; the resident declaration adds no case.
    CHECK(r.scenario().ops.size() == 2);
}

TEST_CASE("an expert operand: traffic, not resident memory, a matmul of the expert class",
          "[layers]") {
    auto r = run(R"(
sweep B = [1]
let D = 64
let F = 128
let E = 8
let A = 2
layer moe x 2 {
    resident experts = weight bf16[E, D, F]
    matmul gate = bf16[A, B, D] * expert bf16[A, D, F] -> bf16[A, B, F]
    matmul proj = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]
}
tokens = B
)");
    // Resident weights per instance: the 8 experts, 8*64*128*2 = 131,072 B,
    // and proj's 64*128*2 = 16,384 B (not the 2 experts gate reads): two
    // instances, 2 x 147,456 = 294,912 B.
    CHECK(r.evaluation.point_facts[0].weight_bytes == 294912);
    // gate reads its 2 experts as traffic: 2*1*64*2 + 2*64*128*2 = 256 +
    // 32,768 = 33,024 B.
    auto const& gate = r.find("gate", "moe");
    CHECK(gate.metrics.counts.bytes_read == 33024);
    auto const& ops = r.scenario().ops;
    auto op = [&](std::string const& name) -> model::Op const& {
        return *std::find_if(ops.begin(), ops.end(), [&](model::Op const& o) { return o.name == name; });
    };
    CHECK(engine::op_class(op("gate")) == model::OpClass::expert);
    CHECK(engine::op_class(op("proj")) == model::OpClass::gemm);
}

TEST_CASE("an expert operand is read, never held or written", "[layers]") {
    auto resident = test::check_text(std::string(chip) + "let D = 4\nresident e = expert bf16[D, D]\n");
    CHECK(test::contains(resident->errors(), "test.roof:9:14: error: a resident tensor is a weight or a cache"));
    auto output = test::check_text(std::string(chip) +
                                   "let D = 4\nmatmul m = bf16[D, D] * expert bf16[D, D] -> expert bf16[D, D]\n");
    CHECK(test::contains(output->errors(), "test.roof:9:46: error: an output cannot be marked 'expert'"));
}

TEST_CASE("step totals: sum of count x time, memory share, min chips, tokens/s", "[layers]") {
    auto r = run(R"(
sweep B = [1]
let D = 1000
layer big x 10 {
    matmul proj = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]
    let F = 5000
}
tokens = B
)");
    // proj at B = 1: 2*1000*5000 = 1e7 FLOPs (1e-8 s at 1e15); bytes 2,000 +
    // 10,000,000 + 10,000 = 10,012,000 (1.0012e-5 s at 1e12): memory-bound.
    // Step: 10 x 1.0012e-5 = 1.0012e-4 s; t_upper adds 10 x 1e-8.
    report::ReportInfo info;
    report::ReportContext context{r.scenario(), r.evaluation, info};
    auto summary = summarize(r, context);
    auto step = report::step_totals(context, summary, 0, 0);
    CHECK_THAT(step.t_lower, WithinRel(1.0012e-4, 1e-12));
    CHECK_THAT(step.t_upper, WithinRel(1.0012e-4 + 1e-7, 1e-12));
    CHECK(step.memory_share == 1.0);
    // Weights: 10 x 1000*5000*2 = 1e8 B on 1e9 B: one chip.
    CHECK(step.weight_bytes == 1e8);
    CHECK(step.min_chips == 1);
    CHECK_THAT(step.tokens_per_s, WithinRel(1 / 1.0012e-4, 1e-12));
    CHECK(summary.layers == std::vector<std::string>{"big"});
    CHECK_THAT(summary.layer_time(0, 0, 0, 1), WithinRel(1.0012e-4, 1e-12));
}

TEST_CASE("min chips is the resident bytes over the capacity, rounded up", "[layers]") {
    // 12 layers of 1000 x 5000 bf16 weights: 1.2e8 B... scaled: F = 50,000 gives
    // 12 x 1000*50000*2 = 1.2e9 B on 1e9 B of HBM: 2 chips; exactly 1e9 B: 1 chip.
    for (auto [layers, chips] : {std::pair{12, 2}, std::pair{10, 1}}) {
        auto r = run("sweep B = [1]\nlet D = 1000\nlayer big x " + std::to_string(layers) +
                     " {\n    matmul proj = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]\n"
                     "    let F = 50000\n}\n");
        report::ReportInfo info;
        report::ReportContext context{r.scenario(), r.evaluation, info};
        auto summary = summarize(r, context);
        auto step = report::step_totals(context, summary, 0, 0);
        CHECK(step.resident_bytes == layers * 1e8);
        CHECK(step.min_chips == chips);
        CHECK(std::isnan(step.tokens_per_s));  // no tokens statement
    }
}

TEST_CASE("nested templates: dtype parameters pass through, names resolve at the use site",
          "[layers]") {
    auto r = run(std::string(mlp) + R"(
sweep B = [2]
template block(D, W = bf16) {
    elementwise norm = bf16[B, D], weight bf16[D] -> bf16[B, D] flops 3
    use mlp(T = B, D = D, W = W)
}
use block(D = 32, W = int8) as layer0
)");
    // B is not a parameter of block: it resolves at the use site (the sweep).
    // mlp inside block: path layer0/mlp; W = int8 reached gate's weight.
    auto const& gate = r.find("gate", "layer0/mlp").metrics.counts;
    // read: 2*32*2 + 32*128*1 = 128 + 4,096.
    CHECK(gate.bytes_read == 4224);
    auto const& norm = r.find("norm", "layer0").metrics.counts;
    CHECK(norm.flops == 3 * 2 * 32);
}

TEST_CASE("tokens must be positive at every sweep point", "[layers]") {
    auto checked = test::check_text(std::string(chip) + R"(
sweep B = [1, 2, 3]
let D = 8
matmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]
let D2 = 8
tokens = 2 - B
)");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(checked->scenario, checked->diagnostics);
    CHECK_FALSE(evaluation);
    CHECK_THAT(checked->errors(), Catch::Contains("tokens must be positive, but the expression "
                                                  "gives 0 (at B = 2)"));
}
