"""Built-in tasks: stateful and recursive functions."""

from _dsl import C, P, sig, task

TAGS = ["stateful_recursive"]

OPS_LRU = "list[tuple[str(chars='getpu', min=3, max=3), int(0..4)] | tuple[str(chars='getpu', min=3, max=3), int(0..4), int(0..9)]](max=10)"

TREE1 = "None | tuple[int(-3..3), None, None]"
TREE2 = f"None | tuple[int(-3..3), {TREE1}, {TREE1}]"
TREE3 = f"None | tuple[int(-3..3), {TREE2}, {TREE2}]"

TASKS = [
    task(
        "lru_cache_sim",
        entry_point="run_lru",
        prompt='''
        def run_lru(capacity: int, ops: list[tuple]) -> list[int | None]:
            """Implement an LRU cache class with get(key) and put(key, value), and drive it
            with `ops`, returning the result of every ("get", key) in order.

            ("get", key): the value, or None if absent; a hit makes the key most recently
            used. ("put", key, value): insert or update (an update also makes the key most
            recently used); if that leaves more than `capacity` keys, evict the least recently
            used one. capacity 0 stores nothing. Raise ValueError for a negative capacity or
            an op of another shape or name.

            >>> run_lru(2, [("put", 1, 1), ("put", 2, 2), ("get", 1), ("put", 3, 3), ("get", 2), ("get", 1)])
            [1, None, 1]
            """
        ''',
        solution='''
        from collections import OrderedDict


        class LRUCache:
            def __init__(self, capacity: int):
                if capacity < 0:
                    raise ValueError("negative capacity")
                self.capacity = capacity
                self.data: OrderedDict = OrderedDict()

            def get(self, key):
                if key not in self.data:
                    return None
                self.data.move_to_end(key)
                return self.data[key]

            def put(self, key, value):
                self.data[key] = value
                self.data.move_to_end(key)
                while len(self.data) > self.capacity:
                    self.data.popitem(last=False)


        def run_lru(capacity: int, ops: list[tuple]) -> list[int | None]:
            cache = LRUCache(capacity)
            out = []
            for op in ops:
                if len(op) == 2 and op[0] == "get":
                    out.append(cache.get(op[1]))
                elif len(op) == 3 and op[0] == "put":
                    cache.put(op[1], op[2])
                else:
                    raise ValueError("bad op " + repr(op))
            return out
        ''',
        signature=sig("int(-1..3)", OPS_LRU, returns="list[int | None]"),
        tests=[
            C([2, [("put", 1, 1), ("put", 2, 2), ("get", 1), ("put", 3, 3), ("get", 2), ("get", 1)]], [1, None, 1]),
            C([0, [("put", 1, 1), ("get", 1)]], [None], name="capacity 0"),
            C([1, []], []),
            C([2, [("put", 1, 1), ("put", 2, 2), ("put", 1, 10), ("put", 3, 3), ("get", 1), ("get", 2)]], [10, None],
              name="update refreshes recency"),
            C([2, [("put", 1, 1), ("put", 2, 2), ("get", 1), ("put", 3, 3), ("get", 1), ("get", 2), ("get", 3)]],
              [1, 1, None, 3], name="get refreshes recency"),
            C([1, [("get", 5)]], [None]),
            C([-1, []], raises="ValueError"),
            C([1, [("pop", 1)]], raises="ValueError"),
            C([1, [("put", 1)]], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "flatten_nested",
        entry_point="flatten",
        prompt='''
        def flatten(items: list) -> list:
            """Flatten arbitrarily nested lists into one list of the non-list elements, in
            order (depth-first, left to right). Only lists are flattened: tuples, strings and
            other values are elements. Must not fail on nesting 10,000 levels deep. The input
            is not modified.

            >>> flatten([1, [2, [3, []]], (4, [5]), "ab"])
            [1, 2, 3, (4, [5]), 'ab']
            """
        ''',
        solution='''
        def flatten(items: list) -> list:
            out = []
            stack = [iter(items)]
            while stack:
                for x in stack[-1]:
                    if isinstance(x, list):
                        stack.append(iter(x))
                        break
                    out.append(x)
                else:
                    stack.pop()
            return out
        ''',
        signature=sig("list[int(-9..9) | str(max=1) | list[int(-9..9) | str(max=1) | list[int(-9..9) | list[int]]] | tuple[int, list[int]]](max=6)",
                      returns="list[int | str | tuple[int, list[int]]]"),
        tests=[
            C([[1, [2, [3, []]], (4, [5]), "ab"]], [1, 2, 3, (4, [5]), "ab"]),
            C([[]], []),
            C([[[], [[]]]], [], name="only empty lists"),
            C([[[[[7]]]]], [7]),
            C([[1, [2], 3, [4, [5, 6]], 7]], [1, 2, 3, 4, 5, 6, 7]),
            C([["", ["x", 0]]], ["", "x", 0]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "count_distinct_permutations",
        entry_point="count_permutations",
        prompt='''
        def count_permutations(text: str) -> int:
            """Return the number of distinct strings that are permutations of `text`'s code
            points: n! / (c1! * c2! * ...) for the multiplicities c of its distinct code
            points. The empty string has 1 permutation. Exact for long strings.

            >>> count_permutations("aab")
            3
            """
        ''',
        solution='''
        import math
        from collections import Counter


        def count_permutations(text: str) -> int:
            result = math.factorial(len(text))
            for count in Counter(text).values():
                result //= math.factorial(count)
            return result
        ''',
        signature=sig("str(chars='aabé😀', max=30)", returns="int(1..)"),
        tests=[
            C(["aab"], 3),
            C([""], 1),
            C(["abc"], 6),
            C(["aaaa"], 1),
            C(["e\u0301e"], 3, name="combining mark is its own code point"),
            C(["😀😀a"], 3),
            C(["abcdefghijklmnopqrstuvwxyz"], 403291461126605635584000000, name="26!"),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "tree_depth",
        entry_point="tree_depth",
        prompt='''
        def tree_depth(tree) -> int:
            """A binary tree is None (empty) or a tuple (value, left, right) whose children
            are trees. Return its depth: 0 for None, else 1 + the larger child depth. Must
            not fail on a degenerate tree 10,000 levels deep.

            >>> tree_depth((1, (2, None, None), (3, (4, None, None), None)))
            3
            """
        ''',
        solution='''
        def tree_depth(tree) -> int:
            best = 0
            stack = [(tree, 1)]
            while stack:
                node, depth = stack.pop()
                if node is None:
                    continue
                best = max(best, depth)
                _, left, right = node
                stack.append((left, depth + 1))
                stack.append((right, depth + 1))
            return best
        ''',
        signature=sig(TREE3, returns="int(0..)"),
        tests=[
            C([(1, (2, None, None), (3, (4, None, None), None))], 3),
            C([None], 0),
            C([(1, None, None)], 1),
            C([(1, None, (2, None, (3, None, None)))], 3, name="right spine"),
            C([(0, (0, (0, None, None), None), None)], 3, name="left spine"),
            C([(-1, (-2, None, None), (-3, None, None))], 2),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "token_bucket",
        entry_point="rate_limit",
        prompt='''
        def rate_limit(capacity: int, refill_per_tick: int, requests: list[int]) -> list[bool]:
            """Simulate a token bucket. It starts full with `capacity` tokens; at every tick
            it gains `refill_per_tick` tokens, never holding more than `capacity`. `requests`
            are the ticks (non-decreasing integers >= 0) at which one request arrives; each
            request is allowed, taking one token, if a token is available after refilling up
            to its tick, else denied. Return allowed/denied per request. Several requests may
            share a tick. Raise ValueError for a negative capacity or refill, or ticks that
            are negative or decrease.

            >>> rate_limit(2, 1, [0, 0, 0, 1, 3, 3, 3])
            [True, True, False, True, True, True, False]
            """
        ''',
        solution='''
        def rate_limit(capacity: int, refill_per_tick: int, requests: list[int]) -> list[bool]:
            if capacity < 0 or refill_per_tick < 0:
                raise ValueError("negative capacity or refill")
            tokens = capacity
            last = 0
            out = []
            for tick in requests:
                if tick < last:
                    raise ValueError("ticks must be non-negative and non-decreasing")
                tokens = min(capacity, tokens + (tick - last) * refill_per_tick)
                last = tick
                if tokens > 0:
                    tokens -= 1
                    out.append(True)
                else:
                    out.append(False)
            return out
        ''',
        signature=sig("int(-1..3)", "int(-1..2)", "list[int(-1..6)](sorted, max=8)", returns="list[bool]"),
        tests=[
            C([2, 1, [0, 0, 0, 1, 3, 3, 3]], [True, True, False, True, True, True, False]),
            C([0, 5, [0, 1]], [False, False], name="capacity 0"),
            C([1, 0, [0, 5, 10]], [True, False, False], name="no refill"),
            C([3, 1, []], []),
            C([1, 1, [1000000000]], [True], name="large tick"),
            C([2, 1, [2, 1]], raises="ValueError"),
            C([2, 1, [-1]], raises="ValueError"),
            C([-1, 1, []], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "bank_ledger",
        entry_point="apply_transactions",
        prompt='''
        def apply_transactions(balances: dict[str, int], txns: list[tuple[str, str, int]]) -> tuple[dict[str, int], list[int]]:
            """Apply transfers (source, destination, amount in cents) in order, on a copy of
            `balances` (which is not modified). A transfer is rejected, and changes nothing,
            if an account does not exist, source == destination, amount <= 0, or the source
            balance is below the amount. Return (final balances, indices of the rejected
            transfers).

            >>> apply_transactions({"a": 100, "b": 0}, [("a", "b", 70), ("a", "b", 70), ("b", "c", 1)])
            ({'a': 30, 'b': 70}, [1, 2])
            """
        ''',
        solution='''
        def apply_transactions(balances: dict[str, int], txns: list[tuple[str, str, int]]) -> tuple[dict[str, int], list[int]]:
            accounts = dict(balances)
            rejected = []
            for i, (src, dst, amount) in enumerate(txns):
                if (src not in accounts or dst not in accounts or src == dst or amount <= 0
                        or accounts[src] < amount):
                    rejected.append(i)
                    continue
                accounts[src] -= amount
                accounts[dst] += amount
            return (accounts, rejected)
        ''',
        signature=sig("dict[str(chars='abc', min=1, max=1), int(0..100)](max=3)",
                      "list[tuple[str(chars='abcd', min=1, max=1), str(chars='abcd', min=1, max=1), int(-5..120)]](max=6)",
                      returns="tuple[dict[str, int], list[int(0..)]]"),
        tests=[
            C([{"a": 100, "b": 0}, [("a", "b", 70), ("a", "b", 70), ("b", "c", 1)]], ({"a": 30, "b": 70}, [1, 2])),
            C([{}, []], ({}, [])),
            C([{"a": 5}, [("a", "a", 1)]], ({"a": 5}, [0]), name="self transfer"),
            C([{"a": 5, "b": 0}, [("a", "b", 0), ("a", "b", -1)]], ({"a": 5, "b": 0}, [0, 1]), name="non-positive"),
            C([{"a": 5, "b": 0}, [("a", "b", 5)]], ({"a": 0, "b": 5}, []), name="exact balance"),
            C([{"a": 5, "b": 0}, [("b", "a", 1), ("a", "b", 3), ("b", "a", 1)]], ({"a": 3, "b": 2}, [0])),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "deep_merge",
        entry_point="deep_merge",
        prompt='''
        def deep_merge(base: dict, override: dict) -> dict:
            """Return a new dict: `base` updated with `override`, recursively. For a key in
            both, if both values are dicts they are merged the same way, otherwise the
            override value wins (lists are replaced, not concatenated). Keys keep base's order,
            new keys follow in override's order. Neither input, nor anything nested in them,
            is modified, and the result shares no dict with the inputs.

            >>> deep_merge({"a": {"x": 1, "y": 2}, "b": 1}, {"a": {"y": 3, "z": 4}, "c": 5})
            {'a': {'x': 1, 'y': 3, 'z': 4}, 'b': 1, 'c': 5}
            """
        ''',
        solution='''
        import copy


        def deep_merge(base: dict, override: dict) -> dict:
            out = copy.deepcopy(base)
            for key, value in override.items():
                if isinstance(out.get(key), dict) and isinstance(value, dict):
                    out[key] = deep_merge(out[key], value)
                else:
                    out[key] = copy.deepcopy(value)
            return out
        ''',
        signature=sig("dict[str(chars='abc', min=1, max=1), int(0..3) | list[int(0..3)](max=2) | dict[str(chars='xy', min=1, max=1), int(0..3)](max=2)](max=3)",
                      "dict[str(chars='abc', min=1, max=1), int(0..3) | list[int(0..3)](max=2) | dict[str(chars='xy', min=1, max=1), int(0..3)](max=2)](max=3)",
                      returns="dict[str, int | list[int] | dict[str, int]]"),
        tests=[
            C([{"a": {"x": 1, "y": 2}, "b": 1}, {"a": {"y": 3, "z": 4}, "c": 5}],
              {"a": {"x": 1, "y": 3, "z": 4}, "b": 1, "c": 5}),
            C([{}, {}], {}),
            C([{"a": 1}, {}], {"a": 1}),
            C([{"a": [1, 2]}, {"a": [3]}], {"a": [3]}, name="lists replaced"),
            C([{"a": {"x": 1}}, {"a": 2}], {"a": 2}, name="scalar replaces dict"),
            C([{"a": 2}, {"a": {"x": 1}}], {"a": {"x": 1}}, name="dict replaces scalar"),
            C([{"é": {"x": 1}}, {"é": {"y": 2}}], {"é": {"x": 1, "y": 2}}, name="non-ASCII keys"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "hanoi_moves",
        entry_point="hanoi",
        prompt='''
        def hanoi(n: int, source: str = "A", target: str = "C", spare: str = "B") -> list[tuple[str, str]]:
            """Return the optimal move list (from peg, to peg) that moves n disks from
            `source` to `target` in the Towers of Hanoi (2**n - 1 moves; the standard
            recursive order: move n-1 disks to the spare peg, the largest to the target, then
            n-1 disks onto it). n == 0 gives []. Raise ValueError for n < 0.

            >>> hanoi(2)
            [('A', 'B'), ('A', 'C'), ('B', 'C')]
            """
        ''',
        solution='''
        def hanoi(n: int, source: str = "A", target: str = "C", spare: str = "B") -> list[tuple[str, str]]:
            if n < 0:
                raise ValueError("negative disk count")
            moves: list[tuple[str, str]] = []

            def solve(k, src, dst, via):
                if k == 0:
                    return
                solve(k - 1, src, via, dst)
                moves.append((src, dst))
                solve(k - 1, via, dst, src)

            solve(n, source, target, spare)
            return moves
        ''',
        signature=sig("int(-1..10)", returns="list[tuple[str, str]]"),
        tests=[
            C([2], [("A", "B"), ("A", "C"), ("B", "C")]),
            C([0], []),
            C([1], [("A", "C")]),
            C([3], [("A", "C"), ("A", "B"), ("C", "B"), ("A", "C"), ("B", "A"), ("B", "C"), ("A", "C")]),
            C([1], [("x", "y")], kwargs={"source": "x", "target": "y", "spare": "z"}),
            C([-1], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "edit_distance",
        entry_point="edit_distance",
        prompt='''
        def edit_distance(a: str, b: str) -> int:
            """Levenshtein distance between two strings, counted in code points: the minimum
            number of single-code-point insertions, deletions and substitutions turning a
            into b.

            >>> edit_distance("kitten", "sitting")
            3
            """
        ''',
        solution='''
        def edit_distance(a: str, b: str) -> int:
            prev = list(range(len(b) + 1))
            for i, ca in enumerate(a, 1):
                cur = [i]
                for j, cb in enumerate(b, 1):
                    cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
                prev = cur
            return prev[-1]
        ''',
        signature=sig("str(chars='abé😀', max=8)", "str(chars='abé😀', max=8)", returns="int(0..)"),
        tests=[
            C(["kitten", "sitting"], 3),
            C(["", ""], 0),
            C(["", "abc"], 3),
            C(["abc", ""], 3),
            C(["flaw", "lawn"], 2),
            C(["é", "e\u0301"], 2, name="code points, no normalisation"),
            C(["😀a", "a😀"], 2),
            C(["same", "same"], 0),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "topological_order",
        entry_point="topo_order",
        prompt='''
        def topo_order(nodes: list[str], edges: list[tuple[str, str]]) -> list[str]:
            """Order `nodes` so that for every edge (u, v), u comes before v. Among the nodes
            ready at each step, take the smallest string first, so the answer is unique.
            Duplicate edges are allowed. Raise ValueError if there is a cycle (self-loops
            included) or an edge names a node not in `nodes`. `nodes` has no duplicates.

            >>> topo_order(["c", "b", "a"], [("c", "a")])
            ['b', 'c', 'a']
            """
        ''',
        solution='''
        import heapq


        def topo_order(nodes: list[str], edges: list[tuple[str, str]]) -> list[str]:
            known = set(nodes)
            indegree = {n: 0 for n in nodes}
            succ: dict[str, list[str]] = {n: [] for n in nodes}
            for u, v in edges:
                if u not in known or v not in known:
                    raise ValueError("edge names an unknown node")
                succ[u].append(v)
                indegree[v] += 1
            ready = [n for n in nodes if indegree[n] == 0]
            heapq.heapify(ready)
            order = []
            while ready:
                n = heapq.heappop(ready)
                order.append(n)
                for m in succ[n]:
                    indegree[m] -= 1
                    if indegree[m] == 0:
                        heapq.heappush(ready, m)
            if len(order) != len(nodes):
                raise ValueError("cycle")
            return order
        ''',
        signature=sig("list[str(chars='abcd', min=1, max=1)](max=4)",
                      "list[tuple[str(chars='abcde', min=1, max=1), str(chars='abcde', min=1, max=1)]](max=4)",
                      returns="list[str]"),
        contract="assert len(set(nodes)) == len(nodes)",
        tests=[
            C([["c", "b", "a"], [("c", "a")]], ["b", "c", "a"]),
            C([[], []], []),
            C([["x"], []], ["x"]),
            C([["a", "b"], [("b", "a"), ("b", "a")]], ["b", "a"], name="duplicate edges"),
            C([["a", "b"], [("a", "b"), ("b", "a")]], raises="ValueError", name="cycle"),
            C([["a"], [("a", "a")]], raises="ValueError", name="self-loop"),
            C([["a"], [("a", "z")]], raises="ValueError", name="unknown node"),
            C([["B", "a", "É"], []], ["B", "a", "É"], name="code point order"),
            C([["d", "c", "b", "a"], [("d", "a"), ("c", "a"), ("b", "d")]], ["b", "c", "d", "a"]),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
