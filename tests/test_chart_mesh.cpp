// The charts of a mesh (reports.md, "charts/"): the step by bound, the
// scaling chart, the network roof, and one chart per mesh size along the
// other sweeps with the points that do not fit or miss the slo marked.
#include "chart_models.hpp"
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "report/chart_model.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace roofline;
namespace fs = std::filesystem;
using test::contains;
using test::read_file;
using test::charts::check_files;
using test::charts::mesh_scenario;
using test::charts::render_text;
using test::charts::Models;
using test::charts::titled;

TEST_CASE("charts: with a mesh the step chart stacks compute, memory and network time",
          "[charts][steps][multichip]") {
    Models m(mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]"));
    using report::chart_detail::step_chart;
    // Along B at TP = 2 (its first value): the step is in µs (the largest, 2.4e-4 s).
    auto const chart = step_chart(*m.context, m.summary->summary(), 0, 0);
    CHECK(chart.stem == "step-B-slow-TP2");  // one chart per value of TP
    CHECK(contains(chart.subtitle, "Step time by bound"));
    CHECK(contains(chart.subtitle, "per chip"));
    CHECK(contains(chart.subtitle, "(TP = 2)"));
    CHECK(chart.y.label == "step time (\u00b5s)");
    auto const* compute = titled(chart, "compute-bound cases");
    auto const* memory = titled(chart, "memory-bound cases");
    auto const* network = titled(chart, "collectives (network)");
    REQUIRE(compute);
    REQUIRE(memory);
    REQUIRE(network);
    // Bottom up: compute, memory, network.
    CHECK(compute < memory);
    CHECK(memory < network);
    struct Expected {
        double b, compute, memory, network, step;  // µs
    };
    // Per chip at TP = 2: each matmul moves 2 (B D + D F/2 + B F/2) bytes at
    // 1e12 B/s and does 2 B D F/2 FLOPs at 1e14; down's AllReduce moves
    // 2 x 1/2 x 2 B D bytes at 1e10 B/s (over its 2 us floor). The step is
    // serial (issue 21): up, down, then the AllReduce.
    // B = 100: up 4.6 us (memory), down 4.6 us (memory), AllReduce 20 us: 29.2.
    // B = 1000: up 40 us (compute), down 40 us (compute), AllReduce 200 us: 280.
    std::vector<Expected> const expected = {{100, 0, 9.2, 20, 29.2}, {1000, 80, 0, 200, 280}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        Expected const e = expected[i];
        INFO("B = " << e.b);
        auto thickness = [&](output::Series const* s) {
            auto const& [x, low, high] = s->band[i];
            CHECK(x == e.b);
            return high - low;
        };
        CHECK(thickness(compute) == Approx(e.compute).margin(1e-9));
        CHECK(thickness(memory) == Approx(e.memory).margin(1e-9));
        CHECK(thickness(network) == Approx(e.network).margin(1e-9));
        // Stacked: each band starts where the one below ends, the first at 0,
        // and together they make the step.
        CHECK(std::get<1>(compute->band[i]) == 0);
        CHECK(std::get<1>(memory->band[i]) == std::get<2>(compute->band[i]));
        CHECK(std::get<1>(network->band[i]) == std::get<2>(memory->band[i]));
        CHECK(thickness(compute) + thickness(memory) + thickness(network) ==
              Approx(e.step).epsilon(1e-12));
        double const total = m.summary->summary().t_step_total[i * 2 * 1 + 0];  // TP = 2's digit 0
        CHECK(std::get<2>(network->band[i]) == Approx(total * 1e6).epsilon(1e-12));
        // The line on top is the whole step.
        CHECK(chart.series.back().points[i].second == Approx(e.step).epsilon(1e-12));
    }

    // Along TP at B = 100: one chip is memory-bound only; no compute anywhere.
    auto const along_tp = step_chart(*m.context, m.summary->summary(), 1, 0);
    CHECK(titled(along_tp, "compute-bound cases") == nullptr);
    bool noted = false;
    for (auto const& entry : along_tp.key_entries)
        noted = noted || entry.title == "compute-bound cases: none at these points";
    CHECK(noted);
    auto const* tp_network = titled(along_tp, "collectives (network)");
    REQUIRE(tp_network);
    // Drawn in increasing TP: TP = 1 (no network), then TP = 2.
    auto const& [x1, low1, high1] = tp_network->band[0];
    auto const& [x2, low2, high2] = tp_network->band[1];
    CHECK(x1 == 1);
    CHECK(high1 - low1 == 0);
    CHECK(x2 == 2);
    CHECK(high2 - low2 == Approx(20).epsilon(1e-12));
    CHECK(high1 == Approx(18).epsilon(1e-12));
}

