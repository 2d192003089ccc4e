// Shapes -> the scenario's text: the header (fields used, assumptions, fields
// not read, the parameter count), the lets, the sweep and the uses.
#include "importer.hpp"
#include "layout.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace roofline::model::importer {

std::string let_line(std::string const& name, Int value, std::string const& comment) {
    std::string head = "let " + name + std::string(name.size() < 2 ? 2 - name.size() : 0, ' ') +
                       " = " + std::to_string(value);
    if (head.size() < 19) head += std::string(19 - head.size(), ' ');
    return head + "  # " + comment + "\n";
}

// The template file and the decoder layer template (without _decode or
// _prefill) of each family.
std::pair<char const*, char const*> layer_templates(Family family) {
    switch (family) {
    case Family::llama: return {"layers/dense.roof", "dense"};
    case Family::qwen2: return {"layers/qkv_bias.roof", "qkv_bias"};
    case Family::mixtral: return {"layers/moe.roof", "moe"};
    case Family::qwen2_moe: return {"layers/qwen2_moe.roof", "qwen2_moe"};
    case Family::gemma: return {"layers/gemma.roof", "gemma"};
    case Family::gemma2: return {"layers/gemma.roof", "gemma2"};
    case Family::deepseek: return {"layers/mla.roof", "deepseek"};
    case Family::gpt2: return {"layers/gpt2.roof", "gpt2"};
    case Family::qwen3_5: return {"layers/qwen3_5.roof", "qwen3_5"};
    case Family::gpt_oss: return {"layers/gpt_oss.roof", "gpt_oss"};
    case Family::glm_dsa: return {"layers/dsa.roof", "dsa"};
    case Family::qwen3: return {"layers/qwen3.roof", "qwen3"};
    case Family::qwen3_moe: return {"layers/qwen3.roof", "qwen3_moe"};
    case Family::minimax_m2: return {"layers/minimax_m2.roof", "minimax_m2"};
    }
    return {"", ""};
}

