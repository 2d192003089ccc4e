// Templates and their uses. A `use` expands the template's body in a new
// scope, the instance, whose parent is the scope of the use: parameters are
// bound in the instance (values as lets, dtypes and mesh axes as aliases), and
// every other name the body mentions resolves at the use site. The instance is a layer
// named by `as` (default: the template's name) with the use's repeat count.
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

namespace {

// Each name in `e` (a value use), in the order written.
template <typename F>
void for_each_name(ast::Expression const& e, F const& f) {
    struct Walker {
        F const& f;
        void operator()(ast::Number const&) const {}
        void operator()(ast::Identifier const& id) const { f(id); }
        void operator()(x3::forward_ast<ast::Call> const& c) const {
            for (auto const& a : c.get().arguments) (*this)(a);
        }
        void operator()(x3::forward_ast<ast::Unary> const& u) const {
            boost::apply_visitor(*this, u.get().operand.get());
        }
        void operator()(x3::forward_ast<ast::Expression> const& e) const { (*this)(e.get()); }
        void operator()(ast::Expression const& e) const {
            boost::apply_visitor(*this, e.first.get());
            for (auto const& op : e.rest) boost::apply_visitor(*this, op.operand.get());
        }
    };
    Walker{f}(e);
}

}  // namespace

// A parameter is a mesh-axis parameter when the body writes it where a mesh
// axis goes (a shard, `F@ax`, `B@(ax, dp)`; a collective's axis list; a
// mesh-axis argument of a nested use); a dtype parameter when the body writes
// it where a dtype goes (an operand's dtype, `compute`, a dtype argument of a
// nested use) or when its default is a dtype name; otherwise it is a value
// parameter. A parameter used both as a mesh axis and as a value or dtype is
// an error, reported here once per template. The kinds of the templates a
// body uses come first: a depth-first walk over the uses with an explicit
// stack, so that a chain of thousands of templates needs no deep recursion.
std::vector<Checker::ParamKind> const& Checker::parameter_kinds(Template& root) {
    if (root.kinds_state != KindsState::not_inferred)
        return root.kinds;  // inferred, or a cycle (reported on use)

    // The first place the body uses a parameter as each kind.
    struct Uses {
        Span as_mesh_axis, as_dtype, as_value;
    };
    // A template being inferred: the uses in its body (layers included), and
    // how many of them are done.
    struct Frame {
        Template* templ;
        std::vector<ast::UseStmt const*> uses;
        std::size_t next = 0;
        std::vector<Uses> params;
    };
    auto mark = [](Frame& frame, ast::Identifier const& id, ParamKind kind) {
        auto const& params = frame.templ->node->parameters;
        for (std::size_t i = 0; i < params.size(); ++i) {
            if (params[i].name.name != id.name) continue;
            auto& uses = frame.params[i];
            Span& first = kind == ParamKind::mesh_axis ? uses.as_mesh_axis
                          : kind == ParamKind::dtype   ? uses.as_dtype
                                                       : uses.as_value;
            if (!first.file) first = frame.templ->file->span_of(id);
            auto& k = frame.templ->kinds[i];
            if (kind == ParamKind::mesh_axis || (kind == ParamKind::dtype && k == ParamKind::value))
                k = kind;
        }
    };
    // Marks what the body itself says, and lists its uses.
    auto start = [&](Template& templ) {
        templ.kinds_state = KindsState::being_inferred;
        auto const& params = templ.node->parameters;
        templ.kinds.assign(params.size(), ParamKind::value);
        Frame frame{&templ, {}, 0, std::vector<Uses>(params.size())};
        for (std::size_t i = 0; i < params.size(); ++i)
            if (params[i].default_value)
                if (auto const* id = bare_identifier(*params[i].default_value); id && is_dtype_name(id->name))
                    templ.kinds[i] = ParamKind::dtype;
        auto value = [&](ast::Expression const& e) {
            for_each_name(e, [&](ast::Identifier const& id) { mark(frame, id, ParamKind::value); });
        };
        auto tensor = [&](ast::Tensor const& t) {
            mark(frame, t.dtype, ParamKind::dtype);
            for (auto const& dim : t.axes) {
                mark(frame, dim.axis, ParamKind::value);
                for (auto const& shard : dim.shards) mark(frame, shard, ParamKind::mesh_axis);
            }
            if (t.reads) value(*t.reads);
        };
        // Layers nest as deep as brackets do (max_nesting); a stack all the same.
        std::vector<std::vector<ast::Statement> const*> bodies{&templ.node->body};
        while (!bodies.empty()) {
            auto const& body = *bodies.back();
            bodies.pop_back();
            for (auto const& statement : body) {
                auto const& node = statement.get();
                if (auto const* m = boost::get<ast::MatmulStmt>(&node)) {
                    for (auto const* t : {&m->lhs, &m->rhs, &m->out}) tensor(*t);
                    if (m->flops) value(*m->flops);
                    if (m->compute) mark(frame, *m->compute, ParamKind::dtype);
                } else if (auto const* e = boost::get<ast::ElementwiseStmt>(&node)) {
                    for (auto const& t : e->inputs) tensor(t);
                    tensor(e->out);
                    if (e->flops) value(*e->flops);
                    if (e->compute) mark(frame, *e->compute, ParamKind::dtype);
                } else if (auto const* c = boost::get<ast::CollectiveStmt>(&node)) {
                    for (auto const& axis : c->axes) mark(frame, axis, ParamKind::mesh_axis);
                    tensor(c->in);
                    tensor(c->out);
                } else if (auto const* r = boost::get<ast::ResidentStmt>(&node)) {
                    tensor(r->tensor);
                } else if (auto const* let = boost::get<ast::LetStmt>(&node)) {
                    value(let->value);
                } else if (auto const* l = boost::get<x3::forward_ast<ast::LayerStmt>>(&node)) {
                    if (l->get().count) value(*l->get().count);
                    bodies.push_back(&l->get().body);
                } else if (auto const* u = boost::get<ast::UseStmt>(&node)) {
                    if (u->count) value(*u->count);
                    frame.uses.push_back(u);
                } else if (auto const* k = boost::get<x3::forward_ast<ast::KernelStmt>>(&node)) {
                    if (k->get().count) value(*k->get().count);
                    bodies.push_back(&k->get().body);
                }
            }
        }
        return frame;
    };
    // Once a body is done: a parameter that is a mesh axis in one place and
    // a value or dtype in another is an error at the other place.
    auto finish = [&](Frame const& frame) {
        auto& templ = *frame.templ;
        templ.kinds_state = KindsState::inferred;
        auto const& params = templ.node->parameters;
        for (std::size_t i = 0; i < params.size(); ++i) {
            auto const& uses = frame.params[i];
            if (!uses.as_mesh_axis.file) continue;
            for (auto const& [other, what] :
                 {std::pair<Span const*, char const*>{&uses.as_value, "a value"},
                  std::pair<Span const*, char const*>{&uses.as_dtype, "a dtype"}}) {
                if (!other->file) continue;
                auto& error = diagnostics.error(
                    *other, "parameter '" + params[i].name.name + "' of template '" +
                                templ.node->name.name + "' is used here as " + what +
                                " and elsewhere as a mesh axis; a parameter is one or the other");
                error.notes.push_back(Diagnostics::note(uses.as_mesh_axis, "used as a mesh axis here"));
                error.notes.push_back(note_at_parameter(templ, i));
                templ.kinds_conflict = true;
            }
        }
    };

    std::vector<Frame> stack{start(root)};
    while (!stack.empty()) {
        auto& frame = stack.back();
        if (frame.next == frame.uses.size()) {
            finish(frame);
            stack.pop_back();
            continue;
        }
        auto const& use = *frame.uses[frame.next];
        auto callee = templates.find(use.name.name);
        if (callee == templates.end()) {
            ++frame.next;
            continue;
        }
        Template& used = callee->second;
        if (used.kinds_state == KindsState::not_inferred) {
            stack.push_back(start(used));  // this use again once its kinds are known
            continue;
        }
        // A parameter of the callee given one of ours: ours is used as the
        // callee's kind. (In a cycle, the callee's kinds are as far as they got.)
        auto const& callee_params = used.node->parameters;
        for (auto const& arg : use.arguments) {
            auto const* id = bare_identifier(arg.value);
            for (std::size_t i = 0; i < callee_params.size() && i < used.kinds.size(); ++i) {
                if (callee_params[i].name.name != arg.name.name) continue;
                if (used.kinds[i] == ParamKind::value)
                    for_each_name(arg.value, [&](ast::Identifier const& name) {
                        mark(frame, name, ParamKind::value);
                    });
                else if (id)
                    mark(frame, *id, used.kinds[i]);
            }
        }
        ++frame.next;
    }
    return root.kinds;
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
