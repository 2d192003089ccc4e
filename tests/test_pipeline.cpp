// Pipeline parallelism (issue 22, point 3; docs/multichip.md, "Pipeline
// parallelism"): a `pipeline` mesh axis, the `sendrecv` collective, and the
// stage step, the latency a user waits and the pipeline's throughput. Every
// expected value is worked out here from the formulas.
#include "helpers.hpp"
#include "stepped.hpp"

#include "roofline/cli/format.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace roofline;
using Catch::Matchers::WithinRel;
using test::contains;
using test::stepped;

namespace {

// A toy chip: 1e12 B/s of HBM, 1e14 bf16 FLOP/s, 1e11 B/s of NVLink, 4.5e10
// B/s per ICI link, 5e10 B/s of DCN; latencies by default (NVLink and ICI
// 1 us, DCN 10 us).
constexpr char const* toy_chip = R"(
hardware toy {
    hbm_bandwidth = 1e12 B/s
    hbm_capacity = 1 GB
    peak bf16 = 1e14 FLOP/s
    nvlink_bandwidth = 1e11 B/s
    ici_bandwidth = 4.5e10 B/s
    dcn_bandwidth = 5e10 B/s
}
target toy
let N = 16
let R = 1024
let C = 4096
let W = 1000
let Wo = 1000
)";

// One stage: a weight-bound matmul and the send to the next stage, at B = 8
// over a pipeline of 2 stages on NVLink.
//   w:    flops 2 x 8 x 1000 x 1000 = 1.6e7 (t_math 1.6e-7 s); bytes
//         2 (8000 + 1e6 + 8000) = 2,032,000 (t_comms 2.032e-6 s): memory-bound
//   send: V = 2 x 8 x 1000 = 16,000 B; net_bytes = V; t_net = max(16000 / 1e11
//         = 1.6e-7, 1e-6) = 1e-6 s (one NVLink latency); its HBM bytes 2 V =
//         32,000 (3.2e-8 s); t_step = t_lower = 1e-6 s
//   step (one stage) = 2.032e-6 + 1e-6 = 3.032e-6 s
// Weights 2e6 B; the cache as written 2 x 8 x 1000 = 16,000 B per micro-batch.
std::string toy_stage(std::string const& extra) {
    return std::string(toy_chip) + R"(
mesh pp = 2 over nvlink pipeline
let B = 8
tokens = B
matmul w = bf16[B, W] * weight bf16[W, Wo] -> bf16[B, Wo]
resident kv = cache bf16[B, W]
collective send = sendrecv(pp) bf16[B, W] -> bf16[B, W]
)" + extra;
}

}  // namespace

TEST_CASE("sendrecv sends each chip's whole tensor one hop: bytes V, time max(V / W, latency)",
          "[pipeline][sendrecv]") {
    SECTION("over NVLink, latency-bound and bandwidth-bound") {
        // V = 2 x 16 = 32 B: 32 / 1e11 = 3.2e-10 s, under the 1 us floor.
        // V = 2 x 1024 x 4096 = 8,388,608 B: 8,388,608 / 1e11 = 8.388608e-5 s.
        auto s = stepped(std::string(toy_chip) + R"(
mesh pp = 4 over nvlink pipeline
collective small = sendrecv(pp) bf16[N] -> bf16[N]
collective big = sendrecv(pp) bf16[R, C] -> bf16[R, C]
)");
        CHECK(s->metrics("small", 0).net_bytes == 32);
        CHECK_THAT(s->metrics("small", 0).t_net, WithinRel(1e-6, 1e-12));
        CHECK(s->metrics("big", 0).net_bytes == 8388608);
        CHECK_THAT(s->metrics("big", 0).t_net, WithinRel(8.388608e-5, 1e-12));
        CHECK(s->evaluation.collective_texts[1] == "sendrecv(pp)");
    }
    SECTION("over one ICI link and over DCN, whatever the axis's size") {
        // ICI: one link, 8,388,608 / 4.5e10 = 1.864135...e-4 s (not the ring's 2W:
        // the neighbour is one link away); DCN: / 5e10 = 1.6777216e-4 s; a 32-byte
        // send on DCN waits its 10 us latency.
        auto ici = stepped(std::string(toy_chip) + R"(
mesh X = 8 over ici pipeline
collective big = sendrecv(X) bf16[R, C] -> bf16[R, C]
)");
        CHECK(ici->metrics("big", 0).net_bytes == 8388608);
        CHECK_THAT(ici->metrics("big", 0).t_net, WithinRel(8388608 / 4.5e10, 1e-12));
        auto dcn = stepped(std::string(toy_chip) + R"(
mesh tp = 2 over nvlink, pp = 3 over dcn pipeline
collective big = sendrecv(pp) bf16[R, C@tp] -> bf16[R, C@tp]
collective small = sendrecv(pp) bf16[N] -> bf16[N]
)");
        // Split over tp: each chip sends its half, 4,194,304 B.
        CHECK(dcn->metrics("big", 0).net_bytes == 4194304);
        CHECK_THAT(dcn->metrics("big", 0).t_net, WithinRel(4194304 / 5e10, 1e-12));
        CHECK_THAT(dcn->metrics("small", 0).t_net, WithinRel(1e-5, 1e-12));
    }
    SECTION("an axis of one chip sends nothing") {
        auto s = stepped(std::string(toy_chip) + R"(
mesh pp = 1 over nvlink pipeline
collective small = sendrecv(pp) bf16[N] -> bf16[N]
)");
        CHECK(s->metrics("small", 0).net_bytes == 0);
        CHECK(s->metrics("small", 0).t_net == 0);
    }
}

