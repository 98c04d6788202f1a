/* gate/render: the JSON, SARIF and text verdicts (contract fields, parseable, sanitised). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include <float.h>
#include <limits.h>
#include <math.h>

#include "base/jgen.h"
#include "snipgate/snipgate.h"

/* Two findings on lines 2 and 3, plus ANSI and bidi bytes inside a string on line 3. */
static const char render_src[] = "import os\n"
                                 "eval('1')\n"
                                 "os.system(\"\x1b[31mred \xe2\x80\xae evil\x1b]0;title\x07\")\n";

typedef struct render_fixture {
    sg_rules *rules;
    sg_report *reps[3];
    size_t n;
} render_fixture;

static sg_report *render_check(sg_rules *rules, const char *path, const char *src)
{
    sg_checker *c;
    sg_options o;
    sg_options_init(&o);
    if (sg_checker_new(rules, &o, &c) != SG_OK)
        return NULL;
    sg_report *rep = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_checker_check(c, path, src, strlen(src), &rep, &d) != SG_OK)
        rep = NULL;
    sg_checker_free(c);
    return rep;
}

static int render_setup(void **state)
{
    render_fixture *f = calloc(1, sizeof *f);
    if (!f || sg_rules_new_default(&f->rules) != SG_OK)
        return -1;
    f->reps[0] = render_check(f->rules, "dir/\"quoted\" \xc3\xa9.py", render_src);
    f->reps[1] = render_check(f->rules, "safe.py", "def add(a, b):\n    return a + b\n");
    sg_diag d;
    sg_diag_init(&d);
    d.status = SG_ERR_BINARY;
    d.offset = 3;
    snprintf(d.message, sizeof d.message, "input contains a NUL byte at offset 3");
    if (!f->reps[0] || !f->reps[1] || sg_report_new_error("bin.py", &d, &f->reps[2]) != SG_OK)
        return -1;
    f->n = 3;
    *state = f;
    return 0;
}

static int render_teardown(void **state)
{
    render_fixture *f = *state;
    for (size_t i = 0; i < f->n; i++)
        sg_report_free(f->reps[i]);
    sg_rules_free(f->rules);
    free(f);
    return 0;
}

/* Render to memory; the caller frees the text. */
static char *render_to_string(render_fixture *f, sg_format fmt, size_t n, bool color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    sg_render_opts ro = {.color = color, .elapsed_ms = 1.5, .rules = f->rules, .fail_on = SG_SEV_MEDIUM};
    assert_int_equal(sg_render(out, fmt, f->reps, n, &ro), SG_OK);
    fclose(out);
    return buf;
}

static json_t *render_json(render_fixture *f, sg_format fmt, size_t n)
{
    char *s = render_to_string(f, fmt, n, false);
    json_error_t e;
    json_t *j = json_loads(s, 0, &e);
    if (!j)
        print_error("output does not parse: %s at line %d\n%s\n", e.text, e.line, s);
    free(s);
    assert_non_null(j);
    return j;
}

