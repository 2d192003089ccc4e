#!/usr/bin/env python3
"""Time the kernels that the calibration's factors stand for, on one H200.

Sections (docs in scripts/h200/README.md):
  launch     per-launch cost of a 1-element kernel (GPU back to back, host
             enqueue, launch + synchronize, inside a CUDA graph)
  copy       dst.copy_(src) of 1, 4 and 8 GiB bf16: achieved HBM bandwidth
  attention  decode attention (query length 1) over a bf16 KV cache with
             torch.nn.functional.scaled_dot_product_attention
  gemm       the shipped models' linear layers per GPU at the TP sizes the
             silicon sample uses on h200_sxm, bf16 (torch.matmul) and fp8
             (torch._scaled_mm, e4m3, per-tensor scales, bf16 out)

Writes OUT/h200_kernels.csv (and OUT/h200_kernels.log, this run's log).
Only PyTorch and the standard library; no network. A global deadline
(--budget-s, 330 s from start by default) skips what is left, and says so.

Timing: every sample is the mean of `inner` back-to-back calls between two
CUDA events, queued behind a torch.cuda._sleep so that the host's launch cost
is not in it; seconds_median / seconds_min are over the samples; reps is the
number of timed calls (samples x inner). Weights (GEMM) and KV caches
(attention) rotate over enough copies (>= 256 MiB together) that the 50 MB L2
does not hold them from one call to the next, as in serving, where every
layer's weights are different.

Exit status: 0 when the CSV was written (sections cut by the deadline are
listed in it as kind=skipped rows), 2 when torch or CUDA is missing or --out
is not given.
"""
import time

T0 = time.monotonic()  # the budget counts the import of torch and CUDA's start

import argparse
import csv
import math
import os
import platform
import statistics
import sys

COLUMNS = ["kind", "model", "op", "dtype", "m", "n", "k", "batch", "context", "heads",
           "kv_heads", "head_dim", "bytes", "flops", "seconds_median", "seconds_min", "reps",
           "achieved_tflops", "achieved_tbps"]

MiB = 1 << 20
GiB = 1 << 30
ROTATE_BYTES = 256 * MiB     # rotate copies until this much: > 5x the H200's 50 MB L2
MAX_COPIES = 256
MIN_BLOCK_S = 200e-6         # one sample lasts at least this long (event resolution ~0.5 us)
MAX_INNER = 128
HOST_US_PER_CALL = 25.0      # host cost of one eager call, generous: sizes the _sleep ahead of a block
CYCLES_PER_US = 1980.0       # H200 boost clock 1.98 GHz (only sizes the _sleep)

DECODE_M = (1, 8, 32, 128, 256)
PREFILL_M = (2048, 8192)

# --------------------------------------------------------------------------
# The shapes. From /work/shared/measured/configs/*.json (hidden_size,
# intermediate sizes, heads, kv heads, head_dim, MLA ranks, experts, top-k);
# (tp, moe_tp) pairs from the h200_sxm rows of serving-train.csv (tp_size /
# moe_tp_size; moe_tp 1 with EP = whole experts; attention DP = attention tp 1).
# Priority 0 is each model's most measured layout; 1 the others; 2 models the
# sample has no h200 row for. Shapes are per GPU: column-parallel layers divide
# N by tp, row-parallel ones K.
# --------------------------------------------------------------------------
GQA_MODELS = [
    # name, hidden, heads, kv_heads, head_dim, dense intermediate, moe (experts, topk, moe_inter) or None, layouts
    ("Llama-3.1-8B", 4096, 32, 8, 128, 14336, None, [(1, 1, 0), (2, 1, 1), (4, 1, 1), (8, 1, 1)]),
    ("Llama-3.1-70B", 8192, 64, 8, 128, 28672, None, [(8, 8, 0), (4, 4, 0), (2, 2, 1), (1, 1, 1)]),
    ("Qwen3-235B-A22B", 4096, 64, 4, 128, None, (128, 8, 1536),
     [(4, 4, 0), (2, 2, 0), (2, 1, 1), (2, 4, 1), (1, 2, 1), (4, 1, 1), (1, 4, 1)]),
    ("gpt-oss-120b", 2880, 64, 8, 64, None, (128, 4, 2880), [(1, 1, 0), (4, 4, 0), (2, 2, 1), (8, 8, 1), (4, 2, 1), (8, 1, 1)]),
    ("MiniMax-M2.5", 3072, 48, 8, 128, None, (256, 8, 1536), [(8, 8, 0), (4, 4, 1)]),
    ("Qwen3-32B", 5120, 64, 8, 128, 25600, None, [(1, 1, 2), (2, 2, 2)]),
]
MLA_MODELS = [
    # name, hidden, heads, q_lora, kv_lora, nope, rope, v, dense inter, (experts, topk, moe_inter, shared), layouts
    ("DeepSeek-V3/R1", 7168, 128, 1536, 512, 128, 64, 128, 18432, (256, 8, 2048, 1), [(8, 8, 0), (1, 1, 1), (8, 1, 1)]),
    ("Kimi-K2.5", 7168, 64, 1536, 512, 128, 64, 128, 18432, (384, 8, 2048, 1), [(8, 8, 0)]),
    ("GLM-5", 6144, 64, 2048, 512, 192, 64, 256, 12288, (256, 8, 2048, 1), [(8, 8, 0)]),
]
# Qwen3.5-397B-A17B (hybrid linear attention): only its experts, EP 8 (moe_tp 1).
EXTRA_EXPERTS = [("Qwen3.5-397B-A17B", 4096, (512, 10, 1024), [(1, 1)])]


