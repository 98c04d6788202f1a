/* Python values as data: the tagged JSON codec, Python literal text, comparisons (value.h). */
#include "golden_tasks/value.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const value__kind_names[] = {"None", "bool",  "int",   "float", "str",
                                                "bytes", "list", "tuple", "dict",  "set", "complex"};

const char *sg_value_kind_name(sg_value_kind kind)
{
    return (unsigned)kind < sizeof value__kind_names / sizeof *value__kind_names ? value__kind_names[kind]
                                                                               : "?";
}

/* ---- construction ------------------------------------------------------------------------- */

void sg_value_free(sg_value *v)
{
    if (!v)
        return;
    size_t slots = sg_value_slots(v) + (v->half ? 1 : 0);
    for (size_t k = 0; k < slots; k++)
        sg_value_free(v->items[k]);
    free(v->items);
    free(v->s);
    free(v->big);
    free(v);
}

sg_value *sg_value_new(sg_value_kind kind)
{
    sg_value *v = calloc(1, sizeof *v);
    if (v)
        v->kind = kind;
    return v;
}

sg_value *sg_value_new_int(int64_t i)
{
    sg_value *v = sg_value_new(SG_VAL_INT);
    if (v)
        v->i = i;
    return v;
}

sg_value *sg_value_new_float(double f)
{
    sg_value *v = sg_value_new(SG_VAL_FLOAT);
    if (v)
        v->f = f;
    return v;
}

sg_value *sg_value_new_bool(bool b)
{
    sg_value *v = sg_value_new(SG_VAL_BOOL);
    if (v)
        v->b = b;
    return v;
}

sg_value *sg_value_new_str(sg_value_kind kind, const char *s, size_t len)
{
    sg_value *v = sg_value_new(kind);
    if (!v)
        return NULL;
    v->s = malloc(len + 1);
    if (!v->s) {
        free(v);
        return NULL;
    }
    if (len)
        memcpy(v->s, s, len);
    v->s[len] = 0;
    v->len = len;
    return v;
}

sg_value *sg_value_new_int_text(const char *d, size_t len)
{
    size_t k = 0;
    bool neg = false;
    if (k < len && d[k] == '-') {
        neg = true;
        k++;
    }
    size_t nd = len - k;
    if (nd == 0 || nd > SG_VALUE_MAX_DIGITS || (d[k] == '0' && nd > 1))
        return NULL;
    for (size_t x = k; x < len; x++)
        if (d[x] < '0' || d[x] > '9')
            return NULL;
    if (nd <= 18) {
        int64_t n = 0;
        for (size_t x = k; x < len; x++)
            n = n * 10 + (d[x] - '0');
        return sg_value_new_int(neg ? -n : n);
    }
    /* 19 digits or more: maybe still int64. */
    char tmp[32];
    if (nd == 19) {
        memcpy(tmp, d, len);
        tmp[len] = 0;
        errno = 0;
        long long n = strtoll(tmp, NULL, 10);
        if (errno == 0)
            return sg_value_new_int(n);
    }
    if (neg && nd == 1 && d[k] == '0')
        return sg_value_new_int(0);
    sg_value *v = sg_value_new(SG_VAL_INT);
    if (!v)
        return NULL;
    v->big = malloc(len + 1);
    if (!v->big) {
        free(v);
        return NULL;
    }
    memcpy(v->big, d, len);
    v->big[len] = 0;
    return v;
}

size_t sg_value_slots(const sg_value *v)
{
    switch (v->kind) {
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
    case SG_VAL_SET:
        return v->n;
    case SG_VAL_DICT:
        return 2 * v->n;
    default:
        return 0;
    }
}

int sg_value_push(sg_value *c, sg_value *child)
{
    if (!child)
        return -1;
    size_t slots = sg_value_slots(c) + (c->half ? 1 : 0);
    if (slots == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 4;
        sg_value **p = realloc(c->items, ncap * sizeof *p);
        if (!p) {
            sg_value_free(child);
            return -1;
        }
        c->items = p;
        c->cap = ncap;
    }
    c->items[slots] = child;
    if (c->kind != SG_VAL_DICT || c->half)
        c->n++;
    if (c->kind == SG_VAL_DICT)
        c->half = !c->half;
    return 0;
}

sg_value *sg_value_copy(const sg_value *v)
{
    sg_value *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = v->kind;
    c->b = v->b;
    c->i = v->i;
    c->f = v->f;
    c->im = v->im;
    c->len = v->len;
    if (v->s && !(c->s = malloc(v->len + 1)))
        goto out_free;
    if (v->s)
        memcpy(c->s, v->s, v->len + 1);
    if (v->big && !(c->big = strdup(v->big)))
        goto out_free;
    size_t slots = sg_value_slots(v);
    for (size_t k = 0; k < slots; k++) {
        sg_value *x = sg_value_copy(v->items[k]);
        if (!x || sg_value_push(c, x) < 0)
            goto out_free;
    }
    return c;
out_free:
    sg_value_free(c);
    return NULL;
}

/* ---- numbers ------------------------------------------------------------------------------ */

/* Compare two decimal integer texts (canonical, optional '-'). */
static int value__dec_cmp(const char *a, const char *b)
{
    bool na = a[0] == '-', nb = b[0] == '-';
    if (na != nb)
        return na ? -1 : 1;
    size_t la = strlen(a), lb = strlen(b);
    int r = la != lb ? (la < lb ? -1 : 1) : strcmp(a, b);
    return na ? -r : r;
}

static bool value__is_num(const sg_value *v)
{
    return v->kind == SG_VAL_BOOL || v->kind == SG_VAL_INT || v->kind == SG_VAL_FLOAT;
}

