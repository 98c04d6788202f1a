/*
 * Scopes and their binding tables: open addressing on the name (FNV-1a), one chain per name in
 * source order, capped so that a hostile file cannot make lookups quadratic. See resolve_int.h.
 */
#include "resolve_int.h"

#include <string.h>

static uint32_t scope__hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

sg_scope *sg_scope_new(sg_resolver *res, sg_scope *parent, bool is_class)
{
    sg_scope *s = sg_arena_alloc(res->arena, sizeof *s);
    if (!s) {
        sg_res_fail(res);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->parent = parent;
    s->is_class = is_class;
    if (sg_array_push(&res->scopes, s, 0)) {
        sg_res_fail(res);
        return NULL;
    }
    return s;
}

sg_binding *sg_scope_lookup(const sg_scope *s, const char *name, uint32_t n)
{
    if (!s->cap)
        return NULL;
    uint32_t i = scope__hash(name, n) & (s->cap - 1);
    for (;;) {
        sg_binding *b = s->slots[i];
        if (!b)
            return NULL;
        if (b->name_len == n && !memcmp(b->name, name, n))
            return b;
        i = (i + 1) & (s->cap - 1);
    }
}

static int scope__bind_raw(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, sg_binding_kind kind,
                           const char *qname, TSNode node, const char *src);

/* Bind in `s`, or where `global` / `nonlocal` in `s` sends the name. */
int sg_scope_bind(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, sg_binding_kind kind, const char *qname,
                     TSNode node, const char *src)
{
    if (kind != RES_GLOBAL && kind != RES_NONLOCAL) {
        sg_binding *d = sg_scope_lookup(s, name, n);
        if (d && d->kind == RES_GLOBAL) {
            while (s->parent)
                s = s->parent;
        } else if (d && d->kind == RES_NONLOCAL) {
            for (sg_scope *p = s->parent; p; p = p->parent)
                if (!p->is_class && sg_scope_lookup(p, name, n)) {
                    s = p;
                    break;
                }
        }
    }
    return scope__bind_raw(res, s, name, n, kind, qname, node, src);
}

#define SCOPE_MAX_CHAIN 4096
#define SCOPE_MAX_CHAIN_S "4096"

/* A literal with no names in it: what it is bound to does not depend on anything else. */
static bool scope__literal(TSNode v)
{
    const char *t = ts_node_type(v);
    if (!strcmp(t, "integer") || !strcmp(t, "float") || !strcmp(t, "true") || !strcmp(t, "false") ||
        !strcmp(t, "none"))
        return true;
    if (strcmp(t, "string"))
        return false;
    for (uint32_t i = 0; i < sg_node_nnamed(v); i++)
        if (!strcmp(ts_node_type(sg_node_named(v, i)), "interpolation"))
            return false;
    return true;
}

/* Does `b` mean the same as `last` (same kind, both made unconditionally or both not, and: opaque
 * locals, or the same literal text)? */
static bool scope__same_meaning(const sg_binding *last, const sg_binding *b)
{
    if (!last || last->kind != b->kind || last->definite != b->definite || last->src != b->src)
        return false;
    if (b->kind == RES_LOCAL)
        return true;
    if (b->kind != RES_ALIAS || !scope__literal(b->node) || !scope__literal(last->node))
        return false;
    uint32_t s1 = ts_node_start_byte(last->node), e1 = ts_node_end_byte(last->node);
    uint32_t s2 = ts_node_start_byte(b->node), e2 = ts_node_end_byte(b->node);
    return e1 - s1 == e2 - s2 && !memcmp(last->src + s1, b->src + s2, e1 - s1);
}

static int scope__bind_raw(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, sg_binding_kind kind,
                         const char *qname, TSNode node, const char *src)
{
    if (s->count * 2 >= s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 16;
        sg_binding **slots = sg_arena_alloc(res->arena, ncap * sizeof *slots);
        if (!slots) {
            sg_res_fail(res);
            return -1;
        }
        memset(slots, 0, ncap * sizeof *slots);
        for (uint32_t i = 0; i < s->cap; i++) {
            sg_binding *b = s->slots[i];
            if (!b)
                continue;
            uint32_t k = scope__hash(b->name, b->name_len) & (ncap - 1);
            while (slots[k])
                k = (k + 1) & (ncap - 1);
            slots[k] = b;
        }
        s->slots = slots;
        s->cap = ncap;
    }
    sg_binding *b = sg_arena_alloc(res->arena, sizeof *b);
    if (!b) {
        sg_res_fail(res);
        return -1;
    }
    *b = (sg_binding){.name = name, .name_len = n, .kind = kind, .qname = qname, .node = node, .src = src,
                        .scope = s, .seq = res->cur_seq, .pos = ts_node_start_byte(node), .definite = res->cond == 0};
    uint32_t i = scope__hash(name, n) & (s->cap - 1);
    while (s->slots[i]) {
        sg_binding *o = s->slots[i];
        if (o->name_len == n && !memcmp(o->name, name, n)) {
            /* A binding that means what the last one of the chain means adds nothing to a
             * flow-insensitive analysis (`x = 1` three hundred times; a loop variable bound
             * by many loops): it is not stored. */
            if (scope__same_meaning(o->tail, b))
                return 0;
            /* Keep the chain bounded (a hostile file rebinding one name 100k times with
             * different values); past the cap the analysis is incomplete, which blocks (SG002)
             * rather than guessing. Real code stays far below it (the CPython standard
             * library: at most a few dozen). */
            if (o->chain_len >= SCOPE_MAX_CHAIN) {
                sg_res_limit(res, res->cur_seq, ts_node_start_point(node),
                             "a name is bound more than " SCOPE_MAX_CHAIN_S " times with different values in one "
                             "scope (a fixed limit: no option raises it)");
                return 0;
            }
            /* append: the chain stays in source order */
            o->tail->next = b;
            o->tail = b;
            o->chain_len++;
            return 0;
        }
        i = (i + 1) & (s->cap - 1);
    }
    b->tail = b;
    b->chain_len = 1;
    s->slots[i] = b;
    s->count++;
    return 0;
}

/* The scope that owns `name` as seen from `scope` (Python's LEGB without class scopes of
 * enclosing functions), and the first binding there; NULL if unbound. */
sg_binding *sg_scope_find(sg_scope *scope, const char *name, uint32_t n, sg_scope **ret_scope)
{
    sg_scope *s = scope;
    bool first = true;
    int guard = 0;
    while (s && guard++ < 1000) {
        if (first || !s->is_class) {
            sg_binding *b = sg_scope_lookup(s, name, n);
            if (b) {
                if (b->kind == RES_GLOBAL) {
                    sg_scope *m = s;
                    while (m->parent)
                        m = m->parent;
                    *ret_scope = m;
                    return m == s ? NULL : sg_scope_lookup(m, name, n);
                }
                if (b->kind == RES_NONLOCAL) {
                    s = s->parent;
                    first = false;
                    continue;
                }
                *ret_scope = s;
                return b;
            }
        }
        first = false;
        s = s->parent;
    }
    return NULL;
}
