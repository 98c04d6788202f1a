#!/usr/bin/python3
"""Validate the built-in golden task suite (CTest: golden.builtin).

    /usr/bin/python3 tests/golden/validate_builtin.py golden_tasks [-v]

Checks, for every line of every golden_tasks/builtin/*.jsonl:
  - the line is RFC 8259 JSON (no NaN/Infinity tokens, no duplicate member names) and valid
    against golden_tasks/task.schema.json (evaluated by sgtasks.SchemaChecker, a hand-written
    evaluator of the JSON Schema keywords the schema uses: no jsonschema package is needed);
  - the rules of docs/tasks.md the schema cannot state: tag payloads, the 2^53 integer rule,
    signature type strings under the grammar, property parameters, built-in suite rules
    (sg/ ids unique across files, >= 50 tasks, >= 5 cases, prompt and solution policy);
  - the canonical solution passes each of its cases (strict comparison, `raises` by class name);
    the case arguments conform to the signature and expected values to its return type;
  - the declared properties hold for the reference on the case arguments and on seeded
    generated inputs; results do not depend on PYTHONHASHSEED;
and golden_tasks/testdata/buggy_candidates.jsonl: each planted bug passes the first case of its
task and disagrees with the reference on its min_counterexample. Also the codec/grammar vectors
in golden_tasks/testdata/{tagged_values,type_strings}.jsonl, when present.

Exit 0 when all checks pass, 1 listing every failure. This driver is trusted test code: it runs
the project's own canonical solutions with exec() in this process.
"""

import ast
import copy
import hashlib
import inspect
import json
import math
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

sys.dont_write_bytecode = True  # keep the source tree clean (it may be read-only)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sgtasks  # noqa: E402
from sgtasks import FormatError, TypeSyntaxError  # noqa: E402

MIN_TASKS = 50
MIN_CASES = 5
MIN_BUGGY = 10
GENERATED_PER_TASK = 120

