/*
 * snipgate: a safety gate for generated Python code. The public C API.
 *
 * Ownership, once for the whole API:
 *  - Every opaque handle comes from a `sg_<thing>_new*` function and is released with
 *    `sg_<thing>_free`; `sg_<thing>_free(NULL)` is a no-op.
 *  - Pointers returned by accessors (`sg_report_finding`, `sg_rules_info`, ...) are borrowed: they
 *    stay valid until the handle they came from is freed, and must not be freed by the caller.
 *  - Input buffers are borrowed for the duration of a call only; snipgate copies what it keeps.
 *  - Output parameters (`ret_*`) are last and are written only when the call returns SG_OK.
 *
 * Threads: an `sg_rules` set is immutable once a checker has been made from it and may then be
 * shared by any number of threads. An `sg_checker` belongs to one thread at a time.
 *
 * Errors: every fallible function returns an sg_status. SG_OK is 0. Codes are append-only.
 * Details (path, line, column, byte offset, errno, a message) go into an optional sg_diag.
 * A blocked snippet is NOT an error: it is a report whose verdict is "block".
 */
#ifndef SNIPGATE_H
#define SNIPGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "snipgate/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SG_API __attribute__((visibility("default")))

/* The library's version ("0.1.0"): the one compiled in, which may differ from the
 * SNIPGATE_VERSION this program was compiled against when the library is shared. Never NULL. */
SG_API const char *sg_version(void);

typedef enum sg_status {
    SG_OK = 0,
    SG_ERR_NOMEM = 1,        /* an allocation failed */
    SG_ERR_INVALID_ARG = 2,  /* a caller passed a bad argument (NULL handle, bad option value) */
    SG_ERR_IO = 3,           /* a file could not be read or written (errno in diag) */
    SG_ERR_TOO_LARGE = 4,    /* input larger than the configured byte limit */
    SG_ERR_BINARY = 5,       /* input contains a NUL byte (offset in diag) */
    SG_ERR_ENCODING = 6,     /* input is not valid UTF-8 (offset in diag) */
    SG_ERR_EMPTY = 7,        /* input is empty or holds no Python code */
    SG_ERR_RULES = 8,        /* a rule pack is malformed (path, line, column in diag) */
    SG_ERR_UNKNOWN_RULE = 9, /* a rule id named by the caller does not exist */
    SG_ERR_INTERNAL = 10,    /* snipgate itself failed; never means pass */
    SG_ERR_SANDBOX = 11,     /* the sandbox could not be set up; never means pass */
    SG_ERR_UNSUPPORTED = 12, /* the kernel refuses a required isolation feature */
    SG_ERR_INTERRUPTED = 13, /* stopped by sg_sandbox_interrupt(): the sandbox was killed, no verdict */
    SG_ERR_POLICY = 14,      /* a policy file is malformed (path, line, column in diag) */
} sg_status;

/* A short, static, English description of a status code. Never NULL. */
SG_API const char *sg_strerror(sg_status status);

/* jansson's json_dumps(json, flags) for a `json_t *`, but NULL on any failed allocation: jansson
 * 2.14's own json_dumps can return malformed JSON as a success then. The caller frees the text. */
struct json_t;
SG_API char *sg_json_dumps(const struct json_t *json, size_t flags);

/* jansson's json_loadb for text from outside (request bodies, files), guarded: jansson 2.14 writes
 * past a buffer when an allocation fails inside a string (lex_scan: its saved text loses bytes and
 * the copy runs on to a quote), so a failed allocation inside the loader must not return.
 * sg_json_guard_install (once, before any thread starts) routes jansson's allocations through a
 * check that ends the process with a message when one fails inside sg_json_loadb_guarded. Room for
 * the load (8 times the text, 64 KiB more) is tried first, and its absence is a clean failure
 * (NULL, *nomem true, error->text "out of memory"). Without the install, the load is json_loadb's. */
struct json_error_t;
SG_API void sg_json_guard_install(void);
SG_API struct json_t *sg_json_loadb_guarded(const char *buf, size_t len, size_t flags, struct json_error_t *error,
                                            bool *nomem);

