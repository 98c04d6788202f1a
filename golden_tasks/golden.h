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
#include "golden_tasks/task.h"

typedef struct sg_golden_opts {
    bool completion;          /* candidate text continues the prompt (HumanEval samples); default
                                 false: it is a whole program */
    bool has_seed;            /* seed: else the task's fuzz.seed, else 0x5eed */
    uint64_t seed;
    unsigned max_inputs;      /* 0: the task's fuzz.max_inputs (default 300) */
    double max_seconds;       /* 0: the task's fuzz.max_seconds (default 30): a cap; hitting it = error */
    unsigned max_shrink_calls;/* default 1500 */
    double max_shrink_seconds;/* default 10 */
    bool no_properties;       /* skip stage (b)/(c) */
    bool keep_passing;        /* record passing cases too (default: only failing ones + counts) */
} sg_golden_opts;

void sg_golden_opts_init(sg_golden_opts *opts);

typedef enum sg_golden_verdict {
    SG_GOLDEN_PASS = 0,
    SG_GOLDEN_FAIL = 1,
    SG_GOLDEN_ERROR = 2, /* the gate could not judge: never a pass */
} sg_golden_verdict;

const char *sg_golden_verdict_name(sg_golden_verdict v); /* "pass", "fail", "error" */

typedef enum sg_golden_case_kind {
    SG_GCASE_TEST = 0,   /* tests[i] */
    SG_GCASE_INPUT,      /* EvalPlus base_input/plus_input[i] */
    SG_GCASE_ASSERT,     /* HumanEval check() assert / MBPP test_list[i] */
    SG_GCASE_CHECK,      /* a whole HumanEval check() that could not be split */
    SG_GCASE_PROPERTY,   /* a property failing on a (shrunk) generated input */
    SG_GCASE_IMPORT,     /* the candidate did not import */
} sg_golden_case_kind;

typedef struct sg_golden_case_result {
    sg_golden_case_kind kind;
    size_t index;           /* index within its kind */
    bool passed;
    const char *name;       /* case name, assert text, or property name */
    const char *input;      /* the call, e.g. "binary_search([], 0)" */
    const char *args_json;  /* the positional arguments as tagged JSON (NULL for asserts) */
    const char *expected;   /* repr of the expected value, "raises ValueError", or NULL */
    const char *got;        /* repr of the returned value, or NULL */
    const char *reason;     /* why it failed ("wrong value", "timeout", "raised ...", ...) */
    const char *exc_type;   /* the candidate's exception, or NULL */
    const char *exc_message;
    const char *traceback;
    long exc_line;          /* line in the candidate program, 0 if unknown */
    unsigned shrink_calls;  /* property failures: predicate calls spent shrinking */
} sg_golden_case_result;

typedef struct sg_golden_result sg_golden_result;

/*
 * Judge `candidate` (`len` bytes) on `task` in sandboxes made from `sandbox`. On SG_OK the
 * verdict is in the result (pass, fail, or error with a reason). Fails only for bad arguments
 * (SG_ERR_INVALID_ARG) or out of memory; sandbox failures are an error verdict.
 */
sg_status sg_golden_run(const sg_sandbox *sandbox, const sg_golden_task *task, const char *candidate,
                        size_t len, const sg_golden_opts *opts, sg_golden_result **ret, sg_diag *diag);
void sg_golden_result_free(sg_golden_result *r);

sg_golden_verdict sg_golden_result_verdict(const sg_golden_result *r);
/* The reason of an error verdict ("" otherwise). */
const char *sg_golden_result_error(const sg_golden_result *r);
size_t sg_golden_result_count(const sg_golden_result *r);
const sg_golden_case_result *sg_golden_result_case(const sg_golden_result *r, size_t index);
/* Counts: cases run / passed (stage a), generated inputs checked / discarded (stage b). */
size_t sg_golden_result_cases_run(const sg_golden_result *r);
size_t sg_golden_result_cases_passed(const sg_golden_result *r);
size_t sg_golden_result_inputs_checked(const sg_golden_result *r);
size_t sg_golden_result_inputs_discarded(const sg_golden_result *r);
/* Calls made through the workers (both), for throughput figures. */
size_t sg_golden_result_calls(const sg_golden_result *r);
uint64_t sg_golden_result_seed(const sg_golden_result *r);
/* The first failing property case (shrunk), or NULL. */
const sg_golden_case_result *sg_golden_result_counterexample(const sg_golden_result *r);
/* The whole result as a JSON object (malloc'd). */
sg_status sg_golden_result_to_json(const sg_golden_result *r, char **ret_json);

#endif
