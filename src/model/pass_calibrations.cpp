// The calibrations pass: each `calibration NAME for HW { ... }` into a
// model::Calibration, values in seconds and plain fractions, and the one each
// target uses (`target HW with NAME`). docs/language.md, 9.8; the factors'
// meaning is docs/calibration.md's. Unused calibrations are fine: a shipped
// file defines one per engine. A block's settings are
// pass_calibration_settings.cpp's.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"

#include <algorithm>
#include <map>

namespace roofline::model {

namespace {

// The hardware entry a name (an id or an alias) stands for, or -1.
int find_hardware(std::string const& name, std::vector<Hardware> const& chips, HardwareAliases const& aliases) {
    auto alias = aliases.find(name);
    auto const& id = alias == aliases.end() ? name : alias->second;
    for (std::size_t i = 0; i < chips.size(); ++i)
        if (chips[i].id == id) return static_cast<int>(i);
    return -1;
}

}  // namespace

void check_calibrations(Context const& context, std::vector<Pending<ast::CalibrationStmt>> const& statements,
                        std::vector<Pending<ast::TargetStmt>> const& target_statements,
                        std::vector<Pending<ast::HardwareStmt>> const& definitions,
                        std::vector<Pending<ast::AliasStmt>> const& alias_statements,
                        Constants const& constant, Scenario& scenario) {
    auto& diagnostics = context.diagnostics;
    auto const& chips = scenario.hardware;
    auto const& aliases = scenario.hardware_aliases;
    std::vector<std::string_view> hardware_names;
    for (auto const& hw : chips) hardware_names.push_back(hw.id);
    for (auto const& [alias, id] : aliases) hardware_names.push_back(alias);
    // A chip whose definition failed, or an alias that failed, has its own error already.
    auto defined = [&](std::string const& name) {
        return std::any_of(definitions.begin(), definitions.end(),
                           [&](auto const& h) { return h.node->name.name == name; }) ||
               std::any_of(alias_statements.begin(), alias_statements.end(),
                           [&](auto const& a) { return a.node->name.name == name; });
    };

    // Every calibration is kept, even one with errors (the check fails
    // anyway), so that a `with` naming it is not also "unknown".
    std::map<std::string, std::size_t, std::less<>> by_name;
    for (auto const& pending : statements) {
        auto const& node = *pending.node;
        auto const& file = *pending.file;
        Calibration cal;
        cal.name = node.name.name;
        cal.span = file.span_of(node.name);
        if (!within_limit(diagnostics, cal.name, max_name_bytes, cal.span, "calibration name")) continue;
        auto [previous, inserted] = by_name.emplace(cal.name, scenario.calibrations.size());
        if (!inserted) {
            diagnostics.error(cal.span, "redefinition of calibration '" + cal.name + "'")
                .notes.push_back(Diagnostics::note(scenario.calibrations[previous->second].span,
                                                   "previous definition is here"));
            continue;
        }
        auto const& hw = node.hardware.name;
        if (int index = find_hardware(hw, chips, aliases); index >= 0)
            cal.hardware = chips[static_cast<std::size_t>(index)].id;
        else if (!defined(hw))
            diagnostics.error(file.span_of(node.hardware),
                              "unknown hardware '" + hw + "'" + did_you_mean(hw, hardware_names));
        check_calibration_settings(context, constant, scenario, file, node.settings, cal);
        scenario.calibrations.push_back(std::move(cal));
    }

    // `target HW with NAME`: per hardware entry, the calibration and where its
    // `with` named it. The statements say it even under --target, which only
    // picks the chips.
    struct Chosen {
        int calibration;
        Span at;
    };
    std::map<int, Chosen> chosen;
    std::vector<std::string_view> calibration_names;
    for (auto const& cal : scenario.calibrations) calibration_names.push_back(cal.name);
    for (auto const& pending : target_statements) {
        for (auto const& entry : pending.node->names) {
            if (!entry.calibration) continue;
            int hw = find_hardware(entry.name.name, chips, aliases);
            if (hw < 0) continue;  // check_targets reports it
            auto const& name = entry.calibration->name;
            Span at = pending.file->span_of(*entry.calibration);
            auto found = by_name.find(name);
            if (found == by_name.end()) {
                diagnostics.error(at, "unknown calibration '" + name + "'" + did_you_mean(name, calibration_names));
                continue;
            }
            auto const& cal = scenario.calibrations[found->second];
            auto const& id = chips[static_cast<std::size_t>(hw)].id;
            if (cal.hardware.empty()) continue;  // its own hardware is unknown, reported
            if (cal.hardware != id) {
                diagnostics.error(at, "calibration '" + name + "' is for hardware '" + cal.hardware + "', not '" +
                                          id + "'")
                    .notes.push_back(Diagnostics::note(cal.span, "'" + name + "' is defined here"));
                continue;
            }
            int index = static_cast<int>(found->second);
            auto [previous, inserted] = chosen.emplace(hw, Chosen{index, at});
            if (!inserted && previous->second.calibration != index)
                diagnostics
                    .error(at, "target '" + id + "' already has calibration '" +
                                   scenario.calibrations[static_cast<std::size_t>(previous->second.calibration)].name +
                                   "'")
                    .notes.push_back(Diagnostics::note(previous->second.at, "first given here"));
        }
    }
    scenario.target_calibrations.clear();
    for (int t : scenario.targets) {
        auto it = chosen.find(t);
        scenario.target_calibrations.push_back(it == chosen.end() ? -1 : it->second.calibration);
    }
}

}  // namespace roofline::model
