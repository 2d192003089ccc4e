// Qwen3.5-MoE's parameter count with its formula, and its active parameters
// per token (the experts a token uses: k of E).
#include "importer.hpp"

#include <string>
#include <utility>

namespace roofline::model::importer {
namespace {

// The parts of one layer, shared by the total and the active count.
struct Qwen3_5Parts {
    Count deltanet, attention, moe_fixed, experts, norms;
};

Qwen3_5Parts parts(Shapes const& s) {
    Count const D = s.D, H = s.H, KV = s.KV, Hd = s.Hd, Hk = s.Hk, Hv = s.Hv, dk = s.dk,
                dv = s.dv, Kc = s.Kc, F = s.F, E = s.E, Fs = s.Fs;
    Count Cc = 2 * Hk * dk + Hv * dv;
    return {
        // in_proj_qkv, in_proj_z, in_proj_b and _a, conv1d, A_log and
        // dt_bias, the gated norm's gain, out_proj
        D * Cc + D * Hv * dv + 2 * D * Hv + Cc * Kc + 2 * Hv + dv + Hv * dv * D,
        // q and its gate, k, v, o, q_norm and k_norm
        2 * D * H * Hd + 2 * D * KV * Hd + H * Hd * D + 2 * Hd,
        // the router, the shared expert and its gate
        D * E + 3 * D * Fs + D,
        3 * D * F,  // one routed expert
        2 * D,
    };
}

}  // namespace

std::pair<Count, std::string> parameters_qwen3_5(Shapes const& s) {
    auto p = parts(s);
    Count const L = s.L, Ll = s.Ll, E = s.E, D = s.D;
    Count moe = p.moe_fixed + E * p.experts;
    Count linear = p.deltanet + moe + p.norms, full = p.attention + moe + p.norms;
    Count ends = (s.tied ? 1 : 2) * s.V * D;
    std::string ends_text = s.tied ? "V D (embedding, tied to the LM head)" : "2 V D (embedding and LM head)";
    return {Ll * linear + (L - Ll) * full + ends + D,
            "Ll x (GDN + MoE + 2 D) + (L - Ll) x (ATT + MoE + 2 D) + " + ends_text +
                " + D,\n#     GDN = D Cc + D Hv dv + 2 D Hv + Cc Kc + 2 Hv + dv + Hv dv D = " +
                grouped(p.deltanet) + " (Cc = 2 Hk dk + Hv dv),\n#     ATT = 2 D H Hd + 2 D KV Hd + "
                "H Hd D + 2 Hd = " + grouped(p.attention) + ",\n#     MoE = D E + E x 3 D F + "
                "3 D Fs + D = " + grouped(moe) + "\n#   = " + std::to_string(s.Ll) + " x " +
                grouped(linear) + " + " + std::to_string(s.L - s.Ll) + " x " + grouped(full) +
                " + " + grouped(ends) + " + " + grouped(D)};
}

// Per token: every layer's attention, router and shared expert, k of the E
// routed experts; the embedding and the LM head counted whole (as model
// cards count them).
Count active_parameters_qwen3_5(Shapes const& s) {
    auto p = parts(s);
    Count const L = s.L, Ll = s.Ll, K = s.K, D = s.D;
    Count moe = p.moe_fixed + K * p.experts;
    // The LM head, not the embedding table (a token reads one row of it), as
    // the other families count (active_parameters).
    Count head = Count(s.V) * D;
    return Ll * (p.deltanet + moe + p.norms) + (L - Ll) * (p.attention + moe + p.norms) + head + D;
}

}  // namespace roofline::model::importer
