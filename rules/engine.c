/*
 * The rule engine. One walk over a block visits every node with its scope and dispatches by
 * node type: calls (calls, network and dynamic-attribute rules, dynamic imports), imports,
 * attribute accesses, string literals (credential shapes, sensitive attribute names),
 * assignments / keyword arguments / dict pairs (credential names), values (a dangerous callable
 * passed or stored), comments (suppressions). Raw queries run after the walk.
 */
#include "engine.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/doctest.h"
#include "parsers/pynames.h"
#include "parsers/tswalk.h"

#define ENGINE_MAX_ARGS 32

typedef struct engine__cx {
    const sg_rules *rules;
    sg_resolver *res;
    const sg_syms *sy;
    const char *src;
    sg_engine_out *out;
    sg_arena *arena;
    bool has_cred_values, has_attr_rules, has_dynattr;
    /* Secret-shape prefilter: the longest required literal of every value pattern, indexed by
     * its first byte, so that one pass over a literal's source tells whether any could match. */
    bool secret_anchorless;
    uint8_t secret_first[256];
    struct {
        const char *key;
        size_t len;
    } secret_keys[64];
    size_t nsecret_keys;
    TSNode store_target; /* the subscript an assignment visited last stores into */
    unsigned splat_depth; /* **name expanded into dict(**other...) (engine__collect_args) */
} engine__cx;

sg_status sg_engine_hit(sg_engine_out *out, const sg_rule *rule, TSPoint start, TSPoint end, const char *message,
                        const char *confidence)
{
    if (!rule) {
        out->failed = true;
        return SG_ERR_INTERNAL;
    }
    if (out->hits.len >= SG_ENGINE_MAX_HITS) {
        out->truncated = true;
        return SG_OK;
    }
    sg_hit h = {rule, start, end, message ? message : rule->info.message, confidence};
    if (sg_array_push(&out->hits, h, SG_ENGINE_MAX_HITS)) {
        out->failed = true;
        return SG_ERR_NOMEM;
    }
    return SG_OK;
}

void sg_engine_out_free(sg_engine_out *out)
{
    sg_array_free(&out->hits);
    sg_array_free(&out->suppressions);
}

static void engine__hit(engine__cx *cx, const sg_rule *r, TSNode n, const char *msg, const char *conf)
{
    sg_engine_hit(cx->out, r, ts_node_start_point(n), ts_node_end_point(n), msg, conf);
}

static const char *engine__text(engine__cx *cx, TSNode n, size_t *len)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    *len = b - a;
    return cx->src + a;
}

/* A short, single-line rendering of a node's source for messages: its first 60 bytes, and when
 * that cuts it, without the last UTF-8 sequence (so never half of one), then "...". Only bytes
 * written to buf are read (a read of buf[60] once made the cut differ from run to run). */
static const char *engine__excerpt(engine__cx *cx, TSNode n)
{
    size_t len;
    const char *t = engine__text(cx, n, &len);
    char buf[72];
    size_t o = 0;
    for (size_t i = 0; i < len && o < 60; i++)
        buf[o++] = (t[i] == '\n' || t[i] == '\r' || t[i] == '\t') ? ' ' : t[i];
    if (o < len) {
        while (o > 0 && ((unsigned char)buf[o - 1] & 0xc0) == 0x80)
            o--;
        if (o > 0 && (unsigned char)buf[o - 1] >= 0xc0)
            o--;
        buf[o++] = '.';
        buf[o++] = '.';
        buf[o++] = '.';
    }
    const char *r = sg_arena_strndup(cx->arena, buf, o);
    return r ? r : ""; /* the arena remembers the failure; the check ends in an error */
}

/* ------------------------------------------------------------------------------------------ */
/* Arguments                                                                                    */

typedef struct engine__args {
    TSNode pos[ENGINE_MAX_ARGS];
    int npos;
    bool pos_open; /* a *splat makes later positions unknown */
    struct {
        const char *name;
        size_t len;
        TSNode value;
    } kw[ENGINE_MAX_ARGS];
    int nkw;
    bool kw_open; /* **mapping that is not a literal dict */
    TSNode receiver; /* the object a method is called on (null for a plain function) */
    const char *pos_text[3]; /* the constant text of a position given as a name (obj.name = v) */
} engine__args;

#define ENGINE_MAX_ARGV 64

/* **self.name: the dict display that `self.name = {...}` stores, when that is the only store of
 * `.name` in the block and every other mention of it only reads it (sg_mapping_read_only_use),
 * no string of the block holds "name" and nothing in it writes attributes by name or through an
 * instance's dict (setattr, __setattr__, __dict__, vars); null otherwise. By name,
 * in every class of the block: a second class storing the same attribute name also makes it
 * unknown. */
static TSNode engine__self_dict(engine__cx *cx, TSNode attr)
{
    const sg_syms *sy = cx->sy;
    TSNode obj = sg_node_field(attr, sy->f_object), an = sg_node_field(attr, sy->f_attribute);
    size_t ol, nl;
    const char *ot = sg_node_is(obj, sy->identifier) ? engine__text(cx, obj, &ol) : NULL;
    const char *name = engine__text(cx, an, &nl);
    if (!ot || ol != 4 || memcmp(ot, "self", 4) || !name || !nl)
        return (TSNode){0};
    if (!sg_resolver_scan(cx->res, 0, ts_node_start_point(attr)))
        return (TSNode){0};
    sg_walk w;
    sg_walk_init(&w, ts_tree_root_node(attr.tree));
    TSNode store = {0};
    bool ok = true;
    unsigned long steps = 0;
    TSNode n;
    unsigned depth;
    while (ok && sg_walk_next(&w, true, &n, &depth)) {
        steps++;
        size_t l;
        if (sg_node_is(n, sy->string)) {
            /* a string holding the name anywhere (setattr(self, "kw", ...), "k" "w" aside) */
            const char *t = engine__text(cx, n, &l);
            ok = !t || !memmem(t, l, name, nl);
            continue;
        }
        if (!sg_node_is(n, sy->identifier))
            continue;
        const char *t = engine__text(cx, n, &l);
        /* attributes written by name or through the instance's dict: setattr(self, "k" + "w", v),
         * self.__dict__.update(...), vars(self)[...] */
        static const char *const writers[] = {"setattr", "__setattr__", "__dict__", "vars"};
        for (size_t k = 0; t && k < sizeof writers / sizeof writers[0]; k++)
            if (l == strlen(writers[k]) && !memcmp(t, writers[k], l))
                ok = false;
        if (!ok)
            break;
        TSNode at = ts_node_parent(n);
        if (!t || l != nl || memcmp(t, name, nl) || !sg_node_is(at, sy->attribute) ||
            !ts_node_eq(sg_node_field(at, sy->f_attribute), n))
            continue; /* (a name of its own, not this attribute) */
        TSNode p = ts_node_parent(at);
        if (sg_node_is(p, sy->assignment) && ts_node_eq(sg_node_field(p, sy->f_left), at)) {
            TSNode v = sg_node_unparen(sg_node_field(p, sy->f_right));
            TSNode o = sg_node_field(at, sy->f_object);
            size_t sl = 0;
            const char *st = sg_node_is(o, sy->identifier) ? engine__text(cx, o, &sl) : NULL;
            ok = ts_node_is_null(store) && sg_node_is(v, sy->dictionary) && st && sl == 4 && !memcmp(st, "self", 4);
            store = v;
        } else {
            ok = sg_mapping_read_only_use(cx->src, at);
        }
    }
    sg_walk_end(&w);
    sg_resolver_scan(cx->res, steps, ts_node_start_point(attr));
    return ok ? store : (TSNode){0};
}

static void engine__collect_args(engine__cx *cx, sg_scope *scope, TSNode args, engine__args *a)
{
    const sg_syms *sy = cx->sy;
    memset(a, 0, sizeof *a);
    if (ts_node_is_null(args) || ts_node_symbol(args) != sy->argument_list)
        return;
    sg_children it;
    TSNode c;
    sg_children_init(&it, args);
    while (sg_children_next(&it, &c)) {
        TSSymbol s = ts_node_symbol(c);
        if (s == sy->keyword_argument) {
            if (a->nkw < ENGINE_MAX_ARGS) {
                a->kw[a->nkw].name = engine__text(cx, sg_node_field(c, sy->f_name), &a->kw[a->nkw].len);
                a->kw[a->nkw].value = sg_node_field(c, sy->f_value);
                a->nkw++;
            } else {
                a->kw_open = true; /* more than we track: what we dropped could be anything */
            }
        } else if (s == sy->dictionary_splat) {
            TSNode d = sg_node_unparen(sg_node_named(c, 0));
            /* **name: the dict display or dict(...) it is bound to, when nothing can have changed
             * it (sg_const_dict); **self.name: the one dict display a method stores there
             * (engine__self_dict); anything else (**f(), **obj.attr, ...) may hold any keyword */
            bool named = sg_node_is(d, sy->identifier);
            if (named)
                d = cx->splat_depth < 4 ? sg_const_dict(cx->res, scope, d) : (TSNode){0};
            else if (sg_node_is(d, sy->attribute))
                d = engine__self_dict(cx, d);
            if (named && !ts_node_is_null(d) && ts_node_symbol(d) == sy->call) {
                engine__args inner;
                cx->splat_depth++; /* (D = dict(**D) would not end) */
                engine__collect_args(cx, scope, sg_node_field(d, sy->f_arguments), &inner);
                cx->splat_depth--;
                a->kw_open |= inner.kw_open || inner.npos > 0 || inner.pos_open;
                for (int i = 0; i < inner.nkw; i++) {
                    if (a->nkw < ENGINE_MAX_ARGS)
                        a->kw[a->nkw++] = inner.kw[i];
                    else
                        a->kw_open = true;
                }
            } else if (!ts_node_is_null(d) && ts_node_symbol(d) == sy->dictionary) {
                uint32_t np = sg_node_nnamed(d);
                for (uint32_t p = 0; p < np; p++) {
                    TSNode pair = sg_node_named(d, p);
                    if (ts_node_symbol(pair) != sy->pair) {
                        a->kw_open = true;
                        continue;
                    }
                    size_t kl;
                    const char *key = sg_const_str(cx->res, NULL, sg_node_field(pair, sy->f_key), &kl);
                    if (key && a->nkw < ENGINE_MAX_ARGS) {
                        a->kw[a->nkw].name = key;
                        a->kw[a->nkw].len = kl;
                        a->kw[a->nkw].value = sg_node_field(pair, sy->f_value);
                        a->nkw++;
                    } else {
                        a->kw_open = true;
                    }
                }
            } else {
                a->kw_open = true;
            }
        } else if (s == sy->list_splat) {
            a->pos_open = true;
        } else if (s != sy->comment && !a->pos_open) {
            if (a->npos < ENGINE_MAX_ARGS)
                a->pos[a->npos++] = c;
            else
                a->pos_open = true;
        }
    }
    sg_children_end(&it);
}

