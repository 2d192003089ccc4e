// The gnuplot charts (reports.md, "charts/"): the files a report gets, that
// they are valid SVG and PNG of the promised size, that names from a scenario
// stay data however hostile, and that the same inputs give the same SVG bytes.
// gnuplot is required: without it these tests fail (make deps installs it).
#include "roofline/report/chart_writer.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "step_scenario.hpp"
#include "chart_models.hpp"

#include "output/chart.hpp"
#include "output/chart_ticks.hpp"
#include "report/chart_model.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

using namespace roofline;
namespace fs = std::filesystem;
using test::contains;
using test::read_file;
using test::charts::check_files;
using test::charts::render;
using test::charts::Rendered;
using test::charts::render_text;

namespace {

// Every file the spec promises for these targets and sweeps, and no other:
// `steps` are the sweeps with more than one value, `step_hardware` the
// targets with a peak for some matmul (the step charts' conditions).
std::set<std::string> expected_files(std::vector<std::string> const& hardware,
                                     std::vector<std::string> const& sweeps,
                                     std::vector<std::string> const& steps,
                                     std::vector<std::string> const& step_hardware) {
    std::set<std::string> files;
    for (auto const& hw : hardware)
        for (char const* ext : {".svg", ".png"}) {
            files.insert("roofline-" + hw + ext);
            for (auto const& v : sweeps) files.insert("sweep-" + v + "-" + hw + ext);
        }
    for (auto const& hw : step_hardware)
        for (char const* ext : {".svg", ".png"})
            for (auto const& v : steps) files.insert("step-" + v + "-" + hw + ext);
    return files;
}
// Every sweep with several values, every target with a peak for a matmul.
std::set<std::string> expected_files(std::vector<std::string> const& hardware,
                                     std::vector<std::string> const& sweeps) {
    return expected_files(hardware, sweeps, sweeps, hardware);
}

constexpr char const* chips = R"roof(
hardware v5e {
    name = "TPU v5e (book)"
    hbm_bandwidth = 8.2e11 B/s  peak int8 = 3.94e14 OP/s  peak bf16 = 1.97e14 FLOP/s
}
hardware h100 { hbm_bandwidth = 3.35e12 B/s  peak bf16 = 9.89e14 FLOP/s }
)roof";

}  // namespace

TEST_CASE("charts: gnuplot is there", "[charts]") {
    REQUIRE(report::gnuplot_available());
}

TEST_CASE("charts: one roofline per target and one sweep chart per sweep and target", "[charts]") {
    auto r = render_text(std::string(chips) + R"roof(
        scenario "Two sweeps"
        target v5e, h100
        sweep B = 1 .. 64
        sweep S = 128 .. 1024 times 2
        let D = 1024
        let F = 1024
        matmul up = bf16[B, S, D] * bf16[D, F] -> bf16[B, S, F]
        layer block {
            matmul q = int8[B, D] * int8[D, F] -> int8[B, F]
        })roof",
                         "files");
    // int8 has no peak on h100: q is left out of that chip's charts, which
    // are drawn all the same.
    CHECK(r.files == expected_files({"v5e", "h100"}, {"B", "S"}));
    check_files(r);
    auto sweep = read_file(r.folder / "sweep-B-v5e.svg");
    CHECK(contains(sweep, "block/q"));
    CHECK(contains(read_file(r.folder / "roofline-h100.svg"),
                   "block/q: not plotted, no int8 peak"));
}

TEST_CASE("charts: the exercises scenario marks the chapter's critical batch sizes", "[charts]") {
    auto checked = test::check_with_catalog(
        read_file(fs::path(ROOFLINE_SOURCE_DIR) / "scenarios" / "roofline-exercises.roof"));
    Rendered r;
    render(*checked, r.box / "exercises", &r);
    CHECK(r.files == expected_files({"v5e_book", "h100_book"}, {"B"}));
    check_files(r);
    // critical_B by hand (reports.md and the scenario's notes): int8 at
    // D = F = 4096 on v5e: 2*4096*4096*B / (2*4096*B + 4096^2) >= 3.94e14 / 8.2e11
    // from B = 273; w8a16 (bf16 compute, int8 weights): 137; per_example never.
    auto svg = read_file(r.folder / "sweep-B-v5e_book.svg");
    CHECK(contains(svg, "d4096/int8_matmul: critical B = 273"));
    CHECK(contains(svg, "d4096/w8a16: critical B = 137"));
    CHECK(contains(svg, "d1024/w8a16: critical B = 227"));
    CHECK(contains(svg, "d4096/per_example: never compute-bound"));
    CHECK(contains(svg, ">273<"));  // the label at the marker
    // The roofline names the ridges: 3.94e14 / 8.2e11 = 480.5, 1.97e14 / 8.2e11 = 240.2.
    auto roof = read_file(r.folder / "roofline-v5e_book.svg");
    CHECK(contains(roof, "ridge 480 FLOP/B"));
    CHECK(contains(roof, "ridge 240 FLOP/B"));
}

