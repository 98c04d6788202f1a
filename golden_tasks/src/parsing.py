"""Built-in tasks: parsing."""

from _dsl import C, P, sig, task

TAGS = ["parsing"]

TASKS = [
    task(
        "parse_date_format",
        entry_point="parse_date",
        prompt='''
        def parse_date(text: str, fmt: str) -> tuple[int, int, int]:
            """Parse a calendar date written in the format `fmt` and return (year, month, day).

            `fmt` is read left to right: where it starts with YYYY (exactly 4 digits), MM
            (exactly 2 digits) or DD (exactly 2 digits) that token is taken, otherwise one
            literal character that must appear as-is ("MMM" is MM then a literal M). Digits are ASCII 0-9 only. The date must exist in the proleptic Gregorian
            calendar (leap years included) with 1 <= year <= 9999. Raise ValueError if `text`
            does not match `fmt` exactly, if the date does not exist, or if `fmt` lacks one of
            the three tokens or has one twice.

            >>> parse_date("2024-02-29", "YYYY-MM-DD")
            (2024, 2, 29)
            >>> parse_date("31/12/1999", "DD/MM/YYYY")
            (1999, 12, 31)
            """
        ''',
        solution='''
        import calendar


        def parse_date(text: str, fmt: str) -> tuple[int, int, int]:
            widths = {"YYYY": 4, "MM": 2, "DD": 2}
            values = {}
            i = j = 0
            while j < len(fmt):
                token = next((t for t in widths if fmt.startswith(t, j)), None)
                if token is not None:
                    if token in values:
                        raise ValueError("token repeated in format")
                    chunk = text[i:i + widths[token]]
                    if len(chunk) != widths[token] or not all("0" <= c <= "9" for c in chunk):
                        raise ValueError("expected digits for " + token)
                    values[token] = int(chunk)
                    i += widths[token]
                    j += len(token)
                else:
                    if i >= len(text) or text[i] != fmt[j]:
                        raise ValueError("literal mismatch")
                    i += 1
                    j += 1
            if i != len(text):
                raise ValueError("trailing characters")
            if len(values) != 3:
                raise ValueError("format needs YYYY, MM and DD")
            y, m, d = values["YYYY"], values["MM"], values["DD"]
            if not 1 <= y <= 9999 or not 1 <= m <= 12:
                raise ValueError("year or month out of range")
            if not 1 <= d <= calendar.monthrange(y, m)[1]:
                raise ValueError("day out of range")
            return (y, m, d)
        ''',
        signature=sig("str(chars='0123456789-/.YMD ', max=12)", "str", returns="tuple[int(1..9999), int(1..12), int(1..31)]"),
        tests=[
            C(["2024-02-29", "YYYY-MM-DD"], (2024, 2, 29)),
            C(["31/12/1999", "DD/MM/YYYY"], (1999, 12, 31)),
            C(["2023-02-29", "YYYY-MM-DD"], raises="ValueError", name="not a leap year"),
            C(["1900-02-29", "YYYY-MM-DD"], raises="ValueError", name="century not leap"),
            C(["2000-02-29", "YYYY-MM-DD"], (2000, 2, 29), name="400-year leap"),
            C(["0000-01-01", "YYYY-MM-DD"], raises="ValueError"),
            C(["2024-1-05", "YYYY-MM-DD"], raises="ValueError", name="short month"),
            C(["2024-01-05 ", "YYYY-MM-DD"], raises="ValueError", name="trailing space"),
            C(["", "YYYY-MM-DD"], raises="ValueError"),
            C(["２０２４-01-05", "YYYY-MM-DD"], raises="ValueError", name="fullwidth digits"),
            C(["20240105", "YYYYMMDD"], (2024, 1, 5)),
            C(["2024-13-01", "YYYY-MM-DD"], raises="ValueError"),
            C(["2024-04-31", "YYYY-MM-DD"], raises="ValueError"),
            C(["2024-04", "YYYY-MM"], raises="ValueError", name="format without DD"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_iso8601",
        entry_point="parse_iso8601",
        prompt='''
        def parse_iso8601(text: str) -> int:
            """Parse an ISO 8601 timestamp with a UTC offset and return microseconds since
            1970-01-01T00:00:00Z (negative before it).

            Accepted form, exactly: YYYY-MM-DDTHH:MM:SS, optionally a '.' and 1 to 6 fraction
            digits, then 'Z' or an offset +HH:MM / -HH:MM (offset hours 00-23, minutes 00-59).
            The 'T' and 'Z' are upper case; digits are ASCII. Year 0001-9999, valid dates,
            hours 00-23, minutes and seconds 00-59. A timestamp without an offset is ambiguous:
            raise ValueError for it and for any other malformed input.

            >>> parse_iso8601("1970-01-01T00:00:00Z")
            0
            >>> parse_iso8601("1970-01-01T01:00:00.5+01:00")
            500000
            """
        ''',
        solution='''
        import datetime
        import re

        _ISO = re.compile(
            r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
            r"(?:\\.([0-9]{1,6}))?(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))"
        )


        def parse_iso8601(text: str) -> int:
            m = _ISO.fullmatch(text)
            if m is None:
                raise ValueError("not an ISO 8601 timestamp with offset")
            y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
            frac = m.group(7) or ""
            micro = int(frac.ljust(6, "0")) if frac else 0
            if m.group(8):
                offset = 0
            else:
                oh, om = int(m.group(10)), int(m.group(11))
                if oh > 23 or om > 59:
                    raise ValueError("offset out of range")
                offset = (oh * 60 + om) * 60
                if m.group(9) == "-":
                    offset = -offset
            if h > 23 or mi > 59 or s > 59:
                raise ValueError("time out of range")
            day = datetime.date(y, mo, d)  # raises ValueError for invalid dates
            days = day.toordinal() - datetime.date(1970, 1, 1).toordinal()
            seconds = days * 86400 + h * 3600 + mi * 60 + s - offset
            return seconds * 1000000 + micro
        ''',
        signature=sig("str(chars='0123456789-:T.Z+', max=32)", returns="int"),
        tests=[
            C(["1970-01-01T00:00:00Z"], 0),
            C(["1970-01-01T01:00:00.5+01:00"], 500000),
            C(["1969-12-31T23:59:59.999999Z"], -1),
            C(["2000-02-29T12:00:00-05:30"], 951845400000000),
            C(["2024-01-01T00:00:00+23:59"], 1703980860000000, name="max offset"),
            C(["2024-01-01T00:00:00"], raises="ValueError", name="naive"),
            C(["2024-01-01 00:00:00Z"], raises="ValueError", name="space separator"),
            C(["2024-01-01T24:00:00Z"], raises="ValueError"),
            C(["2024-01-01T00:00:00+24:00"], raises="ValueError"),
            C(["2023-02-29T00:00:00Z"], raises="ValueError"),
            C(["2024-01-01T00:00:00.1234567Z"], raises="ValueError", name="7 fraction digits"),
            C(["0001-01-01T00:00:00Z"], -62135596800000000),
            C([""], raises="ValueError"),
            C(["2024-01-01t00:00:00z"], raises="ValueError", name="lower case"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        fuzz={"max_inputs": 500, "seeds": [["2038-01-19T03:14:07Z"], ["1999-12-31T23:59:59.999+14:00"]]},
        tags=TAGS,
    ),
    task(
        "split_csv_line",
        entry_point="split_csv_line",
        prompt='''
        def split_csv_line(line: str, delimiter: str = ",") -> list[str]:
            """Split one CSV record (RFC 4180 quoting, no line breaks inside) into fields.

            A field is either unquoted (any characters except the delimiter and '"'), or
            quoted: it starts with '"', ends with '"', may contain the delimiter, and writes a
            literal quote as '""'. Whitespace is kept as-is. An empty line is one empty field.
            Raise ValueError for a quote inside an unquoted field, an unterminated quoted field,
            or characters between a closing quote and the next delimiter, and if `delimiter`
            is not exactly one character other than '"'.

            >>> split_csv_line("a,'b',,c;d")
            ['a', "'b'", '', 'c;d']
            """
        ''',
        solution='''
        def split_csv_line(line: str, delimiter: str = ",") -> list[str]:
            if len(delimiter) != 1 or delimiter == '"':
                raise ValueError("bad delimiter")
            fields = []
            i, n = 0, len(line)
            while True:
                if i < n and line[i] == '"':
                    i += 1
                    buf = []
                    while True:
                        if i >= n:
                            raise ValueError("unterminated quoted field")
                        if line[i] == '"':
                            if i + 1 < n and line[i + 1] == '"':
                                buf.append('"')
                                i += 2
                                continue
                            i += 1
                            break
                        buf.append(line[i])
                        i += 1
                    fields.append("".join(buf))
                    if i < n and line[i] != delimiter:
                        raise ValueError("text after closing quote")
                else:
                    j = i
                    while j < n and line[j] != delimiter:
                        if line[j] == '"':
                            raise ValueError("quote in unquoted field")
                        j += 1
                    fields.append(line[i:j])
                    i = j
                if i >= n:
                    return fields
                i += 1  # the delimiter
        ''',
        signature=sig("str(chars='ab ,\\'\"é;', max=16)", "str(chars=',;|', min=1, max=1)", returns="list[str]"),
        tests=[
            C(['a,"b,c",,"say ""hi"""'], ["a", "b,c", "", 'say "hi"']),
            C([""], [""], name="empty line"),
            C([","], ["", ""]),
            C(['""'], [""]),
            C(['"a'], raises="ValueError", name="unterminated"),
            C(['"a"b,c'], raises="ValueError", name="text after quote"),
            C(['a"b'], raises="ValueError"),
            C([" a , b "], [" a ", " b "], name="spaces kept"),
            C(["naïve;café;日本", ";"], ["naïve", "café", "日本"]),
            C(['x;"y;z"', ";"], ["x", "y;z"]),
            C(['"a,b",'], ["a,b", ""], name="trailing delimiter"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_url",
        entry_point="parse_url",
        prompt='''
        def parse_url(url: str) -> tuple[str, str, int, str, list[tuple[str, str]]]:
            """Split an http or https URL into (scheme, host, port, path, query).

            The URL is SCHEME "://" AUTHORITY [PATH] ["?" QUERY] ["#" FRAGMENT], where the
            authority runs up to the first "/", "?" or "#" (or the end) and the path up to the
            first "?" or "#". Rules:
            - SCHEME is http or https in any case; it is returned lower-cased.
            - AUTHORITY is HOST or HOST ":" PORT. HOST is either one or more ASCII letters,
              digits, "-" and "." (returned lower-cased), or "[" IPV6 "]" where IPV6 is one
              or more hex digits, ":" and "." (returned as written, without brackets). No "@"
              (user info is refused).
            - PORT is one or more ASCII digits with value 1..65535 (leading zeros allowed);
              without a port, 80 for http and 443 for https.
            - path: the PATH percent-decoded as by urllib.parse.unquote, or "/" if empty.
            - query: QUERY split on "&", empty pieces skipped, each piece split at its first
              "=" (no "=": value ""), names and values decoded by urllib.parse.unquote_plus.
            - the fragment is ignored.
            Raise ValueError for anything else, including any character U+0000-U+0020 or
            U+007F anywhere in the URL.

            >>> parse_url("HTTPS://Example.COM:8443/a%20b?x=1&y=&z#frag")
            ('https', 'example.com', 8443, '/a b', [('x', '1'), ('y', ''), ('z', '')])
            """
        ''',
        solution='''
        import re
        from urllib.parse import unquote, unquote_plus

        _URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(?:\\?([^#]*))?(?:#.*)?", re.DOTALL)
        _HOST = re.compile(r"(?:([A-Za-z0-9.-]+)|\\[([0-9A-Fa-f:.]+)\\])(?::([0-9]+))?")


        def parse_url(url: str) -> tuple[str, str, int, str, list[tuple[str, str]]]:
            if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
                raise ValueError("control character or space in URL")
            m = _URL.fullmatch(url)
            if m is None:
                raise ValueError("not SCHEME://AUTHORITY...")
            scheme = m.group(1).lower()
            if scheme not in ("http", "https"):
                raise ValueError("scheme must be http or https")
            h = _HOST.fullmatch(m.group(2))
            if h is None:
                raise ValueError("bad authority")
            host = h.group(1).lower() if h.group(1) is not None else h.group(2)
            if h.group(3) is None:
                port = 80 if scheme == "http" else 443
            else:
                port = int(h.group(3))
                if not 1 <= port <= 65535:
                    raise ValueError("port out of range")
            path = unquote(m.group(3)) or "/"
            query = []
            for piece in (m.group(4) or "").split("&"):
                if piece:
                    name, _, value = piece.partition("=")
                    query.append((unquote_plus(name), unquote_plus(value)))
            return (scheme, host, port, path, query)
        ''',
        signature=sig("str(chars='htps:/.a1[]?=&#%@ ', max=24)", returns="tuple[str(chars='htps', min=4, max=5), str(min=1), int(1..65535), str(min=1), list[tuple[str, str]]]"),
        tests=[
            C(["HTTPS://Example.COM:8443/a%20b?x=1&y=&z#frag"],
              ("https", "example.com", 8443, "/a b", [("x", "1"), ("y", ""), ("z", "")])),
            C(["http://example.com"], ("http", "example.com", 80, "/", [])),
            C(["https://[::1]/"], ("https", "::1", 443, "/", [])),
            C(["http://[::1]:8080"], ("http", "::1", 8080, "/", [])),
            C(["http://h/p?q=a+b%2Bc&&q=2"], ("http", "h", 80, "/p", [("q", "a b+c"), ("q", "2")])),
            C(["http://h?q=1"], ("http", "h", 80, "/", [("q", "1")]), name="query without path"),
            C(["http://h:080/"], ("http", "h", 80, "/", []), name="leading zeros in port"),
            C(["ftp://example.com/"], raises="ValueError"),
            C(["http://user@example.com/"], raises="ValueError"),
            C(["http://example.com:99999/"], raises="ValueError"),
            C(["http://example.com:0/"], raises="ValueError"),
            C(["http://h:/"], raises="ValueError", name="empty port"),
            C(["http:///path"], raises="ValueError", name="no host"),
            C(["http://exa mple.com/"], raises="ValueError", name="space"),
            C(["http://[zz]/"], raises="ValueError"),
            C(["http://bücher.example/"], raises="ValueError", name="IDN must be given as xn--"),
            C(["http://xn--bcher-kva.example/%C3%A9"], ("http", "xn--bcher-kva.example", 80, "/é", [])),
            C(["http://h/caf%C3"], ("http", "h", 80, "/caf\ufffd", []), name="invalid UTF-8 escape"),
            C([""], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        fuzz={"seeds": [["http://a.b:1/?x"], ["https://[2001:db8::1]:8443/p%2Fq?a=%E2%82%AC#f"]]},
        tags=TAGS,
    ),
    task(
        "parse_duration",
        entry_point="parse_duration",
        prompt='''
        def parse_duration(text: str) -> int:
            """Parse a duration like "1d2h30m15s" and return it in seconds.

            The text is one or more <ASCII digits><unit> groups, units d (86400 s), h, m, s,
            in that order, each unit at most once; no spaces, no sign. "0s" is 0. Raise
            ValueError for an empty string, a unit out of order or repeated, a group without
            digits, or any other character.

            >>> parse_duration("1h30m")
            5400
            """
        ''',
        solution='''
        def parse_duration(text: str) -> int:
            units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
            order = "dhms"
            total, last, i = 0, -1, 0
            if not text:
                raise ValueError("empty duration")
            while i < len(text):
                j = i
                while j < len(text) and "0" <= text[j] <= "9":
                    j += 1
                if j == i or j == len(text):
                    raise ValueError("expected digits followed by a unit")
                unit = text[j]
                if unit not in units or order.index(unit) <= last:
                    raise ValueError("unit unknown, repeated or out of order")
                last = order.index(unit)
                total += int(text[i:j]) * units[unit]
                i = j + 1
            return total
        ''',
        signature=sig("str(chars='0123456789dhms x', max=12)", returns="int(0..)"),
        tests=[
            C(["1h30m"], 5400),
            C(["0s"], 0),
            C(["1d2h3m4s"], 93784),
            C(["90m"], 5400, name="no normalisation needed"),
            C([""], raises="ValueError"),
            C(["30m1h"], raises="ValueError", name="out of order"),
            C(["1h1h"], raises="ValueError", name="repeated"),
            C(["h"], raises="ValueError"),
            C(["10"], raises="ValueError", name="no unit"),
            C(["-5s"], raises="ValueError"),
            C(["1h 30m"], raises="ValueError"),
            C(["٣s"], raises="ValueError", name="Arabic-Indic digit"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_query_string",
        entry_point="parse_query",
        prompt='''
        def parse_query(qs: str) -> dict[str, list[str]]:
            """Parse a URL query string (without the leading '?') into a dict mapping each
            name to the list of its values, in order of appearance.

            Pairs are separated by '&'; empty pairs are skipped; a pair without '=' has value
            ""; only the first '=' separates name and value. Names and values are decoded
            as by urllib.parse.unquote_plus ('+' is a space; %XX escapes decoded as UTF-8,
            invalid sequences replaced by U+FFFD; a '%' not followed by two hex digits kept
            as is). Dict keys appear in order of first appearance.

            >>> parse_query("a=1&b=&a=2&c")
            {'a': ['1', '2'], 'b': [''], 'c': ['']}
            """
        ''',
        solution='''
        from urllib.parse import unquote_plus


        def parse_query(qs: str) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for piece in qs.split("&"):
                if not piece:
                    continue
                name, _, value = piece.partition("=")
                out.setdefault(unquote_plus(name), []).append(unquote_plus(value))
            return out
        ''',
        signature=sig("str(chars='ab=&+%2Fé1', max=16)", returns="dict[str, list[str]]"),
        tests=[
            C(["a=1&b=&a=2&c"], {"a": ["1", "2"], "b": [""], "c": [""]}),
            C([""], {}),
            C(["&&"], {}),
            C(["q=a+b%2Bc"], {"q": ["a b+c"]}),
            C(["x=1=2"], {"x": ["1=2"]}),
            C(["caf%C3%A9=%E2%82%AC"], {"café": ["€"]}),
            C(["bad=%FF"], {"bad": ["\ufffd"]}),
            C(["=v"], {"": ["v"]}),
            C(["ключ=значение"], {"ключ": ["значение"]}),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "compare_semver",
        entry_point="compare_semver",
        prompt='''
        def compare_semver(a: str, b: str) -> int:
            """Compare two Semantic Versioning 2.0.0 versions; return -1, 0 or 1.

            A version is MAJOR.MINOR.PATCH (non-negative integers without leading zeros),
            optionally followed by '-' and dot-separated pre-release identifiers, optionally
            followed by '+' and build metadata. Precedence follows semver.org: numbers compare
            numerically; a pre-release version is lower than the same version without one;
            pre-release identifiers compare left to right, numeric ones numerically and lower
            than alphanumeric ones (compared in ASCII order), and a shorter list is lower when
            all its identifiers are equal. Build metadata is ignored. Identifiers are non-empty
            [0-9A-Za-z-]; numeric pre-release identifiers have no leading zeros. Raise
            ValueError for an invalid version.

            >>> compare_semver("1.0.0-alpha", "1.0.0")
            -1
            >>> compare_semver("1.0.0+build.1", "1.0.0+build.2")
            0
            """
        ''',
        solution='''
        import re

        _SEMVER = re.compile(
            r"(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)"
            r"(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
            r"(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
        )


        def _parse(v):
            m = _SEMVER.fullmatch(v)
            if m is None:
                raise ValueError("invalid version: " + v)
            core = tuple(int(m.group(i)) for i in (1, 2, 3))
            pre = []
            if m.group(4) is not None:
                for ident in m.group(4).split("."):
                    if ident.isdigit() and ident.isascii():
                        if len(ident) > 1 and ident[0] == "0":
                            raise ValueError("leading zero in pre-release")
                        pre.append((0, int(ident), ""))
                    else:
                        pre.append((1, 0, ident))
            return core, pre


        def compare_semver(a: str, b: str) -> int:
            (ca, pa), (cb, pb) = _parse(a), _parse(b)
            if ca != cb:
                return -1 if ca < cb else 1
            if not pa or not pb:
                if not pa and not pb:
                    return 0
                return 1 if not pa else -1
            for x, y in zip(pa, pb):
                if x != y:
                    return -1 if x < y else 1
            if len(pa) != len(pb):
                return -1 if len(pa) < len(pb) else 1
            return 0
        ''',
        signature=sig("str(chars='0123.-+a', max=12)", "str(chars='0123.-+a', max=12)", returns="int(-1..1)"),
        tests=[
            C(["1.0.0-alpha", "1.0.0"], -1),
            C(["1.0.0+build.1", "1.0.0+build.2"], 0),
            C(["1.0.0-alpha", "1.0.0-alpha.1"], -1, name="shorter pre-release is lower"),
            C(["1.0.0-alpha.1", "1.0.0-alpha.beta"], -1, name="numeric below alphanumeric"),
            C(["1.0.0-beta.11", "1.0.0-beta.2"], 1, name="numeric compare"),
            C(["1.10.0", "1.9.0"], 1),
            C(["2.0.0", "2.0.0"], 0),
            C(["1.0.0-rc.1", "1.0.0-RC.1"], 1, name="ASCII order: upper before lower"),
            C(["01.0.0", "1.0.0"], raises="ValueError"),
            C(["1.0", "1.0.0"], raises="ValueError"),
            C(["1.0.0-01", "1.0.0"], raises="ValueError"),
            C(["1.0.0-", "1.0.0"], raises="ValueError"),
            C(["1.0.0-0A", "1.0.0-1"], 1, name="0A is alphanumeric"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_int_strict",
        entry_point="parse_int_strict",
        prompt='''
        def parse_int_strict(text: str, base: int = 10) -> int:
            """Parse an integer written in `base` (2..36) strictly.

            Accepted: an optional '+' or '-', then one or more digits of the base (0-9 and
            ASCII letters a-z / A-Z for 10-35). Nothing else: no whitespace, no underscores,
            no prefixes like 0x, no non-ASCII digits. "-0" is 0. Raise ValueError for
            anything else, including a base outside 2..36.

            >>> parse_int_strict("-ff", 16)
            -255
            """
        ''',
        solution='''
        def parse_int_strict(text: str, base: int = 10) -> int:
            if not 2 <= base <= 36:
                raise ValueError("base out of range")
            sign, digits = 1, text
            if digits[:1] in ("+", "-"):
                sign = -1 if digits[0] == "-" else 1
                digits = digits[1:]
            if not digits:
                raise ValueError("no digits")
            value = 0
            for ch in digits:
                if "0" <= ch <= "9":
                    d = ord(ch) - ord("0")
                elif "a" <= ch <= "z":
                    d = ord(ch) - ord("a") + 10
                elif "A" <= ch <= "Z":
                    d = ord(ch) - ord("A") + 10
                else:
                    raise ValueError("not a digit: " + repr(ch))
                if d >= base:
                    raise ValueError("digit out of range for base")
                value = value * base + d
            return sign * value
        ''',
        signature=sig("str(chars='0129afzAZ+- _x٣', max=12)", "int(1..40)", returns="int"),
        tests=[
            C(["-ff", 16], -255),
            C(["42"], 42),
            C(["+0"], 0),
            C(["-0"], 0),
            C(["1_000"], raises="ValueError"),
            C([" 1"], raises="ValueError"),
            C([""], raises="ValueError"),
            C(["-"], raises="ValueError"),
            C(["٣"], raises="ValueError", name="Arabic-Indic digit"),
            C(["z", 36], 35),
            C(["2", 2], raises="ValueError"),
            C(["1", 37], raises="ValueError"),
            C(["123456789012345678901234567890"], 123456789012345678901234567890),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_config_lines",
        entry_point="parse_config",
        prompt='''
        def parse_config(text: str) -> dict[str, str]:
            """Parse "key = value" lines into a dict.

            Lines are separated by '\\n' (a trailing '\\r' is removed). Blank lines and lines
            whose first non-space character is '#' are skipped. Otherwise the line must contain
            '='; the key is the text before the first '=' and the value the text after it, both
            stripped of spaces and tabs. Keys must be non-empty and made of ASCII letters,
            digits, '_', '.' and '-'. Raise ValueError for a line without '=', a bad key, or a
            key given twice. Values may be empty and may contain '=' and '#'.

            >>> parse_config("a = 1\\n# c\\nb=x=y")
            {'a': '1', 'b': 'x=y'}
            """
        ''',
        solution='''
        import re

        _KEY = re.compile(r"[A-Za-z0-9_.-]+")


        def parse_config(text: str) -> dict[str, str]:
            out: dict[str, str] = {}
            for line in text.split("\\n"):
                if line.endswith("\\r"):
                    line = line[:-1]
                stripped = line.strip(" \\t")
                if not stripped or stripped.startswith("#"):
                    continue
                if "=" not in line:
                    raise ValueError("missing '='")
                key, _, value = line.partition("=")
                key = key.strip(" \\t")
                if not _KEY.fullmatch(key):
                    raise ValueError("bad key")
                if key in out:
                    raise ValueError("duplicate key")
                out[key] = value.strip(" \\t")
            return out
        ''',
        signature=sig("str(chars='ab=# \\n\\r\\t.é', max=20)", returns="dict[str(min=1), str]"),
        tests=[
            C(["a = 1\n# c\nb=x=y"], {"a": "1", "b": "x=y"}),
            C([""], {}),
            C(["\n\n   \n"], {}),
            C(["a=1\r\nb=2\r\n"], {"a": "1", "b": "2"}, name="CRLF"),
            C(["a=1\na=2"], raises="ValueError", name="duplicate"),
            C(["novalue"], raises="ValueError"),
            C([" = x"], raises="ValueError", name="empty key"),
            C(["clé=v"], raises="ValueError", name="non-ASCII key"),
            C(["k = café # not a comment"], {"k": "café # not a comment"}),
            C(["\tk.x-y_z\t=\t"], {"k.x-y_z": ""}),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_hex_color",
        entry_point="parse_hex_color",
        prompt='''
        def parse_hex_color(text: str) -> tuple[int, int, int]:
            """Parse a CSS hex colour "#rgb" or "#rrggbb" (hex digits in either case) into
            (red, green, blue), each 0..255. In the short form each digit is doubled ("#fa0"
            is (255, 170, 0)). Raise ValueError for anything else (missing '#', other lengths,
            non-hex or non-ASCII characters, surrounding whitespace).

            >>> parse_hex_color("#1A2b3C")
            (26, 43, 60)
            """
        ''',
        solution='''
        _HEX = "0123456789abcdefABCDEF"


        def parse_hex_color(text: str) -> tuple[int, int, int]:
            if not text.startswith("#") or len(text) not in (4, 7):
                raise ValueError("expected #rgb or #rrggbb")
            digits = text[1:]
            if any(c not in _HEX for c in digits):
                raise ValueError("not a hex digit")
            if len(digits) == 3:
                digits = "".join(c * 2 for c in digits)
            return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))
        ''',
        signature=sig("str(chars='#0f9AFg ', max=8)", returns="tuple[int(0..255), int(0..255), int(0..255)]"),
        tests=[
            C(["#1A2b3C"], (26, 43, 60)),
            C(["#fa0"], (255, 170, 0)),
            C(["#000000"], (0, 0, 0)),
            C(["#FFF"], (255, 255, 255)),
            C(["123456"], raises="ValueError"),
            C(["#12345"], raises="ValueError"),
            C(["#ggg"], raises="ValueError"),
            C([" #fff"], raises="ValueError"),
            C(["#１２３"], raises="ValueError", name="fullwidth digits"),
            C([""], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
