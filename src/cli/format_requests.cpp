// What `roofline run` prints for each request (docs/reports.md, "Requests"):
// per target, a row per step point with TTFT, TPOT first / mean / last, e2e,
// tokens/s and the KV cache at the last step against the chip's HBM.
#include "roofline/cli/format.hpp"

#include "roofline/report/request_columns.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::cli {

namespace {

// A request's value in a column, as the terminal writes it.
std::string request_cell(report::RequestColumn const& column, report::RequestRow const& row) {
    auto const& spec = *column.spec;
    if (report::request_is_text(column, row)) return std::string(spec.text(row, column.sweep));
    double const value = spec.number(row, column.sweep);
    switch (spec.term_style) {
        case report::RequestTerm::count: return format_count(value);
        case report::RequestTerm::long_seconds: return output::format_long_seconds(value);
        case report::RequestTerm::si_count: return output::format_si_count(value, "");
        case report::RequestTerm::si_bytes: return output::format_si(value, "B");
        case report::RequestTerm::text: break;
    }
    return std::string(spec.text(row, column.sweep));
}

}  // namespace

std::string request_summary(report::ReportContext const& context) {
    if (!context.has_requests()) return "";
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    auto const points = report::step_points(scenario, grid);
    std::string out;
    auto const columns = report::request_columns(scenario);
    for (std::size_t r = 0; r < scenario.requests.size(); ++r) {
        // The columns that vary by point (prompt, output and batch): in the
        // heading when the same at every point, else a column each.
        std::vector<bool> shown(columns.size());
        std::string fixed;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            auto const& spec = *columns[i].spec;
            shown[i] = !columns[i].term.empty();
            if (!shown[i] || !spec.term_if_varies) continue;
            auto at = [&](std::size_t p) { return spec.number({context, context.request_result(r, p, 0)}, 0); };
            bool varies = false;
            for (std::size_t p = 0; p < grid.point_count; ++p) varies = varies || at(p) != at(0);
            shown[i] = varies;
            if (!varies)
                fixed.append(fixed.empty() ? " (" : ", ").append(columns[i].term).append(" ").append(format_count(at(0)));
        }
        if (!fixed.empty()) fixed += ")";
        // On a mesh the times are the mesh's step (every chip at once) and
        // tokens/s the whole batch's, which the mesh serves; only the bytes
        // are one chip's share.
        out += "request " + scenario.requests[r].name + fixed +
               ": TTFT = the prefill step, TPOT = the decode step at context prompt + i, "
               "e2e = TTFT + every TPOT" +
               (scenario.mesh.empty() ? ", per chip:\n"
                                      : "; tokens/s of the whole mesh, KV and resident per chip:\n");
        for (std::size_t t = 0; t < grid.target_count; ++t) {
            auto const& hw = context.target(t);
            out += "  " + target_heading(hw);
            bool const capacity = hw.hbm_capacity_bytes.has_value();
            auto const visible = [&](std::size_t i) {
                return shown[i] && (capacity || columns[i].spec->needs != report::RequestColumnSpec::Needs::capacity);
            };
            std::vector<std::string> header;
            for (std::size_t i = 0; i < columns.size(); ++i) {
                if (!visible(i)) continue;
                if (columns[i].spec->needs == report::RequestColumnSpec::Needs::capacity)
                    header.push_back(columns[i].term + " " + output::format_si(*hw.hbm_capacity_bytes, "B"));
                else
                    header.push_back(columns[i].term);
            }
            std::vector<bool> right(header.size(), true);
            std::vector<std::vector<std::string>> rows = {std::move(header)};
            for (std::size_t p : points) {
                report::RequestRow const values{context, context.request_result(r, p, t)};
                std::vector<std::string> row;
                for (std::size_t i = 0; i < columns.size(); ++i)
                    if (visible(i)) row.push_back(request_cell(columns[i], values));
                rows.push_back(std::move(row));
            }
            std::string const table = render_table(rows, right);
            for (std::size_t at = 0; at < table.size();) {
                std::size_t end = table.find('\n', at);
                out += "    " + table.substr(at, end - at + 1);
                at = end + 1;
            }
            if (points.size() < grid.point_count)
                out += "    (" + std::to_string(points.size()) + " of " +
                       std::to_string(grid.point_count) +
                       " sweep points; requests.csv and the Requests sheet have every one)\n";
        }
    }
    return out;
}

}  // namespace roofline::cli
