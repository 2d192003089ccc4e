// What `roofline run` prints for a serve statement (serving.md, section 4):
// per target a Serve table, one row per sweep point (the load, the other
// sweeps, served rate, tokens/s per chip, TTFT / TPOT / e2e percentiles,
// running sequences, KV use, saturated, SLOs), a saturated row's latencies
// after "≥" (lower bounds); then the Fleet table and the launch settings of
// the fewest-chips and the cheapest configurations.
#include "roofline/cli/format.hpp"

#include "roofline/report/serve_columns.hpp"

#include "report/launch_settings.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace roofline::cli {

namespace {

// The most rows of one target's table; serve.csv has every one.
constexpr std::size_t most_rows = 64;

std::string term_text(report::ServeTerm style, double value) {
    switch (style) {
        case report::ServeTerm::count: return format_count(value);
        case report::ServeTerm::seconds: return format_seconds(value);
        case report::ServeTerm::si_count: return output::format_si_count(value, "");
        case report::ServeTerm::si_bytes: return output::format_si(value, "B");
        case report::ServeTerm::general: return format_general(value);
        case report::ServeTerm::text: break;
    }
    return format_general(value);
}

std::string serve_cell(report::ServeColumn const& column, report::ServeRow const& row) {
    auto const& spec = *column.spec;
    if (report::serve_is_text(column, row)) return spec.text(row, column.index);
    std::string text = term_text(spec.term_style, spec.number(row, column.index));
    // A saturated point's latencies are lower bounds.
    if (spec.lower_bound && row.result.saturated && text != "-") text = "\u2265 " + text;
    return text;
}

std::string fleet_cell(report::FleetColumn const& column, report::FleetRowView const& row) {
    if (report::fleet_is_text(column, row)) return column.spec->text(row, column.sweep);
    double const value = column.spec->number(row, column.sweep);
    // No rate within the SLOs: nothing to size.
    if (!row.row.why_none.empty() && column.spec->cell != report::ServeCell::plain &&
        !column.spec->per_sweep && column.csv != "chips_per_replica")
        return "-";
    return term_text(column.spec->term_style, value);
}

void indent_table(std::string& out, std::string const& table, char const* indent) {
    for (std::size_t at = 0; at < table.size();) {
        std::size_t end = table.find('\n', at);
        out.append(indent).append(table.substr(at, end - at + 1));
        at = end + 1;
    }
}

std::string config_name(report::ReportContext const& context, engine::FleetRow const& row) {
    std::string name = context.target(row.target).id;
    std::string const sweeps = report::serve_config_text(context, row.point);
    if (!sweeps.empty()) name.append(", ").append(sweeps);
    return name;
}

std::string fleet_summary(report::ReportContext const& context) {
    if (!context.fleet || context.fleet->empty()) return "";
    auto const& scenario = context.scenario;
    std::string out = "fleet for " + format_general(scenario.fleet_rate ? *scenario.fleet_rate : 0) +
                      " requests/s: per configuration, the highest rate one replica serves within "
                      "every SLO, and the replicas that take:\n";
    std::vector<report::FleetColumn> columns;
    for (auto& column : report::fleet_columns(scenario))
        if (!column.term.empty()) columns.push_back(std::move(column));
    std::vector<std::string> header = {"config"};
    for (auto const& column : columns)
        if (!column.spec->per_sweep) header.push_back(column.term);
    std::vector<bool> right(header.size(), true);
    right[0] = false;
    right.back() = false;  // the marks
    std::vector<std::vector<std::string>> rows = {std::move(header)};
    std::vector<std::string> notes;
    for (auto const& f : *context.fleet) {
        report::FleetRowView const view{context, f};
        std::vector<std::string> row = {config_name(context, f)};
        for (auto const& column : columns)
            if (!column.spec->per_sweep) row.push_back(fleet_cell(column, view));
        rows.push_back(std::move(row));
        if (!f.why_none.empty()) notes.push_back(config_name(context, f) + ": " + f.why_none);
    }
    indent_table(out, render_table(rows, right), "  ");
    for (auto const& note : notes) out += "  (" + note + ")\n";
    // What to type to run the chosen replicas.
    auto lines = [&](std::size_t point, std::size_t target, engine::ServeResult const* result) {
        auto const s = report::launch_settings(context, point, target, result);
        out += "  vLLM:          " + s.vllm + "\n";
        out += "  TensorRT-LLM:  " + s.trtllm + "\n";
        out += "  SGLang:        " + s.sglang + "\n";
    };
    auto launch = [&](engine::FleetRow const& f, char const* mark) {
        std::string const head = std::string("launch settings of the ") + mark + " configuration (" +
                                 config_name(context, f);
        if (f.pools.empty()) {
            out += head + "), one replica; MODEL: your model:\n";
            lines(f.point, f.target, report::serve_result(context, f.point, f.target));
            return;
        }
        // Disaggregated: each pool's replicas with its own mesh. The memory
        // shares are the engines' defaults' rule without the simulated
        // replica's bytes (the group's figures are the decode replica's).
        out += head + ", " + f.pools + "), MODEL: your model; each prefill replica:\n";
        lines(f.prefill_point, f.target, nullptr);
        out += "  each decode replica:\n";
        lines(f.decode_point, f.target, nullptr);
    };
    for (auto const& f : *context.fleet)
        if (f.fewest_chips) launch(f, f.cheapest ? "fewest-chips and cheapest" : "fewest-chips");
    for (auto const& f : *context.fleet)
        if (f.cheapest && !f.fewest_chips) launch(f, "cheapest");
    return out;
}

}  // namespace

