// roofline calibrate (docs/calibration.md): the NNLS solver on a problem
// solved by hand, the measured file's errors at their line and column, and
// the fit recovering factors chosen by hand from rows generated with them.
#include "helpers.hpp"
#include "sandbox.hpp"

#include "calibrate/fit.hpp"
#include "calibrate/measured_csv.hpp"
#include "calibrate/modelled.hpp"
#include "calibrate/nnls.hpp"
#include "calibrate/pricing.hpp"
#include "calibrate/series.hpp"
#include "roofline/calibrate/calibrate.hpp"
#include "roofline/calibrate/predict.hpp"
#include "roofline/validation/publish.hpp"
#include "validation/charts.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::calibrate;

namespace {

std::string const configs = std::string(ROOFLINE_SOURCE_DIR) + "/tests/measured/configs";

std::string const header =
    "id,backend,backend_version,model_path,system,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,"
    "batch_size,tp_size,pp_size,attention_dp_size,moe_tp_size,moe_ep_size,silicon_ttft_ms,silicon_tpot_ms,config\n";

std::string message_of(std::string const& text) {
    try {
        parse_measured("m.csv", text);
    } catch (MeasuredError const& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("calibrate: NNLS holds a coefficient at zero where least squares would make it negative",
          "[calibrate]") {
    // min (x1 - 1)^2 + (x2 + 1)^2 + (x1 + x2 - 0.5)^2 over x >= 0: unconstrained
    // x2 < 0, so x2 = 0 and x1 minimizes (x1 - 1)^2 + (x1 - 0.5)^2: x1 = 0.75.
    Eigen::MatrixXd a(3, 2);
    a << 1, 0, 0, 1, 1, 1;
    Eigen::VectorXd b(3);
    b << 1, -1, 0.5;
    auto r = nnls(a, b);
    CHECK(r.converged);
    CHECK(r.x(0) == Approx(0.75));
    CHECK(r.x(1) == 0);
    // A consistent system with both positive: its exact solution.
    b << 2, 3, 5;
    r = nnls(a, b);
    CHECK(r.x(0) == Approx(2));
    CHECK(r.x(1) == Approx(3));
}

TEST_CASE("calibrate: a measured file's errors at their line and column", "[calibrate]") {
    std::string const good = "r1,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,bf16,agg,128,64,,,8,1,1,,1,0,12.5,7.25,x.json\n";
    // Quoted fields keep their commas; a parallel size of 0 or empty means 1.
    auto file = parse_measured("m.csv", header + "\"r,1\",trtllm,\"1.0\",m,h100_sxm,bf16,agg,128,64,,,8,2,1,,1,0,12.5,7.25,x.json\n");
    REQUIRE(file.rows.size() == 1);
    CHECK(file.rows[0].key.id == "r,1");
    CHECK(file.rows[0].tp == 2);
    CHECK(file.rows[0].moe_ep == 1);
    CHECK(file.rows[0].ttft_s == Approx(0.0125));
    CHECK(file.rows[0].tpot_s == Approx(0.00725));
    CHECK(file.rows[0].key.line == 2);

    // A missing column: at the header.
    std::string no_tpot = header;
    no_tpot.replace(no_tpot.find("silicon_tpot_ms"), 15, "tpot");
    CHECK(message_of(no_tpot + good).rfind("m.csv:1:1: error: missing column 'silicon_tpot_ms'", 0) == 0);
    // A negative latency: at its field (column 1 + the length of what precedes it).
    std::string negative = good;
    negative.replace(negative.find("12.5"), 4, "-3");
    std::size_t const comma = negative.find(",-3,");
    REQUIRE(comma != std::string::npos);
    std::size_t const column = comma + 2;
    CHECK(message_of(header + negative).rfind("m.csv:2:" + std::to_string(column) +
                                                  ": error: column 'silicon_ttft_ms' must be positive", 0) == 0);
    // Not a number, a batch of 2.5, a field too few, the same id twice.
    std::string word = good;
    word.replace(word.find("7.25"), 4, "fast");
    CHECK(message_of(header + word).find("column 'silicon_tpot_ms' must be a number, but it is 'fast'") != std::string::npos);
    std::string half = good;
    half.replace(half.find(",8,1,1,"), 7, ",2.5,1,1,");
    CHECK(message_of(header + half).find("column 'batch_size' must be a positive integer") != std::string::npos);
    CHECK(message_of(header + good.substr(0, good.rfind(','))  + "\n").find("this row has 19 fields, the header 20") !=
          std::string::npos);
    CHECK(message_of(header + good + good).find("m.csv:3:1: error: id 'r1' is used by an earlier row") !=
          std::string::npos);
    // The caret under the field.
    // Built by append: GCC 12 at -O3 warns (-Wrestrict) on "\n" + std::string(n, ' ').
    std::string caret = "\n";
    caret.append(column - 1, ' ');
    caret.push_back('^');
    CHECK(message_of(header + negative).find(caret) != std::string::npos);
}

TEST_CASE("calibrate: a row that cannot be modelled is listed with its reason, never dropped",
          "[calibrate]") {
    test::Sandbox box;
    std::string rows = header;
    // Llama 8B: 32 heads do not split over 3 GPUs; an unknown config; a
    // disaggregated row; one that models.
    rows += "a,trtllm,1,m,h100_sxm,bf16,agg,128,16,,,4,3,1,,1,0,10,5,meta-llama--Meta-Llama-3.1-8B_config.json\n";
    rows += "b,trtllm,1,m,h100_sxm,bf16,agg,128,16,,,4,1,1,,1,0,10,5,nowhere.json\n";
    rows += "c,trtllm,1,m,h100_sxm,bf16,disagg,128,16,,,,,,,,,10,5,meta-llama--Meta-Llama-3.1-8B_config.json\n";
    rows += "d,trtllm,1,m,h100_sxm,bf16,agg,128,16,,,4,1,1,,1,0,10,5,meta-llama--Meta-Llama-3.1-8B_config.json\n";
    auto path = test::write_file(box.path / "m.csv", rows);
    PredictOptions options;
    options.configs_dir = configs;
    options.uncalibrated = true;
    auto v = validate_measured(path.string(), options);
    REQUIRE(v.rows.size() == 1);
    CHECK(v.rows[0].key.id == "d");
    REQUIRE(v.skipped.size() == 3);
    CHECK(v.skipped[0].key.id == "a");
    CHECK(v.skipped[0].reason.find("is not a multiple of --tp 3") != std::string::npos);
    CHECK(v.skipped[1].reason == "config 'nowhere.json' not found");
    CHECK(v.skipped[2].reason.rfind("disaggregated", 0) == 0);
}

TEST_CASE("calibrate: a relative error past the cap costs c (1 + ln(|r| / c)), weighted c / r^2",
          "[calibrate][fit]") {
    // Up to the cap the loss is |r| and its IRLS weight 1 / |r| (at least 1 %).
    CHECK(row_loss(0.5, 1) == Approx(0.5));
    CHECK(row_loss(-1, 1) == Approx(1));
    CHECK(row_loss_weight(0.25, 1) == Approx(4));
    CHECK(row_loss_weight(0.001, 1) == Approx(100));
    // Past it: e times the cap costs 2 c, e^2 times 3 c; the weight c / r^2
    // (loss'(r) / r = (c / r) / r).
    CHECK(row_loss(std::exp(1.0), 1) == Approx(2));
    CHECK(row_loss(-std::exp(2.0), 1) == Approx(3));
    CHECK(row_loss(0.5 * std::exp(1.0), 0.5) == Approx(1));
    CHECK(row_loss_weight(4, 1) == Approx(1.0 / 16));
    CHECK(row_loss_weight(-2, 0.5) == Approx(0.125));
    // Continuous at the cap, and a cap of 0 is plain |r|.
    CHECK(row_loss(1.0000001, 1) == Approx(1).epsilon(1e-6));
    CHECK(row_loss(40, 0) == Approx(40));
    CHECK(row_loss_weight(40, 0) == Approx(1.0 / 40));
}

namespace {

// The recovery rows (docs/calibration.md, section 2): three models of
// different depths and kernels per layer (so that the step, layer and
// launch costs separate), at several batches and lengths, on H100 with the
// tensor parallelism that puts an AllReduce in each layer.
std::string recovery_rows() {
    struct Model {
        char const* config;
        int tp;
    };
    std::vector<Model> const models = {{"meta-llama--Meta-Llama-3.1-8B_config.json", 1},
                                       {"Qwen--Qwen3-32B_config.json", 2},
                                       {"meta-llama--Meta-Llama-3.1-70B_config.json", 4}};
    std::string rows = header;
    int n = 0;
    for (auto const& m : models)
        for (auto [isl, osl] : {std::pair{128, 32}, {1024, 16}, {2048, 48}})
            for (int batch : {1, 8, 64}) {
                char line[512];
                std::snprintf(line, sizeof line, "r%d,trtllm,1,m,h100_sxm,bf16,agg,%d,%d,,,%d,%d,1,,1,0,1,1,%s\n", ++n,
                              isl, osl, batch, m.tp, m.config);
                rows += line;
            }
    return rows;
}

// The factors the recovery rows are generated with, chosen by hand.
model::Calibration recovery_truth() {
    model::Calibration truth;
    truth.math.push_back({model::OpClass::gemm, "bf16", 0.8, {}});
    truth.hbm_by_class.push_back({model::OpClass::gemm, 0.85, {}});
    truth.hbm_by_class.push_back({model::OpClass::attention, 0.7, {}});
    truth.hbm = 0.9;
    truth.network = 0.75;
    truth.latencies.push_back({model::CollectiveKind::allreduce, model::Link::nvlink, 15e-6, {}});
    truth.launch_s = 3e-6;
    truth.step_overhead_s = 500e-6;
    truth.layer_overhead_s = 50e-6;
    truth.sequence_overhead_s = 10e-6;
    truth.request_overhead_s = 5e-3;
    truth.stream_overhead_s = 20e-6;  // per output token/s: 20 ms at 1,000 tokens/s
    truth.admission_wait = 0.3;       // steps per sequence in flight
    truth.cold_start = 0.1;           // a tenth of the requests in the cold first wave
    truth.first_token_steps = 1.5;    // steps after the first token's own
    truth.prompt_token_overhead_s = 2e-6;  // per prompt token: 2 ms at 1,024 tokens
    truth.request_launch_s = 20e-6;        // per kernel of a prompt's forward
    return truth;
}

// The measured file of `rows`: each row's times with the factors of
// `truth`, times scale(row index).
std::string measured_with(std::string const& rows, model::Calibration const& truth,
                          std::function<double(std::size_t)> const& scale, test::Sandbox const& box) {
    auto placeholder = test::write_file(box.path / "placeholder.csv", rows);
    auto modelled = model_measured(placeholder.string(), configs, {});
    std::string measured = header;
    for (std::size_t i = 0; i < modelled.file.rows.size(); ++i) {
        REQUIRE(modelled.models[i].problem == "");
        auto [ttft, tpot] = predict_row(modelled.models[i], &truth);
        auto const& f = modelled.file.rows[i].fields;
        char buffer[1024];
        std::snprintf(buffer, sizeof buffer, "%s,trtllm,1,m,h100_sxm,bf16,agg,%s,%s,,,%s,%s,1,,1,0,%.17g,%.17g,%s\n",
                      f.at("id").c_str(), f.at("isl").c_str(), f.at("osl").c_str(), f.at("batch_size").c_str(),
                      f.at("tp_size").c_str(), ttft * 1e3 * scale(i), tpot * 1e3 * scale(i),
                      f.at("config").c_str());
        measured += buffer;
    }
    return measured;
}

}  // namespace

TEST_CASE("calibrate: factors chosen by hand are recovered from rows generated with them",
          "[calibrate][recovery]") {
    test::Sandbox box;
    auto const truth = recovery_truth();
    auto path = test::write_file(box.path / "measured.csv",
                                 measured_with(recovery_rows(), truth, [](std::size_t) { return 1.0; }, box));
    CalibrateOptions options;
    options.configs_dir = configs;
    options.folds = 3;
    auto result = calibrate_measured(path.string(), options);
    REQUIRE(result.groups.size() == 1);
    auto const& c = result.groups[0].calibration;
    CHECK(c.name == "h100_sxm_trtllm");
    CHECK(c.e_math(model::OpClass::gemm, "bf16") == Approx(0.8).epsilon(0.01));
    CHECK(c.e_hbm(model::OpClass::gemm) == Approx(0.85).epsilon(0.01));
    CHECK(c.e_hbm(model::OpClass::attention) == Approx(0.7).epsilon(0.01));
    CHECK(c.e_hbm(model::OpClass::elementwise) == Approx(0.9).epsilon(0.01));
    CHECK(c.e_network() == Approx(0.75).epsilon(0.01));
    REQUIRE(c.latency(model::CollectiveKind::allreduce, model::Link::nvlink));
    CHECK(*c.latency(model::CollectiveKind::allreduce, model::Link::nvlink) == Approx(15e-6).epsilon(0.01));
    CHECK(c.launch_s == Approx(3e-6).epsilon(0.01));
    CHECK(c.step_overhead_s == Approx(500e-6).epsilon(0.01));
    CHECK(c.layer_overhead_s == Approx(50e-6).epsilon(0.01));
    CHECK(c.sequence_overhead_s == Approx(10e-6).epsilon(0.01));
    CHECK(c.request_overhead_s == Approx(5e-3).epsilon(0.01));
    CHECK(c.stream_overhead_s == Approx(20e-6).epsilon(0.01));
    CHECK(c.admission_wait == Approx(0.3).epsilon(0.01));
    CHECK(c.cold_start == Approx(0.1).epsilon(0.01));
    CHECK(c.first_token_steps == Approx(1.5).epsilon(0.01));
    CHECK(c.prompt_token_overhead_s == Approx(2e-6).epsilon(0.01));
    CHECK(c.request_launch_s == Approx(20e-6).epsilon(0.01));
    // Noise-free data: the fit's errors are those of rounding; a fold
    // without one model's series cannot tell all the factors apart, so
    // cross-validation is only close.
    CHECK(result.groups[0].fit_tpot.median_ape < 1e-6);
    CHECK(result.groups[0].fit_ttft.median_ape < 1e-6);
    CHECK(result.groups[0].cv_tpot.median_ape < 0.05);
    CHECK(result.groups[0].cv_ttft.median_ape < 0.05);
}

TEST_CASE("calibrate: a row predicted 20 times over pulls the factors no harder than one at the cap",
          "[calibrate][recovery]") {
    // The recovery rows, but one (Qwen3-32B, 1,024 + 16 tokens, batch 8)
    // measured at a twentieth of its true times: predicted 19 times over,
    // as `serve` predicts a queue an engine did not have. Without the cap its
    // |r| of 19 outweighs the other 26 rows and drags factors to their bounds
    // (gemm's math efficiency to 1, the step and layer costs to 0); with it
    // (row_loss: 1 + ln 19 = 3.9, slope 1 / 19) it pulls as one row at
    // 100 % does, and each factor lands nearer the truth, though not on it:
    // a single row at 100 % moves the factors few rows pin down.
    test::Sandbox box;
    auto const truth = recovery_truth();
    auto path = test::write_file(
        box.path / "measured.csv",
        measured_with(recovery_rows(), truth, [](std::size_t i) { return i == 13 ? 0.05 : 1.0; }, box));
    auto fitted = [&](double cap) {
        CalibrateOptions options;
        options.configs_dir = configs;
        options.folds = 2;
        options.error_cap = cap;
        auto result = calibrate_measured(path.string(), options);
        REQUIRE(result.groups.size() == 1);
        auto const& c = result.groups[0].calibration;
        return std::vector<double>{c.e_math(model::OpClass::gemm, "bf16"), c.e_hbm(model::OpClass::gemm),
                                   c.e_hbm(model::OpClass::attention), c.step_overhead_s, c.layer_overhead_s,
                                   c.sequence_overhead_s};
    };
    std::vector<double> const want = {0.8, 0.85, 0.7, 500e-6, 50e-6, 10e-6};
    auto const capped = fitted(1), plain = fitted(0);
    double worst_capped = 0, worst_plain = 0;
    for (std::size_t k = 0; k < want.size(); ++k) {
        double const off_capped = std::abs(capped[k] / want[k] - 1), off_plain = std::abs(plain[k] / want[k] - 1);
        INFO("factor " << k << ": truth " << want[k] << ", capped " << capped[k] << ", plain " << plain[k]);
        CHECK(off_capped < off_plain);
        worst_capped = std::max(worst_capped, off_capped);
        worst_plain = std::max(worst_plain, off_plain);
    }
    CHECK(worst_capped < 0.4);
    CHECK(worst_plain > 0.9);  // a factor at its bound: an overhead at 0
}

TEST_CASE("calibrate: a row priced by sorted roof groups equals the row priced op by op, at any factors",
          "[calibrate][pricing]") {
    // Decode-heavy and prefill-heavy rows on one and on four GPUs: GEMMs on
    // either roof as the factors move, attention, AllReduces.
    std::string rows = header;
    rows += "a,trtllm,1,m,h100_sxm,bf16,agg,2048,16,,,64,1,1,,1,0,1,1,meta-llama--Meta-Llama-3.1-8B_config.json\n";
    rows += "b,trtllm,1,m,h100_sxm,bf16,agg,128,64,,,8,4,1,,1,0,1,1,meta-llama--Meta-Llama-3.1-70B_config.json\n";
    rows += "c,trtllm,1,m,h100_sxm,bf16,agg,1024,32,,,1,2,1,,1,0,1,1,Qwen--Qwen3-32B_config.json\n";
    test::Sandbox box;
    auto path = test::write_file(box.path / "m.csv", rows);
    auto modelled = model_measured(path.string(), configs, {});
    ParamSpace space;
    for (auto const& m : modelled.models) {
        REQUIRE(m.problem == "");
        space.add_all(m);
    }
    auto const p = static_cast<Eigen::Index>(space.size());
    // Factors drawn over a wide range (a fixed linear congruential sequence):
    // inverse efficiencies 1..6, overheads 0..100 us.
    std::uint64_t state = 12345;
    auto uniform = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    std::size_t most_roof_choices = 0;
    for (auto const& m : modelled.models) {
        std::set<double> gemm_math;  // the TPOT's GEMM math feature: it moves only when ops change roofs
        RowPricing const sorted(m, index_row(m, space), p, true);
        RowPricing const one_by_one(m, index_row(m, space), p, false);
        for (int trial = 0; trial < 50; ++trial) {
            Eigen::VectorXd x(p);
            for (Eigen::Index j = 0; j < p; ++j)
                x(j) = space.params()[static_cast<std::size_t>(j)].kind == ParamSpace::Kind::inverse_efficiency
                           ? 1 + 5 * uniform()
                           : 100e-6 * uniform();
            RowFeatures a, b;
            sorted.features(x, a);
            one_by_one.features(x, b);
            // The cold start's feature is the wave's TTFT less the steady
            // state's: a difference of two sums, equal to their rounding.
            auto const cold = static_cast<Eigen::Index>(space.cold_start());
            double const ttft = b.ttft.dot(x) + b.ttft_constant;
            for (Eigen::Index j = 0; j < p; ++j) {
                CHECK(a.ttft(j) == Approx(b.ttft(j)).epsilon(1e-12).margin(j == cold ? 1e-12 * ttft : 1e-18));
                CHECK(a.tpot(j) == Approx(b.tpot(j)).epsilon(1e-12).margin(1e-18));
            }
            CHECK(a.ttft_constant == Approx(b.ttft_constant).epsilon(1e-12).margin(1e-18));
            CHECK(a.tpot_constant == Approx(b.tpot_constant).epsilon(1e-12).margin(1e-18));
            gemm_math.insert(b.tpot(static_cast<Eigen::Index>(space.math(model::OpClass::gemm, "bf16"))));
        }
        most_roof_choices = std::max(most_roof_choices, gemm_math.size());
    }
    // The draws move some GEMMs from one roof to the other: the groups'
    // search is exercised, not only their ends.
    CHECK(most_roof_choices > 1);
}

TEST_CASE("calibrate: vLLM and SGLang rows admit on the cache in use (admission = grow), TensorRT-LLM's reserve",
          "[calibrate]") {
    std::ifstream in(configs + "/meta-llama--Meta-Llama-3.1-8B_config.json");
    std::string const config((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::string backend : {"vllm", "sglang", "trtllm"}) {
        INFO(backend);
        auto file = parse_measured("m.csv", header + "a," + backend +
                                                ",1,m,h100_sxm,bf16,agg,128,16,,,4,1,1,,1,0,10,5,"
                                                "meta-llama--Meta-Llama-3.1-8B_config.json\n");
        REQUIRE(file.rows.size() == 1);
        auto const scenario = series_scenario(file.rows[0], {4}, config, "meta-llama--Meta-Llama-3.1-8B_config.json");
        CHECK(test::contains(scenario.text, "    admission = grow\n") == (backend != "trtllm"));
        CHECK(test::contains(scenario.text, "    max_seqs = clients\n"));
    }
}

TEST_CASE("calibrate: a 4-bit gpt-oss row is modelled on OpenAI's checkpoint (mxfp4 experts, bf16 inputs), on Hopper too",
          "[calibrate]") {
    // The sample labels gpt-oss-120b's 4-bit rows nvfp4, but the checkpoint
    // they name has mxfp4 experts and bf16 attention (its config's
    // quantization_config), and every matmul takes bf16 inputs: the compute
    // dtype is bf16 (the input with more bytes), a peak H100 has.
    std::string const row =
        "g,vllm,0.11,openai/gpt-oss-120b,h100_sxm,fp4,agg,1024,128,nvfp4,nvfp4,4,2,1,,1,0,50,5,"
        "openai--gpt-oss-120b_config.json\n";
    auto file = parse_measured("m.csv", header + row);
    REQUIRE(file.rows.size() == 1);
    std::ifstream in(configs + "/openai--gpt-oss-120b_config.json");
    std::string const config((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const scenario = series_scenario(file.rows[0], {4}, config, "openai--gpt-oss-120b_config.json");
    CHECK(test::contains(scenario.text, "let wdt = bf16 "));
    CHECK(test::contains(scenario.text, "let mdt = wdt "));
    CHECK(test::contains(scenario.text, "let edt = mxfp4 "));
    CHECK_FALSE(test::contains(scenario.text, "nvfp4"));
    // And the row is modelled, not skipped for a missing NVFP4 peak.
    test::Sandbox box;
    auto path = test::write_file(box.path / "m.csv", header + row);
    PredictOptions options;
    options.configs_dir = configs;
    options.uncalibrated = true;
    auto v = validate_measured(path.string(), options);
    INFO((v.skipped.empty() ? std::string() : v.skipped[0].reason));
    CHECK(v.skipped.empty());
    REQUIRE(v.rows.size() == 1);
    CHECK(v.rows[0].predicted_tpot_s > 0);
}

TEST_CASE("calibrate: a fitted latency of 0 prices a row at its serial roofline, never below",
          "[calibrate]") {
    // Llama 3.1 70B at TP 4: two AllReduces over NVLink per layer, each with
    // the roofline's ring latency floors (6 steps x 1 us) in its time.
    std::string rows = header;
    rows += "r1,trtllm,1,m,h100_sxm,bf16,agg,1024,16,,,8,4,1,,1,0,1,1,meta-llama--Meta-Llama-3.1-70B_config.json\n";
    test::Sandbox box;
    auto path = test::write_file(box.path / "one.csv", rows);
    auto modelled = model_measured(path.string(), configs, {});
    REQUIRE(modelled.models[0].problem == "");
    auto const roofline = predict_row(modelled.models[0], nullptr);
    model::Calibration zero;  // every efficiency 1, every overhead 0, a latency of 0
    zero.latencies.push_back({model::CollectiveKind::allreduce, model::Link::nvlink, 0, {}});
    auto const at_zero = predict_row(modelled.models[0], &zero);
    // The bandwidth time alone would be less; the collective keeps its roofline time.
    CHECK(at_zero.first == Approx(roofline.first).epsilon(1e-12));
    CHECK(at_zero.second == Approx(roofline.second).epsilon(1e-12));
    model::Calibration slow = zero;
    // Above every floor: 160 AllReduces a step, each 100 us on its bandwidth time.
    slow.latencies[0].seconds = 100e-6;
    auto const at_slow = predict_row(modelled.models[0], &slow);
    CHECK(at_slow.second > roofline.second + 160 * 80e-6);
}

TEST_CASE("calibrate: the cross-validated rows, each predicted by its fold's fit, published as a report",
          "[calibrate][validation-report]") {
    // Llama 3.1 8B on one H100 in four series (two prompt and two output
    // lengths) of three batches, with times that no fit matches exactly.
    std::string rows = header;
    int n = 0;
    for (auto [isl, osl] : {std::pair{128, 16}, {128, 32}, {1024, 16}, {1024, 32}})
        for (int batch : {1, 4, 16}) {
            ++n;
            char line[512];
            std::snprintf(line, sizeof line,
                          "r%d,trtllm,1,m,h100_sxm,bf16,agg,%d,%d,,,%d,1,1,,1,0,%d,%d,"
                          "meta-llama--Meta-Llama-3.1-8B_config.json\n",
                          n, isl, osl, batch, 20 + isl / 16 + batch, 8 + batch / 4 + n % 3);
            rows += line;
        }
    test::Sandbox box;
    auto path = test::write_file(box.path / "m.csv", rows);
    CalibrateOptions options;
    options.configs_dir = configs;
    options.folds = 3;
    auto result = calibrate_measured(path.string(), options);
    auto const& cv = result.cross_validated;
    CHECK(cv.cross_validated);
    CHECK(result.skipped.empty());
    // The folds by the series' keys (fold_of): these four fall in all three.
    auto const modelled = model_measured(path.string(), configs, {});
    std::set<std::size_t> folds;
    for (auto const& s : modelled.series) folds.insert(fold_of(s.key, 3));
    REQUIRE(folds.size() == 3);
    // Every row predicted, each series' rows by one fold's fit, named by it.
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> fold_of_series;
    for (auto const& r : cv.rows) {
        INFO(r.key.id);
        REQUIRE((r.fold >= 0 && r.fold < 3));
        auto [it, fresh] = fold_of_series.emplace(std::pair{r.key.isl, r.key.osl}, r.fold);
        CHECK(it->second == r.fold);
        CHECK(r.calibration == "h100_sxm_trtllm (fold " + std::to_string(r.fold + 1) + ")");
    }
    CHECK(cv.rows.size() == 12);
    CHECK(fold_of_series.size() == 4);

    for (auto const& chart : validation::validation_charts(cv))
        CHECK(chart.subtitle.rfind("cross-validation of m.csv: ", 0) == 0);

    validation::PublishRequest request;
    request.out_root = (box.path / "out").string();
    request.charts = false;
    auto outcome = validation::publish(cv, request);
    REQUIRE(outcome.published);
    std::filesystem::path const version = box.path / "out/crossval-m/v1";
    CHECK(std::filesystem::path(outcome.folder) == version);
    auto const summary = test::read_file(version / "summary.txt");
    CHECK(summary.rfind("cross-validation (folds by series) of m.csv", 0) == 0);
    CHECK(summary.find("calibrations: h100_sxm_trtllm (3 folds) (12 rows)\n") != std::string::npos);
    CHECK(test::read_file(version / "manifest.json").find("\"Cross-validation of m.csv\"") != std::string::npos);
    // rows.csv: the fold from 1, as the calibration's name has it.
    std::string const text = test::read_file(version / "rows.csv");
    auto split = [](std::string const& line) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
            fields.push_back(line.substr(start, comma - start));
        fields.push_back(line.substr(start));
        if (!fields.back().empty() && fields.back().back() == '\r') fields.back().pop_back();  // CRLF
        return fields;
    };
    std::vector<std::vector<std::string>> lines;
    for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(split(text.substr(start, end - start)));
    REQUIRE(lines.size() == cv.rows.size() + 1);
    auto column = [&](std::string const& name) {
        auto at = std::find(lines[0].begin(), lines[0].end(), name);
        REQUIRE(at != lines[0].end());
        return static_cast<std::size_t>(at - lines[0].begin());
    };
    std::size_t const fold = column("fold"), calibration = column("calibration");
    for (std::size_t i = 1; i < lines.size(); ++i)
        CHECK(lines[i][calibration] == "h100_sxm_trtllm (fold " + lines[i][fold] + ")");
}
