#!/usr/bin/env python3
"""Subtle-bug benchmark (issue 8): one-change mutants of the MBPP+ reference solutions.

1. Generate one-change mutants of each selected task's canonical solution with `ast` (never
   executed here: parsed, changed and unparsed only), deterministically from --seed, at most
   --per-task per task (a seeded sample of every mutant the operators below produce, stratified
   by operator: round-robin over the operators present, in a seeded order):
     cmp      a comparison operator swapped (< <=, > >=, == !=, in / not in, is / is not)
     const    an int constant off by one (n+1, n-1)
     bound    a range() argument or a slice bound off by one (x+1, x-1)
     boolop   and <-> or
     arith    an arithmetic operator swapped (+ -, * //, / //, % //, ** *; augmented too)
     negate   an if/while/ternary condition negated
     dropnot  a `not` dropped
     index    a constant index of a returned expression changed (x[0] -> x[1], x[-1] -> x[-2])
     minmax   min <-> max, any <-> all, sorted/reverse flag flipped
     bool     True <-> False
2. Run them through snipgate's stage 3 (build/bench/bench_mutants, which calls sg_golden_run:
   every mutant runs only inside the sandbox) in three configurations of each task:
     base   the task WITHOUT plus_input, no property checks: the base tests alone. A mutant that
            passes "survives the base tests"; only survivors go on.
     props  the task WITHOUT plus_input, with the property stage (differential against the
            reference on generated inputs): what the property stage catches on its own, since
            the base inputs were passed already and the plus inputs are not there to help.
     plus   the plus_input cases alone, no property checks: the reference point.
   A task is used only if its canonical solution passes all three (in the sandbox too): `base`
   first, for every task taken; `props` and `plus` only for the tasks where some mutant survived
   the base tests (the others need not pay for it). Tasks whose reference is nondeterministic or
   too slow for the property stage's time cap are listed as excluded, with their mutants.
   A run that errs (other than by the property search's time cap), or fails by a CPU timeout, a
   sandbox protocol error, a signal, no result or a failure that did not replay, is run once more
   and the rerun decides; overturned runs are listed. Wall-clock timeouts are not rerun (a hang
   repeats, at the cost of one timeout per input).
3. Print counts, percentages and a Markdown table; write a JSON summary (--out).

Defaults bound the run to under ~10 minutes on 2 cores: the first 60 usable MBPP+ tasks, 8
mutants each, 2 threads, the property stage's default budget (300 generated inputs per task)
a shrink budget of 1 call (shrinking does not change whether a mutant is caught, and a hanging
mutant would cost a timeout per shrink step) and a per-case timeout of 1 s instead of 2 s for
every task (canonical solutions included, so they are judged under the same limit): stage 3
runs every prefetched call of a hanging candidate to its timeout, up to 64 generated inputs and
then every plus input, so one hanging mutant costs minutes.
Run everything: --tasks 0 --per-task 0 (hours).

Usage: python3 bench/mbpp_mutants.py [--build build] [--data ../shared/data/MbppPlus-dev-767efcc.jsonl]
         [--tasks N] [--per-task K] [--seed S] [-j N] [--max-inputs N] [--out bench/results/mbpp_mutants.json]
Needs the MBPP+ file (skips loudly, exit 77, without it) and a built tree (cmake --build build).
"""
import argparse
import ast
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data", "MbppPlus-dev-767efcc.jsonl")

CMP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
ARITH_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.Div: ast.FloorDiv,
              ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}
NAME_SWAP = {"min": "max", "max": "min", "any": "all", "all": "any"}


def _plus_minus(expr, delta):
    """expr + 1 / expr - 1 (constant-folded for int literals)."""
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return ast.Constant(expr.value + delta)
    return ast.BinOp(expr, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(abs(delta)))


def _in_return(node, parents):
    p = parents.get(node)
    while p is not None:
        if isinstance(p, ast.Return):
            return True
        if isinstance(p, (ast.FunctionDef, ast.Lambda, ast.stmt)):
            return False
        p = parents.get(p)
    return False


