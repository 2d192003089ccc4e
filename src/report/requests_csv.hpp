#pragma once
// requests.csv (reports.md, "Requests"): one row per request x sweep point x
// target, in the CSV of cases.csv (output/csv_rows.hpp): request, hardware,
// the sweep values, prompt, output, batch, ttft, tpot_first, tpot_mean,
// tpot_last, decode_total, e2e, tokens_per_s, weight_bytes, cache_bytes,
// resident_bytes, hbm_capacity, fits. Seconds, bytes, tokens per second; an
// empty field where there is no value (no peak, no hbm_capacity).

#include "roofline/report/report.hpp"

#include <string>
#include <string_view>

namespace roofline::report {

// "yes" when the resident bytes fit in the target's hbm_capacity, "no" when
// not, "" without a capacity.
std::string_view request_fits(ReportContext const& context, engine::RequestResult const& result);

// Writes every row of context.requests to `path`; throws std::runtime_error
// when the file cannot be written.
void write_requests_csv(std::string const& path, ReportContext const& context);

}  // namespace roofline::report
