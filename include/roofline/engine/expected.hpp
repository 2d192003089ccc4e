#pragma once
// The expected time of a case (docs/calibration.md, section 1): the
// roofline's times with the target's calibration applied,
//   t_expected = max(t_math / e_math, t_comms / e_hbm, t_onchip / e_onchip,
//                    the overlapped collectives)
//              + the serial collectives (each t_bandwidth / e_network +
//                its measured latency, or the roofline's time / e_network
//                where the calibration has no latency for its kind and link)
//              + launch,
// and a step's overheads (step, per layer, per sequence). Without a
// calibration every factor is 1 and every overhead 0: t_expected is the
// serial roofline, t_step. The parts are kept apart (ExpectedParts) because
// `roofline calibrate` fits the factors on them.

#include "roofline/engine/metrics.hpp"
#include "roofline/model/calibration.hpp"
#include "roofline/model/scenario.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace roofline::engine {

// The op's class (model/calibration.hpp): a `collective` op; an op (a
// kernel: any member) with a `cache` operand is attention; a matmul with a
// `weight` operand (a kernel: any member) gemm; the rest elementwise.
model::OpClass op_class(model::Op const& op);

// The link a collective is timed on for its latency: the slowest kind among
// its axes of more than one chip (dcn, then ici, then nvlink).
model::Link collective_link(model::Scenario const& scenario, model::Collective const& collective,
                            std::span<double const> mesh_sizes);

struct CollectiveTime {
    model::CollectiveKind kind = model::CollectiveKind::allreduce;
    model::Link link{};
    double bandwidth_s = 0;  // without the latency floors
    double roofline_s = 0;   // as t_net has it (each stage the larger of bandwidth and latency)
    bool serial = true;      // after (or before) its op; false: under it (`overlapped`)
    double weight = 1;       // a kernel's member: its count / the kernel's count
};

struct ExpectedParts {
    model::OpClass op_class = model::OpClass::elementwise;
    std::string_view compute_dtype;  // the compute dtype's name
    double t_math = 0, t_comms = 0, t_onchip = 0;
    std::vector<CollectiveTime> collectives;
    double launches = 1;  // kernels launched per instance of the op
    bool unsupported = false;  // no peak for the compute dtype, or the mesh cannot be built
};

// The parts of one case from its metrics (m: as case_metrics computed them)
// and the collective volumes count_case left in `volumes`.
// `no_latency`: `hw` with every link latency 0 (hardware_without_latency).
void expected_parts(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                    model::Hardware const& no_latency, int compute, Metrics const& m,
                    std::span<double const> mesh_sizes, std::span<double const> volumes,
                    ExpectedParts& out);
model::Hardware hardware_without_latency(model::Hardware const& hw);

// A collective's expected seconds; the whole case's.
double expected_collective_seconds(CollectiveTime const& c, model::Calibration const* calibration);
double expected_seconds(ExpectedParts const& parts, model::Calibration const* calibration);

// The layers a list of ops runs: the sum, over the distinct top-level
// layers (the first component of Op::layer: "decoder" of "decoder/attn"),
// of the largest count of their ops; an op outside any layer adds nothing.
double layer_count(std::span<model::Op const> ops);

// A step's (or a request phase's) overheads: step_overhead + layer_overhead
// x layers + sequence_overhead x sequences; 0 without a calibration.
// A step that runs a prompt chunk adds prefill_overhead.
double step_overhead_seconds(model::Calibration const* calibration, double layers, double sequences,
                             bool prefill = false);

// A request's own terms before its first token, in its TTFT and e2e and in
// no step: request_overhead + prompt_token_overhead x its prompt +
// request_launch x the kernels of a prompt's forward; 0 without a
// calibration (docs/calibration.md, section 1).
double request_front_seconds(model::Calibration const* calibration, double prompt_tokens,
                             double forward_kernels);

}  // namespace roofline::engine
