// The collection pass: every statement, in the order written, into the
// checker's lists (collected statements) and scopes (the names each defines),
// templates expanded and --set overrides applied. A statement of the wrong
// place (a `mesh` inside a layer) is an error here; the values are checked
// by the later passes (check.cpp lists them in order).
#include "checker.hpp"

#include <type_traits>

namespace roofline::model {

namespace {

char const* statement_keyword(ast::Statement const& statement) {
    struct Visitor {
        char const* operator()(ast::ScenarioStmt const&) const { return "scenario"; }
        char const* operator()(ast::IncludeStmt const&) const { return "include"; }
        char const* operator()(ast::DtypeStmt const&) const { return "dtype"; }
        char const* operator()(ast::HardwareStmt const&) const { return "hardware"; }
        char const* operator()(ast::TargetStmt const&) const { return "target"; }
        char const* operator()(ast::AliasStmt const&) const { return "alias"; }
        char const* operator()(ast::LetStmt const&) const { return "let"; }
        char const* operator()(ast::SweepStmt const&) const { return "sweep"; }
        char const* operator()(ast::MatmulStmt const&) const { return "matmul"; }
        char const* operator()(ast::ElementwiseStmt const&) const { return "elementwise"; }
        char const* operator()(ast::ResidentStmt const&) const { return "resident"; }
        char const* operator()(ast::TokensStmt const&) const { return "tokens"; }
        char const* operator()(ast::UseStmt const&) const { return "use"; }
        char const* operator()(ast::LayerStmt const&) const { return "layer"; }
        char const* operator()(ast::TemplateStmt const&) const { return "template"; }
        char const* operator()(ast::MeshStmt const&) const { return "mesh"; }
        char const* operator()(ast::CollectiveStmt const&) const { return "collective"; }
        char const* operator()(ast::SloStmt const&) const { return "slo"; }
        char const* operator()(ast::KernelStmt const&) const { return "kernel"; }
        char const* operator()(ast::RequestStmt const&) const { return "request"; }
        char const* operator()(ast::ServeStmt const&) const { return "serve"; }
        char const* operator()(ast::FleetStmt const&) const { return "fleet"; }
        char const* operator()(ast::CalibrationStmt const&) const { return "calibration"; }
        char const* operator()(ast::WorkloadStmt const& s) const { return boost::apply_visitor(*this, s.get()); }
    };
    return boost::apply_visitor(Visitor{}, statement.get());
}

// The value a --set override replaces: the name of a top-level let or sweep.
// nullptr for every other statement, whatever kinds come (a --set can only
// ever replace a value).
std::string const* overridable_name(ast::Statement const& statement) {
    return boost::apply_visitor(
        [](auto const& node) -> std::string const* {
            using Node = std::decay_t<decltype(node)>;
            if constexpr (std::is_same_v<Node, ast::LetStmt> || std::is_same_v<Node, ast::SweepStmt>)
                return &node.name.name;
            else
                return nullptr;
        },
        statement.get());
}

// Checker::collect_statement for each kind of statement, once --set overrides
// are applied. One overload per kind: a new kind does not compile until it is
// handled here.
struct StatementCollector {
    Checker& checker;
    ParsedFile const& file;
    ast::Statement const& statement;
    int scope;

    Checker::Scope& current() const { return checker.scopes[static_cast<std::size_t>(scope)]; }

    // Statements that describe the whole scenario belong at the top level;
    // elsewhere, an error at the keyword.
    bool at_top_level(boost::spirit::x3::position_tagged const& node) const {
        if (scope == 0) return true;
        auto span = file.span_of(node);
        std::string_view keyword = statement_keyword(statement);
        span.length = static_cast<std::uint32_t>(keyword.size());
        // Appended, not "'" + ...: GCC 12 at -O3 gives a false -Wrestrict
        // for a string literal + a temporary std::string.
        checker.diagnostics.error(
            span, std::string("'").append(keyword).append("' is not allowed inside a layer or template"));
        return false;
    }

    // A statement a scenario has at most once (tokens, mesh, slo): records
    // it in `seen`, or, after the first, an error at its keyword with a note
    // at the first one.
    template <typename Node>
    bool first_of_its_kind(Checker::Pending<Node>& seen, Node const& s, std::string const& keyword,
                           std::string const& message) const {
        auto const length = static_cast<std::uint32_t>(keyword.size());
        Span span = file.span_of(s);
        span.length = length;
        if (seen.node) {
            Span previous = seen.file->span_of(*seen.node);
            previous.length = length;
            checker.diagnostics.error(span, message)
                .notes.push_back(Diagnostics::note(previous, "previous " + keyword + " statement is here"));
            return false;
        }
        seen = {&file, &s, 0};
        return true;
    }

