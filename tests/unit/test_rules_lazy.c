/* rules/pack: query rules of the built-in pack compiled on first use (issue 25): every built-in
 * query compiles and passes the predicate checks, the prefilters read from a query's text are
 * those of the compiled query, a check whose source no query can match compiles none, one that
 * cannot be compiled is an error of the check (never a pass), a compiled query is shared by
 * threads and outlives the arena of the check that compiled it; and a finding's excerpt is the
 * same bytes whatever the stack holds. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rules/pack_int.h"
#include "snipgate/snipgate.h"

static const sg_query_prog *prog_of(const sg_rule *r)
{
    return atomic_load(&((sg_rule *)r)->query.prog);
}

static const sg_rule *rule_by_id(const sg_rules *rules, const char *id)
{
    for (size_t i = 0; i < rules->rules.len; i++)
        if (!strcmp(rules->rules.items[i]->info.id, id))
            return rules->rules.items[i];
    return NULL;
}

static void assert_strv_equal(char *const *a, size_t na, char *const *b, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        assert_string_equal(a[i], b[i]);
}

/* The prefilters and capture of two loads of the same query rule are the same. */
static void assert_same_query(const sg_rule *lazy, const sg_rule *eager)
{
    const sg_rule_query *l = &lazy->query, *e = &eager->query;
    assert_strv_equal(l->needles, l->nneedles, e->needles, e->nneedles);
    assert_strv_equal(l->any_needles, l->nany_needles, e->any_needles, e->nany_needles);
    assert_strv_equal(l->in_match, l->nin_match, e->in_match, e->nin_match);
    const sg_query_prog *lp, *ep;
    assert_int_equal(sg_rule_query_prog(lazy, &lp), SG_OK);
    assert_int_equal(sg_rule_query_prog(eager, &ep), SG_OK);
    assert_int_equal(lp->capture, ep->capture);
    assert_int_equal(lp->nstrings, ep->nstrings);
    for (uint32_t i = 0; i < lp->nstrings; i++)
        assert_int_equal(lp->res_set[i], ep->res_set[i]);
}

/* Findings of rule `id` when `rules` checks `src`; -1 when the check is an error (its status). */
static long check_count(const sg_rules *rules, const char *src, const char *id, sg_status *ret_st)
{
    sg_checker *c;
    assert_int_equal(sg_checker_new(rules, NULL, &c), SG_OK);
    sg_report *rep = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_checker_check(c, "t.py", src, strlen(src), &rep, &d);
    if (ret_st)
        *ret_st = st;
    long n = -1;
    if (!st) {
        n = 0;
        for (size_t i = 0; i < sg_report_count(rep); i++)
            n += !strcmp(sg_report_finding(rep, i)->rule_id, id);
        sg_report_free(rep);
    }
    sg_checker_free(c);
    return n;
}

/* The built-in pack: no query compiled at load; each compiles and passes the predicate checks (the
 * file loader, which compiles at once, takes the same YAML), with the same prefilters. */
static void test_builtin_queries_compile(void **state)
{
    (void)state;
    sg_rules *lazy, *eager;
    assert_int_equal(sg_rules_new_default(&lazy), SG_OK);
    assert_int_equal(sg_rules_new_empty(&eager), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(eager, "default.yml", (const char *)sg_default_rules_yml,
                                          sg_default_rules_yml_len, false, &d),
                     SG_OK);
    size_t nq = 0;
    for (size_t i = 0; i < lazy->rules.len; i++) {
        const sg_rule *r = lazy->rules.items[i];
        if (r->kind != SG_KIND_QUERY)
            continue;
        nq++;
        /* a built-in query whose prefilters the text reading cannot give is compiled at load:
         * every check would pay for it */
        if (prog_of(r))
            fail_msg("built-in query rule %s was compiled at load", r->info.id);
        const sg_rule *e = rule_by_id(eager, r->info.id);
        assert_non_null(e);
        assert_non_null(prog_of(e));
        assert_same_query(r, e);
        assert_non_null(prog_of(r));
        print_message("%s: %zu needles, %zu any-needles, %zu text_any; compiled on first use\n", r->info.id,
                      r->query.nneedles, r->query.nany_needles, r->query.nin_match);
    }
    assert_true(nq >= 3);
    sg_rules_free(lazy);
    sg_rules_free(eager);
}

