/* Argument types from annotations, read with tree-sitter (annot.h). */
#include "golden_tasks/annot.h"

#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "base/util.h"

const TSLanguage *tree_sitter_python(void);

#define ANNOT_MAX_DEPTH 8
#define ANNOT_MAX_TEXT 1024

static bool annot__is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

/* The name an identifier or a dotted attribute ends with (`typing.List` -> `List`). */
static bool annot__name(TSNode n, const char *src, char *out, size_t size)
{
    if (annot__is(n, "attribute"))
        n = ts_node_child_by_field_name(n, "attribute", 9);
    if (!annot__is(n, "identifier"))
        return false;
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e - s >= size)
        return false;
    memcpy(out, src + s, e - s);
    out[e - s] = '\0';
    return true;
}

static bool annot__in(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(name, *names))
            return true;
    return false;
}

static bool annot__type(TSNode n, const char *src, sg_buf *b, int depth);

/* The arguments of `X[a, b]`: a subscript (named children after the value) or, where the
 * grammar reads a type, a generic_type (`identifier` then `type_parameter` holding the types). */
static size_t annot__args(TSNode sub, TSNode *out, size_t cap)
{
    size_t k = 0;
    TSNode value = ts_node_child_by_field_name(sub, "value", 5);
    if (annot__is(sub, "generic_type")) {
        value = ts_node_named_child(sub, 0);
        sub = ts_node_named_child(sub, 1);
        if (!annot__is(sub, "type_parameter"))
            return 0;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(sub); i++) {
        TSNode c = ts_node_named_child(sub, i);
        if (ts_node_eq(c, value) || annot__is(c, "comment"))
            continue;
        if (k < cap)
            out[k] = c;
        k++;
    }
    return k;
}

static bool annot__subscript(TSNode n, const char *src, sg_buf *b, int depth)
{
    static const char *const lists[] = {"list", "List", "Sequence", "MutableSequence", "Iterable", "Collection",
                                        NULL};
    static const char *const sets[] = {"set", "Set", "MutableSet", "AbstractSet", NULL};
    static const char *const dicts[] = {"dict", "Dict", "Mapping", "MutableMapping", NULL};
    char name[32];
    TSNode value = annot__is(n, "generic_type") ? ts_node_named_child(n, 0) : ts_node_child_by_field_name(n, "value", 5);
    if (!annot__name(value, src, name, sizeof name))
        return false;
    TSNode a[8];
    size_t na = annot__args(n, a, 8);
    if (na == 0 || na > 8)
        return false;
    if (annot__in(name, lists) || annot__in(name, sets)) {
        if (na != 1)
            return false;
        sg_buf_puts(b, annot__in(name, lists) ? "list[" : "set[");
        if (!annot__type(a[0], src, b, depth + 1))
            return false;
        sg_buf_puts(b, "]");
        return true;
    }
    if (annot__in(name, dicts)) {
        if (na != 2)
            return false;
        sg_buf_puts(b, "dict[");
        if (!annot__type(a[0], src, b, depth + 1))
            return false;
        sg_buf_puts(b, ", ");
        if (!annot__type(a[1], src, b, depth + 1))
            return false;
        sg_buf_puts(b, "]");
        return true;
    }
    if (!strcmp(name, "tuple") || !strcmp(name, "Tuple")) {
        sg_buf_puts(b, "tuple[");
        TSNode only = annot__is(a[0], "type") ? ts_node_named_child(a[0], 0) : a[0];
        if (na == 1 && annot__is(only, "tuple") && ts_node_named_child_count(only) == 0) {
            sg_buf_puts(b, "()]"); /* Tuple[()] */
            return true;
        }
        for (size_t k = 0; k < na; k++) {
            if (k)
                sg_buf_puts(b, ", ");
            if (k == 1 && na == 2 &&
                (annot__is(a[1], "ellipsis") ||
                 (annot__is(a[1], "type") && annot__is(ts_node_named_child(a[1], 0), "ellipsis"))))
                sg_buf_puts(b, "...");
            else if (!annot__type(a[k], src, b, depth + 1))
                return false;
        }
        sg_buf_puts(b, "]");
        return true;
    }
    if (!strcmp(name, "Optional")) {
        if (na != 1 || !annot__type(a[0], src, b, depth + 1))
            return false;
        sg_buf_puts(b, " | None");
        return true;
    }
    if (!strcmp(name, "Union")) {
        for (size_t k = 0; k < na; k++) {
            if (k)
                sg_buf_puts(b, " | ");
            if (!annot__type(a[k], src, b, depth + 1))
                return false;
        }
        return true;
    }
    return false;
}

