#!/bin/sh
# The figures that once slipped unnoticed (issue 27), in one run, each beside its yardstick
# measured in the same run (the machine is shared: absolute times drift, ratios less so):
#   1. one-file `snipgate check` start-up beside /bin/true          (bench/static_bench.py --startup-only)
#   2. `snipgate run` cold overhead beside bubblewrap's               (bench/sandbox_bench.sh, ONLY=cold)
#   3. standard-library throughput beside Bandit                      (bench/static_bench.py --vs-bandit-only)
#   4. `serve` p50/p99 at 1,000 requests/s, and a golden request      (bench/bench_serve.py)
#   5. golden cases/s: the built-in suite beside one python3 per case (build/bench/bench_golden), and
#      with $SNIPGATE_DATA/HumanEval.jsonl.gz the 164 canonical solutions through `eval`
#      (bench/golden_eval_bench.py)
# Usage: bench/regress.sh [BUILD_DIR]   (default: build; ~5 minutes on 2 cores).
# The peers: SNIPGATE_BENCH=1 bash scripts/setup.sh installs hyperfine, bubblewrap and Bandit; a
# missing one is said, and its ratio left out. Run it alone: the machine has 2 cores.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
BUILD=$(cd "$BUILD" && pwd) || { echo "regress: no build directory $1" >&2; exit 2; }
[ -x "$BUILD/snipgate" ] || { echo "regress: no snipgate binary in $BUILD (build first)" >&2; exit 2; }
[ -x "$BUILD/bench/bench_golden" ] && [ -x "$BUILD/bench/bench_serve" ] ||
    { echo "regress: $BUILD/bench lacks bench_golden or bench_serve (cmake --build $BUILD)" >&2; exit 2; }
PY=python3
rc=0
step() {
    echo
    echo "== $1"
}
run() {
    "$@" || { echo "   (failed with status $?: $*)"; rc=1; }
}
echo "snipgate regression figures: $(git -C "$SRC" describe --always --dirty 2>/dev/null || echo '?'), $BUILD;" \
    "$(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"

step "1. one-file check beside /bin/true"
run $PY "$SRC/bench/static_bench.py" --build "$BUILD" --startup-only

step "2. snipgate run, cold, beside bubblewrap"
run env ONLY=cold ROUNDS="${ROUNDS:-3}" RUNS="${RUNS:-60}" sh "$SRC/bench/sandbox_bench.sh" "$BUILD"

step "3. standard library throughput beside Bandit"
run $PY "$SRC/bench/static_bench.py" --build "$BUILD" --vs-bandit-only --repeat 3

step "4. serve: static checks at 1,000 requests/s, closed loop, golden requests"
run $PY "$SRC/bench/bench_serve.py" --build "$BUILD" --seconds "${SERVE_SECONDS:-5}"

step "5. golden cases/s"
run "$BUILD/bench/bench_golden" -j 2 --repeat 1
if [ -n "${SNIPGATE_DATA:-}" ] && [ -f "$SNIPGATE_DATA/HumanEval.jsonl.gz" ]; then
    run $PY "$SRC/bench/golden_eval_bench.py" --build "$BUILD" --humaneval "$SNIPGATE_DATA/HumanEval.jsonl.gz" \
        --repeat 1 ${BASELINE:+--baseline "$BASELINE"}
else
    echo "(HumanEval through eval: set SNIPGATE_DATA to a directory holding HumanEval.jsonl.gz)"
fi
echo
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
exit $rc