static const struct {
    const char *query; /* a YAML block scalar's lines, each indented by 8 */
    const char *capture;
    bool lazy; /* the text reading is sure of it (else: compiled at load) */
} text_cases[] = {
    {"(call function: (identifier) @f (#eq? @f \"danger\"))", "f", true},
    {"(call function: (attribute attribute: (identifier) @m (#match? @m \"^(a_b|c1)$\")))", "m", true},
    {"((identifier) @a (#eq? @a \"x\"))\n        ((string) @s)", "s", true}, /* two patterns: none */
    {"[(identifier) (string)] @x", "x", true},
    {"[((identifier) @i (#eq? @i \"k\")) (string) @i]", "i", true},
    {"; a comment with \"a quote and (a paren\n        (pair key: (string (string_content) @k (#eq? @k \"();\\\"x\")) "
     "; trailing (\n        ) @p",
     "p", true},
    {"((identifier) @k (#eq? @k \"a\\nb\\tc\\\\d\\qe\"))", "k", true},
    {"((identifier) @k (#eq? @k \"a\\0b\"))", "k", false},
    {"((identifier) @k (#eq? @k \"\xc3\xa9t\xc3\xa9\"))", "k", false},
    {"((identifier) @a (#match? @a \"^x\") (#match? @a \"^(p|q)$\") (#match? @a \"^(r)$\"))", "a", true},
    {"((identifier) @a (#not-eq? @a \"n\") (#not-match? @a \"^(u|v)$\"))", "a", true},
    {"((identifier) @a (identifier) @b (#eq? @a @b))", "a", true},
    {"((identifier) @a (#eq? @a bare_word))", "a", true},
    {"((comment) @c . (identifier) @i (#eq? @i \"z\"))", "i", true},
    {"(call function: (identifier) @f ( #eq? @f \"w\" ) )", "f", true},
    {"(call function: (identifier) @f (\n        ; between\n        #eq? @f \"w2\"))", "f", true},
    {"((identifier) @i (#eq? @i \"q\"))+ @o", "i", true},
    {"(call function: (identifier) @f (#eq? @f \"w3\") ; a comment ( [ \"\n        )", "f", true},
    {"(call function: (identifier) @f (#eq? @f \"w5\"); a comment ( [ \"\n        )", "f", true},
    {"(call function: (identifier) @f (#eq? @f \"w4\"))\n        ; (a) comment after the pattern (b)", "f", true},
    {"\"def\" @kw", "kw", false},
    {"(call) @c (identifier) @i", "c", true},
};

/* The built-in pack as the build serialised it (rules/pack_gen.c): the bytes rebuild exactly the
 * document the YAML parses to, the default set is loaded from them, and the rules come out as
 * from the YAML; damaged bytes fall back to the YAML, never to fewer rules. */
static char *render_all(const sg_rules *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(sg_rules_render(f, r, SG_FORMAT_JSON, true), SG_OK);
    fclose(f);
    return buf;
}

static void test_builtin_blob_same_as_yaml(void **state)
{
    (void)state;
    assert_true(sg_default_rules_bin_len > 8); /* (a native build makes it) */
    assert_true(sg_rules_blob_matches_yaml(sg_default_rules_bin, sg_default_rules_bin_len,
                                           (const char *)sg_default_rules_yml, sg_default_rules_yml_len));
    sg_rules *from_blob, *from_yaml, *damaged;
    assert_int_equal(sg_rules_new_default(&from_blob), SG_OK);
    assert_int_equal(sg_rules_new_empty(&from_yaml), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_builtin(from_yaml, "default", (const char *)sg_default_rules_yml,
                                           sg_default_rules_yml_len, &d),
                     SG_OK);
    assert_int_equal(from_blob->rules.len, from_yaml->rules.len);
    char *a = render_all(from_blob), *b = render_all(from_yaml);
    assert_string_equal(a, b);
    /* damaged bytes (cut short, a node id out of range): the YAML is read instead */
    unsigned char *copy = malloc(sg_default_rules_bin_len);
    assert_non_null(copy);
    memcpy(copy, sg_default_rules_bin, sg_default_rules_bin_len);
    assert_false(sg_rules_blob_matches_yaml(copy, sg_default_rules_bin_len - 3, (const char *)sg_default_rules_yml,
                                            sg_default_rules_yml_len));
    copy[8 + 4 + 13 + 3] = 0xff; /* the root mapping's first key id, now past the last node */
    assert_false(sg_rules_blob_matches_yaml(copy, sg_default_rules_bin_len, (const char *)sg_default_rules_yml,
                                            sg_default_rules_yml_len));
    assert_int_equal(sg_rules_new_empty(&damaged), SG_OK);
    assert_int_equal(sg_rules_load_builtin_compiled(damaged, "default", copy, sg_default_rules_bin_len,
                                                    (const char *)sg_default_rules_yml, sg_default_rules_yml_len, &d),
                     SG_OK);
    char *c = render_all(damaged);
    assert_string_equal(c, b);
    free(copy);
    free(a);
    free(b);
    free(c);
    sg_rules_free(from_blob);
    sg_rules_free(from_yaml);
    sg_rules_free(damaged);
}

