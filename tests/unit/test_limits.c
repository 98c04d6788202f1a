/* Limits of the static gate: hostile depth and size are blocked (SG002) or refused, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snipgate/snipgate.h"

typedef struct limits_fixture {
    sg_rules *rules;
} limits_fixture;

static int limits_setup(void **state)
{
    limits_fixture *f = calloc(1, sizeof *f);
    if (!f || sg_rules_new_default(&f->rules) != SG_OK)
        return -1;
    *state = f;
    return 0;
}

static int limits_teardown(void **state)
{
    limits_fixture *f = *state;
    sg_rules_free(f->rules);
    free(f);
    return 0;
}

/* prefix + open*n + middle + close*n + suffix */
static char *limits_nest(const char *prefix, const char *open, const char *middle, const char *close, size_t n,
                         const char *suffix)
{
    size_t lo = strlen(open), lc = strlen(close);
    size_t cap = strlen(prefix) + n * (lo + lc) + strlen(middle) + strlen(suffix) + 1;
    char *s = malloc(cap);
    assert_non_null(s);
    char *p = s;
    p += sprintf(p, "%s", prefix);
    for (size_t i = 0; i < n; i++, p += lo)
        memcpy(p, open, lo);
    p += sprintf(p, "%s", middle);
    for (size_t i = 0; i < n; i++, p += lc)
        memcpy(p, close, lc);
    sprintf(p, "%s", suffix);
    return s;
}

static sg_status limits_check(limits_fixture *f, const sg_options *o, const char *src, size_t len, sg_report **rep,
                              sg_diag *d)
{
    sg_checker *c;
    assert_int_equal(sg_checker_new(f->rules, o, &c), SG_OK);
    sg_diag_init(d);
    sg_status st = sg_checker_check(c, "t.py", src, len, rep, d);
    sg_checker_free(c);
    return st;
}

static bool limits_has(const sg_report *rep, const char *id)
{
    for (size_t i = 0; i < sg_report_count(rep); i++)
        if (!strcmp(sg_report_finding(rep, i)->rule_id, id))
            return true;
    return false;
}

static void test_deep_nesting(void **state)
{
    limits_fixture *f = *state;
    struct {
        const char *name, *prefix, *open, *middle, *close, *suffix;
        size_t n;
    } cases[] = {
        {"10000 parentheses", "x = ", "(", "1", ")", "\n", 10000},
        {"10000 lists", "x = ", "[", "1", "]", "\n", 10000},
        {"10000 calls", "x = ", "f(", "1", ")", "\n", 10000},
        {"10000 unary minus", "x = ", "-", "1", "", "\n", 10000},
        {"10000 not", "x = ", "not ", "y", "", "\n", 10000},
        {"10000 lambdas", "f = ", "lambda: ", "1", "", "\n", 10000},
        {"hidden eval under 10000 parens", "x = ", "(", "eval('1')", ")", "\n", 10000},
    };
    sg_options o;
    sg_options_init(&o);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *src = limits_nest(cases[i].prefix, cases[i].open, cases[i].middle, cases[i].close, cases[i].n,
                                cases[i].suffix);
        sg_report *rep = NULL;
        sg_diag d;
        sg_status st = limits_check(f, &o, src, strlen(src), &rep, &d);
        print_message("%s: status %d, blocked %d\n", cases[i].name, st, rep ? sg_report_blocked(rep) : -1);
        assert_int_equal(st, SG_OK);
        assert_true(sg_report_blocked(rep));
        /* Blocked because of the limit (or because the parser gave up: a syntax error). */
        assert_true(limits_has(rep, "SG002") || limits_has(rep, "SG001"));
        sg_report_free(rep);
        free(src);
    }
}

/* `n` nested if blocks, each indented one space more, around a harmless body. */
static char *limits_indent(size_t n)
{
    size_t cap = n * (n + 8) + 64, o = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(src + o, cap - o, "%*sif x:\n", (int)i, "");
    snprintf(src + o, cap - o, "%*sy = 1\n", (int)n, "");
    return src;
}

/* Exactly one finding: `rule` at line:column. */
static void limits_expect_only(const sg_report *rep, const char *rule, long line, long column)
{
    assert_int_equal(sg_report_count(rep), 1);
    const sg_finding *fd = sg_report_finding(rep, 0);
    assert_string_equal(fd->rule_id, rule);
    assert_int_equal(fd->line, line);
    assert_int_equal(fd->column, column);
    assert_true(fd->blocking);
}

