#!/usr/bin/env bash
# Copies the seed corpus for fuzz_import into a folder (default
# build-fuzz/import-seeds): every config under ../shared/measured/configs
# (recursively; skipped when ../shared is not beside the clone) and each
# config.json written out in tests/test_import.cpp (`char const* const NAME =
# R"({ ... })";`), each under a name of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-build-fuzz/import-seeds}
mkdir -p "$dest"
shared=../shared/measured/configs
if [ -d "$shared" ]; then
  find "$shared" -type f -name '*.json' -print0 | while IFS= read -r -d '' f; do
    cp "$f" "$dest/shared_$(echo "${f#"$shared"/}" | tr '/' '_')"
  done
else
  echo "no $shared: only the tests' configs" >&2
fi
awk -v dest="$dest" '
  /^char const\* const [A-Za-z0-9_]+ = R"\(\{$/ { name = $4; file = dest "/test_import_" name ".json"; print "{" > file; next }
  file != "" && /^\}\)";$/ { print "}" > file; close(file); file = ""; next }
  file != "" { print > file }
' tests/test_import.cpp
echo "$(ls "$dest" | wc -l) seeds in $dest"
