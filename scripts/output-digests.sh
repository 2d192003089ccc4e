#!/usr/bin/env bash
# Prints the SHA-256 of every file that `roofline run` and `roofline diff`
# write, for comparing two builds byte for byte (a refactoring must not change
# a byte). The report is scenarios/llama3-70b-decode.roof and the diff is that
# report against the same scenario with one more op on other targets (so
# matched, only-A and only-B cases all appear), by hardware id and with --pair;
# the terminal output of both and of an `eval` table too; then every shipped
# scenario under scenarios/ (a report each, with its terminal output), the
# hardware catalog's listing and one chip's, and `import` of a Llama-like
# config.json written in the script.
# The fields that differ from run to run (created_utc in manifest.json and
# diff.json, the manifests' hashes in diff.json) are blanked before hashing,
# and the temporary folder's, the checkout's and the templates folder's paths
# are taken out of them (so two checkouts compare).
#
#   scripts/output-digests.sh [build/roofline] > digests.txt
set -euo pipefail
roofline=$(realpath "${1:-build/roofline}")
root=$(cd "$(dirname "$0")/.." && pwd)
templates=$("$roofline" --version | sed -n 's/^templates: //p')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cp "$root/scenarios/llama3-70b-decode.roof" a.roof
{
    sed 's/^target .*/target h100_sxm, h200, b200, mi325x/' "$root/scenarios/llama3-70b-decode.roof"
    echo 'let Ex = 1024'
    echo 'matmul extra = bf16[B, D] * bf16[D, Ex] -> bf16[B, Ex]'
} > b.roof
"$roofline" run a.roof -o out -I "$root/scenarios" > run-a.log
"$roofline" run b.roof -o out -I "$root/scenarios" > run-b.log
"$roofline" eval "bf16[B, D] * int8[D, F] -> bf16[B, F]" --set B=[1,64,512] --set D=8192 \
    --set F=28672 --target h100_sxm --target tpu_v5e --target mi300x > eval.log
"$roofline" diff out/a/v1 out/b/v1 -o out > diff.log
"$roofline" diff out/a/v1 out/b/v1 -o out --pair h100_sxm=b200 --pair mi300x=mi325x > diff-pairs.log
logs=(run-a run-b eval diff diff-pairs)
for s in "$root"/scenarios/*.roof; do
    name=$(basename "$s" .roof)
    "$roofline" run "$s" -o shipped -I "$root/scenarios" > "shipped-$name.log"
    logs+=("shipped-$name")
done
"$roofline" hardware > hardware.log
"$roofline" hardware h100_sxm > hardware-h100.log
logs+=(hardware hardware-h100)
cat > llama.json <<'JSON'
{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336,
 "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
 "vocab_size": 128256, "tie_word_embeddings": false, "max_position_embeddings": 131072,
 "torch_dtype": "bfloat16", "rms_norm_eps": 1e-5}
JSON
"$roofline" import llama.json -o llama.roof > import-llama.log
logs+=(import-llama)

find out shipped llama.roof -type f ! -name '.lock' | LC_ALL=C sort | while read -r f; do
    case "$f" in
    *manifest.json | */diff.json)
        sed -e 's/"created_utc": "[^"]*"/"created_utc": ""/' \
            -e 's/"manifest_sha256": "[^"]*"/"manifest_sha256": ""/' \
            -e "s#$work/##g" -e "s#$templates/#TEMPLATES/#g" -e "s#$root/#ROOT/#g" "$f" | sha256sum | sed "s#-\$#$f#" ;;
    *) sha256sum "$f" ;;
    esac
done
for log in "${logs[@]}"; do
    # Elapsed times differ from run to run.
    sed -E 's/in [0-9.]+ s$/in T s/' "$log.log" | sha256sum | sed "s#-\$#$log.log (terminal)#"
done
