"""Built-in tasks: deterministic, group-based data splitting."""

from _dsl import C, P, sig, task

TAGS = ["splitting"]

TASKS = [
    task(
        "group_split",
        entry_point="assign_splits",
        prompt='''
        def assign_splits(group_keys: list[str], salt: str, ratios: tuple[int, int, int]) -> list[str]:
            """Assign each item, given by its group key, to "train", "val" or "test",
            deterministically and by group: items with the same key always land in the same
            split, so no group is in two splits, on every run and every machine.

            bucket = int.from_bytes(sha256((salt + "\\x00" + key).encode("utf-8")).digest()[:8],
            "big") % (r_train + r_val + r_test), with `ratios` = (r_train, r_val, r_test).
            bucket < r_train gives "train", bucket < r_train + r_val gives "val", otherwise
            "test". Return one split name per input key, in order. Raise ValueError if a ratio
            is negative or all are zero. (Python's hash() is salted per process: do not use it.)

            >>> assign_splits(["a", "b", "a"], "s", (1, 1, 1))
            ['train', 'val', 'train']
            """
        ''',
        solution='''
        import hashlib


        def assign_splits(group_keys: list[str], salt: str, ratios: tuple[int, int, int]) -> list[str]:
            r_train, r_val, r_test = ratios
            if min(ratios) < 0 or sum(ratios) == 0:
                raise ValueError("ratios must be non-negative and not all zero")
            total = r_train + r_val + r_test
            out = []
            for key in group_keys:
                digest = hashlib.sha256((salt + "\\x00" + key).encode("utf-8")).digest()
                bucket = int.from_bytes(digest[:8], "big") % total
                if bucket < r_train:
                    out.append("train")
                elif bucket < r_train + r_val:
                    out.append("val")
                else:
                    out.append("test")
            return out
        ''',
        signature=sig("list[str(max=3)](max=8)", "str(max=3)", "tuple[int(-1..8), int(-1..3), int(-1..3)]",
                      returns="list[str(chars='trainvalest', min=3, max=5)]"),
        tests=[
            C([["u1", "u2", "u3", "u1", "u4", "u5", "u6", "u7"], "v1", (8, 1, 1)],
              ["val", "test", "train", "val", "train", "train", "val", "train"]),
            C([["u1", "u2", "u3", "u1", "u4", "u5", "u6", "u7"], "v2", (8, 1, 1)],
              ["val", "train", "train", "val", "train", "train", "test", "train"], name="salt changes assignment"),
            C([["a", "b", "c", "d", "e", "f"], "s", (1, 1, 1)], ["train", "val", "val", "train", "train", "val"]),
            C([["ü", "日本", "", "a"], "salt", (1, 1, 1)], ["val", "val", "val", "val"], name="UTF-8 keys, empty key"),
            C([["x", "y"], "", (0, 0, 1)], ["test", "test"]),
            C([[], "s", (1, 1, 1)], [], name="no items"),
            C([["a"], "s", (0, 0, 0)], raises="ValueError"),
            C([["a"], "s", (2, -1, 1)], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "group_kfold",
        entry_point="group_folds",
        prompt='''
        def group_folds(group_keys: list[str], salt: str, k: int) -> list[int]:
            """Assign each item to one of k cross-validation folds by its group key:
            fold = int.from_bytes(sha256((salt + "\\x00" + key).encode("utf-8")).digest()[:8],
            "big") % k. Items of one group share a fold. Return the fold of each key, in order.
            Raise ValueError if k < 2.

            >>> group_folds(["a", "b", "a"], "s", 5)
            [3, 4, 3]
            """
        ''',
        solution='''
        import hashlib


        def group_folds(group_keys: list[str], salt: str, k: int) -> list[int]:
            if k < 2:
                raise ValueError("need at least 2 folds")
            folds = []
            for key in group_keys:
                digest = hashlib.sha256((salt + "\\x00" + key).encode("utf-8")).digest()
                folds.append(int.from_bytes(digest[:8], "big") % k)
            return folds
        ''',
        signature=sig("list[str(max=3)](max=8)", "str(max=3)", "int(-1..7)", returns="list[int(0..)]"),
        tests=[
            C([["a", "b", "c", "d", "e", "a"], "s", 5], [3, 4, 4, 3, 0, 3]),
            C([["", "é"], "", 2], [0, 1]),
            C([["g1", "g2", "g3", "g1", "g4"], "fold", 3], [1, 1, 0, 1, 2]),
            C([[], "s", 4], []),
            C([["a"], "s", 1], raises="ValueError"),
            C([["a"], "s", 0], raises="ValueError"),
            C([["a"], "s", -3], raises="ValueError", name="negative k"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "group_split_indices",
        entry_point="split_indices",
        prompt='''
        def split_indices(group_keys: list[str], salt: str, ratios: tuple[int, int, int]) -> dict[str, list[int]]:
            """Split item indices into {"train": [...], "val": [...], "test": [...]} (all three
            keys always present, in that order; indices ascending) so that all items with the
            same group key are in the same split. An item's split is decided from its key
            only: bucket = int.from_bytes(sha256((salt + "\\x00" + key).encode("utf-8")).digest()[:8],
            "big") % sum(ratios); bucket < ratios[0] is train, < ratios[0] + ratios[1] is val,
            else test. Raise ValueError if a ratio is negative or all are zero.

            >>> split_indices(["a", "b", "a"], "s", (1, 1, 1))
            {'train': [0, 2], 'val': [1], 'test': []}
            """
        ''',
        solution='''
        import hashlib


        def split_indices(group_keys: list[str], salt: str, ratios: tuple[int, int, int]) -> dict[str, list[int]]:
            if min(ratios) < 0 or sum(ratios) == 0:
                raise ValueError("ratios must be non-negative and not all zero")
            total = sum(ratios)
            out: dict[str, list[int]] = {"train": [], "val": [], "test": []}
            cache: dict[str, str] = {}
            for i, key in enumerate(group_keys):
                if key not in cache:
                    digest = hashlib.sha256((salt + "\\x00" + key).encode("utf-8")).digest()
                    bucket = int.from_bytes(digest[:8], "big") % total
                    if bucket < ratios[0]:
                        cache[key] = "train"
                    elif bucket < ratios[0] + ratios[1]:
                        cache[key] = "val"
                    else:
                        cache[key] = "test"
                out[cache[key]].append(i)
            return out
        ''',
        signature=sig("list[str(max=3)](max=8)", "str(max=3)", "tuple[int(-1..8), int(-1..3), int(-1..3)]",
                      returns="dict[str(chars='trainvalest', min=3, max=5), list[int(0..)]](min=3, max=3)"),
        tests=[
            C([["u1", "u2", "u3", "u1", "u4", "u5", "u6", "u7"], "v1", (8, 1, 1)],
              {"train": [2, 4, 5, 7], "val": [0, 3, 6], "test": [1]}),
            C([["a", "b", "c", "d", "e", "f", "a"], "s", (1, 1, 1)], {"train": [0, 3, 4, 6], "val": [1, 2, 5], "test": []},
              name="empty split still present"),
            C([["x", "x", "x"], "k", (1, 0, 1)], {"train": [0, 1, 2], "val": [], "test": []}, name="one group"),
            C([["ü", "日本", "", "a"], "salt", (1, 1, 1)], {"train": [], "val": [0, 1, 2, 3], "test": []}),
            C([[], "s", (1, 1, 1)], {"train": [], "val": [], "test": []}),
            C([["a"], "s", (0, 0, 0)], raises="ValueError"),
            C([["a"], "s", (1, -1, 1)], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
