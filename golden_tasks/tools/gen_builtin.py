#!/usr/bin/python3
"""Write golden_tasks/builtin/<theme>.jsonl from golden_tasks/src/<theme>.py.

    python3 golden_tasks/tools/gen_builtin.py           # rewrite the JSONL files
    python3 golden_tasks/tools/gen_builtin.py --check   # exit 1 if they are not up to date

Each src module defines TASKS (a list of task dicts with plain Python values in its tests); the
values are written in the tagged encoding of docs/tasks.md. Also writes
testdata/buggy_candidates.jsonl from src/_buggy.py and the codec/type-language conformance vectors
testdata/{tagged_values,type_strings}.jsonl from src/_vectors.py."""

import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent
ROOT = GOLDEN.parent
sys.dont_write_bytecode = True  # keep the source tree clean (it may be read-only)
sys.path.insert(0, str(ROOT / "tests" / "golden"))
sys.path.insert(0, str(GOLDEN / "src"))
import sgtasks  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def enc_task(t):
    out = dict(t)
    tests = []
    for c in t["tests"]:
        c = dict(c)
        c["args"] = [sgtasks.encode(a) for a in c["args"]]
        if "kwargs" in c:
            c["kwargs"] = {k: sgtasks.encode(v) for k, v in c["kwargs"].items()}
        if "expected" in c:
            c["expected"] = sgtasks.encode(c["expected"])
        tests.append(c)
    out["tests"] = tests
    if "seeds" in t.get("fuzz", {}):
        out["fuzz"] = dict(t["fuzz"], seeds=[[sgtasks.encode(a) for a in seed] for seed in t["fuzz"]["seeds"]])
    return out


def dump(rows):
    # UTF-8 as is, except U+2028/U+2029, which some line readers take for line ends
    return "".join(json.dumps(r, ensure_ascii=False, allow_nan=False)
                   .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + "\n" for r in rows)


def main():
    check = "--check" in sys.argv[1:]
    outputs = {}
    for src in sorted((GOLDEN / "src").glob("[a-z]*.py")):
        mod = load(src)
        outputs[GOLDEN / "builtin" / f"{src.stem}.jsonl"] = dump(enc_task(t) for t in mod.TASKS)
    buggy = load(GOLDEN / "src" / "_buggy.py")
    rows = []
    for b in buggy.BUGGY:
        b = dict(b)
        mc = b["min_counterexample"]
        enc = {"args": [sgtasks.encode(a) for a in mc["args"]]}
        if mc.get("kwargs"):
            enc["kwargs"] = {k: sgtasks.encode(v) for k, v in mc["kwargs"].items()}
        b["min_counterexample"] = enc
        rows.append(b)
    outputs[GOLDEN / "testdata" / "buggy_candidates.jsonl"] = dump(rows)
    vec = load(GOLDEN / "src" / "_vectors.py")
    rows = []
    for text, valid, rep, canonical, note in vec.TAGGED:
        row = {"json": text, "valid": valid}
        if rep is not None:
            row["repr"] = rep
        if canonical is not None:
            row["canonical"] = canonical
        if note:
            row["note"] = note
        rows.append(row)
    outputs[GOLDEN / "testdata" / "tagged_values.jsonl"] = dump(rows)
    rows = []
    for text, valid, good, bad, note in vec.TYPES:
        row = {"type": text, "valid": valid}
        if good:
            row["conforming"] = good
        if bad:
            row["not_conforming"] = bad
        if note:
            row["note"] = note
        rows.append(row)
    outputs[GOLDEN / "testdata" / "type_strings.jsonl"] = dump(rows)
    stale = []
    for path, text in outputs.items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in sorted((GOLDEN / "builtin").glob("*.jsonl")):
        if path not in outputs:
            stale.append(path)
            print(f"{path}: no source in golden_tasks/src/", file=sys.stderr)
    if check and stale:
        for p in stale:
            print(f"out of date: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1
    if not check:
        for p in stale:
            print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