/* Where and why a call failed. All fields are optional to read; `message` is always terminated. */
typedef struct sg_diag {
    sg_status status;
    char path[512];    /* file involved, if any */
    long line;         /* 1-based, 0 if unknown */
    long column;       /* 1-based, 0 if unknown */
    long long offset;  /* byte offset, -1 if unknown */
    int sys_errno;     /* errno of a failed system call, 0 if none */
    char message[512]; /* human-readable detail */
} sg_diag;

/* Clear a diag before use. */
SG_API void sg_diag_init(sg_diag *diag);

typedef enum sg_severity {
    SG_SEV_LOW = 0,
    SG_SEV_MEDIUM = 1,
    SG_SEV_HIGH = 2,
    SG_SEV_CRITICAL = 3,
} sg_severity;

/* "low", "medium", "high", "critical". */
SG_API const char *sg_severity_name(sg_severity sev);
/* Parse a severity name (case-insensitive). */
SG_API sg_status sg_severity_parse(const char *name, sg_severity *ret_sev);

/* ---------------------------------------------------------------------------------------------
 * Rules
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_rules sg_rules;

/* What `snipgate rules` lists. All strings are borrowed from the rule set. */
typedef struct sg_rule_info {
    const char *id;
    const char *name;
    sg_severity severity;
    const char *confidence; /* "low", "medium", "high" */
    int cwe;                /* 0 if none */
    const char *message;
    const char *fix;
    const char *kind;       /* calls, imports, attributes, credentials, network, query, builtin */
    const char *matches;    /* one line saying what it matches */
    const char *pack;       /* name of the pack it came from ("default" or a path) */
    bool enabled;
    const char *rationale;  /* why the construct is dangerous and what to do instead ("" if none) */
    const char *example;    /* a short snippet the rule blocks ("" if none) */
} sg_rule_info;

/* A rule set holding the built-in default pack. Fails only with SG_ERR_NOMEM or SG_ERR_INTERNAL. */
SG_API sg_status sg_rules_new_default(sg_rules **ret_rules);
/* An empty rule set (only the built-in checks that cannot be disabled: syntax, limits). */
SG_API sg_status sg_rules_new_empty(sg_rules **ret_rules);
SG_API void sg_rules_free(sg_rules *rules);

/*
 * Add the rules of a YAML pack. A rule whose id already exists replaces the old one; with
 * `replace_all`, every rule loaded so far (the default pack included) is dropped first.
 * Fails with SG_ERR_RULES (location in diag), SG_ERR_IO, SG_ERR_TOO_LARGE or SG_ERR_NOMEM; on
 * failure the set is unchanged.
 */
SG_API sg_status sg_rules_load_file(sg_rules *rules, const char *path, bool replace_all, sg_diag *diag);
/* The same, refusing a pack larger than max_bytes (0: the default cap of 4 MiB) with
 * SG_ERR_TOO_LARGE: `--max-bytes` applies to rule packs as to inputs. */
SG_API sg_status sg_rules_load_file_max(sg_rules *rules, const char *path, size_t max_bytes, bool replace_all,
                                        sg_diag *diag);
SG_API sg_status sg_rules_load_buffer(sg_rules *rules, const char *name, const char *buf, size_t len,
                                      bool replace_all, sg_diag *diag);
/* Disable one rule by id (SG_ERR_UNKNOWN_RULE if there is none). */
SG_API sg_status sg_rules_disable(sg_rules *rules, const char *id, sg_diag *diag);
/* Add a host to the network allow-list: "api.example.com", or "*.example.com" for subdomains.
 * Every function that changes a set (load, disable, allow_host) refuses a set that a checker was
 * made from (SG_ERR_INVALID_ARG): it is immutable from then on. */
SG_API sg_status sg_rules_allow_host(sg_rules *rules, const char *host);
SG_API size_t sg_rules_count(const sg_rules *rules);
/* Information about rule `index` (0 <= index < count), or NULL. */
SG_API const sg_rule_info *sg_rules_info(const sg_rules *rules, size_t index);

/* ---------------------------------------------------------------------------------------------
 * Static checking
 * ------------------------------------------------------------------------------------------- */

typedef enum sg_input_kind {
    SG_INPUT_AUTO = 0,     /* markdown if the name ends in .md/.markdown or fences are found */
    SG_INPUT_PYTHON = 1,
    SG_INPUT_MARKDOWN = 2,
} sg_input_kind;

