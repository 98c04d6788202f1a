"""Reference helpers for the task format of docs/tasks.md (Python 3 standard library only).

What is here: the tagged value codec, the type language (parser, conformance, a small seeded
generator), strict comparison, and an evaluator for the subset of JSON Schema 2020-12 that
golden_tasks/task.schema.json uses. The C implementation is the product; this module is the
executable reading of the documentation that the tests check the data against.
"""

import base64
import math
import re

MAX_SAFE_INT = 2**53 - 1
MAX_DEPTH = 32
INT_DIGITS = 4300


class FormatError(Exception):
    """A violation of docs/tasks.md; `path` is the field path, e.g. tests[3].args[0]."""

    def __init__(self, path, msg):
        super().__init__(f"{path}: {msg}")
        self.path = path
        self.msg = msg


# ---------------------------------------------------------------------------------------------
# Tagged values

class RawInt(int):
    """Marks an int parsed from a bare JSON integer literal (so its range can be checked)."""


def json_object_pairs(pairs):
    """object_pairs_hook for json.loads: duplicate member names are an error."""
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate member name {k!r}")
        out[k] = v
    return out


def _no_constants(tok):
    raise ValueError(f"non-JSON token {tok}")


def loads_line(text, allow_constants=False):
    """Parse one JSONL line as RFC 8259 JSON. Integers come back as RawInt (so the 2^53 rule can
    be checked); duplicate member names and (unless allowed) NaN/Infinity tokens raise ValueError."""
    import json
    kw = {} if allow_constants else {"parse_constant": _no_constants}
    return json.loads(text, object_pairs_hook=json_object_pairs, parse_int=lambda s: RawInt(int(s)), **kw)


