// The shipped model templates (templates/layers/) and scenarios
// (scenarios/llama3-*.roof, scenarios/mixtral-*.roof) against numbers worked
// out by hand from the published shapes and the formulas of reports.md:
// FLOPs = 2 x the product of a matmul's distinct axes (K x the output's
// elements for an elementwise op); bytes = elements x bytes per element;
// resident bytes = every `weight`/`cache` operand and `resident` declaration
// x its layer count. Hardware numbers from templates/hardware/:
// H100 SXM 3.35e12 B/s, 81008 MiB (84,943,044,608 B: the 79.11 GiB the driver
// reports); H200 143155 MiB (150,108,897,280 B); MI300X 192 GB.
//
// Shapes (config.json of each model):
//   Llama 3 8B   L 32, D 4096, H 32, KV 8, Hd 128, F 14336, V 128256
//   Llama 3 70B  L 80, D 8192, H 64, KV 8, Hd 128, F 28672, V 128256
//   Mixtral 8x7B L 32, D 4096, H 32, KV 8, Hd 128, F 14336, E 8, top-2, V 32000
#include "helpers.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/model/load.hpp"
#include "roofline/engine/network.hpp"
#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace roofline;
using Catch::Matchers::WithinRel;

namespace {

// Parameter counts, by hand.
//
// Llama 3 8B, per decoder layer:
//   q  D x H x Hd   = 4096 x 4096  =  16,777,216
//   k  D x KV x Hd  = 4096 x 1024  =   4,194,304
//   v                                   4,194,304
//   o  H x Hd x D                  =  16,777,216
//   gate, up, down  3 x 4096 x 14336 = 176,160,768
//   two RMSNorm gains  2 x 4096   =       8,192
//   layer total                      218,112,000  (matmuls alone: 218,103,808)
// x 32 layers = 6,979,584,000; embedding 128256 x 4096 = 525,336,576 and the
// untied LM head as much: 1,050,673,152; final norm 4,096.
// Total 6,979,584,000 + 1,050,673,152 + 4,096 = 8,030,261,248.
constexpr double llama8b_params = 8'030'261'248.0;
constexpr double llama8b_norm_params = 266'240.0;    // (2 x 32 + 1) x 4096
constexpr double llama8b_table_bytes = 1'050'673'152.0;  // embedding 525,336,576 x 2 B
// KV cache: K and V, 32 layers x 8 heads x 128 x 2 B = 131,072 B per token;
// x 8192 positions = 1,073,741,824 B per sequence.
constexpr double llama8b_kv_per_sequence = 1'073'741'824.0;

// Llama 3 70B, per decoder layer:
//   q, o  2 x 8192 x 8192 = 134,217,728;  k, v  2 x 8192 x 1024 = 16,777,216
//   gate, up, down 3 x 8192 x 28672 = 704,643,072;  norms 2 x 8192 = 16,384
//   layer total 855,654,400;  x 80 = 68,452,352,000
// embedding + LM head 2 x 128256 x 8192 = 2,101,346,304; final norm 8,192.
// Total 70,553,706,496 parameters: 141,107,412,992 B in bf16 (141.1 GB).
constexpr double llama70b_params = 70'553'706'496.0;
constexpr double llama70b_norm_params = 1'318'912.0;  // (2 x 80 + 1) x 8192
// KV cache: 2 x 80 x 8 x 128 x 2 B = 327,680 B per token; x 8192 = 2,684,354,560.
constexpr double llama70b_kv_per_sequence = 2'684'354'560.0;

// Mixtral 8x7B, per decoder layer:
//   attention as Llama 3 8B: 41,943,040
//   experts 8 x 3 x 4096 x 14336 = 8 x 176,160,768 = 1,409,286,144
//   router 4096 x 8 = 32,768;  norms 8,192
//   layer total 1,451,270,144;  x 32 = 46,440,644,608
// embedding + LM head 2 x 32000 x 4096 = 262,144,000; final norm 4,096.
// Total 46,702,792,704 parameters (the published 46.7B).
constexpr double mixtral_params = 46'702'792'704.0;
constexpr double mixtral_norm_params = 266'240.0;  // (2 x 32 + 1) x 4096

// A checked, evaluated scenario with its summary, as `roofline run` builds it.
struct ModelRun {
    Diagnostics diagnostics;
    Program program;
    Program overrides;  // --set values
    model::Scenario scenario;
    engine::Evaluation evaluation;
    report::ReportInfo info;
    std::unique_ptr<report::ReportContext> context;
    std::unique_ptr<report::SummaryBuilder> builder;

