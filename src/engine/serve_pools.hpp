#pragma once
// Disaggregated serving at one sweep point (docs/serving.md, "Disaggregated
// prefill and decode"), shared by evaluate_serve and the fleet search
// (serve_pools.cpp): each pool's own point (the sweep point with the pool's
// sweep values), its settings, memory and step model, the link between the
// pools, and one group's simulation (n_p prefill + n_d decode replicas).

#include "serve_point.hpp"

#include <memory>

namespace roofline::engine::serving {

struct PoolSide {
    std::vector<double> point;          // the sweep values of the pool's step costs
    std::size_t grid_point = 0;         // its index in the grid
    double chips = 1;                   // of one replica
    PointSettings settings;             // max_seqs, max_step_tokens, memory_utilization there
    ReplicaMemory bytes;
    std::vector<std::uint8_t> unsupported;  // per target: the mesh cannot be built there
    std::unique_ptr<StepModel> model;
};

// The pool at sweep point `point`; an error (naming the point) from its lets.
std::optional<model::EvalError> make_pool(model::Scenario const& scenario, CaseGrid const& grid,
                                          std::span<double const> point, model::ServePool const& pool,
                                          PoolSide& out);

// The point's own traffic (arrivals, requests, lengths, warm-up) and both
// pools at it: what evaluate_pools_point and the fleet start from.
std::optional<model::EvalError> make_pools(model::Scenario const& scenario, CaseGrid const& grid,
                                           std::span<double const> point, PointSettings& traffic,
                                           PoolSide& prefill, PoolSide& decode);

// "1 x TP 4 prefill + 3 x TP 8 decode": the replicas and the pools' sweep values.
std::string pools_text(model::Scenario const& scenario, double prefill_replicas, double decode_replicas);

// The link a prompt's KV cache takes between the pools of a group of
// `group_chips` on `hw`: NVLink inside one domain (nvlink_domain >= the
// group's chips), else DCN; problem when the chip has neither bandwidth.
struct PoolLink {
    double bytes_per_s = 0, latency_s = 0;
    char const* name = "";
    std::string problem;
};
PoolLink pool_link(model::Hardware const& hw, double group_chips);

// Simulates `requests` (traffic's arrivals) through n_p prefill and n_d
// decode replicas on result.target and fills result's figures, per group.
// False after a step's count failed: `error` and `where` say where.
bool simulate_pools(model::Scenario const& scenario, PoolSide& prefill, PoolSide& decode, double n_p, double n_d,
                    PointSettings const& traffic, std::vector<RequestSpec> const& requests, ServeResult& result,
                    std::optional<model::EvalError>& error, std::string& where);

// evaluate_serve's point p with pools: one ServeResult per target, the
// group as written; false after an error (reported).
bool evaluate_pools_point(model::Scenario const& scenario, CaseGrid const& grid, std::size_t p,
                          Diagnostics& diagnostics, std::vector<ServeResult>& results);

// plan_fleet's configuration p with pools (fleet_pools.cpp): one row per
// target, the prefill:decode ratio of the fewest chips; false after an error.
bool plan_pools_configuration(model::Scenario const& scenario, CaseGrid const& grid, std::size_t p,
                              double fleet_rate, Diagnostics& diagnostics, std::vector<FleetRow>& rows);

}  // namespace roofline::engine::serving
