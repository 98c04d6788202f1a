"""Built-in tasks: numbers (rounding, money, means, integer formatting)."""

import math

from _dsl import C, P, sig, task

TAGS = ["numbers"]

TASKS = [
    task(
        "round_half_even",
        entry_point="round_half_even",
        prompt='''
        def round_half_even(value: str, places: int) -> str:
            """Round a decimal number given as text to `places` digits after the point
            (0 <= places <= 20), rounding ties to the even digit (banker's rounding), exactly
            (no binary floating point). The input is an optional '-', ASCII digits, and
            optionally '.' followed by digits ("1.", ".5" and exponents are invalid). The result
            has exactly `places` digits after the point (no point when places == 0) and no
            leading zeros other than a single "0" before the point; a result equal to zero is
            written without a sign. Raise ValueError for invalid input.

            >>> round_half_even("2.675", 2)
            '2.68'
            >>> round_half_even("-0.5", 0)
            '0'
            """
        ''',
        solution='''
        import re
        from decimal import ROUND_HALF_EVEN, Decimal, localcontext

        _NUM = re.compile(r"-?[0-9]+(\\.[0-9]+)?")


        def round_half_even(value: str, places: int) -> str:
            if not _NUM.fullmatch(value) or not 0 <= places <= 20:
                raise ValueError("invalid number or places")
            with localcontext() as ctx:
                ctx.prec = len(value) + places + 5
                q = Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
            if q == 0:
                q = abs(q)
            return f"{q:f}"
        ''',
        signature=sig("str(chars='0123456789.-5', max=10)", "int(-1..21)", returns="str"),
        tests=[
            C(["2.675", 2], "2.68"),
            C(["2.665", 2], "2.66"),
            C(["-0.5", 0], "0", name="negative zero written as 0"),
            C(["-2.5", 0], "-2"),
            C(["-3.5", 0], "-4"),
            C(["0.125", 2], "0.12"),
            C(["7", 3], "7.000"),
            C(["007.10", 1], "7.1", name="leading zeros"),
            C(["-0.004", 2], "0.00"),
            C(["99.995", 2], "100.00"),
            C(["1.", 0], raises="ValueError"),
            C([".5", 0], raises="ValueError"),
            C(["1e3", 0], raises="ValueError"),
            C(["1", 21], raises="ValueError"),
            C(["123456789012345678901234567890.5", 0], "123456789012345678901234567890", name="long input stays exact"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "parse_money_cents",
        entry_point="parse_money",
        prompt='''
        def parse_money(text: str) -> int:
            """Parse an amount of dollars into integer cents, exactly.

            Form: an optional '-', an optional '$', then the integer part: ASCII digits, either
            plain ("1234") or grouped in threes with commas ("1,234,567", first group 1-3
            digits, no leading zero unless the number is 0); then optionally '.' and exactly 1
            or 2 digits. No spaces. "-$0" is 0. Raise ValueError for anything else.

            >>> parse_money("$1,234.5")
            123450
            >>> parse_money("-$0.07")
            -7
            """
        ''',
        solution='''
        import re

        _MONEY = re.compile(r"(-?)\\$?((?:0|[1-9][0-9]*)|[1-9][0-9]{0,2}(?:,[0-9]{3})+)(?:\\.([0-9]{1,2}))?")


        def parse_money(text: str) -> int:
            m = _MONEY.fullmatch(text)
            if m is None:
                raise ValueError("not an amount")
            dollars = int(m.group(2).replace(",", ""))
            cents = int((m.group(3) or "0").ljust(2, "0"))
            total = dollars * 100 + cents
            return -total if m.group(1) else total
        ''',
        signature=sig("str(chars='0123456789$,.-', max=10)", returns="int"),
        tests=[
            C(["$1,234.5"], 123450),
            C(["-$0.07"], -7),
            C(["0"], 0),
            C(["-$0"], 0, name="negative zero"),
            C(["1234567.89"], 123456789),
            C(["$1,23"], raises="ValueError", name="bad grouping"),
            C(["1,234,56"], raises="ValueError"),
            C(["01"], raises="ValueError", name="leading zero"),
            C(["$.50"], raises="ValueError"),
            C(["1.234"], raises="ValueError", name="3 decimals"),
            C(["$-1"], raises="ValueError", name="sign after $"),
            C([""], raises="ValueError"),
            C(["0.1"], 10),
            C(["９"], raises="ValueError", name="fullwidth digit"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "allocate_cents",
        entry_point="allocate_cents",
        prompt='''
        def allocate_cents(total: int, weights: list[int]) -> list[int]:
            """Split `total` cents (>= 0) into parts proportional to non-negative integer
            `weights`, so that the parts sum exactly to `total`. Each part first gets the floor
            of its exact share total * w / sum(weights); the cents left over go one each to the
            parts with the largest fractional remainders, ties to the lower index. Raise
            ValueError if total < 0, weights is empty, a weight is negative, or all weights are
            zero.

            >>> allocate_cents(100, [1, 1, 1])
            [34, 33, 33]
            """
        ''',
        solution='''
        def allocate_cents(total: int, weights: list[int]) -> list[int]:
            if total < 0 or not weights or any(w < 0 for w in weights) or sum(weights) == 0:
                raise ValueError("invalid total or weights")
            s = sum(weights)
            parts = [total * w // s for w in weights]
            remainders = [total * w % s for w in weights]
            left = total - sum(parts)
            order = sorted(range(len(weights)), key=lambda i: (-remainders[i], i))
            for i in order[:left]:
                parts[i] += 1
            return parts
        ''',
        signature=sig("int(-1..1000)", "list[int(-1..5)](max=5)", returns="list[int(0..)]"),
        tests=[
            C([100, [1, 1, 1]], [34, 33, 33]),
            C([0, [1, 2]], [0, 0]),
            C([5, [0, 1]], [0, 5]),
            C([10, [3, 3, 4]], [3, 3, 4]),
            C([1, [1, 1]], [1, 0], name="tie to lower index"),
            C([7, [1, 2, 4]], [1, 2, 4]),
            C([100, [1, 2]], [33, 67], name="largest remainder"),
            C([10, []], raises="ValueError"),
            C([10, [0, 0]], raises="ValueError"),
            C([-1, [1]], raises="ValueError"),
            C([10, [2, -1]], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "stable_mean",
        entry_point="stable_mean",
        prompt='''
        def stable_mean(values: list[float]) -> float:
            """Return the arithmetic mean of finite floats without intermediate overflow or
            needless rounding error: the mean of [1e308, 1e308] is 1e308 (a naive sum
            overflows to inf), and the mean of [1e16, 1.0, -1e16] is 1/3. The result is within
            1e-12 relative error of the exact mean. Raise ValueError for an empty list or a
            nan/inf value.

            >>> stable_mean([1.0, 2.0, 4.0])
            2.3333333333333335
            """
        ''',
        solution='''
        import math
        from fractions import Fraction


        def stable_mean(values: list[float]) -> float:
            if not values:
                raise ValueError("mean of an empty list")
            if not all(math.isfinite(v) for v in values):
                raise ValueError("non-finite value")
            # exact rational sum, one rounding at the end: the correctly rounded mean
            return float(sum(Fraction(v) for v in values) / len(values))
        ''',
        signature=sig("list[float](max=6)", returns="float(finite)"),
        tests=[
            C([[1.0, 2.0, 4.0]], 7.0 / 3.0, rtol=1e-12),
            C([[1e308, 1e308]], 1e308, rtol=1e-12, name="no overflow"),
            C([[1e16, 1.0, -1e16]], 1.0 / 3.0, rtol=1e-12, name="cancellation"),
            C([[-1e308, -1e308, 1e308]], -1e308 / 3, rtol=1e-12),
            C([[5.0]], 5.0),
            C([[0.1, 0.2]], 0.15, rtol=1e-12),
            C([[]], raises="ValueError"),
            C([[1.0, math.nan]], raises="ValueError"),
            C([[math.inf]], raises="ValueError"),
            C([[-0.0]], -0.0),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", rtol=1e-12, same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "compound_interest_cents",
        entry_point="compound_cents",
        prompt='''
        def compound_cents(principal: int, rate_bp: int, periods: int) -> int:
            """Compound `principal` cents for `periods` periods at `rate_bp` basis points per
            period (1 bp = 0.01%; negative rates allowed, down to -10000). After each period
            the balance becomes balance * (10000 + rate_bp) / 10000 rounded to a whole cent,
            ties to even, computed exactly with integers. Raise ValueError if principal < 0,
            periods < 0 or rate_bp < -10000.

            >>> compound_cents(10000, 500, 2)
            11025
            >>> compound_cents(1, 5000, 1)
            2
            """
        ''',
        solution='''
        def compound_cents(principal: int, rate_bp: int, periods: int) -> int:
            if principal < 0 or periods < 0 or rate_bp < -10000:
                raise ValueError("invalid arguments")
            balance = principal
            factor = 10000 + rate_bp
            for _ in range(periods):
                q, r = divmod(balance * factor, 10000)
                if 2 * r > 10000 or (2 * r == 10000 and q % 2 == 1):
                    q += 1
                balance = q
            return balance
        ''',
        signature=sig("int(-1..100000)", "int(-10001..10000)", "int(-1..30)", returns="int(0..)"),
        tests=[
            C([10000, 500, 2], 11025),
            C([1, 5000, 1], 2, name="1.5 rounds to 2"),
            C([5, 5000, 1], 8, name="7.5 rounds to 8"),
            C([3, 5000, 1], 4, name="4.5 rounds to 4"),
            C([0, 500, 10], 0),
            C([12345, 0, 100], 12345),
            C([10000, -10000, 1], 0),
            C([101, -5000, 1], 50, name="50.5 rounds to 50"),
            C([100, 100, 0], 100),
            C([-1, 100, 1], raises="ValueError"),
            C([1, 100, -1], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "roman_numerals",
        entry_point="to_roman",
        prompt='''
        def to_roman(n: int) -> str:
            """Write 1 <= n <= 3999 in standard Roman numerals (subtractive forms IV, IX, XL,
            XC, CD, CM; upper case). Raise ValueError outside that range.

            >>> to_roman(1994)
            'MCMXCIV'
            """
        ''',
        solution='''
        _VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                   (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


        def to_roman(n: int) -> str:
            if not 1 <= n <= 3999:
                raise ValueError("out of range")
            out = []
            for value, letters in _VALUES:
                count, n = divmod(n, value)
                out.append(letters * count)
            return "".join(out)


        def from_roman(text: str) -> int:
            total, i = 0, 0
            for value, letters in _VALUES:
                while text.startswith(letters, i):
                    total += value
                    i += len(letters)
            return total
        ''',
        signature=sig("int(-5..4005)", returns="str(chars='MDCLXVI', min=1)"),
        tests=[
            C([1994], "MCMXCIV"),
            C([1], "I"),
            C([3999], "MMMCMXCIX"),
            C([4], "IV"),
            C([40], "XL"),
            C([0], raises="ValueError"),
            C([4000], raises="ValueError"),
            C([-1], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("roundtrip", inverse="from_roman"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "is_prime",
        entry_point="is_prime",
        prompt='''
        def is_prime(n: int) -> bool:
            """Whether n is prime. n may be any int below 2**64 (negative, 0 and 1 are not
            prime); answer exactly and within a few milliseconds for every such n.

            >>> is_prime(97)
            True
            """
        ''',
        solution='''
        def is_prime(n: int) -> bool:
            if n < 2:
                return False
            small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
            for p in small:
                if n % p == 0:
                    return n == p
            d, s = n - 1, 0
            while d % 2 == 0:
                d //= 2
                s += 1
            for a in small:  # deterministic for n < 3.3e24
                x = pow(a, d, n)
                if x in (1, n - 1):
                    continue
                for _ in range(s - 1):
                    x = x * x % n
                    if x == n - 1:
                        break
                else:
                    return False
            return True
        ''',
        signature=sig("int(..9223372036854775807)", returns="bool"),
        tests=[
            C([97], True),
            C([1], False),
            C([0], False),
            C([-7], False, name="negative"),
            C([2], True),
            C([561], False, name="Carmichael number"),
            C([3215031751], False, name="strong pseudoprime to bases 2,3,5,7"),
            C([18446744073709551557], True, name="largest 64-bit prime"),
            C([1000000007], True),
            C([49], False),
        ],
        properties=[P("no_raise"), P("returns_type")],
        timeout=1,
        fuzz={"max_inputs": 1000},
        tags=TAGS,
    ),
    task(
        "to_base",
        entry_point="to_base",
        prompt='''
        def to_base(n: int, base: int) -> str:
            """Write the integer n in `base` (2..36) with digits 0-9 then lower-case a-z, a
            leading '-' for negatives, "0" for zero. Raise ValueError for another base.

            >>> to_base(-255, 16)
            '-ff'
            """
        ''',
        solution='''
        _DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


        def to_base(n: int, base: int) -> str:
            if not 2 <= base <= 36:
                raise ValueError("base out of range")
            if n == 0:
                return "0"
            sign = "-" if n < 0 else ""
            n = abs(n)
            out = []
            while n:
                n, r = divmod(n, base)
                out.append(_DIGITS[r])
            return sign + "".join(reversed(out))
        ''',
        signature=sig("int", "int(0..40)", returns="str"),
        tests=[
            C([-255, 16], "-ff"),
            C([0, 2], "0"),
            C([5, 2], "101"),
            C([35, 36], "z"),
            C([-1, 10], "-1"),
            C([2**64, 16], "10000000000000000"),
            C([10, 1], raises="ValueError"),
            C([10, 37], raises="ValueError"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "format_bytes",
        entry_point="format_bytes",
        prompt='''
        def format_bytes(n: int) -> str:
            """Format a byte count for humans with binary units. Below 1024: "<n> B". Else
            pick the largest unit among KiB, MiB, GiB, TiB, PiB, EiB whose size (1024**k) is
            <= n, and write n / size with exactly one decimal, rounded half to even exactly,
            then a space and the unit (so 1048575 is "1024.0 KiB"). Raise ValueError for n < 0.

            >>> format_bytes(1536)
            '1.5 KiB'
            """
        ''',
        solution='''
        def format_bytes(n: int) -> str:
            if n < 0:
                raise ValueError("negative size")
            if n < 1024:
                return f"{n} B"
            units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
            k = 1
            while k < len(units) and 1024 ** (k + 1) <= n:
                k += 1
            size = 1024 ** k
            q, r = divmod(n * 10, size)
            if 2 * r > size or (2 * r == size and q % 2 == 1):
                q += 1
            return f"{q // 10}.{q % 10} {units[k - 1]}"
        ''',
        signature=sig("int(-1..)", returns="str"),
        tests=[
            C([1536], "1.5 KiB"),
            C([0], "0 B"),
            C([1023], "1023 B"),
            C([1024], "1.0 KiB"),
            C([1048575], "1024.0 KiB", name="unit chosen before rounding"),
            C([1048576], "1.0 MiB"),
            C([1075], "1.0 KiB", name="1.0498 rounds down"),
            C([1126], "1.1 KiB"),
            C([2**70], "1024.0 EiB", name="beyond EiB stays EiB"),
            C([-1], raises="ValueError"),
            C([1024**6], "1.0 EiB"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError"]}), P("returns_type"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