TEST_CASE("charts: a stacked step chart per sweep and target, the layers named in the key",
          "[charts][steps]") {
    // step_scenario.hpp: attn x 2 and mlp x 3 on fast and half.
    auto r = render_text(test::step::scenario, "steps");
    CHECK(r.files == expected_files({"fast", "half"}, {"B"}));
    check_files(r);
    auto svg = read_file(r.folder / "step-B-fast.svg");
    CHECK(contains(svg, "Step by hand"));
    CHECK(contains(svg, "against B on Fast chip [fast]"));
    // Bands bottom up in the order the layers first appear, a key entry each.
    auto attn = svg.find(">attn<"), mlp = svg.find(">mlp<");
    CHECK(attn != std::string::npos);
    CHECK(mlp != std::string::npos);
    CHECK(attn < mlp);
    // The largest step is 2.8e-4 s (B = 1000, by hand): the axis is in µs.
    CHECK(contains(svg, "step time (\u00b5s)"));
    CHECK(contains(read_file(r.folder / "step-B-half.svg"), "against B on half"));
}

TEST_CASE("charts: a dtype sweep has a sweep and a step chart per dtype and no chart along itself",
          "[charts][steps][dtype-sweep]") {
    std::string const text = test::step::with_dtype_sweep(false);
    auto r = render_text(text, "dtype_steps");
    for (char const* chip : {"fast", "half"}) {
        std::string const c = chip;
        for (std::string const& name : {"roofline-" + c, "sweep-B-" + c + "-bf16", "sweep-B-" + c + "-int8",
                                        "step-B-" + c + "-bf16", "step-B-" + c + "-int8"}) {
            INFO(name);
            CHECK(r.files.count(name + ".svg") == 1);
            CHECK(r.files.count(name + ".png") == 1);
        }
    }
    for (auto const& f : r.files) {
        INFO(f);
        CHECK_FALSE(contains(f, "wdt"));  // no chart along a dtype sweep
    }
    CHECK(r.files.size() == 2 * 10);
    auto bf16 = read_file(r.folder / "step-B-fast-bf16.svg");
    auto int8 = read_file(r.folder / "step-B-fast-int8.svg");
    CHECK(contains(bf16, "against B on Fast chip [fast] (wdt = bf16)"));
    CHECK(contains(int8, "against B on Fast chip [fast] (wdt = int8)"));
    CHECK(bf16 != int8);
    // The sweep charts' data, per dtype: up (op 1) on fast at B = 1 is
    // memory-bound, 8e6 FLOPs over 8,010,000 bytes in bf16 (2 x 1000 + 2 x
    // 4e6 + 2 x 4000) and over 4,010,000 in int8 (the weight at 1 byte), at
    // 1e12 B/s; at B = 1000 it is compute-bound in both (attained = 1e14).
    {
        auto& checked = *r.checked;
        auto grid = engine::prepare(checked.scenario, checked.diagnostics);
        REQUIRE(grid);
        report::ReportInfo info;
        report::ReportContext context{checked.scenario, *grid, info};
        report::ChartData data(context);
        REQUIRE(engine::stream_cases(checked.scenario, *grid, checked.diagnostics,
                                     [&](engine::Case const& c) { data.add(c); }));
        REQUIRE(context.dtype_bases() == std::vector<std::size_t>{0, 1});
        REQUIRE(checked.scenario.ops[1].name == "up");
        for (std::size_t base : {0u, 1u}) {
            auto const& points = data.sweep(0, 1, 0, base);
            REQUIRE(points.size() == 3);
            double const bytes = base == 0 ? 8'010'000.0 : 4'010'000.0;
            CHECK(points[0].x == 1);
            CHECK(points[0].y == Approx(8e6 / (bytes / 1e12)).epsilon(1e-12));
            CHECK(points[2].x == 1000);
            CHECK(points[2].y == Approx(1e14).epsilon(1e-12));
        }
    }
    auto sweep_bf16 = read_file(r.folder / "sweep-B-fast-bf16.svg");
    auto sweep_int8 = read_file(r.folder / "sweep-B-fast-int8.svg");
    CHECK(contains(sweep_bf16, "against B on Fast chip [fast] (wdt = bf16)"));
    CHECK(contains(sweep_int8, "against B on Fast chip [fast] (wdt = int8)"));
    CHECK(sweep_bf16 != sweep_int8);

    // An op computing in the swept dtype: on a chip with a bf16 peak only,
    // the fp8 sweep chart says that fp8 is what is missing.
    auto fp8 = render_text(R"roof(
        hardware bf16_only { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
        target bf16_only
        sweep wdt = [bf16, fp8]
        sweep B = [1, 64, 512]
        let D = 1024
        matmul m = wdt[B, D] * wdt[D, D2] -> bf16[B, D2]
        let D2 = 1024)roof",
                           "dtype_unsupported");
    auto const fp8_sweep = read_file(fp8.folder / "sweep-B-bf16_only-fp8.svg");
    CHECK(contains(fp8_sweep, "m: not plotted, no fp8 peak on this chip"));
    CHECK_FALSE(contains(read_file(fp8.folder / "sweep-B-bf16_only-bf16.svg"), "not plotted"));
    // The roofline holds both dtypes' cases: bf16 is plotted, so no note.
    CHECK_FALSE(contains(read_file(fp8.folder / "roofline-bf16_only.svg"), "not plotted"));
}

