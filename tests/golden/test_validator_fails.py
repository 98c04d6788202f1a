#!/usr/bin/python3
"""The golden-task validator must fail, naming the problem, on planted defects (CTest
golden.validator_fails).

    /usr/bin/python3 tests/golden/test_validator_fails.py golden_tasks

Copies golden_tasks/ to a temporary directory, plants one defect of each kind the validator is
meant to catch, runs validate_builtin.py on the copy and checks that it exits 1 and reports every
planted defect. Exit 0 when it does."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rewrite(path, fn):
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    rows = fn(rows)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def by_id(rows, tid):
    return next(r for r in rows if r["task_id"] == tid)


def main():
    src = Path(sys.argv[1]).resolve()
    expected = []  # (substring of the report, what was planted)
    with tempfile.TemporaryDirectory() as tmp:
        g = Path(tmp) / "golden_tasks"
        shutil.copytree(src, g, ignore=shutil.ignore_patterns("tools", "src", "__pycache__"))
        b = g / "builtin"

        def search(rows):
            r = by_id(rows, "sg/top_k_largest")
            r["tests"][0]["expected"] = [5, 4, 4]
            expected.append(("sg/top_k_largest", "got [5, 4, 3], expected [5, 4, 4]"))
            r = by_id(rows, "sg/kth_smallest")
            r["tests"][1]["args"][0] = {"$tupel": []}
            expected.append(("unknown tag '$tupel'", "unknown tag"))
            r = by_id(rows, "sg/natural_sort")
            r["signature"]["args"][0] = "list[str"
            expected.append(("signature: expected ']'", "bad type string"))
            r = by_id(rows, "sg/dedupe_preserve_order")
            r["bogus"] = 1
            expected.append(("$.bogus: unknown field", "unknown field"))
            r = by_id(rows, "sg/merge_k_sorted")
            del r["tests"][4:]
            expected.append(("4 cases, at least 5 required", "too few cases"))
            r = by_id(rows, "sg/binary_search_leftmost")
            r["canonical_solution"] = "import os\n" + r["canonical_solution"]
            expected.append(("import os is outside the allowed", "forbidden import"))
            r = by_id(rows, "sg/sorted_squares")
            r["tests"][0]["args"][0] = [9007199254740993]
            expected.append(("integer literal beyond 2^53-1", "bare big integer"))
            return rows
        rewrite(b / "search_sort.jsonl", search)

        def strings(rows):
            r = by_id(rows, "sg/common_prefix")
            r["task_id"] = "sg/parse_iso8601"
            expected.append(("task_id sg/parse_iso8601 already defined", "duplicate id across files"))
            r = by_id(rows, "sg/caesar_shift")
            r["canonical_solution"] += "\n\ndef caesar_shift(text, shift):\n    return ''.join(set(text))\n"
            r["tests"] = [t for t in r["tests"] if t["args"][0] == ""] * 5
            r["properties"] = [{"name": "no_raise"}]
            expected.append(("sg/caesar_shift: results depend on PYTHONHASHSEED", "hash-order dependence"))
            r = by_id(rows, "sg/slugify")
            r["canonical_solution"] = r["canonical_solution"].replace('.strip("-")', '.strip("-") + "x"')
            expected.append(("(sg/slugify): property idempotent", "reference violates a declared property"))
            return rows
        rewrite(b / "strings.jsonl", strings)

        def numbers(rows):
            r = by_id(rows, "sg/roman_numerals")
            r["prompt"] = r["prompt"].replace("'MCMXCIV'", "'MCMXCV'")
            expected.append(("(sg/roman_numerals): prompt: an example disagrees", "wrong prompt example"))
            return rows
        rewrite(b / "numbers.jsonl", numbers)

        def buggy(rows):
            r = by_id(rows, "sg/eval_rpn")
            r["completion"] = "def eval_rpn(tokens):\n    return 0\n"
            expected.append(("planted bug is not subtle", "candidate fails the first case"))
            r = by_id(rows, "sg/parse_bool")
            r["min_counterexample"] = {"args": ["yes"]}
            expected.append(("min_counterexample does not expose the bug", "counterexample too weak"))
            r = by_id(rows, "sg/binary_search_leftmost")
            r["min_counterexample"] = {"args": [[], 5]}
            expected.append(("min_counterexample is not minimal: [[], 0]", "counterexample not minimal"))
            return rows
        rewrite(g / "testdata" / "buggy_candidates.jsonl", buggy)

        r = subprocess.run([sys.executable, str(HERE / "validate_builtin.py"), str(g)],
                           capture_output=True, text=True, timeout=600)
    report = r.stdout + r.stderr
    problems = []
    if r.returncode != 1:
        problems.append(f"validator exited {r.returncode}, expected 1")
    for needle, what in expected:
        if needle not in report:
            problems.append(f"not reported: {what} (looked for {needle!r})")
    if problems:
        print(report)
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    print(f"golden.validator_fails: all {len(expected)} planted defects reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
