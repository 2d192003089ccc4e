#pragma once
// `roofline import`: a model's Hugging Face config.json -> the text of a
// scenario that includes the shipped layer templates and instantiates them
// with the config's shapes (docs/import.md). No I/O: the caller reads the file
// and writes the text. Defined in src/importer/; in namespace roofline::model
// beside load_scenario, which checks the text it returns.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::model {

// The largest config.json `roofline import` reads (real ones are a few KB; the
// largest of ../shared/measured/configs is 13 KB).
inline constexpr std::uintmax_t max_config_bytes = std::uintmax_t{16} << 20;  // 16 MiB

enum class ImportMode { decode, prefill };

// One worker's parallel layout, as the serving engines size it (the measured
// data's tp_size, attention_dp_size, moe_ep_size, moe_tp_size, pp_size):
// --tp, --dp, --ep, --etp, --pp. A size not given is derived (docs/import.md,
// "Layouts"); none given: the one-chip scenario of before.
struct ImportLayout {
    std::optional<std::int64_t> tp, dp, pp, ep, etp;
    bool given() const { return tp || dp || pp || ep || etp; }
};

// --request P,G: a request of P prompt tokens and G generated tokens.
struct ImportRequest {
    std::int64_t prompt = 0, generated = 0;
};

struct ImportOptions {
    ImportMode mode = ImportMode::decode;
    std::vector<std::string> targets = {"h100_sxm", "h200", "mi300x", "tpu_v5p"};
    std::string weight_dtype = "bf16";  // the templates' `wdt`
    // quantization. Without --dtype (weight_dtype_given false) the
    // config's quantization_config, or hf_quant_config.json's text
    // (quant_config, read from quant_file), chooses the weights' dtypes;
    // weight_dtype is then the default for a config that has neither.
    bool weight_dtype_given = false;
    std::string quant_config;
    std::string quant_file;
    // --kv-dtype: the KV cache's dtype (the templates' kvdt), whatever the
    // weights' (default: the quantization's kv_cache_quant_algo, else the
    // activations').
    std::string kv_cache_dtype;
    ImportLayout layout;
    bool flash = false;                   // the flash-attention templates
    std::optional<ImportRequest> request; // a `request` instead of the mode's uses
    // --serve: a `serve` statement (continuous batching, docs/serving.md)
    // instead of the mode's uses; `request`, when given, its prompt and
    // output lengths (default 2048 and 256).
    bool serve = false;
};

// A config that cannot be imported. what() is the whole message:
// "FILE:LINE:COL: error: ...", the line and a caret (and a note likewise, for
// a key given twice) for malformed JSON, a number out of range or a
// duplicate key; one line "FILE: error: ..." for the rest (an unknown
// architecture, a missing, unsupported or inconsistent field).
struct ImportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ImportedScenario {
    std::string text;          // the scenario, ending in '\n'
    std::string architecture;  // the supported architecture it was read as
    double parameters = 0;     // the parameter count the shapes imply
    double active_parameters = 0;  // per token, for a MoE model (0: dense)
};

// `file_name` names the config in messages and in the scenario's header.
// Throws ImportError.
ImportedScenario import_config(std::string const& json_text, std::string const& file_name,
                               ImportOptions const& options = {});

// "LlamaForCausalLM (llama), MistralForCausalLM (mistral), ...": what
// import_config reads, in the order of the docs.
std::string supported_architectures();

}  // namespace roofline::model
