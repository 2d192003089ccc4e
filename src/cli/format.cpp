#include "roofline/cli/format.hpp"

#include "roofline/report/case_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roofline::cli {

std::string case_table(model::Scenario const& scenario, engine::Evaluation const& evaluation) {
    bool any_layer = false;
    for (auto const& op : scenario.ops) any_layer = any_layer || !op.layer.empty();
    std::vector<report::CaseColumn> columns;
    for (auto& column : report::case_columns(scenario))
        if ((any_layer || !column.spec->term_needs_layers) && column.spec->terminal)
            columns.push_back(std::move(column));

    std::vector<std::vector<std::string>> rows(1);
    std::vector<bool> right;
    for (auto const& column : columns) {
        rows[0].push_back(column.header);
        right.push_back(!column.text);
    }
    for (auto const& c : evaluation.cases) {
        auto& row = rows.emplace_back();
        report::CaseRow const values{scenario, evaluation, c};
        for (auto const& column : columns) {
            auto number = [&] { return report::case_number(column, values); };
            if (column.text) {
                row.emplace_back(report::case_text(column, values));
                continue;
            }
            switch (column.spec->term) {
                case report::TermStyle::text: break;  // text columns are text
                case report::TermStyle::count: row.push_back(format_count(number())); break;
                case report::TermStyle::general: row.push_back(format_general(number())); break;
                case report::TermStyle::seconds: row.push_back(format_seconds(number())); break;
                case report::TermStyle::si:
                    row.push_back(output::format_si(number(), std::string(column.spec->unit)));
                    break;
            }
        }
    }
    return render_table(rows, right);
}

std::string target_heading(model::Hardware const& hw) {
    bool named = !hw.display_name.empty() && hw.display_name != hw.id;
    return output::terminal_safe(named ? hw.display_name + " [" + hw.id + "]" : hw.id) + "\n";
}

namespace {

// A sweep's value at a point: a count, or a dtype's name.
std::string sweep_value_text(model::Scenario const& scenario, engine::CaseGrid const& grid,
                             std::size_t point, std::size_t v) {
    double value = grid.sweep_value(point, v);
    if (auto const* name = scenario.sweep_dtype_name(v, value)) return *name;
    return format_count(value);
}

// "B = 1" or "B = 1, S = 128": the sweep values at a point.
std::string point_label(engine::CaseGrid const& grid, model::Scenario const& scenario,
                        std::size_t point) {
    std::string label;
    for (std::size_t v = 0; v < grid.sweep_count; ++v) {
        if (v) label += ", ";
        label += scenario.sweeps[v].name + " = " + sweep_value_text(scenario, grid, point, v);
    }
    return label;
}

// "TP = 8": a Plan row's mesh sizes, or "the mesh" for a mesh of fixed sizes.
std::string plan_row_place(model::Scenario const& scenario, engine::CaseGrid const& grid,
                           report::Plan const& plan, report::PlanRow const& row) {
    std::string at;
    for (std::size_t v : plan.row_sweeps())
        at.append(at.empty() ? "" : ", ")
            .append(scenario.sweeps[v].name)
            .append(" = ")
            .append(sweep_value_text(scenario, grid, row.mesh_point, v));
    return at.empty() ? "the mesh" : at;
}

// A pipeline's latency column: per token for a stream (decode), per batch
// for a batch of `microbatches` (prefill).
std::string latency_header(model::Scenario const& scenario) {
    return scenario.microbatches_slot < 0 ? "token latency" : "batch latency";
}

// What a pipeline scenario's step table shows, above it.
std::string pipeline_legend(model::Scenario const& scenario) {
    std::string const& axis = scenario.mesh[static_cast<std::size_t>(scenario.pipeline_axis)].name;
    if (scenario.microbatches_slot < 0)
        return "pipeline over '" + axis + "' (P stages, one micro-batch each): step = one stage's; token "
               "latency = P x step, between a sequence's tokens; tokens/s = tokens / step, the pipeline's\n";
    return "pipeline over '" + axis + "' (P stages), a batch in M = microbatches micro-batches: step = one "
           "stage's on one micro-batch; batch latency = (M + P - 1) x step; tokens/s = M x tokens / batch "
           "latency\n";
}

void append_indented(std::string& out, std::string const& table) {
    for (std::size_t at = 0; at < table.size();) {
        std::size_t end = table.find('\n', at);
        out += "  " + table.substr(at, end - at + 1);
        at = end + 1;
    }
}

}  // namespace

