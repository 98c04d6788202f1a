/*
 * A preorder walk of a tree-sitter tree that yields what a TSTreeCursor visits (every visible
 * node, named or anonymous, with the same TSNode values), at a fraction of its cost.
 *
 * Why: a cursor step of tree-sitter 0.25 re-derives the iteration state of its parent from the
 * parent's stack entry, looks up the parent's alias sequence and goes through hidden nodes one
 * cursor step each; measured with callgrind over standard-library functions, 546 instructions per
 * ts_tree_cursor_goto_next_sibling, the largest cost of the static gate after the parse itself.
 * This walk keeps each level's iteration state (child index, structural index, position, alias
 * sequence) in a frame of its own and flattens hidden nodes in place. It reads the runtime's
 * internal structures (its private headers, tswalk.c), which is why it is tied to the pinned
 * tree-sitter version: tests/unit/test_tswalk.c compares it with the cursor node for node.
 *
 * Memory: the first frames are inline; deeper nesting grows through tree-sitter's own allocator,
 * which, like the cursor it replaces, aborts on allocation failure.
 */
#ifndef SG_TSWALK_H
#define SG_TSWALK_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

typedef struct sg_walk_frame {
    const void *children; /* the parent's children (const Subtree *) */
    const TSSymbol *aliases; /* the parent production's alias sequence, or NULL */
    uint32_t count, idx, sidx; /* children, the next one, its structural index */
    uint32_t depth;          /* the depth of the nodes this frame yields */
    uint32_t pos_bytes;      /* where the next child starts */
    TSPoint pos_point;
} sg_walk_frame;

#define SG_WALK_INLINE 24

typedef struct sg_walk {
    const TSTree *tree;
    TSNode last; /* the node yielded last */
    uint32_t last_depth;
    bool started;
    uint32_t n, cap;
    sg_walk_frame *frames; /* `inline_frames` or a grown copy */
    sg_walk_frame inline_frames[SG_WALK_INLINE];
} sg_walk;

/* A walk of `root` and everything under it (a null root yields nothing). */
void sg_walk_init(sg_walk *w, TSNode root);
/* A walk of `parent`'s children only (depth 1), without `parent` itself. */
void sg_walk_init_children(sg_walk *w, TSNode parent);
/* The next node in preorder and its depth (root 0). `descend`: enter the children of the node
 * yielded last (ignored on the first call); false skips its subtree. False at the end. */
bool sg_walk_next(sg_walk *w, bool descend, TSNode *ret_node, unsigned *ret_depth);
void sg_walk_end(sg_walk *w);
/* Whether a comment or a line continuation (an extra) is among n's children, as the walk yields
 * them: without one, positions among the children can be taken from tree-sitter's own API. */
bool sg_walk_has_extra_child(TSNode n);
/* ts_node_child(n, 0) and ts_node_child(n, ts_node_child_count(n) - 1), the same nodes, faster */
TSNode sg_node_first_child(TSNode n);
TSNode sg_node_last_child(TSNode n);

#endif
