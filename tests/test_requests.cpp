// Requests (docs/reports.md, "Requests"): a request's figures against the
// same model evaluated as ordinary cases, one decode step at a time; a tiny
// request by hand; and a request through `run`: requests.csv, the Requests
// sheet, the chart, the manifest, and an error that publishes nothing.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "xlsx_support.hpp"

#include "roofline/report/chart_writer.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/run.hpp"

#include <catch2/catch.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

// The step of every sweep point on target 0: the sum of count x t_lower over
// the point's cases, in case order and in long double, as the engine sums a
// request's phase.
std::vector<double> steps_per_point(model::Scenario const& scenario, engine::Evaluation const& ev) {
    std::vector<long double> sums(ev.point_count, 0);
    for (auto const& c : ev.cases)
        if (c.target == 0)
            sums[c.point] += static_cast<long double>(scenario.ops[c.op].count) * c.metrics.t_lower;
    return {sums.begin(), sums.end()};
}

struct Evaluated {
    std::unique_ptr<test::Checked> checked;
    engine::Evaluation evaluation;
};

Evaluated evaluate_catalog(std::string const& text) {
    Evaluated e;
    e.checked = test::check_with_catalog(text);
    INFO(e.checked->errors());
    REQUIRE_FALSE(e.checked->diagnostics.has_errors());
    auto ev = engine::evaluate(e.checked->scenario, e.checked->diagnostics);
    INFO(e.checked->errors());
    REQUIRE(ev);
    e.evaluation = std::move(*ev);
    return e;
}

std::vector<engine::RequestResult> requests_of(test::Checked& checked, engine::CaseGrid const& grid) {
    auto results = engine::evaluate_requests(checked.scenario, grid, checked.diagnostics);
    INFO(checked.errors());
    REQUIRE(results);
    return std::move(*results);
}

bool close(double a, double b, double rel = 1e-12) { return test::xlsx::close(a, b, rel); }

constexpr char const* dense_head = R"(
include "hardware/catalog.roof"
include "layers/dense.roof"
target h100_sxm
let D = 256
let H = 4
let KV = 2
let Hd = 64
let F = 512
)";

}  // namespace

TEST_CASE("A request's figures are the prefill's step and 256 decode steps evaluated one by one",
          "[requests]") {
    auto request = evaluate_catalog(std::string(dense_head) + R"(
request chat(prompt = 2048, output = 256, batch = 4) {
    prefill: use dense_prefill(B = batch, T = prompt, D = D, H = H, KV = KV, Hd = Hd, F = F) x 2
    decode:  use dense_decode(B = batch, S = prompt + i, D = D, H = H, KV = KV, Hd = Hd, F = F) x 2
}
)");
    // The same phases as the cases of two scenarios: the prefill at T = 2048,
    // the decode at every S = 2049 .. 2304.
    auto prefill = evaluate_catalog(std::string(dense_head) + R"(
use dense_prefill(B = 4, T = 2048, D = D, H = H, KV = KV, Hd = Hd, F = F) x 2
)");
    auto decode = evaluate_catalog(std::string(dense_head) + R"(
sweep S = 2049 .. 2304
use dense_decode(B = 4, S = S, D = D, H = H, KV = KV, Hd = Hd, F = F) x 2
)");
    REQUIRE(request.checked->scenario.ops.empty());  // a request's ops are no cases
    auto const results = requests_of(*request.checked, request.evaluation);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    auto const ttft = steps_per_point(prefill.checked->scenario, prefill.evaluation);
    auto const tpot = steps_per_point(decode.checked->scenario, decode.evaluation);
    REQUIRE(ttft.size() == 1);
    REQUIRE(tpot.size() == 256);
    REQUIRE(r.per_token.size() == 256);

    CHECK(r.prompt == 2048);
    CHECK(r.output == 256);
    CHECK(r.batch == 4);
    // Each step is summed in the same order as the cases: to the last bit.
    CHECK(r.ttft == ttft[0]);
    for (std::size_t i = 0; i < 256; ++i) {
        INFO("i = " << i + 1);
        CHECK(r.per_token[i] == tpot[i]);
    }
    long double sum = 0;
    for (double t : tpot) sum += t;
    CHECK(r.tpot_first == tpot.front());
    CHECK(r.tpot_last == tpot.back());
    CHECK(close(r.decode_total, static_cast<double>(sum)));
    CHECK(close(r.tpot_mean, static_cast<double>(sum / 256)));
    CHECK(close(r.e2e, static_cast<double>(ttft[0] + sum)));
    CHECK(close(r.tokens_per_s, 4.0 * 256 / static_cast<double>(ttft[0] + sum)));
    // The KV cache grows with the context: every step is longer than the last.
    for (std::size_t i = 1; i < 256; ++i) CHECK(r.per_token[i] >= r.per_token[i - 1]);
    // At the last step the cache holds 2304 positions: the decode scenario's
    // resident bytes at S = 2304.
    auto const& facts = decode.evaluation.point_facts.back();
    CHECK(r.cache_bytes == facts.cache_bytes);
    CHECK(r.weight_bytes == facts.weight_bytes);
    CHECK(r.cache_bytes > 0);
}

