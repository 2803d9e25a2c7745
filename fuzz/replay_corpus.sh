#!/usr/bin/env bash
# Replays every file of a corpus folder through a libFuzzer binary without fuzzing (the
# CTest label `fuzz`): libFuzzer runs the files given on its command line once each and
# exits non-zero at the first crash, sanitizer report or timeout.
#   replay_corpus.sh BINARY CORPUS_DIR
set -euo pipefail
binary=$1
corpus=$2
shopt -s nullglob
files=("$corpus"/*)
if [ ${#files[@]} -eq 0 ]; then
  echo "no corpus files in $corpus" >&2
  exit 1
fi
# Batches keep the command line short; -timeout matches the fuzzing runs (fuzz/README.md).
for ((i = 0; i < ${#files[@]}; i += 200)); do
  "$binary" -timeout=25 -rss_limit_mb=2560 "${files[@]:i:200}" >/dev/null 2>"${TMPDIR:-/tmp}/replay.$$.err" || {
    cat "${TMPDIR:-/tmp}/replay.$$.err" >&2
    rm -f "${TMPDIR:-/tmp}/replay.$$.err"
    exit 1
  }
done
rm -f "${TMPDIR:-/tmp}/replay.$$.err"
echo "replayed ${#files[@]} inputs"
