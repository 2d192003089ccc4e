#!/usr/bin/env python3
"""Compare kernel timings (time_kernels.py's CSV) with the catalog's h200 figures
and with a calibration's factors; print a Markdown report.

    python3 scripts/h200/compare_kernels.py OUT/h200_kernels.csv \\
        [--calibration FILE.roof [--name NAME]] [--catalog templates/hardware/nvidia.roof]

Efficiencies are measured / catalog: achieved FLOP/s over the dtype's peak,
achieved B/s over the HBM bandwidth; "roofline" is t_roofline / t_measured =
max(flops / peak, bytes / bandwidth) / t. "cal / meas" is the calibration's
t_expected = max(t_math / e_math, t_hbm / e_hbm) + launch (docs/calibration.md
section 1) over the measured time: 1.00 is a calibration that predicts the
kernel; < 1 predicts it faster than it ran. Standard library only.
Lines of the CSV that start with '#' are comments.
"""
import argparse
import csv
import math
import os
import re
import statistics
import sys

# The catalog's h200 entry (templates/hardware/nvidia.roof), the defaults.
CATALOG_H200 = {"bf16": 9.89e14, "fp8": 1.979e15, "hbm": 4.8e12}

NUM = r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
BW_UNITS = {"B/s": 1.0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12}


def strip_comment(line):
    # a '#' outside a string starts a comment
    out, q = [], False
    for ch in line:
        if ch == '"':
            q = not q
        if ch == "#" and not q:
            break
        out.append(ch)
    return "".join(out)


def blocks(text, keyword):
    """{(name, for_hw): body} of `keyword NAME [for HW] { ... }` blocks (no nesting needed)."""
    found = []
    for mt in re.finditer(r"^\s*%s\s+([\w.-]+)(?:\s+for\s+([\w.-]+))?\s*\{" % keyword, text, re.M):
        end = text.find("}", mt.end())
        found.append((mt.group(1), mt.group(2), text[mt.end(): end if end >= 0 else len(text)]))
    return found


class Calibration:
    def __init__(self):
        self.name = None
        self.hardware = None
        self.math = {}        # (class, dtype) -> e
        self.hbm_class = {}   # class -> e
        self.hbm = None
        self.onchip = None
        self.network = None
        self.latency = {}     # (kind, link) -> s
        self.over = {"launch": 0.0, "step_overhead": 0.0, "layer_overhead": 0.0, "sequence_overhead": 0.0}
        self.given = set()

    def e_math(self, cls, dtype):
        return self.math.get((cls, dtype), 1.0)

    def e_hbm(self, cls):
        if cls in self.hbm_class:
            return self.hbm_class[cls]
        return 1.0 if self.hbm is None else self.hbm

    def describe_hbm(self, cls):
        if cls in self.hbm_class:
            return "efficiency %s hbm = %g" % (cls, self.hbm_class[cls])
        if self.hbm is not None:
            return "efficiency hbm = %g" % self.hbm
        return "e_hbm = 1 (not given)"

    def describe_math(self, cls, dtype):
        if (cls, dtype) in self.math:
            return "efficiency %s %s = %g" % (cls, dtype, self.math[(cls, dtype)])
        return "e_math %s %s = 1 (not given)" % (cls, dtype)


