/* Argument types from annotations (golden_tasks/annot.c): read with tree-sitter, never run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "golden_tasks/annot.h"

static void expect_text(const char *annotation, const char *want)
{
    char *got = sg_annot_type_text(annotation);
    if (!want) {
        if (got)
            fail_msg("%s: expected no type, got %s", annotation, got);
        return;
    }
    if (!got)
        fail_msg("%s: expected %s, got none", annotation, want);
    assert_string_equal(got, want);
    /* every translation is a valid type-language string */
    sg_type *t = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_type_parse(got, &t, &d) != SG_OK)
        fail_msg("%s -> %s does not parse: %s", annotation, got, d.message);
    sg_type_free(t);
    free(got);
}

static void test_annotation_texts(void **state)
{
    (void)state;
    expect_text("int", "int");
    expect_text("List[float]", "list[float]");
    expect_text("typing.List[int]", "list[int]");
    expect_text("list[tuple[str, int]]", "list[tuple[str, int]]");
    expect_text("Tuple[int, ...]", "tuple[int, ...]");
    expect_text("Dict[str, List[int]]", "dict[str, list[int]]");
    expect_text("Optional[str]", "str | None");
    expect_text("Union[int, float]", "int | float");
    expect_text("int | None", "int | None");
    expect_text("Sequence[bytes]", "list[bytes]");
    expect_text("Set[int]", "set[int]");
    expect_text("None", "None");
    /* what annotations do not say */
    expect_text("list", NULL);
    expect_text("Any", NULL);
    expect_text("MyClass", NULL);
    expect_text("'List[int]'", NULL);
    expect_text("Callable[[int], int]", NULL);
    expect_text("List[int, str]", NULL);
    expect_text("int +", NULL);
}

static size_t arg_types(const char *src, const char *fn, sg_status want)
{
    sg_type **types = NULL;
    size_t n = 99;
    sg_status st = sg_annot_arg_types(src, fn, &types, &n);
    assert_int_equal(st, want);
    if (st != SG_OK)
        return 0;
    for (size_t k = 0; k < n; k++)
        sg_type_free(types[k]);
    free(types);
    return n;
}

/* The types of a def's parameters, formatted back into the type language, joined by "; ". */
static void expect_types(const char *src, const char *want)
{
    sg_type **types = NULL;
    size_t n = 0;
    assert_int_equal(sg_annot_arg_types(src, "f", &types, &n), SG_OK);
    sg_buf b;
    sg_buf_init(&b, 4096);
    for (size_t k = 0; k < n; k++) {
        if (k)
            sg_buf_puts(&b, "; ");
        sg_type_format(types[k], &b);
        sg_type_free(types[k]);
    }
    free(types);
    assert_string_equal(b.data, want);
    sg_buf_free(&b);
}

static void test_arg_types(void **state)
{
    (void)state;
    const char *he = "from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
                     "    \"\"\" doc \"\"\"\n    return False\n";
    assert_int_equal(arg_types(he, "has_close_elements", SG_OK), 2);
    /* in a parameter the grammar reads types (generic_type), not subscripts */
    expect_types("def f(a: List[float], b: Tuple[()], c: int | None, d: Optional[List[int]], e: typing.Tuple[int, ...],"
                 " g: Dict[str, Tuple[int, ...]]): pass\n",
                 "list[float]; tuple[()]; int | None; list[int] | None; tuple[int, ...]; dict[str, tuple[int, ...]]");
    /* positional parameters up to the first default or star */
    assert_int_equal(arg_types("def f(a: int, b: str = 'x', *c: int): pass\n", "f", SG_OK), 1);
    assert_int_equal(arg_types("def f(a: int, *, k: int): pass\n", "f", SG_OK), 1);
    /* the last top-level definition, decorated or not */
    assert_int_equal(arg_types("def f(a): pass\n@staticmethod\ndef f(a: int, b: int): pass\n", "f", SG_OK), 2);
    /* the annotations do not say */
    arg_types("def f(a, b: int): pass\n", "f", SG_ERR_EMPTY);
    arg_types("def f(a: int, b: Any): pass\n", "f", SG_ERR_EMPTY);
    arg_types("def f(): pass\n", "f", SG_ERR_EMPTY);
    arg_types("def f(*a: int): pass\n", "f", SG_ERR_EMPTY);
    arg_types("def g(a: int): pass\n", "f", SG_ERR_EMPTY);
    arg_types("class C:\n    def f(self, a: int): pass\n", "f", SG_ERR_EMPTY);
    arg_types("def f(a: int", "f", SG_ERR_EMPTY);
}

/* The keyword-only parameters of `def f`, "name: type!" each ("?" without a type we read, "!" when
 * required), joined by "; "; or "EMPTY" for SG_ERR_EMPTY. */
static void expect_kwonly(const char *src, const char *want)
{
    sg_annot_kw *kw = NULL;
    size_t n = 99;
    sg_status st = sg_annot_kwonly(src, "f", &kw, &n);
    sg_buf b;
    sg_buf_init(&b, 4096);
    if (st == SG_ERR_EMPTY) {
        assert_null(kw);
        assert_int_equal(n, 0);
        sg_buf_puts(&b, "EMPTY");
    } else {
        assert_int_equal(st, SG_OK);
        for (size_t k = 0; k < n; k++) {
            sg_buf_printf(&b, "%s%s: ", k ? "; " : "", kw[k].name);
            if (kw[k].type)
                sg_type_format(kw[k].type, &b);
            else
                sg_buf_puts(&b, "?");
            if (kw[k].required)
                sg_buf_puts(&b, "!");
        }
        sg_buf_puts(&b, "");
    }
    assert_string_equal(b.data, want);
    sg_buf_free(&b);
    sg_annot_kw_free(kw, n);
}

static void test_kwonly(void **state)
{
    (void)state;
    expect_kwonly("def f(a: int, *, limit: int = 10, sep: str, flag=False, raw, x: Any = 1): pass\n",
                  "limit: int; sep: str!; flag: ?; raw: ?!; x: ?");
    expect_kwonly("def f(a, *args: int, k: list[int], **kw: int): pass\n", "k: list[int]!");
    expect_kwonly("def f(a, *args, k=1, **kw): pass\n", "k: ?");
    expect_kwonly("def f(a, /, b, *, c: float = 0.5): pass\n", "c: float");
    expect_kwonly("def f(a: int, b: int = 2): pass\n", "");
    expect_kwonly("def f(**kw): pass\n", "");
    expect_kwonly("@cache\ndef f(*, n: Optional[int] = None): pass\n", "n: int | None");
    expect_kwonly("def g(*, n: int): pass\n", "EMPTY");
    expect_kwonly("class C:\n    def f(self, *, n: int): pass\n", "EMPTY");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_annotation_texts),
        cmocka_unit_test(test_arg_types),
        cmocka_unit_test(test_kwonly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
