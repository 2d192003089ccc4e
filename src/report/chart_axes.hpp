#pragma once
// Axis ranges and ticks of a chart (tick positions and labels come from
// output/chart_ticks). Private to src/report.

#include "chart_model.hpp"
#include "output/chart_ticks.hpp"

#include <string>
#include <vector>

namespace roofline::report::chart_detail {

using output::decimal_tick;
using output::linear_ticks;
using output::log_ticks;
using output::nice_ceil;
using output::nice_floor;
using output::power_tick;

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

// Seconds shown in the unit that keeps the largest value readable: below a
// second the largest of ms, µs, ns that it reaches; minutes from 10 minutes,
// hours from 2 hours (a large model's step on one chip).
struct TimeUnit {
    double seconds;
    char const* name;
};
TimeUnit time_unit(double largest);

// A tick on the scaled time axis: the number alone (the unit is in the label),
// never with an SI prefix.
std::string time_tick(double v);

// A linear axis from 0 to a little above `top`, at a tick: 1, 2, 2.5 or 5
// times a power of ten for about six ticks, labelled by `label`.
void zero_based(Axis& axis, double top, std::string (*label)(double));

}  // namespace roofline::report::chart_detail