    void operator()(ast::LetStmt const& s) const {
        if (!checker.define_value(scope, s.name.name, file.span_of(s.name))) return;
        checker.let_statements.push_back(checker.lets.size());
        checker.lets.push_back({&file, &s.value, scope});
        checker.let_slots.push_back(current().values.at(s.name.name));
    }

    // The read factors of an op's operands, as hidden values.
    void read_factors(ast::Tensor const& t) const {
        if (t.reads) checker.expression_slots[{&t, scope}] = checker.hidden_slot(file, *t.reads, scope, "x");
    }

    void operator()(ast::MatmulStmt const& s) const {
        checker.define(current().ops, s.name, file.span_of(s.name), "matmul");
        for (auto const* t : {&s.lhs, &s.rhs, &s.out}) read_factors(*t);
        if (s.flops)
            checker.expression_slots[{&s, scope}] = checker.hidden_slot(file, *s.flops, scope, "flops");
        checker.ops.push_back({&file, &s, scope});
    }

    void operator()(ast::ElementwiseStmt const& s) const {
        checker.define(current().ops, s.name, file.span_of(s.name), "elementwise op");
        for (auto const& t : s.inputs) read_factors(t);
        read_factors(s.out);
        if (s.flops)
            checker.expression_slots[{&s, scope}] = checker.hidden_slot(file, *s.flops, scope, "flops");
        checker.ops.push_back({&file, &s, scope});
    }

    void operator()(ast::CollectiveStmt const& s) const {
        checker.define(current().ops, s.name, file.span_of(s.name), "collective");
        read_factors(s.in);
        read_factors(s.out);
        checker.ops.push_back({&file, &s, scope});
    }

    // One mesh per scenario; each axis size is a value like a let's, in a
    // slot no expression can name (mesh axes are not values).
    void operator()(ast::MeshStmt const& s) const {
        if (!at_top_level(s)) return;
        if (!first_of_its_kind(checker.mesh_statement, s, "mesh",
                               "the scenario already has a mesh; list every axis in one mesh statement"))
            return;
        auto& scenario = checker.scenario;
        for (auto const& axis : s.axes) {
            Span name_span = file.span_of(axis.name);
            if (auto it = checker.mesh_index.find(axis.name.name); it != checker.mesh_index.end()) {
                checker.diagnostics.error(name_span, "mesh axis '" + axis.name.name + "' is listed twice")
                    .notes.push_back(Diagnostics::note(
                        scenario.mesh[static_cast<std::size_t>(it->second)].span, "first listed here"));
                continue;
            }
            int slot = static_cast<int>(scenario.slots.size());
            scenario.slots.push_back(Slot{axis.name.name, name_span, -1, {}, 0, 0});
            checker.lets.push_back({&file, &axis.size, 0});
            checker.let_slots.push_back(slot);
            model::Link link = axis.link == "ici"      ? model::Link::ici
                               : axis.link == "nvlink" ? model::Link::nvlink
                                                       : model::Link::dcn;
            model::Topology topology = !axis.topology            ? model::Topology::automatic
                                       : *axis.topology == "ring" ? model::Topology::ring
                                                                  : model::Topology::line;
            if (axis.topology && link != model::Link::ici) {
                // At the word itself, the last of the axis declaration but
                // for a `pipeline` after blanks.
                Span word = file.span_of(axis);
                std::size_t end = word.length;
                if (axis.pipeline) {
                    std::string_view text(file.source->text);
                    end = text.substr(word.offset, word.length - std::string_view("pipeline").size())
                              .find_last_not_of(" \t") + 1;
                }
                auto length = static_cast<std::uint32_t>(axis.topology->size());
                word.offset += static_cast<std::uint32_t>(end) - length;
                word.length = length;
                char const* through =
                    link == model::Link::nvlink ? "an NVLink switch" : "the data-center network";
                checker.diagnostics.error(word, "'" + *axis.topology +
                                                    "' applies to ICI axes only; the chips of '" +
                                                    axis.name.name + "' reach one another through " +
                                                    through);
                topology = model::Topology::automatic;  // still an axis: no error at each use
            }
            checker.mesh_index.emplace(axis.name.name, static_cast<int>(scenario.mesh.size()));
            scenario.mesh.push_back(
                MeshAxis{axis.name.name, slot, link, topology, axis.pipeline, name_span,
                         file.span_of(axis.size)});
        }
    }

