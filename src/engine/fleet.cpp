// plan_fleet (docs/serving.md, section 4, Fleet): per configuration (a sweep
// point with its arrival sweep at its first value, on a target) the highest
// Poisson rate one replica serves within every SLO and unsaturated, found by
// bisection with a full simulation at each probe; then the replicas, chips,
// cost and power of the fleet that serves `fleet rate = L`.
#include "serve_point.hpp"
#include "serve_pools.hpp"

#include "roofline/engine/serve.hpp"
#include "roofline/model/hardware_fields.hpp"

#include <cmath>
#include <limits>

namespace roofline::engine {

namespace {

using namespace serving;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double tolerance = 0.01;  // the bisection stops within 1 % of the rate
constexpr int max_halvings = 40, max_doublings = 20;

// Whether point p has every sweep the arrivals depend on at its first value.
bool is_configuration(model::Scenario const& scenario, CaseGrid const& grid, std::size_t p) {
    auto const& serve = *scenario.serve;
    if (serve.arrivals_slot < 0) return true;
    std::uint64_t const depends = scenario.slots[static_cast<std::size_t>(serve.arrivals_slot)].depends_on;
    std::size_t stride = 1;
    for (std::size_t i = grid.sweep_count; i-- > 0;) {
        std::size_t const digit = p / stride % grid.sweep_sizes[i];
        if ((depends >> i & 1) && digit != 0) return false;
        stride *= grid.sweep_sizes[i];
    }
    return true;
}

char const* figure_name(model::ServeSlo const& slo) {
    switch (slo.figure) {
    case model::ServeSlo::Figure::ttft: return "TTFT";
    case model::ServeSlo::Figure::tpot: return "TPOT";
    case model::ServeSlo::Figure::e2e: return "e2e";
    }
    return "";
}

char const* statistic_name(model::ServeSlo const& slo) {
    switch (slo.statistic) {
    case model::ServeSlo::Statistic::p50: return "p50";
    case model::ServeSlo::Statistic::p90: return "p90";
    case model::ServeSlo::Statistic::p99: return "p99";
    case model::ServeSlo::Statistic::mean: return "mean";
    }
    return "";
}

// Why the lowest rate probed fails: its first SLO missed, or its saturation.
std::string why_failed(model::Scenario const& scenario, ServeResult const& r, double rate) {
    std::string const at = "at the lowest rate tried (" + model::format_number(rate) + " /s)";
    if (r.saturated) return "the replica is saturated even " + at;
    for (std::size_t i = 0; i < scenario.serve_slos.size(); ++i) {
        if (r.slo_met[i]) continue;
        auto const& slo = scenario.serve_slos[i];
        return std::string(figure_name(slo)) + " " + statistic_name(slo) + " " + at + " is " +
               seconds_text(slo_value(r, slo)) + " > " + seconds_text(slo.limit_s);
    }
    return "no rate meets the SLOs";
}

double hardware_number(model::Hardware const& hw, char const* name) {
    auto const* field = model::find_hardware_field(name);
    if (!field) return nan;
    auto const value = model::field_number(hw, *field);
    return value ? *value : nan;
}

}  // namespace

std::optional<std::vector<FleetRow>> plan_fleet(model::Scenario const& scenario, CaseGrid const& grid,
                                                Diagnostics& diagnostics, ServeProgress const& progress) {
    std::vector<FleetRow> rows;
    if (!scenario.serve || !scenario.fleet_rate) return rows;
    double const fleet_rate = *scenario.fleet_rate;
    std::size_t const targets = scenario.targets.size();
    std::vector<std::size_t> configurations;
    for (std::size_t p = 0; p < grid.point_count; ++p)
        if (is_configuration(scenario, grid, p)) configurations.push_back(p);
    std::size_t const total = configurations.size() * targets;
    PointEvaluator evaluator(scenario);
    std::vector<double> mesh_sizes;
    std::vector<std::uint8_t> unsupported(targets, 0);
    for (std::size_t p : configurations) {
        if (scenario.serve->prefill_pool) {  // disaggregated: fleet_pools.cpp
            if (!plan_pools_configuration(scenario, grid, p, fleet_rate, diagnostics, rows)) return std::nullopt;
            if (progress) progress(rows.size(), total);
            continue;
        }
        std::span<double const> const point(grid.point_values.data() + p * grid.sweep_count,
                                            grid.sweep_count);
        auto fail = [&](model::EvalError const& error, std::string const& step = {}) {
            diagnostics.error(error.span, error.message + serve_where(scenario, point, step));
            return std::nullopt;
        };
        PointSettings settings;
        ReplicaMemory bytes;
        if (auto error = prepare_point(scenario, evaluator, point, mesh_sizes, settings, bytes))
            return fail(*error);
        // The fleet is sized for open-loop traffic, whatever the serve's arrivals.
        settings.closed = false;
        settings.clients = 0;
        for (std::size_t t = 0; t < targets; ++t)
            unsupported[t] = grid.mesh_unsupported.empty() ? 0 : grid.mesh_unsupported[p * targets + t];
        StepModel model(scenario, point, mesh_sizes, unsupported);
        auto const lengths = make_requests(settings.requests, 0, scenario.serve->seed, settings.prompt(),
                                           settings.output());
        double outputs = 0;
        for (auto const& r : lengths) outputs += r.output;
        double const mean_output = outputs / static_cast<double>(lengths.size());
        for (std::size_t t = 0; t < targets; ++t) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
            FleetRow row;
            row.point = static_cast<std::uint32_t>(p);
            row.target = static_cast<std::uint32_t>(t);
            row.dollars_per_hour = row.dollars_per_million_tokens = row.kilowatts = row.joules_per_token = nan;
            auto const memory = replica_on(scenario, bytes, t, point, unsupported[t] != 0, settings);
            ServeResult base;
            base.point = row.point;
            base.target = row.target;
            base.chips = grid.chips_at(p);
            base.kv_capacity_tokens = memory.capacity_tokens;
            if (!memory.problem.empty()) {
                row.why_none = memory.problem;
                rows.push_back(std::move(row));
                if (progress) progress(rows.size(), total);
                continue;
            }
            // evaluate_serve has said it (a row's problem, or the error when
            // no configuration holds one request): here it is why none.
            if (auto e = check_fits(scenario, lengths, memory.capacity_tokens, hw.id)) {
                row.why_none = e->message;
                rows.push_back(std::move(row));
                if (progress) progress(rows.size(), total);
                continue;
            }
            std::optional<model::EvalError> probe_error;
            ServeResult last;
            // One probe: a full simulation at `rate`; true when it meets every SLO unsaturated.
            auto probe = [&](double rate) {
                PointSettings at = settings;
                at.rate = rate;
                auto const requests = make_requests(at.requests, rate, scenario.serve->seed, at.prompt(),
                                                    at.output());
                last = base;
                last.rate = rate;
                if (!simulate_point(scenario, at, requests, model, last)) return false;
                if (last.saturated || !last.problem.empty()) return false;
                for (auto met : last.slo_met)
                    if (!met) return false;
                return true;
            };
            // An upper bound: max_seqs requests at once, each no faster than alone.
            PointSettings alone = settings;
            alone.warmup = 0;
            ServeResult single = base;
            if (!simulate_point(scenario, alone, {RequestSpec{0, lengths.front().prompt, lengths.front().output}},
                                model, single))
                return fail(*model.error(), model.error_where());
            double hi = settings.max_seqs / single.e2e.mean, lo = 0;
            if (probe(hi)) {
                lo = hi;
                for (int i = 0; i < max_doublings && probe(hi = lo * 2); ++i) lo = hi;
                if (model.error()) return fail(*model.error(), model.error_where());
            } else {
                double rate = hi;
                for (int i = 0; i < max_halvings && !model.error(); ++i) {
                    rate /= 2;
                    if (probe(rate)) {
                        lo = rate;
                        break;
                    }
                    hi = rate;
                }
                if (model.error()) return fail(*model.error(), model.error_where());
                if (lo == 0) row.why_none = why_failed(scenario, last, rate);
            }
            while (lo > 0 && hi - lo > tolerance * lo) {
                double const mid = (lo + hi) / 2;
                (probe(mid) ? lo : hi) = mid;
                if (model.error()) return fail(*model.error(), model.error_where());
            }
            row.max_rate = lo;
            if (lo > 0) {
                row.replicas = std::ceil(fleet_rate / lo);
                row.chips = row.replicas * base.chips;
                double const price = hardware_number(hw, "price"), power = hardware_number(hw, "power");
                double const tokens_per_s = fleet_rate * mean_output;
                row.dollars_per_hour = row.chips * price;
                row.dollars_per_million_tokens = row.dollars_per_hour / (tokens_per_s * 3600) * 1e6;
                row.kilowatts = row.chips * power / 1000;
                row.joules_per_token = row.chips * power / tokens_per_s;
            }
            rows.push_back(std::move(row));
            if (progress) progress(rows.size(), total);
        }
    }
    // The marks: the fewest chips and the cheapest $/h; ties go to the first.
    FleetRow* fewest = nullptr;
    FleetRow* cheapest = nullptr;
    for (auto& row : rows) {
        if (!(row.max_rate > 0)) continue;
        if (!fewest || row.chips < fewest->chips) fewest = &row;
        if (std::isfinite(row.dollars_per_hour) && (!cheapest || row.dollars_per_hour < cheapest->dollars_per_hour))
            cheapest = &row;
    }
    if (fewest) fewest->fewest_chips = true;
    if (cheapest) cheapest->cheapest = true;
    return rows;
}

}  // namespace roofline::engine