/* The argument at `position` or named `keyword`; null node if absent. */
static TSNode engine__arg(const engine__args *a, int position, const char *keyword)
{
    for (const char *k = keyword; k && *k;) {
        size_t kl = strcspn(k, ",");
        for (int i = 0; i < a->nkw; i++)
            if (a->kw[i].len == kl && !memcmp(a->kw[i].name, k, kl))
                return a->kw[i].value;
        k += kl;
        if (*k == ',')
            k++;
    }
    if (position >= 0 && position < a->npos)
        return a->pos[position];
    return (TSNode){0};
}

static bool engine__cands_match(char *const *patterns, size_t n, const sg_cands *c)
{
    for (int i = 0; i < c->n; i++)
        if (sg_rules_name_match(patterns, n, c->q[i]))
            return true;
    return false;
}

/* Evaluate one condition; *unsure is set when a non-literal made it match. */
/* A constant matches a path or name pattern; a file:// URL also by its path (file:///etc/shadow is
 * a read of /etc/shadow). */
static bool engine__literal_match(const sg_cond *cond, const char *s)
{
    if (sg_rules_name_match(cond->values, cond->nvalues, s))
        return true;
    if (strncasecmp(s, "file://", 7))
        return false;
    const char *path = s + 7;
    if (!strncasecmp(path, "localhost/", 10))
        path += 9;
    return sg_rules_name_match(cond->values, cond->nvalues, path);
}

/* The constants an argument stands for: an argv list's program (its first item), else the
 * constant string, else every value of a loop variable over literals (sg_const_choices); how
 * many (at most RES_MAX_CHOICES), or -1 when it is not a constant. `override` is a name written
 * as an identifier (obj.name = v). */
static int engine__literals(engine__cx *cx, sg_scope *scope, TSNode v, const char *override, const char **vals)
{
    if (override) {
        vals[0] = override;
        return 1;
    }
    const char *items[1];
    int n = sg_const_argv(cx->res, scope, v, items, 1);
    if (n >= 0) { /* an argv: judged by its program alone, a constant or not */
        vals[0] = n ? items[0] : NULL;
        return vals[0] ? 1 : -1;
    }
    return sg_const_choices(cx->res, scope, v, vals, RES_MAX_CHOICES); /* (a constant first) */
}

/* A Python int literal's value ("0o4755", "0x9ed", "2541", "0b1_0"); false if it is none. */
static bool engine__int_literal(const char *t, size_t l, unsigned long long *ret)
{
    char buf[40];
    size_t n = 0;
    for (size_t i = 0; i < l; i++)
        if (t[i] != '_') {
            if (n + 1 >= sizeof buf)
                return false;
            buf[n++] = t[i];
        }
    buf[n] = 0;
    int base = 10;
    const char *d = buf;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'o' || buf[1] == 'O'))
        base = 8, d = buf + 2;
    else if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
        base = 16, d = buf + 2;
    else if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        base = 2, d = buf + 2;
    char *end;
    *ret = strtoull(d, &end, base);
    return *d && !*end;
}

/* mode_bits: does the mode expression `v` carry one of the bits (int values) or names (others)
 * of `cond`? Walks `|` and `+` of literals and names. */
static bool engine__mode_bits(engine__cx *cx, sg_scope *scope, const sg_cond *cond, TSNode v, int depth)
{
    const sg_syms *sy = cx->sy;
    v = sg_node_unparen(v);
    if (ts_node_is_null(v) || depth > 16)
        return false;
    TSSymbol s = ts_node_symbol(v);
    if (s == sy->binary_operator) {
        size_t ol;
        const char *o = sg_node_text(cx->src, sg_node_field(v, sy->f_operator), &ol);
        if (ol != 1 || (*o != '|' && *o != '+'))
            return false;
        return engine__mode_bits(cx, scope, cond, sg_node_field(v, sy->f_left), depth + 1) ||
               engine__mode_bits(cx, scope, cond, sg_node_field(v, sy->f_right), depth + 1);
    }
    if (s == sy->integer) {
        size_t l;
        const char *t = sg_node_text(cx->src, v, &l);
        unsigned long long x, bit;
        if (!engine__int_literal(t, l, &x))
            return false;
        for (size_t i = 0; i < cond->nvalues; i++)
            if (engine__int_literal(cond->values[i], strlen(cond->values[i]), &bit) && (x & bit))
                return true;
        return false;
    }
    sg_cands c;
    sg_resolve_expr(cx->res, scope, v, &c);
    return engine__cands_match(cond->values, cond->nvalues, &c);
}

static bool engine__key_matches(engine__cx *cx, const sg_cond *cond, TSNode k)
{
    const char *t = sg_const_str(cx->res, NULL, k, NULL);
    return t && sg_rules_name_match(cond->values, cond->nvalues, t);
}

/* A key matching `cond` stored into the mapping named like `id` anywhere in its block:
 * name[K] = v, name.update(K=v) or name.update({K: v}), name.setdefault(K, v). (By name only, in
 * any scope: a key this rule names is worth a look wherever it is stored.) */
static bool engine__dict_stores(engine__cx *cx, const sg_cond *cond, TSNode id)
{
    const sg_syms *sy = cx->sy;
    size_t nl;
    const char *name = engine__text(cx, id, &nl);
    if (!name || !nl)
        return false;
    if (!sg_resolver_scan(cx->res, 0, ts_node_start_point(id)))
        return false; /* (the analysis is incomplete there: SG002) */
    sg_walk w;
    sg_walk_init(&w, ts_tree_root_node(id.tree));
    bool found = false;
    unsigned long steps = 0;
    TSNode n;
    unsigned depth;
    while (!found && sg_walk_next(&w, true, &n, &depth)) {
        steps++;
        TSNode target = {0}, key = {0}, args = {0};
        const char *method = NULL;
        size_t ml = 0;
        if (sg_node_is(n, sy->assignment) && sg_node_is(sg_node_field(n, sy->f_left), sy->subscript)) {
            target = sg_node_field(sg_node_field(n, sy->f_left), sy->f_value);
            key = sg_node_field(sg_node_field(n, sy->f_left), sy->f_subscript);
        } else if (sg_node_is(n, sy->call) && sg_node_is(sg_node_field(n, sy->f_function), sy->attribute)) {
            TSNode fn = sg_node_field(n, sy->f_function);
            target = sg_node_field(fn, sy->f_object);
            method = engine__text(cx, sg_node_field(fn, sy->f_attribute), &ml);
            args = sg_node_field(n, sy->f_arguments);
        }
        size_t tl;
        const char *tt = sg_node_is(target, sy->identifier) ? engine__text(cx, target, &tl) : NULL;
        if (tt && tl == nl && !memcmp(tt, name, nl)) {
            if (!ts_node_is_null(key)) {
                found = engine__key_matches(cx, cond, key);
            } else if (method && sg_node_is(args, sy->argument_list)) {
                bool update = ml == 6 && !memcmp(method, "update", 6);
                bool set = (ml == 10 && !memcmp(method, "setdefault", 10)) ||
                           (ml == 11 && !memcmp(method, "__setitem__", 11));
                for (uint32_t i = 0; i < sg_node_nnamed(args) && !found; i++) {
                    TSNode a = sg_node_named(args, i);
                    if (set && i == 0)
                        found = engine__key_matches(cx, cond, a);
                    else if (update && sg_node_is(a, sy->keyword_argument)) {
                        size_t kl;
                        const char *kt = engine__text(cx, sg_node_field(a, sy->f_name), &kl);
                        char kn[128];
                        if (kt && kl < sizeof kn) {
                            memcpy(kn, kt, kl);
                            kn[kl] = 0;
                            found = sg_rules_name_match(cond->values, cond->nvalues, kn);
                        }
                    } else if (update && sg_node_is(a, sy->dictionary)) {
                        for (uint32_t j = 0; j < sg_node_nnamed(a) && !found; j++)
                            if (sg_node_is(sg_node_named(a, j), sy->pair))
                                found = engine__key_matches(cx, cond, sg_node_field(sg_node_named(a, j), sy->f_key));
                    }
                }
            }
        }
    }
    sg_walk_end(&w);
    sg_resolver_scan(cx->res, steps, ts_node_start_point(id));
    return found;
}

static bool engine__dict_keys_at(engine__cx *cx, sg_scope *scope, const sg_cond *cond, TSNode v, int depth);

/* dict_keys_in: a mapping written out, {"K": v, **base} or dict(base, K=v), with a constant key
 * matching `cond`'s globs; or a name such a mapping is assigned to, or one a matching key is
 * stored into (engine__dict_stores). */
static bool engine__dict_keys(engine__cx *cx, sg_scope *scope, const sg_cond *cond, TSNode v)
{
    return engine__dict_keys_at(cx, scope, cond, v, 0);
}

