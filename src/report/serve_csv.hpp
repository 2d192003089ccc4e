#pragma once
// serve.csv and fleet.csv (serving.md, section 4), in the CSV of cases.csv
// (output/csv_rows.hpp), their columns those of serve_columns.hpp: one row
// per serve point (sweep point x target, the target fastest), and one per
// fleet configuration. Seconds, requests/s, tokens/s, bytes; an empty field
// where there is no value. A saturated point's latencies are lower bounds
// (its `saturated` column says yes).

#include "roofline/report/report.hpp"

#include <string>

namespace roofline::report {

// Throw std::runtime_error when the file cannot be written.
void write_serve_csv(std::string const& path, ReportContext const& context);
void write_fleet_csv(std::string const& path, ReportContext const& context);

}  // namespace roofline::report
