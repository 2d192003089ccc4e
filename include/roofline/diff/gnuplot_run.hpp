#pragma once
// The diff charts as gnuplot scripts, run by the report's gnuplot helpers
// (src/report/gnuplot_process.hpp: the script in a file in memory, run as
// `gnuplot -d /dev/fd/3` in the output folder). Text from the reports reaches
// a script only through report::chart_detail::literal (src/report/gnuplot_text.hpp).

#include <string>
#include <utility>
#include <vector>

namespace roofline::diff {

// One chart, drawn as <stem>.svg and <stem>.png (1000 x 700): `settings`
// (gnuplot commands), then one `plot` with an inline data block per series.
struct GnuplotChart {
    using Points = std::vector<std::pair<double, double>>;
    std::string stem;  // a file name without extension: no '/', no leading '.'
    std::string settings;
    std::string key = "outside below center horizontal maxrows 8";  // `set key` placement
    std::vector<std::string> styles;  // per series: "with ... title ..."
    std::vector<Points> data;         // per series
    std::vector<std::string> keys;    // key lines without data ("keyentry ...")

    void add(std::string style, Points points);  // a series; none when `points` is empty
    std::string script() const;                  // both files
};

// Runs the charts in `folder` (which must exist), one gnuplot per chart and
// several at once; throws report::ChartError naming the first that failed.
void run_gnuplot(std::vector<GnuplotChart> const& charts, std::string const& folder);

}  // namespace roofline::diff