def expert_m(experts, topk):
    """Tokens per expert for the engine's token counts: T x topk / experts, at least 1."""
    return sorted({max(1, math.ceil(t * topk / experts)) for t in DECODE_M + PREFILL_M})


def gemm_plan():
    """Ordered, deduplicated GEMM shapes: [(priority, n, k, [m...], [tags...], op)]."""
    raw = []  # (priority, op, n, k, ms, tag)
    dense_m = list(DECODE_M + PREFILL_M)
    for name, h, heads, kvh, hd, inter, moe, layouts in GQA_MODELS:
        for tp, moe_tp, prio in layouts:
            tag = "%s tp%d" % (name, tp)
            q = heads // tp
            kv = max(1, kvh // tp)
            raw.append((prio, "qkv", (q + 2 * kv) * hd, h, dense_m, tag))
            raw.append((prio, "attn_out", h, q * hd, dense_m, tag))
            if inter:
                raw.append((prio, "gate_up", 2 * inter // tp, h, dense_m, tag))
                raw.append((prio, "down", h, inter // tp, dense_m, tag))
            if moe:
                e, topk, mi = moe
                etag = "%s moe_tp%d" % (name, moe_tp)
                raw.append((prio, "expert_gate_up", 2 * mi // moe_tp, h, expert_m(e, topk), etag))
                raw.append((prio, "expert_down", h, mi // moe_tp, expert_m(e, topk), etag))
    for name, h, heads, ql, kvl, nope, rope, v, inter, moe, layouts in MLA_MODELS:
        e, topk, mi, shared = moe
        for tp, moe_tp, prio in layouts:
            tag = "%s tp%d" % (name, tp)
            q = heads // tp
            raw.append((prio, "q_a+kv_a", ql + kvl + rope, h, dense_m, tag))
            raw.append((prio, "q_b", q * (nope + rope), ql, dense_m, tag))
            raw.append((prio, "kv_b", q * (nope + v), kvl, dense_m, tag))
            raw.append((prio, "attn_out", h, q * v, dense_m, tag))
            raw.append((prio, "gate_up", 2 * inter // tp, h, dense_m, tag + " dense layers"))
            raw.append((prio, "down", h, inter // tp, dense_m, tag + " dense layers"))
            raw.append((prio, "shared_gate_up", 2 * mi * shared // tp, h, dense_m, tag))
            raw.append((prio, "shared_down", h, mi * shared // tp, dense_m, tag))
            etag = "%s moe_tp%d" % (name, moe_tp)
            raw.append((prio, "expert_gate_up", 2 * mi // moe_tp, h, expert_m(e, topk), etag))
            raw.append((prio, "expert_down", h, mi // moe_tp, expert_m(e, topk), etag))
    for name, h, (e, topk, mi), layouts in EXTRA_EXPERTS:
        for moe_tp, _ in layouts:
            etag = "%s moe_tp%d" % (name, moe_tp)
            raw.append((1, "expert_gate_up", 2 * mi // moe_tp, h, expert_m(e, topk), etag))
            raw.append((1, "expert_down", h, mi // moe_tp, expert_m(e, topk), etag))
    # Dedupe (n, k, m) across models: a shape keeps its first op name and all tags.
    by_nk = {}
    order = []
    for prio, op, n, k, ms, tag in sorted(raw, key=lambda r: r[0]):
        key = (n, k)
        if key not in by_nk:
            by_nk[key] = [prio, n, k, [], [], op]
            order.append(key)
        ent = by_nk[key]
        for m in ms:
            if m not in ent[3]:
                ent[3].append(m)
        label = "%s:%s" % (tag, op)
        if label not in ent[4]:
            ent[4].append(label)
    plan = []
    for key in order:
        prio, n, k, ms, tags, op = by_nk[key]
        plan.append((prio, n, k, sorted(ms), tags, op))
    return plan


# --------------------------------------------------------------------------
class Run:
    def __init__(self, out_dir, budget_s, torch, device):
        self.torch = torch
        self.device = device
        self.cuda = device == "cuda"
        self.deadline = T0 + budget_s
        self.path = os.path.join(out_dir, "h200_kernels.csv")
        self.log_path = os.path.join(out_dir, "h200_kernels.log")
        self.f = open(self.path, "w", newline="")
        self.w = csv.DictWriter(self.f, fieldnames=COLUMNS, extrasaction="raise")
        self.w.writeheader()
        self.f.flush()
        self.lines = []
        self.rows = 0
        self.counter = 0
        self.sleep = getattr(torch.cuda, "_sleep", None) if self.cuda else None
        if self.cuda:
            self.ev0 = torch.cuda.Event(enable_timing=True)
            self.ev1 = torch.cuda.Event(enable_timing=True)

    def log(self, msg):
        line = "[%6.1f s] %s" % (time.monotonic() - T0, msg)
        print(line, flush=True)
        self.lines.append(line)

    def left(self):
        return self.deadline - time.monotonic()

    def row(self, **kw):
        r = {c: "" for c in COLUMNS}
        for key, val in kw.items():
            if isinstance(val, float):
                val = "%.6g" % val
            r[key] = val
        self.w.writerow(r)
        self.f.flush()
        self.rows += 1

    def skipped(self, section, what):
        self.log("SKIPPED %s: %s" % (section, what))
        self.row(kind="skipped", model=section, op=what.replace("\n", " ")[:300])

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def _block(self, call, inner):
        if self.cuda:
            if self.sleep is not None:
                us = min(inner * HOST_US_PER_CALL, 5000.0)
                self.sleep(int(us * CYCLES_PER_US))
            self.ev0.record()
            for _ in range(inner):
                call(self.counter)
                self.counter += 1
            self.ev1.record()
            self.ev1.synchronize()
            return self.ev0.elapsed_time(self.ev1) / 1e3
        t = time.perf_counter()
        for _ in range(inner):
            call(self.counter)
            self.counter += 1
        return time.perf_counter() - t

    def measure(self, call, target_s=0.03, min_samples=5, max_samples=25, warmup=2):
        """call(i) launches one op (i: a running counter, for rotation).
        Returns (median seconds, min seconds, timed calls)."""
        for _ in range(warmup):
            call(self.counter)
            self.counter += 1
        self.sync()
        probe = max(self._block(call, 2) / 2, 1e-7)
        inner = max(1, min(MAX_INNER, int(math.ceil(MIN_BLOCK_S / probe))))
        samples = max(min_samples, min(max_samples, int(target_s / (probe * inner))))
        times = []
        for _ in range(samples):
            times.append(self._block(call, inner) / inner)
            if len(times) >= 3 and self.left() < 0:
                break
        return statistics.median(times), min(times), len(times) * inner

    def close(self):
        self.f.close()
        with open(self.log_path, "w") as f:
            f.write("\n".join(self.lines) + "\n")


def copies_for(nbytes):
    return max(1, min(MAX_COPIES, int(math.ceil(ROTATE_BYTES / max(nbytes, 1)))))


def result_cols(flops, nbytes, med, mn, reps):
    return dict(bytes=int(nbytes), flops=int(flops) if flops else "", seconds_median=med,
                seconds_min=mn, reps=reps,
                achieved_tflops=(flops / med / 1e12) if flops else "",
                achieved_tbps=nbytes / med / 1e12)


# --------------------------------------------------------------------------
def section_launch(run, budget_s):
    torch = run.torch
    end = time.monotonic() + budget_s
    x = torch.zeros(1, device=run.device, dtype=torch.float32)
    # (a) GPU time per kernel, back to back (host cost hidden behind _sleep)
    med, mn, reps = run.measure(lambda i: x.add_(1.0), target_s=0.01)
    run.row(kind="launch", op="add_1elem_gpu_back_to_back", dtype="fp32", m=1, bytes=8,
            seconds_median=med, seconds_min=mn, reps=reps)
    run.log("launch: 1-element add, GPU back to back: %.2f us/kernel" % (med * 1e6))
    # (b) host enqueue cost of one eager launch (Python + PyTorch dispatcher + driver)
    samples = []
    for _ in range(7):
        run.sync()
        t = time.perf_counter()
        for _ in range(500):
            x.add_(1.0)
        samples.append((time.perf_counter() - t) / 500)
        run.sync()
    run.row(kind="launch", op="add_1elem_host_enqueue", dtype="fp32", m=1, bytes=8,
            seconds_median=statistics.median(samples), seconds_min=min(samples), reps=3500)
    run.log("launch: host enqueue per eager launch: %.2f us" % (statistics.median(samples) * 1e6))
    # (c) one launch + synchronize, round trip
    samples = []
    for _ in range(200):
        t = time.perf_counter()
        x.add_(1.0)
        run.sync()
        samples.append(time.perf_counter() - t)
    run.row(kind="launch", op="add_1elem_launch_and_sync", dtype="fp32", m=1, bytes=8,
            seconds_median=statistics.median(samples), seconds_min=min(samples), reps=200)
    run.log("launch: launch + synchronize: %.2f us" % (statistics.median(samples) * 1e6))
    # (d) per kernel inside a CUDA graph (how engines replay decode steps)
    if run.cuda and time.monotonic() < end:
        try:
            g = torch.cuda.CUDAGraph()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    x.add_(1.0)
            torch.cuda.current_stream().wait_stream(s)
            n_in_graph = 100
            with torch.cuda.graph(g):
                for _ in range(n_in_graph):
                    x.add_(1.0)
            med, mn, reps = run.measure(lambda i: g.replay(), target_s=0.01)
            run.row(kind="launch", op="add_1elem_in_cuda_graph", dtype="fp32", m=1, bytes=8,
                    seconds_median=med / n_in_graph, seconds_min=mn / n_in_graph, reps=reps * n_in_graph)
            run.log("launch: per kernel in a CUDA graph of %d: %.2f us" % (n_in_graph, med / n_in_graph * 1e6))
        except Exception as exc:  # noqa: BLE001
            run.skipped("launch", "CUDA graph replay failed: %s: %s" % (type(exc).__name__, exc))
    run.skipped("launch", "allreduce latency: impossible on 1 GPU (needs >= 2 GPUs and NCCL); not measured")


def section_copy(run, budget_s, sizes_gib):
    torch = run.torch
    end = time.monotonic() + budget_s
    for gib in sizes_gib:
        if time.monotonic() > end or run.left() < 0:
            run.skipped("copy", "%g GiB copy: time budget spent" % gib)
            continue
        n = int(gib * GiB) // 2
        try:
            src = torch.empty(n, dtype=torch.bfloat16, device=run.device)
            dst = torch.empty_like(src)
            src.fill_(1.0)
        except RuntimeError as exc:  # out of memory
            run.skipped("copy", "%g GiB copy: %s" % (gib, str(exc).splitlines()[0]))
            continue
        med, mn, reps = run.measure(lambda i: dst.copy_(src), target_s=0.1, max_samples=20)
        nbytes = 2 * n * 2
        run.row(kind="copy", op="copy_%gGiB" % gib, dtype="bf16", **result_cols(0, nbytes, med, mn, reps))
        run.log("copy %g GiB: %.3f ms, %.3f TB/s (read + write)" % (gib, med * 1e3, nbytes / med / 1e12))
        del src, dst
    if run.cuda:
        torch.cuda.empty_cache()


ATTENTION_CONFIGS = [
    # model label, query heads, kv heads, head_dim (per GPU)
    ("Llama-3.1-70B tp8 (GQA 8:1)", 8, 1, 128),
    ("Llama-3.1-8B tp1 (GQA 32:8)", 32, 8, 128),
    ("MHA 8 heads per GPU (kv_heads = heads)", 8, 8, 128),
]


def section_attention(run, budget_s, batches, contexts):
    torch = run.torch
    F = torch.nn.functional
    if not hasattr(F, "scaled_dot_product_attention"):
        run.skipped("attention", "torch.nn.functional.scaled_dot_product_attention missing (torch %s)" % torch.__version__)
        return
    end = time.monotonic() + budget_s
    todo = [(c, b, s) for c in ATTENTION_CONFIGS for s in contexts for b in batches]
    for idx, ((label, heads, kvh, hd), b, s) in enumerate(todo):
        if time.monotonic() > end or run.left() < 0:
            run.skipped("attention", "%d of %d decode-attention points: time budget spent" % (len(todo) - idx, len(todo)))
            break
        g = heads // kvh
        kv_bytes = 2 * b * s * kvh * hd * 2
        rot = copies_for(kv_bytes)
        try:
            # GQA as SDPA over each KV head: the g query heads that share it are
            # g query positions (no mask: decode attends to the whole cache).
            q = torch.randn(b, kvh, g, hd, dtype=torch.bfloat16, device=run.device)
            k = torch.randn(rot, b, kvh, s, hd, dtype=torch.bfloat16, device=run.device)
            v = torch.randn(rot, b, kvh, s, hd, dtype=torch.bfloat16, device=run.device)
        except RuntimeError as exc:
            run.skipped("attention", "%s b=%d ctx=%d: %s" % (label, b, s, str(exc).splitlines()[0]))
            continue
        try:
            med, mn, reps = run.measure(lambda i: F.scaled_dot_product_attention(q, k[i % rot], v[i % rot]),
                                        target_s=0.02)
        except Exception as exc:  # noqa: BLE001
            run.skipped("attention", "%s b=%d ctx=%d: %s: %s" % (label, b, s, type(exc).__name__, str(exc).splitlines()[0]))
            del q, k, v
            continue
        nbytes = kv_bytes + 2 * b * heads * hd * 2
        flops = 4 * b * heads * s * hd
        run.row(kind="attention", model=label, op="decode_sdpa", dtype="bf16", batch=b, context=s,
                heads=heads, kv_heads=kvh, head_dim=hd, **result_cols(flops, nbytes, med, mn, reps))
        run.log("attention %s b=%d ctx=%d: %.1f us, %.2f TB/s" % (label, b, s, med * 1e6, nbytes / med / 1e12))
        del q, k, v
    if run.cuda:
        torch.cuda.empty_cache()


def section_gemm(run, plan, dtypes, max_prio):
    torch = run.torch
    fp8 = getattr(torch, "float8_e4m3fn", None)
    scaled_mm = getattr(torch, "_scaled_mm", None)
    fp8_reason = None
    if "fp8" in dtypes:
        if fp8 is None or scaled_mm is None:
            fp8_reason = "torch %s has no %s" % (torch.__version__, "float8_e4m3fn" if fp8 is None else "_scaled_mm")
            run.skipped("gemm", "fp8: " + fp8_reason)
    one = torch.ones((), dtype=torch.float32, device=run.device)
    fp8_pad_noted = False
    fp8_failures = 0  # consecutive: three in a row disable fp8 for the rest of the run
    todo = [(p, n, k, ms, tags, op) for (p, n, k, ms, tags, op) in plan if p <= max_prio]
    total = sum(len(ms) * len(dtypes) for (_, _, _, ms, _, _) in todo)
    done = 0
    run.log("gemm: %d shapes (n, k), %d measurements planned" % (len(todo), total))

    def fp8_call(x8, wv):
        def call(i):
            r = scaled_mm(x8, wv[i % len(wv)], scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            return r[0] if isinstance(r, tuple) else r  # torch 2.1-2.3 return (out, amax)
        return call

    for si, (prio, n, k, ms, tags, op) in enumerate(todo):
        model = "|".join(tags)
        for dtype in dtypes:
            if run.left() < 0:
                break
            if dtype == "fp8" and fp8_reason:
                done += len(ms)
                continue
            elt = 1 if dtype == "fp8" else 2
            rot = copies_for(n * k * elt)
            try:
                w = torch.randn(rot, n, k, dtype=torch.bfloat16, device=run.device)  # nn.Linear layout (n, k)
                if dtype == "fp8":
                    w = w.to(fp8)
                wv = [w[j].t() for j in range(rot)]  # (k, n) column-major views, as F.linear and _scaled_mm take them
            except RuntimeError as exc:
                run.skipped("gemm", "%s n=%d k=%d %s: %s" % (op, n, k, dtype, str(exc).splitlines()[0]))
                done += len(ms)
                continue
            ran = set()  # the m's measured for this shape and dtype (padding can repeat one)
            for m in ms:
                if run.left() < 0 or (dtype == "fp8" and fp8_reason):
                    break
                if dtype == "fp8" and (k % 16 or n % 16):
                    # _scaled_mm needs both of the weight's dims in multiples of 16: a shape's
                    # problem, not fp8's (gpt-oss's 360-wide expert slices at TP 8)
                    run.skipped("gemm", "%s m=%d n=%d k=%d fp8: k and n must be multiples of 16 for _scaled_mm"
                                % (op, m, n, k))
                    continue
                done += 1
                mm = m
                try:
                    x = torch.randn(m, k, dtype=torch.bfloat16, device=run.device)
                    if dtype == "bf16":
                        def call(i, x=x):
                            return torch.matmul(x, wv[i % rot])
                    else:
                        call = fp8_call(x.to(fp8), wv)
                        try:
                            call(0)
                        except RuntimeError as exc:
                            if m % 16 == 0:
                                raise
                            # some torch versions want both of mat1's dims divisible by 16: pad the
                            # tokens, as engines do, and record the m that ran
                            mm = ((m + 15) // 16) * 16
                            call = fp8_call(torch.randn(mm, k, dtype=torch.bfloat16, device=run.device).to(fp8), wv)
                            call(0)
                            if not fp8_pad_noted:
                                run.log("gemm fp8: _scaled_mm refused m=%d (%s); padding m to a multiple of 16"
                                        % (m, str(exc).splitlines()[0]))
                                fp8_pad_noted = True
                    if mm in ran:
                        continue  # padded to an m already measured
                    med, mn, reps = run.measure(call)
                except Exception as exc:  # noqa: BLE001
                    msg = "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")
                    run.skipped("gemm", "%s m=%d n=%d k=%d %s: %s" % (op, m, n, k, dtype, msg))
                    if dtype == "fp8":
                        fp8_failures += 1
                        if fp8_failures >= 3:
                            fp8_reason = msg
                            run.skipped("gemm", "fp8 disabled for the rest of the run after 3 failures in a row: " + msg)
                    continue
                ran.add(mm)
                if dtype == "fp8":
                    fp8_failures = 0
                flops = 2 * mm * n * k
                nbytes = mm * k * elt + n * k * elt + mm * n * 2
                run.row(kind="gemm", model=model, op=op, dtype=dtype, m=mm, n=n, k=k,
                        **result_cols(flops, nbytes, med, mn, reps))
            del w, wv
        if si % 10 == 9:
            run.log("gemm: %d of %d shapes, %d of %d measurements, %.0f s left" % (si + 1, len(todo), done, total, run.left()))
        if run.left() < 0:
            break
    if done < total:
        run.skipped("gemm", "%d of %d GEMM measurements not run (time budget or fp8 unavailable)" % (total - done, total))
    if run.cuda:
        torch.cuda.empty_cache()


# --------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.environ.get("OUT"), help="output directory (default: $OUT)")
    ap.add_argument("--budget-s", type=float, default=330.0,
                    help="global deadline in seconds from start; what is left is skipped (default 330)")
    ap.add_argument("--sections", default="launch,copy,attention,gemm")
    ap.add_argument("--dtypes", default="bf16,fp8")
    ap.add_argument("--max-priority", type=int, default=2,
                    help="0: each model's main layout only; 1: + the other h200 layouts; 2: + models without h200 rows")
    ap.add_argument("--smoke", action="store_true", help="a few small shapes only (a check of the script, not data)")
    ap.add_argument("--device", default="cuda", help=argparse.SUPPRESS)  # 'cpu': dry run of the logic
    ap.add_argument("--list", action="store_true", help="print the GEMM plan and exit (no torch needed)")
    args = ap.parse_args(argv)

    plan = gemm_plan()
    dtypes = [d for d in args.dtypes.split(",") if d]
    if args.list:
        for p, n, k, ms, tags, op in plan:
            print("prio %d  %-16s n=%6d k=%6d m=%s  %s" % (p, op, n, k, ",".join(map(str, ms)), "; ".join(tags)))
        print("%d shapes, %d measurements per dtype" % (len(plan), sum(len(x[3]) for x in plan)))
        return 0
    if not args.out:
        print("time_kernels.py: no output directory: give --out DIR or set $OUT", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError as exc:
        print("time_kernels.py: PyTorch is not installed (%s); nothing measured" % exc, file=sys.stderr)
        return 2
    if args.device == "cuda":
        if not torch.cuda.is_available():
            print("time_kernels.py: torch %s sees no CUDA device (torch.version.cuda = %s); nothing measured"
                  % (torch.__version__, torch.version.cuda), file=sys.stderr)
            return 2
    os.makedirs(args.out, exist_ok=True)
    run = Run(args.out, args.budget_s, torch, args.device)
    try:
        if args.device == "cuda":
            torch.cuda.init()
            name = torch.cuda.get_device_name(0)
            props = torch.cuda.get_device_properties(0)
            run.log("device: %s, %.1f GiB, %d SMs, compute capability %d.%d"
                    % (name, props.total_memory / GiB, props.multi_processor_count, props.major, props.minor))
            if "H200" not in name:
                run.log("WARNING: this is not an H200 (%s): the figures are this device's, the file keeps its name" % name)
            run.log("torch %s, CUDA %s, cuDNN %s, Python %s" % (torch.__version__, torch.version.cuda,
                                                             torch.backends.cudnn.version(), platform.python_version()))
            if run.sleep is None:
                run.log("WARNING: torch.cuda._sleep missing: tiny kernels' samples may include host launch gaps")
            torch.backends.cuda.matmul.allow_tf32 = False
        else:
            run.log("DRY RUN on %s: the numbers are not GPU measurements" % args.device)
        run.log("budget: %.0f s from start; %.0f s left" % (args.budget_s, run.left()))
        sections = [s for s in args.sections.split(",") if s]
        smoke = args.smoke or args.device != "cuda"
        for sec in sections:
            if run.left() < 0:
                run.skipped(sec, "global time budget spent before the section started")
                continue
            t = time.monotonic()
            run.log("== %s ==" % sec)
            try:
                if sec == "launch":
                    section_launch(run, 10)
                elif sec == "copy":
                    section_copy(run, 30, (1 / 64,) if smoke else (1, 4, 8))
                elif sec == "attention":
                    section_attention(run, 60, (1, 16) if smoke else (1, 16, 64, 256),
                                      (1024,) if smoke else (1024, 4096, 8192))
                elif sec == "gemm":
                    p = plan[:3] if smoke else plan
                    if smoke:
                        p = [(pr, n, k, [m for m in ms if m <= 8] or ms[:1], tags, op) for (pr, n, k, ms, tags, op) in p]
                    section_gemm(run, p, dtypes, args.max_priority)
                else:
                    run.skipped(sec, "unknown section")
            except Exception as exc:  # noqa: BLE001  a section's failure must not lose the others
                import traceback
                run.log(traceback.format_exc())
                run.skipped(sec, "section failed: %s: %s" % (type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""))
            run.log("== %s done in %.1f s ==" % (sec, time.monotonic() - t))
        run.log("wrote %d rows to %s; total %.1f s" % (run.rows, run.path, time.monotonic() - T0))
    finally:
        run.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