TEST_CASE("charts: a scaling chart only where the mesh's size follows a sweep",
          "[charts][multichip]") {
    using report::chart_detail::has_scaling_chart;
    SECTION("a mesh that follows TP") {
        auto r = render_text(mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]"),
                             "scaling");
        check_files(r);
        CHECK(r.files.count("scaling-TP-slow.svg") == 1);
        CHECK(r.files.count("scaling-TP-slow.png") == 1);
        CHECK(r.files.count("scaling-B-slow.svg") == 0);
        // roofline, sweep and step along B per TP (2 x 2), along TP (2), scaling
        CHECK(r.files.size() == 2 * 8);
        for (char const* name : {"sweep-B-slow-TP2", "sweep-B-slow-TP1", "step-B-slow-TP2",
                                 "step-B-slow-TP1", "sweep-TP-slow", "step-TP-slow"}) {
            INFO(name);
            CHECK(r.files.count(std::string(name) + ".png") == 1);
        }
        auto svg = read_file(r.folder / "scaling-TP-slow.svg");
        CHECK(contains(svg, "tokens/s per chip"));
        CHECK(contains(svg, "B = 100"));
        CHECK(contains(svg, "B = 1000"));
        CHECK(contains(svg, "against the chips of the mesh as TP varies"));
        // The roofline has the network roof: the AllReduce receives
        // 2 (N-1)/N V bytes in 2 (N-1)/N V / 1e10 s, 10 GB/s.
        auto roof = read_file(r.folder / "roofline-slow.svg");
        CHECK(contains(roof, "network roof (NVLink, 10 GB/s received per chip)"));
        CHECK(contains(roof, "network ridge 10 kFLOP/B"));
    }
    SECTION("a mesh of a fixed size: the stacked step chart, no scaling chart") {
        auto r = render_text(mesh_scenario("mesh tp = 2 over nvlink", "sweep TP = [2, 1]"),
                             "fixed_mesh");
        check_files(r);
        for (auto const& f : r.files) {
            INFO(f);
            CHECK_FALSE(f.starts_with("scaling-"));
        }
        CHECK(contains(read_file(r.folder / "step-B-slow.svg"), "collectives (network)"));
        Models m(mesh_scenario("mesh tp = 2 over nvlink", "sweep TP = [2, 1]"));
        CHECK_FALSE(has_scaling_chart(*m.context, 0, 0));
        CHECK_FALSE(has_scaling_chart(*m.context, 1, 0));
    }
    SECTION("no mesh: no scaling chart, no bands by bound, no network roof") {
        std::string text = mesh_scenario("", "sweep TP = [2, 1]");
        for (auto at = text.find("@tp"); at != std::string::npos; at = text.find("@tp"))
            text.erase(at, 3);
        auto r = render_text(text, "no_mesh");
        check_files(r);
        CHECK(r.files.size() == 2 * 5);
        for (auto const& f : r.files) {
            INFO(f);
            CHECK_FALSE(f.starts_with("scaling-"));
        }
        auto step = read_file(r.folder / "step-B-slow.svg");
        CHECK(contains(step, "Step time (sum of count \u00d7 t_lower, one chip)"));
        CHECK(contains(step, "(top level)"));
        CHECK_FALSE(contains(step, "bound cases"));
        auto roof = read_file(r.folder / "roofline-slow.svg");
        CHECK_FALSE(contains(roof, "network"));
        CHECK(contains(roof, "arithmetic intensity (FLOP/byte)"));
    }
}

