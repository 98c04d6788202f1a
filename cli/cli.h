/*
 * The snipgate command line. Each verb is one function taking the arguments after the verb
 * (argv[0] is the verb) and returning the process exit code:
 *   0 pass, 1 blocked (or the outcome was not ok), 2 bad usage or bad input, 3 internal error.
 * Verbs use only the public API (snipgate.h); they print errors once, to stderr.
 */
#ifndef SG_CLI_H
#define SG_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "snipgate/snipgate.h"

enum {
    SG_EXIT_PASS = 0,
    SG_EXIT_BLOCK = 1,
    SG_EXIT_USAGE = 2,
    SG_EXIT_INTERNAL = 3,
};

int sg_cli_main(int argc, char **argv);
int sg_cli_check(int argc, char **argv);
int sg_cli_rules(int argc, char **argv);
int sg_cli_run(int argc, char **argv);
int sg_cli_eval(int argc, char **argv);
int sg_cli_audit(int argc, char **argv);
int sg_cli_serve(int argc, char **argv);

/* Print "snipgate: <verb>: <message>" to stderr (printf-style). */
void sg_cli_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Until called again with NULL, sg_cli_error on this thread writes its message (the last one,
 * without the "snipgate: VERB: " prefix) into buf instead of printing it. */
void sg_cli_capture(char *buf, size_t len);
/* The entries of a directory walks look at, sorted by name: without ".", "..", __pycache__ and
 * node_modules. 0; -1 if it cannot be opened (errno says why); -2 out of memory. Free the list
 * with sg_cli_free_names. */
int sg_cli_dir_names(const char *dir, char ***ret_names, size_t *ret_n);
void sg_cli_free_names(char **names, size_t n);
/* serve's request decoder, for its fuzz target: 0 a job was made, 1 a 400 (why filled), -1 out of
 * memory, 2 a job the worker could not use (a bug). */
int sg_cli_serve_decode(const char *body, size_t len, char *why, size_t whylen);
/* Parse a non-negative decimal integer option value; returns 0 on success, -1 on bad input. */
int sg_cli_parse_ulong(const char *s, unsigned long max, unsigned long *ret);
int sg_cli_parse_long(const char *s, long min, long max, long *ret);

/* Static-gate options shared by check, rules and eval (cli_check.c). `c` is the option code:
 * 'R' --rules, 'N' --no-default-rules, 'D' --disable, 'A' --allow-host. Returns 0 or an exit code. */
int sg_cli_rules_opt(int c, const char *arg, bool *no_default, char ***packs, size_t *npacks, char ***disables,
                     size_t *ndisables, char ***hosts, size_t *nhosts);
/* The rule set those options describe; prints an error and returns an exit code on failure. */
int sg_cli_build_rules(const char *verb, bool no_default, char **packs, size_t npacks, char **disables,
                       size_t ndisables, char **hosts, size_t nhosts, size_t max_bytes, sg_rules **ret);
/* A policy's rules.enable: every rule not listed is disabled (the built-in checks stay). Prints
 * an error (with `verb`) and returns an exit code on failure. */
int sg_cli_enable_only(const char *verb, sg_rules *rules, const sg_policy_info *pi);

/* ------------------------------------------------------------------------------------------ */
/* Stage 3 (golden tasks) options, shared by check and eval (cli_golden.c)                      */

enum {
    SG_OPT_TASK = 2000,
    SG_OPT_SUITE,
    SG_OPT_TESTS,
    SG_OPT_SEED,
    SG_OPT_BUDGET,
    SG_OPT_NO_PROPERTIES,
    SG_OPT_COMPLETION,
    SG_OPT_WHOLE_PROGRAM,
    SG_OPT_INTERPRETER,
    SG_OPT_FUZZ,
    SG_OPT_FUZZ_RUNS,
    SG_OPT_FUZZ_CORPUS,
};

/* The getopt_long entries of those options (check: all; eval: all but --task and --tests). */
#define SG_CLI_GOLDEN_LONGOPTS                                                                          \
    {"task", required_argument, NULL, SG_OPT_TASK}, {"suite", required_argument, NULL, SG_OPT_SUITE},    \
        {"tests", required_argument, NULL, SG_OPT_TESTS}, {"seed", required_argument, NULL, SG_OPT_SEED}, \
        {"property-budget", required_argument, NULL, SG_OPT_BUDGET},                                    \
        {"no-properties", no_argument, NULL, SG_OPT_NO_PROPERTIES},                                     \
        {"completion", no_argument, NULL, SG_OPT_COMPLETION},                                           \
        {"whole-program", no_argument, NULL, SG_OPT_WHOLE_PROGRAM},                                     \
        {"interpreter", required_argument, NULL, SG_OPT_INTERPRETER}

