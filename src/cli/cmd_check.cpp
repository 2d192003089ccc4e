#include "commands.hpp"
#include "options.hpp"

#include "roofline/engine/evaluate.hpp"

#include "roofline/model/expr.hpp"

#include <algorithm>
#include <iostream>

namespace roofline::cli {

int cmd_check(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        (include_option, repeated(), include_help);
    auto parsed = parse_options("check", args, options, {"files", -1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;

    int status = ok;
    for (auto const& path : parsed->vm["files"].as<std::vector<std::string>>()) {
        Diagnostics diagnostics;
        auto checked = model::load_scenario(path, std::nullopt,
                                      parsed->vm["include"].as<std::vector<std::string>>(), {},
                                      diagnostics);
        // Evaluating finds what only shows at some sweep points (an axis that
        // is not a positive integer there, a division by zero) and the case limit.
        // Requests too: each decode step is a point of its own.
        if (!diagnostics.has_errors())
            if (auto evaluation = engine::evaluate(checked.scenario, diagnostics))
                engine::evaluate_requests(checked.scenario, *evaluation, diagnostics);
        print_diagnostics(diagnostics);
        if (checked.program.main_unreadable) {
            status = io_error;
            continue;
        }
        if (diagnostics.has_errors()) {
            if (status == ok) status = invalid_input;
            continue;
        }
        auto const& s = checked.scenario;
        std::size_t cases = s.point_count() * s.ops.size() * s.targets.size();
        if (s.ops.empty() && s.requests.empty() && !s.serve && s.template_count > 0) {
            // A file of templates: their bodies are checked where a scenario uses them.
            std::cout << path << ": ok: " << s.template_count << " template"
                      << (s.template_count == 1 ? "" : "s")
                      << ", no ops (a template is checked where a scenario uses it)\n";
            continue;
        }
        std::size_t elementwise = 0, collectives = 0, kernels = 0;
        for (auto const& op : s.ops) {
            elementwise += op.kind == model::OpKind::elementwise;
            collectives += op.kind == model::OpKind::collective;
            kernels += op.kind == model::OpKind::kernel;
        }
        std::size_t matmuls = s.ops.size() - elementwise - collectives - kernels;
        std::cout << path << ": ok: " << matmuls << " matmul" << (matmuls == 1 ? "" : "s");
        if (elementwise)
            std::cout << " + " << elementwise << " elementwise op" << (elementwise == 1 ? "" : "s");
        if (collectives)
            std::cout << " + " << collectives << " collective" << (collectives == 1 ? "" : "s");
        if (kernels) std::cout << " + " << kernels << " kernel" << (kernels == 1 ? "" : "s");
        std::cout << " x " << s.targets.size() << " target"
                  << (s.targets.size() == 1 ? "" : "s") << " x " << s.point_count()
                  << " sweep point" << (s.point_count() == 1 ? "" : "s") << " = " << cases
                  << " case" << (cases == 1 ? "" : "s");
        for (auto const& r : s.requests)
            std::cout << "; request " << r.name << ": prefill " << r.prefill.size() << " case"
                      << (r.prefill.size() == 1 ? "" : "s") << ", decode " << r.decode.size()
                      << " case" << (r.decode.size() == 1 ? "" : "s") << " per step";
        if (s.serve) {
            // Checked, not simulated: `run` simulates every serve point.
            auto const& v = *s.serve;
            std::size_t const points = s.point_count() * s.targets.size();
            std::cout << "; serve " << v.name << ": linear " << v.linear.size() << ", decode "
                      << v.decode.size() << ", prefill " << v.prefill.size();
            if (!v.sample.empty()) std::cout << ", sample " << v.sample.size();
            std::size_t const last = v.sample.empty() ? v.prefill.size() : v.sample.size();
            std::cout << " op" << (last == 1 ? "" : "s") << " per step, " << points
                      << " serve point" << (points == 1 ? "" : "s");
            if (!s.serve_slos.empty())
                std::cout << ", " << s.serve_slos.size() << " slo" << (s.serve_slos.size() == 1 ? "" : "s");
            if (s.fleet_rate) std::cout << ", a fleet for " << model::format_number(*s.fleet_rate) << " /s";
        }
        if (!s.calibrations.empty()) {
            // Unused ones are fine (a shipped file defines several): say how many a target uses.
            auto used = static_cast<std::size_t>(
                std::count_if(s.target_calibrations.begin(), s.target_calibrations.end(), [](int c) { return c >= 0; }));
            std::cout << "; " << s.calibrations.size() << " calibration" << (s.calibrations.size() == 1 ? "" : "s")
                      << ", " << used << " target" << (used == 1 ? "" : "s") << " calibrated";
        }
        std::cout << "\n";
    }
    return status;
}

}  // namespace roofline::cli
