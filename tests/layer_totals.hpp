#pragma once
// A scenario over the shipped layer templates, evaluated, and the counts of
// one layer's ops summed at one sweep point: for the tests that work a
// layer's decode step out by hand (test_gpt_oss.cpp, test_glm_dsa.cpp).

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace roofline::test {

struct LayerTotals {
    double flops = 0, bytes_read = 0, bytes_written = 0;
};

struct EvaluatedLayers {
    std::unique_ptr<Checked> checked;
    engine::Evaluation evaluation;

    model::Scenario const& scenario() const { return checked->scenario; }
    // The point whose first sweep has `value`.
    std::size_t point(double value) const {
        for (std::size_t p = 0; p < evaluation.point_count; ++p)
            if (evaluation.sweep_value(p, 0) == value) return p;
        FAIL("no point with value " << value);
        return 0;
    }
    engine::PointFacts const& facts(double value) const {
        return evaluation.point_facts[point(value)];
    }
    // The ops of `layer` and of the layers inside it, at the first target.
    LayerTotals totals(std::string const& layer, double value) const {
        LayerTotals t;
        auto p = point(value);
        for (auto const& c : evaluation.cases) {
            auto const& name = scenario().ops[c.op].layer;
            bool inside = name == layer || name.rfind(layer + "/", 0) == 0;
            if (!inside || c.point != p || c.target != 0) continue;
            t.flops += c.metrics.counts.flops;
            t.bytes_read += c.metrics.counts.bytes_read;
            t.bytes_written += c.metrics.counts.bytes_written;
        }
        return t;
    }
    engine::Counts const& counts(std::string const& op, std::string const& layer, double value) const {
        auto p = point(value);
        for (auto const& c : evaluation.cases)
            if (scenario().ops[c.op].name == op && scenario().ops[c.op].layer == layer &&
                c.point == p && c.target == 0)
                return c.metrics.counts;
        FAIL("no case " << layer << "/" << op);
        throw;
    }
};

// `text` checked with the shipped templates reachable, without errors or
// warnings, and evaluated.
inline std::unique_ptr<EvaluatedLayers> evaluate_layers(std::string const& text) {
    auto r = std::make_unique<EvaluatedLayers>();
    r->checked = check_with_catalog(text);
    INFO(r->checked->errors());
    REQUIRE_FALSE(r->checked->diagnostics.has_errors());
    for (auto const& d : r->checked->diagnostics.all()) CHECK(d.severity != Severity::warning);
    auto evaluation = engine::evaluate(r->checked->scenario, r->checked->diagnostics);
    INFO(r->checked->errors());
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    return r;
}

}  // namespace roofline::test