// One made-up chip, 1e15 bf16 FLOP/s, 1e12 B/s, 4e6 B of HBM; batch 1,
// D = F = 1000, prompt P = 1000, output G = 100.
//
// prefill: proj = bf16[T, D] x weight bf16[D, F], T = 1000:
//   flops 2e9 -> 2e-6 s; bytes 2 (1e6 + 1e6 + 1e6) = 6e6 -> 6e-6 s: TTFT = 6e-6.
// decode at context S = P + i:
//   out    = bf16[B, D] x weight bf16[D, F]: flops 2e6 (2e-9 s), bytes
//            2 (1000 + 1e6 + 1000) = 2.004e6 (2.004e-6 s): memory, 2.004e-6
//   scores = bf16[B, D] x cache bf16[B, S, D] -> bf16[B, S]: flops 2000 S
//            (2e-12 S s), bytes 2 (1000 + 1000 S + S) = 2000 + 2002 S, i.e.
//            2e-9 + 2.002e-9 S s: memory
//   t(i) = 2.006e-6 + 2.002e-9 (1000 + i)
//   first  t(1)   = 2.006e-6 + 2.004002e-6 = 4.010002e-6
//   last   t(100) = 2.006e-6 + 2.2022e-6   = 4.2082e-6
//   sum = 100 x 2.006e-6 + 2.002e-9 (100 x 1000 + 5050) = 2.006e-4 + 2.103101e-4 = 4.109101e-4
//   mean 4.109101e-6; e2e = 6e-6 + 4.109101e-4 = 4.169101e-4; tokens/s = 100 / e2e
// Resident at i = 100: weights 2e6 B, cache 2 x 1100 x 1000 = 2.2e6 B: 4.2e6 > 4e6, it does not fit.
constexpr char const* tiny = R"(
hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 4e6 B }
target toy
let D = 1000
let F = 1000
template prefill_step(T) {
    matmul proj = bf16[T, D] * weight bf16[D, F] -> bf16[T, F]
}
template decode_step(B, S) {
    matmul out = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]
    matmul scores = bf16[B, D] * cache bf16[B, S, D] -> bf16[B, S]
}
request tiny(prompt = 1000, output = 100, batch = 1) {
    prefill: use prefill_step(T = prompt)
    decode:  use decode_step(B = batch, S = prompt + i)
}
)";

TEST_CASE("A tiny request by hand: TTFT, an arithmetic series of decode steps, and the cache",
          "[requests]") {
    auto checked = test::check_text(tiny);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto const results = requests_of(*checked, *grid);
    REQUIRE(results.size() == 1);
    auto const& r = results[0];
    CHECK(r.batch == 1);
    CHECK(close(r.ttft, 6e-6));
    CHECK(close(r.tpot_first, 4.010002e-6));
    CHECK(close(r.tpot_last, 4.2082e-6));
    CHECK(close(r.decode_total, 4.109101e-4));
    CHECK(close(r.tpot_mean, 4.109101e-6));
    CHECK(close(r.e2e, 4.169101e-4));
    CHECK(close(r.tokens_per_s, 100 / 4.169101e-4));
    for (std::size_t i = 1; i <= 100; ++i)
        CHECK(close(r.per_token[i - 1], 2.006e-6 + 2.002e-9 * (1000 + static_cast<double>(i))));
    CHECK(r.weight_bytes == 2e6);
    CHECK(r.cache_bytes == 2.2e6);
}

namespace {

// `run` on the tiny request with a sweep of the prompt, charts when gnuplot is there.
struct RunBox : test::Sandbox {
    report::RunRequest request(std::string const& name, std::string const& text) const {
        write(name + ".roof", text);
        report::RunRequest r;
        r.scenario = (path / (name + ".roof")).string();
        r.out_root = (path / "out").string();
        r.charts = report::gnuplot_available();
        r.command_line = {"test"};
        return r;
    }
};

std::string swept_tiny() {
    std::string text = tiny;
    auto at = text.find("request tiny(prompt = 1000");
    text.replace(at, std::string("request tiny(prompt = 1000").size(), "sweep P = [1000, 3000]\nrequest tiny(prompt = P");
    return text;
}

}  // namespace

