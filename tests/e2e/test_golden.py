#!/usr/bin/env python3
"""End-to-end tests of the golden stage from the command line (issue 8): `snipgate check --task`,
`--suite`, `--tests`, `--completion`, `--seed`, `--property-budget`, and `snipgate eval`, run
against the real binary and the real sandbox.

usage: test_golden.py SNIPGATE_BINARY REPO_ROOT

Data: the built-in suite (golden_tasks/builtin), the planted bugs of
golden_tasks/testdata/buggy_candidates.jsonl, and a small suite + samples of this folder
(data/golden/). The sandbox is required: without it every check here fails (the kernel refusing
it is reported by e2e.cli and the sandbox unit tests). The last line is "N passed, M failed".
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passk import comb_pass_at_k, pass_at_k  # noqa: E402
import sarif_schema  # noqa: E402  (validates every SARIF verdict this driver produces)

SG = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
DATA = os.path.join(ROOT, "tests", "e2e", "data", "golden")
SUITE = os.path.join(DATA, "suite.jsonl")
SAMPLES = os.path.join(DATA, "samples.jsonl")
TMP = tempfile.mkdtemp(prefix="sg_golden_e2e_")
# small budgets: every check below takes about a second
BUDGET = ["--property-budget", "40"]

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def run(*args, stdin=None):
    p = subprocess.run([SG, *args], input=stdin, capture_output=True, timeout=120)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    expect(p.returncode >= 0, f"killed by signal {-p.returncode}")
    for bad in ("Segmentation", "AddressSanitizer", "runtime error", "core dumped"):
        expect(bad not in err, f"stderr shows a crash: {err[:300]}")
    bad = sarif_schema.validate_if_sarif(ROOT, args, out)
    expect(not bad, f"SARIF not valid against the 2.1.0 schema: {bad[:3]}")
    return p.returncode, out, err


def run_json(*args):
    rc, out, err = run("check", "--format", "json", *args)
    try:
        return rc, json.loads(out), err
    except ValueError as e:
        raise Failure(f"--format json output does not parse ({e}): {out[:300]} / {err[:300]}")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def builtin_task(task_id):
    for fn in sorted(os.listdir(os.path.join(ROOT, "golden_tasks", "builtin"))):
        with open(os.path.join(ROOT, "golden_tasks", "builtin", fn)) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    t = json.loads(line)
                    if t["task_id"] == task_id:
                        return t
    raise Failure(f"no built-in task {task_id}")


def planted_bug(task_id):
    with open(os.path.join(ROOT, "golden_tasks", "testdata", "buggy_candidates.jsonl")) as f:
        for line in f:
            b = json.loads(line)
            if b["task_id"] == task_id:
                return b
    raise Failure(f"no planted bug for {task_id}")


BS = "sg/binary_search_leftmost"


def usage_error(rc, out, err, *needles):
    expect(rc == 2, f"exit {rc}, want 2 (stderr: {err[:300]})")
    expect(out.strip() == "", f"a usage error printed a verdict: {out[:200]}")
    for n in needles:
        expect(n in err, f"stderr lacks {n!r}: {err[:400]}")


# ------------------------------------------------------------------------------ check --task

@check
def builtin_correct_solution_passes():
    t = builtin_task(BS)
    p = write("bs_ok.py", t["canonical_solution"])
    rc, out, err = run("check", p, "--task", BS, *BUDGET)
    expect(rc == 0, f"exit {rc}, want 0: {out[-600:]} {err[:300]}")
    expect(f"golden {BS}: PASS" in out, f"no golden PASS line: {out[:400]}")
    expect("; golden: 1 passed, 0 failed" in out, f"summary lacks the golden count: {out[-300:]}")


@check
def empty_candidate_with_a_task_is_blocked():
    """An empty file is a valid module, and passes alone; given a task it is still the candidate:
    it defines nothing, so its cases fail (it passed with the golden stage "not run" before)."""
    for name, text in (("empty.py", ""), ("blank.py", "\n\n   \n")):
        p = write(name, text)
        rc, j, err = run_json(p)
        expect(rc == 0 and j["verdict"] == "pass", f"{name} alone: exit {rc}")
        rc, j, err = run_json(p, "--task", BS, *BUDGET)
        crit = {r["criterion"] for r in j["reasons"]}
        expect(rc == 1 and j["verdict"] == "block" and "golden-case" in crit and
               j["stages"]["golden"]["status"] == "block", f"{name} --task: exit {rc}, {crit}, {j['stages']['golden']}")


@check
def builtin_subtle_bug_blocked_text():
    bug = planted_bug(BS)  # off by one on an empty list (IndexError), line 9 of the completion
    p = write("bs_bad.py", bug["completion"])
    rc, out, err = run("check", p, "--task", BS, *BUDGET)
    expect(rc == 1, f"exit {rc}, want 1: {out[-600:]} {err[:300]}")
    expect(f"golden {BS}: FAIL" in out, f"no golden FAIL line: {out[:400]}")
    # the failing case: the input as a call, the expected value, the exception and its line
    expect(f"{p}:9: FAIL SG-GOLDEN test" in out, f"no located SG-GOLDEN case: {out[:800]}")
    expect("input:    binary_search([], 3)" in out, f"no input shown: {out[:800]}")
    expect("expected: -1" in out, f"no expected value: {out[:800]}")
    expect("raised IndexError: list index out of range" in out, f"no exception: {out[:800]}")
    expect(f'File "{p}", line 9, in binary_search' in out, f"traceback not mapped to the snippet: {out[:1200]}")
    # the shrunk counterexample of a property, and the seed to replay it
    expect("FAIL SG-PROPERTY property" in out and "binary_search([], 0)" in out, f"no counterexample: {out[:1500]}")
    expect("seed 24301" in out and "--seed 24301" in out, f"seed not reported: {out[-800:]}")


@check
def builtin_subtle_bug_blocked_json_and_replays():
    p = write("bs_bad.py", planted_bug(BS)["completion"])
    # an input-count budget only: the same seed must give the same run
    args = (p, "--task", BS, "--seed", "77", "--property-budget", "30")
    rc, j, err = run_json(*args)
    expect(rc == 1 and j["verdict"] == "block", f"exit {rc}, verdict {j.get('verdict')}")
    g = j["files"][0]["golden"]
    expect(g["status"] == "fail" and g["task_id"] == BS and g["seed"] == "77", f"golden: {str(g)[:400]}")
    expect(g["cases_run"] >= 5 and g["cases_passed"] == g["cases_run"] - 1, f"counts: {g['cases_run']} {g['cases_passed']}")
    tests = [f for f in g["failures"] if f["kind"] == "test"]
    expect(len(tests) == 1, f"want one failing structured case: {g['failures']}")
    f = tests[0]
    expect(f["rule_id"] == "SG-GOLDEN" and f["input"] == "binary_search([], 3)" and f["expected"] == "-1",
           f"failing case: {f}")
    expect(f["exception"]["type"] == "IndexError" and f["exception"]["line"] == 9, f"exception: {f['exception']}")
    cx = g["counterexample"]
    expect(cx and cx["rule_id"] == "SG-PROPERTY" and cx["args"] == [[], 0], f"counterexample: {cx}")
    expect(j["stats"]["golden"] == {"passed": 0, "failed": 1, "errors": 0, "skipped": 0}, f"stats: {j['stats']}")
    # static fields unchanged
    expect(j["files"][0]["findings"] == [] and j["files"][0]["error"] is None, "static fields changed")
    rc2, j2, _ = run_json(*args)
    g2 = j2["files"][0]["golden"]
    expect((g2["inputs_checked"], g2["counterexample"]["args"]) == (g["inputs_checked"], cx["args"]),
           f"--seed 77 did not replay: {g2['inputs_checked']} vs {g['inputs_checked']}")


@check
def builtin_subtle_bug_sarif():
    p = write("bs_bad.py", planted_bug(BS)["completion"])
    rc, out, err = run("check", "--format", "sarif", p, "--task", BS, *BUDGET)
    expect(rc == 1, f"exit {rc}")
    run0 = json.loads(out)["runs"][0]
    rules = [r["id"] for r in run0["tool"]["driver"]["rules"]]
    expect("SG-GOLDEN" in rules and "SG-PROPERTY" in rules, f"golden rules missing: {rules[-5:]}")
    res = [r for r in run0["results"] if r["ruleId"] in ("SG-GOLDEN", "SG-PROPERTY")]
    expect(res, "no golden results")
    for r in res:
        expect(rules[r["ruleIndex"]] == r["ruleId"], f"ruleIndex points elsewhere: {r['ruleIndex']}")
        loc = r["locations"][0]["physicalLocation"]
        expect(loc["artifactLocation"]["uri"].endswith("bs_bad.py") and loc["region"]["startLine"] == 9,
               f"location: {loc}")
    expect(any("expected -1" in r["message"]["text"] for r in res), f"messages: {[r['message'] for r in res]}")
    expect(run0["properties"]["verdict"] == "block", "SARIF verdict")


@check
def property_catches_what_the_cases_miss():
    # sg/deep_merge's planted bug passes every structured case: only generated inputs find it
    bug = planted_bug("sg/deep_merge")
    p = write("merge_bad.py", bug["completion"])
    rc, j, err = run_json(p, "--task", "sg/deep_merge", "--no-properties")
    expect(rc == 0, f"the planted bug fails a structured case now (exit {rc}); pick another for this check")
    rc, j, err = run_json(p, "--task", "sg/deep_merge", *BUDGET)
    g = j["files"][0]["golden"]
    expect(rc == 1 and g["status"] == "fail" and g["cases_passed"] == g["cases_run"], f"exit {rc}: {str(g)[:500]}")
    cx = g["counterexample"]
    expect(cx and cx["rule_id"] == "SG-PROPERTY" and cx["kind"] == "property" and cx["shrink_calls"] > 0, f"{cx}")
    want = bug["min_counterexample"]["args"]
    expect(len(json.dumps(cx["args"])) <= len(json.dumps(want)) + 2,
           f"counterexample {cx['args']} larger than the documented minimum {want}")
    # expected and got (equal results: the property is about what the call did to its arguments)
    expect(cx["expected"] and cx["got"] and cx["reason"], f"expected/got/reason: {cx}")


@check
def several_files_each_judged():
    ok = write("bs_ok.py", builtin_task(BS)["canonical_solution"])
    bad = write("bs_bad.py", planted_bug(BS)["completion"])
    rc, j, err = run_json(ok, bad, "--task", BS, "--no-properties", "-j", "2")
    expect(rc == 1, f"exit {rc}")
    st = {os.path.basename(f["path"]): f["golden"]["status"] for f in j["files"]}
    expect(st == {"bs_ok.py": "pass", "bs_bad.py": "fail"}, f"statuses: {st}")
    expect(all(f["golden"]["inputs_checked"] == 0 for f in j["files"]), "--no-properties generated inputs")


@check
def markdown_answer_lines_map_to_the_document():
    md = ("Here is my solution:\n\n```python\n" + planted_bug(BS)["completion"] + "```\n\nIt is fast.\n")
    p = write("answer.md", md)
    rc, j, err = run_json(p, "--task", BS, "--no-properties")
    expect(rc == 1, f"exit {rc}: {err[:300]}")
    f = [x for x in j["files"][0]["golden"]["failures"] if x["kind"] == "test"][0]
    # line 9 of the block is line 12 of the Markdown document (the fence opens on line 3)
    expect(f["exception"]["line"] == 12, f"exception line {f['exception']['line']}, want 12")
    expect(f'File "{p}", line 12' in f["exception"]["traceback"], f"traceback: {f['exception']['traceback']}")


# ------------------------------------------------------------------------------ static gate first

@check
def static_block_never_runs():
    # Correct for the task, but it calls os.system: blocked statically. Its top level would also
    # spin for the import's CPU limit (10 s) if it ever ran, so a fast answer is a second proof.
    src = ("import os\n\nwhile True:\n    pass\n\n" + builtin_task(BS)["canonical_solution"] +
           "\ndef cleanup():\n    os.system('rm -rf /tmp/x')\n")
    p = write("evil.py", src)
    t0 = time.monotonic()
    rc, j, err = run_json(p, "--task", BS)
    took = time.monotonic() - t0
    expect(rc == 1, f"exit {rc}")
    fi = j["files"][0]
    expect(any(x["rule_id"] == "SG201" and x["blocking"] for x in fi["findings"]), f"findings: {fi['findings']}")
    g = fi["golden"]
    expect(g["status"] == "skipped" and "cases_run" not in g and "failures" not in g, f"golden ran: {g}")
    expect(took < 5, f"took {took:.1f} s: the snippet may have run")
    rc, out, err = run("check", p, "--task", BS)
    expect("golden sg/binary_search_leftmost: skipped: the static gate blocked; nothing was run" in out, out[-400:])


# ------------------------------------------------------------------------------ --tests

TESTS = """import math

