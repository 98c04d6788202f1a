#!/usr/bin/env python3
"""`snipgate eval` and `snipgate check --suite` on real public tasks: a few HumanEval, MBPP and
MBPP+ tasks from ../shared/data, loaded as they are. Canonical solutions pass, wrong ones fail,
and pass@k matches the human-eval estimator computed here. Skips loudly (exit 77) when the data
is not there (it lives outside the repo, in ../shared/data, or wherever SNIPGATE_DATA_DIR points).

usage: test_golden_public.py SNIPGATE_BINARY DATA_DIR
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passk import pass_at_k  # noqa: E402

HUMANEVAL_TASKS = 4   # the first few tasks of each file: enough to exercise each format
MBPP_IDS = (11, 12)
MBPPPLUS_TASKS = 2


def main():
    binary, data = os.path.abspath(sys.argv[1]), os.environ.get("SNIPGATE_DATA_DIR", sys.argv[2])
    he = os.path.join(data, "HumanEval.jsonl.gz")
    mbpp = os.path.join(data, "mbpp.jsonl")
    plus = os.path.join(data, "MbppPlus-dev-767efcc.jsonl")
    if not all(os.path.exists(p) for p in (he, mbpp, plus)):
        print(f"SKIP: {data} lacks HumanEval.jsonl.gz / mbpp.jsonl / MbppPlus-dev-767efcc.jsonl "
              "(set SNIPGATE_DATA_DIR): the public-task eval was NOT tested")
        return 77
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)
            print("FAIL " + what)

    with tempfile.TemporaryDirectory() as tmp:
        # ---- HumanEval: eval with completions, whole programs and a blocked sample
        with gzip.open(he, "rt") as f:
            tasks = [json.loads(next(f)) for _ in range(HUMANEVAL_TASKS)]
        suite = os.path.join(tmp, "he.jsonl")
        with open(suite, "w") as f:
            for t in tasks:
                f.write(json.dumps(t) + "\n")
        samples, want = [], []
        for i, t in enumerate(tasks):
            samples.append({"task_id": t["task_id"], "completion": t["canonical_solution"]})
            want.append(True)
            samples.append({"task_id": t["task_id"], "completion": "    return None\n"})
            want.append(False)
            # a harness that stores prompt + completion: taken as the whole program
            samples.append({"task_id": t["task_id"], "completion": t["prompt"] + t["canonical_solution"]})
            want.append(True)
            if i == 0:
                samples.append({"task_id": t["task_id"],
                                "completion": "    import subprocess\n    subprocess.run('id', shell=True)\n"
                                              + t["canonical_solution"]})
                want.append(False)
        sp = os.path.join(tmp, "samples.jsonl")
        with open(sp, "w") as f:
            for s in samples:
                f.write(json.dumps(s) + "\n")
        out, summ = os.path.join(tmp, "out.jsonl"), os.path.join(tmp, "summary.json")
        p = subprocess.run([binary, "eval", "--suite", suite, "--k", "1,2,5", "-o", out, "--summary", summ,
                            "--property-budget", "50", sp], capture_output=True, text=True, timeout=600)
        expect(p.returncode == 0, f"HumanEval eval exit {p.returncode}: {p.stderr[-500:]}")
        with open(out) as f:
            rows = [json.loads(l) for l in f]
        expect(len(rows) == len(samples), f"{len(rows)} results for {len(samples)} samples")
        for r, w in zip(rows, want):
            expect(r["passed"] == w, f"HumanEval sample line {r['line']} ({r['task_id']}, {r['mode']}): "
                                     f"passed={r['passed']}, want {w}: {json.dumps(r)[:400]}")
        expect(rows[2]["mode"] == "whole_program" and rows[0]["mode"] == "completion", "mode detection")
        expect(rows[3]["safety"] == "block" and rows[3]["golden"] == "skipped", f"blocked sample: {rows[3]}")
        with open(summ) as f:
            s = json.load(f)
        nc = {}
        for r in rows:
            n, c = nc.get(r["task_id"], (0, 0))
            nc[r["task_id"]] = (n + 1, c + r["passed"])
        for k in (1, 2, 5):
            per = [pass_at_k(n, c, k) for n, c in nc.values() if n >= k]
            got = s["pass_at_k"][f"pass@{k}"]
            if per:
                expect(got["value"] is not None and abs(got["value"] - sum(per) / len(per)) < 1e-12,
                       f"pass@{k} = {got}, want {sum(per) / len(per)}")
            else:
                expect(got["value"] is None, f"pass@{k} = {got}, want none")
            expect(got["tasks"] == len(per), f"pass@{k} over {got['tasks']} tasks, want {len(per)}")
        print(f"HumanEval: {len(rows)} samples, pass@1 {s['pass_at_k']['pass@1']['value']:.4f}")

        # ---- MBPP (asserts) and MBPP+ (base/plus inputs): canonical solutions pass, a wrong one fails
        with open(mbpp) as f:
            mt = [t for t in map(json.loads, f) if t["task_id"] in MBPP_IDS]
        with open(plus) as f:
            pt = [json.loads(next(f)) for _ in range(MBPPPLUS_TASKS)]
        for name, rows_, code_of in (("mbpp", mt, lambda t: t["code"]),
                                     ("mbppplus", pt, lambda t: t["canonical_solution"])):
            sfile = os.path.join(tmp, name + ".jsonl")
            with open(sfile, "w") as f:
                for t in rows_:
                    f.write(json.dumps(t) + "\n")
            for t in rows_:
                tid = str(t["task_id"])
                good = os.path.join(tmp, "good.py")
                with open(good, "w") as f:
                    f.write(code_of(t))
                p = subprocess.run([binary, "check", "--format", "json", good, "--suite", sfile, "--task", tid,
                                    "--property-budget", "50"], capture_output=True, text=True, timeout=300)
                g = json.loads(p.stdout)["files"][0]["golden"] if p.stdout.startswith("{") else {}
                expect(p.returncode == 0 and g.get("status") == "pass",
                       f"{name} {tid} canonical: exit {p.returncode} {str(g)[:300]} {p.stderr[-300:]}")
                bad = os.path.join(tmp, "bad.py")
                with open(bad, "w") as f:
                    # the entry point returns a constant nobody expects
                    f.write(code_of(t) + "\n\n_sg_orig = None\n")
                    entry = t.get("entry_point")
                    if not entry:  # MBPP: the function its first assert calls
                        entry = t["test_list"][0].split("assert ", 1)[1].split("(", 1)[0].strip()
                    f.write(f"def {entry}(*a, **k):\n    return ('sg-wrong',)\n")
                p = subprocess.run([binary, "check", "--format", "json", bad, "--suite", sfile, "--task", tid,
                                    "--no-properties"], capture_output=True, text=True, timeout=300)
                g = json.loads(p.stdout)["files"][0]["golden"] if p.stdout.startswith("{") else {}
                expect(p.returncode == 1 and g.get("status") == "fail" and g.get("failures"),
                       f"{name} {tid} wrong: exit {p.returncode} {str(g)[:300]}")
            print(f"{name}: {len(rows_)} tasks checked")
    print("all passed" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
