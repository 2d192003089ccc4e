#include "point_errors.hpp"

#include "roofline/model/limits.hpp"

namespace roofline::engine {

std::string describe_point(model::Scenario const& scenario, std::span<double const> values) {
    std::string text;
    for (std::size_t i = 0; i < scenario.sweeps.size(); ++i)
        text += (i ? ", " : "") + scenario.sweeps[i].name + " = " +
                (scenario.sweeps[i].of_dtypes
                     ? scenario.dtypes[static_cast<std::size_t>(values[i])].name
                     : model::format_number(values[i]));
    return text;
}

std::string at_point(model::Scenario const& scenario, std::span<double const> values) {
    return scenario.sweeps.empty() ? "" : " (at " + describe_point(scenario, values) + ")";
}

std::optional<model::EvalError> check_count(Span span, std::string const& before, double count,
                                            std::string const& after) {
    if (count <= model::count_limit) return std::nullopt;  // NaN is not
    return model::EvalError{span, before + model::format_number(count) + after + "; counts above " +
                                      model::count_limit_text + " are not exact"};
}

}  // namespace roofline::engine
