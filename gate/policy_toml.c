/*
 * `[tool.snipgate]` in pyproject.toml (policy_toml.h). The text is parsed by the TOML grammar
 * (tree-sitter-toml, from the npm registry like the Python grammar; Debian 12 packages no C TOML
 * library: docs/design.md). What the grammar leaves to its reader is done here: keys and tables
 * (headers, dotted keys, inline tables, arrays of tables) assembled by TOML 1.0's rules (a key
 * or a table defined twice is an error, an inline table is closed), strings decoded (escapes,
 * multi-line forms), integers read in their four bases. Only what can lead to `tool.snipgate` is
 * assembled and checked: the rest of the file belongs to other tools, and an error there is
 * theirs to report. The table then becomes a libyaml document (strings as quoted scalars,
 * numbers and booleans as plain ones), each node marked with its line and column in the file.
 * Memory: one arena per call.
 */
#include "gate/policy_toml.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_toml(void);

#define TOML_MAX_ENTRIES 10000 /* entries of one table or array in the snipgate subtree */
#define TOML_MAX_DEPTH 64      /* nesting of arrays and inline tables */

enum { TV_TABLE, TV_ARRAY, TV_SCALAR };
enum {
    TF_HEADER = 1u << 0,   /* defined by a [header] */
    TF_DOTTED = 1u << 1,   /* defined by a dotted key */
    TF_INLINE = 1u << 2,   /* an inline table or a static array: closed */
    TF_AOT = 1u << 3,      /* an array of tables ([[header]]) */
    TF_STRING = 1u << 4,   /* a scalar from a TOML string or date */
};

typedef struct tval tval;
struct tval {
    int kind;
    unsigned flags;
    uint32_t row, col;
    const char *text; /* scalar */
    size_t len;
    /* table: keys[i] -> vals[i]; array: vals[i] */
    const char **keys;
    uint32_t *krow, *kcol;
    tval **vals;
    size_t n, cap;
};

typedef struct toml__ctx {
    const char *path, *buf;
    sg_diag *diag;
    sg_arena *arena;
    tval *root;
} toml__ctx;

/* a key path: the decoded parts and the place of each */
typedef struct toml__keys {
    const char *part[TOML_MAX_DEPTH];
    uint32_t row[TOML_MAX_DEPTH], col[TOML_MAX_DEPTH];
    size_t n;
} toml__keys;

static const char *const toml__want[2] = {"tool", "snipgate"};

static sg_status toml__err(toml__ctx *c, TSPoint at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static sg_status toml__err(toml__ctx *c, TSPoint at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sg_diag_set(c->diag, SG_ERR_POLICY, c->path, (long)at.row + 1, (long)at.column + 1, -1, 0, "%s", msg);
}

static sg_status toml__nomem(toml__ctx *c)
{
    return sg_diag_set(c->diag, SG_ERR_NOMEM, c->path, 0, 0, -1, 0, "out of memory");
}

static tval *toml__new(toml__ctx *c, int kind, unsigned flags, TSPoint at)
{
    tval *v = sg_arena_alloc(c->arena, sizeof *v);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->flags = flags;
    v->row = at.row;
    v->col = at.column;
    return v;
}

/* Append an entry (key NULL in an array). */
static sg_status toml__add(toml__ctx *c, tval *t, const char *key, TSPoint kat, tval *v)
{
    if (t->n >= TOML_MAX_ENTRIES)
        return toml__err(c, kat, "more than %d entries in one table or array", TOML_MAX_ENTRIES);
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        const char **k = sg_arena_alloc(c->arena, cap * sizeof *k);
        uint32_t *kr = sg_arena_alloc(c->arena, cap * sizeof *kr);
        uint32_t *kc = sg_arena_alloc(c->arena, cap * sizeof *kc);
        tval **vs = sg_arena_alloc(c->arena, cap * sizeof *vs);
        if (!k || !kr || !kc || !vs)
            return toml__nomem(c);
        if (t->n) {
            memcpy(k, t->keys, t->n * sizeof *k);
            memcpy(kr, t->krow, t->n * sizeof *kr);
            memcpy(kc, t->kcol, t->n * sizeof *kc);
            memcpy(vs, t->vals, t->n * sizeof *vs);
        }
        t->keys = k;
        t->krow = kr;
        t->kcol = kc;
        t->vals = vs;
        t->cap = cap;
    }
    t->keys[t->n] = key;
    t->krow[t->n] = kat.row;
    t->kcol[t->n] = kat.column;
    t->vals[t->n] = v;
    t->n++;
    return SG_OK;
}

