#pragma once
// Predicting measured serving rows (docs/calibration.md, sections 2 and 3):
// each row of a silicon-sample CSV modelled as `serve` would run it (the
// model imported from its config.json on the row's layout and precision,
// closed(batch_size) arrivals, prompt = isl, output = osl) and its mean TTFT
// and TPOT predicted with a calibration.

#include "roofline/calibrate/validation.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::calibrate {

// A measured file that cannot be read at all (no such file, a missing
// column, a malformed line): what() is the whole message,
// "FILE:LINE:COL: error: ...", the line and a caret where there is a place.
// A row that can be read but not modelled is a SkippedRow instead.
struct MeasuredError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct PredictOptions {
    // Where the rows' `config` files are: "" looks beside the measured file,
    // then in its `configs/` folder.
    std::string configs_dir;
    // .roof files holding `calibration NAME for HW { ... }` blocks; a row
    // uses the one for its chip whose name ends in its backend
    // ("..._trtllm"); empty: the shipped ones (templates/calibration/).
    std::vector<std::string> calibration_files;
    std::vector<std::string> include_dirs;  // -I, as `run` takes them
    bool uncalibrated = false;              // predict with no calibration at all
};

// Throws MeasuredError.
Validation validate_measured(std::string const& measured_path, PredictOptions const& options);

}  // namespace roofline::calibrate
