// `roofline import --serve`: the serve statement over the split serve
// templates (docs/import.md, "Serving scenarios"): its settings, its three
// parts per family and layout, and the families and layouts it refuses.
#include "import_error.hpp"
#include "layout_support.hpp"
#include "gpt_oss_glm_configs.hpp"
#include "qwen3_5_config.hpp"
#include "qwen3_minimax_kimi_configs.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace roofline;
using namespace roofline::test;
using namespace roofline::test::layout;

namespace {

model::ImportOptions serve_on(char const* target) {
    model::ImportOptions o;
    o.targets = {target};
    o.serve = true;
    return o;
}

void require_import_error(char const* config, model::ImportOptions const& o, std::string const& part) {
    auto message = import_error(config, o);
    INFO(message);
    CHECK(contains(message, part));
}

}  // namespace

TEST_CASE("import --serve: Llama 3.1 70B at tp 4, the serve statement and its parts", "[serve-import]") {
    auto o = serve_on("h200");
    o.layout.tp = 4;
    auto text = import_text(llama31_70b, o);
    INFO(text);
    CHECK(contains(text, "# LlamaForCausalLM, serve, bf16 weights"));
    CHECK(contains(text, "scenario \"LlamaForCausalLM serve, bf16, 2048 prompt, 256 output, tp 4, flash attention\""));
    CHECK(contains(text, "include \"layers/serve_dense.roof\"\n"));
    CHECK(contains(text, "mesh tp = TP over nvlink"));
    CHECK(contains(text, "let Tp = 2048"));
    CHECK(contains(text, "let Tg = 256"));
    CHECK(contains(text, "sweep R = [1, 2, 4, 8, 16]"));
    CHECK(contains(text, "serve chat {\n    prompt = Tp"));
    CHECK(contains(text, "    output = Tg\n"));
    CHECK(contains(text, "    arrivals = poisson(R)"));
    CHECK(contains(text, "    requests = 1000"));
    CHECK(contains(text, "    max_seqs = 256"));
    CHECK(contains(text, "    max_step_tokens = 8192"));
    CHECK(contains(text, "        use embedding_tp(N = tokens, D = D, V = V, wdt = wdt)\n"));
    CHECK(contains(text, "        use dense_linear_tp(N = tokens, D = D, H = H, KV = KV, Hd = Hd, F = F, "
                         "wdt = wdt, mdt = mdt) as decoder x L\n"));
    CHECK(contains(text, "        use final_norm(N = tokens, D = D, mdt = mdt)\n"));
    CHECK(contains(text, "    sample:"));
    CHECK(contains(text, "        use logits_tp(N = sampled, D = D, V = V, wdt = wdt, mdt = mdt)\n"));
    CHECK(contains(text, "    decode:"));
    // The flash parts without --flash: what every serving engine runs.
    CHECK(contains(text, "        use dense_decode_attention_tp_flash(S = context, H = H, KV = KV, Hd = Hd, "
                         "mdt = mdt) as decoder x L\n"));
    CHECK(contains(text, "    prefill:"));
    CHECK(contains(text, "        use dense_prefill_attention_tp_flash(T = chunk, P = start, H = H, KV = KV, "
                         "Hd = Hd, mdt = mdt) as decoder x L\n"));
    CHECK(contains(text, "# slo ttft_p99 <= 2 s\n# slo tpot_p99 <= 50 ms\n"));
    // No decode or prefill uses of the whole layers, no batch sweep.
    CHECK_FALSE(contains(text, "sweep B"));
    CHECK_FALSE(contains(text, "dense_tp_decode"));
}

TEST_CASE("import --serve: --request P,G sets the lengths, --flash the flash parts", "[serve-import]") {
    auto o = serve_on("h100_sxm");
    o.request = model::ImportRequest{512, 64};
    o.flash = true;
    auto text = import_text(llama3_8b, o);
    INFO(text);
    CHECK(contains(text, "let Tp = 512"));
    CHECK(contains(text, "let Tg = 64"));
    CHECK(contains(text, ", 512 prompt, 64 output, flash attention\""));
    CHECK(contains(text, "include \"layers/serve_dense.roof\"\n"));
    CHECK(contains(text, "        use embedding(N = tokens, D = D, V = V, wdt = wdt)\n"));
    CHECK(contains(text, "        use dense_linear(N = tokens, "));
    CHECK(contains(text, "        use dense_decode_attention_flash(S = context, "));
    CHECK(contains(text, "        use dense_prefill_attention_flash(T = chunk, P = start, "));
    CHECK(contains(text, "        use final_norm(N = tokens, D = D, mdt = mdt)\n"));
    CHECK(contains(text, "        use logits(N = sampled, D = D, V = V, wdt = wdt, mdt = mdt)\n"));
}

