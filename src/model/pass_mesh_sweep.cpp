// The mesh sweep pass (multichip.md section 11): a sweep that sets a mesh
// axis's size (`sweep TP = 1 .. 8`, `mesh tp = TP`) loses, before any case is
// made, the values at which a split dimension does not divide over its chips,
// with one warning that names them; an error only when no value is left.
// A dimension that another sweep sets (B@ep with B swept) is no mesh size's
// doing: the engine reports it at its point, as before.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/model/limits.hpp"
#include "roofline/model/uneven_split.hpp"

namespace roofline::model {
namespace {

// At most this many skipped values (and reasons) are named; the rest are counted.
constexpr std::size_t max_named = 8;

std::vector<std::string> capped(std::vector<std::string> items, char const* more) {
    if (items.size() <= max_named) return items;
    std::size_t const rest = items.size() - max_named;
    items.resize(max_named);
    items.push_back(std::string(more).append(std::to_string(rest)).append(" more"));
    return items;
}

// Every tensor of the scenario's cases: ops, kernels' members, residents,
// and the requests' own, each with the axes its dimensions index.
template <typename Visit>
void for_each_tensor(std::vector<Op> const& ops, Visit const& visit) {
    for (auto const& op : ops) {
        for (auto const& input : op.inputs) visit(op.axes, input);
        visit(op.axes, op.out);
        for_each_tensor(op.members, visit);
    }
}

template <typename Visit>
void for_each_tensor(Scenario const& scenario, Visit const& visit) {
    for_each_tensor(scenario.ops, visit);
    for (auto const& r : scenario.residents) visit(r.axes, r.tensor);
    for (auto const& request : scenario.requests) {
        for_each_tensor(request.prefill, visit);
        for_each_tensor(request.decode, visit);
        for (auto const& r : request.prefill_residents) visit(r.axes, r.tensor);
        for (auto const& r : request.decode_residents) visit(r.axes, r.tensor);
    }
    if (auto const& serve = scenario.serve) {
        for (auto const* part : {&serve->linear, &serve->decode, &serve->prefill, &serve->sample})
            for_each_tensor(*part, visit);
        for (auto const* part : {&serve->linear_residents, &serve->decode_residents, &serve->prefill_residents,
                                 &serve->sample_residents})
            for (auto const& r : *part) visit(r.axes, r.tensor);
    }
}

// Why sweep `s` cannot take `value`: the first split dimension, in the
// order the engine checks them, that does not divide; nothing when every
// one divides or cannot be known from this sweep alone (it depends on
// another sweep, or a value is not a whole number: the engine says so).
std::optional<std::string> indivisible_at(Scenario const& scenario, std::size_t s, double value) {
    std::uint64_t const bit = std::uint64_t{1} << s;
    auto slot_of = [&](int slot) -> Slot const& { return scenario.slots[static_cast<std::size_t>(slot)]; };
    auto decided = [&](int slot) { return (slot_of(slot).depends_on & ~bit) == 0; };
    std::vector<double> values;
    for (auto const& slot : scenario.slots) values.push_back(slot.constant);
    values[static_cast<std::size_t>(scenario.sweeps[s].slot)] = value;
    for (int let : scenario.let_order) {
        if (!decided(let)) continue;
        auto result = evaluate(slot_of(let).expr, values);
        if (std::holds_alternative<EvalError>(result)) return std::nullopt;
        values[static_cast<std::size_t>(let)] = std::get<double>(result);
    }
    std::vector<double> mesh_sizes;
    for (auto const& axis : scenario.mesh) mesh_sizes.push_back(values[static_cast<std::size_t>(axis.slot)]);
    std::optional<std::string> found;
    for_each_tensor(scenario, [&](std::vector<Axis> const& axes, Tensor const& t) {
        for (std::size_t i = 0; i < t.shards.size() && !found; ++i) {
            auto const& shards = t.shards[i];
            auto const& axis = axes[static_cast<std::size_t>(t.axes[i])];
            bool set_here = false, known = decided(axis.slot);
            for (int m : shards) {
                int slot = scenario.mesh[static_cast<std::size_t>(m)].slot;
                known = known && decided(slot) &&
                        !whole_number_problem(values[static_cast<std::size_t>(slot)]);
                set_here = set_here || (slot_of(slot).depends_on & bit) != 0;
            }
            double size = values[static_cast<std::size_t>(axis.slot)];
            if (shards.empty() || !set_here || !known || whole_number_problem(size)) continue;
            found = uneven_split(scenario, axis.name, size, shards, mesh_sizes);
        }
    });
    return found;
}

}  // namespace

void skip_indivisible_mesh_sizes(Context const& context, Scenario& scenario) {
    for (std::size_t s = 0; s < scenario.sweeps.size() && !scenario.mesh.empty(); ++s) {
        auto& sweep = scenario.sweeps[s];
        std::uint64_t const bit = std::uint64_t{1} << s;
        bool sets_mesh = false;
        for (auto const& axis : scenario.mesh)
            sets_mesh =
                sets_mesh || (scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on & bit) != 0;
        if (sweep.of_dtypes || !sets_mesh) continue;
        std::vector<double> kept;
        std::vector<std::string> skipped, reasons;
        for (double value : sweep.values) {
            auto problem = indivisible_at(scenario, s, value);
            if (!problem) {
                kept.push_back(value);
                continue;
            }
            skipped.push_back(format_number(value));
            reasons.push_back("at " + sweep.name + " = " + skipped.back() + ", " + *problem);
        }
        if (skipped.empty()) continue;
        std::string why = std::string(": a split does not divide there (")
                              .append(joined(capped(std::move(reasons), "and "), "; ", "; "))
                              .append(")");
        std::string values = joined(capped(std::move(skipped), ""), " and ");
        if (kept.empty()) {
            context.diagnostics.error(sweep.span, "sweep '" + sweep.name +
                                                      "' has no value left: it skips " + values + why);
            continue;
        }
        context.diagnostics.warning(sweep.span, "sweep '" + sweep.name + "' skips " + values + why);
        sweep.values = std::move(kept);
    }
}

}  // namespace roofline::model