/* Python's numeric comparison: -1, 0, 1, or 2 when unordered (a nan is involved). */
static int value__num_cmp(const sg_value *a, const sg_value *b)
{
    /* normalise bools to ints */
    sg_value ta, tb;
    if (a->kind == SG_VAL_BOOL) {
        ta = (sg_value){.kind = SG_VAL_INT, .i = a->b};
        a = &ta;
    }
    if (b->kind == SG_VAL_BOOL) {
        tb = (sg_value){.kind = SG_VAL_INT, .i = b->b};
        b = &tb;
    }
    if (a->kind == SG_VAL_FLOAT && b->kind == SG_VAL_FLOAT) {
        if (isnan(a->f) || isnan(b->f))
            return 2;
        return a->f < b->f ? -1 : a->f > b->f ? 1 : 0;
    }
    if (a->kind == SG_VAL_INT && b->kind == SG_VAL_INT) {
        if (a->big && b->big)
            return value__dec_cmp(a->big, b->big);
        if (a->big)
            return a->big[0] == '-' ? -1 : 1;
        if (b->big)
            return b->big[0] == '-' ? 1 : -1;
        return a->i < b->i ? -1 : a->i > b->i ? 1 : 0;
    }
    /* int vs float */
    bool swap = a->kind == SG_VAL_FLOAT;
    const sg_value *in = swap ? b : a, *fl = swap ? a : b;
    int r;
    double f = fl->f;
    if (isnan(f))
        return 2;
    if (isinf(f)) {
        r = f > 0 ? -1 : 1;
    } else if (!in->big) {
        long double li = (long double)in->i, lf = (long double)f;
        r = li < lf ? -1 : li > lf ? 1 : 0;
    } else if (fabs(f) < 9.2e18) {
        r = in->big[0] == '-' ? -1 : 1;
    } else {
        char tmp[400];
        double fl_int = floor(f);
        snprintf(tmp, sizeof tmp, "%.0f", fl_int);
        r = value__dec_cmp(in->big, tmp);
        if (r == 0 && fl_int != f)
            r = -1;
    }
    return swap ? -r : r;
}

/* A number as a complex (Python's `==` between complex and int/float/bool); false for others. */
static bool value__as_complex(const sg_value *v, double *re, double *im)
{
    *im = 0;
    switch (v->kind) {
    case SG_VAL_COMPLEX:
        *re = v->f;
        *im = v->im;
        return true;
    case SG_VAL_FLOAT:
        *re = v->f;
        return true;
    case SG_VAL_BOOL:
        *re = v->b;
        return true;
    case SG_VAL_INT:
        *re = v->big ? strtod(v->big, NULL) : (double)v->i;
        return true;
    default:
        return false;
    }
}

/* ---- equality ----------------------------------------------------------------------------- */

bool sg_value_hashable(const sg_value *v)
{
    switch (v->kind) {
    case SG_VAL_LIST:
    case SG_VAL_DICT:
    case SG_VAL_SET:
        return false;
    case SG_VAL_TUPLE:
        for (size_t k = 0; k < v->n; k++)
            if (!sg_value_hashable(v->items[k]))
                return false;
        return true;
    default:
        return true;
    }
}

static bool value__bytes_eq(const sg_value *a, const sg_value *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
}

static bool value__float_close(double g, double e, double atol, double rtol);

/* Python `==` with a complex on either side (parts within atol; nan parts equal, as for floats
 * here). */
static bool value__complex_equal(const sg_value *a, const sg_value *b, double atol)
{
    double ar, ai, br, bi;
    if (!value__as_complex(a, &ar, &ai) || !value__as_complex(b, &br, &bi))
        return false;
    return value__float_close(ar, br, atol, 0) && value__float_close(ai, bi, atol, 0);
}

bool sg_value_hash_equal(const sg_value *a, const sg_value *b)
{
    if (a->kind == SG_VAL_COMPLEX || b->kind == SG_VAL_COMPLEX)
        return value__complex_equal(a, b, 0);
    if (value__is_num(a) && value__is_num(b)) {
        if (a->kind == SG_VAL_FLOAT && b->kind == SG_VAL_FLOAT && isnan(a->f) && isnan(b->f))
            return true;
        return value__num_cmp(a, b) == 0;
    }
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SG_VAL_NONE:
        return true;
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        return value__bytes_eq(a, b);
    case SG_VAL_TUPLE:
        if (a->n != b->n)
            return false;
        for (size_t k = 0; k < a->n; k++)
            if (!sg_value_hash_equal(a->items[k], b->items[k]))
                return false;
        return true;
    default:
        return false;
    }
}

static bool value__float_close(double g, double e, double atol, double rtol)
{
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    if (g == e)
        return true;
    if ((atol > 0 || rtol > 0) && isfinite(g) && isfinite(e))
        return fabs(g - e) <= atol + rtol * fabs(e);
    return false;
}

/* Find, in dict/set `c`, a key strictly equal to `k`; index or -1. */
static long value__find_strict(const sg_value *c, const sg_value *k, bool dict)
{
    for (size_t x = 0; x < c->n; x++) {
        const sg_value *e = dict ? c->items[2 * x] : c->items[x];
        if (sg_value_strict_equal(e, k, 0, 0))
            return (long)x;
    }
    return -1;
}

bool sg_value_strict_equal(const sg_value *g, const sg_value *e, double atol, double rtol)
{
    if (g->kind != e->kind)
        return false;
    switch (e->kind) {
    case SG_VAL_NONE:
        return true;
    case SG_VAL_BOOL:
        return g->b == e->b;
    case SG_VAL_INT:
        if (g->big || e->big)
            return g->big && e->big && strcmp(g->big, e->big) == 0;
        return g->i == e->i;
    case SG_VAL_FLOAT:
        return value__float_close(g->f, e->f, atol, rtol);
    case SG_VAL_COMPLEX:
        return value__float_close(g->f, e->f, atol, rtol) && value__float_close(g->im, e->im, atol, rtol);
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        return value__bytes_eq(g, e);
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++)
            if (!sg_value_strict_equal(g->items[k], e->items[k], atol, rtol))
                return false;
        return true;
    case SG_VAL_DICT:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++) {
            long at = value__find_strict(g, e->items[2 * k], true);
            if (at < 0 || !sg_value_strict_equal(g->items[2 * at + 1], e->items[2 * k + 1], atol, rtol))
                return false;
        }
        return true;
    case SG_VAL_SET:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++)
            if (value__find_strict(g, e->items[k], false) < 0)
                return false;
        for (size_t k = 0; k < g->n; k++)
            if (value__find_strict(e, g->items[k], false) < 0)
                return false;
        return true;
    }
    return false;
}

