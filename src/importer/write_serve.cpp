// `roofline import --serve`: the serve statement of a continuous-batching
// scenario (docs/serving.md, docs/import.md "Serving scenarios") over the
// split serve templates (layers/serve_dense.roof, serve_moe.roof,
// serve_mla.roof): the linear part once per step at N = tokens, the decode
// part per decoding sequence at S = context, the prefill part per prompt
// chunk at T = chunk, P = start.
#include "layout.hpp"

#include <string>
#include <utility>

namespace roofline::model::importer {

namespace {

// The indent of a part's uses, and the heads' arguments of GQA's templates.
std::string const in(8, ' ');
std::string const heads = "H = H, KV = KV, Hd = Hd";

// The families with serve templates, and their file.
char const* serve_file(Family family) {
    switch (family) {
    case Family::llama:
    case Family::qwen2: return "layers/serve_dense.roof";
    case Family::mixtral:
    case Family::qwen2_moe: return "layers/serve_moe.roof";
    case Family::deepseek: return "layers/serve_mla.roof";
    case Family::qwen3:
    case Family::qwen3_moe: return "layers/serve_qwen3.roof";
    case Family::gemma:
    case Family::gemma2: return "layers/serve_gemma.roof";
    case Family::gpt2: return "layers/serve_gpt2.roof";
    case Family::minimax_m2: return "layers/serve_minimax_m2.roof";
    case Family::gpt_oss: return "layers/serve_gpt_oss.roof";
    case Family::glm_dsa: return "layers/serve_dsa.roof";
    default: return nullptr;
    }
}

// A layer count: " x L", " x (L - Ld)".
std::string times(std::string const& count) {
    bool simple = count.find(' ') == std::string::npos;
    return simple ? " x " + count : " x (" + count + ")";
}

struct Parts {
    std::string linear, decode, prefill, sample;
};

// The three parts' uses of one layer kind, `as` it, `count` times.
void add_layer(Parts& p, std::string const& linear, std::string const& decode,
               std::string const& prefill, std::string const& as, std::string const& count) {
    std::string tail = ") as " + as + times(count) + "\n";
    p.linear += in + "use " + linear + tail;
    p.decode += in + "use " + decode + tail;
    p.prefill += in + "use " + prefill + tail;
}

}  // namespace

void check_serve(Config const& c, Shapes const& s, Layout const& l) {
    if (!serve_file(s.family))
        c.fail("--serve: no serve templates for " + c.architecture() +
               " yet (docs/import.md, \"Serving scenarios\": GPT-2, Llama, Mistral, Qwen2, Qwen3, "
               "Gemma, Gemma 2, Mixtral, Qwen2-MoE, Qwen3-MoE, MiniMax-M2, gpt-oss, DeepSeek-V2/V3, GLM-5)");
    if (s.family == Family::glm_dsa && l.parallel)
        c.fail("--serve: GLM-5's serve templates are one chip's yet (layers/serve_dsa.roof); import it "
               "without --tp, --dp, --ep, --etp and --pp");
    if (l.pp > 1)
        c.fail("--serve with --pp " + std::to_string(l.pp) +
               ": a serve scenario is one replica's whole step, and the templates are one "
               "pipeline stage's");
    if (l.dp > 1)
        c.fail("--serve with --dp " + std::to_string(l.dp) +
               ": the serve templates hold a sequence on one attention-dp rank, but a step's "
               "tokens would have to split evenly over dp at every step; import with --dp 1 "
               "(tp and ep) or one replica per dp rank");
}

char const* serve_templates(Family family) { return serve_file(family); }

Int serve_prompt(ImportOptions const& o) { return o.request ? o.request->prompt : 2048; }
Int serve_output(ImportOptions const& o) { return o.request ? o.request->generated : 256; }

namespace {

// What every family's uses share: the layout's suffix, the dtype arguments.
struct Args {
    std::string suffix;      // "", "_tp" or "_grid"
    std::string flash;       // "" or "_flash"
    std::string wdt = ", wdt = wdt, mdt = mdt";
    std::string kv;          // ", kvdt = kvdt" for a quantized cache
    std::string attention;   // the attention parts' dtypes (they hold no weights)
    std::string grid_sizes;  // the grid's sizes, for the layers with experts
    bool grid = false;
};

// gpt-oss: the linear part once for every layer; the attention parts of the
// sliding layers (the last W positions) and of the full ones.
void gpt_oss_parts(Shapes const& s, Args const& a, Parts& p) {
    p.linear += in + "use gpt_oss_linear" + a.suffix + "(N = tokens, D = D, " + heads + ", F = F, E = E, k = K" +
                a.grid_sizes + a.wdt + dtype_arguments(s, true) + ") as decoder x L\n";
    auto layers = [&](std::string const& window, std::string const& as, std::string const& count) {
        p.decode += in + "use gpt_oss_decode_attention" + a.suffix + a.flash + "(S = context" + window + ", " +
                    heads + a.attention + ") as " + as + times(count) + "\n";
        p.prefill += in + "use gpt_oss_prefill_attention" + a.suffix + a.flash + "(T = chunk, P = start" + window +
                     ", " + heads + a.attention + ") as " + as + times(count) + "\n";
    };
    if (s.Ls > 0) layers(", W = W", "sliding", "Ls");
    if (s.Ls < s.L) layers("", "full", "L - Ls");
}

// Gemma 2: even layers attend within the window in decode, odd layers to
// everything (as the decode scenario's local and global layers).
void gemma2_parts(Shapes const& s, Args const& a, Parts& p) {
    p.linear += in + "use gemma2_linear(N = tokens, D = D, " + heads + ", F = F" + a.wdt +
                dtype_arguments(s, false) + ") as decoder x L\n";
    for (auto [as, context] : {std::pair{"local", "S = min(context, W)"}, {"global", "S = context"}}) {
        p.decode += in + "use gemma2_decode_attention(" + context + ", " + heads + a.attention + ") as " + as +
                    " x (L / 2)\n";
        p.prefill += in + "use gemma2_prefill_attention(T = chunk, P = start, " + heads + a.attention + ") as " +
                     as + " x (L / 2)\n";
    }
}

// DeepSeek (and GLM-5, with its indexer): the dense layers first, then the
// MoE layers, both with MLA.
void deepseek_parts(Shapes const& s, Args const& a, Parts& p) {
    bool const dsa = s.family == Family::glm_dsa;
    std::string const mla = "D = D, H = H, Qr = Qr, C = C, Dn = Dn, Dr = Dr, Dv = Dv";
    std::string const index = dsa ? ", Hi = Hi, Di = Di" : "";
    std::string const top = dsa ? index + ", Kt = Kt" : "";
    std::string const attention = dsa ? "dsa_" : "mla_";
    std::string const layer = dsa ? "dsa_" : "deepseek_";
    std::string const decode = attention + "decode_attention" + a.suffix + a.flash +
                               "(S = context, H = H, C = C, Dr = Dr" + top + a.attention;
    std::string const prefill = attention + "prefill_attention" + a.suffix + a.flash +
                                "(T = chunk, P = start, H = H, C = C, Dn = Dn, Dr = Dr, Dv = Dv" + top + a.wdt +
                                a.kv;
    if (s.Ld > 0)
        add_layer(p, layer + "dense_linear" + a.suffix + "(N = tokens, " + mla + ", F = F" + index + a.wdt +
                         dtype_arguments(s, false),
                  decode, prefill, "dense_decoder", "Ld");
    add_layer(p, layer + "moe_linear" + a.suffix + "(N = tokens, " + mla + ", F = Fe, E = E, k = K, Fs = Fs" +
                     index + a.grid_sizes + a.wdt + dtype_arguments(s, true),
              decode, prefill, "moe_decoder", "L - Ld");
    if (s.score_bias) p.linear += in + "use score_correction(E = E) as router_bias x (L - Ld)\n";
}

// The families with Llama's grouped-query attention: their own linear part.
void gqa_parts(Shapes const& s, Args const& a, Parts& p) {
    std::string linear = s.family == Family::llama        ? "dense_linear"
                         : s.family == Family::qwen2      ? "qkv_bias_linear"
                         : s.family == Family::mixtral    ? "moe_linear"
                         : s.family == Family::qwen3      ? "qwen3_linear"
                         : s.family == Family::qwen3_moe  ? "qwen3_moe_linear"
                         : s.family == Family::gemma      ? "gemma_linear"
                         : s.family == Family::minimax_m2 ? "minimax_m2_linear"
                                                          : "qwen2_moe_linear";
    linear += a.suffix + "(N = tokens, D = D, " + heads + ", F = F";
    if (s.E) linear += ", E = E, k = K";
    if (s.Fs) linear += ", Fs = Fs";
    linear += a.grid_sizes + a.wdt + dtype_arguments(s, s.E > 0);
    // On the grid, serve_moe.roof's per-sequence forms (Qwen3-MoE:
    // serve_qwen3.roof's, key/value heads replicated beyond tp = KV, over
    // TP = TP_EP x TP_ETP).
    bool const replicated = a.grid && s.family == Family::qwen3_moe;
    std::string const kind = replicated ? "qk_norm_" : "";
    std::string const decode =
        (a.grid ? kind + "decode_attention_grid" : "dense_decode_attention" + a.suffix) + a.flash;
    std::string const prefill =
        (a.grid ? kind + "prefill_attention_grid" : "dense_prefill_attention" + a.suffix) + a.flash;
    std::string const attention_heads = heads + (replicated ? ", TP = TP_EP * TP_ETP" : "");
    // Mistral's sliding window: decode attends to the last W positions.
    std::string const context = s.window ? "S = min(context, W)" : "S = context";
    add_layer(p, linear, decode + "(" + context + ", " + attention_heads + a.attention,
              prefill + "(T = chunk, P = start, " + attention_heads + a.attention, "decoder", "L");
}

}  // namespace

std::string write_serve(Shapes const& s, Layout const& l, ImportOptions const& o) {
    Args a;
    a.grid = l.parallel && l.kind == LayoutKind::grid;
    a.suffix = l.parallel ? (a.grid ? "_grid" : "_tp") : "";
    a.flash = writes_flash(o, s.family) ? "_flash" : "";
    a.kv = !s.dtypes.kv_cache.empty() ? ", kvdt = kvdt" : "";
    a.attention = ", mdt = mdt" + a.kv;
    if (a.grid) a.grid_sizes = ", DP = DP, TP_EP = TP_EP, TP_ETP = TP_ETP";

    Parts p;
    // The embedding (a gather per token) at N = tokens; the LM head split
    // (layers/serve_head.roof): its final norm on every token of the step,
    // its logits on the sequences the step samples only.
    std::string const table = ", wdt = " + table_dtype(s);
    std::string const head_dtypes = s.dtypes.quantized ? ", wdt = hdt, mdt = hdt" : a.wdt;
    std::string const norm_dtypes = s.dtypes.quantized ? ", mdt = hdt" : ", mdt = mdt";
    bool const gemma = s.family == Family::gemma || s.family == Family::gemma2;
    std::string const norm = s.family == Family::gpt2 ? "gpt2_final_norm"
                             : a.grid                 ? "final_norm_grid"
                                                      : "final_norm";
    std::string const logits = s.family == Family::gpt2     ? "tied_logits"
                               : s.family == Family::gemma2 ? "gemma2_logits"
                               : (s.tied ? "tied_logits" : "logits") + a.suffix;
    p.linear += in + "use " + (gemma ? "scaled_embedding" : "embedding" + a.suffix) + "(N = tokens, D = D, V = V" +
                table + ")\n";
    if (s.family == Family::gpt2)
        p.linear += in + "use position_embedding(N = tokens, D = D, P = P" + table + ")\n";

    switch (s.family) {
    case Family::gpt_oss: gpt_oss_parts(s, a, p); break;
    case Family::gemma2: gemma2_parts(s, a, p); break;
    case Family::deepseek:
    case Family::glm_dsa: deepseek_parts(s, a, p); break;
    case Family::gpt2:
        add_layer(p, "gpt2_linear(N = tokens, D = D, H = H, Hd = Hd, F = F" + a.wdt + dtype_arguments(s, false),
                  "gpt2_decode_attention(S = context, H = H, Hd = Hd" + a.attention,
                  "gpt2_prefill_attention(T = chunk, P = start, H = H, Hd = Hd" + a.attention, "decoder", "L");
        break;
    default: gqa_parts(s, a, p);
    }
    p.linear += in + "use " + norm + "(N = tokens, D = D" + norm_dtypes + ")\n";
    p.sample += in + "use " + logits + "(N = sampled, D = D, V = V" + head_dtypes + ")\n";

    std::string out = "serve chat {\n";
    out += "    prompt = Tp                  # tokens per request (--request P,G)\n";
    out += "    output = Tg\n";
    out += "    arrivals = poisson(R)        # R requests/s, open loop\n";
    out += "    requests = 1000              # simulated per point\n";
    out += "    max_seqs = 256               # sequences running at once\n";
    out += "    max_step_tokens = 8192       # tokens per step: decodes + prefill chunks\n";
    out += "    linear:                      # once per step, N = its tokens\n" + p.linear;
    out += "    decode:                      # per decoding sequence, S = its context\n" + p.decode;
    out += "    prefill:                     # per prompt chunk: T tokens from position P\n" + p.prefill;
    out += "    sample:                      # once per step, N = the sequences it samples\n" + p.sample;
    out += "}\n\n";
    out += "# Service-level objectives, for example:\n";
    out += "# slo ttft_p99 <= 2 s\n";
    out += "# slo tpot_p99 <= 50 ms\n";
    return out;
}

}  // namespace roofline::model::importer
