// The serve outputs (serving.md, section 4) from hand-made serve results:
// serve.csv's header and a row, fleet.csv, the engines' launch settings of a
// TP 4 mesh, the Serve and Fleet sheets, the charts' names and files, and
// the terminal's tables.
#include "chart_models.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "xlsx_support.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/report/chart_writer.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/run.hpp"
#include "roofline/report/serve_columns.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include "report/chart_model.hpp"
#include "report/launch_settings.hpp"
#include "report/serve_csv.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace roofline;
namespace fs = std::filesystem;
using test::contains;

namespace {

// Two configurations (TP = 2, 4) along the rate R = 1, 4 requests/s: points
// (R, TP) = (1, 2), (1, 4), (4, 2), (4, 4), the first sweep slowest.
constexpr char const* text = R"(
scenario "Serve reports"
hardware toy {
    hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s  hbm_capacity = 80e9 B
    nvlink_bandwidth = 1e10 B/s  nvlink_domain = 8
}
target toy
sweep R = [1, 4]
sweep TP = [2, 4]
mesh tp = TP over nvlink
let D = 1000
let F = 4000
matmul up = bf16[R, D] * weight bf16[D, F@tp] -> bf16[R, F@tp]
)";

// The serve statement as the checker would give it (poisson(R), the
// defaults: max_seqs 256, max_step_tokens 8192, memory_utilization 0.9) and
// one SLO.
void add_serve(model::Scenario& scenario) {
    model::Serve serve;
    serve.name = "chat";
    serve.arrivals = model::Serve::Arrivals::poisson;
    serve.arrivals_slot = scenario.sweeps[0].slot;
    scenario.serve = serve;
    model::ServeSlo slo;
    slo.figure = model::ServeSlo::Figure::ttft;
    slo.statistic = model::ServeSlo::Statistic::p99;
    slo.limit_s = 1;
    slo.text = "ttft_p99 <= 1 s";
    scenario.serve_slos = {slo};
}

// Point p's result: figures made up, consistent with each other (tok/s per
// chip = tok/s / chips). The point at R = 4, TP = 2 is saturated.
engine::ServeResult result(std::uint32_t point) {
    double const tp = point % 2 == 0 ? 2 : 4, rate = point < 2 ? 1 : 4;
    engine::ServeResult r;
    r.point = point;
    r.target = 0;
    r.chips = tp;
    r.rate = rate;
    r.weight_bytes = 2e9;
    r.reserve_bytes = 1e9;
    r.kv_bytes_per_token = 1e5;
    r.kv_capacity_tokens = 2500000;
    r.served_rate = rate * 0.5;
    r.output_tokens_per_s = 256 * rate;
    r.output_tokens_per_s_per_chip = 256 * rate / tp;
    r.ttft = {0.125, 0.25, 0.5, 0.25};
    r.tpot = {0.015625, 0.03125, 0.0625, 0.03125};
    r.e2e = {2, 3, 4, 2.5};
    if (point == 2) r.ttft.p99 = 8, r.saturated = true;
    r.mean_running = 12.5;
    r.mean_step = 0.015625;
    r.peak_kv_tokens = 65536;
    r.steps = 1000;
    r.requests = 900;
    r.slo_met = {static_cast<std::uint8_t>(point == 2 ? 0 : 1)};
    return r;
}

struct Fixture {
    std::unique_ptr<test::Checked> checked;
    std::optional<engine::CaseGrid> grid;
    report::ReportInfo info{"serve-test", 1, "2026-12-02T20:00:00Z", std::string(64, 'c'), "9.9.9"};
    std::vector<engine::ServeResult> serve;
    std::vector<engine::FleetRow> fleet;
    std::unique_ptr<report::ReportContext> context;

