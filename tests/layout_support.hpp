#pragma once
// The tests of the import's parallel layouts (tests/test_import_layout.cpp,
// tests/test_layouts.cpp): Llama 3.1 70B's published config (as in
// ../shared/measured/configs, from aiconfigurator's model_configs; the others
// are import_configs.hpp's), and a scenario text evaluated per GPU with the
// shipped templates.

#include "evaluated.hpp"
#include "helpers.hpp"
#include "import_configs.hpp"

#include "roofline/importer/import_config.hpp"

#include <initializer_list>
#include <memory>
#include <string>

namespace roofline::test::layout {

using namespace roofline::test::configs;
using evaluated::Evaluated;

// `text` checked (no errors, no warnings) and evaluated.
inline std::unique_ptr<Evaluated> evaluate(std::string const& text) { return evaluated::evaluate_text(text); }

// meta-llama/Meta-Llama-3.1-70B config.json.
inline char const* const llama31_70b = R"json({
  "architectures": [
    "LlamaForCausalLM"
  ],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 128000,
  "eos_token_id": 128001,
  "hidden_act": "silu",
  "hidden_size": 8192,
  "initializer_range": 0.02,
  "intermediate_size": 28672,
  "max_position_embeddings": 131072,
  "mlp_bias": false,
  "model_type": "llama",
  "num_attention_heads": 64,
  "num_hidden_layers": 80,
  "num_key_value_heads": 8,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  },
  "rope_theta": 500000.0,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.43.0.dev0",
  "use_cache": true,
  "vocab_size": 128256
})json";

// The config imported with `options`, the text kept for INFO.
inline std::string import_text(char const* config, model::ImportOptions const& options) {
    return model::import_config(config, "config.json", options).text;
}

// `config` on each of `layouts`, in decode and prefill on H200: the text
// checks and evaluates, with resident bytes.
inline void check_layouts(char const* config, std::initializer_list<model::ImportLayout> layouts) {
    for (auto const& layout : layouts) {
        for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
            model::ImportOptions o;
            o.targets = {"h200"};
            o.mode = mode;
            o.layout = layout;
            auto text = import_text(config, o);
            INFO(text);
            CHECK(evaluate(text)->evaluation.has_resident);
        }
    }
}

}  // namespace roofline::test::layout
