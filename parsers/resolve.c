/*
 * Name resolution for Python: the resolver's life cycle and what an expression stands for
 * (qualified names through imports, aliases, star imports, __import__/importlib, getattr with
 * constant names, sys.modules, builtins and __builtins__). See resolve.h for the model and
 * resolve_int.h for how the resolver is split into files. Every recursive evaluation carries a
 * depth and work budget, so hostile input cannot exhaust the stack or spin: past a budget an
 * expression simply resolves to nothing more.
 */
#include "pynames.h"
#include "resolve_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uninorm.h>

static bool res__alive(const sg_resolver *res, const char *q);
static void res__join_or_main(sg_res_cx *cx, sg_scope *scope, sg_cands *out, const char *base, const char *a,
                              size_t al, int depth);
static bool res__getter_call(sg_res_cx *cx, sg_scope *scope, TSNode inner, const char *getter, TSNode obj,
                             sg_cands *out, int depth);

/* ------------------------------------------------------------------------------------------ */
/* State shared by the resolver's files                                                       */

/* The analysis is incomplete: the caller blocks the snippet (SG002) at `where` in block `seq`. */
void sg_res_limit(sg_resolver *res, uint32_t seq, TSPoint where, const char *reason)
{
    if (res->across_nest) {
        /* following a value across a function boundary, which is best effort: cut short */
        res->truncated = true;
        return;
    }
    if (res->limit_hit)
        return;
    res->limit_hit = true;
    res->limit_block = seq;
    res->limit_where = where;
    res->limit_reason = reason;
}

bool sg_resolver_scan(sg_resolver *res, unsigned long visited, TSPoint where)
{
    res->scanned += visited;
    if (res->scanned < RES_SCAN_BUDGET)
        return true;
    sg_res_limit(res, res->cur_seq, where,
                 "the scans that follow mappings through their names passed their budget of 8,000,000 nodes");
    return false;
}

/* Record an allocation failure: the check in progress must end in an error, not a verdict. */
void sg_res_fail(sg_resolver *res)
{
    res->failed = true;
}

/* Release a scratch buffer, remembering whether it ran out of memory. */
void sg_res_buf_done(sg_resolver *res, sg_buf *b)
{
    if (b->failed)
        sg_res_fail(res);
    sg_buf_free(b);
}

/* An identifier's name as Python sees it: NFKC-normalised (fullwidth ｅval is eval). ASCII
 * names are returned in place; others are normalised into the arena. */
static const char *res__ident_text(sg_resolver *res, const char *t, size_t *len)
{
    size_t n = *len;
    bool ascii = true;
    for (size_t i = 0; i < n && ascii; i++)
        ascii = !((unsigned char)t[i] & 0x80);
    if (ascii || n > SG_MAX_QNAME)
        return t;
    /* NFKC expands a code point to at most 18: a name short enough fits in the stack buffer, and
     * then libunistring allocates nothing that could fail unnoticed (it would shrink a heap
     * result with a realloc whose failure it ignores). */
    uint8_t small[SG_MAX_QNAME * 18 + 1];
    size_t outlen = sizeof small;
    uint8_t *norm = u8_normalize(UNINORM_NFKC, (const uint8_t *)t, n, small, &outlen);
    if (!norm) {
        /* out of memory (the input is valid UTF-8): the name is unknown, not "not eval" */
        sg_res_fail(res);
        return t;
    }
    char *copy = sg_arena_strndup(res->arena, (const char *)norm, outlen);
    if (norm != small)
        free(norm);
    if (!copy) {
        sg_res_fail(res);
        return t;
    }
    *len = outlen;
    return copy;
}

const char *sg_res_ident(sg_res_cx *cx, TSNode n, size_t *len)
{
    const char *t = sg_node_text(cx->src, n, len);
    return res__ident_text(cx->res, t, len);
}

/* Normalise a dotted name: drop `__dict__`, restart at `__builtins__`, strip `sys.modules.` and
 * `builtins.`, apply module aliases (posix -> os). Returns an arena string or NULL. */
const char *sg_res_normalize(sg_resolver *res, const char *q, size_t n)
{
    char buf[SG_MAX_QNAME + 16];
    size_t out = 0;
    size_t i = 0;
    if (n > SG_MAX_QNAME)
        return NULL;
    while (i < n) {
        size_t j = i;
        while (j < n && q[j] != '.')
            j++;
        size_t cl = j - i;
        const char *comp = q + i;
        if ((cl == 8 && !memcmp(comp, "__dict__", 8)) || (cl == 8 && !memcmp(comp, "__call__", 8))) {
            /* a namespace's dict is the namespace; f.__call__ is f */
        } else if (cl == 12 && !memcmp(comp, "__builtins__", 12)) {
            memcpy(buf, "builtins", 8);
            out = 8;
        } else {
            if (out)
                buf[out++] = '.';
            memcpy(buf + out, comp, cl);
            out += cl;
        }
        i = j + 1;
    }
    buf[out] = 0;
    const char *s = buf;
    for (int guard = 0; guard < 4; guard++) {
        size_t skip = sg_pyname_namespace_prefix(s);
        if (!skip)
            break;
        s += skip;
    }
    s = sg_pyname_canonical(s);
    /* Module aliases (posix -> os) and re-exports (six.moves.urllib -> urllib, asyncio.subprocess ->
     * asyncio): the longest alias that is a whole-component prefix of the name. */
    const sg_name_alias *best = NULL;
    size_t best_len = 0, sl = strlen(s);
    for (size_t k = 0; k < res->names->naliases; k++) {
        const sg_name_alias *a = &res->names->aliases[k];
        size_t fl = strlen(a->from);
        if (fl > best_len && fl <= sl && !memcmp(a->from, s, fl) && (s[fl] == 0 || s[fl] == '.')) {
            best = a;
            best_len = fl;
        }
    }
    if (best)
        return sg_arena_printf(res->arena, "%s%s", best->to, s + best_len);
    return sg_arena_strdup(res->arena, s);
}

