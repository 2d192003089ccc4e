// request-<NAME>-<HW>: the time per output token of one request on one chip
// (the decode step at context prompt + i, i = 1 .. output) against the
// context length, one line per sweep point (at most eight, picked as the
// Summary's step points are), each line's key saying its TTFT, which the
// chart cannot show on this axis, and whether the request fits in HBM.
#include "chart_model.hpp"
#include "output/chart_sample.hpp"

#include "roofline/output/terminal_text.hpp"
#include "requests_csv.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace roofline::report::chart_detail {

namespace {

// At most this many points per line, evenly spread over i (the first and
// last kept): a line of 10^5 tokens is a curve, not 10^5 points.
constexpr std::size_t max_line_points = 500;

// "B = 8, S = 128", or "" without sweeps.
std::string point_name(ReportContext const& context, std::size_t point) {
    std::string name;
    for (std::size_t v = 0; v < context.grid.sweep_count; ++v) {
        double value = context.grid.sweep_value(point, v);
        auto const* dtype = context.scenario.sweep_dtype_name(v, value);
        name.append(name.empty() ? "" : ", ")
            .append(context.scenario.sweeps[v].name)
            .append(" = ")
            .append(dtype ? *dtype : value_text(value));
    }
    return name;
}

}  // namespace

Chart request_chart(ReportContext const& context, std::size_t r, std::size_t t) {
    auto const& request = context.scenario.requests[r];
    auto const& hw = context.target(t);
    auto const points = step_points(context.grid.point_count, 6);

    Chart chart;
    chart.stem = output::file_name({"request", request.name, hw.id});
    chart.title = chart_title(context);
    chart.subtitle = "Request " + request.name +
                     ": time per output token (the decode step) against the context on " +
                     chip_name(hw);
    chart.x.label = "context length (prompt + i, tokens)";

    double largest = 0, x_lo = INFINITY, x_hi = 0;
    for (std::size_t p : points) {
        auto const& result = context.request_result(r, p, t);
        for (double step : result.per_token)
            if (std::isfinite(step)) largest = std::max(largest, step);
        x_lo = std::min(x_lo, result.prompt + 1);
        x_hi = std::max(x_hi, result.prompt + result.output);
    }
    TimeUnit const unit = time_unit(largest > 0 ? largest : 1);
    chart.y.label = std::string("time per output token (") + unit.name + ")";

    std::size_t drawn = 0;
    for (std::size_t p : points) {
        auto const& result = context.request_result(r, p, t);
        std::string name = point_name(context, p);
        if (!std::isfinite(result.ttft) || !std::isfinite(result.tpot_mean)) {
            chart.key_entries.push_back(key_note(
                (name.empty() ? std::string() : name + ": ") +
                "no time, an op of the request has no peak on this chip"));
            continue;
        }
        Series line;
        line.title = (name.empty() ? std::string() : name + ": ") + "TTFT " +
                     output::format_seconds(result.ttft) + ", e2e " +
                     output::format_seconds(result.e2e);
        // The line is drawn all the same: the time does not depend on it.
        if (request_fits(context, result) == "no") line.title += " (does not fit in HBM)";
        line.style = std::string("with lines lw 2 dt ")
                         .append(std::to_string(dash_type(drawn)))
                         .append(" lc rgb '")
                         .append(color(drawn))
                         .append("'");
        std::size_t const n = result.per_token.size();
        for (std::size_t i : output::even_sample(n, max_line_points))
            line.points.push_back(
                {result.prompt + static_cast<double>(i + 1), result.per_token[i] / unit.seconds});
        // One token is a point, not a line.
        if (n == 1) line.style = "with points pt 7 ps 1 lc rgb '" + color(drawn) + "'";
        chart.series.push_back(std::move(line));
        ++drawn;
    }
    if (points.size() < context.grid.point_count)
        chart.key_entries.push_back(key_note(std::to_string(points.size()) + " of " +
                                             std::to_string(context.grid.point_count) +
                                             " sweep points; requests.csv has every one"));

    if (!(x_hi > x_lo)) x_lo -= 1, x_hi += 1;  // one token: room around it
    chart.x.lo = x_lo;
    chart.x.hi = x_hi;
    chart.x.ticks = linear_ticks(x_lo, x_hi, decimal_tick);
    zero_based(chart.y, largest / unit.seconds, time_tick);
    return chart;
}

}  // namespace roofline::report::chart_detail
