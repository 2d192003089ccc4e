#pragma once
// A checked scenario evaluated, with its report context and summary: the
// step totals and the Plan of a scenario written in a test.
#include "helpers.hpp"

#include "roofline/report/report.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace roofline::test {

struct Stepped {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;
    report::ReportInfo info;
    std::unique_ptr<report::ReportContext> context;
    std::unique_ptr<report::SummaryBuilder> builder;

    report::StepTotals step(std::size_t point, std::size_t target = 0) const {
        return report::step_totals(*context, builder->summary(), point, target);
    }
    report::Plan plan() const { return report::make_plan(*context, builder->summary()); }
    engine::Metrics const& metrics(std::string const& op, std::size_t point, std::size_t target = 0) const {
        for (auto const& c : evaluation.cases)
            if (checked->scenario.ops[c.op].name == op && c.point == point && c.target == target)
                return c.metrics;
        FAIL("no case " << op);
        throw;
    }
};

// `templates`: with the shipped templates folder (includes like "layers/dense_tp.roof").
inline std::unique_ptr<Stepped> stepped(std::string const& text, bool templates = false) {
    auto s = std::make_unique<Stepped>();
    s->checked = templates ? check_with_catalog(text) : check_text(text);
    INFO(s->checked->errors());
    REQUIRE_FALSE(s->checked->diagnostics.has_errors());
    auto evaluation = engine::evaluate(s->checked->scenario, s->checked->diagnostics);
    INFO(s->checked->errors());
    REQUIRE(evaluation);
    s->evaluation = std::move(*evaluation);
    s->context = std::make_unique<report::ReportContext>(
        report::ReportContext{s->checked->scenario, s->evaluation, s->info});
    s->builder = std::make_unique<report::SummaryBuilder>(*s->context);
    for (auto const& c : s->evaluation.cases) s->builder->add(c);
    return s;
}

}  // namespace roofline::test
