/* The samples file of `snipgate eval` (sg_golden_samples_load_buffer): one case per line kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snipgate/snipgate.h"

static const char suite_text[] =
    "{\"task_id\": \"t/add\", \"entry_point\": \"add\", \"complete_solution\": true, "
    "\"canonical_solution\": \"def add(a, b):\\n    return a + b\\n\", \"tests\": [{\"args\": [1, 2], \"expected\": 3}]}\n"
    "{\"task_id\": 7, \"text\": \"Square.\", \"code\": \"def sq(x):\\n    return x * x\\n\", "
    "\"test_list\": [\"assert sq(2) == 4\"], \"test_setup_code\": \"\"}\n";

typedef struct sample_case {
    const char *line;
    const char *error; /* a prefix of the expected error, or NULL for a good sample */
    const char *id;    /* expected id text, NULL for none */
    bool id_is_integer;
    size_t task_index, sample;
} sample_case;

static const sample_case cases[] = {
    {"{\"task_id\": \"t/add\", \"completion\": \"x\"}", NULL, "t/add", false, 0, 0},
    {"  {\"task_id\": 7, \"completion\": \"y\", \"extra\": 1}\r", NULL, "7", true, 1, 0},
    {"{\"task_id\": \"7\", \"completion\": \"z\"}", NULL, "7", false, 1, 1},
    {"{\"task_id\": \"t/add\", \"completion\": \"w\"}", NULL, "t/add", false, 0, 1},
    {"not json", "invalid JSON: ", NULL, false, 0, 0},
    {"[1]", "a sample must be a JSON object", NULL, false, 0, 0},
    {"{\"completion\": \"x\"}", "missing field task_id", NULL, false, 0, 0},
    {"{\"task_id\": true, \"completion\": \"x\"}", "task_id must be a string or an integer", NULL, false, 0, 0},
    {"{\"task_id\": \"t/add\"}", "missing field completion", "t/add", false, 0, 0},
    {"{\"task_id\": \"t/add\", \"completion\": 1}", "completion must be a string", "t/add", false, 0, 0},
    /* no JSON_ALLOW_NUL: a string holding \u0000 makes the line invalid JSON */
    {"{\"task_id\": \"t/add\", \"completion\": \"a\\u0000b\"}", "invalid JSON: \\u0000 is not allowed", NULL, false, 0, 0},
    {"{\"task_id\": \"t/a\\u0000dd\", \"completion\": \"x\"}", "invalid JSON: ", NULL, false, 0, 0},
    {"{\"task_id\": \"nope\", \"completion\": \"x\"}", "unknown task_id \"nope\"", "nope", false, 0, 0},
    {"{\"task_id\": \"t/add\", \"task_id\": \"t/add\", \"completion\": \"x\"}", "invalid JSON: ", NULL, false, 0, 0},
};

static void test_each_line_kind(void **state)
{
    (void)state;
    sg_golden_suite *suite = NULL;
    assert_int_equal(sg_golden_suite_load_buffer("s.jsonl", suite_text, sizeof suite_text - 1, &suite, NULL), SG_OK);
    /* the cases, one per line, with a blank line after each: line numbers count the blank ones */
    char buf[4096] = "";
    size_t n = sizeof cases / sizeof *cases;
    for (size_t i = 0; i < n; i++) {
        strcat(buf, cases[i].line);
        strcat(buf, "\n \t\n");
    }
    sg_golden_samples *ss = NULL;
    assert_int_equal(sg_golden_samples_load_buffer(suite, buf, strlen(buf), &ss, NULL), SG_OK);
    assert_int_equal(sg_golden_samples_count(ss), n);
    assert_null(sg_golden_samples_get(ss, n));
    for (size_t i = 0; i < n; i++) {
        const sg_golden_sample *s = sg_golden_samples_get(ss, i);
        const sample_case *c = &cases[i];
        assert_int_equal(s->line, (long)(2 * i + 1));
        if (c->error) {
            if (!s->error || strncmp(s->error, c->error, strlen(c->error)))
                fail_msg("%s: error '%s', want '%s...'", c->line, s->error ? s->error : "(none)", c->error);
            assert_null(s->task);
            assert_null(s->completion);
        } else {
            if (s->error)
                fail_msg("%s: unexpected error %s", c->line, s->error);
            assert_non_null(s->completion);
            assert_ptr_equal(s->task, sg_golden_suite_task(suite, c->task_index));
            assert_int_equal(s->task_index, c->task_index);
            assert_int_equal(s->sample, c->sample);
        }
        if (c->id) {
            assert_non_null(s->id);
            assert_string_equal(s->id, c->id);
        } else {
            assert_null(s->id);
        }
        assert_int_equal(s->id_is_integer, c->id_is_integer);
    }
    sg_golden_samples_free(ss);
    sg_golden_suite_free(suite);
}

static void test_empty_file_and_bad_arguments(void **state)
{
    (void)state;
    sg_golden_suite *suite = NULL;
    assert_int_equal(sg_golden_suite_load_buffer("s.jsonl", suite_text, sizeof suite_text - 1, &suite, NULL), SG_OK);
    sg_golden_samples *ss = NULL;
    assert_int_equal(sg_golden_samples_load_buffer(suite, "", 0, &ss, NULL), SG_OK);
    assert_int_equal(sg_golden_samples_count(ss), 0);
    sg_golden_samples_free(ss);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_golden_samples_load_buffer(NULL, "", 0, &ss, &d), SG_ERR_INVALID_ARG);
    sg_golden_samples_free(NULL);
    sg_golden_suite_free(suite);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_line_kind),
        cmocka_unit_test(test_empty_file_and_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
