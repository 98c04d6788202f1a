#!/usr/bin/env python3
"""End-to-end tests of `snipgate audit`, run against the real binary.

usage: test_audit.py SNIPGATE_BINARY REPO_ROOT

The last line is exactly "N passed, M failed"; the exit status is non-zero on any failure.
"""
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

SG = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp(prefix="sg_audit_")
OK_SOL = os.path.join(ROOT, "examples", "golden", "binary_search_ok.py")
BUG_SOL = os.path.join(ROOT, "examples", "golden", "binary_search_bug.py")
TASK = "sg/binary_search_leftmost"

CHECKS = []



def untimed(doc):
    """Every stage's time_ms set to 0, as audit and serve render it."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "time_ms":
                doc[k] = 0.0
            else:
                untimed(v)
    elif isinstance(doc, list):
        for v in doc:
            untimed(v)
    return doc

def check(fn):
    CHECKS.append(fn)
    return fn


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def run(*args, stdin=None, cwd=None):
    p = subprocess.run([SG, "audit", *args], input=stdin, capture_output=True, cwd=cwd, timeout=300)
    err = p.stderr.decode("utf-8", "replace")
    expect(p.returncode >= 0, f"killed by signal {-p.returncode}")
    for bad in ("Segmentation", "AddressSanitizer", "runtime error", "LeakSanitizer"):
        expect(bad not in err, f"stderr shows a crash: {err[:400]}")
    return p.returncode, p.stdout.decode("utf-8", "replace"), err


def lines(text):
    out = []
    for ln in text.splitlines():
        try:
            out.append(json.loads(ln))
        except ValueError as e:
            raise Failure(f"output line is not JSON ({e}): {ln[:200]}")
    return out


def write(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return path


def records(n):
    """n records: every third blocks (os.system), the others pass."""
    out = []
    for i in range(n):
        code = f"import os\nos.system('x{i}')\n" if i % 3 == 0 else f"def f{i}(x):\n    return x + {i}\n"
        out.append(json.dumps({"id": f"r{i}", "code": code}))
    return "\n".join(out) + "\n"


BAD = "\n".join([
    json.dumps({"id": "good", "code": "x = 1\n"}),
    "this is not json",
    json.dumps({"id": "nocode"}),
    json.dumps({"id": "intcode", "code": 5}),
    json.dumps({"id": "huge", "code": "x = 1\n" * 400}),
    json.dumps({"id": "nul", "code": "x = 1\u0000\n"}),
    json.dumps({"id": "badtask", "code": "x = 1\n", "task_id": "no/such/task"}),
    json.dumps([1, 2]),
    json.dumps({"id": "evil", "code": "eval(input())\n"}),
    "",
    json.dumps({"id": "last", "code": "y = 2\n"}),
]) + "\n"


# ------------------------------------------------------------------------------ records

@check
def jsonl_every_record_one_line_in_order():
    p = write("r30.jsonl", records(30))
    rc, out, err = run("--static-only", "-j", "2", p)
    got = lines(out)
    expect(rc == 1, f"exit {rc}, want 1 (some blocked): {err[:300]}")
    expect([r["id"] for r in got] == [f"r{i}" for i in range(30)], f"ids/order: {[r['id'] for r in got][:10]}")
    for i, r in enumerate(got):
        want = "block" if i % 3 == 0 else "pass"
        expect(r["status"] == want, f"{r['id']}: status {r['status']}, want {want}")
        expect(r["verdict"]["verdict"] == want, f"{r['id']}: verdict document says {r['verdict']['verdict']}")
        expect(r["verdict"]["files"][0]["path"] == r["id"], "the document names the record by its id")
        expect(r["source"] == f"{p}:{i + 1}", f"source {r['source']}")
    rules = [f["rule_id"] for f in got[0]["verdict"]["files"][0]["findings"]]
    expect(rules == ["SG201"], f"r0 findings {rules}")


@check
def verdict_document_is_checks():
    """The verdict of a record is the document `check --format json` prints for the same code."""
    code = "import subprocess\nsubprocess.call('ls', shell=True)\nimport pickle\npickle.loads(b'')\n"
    p = write("one.jsonl", json.dumps({"id": "<stdin>", "code": code}) + "\n")
    rc, out, err = run("--static-only", p)
    doc = lines(out)[0]["verdict"]
    c = subprocess.run([SG, "check", "--format", "json", "-"], input=code.encode(), capture_output=True)
    ref = json.loads(c.stdout)
    doc["stats"].pop("elapsed_ms")
    ref["stats"].pop("elapsed_ms")
    untimed(ref)  # check's own document times its stages; a record's is 0 (same on every run)
    expect(doc == ref, f"audit's document differs from check's:\n{json.dumps(doc)[:600]}\n{json.dumps(ref)[:600]}")


@check
def bad_records_get_their_own_error_line():
    p = write("bad.jsonl", BAD)
    rc, out, err = run("--static-only", "--max-bytes", "1000", p)
    got = lines(out)
    ids = [r["id"] for r in got]
    want = ["good", f"{p}:2", "nocode", "intcode", "huge", "nul", "badtask", f"{p}:8", "evil", "last"]
    expect(ids == want, f"ids {ids}, want {want}")
    st = {r["id"]: r for r in got}
    expect(st["good"]["status"] == "pass" and st["last"]["status"] == "pass", "good records around bad ones")
    expect(st["evil"]["status"] == "block", "evil record")
    for bad, needle in [(f"{p}:2", "invalid JSON"), ("nocode", "missing field code"), ("intcode", "code must be a string"),
                        ("huge", "--max-bytes"), ("nul", "NUL"), (f"{p}:8", "JSON object")]:
        expect(st[bad]["status"] == "error", f"{bad}: status {st[bad]['status']}")
        expect(needle.lower() in (st[bad]["error"] or "").lower(), f"{bad}: error {st[bad]['error']!r} lacks {needle!r}")
    # --static-only ignores task ids; without it an unknown task is the record's error
    expect(st["badtask"]["status"] == "pass", "--static-only: task_id ignored")
    rc, out, err = run(p)
    st = {r["id"]: r for r in lines(out)}
    expect(st["badtask"]["status"] == "error" and "unknown task_id" in st["badtask"]["error"], str(st["badtask"]))
    expect(len(st) == 10, "no record lost")


@check
def records_read_as_json_says():
    """What the record reader (yajl's event parser) accepts and refuses, each with its reason, and
    nothing judged that is not the code given: an unpaired surrogate escape is refused (a parser
    that wrote '?' for it would judge other code)."""
    recs = [
        ('{"id": "dup", "code": "x = 1\\n", "code": "import os\\nos.system(1)\\n"}', "error", "twice"),
        ('{"id": "dupid", "id": "other", "code": "x = 1\\n"}', "error", "twice"),
        ('{"id": "lone", "code": "x = \\"\\ud800\\"\\n"}', "error", "invalid JSON"),
        ('{"id": "lowhalf", "code": "x = \\"\\udc00 \\"\\n"}', "error", "invalid JSON"),
        ('{"id": "pair", "code": "x = \\"\\ud83d\\ude00\\"\\n"}', "pass", None),
        ('{"id": "escaped", "code": "x = \\"\\\\ud800\\"\\n"}', "pass", None),
        ('"a string"', "error", "JSON object"),
        ('{"id": "a"} {"id": "b"}', "error", "invalid JSON"),
        ('{"id": "deep", "code": "import pickle\\npickle.loads(b)\\n", "meta": {"k": [1, {"k": 2, "k": 3}]}}', "block", None),
        ('{"id": 12345678901234567890, "code": "x = 1\\n"}', "error", "invalid JSON"),
        ('{"id": 7, "code": "x = 1\\n", "note": null, "score": 0.5, "ok": true}', "pass", None),
        ('{"id": "typed", "code": ["x = 1"]}', "error", "code must be a string"),
        ('{"id": "tid", "code": "x = 1\\n", "task_id": {"a": 1}}', "error", "task_id must be"),
    ]
    p = write("reader.jsonl", "".join(r + "\n" for r, _, _ in recs))
    rc, out, err = run("--static-only", p)
    got = lines(out)
    expect(len(got) == len(recs), f"{len(got)} lines for {len(recs)} records")
    for (rec, status, needle), g in zip(recs, got):
        expect(g["status"] == status, f"{rec}: status {g['status']} ({g['error']}), want {status}")
        if needle:
            expect(needle.lower() in (g["error"] or "").lower(), f"{rec}: error {g['error']!r} lacks {needle!r}")
    expect(got[10]["id"] == "7", f"an integer id is its text: {got[10]['id']!r}")
    expect(json.loads(json.dumps(got[4]["verdict"]))["verdict"] == "pass", "a surrogate pair decodes")


@check
def output_to_a_device_is_not_resumed():
    """-o /dev/null (or a pipe) is written, never read back nor truncated as a resumable file."""
    p = write("dev.jsonl", json.dumps({"id": "a", "code": "import os\nos.system(1)\n"}) + "\n"
              + json.dumps({"id": "b", "code": "x = 1\n"}) + "\n")
    rc, out, err = run("--static-only", "-o", "/dev/null", p)
    expect(rc == 1, f"exit {rc} (want 1: a record blocks), stderr {err[-300:]!r}")
    expect("truncate" not in err, f"stderr {err[-300:]!r}")
    # and a torn line (cut mid-string) says where the parse stopped: at its end
    torn = '{"id": "t", "code": "x = 1'
    rc, out, err = run("--static-only", write("torn.jsonl", torn + "\n"))
    got = lines(out)
    expect(len(got) == 1 and "premature EOF" in got[0]["error"] and f"at byte {len(torn)}" in got[0]["error"],
           f"{got}")


@check
def huge_line_beyond_the_reader_cap():
    big = json.dumps({"id": "big", "code": "x = '" + "a" * 200000 + "'\n"})
    p = write("big.jsonl", big + "\n" + json.dumps({"id": "after", "code": "x = 1\n"}) + "\n")
    rc, out, err = run("--static-only", "--max-bytes", "1000", p)
    got = lines(out)
    expect([r["status"] for r in got] == ["error", "pass"], f"{[(r['id'], r['status'], r['error']) for r in got]}")
    expect("larger" in got[0]["error"], got[0]["error"])


@check
def records_across_read_buffers():
    """The reader takes 256 KiB at a time: a record that spans several reads, lines that end
    anywhere in one, and a last line with no newline, each read whole and once."""
    n = 120000  # lines of `x = 1`: 720 KB of code, about 860 KB of JSON
    big = {"id": "big", "code": "x = 1\n" * n + "import os\nos.system(cmd)\n"}
    recs = [{"id": f"s{i}", "code": "y = %d\n" % i} for i in range(3000)]  # lines of ~30 bytes
    text = "".join(json.dumps(r) + "\n" for r in recs[:1500]) + json.dumps(big) + "\n"
    text += "".join(json.dumps(r) + "\n" for r in recs[1500:]) + json.dumps({"id": "last", "code": "z = 2\n"})
    p = write("spans.jsonl", text)
    rc, out, err = run("--static-only", p)
    got = lines(out)
    ids = [g["id"] for g in got]
    want = [r["id"] for r in recs[:1500]] + ["big"] + [r["id"] for r in recs[1500:]] + ["last"]
    expect(ids == want, f"{len(ids)} lines, first difference at {next((i for i, (a, b) in enumerate(zip(ids, want)) if a != b), None)}")
    g = got[1500]
    expect(g["status"] == "block", f"big: {g['status']} {g['error']}")
    lines_hit = [f["line"] for f in g["verdict"]["files"][0]["findings"]]
    expect(n + 2 in lines_hit, f"big: findings at lines {lines_hit}, want {n + 2}")
    expect(all(x["status"] == "pass" for i, x in enumerate(got) if i != 1500), "a small record did not pass")


@check
def directory_records_are_files():
    d = os.path.join(TMP, "tree")
    write("tree/b.py", "import os\nos.system('x')\n")
    write("tree/a.py", "x = 1\n")
    write("tree/sub/c.py", "y = 2\n")
    write("tree/notes.txt", "not python")
    write("tree/empty.py", "")
    rc, out, err = run("--static-only", d)
    got = lines(out)
    ids = [r["id"] for r in got]
    expect(ids == [f"{d}/a.py", f"{d}/b.py", f"{d}/empty.py", f"{d}/sub/c.py"], f"ids {ids}")
    # an empty file met in a walk passes (as in check); an empty file named on its own is an error
    expect([r["status"] for r in got] == ["pass", "block", "pass", "pass"], f"{[r['status'] for r in got]}")
    rc, out, err = run("--static-only", f"{d}/empty.py")
    expect(lines(out)[0]["status"] == "error", "an empty file given by name")


@check
def a_path_that_is_not_utf8_is_an_error_line():
    d = os.path.join(TMP, "badnames")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d.encode(), b"bad\xff.py"), "w") as f:
        f.write("x = 1\n")
    write("badnames/good.py", "y = 2\n")
    rc, out, err = run("--static-only", d)
    got = lines(out)
    expect(len(got) == 2, f"{len(got)} lines: {out[:300]}")
    bad = [r for r in got if r["id"] == "<invalid UTF-8>"]
    expect(len(bad) == 1 and bad[0]["status"] == "error" and bad[0]["source"] == "<invalid UTF-8>" and
           "not valid UTF-8" in bad[0]["error"], str(got)[:400])
    expect(any(r["id"] == f"{d}/good.py" and r["status"] == "pass" for r in got), str(got)[:400])
    expect(rc != 0, f"exit {rc} with an error line")


@check
def humaneval_samples_with_golden_stage():
    ok = open(OK_SOL).read()
    bug = open(BUG_SOL).read()
    p = write("samples.jsonl", "".join(json.dumps({"task_id": TASK, "completion": c}) + "\n"
                                       for c in (ok, bug, "import os\nos.system('x')\n")))
    rc, out, err = run("--summary", os.path.join(TMP, "sum.json"), "--no-properties", p)
    got = lines(out)
    expect([r["id"] for r in got] == [f"{TASK}/0", f"{TASK}/1", f"{TASK}/2"], f"ids {[r['id'] for r in got]}")
    expect([r["status"] for r in got] == ["pass", "block", "block"], f"{[(r['status'], r['error']) for r in got]}")
    g = [r["verdict"]["files"][0].get("golden", {}).get("status") for r in got]
    expect(g == ["pass", "fail", "skipped"], f"golden {g}")
    s = json.load(open(os.path.join(TMP, "sum.json")))
    expect(s["by_stage"]["golden"] == {"pass": 1, "fail": 1, "error": 0, "skipped": 1}, f"summary {s['by_stage']}")
    expect(s["by_status"] == {"pass": 1, "block": 2, "error": 0}, f"summary {s['by_status']}")
    # contract coverage (issue 27): the built-in task declares properties; the os.system sample
    # was judged by the static gate alone
    expect(s["contracts"] == {"properties": 3, "task": 0, "tests": 0, "none": 0, "with_contract": 3,
                              "static_only": 1}, f"contracts {s['contracts']}")
    # a sample needs its task: unknown task ids are error lines, even with --static-only
    p2 = write("samples2.jsonl", json.dumps({"task_id": "Nope/1", "completion": "    return 1\n"}) + "\n")
    rc, out, err = run("--static-only", p2)
    r = lines(out)[0]
    expect(r["status"] == "error" and "unknown task_id" in r["error"], str(r))


@check
def humaneval_completions_continue_the_prompt():
    """A HumanEval-style suite: the program is prompt + completion, or the completion alone when
    it already holds the prompt (as eval builds it)."""
    prompt = 'def inc(x):\n    """Add one."""\n'
    suite = write("he_suite.jsonl", json.dumps({
        "task_id": "T/0", "prompt": prompt, "entry_point": "inc", "canonical_solution": "    return x + 1\n",
        "test": "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(-1) == 0\n"}) + "\n")
    comps = ["    return x + 1\n", prompt + "    return x + 1\n", "    return x\n",
             "    import os\n    os.system('x')\n    return x + 1\n"]
    p = write("he_samples.jsonl", "".join(json.dumps({"task_id": "T/0", "completion": c}) + "\n" for c in comps))
    rc, out, err = run("--suite", suite, "--no-properties", p)
    got = lines(out)
    expect([r["id"] for r in got] == ["T/0/0", "T/0/1", "T/0/2", "T/0/3"], f"ids {[r['id'] for r in got]}")
    expect([r["status"] for r in got] == ["pass", "pass", "block", "block"],
           f"{[(r['status'], r['error']) for r in got]}")
    g = [r["verdict"]["files"][0]["golden"]["status"] for r in got]
    expect(g == ["pass", "pass", "fail", "skipped"], f"golden {g}")
    f = got[3]["verdict"]["files"][0]["findings"][0]
    expect(f["rule_id"] == "SG201" and f["line"] == 4, f"finding {f['rule_id']} at line {f['line']} of the program")


@check
def a_record_that_crashes_its_stage_is_its_own_line():
    """Records whose program kills the interpreter in the sandbox (SIGSEGV, SIGABRT) fail their
    golden stage; the records around them are judged as usual."""
    ok = open(OK_SOL).read()
    recs = [{"id": "before", "code": ok, "task_id": TASK},
            {"id": "segv", "code": "import faulthandler\nfaulthandler.disable()\nfaulthandler._sigsegv()\n",
             "task_id": TASK},
            {"id": "abort", "code": "import os\nos.abort()\n", "task_id": TASK},
            {"id": "after", "code": ok, "task_id": TASK}]
    p = write("crash.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    rc, out, err = run("--no-properties", "-j", "2", p)
    got = {r["id"]: r for r in lines(out)}
    expect(list(got) == ["before", "segv", "abort", "after"], f"ids {list(got)}")
    expect(got["before"]["status"] == "pass" and got["after"]["status"] == "pass", "records around the crashes")
    for rid, sig in (("segv", "signal 11"), ("abort", "signal 6")):
        g = got[rid]["verdict"]["files"][0]["golden"]
        expect(got[rid]["status"] == "block" and g["status"] == "fail", f"{rid}: {got[rid]['status']} {g['status']}")
        expect(sig in g["failures"][0]["reason"], f"{rid}: reason {g['failures'][0]['reason']}")


# The golden suite of test_golden (t/add: a prompt, a reference and a signature, so that
# generated inputs run too).
GOLDEN_SUITE = os.path.join(ROOT, "tests", "e2e", "data", "golden", "suite.jsonl")
# A program for t/add that passes the static gate, returns the right answer and aims at the
# records judged after it in the same pooled sandbox (as test_golden's HOSTILE_ADD; the same in
# test_serve): /tmp (its working directory) left with a file in it, old times and mode 0, and
# O_NONBLOCK on stdout, stderr and the result pipe (fd 6), then 70 KB printed. It answers right
# only when each attack took effect (an item after the first of a batch finds its own earlier
# item's /tmp), so its pass proves it ran them.
HOSTILE_ADD = (
    "import fcntl\n"
    "import os\n"
    "\n"
    "\n"
    "def add(a, b):\n"
    "    t = os.stat('/tmp')\n"
    "    if t.st_mode & 0o7777 == 0o1777:\n"
    "        with open('/tmp/left_by_hostile', 'w') as f:\n"
    "            f.write('x' * 4096)\n"
    "        os.utime('.', (1, 2))\n"
    "        os.chmod('.', 0)\n"
    "        t = os.stat('/tmp')\n"
    "    hit = t.st_mode & 0o7777 == 0 and t.st_mtime == 2\n"
    "    for fd in (1, 2, 6):\n"
    "        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)\n"
    "        hit = hit and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK != 0\n"
    "    print('x' * 70000)\n"
    "    return a + b if hit else None\n")
# needs an empty, untouched /tmp when its call starts (checked at import, in each call child) and
# writes there
HONEST_TMP = (
    "import os\n"
    "\n"
    "AT_IMPORT = (os.listdir('/tmp'), oct(os.stat('/tmp').st_mode & 0o7777))\n"
    "assert AT_IMPORT == ([], '0o1777'), AT_IMPORT\n"
    "\n"
    "\n"
    "def add(a, b):\n"
    "    t = os.stat('/tmp')\n"
    "    assert t.st_mode & 0o7777 == 0o1777 and t.st_mtime > 1e9, (oct(t.st_mode), t.st_mtime)\n"
    "    with open('/tmp/f', 'w') as f:\n"
    "        f.write(str(a + b))\n"
    "    assert os.listdir('/tmp') == ['f'], os.listdir('/tmp')\n"
    "    with open('/tmp/f') as f:\n"
    "        return int(f.read())\n")
# What a record's line may change with its place in the corpus: `source` (FILE:LINE), and the
# measured times (rendered 0 by audit; stripped anyway): every stage's time_ms (stages.* and
# files[].stages.*) and stats.elapsed_ms. (Every record has its own id: an id-less sample's id
# is its index among its task's samples, and names it in the document too.)
PLACE_FIELDS = ("source",)
TIMING_FIELDS = ("time_ms", "elapsed_ms")


def without_place_and_timings(line):
    """The output line, as written, with the value of each of those fields replaced by X."""
    for k in PLACE_FIELDS:
        line, n = re.subn(r'"' + k + r'":"(?:[^"\\]|\\.)*"', '"' + k + '":X', line)
        expect(n == 1, f"{n} {k} fields in {line[:200]}")
    for k in TIMING_FIELDS:
        line, n = re.subn(r'"' + k + r'":-?[0-9][0-9.eE+-]*', '"' + k + '":X', line)
        expect(n > 0, f"no {k} in {line[:200]}: has the line's layout changed?")
    return line


@check
def hostile_records_between_honest_ones_change_nothing():
    # Records are strangers: with one checker thread (-j 1: one pool of sandboxes), each honest
    # record's line is the same, byte for byte but its place and timings, whether the honest
    # records are audited alone or with a hostile record before each of them.
    ok, bug = open(OK_SOL).read(), open(BUG_SOL).read()
    honest = [({"id": "ok", "code": ok, "task_id": TASK}, "pass"),
              ({"id": "bug", "code": bug, "task_id": TASK}, "block"),
              ({"id": "add", "task_id": "t/add", "completion": "    return a + b\n"}, "pass"),
              ({"id": "sub", "task_id": "t/add", "completion": "    return a - b\n"}, "block"),
              ({"id": "tmp", "code": HONEST_TMP, "task_id": "t/add"}, "pass"),
              ({"id": "print", "task_id": "t/add",
                "completion": "    import sys\n    print('y' * 70000)\n    sys.stderr.write('z' * 70000 + '\\n')\n"
                              "    return b + a\n"}, "pass"),
              ({"id": "raise", "task_id": "t/add",
                "completion": "    if a < 0:\n        raise ValueError('negative a: %d' % a)\n    return a + b\n"}, "block")]
    alone = write("honest_alone.jsonl", "".join(json.dumps(r) + "\n" for r, want in honest))
    mixed = []
    for k, (r, want) in enumerate(honest):
        mixed += [{"id": f"hostile{k}", "code": HOSTILE_ADD, "task_id": "t/add"}, r]
    mixed.append({"id": f"hostile{len(honest)}", "code": HOSTILE_ADD, "task_id": "t/add"})
    mixed = write("honest_mixed.jsonl", "".join(json.dumps(r) + "\n" for r in mixed))

    def audited(path):
        rc, out, err = run("-j", "1", "--suite", GOLDEN_SUITE, "--property-budget", "40", path)
        expect(rc == 1, f"exit {rc}, want 1 (some blocked): {err[-400:]}")
        return out.splitlines()

    a, m = audited(alone), audited(mixed)
    expect(len(a) == len(honest) and len(m) == 2 * len(honest) + 1, f"{len(a)} and {len(m)} lines")
    for k in range(0, len(m), 2):  # each hostile record passed the static gate and ran to a pass
        r = json.loads(m[k])
        g = r["verdict"]["files"][0].get("golden") or {}
        expect(r["id"] == f"hostile{k // 2}" and r["status"] == "pass"
               and r["verdict"]["stages"]["static"]["status"] == "pass" and g.get("status") == "pass"
               and g.get("cases_run") == g.get("cases_passed") == 3 and g.get("inputs_checked", 0) > 0,
               f"hostile record {k // 2} did not run to a pass: {r['status']} {r['error']} {json.dumps(g)[:1500]}")
    for k, (r, want) in enumerate(honest):
        got = json.loads(a[k])
        expect(got["id"] == r["id"] and got["status"] == want, f"{r['id']} alone: {got['status']}, want {want}: {a[k][:600]}")
        x, y = without_place_and_timings(a[k]), without_place_and_timings(m[2 * k + 1])
        expect(x == y, f"honest record {r['id']!r} judged differently after a hostile one:\nalone: {x}\nafter: {y}")


@check
def jobs_do_not_change_the_output():
    p = write("r200.jsonl", records(200) + BAD)
    outs = []
    for j in ("1", "4"):
        rc, out, err = run("--static-only", "-j", j, "--max-bytes", "1000", p)
        outs.append(out)
    expect(outs[0] == outs[1], "-j 1 and -j 4 outputs differ")
    expect(len(outs[0].splitlines()) == 210, f"{len(outs[0].splitlines())} lines, want 210")


@check
def summary_text_and_json():
    p = write("sum.jsonl", records(9) + BAD)
    sj = os.path.join(TMP, "s.json")
    rc, out, err = run("--static-only", "--max-bytes", "1000", "--summary", sj, p)
    s = json.load(open(sj))
    expect(s["records"] == 19, f"records {s['records']}")
    expect(s["by_status"] == {"pass": 9, "block": 4, "error": 6}, f"by_status {s['by_status']}")
    expect(s["bad_records"] == 6 and s["gate_errors"] == 0, f"{s}")
    expect(s["by_rule"] == {"SG201": 3, "SG101": 1}, f"by_rule {s['by_rule']}")
    expect([w["id"] for w in s["worst"]] == ["r0", "r3", "r6", "evil"] and s["worst"][3]["rules"] == "SG101",
           f"worst {s['worst']}")
    expect("19 records" in err and "9 pass, 4 block, 6 error" in err, f"text summary: {err[:400]}")
    expect("by rule: SG201 3 SG101 1" in err, f"text summary by rule: {err[:400]}")
    rc, out, err = run("--static-only", "--quiet", p)
    expect(err.strip() == "", f"--quiet still prints: {err[:200]}")


@check
def exit_codes():
    rc, out, err = run("--static-only", write("pass.jsonl", json.dumps({"id": "a", "code": "x = 1\n"}) + "\n"))
    expect(rc == 0, f"all pass: exit {rc}")
    for bad in (["--shard", "3/3"], ["--shard", "x"], ["--shard", "1/0"], ["-j", "0"], ["--bogus"],
                [os.path.join(TMP, "missing.jsonl")], ["--task", "x"]):
        rc, out, err = run(*bad, write("p.jsonl", "{}\n"))
        expect(rc == 2 and err.strip(), f"{bad}: exit {rc}, stderr {err[:200]}")


# ------------------------------------------------------------------------------ resume, shards, stdin

@check
def resume_skips_done_ids_and_drops_a_torn_line():
    p = write("res.jsonl", records(50) + BAD)
    o = os.path.join(TMP, "res.out")
    rc, out, err = run("--static-only", "--max-bytes", "1000", "-o", o, p)
    full = open(o).read()
    expect(len(full.splitlines()) == 60, f"{len(full.splitlines())} lines")
    # a run killed after 23 lines, in the middle of the 24th
    cut = full.splitlines(keepends=True)
    with open(o, "w") as f:
        f.write("".join(cut[:23]) + cut[23][:17])
    rc, out, err = run("--static-only", "--max-bytes", "1000", "-o", o, "--summary", "-", "--quiet", p)
    s = json.loads(out)
    expect(s["skipped_done"] == 23 and s["records"] == 37, f"resumed run: {s['skipped_done']} skipped, {s['records']} run")
    expect("torn" in err, f"no note about the torn line: {err[:200]}")
    expect(open(o).read() == full, "resumed output differs from an uninterrupted run")
    # a finished output: nothing left to do
    rc, out, err = run("--static-only", "--max-bytes", "1000", "-o", o, "--summary", "-", "--quiet", p)
    expect(json.loads(out)["records"] == 0 and open(o).read() == full, "rerun of a finished output changed it")
    # an output that is not ours is refused, untouched
    foreign = write("foreign.out", "hello\n")
    rc, out, err = run("--static-only", "-o", foreign, p)
    expect(rc == 2 and open(foreign).read() == "hello\n", f"foreign output: exit {rc}")


@check
def resume_keeps_records_that_share_an_id():
    # ids may repeat, and 7 and "7" are written alike: a resume skips as many records of an id as
    # the output holds lines of it, never every later one (a dangerous second "dup" was lost)
    recs = [{"id": "dup", "code": "x = 1\n"}, {"id": "dup", "code": "import os\nos.system('x')\n"},
            {"id": 7, "code": "y = 2\n"}, {"id": "7", "code": "eval('1')\n"}, {"id": "z", "code": "z = 3\n"}]
    p = write("dups.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    o = os.path.join(TMP, "dups.out")
    rc, out, err = run("--static-only", "-o", o, p)
    full = open(o).read().splitlines(keepends=True)
    expect(rc == 1 and len(full) == 5, f"whole run: exit {rc}, {len(full)} lines")
    for keep in (1, 3):  # killed after the first "dup", then after the number 7
        with open(o, "w") as f:
            f.write("".join(full[:keep]))
        rc, out, err = run("--static-only", "-o", o, "--summary", "-", "--quiet", p)
        s = json.loads(out)
        expect(s["skipped_done"] == keep and s["records"] == 5 - keep,
               f"kept {keep}: {s['skipped_done']} skipped, {s['records']} judged")
        expect(open(o).read() == "".join(full), f"kept {keep}: the resumed output differs from a whole run")
        expect(rc == 1, f"kept {keep}: exit {rc}")


@check
def resume_exit_code_covers_the_whole_output():
    # a rerun over a finished output that holds blocks judges nothing and still exits 1
    p = write("fin.jsonl", records(6))
    o = os.path.join(TMP, "fin.out")
    rc, out, err = run("--static-only", "-o", o, p)
    expect(rc == 1, f"first run: exit {rc}")
    rc, out, err = run("--static-only", "-o", o, "--summary", "-", "--quiet", p)
    expect(json.loads(out)["records"] == 0 and rc == 1, f"rerun over a finished output with blocks: exit {rc}")
    clean = write("clean.jsonl", "".join(json.dumps({"id": f"c{i}", "code": "x = 1\n"}) + "\n" for i in range(3)))
    oc = os.path.join(TMP, "clean.out")
    run("--static-only", "-o", oc, clean)
    rc, out, err = run("--static-only", "-o", oc, clean)
    expect(rc == 0, f"rerun over a finished clean output: exit {rc}")


@check
def output_that_is_an_input_or_other_jsonl_is_refused():
    # -o naming the input (or any JSONL that is not audit output) is refused and left as it was:
    # it was taken for a previous run, every record skipped, exit 0
    p = write("in.jsonl", records(4))
    before = open(p).read()
    rc, out, err = run("--static-only", "-o", p, p)
    expect(rc == 2 and open(p).read() == before and "refusing" in err, f"-o the input: exit {rc}, {err[:200]}")
    other = write("other.jsonl", json.dumps({"id": "a", "status": "pass"}) + "\n")
    rc, out, err = run("--static-only", "-o", other, p)
    expect(rc == 2 and "refusing" in err, f"-o another JSONL with string ids: exit {rc}")


@check
def worst_list_leads_with_dangers_not_uncheckable_files():
    # twelve records that do not parse (SG001, critical) and one that runs a shell (SG201, high):
    # the summary's worst list is for what a reader looks for, so the shell comes first
    recs = [{"id": f"broken{i}", "code": "def f(:\n"} for i in range(12)]
    recs.append({"id": "shell", "code": "import os\nos.system(input())\n"})
    p = write("worst.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    rc, out, err = run("--static-only", "-o", os.devnull, "--summary", "-", "--quiet", p)
    worst = json.loads(out)["worst"]
    expect(worst and worst[0]["id"] == "shell", f"worst list: {[w['id'] for w in worst][:4]}")


@check
def shards_partition_the_corpus():
    p = write("sh.jsonl", records(100) + BAD)
    rc, whole, err = run("--static-only", "--max-bytes", "1000", p)
    parts = []
    for i in range(4):
        rc, out, err = run("--static-only", "--max-bytes", "1000", "--shard", f"{i}/4", p)
        parts.append(out.splitlines())
    expect(all(parts), f"an empty shard: {[len(x) for x in parts]}")
    merged = sorted(sum(parts, []))
    expect(merged == sorted(whole.splitlines()), "the shards' union is not the whole run, record for record")
    ids = [json.loads(x)["id"] for x in merged]
    expect(len(ids) == len(set(ids)), "a record in two shards")
    rc, again, err = run("--static-only", "--max-bytes", "1000", "--shard", "2/4", p)
    expect(again.splitlines() == parts[2], "--shard is not deterministic")


@check
def stdin_to_stdout():
    data = records(20) + BAD
    rc, out, err = run("--static-only", "--max-bytes", "1000", stdin=data.encode())
    got = lines(out)
    expect(len(got) == 30, f"{len(got)} lines")
    expect(got[0]["source"] == "<stdin>:1" and got[0]["id"] == "r0", str(got[0])[:200])
    rc2, out2, err2 = run("--static-only", "--max-bytes", "1000", "-", stdin=data.encode())
    expect(out2 == out, "'-' and no path differ")


@check
def a_stream_answers_each_record_before_the_next():
    """As a stage of another engine: each record's line comes out while stdin is still open (the
    writer is woken for batches of lines, and must still be woken when no other record waits)."""
    p = subprocess.Popen([SG, "audit", "--static-only", "-j", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        got = b""
        for i in range(5):
            p.stdin.write(json.dumps({"id": f"s{i}", "code": f"x = {i}\n"}).encode() + b"\n")
            p.stdin.flush()
            while got.count(b"\n") <= i:
                r, _, _ = select.select([p.stdout], [], [], 30)
                n = got.count(b"\n")
                expect(r, f"no line for record s{i} within 30 s while stdin is open ({n} lines)")
                chunk = os.read(p.stdout.fileno(), 65536)
                expect(chunk, f"stdout closed before the line of s{i}")
                got += chunk
        ids = [json.loads(ln)["id"] for ln in got.splitlines()]
        expect(ids == [f"s{i}" for i in range(5)], str(ids))
        p.stdin.close()
        rest = p.stdout.read()
        expect(rest == b"", f"more output after the last record: {rest[:200]!r}")
        expect(p.wait(timeout=60) == 0, f"exit {p.returncode}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@check
def a_looping_record_holds_back_no_line():
    """Issue 24: a record whose candidate never returns is decided at its first timeout (one call,
    one sandbox-timeout reason), and a regular -o FILE gets each decided line while stdin is still
    open (it used to get nothing before the end: the looping record ran for minutes and the
    file's lines sat in the 256 KiB buffer). Only the outer timeout is in seconds."""
    loop = "def binary_search(nums, target):\n    while True:\n        pass\n"
    with open(OK_SOL) as f:
        ok = f.read()
    recs = [("good1", ok), ("loop", loop), ("good2", ok)]
    out = os.path.join(TMP, "loop_lines.jsonl")
    p = subprocess.Popen([SG, "audit", "-o", out, "--quiet", "-j", "2"], stdin=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    try:
        for rid, code in recs:
            p.stdin.write(json.dumps({"id": rid, "code": code, "task_id": TASK}).encode() + b"\n")
        p.stdin.flush()
        deadline = time.monotonic() + 120
        done = []
        while len(done) < len(recs) and time.monotonic() < deadline and p.poll() is None:
            if os.path.exists(out):
                with open(out, "rb") as f:
                    data = f.read()
                done = data[:data.rfind(b"\n") + 1].splitlines()
            time.sleep(0.1)
        expect(p.poll() is None, f"audit ended with stdin open (exit {p.returncode})")
        expect(len(done) == len(recs), f"{len(done)} of {len(recs)} lines in the file within 120 s, stdin open")
        rows = lines(b"\n".join(done).decode())
        got = {r["id"]: r for r in rows}
        expect([r["id"] for r in rows] == ["good1", "loop", "good2"], f"{[r['id'] for r in rows]}")
        expect(got["good1"]["status"] == got["good2"]["status"] == "pass", f"{got['good1']['status']}")
        v = got["loop"]["verdict"]
        g = v["files"][0]["golden"]
        crit = [r["criterion"] for r in v["reasons"]]
        expect(got["loop"]["status"] == "block" and crit == ["sandbox-timeout"] and g["calls"] == 1
               and "binary_search([1, 2, 2, 2, 5], 2)" in v["reasons"][0]["message"],
               f"loop record: {got['loop']['status']}, reasons {v['reasons']}, calls {g['calls']}")
        p.stdin.close()
        expect(p.wait(timeout=120) == 1, f"exit {p.returncode}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@check
def progress_only_on_a_terminal():
    p = write("prog.jsonl", records(300))
    rc, out, err = run("--static-only", "-o", os.path.join(TMP, "prog.out"), p)
    expect("\r" not in err and "ETA" not in err, f"progress on a pipe: {err[:200]}")
    # stderr on a pseudo-terminal: the bar appears, with rate and ETA
    master, slave = pty.openpty()
    proc = subprocess.Popen([SG, "audit", "--static-only", "-o", os.path.join(TMP, "prog2.out"), p],
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    buf = b""
    while True:
        r, _, _ = select.select([master], [], [], 30)
        if not r:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
    proc.wait(timeout=60)
    os.close(master)
    text = buf.decode("utf-8", "replace")
    expect("records" in text and "/s" in text and "ETA" in text and "100%" in text, f"no progress bar: {text[-300:]}")


def main():
    passed = failed = 0
    for fn in CHECKS:
        if os.environ.get("SG_TEST_ONLY", "") not in fn.__name__:
            continue
        try:
            fn()
            ok, why = True, ""
        except Failure as e:
            ok, why = False, str(e)
        except Exception:
            ok, why = False, traceback.format_exc()
        if ok:
            passed += 1
            print(f"ok   {fn.__name__}")
        else:
            failed += 1
            print(f"FAIL {fn.__name__}: {why}")
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
