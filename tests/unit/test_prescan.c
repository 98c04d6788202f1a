/* parsers/prescan: the pre-scan skips runs of ordinary characters at once; it finds what the
 * character-at-a-time scan before it found (kept below as the reference), on fixed cases and on
 * random text made of the characters and pieces the scan looks at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parsers/prescan.h"

/* ---- the reference: parsers/prescan.c as of 38c19e5, renamed ---- */
#define REF_MAX_INDENT 100 /* CPython: "too many levels of indentation" */

static void ref__fail(sg_prescan *r, sg_prescan_kind k, uint32_t row, uint32_t col, const char *msg)
{
    if (r->kind == SG_PRESCAN_OK) {
        r->kind = k;
        r->row = row;
        r->column = col;
        r->message = msg;
    }
}

static void ref_prescan(const char *s, size_t n, unsigned limit, sg_prescan *r)
{
    memset(r, 0, sizeof *r);
    unsigned depth = 0;
    uint32_t row = 0;
    size_t i = 0;
    /* indentation stacks measured with tab size 8 and 1 (CPython's consistency check) */
    unsigned st8[REF_MAX_INDENT + 1] = {0}, st1[REF_MAX_INDENT + 1] = {0};
    unsigned sp = 0;
    bool expect_indent = false, continuation = false;
    char last = 0; /* last significant character of the logical line so far */
    while (i < n && r->kind == SG_PRESCAN_OK) {
        /* At the start of a physical line. */
        size_t line_start = i;
        if (depth == 0 && !continuation) {
            unsigned w8 = 0, w1 = 0;
            while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f')) {
                if (s[i] == '\t') {
                    w8 = (w8 / 8 + 1) * 8;
                    w1++;
                } else if (s[i] == ' ') {
                    w8++;
                    w1++;
                } else {
                    w8 = w1 = 0;
                }
                i++;
            }
            bool blank = i >= n || s[i] == '\n' || s[i] == '#' || (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') ||
                         (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n');
            if (!blank) {
                uint32_t col = (uint32_t)(i - line_start);
                if (w8 > st8[sp]) {
                    if (w1 <= st1[sp])
                        ref__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                    else if (!expect_indent)
                        ref__fail(r, SG_PRESCAN_INDENT, row, col, "unexpected indent");
                    else if (sp + 1 >= REF_MAX_INDENT) /* CPython: indent + 1 >= MAXINDENT */
                        ref__fail(r, SG_PRESCAN_TOO_DEEP, row, col, "too many levels of indentation");
                    else {
                        sp++;
                        st8[sp] = w8;
                        st1[sp] = w1;
                    }
                } else if (expect_indent) {
                    ref__fail(r, SG_PRESCAN_INDENT, row, col, "expected an indented block");
                } else {
                    if (w8 == st8[sp] && w1 != st1[sp])
                        ref__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                    while (sp > 0 && w8 < st8[sp])
                        sp--;
                    if (w8 != st8[sp])
                        ref__fail(r, SG_PRESCAN_INDENT, row, col,
                                      "unindent does not match any outer indentation level");
                    else if (w1 != st1[sp])
                        ref__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                }
                expect_indent = false;
                last = 0;
            }
        }
        continuation = false;
        /* The rest of the physical line (strings may run over several). */
        while (i < n && r->kind == SG_PRESCAN_OK) {
            char c = s[i];
            if (c == '\n') {
                row++;
                i++;
                break;
            }
            if (c == '#') {
                while (i < n && s[i] != '\n')
                    i++;
                continue;
            }
            if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
                continuation = true;
                i += s[i + 1] == '\r' ? 3 : 2;
                row++;
                break;
            }
            if (c == '\'' || c == '"') {
                bool triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
                i += triple ? 3 : 1;
                while (i < n) {
                    if (s[i] == '\\' && i + 1 < n) {
                        if (s[i + 1] == '\n')
                            row++;
                        i += 2;
                        continue;
                    }
                    if (s[i] == '\n') {
                        if (!triple)
                            break; /* an unterminated one-line string ends at the line */
                        row++;
                    }
                    if (s[i] == c && (!triple || (i + 2 < n && s[i + 1] == c && s[i + 2] == c))) {
                        i += triple ? 3 : 1;
                        break;
                    }
                    i++;
                }
                last = c;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                if (++depth > limit) {
                    size_t ls = i;
                    while (ls > 0 && s[ls - 1] != '\n')
                        ls--;
                    ref__fail(r, SG_PRESCAN_TOO_DEEP, row, (uint32_t)(i - ls), "brackets nested too deeply");
                    return;
                }
            } else if ((c == ')' || c == ']' || c == '}') && depth) {
                depth--;
            }
            if (c != ' ' && c != '\t' && c != '\r' && c != '\f')
                last = c;
            i++;
        }
        /* End of a physical line: a logical line ends here unless inside brackets or continued. */
        if (depth == 0 && !continuation && last) {
            expect_indent = last == ':';
            last = 0;
        }
    }
    if (r->kind == SG_PRESCAN_OK && expect_indent)
        ref__fail(r, SG_PRESCAN_INDENT, row, 0, "expected an indented block");
}

