#include "point_evaluator.hpp"

#include "roofline/model/limits.hpp"

namespace roofline::engine {

PointEvaluator::PointEvaluator(model::Scenario const& scenario) : scenario_(scenario) {
    values_.reserve(scenario.slots.size());
    for (auto const& slot : scenario.slots) values_.push_back(slot.constant);
    // A serve's step slots at the neutral step (one token, context 1, a chunk
    // of 1 at 0) until a step sets them, so that a point's lets evaluate
    // (the mesh, the facts) without dividing by a step of no tokens.
    if (auto const& serve = scenario.serve) {
        for (int slot : {serve->tokens_slot, serve->context_slot, serve->chunk_slot})
            if (slot >= 0) values_[static_cast<std::size_t>(slot)] = 1;
        if (serve->start_slot >= 0) values_[static_cast<std::size_t>(serve->start_slot)] = 0;
    }
}

std::optional<model::EvalError> PointEvaluator::set_point(std::span<double const> sweep_values) {
    for (std::size_t i = 0; i < scenario_.sweeps.size(); ++i)
        values_[static_cast<std::size_t>(scenario_.sweeps[i].slot)] = sweep_values[i];
    for (int s : scenario_.let_order) {
        auto slot = static_cast<std::size_t>(s);
        auto result = model::evaluate(scenario_.slots[slot].expr, values_);
        if (auto const* error = std::get_if<model::EvalError>(&result)) return *error;
        values_[slot] = std::get<double>(result);
    }
    return std::nullopt;
}

std::optional<model::EvalError> PointEvaluator::axis_sizes(std::span<model::Axis const> axes,
                                                           std::vector<double>& sizes) const {
    sizes.clear();
    for (auto const& axis : axes) {
        double size = values_[static_cast<std::size_t>(axis.slot)];
        if (auto problem = model::whole_number_problem(size))
            return model::EvalError{axis.span, "axis '" + axis.name + "' must be " + *problem +
                                                   ", but " + axis.name + " = " +
                                                   model::format_number(size)};
        sizes.push_back(size);
    }
    return std::nullopt;
}

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

}  // namespace roofline::engine
