/*
 * The resolver's private header: its state and the functions its files share. Not for use
 * outside parsers/resolve*.c, parsers/scope.c, parsers/consteval.c and parsers/bind.c.
 *
 *   scope.c     scopes and binding tables (hashing, binding, lookup)
 *   consteval.c constant evaluation (strings, escapes, join, chr, f-strings, slicing, truthiness)
 *   resolve.c   the resolver's life cycle and resolution of expressions to qualified names
 *   bind.c      pass 1 (bindings and nodes of interest) and pass 2 (the walk)
 *
 * Ownership: everything a resolver allocates lives in its arena, except the growable arrays
 * (scopes, visits, block_visits, each scope's stars) that sg_resolver_free releases.
 */
#ifndef SG_RESOLVE_INT_H
#define SG_RESOLVE_INT_H

#include "resolve.h"

#define RES_MAX_ALIAS_DEPTH 24
#define RES_BUDGET 32768 /* evaluation steps for one top-level question */
#define RES_MAX_CONST 4096

/* What a binding binds a name to. */
typedef enum sg_binding_kind {
    RES_IMPORT,   /* qname: what was imported */
    RES_ALIAS,    /* node: the value assigned (resolved lazily) */
    RES_LOCAL,    /* an opaque local value (def, class, parameter, loop target) */
    RES_GLOBAL,   /* `global name`: look it up in the module scope */
    RES_NONLOCAL, /* `nonlocal name`: look it up in the enclosing function scopes */
    RES_DEL,      /* `del name`: the builtin or star-imported meaning may show again */
    RES_CLASS,    /* a class: attributes resolve through its scope (inner) */
    RES_MEMBER,   /* node: a match subject; qname: the member path a pattern binds (`system`, `a.b`) */
    RES_FUNC,     /* a `def`: func is its record (what it returns) */
    RES_PARAM,    /* a parameter of func: its default (node, in scope) and the arguments of the
                     calls of func found in the document (resolve.c, res__param) */
} sg_binding_kind;

/* Values that cross a function's boundary, found by pass 1 (bind.c) and followed by name,
 * flow-insensitively, by resolve.c: the arguments of the calls of a function in the document
 * (to its parameters), what it returns (to its calls), and what methods store on `self.name`
 * (to `self.name` in any method). */
typedef struct sg_res_ret {
    TSNode value;
    struct sg_scope *scope;
    const char *src;
    uint32_t seq;
    struct sg_res_ret *next;
} sg_res_ret;

typedef struct sg_res_func {
    const char *name;
    uint32_t name_len;
    const char *cls; /* a method: the name of its class (for `Cls(...)` calling `__init__`) */
    uint32_t cls_len;
    sg_res_ret *returns;
} sg_res_func;

/* A call `name(args)` or `obj.name(args)`, or a store `self.name = value` (args: the value). */
typedef struct sg_res_site {
    const char *name;
    uint32_t len;
    bool attr;
    TSNode args;
    struct sg_scope *scope;
    const char *src;
    uint32_t seq;
    struct sg_res_site *next;
} sg_res_site;

#define RES_SITE_BUCKETS 256

/* A node pass 2 visits, with the scope pass 1 found it in. */
struct sg_res_visit {
    TSNode node;
    sg_scope *scope;
};

/* One binding of a name in a scope (scope.c); arena memory. */
typedef struct sg_binding {
    const char *name;
    uint32_t name_len;
    sg_binding_kind kind;
    const char *qname;
    TSNode node;
    const char *src;
    sg_scope *scope;
    uint32_t seq, pos;         /* block number and byte offset where the binding is made */
    bool definite;             /* made unconditionally (not under if/for/while/try/with/match) */
    sg_scope *inner;           /* RES_CLASS: the class body's scope */
    bool busy, cached;         /* RES_ALIAS: resolving now (a cycle), result memoised */
    int8_t dict_frozen;        /* RES_ALIAS (sg_const_dict): 0 not asked yet, 1 an unchanged dict, -1 not */
    sg_cands *cache;
    sg_res_func *func;         /* RES_FUNC: its record; RES_PARAM: the function it belongs to */
    int param_index;           /* RES_PARAM: its position (-1: keyword only) */
    struct sg_binding *next; /* same name, same scope */
    struct sg_binding *tail; /* the head of a chain: its last binding, and how many it holds */
    uint32_t chain_len;
} sg_binding;

