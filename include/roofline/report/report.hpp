#pragma once
// What every report writer gets: the checked scenario, the case grid (sweep
// points, critical values), facts about the report, and a summary built in
// the same pass as the cases. Writers format; they never recompute metrics.

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/serve.hpp"
#include "roofline/model/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofline::report {

struct ReportInfo {
    std::string name;           // the scenario file's stem: out/<name>/v<version>
    int version = 1;
    std::string created_utc;    // ISO 8601, e.g. "2026-11-30T02:51:47Z"
    std::string inputs_sha256;  // one hash over every input (see manifest)
    std::string tool_version;
};

struct ReportContext {
    model::Scenario const& scenario;
    engine::CaseGrid const& grid;
    ReportInfo const& info;
    // Every request at every point and target (engine::evaluate_requests),
    // when the scenario has requests; nullptr or empty: none.
    std::vector<engine::RequestResult> const* requests = nullptr;
    // The serve points (engine::evaluate_serve; target fastest) and the fleet
    // (engine::plan_fleet), when the scenario has a serve; nullptr: none.
    std::vector<engine::ServeResult> const* serve = nullptr;
    std::vector<engine::FleetRow> const* fleet = nullptr;

    bool has_serve() const { return serve && !serve->empty(); }

    bool has_requests() const { return requests && !requests->empty(); }
    // The result of request r at a point on a target.
    engine::RequestResult const& request_result(std::size_t r, std::size_t point,
                                                std::size_t target) const {
        return (*requests)[(r * grid.point_count + point) * grid.target_count + target];
    }
    model::Hardware const& target(std::size_t t) const {
        return scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
    }
    std::string const& dtype_name(int dtype) const {
        return scenario.dtypes[static_cast<std::size_t>(dtype)].name;
    }
    // The compute dtypes of the scenario's matmuls, each once, in first-use order.
    std::vector<int> compute_dtypes() const;
    // The compute dtype of `op` at a sweep point (a dtype sweep may change it).
    int compute_dtype_at(model::Op const& op, std::size_t point) const;
    // The points where the sweeps of numbers are at their first values and
    // the dtype sweeps take each combination of theirs, in order: {0}
    // without a dtype sweep. A sweep or step chart is drawn from each.
    std::vector<std::size_t> dtype_bases() const;
    // Whether `hw` has a peak for some compute dtype of `op`.
    bool supported_on(model::Op const& op, model::Hardware const& hw) const;
};

// Small facts gathered while the cases stream past (no per-case storage).
struct Summary {
    // [matmul * targets + target]
    struct OpTarget {
        engine::Bound bound_first = engine::Bound::unsupported;  // at the first sweep point
        engine::Bound bound_last = engine::Bound::unsupported;   // at the last sweep point
        double t_lower_first = engine::not_available;  // one instance, at the first point
        double t_lower_last = engine::not_available;   // one instance, at the last point
        std::vector<double> critical;  // per sweep, at the first point (NaN: never)
    };
    std::vector<OpTarget> op_targets;

    // Whole-scenario totals per sweep point and target, over supported cases,
    // each case weighted by its layer repeat count: [point * targets + target].
    // t_step_total is the serial step (Metrics::t_step), t_lower_total the
    // overlapped bound. memory_step_total is the part of t_step_total spent
    // at the memory roof, network_step_total in collectives (the serial ones,
    // and an overlapped or explicit collective's where it is the op's roof),
    // onchip_step_total at the on-chip roof.
    std::vector<double> t_step_total, t_lower_total, t_upper_total, memory_step_total,
        network_step_total, onchip_step_total;
    // Sum of count x t_expected (Metrics::t_expected: the target's
    // calibration applied to each case; t_step without one), the step's
    // overheads not included (step_totals adds them).
    std::vector<double> t_expected_total;
    // The unsupported cases (no peak for their compute dtype, or a mesh the
    // chip cannot build), and the compute dtype of the first: a step with
    // any is unsupported, never a number.
    std::vector<std::uint32_t> unsupported_cases;
    std::vector<int> unsupported_dtype;

