#pragma once
// Whether each sharded dimension divides among its chips (divisible.cpp).

#include "roofline/model/scenario.hpp"

#include <optional>
#include <span>

namespace roofline::engine {

// An error when a sharded dimension of `op` (of `t`, whose axes index
// `axes`) does not divide among the chips of its mesh axes at these sizes.
std::optional<model::EvalError> check_divisible(model::Scenario const& scenario, model::Op const& op,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes);
std::optional<model::EvalError> check_divisible(model::Scenario const& scenario,
                                                std::span<model::Axis const> axes, model::Tensor const& t,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes);

}  // namespace roofline::engine