std::string write_scenario(Config const& c, Shapes const& s, ImportOptions const& o,
                           Count params, std::string const& formula) {
    bool decode = o.mode == ImportMode::decode;
    bool gpt2 = s.family == Family::gpt2;
    bool gemma2 = s.family == Family::gemma2;
    // a quantized checkpoint's weights, the experts' when they differ.
    std::string w = s.dtypes.quantized ? s.dtypes.dense : o.weight_dtype;
    if (s.dtypes.quantized && s.E && s.dtypes.experts != s.dtypes.dense)
        w.append(" (experts ").append(s.dtypes.experts).append(")");
    Int S = std::min<Int>(8192, s.max_positions);
    Int T = std::min<Int>(2048, s.max_positions);
    std::string positions_field = gpt2 ? "n_positions" : "max_position_embeddings";
    // Decode attention limited to the last W positions (Gemma 2: its local
    // layers, always written so that the two kinds of layer show).
    bool gpt_oss = s.family == Family::gpt_oss;  // its W is a shape let
    Int context = o.request ? o.request->prompt + o.request->generated : S;
    bool windowed = (decode || o.request || o.serve) && s.window && !gpt_oss &&
                    (gemma2 || o.serve || *s.window < context);
    Layout l = resolve_layout(c, s, o);
    if (o.serve) check_serve(c, s, l);
    char const* phase_word = o.serve ? "serve" : o.request ? "request" : decode ? "decode" : "prefill";

    std::string out;
    // The config's path, keys and values are comments here: visible() keeps
    // each on its line, so that no text of the config becomes a statement
    // (the path is shown whole up to PATH_MAX).
    out += "# " + c.architecture() + ", " + (o.serve ? "serve" : decode ? "decode" : "prefill") + ", " + w +
           " weights: imported from " + visible(c.file(), 4096) + " by `roofline import`.\n";
    out += "#\n# Config fields used:\n";
    for (auto const& [name, value] : c.used())
        out += "#   " + name + " = " + visible(value, max_shown) + "\n";
    for (auto const& line : s.assumed) out += "# Assumed: " + line + "\n";
    auto others = c.not_read();
    if (!others.empty()) {
        // Wrapped at 80 columns; docs/import.md says why each is not needed.
        std::string line = "# Not read (no effect on what the templates model):";
        for (std::size_t i = 0; i < others.size(); ++i) {
            // Appends, not " " + a temporary: GCC 12 -O3's false -Wrestrict.
            std::string word(" ");
            word.append(visible(others[i], max_shown)).append(i + 1 < others.size() ? "," : "");
            if (line.size() + word.size() > 80) {
                out += line + "\n";
                line = "#  ";
            }
            line += word;
        }
        out += line + "\n";
    }
    out += quantization_header(s);
    out += "#\n# Parameters: " + grouped(params) + "\n#   = " + formula + "\n";
    out += active_parameters_line(s);
    out += layout_header(l);
    out += "# docs/import.md says what is read from the config and what is assumed.\n\n";

    std::string title = c.architecture() + " " + phase_word + ", " + w;
    if (o.serve)
        title += ", " + std::to_string(serve_prompt(o)) + " prompt, " + std::to_string(serve_output(o)) +
                 " output";
    else if (o.request)
        title += ", " + std::to_string(o.request->prompt) + " prompt, " +
                 std::to_string(o.request->generated) + " tokens";
    else
        title += decode ? ", " + std::to_string(S) + " context" : ", " + std::to_string(T) + " prompts";
    title += layout_title(l);
    if (writes_flash(o, s.family)) title += ", flash attention";
    out += "scenario \"" + title + "\"\n\n";

    auto [file, layer] = layer_templates(s.family);
    out += "include \"hardware/catalog.roof\"\n";
    if (o.serve) {
        out += "include \"" + std::string(serve_templates(s.family)) + "\"\n\n";
    } else if (l.parallel) {
        out += "include \"" + std::string(l.file) + "\"\n\n";
    } else {
        out += "include \"" + std::string(file) + "\"\n";
        out += "include \"layers/lm_head.roof\"\n\n";
    }
    out += "target ";
    for (std::size_t i = 0; i < o.targets.size(); ++i) out += (i ? ", " : "") + o.targets[i];
    out += "\n\n";

    bool dsa = s.family == Family::glm_dsa;  // DeepSeek's layers, with the indexer
    bool deepseek = s.family == Family::deepseek || dsa;
    out += let_line("L", s.L, gpt2 ? "n_layer" : "num_hidden_layers");
    if (gpt_oss) {
        out += let_line("Ls", s.Ls, "layer_types: sliding_attention layers; the rest full");
        out += let_line("W", *s.window, "sliding_window: a sliding layer attends to the last W");
    }
    if (deepseek) out += let_line("Ld", s.Ld, "first_k_dense_replace: dense layers, then MoE");
    out += let_line("D", s.D, gpt2 ? "n_embd" : "hidden_size");
    out += let_line("H", s.H, gpt2 ? "n_head" : "num_attention_heads");
    if (deepseek) {
        out += let_line("Qr", s.Qr, "q_lora_rank: the compressed query");
        out += let_line("C", s.C, "kv_lora_rank: the compressed KV (cached with Dr)");
        out += let_line("Dn", s.Dn, "qk_nope_head_dim");
        out += let_line("Dr", s.Dr, "qk_rope_head_dim");
        out += let_line("Dv", s.Dv, "v_head_dim");
    }
    if (dsa) {
        out += let_line("Hi", s.Hi, "index_n_heads: the DSA indexer's heads");
        out += let_line("Di", s.Di, "index_head_dim (its key cache: Di per token)");
        out += let_line("Kt", s.Kt, "index_topk: the positions attention reads");
    }
    if (!gpt2 && !deepseek)
        out += let_line("KV", s.KV,
                        s.KV == s.H && !c.root_has("num_key_value_heads")
                            ? "num_attention_heads (no num_key_value_heads)"
                            : "num_key_value_heads");
    if (!deepseek) out += let_line("Hd", s.Hd, s.Hd_comment);
    out += let_line("F", s.F, s.F_field);
    if (deepseek) out += let_line("Fe", s.Fe, "moe_intermediate_size, per routed expert");
    if (s.E) {
        out += let_line("E", s.E,
                        s.family == Family::mixtral || gpt_oss ? "num_local_experts"
                        : deepseek                  ? "n_routed_experts"
                                                    : "num_experts");
        out += let_line("K", s.K, "num_experts_per_tok");
    }
    if (s.Fs)
        out += let_line("Fs", s.Fs,
                        deepseek ? "n_shared_experts (" + std::to_string(s.shared) +
                                       ") x moe_intermediate_size"
                                 : "shared_expert_intermediate_size");
    out += let_line("V", s.V, "vocab_size");
    if (s.family == Family::qwen3_5) out += qwen3_5_lets(s);
    if (gpt2) out += let_line("P", s.max_positions, "n_positions: learned position embeddings");
    if (s.Rd) out += let_line("Rd", s.Rd, "rotary_dim: the rotated dimensions of each head");
    out += "\n";
    out += layout_lets(l);

    // With attention DP the batch is the worker's: whole sequences per rank.
    auto batch_sweep = [&](Int top, char const* what) {
        if (l.dp == 1) return "sweep B = 1 .. " + std::to_string(top) + " times 2    # " + what + "\n";
        return "sweep B = " + std::to_string(l.dp) + " .. " + std::to_string(top * l.dp) +
               " times 2    # " + what + ": 1 .. " + std::to_string(top) +
               " per attention-dp rank\n";
    };
    std::string window_let;
    if (windowed)
        window_let = "let W = " + std::to_string(*s.window) +
                     std::string(std::to_string(*s.window).size() < 5 ? 18 : 17, ' ') +
                     "# sliding_window: " +
                     (gemma2 ? "the local layers read the last W positions"
                             : "attention reads the last W positions") +
                     "\n";
    if (o.serve) {
        out += let_line("Tp", serve_prompt(o), "prompt tokens per request (--request P,G)");
        out += let_line("Tg", serve_output(o), "output tokens per request");
        out += "sweep R = [1, 2, 4, 8, 16]    # arrivals: requests/s\n";
        out += window_let + "\n";
    } else if (o.request) {
        out += batch_sweep(256, "sequences served together");
        out += let_line("Tp", o.request->prompt, "--request: prompt tokens");
        out += let_line("Tg", o.request->generated, "--request: generated tokens");
        out += window_let + "\n";
    } else if (decode) {
        out += batch_sweep(256, "sequences in the batch, one new token each");
        out += "let S = " + std::to_string(S) + std::string(S < 10000 ? 18 : 17, ' ') +
               "# context: min(8192, " + positions_field + " = " +
               std::to_string(s.max_positions) + ")\n";
        out += window_let;
        out += "\ntokens = B\n\n";
    } else {
        out += batch_sweep(8, "prompts in the batch");
        out += "let T = " + std::to_string(T) + "                # tokens per prompt: min(2048, " +
               positions_field + " = " + std::to_string(s.max_positions) + ")\n";
        out += "\ntokens = B * T\n\n";
    }

    // A dtype let, so that `--set wdt=fp8` (or a dtype sweep) changes every
    // use at once, as in the shipped scenarios.
    if (s.dtypes.quantized) out += dtype_lets(s);
    else out += "let wdt = " + w + std::string(w.size() < 12 ? 12 - w.size() : 1, ' ') +
           "# the weights' dtype: --set wdt=fp8, or --set \"wdt=[bf16, fp8]\" for both\n";
    // The matmuls' activation-side inputs follow the weights (W8A8 with
    // --set wdt=fp8), as in the shipped scenarios; --set mdt=bf16 keeps them
    // in bf16 (weight-only quantization).
    if (!s.dtypes.quantized) {
        out += "let mdt = wdt                # the matmuls' activation inputs: --set mdt=bf16 for weight-only\n";
        // The routed experts' own dtype, for the families that ship them
        // apart (gpt-oss's mxfp4 experts): --set edt=mxfp4.
        if (always_expert_dtype(s.family))
            out += "let edt = wdt                # the routed experts' weights: --set edt=mxfp4\n";
        out += kv_dtype_let(s, "the KV cache (--kv-dtype)");
        out += "\n";
    }

    if (o.serve) return out + write_serve(s, l, o);
    std::string rows = l.kind == LayoutKind::grid && l.parallel ? "B@dp" : "B";
    if (!o.request) {
        Phase phase{decode, decode ? "B" : "B * T", decode ? "S = S" : "T = T",
                    windowed ? "S = min(S, W)" : "", decode ? rows : rows + ", T", ""};
        return out + write_uses(s, l, o.flash, phase);
    }
    // The request: its prefill (time to first token), then each decode step
    // at a context one longer (docs/fusion.md, section 5).
    std::string in(8, ' ');
    Phase prefill{false, "B * prompt", "T = prompt", "", rows + ", prompt", in};
    Phase step{true, "B", "S = prompt + i", windowed ? "S = min(prompt + i, W)" : "", rows, in};
    out += "request chat(prompt = Tp, output = Tg, batch = B) {\n    prefill:\n";
    out += write_uses(s, l, o.flash, prefill);
    out += "    decode:\n";
    out += write_uses(s, l, o.flash, step);
    return out + "}\n";
}

}  // namespace roofline::model::importer
