#pragma once
// The failures of the output layer (report.xlsx, diff.xlsx, the charts). The
// message names the file and the step; the commands map both to exit code 3.

#include <stdexcept>

namespace roofline::output {

// A libxlsxwriter call failed, or a workbook's file could not be written;
// what() names the step and lxw_strerror's text.
class WriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// gnuplot is missing, cannot be started, or fails; or the chart folder cannot
// be made.
class ChartError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace roofline::output
