"""Authoring helpers for the built-in suite: tasks are written here as Python values and
golden_tasks/tools/gen_builtin.py writes them to golden_tasks/builtin/<theme>.jsonl."""

import textwrap

_NO = object()


def C(args, expected=_NO, *, raises=None, kwargs=None, atol=None, rtol=None, name=None):
    """One structured case: C([arg, ...], expected) or C([arg, ...], raises="ValueError")."""
    if (expected is _NO) == (raises is None):
        raise ValueError("a case has exactly one of expected / raises")
    case = {"args": list(args)}
    if kwargs:
        case["kwargs"] = dict(kwargs)
    if raises is None:
        case["expected"] = expected
    else:
        case["raises"] = raises
    if atol is not None:
        case["atol"] = atol
    if rtol is not None:
        case["rtol"] = rtol
    if name is not None:
        case["name"] = name
    return case


def task(name, *, entry_point, prompt, solution, signature, tests, tags, properties=None,
         timeout=None, fuzz=None, contract=None):
    prompt = textwrap.dedent(prompt).lstrip("\n")
    if "\\" in prompt and '    r"""' not in prompt:
        # backslashes in the spec are meant literally: a raw docstring keeps its doctests valid
        prompt = prompt.replace('    """', '    r"""', 1)
    t = {
        "task_id": f"sg/{name}",
        "prompt": prompt,
        "entry_point": entry_point,
        "canonical_solution": textwrap.dedent(solution).lstrip("\n"),
        "complete_solution": True,
        "signature": signature,
        "tests": tests,
    }
    if contract is not None:
        t["contract"] = textwrap.dedent(contract).strip("\n") + "\n"
    if properties:
        t["properties"] = properties
    if timeout is not None:
        t["timeout"] = timeout
    if fuzz is not None:
        t["fuzz"] = fuzz
    t["tags"] = list(tags)
    return t


def sig(*args, returns):
    return {"args": list(args), "returns": returns}


def P(name, **params):
    d = {"name": name}
    d.update(params)
    return d