TEST_CASE("charts: the scaling chart's step and tokens/s per chip, by hand", "[charts][multichip]") {
    Models m(mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]"));
    REQUIRE(report::chart_detail::has_scaling_chart(*m.context, 1, 0));
    CHECK_FALSE(report::chart_detail::has_scaling_chart(*m.context, 0, 0));
    auto const chart = report::chart_detail::scaling_chart(*m.context, m.summary->summary(), 1, 0);
    CHECK(chart.stem == "scaling-TP-slow");
    CHECK(chart.x.log);
    CHECK(chart.x.log_base == 2);
    CHECK(chart.has_y2);
    CHECK(chart.y2.label == "tokens/s per chip");
    CHECK(chart.y.label == "step time (\u00b5s)");
    // A step series per value of B, then a tokens/s series each (right axis).
    REQUIRE(chart.series.size() == 4);
    CHECK(chart.series[0].title == "B = 100");
    CHECK(chart.series[1].title == "B = 1000");
    for (std::size_t k : {2u, 3u}) CHECK(chart.series[k].style.starts_with("axes x1y2 "));
    using P = std::pair<double, double>;
    auto near = [](std::vector<P> const& got, std::vector<P> const& want) {
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            CHECK(got[i].first == want[i].first);
            CHECK(got[i].second == Approx(want[i].second).epsilon(1e-12));
        }
    };
    // x: chips 1, 2; step in µs.
    // At 2 chips the serial step of the mesh chart above: 29.2 and 280 µs.
    near(chart.series[0].points, {{1, 18}, {2, 29.2}});
    near(chart.series[1].points, {{1, 160}, {2, 280}});
    near(chart.series[2].points, {{1, 100 / 1.8e-5}, {2, 100 / 2.92e-5 / 2}});
    near(chart.series[3].points, {{1, 1000 / 1.6e-4}, {2, 1000 / 2.8e-4 / 2}});
    CHECK(chart.series[2].points[1].second == Approx(1712328.7671).epsilon(1e-9));
    CHECK(chart.series[3].points[0].second == Approx(6.25e6).epsilon(1e-12));
}

TEST_CASE("charts: the network roof and each communicating case at its network intensity",
          "[charts][multichip]") {
    Models m(mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]"));
    // down at TP = 2: the only case that communicates. B = 100: 4e8 FLOPs
    // over 2e5 network bytes = 2000 FLOP/B, attained 4e8 / 2e-5 = 2e13 =
    // 2000 x 1e10: on the network roof. B = 1000: 4e9 / 2e6 = 2000 again,
    // attained 4e9 / 2e-4 = 2e13.
    REQUIRE(m.checked->scenario.ops[1].name == "down");
    auto const& points = m.data->network(1, 0);
    REQUIRE(points.size() == 2);
    for (auto const& p : points) {
        CHECK(p.x == Approx(2000).epsilon(1e-12));
        CHECK(p.y == Approx(2e13).epsilon(1e-12));
    }
    CHECK(m.data->network(0, 0).empty());
    CHECK(m.data->network_rate(1, 0) == Approx(1e10).epsilon(1e-12));
    CHECK(m.data->network_rate(0, 0) == 0);
    auto const chart = report::chart_detail::roofline_chart(*m.context, *m.data, 0);
    auto const* roof = titled(chart, "network roof (NVLink, 10 GB/s received per chip)");
    REQUIRE(roof);
    // From the left end of the axis along 1e10 B/s up to the ridge, 1e14 / 1e10.
    REQUIRE(roof->points.size() == 2);
    CHECK(roof->points[0].second == Approx(roof->points[0].first * 1e10).epsilon(1e-12));
    CHECK(roof->points[1].first == Approx(1e4).epsilon(1e-12));
    CHECK(roof->points[1].second == 1e14);
    CHECK(chart.x.hi >= 1e4);
    CHECK(contains(chart.x.label, "filled marks per network byte"));
}

