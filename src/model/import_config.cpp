// config.json -> scenario text. One reader (Config) records every field it
// reads for the header; one function per architecture family reads the
// shapes; one writer emits the lets, the sweep and the uses.
#include "roofline/model/import_config.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::model {
namespace {

using json = nlohmann::json;
using Int = std::int64_t;

enum class Family { llama, qwen2, mixtral, qwen2_moe, gemma, gemma2, deepseek, gpt2 };

struct Architecture {
    char const* name;        // architectures[0]
    char const* model_type;  // model_type, when there is no `architectures`
    Family family;
};

constexpr Architecture known_architectures[] = {
    {"LlamaForCausalLM", "llama", Family::llama},
    {"MistralForCausalLM", "mistral", Family::llama},
    {"Qwen2ForCausalLM", "qwen2", Family::qwen2},
    {"MixtralForCausalLM", "mixtral", Family::mixtral},
    {"Qwen2MoeForCausalLM", "qwen2_moe", Family::qwen2_moe},
    {"GemmaForCausalLM", "gemma", Family::gemma},
    {"Gemma2ForCausalLM", "gemma2", Family::gemma2},
    {"DeepseekV2ForCausalLM", "deepseek_v2", Family::deepseek},
    {"DeepseekV3ForCausalLM", "deepseek_v3", Family::deepseek},
    {"GPT2LMHeadModel", "gpt2", Family::gpt2},
};

std::string in_quotes(std::string const& s) { return "'" + s + "'"; }

using Count = long double;

// 8030261248 -> "8,030,261,248"
std::string grouped(Int value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

// A parameter count below 2^53, grouped the same way.
std::string grouped(Count value) { return value < 0x1p53L ? grouped(static_cast<Int>(value)) : "(too many)"; }

// The fields read, in reading order, for the header; errors name the file.
class Config {
public:
    Config(json const& root, std::string file) : root_(root), file_(std::move(file)) {}

    [[noreturn]] void fail(std::string const& message) const {
        throw ImportError(file_ + ": error: " + message);
    }
    void set_architecture(std::string name) { architecture_ = std::move(name); }

    json const* find(std::string const& name) const {
        auto it = root_.find(name);
        if (it == root_.end() || it->is_null()) return nullptr;
        return &*it;
    }
    bool root_has(std::string const& name) const { return find(name) != nullptr; }
    void record(std::string const& name, std::string const& value) {
        used_.emplace_back(name, value);
    }

    // A required positive integer.
    Int integer(std::string const& name) {
        auto value = optional_integer(name);
        if (!value)
            fail("missing field " + in_quotes(name) + ", which " + architecture_ + " needs");
        return *value;
    }
    // A positive integer, or nullopt when the field is absent or null.
    std::optional<Int> optional_integer(std::string const& name) {
        json const* v = find(name);
        if (!v) return std::nullopt;
        if (!v->is_number_integer() || v->get<Int>() <= 0)
            fail("field " + in_quotes(name) + " must be a positive integer, not " + v->dump());
        // Every shape of a real model is far below; products of two stay exact.
        if (v->get<Int>() > 2'147'483'647)
            fail("field " + in_quotes(name) + " is " + v->dump() + ", more than 2^31 - 1");
        record(name, v->dump());
        return v->get<Int>();
    }
    // A required positive number (soft-capping values: recorded, not used).
    double number(std::string const& name) {
        json const* v = find(name);
        if (!v) fail("missing field " + in_quotes(name) + ", which " + architecture_ + " needs");
        if (!v->is_number() || v->get<double>() <= 0)
            fail("field " + in_quotes(name) + " must be a positive number, not " + v->dump());
        record(name, v->dump());
        return v->get<double>();
    }
    // A list field that the templates model only when it is empty.
    void require_empty_list(std::string const& name, std::string const& what) {
        json const* v = find(name);
        if (!v) return;
        if (!v->is_array()) fail("field " + in_quotes(name) + " must be a list, not " + v->dump());
        record(name, v->dump());
        if (!v->empty())
            fail("field " + in_quotes(name) + " is " + v->dump() + " (" + what +
                 "), which roofline import does not model for " + architecture_);
    }
    bool boolean(std::string const& name, bool absent) {
        json const* v = find(name);
        if (!v) return absent;
        if (!v->is_boolean()) fail("field " + in_quotes(name) + " must be true or false, not " + v->dump());
        record(name, v->dump());
        return v->get<bool>();
    }
    std::optional<std::string> string(std::string const& name) {
        json const* v = find(name);
        if (!v) return std::nullopt;
        if (!v->is_string()) fail("field " + in_quotes(name) + " must be a string, not " + v->dump());
        record(name, v->dump());
        return v->get<std::string>();
    }
    // A string field that, when present, must be one of `accepted`.
    void require_one_of(std::string const& name, std::vector<std::string> const& accepted) {
        auto value = string(name);
        if (!value) return;
        for (auto const& a : accepted)
            if (*value == a) return;
        std::string list;
        for (auto const& a : accepted) list += (list.empty() ? "" : ", ") + in_quotes(a);
        fail("field " + in_quotes(name) + " is " + in_quotes(*value) + "; " + architecture_ +
             " is imported with " + list + " only");
    }
    // A boolean field whose `true` the templates cannot model.
    void require_false(std::string const& name, std::string const& what) {
        if (boolean(name, false))
            fail("field " + in_quotes(name) + " is true (" + what + "), which roofline import does "
                 "not model for " + architecture_);
    }

    std::vector<std::pair<std::string, std::string>> const& used() const { return used_; }
    // The config's other fields, in the file's (alphabetical) order.
    std::vector<std::string> not_read() const {
        std::vector<std::string> names;
        for (auto const& item : root_.items()) {
            bool read = false;
            for (auto const& u : used_) read = read || u.first == item.key();
            if (!read) names.push_back(item.key());
        }
        return names;
    }
    std::string const& file() const { return file_; }
    std::string const& architecture() const { return architecture_; }

private:
    json const& root_;
    std::string file_;
    std::string architecture_;
    std::vector<std::pair<std::string, std::string>> used_;
};

// What the scenario is written from.
struct Shapes {
    Family family = Family::llama;
    Int L = 0, D = 0, H = 0, KV = 0, Hd = 0, F = 0, V = 0;
    Int max_positions = 0;
    Int E = 0, K = 0;               // experts, experts per token (Mixtral, Qwen2-MoE)
    Int Fs = 0;                     // the shared experts' width (Qwen2-MoE, DeepSeek)
    // DeepSeek: MLA's widths, the dense layers first, the routed experts' width.
    Int Qr = 0, C = 0, Dn = 0, Dr = 0, Dv = 0, Ld = 0, Fe = 0, shared = 0;
    bool score_bias = false;  // DeepSeek-V3's e_score_correction_bias
    std::optional<Int> window;      // sliding_window (decode attention span)
    bool tied = false;              // LM head tied to the embedding
    std::string F_field = "intermediate_size";
    std::string Hd_comment;         // where Hd comes from
    std::vector<std::string> assumed;  // header lines: defaults taken
};

Architecture const& find_architecture(Config& config, json const& root) {
    auto supported = supported_architectures();
    if (auto it = root.find("architectures"); it != root.end() && !it->is_null()) {
        if (!it->is_array() || it->empty() || !(*it)[0].is_string())
            config.fail("field 'architectures' must be a list of names, not " + it->dump());
        auto name = (*it)[0].get<std::string>();
        for (auto const& a : known_architectures)
            if (name == a.name) {
                config.record("architectures", it->dump());
                return a;
            }
        config.fail("unknown architecture " + in_quotes(name) +
                    " (field 'architectures'); roofline import supports " + supported);
    }
    if (auto it = root.find("model_type"); it != root.end() && !it->is_null()) {
        if (!it->is_string()) config.fail("field 'model_type' must be a string, not " + it->dump());
        auto type = it->get<std::string>();
        for (auto const& a : known_architectures)
            if (type == a.model_type) {
                config.record("model_type", it->dump());
                return a;
            }
        config.fail("unknown model_type " + in_quotes(type) + " (field 'model_type'); "
                    "roofline import supports " + supported);
    }
    config.fail("missing field 'architectures' (and no 'model_type'): the config does not say "
                "which model it is; roofline import supports " + supported);
}

// Heads: H, KV (default H), Hd (head_dim, or hidden_size / H), with the
// divisibility checks.
void read_heads(Config& c, Shapes& s, char const* heads_field, char const* width_field) {
    s.H = c.integer(heads_field);
    if (auto kv = c.optional_integer("num_key_value_heads")) {
        s.KV = *kv;
    } else {
        s.KV = s.H;
        if (s.family != Family::gpt2)
            s.assumed.push_back("num_key_value_heads absent: KV = num_attention_heads\n"
                                "#   (multi-head attention)");
    }
    if (s.H % s.KV != 0)
        c.fail("'num_key_value_heads' (" + std::to_string(s.KV) +
               ") does not divide 'num_attention_heads' (" + std::to_string(s.H) + ")");
    bool gemma = s.family == Family::gemma || s.family == Family::gemma2;
    if (gemma) {
        s.Hd = c.integer("head_dim");
        s.Hd_comment = "head_dim";
    } else if (auto hd = s.family == Family::gpt2 ? std::nullopt : c.optional_integer("head_dim")) {
        s.Hd = *hd;
        s.Hd_comment = "head_dim";
    } else {
        if (s.D % s.H != 0)
            c.fail(in_quotes(heads_field) + " (" + std::to_string(s.H) + ") does not divide " +
                   in_quotes(width_field) + " (" + std::to_string(s.D) +
                   "), and there is no 'head_dim'");
        s.Hd = s.D / s.H;
        s.Hd_comment = std::string(width_field) + " / " + heads_field;
    }
}

// Llama, Mistral, Qwen2, Mixtral, Qwen2-MoE, Gemma, Gemma 2: the same names
// for the same shapes.
Shapes read_llama_like(Config& c, Family family) {
    Shapes s;
    s.family = family;
    bool gemma = family == Family::gemma || family == Family::gemma2;
    if (gemma) {
        c.require_one_of("hidden_act", {"gelu", "gelu_pytorch_tanh"});
        c.require_one_of("hidden_activation", {"gelu", "gelu_pytorch_tanh"});
    } else {
        c.require_one_of("hidden_act", {"silu"});
    }
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    read_heads(c, s, "num_attention_heads", "hidden_size");
    if (family == Family::qwen2_moe) {
        s.F = c.integer("moe_intermediate_size");
        s.F_field = "moe_intermediate_size, per routed expert";
    } else {
        s.F = c.integer("intermediate_size");
        if (family == Family::mixtral) s.F_field = "intermediate_size, per expert";
    }
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", gemma);
    switch (family) {
    case Family::qwen2:
    case Family::qwen2_moe:
        c.require_false("use_sliding_window", "sliding-window attention in some layers");
        break;
    case Family::gemma2:
        c.require_false("attention_bias", "biases on the attention projections");
        s.window = c.integer("sliding_window");
        c.number("attn_logit_softcapping");
        c.number("final_logit_softcapping");
        if (!s.tied)
            c.fail("field 'tie_word_embeddings' is false; Gemma2ForCausalLM is imported with the "
                   "LM head tied to the embedding only");
        if (s.L % 2 != 0)
            c.fail("'num_hidden_layers' (" + std::to_string(s.L) +
                   ") is odd; Gemma2ForCausalLM alternates sliding-window and global layers");
        break;
    default:
        c.require_false("attention_bias", "biases on the attention projections");
        c.require_false("mlp_bias", "biases on the MLP projections");
        if (!gemma) s.window = c.optional_integer("sliding_window");
        break;
    }
    if (family == Family::mixtral || family == Family::qwen2_moe) {
        bool mixtral = family == Family::mixtral;
        char const* experts = mixtral ? "num_local_experts" : "num_experts";
        s.E = c.integer(experts);
        s.K = c.integer("num_experts_per_tok");
        if (s.K > s.E)
            c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds '" + experts +
                   "' (" + std::to_string(s.E) + ")");
    }
    if (family == Family::qwen2_moe) {
        s.Fs = c.integer("shared_expert_intermediate_size");
        if (auto step = c.optional_integer("decoder_sparse_step"); step && *step != 1)
            c.fail("field 'decoder_sparse_step' is " + std::to_string(*step) +
                   " (dense MLP layers between the MoE layers), which roofline import does not "
                   "model for Qwen2MoeForCausalLM");
        c.require_empty_list("mlp_only_layers", "dense MLP layers");
    }
    return s;
}

// DeepSeek-V2 and V3: multi-head latent attention, dense layers first, then
// MoE layers with shared experts.
Shapes read_deepseek(Config& c) {
    Shapes s;
    s.family = Family::deepseek;
    c.require_one_of("hidden_act", {"silu"});
    c.require_false("attention_bias", "biases on the attention projections");
    s.L = c.integer("num_hidden_layers");
    s.D = c.integer("hidden_size");
    s.H = c.integer("num_attention_heads");
    s.KV = s.H;
    if (!c.root_has("q_lora_rank"))
        c.fail("field 'q_lora_rank' is missing or null (queries projected without compression, "
               "as in DeepSeek-V2-Lite), which roofline import does not model for " +
               c.architecture());
    s.Qr = c.integer("q_lora_rank");
    s.C = c.integer("kv_lora_rank");
    s.Dn = c.integer("qk_nope_head_dim");
    s.Dr = c.integer("qk_rope_head_dim");
    s.Dv = c.integer("v_head_dim");
    s.F = c.integer("intermediate_size");
    s.F_field = "intermediate_size, the dense layers' MLP";
    s.Fe = c.integer("moe_intermediate_size");
    s.E = c.integer("n_routed_experts");
    s.K = c.integer("num_experts_per_tok");
    s.shared = c.integer("n_shared_experts");
    s.Fs = s.shared * s.Fe;
    if (auto first = c.find("first_k_dense_replace"); first && first->is_number_integer() &&
                                                      first->get<Int>() == 0) {
        c.record("first_k_dense_replace", "0");
        s.Ld = 0;
    } else {
        s.Ld = c.integer("first_k_dense_replace");
    }
    if (auto freq = c.optional_integer("moe_layer_freq"); freq && *freq != 1)
        c.fail("field 'moe_layer_freq' is " + std::to_string(*freq) +
               " (dense layers between the MoE layers), which roofline import does not model "
               "for " + c.architecture());
    if (s.Ld > s.L)
        c.fail("'first_k_dense_replace' (" + std::to_string(s.Ld) + ") exceeds 'num_hidden_layers' (" +
               std::to_string(s.L) + ")");
    if (s.K > s.E)
        c.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds 'n_routed_experts' (" +
               std::to_string(s.E) + ")");
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("max_position_embeddings");
    s.tied = c.boolean("tie_word_embeddings", false);
    s.score_bias = c.architecture() == "DeepseekV3ForCausalLM";
    if (s.score_bias)
        s.assumed.push_back("the router's score-correction bias, n_routed_experts per MoE\n"
                            "#   layer (score_correction); the multi-token-prediction module\n"
                            "#   (num_nextn_predict_layers) is left out");
    return s;
}

Shapes read_gpt2(Config& c) {
    Shapes s;
    s.family = Family::gpt2;
    c.require_one_of("activation_function", {"gelu_new", "gelu", "gelu_pytorch_tanh", "gelu_fast"});
    c.require_false("add_cross_attention", "cross-attention layers");
    s.L = c.integer("n_layer");
    s.D = c.integer("n_embd");
    read_heads(c, s, "n_head", "n_embd");
    s.KV = s.H;
    if (auto inner = c.optional_integer("n_inner")) {
        s.F = *inner;
        s.F_field = "n_inner";
    } else {
        s.F = 4 * s.D;
        s.F_field = "4 x n_embd (n_inner absent or null)";
    }
    s.V = c.integer("vocab_size");
    s.max_positions = c.integer("n_positions");
    if (!c.boolean("tie_word_embeddings", true))
        c.fail("field 'tie_word_embeddings' is false; GPT2LMHeadModel is imported with the LM "
               "head tied to the embedding only");
    s.tied = true;
    return s;
}

// The parameter count, with the formula that gives it, for the header.
std::pair<Count, std::string> parameters(Shapes const& s) {
    // In floating point, so that no config can overflow an integer; exact
    // below 2^53 (import_config refuses larger counts).
    Count const L = s.L, D = s.D, H = s.H, KV = s.KV, Hd = s.Hd, F = s.F, V = s.V, E = s.E,
                Fs = s.Fs, Qr = s.Qr, C = s.C, Dn = s.Dn, Dr = s.Dr, Dv = s.Dv, Ld = s.Ld,
                Fe = s.Fe, P = s.max_positions;
    Count attention = 2 * D * H * Hd + 2 * D * KV * Hd;
    Count ends = (s.tied ? 1 : 2) * V * D;
    std::string ends_text = s.tied ? "V D (embedding, tied to the LM head)"
                                   : "2 V D (embedding and LM head)";
    switch (s.family) {
    case Family::llama:
    case Family::qwen2: {
        bool bias = s.family == Family::qwen2;
        Count layer = attention + (bias ? H * Hd + 2 * KV * Hd : 0) + 3 * D * F + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd" + std::string(bias ? " + H Hd + 2 KV Hd" : "") +
                    " + 3 D F + 2 D) + " + ends_text + " + D\n#   = " + std::to_string(s.L) +
                    " x " + grouped(layer) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::gemma:
    case Family::gemma2: {
        int norms = s.family == Family::gemma2 ? 4 : 2;
        Count layer = attention + 3 * D * F + norms * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + 3 D F + " + std::to_string(norms) + " D) + " +
                    ends_text + " + D\n#   = " + std::to_string(s.L) + " x " + grouped(layer) +
                    " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::qwen2_moe: {
        Count layer = attention + H * Hd + 2 * KV * Hd + E * 3 * D * F + D * E +
                    3 * D * Fs + D + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + H Hd + 2 KV Hd + E x 3 D F + D E + 3 D Fs + D + "
                "2 D) + " + ends_text + " + D\n#   = " + std::to_string(s.L) + " x " +
                    grouped(layer) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::deepseek: {
        Count mla = D * Qr + Qr + Qr * H * (Dn + Dr) + D * (C + Dr) + C +
                  C * H * (Dn + Dv) + H * Dv * D;
        Count dense = mla + 3 * D * F + 2 * D;
        Count moe = mla + E * 3 * D * Fe + D * E + 3 * D * Fs + 2 * D +
                  (s.score_bias ? E : 0);
        return {Ld * dense + (L - Ld) * moe + ends + D,
                "Ld x (MLA + 3 D F + 2 D) + (L - Ld) x (MLA + E x 3 D Fe + D E + 3 D Fs + 2 D" +
                    std::string(s.score_bias ? " + E" : "") + ") "
                "+ " + ends_text + " + D,\n#     MLA = D Qr + Qr + Qr H (Dn + Dr) + D (C + Dr) + C + "
                "C H (Dn + Dv) + H Dv D = " + grouped(mla) + "\n#   = " + std::to_string(s.Ld) +
                    " x " + grouped(dense) + " + " + std::to_string(s.L - s.Ld) + " x " +
                    grouped(moe) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::mixtral: {
        Count layer = attention + E * 3 * D * F + D * E + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + E x 3 D F + D E + 2 D) + " + ends_text +
                    " + D\n#   = " + std::to_string(s.L) + " x " + grouped(layer) + " + " +
                    grouped(ends) + " + " + grouped(D)};
    }
    case Family::gpt2: {
        Count layer = 4 * D * H * Hd + 3 * H * Hd + D + 2 * D * F + F + D +
                    4 * D;
        Count positions = P * D;
        return {L * layer + ends + positions + 2 * D,
                "L x (4 D H Hd + 3 H Hd + D + 2 D F + F + D + 4 D) + " + ends_text +
                    " + P D (positions) + 2 D\n#   = " + std::to_string(s.L) + " x " +
                    grouped(layer) + " + " + grouped(ends) + " + " + grouped(positions) + " + " +
                    grouped(2 * D)};
    }
    }
    return {0, ""};
}

std::string let_line(std::string const& name, Int value, std::string const& comment) {
    std::string head = "let " + name + std::string(name.size() < 2 ? 2 - name.size() : 0, ' ') +
                       " = " + std::to_string(value);
    if (head.size() < 19) head += std::string(19 - head.size(), ' ');
    return head + "  # " + comment + "\n";
}

// The template file and the decoder layer template (without _decode or
// _prefill) of each family.
std::pair<char const*, char const*> layer_templates(Family family) {
    switch (family) {
    case Family::llama: return {"layers/dense.roof", "dense"};
    case Family::qwen2: return {"layers/qkv_bias.roof", "qkv_bias"};
    case Family::mixtral: return {"layers/moe.roof", "moe"};
    case Family::qwen2_moe: return {"layers/qwen2_moe.roof", "qwen2_moe"};
    case Family::gemma: return {"layers/gemma.roof", "gemma"};
    case Family::gemma2: return {"layers/gemma.roof", "gemma2"};
    case Family::deepseek: return {"layers/mla.roof", "deepseek"};
    case Family::gpt2: return {"layers/gpt2.roof", "gpt2"};
    }
    return {"", ""};
}

std::string write_scenario(Config const& c, Shapes const& s, ImportOptions const& o,
                           Count params, std::string const& formula) {
    bool decode = o.mode == ImportMode::decode;
    bool gpt2 = s.family == Family::gpt2;
    bool gemma2 = s.family == Family::gemma2;
    std::string const& w = o.weight_dtype;
    Int S = std::min<Int>(8192, s.max_positions);
    Int T = std::min<Int>(2048, s.max_positions);
    std::string positions_field = gpt2 ? "n_positions" : "max_position_embeddings";
    // Decode attention limited to the last W positions (Gemma 2: its local
    // layers, always written so that the two kinds of layer show).
    bool windowed = decode && s.window && (gemma2 || *s.window < S);

    std::string out;
    std::string source = c.file();  // in a comment: no line breaks
    for (char& ch : source)
        if (static_cast<unsigned char>(ch) < 0x20) ch = '?';
    out += "# " + c.architecture() + ", " + (decode ? "decode" : "prefill") + ", " + w +
           " weights: imported from " + source + " by `roofline import`.\n";
    out += "#\n# Config fields used:\n";
    for (auto const& [name, value] : c.used()) out += "#   " + name + " = " + value + "\n";
    for (auto const& line : s.assumed) out += "# Assumed: " + line + "\n";
    auto others = c.not_read();
    if (!others.empty()) {
        // Wrapped at 80 columns; docs/import.md says why each is not needed.
        std::string line = "# Not read (no effect on what the templates model):";
        for (std::size_t i = 0; i < others.size(); ++i) {
            std::string word = " " + others[i] + (i + 1 < others.size() ? "," : "");
            if (line.size() + word.size() > 80) {
                out += line + "\n";
                line = "#  ";
            }
            line += word;
        }
        out += line + "\n";
    }
    out += "#\n# Parameters: " + grouped(params) + "\n#   = " + formula + "\n";
    out += "# docs/import.md says what is read from the config and what is assumed.\n\n";

    std::string title = c.architecture() + " " + (decode ? "decode" : "prefill") + ", " + w;
    title += decode ? ", " + std::to_string(S) + " context" : ", " + std::to_string(T) + " prompts";
    out += "scenario \"" + title + "\"\n\n";

    auto [file, layer] = layer_templates(s.family);
    out += "include \"hardware/catalog.roof\"\n";
    out += "include \"" + std::string(file) + "\"\n";
    out += "include \"layers/lm_head.roof\"\n\n";

    out += "target ";
    for (std::size_t i = 0; i < o.targets.size(); ++i) out += (i ? ", " : "") + o.targets[i];
    out += "\n\n";

    bool deepseek = s.family == Family::deepseek;
    out += let_line("L", s.L, gpt2 ? "n_layer" : "num_hidden_layers");
    if (deepseek) out += let_line("Ld", s.Ld, "first_k_dense_replace: dense layers, then MoE");
    out += let_line("D", s.D, gpt2 ? "n_embd" : "hidden_size");
    out += let_line("H", s.H, gpt2 ? "n_head" : "num_attention_heads");
    if (deepseek) {
        out += let_line("Qr", s.Qr, "q_lora_rank: the compressed query");
        out += let_line("C", s.C, "kv_lora_rank: the compressed KV (cached with Dr)");
        out += let_line("Dn", s.Dn, "qk_nope_head_dim");
        out += let_line("Dr", s.Dr, "qk_rope_head_dim");
        out += let_line("Dv", s.Dv, "v_head_dim");
    }
    if (!gpt2 && !deepseek)
        out += let_line("KV", s.KV,
                        s.KV == s.H && !c.root_has("num_key_value_heads")
                            ? "num_attention_heads (no num_key_value_heads)"
                            : "num_key_value_heads");
    if (!deepseek) out += let_line("Hd", s.Hd, s.Hd_comment);
    out += let_line("F", s.F, s.F_field);
    if (deepseek) out += let_line("Fe", s.Fe, "moe_intermediate_size, per routed expert");
    if (s.E) {
        out += let_line("E", s.E,
                        s.family == Family::mixtral ? "num_local_experts"
                        : deepseek                  ? "n_routed_experts"
                                                    : "num_experts");
        out += let_line("K", s.K, "num_experts_per_tok");
    }
    if (s.Fs)
        out += let_line("Fs", s.Fs,
                        deepseek ? "n_shared_experts (" + std::to_string(s.shared) +
                                       ") x moe_intermediate_size"
                                 : "shared_expert_intermediate_size");
    out += let_line("V", s.V, "vocab_size");
    if (gpt2) out += let_line("P", s.max_positions, "n_positions: learned position embeddings");
    out += "\n";

    if (decode) {
        out += "sweep B = 1 .. 256 times 2    # sequences in the batch, one new token each\n";
        out += "let S = " + std::to_string(S) + std::string(S < 10000 ? 18 : 17, ' ') +
               "# context: min(8192, " + positions_field + " = " +
               std::to_string(s.max_positions) + ")\n";
        if (windowed)
            out += "let W = " + std::to_string(*s.window) +
                   std::string(std::to_string(*s.window).size() < 5 ? 18 : 17, ' ') +
                   "# sliding_window: " +
                   (gemma2 ? "the local layers read the last W positions"
                           : "attention reads the last W positions") +
                   "\n";
        out += "\ntokens = B\n\n";
    } else {
        out += "sweep B = 1 .. 8 times 2    # prompts in the batch\n";
        out += "let T = " + std::to_string(T) + "                # tokens per prompt: min(2048, " +
               positions_field + " = " + std::to_string(s.max_positions) + ")\n";
        out += "\ntokens = B * T\n\n";
    }

    std::string N = decode ? "B" : "B * T";
    std::string wdt = ", wdt = " + w;
    bool gemma = s.family == Family::gemma || gemma2;
    out += "use " + std::string(gemma ? "scaled_embedding" : "embedding") + "(N = " + N +
           ", D = D, V = V" + wdt + ")\n";
    if (gpt2) out += "use position_embedding(N = " + N + ", D = D, P = P" + wdt + ")\n";

    std::string use = "use " + std::string(layer) + (decode ? "_decode" : "_prefill") + "(B = B, ";
    std::string rest = ", D = D, " + std::string(gpt2 ? "H = H, Hd = Hd" : "H = H, KV = KV, Hd = Hd") +
                       ", F = F";
    if (s.E) rest += ", E = E, k = K";
    if (s.Fs) rest += ", Fs = Fs";
    rest += wdt + ")";
    std::string span = decode ? "S = S" : "T = T";
    if (deepseek) {
        std::string mla = ", D = D, H = H, Qr = Qr, C = C, Dn = Dn, Dr = Dr, Dv = Dv";
        std::string kind = decode ? "_decode(B = B, " : "_prefill(B = B, ";
        if (s.Ld > 0)
            out += "use deepseek_dense" + kind + span + mla + ", F = F" + wdt +
                   ") as dense_decoder x Ld\n";
        out += "use deepseek_moe" + kind + span + mla + ", F = Fe, E = E, k = K, Fs = Fs" + wdt +
               ") as moe_decoder x (L - Ld)\n";
        if (s.score_bias) out += "use score_correction(E = E) as router_bias x (L - Ld)\n";
    } else if (gemma2) {
        // Even layers attend within the window, odd layers to everything.
        out += use + (decode ? "S = min(S, W)" : span) + rest + " as local x (L / 2)\n";
        out += use + span + rest + " as global x (L / 2)\n";
    } else {
        out += use + (windowed ? "S = min(S, W)" : span) + rest + " as decoder x L\n";
    }
    std::string head = gpt2 ? "gpt2_lm_head" : gemma2 ? "gemma2_lm_head" : s.tied ? "tied_lm_head" : "lm_head";
    out += "use " + head + "(N = B, D = D, V = V" + wdt + ")\n";
    return out;
}

// "file:line:col: error: invalid JSON: ..." from nlohmann's parse error.
[[noreturn]] void json_error(std::string const& text, std::string const& file,
                             json::parse_error const& e) {
    std::size_t at = e.byte == 0 ? 0 : e.byte - 1;
    if (at > text.size()) at = text.size();
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    std::string message = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    if (auto colon = message.find(": ", message.find("parse error")); colon != std::string::npos)
        message = message.substr(colon + 2);
    throw ImportError(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                      ": error: invalid JSON: " + message);
}

}  // namespace

std::string supported_architectures() {
    std::string list;
    for (auto const& a : known_architectures)
        list += (list.empty() ? "" : ", ") + std::string(a.name) + " (" + a.model_type + ")";
    return list;
}

ImportedScenario import_config(std::string const& json_text, std::string const& file_name,
                               ImportOptions const& options) {
    json root;
    try {
        root = json::parse(json_text);
    } catch (json::parse_error const& e) {
        json_error(json_text, file_name, e);
    }
    Config config(root, file_name);
    if (!root.is_object()) config.fail("the config must be a JSON object, not " + std::string(root.type_name()));
    auto const& architecture = find_architecture(config, root);
    config.set_architecture(architecture.name);

    Shapes shapes = architecture.family == Family::gpt2       ? read_gpt2(config)
                    : architecture.family == Family::deepseek ? read_deepseek(config)
                                                              : read_llama_like(config, architecture.family);
    auto [count, formula] = parameters(shapes);
    if (count >= 0x1p53L)
        config.fail("the shapes imply more than 2^53 parameters; roofline import counts them "
                    "exactly only below");
    ImportedScenario result;
    result.text = write_scenario(config, shapes, options, count, formula);
    result.architecture = architecture.name;
    result.parameters = static_cast<double>(count);
    return result;
}

}  // namespace roofline::model
