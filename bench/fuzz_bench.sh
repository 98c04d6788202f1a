#!/usr/bin/env bash
# The fuzz stage's benchmark (issue 9, "Performance"), side by side in one run:
#  1. execs/s into the sandboxed candidate with coverage on, a small and a loop-heavy function,
#     against streams without the tracer, batches and spawning python3 per input (bench_fuzz);
#  2. time to the planted bug (tests/e2e/data/fuzz/planted_magic.py: nested conditions, a magic
#     int and a magic string) with snipgate-fuzz, over 5 seeds: median of the time from the
#     start of fuzzing to the confirmed finding (before shrinking), and the inputs run until then.
# Usage: bench/fuzz_bench.sh [BUILD_DIR] [N]   (N inputs per execs/s row, default 5000)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build}
n=${2:-5000}
echo "== execs/s (bench_fuzz $n)"
"$build/bench/bench_fuzz" "$n"
echo
echo "== time to the planted bug (snipgate-fuzz, planted_magic.py, 5 seeds, budget 120 s each)"
data=$here/tests/e2e/data/fuzz
results=()
for seed in 1 2 3 4 5; do
  line=$("$build/snipgate-fuzz" --task fz/score --suite "$data/tasks.jsonl" --time 120 --seed "$seed" \
           < "$data/planted_magic.py" 2>/dev/null || true)
  r=$(printf '%s' "$line" | /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read() or "{}")
f = d.get("finding") or {}
print("%s %s %s" % (f.get("found_after_s", "none"), f.get("found_after_execs", "-"), d.get("execs", "-")))')
  echo "seed $seed: found after (s, execs): $r"
  results+=("$(echo "$r" | cut -d' ' -f1)")
done
printf '%s\n' "${results[@]}" | /usr/bin/python3 -c '
import statistics, sys
v = [float(x) for x in sys.stdin.read().split() if x != "none"]
print("median time to bug: %s s over %d of 5 seeds found" % ("%.2f" % statistics.median(v) if v else "n/a", len(v)))'
echo "(load average: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) CPUs)"