static bool annot__type(TSNode n, const char *src, sg_buf *b, int depth)
{
    if (depth > ANNOT_MAX_DEPTH || ts_node_is_null(n))
        return false;
    if (annot__is(n, "type"))
        return ts_node_named_child_count(n) == 1 && annot__type(ts_node_named_child(n, 0), src, b, depth);
    if (annot__is(n, "none")) {
        sg_buf_puts(b, "None");
        return true;
    }
    if (annot__is(n, "identifier") || annot__is(n, "attribute")) {
        static const char *const plain[] = {"int", "float", "str", "bytes", "bool", "None", NULL};
        char name[32];
        if (!annot__name(n, src, name, sizeof name) || !annot__in(name, plain))
            return false;
        sg_buf_puts(b, name);
        return true;
    }
    if (annot__is(n, "subscript") || annot__is(n, "generic_type"))
        return annot__subscript(n, src, b, depth);
    if (annot__is(n, "binary_operator")) {
        TSNode op = ts_node_child_by_field_name(n, "operator", 8);
        if (ts_node_is_null(op) || strcmp(ts_node_type(op), "|"))
            return false;
        if (!annot__type(ts_node_child_by_field_name(n, "left", 4), src, b, depth + 1))
            return false;
        sg_buf_puts(b, " | ");
        return annot__type(ts_node_child_by_field_name(n, "right", 5), src, b, depth + 1);
    }
    if (annot__is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        return annot__type(ts_node_named_child(n, 0), src, b, depth + 1);
    return false;
}

/* Translate one annotation node; NULL when it says nothing we can generate from. */
static char *annot__text(TSNode n, const char *src)
{
    sg_buf b;
    sg_buf_init(&b, ANNOT_MAX_TEXT);
    if (!annot__type(n, src, &b, 0) || b.failed || b.truncated || !b.data) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}

static TSParser *annot__parser(void)
{
    TSParser *p = ts_parser_new();
    if (p && !ts_parser_set_language(p, tree_sitter_python())) {
        ts_parser_delete(p);
        p = NULL;
    }
    return p;
}

char *sg_annot_type_text(const char *annotation)
{
    TSParser *p = annot__parser();
    if (!p || !annotation)
        return NULL;
    TSTree *tree = ts_parser_parse_string(p, NULL, annotation, (uint32_t)strlen(annotation));
    char *out = NULL;
    if (tree) {
        TSNode root = ts_tree_root_node(tree);
        TSNode st = ts_node_named_child(root, 0);
        if (!ts_node_has_error(root) && ts_node_named_child_count(root) == 1 && annot__is(st, "expression_statement") &&
            ts_node_named_child_count(st) == 1)
            out = annot__text(ts_node_named_child(st, 0), annotation);
        ts_tree_delete(tree);
    }
    ts_parser_delete(p);
    return out;
}

/* The last top-level `def fn` (also inside `if`/decorated definitions at top level). */
static TSNode annot__find_def(TSNode root, const char *src, const char *fn)
{
    TSNode found = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode n = ts_node_named_child(root, i);
        if (annot__is(n, "decorated_definition"))
            n = ts_node_child_by_field_name(n, "definition", 10);
        if (!annot__is(n, "function_definition"))
            continue;
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
        if (e - s == strlen(fn) && !strncmp(src + s, fn, e - s))
            found = n;
    }
    return found;
}

static void annot__free_types(sg_type **types, size_t n)
{
    for (size_t k = 0; k < n; k++)
        sg_type_free(types[k]);
    free(types);
}

/* A source parsed, with the top-level def of a function and its parameters (null nodes and 0
 * without one). */
typedef struct annot__def {
    TSParser *p;
    TSTree *tree;
    TSNode def, params;
    uint32_t np;
} annot__def;

/* Parse src and find fn's def; annot__def_free after. Fails only with SG_ERR_NOMEM. */
static sg_status annot__params(const char *src, const char *fn, annot__def *d)
{
    if (!(d->p = annot__parser()))
        return SG_ERR_NOMEM;
    if (!(d->tree = ts_parser_parse_string(d->p, NULL, src, (uint32_t)strlen(src)))) {
        ts_parser_delete(d->p);
        return SG_ERR_NOMEM;
    }
    d->def = annot__find_def(ts_tree_root_node(d->tree), src, fn);
    d->params = ts_node_is_null(d->def) ? d->def : ts_node_child_by_field_name(d->def, "parameters", 10);
    d->np = ts_node_is_null(d->params) ? 0 : ts_node_named_child_count(d->params);
    return SG_OK;
}

static void annot__def_free(annot__def *d)
{
    ts_tree_delete(d->tree);
    ts_parser_delete(d->p);
}

