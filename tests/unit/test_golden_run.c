/* The stage 3 driver (golden_tasks/golden.c) with the real sandbox: canonical solutions pass,
 * planted bugs are caught and shrunk, fake passes fail. Skips loudly (exit 77) when the kernel
 * refuses the sandbox, and fails under CI=true. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "golden_tasks/golden.h"

static sg_sandbox *sandbox;
static bool kernel_refused;
static sg_golden_pool *pool; /* the "pooled" groups run every case through warm sandboxes */

static bool kernel_ok(void)
{
    if (sandbox)
        return true;
    if (getenv("CI") && !strcmp(getenv("CI"), "true"))
        fail_msg("sandbox unavailable under CI=true");
    print_message("*** SKIP: the kernel refuses the sandbox\n");
    return false;
}

static void dump(const sg_golden_result *r)
{
    char *j = NULL;
    if (sg_golden_result_to_json(r, &j) == SG_OK) {
        print_message("%.3000s\n", j);
        free(j);
    }
}

static sg_golden_result *run(const sg_golden_task *t, const char *src, const sg_golden_opts *opts)
{
    sg_golden_result *r = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_golden_opts o;
    if (opts)
        o = *opts;
    else
        sg_golden_opts_init(&o);
    o.pool = pool;
    if (sg_golden_run(sandbox, t, src, strlen(src), &o, &r, &d) != SG_OK)
        fail_msg("%s: %s", t->task_id, d.message);
    return r;
}

/* A suite from JSONL text (fails the test if it does not load). */
static sg_golden_suite *load_suite(const char *name, const char *text)
{
    sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_suite_load_buffer(name, text, strlen(text), &s, &d) != SG_OK)
        fail_msg("suite %s: %s", name, d.message);
    return s;
}

/* Every built-in task's canonical solution passes, cases and properties (a small budget here). */
static void test_builtin_canonical_pass(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const sg_golden_suite *s = NULL;
    assert_int_equal(sg_golden_builtin_suite(&s, NULL), SG_OK);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 25;
    o.max_seconds = 30; /* a safety net only: the input budget bounds the test (a small cap flakes under load) */
    size_t cases = 0, calls = 0;
    for (size_t k = 0; k < sg_golden_suite_count(s); k++) {
        const sg_golden_task *t = sg_golden_suite_task(s, k);
        sg_golden_result *r = run(t, t->canonical_solution, &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS) {
            dump(r);
            fail_msg("%s: %s %s", t->task_id, sg_golden_verdict_name(sg_golden_result_verdict(r)),
                     sg_golden_result_error(r));
        }
        assert_int_equal(sg_golden_result_cases_run(r), t->ncases);
        cases += sg_golden_result_cases_run(r);
        calls += sg_golden_result_calls(r);
        sg_golden_result_free(r);
    }
    print_message("builtin: %zu cases, %zu calls\n", cases, calls);
}

/* Each planted bug is caught; a property failure is shrunk to the documented minimal input or
 * one as small. */
static void test_planted_bugs(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const char *src = getenv("SNIPGATE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/golden_tasks/testdata/buggy_candidates.jsonl", src ? src : ".");
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    int n = 0, larger = 0;
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 150;
    o.max_seconds = 30; /* a safety net only (see above) */
    o.max_shrink_calls = 500;
    while (getline(&line, &cap, f) > 0) {
        json_error_t e;
        json_t *row = json_loads(line, 0, &e);
        assert_non_null(row);
        const char *id = json_string_value(json_object_get(row, "task_id"));
        const char *completion = json_string_value(json_object_get(row, "completion"));
        const sg_golden_task *t = sg_golden_builtin_task(id);
        assert_non_null(t);
        sg_golden_result *r = run(t, completion, &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL) {
            dump(r);
            fail_msg("%s: planted bug not caught (%s)", id, sg_golden_result_error(r));
        }
        const sg_golden_case_result *cx = sg_golden_result_counterexample(r);
        json_t *want = json_object_get(json_object_get(row, "min_counterexample"), "args");
        if (cx) {
            /* as small as the documented minimum: compare sizes of the argument lists */
            sg_value *got = NULL, *w = NULL;
            assert_int_equal(sg_value_from_text(cx->args_json, strlen(cx->args_json), "got", &got, NULL), SG_OK);
            assert_int_equal(sg_value_from_json(want, "want", &w, NULL), SG_OK);
            char *ws = json_dumps(want, JSON_COMPACT);
            print_message("%-32s shrunk to %s (documented %s) in %u calls, seed %llu\n", id, cx->input, ws,
                          cx->shrink_calls, (unsigned long long)sg_golden_result_seed(r));
            if (sg_value_size(got) > sg_value_size(w)) {
                print_message("*** %s: counterexample %s larger than the documented %s\n", id, cx->args_json, ws);
                larger++;
            }
            free(ws);
            sg_value_free(got);
            sg_value_free(w);
        } else {
            print_message("%-32s caught by a structured case\n", id);
        }
        sg_golden_result_free(r);
        json_decref(row);
        n++;
    }
    free(line);
    fclose(f);
    assert_true(n >= 10);
    /* known: sg/parse_bool stops at the local minimum "yeſ" (a structured case), not " 0" */
    if (larger > 1)
        fail_msg("%d counterexamples larger than documented", larger);
}

/* Candidates that fake a pass. */
static void test_fake_passes_fail(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    assert_non_null(t);
    static const char *const fakes[] = {
        /* prints what a harness prints and exits 0 at import */
        "import sys\nprint('PASSED')\nprint('All tests passed')\nsys.exit(0)\n",
        /* exits 0 at the first call */
        "import os\ndef binary_search(nums, target):\n    print('PASSED')\n    os._exit(0)\n",
        /* returns an object whose __eq__ is always true */
        "class Any:\n    def __eq__(self, o):\n        return True\n    def __ne__(self, o):\n        return False\n"
        "def binary_search(nums, target):\n    return Any()\n",
        /* an int subclass that equals everything */
        "class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\n"
        "def binary_search(nums, target):\n    return I(0)\n",
        /* patches builtins (isinstance, len, AssertionError) */
        "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.AssertionError = Exception\n"
        "builtins.len = lambda x: 0\ndef binary_search(nums, target):\n    return 0\n",
        /* raises SystemExit(0) from the call */
        "def binary_search(nums, target):\n    raise SystemExit(0)\n",
    };
    for (size_t k = 0; k < sizeof fakes / sizeof *fakes; k++) {
        sg_golden_result *r = run(t, fakes[k], NULL);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL) {
            dump(r);
            fail_msg("fake %zu: %s", k, sg_golden_verdict_name(sg_golden_result_verdict(r)));
        }
        sg_golden_result_free(r);
    }
}

/* A candidate that, on one input, forges that input's result frame (the right value) and then
 * loops: the batch's next input, which never ran, is not blamed; the timeout names the forger's
 * input, as a run of that input alone does. */
