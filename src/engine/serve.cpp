// evaluate_serve (docs/serving.md, sections 3 and 4): at every sweep point
// and target, the requests of the serve statement simulated on one replica
// (the mesh), and their figures after the warm-up.
#include "serve_point.hpp"
#include "serve_pools.hpp"

#include "roofline/engine/serve.hpp"

#include <limits>

namespace roofline::engine {

std::optional<std::vector<ServeResult>> evaluate_serve(model::Scenario const& scenario,
                                                       CaseGrid const& grid, Diagnostics& diagnostics,
                                                       ServeProgress const& progress) {
    using namespace serving;
    std::vector<ServeResult> results;
    if (!scenario.serve) return results;
    std::size_t const targets = scenario.targets.size();
    std::size_t const total = grid.point_count * targets;
    PointEvaluator evaluator(scenario);
    std::vector<double> mesh_sizes;
    std::vector<std::uint8_t> unsupported(targets, 0);
    results.reserve(total);
    struct Unfit {
        model::EvalError error;
        std::string where;
    };
    std::optional<Unfit> unfit;  // the first point whose cache holds less than a request
    std::size_t unfit_points = 0, simulated = 0;
    for (std::size_t p = 0; p < grid.point_count; ++p) {
        std::span<double const> const point(grid.point_values.data() + p * grid.sweep_count,
                                            grid.sweep_count);
        auto fail = [&](model::EvalError const& error, std::string const& step = {}) {
            diagnostics.error(error.span, error.message + serve_where(scenario, point, step));
            return std::nullopt;
        };
        if (scenario.serve->prefill_pool) {  // disaggregated: serve_pools.cpp
            if (!evaluate_pools_point(scenario, grid, p, diagnostics, results)) return std::nullopt;
            if (progress) progress(results.size(), total);
            continue;
        }
        PointSettings settings;
        ReplicaMemory bytes;
        if (auto error = prepare_point(scenario, evaluator, point, mesh_sizes, settings, bytes))
            return fail(*error);
        for (std::size_t t = 0; t < targets; ++t)
            unsupported[t] = grid.mesh_unsupported.empty() ? 0 : grid.mesh_unsupported[p * targets + t];
        StepModel model(scenario, point, mesh_sizes, unsupported);
        auto const requests = make_requests(settings.requests, settings.closed ? 0 : settings.rate,
                                            scenario.serve->seed, settings.prompt(), settings.output());
        for (std::size_t t = 0; t < targets; ++t) {
            ServeResult r;
            r.point = static_cast<std::uint32_t>(p);
            r.target = static_cast<std::uint32_t>(t);
            r.chips = grid.chips_at(p);
            r.rate = settings.closed ? std::numeric_limits<double>::quiet_NaN() : settings.rate;
            r.clients = settings.closed ? settings.clients : 0;
            auto const memory = replica_on(scenario, bytes, t, point, unsupported[t] != 0, settings);
            r.weight_bytes = memory.weight_bytes;
            r.reserve_bytes = memory.reserve_bytes;
            r.kv_bytes_per_token = memory.kv_bytes_per_token;
            r.kv_bytes_per_sequence = memory.kv_bytes_per_sequence;
            r.kv_capacity_tokens = memory.capacity_tokens;
            r.problem = memory.problem;
            if (r.problem.empty()) {
                auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
                if (auto e = check_fits(scenario, requests, memory.capacity_tokens, hw.id)) {
                    // One configuration of a sweep too small for a request is
                    // a row that says so; the error is for a serve that no
                    // configuration can hold (below).
                    r.problem = e->message;
                    r.slo_met.assign(scenario.serve_slos.size(), 0);
                    if (!unfit) unfit = Unfit{*e, serve_where(scenario, point, {})};
                    ++unfit_points;
                } else if (!simulate_point(scenario, settings, requests, model, r)) {
                    return fail(*model.error(), model.error_where());
                } else {
                    ++simulated;
                }
            } else {
                r.slo_met.assign(scenario.serve_slos.size(), 0);
            }
            results.push_back(std::move(r));
            if (progress) progress(results.size(), total);
        }
    }
    if (unfit && simulated == 0) {
        diagnostics.error(unfit->error.span, unfit->error.message + unfit->where);
        return std::nullopt;
    }
    if (unfit)
        diagnostics.warning(unfit->error.span,
                            unfit->error.message + unfit->where + "; " +
                                std::to_string(unfit_points) + " of " + std::to_string(total) +
                                " serve points cannot hold one request, and their rows say so");
    return results;
}

}  // namespace roofline::engine
