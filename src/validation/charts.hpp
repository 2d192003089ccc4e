#pragma once
// The charts of a validation report: per chip, TTFT and TPOT predicted
// against measured (ms, log-log), a colour per backend, the line y = x and
// the bands of ±10 % and ±25 % around it, the key below the plot. Private
// to src/validation.

#include "roofline/calibrate/validation.hpp"

#include "output/chart.hpp"

#include <string>
#include <vector>

namespace roofline::validation {

// ttft-<chip> and tpot-<chip> for each chip with a modelled row, chips sorted.
std::vector<output::Chart> validation_charts(calibrate::Validation const& validation);

// Draws `charts` into `folder` (PNG and SVG each); returns the files
// written, relative to the version ("charts/tpot-h100_sxm.png", ...),
// sorted. Throws output::ChartError.
std::vector<std::string> render(std::vector<output::Chart> charts, std::string const& folder);

}  // namespace roofline::validation
