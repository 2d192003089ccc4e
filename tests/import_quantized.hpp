#pragma once
// The quantized-import tests: a scenario (imported, or written by hand over the
// shipped templates) checked and evaluated, and the sums of its cases.

#include "helpers.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/importer/import_config.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace roofline::test {

struct Evaluated {
    std::unique_ptr<Checked> checked;
    engine::Evaluation evaluation;

    model::Scenario const& scenario() const { return checked->scenario; }
    engine::PointFacts const& facts(std::size_t point = 0) const { return evaluation.point_facts[point]; }
    // The op `name` of `layer` at the point, first target.
    engine::Case const& find(std::string const& name, std::string const& layer, std::size_t point = 0) const {
        for (auto const& c : evaluation.cases) {
            auto const& op = scenario().ops[c.op];
            if (op.name == name && op.layer == layer && c.point == point && c.target == 0) return c;
        }
        FAIL("no case " << layer << "/" << name);
        throw;
    }
    // FLOPs and bytes (read + written) of every op in `layer` or below it.
    std::pair<double, double> totals(std::string const& layer, std::size_t point = 0) const {
        double flops = 0, bytes = 0;
        for (auto const& c : evaluation.cases) {
            auto const& op = scenario().ops[c.op];
            if (c.point != point || c.target != 0) continue;
            if (op.layer != layer && op.layer.rfind(layer + "/", 0) != 0) continue;
            flops += c.metrics.counts.flops;
            bytes += c.metrics.counts.bytes_read + c.metrics.counts.bytes_written;
        }
        return {flops, bytes};
    }
};

// Checked over the shipped templates and evaluated; errors fail the test.
inline std::unique_ptr<Evaluated> evaluate_roof(std::string const& text) {
    auto r = std::make_unique<Evaluated>();
    r->checked = check_with_catalog(text);
    INFO(text);
    INFO(r->checked->errors());
    REQUIRE_FALSE(r->checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(r->checked->scenario, r->checked->diagnostics);
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    return r;
}

}  // namespace roofline::test
