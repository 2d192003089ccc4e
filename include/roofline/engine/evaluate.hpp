#pragma once
// Checked scenario -> cases: every sweep point x matmul x target, with the
// roofline metrics and the critical value of each sweep variable. Pure: no I/O;
// the result is a value that the writers format.

#include "roofline/engine/metrics.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/scenario.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace roofline::engine {

struct Case {
    std::uint32_t point;   // index of the sweep point
    std::uint32_t matmul;  // index into Scenario::matmuls
    std::uint32_t target;  // index into Scenario::targets
    Metrics metrics;
};

struct Evaluation {
    std::size_t sweep_count = 0;
    std::vector<double> point_values;  // point-major: point * sweep_count + sweep
    std::vector<Case> cases;           // for each point, each matmul, each target

    // critical[v][(reduced point * matmuls + matmul) * targets + target]: the
    // smallest positive integer value of sweep v at which the case is
    // compute-bound with everything else held fixed; NaN when there is none.
    // The reduced point is the point's index with sweep v's digit removed, so
    // the table holds each answer once, not once per value of v.
    std::vector<std::vector<double>> critical;
    std::vector<std::size_t> sweep_sizes;
    std::size_t matmul_count = 0, target_count = 0;

    double sweep_value(Case const& c, std::size_t sweep) const {
        return point_values[c.point * sweep_count + sweep];
    }
    double critical_value(Case const& c, std::size_t sweep) const;
};

struct EvaluateOptions {
    std::size_t max_cases = 200'000'000;
};

// On a value that is only wrong at some sweep point (an axis that is not a
// positive integer there, a division by zero), returns nullopt and reports the
// first such error, its message ending in the point: "(at B = 3)".
std::optional<Evaluation> evaluate(model::Scenario const& scenario, Diagnostics& diagnostics,
                                   EvaluateOptions const& options = {});

// The critical value of sweep `sweep` for one matmul on one target, with the
// other sweep variables at `values` (one per sweep). Exposed for tests.
double solve_critical(model::Scenario const& scenario, std::size_t matmul, std::size_t target,
                      std::size_t sweep, std::vector<double> const& values);

}  // namespace roofline::engine
