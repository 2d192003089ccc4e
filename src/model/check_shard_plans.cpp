// How each op's computation is split over the mesh (docs/multichip.md): the
// book's four cases for a matmul, alike splits for an elementwise op, and
// the consistency of a `collective`; each sets the op's compute splits and
// the collectives it performs.
#include "checker.hpp"

#include <algorithm>

namespace roofline::model {
namespace {

Shards const no_shards;

// The shards of dimension `i` of `t` (empty when `t` is not sharded).
Shards const& shards_at(Tensor const& t, std::size_t i) {
    return t.shards.empty() ? no_shards : t.shards[i];
}

// The shards of op axis `axis` in `t`, or nullptr when `t` lacks the axis.
Shards const* shards_of(Tensor const& t, int axis) {
    for (std::size_t i = 0; i < t.axes.size(); ++i)
        if (t.axes[i] == axis) return &shards_at(t, i);
    return nullptr;
}

Span dim_span(Tensor const& t, int axis) {
    for (std::size_t i = 0; i < t.axes.size() && i < t.dim_spans.size(); ++i)
        if (t.axes[i] == axis) return t.dim_spans[i];
    return t.span;
}

bool has(Shards const& s, int mesh_axis) { return std::find(s.begin(), s.end(), mesh_axis) != s.end(); }

bool is_prefix(Shards const& prefix, Shards const& of) {
    return prefix.size() <= of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

Shards common_prefix(Shards const& a, Shards const& b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return Shards(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
}

Shards without(Shards const& s, Shards const& removed) {
    Shards kept;
    for (int m : s)
        if (!has(removed, m)) kept.push_back(m);
    return kept;
}

void add_unique(Shards& to, Shards const& from) {
    for (int m : from)
        if (!has(to, m)) to.push_back(m);
}

// `X`, `(X, Y)`; "nothing" for no axis.
std::string shards_text(Scenario const& s, Shards const& shards) {
    if (shards.empty()) return "nothing";
    std::string text = shards.size() > 1 ? "(" : "";
    for (std::size_t i = 0; i < shards.size(); ++i)
        text.append(i ? ", " : "").append(s.mesh[static_cast<std::size_t>(shards[i])].name);
    return shards.size() > 1 ? text + ")" : text;
}

// `bf16[B@X, D]`, with each dimension's shards as given.
std::string tensor_text(Scenario const& s, Op const& op, Tensor const& t,
                        std::vector<Shards> const& shards) {
    std::string text = t.dtype.swept() ? s.slots[static_cast<std::size_t>(t.dtype.slot)].name
                                       : s.dtypes[static_cast<std::size_t>(t.dtype.dtype)].name;
    text += "[";
    for (std::size_t i = 0; i < t.axes.size(); ++i) {
        text.append(i ? ", " : "").append(op.axes[static_cast<std::size_t>(t.axes[i])].name);
        if (i < shards.size() && !shards[i].empty()) text.append("@").append(shards_text(s, shards[i]));
    }
    return text + "]";
}

std::vector<Shards> all_shards(Tensor const& t) {
    std::vector<Shards> out(t.axes.size());
    for (std::size_t i = 0; i < t.axes.size(); ++i) out[i] = shards_at(t, i);
    return out;
}

// Each dimension of `t` at the computation's sharding.
std::vector<Shards> at_compute(Tensor const& t, std::vector<Shards> const& compute) {
    std::vector<Shards> out;
    for (int a : t.axes) out.push_back(compute[static_cast<std::size_t>(a)]);
    return out;
}

bool any_sharded(Op const& op) {
    if (!op.out.shards.empty()) return true;
    return std::any_of(op.inputs.begin(), op.inputs.end(),
                       [](Tensor const& t) { return !t.shards.empty(); });
}

}  // namespace


// The book's cases (sharding.md; multichip.md section 3):
// - a dimension in both inputs (a contraction or a batch dimension) is split
//   over the axes both inputs split it over alike (the common prefix); each
//   input AllGathers the rest first (Case 2);
// - a dimension in one input keeps that input's split;
// - a contraction split over X leaves partial sums: an AllReduce over X, or a
//   ReduceScatter where the output splits a dimension over X (Case 3);
// - the output may split a dimension further (a local slice, unless the axis
//   holds partial sums) or less (an AllGather of the output);
// - a mesh axis splits at most one dimension of the computation (Case 4 is
//   two inputs splitting two different dimensions over one axis).
bool Checker::plan_matmul(Op& op) {
    if (!any_sharded(op)) return true;
    auto const& lhs = op.inputs[0];
    auto const& rhs = op.inputs[1];
    std::size_t n = op.axes.size();
    std::vector<Shards> compute(n);
    std::vector<Shards> gathered(2);  // per input: the mesh axes it AllGathers first
    for (std::size_t a = 0; a < n; ++a) {
        int axis = static_cast<int>(a);
        auto const* l = shards_of(lhs, axis);
        auto const* r = shards_of(rhs, axis);
        if (l && r) {
            compute[a] = common_prefix(*l, *r);
            add_unique(gathered[0], Shards(l->begin() + static_cast<std::ptrdiff_t>(compute[a].size()), l->end()));
            add_unique(gathered[1], Shards(r->begin() + static_cast<std::ptrdiff_t>(compute[a].size()), r->end()));
        } else {
            compute[a] = l ? *l : r ? *r : Shards{};
        }
    }
    Shards partial;  // mesh axes that split a contraction: partial sums
    for (std::size_t a = 0; a < n; ++a)
        if (!shards_of(op.out, static_cast<int>(a))) add_unique(partial, compute[a]);

    Shards scattered, dropped;
    std::vector<Shards> scattered_by_dim(op.out.axes.size());
    for (std::size_t i = 0; i < op.out.axes.size(); ++i) {
        auto a = static_cast<std::size_t>(op.out.axes[i]);
        auto const& wanted = shards_at(op.out, i);
        auto& c = compute[a];
        if (wanted == c) continue;
        if (is_prefix(wanted, c)) {
            add_unique(dropped, Shards(c.begin() + static_cast<std::ptrdiff_t>(wanted.size()), c.end()));
            continue;
        }
        if (is_prefix(c, wanted)) {
            Shards added(wanted.begin() + static_cast<std::ptrdiff_t>(c.size()), wanted.end());
            std::size_t in_partial = 0;
            for (int m : added) in_partial += has(partial, m);
            if (in_partial == added.size()) {
                add_unique(scattered, added);
                scattered_by_dim[i] = added;
                continue;
            }
            if (in_partial == 0) {
                c = wanted;  // a slice taken before the multiply
                continue;
            }
        }
        diagnostics.error(op.out.dim_spans.empty() ? op.out.span : op.out.dim_spans[i],
                          "the output splits '" + op.axes[a].name + "' over " +
                              shards_text(scenario, wanted) + ", but the inputs split it over " +
                              shards_text(scenario, c) +
                              "; reshard with a collective statement, or split the output "
                              "as the inputs do");
        return false;
    }

    // Case 4, and any other mesh axis that would split two dimensions.
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b) {
            for (int m : compute[b]) {
                if (!has(compute[a], m)) continue;
                auto const& mesh_name = scenario.mesh[static_cast<std::size_t>(m)].name;
                // Split over m in `t` only (not in the other input, nor by
                // the output alone: a slice the output adds is no case 4).
                auto split_in_only = [&](Tensor const& t, Tensor const& other, std::size_t axis) {
                    auto const* here = shards_of(t, static_cast<int>(axis));
                    return here && has(*here, m) && !shards_of(other, static_cast<int>(axis));
                };
                bool a_in_lhs_only = split_in_only(lhs, rhs, a);
                bool b_in_rhs_only = split_in_only(rhs, lhs, b);
                bool b_in_lhs_only = split_in_only(lhs, rhs, b);
                bool a_in_rhs_only = split_in_only(rhs, lhs, a);
                if ((a_in_lhs_only && b_in_rhs_only) || (b_in_lhs_only && a_in_rhs_only)) {
                    // b, the later axis, is split in the second input of the two.
                    Tensor const& second = a_in_rhs_only ? lhs : rhs;
                    auto fixed = all_shards(second);
                    for (auto& s : fixed) s = without(s, Shards{m});
                    diagnostics.error(dim_span(second, static_cast<int>(b)),
                                      "mesh axis '" + mesh_name + "' splits '" + op.axes[a].name +
                                          "' of one input and '" + op.axes[b].name +
                                          "' of the other: the book's case 4, which cannot "
                                          "proceed; gather one of them first, e.g. write " +
                                          tensor_text(scenario, op, second, fixed));
                } else {
                    // Else the output added a split over m (a slice) to a
                    // dimension other than the one the inputs split: there.
                    Span span = op.out.span;
                    for (std::size_t i = 0; i < op.out.axes.size() && i < op.out.dim_spans.size(); ++i)
                        if (has(shards_at(op.out, i), m)) span = op.out.dim_spans[i];
                    diagnostics.error(span, "mesh axis '" + mesh_name + "' would split both '" +
                                                op.axes[a].name + "' and '" + op.axes[b].name +
                                                "' of this matmul's computation; split the output "
                                                "as the inputs do, or reshard with a collective "
                                                "statement");
                }
                return false;
            }
        }
    }

