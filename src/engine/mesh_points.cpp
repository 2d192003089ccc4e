// The mesh at every sweep point: its chips, and which targets can build it
// (multichip.md section 2). Per point, not per case: the mesh is the
// scenario's, the same for every op.
#include "mesh_points.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/model/limits.hpp"

namespace roofline::engine {

bool compute_mesh_points(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics) {
    if (scenario.mesh.empty()) return true;
    grid.chips.assign(grid.point_count, 1);
    grid.mesh_unsupported.assign(grid.point_count * grid.target_count, 0);
    std::vector<bool> warned(grid.target_count, false);
    return for_each_point(scenario, grid, evaluator, diagnostics,
                          [&](GridPoint const& point) -> std::optional<model::EvalError> {
        double chips = 1;
        for (double size : point.mesh_sizes) chips *= size;
        // Chips are counted like sizes: past 2^53 no longer one by one.
        if (!(chips < model::axis_size_limit))
            return model::EvalError{scenario.mesh.front().size_span.file ? scenario.mesh.front().size_span
                                                                         : scenario.mesh.front().span,
                                    "the mesh has " + model::format_number(chips) +
                                        " chips; a mesh has fewer than 2^53 (about 9e15)"};
        grid.chips[point.index] = chips;
        for (std::size_t t = 0; t < grid.target_count; ++t) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
            auto problem = mesh_problem(scenario, hw, point.mesh_sizes);
            if (problem.message.empty()) continue;
            grid.mesh_unsupported[point.index * grid.target_count + t] = 1;
            if (warned[t]) continue;
            warned[t] = true;
            diagnostics.warning(scenario.mesh[problem.axis].span,
                                problem.message + at_point(scenario, point.values) + "; its cases " +
                                    (scenario.sweeps.empty() ? "" : "there ") +
                                    "are evaluated as unsupported");
        }
        return std::nullopt;
    });
}

}  // namespace roofline::engine
