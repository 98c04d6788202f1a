/*
 * Name resolution for Python: scopes, bindings, qualified names, constant strings.
 * See resolve.h for the model. Every walk is iterative (a tree-sitter cursor), and every
 * recursive evaluation carries a depth and work budget, so hostile input cannot exhaust the stack
 * or spin: past a budget an expression simply resolves to nothing more.
 */
#include "resolve.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <uninorm.h>

const TSLanguage *tree_sitter_python(void);

#define RES_MAX_ALIAS_DEPTH 12
#define RES_BUDGET 4096 /* evaluation steps for one top-level question */
#define RES_MAX_CONST 4096

/* ------------------------------------------------------------------------------------------ */
/* Symbols                                                                                      */

static sg_syms res__syms;
static pthread_once_t res__once = PTHREAD_ONCE_INIT;

const TSLanguage *sg_python_language(void)
{
    return tree_sitter_python();
}

static TSSymbol res__sym(const char *name, bool named)
{
    return ts_language_symbol_for_name(tree_sitter_python(), name, (uint32_t)strlen(name), named);
}

static TSFieldId res__field_id(const char *name)
{
    return ts_language_field_id_for_name(tree_sitter_python(), name, (uint32_t)strlen(name));
}

static void res__init_flags(const sg_syms *s);

static void res__init_syms(void)
{
    sg_syms *s = &res__syms;
#define S(f, n) s->f = res__sym(n, true)
    S(module, "module"); S(import_statement, "import_statement"); S(import_from_statement, "import_from_statement");
    S(aliased_import, "aliased_import"); S(dotted_name, "dotted_name"); S(wildcard_import, "wildcard_import");
    S(relative_import, "relative_import"); S(future_import_statement, "future_import_statement");
    S(function_definition, "function_definition"); S(class_definition, "class_definition"); S(lambda, "lambda");
    S(parameters, "parameters"); S(lambda_parameters, "lambda_parameters"); S(identifier, "identifier");
    S(typed_parameter, "typed_parameter"); S(default_parameter, "default_parameter");
    S(typed_default_parameter, "typed_default_parameter"); S(list_splat_pattern, "list_splat_pattern");
    S(dictionary_splat_pattern, "dictionary_splat_pattern"); S(assignment, "assignment");
    S(augmented_assignment, "augmented_assignment"); S(call, "call"); S(argument_list, "argument_list");
    S(keyword_argument, "keyword_argument"); S(attribute, "attribute"); S(subscript, "subscript");
    S(string, "string"); S(string_start, "string_start"); S(string_content, "string_content");
    S(interpolation, "interpolation"); S(concatenated_string, "concatenated_string");
    S(binary_operator, "binary_operator"); S(parenthesized_expression, "parenthesized_expression");
    S(conditional_expression, "conditional_expression"); S(boolean_operator, "boolean_operator");
    S(global_statement, "global_statement"); S(nonlocal_statement, "nonlocal_statement");
    S(for_statement, "for_statement"); S(for_in_clause, "for_in_clause"); S(as_pattern_target, "as_pattern_target");
    S(named_expression, "named_expression"); S(dictionary, "dictionary"); S(pair, "pair");
    S(dictionary_splat, "dictionary_splat"); S(list_splat, "list_splat"); S(tuple, "tuple"); S(list, "list");
    S(set, "set"); S(true_, "true"); S(false_, "false"); S(none, "none"); S(integer, "integer"); S(float_, "float");
    S(comment, "comment"); S(exec_statement, "exec_statement"); S(list_comprehension, "list_comprehension");
    S(dictionary_comprehension, "dictionary_comprehension"); S(set_comprehension, "set_comprehension");
    S(generator_expression, "generator_expression"); S(pattern_list, "pattern_list");
    S(tuple_pattern, "tuple_pattern"); S(list_pattern, "list_pattern"); S(expression_list, "expression_list");
    S(slice, "slice"); S(unary_operator, "unary_operator"); S(return_statement, "return_statement");
    S(yield, "yield"); S(decorator, "decorator");
    S(type, "type"); S(block, "block");
    S(delete_statement, "delete_statement"); S(if_statement, "if_statement"); S(while_statement, "while_statement");
    S(try_statement, "try_statement"); S(with_statement, "with_statement"); S(match_statement, "match_statement");
    S(print_statement, "print_statement");
#undef S
    s->eq_token = res__sym("=", false);
    res__init_flags(s);
#define F(f, n) s->f = res__field_id(n)
    F(f_name, "name"); F(f_alias, "alias"); F(f_left, "left"); F(f_right, "right"); F(f_function, "function");
    F(f_arguments, "arguments"); F(f_object, "object"); F(f_attribute, "attribute"); F(f_value, "value");
    F(f_subscript, "subscript"); F(f_module_name, "module_name"); F(f_body, "body"); F(f_parameters, "parameters");
    F(f_key, "key"); F(f_type, "type"); F(f_operator, "operator");
   
#undef F
}

/* Per-symbol flags for the pass-1 walk: one table lookup instead of a chain of comparisons. */
#define RES_NSYMS 1024
enum { RES_F_SCOPE = 1, RES_F_BINDS = 2, RES_F_COND = 4 };
static uint8_t res__flags[RES_NSYMS];

static void res__init_flags(const sg_syms *s)
{
    const TSSymbol scopes[] = {s->function_definition, s->lambda, s->list_comprehension, s->set_comprehension,
                               s->dictionary_comprehension, s->generator_expression, s->class_definition};
    const TSSymbol binds[] = {s->import_statement, s->import_from_statement, s->assignment, s->augmented_assignment,
                              s->named_expression, s->for_statement, s->for_in_clause, s->as_pattern_target,
                              s->global_statement, s->nonlocal_statement, s->class_definition,
                              s->delete_statement, s->function_definition, s->lambda};
    /* statements whose bodies may not run (or run partly): bindings under them are not definite */
    const TSSymbol conds[] = {s->if_statement, s->for_statement, s->while_statement, s->try_statement,
                              s->with_statement, s->match_statement, s->conditional_expression,
                              s->boolean_operator};
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (scopes[i] < RES_NSYMS)
            res__flags[scopes[i]] |= RES_F_SCOPE;
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++)
        if (binds[i] < RES_NSYMS)
            res__flags[binds[i]] |= RES_F_BINDS;
    for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
        if (conds[i] < RES_NSYMS)
            res__flags[conds[i]] |= RES_F_COND;
}

const sg_syms *sg_syms_get(void)
{
    pthread_once(&res__once, res__init_syms);
    return &res__syms;
}

/* ------------------------------------------------------------------------------------------ */
/* Scopes and bindings                                                                          */

typedef enum res__kind {
    RES_IMPORT,   /* qname: what was imported */
    RES_ALIAS,    /* node: the value assigned (resolved lazily) */
    RES_LOCAL,    /* an opaque local value (def, class, parameter, loop target) */
    RES_GLOBAL,   /* `global name`: look it up in the module scope */
    RES_NONLOCAL, /* `nonlocal name`: look it up in the enclosing function scopes */
    RES_DEL,      /* `del name`: the builtin or star-imported meaning may show again */
    RES_CLASS,    /* a class: attributes resolve through its scope (inner) */
} res__kind;

struct res__visit {
    TSNode node;
    sg_scope *scope;
};

typedef struct res__binding {
    const char *name;
    uint32_t name_len;
    res__kind kind;
    const char *qname;
    TSNode node;
    const char *src;
    sg_scope *scope;
    uint32_t seq, pos;         /* block number and byte offset where the binding is made */
    bool definite;             /* made unconditionally (not under if/for/while/try/with/match) */
    sg_scope *inner;           /* RES_CLASS: the class body's scope */
    bool busy, cached;         /* RES_ALIAS: resolving now (a cycle), result memoised */
    sg_cands *cache;
    struct res__binding *next; /* same name, same scope */
} res__binding;

