#pragma once
// Axis ends, tick positions and tick labels shared by the charts of `run`
// and `diff`. Labels are plain decimals or powers of ten, never SI prefixes:
// "100 m" on an axis reads as a hundred million as easily as a tenth.
// Private to the core library.

#include "output/chart.hpp"

#include <string>

namespace roofline::output {

// The nearest 1, 2 or 5 times a power of ten below (above) v: tidy ends for
// a log axis without a mostly empty decade. v > 0.
double nice_floor(double v);
double nice_ceil(double v);

// The power of ten at or below (above) v: the ends of a log axis at whole
// decades, as the diff's roofline and the workbook's charts have them. v > 0.
double floor_decade(double v);
double ceil_decade(double v);

// Ticks on a log axis: every decade, with 2 and 5 (or every digit) between
// them when the axis spans few decades.
Ticks log_ticks(double lo, double hi, std::string (*text)(double));

// About seven ticks at multiples of 1, 2 or 5 times a power of ten.
Ticks linear_ticks(double lo, double hi, std::string (*text)(double));

// "10¹⁴", "2×10¹⁴", "2.5×10⁻³", "0": a power of ten, with its factor when
// that is not 1 (three significant digits at most).
std::string power_tick(double v);

// "0.01", "0.5", "20", "10000": the value as a plain decimal while it has at
// most six digits either side of the point, else power_tick.
std::string decimal_tick(double v);

}  // namespace roofline::output
