"""Validate SARIF verdicts against the official SARIF 2.1.0 JSON Schema (fetched by scripts/setup.sh,
pinned by hash, into build-deps/sarif-schema/). The e2e drivers call `validate_if_sarif` on the
output of every `snipgate ... --format sarif` they run; `count()` says how many were validated."""
import json
import os

_VALIDATOR = None
_COUNT = [0]


def _validator(root):
    global _VALIDATOR
    if _VALIDATOR is None:
        import jsonschema  # python3-jsonschema (scripts/setup.sh)
        path = os.path.join(root, "build-deps", "sarif-schema", "sarif-2.1.0.json")
        if not os.path.exists(path):
            raise RuntimeError(f"{path} is missing: run bash scripts/setup.sh (it fetches the SARIF schema)")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        _VALIDATOR = jsonschema.Draft4Validator(schema)
    return _VALIDATOR


def errors(root, text):
    """The schema errors of one SARIF document (a list of strings; empty when valid)."""
    doc = json.loads(text)
    return [f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:200]}"
            for e in _validator(root).iter_errors(doc)]


def validate_if_sarif(root, args, out):
    """If `args` asked for SARIF on stdout and something was printed, it must be valid."""
    a = list(args)
    want = any(x == "--format=sarif" for x in a) or any(
        a[i] == "--format" and i + 1 < len(a) and a[i + 1] == "sarif" for i in range(len(a)))
    if not want or not out.strip() or ("-o" in a and "-" not in a) or "--output" in a:
        return []
    _COUNT[0] += 1
    return errors(root, out)


def count():
    return _COUNT[0]