typedef struct sg_options {
    size_t max_bytes;         /* inputs larger than this fail with SG_ERR_TOO_LARGE (default 8 MiB) */
    unsigned max_depth;       /* syntax-tree depth beyond which the snippet is blocked (default 400) */
    long line_offset;         /* added to every reported line (default 0) */
    sg_severity fail_on;      /* findings at or above this severity block (default medium) */
    bool honor_suppressions;  /* let `# nosec` / `# noqa` silence findings (default false) */
    const char *const *honor_rules; /* with honor_suppressions: only findings of these rule ids
                                       may be silenced (NULL / 0: any rule); borrowed, must
                                       outlive the checker */
    size_t n_honor_rules;
    sg_input_kind input_kind; /* default SG_INPUT_AUTO */
    uint64_t parse_steps;     /* the parse's limit per block in tree-sitter parser operations (the
                                 same count on any machine and load: deterministic verdicts); past
                                 it SG002; a parse that has met a syntax error gets parse_steps / 16
                                 more, then SG001. 0 for none (default 64000000) */
    uint32_t parse_timeout_ms;/* a backstop in milliseconds of CPU time of the checking thread, for
                                 input far outside valid code (error recovery can cost 20x more
                                 per step); 0 for none (default 60000: valid code within the step
                                 limit parses in a fraction of it) */
} sg_options;

SG_API void sg_options_init(sg_options *opts);

typedef struct sg_finding {
    const char *rule_id;
    const char *name;
    sg_severity severity;
    const char *confidence;
    int cwe;
    long line;        /* 1-based, in the document the user gave (offset applied) */
    long column;      /* 1-based, in Unicode code points */
    long end_line;
    long end_column;  /* exclusive */
    const char *message;
    const char *fix;
    const char *snippet; /* the source line of `line`, without its newline */
    bool blocking;       /* severity >= fail_on */
    bool suppressed;     /* silenced by an honoured # nosec / # noqa (then not blocking) */
    bool baseline;       /* in the baseline (sg_baseline_apply): reported, not blocking */
} sg_finding;

typedef struct sg_report sg_report;
typedef struct sg_checker sg_checker;

/* A checker bound to a rule set (borrowed: it must outlive the checker) and options (copied).
 * Checking never passes a document it could not check completely: an allocation or internal
 * failure while checking returns SG_ERR_NOMEM / SG_ERR_INTERNAL (an error verdict), never a
 * report with findings missing. */
SG_API sg_status sg_checker_new(const sg_rules *rules, const sg_options *opts, sg_checker **ret_checker);
SG_API void sg_checker_free(sg_checker *checker);

/*
 * Check one document. `path` labels the report (may be NULL: "<stdin>"). On SG_OK a report is
 * returned, blocked or not. Input that cannot be checked (too large, NUL bytes, invalid UTF-8,
 * empty) fails with the matching status and the location in diag.
 */
SG_API sg_status sg_checker_check(sg_checker *checker, const char *path, const char *buf, size_t len,
                                  sg_report **ret_report, sg_diag *diag);

/* A report that records an input which could not be checked (it never passes). */
SG_API sg_status sg_report_new_error(const char *path, const sg_diag *diag, sg_report **ret_report);
/* A passing report for a document with nothing to check (an empty __init__.py met while walking a
 * directory); explicit empty inputs are an error (SG_ERR_EMPTY) instead. */
SG_API sg_status sg_report_new_empty(const char *path, sg_report **ret_report);
SG_API void sg_report_free(sg_report *report);

SG_API const char *sg_report_path(const sg_report *report);
SG_API bool sg_report_blocked(const sg_report *report);
/* SG_OK for a checked document, else the status that kept it from being checked. */
SG_API sg_status sg_report_error(const sg_report *report, const sg_diag **ret_diag);
SG_API size_t sg_report_count(const sg_report *report);
SG_API const sg_finding *sg_report_finding(const sg_report *report, size_t index);
/* Number of Python blocks checked (1 for a .py file; fenced blocks for markdown). */
SG_API size_t sg_report_blocks(const sg_report *report);
SG_API size_t sg_report_bytes(const sg_report *report);

/* ---------------------------------------------------------------------------------------------
 * Rendering a verdict over several reports
 * ------------------------------------------------------------------------------------------- */

