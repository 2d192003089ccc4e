// gpt-oss's decoder uses: the sliding layers (W) and the full ones.
#include "importer.hpp"

#include <string>

namespace roofline::model::importer {

std::string gpt_oss_uses(Shapes const& s, bool decode, std::string const& args) {
    std::string use = std::string("use gpt_oss_").append(decode ? "decode(B = B, S = S" : "prefill(B = B, T = T");
    std::string shapes = ", D = D, H = H, KV = KV, Hd = Hd, F = F, E = E, k = K" + args + ")";
    // A config whose layers are all of one kind has one use.
    std::string out;
    if (s.Ls > 0) out += use + ", W = W" + shapes + " as sliding x Ls\n";
    if (s.Ls < s.L) out += use + shapes + " as full x (L - Ls)\n";
    return out;
}

}  // namespace roofline::model::importer