    // Per layer path ("" is the top level), in first-use order, per sweep
    // point: [(point * layers.size() + layer) * targets + target].
    std::vector<std::string> layers;
    std::vector<double> layer_t_lower;
    double layer_time(std::size_t point, std::size_t layer, std::size_t target,
                      std::size_t targets) const {
        return layer_t_lower[(point * layers.size() + layer) * targets + target];
    }

    std::size_t case_count = 0, unsupported_count = 0;
};

// The step of one target at one sweep point: what a capacity planner reads
// first. Times assume one chip runs the whole step; min_chips is a memory
// figure only (how many chips' HBM the resident bytes need).
struct StepTotals {
    // Unsupported: some case of the step is (no peak for its compute dtype,
    // or the chip cannot build the mesh); the times are then NaN, and the
    // writers say "unsupported". unsupported_dtype: the first such case's
    // compute dtype (-1: the mesh).
    bool unsupported = false;
    std::uint32_t unsupported_cases = 0;
    int unsupported_dtype = -1;
    // The step: sum of count x t_step, the serial composition (each op, then
    // its collectives; multichip.md 6). t_overlapped: sum of count x t_lower,
    // every collective hidden under its op (the bound that assumes perfect
    // overlap); equal to t_lower on one chip. t_upper: sum of count x t_upper.
    double t_lower = 0, t_overlapped = 0, t_upper = 0;
    // The expected step (docs/calibration.md): sum of count x t_expected +
    // the step's overheads (step_overhead_seconds: step, layer_overhead x
    // layer_count(ops), sequence_overhead x step_sequences). Without a
    // calibration t_expected == t_lower (the serial roofline). tokens_per_s,
    // latency, the Plan's pick and the slo `step` read it; the bounds
    // (t_lower, t_overlapped, t_upper) stay beside it.
    double t_expected = 0;
    double overhead = 0;  // the step's overheads in t_expected (0 uncalibrated)
    double memory_share = 0;          // share of the step at the memory roof
    double network_share = 0;         // ... in collectives (a mesh)
    double onchip_share = 0;          // ... at the on-chip roof
    double chips = 1;                 // of the mesh at this point; the figures here are per chip
    double weight_bytes = 0, cache_bytes = 0, resident_bytes = 0;
    double capacity = engine::not_available;   // hbm_capacity; NaN when not given
    double min_chips = engine::not_available;  // ceil(resident / capacity); NaN when unknown or nothing resident
    double tokens = engine::not_available;     // per step; NaN without a tokens statement
    // tokens / t_expected (the expected throughput; the roofline's, tokens /
    // t_lower, when uncalibrated), and tokens / t_upper.
    double tokens_per_s = engine::not_available, tokens_per_s_upper = engine::not_available;
    // A pipeline (multichip.md, "Pipeline parallelism"): t_lower and the
    // shares are one stage's step (its send included); stages = P, the
    // pipeline axis's size; microbatches = M, NaN for a stream (decode: P
    // micro-batches in flight, one per stage). latency = latency_factor x
    // t_lower, what a user waits: P x step per token for a stream,
    // (M + P - 1) x step for a batch of M micro-batches. tokens_per_s is the
    // pipeline's: tokens / step for a stream (every stage busy with its own
    // micro-batch), M x tokens / latency for a batch. latency is over
    // t_expected (t_lower uncalibrated). cache_bytes holds the
    // KV of every micro-batch in flight (P, or M). Without a pipeline:
    // pipeline false, latency NaN, nothing else changes.
    bool pipeline = false;
    double stages = 1, microbatches = engine::not_available;
    double latency_factor = 1, latency = engine::not_available;
    // Each chip's resident bytes fit in its HBM (true without a capacity).
    bool fits() const { return !(resident_bytes > capacity); }
};
StepTotals step_totals(ReportContext const& context, Summary const& summary, std::size_t point,
                       std::size_t target);

