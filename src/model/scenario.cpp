// The Scenario's own queries (include/roofline/model/scenario.hpp).
#include "roofline/model/scenario.hpp"

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

int Scenario::find_hardware(std::string_view id) const {
    for (std::size_t i = 0; i < hardware.size(); ++i)
        if (hardware[i].id == id) return static_cast<int>(i);
    return -1;
}

}  // namespace roofline::model
