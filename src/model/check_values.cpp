// Lets, sweeps and layer counts: ordering lets by their dependencies (any
// order in the file), finding cycles, sweep values and their limits.
// Expressions are compiled in check_expressions.cpp.
#include "checker.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace roofline::model {
namespace x3 = boost::spirit::x3;

void Checker::classify_dtype_names() {
    // A name that no value has but a dtype has.
    auto names_dtype = [&](int scope, std::string const& name) {
        return lookup_value(scope, name) < 0 && (is_dtype_name(name) || is_dtype_parameter(scope, name));
    };
    // A sweep whose first value names a dtype is a dtype sweep: its values
    // are checked as dtypes in check_sweeps. True when one became one.
    auto classify_sweeps = [&] {
        bool changed = false;
        for (std::size_t i = 0; i < sweeps.size(); ++i) {
            auto const* list = boost::get<ast::SweepList>(&sweeps[i].node->spec.get());
            if (sweep_of_dtypes[i] || !list || list->items.empty()) continue;
            auto const* id = bare_identifier(list->items.front());
            if (!id || !names_dtype(0, id->name)) continue;
            auto const& name = sweeps[i].node->name.name;
            int slot = lookup_value(0, name);
            if (slot < 0) continue;
            scopes[0].values.erase(name);
            scopes[0].dtype_aliases[name] = DtypeAlias{{}, 0, true, slot, true};
            sweep_of_dtypes[i] = changed = true;
        }
        return changed;
    };
    // A let is a dtype when its value is one name that is a dtype, or a let
    // that is one (`let mdt = wdt` before or after `let wdt = fp8`): each
    // let decided once, following the chain with a stack, not the call
    // stack (a chain may be 100,000 lets long).
    std::unordered_map<int, std::size_t> let_of_slot;
    for (std::size_t i : let_statements) let_of_slot.emplace(let_slots[i], i);
    enum State : char { open, visiting, value, dtype };
    std::vector<State> state(lets.size(), open);
    // The alias points where `target`'s own alias points, if it has one, so
    // that a chain of lets is one step to look up, however long.
    auto make_dtype = [&](std::size_t i, std::string const& target) {
        int const where = lets[i].scope;
        DtypeAlias alias{target, where, true, -1, true};
        for (int sc = where; sc >= 0; sc = scopes[static_cast<std::size_t>(sc)].parent) {
            auto const& aliases = scopes[static_cast<std::size_t>(sc)].dtype_aliases;
            if (auto it = aliases.find(target); it != aliases.end()) {
                if (it->second.settled) alias = it->second;
                break;
            }
        }
        auto& scope = scopes[static_cast<std::size_t>(where)];
        auto const& name = scenario.slots[static_cast<std::size_t>(let_slots[i])].name;
        scope.values.erase(name);
        scope.dtype_aliases[name] = alias;
        dtype_let_slots.push_back(let_slots[i]);
        state[i] = dtype;
    };
    auto classify_lets = [&] {
        for (std::size_t root : let_statements) {
            if (state[root] != open) continue;
            std::vector<std::size_t> stack{root};
            while (!stack.empty()) {
                std::size_t i = stack.back();
                auto const* id = bare_identifier(*lets[i].value);
                int slot = id ? lookup_value(lets[i].scope, id->name) : -1;
                auto next = slot < 0 ? let_of_slot.end() : let_of_slot.find(slot);
                if (next != let_of_slot.end() && state[next->second] == open) {
                    state[i] = visiting;
                    stack.push_back(next->second);
                    continue;
                }
                stack.pop_back();
                // A dtype name, or a let decided to be a dtype (one in a
                // cycle is not: check_lets reports the cycle). Else a value:
                // an expression, a sweep, a parameter's value.
                bool const is_dtype = id && (slot < 0 ? names_dtype(lets[i].scope, id->name)
                                                      : next != let_of_slot.end() &&
                                                            state[next->second] == dtype);
                if (is_dtype)
                    make_dtype(i, id->name);
                else
                    state[i] = value;
            }
        }
    };
    classify_sweeps();
    classify_lets();
    // `sweep w = [a, b]` after `let a = fp8`: w is a dtype sweep only now,
    // and a let naming w is then a dtype too.
    if (classify_sweeps()) {
        for (auto& s : state)
            if (s == value) s = open;
        classify_lets();
    }
}

