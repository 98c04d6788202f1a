/*
 * The verdict corpus: every file under tests/cases/{block,pass,markdown} is checked through the
 * public C API and its blocking findings are compared with the expectation on its first line.
 *
 *   # expect: block SG201@8 SG101@5      (the exact set of distinct blocking (rule, line) pairs)
 *   # expect: pass                       (no blocking finding)
 *   # options: --allow-host H --fail-on SEV --line-offset N --honor-suppressions   (optional)
 *
 * Markdown cases use <!-- expect: ... --> and <!-- options: ... -->. Lines are the ones reported
 * (--line-offset applied). Cases listed in tests/cases/KNOWN_FAILURES expose a gate bug: they are
 * expected to mismatch, are reported loudly, and fail the run if they start to pass.
 *
 * Per-rule cases: tests/cases/rules/<RULE ID>/block_*.py and pass_*.py, same format. Every rule of
 * the default pack has at least one of each (test_every_rule_has_cases fails otherwise); a block
 * case must expect its rule; a pass case is a near miss (the safe variant of the same idiom) and
 * must not produce a finding of its rule at all, blocking or not.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "snipgate/snipgate.h"

#define CORPUS_MAX_PAIRS 64
#define CORPUS_MAX_HOSTS 8
#define CORPUS_MIN_BLOCK 70
#define CORPUS_MIN_PASS 35
#define CORPUS_MIN_MARKDOWN 6

typedef struct corpus_known {
    char path[512];
    char reason[512];
    bool seen;
} corpus_known;

static corpus_known corpus_known_list[256];
static size_t corpus_nknown;
static char corpus_root[1024];

typedef struct corpus_case {
    bool block;
    char pairs[CORPUS_MAX_PAIRS][32];
    size_t npairs;
    char hosts[CORPUS_MAX_HOSTS][128];
    size_t nhosts;
    sg_options opts;
} corpus_case;

static char *corpus_read(const char *path, size_t *ret_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *nb = realloc(buf, cap * 2);
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
    if (buf)
        *ret_len = len;
    return buf;
}

/* The text after `key` on the line [s, s+n), up to "-->" or the end; NULL if key is absent. */
static bool corpus_field(const char *s, size_t n, const char *key, char *out, size_t outsz)
{
    char line[1024];
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, s, n);
    line[n] = 0;
    char *k = strstr(line, key);
    if (!k)
        return false;
    k += strlen(key);
    char *end = strstr(k, "-->");
    if (end)
        *end = 0;
    snprintf(out, outsz, "%s", k);
    return true;
}

/* Parse the header lines of a case; prints why and returns false on a malformed header. */
static bool corpus_parse(const char *rel, const char *buf, size_t len, corpus_case *c)
{
    memset(c, 0, sizeof *c);
    sg_options_init(&c->opts);
    const char *nl = memchr(buf, '\n', len);
    size_t l1 = nl ? (size_t)(nl - buf) : len;
    char f[1024];
    if (!corpus_field(buf, l1, "expect:", f, sizeof f)) {
        print_error("%s: first line has no 'expect:'\n", rel);
        return false;
    }
    char *save = NULL;
    char *tok = strtok_r(f, " \t\r", &save);
    if (!tok || (strcmp(tok, "block") && strcmp(tok, "pass"))) {
        print_error("%s: expectation must start with block or pass\n", rel);
        return false;
    }
    c->block = !strcmp(tok, "block");
    while ((tok = strtok_r(NULL, " \t\r", &save))) {
        char *at = strchr(tok, '@');
        if (!at || at == tok || !at[1] || c->npairs == CORPUS_MAX_PAIRS || strlen(tok) >= 32) {
            print_error("%s: bad expected finding '%s' (want RULE@LINE)\n", rel, tok);
            return false;
        }
        snprintf(c->pairs[c->npairs++], 32, "%s", tok);
    }
    if (c->block != (c->npairs > 0)) {
        print_error("%s: 'block' needs at least one RULE@LINE and 'pass' none\n", rel);
        return false;
    }
    if (!nl)
        return true;
    const char *l2s = nl + 1;
    const char *nl2 = memchr(l2s, '\n', len - (size_t)(l2s - buf));
    size_t l2 = nl2 ? (size_t)(nl2 - l2s) : len - (size_t)(l2s - buf);
    if (!corpus_field(l2s, l2, "options:", f, sizeof f))
        return true;
    save = NULL;
    for (tok = strtok_r(f, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (!strcmp(tok, "--honor-suppressions")) {
            c->opts.honor_suppressions = true;
            continue;
        }
        char *val = strtok_r(NULL, " \t\r", &save);
        if (!val) {
            print_error("%s: option %s needs a value\n", rel, tok);
            return false;
        }
        if (!strcmp(tok, "--allow-host") && c->nhosts < CORPUS_MAX_HOSTS) {
            snprintf(c->hosts[c->nhosts++], 128, "%s", val);
        } else if (!strcmp(tok, "--fail-on")) {
            if (sg_severity_parse(val, &c->opts.fail_on) != SG_OK) {
                print_error("%s: bad --fail-on %s\n", rel, val);
                return false;
            }
        } else if (!strcmp(tok, "--line-offset")) {
            char *end;
            c->opts.line_offset = strtol(val, &end, 10);
            if (*end) {
                print_error("%s: bad --line-offset %s\n", rel, val);
                return false;
            }
        } else {
            print_error("%s: unsupported option %s\n", rel, tok);
            return false;
        }
    }
    return true;
}

static bool corpus_has(char (*set)[32], size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(set[i], s))
            return true;
    return false;
}