ALLOWED_IMPORTS = {
    "base64", "bisect", "calendar", "collections", "copy", "dataclasses", "datetime", "decimal",
    "enum", "fractions", "functools", "hashlib", "heapq", "html", "itertools", "json", "math",
    "operator", "re", "shlex", "statistics", "string", "typing", "unicodedata", "urllib.parse",
}
FORBIDDEN_NAMES = {"eval", "exec", "compile", "__import__", "open", "input", "globals", "locals",
                   "vars", "breakpoint", "hash", "id", "getattr", "setattr", "delattr"}


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def call_with_timeout(fn, args, kwargs, seconds):
    """(ok, value_or_exception). A Timeout is reported as an exception value."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return True, fn(*args, **kwargs)
    except Timeout as e:
        return False, e
    except Exception as e:  # the reference's declared exceptions, or a bug we report
        return False, e
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class Report:
    def __init__(self):
        self.failures = []

    def fail(self, where, msg):
        self.failures.append(f"{where}: {msg}")


def short(v, n=120):
    r = repr(v)
    return r if len(r) <= n else r[:n] + "..."


# ---------------------------------------------------------------------------------------------

def load_module(source, name):
    ns = {"__name__": name}
    exec(compile(source, f"<{name}>", "exec"), ns)  # trusted: the project's own solutions
    return ns


def policy_check(src, where, rep, entry_point):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        rep.fail(where, f"canonical_solution does not parse: {e}")
        return
    defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    if entry_point not in defs:
        rep.fail(where, f"canonical_solution does not define {entry_point} at top level")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name not in ALLOWED_IMPORTS:
                    rep.fail(where, f"import {a.name} is outside the allowed standard modules")
        elif isinstance(node, ast.ImportFrom):
            if node.module not in ALLOWED_IMPORTS or node.level:
                rep.fail(where, f"from {node.module} import ... is outside the allowed modules")
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            rep.fail(where, f"uses forbidden name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in ("now", "today", "utcnow", "time",
                                                               "random", "urandom", "system"):
            rep.fail(where, f"uses .{node.attr} (non-deterministic or unsafe)")


def defined_functions(src):
    return {n.name for n in ast.parse(src).body if isinstance(n, ast.FunctionDef)}


def resolve_inverse(name, ns):
    if "." not in name:
        return ns.get(name)
    import importlib
    mod, _, attr = name.rpartition(".")
    if mod.split(".")[0] not in {m.split(".")[0] for m in ALLOWED_IMPORTS}:
        return None
    return getattr(importlib.import_module(mod), attr, None)


# ---------------------------------------------------------------------------------------------

def check_task_semantics(t, where, rep):
    """Rules beyond the schema. Returns (parsed signature or None, decoded cases or None)."""
    tid = t["task_id"]
    if not (isinstance(tid, str) and tid.startswith("sg/") and tid[3:]
            and all(c.islower() or c.isdigit() or c == "_" for c in tid[3:]) and tid[3:].isascii()):
        rep.fail(where, f"task_id {tid!r} is not sg/[a-z0-9_]+")
    for field in ("prompt", "entry_point", "canonical_solution", "signature", "tests", "tags"):
        if field not in t:
            rep.fail(where, f"{field}: required in the built-in suite")
    if t.get("complete_solution") is not True:
        rep.fail(where, "complete_solution: must be true in the built-in suite")
    if "tests" in t and len(t["tests"]) < MIN_CASES:
        rep.fail(where, f"tests: {len(t['tests'])} cases, at least {MIN_CASES} required")
    ep = t.get("entry_point", "")
    prompt = t.get("prompt", "")
    try:
        ptree = ast.parse(prompt)
        fdefs = [n for n in ptree.body if isinstance(n, ast.FunctionDef) and n.name == ep]
        if not fdefs or ast.get_docstring(fdefs[0]) is None:
            rep.fail(where, f"prompt: no def {ep}(...) with a docstring")
    except SyntaxError as e:
        rep.fail(where, f"prompt: not valid Python ({e})")

    sig = None
    if "signature" in t:
        try:
            sig = {
                "args": [sgtasks.parse_type(s) for s in t["signature"]["args"]],
                "returns": sgtasks.parse_type(t["signature"]["returns"]),
                "kwargs": {k: sgtasks.parse_type(s) for k, s in t["signature"].get("kwargs", {}).items()},
            }
        except TypeSyntaxError as e:
            rep.fail(where, f"signature: {e}")
            sig = None
    cases = []
    for i, c in enumerate(t.get("tests", [])):
        try:
            args = [sgtasks.decode(a, f"tests[{i}].args[{j}]") for j, a in enumerate(c.get("args", []))]
            kwargs = {k: sgtasks.decode(v, f"tests[{i}].kwargs.{k}") for k, v in c.get("kwargs", {}).items()}
            exp = sgtasks.decode(c["expected"], f"tests[{i}].expected") if "expected" in c else None
        except FormatError as e:
            rep.fail(where, str(e))
            cases = None
            break
        cases.append((c, args, kwargs, exp))
        if sig:
            if len(args) > len(sig["args"]):
                rep.fail(where, f"tests[{i}].args: more arguments than the signature declares")
            for j, (a, ty) in enumerate(zip(args, sig["args"])):
                if not sgtasks.conforms(a, ty, options=False):
                    rep.fail(where, f"tests[{i}].args[{j}]: {short(a)} does not conform to {t['signature']['args'][j]}")
            for k, v in kwargs.items():
                if k in sig["kwargs"] and not sgtasks.conforms(v, sig["kwargs"][k], options=False):
                    rep.fail(where, f"tests[{i}].kwargs.{k}: does not conform")
            if "expected" in c and not sgtasks.conforms(exp, sig["returns"]):
                rep.fail(where, f"tests[{i}].expected: {short(exp)} does not conform to {t['signature']['returns']}")
    seeds = []
    for i, seed in enumerate(t.get("fuzz", {}).get("seeds", [])):
        try:
            seeds.append([sgtasks.decode(a, f"fuzz.seeds[{i}][{j}]") for j, a in enumerate(seed)])
        except FormatError as e:
            rep.fail(where, str(e))
    if sig and seeds:
        for i, seed in enumerate(seeds):
            if len(seed) > len(sig["args"]) or not all(
                    sgtasks.conforms(a, ty, options=False) for a, ty in zip(seed, sig["args"])):
                rep.fail(where, f"fuzz.seeds[{i}]: does not match the signature's types")
    if cases is not None:
        cases.extend(({"seed": True}, seed, {}, None) for seed in seeds)
    nargs = len(t["signature"]["args"]) if "signature" in t else 0
    declared_exc = None
    for k, p in enumerate(t.get("properties", [])):
        for key in ("arg",):
            if key in p and p[key] >= nargs:
                rep.fail(where, f"properties[{k}].arg: {p[key]} beyond the signature's {nargs} arguments")
        for a in p.get("args", []) if p["name"] == "no_mutation" else []:
            if a >= nargs:
                rep.fail(where, f"properties[{k}].args: {a} beyond the signature")
        if p["name"] == "returns_type" and "type" in p:
            try:
                sgtasks.parse_type(p["type"])
            except TypeSyntaxError as e:
                rep.fail(where, f"properties[{k}].type: {e}")
        if p["name"] == "no_raise":
            declared_exc = p.get("except", [])
        if p["name"] == "roundtrip" and "." not in p["inverse"]:
            try:
                if p["inverse"] not in defined_functions(t.get("canonical_solution", "")):
                    rep.fail(where, f"properties[{k}].inverse: {p['inverse']} is not defined by canonical_solution")
            except SyntaxError:
                pass
    names = [p["name"] for p in t.get("properties", [])]
    if len(names) != len(set(names)):
        rep.fail(where, "properties: a property is named twice")
    if declared_exc is not None:
        for i, c in enumerate(t.get("tests", [])):
            if "raises" in c and c["raises"] not in declared_exc:
                rep.fail(where, f"tests[{i}].raises: {c['raises']} is not in no_raise.except {declared_exc}")
    return sig, cases


def run_prompt_examples(t, ns, where, rep):
    """The >>> examples in the prompt's docstring must hold for the reference."""
    import doctest
    import io
    try:
        tree = ast.parse(t["prompt"])
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == t["entry_point"])
        doc = ast.get_docstring(fn, clean=True) or ""
        test = doctest.DocTestParser().get_doctest(doc, dict(ns), t["task_id"], None, 0)
    except (SyntaxError, StopIteration, ValueError) as e:
        rep.fail(where, f"prompt: examples do not parse: {e}")
        return
    if not test.examples:
        rep.fail(where, "prompt: no >>> example")
        return
    out = io.StringIO()
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=out.write)
    if result.failed:
        rep.fail(where, "prompt: an example disagrees with the reference: " + " | ".join(
            line.strip() for line in out.getvalue().splitlines() if line.strip() and not line.startswith("*"))[:400])


