// The serve charts (serving.md, section 4):
//   serve-<NAME>-latency-<HW>: TTFT and TPOT p50 / p99 against the offered
//     load (requests/s, or closed loop's clients), one colour per
//     configuration (the sweeps but the load), log time axis;
//   serve-<NAME>-front: output tokens/s per chip against tokens/s per user
//     (1 / TPOT p50), one line per configuration (target and the sweeps but
//     the load), along the load: the front by which serving setups compare.
// Saturated points (lower bounds) are ringed; points that miss an SLO carry a
// triangle on the front.
#include "chart_model.hpp"

#include "roofline/report/serve_columns.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace roofline::report::chart_detail {

namespace {

constexpr char const* saturated_style = "with points pt 6 ps 2.2 lw 2 lc rgb '#d62728'";
constexpr char const* saturated_title = "saturated: the figure is a lower bound";
// One colour each: past the palette, lines would share colours.
constexpr std::size_t most_lines = output::palette_size;

// The serve points of each configuration, in increasing load; configurations
// in order of their first point (target fastest within a point).
struct Config {
    std::size_t target = 0, point = 0;  // the configuration's first point
    std::vector<engine::ServeResult const*> points;
};

std::vector<Config> configs(ReportContext const& context, bool one_target, std::size_t target) {
    std::vector<Config> out;
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> index;
    for (auto const& r : *context.serve) {
        if (one_target && r.target != target) continue;
        auto const key = std::make_pair(serve_config_point(context, r.point), std::size_t{r.target});
        auto [at, added] = index.try_emplace(key, out.size());
        if (added) out.push_back({r.target, key.first, {}});
        out[at->second].points.push_back(&r);
    }
    for (auto& c : out)
        std::stable_sort(c.points.begin(), c.points.end(), [](auto const* a, auto const* b) {
            return serve_load(*a) < serve_load(*b);
        });
    return out;
}

// The point a configuration's row draws on the front chart, or nullopt.
std::optional<std::pair<double, double>> front_point(engine::ServeResult const& r) {
    double const x = 1 / r.tpot.p50, y = r.output_tokens_per_s_per_chip;
    if (!r.problem.empty() || !std::isfinite(x) || !std::isfinite(y) || !(x > 0) || !(y > 0))
        return std::nullopt;
    return std::make_pair(x, y);
}

// At most `most` configurations for the front chart: those without a point
// left out, then first those with a point on the front of all of them (no
// other point has as many tokens/s per user and per chip, one more), in
// order, then the rest in order: past the palette, the setups to compare
// are the ones on the front, not the first in the sweep.
std::vector<Config> front_first(std::vector<Config> const& all, std::size_t most) {
    std::vector<std::pair<double, double>> points;
    for (auto const& c : all)
        for (auto const* r : c.points)
            if (auto p = front_point(*r)) points.push_back(*p);
    auto on_front = [&](std::pair<double, double> const& p) {
        for (auto const& q : points)
            if (q.first >= p.first && q.second >= p.second && q != p) return false;
        return true;
    };
    std::vector<Config> front, rest;
    for (auto const& c : all) {
        bool any = false, best = false;
        for (auto const* r : c.points)
            if (auto p = front_point(*r)) any = true, best = best || on_front(*p);
        if (any) (best ? front : rest).push_back(c);
    }
    front.insert(front.end(), rest.begin(), rest.end());
    if (front.size() > most) front.resize(most);
    return front;
}

// A log axis over positive values when they span more than 20 times, else
// linear from 0; `lo` and `hi` over the values drawn.
Axis fitted_axis(std::string label, double lo, double hi, std::string (*tick)(double)) {
    if (!(hi > 0)) hi = 1, lo = 1;
    if (lo > 0 && hi / lo > 20) return log_axis(std::move(label), nice_floor(lo / 1.2), nice_ceil(hi * 1.2), tick);
    Axis axis;
    axis.label = std::move(label);
    zero_based(axis, hi, tick);
    return axis;
}

std::string serve_name(ReportContext const& context) {
    return context.scenario.serve ? context.scenario.serve->name : std::string("serve");
}

std::string line_style(std::size_t colour, char const* extra) {
    return std::string("with linespoints ").append(extra).append(" lc rgb '").append(color(colour)).append("'");
}

}  // namespace

