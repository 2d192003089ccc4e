#pragma once
// Draws charts with gnuplot, several at once. Private to the core library.

#include "output/chart.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace roofline::output {

// Draws each chart into `folder` (created if missing) as <stem>.svg and
// <stem>.png (1000 x 700): a few charts per gnuplot process, processes on
// all cores but one (which the caller keeps for the workbook). Changes no
// process-wide state (no chdir, no signal handlers), so it may run on a
// thread of its own. Throws ChartError naming the first chart that failed,
// or a file gnuplot did not write. `progress`, if given, is told how many
// charts are drawn each time a gnuplot finishes.
void render_charts(std::vector<Chart> charts, std::string const& folder,
                   std::function<void(std::size_t drawn)> const& progress = {});

}  // namespace roofline::output
