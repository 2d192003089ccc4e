#pragma once
// The tests of the import's parallel layouts (tests/test_import_layout.cpp,
// tests/test_layouts.cpp): Llama 3.1 70B's published config (as in
// ../shared/measured/configs, from aiconfigurator's model_configs; the others
// are import_configs.hpp's), and a scenario text evaluated per GPU with the
// shipped templates.

#include "helpers.hpp"
#include "import_configs.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/importer/import_config.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <utility>
#include <string>

namespace roofline::test::layout {

using namespace roofline::test::configs;

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

struct Evaluated {
    Diagnostics diagnostics;
    Program program;
    model::Scenario scenario;
    engine::Evaluation evaluation;

    // The point whose sweep `name` is `value` (and, for other sweeps, the
    // first point that has it).
    std::size_t point(std::string const& name, double value) const {
        for (std::size_t s = 0; s < scenario.sweeps.size(); ++s) {
            if (scenario.sweeps[s].name != name) continue;
            for (std::size_t p = 0; p < evaluation.point_count; ++p)
                if (evaluation.sweep_value(p, s) == value) return p;
        }
        FAIL("no point with " << name << " = " << value);
        return 0;
    }
    engine::PointFacts const& facts(std::size_t p) const { return evaluation.point_facts[p]; }
    engine::Case const& find(std::string const& op, std::string const& layer, std::size_t p) const {
        for (auto const& c : evaluation.cases)
            if (scenario.ops[c.op].name == op && scenario.ops[c.op].layer == layer && c.point == p &&
                c.target == 0)
                return c;
        FAIL("no case " << layer << "/" << op);
        throw;
    }
    // The step on the first target: the sum of count x t_step.
    double step(std::size_t p) const {
        double total = 0;
        for (auto const& c : evaluation.cases)
            if (c.point == p && c.target == 0) total += scenario.ops[c.op].count * c.metrics.t_step;
        return total;
    }
};

// `text` checked (no errors, no warnings) and evaluated with the templates/ folder.
inline std::unique_ptr<Evaluated> evaluate(std::string const& text) {
    auto r = std::make_unique<Evaluated>();
    DiskFileSystem disk;
    LoadOptions load{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}};
    r->program = load_program_text("imported.roof", text, disk, load, r->diagnostics);
    r->scenario = model::check(r->program, {}, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE_FALSE(r->diagnostics.has_errors());
    for (auto const& d : r->diagnostics.all()) CHECK(d.severity != Severity::warning);
    auto evaluation = engine::evaluate(r->scenario, r->diagnostics);
    INFO(format(r->diagnostics));
    REQUIRE(evaluation);
    r->evaluation = std::move(*evaluation);
    return r;
}

// The config imported with `options`, the text kept for INFO.
inline std::string import_text(char const* config, model::ImportOptions const& options) {
    return model::import_config(config, "config.json", options).text;
}

}  // namespace roofline::test::layout
