/*
 * snipgate stage 3: golden tasks and property checks. Included by snipgate.h; do not include it
 * directly. The task format is docs/tasks.md; what the verdict holds is docs/verdict.md.
 *
 * A candidate that passed the static gate runs in the sandbox against a task's known answers
 * (structured cases, EvalPlus inputs, HumanEval check() asserts, MBPP test_list asserts, the
 * asserts of a user's tests file) and against generated inputs (properties, and the default
 * differential check against the reference solution), and every pass or fail is decided outside
 * the sandbox.
 *
 * Ownership (same rules as snipgate.h):
 *  - A suite from sg_golden_suite_load_* / sg_golden_suite_from_asserts owns its tasks; tasks
 *    are borrowed from it until sg_golden_suite_free. The built-in suite belongs to the library
 *    (loaded once, thread-safe, never freed by the caller).
 *  - A result from sg_golden_run is the caller's (sg_golden_result_free); case results and their
 *    strings are borrowed from it. A result handed to a report (sg_report_run_golden) belongs to
 *    the report.
 *
 * Threads: suites and tasks are immutable once loaded and may be shared; sg_golden_run may be
 * called from several threads at once with the same sandbox and task (each call starts its own
 * workers).
 *
 * Fail closed: an internal or sandbox failure during a run is an error verdict, never a pass.
 */
#ifndef SNIPGATE_GOLDEN_H
#define SNIPGATE_GOLDEN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sg_golden_suite sg_golden_suite;
typedef struct sg_golden_task sg_golden_task;
typedef struct sg_golden_result sg_golden_result;

/* ---------------------------------------------------------------------------------------------
 * Suites and tasks
 * ------------------------------------------------------------------------------------------- */

/*
 * Load a JSONL suite (snipgate's format, HumanEval, MBPP, sanitized MBPP, EvalPlus/MBPP+; files
 * load as they are). A malformed line fails the whole load with SG_ERR_INVALID_ARG: diag->path
 * is the file, diag->line the 1-based line, diag->message "FILE:LINE: FIELD.PATH: reason".
 * Also SG_ERR_IO (unreadable), SG_ERR_TOO_LARGE (a line over 4 MiB), SG_ERR_BINARY, SG_ERR_NOMEM.
 */
SG_API sg_status sg_golden_suite_load_file(const char *path, sg_golden_suite **ret, sg_diag *diag);
/* The same from a buffer; `name` labels errors. */
SG_API sg_status sg_golden_suite_load_buffer(const char *name, const char *buf, size_t len,
                                             sg_golden_suite **ret, sg_diag *diag);
/*
 * A suite of one task made from a file of plain assertions (`assert f(2) == 4`), as
 * `snipgate check --tests` uses it. Every top-level `assert` statement is one case, split with
 * tree-sitter; the other top-level statements (imports, helpers, constants) are setup code run
 * in both sandboxes, before the candidate (whose own definitions win over a name of the setup). The functions under test are the names the asserts call
 * that the file neither defines nor imports and that are not Python builtins: the candidate must
 * define them. A candidate-side expression is evaluated by the candidate; the other side of an
 * `==`, or the whole assertion with the candidate's values substituted, by a sandbox that holds
 * only the setup code. The task id is `name`. Fails with SG_ERR_INVALID_ARG (a syntax error, no
 * top-level assert, no function under test; "NAME:LINE: reason" in diag), SG_ERR_BINARY,
 * SG_ERR_ENCODING, SG_ERR_NOMEM.
 */
SG_API sg_status sg_golden_suite_from_asserts(const char *name, const char *buf, size_t len,
                                              sg_golden_suite **ret, sg_diag *diag);
SG_API void sg_golden_suite_free(sg_golden_suite *suite);
SG_API size_t sg_golden_suite_count(const sg_golden_suite *suite);
/* Task `index`, or NULL when out of range. */
SG_API const sg_golden_task *sg_golden_suite_task(const sg_golden_suite *suite, size_t index);
/* The task with this id (its text form: MBPP's integer 11 is "11"), or NULL. */
SG_API const sg_golden_task *sg_golden_suite_find(const sg_golden_suite *suite, const char *task_id);

/* The built-in suite (every golden_tasks/builtin JSONL file, compiled in). SG_ERR_INTERNAL if the embedded
 * data does not load (a build bug), SG_ERR_NOMEM. The suite is the library's: do not free it. */
SG_API sg_status sg_golden_builtin_suite(const sg_golden_suite **ret, sg_diag *diag);
/* The built-in task `id` ("sg/binary_search_leftmost"), or NULL (also when the suite fails). */
SG_API const sg_golden_task *sg_golden_builtin_task(const char *id);