/* Find, in dict/set `c`, a key Python-equal (hash sense) to `k`; index or -1. */
static long value__find_hash(const sg_value *c, const sg_value *k, bool dict)
{
    for (size_t x = 0; x < c->n; x++) {
        const sg_value *e = dict ? c->items[2 * x] : c->items[x];
        if (sg_value_hash_equal(e, k))
            return (long)x;
    }
    return -1;
}

/* Python `==` with nan == nan; floats on the expected side within atol + rtol * |expected|; an int
 * expected and a float got within atol too, unless int_exact. */
static bool value__py_eq(const sg_value *g, const sg_value *e, double atol, double rtol, bool int_exact)
{
    if (g->kind == SG_VAL_COMPLEX || e->kind == SG_VAL_COMPLEX)
        return value__complex_equal(g, e, atol);
    if (value__is_num(g) && value__is_num(e)) {
        if (e->kind == SG_VAL_FLOAT && g->kind != SG_VAL_BOOL) {
            if (g->kind == SG_VAL_FLOAT)
                return value__float_close(g->f, e->f, atol, rtol);
            if (isnan(e->f))
                return false;
            if (value__num_cmp(g, e) == 0)
                return true;
            return (atol > 0 || rtol > 0) && isfinite(e->f) && !g->big &&
                   fabsl((long double)g->i - e->f) <= atol + rtol * fabs(e->f);
        }
        if (g->kind == SG_VAL_FLOAT && e->kind != SG_VAL_BOOL) {
            if (isnan(g->f))
                return false;
            if (value__num_cmp(g, e) == 0)
                return true;
            return !int_exact && atol > 0 && isfinite(g->f) && !e->big && fabsl((long double)e->i - g->f) <= atol;
        }
        return value__num_cmp(g, e) == 0;
    }
    if (g->kind != e->kind)
        return false;
    switch (e->kind) {
    case SG_VAL_NONE:
        return true;
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        return value__bytes_eq(g, e);
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++)
            if (!value__py_eq(g->items[k], e->items[k], atol, rtol, int_exact))
                return false;
        return true;
    case SG_VAL_DICT:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++) {
            long at = value__find_hash(g, e->items[2 * k], true);
            if (at < 0 || !value__py_eq(g->items[2 * at + 1], e->items[2 * k + 1], atol, rtol, int_exact))
                return false;
        }
        return true;
    case SG_VAL_SET:
        if (g->n != e->n)
            return false;
        for (size_t k = 0; k < e->n; k++)
            if (value__find_hash(g, e->items[k], false) < 0)
                return false;
        return true;
    default:
        return false;
    }
}

bool sg_value_python_equal(const sg_value *g, const sg_value *e, double atol)
{
    return value__py_eq(g, e, atol, 0, false);
}

bool sg_value_python_close(const sg_value *g, const sg_value *e, double atol, double rtol)
{
    return value__py_eq(g, e, atol, rtol, true);
}

