// Measured rows -> series -> a serve scenario per series (series.hpp).
#include "series.hpp"

#include "roofline/importer/import_config.hpp"

#include <filesystem>
#include <map>

namespace roofline::calibrate {

std::vector<Series> group_series(std::vector<MeasuredRow> const& rows) {
    std::vector<Series> series;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto const& r = rows[i];
        if (r.key.mode != "agg") continue;
        std::string key = r.key.model + '|' + r.config + '|' + r.key.system + '|' + r.key.backend + '|' +
                          r.key.backend_version + '|' + r.fields.at("gemm_quant_mode") + '|' +
                          r.fields.at("moe_quant_mode") + '|' + r.key.layout + '|' +
                          std::to_string(r.key.isl) + 'x' + std::to_string(r.key.osl);
        auto [at, added] = index.emplace(key, series.size());
        if (added) series.push_back(Series{key, {}});
        series[at->second].rows.push_back(i);
    }
    return series;
}

namespace {

void replace_line(std::string& text, std::string const& prefix, std::string const& line) {
    auto at = text.find(prefix);
    if (at == std::string::npos) throw model::ImportError("internal: the serve scenario has no '" + prefix + "'");
    auto end = text.find('\n', at);
    text.replace(at, end - at, line);
}

}  // namespace

SeriesScenario series_scenario(MeasuredRow const& row, std::vector<std::uint32_t> const& batches,
                               std::string const& config_text, std::string const& config_name) {
    model::ImportOptions options;
    // A serve's attention parts are the flash forms the engines run
    // (docs/import.md, "Serving scenarios").
    options.serve = true;
    options.targets = {row.key.system};  // the sample's chip names are catalog aliases
    options.request = model::ImportRequest{row.key.isl, row.key.osl};
    auto size = [](std::uint32_t n) { return n > 1 ? std::optional<std::int64_t>(n) : std::nullopt; };
    options.layout.tp = size(row.tp);
    options.layout.dp = size(row.dp);
    options.layout.pp = size(row.pp);
    options.layout.ep = size(row.moe_ep);
    // The row's precision: the checkpoint's own quantization where its
    // config has it in that format (fp8 blocks, Kimi's int4 with a bf16
    // scale per 32, gpt-oss's mxfp4 experts for a 4-bit row: the sample
    // calls them nvfp4, but the checkpoint it names is OpenAI's, with bf16
    // attention and mxfp4 experts), else --dtype of the experts' precision
    // (most of the weights of a MoE model).
    std::string const precision = row.fields.at("moe_quant_mode");
    bool const fp8_checkpoint = config_text.find("\"quant_method\": \"fp8\"") != std::string::npos;
    bool const mxfp4_checkpoint = config_text.find("\"quant_method\": \"mxfp4\"") != std::string::npos;
    bool const own = precision == "int4_wo" || ((precision == "fp8" || precision == "fp8_block") && fp8_checkpoint) ||
                     ((precision == "nvfp4" || precision == "mxfp4") && mxfp4_checkpoint);
    // An fp8 checkpoint of its own (DeepSeek's, MiniMax-M2.5's, Qwen3's FP8
    // releases) is served with an fp8 KV cache too, as the ModelOpt ones
    // below (the sample has no KV dtype column; its README: "quantized
    // checkpoints usually serve an fp8 KV cache"); docs/calibration.md.
    if (own && fp8_checkpoint) options.kv_cache_dtype = "fp8";
    if (!own && (precision == "fp8" || precision == "nvfp4")) {
        // A ModelOpt checkpoint of that precision, as the engines serve
        // one: fp8 or NVFP4 weights and matmul inputs, an fp8 KV cache.
        options.quant_config = std::string("{\"quantization\": {\"quant_algo\": \"") +
                               (precision == "fp8" ? "FP8" : "NVFP4") + "\", \"kv_cache_quant_algo\": \"FP8\"}}";
        options.quant_file = "<" + precision + " precision of the measured row>";
    } else if (!own) {
        options.weight_dtype = precision.empty() ? "bf16" : precision == "fp8_block" ? "fp8" : precision;
        options.weight_dtype_given = true;
    }
    SeriesScenario out;
    out.target = row.key.system;
    out.text = model::import_config(config_text, config_name, options).text;
    std::string list;
    for (auto b : batches) list += (list.empty() ? "" : ", ") + std::to_string(b);
    // Closed loop: C clients, one wave to warm up and one counted (equal
    // lengths keep the waves alike); C sequences at most, as the benchmark
    // ran them.
    replace_line(out.text, "sweep R = ", "sweep clients = [" + list + "]");
    replace_line(out.text, "    arrivals = ", "    arrivals = closed(clients)");
    replace_line(out.text, "    requests = ", "    requests = 2 * clients  warmup = clients");
    replace_line(out.text, "    max_seqs = ", "    max_seqs = clients");
    // vLLM and SGLang admit on the cache in use and preempt when it is
    // full; TensorRT-LLM reserves each request's whole length (its
    // GUARANTEED_NO_EVICT default), the serve statement's default.
    if (row.key.backend == "vllm" || row.key.backend == "sglang")
        replace_line(out.text, "    max_step_tokens = ", "    max_step_tokens = 8192\n    admission = grow");
    return out;
}

std::string find_config(std::string const& config, std::string const& configs_dir,
                        std::string const& measured_path) {
    namespace fs = std::filesystem;
    if (config.empty() || config.find('/') != std::string::npos || config.find("..") != std::string::npos)
        return {};
    std::vector<fs::path> places;
    if (!configs_dir.empty()) places.push_back(fs::path(configs_dir) / config);
    else {
        fs::path const dir = fs::path(measured_path).parent_path();
        places.push_back(dir / config);
        places.push_back(dir / "configs" / config);
    }
    std::error_code ec;
    for (auto const& p : places)
        if (fs::is_regular_file(p, ec)) return p.string();
    return {};
}

}  // namespace roofline::calibrate
