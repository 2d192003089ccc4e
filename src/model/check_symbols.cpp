// Names and scopes: a definition checked against those of its scope, a new
// scope, a hidden slot, the limits on text. Used by the collection pass and
// template expansion.
#include "checker.hpp"

#include <algorithm>

namespace roofline::model {

void Checker::define(std::map<std::string, Span>& names, ast::Identifier const& id, Span span,
                     char const* what) {
    auto [it, inserted] = names.emplace(id.name, span);
    if (!inserted) {
        diagnostics.error(span, std::string("redefinition of ") + what + " '" + id.name + "'")
            .notes.push_back(Diagnostics::note(it->second, "previous definition is here"));
    }
}

bool within_limit(Diagnostics& diagnostics, std::string const& text, std::size_t limit, Span span,
                  char const* what) {
    if (text.size() <= limit) return true;
    diagnostics.error(span, std::string(what) + " too long (" + std::to_string(text.size()) +
                                " bytes; at most " + std::to_string(limit) + ")");
    return false;
}

bool Checker::within_limit(std::string const& text, std::size_t limit, Span span, char const* what) {
    return model::within_limit(diagnostics, text, limit, span, what);
}

bool Checker::nesting_allowed(int scope, Span span, std::string const& what) {
    if (scopes[static_cast<std::size_t>(scope)].depth < max_scope_depth) return true;
    diagnostics.error(span, what + " is nested too deeply (more than " +
                                std::to_string(max_scope_depth) +
                                " layers and template instances inside each other)");
    return false;
}

int Checker::open_scope(int outer, std::string path) {
    auto const& parent = scopes[static_cast<std::size_t>(outer)];
    Scope inner;
    inner.parent = outer;
    inner.depth = parent.depth + 1;
    inner.path = std::move(path);
    inner.kernel = parent.kernel;
    inner.request = parent.request;
    inner.phase = parent.phase;
    inner.serve = parent.serve;
    scopes.push_back(std::move(inner));
    return static_cast<int>(scopes.size() - 1);
}

int Checker::hidden_slot(ParsedFile const& file, ast::Expression const& expr, int scope,
                         std::string name) {
    int slot = static_cast<int>(scenario.slots.size());
    scenario.slots.push_back(Slot{std::move(name), file.span_of(expr), -1, {}, 0, 0});
    lets.push_back({&file, &expr, scope});
    let_slots.push_back(slot);
    return slot;
}

bool Checker::define_value(int scope, std::string const& name, Span span) {
    auto& values = scopes[static_cast<std::size_t>(scope)].values;
    if (auto it = values.find(name); it != values.end()) {
        diagnostics.error(span, "redefinition of '" + name + "'")
            .notes.push_back(Diagnostics::note(
                scenario.slots[static_cast<std::size_t>(it->second)].span,
                "previous definition is here"));
        return false;
    }
    values.emplace(name, static_cast<int>(scenario.slots.size()));
    scenario.slots.push_back(Slot{name, span, -1, {}, 0, 0});
    return true;
}

std::string Checker::settable_names() const {
    auto names = visible_values(0);
    if (names.empty()) return "; it has none, so nothing can be set";
    std::sort(names.begin(), names.end());
    // A long list is cut: the did-you-mean has named the likely one already.
    constexpr std::size_t shown = 30;
    std::string text = "; the names that can be set are ";
    for (std::size_t i = 0; i < names.size() && i < shown; ++i)
        text.append(i ? ", " : "").append(names[i]);
    if (names.size() > shown)
        text.append(" and ").append(std::to_string(names.size() - shown)).append(" more");
    return text;
}

}  // namespace roofline::model
