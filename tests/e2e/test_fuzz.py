#!/usr/bin/python3
"""End-to-end tests of the fuzz stage (`snipgate check --fuzz`, issue 9 part 1, docs/fuzz.md).

Runs the real binary (and snipgate-fuzz next to it) with the real sandbox on the planted
candidates of tests/e2e/data/fuzz/:
  - a bug behind nested conditions and magic values (a string and an int) is found by the fuzz
    stage within a small budget, and NOT by the property stage given as many inputs;
  - a planted hang, memory blow-up and interpreter crash are each classified;
  - a different answer than the reference is found;
  - a correct candidate yields no finding with a fixed seed;
  - a candidate scribbling over the shared coverage map neither crashes nor misleads the harness;
  - --fuzz-corpus keeps inputs; bad usage exits 2; a missing driver is an error (exit 3);
  - a policy's budgets.fuzz_seconds / fuzz_runs turn the stage on (command line > policy > task),
    and stages.required: [fuzz] blocks only when the stage did not run;
  - declared exceptions match by MRO (subclasses: no finding), not by what a metaclass claims;
  - keyword-only parameters are generated and passed by name (a bug only they reach is found);
  - a str argument holds NULs and characters of every plane (a bug behind "\x00" is found).
SG_TEST_ONLY=substr runs only the tests whose name holds it.
Usage: test_fuzz.py SNIPGATE_BINARY SOURCE_DIR. A kernel that refuses the sandbox is a loud SKIP
(exit 77), a failure under CI=true.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
DATA = os.path.join(SRC, "tests", "e2e", "data", "fuzz")
SUITE = os.path.join(DATA, "tasks.jsonl")
FAILS = []


def run(args, timeout=300, env=None):
    p = subprocess.run([BIN] + args, cwd=DATA, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


try:
    import jsonschema  # Debian's python3-jsonschema (scripts/setup.sh)
    SCHEMA = json.load(open(os.path.join(SRC, "docs", "verdict.schema.json")))
except ImportError:
    jsonschema = None


def check_json(name, task="fz/score", extra=()):
    rc, out, err = run(["check", name, "--task", task, "--suite", SUITE, "--format", "json"] + list(extra))
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if doc is not None and jsonschema is not None:
        try:
            jsonschema.validate(doc, SCHEMA)
        except jsonschema.ValidationError as e:
            expect(False, "%s: the verdict validates against docs/verdict.schema.json (%s)" % (name, e.message))
    return rc, doc, err


def fuzz_reasons(doc):
    return [x for x in doc["files"][0]["reasons"] if x["stage"] == "fuzz"] if doc else []


def fuzz_status(doc):
    return doc["files"][0]["stages"]["fuzz"]["status"] if doc else None


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILS.append(what)


def fuzz_of(doc):
    return doc["files"][0].get("fuzz") if doc else None


def sandbox_works():
    rc, out, err = run(["run", os.path.join(DATA, "correct.py"), "--call", "score('a', 1)"])
    if rc == 0:
        return True
    msg = "SKIP: the sandbox does not work here: %s" % (err.strip() or out.strip())
    if os.environ.get("CI") == "true":
        print("FAIL " + msg)
        sys.exit(1)
    print(msg)
    sys.exit(77)


def test_planted_magic():
    # the fuzz stage: coverage + comparison feedback reach score('snipgate', 48879)
    # seed 1: ~5,200 inputs here; 5,169 to 32,976 in sanitizer-build runs (its interceptors can
    # feed libFuzzer comparisons of our own code too); the budget leaves room for a loaded machine
    rc, doc, err = check_json("planted_magic.py", extra=["--fuzz", "180s", "--fuzz-runs", "60000", "--seed", "1"])
    fz = fuzz_of(doc)
    f = fz and fz.get("finding")
    expect(rc == 1 and doc and doc["verdict"] == "block", "planted magic: blocked (rc %s, %s)" % (rc, err[-300:]))
    expect(f and f["kind"] == "exception" and f["exc_type"] == "KeyError",
           "planted magic: an undeclared KeyError (%s)" % (f,))
    expect(f and f["input"] == "score('snipgate', 48879)", "planted magic: the minimized input as a literal")
    expect(f and f["exc_line"] == 7, "planted magic: the exception's line in the snippet")
    rs = fuzz_reasons(doc)
    expect(any(x["rule_id"] == "SG-FUZZ" and x["line"] == 7 and x["criterion"] == "fuzz-exception" for x in rs),
           "planted magic: an SG-FUZZ reason, fuzz-exception, at line 7 (%s)" % rs)
    expect(fuzz_status(doc) == "block", "planted magic: the fuzz stage blocks")
    execs = fz["execs"] if fz else 0
    expect(0 < execs <= 60000 and fz["edges"] > 0 and fz["lines"] > 0,
           "planted magic: execs (%s) and coverage (%s edges, %s lines) reported"
           % (execs, fz and fz["edges"], fz and fz["lines"]))
    # the property stage, given as many generated inputs as the fuzzer ran, does not find it. Its
    # budget counts generation attempts (about half become distinct checked inputs: 1,712 -> 933,
    # 6,000 -> 2,828), so it grows until as many inputs were checked.
    # (--property-budget takes at most 100,000: 36,996 checked inputs here; sanitizer-build runs
    # found the bug after up to ~33,000 inputs)
    want = max(execs, 1000)
    n, rc2, g = min(2 * want, 100000), None, None
    for _ in range(4):
        budget = "%d,300s" % n
        rc2, doc2, err2 = check_json("planted_magic.py", extra=["--property-budget", budget])
        g = doc2 and doc2["files"][0].get("golden")
        if not g or g.get("inputs_checked", 0) >= want or n == 100000:
            break
        n = min(2 * n, 100000)
    expect(rc2 == 0 and g and g["status"] == "pass" and g["inputs_checked"] >= want,
           "planted magic: the property stage with %s checked inputs (budget %s) passes it (rc %s, checked %s)"
           % (want, budget, rc2, g and g["inputs_checked"]))


def test_planted_hides():
    # the planted bug of planted_magic.py, armed only when the candidate does not find the fuzz
    # stage's tracer where it once could be found (the runner's TRACER in __main__, a module or
    # a module dict named _sgtrace in the heap, the tracer's flag on the command line): the fuzz
    # stage finds it as it finds the plain one (before, the candidate hid and passed). The static
    # gate would block this snippet (SG502, SG805); it is disabled to reach the fuzz stage.
    rc, doc, err = check_json("planted_hides.py", extra=["--disable", "SG502,SG805", "--fuzz", "180s",
                                                         "--fuzz-runs", "60000", "--seed", "1"])
    fz = fuzz_of(doc)
    f = fz and fz.get("finding")
    expect(rc == 1 and f and f["kind"] == "exception" and f["exc_type"] == "KeyError" and
           f["input"] == "score('snipgate', 48879)",
           "planted hides: found all the same (rc %s, %s, %s)" % (rc, f, err[-300:]))


CRITERION = {"hang": "fuzz-hang", "memory": "fuzz-memory", "crash": "fuzz-crash", "differs": "property"}


def test_classified(name, task, kind, extra=None):
    rc, doc, err = check_json(name, task=task, extra=["--fuzz", "60s"])
    fz = fuzz_of(doc)
    f = fz and fz.get("finding")
    expect(rc == 1 and f and f["kind"] == kind and (extra is None or extra(f)),
           "%s: classified as %s (rc %s, finding %s, %s)" % (name, kind, rc, f, err[-300:]))
    expect([x["criterion"] for x in fuzz_reasons(doc)] == [CRITERION[kind]],
           "%s: the verdict's reason is %s (%s)" % (name, CRITERION[kind], fuzz_reasons(doc)))


def test_correct():
    rc, doc, err = check_json("correct.py", extra=["--fuzz", "60s", "--fuzz-runs", "3000", "--seed", "7"])
    fz = fuzz_of(doc)
    expect(rc == 0 and doc and doc["verdict"] == "pass" and fz and fz["finding"] is None and fz["stage"] == "ran"
           and fuzz_status(doc) == "pass" and not fuzz_reasons(doc),
           "correct: no finding with a fixed seed, the fuzz stage passes (rc %s, %s)" % (rc, err[-300:]))
    expect(fz and fz["seed"] == 7 and fz["execs"] > 1000, "correct: seed 7 and the run budget (%s execs)"
           % (fz and fz["execs"]))


def test_hostile_map():
    # (the static gate blocks its /proc reads: switched off here to reach the harness)
    rc, doc, err = check_json("hostile_map.py", extra=["--fuzz", "3s", "--fuzz-runs", "200", "--disable", "SG805"])
    fz = fuzz_of(doc)
    expect(rc == 0 and fz and fz["stage"] == "ran" and fz["finding"] is None,
           "hostile map: the harness carries on, no finding, no error (rc %s, %s)" % (rc, err[-300:]))
    expect(fz and fz.get("lines", 1 << 30) <= fz.get("lines_total", 0), "hostile map: lines run bounded by the snippet's")


def test_corpus_and_text():
    d = tempfile.mkdtemp(prefix="sg-fuzz-corpus-")
    try:
        rc, out, err = run(["check", "planted_differs.py", "--task", "fz/score", "--suite", SUITE, "--fuzz", "60s",
                            "--fuzz-corpus", d])
        expect(rc == 1 and "BLOCK SG-FUZZ" in out and "fuzz fz/score: FINDING" in out and "returned 0" in out
               and "fuzz 1 block" in out,
               "text verdict: SG-FUZZ with the input and both answers (rc %s)\n%s" % (rc, out[-800:]))
        expect(len(os.listdir(d)) > 0, "--fuzz-corpus keeps the inputs that found coverage")
        rc, out, err = run(["check", "correct.py", "--task", "fz/score", "--suite", SUITE, "--fuzz-runs", "500",
                            "--fuzz-corpus", d])
        expect(rc == 0 and "no finding" in out, "a second run starts from the corpus (rc %s)" % rc)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_markdown():
    # an LLM answer: the program is the fenced block, the finding's line the document's
    d = tempfile.mkdtemp(prefix="sg-fuzz-md-")
    try:
        with open(os.path.join(DATA, "planted_differs.py")) as f:
            code = f.read()
        md = os.path.join(d, "answer.md")
        with open(md, "w") as f:
            f.write("Here it is:\n\n```python\n" + code + "```\n")
        rc, out, err = run(["check", md, "--task", "fz/score", "--suite", SUITE, "--fuzz", "60s", "--seed", "1",
                            "--format", "json"])
        doc = json.loads(out) if out.strip() else None
        lines = [x["line"] for x in fuzz_reasons(doc)]
        expect(rc == 1 and lines == [4], "Markdown: SG-FUZZ at the def line of the document (rc %s, %s)" % (rc, lines))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_sarif():
    rc, out, err = run(["check", "planted_differs.py", "--task", "fz/score", "--suite", SUITE, "--fuzz", "60s",
                        "--format", "sarif"])
    try:
        results = json.loads(out)["runs"][0]["results"]
    except (ValueError, KeyError, IndexError):
        results = []
    expect(rc == 1 and any(r["ruleId"] == "SG-FUZZ" for r in results), "SARIF: an SG-FUZZ result (rc %s)" % rc)


def test_usage_and_errors():
    rc, out, err = run(["check", "correct.py", "--fuzz", "5s"])
    expect(rc == 2 and "--task" in err, "--fuzz without --task: usage error (rc %s)" % rc)
    rc, out, err = run(["check", "correct.py", "--task", "fz/score", "--suite", SUITE, "--fuzz", "soon"])
    expect(rc == 2 and "duration" in err, "--fuzz with a bad duration: usage error (rc %s)" % rc)
    rc, out, err = run(["check", "correct.py", "--task", "fz/score", "--suite", SUITE, "--fuzz-runs", "0"])
    expect(rc == 2, "--fuzz-runs 0: usage error (rc %s)" % rc)
    env = dict(os.environ, SNIPGATE_FUZZ_BIN="/nonexistent/snipgate-fuzz")
    rc, out, err = run(["check", "correct.py", "--task", "fz/score", "--suite", SUITE, "--fuzz", "2s"], env=env)
    expect(rc == 3 and "BLOCK" in out and "fuzz fz/score: ERROR" in out and "gate-error" in out,
           "no driver: the stage fails closed (exit 3, blocked, gate-error) (rc %s)" % rc)
    # a static block: nothing is fuzzed
    rc, doc, err = check_json("planted_static.py", extra=["--fuzz", "2s"])
    fz = fuzz_of(doc)
    expect(rc == 1 and fz and fz["stage"] == "skipped" and fuzz_status(doc) == "skipped",
           "static block: the fuzz stage is skipped (rc %s)" % rc)


def test_policy():
    # budgets.fuzz_seconds / fuzz_runs (docs/policy.md): with a task they turn the stage on; the
    # command line's budget replaces the policy's, the policy's replaces the task's
    d = tempfile.mkdtemp(prefix="sg-fuzz-policy-")
    try:
        def policy(text):
            path = os.path.join(d, "pol%d.yml" % len(os.listdir(d)))
            with open(path, "w") as f:
                f.write(text)
            return ["--config", path]

        def ran(doc):
            fz = fuzz_of(doc)
            return fz and fz["stage"] == "ran" and fuzz_status(doc) == "pass"

        pol = policy("budgets:\n  fuzz_runs: 150\n")
        rc, doc, err = check_json("correct.py", extra=pol)
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and 0 < fz["execs"] <= 150,
               "policy fuzz_runs 150: the stage runs without --fuzz, within 150 inputs (rc %s, %s, %s)"
               % (rc, fz and fz.get("execs"), err[-300:]))
        rc, doc, err = check_json("correct.py", extra=pol + ["--fuzz-runs", "1200"])
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and 150 < fz["execs"] <= 1200,
               "--fuzz-runs 1200 wins over the policy's 150 (rc %s, %s execs)" % (rc, fz and fz.get("execs")))
        rc, doc, err = check_json("correct.py", extra=pol + ["--fuzz", "1s"])
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and fz["execs"] > 150,
               "--fuzz 1s replaces the whole policy budget, its fuzz_runs too (rc %s, %s execs)"
               % (rc, fz and fz.get("execs")))
        # fz/score_budget carries fuzz.stage_runs 3000
        rc, doc, err = check_json("correct.py", task="fz/score_budget")
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and fz["execs"] > 150, "the task's own budget: %s execs" % (fz and fz.get("execs")))
        rc, doc, err = check_json("correct.py", task="fz/score_budget", extra=pol)
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and 0 < fz["execs"] <= 150,
               "the policy's budget wins over the task's (%s execs)" % (fz and fz.get("execs")))
        rc, doc, err = check_json("correct.py", extra=policy("budgets:\n  fuzz_seconds: 1s\n"))
        fz = fuzz_of(doc)
        expect(rc == 0 and ran(doc) and fz["seconds"] < 8,
               "policy fuzz_seconds 1s: the stage runs about a second (rc %s, %s s)" % (rc, fz and fz.get("seconds")))
        # a policy budget finds the planted bug like --fuzz does
        rc, doc, err = check_json("planted_differs.py", extra=policy("budgets: {fuzz_seconds: 60, fuzz_runs: 20000}\n"))
        f = fuzz_of(doc) and fuzz_of(doc).get("finding")
        expect(rc == 1 and f and f["kind"] == "differs", "policy budget: the planted bug is found (rc %s, %s)" % (rc, f))
        # without a task the budget has nothing to fuzz: no error, no stage
        rc, out, err = run(["check", "correct.py", "--format", "json"] + pol)
        doc = json.loads(out) if out.strip() else None
        expect(rc == 0 and doc and fuzz_status(doc) == "not_run",
               "policy budget without --task: static check only (rc %s, %s)" % (rc, err[-200:]))
        # stages.required: [fuzz] -- a fuzz stage that ran does not block by stage-required; one
        # that did not run does
        req = policy("stages:\n  required: [fuzz]\nbudgets:\n  fuzz_runs: 100\n")
        rc, doc, err = check_json("correct.py", extra=req)
        crit = [r["criterion"] for r in doc["reasons"]] if doc else None
        expect(rc == 0 and ran(doc) and crit == [], "required fuzz stage that ran: a pass (rc %s, %s)" % (rc, crit))
        req = policy("stages:\n  required: [fuzz]\n")
        rc, doc, err = check_json("correct.py", extra=req)
        rs = [(r["criterion"], r["stage"]) for r in doc["reasons"]] if doc else None
        expect(rc == 1 and rs == [("stage-required", "fuzz")] and "--fuzz" in doc["reasons"][0]["message"],
               "required fuzz stage that did not run: stage-required (rc %s, %s)" % (rc, rs))
        rc, doc, err = check_json("correct.py", extra=req + ["--fuzz-runs", "100"])
        expect(rc == 0 and ran(doc) and not doc["reasons"], "required fuzz stage run by --fuzz-runs: a pass (rc %s)" % rc)
        # with a finding: blocked by the finding, not by stage-required
        rc, doc, err = check_json("planted_differs.py", extra=req + ["--fuzz", "60s"])
        crit = sorted(r["criterion"] for r in doc["reasons"]) if doc else None
        expect(rc == 1 and crit == ["property"], "required fuzz stage with a finding: the finding only (%s)" % crit)
        # --fuzz-corpus accepts the policy's budget as the one it needs
        corpus = os.path.join(d, "corpus")
        os.mkdir(corpus)
        rc, out, err = run(["check", "correct.py", "--task", "fz/score", "--suite", SUITE, "--fuzz-corpus", corpus] + pol)
        expect(rc == 0 and len(os.listdir(corpus)) > 0, "--fuzz-corpus with the policy's budget (rc %s, %s)"
               % (rc, err[-200:]))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_exception_mro():
    # fz/declares declares ValueError and LookupError: matched by the exception's MRO, as the
    # golden stage matches them -- a user subclass, UnicodeDecodeError, KeyError and IndexError
    # are declared; a class whose metaclass only claims ValueError (__mro__, __name__,
    # __qualname__ faked) is not. (The static gate blocks that metaclass's __getattribute__ and
    # __mro__: SG501 is switched off here to reach the fuzz stage.)
    rc, doc, err = check_json("planted_subclass.py", task="fz/declares",
                              extra=["--fuzz", "60s", "--fuzz-runs", "3000", "--seed", "1"])
    fz = fuzz_of(doc)
    expect(rc == 0 and fz and fz["stage"] == "ran" and fz["finding"] is None and fz["execs"] > 1000,
           "subclasses of declared exceptions: no finding (rc %s, %s, %s)"
           % (rc, fz and fz.get("finding"), err[-300:]))
    # every raising branch was run (9 lines: the def's body), so each was judged declared
    expect(fz and fz["lines"] >= 9, "subclasses: every branch ran (%s lines)" % (fz and fz.get("lines")))
    rc, doc, err = check_json("planted_fake_mro.py", task="fz/declares",
                              extra=["--fuzz", "60s", "--fuzz-runs", "3000", "--seed", "1", "--disable", "SG501"])
    f = fuzz_of(doc) and fuzz_of(doc).get("finding")
    expect(rc == 1 and f and f["kind"] == "exception" and f["exc_type"].endswith("Sneaky")
           and f["exc_line"] == 25 and f["input"].startswith("score("),
           "a metaclass's fake MRO and names: an undeclared exception, shown by its real name (rc %s, %s, %s)"
           % (rc, f, err[-300:]))
    rs = fuzz_reasons(doc)
    expect([x["criterion"] for x in rs] == ["fuzz-exception"], "fake MRO: a fuzz-exception reason (%s)" % rs)


def test_kwonly():
    # keyword-only parameters: generated (signature.kwargs, or the reference's annotations) and
    # passed by name; the planted bug of planted_kwonly.py is reachable only through limit=
    for task in ("fz/kwonly", "fz/kwonly_annot"):
        rc, doc, err = check_json("planted_kwonly.py", task=task,
                                  extra=["--fuzz", "120s", "--fuzz-runs", "100000", "--seed", "1"])
        f = fuzz_of(doc) and fuzz_of(doc).get("finding")
        expect(rc == 1 and f and f["kind"] == "exception" and f["exc_type"] == "KeyError"
               and f["input"] == "clip('', limit=4242)" and f["args_json"] == '[""]'
               and json.loads(f["kwargs_json"] or "null") == {"limit": 4242} and f["exc_line"] == 5,
               "%s: the bug behind the keyword-only argument, shown as clip('', limit=4242) (rc %s, %s, %s)"
               % (task, rc, f, err[-300:]))
    # a keyword-only parameter without a default is passed on every call: no input of either
    # stage is lost to a TypeError (the golden stage's generated inputs included)
    rc, doc, err = check_json("correct_kwonly.py", task="fz/kwonly_required",
                              extra=["--fuzz-runs", "2000", "--seed", "3"])
    fz, g = fuzz_of(doc), doc and doc["files"][0].get("golden")
    expect(rc == 0 and fz and fz["finding"] is None and fz["execs"] > 1000 and fz["discarded"] == 0,
           "required keyword-only: always passed, nothing discarded (rc %s, %s)" % (rc, fz))
    expect(g and g["inputs_checked"] > 0 and g["inputs_discarded"] == 0,
           "required keyword-only: the property stage passes it too (%s)" % (g,))
    rc, doc, err = check_json("planted_kwonly_required.py", task="fz/kwonly_required",
                              extra=["--fuzz", "120s", "--fuzz-runs", "100000", "--seed", "1"])
    f = fuzz_of(doc) and fuzz_of(doc).get("finding")
    expect(rc == 1 and f and f["input"] == "clip('', limit=4242)",
           "required keyword-only: the planted bug (rc %s, %s)" % (rc, f))
    # one with neither a default nor a type cannot be fuzzed: the stage fails closed, naming it
    rc, doc, err = check_json("planted_kwonly_required.py", task="fz/kwonly_untyped", extra=["--fuzz-runs", "100"])
    fz = fuzz_of(doc)
    expect(rc == 3 and fz and fz["stage"] == "failed" and "'limit'" in fz.get("reason", "")
           and fuzz_status(doc) == "error", "untyped required keyword-only: an error naming it (rc %s, %s)" % (rc, fz))


def test_nul_and_astral():
    # a str argument can hold a NUL (C0 80 in the choice stream) and any character of any plane
    # (UTF-8 in the stream); the planted bugs wait for "\x00" and for "x" + U+1D11E. (The
    # property stage's random strings hold NULs too: --no-properties leaves them to this stage.)
    for name, want_input, want_arg in (("planted_nul.py", "score('\\x00', 0)", "\x00"),
                                       ("planted_astral.py", "\\U0001d11e", "x\U0001D11E")):
        rc, doc, err = check_json(name, extra=["--no-properties", "--fuzz", "60s", "--fuzz-runs", "5000", "--seed", "1"])
        fz = fuzz_of(doc)
        f = fz and fz.get("finding")
        args = json.loads(f["args_json"]) if f else None
        expect(rc == 1 and f and f["kind"] == "exception" and f["exc_type"] == "KeyError" and want_input in f["input"]
               and want_arg in args[0] and f["found_after_execs"] <= 5000,
               "%s: found within 5,000 inputs, seed 1 (rc %s, %s, %s)" % (name, rc, f, err[-300:]))


def main():
    sandbox_works()
    only = os.environ.get("SG_TEST_ONLY", "")  # run only the tests whose name holds this
    tests = [
        ("usage", test_usage_and_errors),
        ("planted_magic", test_planted_magic),
        ("planted_hides", test_planted_hides),
        ("planted_hang", lambda: test_classified("planted_hang.py", "fz/score", "hang")),
        ("planted_memory", lambda: test_classified("planted_memory.py", "fz/score_slow", "memory")),
        ("planted_crash", lambda: test_classified("planted_crash.py", "fz/score_slow", "crash")),
        ("planted_differs", lambda: test_classified("planted_differs.py", "fz/score", "differs",
                                                    lambda f: f["got"] == "0" and f["expected"] == "-31337")),
        ("correct", test_correct),
        ("hostile_map", test_hostile_map),
        ("corpus_and_text", test_corpus_and_text),
        ("markdown", test_markdown),
        ("sarif", test_sarif),
        ("policy", test_policy),
        ("exception_mro", test_exception_mro),
        ("kwonly", test_kwonly),
        ("nul_and_astral", test_nul_and_astral),
    ]
    for name, fn in tests:
        if only in name:
            fn()
    if FAILS:
        print("%d failure(s)" % len(FAILS))
        sys.exit(1)
    print("all fuzz e2e tests passed")


if __name__ == "__main__":
    main()