static bool engine__dict_keys_at(engine__cx *cx, sg_scope *scope, const sg_cond *cond, TSNode v, int depth)
{
    const sg_syms *sy = cx->sy;
    v = sg_node_unparen(v);
    if (ts_node_is_null(v))
        return false;
    TSSymbol s = ts_node_symbol(v);
    if (s == sy->identifier) {
        /* a mapping made elsewhere: what the name is assigned (env = dict(os.environ, K=v)),
         * and what is stored into it (env["K"] = v) */
        TSNode vals[8];
        int k = depth < 3 ? sg_name_values(cx->res, scope, v, vals, 8) : 0;
        for (int i = 0; i < k; i++)
            if (!ts_node_eq(vals[i], v) && engine__dict_keys_at(cx, scope, cond, vals[i], depth + 1))
                return true;
        return engine__dict_stores(cx, cond, v);
    }
    uint32_t n = sg_node_nnamed(v);
    if (s == sy->dictionary) {
        for (uint32_t i = 0; i < n; i++) {
            TSNode p = sg_node_named(v, i);
            if (!sg_node_is(p, sy->pair))
                continue;
            const char *k = sg_const_str(cx->res, scope, sg_node_field(p, sy->f_key), NULL);
            if (k && sg_rules_name_match(cond->values, cond->nvalues, k))
                return true;
        }
        return false;
    }
    if (s == sy->call) {
        TSNode fn = sg_node_unparen(sg_node_field(v, sy->f_function));
        size_t fl;
        const char *ft = sg_node_is(fn, sy->identifier) ? sg_node_text(cx->src, fn, &fl) : NULL;
        TSNode args = sg_node_field(v, sy->f_arguments);
        if (!ft || fl != 4 || memcmp(ft, "dict", 4) || !sg_node_is(args, sy->argument_list))
            return false;
        uint32_t na = sg_node_nnamed(args);
        for (uint32_t i = 0; i < na; i++) {
            TSNode kw = sg_node_named(args, i);
            if (!sg_node_is(kw, sy->keyword_argument))
                continue;
            size_t l;
            const char *t = sg_node_text(cx->src, sg_node_field(kw, sy->f_name), &l);
            char name[128];
            if (!t || l == 0 || l >= sizeof name)
                continue;
            memcpy(name, t, l);
            name[l] = 0;
            if (sg_rules_name_match(cond->values, cond->nvalues, name))
                return true;
        }
    }
    return false;
}

/* The shape of item `i` of argv display `v` that is not a constant: its constant parts, each
 * value that is not one written "x" ("-oProxyCommand=" + c -> "-oProxyCommand=x", an f-string
 * with its interpolations as "x"), built from `+` and f-strings only; NULL for anything else or
 * an item with no constant part. */
static const char *engine__argv_item_shape(engine__cx *cx, sg_scope *scope, TSNode v, int i)
{
    const sg_syms *sy = cx->sy;
    v = sg_node_unparen(v);
    if (!sg_node_is(v, sy->list) && !sg_node_is(v, sy->tuple))
        return NULL;
    int k = 0;
    TSNode item = {0};
    for (uint32_t j = 0; j < sg_node_nnamed(v); j++) {
        TSNode c = sg_node_named(v, j);
        if (sg_node_is(c, sy->comment))
            continue;
        if (k++ == i) {
            item = c;
            break;
        }
    }
    item = sg_node_unparen(item);
    if (ts_node_is_null(item))
        return NULL;
    if (sg_node_is(item, sy->string))
        return sg_fstring_skeleton(cx->res, item);
    if (!sg_node_is(item, sy->binary_operator))
        return NULL;
    size_t ol;
    const char *op = engine__text(cx, sg_node_field(item, sy->f_operator), &ol);
    if (ol != 1 || *op != '+')
        return NULL;
    const char *l = sg_const_str(cx->res, scope, sg_node_field(item, sy->f_left), NULL);
    const char *r = sg_const_str(cx->res, scope, sg_node_field(item, sy->f_right), NULL);
    if (!l && !r)
        return NULL;
    return sg_arena_printf(cx->arena, "%s%s", l ? l : "x", r ? r : "x");
}

/* not_python_module_in: is `v` an argv that starts a Python interpreter on a module by name (the
 * caller checks that no executable= names another program),
 * [python3, <flags>, "-m", M, ...] or "-mM", with M (or "M ARG", the module and its first
 * argument, both constants) matching `cond`'s globs? Only
 * flags that take no code may come before -m (-c, -, -i, a script... do not). What follows M is
 * M's own arguments. */
static bool engine__python_module(engine__cx *cx, sg_scope *scope, const sg_cond *cond, TSNode v)
{
    const char *items[ENGINE_MAX_ARGV];
    int n = sg_const_argv(cx->res, scope, v, items, ENGINE_MAX_ARGV);
    if (n < 2 || !items[0])
        return false;
    const char *prog = strrchr(items[0], '/');
    prog = prog ? prog + 1 : items[0];
    char *const py[] = {"python", "python3", "python3.*", "python2", "python2.*"};
    if (!sg_rules_name_match(py, sizeof py / sizeof py[0], prog))
        return false;
    static const char *const flags[] = {"-u", "-B", "-E", "-I", "-s", "-S", "-O", "-OO", "-q", "-b", "-bb", "-P"};
    for (int i = 1; i < n; i++) {
        const char *t = items[i];
        if (!t)
            return false;
        if (!strncmp(t, "-m", 2)) {
            int mi = t[2] ? i : i + 1;
            const char *m = t[2] ? t + 2 : (mi < n ? items[mi] : NULL);
            if (!m || !*m)
                return false;
            if (sg_rules_name_match(cond->values, cond->nvalues, m))
                return true;
            /* "M ARG": the module with its first argument, a constant ("pip list") */
            const char *arg = mi + 1 < n ? items[mi + 1] : NULL;
            return arg && sg_rules_name_match(cond->values, cond->nvalues, sg_arena_printf(cx->arena, "%s %s", m, arg));
        }
        bool ok = false;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0] && !ok; k++)
            ok = !strcmp(t, flags[k]);
        if (!ok && (!strcmp(t, "-W") || !strcmp(t, "-X")) && i + 1 < n && items[i + 1]) {
            i++; /* (-W action, -X option: their argument) */
            ok = true;
        }
        if (!ok && (!strncmp(t, "-W", 2) || !strncmp(t, "-X", 2)) && t[2])
            ok = true;
        if (!ok)
            return false;
    }
    return false;
}

static bool engine__cond(engine__cx *cx, sg_scope *scope, const sg_cond *cond, const engine__args *a, bool *unsure)
{
    TSNode v = cond->receiver ? a->receiver : engine__arg(a, cond->position, cond->keyword);
    bool present = !ts_node_is_null(v);
    const char *override = NULL;
    if (present && cond->position >= 0 && cond->position < 3 && cond->position < a->npos &&
        ts_node_eq(v, a->pos[cond->position]))
        override = a->pos_text[cond->position];
    switch (cond->op) {
    case SG_COND_ABSENT:
        return !present && !a->kw_open && !(cond->position >= a->npos && a->pos_open);
    case SG_COND_PRESENT:
        return present;
    case SG_COND_TRUTHY: {
        if (!present) {
            /* **mapping or *sequence may carry it: cannot prove it absent */
            bool hidden = (cond->keyword && a->kw_open) || (cond->position >= a->npos && a->pos_open);
            if (hidden)
                *unsure = true;
            return hidden;
        }
        int t = sg_literal_truthy(cx->res, scope, v);
        if (t < 0) {
            *unsure = true;
            return true;
        }
        return t == 1;
    }
    case SG_COND_FALSY:
        return present && sg_literal_truthy(cx->res, scope, v) == 0;
    case SG_COND_NOT_LITERAL: {
        const char *vals[RES_MAX_CHOICES];
        return present && !sg_is_literal(cx->res, scope, v) && engine__literals(cx, scope, v, NULL, vals) < 0;
    }
    case SG_COND_LITERAL_IN: {
        if (!present)
            return false;
        /* an argv list or tuple is judged by its program, the first element; a loop variable
         * over literals by each of them */
        const char *vals[RES_MAX_CHOICES];
        int n = engine__literals(cx, scope, v, override, vals);
        for (int i = 0; i < n; i++)
            if (engine__literal_match(cond, vals[i]))
                return true;
        return false;
    }
    case SG_COND_NOT_LITERAL_IN: {
        if (!present)
            return !a->kw_open && !(cond->position >= a->npos && a->pos_open);
        const char *vals[RES_MAX_CHOICES];
        int n = engine__literals(cx, scope, v, override, vals);
        if (n < 0) {
            *unsure = true;
            return true;
        }
        for (int i = 0; i < n; i++)
            if (engine__literal_match(cond, vals[i]))
                return false;
        return true;
    }
    case SG_COND_IS_STRING:
        return present && sg_is_stringish(cx->res, scope, v);
    case SG_COND_UNKNOWN_PROGRAM: {
        if (!present)
            return false;
        const char *items[1];
        int n = sg_const_argv(cx->res, scope, v, items, 1);
        if (n >= 0)
            return n == 0 || !items[0];
        return !sg_const_str(cx->res, scope, v, NULL);
    }
    case SG_COND_ARGV_CONTAINS: {
        if (!present)
            return false;
        const char *items[ENGINE_MAX_ARGV];
        int n = sg_const_argv(cx->res, scope, v, items, ENGINE_MAX_ARGV);
        for (int i = 1; i < n; i++) {
            /* an item built from a constant and a value ("core.sshCommand=" + cmd,
             * f"--rsh={cmd}") is judged by its shape, the value standing as "x" */
            const char *t = items[i] ? items[i] : engine__argv_item_shape(cx, scope, v, i);
            if (t && sg_rules_name_match(cond->values, cond->nvalues, t))
                return true;
        }
        return false;
    }
    case SG_COND_DICT_KEYS_IN:
        return present && engine__dict_keys(cx, scope, cond, v);
    case SG_COND_NOT_PYTHON_MODULE_IN:
        /* (with executable=, argv[0] is not the program that starts) */
        return !present || !ts_node_is_null(engine__arg(a, -1, "executable")) || a->kw_open ||
               !engine__python_module(cx, scope, cond, v);
    case SG_COND_MODE_BITS:
        return present && engine__mode_bits(cx, scope, cond, v, 0);
    case SG_COND_RESOLVES_IN:
    case SG_COND_NOT_RESOLVES_IN: {
        if (!present)
            return cond->op == SG_COND_NOT_RESOLVES_IN && !a->kw_open;
        sg_cands c;
        sg_resolve_expr(cx->res, scope, v, &c);
        bool in = engine__cands_match(cond->values, cond->nvalues, &c);
        return cond->op == SG_COND_RESOLVES_IN ? in : !in;
    }
    }
    return false;
}

