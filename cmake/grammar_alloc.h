/*
 * Force-included into the tree-sitter-python grammar sources (CMakeLists.txt). Its scanner
 * allocates its state with calloc() directly (and frees it with free()), while every other
 * allocation of the grammar and of the runtime goes through the runtime's allocator: route these
 * two through it as well, so that ts_set_allocator() governs all of tree-sitter's memory
 * (tests/unit/test_oom.c relies on that to keep tree-sitter, which aborts on allocation failure,
 * out of the failure injection).
 */
#ifndef SG_GRAMMAR_ALLOC_H
#define SG_GRAMMAR_ALLOC_H
#include <stdlib.h>
extern void *(*ts_current_calloc)(size_t count, size_t size);
extern void (*ts_current_free)(void *ptr);
#define calloc(n, s) ts_current_calloc(n, s)
#define free(p) ts_current_free(p)
#endif
