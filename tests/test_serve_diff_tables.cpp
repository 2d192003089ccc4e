// `roofline diff`'s serve tables, piece by piece: what a ratio of latencies
// is by which side is saturated, serve.csv read by its column names (a sweep
// named like a column, a dtype sweep, a quoted problem), and serve.csv and
// fleet.csv as report::write_serve_csv / write_fleet_csv write them, matched
// and divided (B / A) with hand-made results. The end-to-end diff of two
// reports is in test_serve_diff.cpp.
#include "diff/serve_diff.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/report/report.hpp"

#include "report/serve_csv.hpp"

#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace roofline;

TEST_CASE("serve diff: what a ratio of latencies is, by which side is saturated", "[serve-diff]") {
    // true A >= a and true B >= b where saturated; the ratio is B / A.
    diff::ServeFigure const latency{"tpot_p99", "TPOT p99", true, false, true};
    diff::ServeFigure const rate{"served_rate", "served", false, true, false};
    diff::ServeDiffRow row;
    row.a = {0.04};
    row.b = {0.1};
    CHECK(row.ratio(0) == Approx(2.5));
    CHECK(row.ratio_kind(latency) == diff::RatioKind::exact);
    row.saturated_b = true;  // B's 0.1 a lower bound: B / A >= 2.5
    CHECK(row.ratio_kind(latency) == diff::RatioKind::at_least);
    CHECK(row.ratio_kind(rate) == diff::RatioKind::exact);  // a rate is no lower bound
    row.saturated_a = true;  // 0.1 / 0.04 of two lower bounds: no bound either way
    CHECK(row.ratio_kind(latency) == diff::RatioKind::lower_bounds);
    row.saturated_b = false;  // A's 0.04 a lower bound: B / A <= 2.5
    CHECK(row.ratio_kind(latency) == diff::RatioKind::at_most);
    row.a = {0};  // no ratio of a zero
    CHECK(std::isnan(row.ratio(0)));
    // The serve figures' lower bounds are serve.csv's own: the latencies.
    for (auto const& figure : diff::serve_figures(diff::ServeTableKind::serve))
        CHECK(figure.lower_bound == figure.seconds);
}

TEST_CASE("serve diff: serve.csv read by column name: a sweep named like a column, a dtype "
          "sweep, a quoted problem",
          "[serve-diff]") {
    test::Sandbox box;
    // A sweep `chips` (the TP of the mesh, say) shares its name with
    // serve.csv's own `chips`: the sweep's column comes first (after
    // hardware), the figure's later. The second point has no figures: its
    // problem, quoted for its comma, says why.
    box.write("serve.csv",
              "hardware,chips,wdt,chips,served_rate,output_tokens_per_s_per_chip,ttft_p50,ttft_p99,"
              "tpot_p50,tpot_p99,e2e_p99,saturated,problem\r\n"
              "h200,4,fp8,4,10,2500,0.1,0.2,0.01,0.02,3,no,\r\n"
              "h200,8.0,bf16,8,,,,,,,,,\"weights do not fit, 141 GB\"\r\n");
    diff::ComparedReport report;
    report.folder = box.path.string();
    report.sweeps = {{"chips", 2, {}, false}, {"wdt", 2, {"bf16", "fp8"}, false}};
    report.outputs = {{"serve.csv", ""}};  // listed without a hash: not checked
    auto table = diff::read_serve_table(report, diff::ServeTableKind::serve);
    REQUIRE(table);
    REQUIRE(table->rows.size() == 2);
    auto const& first = table->rows[0];
    CHECK(first.line == 2);
    CHECK(first.hardware == "h200");
    CHECK(first.sweep == std::vector<std::string>{"4", "fp8"});
    CHECK(first.figures[0] == 10);    // served_rate
    CHECK(first.figures[5] == 0.02);  // tpot_p99
    CHECK_FALSE(first.saturated);
    auto const& second = table->rows[1];
    CHECK(second.sweep == std::vector<std::string>{"8", "bf16"});  // 8.0 read as the number 8
    CHECK(std::isnan(second.figures[0]));
    CHECK(second.note == "weights do not fit, 141 GB");
    // Not listed in the manifest: not the report's.
    report.outputs.clear();
    CHECK_FALSE(diff::read_serve_table(report, diff::ServeTableKind::serve));
    // A dtype the manifest does not list for the sweep.
    box.write("serve.csv",
              "hardware,chips,wdt,chips,served_rate,output_tokens_per_s_per_chip,ttft_p50,ttft_p99,"
              "tpot_p50,tpot_p99,e2e_p99,saturated\r\nh200,4,fp4,4,10,2500,0.1,0.2,0.01,0.02,3,no\r\n");
    report.outputs = {{"serve.csv", ""}};
    CHECK_THROWS_WITH(diff::read_serve_table(report, diff::ServeTableKind::serve),
                      Catch::Contains("serve.csv:2: column 'wdt': 'fp4' is not one of the dtypes"));
}

