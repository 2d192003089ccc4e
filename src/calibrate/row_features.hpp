#pragma once
// One measured row as `serve` runs it (docs/calibration.md, section 2): the
// closed-loop simulation of its point, and what its mean TTFT and TPOT are
// made of, so that the fit can price them at any factors without running it
// again. Under closed(C) with equal lengths the schedule does not depend on
// the step times, so the parts of each step are kept: consecutive steps of
// the same shape (decodes only, the same count) merge into one segment, and
// each segment carries the share of the mean TTFT and of the mean TPOT it
// makes up.

#include "roofline/model/calibration.hpp"
#include "roofline/model/scenario.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace roofline::calibrate {

struct SegmentCollective {
    model::CollectiveKind kind = model::CollectiveKind::allreduce;
    model::Link link{};
    bool serial = true;
    double bandwidth_s = 0, roofline_s = 0;  // summed over the segment's steps, weighted
    double instances = 0;                    // collectives run (steps x weight)
};

struct SegmentOp {
    double count = 1;  // the op's `x L` count
    model::OpClass op_class = model::OpClass::elementwise;
    std::string dtype;  // the compute dtype's name
    double t_math = 0, t_comms = 0, t_onchip = 0;  // summed over the segment's steps
    double launches = 0;                           // per instance, summed over the steps
    std::uint32_t first = 0, collectives = 0;      // into Segment::collectives
};

struct Segment {
    double steps = 0, layer_steps = 0, sequences = 0;
    double chunk_steps = 0;  // steps that run a prompt chunk
    std::vector<SegmentOp> ops;
    std::vector<SegmentCollective> collectives;
    double w_ttft = 0, w_tpot = 0;  // its share of the mean TTFT, of the mean TPOT
};

struct RowModel {
    std::vector<Segment> segments;   // only those with a share
    // The benchmark's first wave: all C clients at once, cold. Its mean TTFT
    // alone: each step's parts weighed by the share of the wave still
    // waiting for its first token (w_ttft 1, w_tpot 0).
    std::vector<Segment> cold_segments;
    double kv_capacity_tokens = 0;
    double clients = 0, output_tokens = 0;  // C of closed(C), each request's output
    double prompt_tokens = 0;               // each request's prompt
    double forward_launches = 0;            // the kernels of one prompt's forward (StepModel)
    bool fits_memory = true;         // the cache holds every client's whole request at once
    std::string problem;             // nonempty: not modelled (the reason)
};

// The row at `point` of its series' scenario (the sweep C at the row's
// batch), on target 0.
RowModel model_row(model::Scenario const& scenario, std::span<double const> point);

}  // namespace roofline::calibrate
