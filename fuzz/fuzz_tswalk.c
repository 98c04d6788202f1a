/*
 * libFuzzer harness: the walk on tree-sitter's internals (parsers/tswalk.c) against tree-sitter's
 * public cursor on arbitrary bytes parsed as Python, error trees included. Every node the cursor
 * visits, the walk yields, in the same order, at the same depth, as the same TSNode; the named
 * children without extras (sg_node_named / sg_node_nnamed / sg_children) are the cursor's named
 * children less comments and line continuations; sg_node_field agrees with the field map. Any
 * difference aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/syms.h"
#include "parsers/tswalk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static TSParser *fuzz__parser;

static void fuzz__same(TSNode a, TSNode b)
{
    if (!ts_node_eq(a, b) || memcmp(a.context, b.context, sizeof a.context) != 0 ||
        ts_node_end_byte(a) != ts_node_end_byte(b) || ts_node_symbol(a) != ts_node_symbol(b))
        abort();
}

/* The cursor's children of n (visible, named or not). */
static size_t fuzz__children(TSNode n, TSNode *out, size_t cap)
{
    size_t k = 0;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do {
            if (k == cap) {
                k = cap + 1; /* too many to compare */
                break;
            }
            out[k++] = ts_tree_cursor_current_node(&c);
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return k;
}

static void fuzz__node(TSNode n)
{
    const sg_syms *sy = sg_syms_get();
    TSNode kids[64];
    size_t nk = fuzz__children(n, kids, 64);
    if (nk > 64)
        return;
    sg_walk w;
    sg_walk_init_children(&w, n);
    TSNode got;
    unsigned depth;
    size_t i = 0;
    while (sg_walk_next(&w, false, &got, &depth)) {
        if (i >= nk || depth != 1)
            abort();
        fuzz__same(kids[i++], got);
    }
    sg_walk_end(&w);
    if (i != nk)
        abort();
    uint32_t named = 0;
    for (size_t j = 0; j < nk; j++) {
        if (!ts_node_is_named(kids[j]) || ts_node_is_extra(kids[j]))
            continue;
        fuzz__same(kids[j], sg_node_named(n, named));
        named++;
    }
    if (sg_node_nnamed(n) != named || !ts_node_is_null(sg_node_named(n, named)))
        abort();
    const TSFieldId fields[] = {sy->f_function, sy->f_arguments, sy->f_object, sy->f_attribute, sy->f_name,
                                sy->f_key, sy->f_value, sy->f_left, sy->f_right};
    TSSymbol s = ts_node_symbol(n);
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        if ((s == sy->keyword_argument && fields[f] == sy->f_key) || (s == sy->pair && fields[f] == sy->f_name))
            continue; /* by design: both names answer for both shapes */
        TSNode want = ts_node_child_by_field_id(n, fields[f]);
        TSNode have = sg_node_field(n, fields[f]);
        if (ts_node_is_null(want) != ts_node_is_null(have))
            abort();
        if (!ts_node_is_null(want))
            fuzz__same(want, have);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    if (!fuzz__parser) {
        fuzz__parser = ts_parser_new();
        if (!fuzz__parser || !ts_parser_set_language(fuzz__parser, sg_python_language()))
            abort();
    }
    TSTree *tree = ts_parser_parse_string(fuzz__parser, NULL, (const char *)data, (uint32_t)size);
    if (!tree)
        return 0;
    /* the whole tree: cursor preorder against the walk */
    TSNode root = ts_tree_root_node(tree);
    TSTreeCursor c = ts_tree_cursor_new(root);
    sg_walk w;
    sg_walk_init(&w, root);
    unsigned depth = 0, wdepth;
    TSNode got;
    size_t visited = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        if (!sg_walk_next(&w, true, &got, &wdepth) || wdepth != depth)
            abort();
        fuzz__same(n, got);
        if (visited++ < 4096)
            fuzz__node(n);
        if (ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (!ts_tree_cursor_goto_parent(&c)) {
                done = true;
                break;
            }
            depth--;
        }
        if (done)
            break;
    }
    if (sg_walk_next(&w, true, &got, &wdepth))
        abort(); /* the walk yields more than the cursor visits */
    sg_walk_end(&w);
    ts_tree_cursor_delete(&c);
    ts_tree_delete(tree);
    return 0;
}
