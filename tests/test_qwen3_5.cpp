// Qwen3.5-397B-A17B (Qwen3_5MoeForConditionalGeneration) through `roofline
// import`: the parameter counts against the model card, one Gated DeltaNet
// layer's decode step (the same at every S), one full-attention layer's, the
// recurrent state per sequence, and the chunked prefill; every number worked
// by hand in the comments.
#include "command.hpp"
#include "helpers.hpp"
#include "import_error.hpp"
#include "qwen3_5_config.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/importer/import_config.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using namespace roofline;
using roofline::test::contains;
using roofline::test::import_error;
using namespace roofline::test::qwen3_5;

namespace {

struct Evaluated {
    Diagnostics diagnostics;
    Program program;
    model::Scenario scenario;
    engine::Evaluation evaluation;

    std::size_t point(double b) const {
        for (std::size_t p = 0; p < evaluation.point_count; ++p)
            if (evaluation.sweep_value(p, 0) == b) return p;
        FAIL("no point with B = " << b);
        return 0;
    }
    engine::Case const& find(std::string const& op, std::string const& layer, double b) const {
        for (auto const& c : evaluation.cases)
            if (scenario.ops[c.op].name == op && scenario.ops[c.op].layer == layer &&
                c.point == point(b) && c.target == 0)
                return c;
        FAIL("no case " << layer << "/" << op);
        throw;
    }
};

// The imported text, on h200 only (tpu_v5p has no onchip_bandwidth: its
// kernels' on-chip traffic would be a warning), with `S` replaced when given.
std::string imported(model::ImportMode mode, std::string const& context = "") {
    model::ImportOptions options;
    options.mode = mode;
    options.targets = {"h200"};
    auto text = model::import_config(qwen3_5_config(published_layer_types()), "config.json", options).text;
    if (!context.empty()) {
        auto at = text.find("let S = 8192");
        REQUIRE(at != std::string::npos);
        text.replace(at, 12, "let S = " + context);
    }
    return text;
}

std::unique_ptr<Evaluated> evaluate(std::string const& text) {
    auto r = std::make_unique<Evaluated>();
    DiskFileSystem disk;
    r->program = load_program_text("imported.roof", text, disk,
                                   LoadOptions{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}},
                                   r->diagnostics);
    r->scenario = model::check(r->program, {}, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE_FALSE(r->diagnostics.has_errors());
    for (auto const& d : r->diagnostics.all()) CHECK(d.severity != Severity::warning);
    auto evaluation = engine::evaluate(r->scenario, r->diagnostics);
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    return r;
}

}  // namespace