/* The task's id (text form). */
SG_API const char *sg_golden_task_id(const sg_golden_task *task);
/* True when a sample's completion continues the task's prompt (HumanEval, EvalPlus: the program
 * is prompt + completion); false when a completion is a whole program (MBPP, built-in tasks). */
SG_API bool sg_golden_task_completes_prompt(const sg_golden_task *task);
/* The candidate program for a completion: prompt + completion when the task completes its
 * prompt, else the completion. Malloc'd (free() it), NULL when out of memory. */
SG_API char *sg_golden_task_candidate_source(const sg_golden_task *task, const char *completion);
/* The task's own budget for generated inputs: its `fuzz.max_inputs` (default 300) and the time
 * cap of that search, `fuzz.max_seconds` (default 30; hitting it is an error verdict). */
SG_API void sg_golden_task_fuzz_budget(const sg_golden_task *task, unsigned *ret_inputs, double *ret_seconds);
/* The task's budget for the fuzz stage (docs/fuzz.md): its `fuzz.stage_seconds` and
 * `fuzz.stage_runs` (0 when absent). True when it has either. */
SG_API bool sg_golden_task_fuzz_stage(const sg_golden_task *task, double *ret_seconds, uint64_t *ret_runs);
/* Number of properties the task declares (its `properties`; the default differential check
 * against a reference is not counted): 0 when it declares none. */
SG_API size_t sg_golden_task_declared_properties(const sg_golden_task *task);
/* Number of lines the prompt puts before a completion in sg_golden_task_candidate_source's
 * program (0 when the task does not complete its prompt). */
SG_API long sg_golden_task_prompt_lines(const sg_golden_task *task);

/* ---------------------------------------------------------------------------------------------
 * Samples (what `snipgate eval` judges)
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_golden_samples sg_golden_samples;

/* One non-blank line of a samples file. Strings are borrowed from the sg_golden_samples. */
typedef struct sg_golden_sample {
    long line;               /* 1-based line in the file */
    const char *id;          /* task_id in its text form (MBPP's 11 is "11"); NULL when the line has
                                none or it is neither a string nor an integer */
    bool id_is_integer;      /* task_id was a JSON integer: id_integer */
    long long id_integer;
    const char *completion;  /* NULL for a bad line */
    const char *error;       /* why the line is bad (then nothing else but line and id is set), or NULL */
    const sg_golden_task *task; /* the suite's task with this id (borrowed from the suite), NULL if bad */
    size_t task_index;       /* its index in the suite */
    size_t sample;           /* index among the samples of its task, in file order */
} sg_golden_sample;

/*
 * Read a samples file (HumanEval's format: one JSON object per line with `task_id`, a string or
 * an integer, and `completion`, a string; other fields are ignored; blank lines are skipped; a
 * line whose strings hold \u0000 is invalid JSON).
 * Each bad line (invalid JSON, a missing or mistyped field, a NUL in the completion, an id the
 * suite lacks) is kept with its `error` and does not stop the others. Fails only with
 * SG_ERR_INVALID_ARG (NULL arguments) or SG_ERR_NOMEM. The suite is borrowed: it must outlive
 * the result, which the caller frees with sg_golden_samples_free.
 */
SG_API sg_status sg_golden_samples_load_buffer(const sg_golden_suite *suite, const char *buf, size_t len,
                                               sg_golden_samples **ret, sg_diag *diag);
SG_API void sg_golden_samples_free(sg_golden_samples *samples);
SG_API size_t sg_golden_samples_count(const sg_golden_samples *samples);
/* Sample `index`, or NULL when out of range. */
SG_API const sg_golden_sample *sg_golden_samples_get(const sg_golden_samples *samples, size_t index);

/* ---------------------------------------------------------------------------------------------
 * Running a candidate
 * ------------------------------------------------------------------------------------------- */

/*
 * Warm sandboxes kept across runs (issue 8's throughput; serve and eval): a pool holds one pooled
 * worker for candidates and one for references (sg_worker_opts.pooled), started by the first run
 * that needs them and given each later run's programs without a sandbox start. Every call still
 * runs in a fresh fork of a zygote that never ran a candidate, with a fresh /tmp. A pool belongs
 * to one thread at a time; its workers hold the sandbox of the run that started them, which must
 * outlive the pool (a run with another sandbox starts new ones).
 */
typedef struct sg_golden_pool sg_golden_pool;
SG_API sg_status sg_golden_pool_new(sg_golden_pool **ret_pool);
SG_API void sg_golden_pool_free(sg_golden_pool *pool);
/* Sandboxes the pool's workers have started so far (1 each + restarts after kills). */
SG_API unsigned sg_golden_pool_starts(const sg_golden_pool *pool);
/* Calls (call children) the pool's workers have run so far, the reference's and the candidates'
 * (sg_worker_calls). */