std::string op_summary(report::ReportContext const& context, report::Summary const& summary) {
    auto const& grid = context.grid;
    auto const& scenario = context.scenario;
    bool const sweeps = grid.point_count > 1;
    bool const counts = std::any_of(scenario.ops.begin(), scenario.ops.end(),
                                    [](model::Op const& op) { return op.count != 1; });
    std::string out = std::string("each op on its own, ")
                          .append(scenario.mesh.empty() ? "one chip" : "per chip of the mesh")
                          .append(" (no tokens statement: a sum of these ops is no step):\n");
    for (std::size_t t = 0; t < grid.target_count; ++t) {
        out += target_heading(context.target(t));
        std::vector<std::string> header = {"op"};
        if (counts) header.push_back("count");
        if (sweeps) {
            header.push_back("t_lower at " + point_label(grid, scenario, 0));
            header.push_back("bound");
            header.push_back("t_lower at " + point_label(grid, scenario, grid.point_count - 1));
            header.push_back("bound");
        } else {
            header.push_back("t_lower");
            header.push_back("bound");
        }
        for (auto const& sweep : scenario.sweeps)
            if (!sweep.of_dtypes) header.push_back("critical_" + sweep.name);
        std::vector<bool> right(header.size(), true);
        right[0] = false;
        std::vector<std::vector<std::string>> rows = {std::move(header)};
        for (std::size_t o = 0; o < scenario.ops.size(); ++o) {
            auto const& op = scenario.ops[o];
            auto const& facts = summary.op_targets[o * grid.target_count + t];
            std::vector<std::string> row;
            row.push_back(op.layer.empty() ? op.name : op.layer + "/" + op.name);
            if (counts) row.push_back(format_count(op.count));
            row.push_back(output::format_long_seconds(facts.t_lower_first));
            row.emplace_back(engine::bound_name(facts.bound_first));
            if (sweeps) {
                row.push_back(output::format_long_seconds(facts.t_lower_last));
                row.emplace_back(engine::bound_name(facts.bound_last));
            }
            for (std::size_t v = 0; v < grid.sweep_count; ++v) {
                if (scenario.sweeps[v].of_dtypes) continue;
                double critical = v < facts.critical.size() ? facts.critical[v] : engine::not_available;
                bool const supported = facts.bound_first != engine::Bound::unsupported;
                row.push_back(!supported ? "-" : std::isnan(critical) ? "never" : format_count(critical));
            }
            rows.push_back(std::move(row));
        }
        append_indented(out, render_table(rows, right));
    }
    // A kernel is one case: say what it fuses, once, under the tables.
    for (auto const& op : scenario.ops) {
        if (op.kind != model::OpKind::kernel) continue;
        std::string members;
        for (auto const& m : op.members) members.append(members.empty() ? "" : ", ").append(m.name);
        out.append("kernel ")
            .append(op.layer.empty() ? op.name : op.layer + "/" + op.name)
            .append(" = ")
            .append(members)
            .append(" (one case; kernels.csv has each member)\n");
    }
    return out;
}

