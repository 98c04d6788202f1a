/*
 * libFuzzer harness: the golden value decoder (golden_tasks/value.c: the tagged JSON values of task
 * files and of the candidate's results coming back across the sandbox boundary) and the signature
 * type language (golden_tasks/typelang.c).
 *
 * Input: "TYPE\nVALUE". The whole input is also decoded as a tagged value and as plain JSON
 * (EvalPlus inputs). Properties checked (abort() on violation, so libFuzzer reports it):
 *  - a decoded value re-encodes to canonical text that decodes again and re-encodes identically,
 *    equals its copy (strict, python and hash equality) and compares 0 with it;
 *  - a parsed type formats to text that parses again and formats identically;
 *  - repr, literal, size, conformance: no crash, leak or sanitizer report.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decoded text must round-trip through the canonical encoding. `plain`: the value came from the
 * plain-JSON decoder (EvalPlus inputs), which allows nesting to 64 where tagged values stop at 32:
 * its encoding may then be refused for that reason only. */
static void fuzz__value_props(const sg_value *v, bool plain)
{
    sg_buf enc, enc2, repr;
    sg_buf_init(&enc, 0);
    sg_buf_init(&enc2, 0);
    sg_buf_init(&repr, 0);
    sg_value_encode(v, &enc);
    sg_value_repr(v, &repr);
    sg_buf_free(&repr);
    sg_buf_init(&repr, 0);
    sg_value_literal(v, &repr);
    if (enc.failed || repr.failed)
        abort();
    sg_value *back = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_value_from_text(enc.data, enc.len, "encoded", &back, &d) != SG_OK) {
        if (!plain || !strstr(d.message, "nested deeper than 32"))
            abort(); /* the encoder wrote something its own decoder refuses */
        sg_buf_free(&enc);
        sg_buf_free(&repr);
        return;
    }
    sg_value_encode(back, &enc2);
    if (enc2.failed || enc2.len != enc.len || memcmp(enc.data, enc2.data, enc.len))
        abort(); /* not canonical */
    sg_value *copy = sg_value_copy(v);
    if (!copy)
        abort();
    bool ok = true;
    (void)sg_value_less(v, copy, &ok);
    if (!sg_value_strict_equal(copy, v, 0, 0) || !sg_value_python_equal(copy, v, 0) ||
        sg_value_cmp_simpler(v, copy) != 0 || sg_value_size(v) != sg_value_size(copy) ||
        (sg_value_hashable(v) && !sg_value_hash_equal(v, copy)))
        abort();
    sg_value_free(copy);
    sg_value_free(back);
    sg_buf_free(&enc);
    sg_buf_free(&enc2);
    sg_buf_free(&repr);
}

static sg_value *fuzz__decode(const char *s, size_t n)
{
    sg_value *v = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_value_from_text(s, n, "v", &v, &d);
    if (st == SG_OK) {
        fuzz__value_props(v, false);
        return v;
    }
    if (st != SG_ERR_INVALID_ARG || !d.message[0])
        abort(); /* refused, but not as bad input */
    return NULL;
}

static void fuzz__plain(const char *s, size_t n)
{
    json_t *j = json_loadb(s, n, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
    if (!j)
        return;
    sg_value *v = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_value_from_plain_json(j, "base_input", &v, &d) == SG_OK) {
        fuzz__value_props(v, true);
        sg_value_free(v);
    }
    json_decref(j);
}

static sg_type *fuzz__type(const char *s, size_t n)
{
    char *text = malloc(n + 1);
    if (!text)
        abort();
    memcpy(text, s, n);
    text[n] = 0;
    sg_type *t = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_type_parse(text, &t, &d);
    free(text);
    if (st != SG_OK) {
        if (st != SG_ERR_INVALID_ARG || !d.message[0] || d.offset < 0 || (size_t)d.offset > n)
            abort();
        return NULL;
    }
    sg_buf f1, f2;
    sg_buf_init(&f1, 0);
    sg_buf_init(&f2, 0);
    sg_type_format(t, &f1);
    sg_type *t2 = NULL;
    if (f1.failed || sg_type_parse(f1.data, &t2, &d) != SG_OK)
        abort(); /* the canonical text of a type does not parse */
    sg_type_format(t2, &f2);
    if (f2.failed || f1.len != f2.len || memcmp(f1.data, f2.data, f1.len) ||
        sg_type_hashable(t) != sg_type_hashable(t2))
        abort();
    sg_type_free(t2);
    sg_buf_free(&f1);
    sg_buf_free(&f2);
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    sg_value *whole = fuzz__decode(s, size);
    sg_value_free(whole);
    fuzz__plain(s, size);

    const char *nl = memchr(s, '\n', size);
    if (!nl)
        return 0;
    size_t tlen = (size_t)(nl - s);
    sg_type *t = memchr(s, 0, tlen) ? NULL : fuzz__type(s, tlen);
    sg_value *v = fuzz__decode(nl + 1, size - tlen - 1);
    if (t && v) {
        (void)sg_type_conforms(v, t, true);
        (void)sg_type_conforms(v, t, false);
    }
    sg_value_free(v);
    sg_type_free(t);
    return 0;
}
