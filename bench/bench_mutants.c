/*
 * Runner of the MBPP+ mutant benchmark (issue 8; driven by bench/mbpp_mutants.py, which
 * generates the mutants and summarises). Every mutant is untrusted code: it runs only through
 * sg_golden_run, i.e. inside the sandbox's workers; nothing here executes it otherwise.
 *
 * For each task, three configurations, made as shallow copies of the loaded task:
 *   base   cases = base_input only (plus_input removed), opts.no_properties
 *   props  cases = base_input only (plus_input removed), the property stage on (differential
 *          against the reference on generated inputs, inferred types, default budget)
 *   plus   cases = plus_input only, opts.no_properties (the reference point)
 * The canonical solution of each task, in file order, runs `base` first; tasks are taken until
 * --tasks of them pass it (0: all). Every mutant of those tasks runs `base`; one that passes
 * "survives the base tests". The tasks with a survivor then check their canonical solution under
 * `props` and `plus` too: a task whose reference fails its own property stage (nondeterministic
 * across two interpreters, over the time cap) would "catch" every mutant, so it is excluded with
 * all its mutants (listed; "late"). Tasks without survivors need not pay for that check: the
 * property stage of a slow reference is the costliest step of this benchmark. Finally the
 * survivors of the remaining tasks run `props` and `plus`.
 *
 * Usage: bench_mutants --suite MBPPPLUS.jsonl --mutants MUTANTS.jsonl --out RESULTS.jsonl
 *                      [-j N] [--tasks N] [--max-inputs N] [--shrink-calls N] [--timeout S]
 * MUTANTS.jsonl lines: {"task_id", "mutant_id", "op", "what", "completion"} (a whole program).
 * RESULTS.jsonl lines: {"kind": "canonical", "task_id", "usable", "late", "survivors", "why",
 * "flaky", "seconds"} and
 * {"kind": "mutant", "task_id", "mutant_id", "op", "what", "base", "props", "plus",
 *  "props_reason", "plus_reason", "inputs_checked", "seconds"}; verdicts "pass"/"fail"/"error",
 * "-" when not run. Exit 0, 2 bad usage, 3 unusable sandbox or inputs.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "golden_tasks/golden.h"

static double mut__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct mut__pool {
    atomic_size_t next;
    size_t n;
    void (*fn)(void *ctx, size_t item);
    void *ctx;
} mut__pool;

static void *mut__pool_main(void *arg)
{
    mut__pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            return NULL;
        p->fn(p->ctx, i);
    }
}

static void mut__parallel(int threads, size_t n, void (*fn)(void *, size_t), void *ctx)
{
    mut__pool p = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    pthread_t tid[64];
    int started = 0;
    for (int k = 0; k < threads; k++)
        if (pthread_create(&tid[started], NULL, mut__pool_main, &p) == 0)
            started++;
    if (!started)
        mut__pool_main(&p);
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
}

/* Replace every byte that is not part of a well-formed UTF-8 sequence by '?' (texts here are cut
 * at byte counts, possibly inside a character, and JSON needs valid UTF-8). */
static void mut__utf8_fix(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
        size_t k = 1;
        while (n && k < n && (p[k] & 0xC0) == 0x80)
            k++;
        if (!n || k < n) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}

typedef enum { MUT_BASE, MUT_PROPS, MUT_PLUS } mut__config;

/* The task as configuration `c` sees it (a shallow copy: the pointers stay the suite's). */
static sg_golden_task mut__config_task(const sg_golden_task *t, mut__config c)
{
    sg_golden_task v = *t;
    size_t first_plus = t->ncases - t->nplus_inputs;
    if (c == MUT_PLUS) {
        v.cases = t->cases + first_plus;
        v.ncases = t->nplus_inputs;
        v.nbase_inputs = 0;
    } else {
        v.ncases = first_plus;
        v.nplus_inputs = 0;
    }
    return v;
}

typedef struct mut__verdict {
    char v[8];        /* "pass", "fail", "error", "-" */
    char reason[240];
    size_t inputs;    /* generated inputs checked */
    double seconds;
    unsigned reruns;  /* suspect verdicts are run again once (mut__suspect) */
    bool flaky;       /* the rerun decided differently; `first` is what the first run said */
    char first[220];
} mut__verdict;