static void res__add(sg_resolver *res, sg_cands *out, const char *q)
{
    if (!q)
        return;
    for (int i = 0; i < out->n; i++)
        if (!strcmp(out->q[i], q))
            return;
    if (out->n >= SG_MAX_CANDS) {
        /* Dropping a candidate could drop the dangerous one (a name bound to eight os functions,
         * then to os.system): the analysis is incomplete, which blocks. Across a function
         * boundary (best effort: res__at_site) the rest is dropped instead. */
        if (!res->across_nest)
            sg_res_limit(res, res->query_seq, res->query_where,
                         "an expression may stand for more names than the analysis follows");
        return;
    }
    out->q[out->n++] = q;
}

/* An object made by calling `q` (a class or a function some rule is about) is written "()q": no rule
 * pattern matches it, and its attributes are q's ("()socket.socket" + "bind" is socket.socket.bind),
 * so a method called on a fresh object is judged by its own name. */
#define RES_INSTANCE "()"
#define RES_INSTANCE_LEN 2

static const char *res__strip_instance(const char *q)
{
    return strncmp(q, RES_INSTANCE, RES_INSTANCE_LEN) ? q : q + RES_INSTANCE_LEN;
}

static void res__add_join(sg_resolver *res, sg_cands *out, const char *base, const char *attr, size_t alen)
{
    base = res__strip_instance(base);
    /* Modules re-export the modules they import (shutil.os, subprocess.os): m.os is os too. */
    if (res->names->module_root(res->names->ctx, attr, alen))
        res__add(res, out, sg_res_normalize(res, attr, alen));
    if (!res__alive(res, base))
        return;
    size_t bl = strlen(base);
    if (bl + alen + 1 > SG_MAX_QNAME)
        return;
    char buf[SG_MAX_QNAME + 2];
    memcpy(buf, base, bl);
    buf[bl] = '.';
    memcpy(buf + bl + 1, attr, alen);
    buf[bl + 1 + alen] = 0;
    res__add(res, out, sg_res_normalize(res, buf, bl + 1 + alen));
}

/* ------------------------------------------------------------------------------------------ */
/* Resolution                                                                                   */

/* False when nothing derived from `q` (its attributes, items) can match a rule. */
static bool res__alive(const sg_resolver *res, const char *q)
{
    q = res__strip_instance(q);
    size_t n = strcspn(q, ".["); /* (an element of a container: "q[]") */
    return sg_pyname_special_root(q, n) || res->names->root_known(res->names->ctx, q, n) ||
           res->names->root_alias(res->names->ctx, q, n);
}

/* What an alias binding (`x = <expr>`) stands for, memoised: the value is resolved in the
 * binding's own block and scope, so it is the same for every use. Results cut short by a depth or
 * work limit are not memoised; a cycle (`a = b; b = a`) resolves to nothing. */
static void res__alias(sg_resolver *res, sg_binding *b, sg_cands *out, int depth)
{
    if (b->cached) {
        for (int i = 0; i < b->cache->n; i++)
            res__add(res, out, b->cache->q[i]);
        return;
    }
    if (b->busy) {
        /* a cycle (a, b = b, a): it adds no meaning the other bindings do not give */
        res->truncated = true;
        return;
    }
    if (depth >= RES_MAX_ALIAS_DEPTH) {
        res->truncated = true;
        /* A name rebound from itself (s = s.strip(); s = s.lower() ...) re-enters bindings that
         * the path above is exploring already. A chain of distinct names (a0 = eval; a1 = a0;
         * ... a20(x)) is cut before its end, which is unknown: that blocks. */
        bool reentry = false;
        for (unsigned i = 0; i <= res->alias_n && !reentry; i++) {
            const sg_binding *x = i < res->alias_n ? res->alias_path[i] : b;
            for (unsigned k = 0; k < i && !reentry; k++)
                reentry = res->alias_path[k]->scope == x->scope && res->alias_path[k]->name_len == x->name_len &&
                          !memcmp(res->alias_path[k]->name, x->name, x->name_len);
        }
        if (!reentry)
            sg_res_limit(res, res->query_seq, res->query_where, "aliases are chained deeper than the analysis follows");
        return;
    }
    b->busy = true;
    bool was_truncated = res->truncated;
    uint32_t seq = res->cur_seq;
    res->truncated = false;
    res->cur_seq = b->seq;
    sg_cands tmp = {0};
    sg_res_cx inner = {res, b->src};
    bool pushed = res->alias_n < sizeof res->alias_path / sizeof res->alias_path[0];
    if (pushed)
        res->alias_path[res->alias_n++] = b;
    sg_res_expr(&inner, b->scope, b->node, &tmp, depth + 1);
    if (pushed)
        res->alias_n--;
    res->cur_seq = seq;
    b->busy = false;
    if (!res->truncated && !res->across_nest && (b->cache = sg_arena_alloc(res->arena, sizeof *b->cache))) {
        *b->cache = tmp;
        b->cached = true;
    }
    res->truncated |= was_truncated;
    for (int i = 0; i < tmp.n; i++)
        res__add(res, out, tmp.q[i]);
}

/* Names a use may stand for when no binding of its scope precedes it: a builtin, or a name
 * from `from m import *` that a rule knows. */
static void res__unbound(sg_res_cx *cx, sg_scope *scope, const char *name, size_t n, sg_cands *out)
{
    sg_resolver *res = cx->res;
    for (sg_scope *s = scope; s; s = s->parent)
        for (size_t i = 0; i < s->stars.len; i++) {
            char buf[SG_MAX_QNAME + 2];
            int k = snprintf(buf, sizeof buf, "%s.%.*s", s->stars.items[i], (int)n, name);
            if (k > 0 && (size_t)k < sizeof buf) {
                const char *q = sg_res_normalize(res, buf, (size_t)k);
                if (q && res->names->knows(res->names->ctx, q))
                    res__add(res, out, q);
            }
        }
    char bare[32]; /* (a builtin factory of a known class: IPython's get_ipython) */
    bool factory = n < sizeof bare && (memcpy(bare, name, n), bare[n] = 0, sg_pyname_factory(bare) != NULL);
    if (sg_pyname_special_root(name, n) || res->names->root_known(res->names->ctx, name, n) ||
        res->names->root_alias(res->names->ctx, name, n) || factory)
        res__add(res, out, sg_res_normalize(res, name, n));
}