TEST_CASE("charts: no step chart for a sweep of one value, nor on a chip with no peak to use",
          "[charts][steps]") {
    auto r = render_text(std::string(chips) + R"roof(
        hardware int8_only { hbm_bandwidth = 1e12 B/s  peak int8 = 1e14 OP/s }
        target v5e, int8_only
        sweep B = [1, 64, 512]
        sweep S = [2048]
        let D = 1024
        layer l x 4 {
            matmul m = bf16[B, S, D] * bf16[D, D2] -> bf16[B, S, D2]
        }
        let D2 = 1024)roof",
                         "no_steps");
    CHECK(r.files == expected_files({"v5e", "int8_only"}, {"B", "S"}, {"B"}, {"v5e"}));
    check_files(r);
}

TEST_CASE("charts: the same inputs give the same SVG bytes", "[charts]") {
    std::string text = std::string(chips) + R"roof(
        scenario "Reproducible"
        target v5e, h100
        sweep B = [1, 8, 64, 512, 4096]
        let D = 4096
        let F = 4096
        matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F])roof";
    auto a = render_text(text, "same_a");
    auto b = render_text(text, "same_b");
    REQUIRE(a.files == b.files);
    for (auto const& name : a.files)
        if (name.ends_with(".svg")) {
            INFO(name);
            CHECK(read_file(a.folder / name) == read_file(b.folder / name));
        }
}

TEST_CASE("charts: names from the scenario are data, never gnuplot code", "[charts]") {
    std::string const pwned = "/tmp/roofline_pwned_" + std::to_string(::getpid()) + "_";
    auto touch = [&](int n) { return "touch " + pwned + std::to_string(n); };
    for (int n = 1; n <= 9; ++n) fs::remove(pwned + std::to_string(n));

    // What the language lets through: \" and \\ in strings.
    std::string text =
        "scenario \"T'it\\\"le \\\\ `" + touch(1) + "` '; system(\\\"" + touch(2) +
        "\\\") ; ' @x & <svg> ^_{} \\\\n\"\n"
        "hardware chip_a { name = \"A'\\\"; system(\\\"" +
        touch(3) +
        "\\\") ; '\" hbm_bandwidth = 8.2e11 B/s  peak int8 = 3.94e14 OP/s }\n"
        "hardware chip_b { name = \"`" +
        touch(4) +
        "` \\\\\" hbm_bandwidth = 1e12 B/s  peak int8 = 1e14 OP/s }\n"
        "target chip_a, chip_b\n"
        "sweep B = 1 .. 300\n"
        "layer lay { let D = 512\n let F = 512\n matmul m = int8[B, D] * int8[D, F] -> int8[B, F]\n"
        " matmul n = int8[B, D] * int8[D, F] -> int8[B, F] }\n";
    auto checked = test::check_text(text);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    // What the language does not let through (matmul and layer names are
    // identifiers, a string has no newline), put in directly: the writer
    // must not trust the checker for its safety.
    auto& s = checked->scenario;
    s.title += "\nsystem(\"" + touch(5) + "\")\n";
    s.ops[0].name = "m'\n; system(\"" + touch(6) + "\")\n'`" + touch(7) + "`";
    s.ops[0].layer = "l\r\t'\"\\ \x01\x7f";
    s.ops[1].name = "n'; system(\"" + touch(8) + "\") ; '\n!" + touch(9) + "\n";
    s.hardware[static_cast<std::size_t>(s.targets[1])].display_name += "\n!" + touch(9) + "\n";
    s.ops[1].layer = "bad \xff\xfe utf8 \xc2\x85 \xed\xa0\x80 <&>";  // not UTF-8, a C1 control

    Rendered r;
    render(*checked, r.box / "hostile", &r);
    CHECK(r.files == expected_files({"chip_a", "chip_b"}, {"B"}));
    check_files(r);
    for (int n = 1; n <= 9; ++n) {
        INFO(pwned + std::to_string(n));
        CHECK_FALSE(fs::exists(pwned + std::to_string(n)));
    }
    // The names are drawn as text.
    auto svg = read_file(r.folder / "sweep-B-chip_a.svg");
    CHECK(contains(svg, "`" + touch(1) + "`"));
    CHECK(contains(svg, touch(6)));
    CHECK(contains(svg, touch(8)));
    CHECK(contains(read_file(r.folder / "roofline-chip_b.svg"), "`" + touch(4) + "`"));
}

