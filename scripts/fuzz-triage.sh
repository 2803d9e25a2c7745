#!/usr/bin/env bash
# Groups fuzzing findings by cause: runs each reproducer through its target once and prints
# one line per distinct (error kind, first berth frame), with a count and one example file.
#   scripts/fuzz-triage.sh TARGET FILE...
# TARGET is the short name (plan, reader, ...); the binary is build/fuzz/fuzz/berth_TARGET_fuzz.
set -uo pipefail
cd "$(dirname "$0")/.."
target=$1
shift
binary=build/fuzz/fuzz/berth_${target}_fuzz
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
declare -A count example
for f in "$@"; do
  out=$("$binary" -timeout=25 -rss_limit_mb=2560 "$f" 2>&1)
  kind=$(grep -m1 -oE 'runtime error: [^/]{0,60}|ERROR: AddressSanitizer: [a-z-]+|ERROR: libFuzzer: [a-z-]+|Check failed[^\n]{0,80}|berth fuzz property failed: [^:]*|BERTH_CHECK[^\n]{0,80}' <<<"$out")
  frame=$(sed 's/(anonymous namespace):://g' <<<"$out" | grep -m1 -oE 'in berth::[^(]*')
  [ -n "$kind" ] || kind="no failure on replay"
  key="$kind | ${frame:-?}"
  count[$key]=$(( ${count[$key]:-0} + 1 ))
  example[$key]=${example[$key]:-$f}
done
for key in "${!count[@]}"; do
  echo "${count[$key]}x  $key  e.g. ${example[$key]}"
done | sort -rn