struct sg_scope {
    sg_scope *parent;
    bool is_class;
    res__binding **slots;
    uint32_t cap, count;
    SG_ARRAY(const char *) stars; /* modules of `from m import *` */
};

struct sg_resolver {
    sg_arena *arena;
    const sg_syms *sy;
    const sg_names *names;
    unsigned max_depth;
    bool depth_exceeded;
    TSPoint depth_where;
    SG_ARRAY(sg_scope *) scopes; /* creation order; index 0 is the shared module scope */
    SG_ARRAY(struct res__visit) visits; /* nodes of interest recorded by pass 1, in order */
    SG_ARRAY(size_t) block_visits;       /* index of each block's first visit */
    uint8_t interest[1024];              /* symbols whose nodes pass 2 visits */
    const char *cur_src;
    uint32_t cur_seq;    /* block number of the walk in progress */
    uint32_t nblocks;    /* blocks bound so far */
    unsigned cond;       /* pass 1: conditional statements between the node and its scope */
    bool limit_hit;      /* a name bound or star-imported past the caps: analysis incomplete */
    const char *limit_reason;
    TSPoint limit_where;
    uint32_t limit_block; /* the block (bind order) where the limit was hit */
    int budget;
    bool truncated; /* a depth or work limit cut the resolution in progress */
    bool failed;    /* an allocation failed (sticky): results may be incomplete, never trust them */
    uint32_t query_seq;   /* block and place of the expression sg_resolve_expr is resolving */
    TSPoint query_where;
    struct res__binding *alias_path[64]; /* alias bindings being resolved, outermost first */
    unsigned alias_n;
};

/* The analysis is incomplete: the caller blocks the snippet (SG002) at `where` in block `seq`. */
static void res__limit(sg_resolver *res, uint32_t seq, TSPoint where, const char *reason)
{
    if (res->limit_hit)
        return;
    res->limit_hit = true;
    res->limit_block = seq;
    res->limit_where = where;
    res->limit_reason = reason;
}

/* Record an allocation failure: the check in progress must end in an error, not a verdict. */
static void res__fail(sg_resolver *res)
{
    res->failed = true;
}

/* Release a scratch buffer, remembering whether it ran out of memory. */
static void res__buf_done(sg_resolver *res, sg_buf *b)
{
    if (b->failed)
        res__fail(res);
    sg_buf_free(b);
}

static uint32_t res__hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static sg_scope *res__scope_new(sg_resolver *res, sg_scope *parent, bool is_class)
{
    sg_scope *s = sg_arena_alloc(res->arena, sizeof *s);
    if (!s) {
        res__fail(res);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->parent = parent;
    s->is_class = is_class;
    if (sg_array_push(&res->scopes, s, 0)) {
        res__fail(res);
        return NULL;
    }
    return s;
}

static res__binding *res__lookup_local(const sg_scope *s, const char *name, uint32_t n)
{
    if (!s->cap)
        return NULL;
    uint32_t i = res__hash(name, n) & (s->cap - 1);
    for (;;) {
        res__binding *b = s->slots[i];
        if (!b)
            return NULL;
        if (b->name_len == n && !memcmp(b->name, name, n))
            return b;
        i = (i + 1) & (s->cap - 1);
    }
}

static int res__bind_raw(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, res__kind kind,
                         const char *qname, TSNode node, const char *src);

/* Bind in `s`, or where `global` / `nonlocal` in `s` sends the name. */
static int res__bind(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, res__kind kind, const char *qname,
                     TSNode node, const char *src)
{
    if (kind != RES_GLOBAL && kind != RES_NONLOCAL) {
        res__binding *d = res__lookup_local(s, name, n);
        if (d && d->kind == RES_GLOBAL) {
            while (s->parent)
                s = s->parent;
        } else if (d && d->kind == RES_NONLOCAL) {
            for (sg_scope *p = s->parent; p; p = p->parent)
                if (!p->is_class && res__lookup_local(p, name, n)) {
                    s = p;
                    break;
                }
        }
    }
    return res__bind_raw(res, s, name, n, kind, qname, node, src);
}

static int res__bind_raw(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, res__kind kind,
                         const char *qname, TSNode node, const char *src)
{
    if (s->count * 2 >= s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 16;
        res__binding **slots = sg_arena_alloc(res->arena, ncap * sizeof *slots);
        if (!slots) {
            res__fail(res);
            return -1;
        }
        memset(slots, 0, ncap * sizeof *slots);
        for (uint32_t i = 0; i < s->cap; i++) {
            res__binding *b = s->slots[i];
            if (!b)
                continue;
            uint32_t k = res__hash(b->name, b->name_len) & (ncap - 1);
            while (slots[k])
                k = (k + 1) & (ncap - 1);
            slots[k] = b;
        }
        s->slots = slots;
        s->cap = ncap;
    }
    res__binding *b = sg_arena_alloc(res->arena, sizeof *b);
    if (!b) {
        res__fail(res);
        return -1;
    }
    *b = (res__binding){.name = name, .name_len = n, .kind = kind, .qname = qname, .node = node, .src = src,
                        .scope = s, .seq = res->cur_seq, .pos = ts_node_start_byte(node), .definite = res->cond == 0};
    uint32_t i = res__hash(name, n) & (s->cap - 1);
    while (s->slots[i]) {
        res__binding *o = s->slots[i];
        if (o->name_len == n && !memcmp(o->name, name, n)) {
            /* Keep the chain bounded (a hostile file rebinding one name 100k times); past the cap
             * the analysis is incomplete, which blocks (SG002) rather than guessing. */
            int len = 0;
            for (res__binding *c = o; c; c = c->next)
                if (++len > 256) {
                    res__limit(res, res->cur_seq, ts_node_start_point(node),
                               "a name is rebound more often than the analysis follows");
                    return 0;
                }
            /* append: the chain stays in source order */
            res__binding *last = o;
            while (last->next)
                last = last->next;
            last->next = b;
            return 0;
        }
        i = (i + 1) & (s->cap - 1);
    }
    s->slots[i] = b;
    s->count++;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers on nodes                                                                             */

typedef struct res__cx {
    sg_resolver *res;
    const char *src;
} res__cx;

static const char *res__text(const char *src, TSNode n, size_t *len)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    *len = b - a;
    return src + a;
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
        res__fail(res);
        return t;
    }
    char *copy = sg_arena_strndup(res->arena, (const char *)norm, outlen);
    if (norm != small)
        free(norm);
    if (!copy) {
        res__fail(res);
        return t;
    }
    *len = outlen;
    return copy;
}

static const char *res__ident(res__cx *cx, TSNode n, size_t *len)
{
    const char *t = res__text(cx->src, n, len);
    return res__ident_text(cx->res, t, len);
}


static bool res__is(TSNode n, TSSymbol s)
{
    return !ts_node_is_null(n) && ts_node_symbol(n) == s;
}

/* A field of a node. ts_node_child_by_field_id scans the field map of every child, so the
 * shapes the engine asks about most are answered by position (extras such as comments can
 * neither start nor end these nodes). */
