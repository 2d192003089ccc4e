#pragma once
// Whether a dimension splits evenly over the chips of its mesh axes: the one
// rule (and message) of the engine's check at each point (engine/divisible.cpp)
// and of the checker's skipping of mesh sizes a sweep sets (pass_mesh_sweep.cpp).

#include "roofline/model/scenario.hpp"

#include <optional>
#include <span>
#include <string>

namespace roofline::model {

// "'V' = 128256 does not split evenly over tp = 5 chips" when `size` is not a
// multiple of the product of `shards`' sizes (`mesh_sizes`, by mesh axis);
// nothing when it is.
std::optional<std::string> uneven_split(Scenario const& scenario, std::string const& dimension,
                                        double size, Shards const& shards,
                                        std::span<double const> mesh_sizes);

}  // namespace roofline::model