// `--set D=bf16` where the scenario's `let D = 64` is a size: one error at the
// --set, and D kept a value without one, so that its uses say nothing more
// (not "'D' is a dtype, not a value" at each use, nor "unknown axis 'D'").
void Checker::check_override_kinds() {
    auto& aliases = scopes[0].dtype_aliases;
    for (std::size_t i = 0; i < options.overrides.size(); ++i) {
        auto const* set = boost::get<ast::LetStmt>(&options.overrides[i].statement->get());
        auto const& replaced = override_replaced[i];
        auto const* original =
            replaced.statement ? boost::get<ast::LetStmt>(&replaced.statement->get()) : nullptr;
        // A bare name may be a dtype in the scenario too (`let wdt = fp8`).
        if (!set || !original || bare_identifier(original->value) || !aliases.count(set->name.name))
            continue;
        auto const& name = set->name.name;
        auto let = std::find_if(lets.begin(), lets.end(),
                                [&](auto const& pending) { return pending.value == &set->value; });
        if (let == lets.end()) continue;
        int slot = let_slots[static_cast<std::size_t>(let - lets.begin())];
        aliases.erase(name);
        scopes[0].values[name] = slot;
        bad_arguments.push_back(slot);
        auto const* dtype = bare_identifier(set->value);
        diagnostics
            .error(options.overrides[i].file->span_of(set->value),
                   "--set " + name + ": '" + name + "' is a size, not a dtype: it takes a number or "
                   "an expression, not '" + (dtype ? dtype->name : std::string("?")) + "'")
            .notes.push_back(Diagnostics::note(replaced.file->span_of(original->name),
                                                  "'" + name + "' is defined here"));
    }
}

void Checker::check_lets() {
    auto& slots = scenario.slots;
    bad_slot.assign(slots.size(), false);
    for (int slot : dtype_let_slots) bad_slot[static_cast<std::size_t>(slot)] = true;
    std::vector<int> let_of_slot(slots.size(), -1);
    for (std::size_t i = 0; i < let_slots.size(); ++i)
        let_of_slot[static_cast<std::size_t>(let_slots[i])] = static_cast<int>(i);

    for (int slot : bad_arguments) bad_slot[static_cast<std::size_t>(slot)] = true;
    std::vector<std::vector<int>> deps(slots.size());
    for (std::size_t i = 0; i < lets.size(); ++i) {
        auto slot = static_cast<std::size_t>(let_slots[i]);
        auto const& pending = lets[i];
        if (bad_slot[slot]) continue;
        diagnostics.set_context(context_of(pending.scope));
        if (!compile(*pending.file, *pending.value, pending.scope, slots[slot].expr)) {
            bad_slot[slot] = true;
            continue;
        }
        for (auto const& in : slots[slot].expr.code)
            if (in.op == OpCode::slot) deps[slot].push_back(in.slot);
    }
    diagnostics.set_context(nullptr);

    // Depth-first order with cycle detection, iterative so that a chain of
    // 100,000 lets cannot overflow the stack.
    enum Mark : char { unvisited, active, done };
    std::vector<Mark> mark(slots.size(), unvisited);
    std::vector<int> order;
    for (int root : let_slots) {
        if (mark[static_cast<std::size_t>(root)] != unvisited) continue;
        std::vector<std::pair<int, std::size_t>> stack{{root, 0}};
        mark[static_cast<std::size_t>(root)] = active;
        while (!stack.empty()) {
            auto& [slot, next] = stack.back();
            auto const& d = deps[static_cast<std::size_t>(slot)];
            if (next < d.size()) {
                int dep = d[next++];
                auto& m = mark[static_cast<std::size_t>(dep)];
                if (m == unvisited) {
                    m = active;
                    stack.push_back({dep, 0});
                } else if (m == active) {
                    // A cycle: the stack from `dep` to the top.
                    auto start = std::find_if(stack.begin(), stack.end(),
                                              [&](auto const& e) { return e.first == dep; });
                    std::string chain;
                    for (auto it = start; it != stack.end(); ++it) {
                        chain += slots[static_cast<std::size_t>(it->first)].name + " -> ";
                        bad_slot[static_cast<std::size_t>(it->first)] = true;
                    }
                    chain += slots[static_cast<std::size_t>(dep)].name;
                    diagnostics.error(slots[static_cast<std::size_t>(dep)].span,
                                      "'" + slots[static_cast<std::size_t>(dep)].name +
                                          "' depends on itself: " + chain);
                }
            } else {
                mark[static_cast<std::size_t>(slot)] = done;
                order.push_back(slot);
                stack.pop_back();
            }
        }
    }

    // Dependencies first: propagate sweep dependence and badness, evaluate constants.
    auto& values = constant_values;
    values.assign(slots.size(), 0.0);
    for (int s : order) {
        auto slot = static_cast<std::size_t>(s);
        if (let_of_slot[slot] < 0) continue;  // a sweep
        for (int dep : deps[slot]) {
            slots[slot].depends_on |= slots[static_cast<std::size_t>(dep)].depends_on;
            if (bad_slot[static_cast<std::size_t>(dep)]) bad_slot[slot] = true;
        }
        if (bad_slot[slot]) continue;
        if (slots[slot].depends_on != 0) {
            scenario.let_order.push_back(s);
            continue;
        }
        auto result = evaluate(slots[slot].expr, values);
        if (auto const* error = std::get_if<EvalError>(&result)) {
            diagnostics.set_context(context_of(lets[static_cast<std::size_t>(let_of_slot[slot])].scope));
            diagnostics.error(error->span, error->message);
            diagnostics.set_context(nullptr);
            bad_slot[slot] = true;
            continue;
        }
        slots[slot].constant = values[slot] = std::get<double>(result);
    }
    constants_known = true;
}

