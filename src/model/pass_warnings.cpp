// The warnings pass, once the scenario is checked without error: a compute
// dtype that a target has no peak for.
#include "passes.hpp"

#include <algorithm>

namespace roofline::model {

void warn_unsupported(Context const& context, Scenario const& scenario) {
    auto& diagnostics = context.diagnostics;
    std::vector<std::pair<int, int>> warned;  // (dtype, hardware)
    auto warn = [&](Op const& op, std::string const& what) {
        for (int compute : scenario.compute_dtypes_of(op)) {
            for (int target : scenario.targets) {
                auto const& hw = scenario.hardware[static_cast<std::size_t>(target)];
                if (hw.peak_for(compute)) continue;
                std::pair<int, int> key{compute, target};
                if (std::find(warned.begin(), warned.end(), key) != warned.end()) continue;
                warned.push_back(key);
                auto const& dtype = scenario.dtypes[static_cast<std::size_t>(compute)].name;
                diagnostics.warning(op.span, "hardware '" + hw.id + "' has no peak for " + dtype +
                                                 "; its " + dtype + what);
            }
        }
    };
    for (auto const& op : scenario.ops) warn(op, " cases are evaluated as unsupported");
    // A request's step sums its cases: one without a time leaves it without one.
    for (auto const& request : scenario.requests)
        for (auto const* phase : {&request.prefill, &request.decode})
            for (auto const& op : *phase)
                warn(op, " ops have no time, so request '" + request.name + "' has none there");
    if (scenario.serve)
        for (auto const* part : {&scenario.serve->linear, &scenario.serve->decode, &scenario.serve->prefill,
                                 &scenario.serve->sample})
            for (auto const& op : *part)
                warn(op, " ops have no time, so serve '" + scenario.serve->name + "' has no step time there");
}

}  // namespace roofline::model
