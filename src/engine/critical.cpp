// The critical value of a sweep variable V: the smallest positive integer V at
// which a case is compute-bound, everything else held fixed.
//
// Every candidate is confirmed with the same predicate as the `bound` column
// (is_compute_bound on count_op), so the answer agrees with the cases
// exactly, with no large-D approximation.
//
// - Linear case (V is itself an axis, and no other axis depends on V):
//   t_math - t_comms = a*V - b, solved in closed form, then confirmed and
//   nudged by at most a few steps to absorb rounding.
// - Otherwise (V reaches axes through lets; a kernel, an on-chip operand, a
//   read factor or swept FLOPs; a split op on a mesh): search. Intensity never decreases
//   when an axis grows (bytes/flops is a sum of terms 1/prod(axes not in an
//   operand)), so when the axes grow with V, compute-boundness is monotone in
//   V and doubling then bisection finds the smallest V. Points where the lets
//   fail (an axis that is not a positive integer) count as not compute-bound.
#include "roofline/engine/evaluate.hpp"

#include "case_counts.hpp"
#include "critical.hpp"

#include "roofline/engine/network.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>
#include <numeric>

#include <cmath>

namespace roofline::engine {
namespace {

// V is a size: a positive integer below 2^53 (model/limits.hpp).
constexpr double largest_v = model::axis_size_limit - 1;
constexpr int max_nudges = 64;

double search(auto const& compute_bound) {
    if (compute_bound(1.0)) return 1.0;
    double low = 1, high = 2;  // compute_bound(low) is false
    while (!compute_bound(high)) {
        if (high == largest_v) return not_available;
        low = high;
        high = std::min(high * 2, largest_v);
    }
    while (high - low > 1) {
        double mid = std::floor((low + high) / 2);
        (compute_bound(mid) ? high : low) = mid;
    }
    return high;
}

// By search, with the `bound` column's predicate on count_case: a kernel, an
// op with an on-chip operand, a read factor or swept FLOPs per element, or a
// split op on a mesh (compute-bound against memory, the on-chip level and
// the network at once). On a mesh only the values of V at which every split
// dimension divides evenly count (V steps by the least common multiple of
// the chips that split an axis V is).
double solve_by_search(model::Scenario const& scenario, PointEvaluator& evaluator,
                       model::Op const& op, model::Hardware const& hw, double peak,
                       std::size_t sweep, std::vector<double> values) {
    int v_slot = scenario.sweeps[sweep].slot;
    bool on_mesh = !scenario.mesh.empty();
    std::vector<double> mesh_sizes;
    if (on_mesh && evaluator.mesh_sizes(mesh_sizes)) return not_available;
    double step = 1;
    auto add_steps = [&](model::Op const& o) {
        auto add_step = [&](model::Tensor const& t) {
            for (std::size_t i = 0; i < t.shards.size(); ++i)
                if (o.axes[static_cast<std::size_t>(t.axes[i])].slot == v_slot)
                    step = std::lcm(static_cast<long long>(step),
                                    static_cast<long long>(shard_count(t.shards[i], mesh_sizes)));
        };
        for (auto const& input : o.inputs) add_step(input);
        add_step(o.out);
    };
    if (on_mesh) {
        add_steps(op);
        for (auto const& m : op.members) add_steps(m);
    }
    CaseScratch scratch;
    CaseCounts counts;
    auto compute_bound = [&](double k) {
        values[sweep] = k * step;
        if (evaluator.set_point(values)) return false;
        if (on_mesh && (evaluator.mesh_sizes(mesh_sizes) ||
                        !mesh_problem(scenario, hw, mesh_sizes).message.empty()))
            return false;
        if (count_case(scenario, op, evaluator, mesh_sizes, scratch, counts)) return false;
        Counts const& c = counts.counts;
        double t_net = case_net_seconds(scenario, op, hw, mesh_sizes, scratch).total;
        return std::isfinite(c.flops) && std::isfinite(c.bytes_read) &&
               std::isfinite(c.bytes_written) && std::isfinite(c.bytes_onchip) &&
               is_compute_bound(c, peak, hw.hbm_bytes_per_s, t_net, hw.onchip_bytes_per_s);
    };
    double k = search(compute_bound);
    return std::isnan(k) ? k : k * step;
}

}  // namespace

double solve_critical(model::Scenario const& scenario, PointEvaluator& evaluator,
                      std::size_t matmul_index, std::size_t target, std::size_t sweep,
                      std::vector<double> values) {
    auto const& matmul = scenario.ops[matmul_index];
    auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[target])];
    if (scenario.sweeps[sweep].of_dtypes) return not_available;  // no size to solve for
    // The dtype sweeps' slots are set even where a let fails at this point.
    (void)evaluator.set_point(values);
    auto peak = hw.peak_for(matmul.compute_dtype_at(evaluator.slots(), scenario.dtypes));
    if (!peak) return not_available;
    if (!scenario.mesh.empty()) {
        // A chip that cannot build the mesh here has no critical value, as
        // its cases have no times.
        std::vector<double> mesh_sizes;
        if (evaluator.mesh_sizes(mesh_sizes) || !mesh_problem(scenario, hw, mesh_sizes).message.empty())
            return not_available;
        if (matmul.split()) return solve_by_search(scenario, evaluator, matmul, hw, *peak, sweep, values);
    }
    if (!matmul.plain()) return solve_by_search(scenario, evaluator, matmul, hw, *peak, sweep, values);
    double bandwidth = hw.hbm_bytes_per_s;
    int v_slot = scenario.sweeps[sweep].slot;
    std::uint64_t v_bit = std::uint64_t{1} << sweep;

    bool linear = true;
    for (auto const& axis : matmul.axes)
        if (axis.slot != v_slot &&
            (scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on & v_bit))
            linear = false;

    // The test of the `bound` column. Counts that overflow a double (far past
    // any point of the sweep) say nothing: not compute-bound.
    auto bound_at = [&](Counts const& c) {
        return std::isfinite(c.flops) && std::isfinite(c.bytes_read) &&
               std::isfinite(c.bytes_written) && is_compute_bound(c, *peak, bandwidth);
    };
    std::vector<double> sizes;
    if (!linear) {
        auto compute_bound = [&](double v) {
            values[sweep] = v;
            if (evaluator.set_point(values) || evaluator.axis_sizes(matmul, sizes)) return false;
            return bound_at(count_op(matmul, sizes, scenario.dtypes, evaluator.slots()));
        };
        return search(compute_bound);
    }

    if (evaluator.set_point(values) || evaluator.axis_sizes(matmul, sizes)) return not_available;
    std::vector<bool> is_v(matmul.axes.size());
    for (std::size_t i = 0; i < matmul.axes.size(); ++i) is_v[i] = matmul.axes[i].slot == v_slot;
    auto compute_bound = [&](double v) {
        for (std::size_t i = 0; i < sizes.size(); ++i)
            if (is_v[i]) sizes[i] = v;
        return bound_at(count_op(matmul, sizes, scenario.dtypes, evaluator.slots()));
    };

    // Coefficients at V = 1: t_math = m0 + m1*V, t_comms = c0 + c1*V.
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (is_v[i]) sizes[i] = 1;
    Counts at_one = count_op(matmul, sizes, scenario.dtypes, evaluator.slots());
    bool v_is_axis = false;
    for (bool b : is_v) v_is_axis = v_is_axis || b;
    double m0 = v_is_axis ? 0 : at_one.flops / *peak;
    double m1 = v_is_axis ? at_one.flops / *peak : 0;
    auto tensor_bytes_at = [&](model::Tensor const& t, bool& has_v) {
        double n = scenario.dtypes[static_cast<std::size_t>(t.dtype.at(evaluator.slots()))].bytes;
        has_v = false;
        for (int a : t.axes) {
            n *= sizes[static_cast<std::size_t>(a)];
            has_v = has_v || is_v[static_cast<std::size_t>(a)];
        }
        return n;
    };
    double c0 = 0, c1 = 0;
    auto add_bytes = [&](model::Tensor const& t) {
        bool has_v;
        double bytes = tensor_bytes_at(t, has_v) / bandwidth;
        (has_v ? c1 : c0) += bytes;
    };
    for (auto const& input : matmul.inputs) add_bytes(input);
    add_bytes(matmul.out);
    double slope = m1 - c1, offset = c0 - m0;  // compute-bound when slope*V >= offset
    if (!(slope > 0)) return compute_bound(1.0) ? 1.0 : not_available;
    double v = std::max(1.0, std::ceil(offset / slope));
    if (!(v <= largest_v)) return not_available;
    for (int i = 0; i < max_nudges && v > 1 && compute_bound(v - 1); ++i) v -= 1;
    for (int i = 0; i < max_nudges && v < largest_v && !compute_bound(v); ++i) v += 1;
    return compute_bound(v) && !(v > 1 && compute_bound(v - 1)) ? v : search(compute_bound);
}

}  // namespace roofline::engine