    Fixture() {
        checked = test::check_text(text);
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        add_serve(checked->scenario);
        auto prepared = engine::prepare(checked->scenario, checked->diagnostics);
        REQUIRE(prepared);
        grid.emplace(std::move(*prepared));
        for (std::uint32_t p = 0; p < 4; ++p) serve.push_back(result(p));
        // Fleet rate 10 /s: TP 2 serves 1.5 /s per replica -> ceil(10 / 1.5) = 7
        // replicas of 2 chips = 14; TP 4 3.5 /s -> ceil(10 / 3.5) = 3 replicas
        // of 4 chips = 12: the fewest chips; TP 2 the cheapest (made up).
        engine::FleetRow tp2{0, 0, 1.5, 7, 14, 28, 1.5, 9.8, 0.5, false, true, "", "", 0, 0};
        engine::FleetRow tp4{1, 0, 3.5, 3, 12, 36, 2.5, 8.4, 0.5, true, false, "", "", 0, 0};
        fleet = {tp2, tp4};
        checked->scenario.fleet_rate = 10;
        context = std::make_unique<report::ReportContext>(
            report::ReportContext{checked->scenario, *grid, info, nullptr, &serve, &fleet});
    }
};

}  // namespace

TEST_CASE("serve.csv: the header, and a row of a hand-made result", "[serve-report]") {
    Fixture f;
    test::Sandbox box;
    auto const path = box.path / "serve.csv";
    report::write_serve_csv(path.string(), *f.context);
    auto const csv = test::read_file(path);
    std::string const header =
        "hardware,R,TP,chips,rate,clients,served_rate,output_tokens_per_s,"
        "output_tokens_per_s_per_chip,ttft_p50,ttft_p90,ttft_p99,ttft_mean,tpot_p50,tpot_p90,"
        "tpot_p99,tpot_mean,e2e_p50,e2e_p90,e2e_p99,e2e_mean,mean_running,mean_step,"
        "peak_kv_tokens,kv_capacity_tokens,weight_bytes,reserve_bytes,kv_bytes_per_token,"
        "kv_bytes_per_sequence,steps,requests,preemptions,saturated,slos_met,slo_ttft_p99,problem,"
        "calibration\r\n";
    REQUIRE(csv.rfind(header, 0) == 0);
    // Point 1: R = 1, TP = 4, 4 chips; 256 x 1 tok/s, 64 per chip; served 0.5 /s;
    // the bytes in the shortest text that reads back (2e9 is "2e+09").
    std::string const row1 =
        "toy,1,4,4,1,0,0.5,256,64,0.125,0.25,0.5,0.25,0.015625,0.03125,0.0625,0.03125,2,3,4,2.5,"
        "12.5,0.015625,65536,2500000,2e+09,1e+09,1e+05,0,1000,900,0,no,yes,yes,,uncalibrated\r\n";
    INFO(csv);
    CHECK(contains(csv, row1));
    // Point 2 (R = 4, TP = 2) is saturated and misses the SLO: 1024 tok/s, 512 per chip.
    CHECK(contains(csv, "toy,4,2,2,4,0,2,1024,512,0.125,0.25,8,"));
    CHECK(contains(csv, ",yes,no,no,,uncalibrated\r\n"));
    // Four rows after the header.
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);

    report::write_fleet_csv((box.path / "fleet.csv").string(), *f.context);
    auto const fleet = test::read_file(box.path / "fleet.csv");
    // The load sweep R is what the fleet searched: not a column.
    CHECK(fleet.rfind("hardware,TP,chips_per_replica,max_rate_per_replica,replicas,chips,"
                      "dollars_per_hour,dollars_per_million_tokens,kilowatts,joules_per_token,"
                      "fewest_chips,cheapest,why_none,vllm,trtllm,sglang,calibration\r\n",
                      0) == 0);
    CHECK(contains(fleet, "toy,4,4,3.5,3,12,36,2.5,8.4,0.5,yes,,,vllm serve MODEL --tensor-parallel-size 4 "));
}

TEST_CASE("serve configurations: the load sweep set apart", "[serve-report]") {
    Fixture f;
    CHECK(report::serve_load_sweeps(f.checked->scenario) == 1);  // R is sweep 0
    // Point 3 is (R = 4, TP = 4): its configuration starts at (R = 1, TP = 4), point 1.
    CHECK(report::serve_config_point(*f.context, 3) == 1);
    CHECK(report::serve_config_point(*f.context, 2) == 0);
    CHECK(report::serve_config_text(*f.context, 3) == "TP = 4");
}

