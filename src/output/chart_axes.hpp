#pragma once
// Axis ranges and the plot geometry of a chart, shared by the charts of `run`
// and `diff` (tick positions and labels come from chart_ticks). Private to
// the core library.

#include "output/chart.hpp"
#include "output/chart_ticks.hpp"

#include <string>
#include <vector>

namespace roofline::output {

// Plot geometry used to keep labels apart: a 1000 px wide chart has about
// 880 px of plot, and a character of the 10-point key font is about 7 px.
constexpr double char_width_graph = 7.2 / 880.0;
constexpr double char_height_graph = 14.0 / 520.0;

// A log axis (base 10) from lo to hi, a tick at every decade (and between
// them on a short axis), labelled by `text`.
Axis log_axis(std::string label, double lo, double hi, std::string (*text)(double));

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

}  // namespace roofline::output
