#pragma once
// Axis ranges and ticks of a chart. Private to src/report.

#include "chart_model.hpp"

#include <string>
#include <vector>

namespace roofline::report::chart_detail {

// The nearest 1, 2 or 5 times a power of ten below (above) v: tidy ends for
// a log axis without a mostly empty decade.
double nice_floor(double v);
double nice_ceil(double v);

// Ticks on a log axis: every decade, with 2 and 5 (or every digit) between
// them when the axis spans few decades.
Ticks log_ticks(double lo, double hi, std::string (*text)(double));

// About seven ticks at multiples of 1, 2 or 5 times a power of ten.
Ticks linear_ticks(double lo, double hi, std::string (*text)(double));

// A FLOP/s tick: three digits and an SI prefix.
std::string flops_tick(double v);

// The fraction of the axis at which v lies.
double fraction(Axis const& axis, double v);

// Values with a constant ratio (at least three, all positive): drawn on a log
// axis whatever their span.
bool is_geometric(std::vector<double> const& values);

// The x axis of a chart against a sweep variable, as the sweep and step
// charts share it: log when the values are geometric or span more than two
// decades; padded when there are few values (drawn as points); ticks at the
// values themselves on a log axis of at most 12 geometric values.
Axis sweep_axis(std::string label, std::vector<double> const& values);

// The y range that puts `top` at `top_fraction` of the plot height.
double y_high(Axis const& y, double top, double top_fraction);

}  // namespace roofline::report::chart_detail