static tval *toml__get(const tval *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->keys[i], key))
            return t->vals[i];
    return NULL;
}

static size_t toml__utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static bool toml__blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* A string or quoted key's text (its quotes included), decoded into the arena. NULL with the error
 * in diag (SG_ERR_POLICY or SG_ERR_NOMEM: *st). */
static const char *toml__string(toml__ctx *c, TSNode node, size_t *ret_len, sg_status *st)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    const char *s = c->buf + a;
    size_t n = b - a;
    TSPoint at = ts_node_start_point(node);
    bool multi = n >= 6 && (!strncmp(s, "\"\"\"", 3) || !strncmp(s, "'''", 3));
    size_t q = multi ? 3 : 1;
    if (n < 2 * q || (s[0] != '"' && s[0] != '\'')) {
        *st = toml__err(c, at, "malformed string");
        return NULL;
    }
    bool literal = s[0] == '\'';
    const char *p = s + q, *end = s + n - q;
    if (multi) { /* a newline right after the opening delimiter is trimmed */
        if (p < end && *p == '\n')
            p++;
        else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
            p += 2;
    }
    char *out = sg_arena_alloc(c->arena, (size_t)(end - p) + 1);
    if (!out) {
        *st = toml__nomem(c);
        return NULL;
    }
    size_t o = 0;
    while (p < end) {
        char ch = *p;
        if (ch == 0) {
            *st = toml__err(c, at, "a NUL character in a string");
            return NULL;
        }
        if (literal || ch != '\\') {
            out[o++] = ch;
            p++;
            continue;
        }
        if (p + 1 >= end) {
            *st = toml__err(c, at, "a string ends in a backslash");
            return NULL;
        }
        char e = p[1];
        p += 2;
        switch (e) {
        case 'b': out[o++] = '\b'; break;
        case 't': out[o++] = '\t'; break;
        case 'n': out[o++] = '\n'; break;
        case 'f': out[o++] = '\f'; break;
        case 'r': out[o++] = '\r'; break;
        case 'e': out[o++] = '\x1b'; break;
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case 'x':
        case 'u':
        case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (int i = 0; i < digits; i++, p++) {
                int d = p < end ? (*p >= '0' && *p <= '9'   ? *p - '0'
                                   : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                                   : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
                                                            : -1)
                                : -1;
                if (d < 0) {
                    *st = toml__err(c, at, "\\%c needs %d hexadecimal digits", e, digits);
                    return NULL;
                }
                cp = cp * 16 + (uint32_t)d;
            }
            if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                *st = toml__err(c, at, cp ? "\\%c%X is not a Unicode scalar value" : "a NUL character in a string (\\%c%X)",
                                e, (unsigned)cp);
                return NULL;
            }
            /* (4 bytes of UTF-8 at most, from at least 4 bytes of escape) */
            o += toml__utf8(out + o, cp);
            break;
        }
        default:
            if (multi && (toml__blank(e) || e == '\n' || e == '\r')) {
                /* a line-ending backslash: the newline and the blanks after it are trimmed */
                const char *r = p - 1;
                while (r < end && toml__blank(*r))
                    r++;
                if (r < end && *r != '\n' && *r != '\r') {
                    *st = toml__err(c, at, "a backslash followed by blanks must end its line");
                    return NULL;
                }
                while (r < end && (toml__blank(*r) || *r == '\n' || *r == '\r'))
                    r++;
                p = r;
                break;
            }
            *st = toml__err(c, at, "unknown escape \\%c", e);
            return NULL;
        }
    }
    out[o] = 0;
    *ret_len = o;
    return out;
}

