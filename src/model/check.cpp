// The checker's pipeline: the passes in the order they run. Each pass uses
// what the ones before it produced (names, values, dtypes, chips); within a
// pass, definitions may appear in any order. The passes with explicit inputs
// and outputs are declared in passes.hpp; the rest are still Checker members
// (checker.hpp) over its shared state. docs/architecture.md, "The checker's
// passes", says what each one reads and writes.
#include "checker.hpp"

#include <filesystem>

namespace roofline::model {

Scenario check(Program const& program, CheckOptions const& options, Diagnostics& diagnostics) {
    Context const context{program, options, diagnostics};
    Checker checker(context);
    Scenario& scenario = checker.scenario;
    Constants const constant(checker);
    SlotValues const values{scenario.slots, checker.bad_slot};
    if (!program.files.empty())
        scenario.title = std::filesystem::path(program.files.front()->source->path).filename().string();

    // Symbols and collected statements: scopes, names, templates expanded.
    checker.collect(program.statements);
    scenario.template_count = checker.templates.size();
    // Values: which names are dtypes, template arguments, lets and sweeps.
    checker.classify_dtype_names();
    checker.check_override_kinds();
    checker.check_value_arguments();
    checker.check_mesh_arguments();
    checker.check_lets();
    check_mesh(context, checker.scopes.front().values, scenario.mesh, values);
    check_pipeline(context, checker.scopes.front().values, values, scenario);
    check_dtypes(context, checker.dtypes, constant, scenario.dtypes);
    checker.check_dtype_arguments();
    checker.check_sweeps();
    checker.check_layer_counts();
    // Hardware and the chips to evaluate.
    scenario.hardware_aliases = check_aliases(context, checker.hardware, checker.aliases);
    checker.check_hardware();
    scenario.targets = check_targets(context, checker.hardware, checker.aliases, checker.targets,
                                     scenario.hardware, scenario.hardware_aliases);
    check_calibrations(context, checker.calibrations, checker.targets, checker.hardware, checker.aliases,
                       constant, scenario);
    // Ops (with their shard plans and kernels), residents, requests, the step.
    checker.check_ops();
    checker.check_residents();
    check_requests(context, checker.requests, scenario.requests, values);
    if (scenario.serve) {
        DiskFileSystem disk;
        check_serve(context, checker.serve_source, values, options.files ? *options.files : disk,
                    *scenario.serve);
        check_serve_pools(context, checker.serve_source, constant, scenario, *scenario.serve);
    }
    scenario.serve_slos = check_serve_slos(context, checker.serve_slo_statements, constant,
                                           scenario.serve.has_value());
    scenario.fleet_rate = check_fleet(context, checker.fleet_statement, constant, scenario.serve.has_value());
    if (auto const& fleet = checker.fleet_statement; fleet.node) scenario.fleet_span = fleet.file->span_of(*fleet.node);
    check_tokens(context, checker.tokens, scenario.tokens_slot, values, constant);
    scenario.slo_step_s = check_slo(context, checker.slo_statement, constant, !scenario.mesh.empty(),
                                    checker.tokens.node != nullptr, scenario.slo_measure);
    if (!diagnostics.has_errors()) skip_indivisible_mesh_sizes(context, scenario);
    if (!diagnostics.has_errors()) warn_unsupported(context, scenario);
    return std::move(scenario);
}

}  // namespace roofline::model