static void res__chain(sg_res_cx *cx, sg_scope *scope, sg_binding *b, sg_cands *out, int depth);
static TSNode res__arg(sg_res_cx *cx, TSNode args, int pos, const char *kw);

#define RES_MAX_SITES 64 /* calls of one function, or stores of one attribute name, followed */

#define RES_ACROSS_BUDGET 1024 /* steps for one question's following across boundaries */
#define RES_ACROSS_NEST 1        /* boundaries crossed within one question */

/* Resolve `n` as it stands at a site (its scope, block and text), across a function boundary:
 * with a budget of its own taken from the question's, candidates past the cap dropped rather than
 * reported as a limit (resolve_int.h, across_nest). */
static void res__at_site(sg_resolver *res, const sg_res_site *site, TSNode n, sg_cands *out, int depth)
{
    if (ts_node_is_null(n))
        return;
    /* one boundary, by design (the same answer for every question: memoisable); a budget that
     * ran out cuts the answer short (nothing above it is memoised) */
    if (res->across_nest >= RES_ACROSS_NEST)
        return;
    if (res->budget <= 0) {
        res->truncated = true;
        return;
    }
    uint32_t seq = res->cur_seq;
    int saved = res->budget;
    int mine = saved < RES_ACROSS_BUDGET ? saved : RES_ACROSS_BUDGET;
    res->budget = mine;
    bool was_truncated = res->truncated;
    res->cur_seq = site->seq;
    res->across_nest++;
    sg_res_cx inner = {res, site->src};
    sg_res_expr(&inner, site->scope, n, out, depth + 1);
    res->across_nest--;
    res->cur_seq = seq;
    int used = mine - (res->budget > 0 ? res->budget : 0);
    res->budget = saved - used;
    res->truncated |= was_truncated;
}

#define RES_ACROSS_KEEP 8 /* candidates one boundary crossing adds at most */

/* Merge what was found across a boundary: only names a rule matches (what makes a call or a
 * value dangerous: subprocess.call, os.system), at most RES_ACROSS_KEEP; a helper that receives
 * forty different os.path functions, a module or a file object adds nothing. */
static void res__across_merge(sg_resolver *res, const sg_cands *tmp, sg_cands *out)
{
    int kept = 0;
    for (int i = 0; i < tmp->n; i++) {
        const char *q = tmp->q[i];
        /* an object (a call's result, "()q") is left out: its methods and their results would
         * multiply through every rebinding of a name that holds it */
        if (res__strip_instance(q) != q || !res->names->knows(res->names->ctx, q))
            continue;
        if (kept++ >= RES_ACROSS_KEEP) {
            res->truncated = true;
            return;
        }
        if (out->n < SG_MAX_CANDS)
            res__add(res, out, q);
    }
}

/* The end of a crossing for binding b (a parameter or a def): merge what was found (acc), memoise
 * it unless a limit cut it short (the same for every use: flow-insensitive), and add it to out.
 * was_truncated: the question's state before the crossing. */
static void res__across_done(sg_resolver *res, sg_binding *b, const sg_cands *acc, bool was_truncated, sg_cands *out)
{
    sg_cands kept = {0};
    res__across_merge(res, acc, &kept);
    if (!res->truncated && !res->across_nest && (b->cache = sg_arena_alloc(res->arena, sizeof *b->cache))) {
        *b->cache = kept;
        b->cached = true;
    }
    res->truncated |= was_truncated;
    for (int i = 0; i < kept.n; i++)
        res__add(res, out, kept.q[i]);
}

/* A parameter: its default, and the argument given for it at every call of its function found in
 * the document (by name: `f(...)` for a function; `obj.m(...)` for a method m, and `Cls(...)` or
 * `super().__init__(...)` for __init__, whose first parameter is the object). Flow-insensitive:
 * a helper called with subprocess.call at one site runs it as far as the gate knows. */
static void res__param(sg_resolver *res, sg_binding *b, sg_cands *out, int depth)
{
    const sg_res_func *f = b->func;
    /* a parameter the function rebinds (x = x.__func__; path = os.fspath(path)) is normalised
     * there: followed across, each rebinding would multiply what it may be */
    if (b->cached) {
        for (int i = 0; i < b->cache->n; i++)
            res__add(res, out, b->cache->q[i]);
        return;
    }
    if (b->busy || depth >= RES_MAX_ALIAS_DEPTH || b->next)
        return;
    b->busy = true;
    bool was_truncated = res->truncated;
    res->truncated = false;
    sg_cands acc = {0}; /* everything found across, merged once (res__across_merge) */
    if (!ts_node_is_null(b->node)) {
        sg_res_site def = {.scope = b->inner, .src = b->src, .seq = b->seq};
        res__at_site(res, &def, b->node, &acc, depth);
    }
    bool method = f->cls != NULL;
    if (f->name && b->name_len < 128 && !(method && b->param_index == 0)) {
        char kw[128];
        memcpy(kw, b->name, b->name_len);
        kw[b->name_len] = 0;
        bool init = method && f->name_len == 8 && !memcmp(f->name, "__init__", 8);
        int followed = 0;
        for (int pass = 0; pass < (init ? 2 : 1); pass++) {
            const char *name = pass ? f->cls : f->name;
            uint32_t len = pass ? f->cls_len : f->name_len;
            if (!name)
                continue;
            for (const sg_res_site *c = res->calls[sg_res_site_bucket(name, len)]; c && followed < RES_MAX_SITES;
                 c = c->next) {
                /* a method through an attribute (or its class for __init__); a function by name */
                bool want_attr = method && !pass;
                if (c->len != len || memcmp(c->name, name, len) || c->attr != want_attr)
                    continue;
                followed++;
                int pos = b->param_index < 0 ? -1 : b->param_index - (method ? 1 : 0);
                sg_res_cx at = {res, c->src};
                res__at_site(res, c, res__arg(&at, c->args, pos, kw), &acc, depth);
            }
        }
    }
    b->busy = false;
    res__across_done(res, b, &acc, was_truncated, out);
}

