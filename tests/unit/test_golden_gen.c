/* Generation and shrinking (golden_tasks/gen.c, shrink.c): determinism, conformance, boundaries,
 * inference, and shrinking to a local minimum against pure-C predicates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "golden_tasks/gen.h"
#include "golden_tasks/shrink.h"

static sg_type *ty(const char *s)
{
    sg_type *t = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_type_parse(s, &t, &d) != SG_OK)
        fail_msg("%s: %s", s, d.message);
    return t;
}

static char *enc(const sg_value *v)
{
    sg_buf b;
    sg_buf_init(&b, 1 << 20);
    sg_value_encode(v, &b);
    char *s = strdup(b.data ? b.data : "");
    sg_buf_free(&b);
    return s;
}

static const char *const types[] = {
    "int", "int(-3..3)", "int(0..)", "float", "float(finite)", "float(-1..1)", "str", "str(ascii, max=5)",
    "str(chars='0123456789:-T+Z', min=1)", "bytes(max=4)", "bool", "None", "list[int](sorted, max=12)",
    "list[int | None]", "set[int(0..5)]", "dict[str(max=3), list[float]]", "tuple[int, str]",
    "tuple[int, ...](min=1, max=3)", "tuple[()]", "int | None", "list[tuple[int(-20..20), str(max=3)]](max=6)",
    "set[tuple[int, bool]](max=3)",
};

static void test_random_conforms_and_replays(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        sg_type *t = ty(types[k]);
        sg_gen a, b;
        sg_gen_init(&a, 42 + k);
        sg_gen_init(&b, 42 + k);
        for (int i = 0; i < 200; i++) {
            sg_value *x = NULL, *y = NULL;
            assert_int_equal(sg_gen_value(&a, t, &x), SG_OK);
            assert_int_equal(sg_gen_value(&b, t, &y), SG_OK);
            if (!sg_type_conforms(x, t, true)) {
                char *s = enc(x);
                fail_msg("%s: generated %s does not conform", types[k], s);
            }
            char *sx = enc(x), *sy = enc(y);
            assert_string_equal(sx, sy); /* same seed, same stream */
            free(sx);
            free(sy);
            sg_value_free(x);
            sg_value_free(y);
        }
        sg_type_free(t);
    }
}

static void test_boundaries(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        sg_type *t = ty(types[k]);
        unsigned got = 0;
        bool more = true;
        for (unsigned i = 0; more && i < 200; i++) {
            sg_value *v = NULL;
            assert_int_equal(sg_gen_boundary(t, i, UINT32_MAX, &v, &more), SG_OK);
            if (v) {
                assert_true(sg_type_conforms(v, t, true));
                got++;
            }
            sg_value_free(v);
        }
        if (!got)
            fail_msg("%s: no boundary value", types[k]);
        sg_type_free(t);
    }
    /* the first boundaries of int(-3..3) are 0, 1, -1, -3, 3 */
    sg_type *t = ty("int(-3..3)");
    const int64_t want[] = {0, 1, -1, -3, 3};
    for (unsigned i = 0; i < 5; i++) {
        sg_value *v = NULL;
        bool more;
        assert_int_equal(sg_gen_boundary(t, i, UINT32_MAX, &v, &more), SG_OK);
        assert_non_null(v);
        assert_int_equal(v->i, want[i]);
        sg_value_free(v);
    }
    sg_type_free(t);
    /* floats: nan, inf, -0.0 among the boundaries */
    t = ty("float");
    bool nan = false, inf = false, nzero = false;
    bool more = true;
    for (unsigned i = 0; more; i++) {
        sg_value *v = NULL;
        assert_int_equal(sg_gen_boundary(t, i, UINT32_MAX, &v, &more), SG_OK);
        if (v) {
            nan |= isnan(v->f);
            inf |= isinf(v->f);
            nzero |= v->f == 0 && signbit(v->f);
        }
        sg_value_free(v);
    }
    assert_true(nan && inf && nzero);
    sg_type_free(t);
}

