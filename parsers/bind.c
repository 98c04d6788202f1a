/*
 * The resolver's two passes. Pass 1 (sg_resolver_bind): one cursor walk per block that builds
 * scopes and bindings and records, with its scope, every node pass 2 is interested in. Pass 2
 * (sg_resolver_walk): visit those nodes in source order, with no second tree walk.
 */
#include "resolve_int.h"
#include "tswalk.h"

#include <ctype.h>
#include <pthread.h>
#include <string.h>

static pthread_once_t bind__once = PTHREAD_ONCE_INIT;

/* Per-symbol flags for the pass-1 walk: one table lookup instead of a chain of comparisons. */
#define BIND_NSYMS 1024
enum { BIND_F_SCOPE = 1, BIND_F_BINDS = 2, BIND_F_COND = 4 };
static uint8_t bind__flags[BIND_NSYMS];

static void bind__init_flags(void)
{
    const sg_syms *s = sg_syms_get();
    const TSSymbol scopes[] = {s->function_definition, s->lambda, s->list_comprehension, s->set_comprehension,
                               s->dictionary_comprehension, s->generator_expression, s->class_definition};
    const TSSymbol binds[] = {s->import_statement, s->import_from_statement, s->assignment, s->augmented_assignment,
                              s->named_expression, s->for_statement, s->for_in_clause, s->as_pattern_target,
                              s->global_statement, s->nonlocal_statement, s->class_definition,
                              s->delete_statement, s->function_definition, s->lambda, s->match_statement,
                              s->as_pattern};
    /* statements whose bodies may not run (or run partly): bindings under them are not definite */
    const TSSymbol conds[] = {s->if_statement, s->for_statement, s->while_statement, s->try_statement,
                              s->with_statement, s->match_statement, s->conditional_expression,
                              s->boolean_operator};
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (scopes[i] < BIND_NSYMS)
            bind__flags[scopes[i]] |= BIND_F_SCOPE;
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++)
        if (binds[i] < BIND_NSYMS)
            bind__flags[binds[i]] |= BIND_F_BINDS;
    for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
        if (conds[i] < BIND_NSYMS)
            bind__flags[conds[i]] |= BIND_F_COND;
}

static void bind__local_ids(sg_res_cx *cx, sg_scope *scope, TSNode target);

/* Record a site (a call or a store) under its name; out of memory fails the resolver. */
static void bind__site(sg_res_cx *cx, sg_res_site **buckets, sg_scope *scope, const char *name, uint32_t len,
                       bool attr, TSNode args)
{
    sg_resolver *res = cx->res;
    sg_res_site *site = sg_arena_alloc(res->arena, sizeof *site);
    if (!site) {
        sg_res_fail(res);
        return;
    }
    uint32_t b = sg_res_site_bucket(name, len);
    *site = (sg_res_site){name, len, attr, args, scope, cx->src, res->cur_seq, buckets[b]};
    buckets[b] = site;
}

/* `self.name = value` in a method (self: its first parameter): what `self.name` may be in any
 * method (resolve.c). */
static void bind__self_store(sg_res_cx *cx, sg_scope *scope, TSNode target, TSNode value)
{
    const sg_syms *sy = cx->res->sy;
    TSNode obj = sg_node_unparen(sg_node_field(target, sy->f_object));
    if (!sg_node_is(obj, sy->identifier))
        return;
    size_t n;
    const char *t = sg_res_ident(cx, obj, &n);
    sg_scope *owner = NULL;
    sg_binding *b = sg_scope_find(scope, t, (uint32_t)n, &owner);
    if (!b || b->kind != RES_PARAM || b->param_index != 0 || !b->func || !b->func->cls)
        return;
    size_t al;
    const char *a = sg_res_ident(cx, sg_node_field(target, sy->f_attribute), &al);
    if (a)
        bind__site(cx, cx->res->stores, scope, a, (uint32_t)al, true, value);
}

