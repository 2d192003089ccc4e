// Qwen3.5-MoE's lines of the scenario: the lets of its Gated DeltaNet and
// rotary shapes, and the uses of its two kinds of decoder layer.
#include "layout.hpp"

#include <string>

namespace roofline::model::importer {

std::string let_line(std::string const& name, Int value, std::string const& comment);

std::string qwen3_5_lets(Shapes const& s) {
    std::string out;
    out += let_line("Ll", s.Ll, "layer_types: linear_attention (Gated DeltaNet); the rest full");
    out += let_line("R", s.R, "partial_rotary_factor x head_dim: the rotary dims");
    out += let_line("Hk", s.Hk, "linear_num_key_heads");
    out += let_line("Hv", s.Hv, "linear_num_value_heads");
    out += let_line("dk", s.dk, "linear_key_head_dim");
    out += let_line("dv", s.dv, "linear_value_head_dim");
    out += let_line("Kc", s.Kc, "linear_conv_kernel_dim");
    out += "let sdt = " + s.state_dtype + "                # mamba_ssm_dtype: the Gated DeltaNet state\n";
    return out;
}

std::string qwen3_5_uses(Shapes const& s, Phase const& ph, std::string const& expert_args,
                         std::string const& suffix, std::string const& grid_sizes, bool stage) {
    std::string kind = suffix + (ph.decode ? "_decode" : "_prefill") + "(B = B, ";
    std::string moe = ", F = F, E = E, k = K, Fs = Fs";
    moe.append(grid_sizes).append(", wdt = wdt, mdt = mdt").append(expert_args);
    // The linear layers have no context; the prefill ones take T.
    std::string linear_span = ph.decode ? "" : ph.span + ", ";
    // One pipeline stage holds a PP-th of each kind (layout.cpp checks both divide).
    std::string linear_count = stage ? "(Ll / PP)" : "Ll";
    std::string full_count = stage ? "((L - Ll) / PP)" : "(L - Ll)";
    std::string out;
    if (s.Ll > 0)
        out += ph.indent + "use qwen3_5_linear" + kind + linear_span +
               "D = D, Hk = Hk, Hv = Hv, dk = dk, dv = dv, Kc = Kc" + moe + ", sdt = sdt) as linear x " +
               linear_count + "\n";
    if (s.Ll < s.L)
        out += ph.indent + "use qwen3_5_full" + kind + ph.span + ", " +
               "D = D, H = H, KV = KV, Hd = Hd, R = R" + moe + ") as full x " + full_count + "\n";
    return out;
}

}  // namespace roofline::model::importer
