// The uses of one phase: the embedding, the decoder layers and the LM head,
// on one chip or on a parallel layout (the family's parallel templates named
// by the convention of layout.cpp), one pipeline stage's when there is one.
#include "layout.hpp"

#include <string>

namespace roofline::model::importer {

namespace {

// How the uses name their templates and what they add on the layout.
struct Style {
    std::string suffix;      // "", "_tp" or "_grid"
    std::string grid_sizes;  // what the layers with experts add on the grid
    bool stage = false;      // one pipeline stage: counts / PP
};

Style style_of(Layout const& l) {
    Style st;
    if (!l.parallel) return st;
    st.suffix = l.kind == LayoutKind::tp ? "_tp" : "_grid";
    if (l.kind == LayoutKind::grid) st.grid_sizes = ", DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP";
    st.stage = l.pp > 1;
    return st;
}

// A layer count: "L" -> "x L", or "x (L / PP)" for one stage.
std::string times(std::string const& count, bool simple, Style const& st) {
    if (st.stage) return " x (" + count + " / PP)";
    return simple ? " x " + count : " x (" + count + ")";
}

}  // namespace

std::string write_uses(Shapes const& s, Layout const& l, bool flash, Phase const& ph) {
    Style st = style_of(l);
    bool gpt2 = s.family == Family::gpt2;
    bool gemma2 = s.family == Family::gemma2;
    bool gemma = s.family == Family::gemma || gemma2;
    bool deepseek = s.family == Family::deepseek;
    std::string const& in = ph.indent;
    std::string out;
    // The embeddings are gathers: their reads have no activation-side input.
    std::string const embed_wdt = ", wdt = " + table_dtype(s);
    std::string wdt = ", wdt = wdt, mdt = mdt";
    // The experts' (and router's, cache's) dtype arguments of a quantized
    // checkpoint, and MiniMax's rotary dims (write_dtypes.cpp).
    std::string routed = dtype_arguments(s, true);
    // One pipeline stage, the last: the LM head, but not the embedding.
    if (!st.stage)
        out += in + "use " + std::string(gemma ? "scaled_embedding" : "embedding") + st.suffix +
               "(N = " + ph.tokens + ", D = D, V = V" + embed_wdt + ")\n";
    if (gpt2) out += in + "use position_embedding(N = " + ph.tokens + ", D = D, P = P" + embed_wdt + ")\n";

    std::string phase = std::string(ph.decode ? "_decode" : "_prefill") + (flash ? "_flash" : "");
    auto [file, layer] = layer_templates(s.family);
    (void)file;
    std::string use = in + "use " + std::string(layer) + st.suffix + phase + "(B = B, ";
    std::string rest = ", D = D, " + std::string(gpt2 ? "H = H, Hd = Hd" : "H = H, KV = KV, Hd = Hd") +
                       ", F = F";
    if (s.E) rest += ", E = E, k = K";
    if (s.Fs) rest += ", Fs = Fs";
    if (s.E) rest += st.grid_sizes;
    rest += wdt + dtype_arguments(s, s.E > 0) + ")";
    bool dsa = s.family == Family::glm_dsa;
    if (s.family == Family::qwen3_5) {
        out += qwen3_5_uses(s, ph, routed, st.suffix, st.grid_sizes, st.stage);
    } else if (s.family == Family::gpt_oss) {
        out += gpt_oss_uses(s, ph, st.suffix, st.grid_sizes + wdt + routed, st.stage);
    } else if (deepseek || dsa) {
        std::string mla = ", D = D, H = H, Qr = Qr, C = C, Dn = Dn, Dr = Dr, Dv = Dv";
        std::string kind = st.suffix + phase + "(B = B, ";
        std::string prefix = in + (dsa ? "use dsa" : "use deepseek");
        std::string index = dsa ? ", Hi = Hi, Di = Di, Kt = Kt" : "";
        if (s.Ld > 0)
            out += prefix + "_dense" + kind + ph.span + mla + ", F = F" + index + wdt +
                   dtype_arguments(s, false) + ") as dense_decoder" + times("Ld", true, st) + "\n";
        out += prefix + "_moe" + kind + ph.span + mla + ", F = Fe, E = E, k = K, Fs = Fs" + index +
               st.grid_sizes + wdt + routed + ") as moe_decoder" + times("L - Ld", false, st) + "\n";
        if (s.score_bias)
            out += in + "use score_correction(E = E) as router_bias" + times("L - Ld", false, st) + "\n";
    } else if (gemma2) {
        // Even layers attend within the window, odd layers to everything.
        out += use + (ph.decode ? ph.window_span : ph.span) + rest + " as local x (L / 2)\n";
        out += use + ph.span + rest + " as global x (L / 2)\n";
    } else {
        out += use + (ph.window_span.empty() ? ph.span : ph.window_span) + rest + " as decoder" +
               times("L", true, st) + "\n";
    }
    // A tied head on the last stage holds its own copy of the table.
    std::string head = gpt2     ? "gpt2_lm_head"
                       : gemma2 ? "gemma2_lm_head"
                       : s.tied && !st.stage ? "tied_lm_head"
                                             : "lm_head";
    out += in + "use " + head + st.suffix + "(N = B, D = D, V = V" +
           (s.dtypes.quantized ? std::string(", wdt = hdt, mdt = hdt") : wdt) + ")\n";
    if (st.stage) {
        std::string t = "bf16[" + ph.tensor_dims + ", D]";
        out += in + "# The stage's activations to the next stage (bf16, as the templates' adt).\n";
        out += in + "collective stage_send = sendrecv(pp) " + t + " -> " + t + "\n";
    }
    return out;
}

}  // namespace roofline::model::importer