/* A call whose callee is a name or an attribute: a site of the functions of that name. */
static void bind__call_site(sg_res_cx *cx, sg_scope *scope, TSNode call)
{
    const sg_syms *sy = cx->res->sy;
    TSNode fn = sg_node_unparen(sg_node_field(call, sy->f_function));
    TSNode args = sg_node_field(call, sy->f_arguments);
    if (!sg_node_is(args, sy->argument_list))
        return;
    bool attr = sg_node_is(fn, sy->attribute);
    TSNode name = attr ? sg_node_field(fn, sy->f_attribute) : fn;
    if (!sg_node_is(name, sy->identifier))
        return;
    size_t n;
    const char *t = sg_res_ident(cx, name, &n);
    if (t)
        bind__site(cx, cx->res->calls, scope, t, (uint32_t)n, attr, args);
}

/* The binding just made for `name` in `scope` if it is of `kind` at `node`, else NULL. */
static sg_binding *bind__made(sg_scope *scope, const char *name, uint32_t n, sg_binding_kind kind, TSNode node)
{
    sg_binding *b = sg_scope_lookup(scope, name, n);
    b = b ? b->tail : NULL;
    return b && b->kind == kind && ts_node_eq(b->node, node) ? b : NULL;
}

static void bind__target(sg_res_cx *cx, sg_scope *scope, TSNode target, TSNode value)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    target = sg_node_unparen(target);
    TSSymbol s = ts_node_symbol(target);
    if (s == sy->identifier) {
        size_t n;
        const char *t = sg_res_ident(cx, target, &n);
        if (ts_node_is_null(value))
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_LOCAL, NULL, target, cx->src);
        else
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_ALIAS, NULL, value, cx->src);
        return;
    }
    if (s == sy->pattern_list || s == sy->tuple_pattern || s == sy->list_pattern || s == sy->tuple || s == sy->list) {
        TSNode v = ts_node_is_null(value) ? value : sg_node_unparen(value);
        uint32_t k = sg_node_nnamed(target);
        bool pairwise = !ts_node_is_null(v) &&
                        (sg_node_is(v, sy->expression_list) || sg_node_is(v, sy->tuple) || sg_node_is(v, sy->list)) &&
                        sg_node_nnamed(v) == k;
        for (uint32_t i = 0; i < k; i++) {
            TSNode t = sg_node_named(target, i);
            if (pairwise)
                bind__target(cx, scope, t, sg_node_named(v, i));
            else
                bind__local_ids(cx, scope, t);
        }
        return;
    }
    if (s == sy->list_splat_pattern || s == sy->list_splat)
        bind__local_ids(cx, scope, target);
    if (s == sy->attribute && !ts_node_is_null(value))
        bind__self_store(cx, scope, target, value);
}

/* Every identifier in a target pattern becomes a local (not those under attribute/subscript). */
static void bind__local_ids(sg_res_cx *cx, sg_scope *scope, TSNode target)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSSymbol s = ts_node_symbol(target);
    if (s == sy->identifier) {
        size_t n;
        const char *t = sg_res_ident(cx, target, &n);
        sg_scope_bind(res, scope, t, (uint32_t)n, RES_LOCAL, NULL, target, cx->src);
        return;
    }
    if (s == sy->attribute || s == sy->subscript)
        return;
    /* Patterns are shallow; an iterative walk keeps hostile nesting off the stack. */
    sg_walk w;
    sg_walk_init(&w, target);
    TSNode n;
    unsigned depth;
    bool descend = false;
    while (sg_walk_next(&w, descend, &n, &depth)) {
        TSSymbol ns = ts_node_symbol(n);
        descend = ns != sy->attribute && ns != sy->subscript && ns != sy->identifier && depth < 64;
        if (ns == sy->identifier && depth > 0) {
            size_t len;
            const char *t = sg_res_ident(cx, n, &len);
            sg_scope_bind(res, scope, t, (uint32_t)len, RES_LOCAL, NULL, n, cx->src);
        }
    }
    sg_walk_end(&w);
}