TEST_CASE("charts: no compute band from rounding where no case is compute-bound",
          "[charts][steps][multichip]") {
    // Llama 3 70B decode at B = 1 over tp = 1 .. 8: every case is memory- or
    // network-bound, so step - memory - network is a few ulps at most (the
    // sums run in different orders), which must not become a band.
    Models m(test::check_with_catalog(
        read_file(fs::path(ROOFLINE_SOURCE_DIR) / "scenarios" / "llama3-70b-decode-tp.roof")));
    auto const& summary = m.summary->summary();
    REQUIRE(m.checked->scenario.sweeps[0].name == "TP");
    for (std::size_t t = 0; t < m.grid->target_count; ++t) {
        auto const chart = report::chart_detail::step_chart(*m.context, summary, 0, t);
        INFO(chart.stem);
        CHECK(titled(chart, "compute-bound cases") == nullptr);
        CHECK(titled(chart, "memory-bound cases") != nullptr);
        CHECK(titled(chart, "collectives (network)") != nullptr);
    }
}

namespace {

// The mesh scenario with 10 MB of HBM per chip and an slo of 100 µs. Resident
// per chip: the two weights, bf16[1000, 4000 / TP] each, 2 x 8e6 / TP bytes:
// 16 MB at TP = 1 (does not fit), 8 MB at TP = 2 (fits). The steps (by hand
// above mesh_scenario): TP = 1: 18 µs at B = 100, 160 µs at B = 1000; TP = 2:
// 29.2 µs and 280 µs (serial); B = 1000 misses the slo at both.
std::string with_capacity_and_slo() {
    std::string text = mesh_scenario("mesh tp = TP over nvlink\nslo step <= 0.1 ms", "sweep TP = [2, 1]");
    std::string const domain = "nvlink_domain = 8";
    text.insert(text.find(domain) + domain.size(), "  hbm_capacity = 10 MB");
    return text;
}

// The points of the marks drawn in `style` (chart_marks.cpp), on `axes`.
std::vector<std::pair<double, double>> marked(output::Chart const& chart, char const* style,
                                              std::string const& axes = "") {
    std::vector<std::pair<double, double>> points;
    for (auto const& s : chart.series)
        if (s.style == axes + style) points.insert(points.end(), s.points.begin(), s.points.end());
    return points;
}

bool keyed(output::Chart const& chart, std::string const& title) {
    for (auto const& entry : chart.key_entries)
        if (entry.title == title) return true;
    return false;
}

void same_points(std::vector<std::pair<double, double>> const& got,
                 std::vector<std::pair<double, double>> const& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].first == want[i].first);
        CHECK(got[i].second == Approx(want[i].second).epsilon(1e-12));
    }
}

}  // namespace

