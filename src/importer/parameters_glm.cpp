// GLM-5's parameter count: DeepSeek-V3's (MLA, dense then MoE layers) and the
// DSA indexer of every layer; and the active parameters per token.
#include "importer.hpp"

#include <string>
#include <utility>

namespace roofline::model::importer {

std::pair<Count, std::string> parameters_glm(Shapes const& s) {
    Shapes mla = s;
    mla.family = Family::deepseek;
    auto [count, formula] = parameters(mla);
    Count const L = s.L, Ld = s.Ld, D = s.D, H = s.H, Qr = s.Qr, C = s.C, Dn = s.Dn, Dr = s.Dr,
                Dv = s.Dv, F = s.F, Fe = s.Fe, Fs = s.Fs, E = s.E, K = s.K, V = s.V, Hi = s.Hi,
                Di = s.Di;
    // wq_b, wk, the key's LayerNorm (gain and bias), weights_proj.
    Count indexer = Qr * Hi * Di + D * Di + 2 * Di + D * Hi;
    // Active per token, as for gpt-oss: the K routed experts, the shared
    // ones, the LM head; not the embedding (a lookup).
    Count attention = D * Qr + Qr + Qr * H * (Dn + Dr) + D * (C + Dr) + C + C * H * (Dn + Dv) +
                      H * Dv * D + indexer;
    Count dense = attention + 3 * D * F + 2 * D;
    Count moe = attention + K * 3 * D * Fe + D * E + E + 3 * D * Fs + 2 * D;
    Count active = Ld * dense + (L - Ld) * moe + V * D + D;
    formula.append("\n#   + L x indexer = ")
        .append(std::to_string(s.L))
        .append(" x ")
        .append(grouped(indexer))
        .append(", indexer = Qr Hi Di + D Di + 2 Di + D Hi")
        .append("\n# Active parameters per token: ")
        .append(grouped(active))
        .append("\n#   = Ld x (MLA + indexer + 3 D F + 2 D) + (L - Ld) x (MLA + indexer + K x 3 D Fe"
                " + D E + E\n#     + 3 D Fs + 2 D) + V D (the LM head; the embedding is a lookup)"
                " + D\n#   = ")
        .append(std::to_string(s.Ld))
        .append(" x ")
        .append(grouped(dense))
        .append(" + ")
        .append(std::to_string(s.L - s.Ld))
        .append(" x ")
        .append(grouped(moe))
        .append(" + ")
        .append(grouped(V * D))
        .append(" + ")
        .append(grouped(D));
    return {count + L * indexer, formula};
}

}  // namespace roofline::model::importer