typedef struct mut__ctx {
    const sg_sandbox *sb;
    unsigned max_inputs, shrink_calls;
    double timeout_s; /* > 0: every task's per-case timeout (canonical and mutants alike) */
} mut__ctx;

static void mut__run_once(const mut__ctx *m, const sg_golden_task *t, mut__config c, const char *src,
                          mut__verdict *out)
{
    sg_golden_task v = mut__config_task(t, c);
    if (m->timeout_s > 0)
        v.timeout_s = m->timeout_s;
    sg_golden_opts o;
    sg_golden_opts_init(&o);
    o.no_properties = c != MUT_PROPS;
    o.max_inputs = m->max_inputs;
    o.max_shrink_calls = m->shrink_calls;
    sg_golden_result *r = NULL;
    sg_diag d;
    sg_diag_init(&d);
    double t0 = mut__now();
    sg_status st = sg_golden_run(m->sb, &v, src, strlen(src), &o, &r, &d);
    out->seconds = mut__now() - t0;
    if (st != SG_OK) {
        snprintf(out->v, sizeof out->v, "error");
        snprintf(out->reason, sizeof out->reason, "%.60s: %.170s", sg_strerror(st), d.message);
        mut__utf8_fix(out->reason);
        return;
    }
    sg_golden_verdict gv = sg_golden_result_verdict(r);
    snprintf(out->v, sizeof out->v, "%s", sg_golden_verdict_name(gv));
    out->inputs = sg_golden_result_inputs_checked(r);
    if (gv == SG_GOLDEN_ERROR) {
        snprintf(out->reason, sizeof out->reason, "%.230s", sg_golden_result_error(r));
    } else if (gv == SG_GOLDEN_FAIL) {
        const sg_golden_case_result *c0 = sg_golden_result_counterexample(r);
        if (!c0)
            c0 = sg_golden_result_count(r) ? sg_golden_result_case(r, 0) : NULL;
        snprintf(out->reason, sizeof out->reason, "%.110s: %.110s", c0 && c0->input ? c0->input : "?",
                 c0 && c0->reason ? c0->reason : "?");
    }
    mut__utf8_fix(out->reason);
    sg_golden_result_free(r);
}

/* A verdict that may come from the machine rather than the code: an error verdict, or a failure
 * by a timeout, a sandbox protocol error, a signal, no result, or a failure that did not replay.
 * Seen with two threads: a trivial call failing once as "timeout (cpu)" with an absurd CPU figure
 * or as "snipgate.ProtocolError" (sandbox/worker.c parses /proc/PID/stat with strtok, whose state
 * is shared by all threads; the final report has the numbers). Such a run is repeated once and
 * the rerun decides; a real hang or crash repeats. */
static bool mut__suspect(const mut__verdict *v)
{
    /* Not rerun: a wall-clock timeout (a hang repeats, and each costs a whole timeout per input)
     * and the property search's time cap (it repeats on a slow reference, 30 s and more each). */
    static const char *const marks[] = {"timeout (cpu)", "ProtocolError", "signal", "no result", "memory_limit",
                                        "nondeterministic"};
    if (!strcmp(v->v, "error"))
        return strstr(v->reason, "time cap") == NULL;
    for (size_t k = 0; !strcmp(v->v, "fail") && k < sizeof marks / sizeof marks[0]; k++)
        if (strstr(v->reason, marks[k]))
            return true;
    return false;
}

static atomic_size_t mut__flaky;

static void mut__run(const mut__ctx *m, const sg_golden_task *t, mut__config c, const char *src, mut__verdict *out)
{
    mut__run_once(m, t, c, src, out);
    if (!mut__suspect(out))
        return;
    mut__verdict again;
    memset(&again, 0, sizeof again);
    mut__run_once(m, t, c, src, &again);
    again.seconds += out->seconds;
    again.reruns = out->reruns + 1;
    if (strcmp(again.v, out->v) != 0) {
        atomic_fetch_add(&mut__flaky, 1);
        again.flaky = true;
        snprintf(again.first, sizeof again.first, "%s: %.200s", out->v, out->reason);
        mut__utf8_fix(again.first);
    }
    *out = again;
}

/* ---- canonical check -------------------------------------------------------------------------- */