/* A key (bare, quoted or dotted) into `k`, appended. */
static sg_status toml__key(toml__ctx *c, TSNode node, toml__keys *k)
{
    const char *type = ts_node_type(node);
    if (!strcmp(type, "dotted_key")) {
        uint32_t n = ts_node_named_child_count(node); /* (two: a key, left-nested) */
        for (uint32_t i = 0; i < n; i++) {
            sg_status st = toml__key(c, ts_node_named_child(node, i), k);
            if (st)
                return st;
        }
        return SG_OK;
    }
    TSPoint at = ts_node_start_point(node);
    if (k->n >= TOML_MAX_DEPTH)
        return toml__err(c, at, "a key of more than %d parts", TOML_MAX_DEPTH);
    const char *part;
    if (!strcmp(type, "bare_key")) {
        uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
        if (!(part = sg_arena_strndup(c->arena, c->buf + a, b - a)))
            return toml__nomem(c);
    } else if (!strcmp(type, "quoted_key")) {
        size_t len = 0;
        sg_status st = SG_OK;
        if (!(part = toml__string(c, node, &len, &st)))
            return st;
    } else {
        return toml__err(c, at, "expected a key, found %s", type);
    }
    k->part[k->n] = part;
    k->row[k->n] = at.row;
    k->col[k->n] = at.column;
    k->n++;
    return SG_OK;
}

/* Can a path `base` + `k` (the first `nk` parts of k) lead into tool.snipgate, or lie inside it? */
static bool toml__relevant(const toml__keys *base, const toml__keys *k, size_t nk)
{
    size_t i = 0;
    for (size_t j = 0; j < base->n && i < 2; j++, i++)
        if (strcmp(base->part[j], toml__want[i]))
            return false;
    for (size_t j = 0; j < nk && i < 2; j++, i++)
        if (strcmp(k->part[j], toml__want[i]))
            return false;
    return true;
}

static sg_status toml__value(toml__ctx *c, TSNode node, unsigned depth, tval **ret);

/* key = value into table t (dotted keys make or enter their tables). */
static sg_status toml__pair(toml__ctx *c, tval *t, TSNode pair, const toml__keys *base, unsigned depth, bool filter)
{
    uint32_t nn = ts_node_named_child_count(pair);
    if (nn < 2)
        return toml__err(c, ts_node_start_point(pair), "a key without a value");
    toml__keys k = {.n = 0};
    sg_status st = toml__key(c, ts_node_named_child(pair, 0), &k);
    if (st)
        return st;
    if (filter && !toml__relevant(base, &k, k.n))
        return SG_OK; /* another tool's */
    for (size_t i = 0; i + 1 < k.n; i++) {
        TSPoint at = {k.row[i], k.col[i]};
        tval *sub = toml__get(t, k.part[i]);
        if (!sub) {
            if (!(sub = toml__new(c, TV_TABLE, TF_DOTTED, at)) || (st = toml__add(c, t, k.part[i], at, sub)))
                return st ? st : toml__nomem(c);
        } else if (sub->kind != TV_TABLE || (sub->flags & (TF_INLINE | TF_HEADER)) || !(sub->flags & TF_DOTTED)) {
            return toml__err(c, at, "'%s' is already defined (line %u), not as a table dotted keys may extend",
                             k.part[i], (unsigned)sub->row + 1);
        }
        t = sub;
    }
    TSPoint at = {k.row[k.n - 1], k.col[k.n - 1]};
    tval *old = toml__get(t, k.part[k.n - 1]);
    if (old)
        return toml__err(c, at, "'%s' is defined twice (first on line %u)", k.part[k.n - 1], (unsigned)old->row + 1);
    tval *v = NULL;
    if ((st = toml__value(c, ts_node_named_child(pair, nn - 1), depth, &v)))
        return st;
    v->row = at.row; /* (a value's place is its key's: messages point at the key) */
    v->col = at.column;
    return toml__add(c, t, k.part[k.n - 1], at, v);
}

static const char *toml__text(toml__ctx *c, TSNode node, size_t *len)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    *len = b - a;
    return c->buf + a;
}

