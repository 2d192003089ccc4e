// The aliases pass: `alias NAME = HW` makes NAME another name for a hardware
// entry (docs/language.md, section 3.5), so that the names other tools give a
// chip (the measured data's `b200_sxm`) reach the catalog's entry.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/model/limits.hpp"

#include <algorithm>
#include <set>

namespace roofline::model {

HardwareAliases check_aliases(Context const& context,
                              std::vector<Pending<ast::HardwareStmt>> const& definitions,
                              std::vector<Pending<ast::AliasStmt>> const& aliases) {
    auto& diagnostics = context.diagnostics;
    std::map<std::string, std::size_t, std::less<>> hardware_at;  // name -> its first definition
    for (std::size_t i = 0; i < definitions.size(); ++i)
        hardware_at.emplace(definitions[i].node->name.name, i);

    // Each alias name once, and never a hardware's name: a name is one chip.
    std::map<std::string, std::size_t, std::less<>> alias_at;  // name -> its alias statement
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        auto const& alias = aliases[i];
        auto const& name = alias.node->name.name;
        Span span = alias.file->span_of(alias.node->name);
        if (!within_limit(diagnostics, name, max_name_bytes, span, "alias name")) continue;
        if (auto hw = hardware_at.find(name); hw != hardware_at.end()) {
            auto const& first = definitions[hw->second];
            diagnostics.error(span, "redefinition of hardware '" + name + "' as an alias")
                .notes.push_back(Diagnostics::note(first.file->span_of(first.node->name),
                                                   "previous definition is here"));
            continue;
        }
        auto [previous, inserted] = alias_at.emplace(name, i);
        if (!inserted) {
            auto const& first = aliases[previous->second];
            diagnostics.error(span, "redefinition of alias '" + name + "'")
                .notes.push_back(Diagnostics::note(first.file->span_of(first.node->name),
                                                   "previous definition is here"));
        }
    }
    std::vector<std::string_view> names;  // for "did you mean": the hardware, then the aliases
    for (auto const& [name, index] : hardware_at) names.push_back(name);
    for (auto const& [name, index] : alias_at) names.push_back(name);

    // Each alias followed, through other aliases, to a hardware entry. A chain
    // that ends nowhere (an unknown name, a cycle) is reported once, where it
    // goes wrong; every alias on it fails quietly.
    HardwareAliases resolved;
    std::set<std::string, std::less<>> failed;
    for (std::size_t start = 0; start < aliases.size(); ++start) {
        auto first = alias_at.find(aliases[start].node->name.name);
        if (first == alias_at.end() || first->second != start) continue;  // reported above
        std::vector<std::size_t> chain;  // the aliases followed from `start`, in order
        std::string entry;               // the hardware reached; empty: none
        for (std::size_t at = start;;) {
            auto const& name = aliases[at].node->name.name;
            if (auto done = resolved.find(name); done != resolved.end()) {
                entry = done->second;
                break;
            }
            if (failed.count(name)) break;
            if (auto seen = std::find(chain.begin(), chain.end(), at); seen != chain.end()) {
                std::string cycle;
                for (auto it = seen; it != chain.end(); ++it)
                    cycle.append(aliases[*it].node->name.name).append(" -> ");
                cycle.append(name);
                auto const& last = aliases[chain.back()];
                diagnostics.error(last.file->span_of(last.node->hardware),
                                  "aliases form a cycle: " + cycle);
                break;
            }
            chain.push_back(at);
            auto const& target = aliases[at].node->hardware;
            if (hardware_at.count(target.name)) {
                entry = target.name;
                break;
            }
            auto next = alias_at.find(target.name);
            if (next == alias_at.end()) {
                diagnostics.error(aliases[at].file->span_of(target),
                                  "unknown hardware '" + target.name + "'" +
                                      did_you_mean(target.name, names));
                break;
            }
            at = next->second;
        }
        for (auto k : chain) {
            auto const& name = aliases[k].node->name.name;
            if (entry.empty()) failed.insert(name);
            else resolved.emplace(name, entry);
        }
    }
    return resolved;
}

}  // namespace roofline::model
