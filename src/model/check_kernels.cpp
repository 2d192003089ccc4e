// Kernels and requests (docs/fusion.md): the ops check_ops built, grouped
// into one case per `kernel` block and routed to the scenario's cases or to
// a request's prefill and decode; the rules of on-chip tensors inside a
// kernel; the values of each request.
#include "checker.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
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

void Checker::assemble_ops(std::vector<Op>& built, std::vector<int> const& scope_of) {
    auto destination = [&](int scope) -> std::vector<Op>& {
        auto const& s = scopes[static_cast<std::size_t>(scope)];
        if (s.request < 0) return scenario.ops;
        auto& request = scenario.requests[static_cast<std::size_t>(s.request)];
        return s.phase == 0 ? request.prefill : request.decode;
    };
    // Each kernel's case sits where its first member was written.
    struct Place {
        std::vector<Op>* list;
        std::size_t index;
    };
    std::vector<std::optional<Place>> placed(kernels.size());
    for (std::size_t i = 0; i < built.size(); ++i) {
        int scope = scope_of[i];
        auto& list = destination(scope);
        int k = scopes[static_cast<std::size_t>(scope)].kernel;
        if (k < 0) {
            list.push_back(std::move(built[i]));
            continue;
        }
        auto& place = placed[static_cast<std::size_t>(k)];
        if (!place) {
            auto const& pending = kernels[static_cast<std::size_t>(k)];
            Op kernel;
            kernel.kind = OpKind::kernel;
            kernel.name = pending.node->name.name;
            kernel.layer = scopes[static_cast<std::size_t>(pending.outer_scope)].path;
            kernel.count = scopes[static_cast<std::size_t>(pending.inner_scope)].count;
            kernel.span = pending.file->span_of(pending.node->name);
            kernel.flops_per_point = 0;
            list.push_back(std::move(kernel));
            place = Place{&list, list.size() - 1};
        }
        (*place->list)[place->index].members.push_back(std::move(built[i]));
    }
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        auto const& pending = kernels[k];
        if (placed[k]) {
            diagnostics.set_context(context_of(pending.inner_scope));
            check_kernel((*placed[k]->list)[placed[k]->index]);
            diagnostics.set_context(nullptr);
        } else if (pending.node->body.empty()) {
            diagnostics.error(pending.file->span_of(pending.node->name),
                              "kernel '" + pending.node->name.name + "' has no ops");
        }
    }
}

void Checker::check_kernel(Op& kernel) {
    // The case's axes: every member's, once, so that the engine checks
    // every size the members need.
    for (auto const& m : kernel.members)
        for (auto const& axis : m.axes) {
            bool seen = false;
            for (auto const& a : kernel.axes) seen = seen || a.slot == axis.slot;
            if (!seen) kernel.axes.push_back(axis);
        }
    auto const& name = kernel.name;
    auto& members = kernel.members;
    Span kernel_span = kernel.span;
    for (std::size_t j = 0; j < members.size(); ++j) {
        auto const& member = members[j];
        // An on-chip input: written on chip by an earlier member.
        for (auto const& input : member.inputs) {
            if (!input.onchip || input.resident()) continue;
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

void Checker::collect_request(ParsedFile const& file, ast::RequestStmt const& r) {
    Span name_span = file.span_of(r.name);
    for (auto const& other : scenario.requests)
        if (other.name == r.name.name) {
            diagnostics.error(name_span, "redefinition of request '" + r.name.name + "'")
                .notes.push_back(Diagnostics::note(other.span, "previous definition is here"));
            return;
        }
    Request request;
    request.name = r.name.name;
    request.span = name_span;
    int request_scope = open_scope(0, r.name.name);
    scopes[static_cast<std::size_t>(request_scope)].request = static_cast<int>(scenario.requests.size());
    static constexpr std::string_view names[] = {"prompt", "output", "batch"};
    int* slots[] = {&request.prompt_slot, &request.output_slot, &request.batch_slot};
    for (auto const& argument : r.arguments) {
        auto const& name = argument.name.name;
        auto known = std::find(std::begin(names), std::end(names), name);
        if (known == std::end(names)) {
            diagnostics.error(file.span_of(argument.name),
                              "a request has no argument '" + name +
                                  "' (it takes prompt, output and batch)" +
                                  did_you_mean(name, {names[0], names[1], names[2]}));
            continue;
        }
        if (!define_value(request_scope, name, file.span_of(argument.name))) continue;
        int slot = scopes[static_cast<std::size_t>(request_scope)].values.at(name);
        lets.push_back({&file, &argument.value, 0});
        let_slots.push_back(slot);
        *slots[known - std::begin(names)] = slot;
    }
    for (auto [slot, name] : {std::pair{request.prompt_slot, "prompt"}, std::pair{request.output_slot, "output"}})
        if (slot < 0)
            diagnostics.error(name_span, "request '" + r.name.name + "' needs '" + name +
                                             "': write request " + r.name.name + "(prompt = P, output = G)");
    int prefill = open_scope(request_scope, r.name.name + "/prefill");
    scopes[static_cast<std::size_t>(prefill)].phase = 0;
    int decode = open_scope(request_scope, r.name.name + "/decode");
    scopes[static_cast<std::size_t>(decode)].phase = 1;
    // `i`, the decode step: a value no let computes, set by the engine.
    if (define_value(decode, "i", name_span)) {
        request.step_slot = scopes[static_cast<std::size_t>(decode)].values.at("i");
        scenario.slots[static_cast<std::size_t>(request.step_slot)].depends_on = step_bit;
    }
    scenario.requests.push_back(std::move(request));
    requests.push_back({&file, &r, 0});
    collect_in_layer(file, r.prefill, prefill);
    collect_in_layer(file, r.decode, decode);
}

void Checker::check_requests() {
    for (std::size_t r = 0; r < requests.size(); ++r) {
        auto const& request = scenario.requests[r];
        auto const& pending = requests[r];
        // A constant argument is checked here, at its value; a swept one by
        // the engine at each point.
        for (auto [slot, what] : {std::pair{request.prompt_slot, "the prompt"},
                                  std::pair{request.output_slot, "the output"},
                                  std::pair{request.batch_slot, "the batch"}}) {
            if (slot < 0) continue;
            auto const& value = scenario.slots[static_cast<std::size_t>(slot)];
            if (bad_slot[static_cast<std::size_t>(slot)] || value.depends_on != 0) continue;
            Span at = value.expr.span.file ? value.expr.span : value.span;
            if (auto problem = whole_number_problem(value.constant))
                diagnostics.error(at, std::string(what) + " must be " + *problem + ", not " +
                                          format_number(value.constant));
            else if (slot == request.output_slot && value.constant > max_request_steps)
                diagnostics.error(at, "a request has at most " + format_number(max_request_steps) +
                                          " output tokens, not " + format_number(value.constant));
        }
        if (request.decode.empty() && pending.node->decode.empty())
            diagnostics.error(request.span, "request '" + request.name +
                                                "' has no decode ops: write the step that makes one "
                                                "token after 'decode:'");
    }
}

}  // namespace roofline::model