TEST_CASE("charts: a sweep series keeps at most 500 evenly spread points", "[charts]") {
    auto checked = test::check_text(std::string(chips) + R"roof(
        target v5e
        sweep B = 1 .. 4096
        sweep D = [256, 512, 1024]
        let F = 256
        matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F])roof");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    report::ReportInfo info;
    report::ReportContext context{checked->scenario, *grid, info};
    report::ChartData data(context);
    REQUIRE(engine::stream_cases(checked->scenario, *grid, checked->diagnostics,
                                 [&](engine::Case const& c) { data.add(c); }));
    auto const& b = data.sweep(0, 0, 0);
    REQUIRE(b.size() == 500);
    CHECK(b.front().x == 1);
    CHECK(b.back().x == 4096);
    // At D = 256 (the first value), B = 1: 2*256*256 FLOPs over
    // 2*(256 + 256*256 + 256) bytes at 8.2e11 B/s, memory-bound.
    double intensity = 2.0 * 256 * 256 / (2.0 * (256 + 256 * 256 + 256));
    CHECK_THAT(b.front().y, Catch::Matchers::WithinRel(intensity * 8.2e11, 1e-12));
    auto const& d = data.sweep(1, 0, 0);  // D at B = 1
    REQUIRE(d.size() == 3);
    CHECK(d[0].x == 256);
    CHECK(d[2].x == 1024);
    CHECK(data.roofline(0, 0).size() == 500);
}

TEST_CASE("charts: errors are ChartError", "[charts]") {
    auto checked = test::check_text(std::string(chips) + R"roof(
        target v5e
        sweep B = 1 .. 4
        let D = 64
        matmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]
        let D2 = 64)roof");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    report::ReportInfo info;
    report::ReportContext context{checked->scenario, *grid, info};
    report::ChartData data(context);
    report::SummaryBuilder summary(context);
    REQUIRE(engine::stream_cases(checked->scenario, *grid, checked->diagnostics,
                                 [&](engine::Case const& c) {
                                     data.add(c);
                                     summary.add(c);
                                 }));

    // A folder that cannot be made: its parent is a file.
    test::Sandbox box;
    auto file = box / "a_file";
    test::write_file(file, "x");
    CHECK_THROWS_AS(
        report::render_charts((file / "charts").string(), context, data, summary.summary()),
        report::ChartError);

    // No gnuplot on PATH.
    struct PathGuard {
        std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
        PathGuard() { ::setenv("PATH", "/nonexistent", 1); }
        ~PathGuard() { ::setenv("PATH", saved.c_str(), 1); }
    };
    auto folder = box / "no_gnuplot";
    {
        PathGuard no_gnuplot;
        CHECK_FALSE(report::gnuplot_available());
        try {
            report::render_charts(folder.string(), context, data, summary.summary());
            FAIL("no ChartError");
        } catch (report::ChartError const& e) {
            CHECK(contains(e.what(), "gnuplot not found"));
        }
    }
    CHECK(report::gnuplot_available());
}

