#!/usr/bin/env python3
"""End-to-end tests of the verdict pipeline and the CI behaviour of `snipgate check` (issue 10).

usage: test_verdict.py SNIPGATE_BINARY REPO_ROOT

Every JSON verdict a test produces is validated against docs/verdict.schema.json (python3-jsonschema,
a Debian package installed by scripts/setup.sh). The last line is exactly "N passed, M failed"; the
exit status is non-zero on any failure. SNIPGATE_SKIP_SANDBOX=1 skips the checks that run the sandbox.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sarif_schema  # noqa: E402  (validates every SARIF verdict this driver produces)

try:
    import jsonschema
except ImportError:  # the package is a dependency: a missing one is a failure, said loudly
    print("FAIL: python3-jsonschema is not installed (bash scripts/setup.sh installs it)")
    sys.exit(1)

SG = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp(prefix="sg_verdict_")
SCHEMA = json.load(open(os.path.join(ROOT, "docs", "verdict.schema.json")))
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TASK = "sg/binary_search_leftmost"
GOOD = os.path.join(ROOT, "examples", "golden", "binary_search_ok.py")
BAD = os.path.join(ROOT, "examples", "golden", "binary_search_bug.py")
SANDBOX = os.environ.get("SNIPGATE_SKIP_SANDBOX") != "1"

CHECKS = []
VALIDATED = [0]


def check(fn):
    CHECKS.append(fn)
    return fn


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def run(*args, stdin=None, cwd=None, env=None, timeout=300):
    p = subprocess.run([SG, *args], input=stdin, capture_output=True, cwd=cwd, timeout=timeout,
                       env=env)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    expect(p.returncode >= 0, f"killed by signal {-p.returncode}")
    for bad in ("Traceback", "Segmentation", "AddressSanitizer", "runtime error", "core dumped"):
        expect(bad not in err, f"stderr shows a crash: {err[:300]}")
    bad = sarif_schema.validate_if_sarif(ROOT, args, out)
    expect(not bad, f"SARIF not valid against the 2.1.0 schema: {bad[:3]}")
    return p.returncode, out, err


def validate(doc, what):
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.path))
    expect(not errors, f"{what}: not valid against docs/verdict.schema.json: " +
           "; ".join(f"{e.json_path}: {e.message[:200]}" for e in errors[:5]))
    VALIDATED[0] += 1


def check_json(*args, cwd=None, stdin=None):
    rc, out, err = run("check", "--format", "json", *args, cwd=cwd, stdin=stdin)
    try:
        j = json.loads(out)
    except ValueError as e:
        raise Failure(f"--format json output does not parse ({e}): {out[:300]} / {err[:300]}")
    validate(j, " ".join(args))
    return rc, j, err


def write(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return path


def criteria(j):
    return sorted(r["criterion"] for r in j["reasons"])


def table_from_docs():
    rows = []
    for line in open(os.path.join(ROOT, "docs", "blocking.md"), encoding="utf-8"):
        m = re.match(r"^\| `([a-z-]+)` \| (.*) \| (.*) \|$", line.rstrip("\n"))
        if m:
            rows.append({"id": m.group(1), "trigger": m.group(2), "stage": m.group(3)})
    return rows


HOSTILE = "import os\n\ndef f(cmd):\n    os.system(cmd)\n"
CLEAN = "def add(a, b):\n    return a + b\n"
ANSWER_MD = "Here is the code:\n\n```python\nimport subprocess\nsubprocess.run('ls', shell=True)\n```\n"
README_MD = "# Notes\n\nNo code here.\n\n```bash\nls -l\n```\n"


# ------------------------------------------------------------------------------ the blocking table

@check
def criteria_table_is_one_table():
    """docs/blocking.md, the binary's table and the schema's enum are the same list."""
    rc, out, err = run("rules", "--criteria", "--format", "json")
    expect(rc == 0, f"rules --criteria exit {rc}: {err[:200]}")
    binary = json.loads(out)
    docs = table_from_docs()
    expect(docs, "docs/blocking.md has no criteria table")
    expect(docs == binary, f"docs/blocking.md differs from `snipgate rules --criteria`:\n{docs}\n{binary}")
    enum = SCHEMA["$defs"]["criterion"]["enum"]
    expect(enum == [r["id"] for r in binary], f"schema criterion enum {enum} differs from the table")
    for r in binary:
        expect(r["stage"] in ("static", "golden", "fuzz", "golden, fuzz", "any", "pipeline"),
               f"criterion {r['id']}: stage {r['stage']!r}")


@check
def schema_version_and_stages_in_every_verdict():
    p = write("v/clean.py", CLEAN)
    rc, j, _ = check_json(p)
    expect(rc == 0 and j["verdict"] == "pass", f"clean file: exit {rc}, verdict {j['verdict']}")
    expect(j["schema_version"] == "1", "schema_version is not \"1\"")
    expect(j["reasons"] == [], f"a passing verdict has reasons: {j['reasons']}")
    st = j["files"][0]["stages"]
    expect(st["static"]["status"] == "pass" and st["static"]["time_ms"] > 0,
           f"static stage of a checked file: {st['static']}")
    expect(st["golden"]["status"] == "not_run" and st["golden"]["note"], f"golden stage: {st['golden']}")
    expect(st["fuzz"]["status"] == "not_run" and st["fuzz"]["note"], f"fuzz slot: {st['fuzz']}")
    expect(j["stages"]["static"]["files"]["pass"] == 1, f"stage summary: {j['stages']['static']}")


@check
def every_reason_names_its_criterion():
    p = write("r/hostile.py", HOSTILE)
    syn = write("r/syntax.py", "def f(:\n")
    rc, j, _ = check_json(p, syn)
    expect(rc == 1 and j["verdict"] == "block", f"exit {rc}")
    expect(criteria(j) == ["finding", "uncheckable"], f"criteria {criteria(j)}")
    for f in j["files"]:
        blocking = [x for x in f["findings"] if x["blocking"]]
        expect(len(blocking) == len(f["reasons"]), f"{f['path']}: {len(blocking)} blocking, {f['reasons']}")
        for x in blocking:
            expect(x["criterion"] in ("finding", "uncheckable"), f"finding without criterion: {x}")
        for r in f["reasons"]:
            expect(r["line"] is not None and r["rule_id"], f"reason without its location: {r}")
    expect(j["stats"]["by_criterion"] == {"finding": 1, "uncheckable": 1}, f"{j['stats']['by_criterion']}")
    rc, out, _ = run("check", p, syn)
    expect("blocked by: finding 1, uncheckable 1" in out, f"text verdict lacks the criteria: {out[-400:]}")
    expect("stages: static 2 block" in out, f"text verdict lacks the stages: {out[-400:]}")
    rc, out, _ = run("check", "--format", "sarif", p)
    res = json.loads(out)["runs"][0]["results"]
    expect(res and all(r["properties"].get("criterion") == "finding" for r in res), f"SARIF results: {res}")


# ------------------------------------------------------------------------------ CI behaviour: inputs

@check
def nothing_checked_is_exit_2():
    empty = os.path.join(TMP, "nothing")
    os.makedirs(empty, exist_ok=True)
    write("nothing/notes.txt", "not python\n")
    write("nothing/README.md", README_MD)
    rc, out, err = run("check", empty)
    expect(rc == 2, f"a directory without Python: exit {rc}, want 2 ({out[-200:]})")
    expect("nothing was checked" in err, f"no message: {err[:300]}")
    rc, j, err = check_json(empty)
    expect(rc == 2 and j["verdict"] == "block", f"json: exit {rc}, verdict {j['verdict']}")
    expect(criteria(j) == ["nothing-checked"], f"criteria {criteria(j)}")


@check
def empty_init_passes_named_and_walked():
    p = write("pkg/__init__.py", "")
    write("pkg/blank.py", "\n  \n")
    rc, out, err = run("check", p)
    expect(rc == 0, f"a named empty __init__.py: exit {rc}, want 0 ({out} {err})")
    rc, out, err = run("check", os.path.dirname(p))
    expect(rc == 0, f"the same file in a walk: exit {rc}, want 0 ({out} {err})")
    rc, j, _ = check_json(p, os.path.join(TMP, "pkg", "blank.py"))
    expect(rc == 0 and len(j["files"]) == 2, f"json: exit {rc}, files {len(j['files'])}")


@check
def markdown_in_directory_walks():
    write("md/answer.md", ANSWER_MD)
    write("md/README.md", README_MD)
    write("md/ok.py", CLEAN)
    rc, j, err = check_json(os.path.join(TMP, "md"))
    expect(rc == 1, f"an answer.md with shell=True in a walk: exit {rc}, want 1")
    paths = sorted(os.path.basename(f["path"]) for f in j["files"])
    expect(paths == ["answer.md", "ok.py"], f"files in the verdict {paths} (README.md without Python is skipped)")
    ans = [f for f in j["files"] if f["path"].endswith("answer.md")][0]
    expect([(x["rule_id"], x["line"]) for x in ans["findings"] if x["blocking"]] == [("SG206", 5)],
           f"answer.md findings {ans['findings']}")
    expect("skipped" in err, f"no note about the skipped Markdown: {err[:200]}")


@check
def error_codes_are_identifiers():
    md = write("codes/nopy.md", README_MD)
    em = write("codes/empty.txt", "")
    rc, j, _ = check_json(os.path.join(TMP, "codes", "missing.py"), md, em)
    expect(rc == 2, f"exit {rc}, want 2")
    codes = [f["error"]["code"] for f in j["files"]]
    expect(codes == ["not_found", "no_python", "empty"], f"codes {codes}")
    expect(all(r["criterion"] == "uncheckable" for r in j["reasons"]), f"{j['reasons']}")


@check
def errors_printed_once():
    rc, out, err = run("check", os.path.join(TMP, "no-such-file.py"))
    expect(rc == 2, f"exit {rc}")
    n = (out + err).count("No such file")
    expect(n == 1, f"the error is printed {n} times:\n{out}\n{err}")
    expect("not_found" in out and "0 files checked" in out, f"the text verdict: {out}")
    rc, j, _ = check_json(os.path.join(TMP, "no-such-file.py"), write("e/ok.py", CLEAN))
    expect(j["stats"]["checked_files"] == 1 and j["stats"]["files"] == 2, f"stats {j['stats']}")


# ------------------------------------------------------------------------------ the command line

@check
def fifo_and_socket_never_hang():
    import socket
    d = os.path.join(TMP, "special")
    os.makedirs(d, exist_ok=True)
    fifo = os.path.join(d, "pipe.py")
    os.mkfifo(fifo)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(d, "sock.py"))
    write("special/ok.py", CLEAN)
    try:
        rc, j, err = check_json(fifo, os.path.join(d, "sock.py"))  # run() has a timeout: a hang fails
        expect(rc == 2 and [f["error"]["code"] for f in j["files"]] == ["not_regular", "not_regular"],
               f"named FIFO/socket: exit {rc}, {[f['error'] for f in j['files']]}")
        rc, j, err = check_json(d)
        expect(rc == 0 and [os.path.basename(f["path"]) for f in j["files"]] == ["ok.py"],
               f"walk: exit {rc}, files {[f['path'] for f in j['files']]}")
        # met in a walk: skipped with a note that names each
        expect("pipe.py: not a regular file" in err and "sock.py: not a regular file" in err,
               f"walk: no note for the FIFO and the socket: {err[-300:]!r}")
    finally:
        sock.close()


@check
def options_parse_the_same_way_everywhere():
    p = write("cli/snip.py", "def f(x):\n    return x\n")
    rc, out, err = run("run", p, "--format=json", "--timeout=5")
    expect(rc in (0, 3) and (rc == 3 or json.loads(out)["outcome"] == "ok"), f"run --format=json: {rc} {err[:200]}")
    rc, out, err = run("check", "-o", "-", "--format=json", p, cwd=os.path.dirname(p))
    expect(rc == 0 and json.loads(out)["verdict"] == "pass", f"-o -: exit {rc}")
    expect(not os.path.exists(os.path.join(os.path.dirname(p), "-")), "-o - wrote a file named '-'")
    big = write("cli/big.py", "x = 1\n" * 400)
    rc, j, _ = check_json("--max-bytes", "1K", big)
    expect(rc == 2 and j["files"][0]["error"]["code"] == "too_large", f"--max-bytes 1K: exit {rc}")
    rc, j, _ = check_json("--max-bytes=4K", big)
    expect(rc == 0, f"--max-bytes=4K: exit {rc}")
    # ...and to rule packs: a 3 KB pack is refused under --max-bytes 2K, loaded under 4K
    pack = write("cli/pack.yml", "version: 1\nallow_hosts: [example.com]\n" + "# padding\n" * 300)
    rc, out, err = run("check", "--rules", pack, "--max-bytes", "2K", p)
    expect(rc == 2 and "larger than the limit of 2048 bytes" in err, f"--max-bytes 2K on a 3 KB pack: {rc} {err[-200:]}")
    rc, out, err = run("check", "--rules", pack, "--max-bytes", "4K", p)
    expect(rc == 0, f"--max-bytes 4K on a 3 KB pack: {rc} {err[-300:]}")
    for verb in ("check", "rules", "run", "eval"):
        rc, out, err = run("help", verb)
        rc2, out2, _ = run(verb, "--help")
        expect(rc == 0 and out == out2 and "usage: snipgate " + verb in out, f"help {verb}: {rc} {out[:100]}")
    rc, out, _ = run("--help")
    expect("-V, --version" in out, f"-V missing from the help: {out}")
    rc, out, _ = run("-V")
    expect(rc == 0 and out.startswith("snipgate "), f"-V: {out}")


@check
def allow_host_star_and_port_are_refused():
    p = write("hosts/h.py", "import requests\nrequests.get('https://api.example.com:8443/x')\n")
    for h in ("*", "api.example.com:8443"):
        rc, out, err = run("check", "--allow-host", h, p)
        expect(rc == 2 and "refused" in err, f"--allow-host {h!r}: exit {rc}, {err[:200]}")
    rc, j, _ = check_json("--allow-host", "api.example.com", p)
    expect(rc == 0, f"an allowed host on another port: exit {rc}, {j['reasons']}")


@check
def no_color_and_dumb_terminals():
    import pty
    p = write("color/snip.py", HOSTILE)

    def on_tty(env_over):
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env.update(env_over)
        master, slave = pty.openpty()
        q = subprocess.Popen([SG, "check", p], stdout=slave, stderr=subprocess.DEVNULL, env=env)
        os.close(slave)
        chunks = []
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        q.wait(timeout=60)
        os.close(master)
        return b"".join(chunks)

    expect(b"\033[" in on_tty({"TERM": "xterm"}), "no colour on a terminal")
    expect(b"\033[" in on_tty({"TERM": "xterm", "NO_COLOR": ""}), "an empty NO_COLOR turned colour off")
    expect(b"\033[" not in on_tty({"TERM": "xterm", "NO_COLOR": "1"}), "NO_COLOR=1 kept colour")
    expect(b"\033[" not in on_tty({"TERM": "dumb"}), "TERM=dumb kept colour")


@check
def caret_lines_up_under_wide_characters():
    p = write("wide/snip.py", 'x = "日本語🙂"; eval(x)\n')
    rc, out, _ = run("check", "--no-color", p)
    lines = out.splitlines()
    src = [l for l in lines if l.startswith("     1 | ")][0]
    caret = [l for l in lines if l.strip().startswith("| ") and "^" in l][0]
    import unicodedata

    def width(t):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t)
    col = width(src[:src.index("eval")])
    expect(width(caret[:caret.index("^")]) == col and caret.count("~") == 3,
           f"caret at cell {width(caret[:caret.index('^')])}, eval at {col}:\n{src}\n{caret}")


@check
def baseline_blocks_only_new_findings():
    d = os.path.join(TMP, "bl")
    write("bl/a.py", "import os\nos.system('a')\n")
    rc, out, _ = run("check", "--format", "json", "-o", "base.json", "a.py", cwd=d)
    expect(rc == 1, f"the baseline run: exit {rc}")
    write("bl/a.py", "import os\n\n# moved down\nos.system('a')\n")
    rc, j, _ = check_json("--baseline", "base.json", "a.py", cwd=d)
    f = j["files"][0]["findings"]
    expect(rc == 0 and f and f[0].get("baseline") is True and not f[0]["blocking"],
           f"a known finding that moved: exit {rc}, {f}")
    expect(j["stats"]["baseline_matched"] == 1, f"stats {j['stats']}")
    write("bl/a.py", "import os\n\nos.system('a')\nos.system('a')\neval('x')\n")
    rc, j, _ = check_json("--baseline", "base.json", "a.py", cwd=d)
    new = sorted((x["rule_id"], x["line"]) for x in j["files"][0]["findings"] if x["blocking"])
    expect(rc == 1 and new == [("SG101", 5), ("SG201", 4)], f"new findings: exit {rc}, {new}")
    rc, out, _ = run("check", "--format", "sarif", "--baseline", "base.json", "a.py", cwd=d)
    states = sorted(r["baselineState"] for r in json.loads(out)["runs"][0]["results"])
    expect(states == ["new", "new", "unchanged"], f"SARIF baselineState {states}")
    write("bl/bad.json", "[1, 2")
    rc, out, err = run("check", "--baseline", "bad.json", "a.py", cwd=d)
    expect(rc == 2 and "bad.json" in err, f"a malformed baseline: exit {rc}, {err[:200]}")
    # a baseline made with `check .` (paths ./x.py) holds for `check x.py` (what pre-commit
    # passes) and for an absolute path: one file, three spellings
    write("bl2/x.py", "import os\nos.system('x')\n")
    d2 = os.path.join(TMP, "bl2")
    rc, out, err = run("check", "--format", "json", "-o", "base.json", ".", cwd=d2)
    expect(rc == 1, f"the baseline run: exit {rc}")
    for spelling in ("x.py", "./x.py", os.path.join(d2, "x.py"), "sub/../x.py"):
        os.makedirs(os.path.join(d2, "sub"), exist_ok=True)
        rc, out, err = run("check", "--baseline", "base.json", spelling, cwd=d2)
        expect(rc == 0, f"baseline from `check .` applied to {spelling}: exit {rc}: {out[-300:]}")


@check
def changed_since_is_merge_base_aware():
    d = os.path.join(TMP, "git")
    os.makedirs(d, exist_ok=True)

    def git(*a):
        subprocess.run(["git", "-c", "user.email=t@e", "-c", "user.name=t", *a], cwd=d, check=True,
                       capture_output=True)
    write("git/keep.py", "x = 1\n")
    write("git/old.py", "import os\nos.system('x')\n")
    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-qm", "one")
    git("checkout", "-qb", "feature")
    write("git/new.py", "eval('1')\n")
    git("add", "new.py")
    git("commit", "-qm", "feature")
    git("checkout", "-q", "main")
    write("git/keep.py", "import pickle\npickle.loads(b'')\n")   # changed on main after the branch point
    git("commit", "-qam", "main moves on")
    git("checkout", "-q", "feature")
    write("git/untracked.py", "exec('1')\n")
    rc, j, err = check_json("--changed-since", "main", ".", cwd=d)
    paths = sorted(os.path.basename(f["path"]) for f in j["files"])
    expect(paths == ["new.py", "untracked.py"], f"changed since the merge base: {paths} ({err[:200]})")
    expect(rc == 1, f"exit {rc}")
    rc, out, err = run("check", "--changed-since", "no-such-rev", ".", cwd=d)
    expect(rc == 2 and "no-such-rev" in err, f"a bad revision: exit {rc}, {err[:200]}")
    # without a path: the whole repository, also from a subdirectory that holds none of the changes
    write("git/sub/quiet.txt", "not python\n")
    for cwd in (d, os.path.join(d, "sub")):
        rc, j, err = check_json("--changed-since", "main", cwd=cwd)
        paths = sorted(os.path.basename(f["path"]) for f in j["files"])
        expect(paths == ["new.py", "untracked.py"] and rc == 1,
               f"--changed-since without a path from {cwd}: exit {rc}, {paths} ({err[:200]})")
    rc, out, err = run("check", "--changed-since", "main", cwd=TMP)
    expect(rc == 2 and "repository" in err, f"outside a repository: exit {rc}, {err[:200]}")
    # --exit-zero: the block is reported and the exit code is 0; an error keeps its code
    rc, j, err = check_json("--exit-zero", "--changed-since", "main", cwd=d)
    expect(rc == 0 and j["verdict"] == "block", f"--exit-zero: exit {rc}, verdict {j.get('verdict')}")
    rc, out, err = run("check", "--exit-zero", "no-such-file.py", cwd=d)
    expect(rc == 2, f"--exit-zero keeps an error's exit code: {rc}")


@check
def pre_commit_hook_blocks_a_commit():
    """The repo's .pre-commit-hooks.yaml with the real `pre-commit` (Debian package)."""
    if not shutil.which("pre-commit"):
        raise Failure("pre-commit is not installed (bash scripts/setup.sh installs it)")
    hooks = os.path.join(TMP, "hookrepo")
    repo = os.path.join(TMP, "precommit")
    os.makedirs(hooks, exist_ok=True)
    os.makedirs(repo, exist_ok=True)
    env = dict(os.environ, PATH=os.path.dirname(SG) + ":" + os.environ.get("PATH", ""),
               PRE_COMMIT_HOME=os.path.join(TMP, "pre-commit-home"), GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@e")

    def sh(cwd, *a):
        return subprocess.run(list(a), cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    shutil.copy(os.path.join(ROOT, ".pre-commit-hooks.yaml"), hooks)
    for a in (("git", "init", "-q", "-b", "main"), ("git", "add", "."), ("git", "commit", "-qm", "hooks")):
        expect(sh(hooks, *a).returncode == 0, f"hook repo: {a}")
    rev = sh(hooks, "git", "rev-parse", "HEAD").stdout.strip()
    write("precommit/.pre-commit-config.yaml",
          f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: snipgate\n")
    expect(sh(repo, "git", "init", "-q", "-b", "main").returncode == 0, "git init")
    r = sh(repo, "pre-commit", "install")
    expect(r.returncode == 0, f"pre-commit install: {r.stdout} {r.stderr}")
    write("precommit/clean.py", CLEAN)
    sh(repo, "git", "add", ".")
    r = sh(repo, "git", "commit", "-qm", "clean")
    expect(r.returncode == 0, f"a clean snippet did not commit: {r.stdout[-500:]} {r.stderr[-500:]}")
    write("precommit/answer.md", ANSWER_MD)
    sh(repo, "git", "add", "answer.md")
    r = sh(repo, "git", "commit", "-qm", "hostile")
    expect(r.returncode != 0 and "SG206" in r.stdout + r.stderr,
           f"a blocked snippet was committed: {r.returncode} {r.stdout[-500:]} {r.stderr[-300:]}")
    expect("answer.md" not in sh(repo, "git", "log", "--name-only").stdout, "answer.md is in the history")
    sh(repo, "git", "reset", "-q")
    os.remove(os.path.join(repo, "answer.md"))
    # nothing to check is no failure: prose Markdown alone, then a file the policy excludes alone
    write("precommit/NOTES.md", "# Notes\n\nPlain prose, no code.\n")
    sh(repo, "git", "add", "NOTES.md")
    r = sh(repo, "git", "commit", "-qm", "prose")
    expect(r.returncode == 0, f"a prose-only commit failed the hook: {r.returncode} {r.stdout[-500:]} {r.stderr[-300:]}")
    rc, out, err = run("check", "--allow-empty", os.path.join(repo, "NOTES.md"))
    expect(rc == 0 and "nothing to check" in err, f"--allow-empty on prose: exit {rc}, {err[-200:]}")
    write("precommit/.snipgate.yml", "exclude: [\"vendor/\"]\n")
    write("precommit/vendor/lib.py", "import os\nos.system('x')\n")
    sh(repo, "git", "add", ".snipgate.yml", "vendor/lib.py")
    r = sh(repo, "git", "commit", "-qm", "vendored")
    expect(r.returncode == 0, f"a commit of excluded files only failed the hook: {r.returncode} "
                              f"{r.stdout[-500:]} {r.stderr[-300:]}")
    rc, out, err = run("check", os.path.join(repo, "NOTES.md"))
    expect(rc == 2, f"check by hand on nothing still exits 2: {rc}")


# ------------------------------------------------------------------------------ SARIF

def sarif(*args, cwd=None):
    rc, out, err = run("check", "--format", "sarif", *args, cwd=cwd)  # validated by run()
    return rc, json.loads(out), err


@check
def sarif_from_a_subdirectory_stays_under_srcroot():
    # cd src && check --format sarif ../src: %SRCROOT% is the repository's top level and the
    # artifact is src/a.py, never ../src/a.py
    d = os.path.join(TMP, "sarifrepo")
    write("sarifrepo/src/a.py", "import os\nos.system('x')\n")
    subprocess.run(["git", "init", "-q", d], check=True, capture_output=True)
    rc, j, _ = sarif("../src", cwd=os.path.join(d, "src"))
    run0 = j["runs"][0]
    locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run0["results"]]
    base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    expect(locs and all(l.get("uri") == "src/a.py" and l.get("uriBaseId") == "%SRCROOT%" for l in locs),
           f"artifact locations from a subdirectory: {locs}")
    expect(base.startswith("file://") and base.rstrip("/").endswith("/sarifrepo"), f"%SRCROOT% is {base}")


@check
def json_and_baseline_paths_are_relative_to_the_repository():
    # in a repository, a JSON verdict names files relative to its top level from any directory,
    # and a baseline made in one directory holds when applied from another (issue 27)
    d = os.path.join(TMP, "jsonrepo")
    write("jsonrepo/sub/d.py", "x = eval(input())\n")
    subprocess.run(["git", "init", "-q", d], check=True, capture_output=True)
    sub = os.path.join(d, "sub")
    for cwd, arg in ((d, "sub/d.py"), (d, "."), (sub, "d.py"), (sub, "../sub/d.py"), (sub, os.path.join(sub, "d.py"))):
        rc, j, err = check_json(arg, cwd=cwd)
        paths = [f["path"] for f in j["files"]] + [x["path"] for x in j["reasons"] if x.get("path")]
        expect(rc == 1 and paths and all(p == "sub/d.py" for p in paths), f"from {cwd} with {arg}: {paths}")
        expect("fatal" not in err, f"git's message leaked: {err[:200]}")
    rc, out, _ = run("check", "--format", "json", "-o", os.path.join(TMP, "top.json"), ".", cwd=d)
    rc, out, _ = run("check", "--format", "json", "-o", os.path.join(TMP, "sub.json"), "d.py", cwd=sub)
    for base in ("top.json", "sub.json"):
        for cwd, arg in ((d, "sub/d.py"), (sub, "d.py"), (sub, "./d.py"), (d, os.path.join(sub, "d.py"))):
            rc, out, err = run("check", "--baseline", os.path.join(TMP, base), arg, cwd=cwd)
            expect(rc == 0, f"baseline {base} applied from {cwd} to {arg}: exit {rc}: {out[-300:]}")
    # outside any repository: paths as given, no message from git
    write("norepo/e.py", "x = eval(input())\n")
    rc, j, err = check_json("e.py", cwd=os.path.join(TMP, "norepo"))
    expect([f["path"] for f in j["files"]] == ["e.py"] and "fatal" not in err, f"{[f['path'] for f in j['files']]} {err[:200]}")


@check
def gitlab_sast_report_has_the_fields_gitlab_reads():
    # --format gitlab: GitLab's SAST report (schema 15.0.7; its required fields, checked here
    # as documented: no copy of the schema is packaged), paths relative to the repository
    d = os.path.join(TMP, "glrepo")
    write("glrepo/src/a.py", "import os\nos.system('x')\nos.system('x')\neval(input())\n")
    write("glrepo/src/ok.py", "x = 1\n")
    subprocess.run(["git", "init", "-q", d], check=True, capture_output=True)
    rc, out, err = run("check", "--format", "gitlab", "../src", cwd=os.path.join(d, "src"))
    j = json.loads(out)
    expect(rc == 1 and j["version"] == "15.0.7", f"exit {rc}, version {j.get('version')}")
    sc = j["scan"]
    for k in ("analyzer", "scanner"):
        expect(all(sc[k].get(x) for x in ("id", "name", "version")) and sc[k]["vendor"]["name"], f"scan.{k}: {sc[k]}")
    expect(sc["type"] == "sast" and sc["status"] in ("success", "failure"), f"scan: {sc}")
    for t in ("start_time", "end_time"):
        expect(re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", sc[t]), f"scan.{t}: {sc[t]}")
    vs = j["vulnerabilities"]
    expect(len(vs) == 3 and len({v["id"] for v in vs}) == 3, f"{len(vs)} vulnerabilities, ids {[v['id'] for v in vs]}")
    for v in vs:
        expect(v["severity"] in ("Info", "Unknown", "Low", "Medium", "High", "Critical"), f"severity {v['severity']}")
        expect(v["location"]["file"] == "src/a.py" and v["location"]["start_line"] >= 1, f"location {v['location']}")
        expect(v["identifiers"] and all(i["type"] and i["name"] and i["value"] for i in v["identifiers"]),
               f"identifiers {v['identifiers']}")
    expect(sorted(i["value"] for v in vs for i in v["identifiers"] if i["type"] == "snipgate_rule_id")
           == ["SG101", "SG201", "SG201"], "rule identifiers")
    rc, out, err = run("check", "--format", "gitlab", "ok.py", cwd=os.path.join(d, "src"))
    expect(rc == 0 and json.loads(out)["vulnerabilities"] == [], f"a clean file: exit {rc}")


@check
def sarif_valid_in_every_case():
    p = write("sarif/snip.py", "import os\n\n\nos.system('x')\n")
    rc, j, _ = sarif("--line-offset", "-95", p)
    res = j["runs"][0]["results"]
    expect(res and all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1 for r in res),
           f"negative --line-offset: regions {[r['locations'][0]['physicalLocation']['region'] for r in res]}")
    expect(res[0]["properties"]["line"] == 4 - 95, f"the computed line is kept in properties: {res[0]['properties']}")
    rc, j, _ = sarif(p, os.path.join(TMP, "sarif", "missing.py"))
    inv = j["runs"][0]["invocations"][0]
    expect(inv["executionSuccessful"] is False, f"an unreadable input: executionSuccessful {inv}")
    rc, j, _ = sarif(p)
    expect(j["runs"][0]["invocations"][0]["executionSuccessful"] is True, "a clean run is not successful")
    drv = j["runs"][0]["tool"]["driver"]
    expect("informationUri" not in drv, f"made-up informationUri: {drv.get('informationUri')}")


@check
def sarif_relative_uris_and_fingerprints():
    d = os.path.join(TMP, "sarifrel")
    write("sarifrel/a/snip.py", "import os\nos.system('x')\nos.system('x')\n")
    rc, j, _ = sarif("a/snip.py", cwd=d)
    run0 = j["runs"][0]
    loc = run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    expect(loc == {"uri": "a/snip.py", "uriBaseId": "%SRCROOT%"}, f"artifactLocation {loc}")
    base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    expect(base.startswith("file:///") and base.endswith("/sarifrel/"), f"originalUriBaseIds {base}")
    rc, j2, _ = sarif(os.path.join(d, "a", "snip.py"), cwd=d)
    loc2 = j2["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    expect(loc2 == loc, f"an absolute path under the working directory: {loc2}")
    fps = [r["partialFingerprints"]["snipgate/v1"] for r in run0["results"]]
    expect(len(fps) == 2 and len(set(fps)) == 2, f"fingerprints {fps}")
    # the same finding moved down by a line keeps its fingerprint
    write("sarifrel/a/snip.py", "import os\n\n# moved\nos.system('x')\nos.system('x')\n")
    rc, j3, _ = sarif("a/snip.py", cwd=d)
    fps3 = [r["partialFingerprints"]["snipgate/v1"] for r in j3["runs"][0]["results"]]
    expect(fps3 == fps, f"fingerprints changed when the code moved: {fps} -> {fps3}")
    rc, j4, _ = sarif("/nonexistent-dir/x.py", cwd=d)
    notes = j4["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    loc4 = notes[0]["locations"][0]["physicalLocation"]["artifactLocation"] if notes else None
    expect(loc4 == {"uri": "file:///nonexistent-dir/x.py"}, f"a path outside: {loc4}")


# ------------------------------------------------------------------------------ caps and limits

DATA = os.path.join(ROOT, "..", "shared", "data")


@check
def binding_cap_not_hit_by_ordinary_code():
    p = write("caps/rebind.py", "x = 1\n" * 300)
    rc, j, _ = check_json(p)
    expect(rc == 0, f"`x = 1` 300 times: exit {rc}, reasons {j['reasons']}")
    # seven self-rebindings in 300 functions: linear, no cap (was factorial in the chain length)
    body = "".join(f"    t = t.replace('{i}', 'x')\n    t.strip()\n" for i in range(12))
    p = write("caps/selfref.py", "".join(f"def f{k}(t):\n{body}    return t\n" for k in range(300)))
    rc, j, _ = check_json(p)
    expect(rc == 0, f"self-rebinding chains: exit {rc}, reasons {j['reasons'][:2]}")
    # a hostile chain still blocks, and the message names no option that does not help
    p = write("caps/hostile.py", "".join(f"x = {i}\n" for i in range(5000)) + "x()\n")
    rc, j, _ = check_json(p)
    msgs = [x["message"] for f in j["files"] for x in f["findings"] if x["rule_id"] == "SG002"]
    expect(rc == 1 and msgs, f"5000 distinct rebindings: exit {rc}")
    expect("no option raises it" in msgs[0] and "--max-depth" not in msgs[0], f"SG002 message: {msgs[0]}")


@check
def every_cap_names_the_flag_that_raises_it():
    deep = write("caps/deep.py", "x = " + "-" * 600 + "1\n")
    rc, j, _ = check_json(deep)
    m = [x["message"] for x in j["files"][0]["findings"] if x["rule_id"] == "SG002"]
    expect(m and "--max-depth" in m[0], f"depth cap: {m}")
    rc, j, _ = check_json(deep, "--max-depth", "1000")
    expect(rc == 0, f"--max-depth 1000 did not raise the cap: {j['reasons']}")
    import random
    rng = random.Random(1)
    rnd = write("caps/noise.py", "".join(rng.choice("abc()[]{}:=,.'\" \n\tdef if else lambda") for _ in range(200000)))
    rc, j, _ = check_json(rnd, "--parse-cpu", "1ms")
    m = [x["message"] for f in j["files"] for x in f["findings"] if x["rule_id"] == "SG002"]
    expect(m and "--parse-cpu" in m[0], f"parse cap: {m}")
    valid = write("caps/valid.py", "def f(a, b):\n    return [a * i for i in range(b)]\n" * 2000)
    rc, j, _ = check_json(valid, "--parse-steps", "10000")
    m = [x["message"] for f in j["files"] for x in f["findings"] if x["rule_id"] == "SG002"]
    expect(rc == 1 and m and "--parse-steps" in m[0] and "10000 parser steps" in m[0], f"step cap: {rc} {m}")
    rc, j, _ = check_json(valid)
    expect(rc == 0, f"the default step limit blocked 2,000 small functions: {j['reasons'][:2]}")


@check
def error_recovery_is_bounded_in_steps():
    """Once the parse is in error, recovery gets a sixteenth of the step budget; past it the block
    is reported as not parsing (SG001), where the error was first seen, in work, not time."""
    p = write("caps/recover.py", "x = 1\n" + "(" * 50 + ") " * 100000)
    outs = set()
    for _ in range(2):
        rc, j, _ = check_json(p, "--parse-steps", "1600000")
        f = [x for x in j["files"][0]["findings"] if x["rule_id"] == "SG001"]
        expect(rc == 1 and f and "error recovery stopped after 100000 parser steps" in f[0]["message"]
               and f[0]["line"] == 2, f"cut error recovery: exit {rc}, {f[:1]}")
        outs.add(json.dumps(f))
    expect(len(outs) == 1, f"two runs reported different findings: {outs}")


@check
def parser_runtime_survives_what_broke_tree_sitter_0_20_7():
    """Debian's libtree-sitter 0.20.7 corrupted its heap (free(): invalid size, SIGABRT) on 65,536
    comment lines in a row and on an error node of 65,536 children; snipgate builds 0.25.0."""
    comments = write("ts/comments.py", "# c\n" * 70000 + "x = 1\n")
    rc, j, err = check_json(comments)
    expect(rc == 0 and j["verdict"] == "pass", f"70,000 comment lines: exit {rc} {err[-300:]!r}")
    garbage = write("ts/garbage.py", "a b c d e f ) ] } : : , , if else for " * 20000)
    rc, j, err = check_json(garbage)
    f = [x["rule_id"] for x in j["files"][0]["findings"]] if j else []
    expect(rc == 1 and "SG001" in f, f"760 KB of token soup: exit {rc}, {f[:3]}, {err[-300:]!r}")


@check
def same_verdict_under_parallel_load():
    """A 7 MB file: alone, and four at once next to two busy loops (the parse limit is CPU time of
    the checking thread; a wall-clock limit blocked it under load)."""
    block = "".join(f"def f{{k}}_{i}(a, b):\n    if a > b:\n        return [a * {i} for _ in range(b)]\n"
                    f"    return {{'k': a, 'v': b + {i}}}\n\n" for i in range(20))
    text = "".join(block.replace("{k}", str(k)) for k in range(3300))
    p = write("load/big.py", text)
    expect(os.path.getsize(p) > 7_000_000, f"{os.path.getsize(p)} bytes")
    rc0, j0, _ = check_json(p, "-j", "1")
    expect(rc0 == 0 and j0["verdict"] == "pass", f"alone: exit {rc0}, {j0['reasons'][:2]}")
    burn = [subprocess.Popen(["/usr/bin/python3", "-c", "while True: pass"]) for _ in range(2)]
    try:
        procs = [subprocess.Popen([SG, "check", "--format", "json", "-j", "1", p], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE) for _ in range(4)]
        outs = [(q.wait(timeout=600), q.stdout.read()) for q in procs]
        for q in procs:
            q.stdout.close()
            q.stderr.close()
    finally:
        for b in burn:
            b.kill()
            b.wait()
    for rc, out in outs:
        j = json.loads(out)
        validate(j, "parallel")
        expect((rc, j["verdict"], j["reasons"]) == (rc0, j0["verdict"], j0["reasons"]),
               f"under load: exit {rc}, {j['verdict']}, {j['reasons'][:2]} (alone: {rc0})")


@check
def zero_sg002_on_the_standard_library_and_the_datasets():
    targets = []
    if os.path.isdir("/usr/lib/python3.11"):
        # not test/: with Debian's libpython3.11-testsuite installed (the audit benchmark's corpus)
        # it holds CPython's deliberately pathological tests (a syntax tree 1,000 levels deep)
        targets += [os.path.join("/usr/lib/python3.11", n) for n in sorted(os.listdir("/usr/lib/python3.11"))
                    if n != "test" and (n.endswith(".py") or os.path.isdir(os.path.join("/usr/lib/python3.11", n)))]
    else:
        print("SKIP (loudly): /usr/lib/python3.11 is missing")
    if os.path.isdir(DATA):
        import gzip
        d = os.path.join(TMP, "datasets")
        os.makedirs(d, exist_ok=True)
        with gzip.open(os.path.join(DATA, "HumanEval.jsonl.gz"), "rt") as f:
            for i, line in enumerate(f):
                t = json.loads(line)
                write(f"datasets/he_{i}.py", t["prompt"] + t["canonical_solution"] + "\n" + t["test"])
        for name in ("mbpp.jsonl", "MbppPlus-dev-767efcc.jsonl"):
            with open(os.path.join(DATA, name), encoding="utf-8") as f:
                for i, line in enumerate(f):
                    t = json.loads(line)
                    code = t["code"] if "code" in t else t["prompt"] + t["canonical_solution"]
                    write(f"datasets/{name[:4]}_{i}.py", code.replace("\r\n", "\n") + "\n")
        targets.append(d)
    else:
        print(f"SKIP (loudly): {DATA} is missing: the datasets are not scanned")
    expect(targets, "nothing to scan")
    rc, j, _ = check_json(*targets, "--no-config")
    sg002 = [(f["path"], x["line"], x["message"][-90:]) for f in j["files"] for x in f["findings"]
             if x["rule_id"] == "SG002"]
    expect(not sg002, f"{len(sg002)} SG002 on real code: {sg002[:5]}")
    expect(j["stats"]["checked_files"] > 600, f"only {j['stats']['checked_files']} files checked")


# ------------------------------------------------------------------------------ policy files

def policy_tree(name, policy):
    """TMP/name/.snipgate.yml and a source tree below it; returns (root, sub)."""
    root = os.path.join(TMP, name)
    write(f"{name}/.snipgate.yml", policy)
    write(f"{name}/src/shell.py", HOSTILE)                       # SG201 high
    write(f"{name}/src/net.py", "import requests\nrequests.get('https://api.example.com/x')\n")
    write(f"{name}/src/gen/model_pb2.py", "eval('1')\n")       # SG101 high
    write(f"{name}/src/low.py", "import pickle\n")
    return root, os.path.join(root, "src")


@check
def policy_found_upwards_and_applied():
    root, sub = policy_tree("pol1", "fail_on: critical\nrules:\n  disable: [SG201]\n"
                                    "network:\n  allow_hosts: [api.example.com]\nexclude: ['*_pb2.py']\n")
    rc, j, err = check_json(".", cwd=sub)
    expect(j["policy"] and j["policy"].endswith("pol1/.snipgate.yml"), f"policy {j['policy']}")
    expect(j["fail_on"] == "critical", f"fail_on {j['fail_on']}")
    paths = sorted(os.path.basename(f["path"]) for f in j["files"])
    expect("model_pb2.py" not in paths, f"an excluded file was checked: {paths}")
    ids = {x["rule_id"] for f in j["files"] for x in f["findings"]}
    expect("SG201" not in ids, f"a disabled rule reported: {ids}")
    expect(not any(x["rule_id"].startswith("SG7") and x["blocking"] for f in j["files"] for x in f["findings"]),
           "a call to an allowed host blocks")
    expect(rc == 0 and j["verdict"] == "pass", f"exit {rc}: {j['reasons']}")
    # the command line wins over the policy
    rc, j, _ = check_json(".", "--fail-on", "high", cwd=sub)
    expect(j["fail_on"] == "high", f"--fail-on did not win: {j['fail_on']}")
    rc, j, _ = check_json(".", "--no-config", cwd=sub)
    expect(j["policy"] is None and rc == 1, f"--no-config: policy {j['policy']}, exit {rc}")


@check
def policy_from_pyproject_toml():
    # [tool.snipgate] in pyproject.toml, found upwards like .snipgate.yml and applied the same way;
    # in one directory .snipgate.yml comes first; a pyproject.toml without the table is passed over
    root = os.path.join(TMP, "pyp1")
    write("pyp1/pyproject.toml", '[project]\nname = "demo"\n\n[tool.black]\nline-length = 100\n\n'
          '[tool.snipgate]\nfail_on = "critical"\nexclude = ["*_pb2.py"]\n'
          'network.allow_hosts = ["api.example.com"]\n\n[tool.snipgate.rules]\ndisable = ["SG201"]\n')
    write("pyp1/src/shell.py", HOSTILE)
    write("pyp1/src/net.py", "import requests\nrequests.get('https://api.example.com/x')\n")
    write("pyp1/src/gen/model_pb2.py", "eval('1')\n")
    write("pyp1/src/sub/pyproject.toml", '[project]\nname = "inner"\n[tool.ruff]\nselect = ["S"]\n')
    sub = os.path.join(root, "src")
    rc, j, err = check_json(".", cwd=os.path.join(sub, "sub"))
    expect(j["policy"] and j["policy"].endswith("pyp1/pyproject.toml"), f"policy {j['policy']}")
    rc, j, err = check_json(".", cwd=sub)
    expect(j["policy"] and j["policy"].endswith("pyp1/pyproject.toml"), f"policy {j['policy']}")
    expect(j["fail_on"] == "critical", f"fail_on {j['fail_on']}")
    paths = sorted(os.path.basename(f["path"]) for f in j["files"])
    expect("model_pb2.py" not in paths, f"an excluded file was checked: {paths}")
    ids = {x["rule_id"] for f in j["files"] for x in f["findings"]}
    expect("SG201" not in ids, f"a disabled rule reported: {ids}")
    expect(rc == 0 and j["verdict"] == "pass", f"exit {rc}: {j['reasons']}")
    # --config names it too
    rc, j, _ = check_json(os.path.join(sub, "shell.py"), "--config", os.path.join(root, "pyproject.toml"))
    expect(rc == 0 and j["policy"].endswith("pyproject.toml"), f"--config pyproject.toml: exit {rc}")
    # .snipgate.yml beside it wins
    write("pyp1/.snipgate.yml", "fail_on: low\n")
    rc, j, _ = check_json(".", cwd=sub)
    expect(j["policy"].endswith("pyp1/.snipgate.yml") and rc == 1, f"policy {j['policy']}, exit {rc}")
    os.unlink(os.path.join(root, ".snipgate.yml"))
    # errors: file:line:col, exit 2, no verdict
    write("pyp2/pyproject.toml", '[tool.snipgate]\nfail_on = "high"\n\n[tool.snipgate.rules]\ndisabel = ["SG201"]\n')
    ok = write("pyp2/ok.py", CLEAN)
    rc, out, err = run("check", ok, cwd=os.path.join(TMP, "pyp2"))
    expect(rc == 2 and "pyproject.toml:5:1:" in err and "disabel" in err, f"exit {rc}: {err[:300]}")
    expect(out == "", f"a verdict was printed: {out[:200]}")
    write("pyp2/pyproject.toml", '[tool.snipgate]\nfail_on = "high"\nfail_on = "low"\n')
    rc, out, err = run("check", ok, cwd=os.path.join(TMP, "pyp2"))
    expect(rc == 2 and "pyproject.toml:3:1:" in err and "defined twice" in err, f"exit {rc}: {err[:300]}")
    rc, out, err = run("check", ok, "--config", os.path.join(TMP, "pyp1/src/sub/pyproject.toml"))
    expect(rc == 2 and "no [tool.snipgate] table" in err, f"--config without the table: exit {rc}: {err[:300]}")


@check
def policy_honors_suppressions_per_rule():
    # rules.honor_suppressions: a list lets # nosec / # noqa silence those rules only (SG003 says
    # why another is not), true lets it silence any; without the key nothing is silenced
    code = "import os\nos.system('x')  # nosec SG201\neval('1')  # noqa: SG101\n"
    for name, policy, want_rc, silenced in (
            ("hs1", "rules:\n  honor_suppressions: [SG201]\n", 1, {"SG201"}),
            ("hs2", "rules:\n  honor_suppressions: true\n", 0, {"SG201", "SG101"}),
            ("hs3", "fail_on: medium\n", 1, set())):
        write(f"{name}/.snipgate.yml", policy)
        write(f"{name}/a.py", code)
        rc, j, err = check_json("a.py", cwd=os.path.join(TMP, name))
        got = {x["rule_id"] for x in j["files"][0]["findings"] if x.get("suppressed")}
        expect(rc == want_rc and got == silenced, f"{policy!r}: exit {rc}, silenced {got}")
    write("hs4/.snipgate.yml", "rules:\n  honor_suppressions: 3\n")
    write("hs4/a.py", code)
    rc, out, err = run("check", "a.py", cwd=os.path.join(TMP, "hs4"))
    expect(rc == 2 and "honor_suppressions" in err, f"a bad value: exit {rc}, {err[:200]}")


@check
def policy_unknown_key_names_file_line_column():
    p = write("polbad/.snipgate.yml", "fail_on: high\nrules:\n  disabel: [SG201]\n")
    ok = write("polbad/ok.py", CLEAN)
    rc, out, err = run("check", ok, cwd=os.path.dirname(p))
    expect(rc == 2, f"exit {rc}, want 2")
    expect(".snipgate.yml:3:3:" in err and "disabel" in err, f"message lacks file:line:col: {err[:300]}")
    expect(out == "", f"a verdict was printed: {out[:200]}")
    for bad, needle in (("fail_on: severe\n", "fail_on"), ("stages:\n  required: [lint]\n", "lint"),
                        ("budgets:\n  max_bytes: lots\n", "max_bytes"), ("exclude: {a: 1}\n", "exclude"),
                        ("rules: [a\n", "YAML")):
        cfg = write("polbad/other.yml", bad)
        rc, out, err = run("check", "--config", cfg, ok)
        expect(rc == 2 and "other.yml:" in err and needle in err, f"{bad!r}: exit {rc}, {err[:200]}")
    # the fuzz stage's budget (docs/policy.md): bad values and misspelt keys name file:line:col
    for bad, where, needle in (("budgets:\n  fuzz_runs: 0\n", "2:14", "'fuzz_runs' must be an integer from 1"),
                               ("budgets:\n  fuzz_runs: -5\n", "2:14", "fuzz_runs"),
                               ("budgets:\n  fuzz_runs: 2000000000\n", "2:14", "fuzz_runs"),
                               ("budgets:\n  fuzz_runs: 1e3\n", "2:14", "fuzz_runs"),
                               ("budgets:\n  fuzz_seconds: soon\n", "2:17", "'fuzz_seconds' must be a duration"),
                               ("budgets:\n  fuzz_seconds: 0\n", "2:17", "fuzz_seconds"),
                               ("budgets:\n  fuzz_seconds: 2h\n", "2:17", "fuzz_seconds"),
                               ("budgets:\n  fuzz_seconds: [1]\n", "2:17", "fuzz_seconds"),
                               ("budgets:\n  fuzz_secs: 5\n", "2:3", "unknown key 'fuzz_secs'"),
                               ("fuzz:\n  runs: 5\n", "1:1", "unknown key 'fuzz'")):
        cfg = write("polbad/other.yml", bad)
        rc, out, err = run("check", "--config", cfg, ok)
        expect(rc == 2 and f"other.yml:{where}:" in err and needle in err and out == "",
               f"{bad!r}: exit {rc}, {err[:200]}")
    cfg = write("polbad/other.yml", "budgets:\n  fuzz_secs: 5\n")
    rc, out, err = run("check", "--config", cfg, ok)
    expect("fuzz_seconds, fuzz_runs" in err, f"the expected keys are listed: {err[:300]}")
    # good values load; without a task the budget has nothing to fuzz and the stage does not run
    for good in ("budgets:\n  fuzz_seconds: 10s\n  fuzz_runs: 1000\n", "budgets: {fuzz_seconds: 500ms}\n",
                 "budgets: {fuzz_seconds: 2.5}\n", "budgets: {fuzz_runs: 1}\n"):
        cfg = write("polbad/other.yml", good)
        rc, j, err = check_json("--config", cfg, ok)
        fz = j["files"][0]["stages"]["fuzz"]["status"] if j else None
        expect(rc == 0 and fz == "not_run", f"{good!r}: exit {rc}, fuzz stage {fz}, {err[:200]}")


@check
def policy_enable_packs_and_budgets():
    write("pol2/team.yml", "version: 1\nrules:\n  - id: TEAM1\n    name: no-print\n    severity: high\n"
                           "    message: print in library code\n    match: {calls: [print]}\n")
    root, sub = policy_tree("pol2", "rules:\n  enable: [SG101, TEAM1]\n  packs: [team.yml]\n"
                                    "budgets:\n  max_bytes: 1K\n")
    write("pol2/src/p.py", "print('x')\n")
    write("pol2/src/big.py", "x = 1\n" * 400)
    rc, j, err = check_json(".", cwd=sub)
    ids = sorted({x["rule_id"] for f in j["files"] for x in f["findings"]})
    expect(ids == ["SG101", "TEAM1"], f"rules.enable + packs: findings {ids}")
    big = [f for f in j["files"] if f["path"].endswith("big.py")][0]
    expect(big["error"] and big["error"]["code"] == "too_large", f"budgets.max_bytes 1K: {big['error']}")
    expect(rc == 2, f"exit {rc}")
    write("pol2/.snipgate.yml", "rules:\n  enable: [SG999]\n")
    rc, out, err = run("check", ".", cwd=sub)
    expect(rc == 2 and "SG999" in err, f"an unknown rule in rules.enable: exit {rc}, {err[:200]}")


@check
def policy_required_stage_blocks_when_it_did_not_run():
    root, sub = policy_tree("pol3", "stages:\n  required: [static, golden]\n")
    ok = write("pol3/src/ok.py", CLEAN)
    rc, j, err = check_json(ok, cwd=sub)
    expect(rc == 1 and criteria(j) == ["stage-required"], f"exit {rc}, criteria {criteria(j)}")
    expect(j["reasons"][0]["stage"] == "golden", f"{j['reasons']}")


@check
def policy_excluding_everything_is_nothing_checked():
    root, sub = policy_tree("pol4", "exclude: ['*.py']\n")
    rc, out, err = run("check", ".", cwd=sub)
    expect(rc == 2 and "nothing was checked" in err, f"exit {rc}: {err[:300]}")


# ------------------------------------------------------------------------------ the pipeline, with the sandbox

@check
def run_on_markdown_runs_its_fences():
    if not SANDBOX:
        print("SKIP run_on_markdown_runs_its_fences: SNIPGATE_SKIP_SANDBOX=1")
        return
    p = write("runmd/ans.md", "# Answer\n\nText.\n\n```python\ndef f(x):\n    return x * 2\n```\n\nThen:\n\n"
                              "```bash\nls -l\n```\n\n```python\nprint(f(21))\nraise ValueError('boom')\n```\n")
    rc, out, err = run("run", p, "--format=json")
    if rc == 3:
        raise Failure(f"the sandbox could not be set up: {err[:300]}")
    j = json.loads(out)
    expect(j["outcome"] == "exception" and j["stdout"] == "42\n", f"outcome {j['outcome']}, stdout {j['stdout']!r}")
    expect(j["exception"]["type"] == "ValueError" and j["exception"]["line"] == 18,
           f"the exception's line is the document's: {j['exception']}")
    rc, out, err = run("run", write("runmd/none.md", README_MD.replace("bash", "text")))
    expect(rc == 2 and "no Python" in err, f"Markdown without Python: exit {rc}, {err[:200]}")


@check
def mixed_folder_matches_the_blocking_table():
    """Hostile and clean files, Markdown answers and a task: stage by stage, as docs/blocking.md says."""
    if not SANDBOX:
        print("SKIP mixed_folder_matches_the_blocking_table: SNIPGATE_SKIP_SANDBOX=1")
        return
    d = os.path.join(TMP, "mixed")
    os.makedirs(d, exist_ok=True)
    shutil.copy(GOOD, os.path.join(d, "good.py"))
    shutil.copy(BAD, os.path.join(d, "bad.py"))
    write("mixed/hostile.py", HOSTILE)
    write("mixed/answer.md", ANSWER_MD)
    write("mixed/README.md", README_MD)
    rc, j, err = check_json(d, "--task", TASK, "--property-budget", "60")
    expect(rc == 1, f"exit {rc}, want 1: {err[:300]}")
    by = {os.path.basename(f["path"]): f for f in j["files"]}
    expect(sorted(by) == ["answer.md", "bad.py", "good.py", "hostile.py"], f"files {sorted(by)}")
    want = {  # file: (static, golden, criteria)
        "answer.md": ("block", "skipped", {"finding"}),
        "hostile.py": ("block", "skipped", {"finding"}),
        "good.py": ("pass", "pass", set()),
        "bad.py": ("pass", "block", {"golden-case", "property"}),
    }
    for name, (s, g, crit) in want.items():
        st = by[name]["stages"]
        got = (st["static"]["status"], st["golden"]["status"], {r["criterion"] for r in by[name]["reasons"]})
        expect(got == (s, g, crit), f"{name}: stages/criteria {got}, want {(s, g, crit)}")
        expect(st["fuzz"]["status"] == "not_run", f"{name}: fuzz {st['fuzz']}")
        expect(by[name]["blocked"] == bool(crit), f"{name}: blocked {by[name]['blocked']} with {crit}")
        if g == "skipped":
            expect(st["golden"]["time_ms"] == 0, f"{name}: a skipped stage took time")
        if g in ("pass", "block"):
            expect(st["golden"]["time_ms"] > 0, f"{name}: golden time {st['golden']}")
    for f in by["bad.py"]["golden"]["failures"]:
        expect(f["criterion"] == ("property" if f["kind"] == "property" else "golden-case"), f"{f}")
    table = {r["id"]: r["stage"] for r in table_from_docs()}
    for r in j["reasons"]:
        expect(r["stage"] in table[r["criterion"]] or table[r["criterion"]] == "any",
               f"reason {r['criterion']} from stage {r['stage']}, the table says {table[r['criterion']]}")
    expect(j["stages"]["golden"]["files"] == {"pass": 1, "block": 1, "error": 0, "skipped": 2, "not_run": 0},
           f"golden summary {j['stages']['golden']}")


def main():
    passed = failed = 0
    only = os.environ.get("SG_TEST_ONLY", "")  # run only the checks whose name holds this
    for fn in CHECKS:
        if only not in fn.__name__:
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
    print(f"{VALIDATED[0]} JSON verdicts validated against docs/verdict.schema.json, "
          f"{sarif_schema.count()} SARIF verdicts against the SARIF 2.1.0 schema")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
