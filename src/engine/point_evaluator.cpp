#include "point_evaluator.hpp"

#include "roofline/model/limits.hpp"

namespace roofline::engine {

PointEvaluator::PointEvaluator(model::Scenario const& scenario) : scenario_(scenario) {
    values_.reserve(scenario.slots.size());
    for (auto const& slot : scenario.slots) values_.push_back(slot.constant);
    set_step_slots(StepSlots{});  // the neutral step until a step sets them
}

void PointEvaluator::set_step_slots(StepSlots const& step) {
    auto const& serve = scenario_.serve;
    if (!serve) return;
    auto set = [&](int slot, double value) {
        if (slot >= 0) values_[static_cast<std::size_t>(slot)] = value;
    };
    set(serve->tokens_slot, step.tokens);
    set(serve->context_slot, step.context);
    set(serve->chunk_slot, step.chunk);
    set(serve->start_slot, step.start);
    set(serve->sampled_slot, step.sampled);
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