def double(x):
    return 2 * x

assert add(1, 2) == 3
assert add(2, 2) == 5
assert add(2, 3) == double(2) + 1
assert math.isclose(add(0.1, 0.2), 0.3)
"""


@check
def tests_file_failing_assert_shows_expected_and_got():
    snip = write("add.py", "def add(a, b):\n    return a + b\n")
    tests = write("add_tests.py", TESTS)
    rc, out, err = run("check", snip, "--tests", tests)
    expect(rc == 1, f"exit {rc}: {out} {err}")
    expect(f"FAIL SG-GOLDEN assert at {tests}:7" in out, f"assert not located: {out}")
    expect("| assert add(2, 2) == 5" in out and "expected: 5" in out and "got:      4" in out, out)
    expect(f"golden {tests}: FAIL, 3 of 4 cases passed" in out, out)
    rc, j, err = run_json(snip, "--tests", tests)
    f = j["files"][0]["golden"]["failures"]
    expect(len(f) == 1 and f[0]["test_line"] == 7 and (f[0]["expected"], f[0]["got"]) == ("5", "4"), f"{f}")
    # every case is reported, passing ones too, with its input, expected and got
    cases = j["files"][0]["golden"]["cases"]
    expect([(c["test_line"], c["passed"]) for c in cases] == [(6, True), (7, False), (8, True), (9, True)],
           f"cases: {cases}")
    expect(cases[0]["input"] == "assert add(1, 2) == 3" and cases[0]["expected"] == "3" and cases[0]["got"] == "3",
           f"{cases[0]}")


@check
def tests_file_exception_and_pass():
    tests = write("t2.py", "assert add(1, 2) == 3\nassert add(-1, 1) == 0\n")
    good = write("add_ok.py", "def add(a, b):\n    return a + b\n")
    rc, out, err = run("check", good, "--tests", tests)
    expect(rc == 0 and "FAIL" not in out, f"exit {rc}: {out}")
    bad = write("add_raise.py", "def add(a, b):\n    if a < 0:\n        raise ValueError('negative')\n    return a + b\n")
    rc, j, err = run_json(bad, "--tests", tests)
    f = j["files"][0]["golden"]["failures"]
    expect(rc == 1 and len(f) == 1, f"exit {rc}, failures {f}")
    e = f[0]["exception"]
    expect(e["type"] == "ValueError" and e["message"] == "negative" and e["line"] == 3, f"exception {e}")


@check
def tests_file_setup_does_not_shadow_the_snippet():
    # the tests file's helper of the same name must not replace the snippet's own
    snip = write("off.py", "def offset():\n    return 0\n\ndef add(a, b):\n    return a + b + offset()\n")
    tests = write("off_tests.py", "def offset():\n    return 100\n\nassert add(1, 2) == 3\nassert offset() == 100\n")
    rc, out, err = run("check", snip, "--tests", tests)
    expect(rc == 0, f"exit {rc}: {out} {err}")


@check
def tests_file_errors_are_usage_errors():
    snip = write("add.py", "def add(a, b):\n    return a + b\n")
    usage_error(*run("check", snip, "--tests", write("none.py", "x = 1\n")), "no top-level assert")
    usage_error(*run("check", snip, "--tests", write("syn.py", "x = 1\nassert add(1,\n")), "syn.py:2: syntax error")
    usage_error(*run("check", snip, "--tests", os.path.join(TMP, "missing.py")), "missing.py")
    usage_error(*run("check", snip, "--tests", write("t.py", "assert add(1, 1) == 2\n"), "--task", BS), "exclude")


# ------------------------------------------------------------------------------ bad tasks and suites

@check
def unknown_task_is_usage_error():
    snip = write("x.py", "def f():\n    return 1\n")
    usage_error(*run("check", snip, "--task", "sg/no_such_task"), "no built-in task 'sg/no_such_task'")
    usage_error(*run("check", snip, "--suite", SUITE, "--task", "t/nope"), "has no task 't/nope'")


@check
def malformed_suite_names_line_and_field():
    snip = write("x.py", "def add(a, b):\n    return a + b\n")
    bad = write("bad_suite.jsonl", '{"task_id": "a", "entry_point": "add", "tests": [{"args": [1, 2], "expected": 3}]}\n'
                                   '{"task_id": "b", "entry_point": "add", "tests": [{"args": [1], "expectd": 3}]}\n')
    usage_error(*run("check", snip, "--suite", bad, "--task", "a"), f"{bad}:2: tests[0].expectd: unknown field")
    usage_error(*run("check", snip, "--suite", write("notjson.jsonl", "{\n"), "--task", "a"), "notjson.jsonl:1:")
    usage_error(*run("check", snip, "--suite", os.path.join(TMP, "absent.jsonl"), "--task", "a"), "absent.jsonl")
    usage_error(*run("check", snip, "--suite", SUITE), "--suite needs --task")
    usage_error(*run("check", snip, "--seed", "1"), "need --task or --tests")
    usage_error(*run("check", snip, "--task", BS, "--property-budget", "5x"), "--property-budget")


# ------------------------------------------------------------------------------ suites, completions, hangs

@check
def suite_completion_and_mbpp_task():
    ok = write("add_completion.py", "    return a + b\n")
    rc, out, err = run("check", ok, "--suite", SUITE, "--task", "t/add", "--completion", *BUDGET)
    expect(rc == 0, f"exit {rc}: {out} {err}")
    bad = write("add_bad_completion.py", "    x = a\n    return x / 0\n")
    rc, j, err = run_json(bad, "--suite", SUITE, "--task", "t/add", "--completion", "--no-properties")
    f = j["files"][0]["golden"]["failures"][0]
    # the prompt is 2 lines; the error is on line 2 of the completion, not line 4 of the program
    expect(rc == 1 and f["exception"]["type"] == "ZeroDivisionError" and f["exception"]["line"] == 2, f"{rc} {f}")
    sq = write("sq.py", "def sq(x):\n    return x * abs(x)\n")
    rc, j, err = run_json(sq, "--suite", SUITE, "--task", "7")
    g = j["files"][0]["golden"]
    expect(rc == 1 and g["cases_run"] == 3 and g["cases_passed"] == 2, f"MBPP task: {rc} {g}")
    expect(g["failures"][0]["expected"] == "9" and g["failures"][0]["got"] == "-9", f"{g['failures']}")


@check
def property_failure_without_a_reference():
    # a task without a reference solution: a property failing on a generated input is reported
    # without an expected value (this crashed `check` with SIGSEGV: the missing reference's result
    # was read as a value)
    suite = write("noref_suite.jsonl", json.dumps({
        "task_id": "t/noref", "entry_point": "parse", "signature": {"args": ["str"], "returns": "int"},
        "tests": [{"args": ["12"], "expected": 12}],
        "properties": [{"name": "no_raise", "except": ["ValueError"]}]}) + "\n")
    cand = write("noref.py", "def parse(s):\n    if not s.isdigit():\n        raise TypeError(s)\n"
                             "    return int(s)\n")
    rc, j, err = run_json(cand, "--suite", suite, "--task", "t/noref", *BUDGET)
    g = j["files"][0]["golden"]
    f = g["failures"][0] if g["failures"] else {}
    expect(rc == 1 and g["status"] == "fail" and f.get("kind") == "property" and f.get("name") == "no_raise"
           and f.get("expected") is None and (f.get("exception") or {}).get("type") == "TypeError",
           f"no_raise fails on a generated input, no expected value: {rc} {f}")


@check
def raises_matches_the_mro_not_what_a_metaclass_claims():
    # `raises` and no_raise's `except` match any class of the exception's MRO as the interpreter
    # keeps it (docs/tasks.md): a subclass matches; a class whose metaclass answers __mro__,
    # __name__ and __qualname__ with ValueError's does not (SG501, which blocks that metaclass
    # statically, is switched off to reach the golden stage)
    suite = write("mro_suite.jsonl", json.dumps({
        "task_id": "t/mro", "entry_point": "parse",
        "signature": {"args": ["str"], "returns": "int"},
        "tests": [{"args": ["12"], "expected": 12}, {"args": ["x"], "raises": "ValueError"},
                  {"args": ["k"], "raises": "LookupError"}, {"args": ["\xff"], "raises": "ValueError"}],
        "properties": [{"name": "no_raise", "except": ["ValueError", "LookupError"]}]}) + "\n")
    sub = write("mro_sub.py", "class BadInput(ValueError):\n    pass\n\n\n"
                              "def parse(s):\n"
                              "    if s == 'k':\n        return {}[s]\n"
                              "    if s and ord(s[0]) > 127:\n        return len(s.encode('ascii'))\n"
                              "    if not s.isdigit():\n        raise BadInput(s)\n"
                              "    return int(s)\n")
    rc, j, err = run_json(sub, "--suite", suite, "--task", "t/mro", *BUDGET)
    g = j["files"][0]["golden"]
    expect(rc == 0 and g["status"] == "pass" and g["cases_passed"] == 4,
           f"subclasses of the declared classes (BadInput, KeyError, UnicodeEncodeError) pass: {rc} {g}")
    fake = write("mro_fake.py", "class Meta(type):\n"
                                "    def __getattribute__(cls, name):\n"
                                "        if name == '__mro__':\n"
                                "            return (ValueError, Exception, BaseException, object)\n"
                                "        if name in ('__name__', '__qualname__'):\n"
                                "            return 'ValueError'\n"
                                "        if name == '__module__':\n"
                                "            return 'builtins'\n"
                                "        return type.__getattribute__(cls, name)\n\n\n"
                                "class Sneaky(Exception, metaclass=Meta):\n    pass\n\n\n"
                                "def parse(s):\n"
                                "    if s == 'k':\n        return {}[s]\n"
                                "    if not s.isdigit():\n        raise Sneaky(s)\n"
                                "    return int(s)\n")
    rc, j, err = run_json(fake, "--suite", suite, "--task", "t/mro", "--disable", "SG501", *BUDGET)
    g = j["files"][0]["golden"]
    fails = [(f.get("input"), (f.get("exception") or {}).get("type")) for f in g["failures"]]
    expect(rc == 1 and g["status"] == "fail" and ("parse('x')", "snippet.Sneaky") in fails,
           f"a metaclass's claim to be a ValueError fails, shown by the class's real name: {rc} {fails}")
    # a class of the candidate's own named ValueError is not a ValueError, in its module or
    # claiming the builtins module (the runner checks the builtins' classes by identity)
    for i, prelude in enumerate(["", "__name__ = 'builtins'\n", "__name__ = '__main__'\n"]):
        namesake = write(f"mro_namesake{i}.py", prelude + "class ValueError(Exception):\n    pass\n\n\n"
                                                 "def parse(s):\n"
                                                 "    if s == 'k':\n        return {}[s]\n"
                                                 "    if not s.isdigit():\n        raise ValueError(s)\n"
                                                 "    return int(s)\n")
        rc, j, err = run_json(namesake, "--suite", suite, "--task", "t/mro", *BUDGET)
        g = j["files"][0]["golden"]
        fails = [f.get("input") for f in g["failures"]]
        expect(rc == 1 and g["status"] == "fail" and "parse('x')" in fails,
               f"a namesake ValueError ({prelude.strip() or 'own module'}) is not a ValueError: {rc} {g}")


@check
def hang_is_a_case_timeout():
    hang = write("hang.py", "def f(n):\n    while n == 2:\n        pass\n    return n\n")
    t0 = time.monotonic()
    rc, j, err = run_json(hang, "--suite", SUITE, "--task", "t/slow", "--no-properties")
    took = time.monotonic() - t0
    g = j["files"][0]["golden"]
    expect(rc == 1 and g["cases_run"] == 2 and g["cases_passed"] == 1, f"exit {rc}: {g}")
    expect("timeout" in g["failures"][0]["reason"], f"reason: {g['failures'][0]['reason']}")
    expect(took < 20, f"a 0.5 s case timeout took {took:.1f} s")


def golden_reasons(j):
    return [r for r in j["reasons"] if r["stage"] == "golden"]


@check
def looping_candidate_is_called_once():
    # Issue 24: a candidate that never returns timed out on every case, every generated input and
    # every shrink step (729 calls, 9 min 22 s here before the fix). Its first timeout ends its
    # run: one call, one sandbox-timeout reason naming that input, nothing generated or shrunk.
    # (Counted in the verdict, not timed: run() only has a generous outer timeout.)
    loop = write("loop.py", "def binary_search(nums, target):\n    while True:\n        pass\n")
    first = "binary_search([1, 2, 2, 2, 5], 2)"  # the task's first case
    for extra in ([], ["--no-properties"]):
        rc, j, err = run_json(loop, "--task", BS, *extra)
        g = j["files"][0]["golden"]
        rs = golden_reasons(j)
        what = f"{extra}: exit {rc}, reasons {rs}, golden {dict((k, g.get(k)) for k in ('status', 'cases_run', 'inputs_checked', 'calls'))}"
        expect(rc == 1 and j["verdict"] == "block" and g["status"] == "fail", what)
        expect([r["criterion"] for r in rs] == ["sandbox-timeout"] and first in rs[0]["message"], what)
        expect(g["calls"] == 1 and g["cases_run"] == 1 and g["inputs_checked"] == 0, what)
        expect(len(g["failures"]) == 1 and g["failures"][0]["input"] == first and g["counterexample"] is None, what)
    rc, out, err = run("check", loop, "--task", BS)
    expect(rc == 1 and "blocked by: sandbox-timeout 1" in out and first in out, f"text: exit {rc}: {out[-600:]}")


@check
def candidate_looping_on_a_generated_input_is_not_shrunk():
    # It passes the known answers and loops when target == 17 (a generated input): that input is
    # reported as it is (no shrink step re-runs the loop) and nothing runs after it.
    p = write("gen_loop.py", "def binary_search(nums, target):\n    while target == 17:\n        pass\n"
              "    lo, hi = 0, len(nums)\n    while lo < hi:\n        mid = (lo + hi) // 2\n"
              "        if nums[mid] < target:\n            lo = mid + 1\n        else:\n            hi = mid\n"
              "    return lo if lo < len(nums) and nums[lo] == target else -1\n")
    rc, j, err = run_json(p, "--task", BS, "--seed", "1")
    g = j["files"][0]["golden"]
    rs = golden_reasons(j)
    expect(rc == 1 and g["cases_passed"] == g["cases_run"] == 9, f"exit {rc}: {g}")
    expect([r["criterion"] for r in rs] == ["sandbox-timeout"], f"reasons: {rs}")
    f = g["failures"][0]
    expect(len(g["failures"]) == 1 and f["kind"] == "property" and f["input"].endswith(", 17)")
           and f["shrink_calls"] == 0 and f["input"] in rs[0]["message"], f"failures: {g['failures']}")
    # a wrong answer and a timeout in the same block of generated inputs (the seeds come first, in
    # order): the wrong answer is reported unshrunk (shrinking would call the candidate again) and
    # the timeout too, never dropped
    suite = write("stop_suite.jsonl", json.dumps({
        "task_id": "t/stop", "entry_point": "f", "complete_solution": True, "timeout": 0.5,
        "canonical_solution": "def f(n: int) -> int:\n    return n\n",
        "signature": {"args": ["int(0..30)"], "returns": "int"},
        "tests": [{"args": [1], "expected": 1}, {"args": [2], "expected": 2}],
        "fuzz": {"seeds": [[5], [17], [3]]}}) + "\n")
    p = write("stop.py", "def f(n):\n    while n == 17:\n        pass\n    if n == 5:\n        return -1\n    return n\n")
    rc, j, err = run_json(p, "--suite", suite, "--task", "t/stop")
    g = j["files"][0]["golden"]
    got = [(r["criterion"], r["message"]) for r in golden_reasons(j)]
    expect(rc == 1 and [c for c, _ in got] == ["property", "sandbox-timeout"] and "f(17)" in got[1][1], f"exit {rc}: {got}")
    expect([(f["input"], f["shrink_calls"]) for f in g["failures"]] == [("f(5)", 0), ("f(17)", 0)], f"{g['failures']}")


@check
def golden_errors_fail_closed():
    # a reference that does not import: the stage cannot judge -> block, exit 3 (never a pass)
    snip = write("g.py", "def g(n):\n    return n\n")
    rc, j, err = run_json(snip, "--suite", SUITE, "--task", "t/broken_ref")
    expect(rc == 3 and j["verdict"] == "block", f"exit {rc}, verdict {j['verdict']}")
    g = j["files"][0]["golden"]
    expect(g["status"] == "error" and "does not import" in g["error"], f"{g}")
    expect(j["stats"]["golden"]["errors"] == 1, f"{j['stats']}")
    # an interpreter that does not exist is bad usage, refused before anything runs
    usage_error(*run("check", snip, "--suite", SUITE, "--task", "t/abs_diff", "--interpreter", "/nonexistent/python3"),
                "--interpreter")
    rc, out, err = run("check", "--format", "sarif", snip, "--suite", SUITE, "--task", "t/broken_ref")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    expect(rc == 3 and any("golden stage" in n["message"]["text"] for n in notes), f"SARIF notes: {notes}")


@check
def help_describes_every_option():
    rc, out, _ = run("check", "--help")
    for opt in ("--task", "--suite", "--tests", "--completion", "--seed", "--property-budget", "--no-properties",
                "--interpreter", "SG-GOLDEN", "SG-PROPERTY"):
        expect(opt in out, f"check --help lacks {opt}")
    rc, out, _ = run("eval", "--help")
    expect(rc == 0, f"eval --help exit {rc}")
    for opt in ("--suite", "--output", "--k", "--summary", "--completion", "--whole-program", "--jobs", "--seed",
                "--property-budget", "--no-properties", "--interpreter", "--fail-on", "--rules", "pass@k"):
        expect(opt in out, f"eval --help lacks {opt}")


# ------------------------------------------------------------------------------ eval

@check
def eval_small_suite():
    out_path = os.path.join(TMP, "results.jsonl")
    summary = os.path.join(TMP, "summary.json")
    rc, out, err = run("eval", "--suite", SUITE, "-o", out_path, "--summary", summary, "--k", "1,2,3", "-j", "2",
                       *BUDGET, SAMPLES)
    expect(rc == 2, f"exit {rc} (bad lines must give 2): {err[-500:]}")
    expect("3 bad sample lines" in err, f"stderr: {err[-300:]}")
    with open(SAMPLES) as f:
        sample_lines = [l for l in f if l.strip()]
    with open(out_path) as f:
        rows = [json.loads(l) for l in f]
    expect(len(rows) == len(sample_lines), f"{len(rows)} result lines for {len(sample_lines)} sample lines")
    expect([r["line"] for r in rows] == list(range(1, len(rows) + 1)), "results out of input order")
    errors = [r for r in rows if "error" in r]
    expect([r["line"] for r in errors] == [10, 11, 12], f"error lines: {errors}")
    expect("invalid JSON" in errors[0]["error"] and "missing field completion" in errors[1]["error"]
           and "unknown task_id" in errors[2]["error"], f"{errors}")
    judged = [r for r in rows if "error" not in r]
    for r, line in zip(judged, [json.loads(l) for l in sample_lines if "x_expect_pass" in l]):
        expect(r["passed"] == line["x_expect_pass"], f"sample line {r['line']}: passed={r['passed']} ({r})")
    blocked = [r for r in judged if r["safety"] == "block"]
    expect(len(blocked) == 1 and blocked[0]["golden"] == "skipped" and blocked[0]["findings"][0]["rule_id"] == "SG201",
           f"{blocked}")
    # sample indices within each task; the good line after the bad ones is t/add's fifth sample
    expect([r["sample"] for r in judged if r["task_id"] == "t/add"] == [0, 1, 2, 3, 4], f"{judged}")
    expect(any(r["task_id"] == 7 for r in judged), "the integer task id was not kept")
    wrong = [r for r in judged if not r["passed"] and r["safety"] == "pass"]
    expect(all(r["first_failure"] for r in wrong), f"a failing sample without its failing case: {wrong}")
    # discarded inputs and why (issue 26 item 1): the reasons add up, and name only known reasons
    reasons = {"envelope", "contract", "reference_raised", "reference_timeout", "fenced", "too_large",
               "reference_unencodable"}
    for r in judged:
        by = r["inputs_discarded_by"]
        expect(sum(by.values()) == r["inputs_discarded"] and set(by) <= reasons and all(v > 0 for v in by.values()),
               f"sample line {r['line']}: inputs_discarded {r['inputs_discarded']}, by {by}")
    # pass@k against the estimator computed here
    with open(summary) as f:
        s = json.load(f)
    nc = {}
    for r in judged:
        n, c = nc.get(str(r["task_id"]), (0, 0))
        nc[str(r["task_id"])] = (n + 1, c + r["passed"])
    expect(nc == {"t/add": (5, 3), "t/abs_diff": (3, 2), "7": (2, 1)}, f"n, c: {nc}")
    for k in (1, 2, 3):
        per = [pass_at_k(n, c, k) for n, c in nc.values() if n >= k]
        want = sum(per) / len(per)
        got = s["pass_at_k"][f"pass@{k}"]
        expect(abs(got["value"] - want) < 1e-12 and got["tasks"] == len(per), f"pass@{k}: {got} want {want}")
        for n, c in nc.values():
            if n >= k:
                expect(abs(pass_at_k(n, c, k) - comb_pass_at_k(n, c, k)) < 1e-12, "estimator check")
    expect(s["pass_at_k"]["pass@3"]["skipped_tasks"] == 1, f"pass@3 should skip task 7 (2 samples): {s['pass_at_k']}")
    t7 = [t for t in s["tasks"] if t["task_id"] == "7"][0]
    expect(t7["pass@3"] is None and abs(t7["pass@1"] - 0.5) < 1e-12, f"{t7}")
    expect((s["samples"], s["bad_lines"], s["blocked"]) == (10, 3, 1), f"{s}")
    # contract coverage (issue 27): every sample comes with its task (none declares properties);
    # the one the static gate blocked was judged by it alone
    expect(s["contracts"] == {"properties": 0, "task": 10, "tests": 0, "none": 0, "with_contract": 10,
                              "static_only": 1}, f"contracts {s['contracts']}")


HOSTILE_ADD = (
    # passes the static gate, returns the right answer, and aims at the candidates after it in
    # the same pooled sandbox: their /tmp (mode and times) and their pipes' flags (signals and
    # prlimit would be blocked by the static gate: test_sandbox's pool tests run those)
    "    import os, fcntl\n"
    "    try:\n"
    "        os.chmod('.', 0)\n"
    "        os.utime('.', (1, 2))\n"
    "    except OSError:\n"
    "        pass\n"
    "    for fd in (1, 2, 6):\n"
    "        try:\n"
    "            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)\n"
    "        except OSError:\n"
    "            pass\n"
    "    print('x' * 70000)\n"
    "    return a + b\n")


@check
def eval_hostile_between_honest_changes_nothing():
    # Candidates are strangers: the honest samples' result lines are the same, byte for byte
    # (but the line number), whether they run alone or with a hostile sample before each of
    # them in the same sandbox (-j 1: one pool).
    honest = [{"task_id": "t/add", "completion": "    return a + b\n"},
              {"task_id": "t/add", "completion": "    return a - b\n"},
              {"task_id": 7, "completion": "def sq(x):\n    return x ** 2\n"},
              {"task_id": "t/add", "completion": "    import os\n    open('/tmp/f', 'w').write('1')\n"
                                                 "    assert os.listdir('/tmp') == ['f']\n    print('y' * 70000)\n"
                                                 "    return b + a\n"}]
    hostile = {"task_id": "t/add", "completion": HOSTILE_ADD}
    alone = write("honest_alone.jsonl", "".join(json.dumps(x) + "\n" for x in honest))
    mixed = write("honest_mixed.jsonl", "".join(json.dumps(hostile) + "\n" + json.dumps(x) + "\n"
                                                for x in honest) + json.dumps(hostile) + "\n")

    def rows(path):
        rc, out, err = run("eval", "--suite", SUITE, "-j", "1", *BUDGET, path)
        expect(rc == 0, f"exit {rc}: {err[-400:]}")
        got = []
        for line in out.splitlines():
            r = json.loads(line)
            r.pop("line", None)
            r.pop("sample", None)  # (its index among its task's samples)
            got.append(json.dumps(r, sort_keys=True))
        return got

    a, m = rows(alone), rows(mixed)
    expect(len(a) == 4 and len(m) == 9, f"{len(a)} and {len(m)} lines")
    for k in range(0, 9, 2):  # the hostile sample ran (static gate passed) and returned right
        h = json.loads(m[k])
        expect(h["safety"] == "pass" and h["cases_passed"] == 3, f"hostile sample {k}: {m[k][:300]}")
    for k in range(4):
        expect(m[2 * k + 1] == a[k], f"honest sample {k} judged differently after the hostile one:\n"
                                     f"alone: {a[k][:400]}\nmixed: {m[2 * k + 1][:400]}")
    expect([json.loads(r)["passed"] for r in a] == [True, False, True, True], f"{a}")


def _deepest_sleeper(root):
    """The deepest descendant of `root` that has no children and sleeps (the candidate's call)."""
    todo, best = [(root, 0)], None
    while todo:
        pid, depth = todo.pop()
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                kids = [int(x) for x in f.read().split()]
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        todo += [(k, depth + 1) for k in kids]
        if not kids and depth >= 3 and state == "S" and (best is None or depth > best[0]):
            best = (depth, pid)
    return best[1] if best else None


@check
def golden_call_killed_from_outside_is_a_gate_error():
    # A case's process killed with SIGKILL by someone else than snipgate (an operator, the host's
    # OOM killer) judged nothing: the check is a gate error (exit 3), not a failing case.
    suite = write("slow_suite.jsonl", json.dumps({
        "task_id": "t/slow", "entry_point": "slow", "complete_solution": True, "timeout": 20,
        "canonical_solution": "def slow(a):\n    return a\n",
        "tests": [{"args": [1], "expected": 1}]}) + "\n")
    cand = write("slow_cand.py", "import time\ndef slow(a):\n    time.sleep(50)\n    return a\n")
    p = subprocess.Popen([SG, "check", "--format", "json", "--suite", suite, "--task", "t/slow",
                          "--no-properties", cand], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    victim, deadline = None, time.monotonic() + 40
    while victim is None and time.monotonic() < deadline:
        time.sleep(0.5)  # (the candidate sleeps 50 s: any sleeping leaf found twice is it)
        a = _deepest_sleeper(p.pid)
        if a is not None and a == _deepest_sleeper(p.pid):
            victim = a
    if victim is None:
        p.kill()
        p.communicate()
        raise Failure("no sleeping call process found under snipgate check")
    os.kill(victim, 9)
    out, err = p.communicate(timeout=120)
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    expect(p.returncode == 3, f"exit {p.returncode}, want 3 (gate error): {out[:400]} {err[:400]}")
    expect("from outside" in out + err, f"no word of a kill from outside: {out[:400]} {err[:400]}")


@check
def batch_blames_the_case_that_fails_alone():
    # A case that forges its own result (the right value) and then ends the process made the next
    # case, which never ran, carry the failure. Now a failure without its own result after an
    # earlier case of the batch is re-run alone, with that earlier case: the forger is blamed.
    forge = write("forge_add.py", "import os, sys\n"
                  "def add(a, b):\n"
                  "    if (a, b) == (1, 2):\n"
                  "        f = sys._getframe()\n"
                  "        while f is not None and 'cid' not in f.f_locals:\n"
                  "            f = f.f_back\n"
                  "        L = f.f_locals\n"
                  "        f.f_globals['_send']([('k', 'ok'), ('r', '3'), ('y', 'int'), ('j', '3'), ('i', L['cid']),\n"
                  "                              ('n', L['n'] + L.get('base', 0))])\n"
                  "        os._exit(3)\n"
                  "    return a + b\n")
    rc, j, err = run_json(forge, "--no-default-rules", "--suite", SUITE, "--task", "t/add", "--no-properties")
    g = j["files"][0]["golden"]
    cases = [(c["input"], c["passed"]) for c in g["cases"]]
    expect(rc == 1 and cases == [("add(1, 2)", False), ("add(-1, 1)", True), ("add(0, 0)", True)],
           f"exit {rc}, cases {cases}")


@check
def eval_text_summary_and_clean_exit():
    good = write("good_samples.jsonl", "\n".join(json.dumps(x) for x in [
        {"task_id": "t/add", "completion": "    return a + b\n"},
        {"task_id": "t/add", "completion": "    return a * b\n"},
        {"task_id": 7, "completion": "def sq(x):\n    return x ** 2\n"}]) + "\n")
    rc, out, err = run("eval", "--suite", SUITE, "--no-properties", "-j", "1", good)
    expect(rc == 0, f"exit {rc}: {err[-400:]}")
    rows = [json.loads(l) for l in out.splitlines()]
    expect([r["passed"] for r in rows] == [True, False, True], f"{rows}")
    expect("pass@1: 0.7500 over 2 tasks" in err, f"text summary: {err}")
    expect("contracts: 3 of 3 with one (100%: properties 0, task 3, tests 0), none 0; judged by the static gate "
           "alone 0" in err, f"text summary: {err}")
    expect("pass@10: - (no task has 10 samples)" in err, f"text summary: {err}")
    # the same from stdin, one job vs two: the same lines
    with open(good) as f:
        rc2, out2, _ = run("eval", "--suite", SUITE, "--no-properties", "-j", "2", "-", stdin=f.read().encode())
    expect(rc2 == 0 and out2 == out, "stdin / -j 2 gave different results")
    usage_error(*run("eval", good), "--suite")
    usage_error(*run("eval", "--suite", SUITE, "--k", "0", good), "--k")
    usage_error(*run("eval", "--suite", SUITE, "--task", "t/add", good), "--task")


@check
def eval_hostile_samples_cannot_reach_the_next_ones():
    """eval judges every sample of a thread in that thread's warm sandboxes (a pool): a hostile
    sample between honest ones (it kills the zygote it was forked from, opens the zygote's memory
    and request pipe, sends it signals, forges result frames for later calls, leaves output
    behind) changes no other sample's result; one job or two, the same lines."""
    honest = {"task_id": "t/add", "completion": "    return a + b\n"}
    attacks = [
        "    import os\n    os.kill(os.getppid(), 9)\n    return a + b\n",
        "    import os\n    z = os.getppid()\n    for p in ('/proc/%d/mem' % z, '/proc/%d/fd/5' % z):\n"
        "        try:\n            open(p, 'r+b')\n            return 'OPENED'\n        except OSError:\n            pass\n"
        "    return None\n",
        "    import os, signal\n    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1):\n"
        "        os.kill(os.getppid(), s)\n    return None\n",
        "    import os\n    f = lambda t, v: t.encode() + len(v.encode()).to_bytes(4, 'little') + v.encode()\n"
        "    for i in range(1, 200):\n        for n in range(3):\n"
        "            b = f('k', 'ok') + f('r', '0') + f('y', 'int') + f('j', '0') + f('i', str(i)) + f('n', str(n))\n"
        "            os.write(6, len(b).to_bytes(4, 'little') + b)\n"
        "    os.write(1, b'x' * 100000)\n    return None\n",
    ]
    rows = [honest]
    for a in attacks:
        rows += [{"task_id": "t/add", "completion": a}, honest]
    path = write("hostile_samples.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    outs = []
    for jobs in ("1", "2"):
        rc, out, err = run("eval", "--suite", SUITE, "--no-properties", "-j", jobs, path)
        expect(rc == 0, f"-j {jobs}: exit {rc}: {err[-400:]}")
        got = [json.loads(l) for l in out.splitlines()]
        expect(len(got) == len(rows), f"-j {jobs}: {len(got)} result lines for {len(rows)} samples")
        passed = [r["passed"] for r in got]
        want = [k % 2 == 0 for k in range(len(rows))]
        expect(passed == want, f"-j {jobs}: passed {passed}, want {want}: {[r.get('first_failure') for r in got]}")
        outs.append([(r["passed"], r["cases_passed"], r["cases_run"], r["golden"]) for r in got])
    expect(outs[0] == outs[1], f"-j 1 and -j 2 differ: {outs}")


@check
def efficiency_too_slow_from_cli():
    """Issue 26 item 5 from the command line: an exponential answer that the cases and the
    generated inputs (small lists) cannot tell from a linear one is blocked as `too-slow` on the
    examples scaled up, in text, JSON and SARIF, exit 1, the same JSON bytes twice; the linear
    one passes and says on how many scaled inputs the cost was compared; `"efficiency": false`
    lets the slow one pass."""
    task = {"task_id": "e2e/eff", "entry_point": "has_pair", "complete_solution": True,
            "canonical_solution": "def has_pair(xs: list[int]) -> bool:\n    seen = set()\n    for x in xs:\n"
                                  "        if -x in seen:\n            return True\n        seen.add(x)\n    return False\n",
            "signature": {"args": ["list[int(-100..100)]"], "returns": "bool"},
            "tests": [{"args": [[1, 2, 3, 4, 5, 6]], "expected": False}, {"args": [[1, -1]], "expected": True}]}
    off = dict(task, task_id="e2e/eff-off", efficiency=False)
    suite = write("eff_suite.jsonl", json.dumps(task) + "\n" + json.dumps(off) + "\n")
    slow = write("eff_slow.py", "def has_pair(xs):\n    n = len(xs)\n    for mask in range(1 << n):\n"
                                "        if bin(mask).count('1') == 2:\n"
                                "            i, j = [k for k in range(n) if mask >> k & 1]\n"
                                "            if xs[i] + xs[j] == 0:\n                return True\n    return False\n")
    fast = write("eff_fast.py", "def has_pair(xs):\n    s = set(xs)\n    return any(-x in s and (x != 0 or xs.count(0) > 1) for x in xs)\n")
    rc, out, err = run("check", slow, "--suite", suite, "--task", "e2e/eff", *BUDGET)
    expect(rc == 1, f"slow: exit {rc}: {out[-800:]} {err[-300:]}")
    expect("blocked by: too-slow 1" in out, f"slow: no too-slow criterion: {out[-800:]}")
    expect("too-slow: on the example scaled" in out, f"slow: reason: {out[-800:]}")
    outs = []
    for _ in range(2):
        rc, out, err = run("check", slow, "--suite", suite, "--task", "e2e/eff", *BUDGET, "--format", "json")
        expect(rc == 1, f"slow json: exit {rc}")
        v = json.loads(out)
        g = v["files"][0]["golden"]
        crit = [f.get("criterion") for f in g["failures"]]
        expect(crit == ["too-slow"], f"slow json: criteria {crit}")
        f0 = g["failures"][0]
        expect(f0["name"] == "efficiency" and "Python events" in f0["got"], f"slow json: {f0}")
        for k in ("elapsed_ms", "golden_ms", "static_ms", "ms"):
            v.pop(k, None)
        outs.append(json.dumps(g, sort_keys=True))
    expect(outs[0] == outs[1], "slow: two runs gave different golden objects")
    rc, out, err = run("check", slow, "--suite", suite, "--task", "e2e/eff", *BUDGET, "--format", "sarif")
    expect(rc == 1 and "too-slow" in out, f"slow sarif: exit {rc}")
    rc, out, err = run("check", fast, "--suite", suite, "--task", "e2e/eff", *BUDGET)
    expect(rc == 0, f"fast: exit {rc}: {out[-800:]}")
    expect("cost compared on" in out and "scaled inputs (up to 16x)" in out, f"fast: {out[-600:]}")
    rc, out, err = run("check", slow, "--suite", suite, "--task", "e2e/eff-off", *BUDGET)
    expect(rc == 0, f"off: exit {rc}: {out[-800:]}")
    expect("cost compared on" not in out, f"off: {out[-600:]}")


def main():
    passed = failed = 0
    only = os.environ.get("SG_TEST_ONLY", "")  # run only the checks whose name holds this
    for fn in CHECKS:
        if only not in fn.__name__:
            continue
        t0 = time.monotonic()
        try:
            fn()
            ok, why = True, ""
        except Failure as e:
            ok, why = False, str(e)
        except Exception:
            ok, why = False, traceback.format_exc()
        took = time.monotonic() - t0
        if ok:
            passed += 1
            print(f"ok   {fn.__name__} ({took:.1f} s)")
        else:
            failed += 1
            print(f"FAIL {fn.__name__} ({took:.1f} s): {why}")
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