def run_cases(t, ns, cases, where, rep, verbose):
    fn = ns.get(t["entry_point"])
    timeout = t.get("timeout", 2.0)
    passed = 0
    for i, (c, args, kwargs, exp) in enumerate(cases):
        if c.get("seed"):
            continue
        ok, got = call_with_timeout(fn, copy.deepcopy(args), copy.deepcopy(kwargs), timeout)
        label = f"tests[{i}]" + (f" ({c['name']})" if "name" in c else "")
        if "raises" in c:
            if ok:
                rep.fail(where, f"{label}: expected {c['raises']}, returned {short(got)}")
            elif not sgtasks.exception_matches(got, c["raises"]):
                rep.fail(where, f"{label}: expected {c['raises']}, raised {type(got).__name__}: {got}")
            else:
                passed += 1
        else:
            atol = c.get("atol", t.get("atol", 0.0))
            rtol = c.get("rtol", 0.0)
            if not ok:
                rep.fail(where, f"{label}: raised {type(got).__name__}: {got}; expected {short(exp)}")
            elif not sgtasks.strict_equal(got, exp, atol, rtol):
                rep.fail(where, f"{label}: args {short(args)}: got {short(got)}, expected {short(exp)}")
            else:
                passed += 1
    if verbose:
        print(f"  {t['task_id']}: {passed}/{sum(1 for c in cases if not c[0].get('seed'))} cases")
    return passed


def make_contract(t, ns):
    """A predicate on (args, kwargs) from the task's `contract`, or None."""
    if "contract" not in t:
        return None
    code = compile(textwrap.dedent(t["contract"]), "<contract>", "exec")
    sig = inspect.signature(ns[t["entry_point"]])

    def holds(args, kwargs):
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return False
        bound.apply_defaults()
        env = dict(ns)
        env.update(copy.deepcopy(dict(bound.arguments)))
        try:
            exec(code, env)  # trusted: the project's own contract
        except Exception:
            return False
        return True
    return holds


