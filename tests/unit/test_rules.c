/* rules/pack: the YAML rule-pack loader, disabling and replacing rules, and query rules that
 * evaluate #eq? / #not-eq? / #match? in the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "rules/pack.h"
#include "snipgate/snipgate.h"

#define RULE_HEAD "version: 1\nrules:\n  - id: X001\n    name: x\n    severity: high\n    message: m\n"

typedef struct bad_pack {
    const char *name;
    const char *yaml;
    const char *needle; /* must appear in diag.message */
    long line;          /* expected diag.line (0: only "has a location" is not required) */
    bool known_bug;     /* the location is missing today (see the report) */
} bad_pack;

static const bad_pack bad_packs[] = {
    {"unknown top-level key", "version: 1\nrulez: []\n", "unknown key 'rulez'", 2, false},
    {"unknown rule key", RULE_HEAD "    colour: red\n    match: {calls: [a]}\n", "unknown key 'colour'", 7, false},
    {"bad severity", "version: 1\nrules:\n  - id: X001\n    name: x\n    severity: severe\n    message: m\n"
                     "    match: {calls: [a]}\n",
     "severe", 5, false},
    {"bad regex", RULE_HEAD "    match:\n      credentials: {names: \"(unclosed\"}\n", "regular expression", 8, false},
    {"bad value regex", RULE_HEAD "    match:\n      credentials: {values: [\"[z-a]\"]}\n", "regular expression", 8,
     false},
    {"duplicate id", RULE_HEAD "    match: {calls: [a]}\n  - id: X001\n    name: y\n    severity: high\n    message: m\n"
                     "    match: {calls: [b]}\n",
     "duplicate", 8, false},
    {"missing id", "version: 1\nrules:\n  - name: x\n    severity: high\n    message: m\n    match: {calls: [a]}\n",
     "'id'", 3, false},
    {"missing severity", "version: 1\nrules:\n  - id: X001\n    name: x\n    message: m\n    match: {calls: [a]}\n",
     "'severity'", 3, false},
    {"missing match", RULE_HEAD, "match", 3, false},
    {"two kinds in match", RULE_HEAD "    match: {calls: [a], imports: [b]}\n", "exactly one", 7, false},
    {"bad query", RULE_HEAD "    match:\n      query: \"(call function: (identifer) @f)\"\n      capture: f\n", "query",
     8, false},
    {"unsupported predicate",
     RULE_HEAD "    match:\n      query: '(call function: (identifier) @f (#frob? @f \"x\"))'\n      capture: f\n",
     "#frob?", 8, false},
    {"bad #match? pattern", RULE_HEAD "    match:\n      query: '((identifier) @f (#match? @f \"[a-\"))'\n      capture: f\n",
     "#match?", 8, false},
    {"unknown capture", RULE_HEAD "    match:\n      query: \"(call) @c\"\n      capture: nope\n", "nope", 9, false},
    {"bad rule id", "version: 1\nrules:\n  - id: \"X 001!\"\n    name: x\n    severity: high\n    message: m\n"
                    "    match: {calls: [a]}\n",
     "X 001!", 3, false},
    {"unknown condition key", RULE_HEAD "    match:\n      calls: [a]\n      where: [{position: 0, sometimes: true}]\n",
     "sometimes", 9, false},
    {"YAML syntax error", "version: 1\nrules: [\n", "YAML", 3, false},
    {"no version", "rules: []\n", "version", 1, false},
    {"unsupported version", "version: 2\nrules: []\n", "version", 1, false},
    {"not a mapping", "- a\n- b\n", "mapping", 1, false},
    {"disable of an unknown id inside a pack", "version: 1\ndisable: [NOPE9]\nrules: []\n", "NOPE9", 2, false},
    {"rationale not a string", RULE_HEAD "    rationale: [a, b]\n    match: {calls: [a]}\n", "'rationale' must be a string", 7,
     false},
    {"misspelled example key", RULE_HEAD "    examples: \"eval(x)\"\n    match: {calls: [eval]}\n", "unknown key 'examples'", 7,
     false},
};

