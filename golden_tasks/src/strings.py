"""Built-in tasks: strings (Unicode, escaping)."""

from _dsl import C, P, sig, task

TAGS = ["strings"]

TASKS = [
    task(
        "normalize_key",
        entry_point="normalize_key",
        prompt='''
        def normalize_key(text: str) -> str:
            """Normalise a user-supplied name for case-insensitive, compatibility-insensitive
            lookup: apply Unicode NFKC, then str.casefold(), then NFKC again; then split on
            whitespace (str.split() with no argument) and join the pieces with single spaces.

            >>> normalize_key("  Straße\\u2003ＡＢＣ ")
            'strasse abc'
            """
        ''',
        solution='''
        import unicodedata


        def normalize_key(text: str) -> str:
            folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
            return " ".join(folded.split())
        ''',
        signature=sig("str", returns="str"),
        tests=[
            C(["  Straße\u2003ＡＢＣ "], "strasse abc"),
            C([""], ""),
            C(["   "], ""),
            C(["e\u0301"], "é", name="combining sequence composes"),
            C(["ﬁle"], "file", name="ligature"),
            C(["ΣΊΣΥΦΟΣ"], "σίσυφοσ", name="final sigma is folded to sigma"),
            C(["a\tb\nc"], "a b c"),
            C(["Ⅻ"], "xii", name="roman numeral compatibility"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "strip_accents",
        entry_point="strip_accents",
        prompt='''
        def strip_accents(text: str) -> str:
            """Remove diacritics: decompose with NFD, drop every nonspacing mark (Unicode
            category Mn), and recompose with NFC. Other characters are kept (letters such as
            'ø' or 'ß' that have no decomposition stay as they are).

            >>> strip_accents("Crème Brûlée")
            'Creme Brulee'
            """
        ''',
        solution='''
        import unicodedata


        def strip_accents(text: str) -> str:
            decomposed = unicodedata.normalize("NFD", text)
            kept = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
            return unicodedata.normalize("NFC", kept)
        ''',
        signature=sig("str", returns="str"),
        tests=[
            C(["Crème Brûlée"], "Creme Brulee"),
            C([""], ""),
            C(["øßŁ"], "øßŁ", name="no decomposition"),
            C(["e\u0301\u0301"], "e"),
            C(["Ångström"], "Angstrom"),
            C(["ǅ"], "ǅ", name="titlecase digraph has no Mn"),
            C(["한국어"], "한국어", name="Hangul recomposes"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "escape_html",
        entry_point="escape_html",
        prompt='''
        def escape_html(text: str) -> str:
            """Escape text for an HTML element or a quoted attribute: replace & with &amp;,
            < with &lt;, > with &gt;, " with &quot; and ' with &#x27;. Nothing else changes.

            >>> escape_html('<a href="x">Tom & Jerry\\'s</a>')
            '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#x27;s&lt;/a&gt;'
            """
        ''',
        solution='''
        def escape_html(text: str) -> str:
            return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                    .replace('"', "&quot;").replace("'", "&#x27;"))
        ''',
        signature=sig("str(chars='<>&\\'\"a;#x é', max=12)", returns="str"),
        tests=[
            C(['<a href="x">Tom & Jerry\'s</a>'], "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#x27;s&lt;/a&gt;"),
            C([""], ""),
            C(["&amp;"], "&amp;amp;", name="already escaped text is escaped again"),
            C(["café ☕"], "café ☕"),
            C(["<<>>"], "&lt;&lt;&gt;&gt;"),
            C(["'\""], "&#x27;&quot;"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("roundtrip", inverse="html.unescape")],
        tags=TAGS,
    ),
    task(
        "shell_quote",
        entry_point="shell_quote",
        prompt='''
        def shell_quote(arg: str) -> str:
            """Quote one argument for a POSIX shell command line, so that the shell reads it
            back as exactly `arg`. If `arg` is non-empty and made only of ASCII letters,
            digits and the characters @%+=:,./-_ return it unchanged; otherwise wrap it in
            single quotes, writing each single quote inside as '"'"'. The empty string
            becomes ''.

            >>> print(shell_quote("it's"))
            'it'"'"'s'
            """
        ''',
        solution='''
        import re
        import shlex

        _SAFE = re.compile(r"[A-Za-z0-9@%+=:,./_-]+")


        def shell_quote(arg: str) -> str:
            if _SAFE.fullmatch(arg):
                return arg
            return "'" + arg.replace("'", "'\\"'\\"'") + "'"


        def shell_unquote(text: str) -> str:
            words = shlex.split(text)
            return words[0] if words else ""
        ''',
        signature=sig("str(chars='a1 \\'\"$`;\\\\é*-', max=10)", returns="str"),
        tests=[
            C(["it's"], "'it'\"'\"'s'"),
            C([""], "''", name="empty"),
            C(["plain-file_1.txt"], "plain-file_1.txt"),
            C(["a b"], "'a b'"),
            C(["$(rm -rf /)"], "'$(rm -rf /)'"),
            C(["é"], "'é'", name="non-ASCII is quoted"),
            C(["'"], "''\"'\"''"),
            C(["--flag=x"], "--flag=x"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("roundtrip", inverse="shell_unquote")],
        tags=TAGS,
    ),
    task(
        "json_string_literal",
        entry_point="json_string",
        prompt='''
        def json_string(text: str) -> str:
            r"""Return `text` as a JSON string literal that uses only ASCII: wrap it in
            double quotes; write " as \\", a backslash as \\\\, and U+0008, U+000C, U+000A,
            U+000D, U+0009 as \\b \\f \\n \\r \\t; write every other character below U+0020,
            DEL (U+007F) and every non-ASCII character as \\u followed by 4 lower-case hex
            digits, characters above U+FFFF as a UTF-16 surrogate pair of two such escapes.
            This is what json.dumps(text) produces.

            >>> print(json_string('é"\\\\'))
            "\\u00e9\\"\\\\"
            """
        ''',
        solution='''
        def json_string(text: str) -> str:
            simple = {'"': '\\\\"', "\\\\": "\\\\\\\\", "\\b": "\\\\b", "\\f": "\\\\f",
                      "\\n": "\\\\n", "\\r": "\\\\r", "\\t": "\\\\t"}
            out = ['"']
            for ch in text:
                cp = ord(ch)
                if ch in simple:
                    out.append(simple[ch])
                elif 0x20 <= cp < 0x7F:
                    out.append(ch)
                elif cp < 0x10000:
                    out.append("\\\\u%04x" % cp)
                else:
                    cp -= 0x10000
                    out.append("\\\\u%04x\\\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
            out.append('"')
            return "".join(out)
        ''',
        signature=sig("str", returns="str(ascii)"),
        tests=[
            C(['é"\\n'], '"\\u00e9\\"\\\\n"'),
            C([""], '""'),
            C(["\n\t\x00"], '"\\n\\t\\u0000"'),
            C(["😀"], '"\\ud83d\\ude00"', name="astral: surrogate pair"),
            C(["\x7f/"], '"\\u007f/"', name="DEL escaped, slash not"),
            C(["\u2028"], '"\\u2028"'),
            C(["ABC"], '"ABC"'),
        ],
        properties=[P("no_raise"), P("returns_type"), P("roundtrip", inverse="json.loads")],
        tags=TAGS,
    ),
    task(
        "slugify",
        entry_point="slugify",
        prompt='''
        def slugify(text: str) -> str:
            """Make a URL slug: decompose with NFKD and drop every non-ASCII character, lower-
            case, replace each run of characters other than a-z and 0-9 by a single '-', and
            strip '-' from both ends. May return "".

            >>> slugify("  Héllo, Wörld! 2024 ")
            'hello-world-2024'
            """
        ''',
        solution='''
        import re
        import unicodedata


        def slugify(text: str) -> str:
            ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
            return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
        ''',
        signature=sig("str", returns="str(chars='abcdefghijklmnopqrstuvwxyz0123456789-')"),
        tests=[
            C(["  Héllo, Wörld! 2024 "], "hello-world-2024"),
            C([""], ""),
            C(["---"], ""),
            C(["日本語"], "", name="nothing ASCII left"),
            C(["ﬁ Ⅻ"], "fi-xii", name="compatibility decomposition"),
            C(["a__b--c"], "a-b-c"),
            C(["ÆON"], "on", name="Æ has no decomposition"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("idempotent")],
        tags=TAGS,
    ),
    task(
        "word_wrap",
        entry_point="word_wrap",
        prompt='''
        def word_wrap(text: str, width: int) -> list[str]:
            """Greedy word wrap. Words are the pieces of text.split() (any whitespace
            separates). Fill each line with as many words as fit, separated by one space, in
            at most `width` characters (code points); a word longer than `width` goes alone
            on its own line, unbroken. No words: return []. Raise ValueError if width < 1.

            >>> word_wrap("the quick brown fox", 10)
            ['the quick', 'brown fox']
            """
        ''',
        solution='''
        def word_wrap(text: str, width: int) -> list[str]:
            if width < 1:
                raise ValueError("width must be at least 1")
            lines: list[str] = []
            current = ""
            for word in text.split():
                if not current:
                    current = word
                elif len(current) + 1 + len(word) <= width:
                    current += " " + word
                else:
                    lines.append(current)
                    current = word
            if current:
                lines.append(current)
            return lines
        ''',
        signature=sig("str(chars='ab é\\n', max=20)", "int(-1..8)", returns="list[str(min=1)]"),
        tests=[
            C(["the quick brown fox", 10], ["the quick", "brown fox"]),
            C(["", 5], []),
            C(["   \n ", 5], []),
            C(["abcdefgh ij", 3], ["abcdefgh", "ij"], name="long word alone"),
            C(["a b", 3], ["a b"], name="exact fit"),
            C(["a b", 2], ["a", "b"]),
            C(["héllo wörld", 5], ["héllo", "wörld"], name="code points, not bytes"),
            C(["x", 0], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "is_palindrome_unicode",
        entry_point="is_palindrome",
        prompt='''
        def is_palindrome(text: str) -> bool:
            """Whether `text` reads the same backwards, looking only at alphanumeric
            characters (str.isalnum()) after str.casefold(), compared code point by code
            point. Text with no alphanumeric character is a palindrome.

            >>> is_palindrome("A man, a plan, a canal: Panamá")
            False
            >>> is_palindrome("Ésope reste ici et se repose")
            False
            >>> is_palindrome("Was it a car or a cat I saw?")
            True
            """
        ''',
        solution='''
        def is_palindrome(text: str) -> bool:
            chars = [c for c in text.casefold() if c.isalnum()]
            return chars == chars[::-1]
        ''',
        signature=sig("str(chars='abAB ,éÉß1', max=8)", returns="bool"),
        tests=[
            C(["Was it a car or a cat I saw?"], True),
            C(["A man, a plan, a canal: Panamá"], False, name="accent matters"),
            C([""], True),
            C(["!!"], True),
            C(["Éée"], False, name="e vs é"),
            C(["Éé"], True, name="casefold of non-ASCII"),
            C(["ßSS"], True, name="casefold expands ß to ss"),
            C(["ßSa"], False),
            C(["12a21"], True),
            C(["ab"], False),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "run_length_encode",
        entry_point="rle_encode",
        prompt='''
        def rle_encode(text: str) -> list[tuple[str, int]]:
            """Run-length encode a string into (character, count) pairs, one per maximal run
            of equal code points, in order. "" gives [].

            >>> rle_encode("aaabccd")
            [('a', 3), ('b', 1), ('c', 2), ('d', 1)]
            """
        ''',
        solution='''
        def rle_encode(text: str) -> list[tuple[str, int]]:
            runs: list[tuple[str, int]] = []
            for ch in text:
                if runs and runs[-1][0] == ch:
                    runs[-1] = (ch, runs[-1][1] + 1)
                else:
                    runs.append((ch, 1))
            return runs


        def rle_decode(runs: list[tuple[str, int]]) -> str:
            return "".join(ch * n for ch, n in runs)
        ''',
        signature=sig("str(chars='aab😀é', max=12)", returns="list[tuple[str(min=1, max=1), int(1..)]]"),
        tests=[
            C(["aaabccd"], [("a", 3), ("b", 1), ("c", 2), ("d", 1)]),
            C([""], []),
            C(["x"], [("x", 1)]),
            C(["aba"], [("a", 1), ("b", 1), ("a", 1)], name="runs, not counts"),
            C(["😀😀é"], [("😀", 2), ("é", 1)], name="astral code points"),
            C(["e\u0301\u0301"], [("e", 1), ("\u0301", 2)]),
        ],
        properties=[P("no_raise"), P("returns_type"), P("roundtrip", inverse="rle_decode")],
        tags=TAGS,
    ),
    task(
        "common_prefix",
        entry_point="common_prefix",
        prompt='''
        def common_prefix(words: list[str]) -> str:
            """Return the longest common prefix (in code points) of all the words; "" for an
            empty list.

            >>> common_prefix(["interview", "internet", "interval"])
            'inter'
            """
        ''',
        solution='''
        def common_prefix(words: list[str]) -> str:
            if not words:
                return ""
            first = min(words)
            last = max(words)
            i = 0
            while i < len(first) and first[i] == last[i]:
                i += 1
            return first[:i]
        ''',
        signature=sig("list[str(chars='abé', max=4)](max=5)", returns="str"),
        tests=[
            C([["interview", "internet", "interval"]], "inter"),
            C([[]], "", name="empty list"),
            C([["solo"]], "solo"),
            C([["", "abc"]], ""),
            C([["abc", "abd", "ab"]], "ab"),
            C([["éa", "éb"]], "é"),
            C([["same", "same"]], "same"),
        ],
        properties=[P("no_raise"), P("returns_type"), P("no_mutation")],
        tags=TAGS,
    ),
    task(
        "caesar_shift",
        entry_point="caesar_shift",
        prompt='''
        def caesar_shift(text: str, shift: int) -> str:
            """Rotate the ASCII letters of `text` by `shift` places (any integer, negative
            rotates backwards), keeping case: 'z' shifted by 1 is 'a', 'A' by -1 is 'Z'.
            Every other character, non-ASCII letters included, is unchanged.

            >>> caesar_shift("Hello, World!", 3)
            'Khoor, Zruog!'
            """
        ''',
        solution='''
        def caesar_shift(text: str, shift: int) -> str:
            out = []
            for ch in text:
                if "a" <= ch <= "z":
                    out.append(chr((ord(ch) - 97 + shift) % 26 + 97))
                elif "A" <= ch <= "Z":
                    out.append(chr((ord(ch) - 65 + shift) % 26 + 65))
                else:
                    out.append(ch)
            return "".join(out)
        ''',
        signature=sig("str(chars='azAZmé ,', max=10)", "int(-60..60)", returns="str"),
        tests=[
            C(["Hello, World!", 3], "Khoor, Zruog!"),
            C(["", 5], ""),
            C(["xyz", 3], "abc"),
            C(["ABC", -1], "ZAB", name="negative shift"),
            C(["abc", 52], "abc"),
            C(["abc", -27], "zab"),
            C(["é ü", 1], "é ü", name="non-ASCII letters unchanged"),
        ],
        properties=[P("no_raise"), P("returns_type")],
        tags=TAGS,
    ),
    task(
        "truncate_utf8",
        entry_point="truncate_utf8",
        prompt='''
        def truncate_utf8(text: str, max_bytes: int) -> str:
            """Return the longest prefix of `text` whose UTF-8 encoding is at most `max_bytes`
            bytes, never cutting a code point in half. Raise ValueError if max_bytes < 0.

            >>> truncate_utf8("héllo", 2)
            'h'
            """
        ''',
        solution='''
        def truncate_utf8(text: str, max_bytes: int) -> str:
            if max_bytes < 0:
                raise ValueError("max_bytes must be >= 0")
            used = 0
            for i, ch in enumerate(text):
                size = len(ch.encode("utf-8"))
                if used + size > max_bytes:
                    return text[:i]
                used += size
            return text
        ''',
        signature=sig("str(chars='aé€😀', max=8)", "int(-1..20)", returns="str"),
        tests=[
            C(["hello world", 5], "hello"),
            C(["héllo", 2], "h"),
            C(["héllo", 3], "hé"),
            C(["", 0], ""),
            C(["abc", 0], ""),
            C(["abc", 10], "abc"),
            C(["😀a", 3], "", name="4-byte code point"),
            C(["€€", 6], "€€", name="exact fit"),
            C(["a", -1], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