/* A scope: an open-addressing table of binding chains, one chain per name (scope.c). */
struct sg_scope {
    sg_scope *parent;
    bool is_class;
    sg_res_func *func; /* a def's scope: its record (returns are added to it) */
    sg_binding **slots;
    uint32_t cap, count;
    SG_ARRAY(const char *) stars; /* modules of `from m import *` */
};

/* The resolver: its arena, scopes, pass-1 results, and the state of the question in progress. */
struct sg_resolver {
    sg_arena *arena;
    const sg_syms *sy;
    const sg_names *names;
    unsigned max_depth;
    bool depth_exceeded;
    TSPoint depth_where;
    SG_ARRAY(sg_scope *) scopes; /* creation order; index 0 is the shared module scope */
    SG_ARRAY(struct sg_res_visit) visits; /* nodes of interest recorded by pass 1, in order */
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
    struct sg_binding *alias_path[64]; /* alias bindings being resolved, outermost first */
    unsigned alias_n;
    /* binding chains (a name bound several times in a scope) being resolved, with what they stand
     * for so far: a use of the name inside one of its own bindings (s = s.strip()) gets that,
     * and the chain is resolved again until nothing new comes (resolve.c, res__name) */
    struct {
        struct sg_binding *head;
        sg_cands *acc;
    } chains[16];
    unsigned chains_n;
    /* following values across function boundaries (resolve.c, res__across): how deep, and
     * whether its own step budget ran out. That analysis is best effort on top of the rest: its
     * limits cut it short and never make the snippet uncheckable (SG002) */
    unsigned across_nest;
    /* sg_const_choices: the loop variable being tried (choice_b, its item choice_i), and the first
     * loop variable a failed evaluation met (choice_seen) */
    struct sg_binding *choice_b, *choice_seen;
    uint32_t choice_i;
    unsigned long scanned; /* nodes visited by whole-region scans (sg_resolver_scan) */
    sg_res_site *calls[RES_SITE_BUCKETS];  /* call sites by callee name (bind.c) */
    sg_res_site *stores[RES_SITE_BUCKETS]; /* `self.name = value` by name (bind.c) */
};

/* The bucket of a name in sg_resolver.calls / .stores. */
static inline uint32_t sg_res_site_bucket(const char *name, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h % RES_SITE_BUCKETS;
}

/* The resolver and the source text of the node being looked at. */
typedef struct sg_res_cx {
    sg_resolver *res;
    const char *src;
} sg_res_cx;

/* ---- resolve.c: state shared by every file */

/* The analysis is incomplete: the caller blocks the snippet (SG002) at `where` in block `seq`. */
void sg_res_limit(sg_resolver *res, uint32_t seq, TSPoint where, const char *reason);
/* Record an allocation failure: the check in progress must end in an error, not a verdict. */
void sg_res_fail(sg_resolver *res);
/* Release a scratch buffer, remembering whether it ran out of memory. */
void sg_res_buf_done(sg_resolver *res, sg_buf *b);
/* An identifier's text as Python sees it (NFKC-normalised; in place when ASCII). */
const char *sg_res_ident(sg_res_cx *cx, TSNode n, size_t *len);
/* Normalise a dotted name (see resolve.c); an arena string or NULL. */
const char *sg_res_normalize(sg_resolver *res, const char *q, size_t n);
/* A dotted_name node as a normalised qualified name (arena) or NULL. */
const char *sg_res_dotted(sg_res_cx *cx, TSNode n);
/* Add to `out` what expression `n` may stand for. */
void sg_res_expr(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_cands *out, int depth);

/* ---- scope.c: scopes and bindings */

sg_scope *sg_scope_new(sg_resolver *res, sg_scope *parent, bool is_class);
/* The first binding of `name` in `s` itself, or NULL. */
sg_binding *sg_scope_lookup(const sg_scope *s, const char *name, uint32_t n);
/* Bind in `s`, or where `global` / `nonlocal` in `s` sends the name. 0, or -1 out of memory. */
int sg_scope_bind(sg_resolver *res, sg_scope *s, const char *name, uint32_t n, sg_binding_kind kind,
                  const char *qname, TSNode node, const char *src);
/* The scope that owns `name` as seen from `scope`, and the first binding there; NULL if unbound. */
sg_binding *sg_scope_find(sg_scope *scope, const char *name, uint32_t n, sg_scope **ret_scope);

/* ---- consteval.c: constant evaluation */

/* Append the value of constant expression `n` to `out`; false if it is not a constant. */
bool sg_const_eval(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth);

#endif