/* CPython refuses a 100th level of indentation ("too many levels of indentation": its indent stack
 * holds MAXINDENT = 100 entries, column 0 included), so 99 nested blocks parse and 100 do not; the
 * gate's pre-scan must refuse exactly where Python does, as SG001 on the first line too deep. No
 * other rule can fire on this input (no eval): the assertions are about the depth logic only. */
static void test_deep_indentation(void **state)
{
    limits_fixture *f = *state;
    static const struct {
        size_t levels;
        long line; /* 0: passes */
    } cases[] = {{1000, 101}, {100, 101}, {99, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *src = limits_indent(cases[k].levels);
        sg_options o2;
        sg_options_init(&o2);
        sg_report *rep = NULL;
        sg_diag d;
        assert_int_equal(limits_check(f, &o2, src, strlen(src), &rep, &d), SG_OK);
        if (cases[k].line) {
            assert_true(sg_report_blocked(rep));
            /* line 101 is indented by 100 spaces: column 101 */
            limits_expect_only(rep, "SG001", cases[k].line, 101);
            assert_non_null(strstr(sg_report_finding(rep, 0)->message, "too many levels of indentation"));
        } else {
            assert_false(sg_report_blocked(rep));
            assert_int_equal(sg_report_count(rep), 0);
        }
        sg_report_free(rep);
        free(src);
    }
}

static void test_long_expression(void **state)
{
    limits_fixture *f = *state;
    size_t terms = 100000;
    char *src = malloc(terms * 2 + 16);
    assert_non_null(src);
    char *p = src + sprintf(src, "x = 1");
    for (size_t i = 1; i < terms; i++) {
        *p++ = '+';
        *p++ = '1';
    }
    strcpy(p, "\n");
    sg_options o;
    sg_options_init(&o);
    sg_report *rep = NULL;
    sg_diag d;
    assert_int_equal(limits_check(f, &o, src, strlen(src), &rep, &d), SG_OK);
    assert_true(sg_report_blocked(rep));
    assert_true(limits_has(rep, "SG002"));
    const sg_finding *fd = sg_report_finding(rep, 0);
    assert_int_equal(fd->line, 1);
    sg_report_free(rep);
    free(src);
}

/* A raised depth limit lets moderately nested benign code pass; the default blocks it. */
static void test_depth_is_configurable(void **state)
{
    limits_fixture *f = *state;
    char *src = limits_nest("x = ", "(", "1", ")", 150, "\n");
    sg_options o;
    sg_options_init(&o);
    sg_report *rep = NULL;
    sg_diag d;
    o.max_depth = 50;
    assert_int_equal(limits_check(f, &o, src, strlen(src), &rep, &d), SG_OK);
    assert_true(limits_has(rep, "SG002"));
    sg_report_free(rep);
    o.max_depth = 5000;
    assert_int_equal(limits_check(f, &o, src, strlen(src), &rep, &d), SG_OK);
    assert_false(limits_has(rep, "SG002"));
    assert_false(sg_report_blocked(rep));
    sg_report_free(rep);
    free(src);
}

static void test_max_bytes(void **state)
{
    limits_fixture *f = *state;
    sg_options o;
    sg_options_init(&o);
    assert_true(o.max_bytes >= 1024 * 1024);
    o.max_bytes = 100;
    char src[102];
    memset(src, 'a', 100);
    src[0] = '#';
    src[100] = '\n';
    src[101] = 0;
    sg_report *rep = NULL;
    sg_diag d;
    assert_int_equal(limits_check(f, &o, src, 101, &rep, &d), SG_ERR_TOO_LARGE);
    assert_int_equal(d.status, SG_ERR_TOO_LARGE);
    assert_true(d.message[0] != 0);
    assert_null(rep);
    assert_int_equal(limits_check(f, &o, src + 1, 100, &rep, &d), SG_OK);
    sg_report_free(rep);
}

/* Deterministic pseudo-random valid UTF-8 (xorshift): the gate returns, and every location is sane. */
static uint32_t limits_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_random_utf8(void **state)
{
    limits_fixture *f = *state;
    static const char *const pieces[] = {
        "(", ")", "[", "]", "{", "}", ":", "\n", "    ", "\t", "'", "\"", "\"\"\"", "#", "\\", "@", "=", "+",
        "lambda", "def ", "class ", "import ", "from ", "eval", "os.system", "getattr", "__import__", " if ", " else ",
        "f'{", "}'", "x", "1", ",", ".", "*", "**", "\xc3\xa9", "\xe2\x80\xae", "\xf0\x9f\x98\x80", "\r\n", ";",
        "```python\n", "```\n", "async ", "await ", "yield", "match ", "case ", ":=", "\xef\xbb\xbf", "\\x73",
    };
    uint32_t seed = 0x5eed1234u;
    sg_options o;
    sg_options_init(&o);
    sg_checker *c;
    assert_int_equal(sg_checker_new(f->rules, &o, &c), SG_OK);
    char buf[4096];
    for (int iter = 0; iter < 400; iter++) {
        size_t len = 0, want = 1 + limits_rand(&seed) % 2000;
        while (len < want) {
            const char *pc = pieces[limits_rand(&seed) % (sizeof pieces / sizeof pieces[0])];
            size_t pl = strlen(pc);
            if (len + pl >= sizeof buf)
                break;
            memcpy(buf + len, pc, pl);
            len += pl;
        }
        sg_report *rep = NULL;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_checker_check(c, iter % 2 ? "r.py" : "r.md", buf, len, &rep, &d);
        assert_true(st == SG_OK || st == SG_ERR_EMPTY);
        if (st != SG_OK)
            continue;
        for (size_t i = 0; i < sg_report_count(rep); i++) {
            const sg_finding *fd = sg_report_finding(rep, i);
            assert_true(fd->line >= 1 && fd->column >= 1);
            assert_true(fd->end_line > fd->line || (fd->end_line == fd->line && fd->end_column >= fd->column));
            assert_non_null(fd->snippet);
        }
        sg_report_free(rep);
    }
    sg_checker_free(c);
}

static void test_bad_arguments(void **state)
{
    limits_fixture *f = *state;
    sg_checker *c;
    sg_report *rep = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_checker_new(NULL, NULL, &c), SG_ERR_INVALID_ARG);
    assert_int_equal(sg_checker_new(f->rules, NULL, &c), SG_OK);
    assert_int_equal(sg_checker_check(c, "x.py", NULL, 5, &rep, &d), SG_ERR_INVALID_ARG);
    assert_int_equal(sg_checker_check(c, "x.py", "", 0, &rep, &d), SG_ERR_EMPTY);
    assert_int_equal(sg_checker_check(c, "x.py", "a\0b", 3, &rep, &d), SG_ERR_BINARY);
    assert_int_equal(d.offset, 1);
    sg_checker_free(c);
    sg_checker_free(NULL);
    sg_report_free(NULL);
    assert_non_null(sg_strerror((sg_status)999));
}

