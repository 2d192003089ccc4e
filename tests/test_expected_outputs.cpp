// t_expected beside the bounds in the outputs (docs/calibration.md section 1,
// docs/reports.md): cases.csv's t_expected and calibration columns, the
// step's expected time, a request's expected TTFT and TPOT, the tables' and
// the serve table's word on the calibration. The calibration is set by hand
// on the checked scenario (the language's `calibration` statement is not
// read here). Every expected value is derived by hand below.
//
// The chip: toy, hbm_bandwidth 1e12 B/s, peak bf16 1e14 FLOP/s; `plain` the
// same chip, uncalibrated. The calibration toy_engine on toy:
//   efficiency gemm bf16 = 0.5, efficiency hbm = 0.8, launch = 3 us,
//   step_overhead = 100 us, layer_overhead = 10 us, sequence_overhead = 2 us,
//   request_overhead = 50 us.
// The op: matmul up = bf16[B, D] * weight bf16[D, F] -> bf16[B, F], D = F =
// 1000, in `layer block x 4`: a gemm.
//   B = 1000: flops 2 x 1000^3 = 2e9, t_math = 2e9 / 1e14 = 2e-5 s; bytes
//     2 x (1e6 + 1e6 + 1e6) = 6e6, t_comms = 6e-6 s: compute-bound,
//     t_lower = t_step = 2e-5, t_upper = 2.6e-5.
//     t_expected = max(2e-5 / 0.5, 6e-6 / 0.8) + 3e-6 = 4e-5 + 3e-6 = 4.3e-5 s.
//   B = 1: flops 2e6, t_math = 2e-8 s; bytes 2 x (1000 + 1e6 + 1000) =
//     2.004e6, t_comms = 2.004e-6 s: memory-bound.
//     t_expected = max(2e-8 / 0.5, 2.004e-6 / 0.8) + 3e-6 = 2.505e-6 + 3e-6 = 5.505e-6 s.
// The step (tokens = B: B sequences; layer_count = 4):
//   B = 1000: 4 x 4.3e-5 = 1.72e-4, overheads 1e-4 + 4 x 1e-5 + 1000 x 2e-6
//     = 2.14e-3: expected 2.312e-3 s; the bounds: step 4 x 2e-5 = 8e-5,
//     t_upper 4 x 2.6e-5 = 1.04e-4. tokens/s = 1000 / 2.312e-3.
//   B = 1: 4 x 5.505e-6 = 2.202e-5, overheads 1e-4 + 4e-5 + 2e-6 = 1.42e-4:
//     expected 1.6402e-4 s.
#include "columns.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "xlsx_support.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/engine/expected.hpp"
#include "roofline/report/csv_writer.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/request_columns.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace roofline;

namespace {

nlohmann::json json_null() { return nullptr; }

bool close(double a, double b, double rel = 1e-12) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

constexpr char const* chips = R"(
hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
hardware plain { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
target toy, plain
let D = 1000
let F = 1000
)";

constexpr char const* step_text = R"(
sweep B = [1, 1000]
tokens = B
layer block x 4 {
    matmul up = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]
}
)";

model::Calibration toy_engine() {
    model::Calibration c;
    c.name = "toy_engine";
    c.hardware = "toy";
    c.math.push_back({model::OpClass::gemm, "bf16", 0.5, {}});
    c.hbm = 0.8;
    c.launch_s = 3e-6;
    c.step_overhead_s = 1e-4;
    c.layer_overhead_s = 1e-5;
    c.sequence_overhead_s = 2e-6;
    c.request_overhead_s = 5e-5;
    return c;
}

// Target 0 (toy) with toy_engine; target 1 (plain) uncalibrated.
void calibrate(model::Scenario& scenario) {
    scenario.calibrations = {toy_engine()};
    scenario.target_calibrations = {0, -1};
}

// A scenario checked, calibrated by hand, its cases streamed into cases.csv
// (held in memory) and a summary, as `run` streams them.
struct Written {
    std::unique_ptr<test::Checked> checked;
    engine::CaseGrid grid;
    report::ReportInfo info{"expected", 1, "2026-12-04T00:00:00Z", std::string(64, 'e'), "9.9.9"};
    std::vector<engine::Case> cases;
    std::unique_ptr<report::SummaryBuilder> summary;
    std::unique_ptr<report::ReportContext> context;
    std::string csv;