typedef struct mut__task {
    const sg_golden_task *t;
    char *ref_src;
    bool checked, usable;
    char why[300];
    char flaky[300]; /* "config: first verdict" of a run its rerun overturned, or "" */
    size_t survivors; /* its mutants that passed the base tests */
    bool late;        /* excluded by stage 1: its mutants are not counted */
    double seconds;
} mut__task;

typedef struct mut__canon {
    const mut__ctx *m;
    mut__task *tasks; /* a window of the task list */
    int stage;
} mut__canon;

/* Stage 0: the canonical solution's base run (every task taken). Stage 1: its props and plus
 * runs, only for tasks with a mutant that survived the base tests (the rest need them not). */
static void mut__canon_one(void *ctx, size_t i)
{
    mut__canon *c = ctx;
    mut__task *mt = &c->tasks[i];
    const sg_golden_task *t = mt->t;
    double t0 = mut__now();
    if (c->stage == 0) {
        mt->checked = true;
        if (!t->nplus_inputs || t->ncases == t->nplus_inputs) {
            snprintf(mt->why, sizeof mt->why, "no plus_input or no base_input");
            return;
        }
        mt->ref_src = sg_golden_task_reference_source(t);
        if (!mt->ref_src) {
            snprintf(mt->why, sizeof mt->why, "no reference solution");
            return;
        }
    } else if (!mt->usable || !mt->survivors) {
        return;
    }
    static const char *const names[] = {"base", "props", "plus"};
    mt->usable = true;
    for (int k = c->stage ? 1 : 0; k < (c->stage ? 3 : 1) && mt->usable; k++) {
        mut__verdict v = {0};
        mut__run(c->m, t, (mut__config)k, mt->ref_src, &v);
        if (v.flaky) {
            snprintf(mt->flaky, sizeof mt->flaky, "%s: %.280s", names[k], v.first);
            mut__utf8_fix(mt->flaky);
        }
        if (strcmp(v.v, "pass") != 0) {
            mt->usable = false;
            mt->late = c->stage == 1;
            snprintf(mt->why, sizeof mt->why, "canonical: %s %s: %.240s", names[k], v.v, v.reason);
            mut__utf8_fix(mt->why);
        }
    }
    mt->seconds += mut__now() - t0;
}

/* ---- mutants ---------------------------------------------------------------------------------- */

typedef struct mut__mutant {
    json_t *row;       /* the input line */
    const sg_golden_task *t;
    mut__task *task;
    mut__verdict base, props, plus;
    double seconds;
} mut__mutant;

typedef struct mut__run_ctx {
    const mut__ctx *m;
    mut__mutant *muts;
    atomic_size_t done;
    int phase;
} mut__run_ctx;

/* Phase 0: the base run of every mutant. Phase 1: props and plus of the survivors of tasks
 * still usable. */
static void mut__mutant_one(void *ctx, size_t i)
{
    mut__run_ctx *rc = ctx;
    mut__mutant *mu = &rc->muts[i];
    const char *src = json_string_value(json_object_get(mu->row, "completion"));
    double t0 = mut__now();
    if (rc->phase == 0) {
        snprintf(mu->props.v, sizeof mu->props.v, "-");
        snprintf(mu->plus.v, sizeof mu->plus.v, "-");
        mut__run(rc->m, mu->t, MUT_BASE, src ? src : "", &mu->base);
    } else if (!strcmp(mu->base.v, "pass") && mu->task->usable) {
        mut__run(rc->m, mu->t, MUT_PROPS, src, &mu->props);
        mut__run(rc->m, mu->t, MUT_PLUS, src, &mu->plus);
    } else {
        return;
    }
    mu->seconds += mut__now() - t0;
    size_t d = atomic_fetch_add(&rc->done, 1) + 1;
    if (d % 50 == 0) {
        fprintf(stderr, "  %zu runs\n", d);
        fflush(stderr);
    }
}

static void mut__usage(void)
{
    fprintf(stderr, "usage: bench_mutants --suite FILE --mutants FILE --out FILE [-j N] [--tasks N] "
                    "[--max-inputs N] [--shrink-calls N] [--timeout S]\n");
}