/* An integer in any of TOML's forms, as decimal text. */
static sg_status toml__integer(toml__ctx *c, TSNode node, tval *v)
{
    size_t n = 0;
    const char *s = toml__text(c, node, &n);
    char digits[80];
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '_') {
            if (o + 1 >= sizeof digits)
                return toml__err(c, ts_node_start_point(node), "integer out of range");
            digits[o++] = s[i];
        }
    digits[o] = 0;
    const char *d = digits;
    bool neg = false;
    if (*d == '+' || *d == '-')
        neg = *d++ == '-';
    int base = 10;
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'o' || d[1] == 'b')) {
        base = d[1] == 'x' ? 16 : d[1] == 'o' ? 8 : 2;
        d += 2;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long u = strtoull(d, &end, base);
    if (!*d || *end || errno || u > (unsigned long long)INT64_MAX + (neg ? 1u : 0u))
        return toml__err(c, ts_node_start_point(node), "integer out of range or malformed: %.*s", (int)(n > 60 ? 60 : n), s);
    char *out = sg_arena_printf(c->arena, "%s%llu", neg && u ? "-" : "", u);
    if (!out)
        return toml__nomem(c);
    v->text = out;
    v->len = strlen(out);
    return SG_OK;
}

static sg_status toml__value(toml__ctx *c, TSNode node, unsigned depth, tval **ret)
{
    const char *type = ts_node_type(node);
    TSPoint at = ts_node_start_point(node);
    if (depth >= TOML_MAX_DEPTH)
        return toml__err(c, at, "arrays and tables nested more than %d deep", TOML_MAX_DEPTH);
    bool is_array = !strcmp(type, "array"), is_table = !strcmp(type, "inline_table");
    tval *v = toml__new(c, is_array ? TV_ARRAY : is_table ? TV_TABLE : TV_SCALAR, is_array || is_table ? TF_INLINE : 0, at);
    if (!v)
        return toml__nomem(c);
    sg_status st = SG_OK;
    if (is_array || is_table) {
        TSTreeCursor cur = ts_tree_cursor_new(node);
        toml__keys none = {.n = 0};
        for (bool ok = ts_tree_cursor_goto_first_child(&cur); ok && !st; ok = ts_tree_cursor_goto_next_sibling(&cur)) {
            TSNode ch = ts_tree_cursor_current_node(&cur);
            if (!ts_node_is_named(ch) || !strcmp(ts_node_type(ch), "comment"))
                continue;
            if (is_table) {
                st = toml__pair(c, v, ch, &none, depth + 1, false);
            } else {
                tval *item = NULL;
                if (!(st = toml__value(c, ch, depth + 1, &item)))
                    st = toml__add(c, v, NULL, ts_node_start_point(ch), item);
            }
        }
        ts_tree_cursor_delete(&cur);
    } else if (!strcmp(type, "string")) {
        v->flags |= TF_STRING;
        v->text = toml__string(c, node, &v->len, &st);
    } else if (!strcmp(type, "integer")) {
        st = toml__integer(c, node, v);
    } else if (!strcmp(type, "float")) {
        size_t n = 0;
        const char *s = toml__text(c, node, &n);
        char *out = sg_arena_alloc(c->arena, n + 1);
        if (!out)
            return toml__nomem(c);
        size_t o = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i] != '_')
                out[o++] = s[i];
        out[o] = 0;
        v->text = out;
        v->len = o;
    } else if (!strcmp(type, "boolean") || !strcmp(type, "offset_date_time") || !strcmp(type, "local_date_time") ||
               !strcmp(type, "local_date") || !strcmp(type, "local_time")) {
        if (strcmp(type, "boolean"))
            v->flags |= TF_STRING;
        size_t n = 0;
        const char *s = toml__text(c, node, &n);
        if (!(v->text = sg_arena_strndup(c->arena, s, n)))
            return toml__nomem(c);
        v->len = n;
    } else {
        return toml__err(c, at, "expected a value, found %s", type);
    }
    if (st)
        return st;
    if (!v->text && v->kind == TV_SCALAR)
        return toml__nomem(c);
    *ret = v;
    return SG_OK;
}

