#pragma once
// What the commands print: the case table of `eval` and the step summary
// of `run`, in the terminal text of output/terminal_text.hpp.

#include "roofline/engine/evaluate.hpp"
#include "roofline/output/terminal_text.hpp"
#include "roofline/model/scenario.hpp"
#include "roofline/report/report.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

using output::format_bytes;
using output::format_count;
using output::format_general;
using output::format_seconds;
using output::render_table;

// A target's heading line: "NAME [ID]\n", or "ID\n" for a chip without a
// name of its own; through terminal_safe.
std::string target_heading(model::Hardware const& hw);

// Every case of an evaluation, one row each, with every column of reports.md.
std::string case_table(model::Scenario const& scenario, engine::Evaluation const& evaluation);

// What `roofline run` prints after "published": per target, a small table of
// the step at the sweep points report::step_points picks: the sweep values,
// step (the sum of count x t_lower), t_upper, the memory-bound share, and,
// when the scenario has them, tokens/s, the resident GB and the minimum chips
// (when the target has an hbm_capacity).
std::string step_summary(report::ReportContext const& context, report::Summary const& summary);

// The Plan table of a scenario with a mesh and a tokens statement
// (report::make_plan): per target, one row per value of the mesh's sweeps,
// the best marked with '*'; "" for any other scenario.
std::string plan_summary(report::ReportContext const& context, report::Summary const& summary);

// What `roofline run` prints for each request of the scenario: per target,
// at the step points, TTFT, TPOT first / mean / last, e2e, tokens/s, the KV
// cache and resident bytes at the last step, and whether they fit in the
// chip's HBM (when it has an hbm_capacity); "" without requests.
std::string request_summary(report::ReportContext const& context);

// What `roofline run` prints for a serve statement (serving.md): per target
// a Serve table, a row per serve point, a saturated point's latencies after
// "≥" (lower bounds); then, with `fleet rate`, the Fleet table and the
// launch settings of the fewest-chips and the cheapest configurations; ""
// without a serve.
std::string serve_summary(report::ReportContext const& context);

// What `roofline run` prints instead when the scenario has no tokens
// statement: its ops are then unrelated problems (the exercises), and their
// sum is no step. Per target, one row per op: t_lower and bound at the first
// and the last sweep point, and critical_V per sweep at the first point
// ("never" when it never turns compute-bound, "-" when unsupported).
std::string op_summary(report::ReportContext const& context, report::Summary const& summary);

// Everything `roofline run` prints after "published": the step summary (or
// op_summary without tokens), the Plan, the request and the serve tables. The version
// keeps it as summary.txt; `roofline show` prints it again.
std::string report_tables(report::ReportContext const& context, report::Summary const& summary);

}  // namespace roofline::cli
