// Hardware (with `extends` and unit-checked fields); the dtype lookups.
#include "checker.hpp"
#include "plausible.hpp"

#include "roofline/model/hardware_fields.hpp"
#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::model {

int Checker::lookup_dtype(std::string const& name) const {
    for (std::size_t i = 0; i < scenario.dtypes.size(); ++i)
        if (scenario.dtypes[i].name == name) return static_cast<int>(i);
    return unknown_dtype;
}

std::vector<std::string_view> Checker::dtype_names() const {
    std::vector<std::string_view> names;
    for (auto const& d : scenario.dtypes) names.push_back(d.name);
    return names;
}

void Checker::check_hardware() {
    auto& list = scenario.hardware;
    std::map<std::string, std::size_t> index;  // id -> pending index
    for (std::size_t i = 0; i < hardware.size(); ++i) {
        auto const& h = hardware[i];
        auto [it, inserted] = index.emplace(h.node->name.name, i);
        if (!inserted) {
            auto const& first = hardware[it->second];
            diagnostics.error(h.file->span_of(h.node->name),
                              "redefinition of hardware '" + h.node->name.name + "'")
                .notes.push_back(Diagnostics::note(first.file->span_of(first.node->name),
                                                   "previous definition is here"));
        }
    }
    std::vector<std::string_view> names;  // in definition order, then the aliases, for "did you mean"
    for (auto const& h : hardware) names.push_back(h.node->name.name);
    for (auto const& [alias, id] : scenario.hardware_aliases) names.push_back(alias);
    // `extends ALIAS` extends the entry the alias names.
    auto base_of = [&](ast::HardwareStmt const& stmt) -> std::string const& {
        auto alias = scenario.hardware_aliases.find(stmt.base->name);
        return alias == scenario.hardware_aliases.end() ? stmt.base->name : alias->second;
    };
    auto failed_alias = [&](std::string const& name) {
        return std::any_of(aliases.begin(), aliases.end(),
                           [&](auto const& a) { return a.node->name.name == name; });
    };

    // Resolved in dependency order (a base before the chips that extend it),
    // whatever the order in the files, without recursion: the chain of bases
    // is followed first, then built from its root.
    // resolved[i]: the index in `list` of hardware[i] once resolved, or one of these.
    constexpr int not_resolved = -2, resolving = -3, failed = -1;
    std::vector<int> resolved(hardware.size(), not_resolved);
    std::vector<int> bases(hardware.size(), 0);  // how many definitions a resolved chip extends
    // Builds hardware[i] on the resolved base list[base] (none: -1). Returns
    // the index in `list`, or failed.
    auto build = [&](std::size_t i, int base) -> int {
        auto const& pending = hardware[i];
        auto const& stmt = *pending.node;
        auto const& file = *pending.file;
        Hardware hw;
        if (stmt.base) {
            auto base_index = index.at(base_of(stmt));
            bases[i] = bases[base_index] + 1;
            if (bases[i] > max_extends) {
                diagnostics.error(file.span_of(*stmt.base),
                                  "hardware '" + stmt.name.name + "' extends a chain of more than " +
                                      std::to_string(max_extends) + " hardware definitions");
                return failed;
            }
            hw = list[static_cast<std::size_t>(base)];
            hw.base = base_of(stmt);
            hw.display_name.clear();
        }
        hw.id = stmt.name.name;
        hw.span = file.span_of(stmt.name);
        bool ok = within_limit(hw.id, max_name_bytes, hw.span, "hardware identifier");
        WrittenFields written;
        std::map<std::string, Span> seen;
        for (auto const& field : stmt.fields) {
            Span key_span = file.span_of(field.key);
            auto const* spec = find_hardware_field(field.key.name);
            if (!spec || !spec->settable) {
                std::vector<std::string_view> fields;
                for (auto const& f : hardware_fields())
                    if (f.settable) fields.push_back(f.name);
                diagnostics.error(key_span, "unknown hardware field '" + field.key.name + "'" +
                                                did_you_mean(field.key.name, fields));
                ok = false;
                continue;
            }
            std::string key = field.key.name;
            int dtype = -1;
            if (spec->kind == FieldKind::per_dtype) {
                if (!field.qualifier) {
                    diagnostics.error(key_span, "'peak' needs a dtype, as in 'peak bf16 = ...'");
                    ok = false;
                    continue;
                }
                dtype = lookup_dtype(field.qualifier->name);
                if (dtype < 0) {
                    diagnostics.error(file.span_of(*field.qualifier),
                                      "unknown dtype '" + field.qualifier->name + "'" +
                                          did_you_mean(field.qualifier->name, dtype_names()));
                    ok = false;
                    continue;
                }
                key += " " + field.qualifier->name;
            } else if (field.qualifier) {
                diagnostics.error(file.span_of(*field.qualifier),
                                  "expected '=' after '" + field.key.name + "'");
                ok = false;
                continue;
            }
            auto [previous, inserted] = seen.emplace(key, key_span);
            if (!inserted) {
                diagnostics.error(key_span, "field '" + key + "' is set twice")
                    .notes.push_back(Diagnostics::note(previous->second, "previous value is here"));
                ok = false;
                continue;
            }
            auto const* text = boost::get<ast::String>(&field.value.get());
            bool const is_string = spec->kind == FieldKind::text;
            if (is_string != (text != nullptr)) {
                char const* wanted = is_string                        ? "a string"
                                     : spec->kind == FieldKind::count ? "a number, not a string"
                                                                      : "a quantity, not a string";
                diagnostics.error(key_span, "field '" + key + "' takes " + wanted);
                ok = false;
                continue;
            }
            if (text) {
                // The table's names are literals: data() ends in a '\0'.
                ok = within_limit(text->value, spec->max_bytes, file.span_of(*text),
                                  spec->name.data()) &&
                     ok;
                set_field_text(hw, *spec, text->value);
                continue;
            }
            auto const& quantity = boost::get<ast::Quantity>(field.value.get());
            auto value = constant(file, quantity.value, 0, "a hardware field");
            if (!value) {
                ok = false;
                continue;
            }
            Span value_span = file.span_of(quantity.value);
            if (spec->kind == FieldKind::count) {
                // A number of chips: no unit, a positive integer.
                if (quantity.unit) {
                    diagnostics.error(file.span_of(*quantity.unit),
                                      "'" + key + "' is a number of chips and takes no unit, not '" +
                                          quantity.unit->text + "'");
                    ok = false;
                    continue;
                }
                if (auto problem = whole_number_problem(*value)) {
                    diagnostics.error(value_span, "'" + key + "' must be " + *problem + ", not " +
                                                      format_number(*value));
                    ok = false;
                    continue;
                }
                set_field_number(hw, *spec, *value);
                continue;
            }
            // A bare number would be read in base units (`hbm_capacity = 80`
            // as 80 bytes): every quantity names its unit.
            if (!quantity.unit) {
                std::vector<std::string> units;
                for (auto unit : unit_names(spec->family)) units.emplace_back(unit);
                auto& d = diagnostics.error(value_span, "'" + key + "' needs a unit of " +
                                                            std::string(family_name(spec->family)) +
                                                            " (" + joined(units, " or ") +
                                                            "), not a bare " + format_number(*value));
                note_set_by_option(d, file, quantity.value, 0);
                ok = false;
                continue;
            }
            Span unit_span = file.span_of(*quantity.unit);
            auto unit = find_unit(quantity.unit->text);
            if (!unit) {
                diagnostics.error(unit_span, "unknown unit '" + quantity.unit->text + "'" +
                                                 did_you_mean(quantity.unit->text, unit_names()));
                ok = false;
                continue;
            }
            if (unit->family != spec->family) {
                diagnostics.error(unit_span, "'" + key + "' is in " +
                                                 std::string(family_name(spec->family)) +
                                                 ", but '" + quantity.unit->text + "' is in " +
                                                 std::string(family_name(unit->family)));
                ok = false;
                continue;
            }
            double base_value = unit->to_base(*value);
            if (!(base_value > 0) || std::isinf(base_value)) {
                diagnostics.error(value_span, "'" + key + "' must be positive and finite, not " +
                                      format_number(base_value));
                ok = false;
                continue;
            }
            if (auto problem = range_problem(spec->family, base_value)) {
                auto& d = diagnostics.error(value_span, "'" + key + "' must be " + *problem);
                note_set_by_option(d, file, quantity.value, 0);
                ok = false;
                continue;
            }
            if (spec->name == "hbm_bandwidth") written.hbm_bandwidth = value_span;
            if (spec->name == "hbm_capacity") written.hbm_capacity = value_span;
            if (spec->name == "onchip_capacity") written.onchip_capacity = value_span;
            if (spec->kind != FieldKind::per_dtype) {
                set_field_number(hw, *spec, base_value);
                continue;
            }
            // The peak, per dtype: an inherited one is replaced in place.
            written.peaks.push_back({dtype, value_span});
            auto existing = std::find_if(hw.peaks.begin(), hw.peaks.end(),
                                         [&](Peak const& p) { return p.dtype == dtype; });
            if (existing != hw.peaks.end()) existing->flops_per_s = base_value;
            else hw.peaks.push_back(Peak{dtype, base_value});
        }
        if (ok && hw.hbm_bytes_per_s <= 0) {
            diagnostics.error(hw.span, "hardware '" + hw.id + "' has no 'hbm_bandwidth'");
            ok = false;
        }
        if (!ok) return failed;
        warn_implausible(hw, written, scenario.dtypes, diagnostics);
        if (hw.display_name.empty()) hw.display_name = hw.id;
        list.push_back(std::move(hw));
        return static_cast<int>(list.size() - 1);
    };
    // Resolves hardware[start] and the bases it needs.
    auto resolve = [&](std::size_t start) {
        std::vector<std::size_t> chain;  // start, its base, the base's base, ...: not yet resolved
        int root_base = -1;              // what the last of the chain extends: list index or failed
        for (std::size_t i = start;;) {
            resolved[i] = resolving;
            chain.push_back(i);
            auto const& stmt = *hardware[i].node;
            if (!stmt.base) break;
            Span base_span = hardware[i].file->span_of(*stmt.base);
            auto it = index.find(base_of(stmt));
            if (it == index.end()) {
                // An alias that failed has its own error.
                if (!failed_alias(stmt.base->name))
                    diagnostics.error(base_span, "unknown hardware '" + stmt.base->name + "'" +
                                                     did_you_mean(stmt.base->name, names));
                root_base = failed;
                break;
            }
            if (resolved[it->second] == resolving) {
                diagnostics.error(base_span, "hardware '" + stmt.name.name +
                                                 "' extends itself through '" + stmt.base->name + "'");
                root_base = failed;
                break;
            }
            if (resolved[it->second] != not_resolved) {
                root_base = resolved[it->second];
                break;
            }
            i = it->second;
        }
        // From the root: each chip on the one it extends; a failure fails
        // every chip that extends it, quietly.
        int base = root_base;
        for (auto k = chain.size(); k-- > 0;) {
            std::size_t i = chain[k];
            bool extends = hardware[i].node->base.has_value();
            resolved[i] = extends && base == failed ? failed : build(i, extends ? base : -1);
            base = resolved[i];
        }
    };
    for (std::size_t i = 0; i < hardware.size(); ++i)
        if (index[hardware[i].node->name.name] == i && resolved[i] == not_resolved) resolve(i);
    // Definition order, not resolution order, for reports.
    std::vector<Hardware> ordered;
    for (std::size_t i = 0; i < hardware.size(); ++i)
        if (resolved[i] >= 0) ordered.push_back(list[static_cast<std::size_t>(resolved[i])]);
    list = std::move(ordered);
}

}  // namespace roofline::model