Chart serve_latency_chart(ReportContext const& context, std::size_t t) {
    auto const& hw = context.target(t);
    bool const closed = serve_closed(context.scenario);
    Chart chart;
    chart.stem = output::file_name({"serve", serve_name(context), "latency", hw.id});
    chart.title = chart_title(context);
    chart.subtitle = "Serve " + serve_name(context) + ": TTFT and TPOT (p50, p99) against the " +
                     (closed ? "clients" : "arrival rate") + " on " + chip_name(hw);

    auto const all = configs(context, true, t);
    std::vector<Config> shown(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), most_lines)));
    std::vector<double> loads;
    double lo = INFINITY, hi = 0;
    using engine::serving::Latency;
    struct Curve {
        char const* name;
        Latency engine::ServeResult::*figure;
        double Latency::*statistic;
        char const* style;  // TTFT solid, TPOT dashed; p99 thick
    };
    Curve const curves[] = {{"TTFT p99", &engine::ServeResult::ttft, &Latency::p99, "lw 2.5 dt 1 pt 7 ps 0.8"},
                            {"TTFT p50", &engine::ServeResult::ttft, &Latency::p50, "lw 1.2 dt 1 pt 6 ps 0.8"},
                            {"TPOT p99", &engine::ServeResult::tpot, &Latency::p99, "lw 2.5 dt 2 pt 5 ps 0.8"},
                            {"TPOT p50", &engine::ServeResult::tpot, &Latency::p50, "lw 1.2 dt 2 pt 4 ps 0.8"}};
    for (auto const& c : shown)
        for (auto const* r : c.points) {
            if (!r->problem.empty()) continue;
            loads.push_back(serve_load(*r));
            for (auto const& curve : curves) {
                double const v = (r->*curve.figure).*curve.statistic;
                if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
            }
        }
    // Over more than three decades (a saturated queue beside a TPOT) no one
    // unit reads well at both ends: seconds, the ticks powers of ten.
    bool const decades = lo > 0 && hi / lo > 1e3;
    TimeUnit const unit = decades ? TimeUnit{1, "s"} : time_unit(hi > 0 ? hi : 1);
    chart.x = sweep_axis(closed ? "clients (closed loop)" : "offered rate (requests/s)", loads);
    chart.y = fitted_axis(std::string("latency (") + unit.name + ", log)", lo / unit.seconds, hi / unit.seconds,
                          decades ? power_tick : time_tick);
    if (!chart.y.log) chart.y.label = std::string("latency (") + unit.name + ")";

    Points saturated;
    bool problems = false;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        std::string const config = serve_config_text(context, shown[i].point);
        for (std::size_t k = 0; k < std::size(curves); ++k) {
            auto const& curve = curves[k];
            Points points;
            for (auto const* r : shown[i].points) {
                if (!r->problem.empty()) {
                    problems = true;
                    continue;
                }
                double const v = (r->*curve.figure).*curve.statistic;
                if (!std::isfinite(v) || !(v > 0)) continue;
                points.push_back({serve_load(*r), v / unit.seconds});
                if (r->saturated) saturated.push_back(points.back());
            }
            // One configuration: a colour per curve; several: a colour per configuration.
            std::size_t const colour = shown.size() == 1 ? k : i;
            output::add_series(chart, config.empty() ? curve.name : config + ": " + curve.name,
                       line_style(colour, curve.style), std::move(points));
        }
    }
    output::add_series(chart, saturated_title, saturated_style, std::move(saturated));
    if (chart.series.empty()) chart.key_entries.push_back(key_note("no serve point has figures on this chip"));
    if (problems) chart.key_entries.push_back(key_note("points without a figure (see serve.csv's problem) left out"));
    if (shown.size() < all.size())
        chart.key_entries.push_back(key_note(std::to_string(shown.size()) + " of " + std::to_string(all.size()) +
                                             " configurations; serve.csv has every one"));
    return chart;
}

Chart serve_front_chart(ReportContext const& context) {
    Chart chart;
    chart.stem = output::file_name({"serve", serve_name(context), "front"});
    chart.title = chart_title(context);
    chart.subtitle = "Serve " + serve_name(context) +
                     ": output tokens/s per chip against tokens/s per user, along the load, per configuration";
    auto const all = configs(context, false, 0);
    std::vector<Config> const shown = front_first(all, most_lines);
    bool const targets = context.grid.target_count > 1;

    double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
    std::vector<Points> lines;
    Points saturated, misses;
    for (auto const& c : shown) {
        Points line;
        for (auto const* r : c.points) {
            auto const p = front_point(*r);
            if (!p) continue;
            auto const [x, y] = *p;
            line.push_back({x, y});
            x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
            if (r->saturated) saturated.push_back({x, y});
            if (!context.scenario.serve_slos.empty() && !serve_meets_slos(*r)) misses.push_back({x, y});
        }
        lines.push_back(std::move(line));
    }
    // Ticks of one kind per axis: powers of ten once a plain decimal runs long.
    auto tick = [](double hi) { return hi >= 1e5 ? power_tick : decimal_tick; };
    chart.x = fitted_axis("tokens/s per user (1 / TPOT p50)", x_lo, x_hi, tick(x_hi));
    chart.y = fitted_axis("output tokens/s per chip", y_lo, y_hi, tick(y_hi));
    for (std::size_t i = 0; i < shown.size(); ++i) {
        std::string name = serve_config_text(context, shown[i].point);
        if (targets || name.empty())
            name = chip_name(context.target(shown[i].target)) + (name.empty() ? "" : ", " + name);
        output::add_series(chart, name, line_style(i, "lw 2 pt 7 ps 1"), std::move(lines[i]));
    }
    output::add_series(chart, saturated_title, saturated_style, std::move(saturated));
    output::add_series(chart, "misses an SLO", slo_style, std::move(misses));
    if (chart.series.empty()) chart.key_entries.push_back(key_note("no serve point has figures"));
    chart.key_entries.push_back(key_note(std::string("along each line the ") +
                                         (serve_closed(context.scenario) ? "clients" : "arrival rate") +
                                         " grows: more tokens/s per chip, fewer per user"));
    if (shown.size() < all.size())
        chart.key_entries.push_back(key_note(std::to_string(shown.size()) + " of " + std::to_string(all.size()) +
                                             " configurations, those on the front first; serve.csv has every one"));
    return chart;
}

}  // namespace roofline::report::chart_detail