static void bind__import(sg_res_cx *cx, sg_scope *scope, TSNode stmt)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    bool from = sg_node_is(stmt, sy->import_from_statement);
    const char *module = NULL;
    bool relative = false;
    if (from) {
        TSNode m = sg_node_field(stmt, sy->f_module_name);
        if (sg_node_is(m, sy->relative_import))
            relative = true;
        else if (!ts_node_is_null(m))
            module = sg_res_dotted(cx, m);
    }
    uint32_t k = sg_node_nnamed(stmt);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = sg_node_named(stmt, i);
        if (from && ts_node_eq(c, sg_node_field(stmt, sy->f_module_name)))
            continue;
        if (sg_node_is(c, sy->wildcard_import)) {
            if (module && !relative && sg_array_push(&scope->stars, module, 64)) {
                if (scope->stars.len < 64)
                    sg_res_fail(res); /* out of memory, not the cap */
                else
                    sg_res_limit(res, res->cur_seq, ts_node_start_point(c),
                               "more star imports in one scope than the analysis follows");
            }
            continue;
        }
        TSNode name = c, alias = {0};
        if (sg_node_is(c, sy->aliased_import)) {
            name = sg_node_field(c, sy->f_name);
            alias = sg_node_field(c, sy->f_alias);
        } else if (!sg_node_is(c, sy->dotted_name)) {
            continue;
        }
        /* a name imported from a module is not a module name itself: no module alias applies to it
         * alone (`from xmlrpc.server import SimpleXMLRPCServer` is not `xmlrpc.server`) */
        size_t rawl;
        const char *raw = from ? sg_res_ident(cx, name, &rawl) : NULL;
        const char *full = from ? sg_arena_strndup(res->arena, raw, rawl) : sg_res_dotted(cx, name);
        if (!full)
            continue;
        if (from) {
            const char *q = relative || !module ? NULL : sg_arena_printf(res->arena, "%s.%s", module, full);
            q = q ? sg_res_normalize(res, q, strlen(q)) : NULL;
            TSNode bound = ts_node_is_null(alias) ? name : alias;
            size_t n;
            const char *t = sg_res_ident(cx, bound, &n);
            sg_scope_bind(res, scope, t, (uint32_t)n, q ? RES_IMPORT : RES_LOCAL, q, bound, cx->src);
        } else if (!ts_node_is_null(alias)) {
            size_t n;
            const char *t = sg_res_ident(cx, alias, &n);
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_IMPORT, full, alias, cx->src);
        } else {
            /* import a.b.c binds a (a module alias of a alone applies: import httplib is http.client) */
            TSNode first = sg_node_named(name, 0);
            size_t n;
            const char *t = sg_res_ident(cx, ts_node_is_null(first) ? name : first, &n);
            const char *q = sg_res_normalize(res, t, n);
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_IMPORT, q, name, cx->src);
        }
    }
}

/* A pattern of a `case` clause matched against `subject`, the member path `path` down (NULL: the
 * subject itself): a capture binds the name to that member (RES_MEMBER), `C(attr=p)` and
 * `{"key": p}` go one member deeper, `p as name` binds name there too; the names of any other
 * pattern (sequences, unions, splats) are opaque locals. */
