#pragma once
// `roofline calibrate MEASURED.csv` (docs/calibration.md, section 2): one
// calibration per chip and engine fitted to the rows the tool models, with
// its in-sample and cross-validated error figures.

#include "roofline/calibrate/error_stats.hpp"
#include "roofline/calibrate/validation.hpp"
#include "roofline/model/calibration.hpp"

#include <functional>
#include <string>
#include <vector>

namespace roofline::calibrate {

struct CalibrateOptions {
    std::string configs_dir;
    std::vector<std::string> include_dirs;
    std::vector<std::string> hardware;  // --hardware: only these chips (catalog ids or the sample's names)
    std::vector<std::string> backends;  // --backend: only these engines
    std::size_t folds = 5;              // cross-validation folds, by whole series
    // --pool-chips --for HW: one calibration per engine fitted on the rows of
    // every chosen chip together and written for HW (the generation test:
    // fitted on Hopper, used on Blackwell); empty: one per chip and engine.
    std::string pool_for;
    // Each row's TTFT equation against its TPOT one: 0.5, the ratio of the
    // two bars (10 % on TPOT, 20 % on TTFT), each error in units of its own.
    double ttft_weight = 0.5;
    // The relative error past which an equation's loss grows as a log, not
    // linearly (docs/calibration.md, section 2: a row predicted 20 times
    // over pulls the factors no harder than one at 100 %); 0: plain |r|.
    double error_cap = 1;
    std::string date;                   // written into `source` (YYYY-MM-DD)
    std::function<void(std::string const& phase, std::size_t done, std::size_t total)> progress;
};

struct GroupFit {
    std::string hardware, backend;  // the catalog entry, the engine
    model::Calibration calibration; // named <hardware>_<backend>
    std::size_t rows = 0, series = 0;
    ErrorStats fit_ttft, fit_tpot;  // in sample
    ErrorStats cv_ttft, cv_tpot;    // cross-validated (folds by series)
    int iterations = 0;
};

struct CalibrateResult {
    std::string measured_path, measured_sha256;
    std::size_t measured_rows = 0;
    std::vector<GroupFit> groups;
    Validation cross_validated;  // every modelled row of the fitted groups, predicted by the fold without its series
    std::vector<SkippedRow> skipped;
};

// Throws MeasuredError.
CalibrateResult calibrate_measured(std::string const& measured_path, CalibrateOptions const& options);

// The `calibration NAME for HW { ... }` block of a fit, its source line
// naming the data, its rows and its figures.
std::string calibration_text(GroupFit const& fit, CalibrateResult const& result, std::string const& date);

}  // namespace roofline::calibrate
