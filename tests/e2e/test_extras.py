#!/usr/bin/env python3
"""Syntax noise hides nothing. A comment or a line continuation may stand between almost any two
tokens of Python, and tree-sitter keeps them as child nodes, so a pass that reads children by
position can be steered past a finding by them (`getattr(os, # c` / `"system")`); redundant
parentheses change the node a pass looks at.

For every case of tests/cases/block, four variants: a comment and a newline after every `(`, `[`,
`{` and `,` inside brackets; a line continuation after every `=`, `.`, `(`, `+` and `,` outside
them (where one is legal); parentheses around every name that is called, subscripted or has an
attribute taken; every plain string literal split in two joined with `+`. Each variant is valid
Python (compile(), warnings as errors) and must be blocked by at least the rules that block the
case itself. The binary of 2026-11-30 lost a finding in 81 of 841 variants (44 comments, 21
continuations, 1 parentheses, 15 strings split: credentials).

usage: test_extras.py SNIPGATE_BINARY REPO_ROOT
"""
import io
import json
import keyword
import os
import subprocess
import sys
import tempfile
import tokenize
import warnings

QUOTES = "'" + '"'
TRIPLES = ("'''", '"""')
BACKSLASH = chr(92)
SG = os.path.abspath(sys.argv[1])
CASES = os.path.join(os.path.abspath(sys.argv[2]), "tests", "cases", "block")


def variants(src):
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    starts = [0]
    for line in src.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    comments, continuations = [], []
    depth = 0
    for t in toks:
        if t.type != tokenize.OP:
            continue
        if t.string in "([{":
            depth += 1
        elif t.string in ")]}":
            depth -= 1
        off = starts[t.end[0] - 1] + t.end[1]
        if depth > 0 and t.string in ("(", "[", "{", ","):
            comments.append(off)
        if depth == 0 and t.string in ("=", ".", "(", "+", ","):
            continuations.append(off)
    out = []
    # parentheses around every name that is called, subscripted or has an attribute taken
    # (`(os).system`, `(getattr)(os, ...)`, `(reversed)(...)`)
    names = []
    for i, t in enumerate(toks):
        if t.type != tokenize.NAME or keyword.iskeyword(t.string):
            continue
        prev = toks[i - 1].string if i else ""
        nxt = toks[i + 1].string if i + 1 < len(toks) else ""
        if prev in (".", "def", "class", "import", "from", "as", "global", "nonlocal", "@") or nxt not in (".", "(", "["):
            continue
        names.append((starts[t.start[0] - 1] + t.start[1], starts[t.end[0] - 1] + t.end[1]))
    if names:
        s = src
        for a, b in sorted(names, reverse=True):
            s = s[:a] + "(" + s[a:b] + ")" + s[b:]
        try:
            compile(s, "variant", "exec")
            out.append(("parentheses", s))
        except (SyntaxError, ValueError):
            pass
    # every plain one-line string literal of 4+ characters split in two joined with `+`
    # (`"__buil" + "tins__"`, `"chang" + "eme123"`)
    pieces = []
    for t in toks:
        lit = t.string
        if (t.type == tokenize.STRING and lit[0] in QUOTES and lit[:3] not in TRIPLES and BACKSLASH not in lit
                and len(lit) >= 4):
            k = (len(lit) - 2) // 2
            q = lit[0]
            pieces.append((starts[t.start[0] - 1] + t.start[1], starts[t.end[0] - 1] + t.end[1],
                           "(" + lit[:k + 1] + q + " + " + q + lit[k + 1:] + ")"))
    if pieces:
        s = src
        for a, b, new in sorted(pieces, reverse=True):
            s = s[:a] + new + s[b:]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a split string that ends up called: not the same program
                compile(s, "variant", "exec")
            out.append(("plus", s))
        except (SyntaxError, SyntaxWarning, ValueError):
            pass
    for kind, offs, text in (("comments", comments, " # c\n"), ("continuations", continuations, " \\\n    ")):
        if not offs:
            continue
        s = src
        for off in sorted(offs, reverse=True):
            s = s[:off] + text + s[off:]
        try:
            compile(s, "variant", "exec")
        except (SyntaxError, ValueError):
            continue
        out.append((kind, s))
    return out


def blocking_rules(paths):
    """path -> the set of rule ids of its blocking findings, in one run of `check`."""
    p = subprocess.run([SG, "check", "--format", "json", *paths], capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: check exited {p.returncode}: {p.stderr[:400]}")
    doc = json.loads(p.stdout)
    # (keyed by file name, unique here: a verdict names a file of the repository relative to its
    # top level, not as given)
    return {os.path.basename(f["path"]): {x["rule_id"] for x in f["findings"] if x["blocking"]} for f in doc["files"]}


def main():
    names = sorted(n for n in os.listdir(CASES) if n.endswith(".py"))
    base = blocking_rules([os.path.join(CASES, n) for n in names])
    tmp = tempfile.mkdtemp(prefix="sg_extras_")
    made = {}
    for n in names:
        want = base.get(n, set()) - {"SG001"}
        if not want:
            continue
        for kind, s in variants(open(os.path.join(CASES, n), encoding="utf-8").read()):
            path = os.path.join(tmp, f"{kind}_{n}")
            with open(path, "w", encoding="utf-8") as f:
                f.write(s)
            made[path] = (n, kind, want)
    got = blocking_rules(sorted(made))
    lost = []
    for path, (n, kind, want) in sorted(made.items()):
        missing = want - got.get(os.path.basename(path), set())
        if missing:
            lost.append(f"{kind} {n}: lost {sorted(missing)} (got {sorted(got.get(os.path.basename(path), set()))})")
    for line in lost:
        print("FAIL", line)
    if len(made) < 300:
        lost.append("too few variants")
        print(f"FAIL only {len(made)} variants were made (expected >= 300)")
    print(f"{len(made)} variants of {len(names)} block cases; {len(lost)} failed")
    print(f"{len(made) - len(lost)} passed, {len(lost)} failed")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
