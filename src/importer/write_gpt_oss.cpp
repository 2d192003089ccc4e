// gpt-oss's decoder uses: the sliding layers (W) and the full ones, on one
// chip or on the grid (layers/parallel_gpt_oss.roof), one pipeline stage's.
#include "layout.hpp"

#include <string>

namespace roofline::model::importer {

std::string gpt_oss_uses(Shapes const& s, Phase const& ph, std::string const& suffix,
                         std::string const& args, bool stage) {
    std::string use = ph.indent + "use gpt_oss" + suffix + (ph.decode ? "_decode" : "_prefill") + "(B = B, " +
                      ph.span;
    std::string shapes = ", D = D, H = H, KV = KV, Hd = Hd, F = F, E = E, k = K" + args + ")";
    // A config whose layers are all of one kind has one use.
    std::string out;
    if (s.Ls > 0) out += use + ", W = W" + shapes + " as sliding x " + (stage ? "(Ls / PP)" : "Ls") + "\n";
    if (s.Ls < s.L) out += use + shapes + " as full x " + (stage ? "((L - Ls) / PP)" : "(L - Ls)") + "\n";
    return out;
}

}  // namespace roofline::model::importer
