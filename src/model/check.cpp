// The order of the passes matters only in that each pass uses names the
// previous ones defined; within a pass, definitions may appear in any order.
#include "checker.hpp"

#include <filesystem>

namespace roofline::model {

Scenario check(Program const& program, CheckOptions const& options, Diagnostics& diagnostics) {
    Checker checker(program, options, diagnostics);
    if (!program.files.empty())
        checker.scenario.title =
            std::filesystem::path(program.files.front()->source->path).filename().string();
    checker.collect(program.statements);
    checker.scenario.template_count = checker.templates.size();
    checker.classify_dtype_names();
    checker.check_override_kinds();
    checker.check_value_arguments();
    checker.check_mesh_arguments();
    checker.check_lets();
    checker.check_mesh();
    checker.check_dtypes();
    checker.check_dtype_arguments();
    checker.check_sweeps();
    checker.check_layer_counts();
    checker.check_hardware();
    checker.check_targets();
    checker.check_ops();
    checker.check_residents();
    checker.check_requests();
    checker.check_tokens();
    checker.check_slo();
    if (!diagnostics.has_errors()) checker.warn_unsupported();
    return std::move(checker.scenario);
}

}  // namespace roofline::model
