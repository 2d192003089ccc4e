// The serve templates (layers/serve_dense.roof, serve_moe.roof,
// serve_mla.roof) against the whole-layer templates they split: per family,
// on a small config, the decode layer of B sequences at context S counts
// what the linear part at N = B and B x the decode part at S count, op for
// op summed (FLOPs, bytes read, bytes written) and in resident bytes
// (weights, KV cache); the prefill layer of one prompt of T tokens what the
// linear part at N = T and the prefill part at T, P = 0 count (MLA: plus the
// absorbed projections, by hand). And the chunk's attention at P > 0 by hand.
#include "layer_totals.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;

namespace {

// The whole layer as `whole`, the linear part as `linear` and the per-sequence
// part as `part` (once: its totals are multiplied here), each in a scenario
// of its own so that their resident bytes can be compared too.
struct Split {
    test::LayerTotals whole, linear, part;
    double whole_weights = 0, whole_cache = 0, split_weights = 0, split_cache = 0;
    // bytes each chip receives over the network (the AllReduces and
    // all-to-alls of a parallel layer; 0 on one chip)
    double whole_net = 0, linear_net = 0, part_net = 0;
};

double net_bytes(test::EvaluatedLayers const& r, std::string const& layer) {
    double total = 0;
    for (auto const& c : r.evaluation.cases) {
        auto const& name = r.scenario().ops[c.op].layer;
        if ((name == layer || name.rfind(layer + "/", 0) == 0) && c.target == 0) total += c.metrics.net_bytes;
    }
    return total;
}

std::string scenario(std::string const& include, std::string const& mesh, std::string const& body) {
    return "include \"hardware/catalog.roof\"\ninclude \"" + include + "\"\ntarget h100_sxm\n" + mesh +
           "\nsweep B = [4]\n" + body + "\n";
}

// `parts` the uses of linear (as linear) and of the per-sequence part (as
// part x `copies`), `whole` the use of the whole layer (as whole).
Split split(std::string const& include, std::string const& mesh, std::string const& whole,
            std::string const& parts) {
    Split s;
    auto w = test::evaluate_layers(scenario(include, mesh, whole));
    auto p = test::evaluate_layers(scenario(include, mesh, parts));
    s.whole = w->totals("whole", 4);
    s.linear = p->totals("linear", 4);
    s.part = p->totals("part", 4);
    s.whole_weights = w->facts(4).weight_bytes;
    s.whole_cache = w->facts(4).cache_bytes;
    s.split_weights = p->facts(4).weight_bytes;
    s.split_cache = p->facts(4).cache_bytes;
    s.whole_net = net_bytes(*w, "whole");
    s.linear_net = net_bytes(*p, "linear");
    s.part_net = net_bytes(*p, "part");
    return s;
}

// whole = linear + copies x part, in every count; residents equal (the part
// used `x copies`, so its residents are counted copies times already).
// `shared_read`: bytes each copy of the part reads that the whole layer reads
// once (gpt-oss's sinks).
void require_equal(Split const& s, double copies, double shared_read = 0) {
    CHECK(s.whole.flops == s.linear.flops + copies * s.part.flops);
    CHECK(s.whole.bytes_read == s.linear.bytes_read + copies * s.part.bytes_read - (copies - 1) * shared_read);
    CHECK(s.whole.bytes_written == s.linear.bytes_written + copies * s.part.bytes_written);
    CHECK(s.whole_weights == s.split_weights);
    CHECK(s.whole_cache == s.split_cache);
    CHECK(s.whole_net == s.linear_net + copies * s.part_net);
    CHECK(s.whole.flops > 0);
    CHECK(s.part.flops > 0);
}

// A small Llama-like shape: D 64, 4 heads of 16 in 2 key/value groups, F 128.
constexpr char const* gqa = "D = 64, H = 4, KV = 2, Hd = 16";
constexpr char const* heads = "H = 4, KV = 2, Hd = 16";

std::string use(std::string const& name, std::string const& args, std::string const& as,
                std::string const& count = "") {
    return "use " + name + "(" + args + ") as " + as + (count.empty() ? "" : " x " + count) + "\n";
}

}  // namespace

