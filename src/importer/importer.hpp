#pragma once
// The parts of `roofline import` (model::import_config) that its files share.
// Private to src/importer:
//   import_config.cpp    config.json -> ImportedScenario: the steps in order
//   config_reader.cpp    Config: the fields read, checked and recorded for the
//                        header; JSON parse errors with line:col
//   architectures.cpp    the supported architectures and their families
//   read_llama_like.cpp  Llama, Mistral, Qwen2, Mixtral, Qwen2-MoE, Gemma,
//                        Gemma 2; the heads (read_heads), shared with GPT-2
//   read_deepseek.cpp    DeepSeek-V2 and V3
//   read_gpt2.cpp        GPT-2
//   read_qwen3_5.cpp     Qwen3.5-MoE (its text_config); parameters_qwen3_5.cpp,
//                        write_qwen3_5.cpp its count and its scenario lines
//   read_gpt_oss.cpp     gpt-oss; read_glm.cpp GLM-5 (DeepSeek sparse attention)
//   parameters_gpt_oss.cpp, parameters_glm.cpp  their counts, and the active
//                        parameters per token; write_gpt_oss.cpp its uses
//   read_qwen3.cpp       Qwen3, Qwen3-MoE, MiniMax-M2
//   quantization.cpp     quantization_config / hf_quant_config.json -> the
//                        weights' dtypes
//   parameters_qwen3.cpp  their parameter counts; the active parameters per
//                        token of every MoE family
//   parameters.cpp       the parameter count and its formula
//   write_scenario.cpp   Shapes -> the scenario's text
//   layout.hpp           the parallel layouts (--tp --dp --ep --etp --pp) and their files
//   visible_text.cpp     a config's text made safe for comments and messages

#include "roofline/importer/import_config.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::model::importer {

using json = nlohmann::json;
using Int = std::int64_t;
// Parameter counts: in floating point, so that no config can overflow an
// integer; exact below 2^53 (import_config refuses larger counts).
using Count = long double;

enum class Family {
    llama, qwen2, mixtral, qwen2_moe, gemma, gemma2, deepseek, gpt2,
    gpt_oss, glm_dsa,  // gpt-oss; GLM-5 (DeepSeek sparse attention)
    qwen3_5,           // Qwen3.5-MoE (Gated DeltaNet hybrid)
    qwen3, qwen3_moe, minimax_m2,
};

struct Architecture {
    char const* name;        // architectures[0]
    char const* model_type;  // model_type, when there is no `architectures`
    Family family;
};

// A config's text (a key, a value, its path) as the scenario's comments and
// the messages show it: control characters, C1 controls and bytes that are
// not UTF-8 escaped visibly (\n, \r, \t, \xHH, \u00HH), so that nothing in
// it ends a comment, breaks the file or reaches a terminal raw; at most
// `max_characters` characters, then "... (N bytes)".
std::string visible(std::string_view text, std::size_t max_characters);
// Characters of one key or value shown in a comment or a message.
inline constexpr std::size_t max_shown = 200;

// 'name', for messages, visible. Appended, not "'" + s + "'": GCC 12 at -O3
// gives a false -Wrestrict for a string literal + a temporary std::string.
inline std::string in_quotes(std::string const& s) {
    return std::string("'").append(visible(s, max_shown)).append("'");
}
// A JSON value in a message: as JSON, visible.
std::string shown(json const& value);

// config.json's text as JSON; throws ImportError "file:line:col: error:
// invalid JSON: ..." when it is not.
json parse_json(std::string const& text, std::string const& file);

// The fields read, in reading order, for the header; errors name the file.
class Config {
public:
    // `prefix` names the object read in the header ("text_config." when the
    // model is a config's text_config).
    Config(json const& root, std::string file, std::string prefix = {});

    [[noreturn]] void fail(std::string const& message) const;
    void set_architecture(std::string name) { architecture_ = std::move(name); }

    json const* find(std::string const& name) const;
    bool root_has(std::string const& name) const { return find(name) != nullptr; }
    void record(std::string const& name, std::string const& value) { used_.emplace_back(name, value); }

