#pragma once
// A tiny serve scenario for the engine's tests, built without the serve
// statement's syntax: three matmuls checked as ordinary cases, then moved
// into a model::Serve's linear, decode and prefill parts, the lets their
// axes name made the engine's step slots (as the checker marks `tokens`,
// `context`, `chunk` and `start`). Round numbers, so that every figure
// comes out by hand:
//
//   hardware toy: 1e12 B/s of HBM, 1e15 bf16 FLOP/s, HBM `capacity`
//   D = F = 1000
//   linear:  proj   = bf16[N, D] x weight bf16[D, F] -> bf16[N, F]
//            flops 2e6 N; bytes 2 (1000 N + 1e6 + 1000 N) = 2e6 + 4000 N
//   decode:  scores = bf16[B, D] x cache bf16[S, D] -> bf16[B, S], B = 1
//            flops 2000 S; bytes 2 (1000 + 1000 S + S) = 2000 + 2002 S
//   prefill: att    = bf16[T, D] x cache bf16[PT, D] -> bf16[T, PT], PT = P + T
//            flops 2000 T PT; bytes 2 (1000 T + 1000 PT + T PT)
#include "helpers.hpp"

#include "roofline/model/scenario.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace roofline::test {

struct TinyServe {
    std::string capacity = "1e7 B";
    std::string prompt = "100", output = "10";
    bool closed = true;
    std::string arrivals = "1";  // clients, or the poisson rate
    std::string requests = "5", warmup = "0", max_seqs = "256", max_step_tokens = "100";
    std::string extra;           // more text (hardware, targets, sweeps)
    std::string targets = "target toy";
    // A second decode op over a sliding window of 16 positions, not affine
    // in the context: window = bf16[B, D] x cache bf16[SW, D] -> bf16[B, SW],
    // SW = min(S, 16): bytes 2000 + 2002 SW.
    bool window = false;
    // A sample part: head = bf16[M, D] x weight bf16[D, V] -> bf16[M, V],
    // V = 500, M the step's sampled sequences.
    bool sample = false;
};

inline int slot_named(model::Scenario const& scenario, std::string const& name) {
    for (std::size_t i = 0; i < scenario.slots.size(); ++i)
        if (scenario.slots[i].name == name) return static_cast<int>(i);
    FAIL("no slot " << name);
    return -1;
}

inline std::unique_ptr<Checked> tiny_serve(TinyServe const& s) {
    std::string const text = "hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = " +
                             s.capacity + " }\n" + s.extra + "\n" + s.targets + R"(
let D = 1000
let F = 1000
let B = 1
let N = 1
let S = 1
let T = 1
let P = 0
let PT = P + T
)" + "let prompt_len = " + s.prompt + "\nlet output_len = " + s.output +
                             "\nlet arrivals = " + s.arrivals + "\nlet nreq = " + s.requests +
                             "\nlet nwarm = " + s.warmup + "\nlet seqs = " + s.max_seqs +
                             "\nlet step_tokens = " + s.max_step_tokens + R"(
matmul proj = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]
matmul scores = bf16[B, D] * cache bf16[S, D] -> bf16[B, S]
matmul att = bf16[T, D] * cache bf16[PT, D] -> bf16[T, PT]
)" + (s.window ? "let SW = min(S, 16)\nmatmul window = bf16[B, D] * cache bf16[SW, D] -> bf16[B, SW]\n" : "") +
                             (s.sample ? "let M = 1\nlet V = 500\nmatmul head = bf16[M, D] * weight bf16[D, V] -> bf16[M, V]\n" : "");
    auto checked = check_text(text);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto& sc = checked->scenario;
    REQUIRE(sc.ops.size() == (s.window ? 4u : 3u) + (s.sample ? 1u : 0u));
    model::Serve serve;
    serve.name = "chat";
    serve.linear = {sc.ops[0]};
    serve.decode = {sc.ops[1]};
    if (s.window) serve.decode.push_back(sc.ops[3]);
    serve.prefill = {sc.ops[2]};
    if (s.sample) serve.sample = {sc.ops.back()};
    sc.ops.clear();
    serve.tokens_slot = slot_named(sc, "N");
    serve.context_slot = slot_named(sc, "S");
    serve.chunk_slot = slot_named(sc, "T");
    serve.start_slot = slot_named(sc, "P");
    if (s.sample) serve.sampled_slot = slot_named(sc, "M");
    for (int slot : {serve.tokens_slot, serve.context_slot, serve.chunk_slot, serve.start_slot, serve.sampled_slot})
        if (slot >= 0) sc.slots[static_cast<std::size_t>(slot)].depends_on = model::step_bit;
    // PT follows the step: a let evaluated at every step.
    int const pt = slot_named(sc, "PT");
    sc.slots[static_cast<std::size_t>(pt)].depends_on = model::step_bit;
    sc.let_order.push_back(pt);
    if (s.window) {
        int const sw = slot_named(sc, "SW");
        sc.slots[static_cast<std::size_t>(sw)].depends_on = model::step_bit;
        sc.let_order.push_back(sw);
    }
    serve.prompt.slot = slot_named(sc, "prompt_len");
    serve.prompt.span = sc.slots[static_cast<std::size_t>(serve.prompt.slot)].expr.span;
    serve.output.slot = slot_named(sc, "output_len");
    serve.output.span = sc.slots[static_cast<std::size_t>(serve.output.slot)].expr.span;
    serve.arrivals = s.closed ? model::Serve::Arrivals::closed : model::Serve::Arrivals::poisson;
    serve.arrivals_slot = slot_named(sc, "arrivals");
    serve.requests_slot = slot_named(sc, "nreq");
    serve.warmup_slot = slot_named(sc, "nwarm");
    serve.max_seqs_slot = slot_named(sc, "seqs");
    serve.max_step_tokens_slot = slot_named(sc, "step_tokens");
    sc.serve = std::move(serve);
    return checked;
}

}  // namespace roofline::test