TEST_CASE("launch settings of a TP 4 mesh for vLLM, TensorRT-LLM and SGLang", "[serve-report]") {
    Fixture f;
    auto const s = report::launch_settings(*f.context, 1, 0, &f.serve[1]);
    CHECK(s.layout.tp == 4);
    CHECK(s.layout.pp == 1);
    CHECK(s.layout.dp == 1);
    CHECK(s.layout.ep == 1);
    // TensorRT-LLM's KV share of the memory after weights (2 GB) and reserve
    // (1 GB) on 80 GB: (0.9 x 80 - 3) / (80 - 3) = 69 / 77 = 0.8961 -> 0.89.
    // SGLang's static share (weights + KV): (0.9 x 80 - 1) / 80 = 0.8875 -> 0.88.
    CHECK(s.vllm ==
          "vllm serve MODEL --tensor-parallel-size 4 --max-num-seqs 256 "
          "--max-num-batched-tokens 8192 --gpu-memory-utilization 0.9");
    CHECK(s.trtllm ==
          "trtllm-serve MODEL --tp_size 4 --pp_size 1 --ep_size 1 --max_batch_size 256 "
          "--max_num_tokens 8192 --kv_cache_free_gpu_memory_fraction 0.89");
    CHECK(s.sglang ==
          "python -m sglang.launch_server --model-path MODEL --tp-size 4 --dp-size 1 --ep-size 1 "
          "--max-running-requests 256 --chunked-prefill-size 8192 --mem-fraction-static 0.88");
}

TEST_CASE("launch layouts: the mesh's axes by name", "[serve-report]") {
    model::Scenario scenario;
    auto axis = [](std::string name, bool pipeline = false) {
        model::MeshAxis a;
        a.name = std::move(name);
        a.pipeline = pipeline;
        return a;
    };
    // The MoE serving mesh dp x tp_ep x tp_etp = 2 x 4 x 1: attention TP =
    // tp_ep x tp_etp = 4, DP 2; moe_ep = dp x tp_ep = 8.
    scenario.mesh = {axis("dp"), axis("tp_ep"), axis("tp_etp")};
    auto moe = report::engine_layout(scenario, {2, 4, 1});
    CHECK(moe.tp == 4);
    CHECK(moe.dp == 2);
    CHECK(moe.ep == 8);
    CHECK(moe.pp == 1);
    // A pipeline axis by its mark, whatever its name; X of a TPU is TP.
    scenario.mesh = {axis("X"), axis("stages", true)};
    auto tpu = report::engine_layout(scenario, {4, 2});
    CHECK(tpu.tp == 4);
    CHECK(tpu.pp == 2);
    CHECK(tpu.ep == 1);
    // With DP 2 and EP, the lines say so.
    Fixture f;
    f.checked->scenario.mesh[0].name = "dp";  // the fixture's one axis, of TP = 4, now DP
    auto const s = report::launch_settings(*f.context, 1, 0, nullptr);
    CHECK(s.layout.dp == 4);
    CHECK(s.layout.tp == 1);
    CHECK(contains(s.vllm, "--tensor-parallel-size 1 --data-parallel-size 4 "));
    CHECK(contains(s.trtllm, "--tp_size 4 --pp_size 1 --ep_size 1 "));
    CHECK(contains(s.trtllm, "enable_attention_dp"));
    CHECK(contains(s.sglang, "--tp-size 4 --dp-size 4 --ep-size 1 --enable-dp-attention"));
}