/* `self.name` in a method: every value a method of the document stores there. */
static bool res__self_attr(sg_res_cx *cx, sg_scope *scope, TSNode obj, const char *a, size_t al, sg_cands *out,
                           int depth)
{
    sg_resolver *res = cx->res;
    if (!sg_node_is(obj, res->sy->identifier) || !a)
        return false;
    size_t n;
    const char *t = sg_res_ident(cx, obj, &n);
    sg_scope *owner = NULL;
    sg_binding *b = t ? sg_scope_find(scope, t, (uint32_t)n, &owner) : NULL;
    if (!b || b->kind != RES_PARAM || b->param_index != 0 || !b->func || !b->func->cls)
        return false;
    int followed = 0;
    sg_cands acc = {0};
    for (const sg_res_site *c = res->stores[sg_res_site_bucket(a, (uint32_t)al)]; c && followed < RES_MAX_SITES;
         c = c->next) {
        if (c->len != al || memcmp(c->name, a, al))
            continue;
        followed++;
        res__at_site(res, c, c->args, &acc, depth);
    }
    res__across_merge(res, &acc, out);
    return followed > 0;
}

/* A call of a `def` of the document: what its return statements give. */
static void res__returns(sg_res_cx *cx, sg_scope *scope, TSNode fn, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    if (!sg_node_is(fn, res->sy->identifier) || depth >= RES_MAX_ALIAS_DEPTH)
        return;
    size_t n;
    const char *t = sg_res_ident(cx, fn, &n);
    sg_scope *owner = NULL;
    sg_binding *b = t ? sg_scope_find(scope, t, (uint32_t)n, &owner) : NULL;
    for (; b; b = b->next) {
        if (b->kind != RES_FUNC || !b->func || b->busy)
            continue;
        if (b->cached) {
            for (int i = 0; i < b->cache->n; i++)
                res__add(res, out, b->cache->q[i]);
            continue;
        }
        b->busy = true;
        bool was_truncated = res->truncated;
        res->truncated = false;
        int followed = 0;
        sg_cands acc = {0};
        for (const sg_res_ret *r = b->func->returns; r && followed < RES_MAX_SITES; r = r->next, followed++) {
            sg_res_site at = {.scope = r->scope, .src = r->src, .seq = r->seq};
            res__at_site(res, &at, r->value, &acc, depth);
        }
        b->busy = false;
        res__across_done(res, b, &acc, was_truncated, out);
    }
}

static void res__name(sg_res_cx *cx, sg_scope *scope, TSNode use, const char *name, size_t n, sg_cands *out,
                      int depth)
{
    sg_resolver *res = cx->res;
    if (n == 12 && !memcmp(name, "__builtins__", 12)) {
        res__add(res, out, "builtins");
        return;
    }
    sg_scope *owner = NULL;
    sg_binding *b = sg_scope_find(scope, name, (uint32_t)n, &owner);
    if (!b) {
        res__unbound(cx, scope, name, n, out);
        return;
    }
    /* A name bound at module or class level still has its builtin or star-imported meaning for a
     * use that no unconditional binding precedes (`eval(x)` then `eval = print`; `if 0: eval = f`;
     * a function body calling it before the module rebinds it), and after `del name`. In a
     * function's own scope such a use would be an error instead. */
    if (owner && (owner->is_class || !owner->parent)) {
        bool preceded = false, deleted = false;
        uint32_t pos = ts_node_start_byte(use);
        for (sg_binding *c = b; c; c = c->next) {
            if (c->kind == RES_DEL)
                deleted = true;
            else if (c->definite && (c->seq < res->cur_seq || (c->seq == res->cur_seq && c->pos < pos)))
                preceded = true;
        }
        if (!preceded || deleted)
            res__unbound(cx, scope, name, n, out);
    }
    /* A use inside one of the chain's own bindings (`t = t.replace(...)` seven times): what the
     * chain stands for so far, instead of exploring every other binding again (which grows as
     * the factorial of the chain's length). The result is partial: nothing is memoised from it. */
    for (unsigned i = 0; i < res->chains_n; i++)
        if (res->chains[i].head == b) {
            res->truncated = true;
            for (int k = 0; k < res->chains[i].acc->n; k++)
                res__add(res, out, res->chains[i].acc->q[k]);
            return;
        }
    if (!b->next || res->chains_n >= sizeof res->chains / sizeof res->chains[0]) {
        res__chain(cx, scope, b, out, depth);
        return;
    }
    /* the least fixed point of the chain, a few rounds deep (s = s.system; s = os: two) */
    sg_cands acc = {0};
    res->chains[res->chains_n].head = b;
    res->chains[res->chains_n].acc = &acc;
    res->chains_n++;
    for (int round = 0; round < 2; round++) {
        int before = acc.n;
        res__chain(cx, scope, b, &acc, depth);
        if (acc.n == before || res->budget < 0)
            break;
    }
    res->chains_n--;
    for (int k = 0; k < acc.n; k++)
        res__add(res, out, acc.q[k]);
}

/* Every binding of a chain, into `out`. */
static void res__chain(sg_res_cx *cx, sg_scope *scope, sg_binding *b, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    for (; b; b = b->next) {
        if (--res->budget < 0)
            return;
        if (b->kind == RES_IMPORT) {
            res__add(res, out, b->qname);
        } else if (b->kind == RES_ALIAS) {
            res__alias(res, b, out, depth);
        } else if (b->kind == RES_PARAM && b->func) {
            res__param(res, b, out, depth);
        } else if (b->kind == RES_CLASS && b->inner && depth < RES_MAX_ALIAS_DEPTH && !b->busy &&
                   !sg_scope_lookup(b->inner, "__init__", 8) && !sg_scope_lookup(b->inner, "__new__", 7)) {
            /* A class of the snippet that keeps its bases' constructor stands for them: calling
             * it is calling the base with the same arguments (`class S(HTTPServer): pass` then
             * `S(("0.0.0.0", 80), H)`), and its methods not defined in its body are theirs. */
            TSNode def = ts_node_parent(b->node);
            TSNode sup = ts_node_is_null(def) ? def : sg_node_field(def, res->sy->f_superclasses);
            if (!ts_node_is_null(sup)) {
                sg_res_cx inner = {res, b->src};
                uint32_t seq = res->cur_seq;
                res->cur_seq = b->seq;
                b->busy = true;
                uint32_t nb = sg_node_nnamed(sup);
                for (uint32_t i = 0; i < nb && i < 16; i++) {
                    TSNode base = sg_node_named(sup, i);
                    if (!sg_node_is(base, res->sy->keyword_argument)) /* (metaclass=...) */
                        sg_res_expr(&inner, b->scope, base, out, depth + 1);
                }
                b->busy = false;
                res->cur_seq = seq;
            }
        } else if (b->kind == RES_MEMBER && depth < RES_MAX_ALIAS_DEPTH && !b->busy) {
            /* `case object(system=f)` / `case {"system": f}` matched against a subject: f is
             * subject.system (the member path is dotted for nested patterns) */
            sg_cands base = {0};
            sg_res_cx inner = {res, b->src};
            uint32_t seq = res->cur_seq;
            res->cur_seq = b->seq;
            b->busy = true;
            sg_res_expr(&inner, b->scope, b->node, &base, depth + 1);
            b->busy = false;
            res->cur_seq = seq;
            /* one member at a time, so that m.path.os is os again */
            for (const char *m = b->qname; *m && base.n;) {
                size_t ml = strcspn(m, ".");
                sg_cands next = {0};
                for (int i = 0; i < base.n; i++)
                    res__join_or_main(cx, scope, &next, base.q[i], m, ml, depth + 1);
                base = next;
                m += ml;
                if (*m == '.')
                    m++;
            }
            for (int i = 0; i < base.n; i++)
                res__add(res, out, base.q[i]);
        }
    }
}