static void test_bad_packs(void **state)
{
    (void)state;
    size_t fails = 0, fixed = 0;
    for (size_t i = 0; i < sizeof bad_packs / sizeof bad_packs[0]; i++) {
        const bad_pack *b = &bad_packs[i];
        sg_rules *rules;
        assert_int_equal(sg_rules_new_default(&rules), SG_OK);
        size_t before = sg_rules_count(rules);
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_rules_load_buffer(rules, "pack.yml", b->yaml, strlen(b->yaml), false, &d);
        print_message("bad pack '%s': status %d, %s:%ld:%ld: %s\n", b->name, st, d.path, d.line, d.column, d.message);
        /* Every malformed pack is refused, with a clear message, and leaves the set unchanged. */
        assert_int_not_equal(st, SG_OK);
        assert_true(st == SG_ERR_RULES || st == SG_ERR_UNKNOWN_RULE);
        assert_int_equal(d.status, st);
        assert_non_null(strstr(d.message, b->needle));
        assert_int_equal(sg_rules_count(rules), before);
        bool located = d.line == b->line && d.column > 0;
        if (!located && !b->known_bug) {
            print_error("  FAIL: expected location line %ld with a column, got %ld:%ld\n", b->line, d.line, d.column);
            fails++;
        } else if (!located) {
            print_message("  KNOWN BUG: no line/column for this error\n");
        } else if (b->known_bug) {
            print_error("  now located: clear its known_bug flag\n");
            fixed++;
        }
        sg_rules_free(rules);
    }
    assert_int_equal(fails, 0);
    assert_int_equal(fixed, 0);
}

static void test_empty_and_missing_pack(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "e.yml", "", 0, false, &d), SG_ERR_RULES);
    assert_true(d.message[0] != 0);
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_file(rules, "/nonexistent/dir/pack.yml", false, &d), SG_ERR_IO);
    assert_true(d.sys_errno != 0);
    sg_rules_free(rules);
}

static const sg_rule_info *rules_find(const sg_rules *rules, const char *id)
{
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        const sg_rule_info *in = sg_rules_info(rules, i);
        if (!strcmp(in->id, id))
            return in;
    }
    return NULL;
}

/* Check `src` with `rules`; returns the number of findings of rule `id` and sets *ret_blocking. */
static size_t rules_check(const sg_rules *rules, const char *src, const char *id, long *ret_line, bool *ret_blocking)
{
    sg_checker *c;
    sg_options o;
    sg_options_init(&o);
    assert_int_equal(sg_checker_new(rules, &o, &c), SG_OK);
    sg_report *rep;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_checker_check(c, "t.py", src, strlen(src), &rep, &d), SG_OK);
    size_t n = 0;
    for (size_t i = 0; i < sg_report_count(rep); i++) {
        const sg_finding *f = sg_report_finding(rep, i);
        if (strcmp(f->rule_id, id))
            continue;
        if (!n && ret_line)
            *ret_line = f->line;
        if (!n && ret_blocking)
            *ret_blocking = f->blocking;
        n++;
    }
    sg_report_free(rep);
    sg_checker_free(c);
    return n;
}