static bool engine__where(engine__cx *cx, sg_scope *scope, const sg_rule *r, const engine__args *a, bool *unsure)
{
    if (!r->calls.nwhere)
        return true;
    bool all_unsure = false; /* from where[0..nall): the conditions that must all hold */
    for (size_t i = 0; i < r->calls.nwhere; i++) {
        bool u = false;
        bool ok = engine__cond(cx, scope, &r->calls.where[i], a, &u);
        if (i < r->calls.nall) {
            if (!ok)
                return false;
            all_unsure |= u;
            continue;
        }
        if (r->calls.where_any && ok) {
            *unsure = u || all_unsure;
            return true;
        }
        if (!r->calls.where_any && !ok)
            return false;
        *unsure |= u;
    }
    return !r->calls.where_any;
}

/* ------------------------------------------------------------------------------------------ */
/* Network hosts                                                                                */

/* A destination that is no host at all: a file:// URL (a file read, judged by the file rules), or a
 * complete literal that cannot be a host name (empty, or text with spaces). */
static const char engine__nohost[] = "";

/* Host of a URL or host string, lowercased, in the arena; NULL if none can be read, engine__nohost
 * if the literal names no host. `complete` is false for an f-string prefix that may not hold the
 * whole host. */
static const char *engine__host(engine__cx *cx, const char *s, bool complete)
{
    if (!strncasecmp(s, "file:", 5))
        return engine__nohost;
    const char *p = strstr(s, "://");
    const char *h = p ? p + 3 : s;
    if (!p && !complete)
        return NULL;
    const char *end = h + strcspn(h, "/?#");
    if (!*end && !complete)
        return NULL; /* f"https://{x}" or f"https://api.{x}" : host not fully known */
    const char *at = memchr(h, '@', (size_t)(end - h));
    if (at)
        h = at + 1;
    const char *hend;
    if (*h == '[') {
        const char *rb = memchr(h, ']', (size_t)(end - h));
        if (!rb)
            return NULL;
        h++;
        hend = rb;
    } else {
        hend = memchr(h, ':', (size_t)(end - h));
        if (!hend)
            hend = end;
    }
    size_t n = (size_t)(hend - h);
    while (n && h[n - 1] == '.')
        n--;
    if (!n || n > 253)
        return complete && !p && !*s ? engine__nohost : NULL;
    char *out = sg_arena_strndup(cx->arena, h, n);
    if (!out)
        return NULL;
    for (char *q = out; *q; q++) {
        *q = (char)tolower((unsigned char)*q);
        if (isspace((unsigned char)*q))
            return complete && !p ? engine__nohost : NULL; /* "this is safe" is no host */
    }
    return out;
}

static const char *engine__host_of(engine__cx *cx, sg_scope *scope, TSNode v)
{
    const sg_syms *sy = cx->sy;
    if (ts_node_is_null(v))
        return NULL;
    while (ts_node_symbol(v) == sy->parenthesized_expression && sg_node_nnamed(v) == 1)
        v = sg_node_named(v, 0);
    if (ts_node_symbol(v) == sy->tuple && sg_node_nnamed(v) >= 1)
        v = sg_node_named(v, 0);
    const char *s = sg_const_str(cx->res, scope, v, NULL);
    if (s)
        return engine__host(cx, s, true);
    /* "https://host/" + path, "https://host/%s" % x, "https://host/{}".format(x): the constant
     * part fixes the host when it reaches past it. */
    TSNode prefix = {0};
    if (ts_node_symbol(v) == sy->binary_operator) {
        size_t ol;
        const char *op = engine__text(cx, sg_node_field(v, sy->f_operator), &ol);
        if (ol == 1 && (*op == '+' || *op == '%'))
            prefix = sg_node_field(v, sy->f_left);
    } else if (ts_node_symbol(v) == sy->call) {
        TSNode fn = sg_node_field(v, sy->f_function);
        size_t al;
        if (ts_node_symbol(fn) == sy->attribute &&
            (engine__text(cx, sg_node_field(fn, sy->f_attribute), &al), al == 6) &&
            !memcmp(engine__text(cx, sg_node_field(fn, sy->f_attribute), &al), "format", 6))
            prefix = sg_node_field(fn, sy->f_object);
    }
    if (!ts_node_is_null(prefix)) {
        const char *p = sg_const_str(cx->res, scope, prefix, NULL);
        const char *h = p ? engine__host(cx, p, false) : NULL;
        if (h && !strpbrk(h, "%{}"))
            return h;
        return NULL;
    }
    if (ts_node_symbol(v) == sy->string) {
        const char *pre = sg_fstring_prefix(cx->res, v);
        if (pre)
            return engine__host(cx, pre, false);
    }
    return NULL;
}

static void engine__network(engine__cx *cx, sg_scope *scope, const sg_rule *r, TSPoint start, TSPoint end,
                            const engine__args *a, const char *qname)
{
    const char *host = NULL;
    if (r->network.host_position >= 0 || r->network.host_keyword)
        host = engine__host_of(cx, scope, engine__arg(a, r->network.host_position, r->network.host_keyword));
    if (host == engine__nohost || (host && sg_rules_host_allowed(cx->rules, host)))
        return;
    if (r->network.unverifiable && !host)
        sg_engine_hit(cx->out, r, start, end,
                      sg_arena_printf(cx->arena, "%s: %s() with a host the gate cannot determine", r->info.message,
                                      qname),
                      NULL);
    else if (!r->network.unverifiable && host)
        sg_engine_hit(cx->out, r, start, end,
                      sg_arena_printf(cx->arena, "%s: %s() to host '%s', which is not on the allow-list",
                                      r->info.message, qname, host),
                      NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Visitors                                                                                     */

static bool engine__root_known(engine__cx *cx, const char *q)
{
    return sg_rules_root_known(cx->rules, q, strcspn(q, "."));
}

/* Imports rules for module names; at most one hit per rule. */
static void engine__import_names(engine__cx *cx, TSNode at, const char *const *mods, int nmods)
{
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || r->kind != SG_KIND_IMPORTS)
            continue;
        for (int m = 0; m < nmods; m++)
            if (mods[m] && sg_patterns_match(&r->imports.names, mods[m])) {
                engine__hit(cx, r, at, sg_arena_printf(cx->arena, "%s: import of %s", r->info.message, mods[m]), NULL);
                break;
            }
    }
}

static void engine__on_import(engine__cx *cx, TSNode n)
{
    const sg_syms *sy = cx->sy;
    bool from = ts_node_symbol(n) == sy->import_from_statement;
    TSNode modnode = from ? sg_node_field(n, sy->f_module_name) : (TSNode){0};
    const char *module = NULL;
    if (from) {
        if (ts_node_is_null(modnode) || ts_node_symbol(modnode) == sy->relative_import)
            return;
        module = sg_dotted_name(cx->res, modnode);
    }
    uint32_t k = sg_node_nnamed(n);
    if (from) {
        const char *mods[1 + ENGINE_MAX_ARGS];
        int nm = 0;
        mods[nm++] = module;
        /* Every imported name counts (in batches; a rule hitting in two batches gives two hits at
         * the same place, which the report merges). */
        sg_children it;
        TSNode c;
        sg_children_init(&it, n);
        while (sg_children_next(&it, &c)) {
            if (ts_node_eq(c, modnode))
                continue;
            TSNode name = ts_node_symbol(c) == sy->aliased_import ? sg_node_field(c, sy->f_name) : c;
            if (ts_node_symbol(name) != sy->dotted_name)
                continue;
            if (nm == 1 + ENGINE_MAX_ARGS) {
                engine__import_names(cx, modnode, mods, nm);
                nm = 1;
            }
            mods[nm++] = sg_arena_printf(cx->arena, "%s.%s", module, sg_dotted_name(cx->res, name));
        }
        sg_children_end(&it);
        engine__import_names(cx, modnode, mods, nm);
        return;
    }
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = sg_node_named(n, i);
        TSNode name = ts_node_symbol(c) == sy->aliased_import ? sg_node_field(c, sy->f_name) : c;
        if (ts_node_symbol(name) != sy->dotted_name)
            continue;
        const char *m = sg_dotted_name(cx->res, name);
        engine__import_names(cx, name, &m, 1);
    }
}

/* Attribute names that rules of kind `attributes` list. */
static const sg_rule *engine__attr_rule(engine__cx *cx, const char *name)
{
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (r->info.enabled && r->kind == SG_KIND_ATTRIBUTES && sg_patterns_match(&r->attributes.names, name))
            return r;
    }
    return NULL;
}

/* The argument at `position` / `keyword` is absent or None. */
static bool engine__none_or_absent(engine__cx *cx, const engine__args *a, int position, const char *keyword)
{
    TSNode v = engine__arg(a, position, keyword);
    return ts_node_is_null(v) || ts_node_symbol(v) == cx->sy->none;
}

/* A doctest runner over the snippet's own docstrings, whose examples were all read and checked
 * (sg_engine_out.own_doctests): testmod() and DocTestSuite() of the calling module with its own
 * globals, run_docstring_examples(f, globals()) of a function or class the snippet defines.
 * Anything else (another module, other globals, a file, a string) runs code the gate has not
 * seen, and SG106 reports it. */