def task_seed(task_id):
    return int.from_bytes(hashlib.sha256(task_id.encode()).digest()[:8], "big")


def input_sets(t, sig, cases, count):
    """Case arguments first, then seeded generated argument lists."""
    out = [(list(a), dict(k)) for _, a, k, _ in cases]
    if sig is None:
        return out
    rng = random.Random(t.get("fuzz", {}).get("seed", task_seed(t["task_id"])))
    max_size = t.get("fuzz", {}).get("max_size")
    for _ in range(count):
        out.append(([sgtasks.generate(ty, rng, max_size) for ty in sig["args"]], {}))
    return out


def check_properties(t, ns, sig, cases, where, rep):
    fn = ns.get(t["entry_point"])
    timeout = t.get("timeout", 2.0)
    props = {p["name"]: p for p in t.get("properties", [])}
    declared = set(props)
    failures = 0
    outputs = []
    contract = make_contract(t, ns)
    if contract is not None:
        for i, (c, args, kwargs, _) in enumerate(cases):
            if "expected" in c and not contract(args, kwargs):
                rep.fail(where, f"tests[{i}]: arguments do not satisfy the contract")
    for args, kwargs in input_sets(t, sig, cases, GENERATED_PER_TASK):
        if failures >= 3:
            break
        if contract is not None and not contract(args, kwargs):
            outputs.append(["invalid"])
            continue
        before = copy.deepcopy((args, kwargs))
        ok, y = call_with_timeout(fn, args, kwargs, timeout)

        def bad(msg):
            nonlocal failures
            failures += 1
            rep.fail(where, f"property {msg} on args {short(before[0])}")

        if not ok:
            if isinstance(y, Timeout):
                bad("(reference timed out)")
                continue
            if "no_raise" in props:
                allowed = props["no_raise"].get("except", [])
                if not any(sgtasks.exception_matches(y, n) for n in allowed):
                    bad(f"no_raise: reference raised {type(y).__name__}: {y}")
            outputs.append(["raise", type(y).__name__])
            continue
        try:
            outputs.append(["ok", sgtasks.encode(y)])
        except FormatError as e:
            bad(f"(result has no encoding: {e})")
            continue
        if sig is not None:
            rtype = sig["returns"]
            if "returns_type" in props and "type" in props["returns_type"]:
                rtype = sgtasks.parse_type(props["returns_type"]["type"])
            if not sgtasks.conforms(y, rtype):
                bad(f"returns_type: {short(y)} does not conform to {t['signature']['returns']}")
        if "no_mutation" in declared:
            idx = props["no_mutation"].get("args", range(len(args)))
            for i in idx:
                if i < len(args) and not sgtasks.strict_equal(args[i], before[0][i]):
                    bad(f"no_mutation: argument {i} changed to {short(args[i])}")
            if "args" not in props["no_mutation"] and not sgtasks.strict_equal(kwargs, before[1]):
                bad("no_mutation: keyword arguments changed")
        a0 = copy.deepcopy(before[0])
        if "idempotent" in declared:
            k = props["idempotent"].get("arg", 0)
            a2 = list(a0)
            a2[k] = copy.deepcopy(y)
            ok2, y2 = call_with_timeout(fn, a2, copy.deepcopy(before[1]), timeout)
            if not ok2 or not sgtasks.strict_equal(y2, y):
                bad(f"idempotent: f(y) = {short(y2)} != y = {short(y)}")
        if "sorted_permutation" in declared:
            p = props["sorted_permutation"]
            src = a0[p.get("arg", 0)]
            try:
                want = sorted(src, reverse=p.get("reverse", False))
            except TypeError:
                want = None
            if type(y) is not list or want is None or not sgtasks.strict_equal(y, want):
                bad(f"sorted_permutation: {short(y)}")
        if "roundtrip" in declared:
            p = props["roundtrip"]
            inv = resolve_inverse(p["inverse"], ns)
            if inv is None:
                bad(f"roundtrip: inverse {p['inverse']} not found")
            else:
                ok3, back = call_with_timeout(inv, [copy.deepcopy(y)], {}, timeout)
                if not ok3 or not sgtasks.strict_equal(back, a0[p.get("arg", 0)]):
                    bad(f"roundtrip: {p['inverse']}(f(x)) = {short(back)}")
        # deterministic within one process
        ok4, y4 = call_with_timeout(fn, copy.deepcopy(before[0]), copy.deepcopy(before[1]), timeout)
        if not ok4 or not sgtasks.strict_equal(y4, y):
            bad("(determinism): a second call gave a different result")
    return outputs


