#!/usr/bin/env bash
# `make install` and the completion scripts it installs (issue 17):
#   install_test.sh BERTH_BINARY SOURCE_DIR
# Installs the given berth with `make install DESTDIR=<tmp> PREFIX=/opt/x` (the Makefile
# reuses the binary, nothing is built), checks the three files, runs the installed berth,
# then loads the installed bash completion and completes a few command lines as bash would.
set -u
berth=$1
source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
  echo "FAIL: $*" >&2
  status=1
}

if ! make -s -C "$source_dir" install DESTDIR="$tmp" PREFIX=/opt/x BERTH="$berth" >"$tmp/make.log" 2>&1; then
  cat "$tmp/make.log" >&2
  fail "make install failed"
  exit 1
fi
root=$tmp/opt/x
[ -x "$root/bin/berth" ] || fail "bin/berth is not installed"
[ -s "$root/share/bash-completion/completions/berth" ] || fail "no bash completion"
[ -s "$root/share/zsh/site-functions/_berth" ] || fail "no zsh completion"
# Every rule berth doctor lists has its page where SARIF help URIs point (under the prefix).
for rule in $("$berth" doctor --list-rules | awk '$2 ~ /^(error|warning|info)$/ {print $1}'); do
  [ -s "$root/share/doc/berth/doctor/$rule.md" ] || fail "no installed docs page for rule $rule"
done
[ -s "$root/share/doc/berth/runbooks/pending-pods.md" ] || fail "no installed runbooks"
head -n 1 "$root/share/zsh/site-functions/_berth" | grep -qx '#compdef berth' || fail "_berth is no #compdef file"
[ "$("$root/bin/berth" version)" = "$("$berth" version)" ] || fail "the installed berth is another"
if command -v zsh >/dev/null; then
  zsh -n "$root/share/zsh/site-functions/_berth" || fail "_berth: zsh syntax error"
fi

# Completes "berth WORD... CUR" with the installed script; prints the candidates.
complete_line() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _berth; echo "${COMPREPLY[*]}"' \
    _ "$root/share/bash-completion/completions/berth" "$@"
}
expect() {
  local want=$1
  shift
  local got
  got=$(complete_line "$@")
  [ "$got" = "$want" ] || fail "completing '$*': want '$want', got '$got'"
}
expect "plan" berth pl
expect "explain" berth expl
expect "status" berth rollout st
expect "yaml json table wide name" berth plan -o ""
expect "--namespace" berth plan --names
expect "--timeout" berth rollout status mwrs/x --ti
expect "text json" berth explain pod/x -o ""
expect "bash zsh" berth completion ""
# Every subcommand of the binary is offered after "berth ".
for sub in plan explain demo inventory simulate serve agent cluster up rollout version completion; do
  complete_line berth "" | tr ' ' '\n' | grep -qx "$sub" || fail "'berth <TAB>' does not offer $sub"
done
exit $status
