// The serve scheduler (docs/serving.md, sections 3 and 5) against times worked
// out by hand from its rules, with synthetic step costs (a constant, or
// a + b x tokens + c x the sum of the decoders' contexts) and the steps each
// simulation asks for recorded; the arrivals' stream; the percentiles; the
// M/D/1 queue of Pollaczek-Khinchine; saturation.
#include "roofline/engine/serve.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <random>
#include <vector>

using namespace roofline::engine::serving;
using Catch::Matchers::WithinRel;

namespace {

// One step as the scheduler asked for it, copied out of its spans.
struct Recorded {
    std::vector<std::uint32_t> contexts;
    std::vector<Chunk> chunks;
    std::uint64_t tokens = 0;
};

// A cost that records every step and returns `seconds(work)`.
template <class F>
StepCost recording(std::vector<Recorded>& steps, F seconds) {
    return [&steps, seconds](StepWork const& work) {
        steps.push_back({{work.contexts.begin(), work.contexts.end()},
                         {work.chunks.begin(), work.chunks.end()},
                         work.tokens});
        return seconds(work);
    };
}

StepCost constant(double d) {
    return [d](StepWork const&) { return d; };
}

SchedulerSettings settings(std::uint32_t max_seqs, std::uint32_t max_step_tokens, double kv,
                           std::uint32_t clients = 0) {
    SchedulerSettings s;
    s.max_seqs = max_seqs;
    s.max_step_tokens = max_step_tokens;
    s.kv_capacity_tokens = kv;
    s.clients = clients;
    return s;
}

double tpot(RequestTimes const& r) { return (r.finish - r.first_token) / (r.output - 1); }

// count requests of P / G tokens at rate lambda (M/D/1 when max_seqs is 1).
Simulation queue(std::size_t count, double rate, std::uint32_t P, std::uint32_t G, double d,
                 std::uint64_t seed = 1) {
    auto requests = make_requests(count, rate, seed, {P, P, {}}, {G, G, {}});
    return simulate(requests, settings(1, 8192, 1e9), constant(d));
}

}  // namespace

TEST_CASE("One request alone: TTFT is its prefill step, TPOT the mean of its decode steps",
          "[serve-scheduler]") {
    // P = 100, G = 5, cost = a + b tokens + c sum(contexts), a = 1 ms, b = 10 us, c = 0.1 us.
    // Prefill: one chunk {100, 0}, TTFT = a + 100 b = 2 ms. Decode k = 1 .. 4 at context
    // 100 + k: a + b + c (100 + k); TPOT = a + b + c x 102.5 (the mean of 101 .. 104)
    // = 1.02025 ms; the finish 2 ms + 4 x 1.02025 ms = 6.081 ms.
    double a = 1e-3, b = 1e-5, c = 1e-7;
    std::vector<Recorded> steps;
    auto cost = recording(steps, [=](StepWork const& w) {
        double contexts = std::accumulate(w.contexts.begin(), w.contexts.end(), 0.0);
        return a + b * static_cast<double>(w.tokens) + c * contexts;
    });
    auto sim = simulate({{0, 100, 5}}, settings(256, 8192, 1e6, 1), cost);
    REQUIRE(sim.problem.empty());
    REQUIRE(steps.size() == 5);
    CHECK(steps[0].contexts.empty());
    REQUIRE(steps[0].chunks.size() == 1);
    CHECK(steps[0].chunks[0].tokens == 100);
    CHECK(steps[0].chunks[0].start == 0);
    CHECK(steps[0].tokens == 100);
    for (std::uint32_t k = 1; k <= 4; ++k) {
        CHECK(steps[k].chunks.empty());
        CHECK(steps[k].contexts == std::vector<std::uint32_t>{100 + k});
        CHECK(steps[k].tokens == 1);
    }
    auto const& r = sim.requests.at(0);
    CHECK(r.arrival == 0);
    CHECK_THAT(r.first_token, WithinRel(2e-3, 1e-12));
    CHECK_THAT(tpot(r), WithinRel(1.02025e-3, 1e-12));
    CHECK_THAT(r.finish, WithinRel(6.081e-3, 1e-12));
    CHECK(sim.steps == 5);
    CHECK_THAT(sim.end, WithinRel(6.081e-3, 1e-12));
    CHECK_THAT(sim.busy_seconds, WithinRel(6.081e-3, 1e-12));
    CHECK_THAT(sim.mean_running, WithinRel(1.0, 1e-12));  // one running throughout
    CHECK(sim.peak_kv_tokens == 105);
    CHECK_FALSE(sim.saturated);
}