namespace {

// The error at the sweep whose values take the product of the sweeps past
// the case limit; `values` is its count when known (a list), else 0.
std::string too_many_points(std::string const& name, double before, std::size_t values,
                            std::size_t limit) {
    std::string text = "sweep '" + name + "' takes the sweep points past the limit of " +
                       std::to_string(limit) + " cases: ";
    if (values > 0)
        return text + format_number(before) + " points before it times its " +
               std::to_string(values) + " values";
    return text + "the sweeps before it have " + format_number(before) +
           " points, so it may have at most " +
           format_number(std::floor(static_cast<double>(limit) / before)) + " values";
}

}  // namespace

int Checker::sweep_dtype(ParsedFile const& file, std::string const& sweep,
                         ast::Expression const& item) {
    auto const* id = bare_identifier(item);
    auto found = id ? lookup_dtype(0, id->name) : DtypeLookup{};
    if (found.status == DtypeLookup::Status::found && !found.ref.swept()) return found.ref.dtype;
    std::string what = !id                 ? "a number or an expression"
                       : found.ref.swept() ? "the dtype sweep '" + id->name + "'"
                       : lookup_value(0, id->name) >= 0 ? "the value '" + id->name + "'"
                                                        : "unknown dtype '" + id->name + "'" +
                                                              did_you_mean(id->name, dtype_names());
    diagnostics.error(file.span_of(item), "sweep '" + sweep +
                                              "' lists dtypes, so each of its values must be "
                                              "a dtype, not " + what);
    return -1;
}