static void test_text_prefilter_same_as_compiled(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof text_cases / sizeof text_cases[0]; k++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 "version: 1\nrules:\n  - id: Q%03zu\n    name: q\n    severity: high\n    message: q\n    match:\n"
                 "      query: |\n        %s\n      capture: %s\n      text_any: [T1, T2]\n",
                 k, text_cases[k].query, text_cases[k].capture);
        sg_rules *lazy, *eager;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_rules_new_empty(&eager), SG_OK);
        if (sg_rules_load_buffer(eager, "q.yml", yaml, strlen(yaml), false, &d))
            fail_msg("case %zu: %s: %s", k, text_cases[k].query, d.message);
        assert_int_equal(sg_rules_new_empty(&lazy), SG_OK);
        assert_int_equal(sg_rules_load_builtin(lazy, "q.yml", yaml, strlen(yaml), &d), SG_OK);
        const sg_rule *l = lazy->rules.items[0], *e = eager->rules.items[0];
        if ((prog_of(l) == NULL) != text_cases[k].lazy)
            fail_msg("case %zu: %s: %s", k, text_cases[k].query, prog_of(l) ? "compiled at load" : "lazy");
        assert_same_query(l, e);
        sg_rules_free(lazy);
        sg_rules_free(eager);
    }
}

/* What the text reading derives for a few of them, spelled out. */
static void test_text_prefilter_values(void **state)
{
    (void)state;
    static const char yaml[] =
        "version: 1\nrules:\n"
        "  - id: A1\n    name: a\n    severity: high\n    message: a\n    match:\n"
        "      query: '(pair key: (string (string_content) @k (#eq? @k \"()\"))) @pair'\n      capture: pair\n"
        "  - id: A2\n    name: b\n    severity: high\n    message: b\n    match:\n"
        "      query: '((identifier) @a (#match? @a \"^x\") (#match? @a \"^(p|q_1)$\"))'\n      capture: a\n"
        "  - id: A3\n    name: c\n    severity: high\n    message: c\n    match:\n"
        "      query: '((identifier) @a (#eq? @a \"x\")) ((string) @s)'\n      capture: a\n";
    sg_rules *rules;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    assert_int_equal(sg_rules_load_builtin(rules, "p.yml", yaml, strlen(yaml), &d), SG_OK);
    const sg_rule_query *a1 = &rule_by_id(rules, "A1")->query, *a2 = &rule_by_id(rules, "A2")->query,
                        *a3 = &rule_by_id(rules, "A3")->query;
    assert_int_equal(a1->nneedles, 1);
    assert_string_equal(a1->needles[0], "()");
    assert_int_equal(a1->nany_needles, 0);
    assert_int_equal(a2->nneedles, 0);
    assert_int_equal(a2->nany_needles, 2);
    assert_string_equal(a2->any_needles[0], "p");
    assert_string_equal(a2->any_needles[1], "q_1");
    assert_int_equal(a3->nneedles + a3->nany_needles, 0); /* two patterns: no prefilter */
    assert_string_equal(a1->capture_name, "pair");
    sg_rules_free(rules);
}

/* A check compiles only the queries its source may need; the compiled ones stay for later checks
 * (which run in arenas of their own: the query's memory is the heap's). */