    explicit Written(std::string const& text, bool calibrated = true) {
        checked = test::check_text(text);
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        if (calibrated) calibrate(checked->scenario);
        auto g = engine::prepare(checked->scenario, checked->diagnostics);
        REQUIRE(g);
        grid = std::move(*g);
        context = std::make_unique<report::ReportContext>(
            report::ReportContext{checked->scenario, grid, info});
        summary = std::make_unique<report::SummaryBuilder>(*context);
        std::FILE* file = std::tmpfile();
        REQUIRE(file);
        {
            report::CsvWriter writer(file, *context);
            REQUIRE(engine::stream_cases(checked->scenario, grid, checked->diagnostics,
                                         [&](engine::Case const& c) {
                                             cases.push_back(c);
                                             summary->add(c);
                                             writer.add(c);
                                         }));
            writer.flush();
        }
        std::rewind(file);
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file)) > 0;) csv.append(buf, n);
        std::fclose(file);
    }

    model::Scenario const& scenario() const { return checked->scenario; }

    // cases.csv's rows, split at commas (no field here has one).
    std::vector<std::vector<std::string>> rows() const {
        std::vector<std::vector<std::string>> out;
        std::istringstream lines(csv);
        for (std::string line; std::getline(lines, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            auto& row = out.emplace_back();
            std::size_t at = 0;
            for (std::size_t comma; (comma = line.find(',', at)) != std::string::npos; at = comma + 1)
                row.push_back(line.substr(at, comma - at));
            row.push_back(line.substr(at));
        }
        return out;
    }
    // The field of `column` in the row of hardware `hw` at B = `b`.
    std::string field(std::string const& column, std::string const& hw, std::string const& b) const {
        auto const all = rows();
        REQUIRE_FALSE(all.empty());
        auto index = [&](std::string const& name) {
            for (std::size_t i = 0; i < all[0].size(); ++i)
                if (all[0][i] == name) return i;
            FAIL("cases.csv has no column " << name << ": " << all[0].size() << " columns");
            return std::size_t{0};
        };
        std::size_t const c = index(column), h = index("hardware"), s = index("B");
        for (std::size_t r = 1; r < all.size(); ++r)
            if (all[r][h] == hw && all[r][s] == b) return all[r][c];
        FAIL("no row of " << hw << " at B = " << b);
        return "";
    }
    double number(std::string const& column, std::string const& hw, std::string const& b) const {
        return std::stod(field(column, hw, b));
    }
};

}  // namespace