TEST_CASE("import --serve: the MoE and MLA families, one chip and on the grid", "[serve-import]") {
    auto o = serve_on("h200");
    auto mixtral = import_text(mixtral_8x7b, o);
    INFO(mixtral);
    CHECK(contains(mixtral, "include \"layers/serve_moe.roof\"\n"));
    CHECK(contains(mixtral, "use moe_linear(N = tokens, D = D, H = H, KV = KV, Hd = Hd, F = F, E = E, k = K, "
                            "wdt = wdt, mdt = mdt) as decoder x L\n"));
    CHECK(contains(mixtral, "use dense_decode_attention_flash(S = context, H = H, KV = KV, Hd = Hd, mdt = mdt)"));

    auto qwen = import_text(qwen15_moe, o);
    INFO(qwen);
    CHECK(contains(qwen, "use qwen2_moe_linear(N = tokens, D = D, H = H, KV = KV, Hd = Hd, F = F, E = E, "
                         "k = K, Fs = Fs, wdt = wdt, mdt = mdt) as decoder x L\n"));

    auto g = o;
    g.layout.tp = 8;
    g.layout.ep = 8;
    auto deepseek = import_text(deepseek_v3, g);
    INFO(deepseek);
    CHECK(contains(deepseek, "include \"layers/serve_mla.roof\"\n"));
    CHECK(contains(deepseek, "mesh dp = DP over nvlink, tp_ep = TP_EP over nvlink, tp_etp = TP_ETP over nvlink"));
    CHECK(contains(deepseek, "use deepseek_dense_linear_grid(N = tokens, D = D, H = H, Qr = Qr, C = C, "
                             "Dn = Dn, Dr = Dr, Dv = Dv, F = F, wdt = wdt, mdt = mdt) as dense_decoder x Ld\n"));
    CHECK(contains(deepseek, "use deepseek_moe_linear_grid(N = tokens, D = D, H = H, Qr = Qr, C = C, Dn = Dn, "
                             "Dr = Dr, Dv = Dv, F = Fe, E = E, k = K, Fs = Fs, DP = DP, TP_EP = TP_EP, "
                             "TP_ETP = TP_ETP, wdt = wdt, mdt = mdt) as moe_decoder x (L - Ld)\n"));
    CHECK(contains(deepseek, "use score_correction(E = E) as router_bias x (L - Ld)\n"));
    CHECK(contains(deepseek, "use mla_decode_attention_grid_flash(S = context, H = H, C = C, Dr = Dr, mdt = mdt) "
                             "as moe_decoder x (L - Ld)\n"));
    CHECK(contains(deepseek, "use mla_prefill_attention_grid_flash(T = chunk, P = start, H = H, C = C, Dn = Dn, "
                             "Dr = Dr, Dv = Dv, wdt = wdt, mdt = mdt) as dense_decoder x Ld\n"));
    CHECK(contains(deepseek, "use final_norm_grid(N = tokens, D = D, mdt = mdt)\n"));
    CHECK(contains(deepseek, "use logits_grid(N = sampled, D = D, V = V, wdt = wdt, mdt = mdt)\n"));

    // Gemma 2: the local layers' decode within the window, the global ones not.
    auto gemma2 = import_text(gemma2_9b, o);
    INFO(gemma2);
    CHECK(contains(gemma2, "let W = 4096"));
    CHECK(contains(gemma2, "use scaled_embedding(N = tokens, D = D, V = V, wdt = wdt)\n"));
    CHECK(contains(gemma2, "use gemma2_linear(N = tokens, D = D, H = H, KV = KV, Hd = Hd, F = F, wdt = wdt, "
                           "mdt = mdt) as decoder x L\n"));
    CHECK(contains(gemma2, "use gemma2_decode_attention(S = min(context, W), H = H, KV = KV, Hd = Hd, mdt = mdt) "
                           "as local x (L / 2)\n"));
    CHECK(contains(gemma2, "use gemma2_decode_attention(S = context, H = H, KV = KV, Hd = Hd, mdt = mdt) "
                           "as global x (L / 2)\n"));
    CHECK(contains(gemma2, "use final_norm(N = tokens, D = D, mdt = mdt)\n"));
    CHECK(contains(gemma2, "use gemma2_logits(N = sampled, D = D, V = V, wdt = wdt, mdt = mdt)\n"));

    // Qwen3-235B at tp 8 x ep 8: 4 key/value heads, each replicated on 2 GPUs.
    auto qwen3 = import_text(test::qwen3_minimax_kimi_configs::qwen3_235b_fp8, g);
    INFO(qwen3);
    CHECK(contains(qwen3, "include \"layers/serve_qwen3.roof\"\n"));
    CHECK(contains(qwen3, "use qk_norm_decode_attention_grid_flash(S = context, H = H, KV = KV, Hd = Hd, "
                          "TP = TP_EP * TP_ETP, mdt = mdt) as decoder x L\n"));
    CHECK(contains(qwen3, "use qk_norm_prefill_attention_grid_flash(T = chunk, P = start, H = H, KV = KV, Hd = Hd, "
                          "TP = TP_EP * TP_ETP, mdt = mdt) as decoder x L\n"));
}