    // `slo step <= Q` once; the serve's (`slo ttft_p99 <= 1 s`) any number of times.
    void operator()(ast::SloStmt const& s) const {
        if (!at_top_level(s)) return;
        if (is_serve_measure(s.measure.name))
            checker.serve_slo_statements.push_back({&file, &s, 0});
        else
            first_of_its_kind(checker.slo_statement, s, "slo", "the scenario already has an slo");
    }

    void operator()(ast::WorkloadStmt const& s) const {
        boost::apply_visitor(*this, s.get());
    }

    void operator()(ast::ServeStmt const& s) const {
        if (at_top_level(s)) checker.collect_serve(file, s);
    }

    void operator()(ast::FleetStmt const& s) const {
        if (at_top_level(s))
            first_of_its_kind(checker.fleet_statement, s, "fleet", "the scenario already has a fleet rate");
    }

    // Any number, from any file: a shipped file defines several, and a
    // target picks one (check_calibrations).
    void operator()(ast::CalibrationStmt const& s) const {
        if (at_top_level(s)) checker.calibrations.push_back({&file, &s, scope});
    }

    // A kernel holds ops and the values they use: a resident, a layer or
    // another kernel inside one is an error at its keyword.
    bool outside_kernel(boost::spirit::x3::position_tagged const& node) const {
        if (current().kernel < 0) return true;
        auto span = file.span_of(node);
        std::string_view keyword = statement_keyword(statement);
        span.length = static_cast<std::uint32_t>(keyword.size());
        checker.diagnostics.error(span, std::string("'").append(keyword).append(
                                            "' is not allowed inside a kernel; a kernel holds "
                                            "matmuls, elementwise ops, collectives, lets and uses"));
        return false;
    }

    void operator()(ast::KernelStmt const& k) const {
        if (!outside_kernel(k)) return;
        checker.define(current().ops, k.name, file.span_of(k.name), "kernel");
        if (!checker.nesting_allowed(scope, file.span_of(k.name), "kernel '" + k.name.name + "'"))
            return;
        // The members keep the kernel's layer path: the kernel is the case.
        int inner_scope = checker.open_scope(scope, current().path);
        checker.scopes[static_cast<std::size_t>(inner_scope)].kernel =
            static_cast<int>(checker.kernels.size());
        checker.kernels.push_back({&file, &k, scope, inner_scope});
        checker.layers.push_back({&file, k.count ? &*k.count : nullptr, scope, inner_scope});
        checker.collect_in_layer(file, k.body, inner_scope);
    }

    void operator()(ast::RequestStmt const& r) const {
        if (at_top_level(r)) checker.collect_request(file, r);
    }

    void operator()(ast::ResidentStmt const& s) const {
        if (!outside_kernel(s)) return;
        checker.define(current().ops, s.name, file.span_of(s.name), "resident");
        checker.residents.push_back({&file, &s, scope});
    }

    void operator()(ast::UseStmt const& s) const { checker.instantiate(file, s, scope); }

    void operator()(ast::TemplateStmt const& s) const {
        at_top_level(s);  // collected first, by collect_templates
    }

    void operator()(ast::LayerStmt const& layer) const {
        if (!outside_kernel(layer)) return;
        checker.define(current().layers, layer.name, file.span_of(layer.name), "layer");
        if (!checker.nesting_allowed(scope, file.span_of(layer.name), "layer '" + layer.name.name + "'"))
            return;
        auto const& outer_path = current().path;
        int inner_scope = checker.open_scope(
            scope, outer_path.empty() ? layer.name.name : outer_path + "/" + layer.name.name);
        checker.layers.push_back(
            {&file, layer.count ? &*layer.count : nullptr, scope, inner_scope});
        checker.collect_in_layer(file, layer.body, inner_scope);
    }

    void operator()(ast::ScenarioStmt const& s) const {
        if (!at_top_level(s)) return;
        Span span = file.span_of(s.title);
        if (checker.title_span.file) {
            checker.diagnostics.error(span, "the scenario already has a title")
                .notes.push_back(Diagnostics::note(checker.title_span, "previous title is here"));
            return;
        }
        checker.title_span = span;
        if (!checker.within_limit(s.title.value, max_text_bytes, span, "title")) return;
        checker.scenario.title = s.title.value;
    }

