#pragma once
// Collectives over a mesh (docs/multichip.md, "What a collective costs"):
// the bytes each chip receives and the time, with the exact ring formulas
// and their latency floors (each collective's traffic from
// model/collectives.hpp). The one place that owns them.

#include "roofline/model/scenario.hpp"

#include <span>
#include <string>
#include <vector>

namespace roofline::engine {

// Why `hw` cannot build the mesh with these axis sizes (message "" when it
// can): a link it lacks on an axis of more than one chip, or more GPUs over
// NVLink than one switch connects. `mesh_sizes[i]` is the size of
// Scenario::mesh[i]; `axis` is the mesh axis the problem is about (the first
// NVLink axis for a full switch).
struct MeshProblem {
    std::string message;
    std::size_t axis = 0;
};
MeshProblem mesh_problem(model::Scenario const& scenario, model::Hardware const& hw,
                         std::span<double const> mesh_sizes);

// The bytes each chip receives in one collective of volume V (multichip.md:
// V after an AllGather, before a ReduceScatter, the whole array over the
// axes for an AllToAll) over mesh axes whose sizes multiply to N.
double collective_net_bytes(model::CollectiveKind kind, double chips, double volume);

// Its time on `hw`: the stages of each kind of link, the slowest first on V
// divided by the sizes of the faster axes, each the larger of its bandwidth
// term and its latency floor. `hw` must be able to build the mesh.
double collective_seconds(model::Scenario const& scenario, model::Hardware const& hw,
                          model::CollectiveKind kind, std::span<int const> axes,
                          std::span<double const> mesh_sizes, double volume);

// Whether an ICI axis of `size` chips is a ring on `hw`.
bool is_ring(model::MeshAxis const& axis, model::Hardware const& hw, double size);

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

// The `collective` column of an op: its collectives in order,
// "allgather(X) + allreduce(tp)", a kernel's members' joined by ", "; "" for
// none. The writers print it per case: CaseGrid::collective_texts holds it
// per op, formatted once.
std::string collective_text(model::Scenario const& scenario, model::Op const& op);

}  // namespace roofline::engine
