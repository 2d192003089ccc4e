// A checkpoint's quantization -> the weights' dtypes: config.json's
// quantization_config (fp8, mxfp4, compressed-tensors, awq, gptq) or
// hf_quant_config.json (NVIDIA ModelOpt: NVFP4, FP8), with the modules each
// leaves unquantized; --dtype overrides both (docs/import.md).
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline::model::importer {
namespace {

// Which of the model's parts a list of excluded module names (patterns,
// "re:" regular expressions) keeps unquantized.
struct Excluded {
    bool attention = false;   // self_attn as a whole
    bool some_attention = false;  // some of its projections only
    bool mlp = false;         // dense MLPs, shared experts
    bool experts = false;     // the routed experts
    std::vector<std::string> names;
};

bool has(std::string const& text, char const* part) { return text.find(part) != std::string::npos; }

Excluded excluded_modules(Config& c, json const* list, std::string const& field) {
    Excluded e;
    if (!list) return e;
    if (!list->is_array()) c.fail("field " + in_quotes(field) + " must be a list, not " + shown(*list));
    for (auto const& item : *list) {
        if (!item.is_string()) c.fail("field " + in_quotes(field) + " must list names, not " + shown(item));
        auto name = item.get<std::string>();
        e.names.push_back(name);
        bool projection = has(name, "_proj");
        if (has(name, "self_attn") || has(name, "attn")) {
            (projection && !has(name, "(") ? e.some_attention : e.attention) = true;
        } else if (has(name, "shared_expert") || (has(name, "mlp") && projection && !has(name, "experts"))) {
            e.mlp = true;
        } else if (has(name, "experts")) {
            e.experts = true;
        }
        // lm_head, the router (gate, router), norms, the MTP layer: the
        // scenario keeps the first two in bf16 anyway, the rest are not linear
        // or not modelled.
    }
    return e;
}

// 4-bit integer weights with a bf16 scale per `group`: the built-in int4_wo
// for 128, a declared dtype for another group size.
std::string int4_dtype(WeightDtypes& d, Int group) {
    if (group == 128) return "int4_wo";
    std::string name = "int4_g" + std::to_string(group);
    // 4 bits + 16 bits per group.
    d.dtype_lines.push_back("dtype " + name + " = 4 + 16 / " + std::to_string(group) +
                            " bits   # 4-bit integer weights, a bf16 scale per " +
                            std::to_string(group) + " (int4_wo's groups are 128)");
    return name;
}

Int positive(Config& c, json const& object, char const* key, std::string const& where) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer() || it->get<Int>() <= 0 || it->get<Int>() > 65536)
        c.fail(where + " needs a positive integer '" + key + "', not " +
               (it == object.end() ? std::string("nothing") : shown(*it)));
    return it->get<Int>();
}

// compressed-tensors: the first config group's weights and input activations.
void read_compressed_tensors(Config& c, json const& q, WeightDtypes& d, std::string& format) {
    auto groups = q.find("config_groups");
    if (groups == q.end() || !groups->is_object() || groups->empty())
        c.fail("quantization_config (compressed-tensors) has no 'config_groups'");
    if (groups->size() > 1)
        c.fail("quantization_config has " + std::to_string(groups->size()) +
               " config_groups; roofline import reads one (give --dtype)");
    auto const& group = groups->begin().value();
    auto weights = group.find("weights");
    if (weights == group.end() || !weights->is_object())
        c.fail("quantization_config's config group has no 'weights'");
    Int bits = positive(c, *weights, "num_bits", "quantization_config's weights");
    auto type = weights->value("type", std::string());
    bool weight_only = !group.contains("input_activations") || group["input_activations"].is_null();
    if (bits == 4 && type == "int" && weights->value("strategy", std::string()) == "group") {
        Int size = positive(c, *weights, "group_size", "quantization_config's weights");
        format = int4_dtype(d, size);
        if (!weight_only) c.fail("quantization_config quantizes the activations of 4-bit integer weights; "
                                 "roofline import reads weight-only int4 (give --dtype)");
        d.notes.push_back("compressed-tensors: " + std::to_string(bits) + "-bit integer weights in groups of " +
                          std::to_string(size) + ", activations not quantized: " + format +
                          " weights, bf16 matmul inputs");
        return;
    }
    if (bits == 8 && type == "float") {
        format = weights->value("strategy", std::string()) == "block" ? "fp8_block" : "fp8";
        d.activations = weight_only ? "bf16" : "fp8";
        d.notes.push_back("compressed-tensors: fp8 weights (" + format + "), " + d.activations +
                          " matmul inputs");
        return;
    }
    c.fail("quantization_config's weights are " + std::to_string(bits) + "-bit " + in_quotes(type) +
           "; roofline import reads 4-bit int groups and 8-bit float (give --dtype)");
}

}  // namespace

