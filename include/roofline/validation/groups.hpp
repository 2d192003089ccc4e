#pragma once
// The error figures of a validation (docs/reports.md, "Validation reports"),
// per group of rows: overall, per chip x backend, and per chip x backend x
// model. The figures are calibrate::error_stats of the rows' predicted and
// measured TTFT and TPOT (fractions: 0.1 is 10 %).

#include "roofline/calibrate/error_stats.hpp"
#include "roofline/calibrate/validation.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace roofline::validation {

enum class Level { overall, chip_backend, chip_backend_model };
char const* level_name(Level level);  // "overall", "chip_backend", "chip_backend_model"

struct Group {
    Level level = Level::overall;
    std::string system, backend, model;  // empty where the level does not split by it
    std::size_t rows = 0;                // the modelled rows of the group
    calibrate::ErrorStats ttft, tpot;    // over the rows with a figure (their `count`)
};

// Overall first, then every chip x backend (sorted by chip, backend), then
// every chip x backend x model (sorted by chip, backend, model).
std::vector<Group> error_groups(calibrate::Validation const& validation);

// The signed errors (predicted - measured) / measured of a row; NaN where
// the measured value is not positive or the prediction is not finite.
double signed_error(double predicted, double measured);

// The skipped rows by reason: reason -> count, ordered by reason.
std::map<std::string, std::size_t> skipped_by_reason(calibrate::Validation const& validation);

// The calibrations that predicted the rows: name -> rows, ordered by name
// ("" for none). A cross-validation's fold fits count under their group's
// calibration, "b200_vllm (5 folds)" for "b200_vllm (fold 1)" .. "(fold 5)".
std::map<std::string, std::size_t> calibrations_used(calibrate::Validation const& validation);

// The rows predicted not to fit in memory (fits_memory false), in order.
std::vector<calibrate::RowPrediction const*> memory_disagreements(calibrate::Validation const& validation);

}  // namespace roofline::validation
