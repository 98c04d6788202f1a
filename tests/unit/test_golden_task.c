/* Task files (golden_tasks/task.c): the built-in suite, public data sets, error locations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "golden_tasks/evalplus.h"
#include "golden_tasks/task.h"

static void test_builtin(void **state)
{
    (void)state;
    const sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_builtin_suite(&s, &d) != SG_OK)
        fail_msg("builtin: %s", d.message);
    assert_true(sg_golden_suite_count(s) >= 50);
    for (size_t k = 0; k < sg_golden_suite_count(s); k++) {
        const sg_golden_task *t = sg_golden_suite_task(s, k);
        assert_int_equal(t->format, SG_TASK_SNIPGATE);
        assert_true(t->ncases >= 5);
        assert_true(t->has_signature);
        assert_true(t->complete_solution);
        assert_non_null(t->entry_point);
        assert_int_equal(strncmp(t->task_id, "sg/", 3), 0);
        char *ref = sg_golden_task_reference_source(t);
        assert_non_null(ref);
        free(ref);
    }
    const sg_golden_task *t = sg_golden_builtin_task("sg/binary_search_leftmost");
    assert_non_null(t);
    assert_string_equal(t->entry_point, "binary_search");
    assert_non_null(t->contract);
    assert_null(sg_golden_builtin_task("sg/nope"));
}

static const struct {
    const char *text;
    long line;
    const char *needle; /* must appear in the message */
} bad_cases[] = {
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"tests\": [{\"args\": [], \"expected\": 1}]}\n"
     "{\"task_id\": \"b\", \"bogus\": 1}\n",
     2, "bogus: unknown field"},
    {"\n# comment\n{\"task_id\": \"a\", \"entry_point\": \"f\", \"tests\": [{\"args\": [1], \"expected\": 1}, "
     "{\"args\": [{\"$tupel\": []}], \"expected\": 1}]}\n",
     3, "tests[1].args[0]: unknown tag \"$tupel\""},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"tests\": [{\"args\": [9007199254740992], \"expected\": 1}]}",
     1, "tests[0].args[0]"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"tests\": [{\"args\": [NaN], \"expected\": 1}]}", 1,
     "NaN"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"tests\": [{\"args\": [], \"expected\": 1, \"raises\": \"E\"}]}",
     1, "exactly one"},
    {"{\"task_id\": \"a\", \"tests\": [{\"args\": [], \"expected\": 1}]}", 1, "entry_point"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"signature\": {\"args\": [\"list[int\"], \"returns\": \"int\"}}",
     1, "signature.args[0]"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"properties\": [{\"name\": \"roundtrip\"}]}", 1, "inverse"},
    {"{\"task_id\": 1}\n{\"task_id\": 1}\n", 2, "duplicate task id"},
    {"{\"task_id\": \"a\", \"timeout\": 0}", 1, "timeout"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"efficiency\": 3}", 1, "efficiency: must be false, true or an object"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"efficiency\": {\"doublings\": 9}}", 1, "efficiency.doublings"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"efficiency\": {\"factor\": 0.5}}", 1, "efficiency.factor"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"efficiency\": {\"inputs\": [1]}}", 1,
     "efficiency.inputs[0]: must be an array of arguments"},
    {"{\"task_id\": \"a\", \"entry_point\": \"f\", \"efficiency\": {\"size\": 1}}", 1, "efficiency.size: unknown field"},
    {"{\"task_id\": \"a\"", 1, "(json)"},
};

static void test_errors(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof bad_cases / sizeof *bad_cases; k++) {
        sg_golden_suite *s = NULL;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_golden_suite_load_buffer("suite.jsonl", bad_cases[k].text, strlen(bad_cases[k].text), &s, &d);
        if (st == SG_OK)
            fail_msg("case %zu loaded", k);
        if (d.line != bad_cases[k].line || !strstr(d.message, bad_cases[k].needle) ||
            strncmp(d.message, "suite.jsonl:", 12))
            fail_msg("case %zu: line %ld: %s", k, d.line, d.message);
    }
}