static void test_valid_pack(void **state)
{
    (void)state;
    static const char yaml[] = "version: 1\n"
                               "allow_hosts: [api.example.com]\n"
                               "rules:\n"
                               "  - id: X100\n"
                               "    name: frobnicate\n"
                               "    severity: critical\n"
                               "    confidence: medium\n"
                               "    cwe: CWE-94\n"
                               "    message: \"frob is dangerous\"\n"
                               "    fix: \"do not frob\"\n"
                               "    match: {calls: [frob.nicate]}\n";
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t before = sg_rules_count(rules);
    assert_true(before >= 40);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "extra.yml", yaml, strlen(yaml), false, &d), SG_OK);
    assert_int_equal(sg_rules_count(rules), before + 1);
    const sg_rule_info *in = rules_find(rules, "X100");
    assert_non_null(in);
    assert_string_equal(in->name, "frobnicate");
    assert_int_equal(in->severity, SG_SEV_CRITICAL);
    assert_string_equal(in->confidence, "medium");
    assert_int_equal(in->cwe, 94);
    assert_string_equal(in->message, "frob is dangerous");
    assert_string_equal(in->fix, "do not frob");
    assert_string_equal(in->kind, "calls");
    assert_true(in->enabled);
    assert_string_equal(in->pack, "extra.yml");
    long line = 0;
    bool blocking = false;
    assert_int_equal(rules_check(rules, "import frob as f\nx = 1\nf.nicate()\n", "X100", &line, &blocking), 1);
    assert_int_equal(line, 3);
    assert_true(blocking);
    /* The pack's allow_hosts reach the network rules. */
    assert_int_equal(rules_check(rules, "import requests\nrequests.get('https://api.example.com/')\n", "SG701",
                                 NULL, NULL),
                     0);
    sg_rules_free(rules);
}

static void test_default_pack_contents(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    static const char *const ids[] = {"SG001", "SG002", "SG003", "SG004", "SG101", "SG102", "SG103", "SG104",
                                      "SG201", "SG206", "SG301", "SG304", "SG401", "SG402", "SG501", "SG601",
                                      "SG602", "SG701", "SG702", "SG705", "SG803", "SG804"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const sg_rule_info *in = rules_find(rules, ids[i]);
        assert_non_null(in);
        assert_true(in->name && in->name[0]);
        assert_true(in->message && in->message[0]);
        assert_true(in->matches && in->matches[0]);
        assert_string_equal(in->pack, "default");
        assert_true(in->enabled);
    }
    assert_null(sg_rules_info(rules, sg_rules_count(rules)));
    sg_rules_free(rules);
    sg_rules *empty;
    assert_int_equal(sg_rules_new_empty(&empty), SG_OK);
    assert_null(rules_find(empty, "SG201"));
    sg_rules_free(empty);
    sg_rules_free(NULL);
}

static void test_disable(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_disable(rules, "NOPE42", &d), SG_ERR_UNKNOWN_RULE);
    assert_non_null(strstr(d.message, "NOPE42"));
    sg_diag_init(&d);
    assert_int_equal(sg_rules_disable(rules, "SG201", &d), SG_OK);
    assert_false(rules_find(rules, "SG201")->enabled);
    assert_int_equal(rules_check(rules, "import os\nos.system('x')\n", "SG201", NULL, NULL), 0);
    assert_int_equal(rules_check(rules, "eval('1')\n", "SG101", NULL, NULL), 1);
    sg_rules_free(rules);

    /* The gate's own integrity checks cannot be switched off. */
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_diag_init(&d);
    sg_status st = sg_rules_disable(rules, "SG001", &d);
    long line = 0;
    bool blocking = false;
    assert_int_equal(rules_check(rules, "x = 1\ndef f(:\n", "SG001", &line, &blocking), 1);
    assert_int_equal(line, 2);
    assert_true(blocking);
    print_message("disabling SG001: %s (%s)\n", sg_strerror(st), d.message);
    assert_int_not_equal(st, SG_OK);
    sg_rules_free(rules);
}

