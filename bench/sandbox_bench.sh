#!/bin/sh
# Sandbox benchmark (issue 3). Cold launch of `pass`, in one hyperfine run:
#   bare      /usr/bin/python3 -I -S -c pass
#   snipgate  snipgate run pass.py            (every layer on: all namespaces, pivot_root,
#                                              cgroups, rlimits, seccomp with user notification)
#   bwrap     bubblewrap --unshare-all with read-only binds, same interpreter
# then warm per-call latency and calls/s through the persistent worker (bench/sandbox_worker_bench.c,
# compiled here against the build directory's libsnipgate.a).
# Usage: bench/sandbox_bench.sh [BUILD_DIR]   (default: build; ONLY=cold: the cold launch alone;
# ROUNDS, RUNS, CALLS, CANDIDATES, FORKS: the sizes). Needs hyperfine for the cold part;
# bubblewrap is optional. Do not run while compiling: the machine has 2 cores.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SG=$BUILD/snipgate
PY=/usr/bin/python3
RUNS=${RUNS:-200}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo pass > "$TMP/pass.py"
[ -x "$SG" ] || { echo "no snipgate binary at $SG" >&2; exit 2; }

ROUNDS=${ROUNDS:-3}
echo "== cold launch (medians of $ROUNDS rounds x $RUNS runs; the order of the commands turns each round)"
if command -v hyperfine >/dev/null 2>&1; then
    set -- "$PY -I -S -c pass" "$SG run $TMP/pass.py"
    if command -v bwrap >/dev/null 2>&1; then
        set -- "$@" "bwrap --unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/lib /lib \
--symlink usr/lib64 /lib64 --symlink usr/bin /bin --proc /proc --dev /dev --tmpfs /tmp $PY -I -S -c pass"
    else
        echo "(bubblewrap not installed: apt-get install bubblewrap)"
    fi
    # One hyperfine run per round, the commands rotated (a drift of the machine's load during a
    # round would otherwise always favour the same command); every run's time is kept.
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        case $((r % $#)) in
        0) hyperfine -N -w 20 -r "$RUNS" --export-json "$TMP/cold$r.json" "$@" >/dev/null 2>&1 ;;
        1) if [ $# -eq 3 ]; then hyperfine -N -w 20 -r "$RUNS" --export-json "$TMP/cold$r.json" "$2" "$3" "$1" >/dev/null 2>&1
           else hyperfine -N -w 20 -r "$RUNS" --export-json "$TMP/cold$r.json" "$2" "$1" >/dev/null 2>&1; fi ;;
        2) hyperfine -N -w 20 -r "$RUNS" --export-json "$TMP/cold$r.json" "$3" "$1" "$2" >/dev/null 2>&1 ;;
        esac
        r=$((r + 1))
    done
    "$PY" - "$TMP" "$ROUNDS" "$@" <<'PYEOF'
import json, statistics, sys
tmp, rounds, cmds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
names = ["bare python", "snipgate run", "bubblewrap"]
times = {c: [] for c in cmds}
per_round = {c: [] for c in cmds}
for r in range(rounds):
    for res in json.load(open("%s/cold%d.json" % (tmp, r)))["results"]:
        times[res["command"]] += res["times"]
        per_round[res["command"]].append(res["median"] * 1000)
med = [statistics.median(times[c]) * 1000 for c in cmds]
for n, c, m in zip(names, cmds, med):
    extra = "" if n == "bare python" else "  (+%.2f ms, x%.2f)" % (m - med[0], m / med[0])
    rounds_txt = ", ".join("%.2f" % x for x in per_round[c])
    print("  %-13s %7.2f ms%s   rounds: %s" % (n, m, extra, rounds_txt))
if len(med) == 3:
    print("  snipgate overhead vs bubblewrap overhead: %.2f ms vs %.2f ms" % (med[1] - med[0], med[2] - med[0]))
PYEOF
else
    echo "(hyperfine not installed: apt-get install hyperfine)"
fi

[ "${ONLY:-}" = cold ] && exit 0  # (bench/regress.sh: the cold launch alone)

echo "== warm calls through the persistent worker"
CC=${CC:-cc}
# shellcheck disable=SC2046
# The static library's dependencies from the build's own snipgate.pc (Requires.private and
# Libs.private), so that this line follows the library's (-lsnipgate itself is the .a above).
LIBS=$(PKG_CONFIG_PATH="$BUILD" pkg-config --static --libs snipgate | sed 's/-lsnipgate//; s/-L[^ ]*//')
$CC -O2 -D_GNU_SOURCE -I"$SRC" -I"$SRC/include" -I"$BUILD/include" "$SRC/bench/sandbox_worker_bench.c" "$BUILD/libsnipgate.a" \
    $LIBS -lpthread -o "$TMP/wb"
"$TMP/wb" phases 50 | sed 's/^/  /'
"$TMP/wb" warm "${CALLS:-3000}" | sed 's/^/  /'
"$TMP/wb" batch "${CALLS:-3000}" | sed 's/^/  /'

echo "== a new candidate ready for its first call, beside a plain fork of a warm python3 (same run)"
"$PY" -I -S - "${FORKS:-300}" <<'PYEOF'
import os, sys, time
n = int(sys.argv[1])
t = []
for i in range(n + 20):
    a = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    if i >= 20:
        t.append((time.perf_counter() - a) * 1e3)
t.sort()
print("  plain os.fork() + exit + wait of a warm python3: n=%d median=%.3f ms p90=%.3f ms" % (n, t[n // 2], t[int(0.9 * (n - 1))]))
PYEOF
"$TMP/wb" pool "${CANDIDATES:-300}" | sed 's/^/  /'