static void test_json_contract(void **state)
{
    render_fixture *f = *state;
    json_t *j = render_json(f, SG_FORMAT_JSON, 3);
    assert_string_equal(json_string_value(json_object_get(j, "verdict")), "block");
    json_t *files = json_object_get(j, "files");
    assert_true(json_is_array(files));
    assert_int_equal(json_array_size(files), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(files, 0), "path")),
                        "dir/\"quoted\" \xc3\xa9.py");
    assert_string_equal(json_string_value(json_object_get(json_array_get(files, 1), "path")), "safe.py");
    assert_true(json_is_object(json_object_get(j, "stats")));

    json_t *findings = json_object_get(json_array_get(files, 0), "findings");
    assert_true(json_is_array(findings));
    assert_true(json_array_size(findings) >= 2);
    static const char *const str_fields[] = {"rule_id", "name", "severity", "confidence", "message", "snippet"};
    static const char *const int_fields[] = {"line", "column", "end_line", "end_column"};
    bool saw101 = false, saw201 = false;
    size_t i;
    json_t *fd;
    json_array_foreach(findings, i, fd) {
        for (size_t k = 0; k < sizeof str_fields / sizeof str_fields[0]; k++) {
            json_t *v = json_object_get(fd, str_fields[k]);
            if (!json_is_string(v))
                print_error("finding %zu: '%s' is not a string\n", i, str_fields[k]);
            assert_true(json_is_string(v));
        }
        for (size_t k = 0; k < sizeof int_fields / sizeof int_fields[0]; k++) {
            json_t *v = json_object_get(fd, int_fields[k]);
            assert_true(json_is_integer(v));
            assert_true(json_integer_value(v) >= 1);
        }
        assert_non_null(json_object_get(fd, "cwe"));
        const char *sev = json_string_value(json_object_get(fd, "severity"));
        assert_true(!strcmp(sev, "low") || !strcmp(sev, "medium") || !strcmp(sev, "high") ||
                    !strcmp(sev, "critical"));
        const char *id = json_string_value(json_object_get(fd, "rule_id"));
        long line = (long)json_integer_value(json_object_get(fd, "line"));
        if (!strcmp(id, "SG101")) {
            saw101 = true;
            assert_int_equal(line, 2);
            assert_int_equal(json_integer_value(json_object_get(fd, "column")), 1);
            assert_string_equal(json_string_value(json_object_get(fd, "snippet")), "eval('1')");
            const json_t *cwe = json_object_get(fd, "cwe");
            assert_true((json_is_string(cwe) && strstr(json_string_value(cwe), "95")) ||
                        (json_is_integer(cwe) && json_integer_value(cwe) == 95));
        }
        if (!strcmp(id, "SG201")) {
            saw201 = true;
            assert_int_equal(line, 3);
            /* The raw snippet survives JSON encoding byte for byte. */
            assert_non_null(strstr(json_string_value(json_object_get(fd, "snippet")), "\x1b[31mred \xe2\x80\xae"));
        }
    }
    assert_true(saw101 && saw201);
    /* The safe file has an empty findings array; the error file is reported, not dropped. */
    assert_int_equal(json_array_size(json_object_get(json_array_get(files, 1), "findings")), 0);
    json_t *err = json_object_get(json_array_get(files, 2), "error");
    assert_true(err && !json_is_null(err));
    json_decref(j);

    /* Only the safe report: the verdict is pass. */
    sg_report *saved = f->reps[0];
    f->reps[0] = f->reps[1];
    j = render_json(f, SG_FORMAT_JSON, 1);
    assert_string_equal(json_string_value(json_object_get(j, "verdict")), "pass");
    json_decref(j);
    f->reps[0] = saved;
}

static void test_sarif_contract(void **state)
{
    render_fixture *f = *state;
    json_t *j = render_json(f, SG_FORMAT_SARIF, 3);
    assert_string_equal(json_string_value(json_object_get(j, "version")), "2.1.0");
    json_t *run = json_array_get(json_object_get(j, "runs"), 0);
    assert_non_null(run);
    json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    assert_true(json_is_array(rules));
    assert_true(json_array_size(rules) >= 40);
    size_t i;
    json_t *r;
    size_t with_cwe = 0;
    json_array_foreach(rules, i, r) {
        assert_true(json_is_string(json_object_get(r, "id")));
        assert_true(json_is_string(json_object_get(json_object_get(r, "help"), "text")));
        json_t *tags = json_object_get(json_object_get(r, "properties"), "tags");
        assert_true(json_is_array(tags));
        size_t k;
        json_t *t;
        json_array_foreach(tags, k, t) {
            if (!strncmp(json_string_value(t), "external/cwe/cwe-", 17))
                with_cwe++;
        }
    }
    assert_true(with_cwe >= 30);
    json_t *results = json_object_get(run, "results");
    assert_true(json_is_array(results));
    assert_true(json_array_size(results) >= 2);
    bool saw201 = false;
    json_array_foreach(results, i, r) {
        const char *id = json_string_value(json_object_get(r, "ruleId"));
        assert_non_null(id);
        const char *level = json_string_value(json_object_get(r, "level"));
        assert_non_null(level);
        assert_true(!strcmp(level, "error") || !strcmp(level, "warning") || !strcmp(level, "note"));
        assert_true(json_is_string(json_object_get(json_object_get(r, "message"), "text")));
        json_t *region = json_object_get(
            json_object_get(json_array_get(json_object_get(r, "locations"), 0), "physicalLocation"), "region");
        assert_true(json_is_integer(json_object_get(region, "startLine")));
        assert_true(json_integer_value(json_object_get(region, "startLine")) >= 1);
        if (!strcmp(id, "SG201")) {
            saw201 = true;
            assert_int_equal(json_integer_value(json_object_get(region, "startLine")), 3);
            assert_string_equal(level, "error");
        }
        /* Every result's rule is described in the driver. */
        size_t k;
        json_t *rr;
        bool found = false;
        json_array_foreach(rules, k, rr) {
            if (!strcmp(json_string_value(json_object_get(rr, "id")), id))
                found = true;
        }
        assert_true(found);
    }
    assert_true(saw201);
    json_decref(j);
}