typedef enum sg_format {
    SG_FORMAT_TEXT = 0,
    SG_FORMAT_JSON = 1,
    SG_FORMAT_SARIF = 2,
    SG_FORMAT_MARKDOWN = 3, /* rule lists only (sg_rules_render): the rules reference page */
    SG_FORMAT_GITLAB = 4,   /* a GitLab SAST report (gl-sast-report.json, schema 15.0.7) */
} sg_format;

SG_API sg_status sg_format_parse(const char *name, sg_format *ret_format);

typedef struct sg_render_opts {
    bool color;           /* ANSI colours in text output */
    double elapsed_ms;    /* reported in stats */
    const sg_rules *rules;/* for SARIF tool.driver.rules (may be NULL) */
    sg_severity fail_on;
    bool errors_on_stderr; /* text: the caller printed each input error's message already; the
                              verdict names the file and the error code only */
    const char *policy_path; /* the policy file applied (JSON "policy"), or NULL */
    bool no_times;        /* JSON: every stage's time_ms is 0, so that the same input renders the
                             same document on every run (audit's resume, shards and serve compare
                             documents; pass elapsed_ms 0 as well) */
    bool baseline;           /* a baseline was applied (JSON stats.baseline_matched, SARIF baselineState) */
    const char *srcroot;     /* SARIF: the absolute directory %SRCROOT% stands for (a repository's top
                                level); artifact URIs are relative to it when under it. NULL: the
                                working directory */
} sg_render_opts;

/* The JSONL line of one record of a corpus audit (docs/audit.md), without its newline:
 * {"id", "source", "status", "error" (a string or null), "verdict"}, where `verdict_json` is a
 * compact document of sg_render_string (or NULL: null), inserted whole. An id, source or error
 * that is not valid UTF-8 makes the line an error line about it. malloc'd; NULL when out of
 * memory. */
SG_API char *sg_render_record_line(const char *id, const char *source, const char *status, const char *error,
                                   const char *verdict_json);

/* Untrusted text (a candidate's output, messages, values) for a terminal: C0 and C1 control
 * characters (CR, ESC, ...) but tab, and newline when keep_newlines, and the bidi and zero-width
 * format characters are written as '?', so that no text can move the cursor or redraw a line. */
SG_API void sg_text_write_safe(FILE *out, const char *s, size_t n, bool keep_newlines);
/* Write the verdict for `n` reports to `out`. Fails with SG_ERR_IO or SG_ERR_NOMEM. */
SG_API sg_status sg_render(FILE *out, sg_format format, sg_report *const *reports, size_t n,
                           const sg_render_opts *opts);
/* The JSON or SARIF verdict (as sg_render writes it, without the final newline) in one malloc'd
 * string the caller frees; `compact`: on one line without layout whitespace (a JSONL line).
 * SG_ERR_INVALID_ARG for the text format. */
SG_API sg_status sg_render_string(sg_format format, sg_report *const *reports, size_t n,
                                  const sg_render_opts *opts, bool compact, char **ret);

/* List a rule set (SG_FORMAT_JSON: an array of rule objects; text: one line per rule;
 * SG_FORMAT_MARKDOWN: the reference page docs/rules-reference.md is generated with).
 * With `all`, disabled rules are listed too. */
SG_API sg_status sg_rules_render(FILE *out, const sg_rules *rules, sg_format format, bool all);
/* Everything about one rule, for a person: id, name, severity, CWE, message, rationale, fix,
 * example. SG_ERR_UNKNOWN_RULE if the set has no rule `id`. */
SG_API sg_status sg_rules_explain(FILE *out, const sg_rules *rules, const char *id);

/* Read a whole input: the file at `path`, or stdin when path is NULL, refusing more than
 * max_bytes (SG_ERR_TOO_LARGE). The buffer is malloc'd, NUL-terminated; free() it. */
SG_API sg_status sg_read_input(const char *path, size_t max_bytes, char **ret_buf, size_t *ret_len, sg_diag *diag);

/* True if any report blocks (a finding at or above fail_on, an input that failed, a reason added),
 * and when n is 0: nothing checked never passes (criterion "nothing-checked"). */