    // A required positive integer.
    Int integer(std::string const& name);
    // A positive integer, or nullopt when the field is absent or null.
    std::optional<Int> optional_integer(std::string const& name);
    // A required positive number (soft-capping values: recorded, not used).
    double number(std::string const& name);
    // A list field that the templates model only when it is empty.
    void require_empty_list(std::string const& name, std::string const& what);
    // layer_types (a hybrid model's kinds of layer): how many of the L layers
    // are `kind`, the others being full_attention (anything else an error),
    // recorded as "N x kind, M x full_attention"; nullopt when absent.
    std::optional<Int> layers_of_kind(Int L, std::string const& kind);
    bool boolean(std::string const& name, bool absent);
    std::optional<std::string> string(std::string const& name);
    // A string field that, when present, must be one of `accepted`.
    void require_one_of(std::string const& name, std::vector<std::string> const& accepted);
    // A boolean field whose `true` the templates cannot model.
    void require_false(std::string const& name, std::string const& what);

    std::vector<std::pair<std::string, std::string>> const& used() const { return used_; }
    // The config's other fields, in the file's (alphabetical) order.
    std::vector<std::string> not_read() const;
    std::string const& file() const { return file_; }
    std::string const& architecture() const { return architecture_; }
    std::string const& prefix() const { return prefix_; }

private:
    json const& root_;
    std::string file_;
    std::string architecture_;
    std::string prefix_;
    std::vector<std::pair<std::string, std::string>> used_;
};

// the weights' dtypes a checkpoint's quantization gives (quantization.cpp),
// for every reader: `dense` is the scenario's wdt (attention, dense MLPs,
// shared experts), `experts` the routed experts' (edt), `router` and `head`
// the router's and the LM head's (often kept in bf16), `activations` the
// matmuls' activation-side inputs (mdt), `kv_cache` the KV cache's (kvdt;
// empty: the activations' dtype). `dtype_lines`: custom dtypes the scenario
// declares (a group size no built-in has). `notes`: header lines, the
// fields read and what they chose.
struct WeightDtypes {
    std::string dense = "bf16", experts = "bf16", router = "bf16", head = "bf16";
    std::string activations = "bf16", kv_cache;
    bool quantized = false;  // from a quantization config (not --dtype or the bf16 default)
    std::vector<std::string> dtype_lines;
    std::vector<std::string> notes;
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
    // Qwen3.5 (Gated DeltaNet hybrid): key and value heads, head dims,
    // the conv kernel, the linear-attention layers (the rest full
    // attention), the rotary dims, the state's dtype.
    Int Hk = 0, Hv = 0, dk = 0, dv = 0, Kc = 0, Ll = 0, R = 0;
    std::string state_dtype;
    std::optional<Int> window;      // sliding_window (decode attention span)
    // gpt-oss's sliding-attention layers (layer_types; the rest are
    // full) and GLM-5's DSA indexer: index_n_heads, index_head_dim, index_topk.
    Int Ls = 0;
    Int Hi = 0, Di = 0, Kt = 0;
    // MiniMax-M2's rotary_dim (partial RoPE); score_bias above is its
    // routing bias (use_routing_bias).
    Int Rd = 0;
    WeightDtypes dtypes;  // from the quantization config or --dtype
    std::optional<std::pair<Count, std::string>> active;  // MoE, per token
    std::vector<std::string> left_out;  // header lines, what is not modelled
    bool tied = false;              // LM head tied to the embedding
    std::string F_field = "intermediate_size";
    std::string Hd_comment;         // where Hd comes from
    std::vector<std::string> assumed;  // header lines: defaults taken
};

// The dtypes of `model` (the config object holding the shapes: the root, or
// its text_config) from its quantization_config and `hf_quant` (the parsed
// hf_quant_config.json, or null); --dtype (`o.weight_dtype_given`) overrides
// both. Unsupported schemes fail through `c`.
WeightDtypes weight_dtypes(Config& c, json const& model, json const* hf_quant, ImportOptions const& o);

// The architecture `architectures` (or else `model_type`) names, recorded;
// fails on an unknown or missing one.
Architecture const& find_architecture(Config& config, json const& root);

