#pragma once
// Checked scenario -> cases: every sweep point x matmul x target, with the
// roofline metrics and the critical value of each sweep variable. Pure: no I/O;
// the results are values that the writers format.
//
// Two ways to get the cases: `evaluate` returns them all in a vector (for the
// terminal and tests); `prepare` + `stream_cases` hands them over one at a
// time, in the same order, so that a report of a million cases never holds
// the case table in memory.

#include "roofline/engine/metrics.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/scenario.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace roofline::engine {

struct Case {
    std::uint32_t point;   // index of the sweep point
    std::uint32_t op;  // index into Scenario::ops
    std::uint32_t target;  // index into Scenario::targets
    std::uint32_t compute_dtype;  // index into Scenario::dtypes: whose peak applies
    Metrics metrics;
};

// What one sweep point holds in memory and processes, whatever the target:
// resident bytes (weight and cache operands and `resident` declarations, each
// times its layer repeat count) and the `tokens` of one step.
struct PointFacts {
    double weight_bytes = 0;
    double cache_bytes = 0;
    double onchip_resident_bytes = 0;  // of them, `weight onchip` and `cache onchip` operands
    double tokens = std::numeric_limits<double>::quiet_NaN();  // NaN: no tokens statement
    // A pipeline (multichip.md, "Pipeline parallelism"): its stages (the
    // pipeline axis's size; 1 without one) and `microbatches` (NaN: a stream).
    double stages = 1;
    double microbatches = std::numeric_limits<double>::quiet_NaN();
    double resident_bytes() const { return weight_bytes + cache_bytes; }
};

// Everything about the cases except the cases themselves: the sweep points,
// the critical values and the facts of each point. Cases come for each point (the first sweep varying
// slowest), each matmul, each target.
struct CaseGrid {
    std::size_t sweep_count = 0;
    std::vector<std::size_t> sweep_sizes;
    std::size_t point_count = 1, op_count = 0, target_count = 0;
    std::vector<double> point_values;  // point-major: point * sweep_count + sweep

    // critical[v][(reduced point * matmuls + matmul) * targets + target]: the
    // smallest positive integer value of sweep v at which the case is
    // compute-bound with everything else held fixed; NaN when there is none.
    // The reduced point is the point's index with sweep v's digit removed, so
    // the table holds each answer once, not once per value of v.
    std::vector<std::vector<double>> critical;

    // How the value V of sweep v enters an op's counts, the rest of the point
    // held fixed: [v][reduced point * ops + op], the reduced point as above.
    // Independent of the hardware, so that a workbook can solve the critical
    // value again after a bandwidth or a peak is edited.
    struct VCounts {
        enum Kind : std::uint8_t {
            other,     // V reaches the axes through lets (or an axis fails): no closed form
            constant,  // V is no axis and no axis depends on it: the bound is the same at every V
            linear,    // flops = flops_per_v V, bytes = bytes_fixed + bytes_per_v V
        } kind = other;
        double flops_per_v = 0, bytes_fixed = 0, bytes_per_v = 0;
    };
    std::vector<std::vector<VCounts>> v_counts;

    std::vector<PointFacts> point_facts;  // per point
    // With a mesh: the chips of each point (the product of the mesh axis
    // sizes), and whether each target can build the mesh there
    // ([point * targets + target], 1: it cannot; its cases are unsupported).
    // Both empty without a mesh: one chip.
    std::vector<double> chips;
    std::vector<std::uint8_t> mesh_unsupported;
    double chips_at(std::size_t point) const { return chips.empty() ? 1 : chips[point]; }
    // Per op: its collectives as the `collective` column writes them
    // (collective_text in network.hpp), formatted once, since the writers
    // print the text for every case.
    std::vector<std::string> collective_texts;
    bool has_tokens = false;              // the scenario has a `tokens` statement
    bool has_resident = false;            // some operand or declaration is resident

    std::size_t case_count() const { return point_count * op_count * target_count; }
    double sweep_value(std::size_t point, std::size_t sweep) const {
        return point_values[point * sweep_count + sweep];
    }
    double sweep_value(Case const& c, std::size_t sweep) const { return sweep_value(c.point, sweep); }
    double critical_value(std::size_t point, std::size_t matmul, std::size_t target,
                          std::size_t sweep) const;
    double critical_value(Case const& c, std::size_t sweep) const {
        return critical_value(c.point, c.op, c.target, sweep);
    }
    // The point's index with sweep `sweep`'s digit removed.
    std::size_t reduced_point(std::size_t point, std::size_t sweep) const;
    VCounts const& v_counts_of(std::size_t point, std::size_t op, std::size_t sweep) const {
        return v_counts[sweep][reduced_point(point, sweep) * op_count + op];
    }
};

struct Evaluation : CaseGrid {
    std::vector<Case> cases;
};

struct EvaluateOptions {
    std::size_t max_cases = model::max_cases;
};

// The grid: sweep points and critical values; nullopt (with an error) past
// max_cases.
std::optional<CaseGrid> prepare(model::Scenario const& scenario, Diagnostics& diagnostics,
                                EvaluateOptions const& options = {});

// Calls `sink` with each case in order. A value that is only wrong at some
// sweep point (an axis that is not a positive integer there, a division by
// zero) stops the stream: returns false and reports the error, its message
// ending in the point: "(at B = 3)".
bool stream_cases(model::Scenario const& scenario, CaseGrid const& grid, Diagnostics& diagnostics,
                  std::function<void(Case const&)> const& sink);

// Both at once, every case in a vector.
std::optional<Evaluation> evaluate(model::Scenario const& scenario, Diagnostics& diagnostics,
                                   EvaluateOptions const& options = {});

// One request (docs/fusion.md) at one sweep point on one target, per chip:
// the prefill's step, then the decode's step at each i = 1 .. output (the
// context prompt + i), summed exactly. Steps sum count x t_lower over the
// phase's cases, as the step table does. NaN times where the target has no
// peak for some op (or cannot build the mesh).
struct RequestResult {
    std::uint32_t request, point, target;
    double prompt, output, batch;
    double ttft;                                   // time to first token: the prefill's step
    double tpot_first, tpot_mean, tpot_last;       // decode steps i = 1, mean, i = output
    double decode_total;                           // the sum of the output decode steps
    double e2e;                                    // ttft + decode_total
    double tokens_per_s;                           // batch x output / e2e
    double weight_bytes, cache_bytes;              // the decode's resident bytes at i = output
    std::vector<double> per_token;                 // the decode step at i = 1 .. output
    // The expected times (docs/calibration.md) with the target's calibration:
    // each phase step the sum of count x t_expected + step_overhead_seconds
    // (layers = layer_count of the phase's ops, sequences = the batch); the
    // TTFT also the calibration's request_overhead. Without a calibration
    // each equals its bounded figure above.
    double ttft_expected, tpot_first_expected, tpot_mean_expected, tpot_last_expected;
    double decode_total_expected, e2e_expected, tokens_per_s_expected;
};

// Every request at every point and target, in that order (the target
// fastest); nullopt after an error, which names the point and the step.
std::optional<std::vector<RequestResult>> evaluate_requests(model::Scenario const& scenario,
                                                            CaseGrid const& grid,
                                                            Diagnostics& diagnostics);

// The critical value of sweep `sweep` for one matmul on one target, with the
// other sweep variables at `values` (one per sweep). Exposed for tests.
double solve_critical(model::Scenario const& scenario, std::size_t matmul, std::size_t target,
                      std::size_t sweep, std::vector<double> const& values);

}  // namespace roofline::engine
