#!/usr/bin/env python3
"""How far could TTFT's error fall? Bounds from a validation report's rows.

    python3 scripts/calibration/ttft_bounds.py out/validate-serving-train/vN/rows.csv

Two measures on the rows `roofline validate` wrote (docs/calibration.md,
section 3a), both of the median absolute percentage error of the mean TTFT:

1. Oracle levels: each row's log error minus the median log error of its
   group of rows (one series, one configuration over its lengths, one model
   on a chip and engine, ...). What is left is what no per-group constant can
   take: a floor for any correction of that grain, in sample.
2. Corrections fitted per chip x engine on top of the predictions: the log
   error regressed (least absolute deviations, by reweighted least squares)
   on the row's log prompt and output lengths, log concurrency and its
   square, the log of the predicted TPOT, an MLA flag, or a level per model;
   cross-validated by whole series (5 folds by a CRC-32 of the series key),
   as `roofline calibrate` judges its own fit.

Needs numpy (Debian: python3-numpy). Analysis only: nothing in the tool
reads this script.
"""
import collections
import csv
import math
import statistics
import sys
import zlib

import numpy as np


def log_error(r):
    return math.log(float(r["predicted_ttft_ms"]) / float(r["measured_ttft_ms"]))


def ape(log_residual):
    return abs(math.exp(log_residual) - 1)


def oracle(rows, key):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[key(r)].append(log_error(r))
    left = []
    for errors in groups.values():
        level = statistics.median(errors)
        left += [ape(e - level) for e in errors]
    return 100 * statistics.median(left)


def least_absolute(X, y, iterations=50):
    w = np.ones(len(y))
    b = np.zeros(X.shape[1])
    for _ in range(iterations):
        root = np.sqrt(w)
        b, *_ = np.linalg.lstsq(X * root[:, None], y * root, rcond=None)
        w = 1 / np.maximum(np.abs(y - X @ b), 1e-3)
    return b


def features(r, which, models):
    f = [1.0]
    c = math.log(int(r["batch"]))
    if "isl" in which:
        f.append(math.log(int(r["isl"])))
    if "osl" in which:
        f.append(math.log(int(r["osl"])))
    if "c" in which:
        f += [c, c * c]
    if "tpot" in which:
        f.append(math.log(float(r["predicted_tpot_ms"])))
    if "mla" in which:
        f.append(1.0 if ("DeepSeek" in r["model"] or "Kimi" in r["model"]) else 0.0)
    if "model" in which:
        f += [1.0 if r["model"] == m else 0.0 for m in models]
    return f


def corrected(rows, which):
    models = sorted({r["model"] for r in rows})[1:]
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["system"], r["backend"])].append(r)
    fit, cv = [], []
    for group in groups.values():
        X = np.array([features(r, which, models) for r in group])
        y = np.array([log_error(r) for r in group])
        b = least_absolute(X, y)
        fit += [ape(e) for e in y - X @ b]
        folds = collections.defaultdict(list)
        for i, r in enumerate(group):
            series = "|".join((r["model"], r["precision"], r["layout"], r["isl"], r["osl"]))
            folds[zlib.crc32(series.encode()) % 5].append(i)
        for held in folds.values():
            out = set(held)
            train = [i for i in range(len(group)) if i not in out]
            if len(train) < X.shape[1] + 2:  # too few to fit: no correction
                cv += [ape(y[i]) for i in held]
                continue
            b = least_absolute(X[train], y[train])
            cv += [ape(y[i] - X[i] @ b) for i in held]
    return 100 * statistics.median(fit), 100 * statistics.median(cv)


def main(path):
    rows = list(csv.DictReader(open(path, newline="")))
    config = lambda r: (r["system"], r["backend"], r["model"], r["precision"], r["layout"])
    print(f"{len(rows)} rows; TTFT median APE as predicted: "
          f"{100 * statistics.median(ape(log_error(r)) for r in rows):.1f} %")
    print("\noracle levels (in sample): what is left after one level per")
    for name, key in [
        ("series (configuration x lengths)", lambda r: config(r) + (r["isl"], r["osl"])),
        ("configuration x prompt length", lambda r: config(r) + (r["isl"],)),
        ("configuration x output length", lambda r: config(r) + (r["osl"],)),
        ("configuration", config),
        ("chip x engine x model", lambda r: (r["system"], r["backend"], r["model"])),
        ("chip x engine x concurrency", lambda r: (r["system"], r["backend"], r["batch"])),
        ("chip x engine", lambda r: (r["system"], r["backend"])),
    ]:
        print(f"  {name:36s} {oracle(rows, key):5.1f} %")
    print("\ncorrections per chip x engine on top (in sample / cross-validated by series):")
    for which in [(), ("isl",), ("isl", "osl"), ("isl", "osl", "c"), ("isl", "osl", "c", "tpot"),
                  ("isl", "osl", "c", "tpot", "mla"), ("isl", "osl", "c", "model")]:
        fit, cv = corrected(rows, which)
        print(f"  {' + '.join(('level',) + which):36s} {fit:5.1f} % / {cv:5.1f} %")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
