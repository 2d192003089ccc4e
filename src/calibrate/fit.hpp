#pragma once
// Fitting a calibration's factors to measured rows (docs/calibration.md,
// section 2): non-negative least squares on the relative error of each
// row's mean TTFT and TPOT, every measured series weighted equally (each of
// its rows 1 / its row count), alternating with choosing each op's roof at
// the current factors until the factors stop moving.

#include "parameters.hpp"

#include <vector>

namespace roofline::calibrate {

struct FitRow {
    RowModel const* model = nullptr;
    double ttft_s = 0, tpot_s = 0;  // measured
    std::size_t series = 0;         // an index: rows of one series share it
};

struct FitOptions {
    double ttft_weight = 1;  // of a row's TTFT equation against its TPOT one
    int max_iterations = 40;
};

struct FitResult {
    ParamSpace space;
    Eigen::VectorXd x;
    int iterations = 0;
    double objective = 0;  // the weighted sum of squared relative errors at x
};

FitResult fit_rows(std::vector<FitRow> const& rows, FitOptions const& options = {});

// A row's mean TTFT and TPOT at the fitted x.
std::pair<double, double> predict_fitted(RowModel const& row, FitResult const& fit);

}  // namespace roofline::calibrate