namespace {

WeightDtypes checkpoint_dtypes(Config& c, json const& model, json const* hf_quant, ImportOptions const& o) {
    WeightDtypes d;
    d.dense = d.experts = d.router = d.head = d.activations = o.weight_dtype;
    auto q = model.find("quantization_config");
    bool in_config = q != model.end() && q->is_object();
    if (o.weight_dtype_given) {
        if (in_config || hf_quant)
            d.notes.push_back("--dtype " + o.weight_dtype + " given: the checkpoint's quantization is not read");
        return d;
    }
    if (!in_config && !hf_quant) return d;

    d.quantized = true;
    d.activations = "bf16";
    d.router = d.head = "bf16";
    std::string format;
    Excluded excluded;
    if (hf_quant) {
        auto quant = hf_quant->find("quantization");
        if (!hf_quant->is_object() || quant == hf_quant->end() || !quant->is_object())
            c.fail(o.quant_file + " has no 'quantization' object (an hf_quant_config.json has)");
        auto algo = quant->value("quant_algo", std::string());
        if (algo == "NVFP4") {
            format = d.activations = "nvfp4";  // W4A4: activations in NVFP4 too
            if (quant->contains("group_size") && positive(c, *quant, "group_size", o.quant_file) != 16)
                c.fail(o.quant_file + ": NVFP4 with a group_size other than 16, which nvfp4 is not");
        } else if (algo == "FP8") {
            format = d.activations = "fp8";
        } else {
            c.fail(o.quant_file + ": quant_algo " + in_quotes(algo) +
                   " is not one roofline import reads (NVFP4, FP8); give --dtype");
        }
        if (quant->value("kv_cache_quant_algo", json()).is_string()) {
            auto kv = (*quant)["kv_cache_quant_algo"].get<std::string>();
            if (kv == "FP8") d.kv_cache = "fp8";
            else if (kv == "NVFP4") d.kv_cache = "nvfp4";
        }
        excluded = excluded_modules(c, quant->contains("exclude_modules") ? &(*quant)["exclude_modules"] : nullptr,
                                    "exclude_modules");
        d.notes.push_back(visible(o.quant_file, 4096) + ": quant_algo " + algo + ", kv_cache_quant_algo " +
                          (d.kv_cache.empty() ? "none" : d.kv_cache) + ", " +
                          std::to_string(excluded.names.size()) + " exclude_modules");
        if (in_config) d.notes.push_back("quantization_config not read: " + o.quant_file + " describes the weights");
    } else {
        auto method = q->value("quant_method", std::string());
        std::string list_field = "modules_to_not_convert";
        if (method == "fp8") {
            auto block = q->find("weight_block_size");
            bool blocked = block != q->end() && !block->is_null();
            if (blocked && *block != json::array({128, 128}))
                c.fail("quantization_config's weight_block_size is " + shown(*block) +
                       "; fp8_block's blocks are [128, 128] (give --dtype)");
            format = blocked ? "fp8_block" : "fp8";
            d.activations = "fp8";  // W8A8: activation_scheme dynamic or static
            d.notes.push_back("quant_method fp8" + std::string(blocked ? ", weight_block_size [128, 128]" : "") +
                              ": " + format + " weights, fp8 matmul inputs (activation_scheme " +
                              visible(q->value("activation_scheme", std::string("dynamic")), max_shown) + ")");
        } else if (method == "mxfp4") {
            format = "mxfp4";
            d.notes.push_back("quant_method mxfp4: the routed experts in mxfp4 (the quantizer converts "
                              "only them), bf16 matmul inputs");
            excluded.attention = excluded.mlp = true;
        } else if (method == "compressed-tensors") {
            read_compressed_tensors(c, *q, d, format);
            list_field = "ignore";
        } else if (method == "awq" || method == "gptq") {
            Int bits = positive(c, *q, "bits", "quantization_config");
            if (bits != 4) c.fail("quantization_config (" + method + ") has " + std::to_string(bits) +
                                  "-bit weights; roofline import reads 4-bit ones (give --dtype)");
            format = int4_dtype(d, positive(c, *q, "group_size", "quantization_config"));
            d.notes.push_back("quant_method " + method + ": " + format + " weights, bf16 matmul inputs");
        } else {
            c.fail("quantization_config's quant_method " + in_quotes(method) +
                   " is not one roofline import reads (fp8, mxfp4, compressed-tensors, awq, gptq); "
                   "give --dtype");
        }
        auto more = excluded_modules(c, q->contains(list_field) ? &(*q)[list_field] : nullptr, list_field);
        more.attention = more.attention || excluded.attention;
        more.mlp = more.mlp || excluded.mlp;
        excluded = more;
        c.record(c.prefix() + "quantization_config", "{quant_method: " + method + ", " +
                 std::to_string(excluded.names.size()) + " " + list_field + "}");
    }
    d.dense = excluded.attention ? "bf16" : format;
    d.experts = excluded.experts ? "bf16" : format;
    if (excluded.attention) d.notes.push_back("attention excluded: its weights in bf16");
    if (excluded.attention != excluded.mlp && !excluded.names.empty())
        d.notes.push_back(std::string("the dense MLPs and shared experts ") +
                          (excluded.mlp ? "are excluded (bf16) but written" : "are quantized but written") +
                          " with the attention's dtype, wdt = " + d.dense);
    if (excluded.some_attention)
        d.notes.push_back("some attention projections excluded (bf16 in the checkpoint), written at wdt = " +
                          d.dense + ": the templates give the attention one weight dtype");
    d.notes.push_back("the embedding, the LM head and the router in bf16 (quantizers leave them)");
    return d;
}

}  // namespace

WeightDtypes weight_dtypes(Config& c, json const& model, json const* hf_quant, ImportOptions const& o) {
    WeightDtypes d = checkpoint_dtypes(c, model, hf_quant, o);
    if (!o.kv_cache_dtype.empty()) {
        d.notes.push_back("--kv-dtype " + o.kv_cache_dtype + ": the KV cache in " + o.kv_cache_dtype +
                          (d.kv_cache.empty() || d.kv_cache == o.kv_cache_dtype
                               ? std::string()
                               : " (the quantization's " + d.kv_cache + " not used)"));
        d.kv_cache = o.kv_cache_dtype;
    }
    return d;
}

}  // namespace roofline::model::importer