TEST_CASE("the Serve and Fleet sheets", "[serve-report][xlsx]") {
    Fixture f;
    test::Sandbox box;
    auto const path = box.path / "report.xlsx";
    {
        report::SummaryBuilder summary(*f.context);
        report::XlsxWriter writer(path.string(), *f.context);
        REQUIRE(engine::stream_cases(f.checked->scenario, *f.grid, f.checked->diagnostics,
                                     [&](engine::Case const& c) {
                                         summary.add(c);
                                         writer.add(c);
                                     }));
        writer.finish(summary.summary());
    }
    auto dump = test::xlsx::run_tool("dump " + test::quoted(path));
    CHECK(dump.at("sheets") ==
          nlohmann::json({"Summary", "Steps", "Serve", "Fleet", "Hardware", "Cases", "Charts"}));
    using test::xlsx::cell;
    auto v = [&](char const* sheet, std::size_t row, std::size_t col) { return cell(dump, sheet, row, col).at("v"); };
    // The note that saturated latencies are lower bounds.
    CHECK(contains(v("Serve", 2, 0).get<std::string>(), "LOWER BOUNDS"));
    CHECK(v("Serve", 4, 0) == "hardware");
    CHECK(v("Serve", 4, 11) == "TTFT p99");
    CHECK(v("Serve", 4, 31) == "preemptions");
    CHECK(v("Serve", 4, 32) == "saturated (lower bounds)");
    CHECK(v("Serve", 4, 34) == "SLO ttft_p99 <= 1 s");
    // Row 5 is point 0 (R = 1, TP = 2); row 7 point 2, saturated.
    CHECK(v("Serve", 5, 0) == "toy");
    CHECK(v("Serve", 5, 2).get<double>() == 2);
    CHECK(v("Serve", 5, 8).get<double>() == 128);  // 256 tok/s over 2 chips
    CHECK(v("Serve", 7, 11).get<double>() == 8);
    CHECK(v("Serve", 7, 31).get<double>() == 0);
    CHECK(v("Serve", 7, 32) == "yes");
    CHECK(v("Fleet", 4, 0) == "hardware");
    CHECK(v("Fleet", 5, 4).get<double>() == 7);   // replicas of TP 2
    CHECK(v("Fleet", 6, 5).get<double>() == 12);  // chips of TP 4
    CHECK(v("Fleet", 6, 10) == "yes");            // the fewest chips
}

TEST_CASE("the serve charts: latency per target and the throughput front", "[serve-report][charts]") {
    Fixture f;
    using report::chart_detail::serve_front_chart;
    using report::chart_detail::serve_latency_chart;
    auto const latency = serve_latency_chart(*f.context, 0);
    CHECK(latency.stem == "serve-chat-latency-toy");
    CHECK(latency.y.log);  // 15.6 ms to 8 s: over 20 times
    // Two configurations x four curves, then the saturated marks (one point, four curves).
    REQUIRE(latency.series.size() == 9);
    CHECK(latency.series[0].title == "TP = 2: TTFT p99");
    CHECK(latency.series[0].points == output::Points{{1, 0.5}, {4, 8}});  // in s: up to 8 s
    CHECK(latency.series[8].title == "saturated: the figure is a lower bound");
    CHECK(latency.series[8].points.size() == 4);

    auto const front = serve_front_chart(*f.context);
    CHECK(front.stem == "serve-chat-front");
    // x = 1 / TPOT p50 = 64 tokens/s per user; y = tok/s per chip along R.
    REQUIRE(front.series.size() >= 2);
    CHECK(front.series[0].title == "TP = 2");
    CHECK(front.series[0].points == output::Points{{64, 128}, {64, 512}});
    CHECK(front.series[1].points == output::Points{{64, 64}, {64, 256}});

    if (!report::gnuplot_available()) return;
    test::charts::Models m(std::move(f.checked));
    m.context->serve = &f.serve;
    m.context->fleet = &f.fleet;
    test::Sandbox box;
    report::render_charts((box.path / "charts").string(), *m.context, *m.data, m.summary->summary(), nullptr);
    for (char const* name : {"serve-chat-latency-toy", "serve-chat-front"}) {
        CHECK(fs::exists(box.path / "charts" / (std::string(name) + ".png")));
        CHECK(fs::exists(box.path / "charts" / (std::string(name) + ".svg")));
    }
}