    std::size_t target(std::string const& id) const {
        for (std::size_t t = 0; t < scenario.targets.size(); ++t)
            if (scenario.hardware[static_cast<std::size_t>(scenario.targets[t])].id == id) return t;
        FAIL("no target " << id);
        return 0;
    }
    // The point where the first sweep (B in every model scenario) is `value`.
    std::size_t point(double value) const {
        for (std::size_t p = 0; p < evaluation.point_count; ++p)
            if (evaluation.sweep_value(p, 0) == value) return p;
        FAIL("no point with the first sweep at " << value);
        return 0;
    }
    engine::Case const& find(std::string const& op, std::string const& layer, std::size_t point,
                             std::size_t target) const {
        for (auto const& c : evaluation.cases) {
            auto const& m = scenario.ops[c.op];
            if (m.name == op && m.layer == layer && c.point == point && c.target == target)
                return c;
        }
        FAIL("no case " << layer << "/" << op);
        throw;
    }
    // At the first point, on the first target.
    std::string compute_dtype(std::string const& op, std::string const& layer) const {
        return scenario.dtypes[find(op, layer, 0, 0).compute_dtype].name;
    }
    // FLOPs of one instance of the ops under layer path `prefix` (the layer
    // itself and the layers nested in it), not multiplied by the counts.
    double flops_under(std::string const& prefix, std::size_t point, std::size_t target) const {
        double sum = 0;
        for (auto const& c : evaluation.cases) {
            auto const& layer = scenario.ops[c.op].layer;
            bool under = layer == prefix || layer.rfind(prefix + "/", 0) == 0;
            if (under && c.point == point && c.target == target) sum += c.metrics.counts.flops;
        }
        return sum;
    }
    report::StepTotals step(std::size_t point, std::size_t target) const {
        return report::step_totals(*context, builder->summary(), point, target);
    }
    double bandwidth(std::size_t target) const {
        return scenario.hardware[static_cast<std::size_t>(scenario.targets[target])]
            .hbm_bytes_per_s;
    }
};

std::unique_ptr<ModelRun> finish(std::unique_ptr<ModelRun> r, bool checked = false) {
    if (!checked) r->scenario = model::check(r->program, {}, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE_FALSE(r->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r->scenario, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    r->context = std::make_unique<report::ReportContext>(
        report::ReportContext{r->scenario, r->evaluation, r->info});
    r->builder = std::make_unique<report::SummaryBuilder>(*r->context);
    for (auto const& c : r->evaluation.cases) r->builder->add(c);
    return r;
}

LoadOptions templates_path() { return LoadOptions{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}}; }

// A shipped scenario, read from disk with the shipped templates.
std::unique_ptr<ModelRun> run_scenario(std::string const& name) {
    auto r = std::make_unique<ModelRun>();
    DiskFileSystem disk;
    r->program = load_program(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/" + name, disk,
                              templates_path(), r->diagnostics);
    return finish(std::move(r));
}

// The same with --set values, as `roofline run SCENARIO --set ...` reads it.
std::unique_ptr<ModelRun> run_scenario(std::string const& name, std::vector<std::string> const& sets) {
    auto r = std::make_unique<ModelRun>();
    auto loaded = model::load_scenario(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/" + name,
                                       std::nullopt, {std::string(ROOFLINE_SOURCE_DIR) + "/templates"},
                                       {}, r->diagnostics, sets);
    r->program = std::move(loaded.program);
    r->overrides = std::move(loaded.overrides);
    r->scenario = std::move(loaded.scenario);
    return finish(std::move(r), true);
}

// The W8A8 variant of a shipped model scenario.
std::unique_ptr<ModelRun> run_fp8(std::string const& name) { return run_scenario(name, {"wdt=fp8"}); }

// A scenario text that uses the shipped templates.
std::unique_ptr<ModelRun> run_text(std::string const& text) {
    auto r = std::make_unique<ModelRun>();
    DiskFileSystem disk;
    r->program = load_program_text("test.roof", text, disk, templates_path(), r->diagnostics);
    return finish(std::move(r));
}

char const* const model_scenarios[] = {
    "llama3-8b-decode.roof",     "llama3-8b-prefill.roof",     "llama3-70b-decode.roof",
    "llama3-70b-prefill.roof",   "mixtral-8x7b-decode.roof",   "mixtral-8x7b-prefill.roof",
};

}  // namespace

TEST_CASE("every shipped model scenario checks without warnings and evaluates", "[models]") {
    for (auto const* name : model_scenarios) {
        INFO(name);
        auto r = run_scenario(name);
        std::size_t warnings = 0;
        for (auto const& d : r->diagnostics.all())
            if (d.severity == Severity::warning) ++warnings;
        INFO(format(r->diagnostics));
        CHECK(warnings == 0);
        CHECK(r->evaluation.has_tokens);
        CHECK(r->evaluation.has_resident);
        CHECK(r->scenario.targets.size() == 4);
        // Every case is supported: each target has a peak for bf16 and fp8.
        CHECK(r->builder->summary().unsupported_count == 0);
        auto both = run_scenario(name, {"wdt=[bf16, fp8]"});
        CHECK(both->diagnostics.all().empty());
        CHECK(both->evaluation.point_count == 2 * r->evaluation.point_count);
        CHECK(both->builder->summary().unsupported_count == 0);
        // Every catalog chip with an fp8 rate lists it for fp8_e4m3 too.
        auto e4m3 = run_scenario(name, {"wdt=fp8_e4m3"});
        CHECK(e4m3->diagnostics.all().empty());
        CHECK(e4m3->builder->summary().unsupported_count == 0);
    }
}

TEST_CASE("the layer templates are closed: every name they use is a parameter or a let",
          "[models]") {
    // Names a template body does not bind resolve at the use site. With no
    // top-level values at all, any such name is an error here, so a template
    // cannot pick up a scenario's `let` by accident.
    auto r = run_text(R"(
        include "layers/dense.roof"
        include "layers/moe.roof"
        include "layers/lm_head.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s }
        target chip
        use embedding(N = 3, D = 16, V = 100)
        use attention(B = 3, T = 2, S = 5, D = 16, H = 4, KV = 2, Hd = 4)
        use gated_mlp(N = 3, D = 16, F = 24)
        use dense_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use dense_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24,
                          wdt = fp8, mdt = fp8)
        use moe_mlp(T = 3, D = 16, F = 24, E = 4, k = 2)
        use moe_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24, E = 4, k = 2)
        use moe_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24, E = 4, k = 2,
                        wdt = fp8, adt = bf16, mdt = fp8, kvdt = fp8)
        use lm_head(N = 3, D = 16, V = 100))");
    CHECK(r->builder->summary().unsupported_count == 0);
    // moe_mlp at T = 3, k = 2: A = min(4, 6) = 4 experts, C = ceil(6 / 4) = 2.
    // gate: 2 x 4 x 2 x 16 x 24 = 6,144 FLOPs.
    CHECK(r->find("gate", "moe_mlp", 0, 0).metrics.counts.flops == 6'144.0);
}

