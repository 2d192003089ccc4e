// The serve engine (docs/serving.md, sections 2 and 3): a step's time is the
// roofline of its ops' counts summed over the step's sequences and chunks;
// the KV capacity from HBM, weights and the activation reserve; one request
// alone (closed(1)) by hand; the prompt that does not fit, an error at its
// line; and the same seed, the same figures. The tiny scenario and its
// counts: serve_engine_tiny.hpp.
#include "serve_engine_tiny.hpp"

#include "engine/serve_step.hpp"
#include "roofline/engine/serve.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;

namespace {

bool close(double a, double b, double rel = 1e-12) { return std::fabs(a - b) <= rel * std::fabs(b); }

std::vector<engine::ServeResult> serve_of(test::Checked& checked) {
    auto grid = engine::prepare(checked.scenario, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(grid);
    auto results = engine::evaluate_serve(checked.scenario, *grid, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(results);
    return std::move(*results);
}

// closed(1) on the tiny chip with a calibration that sets only what `set`
// does (every factor 1, every other overhead 0): its one serve result.
template <class Set>
engine::ServeResult closed_one_with(Set&& set) {
    auto checked = test::tiny_serve({});
    model::Calibration c;
    c.name = "only";
    c.hardware = checked->scenario.hardware[static_cast<std::size_t>(checked->scenario.targets[0])].id;
    set(c);
    checked->scenario.calibrations = {c};
    checked->scenario.target_calibrations = {0};
    auto results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    return std::move(results[0]);
}

}  // namespace

TEST_CASE("A step's time is the roofline of its counts summed over sequences and chunks",
          "[serve-engine]") {
    auto checked = test::tiny_serve({});
    std::vector<double> const point;  // no sweeps
    engine::serving::StepModel model(checked->scenario, point, {}, {});
    using engine::serving::Chunk;
    // Two decoders at contexts 10 and 30, tokens 2:
    //   linear at N = 2: flops 4e6 (4e-9 s), bytes 2e6 + 8000 = 2.008e6 -> 2.008e-6 s
    //   decode summed: flops 2000 x 40 = 8e4 (8e-11 s), bytes 2 x 2000 + 2002 x 40
    //   = 84,080 -> 8.408e-8 s (one op over 40 positions, a query row per sequence)
    //   step = 2.008e-6 + 8.408e-8 = 2.09208e-6
    std::vector<std::uint32_t> contexts{10, 30};
    double const decode_step = model.seconds({contexts, {}, 2}, 0);
    CHECK(close(decode_step, 2.09208e-6));
    // The order of the sequences does not matter, and the memo gives it again.
    std::vector<std::uint32_t> reversed{30, 10};
    CHECK(model.seconds({reversed, {}, 2}, 0) == decode_step);
    // Two chunks, {100 at 0} and {50 at 200}, tokens 150:
    //   linear at N = 150: flops 3e8 (3e-7 s), bytes 2e6 + 6e5 = 2.6e6 -> 2.6e-6 s
    //   chunk 1: PT = 100: flops 2000 x 100 x 100 = 2e7; bytes 2 (1e5 + 1e5 + 1e4) = 4.2e5
    //   chunk 2: PT = 250: flops 2000 x 50 x 250 = 2.5e7; bytes 2 (5e4 + 2.5e5 + 12,500) = 6.25e5
    //   summed: flops 4.5e7 (4.5e-8 s), bytes 1.045e6 -> 1.045e-6 s
    //   step = 2.6e-6 + 1.045e-6 = 3.645e-6
    std::vector<Chunk> chunks{{100, 0}, {50, 200}};
    CHECK(close(model.seconds({{}, chunks, 150}, 0), 3.645e-6));
    // Both at once, tokens 152: linear at N = 152: bytes 2e6 + 608,000 -> 2.608e-6 s
    //   step = 2.608e-6 + 8.408e-8 + 1.045e-6 = 3.73708e-6
    CHECK(close(model.seconds({contexts, chunks, 152}, 0), 3.73708e-6));
    CHECK_FALSE(model.error());
}

TEST_CASE("A decode op not affine in the context (a sliding window) sums each context's counts",
          "[serve-engine]") {
    test::TinyServe s;
    s.window = true;
    auto checked = test::tiny_serve(s);
    std::vector<double> const point;
    engine::serving::StepModel model(checked->scenario, point, {}, {});
    // Contexts 10 and 12, inside the window: both ops on a line so far.
    //   linear N = 2: 2.008e-6 s; scores: 4000 + 2002 x 22 = 48,044 B; window (SW = 10, 12)
    //   the same 48,044 B: step = 2.008e-6 + 2 x 4.8044e-8 = 2.104088e-6
    std::vector<std::uint32_t> inside{10, 12};
    CHECK(close(model.seconds({inside, {}, 2}, 0), 2.104088e-6));
    // Contexts 10, 30, 20: SW = 10, 16, 16, off the line through 10 and 12.
    //   linear N = 3: bytes 2e6 + 12,000 -> 2.012e-6 s
    //   scores: 6000 + 2002 x 60 = 126,120 B -> 1.2612e-7 s
    //   window: 6000 + 2002 x 42 = 90,084 B -> 9.0084e-8 s (not 6000 + 2002 x 60)
    //   step = 2.012e-6 + 1.2612e-7 + 9.0084e-8 = 2.228204e-6
    std::vector<std::uint32_t> across{10, 30, 20};
    CHECK(close(model.seconds({across, {}, 3}, 0), 2.228204e-6));
    // And again at 12 and 14, both memoized: 2.008e-6 + 2 x (4000 + 2002 x 26) 1e-12 = 2.120104e-6
    std::vector<std::uint32_t> again{12, 14};
    CHECK(close(model.seconds({again, {}, 2}, 0), 2.120104e-6));
    CHECK_FALSE(model.error());
}

TEST_CASE("The KV capacity: HBM x memory_utilization less the weights and the reserve, per KV token",
          "[serve-engine]") {
    auto checked = test::tiny_serve({});
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    // weights: proj's bf16[D, F] = 2e6 B; the reserve, the largest linear
    // op's activations at N = max_step_tokens = 100: in 2 x 100 x 1000 = 2e5
    // + out 2e5 = 4e5 B; a context position: the cache bf16[S, D] grows by
    // 2 x 1000 = 2000 B. Capacity = floor((0.9 x 1e7 - 2e6 - 4e5) / 2000) = 3300.
    CHECK(r.weight_bytes == 2e6);
    CHECK(r.reserve_bytes == 4e5);
    CHECK(r.kv_bytes_per_token == 2000);
    CHECK(r.kv_capacity_tokens == 3300);
    CHECK(r.problem.empty());
    // One request at a time reserves prompt + output = 110 tokens.
    CHECK(r.peak_kv_tokens == 110);

    // 2e6 B of HBM: 0.9 x 2e6 = 1.8e6 B is less than the weights alone.
    test::TinyServe small;
    small.capacity = "2e6 B";
    auto none = test::tiny_serve(small);
    auto const problem = serve_of(*none);
    REQUIRE(problem.size() == 1);
    CHECK(problem[0].problem ==
          "the weights (0.002 GB) and reserve (4e-04 GB) leave no room for the KV cache in 0.9 x "
          "0.002 GB of hardware 'toy'");
    CHECK(problem[0].steps == 0);
}

TEST_CASE("One request alone (closed(1)): TTFT is its prefill step, TPOT the mean of its decode steps",
          "[serve-engine]") {
    auto checked = test::tiny_serve({});
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    // TTFT: the step of tokens 100, one chunk {100 at 0}:
    //   linear N = 100: flops 2e8 (2e-7 s), bytes 2.4e6 -> 2.4e-6 s
    //   prefill PT = 100: flops 2e7 (2e-8 s), bytes 4.2e5 -> 4.2e-7 s
    //   TTFT = 2.82e-6
    // TPOT: the 9 decode steps at contexts 101 .. 109, each
    //   linear N = 1: bytes 2.004e6 -> 2.004e-6 s; decode at S: (2000 + 2002 S) 1e-12 s
    //   (memory: its flops take 2e-12 S s); the mean at S = 105: 2.1221e-7
    //   TPOT = 2.004e-6 + 2.1221e-7 = 2.21621e-6; e2e = 2.82e-6 + 9 x 2.21621e-6 = 2.276589e-5
    double const ttft = 2.82e-6, tpot = 2.21621e-6, e2e = 2.276589e-5;
    CHECK(close(r.ttft.p50, ttft));
    CHECK(close(r.ttft.p99, ttft));
    CHECK(close(r.ttft.mean, ttft));
    CHECK(close(r.tpot.p50, tpot, 1e-10));
    CHECK(close(r.tpot.mean, tpot, 1e-10));
    CHECK(close(r.e2e.p90, e2e, 1e-10));
    // Five requests one after the other: 5 x 10 steps, one running at a time.
    CHECK(r.requests == 5);
    CHECK(r.steps == 50);
    CHECK(close(r.mean_step, e2e / 10, 1e-10));
    CHECK(close(r.served_rate, 1 / e2e, 1e-10));
    CHECK(close(r.output_tokens_per_s, 10 / e2e, 1e-10));
    CHECK(r.output_tokens_per_s_per_chip == r.output_tokens_per_s);
    CHECK(close(r.mean_running, 1, 1e-10));
    CHECK(std::isnan(r.rate));
    CHECK(r.clients == 1);
    CHECK(r.chips == 1);
    CHECK_FALSE(r.saturated);
}

TEST_CASE("A calibration's stream_overhead adds k x the output tokens/s to TTFT and e2e, not to TPOT",
          "[serve-engine][expected]") {
    // closed(1) as above, with a calibration that has nothing but
    // stream_overhead = 2e-11 s per token/s: every step is the serial
    // roofline's, the output rate 10 / e2e, and TTFT and e2e each gain
    // 2e-11 x 10 / 2.276589e-5 = 8.785e-6 s.
    auto const r = closed_one_with([](model::Calibration& c) { c.stream_overhead_s = 2e-11; });
    double const e2e = 2.276589e-5, extra = 2e-11 * 10 / e2e;
    CHECK(close(r.output_tokens_per_s, 10 / e2e, 1e-10));
    CHECK(close(r.ttft.mean, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.ttft.p99, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.tpot.mean, 2.21621e-6, 1e-10));
    CHECK(close(r.e2e.p90, e2e + extra, 1e-9));
}

TEST_CASE("A calibration's launch is paid in a step with a prompt chunk, not in a decode step (a CUDA graph)",
          "[serve-engine][expected]") {
    // closed(1) as above with launch = 1e-6 s per op and nothing else. The
    // prompt's step runs proj (linear) and att (prefill): 2 launches, TTFT
    // 2.82e-6 + 2e-6 = 4.82e-6. Each decode step runs proj and scores and
    // replays a CUDA graph: no launch, TPOT the serial roofline's 2.21621e-6;
    // e2e = 4.82e-6 + 9 x 2.21621e-6 = 2.476589e-5.
    auto const r = closed_one_with([](model::Calibration& c) { c.launch_s = 1e-6; });
    CHECK(close(r.ttft.mean, 4.82e-6, 1e-9));
    CHECK(close(r.tpot.mean, 2.21621e-6, 1e-10));
    CHECK(close(r.e2e.p90, 2.476589e-5, 1e-9));
}

TEST_CASE("A calibration's admission_wait adds w x the sequences running x the mean TPOT to TTFT and e2e",
          "[serve-engine][expected]") {
    // closed(1) as above: one sequence running at every moment (its client
    // sends the next request as the last finishes), the mean TPOT the serial
    // roofline's 2.21621e-6 s. admission_wait = 2 steps per sequence: TTFT
    // and e2e each gain 2 x 1 x 2.21621e-6 = 4.43242e-6 s; TPOT none.
    auto const r = closed_one_with([](model::Calibration& c) { c.admission_wait = 2; });
    double const extra = 2 * 1 * 2.21621e-6;
    CHECK(close(r.mean_running, 1, 1e-12));
    CHECK(close(r.ttft.mean, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.ttft.p99, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.tpot.mean, 2.21621e-6, 1e-10));
    CHECK(close(r.e2e.p90, 2.276589e-5 + extra, 1e-9));
}

TEST_CASE("A calibration's first_token_steps, prompt_token_overhead and request_launch add to TTFT and e2e, "
          "not to TPOT",
          "[serve-engine][expected]") {
    // closed(1) as above (a prompt of 100 tokens, the mean TPOT the serial
    // roofline's 2.21621e-6 s) with first_token_steps = 3, prompt_token_overhead
    // = 1e-8 s per prompt token and request_launch = 5e-7 s per kernel of a
    // prompt's forward: proj (linear) and att (prefill), 2 kernels. TTFT and
    // e2e each gain 3 x 2.21621e-6 + 100 x 1e-8 + 2 x 5e-7 = 6.64863e-6 +
    // 1e-6 + 1e-6 = 8.64863e-6 s; the steps, and so TPOT, none.
    auto const r = closed_one_with([](model::Calibration& c) {
        c.first_token_steps = 3;
        c.prompt_token_overhead_s = 1e-8;
        c.request_launch_s = 5e-7;
    });
    double const extra = 8.64863e-6;
    CHECK(close(r.ttft.mean, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.ttft.p99, 2.82e-6 + extra, 1e-9));
    CHECK(close(r.tpot.mean, 2.21621e-6, 1e-10));
    CHECK(close(r.e2e.p90, 2.276589e-5 + extra, 1e-9));
    CHECK(r.steps == 50);  // the schedule as uncalibrated: the terms are not in a step
}

TEST_CASE("A calibration's cold_start is the measurements' own: serve's times do not change with it",
          "[serve-engine][expected]") {
    // The share of a measured benchmark's requests in its cold first wave
    // (docs/calibration.md): serve runs the arrivals and warm-up its
    // scenario gives, so closed(1) is as uncalibrated.
    auto const r = closed_one_with([](model::Calibration& c) { c.cold_start = 0.5; });
    CHECK(close(r.ttft.mean, 2.82e-6, 1e-9));
    CHECK(close(r.tpot.mean, 2.21621e-6, 1e-10));
    CHECK(close(r.e2e.p90, 2.276589e-5, 1e-9));
}

TEST_CASE("A prompt of 3 x max_step_tokens alone takes three steps to its first token", "[serve-engine]") {
    test::TinyServe s;
    s.prompt = "300";
    auto checked = test::tiny_serve(s);
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    // Three steps of tokens 100: linear 2.4e-6 s each; chunks at P = 0, 100,
    // 200 (PT = 100, 200, 300): bytes 2e5 + 2200 PT = 4.2e5, 6.4e5, 8.6e5
    // (their flops 2e5 PT take at most 6e-8 s): 4.2e-7 + 6.4e-7 + 8.6e-7 = 1.92e-6.
    // TTFT = 3 x 2.4e-6 + 1.92e-6 = 9.12e-6.
    CHECK(close(results[0].ttft.mean, 9.12e-6));
    CHECK(close(results[0].ttft.p99, 9.12e-6));
}

TEST_CASE("A request longer than the KV cache is an error at the prompt's line", "[serve-engine]") {
    test::TinyServe s;
    s.prompt = "4000";  // 4010 tokens, the cache holds 3300
    auto checked = test::tiny_serve(s);
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto const results = engine::evaluate_serve(checked->scenario, *grid, checked->diagnostics);
    CHECK_FALSE(results);
    auto const errors = checked->errors();
    INFO(errors);
    // `let prompt_len = 4000` is line 12 of the tiny scenario.
    CHECK(test::contains(errors, "test.roof:12:"));
    CHECK(test::contains(errors, "a prompt of 4000 and an output of 10 tokens need 4010 KV tokens, "
                                 "the cache holds 3300 on hardware 'toy' (serve 'chat')"));
}

TEST_CASE("A configuration whose cache cannot hold one request is its row's problem, with a warning",
          "[serve-engine]") {
    // toy holds floor((0.9 x 1e7 - 2e6 - 4e5) / 2000) = 3300 tokens, big
    // (1e8 B) floor((0.9 x 1e8 - 2e6 - 4e5) / 2000) = 43,800: the 4010
    // tokens of a request fit on big only. Not an error: big serves.
    test::TinyServe s;
    s.prompt = "4000";
    s.extra = "hardware big { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e8 B }";
    s.targets = "target toy\ntarget big";
    auto checked = test::tiny_serve(s);
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 2);
    CHECK(results[0].problem == "a prompt of 4000 and an output of 10 tokens need 4010 KV tokens, "
                                "the cache holds 3300 on hardware 'toy'");
    CHECK(results[0].steps == 0);
    CHECK(results[1].problem.empty());
    CHECK(results[1].kv_capacity_tokens == 43800);
    CHECK(results[1].steps > 0);
    auto const text = checked->errors();  // every diagnostic, warnings too
    INFO(text);
    // `let prompt_len = 4000`: line 13, below the extra hardware line.
    CHECK(test::contains(text, "test.roof:13:18: warning: a prompt of 4000"));
    CHECK(test::contains(text, "; 1 of 2 serve points cannot hold one request, and their rows say so"));
}

TEST_CASE("A target without a peak for the serve's dtype is a problem, not an error", "[serve-engine]") {
    test::TinyServe s;
    s.extra = "hardware fp8only { hbm_bandwidth = 1e12 B/s  peak fp8 = 1e15 FLOP/s  hbm_capacity = 1e7 B }";
    s.targets = "target toy\ntarget fp8only";
    auto checked = test::tiny_serve(s);
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 2);
    CHECK(results[0].problem.empty());
    CHECK(results[1].problem == "hardware 'fp8only' has no peak for bf16 (op 'proj')");
    CHECK(results[1].steps == 0);
}