/* Module named by a constant string argument of __import__ / import_module. */
static void res__import_call(sg_res_cx *cx, sg_scope *scope, TSNode args, sg_pyname_import kind, sg_cands *out)
{
    bool top_only = kind == SG_PYNAME_IMPORT_TOP;
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    uint32_t nargs = sg_node_nnamed(args);
    TSNode first = {0};
    bool has_fromlist = false;
    int pos = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        TSNode a = sg_node_named(args, i);
        if (sg_node_is(a, sy->keyword_argument)) {
            size_t kl;
            const char *k = sg_node_text(cx->src, sg_node_field(a, sy->f_name), &kl);
            if (kl == 4 && !memcmp(k, "name", 4))
                first = sg_node_field(a, sy->f_value);
            if (kl == 8 && !memcmp(k, "fromlist", 8))
                has_fromlist = sg_literal_truthy(res, scope, sg_node_field(a, sy->f_value)) != 0;
            continue;
        }
        if (pos == 0)
            first = a;
        if (pos == 3)
            has_fromlist = sg_literal_truthy(res, scope, a) != 0;
        pos++;
    }
    if (ts_node_is_null(first))
        return;
    sg_buf b;
    sg_buf_init(&b, SG_MAX_QNAME);
    int saved = res->budget;
    if (sg_const_eval(cx, scope, first, &b, 0) && b.len && !b.truncated) {
        size_t len = b.len;
        if (top_only && !has_fromlist)
            len = strcspn(b.data, ".");
        if (kind == SG_PYNAME_IMPORT_RESOLVE)
            for (size_t i = 0; i < len; i++)
                if (b.data[i] == ':')
                    b.data[i] = '.'; /* "os:system" names os.system */
        res__add(res, out, sg_res_normalize(res, b.data, len));
    }
    res->budget = saved - 1;
    sg_res_buf_done(res, &b);
}

/* `inner` is a call to `getter` (operator.attrgetter / methodcaller) with a constant name: then
 * add obj.<name> for every candidate of `obj`. Returns true if the shape matched. */
static bool res__getter_call(sg_res_cx *cx, sg_scope *scope, TSNode inner, const char *getter, TSNode obj,
                             sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode iargs = sg_node_field(inner, sy->f_arguments);
    if (!sg_node_is(iargs, sy->argument_list) || sg_node_nnamed(iargs) < 1)
        return false;
    sg_cands g = {0};
    sg_res_expr(cx, scope, sg_node_field(inner, sy->f_function), &g, depth + 1);
    bool is_getter = false;
    for (int i = 0; i < g.n; i++)
        is_getter |= !strcmp(g.q[i], getter);
    if (!is_getter)
        return false;
    sg_buf b;
    sg_buf_init(&b, SG_MAX_QNAME);
    if (sg_const_eval(cx, scope, sg_node_named(iargs, 0), &b, 0) && b.len && !b.truncated) {
        sg_cands base = {0};
        sg_res_expr(cx, scope, obj, &base, depth + 1);
        for (int i = 0; i < base.n; i++)
            res__add_join(res, out, base.q[i], b.data, b.len);
    }
    sg_res_buf_done(res, &b);
    return true;
}

/* The argument at `pos` (-1: none) or named `kw` (NULL: none) of an argument list; null if absent. */
static TSNode res__arg(sg_res_cx *cx, TSNode args, int pos, const char *kw)
{
    const sg_syms *sy = cx->res->sy;
    sg_children it;
    TSNode c, found = {0};
    int p = 0;
    size_t kwl = kw ? strlen(kw) : 0;
    sg_children_init(&it, args);
    while (sg_children_next(&it, &c)) {
        TSSymbol s = ts_node_symbol(c);
        if (s == sy->keyword_argument) {
            size_t kl;
            const char *k = sg_node_text(cx->src, sg_node_field(c, sy->f_name), &kl);
            if (kw && kl == kwl && !memcmp(k, kw, kl)) {
                found = sg_node_field(c, sy->f_value);
                break;
            }
        } else if (s == sy->list_splat || s == sy->dictionary_splat) {
            if (s == sy->list_splat)
                p = INT32_MIN / 2; /* later positions are unknown */
        } else if (s != sy->comment) {
            if (p == pos)
                found = c;
            p++;
        }
    }
    sg_children_end(&it);
    return found;
}

