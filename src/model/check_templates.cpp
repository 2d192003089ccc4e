// Templates and their uses. A `use` expands the template's body in a new
// scope, the instance, whose parent is the scope of the use: parameters are
// bound in the instance (values as lets, dtypes and mesh axes as aliases), and
// every other name the body mentions resolves at the use site. The instance is a layer
// named by `as` (default: the template's name) with the use's repeat count.
// Each parameter's kind (value, dtype, mesh axis) is check_template_kinds.cpp's.
#include "checker.hpp"

#include "dtypes.hpp"

#include <algorithm>

namespace roofline::model {
namespace x3 = boost::spirit::x3;

ast::Identifier const* bare_identifier(ast::Expression const& e) {
    if (!e.rest.empty()) return nullptr;
    return boost::get<ast::Identifier>(&e.first.get());
}

void Checker::collect_templates(std::vector<StatementRef> const& statements) {
    for (auto const& ref : statements) {
        auto const& node = ref.statement->get();
        if (auto const* d = boost::get<ast::DtypeStmt>(&node)) declared_dtypes.insert(d->name.name);
        auto const* f = boost::get<x3::forward_ast<ast::TemplateStmt>>(&node);
        if (!f) continue;
        ast::TemplateStmt const& templ = f->get();
        Span span = ref.file->span_of(templ.name);
        auto [it, inserted] = templates.emplace(
            templ.name.name, Template{ref.file, &templ, {}, KindsState::not_inferred});
        if (!inserted) {
            diagnostics.error(span, "redefinition of template '" + templ.name.name + "'")
                .notes.push_back(Diagnostics::note(
                    it->second.file->span_of(it->second.node->name), "previous definition is here"));
            continue;
        }
        auto const& params = templ.parameters;
        for (std::size_t i = 0; i < params.size(); ++i) {
            for (std::size_t k = 0; k < i; ++k) {
                if (params[k].name.name != params[i].name.name) continue;
                diagnostics.error(ref.file->span_of(params[i].name),
                                  "parameter '" + params[i].name.name + "' appears twice")
                    .notes.push_back(Diagnostics::note(ref.file->span_of(params[k].name),
                                                       "previous definition is here"));
                break;
            }
        }
    }
}

bool Checker::is_dtype_name(std::string const& name) const {
    for (auto const& builtin : builtin_dtypes())
        if (builtin.name == name) return true;
    return declared_dtypes.count(name) > 0;
}

std::optional<InstanceContext> Checker::instance_context(int scope) const {
    std::vector<int> instances;  // innermost first
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent)
        if (scopes[static_cast<std::size_t>(s)].use.file) instances.push_back(s);
    if (instances.empty()) return std::nullopt;
    auto const& inner = scopes[static_cast<std::size_t>(instances.front())];
    auto const& outer = scopes[static_cast<std::size_t>(instances.back())];
    InstanceContext context;
    context.use = outer.use;
    context.instance = instances.back();
    context.prefix = "in layer '" + outer.path + "', an instance of template '" +
                     outer.template_name + "': ";
    context.here = "here, in template '" + inner.template_name + "'";
    if (instances.size() > 1) context.here += " (layer '" + inner.path + "')";
    // The uses between, innermost first, each where its template uses the next.
    for (std::size_t i = 0; i + 1 < instances.size(); ++i) {
        auto const& sc = scopes[static_cast<std::size_t>(instances[i])];
        auto const& parent = scopes[static_cast<std::size_t>(instances[i + 1])];
        context.notes.push_back(Diagnostics::note(
            sc.use, "template '" + parent.template_name + "' uses '" + sc.template_name + "' here"));
    }
    for (int s : instances)
        if (auto values = instance_values(s); !values.empty())
            context.notes.push_back(Diagnostics::note(Span{}, values));
    return context;
}

std::string Checker::instance_values(int scope) const {
    if (!constants_known) return "";
    auto const& sc = scopes[static_cast<std::size_t>(scope)];
    auto templ = templates.find(sc.template_name);
    if (templ == templates.end()) return "";
    std::string values;
    for (auto const& param : templ->second.node->parameters) {
        if (sc.mesh_aliases.count(param.name.name)) {
            auto found = lookup_mesh(scope, param.name.name);
            if (found.status == MeshLookup::Status::found)
                values += (values.empty() ? "" : ", ") + param.name.name + " = " +
                          scenario.mesh[static_cast<std::size_t>(found.axis)].name;
            continue;
        }
        auto it = sc.values.find(param.name.name);
        if (it == sc.values.end()) continue;  // a dtype parameter
        auto slot = static_cast<std::size_t>(it->second);
        auto const& value = scenario.slots[slot];
        if (bad_slot[slot] || value.depends_on != 0) continue;  // swept: no one value
        values += (values.empty() ? "" : ", ") + param.name.name + " = " + format_number(value.constant);
    }
    if (values.empty()) return "";
    return "'" + sc.template_name + "' (layer '" + sc.path + "') got " + values;
}

bool Checker::is_dtype_parameter(int scope, std::string const& name) const {
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent)
        if (scopes[static_cast<std::size_t>(s)].dtype_aliases.count(name)) return true;
    return false;
}

Diagnostic Checker::note_at_parameter(Template const& templ, std::size_t parameter) const {
    auto const& p = templ.node->parameters[parameter];
    return Diagnostics::note(templ.file->span_of(p.name),
                             "parameter '" + p.name.name + "' of template '" +
                                 templ.node->name.name + "' is declared here");
}