TEST_CASE("Poisson arrivals: the same seed gives the same figures, another seed others", "[serve-engine]") {
    test::TinyServe s;
    s.closed = false;
    s.arrivals = "40000";  // requests/s: about 0.9 of one request's e2e (2.28e-5 s)
    s.requests = "400";
    s.warmup = "40";
    auto a = test::tiny_serve(s);
    auto b = test::tiny_serve(s);
    auto const ra = serve_of(*a), rb = serve_of(*b);
    REQUIRE(ra.size() == 1);
    REQUIRE(rb.size() == 1);
    CHECK(ra[0].requests == 360);
    CHECK(ra[0].rate == 40000);
    CHECK(ra[0].ttft.p99 == rb[0].ttft.p99);
    CHECK(ra[0].tpot.p50 == rb[0].tpot.p50);
    CHECK(ra[0].e2e.mean == rb[0].e2e.mean);
    CHECK(ra[0].served_rate == rb[0].served_rate);
    CHECK(ra[0].steps == rb[0].steps);
    CHECK(ra[0].mean_running == rb[0].mean_running);
    b->scenario.serve->seed = 2;
    auto const rc = serve_of(*b);
    CHECK(rc[0].e2e.mean != ra[0].e2e.mean);
    // Requests overlap: more than one runs at a time on average.
    CHECK(ra[0].mean_running > 1);
}

