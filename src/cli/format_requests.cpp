// What `roofline run` prints for each request (docs/reports.md, "Requests"):
// per target, a row per step point with TTFT, TPOT first / mean / last, e2e,
// tokens/s and the KV cache at the last step against the chip's HBM.
#include "roofline/cli/format.hpp"

#include "roofline/report/requests_csv.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::cli {

namespace {

// A sweep's value at a point: a count, or a dtype's name.
std::string value_at(report::ReportContext const& context, std::size_t point, std::size_t v) {
    double value = context.grid.sweep_value(point, v);
    if (auto const* name = context.scenario.sweep_dtype_name(v, value)) return *name;
    return format_count(value);
}

}  // namespace

std::string request_summary(report::ReportContext const& context) {
    if (!context.has_requests()) return "";
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    auto const points = report::step_points(scenario, grid);
    std::string out;
    for (std::size_t r = 0; r < scenario.requests.size(); ++r) {
        // prompt, output and batch: in the heading when the same at every
        // point, else a column each.
        static constexpr char const* names[] = {"prompt", "output", "batch"};
        auto argument = [&](engine::RequestResult const& result, std::size_t k) {
            return k == 0 ? result.prompt : k == 1 ? result.output : result.batch;
        };
        bool varies[3] = {false, false, false};
        std::string fixed;
        for (std::size_t k = 0; k < 3; ++k) {
            double first = argument(context.request_result(r, 0, 0), k);
            for (std::size_t p = 0; p < grid.point_count; ++p)
                varies[k] = varies[k] || argument(context.request_result(r, p, 0), k) != first;
            if (!varies[k])
                fixed.append(fixed.empty() ? " (" : ", ").append(names[k]).append(" ").append(format_count(first));
        }
        if (!fixed.empty()) fixed += ")";
        out += "request " + scenario.requests[r].name + fixed +
               ": TTFT = the prefill step, TPOT = the decode step at context prompt + i, "
               "e2e = TTFT + every TPOT, per chip:\n";
        for (std::size_t t = 0; t < grid.target_count; ++t) {
            auto const& hw = context.target(t);
            out += "  " + target_heading(hw);
            bool const capacity = hw.hbm_capacity_bytes.has_value();
            std::vector<std::string> header;
            for (auto const& sweep : scenario.sweeps) header.push_back(sweep.name);
            for (std::size_t k = 0; k < 3; ++k)
                if (varies[k]) header.push_back(names[k]);
            for (char const* h : {"TTFT", "TPOT first", "mean", "last", "e2e", "tokens/s",
                                  "KV at end", "resident"})
                header.push_back(h);
            if (capacity) header.push_back("fits " + output::format_si(*hw.hbm_capacity_bytes, "B"));
            std::vector<bool> right(header.size(), true);
            std::vector<std::vector<std::string>> rows = {std::move(header)};
            for (std::size_t p : points) {
                auto const& result = context.request_result(r, p, t);
                std::vector<std::string> row;
                for (std::size_t v = 0; v < grid.sweep_count; ++v) row.push_back(value_at(context, p, v));
                for (std::size_t k = 0; k < 3; ++k)
                    if (varies[k]) row.push_back(format_count(argument(result, k)));
                for (double seconds : {result.ttft, result.tpot_first, result.tpot_mean,
                                       result.tpot_last, result.e2e})
                    row.push_back(output::format_long_seconds(seconds));
                row.push_back(output::format_si_count(result.tokens_per_s, ""));
                row.push_back(output::format_si(result.cache_bytes, "B"));
                row.push_back(output::format_si(result.weight_bytes + result.cache_bytes, "B"));
                if (capacity) row.emplace_back(report::request_fits(context, result));
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
