#pragma once
// A pass over the cases feeds report.xlsx, the summary and the chart data;
// then, while the workbook is compressed and closed, the other core renders
// the charts (gnuplot) and writes cases.csv from a second pass (evaluating
// again is cheaper than keeping the cases). Writes into `folder` the formats that
// WriteOptions asks for.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/report/progress.hpp"
#include "roofline/report/report.hpp"

#include <string>
#include <vector>

namespace roofline::report {

struct WriteOptions {
    bool charts = true;
    ProgressObserver* progress = nullptr;  // told each phase but publishing, if wanted
    Summary* summary = nullptr;                    // receives the summary of the cases, if wanted
    bool csv = true;   // cases.csv, kernels.csv, requests.csv, serve.csv, fleet.csv
    bool xlsx = true;  // report.xlsx
};

// Returns false when a case could not be evaluated (the error is in
// `diagnostics`); throws std::runtime_error (or a writer's error) on I/O
// failures. Returns the files written, relative to `folder`.
bool write_report(std::string const& folder, ReportContext const& context,
                  WriteOptions const& options, Diagnostics& diagnostics,
                  std::vector<std::string>& written);

}  // namespace roofline::report
