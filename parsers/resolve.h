/*
 * Python name resolution over a tree-sitter-python tree: which qualified name ("os.system",
 * "eval", "subprocess.Popen") an expression stands for, through imports, aliases, star imports,
 * __import__/importlib, getattr with constant names, sys.modules, builtins and __builtins__.
 *
 * Two passes over each block: sg_resolver_bind() records every binding per scope (imports,
 * assignments, defs, parameters, loop targets...), so that a use may precede its import; then the
 * rule engine walks again with sg_resolver_walk() and asks sg_resolve_expr() at each use.
 * Resolution is flow-insensitive and conservative: a name bound to several things in one scope
 * resolves to all of them.
 *
 * Files: syms.c (symbol table, node helpers), scope.c (scopes, bindings), consteval.c (constant
 * evaluation), resolve.c (life cycle, resolution), bind.c (the two passes); resolve_int.h is
 * their private header.
 *
 * Ownership: the resolver owns its arena; every string it returns lives until sg_resolver_free.
 * Source texts and trees passed in are borrowed and must outlive the resolver.
 */
#ifndef SG_RESOLVE_H
#define SG_RESOLVE_H

#include <tree_sitter/api.h>

#include "base/util.h"
#include "syms.h"

#define SG_MAX_CANDS 32
#define SG_MAX_QNAME 256

typedef struct sg_scope sg_scope;
typedef struct sg_resolver sg_resolver;

typedef struct sg_cands {
    const char *q[SG_MAX_CANDS];
    int n;
} sg_cands;

/*
 * What the resolver needs to know about the names that matter, given by the layer above (the rule
 * set, rules/pack.c: sg_rules_names): which module names alias others (posix -> os), and which
 * names some rule is about, so that it follows those and not every name of the program.
 */
typedef struct sg_name_alias {
    char *from, *to;
} sg_name_alias;

typedef struct sg_names {
    const void *ctx;
    const sg_name_alias *aliases;
    size_t naliases;
    /* `qname` matches some pattern (used for `from m import *`) */
    bool (*knows)(const void *ctx, const char *qname);
    /* the first component (root_len bytes) of `qname` may match some pattern */
    bool (*root_known)(const void *ctx, const char *qname, size_t root_len);
    /* `name` (n bytes) is a module some pattern is about (os, subprocess, pickle...) */
    bool (*module_root)(const void *ctx, const char *name, size_t n);
    /* the first component of `qname` is a module alias */
    bool (*root_alias)(const void *ctx, const char *qname, size_t root_len);
} sg_names;

/* `names` is borrowed and must outlive the resolver (so must what it points to). */
sg_resolver *sg_resolver_new(const sg_names *names, unsigned max_depth);
void sg_resolver_free(sg_resolver *res);
sg_arena *sg_resolver_arena(sg_resolver *res);
/* True once an allocation failed in the resolver or its arena (sticky): every answer given
 * since may be incomplete (a candidate or a constant missing), so the check must end in an
 * error, never in a verdict. sg_resolver_bind and sg_resolver_walk then return SG_ERR_NOMEM. */
bool sg_resolver_failed(const sg_resolver *res);
/* True once a walk met a tree deeper than max_depth (the deeper part was not analysed). */
bool sg_resolver_depth_exceeded(const sg_resolver *res, TSPoint *ret_where);

/* True once the analysis became incomplete: a name bound, or star-imported, more often than the
 * caps allow, or an expression standing for more than SG_MAX_CANDS names. The caller blocks the
 * snippet (SG002) at *ret_where in block *ret_block; *ret_reason says which limit. */
bool sg_resolver_limit_hit(const sg_resolver *res, size_t *ret_block, TSPoint *ret_where, const char **ret_reason);
bool sg_scope_is_class(const sg_scope *scope);

/* Pass 1 over one block. Blocks of one document share their module scope. */
sg_status sg_resolver_bind(sg_resolver *res, TSNode root, const char *src);

/* Mark a node type as one pass 2 visits (before binding). */
void sg_resolver_interest(sg_resolver *res, TSSymbol symbol);
/* Pass 2: visit, in source order with its scope, every node of interest of block number
 * `block` (0-based, in the order the blocks were bound). */
typedef void (*sg_visit_fn)(void *ctx, TSNode node, sg_scope *scope);
sg_status sg_resolver_walk(sg_resolver *res, size_t block, const char *src, sg_visit_fn visit, void *ctx);