static void test_replace_by_id(void **state)
{
    (void)state;
    static const char yaml[] = "version: 1\nrules:\n  - id: SG201\n    name: os-system-advisory\n    severity: low\n"
                               "    message: \"os.system, advisory only\"\n    match: {calls: [os.system]}\n";
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t before = sg_rules_count(rules);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "override.yml", yaml, strlen(yaml), false, &d), SG_OK);
    assert_int_equal(sg_rules_count(rules), before);
    const sg_rule_info *in = rules_find(rules, "SG201");
    assert_string_equal(in->name, "os-system-advisory");
    assert_int_equal(in->severity, SG_SEV_LOW);
    bool blocking = true;
    assert_int_equal(rules_check(rules, "import os\nos.system('x')\n", "SG201", NULL, &blocking), 1);
    assert_false(blocking);
    sg_rules_free(rules);

    /* replace_all drops the default pack. */
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "only.yml", yaml, strlen(yaml), true, &d), SG_OK);
    assert_null(rules_find(rules, "SG101"));
    assert_non_null(rules_find(rules, "SG201"));
    assert_int_equal(rules_check(rules, "eval('1')\n", "SG101", NULL, NULL), 0);
    sg_rules_free(rules);
}

static void test_query_predicates(void **state)
{
    (void)state;
    static const char yaml[] =
        "version: 1\nrules:\n"
        "  - id: Q001\n    name: eq\n    severity: high\n    message: eq\n    match:\n"
        "      query: '(call function: (identifier) @f (#eq? @f \"danger\"))'\n      capture: f\n"
        "  - id: Q002\n    name: match\n    severity: high\n    message: match\n    match:\n"
        "      query: '(call function: (attribute attribute: (identifier) @a) (#match? @a \"^run_[a-z]+$\"))'\n"
        "      capture: a\n"
        "  - id: Q003\n    name: not-eq\n    severity: high\n    message: not-eq\n    match:\n"
        "      query: '(assignment left: (identifier) @id (#match? @id \"^zz\") (#not-eq? @id \"zz_safe\"))'\n"
        "      capture: id\n";
    sg_rules *rules;
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "q.yml", yaml, strlen(yaml), false, &d), SG_OK);
    static const char src[] = "danger()\n"    /* 1: Q001 */
                              "dangerous()\n" /* 2: not #eq? */
                              "x.run_fast()\n" /* 3: Q002 */
                              "x.run_()\n"    /* 4: not #match? */
                              "x.RUN_fast()\n" /* 5: not #match? (case) */
                              "zz_top = 1\n"  /* 6: Q003 */
                              "zz_safe = 1\n" /* 7: #not-eq? excludes */
                              "aa = 1\n";     /* 8: no match */
    static const struct {
        const char *id;
        long line;
    } want[] = {{"Q001", 1}, {"Q002", 3}, {"Q003", 6}};
    long line = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(rules_check(rules, src, want[i].id, &line, NULL), 1);
        assert_int_equal(line, want[i].line);
    }
    sg_rules_free(rules);
    /* text_any: the query runs only on sources holding one of the texts (a prefilter) */
    static const char yaml_ta[] =
        "version: 1\nrules:\n"
        "  - id: Q004\n    name: text-any\n    severity: high\n    message: ta\n    match:\n"
        "      query: '(call function: (identifier) @f)'\n      capture: f\n      text_any: [MARKER, OTHER]\n";
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    assert_int_equal(sg_rules_load_buffer(rules, "t.yml", yaml_ta, strlen(yaml_ta), false, &d), SG_OK);
    assert_int_equal(rules_check(rules, "f()\n", "Q004", NULL, NULL), 0); /* no text: not run */
    /* a match holds one of them: the calls around the texts are found, the others are not looked at */
    assert_int_equal(rules_check(rules, "f()  # MARKER\nx = 1\ng(OTHER)\n", "Q004", &line, NULL), 1);
    assert_int_equal(line, 3);
    assert_int_equal(rules_check(rules, "a(MARKER)\nb(OTHER)\nc(MARKER, OTHER)\n", "Q004", NULL, NULL), 3);
    sg_rules_free(rules);
    static const char yaml_bad[] =
        "version: 1\nrules:\n"
        "  - id: Q005\n    name: text-any\n    severity: high\n    message: ta\n    match:\n"
        "      query: '(call) @c'\n      capture: c\n      text_any: {a: 1}\n";
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "b.yml", yaml_bad, strlen(yaml_bad), false, &d), SG_ERR_RULES);
    assert_non_null(strstr(d.message, "text_any"));
    sg_rules_free(rules);
    /* SG108's prefilter: a "()" key in any quoting is still seen */
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    assert_int_equal(rules_check(rules, "c = {'h': {r'()': 'os.system'}}\n", "SG108", &line, NULL), 1);
    assert_int_equal(rules_check(rules, "c = {'h': {\"\"\"()\"\"\": 'os.system'}}\n", "SG108", &line, NULL), 1);
    assert_int_equal(rules_check(rules, "c = {'h': {'(x)': 'os.system'}}\nf()\n", "SG108", &line, NULL), 0);
    sg_rules_free(rules);
    /* The default pack's query rule (SG803 breakpoint). */
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    assert_int_equal(rules_check(rules, "x = 1\nbreakpoint()\nmy.breakpoint()\n", "SG803", &line, NULL), 1);
    assert_int_equal(line, 2);
    sg_rules_free(rules);
}

