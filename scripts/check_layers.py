#!/usr/bin/env python3
"""The layering check (docs/design.md): a folder includes only folders below it.

    include/snipgate (public headers) < base < parsers < rules < sandbox < golden_tasks < fuzz
    < gate < cli

- a source file in a layer may include its own layer, any lower layer and the public headers;
- cli/ is a client of the public API only: it includes the public headers and cli/ itself;
- the library (every layer below cli) prints nothing and parses no command line: no printf,
  fprintf, puts, perror or getopt outside cli/ (snprintf and friends are fine);
- nothing calls a libc function with hidden static state (strtok, localtime, gmtime, asctime,
  ctime, rand, strsignal is fine): supervisors and checkers run in several threads (a shared
  strtok in /proc parsing made CPU readings absurd under `eval -j 2`); use the _r variants.
Test programs (tests/, bench/, the fuzz/fuzz_*.c harnesses) are exempt.
Usage: check_layers.py SOURCE_DIR   (exit 1 with every violation listed)
       check_layers.py --self-test  (proves that a planted violation is caught)
"""
import os
import re
import shutil
import sys
import tempfile

LAYERS = ["include/snipgate", "base", "parsers", "rules", "sandbox", "golden_tasks", "fuzz", "gate", "cli"]
RANK = {name: i for i, name in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Printing on its own (stdout/stderr) or parsing argv; writing to a stream the caller passed in
# (the renderers: sg_render(report, FILE *out)) is output the caller asked for, not printing.
PRINTS = re.compile(r"(?<![\w.])(printf|vprintf|puts|perror|getopt|getopt_long)\s*\(|"
                    r"(?<![\w.])(fprintf|vfprintf|fputs|fputc|fwrite)\s*\([^;]*?\b(stdout|stderr)\b")


UNSAFE = re.compile(r"(?<![\w.])(strtok|localtime|gmtime|asctime|ctime|rand|tmpnam)\s*\(")


# Programs, not library code: build-time tools and the fuzz corpus replayer.
BUILD_TOOLS = {"seccomp_gen.c", "pack_gen.c", "replay_main.c"}


def layer_of(rel):
    for name in sorted(LAYERS, key=len, reverse=True):
        if rel == name or rel.startswith(name + "/"):
            return name
    return None


def included_layer(path, rel_dir):
    """The layer of an include: "parsers/x.h" -> parsers, "snipgate/x.h" -> the public headers,
    "x.h" -> the including file's own folder."""
    if path.startswith("snipgate/"):
        return "include/snipgate"
    head = path.split("/", 1)[0] if "/" in path else None
    if head is None:
        return layer_of(rel_dir)
    return head if head in RANK else "?" + head


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def check(root):
    problems = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(("build", ".")) and d not in ("tests", "bench")]
        for fn in files:
            if not fn.endswith((".c", ".h")):
                continue
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, root)
            layer = layer_of(os.path.dirname(rel))
            if layer is None or (layer == "fuzz" and fn.startswith("fuzz_")) or fn in BUILD_TOOLS:
                continue
            with open(full, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                target = included_layer(inc, os.path.dirname(rel))
                line = text.count("\n", 0, m.start()) + 1
                if target.startswith("?"):
                    problems.append("%s:%d: includes %r from no known layer" % (rel, line, inc))
                elif layer == "cli" and target not in ("cli", "include/snipgate"):
                    problems.append("%s:%d: cli/ uses the public API only, not %r" % (rel, line, inc))
                elif RANK[target] > RANK[layer]:
                    problems.append("%s:%d: %s/ includes %r from the higher layer %s/" % (rel, line, layer, inc, target))
            code = strip_comments(text)
            for m in UNSAFE.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                problems.append("%s:%d: %s() keeps hidden static state: use %s_r (code runs in several threads)"
                                % (rel, line, m.group(1), m.group(1)))
            if layer != "cli":
                for m in PRINTS.finditer(code):
                    line = code.count("\n", 0, m.start()) + 1
                    problems.append("%s:%d: library code calls %s() on its own (only cli/ prints or parses argv)"
                                    % (rel, line, m.group(1) or m.group(2)))
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        for d, name, body in [("base", "ok.c", '#include "base/ok.h"\n#include "snipgate/snipgate.h"\n'),
                              ("parsers", "bad.c", '#include "rules/pack.h"\n'),
                              ("cli", "bad.c", '#include "gate/report.h"\n'),
                              ("sandbox", "loud.c", 'void f(FILE *o) { printf("x"); snprintf(0, 0, "y"); fprintf(o, "z"); }\n'),
                              ("gate", "err.c", 'void g(void) { fprintf(stderr, "oops"); }\n'),
                              ("rules", "tok.c", 'void h(char *s) { char *t = strtok(s, " "); (void)strtok_r(s, " ", &t); }\n')]:
            os.makedirs(os.path.join(tmp, d), exist_ok=True)
            with open(os.path.join(tmp, d, name), "w") as f:
                f.write(body)
        got = check(tmp)
        want = ["parsers/bad.c", "cli/bad.c", "sandbox/loud.c", "gate/err.c", "rules/tok.c"]
        missing = [w for w in want if not any(p.startswith(w) for p in got)]
        extra = [p for p in got if not any(p.startswith(w) for w in want)]
        if missing or extra or len(got) != 5:
            print("self-test FAILED: missing %r, unexpected %r" % (missing, extra))
            return 1
    print("self-test: 5 planted violations caught, the clean file, a caller's stream and strtok_r passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    print("layers: %d violation(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
