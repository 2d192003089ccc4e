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

enum class Family { llama, qwen2, mixtral, qwen2_moe, gemma, gemma2, deepseek, gpt2 };

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
    Config(json const& root, std::string file);

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

// The architecture `architectures` (or else `model_type`) names, recorded;
// fails on an unknown or missing one.
Architecture const& find_architecture(Config& config, json const& root);

// The shapes of each family.
Shapes read_llama_like(Config& c, Family family);
Shapes read_deepseek(Config& c);
Shapes read_gpt2(Config& c);
// Heads: H, KV (default H), Hd (head_dim, or width / H), with the
// divisibility checks; s.family and s.D already set.
void read_heads(Config& c, Shapes& s, char const* heads_field, char const* width_field);

// 8030261248 -> "8,030,261,248"; a count of 2^53 or more is "(too many)".
std::string grouped(Int value);
std::string grouped(Count value);
// The parameter count, with the formula that gives it, for the header.
std::pair<Count, std::string> parameters(Shapes const& s);

// The scenario's text: the header, the lets, the sweep and the uses.
std::string write_scenario(Config const& c, Shapes const& s, ImportOptions const& o, Count params,
                           std::string const& formula);

}  // namespace roofline::model::importer
