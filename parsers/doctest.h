/*
 * Doctest examples as code. doctest runs the `>>>` / `...` lines of a docstring (with the
 * module's globals), so for the static gate they are code like a Markdown fence: every docstring
 * of a parsed block (the module's, each class's and each function's, at any depth) gives one
 * block holding the source of its examples, each line mapped to the document's line and column.
 *
 * `dynamic` says the snippet may give an object a docstring the gate does not read (assigning
 * __doc__, __test__, setattr, functools.wraps, globals()/vars()/__dict__ stores, code objects,
 * a class made with type(name, bases, ns)...): a doctest runner over the snippet's own objects
 * then runs text the gate has not seen (docs/rules.md, SG106).
 *
 * Ownership: sg_doctests owns its blocks (sg_doctests_free).
 */
#ifndef SG_DOCTEST_H
#define SG_DOCTEST_H

#include <tree_sitter/api.h>

#include "parsers/extract.h"

typedef struct sg_doctests {
    SG_ARRAY(sg_block) blocks; /* one per docstring with examples; block.doctest_line is set */
    bool dynamic;              /* a docstring may be made at run time (see above) */
    const char *dynamic_why;   /* what made it so (static text) */
    /* names (arena-free copies) defined by `def` or `class` anywhere in the snippet, and names
     * bound some other way too (imported, assigned): run_docstring_examples(f, ...) reads only
     * the snippet's own docstrings when f is in `defined` and not in `rebound` */
    SG_ARRAY(char *) defined;
    SG_ARRAY(char *) rebound;
} sg_doctests;

/* `name` (n bytes) is a def or class of the snippet and bound no other way. */
bool sg_doctest_own_name(const sg_doctests *d, const char *name, size_t n);

/* Add the examples of every docstring in `root` (parsed from block `b`, whose line starts are
 * `line_starts`, `nlines` of them) to `out`, and note what may make docstrings at run time.
 * SG_ERR_NOMEM when out of memory (what was added stays owned by `out`). */
sg_status sg_doctest_extract(const sg_block *b, const size_t *line_starts, size_t nlines, TSNode root,
                             sg_doctests *out);
void sg_doctests_free(sg_doctests *d);
/* An example block's tree is Python 3 as Python would compile it: no error, no Python 2 print or
 * exec statement (which the grammar accepts and the gate reports as SG001 in code). */
bool sg_doctest_python3(TSNode root);

#endif