TEST_CASE("charts: tick labels are plain decimals or powers of ten, never SI prefixes",
          "[charts]") {
    using output::decimal_tick;
    using output::power_tick;
    CHECK(power_tick(1e14) == "10\u00b9\u2074");
    CHECK(power_tick(2e14) == "2\u00d710\u00b9\u2074");
    CHECK(power_tick(5e-3) == "5\u00d710\u207b\u00b3");
    CHECK(power_tick(2.5e12) == "2.5\u00d710\u00b9\u00b2");
    CHECK(power_tick(1) == "10\u2070");
    CHECK(power_tick(0) == "0");
    // A tick computed as 3 x 10^-1 is 0.30000000000000004: shown as 0.3.
    CHECK(decimal_tick(3 * std::pow(10.0, -1)) == "0.3");
    CHECK(decimal_tick(0.1) == "0.1");
    CHECK(decimal_tick(0.02) == "0.02");
    CHECK(decimal_tick(500) == "500");
    CHECK(decimal_tick(10000) == "10000");
    CHECK(decimal_tick(0) == "0");
    CHECK(decimal_tick(1e7) == "10\u2077");
    // The ticks of 0.1 .. 1000 on a log axis: 1, 2, 5 in each decade.
    auto ticks = output::log_ticks(0.1, 1000, decimal_tick);
    std::vector<std::string> labels;
    for (auto const& t : ticks) labels.push_back(t.second);
    CHECK(labels == std::vector<std::string>{"0.1", "0.2", "0.5", "1", "2", "5", "10", "20",
                                             "50", "100", "200", "500", "1000"});

    // The roofline of a chip: intensity ticks in decimals, FLOP/s in powers
    // of ten (the v5e's bf16 peak, 1.97e14, is inside 10^14 .. 5x10^14).
    auto r = render_text(std::string(chips) + R"roof(
        target v5e
        sweep B = 1 .. 300
        let D = 512
        let F = 512
        matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F])roof",
                         "ticks");
    auto svg = read_file(r.folder / "roofline-v5e.svg");
    CHECK(contains(svg, "<text>10\u00b9\u2074</text>"));
    CHECK(contains(svg, "<text>0.5</text>"));
    CHECK_FALSE(contains(svg, " m</text>"));
    CHECK_FALSE(contains(svg, " T</text>"));
}

TEST_CASE("charts: an op of 0 FLOPs is named under the chart, not a series of the key",
          "[charts]") {
    // gather: 0 FLOPs, so intensity 0 and attained 0, which log axes cannot
    // show; m: B = 1 .. 300 at D = 512, intensity from 2 B 512^2 / (2 (512 B +
    // 512^2 + 512 B)) = 0.996 at B = 1 up to 138 at B = 300.
    std::string const pwned = std::string("/tmp/roofline_pwned_zero_").append(std::to_string(::getpid()));
    fs::remove(pwned);
    auto checked = test::check_text(std::string(chips) + R"roof(
        target v5e
        sweep B = 1 .. 300
        let D = 512
        let F = 512
        elementwise gather = bf16[B, D] -> bf16[B, D] flops 0
        matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F])roof");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    // The name is data: it reaches the note as text.
    checked->scenario.ops[0].name = "gather'; system(\"touch " + pwned + "\") ; '";
    Rendered r;
    render(*checked, r.box / "zero", &r);
    check_files(r);
    CHECK_FALSE(fs::exists(pwned));
    auto count = [](std::string const& text, std::string const& what) {
        std::size_t n = 0;
        for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    for (char const* name : {"roofline-v5e.svg", "sweep-B-v5e.svg"}) {
        INFO(name);
        auto svg = read_file(r.folder / name);
        CHECK(contains(svg, "not on a log axis: gather"));
        // The roofline's key wraps its lines (beside the plot), after the path's '/'.
        CHECK(contains(svg, std::string(name).starts_with("roofline") ? fs::path(pwned).filename().string()
                                                                       : "touch " + pwned));
        CHECK(contains(svg, " (0 FLOPs)</text>"));
        // The name is in the note only: no key entry of its own, no series.
        CHECK(count(svg, "gather") >= 1);
        CHECK(count(svg, "gather") == count(svg, "not on a log axis: gather"));
        CHECK(contains(svg, "<text>m"));
    }
    // The range comes from the positive data and the roof: intensity 0.996
    // .. 138 and the ridge 1.97e14 / 8.2e11 = 240 give 0.5 .. 500 (nice ends
    // of 0.996 / 1.3 and 240 x 1.5), never 0.
    auto svg = read_file(r.folder / "roofline-v5e.svg");
    CHECK(contains(svg, "<text>0.5</text>"));
    CHECK(contains(svg, "<text>500</text>"));
}

TEST_CASE("charts: off_log_note says why", "[charts]") {
    CHECK(output::off_log_note("embedding/gather", true, false, false) ==
          "not on a log axis: embedding/gather (0 FLOPs)");
    CHECK(output::off_log_note("x", false, true, false) == "not on a log axis: x (0 bytes)");
    CHECK(output::off_log_note("x", true, true, true) ==
          "not on a log axis: x (0 FLOPs, 0 bytes at some points)");
}
