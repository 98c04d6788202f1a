/*
 * Pre-scan of Python source: checks on the raw text that run before tree-sitter parses it.
 * Refuses bracket nesting tree-sitter cannot survive and finds the indentation errors Python
 * raises but tree-sitter accepts.
 */
#include "prescan.h"

#include <stdbool.h>
#include <string.h>

#define PRESCAN_MAX_INDENT 100 /* CPython: "too many levels of indentation" */

static void prescan__fail(sg_prescan *r, sg_prescan_kind k, uint32_t row, uint32_t col, const char *msg)
{
    if (r->kind == SG_PRESCAN_OK) {
        r->kind = k;
        r->row = row;
        r->column = col;
        r->message = msg;
    }
}

/* The characters the rest of a line looks at; a run of any other character only sets `last`, to
 * its last one that is not a space (2), or leaves it. */
static const unsigned char prescan__special[256] = {
    ['\n'] = 1, ['#'] = 1, ['\\'] = 1, ['\''] = 1, ['"'] = 1, ['('] = 1, ['['] = 1, ['{'] = 1,
    [')'] = 1,  [']'] = 1, ['}'] = 1,  [' '] = 2,  ['\t'] = 2, ['\r'] = 2, ['\f'] = 2,
};

void sg_python_prescan(const char *s, size_t n, unsigned limit, sg_prescan *r)
{
    memset(r, 0, sizeof *r);
    unsigned depth = 0;
    uint32_t row = 0;
    size_t i = 0;
    /* indentation stacks measured with tab size 8 and 1 (CPython's consistency check) */
    unsigned st8[PRESCAN_MAX_INDENT + 1] = {0}, st1[PRESCAN_MAX_INDENT + 1] = {0};
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
                        prescan__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                    else if (!expect_indent)
                        prescan__fail(r, SG_PRESCAN_INDENT, row, col, "unexpected indent");
                    else if (sp + 1 >= PRESCAN_MAX_INDENT) /* CPython: indent + 1 >= MAXINDENT */
                        prescan__fail(r, SG_PRESCAN_TOO_DEEP, row, col, "too many levels of indentation");
                    else {
                        sp++;
                        st8[sp] = w8;
                        st1[sp] = w1;
                    }
                } else if (expect_indent) {
                    prescan__fail(r, SG_PRESCAN_INDENT, row, col, "expected an indented block");
                } else {
                    if (w8 == st8[sp] && w1 != st1[sp])
                        prescan__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                    while (sp > 0 && w8 < st8[sp])
                        sp--;
                    if (w8 != st8[sp])
                        prescan__fail(r, SG_PRESCAN_INDENT, row, col,
                                      "unindent does not match any outer indentation level");
                    else if (w1 != st1[sp])
                        prescan__fail(r, SG_PRESCAN_INDENT, row, col, "inconsistent use of tabs and spaces in indentation");
                }
                expect_indent = false;
                last = 0;
            }
        }
        continuation = false;
        /* The rest of the physical line (strings may run over several). */
        while (i < n && r->kind == SG_PRESCAN_OK) {
            char c = s[i];
            if (prescan__special[(unsigned char)c] != 1) { /* names, operators, spaces: most of a line */
                size_t j = i + 1;
                while (j < n && prescan__special[(unsigned char)s[j]] != 1)
                    j++;
                for (size_t k = j; k > i; k--)
                    if (!prescan__special[(unsigned char)s[k - 1]]) {
                        last = s[k - 1];
                        break;
                    }
                i = j;
                continue;
            }
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
                    prescan__fail(r, SG_PRESCAN_TOO_DEEP, row, (uint32_t)(i - ls), "brackets nested too deeply");
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
        prescan__fail(r, SG_PRESCAN_INDENT, row, 0, "expected an indented block");
}