std::string serve_summary(report::ReportContext const& context) {
    if (!context.has_serve()) return "";
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    bool const closed = report::serve_closed(scenario);
    std::uint64_t const load = report::serve_load_sweeps(scenario);
    auto const all = report::serve_columns(scenario);
    // The load is the rate (or clients) column; the other sweeps their own.
    std::vector<report::ServeColumn> columns;
    for (auto const& column : all) {
        auto const& spec = *column.spec;
        if (spec.each == report::ServeColumnSpec::Each::sweep) {
            if (column.index < 64 && (load >> column.index & 1)) continue;
            auto named = column;
            named.term = scenario.sweeps[column.index].name;
            columns.push_back(std::move(named));
            continue;
        }
        if (column.term.empty()) continue;
        if (column.csv == (closed ? "rate" : "clients")) continue;
        if (column.csv == "slos_met" && scenario.serve_slos.empty()) continue;
        columns.push_back(column);
    }
    std::string out = "serve " + (scenario.serve ? scenario.serve->name : std::string()) +
                      ": one replica (the mesh) per row; TTFT, TPOT and e2e after warm-up; " +
                      "\u2265: saturated (the queue kept growing), a lower bound";
    if (!scenario.serve_slos.empty()) {
        out += "; SLOs";
        for (std::size_t i = 0; i < scenario.serve_slos.size(); ++i)
            out.append(i ? ", " : " ").append(scenario.serve_slos[i].text);
    }
    out += ":\n";
    for (std::size_t t = 0; t < grid.target_count; ++t) {
        out += "  " + target_heading(context.target(t));
        std::vector<std::string> header;
        for (auto const& column : columns) header.push_back(column.term);
        std::vector<bool> right(header.size(), true);
        std::vector<std::vector<std::string>> rows = {std::move(header)};
        std::vector<std::string> problems;
        std::size_t shown = 0;
        // A configuration's points together, along the load.
        std::vector<std::size_t> order(grid.point_count);
        for (std::size_t p = 0; p < order.size(); ++p) order[p] = p;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return report::serve_config_point(context, a) < report::serve_config_point(context, b);
        });
        for (std::size_t p : order) {
            auto const* result = report::serve_result(context, p, t);
            if (!result) continue;
            if (shown++ >= most_rows) continue;
            report::ServeRow const row{context, *result};
            std::vector<std::string> cells;
            for (auto const& column : columns) cells.push_back(serve_cell(column, row));
            rows.push_back(std::move(cells));
            if (!result->problem.empty()) {
                std::string where = std::string(closed ? "clients " : "rate ")
                                        .append(format_general(report::serve_load(*result)));
                std::string const config = report::serve_config_text(context, p);
                if (!config.empty()) where.append(", ").append(config);
                problems.push_back(where.append(": ").append(result->problem));
            }
        }
        indent_table(out, render_table(rows, right), "    ");
        // Which times these are: the calibration's expected ones, or the roofline's.
        if (auto const* calibration = scenario.calibration_of_target(t))
            out.append("    times are expected with calibration ")
                .append(output::terminal_safe(calibration->name))
                .append(" on ")
                .append(output::terminal_safe(context.target(t).id))
                .append("\n");
        else
            out += "    uncalibrated: serial roofline, a lower bound of what an engine takes\n";
        for (auto const& problem : problems) out += "    (" + problem + ")\n";
        if (shown > most_rows)
            out += "    (" + std::to_string(most_rows) + " of " + std::to_string(shown) +
                   " serve points; serve.csv and the Serve sheet have every one)\n";
    }
    return out + fleet_summary(context);
}

}  // namespace roofline::cli
