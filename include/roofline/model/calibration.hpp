#pragma once
// A calibration (docs/calibration.md): the factors that turn a roofline's
// bounds into an expected time on one chip and engine. `calibration NAME
// for HW { ... }` in the language, `target HW with NAME` to use it; fitted by
// `roofline calibrate` (src/calibrate/). Every factor is optional: an
// efficiency not given is 1, an overhead not given 0, so that a calibration
// with nothing in it gives the serial roofline (the "uncalibrated" time).

#include "roofline/lang/source.hpp"
#include "roofline/model/collectives.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::model {

enum class Link : std::uint8_t;  // scenario.hpp: ici, nvlink, dcn

// What an op is, for its efficiencies (inferred, no syntax on ops):
// - gemm: a matmul with a `weight` operand (a kernel: its first matmul's);
// - attention: an op or kernel with a `cache` operand;
// - collective: a `collective` op;
// - elementwise: everything else (an elementwise op, a matmul of two
//   activations that is not attention).
// expert: a matmul over routed experts' weights (an `expert` operand), a
// grouped GEMM; a calibration without its own expert efficiencies applies
// its gemm ones.
enum class OpClass : std::uint8_t { gemm, attention, elementwise, collective, expert };
inline constexpr std::string_view op_class_names[] = {"gemm", "attention", "elementwise", "collective", "expert"};
inline std::string_view op_class_name(OpClass c) { return op_class_names[static_cast<std::size_t>(c)]; }

// `efficiency CLASS DTYPE = E`: the fraction of the compute dtype's peak
// an op of the class reaches (e_math).
struct MathEfficiency {
    OpClass op_class = OpClass::gemm;
    std::string dtype;  // a dtype's name, as the compute dtype is named ("bf16", "fp8", ...)
    double value = 1;
    Span span;
};
// `efficiency CLASS hbm = E`: the fraction of the HBM bandwidth it reaches.
struct HbmEfficiency {
    OpClass op_class = OpClass::gemm;
    double value = 1;
    Span span;
};
// `latency KIND LINK = Q`: the measured time of one small collective of that
// kind over that kind of link; replaces the ring steps x link latency in
// t_expected.
struct CollectiveLatency {
    CollectiveKind kind = CollectiveKind::allreduce;
    Link link{};
    double seconds = 0;
    Span span;
};

struct Calibration {
    std::string name;
    std::string hardware;  // the id of the hardware entry after `for`
    Span span;             // the name
    std::string source;    // `source = "..."`: its data and fit, free text
    std::vector<MathEfficiency> math;
    std::vector<HbmEfficiency> hbm_by_class;
    std::optional<double> hbm;      // `efficiency hbm = E`: every class not listed
    std::optional<double> onchip;   // `efficiency onchip = E`
    std::optional<double> network;  // `efficiency network = E`: the collectives' bandwidth
    std::vector<CollectiveLatency> latencies;
    double launch_s = 0;             // per op (a kernel: once) of every step
    double step_overhead_s = 0;      // per engine step (or per request phase)
    double layer_overhead_s = 0;     // per layer the step runs (the `x L` counts)
    double sequence_overhead_s = 0;  // per sequence in the step (decodes and prompt chunks)
    double prefill_overhead_s = 0;   // per step that runs a prompt chunk, on top of step_overhead
    // Per request, once, before its first token (the front end: tokenizing,
    // admission, returning the first token); in TTFT and e2e, not in TPOT.
    double request_overhead_s = 0;
    // Per output token per second the replica streams, added to TTFT (and
    // e2e) under traffic: a first token waits behind the other streams'
    // tokens in what is serial in front of the steps (the HTTP front end,
    // detokenizing, the client); docs/calibration.md, section 3. `serve`
    // multiplies it by the point's output tokens/s.
    double stream_overhead_s = 0;
    // Steps a first token waits per sequence in flight, added to TTFT (and
    // e2e): admission_wait x the sequences running x the mean TPOT. The
    // measured TTFT grows with the batch times the step time beyond what a
    // scheduler of the engine's kind gives (docs/calibration.md, section 3).
    // A plain number, not a time.
    double admission_wait = 0;
    // Steps a first token waits after the step that computes it, added to
    // TTFT (and e2e) as first_token_steps x the mean TPOT: an engine that
    // overlaps its host work with the next step (TensorRT-LLM's overlap
    // scheduler, SGLang's, vLLM's async scheduling) hands a step's tokens
    // out during the step after it. A plain number, not a time.
    double first_token_steps = 0;
    // Per prompt token, once per request before its first token, in TTFT
    // (and e2e), not in a step: what a request's own prompt costs its first
    // token beyond the steps' prices (the fitted values are far above a
    // tokenizer's; docs/calibration.md, section 3).
    double prompt_token_overhead_s = 0;
    // Per kernel of one prompt's forward (the prefill's ops and the
    // sampling's, each op's `x L` count), once per request before its first
    // token, in TTFT (and e2e): what admitting a request costs on the host
    // that grows with the model's kernels (docs/calibration.md, section 3).
    double request_launch_s = 0;
    // The share of a measured closed-loop benchmark's requests that are its
    // cold first wave (all C clients at once): the measurements' own, used
    // where a calibration predicts them (calibrate, validate), not by serve,
    // whose arrivals and warm-up the scenario gives (docs/calibration.md).
    double cold_start = 0;

    // The factors with their defaults; the expert class falls back on gemm's.
    double e_math(OpClass op_class, std::string_view dtype) const {
        for (auto const& m : math)
            if (m.op_class == op_class && m.dtype == dtype) return m.value;
        return op_class == OpClass::expert ? e_math(OpClass::gemm, dtype) : 1;
    }
    double e_hbm(OpClass op_class) const {
        for (auto const& h : hbm_by_class)
            if (h.op_class == op_class) return h.value;
        return op_class == OpClass::expert ? e_hbm(OpClass::gemm) : hbm.value_or(1);
    }
    double e_onchip() const { return onchip.value_or(1); }
    double e_network() const { return network.value_or(1); }
    // nullopt: none given for that kind and link (the roofline's latency floor stays).
    std::optional<double> latency(CollectiveKind kind, Link link) const {
        for (auto const& l : latencies)
            if (l.kind == kind && l.link == link) return l.seconds;
        return std::nullopt;
    }
};

}  // namespace roofline::model