/* The default property budget of the CLI: generated inputs per run (the task's own
 * `fuzz.max_inputs` when it is smaller). The time cap stays the task's `fuzz.max_seconds`. */
#define SG_CLI_BUDGET_INPUTS 200u

typedef struct sg_cli_golden {
    const char *suite_path;  /* --suite */
    const char *task_id;     /* --task */
    const char *tests_path;  /* --tests */
    const char *interpreter; /* --interpreter */
    bool completion;         /* --completion */
    bool whole_program;      /* --whole-program */
    bool tuned;              /* --seed, --property-budget or --no-properties given */
    bool budget_given;
    sg_golden_opts opts;
} sg_cli_golden;

void sg_cli_golden_init(sg_cli_golden *g);
/* Handle one stage-3 option (code `c`, value `arg`). Returns 0, or an exit code after printing
 * the error. */
int sg_cli_golden_opt(const char *verb, sg_cli_golden *g, int c, const char *arg);
/* Parse a --property-budget value: "N" generated inputs, "Ts" or "Tms" the time cap of the
 * search, or both ("200,10s"). Returns 0 or -1. */
int sg_cli_parse_budget(const char *s, unsigned *ret_inputs, double *ret_seconds);
/* Load a suite file; prints the loader's message (FILE:LINE: FIELD: reason) and returns an exit
 * code (2 for a bad or unreadable file, 3 out of memory) on failure. */
int sg_cli_load_suite(const char *verb, const char *path, sg_golden_suite **ret);
/* The options the engine gets for one task: the CLI's default number of inputs (never more
 * than the task's own) unless --property-budget was given. */
void sg_cli_golden_task_opts(const sg_cli_golden *g, const sg_golden_task *task, sg_golden_opts *ret);

/* SIGTERM, SIGINT, SIGHUP stop every sandbox (sg_sandbox_interrupt) and are remembered;
 * SIGPIPE is ignored. sg_cli_signal() is the signal received, 0 if none. */
/* The fuzz stage (cli_fuzz.c, docs/fuzz.md): --fuzz DURATION, --fuzz-runs N, --fuzz-corpus DIR. */
#define SG_CLI_FUZZ_LONGOPTS                                                                            \
    {"fuzz", required_argument, NULL, SG_OPT_FUZZ}, {"fuzz-runs", required_argument, NULL, SG_OPT_FUZZ_RUNS}, \
        {"fuzz-corpus", required_argument, NULL, SG_OPT_FUZZ_CORPUS}

typedef struct sg_cli_fuzz {
    bool given;            /* --fuzz or --fuzz-runs */
    double seconds;        /* --fuzz, 0 if not given */
    long long runs;        /* --fuzz-runs, -1 if not given */
    const char *corpus;    /* --fuzz-corpus */
    bool policy_given;     /* the policy's budgets.fuzz_seconds or budgets.fuzz_runs */
    double policy_seconds; /* budgets.fuzz_seconds, 0 if not set */
    long long policy_runs; /* budgets.fuzz_runs, -1 if not set */
} sg_cli_fuzz;

void sg_cli_fuzz_init(sg_cli_fuzz *f);
int sg_cli_fuzz_opt(const char *verb, sg_cli_fuzz *f, int c, const char *arg);
/* Run the fuzz stage on one checked document and attach its outcome (skipped when the report
 * blocks already). Its budget is the command line's (--fuzz, --fuzz-runs), else the policy's
 * (budgets.fuzz_seconds, fuzz_runs), else the task's (fuzz.stage_seconds, stage_runs): the first
 * source that sets either bound sets both. SG_OK, or SG_ERR_NOMEM (fatal). */
sg_status sg_cli_fuzz_report(const sg_cli_fuzz *f, const sg_cli_golden *g, const sg_golden_opts *gopts,
                             const sg_golden_task *task, const char *task_label, sg_report *rep, const char *buf,
                             size_t len);

void sg_cli_trap_signals(void);
int sg_cli_signal(void);

#endif
