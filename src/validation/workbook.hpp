#pragma once
// report.xlsx of a validation report: Summary (the measured file, its
// SHA-256, the calibrations, the overall and per chip x backend figures, the
// skipped rows by reason), then Rows, Groups, Skipped and Memory, each the
// table of its CSV. Values, not formulas; names from the data only as text.
// Private to src/validation.

#include "tables.hpp"

#include "roofline/calibrate/validation.hpp"
#include "roofline/validation/groups.hpp"

#include <string>
#include <vector>

namespace roofline::validation {

struct WorkbookInput {
    calibrate::Validation const& validation;
    std::vector<Group> const& groups;
    std::vector<Table const*> tables;  // a sheet each, in order
    std::string report;                // "validate-x v3"
};

// Throws output::WriteError (a std::runtime_error).
void write_workbook(std::string const& path, WorkbookInput const& input);

}  // namespace roofline::validation