/* ---- the tests ---- */

static void same(const char *s, size_t n, unsigned limit)
{
    sg_prescan a, b;
    sg_python_prescan(s, n, limit, &a);
    ref_prescan(s, n, limit, &b);
    if (a.kind != b.kind || a.row != b.row || a.column != b.column ||
        (a.message != b.message && (!a.message || !b.message || strcmp(a.message, b.message))))
        fail_msg("%.*s\n: %d %u:%u %s, reference %d %u:%u %s", (int)n, s, a.kind, a.row, a.column,
                 a.message ? a.message : "-", b.kind, b.row, b.column, b.message ? b.message : "-");
}

static void test_fixed(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        sg_prescan_kind kind;
        uint32_t row, column;
    } cases[] = {
        {"def f():\n    return 1\n", SG_PRESCAN_OK, 0, 0},
        {"def f():\nreturn 1\n", SG_PRESCAN_INDENT, 1, 0},
        {"x = 1\n    y = 2\n", SG_PRESCAN_INDENT, 1, 4},
        {"if x:\n        a\n    b\n", SG_PRESCAN_INDENT, 2, 4},
        {"if x:\n\ta\n        b\n", SG_PRESCAN_INDENT, 2, 8},
        {"x = (1,\n  2)\ny = 'a:' # c:\n", SG_PRESCAN_OK, 0, 0},
        {"s = '''a:\n(((\n'''\nif x:\n pass\n", SG_PRESCAN_OK, 0, 0},
        {"x = f(a)[b]{c}\nif y: z\n", SG_PRESCAN_OK, 0, 0},
        {"abc_def123.x+y*z-1\nif q:\n", SG_PRESCAN_INDENT, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sg_prescan r;
        sg_python_prescan(cases[i].src, strlen(cases[i].src), SG_MAX_BRACKET_DEPTH, &r);
        if (r.kind != cases[i].kind || (r.kind && (r.row != cases[i].row || r.column != cases[i].column)))
            fail_msg("case %zu: %d at %u:%u, want %d at %u:%u", i, r.kind, r.row, r.column, cases[i].kind,
                     cases[i].row, cases[i].column);
        same(cases[i].src, strlen(cases[i].src), SG_MAX_BRACKET_DEPTH);
    }
    char deep[600];
    memset(deep, '(', sizeof deep);
    sg_prescan r;
    sg_python_prescan(deep, sizeof deep, SG_MAX_BRACKET_DEPTH, &r);
    assert_int_equal(r.kind, SG_PRESCAN_TOO_DEEP);
    assert_int_equal(r.column, SG_MAX_BRACKET_DEPTH);
    same(deep, sizeof deep, SG_MAX_BRACKET_DEPTH);
}

static void test_random_against_reference(void **state)
{
    (void)state;
    static const char *pieces[] = {"\n", "    ", "\t", " ", "#", "\\\n", "\\", "'", "\"", "'''", "\"\"\"", "(",
                                   ")", "[", "]", "{", "}", ":", "\r\n", "\f", "x", "abc", "def f():", "if a:",
                                   "return", "1", "=", "+", ".", ",", "pass", "\xc3\xa9", ""};
    const size_t np = sizeof pieces / sizeof *pieces;
    char buf[512];
    uint32_t x = 2024;
    for (int round = 0; round < 300000; round++) {
        x = x * 1103515245u + 12345u;
        size_t want = (x >> 16) % 60, n = 0;
        for (size_t k = 0; k < want; k++) {
            x = x * 1103515245u + 12345u;
            const char *p = pieces[(x >> 16) % np];
            size_t pl = p[0] ? strlen(p) : 1; /* "": one NUL byte */
            if (n + pl > sizeof buf)
                break;
            memcpy(buf + n, p, pl);
            n += pl;
        }
        x = x * 1103515245u + 12345u;
        same(buf, n, 1 + (x >> 16) % 8); /* small bracket limits too */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_random_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
