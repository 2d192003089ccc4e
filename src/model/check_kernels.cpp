// Kernels and requests (docs/fusion.md): the ops check_ops built, grouped
// into one case per `kernel` block (each checked by check_kernel,
// pass_kernels.cpp) and routed to the scenario's cases or to a request's
// prefill and decode; a request's names and scopes, collected.
#include "checker.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <optional>

namespace roofline::model {


void Checker::assemble_ops(std::vector<Op>& built, std::vector<int> const& scope_of,
                           std::vector<bool> const& incomplete) {
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
            check_kernel(context, (*placed[k]->list)[placed[k]->index], !incomplete[k]);
            diagnostics.set_context(nullptr);
        } else if (pending.node->body.empty()) {
            diagnostics.error(pending.file->span_of(pending.node->name),
                              "kernel '" + pending.node->name.name + "' has no ops");
        }
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

}  // namespace roofline::model