SG_API unsigned long sg_golden_pool_calls(const sg_golden_pool *pool);
/* The reference's answers the pool served from its cache so far: a pool keeps the reference's
 * outcomes across the runs of one task (eval's samples, serve's requests), so that the task's
 * fixed reference is not run again on the same call; the verdicts are the same bytes. */
SG_API size_t sg_golden_pool_reused(const sg_golden_pool *pool);

typedef struct sg_golden_opts {
    bool completion;          /* candidate text continues the prompt (HumanEval samples); default
                                 false: it is a whole program */
    bool has_seed;            /* seed: else the task's fuzz.seed, else 0x5eed */
    uint64_t seed;
    unsigned max_inputs;      /* 0: the task's fuzz.max_inputs (default 300) */
    double max_seconds;       /* 0: the task's fuzz.max_seconds (default 30): a cap on the property
                                 search; hitting it is an error verdict, never a pass on fewer inputs */
    unsigned max_shrink_calls;/* default 1500 */
    double max_shrink_seconds;/* default 10 */
    bool no_properties;       /* skip stage (b)/(c) */
    bool keep_passing;        /* record passing cases too (default: only failing ones + counts) */
    const atomic_int *cancel; /* NULL, or a flag another thread may set (a server whose time budget
                                 ran out): from then on no worker is started and no call made, and
                                 the run ends in an error verdict (never a pass) */
    sg_golden_pool *pool;     /* NULL (default): this run starts its own sandboxes and stops them
                                 at its end; else the pool's warm ones (borrowed) */
} sg_golden_opts;

SG_API void sg_golden_opts_init(sg_golden_opts *opts);

typedef enum sg_golden_verdict {
    SG_GOLDEN_PASS = 0,
    SG_GOLDEN_FAIL = 1,
    SG_GOLDEN_ERROR = 2, /* the gate could not judge: never a pass */
} sg_golden_verdict;

SG_API const char *sg_golden_verdict_name(sg_golden_verdict v); /* "pass", "fail", "error" */

typedef enum sg_golden_case_kind {
    SG_GCASE_TEST = 0,   /* tests[i] */
    SG_GCASE_INPUT,      /* EvalPlus base_input/plus_input[i] */
    SG_GCASE_ASSERT,     /* HumanEval check() assert / MBPP test_list[i] / a --tests assert */
    SG_GCASE_CHECK,      /* a whole HumanEval check() that could not be split */
    SG_GCASE_PROPERTY,   /* a property failing on a (shrunk) generated input */
    SG_GCASE_IMPORT,     /* the candidate did not import */
} sg_golden_case_kind;

/* "test", "input", "assert", "check", "property", "import". */
SG_API const char *sg_golden_case_kind_name(sg_golden_case_kind kind);

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
    const char *traceback;  /* frames in the candidate are `File "<snippet>", line N` with N a
                               line of the candidate text as given; frames in code the task
                               added (its prompt, test, setup) are `File "<task>"` */
    long exc_line;          /* line of the candidate text (as given) where the exception was
                               raised; 0 if unknown or outside it */
    unsigned shrink_calls;  /* property failures: predicate calls spent shrinking */
    long test_line;         /* an assert of a task made by sg_golden_suite_from_asserts: its line
                               in that file; else 0 */
} sg_golden_case_result;

/*
 * Judge `candidate` (`len` bytes) on `task` in sandboxes made from `sandbox`. On SG_OK the
 * verdict is in the result (pass, fail, or error with a reason). Fails only for bad arguments
 * (SG_ERR_INVALID_ARG), a NUL byte in the candidate (SG_ERR_BINARY) or out of memory; sandbox
 * failures are an error verdict.
 */
SG_API sg_status sg_golden_run(const sg_sandbox *sandbox, const sg_golden_task *task, const char *candidate,
                               size_t len, const sg_golden_opts *opts, sg_golden_result **ret, sg_diag *diag);
SG_API void sg_golden_result_free(sg_golden_result *r);

SG_API sg_golden_verdict sg_golden_result_verdict(const sg_golden_result *r);
/* The reason of an error verdict ("" otherwise). */
SG_API const char *sg_golden_result_error(const sg_golden_result *r);
/* Recorded cases: the failing ones (all of them with opts.keep_passing). */
SG_API size_t sg_golden_result_count(const sg_golden_result *r);
SG_API const sg_golden_case_result *sg_golden_result_case(const sg_golden_result *r, size_t index);
/* Counts: cases run / passed (stage a), generated inputs checked / discarded (stage b). */
SG_API size_t sg_golden_result_cases_run(const sg_golden_result *r);
SG_API size_t sg_golden_result_cases_passed(const sg_golden_result *r);
SG_API size_t sg_golden_result_inputs_checked(const sg_golden_result *r);
SG_API size_t sg_golden_result_inputs_discarded(const sg_golden_result *r);
/* Why generated inputs were discarded (never a failure; the counts add up to
 * sg_golden_result_inputs_discarded): */
