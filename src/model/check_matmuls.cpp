// Ops: matmuls, elementwise ops and resident declarations. Dtypes (through
// the dtype parameters of template instances), named axes resolved in the
// op's scope, the rules of each kind, the compute dtype, constant axis sizes.
#include "checker.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::model {
namespace {

// Resolves the operands of one op into its axis list.
struct OperandResolver {
    Checker& checker;
    ParsedFile const& file;
    int scope;
    std::vector<Axis>& axes;
    bool ok = true;
    bool of_collective = false;  // its own rule for on-chip operands

    DtypeRef dtype(ast::Identifier const& id) {
        auto found = checker.lookup_dtype(scope, id.name);
        if (found.status == Checker::DtypeLookup::Status::wrong_argument) {
            ok = false;  // a dtype argument already reported
        } else if (found.status == Checker::DtypeLookup::Status::unknown) {
            checker.diagnostics.error(file.span_of(id),
                                      checker.lookup_value(scope, id.name) >= 0
                                          ? "'" + id.name + "' is a value, not a dtype"
                                          : "unknown dtype '" + id.name + "'" +
                                                did_you_mean(id.name, checker.dtype_names()));
            ok = false;
        }
        return found.ref;
    }

    // An axis not seen in an earlier operand is looked up, or, when `unseen`
    // is given, an error: `unseen` with {} standing for the axis name.
    void tensor(ast::Tensor const& t, Tensor& out, std::string_view unseen = {}) {
        out.span = file.span_of(t);
        out.dtype = dtype(t.dtype);
        if (t.role) out.role = *t.role == "weight" ? Role::weight : *t.role == "cache" ? Role::cache : Role::expert;
        out.onchip = t.onchip;
        if (t.reads) out.reads_slot = checker.expression_slot(&t, scope);
        onchip_rules(t, out);
        if (!checker.resolve_shards(file, scope, t, out)) ok = false;
        for (std::size_t i = 0; i < t.axes.size(); ++i) {
            auto const& id = t.axes[i].axis;
            Span span = file.span_of(id);
            for (std::size_t k = 0; k < i; ++k) {
                if (t.axes[k].axis.name == id.name) {
                    checker.diagnostics.error(span, "axis '" + id.name + "' appears twice in one operand");
                    ok = false;
                }
            }
            auto existing = std::find_if(axes.begin(), axes.end(),
                                         [&](Axis const& a) { return a.name == id.name; });
            if (existing != axes.end()) {
                out.axes.push_back(static_cast<int>(existing - axes.begin()));
                continue;
            }
            if (!unseen.empty()) {
                auto at = unseen.find("{}");
                checker.diagnostics.error(span, std::string(unseen.substr(0, at)) + id.name +
                                                    std::string(unseen.substr(at + 2)));
                ok = false;
                continue;
            }
            axes.push_back(axis(id, span));
            out.axes.push_back(static_cast<int>(axes.size() - 1));
        }
    }

    Axis axis(ast::Identifier const& id, Span span) {
        int slot = checker.lookup_value(scope, id.name);
        if (slot < 0) {
            checker.diagnostics.error(
                span, checker.is_mesh_name(scope, id.name)
                          ? "'" + id.name + "' is a mesh axis, not a value; a dimension is "
                                            "split over it with '@', e.g. 'D@" + id.name + "'"
                          : "unknown axis '" + id.name + "'" +
                                did_you_mean(id.name, checker.visible_values(scope)));
            ok = false;
            // Still an axis of the op, so that the output does not repeat the
            // error as "appears in neither input".
            return Axis{id.name, -1, span};
        }
        auto const& value = checker.scenario.slots[static_cast<std::size_t>(slot)];
        if (!checker.bad_slot[static_cast<std::size_t>(slot)]) {
            if (auto problem = value.depends_on == 0 ? whole_number_problem(value.constant)
                                                     : std::nullopt) {
                auto& d = checker.diagnostics.error(
                    span, "axis '" + id.name + "' must be " + *problem + ", but " + value.name +
                              " = " + format_number(value.constant) + quotient_rule(value));
                Checker::note_set_by_option(d, value);
                ok = false;
            } else if (value.sweep >= 0) {
                for (double v : checker.scenario.sweeps[static_cast<std::size_t>(value.sweep)].values) {
                    auto bad = whole_number_problem(v);
                    if (!bad) continue;
                    auto& d = checker.diagnostics.error(span, "axis '" + id.name + "' must be " +
                                                                  *bad + ", but sweep " + value.name +
                                                                  " takes the value " +
                                                                  format_number(v));
                    Checker::note_set_by_option(d, value);
                    ok = false;
                    break;
                }
            }
        }
        return Axis{id.name, slot, span};
    }