TEST_CASE("the terminal's Serve and Fleet tables", "[serve-report]") {
    Fixture f;
    auto const out = cli::serve_summary(*f.context);
    CHECK(contains(out, "serve chat: "));
    CHECK(contains(out, "SLOs ttft_p99 <= 1 s"));
    // The saturated point's latencies after "≥".
    CHECK(contains(out, "\u2265 8 s"));
    CHECK(contains(out, "\u2265 125 ms"));
    CHECK(contains(out, "fleet for 10 requests/s"));
    CHECK(contains(out, "fewest chips"));
    CHECK(contains(out, "launch settings of the fewest-chips configuration (toy, TP = 4)"));
    CHECK(contains(out, "launch settings of the cheapest configuration (toy, TP = 2)"));
    CHECK(contains(out, "vLLM:          vllm serve MODEL --tensor-parallel-size 4 "));
}

namespace {

// A small serve scenario through `run`: one chip, the rate swept, an SLO and a fleet.
constexpr char const* small_serve = R"(
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 80e9 B }
target chip
sweep R = [1, 4]
let D = 64
let F = 64
serve chat {
    prompt = 128
    output = 16
    arrivals = poisson(R)
    requests = 200
    warmup = 20
    seed = 1
    linear: let N = tokens matmul up = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]
    decode: let S = context let B = 1 matmul qk = bf16[B, D] * cache bf16[S, D] -> bf16[B, S]
    prefill: let T = chunk let K = start + chunk
    matmul pq = bf16[T, D] * cache bf16[K, D] -> bf16[T, K]
}
slo ttft_p99 <= 1 s
fleet rate = 100 /s
)";

}  // namespace

TEST_CASE("run of a small serve scenario publishes serve.csv, fleet.csv, the sheets, the charts and the tables",
          "[serve-report][run]") {
    test::Sandbox box;
    box.write("chat.roof", small_serve);
    report::RunRequest request;
    request.scenario = (box.path / "chat.roof").string();
    request.out_root = (box.path / "out").string();
    request.charts = report::gnuplot_available();
    request.command_line = {"test"};
    request.tables = [](report::ReportContext const& context, report::Summary const& summary) {
        return cli::report_tables(context, summary);
    };
    Diagnostics diagnostics;
    auto outcome = report::run(request, diagnostics);
    INFO(format(diagnostics));
    REQUIRE(outcome.status == report::RunOutcome::Status::published);
    // 2 points x 1 target; one configuration (R is the load).
    REQUIRE(outcome.serve.size() == 2);
    REQUIRE(outcome.fleet.size() == 1);
    fs::path const folder = outcome.folder;

    auto const csv = test::read_file(folder / "serve.csv");
    CHECK(csv.rfind("hardware,R,chips,rate,clients,served_rate,", 0) == 0);
    CHECK(contains(csv, "\r\nchip,1,1,1,0,"));
    CHECK(contains(csv, "\r\nchip,4,1,4,0,"));
    auto const fleet = test::read_file(folder / "fleet.csv");
    CHECK(fleet.rfind("hardware,chips_per_replica,max_rate_per_replica,", 0) == 0);
    CHECK(contains(fleet, "vllm serve MODEL --tensor-parallel-size 1 "));

    auto manifest = report::read_manifest((folder / "manifest.json").string());
    auto listed = [&](std::string const& name) {
        for (auto const& o : manifest.outputs)
            if (o.path == name) return true;
        return false;
    };
    CHECK(listed("serve.csv"));
    CHECK(listed("fleet.csv"));
    if (request.charts) {
        CHECK(listed("charts/serve-chat-latency-chip.png"));
        CHECK(listed("charts/serve-chat-front.svg"));
    }
    auto dump = test::xlsx::run_tool("dump " + test::quoted(folder / "report.xlsx"));
    auto const sheets = dump.at("sheets");
    CHECK(std::find(sheets.begin(), sheets.end(), "Serve") != sheets.end());
    CHECK(std::find(sheets.begin(), sheets.end(), "Fleet") != sheets.end());
    CHECK(test::xlsx::cell(dump, "Serve", 5, 0).at("v") == "chip");

    auto const summary = test::read_file(folder / "summary.txt");
    CHECK(contains(summary, "serve chat: "));
    CHECK(contains(summary, "fleet for 100 requests/s"));
    CHECK(contains(summary, "launch settings of the "));
}