/* functools.reduce(getattr, ["path", "os", "system"], obj): obj.path.os.system. */
static void res__reduce(sg_res_cx *cx, sg_scope *scope, TSNode args, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    sg_cands g = {0};
    sg_res_expr(cx, scope, sg_node_named(args, 0), &g, depth + 1);
    bool getter = false;
    for (int i = 0; i < g.n; i++)
        getter |= sg_pyname_getter_arg(g.q[i]) == 1;
    TSNode seq = sg_node_unparen(sg_node_named(args, 1));
    if (!getter || !(sg_node_is(seq, sy->list) || sg_node_is(seq, sy->tuple)))
        return;
    sg_cands cur = {0};
    sg_res_expr(cx, scope, sg_node_named(args, 2), &cur, depth + 1);
    uint32_t k = sg_node_nnamed(seq);
    for (uint32_t i = 0; i < k && cur.n; i++) {
        sg_buf b;
        sg_buf_init(&b, SG_MAX_QNAME);
        sg_cands next = {0};
        if (sg_const_eval(cx, scope, sg_node_named(seq, i), &b, 0) && b.len && !b.truncated)
            for (int c = 0; c < cur.n; c++)
                res__join_or_main(cx, scope, &next, cur.q[c], b.data, b.len, depth + 1);
        sg_res_buf_done(res, &b);
        cur = next;
    }
    for (int c = 0; c < cur.n; c++)
        res__add(res, out, cur.q[c]);
}

static void res__call(sg_res_cx *cx, sg_scope *scope, TSNode call, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode fn = sg_node_field(call, sy->f_function);
    TSNode args = sg_node_field(call, sy->f_arguments);
    if (!sg_node_is(args, sy->argument_list))
        return;
    uint32_t nargs = sg_node_nnamed(args);
    /* operator.attrgetter("name")(obj) is obj.name */
    TSNode inner = sg_node_unparen(fn);
    if (sg_node_is(inner, sy->call) && nargs >= 1 && res__getter_call(cx, scope, inner, "operator.attrgetter",
                                                                    sg_node_named(args, 0), out, depth))
        return;
    sg_cands f = {0};
    sg_res_expr(cx, scope, fn, &f, depth + 1);
    /* a def of the document: what it returns */
    res__returns(cx, scope, inner, out, depth);
    for (int i = 0; i < f.n; i++) {
        const char *q = f.q[i];
        sg_pyname_import imp = sg_pyname_importer(q);
        int getter = sg_pyname_getter_arg(q);
        bool returns_callable = false;
        const sg_pyname_forward *fw = sg_pyname_forwarder(q, &returns_callable);
        if (imp != SG_PYNAME_IMPORT_NONE) {
            res__import_call(cx, scope, args, imp, out);
        } else if (!strcmp(q, "importlib.reload")) {
            if (nargs >= 1)
                sg_res_expr(cx, scope, sg_node_named(args, 0), out, depth + 1);
        } else if (getter >= 1) {
            /* getattr(o, "n"), inspect.getattr_static(o, "n"), object.__getattribute__(o, "n") */
            if (nargs <= (uint32_t)getter)
                continue;
            sg_cands base = {0};
            sg_res_expr(cx, scope, sg_node_named(args, 0), &base, depth + 1);
            if (!base.n)
                continue;
            sg_buf b;
            sg_buf_init(&b, SG_MAX_QNAME);
            if (sg_const_eval(cx, scope, sg_node_named(args, (uint32_t)getter), &b, 0) && b.len && !b.truncated)
                for (int k = 0; k < base.n; k++)
                    res__add_join(res, out, base.q[k], b.data, b.len);
            sg_res_buf_done(res, &b);
        } else if (sg_pyname_is_reduce(q) && nargs >= 3) {
            res__reduce(cx, scope, args, out, depth);
        } else if (fw && returns_callable) {
            /* functools.partial(f, ...) and atexit.register(f, ...) stand for f */
            TSNode target = res__arg(cx, args, fw->pos, fw->kw);
            if (!ts_node_is_null(target))
                sg_res_expr(cx, scope, target, out, depth + 1);
        } else if (!strcmp(q, "globals") && nargs == 0) {
            res__add(res, out, "__main__");
        } else if ((!strcmp(q, "locals") || !strcmp(q, "vars")) && nargs == 0) {
            /* the module's namespace only at module level; in a function, a fresh dict of locals */
            if (!scope || !scope->parent)
                res__add(res, out, "__main__");
        } else if (!strcmp(q, "vars") && nargs == 1) {
            sg_res_expr(cx, scope, sg_node_named(args, 0), out, depth + 1);
        } else if (strcmp(q, "__main__") && (res__alive(res, q) || sg_pyname_factory(res__strip_instance(q)))) {
            /* an object made by a class or function some rule is about */
            char buf[SG_MAX_QNAME + RES_INSTANCE_LEN + 1];
            const char *self = sg_pyname_returns_self(res__strip_instance(q));
            if (!self)
                self = sg_pyname_factory(res__strip_instance(q));
            const char *bare = self ? self : res__strip_instance(q);
            size_t bl = strlen(bare);
            if (bl <= SG_MAX_QNAME) {
                memcpy(buf, RES_INSTANCE, RES_INSTANCE_LEN);
                memcpy(buf + RES_INSTANCE_LEN, bare, bl + 1);
                res__add(res, out, sg_arena_strndup(res->arena, buf, bl + RES_INSTANCE_LEN));
            }
        }
    }
    /* <resolved>.get("name"), <resolved>.__getattribute__("name"), <resolved>.pop("name") */
    if (sg_node_is(fn, sy->attribute) && nargs >= 1) {
        size_t al;
        const char *a = sg_node_text(cx->src, sg_node_field(fn, sy->f_attribute), &al);
        if ((al == 3 && !memcmp(a, "get", 3)) || (al == 16 && !memcmp(a, "__getattribute__", 16)) ||
            (al == 11 && !memcmp(a, "__getattr__", 11)) || (al == 11 && !memcmp(a, "__getitem__", 11))) {
            sg_cands base = {0};
            sg_res_expr(cx, scope, sg_node_field(fn, sy->f_object), &base, depth + 1);
            if (base.n) {
                sg_buf b;
                sg_buf_init(&b, SG_MAX_QNAME);
                if (sg_const_eval(cx, scope, sg_node_named(args, 0), &b, 0) && b.len && !b.truncated)
                    for (int k = 0; k < base.n; k++)
                        res__add_join(res, out, base.q[k], b.data, b.len);
                sg_res_buf_done(res, &b);
            }
        }
    }
}

