/* The type language (golden_tasks/typelang.c): conformance with testdata/type_strings.jsonl. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "golden_tasks/typelang.h"

static void check_values(const sg_type *t, json_t *arr, bool want, const char *ts)
{
    size_t k;
    json_t *x;
    json_array_foreach(arr, k, x)
    {
        sg_value *v = NULL;
        sg_diag d;
        sg_diag_init(&d);
        if (sg_value_from_json(x, "v", &v, &d) != SG_OK)
            fail_msg("%s: value %zu: %s", ts, k, d.message);
        if (sg_type_conforms(v, t, true) != want)
            fail_msg("%s: value %zu should %sconform", ts, k, want ? "" : "not ");
        /* structural check ignores options: every option-violating value of the right shape passes */
        if (want)
            assert_true(sg_type_conforms(v, t, false));
        sg_value_free(v);
    }
}

static void test_conformance(void **state)
{
    (void)state;
    const char *src = getenv("SNIPGATE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/golden_tasks/testdata/type_strings.jsonl", src ? src : ".");
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        json_error_t e;
        json_t *row = json_loads(line, 0, &e);
        assert_non_null(row);
        const char *ts = json_string_value(json_object_get(row, "type"));
        bool valid = json_is_true(json_object_get(row, "valid"));
        sg_type *t = NULL;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_type_parse(ts, &t, &d);
        if (valid != (st == SG_OK))
            fail_msg("%s: want %s, got %s", ts, valid ? "valid" : "invalid", d.message);
        if (!valid) {
            assert_true(d.offset >= 0);
            assert_true(d.message[0]);
        }
        if (t) {
            check_values(t, json_object_get(row, "conforming"), true, ts);
            check_values(t, json_object_get(row, "not_conforming"), false, ts);
            /* the canonical text parses to the same canonical text */
            sg_buf b;
            sg_buf_init(&b, 8192);
            sg_type_format(t, &b);
            sg_type *t2 = NULL;
            if (sg_type_parse(b.data, &t2, &d) != SG_OK)
                fail_msg("%s: canonical %s does not parse: %s", ts, b.data, d.message);
            sg_type_free(t2);
            sg_buf_free(&b);
        }
        sg_type_free(t);
        json_decref(row);
        n++;
    }
    fclose(f);
    assert_true(n >= 40);
}

static void test_errors_have_offsets(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        long long off;
    } cases[] = {
        {"list[int", 8}, {"int(1. .2)", 5}, {"Lst[int]", 0}, {"dict[int, str](max=99)", 14},
        /* found by fuzz_value: a stray UTF-8 byte in chars= decoded as another character; a
         * second chars= leaked the first */
        {"str(chars='a\x98\x89')", 12}, {"str(chars='ab', chars='cd')", 16},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        sg_type *t = NULL;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_type_parse(cases[k].s, &t, &d), SG_ERR_INVALID_ARG);
        if (d.offset != cases[k].off)
            fail_msg("%s: offset %lld, want %lld (%s)", cases[k].s, d.offset, cases[k].off, d.message);
    }
    char long_type[600];
    memset(long_type, ' ', sizeof long_type - 1);
    long_type[sizeof long_type - 1] = 0;
    long_type[0] = 'i';
    sg_type *t = NULL;
    assert_int_equal(sg_type_parse(long_type, &t, NULL), SG_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance),
        cmocka_unit_test(test_errors_have_offsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
