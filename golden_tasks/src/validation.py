"""Built-in tasks: data validation."""

from _dsl import C, P, sig, task

TAGS = ["validation"]

TASKS = [
    task(
        "validate_records",
        entry_point="validate_records",
        prompt='''
        def validate_records(records: list[dict], schema: dict[str, str]) -> list[tuple[int, str, str]]:
            """Check every record against `schema` and return every violation of every record
            as (record index, field name, problem), never stopping at the first one.

            `schema` maps field names to a type: "int" (an int, and a bool is NOT an int),
            "float" (an int or a float, not a bool), "str", "bool"; a type ending in "?"
            ("int?") marks an optional field, which may be missing or None. Problems:
            "missing" (a required field is absent), "type" (present with the wrong type; None
            is the wrong type for a required field), "unknown" (a field not in the schema).
            Order: by record index; within a record, first the schema's fields in schema order
            (missing/type), then unknown fields in the record's own key order. Raise ValueError
            if the schema uses another type name.

            >>> validate_records([{"id": 1, "ok": True}, {"id": True, "x": 0}], {"id": "int", "ok": "bool"})
            [(1, 'id', 'type'), (1, 'ok', 'missing'), (1, 'x', 'unknown')]
            """
        ''',
        solution='''
        def _matches(value, kind):
            if kind == "int":
                return type(value) is int
            if kind == "float":
                return type(value) in (int, float)
            if kind == "str":
                return type(value) is str
            return type(value) is bool


        def validate_records(records: list[dict], schema: dict[str, str]) -> list[tuple[int, str, str]]:
            parsed = {}
            for field, kind in schema.items():
                optional = kind.endswith("?")
                base = kind[:-1] if optional else kind
                if base not in ("int", "float", "str", "bool"):
                    raise ValueError("unknown type name: " + kind)
                parsed[field] = (base, optional)
            problems = []
            for i, record in enumerate(records):
                for field, (base, optional) in parsed.items():
                    if field not in record:
                        if not optional:
                            problems.append((i, field, "missing"))
                    elif record[field] is None and optional:
                        continue
                    elif not _matches(record[field], base):
                        problems.append((i, field, "type"))
                for field in record:
                    if field not in parsed:
                        problems.append((i, field, "unknown"))
            return problems
        ''',
        signature=sig("list[dict[str(chars='abx', min=1, max=1), int(-2..2) | float(finite) | str(max=2) | bool | None](max=4)](max=4)",
                      "dict[str(chars='abx', min=1, max=1), str(chars='intfloatsrbo?', min=3, max=6)](max=3)",
                      returns="list[tuple[int(0..), str, str(chars='missingtypeunknow')]]"),
        tests=[
            C([[{"id": 1, "ok": True}, {"id": True, "x": 0}], {"id": "int", "ok": "bool"}],
              [(1, "id", "type"), (1, "ok", "missing"), (1, "x", "unknown")]),
            C([[], {"id": "int"}], [], name="no records"),
            C([[{}, {}], {}], [], name="empty schema, empty records"),
            C([[{"n": False}], {"n": "float"}], [(0, "n", "type")], name="bool is not a float"),
            C([[{"n": 3}], {"n": "float"}], [], name="int is a float"),
            C([[{"n": 3.0}], {"n": "int"}], [(0, "n", "type")]),
            C([[{"a": None}, {}], {"a": "str?"}], [], name="optional: None or missing"),
            C([[{"a": None}], {"a": "str"}], [(0, "a", "type")], name="None for a required field"),
            C([[{"z": 1, "b": "x", "a": 1}], {"a": "str", "b": "int", "c": "bool"}],
              [(0, "a", "type"), (0, "b", "type"), (0, "c", "missing"), (0, "z", "unknown")],
              name="every violation, in order"),
            C([[{"ü": "é"}], {"ü": "str"}], [], name="non-ASCII field names"),
            C([[{}], {"a": "integer"}], raises="ValueError"),
            C([[], {"a": "list"}], raises="ValueError", name="bad schema even without records"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "is_valid_ipv4",
        entry_point="is_valid_ipv4",
        prompt='''
        def is_valid_ipv4(text: str) -> bool:
            """Whether `text` is a dotted-decimal IPv4 address: exactly four parts separated by
            '.', each 1-3 ASCII digits with value 0-255 and no leading zero ("0" itself is
            fine, "01" is not). No whitespace, signs or other characters.

            >>> is_valid_ipv4("192.168.0.1")
            True
            >>> is_valid_ipv4("256.1.1.1")
            False
            """
        ''',
        solution='''
        def is_valid_ipv4(text: str) -> bool:
            parts = text.split(".")
            if len(parts) != 4:
                return False
            for part in parts:
                if not 1 <= len(part) <= 3 or not all("0" <= c <= "9" for c in part):
                    return False
                if len(part) > 1 and part[0] == "0":
                    return False
                if int(part) > 255:
                    return False
            return True
        ''',
        signature=sig("str(chars='0125.9 ٣', max=16)", returns="bool"),
        tests=[
            C(["192.168.0.1"], True),
            C(["256.1.1.1"], False),
            C(["0.0.0.0"], True),
            C(["255.255.255.255"], True),
            C(["01.1.1.1"], False, name="leading zero"),
            C(["1.1.1"], False),
            C(["1.1.1.1."], False),
            C([""], False),
            C(["1.1.1.٣"], False, name="Arabic-Indic digit"),
            C([" 1.1.1.1"], False),
            C(["1.1.1.+1"], False, name="sign"),
            C(["1..1.1"], False),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "luhn_check",
        entry_point="luhn_valid",
        prompt='''
        def luhn_valid(number: str) -> bool:
            """Whether `number` passes the Luhn checksum. Spaces are ignored; any other
            character that is not an ASCII digit makes it invalid; fewer than 2 digits is
            invalid.

            >>> luhn_valid("4539 3195 0343 6467")
            True
            """
        ''',
        solution='''
        def luhn_valid(number: str) -> bool:
            digits = []
            for ch in number:
                if ch == " ":
                    continue
                if not "0" <= ch <= "9":
                    return False
                digits.append(ord(ch) - 48)
            if len(digits) < 2:
                return False
            total = 0
            for i, d in enumerate(reversed(digits)):
                if i % 2 == 1:
                    d *= 2
                    if d > 9:
                        d -= 9
                total += d
            return total % 10 == 0
        ''',
        signature=sig("str(chars='0123456789 x', max=12)", returns="bool"),
        tests=[
            C(["4539 3195 0343 6467"], True),
            C(["8273 1232 7352 0569"], False),
            C(["0"], False, name="one digit"),
            C(["00"], True),
            C([""], False),
            C(["  "], False),
            C(["059"], True),
            C(["05a9"], False),
            C(["٠٥٩"], False, name="Arabic-Indic digits"),
            C(["18"], True),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "json_pointer_get",
        entry_point="pointer_get",
        prompt='''
        def pointer_get(doc, pointer: str):
            """Resolve an RFC 6901 JSON Pointer in `doc` (nested dicts with str keys, lists,
            and scalars) and return the value it refers to.

            "" refers to the whole document. Otherwise the pointer is a sequence of "/token";
            in a token "~1" means "/" and "~0" means "~" (decode ~1 first, then ~0); a "~"
            followed by anything else is malformed. In a dict a token is a key; in a list it
            must be "0" or a decimal number without leading zeros below the list's length.
            Raise ValueError for a malformed pointer (non-empty without a leading "/", bad
            escape in any token; checked before resolving anything), KeyError for a missing key, IndexError for a bad or out-of-range list
            index ("-" and "01" included), TypeError when a token is applied to a scalar.

            >>> pointer_get({"a": [{"b/c": 1}]}, "/a/0/b~1c")
            1
            """
        ''',
        solution='''
        import re

        _INDEX = re.compile(r"0|[1-9][0-9]*")


        def pointer_get(doc, pointer: str):
            if pointer == "":
                return doc
            if not pointer.startswith("/"):
                raise ValueError("pointer must start with /")
            tokens = pointer[1:].split("/")
            for raw in tokens:
                if re.search(r"~(?![01])", raw):
                    raise ValueError("bad escape")
            node = doc
            for raw in tokens:
                token = raw.replace("~1", "/").replace("~0", "~")
                if isinstance(node, dict):
                    if token not in node:
                        raise KeyError(token)
                    node = node[token]
                elif isinstance(node, list):
                    if not _INDEX.fullmatch(token) or int(token) >= len(node):
                        raise IndexError(token)
                    node = node[int(token)]
                else:
                    raise TypeError("cannot index a scalar")
            return node
        ''',
        signature=sig("dict[str(chars='a~/1', max=2), int(0..3) | list[int(0..3) | dict[str(chars='a~/1', max=2), int]](max=3)](max=3)",
                      "str(chars='/a~01-', max=8)",
                      returns="int | list[int | dict[str, int]] | dict[str, int | list[int | dict[str, int]]]"),
        tests=[
            C([{"a": [{"b/c": 1}]}, "/a/0/b~1c"], 1),
            C([{"a": 1}, ""], {"a": 1}, name="whole document"),
            C([{"": 5}, "/"], 5, name="empty key"),
            C([{"~1": 7, "/": 8}, "/~01"], 7, name="~01 is ~1, not /"),
            C([{"a": [1, 2]}, "/a/2"], raises="IndexError"),
            C([{"a": [1, 2]}, "/a/-"], raises="IndexError"),
            C([{"a": [1, 2]}, "/a/01"], raises="IndexError"),
            C([{"a": 1}, "/b"], raises="KeyError"),
            C([{"a": 1}, "a"], raises="ValueError"),
            C([{"a": 1}, "/a~2"], raises="ValueError"),
            C([{"a": 1}, "/a/b"], raises="TypeError"),
            C([{"é": [0, {"ö": 3}]}, "/é/1/ö"], 3),
        ],
        properties=[P("no_raise", **{"except": ["ValueError", "KeyError", "IndexError", "TypeError"]}),
                    P("no_mutation"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_bool",
        entry_point="parse_bool",
        prompt='''
        def parse_bool(text: str) -> bool:
            """Parse a configuration flag. After stripping ASCII whitespace (space, tab, CR,
            LF), and ignoring ASCII case only, "true", "yes", "on", "1" mean True and "false",
            "no", "off", "0" mean False. Anything else (including non-ASCII look-alikes) raises
            ValueError.

            >>> parse_bool(" Yes\\n")
            True
            """
        ''',
        solution='''
        _TRUE = {"true", "yes", "on", "1"}
        _FALSE = {"false", "no", "off", "0"}


        def parse_bool(text: str) -> bool:
            word = text.strip(" \\t\\r\\n")
            if not word.isascii():
                raise ValueError("not a boolean: " + repr(text))
            word = word.lower()
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
            raise ValueError("not a boolean: " + repr(text))
        ''',
        signature=sig("str(chars='tTruesyYonOfalsN01 ſ\\u212a', max=6)", returns="bool"),
        tests=[
            C([" Yes\n"], True),
            C(["FALSE"], False),
            C(["0"], False),
            C(["on"], True),
            C([""], raises="ValueError"),
            C(["yeſ"], raises="ValueError", name="long s folds to s"),
            C(["ｔｒｕｅ"], raises="ValueError", name="fullwidth"),
            C(["\u00a0true"], raises="ValueError", name="NBSP is not ASCII whitespace"),
            C(["y"], raises="ValueError"),
            C(["tru e"], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "find_duplicates",
        entry_point="find_duplicates",
        prompt='''
        def find_duplicates(values: list[str]) -> list[tuple[str, list[int]]]:
            """Report values that occur more than once, as (value, indices of all its
            occurrences in increasing order), ordered by each value's first occurrence.
            Values are compared exactly (no case folding or normalisation).

            >>> find_duplicates(["b", "a", "b", "c", "a", "b"])
            [('b', [0, 2, 5]), ('a', [1, 4])]
            """
        ''',
        solution='''
        def find_duplicates(values: list[str]) -> list[tuple[str, list[int]]]:
            positions: dict[str, list[int]] = {}
            for i, v in enumerate(values):
                positions.setdefault(v, []).append(i)
            return [(v, idx) for v, idx in positions.items() if len(idx) > 1]
        ''',
        signature=sig("list[str(chars='abAé', max=2)](max=10)", returns="list[tuple[str, list[int(0..)]]]"),
        tests=[
            C([["b", "a", "b", "c", "a", "b"]], [("b", [0, 2, 5]), ("a", [1, 4])]),
            C([[]], []),
            C([["x", "y"]], []),
            C([["A", "a"]], [], name="case matters"),
            C([["é", "e\u0301", "é"]], [("é", [0, 2])], name="no normalisation"),
            C([["", ""]], [("", [0, 1])]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
]