static void bind__case_pattern(sg_res_cx *cx, sg_scope *scope, TSNode pat, TSNode subject, const char *path,
                               int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (ts_node_is_null(pat) || depth > 16)
        return;
    TSSymbol s = ts_node_symbol(pat);
    if (s == sy->case_pattern) {
        if (sg_node_nnamed(pat) == 1)
            bind__case_pattern(cx, scope, sg_node_named(pat, 0), subject, path, depth + 1);
        return;
    }
    if (s == sy->dotted_name || s == sy->identifier) {
        /* a dotted name of one identifier is a capture; of several, a value to compare with */
        TSNode id = s == sy->identifier ? pat : sg_node_named(pat, 0);
        if (s == sy->dotted_name && sg_node_nnamed(pat) != 1)
            return;
        size_t n;
        const char *t = sg_res_ident(cx, id, &n);
        if (n == 1 && *t == '_')
            return; /* the wildcard binds nothing */
        if (path)
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_MEMBER, path, subject, cx->src);
        else
            sg_scope_bind(res, scope, t, (uint32_t)n, RES_ALIAS, NULL, subject, cx->src);
        return;
    }
    if (s == sy->as_pattern) {
        uint32_t k = sg_node_nnamed(pat);
        if (k >= 2) {
            bind__case_pattern(cx, scope, sg_node_named(pat, 0), subject, path, depth + 1);
            bind__case_pattern(cx, scope, sg_node_named(pat, k - 1), subject, path, depth + 1);
        }
        return;
    }
    if (s == sy->class_pattern || s == sy->dict_pattern) {
        sg_children it;
        TSNode c;
        sg_children_init(&it, pat);
        bool class_name = s == sy->class_pattern;
        TSNode key = {0};
        while (sg_children_next(&it, &c)) {
            TSSymbol cs = ts_node_symbol(c);
            if (cs == sy->case_pattern && s == sy->class_pattern && sg_node_nnamed(c) == 1) {
                c = sg_node_named(c, 0); /* C(attr=p) wraps keyword patterns in case patterns */
                cs = ts_node_symbol(c);
            }
            if (class_name && cs == sy->dotted_name) {
                class_name = false; /* the class being matched */
                continue;
            }
            const char *member = NULL;
            TSNode sub = {0};
            if (cs == sy->keyword_pattern && sg_node_nnamed(c) >= 2) {
                size_t n;
                const char *t = sg_res_ident(cx, sg_node_named(c, 0), &n);
                member = sg_arena_printf(res->arena, "%s%s%.*s", path ? path : "", path ? "." : "", (int)n, t);
                sub = sg_node_named(c, 1);
            } else if (s == sy->dict_pattern && ts_node_is_null(key) && cs != sy->splat_pattern &&
                       cs != sy->case_pattern) {
                key = c; /* a key; its value pattern follows */
                continue;
            } else if (s == sy->dict_pattern && !ts_node_is_null(key)) {
                sg_buf b;
                sg_buf_init(&b, SG_MAX_QNAME);
                res->budget = RES_BUDGET;
                if (sg_const_eval(cx, scope, key, &b, 0) && b.len && !b.truncated)
                    member = sg_arena_printf(res->arena, "%s%s%.*s", path ? path : "", path ? "." : "", (int)b.len,
                                             b.data);
                sg_res_buf_done(res, &b);
                key = (TSNode){0};
                sub = c;
                if (!member) {
                    bind__local_ids(cx, scope, c);
                    continue;
                }
            } else {
                bind__local_ids(cx, scope, c);
                continue;
            }
            if (member)
                bind__case_pattern(cx, scope, sub, subject, member, depth + 1);
        }
        sg_children_end(&it);
        return;
    }
    bind__local_ids(cx, scope, pat);
}

/* `match subject:` and its `case` clauses (pass 1). */
static void bind__match(sg_res_cx *cx, sg_scope *scope, TSNode n)
{
    const sg_syms *sy = cx->res->sy;
    TSNode subject = sg_node_field(n, sy->f_subject);
    TSNode body = sg_node_field(n, sy->f_body);
    if (ts_node_is_null(body))
        return;
    cx->res->cond++; /* a case may not match */
    sg_children it, pit;
    TSNode clause, pat;
    sg_children_init(&it, body);
    while (sg_children_next(&it, &clause)) {
        if (!sg_node_is(clause, sy->case_clause))
            continue;
        sg_children_init(&pit, clause);
        while (sg_children_next(&pit, &pat))
            if (sg_node_is(pat, sy->case_pattern))
                bind__case_pattern(cx, scope, pat, subject, NULL, 0);
        sg_children_end(&pit);
    }
    sg_children_end(&it);
    cx->res->cond--;
}

/* A def's parameters in its scope `scope`; `outer` is where the def stands (its defaults are
 * resolved there) and `f` its record (NULL for a lambda: its parameters stay opaque). */
