// The parameter counts of Qwen3, Qwen3-MoE and MiniMax-M2, with their
// formulas; the active parameters per token of every MoE family.
#include "importer.hpp"

#include <optional>
#include <string>
#include <utility>

namespace roofline::model::importer {

std::pair<Count, std::string> parameters_qwen3_family(Shapes const& s) {
    Count const L = s.L, D = s.D, H = s.H, KV = s.KV, Hd = s.Hd, F = s.F, V = s.V, E = s.E;
    Count ends = (s.tied ? 1 : 2) * V * D;
    std::string ends_text = s.tied ? "V D (embedding, tied to the LM head)"
                                   : "2 V D (embedding and LM head)";
    Count attention = 2 * D * H * Hd + 2 * D * KV * Hd;
    Count layer = 0;
    std::string text;
    switch (s.family) {
    case Family::qwen3:
        // q_norm and k_norm: a gain of Hd each, shared by the heads.
        layer = attention + 2 * Hd + 3 * D * F + 2 * D;
        text = "L x (2 D H Hd + 2 D KV Hd + 2 Hd + 3 D F + 2 D)";
        break;
    case Family::qwen3_moe:
        layer = attention + 2 * Hd + E * 3 * D * F + D * E + 2 * D;
        text = "L x (2 D H Hd + 2 D KV Hd + 2 Hd + E x 3 D F + D E + 2 D)";
        break;
    case Family::minimax_m2:
        // The norms over the whole projections: gains of H Hd and KV Hd.
        layer = attention + H * Hd + KV * Hd + E * 3 * D * F + D * E + (s.score_bias ? E : 0) + 2 * D;
        text = "L x (2 D H Hd + 2 D KV Hd + H Hd + KV Hd + E x 3 D F + D E" +
               std::string(s.score_bias ? " + E" : "") + " + 2 D)";
        break;
    default:
        return {0, ""};
    }
    return {L * layer + ends + D, text + " + " + ends_text + " + D\n#   = " + std::to_string(s.L) +
                                      " x " + grouped(layer) + " + " + grouped(ends) + " + " +
                                      grouped(D)};
}

// A token's step reads the k experts it is routed to, not the E - k others,
// and one row of an untied embedding table (the model cards' "activated
// parameters" leave the table out: Kimi K2's 32B, DeepSeek-V3's 37B).
std::optional<std::pair<Count, std::string>> active_parameters(Shapes const& s) {
    if (s.E == 0) return std::nullopt;
    // gpt-oss and GLM-5 give theirs after their formula (parameters_gpt_oss.cpp,
    // parameters_glm.cpp); Qwen3.5 in parameters_qwen3_5.cpp.
    if (s.family == Family::gpt_oss || s.family == Family::glm_dsa) return std::nullopt;
    if (s.family == Family::qwen3_5)
        return std::pair{active_parameters_qwen3_5(s),
                         std::string("every weight but the E - K experts a token is not routed to "
                                     "and the embedding table (a token reads one row)")};
    auto [total, formula] = parameters(s);
    bool deepseek = s.family == Family::deepseek;
    Count moe_layers = deepseek ? s.L - s.Ld : s.L;
    Count width = deepseek ? s.Fe : s.F;
    Count unused = moe_layers * (Count(s.E) - s.K) * 3 * s.D * width;
    Count table = s.tied ? 0 : Count(s.V) * s.D;
    std::string text = "Parameters - " + std::string(deepseek ? "(L - Ld)" : "L") + " x (E - K) x 3 D " +
                       (deepseek ? "Fe" : "F") + " (the experts a token is not routed to)";
    if (!s.tied) text += " - V D (the embedding table: a token reads one row)";
    text += "\n#   = " + grouped(total) + " - " + grouped(unused);
    if (!s.tied) text += " - " + grouped(table);
    return std::pair{total - unused - table, text};
}

}  // namespace roofline::model::importer