TEST_CASE("sendrecv's shape rule and the pipeline axis's errors", "[pipeline][errors]") {
    auto errors = [](std::string const& body) {
        auto checked = test::check_text(std::string(toy_chip) + body);
        return checked->errors();
    };
    // The input and output the same shape, unsplit over the axis; one axis.
    CHECK(contains(errors("mesh pp = 2 over nvlink, tp = 2 over nvlink\n"
                          "collective s = sendrecv(tp) bf16[R@tp, C] -> bf16[R@tp, C]\n"),
                   "sendrecv(tp) of bf16[R@tp, C]: the input is split over 'tp'; a sendrecv sends each "
                   "chip's whole tensor to its neighbour on the axis"));
    CHECK(contains(errors("mesh pp = 2 over nvlink, tp = 2 over nvlink\n"
                          "collective s = sendrecv(pp) bf16[R@tp, C] -> bf16[R, C]\n"),
                   "sendrecv(pp) of bf16[R@tp, C] gives bf16[R@tp, C], not bf16[R, C]"));
    CHECK(contains(errors("mesh pp = 2 over nvlink, tp = 2 over nvlink\n"
                          "collective s = sendrecv(pp, tp) bf16[R, C] -> bf16[R, C]\n"),
                   "a sendrecv runs along one mesh axis, not 2"));
    // At most one pipeline axis.
    CHECK(contains(errors("mesh pp = 2 over nvlink pipeline, qq = 2 over dcn pipeline\n"),
                   "mesh axis 'qq' is a second pipeline axis; a mesh has at most one"));
    // No operand split over the stages: the scenario lists one stage's layers.
    CHECK(contains(errors("mesh tp = 2 over nvlink, pp = 2 over nvlink pipeline\n"
                          "matmul w = bf16[N, R] * weight bf16[R, C@pp] -> bf16[N, C@pp]\n"),
                   "'C' cannot be split over the pipeline axis 'pp': each stage holds its own layers, "
                   "and the scenario lists one stage's"));
    CHECK(contains(errors("mesh pp = 2 over nvlink pipeline\nresident r = weight bf16[R@pp]\n"),
                   "cannot be split over the pipeline axis 'pp'"));
    // microbatches belongs to a pipeline, and is a whole number.
    CHECK(contains(errors("mesh tp = 2 over nvlink\nlet microbatches = 4\n"),
                   "'microbatches' splits a batch over the stages of a pipeline, but the mesh has no "
                   "pipeline axis"));
    CHECK(contains(errors("mesh pp = 2 over nvlink pipeline\nlet microbatches = 2.5\n"), "'microbatches' must be"));
    // `pipeline` is the last word of an axis, after its link (and topology).
    CHECK(test::check_text(std::string(toy_chip) + "mesh X = 4 over ici ring pipeline\n")->errors().empty());
}