static void bind__params(sg_res_cx *cx, sg_scope *outer, sg_scope *scope, TSNode params, sg_res_func *f)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    uint32_t k = sg_node_nnamed(params);
    int index = 0;
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = sg_node_named(params, i);
        TSSymbol s = ts_node_symbol(p);
        TSNode name = p, def = {0};
        if (s == sy->default_parameter || s == sy->typed_default_parameter) {
            name = sg_node_field(p, sy->f_name);
            def = sg_node_field(p, sy->f_value);
        } else if (s == sy->typed_parameter) {
            name = sg_node_named(p, 0);
        }
        if (sg_node_is(name, sy->list_splat_pattern) || !strcmp(ts_node_type(name), "keyword_separator"))
            index = -1; /* what follows is keyword only */
        if (!f || !sg_node_is(name, sy->identifier)) {
            bind__local_ids(cx, scope, name);
            continue;
        }
        size_t n;
        const char *t = sg_res_ident(cx, name, &n);
        if (!t)
            continue;
        sg_scope_bind(res, scope, t, (uint32_t)n, RES_PARAM, NULL, name, cx->src);
        sg_binding *b = bind__made(scope, t, (uint32_t)n, RES_PARAM, name);
        if (b) {
            b->func = f;
            b->param_index = index;
            b->node = def; /* the default, if any, resolved in `outer` */
            b->inner = outer;
        }
        if (index >= 0)
            index++;
    }
}

/* A def's record: its name, its class (a method), where its returns are collected. */
static sg_res_func *bind__func(sg_res_cx *cx, sg_scope *scope, sg_scope *inner, TSNode def)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    sg_res_func *f = sg_arena_alloc(res->arena, sizeof *f);
    if (!f) {
        sg_res_fail(res);
        return NULL;
    }
    memset(f, 0, sizeof *f);
    size_t n = 0;
    TSNode name = sg_node_field(def, sy->f_name);
    f->name = sg_node_is(name, sy->identifier) ? sg_res_ident(cx, name, &n) : NULL;
    f->name_len = (uint32_t)n;
    if (scope->is_class) {
        TSNode c = ts_node_parent(def);
        for (int guard = 0; !ts_node_is_null(c) && !sg_node_is(c, sy->class_definition) && guard < 4; guard++)
            c = ts_node_parent(c);
        TSNode cn = sg_node_is(c, sy->class_definition) ? sg_node_field(c, sy->f_name) : (TSNode){0};
        size_t cl = 0;
        f->cls = sg_node_is(cn, sy->identifier) ? sg_res_ident(cx, cn, &cl) : NULL;
        f->cls_len = (uint32_t)cl;
    }
    if (inner)
        inner->func = f;
    return f;
}

/* What a node does to the scope stack: 0 nothing, 1 opens a function-like scope, 2 a class. */
static int bind__scope_kind(const sg_syms *sy, TSSymbol s)
{
    if (s == sy->function_definition || s == sy->lambda || s == sy->list_comprehension ||
        s == sy->set_comprehension || s == sy->dictionary_comprehension || s == sy->generator_expression)
        return 1;
    if (s == sy->class_definition)
        return 2;
    return 0;
}