std::string step_summary(report::ReportContext const& context, report::Summary const& summary) {
    auto const& grid = context.grid;
    auto const& scenario = context.scenario;
    auto const points = report::step_points(scenario, grid);
    bool const mesh = !scenario.mesh.empty();
    bool const onchip = scenario.has_onchip();
    bool const pipeline = scenario.pipeline_axis >= 0;
    // With a mesh every figure is per chip, each chip running its part of
    // the step at once: the step of the mesh is that of one chip.
    // On a mesh the step is serial (each op, then its collectives) and the
    // overlapped bound stands beside it.
    std::string out = mesh ? "step = sum of count x t_step (each op, then its collectives), per chip of "
                             "the mesh (all chips at once); overlapped = sum of count x t_lower "
                             "(every collective hidden under its op):\n"
                           : "step = sum of count x t_lower over the cases, one chip:\n";
    out += "expected = sum of count x t_expected + the step's overheads (the step when uncalibrated); "
           "tokens/s = tokens / expected\n";
    if (pipeline) out += pipeline_legend(scenario);
    for (std::size_t t = 0; t < grid.target_count; ++t) {
        auto const& hw = context.target(t);
        out += target_heading(hw);
        bool const usable =
            std::any_of(scenario.ops.begin(), scenario.ops.end(),
                        [&](model::Op const& m) { return context.supported_on(m, hw); });
        if (!usable) {
            out += "  no step: no matmul's compute dtype has a peak on this chip\n";
            continue;
        }
        bool const chips = grid.has_resident && hw.hbm_capacity_bytes.has_value();
        std::vector<std::string> header;
        for (auto const& sweep : scenario.sweeps) header.push_back(sweep.name);
        if (mesh) header.push_back("chips");
        header.push_back(pipeline ? "step (one stage)" : "step");
        header.push_back("expected");
        if (pipeline) header.push_back(latency_header(scenario));
        if (mesh) header.push_back("overlapped");
        for (char const* h : {"t_upper", "memory"}) header.push_back(h);
        if (onchip) header.push_back("onchip");
        if (mesh) header.push_back("network");
        if (grid.has_tokens) header.push_back("tokens/s");
        if (grid.has_tokens && mesh) header.push_back("per chip");
        if (grid.has_resident) header.push_back(mesh ? "resident/chip" : "resident");
        // On a mesh the sharding decides how many chips hold the model: each
        // chip's share fits in its HBM, or not.
        if (chips) header.push_back(mesh ? "fits" : "min chips");
        std::vector<bool> right(header.size(), true);
        std::vector<std::vector<std::string>> rows = {std::move(header)};
        for (std::size_t p : points) {
            auto const step = report::step_totals(context, summary, p, t);
            std::vector<std::string> row;
            for (std::size_t v = 0; v < grid.sweep_count; ++v)
                row.push_back(sweep_value_text(scenario, grid, p, v));
            if (mesh) row.push_back(format_count(step.chips));
            if (step.unsupported) {
                // No step: an op has no peak here, or the chip cannot build
                // this mesh (both warned at the scenario's line).
                row.push_back("unsupported");
                while (row.size() < rows.front().size()) row.push_back("-");
                rows.push_back(std::move(row));
                continue;
            }
            row.push_back(output::format_long_seconds(step.t_lower));
            row.push_back(output::format_long_seconds(step.t_expected));
            if (pipeline) row.push_back(output::format_long_seconds(step.latency));
            if (mesh) row.push_back(output::format_long_seconds(step.t_overlapped));
            row.push_back(output::format_long_seconds(step.t_upper));
            row.push_back(output::format_share(step.memory_share));
            if (onchip) row.push_back(output::format_share(step.onchip_share));
            if (mesh) row.push_back(output::format_share(step.network_share));
            if (grid.has_tokens) row.push_back(output::format_si_count(step.tokens_per_s, ""));
            if (grid.has_tokens && mesh)
                row.push_back(output::format_si_count(step.tokens_per_s / step.chips, ""));
            if (grid.has_resident) row.push_back(output::format_si(step.resident_bytes, "B"));
            if (chips && mesh) row.push_back(step.resident_bytes <= step.capacity ? "yes" : "no");
            else if (chips) row.push_back(format_count(step.min_chips));
            rows.push_back(std::move(row));
        }
        append_indented(out, render_table(rows, right));
        if (mesh && points.size() < grid.point_count)
            out += "  (" + std::to_string(points.size()) + " of " + std::to_string(grid.point_count) +
                   " sweep points; the Steps sheet has every one, the plan below the best at each mesh size)\n";
    }
    return out;
}

