#pragma once
// A measured series (docs/calibration.md): the rows of one model on one
// chip, engine and version, precision, layout and lengths, which differ
// only in their batch. The unit of the fit's weights and of its folds, and
// of the modelling: one scenario per series, swept over its batches.

#include "measured_csv.hpp"

#include "roofline/model/load.hpp"

#include <memory>
#include <string>
#include <vector>

namespace roofline::calibrate {

struct Series {
    std::string key;                 // the fields that make it one series, joined
    std::vector<std::size_t> rows;   // indices into MeasuredFile::rows, in file order
};

// Aggregated rows grouped into series, in the order of their first rows;
// disaggregated rows are not in any (they are skipped with a reason).
std::vector<Series> group_series(std::vector<MeasuredRow> const& rows);

// The series' scenario: its model imported from its config on the row's
// layout and precision with a serve statement of closed(C) clients, prompt
// isl, output osl, swept over C = the batches of its rows. Throws
// ImportError (the row cannot be modelled: its message is the reason).
struct SeriesScenario {
    std::string text;
    std::string target;  // the chip, as the scenario names it
};
SeriesScenario series_scenario(MeasuredRow const& first, std::vector<std::uint32_t> const& batches,
                               std::string const& config_text, std::string const& config_name);

// Where a row's config.json is: `configs_dir`/config when given, else
// beside the measured file, else in its configs/ folder; "" when none is.
std::string find_config(std::string const& config, std::string const& configs_dir,
                        std::string const& measured_path);

}  // namespace roofline::calibrate