TEST_CASE("A prompt of 3 x max_step_tokens is prefilled in three chunks at 0, M and 2M",
          "[serve-scheduler]") {
    // M = 16, P = 48, G = 2, 1 s a step: chunks {16, 0}, {16, 16}, {16, 32}, the first token at
    // 3 s; one decode at context 49, the finish at 4 s.
    std::vector<Recorded> steps;
    auto sim = simulate({{0, 48, 2}}, settings(256, 16, 1000, 1),
                        recording(steps, [](StepWork const&) { return 1.0; }));
    REQUIRE(steps.size() == 4);
    for (std::uint32_t s = 0; s < 3; ++s) {
        REQUIRE(steps[s].chunks.size() == 1);
        CHECK(steps[s].chunks[0].tokens == 16);
        CHECK(steps[s].chunks[0].start == 16 * s);
        CHECK(steps[s].tokens == 16);
        CHECK(steps[s].contexts.empty());
    }
    CHECK(steps[3].contexts == std::vector<std::uint32_t>{49});
    CHECK(sim.requests[0].first_token == 3);
    CHECK(sim.requests[0].finish == 4);
}

TEST_CASE("Decodes come first, the budget left goes to chunks in arrival order",
          "[serve-scheduler]") {
    // M = 10; A (P 4, G 3) and B (P 25, G 2) both at 0; 1 s a step.
    // Step 1: A {4, 0}, B {6, 0}. Step 2: A decodes at 5, B {9, 6}. Step 3: A at 6 (its 2nd and
    // last decode: finish 3 s), B {9, 15}. Step 4: B {1, 24} (first token 4 s). Step 5: B at 26.
    std::vector<Recorded> steps;
    auto sim = simulate({{0, 4, 3}, {0, 25, 2}}, settings(256, 10, 1000),
                        recording(steps, [](StepWork const&) { return 1.0; }));
    REQUIRE(steps.size() == 5);
    auto chunk = [&](std::size_t s, std::size_t c) {
        auto const& k = steps[s].chunks.at(c);
        return std::pair{k.tokens, k.start};
    };
    CHECK(steps[0].chunks.size() == 2);
    CHECK(chunk(0, 0) == std::pair{4u, 0u});
    CHECK(chunk(0, 1) == std::pair{6u, 0u});
    CHECK(steps[1].contexts == std::vector<std::uint32_t>{5});
    CHECK(chunk(1, 0) == std::pair{9u, 6u});
    CHECK(steps[2].contexts == std::vector<std::uint32_t>{6});
    CHECK(chunk(2, 0) == std::pair{9u, 15u});
    CHECK(steps[3].contexts.empty());
    CHECK(chunk(3, 0) == std::pair{1u, 24u});
    CHECK(steps[3].tokens == 1);
    CHECK(steps[4].contexts == std::vector<std::uint32_t>{26});
    for (std::size_t s = 0; s < 3; ++s) CHECK(steps[s].tokens == 10);
    CHECK(sim.requests[0].first_token == 1);
    CHECK(sim.requests[0].finish == 3);
    CHECK(sim.requests[1].first_token == 4);
    CHECK(sim.requests[1].finish == 5);
    // Running: 2 over [0, 3], 1 over [3, 5]: (6 + 2) / 5.
    CHECK_THAT(sim.mean_running, WithinRel(8.0 / 5, 1e-12));
}