_B64_RE = re.compile(r"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
_INT_RE = re.compile(r"^-?(0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$")


def is_hashable_value(v):
    t = type(v)
    if t in (type(None), bool, int, float, str, bytes):
        return True
    if t is tuple:
        return all(is_hashable_value(x) for x in v)
    return False


def _is_nan(v):
    return type(v) is float and math.isnan(v)


def decode(j, path="value", depth=0):
    """Tagged JSON (as returned by loads_line) -> Python value. Raises FormatError."""
    if depth > MAX_DEPTH:
        raise FormatError(path, f"nested deeper than {MAX_DEPTH}")
    if j is None or j is True or j is False:
        return j
    if isinstance(j, RawInt):
        if abs(j) > MAX_SAFE_INT:
            raise FormatError(path, "integer literal beyond 2^53-1: use {\"$int\": \"...\"}")
        return int(j)
    if isinstance(j, int):
        return j
    if isinstance(j, float):
        if not math.isfinite(j):
            raise FormatError(path, "NaN/Infinity tokens are not JSON here: use {\"$float\": ...}")
        return j
    if isinstance(j, str):
        for ch in j:
            if 0xD800 <= ord(ch) <= 0xDFFF:
                raise FormatError(path, "lone surrogate in string")
        return j
    if isinstance(j, list):
        return [decode(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(j)]
    if isinstance(j, dict):
        if len(j) == 1:
            (k, v), = j.items()
            if k.startswith("$"):
                return _decode_tag(k, v, f"{path}.{k}", depth)
        out = {}
        for k, v in j.items():
            out[decode(k, path)] = decode(v, f"{path}.{k}", depth + 1)
        return out
    raise FormatError(path, f"unexpected JSON value {j!r}")


def _decode_tag(tag, v, path, depth):
    if tag == "$tuple":
        if not isinstance(v, list):
            raise FormatError(path, "payload must be an array")
        return tuple(decode(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
    if tag == "$set":
        if not isinstance(v, list):
            raise FormatError(path, "payload must be an array")
        out = set()
        for i, x in enumerate(v):
            e = decode(x, f"{path}[{i}]", depth + 1)
            if not is_hashable_value(e):
                raise FormatError(f"{path}[{i}]", "set element is not hashable")
            if e in out or (_is_nan(e) and any(_is_nan(x) for x in out)):
                raise FormatError(f"{path}[{i}]", "duplicate set element")
            out.add(e)
        return out
    if tag == "$dict":
        if not isinstance(v, list):
            raise FormatError(path, "payload must be an array of [key, value] pairs")
        out = {}
        for i, pair in enumerate(v):
            if not isinstance(pair, list) or len(pair) != 2:
                raise FormatError(f"{path}[{i}]", "must be a [key, value] array")
            k = decode(pair[0], f"{path}[{i}][0]", depth + 1)
            if not is_hashable_value(k):
                raise FormatError(f"{path}[{i}][0]", "dict key is not hashable")
            if k in out or (_is_nan(k) and any(_is_nan(x) for x in out)):
                raise FormatError(f"{path}[{i}][0]", "duplicate dict key")
            out[k] = decode(pair[1], f"{path}[{i}][1]", depth + 1)
        return out
    if tag == "$bytes":
        if not isinstance(v, str) or not _B64_RE.match(v):
            raise FormatError(path, "payload must be padded standard base64")
        b = base64.b64decode(v, validate=True)
        if base64.b64encode(b).decode() != v:
            raise FormatError(path, "non-canonical base64 (unused bits not zero)")
        return b
    if tag == "$complex":
        if not isinstance(v, list) or len(v) != 2:
            raise FormatError(path, "payload must be an array [real, imag] of two floats")
        parts = []
        for i, x in enumerate(v):
            e = decode(x, f"{path}[{i}]", depth + 1)
            if type(e) not in (int, float):
                raise FormatError(f"{path}[{i}]", "must be a float")
            parts.append(float(e))
        return complex(parts[0], parts[1])
    if tag == "$int":
        if not isinstance(v, str) or not _INT_RE.match(v) or len(v.lstrip("-")) > INT_DIGITS:
            raise FormatError(path, "payload must be a decimal integer string")
        return int(v)
    if tag == "$float":
        if not isinstance(v, str):
            raise FormatError(path, "payload must be a string")
        special = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "-0.0": -0.0}
        if v in special:
            return special[v]
        if not _FLOAT_RE.match(v):
            raise FormatError(path, f"bad float text {v!r}")
        f = float(v)
        if not math.isfinite(f):
            raise FormatError(path, "float literal overflows")
        return f
    raise FormatError(path, f"unknown tag {tag!r}")


def encode(v, path="value"):
    """Python value -> tagged JSON-able value (docs/tasks.md, 'Encoding')."""
    import json
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        return v if abs(v) <= MAX_SAFE_INT else {"$int": str(v)}
    if t is float:
        if math.isnan(v):
            return {"$float": "nan"}
        if math.isinf(v):
            return {"$float": "inf" if v > 0 else "-inf"}
        if v == 0.0 and math.copysign(1.0, v) < 0:
            return {"$float": "-0.0"}
        return v
    if t is list:
        return [encode(x, path) for x in v]
    if t is tuple:
        return {"$tuple": [encode(x, path) for x in v]}
    if t is set:
        items = [encode(x, path) for x in v]
        items.sort(key=lambda e: json.dumps(e, ensure_ascii=False, sort_keys=True))
        return {"$set": items}
    if t is bytes:
        return {"$bytes": base64.b64encode(v).decode()}
    if t is complex:
        return {"$complex": [encode(float(v.real), path), encode(float(v.imag), path)]}
    if t is dict:
        if all(type(k) is str for k in v) and not (len(v) == 1 and next(iter(v)).startswith("$")):
            return {k: encode(x, path) for k, x in v.items()}
        return {"$dict": [[encode(k, path), encode(x, path)] for k, x in v.items()]}
    raise FormatError(path, f"no encoding for type {t.__name__}")


# ---------------------------------------------------------------------------------------------
# Comparison

def strict_equal(got, exp, atol=0.0, rtol=0.0):
    if type(got) is not type(exp):
        return False
    t = type(exp)
    if t is float:
        if math.isnan(exp) or math.isnan(got):
            return math.isnan(exp) and math.isnan(got)
        if got == exp:
            return True
        if (atol or rtol) and math.isfinite(got) and math.isfinite(exp):
            return abs(got - exp) <= atol + rtol * abs(exp)
        return False
    if t in (list, tuple):
        return len(got) == len(exp) and all(strict_equal(g, e, atol, rtol) for g, e in zip(got, exp))
    if t is dict:
        if len(got) != len(exp):
            return False
        for k, ev in exp.items():
            gk = _find_key(got, k)
            if gk is _MISSING or not strict_equal(got[gk], ev, atol, rtol):
                return False
        return True
    if t is set:
        if len(got) != len(exp):
            return False
        return all(any(strict_equal(g, e) for g in got) for e in exp) and \
            all(any(strict_equal(g, e) for e in exp) for g in got)
    if t in (int, str, bytes, bool, type(None)):
        return got == exp
    return False


_MISSING = object()


def _find_key(d, k):
    for gk in d:
        if strict_equal(gk, k):
            return gk
    return _MISSING


def python_equal(got, exp, atol=0.0):
    if isinstance(exp, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if math.isnan(exp) or math.isnan(got):
            return math.isnan(exp) and math.isnan(got)
        return got == exp or (atol > 0 and abs(got - exp) <= atol)
    if isinstance(exp, (list, tuple)) and isinstance(got, (list, tuple)) and type(got) is type(exp):
        return len(got) == len(exp) and all(python_equal(g, e, atol) for g, e in zip(got, exp))
    try:
        return bool(got == exp)
    except Exception:
        return False


def exception_matches(exc, name):
    for cls in type(exc).__mro__:
        if "." in name:
            if f"{cls.__module__}.{cls.__qualname__}" == name:
                return True
        elif cls.__name__ == name:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The type language

class T:
    """A parsed type. kind: None bool int float str bytes list set dict tuple union."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.lo = kw.get("lo")           # int/float range
        self.hi = kw.get("hi")
        self.finite = kw.get("finite", False)
        self.ascii = kw.get("ascii", False)
        self.chars = kw.get("chars")
        self.min = kw.get("min")
        self.max = kw.get("max")
        self.items = kw.get("items", [])  # element types; union alternatives; tuple members
        self.variadic = kw.get("variadic", False)
        self.sorted = kw.get("sorted", False)

    def __repr__(self):
        return f"T({self.kind}, items={self.items})"


class TypeSyntaxError(Exception):
    pass


_TOKEN_RE = re.compile(r"""
      (?P<ws>\ +)
    | (?P<dots3>\.\.\.)
    | (?P<dots2>\.\.)
    | (?P<opt>(min|max|chars)=)
    | (?P<num>-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<quoted>'(\\[\\'nrt]|\\u[0-9A-Fa-f]{4}|[^\\'\x00-\x1f\x7f])+')
    | (?P<empty>\(\))
    | (?P<punct>[\[\]\(\),|])
""", re.VERBOSE)

INT64 = 2**63


def _tokens(s):
    out, i = [], 0
    while i < len(s):
        m = _TOKEN_RE.match(s, i)
        if not m:
            raise TypeSyntaxError(f"unexpected character {s[i]!r} at offset {i}")
        kind = m.lastgroup
        if kind != "ws":
            out.append((kind, m.group(), i))
        i = m.end()
    out.append(("end", "", len(s)))
    return out


class _Parser:
    def __init__(self, s):
        if len(s.encode()) > 512:
            raise TypeSyntaxError("type string longer than 512 bytes")
        self.toks = _tokens(s)
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def take(self, kind=None, text=None):
        tok = self.toks[self.i]
        if (kind and tok[0] != kind) or (text is not None and tok[1] != text):
            want = text if text is not None else kind
            raise TypeSyntaxError(f"expected {want!r} at offset {tok[2]}, got {tok[1] or 'end'!r}")
        self.i += 1
        return tok

    def at(self, text):
        return self.toks[self.i][1] == text and self.toks[self.i][0] in ("punct", "dots2", "dots3", "empty", "name")

    def parse(self):
        t = self.type(0)
        self.take("end")
        return t

    def type(self, depth):
        if depth > 6:
            raise TypeSyntaxError("brackets nested deeper than 6")
        alts = [self.alt(depth)]
        while self.at("|"):
            self.take()
            alts.append(self.alt(depth))
        if len(alts) == 1:
            return alts[0]
        if len(alts) > 8:
            raise TypeSyntaxError("more than 8 alternatives in a union")
        seen = set()
        for a in alts:
            key = type_to_str(a)
            if key in seen:
                raise TypeSyntaxError(f"alternative {key} written twice")
            seen.add(key)
        return T("union", items=alts)

    def alt(self, depth):
        kind, text, off = self.take("name")
        if text in ("None", "bool"):
            return T(text)
        if text == "int":
            t = T("int")
            if self.at("("):
                self.take()
                t.lo, t.hi = self.range(int_only=True)
                self.take("punct", ")")
            return t
        if text == "float":
            t = T("float")
            if self.at("("):
                self.take()
                seen = set()
                while True:
                    if self.peek()[1] == "finite":
                        self.take()
                        opt = "finite"
                        t.finite = True
                    else:
                        opt = "range"
                        t.lo, t.hi = self.range(int_only=False)
                        t.finite = True
                    if opt in seen:
                        raise TypeSyntaxError(f"float option {opt} given twice")
                    seen.add(opt)
                    if self.at(","):
                        self.take()
                        continue
                    break
                self.take("punct", ")")
            return t
        if text == "str":
            t = T("str", min=None, max=None)
            if self.at("("):
                self.take()
                seen = set()
                while True:
                    k, tx, o = self.peek()
                    if tx == "ascii":
                        self.take()
                        opt = "ascii"
                        t.ascii = True
                    elif tx == "chars=":
                        self.take()
                        q = self.take("quoted")[1][1:-1]
                        chars = _unescape_chars(q)
                        t.chars = "".join(sorted(set(chars)))
                        opt = "chars"
                    elif tx in ("min=", "max="):
                        opt = tx[:-1]
                        self.size_opt(t)
                    else:
                        raise TypeSyntaxError(f"unknown str option {tx!r} at offset {o}")
                    if opt in seen:
                        raise TypeSyntaxError(f"str option {opt} given twice")
                    seen.add(opt)
                    if self.at(","):
                        self.take()
                        continue
                    break
                self.take("punct", ")")
                if t.ascii and t.chars is not None:
                    raise TypeSyntaxError("ascii and chars= exclude each other")
            self.check_sizes(t, 4096)
            return t
        if text == "bytes":
            t = T("bytes")
            self.sizes(t, 4096)
            return t
        if text in ("list", "set"):
            self.take("punct", "[")
            el = self.type(depth + 1)
            self.take("punct", "]")
            if text == "set" and not is_hashable_type(el):
                raise TypeSyntaxError("set element type is not hashable")
            t = T(text, items=[el])
            self.sizes(t, 64, allow_sorted=(text == "list"))
            return t
        if text == "dict":
            self.take("punct", "[")
            k = self.type(depth + 1)
            self.take("punct", ",")
            v = self.type(depth + 1)
            self.take("punct", "]")
            if not is_hashable_type(k):
                raise TypeSyntaxError("dict key type is not hashable")
            t = T("dict", items=[k, v])
            self.sizes(t, 64)
            return t
        if text == "tuple":
            self.take("punct", "[")
            if self.peek()[0] == "empty":
                self.take()
                self.take("punct", "]")
                return T("tuple", items=[])
            items = [self.type(depth + 1)]
            variadic = False
            while self.at(","):
                self.take()
                if self.peek()[0] == "dots3":
                    if len(items) != 1:
                        raise TypeSyntaxError("'...' only after the first tuple member")
                    self.take()
                    variadic = True
                    break
                items.append(self.type(depth + 1))
            self.take("punct", "]")
            t = T("tuple", items=items, variadic=variadic)
            if variadic:
                self.sizes(t, 64)
            return t
        raise TypeSyntaxError(f"unknown type name {text!r} at offset {off}")

    def range(self, int_only):
        lo = hi = None
        if self.peek()[0] == "num":
            lo = self.number(int_only)
        self.take("dots2")
        if self.peek()[0] == "num":
            hi = self.number(int_only)
        if lo is not None and hi is not None and lo > hi:
            raise TypeSyntaxError("range with lo > hi")
        return lo, hi

    def number(self, int_only):
        text = self.take("num")[1]
        if int_only:
            if not re.fullmatch(r"-?(0|[1-9][0-9]*)", text):
                raise TypeSyntaxError(f"integer expected, got {text!r}")
            v = int(text)
            if not -INT64 <= v < INT64:
                raise TypeSyntaxError("integer bound outside signed 64 bits")
            return v
        v = float(text)
        if not math.isfinite(v):
            raise TypeSyntaxError("float bound overflows")
        return v

    def size_opt(self, t):
        which = self.take("opt")[1][:-1]
        if which not in ("min", "max"):
            raise TypeSyntaxError(f"{which}= is not a size option")
        text = self.take("num")[1]
        if not re.fullmatch(r"0|[1-9][0-9]*", text):
            raise TypeSyntaxError(f"size must be a natural number, got {text!r}")
        setattr(t, which, int(text))

    def sizes(self, t, limit, allow_sorted=False):
        if self.at("("):
            self.take()
            seen = set()
            while True:
                tok = self.peek()
                if allow_sorted and tok[0] == "name" and tok[1] == "sorted":
                    which = "sorted"
                    self.take()
                    t.sorted = True
                else:
                    which = tok[1][:-1]
                if which in seen:
                    raise TypeSyntaxError(f"option {which} given twice")
                seen.add(which)
                if which != "sorted":
                    self.size_opt(t)
                if self.at(","):
                    self.take()
                    continue
                break
            self.take("punct", ")")
        self.check_sizes(t, limit)

    def check_sizes(self, t, limit):
        if t.max is not None and t.max > limit:
            raise TypeSyntaxError(f"max={t.max} beyond the limit {limit}")
        lo = t.min if t.min is not None else 0
        if t.max is not None and lo > t.max:
            raise TypeSyntaxError("min > max")


def _unescape_chars(q):
    simple = {"\\": "\\", "'": "'", "n": "\n", "r": "\r", "t": "\t"}
    out, i = [], 0
    while i < len(q):
        if q[i] == "\\":
            if q[i + 1] == "u":
                cp = int(q[i + 2:i + 6], 16)
                if 0xD800 <= cp <= 0xDFFF:
                    raise TypeSyntaxError("surrogate in chars=")
                out.append(chr(cp))
                i += 6
            else:
                out.append(simple[q[i + 1]])
                i += 2
        else:
            out.append(q[i])
            i += 1
    return "".join(out)


def parse_type(s):
    return _Parser(s).parse()


def is_hashable_type(t):
    if t.kind in ("None", "bool", "int", "float", "str", "bytes"):
        return True
    if t.kind in ("tuple", "union"):
        return all(is_hashable_type(x) for x in t.items)
    return False


def type_to_str(t):
    """Canonical text of a parsed type (used to detect duplicate union alternatives)."""
    def sz():
        parts = ["sorted"] if t.sorted else []
        if t.min is not None:
            parts.append(f"min={t.min}")
        if t.max is not None:
            parts.append(f"max={t.max}")
        return f"({', '.join(parts)})" if parts else ""
    k = t.kind
    if k in ("None", "bool"):
        return k
    if k == "int":
        return "int" if t.lo is None and t.hi is None else \
            f"int({'' if t.lo is None else t.lo}..{'' if t.hi is None else t.hi})"
    if k == "float":
        opts = []
        if t.lo is not None or t.hi is not None:
            opts.append(f"{'' if t.lo is None else t.lo}..{'' if t.hi is None else t.hi}")
        elif t.finite:
            opts.append("finite")
        return "float" + (f"({', '.join(opts)})" if opts else "")
    if k == "str":
        opts = []
        if t.ascii:
            opts.append("ascii")
        if t.chars is not None:
            opts.append("chars=" + repr(t.chars))
        s = sz()
        if s:
            opts.append(s[1:-1])
        return "str" + (f"({', '.join(opts)})" if opts else "")
    if k == "bytes":
        return "bytes" + sz()
    if k in ("list", "set"):
        return f"{k}[{type_to_str(t.items[0])}]" + sz()
    if k == "dict":
        return f"dict[{type_to_str(t.items[0])}, {type_to_str(t.items[1])}]" + sz()
    if k == "tuple":
        if not t.items:
            return "tuple[()]"
        if t.variadic:
            return f"tuple[{type_to_str(t.items[0])}, ...]" + sz()
        return "tuple[" + ", ".join(type_to_str(x) for x in t.items) + "]"
    return " | ".join(type_to_str(x) for x in t.items)


def _size_ok(t, n, default_max):
    lo = t.min if t.min is not None else 0
    hi = t.max if t.max is not None else None   # defaults bound generation, not conformance
    return n >= lo and (hi is None or n <= hi)


def conforms(v, t, options=True):
    """Whether v conforms to t. options=False checks exact types only (ranges, finite, ascii,
    chars= and sizes ignored), as for case arguments."""
    k = t.kind
    if k == "union":
        return any(conforms(v, a, options) for a in t.items)
    if k == "None":
        return v is None
    if k == "bool":
        return type(v) is bool
    if k == "int":
        return type(v) is int and (not options or ((t.lo is None or v >= t.lo) and (t.hi is None or v <= t.hi)))
    if k == "float":
        if type(v) is not float:
            return False
        if not options:
            return True
        if t.finite and not math.isfinite(v):
            return False
        return (t.lo is None or v >= t.lo) and (t.hi is None or v <= t.hi)
    sized = k in ("str", "bytes", "list", "set", "dict") or (k == "tuple" and t.variadic)
    if sized and options and not _size_ok(t, len(v) if hasattr(v, "__len__") else 0, 0):
        return False
    if k == "str":
        if type(v) is not str:
            return False
        if options and t.ascii and any(ord(c) > 127 for c in v):
            return False
        if options and t.chars is not None and any(c not in t.chars for c in v):
            return False
        return True
    if k == "bytes":
        return type(v) is bytes
    if k == "list":
        if type(v) is not list or not all(conforms(x, t.items[0], options) for x in v):
            return False
        if options and t.sorted:
            try:
                return all(not (b < a) for a, b in zip(v, v[1:]))
            except TypeError:
                return False
        return True
    if k == "set":
        return type(v) is set and all(conforms(x, t.items[0], options) for x in v)
    if k == "dict":
        return type(v) is dict and \
            all(conforms(a, t.items[0], options) and conforms(b, t.items[1], options) for a, b in v.items())
    if k == "tuple":
        if type(v) is not tuple:
            return False
        if t.variadic:
            return all(conforms(x, t.items[0], options) for x in v)
        return len(v) == len(t.items) and all(conforms(x, y, options) for x, y in zip(v, t.items))
    return False


# A small seeded generator: enough to exercise declared properties of the reference solutions.
# (The product's generator is in C; this one only has to be deterministic and type-correct.)
_SAMPLE_CHARS = ("abcxyzABCXYZ019 _-.,:;/\\'\"\t\n\x00\x7f" "éßñøÅ\u0301\u0308中文字ﬁ\uff21\u2167😀\U0001F1EB")


def generate(t, rng, max_size=None, depth=0):
    k = t.kind
    if k == "union":
        return generate(rng.choice(t.items), rng, max_size, depth)
    if k == "None":
        return None
    if k == "bool":
        return rng.random() < 0.5
    if k == "int":
        lo = t.lo if t.lo is not None else -(2**64)
        hi = t.hi if t.hi is not None else 2**64
        picks = [x for x in (0, 1, -1, 2, -2, 7, 10, 100, 255, 256, -128, 2**31, -(2**31), 2**63, 10**12)
                 if lo <= x <= hi]
        picks += [lo, hi]
        r = rng.random()
        if r < 0.4 and picks:
            return rng.choice(picks)
        if r < 0.8:
            a, b = max(lo, -50), min(hi, 50)
            if a <= b:
                return rng.randint(a, b)
        return rng.randint(lo, hi)
    if k == "float":
        lo = t.lo if t.lo is not None else -1e308
        hi = t.hi if t.hi is not None else 1e308
        if not t.finite and rng.random() < 0.15:
            return rng.choice([math.nan, math.inf, -math.inf, -0.0])
        picks = [x for x in (0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 1e-300, 1e300, 5e-324) if lo <= x <= hi]
        if rng.random() < 0.4 and picks:
            return rng.choice(picks)
        a, b = max(lo, -1000.0), min(hi, 1000.0)
        if a <= b:
            return rng.uniform(a, b)
        return rng.uniform(lo, hi)
    if k in ("str", "bytes"):
        n = _gen_len(t, rng, max_size, 32)
        if k == "bytes":
            return bytes(rng.randrange(256) for _ in range(n))
        if t.chars is not None:
            alphabet = t.chars
        elif t.ascii:
            alphabet = "".join(c for c in _SAMPLE_CHARS if ord(c) < 128)
        else:
            alphabet = _SAMPLE_CHARS
        return "".join(rng.choice(alphabet) for _ in range(n))
    if k == "list":
        out = [generate(t.items[0], rng, max_size, depth + 1) for _ in range(_gen_len(t, rng, max_size, 8))]
        if t.sorted:
            out.sort()
        return out
    if k == "set":
        out = set()
        for _ in range(_gen_len(t, rng, max_size, 8)):
            e = generate(t.items[0], rng, max_size, depth + 1)
            if not any(strict_equal(e, x) or e == x for x in out):
                out.add(e)
        return out
    if k == "dict":
        out = {}
        for _ in range(_gen_len(t, rng, max_size, 8)):
            key = generate(t.items[0], rng, max_size, depth + 1)
            if key not in out:
                out[key] = generate(t.items[1], rng, max_size, depth + 1)
        return out
    if k == "tuple":
        if t.variadic:
            return tuple(generate(t.items[0], rng, max_size, depth + 1)
                         for _ in range(_gen_len(t, rng, max_size, 8)))
        return tuple(generate(x, rng, max_size, depth + 1) for x in t.items)
    raise ValueError(k)


def _gen_len(t, rng, max_size, default_max):
    lo = t.min if t.min is not None else 0
    hi = t.max if t.max is not None else (max_size if max_size is not None else default_max)
    hi = max(hi, lo)
    r = rng.random()
    if r < 0.15:
        return lo
    if r < 0.25:
        return hi
    return rng.randint(lo, min(hi, lo + 6) if r < 0.8 else hi)


# ---------------------------------------------------------------------------------------------
# One-step shrinking (the neighbourhood a minimal counterexample must resist)

def shrink_steps(v, depth=0):
    """Values one shrink step simpler than v: an int moved to 0, halfway or one step toward 0;
    a float replaced by 0.0 or its integral part; a str/bytes with one item dropped or one
    character replaced by 'a' or '0'; a container with one element dropped or shrunk; a tuple
    with one member shrunk; a dict with one entry dropped or one value shrunk."""
    t = type(v)
    out = []
    if t is bool:
        if v:
            out.append(False)
    elif t is int:
        for w in (0, v // 2 if v > 0 else -((-v) // 2), v - 1 if v > 0 else v + 1, -v if v < 0 else v):
            if abs(w) < abs(v) or (w == -v and v < 0):
                out.append(w)
    elif t is float:
        if v != 0.0 or math.copysign(1.0, v) < 0:
            out.append(0.0)
        if math.isfinite(v) and v != int(v):
            out.append(float(int(v)))
    elif t in (str, bytes):
        for i in range(len(v)):
            out.append(v[:i] + v[i + 1:])
        fill = ("a", "0") if t is str else (b"a", b"0")
        for i in range(len(v)):
            for f in fill:
                if v[i:i + 1] != f and (t is bytes or ord(v[i]) > ord(f)):
                    out.append(v[:i] + f + v[i + 1:])
    elif t in (list, tuple):
        for i in range(len(v)):
            if t is list:
                out.append(v[:i] + v[i + 1:])
            if depth < 8:
                for w in shrink_steps(v[i], depth + 1):
                    out.append(t(list(v[:i]) + [w] + list(v[i + 1:])))
    elif t is dict:
        keys = list(v)
        for k in keys:
            out.append({kk: vv for kk, vv in v.items() if kk != k})
            if depth < 8:
                for w in shrink_steps(v[k], depth + 1):
                    d = dict(v)
                    d[k] = w
                    out.append(d)
    elif t is set:
        for e in v:
            out.append(v - {e})
    seen, uniq = set(), []
    for w in out:
        key = repr((type(w), w))
        if key not in seen:
            seen.add(key)
            uniq.append(w)
    return uniq


# ---------------------------------------------------------------------------------------------
# JSON Schema 2020-12, the keyword subset task.schema.json uses

SCHEMA_KEYWORDS = {
    "$schema", "$id", "title", "description", "$defs", "$ref", "type", "properties",
    "patternProperties", "additionalProperties", "required", "dependentRequired", "items",
    "prefixItems", "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum",
    "maximum", "exclusiveMinimum", "enum", "const", "oneOf", "anyOf", "not", "propertyNames",
    "minProperties", "maxProperties",
}


class SchemaChecker:
    def __init__(self, schema):
        self.root = schema
        self._check_keywords(schema, "#")

    def _check_keywords(self, s, where):
        if isinstance(s, dict):
            for k, v in s.items():
                if k not in SCHEMA_KEYWORDS and where.split("/")[-1] not in ("properties", "$defs", "patternProperties", "dependentRequired"):
                    raise ValueError(f"schema keyword {k!r} at {where} is not implemented")
                self._check_keywords(v, f"{where}/{k}")
        elif isinstance(s, list):
            for i, v in enumerate(s):
                self._check_keywords(v, f"{where}/{i}")

    def errors(self, inst, schema=None, path="$"):
        """All violations as (path, message); empty when valid."""
        if schema is None:
            schema = self.root
        return list(self._errs(inst, schema, path))

    def _resolve(self, ref):
        assert ref.startswith("#/")
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    @staticmethod
    def _type_ok(inst, ty):
        if ty == "null":
            return inst is None
        if ty == "boolean":
            return isinstance(inst, bool)
        if ty == "integer":
            return (isinstance(inst, int) and not isinstance(inst, bool)) or \
                (isinstance(inst, float) and math.isfinite(inst) and inst.is_integer())
        if ty == "number":
            return isinstance(inst, (int, float)) and not isinstance(inst, bool)
        if ty == "string":
            return isinstance(inst, str)
        if ty == "array":
            return isinstance(inst, list)
        if ty == "object":
            return isinstance(inst, dict)
        raise ValueError(ty)

    def _errs(self, inst, s, path):
        if s is True:
            return
        if s is False:
            yield path, "not allowed"
            return
        if "$ref" in s:
            yield from self._errs(inst, self._resolve(s["$ref"]), path)
        if "type" in s:
            tys = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(self._type_ok(inst, t) for t in tys):
                yield path, f"must be of type {'/'.join(tys)}"
                return
        if "const" in s and inst != s["const"]:
            yield path, f"must be {s['const']!r}"
        if "enum" in s and inst not in s["enum"]:
            yield path, f"must be one of {s['enum']}"
        if isinstance(inst, str):
            if "minLength" in s and len(inst) < s["minLength"]:
                yield path, f"shorter than {s['minLength']}"
            if "maxLength" in s and len(inst) > s["maxLength"]:
                yield path, f"longer than {s['maxLength']}"
            if "pattern" in s and not re.search(s["pattern"], inst):
                yield path, f"does not match {s['pattern']}"
        if isinstance(inst, (int, float)) and not isinstance(inst, bool):
            if "minimum" in s and inst < s["minimum"]:
                yield path, f"below {s['minimum']}"
            if "maximum" in s and inst > s["maximum"]:
                yield path, f"above {s['maximum']}"
            if "exclusiveMinimum" in s and inst <= s["exclusiveMinimum"]:
                yield path, f"must be > {s['exclusiveMinimum']}"
        if isinstance(inst, list):
            if "minItems" in s and len(inst) < s["minItems"]:
                yield path, f"fewer than {s['minItems']} items"
            if "maxItems" in s and len(inst) > s["maxItems"]:
                yield path, f"more than {s['maxItems']} items"
            pre = s.get("prefixItems", [])
            for i, x in enumerate(inst):
                if i < len(pre):
                    yield from self._errs(x, pre[i], f"{path}[{i}]")
                elif "items" in s:
                    yield from self._errs(x, s["items"], f"{path}[{i}]")
        if isinstance(inst, dict):
            if "minProperties" in s and len(inst) < s["minProperties"]:
                yield path, f"fewer than {s['minProperties']} members"
            if "maxProperties" in s and len(inst) > s["maxProperties"]:
                yield path, f"more than {s['maxProperties']} members"
            for r in s.get("required", []):
                if r not in inst:
                    yield f"{path}.{r}", "required"
            for k, deps in s.get("dependentRequired", {}).items():
                if k in inst:
                    for d in deps:
                        if d not in inst:
                            yield f"{path}.{d}", f"required when {k} is present"
            props = s.get("properties", {})
            pats = s.get("patternProperties", {})
            for k, v in inst.items():
                if "propertyNames" in s:
                    yield from self._errs(k, s["propertyNames"], f"{path}.{k}(name)")
                matched = False
                if k in props:
                    matched = True
                    yield from self._errs(v, props[k], f"{path}.{k}")
                for p, ps in pats.items():
                    if re.search(p, k):
                        matched = True
                        yield from self._errs(v, ps, f"{path}.{k}")
                if not matched and "additionalProperties" in s:
                    ap = s["additionalProperties"]
                    if ap is False:
                        yield f"{path}.{k}", "unknown field"
                    else:
                        yield from self._errs(v, ap, f"{path}.{k}")
        if "allOf" in s:
            for sub in s["allOf"]:
                yield from self._errs(inst, sub, path)
        if "anyOf" in s:
            if not any(not self.errors(inst, sub, path) for sub in s["anyOf"]):
                yield path, "matches none of the allowed forms"
        if "oneOf" in s:
            results = [self.errors(inst, sub, path) for sub in s["oneOf"]]
            ok = sum(1 for r in results if not r)
            if ok != 1:
                if ok == 0:
                    best = min(results, key=len)
                    yield from best if best else [(path, "matches no form")]
                else:
                    yield path, "matches more than one form"
        if "not" in s and not self.errors(inst, s["not"], path):
            yield path, "matches a forbidden form"