void Checker::instantiate(ParsedFile const& file, ast::UseStmt const& use, int scope) {
    Span use_span = file.span_of(use.name);
    auto const& name = use.name.name;
    auto found = templates.find(name);
    if (found == templates.end()) {
        std::vector<std::string_view> names;
        for (auto const& [n, t] : templates) names.push_back(n);
        diagnostics.error(use_span, "unknown template '" + name + "'" + did_you_mean(name, names));
        return;
    }
    Template& templ = found->second;
    Span template_span = templ.file->span_of(templ.node->name);
    if (std::find(instantiating.begin(), instantiating.end(), name) != instantiating.end()) {
        std::string chain;
        auto first = std::find(instantiating.begin(), instantiating.end(), name);
        for (auto it = first; it != instantiating.end(); ++it) chain += *it + " -> ";
        diagnostics.error(use_span, "template '" + name + "' uses itself: " + chain + name);
        return;
    }
    if (!nesting_allowed(scope, use_span, "the instance of template '" + name + "'")) return;
    if (++instance_count > max_instances) {
        if (instance_count == max_instances + 1)
            diagnostics.error(use_span, "more than " + std::to_string(max_instances) +
                                            " template instances; is a template used in a loop?");
        return;
    }

    auto const& kinds = parameter_kinds(templ);
    auto const& params = templ.node->parameters;
    std::vector<ast::Argument const*> given(params.size(), nullptr);
    bool ok = true;
    for (auto const& arg : use.arguments) {
        auto const& arg_name = arg.name.name;
        auto p = std::find_if(params.begin(), params.end(),
                              [&](ast::Parameter const& q) { return q.name.name == arg_name; });
        Span span = file.span_of(arg.name);
        if (p == params.end()) {
            std::vector<std::string_view> names;
            for (auto const& q : params) names.push_back(q.name.name);
            diagnostics.error(span, "template '" + name + "' has no parameter '" + arg_name + "'" +
                                        did_you_mean(arg_name, names))
                .notes.push_back(Diagnostics::note(template_span,
                                                   "template '" + name + "' is defined here"));
            ok = false;
            continue;
        }
        auto i = static_cast<std::size_t>(p - params.begin());
        if (given[i]) {
            diagnostics.error(span, "argument '" + arg_name + "' is given twice")
                .notes.push_back(Diagnostics::note(file.span_of(given[i]->name),
                                                   "previous argument is here"));
            ok = false;
            continue;
        }
        given[i] = &arg;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (given[i] || params[i].default_value) continue;
        diagnostics.error(use_span, "missing argument '" + params[i].name.name + "' for template '" +
                                        name + "'")
            .notes.push_back(note_at_parameter(templ, i));
        ok = false;
    }
    // An instance with unknown arguments, or of a template whose parameters
    // have no one kind, would only repeat errors.
    if (!ok || templ.kinds_conflict) return;

    ast::Identifier const& layer_name = use.alias ? *use.alias : use.name;
    define(scopes[static_cast<std::size_t>(scope)].layers, layer_name, file.span_of(layer_name),
           "layer");
    auto const& outer_path = scopes[static_cast<std::size_t>(scope)].path;
    int instance = open_scope(scope, outer_path.empty() ? layer_name.name
                                                        : outer_path + "/" + layer_name.name);
    scopes[static_cast<std::size_t>(instance)].use = use_span;
    scopes[static_cast<std::size_t>(instance)].template_name = name;
    layers.push_back({&file, use.count ? &*use.count : nullptr, scope, instance});

    for (std::size_t i = 0; i < params.size(); ++i) {
        auto const& param = params[i];
        ParsedFile const* source = given[i] ? &file : templ.file;
        ast::Expression const& value = given[i] ? given[i]->value : *param.default_value;
        int where = given[i] ? scope : instance;  // defaults may use earlier parameters
        auto const* id = bare_identifier(value);
        if (kinds[i] == ParamKind::mesh_axis) {
            // A default that names its own parameter (`tp = tp`) cannot mean
            // itself: it names the mesh axis seen where the template is used.
            if (!given[i] && id && id->name == param.name.name) where = scope;
            scopes[static_cast<std::size_t>(instance)].mesh_aliases[param.name.name] =
                MeshAlias{id ? id->name : std::string(), where, id != nullptr};
            mesh_arguments.push_back({source, &value, where, &templ, i, instance});
            continue;
        }
        if (kinds[i] == ParamKind::dtype) {
            scopes[static_cast<std::size_t>(instance)].dtype_aliases[param.name.name] =
                DtypeAlias{id ? id->name : std::string(), where, id != nullptr};
            dtype_arguments.push_back({source, &value, where, &templ, i, instance});
            continue;
        }
        Span param_span = templ.file->span_of(param.name);
        if (!define_value(instance, param.name.name, param_span)) continue;
        int slot = scopes[static_cast<std::size_t>(instance)].values.at(param.name.name);
        lets.push_back({source, &value, where});
        let_slots.push_back(slot);
        if (id) value_arguments.push_back({source, id, where, &templ, i, slot});
    }

    instantiating.push_back(name);
    collect_in_layer(*templ.file, templ.node->body, instance);
    instantiating.pop_back();
}

}  // namespace roofline::model
