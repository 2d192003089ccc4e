// The kernels pass, for one kernel (docs/fusion.md): its members, assembled
// by Checker::assemble_ops, give it its axes and collectives; its on-chip
// tensors must pass from a member to a later one.
#include "passes.hpp"

#include <optional>

namespace roofline::model {

namespace {

// The same tensor, as two members of a kernel write it: the same dtype and
// the same axes (by the values they name) in the same order.
bool same_tensor(Op const& a, Tensor const& ta, Op const& b, Tensor const& tb) {
    if (ta.dtype.dtype != tb.dtype.dtype || ta.dtype.slot != tb.dtype.slot ||
        ta.axes.size() != tb.axes.size())
        return false;
    for (std::size_t i = 0; i < ta.axes.size(); ++i)
        if (a.axes[static_cast<std::size_t>(ta.axes[i])].slot !=
            b.axes[static_cast<std::size_t>(tb.axes[i])].slot)
            return false;
    return true;
}

}  // namespace

void check_kernel(Context const& context, Op& kernel, bool complete) {
    auto& diagnostics = context.diagnostics;
    // The case's axes: every member's, once, so that the engine checks
    // every size the members need.
    for (auto const& m : kernel.members)
        for (auto const& axis : m.axes) {
            bool seen = false;
            for (auto const& a : kernel.axes) seen = seen || a.slot == axis.slot;
            if (!seen) kernel.axes.push_back(axis);
        }
    if (!complete) return;
    auto const& name = kernel.name;
    auto& members = kernel.members;
    Span kernel_span = kernel.span;
    for (std::size_t j = 0; j < members.size(); ++j) {
        auto const& member = members[j];
        // An on-chip input: written on chip by an earlier member (a weight,
        // a cache or an expert operand may be held on chip: prefetched).
        for (auto const& input : member.inputs) {
            if (!input.onchip || input.role != Role::activation) continue;
            bool written = false;
            for (std::size_t w = 0; w < j && !written; ++w)
                written = members[w].out.onchip && same_tensor(members[w], members[w].out, member, input);
            if (written) continue;
            auto& error = diagnostics.error(input.span, "'" + member.name +
                                                            "' reads an on-chip tensor that no earlier "
                                                            "member of kernel '" + name + "' writes");
            std::optional<Diagnostic> note;
            for (std::size_t w = 0; w < members.size() && !note; ++w) {
                if (w == j || !same_tensor(members[w], members[w].out, member, input)) continue;
                note = Diagnostics::note(
                    members[w].out.span,
                    w < j ? "'" + members[w].name + "' writes a tensor of this shape to HBM; write its "
                                                    "output 'onchip' to pass it on chip"
                          : "'" + members[w].name + "' writes it, but after '" + member.name +
                                "'; a member reads what an earlier one wrote");
            }
            error.notes.push_back(note ? *note
                                       : Diagnostics::note(kernel_span, "kernel '" + name + "' is here"));
        }
        // An on-chip output: read on chip by a later member.
        if (!member.out.onchip) continue;
        bool read = false;
        for (std::size_t r = j + 1; r < members.size() && !read; ++r)
            for (auto const& input : members[r].inputs)
                read = read || (input.onchip && same_tensor(member, member.out, members[r], input));
        if (read) continue;
        auto& error = diagnostics.error(member.out.span,
                                        "'" + member.name + "' writes an on-chip tensor that no later "
                                                            "member of kernel '" + name +
                                            "' reads; it would be lost when the kernel ends");
        std::optional<Diagnostic> note;
        for (std::size_t r = j + 1; r < members.size() && !note; ++r)
            for (auto const& input : members[r].inputs)
                if (!note && !input.onchip && same_tensor(member, member.out, members[r], input))
                    note = Diagnostics::note(input.span, "'" + members[r].name +
                                                             "' reads a tensor of this shape from HBM; "
                                                             "write it 'onchip' if it is this one");
        error.notes.push_back(note ? *note
                                   : Diagnostics::note(kernel_span,
                                                       "write the output to HBM (drop 'onchip'), or "
                                                       "read it in a later member of kernel '" + name + "'"));
    }
}

}  // namespace roofline::model
