// The kind of each template parameter (value, dtype or mesh axis), from
// where the template's body writes it; the templates a body uses first.
// Expanding the uses is check_templates.cpp.
#include "checker.hpp"

#include "dtypes.hpp"

#include <algorithm>

namespace roofline::model {
namespace x3 = boost::spirit::x3;

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

}  // namespace roofline::model
