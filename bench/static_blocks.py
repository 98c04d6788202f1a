#!/usr/bin/env python3
"""False-block meter: how many files of code nobody here wrote each static checker blocks, and by
which rule, so that a rule change that adds false blocks shows up as a number.

Corpora: the machine's CPython standard library (every .py under /usr/lib/python3.11 outside
site-/dist-packages), and from the shared datasets (../shared/data relative to the repo root, or
SNIPGATE_DATA_DIR) the HumanEval prompts with their canonical solutions and the MBPP reference code.
A missing corpus is skipped loudly.

Tools: snipgate (a file is blocked when the verdict blocks: --fail-on medium, the default; an error
counts as a block), Bandit (blocked: a finding of severity MEDIUM or HIGH, the same threshold), and
Ruff's flake8-bandit S rules through @astral-sh/ruff-wasm-nodejs when bench/.peers has it (blocked:
any S finding; Ruff has no severities).

Usage: python3 bench/static_blocks.py [--build build] [--tools snipgate,bandit,ruff] [--json out.json]
       [--top 12]
"""
import argparse, collections, gzip, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STDLIB = "/usr/lib/python3.11"


def stdlib_files():
    files = []
    if not os.path.isdir(STDLIB):
        print(f"SKIP: {STDLIB} not found: no standard-library corpus", file=sys.stderr)
        return files
    for d, dirs, names in os.walk(STDLIB):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "dist-packages", "__pycache__"))
        files += [os.path.join(d, n) for n in sorted(names)
                  if n.endswith(".py") and os.path.getsize(os.path.join(d, n)) > 0]  # empty: nothing to judge
    return files


def dataset_files(tmp):
    """HumanEval prompt + canonical solution, MBPP code: one file each, written under tmp."""
    data = os.environ.get("SNIPGATE_DATA_DIR", os.path.join(ROOT, "..", "shared", "data"))
    he, mbpp = os.path.join(data, "HumanEval.jsonl.gz"), os.path.join(data, "mbpp.jsonl")
    out = {}
    if os.path.exists(he):
        d = os.path.join(tmp, "humaneval")
        os.makedirs(d)
        files = []
        with gzip.open(he, "rt") as f:
            for line in f:
                t = json.loads(line)
                p = os.path.join(d, t["task_id"].replace("/", "_") + ".py")
                with open(p, "w") as o:
                    o.write(t["prompt"] + t["canonical_solution"] + "\n")
                files.append(p)
        out["humaneval"] = files
    else:
        print(f"SKIP: {he} not found: no HumanEval corpus (set SNIPGATE_DATA_DIR)", file=sys.stderr)
    if os.path.exists(mbpp):
        d = os.path.join(tmp, "mbpp")
        os.makedirs(d)
        files = []
        with open(mbpp) as f:
            for line in f:
                t = json.loads(line)
                p = os.path.join(d, f"mbpp_{t['task_id']}.py")
                with open(p, "w") as o:
                    o.write(t["code"].replace("\r\n", "\n") + "\n")
                files.append(p)
        out["mbpp"] = files
    else:
        print(f"SKIP: {mbpp} not found: no MBPP corpus (set SNIPGATE_DATA_DIR)", file=sys.stderr)
    return out


def run_snipgate(build, files):
    """{file: set(rule ids of blocking findings)} for the files snipgate blocks."""
    sg = os.path.join(build, "snipgate")
    blocked = {}
    for i in range(0, len(files), 400):
        chunk = files[i:i + 400]
        p = subprocess.run([sg, "check", "-j", "2", "--format", "json", *chunk], capture_output=True, text=True)
        if p.returncode not in (0, 1):
            raise SystemExit(f"snipgate failed ({p.returncode}): {p.stderr[:300]}")
        for f in json.loads(p.stdout)["files"]:
            ids = {x["rule_id"] for x in f["findings"] if x["blocking"]}
            if f.get("error"):
                ids.add("error")
            if ids:
                blocked[f["path"]] = ids
    return blocked


def run_bandit(files, tmp):
    out = os.path.join(tmp, "bandit.json")
    subprocess.run(["bandit", "-q", "-f", "json", "-o", out, *files], capture_output=True)
    rep = json.load(open(out))
    blocked = collections.defaultdict(set)
    for r in rep.get("results", []):
        if r["issue_severity"] in ("MEDIUM", "HIGH"):
            blocked[r["filename"]].add(r["test_id"])
    for e in rep.get("errors", []):
        blocked[e["filename"]].add("error")
    return dict(blocked)


def run_ruff(files, tmp):
    lst = os.path.join(tmp, "ruff_files.txt")
    with open(lst, "w") as f:
        f.write("\n".join(files) + "\n")
    env = dict(os.environ, NODE_PATH=os.path.join(ROOT, "bench", ".peers", "node_modules"))
    p = subprocess.run(["node", os.path.join(ROOT, "bench", "ruff_wasm_lint.js"), lst, "codes"], capture_output=True,
                       text=True, env=env)
    if p.returncode:
        raise SystemExit(f"ruff-wasm failed: {p.stderr[:300]}")
    blocked = {}
    for line in p.stdout.splitlines():
        d = json.loads(line)
        if d["codes"]:
            blocked[d["file"]] = set(d["codes"])
    return blocked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tools", default="snipgate,bandit,ruff")
    ap.add_argument("--json", help="write the numbers (per corpus, tool: files, blocked, by rule) here")
    ap.add_argument("--top", type=int, default=12, help="rules listed per tool and corpus")
    a = ap.parse_args()
    tools = a.tools.split(",")
    if "bandit" in tools and not shutil.which("bandit"):
        print("SKIP: bandit not installed (SNIPGATE_BENCH=1 bash scripts/setup.sh)", file=sys.stderr)
        tools.remove("bandit")
    if "ruff" in tools and not (shutil.which("node") and os.path.isdir(
            os.path.join(ROOT, "bench", ".peers", "node_modules", "@astral-sh", "ruff-wasm-nodejs"))):
        print("SKIP: Ruff's WASM build not in bench/.peers (python3 bench/static_bench.py fetches it)", file=sys.stderr)
        tools.remove("ruff")
    result = {}
    with tempfile.TemporaryDirectory(prefix="sgblocks.") as tmp:
        corpora = {"stdlib": stdlib_files(), **dataset_files(tmp)}
        for name, files in corpora.items():
            if not files:
                continue
            for tool in tools:
                if tool == "snipgate":
                    blocked = run_snipgate(a.build, files)
                elif tool == "bandit":
                    blocked = run_bandit(files, tmp)
                else:
                    blocked = run_ruff(files, tmp)
                by_rule = collections.Counter(r for ids in blocked.values() for r in ids)
                result.setdefault(name, {})[tool] = {"files": len(files), "blocked": len(blocked),
                                                     "by_rule": dict(by_rule.most_common()),
                                                     "blocked_files": sorted(os.path.relpath(f, tmp) if f.startswith(tmp)
                                                                             else f for f in blocked)}
                print(f"{name:10} {tool:9} {len(blocked):5d} / {len(files):5d} files blocked"
                      f" ({100.0 * len(blocked) / len(files):5.1f}%)")
                if by_rule:
                    print("           by rule (files): " +
                          ", ".join(f"{r} {n}" for r, n in by_rule.most_common(a.top)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
