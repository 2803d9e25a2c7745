#!/usr/bin/env bash
# Builds berth's libFuzzer targets (the `fuzz` preset, build/fuzz) and runs each for a
# bounded time (docs/fuzzing.md). Used by `make fuzz` and the CI fuzz step.
#
#   scripts/fuzz-ci.sh [--seconds N] [--jobs J] [--targets "a b ..."] [--replay] [--merge]
#
#   --seconds N  fuzz each target for N seconds (default 60; FUZZ_SECONDS also sets it)
#   --jobs J     targets fuzzed at once (default 2: the machine's cores)
#   --targets    a subset, by name (plan, reader, cel, ...); default every target
#   --replay     only replay the committed corpora (ctest -L fuzz), no fuzzing
#   --merge      seed and minimize fuzz/corpus/<target> (fuzz/seed_corpus.py, -merge=1)
#
# Inputs found while fuzzing go to build/fuzz/corpus/<target> (not committed). A crash,
# timeout or out-of-memory input is written to fuzz/corpus/<target>/ as crash-*, timeout-*
# or oom-* (libFuzzer's names), where the corpus replay test picks it up, and the script
# exits 1 after listing them. Fix the bug, keep the file: it is the regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
jobs=2
targets=""
replay=0
merge=0
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --replay) replay=1; shift ;;
    --merge) merge=1; shift ;;
    *) echo "fuzz-ci.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

all_targets="yaml_documents json_documents list_split quantity selector cel reader object
  scheduler_config kueue_config trace openb scenario plan decode_cache api"
targets=${targets:-$all_targets}

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake --preset fuzz "${launcher[@]}" >/dev/null
build_targets=()
for t in $targets; do build_targets+=("berth_${t}_fuzz"); done
nice cmake --build --preset fuzz --target "${build_targets[@]}"

if [ "$replay" = 1 ]; then
  exec ctest --test-dir build/fuzz/fuzz -L fuzz --output-on-failure -j "$jobs"
fi

# The longest input each target is given: objects and plans get room for a few documents,
# the rest a line or a short file.
max_len() {
  case $1 in
    plan | reader | decode_cache | object | yaml_documents | json_documents | list_split) echo 16384 ;;
    trace | openb | scenario | scheduler_config | kueue_config | selector) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

if [ "$merge" = 1 ]; then
  seeds=$(mktemp -d)
  python3 fuzz/seed_corpus.py "$seeds"
  for t in $targets; do
    mkdir -p "fuzz/corpus/$t" "$seeds/$t"
    merged=$(mktemp -d)
    # -merge=1 keeps the inputs of the committed corpus first, then the seeds that add
    # coverage; the result replaces the committed folder (crash files are kept as they are).
    "build/fuzz/fuzz/berth_${t}_fuzz" -merge=1 -timeout=25 -rss_limit_mb=2560 \
      -max_len="$(max_len "$t")" "$merged" "fuzz/corpus/$t" "$seeds/$t" 2>"$merged.log" ||
      { tail -20 "$merged.log" >&2; exit 1; }
    find "fuzz/corpus/$t" -maxdepth 1 -type f ! -name 'crash-*' ! -name 'timeout-*' \
      ! -name 'oom-*' -delete
    for f in "$merged"/*; do
      [ -e "$f" ] && cp "$f" "fuzz/corpus/$t/seed-$(basename "$f" | cut -c1-16)"
    done
    echo "$t: $(ls "fuzz/corpus/$t" | wc -l) corpus files"
    rm -rf "$merged" "$merged.log"
  done
  rm -rf "$seeds"
  exit 0
fi

run_one() {
  local t=$1 rc=0
  local work="build/fuzz/corpus/$t"
  mkdir -p "$work" "fuzz/corpus/$t"
  local log="build/fuzz/fuzz-$t.log"
  # -timeout: a single input running longer is a hang; -rss_limit_mb: the issue's 2 GiB
  # per run plus ASan's own overhead. New coverage goes to $work, findings to the corpus.
  "build/fuzz/fuzz/berth_${t}_fuzz" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=2560 -max_len="$(max_len "$t")" -print_final_stats=1 \
    -artifact_prefix="fuzz/corpus/$t/" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  local execs
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  echo "$t: ${seconds}s, ${execs:-?} executions, exit $rc"
  [ "$rc" = 0 ] || tail -40 "$log" >&2
  return "$rc"
}

stamp=$(mktemp)
failed=0
pids=()
names=()
for t in $targets; do
  run_one "$t" &
  pids+=($!)
  names+=("$t")
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done

findings=$(find fuzz/corpus -newer "$stamp" \( -name 'crash-*' -o -name 'timeout-*' -o \
  -name 'oom-*' -o -name 'leak-*' \))
rm -f "$stamp"
if [ "$failed" != 0 ]; then
  echo "fuzzing found problems; reproducers:" >&2
  echo "$findings" >&2
  exit 1
fi
