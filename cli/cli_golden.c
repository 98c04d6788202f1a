/* Stage-3 (golden task) options shared by `check` and `eval`, and the signal handling of the
 * verbs that run sandboxes. Public API only. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void sg_cli_golden_init(sg_cli_golden *g)
{
    memset(g, 0, sizeof *g);
    sg_golden_opts_init(&g->opts);
}

int sg_cli_parse_budget(const char *s, unsigned *ret_inputs, double *ret_seconds)
{
    unsigned inputs = 0;
    double seconds = 0;
    bool have_inputs = false, have_seconds = false;
    const char *p = s;
    if (!s || !*s)
        return -1;
    for (;;) {
        size_t n = strcspn(p, ",");
        char part[64];
        if (n == 0 || n >= sizeof part)
            return -1;
        memcpy(part, p, n);
        part[n] = 0;
        char *end = NULL;
        errno = 0;
        if (strspn(part, "0123456789") == n) {
            unsigned long v = strtoul(part, &end, 10);
            if (have_inputs || errno || v < 1 || v > 100000)
                return -1;
            inputs = (unsigned)v;
            have_inputs = true;
        } else {
            double v = strtod(part, &end);
            if (have_seconds || errno || end == part || !isfinite(v))
                return -1;
            if (!strcmp(end, "ms"))
                v /= 1000;
            else if (strcmp(end, "s"))
                return -1;
            if (!(v > 0) || v > 600)
                return -1;
            seconds = v;
            have_seconds = true;
        }
        p += n;
        if (!*p)
            break;
        p++;
    }
    *ret_inputs = inputs;
    *ret_seconds = seconds;
    return 0;
}

int sg_cli_golden_opt(const char *verb, sg_cli_golden *g, int c, const char *arg)
{
    switch (c) {
    case SG_OPT_TASK: g->task_id = arg; return 0;
    case SG_OPT_SUITE: g->suite_path = arg; return 0;
    case SG_OPT_TESTS: g->tests_path = arg; return 0;
    case SG_OPT_INTERPRETER:
        if (arg[0] != '/') {
            sg_cli_error(verb, "--interpreter needs an absolute path (got '%s')", arg);
            return SG_EXIT_USAGE;
        }
        g->interpreter = arg;
        return 0;
    case SG_OPT_COMPLETION: g->completion = true; return 0;
    case SG_OPT_WHOLE_PROGRAM: g->whole_program = true; return 0;
    case SG_OPT_NO_PROPERTIES:
        g->opts.no_properties = true;
        g->tuned = true;
        return 0;
    case SG_OPT_SEED: {
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(arg, &end, 10);
        if (!*arg || *arg == '-' || *end || errno || v > 0x7fffffffffffffffULL) {
            sg_cli_error(verb, "--seed must be an integer from 0 to 2^63-1 (got '%s')", arg);
            return SG_EXIT_USAGE;
        }
        g->opts.has_seed = true;
        g->opts.seed = v;
        g->tuned = true;
        return 0;
    }
    case SG_OPT_BUDGET:
        if (sg_cli_parse_budget(arg, &g->opts.max_inputs, &g->opts.max_seconds)) {
            sg_cli_error(verb,
                         "--property-budget must be N (generated inputs, 1..100000), T (a time cap with its unit: "
                         "20s, 500ms; at most 600s) or both, N,T (got '%s')",
                         arg);
            return SG_EXIT_USAGE;
        }
        g->budget_given = true;
        g->tuned = true;
        return 0;
    }
    return SG_EXIT_USAGE;
}

void sg_cli_golden_task_opts(const sg_cli_golden *g, const sg_golden_task *task, sg_golden_opts *ret)
{
    *ret = g->opts;
    if (!g->budget_given) {
        /* the CLI's default number of inputs, or the task's own when it is smaller; the time cap
         * stays the task's (hitting it is an error verdict, so it is no budget to lower) */
        unsigned task_inputs = 0;
        sg_golden_task_fuzz_budget(task, &task_inputs, NULL);
        ret->max_inputs = task_inputs && task_inputs < SG_CLI_BUDGET_INPUTS ? task_inputs : SG_CLI_BUDGET_INPUTS;
        ret->max_seconds = 0;
    }
    /* a budget given in one unit only leaves the other to the task (0: the engine asks it) */
}

int sg_cli_load_suite(const char *verb, const char *path, sg_golden_suite **ret)
{
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_golden_suite_load_file(path, ret, &d);
    if (st == SG_OK)
        return 0;
    if (st == SG_ERR_NOMEM) {
        sg_cli_error(verb, "out of memory loading %s", path);
        return SG_EXIT_INTERNAL;
    }
    if (d.message[0] && d.line)
        sg_cli_error(verb, "bad suite: %s", d.message); /* "FILE:LINE: FIELD: reason" */
    else
        sg_cli_error(verb, "cannot load the suite %s: %s", path, d.message[0] ? d.message : sg_strerror(st));
    return SG_EXIT_USAGE;
}

static volatile sig_atomic_t cli__signal;

static void cli__on_signal(int sig)
{
    cli__signal = sig;
    sg_sandbox_interrupt();
}

void sg_cli_trap_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cli__on_signal; /* no SA_RESTART: the supervisor's poll wakes up */
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int sg_cli_signal(void)
{
    return cli__signal;
}