TEST_CASE("serve_dense: dense_decode(B, S) = dense_linear(N = B) + B x dense_decode_attention(S)",
          "[serve-templates]") {
    std::string const f = std::string(gqa) + ", F = 128";
    for (std::string flash : {"", "_flash"}) {
        INFO("form " << flash);
        auto s = split("layers/serve_dense.roof", "",
                       use("dense_decode" + flash, "B = B, S = 100, " + f, "whole"),
                       use("dense_linear", "N = B, " + f, "linear") +
                           use("dense_decode_attention" + flash, "S = 100, " + std::string(heads), "part", "4"));
        require_equal(s, 4);
        // One sequence's attention by hand (G = 2 query heads per key/value
        // head, bf16 2 B per element, S = 100):
        //   scores 2 H S Hd = 2 x 4 x 100 x 16 = 12,800; values the same;
        //   softmax 5 H S = 2,000 (flash: the same FLOPs, in one kernel).
        CHECK(s.part.flops == 27600);
        if (flash.empty()) {
            // read: q H Hd 128 B + K S KV Hd x 2 B = 6,400; softmax H S x 2 = 800;
            // values 800 + V 6,400: 14,528. written: scores 800, softmax 800,
            // values H Hd x 2 = 128: 1,728.
            CHECK(s.part.bytes_read == 14528);
            CHECK(s.part.bytes_written == 1728);
        }
    }
}

TEST_CASE("serve_dense: prefill of one prompt = linear(N = T) + prefill attention(T, P = 0), "
          "a chunk at P > 0 by hand", "[serve-templates]") {
    std::string const f = std::string(gqa) + ", F = 128";
    for (std::string flash : {"", "_flash"}) {
        INFO("form " << flash);
        auto s = split("layers/serve_dense.roof", "",
                       use("dense_prefill" + flash, "B = 1, T = 64, " + f, "whole"),
                       use("dense_linear", "N = 64, " + f, "linear") +
                           use("dense_prefill_attention" + flash, "T = 64, P = 0, " + std::string(heads), "part"));
        require_equal(s, 1);
    }
    // A chunk of T = 64 tokens from P = 128: keys Sk = 192.
    auto r = test::evaluate_layers(scenario(
        "layers/serve_dense.roof", "",
        "use dense_prefill_attention(T = 64, P = 128, " + std::string(heads) + ") as eager\n" +
            "use dense_prefill_attention_flash(T = 64, P = 128, " + std::string(heads) + ") as flash\n"));
    // Eager: the whole rectangle, 2 H T Sk Hd = 2 x 4 x 64 x 192 x 16 =
    // 1,572,864 in scores and in values, softmax 5 H T Sk = 245,760.
    CHECK(r->totals("eager", 4).flops == 2 * 1572864.0 + 245760.0);
    // Flash, causal: the token at P + t sees P + t + 1 keys, t = 0 .. 63:
    // 64 x 128 + (1 + ... + 64) = 8,192 + 2,080 = 10,272 scores per head;
    // 2 H Hd x 10,272 = 1,314,816 in scores and values, 5 H x 10,272 =
    // 205,440 in the softmax.
    CHECK(r->totals("flash", 4).flops == 2 * 1314816.0 + 205440.0);
    // Both read the cache of 192 positions (K and V: 2 x 192 x 2 x 16 x 2 B).
    CHECK(r->facts(4).cache_bytes == 2 * (2.0 * 192 * 2 * 16 * 2));
}

