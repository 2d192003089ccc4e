// The fleet with pools (docs/serving.md, "Disaggregated prefill and
// decode"): per configuration and target, for every prefill:decode ratio
// n_p in 1..4, n_d in 1..8 (and the ratio written, if outside), the highest
// Poisson rate one group of n_p + n_d replicas serves within every SLO and
// unsaturated (bisection, a full simulation per probe, as plan_fleet's);
// the groups for `fleet rate = L` and their chips; the row keeps the ratio
// of the fewest chips (ties: the fewer prefill, then decode replicas).
#include "serve_pools.hpp"

#include "point_evaluator.hpp"

#include "roofline/model/hardware_fields.hpp"

#include <cmath>
#include <limits>
#include <utility>

namespace roofline::engine::serving {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double tolerance = 0.01;
constexpr int max_halvings = 40, max_doublings = 20;

double hardware_number(model::Hardware const& hw, char const* name) {
    auto const* field = model::find_hardware_field(name);
    if (!field) return nan;
    auto const value = model::field_number(hw, *field);
    return value ? *value : nan;
}

}  // namespace

bool plan_pools_configuration(model::Scenario const& scenario, CaseGrid const& grid, std::size_t p,
                              double fleet_rate, Diagnostics& diagnostics, std::vector<FleetRow>& rows) {
    auto const& serve = *scenario.serve;
    std::span<double const> const point(grid.point_values.data() + p * grid.sweep_count, grid.sweep_count);
    // The pools set their sweeps: a configuration once, at their first values.
    for (auto const* pool : {&*serve.prefill_pool, &*serve.decode_pool})
        for (auto const& value : pool->values) {
            auto const sweep = static_cast<std::size_t>(value.first);
            if (point[sweep] != scenario.sweeps[sweep].values.front()) return true;
        }
    std::optional<model::EvalError> step_error;
    std::string where;
    auto fail = [&](model::EvalError const& error, std::string const& step = {}) {
        diagnostics.error(error.span, error.message + serve_where(scenario, point, step));
        return false;
    };
    PointSettings traffic;
    PoolSide prefill, decode;
    if (auto e = make_pools(scenario, grid, point, traffic, prefill, decode)) return fail(*e);
    auto const lengths = make_requests(traffic.requests, 0, serve.seed, traffic.prompt(), traffic.output());
    double outputs = 0;
    for (auto const& r : lengths) outputs += r.output;
    double const mean_output = outputs / static_cast<double>(lengths.size());
    std::vector<std::pair<double, double>> ratios;
    for (double n_p = 1; n_p <= 4; ++n_p)
        for (double n_d = 1; n_d <= 8; ++n_d) ratios.emplace_back(n_p, n_d);
    double const written_p = serve.prefill_pool->replicas, written_d = serve.decode_pool->replicas;
    if (written_p > 4 || written_d > 8) ratios.emplace_back(written_p, written_d);
    for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
        auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
        FleetRow row;
        row.point = static_cast<std::uint32_t>(p);
        row.target = static_cast<std::uint32_t>(t);
        row.dollars_per_hour = row.dollars_per_million_tokens = row.kilowatts = row.joules_per_token = nan;
        std::string why;
        for (auto const& ratio : ratios) {
            double const n_p = ratio.first, n_d = ratio.second;  // named (clang 14 captures no bindings)
            ServeResult last;
            bool stopped = false;  // a problem (no room, no link): the same at every rate
            auto probe = [&](double rate) {
                PointSettings at = traffic;
                at.rate = rate;
                auto const requests = make_requests(at.requests, rate, serve.seed, at.prompt(), at.output());
                last = ServeResult{};
                last.point = row.point;
                last.target = row.target;
                last.rate = rate;
                if (!simulate_pools(scenario, prefill, decode, n_p, n_d, at, requests, last, step_error, where))
                    return false;
                if (!last.problem.empty()) stopped = true;
                if (stopped || last.saturated) return false;
                for (auto met : last.slo_met)
                    if (!met) return false;
                return true;
            };
            // An upper bound: one request alone, then n_d x max_seqs of them at once.
            PointSettings alone = traffic;
            alone.warmup = 0;
            ServeResult single;
            single.target = row.target;
            if (!simulate_pools(scenario, prefill, decode, n_p, n_d, alone,
                                {RequestSpec{0, lengths.front().prompt, lengths.front().output}}, single,
                                step_error, where))
                return fail(*step_error, where);
            if (!single.problem.empty()) {
                why = single.problem;
                continue;
            }
            double hi = n_d * decode.settings.max_seqs / single.e2e.mean, lo = 0;
            if (probe(hi)) {
                lo = hi;
                for (int i = 0; i < max_doublings && probe(hi = lo * 2); ++i) lo = hi;
            } else {
                double rate = hi;
                for (int i = 0; i < max_halvings && !step_error && !stopped; ++i) {
                    rate /= 2;
                    if (probe(rate)) {
                        lo = rate;
                        break;
                    }
                    hi = rate;
                }
            }
            while (!step_error && lo > 0 && hi - lo > tolerance * lo) {
                double const mid = (lo + hi) / 2;
                (probe(mid) ? lo : hi) = mid;
            }
            if (step_error) return fail(*step_error, where);
            if (!(lo > 0)) {
                if (why.empty()) why = stopped ? last.problem : "no rate meets the SLOs with any ratio tried";
                continue;
            }
            double const groups = std::ceil(fleet_rate / lo);
            double const chips = groups * (n_p * prefill.chips + n_d * decode.chips);
            if (row.max_rate > 0 && !(chips < row.chips)) continue;
            row.max_rate = lo;
            row.replicas = groups;
            row.chips = chips;
            row.prefill_replicas = n_p;
            row.decode_replicas = n_d;
            row.pools = pools_text(scenario, n_p, n_d);
            row.prefill_point = static_cast<std::uint32_t>(prefill.grid_point);
            row.decode_point = static_cast<std::uint32_t>(decode.grid_point);
        }
        if (row.max_rate > 0) {
            double const price = hardware_number(hw, "price"), power = hardware_number(hw, "power");
            double const tokens_per_s = fleet_rate * mean_output;
            row.dollars_per_hour = row.chips * price;
            row.dollars_per_million_tokens = row.dollars_per_hour / (tokens_per_s * 3600) * 1e6;
            row.kilowatts = row.chips * power / 1000;
            row.joules_per_token = row.chips * power / tokens_per_s;
        } else {
            row.why_none = why;
        }
        rows.push_back(std::move(row));
    }
    return true;
}

}  // namespace roofline::engine::serving