typedef enum sg_golden_discard {
    SG_DISCARD_ENVELOPE = 0,      /* outside the domain the task's examples give (docs/tasks.md) */
    SG_DISCARD_CONTRACT,          /* the task's contract (precondition) rejects it */
    SG_DISCARD_REFERENCE_RAISED,  /* the reference raises on it, and no property judges a raise */
    SG_DISCARD_REFERENCE_TIMEOUT, /* the reference timed out or crashed on it */
    SG_DISCARD_FENCED,            /* at least as large as an input the reference timed out on */
    SG_DISCARD_TOO_LARGE,         /* its call text is over the worker's limit */
    SG_DISCARD_REFERENCE_UNENCODABLE, /* the reference's value has no encoding (a type values cannot
                                       * carry, or over the output cap): nothing to compare with */
} sg_golden_discard;
#define SG_DISCARD_COUNT 7
/* "envelope", "contract", "reference_raised", "reference_timeout", "fenced", "too_large" */
SG_API const char *sg_golden_discard_name(sg_golden_discard reason);
SG_API size_t sg_golden_result_inputs_discarded_by(const sg_golden_result *r, sg_golden_discard reason);
/* Scaled inputs on which the candidate's cost was compared with the reference's (docs/tasks.md,
 * "Efficiency"), and the largest scale among them (2, 4, 8, ...; 0 when only the task's own
 * efficiency inputs were used, or none). */
SG_API size_t sg_golden_result_efficiency_checked(const sg_golden_result *r);
SG_API unsigned sg_golden_result_efficiency_scale(const sg_golden_result *r);
/* Calls made through the workers (both), for throughput figures. */
SG_API size_t sg_golden_result_calls(const sg_golden_result *r);
/* The generator's seed (replays the run with sg_golden_opts.seed). */
SG_API uint64_t sg_golden_result_seed(const sg_golden_result *r);
/* The smallest failing property case (shrunk), or NULL. */
SG_API const sg_golden_case_result *sg_golden_result_counterexample(const sg_golden_result *r);
/* The whole result as a compact JSON object (malloc'd; free() it). SG_ERR_NOMEM. */
SG_API sg_status sg_golden_result_to_json(const sg_golden_result *r, char **ret_json);

/* ---------------------------------------------------------------------------------------------
 * The golden stage of a checked document (rendered with the verdict by sg_render)
 * ------------------------------------------------------------------------------------------- */

/*
 * Run the golden stage on the document `report` was made from (`buf`, `len`: exactly what
 * sg_checker_check was given; for a Markdown document its Python blocks, joined, are the
 * candidate). The static gate comes first: a report that is blocked or could not be checked
 * runs nothing and records the stage as skipped. Otherwise the result is attached to the report
 * (its verdict is then blocked unless the stage passes), with exception lines mapped to the
 * document's lines. `opts->completion` is ignored: complete the program first
 * (sg_golden_task_candidate_source) and check that. `task_label` names the task in the verdict
 * (NULL: the task's id). Fails with SG_ERR_INVALID_ARG (NULL arguments, a stage already run on
 * this report), SG_ERR_NOMEM, or the status of sg_golden_run; the report is unchanged then.
 */
SG_API sg_status sg_report_run_golden(sg_report *report, const sg_sandbox *sandbox, const sg_golden_task *task,
                                      const char *task_label, const char *buf, size_t len,
                                      const sg_golden_opts *opts, sg_diag *diag);
/* Record that the golden stage was asked for but could not start (`reason`): the report is then
 * blocked, with the stage reported as an error. For a sandbox that could not be built. A report
 * the static gate blocked records the stage as skipped instead (it would not have run). */
SG_API sg_status sg_report_golden_error(sg_report *report, const char *task_label, const char *reason);

typedef enum sg_golden_stage {
    SG_STAGE_NOT_RUN = 0, /* no golden stage was asked for */
    SG_STAGE_SKIPPED = 1, /* the static gate blocked: nothing ran */
    SG_STAGE_RAN = 2,     /* a result is attached */
    SG_STAGE_FAILED = 3,  /* the stage could not start (sg_report_golden_error) */
} sg_golden_stage;

SG_API sg_golden_stage sg_report_golden_stage(const sg_report *report);
/* The attached result (SG_STAGE_RAN), else NULL. Borrowed from the report. */
SG_API const sg_golden_result *sg_report_golden(const sg_report *report);
/* Why the stage was skipped or could not start (SG_STAGE_SKIPPED, SG_STAGE_FAILED), else NULL.
 * Borrowed from the report. */
SG_API const char *sg_report_golden_reason(const sg_report *report);

#ifdef __cplusplus
}
#endif

#endif /* SNIPGATE_GOLDEN_H */