static void test_text_sanitised(void **state)
{
    render_fixture *f = *state;
    char *s = render_to_string(f, SG_FORMAT_TEXT, 3, false);
    print_message("%s", s);
    assert_non_null(strstr(s, ":2:1: HIGH SG101"));
    assert_non_null(strstr(s, ":3:1: HIGH SG201"));
    /* No terminal control: no ESC, no BEL, no bidi override from the snippet reaches the terminal. */
    assert_null(strchr(s, '\x1b'));
    assert_null(strchr(s, '\x07'));
    assert_null(strstr(s, "\xe2\x80\xae"));
    assert_non_null(strstr(s, "red"));
    free(s);
    /* With colour on, only the renderer's own SGR sequences appear, never the snippet's OSC. */
    s = render_to_string(f, SG_FORMAT_TEXT, 3, true);
    assert_null(strstr(s, "\x1b]0;"));
    assert_null(strstr(s, "\xe2\x80\xae"));
    free(s);
}

/* sg_render_string: the same document as sg_render (indented: the same text but the final
 * newline), compact on one line for JSONL; the text format is refused. */
static void test_render_string(void **state)
{
    render_fixture *f = *state;
    sg_render_opts ro = {.elapsed_ms = 1.5, .rules = f->rules, .fail_on = SG_SEV_MEDIUM};
    for (int fmt = SG_FORMAT_JSON; fmt <= SG_FORMAT_SARIF; fmt++) {
        char *file = render_to_string(f, (sg_format)fmt, 3, false), *ind = NULL, *comp = NULL;
        assert_int_equal(sg_render_string((sg_format)fmt, f->reps, 3, &ro, false, &ind), SG_OK);
        assert_int_equal(sg_render_string((sg_format)fmt, f->reps, 3, &ro, true, &comp), SG_OK);
        size_t n = strlen(ind);
        assert_int_equal(strlen(file), n + 1);
        assert_memory_equal(file, ind, n);
        assert_null(strchr(comp, '\n'));
        assert_true(strlen(comp) < n);
        json_error_t e;
        json_t *a = json_loads(ind, 0, &e), *b = json_loads(comp, 0, &e);
        assert_non_null(a);
        assert_non_null(b);
        assert_true(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        free(file);
        free(ind);
        free(comp);
    }
    char *t = (char *)"x";
    assert_int_equal(sg_render_string(SG_FORMAT_TEXT, f->reps, 3, &ro, true, &t), SG_ERR_INVALID_ARG);
}

/* One-report compact documents reuse the stage objects of the thread's last report with the same
 * stages (render.c's memo): in any order, with and without times, each equals the indented
 * document of the same report (never memoised). */
static void test_render_string_memo(void **state)
{
    render_fixture *f = *state;
    static const size_t order[] = {1, 1, 0, 1, 2, 2, 0, 0, 1, 2, 1};
    for (int times = 0; times < 2; times++) {
        sg_render_opts ro = {.rules = f->rules, .fail_on = SG_SEV_MEDIUM, .no_times = !times};
        for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
            sg_report *rep = f->reps[order[i]];
            char *ind = NULL, *comp = NULL;
            assert_int_equal(sg_render_string(SG_FORMAT_JSON, &rep, 1, &ro, true, &comp), SG_OK);
            assert_int_equal(sg_render_string(SG_FORMAT_JSON, &rep, 1, &ro, false, &ind), SG_OK);
            json_error_t e;
            json_t *a = json_loads(ind, 0, &e), *b = json_loads(comp, 0, &e);
            assert_non_null(a);
            assert_non_null(b);
            if (!json_equal(a, b))
                fail_msg("report %zu (step %zu, times %d): the compact document differs:\n%s\n%s", order[i], i,
                         times, comp, ind);
            json_decref(a);
            json_decref(b);
            free(ind);
            free(comp);
        }
    }
}