/* Bindings a node makes in `scope` (pass 1); for scope nodes, `inner` is the new scope. */
static void bind__node(sg_res_cx *cx, TSNode n, TSSymbol s, sg_scope *scope, sg_scope *inner)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (s == sy->import_statement || s == sy->import_from_statement) {
        bind__import(cx, scope, n);
    } else if (s == sy->assignment) {
        TSNode value = sg_node_field(n, sy->f_right);
        int guard = 0;
        while (sg_node_is(value, sy->assignment) && guard++ < 64)
            value = sg_node_field(value, sy->f_right);
        bind__target(cx, scope, sg_node_field(n, sy->f_left), value);
    } else if (s == sy->augmented_assignment) {
        bind__local_ids(cx, scope, sg_node_field(n, sy->f_left));
    } else if (s == sy->named_expression) {
        bind__target(cx, scope, sg_node_field(n, sy->f_name), sg_node_field(n, sy->f_value));
    } else if (s == sy->for_statement || s == sy->for_in_clause) {
        res->cond++; /* the loop may run zero times */
        TSNode left = sg_node_unparen(sg_node_field(n, sy->f_left));
        if (sg_node_is(left, sy->identifier)) {
            /* `for f in [subprocess.call]: f(...)`: f stands for an element of what the loop
             * iterates (sg_res_expr of the loop node) */
            size_t len;
            const char *t = sg_res_ident(cx, left, &len);
            sg_scope_bind(res, scope, t, (uint32_t)len, RES_ALIAS, NULL, n, cx->src);
        } else {
            bind__local_ids(cx, scope, sg_node_field(n, sy->f_left));
        }
        res->cond--;
    } else if (s == sy->as_pattern_target) {
        bind__local_ids(cx, scope, n);
    } else if (s == sy->as_pattern) {
        /* `with socket.socket() as s`: s stands for the context manager (sockets, files, sessions
         * and processes return themselves from __enter__); `except E as e` stays opaque */
        uint32_t k = sg_node_nnamed(n);
        TSNode target = k >= 2 ? sg_node_named(n, k - 1) : (TSNode){0};
        if (sg_node_is(target, sy->as_pattern_target) && sg_node_nnamed(target) == 1 &&
            sg_node_is(sg_node_named(target, 0), sy->identifier) &&
            sg_node_is(ts_node_parent(n), sy->with_item))
            bind__target(cx, scope, sg_node_named(target, 0), sg_node_named(n, 0));
    } else if (s == sy->match_statement) {
        bind__match(cx, scope, n);
    } else if (s == sy->global_statement || s == sy->nonlocal_statement) {
        uint32_t k = sg_node_nnamed(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode id = sg_node_named(n, i);
            size_t len;
            const char *t = sg_res_ident(cx, id, &len);
            sg_scope_bind(res, scope, t, (uint32_t)len, s == sy->global_statement ? RES_GLOBAL : RES_NONLOCAL, NULL, id,
                      cx->src);
        }
    } else if (s == sy->class_definition) {
        TSNode name = sg_node_field(n, sy->f_name);
        if (sg_node_is(name, sy->identifier)) {
            size_t len;
            const char *t = sg_res_ident(cx, name, &len);
            if (sg_scope_bind(res, scope, t, (uint32_t)len, RES_CLASS, NULL, name, cx->src) == 0) {
                sg_binding *b = sg_scope_lookup(scope, t, (uint32_t)len);
                while (b && b->next)
                    b = b->next;
                if (b && b->kind == RES_CLASS)
                    b->inner = inner;
            }
        }
    } else if (s == sy->delete_statement) {
        uint32_t k = sg_node_nnamed(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode t = sg_node_named(n, i);
            TSNode list[64];
            uint32_t nl = 0;
            if (sg_node_is(t, sy->expression_list) || sg_node_is(t, sy->tuple)) {
                for (uint32_t j = 0; j < sg_node_nnamed(t) && nl < 64; j++)
                    list[nl++] = sg_node_named(t, j);
            } else {
                list[nl++] = t;
            }
            for (uint32_t j = 0; j < nl; j++)
                if (sg_node_is(list[j], sy->identifier)) {
                    size_t len;
                    const char *id = sg_res_ident(cx, list[j], &len);
                    sg_scope_bind(res, scope, id, (uint32_t)len, RES_DEL, NULL, list[j], cx->src);
                }
        }
    } else if (s == sy->function_definition) {
        sg_res_func *f = bind__func(cx, scope, inner, n);
        TSNode name = sg_node_field(n, sy->f_name);
        if (f && f->name) {
            sg_scope_bind(res, scope, f->name, f->name_len, RES_FUNC, NULL, name, cx->src);
            sg_binding *b = bind__made(scope, f->name, f->name_len, RES_FUNC, name);
            if (b)
                b->func = f;
        } else {
            bind__local_ids(cx, scope, name);
        }
        if (inner)
            bind__params(cx, scope, inner, sg_node_field(n, sy->f_parameters), f);
    } else if (s == sy->lambda) {
        TSNode p = sg_node_field(n, sy->f_parameters);
        if (!ts_node_is_null(p) && inner)
            bind__params(cx, scope, inner, p, NULL);
    }
}

/* Pass 1: one walk (tswalk.h) that builds scopes and bindings and records, with its scope, every
 * node whose symbol pass 2 is interested in (so that pass 2 needs no second walk). */