TEST_CASE("import --serve: the families without serve templates and the layouts it refuses",
          "[serve-import]") {
    auto o = serve_on("h200");
    require_import_error(test::qwen3_5::qwen3_5_config(test::qwen3_5::published_layer_types()).c_str(), o,
                         "--serve: no serve templates for Qwen3_5MoeForConditionalGeneration yet");
    auto glm = o;
    glm.layout.tp = 8;
    require_import_error(test::gpt_oss_glm_configs::glm5, glm, "--serve: GLM-5's serve templates are one chip's yet");
    auto dp = o;
    dp.layout.dp = 8;
    dp.layout.ep = 8;
    require_import_error(deepseek_v3, dp, "--serve with --dp 8: ");
    auto pp = o;
    pp.layout.tp = 4;
    pp.layout.pp = 2;
    require_import_error(llama31_70b, pp, "--serve with --pp 2: ");
}

namespace {

// The serve statement's parts as top-level uses at one step's values
// (tokens 8, context 100, chunk 64 from start 128), each part's layers
// renamed apart, so that today's language checks and evaluates them: every
// use's arguments are its template's.
std::string parts_at_top_level(std::string const& text, std::string const& context = "100",
                               bool with_prefill = true) {
    std::string out, part;
    std::size_t at = 0;
    bool inside = false;
    auto replace_word = [](std::string line, std::string const& word, std::string const& value) {
        for (std::size_t i = line.find(word); i != std::string::npos; i = line.find(word, i + value.size())) {
            bool starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(line[i - 1])) || line[i - 1] == '_');
            std::size_t end = i + word.size();
            bool ends = end == line.size() ||
                        !(std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_');
            if (starts && ends) line.replace(i, word.size(), value);
        }
        return line;
    };
    while (at < text.size()) {
        auto end = text.find('\n', at);
        std::string line = text.substr(at, end - at);
        at = end + 1;
        if (line.rfind("serve chat {", 0) == 0) inside = true;
        if (!inside) {
            out += line + "\n";
            continue;
        }
        if (line == "}") inside = false;
        for (char const* name : {"linear", "decode", "prefill", "sample"})
            if (line.rfind(std::string("    ") + name + ":", 0) == 0) part = name;
        if (line.rfind("        use ", 0) != 0 || (part == "prefill" && !with_prefill)) continue;
        for (auto [word, value] :
             {std::pair<char const*, std::string>{"tokens", "8"}, {"context", context}, {"chunk", "64"},
              {"start", "128"}, {"sampled", "4"}})
            line = replace_word(line, word, value);
        auto as = line.find(" as ");
        if (as != std::string::npos) line.insert(as + 4, part + "_");
        out += line.substr(4) + "\n";
    }
    return out;
}