def parse_calibration(text, want=None):
    cal = Calibration()
    found = blocks(text, "calibration")
    body = text
    if found:
        pick = None
        for name, hw, b in found:
            if want and name == want:
                pick = (name, hw, b)
        if not pick and not want:
            for name, hw, b in found:
                if hw in ("h200", "h200_sxm"):
                    pick = (name, hw, b)
                    break
            pick = pick or found[0]
        if not pick:
            raise SystemExit("compare_kernels.py: no calibration named %r (found: %s)"
                             % (want, ", ".join(n for n, _, _ in found)))
        cal.name, cal.hardware, body = pick
    for raw in body.splitlines():
        line = strip_comment(raw).strip()
        if not line:
            continue
        mt = re.match(r"efficiency\s+(hbm|onchip|network)\s*=\s*%s$" % NUM, line)
        if mt:
            setattr(cal, mt.group(1), float(mt.group(2)))
            cal.given.add(line)
            continue
        mt = re.match(r"efficiency\s+(\w+)\s+(\w+)\s*=\s*%s$" % NUM, line)
        if mt:
            cls, what, val = mt.group(1), mt.group(2), float(mt.group(3))
            if what == "hbm":
                cal.hbm_class[cls] = val
            else:
                cal.math[(cls, what)] = val
            cal.given.add(line)
            continue
        mt = re.match(r"(launch|step_overhead|layer_overhead|sequence_overhead)\s*=\s*%s\s*(s|ms|us|µs|ns)?$" % NUM, line)
        if mt:
            cal.over[mt.group(1)] = float(mt.group(2)) * TIME_UNITS[mt.group(3) or "s"]
            continue
        mt = re.match(r"latency\s+(\w+)\s+(\w+)\s*=\s*%s\s*(s|ms|us|µs|ns)?$" % NUM, line)
        if mt:
            cal.latency[(mt.group(1), mt.group(2))] = float(mt.group(3)) * TIME_UNITS[mt.group(4) or "s"]
    return cal


def parse_catalog(text, hw):
    """peak bf16 / fp8 and hbm_bandwidth of `hardware HW { ... }`."""
    for name, _, body in blocks(text, "hardware"):
        if name != hw:
            continue
        got = {}
        for raw in body.splitlines():
            line = strip_comment(raw).strip()
            mt = re.match(r"peak\s+(bf16|fp8)\s*=\s*%s\s*(?:FLOP/s)?$" % NUM, line)
            if mt:
                got[mt.group(1)] = float(mt.group(2))
            mt = re.match(r"hbm_bandwidth\s*=\s*%s\s*([KMGT]?B/s)?$" % NUM, line)
            if mt:
                got["hbm"] = float(mt.group(1)) * BW_UNITS[mt.group(2) or "B/s"]
        return got
    raise SystemExit("compare_kernels.py: no `hardware %s` in the catalog" % hw)


def read_rows(path):
    with open(path, newline="") as f:
        lines = [ln for ln in f if not ln.lstrip().startswith("#")]
    return list(csv.DictReader(lines))


def num(row, key):
    v = (row.get(key) or "").strip()
    try:
        return float(v)
    except ValueError:
        return None


def stats(vals):
    vals = [v for v in vals if v is not None and math.isfinite(v)]
    if not vals:
        return "–"
    return "%.2f [%.2f–%.2f]" % (statistics.median(vals), min(vals), max(vals))