/* Clean documents come from a per-thread template with the path and byte count put in
 * (gate/render.c, render__tpl): byte for byte what jansson writes of the indented document. Each
 * step changes one thing from the step before (so a template made by one is tried by the next):
 * the path (quotes, control characters, non-ASCII, invalid UTF-8, empty), the code's size, the
 * blocks (a Markdown file), fail_on, the policy, the elapsed time, the stage objects (times) and
 * documents that are not clean. */
typedef struct tpl_step {
    int rep;            /* index into the step's reports */
    sg_severity fail_on;
    const char *policy;
    bool times;
    double elapsed;
} tpl_step;

static void test_render_string_template(void **state)
{
    render_fixture *f = *state;
    sg_report *reps[] = {
        render_check(f->rules, "a.py", "x = 1\n"),
        render_check(f->rules, "dir/\"q\"\\x.py", "x = 1\n"),
        render_check(f->rules, "ctl\x01\x1f.py", "x = 1\n"),
        render_check(f->rules, "\xc3\xa9t\xc3\xa9.py", "x = 1\n"),
        render_check(f->rules, "bad\xff.py", "x = 1\n"),
        render_check(f->rules, "", "x = 1\n"),
        render_check(f->rules, "a.py", "def f(a):\n    return a\n# a comment that makes it longer\n"),
        render_check(f->rules, "a.md", "```python\nx = 1\n```\n\n```python\ny = 2\n```\n"),
        render_check(f->rules, "a.py", "import subprocess\nsubprocess.run(['ls'])\n"), /* a finding, no block */
        f->reps[0], /* blocking findings */
        f->reps[2], /* an error */
    };
    const size_t nown = 9;
    for (size_t i = 0; i < nown; i++)
        assert_non_null(reps[i]);
    const tpl_step steps[] = {
        {0, SG_SEV_MEDIUM, NULL, false, 0}, {0, SG_SEV_MEDIUM, NULL, false, 0}, {1, SG_SEV_MEDIUM, NULL, false, 0},
        {2, SG_SEV_MEDIUM, NULL, false, 0}, {3, SG_SEV_MEDIUM, NULL, false, 0}, {4, SG_SEV_MEDIUM, NULL, false, 0},
        {5, SG_SEV_MEDIUM, NULL, false, 0}, {6, SG_SEV_MEDIUM, NULL, false, 0}, {7, SG_SEV_MEDIUM, NULL, false, 0},
        {0, SG_SEV_MEDIUM, NULL, false, 0}, {0, SG_SEV_HIGH, NULL, false, 0},   {0, SG_SEV_MEDIUM, NULL, false, 0},
        {0, SG_SEV_MEDIUM, "p/o \"x\".yml", false, 0}, {0, SG_SEV_MEDIUM, "other.yml", false, 0},
        {0, SG_SEV_MEDIUM, NULL, false, 0}, {0, SG_SEV_MEDIUM, NULL, false, 2.5}, {0, SG_SEV_MEDIUM, NULL, false, 3.5},
        {0, SG_SEV_MEDIUM, NULL, true, 3.5}, {0, SG_SEV_MEDIUM, NULL, true, 4.5},  {1, SG_SEV_MEDIUM, NULL, true, 4.5},
        {9, SG_SEV_MEDIUM, NULL, false, 0}, {1, SG_SEV_MEDIUM, NULL, false, 0}, {10, SG_SEV_MEDIUM, NULL, false, 0},
        {2, SG_SEV_MEDIUM, NULL, false, 0}, {2, SG_SEV_MEDIUM, NULL, false, 0}, {0, SG_SEV_MEDIUM, NULL, false, 0},
        {8, SG_SEV_MEDIUM, NULL, false, 0}, {0, SG_SEV_MEDIUM, NULL, false, 0},
    };
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        const tpl_step *st = &steps[k];
        sg_report *r = reps[st->rep];
        sg_render_opts ro = {.rules = f->rules, .fail_on = st->fail_on, .no_times = !st->times,
                             .elapsed_ms = st->elapsed, .policy_path = st->policy};
        char *ind = NULL, *comp = NULL;
        assert_int_equal(sg_render_string(SG_FORMAT_JSON, &r, 1, &ro, true, &comp), SG_OK);
        assert_int_equal(sg_render_string(SG_FORMAT_JSON, &r, 1, &ro, false, &ind), SG_OK);
        json_error_t e;
        json_t *a = json_loads(ind, 0, &e);
        assert_non_null(a);
        char *want = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER);
        assert_non_null(want);
        if (strcmp(want, comp))
            fail_msg("step %zu (report %d): the compact document differs:\n%s\n%s", k, st->rep, comp, want);
        if (st->rep == 7)
            assert_non_null(strstr(comp, "\"python_blocks\":2"));
        if (st->rep == 8)
            assert_non_null(strstr(comp, "\"verdict\":\"pass\"") && strstr(comp, "SG208"));
        json_decref(a);
        free(want);
        free(ind);
        free(comp);
    }
    for (size_t i = 0; i < nown; i++)
        sg_report_free(reps[i]);
}

