"""Built-in tasks: evaluating expressions safely, without eval()."""

from _dsl import C, P, sig, task

TAGS = ["expressions"]

TASKS = [
    task(
        "pricing_formula",
        entry_point="evaluate_price",
        prompt='''
        def evaluate_price(formula: str, env: dict[str, int]) -> int:
            """Evaluate a pricing formula exactly and return it rounded to an integer (cents),
            ties to even. Do not use eval(), exec() or compile(): parse it.

            Grammar (spaces U+0020, and no other whitespace, allowed around tokens):
                expr    = term { ("+" | "-") term }
                term    = unary { ("*" | "/") unary }
                unary   = "-" unary | primary
                primary = number | name | name "(" expr { "," expr } ")" | "(" expr ")"
                number  = digits [ "." digits ]        (ASCII digits)
                name    = [A-Za-z_][A-Za-z0-9_]*
            Names are variables from `env`, except that a name followed by "(" is a call of
            min or max (at least one argument). Arithmetic is exact (rationals, no floats);
            "/" is exact division. Errors: ValueError for a syntax error, an unknown function,
            or nesting deeper than 50 parentheses/unary minuses; KeyError for an unknown
            variable; ZeroDivisionError for division by zero.

            >>> evaluate_price("base * qty * (1 - discount / 100) + 0.5", {"base": 1999, "qty": 3, "discount": 15})
            5098
            """
        ''',
        solution='''
        import re
        from fractions import Fraction

        _TOKEN = re.compile(r" *(?:([0-9]+(?:\\.[0-9]+)?)|([A-Za-z_][A-Za-z0-9_]*)|(.))", re.DOTALL)
        _MAX_DEPTH = 50


        def _tokenize(text):
            tokens, pos = [], 0
            text = text.rstrip(" ")
            while pos < len(text):
                m = _TOKEN.match(text, pos)
                number, name, other = m.groups()
                if number is not None:
                    tokens.append(("num", Fraction(number)))
                elif name is not None:
                    tokens.append(("name", name))
                elif other in "+-*/(),":
                    tokens.append(("op", other))
                else:
                    raise ValueError("unexpected character " + repr(other))
                pos = m.end()
            tokens.append(("end", None))
            return tokens


        class _Parser:
            def __init__(self, text, env):
                self.tokens = _tokenize(text)
                self.i = 0
                self.env = env
                self.depth = 0

            def peek(self):
                return self.tokens[self.i]

            def take(self):
                tok = self.tokens[self.i]
                self.i += 1
                return tok

            def expect(self, op):
                if self.take() != ("op", op):
                    raise ValueError("expected " + op)

            def enter(self):
                self.depth += 1
                if self.depth > _MAX_DEPTH:
                    raise ValueError("nested too deeply")

            def expr(self):
                value = self.term()
                while self.peek() in (("op", "+"), ("op", "-")):
                    op = self.take()[1]
                    rhs = self.term()
                    value = value + rhs if op == "+" else value - rhs
                return value

            def term(self):
                value = self.unary()
                while self.peek() in (("op", "*"), ("op", "/")):
                    op = self.take()[1]
                    rhs = self.unary()
                    value = value * rhs if op == "*" else value / rhs
                return value

            def unary(self):
                if self.peek() == ("op", "-"):
                    self.take()
                    self.enter()
                    value = -self.unary()
                    self.depth -= 1
                    return value
                return self.primary()

            def primary(self):
                kind, val = self.take()
                if kind == "num":
                    return val
                if kind == "name":
                    if self.peek() == ("op", "("):
                        if val not in ("min", "max"):
                            raise ValueError("unknown function " + val)
                        self.take()
                        self.enter()
                        args = [self.expr()]
                        while self.peek() == ("op", ","):
                            self.take()
                            args.append(self.expr())
                        self.expect(")")
                        self.depth -= 1
                        return min(args) if val == "min" else max(args)
                    return Fraction(self.env[val])
                if (kind, val) == ("op", "("):
                    self.enter()
                    value = self.expr()
                    self.expect(")")
                    self.depth -= 1
                    return value
                raise ValueError("unexpected token")


        def evaluate_price(formula: str, env: dict[str, int]) -> int:
            parser = _Parser(formula, env)
            value = parser.expr()
            if parser.peek()[0] != "end":
                raise ValueError("trailing input")
            return round(value)
        ''',
        signature=sig("str(chars='ab1.5+-*/() ,', max=14)", "dict[str(chars='ab', min=1, max=1), int(-100..100)](max=2)",
                      returns="int"),
        tests=[
            C(["base * qty * (1 - discount / 100) + 0.5", {"base": 1999, "qty": 3, "discount": 15}], 5098),
            C(["2.5", {}], 2, name="tie to even"),
            C(["3.5", {}], 4),
            C(["-2.5", {}], -2),
            C(["1 / 3 * 3", {}], 1, name="exact rationals"),
            C(["0.1 + 0.2 - 0.3", {}], 0),
            C(["max(a, b, 7) - min(a)", {"a": 2, "b": 9}], 7),
            C(["--5", {}], 5),
            C(["(1 + 2", {}], raises="ValueError"),
            C(["", {}], raises="ValueError"),
            C(["2 ** 3", {}], raises="ValueError", name="no power operator"),
            C(["x + 1", {}], raises="KeyError"),
            C(["1 / (a - a)", {"a": 4}], raises="ZeroDivisionError"),
            C(["__import__(1)", {}], raises="ValueError"),
            C(["1.", {}], raises="ValueError"),
            C(["(" * 60 + "1" + ")" * 60, {}], raises="ValueError", name="depth limit"),
            C(["１", {}], raises="ValueError", name="fullwidth digit"),
            C(["1\t+ 1", {}], raises="ValueError", name="tab is not a space"),
            C(["  1 +2  ", {}], 3),
        ],
        properties=[P("no_raise", **{"except": ["ValueError", "KeyError", "ZeroDivisionError"]}),
                    P("returns_type"), P("no_mutation"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "eval_rpn",
        entry_point="eval_rpn",
        prompt='''
        def eval_rpn(tokens: list[str]) -> int:
            """Evaluate integer Reverse Polish Notation. Tokens are integers (an optional '-'
            then ASCII digits, e.g. "-3") or one of + - * /. Division truncates toward zero
            (-7 / 2 is -3, as in C, not Python's floor division). Exactly one value must
            remain. Raise ValueError for an unknown token, too few operands, or leftover
            values; ZeroDivisionError for division by zero.

            >>> eval_rpn(["4", "13", "5", "/", "+"])
            6
            """
        ''',
        solution='''
        import re

        _INT = re.compile(r"-?[0-9]+")


        def eval_rpn(tokens: list[str]) -> int:
            stack: list[int] = []
            for tok in tokens:
                if tok in ("+", "-", "*", "/"):
                    if len(stack) < 2:
                        raise ValueError("too few operands")
                    b = stack.pop()
                    a = stack.pop()
                    if tok == "+":
                        stack.append(a + b)
                    elif tok == "-":
                        stack.append(a - b)
                    elif tok == "*":
                        stack.append(a * b)
                    else:
                        if b == 0:
                            raise ZeroDivisionError("division by zero")
                        q = abs(a) // abs(b)
                        stack.append(q if (a < 0) == (b < 0) else -q)
                elif _INT.fullmatch(tok):
                    stack.append(int(tok))
                else:
                    raise ValueError("bad token " + repr(tok))
            if len(stack) != 1:
                raise ValueError("expression does not reduce to one value")
            return stack[0]
        ''',
        signature=sig("list[str(chars='-7203+*/', min=1, max=2)](max=7)", returns="int"),
        tests=[
            C([["4", "13", "5", "/", "+"]], 6),
            C([["-7", "2", "/"]], -3, name="truncates toward zero"),
            C([["7", "-2", "/"]], -3),
            C([["-7", "-2", "/"]], 3),
            C([["1", "2", "-"]], -1),
            C([["5"]], 5),
            C([[]], raises="ValueError", name="empty"),
            C([["1", "+"]], raises="ValueError"),
            C([["1", "2"]], raises="ValueError", name="leftover"),
            C([["1", "0", "/"]], raises="ZeroDivisionError"),
            C([["1", "x", "+"]], raises="ValueError"),
            C([["٣"]], raises="ValueError", name="non-ASCII digit"),
            C([["99999999999999999999", "3", "*"]], 299999999999999999997),
        ],
        properties=[P("no_raise", **{"except": ["ValueError", "ZeroDivisionError"]}), P("returns_type"),
                    P("no_mutation"), P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
    task(
        "eval_rule",
        entry_point="eval_rule",
        prompt='''
        def eval_rule(rule: str, facts: dict[str, int | str | bool]) -> bool:
            """Evaluate a business rule such as "country == 'DE' and (total >= 100 or vip == true)"
            against `facts`, without eval(): parse it.

            Grammar (spaces U+0020 allowed around tokens; keywords are lower case):
                rule    = andexpr { "or" andexpr }
                andexpr = notexpr { "and" notexpr }
                notexpr = "not" notexpr | "(" rule ")" | name op literal
                op      = "==" | "!=" | "<" | "<=" | ">" | ">="
                literal = ["-"] digits | "'" chars without "'" "'" | "true" | "false"
                name    = [A-Za-z_][A-Za-z0-9_]*, other than and, or, not, true, false
            Semantics: the name's value is facts[name] (KeyError if absent). == and != compare
            type and value: a bool never equals an int (true == 1 is false) and an int never
            equals a str. <, <=, >, >= need two ints or two strs (code point order), else
            ValueError. "and" and "or" evaluate left to right and stop as soon as the result is
            known (so a missing name to the right of a decided "or" is not an error). Raise
            ValueError for a syntax error or nesting deeper than 50.

            >>> eval_rule("country == 'DE' and (total >= 100 or vip == true)", {"country": "DE", "total": 50, "vip": True})
            True
            """
        ''',
        solution='''
        import re

        _TOKEN = re.compile(r" *(?:(==|!=|<=|>=|<|>|\\(|\\))|(-?[0-9]+)|'([^']*)'|([A-Za-z_][A-Za-z0-9_]*)|(.))", re.DOTALL)
        _KEYWORDS = {"and", "or", "not", "true", "false"}
        _MAX_DEPTH = 50


        def _tokenize(text):
            text = text.rstrip(" ")
            tokens, pos = [], 0
            while pos < len(text):
                m = _TOKEN.match(text, pos)
                op, number, string, word, other = m.groups()
                if op is not None:
                    tokens.append(("op", op))
                elif number is not None:
                    tokens.append(("lit", int(number)))
                elif string is not None:
                    tokens.append(("lit", string))
                elif word is not None:
                    if word in ("true", "false"):
                        tokens.append(("lit", word == "true"))
                    elif word in _KEYWORDS:
                        tokens.append(("kw", word))
                    else:
                        tokens.append(("name", word))
                else:
                    raise ValueError("unexpected character " + repr(other))
                pos = m.end()
            tokens.append(("end", None))
            return tokens


        def _compare(left, op, right):
            if op in ("==", "!="):
                same = type(left) is type(right) and left == right
                return same if op == "==" else not same
            if not ((type(left) is int and type(right) is int) or (type(left) is str and type(right) is str)):
                raise ValueError("ordering needs two ints or two strs")
            if op == "<":
                return left < right
            if op == "<=":
                return left <= right
            if op == ">":
                return left > right
            return left >= right


        class _Rule:
            """Parses to a tree first (so syntax errors are found before any evaluation)."""

            def __init__(self, text):
                self.tokens = _tokenize(text)
                self.i = 0
                self.depth = 0
                self.tree = self.rule()
                if self.tokens[self.i][0] != "end":
                    raise ValueError("trailing input")

            def take(self):
                tok = self.tokens[self.i]
                self.i += 1
                return tok

            def rule(self):
                parts = [self.andexpr()]
                while self.tokens[self.i] == ("kw", "or"):
                    self.take()
                    parts.append(self.andexpr())
                return ("or", parts) if len(parts) > 1 else parts[0]

            def andexpr(self):
                parts = [self.notexpr()]
                while self.tokens[self.i] == ("kw", "and"):
                    self.take()
                    parts.append(self.notexpr())
                return ("and", parts) if len(parts) > 1 else parts[0]

            def notexpr(self):
                kind, val = self.take()
                if (kind, val) == ("kw", "not") or (kind, val) == ("op", "("):
                    self.depth += 1
                    if self.depth > _MAX_DEPTH:
                        raise ValueError("nested too deeply")
                    if kind == "kw":
                        node = ("not", self.notexpr())
                    else:
                        node = self.rule()
                        if self.take() != ("op", ")"):
                            raise ValueError("expected )")
                    self.depth -= 1
                    return node
                if kind != "name":
                    raise ValueError("expected a name")
                op_kind, op = self.take()
                if op_kind != "op" or op in ("(", ")"):
                    raise ValueError("expected a comparison operator")
                lit_kind, lit = self.take()
                if lit_kind != "lit":
                    raise ValueError("expected a literal")
                return ("cmp", val, op, lit)


        def _eval(node, facts):
            kind = node[0]
            if kind == "cmp":
                return _compare(facts[node[1]], node[2], node[3])
            if kind == "not":
                return not _eval(node[1], facts)
            if kind == "and":
                return all(_eval(n, facts) for n in node[1])
            return any(_eval(n, facts) for n in node[1])


        def eval_rule(rule: str, facts: dict[str, int | str | bool]) -> bool:
            return _eval(_Rule(rule).tree, facts)
        ''',
        signature=sig("str(chars='ab=!<>\\'1 andortuefls()', max=16)",
                      "dict[str(chars='ab', min=1, max=1), int(-2..2) | str(chars='1a', max=1) | bool](max=2)",
                      returns="bool"),
        tests=[
            C(["country == 'DE' and (total >= 100 or vip == true)", {"country": "DE", "total": 50, "vip": True}], True),
            C(["country == 'DE' and total >= 100", {"country": "DE", "total": 50}], False),
            C(["n == 1", {"n": True}], False, name="a bool is not an int"),
            C(["n != '1'", {"n": 1}], True, name="an int is not a str"),
            C(["x == 1 or missing == 2", {"x": 1}], True, name="short-circuit or"),
            C(["x == 2 and missing == 2", {"x": 1}], False, name="short-circuit and"),
            C(["missing == 2", {}], raises="KeyError"),
            C(["a < 'b'", {"a": 1}], raises="ValueError", name="int vs str ordering"),
            C(["a < 1", {"a": True}], raises="ValueError", name="bools are not ordered"),
            C(["name >= 'é'", {"name": "ö"}], True, name="code point order"),
            C(["not not t == true", {"t": True}], True),
            C(["a == 1 or", {"a": 1}], raises="ValueError"),
            C(["x == 1 or (y ==", {"x": 1}], raises="ValueError", name="syntax checked before evaluating"),
            C(["and == 1", {"and": 1}], raises="ValueError", name="keyword as a name"),
            C(["t > -3", {"t": -2}], True, name="negative literal"),
            C(["(" * 51 + "a == 1" + ")" * 51, {"a": 1}], raises="ValueError", name="depth limit"),
            C(["a == 'x' or a == 'y' and b == 1", {"a": "x", "b": 0}], True, name="and binds tighter"),
        ],
        properties=[P("no_raise", **{"except": ["ValueError", "KeyError"]}), P("returns_type"), P("no_mutation"),
                    P("differential", same_exceptions=True)],
        tags=TAGS,
    ),
]