TEST_CASE("charts: along B one chart per mesh size, the steps that do not fit or miss the slo marked",
          "[charts][multichip]") {
    using namespace report::chart_detail;
    Models m(with_capacity_and_slo());
    auto const& summary = m.summary->summary();
    auto const& context = *m.context;
    std::string const no_fit = "does not fit in HBM (resident bytes per chip > hbm_capacity)";
    std::string const slo = "misses the slo (step > 100 \u00b5s)";
    // Points: B's index x 2 + TP's index. Along B, one chart per TP: TP = 2
    // at point 0, TP = 1 at point 1; along TP (the mesh sweep itself), B = 100.
    REQUIRE(chart_bases(context, 0) == std::vector<std::size_t>{0, 1});
    REQUIRE(chart_bases(context, 1) == std::vector<std::size_t>{0});
    CHECK(sets_mesh(context, 1));
    CHECK_FALSE(sets_mesh(context, 0));

    auto const tp1 = step_chart(context, summary, 0, 0, 1);
    CHECK(tp1.stem == "step-B-slow-TP1");
    CHECK(contains(tp1.subtitle, "(TP = 1)"));
    CHECK(tp1.y.label == "step time (\u00b5s)");
    same_points(marked(tp1, no_fit_style), {{100, 18}, {1000, 160}});
    same_points(marked(tp1, slo_style), {{1000, 160}});
    CHECK(keyed(tp1, no_fit));
    CHECK(keyed(tp1, slo));
    auto const tp2 = step_chart(context, summary, 0, 0, 0);
    CHECK(tp2.stem == "step-B-slow-TP2");
    CHECK(marked(tp2, no_fit_style).empty());
    CHECK_FALSE(keyed(tp2, no_fit));
    same_points(marked(tp2, slo_style), {{1000, 280}});

    // The sweep chart's curves and critical values at each TP. up: at TP = 2
    // 4e6 B FLOPs over 2 (1000 B + 1000 x 2000 + 2000 B) = 6000 B + 4e6
    // bytes, compute-bound from 4e6 B / 1e14 >= (6000 B + 4e6) / 1e12, B >=
    // 117.6: 118; at TP = 1 8e6 B FLOPs over 1e4 B + 8e6 bytes: B >= 114.3:
    // 115. At TP = 1, B = 100 it attains 8e8 / 9e-6 FLOP/s (memory-bound).
    REQUIRE(m.checked->scenario.ops[0].name == "up");
    auto const& up1 = m.data->sweep(0, 0, 0, 1);
    REQUIRE(up1.size() == 2);
    CHECK(up1[0].x == 100);
    CHECK(up1[0].y == Approx(8e8 / 9e-6).epsilon(1e-12));
    CHECK(up1[1].y == Approx(1e14).epsilon(1e-12));
    auto const sweep1 = sweep_chart(context, *m.data, summary, 0, 0, 1);
    auto const sweep2 = sweep_chart(context, *m.data, summary, 0, 0, 0);
    CHECK(sweep1.stem == "sweep-B-slow-TP1");
    CHECK(titled(sweep1, "up: critical B = 115") != nullptr);
    CHECK(titled(sweep2, "up: critical B = 118") != nullptr);
    // The marks in a row above the x axis: both values of B at TP = 1.
    auto const row = marked(sweep1, no_fit_style);
    REQUIRE(row.size() == 2);
    CHECK(row[0].first == 100);
    CHECK(row[1].first == 1000);
    CHECK(keyed(sweep1, no_fit));
    CHECK(marked(sweep2, no_fit_style).empty());

    // The scaling chart: one chip (TP = 1) does not fit, on both lines and
    // both axes: the step (µs) and tokens/s per chip, 100 / 1.8e-5 and 1000 / 1.6e-4.
    auto const scaling = scaling_chart(context, summary, 1, 0, 0);
    CHECK(scaling.stem == "scaling-TP-slow");
    same_points(marked(scaling, no_fit_style), {{1, 18}, {1, 160}});
    same_points(marked(scaling, no_fit_style, "axes x1y2 "), {{1, 100 / 1.8e-5}, {1, 1000 / 1.6e-4}});
    same_points(marked(scaling, slo_style), {{1, 160}, {2, 280}});
    CHECK(keyed(scaling, no_fit));
    CHECK(keyed(scaling, slo));
}

TEST_CASE("charts: a step with an unsupported case is not drawn, and the key says so (issue 21)",
          "[charts][multichip]") {
    // The mesh scenario with `up` in fp8, which the chip has no peak for:
    // every step is unsupported (never the smaller sum of `down` alone).
    std::string text = mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]");
    std::string const up = "matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]";
    auto const at = text.find(up);
    REQUIRE(at != std::string::npos);
    text.replace(at, up.size(), "matmul up = fp8[B, D] * weight fp8[D, F@tp] -> bf16[B, F@tp]");
    Models m(text);
    auto const& summary = m.summary->summary();
    auto const step = report::chart_detail::step_chart(*m.context, summary, 0, 0, 0);
    CHECK(step.series.empty());
    auto has_note = [](output::Chart const& chart, std::string const& title) {
        for (auto const& entry : chart.key_entries)
            if (entry.title == title) return true;
        return false;
    };
    CHECK(has_note(step, "not drawn, unsupported (a case has no peak here): B = 100, 1000"));
    for (auto const& entry : step.key_entries) CHECK_FALSE(contains(entry.title, "none at these points"));
    auto const scaling = report::chart_detail::scaling_chart(*m.context, summary, 1, 0, 0);
    for (auto const& s : scaling.series) CHECK(s.points.empty());
    CHECK(has_note(scaling, "not plotted, unsupported (a case has no peak on this chip): B = 100, B = 1000"));
}
