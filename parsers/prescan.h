/*
 * Python pre-scan: what is checked on a block's raw text before tree-sitter parses it (bracket
 * depth, indentation). A small tokeniser, independent of the Markdown extractor.
 * Ownership: nothing is allocated; a result's message is static text.
 */
#ifndef SG_PRESCAN_H
#define SG_PRESCAN_H

#include <stddef.h>
#include <stdint.h>

/* Python rejects more than 200 nested brackets; tree-sitter 0.20.7 crashes on some inputs nested
 * tens of thousands deep, so deeper input is refused before it is parsed. */
#define SG_MAX_BRACKET_DEPTH 200

/* What a pre-scan of Python source found before parsing. */
typedef enum sg_prescan_kind {
    SG_PRESCAN_OK = 0,
    SG_PRESCAN_TOO_DEEP, /* brackets nested beyond the limit: not parsed at all */
    SG_PRESCAN_INDENT,   /* an indentation error Python raises but tree-sitter accepts */
} sg_prescan_kind;

typedef struct sg_prescan {
    sg_prescan_kind kind;
    uint32_t row, column; /* 0-based row, byte column */
    const char *message;  /* static text */
} sg_prescan;

/* Tokenise enough of Python (strings, comments, brackets, line continuations, indentation, with
 * CPython's tab rules) to find bracket nesting deeper than `limit` and indentation errors:
 * unexpected indent, expected an indented block, unindent matching no outer level, inconsistent
 * tabs and spaces. */
void sg_python_prescan(const char *s, size_t n, unsigned limit, sg_prescan *ret);

#endif
