// The requests pass: each request's constant arguments (a swept one is the
// engine's, at each point) and that it has a decode. Its ops and residents
// are checked with the others (check_ops, check_residents).
#include "passes.hpp"

#include "roofline/model/limits.hpp"

namespace roofline::model {

void check_requests(Context const& context, std::vector<Pending<ast::RequestStmt>> const& statements,
                    std::vector<Request> const& requests, SlotValues const& values) {
    auto& diagnostics = context.diagnostics;
    for (std::size_t r = 0; r < statements.size(); ++r) {
        auto const& request = requests[r];
        auto const& pending = statements[r];
        // A constant argument is checked here, at its value; a swept one by
        // the engine at each point.
        for (auto [slot, what] : {std::pair{request.prompt_slot, "the prompt"},
                                  std::pair{request.output_slot, "the output"},
                                  std::pair{request.batch_slot, "the batch"}}) {
            if (slot < 0 || !values.is_constant(slot)) continue;
            auto const& value = values.slots[static_cast<std::size_t>(slot)];
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