/* `where` and `where_any` together: every condition of `where` and one of `where_any`; and the
 * not_python_module_in condition (python3 [flags] -m M with M listed, and no executable=). */
static void test_where_and_where_any(void **state)
{
    (void)state;
    static const char yaml[] =
        "version: 1\nrules:\n"
        "  - id: W001\n    name: both\n    severity: high\n    message: m\n    match:\n"
        "      calls: [run]\n"
        "      where:\n        - {position: 0, not_python_module_in: [pytest, \"pip list\"]}\n"
        "      where_any:\n        - {position: 0, literal_in: [\"python*\", sh]}\n"
        "        - {keyword: shell, truthy: true}\n";
    sg_rules *rules;
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "w.yml", yaml, strlen(yaml), false, &d), SG_OK);
    static const struct {
        const char *src;
        int hits;
    } cases[] = {
        {"run(['python3', '-m', 'pytest', p])\n", 0},          /* where fails */
        {"run(['python3', '-u', '-mpytest'])\n", 0},           /* joined -m, a flag before it */
        {"run(['python3', '-X', 'dev', '-m', 'pytest'])\n", 0}, /* -X takes its argument */
        {"run(['python3', '-m', 'pip', 'install', p])\n", 1},  /* not listed */
        {"run(['python3', '-m', 'pytest2'])\n", 1},            /* a glob, not a prefix */
        {"run(['python3', '-m', 'pip', 'list', '-v'])\n", 0},  /* "M ARG" listed */
        {"run(['python3', '-m', 'pip', x])\n", 1},             /* its argument unknown */
        {"run(['python3', '-c', 'import pytest'])\n", 1},      /* code before -m */
        {"run(['python3', x, '-m', 'pytest'])\n", 1},          /* an unknown item before -m */
        {"run(['python3', 'pytest.py'])\n", 1},                /* a script */
        {"run(['python3', '-m', 'pytest'], executable='/bin/sh')\n", 1}, /* not the program */
        {"run(['python3', '-m', 'pytest'], shell=True)\n", 0},  /* where fails: no where_any can */
        {"run(['ls'], shell=True)\n", 1},                       /* the second where_any */
        {"run(['ls'])\n", 0},                                   /* no where_any */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        print_message("where case %zu: %s", i, cases[i].src);
        assert_int_equal(rules_check(rules, cases[i].src, "W001", NULL, NULL), cases[i].hits);
    }
    sg_rules_free(rules);
    static const char empty_any[] =
        "version: 1\nrules:\n"
        "  - id: W002\n    name: e\n    severity: high\n    message: m\n    match:\n"
        "      calls: [run]\n      where_any: []\n";
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "e.yml", empty_any, strlen(empty_any), false, &d), SG_ERR_RULES);
    assert_non_null(strstr(d.message, "where_any"));
    sg_rules_free(rules);
}