static bool engine__own_doctest_runner(engine__cx *cx, const char *q, const engine__args *a)
{
    if (!cx->out->own_doctests || a->pos_open || a->kw_open)
        return false;
    if (!strcmp(q, "doctest.testmod"))
        return engine__none_or_absent(cx, a, 0, "m") && engine__none_or_absent(cx, a, 2, "globs") &&
               engine__none_or_absent(cx, a, 6, "extraglobs");
    if (!strcmp(q, "doctest.DocTestSuite"))
        return engine__none_or_absent(cx, a, 0, "module") && engine__none_or_absent(cx, a, 1, "globs") &&
               engine__none_or_absent(cx, a, 2, "extraglobs") && engine__none_or_absent(cx, a, 3, "test_finder");
    if (!strcmp(q, "doctest.run_docstring_examples")) {
        TSNode f = engine__arg(a, 0, "f"), g = engine__arg(a, 1, "globs");
        if (ts_node_is_null(f) || ts_node_symbol(f) != cx->sy->identifier || ts_node_is_null(g) ||
            ts_node_symbol(g) != cx->sy->call)
            return false;
        size_t fl, gl;
        const char *ft = engine__text(cx, f, &fl);
        const char *gt = engine__text(cx, g, &gl);
        return sg_doctest_own_name(cx->out->own_doctests, ft, fl) && gl == 9 && !memcmp(gt, "globals()", 9);
    }
    return false;
}

/* Match the calls and network rules against one call (or what stands for one): `c` the callee's
 * names, `a` its arguments, reported at [start, end). `text` is how the callee is written, `how` a
 * description replacing "called as" (an assignment), and `forwarded` marks a callable handed to a
 * forwarder (partial, Thread...): then only the rules a reference to it would not report. */
static void engine__match_call(engine__cx *cx, sg_scope *scope, const sg_cands *c, const engine__args *a,
                               TSPoint start, TSPoint end, TSNode text, const char *how, bool forwarded)
{
    const char *fn_text = NULL;
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || (r->kind != SG_KIND_CALLS && r->kind != SG_KIND_NETWORK))
            continue;
        if (forwarded && r->kind == SG_KIND_CALLS && r->calls.references)
            continue;
        const sg_patterns *names = r->kind == SG_KIND_CALLS ? &r->calls.names : &r->network.names;
        for (int k = 0; k < c->n; k++) {
            if (!sg_patterns_match(names, c->q[k]))
                continue;
            if (r->kind == SG_KIND_NETWORK) {
                engine__network(cx, scope, r, start, end, a, c->q[k]);
                break;
            }
            bool unsure = false;
            if (!engine__where(cx, scope, r, a, &unsure))
                continue;
            if (!how && !forwarded && engine__own_doctest_runner(cx, c->q[k], a))
                continue;
            if (!fn_text)
                fn_text = engine__excerpt(cx, text);
            const char *msg;
            const char *why = unsure ? " (argument is not a literal: cannot prove it safe)" : "";
            size_t ql = strlen(c->q[k]);
            if (how)
                msg = sg_arena_printf(cx->arena, "%s: %s `%s`%s", r->info.message, how, fn_text, why);
            else if (forwarded)
                msg = sg_arena_printf(cx->arena, "%s: %s() passed as `%s` to a function that calls it%s",
                                      r->info.message, c->q[k], fn_text, why);
            else if (strlen(fn_text) == ql && !memcmp(fn_text, c->q[k], ql))
                msg = unsure ? sg_arena_printf(cx->arena, "%s%s", r->info.message, why) : r->info.message;
            else
                msg = sg_arena_printf(cx->arena, "%s: %s() called as `%s`%s", r->info.message, c->q[k], fn_text, why);
            if (cx->out->own_doctests_why && msg && !how && !forwarded &&
                (!strcmp(c->q[k], "doctest.testmod") || !strcmp(c->q[k], "doctest.DocTestSuite") ||
                 !strcmp(c->q[k], "doctest.run_docstring_examples")))
                msg = sg_arena_printf(cx->arena, "%s (the snippet's own doctests cannot all be checked: %s)", msg,
                                      cx->out->own_doctests_why);
            sg_engine_hit(cx->out, r, start, end, msg, unsure ? "medium" : NULL);
            break;
        }
    }
}

/* Copy the keywords of `from` (but `skip`) into `to`. */
static void engine__copy_keywords(const engine__args *from, const char *skip, engine__args *to)
{
    size_t sl = skip ? strlen(skip) : 0;
    for (int i = 0; i < from->nkw && to->nkw < ENGINE_MAX_ARGS; i++) {
        if (skip && from->kw[i].len == sl && !memcmp(from->kw[i].name, skip, sl))
            continue;
        to->kw[to->nkw++] = from->kw[i];
    }
    to->kw_open |= from->kw_open;
}

/* A forwarder (functools.partial(f, ...), threading.Thread(target=f, args=...), atexit.register...)
 * calls f with the arguments it is given: judge that call, at the place f is passed. */
static void engine__forwarded(engine__cx *cx, sg_scope *scope, const sg_pyname_forward *fw, const engine__args *a)
{
    const sg_syms *sy = cx->sy;
    TSNode target = engine__arg(a, fw->pos, fw->kw);
    if (ts_node_is_null(target))
        return;
    sg_cands c;
    sg_resolve_expr(cx->res, scope, target, &c);
    bool any = false;
    for (int i = 0; i < c.n && !any; i++)
        any = engine__root_known(cx, c.q[i]);
    if (!any)
        return;
    engine__args f;
    memset(&f, 0, sizeof f);
    if (fw->args_kw) {
        TSNode t = engine__arg(a, -1, fw->args_kw);
        while (sg_node_is(t, sy->parenthesized_expression) && sg_node_nnamed(t) == 1)
            t = sg_node_named(t, 0);
        if (sg_node_is(t, sy->tuple) || sg_node_is(t, sy->list)) {
            uint32_t k = sg_node_nnamed(t);
            for (uint32_t i = 0; i < k; i++) {
                TSNode e = sg_node_named(t, i);
                if (sg_node_is(e, sy->list_splat) || f.npos == ENGINE_MAX_ARGS) {
                    f.pos_open = true;
                    break;
                }
                f.pos[f.npos++] = e;
            }
        } else if (!ts_node_is_null(t)) {
            f.pos_open = true;
        }
    } else if (fw->args_from >= 0) {
        for (int i = fw->args_from; i < a->npos; i++)
            f.pos[f.npos++] = a->pos[i];
        f.pos_open = a->pos_open;
    }
    if (fw->kwargs_kw) {
        TSNode d = engine__arg(a, -1, fw->kwargs_kw);
        if (sg_node_is(d, sy->dictionary)) {
            uint32_t np = sg_node_nnamed(d);
            for (uint32_t p = 0; p < np; p++) {
                TSNode pair = sg_node_named(d, p);
                size_t kl;
                const char *key = sg_node_is(pair, sy->pair)
                                      ? sg_const_str(cx->res, scope, sg_node_field(pair, sy->f_key), &kl)
                                      : NULL;
                if (key && f.nkw < ENGINE_MAX_ARGS) {
                    f.kw[f.nkw].name = key;
                    f.kw[f.nkw].len = kl;
                    f.kw[f.nkw].value = sg_node_field(pair, sy->f_value);
                    f.nkw++;
                } else {
                    f.kw_open = true;
                }
            }
        } else if (!ts_node_is_null(d)) {
            f.kw_open = true;
        }
    } else {
        engine__copy_keywords(a, fw->kw, &f);
    }
    engine__match_call(cx, scope, &c, &f, ts_node_start_point(target), ts_node_end_point(target), target, NULL, true);
}

static void engine__on_call(engine__cx *cx, TSNode call, sg_scope *scope, TSNode fn)
{
    const sg_syms *sy = cx->sy;
    sg_cands c;
    sg_resolve_expr(cx->res, scope, fn, &c);
    bool any = false;
    for (int i = 0; i < c.n && !any; i++)
        any = engine__root_known(cx, c.q[i]) || sg_pyname_special_callee(c.q[i]);
    if (!any) {
        /* operator.methodcaller("system", ...)(obj) calls obj.system */
        if (!sg_resolve_methodcaller(cx->res, scope, call, &c))
            return;
        for (int i = 0; i < c.n && !any; i++)
            any = engine__root_known(cx, c.q[i]);
        if (!any)
            return;
    }
    engine__args a;
    engine__collect_args(cx, scope, sg_node_field(call, sy->f_arguments), &a);
    /* A method is reported on its own line: `(Session()\n .get(url))` at .get. */
    TSPoint start = ts_node_start_point(fn), end = ts_node_end_point(fn);
    if (ts_node_symbol(fn) == sy->attribute) {
        a.receiver = sg_node_field(fn, sy->f_object);
        TSPoint at = ts_node_start_point(sg_node_field(fn, sy->f_attribute));
        if (at.row != start.row)
            start = at;
    }
    engine__match_call(cx, scope, &c, &a, start, end, fn, NULL, false);
    /* Dynamic imports count as imports; constant getattr names as attribute access; forwarders
     * call what they are given. */
    for (int k = 0; k < c.n; k++) {
        const char *q = c.q[k];
        const sg_pyname_forward *fw = sg_pyname_forwarder(q, NULL);
        if (fw)
            engine__forwarded(cx, scope, fw, &a);
        sg_pyname_import imp = sg_pyname_importer(q);
        if (imp != SG_PYNAME_IMPORT_NONE && a.npos >= 1) {
            const char *m = sg_const_str(cx->res, scope, a.pos[0], NULL);
            if (m && imp == SG_PYNAME_IMPORT_RESOLVE && strchr(m, ':'))
                m = sg_arena_strndup(cx->arena, m, strcspn(m, ":"));
            if (m && *m)
                engine__import_names(cx, call, &m, 1);
        }
        int name_pos = sg_pyname_getattr_arg(q); /* getattr-like: where the attribute name is */
        if (name_pos < 0)
            continue;
        TSNode name_arg = engine__arg(&a, name_pos, NULL);
        if (ts_node_is_null(name_arg))
            continue;
        const char *an = sg_const_str(cx->res, scope, name_arg, NULL);
        if (an) {
            const sg_rule *r = engine__attr_rule(cx, an);
            if (r)
                engine__hit(cx, r, name_arg,
                            sg_arena_printf(cx->arena, "%s: %s(..., \"%s\")", r->info.message, q, an), NULL);
        } else if (cx->has_dynattr && strcmp(q, "operator.attrgetter") && a.npos >= 1) {
            const sg_rule *r = sg_rules_builtin(cx->rules, SG_BUILTIN_DYNAMIC_ATTRIBUTE);
            sg_cands base;
            sg_resolve_expr(cx->res, scope, a.pos[0], &base);
            if (r && engine__cands_match(r->builtin.modules.v, r->builtin.modules.n, &base))
                engine__hit(cx, r, call,
                            sg_arena_printf(cx->arena, "%s: %s(%s, <computed name>)", r->info.message, q, base.q[0]),
                            NULL);
        }
    }
}

