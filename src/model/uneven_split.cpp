#include "roofline/model/uneven_split.hpp"

#include <cmath>

namespace roofline::model {

std::optional<std::string> uneven_split(Scenario const& scenario, std::string const& dimension,
                                        double size, Shards const& shards,
                                        std::span<double const> mesh_sizes) {
    double chips = 1;
    for (int m : shards) chips *= mesh_sizes[static_cast<std::size_t>(m)];
    if (std::fmod(size, chips) == 0) return std::nullopt;
    std::string over;
    for (int m : shards)
        over.append(over.empty() ? "" : " x ")
            .append(scenario.mesh[static_cast<std::size_t>(m)].name)
            .append(" = ")
            .append(format_number(mesh_sizes[static_cast<std::size_t>(m)]));
    return std::string("'").append(dimension).append("' = ").append(format_number(size)).append(
        " does not split evenly over " + over + " chips");
}

}  // namespace roofline::model
