/*
 * A per-thread arena for tree-sitter's allocations while one check runs.
 *
 * Why: a check parses, walks and drops its trees; with the C library's allocator, tree-sitter's
 * mallocs and frees (and glibc's consolidation after the frees) were a tenth of the static gate's
 * instructions, and ts_tree_delete alone walked every node again to release it. Inside a window
 * opened by sg_tsarena_begin(), tree-sitter allocates from a bump arena of this thread, its frees
 * are no-ops, and sg_tsarena_end() takes everything back at once: the caller drops its parser and
 * trees without deleting them (bench/README.md has the measurements).
 *
 * The contract of a window:
 * - every tree-sitter object created inside it (parser, trees, cursors) is dead at its end; a
 *   tree-sitter object created outside it (the checker's own parser) is not used inside it, as its
 *   arrays would grow into memory that the end takes back (queries are read-only and may be used);
 * - if an allocation did not fit in the arena, it came from the heap and sg_tsarena_clean() is
 *   false: the caller then deletes its trees and parser as usual (frees of arena memory are no-ops,
 *   of heap memory real frees), so nothing leaks;
 * - windows nest; only the outermost end takes the memory back.
 *
 * tree-sitter's allocator is process-wide: tsarena.c installs its functions at load time (outside
 * a window they are the C library's, and an allocation failure aborts, as tree-sitter's own do).
 * Whoever calls ts_set_allocator() afterwards (tests/unit/test_oom.c) switches the arena off:
 * sg_tsarena_begin() then returns false and the caller keeps its usual path.
 *
 * Under AddressSanitizer the memory a window took back is poisoned until it is handed out again,
 * so a use after the end is reported as one.
 */
#ifndef SG_TSARENA_H
#define SG_TSARENA_H

#include <stdbool.h>
#include <stddef.h>

/* Open a window on this thread. false: no arena (another allocator is installed, or no arena could
 * be set up): allocate and free as usual, and call sg_tsarena_end(false). */
bool sg_tsarena_begin(void);

/* Inside a window opened with true: no tree-sitter allocation since the outermost begin came from
 * the heap, so nothing needs deleting. */
bool sg_tsarena_clean(void);

/* Close the window sg_tsarena_begin() opened (began: what it returned). */
void sg_tsarena_end(bool began);

/* Inside a window: tree-sitter allocates from the heap until sg_tsarena_resume(), for an object
 * that must outlive the window (a query compiled on first use during a check, rules/pack.h).
 * Returns what sg_tsarena_resume() takes; outside a window, or without an arena, both are no-ops. */
unsigned sg_tsarena_suspend(void);
void sg_tsarena_resume(unsigned saved);

/* How many bytes the arena of this thread handed out at most in one window (tests, benchmarks). */
size_t sg_tsarena_high_water(void);

/* Tests: the arena of this thread (it has one once a window was opened) hands out at most `bytes`
 * in a window (0: its whole slot), so that a small input reaches the heap fallback. false: no arena
 * on this thread, or a window is open. */
bool sg_tsarena_limit(size_t bytes);

/* Install the arena's allocator functions again (it is installed at load time; a test that
 * installed another allocator puts it back with this). */
void sg_tsarena_install(void);

#endif