TEST_CASE("An idle replica waits for the next arrival, output 1 finishes with its first token",
          "[serve-scheduler]") {
    // Arrivals at 5 s and 20 s, 2 s a step, G = 1: each is one step, [5, 7] and [20, 22].
    auto sim = simulate({{20, 8, 1}, {5, 8, 1}}, settings(256, 64, 100), constant(2));
    REQUIRE(sim.requests.size() == 2);
    CHECK(sim.requests[0].arrival == 5);  // sorted by arrival
    CHECK(sim.requests[0].first_token == 7);
    CHECK(sim.requests[0].finish == 7);
    CHECK(sim.requests[1].first_token == 22);
    CHECK(sim.requests[1].finish == 22);
    CHECK(sim.end == 22);
    CHECK(sim.busy_seconds == 4);
    CHECK_THAT(sim.mean_running, WithinRel(4.0 / 22, 1e-12));  // 1 for 4 s of 22
}

TEST_CASE("closed(C), a one-token prompt and a long output: TPOT is the step of C decoders",
          "[serve-scheduler]") {
    // C = 4, 8 requests of P 1, G 1000, cost a + b tokens (a = 5 ms, b = 1 ms). Wave 1: step 1
    // prefills 4 chunks of 1 (4 tokens), steps 2 .. 1000 decode 4: every step is a + 4 b = 9 ms;
    // all 4 finish at 9 s and their clients send requests 5 .. 8 then: the same again, ending at
    // 18 s. TPOT = 9 ms; tokens/s = 8000 / 18 s = 4 / 9 ms.
    std::vector<Recorded> steps;
    std::vector<RequestSpec> requests(8, RequestSpec{123, 1, 1000});  // arrivals ignored
    auto sim = simulate(requests, settings(256, 8192, 1e6, 4), recording(steps, [](StepWork const& w) {
                            return 5e-3 + 1e-3 * static_cast<double>(w.tokens);
                        }));
    REQUIRE(sim.problem.empty());
    CHECK(sim.steps == 2000);
    for (auto const& s : steps) CHECK(s.contexts.size() + s.chunks.size() == 4);
    for (std::size_t i = 0; i < 8; ++i) {
        auto const& r = sim.requests[i];
        CHECK_THAT(r.arrival, WithinRel(i < 4 ? 0.0 : 9.0, 1e-9));
        CHECK_THAT(tpot(r), WithinRel(9e-3, 1e-9));
        CHECK_THAT(r.finish, WithinRel(i < 4 ? 9.0 : 18.0, 1e-9));
    }
    CHECK_THAT(8000 / sim.end, WithinRel(4 / 9e-3, 1e-9));
    CHECK_THAT(sim.mean_running, WithinRel(4.0, 1e-9));
    CHECK_FALSE(sim.saturated);  // a closed loop never is
}

TEST_CASE("A KV cache that holds exactly K requests runs at most K, the rest wait",
          "[serve-scheduler]") {
    // K = 3 of P 10 + G 4 = 14 tokens: capacity 42. Seven requests at 0, 1 s a step. Steps 1-4:
    // requests 1-3 (a prefill, 3 decodes), freed at 4 s; steps 5-8: 4-6; steps 9-12: 7 alone.
    std::vector<Recorded> steps;
    std::vector<RequestSpec> requests(7, RequestSpec{0, 10, 4});
    auto sim = simulate(requests, settings(256, 8192, 42),
                        recording(steps, [](StepWork const&) { return 1.0; }));
    REQUIRE(steps.size() == 12);
    for (std::size_t s = 0; s < 12; ++s)
        CHECK(steps[s].contexts.size() + steps[s].chunks.size() == (s < 8 ? 3u : 1u));
    CHECK(sim.peak_kv_tokens == 42);
    for (std::size_t i = 0; i < 7; ++i) {
        double wave = static_cast<double>(i / 3) * 4;  // the step before its wave's first
        CHECK(sim.requests[i].first_token == wave + 1);
        CHECK(sim.requests[i].finish == wave + 4);
    }
    CHECK_THAT(sim.mean_running, WithinRel((8 * 3 + 4 * 1) / 12.0, 1e-12));
    // max_seqs 2 with room for all: two at a time, four waves of 4 steps.
    auto two = simulate(requests, settings(2, 8192, 1000), constant(1));
    CHECK(two.steps == 16);
    CHECK(two.peak_kv_tokens == 28);
    CHECK(two.requests[6].finish == 16);
}

