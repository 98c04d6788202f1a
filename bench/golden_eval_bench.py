#!/usr/bin/env python3
"""Golden stage through `snipgate eval` (issue 24): all 164 HumanEval canonical solutions as
samples, the default property budget, `-j 2`. A case is a structured case run or a generated
input checked (the eval output's cases_run + inputs_checked). Prints cases/s, wall time and the
machine's busy CPU time during the run (from /proc/stat: the sandboxes' processes are reaped
inside their pid namespaces, so a rusage would miss them; anything else running is counted
too), median of --repeat runs; with
--baseline BIN, the same for another snipgate binary, the runs interleaved, and the ratio.

Usage: python3 bench/golden_eval_bench.py [--build build] [--humaneval FILE] [--repeat 3]
                                          [--baseline OTHER_SNIPGATE]
FILE is HumanEval.jsonl or HumanEval.jsonl.gz (default: $SNIPGATE_DATA/HumanEval.jsonl.gz).
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_tasks(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def busy_seconds():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[0] + v[1] + v[2] + v[5] + v[6]) / os.sysconf("SC_CLK_TCK")  # user nice system irq softirq


def one_run(sg, suite, samples, out):
    before = busy_seconds()
    t0 = time.perf_counter()
    p = subprocess.run([sg, "eval", "--suite", suite, samples, "-o", out, "--summary", os.devnull, "-j", "2"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    cpu = busy_seconds() - before
    if p.returncode != 0:
        sys.exit(f"{sg} eval failed ({p.returncode}): {p.stderr[-2000:]}")
    cases = passed = 0
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            cases += (r.get("cases_run") or 0) + (r.get("inputs_checked") or 0)
            passed += bool(r.get("passed"))
    return {"wall": wall, "cpu": cpu, "cases": cases, "passed": passed}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--humaneval", default=os.path.join(os.environ.get("SNIPGATE_DATA", ""), "HumanEval.jsonl.gz"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline")
    a = ap.parse_args()
    if not os.path.isfile(a.humaneval):
        sys.exit(f"no HumanEval data at {a.humaneval!r}: pass --humaneval FILE or set SNIPGATE_DATA")
    sgs = [("snipgate", os.path.join(a.build, "snipgate"))]
    if a.baseline:
        sgs.append(("baseline", a.baseline))
    tasks = read_tasks(a.humaneval)
    with tempfile.TemporaryDirectory() as tmp:
        suite = os.path.join(tmp, "HumanEval.jsonl")
        samples = os.path.join(tmp, "samples.jsonl")
        with open(suite, "w") as f:
            for t in tasks:
                f.write(json.dumps(t) + "\n")
        with open(samples, "w") as f:
            for t in tasks:
                f.write(json.dumps({"task_id": t["task_id"], "completion": t["canonical_solution"]}) + "\n")
        print(f"golden stage through eval: {len(tasks)} HumanEval canonical solutions, -j 2, {os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        runs = {name: [] for name, _ in sgs}
        for k in range(a.repeat):
            for name, sg in (sgs if k % 2 == 0 else sgs[::-1]):
                runs[name].append(one_run(sg, suite, samples, os.path.join(tmp, name + ".out")))
        med = {}
        for name, sg in sgs:
            rs = runs[name]
            m = {key: statistics.median(r[key] for r in rs) for key in ("wall", "cpu", "cases", "passed")}
            med[name] = m
            print(f"  {name:9s} {m['cases']:6.0f} cases ({m['passed']:.0f} of {len(tasks)} samples pass) "
                  f"in {m['wall']:5.2f} s wall, {m['cpu']:5.2f} s busy CPU: {m['cases'] / m['wall']:7.1f} cases/s "
                  f"(median of {len(rs)}; {sg})", flush=True)
        if a.baseline:
            s, b = med["snipgate"], med["baseline"]
            print(f"  ratio     {s['cases'] / s['wall'] / (b['cases'] / b['wall']):.2f}x the baseline's cases/s "
                  f"(CPU per case {b['cpu'] / b['cases'] / (s['cpu'] / s['cases']):.2f}x); issue 24's target: 3x")
        print(f"  load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