/* The scans that follow a mapping through its name (the keys stored into env, a dict's other
 * uses) share one budget per document: a file built to make them quadratic is blocked as
 * incomplete (SG002), not checked for seconds and not passed. */
static void test_scan_budget(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t cap = 1 << 20, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    len += (size_t)snprintf(src + len, cap - len, "import subprocess, os\n");
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(src + len, cap - len, "e%d = os.environ.copy()\nsubprocess.run(['ls'], env=e%d)\n", i, i);
    assert_true(len < cap);
    bool blocking = false;
    assert_int_equal(rules_check(rules, src, "SG002", NULL, &blocking), 1);
    assert_true(blocking);
    /* a few such calls stay within it */
    assert_int_equal(rules_check(rules, "import subprocess, os\ne = os.environ.copy()\ne['LD_PRELOAD'] = 'x'\n"
                                        "subprocess.run(['ls'], env=e)\n", "SG002", NULL, NULL), 0);
    assert_int_equal(rules_check(rules, "import subprocess, os\ne = os.environ.copy()\ne['LD_PRELOAD'] = 'x'\n"
                                        "subprocess.run(['ls'], env=e)\n", "SG506", NULL, NULL), 1);
    free(src);
    sg_rules_free(rules);
}

static void test_allow_host_arguments(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    static const struct {
        const char *host;
        bool ok;
    } hosts[] = {{"api.example.com", true}, {"*.example.com", true}, {"", false},
                 {"https://x.com/path", false}, {"a b.com", false}};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        sg_status st = sg_rules_allow_host(rules, hosts[i].host);
        print_message("allow_host('%s') -> %d\n", hosts[i].host, st);
        assert_int_equal(st == SG_OK, hosts[i].ok);
    }
    assert_int_equal(rules_check(rules, "import requests\nrequests.get('https://deep.sub.example.com/')\n", "SG701",
                                 NULL, NULL),
                     0);
    assert_int_equal(
        rules_check(rules, "import requests\nrequests.get('https://example.com.evil.net/')\n", "SG701", NULL, NULL),
        1);
    sg_rules_free(rules);
}

/* A pack must not be able to switch off or soften the integrity checks (SG001 / SG002): the pack is
 * refused, and a snippet with a syntax error still blocks. */
static void test_pack_cannot_disable_builtins(void **state)
{
    (void)state;
    static const char *const ids[] = {"SG001", "SG002", "SG001"};
    static const char *const kinds[] = {"syntax-error", "limit", "syntax-error"};
    static const char *const tweak[] = {"severity: critical\n    enabled: false", "severity: critical\n    enabled: false",
                                        "severity: low"};
    for (size_t i = 0; i < 3; i++) {
        char yaml[512];
        snprintf(yaml, sizeof yaml,
                 "version: 1\nrules:\n  - id: %s\n    name: n\n    %s\n    message: m\n    match: {builtin: %s}\n",
                 ids[i], tweak[i], kinds[i]);
        sg_rules *rules;
        assert_int_equal(sg_rules_new_default(&rules), SG_OK);
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_rules_load_buffer(rules, "off.yml", yaml, strlen(yaml), false, &d), SG_ERR_RULES);
        assert_true(d.line > 0);
        const sg_rule_info *in = rules_find(rules, ids[i]);
        assert_non_null(in);
        assert_true(in->enabled);
        assert_int_equal(in->severity, SG_SEV_CRITICAL);
        assert_int_equal(rules_check(rules, "def f(:\n", "SG001", NULL, NULL), 1);
        sg_rules_free(rules);
    }
}

/* A set a checker was made from is frozen: every function that changes it refuses, and the set
 * is left as it was (a shared set must not change under a running check). */
