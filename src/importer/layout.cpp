// The parallel layout: each family's parallel templates, the sizes the
// options give (and those they imply), and the checks that the model takes
// them; every error names the config field or option and both numbers.
#include "layout.hpp"

#include <string>
#include <utility>

namespace roofline::model::importer {

// A family becomes parallel by a row here and its templates in the file,
// named as its one-chip ones with `_tp` (a `tp` axis) or `_grid` (the dp x
// tp_ep x tp_etp axes; its layers with experts also take DP, TP_EP and
// TP_ETP) before `_decode` / `_prefill` (docs/import.md, "Layouts").
std::optional<ParallelTemplates> parallel_templates(Family family) {
    switch (family) {
    case Family::llama: return ParallelTemplates{"layers/parallel_dense.roof", LayoutKind::tp};
    case Family::qwen2: return ParallelTemplates{"layers/parallel_dense.roof", LayoutKind::tp};
    case Family::mixtral: return ParallelTemplates{"layers/parallel_moe.roof", LayoutKind::grid};
    case Family::qwen2_moe: return ParallelTemplates{"layers/parallel_moe.roof", LayoutKind::grid};
    case Family::deepseek: return ParallelTemplates{"layers/parallel_mla.roof", LayoutKind::grid};
    case Family::qwen3: return ParallelTemplates{"layers/parallel_qwen3.roof", LayoutKind::tp};
    case Family::qwen3_moe: return ParallelTemplates{"layers/parallel_qwen3.roof", LayoutKind::grid};
    case Family::minimax_m2: return ParallelTemplates{"layers/parallel_minimax_m2.roof", LayoutKind::grid};
    case Family::gpt_oss: return ParallelTemplates{"layers/parallel_gpt_oss.roof", LayoutKind::grid};
    case Family::glm_dsa: return ParallelTemplates{"layers/parallel_dsa.roof", LayoutKind::grid};
    case Family::qwen3_5: return ParallelTemplates{"layers/parallel_qwen3_5.roof", LayoutKind::grid};
    default: return std::nullopt;
    }
}

bool has_flash(Family family, bool parallel, bool serve) {
    // A serve statement's attention parts have flash forms for every family
    // whose serve templates are not one of a kind (layers/serve_*.roof).
    if (serve)
        return family != Family::gemma && family != Family::gemma2 && family != Family::gpt2 &&
               family != Family::glm_dsa;
    if (parallel) return family == Family::llama;
    return family == Family::llama || family == Family::mixtral;
}

bool writes_flash(ImportOptions const& o, Family family) {
    return o.flash || (o.serve && has_flash(family, o.layout.given(), true));
}

namespace {

std::string num(Int v) { return std::to_string(v); }

// "'num_key_value_heads' (8) is not a multiple of --tp 16: WHY".
void require_multiple(Config const& c, std::string const& field, Int value, char const* option,
                      Int size, std::string const& why) {
    if (value % size == 0) return;
    c.fail(in_quotes(field) + " (" + num(value) + ") is not a multiple of " + option + " " +
           num(size) + ": " + why);
}

// a checkpoint quantized in [128, 128] blocks (fp8_block) splits an
// expert's width over moe_tp in whole blocks, as vLLM's block-fp8 loaders
// require (MiniMax-M2 at moe_tp 8: 1536 / 8 = 192, which vLLM refuses).
void block_quantized_width(Config const& c, Shapes const& s, std::string const& field, Int width,
                           Int etp) {
    Int const block = 128;
    if (s.dtypes.experts != "fp8_block" || (width / etp) % block == 0) return;
    c.fail(in_quotes(field) + " (" + num(width) + ") / --etp " + num(etp) + " = " + num(width / etp) +
           " is not a multiple of fp8_block's " + num(block) +
           "-wide blocks: each GPU's slice of an expert's width holds whole blocks");
}

// The sizes the options give, and the ones they imply.
void sizes(Config const& c, Shapes const& s, ImportLayout const& p, Layout& l) {
    auto size = [&](std::optional<std::int64_t> v) { return v ? Int{*v} : Int{1}; };
    l.tp = size(p.tp);
    l.dp = size(p.dp);
    l.pp = size(p.pp);
    bool experts = s.E > 0;
    if (!experts) {
        if (l.dp > 1)
            c.fail("--dp " + num(l.dp) + ": " + c.architecture() +
                   " is dense, and a dense model is served with replicas, each a worker of its "
                   "own: import one with --tp (and --pp)");
        if (p.ep || p.etp)
            c.fail(std::string(p.ep ? "--ep" : "--etp") + ": " + c.architecture() +
                   " has no experts");
        return;
    }
    // The experts' grid is the attention's GPUs: moe_ep x moe_tp = tp x dp.
    Int attention = l.tp * l.dp;
    auto whole = [&](char const* option, Int v) {
        if (attention % v != 0)
            c.fail(std::string(option) + " " + num(v) + " does not divide the worker's " +
                   num(attention) + " GPUs (--tp " + num(l.tp) + " x --dp " + num(l.dp) +
                   "): moe_ep x moe_tp must equal tp x attention_dp");
        return attention / v;
    };
    if (p.ep) l.ep = *p.ep;
    else if (p.etp) l.ep = whole("--etp", *p.etp);
    else l.ep = l.dp;  // the data-parallel GPUs split the experts, tp the width
    l.etp = p.etp ? Int{*p.etp} : whole("--ep", l.ep);
    if (l.ep * l.etp != attention)
        c.fail("--ep " + num(l.ep) + " x --etp " + num(l.etp) + " = " + num(l.ep * l.etp) +
               " GPUs for the experts, but the worker has --tp " + num(l.tp) + " x --dp " +
               num(l.dp) + " = " + num(attention) + ": moe_ep x moe_tp must equal tp x attention_dp");
    if (l.ep % l.dp != 0)
        c.fail("--ep " + num(l.ep) + " is not a multiple of --dp " + num(l.dp) +
               ": each expert's width would be split over data-parallel GPUs (moe_tp across "
               "attention-dp ranks), a layout the templates do not build");
    l.tp_ep = l.ep / l.dp;
    l.tp_etp = l.etp;
}

// Key/value heads over tp, replicated beyond KV as vLLM's QKVParallelLinear
// does (num_kv_head_replicas): tp a multiple of KV, or KV of tp (the
// templates parallel_qwen3_5.roof and parallel_qwen3.roof's grid attention).
void check_replicated_kv_heads(Config const& c, Shapes const& s, Layout const& l) {
    if (s.KV < l.tp && l.tp % s.KV != 0)
        c.fail("--tp " + num(l.tp) + " is not a multiple of 'num_key_value_heads' (" + num(s.KV) +
               "): beyond KV GPUs each GPU holds one key/value head, replicated over tp / KV GPUs");
    if (s.KV >= l.tp)
        require_multiple(c, "num_key_value_heads", s.KV, "--tp", l.tp,
                         "each GPU holds whole key/value heads (and their KV cache)");
}

// Qwen3.5's Gated DeltaNet heads over tp, its full attention's
// key/value heads (replicated beyond KV), and its two kinds of layer over
// the stages.
void check_qwen3_5_splits(Config const& c, Shapes const& s, Layout const& l) {
    std::string why = "each GPU holds whole linear-attention heads (their conv channels and state)";
    // linear_num_value_heads follows: a multiple of the key heads (read_qwen3_5.cpp).
    require_multiple(c, "linear_num_key_heads", s.Hk, "--tp", l.tp, why);
    check_replicated_kv_heads(c, s, l);
    std::string stages = "every stage holds as many layers of each kind (the scenario is one stage)";
    for (auto [kind, count] : {std::pair{"linear_attention", s.Ll}, {"full_attention", s.L - s.Ll}})
        if (count % l.pp != 0)
            c.fail("the " + num(count) + " " + kind + " layers of 'layer_types' are not a multiple of --pp " +
                   num(l.pp) + ": " + stages);
}

// What each size splits must divide by it.
void check_splits(Config const& c, Shapes const& s, Layout const& l) {
    // MLA's families: DeepSeek's, and GLM-5's with the indexer, whose heads
    // (index_n_heads) are replicated over tp as vLLM and SGLang run them
    // (no split: nothing to divide; layers/parallel_dsa.roof).
    bool deepseek = s.family == Family::deepseek || s.family == Family::glm_dsa;
    bool gpt_oss = s.family == Family::gpt_oss;
    // gpt-oss's sinks (one per query head) split with the heads.
    std::string whole_heads =
        gpt_oss ? "each GPU holds whole heads and their sinks" : "each GPU holds whole heads";
    if (s.family == Family::qwen3_5) {
        require_multiple(c, "num_attention_heads", s.H, "--tp", l.tp, whole_heads);
        check_qwen3_5_splits(c, s, l);
    } else if (deepseek) {
        require_multiple(c, "num_attention_heads", s.H, "--tp", l.tp, whole_heads);
    } else if (s.family == Family::qwen3_moe) {
        require_multiple(c, "num_attention_heads", s.H, "--tp", l.tp, whole_heads);
        check_replicated_kv_heads(c, s, l);
    } else {
        require_multiple(c, "num_attention_heads", s.H, "--tp", l.tp, whole_heads);
        require_multiple(c, c.root_has("num_key_value_heads") ? "num_key_value_heads" : "num_attention_heads",
                         s.KV, "--tp", l.tp,
                         "each GPU holds whole key/value heads (and their KV cache)");
    }
    if (!s.E || (deepseek && s.Ld > 0))
        require_multiple(c, s.F_field, s.F, "--tp", l.tp, "the MLP's width is split over tp");
    if (s.E) {
        bool local = s.family == Family::mixtral || s.family == Family::minimax_m2 || gpt_oss;
        char const* experts = local      ? "num_local_experts"
                              : deepseek ? "n_routed_experts"
                                         : "num_experts";
        require_multiple(c, experts, s.E, "--ep", l.ep, "each GPU holds whole experts");
        Int width = deepseek ? s.Fe : s.F;
        std::string field = deepseek || s.family == Family::qwen3_moe      ? "moe_intermediate_size"
                            : s.family == Family::minimax_m2 || gpt_oss ? "intermediate_size"
                                                                         : s.F_field;
        require_multiple(c, field, width, "--etp", l.etp, "each expert's width is split over moe_tp");
        block_quantized_width(c, s, field, width, l.etp);
    }
    if (s.Fs)
        require_multiple(c, deepseek ? "n_shared_experts x moe_intermediate_size"
                                     : "shared_expert_intermediate_size",
                         s.Fs, "--tp", l.tp, "the shared experts' width is split over tp");
    require_multiple(c, "vocab_size", s.V, "--tp", l.tp, "the embedding and the head are split over tp");
    std::string stages = "every stage holds as many layers (the scenario is one stage)";
    if (deepseek) {
        require_multiple(c, "first_k_dense_replace", s.Ld, "--pp", l.pp, stages);
        if ((s.L - s.Ld) % l.pp != 0)
            c.fail("the " + num(s.L - s.Ld) + " MoE layers ('num_hidden_layers' " + num(s.L) +
                   " - 'first_k_dense_replace' " + num(s.Ld) + ") are not a multiple of --pp " +
                   num(l.pp) + ": " + stages);
    } else if (gpt_oss) {
        // Every stage holds as many sliding and full layers.
        if (s.Ls % l.pp != 0 || (s.L - s.Ls) % l.pp != 0)
            c.fail("'layer_types' (" + num(s.Ls) + " sliding, " + num(s.L - s.Ls) +
                   " full layers) is not a multiple of --pp " + num(l.pp) + ": " + stages);
    } else {
        require_multiple(c, "num_hidden_layers", s.L, "--pp", l.pp, stages);
    }
}

}  // namespace

Layout resolve_layout(Config const& c, Shapes const& s, ImportOptions const& o) {
    Layout l;
    if (o.flash && !has_flash(s.family, o.layout.given(), o.serve))
        c.fail("--flash: " + c.architecture() + " has no flash-attention templates" +
               (o.layout.given() ? " on a parallel layout" : "") + " (docs/import.md)");
    if (!o.layout.given()) return l;
    auto templates = parallel_templates(s.family);
    if (!templates)
        c.fail("--tp, --dp, --ep, --etp and --pp: " + c.architecture() +
               " has no parallel layer templates yet (docs/import.md, \"Layouts\")");
    auto const& p = o.layout;
    for (auto [name, v] : {std::pair{"--tp", p.tp}, {"--dp", p.dp}, {"--pp", p.pp}, {"--ep", p.ep},
                           {"--etp", p.etp}})
        if (v && *v < 1) c.fail(std::string(name) + " " + num(*v) + ": a number of GPUs is 1 or more");
    l.parallel = true;
    l.kind = templates->kind;
    l.file = templates->file;
    sizes(c, s, o.layout, l);
    check_splits(c, s, l);
    return l;
}

}  // namespace roofline::model::importer
