/* Deterministic input generation: PRNG, random values, boundary values, mutation, type
 * inference (gen.h). */
#include "golden_tasks/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG: splitmix64 seeding xoshiro256** ------------------------------------------------ */

static uint64_t gen__splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void sg_rng_seed(sg_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int k = 0; k < 4; k++)
        rng->s[k] = gen__splitmix(&x);
}

static uint64_t gen__rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sg_rng_next(sg_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = gen__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen__rotl(s[3], 45);
    return result;
}

uint64_t sg_rng_below(sg_rng *rng, uint64_t n)
{
    if (n <= 1)
        return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = sg_rng_next(rng);
    while (x >= limit);
    return x % n;
}

double sg_rng_unit(sg_rng *rng)
{
    return (double)(sg_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

void sg_gen_init(sg_gen *gen, uint64_t seed)
{
    memset(gen, 0, sizeof *gen);
    gen->seed = seed;
    sg_rng_seed(&gen->rng, seed);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static size_t gen__utf8_put(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Code points generators favour (docs/tasks.md): ASCII, controls, Latin-1, combining marks, CJK,
 * compatibility characters, emoji, a regional indicator. */
static const uint32_t gen__sample_chars[] = {
    'a', 'b', 'c', 'x', 'y', 'z', 'A', 'B', 'C', 'X', 'Y', 'Z', '0', '1', '9', ' ', '_', '-', '.', ',', ':',
    ';', '/', '\\', '\'', '"', '\t', '\n', 0, 0x7F, 0xE9, 0xDF, 0xF1, 0xF8, 0xC5, 0x301, 0x308, 0x4E2D,
    0x6587, 0x5B57, 0xFB01, 0xFF21, 0x2167, 0x1F600, 0x1F1EB};
#define GEN_NSAMPLE (sizeof gen__sample_chars / sizeof *gen__sample_chars)

static bool gen__char_ok(const sg_type *t, uint32_t cp)
{
    if (t->ascii && cp > 0x7F)
        return false;
    if (t->chars) {
        for (size_t k = 0; k < t->nchars; k++)
            if (t->chars[k] == cp)
                return true;
        return false;
    }
    return true;
}

static uint32_t gen__pick_char(sg_gen *g, const sg_type *t)
{
    if (t->chars)
        return t->chars[sg_rng_below(&g->rng, t->nchars)];
    for (int tries = 0; tries < 64; tries++) {
        uint64_t r = sg_rng_below(&g->rng, 10);
        uint32_t cp;
        if (r < 7)
            cp = gen__sample_chars[sg_rng_below(&g->rng, GEN_NSAMPLE)];
        else if (r < 9)
            cp = 0x20 + (uint32_t)sg_rng_below(&g->rng, 0x5F);
        else {
            cp = (uint32_t)sg_rng_below(&g->rng, 0x110000);
            if (cp >= 0xD800 && cp <= 0xDFFF)
                continue;
        }
        if (gen__char_ok(t, cp))
            return cp;
    }
    return 'a';
}

static unsigned gen__default_max(const sg_type *t, unsigned max_size, bool str)
{
    if (t->has_max)
        return t->max;
    unsigned dmax = max_size != UINT32_MAX ? max_size : (str ? 32 : 8);
    if (t->has_min && t->min > dmax)
        dmax = t->min;
    return dmax;
}

static unsigned gen__len(sg_gen *g, const sg_type *t, bool str)
{
    unsigned lo = t->has_min ? t->min : 0;
    unsigned hi = gen__default_max(t, g->has_max_size ? g->max_size : UINT32_MAX, str);
    if (hi < lo)
        hi = lo;
    double r = sg_rng_unit(&g->rng);
    if (r < 0.15)
        return lo;
    if (r < 0.25)
        return hi;
    unsigned top = r < 0.8 ? (hi < lo + 6 ? hi : lo + 6) : hi;
    return lo + (unsigned)sg_rng_below(&g->rng, (uint64_t)(top - lo) + 1);
}

static sg_value *gen__str_of(sg_value_kind kind, const uint32_t *cps, size_t n)
{
    char *buf = malloc(n * 4 + 1);
    if (!buf)
        return NULL;
    size_t len = 0;
    for (size_t k = 0; k < n; k++)
        len += kind == SG_VAL_BYTES ? (buf[len] = (char)cps[k], 1) : gen__utf8_put(buf + len, cps[k]);
    sg_value *v = sg_value_new_str(kind, buf, len);
    free(buf);
    return v;
}

/* Insertion sort by Python `<` (lists are short: at most 64 elements). */
static void gen__sort(sg_value *v)
{
    for (size_t k = 1; k < v->n; k++) {
        sg_value *x = v->items[k];
        size_t j = k;
        bool ok = true;
        while (j > 0 && sg_value_less(x, v->items[j - 1], &ok)) {
            v->items[j] = v->items[j - 1];
            j--;
        }
        v->items[j] = x;
    }
}

static bool gen__contains_key(const sg_value *c, const sg_value *k, bool dict)
{
    for (size_t x = 0; x < c->n; x++)
        if (sg_value_hash_equal(dict ? c->items[2 * x] : c->items[x], k))
            return true;
    return false;
}

/* ---- random values ------------------------------------------------------------------------ */

static sg_value *gen__int_random(sg_gen *g, const sg_type *t)
{
    static const int64_t picks[] = {0, 1, -1, 2, -2, 7, 10, 100, 255, 256, -128, 2147483648LL, -2147483648LL,
                                    1000000000000LL, INT64_MAX, INT64_MIN};
    int64_t lo = t->has_lo ? t->ilo : INT64_MIN, hi = t->has_hi ? t->ihi : INT64_MAX;
    double r = sg_rng_unit(&g->rng);
    if (r < 0.05 && !t->has_lo && !t->has_hi) {
        /* beyond 64 bits: Python ints are unbounded */
        static const char *const bigs[] = {"18446744073709551616", "-18446744073709551616",
                                           "340282366920938463463374607431768211456"};
        const char *b = bigs[sg_rng_below(&g->rng, 3)];
        return sg_value_new_int_text(b, strlen(b));
    }
    if (r < 0.4) {
        int64_t cand[sizeof picks / sizeof *picks + 2];
        size_t n = 0;
        for (size_t k = 0; k < sizeof picks / sizeof *picks; k++)
            if (picks[k] >= lo && picks[k] <= hi)
                cand[n++] = picks[k];
        cand[n++] = lo;
        cand[n++] = hi;
        return sg_value_new_int(cand[sg_rng_below(&g->rng, n)]);
    }
    if (r < 0.8) {
        int64_t a = lo > -50 ? lo : -50, b = hi < 50 ? hi : 50;
        if (a <= b)
            return sg_value_new_int(a + (int64_t)sg_rng_below(&g->rng, (uint64_t)(b - a) + 1));
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t off = span == UINT64_MAX ? sg_rng_next(&g->rng) : sg_rng_below(&g->rng, span + 1);
    return sg_value_new_int((int64_t)((uint64_t)lo + off));
}

static sg_value *gen__float_random(sg_gen *g, const sg_type *t)
{
    static const double picks[] = {0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 1e-300, 1e300, 5e-324, 1.5, 100.0};
    double lo = t->has_lo ? t->flo : -1e308, hi = t->has_hi ? t->fhi : 1e308;
    double r = sg_rng_unit(&g->rng);
    if (!t->finite && r < 0.15) {
        static const double specials[] = {NAN, INFINITY, -INFINITY, -0.0};
        return sg_value_new_float(specials[sg_rng_below(&g->rng, 4)]);
    }
    r = sg_rng_unit(&g->rng);
    if (r < 0.4) {
        double cand[sizeof picks / sizeof *picks];
        size_t n = 0;
        for (size_t k = 0; k < sizeof picks / sizeof *picks; k++)
            if (picks[k] >= lo && picks[k] <= hi)
                cand[n++] = picks[k];
        if (n)
            return sg_value_new_float(cand[sg_rng_below(&g->rng, n)]);
    }
    double a = lo > -1000 ? lo : -1000, b = hi < 1000 ? hi : 1000;
    if (a > b) {
        a = lo;
        b = hi;
    }
    double u = sg_rng_unit(&g->rng);
    double v = a + (b - a) * u;
    if (r < 0.7)
        v = round(v * 100) / 100; /* short decimals: what people type */
    if (v < lo)
        v = lo;
    if (v > hi)
        v = hi;
    return sg_value_new_float(v);
}

sg_status sg_gen_value(sg_gen *g, const sg_type *t, sg_value **ret)
{
    sg_value *v = NULL;
    switch (t->kind) {
    case SG_TY_UNION:
        return sg_gen_value(g, t->items[sg_rng_below(&g->rng, t->n)], ret);
    case SG_TY_NONE:
        v = sg_value_new(SG_VAL_NONE);
        break;
    case SG_TY_BOOL:
        v = sg_value_new_bool(sg_rng_below(&g->rng, 2));
        break;
    case SG_TY_INT:
        v = gen__int_random(g, t);
        break;
    case SG_TY_FLOAT:
        v = gen__float_random(g, t);
        break;
    case SG_TY_STR:
    case SG_TY_BYTES: {
        unsigned n = gen__len(g, t, true);
        uint32_t *cps = malloc((n + 1) * sizeof *cps);
        if (!cps)
            return SG_ERR_NOMEM;
        bool pool = g->nconstants && sg_rng_below(&g->rng, 4) == 0;
        for (unsigned k = 0; k < n; k++)
            cps[k] = t->kind == SG_TY_BYTES ? (uint32_t)sg_rng_below(&g->rng, 256) : gen__pick_char(g, t);
        v = gen__str_of(t->kind == SG_TY_STR ? SG_VAL_STR : SG_VAL_BYTES, cps, n);
        free(cps);
        if (v && pool) {
            /* a constant of the task of this kind, when it conforms */
            const sg_value *c = g->constants[sg_rng_below(&g->rng, g->nconstants)];
            if (c->kind == v->kind && sg_type_conforms(c, t, true)) {
                sg_value_free(v);
                v = sg_value_copy(c);
            }
        }
        break;
    }
    case SG_TY_LIST:
    case SG_TY_SET:
    case SG_TY_DICT:
    case SG_TY_TUPLE: {
        sg_value_kind vk = t->kind == SG_TY_LIST ? SG_VAL_LIST
                           : t->kind == SG_TY_SET ? SG_VAL_SET
                           : t->kind == SG_TY_DICT ? SG_VAL_DICT
                                                   : SG_VAL_TUPLE;
        v = sg_value_new(vk);
        if (!v)
            return SG_ERR_NOMEM;
        if (t->kind == SG_TY_TUPLE && !t->variadic) {
            for (size_t k = 0; k < t->n; k++) {
                sg_value *e = NULL;
                sg_status st = sg_gen_value(g, t->items[k], &e);
                if (st != SG_OK || sg_value_push(v, e) < 0) {
                    sg_value_free(v);
                    return st != SG_OK ? st : SG_ERR_NOMEM;
                }
            }
            break;
        }
        unsigned n = gen__len(g, t, false);
        for (unsigned k = 0, tries = 0; v->n < n && tries < 4 * n + 8; tries++, k++) {
            sg_value *e = NULL;
            sg_status st = sg_gen_value(g, t->items[0], &e);
            if (st != SG_OK) {
                sg_value_free(v);
                return st;
            }
            if ((vk == SG_VAL_SET || vk == SG_VAL_DICT) && gen__contains_key(v, e, vk == SG_VAL_DICT)) {
                sg_value_free(e);
                continue;
            }
            if (sg_value_push(v, e) < 0) {
                sg_value_free(v);
                return SG_ERR_NOMEM;
            }
            if (vk == SG_VAL_DICT) {
                sg_value *val = NULL;
                if ((st = sg_gen_value(g, t->items[1], &val)) != SG_OK || sg_value_push(v, val) < 0) {
                    sg_value_free(v);
                    return st != SG_OK ? st : SG_ERR_NOMEM;
                }
            }
        }
        if (t->sorted)
            gen__sort(v);
        break;
    }
    }
    if (!v)
        return SG_ERR_NOMEM;
    *ret = v;
    return SG_OK;
}

/* ---- boundary values ---------------------------------------------------------------------- */

static sg_status gen__boundary(const sg_type *t, unsigned k, unsigned max_size, sg_value **ret, bool *more);

static sg_status gen__container_boundary(const sg_type *t, unsigned k, unsigned max_size, sg_value **ret,
                                         bool *more)
{
    sg_value_kind vk = t->kind == SG_TY_LIST ? SG_VAL_LIST
                       : t->kind == SG_TY_SET ? SG_VAL_SET
                       : t->kind == SG_TY_DICT ? SG_VAL_DICT
                                               : SG_VAL_TUPLE;
    unsigned lo = t->has_min ? t->min : 0;
    unsigned hi = gen__default_max(t, max_size, false);
    /* shapes: 0 empty/min, 1 one elem b0, 2 one elem b1, 3 two elems (b1, b0), 4 two b0,
     * 5 max elems of b(i), 6 three elems b2 b1 b0, 7 a duplicate at different positions
     * (b1 b2 b1), 8 all negative for numbers (b2 b8 b2), 9 ascending (b2 b0 b1), 10 an order
     * that is not accidental (b10 b7 b9: 9, 2, 4 for ints, whose set order is not sorted, as
     * small ints' mostly is: list(set(...)) where sorted() was due shows there) */
    static const unsigned shapes = 11;
    *more = k + 1 < shapes;
    if (k >= shapes) {
        *ret = NULL;
        return SG_OK;
    }
    unsigned n;
    switch (k) {
    case 0:
        n = lo;
        break;
    case 1:
    case 2:
        n = 1;
        break;
    case 3:
    case 4:
        n = 2;
        break;
    case 5:
        n = hi;
        break;
    default:
        n = 3;
    }
    static const unsigned three[5][3] = {{2, 1, 0}, {1, 2, 1}, {2, 8, 2}, {2, 0, 1}, {10, 7, 9}};
    if (n < lo || n > hi) {
        *ret = NULL;
        return SG_OK;
    }
    sg_value *v = sg_value_new(vk);
    if (!v)
        return SG_ERR_NOMEM;
    for (unsigned i = 0; i < n; i++) {
        unsigned bk = k == 0 ? i : k == 1 ? 0 : k == 2 ? 1 : k == 3 ? 1 - i : k == 4 ? 0 : k == 5 ? i : three[k - 6][i];
        sg_value *e = NULL;
        bool m;
        sg_status st = gen__boundary(t->items[0], bk, max_size, &e, &m);
        if (st != SG_OK) {
            sg_value_free(v);
            return st;
        }
        for (unsigned alt = bk + 1; !e && m && alt < bk + 16; alt++)
            if ((st = gen__boundary(t->items[0], alt, max_size, &e, &m)) != SG_OK) {
                sg_value_free(v);
                return st;
            }
        if (!e)
            break;
        if ((vk == SG_VAL_SET || vk == SG_VAL_DICT) && gen__contains_key(v, e, vk == SG_VAL_DICT)) {
            sg_value_free(e);
            continue;
        }
        if (sg_value_push(v, e) < 0) {
            sg_value_free(v);
            return SG_ERR_NOMEM;
        }
        if (vk == SG_VAL_DICT) {
            sg_value *val = NULL;
            st = gen__boundary(t->items[1], i, max_size, &val, &m);
            if (st == SG_OK && !val)
                st = gen__boundary(t->items[1], 0, max_size, &val, &m);
            if (st != SG_OK || !val || sg_value_push(v, val) < 0) {
                sg_value_free(v);
                if (st != SG_OK)
                    return st;
                *ret = NULL;
                return SG_OK;
            }
        }
    }
    if (t->sorted)
        gen__sort(v);
    *ret = v;
    return SG_OK;
}

static sg_status gen__boundary(const sg_type *t, unsigned k, unsigned max_size, sg_value **ret, bool *more)
{
    sg_value *v = NULL;
    *ret = NULL;
    *more = false;
    switch (t->kind) {
    case SG_TY_UNION: {
        /* interleave the alternatives: k -> alternative k % n, its boundary k / n */
        size_t a = k % t->n;
        bool m = false;
        sg_status st = gen__boundary(t->items[a], k / (unsigned)t->n, max_size, ret, &m);
        *more = k < 32 * t->n;
        return st;
    }
    case SG_TY_NONE:
        if (k == 0)
            v = sg_value_new(SG_VAL_NONE);
        else
            return SG_OK;
        break;
    case SG_TY_BOOL:
        *more = k < 1;
        if (k > 1)
            return SG_OK;
        v = sg_value_new_bool(k == 1);
        break;
    case SG_TY_INT: {
        int64_t lo = t->has_lo ? t->ilo : INT64_MIN, hi = t->has_hi ? t->ihi : INT64_MAX;
        const int64_t seq[] = {0,
                               1,
                               -1,
                               t->has_lo ? lo : 0,
                               t->has_hi ? hi : 0,
                               t->has_lo && lo < INT64_MAX ? lo + 1 : 0,
                               t->has_hi && hi > INT64_MIN ? hi - 1 : 0,
                               2,
                               -2,
                               /* number predicates: squares and products of small primes */
                               4,
                               9,
                               25,
                               6,
                               15,
                               49,
                               100,
                               2147483647LL,
                               -2147483648LL,
                               2147483648LL,
                               INT64_MAX,
                               INT64_MIN};
        size_t n = sizeof seq / sizeof *seq;
        *more = k + 1 < n + 2;
        if (k < n) {
            if (seq[k] < lo || seq[k] > hi)
                return SG_OK;
            v = sg_value_new_int(seq[k]);
        } else if (k < n + 2 && !t->has_lo && !t->has_hi) {
            const char *b = k == n ? "18446744073709551616" : "-18446744073709551617";
            v = sg_value_new_int_text(b, strlen(b));
        } else
            return SG_OK;
        break;
    }
    case SG_TY_FLOAT: {
        const double seq[] = {0.0,  -0.0, 1.0,  -1.0, 0.5,  NAN,    INFINITY, -INFINITY,
                              t->has_lo ? t->flo : 0.0, t->has_hi ? t->fhi : 0.0, 1e-300, 1e300, 5e-324, 0.1};
        size_t n = sizeof seq / sizeof *seq;
        *more = k + 1 < n;
        if (k >= n)
            return SG_OK;
        double f = seq[k];
        if (t->finite && !isfinite(f))
            return SG_OK;
        if ((t->has_lo && !(f >= t->flo)) || (t->has_hi && !(f <= t->fhi)))
            return SG_OK;
        v = sg_value_new_float(f);
        break;
    }
    case SG_TY_STR:
    case SG_TY_BYTES: {
        bool bytes = t->kind == SG_TY_BYTES;
        unsigned lo = t->has_min ? t->min : 0;
        unsigned hi = gen__default_max(t, max_size, true);
        /* The shapes, in the order tried (the first dozen reach a small budget): "", "a", "0",
         * " ", then whitespace and case where split(' '), strip and per-character case go wrong
         * (" a ", "a  b", "Hi There", "a\tb\n"), a long string (hi x 'a'), "é" / 0xff,
         * "😀" / 0x00, "\x00", "A", "a\u0301", the first allowed char, the last allowed char x
         * hi, "aA", "ß" (upper() makes it two). */
        enum { S_TEXT, S_LONG, S_E_ACUTE, S_EMOJI, S_NUL, S_COMBINING, S_FIRST, S_LAST, S_SHARP_S };
        static const struct {
            int kind;
            const char *text; /* S_TEXT: ASCII */
        } shapes[] = {{S_TEXT, ""},         {S_TEXT, "a"},       {S_TEXT, "0"},          {S_TEXT, " "},
                      {S_TEXT, " a "},      {S_TEXT, "a  b"},    {S_TEXT, "Hi There"},   {S_TEXT, "a\tb\n"},
                      {S_LONG, NULL},       {S_E_ACUTE, NULL},   {S_EMOJI, NULL},        {S_NUL, NULL},
                      {S_TEXT, "A"},        {S_COMBINING, NULL}, {S_FIRST, NULL},        {S_LAST, NULL},
                      {S_TEXT, "aA"},       {S_SHARP_S, NULL}};
        unsigned nshapes = sizeof shapes / sizeof *shapes;
        *more = k + 1 < nshapes;
        if (k >= nshapes)
            return SG_OK;
        uint32_t cps[4096 + 2];
        size_t n = 0;
        switch (shapes[k].kind) {
        case S_TEXT:
            for (const char *c = shapes[k].text; *c; c++)
                cps[n++] = (unsigned char)*c;
            break;
        case S_LONG:
            for (; n < hi && n < 4096; n++)
                cps[n] = t->chars ? t->chars[0] : 'a';
            break;
        case S_E_ACUTE:
            cps[n++] = bytes ? 0xFF : 0xE9;
            break;
        case S_EMOJI:
            cps[n++] = bytes ? 0x00 : 0x1F600;
            break;
        case S_NUL:
            cps[n++] = 0;
            break;
        case S_COMBINING:
            cps[n++] = 'a';
            cps[n++] = bytes ? 0x80 : 0x301;
            break;
        case S_FIRST:
            cps[n++] = t->chars ? t->chars[0] : 'z';
            break;
        case S_LAST:
            for (; n < hi && n < 4096; n++)
                cps[n] = t->chars ? t->chars[t->nchars - 1] : (bytes ? 0xFF : 0x4E2D);
            break;
        case S_SHARP_S:
            if (bytes)
                return SG_OK; /* (not a byte) */
            cps[n++] = 0xDF;
            break;
        }
        if (n < lo) {
            /* pad to the minimum length with the first allowed character */
            while (n < lo && n < 4096)
                cps[n++] = t->chars ? t->chars[0] : 'a';
        }
        if (n > hi)
            return SG_OK;
        if (!bytes)
            for (size_t x = 0; x < n; x++)
                if (!gen__char_ok(t, cps[x]))
                    return SG_OK;
        v = gen__str_of(bytes ? SG_VAL_BYTES : SG_VAL_STR, cps, n);
        break;
    }
    case SG_TY_TUPLE:
        if (!t->variadic) {
            v = sg_value_new(SG_VAL_TUPLE);
            if (!v)
                return SG_ERR_NOMEM;
            *more = k < 12;
            for (size_t x = 0; x < t->n; x++) {
                sg_value *e = NULL;
                bool m;
                sg_status st = gen__boundary(t->items[x], k, max_size, &e, &m);
                if (st == SG_OK && !e)
                    st = gen__boundary(t->items[x], 0, max_size, &e, &m);
                if (st != SG_OK || !e) {
                    sg_value_free(v);
                    return st;
                }
                if (sg_value_push(v, e) < 0) {
                    sg_value_free(v);
                    return SG_ERR_NOMEM;
                }
            }
            break;
        }
        /* fall through: a variadic tuple is a container */
        /* FALLTHROUGH */
    case SG_TY_LIST:
    case SG_TY_SET:
    case SG_TY_DICT:
        return gen__container_boundary(t, k, max_size, ret, more);
    }
    if (!v)
        return SG_ERR_NOMEM;
    if (!sg_type_conforms(v, t, true)) {
        sg_value_free(v);
        return SG_OK;
    }
    *ret = v;
    return SG_OK;
}

sg_status sg_gen_boundary(const sg_type *t, unsigned k, unsigned max_size, sg_value **ret, bool *ret_more)
{
    sg_value *v = NULL;
    bool more = false;
    sg_status st = gen__boundary(t, k, max_size, &v, &more);
    if (st != SG_OK)
        return st;
    if (v && !sg_type_conforms(v, t, true)) {
        sg_value_free(v);
        v = NULL;
    }
    *ret = v;
    *ret_more = more;
    return SG_OK;
}

/* ---- mutation ----------------------------------------------------------------------------- */

/* Mutate one value in place (type-aware by the value's own kind). Returns 0, -1 on no memory. */
static int gen__mutate_value(sg_gen *g, sg_value *v, int depth)
{
    sg_rng *r = &g->rng;
    switch (v->kind) {
    case SG_VAL_BOOL:
        v->b = !v->b;
        return 0;
    case SG_VAL_INT: {
        if (v->big) {
            free(v->big);
            v->big = NULL;
            v->i = 0;
            return 0;
        }
        static const int64_t deltas[] = {1, -1, 2, -2};
        switch (sg_rng_below(r, 7)) {
        case 0:
            v->i = 0;
            break;
        case 1:
            v->i = v->i == INT64_MIN ? 0 : -v->i;
            break;
        case 2:
            v->i = -1;
            break;
        case 3:
            v->i = (v->i > INT64_MAX / 2 || v->i < INT64_MIN / 2) ? v->i / 2 : v->i * 2;
            break;
        default: {
            int64_t d = deltas[sg_rng_below(r, 4)];
            if (!((d > 0 && v->i > INT64_MAX - d) || (d < 0 && v->i < INT64_MIN - d)))
                v->i += d;
        }
        }
        return 0;
    }
    case SG_VAL_FLOAT:
        switch (sg_rng_below(r, 7)) {
        case 0:
            v->f = 0.0;
            break;
        case 1:
            v->f = -v->f;
            break;
        case 2:
            v->f = nextafter(v->f, INFINITY);
            break;
        case 3:
            v->f = v->f + 1.0;
            break;
        case 4:
            v->f = v->f - 1.0;
            break;
        case 5:
            v->f = v->f * 0.5;
            break;
        default: {
            static const double sp[] = {NAN, INFINITY, -INFINITY, -0.0, 1e-300};
            v->f = sp[sg_rng_below(r, 5)];
        }
        }
        return 0;
    case SG_VAL_STR:
    case SG_VAL_BYTES: {
        bool bytes = v->kind == SG_VAL_BYTES;
        /* work on code points */
        size_t ncp = bytes ? v->len : sg_utf8_count(v->s, v->len);
        uint32_t *cps = malloc((ncp + 64) * sizeof *cps);
        if (!cps)
            return -1;
        size_t n = 0;
        const unsigned char *s = (const unsigned char *)v->s;
        for (size_t k = 0; k < v->len;) {
            if (bytes) {
                cps[n++] = s[k++];
                continue;
            }
            int extra = s[k] < 0x80 ? 0 : s[k] >> 5 == 6 ? 1 : s[k] >> 4 == 14 ? 2 : 3;
            uint32_t cp = extra == 0 ? s[k] : s[k] & (extra == 1 ? 0x1F : extra == 2 ? 0x0F : 0x07);
            k++;
            for (int x = 0; x < extra && k < v->len; x++, k++)
                cp = cp << 6 | (s[k] & 0x3F);
            cps[n++] = cp;
        }
        uint64_t op = sg_rng_below(r, 6);
        if (op == 0 && n) { /* drop one */
            size_t at = sg_rng_below(r, n);
            memmove(cps + at, cps + at + 1, (n - at - 1) * sizeof *cps);
            n--;
        } else if (op == 1 && n) { /* duplicate one */
            size_t at = sg_rng_below(r, n);
            memmove(cps + at + 1, cps + at, (n - at) * sizeof *cps);
            n++;
        } else if (op == 2 && g->nconstants) { /* splice a constant of the same kind */
            const sg_value *c = g->constants[sg_rng_below(r, g->nconstants)];
            if (c->kind == v->kind && c->len < 48) {
                size_t at = n ? sg_rng_below(r, n + 1) : 0;
                size_t cn = 0;
                uint32_t tmp[48];
                const unsigned char *cs = (const unsigned char *)c->s;
                for (size_t k = 0; k < c->len && cn < 48;) {
                    if (bytes) {
                        tmp[cn++] = cs[k++];
                        continue;
                    }
                    int extra = cs[k] < 0x80 ? 0 : cs[k] >> 5 == 6 ? 1 : cs[k] >> 4 == 14 ? 2 : 3;
                    uint32_t cp = extra == 0 ? cs[k] : cs[k] & (extra == 1 ? 0x1F : extra == 2 ? 0x0F : 0x07);
                    k++;
                    for (int x = 0; x < extra && k < c->len; x++, k++)
                        cp = cp << 6 | (cs[k] & 0x3F);
                    tmp[cn++] = cp;
                }
                memmove(cps + at + cn, cps + at, (n - at) * sizeof *cps);
                memcpy(cps + at, tmp, cn * sizeof *cps);
                n += cn;
            }
        } else if (op == 3) { /* insert a character */
            size_t at = n ? sg_rng_below(r, n + 1) : 0;
            memmove(cps + at + 1, cps + at, (n - at) * sizeof *cps);
            cps[at] = bytes ? (uint32_t)sg_rng_below(r, 256) : gen__sample_chars[sg_rng_below(r, GEN_NSAMPLE)];
            n++;
        } else if (op == 4 && n) { /* replace a character */
            cps[sg_rng_below(r, n)] = bytes ? (uint32_t)sg_rng_below(r, 256)
                                            : gen__sample_chars[sg_rng_below(r, GEN_NSAMPLE)];
        } else if (n > 1) { /* cut in half */
            n = n / 2;
        }
        sg_value *nv = gen__str_of(v->kind, cps, n);
        free(cps);
        if (!nv)
            return -1;
        free(v->s);
        v->s = nv->s;
        v->len = nv->len;
        nv->s = NULL;
        sg_value_free(nv);
        return 0;
    }
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
    case SG_VAL_SET:
    case SG_VAL_DICT: {
        size_t per = v->kind == SG_VAL_DICT ? 2 : 1;
        uint64_t op = sg_rng_below(r, 5);
        if (v->n == 0 || depth > 8)
            return 0;
        size_t at = sg_rng_below(r, v->n);
        if (op == 0 && v->kind != SG_VAL_TUPLE) { /* drop one element */
            for (size_t x = 0; x < per; x++)
                sg_value_free(v->items[per * at + x]);
            memmove(v->items + per * at, v->items + per * (at + 1), (v->n - at - 1) * per * sizeof *v->items);
            v->n--;
            return 0;
        }
        if (op == 1 && v->kind == SG_VAL_LIST && v->n < 64) { /* duplicate one element */
            sg_value *c = sg_value_copy(v->items[at]);
            return sg_value_push(v, c);
        }
        if (op == 2 && v->kind == SG_VAL_LIST && v->n > 1) { /* swap two / reverse */
            size_t b = sg_rng_below(r, v->n);
            sg_value *t = v->items[at];
            v->items[at] = v->items[b];
            v->items[b] = t;
            return 0;
        }
        if (op == 3 && v->kind == SG_VAL_LIST && v->n > 1) { /* keep a prefix */
            size_t keep = sg_rng_below(r, v->n);
            for (size_t x = keep; x < v->n; x++)
                sg_value_free(v->items[x]);
            v->n = keep;
            return 0;
        }
        /* mutate one element (a dict: one value) */
        sg_value *e = v->kind == SG_VAL_DICT ? v->items[2 * at + 1] : v->items[at];
        if (v->kind == SG_VAL_SET)
            return 0; /* changing a set element could make a duplicate */
        return gen__mutate_value(g, e, depth + 1);
    }
    default:
        return 0;
    }
}

sg_status sg_gen_mutate(sg_gen *g, const sg_value *args, sg_value **ret)
{
    sg_value *c = sg_value_copy(args);
    if (!c)
        return SG_ERR_NOMEM;
    unsigned rounds = 1 + (unsigned)sg_rng_below(&g->rng, 3);
    for (unsigned k = 0; k < rounds && c->n; k++)
        if (gen__mutate_value(g, c->items[sg_rng_below(&g->rng, c->n)], 0) < 0) {
            sg_value_free(c);
            return SG_ERR_NOMEM;
        }
    *ret = c;
    return SG_OK;
}

/* ---- type inference ----------------------------------------------------------------------- */

static sg_type *gen__type_new(sg_type_kind kind)
{
    sg_type *t = calloc(1, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

static int gen__type_add(sg_type *t, sg_type *child)
{
    if (!child)
        return -1;
    sg_type **items = realloc(t->items, (t->n + 1) * sizeof *items);
    if (!items) {
        sg_type_free(child);
        return -1;
    }
    t->items = items;
    t->items[t->n++] = child;
    return 0;
}

static sg_type *gen__merge(sg_type *a, sg_type *b);

/* The type of one value (element types merged over the elements). */
static sg_type *gen__infer(const sg_value *v, int depth)
{
    static const sg_type_kind map[] = {SG_TY_NONE, SG_TY_BOOL, SG_TY_INT,   SG_TY_FLOAT, SG_TY_STR,
                                       SG_TY_BYTES, SG_TY_LIST, SG_TY_TUPLE, SG_TY_DICT, SG_TY_SET};
    sg_type *t = gen__type_new(map[v->kind]);
    if (!t)
        return NULL;
    if (depth > 5) {
        /* too deep for the type language: stop at an empty container's element type */
    }
    switch (v->kind) {
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        t->has_max = true;
        t->max = v->len > 32 ? (v->len > 4096 ? 4096 : (unsigned)v->len) : 32;
        return t;
    case SG_VAL_LIST:
    case SG_VAL_SET:
    case SG_VAL_TUPLE: {
        if (v->kind == SG_VAL_TUPLE && v->n > 0 && v->n <= 4 && depth < 5) {
            /* a short tuple: fixed members */
            for (size_t k = 0; k < v->n; k++)
                if (gen__type_add(t, gen__infer(v->items[k], depth + 1)) < 0) {
                    sg_type_free(t);
                    return NULL;
                }
            return t;
        }
        t->variadic = v->kind == SG_VAL_TUPLE;
        sg_type *el = NULL;
        for (size_t k = 0; k < v->n && depth < 5; k++) {
            sg_type *e = gen__infer(v->items[k], depth + 1);
            el = el ? gen__merge(el, e) : e;
            if (!el) {
                sg_type_free(t);
                return NULL;
            }
        }
        if (!el)
            el = gen__type_new(SG_TY_INT);
        if (gen__type_add(t, el) < 0) {
            sg_type_free(t);
            return NULL;
        }
        t->has_max = true;
        t->max = v->n > 8 ? (v->n > 64 ? 64 : (unsigned)v->n) : 8;
        return t;
    }
    case SG_VAL_DICT: {
        sg_type *kt = NULL, *vt = NULL;
        for (size_t k = 0; k < v->n && depth < 5; k++) {
            sg_type *a = gen__infer(v->items[2 * k], depth + 1), *b = gen__infer(v->items[2 * k + 1], depth + 1);
            kt = kt ? gen__merge(kt, a) : a;
            vt = vt ? gen__merge(vt, b) : b;
        }
        if (!kt)
            kt = gen__type_new(SG_TY_STR);
        if (!vt)
            vt = gen__type_new(SG_TY_INT);
        if (gen__type_add(t, kt) < 0 || gen__type_add(t, vt) < 0) {
            sg_type_free(t);
            return NULL;
        }
        t->has_max = true;
        t->max = v->n > 8 ? (v->n > 64 ? 64 : (unsigned)v->n) : 8;
        return t;
    }
    default:
        return t;
    }
}

/* Merge two inferred types into one (consumes both). */
static sg_type *gen__merge(sg_type *a, sg_type *b)
{
    if (!a || !b) {
        sg_type_free(a);
        sg_type_free(b);
        return NULL;
    }
    if (a->kind == SG_TY_UNION || b->kind == SG_TY_UNION || a->kind != b->kind ||
        (a->kind == SG_TY_TUPLE && (a->variadic != b->variadic || a->n != b->n))) {
        if (a->kind == SG_TY_TUPLE && b->kind == SG_TY_TUPLE) {
            /* tuples of different lengths: a variadic tuple of the merged members */
            sg_type *el = NULL;
            for (size_t k = 0; k < a->n; k++) {
                el = el ? gen__merge(el, a->items[k]) : a->items[k];
                a->items[k] = NULL;
            }
            for (size_t k = 0; k < b->n; k++) {
                el = el ? gen__merge(el, b->items[k]) : b->items[k];
                b->items[k] = NULL;
            }
            a->n = 0;
            sg_type_free(b);
            a->variadic = true;
            a->has_max = true;
            a->max = 8;
            if (!el)
                el = gen__type_new(SG_TY_INT);
            if (gen__type_add(a, el) < 0) {
                sg_type_free(a);
                return NULL;
            }
            return a;
        }
        /* a union of the distinct kinds (at most 8) */
        sg_type *u = a->kind == SG_TY_UNION ? a : gen__type_new(SG_TY_UNION);
        if (!u) {
            sg_type_free(a);
            sg_type_free(b);
            return NULL;
        }
        if (u != a && gen__type_add(u, a) < 0) {
            sg_type_free(u);
            sg_type_free(b);
            return NULL;
        }
        sg_type *src[8];
        size_t ns = 0;
        if (b->kind == SG_TY_UNION) {
            for (size_t k = 0; k < b->n && ns < 8; k++)
                src[ns++] = b->items[k];
            b->n = 0;
            sg_type_free(b);
        } else
            src[ns++] = b;
        for (size_t s = 0; s < ns; s++) {
            bool merged = false;
            for (size_t k = 0; k < u->n && !merged; k++)
                if (u->items[k]->kind == src[s]->kind &&
                    !(src[s]->kind == SG_TY_TUPLE)) {
                    u->items[k] = gen__merge(u->items[k], src[s]);
                    merged = true;
                    if (!u->items[k]) {
                        sg_type_free(u);
                        return NULL;
                    }
                }
            if (!merged) {
                if (u->n >= 8)
                    sg_type_free(src[s]);
                else if (gen__type_add(u, src[s]) < 0) {
                    sg_type_free(u);
                    return NULL;
                }
            }
        }
        return u;
    }
    /* same kind */
    if (a->has_max && b->has_max && b->max > a->max)
        a->max = b->max;
    for (size_t k = 0; k < a->n && k < b->n; k++) {
        a->items[k] = gen__merge(a->items[k], b->items[k]);
        b->items[k] = NULL;
        if (!a->items[k]) {
            b->n = 0;
            sg_type_free(b);
            a->n = k;
            sg_type_free(a);
            return NULL;
        }
    }
    sg_type_free(b);
    return a;
}

sg_status sg_gen_infer_types(const sg_value *const *examples, size_t nexamples, sg_type ***ret_types,
                             size_t *ret_n)
{
    if (nexamples == 0)
        return SG_ERR_INVALID_ARG;
    size_t nargs = examples[0]->n;
    for (size_t e = 1; e < nexamples; e++)
        if (examples[e]->n != nargs)
            return SG_ERR_INVALID_ARG;
    sg_type **types = calloc(nargs + 1, sizeof *types);
    if (!types)
        return SG_ERR_NOMEM;
    for (size_t a = 0; a < nargs; a++) {
        sg_type *t = NULL;
        for (size_t e = 0; e < nexamples; e++) {
            sg_type *x = gen__infer(examples[e]->items[a], 0);
            t = t ? gen__merge(t, x) : x;
            if (!t)
                break;
        }
        types[a] = t;
        if (!t) {
            for (size_t k = 0; k < a; k++)
                sg_type_free(types[k]);
            free(types);
            return SG_ERR_NOMEM;
        }
    }
    *ret_types = types;
    *ret_n = nargs;
    return SG_OK;
}

/* ---- choice streams (gen.h) ---------------------------------------------------------------- */

static uint8_t gen__byte(sg_choices *c)
{
    return c->pos < c->len ? c->data[c->pos++] : 0;
}

static uint64_t gen__u64(sg_choices *c)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)gen__byte(c) << (8 * k);
    return v;
}

/* The characters a byte >= 0x80 that starts no UTF-8 sequence stands for (from the generators'
 * favourites, and a few more: the ends of the planes, a noncharacter, astral letters). */
static const uint32_t gen__high_chars[] = {0xE9,    0xDF,    0xF1,   0xF8,    0xC5,    0x301,  0x308,   0x4E2D,
                                           0x6587,  0x5B57,  0xFB01, 0xFF21,  0x2167,  0x1F600, 0x1F1EB, 0x7F,
                                           0x80,    0xA0,    0xFF,   0x200B,  0x2028,  0xFEFF,  0xFFFD,  0xFFFF,
                                           0x10000, 0x1D11E, 0x20000, 0x2F800, 0xE0041, 0xF0000, 0x10FFFF, 0x130};
#define GEN_NHIGH (sizeof gen__high_chars / sizeof *gen__high_chars)

/* One character of a str at the stream's position (its first byte `b` already read, not 0):
 * ASCII as itself; C0 80 (modified UTF-8's NUL) a NUL; a well-formed UTF-8 sequence (shortest
 * form, no surrogate) its character; any other byte one of gen__high_chars. So the UTF-8 bytes of
 * a str operand the candidate compares against are that str, NULs written as C0 80. */
static uint32_t gen__stream_char(sg_choices *c, uint8_t b)
{
    if (b < 0x80)
        return b;
    const uint8_t *p = c->data + c->pos;
    size_t left = c->len - c->pos;
    if (b == 0xC0 && left >= 1 && p[0] == 0x80) {
        c->pos++;
        return 0;
    }
    size_t n = b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : 0;
    uint32_t cp = n == 1 ? b & 0x1Fu : n == 2 ? b & 0x0Fu : b & 0x07u;
    bool ok = n > 0 && n <= left;
    for (size_t k = 0; ok && k < n; k++) {
        ok = (p[k] & 0xC0) == 0x80;
        cp = cp << 6 | (p[k] & 0x3Fu);
    }
    if (ok && ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF))))
        ok = false; /* overlong, a surrogate (no UTF-8 for the value), beyond Unicode */
    if (!ok)
        return gen__high_chars[(b - 0x80) % GEN_NHIGH];
    c->pos += n;
    return cp;
}

/* A str's character folded into its type's options (ascii, chars=), by the byte that began it. */
static uint32_t gen__choice_char(const sg_type *t, uint32_t cp, uint8_t b)
{
    if (t->ascii && cp > 0x7F)
        cp = b & 0x7F ? (uint32_t)(b & 0x7F) : 'a';
    if (t->chars && !gen__char_ok(t, cp))
        cp = t->chars[b % t->nchars];
    return cp;
}

static sg_value *gen__decode_int(sg_choices *c, const sg_type *t)
{
    int64_t v = (int64_t)gen__u64(c);
    int64_t lo = t->has_lo ? t->ilo : INT64_MIN, hi = t->has_hi ? t->ihi : INT64_MAX;
    if (v < lo || v > hi) {
        uint64_t span = (uint64_t)hi - (uint64_t)lo; /* < UINT64_MAX here: some value is outside */
        v = (int64_t)((uint64_t)lo + (uint64_t)v % (span + 1));
    }
    return sg_value_new_int(v);
}

static sg_value *gen__decode_float(sg_choices *c, const sg_type *t)
{
    uint64_t bits = gen__u64(c);
    double v;
    memcpy(&v, &bits, sizeof v);
    bool finite = isfinite(v);
    if (!finite && !t->finite && !t->has_lo && !t->has_hi)
        return sg_value_new_float(v);
    if (!finite)
        v = 0.0;
    double lo = t->has_lo ? t->flo : -1e308, hi = t->has_hi ? t->fhi : 1e308;
    if (v < lo || v > hi) {
        double span = hi - lo;
        v = isfinite(span) && span > 0 ? lo + fmod(fabs(v), span) : lo;
    }
    return sg_value_new_float(v);
}

static unsigned gen__choice_max(const sg_type *t, unsigned max_size, bool str)
{
    return gen__default_max(t, max_size, str);
}

sg_status sg_gen_decode(sg_choices *c, const sg_type *t, sg_value **ret)
{
    sg_value *v = NULL;
    switch (t->kind) {
    case SG_TY_UNION:
        return sg_gen_decode(c, t->items[gen__byte(c) % t->n], ret);
    case SG_TY_NONE:
        v = sg_value_new(SG_VAL_NONE);
        break;
    case SG_TY_BOOL:
        v = sg_value_new_bool(gen__byte(c) & 1);
        break;
    case SG_TY_INT:
        v = gen__decode_int(c, t);
        break;
    case SG_TY_FLOAT:
        v = gen__decode_float(c, t);
        break;
    case SG_TY_STR:
    case SG_TY_BYTES: {
        unsigned lo = t->has_min ? t->min : 0, hi = gen__choice_max(t, c->max_size, true);
        if (hi < lo)
            hi = lo;
        uint32_t *cps = malloc(((size_t)hi + 1) * sizeof *cps);
        if (!cps)
            return SG_ERR_NOMEM;
        unsigned n = 0;
        for (uint8_t b; (b = gen__byte(c)) != 0;) { /* to the terminator: positions stay stable */
            uint32_t cp;
            if (t->kind == SG_TY_STR) {
                cp = gen__choice_char(t, gen__stream_char(c, b), b);
            } else if (b == 0xFF && c->pos < c->len && (c->data[c->pos] == 0 || c->data[c->pos] == 0xFF)) {
                cp = c->data[c->pos++]; /* bytes: FF 00 is a 0 byte, FF FF a 0xFF byte */
            } else {
                cp = b;
            }
            if (n < hi)
                cps[n++] = cp;
        }
        while (n < lo)
            cps[n++] = t->kind == SG_TY_STR ? gen__choice_char(t, 'a', 'a') : 'a';
        v = gen__str_of(t->kind == SG_TY_STR ? SG_VAL_STR : SG_VAL_BYTES, cps, n);
        free(cps);
        break;
    }
    case SG_TY_LIST:
    case SG_TY_SET:
    case SG_TY_DICT:
    case SG_TY_TUPLE: {
        sg_value_kind vk = t->kind == SG_TY_LIST  ? SG_VAL_LIST
                           : t->kind == SG_TY_SET ? SG_VAL_SET
                           : t->kind == SG_TY_DICT ? SG_VAL_DICT
                                                   : SG_VAL_TUPLE;
        v = sg_value_new(vk);
        if (!v)
            return SG_ERR_NOMEM;
        size_t fixed = t->kind == SG_TY_TUPLE && !t->variadic ? t->n : 0;
        unsigned lo = t->has_min ? t->min : 0, hi = gen__choice_max(t, c->max_size, false);
        for (size_t k = 0;; k++) {
            if (fixed && k >= fixed)
                break;
            if (!fixed) { /* "one more?" before each element: below min it is always yes */
                bool more = gen__byte(c) & 1;
                if (v->n >= hi || (!more && v->n >= lo))
                    break;
            }
            if (!fixed && k > (size_t)hi * 4 + 8)
                break; /* duplicates in a set or dict: give up growing */
            sg_value *e = NULL;
            sg_status st = sg_gen_decode(c, fixed ? t->items[k] : t->items[0], &e);
            if (st != SG_OK) {
                sg_value_free(v);
                return st;
            }
            if ((vk == SG_VAL_SET || vk == SG_VAL_DICT) && gen__contains_key(v, e, vk == SG_VAL_DICT)) {
                sg_value_free(e);
                if (vk == SG_VAL_DICT) { /* the value is read all the same: positions stay stable */
                    sg_value *val = NULL;
                    if ((st = sg_gen_decode(c, t->items[1], &val)) != SG_OK) {
                        sg_value_free(v);
                        return st;
                    }
                    sg_value_free(val);
                }
                continue;
            }
            if (sg_value_push(v, e) < 0) {
                sg_value_free(v);
                return SG_ERR_NOMEM;
            }
            if (vk == SG_VAL_DICT) {
                sg_value *val = NULL;
                if ((st = sg_gen_decode(c, t->items[1], &val)) != SG_OK || sg_value_push(v, val) < 0) {
                    sg_value_free(v);
                    return st != SG_OK ? st : SG_ERR_NOMEM;
                }
            }
        }
        if (t->sorted)
            gen__sort(v);
        break;
    }
    }
    if (!v)
        return SG_ERR_NOMEM;
    *ret = v;
    return SG_OK;
}

static void gen__put_u64(sg_buf *b, uint64_t v)
{
    char le[8];
    for (int k = 0; k < 8; k++)
        le[k] = (char)((v >> (8 * k)) & 0xff);
    sg_buf_append(b, le, 8);
}

static uint32_t gen__utf8_next(const unsigned char *s, size_t len, size_t *i)
{
    unsigned char c = s[*i];
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (*i + n > len)
        n = len - *i;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; k++)
        cp = cp << 6 | (s[*i + k] & 0x3F);
    *i += n;
    return cp;
}

size_t sg_gen_choice_char(uint32_t cp, char *out)
{
    if (cp == 0) { /* a 0 byte would end the str */
        out[0] = (char)0xC0;
        out[1] = (char)0x80;
        return 2;
    }
    return gen__utf8_put(out, cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0xFFFD : cp);
}

sg_status sg_gen_encode(const sg_type *t, const sg_value *v, unsigned max_size, sg_buf *b)
{
    switch (t->kind) {
    case SG_TY_UNION:
        for (size_t k = 0; k < t->n; k++)
            if (sg_type_conforms(v, t->items[k], false)) {
                char ch = (char)k;
                sg_buf_append(b, &ch, 1);
                return sg_gen_encode(t->items[k], v, max_size, b);
            }
        return SG_ERR_INVALID_ARG;
    case SG_TY_NONE:
        return v->kind == SG_VAL_NONE ? SG_OK : SG_ERR_INVALID_ARG;
    case SG_TY_BOOL:
        if (v->kind != SG_VAL_BOOL)
            return SG_ERR_INVALID_ARG;
        sg_buf_append(b, v->b ? "\1" : "\0", 1);
        break;
    case SG_TY_INT:
        if (v->kind != SG_VAL_INT)
            return SG_ERR_INVALID_ARG;
        gen__put_u64(b, v->big ? 0 : (uint64_t)v->i);
        break;
    case SG_TY_FLOAT: {
        if (v->kind != SG_VAL_FLOAT && v->kind != SG_VAL_INT)
            return SG_ERR_INVALID_ARG;
        double f = v->kind == SG_VAL_FLOAT ? v->f : (double)v->i;
        uint64_t bits;
        memcpy(&bits, &f, sizeof bits);
        gen__put_u64(b, bits);
        break;
    }
    case SG_TY_STR:
    case SG_TY_BYTES: {
        if (v->kind != (t->kind == SG_TY_STR ? SG_VAL_STR : SG_VAL_BYTES))
            return SG_ERR_INVALID_ARG;
        const unsigned char *s = (const unsigned char *)v->s;
        for (size_t i = 0; i < v->len;) {
            char u[4];
            size_t un = 1;
            if (t->kind == SG_TY_BYTES) { /* 0 and 0xFF escaped: FF 00, FF FF */
                u[0] = (char)s[i];
                if (s[i] == 0 || s[i] == 0xFF) {
                    u[0] = (char)0xFF;
                    u[1] = (char)s[i];
                    un = 2;
                }
                i++;
            } else {
                un = sg_gen_choice_char(gen__utf8_next(s, v->len, &i), u);
            }
            sg_buf_append(b, u, un);
        }
        sg_buf_append(b, "\0", 1);
        break;
    }
    default: {
        bool fixed = t->kind == SG_TY_TUPLE && !t->variadic;
        if (!v->items && v->n)
            return SG_ERR_INVALID_ARG;
        for (size_t k = 0; k < v->n; k++) {
            if (!fixed)
                sg_buf_append(b, "\1", 1);
            const sg_type *et = fixed ? (k < t->n ? t->items[k] : NULL) : t->items[0];
            if (!et)
                return SG_ERR_INVALID_ARG;
            size_t slot = t->kind == SG_TY_DICT ? 2 * k : k;
            sg_status st = sg_gen_encode(et, v->items[slot], max_size, b);
            if (st == SG_OK && t->kind == SG_TY_DICT)
                st = sg_gen_encode(t->items[1], v->items[slot + 1], max_size, b);
            if (st != SG_OK)
                return st;
        }
        if (!fixed)
            sg_buf_append(b, "\0", 1);
        break;
    }
    }
    return b->failed ? SG_ERR_NOMEM : SG_OK;
}