namespace {

// The tiny scenario as the serve statement writes it (line numbers matter:
// `prompt = ...` is line 7).
std::string tiny_text(std::string const& prompt) {
    return R"(hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e7 B }
target toy
let D = 1000
let F = 1000
let B = 1
serve chat {
    prompt = )" + prompt + R"(
    output = 10
    arrivals = closed(1)
    requests = 5  warmup = 0  max_step_tokens = 100
    linear: let N = tokens
        matmul proj = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]
    decode: matmul scores = bf16[B, D] * cache bf16[context, D] -> bf16[B, context]
    prefill: let PT = start + chunk
        matmul att = bf16[chunk, D] * cache bf16[PT, D] -> bf16[chunk, PT]
}
slo ttft_p99 <= 3 us
slo tpot_p50 <= 2 us
)";
}

}  // namespace

TEST_CASE("The serve statement end to end: closed(1) by hand, its SLOs, the prompt too long at its line",
          "[serve-engine]") {
    auto checked = test::check_text(tiny_text("100"));
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    // The same figures as the tiny scenario above: capacity 3300 tokens,
    // TTFT 2.82e-6 s, TPOT 2.21621e-6 s.
    CHECK(r.kv_capacity_tokens == 3300);
    CHECK(r.weight_bytes == 2e6);
    CHECK(close(r.ttft.p99, 2.82e-6));
    CHECK(close(r.tpot.p50, 2.21621e-6, 1e-10));
    CHECK(r.requests == 5);
    // ttft_p99 2.82 us <= 3 us: met; tpot_p50 2.22 us > 2 us: not.
    REQUIRE(r.slo_met.size() == 2);
    CHECK(r.slo_met[0]);
    CHECK_FALSE(r.slo_met[1]);

    auto const too_long = test::check_text(tiny_text("4000"));
    INFO(too_long->errors());
    REQUIRE_FALSE(too_long->diagnostics.has_errors());
    auto grid = engine::prepare(too_long->scenario, too_long->diagnostics);
    REQUIRE(grid);
    CHECK_FALSE(engine::evaluate_serve(too_long->scenario, *grid, too_long->diagnostics));
    auto const errors = too_long->errors();
    CHECK(test::contains(errors, "test.roof:7:"));
    CHECK(test::contains(errors, "a prompt of 4000 and an output of 10 tokens need 4010 KV tokens"));
}