# ---------------------------------------------------------------------------------------------

def load_tasks(golden, rep, checker):
    tasks = []
    files = sorted((golden / "builtin").glob("*.jsonl"))
    if not files:
        rep.fail(str(golden / "builtin"), "no *.jsonl files")
    for path in files:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            line = line[:-1] if line.endswith("\r") else line
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = f"{path.relative_to(golden.parent)}:{lineno}"
            try:
                t = sgtasks.loads_line(line)
            except ValueError as e:
                rep.fail(where, f"not JSON: {e}")
                continue
            errs = checker.errors(t)
            for p, m in errs:
                rep.fail(where, f"{p}: {m}")
            if errs:
                for msg in value_errors(t):  # the decoder names the bad tag or literal
                    rep.fail(where, msg)
            if errs:
                continue
            tasks.append((path, lineno, f"{where} ({t['task_id']})", t))
    return tasks


def check_public_data(golden, checker, rep):
    """The schema must accept the public files users already have, as they are (HumanEval, MBPP,
    MBPP+ from ../shared/data or $SNIPGATE_DATA_DIR). Missing data is a note, not a failure."""
    import gzip
    data = Path(os.environ.get("SNIPGATE_DATA_DIR", golden.parent.parent / "shared" / "data"))
    files = [("HumanEval.jsonl.gz", gzip.open), ("mbpp.jsonl", open)] + \
        [(p.name, open) for p in sorted(data.glob("MbppPlus*.jsonl"))]
    checked = 0
    for name, opener in files:
        path = data / name
        if not path.exists():
            print(f"note: {path} not found; public-format check skipped for it")
            continue
        ids = set()
        with opener(path, "rt", encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                t = sgtasks.loads_line(line, allow_constants=True)
                checked += 1
                for p, m in checker.errors(t)[:3]:
                    rep.fail(f"{name}:{lineno}", f"public task rejected by the schema: {p}: {m}")
                if t.get("task_id") in ids:
                    rep.fail(f"{name}:{lineno}", "duplicate task_id")
                ids.add(t.get("task_id"))
    return checked


def check_sources(golden, rep):
    """golden_tasks/builtin/*.jsonl must be what golden_tasks/tools/gen_builtin.py writes."""
    gen = golden / "tools" / "gen_builtin.py"
    if not gen.exists():
        return
    r = subprocess.run([sys.executable, str(gen), "--check"], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    if r.returncode != 0:
        rep.fail("golden_tasks/src", "JSONL out of date with its sources (run tools/gen_builtin.py): "
                 + r.stderr.strip().replace("\n", "; "))


def value_errors(t):
    """Decoder messages for the tagged values of a task that failed the schema."""
    out = []
    tests = t.get("tests") if isinstance(t, dict) else None
    for i, c in enumerate(tests if isinstance(tests, list) else []):
        if not isinstance(c, dict):
            continue
        fields = [(f"tests[{i}].args[{j}]", a) for j, a in enumerate(c.get("args", []) or [])]
        if isinstance(c.get("kwargs"), dict):
            fields += [(f"tests[{i}].kwargs.{k}", v) for k, v in c["kwargs"].items()]
        if "expected" in c:
            fields.append((f"tests[{i}].expected", c["expected"]))
        for path, v in fields:
            try:
                sgtasks.decode(v, path)
            except FormatError as e:
                out.append(str(e))
    return out


def hashseed_outputs(golden, seed):
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, __file__, str(golden), "--emit-outputs"],
                       env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return None, r.stderr
    return r.stdout, ""


def check_buggy(golden, by_id, modules, rep, verbose):
    path = golden / "testdata" / "buggy_candidates.jsonl"
    if not path.exists():
        rep.fail(str(path), "missing")
        return 0
    n = 0
    for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip():
            continue
        where = f"{path.relative_to(golden.parent)}:{lineno}"
        try:
            b = sgtasks.loads_line(line)
        except ValueError as e:
            rep.fail(where, f"not JSON: {e}")
            continue
        missing = {"task_id", "completion", "bug", "min_counterexample"} - set(b)
        extra = set(b) - {"task_id", "completion", "bug", "min_counterexample"}
        if missing or extra:
            rep.fail(where, f"fields: missing {sorted(missing)}, unknown {sorted(extra)}")
            continue
        t = by_id.get(b["task_id"])
        if t is None or b["task_id"] not in modules:
            rep.fail(where, f"task_id {b['task_id']!r}: no such (valid) built-in task")
            continue
        n += 1
        try:
            cand = load_module(b["completion"], "sg_candidate")
            mc = b["min_counterexample"]
            margs = [sgtasks.decode(a, "min_counterexample.args") for a in mc["args"]]
            mkw = {k: sgtasks.decode(v, "min_counterexample.kwargs") for k, v in mc.get("kwargs", {}).items()}
        except Exception as e:
            rep.fail(where, f"candidate or counterexample does not load: {type(e).__name__}: {e}")
            continue
        fn = cand.get(t["entry_point"])
        ref = modules[b["task_id"]].get(t["entry_point"])
        first = t["tests"][0]
        fargs = [sgtasks.decode(a) for a in first.get("args", [])]
        fkw = {k: sgtasks.decode(v) for k, v in first.get("kwargs", {}).items()}
        ok, got = call_with_timeout(fn, fargs, fkw, t.get("timeout", 2.0))
        if "expected" in first:
            passes_first = ok and sgtasks.strict_equal(got, sgtasks.decode(first["expected"]))
        else:
            passes_first = not ok and sgtasks.exception_matches(got, first["raises"])
        if not passes_first:
            rep.fail(where, f"planted bug is not subtle: it fails the first case of {b['task_id']} ({short(got)})")
        sig = t["signature"]
        for j, (a, ty) in enumerate(zip(margs, sig["args"])):
            if not sgtasks.conforms(a, sgtasks.parse_type(ty), options=False):
                rep.fail(where, f"min_counterexample.args[{j}] does not conform to {ty}")
        contract = make_contract(t, modules[b["task_id"]])
        if contract is not None and not contract(margs, mkw):
            rep.fail(where, "min_counterexample does not satisfy the task's contract")
        okr, want = call_with_timeout(ref, copy.deepcopy(margs), copy.deepcopy(mkw), t.get("timeout", 2.0))
        before = copy.deepcopy(margs)
        okc, got = call_with_timeout(fn, margs, mkw, t.get("timeout", 2.0))
        if okr and okc:
            differs = not sgtasks.strict_equal(got, want)
            if not differs and not sgtasks.strict_equal(margs, before):
                differs = True  # a mutation bug: same result, changed argument
        elif not okr and not okc:
            differs = type(got).__name__ != type(want).__name__
        else:
            differs = True
        if not differs:
            rep.fail(where, f"min_counterexample does not expose the bug (both give {short(want)})")
        else:
            simpler = shrink_neighbour_exposing(ref, fn, before, mkw, contract, t)
            if simpler is not None:
                rep.fail(where, f"min_counterexample is not minimal: {short(simpler)} also exposes the bug")
        passed = 0
        for c in t["tests"]:
            a = [sgtasks.decode(x) for x in c.get("args", [])]
            k = {kk: sgtasks.decode(v) for kk, v in c.get("kwargs", {}).items()}
            okx, gx = call_with_timeout(fn, a, k, t.get("timeout", 2.0))
            if "expected" in c:
                passed += okx and sgtasks.strict_equal(gx, sgtasks.decode(c["expected"]))
            else:
                passed += (not okx) and sgtasks.exception_matches(gx, c["raises"])
        if verbose:
            print(f"  buggy {b['task_id']}: passes {passed}/{len(t['tests'])} cases; counterexample "
                  f"{short(before)} -> ref {short(want)}, bug {short(got)}")
    return n


def exposes(ref, fn, args, kwargs, timeout):
    """Whether the candidate fn and the reference disagree on (args, kwargs)."""
    okr, want = call_with_timeout(ref, copy.deepcopy(args), copy.deepcopy(kwargs), timeout)
    a = copy.deepcopy(args)
    okc, got = call_with_timeout(fn, a, copy.deepcopy(kwargs), timeout)
    if okr and okc:
        return not sgtasks.strict_equal(got, want) or not sgtasks.strict_equal(a, args)
    if not okr and not okc:
        return type(got).__name__ != type(want).__name__
    return True


def shrink_neighbour_exposing(ref, fn, args, kwargs, contract, t):
    """A one-step-simpler valid input that still exposes the bug, or None (the input is minimal)."""
    sig = [sgtasks.parse_type(ty) for ty in t["signature"]["args"]]
    for i, a in enumerate(args):
        for w in sgtasks.shrink_steps(a):
            cand = list(args[:i]) + [w] + list(args[i + 1:])
            if i < len(sig) and not sgtasks.conforms(w, sig[i], options=False):
                continue
            if contract is not None and not contract(cand, kwargs):
                continue
            if exposes(ref, fn, cand, kwargs, t.get("timeout", 2.0)):
                return cand
    return None


def check_vectors(golden, rep):
    """Conformance vectors for the C implementations (optional files)."""
    n = 0
    tv = golden / "testdata" / "tagged_values.jsonl"
    if tv.exists():
        for lineno, line in enumerate(tv.read_text(encoding="utf-8").split("\n"), 1):
            if not line.strip():
                continue
            where = f"{tv.relative_to(golden.parent)}:{lineno}"
            v = json.loads(line)
            n += 1
            try:
                value = sgtasks.decode(sgtasks.loads_line(v["json"]))
                err = None
            except (FormatError, ValueError) as e:
                value, err = None, str(e)
            if v["valid"]:
                if err:
                    rep.fail(where, f"valid vector rejected: {err}")
                    continue
                if "repr" in v and repr_value(value) != v["repr"]:
                    rep.fail(where, f"decodes to {repr_value(value)}, vector says {v['repr']}")
                if "canonical" in v and json.dumps(sgtasks.encode(value)) != json.dumps(json.loads(v["canonical"])):
                    rep.fail(where, f"encodes to {json.dumps(sgtasks.encode(value), ensure_ascii=False)}")
            elif err is None:
                rep.fail(where, f"invalid vector accepted as {short(value)}")
    ts = golden / "testdata" / "type_strings.jsonl"
    if ts.exists():
        for lineno, line in enumerate(ts.read_text(encoding="utf-8").split("\n"), 1):
            if not line.strip():
                continue
            where = f"{ts.relative_to(golden.parent)}:{lineno}"
            v = json.loads(line)
            n += 1
            try:
                ty = sgtasks.parse_type(v["type"])
                err = None
            except TypeSyntaxError as e:
                ty, err = None, str(e)
            if v["valid"] and err:
                rep.fail(where, f"valid type {v['type']!r} rejected: {err}")
            elif not v["valid"] and err is None:
                rep.fail(where, f"invalid type {v['type']!r} accepted")
            elif ty is not None:
                for enc in v.get("conforming", []):
                    if not sgtasks.conforms(sgtasks.decode(sgtasks.loads_line(json.dumps(enc))), ty):
                        rep.fail(where, f"{enc} should conform to {v['type']}")
                for enc in v.get("not_conforming", []):
                    if sgtasks.conforms(sgtasks.decode(sgtasks.loads_line(json.dumps(enc))), ty):
                        rep.fail(where, f"{enc} should not conform to {v['type']}")
    return n


def repr_value(v):
    """repr() with floats that show -0.0/nan/inf unambiguously and sets in sorted order."""
    if type(v) is set:
        return "{" + ", ".join(sorted(repr_value(x) for x in v)) + "}" if v else "set()"
    if type(v) is list:
        return "[" + ", ".join(repr_value(x) for x in v) + "]"
    if type(v) is tuple:
        inner = ", ".join(repr_value(x) for x in v)
        return "(" + inner + ("," if len(v) == 1 else "") + ")"
    if type(v) is dict:
        return "{" + ", ".join(f"{repr_value(k)}: {repr_value(x)}" for k, x in v.items()) + "}"
    return repr(v)


def self_check(rep):
    """The checks themselves must reject what they are meant to reject."""
    bad_values = ['{"$tupel": []}', '9007199254740992', '{"$bytes": "abc"}', '{"$float": "1e999"}',
                  '{"$set": [1, 1]}', '{"$set": [[1]]}', '{"$dict": [[1, 2, 3]]}', '"\\ud800"',
                  '{"$int": "01"}', '{"a": 1, "a": 2}', 'NaN']
    for text in bad_values:
        try:
            sgtasks.decode(sgtasks.loads_line(text))
            rep.fail("self-check", f"decoder accepted {text}")
        except (FormatError, ValueError):
            pass
    bad_types = ["list[int", "int(5..1)", "set[list[int]]", "tuple[int, int, ...]", "str(foo)",
                 "int | int", "dict[list[int], int]", "list[int](max=65)", "float(finite, finite)",
                 "str(ascii, chars='a')", "int(1. .2)", "tuple[]", "list[list[list[list[list[list[list[int]]]]]]]"]
    for text in bad_types:
        try:
            sgtasks.parse_type(text)
            rep.fail("self-check", f"type parser accepted {text!r}")
        except TypeSyntaxError:
            pass
    if sgtasks.strict_equal(1, True) or sgtasks.strict_equal([1], (1,)) or \
            not sgtasks.strict_equal(math.nan, math.nan) or sgtasks.strict_equal(1.0, 1):
        rep.fail("self-check", "strict_equal is not strict")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    golden = Path(argv[1]).resolve()
    verbose = "-v" in argv
    emit = "--emit-outputs" in argv
    rep = Report()
    checker = sgtasks.SchemaChecker(json.loads((golden / "task.schema.json").read_text()))
    if not emit:
        self_check(rep)
    tasks = load_tasks(golden, rep, checker)
    seen = {}
    modules, by_id, themes = {}, {}, {}
    all_outputs = {}
    for path, lineno, where, t in tasks:
        tid = t["task_id"]
        if tid in seen:
            rep.fail(where, f"task_id {tid} already defined at {seen[tid]}")
            continue
        seen[tid] = where
        by_id[tid] = t
        for tag in t.get("tags", [])[:1]:
            themes[tag] = themes.get(tag, 0) + 1
        sig, cases = check_task_semantics(t, where, rep)
        policy_check(t.get("canonical_solution", ""), where, rep, t.get("entry_point"))
        try:
            ns = load_module(t["canonical_solution"], "sg_reference")
        except Exception as e:
            rep.fail(where, f"canonical_solution does not load: {type(e).__name__}: {e}")
            continue
        if not callable(ns.get(t["entry_point"])):
            rep.fail(where, f"entry_point {t['entry_point']} is not callable")
            continue
        if cases is None:
            continue
        modules[tid] = ns  # tasks whose cases decode: the planted bugs may use them
        if not emit:
            run_cases(t, ns, cases, where, rep, verbose)
            run_prompt_examples(t, ns, where, rep)
        all_outputs[tid] = check_properties(t, ns, sig, cases, where, rep)
    if emit:
        json.dump(all_outputs, sys.stdout, sort_keys=True)
        return 0
    if len(seen) < MIN_TASKS:
        rep.fail("suite", f"{len(seen)} tasks, at least {MIN_TASKS} required")
    outs = [hashseed_outputs(golden, s) for s in (1, 2)]
    if any(o is None for o, _ in outs):
        rep.fail("suite", "the PYTHONHASHSEED runs failed: " + " ".join(e for _, e in outs)[-2000:])
    else:
        a, b = (json.loads(o) for o, _ in outs)
        for tid in sorted(a):
            if a[tid] != b.get(tid):
                rep.fail(tid, "results depend on PYTHONHASHSEED (1 vs 2)")
    nbuggy = check_buggy(golden, by_id, modules, rep, verbose)
    if nbuggy < MIN_BUGGY:
        rep.fail("testdata/buggy_candidates.jsonl", f"{nbuggy} planted bugs, at least {MIN_BUGGY} expected")
    nvec = check_vectors(golden, rep)
    npublic = check_public_data(golden, checker, rep)
    check_sources(golden, rep)
    ncases = sum(len(t["tests"]) for _, _, _, t in tasks if "tests" in t)
    print(f"golden.builtin: {len(seen)} tasks, {ncases} cases, {nbuggy} planted bugs, {nvec} vectors; by theme: "
          + ", ".join(f"{k} {v}" for k, v in sorted(themes.items())))
    print(f"JSON Schema: checked by the hand-written evaluator in tests/golden/sgtasks.py; "
          f"{npublic} public HumanEval/MBPP/MBPP+ tasks also validated against it")
    if rep.failures:
        print(f"FAILED: {len(rep.failures)} problem(s)")
        for f in rep.failures:
            print("  " + f)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
