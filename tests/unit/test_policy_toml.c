/* `[tool.snipgate]` in pyproject.toml (gate/policy_toml.c, docs/policy.md): every TOML form that
 * can carry the policy's keys (headers, dotted keys, inline tables, the four string forms, the
 * integer bases), TOML's errors with line and column, the policy's own checks reached through
 * TOML, other tools' tables left alone, and the discovery order (.snipgate.yml first, then a
 * pyproject.toml that has the table, directory by directory upwards). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gate/policy_toml.h"
#include "snipgate/snipgate.h"

static sg_policy *load_ok(const char *text)
{
    sg_policy *p = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_policy_load_buffer("/repo/pyproject.toml", text, strlen(text), &p, &d);
    if (st != SG_OK)
        fail_msg("unexpected error %d: %ld:%ld: %s\n--\n%s", st, d.line, d.column, d.message, text);
    assert_non_null(p);
    return p;
}

/* An error at line:col whose message holds `needle`. */
static void load_err(const char *text, long line, long col, const char *needle)
{
    sg_policy *p = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_policy_load_buffer("/repo/pyproject.toml", text, strlen(text), &p, &d);
    if (st != SG_ERR_POLICY || !strstr(d.message, needle) || (line && d.line != line) || (col && d.column != col))
        fail_msg("want SG_ERR_POLICY at %ld:%ld with '%s'; got %d at %ld:%ld: %s\n--\n%s", line, col, needle, st,
                 d.line, d.column, d.message, text);
    assert_null(p);
    assert_string_equal(d.path, "/repo/pyproject.toml");
}

static void test_headers_and_dotted_keys(void **state)
{
    (void)state;
    sg_policy *p = load_ok("[project]\nname = \"demo\"\n\n[tool.black]\nline-length = 100\n\n"
                           "[tool.snipgate]\nfail_on = \"high\"\nexclude = [\"vendor/\", \"*.gen.py\"]\n"
                           "network.allow_hosts = [\"api.example.com\"]\n\n"
                           "[tool.snipgate.rules]\ndisable = [\"SG201\"]\nhonor_suppressions = true\n\n"
                           "[tool.snipgate.budgets]\nproperty_inputs = 500\nfuzz_seconds = \"2s\"\n"
                           "[tool.ruff]\nselect = [\"S\"]\n");
    const sg_policy_info *i = sg_policy_get(p);
    assert_true(i->has_fail_on);
    assert_int_equal(i->fail_on, SG_SEV_HIGH);
    assert_int_equal(i->n_exclude, 2);
    assert_string_equal(i->exclude[1], "*.gen.py");
    assert_int_equal(i->n_allow_hosts, 1);
    assert_string_equal(i->allow_hosts[0], "api.example.com");
    assert_int_equal(i->n_disable, 1);
    assert_string_equal(i->disable[0], "SG201");
    assert_true(i->honor_all_suppressions);
    assert_int_equal(i->property_inputs, 500);
    assert_true(i->fuzz_seconds > 1.99 && i->fuzz_seconds < 2.01);
    assert_string_equal(i->path, "/repo/pyproject.toml");
    sg_policy_free(p);

    /* the subtable before its parent, and the whole policy as dotted keys of [tool] or the root */
    p = load_ok("[tool.snipgate.rules]\nenable = [\"SG101\"]\n[tool.snipgate]\nfail_on = \"low\"\n");
    assert_int_equal(sg_policy_get(p)->n_enable, 1);
    assert_int_equal(sg_policy_get(p)->fail_on, SG_SEV_LOW);
    sg_policy_free(p);
    p = load_ok("[tool]\nsnipgate.fail_on = \"critical\"\nsnipgate.rules.disable = [\"SG1\", \"SG2\"]\nother.x = 1\n");
    assert_int_equal(sg_policy_get(p)->fail_on, SG_SEV_CRITICAL);
    assert_int_equal(sg_policy_get(p)->n_disable, 2);
    sg_policy_free(p);
    p = load_ok("tool.snipgate.stages.required = [\"golden\"]\n");
    assert_true(sg_policy_get(p)->required[SG_PIPE_GOLDEN]);
    sg_policy_free(p);
    /* inline tables, quoted keys */
    p = load_ok("[tool]\n\"snipgate\" = { rules = { 'disable' = [ \"SG301\" , ] }, fail_on = \"medium\" }\n");
    assert_int_equal(sg_policy_get(p)->n_disable, 1);
    assert_string_equal(sg_policy_get(p)->disable[0], "SG301");
    sg_policy_free(p);
    /* an empty table is the default policy */
    p = load_ok("[tool.snipgate]\n# nothing yet\n");
    assert_false(sg_policy_get(p)->has_fail_on);
    sg_policy_free(p);
}