TEST_CASE("admission = grow admits on the cache held and preempts, reserve holds prompt + output",
          "[serve-engine]") {
    // The tiny scenario's 3,300 KV tokens, 40 clients of 100 + 10 tokens:
    // reserve holds 110 a request, so at most 30 run (3,300 at the peak);
    // grow admits on the 100 of each prompt, 33 at once, and the cache fills
    // as they decode (at most 3,300 committed, preempting the newest): more
    // run on average (the setting reaches the scheduler, whose rules
    // test_serve_scheduler.cpp checks step by step).
    auto text = [](std::string const& admission) {
        std::string t = tiny_text("100");
        auto at = t.find("arrivals = closed(1)");
        t.replace(at, 20, "arrivals = closed(40)" + admission);
        at = t.find("requests = 5");
        t.replace(at, 12, "requests = 400");
        return t;
    };
    auto reserve = test::check_text(text(""));
    auto grow = test::check_text(text("  admission = grow"));
    INFO(reserve->errors() << grow->errors());
    REQUIRE_FALSE(reserve->diagnostics.has_errors());
    REQUIRE_FALSE(grow->diagnostics.has_errors());
    auto const r = serve_of(*reserve), g = serve_of(*grow);
    REQUIRE(r.size() == 1);
    REQUIRE(g.size() == 1);
    CHECK(r[0].kv_capacity_tokens == 3300);
    CHECK(r[0].peak_kv_tokens == 3300);
    CHECK(r[0].mean_running <= 30);
    CHECK(g[0].peak_kv_tokens <= 3300);
    CHECK(g[0].mean_running > 30);
}