static int value__mem_cmp(const sg_value *a, const sg_value *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int r = n ? memcmp(a->s, b->s, n) : 0;
    if (r)
        return r;
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

bool sg_value_less(const sg_value *a, const sg_value *b, bool *ok)
{
    if (value__is_num(a) && value__is_num(b)) {
        int r = value__num_cmp(a, b);
        return r == -1;
    }
    if (a->kind != b->kind) {
        *ok = false;
        return false;
    }
    switch (a->kind) {
    case SG_VAL_STR: /* UTF-8 byte order is code point order */
    case SG_VAL_BYTES:
        return value__mem_cmp(a, b) < 0;
    case SG_VAL_LIST:
    case SG_VAL_TUPLE: {
        size_t n = a->n < b->n ? a->n : b->n;
        for (size_t k = 0; k < n; k++) {
            if (sg_value_python_equal(a->items[k], b->items[k], 0) &&
                !(a->items[k]->kind == SG_VAL_FLOAT && isnan(a->items[k]->f)))
                continue;
            return sg_value_less(a->items[k], b->items[k], ok);
        }
        return a->n < b->n;
    }
    default:
        *ok = false; /* None, dict: unorderable; set: subset order, not used here */
        return false;
    }
}

/* ---- size --------------------------------------------------------------------------------- */

static uint64_t value__mag(const sg_value *v)
{
    if (v->kind == SG_VAL_INT) {
        if (v->big)
            return (uint64_t)1 << 62;
        uint64_t m = v->i < 0 ? (uint64_t)0 - (uint64_t)v->i : (uint64_t)v->i;
        return m > ((uint64_t)1 << 62) ? (uint64_t)1 << 62 : m;
    }
    if (v->kind == SG_VAL_FLOAT) {
        if (!isfinite(v->f))
            return 1000;
        double m = fabs(v->f);
        return m > 1e15 ? (uint64_t)1e15 : (uint64_t)m + (m != floor(m));
    }
    return 0;
}

uint64_t sg_value_size(const sg_value *v)
{
    uint64_t s = 1;
    switch (v->kind) {
    case SG_VAL_BOOL:
        return 1 + v->b;
    case SG_VAL_INT:
    case SG_VAL_FLOAT:
        return 1 + value__mag(v);
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        s += 4 * (uint64_t)v->len;
        for (size_t k = 0; k < v->len; k++)
            s += (unsigned char)v->s[k] > '0';
        return s;
    default:
        break;
    }
    size_t slots = sg_value_slots(v);
    for (size_t k = 0; k < slots; k++) {
        uint64_t c = sg_value_size(v->items[k]);
        s = s + 4 + c < s ? UINT64_MAX : s + 4 + c;
    }
    return s;
}

int sg_value_cmp_simpler(const sg_value *a, const sg_value *b)
{
    uint64_t sa = sg_value_size(a), sb = sg_value_size(b);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return 0;
}

/* ---- decoding ----------------------------------------------------------------------------- */

typedef struct value__dec {
    sg_diag *diag;
    size_t count;
    bool plain; /* EvalPlus plain JSON */
} value__dec;

static sg_status value__err(value__dec *d, const char *path, const char *msg)
{
    return sg_diag_set(d->diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0, "%s: %s", path, msg);
}

static sg_status value__decode(value__dec *d, const json_t *j, const char *path, int depth,
                               sg_value **ret);

static const char value__b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int value__b64_index(char c)
{
    const char *p = c ? strchr(value__b64, c) : NULL;
    return p ? (int)(p - value__b64) : -1;
}

/* Canonical RFC 4648 base64 -> bytes; NULL with *bad when not canonical. */
static sg_value *value__b64_decode(const char *s, size_t len, bool *bad)
{
    *bad = true;
    if (len % 4)
        return NULL;
    sg_value *v = sg_value_new(SG_VAL_BYTES);
    if (!v) {
        *bad = false;
        return NULL;
    }
    v->s = malloc(len / 4 * 3 + 1);
    if (!v->s) {
        *bad = false;
        goto out_free;
    }
    for (size_t k = 0; k < len; k += 4) {
        int q[4];
        int pad = 0;
        for (int x = 0; x < 4; x++) {
            if (s[k + x] == '=' && k + 4 == len && x >= 2) {
                q[x] = 0;
                pad++;
            } else {
                if (pad)
                    goto out_free;
                q[x] = value__b64_index(s[k + x]);
                if (q[x] < 0)
                    goto out_free;
            }
        }
        if (pad == 1 && s[k + 2] == '=')
            goto out_free;
        uint32_t w = (uint32_t)q[0] << 18 | (uint32_t)q[1] << 12 | (uint32_t)q[2] << 6 | (uint32_t)q[3];
        if ((pad == 2 && (w & 0xFFFF)) || (pad == 1 && (w & 0xFF)))
            goto out_free; /* unused bits not zero */
        v->s[v->len++] = (char)(w >> 16);
        if (pad < 2)
            v->s[v->len++] = (char)(w >> 8);
        if (pad < 1)
            v->s[v->len++] = (char)w;
    }
    v->s[v->len] = 0;
    *bad = false;
    return v;
out_free:
    sg_value_free(v);
    return NULL;
}

static bool value__float_syntax(const char *s)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return false;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == 0;
}

static sg_status value__check_unique(value__dec *d, const sg_value *c, const sg_value *e, bool dict,
                                     const char *path)
{
    if (!sg_value_hashable(e))
        return value__err(d, path, dict ? "dict key is not hashable" : "set element is not hashable");
    size_t n = c->n;
    for (size_t x = 0; x < n; x++)
        if (sg_value_hash_equal(dict ? c->items[2 * x] : c->items[x], e))
            return value__err(d, path, dict ? "duplicate dict key" : "duplicate set element");
    return SG_OK;
}

