#!/usr/bin/env bash
# Times `roofline run` on generated scenarios of about 33,000, 330,000 and
# 1,000,000 cases (10 matmuls x 8 targets x a sweep), with peak memory
# (/usr/bin/time -v), file sizes, and the workbook's own floor: the time to
# deflate the produced report.xlsx's XML parts at zlib level 6, measured in
# the same run (reports.md, "How fast is fast enough").
#
#   bench/report_bench.sh [build/roofline] [sweep sizes...]
#
# VARIANT=gpu runs the same ops on eight chips with NVLink (seven of the
# catalog and a copy of the B200); VARIANT=mesh adds `mesh tp = 8 over nvlink`
# and splits them Megatron-style (up column-parallel, down row-parallel with
# an AllReduce): gpu against mesh is the cost of the network (multichip.md).
set -euo pipefail
variant=${VARIANT:-plain}
roofline=$(realpath "${1:-build/roofline}")
shift || true
sizes=("${@:-410 4096 12500}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() {  # $1 = sweep size
    {
        echo "scenario \"report benchmark\""
        echo "include \"hardware/catalog.roof\""
        local split=""
        if [ "$variant" = plain ]; then
            echo "target tpu_v5e, tpu_v5p, tpu_v6e, tpu7x, a100_80gb, h100_sxm, h200, b200"
        else
            echo "hardware b200_copy extends b200 { name = \"B200 (a copy)\" }"
            echo "target v100_sxm2, a100_80gb, h100_sxm, h200, b200, mi300x, mi325x, b200_copy"
        fi
        if [ "$variant" = mesh ]; then
            echo "mesh tp = 8 over nvlink"
            split="@tp"
        fi
        echo "sweep B = 1 .. $1"
        echo "let D = 8192"
        echo "let F = 28672"
        for i in 0 1 2 3 4; do
            echo "layer block$i x 2 {"
            echo "    matmul up = bf16[B, D] * bf16[D, F$split] -> bf16[B, F$split]"
            echo "    matmul down = bf16[B, F$split] * int8[F$split, D] -> bf16[B, D]"
            echo "}"
        done
    }
}

printf '%-9s %-8s %-9s %-11s %-12s %-10s %-10s %s\n' cases run_s peak_MB xlsx_MB csv_MB floor_s ratio charts
for n in ${sizes[@]}; do
    generate "$n" > "$work/gen.roof"
    out="$work/out-$n"
    /usr/bin/time -v "$roofline" run "$work/gen.roof" -o "$out" --force \
        > "$work/run.log" 2> "$work/time.log"
    seconds=$(grep "Elapsed (wall clock)" "$work/time.log" | awk '{print $NF}' |
              awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    rss_kb=$(grep "Maximum resident set size" "$work/time.log" | awk '{print $NF}')
    version="$out/gen/latest"
    cases=$(python3 -c "import json; print(json.load(open('$version/manifest.json'))['cases'])")
    floor=$(python3 - "$version/report.xlsx" <<'PY'
import sys, time, zipfile, zlib
with zipfile.ZipFile(sys.argv[1]) as z:
    parts = [z.read(name) for name in z.namelist()]
start = time.perf_counter()
for data in parts:
    zlib.compress(data, 6)
print(f"{time.perf_counter() - start:.2f}")
PY
)
    xlsx=$(du -m "$version/report.xlsx" | cut -f1)
    csv=$(du -m "$version/cases.csv" | cut -f1)
    charts=$(ls "$version/charts" | wc -l)
    ratio=$(python3 -c "print(f'{$seconds / max($floor, 1e-9):.2f}')")
    printf '%-9s %-8s %-9s %-11s %-12s %-10s %-10s %s\n' "$cases" "$seconds" "$((rss_kb / 1024))" \
        "$xlsx" "$csv" "$floor" "$ratio" "$charts files"
done
