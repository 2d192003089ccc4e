// The fleet (docs/serving.md, section 4): per configuration the highest
// Poisson rate one replica serves within every SLO, found by bisection; the
// replicas, chips and cost of the fleet by hand from it; why a configuration
// meets no SLO; one row per configuration with the rate sweep at its first
// value; and the fewest-chips mark. The tiny scenario: serve_engine_tiny.hpp
// (one request alone: TTFT 2.82e-6 s, e2e 2.276589e-5 s).
#include "serve_engine_tiny.hpp"

#include "roofline/engine/serve.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;

namespace {

using Slo = model::ServeSlo;

void add_slo(model::Scenario& scenario, Slo::Figure figure, Slo::Statistic statistic, double limit) {
    Slo slo;
    slo.figure = figure;
    slo.statistic = statistic;
    slo.limit_s = limit;
    scenario.serve_slos.push_back(slo);
}

test::TinyServe poisson() {
    test::TinyServe s;
    s.closed = false;
    s.arrivals = "1000";
    s.requests = "300";
    s.warmup = "30";
    return s;
}

std::vector<engine::FleetRow> fleet_of(test::Checked& checked) {
    auto grid = engine::prepare(checked.scenario, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(grid);
    auto rows = engine::plan_fleet(checked.scenario, *grid, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(rows);
    return std::move(*rows);
}

}  // namespace

TEST_CASE("A fleet row: replicas, chips and power from the highest rate within the SLOs", "[serve-fleet]") {
    auto checked = test::tiny_serve(poisson());
    auto& scenario = checked->scenario;
    add_slo(scenario, Slo::Figure::e2e, Slo::Statistic::mean, 5e-5);  // about 2.2 x alone
    scenario.fleet_rate = 1e6;
    auto const rows = fleet_of(*checked);
    REQUIRE(rows.size() == 1);
    auto const& row = rows[0];
    CHECK(row.why_none.empty());
    // Below the bound of 256 sequences at once, each no faster than alone.
    CHECK(row.max_rate > 0);
    CHECK(row.max_rate <= 256 / 2.276589e-5);
    // replicas = ceil(L / rate); one chip each; no price or power: NaN.
    CHECK(row.replicas == std::ceil(1e6 / row.max_rate));
    CHECK(row.chips == row.replicas);
    CHECK(std::isnan(row.dollars_per_hour));
    CHECK(std::isnan(row.kilowatts));
    CHECK(row.fewest_chips);
    CHECK_FALSE(row.cheapest);

    // At the rate found, the point meets the SLO unsaturated.
    auto const arrivals = static_cast<std::size_t>(scenario.serve->arrivals_slot);
    scenario.slots[arrivals].constant = row.max_rate;
    auto grid = engine::prepare(scenario, checked->diagnostics);
    REQUIRE(grid);
    auto const at = engine::evaluate_serve(scenario, *grid, checked->diagnostics);
    REQUIRE(at);
    REQUIRE(at->size() == 1);
    CHECK_FALSE((*at)[0].saturated);
    REQUIRE((*at)[0].slo_met.size() == 1);
    CHECK((*at)[0].slo_met[0]);
    CHECK((*at)[0].e2e.mean <= 5e-5);
}

TEST_CASE("An SLO below one request's own time: no rate, and why", "[serve-fleet]") {
    auto checked = test::tiny_serve(poisson());
    // TTFT alone is 2.82e-6 s: a bound of 1e-6 s is never met.
    add_slo(checked->scenario, Slo::Figure::ttft, Slo::Statistic::p99, 1e-6);
    checked->scenario.fleet_rate = 100;
    auto const rows = fleet_of(*checked);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].max_rate == 0);
    CHECK(rows[0].replicas == 0);
    CHECK_FALSE(rows[0].fewest_chips);
    INFO(rows[0].why_none);
    CHECK(rows[0].why_none.rfind("TTFT p99 at the lowest rate tried (", 0) == 0);
    CHECK(test::contains(rows[0].why_none, " /s) is 2.82 µs > 1 µs"));
}

TEST_CASE("One fleet row per configuration: the rate sweep at its first value, each target",
          "[serve-fleet]") {
    auto s = poisson();
    s.extra = "hardware toy2 { hbm_bandwidth = 2e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e7 B }\n"
              "sweep R = [20000, 40000]";
    s.targets = "target toy\ntarget toy2";
    s.arrivals = "R";
    auto checked = test::tiny_serve(s);
    add_slo(checked->scenario, Slo::Figure::e2e, Slo::Statistic::p90, 5e-5);
    checked->scenario.fleet_rate = 1e7;
    auto const rows = fleet_of(*checked);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].point == 0);
    CHECK(rows[1].point == 0);
    CHECK(rows[0].target == 0);
    CHECK(rows[1].target == 1);
    REQUIRE(rows[0].max_rate > 0);
    REQUIRE(rows[1].max_rate > 0);
    // Twice the bandwidth, every step memory-bound: a faster replica, fewer chips.
    CHECK(rows[1].max_rate > rows[0].max_rate);
    CHECK(rows[1].chips <= rows[0].chips);
    // The fewest chips marked once, a tie going to the first.
    CHECK(rows[0].fewest_chips == (rows[0].chips <= rows[1].chips));
    CHECK(rows[1].fewest_chips == (rows[1].chips < rows[0].chips));
}

TEST_CASE("The fleet end to end: $/h, $ per million tokens, kW and J per token from price and power",
          "[serve-fleet]") {
    auto checked = test::check_text(R"(hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 1e7 B
               price = 2 USD/h  power = 500 W }
target toy
let D = 1000
let F = 1000
let B = 1
serve chat {
    prompt = 100  output = 10  arrivals = poisson(1000)
    requests = 300  warmup = 30  max_step_tokens = 100
    linear: let N = tokens
        matmul proj = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]
    decode: matmul scores = bf16[B, D] * cache bf16[context, D] -> bf16[B, context]
    prefill: let PT = start + chunk
        matmul att = bf16[chunk, D] * cache bf16[PT, D] -> bf16[chunk, PT]
}
slo e2e_mean <= 50 us
fleet rate = 1000000 /s
)");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const rows = fleet_of(*checked);
    REQUIRE(rows.size() == 1);
    auto const& row = rows[0];
    REQUIRE(row.max_rate > 0);
    // L = 1e6 requests/s of 10 output tokens: 1e7 tokens/s.
    double const replicas = std::ceil(1e6 / row.max_rate);
    CHECK(row.replicas == replicas);
    CHECK(row.chips == replicas);
    CHECK(row.dollars_per_hour == replicas * 2);
    CHECK(std::fabs(row.dollars_per_million_tokens - replicas * 2 / (1e7 * 3600) * 1e6) <=
          1e-12 * row.dollars_per_million_tokens);
    CHECK(row.kilowatts == replicas * 500 / 1000);
    CHECK(std::fabs(row.joules_per_token - replicas * 500 / 1e7) <= 1e-12 * row.joules_per_token);
    CHECK(row.fewest_chips);
    CHECK(row.cheapest);
}