static sg_status value__decode_array(value__dec *d, const json_t *j, sg_value_kind kind, const char *path,
                                     int depth, sg_value **ret)
{
    sg_value *c = sg_value_new(kind);
    if (!c)
        return sg_diag_set(d->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
    size_t k;
    json_t *x;
    json_array_foreach(j, k, x)
    {
        char sub[256];
        snprintf(sub, sizeof sub, "%s[%zu]", path, k);
        sg_value *e = NULL;
        sg_status st = value__decode(d, x, sub, depth + 1, &e);
        if (st == SG_OK && kind == SG_VAL_SET && (st = value__check_unique(d, c, e, false, sub)) != SG_OK)
            sg_value_free(e);
        if (st != SG_OK) {
            sg_value_free(c);
            return st;
        }
        if (sg_value_push(c, e) < 0) {
            sg_value_free(c);
            return sg_diag_set(d->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
        }
    }
    *ret = c;
    return SG_OK;
}

static sg_status value__decode_tag(value__dec *d, const char *tag, const json_t *p, const char *path,
                                   int depth, sg_value **ret)
{
    char tpath[256];
    snprintf(tpath, sizeof tpath, "%s.%s", path, tag);
    if (!strcmp(tag, "$tuple") || !strcmp(tag, "$set")) {
        if (!json_is_array(p))
            return value__err(d, tpath, "payload must be an array");
        return value__decode_array(d, p, tag[1] == 't' ? SG_VAL_TUPLE : SG_VAL_SET, tpath, depth, ret);
    }
    if (!strcmp(tag, "$dict")) {
        if (!json_is_array(p))
            return value__err(d, tpath, "payload must be an array of [key, value] pairs");
        sg_value *c = sg_value_new(SG_VAL_DICT);
        if (!c)
            return SG_ERR_NOMEM;
        size_t k;
        json_t *pair;
        json_array_foreach(p, k, pair)
        {
            char sub[300];
            snprintf(sub, sizeof sub, "%s[%zu]", tpath, k);
            sg_status st;
            if (!json_is_array(pair) || json_array_size(pair) != 2) {
                st = value__err(d, sub, "must be a [key, value] array");
                goto fail;
            }
            if (++d->count > SG_VALUE_MAX_COUNT) {
                st = value__err(d, sub, "more than 100000 values");
                goto fail;
            }
            if (depth + 1 > SG_VALUE_MAX_DEPTH) {
                st = value__err(d, sub, "nested deeper than 32");
                goto fail;
            }
            char kp[320], vp[320];
            snprintf(kp, sizeof kp, "%s[0]", sub);
            snprintf(vp, sizeof vp, "%s[1]", sub);
            sg_value *key = NULL, *val = NULL;
            if ((st = value__decode(d, json_array_get(pair, 0), kp, depth + 2, &key)) != SG_OK)
                goto fail;
            if ((st = value__check_unique(d, c, key, true, kp)) != SG_OK) {
                sg_value_free(key);
                goto fail;
            }
            if ((st = value__decode(d, json_array_get(pair, 1), vp, depth + 2, &val)) != SG_OK) {
                sg_value_free(key);
                goto fail;
            }
            if (sg_value_push(c, key) < 0) {
                sg_value_free(val);
                st = SG_ERR_NOMEM;
                goto fail;
            }
            if (sg_value_push(c, val) < 0) {
                st = SG_ERR_NOMEM;
                goto fail;
            }
            continue;
        fail:
            sg_value_free(c);
            return st;
        }
        *ret = c;
        return SG_OK;
    }
    if (!strcmp(tag, "$bytes")) {
        if (!json_is_string(p))
            return value__err(d, tpath, "payload must be padded standard base64");
        bool bad;
        sg_value *v = value__b64_decode(json_string_value(p), json_string_length(p), &bad);
        if (!v)
            return bad ? value__err(d, tpath, "payload must be canonical padded standard base64")
                       : SG_ERR_NOMEM;
        *ret = v;
        return SG_OK;
    }
    if (!strcmp(tag, "$complex")) {
        if (!json_is_array(p) || json_array_size(p) != 2)
            return value__err(d, tpath, "payload must be an array [real, imag] of two floats");
        double part[2];
        for (size_t k = 0; k < 2; k++) {
            char sub[300];
            snprintf(sub, sizeof sub, "%s[%zu]", tpath, k);
            sg_value *x = NULL;
            sg_status st = value__decode(d, json_array_get(p, k), sub, depth + 1, &x);
            if (st != SG_OK)
                return st;
            bool ok = x->kind == SG_VAL_FLOAT || (x->kind == SG_VAL_INT && !x->big);
            part[k] = x->kind == SG_VAL_FLOAT ? x->f : (double)x->i;
            sg_value_free(x);
            if (!ok)
                return value__err(d, sub, "must be a float");
        }
        sg_value *v = sg_value_new(SG_VAL_COMPLEX);
        if (!v)
            return SG_ERR_NOMEM;
        v->f = part[0];
        v->im = part[1];
        *ret = v;
        return SG_OK;
    }
    if (!strcmp(tag, "$int")) {
        if (!json_is_string(p))
            return value__err(d, tpath, "payload must be a decimal integer string");
        sg_value *v = sg_value_new_int_text(json_string_value(p), json_string_length(p));
        if (!v)
            return value__err(d, tpath, "payload must be a decimal integer string (at most 4300 digits)");
        *ret = v;
        return SG_OK;
    }
    if (!strcmp(tag, "$float")) {
        if (!json_is_string(p))
            return value__err(d, tpath, "payload must be a string");
        const char *s = json_string_value(p);
        double f;
        if (!strcmp(s, "nan"))
            f = NAN;
        else if (!strcmp(s, "inf"))
            f = INFINITY;
        else if (!strcmp(s, "-inf"))
            f = -INFINITY;
        else if (!strcmp(s, "-0.0"))
            f = -0.0;
        else {
            if (strlen(s) != json_string_length(p) || strlen(s) > 1000 || !value__float_syntax(s))
                return value__err(d, tpath, "bad float text");
            f = strtod(s, NULL);
            if (!isfinite(f))
                return value__err(d, tpath, "float literal overflows");
        }
        *ret = sg_value_new_float(f);
        return *ret ? SG_OK : SG_ERR_NOMEM;
    }
    char msg[160];
    snprintf(msg, sizeof msg, "unknown tag \"%.100s\"", tag);
    return value__err(d, path, msg);
}

static sg_status value__decode(value__dec *d, const json_t *j, const char *path, int depth, sg_value **ret)
{
    if (depth > (d->plain ? 64 : SG_VALUE_MAX_DEPTH))
        return value__err(d, path, d->plain ? "nested deeper than 64" : "nested deeper than 32");
    if (++d->count > SG_VALUE_MAX_COUNT)
        return value__err(d, path, "more than 100000 values");
    sg_value *v = NULL;
    switch (json_typeof(j)) {
    case JSON_NULL:
        v = sg_value_new(SG_VAL_NONE);
        break;
    case JSON_TRUE:
    case JSON_FALSE:
        v = sg_value_new_bool(json_is_true(j));
        break;
    case JSON_INTEGER: {
        json_int_t n = json_integer_value(j);
        if (!d->plain && (n > SG_VALUE_MAX_SAFE_INT || n < -SG_VALUE_MAX_SAFE_INT))
            return value__err(d, path, "integer literal beyond 2^53-1: use {\"$int\": \"...\"}");
        v = sg_value_new_int(n);
        break;
    }
    case JSON_REAL: {
        double f = json_real_value(j);
        if (!isfinite(f))
            return value__err(d, path, "float literal overflows");
        v = sg_value_new_float(f);
        break;
    }
    case JSON_STRING:
        v = sg_value_new_str(SG_VAL_STR, json_string_value(j), json_string_length(j));
        break;
    case JSON_ARRAY:
        return value__decode_array(d, j, SG_VAL_LIST, path, depth, ret);
    case JSON_OBJECT: {
        const char *key;
        json_t *x;
        if (!d->plain && json_object_size(j) == 1) {
            void *it = json_object_iter((json_t *)j);
            key = json_object_iter_key(it);
            if (key[0] == '$')
                return value__decode_tag(d, key, json_object_iter_value(it), path, depth, ret);
        }
        v = sg_value_new(SG_VAL_DICT);
        if (!v)
            break;
        json_object_foreach((json_t *)j, key, x)
        {
            char sub[300];
            snprintf(sub, sizeof sub, "%s.%.40s", path, key);
            sg_value *val = NULL;
            sg_status st = value__decode(d, x, sub, depth + 1, &val);
            if (st != SG_OK) {
                sg_value_free(v);
                return st;
            }
            if (sg_value_push(v, sg_value_new_str(SG_VAL_STR, key, strlen(key))) < 0 ||
                sg_value_push(v, val) < 0) {
                sg_value_free(val);
                sg_value_free(v);
                return SG_ERR_NOMEM;
            }
        }
        break;
    }
    }
    if (!v)
        return sg_diag_set(d->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
    *ret = v;
    return SG_OK;
}

sg_status sg_value_from_json(const json_t *j, const char *path, sg_value **ret, sg_diag *diag)
{
    value__dec d = {.diag = diag};
    return value__decode(&d, j, path ? path : "value", 0, ret);
}

sg_status sg_value_from_plain_json(const json_t *j, const char *path, sg_value **ret, sg_diag *diag)
{
    value__dec d = {.diag = diag, .plain = true};
    return value__decode(&d, j, path ? path : "value", 0, ret);
}

sg_status sg_value_from_text(const char *text, size_t len, const char *path, sg_value **ret, sg_diag *diag)
{
    json_error_t err;
    bool nomem;
    /* text from a candidate's sandbox or a task file: the guarded loader (snipgate.h) */
    json_t *j = sg_json_loadb_guarded(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err,
                                      &nomem);
    if (!j && nomem)
        return sg_diag_set(diag, SG_ERR_NOMEM, NULL, 0, 0, 0, 0, "out of memory reading a value");
    if (!j)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, err.column, err.position, 0, "%s: %s",
                           path ? path : "value", err.text);
    sg_status st = sg_value_from_json(j, path, ret, diag);
    json_decref(j);
    return st;
}

/* ---- encoding ----------------------------------------------------------------------------- */

/* Python's repr() of a finite float: the shortest text that round-trips. */
static void value__float_repr(double f, char *out, size_t cap)
{
    char tmp[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    /* tmp = [-]d[.ddd]e[+-]XX */
    char digits[32];
    size_t nd = 0;
    const char *q = tmp;
    bool neg = *q == '-';
    if (neg)
        q++;
    for (; *q && *q != 'e'; q++)
        if (*q != '.')
            digits[nd++] = *q;
    digits[nd] = 0;
    int e = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        digits[--nd] = 0;
    char *o = out;
    size_t left = cap;
#define PUT(...)                                                                                    \
    do {                                                                                            \
        int w_ = snprintf(o, left, __VA_ARGS__);                                                    \
        if (w_ > 0 && (size_t)w_ < left) {                                                          \
            o += w_;                                                                                \
            left -= (size_t)w_;                                                                     \
        }                                                                                           \
    } while (0)
    if (neg)
        PUT("-");
    if (e >= -5 + 1 && e < 16) {
        if (e < 0) {
            PUT("0.");
            for (int z = 0; z < -e - 1; z++)
                PUT("0");
            PUT("%s", digits);
        } else {
            for (int k = 0; k <= e; k++)
                PUT("%c", k < (int)nd ? digits[k] : '0');
            PUT(".");
            if ((int)nd > e + 1)
                PUT("%s", digits + e + 1);
            else
                PUT("0");
        }
    } else {
        PUT("%c", digits[0]);
        if (nd > 1)
            PUT(".%s", digits + 1);
        PUT("e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
#undef PUT
}

static void value__json_str(sg_buf *b, const char *s, size_t len)
{
    sg_buf_append(b, "\"", 1);
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        switch (c) {
        case '"':
            sg_buf_puts(b, "\\\"");
            break;
        case '\\':
            sg_buf_puts(b, "\\\\");
            break;
        case '\n':
            sg_buf_puts(b, "\\n");
            break;
        case '\r':
            sg_buf_puts(b, "\\r");
            break;
        case '\t':
            sg_buf_puts(b, "\\t");
            break;
        case '\b':
            sg_buf_puts(b, "\\b");
            break;
        case '\f':
            sg_buf_puts(b, "\\f");
            break;
        default:
            if (c < 0x20)
                sg_buf_printf(b, "\\u%04x", c);
            else
                sg_buf_append(b, (const char *)&s[k], 1);
        }
    }
    sg_buf_append(b, "\"", 1);
}

static void value__b64_encode(sg_buf *b, const unsigned char *s, size_t len)
{
    for (size_t k = 0; k < len; k += 3) {
        uint32_t w = (uint32_t)s[k] << 16;
        if (k + 1 < len)
            w |= (uint32_t)s[k + 1] << 8;
        if (k + 2 < len)
            w |= s[k + 2];
        char q[4] = {value__b64[w >> 18 & 63], value__b64[w >> 12 & 63],
                     k + 1 < len ? value__b64[w >> 6 & 63] : '=', k + 2 < len ? value__b64[w & 63] : '='};
        sg_buf_append(b, q, 4);
    }
}

typedef struct value__enc_item {
    char *text;
    size_t len;
} value__enc_item;

static int value__enc_item_cmp(const void *a, const void *b)
{
    const value__enc_item *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int r = memcmp(x->text, y->text, n);
    return r ? r : (x->len < y->len ? -1 : x->len > y->len);
}

void sg_value_encode(const sg_value *v, sg_buf *b)
{
    char tmp[64];
    switch (v->kind) {
    case SG_VAL_NONE:
        sg_buf_puts(b, "null");
        return;
    case SG_VAL_BOOL:
        sg_buf_puts(b, v->b ? "true" : "false");
        return;
    case SG_VAL_INT:
        if (v->big)
            sg_buf_printf(b, "{\"$int\": \"%s\"}", v->big);
        else if (v->i > SG_VALUE_MAX_SAFE_INT || v->i < -SG_VALUE_MAX_SAFE_INT)
            sg_buf_printf(b, "{\"$int\": \"%" PRId64 "\"}", v->i);
        else
            sg_buf_printf(b, "%" PRId64, v->i);
        return;
    case SG_VAL_FLOAT:
        if (isnan(v->f))
            sg_buf_puts(b, "{\"$float\": \"nan\"}");
        else if (isinf(v->f))
            sg_buf_puts(b, v->f > 0 ? "{\"$float\": \"inf\"}" : "{\"$float\": \"-inf\"}");
        else if (v->f == 0 && signbit(v->f))
            sg_buf_puts(b, "{\"$float\": \"-0.0\"}");
        else {
            value__float_repr(v->f, tmp, sizeof tmp);
            sg_buf_puts(b, tmp);
        }
        return;
    case SG_VAL_COMPLEX: {
        sg_value re = {.kind = SG_VAL_FLOAT, .f = v->f}, im = {.kind = SG_VAL_FLOAT, .f = v->im};
        sg_buf_puts(b, "{\"$complex\": [");
        sg_value_encode(&re, b);
        sg_buf_puts(b, ", ");
        sg_value_encode(&im, b);
        sg_buf_puts(b, "]}");
        return;
    }
    case SG_VAL_STR:
        value__json_str(b, v->s, v->len);
        return;
    case SG_VAL_BYTES:
        sg_buf_puts(b, "{\"$bytes\": \"");
        value__b64_encode(b, (const unsigned char *)v->s, v->len);
        sg_buf_puts(b, "\"}");
        return;
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
        sg_buf_puts(b, v->kind == SG_VAL_TUPLE ? "{\"$tuple\": [" : "[");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            sg_value_encode(v->items[k], b);
        }
        sg_buf_puts(b, v->kind == SG_VAL_TUPLE ? "]}" : "]");
        return;
    case SG_VAL_SET: {
        value__enc_item *it = calloc(v->n ? v->n : 1, sizeof *it);
        if (!it) {
            b->failed = true;
            return;
        }
        bool ok = true;
        for (size_t k = 0; k < v->n; k++) {
            sg_buf e;
            sg_buf_init(&e, b->max);
            sg_value_encode(v->items[k], &e);
            if (e.failed || e.truncated)
                ok = false;
            it[k].text = e.data;
            it[k].len = e.len;
        }
        if (ok)
            qsort(it, v->n, sizeof *it, value__enc_item_cmp);
        sg_buf_puts(b, "{\"$set\": [");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            if (it[k].text)
                sg_buf_append(b, it[k].text, it[k].len);
            free(it[k].text);
        }
        free(it);
        if (!ok)
            b->failed = true;
        sg_buf_puts(b, "]}");
        return;
    }
    case SG_VAL_DICT: {
        bool plain = true;
        for (size_t k = 0; k < v->n; k++) /* (a key holding NUL: JSON readers refuse it as an object key) */
            if (v->items[2 * k]->kind != SG_VAL_STR ||
                (v->items[2 * k]->len && memchr(v->items[2 * k]->s, 0, v->items[2 * k]->len)))
                plain = false;
        if (plain && v->n == 1 && v->items[0]->len && v->items[0]->s[0] == '$')
            plain = false;
        sg_buf_puts(b, plain ? "{" : "{\"$dict\": [");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            if (!plain)
                sg_buf_puts(b, "[");
            sg_value_encode(v->items[2 * k], b);
            sg_buf_puts(b, plain ? ": " : ", ");
            sg_value_encode(v->items[2 * k + 1], b);
            if (!plain)
                sg_buf_puts(b, "]");
        }
        sg_buf_puts(b, plain ? "}" : "]}");
        return;
    }
    }
}

/* Decode one UTF-8 code point (input is valid UTF-8). */
static uint32_t value__utf8_next(const unsigned char *s, size_t len, size_t *k)
{
    unsigned char c = s[*k];
    uint32_t cp;
    int extra;
    if (c < 0x80) {
        cp = c;
        extra = 0;
    } else if (c >> 5 == 6) {
        cp = c & 0x1F;
        extra = 1;
    } else if (c >> 4 == 14) {
        cp = c & 0x0F;
        extra = 2;
    } else {
        cp = c & 0x07;
        extra = 3;
    }
    (*k)++;
    for (int x = 0; x < extra && *k < len; x++, (*k)++)
        cp = cp << 6 | (s[*k] & 0x3F);
    return cp;
}

/* A str or bytes literal. `safe`: every non-ASCII-printable character escaped (call text);
 * else Python's repr (non-ASCII printable characters kept, approximately Python's rule). */
static void value__quote(sg_buf *b, const sg_value *v, bool safe)
{
    bool bytes = v->kind == SG_VAL_BYTES;
    bool sq = false, dq = false;
    for (size_t k = 0; k < v->len; k++) {
        if (v->s[k] == '\'')
            sq = true;
        if (v->s[k] == '"')
            dq = true;
    }
    char quote = sq && !dq ? '"' : '\'';
    if (bytes)
        sg_buf_puts(b, "b");
    sg_buf_append(b, &quote, 1);
    const unsigned char *s = (const unsigned char *)v->s;
    for (size_t k = 0; k < v->len;) {
        uint32_t cp = bytes ? s[k++] : value__utf8_next(s, v->len, &k);
        if (cp == (uint32_t)quote || cp == '\\')
            sg_buf_printf(b, "\\%c", (char)cp);
        else if (cp == '\n')
            sg_buf_puts(b, "\\n");
        else if (cp == '\r')
            sg_buf_puts(b, "\\r");
        else if (cp == '\t')
            sg_buf_puts(b, "\\t");
        else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || (bytes && cp >= 0x80) ||
                 (!bytes && cp == 0xAD))
            sg_buf_printf(b, "\\x%02x", (unsigned)cp);
        else if (cp < 0x80)
            sg_buf_printf(b, "%c", (char)cp);
        else if (safe || (cp >= 0x2028 && cp <= 0x2029) || (cp >= 0xE000 && cp <= 0xF8FF) || cp == 0xFEFF ||
                 (cp >= 0xF0000))
            sg_buf_printf(b, cp <= 0xFFFF ? "\\u%04x" : "\\U%08x", (unsigned)cp);
        else {
            char u[4];
            size_t n;
            if (cp < 0x800) {
                u[0] = (char)(0xC0 | cp >> 6);
                u[1] = (char)(0x80 | (cp & 0x3F));
                n = 2;
            } else if (cp < 0x10000) {
                u[0] = (char)(0xE0 | cp >> 12);
                u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
                u[2] = (char)(0x80 | (cp & 0x3F));
                n = 3;
            } else {
                u[0] = (char)(0xF0 | cp >> 18);
                u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
                u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
                u[3] = (char)(0x80 | (cp & 0x3F));
                n = 4;
            }
            sg_buf_append(b, u, n);
        }
    }
    sg_buf_append(b, &quote, 1);
}

