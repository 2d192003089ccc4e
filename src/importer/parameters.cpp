// The parameter count the shapes imply, with the formula that gives it for the
// scenario's header, and the numbers grouped in threes.
#include "importer.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace roofline::model::importer {

// 8030261248 -> "8,030,261,248"
std::string grouped(Int value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

// A parameter count below 2^53, grouped the same way.
std::string grouped(Count value) { return value < 0x1p53L ? grouped(static_cast<Int>(value)) : "(too many)"; }


// The parameter count, with the formula that gives it, for the header.
std::pair<Count, std::string> parameters(Shapes const& s) {
    // In floating point, so that no config can overflow an integer; exact
    // below 2^53 (import_config refuses larger counts).
    Count const L = s.L, D = s.D, H = s.H, KV = s.KV, Hd = s.Hd, F = s.F, V = s.V, E = s.E,
                Fs = s.Fs, Qr = s.Qr, C = s.C, Dn = s.Dn, Dr = s.Dr, Dv = s.Dv, Ld = s.Ld,
                Fe = s.Fe, P = s.max_positions;
    Count attention = 2 * D * H * Hd + 2 * D * KV * Hd;
    Count ends = (s.tied ? 1 : 2) * V * D;
    std::string ends_text = s.tied ? "V D (embedding, tied to the LM head)"
                                   : "2 V D (embedding and LM head)";
    switch (s.family) {
    case Family::qwen3:  // parameters_qwen3.cpp
    case Family::qwen3_moe:
    case Family::minimax_m2: return parameters_qwen3_family(s);
    case Family::llama:
    case Family::qwen2: {
        bool bias = s.family == Family::qwen2;
        Count layer = attention + (bias ? H * Hd + 2 * KV * Hd : 0) + 3 * D * F + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd" + std::string(bias ? " + H Hd + 2 KV Hd" : "") +
                    " + 3 D F + 2 D) + " + ends_text + " + D\n#   = " + std::to_string(s.L) +
                    " x " + grouped(layer) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::gemma:
    case Family::gemma2: {
        int norms = s.family == Family::gemma2 ? 4 : 2;
        Count layer = attention + 3 * D * F + norms * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + 3 D F + " + std::to_string(norms) + " D) + " +
                    ends_text + " + D\n#   = " + std::to_string(s.L) + " x " + grouped(layer) +
                    " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::qwen2_moe: {
        Count layer = attention + H * Hd + 2 * KV * Hd + E * 3 * D * F + D * E +
                    3 * D * Fs + D + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + H Hd + 2 KV Hd + E x 3 D F + D E + 3 D Fs + D + "
                "2 D) + " + ends_text + " + D\n#   = " + std::to_string(s.L) + " x " +
                    grouped(layer) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::deepseek: {
        Count mla = D * Qr + Qr + Qr * H * (Dn + Dr) + D * (C + Dr) + C +
                  C * H * (Dn + Dv) + H * Dv * D;
        Count dense = mla + 3 * D * F + 2 * D;
        Count moe = mla + E * 3 * D * Fe + D * E + 3 * D * Fs + 2 * D +
                  (s.score_bias ? E : 0);
        return {Ld * dense + (L - Ld) * moe + ends + D,
                "Ld x (MLA + 3 D F + 2 D) + (L - Ld) x (MLA + E x 3 D Fe + D E + 3 D Fs + 2 D" +
                    std::string(s.score_bias ? " + E" : "") + ") "
                "+ " + ends_text + " + D,\n#     MLA = D Qr + Qr + Qr H (Dn + Dr) + D (C + Dr) + C + "
                "C H (Dn + Dv) + H Dv D = " + grouped(mla) + "\n#   = " + std::to_string(s.Ld) +
                    " x " + grouped(dense) + " + " + std::to_string(s.L - s.Ld) + " x " +
                    grouped(moe) + " + " + grouped(ends) + " + " + grouped(D)};
    }
    case Family::mixtral: {
        Count layer = attention + E * 3 * D * F + D * E + 2 * D;
        return {L * layer + ends + D,
                "L x (2 D H Hd + 2 D KV Hd + E x 3 D F + D E + 2 D) + " + ends_text +
                    " + D\n#   = " + std::to_string(s.L) + " x " + grouped(layer) + " + " +
                    grouped(ends) + " + " + grouped(D)};
    }
    case Family::qwen3_5: return parameters_qwen3_5(s);
    // in their own files.
    case Family::gpt_oss: return parameters_gpt_oss(s);
    case Family::glm_dsa: return parameters_glm(s);
    case Family::gpt2: {
        Count layer = 4 * D * H * Hd + 3 * H * Hd + D + 2 * D * F + F + D +
                    4 * D;
        Count positions = P * D;
        return {L * layer + ends + positions + 2 * D,
                "L x (4 D H Hd + 3 H Hd + D + 2 D F + F + D + 4 D) + " + ends_text +
                    " + P D (positions) + 2 D\n#   = " + std::to_string(s.L) + " x " +
                    grouped(layer) + " + " + grouped(ends) + " + " + grouped(positions) + " + " +
                    grouped(2 * D)};
    }
    }
    return {0, ""};
}

}  // namespace roofline::model::importer
