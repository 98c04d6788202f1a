/*
 * snipgate fuzz stage: fuzz a candidate for a golden task in the sandbox, guided by the coverage
 * of its own Python code (docs/fuzz.md). Included by snipgate.h; do not include it directly.
 *
 * The library holds the target side: typed decoding of fuzz inputs (the property engine's types
 * and choice streams), a coverage worker streaming inputs to the candidate, the reference in its
 * own worker, classification of findings, confirmation by replay in a fresh call, shrinking. The
 * byte-level search (libFuzzer) runs in a separate program, `snipgate-fuzz`, that drives it:
 * libFuzzer calls exit() and installs signal handlers, so it never runs inside `snipgate check`.
 *
 * Ownership: sg_fuzz_new returns an object freed with sg_fuzz_free (NULL is a no-op); the sandbox
 * and the task are borrowed and must outlive it. Strings it returns are malloc'd (free()).
 * Fail closed: a sandbox or internal error is an error (SG_ERR_*), never "no finding".
 */
#ifndef SNIPGATE_FUZZ_H
#define SNIPGATE_FUZZ_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sg_fuzz sg_fuzz;

typedef struct sg_fuzz_opts {
    bool completion;            /* the candidate text continues the task's prompt */
    unsigned max_shrink_calls;  /* replays spent shrinking a finding (default 300) */
    double max_shrink_seconds;  /* and their time cap (default 10) */
    double input_timeout_s;     /* CPU limit of one input (0: the task's timeout, default 2 s) */
} sg_fuzz_opts;

SG_API void sg_fuzz_opts_init(sg_fuzz_opts *opts);

/*
 * Start the candidate's coverage worker (and the reference's, when the task has a reference).
 * Fails with SG_ERR_INVALID_ARG (no entry point, no argument types: the task needs a signature,
 * annotations or example inputs; a candidate that does not import is SG_OK: every input then
 * reports the import failure), SG_ERR_UNSUPPORTED (no tracer built in), SG_ERR_SANDBOX, SG_ERR_NOMEM.
 */
SG_API sg_status sg_fuzz_new(const sg_sandbox *sandbox, const sg_golden_task *task, const char *candidate,
                             size_t len, const sg_fuzz_opts *opts, sg_fuzz **ret, sg_diag *diag);
SG_API void sg_fuzz_free(sg_fuzz *fz);

/* Number of 8-bit counters sg_fuzz_run_one fills: one constant entry counter, then the edges. */
SG_API size_t sg_fuzz_counters(void);

/* Comparison feedback for the byte-level fuzzer (libFuzzer's __sanitizer_weak_hook_memcmp and
 * __sanitizer_cov_trace_cmp8), with operands already mapped to the input's bytes. */
typedef struct sg_fuzz_hooks {
    void (*cmp_bytes)(void *ctx, const uint8_t *in_input, const uint8_t *wanted, size_t n);
    void (*cmp_int)(void *ctx, uint64_t a, uint64_t b);
    void *ctx;
} sg_fuzz_hooks;

/*
 * Run one input: decode it into typed arguments, call the candidate, fill counters[0 ..
 * sg_fuzz_counters()) with its coverage and report its comparisons to `hooks` (may be NULL).
 * *ret_finding is true when the input gave a finding that held when replayed alone in a fresh
 * call; it is then shrunk and kept (sg_fuzz_result_json) and the caller should stop. Fails with
 * SG_ERR_SANDBOX (a worker could not be restarted), SG_ERR_INTERRUPTED or SG_ERR_NOMEM.
 */
SG_API sg_status sg_fuzz_run_one(sg_fuzz *fz, const uint8_t *data, size_t size, uint8_t *counters,
                                 const sg_fuzz_hooks *hooks, bool *ret_finding, sg_diag *diag);

/* The seed inputs (the task's example argument lists, encoded), one call of `each` per seed. */
SG_API sg_status sg_fuzz_seeds(sg_fuzz *fz, sg_status (*each)(void *ctx, const uint8_t *bytes, size_t n),
                               void *ctx);

/* A libFuzzer dictionary of the constants in the candidate's and the reference's code (str and
 * int literals, encoded as inputs hold them). Malloc'd text; SG_ERR_NOMEM. */
SG_API sg_status sg_fuzz_dictionary(const sg_fuzz *fz, char **ret_text);

/*
 * The outcome as JSON: {"finding": null | {"kind", "input", "args_json", "kwargs_json" (null
 * without keyword arguments), "exc_type", "exc_message", "exc_line", "traceback", "got",
 * "expected", "detail", "shrink_calls"}, "execs",
 * "discarded", "unconfirmed", "edges", "lines", "lines_total", "restarts"}. Malloc'd; SG_ERR_NOMEM.
 */
SG_API sg_status sg_fuzz_result_json(const sg_fuzz *fz, char **ret_json);

/* ---------------------------------------------------------------------------------------------
 * The fuzz stage of a checked document (rendered with the verdict by sg_render)
 * ------------------------------------------------------------------------------------------- */

/* The program the golden stage runs for `report`'s document (buf, len: what the checker was
 * given): what the fuzz stage fuzzes. Malloc'd. Fails like sg_report_run_golden. */
SG_API sg_status sg_report_fuzz_program(const sg_report *report, const char *buf, size_t len, char **ret_text,
                                        sg_diag *diag);

/*
 * Attach the fuzz stage's outcome to the report: `result_json`, the line snipgate-fuzz printed,
 * or `error` (why the stage could not run: the report then blocks, the gate failed), or neither
 * (skipped: an earlier stage blocked). A finding becomes a reason (sg_report_add_reason: rule id
 * SG-FUZZ, a fuzz criterion, the document line of its exception) and the stage's status is
 * recorded (sg_report_set_stage); a stage that could not run is a gate-error reason. A result that is not a well-formed "ok" result counts as
 * the stage failing. Fails with SG_ERR_INVALID_ARG (stage already attached) or SG_ERR_NOMEM.
 */
SG_API sg_status sg_report_add_fuzz(sg_report *report, const char *buf, size_t len, const char *task_label,
                                    const char *result_json, const char *error, sg_diag *diag);

/* SG_STAGE_NOT_RUN, _SKIPPED, _RAN (a result, with or without a finding) or _FAILED. */
SG_API sg_golden_stage sg_report_fuzz_stage(const sg_report *report);

#ifdef __cplusplus
}
#endif

#endif /* SNIPGATE_FUZZ_H */