/* sg_render_record_line: an audit's JSONL line, as jansson would write it, with the document whole;
 * names that are not UTF-8 make an error line about them. */
static void test_render_record_line(void **state)
{
    (void)state;
    char *l = sg_render_record_line("a\"b\x01\xc3\xa9", "f.jsonl:3", "pass", NULL, "{\"verdict\":\"pass\"}");
    assert_non_null(l);
    assert_string_equal(l, "{\"id\":\"a\\\"b\\u0001\xc3\xa9\",\"source\":\"f.jsonl:3\",\"status\":\"pass\","
                           "\"error\":null,\"verdict\":{\"verdict\":\"pass\"}}");
    free(l);
    l = sg_render_record_line("r", "s", "error", "code must be a string", NULL);
    assert_string_equal(l, "{\"id\":\"r\",\"source\":\"s\",\"status\":\"error\",\"error\":\"code must be a string\","
                           "\"verdict\":null}");
    free(l);
    const char *bad[][3] = {{"bad\xff", "s", NULL}, {"r", "s\xc0\x80", NULL}, {"r", "s", "msg \xed\xa0\x80"}};
    for (size_t i = 0; i < 3; i++) {
        l = sg_render_record_line(bad[i][0], bad[i][1], "pass", bad[i][2], "{}");
        assert_non_null(l);
        assert_string_equal(l, "{\"id\":\"<invalid UTF-8>\",\"source\":\"<invalid UTF-8>\",\"status\":\"error\","
                               "\"error\":\"the record's id or path is not valid UTF-8\",\"verdict\":{}}");
        free(l);
    }
    assert_null(sg_render_record_line(NULL, "s", "pass", NULL, NULL));
}

static void test_rules_render(void **state)
{
    render_fixture *f = *state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sg_rules_render(out, f->rules, SG_FORMAT_JSON, false), SG_OK);
    fclose(out);
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    assert_non_null(j);
    assert_true(json_is_array(j));
    assert_int_equal(json_array_size(j), sg_rules_count(f->rules));
    json_decref(j);
    free(buf);
    out = open_memstream(&buf, &len);
    assert_int_equal(sg_rules_render(out, f->rules, SG_FORMAT_TEXT, false), SG_OK);
    fclose(out);
    assert_non_null(strstr(buf, "SG201"));
    assert_non_null(strstr(buf, "CWE-78"));
    free(buf);
}

