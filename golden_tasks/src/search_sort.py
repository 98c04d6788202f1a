"""Built-in tasks: search and sort."""

from _dsl import C, P, sig, task

TAGS = ["search_sort"]

SORTED_NUMS = "assert all(a <= b for a, b in zip(nums, nums[1:])), 'nums must be sorted'"

TASKS = [
    task(
        "binary_search_leftmost",
        entry_point="binary_search",
        prompt='''
        def binary_search(nums: list[int], target: int) -> int:
            """Return the index of the first occurrence of `target` in `nums`, or -1.

            `nums` is sorted in non-decreasing order and may contain duplicates. Use
            O(log n) comparisons.

            >>> binary_search([1, 2, 2, 2, 5], 2)
            1
            """
        ''',
        solution='''
        def binary_search(nums: list[int], target: int) -> int:
            lo, hi = 0, len(nums)
            while lo < hi:
                mid = (lo + hi) // 2
                if nums[mid] < target:
                    lo = mid + 1
                else:
                    hi = mid
            return lo if lo < len(nums) and nums[lo] == target else -1
        ''',
        signature=sig("list[int(-20..20)](sorted, max=12)", "int(-22..22)", returns="int(-1..)"),
        contract=SORTED_NUMS,
        tests=[
            C([[1, 2, 2, 2, 5], 2], 1),
            C([[], 3], -1, name="empty"),
            C([[3], 3], 0),
            C([[3], 4], -1),
            C([[1, 3, 5], 0], -1, name="below all"),
            C([[1, 3, 5], 6], -1, name="above all"),
            C([[7, 7, 7, 7], 7], 0, name="all equal"),
            C([[-5, -3, -3, 0], -3], 1, name="negatives"),
            C([[1, 3, 5, 7], 7], 3, name="last"),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "search_range",
        entry_point="search_range",
        prompt='''
        def search_range(nums: list[int], target: int) -> tuple[int, int]:
            """Return (first, last), the indices of the first and last occurrence of `target`
            in the sorted list `nums`, or (-1, -1) when it does not occur.

            >>> search_range([5, 7, 7, 8, 8, 10], 8)
            (3, 4)
            """
        ''',
        solution='''
        import bisect


        def search_range(nums: list[int], target: int) -> tuple[int, int]:
            lo = bisect.bisect_left(nums, target)
            if lo == len(nums) or nums[lo] != target:
                return (-1, -1)
            return (lo, bisect.bisect_right(nums, target) - 1)
        ''',
        signature=sig("list[int(-20..20)](sorted, max=12)", "int(-22..22)", returns="tuple[int(-1..), int(-1..)]"),
        contract=SORTED_NUMS,
        tests=[
            C([[5, 7, 7, 8, 8, 10], 8], (3, 4)),
            C([[5, 7, 7, 8, 8, 10], 6], (-1, -1)),
            C([[], 0], (-1, -1), name="empty"),
            C([[1], 1], (0, 0)),
            C([[2, 2], 2], (0, 1)),
            C([[-3, -3, -1], -3], (0, 1), name="negatives"),
            C([[1, 2, 3], 3], (2, 2)),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "merge_sorted_stable",
        entry_point="merge_sorted",
        prompt='''
        def merge_sorted(a: list[tuple[int, str]], b: list[tuple[int, str]]) -> list[tuple[int, str]]:
            """Merge two lists of (key, label) records, each sorted by key, into one list
            sorted by key. The merge is stable: records with equal keys keep their order
            within each input, and all of them from `a` come before those from `b`. Labels are
            not compared. The inputs are not modified.

            >>> merge_sorted([(1, "a1"), (3, "a3")], [(1, "b1"), (2, "b2")])
            [(1, 'a1'), (1, 'b1'), (2, 'b2'), (3, 'a3')]
            """
        ''',
        solution='''
        def merge_sorted(a: list[tuple[int, str]], b: list[tuple[int, str]]) -> list[tuple[int, str]]:
            out = []
            i = j = 0
            while i < len(a) and j < len(b):
                if b[j][0] < a[i][0]:
                    out.append(b[j])
                    j += 1
                else:
                    out.append(a[i])
                    i += 1
            out.extend(a[i:])
            out.extend(b[j:])
            return out
        ''',
        signature=sig("list[tuple[int(-5..5), str(chars='xyz', max=2)]](sorted)",
                      "list[tuple[int(-5..5), str(chars='xyz', max=2)]](sorted)",
                      returns="list[tuple[int, str]]"),
        contract="""
        assert all(x[0] <= y[0] for x, y in zip(a, a[1:]))
        assert all(x[0] <= y[0] for x, y in zip(b, b[1:]))
        """,
        tests=[
            C([[(1, "a1"), (3, "a3")], [(1, "b1"), (2, "b2")]], [(1, "a1"), (1, "b1"), (2, "b2"), (3, "a3")]),
            C([[], []], []),
            C([[], [(0, "x")]], [(0, "x")]),
            C([[(0, "x")], []], [(0, "x")]),
            C([[(2, "z"), (2, "a")], [(2, "m")]], [(2, "z"), (2, "a"), (2, "m")], name="ties: a first, order kept"),
            C([[(-3, "n")], [(-5, "m"), (-3, "k")]], [(-5, "m"), (-3, "n"), (-3, "k")]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "merge_k_sorted",
        entry_point="merge_k_sorted",
        prompt='''
        def merge_k_sorted(lists: list[list[int]]) -> list[int]:
            """Merge any number of sorted (non-decreasing) integer lists into one sorted list
            holding every element (duplicates kept). Inputs are not modified.

            >>> merge_k_sorted([[1, 4], [2, 3], [], [1]])
            [1, 1, 2, 3, 4]
            """
        ''',
        solution='''
        import heapq


        def merge_k_sorted(lists: list[list[int]]) -> list[int]:
            return list(heapq.merge(*lists))
        ''',
        signature=sig("list[list[int(-9..9)](sorted, max=5)](max=5)", returns="list[int]"),
        contract="assert all(all(x <= y for x, y in zip(l, l[1:])) for l in lists)",
        tests=[
            C([[[1, 4], [2, 3], [], [1]]], [1, 1, 2, 3, 4]),
            C([[]], [], name="no lists"),
            C([[[], []]], []),
            C([[[5]]], [5]),
            C([[[-2, 0], [-3, -2]]], [-3, -2, -2, 0]),
            C([[[1, 1], [1]]], [1, 1, 1]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "top_k_frequent_words",
        entry_point="top_k_frequent",
        prompt='''
        def top_k_frequent(words: list[str], k: int) -> list[str]:
            """Return the `k` most frequent distinct words, most frequent first; words with
            the same count are ordered by Python string order (code points). Fewer than `k`
            distinct words: return them all. k <= 0: return [].

            >>> top_k_frequent(["b", "a", "b", "c", "a", "d"], 2)
            ['a', 'b']
            """
        ''',
        solution='''
        from collections import Counter


        def top_k_frequent(words: list[str], k: int) -> list[str]:
            if k <= 0:
                return []
            counts = Counter(words)
            ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            return [w for w, _ in ranked[:k]]
        ''',
        signature=sig("list[str(chars='abcéB', max=2)](max=10)", "int(-1..5)", returns="list[str]"),
        tests=[
            C([["b", "a", "b", "c", "a", "d"], 2], ["a", "b"], name="tie broken by string order"),
            C([[], 3], []),
            C([["x"], 0], []),
            C([["x", "y"], -1], []),
            C([["x", "y", "y"], 5], ["y", "x"]),
            C([["é", "e", "é", "e", "E"], 2], ["e", "é"], name="code point order"),
            C([["B", "a", "B", "a"], 1], ["B"], name="upper before lower"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "top_k_largest",
        entry_point="top_k_largest",
        prompt='''
        def top_k_largest(nums: list[int], k: int) -> list[int]:
            """Return the k largest values of `nums` (with multiplicity) in descending order.
            k <= 0 gives []; k > len(nums) gives all values, descending. `nums` is not
            modified.

            >>> top_k_largest([3, 1, 4, 1, 5], 3)
            [5, 4, 3]
            """
        ''',
        solution='''
        import heapq


        def top_k_largest(nums: list[int], k: int) -> list[int]:
            if k <= 0:
                return []
            return heapq.nlargest(k, nums)
        ''',
        signature=sig("list[int(-50..50)](max=10)", "int(-2..12)", returns="list[int]"),
        tests=[
            C([[3, 1, 4, 1, 5], 3], [5, 4, 3]),
            C([[], 2], []),
            C([[1, 2], 0], []),
            C([[1, 2], -3], []),
            C([[2, 2, 2], 2], [2, 2]),
            C([[-1, -7, -3], 5], [-1, -3, -7], name="negatives, k beyond length"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "stable_sort_by_score",
        entry_point="rank_players",
        prompt='''
        def rank_players(records: list[tuple[str, int]]) -> list[tuple[str, int]]:
            """Return the (name, score) records sorted by score, highest first. Records with
            equal scores keep their input order (a stable sort: do not sort by name). The
            input list is not modified.

            >>> rank_players([("ann", 3), ("bob", 5), ("cy", 3)])
            [('bob', 5), ('ann', 3), ('cy', 3)]
            """
        ''',
        solution='''
        def rank_players(records: list[tuple[str, int]]) -> list[tuple[str, int]]:
            return sorted(records, key=lambda r: -r[1])
        ''',
        signature=sig("list[tuple[str(chars='abz', max=2), int(-3..3)]](max=8)", returns="list[tuple[str, int]]"),
        tests=[
            C([[("ann", 3), ("bob", 5), ("cy", 3)]], [("bob", 5), ("ann", 3), ("cy", 3)]),
            C([[]], []),
            C([[("z", 1), ("a", 1)]], [("z", 1), ("a", 1)], name="tie keeps input order"),
            C([[("a", -1), ("b", 0)]], [("b", 0), ("a", -1)]),
            C([[("x", 2)]], [("x", 2)]),
            C([[("b", 1), ("a", 2), ("c", 1), ("d", 2)]], [("a", 2), ("d", 2), ("b", 1), ("c", 1)]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "kth_smallest",
        entry_point="kth_smallest",
        prompt='''
        def kth_smallest(nums: list[int], k: int) -> int:
            """Return the k-th smallest value of `nums` (k is 1-based, duplicates count).
            Raise ValueError unless 1 <= k <= len(nums). `nums` is not modified.

            >>> kth_smallest([7, 2, 9, 2], 2)
            2
            """
        ''',
        solution='''
        def kth_smallest(nums: list[int], k: int) -> int:
            if not 1 <= k <= len(nums):
                raise ValueError("k out of range")
            return sorted(nums)[k - 1]
        ''',
        signature=sig("list[int(-20..20)](max=8)", "int(-1..9)", returns="int"),
        tests=[
            C([[7, 2, 9, 2], 2], 2),
            C([[7, 2, 9, 2], 3], 7),
            C([[5], 1], 5),
            C([[], 1], raises="ValueError", name="empty"),
            C([[1, 2], 0], raises="ValueError"),
            C([[1, 2], 3], raises="ValueError"),
            C([[-1, -5, 3], 1], -5, name="negatives"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "dedupe_preserve_order",
        entry_point="dedupe",
        prompt='''
        def dedupe(items: list[int | str]) -> list[int | str]:
            """Return the items without repeats, keeping the first occurrence of each, in
            order. The input is not modified.

            >>> dedupe([3, "a", 3, 1, "a"])
            [3, 'a', 1]
            """
        ''',
        solution='''
        def dedupe(items: list[int | str]) -> list[int | str]:
            seen = set()
            out = []
            for x in items:
                if x not in seen:
                    seen.add(x)
                    out.append(x)
            return out
        ''',
        signature=sig("list[int(-3..3) | str(chars='ab', max=2)](max=10)", returns="list[int | str]"),
        tests=[
            C([[3, "a", 3, 1, "a"]], [3, "a", 1]),
            C([[]], []),
            C([[1, 1, 1]], [1]),
            C([["1", 1]], ["1", 1], name="str and int differ"),
            C([[2, 1, 2, 1]], [2, 1]),
            C([["é", "é", "e\u0301"]], ["é", "e\u0301"], name="no normalisation"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "natural_sort",
        entry_point="natural_sort",
        prompt='''
        def natural_sort(names: list[str]) -> list[str]:
            """Sort strings in "natural" order: split each into runs of ASCII digits and runs
            of other characters; compare run by run, digit runs by their integer value and
            other runs as strings (code points); a digit run sorts before a non-digit run at
            the same position; a string whose runs are a prefix of another's comes first.
            Strings whose runs compare equal ("a01" and "a1") are ordered by plain string
            comparison. Returns a new list.

            >>> natural_sort(["file10", "file2", "File1", "file1"])
            ['File1', 'file1', 'file2', 'file10']
            """
        ''',
        solution='''
        import re

        _RUN = re.compile(r"[0-9]+|[^0-9]+")


        def _key(s):
            parts = []
            for run in _RUN.findall(s):
                if run[0] in "0123456789":
                    parts.append((0, int(run), ""))
                else:
                    parts.append((1, 0, run))
            return (parts, s)


        def natural_sort(names: list[str]) -> list[str]:
            return sorted(names, key=_key)
        ''',
        signature=sig("list[str(chars='a0129 ٣', max=4)](max=8)", returns="list[str]"),
        tests=[
            C([["file10", "file2", "File1", "file1"]], ["File1", "file1", "file2", "file10"]),
            C([[]], []),
            C([["a1", "a01", "a001"]], ["a001", "a01", "a1"], name="equal runs: plain order"),
            C([["x", "1", ""]], ["", "1", "x"], name="digit run first"),
            C([["v1.10", "v1.9", "v1.9.1"]], ["v1.9", "v1.9.1", "v1.10"]),
            C([["a٣", "a2", "a10"]], ["a2", "a10", "a٣"], name="non-ASCII digit is not a digit"),
            C([["b2", "a", "b2", "a"]], ["a", "a", "b2", "b2"], name="duplicates kept"),
            C([["99999999999999999999", "100000000000000000000"]], ["99999999999999999999", "100000000000000000000"], name="big numbers"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "merge_intervals",
        entry_point="merge_intervals",
        prompt='''
        def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
            """Merge closed integer intervals (start, end). Overlapping or touching intervals
            ((1, 3) and (3, 5), but not (1, 2) and (3, 4)) become one. Return the merged
            intervals sorted by start. Raise ValueError if some start > end.

            >>> merge_intervals([(8, 10), (1, 3), (2, 6)])
            [(1, 6), (8, 10)]
            """
        ''',
        solution='''
        def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
            for s, e in intervals:
                if s > e:
                    raise ValueError("start after end")
            out: list[tuple[int, int]] = []
            for s, e in sorted(intervals):
                if out and s <= out[-1][1]:
                    if e > out[-1][1]:
                        out[-1] = (out[-1][0], e)
                else:
                    out.append((s, e))
            return out
        ''',
        signature=sig("list[tuple[int(-10..10), int(-10..10)]](max=6)", returns="list[tuple[int, int]]"),
        tests=[
            C([[(8, 10), (1, 3), (2, 6)]], [(1, 6), (8, 10)]),
            C([[]], []),
            C([[(1, 3), (3, 5)]], [(1, 5)], name="touching"),
            C([[(1, 2), (3, 4)]], [(1, 2), (3, 4)], name="adjacent integers stay apart"),
            C([[(1, 10), (2, 3)]], [(1, 10)], name="contained"),
            C([[(5, 5)]], [(5, 5)]),
            C([[(3, 1)]], raises="ValueError"),
            C([[(-5, -1), (-2, 0)]], [(-5, 0)], name="negatives"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("idempotent"),
                    P("no_mutation"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "sorted_squares",
        entry_point="sorted_squares",
        prompt='''
        def sorted_squares(nums: list[int]) -> list[int]:
            """Given integers sorted in non-decreasing order (negatives allowed), return the
            squares of all of them sorted in non-decreasing order, in O(n).

            >>> sorted_squares([-4, -1, 0, 3, 10])
            [0, 1, 9, 16, 100]
            """
        ''',
        solution='''
        def sorted_squares(nums: list[int]) -> list[int]:
            out = [0] * len(nums)
            lo, hi = 0, len(nums) - 1
            for pos in range(len(nums) - 1, -1, -1):
                if abs(nums[lo]) > abs(nums[hi]):
                    out[pos] = nums[lo] * nums[lo]
                    lo += 1
                else:
                    out[pos] = nums[hi] * nums[hi]
                    hi -= 1
            return out
        ''',
        signature=sig("list[int(-30..30)](sorted, max=10)", returns="list[int(0..)]"),
        contract=SORTED_NUMS,
        tests=[
            C([[-4, -1, 0, 3, 10]], [0, 1, 9, 16, 100]),
            C([[]], []),
            C([[-3, -2, -1]], [1, 4, 9], name="all negative"),
            C([[1, 2, 3]], [1, 4, 9]),
            C([[-2, 2]], [4, 4]),
            C([[0]], [0]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "sort_k_sorted",
        entry_point="sort_k_sorted",
        prompt='''
        def sort_k_sorted(nums: list[int], k: int) -> list[int]:
            """Sort a "k-sorted" list, where every element is at most k positions away from its
            place in the sorted order (k >= 0), in O(n log k) time, returning a new list in
            non-decreasing order. The input is not modified. Raise ValueError if k < 0.

            >>> sort_k_sorted([2, 1, 4, 3, 6, 5], 1)
            [1, 2, 3, 4, 5, 6]
            """
        ''',
        solution='''
        import heapq


        def sort_k_sorted(nums: list[int], k: int) -> list[int]:
            if k < 0:
                raise ValueError("k must be >= 0")
            heap = list(nums[:k + 1])
            heapq.heapify(heap)
            out = []
            for x in nums[k + 1:]:
                out.append(heapq.heappushpop(heap, x))
            while heap:
                out.append(heapq.heappop(heap))
            return out
        ''',
        signature=sig("list[int(-9..9)](max=10)", "int(-1..10)", returns="list[int]"),
        contract="""
        if k >= 0:
            order = sorted(range(len(nums)), key=lambda i: nums[i])
            assert all(abs(pos - i) <= k for pos, i in enumerate(order)), "not k-sorted"
        """,
        tests=[
            C([[2, 1, 4, 3, 6, 5], 1], [1, 2, 3, 4, 5, 6]),
            C([[], 3], [], name="empty"),
            C([[5], 0], [5]),
            C([[1, 2, 3], 0], [1, 2, 3], name="k = 0: already sorted"),
            C([[3, 2, 1], 2], [1, 2, 3]),
            C([[3, 2, 1], 10], [1, 2, 3], name="k beyond length"),
            C([[-1, -3, -2, 0], 2], [-3, -2, -1, 0], name="negatives"),
            C([[2, 2, 1, 1], 2], [1, 1, 2, 2], name="duplicates"),
            C([[1], -1], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("sorted_permutation"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