/* One part of Python's complex repr: the float's repr without a trailing ".0" ("1", "2.5",
 * "1e+16", "nan", "inf"). */
static void value__complex_part(double f, char *out, size_t cap)
{
    if (isnan(f)) {
        snprintf(out, cap, "nan");
        return;
    }
    if (isinf(f)) {
        snprintf(out, cap, "%sinf", f < 0 ? "-" : "");
        return;
    }
    value__float_repr(f, out, cap);
    size_t l = strlen(out);
    if (l > 2 && !strcmp(out + l - 2, ".0"))
        out[l - 2] = 0;
}

/* Python's repr() of a complex: "2j", "(1+2j)", "(-0-1.5j)", "(nan+infj)". */
static void value__complex_repr(const sg_value *v, sg_buf *b)
{
    char re[64], im[64];
    value__complex_part(v->f, re, sizeof re);
    value__complex_part(v->im, im, sizeof im);
    if (v->f == 0 && !signbit(v->f)) {
        sg_buf_printf(b, "%sj", im);
        return;
    }
    bool neg = im[0] == '-';
    sg_buf_printf(b, "(%s%s%sj)", re, neg ? "" : "+", im);
}

static void value__python(const sg_value *v, sg_buf *b, bool safe)
{
    char tmp[64];
    switch (v->kind) {
    case SG_VAL_NONE:
        sg_buf_puts(b, "None");
        return;
    case SG_VAL_BOOL:
        sg_buf_puts(b, v->b ? "True" : "False");
        return;
    case SG_VAL_INT:
        if (safe && (v->big ? v->big[0] == '-' : v->i < 0))
            sg_buf_puts(b, "(");
        if (v->big)
            sg_buf_puts(b, v->big);
        else
            sg_buf_printf(b, "%" PRId64, v->i);
        if (safe && (v->big ? v->big[0] == '-' : v->i < 0))
            sg_buf_puts(b, ")");
        return;
    case SG_VAL_FLOAT:
        if (isnan(v->f))
            sg_buf_puts(b, safe ? "(1e999-1e999)" : "nan");
        else if (isinf(v->f))
            sg_buf_puts(b, safe ? (v->f > 0 ? "1e999" : "(-1e999)") : (v->f > 0 ? "inf" : "-inf"));
        else {
            value__float_repr(v->f, tmp, sizeof tmp);
            bool paren = safe && tmp[0] == '-';
            if (paren)
                sg_buf_puts(b, "(");
            sg_buf_puts(b, tmp);
            if (paren)
                sg_buf_puts(b, ")");
        }
        return;
    case SG_VAL_COMPLEX:
        if (safe) {
            /* complex(re, im) with literal parts (nan, inf and -0.0 survive, which `re+imj` loses) */
            sg_value re = {.kind = SG_VAL_FLOAT, .f = v->f}, im = {.kind = SG_VAL_FLOAT, .f = v->im};
            sg_buf_puts(b, "complex(");
            value__python(&re, b, true);
            sg_buf_puts(b, ", ");
            value__python(&im, b, true);
            sg_buf_puts(b, ")");
        } else {
            value__complex_repr(v, b);
        }
        return;
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        value__quote(b, v, safe);
        return;
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
        sg_buf_puts(b, v->kind == SG_VAL_LIST ? "[" : "(");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            value__python(v->items[k], b, safe);
        }
        if (v->kind == SG_VAL_TUPLE && v->n == 1)
            sg_buf_puts(b, ",");
        sg_buf_puts(b, v->kind == SG_VAL_LIST ? "]" : ")");
        return;
    case SG_VAL_SET:
        if (v->n == 0) {
            sg_buf_puts(b, safe ? "{*()}" : "set()");
            return;
        }
        sg_buf_puts(b, "{");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            value__python(v->items[k], b, safe);
        }
        sg_buf_puts(b, "}");
        return;
    case SG_VAL_DICT:
        sg_buf_puts(b, "{");
        for (size_t k = 0; k < v->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            value__python(v->items[2 * k], b, safe);
            sg_buf_puts(b, ": ");
            value__python(v->items[2 * k + 1], b, safe);
        }
        sg_buf_puts(b, "}");
        return;
    }
}

void sg_value_repr(const sg_value *v, sg_buf *buf)
{
    value__python(v, buf, false);
}

void sg_value_literal(const sg_value *v, sg_buf *buf)
{
    value__python(v, buf, true);
}