static void test_forged_frame_blame(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"fb\", \"entry_point\": \"binary_search\", \"complete_solution\": true,"
        " \"timeout\": 0.3, \"canonical_solution\": \"def binary_search(nums, target):\\n"
        "    return nums.index(target) if target in nums else -1\\n\","
        " \"tests\": [{\"args\": [[1, 2], 1], \"expected\": 0}, {\"args\": [[3], 3], \"expected\": 0},"
        " {\"args\": [[3], 4], \"expected\": -1}, {\"args\": [[5, 6], 6], \"expected\": 1}]}\n";
    sg_golden_suite *s = load_suite("fb.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    static const char src[] =
        "import sys\n"
        "def _forge(value):\n"
        "    f = sys._getframe()\n"
        "    while f is not None and 'cid' not in f.f_locals:\n"
        "        f = f.f_back\n"
        "    L = f.f_locals\n"
        "    f.f_globals['_send']([('k', 'ok'), ('r', repr(value)), ('y', 'int'), ('j', str(value)),\n"
        "                          ('i', L['cid']), ('n', L['n'] + L.get('base', 0))])\n"
        "def binary_search(nums, target):\n"
        "    lo, hi = 0, len(nums)\n"
        "    while lo < hi:\n"
        "        mid = (lo + hi) // 2\n"
        "        if nums[mid] < target:\n"
        "            lo = mid + 1\n"
        "        else:\n"
        "            hi = mid\n"
        "    r = lo if lo < len(nums) and nums[lo] == target else -1\n"
        "    if nums == [3] and target == 3:\n"
        "        _forge(r)\n"
        "        while True:\n"
        "            pass\n"
        "    return r\n";
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.no_properties = true;
    sg_golden_result *r = run(t, src, &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    /* the one failed case: the forger's input, a timeout (cases before it pass, none after it
     * is judged: the first timeout ends the run) */
    const sg_golden_case_result *cx = NULL;
    for (size_t k = 0; k < sg_golden_result_count(r); k++)
        if (!sg_golden_result_case(r, k)->passed)
            cx = sg_golden_result_case(r, k);
    if (!cx || !strstr(cx->input, "binary_search([3], 3)") || !strstr(cx->reason, "timeout"))
        dump(r);
    assert_non_null(cx);
    assert_string_equal(cx->input, "binary_search([3], 3)");
    assert_non_null(strstr(cx->reason, "timeout"));
    assert_int_equal(sg_golden_result_cases_passed(r), 1);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* A reference that loops on most generated inputs ends the search after its fourth timeout;
 * the inputs it answered before that are still judged (they were thrown away unjudged: a bug the
 * candidate showed on one of them passed). */
static void test_ref_timeouts_judged(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"rt\", \"entry_point\": \"f\", \"complete_solution\": true, \"timeout\": 0.25,"
        " \"canonical_solution\": \"def f(n):\\n    while n > 5:\\n        pass\\n    return n * 2\\n\","
        " \"signature\": {\"args\": [\"int(-50..50)\"], \"returns\": \"int\"},"
        " \"tests\": [{\"args\": [1], \"expected\": 2}]}\n";
    sg_golden_suite *s = load_suite("rt.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    sg_golden_result *r = run(t, "def f(n):\n    return n * 2\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_inputs_checked(r) < 3)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_inputs_checked(r) >= 3); /* 0, 1, -1, -50, ... before the 4th */
    sg_golden_result_free(r);
    /* wrong only at -1, a boundary value the reference answers early */
    r = run(t, "def f(n):\n    return 0 if n == -1 else n * 2\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* A HumanEval task whose only examples are its check()'s asserts and whose annotation says
 * nothing usable (`l: list`): the asserts' arguments, evaluated by the reference, are the
 * examples the argument types come from, so the property stage generates inputs (it checked
 * none before), and a bug the asserts miss (x == 10) is found. */
static void test_assert_examples(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"ae\", \"entry_point\": \"count_big\","
        " \"prompt\": \"def count_big(l: list):\\n    \\\"\\\"\\\"How many items are 10 or more.\\\"\\\"\\\"\\n\","
        " \"canonical_solution\": \"    return sum(1 for x in l if x >= 10)\\n\","
        " \"test\": \"def check(candidate):\\n    assert candidate([1, 20, 30]) == 2\\n"
        "    assert candidate([]) == 0\\n    assert candidate([-4, 5, 11]) == 1\\n\"}\n";
    sg_golden_suite *s = load_suite("ae.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    sg_golden_result *r = run(t, "def count_big(l: list):\n    return sum(1 for x in l if x >= 10)\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_inputs_checked(r) < 50)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_inputs_checked(r) >= 50);
    sg_golden_result_free(r);
    r = run(t, "def count_big(l: list):\n    return sum(1 for x in l if x > 10)\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* The discard reasons add up to the discarded count, in the result's API and in its JSON; the
 * count of `want` (a reason name) is returned. */
static size_t discards(const sg_golden_result *r, const char *want)
{
    size_t sum = 0, got = 0;
    for (int k = 0; k < SG_DISCARD_COUNT; k++) {
        size_t n = sg_golden_result_inputs_discarded_by(r, (sg_golden_discard)k);
        sum += n;
        if (!strcmp(sg_golden_discard_name((sg_golden_discard)k), want))
            got = n;
    }
    assert_int_equal(sum, sg_golden_result_inputs_discarded(r));
    char *j = NULL;
    assert_int_equal(sg_golden_result_to_json(r, &j), SG_OK);
    json_t *o = json_loads(j, 0, NULL);
    assert_non_null(o);
    json_t *by = json_object_get(o, "inputs_discarded_by");
    assert_true(json_is_object(by));
    assert_int_equal((size_t)json_integer_value(json_object_get(by, want)), got);
    json_decref(o);
    free(j);
    return got;
}

/* Why inputs were discarded, by reason (issue 26 item 1): a contract that rejects odd lengths, a
 * reference that raises on negatives with no property judging a raise; none of them fails the
 * candidate. */
static void test_discard_reasons(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"why\", \"entry_point\": \"half\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def half(xs: list[int], n: int) -> int:\\n    if n < 0:\\n"
        "        raise ValueError(n)\\n    return len(xs) // 2 + n\\n\","
        " \"contract\": \"assert len(xs) % 2 == 0\\n\","
        " \"tests\": [{\"args\": [[1, 2], 3], \"expected\": 4}, {\"args\": [[], 0], \"expected\": 0}]}\n";
    sg_golden_suite *s = load_suite("why.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    sg_golden_result *r = run(t, "def half(xs, n):\n    return len(xs) // 2 + n\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || !discards(r, "contract") || !discards(r, "reference_raised"))
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(discards(r, "contract") > 0);
    assert_true(discards(r, "reference_raised") > 0);
    assert_int_equal(discards(r, "too_large"), 0);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
    /* a reference whose value has no encoding (an object of its own class) on some inputs: those
     * are discarded as `reference_unencodable` (they were counted as reference timeouts) */
    static const char box[] =
        "{\"task_id\": \"why/box\", \"entry_point\": \"boxed\", \"complete_solution\": true,"
        " \"canonical_solution\": \"class Box:\\n    pass\\ndef boxed(n: int):\\n    return Box() if n % 3 == 0 else n\\n\","
        " \"tests\": [{\"args\": [1], \"expected\": 1}, {\"args\": [2], \"expected\": 2}]}\n";
    s = load_suite("box.jsonl", box);
    t = sg_golden_suite_task(s, 0);
    r = run(t, "class Box:\n    pass\ndef boxed(n: int):\n    return Box() if n % 3 == 0 else n\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || !discards(r, "reference_unencodable"))
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(discards(r, "reference_unencodable") > 0);
    assert_int_equal(discards(r, "reference_timeout"), 0);
    assert_true(sg_golden_result_inputs_checked(r) > 0);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* The reference's answer to a generated input is settled by its Python events, not its CPU time
 * (issue 26: the same input gives the same record on an idle and on a busy machine): a reference
 * that needs ~150 ms of CPU here but 4,000,000 events (under GOLDEN_REF_EVENTS) answers every
 * input, whether its first, uncounted call finished within 100 ms or not; one that needs
 * 20,000,000 events is discarded as reference_timeout on every run, with the same counts. Before,
 * both timed out at 100 ms of CPU, and a reference near that bound was checked on some runs and
 * discarded on others. */
static void test_reference_settled_by_events(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"settle\", \"entry_point\": \"slow\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def slow(n: int) -> int:\\n    k = 0\\n    for i in range(2000000):\\n"
        "        k = (k + i * i) % 1000003\\n    return n + k - k\\n\","
        " \"tests\": [{\"args\": [1], \"expected\": 1}, {\"args\": [-2], \"expected\": -2}]}\n"
        "{\"task_id\": \"settle/over\", \"entry_point\": \"over\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def over(n: int) -> int:\\n    k = 0\\n    for i in range(10000000):\\n"
        "        k = (k + i) & 255\\n    return n + k - k\\n\","
        " \"tests\": [{\"args\": [1], \"expected\": 1}, {\"args\": [-2], \"expected\": -2}]}\n";
    sg_golden_suite *s = load_suite("settle.jsonl", suite);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 6;
    sg_golden_result *r = run(sg_golden_suite_task(s, 0), "def slow(n):\n    return n\n", &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || discards(r, "reference_timeout") ||
        sg_golden_result_inputs_checked(r) < 3)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_int_equal(discards(r, "reference_timeout"), 0);
    assert_true(sg_golden_result_inputs_checked(r) >= 3);
    sg_golden_result_free(r);
    size_t checked[2], timeouts[2], discarded[2];
    for (int k = 0; k < 2; k++) {
        r = run(sg_golden_suite_task(s, 1), "def over(n):\n    return n\n", &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || !discards(r, "reference_timeout"))
            dump(r);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
        checked[k] = sg_golden_result_inputs_checked(r);
        timeouts[k] = discards(r, "reference_timeout");
        discarded[k] = sg_golden_result_inputs_discarded(r);
        assert_true(timeouts[k] > 0);
        sg_golden_result_free(r);
    }
    assert_int_equal(checked[0], checked[1]);
    assert_int_equal(timeouts[0], timeouts[1]);
    assert_int_equal(discarded[0], discarded[1]);
    sg_golden_suite_free(s);
}

/* A reference that is only fast for small inputs (an exponential fib): the block runs smallest
 * first, and once the reference times out on n, every later input at least as large is
 * discarded without a call; the search goes on with smaller ones. Before, four timeouts in the
 * first block ended the search with a handful of inputs judged. */
static void test_reference_fence(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"fence\", \"entry_point\": \"fib\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def fib(n: int):\\n    if n < 2:\\n        return n\\n"
        "    return fib(n - 1) + fib(n - 2)\\n\","
        " \"tests\": [{\"args\": [5], \"expected\": 5}, {\"args\": [10], \"expected\": 55}]}\n";
    sg_golden_suite *s = load_suite("fence.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    static const char good[] = "def fib(n: int):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
                               "    return a if n >= 0 else n\n";
    sg_golden_result *r = run(t, good, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_inputs_checked(r) < 40)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_inputs_checked(r) >= 40);
    assert_true(discards(r, "reference_timeout") > 0); /* the timeouts themselves */
    assert_true(discards(r, "fenced") > 0);            /* and the larger inputs never called */
    sg_golden_result_free(r);
    static const char bad[] = "def fib(n: int):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
                              "    return 0 if 15 <= n <= 20 else a if n >= 0 else n\n";
    r = run(t, bad, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* The failure whose reason starts with `prefix` (the criterion's: "too-slow"), or NULL. */
static const sg_golden_case_result *failure_of(const sg_golden_result *r, const char *prefix)
{
    for (size_t k = 0; k < sg_golden_result_count(r); k++) {
        const sg_golden_case_result *c = sg_golden_result_case(r, k);
        if (!c->passed && c->reason && !strncmp(c->reason, prefix, strlen(prefix)))
            return c;
    }
    return NULL;
}

/* Efficiency (issue 26 item 5): on the examples scaled 2x..16x, a candidate whose cost (Python
 * events: calls and lines, counted in its sandbox, no clock) outgrows the reference's is blocked
 * as too-slow, naming the input and both costs; the same answer written in linear time, or in
 * quadratic time on these sizes, passes; `"efficiency": false` turns it off; a task's own
 * inputs replace the scaled examples. Both the generated inputs of the property stage (lists of
 * at most 8 ints) and the task's cases are too small for the exponential candidate to time out:
 * before, it passed. The verdict is the same on every run (counts, not time). */
static void test_efficiency_too_slow(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"eff\", \"entry_point\": \"has_pair\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def has_pair(xs: list[int]) -> bool:\\n    seen = set()\\n"
        "    for x in xs:\\n        if -x in seen:\\n            return True\\n        seen.add(x)\\n"
        "    return False\\n\","
        " \"signature\": {\"args\": [\"list[int(-100..100)]\"], \"returns\": \"bool\"},"
        " \"tests\": [{\"args\": [[1, 2, 3, 4, 5, 6]], \"expected\": false},"
        "           {\"args\": [[1, -1]], \"expected\": true}]}\n"
        "{\"task_id\": \"eff-off\", \"entry_point\": \"has_pair\", \"complete_solution\": true, \"efficiency\": false,"
        " \"canonical_solution\": \"def has_pair(xs: list[int]) -> bool:\\n    return any(-x in xs[:i] for i, x in enumerate(xs))\\n\","
        " \"signature\": {\"args\": [\"list[int(-100..100)]\"], \"returns\": \"bool\"},"
        " \"tests\": [{\"args\": [[1, 2, 3, 4, 5, 6]], \"expected\": false}]}\n"
        "{\"task_id\": \"eff-inputs\", \"entry_point\": \"has_pair\", \"complete_solution\": true,"
        " \"efficiency\": {\"inputs\": [[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]]],"
        "  \"factor\": 10, \"slack\": 100000},"
        " \"canonical_solution\": \"def has_pair(xs: list[int]) -> bool:\\n    return any(-x in xs[:i] for i, x in enumerate(xs))\\n\","
        " \"signature\": {\"args\": [\"list[int(-100..100)]\"], \"returns\": \"bool\"},"
        " \"tests\": [{\"args\": [[1]], \"expected\": false}]}\n";
    /* every pair through all 2^n subsets: fine on 8 elements, hopeless on 48 */
    static const char slow[] = "def has_pair(xs):\n    n = len(xs)\n    for mask in range(1 << n):\n"
                               "        if bin(mask).count('1') == 2:\n"
                               "            i, j = [k for k in range(n) if mask >> k & 1]\n"
                               "            if xs[i] + xs[j] == 0:\n                return True\n"
                               "    return False\n";
    static const char quadratic[] = "def has_pair(xs):\n    for i in range(len(xs)):\n"
                                    "        for j in range(i):\n            if xs[i] + xs[j] == 0:\n"
                                    "                return True\n    return False\n";
    sg_golden_suite *s = load_suite("eff.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    char *first = NULL;
    for (int round = 0; round < 2; round++) {
        sg_golden_result *r = run(t, slow, NULL);
        const sg_golden_case_result *c = failure_of(r, "too-slow");
        if (!c)
            dump(r);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
        assert_non_null(c);
        assert_string_equal(c->name, "efficiency");
        assert_non_null(strstr(c->reason, "too-slow: on the example scaled"));
        assert_non_null(strstr(c->reason, "where the reference costs"));
        assert_non_null(strstr(c->got, "Python events"));
        assert_non_null(strstr(c->input, "has_pair([1, 1, "));
        char *j = NULL;
        assert_int_equal(sg_golden_result_to_json(r, &j), SG_OK);
        if (!first)
            first = j;
        else {
            assert_string_equal(j, first); /* the same bytes on every run */
            free(j);
        }
        sg_golden_result_free(r);
    }
    free(first);
    sg_golden_result *r = run(t, quadratic, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_efficiency_checked(r) < 4)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_efficiency_checked(r) >= 4);
    assert_int_equal(sg_golden_result_efficiency_scale(r), 16);
    sg_golden_result_free(r);
    /* off */
    r = run(sg_golden_suite_task(s, 1), slow, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_int_equal(sg_golden_result_efficiency_checked(r), 0);
    sg_golden_result_free(r);
    /* the task's own input (22 elements: 2^22 masks) */
    r = run(sg_golden_suite_task(s, 2), slow, NULL);
    const sg_golden_case_result *c = failure_of(r, "too-slow");
    if (!c)
        dump(r);
    assert_non_null(c);
    assert_non_null(strstr(c->reason, "the task's efficiency input 1"));
    sg_golden_result_free(r);
    r = run(sg_golden_suite_task(s, 2), quadratic, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_int_equal(sg_golden_result_efficiency_checked(r), 1);
    assert_int_equal(sg_golden_result_efficiency_scale(r), 0);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* Types inferred from the examples keep the generated inputs in the examples' envelope (issue
 * 26): all positive ints, non-empty digit strings here. A correct answer that refuses what the
 * examples never show (negatives, letters) passes where the reference's answer means nothing;
 * a wrong one inside the envelope is still found; and the inputs outside are counted. */
static void test_examples_envelope(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"env\", \"entry_point\": \"digit_sum_times\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def digit_sum_times(s, k):\\n    return sum(int(c) for c in s) * k\\n\","
        " \"tests\": [{\"args\": [\"123\", 2], \"expected\": 12}, {\"args\": [\"9\", 1], \"expected\": 9},"
        " {\"args\": [\"4071\", 3], \"expected\": 36}]}\n";
    sg_golden_suite *s = load_suite("env.jsonl", suite);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    static const char strict[] = "def digit_sum_times(s, k):\n    if k < 1 or not s.isdigit():\n"
                                 "        raise ValueError('k must be positive, s digits')\n"
                                 "    return sum(map(int, s)) * k\n";
    sg_golden_result *r = run(t, strict, NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_inputs_checked(r) < 30)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_inputs_checked(r) >= 30);
    char *j = NULL;
    assert_int_equal(sg_golden_result_to_json(r, &j), SG_OK);
    json_t *o = json_loads(j, 0, NULL);
    assert_non_null(o);
    assert_true(json_integer_value(json_object_get(o, "inputs_discarded")) > 0);
    json_decref(o);
    free(j);
    assert_true(discards(r, "envelope") > 0);
    sg_golden_result_free(r);
    /* wrong on a digit '0' inside a longer string (the envelope still has it) */
    r = run(t, "def digit_sum_times(s, k):\n    return sum(int(c) for c in s.replace('0', '1')) * k\n", NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* Inputs that find the bugs code models write, early and on every run (issue 26 item 3): with a
 * budget of 24 inputs, the boundary values reach a prime test wrong on squares (4, 9, 25, 49),
 * a running maximum that starts at 0 (an all-negative list) and a duplicate check that only
 * compares neighbours (a duplicate at different positions). */
static void test_boundary_strategies(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"bp\", \"entry_point\": \"is_prime\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def is_prime(n: int) -> bool:\\n    if n < 2:\\n        return False\\n"
        "    d = 2\\n    while d * d <= n:\\n        if n % d == 0:\\n            return False\\n        d += 1\\n"
        "    return True\\n\", \"tests\": [{\"args\": [7], \"expected\": true}, {\"args\": [13], \"expected\": true}]}\n"
        "{\"task_id\": \"rm\", \"entry_point\": \"largest\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def largest(xs: list[int]) -> int:\\n    return max(xs) if xs else 0\\n\","
        " \"tests\": [{\"args\": [[3, 1, 2]], \"expected\": 3}]}\n"
        "{\"task_id\": \"dup\", \"entry_point\": \"has_dup\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def has_dup(xs: list[int]) -> bool:\\n    return len(set(xs)) != len(xs)\\n\","
        " \"tests\": [{\"args\": [[1, 2, 3]], \"expected\": false}, {\"args\": [[4, 4]], \"expected\": true}]}\n"
        "{\"task_id\": \"words\", \"entry_point\": \"words\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def words(s: str) -> int:\\n    return len(s.split())\\n\","
        " \"tests\": [{\"args\": [\"hello world\"], \"expected\": 2}]}\n"
        "{\"task_id\": \"first\", \"entry_point\": \"first\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def first(s: str) -> str:\\n    w = s.split()\\n    return w[0] if w else ''\\n\","
        " \"tests\": [{\"args\": [\"hello world\"], \"expected\": \"hello\"}]}\n"
        "{\"task_id\": \"shout\", \"entry_point\": \"shout\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def shout(s: str) -> str:\\n    return s.upper() + '!'\\n\","
        " \"tests\": [{\"args\": [\"hey\"], \"expected\": \"HEY!\"}]}\n"
        "{\"task_id\": \"common\", \"entry_point\": \"common\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def common(l1: list, l2: list):\\n    return sorted(set(l1) & set(l2))\\n\","
        " \"signature\": {\"args\": [\"list[int(0..50)]\", \"list[int(0..50)]\"], \"returns\": \"list[int]\"},"
        " \"tests\": [{\"args\": [[1, 4, 3, 34, 653, 2, 5], [5, 7, 1, 5, 9, 653, 121]], \"expected\": [1, 5, 653]},"
        " {\"args\": [[5, 3, 2, 8], [3, 2]], \"expected\": [2, 3]}]}\n"
        "{\"task_id\": \"clamp\", \"entry_point\": \"clamp\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def clamp(p: int) -> int:\\n    return max(0, min(100, p))\\n\","
        " \"tests\": [{\"args\": [0], \"expected\": 0}, {\"args\": [50], \"expected\": 50},"
        " {\"args\": [100], \"expected\": 100}]}\n";
    sg_golden_suite *s = load_suite("bp.jsonl", suite);
    static const char *const wrong[] = {
        "def is_prime(n: int) -> bool:\n    return n > 1 and all(n % d for d in range(2, int(n ** 0.5)))\n",
        "def largest(xs: list[int]) -> int:\n    m = 0\n    for x in xs:\n        m = max(m, x)\n    return m\n",
        "def has_dup(xs: list[int]) -> bool:\n    return any(a == b for a, b in zip(xs, xs[1:]))\n",
        /* whitespace and case variants of strings (issue 26 item 3): words split on one space
         * (passed with 24 inputs before the variants: "a  b"), the first word of a string with a
         * leading blank (" a "), upper case built per character at a fixed length ("ß") */
        "def words(s: str) -> int:\n    return len(s.strip().split(' ')) if s.strip() else 0\n",
        "def first(s: str) -> str:\n    return s.split(' ')[0]\n",
        ("def shout(s: str) -> str:\n    out = list(s)\n    for i, c in enumerate(s):\n"
         "        out[i] = c.upper()[0]\n    return ''.join(out) + '!'\n"),
        /* an order that is not accidental (issue 26 item 3): a set intersection returned as the
         * set's order, which is sorted for most small ints (passed with 24 inputs before) */
        "def common(l1: list, l2: list):\n    return list(set(l1) & set(l2))\n",
        /* the examples' own boundaries (issue 26 item 3): off by one just past the largest
         * example (passed with 24 inputs before) */
        "def clamp(p: int) -> int:\n    return max(0, p) if p <= 101 else 100\n",
    };
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 24;
    for (size_t k = 0; k < sizeof wrong / sizeof *wrong; k++) {
        const sg_golden_task *t = sg_golden_suite_task(s, k);
        sg_golden_result *r = run(t, t->canonical_solution, &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
            dump(r);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
        sg_golden_result_free(r);
        r = run(t, wrong[k], &o);
        print_message("%s, wrong: %s\n", t->task_id, sg_golden_verdict_name(sg_golden_result_verdict(r)));
        if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
            dump(r);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
        sg_golden_result_free(r);
    }
    sg_golden_suite_free(s);
}

/* A task that gives no tolerance: floats compare within 1e-6 + 1e-7 * |expected| (a mean computed
 * with math.fsum differs from the reference's sum in the last bit, and is correct), a real error
 * does not pass, and an int result compares exactly (issue 26). */
static void test_default_float_tolerance(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"mad\", \"entry_point\": \"mad\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def mad(xs):\\n    m = sum(xs) / len(xs)\\n"
        "    return sum(abs(x - m) for x in xs) / len(xs)\\n\","
        " \"signature\": {\"args\": [\"list[float(-100..100)](min=1, max=8)\"], \"returns\": \"float\"},"
        " \"tests\": [{\"args\": [[1.0, 2.0, 3.0]], \"expected\": 0.6666666666666666},"
        " {\"args\": [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]], \"expected\": 0.15}]}\n"
        "{\"task_id\": \"half\", \"entry_point\": \"half\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def half(n):\\n    return n // 2\\n\","
        " \"tests\": [{\"args\": [10], \"expected\": 5}]}\n";
    sg_golden_suite *s = load_suite("tol.jsonl", suite);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 60;
    const char *fsum = "import math\ndef mad(xs):\n    m = math.fsum(xs) / len(xs)\n"
                       "    return math.fsum(abs(x - m) for x in xs) / len(xs)\n";
    sg_golden_result *r = run(sg_golden_suite_task(s, 0), fsum, &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    sg_golden_result_free(r);
    const char *off = "def mad(xs):\n    m = sum(xs) / len(xs)\n    return sum(abs(x - m) for x in xs) / len(xs) + 1e-4\n";
    r = run(sg_golden_suite_task(s, 0), off, &o);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    r = run(sg_golden_suite_task(s, 1), "def half(n):\n    return n / 2 + 1e-9\n", &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* The first failed case of a result, or NULL. */
static const sg_golden_case_result *first_failure(const sg_golden_result *r)
{
    for (size_t k = 0; k < sg_golden_result_count(r); k++)
        if (!sg_golden_result_case(r, k)->passed)
            return sg_golden_result_case(r, k);
    return NULL;
}

/* Side effects on arguments (issue 26): a candidate that sorts the caller's list in place where
 * the reference returns a sorted copy is blocked, naming the argument; a copy passes; a task that
 * allows mutation lets it pass; an in-place task ("mutation": "expected") blocks a candidate that
 * leaves the list as it was. */
static void test_argument_side_effects(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"sc\", \"entry_point\": \"sorted_copy\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def sorted_copy(xs):\\n    return sorted(xs)\\n\","
        " \"signature\": {\"args\": [\"list[int(-9..9)](max=6)\"], \"returns\": \"list[int]\"},"
        " \"tests\": [{\"args\": [[1, 2, 3]], \"expected\": [1, 2, 3]}]}\n"
        "{\"task_id\": \"sc_allowed\", \"entry_point\": \"sorted_copy\", \"complete_solution\": true,"
        " \"mutation\": \"allowed\","
        " \"canonical_solution\": \"def sorted_copy(xs):\\n    return sorted(xs)\\n\","
        " \"signature\": {\"args\": [\"list[int(-9..9)](max=6)\"], \"returns\": \"list[int]\"},"
        " \"tests\": [{\"args\": [[1, 2, 3]], \"expected\": [1, 2, 3]}]}\n"
        "{\"task_id\": \"ip\", \"entry_point\": \"sort_in_place\", \"complete_solution\": true,"
        " \"mutation\": \"expected\","
        " \"canonical_solution\": \"def sort_in_place(xs):\\n    xs.sort()\\n\","
        " \"signature\": {\"args\": [\"list[int(-9..9)](max=6)\"], \"returns\": \"None\"},"
        " \"tests\": [{\"args\": [[1, 2]], \"expected\": null}]}\n";
    sg_golden_suite *s = load_suite("fx.jsonl", suite);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 60;
    const char *in_place = "def sorted_copy(xs):\n    xs.sort()\n    return xs\n";
    sg_golden_result *r = run(sg_golden_suite_task(s, 0), in_place, &o);
    const sg_golden_case_result *cx = first_failure(r);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL || !cx || !cx->reason || !strstr(cx->reason, "argument 0"))
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    assert_non_null(cx);
    assert_non_null(strstr(cx->reason, "changed argument 0"));
    sg_golden_result_free(r);
    const char *copy = "def sorted_copy(xs):\n    ys = list(xs)\n    ys.sort()\n    return ys\n";
    r = run(sg_golden_suite_task(s, 0), copy, &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_true(sg_golden_result_inputs_checked(r) > 10);
    sg_golden_result_free(r);
    r = run(sg_golden_suite_task(s, 1), in_place, &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    sg_golden_result_free(r);
    r = run(sg_golden_suite_task(s, 2), "def sort_in_place(xs):\n    xs.sort()\n", &o);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    sg_golden_result_free(r);
    r = run(sg_golden_suite_task(s, 2), "def sort_in_place(xs):\n    sorted(xs)\n", &o);
    cx = first_failure(r);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL || !cx || !cx->reason || !strstr(cx->reason, "unchanged"))
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    assert_non_null(strstr(cx->reason, "leaves its arguments unchanged"));
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

/* A structured case reports input, expected and got; a replay with the same seed gives the same
 * counterexample. */
/* Keyword-only parameters of a signature are generated too: a bug that shows only when a
 * keyword argument is given is found, and its input shows the keyword. Types from annotations
 * (no signature) drive the search as well. */
static void test_kwargs_and_annotations(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char suite[] =
        "{\"task_id\": \"kw\", \"entry_point\": \"scale\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def scale(x, *, factor=1):\\n    return x * factor\\n\","
        " \"signature\": {\"args\": [\"int(-50..50)\"], \"kwargs\": {\"factor\": \"int(-5..5)\"}, \"returns\": \"int\"},"
        " \"tests\": [{\"args\": [2], \"expected\": 2}, {\"args\": [3], \"kwargs\": {\"factor\": 2}, \"expected\": 6}]}\n"
        "{\"task_id\": \"an\", \"entry_point\": \"clamp\", \"complete_solution\": true,"
        " \"canonical_solution\": \"def clamp(xs: list[int], hi: int) -> list[int]:\\n    return [min(x, hi) for x in xs]\\n\","
        " \"tests\": [{\"args\": [[1, 5], 3], \"expected\": [1, 3]}]}\n";
    sg_golden_suite *s = load_suite("kw.jsonl", suite);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    /* wrong only for a negative factor, which no structured case has */
    const char *kw_bug = "def scale(x, *, factor=1):\n    return x * abs(factor)\n";
    sg_golden_result *r = run(sg_golden_suite_task(s, 0), kw_bug, &o);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    const sg_golden_case_result *cx = sg_golden_result_counterexample(r);
    assert_non_null(cx);
    assert_non_null(strstr(cx->input, "factor=-"));
    sg_golden_result_free(r);
    const char *kw_ok = "def scale(x, *, factor=1):\n    return factor * x\n";
    r = run(sg_golden_suite_task(s, 0), kw_ok, &o);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    sg_golden_result_free(r);
    /* annotations: wrong only for negative numbers, found by generated inputs */
    const char *an_bug = "def clamp(xs, hi):\n    return [min(abs(x), hi) for x in xs]\n";
    r = run(sg_golden_suite_task(s, 1), an_bug, &o);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    assert_true(sg_golden_result_inputs_checked(r) > 0);
    sg_golden_result_free(r);
    sg_golden_suite_free(s);
}

static void test_report_and_replay(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    const char *wrong = "def binary_search(nums, target):\n    return -1 if target not in nums else nums.index(target) + (target < 0)\n";
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.has_seed = true;
    o.seed = 12345;
    sg_golden_result *r1 = run(t, wrong, &o), *r2 = run(t, wrong, &o);
    assert_int_equal(sg_golden_result_verdict(r1), SG_GOLDEN_FAIL);
    assert_int_equal(sg_golden_result_seed(r1), 12345);
    const sg_golden_case_result *a = sg_golden_result_counterexample(r1), *b = sg_golden_result_counterexample(r2);
    if (a) {
        assert_non_null(b);
        assert_string_equal(a->args_json, b->args_json);
        assert_non_null(a->expected);
        assert_non_null(a->got);
    } else {
        const sg_golden_case_result *c = sg_golden_result_case(r1, 0);
        assert_non_null(c);
        assert_non_null(c->input);
        assert_non_null(c->expected);
    }
    sg_golden_result_free(r1);
    sg_golden_result_free(r2);
}

/* Suites users have: HumanEval (asserts one by one), MBPP (test_list), MBPP+ (inputs,
 * reference-computed expected values): the first tasks' canonical solutions pass, and a wrong
 * completion fails. Skips when ../shared/data is absent. */
static const sg_golden_suite *load_shared(const char *name, sg_golden_suite **own)
{
    const char *src = getenv("SNIPGATE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/../shared/data/%s", src ? src : ".", name);
    if (access(path, R_OK) != 0) {
        print_message("*** SKIP: %s is absent\n", path);
        return NULL;
    }
    char tmp[] = "/tmp/sg-golden-run-XXXXXX";
    const char *load = path;
    if (strstr(name, ".gz")) {
        int fd = mkstemp(tmp);
        assert_true(fd >= 0);
        close(fd);
        char cmd[2200];
        snprintf(cmd, sizeof cmd, "/bin/gzip -dc '%s' > '%s'", path, tmp);
        assert_int_equal(system(cmd), 0);
        load = tmp;
    }
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_golden_suite_load_file(load, own, &d);
    if (load == tmp)
        unlink(tmp);
    if (st != SG_OK)
        fail_msg("%s: %s", name, d.message);
    return *own;
}

static void check_public(const char *name, size_t first, size_t count, bool completion)
{
    sg_golden_suite *own = NULL;
    const sg_golden_suite *s = load_shared(name, &own);
    if (!s)
        return;
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.max_inputs = 20;
    o.max_seconds = 30; /* a safety net only (see above) */
    o.completion = completion;
    for (size_t k = first; k < first + count && k < sg_golden_suite_count(s); k++) {
        const sg_golden_task *t = sg_golden_suite_task(s, k);
        const char *sol = t->format == SG_TASK_MBPP ? t->code : t->canonical_solution;
        sg_golden_result *r = run(t, sol, &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS) {
            dump(r);
            fail_msg("%s %s: %s %s", name, t->task_id, sg_golden_verdict_name(sg_golden_result_verdict(r)),
                     sg_golden_result_error(r));
        }
        sg_golden_result_free(r);
        /* a wrong completion: returns None */
        char wrong[512];
        snprintf(wrong, sizeof wrong, "%sdef %s(*a, **k):\n    return None\n", completion ? "    pass\n" : "",
                 t->entry_point ? t->entry_point : "unused");
        if (t->entry_point) {
            r = run(t, wrong, &o);
            if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL) {
                dump(r);
                fail_msg("%s %s: a wrong completion is not failed", name, t->task_id);
            }
            sg_golden_result_free(r);
        }
    }
    sg_golden_suite_free(own);
}

static void test_public_suites(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    check_public("HumanEval.jsonl.gz", 0, 6, true);
    check_public("HumanEval.jsonl.gz", 32, 1, true); /* check() with a loop: run whole */
    check_public("mbpp.jsonl", 10, 4, false);
    /* Mbpp/2 (index 0) returns tuple(set(a) & set(b)): its order follows str hashing, the same
     * in both workers only because the sandbox fixes PYTHONHASHSEED */
    check_public("MbppPlus-dev-767efcc.jsonl", 0, 5, true);
}

static int setup_kernel(void **state)
{
    (void)state;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_sandbox_new(NULL, &sandbox, &d) != SG_OK) {
        print_message("*** the kernel refuses the sandbox: %s\n", d.message);
        sandbox = NULL;
        kernel_refused = true;
    }
    return 0;
}

static int teardown_kernel(void **state)
{
    (void)state;
    sg_golden_pool_free(pool);
    pool = NULL;
    sg_sandbox_free(sandbox);
    sandbox = NULL;
    return 0;
}

static int setup_pooled(void **state)
{
    setup_kernel(state);
    return sandbox && sg_golden_pool_new(&pool) != SG_OK ? -1 : 0;
}

static void *cancel_later(void *flag)
{
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store((atomic_int *)flag, 1);
    return NULL;
}

/* opts.cancel: set before the run, nothing runs and the verdict is error (never a pass); set by
 * another thread during a long call, the call's sandbox is killed at once and the run ends in
 * error, long before its cases would have ended (a correct but slow candidate: 9 cases of about
 * 1 s each). */
static void test_cancel(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    assert_non_null(t);
    atomic_int flag = 1;
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.cancel = &flag;
    sg_golden_result *r = run(t, t->canonical_solution, &o);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_ERROR);
    assert_non_null(strstr(sg_golden_result_error(r), "cancelled"));
    assert_int_equal(sg_golden_result_calls(r), 0);
    sg_golden_result_free(r);

    /* a correct solution (examples/golden/binary_search_ok.py) that spins ~1 s per call */
    const char *slow = "def binary_search(nums, target):\n"
                       "    n = 0\n    for i in range(30_000_000):\n        n += i\n"
                       "    lo, hi = 0, len(nums)\n    while lo < hi:\n        mid = (lo + hi) // 2\n"
                       "        if nums[mid] < target:\n            lo = mid + 1\n        else:\n            hi = mid\n"
                       "    return lo if lo < len(nums) and nums[lo] == target else -1\n";
    atomic_store(&flag, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, cancel_later, &flag), 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    r = run(t, slow, &o);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(th, NULL);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (sg_golden_result_verdict(r) != SG_GOLDEN_ERROR)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_ERROR);
    print_message("cancelled after %.2f s: %s\n", secs, sg_golden_result_error(r));
    /* the cases alone take ~9 s here (9 calls); stopped at 0.3 s plus a teardown */
    assert_true(secs < 4);
    sg_golden_result_free(r);
}

/* A pool's sandboxes are started once and serve every run after: a fake pass between two honest
 * runs changes neither honest verdict. It kills what it can name (its parent, which is its call's
 * own init, and every process of its pid namespace): nothing of the sandbox, which needs no
 * restart (before the call children had namespaces of their own it killed the zygote). It sends
 * SIGTERM: a SIGKILL from inside is a forbidden call, which ends the sandbox (test_sandbox's pool
 * attack 'sigkill'). */
static void test_pool_reuse(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    assert_non_null(pool);
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    assert_non_null(t);
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.no_properties = true;
    const char *fake = "import os, sys\n"
                       "def binary_search(nums, target):\n"
                       "    print('PASSED'); sys.stdout.flush()\n"
                       "    for pid in (os.getppid(), 1, -1):\n"
                       "        try:\n"
                       "            os.kill(pid, 15)\n"
                       "        except OSError:\n"
                       "            pass\n"
                       "    os._exit(0)\n";
    unsigned runs[6], at = 0;
    for (int k = 0; k < 6; k++) {
        if (k >= 2 && k <= 4) { /* a fake between two honest runs */
            sg_golden_result *f = run(t, fake, &o);
            assert_int_not_equal(sg_golden_result_verdict(f), SG_GOLDEN_PASS);
            sg_golden_result_free(f);
        }
        unsigned before = sg_golden_pool_starts(pool);
        sg_golden_result *r = run(t, t->canonical_solution, &o);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
        sg_golden_result_free(r);
        runs[at++] = sg_golden_pool_starts(pool) - before;
    }
    print_message("sandbox starts of 6 honest runs: %u %u %u %u %u %u\n", runs[0], runs[1], runs[2], runs[3],
                  runs[4], runs[5]);
    assert_true(runs[0] <= 1); /* the pool's first (test_cancel may have left it dead) */
    assert_int_equal(runs[1], 0); /* warm */
    for (int k = 2; k <= 5; k++)
        assert_int_equal(runs[k], 0); /* the fake reached nothing that needs a restart */
}

/* HumanEval and MBPP tasks through a pool: the asserts' calls are sent before the imports are
 * judged, so each worker's first batch imports the program too, and no call is spent on an
 * import alone (issue 24's throughput: 2 of a HumanEval task's 8 calls). Without properties a
 * task costs exactly one call of the reference and one of the candidate (four before), the
 * verdicts are as before: a right answer passes, a wrong one fails its assert, one that raises
 * at import fails as `import`, and one whose import loops is stopped and blocked. */
static unsigned long pool_calls_of(const sg_golden_task *t, const char *src, sg_golden_verdict want,
                                   const char *case_name)
{
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.no_properties = true;
    unsigned long before = sg_golden_pool_calls(pool);
    sg_golden_result *r = run(t, src, &o);
    if (sg_golden_result_verdict(r) != want)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), want);
    if (case_name) {
        const sg_golden_case_result *c = sg_golden_result_case(r, 0);
        assert_non_null(c);
        assert_false(c->passed);
        assert_string_equal(c->name, case_name);
    }
    sg_golden_result_free(r);
    return sg_golden_pool_calls(pool) - before;
}

static void test_pool_asserts_ahead(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    assert_non_null(pool);
    static const char suite[] =
        "{\"task_id\": \"ahead/he\", \"entry_point\": \"twice\","
        " \"prompt\": \"def twice(x: int):\\n    \\\"\\\"\\\"2 x.\\\"\\\"\\\"\\n\","
        " \"canonical_solution\": \"    return 2 * x\\n\","
        " \"test\": \"def check(candidate):\\n    assert candidate(1) == 2\\n"
        "    assert candidate(-3) == -6\\n    assert candidate(0) == 0\\n\"}\n";
    static const char mbpp[] =
        "{\"task_id\": 90001, \"text\": \"Add one.\", \"code\": \"def add1(x):\\n    return x + 1\\n\","
        " \"test_list\": [\"assert add1(1) == 2\", \"assert add1(-1) == 0\"], \"test_setup_code\": \"\","
        " \"challenge_test_list\": []}\n";
    sg_golden_suite *s = load_suite("ahead.jsonl", suite), *m = load_suite("ahead_mbpp.jsonl", mbpp);
    const sg_golden_task *t = sg_golden_suite_task(s, 0), *tm = sg_golden_suite_task(m, 0);
    assert_int_equal(t->format, SG_TASK_HUMANEVAL);
    assert_int_equal(tm->format, SG_TASK_MBPP);
    /* the first run of a task: the reference's batch and the candidate's */
    assert_int_equal(pool_calls_of(t, "def twice(x: int):\n    return 2 * x\n", SG_GOLDEN_PASS, NULL), 2);
    /* the reference's answers are kept by the pool (test_pool_reference_cache): one call each */
    assert_int_equal(pool_calls_of(t, "def twice(x: int):\n    return x + x\n", SG_GOLDEN_PASS, NULL), 1);
    assert_int_equal(pool_calls_of(t, "def twice(x: int):\n    return 2 * abs(x)\n", SG_GOLDEN_FAIL, NULL), 1);
    assert_int_equal(pool_calls_of(t, "raise ValueError('no')\ndef twice(x):\n    return 2 * x\n", SG_GOLDEN_FAIL,
                                   "import"),
                     1);
    /* an import that loops: the batch's import times out, once */
    assert_true(pool_calls_of(t, "while True:\n    pass\n", SG_GOLDEN_FAIL, "import") <= 2);
    /* with properties (one block of generated inputs): the scaled inputs of the efficiency check
     * go with that block, in the same calls: four calls in all (eight before) */
    {
        static const char suite2[] =
            "{\"task_id\": \"ahead/he2\", \"entry_point\": \"total\","
            " \"prompt\": \"def total(l: list):\\n    \\\"\\\"\\\"Sum.\\\"\\\"\\\"\\n\","
            " \"canonical_solution\": \"    return sum(l)\\n\","
            " \"test\": \"def check(candidate):\\n    assert candidate([1, 2, 3]) == 6\\n"
            "    assert candidate([]) == 0\\n    assert candidate([5, -5, 7, 9, 11]) == 27\\n\"}\n";
        sg_golden_suite *s2 = load_suite("ahead2.jsonl", suite2);
        const sg_golden_task *t2 = sg_golden_suite_task(s2, 0);
        sg_golden_opts o;
        sg_golden_opts_init(&o);
        o.max_inputs = 100;
        unsigned long before = sg_golden_pool_calls(pool);
        sg_golden_result *r = run(t2, "def total(l: list):\n    return sum(l)\n", &o);
        if (sg_golden_result_verdict(r) != SG_GOLDEN_PASS || sg_golden_result_efficiency_checked(r) < 4)
            dump(r);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
        assert_true(sg_golden_result_efficiency_checked(r) >= 4);
        assert_true(sg_golden_result_inputs_checked(r) >= 20);
        assert_int_equal(sg_golden_pool_calls(pool) - before, 4);
        sg_golden_result_free(r);
        /* a quadratic answer is judged on the same scaled inputs the same way (too-slow or
         * not, as the run without the block's company: test_efficiency_too_slow) */
        before = sg_golden_pool_calls(pool);
        r = run(t2, "def total(l: list):\n    t = 0\n    for i in range(len(l)):\n        for j in range(len(l)):\n"
                    "            t += l[i] if i == j else 0\n    return t\n", &o);
        assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
        assert_true(sg_golden_result_efficiency_checked(r) >= 4);
        assert_int_equal(sg_golden_pool_calls(pool) - before, 3); /* (the reference's asserts kept) */
        sg_golden_result_free(r);
        sg_golden_suite_free(s2);
    }
    assert_int_equal(pool_calls_of(tm, "def add1(x):\n    return x + 1\n", SG_GOLDEN_PASS, NULL), 2);
    assert_int_equal(pool_calls_of(tm, "def add1(x):\n    return x - 1\n", SG_GOLDEN_FAIL, NULL), 1);
    assert_int_equal(pool_calls_of(tm, "import nosuchmodule_sg\ndef add1(x):\n    return x + 1\n", SG_GOLDEN_FAIL,
                                   "import"),
                     1);
    sg_golden_suite_free(s);
    sg_golden_suite_free(m);
}

/* A pool keeps the reference's answers across the runs of one task (eval's samples): the second
 * run of a candidate asks the reference nothing new and its verdict is the same bytes, another
 * candidate of the task is still judged on its own (a wrong one fails), and another task starts
 * afresh (its reference is not answered from the first task's). */
static void test_pool_reference_cache(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    assert_non_null(pool);
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    const sg_golden_task *t2 = sg_golden_builtin_task("sg/sorted_squares");
    assert_non_null(t);
    assert_non_null(t2);
    char *j1 = NULL, *j2 = NULL;
    sg_golden_result *r = run(t, t->canonical_solution, NULL);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    assert_int_equal(sg_golden_result_to_json(r, &j1), SG_OK);
    sg_golden_result_free(r);
    size_t before = sg_golden_pool_reused(pool);
    r = run(t, t->canonical_solution, NULL);
    assert_int_equal(sg_golden_result_to_json(r, &j2), SG_OK);
    sg_golden_result_free(r);
    size_t reused = sg_golden_pool_reused(pool) - before;
    print_message("reference answers reused by the second run: %zu\n", reused);
    assert_true(reused > 50);
    assert_string_equal(j1, j2);
    free(j1);
    free(j2);
    /* a wrong candidate of the same task, judged against the kept answers */
    r = run(t, "def binary_search(nums, target):\n    return nums.index(target) if target in nums else len(nums)\n",
            NULL);
    if (sg_golden_result_verdict(r) != SG_GOLDEN_FAIL)
        dump(r);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_FAIL);
    sg_golden_result_free(r);
    /* another task: nothing of the first is served */
    before = sg_golden_pool_reused(pool);
    r = run(t2, t2->canonical_solution, NULL);
    assert_int_equal(sg_golden_result_verdict(r), SG_GOLDEN_PASS);
    sg_golden_result_free(r);
    assert_int_equal(sg_golden_pool_reused(pool) - before, 0);
}

/* sg_golden_exc_matches (shared by the golden and the fuzz stage) on hand-made outcomes: the MRO
 * report as sandbox/runner.py writes it, a line per class, "module\tqualname\tname". */
static void test_exc_matches(void **state)
{
    (void)state;
    sg_outcome_info in = {.kind = SG_OUTCOME_EXCEPTION,
                          .exc_type = "snippet.BadInput",
                          .exc_mro = "snippet\tBadInput\tBadInput\nbuiltins\tValueError\tValueError\n"
                                     "builtins\tException\tException\nbuiltins\tBaseException\tBaseException\n"
                                     "builtins\tobject\tobject"};
    assert_true(sg_golden_exc_matches(&in, "ValueError"));
    assert_true(sg_golden_exc_matches(&in, "BadInput"));
    assert_true(sg_golden_exc_matches(&in, "snippet.BadInput"));
    assert_true(sg_golden_exc_matches(&in, "builtins.ValueError"));
    assert_true(sg_golden_exc_matches(&in, "object"));
    assert_false(sg_golden_exc_matches(&in, "LookupError"));
    assert_false(sg_golden_exc_matches(&in, "Value"));
    assert_false(sg_golden_exc_matches(&in, "ValueErrorX"));
    assert_false(sg_golden_exc_matches(&in, "snippet.ValueError"));
    assert_false(sg_golden_exc_matches(&in, "builtins."));
    assert_false(sg_golden_exc_matches(&in, ""));
    assert_false(sg_golden_exc_matches(&in, NULL));
    assert_false(sg_golden_exc_matches(NULL, "ValueError"));
    /* a dotted name is module + "." + qualname: a nested class, a module with dots */
    in.exc_type = "pkg.mod.Outer.Inner";
    in.exc_mro = "pkg.mod\tOuter.Inner\tInner\njson.decoder\tJSONDecodeError\tJSONDecodeError\n"
                 "builtins\tValueError\tValueError\n";
    assert_true(sg_golden_exc_matches(&in, "Inner"));
    assert_true(sg_golden_exc_matches(&in, "pkg.mod.Outer.Inner"));
    assert_true(sg_golden_exc_matches(&in, "json.decoder.JSONDecodeError"));
    assert_false(sg_golden_exc_matches(&in, "json.JSONDecodeError"));
    assert_false(sg_golden_exc_matches(&in, "pkg.Outer.Inner"));
    assert_false(sg_golden_exc_matches(&in, "Outer.Inner"));
    /* lines that are not three fields name no class; empty fields match nothing */
    in.exc_type = "snippet.Sneaky";
    in.exc_mro = "snippet\tSneaky\tSneaky\nbuiltins\tValueError\nbuiltins\tValueError\tValueError\textra\n"
                 "ValueError\n\t\t\n\tValueError\t\n";
    assert_false(sg_golden_exc_matches(&in, "ValueError"));
    assert_false(sg_golden_exc_matches(&in, "builtins.ValueError"));
    assert_true(sg_golden_exc_matches(&in, "Sneaky"));
    /* a builtin's name is matched only by the builtins module's own class: a class of the
     * candidate named ValueError (in __main__, or one claiming builtins: the runner reports its
     * module as "") is not a ValueError; other names match in any module */
    in.exc_type = "ValueError";
    in.exc_mro = "__main__\tValueError\tValueError\nbuiltins\tException\tException\n"
                 "builtins\tBaseException\tBaseException\nbuiltins\tobject\tobject";
    assert_false(sg_golden_exc_matches(&in, "ValueError"));
    assert_true(sg_golden_exc_matches(&in, "Exception"));
    assert_true(sg_golden_exc_matches(&in, "__main__.ValueError"));
    in.exc_type = "?.KeyError";
    in.exc_mro = "\tKeyError\tKeyError\nbuiltins\tException\tException";
    assert_false(sg_golden_exc_matches(&in, "KeyError"));
    assert_false(sg_golden_exc_matches(&in, "LookupError"));
    in.exc_mro = "json.decoder\tJSONDecodeError\tJSONDecodeError\nbuiltins\tValueError\tValueError";
    assert_true(sg_golden_exc_matches(&in, "JSONDecodeError"));
    assert_true(sg_golden_exc_matches(&in, "ValueError"));
    /* no MRO reported (the runner always sends one): the type's own name, exactly, and never a
     * builtin's name (fail closed) */
    in.exc_mro = NULL;
    in.exc_type = "mod.KeyError";
    assert_false(sg_golden_exc_matches(&in, "KeyError"));
    assert_true(sg_golden_exc_matches(&in, "mod.KeyError"));
    assert_false(sg_golden_exc_matches(&in, "LookupError"));
    assert_false(sg_golden_exc_matches(&in, "other.KeyError"));
    in.exc_type = "KeyError";
    assert_false(sg_golden_exc_matches(&in, "KeyError"));
    in.exc_type = "snippet.Custom";
    assert_true(sg_golden_exc_matches(&in, "snippet.Custom"));
    in.exc_type = NULL;
    assert_false(sg_golden_exc_matches(&in, "KeyError"));
}

/* sg_golden_kwparams_get: the keyword arguments both stages generate, and which are required. */
static const char *kw_summary(const char *task_json, const char *src, char *out, size_t size)
{
    sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_suite_load_buffer("t", task_json, strlen(task_json), &s, &d) != SG_OK)
        fail_msg("task: %s", d.message);
    const char *srcs[2] = {NULL, src};
    sg_golden_kwparams kw;
    assert_int_equal(sg_golden_kwparams_get(sg_golden_suite_task(s, 0), "f", srcs, 2, &kw), SG_OK);
    size_t o = 0;
    out[0] = '\0';
    for (size_t k = 0; k < kw.n && o < size; k++)
        o += (size_t)snprintf(out + o, size - o, "%s%s%s", k ? " " : "", kw.items[k].name, kw.items[k].required ? "!" : "");
    if (kw.missing && o < size)
        snprintf(out + o, size - o, " missing=%s", kw.missing);
    sg_golden_kwparams_free(&kw);
    sg_golden_suite_free(s);
    return out;
}

static void test_kwparams(void **state)
{
    (void)state;
    char buf[200];
    static const char sig[] = "{\"task_id\": \"k\", \"entry_point\": \"f\", \"tests\": [{\"args\": [1], \"expected\": 1}], "
                              "\"signature\": {\"args\": [\"int\"], \"returns\": \"int\", \"kwargs\": {\"a\": \"int\", \"b\": \"str\"}}}";
    static const char nosig[] = "{\"task_id\": \"k\", \"entry_point\": \"f\", \"tests\": [{\"args\": [1], \"expected\": 1}]}";
    /* the signature's, required when the def has no default for them */
    assert_string_equal(kw_summary(sig, "def f(x, *, a, b='s'): pass\n", buf, sizeof buf), "a! b");
    assert_string_equal(kw_summary(sig, "g = 1\n", buf, sizeof buf), "a b"); /* no def: as declared */
    /* a required one the signature leaves out: missing (the fuzz stage refuses to run) */
    assert_string_equal(kw_summary(sig, "def f(x, *, a, c): pass\n", buf, sizeof buf), "a! b missing=c");
    /* without a signature: the def's annotated ones; an untyped optional one is left to its default */
    assert_string_equal(kw_summary(nosig, "def f(x: int, *, a: int, b: str = '', c=0): pass\n", buf, sizeof buf),
                        "a! b");
    assert_string_equal(kw_summary(nosig, "def f(x: int, *, a, b: str = ''): pass\n", buf, sizeof buf), "b missing=a");
    assert_string_equal(kw_summary(nosig, "def f(x: int): pass\n", buf, sizeof buf), "");
}

int main(void)
{
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(test_exc_matches),
        cmocka_unit_test(test_kwparams),
    };
    if (cmocka_run_group_tests_name("golden (no sandbox)", pure, NULL, NULL))
        return 1;
    /* Two binaries (each within CTest's time limit): this one, and test_golden_suites.c which
     * includes this file with GOLDEN_SUITES defined. */
#ifndef GOLDEN_SUITES
    const struct CMUnitTest kernel[] = {
        cmocka_unit_test(test_fake_passes_fail),
        cmocka_unit_test(test_forged_frame_blame),
        cmocka_unit_test(test_ref_timeouts_judged),
        cmocka_unit_test(test_assert_examples),
        cmocka_unit_test(test_reference_fence),
        cmocka_unit_test(test_reference_settled_by_events),
        cmocka_unit_test(test_efficiency_too_slow),
        cmocka_unit_test(test_examples_envelope),
        cmocka_unit_test(test_discard_reasons),
        cmocka_unit_test(test_boundary_strategies),
        cmocka_unit_test(test_default_float_tolerance),
        cmocka_unit_test(test_argument_side_effects),
        cmocka_unit_test(test_report_and_replay),
        cmocka_unit_test(test_kwargs_and_annotations),
        cmocka_unit_test(test_planted_bugs),
        cmocka_unit_test(test_cancel),
    };
    /* the same through a pool's warm sandboxes (sg_golden_opts.pool): one candidate after
     * another in one sandbox must judge exactly as a sandbox per run does */
    const struct CMUnitTest pooled[] = {
        cmocka_unit_test(test_fake_passes_fail),
        cmocka_unit_test(test_forged_frame_blame),
        cmocka_unit_test(test_ref_timeouts_judged),
        cmocka_unit_test(test_assert_examples),
        cmocka_unit_test(test_reference_fence),
        cmocka_unit_test(test_reference_settled_by_events),
        cmocka_unit_test(test_efficiency_too_slow),
        cmocka_unit_test(test_examples_envelope),
        cmocka_unit_test(test_discard_reasons),
        cmocka_unit_test(test_boundary_strategies),
        cmocka_unit_test(test_default_float_tolerance),
        cmocka_unit_test(test_argument_side_effects),
        cmocka_unit_test(test_report_and_replay),
        cmocka_unit_test(test_kwargs_and_annotations),
        cmocka_unit_test(test_planted_bugs),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_pool_reuse),
        cmocka_unit_test(test_pool_reference_cache),
        cmocka_unit_test(test_pool_asserts_ahead),
    };
    (void)test_builtin_canonical_pass;
    (void)test_public_suites;
#else
    (void)test_discard_reasons;
    /* the built-in suite with a sandbox per run; the public suites (hundreds of tasks) through a
     * pool, as `snipgate eval` runs them */
    const struct CMUnitTest kernel[] = {
        cmocka_unit_test(test_builtin_canonical_pass),
    };
    const struct CMUnitTest pooled[] = {
        cmocka_unit_test(test_public_suites),
    };
    (void)test_pool_reuse;
    (void)test_pool_reference_cache;
    (void)test_pool_asserts_ahead;
    (void)test_fake_passes_fail;
    (void)test_forged_frame_blame;
    (void)test_assert_examples;
    (void)test_reference_fence;
    (void)test_reference_settled_by_events;
    (void)test_efficiency_too_slow;
    (void)test_examples_envelope;
    (void)test_boundary_strategies;
    (void)test_ref_timeouts_judged;
    (void)test_default_float_tolerance;
    (void)test_argument_side_effects;
    (void)test_report_and_replay;
    (void)test_kwargs_and_annotations;
    (void)test_planted_bugs;
    (void)test_cancel;
#endif
    int failed = cmocka_run_group_tests_name("golden", kernel, setup_kernel, teardown_kernel);
    failed += cmocka_run_group_tests_name("golden, pooled", pooled, setup_pooled, teardown_kernel);
    if (failed)
        return 1;
    return kernel_refused ? 77 : 0;
}