TEST_CASE("cases.csv: t_expected after the bounds, and the calibration's name", "[expected]") {
    Written w(std::string(chips) + step_text);
    auto const header = w.rows().at(0);
    // The new columns stand after t_upper (no mesh: no t_step), before bound.
    auto at = [&](std::string const& name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    REQUIRE(at("t_expected") < header.size());
    CHECK(at("t_expected") == at("t_upper") + 1);
    CHECK(at("calibration") == at("t_expected") + 1);
    CHECK(at("bound") == at("calibration") + 1);

    // Compute-bound, efficiency gemm bf16 = 0.5: 2 x t_math + launch.
    CHECK(w.number("t_math", "toy", "1000") == 2e-5);
    CHECK(close(w.number("t_expected", "toy", "1000"), 4.3e-5));
    CHECK(w.field("calibration", "toy", "1000") == "toy_engine");
    // Memory-bound, efficiency hbm = 0.8: t_comms / 0.8 + launch.
    CHECK(w.field("bound", "toy", "1") == "memory");
    CHECK(close(w.number("t_expected", "toy", "1"), 5.505e-6));
    // Uncalibrated: the serial roofline (here t_lower), and the column says so.
    CHECK(w.field("t_expected", "plain", "1000") == w.field("t_lower", "plain", "1000"));
    CHECK(w.number("t_expected", "plain", "1000") == 2e-5);
    CHECK(w.number("t_expected", "plain", "1") == 2.004e-6);
    CHECK(w.field("calibration", "plain", "1") == "uncalibrated");
}

TEST_CASE("the step: sum of count x t_expected + the step's overheads, the bounds beside it",
          "[expected]") {
    Written w(std::string(chips) + step_text);
    CHECK(engine::layer_count(w.scenario().ops) == 4);
    CHECK(report::step_sequences(w.scenario(), 1000) == 1000);  // tokens = B
    auto const& summary = w.summary->summary();
    // Points: B = 1 (0), B = 1000 (1); targets toy (0), plain (1).
    auto big = report::step_totals(*w.context, summary, 1, 0);
    CHECK(close(big.t_expected, 2.312e-3));
    CHECK(close(big.overhead, 2.14e-3));
    CHECK(close(big.t_lower, 8e-5));
    CHECK(close(big.t_upper, 1.04e-4));
    CHECK(close(big.tokens_per_s, 1000 / 2.312e-3));
    CHECK(close(big.tokens_per_s_upper, 1000 / 1.04e-4));
    auto small = report::step_totals(*w.context, summary, 0, 0);
    CHECK(close(small.t_expected, 1.6402e-4));
    // Uncalibrated: the expected step is the step, and tokens/s unchanged.
    auto plain = report::step_totals(*w.context, summary, 1, 1);
    CHECK(plain.t_expected == plain.t_lower);
    CHECK(plain.overhead == 0);
    CHECK(close(plain.t_lower, 8e-5));
    CHECK(close(plain.tokens_per_s, 1000 / 8e-5));

    // The tables (summary.txt): the calibration once per target, the
    // expected column beside the step.
    auto tables = cli::report_tables(*w.context, summary);
    CHECK(test::contains(tables, "calibration: toy with toy_engine (expected times)\n"));
    CHECK(test::contains(tables, "calibration: plain uncalibrated (expected = the serial roofline"));
    // toy's row at B = 1000: B, step, expected, t_upper, memory, tokens/s
    // (1000 / 2.312e-3 = 432,526: "433 k"), resident (the weight, 2 x 1e6 B
    // x 4 layers = 8 MB).
    std::vector<std::string> header, row;
    std::istringstream lines(tables.substr(tables.find("toy\n")));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream split(line);
        std::vector<std::string> words;
        for (std::string word; split >> word;) words.push_back(word);
        if (header.empty() && !words.empty() && words[0] == "B") header = words;
        if (row.empty() && !words.empty() && words[0] == "1000") row = words;
    }
    CHECK(header == std::vector<std::string>{"B", "step", "expected", "t_upper", "memory", "tokens/s", "resident"});
    CHECK(row == std::vector<std::string>{"1000", "80", "\u00b5s", "2.31", "ms", "104", "\u00b5s", "0%", "433", "k", "8", "MB"});
}

TEST_CASE("the step's sequences: the tokens of `tokens = B`, none of `tokens = B * S`", "[expected]") {
    Written decode(std::string(chips) + step_text, false);
    CHECK(report::step_sequences(decode.scenario(), 7) == 7);
    std::string prefill = std::string(chips) + step_text;
    prefill.replace(prefill.find("tokens = B"), 10, "let S = 2\ntokens = B * S");
    Written w(prefill);
    CHECK(report::step_sequences(w.scenario(), 2000) == 0);
    // B = 1000: 1.72e-4 + 1e-4 + 4e-5, no sequence overhead.
    CHECK(close(report::step_totals(*w.context, w.summary->summary(), 1, 0).t_expected, 3.12e-4));
}

namespace {

// A request on toy and plain, its phases as layers `block x 2`.
// Prefill (T = 1000): per case 4.3e-5 (the B = 1000 case above); the phase
//   2 x 4.3e-5 = 8.6e-5 + overheads 1e-4 + 2 x 1e-5 + 1 x 2e-6 (batch 1) =
//   2.08e-4; TTFT expected = 2.08e-4 + request_overhead 5e-5 = 2.58e-4.
//   Bounded: TTFT = 2 x 2e-5 = 4e-5.
// Decode (B = 1) at each of the 2 steps: a decode step replays a CUDA graph,
//   so no launch: per case 5.505e-6 - 3e-6 = 2.505e-6; the step 2 x 2.505e-6
//   = 5.01e-6 + 1.22e-4 = 1.2701e-4 = TPOT expected (first, mean, last);
//   decode total 2.5402e-4; e2e 2.58e-4 + 2.5402e-4 = 5.1202e-4; tokens/s
//   1 x 2 / 5.1202e-4. Bounded: TPOT = 2 x 2.004e-6 = 4.008e-6.
constexpr char const* request_text = R"(
template prefill_step(T) {
    matmul proj = bf16[T, D] * weight bf16[D, F] -> bf16[T, F]
}
template decode_step(B) {
    matmul out = bf16[B, D] * weight bf16[D, F] -> bf16[B, F]
}
request tiny(prompt = 1000, output = 2, batch = 1) {
    prefill: use prefill_step(T = prompt) as block x 2
    decode:  use decode_step(B = batch) as block x 2
}
)";

}  // namespace

