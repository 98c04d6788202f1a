/*
 * The tree walk of tswalk.h, on tree-sitter's internal structures (the runtime's private headers,
 * from the pinned sources the build compiles: parsers/CMakeLists.txt). Each step is what
 * ts_tree_cursor_child_iterator_next and ts_tree_cursor_current_node do in tree-sitter 0.25
 * (lib/src/tree_cursor.c), without re-deriving the level's state on every step.
 */
#include "tswalk.h"

#include <string.h>

#include "alloc.h"
#include "language.h"
#include "length.h"
#include "subtree.h"
#include "tree.h"

static Length walk__length(uint32_t bytes, TSPoint point)
{
    return (Length){.bytes = bytes, .extent = point};
}

/* A frame over the children of `s`, the first of which starts at `pos`. */
static void walk__push(sg_walk *w, const Subtree *s, Length pos, uint32_t depth)
{
    if (w->n == w->cap) {
        uint32_t cap = w->cap * 2;
        sg_walk_frame *f;
        if (w->frames == w->inline_frames) {
            f = ts_malloc(cap * sizeof *f); /* aborts on failure, as the cursor's stack does */
            memcpy(f, w->frames, w->n * sizeof *f);
        } else {
            f = ts_realloc(w->frames, cap * sizeof *f);
        }
        w->frames = f;
        w->cap = cap;
    }
    sg_walk_frame *f = &w->frames[w->n++];
    f->children = ts_subtree_children(*s);
    f->aliases = ts_language_alias_sequence(w->tree->language, s->ptr->production_id);
    f->count = s->ptr->child_count;
    f->idx = 0;
    f->sidx = 0;
    f->depth = depth;
    f->pos_bytes = pos.bytes;
    f->pos_point = pos.extent;
}

static void walk__start(sg_walk *w, TSNode root)
{
    w->tree = root.tree;
    w->last = root;
    w->last_depth = 0;
    w->started = false;
    w->n = 0;
    w->cap = SG_WALK_INLINE;
    w->frames = w->inline_frames;
}

void sg_walk_init(sg_walk *w, TSNode root)
{
    walk__start(w, root);
}

void sg_walk_init_children(sg_walk *w, TSNode parent)
{
    walk__start(w, parent);
    w->started = true;
    const Subtree *s = parent.id;
    if (!ts_node_is_null(parent) && ts_subtree_child_count(*s) > 0)
        walk__push(w, s, walk__length(parent.context[0], (TSPoint){parent.context[1], parent.context[2]}), 1);
}

bool sg_walk_next(sg_walk *w, bool descend, TSNode *ret_node, unsigned *ret_depth)
{
    if (!w->started) {
        w->started = true;
        if (ts_node_is_null(w->last))
            return false;
        *ret_node = w->last;
        *ret_depth = 0;
        return true;
    }
    if (descend && !ts_node_is_null(w->last)) {
        const Subtree *s = w->last.id;
        if (ts_subtree_child_count(*s) > 0)
            walk__push(w, s, walk__length(w->last.context[0], (TSPoint){w->last.context[1], w->last.context[2]}),
                       w->last_depth + 1);
    }
    while (w->n > 0) {
        sg_walk_frame *f = &w->frames[w->n - 1];
        if (f->idx == f->count) {
            w->n--;
            continue;
        }
        const Subtree *children = f->children;
        const Subtree *child = &children[f->idx];
        Length pos = walk__length(f->pos_bytes, f->pos_point);
        bool visible = ts_subtree_visible(*child);
        TSSymbol alias = 0;
        if (!ts_subtree_extra(*child)) {
            if (f->aliases) {
                alias = f->aliases[f->sidx];
                visible |= alias != 0;
            }
            f->sidx++;
        }
        Length next = length_add(pos, ts_subtree_size(*child));
        f->idx++;
        if (f->idx < f->count)
            next = length_add(next, ts_subtree_padding(children[f->idx]));
        f->pos_bytes = next.bytes;
        f->pos_point = next.extent;
        if (visible) {
            w->last = (TSNode){{pos.bytes, pos.extent.row, pos.extent.column, alias}, child, w->tree};
            w->last_depth = f->depth;
            *ret_node = w->last;
            *ret_depth = f->depth;
            return true;
        }
        /* a hidden node: its visible descendants stand in its place, at this depth */
        if (ts_subtree_visible_child_count(*child) > 0)
            walk__push(w, child, pos, f->depth);
    }
    return false;
}