static corpus_known *corpus_known_find(const char *rel)
{
    for (size_t i = 0; i < corpus_nknown; i++)
        if (!strcmp(corpus_known_list[i].path, rel))
            return &corpus_known_list[i];
    return NULL;
}

/* Run one case: 1 matches its expectation, 0 mismatch (diff printed), -1 broken case or API error.
 * With `absent_rule`, any finding of that rule (even not blocking) is a mismatch too. */
static int corpus_run_case(const char *rel, const char *full, bool quiet, const char *absent_rule)
{
    size_t len = 0;
    char *buf = corpus_read(full, &len);
    if (!buf) {
        print_error("%s: cannot read\n", rel);
        return -1;
    }
    corpus_case c;
    if (!corpus_parse(rel, buf, len, &c)) {
        free(buf);
        return -1;
    }
    sg_rules *rules = NULL;
    sg_checker *chk = NULL;
    sg_report *rep = NULL;
    sg_diag d;
    sg_diag_init(&d);
    int result = -1;
    if (sg_rules_new_default(&rules) != SG_OK)
        goto out;
    for (size_t i = 0; i < c.nhosts; i++)
        if (sg_rules_allow_host(rules, c.hosts[i]) != SG_OK) {
            print_error("%s: --allow-host %s refused\n", rel, c.hosts[i]);
            goto out;
        }
    if (sg_checker_new(rules, &c.opts, &chk) != SG_OK)
        goto out;
    sg_status st = sg_checker_check(chk, full, buf, len, &rep, &d);
    if (st != SG_OK) {
        print_error("%s: sg_checker_check failed: %s (%s)\n", rel, sg_strerror(st), d.message);
        goto out;
    }
    char got[CORPUS_MAX_PAIRS * 4][32];
    size_t ngot = 0;
    for (size_t i = 0; i < sg_report_count(rep); i++) {
        const sg_finding *f = sg_report_finding(rep, i);
        if (!f->blocking)
            continue;
        char p[32];
        snprintf(p, sizeof p, "%s@%ld", f->rule_id, f->line);
        if (!corpus_has(got, ngot, p) && ngot < sizeof got / sizeof got[0])
            snprintf(got[ngot++], 32, "%s", p);
    }
    bool same = ngot == c.npairs && sg_report_blocked(rep) == c.block;
    for (size_t i = 0; same && i < c.npairs; i++)
        same = corpus_has(got, ngot, c.pairs[i]);
    for (size_t i = 0; absent_rule && i < sg_report_count(rep); i++)
        if (!strcmp(sg_report_finding(rep, i)->rule_id, absent_rule)) {
            same = false;
            if (!quiet)
                print_message("  MISMATCH %s: a pass case of %s, but %s reports line %ld (not even a non-blocking "
                              "finding is allowed)\n",
                              rel, absent_rule, absent_rule, sg_report_finding(rep, i)->line);
        }
    result = same ? 1 : 0;
    if (!same && !quiet) {
        print_message("  MISMATCH %s\n    expected: %s", rel, c.block ? "block" : "pass");
        for (size_t i = 0; i < c.npairs; i++)
            print_message(" %s", c.pairs[i]);
        print_message("\n    got:      %s", sg_report_blocked(rep) ? "block" : "pass");
        for (size_t i = 0; i < ngot; i++)
            print_message(" %s", got[i]);
        print_message("\n");
        for (size_t i = 0; i < c.npairs; i++)
            if (!corpus_has(got, ngot, c.pairs[i]))
                print_message("    - missing    %s\n", c.pairs[i]);
        for (size_t i = 0; i < ngot; i++)
            if (!corpus_has(c.pairs, c.npairs, got[i]))
                print_message("    + unexpected %s\n", got[i]);
        for (size_t i = 0; i < sg_report_count(rep); i++) {
            const sg_finding *f = sg_report_finding(rep, i);
            print_message("      finding %s line %ld col %ld %s%s: %s\n", f->rule_id, f->line, f->column,
                          sg_severity_name(f->severity), f->blocking ? " (blocking)" : "", f->message);
        }
    }
out:
    sg_report_free(rep);
    sg_checker_free(chk);
    sg_rules_free(rules);
    free(buf);
    return result;
}

