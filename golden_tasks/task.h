/*
 * Task files (docs/tasks.md): load JSONL task suites (snipgate's own format, HumanEval, MBPP,
 * sanitized MBPP, EvalPlus/MBPP+) into task structs, and the built-in suite compiled into the
 * library.
 *
 * Ownership: an sg_golden_suite owns its tasks and everything in them (strings, values, types);
 * sg_golden_suite_free releases it all (NULL is a no-op). Pointers into a suite (tasks, cases)
 * are borrowed and valid until the suite is freed. The built-in suite is owned by the library:
 * loaded once on first use (thread-safe), never freed by the caller.
 *
 * Errors: a malformed line fails the whole load with SG_ERR_INVALID_ARG; diag->path is the file,
 * diag->line the 1-based line and diag->message "FILE:LINE: FIELD.PATH: reason". Caps: a line is
 * at most 4 MiB (SG_ERR_TOO_LARGE), a file holds at most SG_GOLDEN_MAX_TASKS tasks.
 */
#ifndef SG_GOLDEN_TASK_H
#define SG_GOLDEN_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"

#define SG_GOLDEN_MAX_LINE (4u << 20)
#define SG_GOLDEN_MAX_TASKS 100000u
#define SG_GOLDEN_MAX_FILE (1u << 30)

/* One structured case: positional args, keyword args, and expected value or exception name. */
typedef struct sg_golden_case {
    sg_value *args;        /* a list value (the positional arguments) */
    sg_value *kwargs;      /* a dict value with str keys (may be empty) */
    sg_value *expected;    /* NULL when raises is set, or for EvalPlus inputs (reference decides) */
    char *raises;          /* exception class name, or NULL */
    bool has_atol, has_rtol;
    double atol, rtol;
    char *name;            /* label, or NULL */
} sg_golden_case;

typedef enum sg_golden_prop_kind {
    SG_PROP_NO_RAISE = 0,
    SG_PROP_RETURNS_TYPE,
    SG_PROP_IDEMPOTENT,
    SG_PROP_SORTED_PERMUTATION,
    SG_PROP_ROUNDTRIP,
    SG_PROP_NO_MUTATION,
    SG_PROP_DIFFERENTIAL,
} sg_golden_prop_kind;

/* "no_raise", "returns_type", ... */
const char *sg_golden_prop_name(sg_golden_prop_kind kind);

typedef struct sg_golden_property {
    sg_golden_prop_kind kind;
    char **except;         /* no_raise: exception names */
    size_t nexcept;
    sg_type *type;         /* returns_type: the type (NULL: signature.returns) */
    unsigned arg;          /* idempotent, sorted_permutation, roundtrip */
    bool reverse;          /* sorted_permutation */
    char *inverse;         /* roundtrip */
    unsigned *args;        /* no_mutation: indices; has_args false means all (and kwargs) */
    size_t nargs;
    bool has_args;
    bool has_atol, has_rtol;
    double atol, rtol;     /* differential */
    bool same_exceptions;  /* differential */
} sg_golden_property;

typedef enum sg_golden_format {
    SG_TASK_SNIPGATE = 0,  /* has `tests` */
    SG_TASK_HUMANEVAL,     /* has `test` (check(candidate)) */
    SG_TASK_MBPP,          /* has `test_list` */
    SG_TASK_EVALPLUS,      /* has `base_input` / `plus_input` */
    SG_TASK_OTHER,         /* none of these: properties/differential only */
} sg_golden_format;

