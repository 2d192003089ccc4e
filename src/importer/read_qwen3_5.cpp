// The shapes of Qwen3.5-MoE (Qwen3_5MoeForConditionalGeneration): its text
// model, read from the config's `text_config`; the vision tower is left out.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace roofline::model::importer {
namespace {

// layer_types: how many layers are linear attention (the rest full attention);
// without it, every full_attention_interval-th layer is full attention.
Int linear_layers(Config& text, Int L) {
    auto linear = text.layers_of_kind(L, "linear_attention");
    if (!linear) return L - L / text.integer("full_attention_interval");
    text.optional_integer("full_attention_interval");
    return *linear;
}

// The rotary dims: partial_rotary_factor x head_dim (in rope_parameters, or
// at the top of text_config; absent: 0.25, the configuration class's default).
Int rotary_dims(Config& text, Shapes& s) {
    json const* factor = nullptr;
    std::string name = "partial_rotary_factor";
    if (json const* rope = text.find("rope_parameters"); rope && rope->is_object() &&
                                                         rope->contains(name)) {
        factor = &(*rope)[name];
        name = "rope_parameters.partial_rotary_factor";
    } else {
        factor = text.find(name);
    }
    double f = 0.25;
    if (factor) {
        if (!factor->is_number() || factor->get<double>() <= 0 || factor->get<double>() > 1)
            text.fail("field " + in_quotes(name) + " must be a number in (0, 1], not " + shown(*factor));
        f = factor->get<double>();
        text.record(name, factor->dump());
    } else {
        s.assumed.push_back("partial_rotary_factor absent: 0.25 (Qwen3.5's default)");
    }
    double r = f * static_cast<double>(s.Hd);
    if (r != std::floor(r))
        text.fail("partial_rotary_factor x head_dim (" + std::to_string(r) + ") is not whole");
    return static_cast<Int>(r);
}

// mamba_ssm_dtype: the recurrent state's dtype (absent: fp32, as vLLM keeps it).
std::string state_dtype(Config& text, Shapes& s) {
    auto value = text.string("mamba_ssm_dtype");
    if (!value) {
        s.assumed.push_back("mamba_ssm_dtype absent: the recurrent state in fp32");
        return "fp32";
    }
    if (*value == "float32") return "fp32";
    if (*value == "bfloat16") return "bf16";
    if (*value == "float16") return "fp16";
    text.fail("field 'mamba_ssm_dtype' is " + in_quotes(*value) +
              "; roofline import reads 'float32', 'bfloat16' or 'float16'");
}

}  // namespace

// `t` is the text model (import_config reads it from text_config, the
// vision tower left out).
Shapes read_qwen3_5(Config& t) {
    Shapes s;
    s.family = Family::qwen3_5;
    Config const& c = t;

    t.require_one_of("hidden_act", {"silu"});
    t.require_false("attention_bias", "biases on the attention projections");
    if (!t.boolean("attn_output_gate", true))
        t.fail("field 'attn_output_gate' is false, which roofline import does not model for " +
               c.architecture());
    s.L = t.integer("num_hidden_layers");
    s.D = t.integer("hidden_size");
    read_heads(t, s, "num_attention_heads", "hidden_size");
    s.Ll = linear_layers(t, s.L);
    s.R = rotary_dims(t, s);
    s.Hk = t.integer("linear_num_key_heads");
    s.Hv = t.integer("linear_num_value_heads");
    s.dk = t.integer("linear_key_head_dim");
    s.dv = t.integer("linear_value_head_dim");
    s.Kc = t.integer("linear_conv_kernel_dim");
    if (s.Hv % s.Hk != 0)
        t.fail("'linear_num_key_heads' (" + std::to_string(s.Hk) +
               ") does not divide 'linear_num_value_heads' (" + std::to_string(s.Hv) + ")");
    if (s.Kc < 2)
        t.fail("field 'linear_conv_kernel_dim' is 1 (no conv state), which roofline import does "
               "not model for " + c.architecture());
    s.state_dtype = state_dtype(t, s);

    s.F = t.integer("moe_intermediate_size");
    s.F_field = "moe_intermediate_size, per routed expert";
    s.E = t.integer("num_experts");
    s.K = t.integer("num_experts_per_tok");
    if (s.K > s.E)
        t.fail("'num_experts_per_tok' (" + std::to_string(s.K) + ") exceeds 'num_experts' (" +
               std::to_string(s.E) + ")");
    s.Fs = t.integer("shared_expert_intermediate_size");
    if (auto step = t.optional_integer("decoder_sparse_step"); step && *step != 1)
        t.fail("field 'decoder_sparse_step' is " + std::to_string(*step) +
               " (dense MLP layers between the MoE layers), which roofline import does not model "
               "for " + c.architecture());
    t.require_empty_list("mlp_only_layers", "dense MLP layers");
    s.V = t.integer("vocab_size");
    s.max_positions = t.integer("max_position_embeddings");
    s.tied = t.boolean("tie_word_embeddings", false);
    if (json const* mtp = t.find("mtp_num_hidden_layers")) t.record("mtp_num_hidden_layers", mtp->dump());
    s.left_out.push_back("the multi-token-prediction layers (text_config.mtp_num_hidden_layers):\n"
                         "#   decoding without speculation does not run them");
    return s;
}

}  // namespace roofline::model::importer
