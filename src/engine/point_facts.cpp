// Resident bytes and tokens at every sweep point. Both depend on the point
// (a KV cache grows with the batch and the context) but not on the target.
#include "point_facts.hpp"

#include "case_counts.hpp"
#include "divisible.hpp"

#include "roofline/model/expr.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>

namespace roofline::engine {

namespace {

bool resident(model::Tensor const& t) { return t.resident(); }

bool has_resident_operand(model::Op const& op) {
    for (auto const* o : leaf_ops(op))
        if (std::any_of(o->inputs.begin(), o->inputs.end(), resident)) return true;
    return false;
}

}  // namespace

std::optional<model::EvalError> resident_bytes(model::Scenario const& scenario,
                                               std::span<model::Op const> ops,
                                               std::span<model::Resident const> residents,
                                               PointEvaluator const& evaluator,
                                               std::span<double const> mesh_sizes, ResidentBytes& out) {
    // Summed in long double, like the counts, and rounded once; each sum
    // is a count, published, so it must stay exact.
    out = {};
    std::vector<double> sizes;
    auto add = [&](model::Tensor const& t, double count) {
        // Per chip: a sharded weight or cache holds its own shard.
        long double bytes =
            count * (t.shards.empty()
                         ? tensor_bytes(t, sizes, scenario.dtypes, evaluator.slots())
                         : tensor_bytes(t, t.shards, sizes, mesh_sizes, scenario.dtypes,
                                        evaluator.slots()));
        if (t.onchip) out.onchip += bytes;
        bool is_weight = t.role == model::Role::weight;
        auto& sum = is_weight ? out.weight : out.cache;
        sum += bytes;
        return check_count(t.span, is_weight ? "the weights of a step reach "
                                             : "the caches of a step reach ",
                           static_cast<double>(sum), " bytes with this operand");
    };
    for (auto const& op : ops) {
        if (!has_resident_operand(op)) continue;
        for (auto const* o : leaf_ops(op)) {
            if (auto error = evaluator.axis_sizes(*o, sizes)) return error;
            for (auto const& input : o->inputs)
                if (resident(input))
                    if (auto error = add(input, o->count)) return error;
        }
    }
    for (auto const& r : residents) {
        if (auto error = evaluator.axis_sizes(r.axes, sizes)) return error;
        // An op's splits are checked with its case; a resident has none.
        if (auto error = check_divisible(scenario, r.axes, r.tensor, sizes, mesh_sizes)) return error;
        if (auto error = add(r.tensor, r.count)) return error;
    }
    return std::nullopt;
}

namespace {

// The pipeline's stages and micro-batches at a point (a swept
// `microbatches` is checked here, a constant one by the checker).
std::optional<model::EvalError> pipeline_facts(model::Scenario const& scenario, PointEvaluator& evaluator,
                                               GridPoint const& point, PointFacts& facts) {
    if (scenario.pipeline_axis < 0) return std::nullopt;
    facts.stages = point.mesh_sizes[static_cast<std::size_t>(scenario.pipeline_axis)];
    if (scenario.microbatches_slot < 0) return std::nullopt;
    auto const slot = static_cast<std::size_t>(scenario.microbatches_slot);
    facts.microbatches = evaluator.slots()[slot];
    if (auto problem = model::whole_number_problem(facts.microbatches))
        return model::EvalError{scenario.slots[slot].span, "'microbatches' must be " + *problem + ", not " +
                                                               model::format_number(facts.microbatches)};
    return std::nullopt;
}

}  // namespace

bool compute_point_facts(model::Scenario const& scenario, CaseGrid& grid,
                         PointEvaluator& evaluator, Diagnostics& diagnostics) {
    grid.has_tokens = scenario.tokens_slot >= 0;
    grid.has_resident = !scenario.residents.empty() ||
                        std::any_of(scenario.ops.begin(), scenario.ops.end(), has_resident_operand);
    grid.point_facts.assign(grid.point_count, PointFacts{});
    if (!grid.has_tokens && !grid.has_resident && scenario.pipeline_axis < 0) return true;

    ResidentBytes bytes;
    return for_each_point(scenario, grid, evaluator, diagnostics,
                          [&](GridPoint const& point) -> std::optional<model::EvalError> {
        if (auto error = resident_bytes(scenario, scenario.ops, scenario.residents, evaluator,
                                        point.mesh_sizes, bytes))
            return error;
        auto& facts = grid.point_facts[point.index];
        if (auto error = pipeline_facts(scenario, evaluator, point, facts)) return error;
        facts.weight_bytes = static_cast<double>(bytes.weight);
        facts.cache_bytes = static_cast<double>(bytes.cache);
        facts.onchip_resident_bytes = static_cast<double>(bytes.onchip);
        if (!grid.has_tokens) return std::nullopt;
        auto const& slot = scenario.slots[static_cast<std::size_t>(scenario.tokens_slot)];
        facts.tokens = evaluator.slots()[static_cast<std::size_t>(scenario.tokens_slot)];
        if (!(facts.tokens > 0))
            return model::EvalError{slot.expr.span, "tokens must be positive, but the expression gives " +
                                                        model::format_number(facts.tokens)};
        if (!model::tokens_in_range(facts.tokens))
            return model::EvalError{slot.expr.span, std::string("tokens must be ") +
                                                        model::tokens_range_text +
                                                        ", but the expression gives " +
                                                        model::format_number(facts.tokens)};
        return std::nullopt;
    });
}

}  // namespace roofline::engine