static TSNode res__field(TSNode n, TSFieldId f)
{
    const sg_syms *sy = &res__syms;
    if (ts_node_is_null(n))
        return n;
    TSSymbol s = ts_node_symbol(n);
    uint32_t count = ts_node_child_count(n);
    if (count >= 2) {
        if (s == sy->call) {
            if (f == sy->f_function)
                return ts_node_child(n, 0);
            if (f == sy->f_arguments)
                return ts_node_child(n, count - 1);
        } else if (s == sy->attribute) {
            if (f == sy->f_object)
                return ts_node_child(n, 0);
            if (f == sy->f_attribute)
                return ts_node_child(n, count - 1);
        } else if (s == sy->keyword_argument || s == sy->pair) {
            if (f == sy->f_name || f == sy->f_key)
                return ts_node_child(n, 0);
            if (f == sy->f_value)
                return ts_node_child(n, count - 1);
        } else if (s == sy->binary_operator || s == sy->boolean_operator || s == sy->augmented_assignment) {
            if (f == sy->f_left)
                return ts_node_child(n, 0);
            if (f == sy->f_right)
                return ts_node_child(n, count - 1);
        } else if (s == sy->assignment) {
            if (f == sy->f_left)
                return ts_node_child(n, 0);
            if (f == sy->f_right)
                return count >= 3 && ts_node_symbol(ts_node_child(n, count - 2)) == sy->eq_token
                           ? ts_node_child(n, count - 1)
                           : (TSNode){0};
        }
    }
    return ts_node_child_by_field_id(n, f);
}

void sg_children_init(sg_children *it, TSNode parent)
{
    it->cursor = ts_tree_cursor_new(parent);
    it->started = false;
    it->done = false;
}

bool sg_children_next(sg_children *it, TSNode *ret_child)
{
    while (!it->done) {
        bool moved = it->started ? ts_tree_cursor_goto_next_sibling(&it->cursor)
                                 : ts_tree_cursor_goto_first_child(&it->cursor);
        it->started = true;
        if (!moved) {
            it->done = true;
            break;
        }
        TSNode n = ts_tree_cursor_current_node(&it->cursor);
        if (ts_node_is_named(n)) {
            *ret_child = n;
            return true;
        }
    }
    return false;
}

void sg_children_end(sg_children *it)
{
    ts_tree_cursor_delete(&it->cursor);
}

TSNode sg_node_field(TSNode n, TSFieldId f)
{
    return res__field(n, f);
}

/* Skip parentheses. */
static TSNode res__unparen(sg_resolver *res, TSNode n)
{
    int guard = 0;
    while (res__is(n, res->sy->parenthesized_expression) && ts_node_named_child_count(n) == 1 && guard++ < 64)
        n = ts_node_named_child(n, 0);
    return n;
}

/* Normalise a dotted name: drop `__dict__`, restart at `__builtins__`, strip `sys.modules.` and
 * `builtins.`, apply module aliases (posix -> os). Returns an arena string or NULL. */
static const char *res__normalize(sg_resolver *res, const char *q, size_t n)
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
        if (!strncmp(s, "sys.modules.", 12))
            s += 12;
        else if (!strncmp(s, "builtins.", 9))
            s += 9;
        else
            break;
    }
    if (!strcmp(s, "importlib.__import__"))
        s = "__import__";
    size_t root = strcspn(s, ".");
    for (size_t k = 0; k < res->names->naliases; k++) {
        const sg_name_alias *a = &res->names->aliases[k];
        if (strlen(a->from) == root && !memcmp(a->from, s, root))
            return sg_arena_printf(res->arena, "%s%s", a->to, s + root);
    }
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
         * then to os.system): the analysis is incomplete, which blocks. */
        res__limit(res, res->query_seq, res->query_where,
                   "an expression may stand for more names than the analysis follows");
        return;
    }
    out->q[out->n++] = q;
}

static bool res__alive(const sg_resolver *res, const char *q);

static void res__add_join(sg_resolver *res, sg_cands *out, const char *base, const char *attr, size_t alen)
{
    /* Modules re-export the modules they import (shutil.os, subprocess.os): m.os is os too. */
    if (res->names->module_root(res->names->ctx, attr, alen))
        res__add(res, out, res__normalize(res, attr, alen));
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
    res__add(res, out, res__normalize(res, buf, bl + 1 + alen));
}

/* ------------------------------------------------------------------------------------------ */
/* Constant strings                                                                             */

static int res__hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static void res__put_utf8(sg_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    sg_buf_append(b, u, n);
}

/* Decode Python escapes of a non-raw string body into b. */
static void res__unescape(sg_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 >= n) {
            /* copy the run up to the next backslash at once */
            const char *bs = memchr(s + i, '\\', n - i);
            size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
            if (run == 0)
                run = 1;
            sg_buf_append(b, s + i, run);
            i += run - 1;
            continue;
        }
        char c = s[++i];
        switch (c) {
        case 'n': sg_buf_append(b, "\n", 1); break;
        case 't': sg_buf_append(b, "\t", 1); break;
        case 'r': sg_buf_append(b, "\r", 1); break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            unsigned v = 0;
            size_t k = 0;
            while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                v = v * 8 + (unsigned)(s[i] - '0');
                i++;
                k++;
            }
            i--;
            res__put_utf8(b, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            unsigned long v = 0;
            size_t k;
            for (k = 0; k < digits && i + 1 + k < n && res__hexval((unsigned char)s[i + 1 + k]) >= 0; k++)
                v = v * 16 + (unsigned long)res__hexval((unsigned char)s[i + 1 + k]);
            if (k == digits && v <= 0x10ffff) {
                res__put_utf8(b, v);
                i += digits;
            } else {
                sg_buf_append(b, "\\", 1);
                sg_buf_append(b, &c, 1);
            }
            break;
        }
        case '\n': break;
        case '\\': case '\'': case '"': sg_buf_append(b, &c, 1); break;
        case 'a': sg_buf_append(b, "\a", 1); break;
        case 'b': sg_buf_append(b, "\b", 1); break;
        case 'f': sg_buf_append(b, "\f", 1); break;
        case 'v': sg_buf_append(b, "\v", 1); break;
        default:
            sg_buf_append(b, "\\", 1);
            sg_buf_append(b, &c, 1);
        }
    }
}

static bool res__const(res__cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth);

/* A single string literal (no interpolation) appended to out. */
static bool res__string(res__cx *cx, TSNode n, sg_buf *out, bool *ret_fstring)
{
    const sg_syms *sy = cx->res->sy;
    bool raw = false, fstr = false, bytes = false;
    sg_children it;
    TSNode c;
    sg_children_init(&it, n);
    while (sg_children_next(&it, &c)) {
        TSSymbol s = ts_node_symbol(c);
        size_t len;
        const char *t = res__text(cx->src, c, &len);
        if (s == sy->string_start) {
            for (size_t k = 0; k < len && t[k] != '\'' && t[k] != '"'; k++) {
                char p = (char)tolower((unsigned char)t[k]);
                raw |= p == 'r';
                fstr |= p == 'f';
                bytes |= p == 'b';
            }
        } else if (s == sy->interpolation) {
            if (ret_fstring)
                *ret_fstring = true;
            sg_children_end(&it);
            return false;
        } else if (s == sy->string_content) {
            if (raw)
                sg_buf_append(out, t, len);
            else
                res__unescape(out, t, len);
        }
    }
    sg_children_end(&it);
    (void)fstr;
    (void)bytes;
    return !out->failed && !out->truncated;
}

static void res__expr(res__cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth);

/* os.path.expanduser("~/.ssh/id_rsa"), os.path.expandvars(...), os.fspath(...): as far as path
 * patterns go ("~/.ssh*", "* /.ssh/ *") the value is the argument. `name` is the callee's last
 * component, checked first so that only these calls cost a resolution. */