/* [header] or [[header]]: the table its pairs go into (NULL: not on the way to tool.snipgate). */
static sg_status toml__header(toml__ctx *c, TSNode node, bool aot, toml__keys *k, tval **ret)
{
    *ret = NULL;
    TSNode kn = ts_node_named_child(node, 0);
    sg_status st = toml__key(c, kn, k);
    if (st)
        return st;
    toml__keys none = {.n = 0};
    if (!toml__relevant(&none, k, k->n))
        return SG_OK;
    tval *t = c->root;
    for (size_t i = 0; i < k->n; i++) {
        TSPoint at = {k->row[i], k->col[i]};
        bool last = i + 1 == k->n;
        tval *sub = toml__get(t, k->part[i]);
        if (last && aot) {
            if (!sub) {
                if (!(sub = toml__new(c, TV_ARRAY, TF_AOT, at)) || (st = toml__add(c, t, k->part[i], at, sub)))
                    return st ? st : toml__nomem(c);
            } else if (sub->kind != TV_ARRAY || !(sub->flags & TF_AOT)) {
                return toml__err(c, at, "'%s' is already defined (line %u), not as an array of tables", k->part[i],
                                 (unsigned)sub->row + 1);
            }
            tval *elem = toml__new(c, TV_TABLE, TF_HEADER, at);
            if (!elem)
                return toml__nomem(c);
            if ((st = toml__add(c, sub, NULL, at, elem)))
                return st;
            *ret = elem;
            return SG_OK;
        }
        if (!sub) {
            if (!(sub = toml__new(c, TV_TABLE, last ? TF_HEADER : 0, at)) || (st = toml__add(c, t, k->part[i], at, sub)))
                return st ? st : toml__nomem(c);
        } else if (sub->kind == TV_ARRAY && (sub->flags & TF_AOT) && !last) {
            sub = sub->vals[sub->n - 1]; /* [[a]] then [a.b]: b goes into a's last table */
        } else if (sub->kind != TV_TABLE || (sub->flags & TF_INLINE)) {
            return toml__err(c, at, "'%s' is already defined (line %u) as a value, not a table", k->part[i],
                             (unsigned)sub->row + 1);
        } else if (last) {
            if (sub->flags & (TF_HEADER | TF_DOTTED)) {
                char name[300] = "";
                for (size_t j = 0; j < k->n; j++) {
                    if (j)
                        strncat(name, ".", sizeof name - strlen(name) - 1);
                    strncat(name, k->part[j], sizeof name - strlen(name) - 1);
                }
                return toml__err(c, at, "table [%s] is defined twice (first on line %u)", name, (unsigned)sub->row + 1);
            }
            sub->flags |= TF_HEADER;
            sub->row = at.row;
            sub->col = at.column;
        }
        t = sub;
    }
    *ret = t;
    return SG_OK;
}

/* The first error or missing node of a tree that has one. */
static TSNode toml__first_error(TSNode root)
{
    TSTreeCursor cur = ts_tree_cursor_new(root);
    TSNode found = root;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (ts_node_is_error(n) || ts_node_is_missing(n)) {
            found = n;
            break;
        }
        if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cur))
            continue;
        bool moved = false;
        while (!(moved = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur))
                break;
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&cur);
    return found;
}

/* The parse's budget in parser operations (tree-sitter reports every 100): 40 per byte and a
 * floor, far above what a valid file takes, far below what error recovery on a large garbage
 * file would (1 MB of unclosed headers once took 30 s of CPU). Deterministic: no clock. */
typedef struct toml__budget {
    uint64_t calls, max_calls;
    bool over;
    bool error;        /* the parse met a syntax error: stopped there */
    uint32_t error_at; /* the byte it had reached */
    bool stop_at_error;
} toml__budget;

typedef struct toml__text_in {
    const char *buf;
    uint32_t len;
} toml__text_in;

static const char *toml__read(void *payload, uint32_t at, TSPoint pos, uint32_t *n)
{
    (void)pos;
    const toml__text_in *ti = payload;
    *n = at < ti->len ? ti->len - at : 0;
    return ti->buf + (at < ti->len ? at : ti->len);
}