TEST_CASE("a pipeline's decode: token latency P x step, tokens/s B / step, the cache of P micro-batches",
          "[pipeline]") {
    auto s = stepped(toy_stage(""));
    auto step = s->step(0);
    CHECK(step.pipeline);
    CHECK(step.stages == 2);
    CHECK_THAT(step.t_lower, WithinRel(3.032e-6, 1e-12));
    CHECK_THAT(step.latency, WithinRel(2 * 3.032e-6, 1e-12));  // 6.064e-6 s between a sequence's tokens
    CHECK_THAT(step.tokens_per_s, WithinRel(8 / 3.032e-6, 1e-12));  // 2,638,522 tokens/s
    CHECK(step.weight_bytes == 2e6);
    CHECK(step.cache_bytes == 2 * 16000);  // two micro-batches in flight, each's KV on every stage
    CHECK(step.resident_bytes == 2032000);

    // The slo bounds the token latency (a user's wait), not the stage's step.
    auto miss = stepped(toy_stage("slo step <= 5 us\n"));
    auto plan = miss->plan();
    REQUIRE(plan.rows.size() == 1);
    CHECK_FALSE(plan.rows[0].chosen);  // step 3.032 us meets 5 us; 6.064 us does not
    CHECK(plan.rows[0].why == "no point meets slo token latency <= 5 µs");
    auto meet = stepped(toy_stage("slo step <= 7 us\n"));
    plan = meet->plan();
    REQUIRE(plan.rows[0].chosen);
    // Per chip: 8 / (3.032e-6 x 2 chips) = 1,319,261 tokens/s.
    CHECK_THAT(plan.rows[0].tokens_per_s_per_chip, WithinRel(8 / (3.032e-6 * 2), 1e-12));

    auto text = cli::step_summary(*s->context, s->builder->summary());
    CHECK(contains(text, "pipeline over 'pp'"));
    CHECK(contains(text, "step (one stage)"));
    CHECK(contains(text, "token latency"));
    CHECK(contains(text, "6.06 µs"));  // 6.064 us to the table's 3 digits
    auto plan_text = cli::plan_summary(*meet->context, meet->builder->summary());
    CHECK(contains(plan_text, "token latency"));
}

TEST_CASE("a pipeline's batch of M micro-batches: latency (M + P - 1) x step", "[pipeline]") {
    // M = 4 micro-batches of B = 8 through P = 2 stages: 5 steps of 3.032e-6 s
    // = 1.516e-5 s; 4 x 8 tokens in it: 2,110,818 tokens/s; the KV of all 4
    // micro-batches stays, 4 x 16,000 B.
    auto s = stepped(toy_stage("let microbatches = 4\n"));
    auto step = s->step(0);
    CHECK(step.microbatches == 4);
    CHECK_THAT(step.latency, WithinRel(5 * 3.032e-6, 1e-12));
    CHECK_THAT(step.tokens_per_s, WithinRel(32 / (5 * 3.032e-6), 1e-12));
    CHECK(step.cache_bytes == 64000);
    auto text = cli::step_summary(*s->context, s->builder->summary());
    CHECK(contains(text, "batch latency"));
    CHECK(contains(text, "15.2 µs"));  // 15.16 us to 3 digits
}

TEST_CASE("without a pipeline axis the step table has no pipeline column", "[pipeline]") {
    auto s = stepped(std::string(toy_chip) + R"(
mesh tp = 2 over nvlink
let B = 8
tokens = B
matmul w = bf16[B, W] * weight bf16[W, Wo@tp] -> bf16[B, Wo@tp]
)");
    auto step = s->step(0);
    CHECK_FALSE(step.pipeline);
    CHECK(std::isnan(step.latency));
    CHECK(step.latency_factor == 1);
    auto text = cli::step_summary(*s->context, s->builder->summary());
    CHECK_FALSE(contains(text, "latency"));
    CHECK_FALSE(contains(text, "one stage"));
    CHECK(contains(text, " step "));
    CHECK(contains(text, "overlapped"));
}