/* jansson's text of a value (the verdict's text before the streaming writer): compact, or
 * indented by 2. */
static bool jgen_indent; /* which of the writer's two forms the tests below check */

static char *jansson_text(json_t *v)
{
    assert_non_null(v);
    size_t fl = (jgen_indent ? JSON_INDENT(2) : JSON_COMPACT) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;
    char *t = json_dumps(v, fl);
    json_decref(v);
    assert_non_null(t);
    return t;
}

static char *jgen_one(void (*put)(sg_jgen *, const void *), const void *arg)
{
    sg_jgen *g = sg_jgen_new(jgen_indent);
    assert_non_null(g);
    sg_jgen_arr(g);
    put(g, arg);
    sg_jgen_arr_end(g);
    return sg_jgen_finish(g, NULL);
}

static void put_str(sg_jgen *g, const void *s)
{
    sg_jgen_str(g, s);
}

static void put_real(sg_jgen *g, const void *v)
{
    sg_jgen_real(g, *(const double *)v);
}

static void put_int(sg_jgen *g, const void *v)
{
    sg_jgen_int(g, *(const long long *)v);
}

static void assert_same_as_jansson(char *mine, json_t *v)
{
    json_t *arr = json_array();
    json_array_append_new(arr, v);
    char *ref = jansson_text(arr);
    assert_non_null(mine);
    assert_string_equal(mine, ref);
    free(mine);
    free(ref);
}

/* The streaming writer (base/jgen.h), compact (yajl) and indented (a jansson tree), writes what
 * jansson wrote for the same values: every byte, UTF-8 of every length, reals and integers at
 * their edges, nesting; and refuses what jansson refused. */
static void jgen_as_jansson(void)
{
    char s[2] = {0};
    for (int c = 1; c < 256; c++) {
        s[0] = (char)c;
        if (c < 128)
            assert_same_as_jansson(jgen_one(put_str, s), json_string(s));
        else /* a lone byte >= 0x80 is never valid UTF-8 */
            assert_same_as_jansson(jgen_one(put_str, s), json_string("<invalid UTF-8>"));
    }
    char all[128];
    for (int c = 1; c < 128; c++)
        all[c - 1] = (char)c;
    all[127] = 0;
    assert_same_as_jansson(jgen_one(put_str, all), json_string(all));
    static const char *const utf8[] = {"caf\xc3\xa9", "\xe2\x80\xae rtl \xe2\x80\xa8", "\xf0\x9f\x98\x80 emoji",
                                       "\xf4\x8f\xbf\xbf", "tab\tnl\ncr\r\"q\"\\/"};
    for (size_t i = 0; i < sizeof utf8 / sizeof *utf8; i++)
        assert_same_as_jansson(jgen_one(put_str, utf8[i]), json_string(utf8[i]));
    /* overlong, surrogate, past U+10FFFF, truncated: what jansson refuses */
    static const char *const bad[] = {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xe2\x80", "\xff"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_null(json_string(bad[i]));
        assert_same_as_jansson(jgen_one(put_str, bad[i]), json_string("<invalid UTF-8>"));
    }
    assert_same_as_jansson(jgen_one(put_str, NULL), json_null());

    static const double reals[] = {0.0, -0.0, 0.001, 0.123, 0.348, 1.0, -2.5, 1e20, 1e21, 1e-7, 123456789.123,
                                   1.5e300, -1.5e-300, 5e-324, DBL_MAX, 1e17, 12345678901234567.0, 3.0e-5};
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        assert_same_as_jansson(jgen_one(put_real, &reals[i]), json_real(reals[i]));
    static const long long ints[] = {0, -1, 1, LLONG_MIN, LLONG_MAX, 1000000};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        assert_same_as_jansson(jgen_one(put_int, &ints[i]), json_integer(ints[i]));

    /* nesting, booleans, null, empty containers and embedded jansson values, in order */
    sg_jgen *g = sg_jgen_new(jgen_indent);
    sg_jgen_map(g);
    sg_jgen_key(g, "a");
    sg_jgen_arr(g);
    sg_jgen_bool(g, true);
    sg_jgen_bool(g, false);
    sg_jgen_null(g);
    sg_jgen_map(g);
    sg_jgen_map_end(g);
    sg_jgen_arr(g);
    sg_jgen_arr_end(g);
    sg_jgen_arr_end(g);
    sg_jgen_key(g, "z");
    json_t *sub = json_pack("{s:[i, s, {}], s:f}", "x", 1, "y\n", "r", 0.5);
    sg_jgen_json(g, sub);
    json_decref(sub);
    sg_jgen_key(g, "s");
    sub = json_string("plain");
    sg_jgen_json(g, sub);
    json_decref(sub);
    sg_jgen_key(g, "b");
    sg_jgen_int(g, 2);
    sg_jgen_map_end(g);
    size_t len = 0;
    char *mine = sg_jgen_finish(g, &len);
    char *ref = jansson_text(json_pack("{s:[b, b, n, {}, []], s:{s:[i, s, {}], s:f}, s:s, s:i}", "a", 1, 0, "z",
                                       "x", 1, "y\n", "r", 0.5, "s", "plain", "b", 2));
    assert_non_null(mine);
    assert_string_equal(mine, ref);
    assert_int_equal(len, strlen(ref));
    free(mine);
    free(ref);
}

