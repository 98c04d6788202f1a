/*
 * Shrinking a failing input to a minimal counterexample (docs/tasks.md, "The built-in suite":
 * the single shrink steps a minimal input must resist).
 *
 * The shrinker works on the value tree directly: greedy descent over one-step neighbours
 * (smaller ints toward 0, floats to 0.0 or their integral part, strs and bytes with one item
 * dropped or lowered to 'a'/'0', containers with one element dropped or shrunk, big chunks
 * first), accepting the first neighbour that still fails, until none does (a local minimum) or
 * the call budget is spent.
 *
 * Ownership: sg_shrink_steps returns a malloc'd array of new trees (free each, then the array).
 * sg_shrink replaces *args_inout with a new tree when it finds a smaller failing one (the old
 * one is freed).
 */
#ifndef SG_GOLDEN_SHRINK_H
#define SG_GOLDEN_SHRINK_H

#include <stdbool.h>
#include <stddef.h>

#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"

/* One-step-simpler neighbours of `v`, simplest first. `chunks` adds multi-element drops (half,
 * quarter) before the single steps. */
sg_status sg_shrink_steps(const sg_value *v, bool chunks, sg_value ***ret, size_t *ret_n);

/* Does this input still fail? Write *ret_fails; return SG_OK, or an error that stops shrinking
 * (reported by sg_shrink). Inputs the predicate deems invalid (the reference rejects them)
 * count as not failing. */
typedef sg_status (*sg_shrink_pred)(void *ctx, const sg_value *args, bool *ret_fails);

/*
 * Shrink the argument list *args_inout (a list value: the positional arguments; its length is
 * kept). Neighbours that do not conform to `types` (when given; their options too when
 * `options`) are skipped without a call. At most `max_calls` predicate calls; *ret_calls counts them.
 */
sg_status sg_shrink(sg_value **args_inout, sg_type *const *types, size_t ntypes, bool options,
                    sg_shrink_pred pred, void *ctx, unsigned max_calls, unsigned *ret_calls);

/* Told which inputs the predicate is about to be asked about, in order (it may compute them
 * ahead, in one batch); it may still be asked about only the first few. Best effort: no error. */
typedef void (*sg_shrink_prep)(void *ctx, const sg_value *const *args, size_t n);

/* sg_shrink, announcing the next inputs to `prep` (NULL: none) before asking `pred`. */
sg_status sg_shrink_prepared(sg_value **args_inout, sg_type *const *types, size_t ntypes, bool options,
                             sg_shrink_pred pred, sg_shrink_prep prep, void *ctx, unsigned max_calls,
                             unsigned *ret_calls);

#endif
