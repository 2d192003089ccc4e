#pragma once
// A chart as gnuplot commands. Private to the core library.

#include "output/chart.hpp"

#include <string>

namespace gnuplotio {
class Gnuplot;  // gnuplot-iostream.h
}  // namespace gnuplotio

namespace roofline::output {

// The commands of `chart` without its data and terminal: what draw sends
// before the points (for the tests, which read the layout from it).
std::string chart_script(Chart const& chart);

// Writes the commands and the inline data that draw `chart` into
// <stem>.svg and <stem>.png in gnuplot's working folder.
void draw(gnuplotio::Gnuplot& gp, Chart const& chart);

}  // namespace roofline::output
