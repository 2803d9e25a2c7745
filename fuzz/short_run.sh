#!/usr/bin/env bash
# Fuzzes one target briefly (the CTest label `fuzz`, test fuzz.<target>.run, which the CI
# preset registers): a fixed seed, so a run explores the same inputs on every machine up to
# its time budget; new inputs and any crash go to a scratch folder, never into fuzz/corpus.
#   short_run.sh BINARY CORPUS_DIR SECONDS
set -euo pipefail
binary=$1
corpus=$2
seconds=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/berth-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/new" "$scratch/artifacts"
# The committed corpus is read as a second folder: libFuzzer writes only into the first.
if ! "$binary" -seed=1 -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
    -artifact_prefix="$scratch/artifacts/" -print_final_stats=1 \
    "$scratch/new" "$corpus" >"$scratch/log" 2>&1; then
  tail -n 60 "$scratch/log" >&2
  for f in "$scratch"/artifacts/*; do
    [ -e "$f" ] || continue
    echo "reproducer ($(basename "$f")), base64:" >&2
    base64 -w 100 "$f" | head -n 40 >&2
  done
  exit 1
fi
grep -E "stat::number_of_executed_units|stat::new_units_added" "$scratch/log" || true
