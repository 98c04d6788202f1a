"""Planted bugs for later tests of the property stage (written to testdata/buggy_candidates.jsonl).

Each candidate passes the first case of its task but is wrong on some inputs; min_counterexample
is the smallest input (by the shrinking order of docs/tasks.md) that shows it."""

import textwrap


def B(task, bug, completion, *args, **kwargs):
    mc = {"args": list(args)}
    if kwargs:
        mc["kwargs"] = kwargs
    return {"task_id": f"sg/{task}", "completion": textwrap.dedent(completion).lstrip("\n"),
            "bug": bug, "min_counterexample": mc}


BUGGY = [
    B("binary_search_leftmost", "off by one on an empty list: hi starts at len-1 and nums[lo] is read unguarded (IndexError)", '''
        def binary_search(nums, target):
            lo, hi = 0, len(nums) - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if nums[mid] < target:
                    lo = mid + 1
                else:
                    hi = mid
            return lo if nums[lo] == target else -1
        ''', [], 0),
    B("merge_sorted_stable", "wrong when two keys tie: compares whole records, so labels decide ties instead of input order", '''
        def merge_sorted(a, b):
            out = []
            i = j = 0
            while i < len(a) and j < len(b):
                if a[i] <= b[j]:
                    out.append(a[i])
                    i += 1
                else:
                    out.append(b[j])
                    j += 1
            return out + a[i:] + b[j:]
        ''', [(0, "0")], [(0, "")]),
    B("stable_sort_by_score", "wrong when two scores tie: breaks ties by name instead of keeping input order", '''
        def rank_players(records):
            return sorted(records, key=lambda r: (-r[1], r[0]))
        ''', [("0", 0), ("", 0)]),
    B("top_k_frequent_words", "wrong when two counts tie: tie-break ignores case (str.lower) instead of code point order", '''
        from collections import Counter

        def top_k_frequent(words, k):
            if k <= 0:
                return []
            counts = Counter(words)
            return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower()))[:k]]
        ''', ["B", "a"], 1),
    B("sorted_squares", "wrong for negative numbers: when every number is negative the split point defaults to 0", '''
        def sorted_squares(nums):
            k = next((i for i, x in enumerate(nums) if x >= 0), 0)
            left = [x * x for x in reversed(nums[:k])]
            right = [x * x for x in nums[k:]]
            out = []
            i = j = 0
            while i < len(left) and j < len(right):
                if left[i] <= right[j]:
                    out.append(left[i])
                    i += 1
                else:
                    out.append(right[j])
                    j += 1
            return out + left[i:] + right[j:]
        ''', [-2, -1]),
    B("truncate_utf8", "breaks on non-ASCII: counts code points instead of UTF-8 bytes", '''
        def truncate_utf8(text, max_bytes):
            if max_bytes < 0:
                raise ValueError("max_bytes must be >= 0")
            return text[:max_bytes]
        ''', "é", 1),
    B("deep_merge", "mutates its input: a shallow copy shares nested dicts with base, which the merge then updates", '''
        def _merge_into(dst, src):
            for k, v in src.items():
                if isinstance(dst.get(k), dict) and isinstance(v, dict):
                    _merge_into(dst[k], v)
                else:
                    dst[k] = v

        def deep_merge(base, override):
            out = dict(base)
            _merge_into(out, override)
            return out
        ''', {"a": {}}, {"a": {"x": 0}}),
    B("is_valid_ipv4", "breaks on non-ASCII: str.isdigit() accepts Arabic-Indic and other Unicode digits", '''
        def is_valid_ipv4(text):
            parts = text.split(".")
            if len(parts) != 4:
                return False
            for part in parts:
                if not part.isdigit() or len(part) > 3:
                    return False
                if len(part) > 1 and part[0] == "0":
                    return False
                if int(part) > 255:
                    return False
            return True
        ''', "0.0.0.\u0660"),
    B("eval_rpn", "wrong for negative numbers: Python floor division instead of truncation toward zero", '''
        def eval_rpn(tokens):
            stack = []
            for tok in tokens:
                if tok in ("+", "-", "*", "/"):
                    if len(stack) < 2:
                        raise ValueError("too few operands")
                    b, a = stack.pop(), stack.pop()
                    if tok == "+":
                        stack.append(a + b)
                    elif tok == "-":
                        stack.append(a - b)
                    elif tok == "*":
                        stack.append(a * b)
                    else:
                        stack.append(a // b)
                else:
                    try:
                        stack.append(int(tok))
                    except ValueError:
                        raise ValueError("bad token") from None
            if len(stack) != 1:
                raise ValueError("bad expression")
            return stack[0]
        ''', ["-1", "2", "/"]),
    B("kth_smallest", "off by one on an empty list: accepts k == 0, so [] raises IndexError (and k == 0 returns the maximum)", '''
        def kth_smallest(nums, k):
            if not 0 <= k <= len(nums):
                raise ValueError("k out of range")
            return sorted(nums)[k - 1]
        ''', [], 0),
    B("top_k_largest", "wrong for negative k: slices with [:k], which drops elements instead of returning []", '''
        def top_k_largest(nums, k):
            return sorted(nums, reverse=True)[:k]
        ''', [0, 0], -1),
    B("parse_bool", "breaks on non-ASCII: str.strip() and casefold() also strip NBSP and fold look-alikes", '''
        def parse_bool(text):
            word = text.strip().casefold()
            if word in ("true", "yes", "on", "1"):
                return True
            if word in ("false", "no", "off", "0"):
                return False
            raise ValueError("not a boolean")
        ''', "\u00a00"),
    B("validate_records", "a bool is accepted as a float (isinstance(True, int) is true)", '''
        def validate_records(records, schema):
            checks = {"int": lambda v: type(v) is int, "float": lambda v: isinstance(v, (int, float)),
                      "str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool)}
            parsed = {}
            for field, kind in schema.items():
                base = kind[:-1] if kind.endswith("?") else kind
                if base not in checks:
                    raise ValueError(kind)
                parsed[field] = (checks[base], kind.endswith("?"))
            problems = []
            for i, rec in enumerate(records):
                for field, (ok, optional) in parsed.items():
                    if field not in rec:
                        if not optional:
                            problems.append((i, field, "missing"))
                    elif rec[field] is None and optional:
                        continue
                    elif not ok(rec[field]):
                        problems.append((i, field, "type"))
                for field in rec:
                    if field not in parsed:
                        problems.append((i, field, "unknown"))
            return problems
        ''', [{"a": False}], {"a": "float"}),
]