static bool res__path_identity(res__cx *cx, sg_scope *scope, TSNode fn, const char *name, size_t nl)
{
    static const char *const calls[] = {"os.path.expanduser", "os.path.expandvars", "os.fspath"};
    bool candidate = false;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0] && !candidate; i++) {
        const char *last = strrchr(calls[i], '.') + 1;
        candidate = strlen(last) == nl && !memcmp(last, name, nl);
    }
    if (!candidate)
        return false;
    sg_cands f = {0};
    res__expr(cx, scope, fn, &f, 0);
    for (int k = 0; k < f.n; k++)
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
            if (!strcmp(f.q[k], calls[i]))
                return true;
    return false;
}

static bool res__call_const(res__cx *cx, sg_scope *scope, TSNode call, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode fn = res__field(call, sy->f_function);
    TSNode args = res__field(call, sy->f_arguments);
    if (!res__is(args, sy->argument_list))
        return false;
    uint32_t nargs = ts_node_named_child_count(args);
    if (res__is(fn, sy->attribute)) {
        TSNode obj = res__unparen(res, res__field(fn, sy->f_object));
        size_t alen;
        const char *attr = res__text(cx->src, res__field(fn, sy->f_attribute), &alen);
        if (alen == 4 && !memcmp(attr, "join", 4) && nargs == 1) {
            sg_buf sep;
            sg_buf_init(&sep, RES_MAX_CONST);
            bool ok = res__const(cx, scope, obj, &sep, depth + 1);
            TSNode seq = res__unparen(res, ts_node_named_child(args, 0));
            if (ok && (res__is(seq, sy->list) || res__is(seq, sy->tuple))) {
                uint32_t k = ts_node_named_child_count(seq);
                for (uint32_t i = 0; i < k && ok; i++) {
                    if (i && sep.len)
                        sg_buf_append(out, sep.data, sep.len);
                    ok = res__const(cx, scope, ts_node_named_child(seq, i), out, depth + 1);
                }
            } else {
                ok = false;
            }
            res__buf_done(res, &sep);
            return ok;
        }
        if (((alen == 5 && (!memcmp(attr, "lower", 5) || !memcmp(attr, "upper", 5) || !memcmp(attr, "strip", 5))) ||
             (alen == 6 && !memcmp(attr, "decode", 6)) || (alen == 8 && !memcmp(attr, "casefold", 8))) &&
            nargs <= 1) {
            sg_buf tmp;
            sg_buf_init(&tmp, RES_MAX_CONST);
            bool ok = res__const(cx, scope, obj, &tmp, depth + 1);
            if (ok) {
                for (size_t i = 0; i < tmp.len; i++) {
                    if (attr[0] == 'l' || attr[0] == 'c')
                        tmp.data[i] = (char)tolower((unsigned char)tmp.data[i]);
                    else if (attr[0] == 'u')
                        tmp.data[i] = (char)toupper((unsigned char)tmp.data[i]);
                }
                const char *d = tmp.data ? tmp.data : "";
                size_t dl = tmp.len;
                if (attr[0] == 's') {
                    while (dl && isspace((unsigned char)*d)) {
                        d++;
                        dl--;
                    }
                    while (dl && isspace((unsigned char)d[dl - 1]))
                        dl--;
                }
                sg_buf_append(out, d, dl);
            }
            res__buf_done(res, &tmp);
            return ok;
        }
        if (nargs == 1 && res__path_identity(cx, scope, fn, attr, alen))
            return res__const(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        return false;
    }
    if (res__is(fn, sy->identifier)) {
        size_t fl;
        const char *f = res__text(cx->src, fn, &fl);
        if (nargs == 1 && res__path_identity(cx, scope, fn, f, fl))
            return res__const(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        if (fl == 3 && !memcmp(f, "chr", 3) && nargs == 1) {
            TSNode a = ts_node_named_child(args, 0);
            if (!res__is(a, sy->integer))
                return false;
            size_t al;
            const char *at = res__text(cx->src, a, &al);
            char num[32];
            if (al >= sizeof num)
                return false;
            memcpy(num, at, al);
            num[al] = 0;
            unsigned long v = strtoul(num, NULL, 0);
            if (v > 0x10ffff)
                return false;
            res__put_utf8(out, v);
            return true;
        }
        if (fl == 3 && !memcmp(f, "str", 3) && nargs == 1)
            return res__const(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
    }
    return false;
}

static bool res__lookup_const(res__cx *cx, sg_scope *scope, TSNode id, sg_buf *out, int depth);

static bool res__const(res__cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (depth > 48 || --res->budget < 0 || ts_node_is_null(n))
        return false;
    n = res__unparen(res, n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->string)
        return res__string(cx, n, out, NULL);
    if (s == sy->concatenated_string) {
        sg_children it;
        TSNode part;
        bool ok = true;
        sg_children_init(&it, n);
        while (ok && sg_children_next(&it, &part))
            ok = res__string(cx, part, out, NULL);
        sg_children_end(&it);
        return ok;
    }
    if (s == sy->binary_operator) {
        TSNode op = res__field(n, sy->f_operator);
        size_t ol;
        const char *o = res__text(cx->src, op, &ol);
        if (ol == 1 && *o == '+')
            return res__const(cx, scope, res__field(n, sy->f_left), out, depth + 1) &&
                   res__const(cx, scope, res__field(n, sy->f_right), out, depth + 1);
        return false;
    }
    if (s == sy->subscript) {
        /* s[::-1] */
        TSNode sub = res__field(n, sy->f_subscript);
        size_t sl;
        const char *st = res__text(cx->src, sub, &sl);
        char compact[16];
        size_t cl = 0;
        for (size_t i = 0; i < sl && cl < sizeof compact - 1; i++)
            if (!isspace((unsigned char)st[i]))
                compact[cl++] = st[i];
        compact[cl] = 0;
        if (!res__is(sub, sy->slice) || strcmp(compact, "::-1"))
            return false;
        sg_buf tmp;
        sg_buf_init(&tmp, RES_MAX_CONST);
        bool ok = res__const(cx, scope, res__field(n, sy->f_value), &tmp, depth + 1);
        if (ok) {
            /* reverse by code points */
            size_t i = tmp.len;
            while (i > 0) {
                size_t j = i - 1;
                while (j > 0 && ((unsigned char)tmp.data[j] & 0xc0) == 0x80)
                    j--;
                sg_buf_append(out, tmp.data + j, i - j);
                i = j;
            }
        }
        res__buf_done(res, &tmp);
        return ok;
    }
    if (s == sy->call)
        return res__call_const(cx, scope, n, out, depth);
    if (s == sy->identifier && scope)
        return res__lookup_const(cx, scope, n, out, depth);
    return false;
}

const char *sg_const_str(sg_resolver *res, sg_scope *scope, TSNode expr, size_t *ret_len)
{
    res__cx cx = {res, res->cur_src};
    sg_buf b;
    sg_buf_init(&b, RES_MAX_CONST);
    res->budget = RES_BUDGET;
    bool ok = res__const(&cx, scope, expr, &b, 0);
    const char *r = NULL;
    if (ok && !b.failed && !b.truncated) {
        r = sg_arena_strndup(res->arena, b.data ? b.data : "", b.len);
        if (ret_len)
            *ret_len = b.len;
    }
    res__buf_done(res, &b);
    return r;
}

/* The literal text of an f-string: up to its first interpolation (prefix), or whole with every
 * interpolation replaced by "x" (skeleton; NULL when there is no interpolation). */
static const char *res__fstring(sg_resolver *res, TSNode n, bool skeleton)
{
    const sg_syms *sy = res->sy;
    if (!res__is(n, sy->string))
        return NULL;
    sg_buf b;
    sg_buf_init(&b, RES_MAX_CONST);
    bool raw = false, any = false;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        TSSymbol s = ts_node_symbol(c);
        size_t len;
        const char *t = res__text(res->cur_src, c, &len);
        if (s == sy->string_start) {
            for (size_t k = 0; k < len && t[k] != '\'' && t[k] != '"'; k++)
                raw |= tolower((unsigned char)t[k]) == 'r';
        } else if (s == sy->interpolation) {
            any = true;
            if (!skeleton)
                break;
            sg_buf_append(&b, "x", 1);
        } else if (s == sy->string_content) {
            if (raw)
                sg_buf_append(&b, t, len);
            else
                res__unescape(&b, t, len);
        }
    }
    const char *r = (any || !skeleton) && !b.failed ? sg_arena_strndup(res->arena, b.data ? b.data : "", b.len) : NULL;
    res__buf_done(res, &b);
    return r;
}

const char *sg_fstring_prefix(sg_resolver *res, TSNode n)
{
    return res__fstring(res, n, false);
}

const char *sg_fstring_skeleton(sg_resolver *res, TSNode n)
{
    return res__fstring(res, n, true);
}

bool sg_is_literal(sg_resolver *res, sg_scope *scope, TSNode n)
{
    const sg_syms *sy = res->sy;
    n = res__unparen(res, n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->integer || s == sy->float_ || s == sy->true_ || s == sy->false_ || s == sy->none)
        return true;
    if (s == sy->unary_operator)
        return sg_is_literal(res, scope, ts_node_named_child(n, 0));
    return sg_const_str(res, scope, n, NULL) != NULL;
}

int sg_literal_truthy(sg_resolver *res, sg_scope *scope, TSNode n)
{
    const sg_syms *sy = res->sy;
    n = res__unparen(res, n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->true_)
        return 1;
    if (s == sy->false_ || s == sy->none)
        return 0;
    if (s == sy->integer || s == sy->float_) {
        size_t l;
        const char *t = res__text(res->cur_src, n, &l);
        for (size_t i = 0; i < l; i++)
            if (t[i] != '0' && t[i] != '.' && t[i] != '_' && t[i] != 'x' && t[i] != 'X' && t[i] != 'o' &&
                t[i] != 'O' && t[i] != 'b' && t[i] != 'B' && t[i] != 'j' && t[i] != 'J' && t[i] != 'e' && t[i] != 'E')
                return 1;
        return 0;
    }
    if (s == sy->list || s == sy->tuple || s == sy->dictionary || s == sy->set)
        return ts_node_named_child_count(n) > 0;
    size_t len;
    if (sg_const_str(res, scope, n, &len))
        return len > 0;
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Resolution                                                                                   */

static void res__expr(res__cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth);

/* The scope that owns `name` as seen from `scope` (Python's LEGB without class scopes of
 * enclosing functions), and the first binding there; NULL if unbound. */
static res__binding *res__find(sg_scope *scope, const char *name, uint32_t n, sg_scope **ret_scope)
{
    sg_scope *s = scope;
    bool first = true;
    int guard = 0;
    while (s && guard++ < 1000) {
        if (first || !s->is_class) {
            res__binding *b = res__lookup_local(s, name, n);
            if (b) {
                if (b->kind == RES_GLOBAL) {
                    sg_scope *m = s;
                    while (m->parent)
                        m = m->parent;
                    *ret_scope = m;
                    return m == s ? NULL : res__lookup_local(m, name, n);
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

static bool res__lookup_const(res__cx *cx, sg_scope *scope, TSNode id, sg_buf *out, int depth)
{
    size_t n;
    const char *name = res__text(cx->src, id, &n);
    sg_scope *owner;
    res__binding *b = res__find(scope, name, (uint32_t)n, &owner);
    if (!b || b->next || b->kind != RES_ALIAS)
        return false; /* only a name bound exactly once to a constant */
    res__cx inner = {cx->res, b->src};
    return res__const(&inner, b->scope, b->node, out, depth + 4);
}

/* Roots that normalisation can turn into another root, or that resolution treats specially:
 * a name under them may still reach a rule even if no rule names the root itself. */
static bool res__special_root(const char *q, size_t n)
{
    static const char *const roots[] = {"builtins", "sys", "__main__", "importlib", "__import__", "getattr",
                                        "vars", "globals", "locals", "operator", "object", "type", "hasattr",
                                        "setattr", "delattr"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
        if (strlen(roots[i]) == n && !memcmp(roots[i], q, n))
            return true;
    return false;
}

/* False when nothing derived from `q` (its attributes, items) can match a rule. */
static bool res__alive(const sg_resolver *res, const char *q)
{
    size_t n = strcspn(q, ".");
    return res__special_root(q, n) || res->names->root_known(res->names->ctx, q, n) ||
           res->names->root_alias(res->names->ctx, q, n);
}

/* What an alias binding (`x = <expr>`) stands for, memoised: the value is resolved in the
 * binding's own block and scope, so it is the same for every use. Results cut short by a depth or
 * work limit are not memoised; a cycle (`a = b; b = a`) resolves to nothing. */
static void res__alias(sg_resolver *res, res__binding *b, sg_cands *out, int depth)
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
            const res__binding *x = i < res->alias_n ? res->alias_path[i] : b;
            for (unsigned k = 0; k < i && !reentry; k++)
                reentry = res->alias_path[k]->scope == x->scope && res->alias_path[k]->name_len == x->name_len &&
                          !memcmp(res->alias_path[k]->name, x->name, x->name_len);
        }
        if (!reentry)
            res__limit(res, res->query_seq, res->query_where, "aliases are chained deeper than the analysis follows");
        return;
    }
    b->busy = true;
    bool was_truncated = res->truncated;
    uint32_t seq = res->cur_seq;
    res->truncated = false;
    res->cur_seq = b->seq;
    sg_cands tmp = {0};
    res__cx inner = {res, b->src};
    bool pushed = res->alias_n < sizeof res->alias_path / sizeof res->alias_path[0];
    if (pushed)
        res->alias_path[res->alias_n++] = b;
    res__expr(&inner, b->scope, b->node, &tmp, depth + 1);
    if (pushed)
        res->alias_n--;
    res->cur_seq = seq;
    b->busy = false;
    if (!res->truncated && (b->cache = sg_arena_alloc(res->arena, sizeof *b->cache))) {
        *b->cache = tmp;
        b->cached = true;
    }
    res->truncated |= was_truncated;
    for (int i = 0; i < tmp.n; i++)
        res__add(res, out, tmp.q[i]);
}

/* Names a use may stand for when no binding of its scope precedes it: a builtin, or a name
 * from `from m import *` that a rule knows. */
static void res__unbound(res__cx *cx, sg_scope *scope, const char *name, size_t n, sg_cands *out)
{
    sg_resolver *res = cx->res;
    for (sg_scope *s = scope; s; s = s->parent)
        for (size_t i = 0; i < s->stars.len; i++) {
            char buf[SG_MAX_QNAME + 2];
            int k = snprintf(buf, sizeof buf, "%s.%.*s", s->stars.items[i], (int)n, name);
            if (k > 0 && (size_t)k < sizeof buf) {
                const char *q = res__normalize(res, buf, (size_t)k);
                if (q && res->names->knows(res->names->ctx, q))
                    res__add(res, out, q);
            }
        }
    if (res__special_root(name, n) || res->names->root_known(res->names->ctx, name, n) ||
        res->names->root_alias(res->names->ctx, name, n))
        res__add(res, out, res__normalize(res, name, n));
}

static void res__name(res__cx *cx, sg_scope *scope, TSNode use, const char *name, size_t n, sg_cands *out,
                      int depth)
{
    sg_resolver *res = cx->res;
    if (n == 12 && !memcmp(name, "__builtins__", 12)) {
        res__add(res, out, "builtins");
        return;
    }
    sg_scope *owner = NULL;
    res__binding *b = res__find(scope, name, (uint32_t)n, &owner);
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
        for (res__binding *c = b; c; c = c->next) {
            if (c->kind == RES_DEL)
                deleted = true;
            else if (c->definite && (c->seq < res->cur_seq || (c->seq == res->cur_seq && c->pos < pos)))
                preceded = true;
        }
        if (!preceded || deleted)
            res__unbound(cx, scope, name, n, out);
    }
    for (; b; b = b->next) {
        if (--res->budget < 0)
            return;
        if (b->kind == RES_IMPORT) {
            res__add(res, out, b->qname);
        } else if (b->kind == RES_ALIAS) {
            res__alias(res, b, out, depth);
        }
    }
}

/* Module named by a constant string argument of __import__ / import_module. */
static void res__import_call(res__cx *cx, sg_scope *scope, TSNode args, bool top_only, sg_cands *out)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    uint32_t nargs = ts_node_named_child_count(args);
    TSNode first = {0};
    bool has_fromlist = false;
    int pos = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (res__is(a, sy->keyword_argument)) {
            size_t kl;
            const char *k = res__text(cx->src, res__field(a, sy->f_name), &kl);
            if (kl == 4 && !memcmp(k, "name", 4))
                first = res__field(a, sy->f_value);
            if (kl == 8 && !memcmp(k, "fromlist", 8))
                has_fromlist = sg_literal_truthy(res, scope, res__field(a, sy->f_value)) != 0;
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
    if (res__const(cx, scope, first, &b, 0) && b.len && !b.truncated) {
        size_t len = b.len;
        if (top_only && !has_fromlist)
            len = strcspn(b.data, ".");
        res__add(res, out, res__normalize(res, b.data, len));
    }
    res->budget = saved - 1;
    res__buf_done(res, &b);
}

/* `inner` is a call to `getter` (operator.attrgetter / methodcaller) with a constant name: then
 * add obj.<name> for every candidate of `obj`. Returns true if the shape matched. */
static bool res__getter_call(res__cx *cx, sg_scope *scope, TSNode inner, const char *getter, TSNode obj,
                             sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode iargs = res__field(inner, sy->f_arguments);
    if (!res__is(iargs, sy->argument_list) || ts_node_named_child_count(iargs) < 1)
        return false;
    sg_cands g = {0};
    res__expr(cx, scope, res__field(inner, sy->f_function), &g, depth + 1);
    bool is_getter = false;
    for (int i = 0; i < g.n; i++)
        is_getter |= !strcmp(g.q[i], getter);
    if (!is_getter)
        return false;
    sg_buf b;
    sg_buf_init(&b, SG_MAX_QNAME);
    if (res__const(cx, scope, ts_node_named_child(iargs, 0), &b, 0) && b.len && !b.truncated) {
        sg_cands base = {0};
        res__expr(cx, scope, obj, &base, depth + 1);
        for (int i = 0; i < base.n; i++)
            res__add_join(res, out, base.q[i], b.data, b.len);
    }
    res__buf_done(res, &b);
    return true;
}

static void res__call(res__cx *cx, sg_scope *scope, TSNode call, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode fn = res__field(call, sy->f_function);
    TSNode args = res__field(call, sy->f_arguments);
    if (!res__is(args, sy->argument_list))
        return;
    uint32_t nargs = ts_node_named_child_count(args);
    /* operator.attrgetter("name")(obj) is obj.name */
    TSNode inner = res__unparen(res, fn);
    if (res__is(inner, sy->call) && nargs >= 1 && res__getter_call(cx, scope, inner, "operator.attrgetter",
                                                                    ts_node_named_child(args, 0), out, depth))
        return;
    sg_cands f = {0};
    res__expr(cx, scope, fn, &f, depth + 1);
    for (int i = 0; i < f.n; i++) {
        const char *q = f.q[i];
        if (!strcmp(q, "__import__")) {
            res__import_call(cx, scope, args, true, out);
        } else if (!strcmp(q, "importlib.import_module") || !strcmp(q, "importlib.reload")) {
            if (!strcmp(q, "importlib.import_module"))
                res__import_call(cx, scope, args, false, out);
            else if (nargs >= 1)
                res__expr(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        } else if (!strcmp(q, "getattr") && nargs >= 2) {
            sg_cands base = {0};
            res__expr(cx, scope, ts_node_named_child(args, 0), &base, depth + 1);
            if (!base.n)
                continue;
            sg_buf b;
            sg_buf_init(&b, SG_MAX_QNAME);
            if (res__const(cx, scope, ts_node_named_child(args, 1), &b, 0) && b.len && !b.truncated)
                for (int k = 0; k < base.n; k++)
                    res__add_join(res, out, base.q[k], b.data, b.len);
            res__buf_done(res, &b);
        } else if ((!strcmp(q, "globals") || !strcmp(q, "locals")) && nargs == 0) {
            res__add(res, out, "__main__");
        } else if (!strcmp(q, "vars") && nargs == 1) {
            res__expr(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        }
    }
    /* <resolved>.get("name"), <resolved>.__getattribute__("name"), <resolved>.pop("name") */
    if (res__is(fn, sy->attribute) && nargs >= 1) {
        size_t al;
        const char *a = res__text(cx->src, res__field(fn, sy->f_attribute), &al);
        if ((al == 3 && !memcmp(a, "get", 3)) || (al == 16 && !memcmp(a, "__getattribute__", 16)) ||
            (al == 11 && !memcmp(a, "__getattr__", 11)) || (al == 11 && !memcmp(a, "__getitem__", 11))) {
            sg_cands base = {0};
            res__expr(cx, scope, res__field(fn, sy->f_object), &base, depth + 1);
            if (base.n) {
                sg_buf b;
                sg_buf_init(&b, SG_MAX_QNAME);
                if (res__const(cx, scope, ts_node_named_child(args, 0), &b, 0) && b.len && !b.truncated)
                    for (int k = 0; k < base.n; k++)
                        res__add_join(res, out, base.q[k], b.data, b.len);
                res__buf_done(res, &b);
            }
        }
    }
}

/* `globals()["x"]` / `sys.modules["__main__"].x`: the module-level name x. Else base.attr. */
static void res__join_or_main(res__cx *cx, sg_scope *scope, sg_cands *out, const char *base, const char *a,
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
static bool res__class_attr(res__cx *cx, sg_scope *scope, TSNode obj, const char *a, size_t al, sg_cands *out,
                            int depth)
{
    sg_resolver *res = cx->res;
    if (!res__is(obj, res->sy->identifier) || depth >= RES_MAX_ALIAS_DEPTH)
        return false;
    size_t n;
    const char *name = res__ident(cx, obj, &n);
    sg_scope *owner;
    res__binding *b = res__find(scope, name, (uint32_t)n, &owner);
    bool found = false;
    for (; b; b = b->next)
        if (b->kind == RES_CLASS && b->inner) {
            res__binding *ab = res__lookup_local(b->inner, a, (uint32_t)al);
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

static void res__expr(res__cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (ts_node_is_null(n) || out->n >= SG_MAX_CANDS)
        return;
    if (depth > 32 || --res->budget < 0) {
        res->truncated = true;
        res__limit(res, res->query_seq, res->query_where,
                   depth > 32 ? "an expression is nested deeper than the analysis follows"
                              : "resolving an expression takes more steps than the analysis allows");
        return;
    }
    n = res__unparen(res, n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->identifier) {
        size_t len;
        const char *t = res__ident(cx, n, &len);
        res__name(cx, scope, n, t, len, out, depth);
    } else if (s == sy->attribute) {
        TSNode obj = res__unparen(res, res__field(n, sy->f_object));
        size_t al;
        const char *a = res__ident(cx, res__field(n, sy->f_attribute), &al);
        if (res__class_attr(cx, scope, obj, a, al, out, depth))
            return;
        sg_cands base = {0};
        res__expr(cx, scope, obj, &base, depth + 1);
        for (int i = 0; i < base.n; i++)
            res__join_or_main(cx, scope, out, base.q[i], a, al, depth);
    } else if (s == sy->subscript) {
        sg_cands base = {0};
        res__expr(cx, scope, res__field(n, sy->f_value), &base, depth + 1);
        if (!base.n)
            return;
        sg_buf b;
        sg_buf_init(&b, SG_MAX_QNAME);
        if (res__const(cx, scope, res__field(n, sy->f_subscript), &b, 0) && b.len && !b.truncated)
            for (int i = 0; i < base.n; i++)
                res__join_or_main(cx, scope, out, base.q[i], b.data, b.len, depth);
        res__buf_done(res, &b);
    } else if (s == sy->call) {
        res__call(cx, scope, n, out, depth);
    } else if (s == sy->conditional_expression) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i += 2) /* a if cond else b: children 0 and 2 */
            res__expr(cx, scope, ts_node_named_child(n, i), out, depth + 1);
    } else if (s == sy->boolean_operator) {
        res__expr(cx, scope, res__field(n, sy->f_left), out, depth + 1);
        res__expr(cx, scope, res__field(n, sy->f_right), out, depth + 1);
    } else if (s == sy->named_expression) {
        res__expr(cx, scope, res__field(n, sy->f_value), out, depth + 1);
    } else if (s == sy->lambda) {
        /* lambda *a: eval(*a) is eval in disguise: resolve the body if it is a bare call */
        TSNode body = res__unparen(res, res__field(n, sy->f_body));
        if (res__is(body, sy->call))
            res__expr(cx, scope, res__field(body, sy->f_function), out, depth + 1);
    }
}

sg_status sg_resolve_expr(sg_resolver *res, sg_scope *scope, TSNode expr, sg_cands *out)
{
    res__cx cx = {res, res->cur_src};
    out->n = 0;
    res->budget = RES_BUDGET;
    res->truncated = false;
    res->query_seq = res->cur_seq;
    res->query_where = ts_node_start_point(expr);
    res__expr(&cx, scope, expr, out, 0);
    return sg_resolver_failed(res) ? SG_ERR_NOMEM : SG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Pass 1: bindings                                                                             */

static void res__bind_local_ids(res__cx *cx, sg_scope *scope, TSNode target);

static void res__bind_target(res__cx *cx, sg_scope *scope, TSNode target, TSNode value)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    target = res__unparen(res, target);
    TSSymbol s = ts_node_symbol(target);
    if (s == sy->identifier) {
        size_t n;
        const char *t = res__ident(cx, target, &n);
        if (ts_node_is_null(value))
            res__bind(res, scope, t, (uint32_t)n, RES_LOCAL, NULL, target, cx->src);
        else
            res__bind(res, scope, t, (uint32_t)n, RES_ALIAS, NULL, value, cx->src);
        return;
    }
    if (s == sy->pattern_list || s == sy->tuple_pattern || s == sy->list_pattern || s == sy->tuple || s == sy->list) {
        TSNode v = ts_node_is_null(value) ? value : res__unparen(res, value);
        uint32_t k = ts_node_named_child_count(target);
        bool pairwise = !ts_node_is_null(v) &&
                        (res__is(v, sy->expression_list) || res__is(v, sy->tuple) || res__is(v, sy->list)) &&
                        ts_node_named_child_count(v) == k;
        for (uint32_t i = 0; i < k; i++) {
            TSNode t = ts_node_named_child(target, i);
            if (pairwise)
                res__bind_target(cx, scope, t, ts_node_named_child(v, i));
            else
                res__bind_local_ids(cx, scope, t);
        }
        return;
    }
    if (s == sy->list_splat_pattern || s == sy->list_splat)
        res__bind_local_ids(cx, scope, target);
}

/* Every identifier in a target pattern becomes a local (not those under attribute/subscript). */
static void res__bind_local_ids(res__cx *cx, sg_scope *scope, TSNode target)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSSymbol s = ts_node_symbol(target);
    if (s == sy->identifier) {
        size_t n;
        const char *t = res__ident(cx, target, &n);
        res__bind(res, scope, t, (uint32_t)n, RES_LOCAL, NULL, target, cx->src);
        return;
    }
    if (s == sy->attribute || s == sy->subscript)
        return;
    /* Patterns are shallow; a cursor keeps hostile nesting off the stack. */
    TSTreeCursor c = ts_tree_cursor_new(target);
    unsigned depth = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        TSSymbol ns = ts_node_symbol(n);
        bool descend = ns != sy->attribute && ns != sy->subscript && ns != sy->identifier;
        if (ns == sy->identifier && depth > 0) {
            size_t len;
            const char *t = res__ident(cx, n, &len);
            res__bind(res, scope, t, (uint32_t)len, RES_LOCAL, NULL, n, cx->src);
        }
        if (descend && depth < 64 && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
                done = true;
                break;
            }
            depth--;
        }
        if (done || depth == 0)
            break;
    }
    ts_tree_cursor_delete(&c);
}

static const char *res__dotted(res__cx *cx, TSNode n)
{
    size_t len;
    const char *t = res__ident(cx, n, &len);
    char buf[SG_MAX_QNAME + 1];
    size_t o = 0;
    for (size_t i = 0; i < len && o < SG_MAX_QNAME; i++)
        if (!isspace((unsigned char)t[i]) && t[i] != '\\')
            buf[o++] = t[i];
    buf[o] = 0;
    return res__normalize(cx->res, buf, o);
}

static void res__bind_import(res__cx *cx, sg_scope *scope, TSNode stmt)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    bool from = res__is(stmt, sy->import_from_statement);
    const char *module = NULL;
    bool relative = false;
    if (from) {
        TSNode m = res__field(stmt, sy->f_module_name);
        if (res__is(m, sy->relative_import))
            relative = true;
        else if (!ts_node_is_null(m))
            module = res__dotted(cx, m);
    }
    uint32_t k = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(stmt, i);
        if (from && ts_node_eq(c, res__field(stmt, sy->f_module_name)))
            continue;
        if (res__is(c, sy->wildcard_import)) {
            if (module && !relative && sg_array_push(&scope->stars, module, 64)) {
                if (scope->stars.len < 64)
                    res__fail(res); /* out of memory, not the cap */
                else
                    res__limit(res, res->cur_seq, ts_node_start_point(c),
                               "more star imports in one scope than the analysis follows");
            }
            continue;
        }
        TSNode name = c, alias = {0};
        if (res__is(c, sy->aliased_import)) {
            name = res__field(c, sy->f_name);
            alias = res__field(c, sy->f_alias);
        } else if (!res__is(c, sy->dotted_name)) {
            continue;
        }
        const char *full = res__dotted(cx, name);
        if (!full)
            continue;
        if (from) {
            const char *q = relative || !module ? NULL : sg_arena_printf(res->arena, "%s.%s", module, full);
            q = q ? res__normalize(res, q, strlen(q)) : NULL;
            TSNode bound = ts_node_is_null(alias) ? name : alias;
            size_t n;
            const char *t = res__ident(cx, bound, &n);
            res__bind(res, scope, t, (uint32_t)n, q ? RES_IMPORT : RES_LOCAL, q, bound, cx->src);
        } else if (!ts_node_is_null(alias)) {
            size_t n;
            const char *t = res__ident(cx, alias, &n);
            res__bind(res, scope, t, (uint32_t)n, RES_IMPORT, full, alias, cx->src);
        } else {
            /* import a.b.c binds a */
            size_t root = strcspn(full, ".");
            TSNode first = ts_node_named_child(name, 0);
            size_t n;
            const char *t = res__ident(cx, ts_node_is_null(first) ? name : first, &n);
            const char *q = sg_arena_strndup(res->arena, full, root);
            res__bind(res, scope, t, (uint32_t)n, RES_IMPORT, q, name, cx->src);
        }
    }
}

static void res__bind_params(res__cx *cx, sg_scope *scope, TSNode params)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSSymbol s = ts_node_symbol(p);
        if (s == sy->default_parameter || s == sy->typed_default_parameter)
            res__bind_local_ids(cx, scope, res__field(p, sy->f_name));
        else if (s == sy->typed_parameter)
            res__bind_local_ids(cx, scope, ts_node_named_child(p, 0));
        else
            res__bind_local_ids(cx, scope, p);
    }
}

/* What a node does to the scope stack: 0 nothing, 1 opens a function-like scope, 2 a class. */
static int res__scope_kind(const sg_syms *sy, TSSymbol s)
{
    if (s == sy->function_definition || s == sy->lambda || s == sy->list_comprehension ||
        s == sy->set_comprehension || s == sy->dictionary_comprehension || s == sy->generator_expression)
        return 1;
    if (s == sy->class_definition)
        return 2;
    return 0;
}

/* Bindings a node makes in `scope` (pass 1); for scope nodes, `inner` is the new scope. */
static void res__bind_node(res__cx *cx, TSNode n, TSSymbol s, sg_scope *scope, sg_scope *inner)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (s == sy->import_statement || s == sy->import_from_statement) {
        res__bind_import(cx, scope, n);
    } else if (s == sy->assignment) {
        TSNode value = res__field(n, sy->f_right);
        int guard = 0;
        while (res__is(value, sy->assignment) && guard++ < 64)
            value = res__field(value, sy->f_right);
        res__bind_target(cx, scope, res__field(n, sy->f_left), value);
    } else if (s == sy->augmented_assignment) {
        res__bind_local_ids(cx, scope, res__field(n, sy->f_left));
    } else if (s == sy->named_expression) {
        res__bind_target(cx, scope, res__field(n, sy->f_name), res__field(n, sy->f_value));
    } else if (s == sy->for_statement || s == sy->for_in_clause) {
        res->cond++; /* the loop may run zero times */
        res__bind_local_ids(cx, scope, res__field(n, sy->f_left));
        res->cond--;
    } else if (s == sy->as_pattern_target) {
        res__bind_local_ids(cx, scope, n);
    } else if (s == sy->global_statement || s == sy->nonlocal_statement) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode id = ts_node_named_child(n, i);
            size_t len;
            const char *t = res__ident(cx, id, &len);
            res__bind(res, scope, t, (uint32_t)len, s == sy->global_statement ? RES_GLOBAL : RES_NONLOCAL, NULL, id,
                      cx->src);
        }
    } else if (s == sy->class_definition) {
        TSNode name = res__field(n, sy->f_name);
        if (res__is(name, sy->identifier)) {
            size_t len;
            const char *t = res__ident(cx, name, &len);
            if (res__bind(res, scope, t, (uint32_t)len, RES_CLASS, NULL, name, cx->src) == 0) {
                res__binding *b = res__lookup_local(scope, t, (uint32_t)len);
                while (b && b->next)
                    b = b->next;
                if (b && b->kind == RES_CLASS)
                    b->inner = inner;
            }
        }
    } else if (s == sy->delete_statement) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode t = ts_node_named_child(n, i);
            TSNode list[64];
            uint32_t nl = 0;
            if (res__is(t, sy->expression_list) || res__is(t, sy->tuple)) {
                for (uint32_t j = 0; j < ts_node_named_child_count(t) && nl < 64; j++)
                    list[nl++] = ts_node_named_child(t, j);
            } else {
                list[nl++] = t;
            }
            for (uint32_t j = 0; j < nl; j++)
                if (res__is(list[j], sy->identifier)) {
                    size_t len;
                    const char *id = res__ident(cx, list[j], &len);
                    res__bind(res, scope, id, (uint32_t)len, RES_DEL, NULL, list[j], cx->src);
                }
        }
    } else if (s == sy->function_definition) {
        res__bind_local_ids(cx, scope, res__field(n, sy->f_name));
        res__bind_params(cx, inner, res__field(n, sy->f_parameters));
    } else if (s == sy->lambda) {
        TSNode p = res__field(n, sy->f_parameters);
        if (!ts_node_is_null(p))
            res__bind_params(cx, inner, p);
    }
}

