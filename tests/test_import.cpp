// `roofline import`: model::import_config on the published config.json of
// each supported architecture (written here, values from the model cards'
// repositories), checked against parameter counts worked out by hand and
// against the shipped scenarios case by case; then the errors.
#include "command.hpp"
#include "helpers.hpp"
#include "evaluated.hpp"
#include "import_configs.hpp"
#include "import_error.hpp"
#include "sandbox.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/importer/import_config.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <tuple>

using namespace roofline;
using roofline::test::contains;
using roofline::test::import_error;
using namespace roofline::test::configs;
using namespace roofline::test::evaluated;

namespace {

std::unique_ptr<Evaluated> import_and_evaluate(char const* config,
                                               model::ImportMode mode = model::ImportMode::decode,
                                               std::string const& dtype = "bf16") {
    model::ImportOptions options;
    options.mode = mode;
    options.weight_dtype = dtype;
    auto imported = model::import_config(config, "config.json", options);
    INFO(imported.text);
    return evaluate_text(imported.text);
}

// `config` with the field `name` replaced by `value` (a JSON text), or
// removed when `value` is empty; added first when it is not there.
std::string with_field(std::string config, std::string const& name, std::string const& value) {
    auto key = "\n  \"" + name + "\": ";
    auto at = config.find(key);
    if (at == std::string::npos) return "{" + key + value + "," + config.substr(1);
    auto end = config.find_first_of(",\n", at + key.size());
    bool last = config[end] != ',';  // the last field has no comma
    if (!last) ++end;
    config.erase(at, end - at);
    if (!value.empty()) config.insert(at, key + value + (last ? "" : ","));
    else if (last) config.erase(config.rfind(',', at), 1);
    return config;
}

}  // namespace