std::string read_config(std::string const& name) {
    std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/measured/configs/" + name);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("import --serve: every family's parts, at top level, check and evaluate", "[serve-import]") {
    auto o = serve_on("h200");
    auto tp = [&](std::int64_t n) {
        auto r = o;
        r.layout.tp = n;
        return r;
    };
    auto grid = [&](std::int64_t t, std::int64_t e) {
        auto r = o;
        r.layout.tp = t;
        r.layout.ep = e;
        return r;
    };
    auto flash = o;
    flash.flash = true;
    auto flash_tp = tp(2);
    flash_tp.flash = true;
    std::string const llama70 = read_config("meta-llama--Meta-Llama-3.1-70B_config.json");
    std::string const v3 = read_config("deepseek-ai--DeepSeek-V3_config.json");
    std::string const nvfp4 = read_config("nvidia--DeepSeek-V3.1-NVFP4_config.json");
    auto quantized = grid(8, 8);
    quantized.quant_config = read_config("nvidia--DeepSeek-V3.1-NVFP4_hf_quant_config.json");
    quantized.quant_file = "hf_quant_config.json";
    quantized.targets = {"b200"};  // nvfp4: a Blackwell peak
    std::vector<std::pair<std::string, model::ImportOptions>> cases = {
        {llama70, o},        {llama70, tp(4)},      {llama3_8b, flash},  {llama3_8b, flash_tp},
        {mistral_7b, o},     {qwen25_7b, tp(2)},    {mixtral_8x7b, o},   {mixtral_8x7b, grid(8, 8)},
        {qwen15_moe, o},     {qwen15_moe, grid(4, 4)}, {deepseek_v2, o}, {v3, grid(8, 8)},
        {nvfp4, quantized},
        {gemma_7b, o},       {gemma2_9b, o},        {gpt2, o},
        {test::gpt_oss_glm_configs::glm5, o},
        {test::gpt_oss_glm_configs::gpt_oss_120b, o},
        {test::gpt_oss_glm_configs::gpt_oss_120b, grid(8, 8)},
        {test::qwen3_minimax_kimi_configs::minimax_m25, o},
        {test::qwen3_minimax_kimi_configs::minimax_m25, grid(4, 4)},
        {test::qwen3_minimax_kimi_configs::qwen3_32b, o},
        {test::qwen3_minimax_kimi_configs::qwen3_32b, tp(4)},
        {test::qwen3_minimax_kimi_configs::qwen3_235b_fp8, o},
        {test::qwen3_minimax_kimi_configs::qwen3_235b_fp8, grid(8, 8)},
    };
    for (auto const& [config, options] : cases) {
        auto text = parts_at_top_level(import_text(config.c_str(), options));
        INFO(text);
        auto r = evaluate(text);
        CHECK(r->facts_at(0).cache_bytes > 0);
        // The weights per GPU are the decode scenario's: every weight is the
        // linear part's, held once.
        auto decode_options = options;
        decode_options.serve = false;
        auto decode = evaluate(import_text(config.c_str(), decode_options));
        CHECK(r->facts_at(0).weight_bytes == decode->facts_at(0).weight_bytes);
        // One sequence's cache at the decode scenario's context S is its B = 1
        // point's: the decode part's cache, as the engine reads it.
        auto const& decode_text = import_text(config.c_str(), decode_options);
        auto at = decode_text.find("\nlet S = ");
        REQUIRE(at != std::string::npos);
        std::string const S = decode_text.substr(at + 9, decode_text.find(' ', at + 9) - at - 9);
        auto one = evaluate(parts_at_top_level(import_text(config.c_str(), options), S, false));
        CHECK(one->facts_at(0).cache_bytes == decode->facts(1).cache_bytes);
        // The attention parts are the flash forms without --flash (every
        // family but Gemma, GPT-2 and GLM-5's sparse attention), --flash
        // changes nothing; against the eager forms (the same text with
        // "_flash(" dropped): the same weights and cache, fewer HBM bytes (no
        // score matrix), no more FLOPs (the causal mask's share computed).
        if (config == gemma_7b || config == gemma2_9b || config == gpt2 || config == test::gpt_oss_glm_configs::glm5) {
            CHECK_FALSE(contains(text, "_flash("));
            continue;
        }
        auto const flash_text = import_text(config.c_str(), options);
        CHECK(contains(flash_text, "decode_attention"));
        CHECK(contains(flash_text, "prefill_attention"));
        CHECK_FALSE(contains(flash_text, "decode_attention("));
        CHECK_FALSE(contains(flash_text, "prefill_attention("));
        auto explicit_flash = options;
        explicit_flash.flash = true;
        CHECK(import_text(config.c_str(), explicit_flash) == flash_text);
        std::string eager_text = flash_text;
        for (auto at = eager_text.find("_flash("); at != std::string::npos; at = eager_text.find("_flash(", at))
            eager_text.erase(at, 6);
        auto f = evaluate(parts_at_top_level(flash_text));
        auto eager = evaluate(parts_at_top_level(eager_text));
        CHECK(f->facts_at(0).cache_bytes == eager->facts_at(0).cache_bytes);
        CHECK(f->facts_at(0).weight_bytes == eager->facts_at(0).weight_bytes);
        auto sum = [](auto const& e, auto field) {
            double total = 0;
            for (auto const& c : e.evaluation.cases)
                if (c.point == 0 && c.target == 0) total += e.scenario.ops[c.op].count * field(c.metrics);
            return total;
        };
        auto bytes = [](auto const& m) { return m.counts.bytes_read + m.counts.bytes_written; };
        auto flops = [](auto const& m) { return m.counts.flops; };
        CHECK(sum(*f, bytes) < sum(*eager, bytes));
        CHECK(sum(*f, flops) <= sum(*eager, flops));
    }
    for (char const* config : {gemma_7b, gemma2_9b, gpt2}) {
        auto flash_options = o;
        flash_options.flash = true;
        require_import_error(config, flash_options, "has no flash-attention templates (docs/import.md)");
    }
}

