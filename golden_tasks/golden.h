/*
 * Stage 3 driver: run a candidate against a task's known answers and generated inputs, in the
 * sandbox, and decide pass/fail OUTSIDE it (docs/tasks.md; issue 8).
 *
 * How: the candidate is imported once into its own persistent worker, the task's reference
 * (canonical solution, HumanEval test prelude, MBPP setup code) into another; each case is one
 * call (Python text generated here: arguments are literals rendered from value trees, never text
 * the candidate produced). A call's result comes back only as tagged JSON (value_json), decoded
 * and compared in C. Expected values never enter the candidate's sandbox.
 *   (a) structured cases (`tests`), EvalPlus inputs (expected = the reference's result), HumanEval
 *       `check` asserts one by one and MBPP `test_list` asserts one by one (split with
 *       tree-sitter: the candidate side runs in the candidate's worker, the expected side in the
 *       reference's, the comparison here);
 *   (b) properties and the default differential check on generated inputs (boundary values,
 *       mutations of examples, random values) within a budget; inputs the reference rejects
 *       (raises, fails its contract, times out) are discarded;
 *   (c) the first failing input is shrunk to a minimal counterexample; the seed is reported.
 *
 * Fail closed: any internal error gives SG_GOLDEN_ERROR (never a pass); a value without an
 * encoding (a user class, an int subclass, an object with a custom __eq__) fails its case; a
 * task with nothing checkable is an error.
 *
 * Ownership: sg_golden_run returns a result the caller frees with sg_golden_result_free (NULL is
 * a no-op). Case results and strings are borrowed from the result. The sandbox and the task are
 * borrowed for the duration of the call.
 */
#ifndef SG_GOLDEN_GOLDEN_H
#define SG_GOLDEN_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snipgate/snipgate.h"
#include "snipgate/sandbox.h"
#include "golden_tasks/annot.h"
#include "golden_tasks/task.h"

/* The public part (options, verdicts, case results, sg_golden_run and the result accessors) is
 * in snipgate/golden.h. */

/* Does the exception of outcome `in` match class name `name` (docs/tasks.md, `raises`)? Its type's
 * name, or any class of the MRO the runner reports (exc_mro: the interpreter's own, which a
 * metaclass cannot fake; a subclass of a declared class matches, a class that only claims to be
 * one does not): by `__name__` for a plain name, by module + "." + qualname for a dotted one.
 * Without an MRO report, the type's own name only ("mod.KeyError" is a KeyError). Shared by the
 * golden and the fuzz stage. */
bool sg_golden_exc_matches(const sg_outcome_info *in, const char *name);
/* `name` (len bytes) is a name of Python 3.11's builtins module (asserts.c's list). */
bool sg_golden_python_builtin(const char *name, size_t len);

/* The keyword arguments the generators fill (docs/tasks.md, `signature.kwargs`), shared by the
 * property and the fuzz stage: the signature's `kwargs` when the task has a signature, else the
 * annotated keyword-only parameters of the entry point's def (the first of `srcs`, reference
 * first, that defines it). A keyword-only parameter of that def without a default is `required`
 * (every call passes it); one with a default is given or left to its default. */
typedef struct sg_golden_kwparam {
    const char *name;
    const sg_type *type;
    bool required;
} sg_golden_kwparam;

typedef struct sg_golden_kwparams {
    sg_golden_kwparam *items;
    size_t n;
    const char *missing; /* a required keyword-only parameter with no type to generate, or NULL */
    sg_annot_kw *def;    /* (owns the names and types read from the def) */
    size_t ndef;
} sg_golden_kwparams;

/* SG_OK (ret->n may be 0), or SG_ERR_NOMEM. `srcs` may hold NULLs. */
sg_status sg_golden_kwparams_get(const sg_golden_task *task, const char *entry, const char *const *srcs, size_t nsrcs,
                                 sg_golden_kwparams *ret);
void sg_golden_kwparams_free(sg_golden_kwparams *kw);
/* `fn(args..., name=value, ...)`: the arguments as literals (repr: as repr() shows them, for
 * reports), each positional one wrapped in `wrap[k]` when given (EvalPlus). `kwargs`: a dict value
 * with identifier keys, or NULL. */
void sg_golden_args_text(sg_buf *b, const char *const *wrap, const sg_value *args, const sg_value *kwargs, bool repr);

#endif
