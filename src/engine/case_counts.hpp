#pragma once
// The counts of one case, per chip on a mesh, and its metrics on one target
// (case_counts.cpp): for the cases, the critical searches, the kernels'
// members and the requests alike.

#include "point_evaluator.hpp"

#include "roofline/engine/metrics.hpp"

#include <optional>
#include <span>
#include <vector>

namespace roofline::engine {

// An op itself, or a kernel's members: the ops whose operands are tensors.
inline std::vector<model::Op const*> leaf_ops(model::Op const& op) {
    std::vector<model::Op const*> leaves;
    if (op.kind != model::OpKind::kernel) leaves.push_back(&op);
    for (auto const& m : op.members) leaves.push_back(&m);
    return leaves;
}

// A warning once per target that has no onchip_bandwidth (its on-chip
// traffic is free) when some case has on-chip operands, and once per target
// whose onchip_capacity the resident on-chip operands of a point exceed
// (with both sizes and the point).
void warn_onchip(model::Scenario const& scenario, CaseGrid const& grid, Diagnostics& diagnostics);

// The counts of one case (an op, or a kernel: its members' sums) at the
// evaluator's current point, per chip on a mesh. The
// scratch keeps its vectors between calls, so that a case costs no
// allocation; `volumes` then holds the collectives' volumes, member after
// member, for case_net_seconds.
struct CaseScratch {
    std::vector<double> sizes, member_sizes, volumes, member_volumes;
};
struct CaseCounts {
    Counts counts;
    double net_bytes = 0;
};
// `mesh_sizes` empty: no mesh. An error when an axis is not a positive
// integer, a read factor or a FLOPs expression is not valid, or a split does
// not divide.
std::optional<model::EvalError> count_case(model::Scenario const& scenario, model::Op const& op,
                                           PointEvaluator const& evaluator,
                                           std::span<double const> mesh_sizes, CaseScratch& scratch,
                                           CaseCounts& out);
// The counts of one op with its axes' sizes (not a kernel), or of one member
// of a kernel whose axes count_case has checked (count_member); each leaves
// the op's collective volumes in scratch.member_volumes and appends them to
// scratch.volumes. count_case sums the members; members.cpp shows each.
std::optional<model::EvalError> count_one(model::Scenario const& scenario, model::Op const& op,
                                          std::span<double const> sizes, std::span<double const> slots,
                                          std::span<double const> mesh_sizes, CaseScratch& scratch,
                                          CaseCounts& out);
std::optional<model::EvalError> count_member(model::Scenario const& scenario, model::Op const& member,
                                             std::span<double const> slots,
                                             std::span<double const> mesh_sizes, CaseScratch& scratch,
                                             CaseCounts& out);
// The network time of the case on `hw`, from the volumes count_case left:
// in all, and the part that runs serially in the step (Metrics::t_net_serial:
// all of it but an `overlapped` op's, and an explicit collective's, which is
// an op of its own).
bool serial_in_step(model::Op const& op);
struct NetSeconds {
    double total = 0, serial = 0;
};
NetSeconds case_net_seconds(model::Scenario const& scenario, model::Op const& op,
                        model::Hardware const& hw, std::span<double const> mesh_sizes,
                        CaseScratch const& scratch);
// The case's metrics on `hw` at compute dtype `compute` (unsupported: no
// times). Without a mesh, `mesh_sizes` is empty. With a calibration (the
// target's), t_expected applies it (engine/expected.hpp); else t_expected is
// t_step.
Metrics case_metrics(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                     int compute, CaseCounts const& counts, std::span<double const> mesh_sizes,
                     CaseScratch const& scratch, bool unsupported,
                     model::Calibration const* calibration = nullptr);

}  // namespace roofline::engine
