#pragma once
// The mesh at every sweep point (mesh_points.cpp).

#include "point_evaluator.hpp"

namespace roofline::engine {

// Fills grid.chips and grid.mesh_unsupported, with one warning per target
// that cannot build the mesh; false (with an error naming the point) when a
// mesh axis size is not a positive integer.
bool compute_mesh_points(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics);

}  // namespace roofline::engine