TEST_CASE("A serve's lets that divide by the step's tokens evaluate at every point of a mesh",
          "[serve-engine]") {
    // The mesh is sized per sweep point before any step runs; the linear
    // part's lets (here 4 / N, as a MoE grid's rows per expert are N k / A)
    // are then evaluated at the neutral step, one token, not at none.
    auto checked = test::check_text(R"(hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e9 B }
target toy
let D = 8
let F = 8
let B = 1
mesh tp = 2 over nvlink
serve chat {
    prompt = 4
    output = 2
    arrivals = closed(1)
    requests = 2  warmup = 0
    linear: let N = tokens
        let P = 4 / N
        matmul proj = bf16[N, D] * weight bf16[D, F@tp] -> bf16[N, F@tp]
    decode: matmul scores = bf16[B, D] * cache bf16[context, D] -> bf16[B, context]
    prefill: let PT = start + chunk
        matmul att = bf16[chunk, D] * cache bf16[PT, D] -> bf16[chunk, PT]
}
)");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    CHECK_FALSE(test::contains(checked->errors(), "division by zero"));
}

TEST_CASE("The sample part runs once per step at the sequences it samples: none while a long prompt's "
          "first chunks run", "[serve-engine]") {
    // The prompt of 300 in three chunks of 100 (the steps of the case above,
    // 9.12e-6 s to the first token), plus the head at M = the step's sampled
    // sequences: 0 in the first two steps (not run), 1 in the third (the
    // prompt's last chunk) and in every decode step. At M = 1: flops 2 x 1000
    // x 500 = 1e6 (1e-9 s); bytes 2 x 1000 + 2 x 1000 x 500 + 2 x 500 =
    // 1,003,000 (1.003e-6 s). TTFT = 9.12e-6 + 1.003e-6 = 1.0123e-5.
    test::TinyServe s;
    s.prompt = "300";
    s.sample = true;
    auto checked = test::tiny_serve(s);
    auto const results = serve_of(*checked);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    CHECK(close(r.ttft.mean, 1.0123e-5));
    CHECK(close(r.ttft.p99, 1.0123e-5));
    // The head's weights are resident: 2e6 + 1e6 B. Its activations at the
    // most a step samples, min(max_seqs 256, max_step_tokens 100) = 100:
    // in 2e5 + out 1e5 B, below the linear part's 4e5 reserve. Capacity =
    // floor((9e6 - 3e6 - 4e5) / 2000) = 2800.
    CHECK(r.weight_bytes == 3e6);
    CHECK(r.reserve_bytes == 4e5);
    CHECK(r.kv_capacity_tokens == 2800);
    // Each decode step samples its one sequence: TPOT at context 301 .. 309,
    // linear 2.004e-6 + decode (2000 + 2002 x 305) 1e-12 = 6.12610e-7 at the
    // mean context + the head 1.003e-6 = 3.61961e-6.
    CHECK(close(r.tpot.mean, 3.61961e-6, 1e-9));
}
