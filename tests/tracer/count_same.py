#!/usr/bin/env python3
"""The tracer module's C event counter (sandbox/tracer/sgtrace.c, count()) and the runner's Python
counter (sandbox/runner.py, _counted) give the same count and the same end for every call: the
efficiency check's budgets and the reference's settling (docs/tasks.md) mean the same whichever
one a worker has. The Python counter is taken from runner.py itself (its source, not a copy).

usage: count_same.py _sgtrace.so runner.py   (exit 77: the tracer is not built in)"""
import ast
import importlib.util
import os
import sys


def load_counter(so):
    spec = importlib.util.spec_from_file_location("_sgtrace", so)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.counter()


def load_python_counter(runner):
    tree = ast.parse(open(runner, encoding="utf-8").read())
    keep = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
            and n.name in ("_counted", "_CostExceeded")]
    if len(keep) != 2:
        sys.exit("count_same: _counted or _CostExceeded not found in " + runner)
    ns = {"sys": sys, "COUNT": None}
    exec(compile(ast.Module(body=keep, type_ignores=[]), runner, "exec"), ns)
    return ns["_counted"], ns["_CostExceeded"]


PROGRAM = '''
def loop(n):
    for i in range(n):
        pass
def spin(n):
    i = 0
    while i < n:
        i += 1
    return i
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def gen(n):
    for i in range(n):
        yield i * i
def caught(n):
    out = []
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError(i)
            out.append(i)
        except ValueError:
            out.append(-i)
        finally:
            out.append(0)
    return out
def swallow(n):
    try:
        return loop(n)
    except BaseException:
        k = 0
        for i in range(50):
            k += i
        return ("swallowed", k)
class P:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
    @property
    def twice(self):
        return 2 * self.v
def objects(n):
    xs = sorted([P((i * 7) % n) for i in range(n)])
    return sum(p.twice for p in xs)
def comp(n):
    return {k: [j for j in range(k)] for k in range(n)}
async def co(n):
    return n + 1
def run_co(n):
    c = co(n)
    try:
        c.send(None)
    except StopIteration as e:
        return e.value
def raises(n):
    return [1][n]
'''

CALLS = ["loop(1000)", "spin(3000)", "fib(16)", "sum(gen(200))", "list(gen(0))", "caught(40)",
         "swallow(10**6)", "objects(60)", "len(comp(30))", "run_co(4)", "raises(5)",
         "x = fib(10)\ny = [x for _ in range(3)]", "loop(0)", "1 + 1"]
BUDGETS = [0, 1, 2, 7, 100, 1000, 5000, 10**9]


def one(counter, exc, code, ns, is_expr, budget):
    cost = [0]
    try:
        v = counter(code, ns, is_expr, budget, cost, exc) if exc else counter(code, ns, is_expr, budget, cost)
        end = ("value", repr(v))
    except BaseException as e:  # the budget's exception, or the call's own
        end = ("raised", type(e).__name__)
    return cost[0], end


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    so, runner = sys.argv[1], sys.argv[2]
    if not os.path.exists(so) or os.path.getsize(so) == 0:
        print("SKIP: the tracer module is not built in (no CPython 3.11 headers at build time)")
        sys.exit(77)
    c_count = load_counter(so)
    if c_count.__self__ is not None or c_count.__module__ is not None:
        sys.exit("count_same: the counter keeps a reference to its module (%r, %r)"
                 % (c_count.__self__, c_count.__module__))
    py_count, cost_exc = load_python_counter(runner)
    ns = {"__builtins__": __builtins__}
    exec(compile(PROGRAM, "<snippet>", "exec"), ns)
    checked = bad = 0
    for text in CALLS:
        try:
            code, is_expr = compile(text, "<call>", "eval"), True
        except SyntaxError:
            code, is_expr = compile(text, "<call>", "exec"), False
        for budget in BUDGETS:
            if budget == 0:
                continue
            a = one(py_count, None, code, ns, is_expr, budget)
            b = one(c_count, cost_exc, code, ns, is_expr, budget)
            checked += 1
            if a != b:
                bad += 1
                print("DIFFERENT %r budget %d: python %r, C %r" % (text, budget, a, b))
            # the budget's exception is the runner's own class, and a count past the budget is
            # budget + 1
            if a[1] == ("raised", "_CostExceeded") and a[0] != budget + 1:
                bad += 1
                print("COUNT %r budget %d: stopped at %d" % (text, budget, a[0]))
    # the CPU bound (limits.cost_cpu_ms): a call past 1 ms of CPU (checked every 1024 events)
    # stops as past its budget in both; one of fewer than 1024 events is never stopped by it
    for text, stops in (("loop(10**6)", True), ("loop(100)", False), ("spin(10**6)", True)):
        code = compile(text, "<call>", "eval")
        budget = 10**9
        a = one(lambda c, n, e, b, cost: py_count(c, n, e, b, cost, (1, 0)), None, code, ns, True, budget)
        b = one(lambda c, n, e, b, cost, x: c_count(c, n, e, b, cost, x, 1000000, 0), cost_exc, code, ns, True,
                budget)
        want = (budget + 1, ("raised", "_CostExceeded")) if stops else None
        for name, got in (("python", a), ("C", b)):
            checked += 1
            if (want and got != want) or (not want and got[1][0] != "value"):
                bad += 1
                print("CPU BOUND %s %r: %r" % (name, text, got))
    # nothing is left installed after a counted call, also after one stopped at its budget
    if sys.gettrace() is not None:
        bad += 1
        print("a trace function is left installed")
    # the tracer installed before a counted call is put back after it
    seen = []

    def outer(frame, event, arg):
        seen.append(event)
        return None
    sys.settrace(outer)
    one(c_count, cost_exc, compile("fib(5)", "<call>", "eval"), ns, True, 10)
    back = sys.gettrace()
    sys.settrace(None)
    if back is not outer:
        bad += 1
        print("the previous trace function was not put back")
    # a count never leaks a reference to its arguments or raises something else on bad input
    for args in [(), (1, 2, 3, 4, 5, 6), (compile("1", "<call>", "eval"), {}, True, 5, [], cost_exc),
                 (compile("1", "<call>", "eval"), {}, True, 5, [0], int)]:
        try:
            c_count(*args)
            bad += 1
            print("count%r did not refuse its arguments" % (args,))
        except TypeError:
            pass
    print("%d calls compared, %d differences" % (checked, bad))
    sys.exit(1 if bad else 0)


main()