static int corpus_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every case of one directory; returns the number of cases, *ret_fail the failures. */
static size_t corpus_run_dir(const char *dir, const char *ext, bool want_block, int want_kind, size_t *ret_fail)
{
    char path[1536];
    snprintf(path, sizeof path, "%s/tests/cases/%s", corpus_root, dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    char *names[1024];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 1024) {
        size_t l = strlen(e->d_name), el = strlen(ext);
        if (e->d_name[0] != '.' && l > el && !strcmp(e->d_name + l - el, ext))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, corpus_cmp);
    size_t fail = 0, ok = 0, xfail = 0;
    for (size_t i = 0; i < n; i++) {
        char rel[768], full[2048];
        snprintf(rel, sizeof rel, "tests/cases/%s/%s", dir, names[i]);
        snprintf(full, sizeof full, "%s/%s", corpus_root, rel);
        /* The directory decides the kind of expectation; check the header agrees. */
        if (want_kind >= 0) {
            size_t len;
            char *buf = corpus_read(full, &len);
            corpus_case c;
            if (!buf || !corpus_parse(rel, buf, len, &c) || c.block != want_block) {
                print_error("  BROKEN %s: a case in %s/ must expect '%s'\n", rel, dir, want_block ? "block" : "pass");
                fail++;
                free(buf);
                free(names[i]);
                continue;
            }
            free(buf);
        }
        corpus_known *k = corpus_known_find(rel);
        int r = corpus_run_case(rel, full, false, NULL);
        if (k) {
            k->seen = true;
            if (r == 0) {
                xfail++;
                print_message("  KNOWN FAILURE (gate bug) %s: %s\n", rel, k->reason);
            } else if (r == 1) {
                fail++;
                print_error("  UNEXPECTED PASS %s is listed in KNOWN_FAILURES but now matches: remove it from the "
                            "list\n",
                            rel);
            } else {
                fail++;
            }
        } else if (r == 1) {
            ok++;
        } else {
            fail++;
        }
        free(names[i]);
    }
    print_message("corpus %s: %zu cases, %zu match, %zu known failures, %zu failures\n", dir, n, ok, xfail, fail);
    *ret_fail = fail;
    return n;
}

static void corpus_load_known(void)
{
    char path[1536];
    snprintf(path, sizeof path, "%s/tests/cases/KNOWN_FAILURES", corpus_root);
    FILE *f = fopen(path, "r");
    corpus_nknown = 0;
    if (!f)
        return;
    char line[2048];
    while (fgets(line, sizeof line, f) && corpus_nknown < sizeof corpus_known_list / sizeof corpus_known_list[0]) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || !*p)
            continue;
        line[strcspn(line, "\n")] = 0;
        size_t pl = strcspn(p, " \t");
        corpus_known *k = &corpus_known_list[corpus_nknown++];
        snprintf(k->path, sizeof k->path, "%.*s", (int)pl, p);
        p += pl;
        while (*p == ' ' || *p == '\t')
            p++;
        snprintf(k->reason, sizeof k->reason, "%s", *p ? p : "(no reason given)");
        k->seen = false;
    }
    fclose(f);
}