namespace {

// Llama 3.1 70B (D 8192, 64 query heads, 8 KV heads of 128, F 28672, V 128256,
// 80 layers) on H100 SXM (datasheet: 3.35e12 B/s HBM, 80 GB, 9.89e14 bf16
// FLOP/s dense, NVLink 450 GB/s per GPU one way, 8 GPUs a board; NVLink latency
// 1 us by default), decode at 8K context, bf16, layers/dense_tp.roof.
// `stages`: PP 2 x TP 4 lists one stage (40 layers, the send to the next
// stage); else TP 8 with all 80 layers. Both ends (embedding and LM head) are
// on the stage: conservative, the last stage's LM head and the first stage's
// embedding on one stage (the gather is B x D bytes, its table 525 MB a chip).
std::string llama70b(bool stages) {
    std::string mesh = stages ? "mesh tp = 4 over nvlink, pp = 2 over nvlink pipeline\n" : "mesh tp = 8 over nvlink\n";
    return R"(
include "layers/dense_tp.roof"
hardware h100 {
    hbm_bandwidth = 3.35e12 B/s
    hbm_capacity = 80 GB
    peak bf16 = 9.89e14 FLOP/s
    nvlink_bandwidth = 450 GB/s
    nvlink_domain = 8
}
target h100
)" + mesh + R"(
let D = 8192
let V = 128256
let S = 8192
sweep B = [1, 64]
tokens = B
use embedding_tp(N = B, D = D, V = V)
use dense_tp_decode(B = B, S = S, D = D, H = 64, KV = 8, Hd = 128, F = 28672) as decoder x )" +
           (stages ? "40\ncollective stage_send = sendrecv(pp) bf16[B, D] -> bf16[B, D]\n" : "80\n") +
           "use lm_head_tp(N = B, D = D, V = V)\n";
}

// The step by hand, per chip. At B = 1 and 64 every op is memory-bound on H100
// (the widest intensity, a projection's, is under B = 64 FLOP/B against a ridge
// of 9.89e14 / 3.35e12 = 295), so each op's time is its HBM bytes / 3.35e12, and
// each AllReduce's t_net follows it. Elements each op reads and writes, with
// q = (8 / tp) x 8 x 128 (the local query width), k = (8 / tp) x 128 and
// f = 28672 / tp:
//   attn_norm, mlp_norm  2BD + D       q_proj  BD + Dq + Bq    k_proj, v_proj  BD + Dk + Bk
//   rope_q  2Bq + 2 x 128 B            rope_k  2Bk + 2 x 128 B
//   scores  Bq + BSk + B (8 / tp) 8 S  softmax 2 B (8 / tp) 8 S
//   values  B (8 / tp) 8 S + BSk + Bq  o_proj  Bq + qD + BD    residuals 3BD each
//   gate, up  BD + Df + Bf             silu_mul 3Bf            down  Bf + fD + BD
// and two AllReduces of 2BD bytes a layer, each 2 x max((tp-1)/tp x 2BD / 4.5e11,
// (tp - 1) x 1 us). The ends: the embedding's gather 2BD, final_norm 2BD + D,
// logits BD + D V/tp + B V/tp. The stage's send: 2BD elements of HBM and
// max(2BD / 4.5e11, 1 us) on NVLink, whichever is longer.
double hand_step(double tp, double layers, bool send, double B) {
    double const D = 8192, S = 8192, Vc = 128256, bw = 3.35e12, nv = 4.5e11, lat = 1e-6;
    double const kl = 8 / tp, q = kl * 8 * 128, k = kl * 128, f = 28672 / tp;
    double const layer = 2 * (2 * B * D + D) + (B * D + D * q + B * q) + 2 * (B * D + D * k + B * k) +
                         (2 * B * q + 2 * 128 * B) + (2 * B * k + 2 * 128 * B) +
                         (B * q + B * S * k + B * kl * 8 * S) + 2 * B * kl * 8 * S +
                         (B * kl * 8 * S + B * S * k + B * q) + (B * q + q * D + B * D) + 2 * 3 * B * D +
                         2 * (B * D + D * f + B * f) + 3 * B * f + (B * f + f * D + B * D);
    double const allreduce = 2 * std::max((tp - 1) / tp * 2 * B * D / nv, (tp - 1) * lat);
    double const ends = 2 * B * D + (2 * B * D + D) + (B * D + D * Vc / tp + B * Vc / tp);
    double step = layers * (2 * layer / bw + 2 * allreduce) + 2 * ends / bw;
    if (send) step += std::max(2 * 2 * B * D / bw, std::max(2 * B * D / nv, lat));
    return step;
}

}  // namespace