/* Whether an extra stands among the children of s, looking through hidden children as the walk
 * does (they are flattened in place); a raw scan of the children arrays, no nodes made. */
static bool walk__has_extra(Subtree s, unsigned depth)
{
    if (ts_subtree_child_count(s) == 0)
        return false;
    const Subtree *children = ts_subtree_children(s);
    for (uint32_t i = 0; i < s.ptr->child_count; i++) {
        Subtree c = children[i];
        if (ts_subtree_extra(c))
            return true;
        if (!ts_subtree_visible(c) && ts_subtree_visible_child_count(c) > 0 &&
            (depth >= 64 || walk__has_extra(c, depth + 1)))
            return true; /* past 64 hidden levels: said yes, so the caller takes the exact path */
    }
    return false;
}

bool sg_walk_has_extra_child(TSNode n)
{
    return !ts_node_is_null(n) && walk__has_extra(*(const Subtree *)n.id, 0);
}

/* ts_node_child(n, 0) or ts_node_child(n, count - 1), found as ts_node_child finds it (a hidden
 * first or last child stands for its own children: the search goes down into it) but on the
 * children arrays, without its iterator's per-child relevance checks; the position of a first
 * child is its parent's, of a last one summed over its siblings. An extra at that end, or a
 * hidden child with no node in it, goes to ts_node_child. */
static TSNode walk__end_child(TSNode n, bool last)
{
    if (ts_node_is_null(n))
        return n;
    TSNode cur = n;
    for (unsigned level = 0; level < 16; level++) {
        const Subtree *s = cur.id;
        uint32_t cc = ts_subtree_child_count(*s);
        if (cc == 0)
            break;
        const Subtree *children = ts_subtree_children(*s);
        uint32_t at = last ? cc - 1 : 0;
        const Subtree *child = &children[at];
        if (ts_subtree_extra(*child))
            break;
        TSSymbol alias = 0;
        const TSSymbol *aliases = ts_language_alias_sequence(n.tree->language, s->ptr->production_id);
        if (aliases) {
            uint32_t sidx = 0; /* the structural index: children before it that are not extras */
            for (uint32_t i = 0; i < at; i++)
                sidx += !ts_subtree_extra(children[i]);
            alias = aliases[sidx];
        }
        Length pos = walk__length(cur.context[0], (TSPoint){cur.context[1], cur.context[2]});
        for (uint32_t i = 0; i < at; i++) {
            pos = length_add(pos, ts_subtree_size(children[i]));
            pos = length_add(pos, ts_subtree_padding(children[i + 1]));
        }
        TSNode node = {{pos.bytes, pos.extent.row, pos.extent.column, alias}, child, n.tree};
        if (ts_subtree_visible(*child) || alias)
            return node;
        if (ts_subtree_visible_child_count(*child) == 0)
            break;
        cur = node;
    }
    uint32_t count = ts_node_child_count(n);
    return ts_node_child(n, last && count ? count - 1 : 0);
}

TSNode sg_node_first_child(TSNode n)
{
    return walk__end_child(n, false);
}

TSNode sg_node_last_child(TSNode n)
{
    return walk__end_child(n, true);
}

void sg_walk_end(sg_walk *w)
{
    if (w->frames != w->inline_frames)
        ts_free(w->frames);
    w->frames = w->inline_frames;
    w->n = 0;
}