SG_API bool sg_reports_blocked(sg_report *const *reports, size_t n);

/* ---------------------------------------------------------------------------------------------
 * The verdict: stages, blocking criteria and reasons (docs/blocking.md)
 *
 * A verdict is built from stages run in order (static rules; then, in the sandbox, golden cases
 * and property checks; then fuzzing). Each stage only adds reasons; a static block stops before
 * anything executes. Every reason names one blocking criterion of a fixed, documented table.
 * ------------------------------------------------------------------------------------------- */

/* The schema_version of the JSON verdict (docs/verdict.schema.json). */
#define SG_VERDICT_SCHEMA_VERSION "1"

typedef enum sg_pipe_stage {
    SG_PIPE_STATIC = 0, /* the static gate (rules) */
    SG_PIPE_GOLDEN = 1, /* golden cases and property checks, in the sandbox (one run) */
    SG_PIPE_FUZZ = 2,   /* the fuzz budget, in the sandbox */
} sg_pipe_stage;
#define SG_PIPE_COUNT 3

typedef enum sg_stage_status {
    SG_STAGE_STATUS_NOT_RUN = 0, /* not asked for (or not available) */
    SG_STAGE_STATUS_SKIPPED = 1, /* asked for, but an earlier stage blocked: nothing ran */
    SG_STAGE_STATUS_PASS = 2,
    SG_STAGE_STATUS_BLOCK = 3,
    SG_STAGE_STATUS_ERROR = 4,   /* the stage could not judge: the gate failed (never a pass) */
} sg_stage_status;

/* "static", "golden", "fuzz"; "?" for an unknown value. */
SG_API const char *sg_pipe_stage_name(sg_pipe_stage stage);
/* "not_run", "skipped", "pass", "block", "error"; "?" for an unknown value. */
SG_API const char *sg_stage_status_name(sg_stage_status status);

/* The blocking criteria. Append-only; their ids are stable identifiers (docs/blocking.md). */
typedef enum sg_criterion {
    SG_CRIT_FINDING = 0,         /* "finding": a rule finding at or above the severity threshold */
    SG_CRIT_UNCHECKABLE,         /* "uncheckable": the snippet cannot be checked */
    SG_CRIT_GOLDEN_CASE,         /* "golden-case": a known answer is not met */
    SG_CRIT_PROPERTY,            /* "property": a property fails on a generated input */
    SG_CRIT_FUZZ_EXCEPTION,      /* "fuzz-exception": the fuzzer finds an undeclared exception */
    SG_CRIT_FUZZ_HANG,           /* "fuzz-hang" */
    SG_CRIT_FUZZ_CRASH,          /* "fuzz-crash" */
    SG_CRIT_FUZZ_MEMORY,         /* "fuzz-memory": a memory blow-up */
    SG_CRIT_SANDBOX_SYSCALL,     /* "sandbox-syscall": a forbidden system call */
    SG_CRIT_SANDBOX_TIMEOUT,     /* "sandbox-timeout": a CPU or wall-clock limit */
    SG_CRIT_SANDBOX_LIMIT,       /* "sandbox-limit": the memory or output limit */
    SG_CRIT_GATE_ERROR,          /* "gate-error": the gate itself failed */
    SG_CRIT_NOTHING_CHECKED,     /* "nothing-checked": no input was checked at all */
    SG_CRIT_STAGE_REQUIRED,      /* "stage-required": the policy requires a stage that did not run */
    SG_CRIT_TOO_SLOW,            /* "too-slow": the candidate's cost on scaled inputs outgrows the reference's */
} sg_criterion;
#define SG_CRIT_COUNT 15

typedef struct sg_criterion_info {
    const char *id;      /* "finding", "golden-case", ... */
    const char *trigger; /* what triggers it, one sentence */
    const char *stage;   /* "static", "golden", "fuzz", "golden, fuzz", "any", "pipeline" */
} sg_criterion_info;

/* The table row of a criterion, or NULL for an unknown value. Static storage. */
SG_API const sg_criterion_info *sg_criterion_get(sg_criterion criterion);

/* One reason a report blocks. Strings are borrowed from the report. */
typedef struct sg_reason {
    sg_criterion criterion;
    sg_pipe_stage stage;
    const char *rule_id; /* the finding's rule, SG-GOLDEN / SG-PROPERTY, or NULL */
    long line;           /* 1-based line in the document (offset applied), 0 unknown */
    long column;         /* 1-based, 0 unknown */
    const char *message;
} sg_reason;