def mutations(tree):
    """Every (node index, operator, variant) applicable to `tree`, in a fixed order. The node
    index is its position in walk(tree), so the same mutation can be replayed on a copy."""
    nodes = list(ast.walk(tree))
    parents = {}
    for n in nodes:
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    out = []
    for i, n in enumerate(nodes):
        if isinstance(n, ast.Compare):
            for j, op in enumerate(n.ops):
                if type(op) in CMP_SWAP:
                    out.append((i, "cmp", j))
        elif isinstance(n, ast.Constant) and type(n.value) is int:
            p = parents.get(n)
            # skip the bound/index operators' own targets (they are covered there) and docstrings
            if not (isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == "range"):
                out += [(i, "const", +1), (i, "const", -1)]
        elif isinstance(n, ast.Constant) and type(n.value) is bool:
            out.append((i, "bool", 0))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            if n.func.id == "range":
                for j in range(len(n.args)):
                    out += [(i, "bound", (j, +1)), (i, "bound", (j, -1))]
            if n.func.id in NAME_SWAP:
                out.append((i, "minmax", 0))
            if n.func.id == "sorted":
                out.append((i, "minmax", 1))
        elif isinstance(n, ast.Slice):
            for j, part in enumerate(("lower", "upper")):
                if getattr(n, part) is not None:
                    out += [(i, "bound", (part, +1)), (i, "bound", (part, -1))]
        elif isinstance(n, ast.BoolOp):
            out.append((i, "boolop", 0))
        elif isinstance(n, (ast.BinOp, ast.AugAssign)) and type(n.op) in ARITH_SWAP:
            out.append((i, "arith", 0))
        elif isinstance(n, (ast.If, ast.While, ast.IfExp)):
            out.append((i, "negate", 0))
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            out.append((i, "dropnot", 0))
        if isinstance(n, ast.Subscript) and _in_return(n, parents):
            s = n.slice
            if isinstance(s, ast.Constant) and type(s.value) is int:
                out.append((i, "index", 0))
            elif isinstance(s, ast.UnaryOp) and isinstance(s.op, ast.USub) and isinstance(s.operand, ast.Constant):
                out.append((i, "index", 0))
    return out


def apply(tree, m):
    """A copy of `tree` with mutation `m` applied, and a short description."""
    t = copy.deepcopy(tree)
    i, kind, arg = m
    n = list(ast.walk(t))[i]
    line = getattr(n, "lineno", 0)
    if kind == "cmp":
        old = n.ops[arg]
        n.ops[arg] = CMP_SWAP[type(old)]()
        what = f"{type(old).__name__} -> {type(n.ops[arg]).__name__}"
    elif kind == "const":
        what = f"{n.value} -> {n.value + arg}"
        n.value += arg
    elif kind == "bool":
        what = f"{n.value} -> {not n.value}"
        n.value = not n.value
    elif kind == "bound":
        j, delta = arg
        if isinstance(j, int):
            n.args[j] = _plus_minus(n.args[j], delta)
            what = f"range arg {j} {delta:+d}"
        else:
            setattr(n, j, _plus_minus(getattr(n, j), delta))
            what = f"slice {j} {delta:+d}"
    elif kind == "minmax":
        if arg == 0:
            what = f"{n.func.id} -> {NAME_SWAP[n.func.id]}"
            n.func.id = NAME_SWAP[n.func.id]
        else:
            rev = [k for k in n.keywords if k.arg == "reverse"]
            if rev:
                rev[0].value = ast.UnaryOp(ast.Not(), rev[0].value)
                what = "sorted reverse flipped"
            else:
                n.keywords.append(ast.keyword("reverse", ast.Constant(True)))
                what = "sorted reverse=True added"
    elif kind == "boolop":
        what = "and -> or" if isinstance(n.op, ast.And) else "or -> and"
        n.op = ast.Or() if isinstance(n.op, ast.And) else ast.And()
    elif kind == "arith":
        old = type(n.op)
        n.op = ARITH_SWAP[old]()
        what = f"{old.__name__} -> {type(n.op).__name__}"
    elif kind == "negate":
        n.test = ast.UnaryOp(ast.Not(), n.test)
        what = f"{type(n).__name__} condition negated"
    elif kind == "dropnot":
        # replace the UnaryOp by its operand in the parent
        for p in ast.walk(t):
            for field, value in ast.iter_fields(p):
                if value is n:
                    setattr(p, field, n.operand)
                elif isinstance(value, list):
                    for k, v in enumerate(value):
                        if v is n:
                            value[k] = n.operand
        what = "not dropped"
    elif kind == "index":
        s = n.slice
        if isinstance(s, ast.Constant):
            n.slice = ast.Constant(s.value + 1)
            what = f"[{s.value}] -> [{s.value + 1}]"
        else:
            n.slice = ast.UnaryOp(ast.USub(), ast.Constant(s.operand.value + 1))
            what = f"[-{s.operand.value}] -> [-{s.operand.value + 1}]"
    else:
        raise ValueError(kind)
    return ast.fix_missing_locations(t), f"{kind}: {what} (line {line})"