/* The candidates an expression may stand for (normalised qualified names). SG_ERR_NOMEM when an
 * allocation failed: then `out` may miss candidates and the check must end in an error. */
sg_status sg_resolve_expr(sg_resolver *res, sg_scope *scope, TSNode expr, sg_cands *out);
/* `operator.methodcaller("name", ...)(obj)` calls obj.name: the candidates of obj.name, or false. */
bool sg_resolve_methodcaller(sg_resolver *res, sg_scope *scope, TSNode call, sg_cands *out);
/* The value of a constant string expression ("a" "b", "a" + "b", "".join([...]), s[::-1], chr(65),
 * a name bound to one), or NULL. */
const char *sg_const_str(sg_resolver *res, sg_scope *scope, TSNode expr, size_t *ret_len);
/* The constant values a string expression can take: 1 and its value when it is a constant; when
 * it is one but for the variable of a loop over a literal sequence (`for m in ("json", "csv"):
 * import_module(f"pkg.{m}")`), one value per item of that sequence (at most RES_MAX_CHOICES, and
 * `max`). -1 when it is neither. Values are arena strings. */
#define RES_MAX_CHOICES 16
/* The values a name is assigned anywhere in its scope (`name = value`, each binding of it), at
 * most `max`: how many, 0 when it is not a name bound by assignment. */
int sg_name_values(sg_resolver *res, sg_scope *scope, TSNode name, TSNode *values, int max);
/* Whole-region scans (a dict's uses, the keys stored into a mapping) share one budget per
 * document, RES_SCAN_BUDGET nodes: a scan asks before it starts and reports what it visited.
 * False when the budget is spent: the analysis is then incomplete at `where` (SG002 blocks the
 * snippet) and the scan must not be made. */
#define RES_SCAN_BUDGET 8000000ul
bool sg_resolver_scan(sg_resolver *res, unsigned long visited, TSPoint where);
int sg_const_choices(sg_resolver *res, sg_scope *scope, TSNode expr, const char **items, int max);
/* Truthiness of a literal, or of a name bound exactly once to one (SHELL = False): 1 true, 0 false,
 * -1 not a literal. */
int sg_literal_truthy(sg_resolver *res, sg_scope *scope, TSNode expr);
/* The mapping a name stands for when `**name` is written: the name is bound exactly once, to a
 * dict display ({"k": v}) or to dict(k=v, ...), and nothing in the document can have changed it
 * (its every other use is `**name`, a read name[k], or name.get/items/keys/values/copy(); read
 * in its function, or in the whole document for a module-level name of a one-block document).
 * Returns that display or call, or a null node when the name is anything else. */
TSNode sg_const_dict(sg_resolver *res, sg_scope *scope, TSNode expr);
/* Does this use of a mapping (a name, or `self.attr`) only read it: `**m`, `m[k]` as a value
 * (not a target, nothing done to the item), `m.get/items/keys/values/copy()`? */
bool sg_mapping_read_only_use(const char *src, TSNode use);
/* For an f-string: its text with every interpolation replaced by "x" (arena), or NULL. */
const char *sg_fstring_skeleton(sg_resolver *res, TSNode expr);
/* True if the expression is a literal of any kind (number, string, bool, None, container of literals). */
bool sg_is_literal(sg_resolver *res, sg_scope *scope, TSNode expr);
/* The items of an argv: a list or tuple (or a name bound once to one, or "a b".split()): each item's
 * constant text (arena) or NULL where it is not a constant (a *splat ends the list with a NULL).
 * Returns how many (at most max), or -1 when `expr` is not an argv. */
int sg_const_argv(sg_resolver *res, sg_scope *scope, TSNode expr, const char **items, int max);
/* True if the expression is text: a literal or f-string, a concatenation or formatting of one, a call
 * returning text (format, join, read, input, str...), or a name bound to one of these. */
bool sg_is_stringish(sg_resolver *res, sg_scope *scope, TSNode expr);
/* Python's escape sequences in the text of a (non-raw) string literal, decoded and appended to
 * out (\N{...} and unknown escapes are kept as written). */
void sg_py_unescape(sg_buf *out, const char *s, size_t n);
/* For an f-string: the constant text before its first interpolation (arena), or NULL. */
const char *sg_fstring_prefix(sg_resolver *res, TSNode expr);

/* A dotted name (`a . b`) as text without white space, NFKC-normalised, module aliases applied. */
const char *sg_dotted_name(sg_resolver *res, TSNode n);

#endif
