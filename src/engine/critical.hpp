#pragma once
// Critical values and how a sweep enters an op's counts (critical.cpp).

#include "point_evaluator.hpp"

#include <vector>

namespace roofline::engine {

// `values` holds one value per sweep.
double solve_critical(model::Scenario const& scenario, PointEvaluator& evaluator,
                      std::size_t matmul, std::size_t target, std::size_t sweep,
                      std::vector<double> values);

// How sweep `sweep`'s value enters the counts of one op, the other sweeps at
// `values` (CaseGrid::VCounts).
CaseGrid::VCounts counts_in_v(model::Scenario const& scenario, PointEvaluator& evaluator,
                              std::size_t op, std::size_t sweep, std::vector<double> values);

}  // namespace roofline::engine
