// The shapes of Qwen3.5-MoE (Qwen3_5MoeForConditionalGeneration): its text
// model, read from the config's `text_config`; the vision tower is left out.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace roofline::model::importer {
namespace {

// The text model's fields are read through a Config of their own (the same
// checks and messages), then recorded in the outer one as text_config.NAME;
// the text_config fields not read go to the header as a line of their own.
// (A small lookup of this family's own, until Config reads nested objects.)
void merge_text_config(Config& outer, Config const& text, Shapes& s) {
    for (auto const& [name, value] : text.used()) outer.record("text_config." + name, value);
    std::vector<std::string> others;
    for (auto const& name : text.not_read()) {
        bool part_read = false;  // rope_parameters: its partial_rotary_factor is read
        for (auto const& used : text.used()) part_read = part_read || used.first.rfind(name + ".", 0) == 0;
        if (!part_read) others.push_back(name);
    }
    if (others.empty()) return;
    std::string line = "text_config fields not read (no effect on the templates):";
    std::size_t width = line.size();
    for (std::size_t i = 0; i < others.size(); ++i) {
        std::string word(" ");
        word.append(visible(others[i], max_shown)).append(i + 1 < others.size() ? "," : "");
        if (width + word.size() > 68) {
            line += "\n#  ";
            width = 3;
        }
        line += word;
        width += word.size();
    }
    s.assumed.push_back(line);
}

// layer_types: how many layers are linear attention (the rest full attention);
// without it, every full_attention_interval-th layer is full attention.
Int linear_layers(Config& text, Int L) {
    json const* types = text.find("layer_types");
    if (!types) {
        Int interval = text.integer("full_attention_interval");
        return L - L / interval;
    }
    if (!types->is_array() || static_cast<Int>(types->size()) != L)
        text.fail("field 'layer_types' must be a list of num_hidden_layers (" + std::to_string(L) +
                  ") names, not " + shown(*types));
    Int linear = 0;
    for (auto const& t : *types) {
        if (t == "linear_attention") ++linear;
        else if (t != "full_attention")
            text.fail("field 'layer_types' holds " + shown(t) + "; " + text.architecture() +
                      " is imported with 'linear_attention' and 'full_attention' layers only");
    }
    text.record("layer_types", std::to_string(linear) + " x linear_attention, " +
                                   std::to_string(L - linear) + " x full_attention");
    text.optional_integer("full_attention_interval");
    return linear;
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

Shapes read_qwen3_5(Config& c) {
    Shapes s;
    s.family = Family::qwen3_5;
    json const* root = c.find("text_config");
    if (!root || !root->is_object())
        c.fail("field 'text_config' (the text model) must be an object, which " + c.architecture() +
               " needs");
    c.record("text_config", "(the text model: its fields as text_config.NAME)");
    Config t(*root, c.file());
    t.set_architecture(c.architecture());

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
    s.tied = t.root_has("tie_word_embeddings") ? t.boolean("tie_word_embeddings", false)
                                               : c.boolean("tie_word_embeddings", false);
    if (json const* mtp = t.find("mtp_num_hidden_layers")) t.record("mtp_num_hidden_layers", mtp->dump());
    s.assumed.push_back("the vision tower (vision_config) and the multi-token-prediction\n"
                        "#   layers (text_config.mtp_num_hidden_layers) are left out: text\n"
                        "#   decoding without speculation runs neither");
    merge_text_config(c, t, s);
    return s;
}

}  // namespace roofline::model::importer
