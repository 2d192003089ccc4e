// The order of the passes matters only in that each pass uses names the
// previous ones defined; within a pass, definitions may appear in any order.
#include "checker.hpp"

#include <algorithm>
#include <filesystem>

namespace roofline::model {

std::size_t Scenario::point_count() const {
    // Saturates instead of wrapping: three sweeps of 4M values are 2^66 points.
    std::size_t points = 1;
    for (auto const& sweep : sweeps) {
        std::size_t n = sweep.values.size();
        if (n != 0 && points > SIZE_MAX / n) return SIZE_MAX;
        points *= n;
    }
    return points;
}

int Scenario::find_hardware(std::string_view id) const {
    for (std::size_t i = 0; i < hardware.size(); ++i)
        if (hardware[i].id == id) return static_cast<int>(i);
    return -1;
}

void Checker::define(std::map<std::string, Span>& names, ast::Identifier const& id, Span span,
                     char const* what) {
    auto [it, inserted] = names.emplace(id.name, span);
    if (!inserted) {
        diagnostics.error(span, std::string("redefinition of ") + what + " '" + id.name + "'")
            .notes.push_back(Diagnostics::note(it->second, "previous definition is here"));
    }
}

namespace {

char const* statement_keyword(ast::Statement const& statement) {
    struct Visitor {
        char const* operator()(ast::ScenarioStmt const&) const { return "scenario"; }
        char const* operator()(ast::IncludeStmt const&) const { return "include"; }
        char const* operator()(ast::DtypeStmt const&) const { return "dtype"; }
        char const* operator()(ast::HardwareStmt const&) const { return "hardware"; }
        char const* operator()(ast::TargetStmt const&) const { return "target"; }
        char const* operator()(ast::LetStmt const&) const { return "let"; }
        char const* operator()(ast::SweepStmt const&) const { return "sweep"; }
        char const* operator()(ast::MatmulStmt const&) const { return "matmul"; }
        char const* operator()(ast::ElementwiseStmt const&) const { return "elementwise"; }
        char const* operator()(ast::ResidentStmt const&) const { return "resident"; }
        char const* operator()(ast::TokensStmt const&) const { return "tokens"; }
        char const* operator()(ast::UseStmt const&) const { return "use"; }
        char const* operator()(ast::LayerStmt const&) const { return "layer"; }
        char const* operator()(ast::TemplateStmt const&) const { return "template"; }
    };
    return boost::apply_visitor(Visitor{}, statement.get());
}

}  // namespace

void Checker::collect_statement(ParsedFile const& file, ast::Statement const& statement,
                                int scope) {
    auto const& node = statement.get();
    bool top = scope == 0;
    if (top && !options.overrides.empty()) {
        std::string const* name = nullptr;
        if (auto const* s = boost::get<ast::LetStmt>(&node)) name = &s->name.name;
        if (auto const* s = boost::get<ast::SweepStmt>(&node)) name = &s->name.name;
        for (std::size_t i = 0; name && i < options.overrides.size(); ++i) {
            auto const& o = options.overrides[i];
            if (override_used[i]) continue;
            auto const& replacement = o.statement->get();
            auto const* let = boost::get<ast::LetStmt>(&replacement);
            auto const* sweep = boost::get<ast::SweepStmt>(&replacement);
            if ((let ? let->name.name : sweep->name.name) != *name) continue;
            override_used[i] = true;
            collect_statement(*o.file, *o.statement, 0);
            return;
        }
    }
    if (auto const* s = boost::get<ast::LetStmt>(&node)) {
        if (!define_value(scope, s->name.name, file.span_of(s->name))) return;
        lets.push_back({&file, &s->value, scope});
        let_slots.push_back(scopes[static_cast<std::size_t>(scope)].values.at(s->name.name));
        return;
    }
    if (auto const* s = boost::get<ast::MatmulStmt>(&node)) {
        define(scopes[static_cast<std::size_t>(scope)].ops, s->name, file.span_of(s->name),
               "matmul");
        ops.push_back({&file, s, scope});
        return;
    }
    if (auto const* s = boost::get<ast::ElementwiseStmt>(&node)) {
        define(scopes[static_cast<std::size_t>(scope)].ops, s->name, file.span_of(s->name),
               "elementwise op");
        ops.push_back({&file, s, scope});
        return;
    }
    if (auto const* s = boost::get<ast::ResidentStmt>(&node)) {
        define(scopes[static_cast<std::size_t>(scope)].ops, s->name, file.span_of(s->name),
               "resident");
        residents.push_back({&file, s, scope});
        return;
    }
    if (auto const* s = boost::get<ast::UseStmt>(&node)) {
        instantiate(file, *s, scope);
        return;
    }
    if (top && boost::get<boost::spirit::x3::forward_ast<ast::TemplateStmt>>(&node))
        return;  // collected first, by collect_templates
    if (auto const* f = boost::get<boost::spirit::x3::forward_ast<ast::LayerStmt>>(&node)) {
        ast::LayerStmt const& layer = f->get();
        define(scopes[static_cast<std::size_t>(scope)].layers, layer.name,
               file.span_of(layer.name), "layer");
        Scope inner;
        inner.parent = scope;
        auto const& outer_path = scopes[static_cast<std::size_t>(scope)].path;
        inner.path = outer_path.empty() ? layer.name.name : outer_path + "/" + layer.name.name;
        scopes.push_back(std::move(inner));
        int inner_scope = static_cast<int>(scopes.size() - 1);
        layers.push_back({&file, layer.count ? &*layer.count : nullptr, scope, inner_scope});
        collect_in_layer(file, layer.body, inner_scope);
        return;
    }
    if (!top) {
        // Statements that describe the whole scenario belong at the top level.
        auto span = file.span_of(boost::apply_visitor(
            [](auto const& s) -> boost::spirit::x3::position_tagged const& {
                if constexpr (std::is_base_of_v<boost::spirit::x3::position_tagged,
                                                std::decay_t<decltype(s)>>)
                    return s;
                else
                    return s.get();
            },
            node));
        span.length = static_cast<std::uint32_t>(std::string_view(statement_keyword(statement)).size());
        diagnostics.error(span, std::string("'") + statement_keyword(statement) +
                                    "' is not allowed inside a layer or template");
        return;
    }
    if (auto const* s = boost::get<ast::ScenarioStmt>(&node)) {
        Span span = file.span_of(s->title);
        if (title_span.file) {
            diagnostics.error(span, "the scenario already has a title")
                .notes.push_back(Diagnostics::note(title_span, "previous title is here"));
            return;
        }
        title_span = span;
        scenario.title = s->title.value;
    } else if (auto const* s = boost::get<ast::SweepStmt>(&node)) {
        if (!define_value(0, s->name.name, file.span_of(s->name))) return;
        int sweep_index = static_cast<int>(sweeps.size());
        auto& slot = scenario.slots.back();
        slot.sweep = sweep_index;
        if (sweep_index < 64) slot.depends_on = std::uint64_t{1} << sweep_index;
        sweeps.push_back({&file, s, scope});
    } else if (auto const* s = boost::get<ast::TokensStmt>(&node)) {
        Span span = file.span_of(*s);
        span.length = 6;  // the keyword
        if (tokens.node) {
            Span previous = tokens.file->span_of(*tokens.node);
            previous.length = 6;
            diagnostics.error(span, "the scenario already says how many tokens a step processes")
                .notes.push_back(Diagnostics::note(previous, "previous tokens statement is here"));
            return;
        }
        tokens = {&file, s, 0};
        int slot = static_cast<int>(scenario.slots.size());
        // A slot no expression can name: `tokens` is a keyword.
        scenario.slots.push_back(Slot{"tokens", span, -1, {}, 0, 0});
        scenario.tokens_slot = slot;
        lets.push_back({&file, &s->value, 0});
        let_slots.push_back(slot);
    } else if (auto const* s = boost::get<ast::DtypeStmt>(&node)) {
        dtypes.push_back({&file, s, scope});
    } else if (auto const* s = boost::get<ast::HardwareStmt>(&node)) {
        hardware.push_back({&file, s, scope});
    } else if (auto const* s = boost::get<ast::TargetStmt>(&node)) {
        targets.push_back({&file, s, scope});
    }
    // include statements are expanded by the loader.
}

void Checker::collect_in_layer(ParsedFile const& file, std::vector<ast::Statement> const& body,
                               int scope) {
    for (auto const& statement : body) collect_statement(file, statement, scope);
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

void Checker::collect(std::vector<StatementRef> const& statements) {
    scopes.emplace_back();
    collect_templates(statements);
    override_used.assign(options.overrides.size(), false);
    for (auto const& ref : statements) collect_statement(*ref.file, *ref.statement, 0);
    for (std::size_t i = 0; i < options.overrides.size(); ++i) {
        if (override_used[i]) continue;
        auto const& o = options.overrides[i];
        auto const& node = o.statement->get();
        auto const* let = boost::get<ast::LetStmt>(&node);
        auto const* sweep = boost::get<ast::SweepStmt>(&node);
        std::string name = let ? let->name.name : sweep ? sweep->name.name : std::string("?");
        diagnostics.error(Span{}, "--set " + name + ": the scenario has no top-level let or sweep named '" +
                                      name + "'" + did_you_mean(name, visible_values(0)));
    }
}

Scenario check(Program const& program, CheckOptions const& options, Diagnostics& diagnostics) {
    Checker checker(program, options, diagnostics);
    if (!program.files.empty())
        checker.scenario.title =
            std::filesystem::path(program.files.front()->source->path).filename().string();
    checker.collect(program.statements);
    checker.scenario.template_count = checker.templates.size();
    checker.check_value_arguments();
    checker.check_lets();
    checker.check_dtypes();
    checker.check_dtype_arguments();
    checker.check_sweeps();
    checker.check_layer_counts();
    checker.check_hardware();
    checker.check_targets();
    checker.check_ops();
    checker.check_residents();
    checker.check_tokens();
    if (!diagnostics.has_errors()) checker.warn_unsupported();
    return std::move(checker.scenario);
}

}  // namespace roofline::model