def us(s):
    return "%.2f µs" % (s * 1e6)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="time_kernels.py's h200_kernels.csv")
    ap.add_argument("--calibration", help="a .roof file with a `calibration NAME for h200 { ... }` block (or bare lines)")
    ap.add_argument("--name", help="which calibration block (default: the first `for h200`/`h200_sxm`, else the first)")
    ap.add_argument("--catalog", help="read the peaks from this catalog (e.g. templates/hardware/nvidia.roof)")
    ap.add_argument("--hardware", default="h200", help="the catalog entry (default h200)")
    ap.add_argument("--peak-bf16", type=float, help="FLOP/s (default: catalog h200, %g)" % CATALOG_H200["bf16"])
    ap.add_argument("--peak-fp8", type=float, help="FLOP/s (default: catalog h200, %g)" % CATALOG_H200["fp8"])
    ap.add_argument("--hbm", type=float, help="B/s (default: catalog h200, %g)" % CATALOG_H200["hbm"])
    ap.add_argument("--decode-max-m", type=int, default=256, help="GEMMs with m <= this are decode-size (default 256)")
    args = ap.parse_args(argv)

    peaks = dict(CATALOG_H200)
    if args.catalog:
        with open(args.catalog) as f:
            peaks.update(parse_catalog(f.read(), args.hardware))
    for key, val in (("bf16", args.peak_bf16), ("fp8", args.peak_fp8), ("hbm", args.hbm)):
        if val is not None:
            peaks[key] = val
    cal = Calibration()
    if args.calibration:
        with open(args.calibration) as f:
            cal = parse_calibration(f.read(), args.name)
    rows = read_rows(args.csv)
    launch = cal.over["launch"]
    hbm = peaks["hbm"]

    out = []
    p = out.append
    calname = ("`%s`%s" % (cal.name, " for %s" % cal.hardware if cal.hardware else "")) if cal.name else \
        ("`%s`" % os.path.basename(args.calibration) if args.calibration else "none (uncalibrated: every factor 1, overheads 0)")
    p("### H200 kernels: measured efficiency against the catalog, beside the calibration")
    p("")
    p("Kernels: `%s` (%d rows). Catalog `%s`: peak bf16 %.4g FLOP/s, peak fp8 %.4g FLOP/s, HBM %.4g B/s. "
      "Calibration: %s." % (os.path.basename(args.csv), len(rows), args.hardware, peaks["bf16"], peaks["fp8"], hbm, calname))
    p("Figures are median [min–max] over the rows of each group. *compute* = achieved FLOP/s ÷ peak, "
      "*HBM* = achieved B/s ÷ bandwidth, *roofline* = max(flops/peak, bytes/bandwidth) ÷ t, "
      "*cal ÷ meas* = the calibration's t_expected (max(t_math/e_math, t_hbm/e_hbm) + launch) ÷ measured t.")
    p("")

    # ---- GEMMs
    gemm = [r for r in rows if r.get("kind") == "gemm" and num(r, "seconds_median")]
    p("#### GEMMs (e_math per dtype; e_hbm of the gemm class)")
    p("")
    if gemm:
        p("| GEMMs | dtype | rows | memory-bound | compute | HBM | roofline | calibration | cal ÷ meas |")
        p("| --- | --- | ---: | ---: | --- | --- | --- | --- | --- |")
        for regime in ("decode", "prefill"):
            for dtype in sorted({r["dtype"] for r in gemm}):
                grp = [r for r in gemm if r["dtype"] == dtype and
                       ((num(r, "m") or 0) <= args.decode_max_m) == (regime == "decode")]
                if not grp:
                    continue
                peak = peaks.get(dtype)
                comp, bw, roof, ratio, membound = [], [], [], [], 0
                for r in grp:
                    t, fl, by = num(r, "seconds_median"), num(r, "flops") or 0, num(r, "bytes") or 0
                    tm = fl / peak if peak else 0
                    th = by / hbm
                    membound += th > tm
                    if peak:
                        comp.append(tm / t)
                    bw.append(th / t)
                    roof.append(max(tm, th) / t)
                    em, eh = cal.e_math("gemm", dtype), cal.e_hbm("gemm")
                    ratio.append((max(tm / em, th / eh) + launch) / t)
                label = "decode-size (m ≤ %d)" % args.decode_max_m if regime == "decode" else \
                    "prefill-size (m > %d)" % args.decode_max_m
                p("| %s | %s | %d | %d%% | %s | %s | %s | %s; %s | %s |" % (
                    label, dtype, len(grp), round(100 * membound / len(grp)), stats(comp), stats(bw), stats(roof),
                    cal.describe_math("gemm", dtype), cal.describe_hbm("gemm"), stats(ratio)))
        p("")
        p("Decode-size GEMMs are memory-bound: compare their *HBM* column with e_hbm; "
          "prefill-size ones compute-bound: their *compute* column with e_math.")
    else:
        p("No GEMM rows.")
    p("")

    # ---- attention
    att = [r for r in rows if r.get("kind") == "attention" and num(r, "seconds_median")]
    p("#### Decode attention over a bf16 KV cache (e_hbm of the attention class)")
    p("")
    if att:
        eh = cal.e_hbm("attention")
        p("| config | rows | HBM | calibration | cal ÷ meas |")
        p("| --- | ---: | --- | --- | --- |")
        configs = []
        for r in att:
            if r["model"] not in configs:
                configs.append(r["model"])
        for c in configs:
            grp = [r for r in att if r["model"] == c]
            bw = [num(r, "bytes") / hbm / num(r, "seconds_median") for r in grp]
            ratio = [(num(r, "bytes") / hbm / eh + launch) / num(r, "seconds_median") for r in grp]
            p("| %s | %d | %s | %s | %s |" % (c, len(grp), stats(bw), cal.describe_hbm("attention"), stats(ratio)))
        p("")
        p("HBM efficiency by batch (rows) and context (columns):")
        p("")
        for c in configs:
            grp = [r for r in att if r["model"] == c]
            ctxs = sorted({int(num(r, "context")) for r in grp})
            bats = sorted({int(num(r, "batch")) for r in grp})
            p("*%s*" % c)
            p("")
            p("| batch | " + " | ".join("ctx %d" % x for x in ctxs) + " |")
            p("| ---: |" + " ---: |" * len(ctxs))
            for b in bats:
                cells = []
                for x in ctxs:
                    hit = [r for r in grp if int(num(r, "batch")) == b and int(num(r, "context")) == x]
                    cells.append("%.2f" % (num(hit[0], "bytes") / hbm / num(hit[0], "seconds_median")) if hit else "–")
                p("| %d | %s |" % (b, " | ".join(cells)))
            p("")
        p("These are PyTorch SDPA kernels (no split-KV), not the engines' decode kernels (FlashInfer, XQA, "
          "FlashMLA): at small batch they under-use the GPU, so read small-batch figures as a floor.")
    else:
        p("No attention rows.")
    p("")

    # ---- copy
    cp = [r for r in rows if r.get("kind") == "copy" and num(r, "seconds_median")]
    p("#### HBM copy (e_hbm of every other class)")
    p("")
    if cp:
        p("| copy | bytes moved | time | achieved | HBM | calibration |")
        p("| --- | ---: | ---: | ---: | --- | --- |")
        for r in cp:
            t, by = num(r, "seconds_median"), num(r, "bytes")
            p("| %s | %.3g | %.3f ms | %.3f TB/s | %.2f | %s |" % (r["op"], by, t * 1e3, by / t / 1e12, by / t / hbm,
                                                                 cal.describe_hbm("elementwise")))
    else:
        p("No copy rows.")
    p("")

    # ---- launch
    ln = [r for r in rows if r.get("kind") == "launch" and num(r, "seconds_median")]
    p("#### Launch (the calibration's `launch`, per op)")
    p("")
    if ln:
        p("| measurement | median | min |")
        p("| --- | ---: | ---: |")
        for r in ln:
            p("| %s | %s | %s |" % (r["op"], us(num(r, "seconds_median")), us(num(r, "seconds_min") or float("nan"))))
        p("")
        p("Calibration: launch = %s; step_overhead = %s, layer_overhead = %s, sequence_overhead = %s. "
          "The fitted launch also carries what one op costs an engine beyond its kernel (synchronisation, "
          "small kernels around it), so expect it above the bare GPU figures." % (
              us(launch), us(cal.over["step_overhead"]), us(cal.over["layer_overhead"]),
              us(cal.over["sequence_overhead"])))
    else:
        p("No launch rows.")
    p("")

    sk = [r for r in rows if r.get("kind") == "skipped"]
    if sk:
        p("#### Not measured")
        p("")
        for r in sk:
            p("- %s: %s" % (r.get("model", ""), r.get("op", "")))
        p("")
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