/* Every reason `report` blocks, in stage order (an empty list: it passes). The array is
 * malloc'd (free() it; NULL when there is none); its strings are borrowed from the report.
 * Fails with SG_ERR_INVALID_ARG or SG_ERR_NOMEM. */
SG_API sg_status sg_report_reasons(const sg_report *report, sg_reason **ret_reasons, size_t *ret_count);
/* Add a reason found outside the library's own stages (the fuzz stage, a policy requirement):
 * the report then blocks. Strings are copied. SG_ERR_INVALID_ARG, SG_ERR_NOMEM. */
SG_API sg_status sg_report_add_reason(sg_report *report, sg_criterion criterion, sg_pipe_stage stage,
                                      const char *rule_id, long line, long column, const char *message);
/* The status of a stage on this report, its time in milliseconds (`ret_ms`, may be NULL) and a
 * note saying why it did not run or could not judge (`ret_note`, may be NULL; NULL if none). */
SG_API sg_stage_status sg_report_stage(const sg_report *report, sg_pipe_stage stage, double *ret_ms,
                                       const char **ret_note);
/* Record a stage the library does not run itself (SG_PIPE_FUZZ): status, time and note
 * (copied; may be NULL). The static and golden stages are recorded by the library
 * (SG_ERR_INVALID_ARG). A blocking status needs a reason (sg_report_add_reason). */
SG_API sg_status sg_report_set_stage(sg_report *report, sg_pipe_stage stage, sg_stage_status status, double ms,
                                     const char *note);

/* A stable identifier of why an input could not be checked, for machines: "not_found",
 * "io_error", "too_large", "binary", "encoding", "empty", "no_python", "not_regular",
 * "out_of_memory", "internal". Never NULL. */
SG_API const char *sg_diag_code(const sg_diag *diag);

/* ---------------------------------------------------------------------------------------------
 * Policy files (.snipgate.yml, docs/policy.md)
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_policy sg_policy;

/* What a policy file sets. Unset fields are 0 / NULL / false: the defaults (or the command line)
 * apply. Strings are borrowed from the policy. */
typedef struct sg_policy_info {
    const char *path;                 /* the file, as found or given */
    const char *dir;                  /* its directory: packs and exclude globs are relative to it */
    bool has_fail_on;
    sg_severity fail_on;              /* fail_on: the severity threshold */
    const char *const *enable;        /* rules.enable: only these rules (the built-in checks stay) */
    size_t n_enable;
    const char *const *disable;       /* rules.disable */
    size_t n_disable;
    bool honor_all_suppressions;      /* rules.honor_suppressions: true */
    const char *const *honor_suppressions; /* rules.honor_suppressions: [ids] (the rules whose
                                              findings # nosec / # noqa may silence) */
    size_t n_honor_suppressions;
    const char *const *packs;         /* rules.packs: extra rule packs, resolved against dir */
    size_t n_packs;
    const char *const *allow_hosts;   /* network.allow_hosts */
    size_t n_allow_hosts;
    const char *const *exclude;       /* exclude: globs over paths relative to dir */
    size_t n_exclude;
    bool required[SG_PIPE_COUNT];     /* stages.required */
    uint64_t max_bytes;               /* budgets.max_bytes (units as --max-bytes) */
    unsigned max_depth;               /* budgets.max_depth */
    uint32_t parse_cpu_ms;            /* budgets.parse_cpu: CPU time of a block's parse (as --parse-cpu) */
    uint64_t parse_steps;             /* budgets.parse_steps: parser steps of a block's parse (as --parse-steps) */
    unsigned property_inputs;         /* budgets.property_inputs */
    double property_seconds;          /* budgets.property_seconds */
    double fuzz_seconds;              /* budgets.fuzz_seconds: the fuzz stage's time budget, 0 if not set */
    uint64_t fuzz_runs;               /* budgets.fuzz_runs: its input budget, 0 if not set */
} sg_policy_info;