    // ": G = H / KV, so H = 28 must be a multiple of KV = 5": a size that is
    // the quotient of two named constants (query heads per key/value head)
    // gives the rule; "" for any other expression.
    std::string quotient_rule(Slot const& value) const {
        auto const& code = value.expr.code;
        if (code.size() != 3 || code[0].op != OpCode::slot || code[1].op != OpCode::slot ||
            code[2].op != OpCode::div)
            return "";
        auto const& a = checker.scenario.slots[static_cast<std::size_t>(code[0].slot)];
        auto const& b = checker.scenario.slots[static_cast<std::size_t>(code[1].slot)];
        if (a.depends_on != 0 || b.depends_on != 0) return "";
        return ": " + value.name + " = " + a.name + " / " + b.name + ", so " + a.name + " = " +
               format_number(a.constant) + " must be a multiple of " + b.name + " = " +
               format_number(b.constant);
    }

    // An on-chip activation lives inside a kernel, passed from one member to
    // the next; a weight or a cache may live on chip anywhere (prefetched
    // into VMEM). A read factor is a constant or a value, counted once.
    void onchip_rules(ast::Tensor const& t, Tensor const& out) {
        if (t.onchip && !t.role && !of_collective &&
            checker.scopes[static_cast<std::size_t>(scope)].kernel < 0) {
            Span span = file.span_of(t);
            span.length = 6;  // `onchip`
            checker.diagnostics.error(span, "an activation is on chip only inside a kernel, where one "
                                            "member writes it and a later one reads it; put this op in a "
                                            "kernel block with the op at the other end, or drop 'onchip'");
            ok = false;
        }
        if (out.reads_slot < 0) return;
        auto slot = static_cast<std::size_t>(out.reads_slot);
        auto const& value = checker.scenario.slots[slot];
        if (checker.bad_slot[slot] || value.depends_on != 0) return;
        if (auto problem = whole_number_problem(value.constant)) {
            checker.diagnostics.error(value.span, "a read factor must be " + *problem + ", not " +
                                                      format_number(value.constant));
            ok = false;
        }
    }

    // An output is written once, to HBM or on chip: no read factor.
    void written_once(ast::Tensor const& t) {
        if (!t.reads) return;
        checker.diagnostics.error(file.span_of(*t.reads),
                                  "an output is written once; a read factor ('x ...') goes after an input");
        ok = false;
    }

    // Weights and caches are read, never produced by an op of the step.
    void no_role(ast::Tensor const& t) {
        written_once(t);
        if (!t.role) return;
        Span span = file.span_of(t);
        span.length = static_cast<std::uint32_t>(t.role->size());
        checker.diagnostics.error(span, "an output cannot be marked '" + *t.role +
                                            "'; mark the operand that reads it");
        ok = false;
    }
};

Op new_op(Checker::Scope const& scope, ast::Identifier const& name, ParsedFile const& file) {
    Op op;
    op.name = name.name;
    op.layer = scope.path;
    op.count = scope.count;
    op.span = file.span_of(name);
    return op;
}

}  // namespace

void Checker::check_ops() {
    // One overload per kind of op: a new kind does not compile until it is checked.
    struct Dispatch {
        Checker& checker;
        PendingOp const& pending;
        void operator()(ast::MatmulStmt const* stmt) const { checker.check_matmul(pending, *stmt); }
        void operator()(ast::ElementwiseStmt const* stmt) const {
            checker.check_elementwise(pending, *stmt);
        }
        void operator()(ast::CollectiveStmt const* stmt) const {
            checker.check_collective(pending, *stmt);
        }
    };
    std::vector<int> scope_of;  // of each op built, parallel to scenario.ops
    std::vector<bool> incomplete(kernels.size(), false);
    for (auto const& pending : ops) {
        diagnostics.set_context(context_of(pending.scope));
        std::size_t before = scenario.ops.size();
        std::visit(Dispatch{*this, pending}, pending.node);
        int kernel = scopes[static_cast<std::size_t>(pending.scope)].kernel;
        if (scenario.ops.size() == before && kernel >= 0) incomplete[static_cast<std::size_t>(kernel)] = true;
        scope_of.resize(scenario.ops.size(), pending.scope);
    }
    diagnostics.set_context(nullptr);
    std::vector<Op> built = std::move(scenario.ops);
    scenario.ops.clear();
    assemble_ops(built, scope_of, incomplete);
}

// `flops EXPR`: a constant, checked here; or a value of the sweeps, checked
// by the engine at each point.
bool Checker::flops_clause(ParsedFile const& file, void const* stmt, ast::Expression const& expr,
                           int scope, Op& op) {
    int slot = expression_slot(stmt, scope);
    if (slot < 0 || bad_slot[static_cast<std::size_t>(slot)]) return false;
    auto const& value = scenario.slots[static_cast<std::size_t>(slot)];
    double k = value.constant;
    if (value.depends_on != 0) {
        op.flops_per_point = 1;
        op.flops_slot = slot;
    } else if (!(k >= 0)) {
        diagnostics.error(file.span_of(expr), "the FLOPs per element must be 0 or more, not " + format_number(k));
        return false;
    } else if (k > max_flops_per_element) {
        diagnostics.error(file.span_of(expr), "the FLOPs per element must be at most 1048576 (2^20), not " +
                                                  format_number(k));
        return false;
    } else {
        op.flops_per_point = k;
    }
    return true;
}

