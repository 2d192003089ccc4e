#pragma once
// gnuplot, which draws every chart of `run` and `diff`.

namespace roofline::output {

// True when a gnuplot with the svg and pngcairo terminals is on PATH (for a
// clear error before any work is done).
bool gnuplot_available();

}  // namespace roofline::output