// With the serve statement (i23-lang): the imported scenarios check as they
// are written, their example SLOs too once uncommented, and each part holds
// the ops of its templates.
TEST_CASE("import --serve: Llama 3.1 70B at tp 4 and the other families check with the serve statement",
          "[serve-import]") {
    auto o = serve_on("h200");
    auto tp4 = o;
    tp4.layout.tp = 4;
    auto ep = o;
    ep.layout.tp = 8;
    ep.layout.ep = 8;
    std::vector<std::pair<std::string, model::ImportOptions>> cases = {
        {read_config("meta-llama--Meta-Llama-3.1-70B_config.json"), tp4},
        {read_config("deepseek-ai--DeepSeek-V3_config.json"), ep},
        {test::gpt_oss_glm_configs::gpt_oss_120b, ep},
        {mixtral_8x7b, o},
        {gemma2_9b, o},
    };
    for (auto const& [config, options] : cases) {
        auto text = import_text(config.c_str(), options);
        std::string with_slos = text;
        for (auto at = with_slos.find("# slo "); at != std::string::npos; at = with_slos.find("# slo ", at))
            with_slos.erase(at, 2);
        INFO(with_slos);
        auto checked = test::check_with_catalog(with_slos);
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        auto const& scenario = checked->scenario;
        REQUIRE(scenario.serve);
        CHECK(scenario.serve->name == "chat");
        CHECK_FALSE(scenario.serve->linear.empty());
        CHECK_FALSE(scenario.serve->decode.empty());
        CHECK_FALSE(scenario.serve->prefill.empty());
        CHECK(scenario.serve_slos.size() == 2);
        // No op outside the serve statement: the parts are the whole step.
        CHECK(scenario.ops.empty());
    }
}

TEST_CASE("import --kv-dtype: the KV cache in the dtype given, for any checkpoint, its bytes by hand",
          "[serve-import]") {
    // Llama 3 8B (bf16): the cache per position is 2 (K, V) x 32 layers x 8
    // key-value heads x 128 = 65,536 elements; at context 100, 6,553,600:
    // 13,107,200 B in bf16, 6,553,600 B in fp8.
    auto bf16 = serve_on("h100_sxm");
    auto fp8 = bf16;
    fp8.kv_cache_dtype = "fp8";
    auto const text = import_text(llama3_8b, fp8);
    INFO(text);
    CHECK(contains(text, "\nlet kvdt = fp8 "));
    CHECK(contains(text, "let wdt = bf16 "));  // the weights keep theirs
    CHECK(contains(text, "        use dense_decode_attention_flash(S = context, H = H, KV = KV, Hd = Hd, "
                         "mdt = mdt, kvdt = kvdt) as decoder x L\n"));
    CHECK(contains(text, "kvdt = kvdt) as decoder x L\n"));
    CHECK_FALSE(contains(import_text(llama3_8b, bf16), "kvdt"));
    CHECK(evaluate(parts_at_top_level(import_text(llama3_8b, bf16), "100", false))->facts_at(0).cache_bytes ==
          13'107'200.0);
    CHECK(evaluate(parts_at_top_level(text, "100", false))->facts_at(0).cache_bytes == 6'553'600.0);
    // The decode scenario too: B = 1 at S = 8192, 536,870,912 elements, 1 B each.
    auto decode = fp8;
    decode.serve = false;
    CHECK(evaluate(import_text(llama3_8b, decode))->facts(1).cache_bytes == 536'870'912.0);
    // It overrides a quantization's kv_cache_quant_algo (NVFP4's FP8 here).
    auto nvfp4 = serve_on("b200");
    nvfp4.quant_config = read_config("nvidia--DeepSeek-V3.1-NVFP4_hf_quant_config.json");
    nvfp4.quant_file = "hf_quant_config.json";
    nvfp4.kv_cache_dtype = "bf16";
    auto const v31 = read_config("nvidia--DeepSeek-V3.1-NVFP4_config.json");
    auto const overridden = import_text(v31.c_str(), nvfp4);
    CHECK(contains(overridden, "\nlet kvdt = bf16 "));
    CHECK(contains(overridden, "--kv-dtype bf16: the KV cache in bf16 (the quantization's fp8 not used)"));
}