sg_status sg_resolver_bind(sg_resolver *res, TSNode root, const char *src)
{
    const sg_syms *sy = res->sy;
    sg_res_cx cx = {res, src};
    pthread_once(&bind__once, bind__init_flags);
    res->cur_src = src;
    res->cur_seq = res->nblocks++;
    if (sg_array_push(&res->block_visits, res->visits.len, 0))
        return SG_ERR_NOMEM;
    struct {
        sg_scope *scope;
        unsigned depth;
        unsigned cond; /* res->cond to restore on leaving */
    } stack[256];
    unsigned sp = 0;
    res->cond = 0;
    sg_scope *module = res->scopes.len ? res->scopes.items[0] : sg_scope_new(res, NULL, false);
    if (!module)
        return SG_ERR_NOMEM;
    sg_scope *cur = module;
    sg_walk w;
    sg_walk_init(&w, root);
    TSNode n;
    unsigned depth;
    bool descend = false;
    sg_status st = SG_OK;
    while (sg_walk_next(&w, descend, &n, &depth)) {
        /* leave the scopes and conditions of the subtrees this node is not in */
        while (sp && stack[sp - 1].depth >= depth) {
            sp--;
            cur = stack[sp].scope;
            res->cond = stack[sp].cond;
        }
        TSSymbol s = ts_node_symbol(n);
        uint8_t flags = s < BIND_NSYMS ? bind__flags[s] : 0;
        int sk = flags & BIND_F_SCOPE ? bind__scope_kind(sy, s) : 0;
        sg_scope *inner = NULL;
        if (sk && !(inner = sg_scope_new(res, cur, sk == 2))) {
            st = SG_ERR_NOMEM;
            break;
        }
        if (flags & BIND_F_BINDS)
            bind__node(&cx, n, s, cur, inner);
        if (s == sy->call) {
            bind__call_site(&cx, cur, n);
        } else if (s == sy->return_statement && cur->func && sg_node_nnamed(n) == 1) {
            sg_res_ret *r = sg_arena_alloc(res->arena, sizeof *r);
            if (!r) {
                st = SG_ERR_NOMEM;
                break;
            }
            *r = (sg_res_ret){sg_node_named(n, 0), cur, src, res->cur_seq, cur->func->returns};
            cur->func->returns = r;
        }
        if (s < sizeof res->interest && res->interest[s]) {
            struct sg_res_visit v = {n, cur};
            if (sg_array_push(&res->visits, v, 0)) {
                st = SG_ERR_NOMEM;
                break;
            }
        }
        bool conditional = (flags & BIND_F_COND) != 0;
        if (inner || conditional) {
            if (sp == sizeof stack / sizeof stack[0]) {
                /* Nesting this deep is beyond any sane max_depth: a limit. */
                res->depth_exceeded = true;
                res->depth_where = ts_node_start_point(n);
            } else {
                stack[sp].scope = cur;
                stack[sp].depth = depth;
                stack[sp].cond = res->cond;
                sp++;
                if (inner) {
                    cur = inner;
                    res->cond = 0;
                } else {
                    res->cond++;
                }
            }
        }
        descend = ts_node_child_count(n) > 0;
        if (descend && depth >= res->max_depth) {
            if (!res->depth_exceeded) {
                res->depth_exceeded = true;
                res->depth_where = ts_node_start_point(n);
            }
            descend = false;
        }
    }
    sg_walk_end(&w);
    if (!st && sg_resolver_failed(res))
        st = SG_ERR_NOMEM;
    return st;
}

void sg_resolver_interest(sg_resolver *res, TSSymbol symbol)
{
    if (symbol < sizeof res->interest)
        res->interest[symbol] = 1;
}

sg_status sg_resolver_walk(sg_resolver *res, size_t block, const char *src, sg_visit_fn visit, void *ctx)
{
    if (block >= res->block_visits.len)
        return SG_ERR_INTERNAL;
    size_t from = res->block_visits.items[block];
    size_t to = block + 1 < res->block_visits.len ? res->block_visits.items[block + 1] : res->visits.len;
    res->cur_src = src;
    res->cur_seq = (uint32_t)block;
    for (size_t i = from; i < to && !sg_resolver_failed(res); i++)
        visit(ctx, res->visits.items[i].node, res->visits.items[i].scope);
    return sg_resolver_failed(res) ? SG_ERR_NOMEM : SG_OK;
}