/* Past the cap on findings the rest are dropped: that must block, never pass. 10,001 low findings
 * (SG208, not blocking at the default fail-on) and then eval(): the eval finding is cut, and the
 * report blocks with SG002 instead of passing. */
static void test_truncated_findings_block(void **state)
{
    limits_fixture *f = *state;
    const char *line = "subprocess.run([\"ls\"])\n";
    size_t n = 10001, cap = 64 + n * strlen(line), o = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    o += (size_t)snprintf(src + o, cap - o, "import subprocess\n");
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(src + o, cap - o, "%s", line);
    snprintf(src + o, cap - o, "eval(input())\n");
    sg_options o2;
    sg_options_init(&o2);
    sg_report *rep = NULL;
    sg_diag d;
    assert_int_equal(limits_check(f, &o2, src, strlen(src), &rep, &d), SG_OK);
    assert_true(sg_report_blocked(rep));
    bool limit = false;
    for (size_t i = 0; i < sg_report_count(rep); i++) {
        const sg_finding *fd = sg_report_finding(rep, i);
        if (!strcmp(fd->rule_id, "SG002")) {
            limit = true;
            assert_true(fd->blocking);
            assert_non_null(strstr(fd->message, "not recorded"));
        }
    }
    assert_true(limit);
    sg_report_free(rep);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_nesting),      cmocka_unit_test(test_deep_indentation),
        cmocka_unit_test(test_long_expression),       cmocka_unit_test(test_truncated_findings_block),
        cmocka_unit_test(test_depth_is_configurable), cmocka_unit_test(test_max_bytes),
        cmocka_unit_test(test_random_utf8),       cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, limits_setup, limits_teardown);
}