TEST_CASE("run publishes requests.csv, the Requests sheet and a chart per request and target",
          "[requests][run]") {
    RunBox box;
    Diagnostics diagnostics;
    auto outcome = report::run(box.request("tiny", swept_tiny()), diagnostics);
    INFO(format(diagnostics));
    REQUIRE(outcome.status == report::RunOutcome::Status::published);
    REQUIRE(outcome.requests.size() == 2);  // 1 request x 2 points x 1 target
    fs::path const folder = outcome.folder;

    auto const csv = test::read_file(folder / "requests.csv");
    std::string const header =
        "request,hardware,P,prompt,output,batch,ttft,tpot_first,tpot_mean,tpot_last,decode_total,"
        "e2e,tokens_per_s,weight_bytes,cache_bytes,resident_bytes,hbm_capacity,fits,ttft_expected,"
        "tpot_first_expected,tpot_mean_expected,tpot_last_expected,decode_total_expected,e2e_expected,"
        "tokens_per_s_expected,calibration\r\n";
    REQUIRE(csv.rfind(header, 0) == 0);
    // The first row's numbers as the engine has them, shortest round trip.
    auto const& r = outcome.requests[0];
    auto text = [](double v) {
        char buffer[32];
        auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        return std::string(buffer, end);
    };
    std::string row = "tiny,toy,1000,1000,100,1," + text(r.ttft) + "," + text(r.tpot_first) + "," +
                      text(r.tpot_mean) + "," + text(r.tpot_last) + "," + text(r.decode_total) +
                      "," + text(r.e2e) + "," + text(r.tokens_per_s) + "," + text(2e6) + "," + text(2.2e6) + "," +
                      text(4.2e6) + "," + text(4e6) + ",no," +
                      // Uncalibrated: each expected figure is its bounded one.
                      text(r.ttft) + "," + text(r.tpot_first) + "," + text(r.tpot_mean) + "," +
                      text(r.tpot_last) + "," + text(r.decode_total) + "," + text(r.e2e) + "," +
                      text(r.tokens_per_s) + ",uncalibrated\r\n";
    CHECK(csv.substr(header.size(), row.size()) == row);
    CHECK(test::contains(csv, "tiny,toy,3000,3000,100,1,"));

    auto manifest = report::read_manifest((folder / "manifest.json").string());
    bool listed = false;
    for (auto const& o : manifest.outputs) listed = listed || o.path == "requests.csv";
    CHECK(listed);
    if (report::gnuplot_available()) {
        CHECK(fs::exists(folder / "charts/request-tiny-toy.png"));
        CHECK(fs::exists(folder / "charts/request-tiny-toy.svg"));
        auto svg = test::read_file(folder / "charts/request-tiny-toy.svg");
        CHECK(test::contains(svg, "P = 1000: TTFT 6 µs"));
    }

    // The Requests sheet: the same figures, e2e and tokens/s as formulas.
    auto dump = test::xlsx::run_tool("dump " + test::quoted(folder / "report.xlsx"));
    using test::xlsx::cell;
    CHECK(dump.at("sheets") ==
          nlohmann::json({"Summary", "Steps", "Requests", "Hardware", "Cases", "Charts"}));
    auto v = [&](std::size_t row, std::size_t col) { return cell(dump, "Requests", row, col).at("v"); };
    CHECK(v(3, 0) == "request");
    CHECK(v(4, 0) == "tiny");
    CHECK(v(4, 2).get<double>() == 1000);
    CHECK(close(v(4, 6).get<double>(), r.ttft, 1e-15));
    CHECK(cell(dump, "Requests", 4, 11).at("f") == "=G5+K5");
    CHECK(close(v(4, 11).get<double>(), r.e2e, 1e-15));
    CHECK(cell(dump, "Requests", 4, 12).at("f") == "=F5*E5/L5");
    CHECK(cell(dump, "Requests", 4, 16).at("f") == "=Hardware!$D$2");
    CHECK(v(4, 17) == "no");
    CHECK(v(5, 2).get<double>() == 3000);
}

TEST_CASE("run of a scenario of requests alone says what it published, not 0 cases", "[requests][run]") {
    test::Sandbox box;
    box.write("tiny.roof", tiny);
    auto r = test::roofline_in(box, "run tiny.roof --no-charts");
    REQUIRE(r.exit_code == 0);
    // 1 request x 1 point x 1 target.
    CHECK(r.out.rfind("published out/tiny/v1: 1 request result in ", 0) == 0);
    CHECK_FALSE(test::contains(r.out, "0 cases"));
}

TEST_CASE("A request that fails at some sweep point fails the run and publishes nothing",
          "[requests][run]") {
    RunBox box;
    std::string text = tiny;
    auto at = text.find("output = 100");
    text.replace(at, std::string("output = 100").size(), "output = G - 4");
    text = "sweep G = [8, 4]\n" + text;
    Diagnostics diagnostics;
    auto outcome = report::run(box.request("bad", text), diagnostics);
    CHECK(outcome.status == report::RunOutcome::Status::invalid_input);
    auto const errors = format(diagnostics);
    CHECK(test::contains(errors, "the output must be"));
    CHECK(test::contains(errors, "(request 'tiny', at G = 4)"));
    CHECK_FALSE(fs::exists(box / "out/bad/v1"));
}