static void test_strings_and_numbers(void **state)
{
    (void)state;
    sg_policy *p = load_ok("[tool.snipgate]\nexclude = [\n  \"a\\tb\",        # basic, an escape\n"
                           "  'C:\\dir\\*.py',  # literal: no escapes\n"
                           "  \"\\u00e9t\\U0001F600\",\n"
                           "  \"\"\"\nmulti\\\n      line\"\"\",\n"
                           "  '''\nraw\\n'''\n]\n");
    const sg_policy_info *i = sg_policy_get(p);
    assert_int_equal(i->n_exclude, 5);
    assert_string_equal(i->exclude[0], "a\tb");
    assert_string_equal(i->exclude[1], "C:\\dir\\*.py");
    assert_string_equal(i->exclude[2], "\xc3\xa9t\xf0\x9f\x98\x80");
    assert_string_equal(i->exclude[3], "multiline");
    assert_string_equal(i->exclude[4], "raw\\n");
    sg_policy_free(p);

    p = load_ok("[tool.snipgate.budgets]\nparse_steps = 1_000_000\nfuzz_runs = 0x1F4\nproperty_inputs = 0o17\n"
                "max_depth = 0b1000000\nproperty_seconds = 2.5\nmax_bytes = \"8M\"\n");
    i = sg_policy_get(p);
    assert_int_equal(i->parse_steps, 1000000);
    assert_int_equal(i->fuzz_runs, 500);
    assert_int_equal(i->property_inputs, 15);
    assert_int_equal(i->max_depth, 64);
    assert_true(i->property_seconds > 2.49 && i->property_seconds < 2.51);
    assert_int_equal(i->max_bytes, 8u << 20);
    sg_policy_free(p);
}

static void test_errors(void **state)
{
    (void)state;
    /* the policy's checks, at the key's place */
    load_err("[tool.snipgate]\nfail_on = \"hgh\"\n", 2, 1, "must be low, medium, high or critical");
    load_err("[tool.snipgate]\nfail_on = 3\n", 2, 1, "must be low, medium, high or critical");
    load_err("[tool.snipgate]\nrules.disabel = [\"SG201\"]\n", 2, 7, "unknown key 'disabel'");
    load_err("[tool.snipgate.budgets]\nparse_steps = -5\n", 2, 1, "must be an integer");
    load_err("[tool.snipgate]\nexclude = [1, 2]\n", 0, 0, "non-empty string");
    load_err("[tool.snipgate]\nrules = [\"x\"]\n", 2, 1, "rules must be a mapping");
    /* TOML's own */
    load_err("[tool.snipgate]\nfail_on = \"high\"\nfail_on = \"low\"\n", 3, 1, "'fail_on' is defined twice");
    load_err("[tool.snipgate]\n[tool.snipgate]\n", 2, 7, "table [tool.snipgate] is defined twice");
    load_err("[tool.snipgate]\nrules = {enable = [\"SG101\"]}\n[tool.snipgate.rules]\n", 3, 16, "as a value");
    load_err("[tool.snipgate.rules]\n[tool]\nsnipgate.rules.enable = []\n", 3, 1, "not as a table dotted keys");
    load_err("[tool.snipgate\nfail_on = \"high\"\n", 0, 0, "TOML syntax error");
    load_err("[tool.snipgate]\nfail_on = \"a\\u0000b\"\n", 2, 11, "NUL");
    load_err("[tool.snipgate]\nfail_on = \"\\uD800\"\n", 2, 11, "not a Unicode scalar value");
    load_err("[tool.snipgate]\nparse_steps = 99999999999999999999\n", 2, 15, "out of range");
    load_err("[tool]\nsnipgate = 3\n", 2, 1, "tool.snipgate must be a table");
    load_err("[[tool.snipgate]]\nfail_on = \"low\"\n", 1, 8, "tool.snipgate must be a table");
    load_err("[project]\nname = \"x\"\n", 0, 0, "no [tool.snipgate] table");
    load_err("", 0, 0, "no [tool.snipgate] table");
    /* a megabyte of unclosed headers: refused at the first one (the parse stops at its first
     * error; error recovery over all of it once took 30 s of CPU) */
    {
        size_t n = 10000, w = 100;
        char *big = malloc(n * w + 1);
        assert_non_null(big);
        for (size_t k = 0; k < n; k++) {
            memset(big + k * w, 'A', w - 1);
            memcpy(big + k * w, "[tool.snipgate", 14);
            big[k * w + w - 1] = '\n';
        }
        big[n * w] = 0;
        load_err(big, 1, 0, "TOML syntax error");
        free(big);
    }
    /* other tools' tables are theirs: a key twice there is not our error */
    sg_policy *p = load_ok("[tool.black]\nx = 1\nx = 2\n[tool.snipgate]\nfail_on = \"low\"\n[tool.black]\n");
    sg_policy_free(p);
}

