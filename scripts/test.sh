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

# Fuzz every target of snipgate's own parsers for a bounded time (clang's libFuzzer, ASan+UBSan),
# starting from its corpus in fuzz/corpus/ (copied: what the run finds is not committed blindly).
# SNIPGATE_FUZZ_SECONDS=0 skips it. A crash fails the run; its input is left in build-fuzz/.
secs=${SNIPGATE_FUZZ_SECONDS:-10}
if [ "$secs" -gt 0 ] && command -v clang >/dev/null 2>&1; then
    echo "== fuzz (${secs}s per target) =="
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DSNIPGATE_FUZZ=ON >/dev/null
    cmake --build build-fuzz -j"$jobs" >/dev/null
    for t in build-fuzz/fuzz/fuzz_*; do
        name=$(basename "$t")
        work=$(mktemp -d)
        cp -r "fuzz/corpus/$name/." "$work/" 2>/dev/null || true
        ( cd build-fuzz && "../$t" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 "$work" 2>"fuzz-$name.log" ) || {
            echo "FAIL: $name found a crash (build-fuzz/fuzz-$name.log, crash-* in build-fuzz/)"; tail -30 "build-fuzz/fuzz-$name.log"; exit 1; }
        echo "$name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "build-fuzz/fuzz-$name.log" | awk '{print $2}') runs, no crash"
        rm -rf "$work"
    done
fi
