/* The signature type language: tokenizer, recursive-descent parser, conformance (typelang.h). */
#include "golden_tasks/typelang.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    TOK_END,
    TOK_DOTS3,
    TOK_DOTS2,
    TOK_OPT, /* min= max= chars= */
    TOK_NUM,
    TOK_NAME,
    TOK_QUOTED,
    TOK_EMPTY, /* () */
    TOK_PUNCT,
} typelang__tok_kind;

typedef struct {
    typelang__tok_kind kind;
    size_t off, len;
} typelang__tok;

typedef struct {
    const char *s;
    size_t slen;
    typelang__tok toks[SG_TYPE_MAX_BYTES + 1];
    size_t ntok, i;
    sg_diag *diag;
    sg_status st;
} typelang__parser;

static bool typelang__digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool typelang__hex(char c)
{
    return typelang__digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static sg_status typelang__fail(typelang__parser *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static sg_status typelang__fail(typelang__parser *p, size_t off, const char *fmt, ...)
{
    if (p->st == SG_OK) {
        char msg[300];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        p->st = sg_diag_set(p->diag, SG_ERR_INVALID_ARG, NULL, 1, (long)off + 1, (long long)off, 0,
                            "%s at offset %zu", msg, off);
    }
    return p->st;
}

/* Length of a number token at s (0 if none), per the grammar's `number`. */
static size_t typelang__num_len(const char *s)
{
    size_t k = 0;
    if (s[k] == '-')
        k++;
    if (s[k] == '0')
        k++;
    else if (s[k] >= '1' && s[k] <= '9')
        while (typelang__digit(s[k]))
            k++;
    else
        return 0;
    if (s[k] == '.' && typelang__digit(s[k + 1])) {
        k++;
        while (typelang__digit(s[k]))
            k++;
    }
    if (s[k] == 'e' || s[k] == 'E') {
        size_t e = k + 1;
        if (s[e] == '+' || s[e] == '-')
            e++;
        if (typelang__digit(s[e])) {
            while (typelang__digit(s[e]))
                e++;
            k = e;
        }
    }
    return k;
}

/* Length of a quoted token at s (0 if none). */
static size_t typelang__quoted_len(const char *s)
{
    if (s[0] != '\'')
        return 0;
    size_t k = 1, chars = 0;
    for (;;) {
        unsigned char c = (unsigned char)s[k];
        if (c == '\'')
            break;
        if (c == '\\') {
            char e = s[k + 1];
            if (e == '\\' || e == '\'' || e == 'n' || e == 'r' || e == 't')
                k += 2;
            else if (e == 'u' && typelang__hex(s[k + 2]) && typelang__hex(s[k + 3]) && typelang__hex(s[k + 4]) &&
                     typelang__hex(s[k + 5]))
                k += 6;
            else
                return 0;
        } else if (c < 0x20 || c == 0x7F) {
            return 0; /* includes the terminating NUL */
        } else {
            k++;
        }
        chars++;
    }
    return chars ? k + 1 : 0;
}

static sg_status typelang__tokenize(typelang__parser *p)
{
    const char *s = p->s;
    size_t i = 0;
    while (i < p->slen) {
        typelang__tok t = {.off = i};
        const char *c = s + i;
        if (*c == ' ') {
            i++;
            continue;
        }
        size_t n;
        if (!strncmp(c, "...", 3)) {
            t.kind = TOK_DOTS3;
            t.len = 3;
        } else if (!strncmp(c, "..", 2)) {
            t.kind = TOK_DOTS2;
            t.len = 2;
        } else if (!strncmp(c, "min=", 4) || !strncmp(c, "max=", 4)) {
            t.kind = TOK_OPT;
            t.len = 4;
        } else if (!strncmp(c, "chars=", 6)) {
            t.kind = TOK_OPT;
            t.len = 6;
        } else if ((n = typelang__num_len(c)) > 0) {
            t.kind = TOK_NUM;
            t.len = n;
        } else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_') {
            n = 1;
            while ((c[n] >= 'a' && c[n] <= 'z') || (c[n] >= 'A' && c[n] <= 'Z') || c[n] == '_' ||
                   typelang__digit(c[n]))
                n++;
            t.kind = TOK_NAME;
            t.len = n;
        } else if ((n = typelang__quoted_len(c)) > 0) {
            t.kind = TOK_QUOTED;
            t.len = n;
        } else if (!strncmp(c, "()", 2)) {
            t.kind = TOK_EMPTY;
            t.len = 2;
        } else if (strchr("[](),|", *c) && *c) {
            t.kind = TOK_PUNCT;
            t.len = 1;
        } else {
            char ch[8];
            snprintf(ch, sizeof ch, "%c", *c >= 0x20 && *c < 0x7F ? *c : '?');
            return typelang__fail(p, i, "unexpected character '%s'", ch);
        }
        p->toks[p->ntok++] = t;
        i += t.len;
    }
    p->toks[p->ntok++] = (typelang__tok){.kind = TOK_END, .off = p->slen};
    return SG_OK;
}

static const typelang__tok *typelang__peek(typelang__parser *p)
{
    return &p->toks[p->i];
}

static bool typelang__is(typelang__parser *p, typelang__tok_kind kind, const char *text)
{
    const typelang__tok *t = typelang__peek(p);
    if (t->kind != kind)
        return false;
    return !text || (strlen(text) == t->len && !strncmp(p->s + t->off, text, t->len));
}

/* Take a token of `kind` (and `text`, if given); fail otherwise. */
static const typelang__tok *typelang__take(typelang__parser *p, typelang__tok_kind kind, const char *text)
{
    if (p->st)
        return NULL;
    if (!typelang__is(p, kind, text)) {
        const typelang__tok *t = typelang__peek(p);
        char got[64];
        snprintf(got, sizeof got, "%.*s", (int)(t->len > 40 ? 40 : t->len), p->s + t->off);
        char msg[128];
        snprintf(msg, sizeof msg, "expected %s, got '%s'",
                 text ? text
                      : (const char *[]){"end", "'...'", "'..'", "an option", "a number", "a name",
                                         "a quoted string", "'()'", "punctuation"}[kind],
                 t->kind == TOK_END ? "end" : got);
        typelang__fail(p, t->off, "%s", msg);
        return NULL;
    }
    return &p->toks[p->i++];
}

void sg_type_free(sg_type *t)
{
    if (!t)
        return;
    for (size_t k = 0; k < t->n; k++)
        sg_type_free(t->items[k]);
    free(t->items);
    free(t->chars);
    free(t);
}

static sg_type *typelang__new(typelang__parser *p, sg_type_kind kind)
{
    sg_type *t = calloc(1, sizeof *t);
    if (!t && p->st == SG_OK)
        p->st = sg_diag_set(p->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
    if (t)
        t->kind = kind;
    return t;
}

static void typelang__add(typelang__parser *p, sg_type *t, sg_type *child)
{
    if (!child)
        return;
    sg_type **items = realloc(t->items, (t->n + 1) * sizeof *items);
    if (!items) {
        sg_type_free(child);
        if (p->st == SG_OK)
            p->st = sg_diag_set(p->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
        return;
    }
    t->items = items;
    t->items[t->n++] = child;
}

static sg_type *typelang__type(typelang__parser *p, int depth);

/* integer: fits in int64 */
static bool typelang__int(typelang__parser *p, int64_t *out)
{
    const typelang__tok *t = typelang__take(p, TOK_NUM, NULL);
    if (!t)
        return false;
    char buf[64];
    if (t->len >= sizeof buf)
        return typelang__fail(p, t->off, "integer bound outside signed 64 bits"), false;
    memcpy(buf, p->s + t->off, t->len);
    buf[t->len] = 0;
    if (strpbrk(buf, ".eE"))
        return typelang__fail(p, t->off, "integer expected, got '%s'", buf), false;
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno)
        return typelang__fail(p, t->off, "integer bound outside signed 64 bits"), false;
    *out = v;
    return true;
}

static bool typelang__float(typelang__parser *p, double *out)
{
    const typelang__tok *t = typelang__take(p, TOK_NUM, NULL);
    if (!t)
        return false;
    char buf[600];
    if (t->len >= sizeof buf)
        return typelang__fail(p, t->off, "number too long"), false;
    memcpy(buf, p->s + t->off, t->len);
    buf[t->len] = 0;
    double v = strtod(buf, NULL);
    if (!isfinite(v))
        return typelang__fail(p, t->off, "float bound overflows"), false;
    *out = v;
    return true;
}

static bool typelang__range(typelang__parser *p, sg_type *t, bool int_only)
{
    size_t off = typelang__peek(p)->off;
    if (typelang__is(p, TOK_NUM, NULL)) {
        t->has_lo = true;
        if (!(int_only ? typelang__int(p, &t->ilo) : typelang__float(p, &t->flo)))
            return false;
    }
    if (!typelang__take(p, TOK_DOTS2, NULL))
        return false;
    if (typelang__is(p, TOK_NUM, NULL)) {
        t->has_hi = true;
        if (!(int_only ? typelang__int(p, &t->ihi) : typelang__float(p, &t->fhi)))
            return false;
    }
    if (t->has_lo && t->has_hi && (int_only ? t->ilo > t->ihi : t->flo > t->fhi))
        return typelang__fail(p, off, "range with lo > hi"), false;
    return true;
}

static bool typelang__size_opt(typelang__parser *p, sg_type *t)
{
    const typelang__tok *o = typelang__take(p, TOK_OPT, NULL);
    if (!o)
        return false;
    bool is_min = p->s[o->off + 1] == 'i';
    if (p->s[o->off] == 'c')
        return typelang__fail(p, o->off, "chars= is not a size option"), false;
    const typelang__tok *n = typelang__take(p, TOK_NUM, NULL);
    if (!n)
        return false;
    const char *s = p->s + n->off;
    for (size_t k = 0; k < n->len; k++)
        if (!typelang__digit(s[k]))
            return typelang__fail(p, n->off, "size must be a natural number"), false;
    if (n->len > 6)
        return typelang__fail(p, n->off, "size beyond the limit"), false;
    unsigned v = (unsigned)strtoul(s, NULL, 10);
    if (is_min) {
        t->has_min = true;
        t->min = v;
    } else {
        t->has_max = true;
        t->max = v;
    }
    return true;
}

static bool typelang__check_sizes(typelang__parser *p, sg_type *t, unsigned limit, size_t off)
{
    if (t->has_max && t->max > limit) {
        char msg[64];
        snprintf(msg, sizeof msg, "max=%u beyond the limit %u", t->max, limit);
        return typelang__fail(p, off, "%s", msg), false;
    }
    if (t->has_max && t->has_min && t->min > t->max)
        return typelang__fail(p, off, "min > max"), false;
    if (!t->has_max && t->has_min && t->min > limit)
        return typelang__fail(p, off, "min beyond the limit"), false;
    return true;
}

static bool typelang__sizes(typelang__parser *p, sg_type *t, unsigned limit, bool allow_sorted)
{
    size_t off = typelang__peek(p)->off;
    if (typelang__is(p, TOK_PUNCT, "(")) {
        typelang__take(p, TOK_PUNCT, "(");
        bool seen_min = false, seen_max = false, seen_sorted = false;
        for (;;) {
            const typelang__tok *tk = typelang__peek(p);
            if (allow_sorted && typelang__is(p, TOK_NAME, "sorted")) {
                if (seen_sorted)
                    return typelang__fail(p, tk->off, "option sorted given twice"), false;
                seen_sorted = true;
                typelang__take(p, TOK_NAME, NULL);
                t->sorted = true;
            } else if (tk->kind == TOK_OPT && p->s[tk->off] == 'm') {
                bool is_min = p->s[tk->off + 1] == 'i';
                if (is_min ? seen_min : seen_max)
                    return typelang__fail(p, tk->off, "option %s given twice", is_min ? "min" : "max"), false;
                if (is_min)
                    seen_min = true;
                else
                    seen_max = true;
                if (!typelang__size_opt(p, t))
                    return false;
            } else {
                return typelang__fail(p, tk->off, "unknown option"), false;
            }
            if (typelang__is(p, TOK_PUNCT, ",")) {
                typelang__take(p, TOK_PUNCT, ",");
                continue;
            }
            break;
        }
        if (!typelang__take(p, TOK_PUNCT, ")"))
            return false;
    }
    return typelang__check_sizes(p, t, limit, off);
}

static int typelang__u32cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Decode a quoted token into t->chars (sorted, distinct). */
static bool typelang__chars(typelang__parser *p, sg_type *t, const typelang__tok *q)
{
    const unsigned char *s = (const unsigned char *)p->s + q->off + 1;
    size_t len = q->len - 2;
    uint32_t *cs = malloc((len + 1) * sizeof *cs);
    if (!cs) {
        p->st = sg_diag_set(p->diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
        return false;
    }
    size_t n = 0;
    for (size_t k = 0; k < len;) {
        uint32_t cp;
        if (s[k] == '\\') {
            char e = (char)s[k + 1];
            if (e == 'u') {
                char hex[5] = {(char)s[k + 2], (char)s[k + 3], (char)s[k + 4], (char)s[k + 5], 0};
                cp = (uint32_t)strtoul(hex, NULL, 16);
                if (cp >= 0xD800 && cp <= 0xDFFF) {
                    free(cs);
                    return typelang__fail(p, q->off + 1 + k, "surrogate in chars="), false;
                }
                k += 6;
            } else {
                cp = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : (uint32_t)e;
                k += 2;
            }
        } else if (s[k] < 0x80) {
            cp = s[k++];
        } else {
            int extra = s[k] >> 5 == 6 ? 1 : s[k] >> 4 == 14 ? 2 : 3;
            cp = s[k] & (extra == 1 ? 0x1F : extra == 2 ? 0x0F : 0x07);
            k++;
            for (int x = 0; x < extra && k < len; x++, k++)
                cp = cp << 6 | (s[k] & 0x3F);
        }
        cs[n++] = cp;
    }
    qsort(cs, n, sizeof *cs, typelang__u32cmp);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (m == 0 || cs[m - 1] != cs[k])
            cs[m++] = cs[k];
    t->chars = cs;
    t->nchars = m;
    return true;
}

static sg_type *typelang__alt(typelang__parser *p, int depth)
{
    const typelang__tok *nt = typelang__take(p, TOK_NAME, NULL);
    if (!nt)
        return NULL;
    char name[16] = "";
    if (nt->len < sizeof name)
        memcpy(name, p->s + nt->off, nt->len);
    sg_type *t = NULL;
    if (!strcmp(name, "None") || !strcmp(name, "bool")) {
        return typelang__new(p, name[0] == 'N' ? SG_TY_NONE : SG_TY_BOOL);
    } else if (!strcmp(name, "int")) {
        t = typelang__new(p, SG_TY_INT);
        if (t && typelang__is(p, TOK_PUNCT, "(")) {
            typelang__take(p, TOK_PUNCT, "(");
            if (typelang__range(p, t, true))
                typelang__take(p, TOK_PUNCT, ")");
        }
    } else if (!strcmp(name, "float")) {
        t = typelang__new(p, SG_TY_FLOAT);
        if (t && typelang__is(p, TOK_PUNCT, "(")) {
            typelang__take(p, TOK_PUNCT, "(");
            bool seen_fin = false, seen_range = false;
            while (p->st == SG_OK) {
                size_t off = typelang__peek(p)->off;
                if (typelang__is(p, TOK_NAME, "finite")) {
                    typelang__take(p, TOK_NAME, NULL);
                    if (seen_fin)
                        typelang__fail(p, off, "float option finite given twice");
                    seen_fin = true;
                } else {
                    if (seen_range)
                        typelang__fail(p, off, "float option range given twice");
                    seen_range = true;
                    typelang__range(p, t, false);
                }
                t->finite = true;
                if (!typelang__is(p, TOK_PUNCT, ","))
                    break;
                typelang__take(p, TOK_PUNCT, ",");
            }
            typelang__take(p, TOK_PUNCT, ")");
        }
    } else if (!strcmp(name, "str")) {
        t = typelang__new(p, SG_TY_STR);
        size_t off0 = typelang__peek(p)->off;
        if (t && typelang__is(p, TOK_PUNCT, "(")) {
            typelang__take(p, TOK_PUNCT, "(");
            bool seen[4] = {false};
            while (p->st == SG_OK) {
                const typelang__tok *o = typelang__peek(p);
                /* a repeated option is refused before its value is read (a second chars= used to
                 * replace the first one's array, leaking it: found by fuzz_value) */
                int which = typelang__is(p, TOK_NAME, "ascii")    ? 0
                            : typelang__is(p, TOK_OPT, "chars=") ? 1
                            : o->kind == TOK_OPT                 ? (p->s[o->off + 1] == 'i' ? 2 : 3)
                                                                 : -1;
                if (which >= 0 && seen[which]) {
                    typelang__fail(p, o->off, "str option given twice");
                    break;
                }
                if (which == 0) {
                    typelang__take(p, TOK_NAME, NULL);
                    t->ascii = true;
                } else if (which == 1) {
                    typelang__take(p, TOK_OPT, NULL);
                    const typelang__tok *q = typelang__take(p, TOK_QUOTED, NULL);
                    if (q)
                        typelang__chars(p, t, q);
                } else if (which > 1) {
                    typelang__size_opt(p, t);
                } else {
                    char got[48];
                    snprintf(got, sizeof got, "%.*s", (int)(o->len > 40 ? 40 : o->len), p->s + o->off);
                    typelang__fail(p, o->off, "unknown str option '%s'", got);
                    break;
                }
                seen[which] = true;
                if (!typelang__is(p, TOK_PUNCT, ","))
                    break;
                typelang__take(p, TOK_PUNCT, ",");
            }
            typelang__take(p, TOK_PUNCT, ")");
            if (p->st == SG_OK && t->ascii && t->chars)
                typelang__fail(p, off0, "ascii and chars= exclude each other");
        }
        if (t && p->st == SG_OK)
            typelang__check_sizes(p, t, 4096, off0);
    } else if (!strcmp(name, "bytes")) {
        t = typelang__new(p, SG_TY_BYTES);
        if (t)
            typelang__sizes(p, t, 4096, false);
    } else if (!strcmp(name, "list") || !strcmp(name, "set")) {
        t = typelang__new(p, name[0] == 'l' ? SG_TY_LIST : SG_TY_SET);
        if (t && typelang__take(p, TOK_PUNCT, "[")) {
            size_t off = typelang__peek(p)->off;
            typelang__add(p, t, typelang__type(p, depth + 1));
            typelang__take(p, TOK_PUNCT, "]");
            if (p->st == SG_OK && t->kind == SG_TY_SET && !sg_type_hashable(t->items[0]))
                typelang__fail(p, off, "set element type is not hashable");
            if (p->st == SG_OK)
                typelang__sizes(p, t, 64, t->kind == SG_TY_LIST);
        }
    } else if (!strcmp(name, "dict")) {
        t = typelang__new(p, SG_TY_DICT);
        if (t && typelang__take(p, TOK_PUNCT, "[")) {
            size_t off = typelang__peek(p)->off;
            typelang__add(p, t, typelang__type(p, depth + 1));
            typelang__take(p, TOK_PUNCT, ",");
            if (p->st == SG_OK)
                typelang__add(p, t, typelang__type(p, depth + 1));
            typelang__take(p, TOK_PUNCT, "]");
            if (p->st == SG_OK && !sg_type_hashable(t->items[0]))
                typelang__fail(p, off, "dict key type is not hashable");
            if (p->st == SG_OK)
                typelang__sizes(p, t, 64, false);
        }
    } else if (!strcmp(name, "tuple")) {
        t = typelang__new(p, SG_TY_TUPLE);
        if (t && typelang__take(p, TOK_PUNCT, "[")) {
            if (typelang__is(p, TOK_EMPTY, NULL)) {
                typelang__take(p, TOK_EMPTY, NULL);
                typelang__take(p, TOK_PUNCT, "]");
                return t;
            }
            typelang__add(p, t, typelang__type(p, depth + 1));
            while (p->st == SG_OK && typelang__is(p, TOK_PUNCT, ",")) {
                typelang__take(p, TOK_PUNCT, ",");
                if (typelang__is(p, TOK_DOTS3, NULL)) {
                    if (t->n != 1)
                        typelang__fail(p, typelang__peek(p)->off, "'...' only after the first tuple member");
                    typelang__take(p, TOK_DOTS3, NULL);
                    t->variadic = true;
                    break;
                }
                typelang__add(p, t, typelang__type(p, depth + 1));
            }
            typelang__take(p, TOK_PUNCT, "]");
            if (p->st == SG_OK && t->variadic)
                typelang__sizes(p, t, 64, false);
        }
    } else {
        char got[48];
        snprintf(got, sizeof got, "%.*s", (int)(nt->len > 40 ? 40 : nt->len), p->s + nt->off);
        typelang__fail(p, nt->off, "unknown type name '%s'", got);
    }
    if (p->st != SG_OK) {
        sg_type_free(t);
        return NULL;
    }
    return t;
}

static sg_type *typelang__type(typelang__parser *p, int depth)
{
    if (depth > SG_TYPE_MAX_NEST) {
        typelang__fail(p, typelang__peek(p)->off, "brackets nested deeper than 6");
        return NULL;
    }
    size_t off = typelang__peek(p)->off;
    sg_type *first = typelang__alt(p, depth);
    if (!first || !typelang__is(p, TOK_PUNCT, "|"))
        return first;
    sg_type *u = typelang__new(p, SG_TY_UNION);
    if (!u) {
        sg_type_free(first);
        return NULL;
    }
    typelang__add(p, u, first);
    while (p->st == SG_OK && typelang__is(p, TOK_PUNCT, "|")) {
        typelang__take(p, TOK_PUNCT, "|");
        typelang__add(p, u, typelang__alt(p, depth));
    }
    if (p->st == SG_OK && u->n > SG_TYPE_MAX_ALTS)
        typelang__fail(p, off, "more than 8 alternatives in a union");
    for (size_t a = 0; p->st == SG_OK && a < u->n; a++)
        for (size_t b = a + 1; p->st == SG_OK && b < u->n; b++) {
            sg_buf x, y;
            sg_buf_init(&x, 4096);
            sg_buf_init(&y, 4096);
            sg_type_format(u->items[a], &x);
            sg_type_format(u->items[b], &y);
            if (x.data && y.data && !strcmp(x.data, y.data))
                typelang__fail(p, off, "alternative %s written twice", x.data);
            sg_buf_free(&x);
            sg_buf_free(&y);
        }
    if (p->st != SG_OK) {
        sg_type_free(u);
        return NULL;
    }
    return u;
}

sg_status sg_type_parse(const char *text, sg_type **ret, sg_diag *diag)
{
    typelang__parser *p = calloc(1, sizeof *p);
    if (!p)
        return sg_diag_set(diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
    p->s = text;
    p->slen = strlen(text);
    p->diag = diag;
    sg_type *t = NULL;
    long long bad = -1;
    if (p->slen > SG_TYPE_MAX_BYTES)
        typelang__fail(p, SG_TYPE_MAX_BYTES, "type string longer than 512 bytes");
    else if ((bad = sg_utf8_invalid_offset(text, p->slen)) >= 0)
        /* chars= decodes UTF-8 and would turn a stray byte into some other character (found by
         * fuzz_value: '\x98\x89' became U+0009) */
        typelang__fail(p, (size_t)bad, "type string is not valid UTF-8");
    else if (typelang__tokenize(p) == SG_OK) {
        t = typelang__type(p, 0);
        if (t && p->st == SG_OK)
            typelang__take(p, TOK_END, NULL);
    }
    sg_status st = p->st;
    free(p);
    if (st != SG_OK) {
        sg_type_free(t);
        return st;
    }
    *ret = t;
    return SG_OK;
}

bool sg_type_hashable(const sg_type *t)
{
    switch (t->kind) {
    case SG_TY_LIST:
    case SG_TY_SET:
    case SG_TY_DICT:
        return false;
    case SG_TY_TUPLE:
    case SG_TY_UNION:
        for (size_t k = 0; k < t->n; k++)
            if (!sg_type_hashable(t->items[k]))
                return false;
        return true;
    default:
        return true;
    }
}

static bool typelang__size_ok(const sg_type *t, size_t n)
{
    return (!t->has_min || n >= t->min) && (!t->has_max || n <= t->max);
}

bool sg_type_conforms(const sg_value *v, const sg_type *t, bool options)
{
    switch (t->kind) {
    case SG_TY_UNION:
        for (size_t k = 0; k < t->n; k++)
            if (sg_type_conforms(v, t->items[k], options))
                return true;
        return false;
    case SG_TY_NONE:
        return v->kind == SG_VAL_NONE;
    case SG_TY_BOOL:
        return v->kind == SG_VAL_BOOL;
    case SG_TY_INT:
        if (v->kind != SG_VAL_INT)
            return false;
        if (!options)
            return true;
        if (v->big)
            return v->big[0] == '-' ? !t->has_lo : !t->has_hi;
        return (!t->has_lo || v->i >= t->ilo) && (!t->has_hi || v->i <= t->ihi);
    case SG_TY_FLOAT:
        if (v->kind != SG_VAL_FLOAT)
            return false;
        if (!options)
            return true;
        if (t->finite && !isfinite(v->f))
            return false;
        return (!t->has_lo || v->f >= t->flo) && (!t->has_hi || v->f <= t->fhi);
    case SG_TY_STR: {
        if (v->kind != SG_VAL_STR)
            return false;
        if (!options)
            return true;
        size_t n = sg_utf8_count(v->s, v->len);
        if (!typelang__size_ok(t, n))
            return false;
        const unsigned char *s = (const unsigned char *)v->s;
        for (size_t k = 0; k < v->len;) {
            uint32_t cp;
            int extra = s[k] < 0x80 ? 0 : s[k] >> 5 == 6 ? 1 : s[k] >> 4 == 14 ? 2 : 3;
            cp = extra == 0 ? s[k] : s[k] & (extra == 1 ? 0x1F : extra == 2 ? 0x0F : 0x07);
            k++;
            for (int x = 0; x < extra && k < v->len; x++, k++)
                cp = cp << 6 | (s[k] & 0x3F);
            if (t->ascii && cp > 0x7F)
                return false;
            if (t->chars && !bsearch(&cp, t->chars, t->nchars, sizeof cp, typelang__u32cmp))
                return false;
        }
        return true;
    }
    case SG_TY_BYTES:
        return v->kind == SG_VAL_BYTES && (!options || typelang__size_ok(t, v->len));
    case SG_TY_LIST:
        if (v->kind != SG_VAL_LIST || (options && !typelang__size_ok(t, v->n)))
            return false;
        for (size_t k = 0; k < v->n; k++)
            if (!sg_type_conforms(v->items[k], t->items[0], options))
                return false;
        if (options && t->sorted)
            for (size_t k = 1; k < v->n; k++) {
                bool ok = true;
                bool lt = sg_value_less(v->items[k], v->items[k - 1], &ok);
                if (!ok || lt)
                    return false;
            }
        return true;
    case SG_TY_SET:
        if (v->kind != SG_VAL_SET || (options && !typelang__size_ok(t, v->n)))
            return false;
        for (size_t k = 0; k < v->n; k++)
            if (!sg_type_conforms(v->items[k], t->items[0], options))
                return false;
        return true;
    case SG_TY_DICT:
        if (v->kind != SG_VAL_DICT || (options && !typelang__size_ok(t, v->n)))
            return false;
        for (size_t k = 0; k < v->n; k++)
            if (!sg_type_conforms(v->items[2 * k], t->items[0], options) ||
                !sg_type_conforms(v->items[2 * k + 1], t->items[1], options))
                return false;
        return true;
    case SG_TY_TUPLE:
        if (v->kind != SG_VAL_TUPLE)
            return false;
        if (t->variadic) {
            if (options && !typelang__size_ok(t, v->n))
                return false;
            for (size_t k = 0; k < v->n; k++)
                if (!sg_type_conforms(v->items[k], t->items[0], options))
                    return false;
            return true;
        }
        if (v->n != t->n)
            return false;
        for (size_t k = 0; k < v->n; k++)
            if (!sg_type_conforms(v->items[k], t->items[k], options))
                return false;
        return true;
    }
    return false;
}

static void typelang__sizes_fmt(const sg_type *t, sg_buf *b)
{
    if (!t->sorted && !t->has_min && !t->has_max)
        return;
    const char *sep = "";
    sg_buf_puts(b, "(");
    if (t->sorted) {
        sg_buf_puts(b, "sorted");
        sep = ", ";
    }
    if (t->has_min) {
        sg_buf_printf(b, "%smin=%u", sep, t->min);
        sep = ", ";
    }
    if (t->has_max)
        sg_buf_printf(b, "%smax=%u", sep, t->max);
    sg_buf_puts(b, ")");
}

void sg_type_format(const sg_type *t, sg_buf *b)
{
    switch (t->kind) {
    case SG_TY_NONE:
        sg_buf_puts(b, "None");
        return;
    case SG_TY_BOOL:
        sg_buf_puts(b, "bool");
        return;
    case SG_TY_INT:
        sg_buf_puts(b, "int");
        if (t->has_lo || t->has_hi) {
            sg_buf_puts(b, "(");
            if (t->has_lo)
                sg_buf_printf(b, "%lld", (long long)t->ilo);
            sg_buf_puts(b, "..");
            if (t->has_hi)
                sg_buf_printf(b, "%lld", (long long)t->ihi);
            sg_buf_puts(b, ")");
        }
        return;
    case SG_TY_FLOAT:
        sg_buf_puts(b, "float");
        if (t->has_lo || t->has_hi) {
            sg_buf_puts(b, "(");
            if (t->has_lo)
                sg_buf_printf(b, "%.17g", t->flo);
            sg_buf_puts(b, "..");
            if (t->has_hi)
                sg_buf_printf(b, "%.17g", t->fhi);
            sg_buf_puts(b, ")");
        } else if (t->finite)
            sg_buf_puts(b, "(finite)");
        return;
    case SG_TY_STR: {
        sg_buf_puts(b, "str");
        if (!t->ascii && !t->chars && !t->has_min && !t->has_max)
            return;
        sg_buf_puts(b, "(");
        const char *sep = "";
        if (t->ascii) {
            sg_buf_puts(b, "ascii");
            sep = ", ";
        }
        if (t->chars) {
            sg_buf_printf(b, "%schars='", sep);
            for (size_t k = 0; k < t->nchars; k++) {
                uint32_t cp = t->chars[k];
                if (cp == '\\' || cp == '\'')
                    sg_buf_printf(b, "\\%c", (char)cp);
                else if (cp < 0x20 || cp == 0x7F)
                    sg_buf_printf(b, "\\u%04x", (unsigned)cp);
                else {
                    char u[4];
                    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                    if (n == 1)
                        u[0] = (char)cp;
                    else {
                        for (size_t x = n - 1; x > 0; x--, cp >>= 6)
                            u[x] = (char)(0x80 | (cp & 0x3F));
                        u[0] = (char)((n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0) | cp);
                    }
                    sg_buf_append(b, u, n);
                }
            }
            sg_buf_puts(b, "'");
            sep = ", ";
        }
        if (t->has_min) {
            sg_buf_printf(b, "%smin=%u", sep, t->min);
            sep = ", ";
        }
        if (t->has_max)
            sg_buf_printf(b, "%smax=%u", sep, t->max);
        sg_buf_puts(b, ")");
        return;
    }
    case SG_TY_BYTES:
        sg_buf_puts(b, "bytes");
        typelang__sizes_fmt(t, b);
        return;
    case SG_TY_LIST:
    case SG_TY_SET:
        sg_buf_puts(b, t->kind == SG_TY_LIST ? "list[" : "set[");
        sg_type_format(t->items[0], b);
        sg_buf_puts(b, "]");
        typelang__sizes_fmt(t, b);
        return;
    case SG_TY_DICT:
        sg_buf_puts(b, "dict[");
        sg_type_format(t->items[0], b);
        sg_buf_puts(b, ", ");
        sg_type_format(t->items[1], b);
        sg_buf_puts(b, "]");
        typelang__sizes_fmt(t, b);
        return;
    case SG_TY_TUPLE:
        if (t->n == 0) {
            sg_buf_puts(b, "tuple[()]");
            return;
        }
        sg_buf_puts(b, "tuple[");
        for (size_t k = 0; k < t->n; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            sg_type_format(t->items[k], b);
        }
        sg_buf_puts(b, t->variadic ? ", ...]" : "]");
        if (t->variadic)
            typelang__sizes_fmt(t, b);
        return;
    case SG_TY_UNION:
        for (size_t k = 0; k < t->n; k++) {
            if (k)
                sg_buf_puts(b, " | ");
            sg_type_format(t->items[k], b);
        }
        return;
    }
}
