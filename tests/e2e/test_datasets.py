#!/usr/bin/env python3
"""False-block check on public code: every HumanEval task (prompt + canonical solution + tests)
and every MBPP task (code + asserts) from ../shared/data goes through `snipgate check`. Correct,
ordinary solutions must pass; the only expected block is HumanEval/160, whose reference solution
calls eval(). Skips loudly (exit 77) when the data is not there (it lives outside the repo, in
../shared/data, or wherever SNIPGATE_DATA_DIR points).

usage: test_datasets.py SNIPGATE_BINARY DATA_DIR
"""
import gzip, json, os, subprocess, sys, tempfile

EXPECTED_BLOCKS = {"HumanEval_160.py": {"SG101"}}


def main():
    binary, data = sys.argv[1], os.environ.get("SNIPGATE_DATA_DIR", sys.argv[2])
    he, mbpp = os.path.join(data, "HumanEval.jsonl.gz"), os.path.join(data, "mbpp.jsonl")
    if not (os.path.exists(he) and os.path.exists(mbpp)):
        print(f"SKIP: {data} has no HumanEval/MBPP data (set SNIPGATE_DATA_DIR)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        with gzip.open(he, "rt") as f:
            for line in f:
                d = json.loads(line)
                with open(os.path.join(tmp, d["task_id"].replace("/", "_") + ".py"), "w") as out:
                    out.write(d["prompt"] + d["canonical_solution"] + "\n" + d["test"])
                n += 1
        with open(mbpp) as f:
            for line in f:
                d = json.loads(line)
                with open(os.path.join(tmp, f"mbpp_{d['task_id']}.py"), "w") as out:
                    out.write(d["code"].replace("\r\n", "\n") + "\n" + "\n".join(d["test_list"]) + "\n")
                n += 1
        p = subprocess.run([binary, "check", "--format", "json", tmp], capture_output=True, text=True)
        verdict = json.loads(p.stdout)
    failed = 0
    if verdict["stats"]["files"] != n:
        print(f"FAIL: checked {verdict['stats']['files']} files, wrote {n}")
        failed += 1
    blocked = {}
    for f in verdict["files"]:
        ids = {x["rule_id"] for x in f["findings"] if x["blocking"]}
        if ids or f["error"]:
            blocked[os.path.basename(f["path"])] = ids or {"error"}
    if blocked != EXPECTED_BLOCKS:
        print(f"FAIL: blocked {blocked}, expected {EXPECTED_BLOCKS}")
        failed += 1
    if p.returncode != 1:
        print(f"FAIL: exit {p.returncode}, expected 1 (one hostile reference solution)")
        failed += 1
    print(f"{n} files checked, {len(blocked)} blocked")
    print(f"{3 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
