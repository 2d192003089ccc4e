// The mesh at every sweep point: its chips, and which targets can build it
// (multichip.md section 2). Per point, not per case: the mesh is the
// scenario's, the same for every op.
#include "point_evaluator.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/model/limits.hpp"

#include <cmath>

namespace roofline::engine {

std::optional<model::EvalError> PointEvaluator::mesh_sizes(std::vector<double>& sizes) const {
    sizes.clear();
    for (auto const& axis : scenario_.mesh) {
        double size = values_[static_cast<std::size_t>(axis.slot)];
        if (auto problem = model::whole_number_problem(size))
            return model::EvalError{axis.size_span, "mesh axis '" + axis.name + "' must be " + *problem +
                                                   ", but it is " + model::format_number(size)};
        sizes.push_back(size);
    }
    return std::nullopt;
}

std::optional<model::EvalError> check_divisible(model::Scenario const& scenario,
                                                std::span<model::Axis const> axes, model::Tensor const& t,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes) {
    auto varies = [&](int slot) { return scenario.slots[static_cast<std::size_t>(slot)].depends_on != 0; };
    for (std::size_t i = 0; i < t.shards.size(); ++i) {
        if (t.shards[i].empty()) continue;
        auto const& axis = axes[static_cast<std::size_t>(t.axes[i])];
        double size = axis_sizes[static_cast<std::size_t>(t.axes[i])];
        double chips = shard_count(t.shards[i], mesh_sizes);
        if (std::fmod(size, chips) == 0) continue;
        std::string over;
        bool swept = varies(axis.slot);
        for (int m : t.shards[i]) {
            auto const& mesh_axis = scenario.mesh[static_cast<std::size_t>(m)];
            over.append(over.empty() ? "" : " x ")
                .append(mesh_axis.name)
                .append(" = ")
                .append(model::format_number(mesh_sizes[static_cast<std::size_t>(m)]));
            swept = swept || varies(mesh_axis.slot);
        }
        return model::EvalError{i < t.dim_spans.size() ? t.dim_spans[i] : t.span,
                                "'" + axis.name + "' = " + model::format_number(size) +
                                    " does not split evenly over " + over + " chips",
                                !swept};
    }
    return std::nullopt;
}

std::optional<model::EvalError> check_divisible(model::Scenario const& scenario, model::Op const& op,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes) {
    for (auto const& input : op.inputs)
        if (auto error = check_divisible(scenario, op.axes, input, axis_sizes, mesh_sizes)) return error;
    return check_divisible(scenario, op.axes, op.out, axis_sizes, mesh_sizes);
}

namespace {

double volume_of(model::Op const& op, model::Collective const& c, std::span<double const> axis_sizes,
                 std::span<double const> mesh_sizes, std::span<model::Dtype const> dtypes,
                 std::span<double const> slots) {
    auto const& t = c.tensor < 0 ? op.out : op.inputs[static_cast<std::size_t>(c.tensor)];
    auto v = static_cast<double>(tensor_bytes(t, c.volume_shards, axis_sizes, mesh_sizes, dtypes, slots));
    // An AllToAll's volume is the whole array over its axes.
    return c.kind == model::CollectiveKind::alltoall ? v * shard_count(c.mesh_axes, mesh_sizes) : v;
}

}  // namespace

void op_volumes(model::Scenario const& scenario, model::Op const& op,
                std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                std::span<double const> slots, std::vector<double>& volumes) {
    volumes.clear();
    for (auto const& c : op.collectives)
        volumes.push_back(volume_of(op, c, axis_sizes, mesh_sizes, scenario.dtypes, slots));
}

double op_net_bytes(model::Op const& op, std::span<double const> mesh_sizes,
                    std::span<double const> volumes) {
    double bytes = 0;
    for (std::size_t i = 0; i < op.collectives.size(); ++i) {
        auto const& c = op.collectives[i];
        bytes += collective_net_bytes(c.kind, shard_count(c.mesh_axes, mesh_sizes), volumes[i]);
    }
    return bytes;
}

double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> mesh_sizes, std::span<double const> volumes) {
    double seconds = 0;
    for (std::size_t i = 0; i < op.collectives.size(); ++i) {
        auto const& c = op.collectives[i];
        seconds += collective_seconds(scenario, hw, c.kind, c.mesh_axes, mesh_sizes, volumes[i]);
    }
    return seconds;
}

double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                      std::span<double const> slots) {
    std::vector<double> volumes;
    op_volumes(scenario, op, axis_sizes, mesh_sizes, slots, volumes);
    return op_net_seconds(scenario, op, hw, mesh_sizes, volumes);
}

bool compute_mesh_points(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics) {
    if (scenario.mesh.empty()) return true;
    grid.chips.assign(grid.point_count, 1);
    grid.mesh_unsupported.assign(grid.point_count * grid.target_count, 0);
    std::vector<bool> warned(grid.target_count, false);
    std::vector<double> sizes;
    for (std::size_t p = 0; p < grid.point_count; ++p) {
        std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                       grid.sweep_count);
        auto fail = [&](model::EvalError const& error) {
            diagnostics.error(error.span,
                              error.message + (error.at_every_point ? "" : at_point(scenario, values)));
            return false;
        };
        if (auto error = evaluator.set_point(values)) return fail(*error);
        if (auto error = evaluator.mesh_sizes(sizes)) return fail(*error);
        double chips = 1;
        for (double size : sizes) chips *= size;
        // Chips are counted like sizes: past 2^53 no longer one by one.
        if (!(chips < model::axis_size_limit))
            return fail({scenario.mesh.front().size_span.file ? scenario.mesh.front().size_span
                                                              : scenario.mesh.front().span,
                         "the mesh has " + model::format_number(chips) +
                             " chips; a mesh has fewer than 2^53 (about 9e15)"});
        grid.chips[p] = chips;
        for (std::size_t t = 0; t < grid.target_count; ++t) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
            auto problem = mesh_problem(scenario, hw, sizes);
            if (problem.message.empty()) continue;
            grid.mesh_unsupported[p * grid.target_count + t] = 1;
            if (warned[t]) continue;
            warned[t] = true;
            diagnostics.warning(scenario.mesh[problem.axis].span,
                                problem.message + at_point(scenario, values) + "; its cases " +
                                    (scenario.sweeps.empty() ? "" : "there ") +
                                    "are evaluated as unsupported");
        }
    }
    return true;
}

}  // namespace roofline::engine