/* `ns[<computed key>]` where ns is a module namespace the dynamic-attribute rule is about
 * (vars(os), os.__dict__, globals(), sys.modules, builtins.__dict__): a name nobody can read. */
static void engine__on_subscript(engine__cx *cx, TSNode n, sg_scope *scope)
{
    const sg_syms *sy = cx->sy;
    TSNode key = sg_node_field(n, sy->f_subscript);
    TSSymbol ks = ts_node_symbol(key);
    if (ks == sy->string || ks == sy->integer || ks == sy->slice || ks == sy->concatenated_string ||
        ks == sy->unary_operator || ks == sy->tuple)
        return;
    TSNode v = sg_node_unparen(sg_node_field(n, sy->f_value));
    TSSymbol vs = ts_node_symbol(v);
    if (vs != sy->call && vs != sy->attribute && vs != sy->identifier)
        return;
    sg_cands base;
    sg_resolve_expr(cx->res, scope, v, &base);
    const sg_rule *r = base.n ? sg_rules_builtin(cx->rules, SG_BUILTIN_DYNAMIC_ATTRIBUTE) : NULL;
    if (!r || !engine__cands_match(r->builtin.modules.v, r->builtin.modules.n, &base))
        return;
    if (sg_const_str(cx->res, scope, key, NULL))
        return;
    engine__hit(cx, r, n,
                sg_arena_printf(cx->arena, "%s: %s[<computed name>] (a name the gate cannot read)", r->info.message,
                                base.q[0]),
                NULL);
}

/* A dangerous callable used as a value: passed, stored, returned. */
static void engine__on_value(engine__cx *cx, TSNode v, sg_scope *scope)
{
    const sg_syms *sy = cx->sy;
    if (ts_node_is_null(v))
        return;
    TSSymbol s = ts_node_symbol(v);
    if (s != sy->identifier && s != sy->attribute && s != sy->subscript && s != sy->call)
        return;
    sg_cands c;
    sg_resolve_expr(cx->res, scope, v, &c);
    for (int k = 0; k < c.n; k++) {
        if (!engine__root_known(cx, c.q[k]))
            continue;
        for (size_t i = 0; i < cx->rules->rules.len; i++) {
            const sg_rule *r = cx->rules->rules.items[i];
            if (!r->info.enabled || r->kind != SG_KIND_CALLS || !r->calls.references)
                continue;
            if (sg_rules_name_match(r->calls.names.v, r->calls.names.n, c.q[k]))
                engine__hit(cx, r, v,
                            sg_arena_printf(cx->arena, "%s: %s used as a value (`%s`), so it can be called indirectly",
                                            r->info.message, c.q[k], engine__excerpt(cx, v)),
                            NULL);
        }
    }
}

static bool engine__placeholder(const char *v)
{
    /* "", "<password>", "{token}", "${SECRET}", "xxx", "***", "changeme"-free: only obvious fillers */
    size_t n = strlen(v);
    if (n >= 2 && ((v[0] == '<' && v[n - 1] == '>') || (v[0] == '{' && v[n - 1] == '}') ||
                   (v[0] == '$' && v[1] == '{') || (v[0] == '%' && v[1] == '(')))
        return true;
    bool all_same = true;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[0])
            all_same = false;
    return all_same && (v[0] == '*' || v[0] == 'x' || v[0] == 'X' || v[0] == '.' || v[0] == '-');
}

/* Credential-like name bound to a string literal. */
static void engine__cred_name(engine__cx *cx, sg_scope *scope, TSNode name_node, const char *name, size_t nlen,
                              TSNode value)
{
    if (ts_node_is_null(value))
        return;
    value = sg_node_unparen(value);
    TSSymbol vs = ts_node_symbol(value);
    /* a literal, or literals joined by an operator (`"chang" + "eme123"`): its constant value */
    if (vs != cx->sy->string && vs != cx->sy->concatenated_string && vs != cx->sy->binary_operator)
        return;
    const char *v = NULL;
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || r->kind != SG_KIND_CREDENTIALS || !r->credentials.has_name_re)
            continue;
        /* the whole name, however long (a 200-character name ending in _password is one too) */
        char small[128];
        char *nbuf = nlen < sizeof small ? small : sg_arena_alloc(cx->arena, nlen + 1);
        if (!nbuf)
            return; /* the arena remembers the failure: the check ends in an error */
        memcpy(nbuf, name, nlen);
        nbuf[nlen] = 0;
        if (regexec(&r->credentials.name_re, nbuf, 0, NULL, 0) != 0)
            continue;
        if (r->credentials.has_ignore_name_re && regexec(&r->credentials.ignore_name_re, nbuf, 0, NULL, 0) == 0)
            continue;
        if (!v && !(v = sg_const_str(cx->res, scope, value, NULL)))
            return;
        if (strlen(v) < r->credentials.min_length || engine__placeholder(v))
            continue;
        if (r->credentials.has_ignore_value_re && regexec(&r->credentials.ignore_value_re, v, 0, NULL, 0) == 0)
            continue;
        engine__hit(cx, r, value,
                    sg_arena_printf(cx->arena, "%s: '%s' is assigned a string literal", r->info.message, nbuf), NULL);
    }
    (void)name_node;
}

/* An assignment to an attribute or item is a call, for the rules: `obj.name = v` is
 * setattr(obj, "name", v) (`builtins.open = f`, `sys.breakpointhook = f`), `obj[k] = v` is both
 * setattr(obj, k, v) (`sys.modules["os"] = fake`, `__builtins__["eval"] = f`) and
 * obj.__setitem__(k, v) (`os.environ["PYTHONBREAKPOINT"] = "os.system"`). */
static void engine__assign_target(engine__cx *cx, sg_scope *scope, TSNode target, TSNode value)
{
    const sg_syms *sy = cx->sy;
    bool attr = ts_node_symbol(target) == sy->attribute;
    TSNode obj = attr ? sg_node_field(target, sy->f_object) : sg_node_field(target, sy->f_value);
    sg_cands base;
    sg_resolve_expr(cx->res, scope, obj, &base);
    bool any = false;
    for (int i = 0; i < base.n && !any; i++) {
        /* an object some rule's call made ("()requests.Session": resolve.c) counts by its maker */
        const char *q = strncmp(base.q[i], "()", 2) ? base.q[i] : base.q[i] + 2;
        any = engine__root_known(cx, q) || sg_pyname_special_root(q, strcspn(q, "."));
    }
    if (!any)
        return;
    engine__args a;
    memset(&a, 0, sizeof a);
    a.pos[0] = obj;
    if (attr) {
        size_t l;
        TSNode name = sg_node_field(target, sy->f_attribute);
        const char *t = engine__text(cx, name, &l);
        a.pos[1] = name;
        a.pos_text[1] = sg_arena_strndup(cx->arena, t, l);
    } else {
        a.pos[1] = sg_node_field(target, sy->f_subscript);
    }
    a.pos[2] = value;
    a.npos = ts_node_is_null(value) ? 2 : 3;
    TSPoint start = ts_node_start_point(target), end = ts_node_end_point(target);
    sg_cands set = {{"setattr"}, 1};
    engine__match_call(cx, scope, &set, &a, start, end, target, "assignment to", false);
    if (attr)
        return;
    sg_cands item = {{0}, 0};
    for (int i = 0; i < base.n; i++)
        if (engine__root_known(cx, base.q[i]))
            item.q[item.n++] = sg_arena_printf(cx->arena, "%s.__setitem__", base.q[i]);
    engine__args b;
    memset(&b, 0, sizeof b);
    b.pos[0] = a.pos[1];
    b.pos[1] = value;
    b.npos = 2;
    b.receiver = obj;
    if (item.n)
        engine__match_call(cx, scope, &item, &b, start, end, target, "assignment to", false);
}

/* Credential check for an assignment target: a name, obj.name, or obj["name"] with a constant key. */
static void engine__cred_target(engine__cx *cx, sg_scope *scope, TSNode target, TSNode value)
{
    const sg_syms *sy = cx->sy;
    if (ts_node_is_null(target) || ts_node_is_null(value))
        return;
    TSSymbol ts = ts_node_symbol(target);
    if (ts == sy->identifier || ts == sy->attribute) {
        TSNode name = ts == sy->attribute ? sg_node_field(target, sy->f_attribute) : target;
        size_t l;
        const char *t = engine__text(cx, name, &l);
        engine__cred_name(cx, scope, name, t, l, value);
    } else if (ts == sy->subscript) {
        size_t kl;
        const char *k = sg_const_str(cx->res, scope, sg_node_field(target, sy->f_subscript), &kl);
        if (k)
            engine__cred_name(cx, scope, target, k, kl, value);
    }
}

/* True if a string literal's escapes could produce letters, digits or punctuation that are not
 * in its source text (\x41, \u0041, \N{...}, octal, a backslash-newline joining two parts). */
static bool engine__escape_may_hide(const char *raw, size_t n)
{
    for (const char *p = raw; (p = memchr(p, '\\', (size_t)(raw + n - p))); p += 2) {
        if (p + 1 >= raw + n)
            return false;
        char c = p[1];
        if (c == 'x' || c == 'u' || c == 'U' || c == 'N' || c == '\n' || c == '\r' || (c >= '0' && c <= '7'))
            return true;
    }
    return false;
}

/* One pass over a literal's source: could any secret pattern's key literal be in it? */
static bool engine__secret_possible(const engine__cx *cx, const char *raw, size_t n)
{
    if (cx->secret_anchorless)
        return true;
    for (size_t i = 0; i < n; i++) {
        if (!cx->secret_first[(unsigned char)raw[i]])
            continue;
        for (size_t k = 0; k < cx->nsecret_keys; k++)
            if (cx->secret_keys[k].key[0] == raw[i] && cx->secret_keys[k].len <= n - i &&
                !memcmp(raw + i, cx->secret_keys[k].key, cx->secret_keys[k].len))
                return true;
    }
    return false;
}