TEST_CASE("a request's expected TTFT and TPOT beside the bounded ones", "[expected][requests]") {
    auto checked = test::check_text(std::string(chips) + request_text);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    calibrate(checked->scenario);
    REQUIRE(checked->scenario.requests.size() == 1);
    CHECK(engine::layer_count(checked->scenario.requests[0].prefill) == 2);
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto results = engine::evaluate_requests(checked->scenario, *grid, checked->diagnostics);
    INFO(checked->errors());
    REQUIRE(results);
    REQUIRE(results->size() == 2);  // one point, two targets
    auto const& toy = (*results)[0];
    REQUIRE(toy.target == 0);
    CHECK(close(toy.ttft, 4e-5));
    CHECK(close(toy.ttft_expected, 2.58e-4));
    CHECK(close(toy.tpot_first, 4.008e-6));
    CHECK(close(toy.tpot_first_expected, 1.2701e-4));
    CHECK(close(toy.tpot_mean_expected, 1.2701e-4));
    CHECK(close(toy.tpot_last_expected, 1.2701e-4));
    CHECK(close(toy.decode_total_expected, 2.5402e-4));
    CHECK(close(toy.e2e_expected, 5.1202e-4));
    CHECK(close(toy.tokens_per_s_expected, 2 / 5.1202e-4));
    // Uncalibrated: each expected figure is the bounded one.
    auto const& plain = (*results)[1];
    CHECK(plain.ttft_expected == plain.ttft);
    CHECK(plain.tpot_mean_expected == plain.tpot_mean);
    CHECK(plain.e2e_expected == plain.e2e);

    // requests.csv's columns read the same figures; calibration names it.
    report::ReportInfo info{"expected", 1, "2026-12-04T00:00:00Z", std::string(64, 'e'), "9.9.9"};
    report::ReportContext context{checked->scenario, *grid, info, &*results};
    bool seen = false;
    for (auto const& column : report::request_columns(checked->scenario)) {
        report::RequestRow const row{context, toy}, other{context, plain};
        if (column.csv == "ttft_expected") CHECK(close(column.spec->number(row, 0), 2.58e-4));
        if (column.csv == "calibration") {
            seen = true;
            CHECK(column.spec->text(row, 0) == "toy_engine");
            CHECK(column.spec->text(other, 0) == "uncalibrated");
        }
    }
    CHECK(seen);
}

TEST_CASE("a request's expected TTFT with the first token's steps and the per-request terms", "[expected][requests]") {
    // The request above with toy_engine and first_token_steps = 2,
    // prompt_token_overhead = 1e-8 s, request_launch = 4e-6 s. The prefill
    // launches proj x 2: 2 kernels; the prompt is 1000 tokens. TTFT expected
    // = 2.58e-4 + 2 x 1.2701e-4 (the expected TPOT) + 1000 x 1e-8 + 2 x 4e-6
    // = 2.58e-4 + 2.5402e-4 + 1e-5 + 8e-6 = 5.3002e-4; e2e = 5.3002e-4 +
    // 2.5402e-4 = 7.8404e-4; TPOT and the bounds as above.
    auto checked = test::check_text(std::string(chips) + request_text);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    calibrate(checked->scenario);
    auto& c = checked->scenario.calibrations[0];
    c.first_token_steps = 2;
    c.prompt_token_overhead_s = 1e-8;
    c.request_launch_s = 4e-6;
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto results = engine::evaluate_requests(checked->scenario, *grid, checked->diagnostics);
    REQUIRE(results);
    auto const& toy = (*results)[0];
    REQUIRE(toy.target == 0);
    CHECK(close(toy.ttft, 4e-5));
    CHECK(close(toy.ttft_expected, 5.3002e-4));
    CHECK(close(toy.tpot_mean_expected, 1.2701e-4));
    CHECK(close(toy.e2e_expected, 7.8404e-4));
    CHECK(close(toy.tokens_per_s_expected, 2 / 7.8404e-4));
    CHECK((*results)[1].ttft_expected == (*results)[1].ttft);  // plain: uncalibrated
}

