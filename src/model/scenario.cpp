// The Scenario's own queries (include/roofline/model/scenario.hpp).
#include "roofline/model/scenario.hpp"

#include <algorithm>
#include <cstdint>

namespace roofline::model {

std::size_t Scenario::point_count() const {
    // Saturates instead of wrapping: three sweeps of 4M values are 2^66 points.
    std::size_t points = 1;
    for (auto const& sweep : sweeps) {
        std::size_t n = sweep.values.size();
        if (n != 0 && points > SIZE_MAX / n) return SIZE_MAX;
        points *= n;
    }
    return points;
}

bool Scenario::mesh_depends_on(std::size_t sweep) const {
    if (sweep >= 63) return false;  // depends_on's bits 0 .. 62 are sweeps, 63 step_bit
    return std::any_of(mesh.begin(), mesh.end(), [&](MeshAxis const& axis) {
        return (slots[static_cast<std::size_t>(axis.slot)].depends_on >> sweep & 1) != 0;
    });
}

int Scenario::find_hardware(std::string_view name) const {
    auto alias = hardware_aliases.find(name);
    std::string_view const id = alias == hardware_aliases.end() ? name : std::string_view(alias->second);
    for (std::size_t i = 0; i < hardware.size(); ++i)
        if (hardware[i].id == id) return static_cast<int>(i);
    return -1;
}

std::vector<std::string_view> Scenario::hardware_names() const {
    std::vector<std::string_view> names;
    for (auto const& hw : hardware) names.push_back(hw.id);
    for (auto const& [alias, id] : hardware_aliases) names.push_back(alias);
    return names;
}

}  // namespace roofline::model
