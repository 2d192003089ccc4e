// gpt-oss's parameter count and its active parameters per token, with their
// formulas for the header.
#include "importer.hpp"

#include <string>
#include <utility>

namespace roofline::model::importer {

std::pair<Count, std::string> parameters_gpt_oss(Shapes const& s) {
    Count const L = s.L, D = s.D, H = s.H, KV = s.KV, Hd = s.Hd, F = s.F, V = s.V, E = s.E,
                K = s.K;
    // q, k, v, o with their biases, and one sink logit per head.
    Count attention = D * H * Hd + H * Hd + 2 * (D * KV * Hd + KV * Hd) + H * Hd * D + D + H;
    Count router = D * E + E;
    // gate_up (D x 2F) and down (F x D), each with its bias.
    Count expert = 3 * D * F + 2 * F + D;
    Count layer = attention + router + E * expert + 2 * D;
    Count ends = (s.tied ? 1 : 2) * V * D;
    // Active per token: the K experts it is routed to; the LM head, but not
    // the embedding (one row is looked up, nothing is multiplied).
    Count active_layer = attention + router + K * expert + 2 * D;
    Count active = L * active_layer + V * D + D;
    std::string formula =
        std::string("L x (attention + router + E x expert + 2 D) + ")
            .append(s.tied ? "V D (embedding, tied to the LM head)" : "2 V D (embedding and LM head)")
            .append(" + D,\n#     attention = D H Hd + H Hd + 2 (D KV Hd + KV Hd) + H Hd D + D + H "
                    "(sinks) = ")
            .append(grouped(attention))
            .append(",\n#     router = D E + E = ")
            .append(grouped(router))
            .append(", expert = 3 D F + 2 F + D = ")
            .append(grouped(expert))
            .append("\n#   = ")
            .append(std::to_string(s.L))
            .append(" x ")
            .append(grouped(layer))
            .append(" + ")
            .append(grouped(ends))
            .append(" + ")
            .append(grouped(D))
            .append("\n# Active parameters per token: ")
            .append(grouped(active))
            .append("\n#   = L x (attention + router + K x expert + 2 D) + V D (the LM head; the "
                    "embedding\n#     is a lookup) + D = ")
            .append(std::to_string(s.L))
            .append(" x ")
            .append(grouped(active_layer))
            .append(" + ")
            .append(grouped(V * D))
            .append(" + ")
            .append(grouped(D));
    return {L * layer + ends + D, formula};
}

}  // namespace roofline::model::importer
