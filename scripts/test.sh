#!/usr/bin/env bash
# Set up, build and run every test: once as a normal build, once under ASan+UBSan
# (the README's second command; .ci/run runs this).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
bash scripts/setup.sh
jobs=$(nproc)

echo "== build (RelWithDebInfo) =="
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs" >/dev/null
echo "== tests =="
(cd build && ctest --output-on-failure -j"$jobs")

echo "== build (ASan+UBSan) =="
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSNIPGATE_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
echo "== tests under ASan+UBSan =="
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j"$jobs")