static void test_compiled_only_when_needed(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    const sg_rule *q108 = rule_by_id(rules, "SG108"), *q212 = rule_by_id(rules, "SG212"),
                  *q213 = rule_by_id(rules, "SG213");
    assert_non_null(q108);
    assert_non_null(q212);
    assert_non_null(q213);
    assert_int_equal(check_count(rules, "import os\ndef f(x):\n    return x + 1\nprint(f(2))\n", "SG108", NULL), 0);
    /* "()" is there (SG108's #eq? needle), but neither '"()"' nor "'()'" (its text_any) */
    assert_int_equal(check_count(rules, "f()\ng(x)\n", "SG108", NULL), 0);
    assert_null(prog_of(q108));
    assert_null(prog_of(q212));
    assert_null(prog_of(q213));
    assert_int_equal(check_count(rules, "loop.subprocess_exec(p, 'id')\n", "SG212", NULL), 1);
    assert_null(prog_of(q108));
    const sg_query_prog *p212 = prog_of(q212);
    assert_non_null(p212);
    assert_null(prog_of(q213));
    /* a word of SG213's #match? is there: the prefilter cannot tell, the query runs (no match) */
    assert_int_equal(check_count(rules, "x = exec_commandX\n", "SG213", NULL), 0);
    assert_non_null(prog_of(q213));
    for (int i = 0; i < 3; i++) {
        assert_int_equal(check_count(rules, "c = {'()': 'os.system'}\nloop.subprocess_shell(p, 'id')\n", "SG108", NULL),
                         1);
        assert_int_equal(check_count(rules, "loop.subprocess_shell(p, 'id')\nx = [1] * 4096\n", "SG212", NULL), 1);
    }
    assert_ptr_equal(prog_of(q212), p212); /* compiled once */
    assert_non_null(prog_of(q108));
    sg_rules_free(rules);
}

/* A query that passes the text reading but does not compile (only a pack loaded as the built-in
 * one can hold it): a source it cannot match passes as before; one it may match is an error. */
static void test_lazy_compile_error_fails_closed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "(call function: (identifer) @f (#eq? @f \"boom\"))",                       /* node type */
        "(call function: (identifier) @f (#eq? @f \"boom\") (#frob? @f))",          /* predicate */
        "(call function: (identifier) @f (#eq? @f \"boom\") (#match? @f \"[a-\"))", /* regex */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char yaml[1024];
        snprintf(yaml, sizeof yaml,
                 "version: 1\nrules:\n  - id: B1\n    name: b\n    severity: high\n    message: b\n    match:\n"
                 "      query: '%s'\n      capture: f\n",
                 bad[k]);
        sg_rules *rules;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
        /* a pack from a file: the error at load */
        assert_int_equal(sg_rules_load_buffer(rules, "b.yml", yaml, strlen(yaml), false, &d), SG_ERR_RULES);
        assert_int_equal(sg_rules_load_builtin(rules, "b.yml", yaml, strlen(yaml), &d), SG_OK);
        sg_status st;
        assert_int_equal(check_count(rules, "x = 1\n", "B1", &st), 0);
        assert_int_equal(check_count(rules, "boom()\n", "B1", &st), -1);
        assert_int_equal(st, SG_ERR_INTERNAL);
        assert_int_equal(check_count(rules, "boom()\n", "B1", &st), -1); /* every time */
        assert_int_equal(st, SG_ERR_INTERNAL);
        sg_rules_free(rules);
    }
}

typedef struct thread_arg {
    const sg_rules *rules;
    int rounds;
    long found;
    sg_status st;
} thread_arg;

static const char threads_src[] = "import logging.config\n"
                                  "logging.config.dictConfig({'h': {'()': 'os.system'}})\n"
                                  "async def main(loop):\n"
                                  "    await loop.subprocess_shell(p, 'id')\n"
                                  "client.exec_command('id')\n"
                                  "client.invoke_shell()\n";

static void *thread_main(void *p)
{
    thread_arg *a = p;
    sg_checker *c;
    if ((a->st = sg_checker_new(a->rules, NULL, &c)))
        return NULL;
    for (int i = 0; i < a->rounds && !a->st; i++) {
        sg_report *rep = NULL;
        a->st = sg_checker_check(c, "t.py", threads_src, strlen(threads_src), &rep, NULL);
        if (a->st)
            break;
        for (size_t k = 0; k < sg_report_count(rep); k++) {
            const char *id = sg_report_finding(rep, k)->rule_id;
            a->found += !strcmp(id, "SG108") || !strcmp(id, "SG212") || !strcmp(id, "SG213");
        }
        sg_report_free(rep);
    }
    sg_checker_free(c);
    return NULL;
}

/* Threads sharing a frozen set all ask for the same queries at once: each finds every match. */
static void test_lazy_shared_between_threads(void **state)
{
    (void)state;
    for (int trial = 0; trial < 5; trial++) {
        sg_rules *rules;
        assert_int_equal(sg_rules_new_default(&rules), SG_OK);
        assert_int_equal(sg_rules_freeze(rules), SG_OK);
        enum { N = 6, ROUNDS = 4 };
        pthread_t t[N];
        thread_arg a[N];
        for (int i = 0; i < N; i++) {
            a[i] = (thread_arg){rules, ROUNDS, 0, SG_OK};
            assert_int_equal(pthread_create(&t[i], NULL, thread_main, &a[i]), 0);
        }
        for (int i = 0; i < N; i++) {
            assert_int_equal(pthread_join(t[i], NULL), 0);
            assert_int_equal(a[i].st, SG_OK);
            assert_int_equal(a[i].found, 4 * ROUNDS);
        }
        sg_rules_free(rules);
    }
}