/* (typedef'd in snipgate/golden.h, where the suite functions are declared) */
struct sg_golden_task {
    char *task_id;          /* as text; id_is_int when the file had an integer */
    bool id_is_int;
    long line;              /* line of the file it came from */
    sg_golden_format format;
    char *prompt, *entry_point, *canonical_solution, *test, *text, *code, *test_setup_code;
    char *contract, *assertion, *source_file;
    char **test_list;       /* MBPP asserts */
    size_t ntest_list;
    char **challenge_test_list;
    size_t nchallenge;
    char **test_imports;
    size_t ntest_imports;
    bool complete_solution;
    sg_golden_case *cases;  /* `tests`, then EvalPlus base_input then plus_input (expected NULL) */
    size_t ncases;
    size_t nbase_inputs, nplus_inputs; /* how many of `cases` came from base/plus_input */
    sg_type **sig_args;     /* signature.args (NULL when there is no signature) */
    size_t nsig_args;
    bool has_signature;
    sg_type *sig_returns;
    char **sig_kwnames;     /* signature.kwargs */
    sg_type **sig_kwtypes;
    size_t nsig_kw;
    sg_golden_property *props;
    size_t nprops;
    bool compare_python;    /* compare: "python" (default without tests) */
    double atol;            /* the task's atol (EvalPlus), 0 if none */
    bool has_atol;          /* the task gives `atol` (else floats compare within the default) */
    bool mutation_allowed;  /* "mutation": "allowed": the candidate may change its arguments unlike
                               the reference (default "checked": no change the reference does not
                               make) */
    bool mutation_expected; /* "mutation": "expected": its changes must be the reference's, also
                               where the candidate changes nothing (an in-place task) */
    double timeout_s;       /* default 2 */
    unsigned fuzz_max_inputs;   /* default 300 */
    double fuzz_max_seconds;    /* default 2 */
    bool fuzz_has_seed;
    uint64_t fuzz_seed;
    bool fuzz_has_max_size;
    unsigned fuzz_max_size;
    double fuzz_stage_seconds; /* fuzz.stage_seconds: the fuzz stage's time budget, 0 if none */
    uint64_t fuzz_stage_runs;  /* fuzz.stage_runs: its run budget, 0 if none */
    sg_value **fuzz_seeds;  /* extra argument lists (list values) */
    size_t nfuzz_seeds;
    /* "efficiency" (docs/tasks.md, "Efficiency"): the candidate's cost on scaled inputs against
     * the reference's, in Python events (calls and lines) */
    bool eff_off;           /* "efficiency": false */
    unsigned eff_doublings; /* how many times the examples are doubled (default 4: up to 16x) */
    double eff_factor;      /* a candidate may cost factor x the reference's + slack (default 20) */
    uint64_t eff_slack;     /* (default 400000 events) */
    sg_value **eff_inputs;  /* "inputs": the task's own large inputs (argument lists), in order */
    size_t neff_inputs;
    char **tags;
    size_t ntags;
    /* A task made by sg_golden_suite_from_asserts: the functions the asserts call (the candidate
     * side), and the line of each test_list assert in its file. NULL otherwise. */
    char **targets;
    size_t ntargets;
    long *test_list_lines;
    /* MBPP+ as EvalPlus evaluates it (evalplus.h): argument i is passed as wrap[i](literal)
     * when wrap[i] is set (a type JSON cannot carry, e.g. complex), and results are compared by
     * the task's own oracle. */
    const char *arg_wrap[4];
    int oracle; /* sg_evalplus_oracle */
};

/* Suites: sg_golden_suite_load_file / _buffer / _from_asserts, _free, _count, _task, _find,
 * sg_golden_builtin_suite and sg_golden_builtin_task are declared in snipgate/golden.h. */

/* A suite holding `task` alone (its contents are moved into the suite, *task is cleared; on
 * failure they are freed). For sg_golden_suite_from_asserts. */
sg_status sg_golden_suite_adopt(sg_golden_task *task, sg_golden_suite **ret);
/* Free what a task owns (not the task itself); the task is zeroed. */
void sg_golden_task_clear(sg_golden_task *task);

/* The reference program of a task (what runs in the reference worker before the helpers):
 * complete_solution ? canonical_solution : prompt + canonical_solution; MBPP: code. NULL when
 * the task has none. Malloc'd. */
char *sg_golden_task_reference_source(const sg_golden_task *task);
/* sg_golden_task_candidate_source and sg_golden_task_prompt_lines: snipgate/golden.h. */

#endif