TEST_CASE("Admission::grow: admitted on the cache held, the newest preempted and recomputed, by hand",
          "[serve-scheduler]") {
    // Two requests at 0 of P 10 + G 40 (39 decodes), a cache of 60 tokens,
    // 1 s a step; a third at 25 s of P 5 + G 2.
    std::vector<RequestSpec> requests{{0, 10, 40}, {0, 10, 40}, {25, 5, 2}};
    // reserve: 2 x 50 > 60, one at a time: 1 runs steps 1-40, 2 steps 41-80,
    // 3 (admitted with 2: 50 + 7 <= 60) prefills in step 41 and decodes in 42.
    auto reserve = simulate(requests, settings(256, 8192, 60), constant(1));
    CHECK(reserve.requests[1].first_token == 41);
    CHECK(reserve.requests[1].finish == 80);
    CHECK(reserve.preemptions == 0);

    // grow: both admitted (10 + 10 <= 60), both prefilled in step 1 (first
    // tokens at 1 s); steps 2-21 decode both, the cache 20 + 2 per step: 60
    // after step 21. Step 22 would need 62: request 2 (the newest) is
    // preempted, its 10 + 20 tokens freed, 1 decodes alone (31 held after
    // it). 2 waits at the front (31 + its 30 > 60), and 3 (5 tokens, at
    // 25 s) may not overtake it. 1 finishes its 39th decode in step 40; at
    // 40 s 2 and 3 are admitted: step 41 prefills 2's 10 + 20 tokens again
    // (a chunk of 30 from 0, no token sampled) and 3's 5 (its first token at
    // 41 s); step 42 decodes 2 (context 10 + 20 + 1) and 3 (context 6, its
    // last); 2 decodes its 19 left in steps 42-60.
    SchedulerSettings grow = settings(256, 8192, 60);
    grow.admission = SchedulerSettings::Admission::grow;
    std::vector<Recorded> steps;
    std::vector<std::uint64_t> sampled;
    auto sim = simulate(requests, grow, [&](StepWork const& work) {
        steps.push_back({{work.contexts.begin(), work.contexts.end()},
                         {work.chunks.begin(), work.chunks.end()},
                         work.tokens});
        sampled.push_back(work.sampled);
        return 1.0;
    });
    REQUIRE(sim.problem.empty());
    REQUIRE(steps.size() == 60);
    CHECK(sim.preemptions == 1);
    CHECK(sim.peak_kv_tokens == 60);
    CHECK(sim.requests[0].first_token == 1);
    CHECK(sim.requests[0].finish == 40);
    CHECK(sim.requests[1].first_token == 1);  // the first one emitted
    CHECK(sim.requests[1].finish == 60);
    CHECK(sim.requests[2].first_token == 41);
    CHECK(sim.requests[2].finish == 42);
    CHECK(sampled[0] == 2);
    CHECK(steps[20].contexts == std::vector<std::uint32_t>{30, 30});  // step 21: the 20th decodes
    CHECK(steps[21].contexts == std::vector<std::uint32_t>{31});      // step 22: 1 alone
    REQUIRE(steps[40].chunks.size() == 2);                             // step 41
    CHECK(steps[40].chunks[0].tokens == 30);
    CHECK(steps[40].chunks[0].start == 0);
    CHECK(steps[40].chunks[1].tokens == 5);
    CHECK(steps[40].contexts.empty());
    CHECK(sampled[40] == 1);  // 3's first token; 2's recompute samples none
    CHECK(steps[41].contexts == std::vector<std::uint32_t>{31, 6});
}