static void engine__secret_prefilter(engine__cx *cx)
{
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || r->kind != SG_KIND_CREDENTIALS)
            continue;
        for (size_t k = 0; k < r->credentials.nvalue_res; k++) {
            const char *best = NULL;
            for (const char *a = r->credentials.value_anchors[k]; a && *a; a += strlen(a) + 1)
                if (!best || strlen(a) > strlen(best))
                    best = a;
            if (!best || cx->nsecret_keys == sizeof cx->secret_keys / sizeof cx->secret_keys[0]) {
                cx->secret_anchorless = true;
                continue;
            }
            cx->secret_keys[cx->nsecret_keys].key = best;
            cx->secret_keys[cx->nsecret_keys].len = strlen(best);
            cx->nsecret_keys++;
            cx->secret_first[(unsigned char)best[0]] = 1;
        }
    }
}

/* The value patterns of the credential rules on the constant value v of node n (NULL: none). */
static void engine__secret_value(engine__cx *cx, TSNode n, const char *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || r->kind != SG_KIND_CREDENTIALS || !r->credentials.nvalue_res)
            continue;
        for (size_t k = 0; k < r->credentials.nvalue_res; k++)
            if (sg_regex_anchors_in(r->credentials.value_anchors[k], v, strlen(v)) &&
                regexec(&r->credentials.value_res[k], v, 0, NULL, 0) == 0) {
                engine__hit(cx, r, n,
                            sg_arena_printf(cx->arena, "%s: the literal looks like a secret (matches %s)",
                                            r->info.message, r->credentials.value_res_src[k]),
                            NULL);
                break;
            }
    }
}

static void engine__on_string(engine__cx *cx, TSNode n, sg_scope *scope)
{
    size_t rawlen;
    const char *raw = engine__text(cx, n, &rawlen);
    if (cx->has_attr_rules && rawlen >= 6 && rawlen <= 72 && memmem(raw, rawlen, "__", 2)) {
        const char *v = sg_const_str(cx->res, NULL, n, NULL);
        const sg_rule *r = v ? engine__attr_rule(cx, v) : NULL;
        if (r && v[0] == '_')
            engine__hit(cx, r, n, sg_arena_printf(cx->arena, "%s: the string \"%s\" names it", r->info.message, v), NULL);
    }
    if (!cx->has_cred_values || rawlen < 12)
        return;
    /* Most literals (docstrings) contain no pattern's anchor: decide that on the raw source
     * text, without decoding it. Escapes could hide an anchor, so those are decoded. */
    bool concatenated = ts_node_symbol(n) == cx->sy->concatenated_string;
    if (!concatenated && !engine__escape_may_hide(raw, rawlen) && !engine__secret_possible(cx, raw, rawlen))
        return;
    const char *v = sg_const_str(cx->res, NULL, n, NULL);
    if (!v)
        v = sg_fstring_skeleton(cx->res, n); /* f"postgres://admin:pw@{host}/db" */
    engine__secret_value(cx, n, v);
    (void)scope;
}

/* A secret or an introspection name split into literals joined with `+` (`"AKIA" +
 * "IOSFODNN7EXAMPLE"`, `"__buil" + "tins__"`): the pieces are strings that match nothing, their
 * constant sum is checked once, at the outermost operator, as engine__on_string checks one. */
static void engine__on_binary(engine__cx *cx, TSNode n, sg_scope *scope)
{
    if (!cx->has_cred_values && !cx->has_attr_rules)
        return;
    size_t rawlen;
    const char *raw = engine__text(cx, n, &rawlen);
    if (rawlen < 8 || (!memchr(raw, '"', rawlen) && !memchr(raw, '\'', rawlen)))
        return; /* no literal in it: before ts_node_parent, which walks down from the root */
    TSNode up = ts_node_parent(n);
    while (!ts_node_is_null(up) && ts_node_symbol(up) == cx->sy->parenthesized_expression)
        up = ts_node_parent(up);
    if (!ts_node_is_null(up) && ts_node_symbol(up) == cx->sy->binary_operator)
        return; /* not the outermost */
    const char *v = sg_const_str(cx->res, scope, n, NULL);
    if (!v)
        return;
    const sg_rule *r = cx->has_attr_rules && v[0] == '_' && strlen(v) <= 72 ? engine__attr_rule(cx, v) : NULL;
    if (r)
        engine__hit(cx, r, n, sg_arena_printf(cx->arena, "%s: the string \"%s\" names it", r->info.message, v), NULL);
    if (cx->has_cred_values)
        engine__secret_value(cx, n, v);
}

/* A secret wrapped in an encoding (`base64.b64decode("Z2hwX0FC...").decode()`, b32, b85, hex,
 * unhexlify): the call's constant value, folded as the resolver folds decoders, is checked as a
 * literal is, at the outermost call of the chain only. Calls whose text names no decoder are not
 * folded (most calls: one memmem on their source text). */
static void engine__on_decoded(engine__cx *cx, TSNode n, sg_scope *scope)
{
    size_t rawlen;
    const char *raw = engine__text(cx, n, &rawlen);
    if (rawlen < 20 || rawlen > 4096 || (!memchr(raw, '"', rawlen) && !memchr(raw, '\'', rawlen)) ||
        (!memmem(raw, rawlen, "decode", 6) && !memmem(raw, rawlen, "unhexlify", 9) && !memmem(raw, rawlen, "a2b_", 4) &&
         !memmem(raw, rawlen, "fromhex", 7)))
        return;
    TSNode up = ts_node_parent(n);
    if (!ts_node_is_null(up) && ts_node_symbol(up) == cx->sy->attribute)
        return; /* `.decode()` or another method follows: judged there */
    const char *v = sg_const_str(cx->res, scope, n, NULL);
    if (v && strlen(v) >= 12)
        engine__secret_value(cx, n, v);
}

static bool engine__has_marker(const char *t, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        if ((t[i] | 0x20) != 'n' || (t[i + 1] | 0x20) != 'o')
            continue;
        if (!strncasecmp(t + i + 2, "qa", 2))
            return true;
        if (i + 5 <= n && !strncasecmp(t + i + 2, "sec", 3))
            return true;
    }
    return false;
}

/* Python 2 `exec "code"` parses as a statement: report it as the exec builtin. */
static void engine__on_exec_statement(engine__cx *cx, TSNode n)
{
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (r->info.enabled && r->kind == SG_KIND_CALLS &&
            sg_rules_name_match(r->calls.names.v, r->calls.names.n, "exec"))
            engine__hit(cx, r, n, sg_arena_printf(cx->arena, "%s: exec statement", r->info.message), NULL);
    }
}