/* `globals()["x"]` / `sys.modules["__main__"].x`: the module-level name x. Else base.attr. */
static void res__join_or_main(sg_res_cx *cx, sg_scope *scope, sg_cands *out, const char *base, const char *a,
                              size_t al, int depth)
{
    if (!strcmp(base, "__main__") && !(al == 12 && !memcmp(a, "__builtins__", 12)) && depth < RES_MAX_ALIAS_DEPTH) {
        sg_scope *m = scope;
        while (m && m->parent)
            m = m->parent;
        TSNode none = {0};
        res__name(cx, m, none, a, al, out, depth + 1);
        return;
    }
    res__add_join(cx->res, out, base, a, al);
}

/* `A.attr` where A is a class of the snippet: what the class body binds attr to. */
static bool res__class_attr(sg_res_cx *cx, sg_scope *scope, TSNode obj, const char *a, size_t al, sg_cands *out,
                            int depth)
{
    sg_resolver *res = cx->res;
    if (!sg_node_is(obj, res->sy->identifier) || depth >= RES_MAX_ALIAS_DEPTH)
        return false;
    size_t n;
    const char *name = sg_res_ident(cx, obj, &n);
    sg_scope *owner;
    sg_binding *b = sg_scope_find(scope, name, (uint32_t)n, &owner);
    bool found = false;
    for (; b; b = b->next)
        if (b->kind == RES_CLASS && b->inner) {
            sg_binding *ab = sg_scope_lookup(b->inner, a, (uint32_t)al);
            for (; ab; ab = ab->next)
                if (ab->kind == RES_IMPORT) {
                    res__add(res, out, ab->qname);
                    found = true;
                } else if (ab->kind == RES_ALIAS) {
                    res__alias(res, ab, out, depth + 1);
                    found = true;
                }
        }
    return found;
}

/* The elements of a container literal (a dict's values), marked "q[]". One pass over its
 * children (a tree cursor: linear in its size); literals are skipped and nested containers
 * entered without charging the question's step budget, so a data table of 40,000 rows is no
 * work for the budget; every other element is resolved (and charged) as an expression. */
static void res__container(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth, int nest)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (nest > 32)
        return;
    TSTreeCursor c = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&c); more && out->n < SG_MAX_CANDS && !res->truncated;
         more = ts_tree_cursor_goto_next_sibling(&c)) {
        TSNode e = ts_tree_cursor_current_node(&c);
        if (!ts_node_is_named(e))
            continue;
        if (sg_node_is(e, sy->pair))
            e = sg_node_field(e, sy->f_value);
        e = sg_node_unparen(e);
        TSSymbol s = ts_node_symbol(e);
        if (ts_node_is_null(e) || s == sy->string || s == sy->concatenated_string || s == sy->integer ||
            s == sy->float_ || s == sy->true_ || s == sy->false_ || s == sy->none || s == sy->list_splat ||
            s == sy->dictionary_splat || s == sy->comment)
            continue;
        if (s == sy->list || s == sy->tuple || s == sy->set || s == sy->dictionary) {
            /* an element that is a container: its elements are elements of elements */
            sg_cands inner = {0};
            res__container(cx, scope, e, &inner, depth, nest + 1);
            for (int j = 0; j < inner.n; j++)
                res__add(res, out, sg_arena_printf(res->arena, "%s[]", inner.q[j]));
            continue;
        }
        sg_cands el = {0};
        sg_res_expr(cx, scope, e, &el, depth + 1);
        for (int j = 0; j < el.n; j++)
            if (res__alive(res, el.q[j]))
                res__add(res, out, sg_arena_printf(res->arena, "%s[]", el.q[j]));
    }
    ts_tree_cursor_delete(&c);
}

void sg_res_expr(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (ts_node_is_null(n) || out->n >= SG_MAX_CANDS)
        return;
    if (depth > 32 || --res->budget < 0) {
        res->truncated = true;
        if (!res->across_nest)
            sg_res_limit(res, res->query_seq, res->query_where,
                         depth > 32 ? "an expression is nested deeper than the analysis follows"
                                    : "resolving an expression takes more steps than the analysis allows");
        return;
    }
    n = sg_node_unparen(n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->identifier) {
        size_t len;
        const char *t = sg_res_ident(cx, n, &len);
        res__name(cx, scope, n, t, len, out, depth);
    } else if (s == sy->attribute) {
        TSNode obj = sg_node_unparen(sg_node_field(n, sy->f_object));
        size_t al;
        const char *a = sg_res_ident(cx, sg_node_field(n, sy->f_attribute), &al);
        if (res__class_attr(cx, scope, obj, a, al, out, depth))
            return;
        if (res__self_attr(cx, scope, obj, a, al, out, depth))
            return;
        sg_cands base = {0};
        sg_res_expr(cx, scope, obj, &base, depth + 1);
        for (int i = 0; i < base.n; i++)
            res__join_or_main(cx, scope, out, base.q[i], a, al, depth);
    } else if (s == sy->subscript) {
        sg_cands base = {0};
        sg_res_expr(cx, scope, sg_node_field(n, sy->f_value), &base, depth + 1);
        if (!base.n)
            return;
        /* an item of a container literal: any of its elements, whatever the index */
        bool items = false;
        for (int i = 0; i < base.n; i++) {
            size_t ql = strlen(base.q[i]);
            if (ql > 2 && !strcmp(base.q[i] + ql - 2, "[]")) {
                res__add(res, out, sg_arena_strndup(res->arena, base.q[i], ql - 2));
                items = true;
            }
        }
        if (items)
            return;
        sg_buf b;
        sg_buf_init(&b, SG_MAX_QNAME);
        if (sg_const_eval(cx, scope, sg_node_field(n, sy->f_subscript), &b, 0) && b.len && !b.truncated)
            for (int i = 0; i < base.n; i++)
                res__join_or_main(cx, scope, out, base.q[i], b.data, b.len, depth);
        sg_res_buf_done(res, &b);
    } else if (s == sy->call) {
        res__call(cx, scope, n, out, depth);
    } else if (s == sy->conditional_expression) {
        uint32_t k = sg_node_nnamed(n);
        for (uint32_t i = 0; i < k; i += 2) /* a if cond else b: children 0 and 2 */
            sg_res_expr(cx, scope, sg_node_named(n, i), out, depth + 1);
    } else if (s == sy->binary_operator) {
        /* path / "name" is a path again */
        size_t ol;
        const char *o = sg_node_text(cx->src, sg_node_field(n, sy->f_operator), &ol);
        if (ol == 1 && *o == '/') {
            sg_cands left = {0};
            sg_res_expr(cx, scope, sg_node_field(n, sy->f_left), &left, depth + 1);
            for (int i = 0; i < left.n; i++) {
                const char *self = sg_pyname_returns_self(
                    sg_arena_printf(res->arena, "%s.__truediv__", res__strip_instance(left.q[i])));
                if (self && left.q[i] != res__strip_instance(left.q[i]))
                    res__add(res, out, left.q[i]);
            }
        }
    } else if (s == sy->boolean_operator) {
        sg_res_expr(cx, scope, sg_node_field(n, sy->f_left), out, depth + 1);
        sg_res_expr(cx, scope, sg_node_field(n, sy->f_right), out, depth + 1);
    } else if (s == sy->named_expression) {
        sg_res_expr(cx, scope, sg_node_field(n, sy->f_value), out, depth + 1);
    } else if (s == sy->list || s == sy->tuple || s == sy->set || s == sy->dictionary) {
        /* `fs = [subprocess.call]; fs[0](cmd, shell=True)`: a container stands for its elements
         * (a dict for its values), marked "q[]"; a subscript or a loop over it takes them out.
         * Only elements some rule may be about are kept (a list of math functions is nothing). */
        res__container(cx, scope, n, out, depth, 0);
    } else if (s == sy->for_statement || s == sy->for_in_clause) {
        /* a loop variable (bound to its loop): an element of what the loop iterates */
        sg_cands it = {0};
        sg_res_expr(cx, scope, sg_node_field(n, sy->f_right), &it, depth + 1);
        for (int i = 0; i < it.n; i++) {
            size_t ql = strlen(it.q[i]);
            if (ql > 2 && !strcmp(it.q[i] + ql - 2, "[]"))
                res__add(res, out, sg_arena_strndup(res->arena, it.q[i], ql - 2));
        }
    } else if (s == sy->lambda) {
        /* lambda *a: eval(*a) is eval in disguise: resolve the body if it is a bare call */
        TSNode body = sg_node_unparen(sg_node_field(n, sy->f_body));
        if (sg_node_is(body, sy->call))
            sg_res_expr(cx, scope, sg_node_field(body, sy->f_function), out, depth + 1);
    }
}

