// The step pass: `tokens` (how many tokens a step processes) and `slo step
// <= Q` (its time limit), both statements at most once per scenario.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

#include <cmath>

namespace roofline::model {

void check_tokens(Context const& context, Pending<ast::TokensStmt> const& statement, int tokens_slot,
                  SlotValues const& values, Constants const& constant) {
    // The value is a let like any other (check_lets); it must be positive at
    // every sweep point, which the engine checks point by point.
    if (!statement.node || tokens_slot < 0 || !values.is_constant(tokens_slot)) return;
    auto& diagnostics = context.diagnostics;
    double tokens = values.slots[static_cast<std::size_t>(tokens_slot)].constant;
    Span at = statement.file->span_of(statement.node->value);
    if (!(tokens > 0))
        diagnostics.error(at, "tokens must be positive, not " + format_number(tokens));
    else if (!tokens_in_range(tokens))
        constant.note_set_by_option(diagnostics.error(at, std::string("tokens must be ") + tokens_range_text +
                                                              ", not " + format_number(tokens)),
                                    *statement.file, statement.node->value);
}

std::optional<double> check_slo(Context const& context, Pending<ast::SloStmt> const& statement,
                                Constants const& constant, bool has_mesh, bool has_tokens,
                                Scenario::SloMeasure& measure) {
    if (!statement.node) return std::nullopt;
    auto& diagnostics = context.diagnostics;
    auto const& file = *statement.file;
    auto const& name = statement.node->measure.name;
    if (name == "step") {
        measure = Scenario::SloMeasure::step;
    } else if (name == "t_upper") {
        measure = Scenario::SloMeasure::t_upper;
    } else if (name == "expected") {
        diagnostics.error(file.span_of(statement.node->measure),
                          "'slo expected' needs calibrated expected times, which this version does "
                          "not have yet; bound 'step' or 't_upper'");
        return std::nullopt;
    } else {
        std::vector<std::string_view> measures = {"step", "t_upper", "expected"};
        diagnostics.error(file.span_of(statement.node->measure),
                          "an slo bounds 'step', 't_upper' or 'expected', not '" + name + "'" +
                              did_you_mean(name, measures));
        return std::nullopt;
    }
    auto const& quantity = statement.node->limit;
    auto value = constant(file, quantity.value, "the slo");
    if (!value) return std::nullopt;
    Span value_span = file.span_of(quantity.value);
    if (!quantity.unit) {
        diagnostics.error(value_span, "the slo is a time: write a unit, e.g. '" +
                                          format_number(*value) + " ms'");
        return std::nullopt;
    }
    auto unit = find_unit(quantity.unit->text);
    if (!unit || unit->family != UnitFamily::seconds) {
        std::vector<std::string_view> times = {"s", "ms", "us", "ns"};
        diagnostics.error(file.span_of(*quantity.unit),
                          "the slo is a time (s, ms, us or ns), not '" + quantity.unit->text + "'" +
                              did_you_mean(quantity.unit->text, times));
        return std::nullopt;
    }
    double seconds = unit->to_base(*value);
    if (!(seconds > 0) || std::isinf(seconds)) {
        diagnostics.error(value_span, "the slo must be positive and finite, not " + format_number(*value));
        return std::nullopt;
    }
    if (auto problem = range_problem(UnitFamily::seconds, seconds)) {
        auto& d = diagnostics.error(value_span, "the slo must be " + *problem);
        constant.note_set_by_option(d, file, quantity.value);
        return std::nullopt;
    }
    // Only the Plan reads it, and there is a Plan only with a mesh and tokens.
    if (!has_mesh || !has_tokens) {
        Span keyword = file.span_of(*statement.node);
        keyword.length = 3;
        diagnostics.warning(keyword, std::string("the slo is read only by the Plan table, which needs ")
                                         .append(!has_mesh ? "a mesh" : "a tokens statement")
                                         .append("; it changes nothing here"));
    }
    return seconds;
}

}  // namespace roofline::model