static int corpus_setup(void **state)
{
    (void)state;
    const char *root = getenv("SNIPGATE_SOURCE_DIR");
    if (!root) {
        print_error("SNIPGATE_SOURCE_DIR is not set\n");
        return -1;
    }
    snprintf(corpus_root, sizeof corpus_root, "%s", root);
    corpus_load_known();
    return 0;
}

static void test_block_cases(void **state)
{
    (void)state;
    size_t fail;
    size_t n = corpus_run_dir("block", ".py", true, 1, &fail);
    assert_true(n >= CORPUS_MIN_BLOCK);
    assert_int_equal(fail, 0);
}

static void test_pass_cases(void **state)
{
    (void)state;
    size_t fail;
    size_t n = corpus_run_dir("pass", ".py", false, 0, &fail);
    assert_true(n >= CORPUS_MIN_PASS);
    assert_int_equal(fail, 0);
}

static void test_markdown_cases(void **state)
{
    (void)state;
    size_t fail;
    size_t n = corpus_run_dir("markdown", ".md", false, -1, &fail);
    assert_true(n >= CORPUS_MIN_MARKDOWN);
    assert_int_equal(fail, 0);
}

/* Every KNOWN_FAILURES entry names a case that exists (and so was run above). */
static void test_known_failures_exist(void **state)
{
    (void)state;
    size_t missing = 0;
    for (size_t i = 0; i < corpus_nknown; i++) {
        char full[2048];
        snprintf(full, sizeof full, "%s/%s", corpus_root, corpus_known_list[i].path);
        FILE *f = fopen(full, "r");
        if (!f) {
            print_error("KNOWN_FAILURES names %s, which does not exist\n", corpus_known_list[i].path);
            missing++;
        } else {
            fclose(f);
        }
    }
    if (corpus_nknown)
        print_message("%zu corpus cases are KNOWN FAILURES (gate bugs to fix)\n", corpus_nknown);
    assert_int_equal(missing, 0);
}