static void test_frozen_set_refuses_changes(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    size_t count = sg_rules_count(rules);
    sg_checker *chk;
    assert_int_equal(sg_checker_new(rules, NULL, &chk), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_not_equal(sg_rules_disable(rules, "SG101", &d), SG_OK);
    assert_non_null(strstr(d.message, "cannot change"));
    assert_int_not_equal(sg_rules_allow_host(rules, "evil.example.com"), SG_OK);
    sg_diag_init(&d);
    const char *pack = "version: 1\nrules: []\n";
    assert_int_not_equal(sg_rules_load_buffer(rules, "p", pack, strlen(pack), true, &d), SG_OK);
    assert_int_equal(sg_rules_count(rules), count);
    for (size_t i = 0; i < count; i++)
        if (!strcmp(sg_rules_info(rules, i)->id, "SG101"))
            assert_true(sg_rules_info(rules, i)->enabled);
    /* and the gate behaves as before: eval blocked, the host still not allowed */
    const char *src = "import requests\neval(x)\nrequests.get('https://evil.example.com/')\n";
    sg_report *rep;
    assert_int_equal(sg_checker_check(chk, "f.py", src, strlen(src), &rep, NULL), SG_OK);
    bool eval = false, net = false;
    for (size_t i = 0; i < sg_report_count(rep); i++) {
        eval |= !strcmp(sg_report_finding(rep, i)->rule_id, "SG101");
        net |= !strcmp(sg_report_finding(rep, i)->rule_id, "SG701");
    }
    assert_true(eval);
    assert_true(net);
    sg_report_free(rep);
    sg_checker_free(chk);
    sg_rules_free(rules);
}

/* rationale and example are kept as given (block scalars included); absent, they are "". */
static void test_rationale_and_example(void **state)
{
    (void)state;
    const char *pack = "version: 1\nrules:\n"
                       "  - id: X001\n    name: x\n    severity: high\n    message: m\n"
                       "    rationale: \"because\"\n    example: |\n      import os\n      os.system(cmd)\n"
                       "    match: {calls: [os.system]}\n"
                       "  - id: X002\n    name: y\n    severity: low\n    message: m\n    match: {calls: [eval]}\n";
    sg_rules *rules;
    assert_int_equal(sg_rules_new_empty(&rules), SG_OK);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_load_buffer(rules, "p.yml", pack, strlen(pack), false, &d), SG_OK);
    assert_int_equal(sg_rules_count(rules), 2);
    assert_string_equal(sg_rules_info(rules, 0)->rationale, "because");
    assert_string_equal(sg_rules_info(rules, 0)->example, "import os\nos.system(cmd)\n");
    assert_string_equal(sg_rules_info(rules, 1)->rationale, "");
    assert_string_equal(sg_rules_info(rules, 1)->example, "");
    sg_rules_free(rules);
}

/* sg_memmem (the rare-byte search of query prefilters and credential anchors) finds exactly what
 * memmem finds: every needle of every length at every offset of random texts over a small
 * alphabet (so matches and near misses are frequent), and needles at the very ends. */
static void test_memmem_same_as_libc(void **state)
{
    (void)state;
    static const char alpha[] = "\"'() e_xq";
    unsigned seed = 12345;
    char hay[64], nd[8];
    for (int round = 0; round < 20000; round++) {
        seed = seed * 1103515245u + 12345u;
        size_t hn = (seed >> 16) % sizeof hay;
        seed = seed * 1103515245u + 12345u;
        size_t nn = (seed >> 16) % sizeof nd;
        for (size_t i = 0; i < hn; i++) {
            seed = seed * 1103515245u + 12345u;
            hay[i] = alpha[(seed >> 16) % (sizeof alpha - 1)];
        }
        for (size_t i = 0; i < nn; i++) {
            seed = seed * 1103515245u + 12345u;
            nd[i] = alpha[(seed >> 16) % (sizeof alpha - 1)];
        }
        if (round % 3 == 0 && nn && nn <= hn) /* plant it, at the end every ninth round */
            memcpy(hay + (round % 9 == 0 ? hn - nn : (seed >> 8) % (hn - nn + 1)), nd, nn);
        const char *want = memmem(hay, hn, nd, nn);
        const char *got = sg_memmem(hay, hn, nd, nn);
        if (want != got)
            fail_msg("round %d: hay '%.*s' needle '%.*s': memmem %td, sg_memmem %td", round, (int)hn, hay, (int)nn,
                     nd, want ? want - hay : -1, got ? got - hay : -1);
    }
    const char *src = "x = {'()': f}\n";
    assert_ptr_equal(sg_memmem(src, strlen(src), "'()'", 4), src + 5);
    assert_null(sg_memmem(src, strlen(src), "\"()\"", 4));
    assert_null(sg_memmem(src, 3, "{'()'", 5)); /* the needle starts inside but ends past hn */
}