/* Look for `.snipgate.yml` in `start_dir` and each parent directory up to the root. On SG_OK,
 * *ret_path is the malloc'd path of the first found (free() it), or NULL when there is none.
 * SG_ERR_NOMEM, SG_ERR_IO (start_dir cannot be resolved). */
SG_API sg_status sg_policy_find(const char *start_dir, char **ret_path);
/* Load a policy file. Fails with SG_ERR_POLICY (an unknown key, a wrong type or value, YAML
 * syntax: file, line and column in diag), SG_ERR_IO, SG_ERR_TOO_LARGE or SG_ERR_NOMEM. */
SG_API sg_status sg_policy_load_file(const char *path, sg_policy **ret_policy, sg_diag *diag);
SG_API sg_status sg_policy_load_buffer(const char *path, const char *buf, size_t len, sg_policy **ret_policy,
                                       sg_diag *diag);
SG_API void sg_policy_free(sg_policy *policy);
SG_API const sg_policy_info *sg_policy_get(const sg_policy *policy);
/* Does an exclude glob of the policy match `path` (a path as given on the command line or met in a
 * walk, resolved against the current directory)? A glob with a '/' matches the path relative to the
 * policy's directory ('*' also matches '/'); one without matches any path component's name. */
SG_API bool sg_policy_excludes(const sg_policy *policy, const char *path);

/* A duration: "10s", "500ms", or a bare number of seconds ("2.5"); more than 0 and at most one
 * hour. SG_ERR_INVALID_ARG for anything else. */
SG_API sg_status sg_duration_parse(const char *s, double *ret_seconds);

/* Baselines: a previous JSON verdict (`check --format json`); its findings are known, and only
 * new ones block. A finding matches a baseline one with the same path, rule and source line
 * (blanks around it ignored) and the same rank among such equal findings of the file, wherever the
 * line moved. */
typedef struct sg_baseline sg_baseline;
/* SG_ERR_IO, SG_ERR_TOO_LARGE, SG_ERR_INVALID_ARG (not a JSON verdict: the reason in diag),
 * SG_ERR_NOMEM. */
SG_API sg_status sg_baseline_load_file(const char *path, sg_baseline **ret_baseline, sg_diag *diag);
/* The same with the paths relative to `root` (an absolute directory: the repository's top level,
 * as `check` writes a JSON verdict's paths), so that a baseline made in any directory of the
 * repository matches the files checked from any other: its relative paths are taken as
 * relative to `root`, and a file being checked matches by its real path below `root`.
 * sg_baseline_load_file is this with NULL: the current directory. */
SG_API sg_status sg_baseline_load_file_at(const char *path, const char *root, sg_baseline **ret_baseline,
                                          sg_diag *diag);
SG_API void sg_baseline_free(sg_baseline *baseline);
/* Mark the report's findings found in the baseline (`baseline`, no longer blocking); returns how
 * many (ret_matched may be NULL). */
SG_API sg_status sg_baseline_apply(const sg_baseline *baseline, sg_report *report, size_t *ret_matched);

/* The Python program a document holds, as `snipgate run` executes it: a Python file as it is;
 * Markdown (by name: .md, .markdown; or fences in a file of another name) its ```python / ```py
 * fences (unlabeled ones only when there is no labeled one), each at its own lines with every
 * other line blank, so that line numbers stay the document's. The text is malloc'd and
 * NUL-terminated (free() it). Fails like sg_checker_check's input validation (SG_ERR_EMPTY with
 * "no Python" for Markdown without a Python fence, SG_ERR_BINARY, SG_ERR_ENCODING) or SG_ERR_NOMEM. */
SG_API sg_status sg_document_program(const char *path, const char *buf, size_t len, char **ret_text,
                                     size_t *ret_len, sg_diag *diag);

/* A size with an optional unit, as `run --memory` takes it: "8388608", "512K", "8M", "1G", "100B";
 * a bare number is `default_unit` bytes. SG_ERR_INVALID_ARG for anything else. */
SG_API sg_status sg_size_parse(const char *s, uint64_t default_unit, uint64_t *ret_bytes);

#ifdef __cplusplus
}
#endif

/* The sandbox API and the golden-task stage, in their own headers. */
#include "snipgate/sandbox.h"
#include "snipgate/golden.h"
#include "snipgate/fuzz.h"

#endif /* SNIPGATE_H */