/* The runner itself: a wrong expectation must be detected (guards against a runner that passes all). */
static void test_runner_detects_mismatch(void **state)
{
    (void)state;
    char dir[] = "/tmp/sg_corpus_selftestXXXXXX";
    assert_non_null(mkdtemp(dir));
    static const struct {
        const char *text;
        int want; /* corpus_run_case result */
    } cases[] = {
        {"# expect: block SG201@3\nimport os\nos.system('id')\n", 1},
        {"# expect: block SG201@2\nimport os\nos.system('id')\n", 0},
        {"# expect: pass\nimport os\nos.system('id')\n", 0},
        {"# expect: block SG101@2\nx = 1\n", 0},
        {"# expect: block SG201@3 SG101@3\nimport os\nos.system('id')\n", 0},
        {"# expect: pass\n# options: --allow-host api.example.com\nimport requests\n"
         "requests.get('https://api.example.com/')\n",
         1},
        {"# expect: maybe\nx = 1\n", -1},
        {"# expect: pass\n# options: --bogus 1\nx = 1\n", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/case%zu.py", dir, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        int r = corpus_run_case(path, path, true, NULL);
        if (r != cases[i].want)
            print_error("self-test case %zu: got %d, want %d\n", i, r, cases[i].want);
        assert_int_equal(r, cases[i].want);
        remove(path);
    }
    /* a pass case of a rule must not produce even a non-blocking finding of that rule */
    char path[256];
    snprintf(path, sizeof path, "%s/low.py", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# expect: pass\nimport subprocess\nsubprocess.run(['ls'])\n", f);
    fclose(f);
    assert_int_equal(corpus_run_case(path, path, true, NULL), 1);
    assert_int_equal(corpus_run_case(path, path, true, "SG208"), 0);
    remove(path);
    rmdir(dir);
}

/* ------------------------------------------------------------------------------------------ */
/* Per-rule cases: tests/cases/rules/<ID>/{block,pass}_*.py                                     */

typedef struct corpus_rule_dir {
    size_t nblock, npass;    /* cases found */
    size_t block_expecting;  /* block cases whose expectation names the rule */
} corpus_rule_dir;

/* The .py files of tests/cases/rules/<id>, sorted; returns the count (names malloc'd). */
static size_t corpus_rule_files(const char *id, char **names, size_t max)
{
    char path[1536];
    snprintf(path, sizeof path, "%s/tests/cases/rules/%s", corpus_root, id);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] != '.' && l > 3 && !strcmp(e->d_name + l - 3, ".py"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, corpus_cmp);
    return n;
}

/* Does the expectation of a case name `id` (RULE@LINE with RULE == id)? */
static bool corpus_expects_rule(const corpus_case *c, const char *id)
{
    size_t il = strlen(id);
    for (size_t i = 0; i < c->npairs; i++)
        if (!strncmp(c->pairs[i], id, il) && c->pairs[i][il] == '@')
            return true;
    return false;
}

/* Scan (and with `run`, check) the cases of one rule; returns the failures. */
static size_t corpus_rule_cases(const char *id, bool run, corpus_rule_dir *ret)
{
    char *names[256];
    size_t n = corpus_rule_files(id, names, 256), fail = 0;
    memset(ret, 0, sizeof *ret);
    for (size_t i = 0; i < n; i++) {
        char rel[768], full[2048];
        snprintf(rel, sizeof rel, "tests/cases/rules/%s/%s", id, names[i]);
        snprintf(full, sizeof full, "%s/%s", corpus_root, rel);
        bool is_block = !strncmp(names[i], "block_", 6), is_pass = !strncmp(names[i], "pass_", 5);
        size_t len;
        char *buf = corpus_read(full, &len);
        corpus_case c;
        if (!buf || (!is_block && !is_pass) || !corpus_parse(rel, buf, len, &c) || c.block != is_block) {
            print_error("  BROKEN %s: rule cases are block_*.py (expect: block) or pass_*.py (expect: pass)\n", rel);
            fail++;
            free(buf);
            free(names[i]);
            continue;
        }
        free(buf);
        if (is_block) {
            ret->nblock++;
            if (corpus_expects_rule(&c, id))
                ret->block_expecting++;
            else {
                print_error("  BROKEN %s: a block case of %s must expect %s@LINE\n", rel, id, id);
                fail++;
            }
        } else {
            ret->npass++;
        }
        if (run) {
            corpus_known *k = corpus_known_find(rel);
            int r = corpus_run_case(rel, full, false, is_pass ? id : NULL);
            if (k) {
                k->seen = true;
                if (r == 0) {
                    print_message("  KNOWN FAILURE (gate bug) %s: %s\n", rel, k->reason);
                } else {
                    print_error("  UNEXPECTED PASS %s is listed in KNOWN_FAILURES but now matches\n", rel);
                    fail++;
                }
            } else if (r != 1) {
                fail++;
            }
        }
        free(names[i]);
    }
    return fail;
}

static void test_rule_cases(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t fail = 0, cases = 0;
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        corpus_rule_dir rd;
        fail += corpus_rule_cases(sg_rules_info(rules, i)->id, true, &rd);
        cases += rd.nblock + rd.npass;
    }
    print_message("corpus rules: %zu rules, %zu cases, %zu failures\n", sg_rules_count(rules), cases, fail);
    sg_rules_free(rules);
    assert_int_equal(fail, 0);
}

/* The meta-test: a rule of the default pack without a block case or a pass case fails the run,
 * and so does a directory under tests/cases/rules/ that names no rule of the pack. */
static void test_every_rule_has_cases(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t missing = 0;
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        const char *id = sg_rules_info(rules, i)->id;
        corpus_rule_dir rd;
        corpus_rule_cases(id, false, &rd);
        if (!rd.block_expecting || !rd.npass) {
            print_error("rule %s has %s%s%s in tests/cases/rules/%s/\n", id, rd.block_expecting ? "" : "no block case",
                        !rd.block_expecting && !rd.npass ? " and " : "", rd.npass ? "" : "no pass case", id);
            missing++;
        }
    }
    char path[1536];
    snprintf(path, sizeof path, "%s/tests/cases/rules", corpus_root);
    DIR *d = opendir(path);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        bool known = false;
        for (size_t i = 0; i < sg_rules_count(rules) && !known; i++)
            known = !strcmp(sg_rules_info(rules, i)->id, e->d_name);
        if (!known) {
            print_error("tests/cases/rules/%s names no rule of the default pack\n", e->d_name);
            missing++;
        }
    }
    closedir(d);
    sg_rules_free(rules);
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_detects_mismatch),
        cmocka_unit_test(test_block_cases),
        cmocka_unit_test(test_pass_cases),
        cmocka_unit_test(test_markdown_cases),
        cmocka_unit_test(test_every_rule_has_cases),
        cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_known_failures_exist),
    };
    return cmocka_run_group_tests(tests, corpus_setup, NULL);
}