static void test_has_table(void **state)
{
    (void)state;
    const char *yes[] = {"[tool.snipgate]\n", "tool.snipgate.fail_on = \"low\"\n", "[tool]\nsnipgate = {}\n",
                         "[tool.snipgate.rules]\n", "[tool.snipgate\nbroken = \n" /* ours: reported on load */};
    const char *no[] = {"", "[tool.black]\n", "[tool]\nruff = {}\n", "[project]\nname = \"snip\"\n",
                        "[tool.ruff\n" /* broken, and not ours */};
    for (size_t k = 0; k < sizeof yes / sizeof *yes; k++)
        if (!sg_policy_toml_has_table(yes[k], strlen(yes[k])))
            fail_msg("no table found in: %s", yes[k]);
    for (size_t k = 0; k < sizeof no / sizeof *no; k++)
        if (sg_policy_toml_has_table(no[k], strlen(no[k])))
            fail_msg("a table found in: %s", no[k]);
}

static char tmpdir[256];

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect_found(const char *start_rel, const char *want_rel)
{
    char start[512], want[512];
    snprintf(start, sizeof start, "%s/%s", tmpdir, start_rel);
    char *got = NULL;
    assert_int_equal(sg_policy_find(start, &got), SG_OK);
    if (!want_rel) {
        if (got)
            fail_msg("from %s: found %s, want none", start_rel, got);
        return;
    }
    char *real = realpath(tmpdir, NULL);
    assert_non_null(real);
    snprintf(want, sizeof want, "%s/%s", real, want_rel);
    free(real);
    if (!got || strcmp(got, want))
        fail_msg("from %s: found %s, want %s", start_rel, got ? got : "(none)", want);
    free(got);
}

static void test_discovery_order(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sg-policy-toml-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    char d[512];
    snprintf(d, sizeof d, "%s/a", tmpdir);
    assert_int_equal(mkdir(d, 0700), 0);
    snprintf(d, sizeof d, "%s/a/b", tmpdir);
    assert_int_equal(mkdir(d, 0700), 0);
    /* (nothing above tmpdir is expected to hold a policy; /tmp and / are checked below) */
    put(".snipgate.yml", "fail_on: low\n");
    expect_found("a/b", ".snipgate.yml");
    /* a pyproject.toml without the table is passed over */
    put("a/b/pyproject.toml", "[project]\nname = \"x\"\n[tool.ruff]\n");
    expect_found("a/b", ".snipgate.yml");
    /* with it, the nearest directory wins */
    put("a/pyproject.toml", "[tool.snipgate]\nfail_on = \"high\"\n");
    expect_found("a/b", "a/pyproject.toml");
    /* in one directory, .snipgate.yml first */
    put("a/.snipgate.yml", "fail_on: critical\n");
    expect_found("a/b", "a/.snipgate.yml");
    /* a broken pyproject that names snipgate is found (its error is reported on load) */
    put("a/b/pyproject.toml", "[tool.snipgate\n");
    expect_found("a/b", "a/b/pyproject.toml");
    char path[512];
    snprintf(path, sizeof path, "%s/a/b/pyproject.toml", tmpdir);
    sg_policy *p = NULL;
    sg_diag dg;
    sg_diag_init(&dg);
    assert_int_equal(sg_policy_load_file(path, &p, &dg), SG_ERR_POLICY);
    assert_non_null(strstr(dg.message, "TOML syntax error"));
    /* loaded from the file: the policy's directory is the pyproject's */
    snprintf(path, sizeof path, "%s/a/pyproject.toml", tmpdir);
    assert_int_equal(sg_policy_load_file(path, &p, &dg), SG_OK);
    char *real = realpath(tmpdir, NULL);
    char want[600];
    snprintf(want, sizeof want, "%s/a", real);
    assert_string_equal(sg_policy_get(p)->dir, want);
    free(real);
    sg_policy_free(p);
    /* clean up */
    const char *files[] = {"a/b/pyproject.toml", "a/pyproject.toml", "a/.snipgate.yml", ".snipgate.yml"};
    for (size_t k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, files[k]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/a/b", tmpdir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/a", tmpdir);
    rmdir(path);
    rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headers_and_dotted_keys), cmocka_unit_test(test_strings_and_numbers),
        cmocka_unit_test(test_errors),                  cmocka_unit_test(test_has_table),
        cmocka_unit_test(test_discovery_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
