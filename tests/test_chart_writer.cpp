// The gnuplot charts (reports.md, "charts/"): the files a report gets, that
// they are valid SVG and PNG of the promised size, that names from a scenario
// stay data however hostile, and that the same inputs give the same SVG bytes.
// gnuplot is required: without it these tests fail (make deps installs it).
#include "roofline/report/chart_writer.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "step_scenario.hpp"

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

namespace {

struct Rendered {
    std::unique_ptr<test::Checked> checked;
    test::Sandbox box;  // holds the folder
    fs::path folder;
    std::set<std::string> files;  // names in the folder
};

// Evaluates the checked scenario through the streaming pass, as `run` does,
// and renders its charts into a fresh `folder`.
void render(test::Checked& checked, fs::path const& folder, Rendered* out = nullptr) {
    INFO(checked.errors());
    REQUIRE_FALSE(checked.diagnostics.has_errors());
    auto grid = engine::prepare(checked.scenario, checked.diagnostics);
    REQUIRE(grid);
    report::ReportInfo info;
    info.name = "charts_test";
    report::ReportContext context{checked.scenario, *grid, info};
    report::ChartData data(context);
    report::SummaryBuilder summary(context);
    REQUIRE(engine::stream_cases(checked.scenario, *grid, checked.diagnostics,
                                 [&](engine::Case const& c) {
                                     data.add(c);
                                     summary.add(c);
                                 }));
    fs::remove_all(folder);
    report::render_charts(folder.string(), context, data, summary.summary());
    if (out) {
        out->folder = folder;
        for (auto const& entry : fs::directory_iterator(folder))
            out->files.insert(entry.path().filename().string());
    }
}

Rendered render_text(std::string const& text, std::string const& name) {
    Rendered r;
    r.checked = test::check_text(text);
    render(*r.checked, r.box / name, &r);
    return r;
}

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

// Well-formed XML (xmllint, from libxml2-utils, which make deps installs) whose
// root element is <svg>.
void check_svg(fs::path const& path) {
    INFO(path.string());
    auto xmllint = test::run_command("xmllint --noout --nonet " + test::quoted(path));
    INFO(xmllint.err);
    CHECK(xmllint.exit_code == 0);
    std::string text = read_file(path);
    std::size_t at = 0;
    // Skip the prolog: <?xml ...?>, comments, <!DOCTYPE ...>.
    while ((at = text.find('<', at)) != std::string::npos &&
           (text.compare(at, 2, "<?") == 0 || text.compare(at, 2, "<!") == 0))
        ++at;
    REQUIRE(at != std::string::npos);
    CHECK(text.compare(at, 5, "<svg ") == 0);
}

// The PNG signature, then the IHDR chunk with the width and height.
void check_png(fs::path const& path, std::uint32_t width, std::uint32_t height) {
    INFO(path.string());
    std::string bytes = read_file(path);
    REQUIRE(bytes.size() > 24);
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(bytes.compare(12, 4, "IHDR") == 0);
    auto be32 = [&](std::size_t i) {
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes[i + k]);
        return v;
    };
    CHECK(be32(16) == width);
    CHECK(be32(20) == height);
}

