// What `roofline run` prints after publishing, and keeps in the version as
// summary.txt for `roofline show` (reports.md, "summary.txt").
#include "roofline/cli/format.hpp"

namespace roofline::cli {

std::string report_tables(report::ReportContext const& context, report::Summary const& summary) {
    // Once per target: which calibration its expected times have, or none.
    std::string out = report::calibration_lines(context.scenario);
    // A scenario of requests (or a serve) alone has no cases to sum.
    if (!context.scenario.ops.empty() || (!context.has_requests() && !context.has_serve())) {
        out += context.grid.has_tokens ? step_summary(context, summary) : op_summary(context, summary);
        out += plan_summary(context, summary);
    }
    out += request_summary(context);
    out += serve_summary(context);
    return out;
}

}  // namespace roofline::cli