    void operator()(ast::SweepStmt const& s) const {
        if (!at_top_level(s)) return;
        int sweep_index = static_cast<int>(checker.sweeps.size());
        // Each sweep has its bit in Slot::depends_on; bit 63 is a request's step.
        if (checker.sweeps.size() >= max_sweeps) {
            if (!checker.too_many_sweeps)
                checker.diagnostics.error(file.span_of(s.name),
                                          "more than " + std::to_string(max_sweeps) + " sweeps");
            checker.too_many_sweeps = true;  // one error is enough
            return;
        }
        if (!checker.within_limit(s.name.name, max_name_bytes, file.span_of(s.name), "sweep name") ||
            !checker.define_value(0, s.name.name, file.span_of(s.name)))
            return;
        auto& slot = checker.scenario.slots.back();
        slot.sweep = sweep_index;
        if (sweep_index < 64) slot.depends_on = std::uint64_t{1} << sweep_index;
        checker.sweeps.push_back({&file, &s, scope});
        checker.sweep_of_dtypes.push_back(false);
    }

    void operator()(ast::TokensStmt const& s) const {
        if (!at_top_level(s)) return;
        if (!first_of_its_kind(checker.tokens, s, "tokens",
                               "the scenario already says how many tokens a step processes"))
            return;
        Span span = file.span_of(s);
        span.length = 6;  // the keyword
        auto& scenario = checker.scenario;
        int slot = static_cast<int>(scenario.slots.size());
        // A slot no expression can name: `tokens` is a keyword.
        scenario.slots.push_back(Slot{"tokens", span, -1, {}, 0, 0});
        scenario.tokens_slot = slot;
        checker.lets.push_back({&file, &s.value, 0});
        checker.let_slots.push_back(slot);
    }

    void operator()(ast::DtypeStmt const& s) const {
        if (at_top_level(s)) checker.dtypes.push_back({&file, &s, scope});
    }

    void operator()(ast::HardwareStmt const& s) const {
        if (at_top_level(s)) checker.hardware.push_back({&file, &s, scope});
    }

    void operator()(ast::TargetStmt const& s) const {
        if (at_top_level(s)) checker.targets.push_back({&file, &s, scope});
    }

    void operator()(ast::AliasStmt const& s) const {
        if (at_top_level(s)) checker.aliases.push_back({&file, &s, scope});
    }

    void operator()(ast::IncludeStmt const& s) const {
        at_top_level(s);  // expanded by the loader
    }
};

}  // namespace

void Checker::collect_statement(ParsedFile const& file, ast::Statement const& statement,
                                int scope) {
    // A top-level let or sweep named by a --set override is replaced by it,
    // in its place.
    if (scope == 0 && !options.overrides.empty()) {
        std::string const* name = overridable_name(statement);
        for (std::size_t i = 0; name && i < options.overrides.size(); ++i) {
            auto const& o = options.overrides[i];
            if (override_used[i]) continue;
            std::string const* replaced = overridable_name(*o.statement);
            if (!replaced || *replaced != *name) continue;
            override_used[i] = true;
            override_replaced[i] = {&file, &statement};
            collect_statement(*o.file, *o.statement, 0);
            return;
        }
    }
    boost::apply_visitor(StatementCollector{*this, file, statement, scope}, statement.get());
}

void Checker::collect_in_layer(ParsedFile const& file, std::vector<ast::Statement> const& body,
                               int scope) {
    for (auto const& statement : body) collect_statement(file, statement, scope);
}

void Checker::collect(std::vector<StatementRef> const& statements) {
    scopes.emplace_back();
    collect_templates(statements);
    override_used.assign(options.overrides.size(), false);
    override_replaced.assign(options.overrides.size(), {nullptr, nullptr});
    for (auto const& ref : statements) collect_statement(*ref.file, *ref.statement, 0);
    for (std::size_t i = 0; i < options.overrides.size(); ++i) {
        if (override_used[i]) continue;
        auto const& o = options.overrides[i];
        std::string const* overridden = overridable_name(*o.statement);
        std::string name = overridden ? *overridden : std::string("?");
        diagnostics.error(Span{}, "--set " + name + ": the scenario has no top-level let or sweep named '" +
                                      name + "'" + did_you_mean(name, visible_values(0)) +
                                      settable_names());
    }
}

}  // namespace roofline::model