TEST_CASE("max_seqs 1 and a constant step are M/D/1: mean wait lambda S^2 / (2 (1 - lambda S))",
          "[serve-scheduler]") {
    // d = 10 ms, G = 10: S = 10 d = 0.1 s (a prefill step and 9 decodes); lambda = 3 /s:
    // lambda S = 0.3, W = 3 x 0.01 / (2 x 0.7) = 0.0214286 s; TTFT = W + d.
    double d = 0.01, S = 0.1, lambda = 3;
    auto sim = queue(50000, lambda, 64, 10, d);
    REQUIRE(sim.problem.empty());
    double wait = 0;
    for (auto const& r : sim.requests) {
        wait += r.first_token - r.arrival - d;
        CHECK_THAT(r.finish - r.first_token, WithinRel(9 * d, 1e-6));
    }
    wait /= 50000;
    double expected = lambda * S * S / (2 * (1 - lambda * S));
    CHECK_THAT(wait, WithinRel(expected, 0.05));
    // Busy a fraction lambda S of the time: 50,000 x S of busy seconds.
    CHECK_THAT(sim.busy_seconds, WithinRel(50000 * S, 1e-9));
    CHECK_THAT(sim.mean_running, WithinRel(lambda * S, 0.05));
    CHECK(sim.peak_kv_tokens == 74);
}

TEST_CASE("The queue keeps growing at lambda S = 1.2, not at 0.3 or 0.8", "[serve-scheduler]") {
    // M/D/1 with S = 0.1 s (d 10 ms, G 10): above lambda S = 1 the waiting count climbs about
    // 1 - 1 / 1.2 = 0.17 a request (the rule: > 0.02 and >= 10 over the window); below it, it
    // only fluctuates.
    for (std::size_t count : {std::size_t{2000}, std::size_t{50000}}) {
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            INFO(count << " requests, seed " << seed);
            CHECK(queue(count, 12, 64, 10, 0.01, seed).saturated);
            CHECK_FALSE(queue(count, 8, 64, 10, 0.01, seed).saturated);
            CHECK_FALSE(queue(count, 3, 64, 10, 0.01, seed).saturated);
        }
    }
    // Over 2 % short of the offered rate is saturated: 1.05 at 50,000 (slope 1 - 1 / 1.05).
    CHECK(queue(50000, 10.5, 64, 10, 0.01).saturated);
    CHECK_FALSE(queue(15, 100, 64, 10, 0.01).saturated);  // too few to tell
}

TEST_CASE("A request that can never fit in the KV cache is a problem, nothing simulated",
          "[serve-scheduler]") {
    std::vector<RequestSpec> requests{{0, 10, 10}, {1, 90, 20}, {2, 10, 10}};
    auto sim = simulate(requests, settings(256, 8192, 100.5), constant(1));
    CHECK(sim.problem == "request 2 needs 90 + 20 = 110 KV tokens, but the cache holds 100");
    CHECK(sim.requests.empty());
    CHECK(sim.steps == 0);
    // Exactly the capacity fits.
    CHECK(simulate({{0, 90, 10}}, settings(256, 8192, 100), constant(1)).problem.empty());
    CHECK(simulate({{0, 0, 10}}, settings(256, 8192, 100), constant(1)).problem ==
          "request 1 has a prompt of 0 tokens");
    CHECK(simulate({{0, 5, 10}}, settings(256, 8192, 100), constant(-1)).problem ==
          "the step cost of 5 tokens is -1 s, not a time");
}

