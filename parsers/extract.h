/*
 * From a user's document to the Python blocks to check. A document is a .py file (one block) or
 * Markdown / LLM output (one block per ```python, ```py or unlabeled fence that holds Python).
 * Each block keeps a map from its own lines back to the document's lines and columns.
 * Ownership: sg_doc owns its blocks and their text; free it with sg_doc_free.
 */
#ifndef SG_EXTRACT_H
#define SG_EXTRACT_H

#include <stdint.h>

#include "base/util.h"

typedef struct sg_block {
    char *text;          /* the block's Python source (fence indentation removed), NUL-terminated */
    size_t len;
    long *line_map;      /* block line i (0-based) -> document line (1-based) */
    unsigned *col_shift; /* bytes of indentation removed from block line i */
    size_t nlines;
    bool unlabeled;      /* came from a fence with no info string */
    long doctest_line;   /* > 0: the doctest examples of the docstring at this document line
                            (parsers/doctest.h) */
} sg_block;

typedef struct sg_doc {
    const char *src; /* the whole document (borrowed) */
    size_t len;
    size_t skip;     /* bytes of a leading UTF-8 BOM */
    bool markdown;
    SG_ARRAY(sg_block) blocks;
    size_t skipped_fences; /* fences in another language */
    size_t *line_starts;   /* byte offset of each document line, built on first use */
    size_t nlines;
} sg_doc;

/* Validate (NUL bytes, UTF-8, emptiness) and split a document into Python blocks. */
sg_status sg_doc_extract(const char *path, const char *buf, size_t len, sg_input_kind kind, sg_doc *doc,
                         sg_diag *diag);
void sg_doc_free(sg_doc *doc);
/* Free what a block owns (not the block itself). */
void sg_block_free(sg_block *b);

/* The document's line `line` (1-based): start pointer and length without the newline.
 * SG_ERR_INVALID_ARG if there is no such line, SG_ERR_NOMEM if the line index cannot be built. */
sg_status sg_doc_line(sg_doc *doc, long line, const char **ret_start, size_t *ret_len);

#endif
