// The Summary sheet's Plan section (multichip.md section 6): report::make_plan's
// rows as values. The choice of a point is a search over the sweep, which a
// spreadsheet formula would not redo after an edit: the section says so.
#include "xlsx_state.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::report {

std::size_t XlsxWriter::State::write_summary_plan(Summary const& sum, std::size_t r) {
    auto const plan = make_plan(ctx, sum);
    if (plan.rows.empty()) return r;
    lxw_worksheet* ws = summary;
    auto const& s = ctx.scenario;
    ++r;
    str(ws, r++, 0, "Plan: at each mesh size, the point with the most tokens/s per chip", fmt.section);
    std::string note =
        "Per chip: every chip runs its share of the step at once; tokens/s over the step expected. A point qualifies when its "
        "step is supported (no case without a peak) and each chip's resident bytes fit in its "
        "hbm_capacity";
    if (s.slo_step_s)
        note.append(" and meets slo ")
            .append(slo_measure_name(s))
            .append(" <= ")
            .append(output::shortest(*s.slo_step_s))
            .append(" s");
    note += plan.dtype_sweeps.empty()
                ? "; * marks the target's best row. Values of this run: they do not follow edits."
                : "; * marks the target's best row of each dtype. Values of this run: they do not follow edits.";
    str(ws, r++, 0, note, fmt.note);
    std::vector<std::string> headers = {"hardware", "best"};
    std::vector<bool> over_numbers = {false, false};  // the rest are numbers but a dtype sweep's
    for (std::size_t v : plan.row_sweeps())
        headers.push_back(s.sweeps[v].name), over_numbers.push_back(!s.sweeps[v].of_dtypes);
    headers.push_back("chips"), over_numbers.push_back(true);
    for (std::size_t v : plan.other_sweeps)
        headers.push_back(s.sweeps[v].name), over_numbers.push_back(!s.sweeps[v].of_dtypes);
    bool const onchip = s.has_onchip();
    bool const pipeline = s.pipeline_axis >= 0;
    headers.push_back(pipeline ? "step (one stage)" : "step");
    headers.push_back("step expected");
    if (pipeline) headers.push_back(s.microbatches_slot < 0 ? "token latency" : "batch latency");
    for (char const* h : {"tokens/s", "tokens/s per chip", "compute-bound share", "memory-bound share",
                          "network share"})
        headers.push_back(h);
    if (onchip) headers.push_back("onchip-bound share");
    headers.push_back("resident per chip");
    over_numbers.resize(headers.size(), true);
    header_cells(ws, r, headers, over_numbers);
    ++r;
    for (auto const& row : plan.rows) {
        std::size_t c = 0;
        str(ws, r, c++, ctx.target(row.target).id, fmt.indent);
        str(ws, r, c++, row.best ? "*" : "");
        for (std::size_t v : plan.row_sweeps()) sweep_cell(ws, r, c++, row.mesh_point, v);
        num(ws, r, c++, ctx.grid.chips_at(row.mesh_point));
        if (!row.chosen) {
            str(ws, r++, c, row.why, fmt.note);
            continue;
        }
        for (std::size_t v : plan.other_sweeps) sweep_cell(ws, r, c++, row.point, v);
        num(ws, r, c++, row.step.t_lower, fmt.time);
        num(ws, r, c++, row.step.t_expected, fmt.time);
        if (pipeline) num(ws, r, c++, row.step.latency, fmt.time);
        num(ws, r, c++, row.step.tokens_per_s, fmt.rate);  // as the Step section writes them
        num(ws, r, c++, row.tokens_per_s_per_chip, fmt.rate);
        num(ws, r, c++, row.compute_share, fmt.fraction);
        num(ws, r, c++, row.step.memory_share, fmt.fraction);
        num(ws, r, c++, row.step.network_share, fmt.fraction);
        if (onchip) num(ws, r, c++, row.step.onchip_share, fmt.fraction);
        num(ws, r, c++, row.step.resident_bytes, fmt.bytes);
        ++r;
    }
    // Under the table, as the terminal says them: picks at a sweep's edge.
    for (auto const& row : plan.rows)
        for (auto const& edge : row.edges)
            str(ws, r++, 0, std::string(ctx.target(row.target).id).append(row.best ? " *: " : ": ")
                                .append(plan_edge_text(ctx, plan, row, edge)), fmt.note);
    return r;
}

}  // namespace roofline::report