static sg_value *dec(const char *s)
{
    sg_value *v = NULL;
    if (sg_value_from_text(s, strlen(s), "v", &v, NULL) != SG_OK)
        fail_msg("%s", s);
    return v;
}

static void test_infer_and_mutate(void **state)
{
    (void)state;
    sg_value *ex[2] = {dec("[[1, 2], \"ab\", {\"$tuple\": [1, \"x\"]}]"), dec("[[], \"\", {\"$tuple\": [2, \"y\"]}]")};
    sg_type **ts = NULL;
    size_t n = 0;
    assert_int_equal(sg_gen_infer_types((const sg_value *const *)ex, 2, &ts, &n), SG_OK);
    assert_int_equal(n, 3);
    assert_int_equal(ts[0]->kind, SG_TY_LIST);
    assert_int_equal(ts[1]->kind, SG_TY_STR);
    assert_int_equal(ts[2]->kind, SG_TY_TUPLE);
    for (size_t k = 0; k < 2; k++)
        for (size_t a = 0; a < 3; a++)
            assert_true(sg_type_conforms(ex[k]->items[a], ts[a], true));
    sg_gen g;
    sg_gen_init(&g, 7);
    for (int i = 0; i < 300; i++) {
        sg_value *m = NULL;
        assert_int_equal(sg_gen_mutate(&g, ex[i % 2], &m), SG_OK);
        assert_int_equal(m->n, 3); /* arity kept */
        sg_value_free(m);
    }
    for (size_t a = 0; a < n; a++)
        sg_type_free(ts[a]);
    free(ts);
    sg_value_free(ex[0]);
    sg_value_free(ex[1]);
}

/* Predicates standing for a buggy function. */
static sg_status fails_if_has_negative(void *ctx, const sg_value *args, bool *ret)
{
    (*(int *)ctx)++;
    const sg_value *l = args->items[0];
    *ret = false;
    for (size_t k = 0; k < l->n; k++)
        if (l->items[k]->i < 0)
            *ret = true;
    return SG_OK;
}

static sg_status fails_if_non_ascii(void *ctx, const sg_value *args, bool *ret)
{
    (*(int *)ctx)++;
    const sg_value *s = args->items[0];
    *ret = false;
    for (size_t k = 0; k < s->len; k++)
        if ((unsigned char)s->s[k] >= 0x80)
            *ret = true;
    return SG_OK;
}

static sg_status fails_if_big(void *ctx, const sg_value *args, bool *ret)
{
    (*(int *)ctx)++;
    *ret = args->items[0]->i >= 1000 || args->items[1]->len > 0;
    return SG_OK;
}

static void shrink_to(const char *input, sg_shrink_pred pred, const char *want)
{
    sg_value *v = dec(input);
    int calls = 0;
    unsigned n = 0;
    assert_int_equal(sg_shrink(&v, NULL, 0, false, pred, &calls, 5000, &n), SG_OK);
    char *s = enc(v);
    if (strcmp(s, want))
        fail_msg("%s shrank to %s, want %s", input, s, want);
    free(s);
    sg_value_free(v);
}

static void test_shrink(void **state)
{
    (void)state;
    shrink_to("[[5, 17, -33, 8, 2, -4]]", fails_if_has_negative, "[[-1]]");
    shrink_to("[\"hello w\\u00f6rld \\ud83d\\ude00\"]", fails_if_non_ascii, "[\"\xc3\xb6\"]"); /* ö: a local minimum */
    shrink_to("[123456, \"\"]", fails_if_big, "[1000, \"\"]");
    shrink_to("[5, \"xyz\"]", fails_if_big, "[0, \"0\"]");
    /* one-step neighbours of an int */
    sg_value *v = dec("-6");
    sg_value **steps = NULL;
    size_t n = 0;
    assert_int_equal(sg_shrink_steps(v, false, &steps, &n), SG_OK);
    assert_int_equal(n, 4); /* 0, -3, -5, 6 */
    for (size_t k = 0; k < n; k++)
        sg_value_free(steps[k]);
    free(steps);
    sg_value_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_conforms_and_replays),
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_infer_and_mutate),
        cmocka_unit_test(test_shrink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
