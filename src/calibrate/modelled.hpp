#pragma once
// Every row of a measured file modelled, or the reason it is not
// (docs/calibration.md): the rows grouped into series, one scenario loaded
// per series, each row simulated at its batch. What `calibrate` fits on and
// `validate` predicts from.

#include "measured_csv.hpp"
#include "row_features.hpp"
#include "series.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace roofline::calibrate {

struct ModelledRows {
    MeasuredFile file;
    std::vector<Series> series;
    std::vector<RowModel> models;        // per row; problem nonempty: not modelled
    std::vector<std::string> hardware;   // per row: the catalog entry its chip is ("" when unknown)
    std::vector<std::size_t> series_of;  // per row: its series (SIZE_MAX: none)
};

using ModelProgress = std::function<void(std::size_t done, std::size_t total)>;

// Throws MeasuredError for a file that cannot be read. `selected`, when
// given, says which rows to model (the others are left with the problem
// "not selected").
using RowFilter = std::function<bool(MeasuredRow const&)>;
ModelledRows model_measured(std::string const& path, std::string const& configs_dir,
                            std::vector<std::string> const& include_dirs, ModelProgress const& progress = {},
                            RowFilter const& selected = {});

// The FNV-1a hash of a series key modulo `folds`: a row's cross-validation
// fold, the same on every machine.
std::size_t fold_of(std::string const& series_key, std::size_t folds);

}  // namespace roofline::calibrate
