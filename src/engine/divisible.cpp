#include "divisible.hpp"

#include "roofline/model/uneven_split.hpp"

namespace roofline::engine {

std::optional<model::EvalError> check_divisible(model::Scenario const& scenario,
                                                std::span<model::Axis const> axes, model::Tensor const& t,
                                                std::span<double const> axis_sizes,
                                                std::span<double const> mesh_sizes) {
    auto varies = [&](int slot) { return scenario.slots[static_cast<std::size_t>(slot)].depends_on != 0; };
    for (std::size_t i = 0; i < t.shards.size(); ++i) {
        if (t.shards[i].empty()) continue;
        auto const& axis = axes[static_cast<std::size_t>(t.axes[i])];
        double size = axis_sizes[static_cast<std::size_t>(t.axes[i])];
        auto problem = model::uneven_split(scenario, axis.name, size, t.shards[i], mesh_sizes);
        if (!problem) continue;
        bool swept = varies(axis.slot);
        for (int m : t.shards[i]) swept = swept || varies(scenario.mesh[static_cast<std::size_t>(m)].slot);
        return model::EvalError{i < t.dim_spans.size() ? t.dim_spans[i] : t.span, *problem, !swept};
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

}  // namespace roofline::engine