TEST_CASE("make_requests: one seeded stream, three draws a request", "[serve-scheduler]") {
    // By hand from the rule: u = (draw >> 11) / 2^53; prompt = 100 + floor(u1 x 901), output
    // = 1 + floor(u2 x 64), arrival += -log(1 - u3) / 5.
    auto requests = make_requests(1000, 5, 42, {100, 1000, {}}, {1, 64, {}});
    std::mt19937_64 stream(42);
    auto u = [&] { return static_cast<double>(stream() >> 11) / 9007199254740992.0; };
    double time = 0;
    for (auto const& r : requests) {
        double u1 = u(), u2 = u(), u3 = u();
        CHECK(r.prompt == 100 + static_cast<std::uint32_t>(std::floor(u1 * 901)));
        CHECK(r.output == 1 + static_cast<std::uint32_t>(std::floor(u2 * 64)));
        time += -std::log(1 - u3) / 5;
        CHECK(r.arrival == time);
    }
    // Uniform lengths and exponential gaps, on average: 50,000 of them.
    auto many = make_requests(50000, 4, 7, {1, 100, {}}, {8, 8, {}});
    double prompts = 0;
    bool outputs_fixed = true;
    for (auto const& r : many) {
        prompts += r.prompt;
        outputs_fixed = outputs_fixed && r.output == 8;
    }
    CHECK(outputs_fixed);
    CHECK_THAT(prompts / 50000, WithinRel(50.5, 0.01));
    CHECK_THAT(many.back().arrival / 50000, WithinRel(0.25, 0.02));
    // Rate 0: all at 0, the same lengths as at any rate; a trace repeats.
    std::vector<std::uint32_t> trace{7, 9};
    auto closed = make_requests(5, 0, 42, {100, 1000, {}}, {0, 0, trace});
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(closed[i].arrival == 0);
        CHECK(closed[i].prompt == requests[i].prompt);
        CHECK(closed[i].output == trace[i % 2]);
    }
}

TEST_CASE("Same seed, same times, another seed, other arrivals", "[serve-scheduler]") {
    auto run = [](std::uint64_t seed) {
        auto requests = make_requests(2000, 40, seed, {128, 2048, {}}, {16, 256, {}});
        return simulate(requests, settings(64, 2048, 200000), [](StepWork const& w) {
            return 1e-3 + 2e-6 * static_cast<double>(w.tokens);
        });
    };
    auto a = run(1), b = run(1), c = run(2);
    REQUIRE(a.requests.size() == 2000);
    bool same = true, moved = false;
    for (std::size_t i = 0; i < 2000; ++i) {
        same = same && a.requests[i].arrival == b.requests[i].arrival &&
               a.requests[i].first_token == b.requests[i].first_token &&
               a.requests[i].finish == b.requests[i].finish;
        moved = moved || a.requests[i].arrival != c.requests[i].arrival;
    }
    CHECK(same);
    CHECK(moved);
    CHECK(a.steps == b.steps);
    CHECK(a.busy_seconds == b.busy_seconds);
}

TEST_CASE("latency_of: nearest-rank percentiles and the mean", "[serve-scheduler]") {
    // 1 .. 10 shuffled: p50 = sorted[ceil(5) - 1] = 5, p90 = sorted[8] = 9, p99 = sorted[ceil(9.9)
    // - 1] = 10, mean 5.5. 1 .. 100: 50, 90, 99, 50.5.
    auto ten = latency_of({7, 3, 10, 1, 5, 9, 2, 8, 4, 6});
    CHECK(ten.p50 == 5);
    CHECK(ten.p90 == 9);
    CHECK(ten.p99 == 10);
    CHECK(ten.mean == 5.5);
    std::vector<double> hundred(100);
    std::iota(hundred.begin(), hundred.end(), 1.0);
    auto h = latency_of(hundred);
    CHECK(h.p50 == 50);
    CHECK(h.p90 == 90);
    CHECK(h.p99 == 99);
    CHECK(h.mean == 50.5);
    auto one = latency_of({0.25});
    CHECK((one.p50 == 0.25 && one.p90 == 0.25 && one.p99 == 0.25 && one.mean == 0.25));
    auto none = latency_of({});
    CHECK((std::isnan(none.p50) && std::isnan(none.p90) && std::isnan(none.p99) &&
           std::isnan(none.mean)));
}