std::string plan_summary(report::ReportContext const& context, report::Summary const& summary) {
    auto const plan = report::make_plan(context, summary);
    if (plan.rows.empty()) return "";
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    bool const onchip = scenario.has_onchip();
    std::string out = plan.dtype_sweeps.empty()
                          ? "plan: at each mesh size, the point with the most tokens/s per chip (expected) that fits"
                          : "plan: for each dtype at each mesh size, the point with the most tokens/s per chip (expected) that fits";
    if (scenario.slo_step_s)
        out.append(" and meets slo ")
            .append(report::slo_measure_name(scenario))
            .append(" <= ")
            .append(output::format_long_seconds(*scenario.slo_step_s));
    out += plan.dtype_sweeps.empty() ? " (* the best):\n" : " (* the best of each dtype):\n";
    for (std::size_t t = 0; t < grid.target_count; ++t) {
        out += target_heading(context.target(t));
        std::vector<std::string> header = {""};
        for (std::size_t v : plan.row_sweeps()) header.push_back(scenario.sweeps[v].name);
        header.push_back("chips");
        for (std::size_t v : plan.other_sweeps) header.push_back(scenario.sweeps[v].name);
        bool const pipeline = scenario.pipeline_axis >= 0;
        header.push_back(pipeline ? "step (one stage)" : "step");
        header.push_back("expected");
        if (pipeline) header.push_back(latency_header(scenario));
        for (char const* h : {"tokens/s", "per chip", "compute", "memory", "network"}) header.push_back(h);
        if (onchip) header.push_back("onchip");
        header.push_back("resident/chip");
        std::vector<bool> right(header.size(), true);
        right[0] = false;
        std::vector<std::vector<std::string>> rows = {std::move(header)};
        std::string notes;
        for (auto const& row : plan.rows) {
            if (row.target != t) continue;
            std::vector<std::string> cells = {row.best ? "*" : ""};
            for (std::size_t v : plan.row_sweeps())
                cells.push_back(sweep_value_text(scenario, grid, row.mesh_point, v));
            cells.push_back(format_count(grid.chips_at(row.mesh_point)));
            if (!row.chosen) {  // the reason under the table
                while (cells.size() < rows.front().size()) cells.push_back("-");
                rows.push_back(std::move(cells));
                notes.append("  ").append(plan_row_place(scenario, grid, plan, row)).append(": ").append(row.why).append("\n");
                continue;
            }
            for (std::size_t v : plan.other_sweeps)
                cells.push_back(sweep_value_text(scenario, grid, row.point, v));
            cells.push_back(output::format_long_seconds(row.step.t_lower));
            cells.push_back(output::format_long_seconds(row.step.t_expected));
            if (pipeline) cells.push_back(output::format_long_seconds(row.step.latency));
            cells.push_back(output::format_si_count(row.step.tokens_per_s, ""));
            cells.push_back(output::format_si_count(row.tokens_per_s_per_chip, ""));
            cells.push_back(output::format_share(row.compute_share));
            cells.push_back(output::format_share(row.step.memory_share));
            cells.push_back(output::format_share(row.step.network_share));
            if (onchip) cells.push_back(output::format_share(row.step.onchip_share));
            cells.push_back(output::format_si(row.step.resident_bytes, "B"));
            rows.push_back(std::move(cells));
            for (auto const& edge : row.edges)
                notes.append(row.best ? "  * " : "  ").append(report::plan_edge_text(context, plan, row, edge)).append("\n");
        }
        append_indented(out, render_table(rows, right));
        out += notes;
    }
    return out;
}

}  // namespace roofline::cli