// The shapes of each family.
Shapes read_llama_like(Config& c, Family family);
Shapes read_deepseek(Config& c);
Shapes read_gpt2(Config& c);
Shapes read_qwen3_5(Config& c);  // reads text_config (read_qwen3_5.cpp)
Shapes read_gpt_oss(Config& c);  // read_gpt_oss.cpp
Shapes read_glm(Config& c);      // read_glm.cpp: read_deepseek and the indexer
// Qwen3 and Qwen3-MoE (family given), MiniMax-M2.
Shapes read_qwen3(Config& c, Family family);
Shapes read_minimax_m2(Config& c);
// Heads: H, KV (default H), Hd (head_dim, or width / H), with the
// divisibility checks; s.family and s.D already set.
void read_heads(Config& c, Shapes& s, char const* heads_field, char const* width_field);

// 8030261248 -> "8,030,261,248"; a count of 2^53 or more is "(too many)".
std::string grouped(Int value);
std::string grouped(Count value);
// The parameter count, with the formula that gives it, for the header.
std::pair<Count, std::string> parameters(Shapes const& s);
// Qwen3.5's count, and its active parameters per token (parameters_qwen3_5.cpp).
std::pair<Count, std::string> parameters_qwen3_5(Shapes const& s);
Count active_parameters_qwen3_5(Shapes const& s);
// Qwen3.5's lets and uses (write_qwen3_5.cpp).
std::string qwen3_5_lets(Shapes const& s);
// The uses of one phase (layout.hpp's Phase); `expert_args`: the routed
// experts' dtype arguments (dtype_arguments); `suffix` ("" or "_grid"),
// `grid_sizes` and `stage` (counts / PP) as write_uses.cpp's Style gives them.
struct Phase;
std::string qwen3_5_uses(Shapes const& s, Phase const& phase, std::string const& expert_args,
                         std::string const& suffix, std::string const& grid_sizes, bool stage);
// gpt-oss and GLM-5 (parameters_gpt_oss.cpp, parameters_glm.cpp): the count,
// and its formula followed by the active parameters per token and theirs.
std::pair<Count, std::string> parameters_gpt_oss(Shapes const& s);
std::pair<Count, std::string> parameters_glm(Shapes const& s);
// The uses of the decoder layers (write_gpt_oss.cpp): `suffix` "" or "_grid",
// `args` the grid's sizes and the dtype arguments (", wdt = wdt, mdt = mdt"),
// `stage` one pipeline stage's counts (x (Ls / PP)).
std::string gpt_oss_uses(Shapes const& s, Phase const& phase, std::string const& suffix,
                         std::string const& args, bool stage);
// the families of read_qwen3.cpp (parameters() calls it for them).
std::pair<Count, std::string> parameters_qwen3_family(Shapes const& s);
// the parameters a token's step uses, for a MoE family (the routed
// experts it reaches, k of E; the embedding table, which it reads one row
// of, left out as the model cards count): nullopt for a dense one.
std::optional<std::pair<Count, std::string>> active_parameters(Shapes const& s);

// The scenario's text: the header, the lets, the sweep and the uses.
std::string write_scenario(Config const& c, Shapes const& s, ImportOptions const& o, Count params,
                           std::string const& formula);
// write_dtypes.cpp: the parts of the scenario the families of
// read_qwen3.cpp and the quantization add. The header's lines on the
// quantization and what is left out; the active parameters' lines; the
// dtype lets (the weights', the experts', the router's, the embedding and
// head's, the KV cache's) and the custom dtypes; the arguments a decoder
// use adds (Rd, ewdt, rdt, kvdt); the dtype the embedding and head take.
std::string quantization_header(Shapes const& s);
std::string active_parameters_line(Shapes const& s);
std::string dtype_lets(Shapes const& s);
// `let kvdt = ...` with `comment`, padded as the other dtype lets; "" when
// the KV cache takes the activations' dtype.
std::string kv_dtype_let(Shapes const& s, std::string const& comment);
std::string dtype_arguments(Shapes const& s, bool routed);
// The families that always write `let edt` and pass ewdt (gpt-oss, GLM-5, Qwen3.5).
bool always_expert_dtype(Family family);
std::string table_dtype(Shapes const& s);
std::string let_line(std::string const& name, Int value, std::string const& comment);

}  // namespace roofline::model::importer
