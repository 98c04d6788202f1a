/*
 * The tree-sitter-python symbol table, built once from the SG_PY_SYMBOLS / SG_PY_FIELDS list in
 * syms.h, and the node helpers shared by the resolver and the rule engine.
 */
#include "syms.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

const TSLanguage *tree_sitter_python(void);

static sg_syms syms__table;
static pthread_once_t syms__once = PTHREAD_ONCE_INIT;

const TSLanguage *sg_python_language(void)
{
    return tree_sitter_python();
}

static TSSymbol syms__sym(const char *name, bool named)
{
    return ts_language_symbol_for_name(tree_sitter_python(), name, (uint32_t)strlen(name), named);
}

static TSFieldId syms__field_id(const char *name)
{
    return ts_language_field_id_for_name(tree_sitter_python(), name, (uint32_t)strlen(name));
}

static void syms__init(void)
{
    sg_syms *s = &syms__table;
#define SYMS__SET_SYMBOL(member, name, named) s->member = syms__sym(name, named);
#define SYMS__SET_FIELD(member, name) s->member = syms__field_id(name);
    SG_PY_SYMBOLS(SYMS__SET_SYMBOL)
    SG_PY_FIELDS(SYMS__SET_FIELD)
#undef SYMS__SET_SYMBOL
#undef SYMS__SET_FIELD
}

const sg_syms *sg_syms_get(void)
{
    pthread_once(&syms__once, syms__init);
    return &syms__table;
}

/* The right side of an assignment: the first child after its `=` that is not an extra (a line
 * continuation may stand between them: `f = \\` then `eval` on the next line); null for an
 * annotation without a value (`x: int`). */
static TSNode syms__after_eq(TSNode n, TSSymbol eq)
{
    uint32_t count = ts_node_child_count(n);
    if (count >= 3 && ts_node_symbol(ts_node_child(n, count - 2)) == eq)
        return sg_node_last_child(n); /* the common shape: `=` then the value, last */
    sg_walk w;
    sg_walk_init_children(&w, n);
    TSNode c, ret = {0};
    unsigned depth;
    bool seen_eq = false;
    while (sg_walk_next(&w, false, &c, &depth)) {
        if (!seen_eq) {
            seen_eq = ts_node_symbol(c) == eq;
        } else if (!ts_node_is_extra(c)) {
            ret = c;
            break;
        }
    }
    sg_walk_end(&w);
    return ret;
}

/* A field of a node. ts_node_child_by_field_id scans the field map of every child, so the
 * shapes the engine asks about most are answered by position (extras such as comments can
 * neither start nor end these nodes; between `=` and the value, syms__after_eq). */
TSNode sg_node_field(TSNode n, TSFieldId f)
{
    const sg_syms *sy = &syms__table;
    if (ts_node_is_null(n))
        return n;
    TSSymbol s = ts_node_symbol(n);
    uint32_t count = ts_node_child_count(n);
    if (count >= 2) {
        if (s == sy->call) {
            if (f == sy->f_function)
                return sg_node_first_child(n);
            if (f == sy->f_arguments)
                return sg_node_last_child(n);
        } else if (s == sy->attribute) {
            if (f == sy->f_object)
                return sg_node_first_child(n);
            if (f == sy->f_attribute)
                return sg_node_last_child(n);
        } else if (s == sy->keyword_argument || s == sy->pair) {
            if (f == sy->f_name || f == sy->f_key)
                return sg_node_first_child(n);
            if (f == sy->f_value)
                return sg_node_last_child(n);
        } else if (s == sy->binary_operator || s == sy->boolean_operator || s == sy->augmented_assignment) {
            if (f == sy->f_left)
                return sg_node_first_child(n);
            if (f == sy->f_right)
                return sg_node_last_child(n);
        } else if (s == sy->assignment) {
            if (f == sy->f_left)
                return sg_node_first_child(n);
            if (f == sy->f_right)
                return syms__after_eq(n, sy->eq_token);
        }
    }
    return ts_node_child_by_field_id(n, f);
}

void sg_children_init(sg_children *it, TSNode parent)
{
    sg_walk_init_children(&it->walk, parent);
}

bool sg_children_next(sg_children *it, TSNode *ret_child)
{
    TSNode n;
    unsigned depth;
    while (sg_walk_next(&it->walk, false, &n, &depth))
        if (ts_node_is_named(n) && !ts_node_is_extra(n)) {
            *ret_child = n;
            return true;
        }
    return false;
}

void sg_children_end(sg_children *it)
{
    sg_walk_end(&it->walk);
}

uint32_t sg_node_nnamed(TSNode n)
{
    uint32_t k = ts_node_named_child_count(n); /* 0 for a null node */
    if (k == 0 || !sg_walk_has_extra_child(n))
        return k;
    k = 0;
    sg_children it;
    TSNode c;
    sg_children_init(&it, n);
    while (sg_children_next(&it, &c))
        k++;
    sg_children_end(&it);
    return k;
}

TSNode sg_node_named(TSNode n, uint32_t i)
{
    if (ts_node_is_null(n) || !sg_walk_has_extra_child(n))
        return ts_node_named_child(n, i);
    TSNode c, ret = {0};
    sg_children it;
    sg_children_init(&it, n);
    for (uint32_t k = 0; sg_children_next(&it, &c); k++)
        if (k == i) {
            ret = c;
            break;
        }
    sg_children_end(&it);
    return ret;
}

/* Skip parentheses. */
TSNode sg_node_unparen(TSNode n)
{
    int guard = 0;
    while (sg_node_is(n, syms__table.parenthesized_expression) && sg_node_nnamed(n) == 1 && guard++ < 64)
        n = sg_node_named(n, 0);
    return n;
}
