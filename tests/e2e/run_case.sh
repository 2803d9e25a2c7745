#!/usr/bin/env bash
# Runs one golden end-to-end case (STYLE.md, tests/e2e/<case>/):
#   run_case.sh BERTH_BINARY CASE_DIR
# CASE_DIR holds `cmd` (one line of berth arguments, relative to CASE_DIR; shell quoting
# allowed), optional `stdin` (fed to berth's standard input), the inputs, and the expected
# bytes: expected.out (stdout), expected.err (stderr), expected.rc (exit code). The command
# runs twice and must print the same bytes both times (berth is deterministic). With
# UPDATE_GOLDEN=1 the expected files are rewritten instead of compared; review them before
# committing: they must be right, not just what berth printed.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 BERTH_BINARY CASE_DIR" >&2
  exit 2
fi
berth=$1
case_dir=$2
case "$berth" in
  /*) ;;
  *) berth=$(pwd)/$berth ;;
esac
if [ ! -x "$berth" ]; then
  echo "run_case.sh: $berth is not an executable (build the berth target first)" >&2
  exit 2
fi
if [ ! -f "$case_dir/cmd" ]; then
  echo "run_case.sh: $case_dir/cmd is missing" >&2
  exit 2
fi

# Every case also checks the plan's invariants (src/engine/invariants.h): a violation is an
# internal error (exit 70) and so a mismatch. BERTH_CHECK_INVARIANTS=0 turns it off.
export BERTH_CHECK_INVARIANTS=${BERTH_CHECK_INVARIANTS:-1}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$case_dir" || exit 2
cmd=$(head -n 1 cmd)
eval "set -- $cmd"

run_twice() {
  for pass in first second; do
    if [ -f stdin ]; then
      "$berth" "$@" <stdin >"$tmp/$pass.out" 2>"$tmp/$pass.err"
    else
      "$berth" "$@" </dev/null >"$tmp/$pass.out" 2>"$tmp/$pass.err"
    fi
    echo $? >"$tmp/$pass.rc"
  done
}
run_twice "$@"

status=0
for part in out err rc; do
  if ! cmp -s "$tmp/first.$part" "$tmp/second.$part"; then
    echo "NOT DETERMINISTIC: two runs of 'berth $cmd' printed different $part:" >&2
    diff -u "$tmp/first.$part" "$tmp/second.$part" >&2
    status=1
  fi
done

# An internal error (a violated invariant, a failed check) is never an expected answer: the
# case fails, and no golden file records it.
if grep -q "berth: internal error" "$tmp/first.err"; then
  echo "INTERNAL ERROR in 'berth $cmd' ($case_dir):" >&2
  grep "berth: internal error" "$tmp/first.err" >&2
  exit 1
fi

if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  for part in out err rc; do
    cp "$tmp/first.$part" "expected.$part"
  done
  echo "updated golden files of $case_dir"
  exit $status
fi

for part in out err rc; do
  if [ ! -f "expected.$part" ]; then
    echo "missing expected.$part in $case_dir (run with UPDATE_GOLDEN=1 to create it)" >&2
    status=1
  elif ! diff -u "expected.$part" "$tmp/first.$part" >"$tmp/diff"; then
    echo "MISMATCH in $part of 'berth $cmd' ($case_dir):" >&2
    cat "$tmp/diff" >&2
    status=1
  fi
done
exit $status
