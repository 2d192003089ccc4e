#pragma once
// A scenario's text (or a shipped scenario) checked, with no errors and no
// warnings, and evaluated with the templates/ folder; its cases and point
// facts looked up by sweep value, for the import tests (tests/test_import.cpp,
// tests/test_import_layout.cpp, tests/test_layouts.cpp).

#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>

namespace roofline::test::evaluated {

struct Evaluated {
    Diagnostics diagnostics;
    Program program;
    model::Scenario scenario;
    engine::Evaluation evaluation;

    std::size_t point(double b) const {
        for (std::size_t p = 0; p < evaluation.point_count; ++p)
            if (evaluation.sweep_value(p, 0) == b) return p;
        FAIL("no point with B = " << b);
        return 0;
    }
    engine::PointFacts const& facts(double b) const { return evaluation.point_facts[point(b)]; }
    engine::Case const& find(std::string const& op, std::string const& layer, double b) const {
        return find_at(op, layer, point(b));
    }

    // The point whose sweep `name` is `value` (the first, with other sweeps).
    std::size_t point(std::string const& name, double value) const {
        for (std::size_t s = 0; s < scenario.sweeps.size(); ++s) {
            if (scenario.sweeps[s].name != name) continue;
            for (std::size_t p = 0; p < evaluation.point_count; ++p)
                if (evaluation.sweep_value(p, s) == value) return p;
        }
        FAIL("no point with " << name << " = " << value);
        return 0;
    }
    engine::PointFacts const& facts_at(std::size_t p) const { return evaluation.point_facts[p]; }
    // The case of the first target at point p.
    engine::Case const& find_at(std::string const& op, std::string const& layer, std::size_t p) const {
        for (auto const& c : evaluation.cases)
            if (scenario.ops[c.op].name == op && scenario.ops[c.op].layer == layer && c.point == p &&
                c.target == 0)
                return c;
        FAIL("no case " << layer << "/" << op);
        throw;
    }
    // The step on the first target at point p: the sum of count x t_step.
    double step(std::size_t p) const {
        double total = 0;
        for (auto const& c : evaluation.cases)
            if (c.point == p && c.target == 0) total += scenario.ops[c.op].count * c.metrics.t_step;
        return total;
    }
};

inline LoadOptions templates_path() { return LoadOptions{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}}; }

inline std::unique_ptr<Evaluated> finish(std::unique_ptr<Evaluated> r) {
    r->scenario = model::check(r->program, {}, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE_FALSE(r->diagnostics.has_errors());
    for (auto const& d : r->diagnostics.all()) CHECK(d.severity != Severity::warning);
    auto evaluation = engine::evaluate(r->scenario, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    return r;
}

inline std::unique_ptr<Evaluated> evaluate_text(std::string const& text) {
    auto r = std::make_unique<Evaluated>();
    DiskFileSystem disk;
    r->program = load_program_text("imported.roof", text, disk, templates_path(), r->diagnostics);
    return finish(std::move(r));
}

inline std::unique_ptr<Evaluated> evaluate_shipped(std::string const& name) {
    auto r = std::make_unique<Evaluated>();
    DiskFileSystem disk;
    r->program = load_program(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/" + name, disk,
                              templates_path(), r->diagnostics);
    return finish(std::move(r));
}

}  // namespace roofline::test::evaluated
