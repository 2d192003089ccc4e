#pragma once
// A chart as gnuplot commands. Private to the core library.

#include "output/chart.hpp"

namespace gnuplotio {
class Gnuplot;  // gnuplot-iostream.h
}  // namespace gnuplotio

namespace roofline::output {

// Writes the commands and the inline data that draw `chart` into
// <stem>.svg and <stem>.png in gnuplot's working folder.
void draw(gnuplotio::Gnuplot& gp, Chart const& chart);

}  // namespace roofline::output
