#!/usr/bin/env python3
"""Zero false blocks on public tasks: `snipgate eval` of the canonical solutions of HumanEval and
MBPP+ (../shared/data), with the default property checks. Every sample the static gate lets through must
pass the golden stage: a canonical solution it fails is a defect of the gate (a type it cannot carry, an oracle it lacks, a
generator that leaves the task's domain).

Every STRIDE-th task of each file (SNIPGATE_DATASET_STRIDE, default 5; 1 = all of them: 164 +
378 tasks, about 10 minutes here). Skips loudly (exit 77) when the data is not there.

usage: test_golden_datasets.py SNIPGATE_BINARY DATA_DIR
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile


def main():
    binary, data = os.path.abspath(sys.argv[1]), os.environ.get("SNIPGATE_DATA_DIR", sys.argv[2])
    stride = int(os.environ.get("SNIPGATE_DATASET_STRIDE", "5"))
    he = os.path.join(data, "HumanEval.jsonl.gz")
    plus = os.path.join(data, "MbppPlus-dev-767efcc.jsonl")
    if not all(os.path.exists(p) for p in (he, plus)):
        print(f"SKIP: {data} lacks HumanEval.jsonl.gz / MbppPlus-dev-767efcc.jsonl (set SNIPGATE_DATA_DIR): "
              "zero false blocks on public canonical solutions was NOT tested")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in (("HumanEval", he), ("MBPP+", plus)):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt") as f:
                tasks = [json.loads(line) for i, line in enumerate(f) if i % stride == 0]
            suite, samples = os.path.join(tmp, "suite.jsonl"), os.path.join(tmp, "samples.jsonl")
            with open(suite, "w") as f:
                for t in tasks:
                    f.write(json.dumps(t) + "\n")
            with open(samples, "w") as f:
                for t in tasks:
                    f.write(json.dumps({"task_id": t["task_id"], "completion": t["canonical_solution"]}) + "\n")
            out = os.path.join(tmp, "out.jsonl")
            p = subprocess.run([binary, "eval", "--suite", suite, "--completion", "-o", out, samples],
                               capture_output=True, text=True, timeout=3000)
            rows = []
            if os.path.exists(out):
                with open(out) as f:
                    rows = [json.loads(line) for line in f if line.strip()]
            # A canonical solution that calls eval() (HumanEval/160) is blocked by the static gate,
            # rightly: that is its job, not a false block of the golden stage. Listed, not failed.
            static = [r for r in rows if r.get("safety") == "block"]
            bad = [r for r in rows if r.get("safety") != "block" and not r.get("passed")]
            print(f"{name}: {len(tasks)} canonical solutions (every {stride}th task), {len(rows)} results, "
                  f"{len(bad)} failed the golden stage, {len(static)} blocked by static rules, exit {p.returncode}")
            for r in static:
                print("  static block (expected):", r["task_id"], [f["rule_id"] for f in r.get("findings", [])])
            if p.returncode != 0 or len(rows) != len(tasks) or bad:
                failures.append(name)
                print(p.stderr[-2000:])
                for r in bad[:20]:
                    print("  BLOCKED", json.dumps(r)[:600])
    print("all passed" if not failures else "FAILED: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
