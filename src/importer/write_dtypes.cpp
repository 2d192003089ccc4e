// The parts of the scenario that the quantization of a checkpoint and the
// families of read_qwen3.cpp add to write_scenario's text: header lines,
// dtype lets, and the arguments of the decoder uses.
#include "importer.hpp"

#include <string>

namespace roofline::model::importer {
namespace {

// `let NAME = VALUE` padded as write_scenario's wdt line, then the comment.
std::string dtype_let(std::string const& name, std::string const& value, std::string const& comment) {
    std::string head = "let " + name + " = " + value;
    head += std::string(head.size() < 29 ? 29 - head.size() : 1, ' ');
    return head + "# " + comment + "\n";
}

// The families whose MoE templates take ewdt and rdt (the experts' and the
// router's weights apart from the attention's).
bool takes_expert_dtypes(Family family) {
    return family == Family::qwen3_moe || family == Family::minimax_m2 || family == Family::deepseek;
}

}  // namespace

bool always_expert_dtype(Family family) {
    return family == Family::gpt_oss || family == Family::glm_dsa || family == Family::qwen3_5;
}

std::string quantization_header(Shapes const& s) {
    std::string out;
    for (auto const& note : s.dtypes.notes) out += "# Quantization: " + note + "\n";
    for (auto const& line : s.left_out) out += "# Left out: " + line + "\n";
    return out;
}

std::string active_parameters_line(Shapes const& s) {
    if (!s.active) return "";
    return "# Active parameters per token: " + grouped(s.active->first) + "\n#   = " + s.active->second + "\n";
}

std::string dtype_lets(Shapes const& s) {
    auto const& d = s.dtypes;
    std::string out;
    for (auto const& line : d.dtype_lines) out += line + "\n";
    out += dtype_let("wdt", d.dense, "the weights' dtype (attention, dense MLPs): from the quantization");
    out += dtype_let("mdt", d.activations == d.dense ? "wdt" : d.activations,
                     "the matmuls' activation inputs" +
                         std::string(d.activations == "bf16" ? " (weight-only)" : ""));
    if (s.E && (takes_expert_dtypes(s.family) || always_expert_dtype(s.family)))
        out += dtype_let("edt", d.experts == d.dense ? "wdt" : d.experts, "the routed experts' weights");
    if (s.E && takes_expert_dtypes(s.family)) out += dtype_let("rdt", d.router, "the router's weights");
    out += dtype_let("hdt", d.head, "the embedding and the LM head");
    out += kv_dtype_let(s, "the KV cache");
    return out + "\n";
}

std::string kv_dtype_let(Shapes const& s, std::string const& comment) {
    return s.dtypes.kv_cache.empty() ? std::string() : dtype_let("kvdt", s.dtypes.kv_cache, comment);
}

// ", Rd = Rd" for MiniMax-M2; ", ewdt = edt, rdt = rdt" for a MoE layer of a
// family whose templates take them, when quantized; ", ewdt = edt" always
// for the families that ship their experts apart; ", kvdt = kvdt".
std::string dtype_arguments(Shapes const& s, bool routed) {
    std::string out;
    if (s.family == Family::minimax_m2) out += ", Rd = Rd";
    if (routed && always_expert_dtype(s.family)) out += ", ewdt = edt";
    if (s.dtypes.quantized && routed && takes_expert_dtypes(s.family)) out += ", ewdt = edt, rdt = rdt";
    if (!s.dtypes.kv_cache.empty()) out += ", kvdt = kvdt";
    return out;
}

std::string table_dtype(Shapes const& s) { return s.dtypes.quantized ? "hdt" : "wdt"; }

}  // namespace roofline::model::importer