int main(int argc, char **argv)
{
    const char *suite_path = NULL, *mut_path = NULL, *out_path = NULL;
    int threads = 2;
    size_t want_tasks = 0;
    /* shrinking does not change whether a mutant is caught, and a hanging mutant costs a timeout
     * per shrink step: 1 by default */
    mut__ctx m = {.max_inputs = 0, .shrink_calls = 1};
    for (int k = 1; k < argc; k += 2) { /* every option takes a value */
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!v) {
            mut__usage();
            return 2;
        }
        if (!strcmp(a, "--suite"))
            suite_path = v;
        else if (!strcmp(a, "--mutants"))
            mut_path = v;
        else if (!strcmp(a, "--out"))
            out_path = v;
        else if (!strcmp(a, "-j"))
            threads = atoi(v);
        else if (!strcmp(a, "--tasks"))
            want_tasks = (size_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--max-inputs"))
            m.max_inputs = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--timeout"))
            m.timeout_s = strtod(v, NULL);
        else if (!strcmp(a, "--shrink-calls"))
            m.shrink_calls = (unsigned)strtoul(v, NULL, 10);
        else {
            mut__usage();
            return 2;
        }
    }
    if (!suite_path || !mut_path || !out_path || threads < 1 || threads > 64) {
        mut__usage();
        return 2;
    }
    sg_diag d;
    sg_diag_init(&d);
    sg_golden_suite *suite = NULL;
    if (sg_golden_suite_load_file(suite_path, &suite, &d) != SG_OK) {
        fprintf(stderr, "bench_mutants: %s\n", d.message);
        return 3;
    }
    sg_sandbox *sb = NULL;
    if (sg_sandbox_new(NULL, &sb, &d) != SG_OK) {
        fprintf(stderr, "bench_mutants: SKIP: the sandbox is unavailable: %s\n", d.message);
        return 3;
    }
    m.sb = sb;
    /* the mutants, grouped by task in file order */
    FILE *f = fopen(mut_path, "r");
    if (!f) {
        perror(mut_path);
        return 3;
    }
    json_t *rows = json_array();
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t je;
        json_t *row = json_loads(line, 0, &je);
        if (!row || !json_is_string(json_object_get(row, "task_id")) ||
            !json_is_string(json_object_get(row, "completion"))) {
            fprintf(stderr, "bench_mutants: %s: bad line: %s\n", mut_path, je.text);
            return 3;
        }
        json_array_append_new(rows, row);
    }
    free(line);
    fclose(f);
    size_t nsuite = sg_golden_suite_count(suite);
    mut__task *tasks = calloc(nsuite + 1, sizeof *tasks);
    if (!tasks)
        return 3;
    size_t ntasks = 0;
    for (size_t k = 0; k < nsuite; k++) {
        const sg_golden_task *t = sg_golden_suite_task(suite, k);
        if (t->format == SG_TASK_EVALPLUS)
            tasks[ntasks++].t = t;
    }
    /* canonical base check, in windows, until enough tasks are usable */
    mut__canon cc = {.m = &m, .tasks = tasks, .stage = 0};
    size_t next = 0, usable = 0;
    double t0 = mut__now();
    while (next < ntasks && (!want_tasks || usable < want_tasks)) {
        size_t win = want_tasks ? want_tasks - usable + 1 : ntasks;
        if (win > ntasks - next)
            win = ntasks - next;
        cc.tasks = tasks + next;
        mut__parallel(threads, win, mut__canon_one, &cc);
        for (size_t k = next; k < next + win; k++)
            if (tasks[k].usable && (!want_tasks || usable < want_tasks))
                usable++;
            else if (tasks[k].usable)
                tasks[k].usable = false, tasks[k].checked = false; /* beyond the count: not used */
        next += win;
    }
    fprintf(stderr, "canonical base check: %zu usable of %zu checked, %.0f s\n", usable, next, mut__now() - t0);
    /* the mutants of usable tasks: base runs */
    size_t nrows = json_array_size(rows), nm = 0;
    mut__mutant *muts = calloc(nrows + 1, sizeof *muts);
    if (!muts)
        return 3;
    for (size_t k = 0; k < nrows; k++) {
        json_t *row = json_array_get(rows, k);
        const char *id = json_string_value(json_object_get(row, "task_id"));
        for (size_t j = 0; j < next; j++)
            if (tasks[j].usable && !strcmp(tasks[j].t->task_id, id)) {
                muts[nm].row = row;
                muts[nm].task = &tasks[j];
                muts[nm++].t = tasks[j].t;
                break;
            }
    }
    mut__run_ctx rc = {.m = &m, .muts = muts, .phase = 0};
    atomic_init(&rc.done, 0);
    t0 = mut__now();
    mut__parallel(threads, nm, mut__mutant_one, &rc);
    size_t nsurv = 0;
    for (size_t k = 0; k < nm; k++)
        if (!strcmp(muts[k].base.v, "pass")) {
            muts[k].task->survivors++;
            nsurv++;
        }
    fprintf(stderr, "mutants' base runs: %zu in %.0f s, %zu survive\n", nm, mut__now() - t0, nsurv);
    /* canonical props + plus check of the tasks with survivors */
    t0 = mut__now();
    cc.tasks = tasks;
    cc.stage = 1;
    mut__parallel(threads, next, mut__canon_one, &cc);
    size_t late = 0;
    for (size_t k = 0; k < next; k++)
        late += tasks[k].late;
    fprintf(stderr, "canonical props/plus check of the tasks with survivors: %zu excluded, %.0f s\n", late,
            mut__now() - t0);
    /* the survivors: props and plus */
    rc.phase = 1;
    atomic_init(&rc.done, 0);
    t0 = mut__now();
    mut__parallel(threads, nm, mut__mutant_one, &rc);
    fprintf(stderr, "survivors' props and plus runs: %.0f s; %zu suspect runs overturned by their rerun\n",
            mut__now() - t0, atomic_load(&mut__flaky));
    FILE *out = fopen(out_path, "w");
    if (!out) {
        perror(out_path);
        return 3;
    }
    for (size_t k = 0; k < next; k++) {
        if (!tasks[k].checked)
            continue;
        json_t *o = json_pack("{s:s, s:s, s:b, s:b, s:i, s:s, s:s, s:f}", "kind", "canonical", "task_id",
                              tasks[k].t->task_id, "usable", tasks[k].usable, "late", tasks[k].late, "survivors",
                              (json_int_t)tasks[k].survivors, "why", tasks[k].why, "flaky", tasks[k].flaky,
                              "seconds", tasks[k].seconds);
        char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (s)
            fprintf(out, "%s\n", s);
        free(s);
        json_decref(o);
    }
    for (size_t k = 0; k < nm; k++) {
        mut__mutant *mu = &muts[k];
        if (!mu->task->usable)
            continue; /* its task was excluded after the base runs */
        json_t *o = json_pack("{s:s, s:O, s:O, s:O, s:O, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:f}", "kind", "mutant",
                              "task_id", json_object_get(mu->row, "task_id"), "mutant_id",
                              json_object_get(mu->row, "mutant_id"), "op", json_object_get(mu->row, "op"), "what",
                              json_object_get(mu->row, "what"), "base", mu->base.v, "props", mu->props.v, "plus",
                              mu->plus.v, "base_reason", mu->base.reason, "props_reason", mu->props.reason,
                              "plus_reason", mu->plus.reason, "inputs_checked", (json_int_t)mu->props.inputs,
                              "seconds", mu->seconds);
        json_t *fl = json_array();
        static const char *const names[] = {"base", "props", "plus"};
        const mut__verdict *vs[] = {&mu->base, &mu->props, &mu->plus};
        for (int c = 0; c < 3; c++)
            if (vs[c]->flaky) {
                char buf[260];
                snprintf(buf, sizeof buf, "%s: %.240s", names[c], vs[c]->first);
                mut__utf8_fix(buf);
                json_array_append_new(fl, json_string(buf));
            }
        if (o)
            json_object_set_new(o, "flaky", fl);
        else
            json_decref(fl);
        char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (s)
            fprintf(out, "%s\n", s);
        else
            fprintf(stderr, "bench_mutants: cannot encode the result of mutant %zu\n", k);
        free(s);
        json_decref(o);
    }
    fclose(out);
    for (size_t k = 0; k < ntasks; k++)
        free(tasks[k].ref_src);
    free(tasks);
    free(muts);
    json_decref(rows);
    sg_sandbox_free(sb);
    sg_golden_suite_free(suite);
    return 0;
}
