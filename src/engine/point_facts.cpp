// Resident bytes and tokens at every sweep point. Both depend on the point
// (a KV cache grows with the batch and the context) but not on the target.
#include "point_evaluator.hpp"

#include <algorithm>

namespace roofline::engine {

bool compute_point_facts(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics) {
    auto resident = [](model::Tensor const& t) { return t.role != model::Role::activation; };
    std::vector<std::size_t> ops;  // the ops with a resident operand
    for (std::size_t m = 0; m < scenario.ops.size(); ++m) {
        auto const& inputs = scenario.ops[m].inputs;
        if (std::any_of(inputs.begin(), inputs.end(), resident)) ops.push_back(m);
    }
    grid.has_tokens = scenario.tokens_slot >= 0;
    grid.has_resident = !ops.empty() || !scenario.residents.empty();
    grid.point_facts.assign(grid.point_count, PointFacts{});
    if (!grid.has_tokens && !grid.has_resident) return true;

    std::vector<double> sizes, mesh_sizes;
    for (std::size_t p = 0; p < grid.point_count; ++p) {
        std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                       grid.sweep_count);
        auto fail = [&](model::EvalError const& error) {
            diagnostics.error(error.span,
                              error.message + (error.at_every_point ? "" : at_point(scenario, values)));
            return false;
        };
        if (auto error = evaluator.set_point(values)) return fail(*error);
        if (auto error = evaluator.mesh_sizes(mesh_sizes)) return fail(*error);
        auto& facts = grid.point_facts[p];
        // Summed in long double, like the counts, and rounded once; each sum
        // is a count, published, so it must stay exact.
        long double weight = 0, cache = 0;
        auto add = [&](model::Tensor const& t, double count) {
            // Per chip: a sharded weight or cache holds its own shard.
            long double bytes =
                count * (t.shards.empty()
                             ? tensor_bytes(t, sizes, scenario.dtypes, evaluator.slots())
                             : tensor_bytes(t, t.shards, sizes, mesh_sizes, scenario.dtypes,
                                            evaluator.slots()));
            bool is_weight = t.role == model::Role::weight;
            auto& sum = is_weight ? weight : cache;
            sum += bytes;
            return check_count(t.span, is_weight ? "the weights of a step reach "
                                                 : "the caches of a step reach ",
                               static_cast<double>(sum), " bytes with this operand");
        };
        for (std::size_t m : ops) {
            auto const& op = scenario.ops[m];
            if (auto error = evaluator.axis_sizes(op, sizes)) return fail(*error);
            for (auto const& input : op.inputs)
                if (resident(input))
                    if (auto error = add(input, op.count)) return fail(*error);
        }
        for (auto const& r : scenario.residents) {
            if (auto error = evaluator.axis_sizes(r.axes, sizes)) return fail(*error);
            // An op's splits are checked with its case; a resident has none.
            if (auto error = check_divisible(scenario, r.axes, r.tensor, sizes, mesh_sizes))
                return fail(*error);
            if (auto error = add(r.tensor, r.count)) return fail(*error);
        }
        facts.weight_bytes = static_cast<double>(weight);
        facts.cache_bytes = static_cast<double>(cache);
        if (grid.has_tokens) {
            auto const& slot = scenario.slots[static_cast<std::size_t>(scenario.tokens_slot)];
            facts.tokens = evaluator.slots()[static_cast<std::size_t>(scenario.tokens_slot)];
            if (!(facts.tokens > 0))
                return fail({slot.expr.span, "tokens must be positive, but the expression gives " +
                                                 model::format_number(facts.tokens)});
        }
    }
    return true;
}

}  // namespace roofline::engine