TEST_CASE("one dense decoder layer: FLOPs, bytes and resident bytes by hand", "[models]") {
    // Llama 3 8B shapes; one decode layer (B tokens, S = 8192 cached
    // positions) and one prefill layer (1 prompt of T = 2048 tokens).
    auto r = run_text(R"(
        include "layers/dense.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        sweep B = [1, 4]
        use dense_decode(B = B, S = 8192, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336) as dec
        use dense_prefill(B = 1, T = 2048, D = 4096, H = 32, KV = 8, Hd = 128, F = 14336) as pre
        tokens = B)");
    std::size_t chip = r->target("chip");

    // Decode, per token (B tokens in a step):
    //   matmuls 2 x 218,103,808 parameters                  = 436,207,616
    //   scores 2 x H x S x Hd = 2 x 32 x 8192 x 128         =  67,108,864
    //   values, the same                                     =  67,108,864
    //   elementwise, FLOPs per element x elements per token:
    //     attn_norm 4 x 4096 = 16,384   rope_q 3 x 32 x 128 = 12,288
    //     rope_k 3 x 8 x 128 = 3,072    softmax 5 x 32 x 8192 = 1,310,720
    //     attn_residual 4,096           mlp_norm 16,384
    //     silu_mul 5 x 14336 = 71,680   mlp_residual 4,096   sum 1,438,720
    //   total 436,207,616 + 134,217,728 + 1,438,720 = 571,864,064 per token.
    for (double b : {1.0, 4.0}) {
        INFO("B = " << b);
        CHECK(r->flops_under("dec", r->point(b), chip) == 571'864'064.0 * b);
    }

    // Prefill, N = B x T = 2048 tokens, attention over T x T (mask not halved):
    //   matmuls 2 x 2048 x 218,103,808                       = 893,353,197,568
    //   scores + values 2 x 2 x 2048 x 32 x 2048 x 128       =  68,719,476,736
    //   elementwise per token as above but softmax 5 x 32 x 2048 = 327,680:
    //     1,438,720 - 1,310,720 + 327,680 = 455,680; x 2048 =    933,232,640
    //   total                                                  963,005,906,944
    CHECK(r->flops_under("pre", r->point(1), chip) == 963'005'906'944.0);

    // The decode scores at B = 4 against the K cache:
    //   flops 2 x 4 x 32 x 8192 x 128 = 268,435,456
    //   read  q 4 x 4096 x 2 = 32,768  +  K cache 4 x 8192 x 8 x 128 x 2 = 67,108,864
    //   write 4 x 32 x 8192 x 2 = 2,097,152
    auto const& scores = r->find("scores", "dec/attention", r->point(4), chip).metrics;
    CHECK(scores.counts.flops == 268'435'456.0);
    CHECK(scores.counts.bytes_read == 32'768.0 + 67'108'864.0);
    CHECK(scores.counts.bytes_written == 2'097'152.0);

    // Resident at B = 4: weights of both layers, 2 x 218,112,000 x 2 B each;
    // caches K and V: decode 2 x 4 x 8192 x 1024 x 2 = 134,217,728,
    // prefill 2 x 1 x 2048 x 1024 x 2 = 8,388,608.
    auto const& facts = r->evaluation.point_facts[r->point(4)];
    CHECK(facts.weight_bytes == 2 * 436'224'000.0);
    CHECK(facts.cache_bytes == 134'217'728.0 + 8'388'608.0);
    CHECK(facts.tokens == 4);
}

TEST_CASE("Llama 3 8B and 70B: resident weight and cache bytes from the parameter counts",
          "[models]") {
    SECTION("8B bf16: 2 bytes x 8,030,261,248 = 16,060,522,496 B") {
        auto r = run_scenario("llama3-8b-decode.roof");
        for (double b : {1.0, 8.0, 256.0}) {
            INFO("B = " << b);
            auto const& facts = r->evaluation.point_facts[r->point(b)];
            CHECK(facts.weight_bytes == 2 * llama8b_params);
            CHECK(facts.weight_bytes == 16'060'522'496.0);
            CHECK(facts.cache_bytes == b * llama8b_kv_per_sequence);
            CHECK(facts.tokens == b);
        }
    }
    SECTION("8B fp8: the matmul weights halve, the 266,240 norm gains stay bf16") {
        // 1 x (8,030,261,248 - 266,240) + 2 x 266,240 = 8,030,527,488 B:
        // half of the bf16 bytes plus the gains' 266,240 B.
        auto r = run_fp8("llama3-8b-decode.roof");
        auto const& facts = r->evaluation.point_facts[r->point(1)];
        CHECK(facts.weight_bytes == llama8b_params + llama8b_norm_params);
        CHECK(facts.weight_bytes == 8'030'527'488.0);
        CHECK(facts.weight_bytes == 2 * llama8b_params / 2 + llama8b_norm_params);
        CHECK(facts.cache_bytes == llama8b_kv_per_sequence);  // the KV cache stays bf16
    }
    SECTION("70B bf16 and fp8") {
        auto bf16 = run_scenario("llama3-70b-decode.roof");
        auto fp8 = run_fp8("llama3-70b-decode.roof");
        auto const& a = bf16->evaluation.point_facts[bf16->point(1)];
        auto const& b = fp8->evaluation.point_facts[fp8->point(1)];
        CHECK(a.weight_bytes == 141'107'412'992.0);  // 2 x 70,553,706,496
        CHECK(a.weight_bytes == 2 * llama70b_params);
        // 70,553,706,496 + 1,318,912 (the gains' second byte) = 70,555,025,408
        CHECK(b.weight_bytes == llama70b_params + llama70b_norm_params);
        CHECK(a.cache_bytes == llama70b_kv_per_sequence);
        CHECK(b.cache_bytes == llama70b_kv_per_sequence);
    }
    SECTION("8B prefill: the cache written by B prompts of 2048 tokens") {
        // 131,072 B per token x 2048 = 268,435,456 B per prompt; tokens = B x 2048.
        auto r = run_scenario("llama3-8b-prefill.roof");
        for (double b : {1.0, 8.0}) {
            auto const& facts = r->evaluation.point_facts[r->point(b)];
            CHECK(facts.weight_bytes == 2 * llama8b_params);
            CHECK(facts.cache_bytes == b * 268'435'456.0);
            CHECK(facts.tokens == b * 2048);
        }
    }
}

TEST_CASE("decode at batch 1 is memory-bound: a step reads the weights and the KV cache once",
          "[models]") {
    SECTION("Llama 3 8B bf16, exact bytes on every target") {
        auto r = run_scenario("llama3-8b-decode.roof");
        std::size_t p = r->point(1);
        // What a step must read: every weight once, except the embedding
        // table (only the token's row), and the whole KV cache:
        //   16,060,522,496 - 1,050,673,152 + 1,073,741,824 = 16,083,591,168 B.
        double must_read = 2 * llama8b_params - llama8b_table_bytes + llama8b_kv_per_sequence;
        CHECK(must_read == 16'083'591'168.0);
        // On top of it, by hand, per decoder layer at B = 1, S = 8192 (bf16):
        //   norms 2 x 16,384; q 16,384; k, v 10,240 each; rope_q 16,896;
        //   rope_k 4,608; scores 8,192 + 524,288 (scores written);
        //   softmax 2 x 524,288; values 524,288 + 8,192; o 16,384;
        //   residuals 2 x 24,576; gate, up, down 36,864 each;
        //   silu_mul 86,016: 2,466,816 B;  x 32 = 78,938,112
        // the ends: gather 16,384; final norm 16,384; logits 8,192 +
        //   256,512: 297,472.   Extra 79,235,584 B (0.49 %).
        double total = must_read + 79'235'584.0;
        CHECK(total == 16'162'826'752.0);
        for (auto const* hw : {"h100_sxm", "h200", "mi300x", "tpu_v5p"}) {
            INFO(hw);
            std::size_t t = r->target(hw);
            for (auto const& c : r->evaluation.cases)
                if (c.point == p && c.target == t) CHECK(c.metrics.bound == engine::Bound::memory);
            auto step = r->step(p, t);
            CHECK(step.memory_share == 1.0);
            double bw = r->bandwidth(t);
            // Memory-bound everywhere, so t_lower = bytes / bandwidth (summed
            // op by op: a relative rounding error of a few ulp).
            CHECK_THAT(step.t_lower, WithinRel(total / bw, 1e-12));
            // Within 1 % of what must be read: activations, scores and
            // logits add 0.49 %.
            CHECK(step.t_lower >= must_read / bw);
            CHECK(step.t_lower <= 1.01 * must_read / bw);
            CHECK_THAT(step.tokens_per_s, WithinRel(1 / step.t_lower, 1e-15));
        }
    }
    SECTION("Llama 3 70B bf16 on H100") {
        auto r = run_scenario("llama3-70b-decode.roof");
        std::size_t p = r->point(1), t = r->target("h100_sxm");
        // 141,107,412,992 - 2,101,346,304 (embedding table) + 2,684,354,560
        //   = 141,690,421,248 B. The scores of 64 heads x 8192 positions add
        //   about 4 x 1 MB per layer (0.24 %): 1 % is the tolerance.
        double must_read = 141'690'421'248.0;
        CHECK(must_read == 2 * llama70b_params - 2 * 128256.0 * 8192 + llama70b_kv_per_sequence);
        auto step = r->step(p, t);
        CHECK(step.memory_share == 1.0);
        CHECK(step.t_lower >= must_read / 3.35e12);   // 42.3 ms
        CHECK(step.t_lower <= 1.01 * must_read / 3.35e12);
    }
    SECTION("fp8 weights: a step reads about half as much") {
        auto r = run_fp8("llama3-8b-decode.roof");
        std::size_t p = r->point(1), t = r->target("h100_sxm");
        // 8,030,527,488 - 525,336,576 (fp8 table) + 1,073,741,824 (bf16 cache)
        //   = 8,578,932,736 B, 53 % of the bf16 step's 16,162,826,752.
        double must_read = 8'578'932'736.0;
        auto step = r->step(p, t);
        CHECK(step.memory_share == 1.0);
        CHECK(step.t_lower >= must_read / 3.35e12);
        CHECK(step.t_lower <= 1.01 * must_read / 3.35e12);
        CHECK(r->compute_dtype("q_proj", "decoder/attention") == "fp8");
        CHECK(r->compute_dtype("down", "decoder/mlp") == "fp8");
        CHECK(r->compute_dtype("logits", "lm_head") == "fp8");
        CHECK(r->compute_dtype("scores", "decoder/attention") == "bf16");  // bf16 q, bf16 cache
        CHECK(r->compute_dtype("mlp_norm", "decoder") == "bf16");  // `compute adt`
    }
}

TEST_CASE("Llama 3 70B bf16 needs two 80 GB chips", "[models]") {
    auto r = run_scenario("llama3-70b-decode.roof");
    std::size_t h100 = r->target("h100_sxm");
    // B = 1: 141,107,412,992 + 2,684,354,560 = 143,791,767,552 B;
    //        / 84,943,044,608 = 1.69 -> 2 chips.
    auto one = r->step(r->point(1), h100);
    CHECK(one.resident_bytes == 143'791'767'552.0);
    CHECK(one.capacity == 81008.0 * 1048576.0);
    CHECK(one.min_chips == 2);
    // B = 8: 141,107,412,992 + 21,474,836,480 = 162,582,249,472 B -> 1.91 -> still 2.
    CHECK(r->step(r->point(8), h100).resident_bytes == 162'582'249'472.0);
    CHECK(r->step(r->point(8), h100).min_chips == 2);
    // B = 16: + 42,949,672,960 = 184,057,085,952 B -> 2.17 -> 3.
    CHECK(r->step(r->point(16), h100).min_chips == 3);
    // H200, 150,108,897,280 B: B = 1 0.96 -> 1; B = 4 151,844,831,232 B -> 1.01 -> 2.
    // MI300X, 192 GB: 1.
    CHECK(r->step(r->point(1), r->target("h200")).min_chips == 1);
    CHECK(r->step(r->point(4), r->target("h200")).min_chips == 2);
    CHECK(r->step(r->point(1), r->target("mi300x")).min_chips == 1);

    // fp8 weights fit one H100 at B = 1: 70,555,025,408 + 2,684,354,560 =
    // 73,239,379,968 B < 84,943,044,608.
    auto fp8 = run_fp8("llama3-70b-decode.roof");
    auto step = fp8->step(fp8->point(1), fp8->target("h100_sxm"));
    CHECK(step.resident_bytes == 73'239'379'968.0);
    CHECK(step.min_chips == 1);
}

TEST_CASE("Mixtral 8x7B: all 8 experts resident, a batch-1 step reads 2", "[models]") {
    auto r = run_scenario("mixtral-8x7b-decode.roof");
    std::size_t h100 = r->target("h100_sxm");

    // Resident weights: 2 B x 46,702,792,704 = 93,405,585,408 at every batch.
    for (double b : {1.0, 4.0, 256.0}) {
        INFO("B = " << b);
        auto const& facts = r->evaluation.point_facts[r->point(b)];
        CHECK(facts.weight_bytes == 2 * mixtral_params);
        CHECK(facts.weight_bytes == 93'405'585'408.0);
        CHECK(facts.cache_bytes == b * llama8b_kv_per_sequence);  // same attention shapes
    }

    // One expert matrix: 4096 x 14336 = 58,720,256 parameters, 117,440,512 B.
    // B = 1: T k = 2 (token, expert) pairs -> A = min(8, 2) = 2 experts,
    // C = ceil(2 / 2) = 1 token each. gate reads 2 experts' matrices and the
    // token twice: 2 x 117,440,512 + 2 x 1 x 4096 x 2 = 234,897,408 B;
    // 2 x 2 x 1 x 4096 x 14336 = 234,881,024 FLOPs.
    auto const& gate1 = r->find("gate", "decoder/moe", r->point(1), h100).metrics;
    CHECK(gate1.counts.bytes_read == 234'897'408.0);
    CHECK(gate1.counts.flops == 234'881'024.0);
    // B = 4: 8 pairs -> A = 8, C = 1: every expert is read.
    // 8 x 117,440,512 + 8 x 4096 x 2 = 939,589,632 B.
    CHECK(r->find("gate", "decoder/moe", r->point(4), h100).metrics.counts.bytes_read ==
          939'589'632.0);
    // B = 256: 512 pairs -> A = 8, C = 64: 2 x 8 x 64 x 4096 x 14336 =
    // 60,129,542,144 FLOPs; 939,524,096 + 8 x 64 x 4096 x 2 = 943,718,400 B.
    auto const& gate256 = r->find("gate", "decoder/moe", r->point(256), h100).metrics;
    CHECK(gate256.counts.flops == 60'129'542'144.0);
    CHECK(gate256.counts.bytes_read == 943'718'400.0);

    // The batch-1 step reads 2 of 8 experts: of the 32 x 3 x 8 x 117,440,512 =
    // 90,194,313,216 B of experts, 6/8 (67,645,734,912 B) stay unread, and so
    // does the embedding table (32000 x 4096 x 2 = 262,144,000 B):
    //   93,405,585,408 - 67,645,734,912 - 262,144,000 = 25,497,706,496 B of
    //   weights, + 1,073,741,824 B of KV cache = 26,571,448,320 B, against a
    //   resident 94,479,327,232 B.
    double must_read = 26'571'448'320.0;
    auto step = r->step(r->point(1), h100);
    CHECK(step.resident_bytes == 93'405'585'408.0 + 1'073'741'824.0);
    CHECK(step.memory_share == 1.0);
    CHECK(step.t_lower >= must_read / 3.35e12);
    CHECK(step.t_lower <= 1.01 * must_read / 3.35e12);  // activations: about 0.3 %
    // Resident 94.5 GB: 2 H100s, 1 H200.
    CHECK(step.min_chips == 2);
    CHECK(r->step(r->point(1), r->target("h200")).min_chips == 1);

    // fp8: (46,702,792,704 - 266,240) x 1 + 266,240 x 2 = 46,703,058,944 B.
    auto fp8 = run_fp8("mixtral-8x7b-decode.roof");
    CHECK(fp8->evaluation.point_facts[fp8->point(1)].weight_bytes ==
          mixtral_params + mixtral_norm_params);
    CHECK(fp8->compute_dtype("gate", "decoder/moe") == "fp8");
}

TEST_CASE("prefill: the large matmuls are compute-bound and tokens count B x T", "[models]") {
    auto r = run_scenario("llama3-8b-prefill.roof");
    std::size_t h100 = r->target("h100_sxm"), p = r->point(1);
    // gate at 2048 tokens: 2 x 2048 x 4096 x 14336 = 240,518,168,576 FLOPs over
    // 2048 x 4096 x 2 + 4096 x 14336 x 2 + 2048 x 14336 x 2 = 192,937,984 B:
    // 1246.6 FLOP/B, above the H100's bf16 ridge 9.89e14 / 3.35e12 = 295.2.
    auto const& gate = r->find("gate", "decoder/mlp", p, h100).metrics;
    CHECK(gate.counts.flops == 240'518'168'576.0);
    CHECK(gate.counts.bytes_read + gate.counts.bytes_written == 192'937'984.0);
    CHECK(gate.bound == engine::Bound::compute);
    CHECK_THAT(gate.t_lower, WithinRel(240'518'168'576.0 / 9.89e14, 1e-15));
    auto step = r->step(p, h100);
    CHECK(step.tokens == 2048);
    // Mostly compute: the matmuls take about 2 x 2048 x 7.0e9 / 9.89e14 = 29 ms;
    // the materialized 2048 x 2048 scores (268 MB per layer, written, read
    // and written by the softmax, read again) about 32 x 1.07 GB / 3.35e12 =
    // 10 ms, memory-bound.
    CHECK_THAT(step.tokens_per_s, WithinRel(2048 / step.t_lower, 1e-15));
    CHECK(step.memory_share < 0.5);
}

// Issue 11: `--set 'wdt=[bf16, fp8]'` is one report holding the cases of the
// two reports `--set wdt=bf16` and `--set wdt=fp8`, case for case.
TEST_CASE("a dtype sweep is the reports of its dtypes, case for case", "[models][dtype-sweep]") {
    auto both = run_scenario("llama3-70b-decode.roof", {"wdt=[bf16, fp8]"});
    auto bf16 = run_scenario("llama3-70b-decode.roof", {"wdt=bf16"});
    auto fp8 = run_fp8("llama3-70b-decode.roof");
    auto const& sweeps = both->scenario.sweeps;
    REQUIRE(sweeps.size() == 2);
    REQUIRE(sweeps[0].name == "B");
    REQUIRE(sweeps[1].name == "wdt");  // replaced in the let's place, after B
    CHECK(sweeps[1].of_dtypes);
    CHECK_FALSE(sweeps[0].of_dtypes);
    REQUIRE(bf16->scenario.sweeps.size() == 1);
    auto const& e = both->evaluation;
    REQUIRE(e.point_count == 18);
    REQUIRE(e.cases.size() == 2 * bf16->evaluation.cases.size());
    std::size_t compared = 0;
    for (auto const& c : e.cases) {
        double b = e.sweep_value(c.point, 0);
        std::string const dtype = *both->scenario.sweep_dtype_name(1, e.sweep_value(c.point, 1));
        auto const& single = dtype == "bf16" ? *bf16 : *fp8;
        REQUIRE((dtype == "bf16" || dtype == "fp8"));
        auto const& op = both->scenario.ops[c.op];
        auto const& d = single.find(op.name, op.layer, single.point(b), c.target);
        INFO(op.layer << "/" << op.name << " B = " << b << " wdt = " << dtype);
        CHECK(both->scenario.dtypes[c.compute_dtype].name ==
              single.scenario.dtypes[d.compute_dtype].name);
        CHECK(c.metrics.counts.flops == d.metrics.counts.flops);
        CHECK(c.metrics.counts.bytes_read == d.metrics.counts.bytes_read);
        CHECK(c.metrics.counts.bytes_written == d.metrics.counts.bytes_written);
        CHECK(c.metrics.peak == d.metrics.peak);
        CHECK(c.metrics.t_lower == d.metrics.t_lower);
        CHECK(c.metrics.bound == d.metrics.bound);
        double critical = e.critical_value(c, 0), single_critical = single.evaluation.critical_value(d, 0);
        CHECK((critical == single_critical || (std::isnan(critical) && std::isnan(single_critical))));
        auto const& facts = e.point_facts[c.point];
        auto const& single_facts = single.evaluation.point_facts[d.point];
        CHECK(facts.weight_bytes == single_facts.weight_bytes);
        CHECK(facts.cache_bytes == single_facts.cache_bytes);
        ++compared;
    }
    CHECK(compared == 1440);  // 20 ops x 4 targets x 9 batch sizes x 2 dtypes
    // By hand: fp8 weights are 1 byte per matmul parameter, the 161 x 8192 =
    // 1,318,912 norm gains stay bf16: (70,553,706,496 - 1,318,912) + 2 x
    // 1,318,912 = 70,555,025,408 bytes; bf16 weights twice the parameters.
    std::size_t const fp8_point = 1, bf16_point = 0;  // B = 1, wdt second
    CHECK(*both->scenario.sweep_dtype_name(1, e.sweep_value(fp8_point, 1)) == "fp8");
    CHECK(e.point_facts[fp8_point].weight_bytes == 70'555'025'408.0);
    CHECK(e.point_facts[bf16_point].weight_bytes == 2 * 70'553'706'496.0);
    // q_proj at B = 1 reads its 8192 x 8192 weight and its 8192 inputs in
    // fp8 (W8A8), and computes in fp8.
    auto const& q = both->find("q_proj", "decoder/attention", fp8_point, 0);
    CHECK(both->scenario.dtypes[q.compute_dtype].name == "fp8");
    CHECK(q.metrics.counts.bytes_read == 8192.0 * 8192 + 8192);
}

TEST_CASE("dtype lets and sweeps: misuse is an error at its place", "[dtype-sweep]") {
    auto check_text = [](std::string const& text) {
        Diagnostics diagnostics;
        DiskFileSystem disk;
        auto program = load_program_text("t.roof", text, disk, templates_path(), diagnostics);
        if (!diagnostics.has_errors()) (void)model::check(program, {}, diagnostics);
        return format(diagnostics);
    };
    std::string const head =
        "hardware h { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\ntarget h\nsweep B = [1, 2]\n";
    CHECK(check_text(head + "sweep wdt = [bf16, 3]\nmatmul q = bf16[B] * wdt[B] -> bf16[]\n")
              .find("t.roof:4:20: error: sweep 'wdt' lists dtypes, so each of its values must be a dtype, "
                    "not a number or an expression") != std::string::npos);
    CHECK(check_text(head + "sweep wdt = [bf16, fp33]\nmatmul q = bf16[B] * wdt[B] -> bf16[]\n")
              .find("t.roof:4:20: error: sweep 'wdt' lists dtypes, so each of its values must be a dtype, "
                    "not unknown dtype 'fp33'; did you mean 'fp32'?") != std::string::npos);
    CHECK(check_text(head + "sweep wdt = [bf16, fp8]\nlet X = wdt * 2\nmatmul q = bf16[B] * wdt[X] -> bf16[]\n")
              .find("t.roof:5:9: error: 'wdt' is a dtype, not a value") != std::string::npos);
    CHECK(check_text(head + "let wdt = fp8\nmatmul q = bf16[B] * wdt[wdt] -> bf16[]\n")
              .find("t.roof:5:26: error: unknown axis 'wdt'") != std::string::npos);
    // A dtype let through a chain, written before what it names.
    CHECK(check_text(head + "let a = b\nlet b = bf16\nmatmul q = a[B] * b[B] -> bf16[]\n") == "");
    // A sweep of dtype lets, and a let naming that sweep, in any order.
    CHECK(check_text(head + "let m = w\nsweep w = [a, b]\nlet a = bf16\nlet b = bf16\n"
                            "matmul q = m[B] * w[B] -> bf16[]\n") == "");
    // A misspelt dtype in a --set: one error, at the --set, with the dtype meant.
    {
        Diagnostics diagnostics;
        auto loaded = model::load_scenario(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/llama3-8b-decode.roof",
                                           std::nullopt, {std::string(ROOFLINE_SOURCE_DIR) + "/templates"},
                                           {}, diagnostics, {"wdt=bf17"});
        auto text = format(diagnostics);
        CHECK(text.rfind("<--set wdt=bf17>:1:5: error: unknown name 'bf17'; did you mean 'bf16'?", 0) == 0);
        CHECK(text.find("error:") == text.rfind("error:"));
    }
    // Lets in a cycle stay values, and the cycle is the error.
    CHECK(check_text(head + "let a = b\nlet b = a\nmatmul q = bf16[B] * bf16[B] -> bf16[]\n")
              .find("error: 'a' depends on itself: a -> b -> a") != std::string::npos);
}

TEST_CASE("Llama 3 70B tensor-parallel: per-GPU weights and KV cache by hand, tp = 1 as one GPU",
          "[models][multichip]") {
    auto tp = run_scenario("llama3-70b-decode-tp.roof", {"TP=[1, 8]", "B=[1]"});
    INFO(format(tp->diagnostics));
    REQUIRE(tp->evaluation.point_count == 2);
    // 70,553,706,496 parameters, of which the 80 x 2 + 1 norm gains of D = 8192
    // (1,318,912) are on every GPU and the rest split 8 ways, in bf16.
    double norms = 161.0 * 8192;
    CHECK(tp->evaluation.point_facts[0].weight_bytes == 70553706496.0 * 2);
    CHECK(tp->evaluation.point_facts[1].weight_bytes == (70553706496.0 - norms) * 2 / 8 + norms * 2);
    CHECK(tp->evaluation.point_facts[1].weight_bytes == 17640734720.0);
    // KV cache: 327,680 bytes per token x 8192 positions, an eighth per GPU.
    CHECK(tp->evaluation.point_facts[0].cache_bytes == 327680.0 * 8192);
    CHECK(tp->evaluation.point_facts[1].cache_bytes == 327680.0 * 8192 / 8);
    CHECK(tp->evaluation.chips_at(1) == 8);
    // At tp = 1 the decoder's cases are those of the one-GPU scenario.
    auto one = run_scenario("llama3-70b-decode.roof", {"B=[1]"});
    std::size_t compared = 0;
    for (auto const& c : tp->evaluation.cases) {
        if (c.point != 0) continue;
        auto const& op = tp->scenario.ops[c.op];
        if (op.layer.rfind("decoder", 0) != 0) continue;
        for (auto const& o : one->evaluation.cases) {
            auto const& other = one->scenario.ops[o.op];
            auto hw = [](ModelRun const& r, engine::Case const& x) {
                return r.scenario.hardware[static_cast<std::size_t>(r.scenario.targets[x.target])].id;
            };
            if (other.name != op.name || other.layer != op.layer || hw(*one, o) != hw(*tp, c)) continue;
            CHECK(o.metrics.counts.flops == c.metrics.counts.flops);
            CHECK(o.metrics.t_lower == c.metrics.t_lower);
            ++compared;
        }
    }
    CHECK(compared == 17 * 2);  // 17 decoder ops on the 2 common targets (H100, H200)
}

// Mixtral 8x7B expert-parallel (layers/moe_ep.roof): of the 46,702,792,704
// parameters, the experts, 32 layers x 3 x 8 x 4096 x 14336 =
// 32 x 1,409,286,144 = 45,097,156,608, are split EP ways; the other
// 1,605,636,096 (attention 41,943,040 + router 32,768 + norms 8,192 per
// layer = 41,984,000 x 32 = 1,343,488,000; embedding + LM head 262,144,000;
// final norm 4,096) are on every GPU.
TEST_CASE("Mixtral 8x7B expert-parallel: per-GPU weights, KV cache and all-to-alls by hand, ep = 1 as one GPU",
          "[models][multichip]") {
    auto r = run_scenario("mixtral-8x7b-decode-ep.roof", {"EP=[1, 2, 8]", "Bc=[1, 32]"});
    REQUIRE(r->evaluation.point_count == 6);
    auto at = [&](double ep, double bc) {
        for (std::size_t p = 0; p < r->evaluation.point_count; ++p)
            if (r->evaluation.sweep_value(p, 0) == ep && r->evaluation.sweep_value(p, 1) == bc) return p;
        FAIL("no point EP = " << ep << ", Bc = " << bc);
        return std::size_t{0};
    };
    std::size_t h100 = r->target("h100_sxm");
    constexpr double experts = 45'097'156'608.0, replicated = 1'605'636'096.0;
    CHECK(experts + replicated == mixtral_params);
    for (double ep : {1.0, 2.0, 8.0}) {
        for (double bc : {1.0, 32.0}) {
            INFO("EP = " << ep << ", Bc = " << bc);
            auto p = at(ep, bc);
            auto const& facts = r->evaluation.point_facts[p];
            CHECK(facts.weight_bytes == 2 * (replicated + experts / ep));
            // Each GPU holds the KV cache of its own Bc sequences.
            CHECK(facts.cache_bytes == bc * llama8b_kv_per_sequence);
            CHECK(r->evaluation.chips_at(p) == ep);
            CHECK(r->step(p, h100).tokens == bc * ep);
        }
    }
    // The same, multiplied out: EP = 2: 2 x (1,605,636,096 + 22,548,578,304);
    // EP = 8: 2 x (1,605,636,096 + 5,637,144,576).
    CHECK(r->evaluation.point_facts[at(2, 1)].weight_bytes == 48'308'428'800.0);
    CHECK(r->evaluation.point_facts[at(8, 1)].weight_bytes == 14'485'561'344.0);

    // EP = 8, Bc = 32: B = 256 tokens, 512 (token, expert) rows; each GPU
    // sends R = 512 / 8^2 = 8 rows of 4096 bf16 (8,192 B) to each GPU. Its
    // shard of the send buffer [Dst, Src@ep, R, D]: 8 x 8 x 8,192 = 524,288 B;
    // V = 8 x 524,288 = 4,194,304 B; it receives (N - 1) V / N^2 =
    // 7 x 4,194,304 / 64 = 458,752 B (7 blocks of 65,536 B), in
    // 458,752 / 450e9 = 1.019 us, just over the one 1 us step of a switch.
    for (auto const* name : {"dispatch", "collect"}) {
        INFO(name);
        auto const& a2a = r->find(name, "decoder/moe", at(8, 32), h100).metrics;
        CHECK(a2a.net_bytes == 458'752.0);
        CHECK(a2a.counts.bytes_read == 524'288.0);
        CHECK(a2a.counts.bytes_written == 524'288.0);
        CHECK_THAT(a2a.t_net, WithinRel(458'752.0 / 450e9, 1e-15));
        CHECK(a2a.bound == engine::Bound::network);
    }
    CHECK(engine::collective_text(
              r->scenario, r->scenario.ops[r->find("dispatch", "decoder/moe", 0, h100).op]) == "alltoall(ep)");
    // EP = 8, Bc = 1: 16 rows, 2 per GPU, but R = ceil(16 / 64) = 1 row to
    // each GPU (padding): 7 x (8 x 8,192 x 8) / 64 = 57,344 B, and the 1 us
    // step, not the 0.13 us of bandwidth, sets the time.
    auto const& small = r->find("dispatch", "decoder/moe", at(8, 1), h100).metrics;
    CHECK(small.net_bytes == 57'344.0);
    CHECK_THAT(small.t_net, WithinRel(1e-6, 1e-15));
    // One GPU: nothing crosses the network.
    CHECK(r->find("dispatch", "decoder/moe", at(1, 32), h100).metrics.net_bytes == 0);

    // The experts each GPU reads. EP = 8, Bc = 32: A = min(8, 512) = 8
    // experts, C = 64 rows each; one expert per GPU: gate
    // 2 x 64 x 4096 x 14336 = 7,516,192,768 FLOPs, reads 117,440,512 B of
    // weight + 64 x 4096 x 2 = 524,288 B of rows.
    auto const& gate = r->find("gate", "decoder/moe", at(8, 32), h100).metrics;
    CHECK(gate.counts.flops == 7'516'192'768.0);
    CHECK(gate.counts.bytes_read == 117'964'800.0);
    // EP = 2, Bc = 1: B = 2, 4 rows, A = 4 experts of one row each, 2 per
    // GPU: each GPU reads 2 experts, as one GPU does at B = 1
    // (2 x 117,440,512 + 2 x 8,192 = 234,897,408 B): no faster per token.
    CHECK(r->find("gate", "decoder/moe", at(2, 1), h100).metrics.counts.bytes_read == 234'897'408.0);

    // The batch-1 step on 8 H100s (B = 8, A = 8: each GPU reads its one
    // expert of every layer) reads its 14,485,561,344 B of weights less the
    // embedding table (262,144,000 B, of which it reads one row) and its one
    // sequence's KV cache (1,073,741,824 B): 15,297,159,168 B; and each of
    // the 64 all-to-alls takes at least its 1 us step.
    double must_read = 15'297'159'168.0;
    auto step = r->step(at(8, 1), h100);
    CHECK(step.t_lower >= must_read / 3.35e12 + 64e-6);
    CHECK(step.t_lower <= 1.01 * (must_read / 3.35e12 + 64e-6));
    CHECK(step.resident_bytes == 14'485'561'344.0 + 1'073'741'824.0);

    // At EP = 1 every decoder op but the two all-to-alls is that of the
    // one-GPU scenario at B = Bc.
    auto one = run_scenario("mixtral-8x7b-decode.roof", {"B=[1, 32]"});
    auto hw = [](ModelRun const& m, engine::Case const& x) {
        return m.scenario.hardware[static_cast<std::size_t>(m.scenario.targets[x.target])].id;
    };
    std::size_t compared = 0;
    for (auto const& c : r->evaluation.cases) {
        if (r->evaluation.sweep_value(c.point, 0) != 1) continue;
        auto const& op = r->scenario.ops[c.op];
        if (op.layer.rfind("decoder", 0) != 0 || op.name == "dispatch" || op.name == "collect") continue;
        for (auto const& o : one->evaluation.cases) {
            auto const& other = one->scenario.ops[o.op];
            if (other.name != op.name || other.layer != op.layer || hw(*one, o) != hw(*r, c) ||
                one->evaluation.sweep_value(o.point, 0) != r->evaluation.sweep_value(c.point, 1))
                continue;
            INFO(op.layer << "/" << op.name);
            CHECK(o.metrics.counts.flops == c.metrics.counts.flops);
            CHECK(o.metrics.counts.bytes_read == c.metrics.counts.bytes_read);
            CHECK(o.metrics.t_lower == c.metrics.t_lower);
            ++compared;
        }
    }
    CHECK(compared == 20 * 2 * 2);  // 20 decoder ops x 2 batches x 2 common targets (H100, H200)
}

// Llama 3 70B on a TPU v5e 4 x 4 (layers/dense_2d.roof): every matmul weight
// split over the 16 chips, the 161 norm gains of 8192 on every chip.
TEST_CASE("Llama 3 70B on a TPU v5e 4 x 4: per-chip weights, KV cache and collectives by hand",
          "[models][multichip]") {
    auto r = run_scenario("llama3-70b-decode-v5e.roof");
    std::size_t v5e = r->target("tpu_v5e");
    // (70,553,706,496 - 1,318,912) x 2 B / 16 + 1,318,912 x 2 B
    //   = 8,819,048,448 + 2,637,824 = 8,821,686,272 B.
    for (double b : {4.0, 32.0, 64.0}) {
        INFO("B = " << b);
        auto p = r->point(b);
        auto const& facts = r->evaluation.point_facts[p];
        CHECK(facts.weight_bytes == (llama70b_params - llama70b_norm_params) * 2 / 16 + llama70b_norm_params * 2);
        CHECK(facts.weight_bytes == 8'821'686'272.0);
        // B / 4 sequences x 2 of 8 key/value heads: a sixteenth of the cache.
        CHECK(facts.cache_bytes == b * llama70b_kv_per_sequence / 16);
        CHECK(r->evaluation.chips_at(p) == 16);
    }
    // B = 32: 8,821,686,272 + 32 x 167,772,160 = 14,190,395,392 B fit in
    // 16 GiB (17,179,869,184 B); B = 64: 19,559,104,512 B do not.
    auto s32 = r->step(r->point(32), v5e);
    CHECK(s32.resident_bytes == 14'190'395'392.0);
    CHECK(s32.capacity == 17'179'869'184.0);
    CHECK(r->step(r->point(64), v5e).resident_bytes == 19'559'104'512.0);

    // The all-to-all after attention at B = 32: each chip's shard
    // [B/4, 1, KV/4, G, Hd] = 8 x 2 x 8 x 128 bf16 = 32,768 B; V = 4 x 32,768
    // = 131,072 B over Y = 4; it receives (N - 1) V / N^2 = 3 x 131,072 / 16
    // = 24,576 B. A line of 4: floor(16 / 4) V / (16 W) = 131,072 / 1.8e11 =
    // 0.73 us of bandwidth under 3 hops of 1 us: 3 us.
    auto const& heads = r->find("heads", "decoder/attention", r->point(32), v5e).metrics;
    CHECK(heads.net_bytes == 24'576.0);
    CHECK_THAT(heads.t_net, WithinRel(3e-6, 1e-15));
    // q_proj at B = 32: 2 x 32 x (8192 / 4) x (8 / 4) x 8 x 128 =
    // 268,435,456 FLOPs per chip; partial sums [32, 1, 2, 8, 128] bf16 =
    // 131,072 B, reduce-scattered over Y: 3/4 x 131,072 = 98,304 B received.
    auto const& q = r->find("q_proj", "decoder/attention", r->point(32), v5e).metrics;
    CHECK(q.counts.flops == 268'435'456.0);
    CHECK(q.net_bytes == 98'304.0);
    CHECK(engine::collective_text(
              r->scenario, r->scenario.ops[r->find("q_proj", "decoder/attention", 0, v5e).op]) == "reducescatter(Y)");
    // The MLP's AllReduce over both lines at B = 128: V = 128 x 8192 x 2 =
    // 2,097,152 B; 2 x 15/16 x V = 3,932,160 B received; each pass 15/16 V
    // over the two axes' links, 2 x 4.5e10 B/s: 2 x 15/16 x V / 9e10 = 43.7 us.
    auto const& down = r->find("down", "decoder/mlp", r->point(128), v5e).metrics;
    CHECK(down.net_bytes == 3'932'160.0);
    CHECK_THAT(down.t_net, WithinRel(2 * (15.0 / 16) * 2'097'152.0 / 9e10, 1e-15));
    CHECK(engine::collective_text(
              r->scenario, r->scenario.ops[r->find("down", "decoder/mlp", 0, v5e).op]) == "allreduce(X,Y)");
}

TEST_CASE("the multi-chip layer templates are closed, and moe_mlp_ep by hand", "[models][multichip]") {
    // As "the layer templates are closed", with a mesh holding the axes the
    // templates name (ep; X and Y).
    auto r = run_text(R"(
        include "layers/moe_ep.roof"
        include "layers/dense_2d.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  peak fp8 = 2e15 FLOP/s
                        nvlink_bandwidth = 100 GB/s  nvlink_domain = 8  ici_bandwidth = 5e10 B/s }
        target chip
        mesh ep = 2 over nvlink, X = 2 over ici, Y = 2 over ici
        use embedding_dp(N = 4, D = 16, V = 100)
        use moe_mlp_ep(N = 4, D = 16, F = 24, E = 4, k = 2, EP = 2)
        use moe_ep_decode(B = 4, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24, E = 4, k = 2, EP = 2)
        use moe_ep_prefill(B = 2, T = 3, D = 16, H = 4, KV = 2, Hd = 4, F = 24, E = 4, k = 2, EP = 2,
                           wdt = fp8, mdt = fp8)
        use lm_head_dp(N = 4, D = 16, V = 100)
        use embedding_2d(N = 4, D = 16, V = 100)
        use dense_2d_decode(B = 4, S = 5, D = 16, H = 8, KV = 2, Hd = 4, F = 24)
        use dense_2d_prefill(B = 2, T = 3, D = 16, H = 8, KV = 2, Hd = 4, F = 24)
        use lm_head_2d(N = 4, D = 16, V = 100))");
    CHECK(r->builder->summary().unsupported_count == 0);
    CHECK(r->evaluation.chips_at(0) == 8);
    // moe_mlp_ep at N = 4, k = 2, E = 4, EP = 2: A = min(4, 8) = 4 experts,
    // C = ceil(8 / 4) = 2 rows each, 2 experts per GPU: gate
    // 2 x 2 x 2 x 16 x 24 = 3,072 FLOPs per GPU. Dispatch: R = ceil(8 / 4) =
    // 2 rows to each GPU; the shard [2, 1, 2, 16] bf16 = 128 B, V = 256 B;
    // (2 - 1) x 256 / 4 = 64 B received; 64 B / 100 GB/s under the 1 us step.
    CHECK(r->find("gate", "moe_mlp_ep", 0, 0).metrics.counts.flops == 3'072.0);
    auto const& dispatch = r->find("dispatch", "moe_mlp_ep", 0, 0).metrics;
    CHECK(dispatch.net_bytes == 64.0);
    CHECK(dispatch.counts.bytes_read == 128.0);
    CHECK_THAT(dispatch.t_net, WithinRel(1e-6, 1e-15));
}