void Checker::check_sweeps() {
    if (sweeps.size() > max_sweeps) {
        auto const& extra = sweeps[max_sweeps];
        diagnostics.error(extra.file->span_of(extra.node->name),
                          "more than " + std::to_string(max_sweeps) + " sweeps");
        return;
    }
    // The product of the sweeps so far: a sweep that takes it past the case
    // limit is an error there, before its values are made (64 sweeps of 10^7
    // values would otherwise be built in full first). Past it, the later
    // sweeps are left without values, and without errors.
    double points = 1;
    bool over = false;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        auto const& pending = sweeps[i];
        auto const& file = *pending.file;
        int slot = sweep_of_dtypes[i] ? scopes[0].dtype_aliases.at(pending.node->name.name).sweep_slot
                                      : lookup_value(0, pending.node->name.name);
        Sweep sweep{pending.node->name.name, slot, {}, file.span_of(pending.node->name)};
        bool ok = true;
        if (over) {
            ok = false;
        } else if (auto const* list = boost::get<ast::SweepList>(&pending.node->spec.get())) {
            if (points * static_cast<double>(list->items.size()) >
                static_cast<double>(options.max_points)) {
                diagnostics.error(file.span_of(pending.node->name),
                                  too_many_points(sweep.name, points, list->items.size(),
                                                  options.max_points));
                over = true;
                ok = false;
            }
            sweep.of_dtypes = sweep_of_dtypes[i];
            for (std::size_t k = 0; !over && k < list->items.size(); ++k) {
                if (sweep.of_dtypes) {
                    auto dtype = sweep_dtype(file, sweep.name, list->items[k]);
                    if (dtype >= 0) sweep.values.push_back(dtype);
                    else ok = false;
                    continue;
                }
                auto value = constant(file, list->items[k], 0, "a sweep value");
                if (value) sweep.values.push_back(*value);
                else ok = false;
            }
        } else {
            auto const& range = boost::get<ast::SweepRange>(pending.node->spec.get());
            auto low = constant(file, range.low, 0, "a sweep bound");
            auto high = constant(file, range.high, 0, "a sweep bound");
            std::optional<double> step = 1.0;
            bool geometric = range.step && range.step->kind == "times";
            if (range.step) step = constant(file, range.step->value, 0, "a sweep step");
            if (!low || !high || !step) {
                ok = false;
            } else if (*low > *high) {
                diagnostics.error(file.span_of(range), "empty sweep: " + format_number(*low) +
                                                           " is greater than " + format_number(*high));
                ok = false;
            } else if (geometric && (*step <= 1 || *low <= 0)) {
                diagnostics.error(file.span_of(range.step->value),
                                  *low <= 0 ? "a geometric sweep must start above 0"
                                            : "'times' must be greater than 1, not " +
                                                  format_number(*step));
                ok = false;
            } else if (!geometric && *step <= 0) {
                diagnostics.error(file.span_of(range.step->value),
                                  "'step' must be positive, not " + format_number(*step));
                ok = false;
            } else {
                // Counted from the start (low + k*step), so that no rounding
                // error accumulates over a long sweep.
                double value = *low;
                for (std::size_t k = 1; value <= *high; ++k) {
                    if (sweep.values.size() >= options.max_sweep_points) {
                        diagnostics.error(file.span_of(range),
                                          "sweep '" + sweep.name + "' has more than " +
                                              std::to_string(options.max_sweep_points) + " values");
                        ok = false;
                        break;
                    }
                    if (points * static_cast<double>(sweep.values.size() + 1) >
                        static_cast<double>(options.max_points)) {
                        diagnostics.error(file.span_of(pending.node->name),
                                          too_many_points(sweep.name, points, 0,
                                                          options.max_points));
                        over = true;
                        ok = false;
                        sweep.values.clear();
                        break;
                    }
                    sweep.values.push_back(value);
                    value = geometric ? *low * std::pow(*step, static_cast<double>(k))
                                      : *low + *step * static_cast<double>(k);
                }
            }
        }
        if (!ok) bad_slot[static_cast<std::size_t>(sweep.slot)] = true;
        points *= static_cast<double>(std::max<std::size_t>(1, sweep.values.size()));
        scenario.sweeps.push_back(std::move(sweep));
    }
}

void Checker::check_layer_counts() {
    for (auto const& pending : layers) {
        auto& scope = scopes[static_cast<std::size_t>(pending.inner_scope)];
        double count = 1;
        diagnostics.set_context(context_of(pending.outer_scope));
        double outer = scopes[static_cast<std::size_t>(scope.parent)].count;
        if (pending.count) {
            auto value = constant(*pending.file, *pending.count, pending.outer_scope,
                                  "a layer count");
            auto problem = value ? whole_number_problem(*value) : std::nullopt;
            Span span = pending.file->span_of(*pending.count);
            if (problem) {
                diagnostics.error(span, "layer count must be " + *problem + ", not " +
                                            format_number(*value));
            } else if (value && outer * *value >= axis_size_limit) {
                // The ops inside repeat outer * count times: a count too.
                diagnostics.error(span, "with the counts of the layers around it, this layer "
                                        "repeats " + format_number(outer * *value) +
                                            " times; it must be below " + axis_size_limit_text);
            } else if (value) {
                count = *value;
            }
        }
        // Parents are collected before their children, so this is final.
        scope.count = outer * count;
    }
    diagnostics.set_context(nullptr);
}

}  // namespace roofline::model