sg_status sg_annot_arg_types(const char *src, const char *fn, sg_type ***ret, size_t *ret_n)
{
    if (!src || !fn || !ret || !ret_n)
        return SG_ERR_INVALID_ARG;
    annot__def fd;
    if (annot__params(src, fn, &fd) != SG_OK)
        return SG_ERR_NOMEM;
    sg_status st = SG_ERR_EMPTY;
    sg_type **types = NULL;
    size_t n = 0;
    if (fd.np > 0 && fd.np <= 32 && (types = calloc(fd.np, sizeof *types)) != NULL) {
        st = SG_OK;
        for (uint32_t i = 0; i < fd.np && st == SG_OK; i++) {
            TSNode prm = ts_node_named_child(fd.params, i);
            if (!annot__is(prm, "typed_parameter")) {
                /* a default, `*`, `*args`, `/`, `**kw`: the positional list ends here; an
                 * unannotated parameter: the annotations do not say */
                if (annot__is(prm, "identifier"))
                    st = SG_ERR_EMPTY;
                break;
            }
            TSNode first = ts_node_named_child(prm, 0);
            if (!annot__is(first, "identifier")) { /* *args: List[int] and the like */
                break;
            }
            char *text = annot__text(ts_node_child_by_field_name(prm, "type", 4), src);
            sg_diag d;
            sg_diag_init(&d);
            if (!text || sg_type_parse(text, &types[n], &d) != SG_OK)
                st = SG_ERR_EMPTY;
            else
                n++;
            free(text);
        }
        if (st == SG_OK && n == 0)
            st = SG_ERR_EMPTY;
    } else if (fd.np > 0 && fd.np <= 32) {
        st = SG_ERR_NOMEM;
    }
    annot__def_free(&fd);
    if (st != SG_OK) {
        annot__free_types(types, n);
        return st;
    }
    *ret = types;
    *ret_n = n;
    return SG_OK;
}

void sg_annot_kw_free(sg_annot_kw *kw, size_t n)
{
    for (size_t k = 0; kw && k < n; k++) {
        free(kw[k].name);
        sg_type_free(kw[k].type);
    }
    free(kw);
}

sg_status sg_annot_kwonly(const char *src, const char *fn, sg_annot_kw **ret, size_t *ret_n)
{
    if (!src || !fn || !ret || !ret_n)
        return SG_ERR_INVALID_ARG;
    *ret = NULL;
    *ret_n = 0;
    annot__def fd;
    if (annot__params(src, fn, &fd) != SG_OK)
        return SG_ERR_NOMEM;
    sg_status st = ts_node_is_null(fd.def) || fd.np > 32 ? SG_ERR_EMPTY : SG_OK;
    sg_annot_kw *kw = st == SG_OK && fd.np ? calloc(fd.np, sizeof *kw) : NULL;
    if (st == SG_OK && fd.np && !kw)
        st = SG_ERR_NOMEM;
    size_t n = 0;
    bool kwonly = false;
    for (uint32_t i = 0; i < fd.np && st == SG_OK; i++) {
        TSNode prm = ts_node_named_child(fd.params, i);
        TSNode first = ts_node_named_child(prm, 0);
        if (annot__is(prm, "keyword_separator") || annot__is(prm, "list_splat_pattern") ||
            (annot__is(prm, "typed_parameter") && annot__is(first, "list_splat_pattern"))) {
            kwonly = true; /* `*` or `*args` */
            continue;
        }
        if (annot__is(prm, "dictionary_splat_pattern") ||
            (annot__is(prm, "typed_parameter") && annot__is(first, "dictionary_splat_pattern")))
            break; /* `**kw`: the last */
        if (!kwonly)
            continue;
        TSNode name = annot__is(prm, "identifier")          ? prm
                      : annot__is(prm, "typed_parameter")   ? first
                      : ts_node_child_by_field_name(prm, "name", 4); /* (typed_)default_parameter */
        if (!annot__is(name, "identifier"))
            continue;
        uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
        sg_annot_kw *k = &kw[n];
        if (!(k->name = sg_strndup_buf(src + s, e - s))) {
            st = SG_ERR_NOMEM;
            break;
        }
        n++;
        k->required = annot__is(prm, "identifier") || annot__is(prm, "typed_parameter");
        TSNode ty = ts_node_child_by_field_name(prm, "type", 4);
        char *text = ts_node_is_null(ty) ? NULL : annot__text(ty, src);
        sg_diag d;
        sg_diag_init(&d);
        if (text && sg_type_parse(text, &k->type, &d) != SG_OK)
            k->type = NULL; /* (a type the language does not take: no type) */
        free(text);
    }
    annot__def_free(&fd);
    if (st != SG_OK || !n) {
        sg_annot_kw_free(kw, n);
        return st;
    }
    *ret = kw;
    *ret_n = n;
    return SG_OK;
}
