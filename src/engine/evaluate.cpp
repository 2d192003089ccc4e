#include "roofline/engine/evaluate.hpp"

#include "point_evaluator.hpp"

#include <cmath>

namespace roofline::engine {

PointEvaluator::PointEvaluator(model::Scenario const& scenario) : scenario_(scenario) {
    values_.reserve(scenario.slots.size());
    for (auto const& slot : scenario.slots) values_.push_back(slot.constant);
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

std::optional<model::EvalError> PointEvaluator::axis_sizes(model::Matmul const& matmul,
                                                           std::vector<double>& sizes) const {
    sizes.clear();
    for (auto const& axis : matmul.axes) {
        double size = values_[static_cast<std::size_t>(axis.slot)];
        if (!(size >= 1) || size != std::floor(size))
            return model::EvalError{axis.span, "axis '" + axis.name +
                                                   "' must be a positive integer, but " + axis.name +
                                                   " = " + model::format_number(size)};
        sizes.push_back(size);
    }
    return std::nullopt;
}

double Evaluation::critical_value(Case const& c, std::size_t sweep) const {
    std::size_t stride = 1;
    for (std::size_t j = sweep + 1; j < sweep_sizes.size(); ++j) stride *= sweep_sizes[j];
    std::size_t p = c.point;
    std::size_t reduced = p / (stride * sweep_sizes[sweep]) * stride + p % stride;
    return critical[sweep][(reduced * matmul_count + c.matmul) * target_count + c.target];
}

namespace {

std::string describe_point(model::Scenario const& scenario, std::span<double const> values) {
    std::string text;
    for (std::size_t i = 0; i < scenario.sweeps.size(); ++i)
        text += (i ? ", " : "") + scenario.sweeps[i].name + " = " + model::format_number(values[i]);
    return text;
}

// The sweep values of point p (the last sweep varies fastest).
void point_digits(model::Scenario const& scenario, std::size_t p, std::span<double> out) {
    for (std::size_t i = scenario.sweeps.size(); i-- > 0;) {
        auto const& values = scenario.sweeps[i].values;
        out[i] = values[p % values.size()];
        p /= values.size();
    }
}

}  // namespace

double solve_critical(model::Scenario const& scenario, PointEvaluator& evaluator,
                      std::size_t matmul, std::size_t target, std::size_t sweep,
                      std::vector<double> values);

std::optional<Evaluation> evaluate(model::Scenario const& scenario, Diagnostics& diagnostics,
                                   EvaluateOptions const& options) {
    Evaluation result;
    std::size_t sweeps = scenario.sweeps.size();
    std::size_t points = scenario.point_count();
    std::size_t matmuls = scenario.matmuls.size(), targets = scenario.targets.size();
    result.sweep_count = sweeps;
    result.matmul_count = matmuls;
    result.target_count = targets;
    for (auto const& s : scenario.sweeps) result.sweep_sizes.push_back(s.values.size());
    double total = static_cast<double>(points) * static_cast<double>(matmuls) *
                   static_cast<double>(targets);
    if (total > static_cast<double>(options.max_cases)) {
        diagnostics.error(Span{}, "the scenario has " + model::format_number(total) +
                                      " cases; the limit is " + std::to_string(options.max_cases));
        return std::nullopt;
    }

    PointEvaluator evaluator(scenario);
    std::vector<double> sizes;
    std::vector<std::optional<double>> peaks(matmuls * targets);
    for (std::size_t m = 0; m < matmuls; ++m)
        for (std::size_t t = 0; t < targets; ++t)
            peaks[m * targets + t] =
                scenario.hardware[static_cast<std::size_t>(scenario.targets[t])].peak_for(
                    scenario.matmuls[m].compute_dtype);

    result.point_values.resize(points * sweeps);
    result.cases.reserve(points * matmuls * targets);
    for (std::size_t p = 0; p < points; ++p) {
        std::span<double> values(result.point_values.data() + p * sweeps, sweeps);
        point_digits(scenario, p, values);
        auto fail = [&](model::EvalError const& error) {
            diagnostics.error(error.span, error.message + " (at " +
                                              describe_point(scenario, values) + ")");
            return std::nullopt;
        };
        if (auto error = evaluator.set_point(values)) return fail(*error);
        for (std::size_t m = 0; m < matmuls; ++m) {
            auto const& matmul = scenario.matmuls[m];
            if (auto error = evaluator.axis_sizes(matmul, sizes)) return fail(*error);
            Counts counts = count_matmul(matmul, sizes, scenario.dtypes);
            for (std::size_t t = 0; t < targets; ++t) {
                auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
                result.cases.push_back(Case{static_cast<std::uint32_t>(p),
                                            static_cast<std::uint32_t>(m),
                                            static_cast<std::uint32_t>(t),
                                            roofline_metrics(counts, peaks[m * targets + t],
                                                             hw.hbm_bytes_per_s)});
            }
        }
    }

    // Critical values: once per (other sweep values, matmul, target).
    result.critical.resize(sweeps);
    std::vector<double> values(sweeps);
    for (std::size_t v = 0; v < sweeps; ++v) {
        std::size_t stride = 1;
        for (std::size_t j = v + 1; j < sweeps; ++j) stride *= result.sweep_sizes[j];
        std::size_t reduced = points / result.sweep_sizes[v];
        auto& table = result.critical[v];
        table.resize(reduced * matmuls * targets);
        for (std::size_t r = 0; r < reduced; ++r) {
            std::size_t p = r / stride * stride * result.sweep_sizes[v] + r % stride;
            point_digits(scenario, p, values);
            for (std::size_t m = 0; m < matmuls; ++m)
                for (std::size_t t = 0; t < targets; ++t)
                    table[(r * matmuls + m) * targets + t] =
                        solve_critical(scenario, evaluator, m, t, v, values);
        }
    }
    return result;
}

double solve_critical(model::Scenario const& scenario, std::size_t matmul, std::size_t target,
                      std::size_t sweep, std::vector<double> const& values) {
    PointEvaluator evaluator(scenario);
    return solve_critical(scenario, evaluator, matmul, target, sweep, values);
}

}  // namespace roofline::engine