namespace {

// serve.csv and fleet.csv as the report writes them (report/serve_csv.cpp),
// from hand-made results: two configurations TP = 2, 4 along R = 1, 4.
constexpr char const* writer_scenario_head = R"(
hardware toy {
    hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s  hbm_capacity = 80e9 B
    nvlink_bandwidth = 1e10 B/s  nvlink_domain = 8
}
target toy
sweep R = [1, 4]
)";
constexpr char const* writer_scenario_tail = R"(
mesh tp = TP over nvlink
let D = 1000
let F = 4000
matmul up = bf16[R, D] * weight bf16[D, F@tp] -> bf16[R, F@tp]
)";

// Writes version `version` of the tables into `folder`; B (version 2) halves
// every TPOT and doubles every tok/s, and its TP 4 replica serves 7 /s in
// place of 3.5 (so ceil(10 / 7) = 2 replicas, 8 chips, in place of 3 and 12).
// `tp`: the TP sweep's values, "[2, 4]" (or one value, "[8]", for a mesh of one size).
diff::ComparedReport write_tables(test::Sandbox const& box, std::string const& name, int version,
                                  std::vector<double> const& tp = {2, 4}) {
    std::string tps;
    for (double t : tp) tps.append(tps.empty() ? "" : ", ").append(std::to_string(static_cast<int>(t)));
    auto checked = test::check_text(std::string(writer_scenario_head) + "sweep TP = [" + tps + "]" +
                                    writer_scenario_tail);
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto& scenario = checked->scenario;
    model::Serve serve;
    serve.name = "chat";
    serve.arrivals = model::Serve::Arrivals::poisson;
    serve.arrivals_slot = scenario.sweeps[0].slot;
    scenario.serve = serve;
    scenario.fleet_rate = 10;
    auto grid = engine::prepare(scenario, checked->diagnostics);
    REQUIRE(grid);
    double const speed = version == 1 ? 1 : 2;
    std::vector<engine::ServeResult> results;
    std::uint32_t const n = static_cast<std::uint32_t>(tp.size());
    for (std::uint32_t p = 0; p < 2 * n; ++p) {  // (R, TP) = (1, 2), (1, 4), (4, 2), (4, 4)
        engine::ServeResult r;
        r.point = p;
        r.chips = tp[p % n];
        r.rate = p < n ? 1 : 4;
        r.served_rate = r.rate;
        r.output_tokens_per_s = 256 * r.rate * speed;
        r.output_tokens_per_s_per_chip = r.output_tokens_per_s / r.chips;
        r.ttft = {0.125, 0.25, 0.5, 0.25};
        r.tpot = {0.015625 / speed, 0.03125 / speed, 0.0625 / speed, 0.03125 / speed};
        r.e2e = {2, 3, 4, 2.5};
        r.saturated = p == n && version == 1;  // A's R = 4 at the first TP
        results.push_back(r);
    }
    double const max_rate = version == 1 ? 3.5 : 7, replicas = std::ceil(10 / max_rate);
    std::vector<engine::FleetRow> fleet = {
        {0, 0, 1.5, 7, 14, 28, 1.5, 9.8, 0.5, false, true, "", "", 0, 0},
        {1, 0, max_rate, replicas, 4 * replicas, 9 * replicas, 2.5, 8.4, 0.5, true, false, "", "", 0, 0}};
    fleet.resize(n);
    report::ReportInfo info{name, version, "2026-12-02T20:00:00Z", std::string(64, 'c'), "9.9.9"};
    report::ReportContext context{scenario, *grid, info, nullptr, &results, &fleet};
    fs::create_directories(box / name);
    diff::ComparedReport r;
    r.folder = (box / name).string();
    r.name = name;
    r.version = version;
    r.targets = {{"toy", "toy"}};
    r.sweeps = {{"R", 2, {}, false}, {"TP", tp.size(), {}, true}};
    for (auto const* file : {"serve.csv", "fleet.csv"}) {
        auto path = (box / name / file).string();
        if (std::string(file) == "serve.csv") report::write_serve_csv(path, context);
        else report::write_fleet_csv(path, context);
        r.outputs.push_back({file, output::sha256_file(path)});
    }
    return r;
}

}  // namespace