def task_mutants(task, per_task, seed):
    """The mutants of one task: [(mutant_id, operator, description, source)], deterministic."""
    src = task["canonical_solution"]
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return [], 0
    original = ast.unparse(tree)
    seen = {original}
    found = []
    for m in mutations(tree):
        try:
            t, what = apply(tree, m)
            text = ast.unparse(t)
            ast.parse(text)  # parse only: mutants are never executed outside the sandbox
        except (SyntaxError, ValueError, TypeError, AttributeError, IndexError):
            continue
        if text in seen:
            continue
        seen.add(text)
        found.append((m[1], what, text + "\n"))
    total = len(found)
    if per_task and len(found) > per_task:
        # stratified: a seeded shuffle within each operator, then round-robin over the operators
        # (const mutations are ~45% of all; a plain sample would be mostly those)
        rng = random.Random(f"{seed}:{task['task_id']}")
        groups = {}
        for k, m in enumerate(found):
            groups.setdefault(m[0], []).append(k)
        order = sorted(groups)
        rng.shuffle(order)
        for g in order:
            rng.shuffle(groups[g])
        keep = []
        while len(keep) < per_task:
            for g in order:
                if groups[g] and len(keep) < per_task:
                    keep.append(groups[g].pop())
        found = [found[k] for k in sorted(keep)]
    return [(f"{task['task_id']}#{k}", op, what, text) for k, (op, what, text) in enumerate(found)], total


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--tasks", type=int, default=60, help="first N usable tasks (0: all)")
    ap.add_argument("--per-task", type=int, default=8, help="mutants per task (0: all)")
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--max-inputs", type=int, default=0, help="generated inputs per task (0: default 300)")
    ap.add_argument("--shrink-calls", type=int, default=1,
                    help="shrink budget of a caught mutant (default 1: shrinking decides nothing here)")
    ap.add_argument("--timeout", type=float, default=1.0,
                    help="per-case timeout of every task, canonical and mutants alike (default 1 s; "
                         "0: the task's own, 2 s): a hanging mutant costs one per input")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "mbpp_mutants.json"))
    ap.add_argument("--details", help="also write one JSON line per mutant here")
    a = ap.parse_args()
    if not os.path.exists(a.data):
        print(f"SKIP: MBPP+ data not found at {a.data} (../shared/data); nothing measured", file=sys.stderr)
        return 77
    runner = os.path.join(a.build, "bench", "bench_mutants")
    if not os.access(runner, os.X_OK):
        print(f"bench_mutants not built at {runner}: cmake --build {a.build}", file=sys.stderr)
        return 2
    tasks = [json.loads(line) for line in open(a.data, encoding="utf-8") if line.strip()]
    tmp = tempfile.mkdtemp(prefix="sgmut.")
    task_file = os.path.join(tmp, "tasks.txt")
    mut_file = os.path.join(tmp, "mutants.jsonl")
    res_file = os.path.join(tmp, "results.jsonl")
    # All tasks' mutants are written; the runner takes tasks in file order until --tasks of them
    # pass the canonical check, and only then runs their mutants.
    generated_all = 0
    per_task_total = {}
    per_task_kept = {}
    with open(mut_file, "w", encoding="utf-8") as f:
        for t in tasks:
            muts, total = task_mutants(t, a.per_task, a.seed)
            per_task_total[t["task_id"]] = total
            per_task_kept[t["task_id"]] = len(muts)
            generated_all += len(muts)
            for mid, op, what, text in muts:
                f.write(json.dumps({"task_id": t["task_id"], "mutant_id": mid, "op": op, "what": what,
                                    "completion": text}, ensure_ascii=False) + "\n")
    cmd = [runner, "--suite", a.data, "--mutants", mut_file, "--out", res_file, "-j", str(a.j),
           "--tasks", str(a.tasks), "--shrink-calls", str(a.shrink_calls), "--timeout", str(a.timeout)]
    if a.max_inputs:
        cmd += ["--max-inputs", str(a.max_inputs)]
    print("running:", " ".join(cmd), flush=True)
    t0 = time.time()
    rc = subprocess.run(cmd).returncode
    wall = time.time() - t0
    if rc != 0:
        print(f"bench_mutants failed (exit {rc})", file=sys.stderr)
        return 1
    rows = [json.loads(line) for line in open(res_file, encoding="utf-8")]
    canon = [r for r in rows if r["kind"] == "canonical"]
    muts = [r for r in rows if r["kind"] == "mutant"]
    used = [r["task_id"] for r in canon if r["usable"]]
    excluded = [(r["task_id"], r["why"]) for r in canon if not r["usable"]]
    late = [r for r in canon if r.get("late")]
    n = len(muts)
    base_killed = sum(r["base"] == "fail" for r in muts)
    base_error = sum(r["base"] == "error" for r in muts)
    surv = [r for r in muts if r["base"] == "pass"]
    s = len(surv)
    props = sum(r["props"] == "fail" for r in surv)
    props_err = sum(r["props"] == "error" for r in surv)
    plus = sum(r["plus"] == "fail" for r in surv)
    plus_err = sum(r["plus"] == "error" for r in surv)
    both = sum(r["props"] == "fail" and r["plus"] == "fail" for r in surv)
    only_props = sum(r["props"] == "fail" and r["plus"] != "fail" for r in surv)
    only_plus = sum(r["plus"] == "fail" and r["props"] != "fail" for r in surv)
    neither = sum(r["props"] != "fail" and r["plus"] != "fail" for r in surv)
    by_op = {}
    for r in surv:
        d = by_op.setdefault(r["op"], [0, 0, 0])
        d[0] += 1
        d[1] += r["props"] == "fail"
        d[2] += r["plus"] == "fail"
    summary = {
        "data": os.path.basename(a.data),
        "command": "python3 bench/mbpp_mutants.py " + " ".join(sys.argv[1:]),
        "seed": a.seed, "tasks_requested": a.tasks, "per_task": a.per_task, "threads": a.j,
        "max_inputs": a.max_inputs or 300, "shrink_calls": a.shrink_calls, "timeout_s": a.timeout or 2,
        "tasks_used": len(used), "tasks_excluded": [{"task_id": t, "why": w} for t, w in excluded],
        "mutants_dropped_with_late_excluded_tasks": sum(per_task_kept.get(r["task_id"], 0) for r in late),
        "mutants_possible_in_used_tasks": sum(per_task_total.get(t, 0) for t in used),
        "mutants": n, "base_killed": base_killed, "base_error": base_error, "survivors": s,
        "survivors_caught": {"base_tests": 0, "property_stage": props, "plus_inputs": plus,
                             "both": both, "property_stage_only": only_props, "plus_inputs_only": only_plus,
                             "neither": neither},
        "errors": {"property_stage": props_err, "plus_inputs": plus_err},
        "by_operator": {k: {"survivors": v[0], "property_stage": v[1], "plus_inputs": v[2]}
                        for k, v in sorted(by_op.items())},
        "flaky_runs_overturned_by_rerun": {
            "canonical": [{"task_id": r["task_id"], "first": r["flaky"]} for r in canon if r.get("flaky")],
            "mutants": [{"mutant_id": r["mutant_id"], "first": r["flaky"]} for r in muts if r.get("flaky")]},
        "wall_seconds": round(wall, 1),
        "missed_by_property_stage_caught_by_plus": [
            {"mutant_id": r["mutant_id"], "what": r["what"]} for r in surv
            if r["props"] != "fail" and r["plus"] == "fail"][:40],
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    if a.details:
        with open(a.details, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"\n{len(used)} MBPP+ tasks used ({len(excluded)} excluded: canonical solution not passing "
          f"every configuration), {n} mutants ({a.per_task or 'all'} per task, seed {a.seed}), {wall:.0f} s, -j {a.j}")
    for t, w in excluded[:10]:
        print(f"  excluded {t}: {w}")
    print(f"base tests kill {base_killed} ({pct(base_killed, n)}); {base_error} errors; "
          f"{s} survive the base tests ({pct(s, n)})\n")
    print("| of the mutants that survive the base tests | caught | % |")
    print("| --- | --- | --- |")
    print(f"| base tests alone (by construction) | 0 of {s} | 0% |")
    print(f"| property stage, suite without `plus_input` | {props} of {s} | {pct(props, s)} |")
    print(f"| `plus_input` cases alone (reference point) | {plus} of {s} | {pct(plus, s)} |")
    print(f"| both / property stage only / plus only / neither | {both} / {only_props} / {only_plus} / {neither} | |")
    print(f"\n(property-stage error verdicts: {props_err}; plus-run errors: {plus_err}; "
          f"{generated_all} mutants were generated over all {len(tasks)} tasks, {summary['mutants_possible_in_used_tasks']} "
          f"possible in the used tasks before the per-task cap)")
    fl = summary["flaky_runs_overturned_by_rerun"]
    if fl["canonical"] or fl["mutants"]:
        print(f"suspect runs (error, timeout, protocol error) overturned by their rerun: {len(fl['canonical'])} "
              f"canonical, {len(fl['mutants'])} mutants (listed in the summary)")
    print("by operator (survivors: caught by properties / by plus):",
          ", ".join(f"{k} {v[0]}: {v[1]}/{v[2]}" for k, v in sorted(by_op.items())))
    print(f"summary written to {os.path.relpath(a.out, os.getcwd())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
