/*
 * The one seam `snipgate serve` and `snipgate audit` call: one input (code, a name, an optional
 * task, task id or tests) in, the verdict JSON document out -- the same document
 * `snipgate check --format json` prints for that one input. Public API only.
 *
 * Ownership: an sg_cli_pipeline borrows its rule set (frozen, shared by every thread), its
 * suite and its sandbox; the caller frees them after sg_cli_pipeline_free. A checker from
 * sg_cli_pipeline_checker belongs to one thread. An sg_cli_result owns its strings
 * (sg_cli_result_clear frees them).
 *
 * Fail closed: anything that keeps an input from being judged (bad input, an unknown task, a
 * stage that could not run) is an error result, never a pass.
 */
#ifndef SG_CLI_PIPELINE_H
#define SG_CLI_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"
#include "snipgate/snipgate.h"

typedef struct sg_cli_pipeline {
    const sg_rules *rules;        /* frozen once a checker was made from it */
    sg_options opts;              /* the static gate's options */
    const sg_golden_suite *suite; /* where task ids are looked up first (NULL: built-in tasks only) */
    const sg_sandbox *sandbox;    /* NULL: a golden stage is an error with sandbox_error */
    char sandbox_error[600];
    sg_cli_golden golden;         /* seed and budgets (sg_cli_golden_task_opts) */
    bool static_only;             /* ignore task ids (never run the golden stage) */
    double golden_max_seconds;    /* > 0: cap the property search of one input at this (serve's budget) */
    const sg_policy_info *policy; /* NULL, or a policy whose stages.required apply to every input */
    const char *policy_name;      /* the verdict's "policy" when not the policy's path ("request") */
    const atomic_int *cancel;     /* NULL, or set by another thread: the golden stage stops (serve's 504) */
} sg_cli_pipeline;

/* One input. `code` is `len` bytes (need not be NUL-terminated). At most one of task_id,
 * task_json (one task object in snipgate's JSONL task format) and tests (plain asserts, as
 * `check --tests`) is set. With `completion`, `code` continues the task's prompt (a HumanEval
 * sample): the program checked and run is prompt + code, and lines are the program's. */
typedef struct sg_cli_request {
    const char *name;
    const char *code;
    size_t len;
    const char *task_id;
    const char *task_json;
    const char *tests;
    size_t tests_len;
    bool completion;
    bool empty_passes; /* an empty document passes, as `check` treats an empty file met in a walk */
    sg_golden_pool *pool; /* NULL, or the calling thread's warm sandboxes for the golden stage */
} sg_cli_request;

typedef enum sg_cli_outcome {
    SG_CLI_PASS = 0,
    SG_CLI_BLOCK = 1,
    SG_CLI_BAD_INPUT = 2, /* the input cannot be checked (or names an unknown task): `message` says why */
    SG_CLI_ERROR = 3,     /* the gate could not judge it (golden stage error, out of memory) */
} sg_cli_outcome;

/* What one input came to. `json` is the verdict document (compact, one line, no newline); NULL
 * only for SG_CLI_BAD_INPUT of a request that never reached the gate (an unknown task) and for
 * out of memory. The rest feeds summaries and metrics without parsing the document. */
typedef struct sg_cli_result {
    sg_cli_outcome outcome;
    char *json;
    char message[600];       /* why, for SG_CLI_BAD_INPUT and SG_CLI_ERROR */
    char **rules;            /* rule ids of the blocking findings (malloc'd strings), nrules of them */
    size_t nrules;
    int max_severity;        /* of the blocking findings, -1 if none */
    size_t findings;         /* blocking findings */
    const char *golden;      /* "not_run", "skipped", "pass", "fail", "error" (static string) */
    const char *contract;    /* what the input came with to check it against (static string):
                                "properties" (a task declaring properties), "task" (a task: its
                                cases, a reference), "tests" (plain asserts), "none" (nothing:
                                the static gate alone can judge it) */
    double static_ms, golden_ms;
} sg_cli_result;

/* A checker for the calling thread. SG_ERR_NOMEM, SG_ERR_INTERNAL. */
sg_status sg_cli_pipeline_checker(const sg_cli_pipeline *p, sg_checker **ret);

/* Judge one input. Returns SG_OK with the result filled in (whatever the verdict), or
 * SG_ERR_NOMEM when even the result could not be made (then treat the input as an error). */
sg_status sg_cli_pipeline_run(const sg_cli_pipeline *p, sg_checker *checker, const sg_cli_request *req,
                              sg_cli_result *ret);

void sg_cli_result_clear(sg_cli_result *r);
/* The stages a policy requires that did not run on this report: one stage-required reason each.
 * `fuzz_hint` says how this command would have run the fuzz stage (or that it does not run it).
 * SG_OK or SG_ERR_NOMEM. */
sg_status sg_cli_require_stages(sg_report *rep, const sg_policy_info *pi, const char *fuzz_hint);

/* Contract coverage (issue 27): how many inputs came with which contract, and how many were
 * judged by the static gate alone (no contract, or a golden stage that did not run: blocked
 * statically first, or --static-only). Summaries of audit and eval, serve's /metrics. */
typedef struct sg_cli_contracts {
    size_t properties, task, tests, none;
    size_t static_only;
} sg_cli_contracts;
void sg_cli_contracts_add(sg_cli_contracts *c, const sg_cli_result *r);
/* The same from its two facts: the contract ("properties", "task", "tests", "none") and whether
 * the static gate alone judged the input. */
void sg_cli_contracts_count(sg_cli_contracts *c, const char *contract, bool static_only);
/* {"properties": N, "task": N, "tests": N, "none": N, "with_contract": N, "static_only": N} */
json_t *sg_cli_contracts_json(const sg_cli_contracts *c);
/* "contracts: N of M with one (properties N, task N, tests N), none N; judged by the static gate
 * alone N" */
void sg_cli_contracts_text(FILE *out, const char *indent, const sg_cli_contracts *c);

/* "pass", "block", "error" (bad input and gate errors alike: never a pass). */
const char *sg_cli_outcome_name(sg_cli_outcome o);

/* Monotonic clock in milliseconds. */
double sg_cli_now_ms(void);

#endif