// `overlapped` on an op that implies no collective changes nothing.
void Checker::warn_nothing_overlapped(Op const& op) {
    if (op.overlapped && op.collectives.empty())
        diagnostics.warning(op.span, "'" + op.name +
                                         "' is written overlapped, but it has no collective to overlap");
}

void Checker::check_matmul(PendingOp const& pending, ast::MatmulStmt const& stmt) {
    auto const& file = *pending.file;
    Op matmul = new_op(scopes[static_cast<std::size_t>(pending.scope)], stmt.name, file);
    OperandResolver resolve{*this, file, pending.scope, matmul.axes};
    matmul.inputs.resize(2);
    resolve.tensor(stmt.lhs, matmul.inputs[0]);
    resolve.tensor(stmt.rhs, matmul.inputs[1]);
    resolve.no_role(stmt.out);
    resolve.tensor(stmt.out, matmul.out, "output axis '{}' appears in neither input");
    if (stmt.flops && !flops_clause(file, &stmt, *stmt.flops, pending.scope, matmul)) resolve.ok = false;
    if (stmt.compute) matmul.compute_written = resolve.dtype(*stmt.compute);
    matmul.overlapped = stmt.overlapped;
    if (resolve.ok && plan_matmul(matmul)) {
        warn_nothing_overlapped(matmul);
        scenario.ops.push_back(std::move(matmul));
    }
}

void Checker::check_elementwise(PendingOp const& pending, ast::ElementwiseStmt const& stmt) {
    auto const& file = *pending.file;
    Op op = new_op(scopes[static_cast<std::size_t>(pending.scope)], stmt.name, file);
    op.kind = OpKind::elementwise;
    op.flops_per_point = 1;
    OperandResolver resolve{*this, file, pending.scope, op.axes};
    // The output first, so that the op's axes are the output's axes (the
    // FLOPs are K per output element); an input axis must be one of them.
    resolve.no_role(stmt.out);
    resolve.tensor(stmt.out, op.out);
    op.inputs.resize(stmt.inputs.size());
    for (std::size_t i = 0; i < stmt.inputs.size(); ++i)
        resolve.tensor(stmt.inputs[i], op.inputs[i],
                       "axis '{}' is not an axis of the output; an elementwise op reads "
                       "its inputs element by element");
    if (stmt.flops && !flops_clause(file, &stmt, *stmt.flops, pending.scope, op)) resolve.ok = false;
    if (stmt.compute) op.compute_written = resolve.dtype(*stmt.compute);
    op.overlapped = stmt.overlapped;
    if (resolve.ok && plan_elementwise(op)) {
        warn_nothing_overlapped(op);
        scenario.ops.push_back(std::move(op));
    }
}

void Checker::check_collective(PendingOp const& pending, ast::CollectiveStmt const& stmt) {
    auto const& file = *pending.file;
    Op op = new_op(scopes[static_cast<std::size_t>(pending.scope)], stmt.name, file);
    op.kind = OpKind::collective;
    op.flops_per_point = 0;
    OperandResolver resolve{*this, file, pending.scope, op.axes};
    resolve.of_collective = true;
    op.inputs.resize(1);
    resolve.tensor(stmt.in, op.inputs[0]);
    resolve.no_role(stmt.out);
    resolve.tensor(stmt.out, op.out, "output axis '{}' is not an axis of the input");
    for (auto const* t : {&stmt.in, &stmt.out})
        if (t->onchip || t->reads) {
            diagnostics.error(file.span_of(*t), "a collective moves its operands over the network "
                                                "from and to HBM, once; they cannot be 'onchip' or have a read factor");
            resolve.ok = false;
        }
    if (resolve.ok && plan_collective(op, stmt, file, pending.scope)) scenario.ops.push_back(std::move(op));
}

void Checker::check_residents() {
    for (auto const& pending : residents) {
        diagnostics.set_context(context_of(pending.scope));
        auto const& stmt = *pending.node;
        auto const& file = *pending.file;
        auto const& scope = scopes[static_cast<std::size_t>(pending.scope)];
        Resident r{stmt.name.name, scope.path, scope.count, {}, {}, file.span_of(stmt.name)};
        OperandResolver resolve{*this, file, pending.scope, r.axes};
        if (!stmt.tensor.role || *stmt.tensor.role == "expert") {
            diagnostics.error(file.span_of(stmt.tensor),
                              "a resident tensor is a weight or a cache: write 'weight " +
                                  stmt.tensor.dtype.name + "[...]' or 'cache " +
                                  stmt.tensor.dtype.name + "[...]'");
            resolve.ok = false;
        }
        resolve.tensor(stmt.tensor, r.tensor);
        r.tensor.local = r.tensor.shards;  // held at its own sharding
        if (stmt.tensor.reads) {
            diagnostics.error(file.span_of(*stmt.tensor.reads),
                              "a resident tensor is memory held, not read: a read factor ('x ...') "
                              "goes after an op's input");
            resolve.ok = false;
        }
        if (!resolve.ok) continue;
        residents_of_scope(pending.scope).push_back(std::move(r));
    }
    diagnostics.set_context(nullptr);
}

}  // namespace roofline::model