static void test_evalplus_plain_inputs(void **state)
{
    (void)state;
    const char *text = "{\"task_id\": \"Mbpp/1\", \"entry_point\": \"f\", \"canonical_solution\": \"def f(x): return x\","
                       " \"base_input\": [[NaN, -Infinity, 123456789012345678901234567890], [{\"$tuple\": [1]}]],"
                       " \"plus_input\": {}, \"atol\": 0, \"prompt\": \"\"}";
    sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_suite_load_buffer("p.jsonl", text, strlen(text), &s, &d) != SG_OK)
        fail_msg("%s", d.message);
    const sg_golden_task *t = sg_golden_suite_task(s, 0);
    assert_int_equal(t->format, SG_TASK_EVALPLUS);
    assert_int_equal(t->nbase_inputs, 2);
    const sg_value *a = t->cases[0].args;
    assert_int_equal(a->items[0]->kind, SG_VAL_FLOAT);
    assert_int_equal(a->items[2]->kind, SG_VAL_INT);
    assert_string_equal(a->items[2]->big, "123456789012345678901234567890");
    /* a "$" key in plain JSON is an ordinary dict key */
    assert_int_equal(t->cases[1].args->items[0]->kind, SG_VAL_DICT);
    sg_golden_suite_free(s);
}

static int load_shared(const char *name, size_t min_tasks)
{
    const char *src = getenv("SNIPGATE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/../shared/data/%s", src ? src : ".", name);
    if (access(path, R_OK) != 0) {
        print_message("*** SKIP: %s is absent\n", path);
        return 0;
    }
    char tmp[] = "/tmp/sg-golden-XXXXXX";
    const char *load = path;
    if (strstr(name, ".gz")) {
        int fd = mkstemp(tmp);
        assert_true(fd >= 0);
        close(fd);
        char cmd[2200];
        snprintf(cmd, sizeof cmd, "/bin/gzip -dc '%s' > '%s'", path, tmp);
        if (system(cmd) != 0) {
            unlink(tmp);
            print_message("*** SKIP: cannot gunzip %s\n", path);
            return 0;
        }
        load = tmp;
    }
    sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_golden_suite_load_file(load, &s, &d);
    if (load == tmp)
        unlink(tmp);
    if (st != SG_OK)
        fail_msg("%s: %s", name, d.message);
    assert_true(sg_golden_suite_count(s) >= min_tasks);
    for (size_t k = 0; k < sg_golden_suite_count(s); k++) {
        const sg_golden_task *t = sg_golden_suite_task(s, k);
        char *ref = sg_golden_task_reference_source(t);
        assert_non_null(ref);
        free(ref);
    }
    sg_golden_suite_free(s);
    return 1;
}

/* MBPP+ lines adapted as EvalPlus evaluates them: tuples, sets and {} restored per task, complex
 * arguments wrapped in the call, the per-task oracles and the default float tolerance. */
static const sg_golden_task *ep_load(sg_golden_suite **own, const char *line)
{
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_suite_load_buffer("ep.jsonl", line, strlen(line), own, &d) != SG_OK)
        fail_msg("load: %s", d.message);
    return sg_golden_suite_task(*own, 0);
}

