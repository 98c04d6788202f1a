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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_contract),
        cmocka_unit_test(test_sarif_contract),
        cmocka_unit_test(test_text_sanitised),
        cmocka_unit_test(test_rules_render),
        cmocka_unit_test(test_render_string),
    };
    return cmocka_run_group_tests(tests, render_setup, render_teardown);
}