static void engine__visit(void *ctx, TSNode n, sg_scope *scope)
{
    engine__cx *cx = ctx;
    const sg_syms *sy = cx->sy;
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->call) {
        engine__on_call(cx, n, scope, sg_node_field(n, sy->f_function));
        if (cx->has_cred_values)
            engine__on_decoded(cx, n, scope);
    } else if (s == sy->subscript) {
        if (cx->has_dynattr && !ts_node_eq(n, cx->store_target))
            engine__on_subscript(cx, n, scope);
    } else if (s == sy->attribute) {
        if (cx->has_attr_rules) {
            TSNode an = sg_node_field(n, sy->f_attribute);
            size_t l;
            const char *t = engine__text(cx, an, &l);
            if (l >= 2 && l < 64) {
                char buf[64];
                memcpy(buf, t, l);
                buf[l] = 0;
                const sg_rule *r = engine__attr_rule(cx, buf);
                if (r)
                    engine__hit(cx, r, an, sg_arena_printf(cx->arena, "%s: .%s", r->info.message, buf), NULL);
            }
        }
    } else if (s == sy->import_statement || s == sy->import_from_statement) {
        engine__on_import(cx, n);
    } else if (s == sy->string || s == sy->concatenated_string) {
        engine__on_string(cx, n, scope);
    } else if (s == sy->binary_operator) {
        engine__on_binary(cx, n, scope);
    } else if (s == sy->assignment) {
        TSNode left = sg_node_field(n, sy->f_left);
        TSNode right = sg_node_field(n, sy->f_right);
        TSSymbol ls = ts_node_symbol(left);
        TSNode rv = right;
        while (!ts_node_is_null(rv) && ts_node_symbol(rv) == sy->parenthesized_expression &&
               sg_node_nnamed(rv) == 1)
            rv = sg_node_named(rv, 0);
        if ((ls == sy->pattern_list || ls == sy->tuple_pattern || ls == sy->tuple || ls == sy->list_pattern) &&
            !ts_node_is_null(rv) && (ts_node_symbol(rv) == sy->expression_list || ts_node_symbol(rv) == sy->tuple) &&
            sg_node_nnamed(rv) == sg_node_nnamed(left)) {
            /* user, password = "admin", "hunter2" */
            uint32_t k = sg_node_nnamed(left);
            for (uint32_t i = 0; i < k && i < 256; i++)
                engine__cred_target(cx, scope, sg_node_named(left, i), sg_node_named(rv, i));
        } else {
            engine__cred_target(cx, scope, left, right);
        }
        if (ls == sy->attribute || ls == sy->subscript)
            engine__assign_target(cx, scope, left, right);
        if (ls == sy->subscript)
            cx->store_target = left; /* a store, not a lookup: engine__on_subscript skips it */
        /* A value stored anywhere but a plain local name (obj.f = eval, d["k"] = eval, a class
         * attribute) can be called later from anywhere. */
        if ((ls != sy->identifier || sg_scope_is_class(scope)) && ls != sy->pattern_list)
            engine__on_value(cx, right, scope);
    } else if (s == sy->keyword_argument) {
        TSNode name = sg_node_field(n, sy->f_name);
        size_t l;
        const char *t = engine__text(cx, name, &l);
        TSNode v = sg_node_field(n, sy->f_value);
        engine__cred_name(cx, scope, name, t, l, v);
        engine__on_value(cx, v, scope);
    } else if (s == sy->pair) {
        TSNode key = sg_node_field(n, sy->f_key);
        TSNode v = sg_node_field(n, sy->f_value);
        size_t kl;
        const char *k = sg_const_str(cx->res, NULL, key, &kl);
        if (k)
            engine__cred_name(cx, scope, key, k, kl, v);
        engine__on_value(cx, v, scope);
    } else if (s == sy->argument_list || s == sy->list || s == sy->tuple || s == sy->set ||
               s == sy->expression_list) {
        sg_children it;
        TSNode ch;
        sg_children_init(&it, n);
        while (sg_children_next(&it, &ch))
            engine__on_value(cx, ch, scope);
        sg_children_end(&it);
    } else if (s == sy->return_statement || s == sy->yield || s == sy->decorator || s == sy->list_splat ||
               s == sy->dictionary_splat) {
        if (sg_node_nnamed(n) > 0)
            engine__on_value(cx, sg_node_named(n, 0), scope);
    } else if (s == sy->named_expression) {
        /* (password := "...") binds as an assignment does */
        engine__cred_target(cx, scope, sg_node_field(n, sy->f_name), sg_node_field(n, sy->f_value));
    } else if (s == sy->default_parameter || s == sy->typed_default_parameter) {
        TSNode v = sg_node_field(n, sy->f_value);
        engine__cred_target(cx, scope, sg_node_field(n, sy->f_name), v);
        engine__on_value(cx, v, scope);
    } else if (s == sy->print_statement || s == sy->exec_statement) {
        /* Python 2 statements: tree-sitter accepts them, Python 3 does not. */
        const sg_rule *r = sg_rules_builtin(cx->rules, SG_BUILTIN_SYNTAX_ERROR);
        if (r)
            engine__hit(cx, r, n,
                        sg_arena_printf(cx->arena, "%s: Python 2 %s statement is not valid Python 3", r->info.message,
                                        s == sy->print_statement ? "print" : "exec"),
                        NULL);
        if (s == sy->exec_statement)
            engine__on_exec_statement(cx, n);
    } else if (s == sy->lambda) {
        engine__on_value(cx, sg_node_field(n, sy->f_body), scope);
    } else if (s == sy->comment) {
        size_t l;
        const char *t = engine__text(cx, n, &l);
        if (engine__has_marker(t, l) && cx->out->suppressions.len < 100000 &&
            sg_array_push(&cx->out->suppressions, ts_node_start_point(n), 100000))
            cx->out->failed = true;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Raw queries                                                                                  */

static bool engine__capture_text(engine__cx *cx, const TSQueryMatch *m, uint32_t id, const char **t, size_t *l)
{
    for (uint16_t i = 0; i < m->capture_count; i++)
        if (m->captures[i].index == id) {
            *t = engine__text(cx, m->captures[i].node, l);
            return true;
        }
    return false;
}

static bool engine__predicates(engine__cx *cx, const sg_query_prog *p, const TSQueryMatch *m)
{
    uint32_t n;
    const TSQueryPredicateStep *st = ts_query_predicates_for_pattern(p->query, m->pattern_index, &n);
    uint32_t i = 0;
    while (i < n) {
        uint32_t len;
        const char *op = ts_query_string_value_for_id(p->query, st[i].value_id, &len);
        const char *a;
        size_t al;
        if (i + 2 >= n || !engine__capture_text(cx, m, st[i + 1].value_id, &a, &al))
            return false;
        bool neg = !strncmp(op, "not-", 4);
        bool ok;
        if (strstr(op, "match?")) {
            uint32_t id = st[i + 2].value_id;
            char buf[512];
            if (al >= sizeof buf || id >= p->nstrings || !p->res_set[id])
                return false;
            memcpy(buf, a, al);
            buf[al] = 0;
            ok = regexec(&p->res[id], buf, 0, NULL, 0) == 0;
        } else {
            const char *b;
            size_t bl;
            if (st[i + 2].type == TSQueryPredicateStepTypeCapture) {
                if (!engine__capture_text(cx, m, st[i + 2].value_id, &b, &bl))
                    return false;
            } else {
                uint32_t l2;
                b = ts_query_string_value_for_id(p->query, st[i + 2].value_id, &l2);
                bl = l2;
            }
            ok = al == bl && !memcmp(a, b, al);
        }
        if (ok == neg)
            return false;
        while (i < n && st[i].type != TSQueryPredicateStepTypeDone)
            i++;
        i++;
    }
    return true;
}

static sg_status engine__queries(engine__cx *cx, TSNode root)
{
    TSQueryCursor *qc = NULL;
    size_t srclen = SIZE_MAX;
    for (size_t i = 0; i < cx->rules->rules.len; i++) {
        const sg_rule *r = cx->rules->rules.items[i];
        if (!r->info.enabled || r->kind != SG_KIND_QUERY)
            continue;
        if (srclen == SIZE_MAX)
            srclen = strlen(cx->src);
        bool possible = true;
        for (size_t k = 0; k < r->query.nneedles && possible; k++)
            possible = sg_memmem(cx->src, srclen, r->query.needles[k], strlen(r->query.needles[k])) != NULL;
        bool any = !r->query.nany_needles;
        for (size_t k = 0; k < r->query.nany_needles && possible && !any; k++)
            any = sg_memmem(cx->src, srclen, r->query.any_needles[k], strlen(r->query.any_needles[k])) != NULL;
        possible &= any;
        if (!possible)
            continue;
        /* text_any: every match holds one of the texts, so the query runs only around them (a
         * match's nodes contain the text), and not at all without one; past 64 occurrences, over
         * the whole tree */
        uint32_t at[64];
        size_t nat = 0;
        bool whole = !r->query.nin_match;
        for (size_t k = 0; k < r->query.nin_match && !whole; k++) {
            const char *t = r->query.in_match[k];
            size_t tl = strlen(t);
            for (const char *p = cx->src; tl && (p = sg_memmem(p, srclen - (size_t)(p - cx->src), t, tl)); p += tl) {
                if (nat == 64) {
                    whole = true;
                    break;
                }
                at[nat++] = (uint32_t)(p - cx->src);
            }
        }
        if (!whole && !nat)
            continue;
        /* the source may match: the query is needed now (the built-in pack's are compiled on
         * first use); one that cannot be had is an error of the check, never a pass */
        const sg_query_prog *prog;
        sg_status st = sg_rule_query_prog(r, &prog);
        if (!st && !qc && !(qc = ts_query_cursor_new()))
            st = SG_ERR_NOMEM;
        if (st) {
            if (qc)
                ts_query_cursor_delete(qc);
            return st;
        }
        ts_query_cursor_set_match_limit(qc, 256);
        uint32_t seen[64]; /* capture starts reported around occurrences (a match around two: once) */
        size_t nseen = 0;
        for (size_t o = 0; o < (whole ? 1 : nat); o++) {
            if (whole)
                ts_query_cursor_set_byte_range(qc, 0, UINT32_MAX);
            else
                ts_query_cursor_set_byte_range(qc, at[o], at[o] + 1);
            ts_query_cursor_exec(qc, prog->query, root);
            TSQueryMatch m;
            int guard = 0;
            while (ts_query_cursor_next_match(qc, &m) && guard++ < 100000) {
                if (!engine__predicates(cx, prog, &m))
                    continue;
                for (uint16_t k = 0; k < m.capture_count; k++)
                    if (m.captures[k].index == prog->capture) {
                        uint32_t start = ts_node_start_byte(m.captures[k].node);
                        bool dup = false;
                        for (size_t q = 0; q < nseen && !dup; q++)
                            dup = seen[q] == start;
                        if (!dup) {
                            if (!whole && nseen < 64)
                                seen[nseen++] = start;
                            engine__hit(cx, r, m.captures[k].node,
                                        sg_arena_printf(cx->arena, "%s: `%s`", r->info.message,
                                                        engine__excerpt(cx, m.captures[k].node)),
                                        NULL);
                        }
                        break;
                    }
            }
        }
        ts_query_cursor_set_byte_range(qc, 0, UINT32_MAX);
    }
    if (qc)
        ts_query_cursor_delete(qc);
    return SG_OK;
}

void sg_engine_interest(sg_resolver *res)
{
    const sg_syms *sy = sg_syms_get();
    const TSSymbol syms[] = {sy->call, sy->exec_statement, sy->attribute, sy->import_statement, sy->concatenated_string,
                             sy->import_from_statement, sy->string, sy->assignment, sy->keyword_argument, sy->pair,
                             sy->argument_list, sy->list, sy->tuple, sy->set, sy->expression_list,
                             sy->return_statement, sy->yield, sy->decorator, sy->list_splat, sy->dictionary_splat,
                             sy->default_parameter, sy->typed_default_parameter, sy->lambda, sy->comment,
                             sy->print_statement, sy->subscript, sy->binary_operator, sy->named_expression};
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        sg_resolver_interest(res, syms[i]);
}

sg_status sg_engine_run(const sg_rules *rules, sg_resolver *res, size_t block, TSNode root, const char *src,
                        sg_engine_out *out)
{
    engine__cx cx = {.rules = rules, .res = res, .sy = sg_syms_get(), .src = src, .out = out,
                     .arena = sg_resolver_arena(res)};
    for (size_t i = 0; i < rules->rules.len; i++) {
        const sg_rule *r = rules->rules.items[i];
        if (!r->info.enabled)
            continue;
        cx.has_cred_values |= r->kind == SG_KIND_CREDENTIALS && r->credentials.nvalue_res > 0;
        cx.has_attr_rules |= r->kind == SG_KIND_ATTRIBUTES;
        cx.has_dynattr |= r->kind == SG_KIND_BUILTIN && r->builtin.which == SG_BUILTIN_DYNAMIC_ATTRIBUTE;
    }
    if (cx.has_cred_values)
        engine__secret_prefilter(&cx);
    sg_status st = sg_resolver_walk(res, block, src, engine__visit, &cx);
    if (!st)
        st = engine__queries(&cx, root);
    if (!st && (out->failed || sg_resolver_failed(res)))
        st = SG_ERR_NOMEM;
    return st;
}