void check_files(Rendered const& r) {
    for (auto const& name : r.files) {
        if (name.ends_with(".svg")) check_svg(r.folder / name);
        if (name.ends_with(".png")) check_png(r.folder / name, 1000, 700);
    }
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
        CHECK(contains(svg, "touch " + pwned));
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

// ---- Charts of a mesh -------------------------------------------------------------

namespace {

// Two ops on a chip whose NVLink is slow, tensor-parallel over TP = 2 (the
// first value) and 1, B = 100 and 1000, tokens = B.
// chip: 1e12 B/s HBM, bf16 1e14 FLOP/s, NVLink 1e10 B/s (latency 1 µs).
// up   = bf16[B, D] x bf16[D, F@tp] -> bf16[B, F@tp]: no collective.
// down = bf16[B, F@tp] x bf16[F@tp, D] -> bf16[B, D]: an AllReduce over tp
//        of V = 2 B D bytes: each chip receives 2 (N-1)/N V, in
//        2 (N-1)/N V / 1e10 s (over the 2 (N-1) µs floor here).
// D = 1000, F = 4000. At TP = 2, per chip:
//   B = 100   up    flops 2 100 1000 2000 = 4e8: 4e-6 s; bytes 2 (1e5 + 2e6) + 2 (2e5) = 4.6e6: 4.6e-6 s   memory
//             down  flops 4e8: 4e-6 s; bytes 2 (2e5 + 2e6) + 2 (1e5) = 4.6e6: 4.6e-6 s;
//                   net 2e5 B, t_net 2e5 / 1e10 = 2e-5 s                                   network
//             step 4.6e-6 + 2e-5 = 2.46e-5: compute 0, memory 4.6e-6, network 2e-5
//   B = 1000  up    flops 4e9: 4e-5 s; bytes 2 (1e6 + 2e6) + 2 (2e6) = 1e7: 1e-5 s          compute
//             down  flops 4e9: 4e-5 s; bytes 2 (2e6 + 2e6) + 2 (1e6) = 1e7: 1e-5 s;
//                   net 2e6 B, t_net 2e-4 s                                                network
//             step 4e-5 + 2e-4 = 2.4e-4: compute 4e-5, memory 0, network 2e-4
// At TP = 1 (one chip, no collective):
//   B = 100   each op flops 8e8: 8e-6 s; bytes 2 (1e5 + 4e6) + 2 (4e5) = 9e6: 9e-6 s      memory
//             step 1.8e-5
//   B = 1000  each op flops 8e9: 8e-5 s; bytes 2 (1e6 + 4e6) + 2 (4e6) = 1.8e7: 1.8e-5 s  compute
//             step 1.6e-4
// tokens/s per chip = B / step / chips:
//   TP = 2: 100 / 2.46e-5 / 2 = 2,032,520.3; 1000 / 2.4e-4 / 2 = 2,083,333.3
//   TP = 1: 100 / 1.8e-5 = 5,555,555.6;      1000 / 1.6e-4 = 6,250,000
std::string mesh_scenario(std::string const& mesh, std::string const& sweep_tp) {
    return R"roof(
        scenario "Two ops on a slow switch"
        hardware slow {
            hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s
            nvlink_bandwidth = 1e10 B/s  nvlink_domain = 8
        }
        target slow
        sweep B = [100, 1000]
        )roof" + sweep_tp + "\n" + mesh + R"roof(
        let D = 1000
        let F = 4000
        tokens = B
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        matmul down = bf16[B, F@tp] * weight bf16[F@tp, D] -> bf16[B, D])roof";
}

// The chart models of a scenario, from the streaming pass as `run` makes them.
struct Models {
    std::unique_ptr<test::Checked> checked;
    std::optional<engine::CaseGrid> grid;
    report::ReportInfo info;
    std::unique_ptr<report::ReportContext> context;
    std::unique_ptr<report::ChartData> data;
    std::unique_ptr<report::SummaryBuilder> summary;

    explicit Models(std::string const& text) : Models(test::check_text(text)) {}
    explicit Models(std::unique_ptr<test::Checked> c) : checked(std::move(c)) {
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        auto prepared = engine::prepare(checked->scenario, checked->diagnostics);
        REQUIRE(prepared);
        grid.emplace(std::move(*prepared));
        context = std::make_unique<report::ReportContext>(
            report::ReportContext{checked->scenario, *grid, info});
        data = std::make_unique<report::ChartData>(*context);
        summary = std::make_unique<report::SummaryBuilder>(*context);
        REQUIRE(engine::stream_cases(checked->scenario, *grid, checked->diagnostics,
                                     [&](engine::Case const& c) {
                                         data->add(c);
                                         summary->add(c);
                                     }));
    }
};

output::Series const* titled(output::Chart const& chart, std::string const& title) {
    for (auto const& s : chart.series)
        if (s.title == title) return &s;
    return nullptr;
}

}  // namespace

TEST_CASE("charts: with a mesh the step chart stacks compute, memory and network time",
          "[charts][steps][multichip]") {
    Models m(mesh_scenario("mesh tp = TP over nvlink", "sweep TP = [2, 1]"));
    using report::chart_detail::step_chart;
    // Along B at TP = 2 (its first value): the step is in µs (the largest, 2.8e-4 s).
    auto const chart = step_chart(*m.context, m.summary->summary(), 0, 0);
    CHECK(chart.stem == "step-B-slow");
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
        CHECK(r.files.size() == 2 * 6);  // roofline, sweep x 2, step x 2, scaling
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
    // x: chips 1, 2; step in µs. At 2 chips the serial step of the mesh
    // chart above: 29.2 and 280 µs (the AllReduce after down).
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