namespace roofline::engine {

namespace {

// The slot a let only renames (`let X = B`, a template's `B = B`), followed
// to its end: a template's axis is then the sweep itself.
int aliased_slot(model::Scenario const& scenario, int slot) {
    for (std::size_t hops = 0; hops < scenario.slots.size(); ++hops) {
        auto const& s = scenario.slots[static_cast<std::size_t>(slot)];
        if (s.sweep >= 0 || s.expr.code.size() != 1 || s.expr.code[0].op != model::OpCode::slot)
            break;
        slot = s.expr.code[0].slot;
    }
    return slot;
}

}  // namespace

// The same split as solve_critical's linear case, without the hardware: the
// flops and the bytes of the op as functions of V. Each term is exact (a
// count at V = 1 of integers below 2^53), so flops_per_v V and bytes_fixed +
// bytes_per_v V are the counts the cases publish.
CaseGrid::VCounts counts_in_v(model::Scenario const& scenario, PointEvaluator& evaluator,
                              std::size_t op_index, std::size_t sweep, std::vector<double> values) {
    using VCounts = CaseGrid::VCounts;
    auto const& op = scenario.ops[op_index];
    if (scenario.sweeps[sweep].of_dtypes) return {};  // not a size
    // Split over a mesh, V also sets the network time; a kernel, an on-chip
    // operand, a read factor: no closed form here.
    if (op.split() || !op.plain()) return {};
    int v_slot = scenario.sweeps[sweep].slot;
    std::uint64_t v_bit = std::uint64_t{1} << sweep;
    std::size_t v_axes = 0;
    std::vector<bool> is_v(op.axes.size());
    for (std::size_t i = 0; i < op.axes.size(); ++i) {
        auto const& axis = op.axes[i];
        is_v[i] = aliased_slot(scenario, axis.slot) == v_slot;
        v_axes += is_v[i];
        if (!is_v[i] && (scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on & v_bit))
            return {};  // through a let: no closed form
    }
    if (v_axes > 1) return {};  // V twice: flops grow as V^2
    if (v_axes == 0) return {VCounts::constant};
    std::vector<double> sizes;
    if (evaluator.set_point(values) || evaluator.axis_sizes(op, sizes)) return {};
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (is_v[i]) sizes[i] = 1;
    VCounts counts{VCounts::linear};
    counts.flops_per_v = count_op(op, sizes, scenario.dtypes, evaluator.slots()).flops;
    auto add = [&](model::Tensor const& t) {
        std::size_t with_v = 0;
        for (int a : t.axes) with_v += is_v[static_cast<std::size_t>(a)];
        double bytes = static_cast<double>(tensor_bytes(t, sizes, scenario.dtypes, evaluator.slots()));
        (with_v ? counts.bytes_per_v : counts.bytes_fixed) += bytes;
        return with_v <= 1;
    };
    bool linear = true;
    for (auto const& input : op.inputs) linear = add(input) && linear;
    linear = add(op.out) && linear;
    if (!linear || !std::isfinite(counts.flops_per_v) || !std::isfinite(counts.bytes_fixed) ||
        !std::isfinite(counts.bytes_per_v))
        return {};
    return counts;
}

}  // namespace roofline::engine