sg_status sg_resolve_expr(sg_resolver *res, sg_scope *scope, TSNode expr, sg_cands *out)
{
    sg_res_cx cx = {res, res->cur_src};
    out->n = 0;
    res->budget = RES_BUDGET;
    res->truncated = false;
    res->query_seq = res->cur_seq;
    res->query_where = ts_node_start_point(expr);
    sg_res_expr(&cx, scope, expr, out, 0);
    return sg_resolver_failed(res) ? SG_ERR_NOMEM : SG_OK;
}

const char *sg_res_dotted(sg_res_cx *cx, TSNode n)
{
    size_t len;
    const char *t = sg_res_ident(cx, n, &len);
    char buf[SG_MAX_QNAME + 1];
    size_t o = 0;
    for (size_t i = 0; i < len && o < SG_MAX_QNAME; i++)
        if (!isspace((unsigned char)t[i]) && t[i] != '\\')
            buf[o++] = t[i];
    buf[o] = 0;
    return sg_res_normalize(cx->res, buf, o);
}

/* ------------------------------------------------------------------------------------------ */
/* Life cycle and results                                                                       */

sg_resolver *sg_resolver_new(const sg_names *names, unsigned max_depth)
{
    sg_resolver *res = calloc(1, sizeof *res);
    if (!res)
        return NULL;
    res->arena = sg_arena_new();
    if (!res->arena) {
        free(res);
        return NULL;
    }
    res->sy = sg_syms_get();
    res->names = names;
    res->max_depth = max_depth ? max_depth : 400;
    return res;
}

void sg_resolver_free(sg_resolver *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->scopes.len; i++)
        sg_array_free(&res->scopes.items[i]->stars);
    sg_array_free(&res->scopes);
    sg_array_free(&res->visits);
    sg_array_free(&res->block_visits);
    sg_arena_free(res->arena);
    free(res);
}

sg_arena *sg_resolver_arena(sg_resolver *res)
{
    return res->arena;
}

bool sg_resolver_failed(const sg_resolver *res)
{
    return res->failed || sg_arena_failed(res->arena);
}

bool sg_resolver_depth_exceeded(const sg_resolver *res, TSPoint *ret_where)
{
    if (res->depth_exceeded && ret_where)
        *ret_where = res->depth_where;
    return res->depth_exceeded;
}

bool sg_resolver_limit_hit(const sg_resolver *res, size_t *ret_block, TSPoint *ret_where, const char **ret_reason)
{
    if (res->limit_hit && ret_reason)
        *ret_reason = res->limit_reason ? res->limit_reason : "the analysis is incomplete";
    if (res->limit_hit && ret_where)
        *ret_where = res->limit_where;
    if (res->limit_hit && ret_block)
        *ret_block = res->limit_block;
    return res->limit_hit;
}

bool sg_scope_is_class(const sg_scope *scope)
{
    return scope && scope->is_class;
}

bool sg_resolve_methodcaller(sg_resolver *res, sg_scope *scope, TSNode call, sg_cands *out)
{
    const sg_syms *sy = res->sy;
    sg_res_cx cx = {res, res->cur_src};
    out->n = 0;
    res->budget = RES_BUDGET;
    res->truncated = false;
    res->query_seq = res->cur_seq;
    res->query_where = ts_node_start_point(call);
    TSNode fn = sg_node_unparen(sg_node_field(call, sy->f_function));
    TSNode args = sg_node_field(call, sy->f_arguments);
    if (!sg_node_is(fn, sy->call) || !sg_node_is(args, sy->argument_list) || sg_node_nnamed(args) < 1)
        return false;
    return res__getter_call(&cx, scope, fn, "operator.methodcaller", sg_node_named(args, 0), out, 0) && out->n;
}

const char *sg_dotted_name(sg_resolver *res, TSNode n)
{
    sg_res_cx cx = {res, res->cur_src};
    return sg_res_dotted(&cx, n);
}