/* The message of the first finding of rule `id`, copied (NULL if none or an error). */
static char *first_message(const sg_rules *rules, const char *src, const char *id)
{
    sg_checker *c;
    if (sg_checker_new(rules, NULL, &c))
        return NULL;
    sg_report *rep = NULL;
    char *m = NULL;
    if (sg_checker_check(c, "t.py", src, strlen(src), &rep, NULL) == SG_OK) {
        for (size_t k = 0; k < sg_report_count(rep) && !m; k++)
            if (!strcmp(sg_report_finding(rep, k)->rule_id, id))
                m = strdup(sg_report_finding(rep, k)->message);
        sg_report_free(rep);
    }
    sg_checker_free(c);
    return m;
}

/* Excerpts cut at 60 bytes: a UTF-8 sequence cut in two is dropped whole (and so is the last one
 * when the cut falls right after it). */
static const struct {
    const char *value, *excerpt;
} excerpt_cases[] = {
    {"os.system_with_a_really_long_unprefixed_module_name_here",
     "`\"()\": \"os.system_with_a_really_long_unprefixed_module_name_h...`"},
    {"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
     "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
     "\xc3\xa9\xc3\xa9\xc3\xa9",
     /* 7 + 26 * 2 = 59 bytes, and the lead byte of the 27th: cut before it */
     "`\"()\": \"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
     "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
     "...`"},
    {"a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
     "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
     /* 8 + 26 * 2 = 60 bytes, cut right after a whole sequence: it goes too */
     "`\"()\": \"a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
     "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...`"},
    {"short", "`\"()\": \"short\"`"},
};

/* How many excerpts differ from the expected ones (printed). */
static int excerpt_mismatches(void)
{
    sg_rules *rules;
    if (sg_rules_new_default(&rules))
        return 1;
    int bad = 0;
    for (size_t k = 0; k < sizeof excerpt_cases / sizeof excerpt_cases[0]; k++) {
        char src[512];
        snprintf(src, sizeof src, "import logging.config\nlogging.config.dictConfig({\"h\": {\"()\": \"%s\"}})\n",
                 excerpt_cases[k].value);
        char *m = first_message(rules, src, "SG108");
        const char *tick = m ? strchr(m, '`') : NULL;
        if (!tick || strcmp(tick, excerpt_cases[k].excerpt)) {
            fprintf(stderr, "excerpt %zu: got %s, want %s\n", k, tick ? tick : "(none)", excerpt_cases[k].excerpt);
            bad++;
        }
        free(m);
    }
    sg_rules_free(rules);
    return bad;
}

/* The expected excerpts, then the same under valgrind (memcheck): issue 25's excerpts differed
 * from run to run because a byte of the buffer that was never written was read; no stack content
 * a test can arrange reliably shows it, memcheck does. Skipped (said so) without valgrind, and in
 * a sanitizer build (they and valgrind do not mix). */
static void test_excerpt_same_bytes(void **state)
{
    (void)state;
    assert_int_equal(excerpt_mismatches(), 0);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    print_message("SKIP the valgrind half: a sanitizer build\n");
#else
    const char *vg = access("/usr/bin/valgrind", X_OK) == 0 ? "/usr/bin/valgrind" : NULL;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!vg || n <= 0) {
        print_message("SKIP the valgrind half: no /usr/bin/valgrind\n");
        return;
    }
    self[n] = 0;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(vg, vg, "-q", "--error-exitcode=99", self, "--excerpt-child", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 99)
        fail_msg("valgrind found an error in the excerpt cases (its report is above)");
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--excerpt-child")) {
        /* under valgrind (test_excerpt_same_bytes): tree-sitter's own allocator, so no arena, whose
         * reservation of address space costs memcheck minutes */
        ts_set_allocator(NULL, NULL, NULL, NULL);
        return excerpt_mismatches() ? 1 : 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_queries_compile),
        cmocka_unit_test(test_builtin_blob_same_as_yaml),
        cmocka_unit_test(test_text_prefilter_same_as_compiled),
        cmocka_unit_test(test_text_prefilter_values),
        cmocka_unit_test(test_compiled_only_when_needed),
        cmocka_unit_test(test_lazy_compile_error_fails_closed),
        cmocka_unit_test(test_lazy_shared_between_threads),
        cmocka_unit_test(test_excerpt_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