TEST_CASE("Llama 3.1 70B decode on 8 H100s: PP 2 x TP 4 against TP 8, by hand", "[pipeline][llama]") {
    auto pp = stepped(llama70b(true), true);
    auto tp8 = stepped(llama70b(false), true);
    // Weights per chip. A layer at tp = 4: q_proj D x 2048, k and v D x 256 each,
    // o_proj 2048 x D, gate and up D x 7168, down 7168 x D, two norm gains D:
    // D (4096 + 512 + 21504 + 2) = 8192 x 26114 = 213,925,888 elements,
    // 427,851,776 B; 40 of them 17,114,071,040 B. The ends at tp = 4: the
    // embedding and the LM head 32064 x 8192 = 262,668,288 elements each, the
    // final norm 8192: 525,344,768 elements, 1,050,689,536 B. The stage:
    // 18,164,760,576 B per chip.
    CHECK(pp->step(0).weight_bytes == 18164760576.0);
    // TP 8: a layer D (2048 + 256 + 10752 + 2) = 8192 x 13058 = 106,971,136
    // elements, 213,942,272 B, 80 of them 17,115,381,760 B; the ends 16032 x
    // 8192 x 2 + 8192 = 262,676,480 elements, 525,352,960 B: 17,640,734,720 B.
    CHECK(tp8->step(0).weight_bytes == 17640734720.0);
    // The KV cache per chip: K and V of [B, 8192, 8 / tp, 128] bf16 a layer.
    // PP 2 x TP 4: 2 x 8192 x 2 x 128 x 2 = 8,388,608 B x B a layer, x 40 =
    // 335,544,320 B x B, and each stage holds the KV of both micro-batches in
    // flight: 671,088,640 B x B. TP 8: 4,194,304 x 80 = 335,544,320 B x B for
    // its one batch of B: per sequence in flight the two hold the same.
    CHECK(pp->step(1).cache_bytes == 671088640.0 * 64);
    CHECK(tp8->step(1).cache_bytes == 335544320.0 * 64);

    // The send to the next stage: 2 x B x 8192 bytes; B = 1: 16,384 B, 3.6e-8 s
    // of bandwidth, under the 1 us floor; B = 64: 1,048,576 B, 2.33e-6 s.
    CHECK(pp->metrics("stage_send", 0).net_bytes == 16384);
    CHECK_THAT(pp->metrics("stage_send", 0).t_net, WithinRel(1e-6, 1e-12));
    CHECK(pp->metrics("stage_send", 1).net_bytes == 1048576);
    CHECK_THAT(pp->metrics("stage_send", 1).t_net, WithinRel(1048576 / 4.5e11, 1e-12));

    for (std::size_t p : {0, 1}) {
        double const B = p == 0 ? 1 : 64;
        INFO("B = " << B);
        auto stage = pp->step(p);
        auto whole = tp8->step(p);
        double const t_stage = hand_step(4, 40, true, B), t_tp8 = hand_step(8, 80, false, B);
        CHECK_THAT(stage.t_lower, WithinRel(t_stage, 1e-9));
        CHECK_THAT(whole.t_lower, WithinRel(t_tp8, 1e-9));
        CHECK_THAT(stage.latency, WithinRel(2 * t_stage, 1e-9));       // between a sequence's tokens
        CHECK_THAT(stage.tokens_per_s, WithinRel(B / t_stage, 1e-9));  // B each stage step
        CHECK_THAT(stage.tokens_per_s / stage.chips, WithinRel(B / (8 * t_stage), 1e-9));
        CHECK(stage.chips == 8);
        CHECK_THAT(whole.tokens_per_s, WithinRel(B / t_tp8, 1e-9));
    }
    // The numbers (hand_step): B = 1: the stage 5.864 ms, so 11.73 ms between a
    // sequence's tokens and 170.5 tokens/s (21.32 a GPU), against TP 8's 7.548 ms
    // a token (docs/multichip.md section 10: 7.55 ms) and 132.5 tokens/s (16.56 a
    // GPU): PP 2 gives more tokens per GPU (its AllReduces over 4 GPUs floor at
    // 6 us, TP 8's at 14 us) but each user waits 1.55 times longer. B = 64: the
    // stage 13.26 ms (26.52 ms a token, 4,826 tokens/s, 603 a GPU) against TP 8's
    // 15.15 ms (4,223 tokens/s, 528 a GPU).
    CHECK_THAT(hand_step(4, 40, true, 1), WithinRel(5.8639e-3, 1e-4));
    CHECK_THAT(hand_step(8, 80, false, 1), WithinRel(7.5482e-3, 1e-4));
    CHECK_THAT(hand_step(4, 40, true, 64), WithinRel(13.262e-3, 1e-4));
    CHECK_THAT(hand_step(8, 80, false, 64), WithinRel(15.155e-3, 1e-4));
}