/* The first-byte index of a rule's name patterns refuses only names no pattern can match. */
static void test_pattern_index(void **state)
{
    (void)state;
    char *pats[] = {"os.system", "subprocess.*", "?val", "*.loads"};
    static const char *const names[] = {"os.system", "os.popen", "subprocess.run", "eval", "pickle.loads",
                                        "xs.loads", "print", "", "subprocess", "o"};
    for (size_t np = 0; np <= 4; np++) {
        sg_patterns p = {.v = pats, .n = np};
        sg_patterns_index(&p);
        assert_true(p.indexed);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (sg_patterns_match(&p, names[i]) != sg_rules_name_match(pats, np, names[i]))
                fail_msg("%zu patterns, '%s': index and glob disagree", np, names[i]);
    }
    sg_patterns two = {.v = pats, .n = 2};
    sg_patterns_index(&two);
    assert_false(sg_patterns_match(&two, "eval")); /* no pattern starts with 'e' */
    assert_true(sg_patterns_match(&two, "subprocess.call"));
}

/* Globs: a star is any run, a question mark one character, a backslash the next character itself
 * (SG824 needs a pattern that starts with a literal slash and two stars, not every absolute path). */
static void test_glob_escape(void **state)
{
    (void)state;
    assert_true(sg_glob_match("os.*", "os.system"));
    assert_true(sg_glob_match("/\\*\\**", "/**/id_rsa"));
    assert_true(sg_glob_match("/\\*\\**", "/**"));
    assert_false(sg_glob_match("/\\*\\**", "/tmp/x"));
    assert_false(sg_glob_match("/\\*\\**", "/*x"));
    assert_true(sg_glob_match("/home/\\**", "/home/*/.ssh"));
    assert_false(sg_glob_match("/home/\\**", "/home/alice"));
    assert_true(sg_glob_match("a\\?b", "a?b"));
    assert_false(sg_glob_match("a\\?b", "axb"));
    assert_true(sg_glob_match("a\\\\b", "a\\b")); /* an escaped backslash */
    assert_true(sg_glob_match("a\\", "a\\"));       /* a trailing one stands for itself */
    assert_false(sg_glob_match("a\\", "a"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glob_escape),
        cmocka_unit_test(test_bad_packs),         cmocka_unit_test(test_empty_and_missing_pack),
        cmocka_unit_test(test_valid_pack),        cmocka_unit_test(test_default_pack_contents),
        cmocka_unit_test(test_disable),           cmocka_unit_test(test_replace_by_id),
        cmocka_unit_test(test_query_predicates),  cmocka_unit_test(test_allow_host_arguments), cmocka_unit_test(test_where_and_where_any), cmocka_unit_test(test_scan_budget),
        cmocka_unit_test(test_pack_cannot_disable_builtins),
        cmocka_unit_test(test_frozen_set_refuses_changes),
        cmocka_unit_test(test_rationale_and_example),
        cmocka_unit_test(test_memmem_same_as_libc),
        cmocka_unit_test(test_pattern_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
