#!/usr/bin/env bash
# Installs the Debian 12 packages berth builds with, when any is missing. Idempotent: on a
# machine that has them all it only checks. Needs root (or sudo) to install. With --test it
# also installs what only the tests need: Chromium, which renders berth simulate's
# report.html headless (tests/sim/report_browser_test.cc), and Ninja, which the test build
# uses (it starts a module's dependents' compiles before the module's library is linked, so
# both cores stay busy where Make waits for each target to finish), and clang, which the test
# build compiles with (its front end takes a sanitized, unoptimized test file in less than
# half GCC's time) and whose libFuzzer the fuzz targets link, and PostgreSQL 15, which the
# store tests and bench start throwaway servers of (tests/store/postgres_server.h).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libyaml-cpp-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev libre2-dev libsqlite3-dev libpq-dev
  libcpp-httplib-dev libssl-dev libgoogle-perftools-dev
)
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium ninja-build clang libclang-rt-14-dev postgresql-15 python3-kubernetes python3-jsonschema curl)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "berth: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
