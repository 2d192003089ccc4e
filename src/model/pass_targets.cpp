// The targets pass: which chips the scenario is evaluated on.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"

#include <algorithm>

namespace roofline::model {

std::vector<int> check_targets(Context const& context,
                               std::vector<Pending<ast::HardwareStmt>> const& definitions,
                               std::vector<Pending<ast::AliasStmt>> const& alias_statements,
                               std::vector<Pending<ast::TargetStmt>> const& statements,
                               std::vector<Hardware> const& chips, HardwareAliases const& aliases) {
    auto& diagnostics = context.diagnostics;
    std::vector<int> targets;
    std::vector<std::string_view> names;
    for (auto const& hw : chips) names.push_back(hw.id);
    for (auto const& [alias, id] : aliases) names.push_back(alias);
    // An alias names its entry: `target b200, b200_sxm` is one target.
    auto find = [&](std::string const& name) {
        auto alias = aliases.find(name);
        auto const& id = alias == aliases.end() ? name : alias->second;
        for (std::size_t i = 0; i < chips.size(); ++i)
            if (chips[i].id == id) return static_cast<int>(i);
        return -1;
    };
    auto add = [&](int index) {
        if (std::find(targets.begin(), targets.end(), index) == targets.end()) targets.push_back(index);
    };
    // A chip whose definition failed, or an alias that failed, has its own error already.
    auto defined = [&](std::string const& name) {
        return std::any_of(definitions.begin(), definitions.end(),
                           [&](auto const& h) { return h.node->name.name == name; }) ||
               std::any_of(alias_statements.begin(), alias_statements.end(),
                           [&](auto const& a) { return a.node->name.name == name; });
    };
    if (!context.options.targets.empty()) {
        for (auto const& name : context.options.targets) {
            int index = find(name);
            if (index < 0 && !defined(name))
                diagnostics.error(Span{}, "unknown hardware '" + name + "' in --target" +
                                              did_you_mean(name, names));
            else if (index >= 0)
                add(index);
        }
        return targets;
    }
    for (auto const& pending : statements) {
        for (auto const& entry : pending.node->names) {
            auto const& id = entry.name;  // its `with` is check_calibrations'
            int index = find(id.name);
            if (index >= 0) {
                add(index);
            } else if (!defined(id.name)) {
                diagnostics.error(pending.file->span_of(id), "unknown hardware '" + id.name + "'" +
                                                                 did_you_mean(id.name, names));
            }
        }
    }
    if (statements.empty())
        for (std::size_t i = 0; i < chips.size(); ++i) add(static_cast<int>(i));
    return targets;
}

}  // namespace roofline::model
