#pragma once
// Values of every slot at one sweep point: constants come from the checked
// scenario, sweep variables from the point, and sweep-dependent lets are
// evaluated in dependency order. Shared by evaluate.cpp and critical.cpp.

#include "roofline/engine/evaluate.hpp"
#include "roofline/model/scenario.hpp"

#include <optional>
#include <string>
#include <span>
#include <vector>

namespace roofline::engine {

class PointEvaluator {
public:
    explicit PointEvaluator(model::Scenario const& scenario);

    // `sweep_values` holds one value per sweep.
    std::optional<model::EvalError> set_point(std::span<double const> sweep_values);

    // Sizes of matmul.axes at the current point; an error when one is not a
    // positive integer.
    std::optional<model::EvalError> axis_sizes(std::span<model::Axis const> axes,
                                               std::vector<double>& sizes) const;
    std::optional<model::EvalError> axis_sizes(model::Op const& matmul,
                                               std::vector<double>& sizes) const {
        return axis_sizes(matmul.axes, sizes);
    }

    std::span<double const> slots() const { return values_; }
    // A value no let computes (a request's step `i`), kept by set_point.
    void set_slot(int slot, double value) { values_[static_cast<std::size_t>(slot)] = value; }

    // The size of each mesh axis at the current point; an error when one is
    // not a positive integer.
    std::optional<model::EvalError> mesh_sizes(std::vector<double>& sizes) const;

private:
    model::Scenario const& scenario_;
    std::vector<double> values_;
};

// "B = 3, S = 128": the sweep values of a point, for error messages.
std::string describe_point(model::Scenario const& scenario, std::span<double const> values);
// " (at B = 3, S = 128)", the end of an error at a point; "" without sweeps.
std::string at_point(model::Scenario const& scenario, std::span<double const> values);

// An error at `span` when `count` (FLOPs or bytes, to be published) is above
// model::count_limit, where counts stop being exact: BEFORE COUNT AFTER, then
// "; counts above 2^64 (about 1.8e19) are not exact".
std::optional<model::EvalError> check_count(Span span, std::string const& before, double count,
                                            std::string const& after);

// An error when a sharded dimension of `op` (of `t`, whose axes index
// `axes`) does not divide among the chips of its mesh axes at these sizes.
std::optional<model::EvalError> check_divisible(model::Scenario const& scenario, model::Op const& op,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes);
std::optional<model::EvalError> check_divisible(model::Scenario const& scenario,
                                                std::span<model::Axis const> axes, model::Tensor const& t,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes);

// The network side of one op at a point. The collectives' volumes are the
// same on every target: op_volumes computes them once, then op_net_bytes
// gives what each chip receives and op_net_seconds the time on each `hw`.
void op_volumes(model::Scenario const& scenario, model::Op const& op,
                std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                std::span<double const> slots, std::vector<double>& volumes);
double op_net_bytes(model::Op const& op, std::span<double const> mesh_sizes,
                    std::span<double const> volumes);
double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> mesh_sizes, std::span<double const> volumes);
// Both steps at once, for one target (the critical-value search).
double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                      std::span<double const> slots);

// An op itself, or a kernel's members: the ops whose operands are tensors.
inline std::vector<model::Op const*> leaf_ops(model::Op const& op) {
    std::vector<model::Op const*> leaves;
    if (op.kind != model::OpKind::kernel) leaves.push_back(&op);
    for (auto const& m : op.members) leaves.push_back(&m);
    return leaves;
}

// Implemented in case_counts.cpp: a warning once per target that has no
// onchip_bandwidth (its on-chip traffic is free) when some case has on-chip
// operands, and once per target whose onchip_capacity the resident on-chip
// operands of a point exceed (with both sizes and the point).
void warn_onchip(model::Scenario const& scenario, CaseGrid const& grid, Diagnostics& diagnostics);

// The counts of one case (an op, or a kernel: its members' sums) at the
// evaluator's current point, per chip on a mesh (case_counts.cpp). The
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
// The network time of the case on `hw`, from the volumes count_case left.
double case_net_seconds(model::Scenario const& scenario, model::Op const& op,
                        model::Hardware const& hw, std::span<double const> mesh_sizes,
                        CaseScratch const& scratch);
// The case's metrics on `hw` at compute dtype `compute` (unsupported: no
// times). Without a mesh, `mesh_sizes` is empty.
Metrics case_metrics(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                     int compute, CaseCounts const& counts, std::span<double const> mesh_sizes,
                     CaseScratch const& scratch, bool unsupported);

// Implemented in mesh_points.cpp: fills grid.chips and grid.mesh_unsupported,
// with one warning per target that cannot build the mesh; false (with an
// error naming the point) when a mesh axis size is not a positive integer.
bool compute_mesh_points(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics);

// The resident bytes (weights, caches) of `ops` and `residents` at the
// evaluator's point, per chip on a mesh, each times its layer count (point_facts.cpp).
struct ResidentBytes {
    long double weight = 0, cache = 0, onchip = 0;
};
std::optional<model::EvalError> resident_bytes(model::Scenario const& scenario,
                                               std::span<model::Op const> ops,
                                               std::span<model::Resident const> residents,
                                               PointEvaluator const& evaluator,
                                               std::span<double const> mesh_sizes, ResidentBytes& out);

// Implemented in point_facts.cpp: fills grid.point_facts; false (with an
// error naming the point) when a resident axis or the tokens value fails.
bool compute_point_facts(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics);

// Implemented in critical.cpp; `values` holds one value per sweep.
double solve_critical(model::Scenario const& scenario, PointEvaluator& evaluator,
                      std::size_t matmul, std::size_t target, std::size_t sweep,
                      std::vector<double> values);

// How sweep `sweep`'s value enters the counts of one op, the other sweeps at
// `values` (CaseGrid::VCounts); implemented in critical.cpp.
CaseGrid::VCounts counts_in_v(model::Scenario const& scenario, PointEvaluator& evaluator,
                              std::size_t op, std::size_t sweep, std::vector<double> values);

}  // namespace roofline::engine