static bool toml__progress(TSParseState *state)
{
    toml__budget *b = state->payload;
    if (b->stop_at_error && state->has_error && !b->error) {
        /* A policy with a syntax error is refused whatever follows: stop at once, before error
         * recovery, whose cost grows with the square of a large garbage file's length. */
        b->error = true;
        b->error_at = state->current_byte_offset;
    }
    if (++b->calls > b->max_calls)
        b->over = true;
    return b->over || b->error; /* true: stop */
}

/* NULL: out of memory, *over when the budget ran out, or *error_at (>= 0) where a syntax error
 * stopped it. */
static TSTree *toml__parse(const char *buf, size_t len, bool stop_at_error, bool *over, long long *error_at)
{
    *over = false;
    *error_at = -1;
    TSParser *p = ts_parser_new();
    if (!p)
        return NULL;
    TSTree *tree = NULL;
    toml__budget b = {.max_calls = (40 * (uint64_t)len + 200000) / 100, .stop_at_error = stop_at_error};
    if (ts_parser_set_language(p, tree_sitter_toml()) && len <= UINT32_MAX) {
        toml__text_in ti = {buf, (uint32_t)len};
        TSParseOptions po = {.payload = &b, .progress_callback = toml__progress};
        tree = ts_parser_parse_with_options(
            p, NULL, (TSInput){.payload = &ti, .read = toml__read, .encoding = TSInputEncodingUTF8}, po);
    }
    ts_parser_delete(p);
    *over = b.over && !b.error;
    if (b.error)
        *error_at = b.error_at;
    if ((b.over || b.error) && tree) {
        ts_tree_delete(tree);
        tree = NULL;
    }
    return tree;
}

/* The document's tables and pairs on the way to tool.snipgate, into c->root. */
static sg_status toml__assemble(toml__ctx *c, TSNode root)
{
    sg_status st = SG_OK;
    toml__keys none = {.n = 0};
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (bool ok = ts_tree_cursor_goto_first_child(&cur); ok && !st; ok = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        const char *type = ts_node_type(n);
        if (!strcmp(type, "pair")) {
            st = toml__pair(c, c->root, n, &none, 0, true);
        } else if (!strcmp(type, "table") || !strcmp(type, "table_array_element")) {
            toml__keys k = {.n = 0};
            tval *t = NULL;
            if ((st = toml__header(c, n, type[5] == '_', &k, &t)) || !t)
                continue;
            TSTreeCursor pc = ts_tree_cursor_new(n);
            for (bool pk = ts_tree_cursor_goto_first_child(&pc); pk && !st; pk = ts_tree_cursor_goto_next_sibling(&pc)) {
                TSNode ch = ts_tree_cursor_current_node(&pc);
                if (!strcmp(ts_node_type(ch), "pair"))
                    st = toml__pair(c, t, ch, &k, 0, true);
            }
            ts_tree_cursor_delete(&pc);
        }
    }
    ts_tree_cursor_delete(&cur);
    return st;
}

/* tval -> libyaml node (its id; 0 when libyaml ran out of memory). */
static int toml__yaml(yaml_document_t *doc, const tval *v, unsigned depth)
{
    int id;
    if (v->kind == TV_SCALAR) {
        id = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)v->text, (int)v->len,
                                      v->flags & TF_STRING ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE);
    } else if (v->kind == TV_ARRAY) {
        id = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE);
        for (size_t i = 0; id && i < v->n; i++) {
            int item = toml__yaml(doc, v->vals[i], depth + 1);
            if (!item || !yaml_document_append_sequence_item(doc, id, item))
                id = 0;
        }
    } else {
        id = yaml_document_add_mapping(doc, NULL, YAML_BLOCK_MAPPING_STYLE);
        for (size_t i = 0; id && i < v->n; i++) {
            int key = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)v->keys[i], (int)strlen(v->keys[i]),
                                               YAML_DOUBLE_QUOTED_SCALAR_STYLE);
            if (key) {
                yaml_node_t *kn = yaml_document_get_node(doc, key);
                kn->start_mark.line = v->krow[i];
                kn->start_mark.column = v->kcol[i];
            }
            int val = key ? toml__yaml(doc, v->vals[i], depth + 1) : 0;
            if (!val || !yaml_document_append_mapping_pair(doc, id, key, val))
                id = 0;
        }
    }
    if (id) {
        yaml_node_t *n = yaml_document_get_node(doc, id);
        n->start_mark.line = v->row;
        n->start_mark.column = v->col;
    }
    return id;
}