TEST_CASE("import: weight bytes are the published parameter counts x 2 bytes (bf16)", "[import]") {
    SECTION("Llama 3 8B: 8,030,261,248") {
        // Per layer: q, o 2 x 4096 x 4096 = 33,554,432; k, v 2 x 4096 x 8 x 128
        // = 8,388,608; gate, up, down 3 x 4096 x 14336 = 176,160,768; norms
        // 2 x 4096 = 8,192: 218,112,000; x 32 = 6,979,584,000. Embedding and
        // LM head 2 x 128256 x 4096 = 1,050,673,152; final norm 4,096.
        // 6,979,584,000 + 1,050,673,152 + 4,096 = 8,030,261,248.
        auto imported = model::import_config(llama3_8b, "config.json");
        CHECK(imported.parameters == 8'030'261'248.0);
        CHECK(contains(imported.text, "# Parameters: 8,030,261,248"));
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 8'030'261'248.0);
        CHECK(r->facts(1).weight_bytes == 16'060'522'496.0);
    }
    SECTION("Qwen2.5-7B: 7,615,616,512") {
        // Hd = 3584 / 28 = 128; KV x Hd = 4 x 128 = 512. Per layer:
        //   q 3584 x 3584 + 3584 (bias)       = 12,848,640
        //   k, v 2 x (3584 x 512 + 512)        =  3,671,040
        //   o 3584 x 3584                      = 12,845,056
        //   gate, up, down 3 x 3584 x 18944    = 203,685,888
        //   norms 2 x 3584                     =      7,168
        //   layer total                          233,057,792; x 28 = 6,525,618,176
        // Embedding and LM head (untied) 2 x 152064 x 3584 = 1,089,994,752;
        // final norm 3,584. Total 7,615,616,512.
        auto imported = model::import_config(qwen25_7b, "config.json");
        CHECK(imported.parameters == 7'615'616'512.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 7'615'616'512.0);
        // The q bias: [KV, G, Hd] = 3584 elements, one add per element of q.
        CHECK(r->find("q_bias", "decoder/attention", 4).metrics.counts.flops == 4 * 3584.0);
    }
    SECTION("Mixtral 8x7B: 46,702,792,704") {
        // Per layer: attention as Llama 3 8B, 41,943,040; experts 8 x 3 x 4096
        // x 14336 = 1,409,286,144; router 4096 x 8 = 32,768; norms 8,192:
        // 1,451,270,144; x 32 = 46,440,644,608. Embedding and LM head 2 x
        // 32000 x 4096 = 262,144,000; final norm 4,096. Total 46,702,792,704.
        auto imported = model::import_config(mixtral_8x7b, "config.json");
        CHECK(imported.parameters == 46'702'792'704.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 46'702'792'704.0);
    }
    SECTION("GPT-2: 124,439,808") {
        // D = 768, 12 heads of 64, F = 4 x 768 = 3072 (n_inner null). Per layer:
        //   c_attn 768 x 2304 + 2304          = 1,771,776
        //   c_proj 768 x 768 + 768             =   590,592
        //   c_fc 768 x 3072 + 3072             = 2,362,368
        //   mlp c_proj 3072 x 768 + 768        = 2,360,064
        //   ln_1, ln_2 2 x (768 + 768)         =     3,072
        //   layer total                          7,087,872; x 12 = 85,054,464
        // Token embedding 50257 x 768 = 38,597,376 (tied to the LM head,
        // counted once); positions 1024 x 768 = 786,432; ln_f 1,536.
        // Total 85,054,464 + 38,597,376 + 786,432 + 1,536 = 124,439,808.
        auto imported = model::import_config(gpt2, "config.json");
        CHECK(imported.parameters == 124'439'808.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 124'439'808.0);
        // The decode context is n_positions = 1024: the KV cache per
        // sequence is 2 x 12 layers x 1024 x 768 x 2 B = 37,748,736 B.
        CHECK(r->facts(1).cache_bytes == 37'748'736.0);
        // The tied head reads the [768, 50257] table: 2 x 768 x 50257 x B FLOPs.
        CHECK(r->find("logits", "gpt2_lm_head", 2).metrics.counts.flops ==
              2.0 * 2 * 768 * 50257);
    }
    SECTION("Mistral 7B: 7,241,732,096, attention over its 4096-position window") {
        // Llama 3 8B's layers (218,112,000 x 32 = 6,979,584,000) with a 32000
        // vocabulary: 2 x 32000 x 4096 = 262,144,000; + 4,096.
        auto imported = model::import_config(mistral_7b, "config.json");
        CHECK(imported.parameters == 7'241'732'096.0);
        CHECK(contains(imported.text, "S = min(S, W)"));
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 7'241'732'096.0);
        // S = min(8192, 32768) = 8192 but the window is 4096: scores are
        // 2 x 32 x 4096 x 128 = 33,554,432 FLOPs per token; the cache holds
        // 2 x 32 x 4096 x 8 x 128 x 2 B = 536,870,912 B per sequence.
        CHECK(r->find("scores", "decoder/attention", 1).metrics.counts.flops == 33'554'432.0);
        CHECK(r->facts(1).cache_bytes == 536'870'912.0);
    }
    SECTION("Qwen1.5-MoE-A2.7B (Qwen2-MoE): 14,315,784,192") {
        // D = 2048, 16 heads of 128 (KV = 16). Per layer:
        //   q, k, v 3 x (2048 x 2048 + 2048 bias) = 12,589,056; o 4,194,304
        //   routed experts 60 x 3 x 2048 x 1408  = 519,045,120
        //   router 2048 x 60                      =     122,880
        //   shared expert 3 x 2048 x 5632         =  34,603,008; its gate 2,048
        //   norms 2 x 2048                        =       4,096
        //   layer total 570,560,512; x 24 = 13,693,452,288
        // Embedding and LM head 2 x 151936 x 2048 = 622,329,856; final norm
        // 2,048. Total 14,315,784,192 (the published 14.3B).
        auto imported = model::import_config(qwen15_moe, "config.json");
        CHECK(imported.parameters == 14'315'784'192.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 14'315'784'192.0);
        // At B = 1 the token reaches k = 4 experts: gate 2 x 4 x 2048 x 1408.
        CHECK(r->find("gate", "decoder/moe", 1).metrics.counts.flops == 23'068'672.0);
        // The shared expert sees every token: 2 x 2048 x 5632 per token.
        CHECK(r->find("gate", "decoder/shared_expert/mlp", 2).metrics.counts.flops ==
              2 * 2 * 2048.0 * 5632);
    }
    SECTION("Gemma 7B: 8,537,680,896, head_dim 256 (not 3072 / 16)") {
        // H x Hd = 16 x 256 = 4096. Per layer: q, k, v, o 4 x 3072 x 4096 =
        // 50,331,648; GeGLU 3 x 3072 x 24576 = 226,492,416; norms 6,144:
        // 276,830,208; x 28 = 7,751,245,824. Embedding 256000 x 3072 =
        // 786,432,000, tied; final norm 3,072. Total 8,537,680,896.
        auto imported = model::import_config(gemma_7b, "config.json");
        CHECK(imported.parameters == 8'537'680'896.0);
        CHECK(contains(imported.text, "let Hd = 256         # head_dim"));
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 8'537'680'896.0);
        // GELU(gate) x up: 9 FLOPs x 24576 per token.
        CHECK(r->find("gelu_mul", "decoder/mlp", 1).metrics.counts.flops == 9 * 24576.0);
    }
    SECTION("Gemma 2 9B: 9,241,705,984, local layers over a 4096-position window") {
        // Per layer: q, o 2 x 3584 x 4096 = 29,360,128; k, v 2 x 3584 x 2048 =
        // 14,680,064; GeGLU 3 x 3584 x 14336 = 154,140,672; four norms 14,336:
        // 198,195,200; x 42 = 8,324,198,400. Embedding 256000 x 3584 =
        // 917,504,000, tied; final norm 3,584. Total 9,241,705,984.
        auto imported = model::import_config(gemma2_9b, "config.json");
        CHECK(imported.parameters == 9'241'705'984.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 9'241'705'984.0);
        // KV cache per sequence: 21 local layers x 4096 positions and 21
        // global x 8192, each 2 x 8 x 256 x 2 B = 8,192 B per position:
        // 21 x 8,192 x (4096 + 8192) = 2,113,929,216 B.
        CHECK(r->facts(1).cache_bytes == 2'113'929'216.0);
        CHECK(r->find("softcap", "gemma2_lm_head", 1).metrics.counts.flops == 3 * 256000.0);
    }
    SECTION("DeepSeek-V3: 671,026,419,200, a latent KV cache of 576 elements per token") {
        // MLA per layer (D 7168, H 128, Qr 1536, C 512, Dn 128, Dr 64, Dv 128):
        //   q_a 7168 x 1536 = 11,010,048; its norm 1,536
        //   q_b 1536 x 128 x (128 + 64) = 37,748,736
        //   kv_a 7168 x (512 + 64) = 4,128,768; its norm 512
        //   kv_b 512 x 128 x (128 + 128) = 16,777,216
        //   o 128 x 128 x 7168 = 117,440,512;  MLA total 187,107,328
        // 3 dense layers: + 3 x 7168 x 18432 = 396,361,728 + norms 14,336
        //   = 583,483,392 each
        // 58 MoE layers: + routed 256 x 3 x 7168 x 2048 = 11,274,289,152,
        //   router 7168 x 256 = 1,835,008, shared 3 x 7168 x 2048 = 44,040,192,
        //   norms 14,336, score-correction bias 256 = 11,507,286,272 each
        // 3 x 583,483,392 + 58 x 11,507,286,272 = 669,173,053,952; embedding
        // and LM head 2 x 129280 x 7168 = 1,853,358,080; final norm 7,168.
        // Total 671,026,419,200 (the published 671B; the MTP module apart).
        auto imported = model::import_config(deepseek_v3, "config.json");
        CHECK(imported.parameters == 671'026'419'200.0);
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 671'026'419'200.0);
        // The cache: 61 layers x 8192 positions x (512 + 64) x 2 B per sequence.
        CHECK(r->facts(2).cache_bytes == 2 * 575'668'224.0);
        // Scores against the latent cache: 2 x 128 x 8192 x 576 per token.
        CHECK(r->find("scores", "moe_decoder/attention", 1).metrics.counts.flops ==
              1'207'959'552.0);
        // ... reading the cache once: 8192 x 576 x 2 B, and the query 128 x 576 x 2 B.
        CHECK(r->find("scores", "moe_decoder/attention", 1).metrics.counts.bytes_read ==
              8192 * 576 * 2.0 + 128 * 576 * 2.0);
    }
    SECTION("Llama 3.2 1B: 1,235,814,400, head_dim given, the LM head tied") {
        // D 2048, 32 heads of head_dim 64, KV 8: q, o 2 x 2048 x 2048 =
        // 8,388,608; k, v 2 x 2048 x 512 = 2,097,152; MLP 3 x 2048 x 8192 =
        // 50,331,648; norms 4,096: 60,821,504 per layer; x 16 = 973,144,064.
        // Embedding 128256 x 2048 = 262,668,288, tied (counted once); final
        // norm 2,048. Total 1,235,814,400.
        auto config = with_field(with_field(with_field(with_field(with_field(with_field(
            with_field(with_field(llama3_8b, "hidden_size", "2048"), "intermediate_size", "8192"),
            "num_hidden_layers", "16"), "head_dim", "64"), "tie_word_embeddings", "true"),
            "max_position_embeddings", "131072"), "rope_theta", "500000.0"),
            "rope_scaling", R"({"factor": 32.0, "rope_type": "llama3"})");
        auto imported = model::import_config(config, "config.json");
        CHECK(imported.parameters == 1'235'814'400.0);
        CHECK(contains(imported.text, "let wdt = bf16 "));
        CHECK(contains(imported.text, "use tied_lm_head(N = B, D = D, V = V, wdt = wdt, mdt = mdt)"));
        auto r = evaluate_text(imported.text);
        CHECK(r->facts(1).weight_bytes == 2 * 1'235'814'400.0);
    }
    SECTION("--dtype fp8: the matmul weights take 1 byte, the norm gains stay bf16") {
        // Llama 3 8B: 8,030,261,248 - 266,240 gains at 1 byte + 266,240 at 2.
        auto r = import_and_evaluate(llama3_8b, model::ImportMode::decode, "fp8");
        CHECK(r->facts(1).weight_bytes == 8'030'261'248.0 + 266'240.0);
    }
}

TEST_CASE("import: the shipped bf16 model scenarios come back case for case", "[import]") {
    struct Pair {
        char const* config;
        model::ImportMode mode;
        char const* shipped;
    };
    Pair const pairs[] = {
        {llama3_8b, model::ImportMode::decode, "llama3-8b-decode.roof"},
        {llama3_8b, model::ImportMode::prefill, "llama3-8b-prefill.roof"},
        {llama3_70b, model::ImportMode::decode, "llama3-70b-decode.roof"},
        {llama3_70b, model::ImportMode::prefill, "llama3-70b-prefill.roof"},
        {mixtral_8x7b, model::ImportMode::decode, "mixtral-8x7b-decode.roof"},
        {mixtral_8x7b, model::ImportMode::prefill, "mixtral-8x7b-prefill.roof"},
    };
    using Key = std::tuple<std::string, std::string, std::size_t, std::size_t>;  // layer, op, point, target
    auto cases = [](Evaluated const& r) {
        std::map<Key, engine::Case const*> out;
        for (auto const& c : r.evaluation.cases) {
            auto const& op = r.scenario.ops[c.op];
            CHECK(out.emplace(Key{op.layer, op.name, c.point, c.target}, &c).second);
        }
        return out;
    };
    for (auto const& pair : pairs) {
        INFO(pair.shipped);
        auto shipped = evaluate_shipped(pair.shipped);
        auto imported = import_and_evaluate(pair.config, pair.mode);
        REQUIRE(imported->evaluation.point_count == shipped->evaluation.point_count);
        for (std::size_t p = 0; p < shipped->evaluation.point_count; ++p) {
            CHECK(imported->evaluation.sweep_value(p, 0) == shipped->evaluation.sweep_value(p, 0));
            CHECK(imported->evaluation.point_facts[p].weight_bytes ==
                  shipped->evaluation.point_facts[p].weight_bytes);
            CHECK(imported->evaluation.point_facts[p].cache_bytes ==
                  shipped->evaluation.point_facts[p].cache_bytes);
            CHECK(imported->evaluation.point_facts[p].tokens ==
                  shipped->evaluation.point_facts[p].tokens);
        }
        auto a = cases(*shipped);
        auto b = cases(*imported);
        REQUIRE(a.size() == b.size());
        for (auto const& [key, c] : a) {
            INFO(std::get<0>(key) << "/" << std::get<1>(key) << " point " << std::get<2>(key)
                                  << " target " << std::get<3>(key));
            auto it = b.find(key);
            REQUIRE(it != b.end());
            auto const& x = c->metrics.counts;
            auto const& y = it->second->metrics.counts;
            CHECK(x.flops == y.flops);
            CHECK(x.bytes_read == y.bytes_read);
            CHECK(x.bytes_written == y.bytes_written);
            CHECK(shipped->scenario.ops[c->op].count == imported->scenario.ops[it->second->op].count);
        }
    }
}

TEST_CASE("import: fp8 weights are W8A8 as in the shipped scenarios, case for case", "[import]") {
    // `--set wdt=fp8` on an imported scenario and on a shipped one means the
    // same: fp8 weights and fp8 matmul inputs (the shipped files say
    // `let mdt = wdt`). Before, the imported one kept its matmul inputs in
    // bf16 (weight-only), so every matmul read other bytes.
    std::string shipped_text = test::read_file(std::string(ROOFLINE_SOURCE_DIR) + "/scenarios/llama3-8b-decode.roof");
    auto at = shipped_text.find("let wdt = bf16");
    REQUIRE(at != std::string::npos);
    shipped_text.replace(at, std::string("let wdt = bf16").size(), "let wdt = fp8");
    auto shipped = evaluate_text(shipped_text);
    auto imported = import_and_evaluate(llama3_8b, model::ImportMode::decode, "fp8");
    std::map<std::tuple<std::string, std::string, std::size_t, std::size_t>, engine::Case const*> b;
    for (auto const& c : imported->evaluation.cases)
        b.emplace(std::tuple{imported->scenario.ops[c.op].layer, imported->scenario.ops[c.op].name, c.point, c.target}, &c);
    REQUIRE(b.size() == shipped->evaluation.cases.size());
    std::size_t fp8_matmuls = 0;
    for (auto const& c : shipped->evaluation.cases) {
        auto const& op = shipped->scenario.ops[c.op];
        INFO(op.layer << "/" << op.name << " point " << c.point << " target " << c.target);
        auto it = b.find(std::tuple{op.layer, op.name, c.point, c.target});
        REQUIRE(it != b.end());
        CHECK(c.metrics.counts.bytes_read == it->second->metrics.counts.bytes_read);
        CHECK(c.metrics.counts.bytes_written == it->second->metrics.counts.bytes_written);
        CHECK(shipped->scenario.dtypes[c.compute_dtype].name ==
              imported->scenario.dtypes[it->second->compute_dtype].name);
        if (op.name == "q_proj" && shipped->scenario.dtypes[c.compute_dtype].name == "fp8") ++fp8_matmuls;
    }
    CHECK(fp8_matmuls > 0);  // the comparison is of W8A8 cases, not of bf16 ones
}

TEST_CASE("import: every architecture in both modes checks and evaluates without warnings",
          "[import]") {
    for (auto const* config : {llama3_8b, llama3_70b, mixtral_8x7b, mistral_7b, qwen25_7b,
                               qwen15_moe, gemma_7b, gemma2_9b, deepseek_v2, deepseek_v3, gpt2}) {
        for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
            auto r = import_and_evaluate(config, mode);
            CHECK(r->evaluation.has_tokens);
            CHECK(r->evaluation.has_resident);
            CHECK(r->scenario.targets.size() == 4);
        }
    }
}

TEST_CASE("import: the generated text names its shapes and every field it read", "[import]") {
    auto text = model::import_config(qwen25_7b, "Qwen2.5-7B/config.json").text;
    INFO(text);
    CHECK(contains(text, "imported from Qwen2.5-7B/config.json"));
    CHECK(contains(text, "#   hidden_size = 3584\n"));
    CHECK(contains(text, "#   num_key_value_heads = 4\n"));
    CHECK(contains(text, "#   use_sliding_window = false\n"));
    CHECK(contains(text, "let L  = 28          # num_hidden_layers\n"));
    CHECK(contains(text, "let Hd = 128         # hidden_size / num_attention_heads\n"));
    CHECK(contains(text, "sweep B = 1 .. 256 times 2"));
    // min(8192, max_position_embeddings = 131072)
    CHECK(contains(text, "let S = 8192 "));
    CHECK(contains(text, "tokens = B\n"));
    CHECK(contains(text, "include \"layers/qkv_bias.roof\""));
    CHECK(contains(text, "target h100_sxm, h200, mi300x, tpu_v5p\n"));
    // The fields that are not read are named too.
    CHECK(contains(text, "# Not read (no effect on what the templates model): attention_dropout,"));
    CHECK(contains(text, " max_window_layers,"));
    CHECK(contains(text, "#   vocab_size = 152064\n"));

    model::ImportOptions options;
    options.mode = model::ImportMode::prefill;
    options.targets = {"b200"};
    auto prefill = model::import_config(gpt2, "config.json", options).text;
    INFO(prefill);
    CHECK(contains(prefill, "let T = 1024 "));  // min(2048, n_positions = 1024)
    CHECK(contains(prefill, "tokens = B * T\n"));
    CHECK(contains(prefill, "target b200\n"));
    CHECK(contains(prefill, "#   n_inner") == false);  // null: read as absent
    CHECK(contains(prefill, "4 x n_embd"));

    // No num_key_value_heads (Llama 1 and 2 7B): multi-head attention, said so.
    auto mha = model::import_config(with_field(llama3_8b, "num_key_value_heads", ""), "c.json").text;
    CHECK(contains(mha, "let KV = 32          # num_attention_heads (no num_key_value_heads)"));
    CHECK(contains(mha, "# Assumed: num_key_value_heads absent"));
}

TEST_CASE("import: errors name the field, the architectures supported, the place", "[import]") {
    SECTION("an unknown architecture") {
        auto message = import_error(with_field(llama3_8b, "architectures", R"(["FalconForCausalLM"])"));
        CHECK(message ==
              "config.json: error: unknown architecture 'FalconForCausalLM' (field "
              "'architectures'); roofline import supports " + model::supported_architectures());
        CHECK(contains(message, "LlamaForCausalLM (llama), MistralForCausalLM (mistral)"));
        auto by_type = import_error(R"({"model_type": "falcon", "hidden_size": 4096})");
        CHECK(contains(by_type, "config.json: error: unknown model_type 'falcon' (field 'model_type')"));
        CHECK(contains(import_error("{}"), "error: missing field 'architectures'"));
    }
    SECTION("a missing field") {
        CHECK(import_error(with_field(llama3_8b, "intermediate_size", "")) ==
              "config.json: error: missing field 'intermediate_size', which LlamaForCausalLM needs");
        CHECK(import_error(with_field(mixtral_8x7b, "num_local_experts", "")) ==
              "config.json: error: missing field 'num_local_experts', which MixtralForCausalLM "
              "needs");
        CHECK(import_error(with_field(gpt2, "n_embd", "")) ==
              "config.json: error: missing field 'n_embd', which GPT2LMHeadModel needs");
    }
    SECTION("inconsistent fields") {
        CHECK(import_error(with_field(llama3_8b, "num_attention_heads", "24")) ==
              "config.json: error: 'num_attention_heads' (24) does not divide 'hidden_size' "
              "(4096), and there is no 'head_dim'");
        CHECK(import_error(with_field(llama3_8b, "num_key_value_heads", "5")) ==
              "config.json: error: 'num_key_value_heads' (5) does not divide "
              "'num_attention_heads' (32)");
        CHECK(import_error(with_field(mixtral_8x7b, "num_experts_per_tok", "9")) ==
              "config.json: error: 'num_experts_per_tok' (9) exceeds 'num_local_experts' (8)");
    }
    SECTION("a value the templates cannot model, a field of the wrong type") {
        CHECK(contains(import_error(with_field(qwen15_moe, "mlp_only_layers", "[0, 1]")),
                       "error: field 'mlp_only_layers' is [0,1] (dense MLP layers)"));
        CHECK(contains(import_error(with_field(qwen15_moe, "decoder_sparse_step", "2")),
                       "error: field 'decoder_sparse_step' is 2"));
        CHECK(import_error(with_field(gemma_7b, "head_dim", "")) ==
              "config.json: error: missing field 'head_dim', which GemmaForCausalLM needs");
        CHECK(contains(import_error(with_field(deepseek_v2, "q_lora_rank", "null")),
                       "error: field 'q_lora_rank' is missing or null"));
        CHECK(contains(import_error(with_field(deepseek_v3, "moe_layer_freq", "2")),
                       "error: field 'moe_layer_freq' is 2"));
        CHECK(contains(import_error(with_field(gemma2_9b, "num_hidden_layers", "41")),
                       "error: 'num_hidden_layers' (41) is odd"));
        CHECK(import_error(with_field(llama3_8b, "hidden_act", "\"gelu\"")) ==
              "config.json: error: field 'hidden_act' is 'gelu'; LlamaForCausalLM is imported "
              "with 'silu' only");
        CHECK(contains(import_error(with_field(llama3_8b, "attention_bias", "true")),
                       "error: field 'attention_bias' is true"));
        CHECK(contains(import_error(with_field(qwen25_7b, "use_sliding_window", "true")),
                       "error: field 'use_sliding_window' is true"));
        CHECK(import_error(with_field(llama3_8b, "hidden_size", "\"4096\"")) ==
              "config.json: error: field 'hidden_size' must be a positive integer, not \"4096\"");
        CHECK(contains(import_error("[1, 2]"), "config.json: error: the config must be a JSON object"));
        CHECK(import_error(with_field(llama3_8b, "vocab_size", "4294967296")) ==
              "config.json: error: field 'vocab_size' is 4294967296, more than 2^31 - 1");
        // Shapes that imply more parameters than a double counts exactly.
        auto huge = with_field(with_field(mixtral_8x7b, "num_local_experts", "1000000000"),
                               "intermediate_size", "1000000000");
        CHECK(contains(import_error(huge), "error: the shapes imply more than 2^53 parameters"));
    }
    SECTION("malformed JSON: file:line:col") {
        // Line 3 lacks the ':' after the key; the parser stops at the value.
        std::string text = "{\n  \"hidden_size\": 4096,\n  \"vocab_size\" 32000\n}\n";
        auto message = import_error(text);
        CHECK(contains(message, "config.json:3:"));
        CHECK(contains(message, ": error: invalid JSON: "));
        CHECK(message.rfind("config.json:3:", 0) == 0);
        // A truncated file: the error is at its end.
        CHECK(import_error("{\n  \"a\": [1,\n").rfind("config.json:3:1: error: invalid JSON", 0) == 0);
    }
}

TEST_CASE("cli: import prints or writes the scenario, errors exit 1 with the place", "[import]") {
    roofline::test::Sandbox box;
    auto config = box.write("config.json", llama3_8b);
    auto cli = [&](std::string const& args) { return roofline::test::run_roofline(box.path, args); };

    CHECK(cli("import --help").exit_code == 0);
    auto printed = cli("import config.json");
    CHECK(printed.exit_code == 0);
    CHECK(contains(printed.out, "use dense_decode("));

    auto written = cli("import config.json -o llama.roof --target b200 --dtype fp8");
    CHECK(written.exit_code == 0);
    auto text = roofline::test::read_file(box / "llama.roof");
    CHECK(contains(text, "target b200\n"));
    CHECK(contains(text, "let wdt = fp8 "));
    CHECK(contains(text, "use lm_head(N = B, D = D, V = V, wdt = wdt, mdt = mdt)"));
    CHECK(cli("check llama.roof").exit_code == 0);
    // The weights' dtype is a dtype let: a --set changes every use at once.
    auto bf16 = cli("run llama.roof --no-charts --set wdt=bf16 -o out");
    INFO(bf16.err);
    CHECK(bf16.exit_code == 0);

    auto both = cli("import config.json --mode both -o m.roof");
    CHECK(both.exit_code == 0);
    CHECK(contains(roofline::test::read_file(box / "m-decode.roof"), "tokens = B\n"));
    CHECK(contains(roofline::test::read_file(box / "m-prefill.roof"), "tokens = B * T\n"));
    CHECK(cli("import config.json --mode both").exit_code == 2);
    CHECK(cli("import config.json --mode train").exit_code == 2);

    CHECK(cli("import config.json --target 'h100_sxm x'").exit_code == 2);
    CHECK(cli("import config.json --dtype 'bf16)'").exit_code == 2);
    // A target the catalog does not know: the generated scenario's own error.
    auto unknown = cli("import config.json --target h1000");
    CHECK(unknown.exit_code == 1);
    CHECK(contains(unknown.err, "h1000"));
    auto dtype = cli("import config.json --dtype bf17");
    CHECK(dtype.exit_code == 1);
    CHECK(contains(dtype.err, "error: unknown name 'bf17'; did you mean 'bf16'?"));
    // One error, at the let, not one more per use of it.
    CHECK(dtype.err.find("error:") == dtype.err.rfind("error:"));
    // --kv-dtype: the KV cache's let, checked like --dtype's.
    auto kv = cli("import config.json --kv-dtype fp8");
    CHECK(kv.exit_code == 0);
    CHECK(contains(kv.out, "let kvdt = fp8 "));
    CHECK(contains(kv.out, "kvdt = kvdt) as decoder x L"));
    CHECK(cli("import config.json --kv-dtype 'fp8;'").exit_code == 2);
    auto kv_unknown = cli("import config.json --kv-dtype fp9");
    CHECK(kv_unknown.exit_code == 1);
    CHECK(contains(kv_unknown.err, "error: unknown name 'fp9'"));

    box.write("bad.json", "{\n  \"architectures\": [\"LlamaForCausalLM\"],\n  \"hidden_size\": 4096,,\n}\n");
    auto bad = cli("import bad.json");
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.rfind("bad.json:3:", 0) == 0);
    CHECK(contains(bad.err, ": error: invalid JSON"));
    CHECK(bad.out.empty());

    CHECK(cli("import missing.json").exit_code == 3);
}

TEST_CASE("import: the templates import adds are closed: every name is a parameter or a let",
          "[import]") {
    // As the test of the shipped templates in test_models.cpp: with no
    // top-level values, a name a template does not bind is an error.
    auto r = evaluate_text(R"(
        include "layers/qkv_bias.roof"
        include "layers/qwen2_moe.roof"
        include "layers/gemma.roof"
        include "layers/gpt2.roof"
        include "layers/mla.roof"
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
        target chip
        use tied_lm_head(N = 3, D = 16, V = 100)
        use attention_qkv_bias(B = 3, T = 2, S = 5, D = 16, H = 4, KV = 2, Hd = 4)
        use qkv_bias_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use qkv_bias_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 24)
        use shared_expert(N = 3, D = 16, Fs = 24)
        use qwen2_moe_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2, Fs = 24)
        use qwen2_moe_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 4, F = 8, E = 4, k = 2, Fs = 24)
        use geglu_mlp(N = 3, D = 16, F = 24)
        use scaled_embedding(N = 3, D = 16, V = 100)
        use gemma_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 8, F = 24)
        use gemma_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 8, F = 24)
        use softcap_attention(B = 3, T = 2, S = 5, D = 16, H = 4, KV = 2, Hd = 8)
        use gemma2_decode(B = 3, S = 5, D = 16, H = 4, KV = 2, Hd = 8, F = 24)
        use gemma2_prefill(B = 3, T = 5, D = 16, H = 4, KV = 2, Hd = 8, F = 24)
        use gemma2_lm_head(N = 3, D = 16, V = 100)
        use gpt2_attention(B = 3, T = 2, S = 5, D = 16, H = 4, Hd = 4)
        use gelu_mlp(N = 3, D = 16, F = 64)
        use gpt2_decode(B = 3, S = 5, D = 16, H = 4, Hd = 4, F = 64)
        use gpt2_prefill(B = 3, T = 5, D = 16, H = 4, Hd = 4, F = 64)
        use position_embedding(N = 3, D = 16, P = 32)
        use gpt2_lm_head(N = 3, D = 16, V = 100)
        use mla_decode(B = 3, S = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4)
        use mla_prefill(B = 3, T = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4)
        use deepseek_dense_decode(B = 3, S = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 24)
        use deepseek_dense_prefill(B = 3, T = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4, F = 24)
        use deepseek_moe_decode(B = 3, S = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4,
                                F = 8, E = 4, k = 2, Fs = 16)
        use deepseek_moe_prefill(B = 3, T = 5, D = 16, H = 4, Qr = 8, C = 6, Dn = 4, Dr = 2, Dv = 4,
                                 F = 8, E = 4, k = 2, Fs = 16, wdt = bf16)
        use score_correction(E = 4))");
    CHECK(r->evaluation.has_resident);
}
