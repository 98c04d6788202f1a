/*
 * The rules as documentation: every rule of the default pack carries a rationale and an example,
 * each example is blocked by its own rule, `snipgate rules --explain ID` prints them, and the
 * committed reference page docs/rules-reference.md is what `snipgate rules --format markdown`
 * generates from the pack (regenerate it when the pack changes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "snipgate/snipgate.h"

static char *docs_read(const char *path, size_t *ret_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap + 1);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[len] = 0;
        *ret_len = len;
    }
    return buf;
}

static void test_every_rule_documented(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t missing = 0;
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        const sg_rule_info *ri = sg_rules_info(rules, i);
        if (!ri->rationale || strlen(ri->rationale) < 40) {
            print_error("rule %s has no rationale (why it is dangerous, what to do instead)\n", ri->id);
            missing++;
        }
        if (!ri->example || !*ri->example) {
            print_error("rule %s has no example\n", ri->id);
            missing++;
        }
    }
    sg_rules_free(rules);
    assert_int_equal(missing, 0);
}

/* Each rule's example, checked alone (as a .py file, --fail-on low), is blocked by that rule. */
static void test_examples_blocked_by_their_rule(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_options o;
    sg_options_init(&o);
    o.fail_on = SG_SEV_LOW;
    sg_checker *chk;
    assert_int_equal(sg_checker_new(rules, &o, &chk), SG_OK);
    size_t bad = 0;
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        const sg_rule_info *ri = sg_rules_info(rules, i);
        if (!ri->example || !*ri->example)
            continue; /* test_every_rule_documented reports it */
        sg_report *rep = NULL;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_checker_check(chk, "example.py", ri->example, strlen(ri->example), &rep, &d);
        bool found = false;
        for (size_t k = 0; st == SG_OK && k < sg_report_count(rep); k++) {
            const sg_finding *f = sg_report_finding(rep, k);
            found |= !strcmp(f->rule_id, ri->id) && f->blocking;
        }
        if (!found) {
            print_error("the example of %s is not blocked by %s (status %s):\n%s\n", ri->id, ri->id, sg_strerror(st),
                        ri->example);
            for (size_t k = 0; st == SG_OK && k < sg_report_count(rep); k++)
                print_error("  got %s at line %ld\n", sg_report_finding(rep, k)->rule_id,
                            sg_report_finding(rep, k)->line);
            bad++;
        }
        sg_report_free(rep);
    }
    sg_checker_free(chk);
    sg_rules_free(rules);
    assert_int_equal(bad, 0);
}

/* docs/rules-reference.md is generated from the pack; a stale page fails here. */
static void test_reference_page_up_to_date(void **state)
{
    (void)state;
    const char *root = getenv("SNIPGATE_SOURCE_DIR");
    assert_non_null(root);
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/rules-reference.md", root);
    size_t have_len = 0;
    char *have = docs_read(path, &have_len);
    if (!have)
        print_error("%s is missing\n", path);
    assert_non_null(have);
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    char *want = NULL;
    size_t want_len = 0;
    FILE *mem = open_memstream(&want, &want_len);
    assert_non_null(mem);
    assert_int_equal(sg_rules_render(mem, rules, SG_FORMAT_MARKDOWN, false), SG_OK);
    fclose(mem);
    sg_rules_free(rules);
    bool same = have_len == want_len && !memcmp(have, want, want_len);
    if (!same) {
        size_t line = 1, i = 0;
        while (i < have_len && i < want_len && have[i] == want[i])
            line += have[i++] == '\n';
        print_error("docs/rules-reference.md is out of date (first difference on line %zu): regenerate it with\n"
                    "  build/snipgate rules --format markdown > docs/rules-reference.md\n",
                    line);
    }
    free(have);
    free(want);
    assert_true(same);
}

static void test_explain(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    assert_int_equal(sg_rules_explain(mem, rules, "SG206"), SG_OK);
    fclose(mem);
    const sg_rule_info *ri = NULL;
    for (size_t i = 0; i < sg_rules_count(rules); i++)
        if (!strcmp(sg_rules_info(rules, i)->id, "SG206"))
            ri = sg_rules_info(rules, i);
    assert_non_null(ri);
    assert_non_null(strstr(text, "SG206 subprocess-shell"));
    assert_non_null(strstr(text, "high"));
    assert_non_null(strstr(text, "CWE-78"));
    assert_non_null(strstr(text, ri->message));
    assert_non_null(strstr(text, ri->rationale));
    assert_non_null(strstr(text, "    import subprocess\n")); /* the example, indented */
    free(text);
    mem = open_memstream(&text, &len);
    assert_int_equal(sg_rules_explain(mem, rules, "SG999"), SG_ERR_UNKNOWN_RULE);
    fclose(mem);
    assert_int_equal(len, 0);
    free(text);
    sg_rules_free(rules);
}

/* The CLI: `rules --explain` exits 0, an unknown id exits 2 naming it. */
static void test_explain_cli(void **state)
{
    (void)state;
    const char *bin = getenv("SNIPGATE_BINARY");
    if (!bin) {
        print_message("SNIPGATE_BINARY not set: skipped\n");
        skip();
    }
    static const struct {
        const char *args, *needle;
        int rc;
    } cases[] = {
        {"rules --explain SG101", "rationale:", 0},
        {"rules --explain SG999", "no rule with id 'SG999'", 2},
        {"rules --format markdown", "## SG806 destructive-system-path", 0},
        {"rules --format yaml", "text, json or markdown", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", bin, cases[i].args);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char *out = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&out, &len);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0)
            fwrite(buf, 1, n, mem);
        fclose(mem);
        int status = pclose(p);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != cases[i].rc || !strstr(out, cases[i].needle))
            print_error("snipgate %s: exit %d, output:\n%s\n", cases[i].args, WEXITSTATUS(status), out);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), cases[i].rc);
        assert_non_null(strstr(out, cases[i].needle));
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_rule_documented),
        cmocka_unit_test(test_examples_blocked_by_their_rule),
        cmocka_unit_test(test_reference_page_up_to_date),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_explain_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
