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

namespace roofline::model {

void check_pipeline(Context const& context, std::unordered_map<std::string, int> const& top_level_values,
                    SlotValues const& values, Scenario& scenario) {
    auto& diagnostics = context.diagnostics;
    for (std::size_t i = 0; i < scenario.mesh.size(); ++i) {
        auto const& axis = scenario.mesh[i];
        if (!axis.pipeline) continue;
        if (scenario.pipeline_axis < 0) {
            scenario.pipeline_axis = static_cast<int>(i);
            continue;
        }
        auto const& first = scenario.mesh[static_cast<std::size_t>(scenario.pipeline_axis)];
        diagnostics.error(axis.span, "mesh axis '" + axis.name + "' is a second pipeline axis; a mesh has at "
                                         "most one (its size is the number of stages)")
            .notes.push_back(Diagnostics::note(first.span, "the pipeline axis is '" + first.name + "'"));
    }
    auto it = top_level_values.find("microbatches");
    if (it == top_level_values.end()) return;
    auto const& slot = values.slots[static_cast<std::size_t>(it->second)];
    if (scenario.pipeline_axis < 0) {
        diagnostics.error(slot.span, "'microbatches' splits a batch over the stages of a pipeline, but the "
                                     "mesh has no pipeline axis (mark one: 'pp = 2 over nvlink pipeline')");
        return;
    }
    if (values.is_constant(it->second))
        if (auto problem = whole_number_problem(slot.constant))
            diagnostics.error(slot.span, "'microbatches' must be " + *problem + ", not " +
                                             format_number(slot.constant));
    scenario.microbatches_slot = it->second;
}

}  // namespace roofline::model