// The name of target t's calibration, or "uncalibrated" (reports.md).
std::string_view calibration_label(model::Scenario const& scenario, std::size_t target);
// A line per calibrated target, "calibration: h100_sxm with trtllm_h100
// (expected times)", and one for the others, "calibration: h200, b200
// uncalibrated (expected = the serial roofline, a lower bound of what an
// engine takes)": the head of the tables (summary.txt) and of `eval`'s.
std::string calibration_lines(model::Scenario const& scenario);
// The sequences a step of the scenario runs, for its sequence_overhead: the
// tokens per step where the tokens statement is a name or a number
// (`tokens = B`: a decode step, one token per sequence), else 0 (`tokens = B
// * S`, a prefill: the sequences are not known). No tokens statement: 0.
double step_sequences(model::Scenario const& scenario, double tokens);

// The sweep points at which the first screens (the Summary sheet's Step
// section, the terminal summary of `run`) show the step: every point when
// there are at most `between` + 2 of them, else the first, the last and
// `between` points picked evenly in log space of the point index (index + 1
// = count^(k / (between + 1))), without repeats. In increasing order.
std::vector<std::size_t> step_points(std::size_t point_count, std::size_t between = 6);
// The same over the sweeps of numbers, with every value of the dtype sweeps
// at each point picked (all points when there is no dtype sweep to keep whole).
std::vector<std::size_t> step_points(model::Scenario const& scenario, engine::CaseGrid const& grid);

// The Plan table (multichip.md section 6): for each target, each dtype of a
// dtype sweep and each value of the sweeps that set the mesh's sizes, the
// sweep point with the most tokens per second per chip among those whose
// step is supported, fits in each chip's HBM and meets the `slo`; the best
// row of each target and dtype marked. Only for a scenario with a mesh and a
// tokens statement (else no rows).
struct PlanRow {
    std::size_t target = 0;
    std::size_t mesh_point = 0;  // the first point with these mesh sizes
    bool chosen = false;         // a point qualifies: `point` and `step` hold it
    std::size_t point = 0;
    StepTotals step;
    double compute_share = 0;
    double tokens_per_s_per_chip = 0;
    std::string why;    // when none qualifies
    bool best = false;  // the most tokens/s per chip of the target's rows (of its dtype)
    // The searched sweeps whose first or last value the pick sits at: the
    // best may lie beyond the sweep. The other sweeps for every chosen row;
    // the mesh sweeps too for the best.
    struct Edge {
        std::size_t sweep;
        bool last;
    };
    std::vector<Edge> edges;
};
struct Plan {
    std::vector<std::size_t> mesh_sweeps;   // sweeps that set a mesh size
    std::vector<std::size_t> dtype_sweeps;  // a Plan per dtype: its rows and best apart
    std::vector<std::size_t> other_sweeps;  // the rest, picked per row
    // What sets a row apart: its dtypes, then its mesh sizes (at mesh_point).
    std::vector<std::size_t> row_sweeps() const {
        std::vector<std::size_t> sweeps = dtype_sweeps;
        sweeps.insert(sweeps.end(), mesh_sweeps.begin(), mesh_sweeps.end());
        return sweeps;
    }
    std::vector<PlanRow> rows;              // per target, in sweep order
};
Plan make_plan(ReportContext const& context, Summary const& summary);
// What the slo bounds ("step" or "t_upper") and whether a step meets it (true
// without an slo); the Plan and the charts' marks read the same rule.
std::string_view slo_measure_name(model::Scenario const& scenario);
bool meets_slo(model::Scenario const& scenario, StepTotals const& step);
// What the terminal and the Summary sheet say under the Plan of an edge:
// "TP = 8: B = 256 is the last value of sweep B: the best may lie beyond it"
// (a mesh sweep's edge without the place: "TP = 8 is the last value ...").
std::string plan_edge_text(ReportContext const& context, Plan const& plan, PlanRow const& row,
                           PlanRow::Edge const& edge);

class SummaryBuilder {
public:
    explicit SummaryBuilder(ReportContext const& context);
    void add(engine::Case const& c);
    Summary const& summary() const { return summary_; }

private:
    ReportContext const& context_;
    Summary summary_;
    std::vector<std::size_t> layer_of_op_;
};

}  // namespace roofline::report