/* Pass 1: one cursor walk that builds scopes and bindings and records, with its scope, every
 * node whose symbol pass 2 is interested in (so that pass 2 needs no second walk). */
sg_status sg_resolver_bind(sg_resolver *res, TSNode root, const char *src)
{
    const sg_syms *sy = res->sy;
    res__cx cx = {res, src};
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
    sg_scope *module = res->scopes.len ? res->scopes.items[0] : res__scope_new(res, NULL, false);
    if (!module)
        return SG_ERR_NOMEM;
    sg_scope *cur = module;
    TSTreeCursor c = ts_tree_cursor_new(root);
    unsigned depth = 0;
    sg_status st = SG_OK;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        TSSymbol s = ts_node_symbol(n);
        uint8_t flags = s < RES_NSYMS ? res__flags[s] : 0;
        int sk = flags & RES_F_SCOPE ? res__scope_kind(sy, s) : 0;
        sg_scope *inner = NULL;
        if (sk && !(inner = res__scope_new(res, cur, sk == 2))) {
            st = SG_ERR_NOMEM;
            break;
        }
        if (flags & RES_F_BINDS)
            res__bind_node(&cx, n, s, cur, inner);
        if (s < sizeof res->interest && res->interest[s]) {
            struct res__visit v = {n, cur};
            if (sg_array_push(&res->visits, v, 0)) {
                st = SG_ERR_NOMEM;
                break;
            }
        }
        bool conditional = (flags & RES_F_COND) != 0;
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
        bool has_child = ts_node_child_count(n) > 0;
        if (has_child && depth >= res->max_depth) {
            if (!res->depth_exceeded) {
                res->depth_exceeded = true;
                res->depth_where = ts_node_start_point(n);
            }
            has_child = false;
        }
        if (has_child && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        /* Leave nodes until one has a next sibling. */
        bool done = false;
        for (;;) {
            while (sp && stack[sp - 1].depth >= depth) {
                sp--;
                cur = stack[sp].scope;
                res->cond = stack[sp].cond;
            }
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            if (!ts_tree_cursor_goto_parent(&c)) {
                done = true;
                break;
            }
            depth--;
        }
        if (done)
            break;
    }
    ts_tree_cursor_delete(&c);
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
    res__cx cx = {res, res->cur_src};
    out->n = 0;
    res->budget = RES_BUDGET;
    res->truncated = false;
    res->query_seq = res->cur_seq;
    res->query_where = ts_node_start_point(call);
    TSNode fn = res__unparen(res, res__field(call, sy->f_function));
    TSNode args = res__field(call, sy->f_arguments);
    if (!res__is(fn, sy->call) || !res__is(args, sy->argument_list) || ts_node_named_child_count(args) < 1)
        return false;
    return res__getter_call(&cx, scope, fn, "operator.methodcaller", ts_node_named_child(args, 0), out, 0) && out->n;
}

const char *sg_dotted_name(sg_resolver *res, TSNode n)
{
    res__cx cx = {res, res->cur_src};
    return res__dotted(&cx, n);
}
