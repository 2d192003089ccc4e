#pragma once
// Resident bytes and tokens at every sweep point (point_facts.cpp).

#include "point_evaluator.hpp"

#include <span>

namespace roofline::engine {

// The resident bytes (weights, caches) of `ops` and `residents` at the
// evaluator's point, per chip on a mesh, each times its layer count.
struct ResidentBytes {
    long double weight = 0, cache = 0, onchip = 0;
};
std::optional<model::EvalError> resident_bytes(model::Scenario const& scenario,
                                               std::span<model::Op const> ops,
                                               std::span<model::Resident const> residents,
                                               PointEvaluator const& evaluator,
                                               std::span<double const> mesh_sizes, ResidentBytes& out);

// Fills grid.point_facts; false (with an error naming the point) when a
// resident axis or the tokens value fails.
bool compute_point_facts(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics);

}  // namespace roofline::engine