sg_status sg_policy_toml_document(const char *path, const char *buf, size_t len, yaml_document_t *doc,
                                  bool *ret_found, sg_diag *diag)
{
    *ret_found = false;
    toml__ctx c = {.path = path, .buf = buf ? buf : "", .diag = diag};
    if (!(c.arena = sg_arena_new()))
        return toml__nomem(&c);
    sg_status st = SG_OK;
    bool over = false;
    long long error_at = -1;
    TSTree *tree = toml__parse(c.buf, len, true, &over, &error_at);
    if (!tree) {
        if (error_at >= 0) {
            /* Where: the first error of the text up to where the parser stopped (its parse is
             * the same as the whole file's up to there, and short of the garbage after it); else
             * the place the parser had reached. */
            long line = 1, col = 1;
            for (long long k = 0; k < error_at && (size_t)k < len; k++)
                if (c.buf[k] == '\n')
                    line++, col = 1;
                else
                    col++;
            bool o2 = false;
            long long e2 = -1;
            size_t plen = (size_t)error_at + 1 < len ? (size_t)error_at + 1 : len;
            TSTree *pre = toml__parse(c.buf, plen, false, &o2, &e2);
            if (pre && ts_node_has_error(ts_tree_root_node(pre))) {
                TSPoint at = ts_node_start_point(toml__first_error(ts_tree_root_node(pre)));
                line = (long)at.row + 1;
                col = (long)at.column + 1;
            }
            if (pre)
                ts_tree_delete(pre);
            st = sg_diag_set(diag, SG_ERR_POLICY, path, line, col, -1, 0, "TOML syntax error");
        } else {
            st = over ? sg_diag_set(diag, SG_ERR_POLICY, path, 0, 0, -1, 0,
                                    "TOML syntax error: the file could not be read within its parse budget "
                                    "(40 parser steps a byte)")
                      : toml__nomem(&c);
        }
        sg_arena_free(c.arena);
        return st;
    }
    TSNode root = ts_tree_root_node(tree);
    if (ts_node_has_error(root)) {
        TSNode e = toml__first_error(root);
        st = toml__err(&c, ts_node_start_point(e), "TOML syntax error%s", ts_node_is_missing(e) ? " (something missing)" : "");
    } else if (!(c.root = toml__new(&c, TV_TABLE, 0, ts_node_start_point(root)))) {
        st = toml__nomem(&c);
    } else {
        st = toml__assemble(&c, root);
    }
    tval *tool = st ? NULL : toml__get(c.root, "tool");
    tval *sg = tool && tool->kind == TV_TABLE ? toml__get(tool, "snipgate") : NULL;
    if (!st && sg) {
        if (sg->kind != TV_TABLE) {
            st = toml__err(&c, (TSPoint){sg->row, sg->col}, "tool.snipgate must be a table");
        } else if (!yaml_document_initialize(doc, NULL, NULL, NULL, 1, 1)) {
            st = toml__nomem(&c);
        } else if (!toml__yaml(doc, sg, 0)) {
            yaml_document_delete(doc);
            st = toml__nomem(&c);
        } else {
            *ret_found = true;
        }
    }
    ts_tree_delete(tree);
    sg_arena_free(c.arena);
    return st;
}

bool sg_policy_toml_has_table(const char *buf, size_t len)
{
    yaml_document_t doc;
    bool found = false;
    sg_status st = sg_policy_toml_document("pyproject.toml", buf, len, &doc, &found, NULL);
    if (st == SG_OK) {
        if (found)
            yaml_document_delete(&doc);
        return found;
    }
    /* it does not read as TOML (or not as snipgate expects): ours if it names us */
    return buf && memmem(buf, len, "snipgate", 8) != NULL;
}
