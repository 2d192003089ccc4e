#pragma once
// `roofline diff` of two validation reports (docs/diff.md, "Validation
// reports"): what a change of the tool or of a calibration did to the
// errors. Rows matched by id (rows.csv), groups by level, chip, backend and
// model (groups.csv); written as validation_diff.csv and groups_diff.csv
// with diff.json, published under OUT/diffs/ as any diff. Private to src/diff.

#include "roofline/diff/run.hpp"

#include <optional>

namespace roofline::diff {

// Whether the two reports of `request` are validation reports (their
// manifests' kind): then their diff, else nullopt (the case diff reads
// them). Throws ReportError when only one is, or for options that compare
// cases (--pair, --fail-if-slower), or for a rows.csv or groups.csv that
// does not read; std::runtime_error on I/O errors.
std::optional<DiffOutcome> validation_diff(DiffRequest const& request);

}  // namespace roofline::diff
