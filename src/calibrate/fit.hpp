#pragma once
// Fitting a calibration's factors to measured rows (docs/calibration.md,
// section 2): non-negative least squares on the relative error of each
// row's mean TTFT and TPOT, every measured series weighted equally (each of
// its rows 1 / its row count), alternating with choosing each op's roof at
// the current factors until the factors stop moving.

#include "pricing.hpp"

#include <vector>

namespace roofline::calibrate {

// A group's rows laid out for pricing once, in one parameter space: every
// fold's fit and every prediction of the group prices the same layouts.
struct PricedRows {
    ParamSpace space;
    std::vector<RowPricing> rows;  // in the order of the models given
};
PricedRows price_rows(std::vector<RowModel const*> const& models);

struct FitRow {
    RowPricing const* pricing = nullptr;
    double ttft_s = 0, tpot_s = 0;  // measured
    std::size_t series = 0;         // an index: rows of one series share it
};

struct FitOptions {
    double ttft_weight = 1;  // of a row's TTFT equation against its TPOT one
    int max_iterations = 40;
    // A relative error past this counts as row_loss says: a row the
    // factors cannot mend (a queue the engine did not have) pulls them no
    // harder than a row at the cap.
    double error_cap = 1;
};

// One equation's loss at relative error r (docs/calibration.md, section 2):
// |r| up to the cap c, then c (1 + ln(|r| / c)), which grows as slowly as a
// log and has the same slope at c. 0 or less as c: |r| throughout.
double row_loss(double r, double c);
// The weight iteratively reweighted least squares gives an equation at r so
// that it minimizes row_loss: loss'(r) / r, 1 / |r| up to the cap (|r| at
// least 1 %) and c / r^2 past it.
double row_loss_weight(double r, double c);

struct FitResult {
    // Over the space the rows were priced in: a parameter none of the rows
    // uses stays at its default (efficiency 1, overhead 0).
    Eigen::VectorXd x;
    int iterations = 0;
    double objective = 0;  // the weighted sum of row_loss over the equations at x
};

FitResult fit_rows(ParamSpace const& space, std::vector<FitRow> const& rows, FitOptions const& options = {});

// A row's mean TTFT and TPOT at x.
std::pair<double, double> predict_fitted(RowPricing const& row, Eigen::VectorXd const& x);

}  // namespace roofline::calibrate