TEST_CASE("serve_dense: the tensor-parallel and the Qwen2 forms split as the whole layers",
          "[serve-templates]") {
    std::string const f = std::string(gqa) + ", F = 128";
    auto tp = split("layers/serve_dense.roof", "mesh tp = 2 over nvlink",
                    use("dense_tp_decode", "B = B, S = 100, " + f, "whole"),
                    use("dense_linear_tp", "N = B, " + f, "linear") +
                        use("dense_decode_attention_tp", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(tp, 4);
    // Per chip: one key/value head of the two, half of 27,600.
    CHECK(tp.part.flops == 13800);
    // The AllReduces of o_proj and down are the linear part's, of B x D x
    // 2 B = 512 B each: a ring over 2 chips receives 2 (2 - 1) / 2 x 512 =
    // 512 B per AllReduce (reduce-scatter, then all-gather), 1,024 for the
    // two; one sequence's attention moves nothing.
    CHECK(tp.part_net == 0);
    CHECK(tp.linear_net == 1024);
    auto bias = split("layers/serve_dense.roof", "",
                      "include \"layers/qkv_bias.roof\"\n" +
                          use("qkv_bias_decode", "B = B, S = 100, " + f, "whole"),
                      use("qkv_bias_linear", "N = B, " + f, "linear") +
                          use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(bias, 4);
    auto bias_tp = split("layers/serve_dense.roof", "mesh tp = 2 over nvlink",
                         use("qkv_bias_tp_decode", "B = B, S = 100, " + f, "whole"),
                         use("qkv_bias_linear_tp", "N = B, " + f, "linear") +
                             use("dense_decode_attention_tp", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(bias_tp, 4);
}

TEST_CASE("serve_moe: moe_decode and qwen2_moe_decode = their linear parts + B x decode attention",
          "[serve-templates]") {
    std::string const moe = std::string(gqa) + ", F = 96, E = 8, k = 2";
    auto mixtral = split("layers/serve_moe.roof", "", use("moe_decode", "B = B, S = 100, " + moe, "whole"),
                         use("moe_linear", "N = B, " + moe, "linear") +
                             use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(mixtral, 4);
    auto qwen2 = split("layers/serve_moe.roof", "",
                       use("qwen2_moe_decode", "B = B, S = 100, " + moe + ", Fs = 256", "whole"),
                       use("qwen2_moe_linear", "N = B, " + moe + ", Fs = 256", "linear") +
                           use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(qwen2, 4);
    // Prefill of one prompt: the experts see the prompt's 64 tokens at once.
    auto prefill = split("layers/serve_moe.roof", "", use("moe_prefill", "B = 1, T = 64, " + moe, "whole"),
                         use("moe_linear", "N = 64, " + moe, "linear") +
                             use("dense_prefill_attention", "T = 64, P = 0, " + std::string(heads), "part"));
    require_equal(prefill, 1);
}

TEST_CASE("serve_moe: the grid forms (dp 1 x tp_ep 2 x tp_etp 1) = the grid layers", "[serve-templates]") {
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    std::string const moe = std::string(gqa) + ", F = 96, E = 8, k = 2, DP = 1, TP_EP = 2, TP_ETP = 1";
    auto grid = split("layers/serve_moe.roof", mesh, use("moe_grid_decode", "B = B, S = 100, " + moe, "whole"),
                      use("moe_linear_grid", "N = B, " + moe, "linear") +
                          use("decode_attention_grid", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(grid, 4);
    // Per chip one key/value head of the two: half of 27,600.
    CHECK(grid.part.flops == 13800);
    std::string const qwen2 = std::string(gqa) + ", F = 96, E = 8, k = 2, Fs = 256, DP = 1, TP_EP = 2, TP_ETP = 1";
    auto q = split("layers/serve_moe.roof", mesh, use("qwen2_moe_grid_decode", "B = B, S = 100, " + qwen2, "whole"),
                   use("qwen2_moe_linear_grid", "N = B, " + qwen2, "linear") +
                       use("decode_attention_grid", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(q, 4);
}

namespace {
// A small DeepSeek shape: D 64, 4 heads, Qr 32, C 24, Dn 16, Dr 8, Dv 16.
constexpr char const* mla = "D = 64, H = 4, Qr = 32, C = 24, Dn = 16, Dr = 8, Dv = 16";
}  // namespace

TEST_CASE("serve_mla: DeepSeek decode = linear(N = B) + B x mla_decode_attention(S), prefill "
          "plus the absorbed projections by hand", "[serve-templates]") {
    std::string const moe = std::string(mla) + ", F = 32, E = 8, k = 2, Fs = 64";
    auto decode = split("layers/serve_mla.roof", "", use("deepseek_moe_decode", "B = B, S = 100, " + moe, "whole"),
                        use("deepseek_moe_linear", "N = B, " + moe, "linear") +
                            use("mla_decode_attention", "S = 100, H = 4, C = 24, Dr = 8", "part", "4"));
    require_equal(decode, 4);
    // One sequence by hand: scores 2 H S (C + Dr) = 2 x 4 x 100 x 32 = 25,600,
    // softmax 5 H S = 2,000, values 2 H S C = 19,200.
    CHECK(decode.part.flops == 46800);
    auto dense = split("layers/serve_mla.roof", "",
                       use("deepseek_dense_decode", "B = B, S = 100, " + std::string(mla) + ", F = 128", "whole"),
                       use("deepseek_dense_linear", "N = B, " + std::string(mla) + ", F = 128", "linear") +
                           use("mla_decode_attention", "S = 100, H = 4, C = 24, Dr = 8", "part", "4"));
    require_equal(dense, 4);

    // Prefill of one prompt of T = 64: the linear part also runs q_absorb and
    // v_absorb on the 64 tokens, which the expanded prefill does not:
    //   q_absorb [64, 4, 16] x [24, 4, 16]: 2 x 64 x 4 x 16 x 24 = 196,608 FLOPs,
    //     read (64 x 4 x 16 + 24 x 4 x 16) x 2 B = 11,264, written 64 x 4 x 24 x 2 = 12,288;
    //   v_absorb [64, 4, 24] x [24, 4, 16]: 196,608 FLOPs, read (6,144 + 1,536) x 2 B
    //     = 15,360 B, written 64 x 4 x 16 x 2 = 8,192.
    auto prefill = split("layers/serve_mla.roof", "", use("deepseek_moe_prefill", "B = 1, T = 64, " + moe, "whole"),
                         use("deepseek_moe_linear", "N = 64, " + moe, "linear") +
                             use("mla_prefill_attention", "T = 64, P = 0, H = 4, C = 24, Dn = 16, Dr = 8, Dv = 16",
                                 "part"));
    CHECK(prefill.linear.flops + prefill.part.flops == prefill.whole.flops + 2 * 196608.0);
    CHECK(prefill.linear.bytes_read + prefill.part.bytes_read == prefill.whole.bytes_read + 11264.0 + 15360.0);
    CHECK(prefill.linear.bytes_written + prefill.part.bytes_written ==
          prefill.whole.bytes_written + 12288.0 + 8192.0);
    // The same weights (kv_b_proj once: q_absorb's and v_absorb's, read by
    // k_up and v_up unmarked) and the same latent cache (64 x 32 x 2 B).
    CHECK(prefill.whole_weights == prefill.split_weights);
    CHECK(prefill.whole_cache == prefill.split_cache);
    CHECK(prefill.split_cache == 64.0 * 32 * 2);
}

TEST_CASE("serve_mla: the grid forms = deepseek_moe_grid_decode", "[serve-templates]") {
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    std::string const moe = std::string(mla) + ", F = 32, E = 8, k = 2, Fs = 64, DP = 1, TP_EP = 2, TP_ETP = 1";
    auto grid = split("layers/serve_mla.roof", mesh, use("deepseek_moe_grid_decode", "B = B, S = 100, " + moe, "whole"),
                      use("deepseek_moe_linear_grid", "N = B, " + moe, "linear") +
                          use("mla_decode_attention_grid", "S = 100, H = 4, C = 24, Dr = 8", "part", "4"));
    require_equal(grid, 4);
    // Per chip two heads of the four, the whole latent cache: half of 46,800.
    CHECK(grid.part.flops == 23400);
}

TEST_CASE("serve_qwen3: Qwen3 and Qwen3-MoE = their linear parts + B x decode attention, one chip, tp "
          "and the grid (key/value heads replicated beyond tp = KV)", "[serve-templates]") {
    std::string const f = std::string(gqa) + ", F = 128";
    auto dense = split("layers/serve_qwen3.roof", "", use("qwen3_decode", "B = B, S = 100, " + f, "whole"),
                       use("qwen3_linear", "N = B, " + f, "linear") +
                           use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(dense, 4);
    auto tp = split("layers/serve_qwen3.roof", "mesh tp = 2 over nvlink",
                    use("qwen3_tp_decode", "B = B, S = 100, " + f, "whole"),
                    use("qwen3_linear_tp", "N = B, " + f, "linear") +
                        use("dense_decode_attention_tp", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(tp, 4);
    std::string const moe = std::string(gqa) + ", F = 96, E = 8, k = 2";
    auto one = split("layers/serve_qwen3.roof", "", use("qwen3_moe_decode", "B = B, S = 100, " + moe, "whole"),
                     use("qwen3_moe_linear", "N = B, " + moe, "linear") +
                         use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(one, 4);
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    for (std::string kv : {"2", "1"}) {
        INFO("KV = " << kv);
        std::string const shape = "H = 4, KV = " + kv + ", Hd = 16";
        std::string const g = "D = 64, " + shape + ", F = 96, E = 8, k = 2, DP = 1, TP_EP = 2, TP_ETP = 1";
        auto grid = split("layers/serve_qwen3.roof", mesh,
                          use("qwen3_moe_grid_decode", "B = B, S = 100, " + g, "whole"),
                          use("qwen3_moe_linear_grid", "N = B, " + g, "linear") +
                              use("qk_norm_decode_attention_grid", "S = 100, " + shape + ", TP = 2", "part", "4"));
        require_equal(grid, 4);
        // Per chip: 2 of the 4 query heads (whatever KV), half of 27,600.
        CHECK(grid.part.flops == 13800);
        // The cache per chip: one key/value head (KV = 2 split, or KV = 1
        // replicated), K and V: 2 x 4 sequences x 100 x 16 x 2 B = 25,600.
        CHECK(grid.split_cache == 25600);
    }
}

TEST_CASE("serve_gemma: Gemma and Gemma 2 = their linear parts + B x their decode attention",
          "[serve-templates]") {
    std::string const f = std::string(gqa) + ", F = 128";
    auto gemma = split("layers/serve_gemma.roof", "", use("gemma_decode", "B = B, S = 100, " + f, "whole"),
                       use("gemma_linear", "N = B, " + f, "linear") +
                           use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(gemma, 4);
    auto gemma2 = split("layers/serve_gemma.roof", "", use("gemma2_decode", "B = B, S = 100, " + f, "whole"),
                        use("gemma2_linear", "N = B, " + f, "linear") +
                            use("gemma2_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(gemma2, 4);
    // One sequence: 27,600 as Llama's, plus the soft-cap's 3 H S = 1,200.
    CHECK(gemma2.part.flops == 28800);
    auto prefill = split("layers/serve_gemma.roof", "", use("gemma2_prefill", "B = 1, T = 64, " + f, "whole"),
                         use("gemma2_linear", "N = 64, " + f, "linear") +
                             use("gemma2_prefill_attention", "T = 64, P = 0, " + std::string(heads), "part"));
    require_equal(prefill, 1);
}

TEST_CASE("serve_gpt2: gpt2_decode = gpt2_linear(N = B) + B x gpt2_decode_attention", "[serve-templates]") {
    std::string const f = "D = 64, H = 4, Hd = 16, F = 256";
    auto decode = split("layers/serve_gpt2.roof", "", use("gpt2_decode", "B = B, S = 100, " + f, "whole"),
                        use("gpt2_linear", "N = B, " + f, "linear") +
                            use("gpt2_decode_attention", "S = 100, H = 4, Hd = 16", "part", "4"));
    require_equal(decode, 4);
    // One sequence: 2 H S Hd = 12,800 in scores and values, 5 H S = 2,000.
    CHECK(decode.part.flops == 27600);
    auto prefill = split("layers/serve_gpt2.roof", "", use("gpt2_prefill", "B = 1, T = 64, " + f, "whole"),
                         use("gpt2_linear", "N = 64, " + f, "linear") +
                             use("gpt2_prefill_attention", "T = 64, P = 0, H = 4, Hd = 16", "part"));
    require_equal(prefill, 1);
}

TEST_CASE("serve_minimax_m2: MiniMax-M2 = its linear part + B x decode attention, one chip and the grid",
          "[serve-templates]") {
    std::string const moe = std::string(gqa) + ", Rd = 8, F = 96, E = 8, k = 2";
    auto one = split("layers/serve_minimax_m2.roof", "", use("minimax_m2_decode", "B = B, S = 100, " + moe, "whole"),
                     use("minimax_m2_linear", "N = B, " + moe, "linear") +
                         use("dense_decode_attention", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(one, 4);
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    std::string const g = moe + ", DP = 1, TP_EP = 2, TP_ETP = 1";
    auto grid = split("layers/serve_minimax_m2.roof", mesh,
                      use("minimax_m2_grid_decode", "B = B, S = 100, " + g, "whole"),
                      use("minimax_m2_linear_grid", "N = B, " + g, "linear") +
                          use("decode_attention_grid", "S = 100, " + std::string(heads), "part", "4"));
    require_equal(grid, 4);
    CHECK(grid.linear_net > 0);  // the variances' AllReduce, o_proj's and the experts'
}

TEST_CASE("serve_gpt_oss: gpt-oss = its linear part + its attention parts (sinks, sliding window, "
          "causal exactly), a chunk by hand", "[serve-templates]") {
    std::string const moe = std::string(gqa) + ", F = 96, E = 8, k = 2";
    for (std::string window : {", W = 32", ""}) {
        INFO("window '" << window << "'");
        auto decode = split("layers/serve_gpt_oss.roof", "",
                            use("gpt_oss_decode", "B = B, S = 100" + window + ", " + moe, "whole"),
                            use("gpt_oss_linear", "N = B, " + moe, "linear") +
                                use("gpt_oss_decode_attention", "S = 100" + window + ", " + std::string(heads),
                                    "part", "4"));
        // The sinks, H = 4 logits x 2 B, read by each of the 4 sequences.
        require_equal(decode, 4, 8);
        auto prefill = split("layers/serve_gpt_oss.roof", "",
                             use("gpt_oss_prefill", "B = 1, T = 64" + window + ", " + moe, "whole"),
                             use("gpt_oss_linear", "N = 64, " + moe, "linear") +
                                 use("gpt_oss_prefill_attention", "T = 64, P = 0" + window + ", " +
                                     std::string(heads), "part"));
        require_equal(prefill, 1);
    }
    // A chunk of 64 at P = 10 in a window of 32: the query at position p sees
    // min(p + 1, 32) keys: p = 10 .. 30 see 11 .. 31 (441), p = 31 .. 73 see
    // 32 each (43 x 32 = 1,376): 1,817 scores per head. FLOPs: scores and
    // values 2 H Hd x 1,817 = 232,576 each; softmax H (5 x 1,817 + 4 x 64)
    // = 37,364 (the sinks' 4 per query row).
    auto r = test::evaluate_layers(scenario(
        "layers/serve_gpt_oss.roof", "",
        "use gpt_oss_prefill_attention(T = 64, P = 10, W = 32, " + std::string(heads) + ") as chunk\n"));
    CHECK(r->totals("chunk", 4).flops == 2 * 232576.0 + 37364.0);
    // The window's cache after the chunk: 32 positions of K and V, 2 x 32 x 2 x 16 x 2 B.
    CHECK(r->facts(4).cache_bytes == 4096);
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    std::string const g = moe + ", DP = 1, TP_EP = 2, TP_ETP = 1";
    auto grid = split("layers/serve_gpt_oss.roof", mesh,
                      use("gpt_oss_grid_decode", "B = B, S = 100, W = 32, " + g, "whole"),
                      use("gpt_oss_linear_grid", "N = B, " + g, "linear") +
                          use("gpt_oss_decode_attention_grid", "S = 100, W = 32, " + std::string(heads), "part", "4"));
    require_equal(grid, 4, 4);  // per chip 2 of the 4 sinks
}

TEST_CASE("serve_dsa: GLM-5's layers = their linear part + B x the sparse decode attention",
          "[serve-templates]") {
    std::string const idx = ", Hi = 2, Di = 32, Kt = 40";
    std::string const moe = std::string(mla) + ", F = 32, E = 8, k = 2, Fs = 64" + idx;
    auto decode = split("layers/serve_dsa.roof", "", use("dsa_moe_decode", "B = B, S = 100, " + moe, "whole"),
                        use("dsa_moe_linear", "N = B, " + std::string(mla) + ", F = 32, E = 8, k = 2, Fs = 64, "
                                              "Hi = 2, Di = 32", "linear") +
                            use("dsa_decode_attention", "S = 100, H = 4, C = 24, Dr = 8" + idx, "part", "4"));
    require_equal(decode, 4);
    // MLA over the Kt = 40 positions selected of the 100: scores 2 H Kt (C +
    // Dr) = 10,240, softmax 5 H Kt = 800, values 2 H Kt C = 7,680; the
    // indexer: scores 2 Hi S Di = 12,800, relu Hi S = 200, sum 2 Hi S = 400,
    // scale S = 100, top-k S / Ks x Ks = 100 (ceil(100 / 40) = 3 reads).
    CHECK(decode.part.flops == 10240 + 800 + 7680 + 12800 + 200 + 400 + 100 + 100);
    auto dense = split("layers/serve_dsa.roof", "",
                       use("dsa_dense_decode", "B = B, S = 100, " + std::string(mla) + ", F = 128" + idx, "whole"),
                       use("dsa_dense_linear", "N = B, " + std::string(mla) + ", F = 128, Hi = 2, Di = 32", "linear") +
                           use("dsa_decode_attention", "S = 100, H = 4, C = 24, Dr = 8" + idx, "part", "4"));
    require_equal(dense, 4);
}

TEST_CASE("serve flash forms (MLA, gpt-oss, the grid, Qwen3's grid): the FLOPs of the causal scores, "
          "no score matrix in HBM, by hand", "[serve-templates]") {
    // MLA, one chunk of T = 64 from P = 128 (Sk = 192 keys), bf16 (2 B):
    //   k_up, v_up [192, 24] x [24, 4, 16]: 2 x 192 x 24 x 64 = 589,824 FLOPs each,
    //     read (192 x 24 + 24 x 64) x 2 B = 12,288, written 192 x 64 x 2 B = 24,576;
    //   the kernel, causal: 10,272 scores per head (as dense's chunk at these T, P):
    //     scores 2 x (Dn + Dr = 24) x 4 x 10,272 = 1,972,224, softmax 5 x 4 x
    //     10,272 = 205,440, values 2 x 16 x 4 x 10,272 = 1,314,816;
    //     read q [64, 4, 24] 12,288 B, keys [192, 4, 24] 36,864 B, values
    //     [192, 4, 16] 24,576 B; written [64, 4, 16] 8,192 B.
    auto mla_chunk = test::evaluate_layers(scenario(
        "layers/serve_mla.roof", "",
        "use mla_prefill_attention_flash(T = 64, P = 128, H = 4, C = 24, Dn = 16, Dr = 8, Dv = 16) as chunk\n"));
    auto chunk = mla_chunk->totals("chunk", 4);
    CHECK(chunk.flops == 2 * 589824.0 + 1972224.0 + 205440.0 + 1314816.0);
    CHECK(chunk.bytes_read == 2 * 12288.0 + 12288.0 + 36864.0 + 24576.0);
    CHECK(chunk.bytes_written == 2 * 24576.0 + 8192.0);
    CHECK(mla_chunk->facts(4).cache_bytes == 64.0 * 32 * 2);  // the chunk's latents

    // MLA decode at S = 100, each latent read once: the FLOPs of
    // mla_decode_attention, 46,800 (scores 2 x 4 x 100 x (24 + 8) = 25,600
    // in its latent 19,200 and RoPE 6,400 parts, softmax 5 x 4 x 100 =
    // 2,000, values 2 x 4 x 100 x 24 = 19,200); read the latents [100, 24]
    // 4,800 B once (loaded on chip for the scores and the values), their
    // RoPE part [100, 8] 1,600 B, q [4, 24] 192 B and [4, 8] 64 B; written
    // [4, 24] 192 B. The two cache reads are the whole latent cache, 100 x
    // 32 x 2 B, as mla_decode_attention's resident line holds it.
    auto mla_step = test::evaluate_layers(scenario(
        "layers/serve_mla.roof", "", "use mla_decode_attention_flash(S = 100, H = 4, C = 24, Dr = 8) as step\n"));
    auto step = mla_step->totals("step", 4);
    CHECK(step.flops == 46800);
    CHECK(step.bytes_read == 4800 + 1600 + 192 + 64);
    CHECK(step.bytes_written == 192);
    CHECK(mla_step->facts(4).cache_bytes == 100.0 * 32 * 2);
    // Eager: the latents read by the scores and again by the values, 256 +
    // 6,400 + 4,800 B, and the [4, 100] scores and probabilities through
    // HBM, 800 B each.
    auto mla_eager = test::evaluate_layers(scenario(
        "layers/serve_mla.roof", "", "use mla_decode_attention(S = 100, H = 4, C = 24, Dr = 8) as step\n"));
    CHECK(mla_eager->totals("step", 4).bytes_read == 256 + 6400 + 4800 + 2 * 800);
    CHECK(mla_eager->facts(4).cache_bytes == 100.0 * 32 * 2);

    // gpt-oss, the chunk of 64 at P = 10 in a window of 32 (1,817 scores per
    // head, as above): the same FLOPs; read q [64, 2, 2, 16] 8,192 B, the
    // Sk = min(74, 64 + 31) = 74 keys and values [74, 2, 16] 4,736 B each,
    // the sinks [2, 2] 8 B; written [64, 2, 2, 16] 8,192 B.
    auto oss = test::evaluate_layers(scenario(
        "layers/serve_gpt_oss.roof", "",
        "use gpt_oss_prefill_attention_flash(T = 64, P = 10, W = 32, " + std::string(heads) + ") as chunk\n"));
    auto o = oss->totals("chunk", 4);
    CHECK(o.flops == 2 * 232576.0 + 37364.0);
    CHECK(o.bytes_read == 8192 + 2 * 4736 + 8);
    CHECK(o.bytes_written == 8192);

    // gpt-oss decode at S = 100 in a window of 32 (Sw = 32): scores 2 x (2 x
    // 2 x 32) x 16 = 4,096 FLOPs, softmax (5 x 32 + 4) / 32 x 128 = 656 (the
    // sink in each head's sum), values 4,096; read q [1, 2, 2, 16] 128 B, K
    // and V [32, 2, 16] 2,048 B each, the sinks 8 B; written 128 B. K and V
    // are the cache held: 2 x 32 x 2 x 16 x 2 B.
    auto oss_step = test::evaluate_layers(scenario(
        "layers/serve_gpt_oss.roof", "",
        "use gpt_oss_decode_attention_flash(S = 100, W = 32, " + std::string(heads) + ") as step\n"));
    auto os = oss_step->totals("step", 4);
    CHECK(os.flops == 4096 + 656 + 4096);
    CHECK(os.bytes_read == 128 + 2 * 2048 + 8);
    CHECK(os.bytes_written == 128);
    CHECK(oss_step->facts(4).cache_bytes == 2.0 * 32 * 2 * 16 * 2);

    // The grid (tp_ep = 2): per chip one key/value head of two, its 2 query
    // heads: half of dense's flash chunk, 1,417,536 FLOPs; read q [64, 1, 2,
    // 16] 4,096 B and K, V [192, 1, 16] 6,144 B each; written 4,096 B.
    // Qwen3's grid form at TP = 2 holds the same heads (KVl 1, Gl 2).
    std::string const mesh = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    for (auto [file, use_line] :
         {std::pair{"layers/serve_moe.roof", "use prefill_attention_grid_flash(T = 64, P = 128, " +
                                                 std::string(heads) + ") as chunk\n"},
          std::pair{"layers/serve_qwen3.roof", "use qk_norm_prefill_attention_grid_flash(T = 64, P = 128, TP = 2, " +
                                                   std::string(heads) + ") as chunk\n"}}) {
        INFO(file);
        auto g = test::evaluate_layers(scenario(file, mesh, use_line));
        auto t = g->totals("chunk", 4);
        CHECK(t.flops == 1417536);
        CHECK(t.bytes_read == 4096 + 2 * 6144);
        CHECK(t.bytes_written == 4096);
    }
}

TEST_CASE("serve_head: each LM head = its final norm (linear part) + its logits (sample part), op for op",
          "[serve-templates]") {
    // D 64, V 256: the whole head at N = 4 against the norm and the logits
    // at N = 4, in FLOPs, bytes, network bytes and resident bytes.
    std::string const dv = "N = 4, D = 64, V = 256";
    std::string const d = "N = 4, D = 64";
    std::string const tp = "mesh tp = 2 over nvlink";
    std::string const grid = "mesh dp = 1 over nvlink, tp_ep = 2 over nvlink, tp_etp = 1 over nvlink";
    struct Head {
        char const* include;
        std::string mesh, whole, norm, logits;
    };
    for (auto const& h : std::vector<Head>{
             {"layers/serve_dense.roof", "", "lm_head", "final_norm", "logits"},
             {"layers/serve_dense.roof", "", "tied_lm_head", "final_norm", "tied_logits"},
             {"layers/serve_dense.roof", tp, "lm_head_tp", "final_norm", "logits_tp"},
             {"layers/serve_dense.roof", tp, "tied_lm_head_tp", "final_norm", "tied_logits_tp"},
             {"layers/serve_moe.roof", grid, "lm_head_grid", "final_norm_grid", "logits_grid"},
             {"layers/serve_moe.roof", grid, "tied_lm_head_grid", "final_norm_grid", "tied_logits_grid"},
             {"layers/serve_gpt2.roof", "", "gpt2_lm_head", "gpt2_final_norm", "tied_logits"},
             {"layers/serve_gemma.roof", "", "gemma2_lm_head", "final_norm", "gemma2_logits"}}) {
        INFO(h.whole);
        auto s = split(h.include, h.mesh, use(h.whole, dv, "whole"),
                       use(h.norm, d, "linear") + use(h.logits, dv, "part"));
        require_equal(s, 1);
    }
}
