#pragma once
// Values of every slot at one sweep point: constants come from the checked
// scenario, sweep variables from the point, and sweep-dependent lets are
// evaluated in dependency order (point_evaluator.cpp). And for_each_point,
// the one loop over a grid's points that the per-point passes share.

#include "point_errors.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/model/scenario.hpp"

#include <optional>
#include <span>
#include <vector>

namespace roofline::engine {

// A serve's step slots (docs/serving.md, section 2), the values its parts
// are counted at. The defaults are the neutral step: one token, context 1, a
// chunk of 1 at position 0, one sampled sequence; a part is counted with its
// own slots set and the others neutral, so that an evaluation never depends
// on the one before it, and a point's lets evaluate (the mesh, the facts)
// before any step runs, without dividing by a step of no tokens.
struct StepSlots {
    double tokens = 1, context = 1, chunk = 1, start = 0, sampled = 1;
};

class PointEvaluator {
public:
    explicit PointEvaluator(model::Scenario const& scenario);

    // `sweep_values` holds one value per sweep.
    std::optional<model::EvalError> set_point(std::span<double const> sweep_values);

    // Sizes of matmul.axes at the current point; an error when one is not a
    // positive integer.
    std::optional<model::EvalError> axis_sizes(std::span<model::Axis const> axes,
                                               std::vector<double>& sizes) const;
    std::optional<model::EvalError> axis_sizes(model::Op const& matmul,
                                               std::vector<double>& sizes) const {
        return axis_sizes(matmul.axes, sizes);
    }

    std::span<double const> slots() const { return values_; }
    // A value no let computes (a request's step `i`), kept by set_point.
    void set_slot(int slot, double value) { values_[static_cast<std::size_t>(slot)] = value; }
    // A serve's step slots (those it has), kept by set_point.
    void set_step_slots(StepSlots const& step);

    // The size of each mesh axis at the current point (none without a mesh);
    // an error when one is not a positive integer.
    std::optional<model::EvalError> mesh_sizes(std::vector<double>& sizes) const;

private:
    model::Scenario const& scenario_;
    std::vector<double> values_;
};

// One sweep point as for_each_point hands it on.
struct GridPoint {
    std::size_t index;
    std::span<double const> values;      // one per sweep
    std::span<double const> mesh_sizes;  // one per mesh axis; empty without a mesh
};

// Sets `evaluator` to each point of `grid` in turn and calls
// body(GridPoint) -> std::optional<model::EvalError>. The first error, the
// point's own or the body's, is reported (naming the point unless it holds
// at every point) and ends the loop: false. A template, so that the body of
// the cases' hot loop inlines.
template <class Body>
bool for_each_point(model::Scenario const& scenario, CaseGrid const& grid, PointEvaluator& evaluator,
                    Diagnostics& diagnostics, Body&& body) {
    std::vector<double> mesh_sizes;
    for (std::size_t p = 0; p < grid.point_count; ++p) {
        std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                       grid.sweep_count);
        auto error = evaluator.set_point(values);
        if (!error) error = evaluator.mesh_sizes(mesh_sizes);
        if (!error) error = body(GridPoint{p, values, mesh_sizes});
        if (error) {
            diagnostics.error(error->span,
                              error->message + (error->at_every_point ? "" : at_point(scenario, values)));
            return false;
        }
    }
    return true;
}

}  // namespace roofline::engine