static void test_evalplus_adapt(void **state)
{
    (void)state;
    sg_golden_suite *s = NULL;
    const sg_golden_task *t = ep_load(&s, "{\"task_id\": \"Mbpp/106\", \"prompt\": \"\", \"entry_point\": \"add_lists\","
                                          " \"canonical_solution\": \"def add_lists(a, b):\\n  return b + tuple(a)\\n\","
                                          " \"base_input\": [[[5, 6], [9, 10]]], \"plus_input\": [], \"atol\": 0}\n");
    assert_int_equal(t->cases[0].args->items[0]->kind, SG_VAL_LIST);
    assert_int_equal(t->cases[0].args->items[1]->kind, SG_VAL_TUPLE);
    sg_golden_suite_free(s);
    t = ep_load(&s, "{\"task_id\": \"Mbpp/115\", \"prompt\": \"\", \"entry_point\": \"empty_dit\","
                    " \"canonical_solution\": \"def empty_dit(l):\\n  return all(not d for d in l)\\n\","
                    " \"base_input\": [[[[1], [], 3]]], \"plus_input\": [], \"atol\": 0}\n");
    const sg_value *a0 = t->cases[0].args->items[0];
    assert_int_equal(a0->items[0]->kind, SG_VAL_SET);
    assert_int_equal(a0->items[1]->kind, SG_VAL_DICT);
    assert_int_equal(a0->items[2]->kind, SG_VAL_DICT);
    sg_golden_suite_free(s);
    t = ep_load(&s, "{\"task_id\": \"Mbpp/124\", \"prompt\": \"\", \"entry_point\": \"angle_complex\","
                    " \"canonical_solution\": \"import cmath\\ndef angle_complex(a, b):\\n  return cmath.phase(a + b)\\n\","
                    " \"base_input\": [[\"0\", \"1j\"]], \"plus_input\": [], \"atol\": 0.0001}\n");
    assert_string_equal(t->arg_wrap[0], "float");
    assert_string_equal(t->arg_wrap[1], "complex");
    sg_golden_suite_free(s);
    /* the same inputs under another id, or in another format, are left alone */
    t = ep_load(&s, "{\"task_id\": \"Other/106\", \"prompt\": \"\", \"entry_point\": \"f\", \"canonical_solution\": \"\","
                    " \"base_input\": [[[5, 6], [9, 10]]], \"plus_input\": [], \"atol\": 0}\n");
    assert_int_equal(t->cases[0].args->items[1]->kind, SG_VAL_LIST);
    assert_null(t->arg_wrap[0]);
    sg_golden_suite_free(s);

    /* oracles and tolerance */
    sg_value *zero = sg_value_new_int(0), *one = sg_value_new_int(1), *two = sg_value_new_int(2);
    sg_value *none = sg_value_new(SG_VAL_NONE), *f1 = sg_value_new_float(1.0), *f1e = sg_value_new_float(1.0 + 5e-7);
    t = ep_load(&s, "{\"task_id\": \"Mbpp/295\", \"prompt\": \"\", \"entry_point\": \"sum_div\", \"canonical_solution\": \"\","
                    " \"base_input\": [[1]], \"plus_input\": [], \"atol\": 0}\n");
    assert_true(sg_evalplus_match(t, zero, one, false));
    assert_false(sg_evalplus_match(t, two, one, false));
    assert_true(sg_evalplus_match(t, f1e, f1, false)); /* 1e-6 without atol */
    sg_golden_suite_free(s);
    t = ep_load(&s, "{\"task_id\": \"Mbpp/164\", \"prompt\": \"\", \"entry_point\": \"are_equivalent\", \"canonical_solution\": \"\","
                    " \"base_input\": [[1]], \"plus_input\": [], \"atol\": 0}\n");
    assert_true(sg_evalplus_match(t, two, one, false));
    sg_golden_suite_free(s);
    t = ep_load(&s, "{\"task_id\": \"Mbpp/285\", \"prompt\": \"\", \"entry_point\": \"text_match_three\", \"canonical_solution\": \"\","
                    " \"base_input\": [[1]], \"plus_input\": [], \"atol\": 0}\n");
    assert_true(sg_evalplus_match(t, two, one, false));
    assert_false(sg_evalplus_match(t, none, one, false));
    assert_true(sg_evalplus_match(t, none, none, true));
    sg_golden_suite_free(s);
    sg_value_free(zero);
    sg_value_free(one);
    sg_value_free(two);
    sg_value_free(none);
    sg_value_free(f1);
    sg_value_free(f1e);
}

static void test_public_data(void **state)
{
    (void)state;
    int loaded = load_shared("HumanEval.jsonl.gz", 164) + load_shared("mbpp.jsonl", 974) +
                 load_shared("MbppPlus-dev-767efcc.jsonl", 399);
    if (!loaded)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_evalplus_plain_inputs),
        cmocka_unit_test(test_evalplus_adapt),
        cmocka_unit_test(test_public_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