    // The collectives, in the order they run.
    for (std::size_t t = 0; t < 2; ++t) {
        if (gathered[t].empty()) continue;
        auto volume = all_shards(op.inputs[t]);
        for (auto& s : volume) s = without(s, gathered[t]);
        op.collectives.push_back({CollectiveKind::allgather, gathered[t], static_cast<int>(t), volume});
    }
    auto before_reduction = at_compute(op.out, compute);
    if (!scattered.empty())
        op.collectives.push_back({CollectiveKind::reducescatter, scattered, -1, before_reduction});
    if (Shards reduced = without(partial, scattered); !reduced.empty()) {
        auto volume = before_reduction;
        for (std::size_t i = 0; i < volume.size(); ++i) add_unique(volume[i], scattered_by_dim[i]);
        op.collectives.push_back({CollectiveKind::allreduce, reduced, -1, volume});
    }
    if (!dropped.empty())
        op.collectives.push_back({CollectiveKind::allgather, dropped, -1, all_shards(op.out)});

    for (auto* t : {&op.inputs[0], &op.inputs[1], &op.out}) t->local = at_compute(*t, compute);
    op.compute_shards = std::move(compute);
    return true;
}

// Elementwise ops work element by element: every operand is split alike.
bool Checker::plan_elementwise(Op& op) {
    if (!any_sharded(op)) return true;
    bool ok = true;
    for (auto& input : op.inputs) {
        for (std::size_t i = 0; i < input.axes.size(); ++i) {
            auto const& here = shards_at(input, i);
            auto const& there = *shards_of(op.out, input.axes[i]);
            if (here == there) continue;
            auto const& name = op.axes[static_cast<std::size_t>(input.axes[i])].name;
            diagnostics.error(input.dim_spans.empty() ? input.span : input.dim_spans[i],
                              "'" + name + "' is split over " + shards_text(scenario, here) +
                                  " here but over " + shards_text(scenario, there) +
                                  " in the output; an elementwise op works element by element, "
                                  "so its operands are split alike");
            ok = false;
        }
    }
    if (!ok) return false;
    op.compute_shards.assign(op.axes.size(), {});
    for (std::size_t i = 0; i < op.out.axes.size(); ++i)
        op.compute_shards[static_cast<std::size_t>(op.out.axes[i])] = shards_at(op.out, i);
    for (auto& input : op.inputs) input.local = all_shards(input);
    op.out.local = all_shards(op.out);
    return true;
}

bool Checker::plan_collective(Op& op, ast::CollectiveStmt const& stmt, ParsedFile const& file,
                              int scope) {
    auto const* info = find_collective(stmt.kind.name);
    if (!info) {
        std::vector<std::string_view> names;
        for (auto const& c : collective_table) names.push_back(c.name);
        auto hint = did_you_mean(stmt.kind.name, names);
        if (hint.empty()) hint = std::string("; the collectives are ").append(collective_names());
        diagnostics.error(file.span_of(stmt.kind), "unknown collective '" + stmt.kind.name + "'" + hint);
        return false;
    }
    Shards over;
    for (auto const& id : stmt.axes) {
        auto found = lookup_mesh(scope, id.name);
        if (found.status != MeshLookup::Status::found) {
            if (found.status == MeshLookup::Status::unknown)
                diagnostics.error(file.span_of(id), unknown_mesh_axis(scope, id.name));
            return false;
        }
        if (has(over, found.axis)) {
            diagnostics.error(file.span_of(id),
                              "mesh axis '" + scenario.mesh[static_cast<std::size_t>(found.axis)].name +
                                  "' is listed twice");
            return false;
        }
        over.push_back(found.axis);
    }
    auto& in = op.inputs[0];
    auto& out = op.out;
    if (in.axes != out.axes) {
        diagnostics.error(out.span, std::string("a collective's output has the input's dimensions, in the "
                                                "same order: ")
                                        .append(tensor_text(scenario, op, in, {}))
                                        .append(" with other splits"));
        return false;
    }
    // A collective moves bytes; converting them is another op's work.
    if (in.dtype.dtype != out.dtype.dtype || in.dtype.slot != out.dtype.slot) {
        diagnostics.error(out.span, "a collective's output has the input's dtype: " +
                                        tensor_text(scenario, op, in, all_shards(out)));
        return false;
    }
    auto in_shards = all_shards(in), out_shards = all_shards(out);
    auto kind = info->kind;
    std::string head = std::string(info->name) + "(" + shards_text(scenario, over) + ") of " +
                       tensor_text(scenario, op, in, in_shards);
    auto fail = [&](std::string const& message) {
        diagnostics.error(out.span, message);
        return false;
    };
    auto count_in = [&](std::vector<Shards> const& dims, int m) {
        return std::count_if(dims.begin(), dims.end(), [&](Shards const& s) { return has(s, m); });
    };
    switch (kind) {
        case CollectiveKind::allgather: {
            auto expected = in_shards;
            for (auto& s : expected) s = without(s, over);
            for (int m : over)
                if (!count_in(in_shards, m))
                    return fail(head + ": the input is not split over '" +
                                scenario.mesh[static_cast<std::size_t>(m)].name + "', so there is nothing to gather");
            if (out_shards != expected)
                return fail(head + " gives " + tensor_text(scenario, op, out, expected) + ", not " +
                            tensor_text(scenario, op, out, out_shards));
            op.collectives.push_back({kind, over, -1, out_shards});
            break;
        }
        case CollectiveKind::reducescatter:
        case CollectiveKind::allreduce: {
            for (int m : over)
                if (count_in(in_shards, m))
                    return fail(head + ": the input is split over '" +
                                scenario.mesh[static_cast<std::size_t>(m)].name +
                                "'; a reduction reads partial sums that every chip of the axis "
                                "holds in full");
            if (kind == CollectiveKind::allreduce) {
                if (out_shards != in_shards)
                    return fail(head + " gives " + tensor_text(scenario, op, out, in_shards) +
                                ", not " + tensor_text(scenario, op, out, out_shards));
            } else {
                bool ok = true;
                for (std::size_t i = 0; i < in_shards.size(); ++i)
                    ok = ok && without(out_shards[i], over) == in_shards[i];
                for (int m : over) ok = ok && count_in(out_shards, m) == 1;
                if (!ok)
                    return fail(head + " splits one dimension of the output over " +
                                shards_text(scenario, over) +
                                " and leaves the other splits as they are, not " +
                                tensor_text(scenario, op, out, out_shards));
            }
            op.collectives.push_back({kind, over, 0, in_shards});
            break;
        }
        case CollectiveKind::alltoall: {
            bool ok = true;
            for (std::size_t i = 0; i < in_shards.size(); ++i)
                ok = ok && without(out_shards[i], over) == without(in_shards[i], over);
            for (int m : over) {
                ok = ok && count_in(in_shards, m) == 1 && count_in(out_shards, m) == 1;
                for (std::size_t i = 0; ok && i < in_shards.size(); ++i)
                    ok = !(has(in_shards[i], m) && has(out_shards[i], m));
            }
            if (!ok)
                return fail(head + " moves the split over " + shards_text(scenario, over) +
                            " from one dimension to another and leaves the other splits as they "
                            "are, not " + tensor_text(scenario, op, out, out_shards));
            op.collectives.push_back({kind, over, 0, in_shards});
            break;
        }
        case CollectiveKind::sendrecv: {
            // Point to point along one axis: each chip sends its whole shard
            // to its neighbour and receives the same shape back; the axis
            // splits neither (a pipeline's stages each hold the whole tensor).
            if (over.size() != 1)
                return fail(head + ": a sendrecv runs along one mesh axis, not " +
                            std::to_string(over.size()));
            if (count_in(in_shards, over.front()))
                return fail(head + ": the input is split over '" +
                            scenario.mesh[static_cast<std::size_t>(over.front())].name +
                            "'; a sendrecv sends each chip's whole tensor to its neighbour on the axis");
            if (out_shards != in_shards)
                return fail(head + " gives " + tensor_text(scenario, op, out, in_shards) + ", not " +
                            tensor_text(scenario, op, out, out_shards));
            op.collectives.push_back({kind, over, 0, in_shards});
            break;
        }
    }
    in.local = in_shards;
    out.local = out_shards;
    return true;
}

}  // namespace roofline::model
