// The mesh pass: each axis of the `mesh` statement (collected with its size
// slot by the collection pass, computed by check_lets) checked.
#include "passes.hpp"

#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

namespace roofline::model {

void check_mesh(Context const& context, std::unordered_map<std::string, int> const& top_level_values,
                std::vector<MeshAxis> const& mesh, SlotValues const& values) {
    auto& diagnostics = context.diagnostics;
    for (auto const& axis : mesh) {
        if (auto it = top_level_values.find(axis.name); it != top_level_values.end()) {
            diagnostics.error(axis.span, "mesh axis '" + axis.name +
                                             "' has the name of a value; name mesh axes apart "
                                             "from lets, sweeps and tensor axes")
                .notes.push_back(Diagnostics::note(
                    values.slots[static_cast<std::size_t>(it->second)].span, "the value is defined here"));
        }
        if (!values.is_constant(axis.slot)) continue;
        double size = values.slots[static_cast<std::size_t>(axis.slot)].constant;
        if (auto problem = whole_number_problem(size))
            diagnostics.error(axis.size_span, "mesh axis '" + axis.name + "' must be " + *problem +
                                                  ", not " + format_number(size));
    }
}

}  // namespace roofline::model
