#!/usr/bin/env bash
# Copies the seed corpus for fuzz_scenario into a folder (default
# build-fuzz/seeds): every shipped scenario, template and diagnostics golden
# input, each under a name of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-build-fuzz/seeds}
mkdir -p "$dest"
shopt -s globstar nullglob
for f in scenarios/*.roof templates/**/*.roof tests/golden/diagnostics/*.roof; do
  cp "$f" "$dest/$(echo "$f" | tr '/' '_')"
done
echo "$(ls "$dest" | wc -l) seeds in $dest"
