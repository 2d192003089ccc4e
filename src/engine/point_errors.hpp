#pragma once
// How an error at a sweep point is written (point_errors.cpp).

#include "roofline/lang/source.hpp"
#include "roofline/model/scenario.hpp"

#include <optional>
#include <span>
#include <string>

namespace roofline::engine {

// "B = 3, S = 128": the sweep values of a point, for error messages.
std::string describe_point(model::Scenario const& scenario, std::span<double const> values);
// " (at B = 3, S = 128)", the end of an error at a point; "" without sweeps.
std::string at_point(model::Scenario const& scenario, std::span<double const> values);

// An error at `span` when `count` (FLOPs or bytes, to be published) is above
// model::count_limit, where counts stop being exact: BEFORE COUNT AFTER, then
// "; counts above 2^64 (about 1.8e19) are not exact".
std::optional<model::EvalError> check_count(Span span, std::string const& before, double count,
                                            std::string const& after);

}  // namespace roofline::engine