TEST_CASE("serve diff: the tables as the report writes them", "[serve-diff]") {
    test::Sandbox box;
    auto a = write_tables(box, "a", 1);
    auto b = write_tables(box, "b", 2);
    diff::Matcher matcher(a, b, diff::make_pairing(a, b, {}));
    auto serve = diff::diff_serve(matcher);
    REQUIRE(serve.serve);
    REQUIRE(serve.fleet);
    CHECK(serve.notes.empty());
    // Four points on each side, all matched, by (toy, R, TP).
    CHECK(serve.serve->matched == 4);
    CHECK(serve.serve->only_a + serve.serve->only_b == 0);
    CHECK(serve.serve->sweep_names == std::vector<std::string>{"R", "TP"});
    auto const& figures = diff::serve_figures(diff::ServeTableKind::serve);
    auto figure = [&](std::string const& column) {
        for (std::size_t f = 0; f < figures.size(); ++f)
            if (column == figures[f].column) return f;
        FAIL(column);
        return std::size_t{0};
    };
    for (auto const& row : serve.serve->rows) {
        INFO("R = " << row.sweep[0] << ", TP = " << row.sweep[1]);
        // B halves every TPOT (0.0625 -> 0.03125 at p99) and doubles tok/s.
        CHECK(row.ratio(figure("tpot_p99")) == 0.5);
        CHECK(row.ratio(figure("tpot_p50")) == 0.5);
        CHECK(row.ratio(figure("output_tokens_per_s_per_chip")) == 2);
        CHECK(row.ratio(figure("ttft_p99")) == 1);
        // A's R = 4, TP = 2 is saturated: B / A of its latencies is at most the value.
        bool const saturated_a = row.sweep == std::vector<std::string>{"4", "2"};
        CHECK(row.saturated_a == saturated_a);
        CHECK(row.ratio_kind(figures[figure("tpot_p99")]) ==
              (saturated_a ? diff::RatioKind::at_most : diff::RatioKind::exact));
    }
    // The fleet, keyed by (toy, TP): TP 2 unchanged; TP 4 from 12 chips to 8
    // (8 / 12 = 2/3), 3.5 /s per replica to 7 (2x).
    REQUIRE(serve.fleet->matched == 2);
    CHECK(serve.fleet->sweep_names == std::vector<std::string>{"TP"});
    auto const& tp4 = serve.fleet->rows[1];
    CHECK(tp4.sweep == std::vector<std::string>{"4"});
    CHECK(tp4.a[2] == 12);  // chips
    CHECK(tp4.b[2] == 8);
    CHECK(tp4.ratio(2) == Approx(2.0 / 3));
    CHECK(tp4.ratio(0) == 2);  // max_rate_per_replica
    CHECK(serve.fleet->rows[0].ratio(2) == 1);
}

TEST_CASE("serve diff: a mesh of one size on each side pairs them, as the cases do", "[serve-diff]") {
    // A at TP = 2, B at TP = 8: the points pair by (toy, R), shown at A's TP.
    test::Sandbox box;
    auto a = write_tables(box, "a", 1, {2});
    auto b = write_tables(box, "b", 2, {8});
    diff::Matcher matcher(a, b, diff::make_pairing(a, b, {}));
    auto serve = diff::diff_serve(matcher);
    REQUIRE(serve.serve);
    CHECK(serve.serve->matched == 2);
    auto const& row = serve.serve->rows[0];
    CHECK(row.sweep == std::vector<std::string>{"1", "2"});
    // tok/s per chip: A 256 / 2 = 128, B 512 / 8 = 64: B / A = 0.5.
    CHECK(row.a[1] == 128);
    CHECK(row.b[1] == 64);
    CHECK(row.ratio(1) == 0.5);
    CHECK(serve.fleet->matched == 1);
}