TEST_CASE("qwen3.5: 397B parameters, 17B active, as the model card rounds them", "[qwen3_5]") {
    // D = 4096, Cc = 2 x 16 x 128 + 64 x 128 = 12,288. Per Gated DeltaNet layer:
    //   in_proj_qkv 4096 x 12288 = 50,331,648; in_proj_z 4096 x 8192 = 33,554,432;
    //   in_proj_b, _a 2 x 4096 x 64 = 524,288; conv1d 12288 x 4 = 49,152;
    //   A_log, dt_bias 128; norm 128; out_proj 8192 x 4096 = 33,554,432: 118,014,208.
    // Per full-attention layer: q and gate 2 x 4096 x 8192 = 67,108,864; k, v
    //   2 x 4096 x 512 = 4,194,304; o 33,554,432; q/k norms 512: 104,858,112.
    // MoE: router 4096 x 512 = 2,097,152; experts 512 x 3 x 4096 x 1024 =
    //   6,442,450,944; shared 3 x 4096 x 1024 = 12,582,912; its gate 4,096:
    //   6,457,135,104. Norms 2 x 4096 = 8,192.
    // 45 x 6,575,157,504 + 15 x 6,562,001,408 = 394,312,108,800; embedding and
    // LM head 2 x 248320 x 4096 = 2,034,237,440; final norm 4,096:
    // 396,346,350,336 = 397B - 0.16 % (the card's 397B includes the vision
    // tower, about 0.45B, which is left out; within 0.5 %).
    auto result = model::import_config(qwen3_5_config(published_layer_types()), "config.json");
    CHECK(result.parameters == 396'346'350'336.0);
    CHECK(result.parameters > 397e9 * 0.995);
    CHECK(contains(result.text, "# Parameters: 396,346,350,336"));
    // Active: 10 experts of 12,582,912 = 125,829,120, + router, shared, gate:
    // 140,513,280 per layer; 45 x (118,014,208 + 140,513,280 + 8,192) +
    // 15 x (104,858,112 + 140,513,280 + 8,192) = 11,634,105,600 +
    // 3,680,693,760; + the LM head 248320 x 4096 = 1,017,118,720 (not the
    // embedding table: a token reads one row of it) + 4,096 = 16,331,922,176.
    // The card's "A17B" counts the table too: 17,349,040,896, 2 % above 17e9
    // (the card gives no more digits).
    CHECK(contains(result.text, "# Active parameters per token: 16,331,922,176"));
    auto r = evaluate(imported(model::ImportMode::decode));
    CHECK(r->evaluation.point_facts[r->point(1)].weight_bytes == 2 * 396'346'350'336.0);
}

TEST_CASE("qwen3.5: a Gated DeltaNet decode step, by hand, the same at every S", "[qwen3_5]") {
    auto r = evaluate(imported(model::ImportMode::decode));
    // The recurrent kernel at B = 1: Hk = 16, Hv = 64, dk = dv = 128.
    // FLOPs: k_norm 3 x 2048 = 6,144; q_norm 4 x 2048 = 8,192; decay
    // 64 x 16384 = 1,048,576; S^T k 2,097,152; delta 2 x 8192 = 16,384;
    // update 2,097,152; readout 2,097,152: 7,370,752.
    auto const& rule = r->find("delta_rule", "linear/deltanet", 1).metrics.counts;
    CHECK(rule.flops == 7'370'752.0);
    // HBM read: k, q 2 x 2048 x 2 B = 8,192; the fp32 state 64 x 128 x 128 x 4
    // = 4,194,304; decay and beta 2 x 64 x 4 = 512; v 8192 x 2 = 16,384:
    // 4,219,392. Written: o 16,384 and the state 4,194,304: 4,210,688.
    CHECK(rule.bytes_read == 4'219'392.0);
    CHECK(rule.bytes_written == 4'210'688.0);
    // At B = 8, eight times each.
    CHECK(r->find("delta_rule", "linear/deltanet", 8).metrics.counts.bytes_read == 8 * 4'219'392.0);
    // The conv: Cc = 12,288 channels of 4 taps: 2 x 12288 x 4 = 98,304 FLOPs and
    // SiLU 4 x 12288 = 49,152; read the window (3 state positions + the new
    // input) 12288 x 4 x 2 B = 98,304 and the weights 98,304; written the
    // output 24,576 and the state 12288 x 3 x 2 = 73,728.
    auto const& conv = r->find("conv", "linear/deltanet", 1).metrics.counts;
    CHECK(conv.flops == 147'456.0);
    CHECK(conv.bytes_read == 196'608.0);
    CHECK(conv.bytes_written == 98'304.0);

    // Every case of the linear layers is the same at S = 2048 as at 8192.
    auto short_context = evaluate(imported(model::ImportMode::decode, "2048"));
    REQUIRE(short_context->evaluation.cases.size() == r->evaluation.cases.size());
    std::size_t linear_cases = 0;
    for (std::size_t i = 0; i < r->evaluation.cases.size(); ++i) {
        auto const& a = r->evaluation.cases[i];
        auto const& b = short_context->evaluation.cases[i];
        if (r->scenario.ops[a.op].layer.rfind("linear", 0) != 0) continue;
        ++linear_cases;
        CHECK(a.metrics.counts.flops == b.metrics.counts.flops);
        CHECK(a.metrics.counts.bytes_read == b.metrics.counts.bytes_read);
        CHECK(a.metrics.counts.bytes_written == b.metrics.counts.bytes_written);
    }
    CHECK(linear_cases > 0);
}

TEST_CASE("qwen3.5: the state per sequence is fixed, the KV cache grows with S", "[qwen3_5]") {
    // Per linear layer and sequence: the conv state 12288 x 3 x 2 B = 73,728
    // and the recurrent state 4,194,304: 4,268,032; x 45 = 192,061,440.
    // Per full layer: K and V 2 x S x 2 x 256 x 2 B: at S = 8192 16,777,216,
    // x 15 = 251,658,240; at S = 2048 4,194,304 x 15 = 62,914,560.
    auto r = evaluate(imported(model::ImportMode::decode));
    CHECK(r->evaluation.point_facts[r->point(1)].cache_bytes == 192'061'440.0 + 251'658'240.0);
    CHECK(r->evaluation.point_facts[r->point(4)].cache_bytes == 4 * (192'061'440.0 + 251'658'240.0));
    auto short_context = evaluate(imported(model::ImportMode::decode, "2048"));
    CHECK(short_context->evaluation.point_facts[short_context->point(1)].cache_bytes ==
          192'061'440.0 + 62'914'560.0);
}

TEST_CASE("qwen3.5: a full-attention decode step, by hand", "[qwen3_5]") {
    auto r = evaluate(imported(model::ImportMode::decode));
    // B = 1, S = 8192, H = 32, KV = 2, Hd = 256: scores 2 x 32 x 8192 x 256 =
    // 134,217,728 FLOPs; reads q 8192 x 2 B = 16,384 and K 8192 x 2 x 256 x 2
    // = 8,388,608; writes 32 x 8192 x 2 = 524,288.
    auto const& scores = r->find("scores", "full/attention", 1).metrics.counts;
    CHECK(scores.flops == 134'217'728.0);
    CHECK(scores.bytes_read == 16'384.0 + 8'388'608.0);
    CHECK(scores.bytes_written == 524'288.0);
    // The output gate's projection: 2 x 4096 x 8192 = 67,108,864 FLOPs, its
    // weights 4096 x 8192 x 2 B = 67,108,864 B; the gate 4 x 8192 = 32,768.
    CHECK(r->find("gate_proj", "full/attention", 1).metrics.counts.flops == 67'108'864.0);
    CHECK(r->find("output_gate", "full/attention", 1).metrics.counts.flops == 32'768.0);
    // Partial RoPE on R = 64 of 256 dims: 32 x 64 = 2,048 elements x 3 FLOPs;
    // reads 2048 x 2 + cos, sin 2 x 64 x 2 = 4,352 B.
    auto const& rope = r->find("rope_q", "full/attention", 1).metrics.counts;
    CHECK(rope.flops == 6'144.0);
    CHECK(rope.bytes_read == 4'352.0);
}

TEST_CASE("qwen3.5: the chunked prefill of one Gated DeltaNet layer, by hand", "[qwen3_5]") {
    auto r = evaluate(imported(model::ImportMode::prefill));
    // B = 1, T = 2048, chunks of 64. FLOPs: the norms 7 x 2048 x 16 x 128 =
    // 29,360,128; the state work 6 x 2048 x 64 x 128 x 128 = 12,884,901,888;
    // intra-chunk 2048 x 64 x 64 x (6 x 128 + 4 x 128) = 10,737,418,240.
    auto const& rule = r->find("delta_rule", "linear/deltanet", 1).metrics.counts;
    CHECK(rule.flops == 29'360'128.0 + 12'884'901'888.0 + 10'737'418'240.0);
    // Read: q, k 2 x 2048 x 2048 x 2 B = 16,777,216; the gates 2 x 2048 x 64 x
    // 4 = 1,048,576; v 2048 x 8192 x 2 = 33,554,432. Written: o 33,554,432
    // and the final state 4,194,304 (no state read: a fresh prompt).
    CHECK(rule.bytes_read == 16'777'216.0 + 1'048'576.0 + 33'554'432.0);
    CHECK(rule.bytes_written == 33'554'432.0 + 4'194'304.0);
}

TEST_CASE("qwen3.5: without layer_types every full_attention_interval-th layer is full, errors",
          "[qwen3_5]") {
    auto text = model::import_config(qwen3_5_config(""), "config.json").text;
    CHECK(contains(text, "let Ll = 45"));
    CHECK(contains(text, "as full x (L - Ll)"));
    auto odd = published_layer_types();
    odd.replace(odd.find("full_attention"), 14, "sliding_attention");
    CHECK(contains(import_error(qwen3_5_config(odd)), "field 'layer_types' holds \"sliding_attention\""));
    auto no_text = std::string(R"({"architectures": ["Qwen3_5MoeForConditionalGeneration"]})");
    // Without text_config the top level is read as the text model (import_config.cpp,
    // since Kimi-K2.5): its fields are missing there.
    CHECK(contains(import_error(no_text),
                   "missing field 'num_hidden_layers', which Qwen3_5MoeForConditionalGeneration needs"));
}