/* What fails the whole text: a real jansson could not hold, an unclosed map, a key that is not a
 * string or a value without its key, nothing written, a NULL jansson value, two roots; every call
 * after a failure does nothing. */
static void jgen_fails_whole(void)
{
    double bad[] = {NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < 3; i++)
        assert_null(jgen_one(put_real, &bad[i]));
    sg_jgen *g = sg_jgen_new(jgen_indent);
    sg_jgen_map(g);
    sg_jgen_key(g, "k");
    sg_jgen_int(g, 1);
    assert_null(sg_jgen_finish(g, NULL)); /* not closed */
    g = sg_jgen_new(jgen_indent);
    sg_jgen_map(g);
    sg_jgen_int(g, 1); /* a key must be a string */
    sg_jgen_int(g, 1);
    sg_jgen_map_end(g);
    assert_null(sg_jgen_finish(g, NULL));
    g = sg_jgen_new(jgen_indent);
    sg_jgen_arr(g);
    sg_jgen_arr_end(g);
    sg_jgen_arr(g); /* a second document */
    sg_jgen_arr_end(g);
    assert_null(sg_jgen_finish(g, NULL));
    g = sg_jgen_new(jgen_indent);
    assert_null(sg_jgen_finish(g, NULL)); /* nothing */
    g = sg_jgen_new(jgen_indent);
    sg_jgen_arr(g);
    sg_jgen_json(g, NULL);
    sg_jgen_arr_end(g);
    assert_null(sg_jgen_finish(g, NULL));
    g = sg_jgen_new(jgen_indent);
    sg_jgen_arr(g);
    sg_jgen_fail(g);
    sg_jgen_arr_end(g);
    assert_null(sg_jgen_finish(g, NULL));
    assert_null(sg_jgen_finish(NULL, NULL));
}

static void test_jgen_as_jansson(void **state)
{
    (void)state;
    for (int indent = 0; indent <= 1; indent++) {
        jgen_indent = indent;
        jgen_as_jansson();
    }
}

static void test_jgen_fails_whole(void **state)
{
    (void)state;
    for (int indent = 0; indent <= 1; indent++) {
        jgen_indent = indent;
        jgen_fails_whole();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_contract),
        cmocka_unit_test(test_sarif_contract),
        cmocka_unit_test(test_text_sanitised),
        cmocka_unit_test(test_rules_render),
        cmocka_unit_test(test_render_string),
        cmocka_unit_test(test_render_string_memo),
        cmocka_unit_test(test_render_string_template),
        cmocka_unit_test(test_render_record_line),
        cmocka_unit_test(test_jgen_as_jansson),
        cmocka_unit_test(test_jgen_fails_whole),
    };
    return cmocka_run_group_tests(tests, render_setup, render_teardown);
}