TEST_CASE("the workbook: Cases' t_expected and calibration, Steps' step expected, the Summary's "
          "calibration", "[expected][xlsx]") {
    test::Sandbox dir;
    test::xlsx::Report r(std::string(chips) + step_text, calibrate);
    auto const path = dir / "report.xlsx";
    r.write(path);
    auto const dump = test::xlsx::run_tool("dump " + test::quoted(path));
    using test::xlsx::cell;

    // Cases: rows by point, then target (toy, plain); B = 1000 is rows 4, 5 (1-based).
    test::CasesColumns const cases(r.scenario());
    std::size_t const expected = cases.at("t_expected"), calibration = cases.at("calibration");
    CHECK(expected == cases.at("t_upper") + 1);
    auto const& toy = cell(dump, "Cases", 3, expected);
    CHECK_FALSE(toy.contains("f"));  // a calibrated target's t_expected is a value
    CHECK(close(toy.at("v").get<double>(), 4.3e-5));
    CHECK(cell(dump, "Cases", 3, calibration).at("v") == "toy_engine");
    // Uncalibrated: = t_lower (one chip), exact.
    auto const& plain = cell(dump, "Cases", 4, expected);
    CHECK(plain.at("f") == "=" + cases.letter("t_lower") + "5");
    CHECK(plain.at("v").get<double>() == 2e-5);
    CHECK(cell(dump, "Cases", 4, calibration).at("v") == "uncalibrated");

    // Steps: step expected after the step; toy at B = 1000 is row 4 (0-based 3).
    auto const& steps = dump.at("cells").at("Steps");
    std::size_t at = 0;
    for (std::size_t c = 0; c < steps[1].size(); ++c)
        if (steps[1][c].is_object() && steps[1][c].value("v", json_null()) == "step expected") at = c;
    REQUIRE(at == 3);  // hardware, B, step t_lower, step expected
    auto const& step = cell(dump, "Steps", 3, at);
    CHECK(close(step.at("v").get<double>(), 2.312e-3));
    std::string const range = "Cases!$" + cases.letter("t_expected") + "$2:$" + cases.letter("t_expected") + "$5";
    std::string const f = step.at("f").get<std::string>();
    CHECK(test::contains(f, "," + range + ")+0.00214"));
    // plain: no overheads, the plain sum.
    CHECK(cell(dump, "Steps", 5, at).at("f").get<std::string>().ends_with(range + ")"));
    CHECK(cell(dump, "Steps", 5, at).at("v").get<double>() == cell(dump, "Steps", 5, 2).at("v").get<double>());

    // Summary: the calibration of each target in the title block.
    bool named = false;
    for (auto const& row : dump.at("cells").at("Summary"))
        if (row.size() > 1 && row[0].is_object() && row[0].value("v", json_null()) == "calibration")
            named = row[1].at("v") == "toy: toy_engine; plain: uncalibrated";
    CHECK(named);
}

TEST_CASE("a fitted collective latency never takes a collective below its roofline time", "[expected]") {
    // By hand: a serial AllReduce over NVLink whose bandwidth time is 10 us and
    // whose roofline time is 16 us (its ring steps' 1 us latency floors).
    engine::CollectiveTime c;
    c.kind = model::CollectiveKind::allreduce;
    c.link = model::Link::nvlink;
    c.bandwidth_s = 10e-6;
    c.roofline_s = 16e-6;
    model::Calibration cal;
    cal.latencies.push_back({model::CollectiveKind::allreduce, model::Link::nvlink, 2e-6, {}});
    // 10 + 2 = 12 us < 16 us: the roofline's 16 us.
    CHECK(engine::expected_collective_seconds(c, &cal) == Approx(16e-6));
    cal.latencies[0].seconds = 10e-6;  // 10 + 10 = 20 us
    CHECK(engine::expected_collective_seconds(c, &cal) == Approx(20e-6));
    cal.latencies[0].seconds = 0;
    cal.network = 0.5;  // 10 / 0.5 + 0 = 20 us
    CHECK(engine::expected_collective_seconds(c, &cal) == Approx(20e-6));
    cal.latencies.clear();  // no latency for it: the roofline's time / e = 32 us
    CHECK(engine::expected_collective_seconds(c, &cal) == Approx(32e-6));
    c.weight = 0.5;  // a kernel member's share
    CHECK(engine::expected_collective_seconds(c, &cal) == Approx(16e-6));
    CHECK(engine::expected_collective_seconds(c, nullptr) == Approx(8e-6));
}
