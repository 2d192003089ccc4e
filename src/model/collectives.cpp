#include "roofline/model/collectives.hpp"

#include <cstddef>

namespace roofline::model {

// collective_info indexes the table by kind.
static_assert([] {
    for (std::size_t i = 0; i < std::size(collective_table); ++i)
        if (static_cast<std::size_t>(collective_table[i].kind) != i) return false;
    return true;
}());

CollectiveInfo const* find_collective(std::string_view name) {
    for (auto const& c : collective_table)
        if (c.name == name) return &c;
    return nullptr;
}

std::string collective_names() {
    std::string text;
    std::size_t n = std::size(collective_table);
    for (std::size_t i = 0; i < n; ++i)
        text.append(i == 0 ? "" : i + 1 == n ? " and " : ", ").append(collective_table[i].name);
    return text;
}

}  // namespace roofline::model
