// gpt-oss's decoder uses: the sliding layers (W) and the full ones.
#include "layout.hpp"

#include <string>

namespace roofline::model::importer {

std::string gpt_oss_uses(Shapes const& s, Phase const& ph, std::string const& args) {
    std::string use = ph.indent + "use gpt_oss_" + (ph.decode ? "decode" : "prefill") + "(B = B, " + ph.span;
    std::string shapes = ", D = D, H = H, KV = KV, Hd = Hd, F = F, E = E, k = K" + args + ")";
    // A config whose layers are all of one kind has one use.
    std::string out;
    if (s.Ls > 0) out += use + ", W = W" + shapes + " as sliding x Ls\n";
    if (s.Ls < s.L) out += use + shapes + " as full x (L - Ls)\n";
    return out;
}

}  // namespace roofline::model::importer
