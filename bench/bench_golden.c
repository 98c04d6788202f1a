/*
 * Stage 3 throughput (issue 8): the built-in suite against its canonical solutions, cases per
 * second through the persistent workers (sg_golden_run; each thread with its own warm sandboxes,
 * an sg_golden_pool, as serve, eval and audit run it; also without a pool), and the same cases
 * run the naive way,
 * one /usr/bin/python3 process per case like the human-eval harness, in the same run with the
 * same number of threads. Prints both rates, their ratio, whether the targets are met, and a
 * breakdown of where the worker path spends its time.
 *
 *   (a) structured cases only (opts.no_properties): a case is one element of a task's `tests`,
 *       judged pass/fail. The naive way runs exactly these cases.
 *   (b) the full stage (structured cases, then property checks on generated inputs, with each
 *       task's own budget): here a "case" is a structured case OR a generated input that was
 *       checked (discarded inputs, which the reference or the contract rejected, do not count).
 *       The naive rate it is compared with is (a)'s: one process per case. A naive differential
 *       check would need the reference's answer too, so that ratio flatters the naive way.
 *
 * The naive way, per case: write a program (the canonical solution, a small tagged-JSON encoder,
 * the call with its arguments as literals, and a print of the result or of the exception's
 * class chain) to a file, run `python3 -I -S FILE` (isolated mode, no site: the fastest honest
 * start; `import json` alone costs a python start ~12 ms here, so the encoder is written out
 * instead), read stdout, decode and compare in this process exactly as stage 3 compares (strict
 * equality, tolerances, exception class names). Timeout: the task's. It runs the trusted built-in
 * canonical solutions only, unsandboxed, as such harnesses do.
 *
 * Breakdown (the path without a pool): the suite again, outside sg_golden_run, with the same
 * threads: per task, start and import the two workers such a run starts (reference and
 * candidate: the canonical solution
 * both times), run the task's call texts in the candidate's worker in batches of 64 as stage 3
 * does, and tear both down. What sg_golden_run spends beyond that is its own work (program text,
 * value decoding and comparison, one forked call per exception check, ...).
 *
 * Usage: bench_golden [-j N] [--tasks N] [--repeat R] [--max-inputs N] [--no-naive] [--no-full]
 *                     [--python PATH] [--json FILE]
 *   -j N          threads (default 2); each runs whole tasks (sg_golden_run) or naive cases
 *   --tasks N     the first N built-in tasks (default all)
 *   --repeat R    (a) alternates worker and naive runs R times (<= 15); medians are reported
 *   --max-inputs  (b)'s generated-input budget per task (default: each task's own, 300)
 * Exit: 0 ran (targets missed included), 1 a canonical solution did not pass (a false block or an
 * error verdict) or the naive way disagreed, 2 bad usage, 3 the sandbox or the suite is unusable.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "golden_tasks/golden.h"

#define BENCH_TARGET_RATIO 20.0
#define BENCH_TARGET_RATE 1000.0
#define BENCH_BATCH 64u
#define BENCH_OUT_CAP (1u << 20)

extern char **environ;

static double bench__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench__cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double bench__median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, bench__cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- a tiny thread pool: items 0..n-1 shared by `threads` threads ----------------------------- */

/* Persistent threads (thread k keeps slot k, so its warm sandboxes stay with it: a sandbox's
 * pid 1 dies with the thread that started it). Each parallel run hands them items 0..n-1. */
typedef struct bench__pool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    unsigned gen;    /* a new run was posted */
    int active;      /* threads still in the current run */
    int nthreads;
    atomic_size_t next;
    size_t n;
    void (*fn)(void *ctx, size_t item);
    void *ctx;
} bench__pool;

static bench__pool bench__tp = {.lock = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER,
                                .done = PTHREAD_COND_INITIALIZER};

/* Warm sandboxes (sg_golden_pool) for the runs that use one: one per thread slot, kept from one
 * parallel run to the next, freed at the end (or by bench__pools_free, so that the next run
 * starts them again: "cold"). */
static sg_golden_pool *bench__pools[64];
static _Thread_local int bench__slot;

static unsigned bench__pool_starts(void)
{
    unsigned n = 0;
    for (int k = 0; k < 64; k++)
        n += sg_golden_pool_starts(bench__pools[k]);
    return n;
}

static void bench__pools_free(void)
{
    for (int k = 0; k < 64; k++) {
        sg_golden_pool_free(bench__pools[k]);
        bench__pools[k] = NULL;
    }
}

static void bench__pool_items(bench__pool *p)
{
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        p->fn(p->ctx, i);
    }
}

static void *bench__pool_main(void *arg)
{
    bench__slot = (int)(intptr_t)arg;
    bench__pool *p = &bench__tp;
    unsigned seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->gen == seen)
            pthread_cond_wait(&p->go, &p->lock);
        seen = p->gen;
        pthread_mutex_unlock(&p->lock);
        bench__pool_items(p);
        pthread_mutex_lock(&p->lock);
        if (--p->active == 0)
            pthread_cond_signal(&p->done);
    }
    return NULL;
}

/* Run fn(ctx, i) for every i < n on `threads` threads (started on first use, then kept); returns
 * the wall seconds. */
static double bench__parallel(int threads, size_t n, void (*fn)(void *, size_t), void *ctx)
{
    bench__pool *p = &bench__tp;
    while (p->nthreads < threads && p->nthreads < 64) {
        pthread_t tid;
        if (pthread_create(&tid, NULL, bench__pool_main, (void *)(intptr_t)p->nthreads) != 0)
            break;
        pthread_detach(tid);
        p->nthreads++;
    }
    double t0 = bench__now();
    if (!p->nthreads) {
        bench__slot = 0;
        p->n = n, p->fn = fn, p->ctx = ctx;
        atomic_store(&p->next, 0);
        bench__pool_items(p);
        return bench__now() - t0;
    }
    pthread_mutex_lock(&p->lock);
    p->n = n, p->fn = fn, p->ctx = ctx;
    atomic_store(&p->next, 0);
    p->active = p->nthreads;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    while (p->active)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return bench__now() - t0;
}

/* ---- the worker way ------------------------------------------------------------------------- */

typedef struct bench__trun {
    double wall;
    size_t cases, inputs, discarded, calls;
    sg_golden_verdict verdict;
    char error[200];
} bench__trun;

typedef struct bench__golden {
    const sg_sandbox *sb;
    const sg_golden_task **tasks;
    sg_golden_opts opts;
    bool pooled; /* each thread's runs share its warm sandboxes (sg_golden_opts.pool) */
    bench__trun *runs;
} bench__golden;

static void bench__golden_one(void *ctx, size_t i)
{
    bench__golden *b = ctx;
    const sg_golden_task *t = b->tasks[i];
    bench__trun *r = &b->runs[i];
    sg_golden_result *res = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_golden_opts o = b->opts;
    sg_golden_pool **pool = &bench__pools[bench__slot];
    if (b->pooled && !*pool && sg_golden_pool_new(pool) != SG_OK) {
        r->verdict = SG_GOLDEN_ERROR;
        snprintf(r->error, sizeof r->error, "out of memory");
        return;
    }
    o.pool = b->pooled ? *pool : NULL;
    double t0 = bench__now();
    sg_status st = sg_golden_run(b->sb, t, t->canonical_solution, strlen(t->canonical_solution), &o, &res, &d);
    r->wall = bench__now() - t0;
    if (st != SG_OK) {
        r->verdict = SG_GOLDEN_ERROR;
        snprintf(r->error, sizeof r->error, "%.60s: %.130s", sg_strerror(st), d.message);
        return;
    }
    r->verdict = sg_golden_result_verdict(res);
    r->cases = sg_golden_result_cases_run(res);
    r->inputs = sg_golden_result_inputs_checked(res);
    r->discarded = sg_golden_result_inputs_discarded(res);
    r->calls = sg_golden_result_calls(res);
    if (r->verdict == SG_GOLDEN_ERROR)
        snprintf(r->error, sizeof r->error, "%s", sg_golden_result_error(res));
    else if (r->verdict == SG_GOLDEN_FAIL) {
        const sg_golden_case_result *c = sg_golden_result_count(res) ? sg_golden_result_case(res, 0) : NULL;
        snprintf(r->error, sizeof r->error, "fails %s: %s", c && c->input ? c->input : "?",
                 c && c->reason ? c->reason : "?");
    }
    sg_golden_result_free(res);
}

/* ---- call texts (as stage 3 writes them: fn(literal, ..., name=literal)) ----------------------- */

static char *bench__call_text(const char *fn, const sg_golden_case *cs)
{
    sg_buf b;
    sg_buf_init(&b, SG_WORKER_MAX_CALL_BYTES);
    sg_buf_puts(&b, fn);
    sg_buf_puts(&b, "(");
    for (size_t k = 0; k < cs->args->n; k++) {
        if (k)
            sg_buf_puts(&b, ", ");
        sg_value_literal(cs->args->items[k], &b);
    }
    for (size_t k = 0; cs->kwargs && k < cs->kwargs->n; k++) {
        if (k || cs->args->n)
            sg_buf_puts(&b, ", ");
        sg_buf_puts(&b, cs->kwargs->items[2 * k]->s);
        sg_buf_puts(&b, "=");
        sg_value_literal(cs->kwargs->items[2 * k + 1], &b);
    }
    sg_buf_puts(&b, ")");
    if (b.failed || b.truncated) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}

/* ---- breakdown: worker start/import, batched calls, teardown --------------------------------- */

typedef struct bench__phase {
    double start_ref, start_cand, first_call, calls, teardown; /* seconds */
    size_t items;
    bool failed;
} bench__phase;

typedef struct bench__split {
    const sg_sandbox *sb;
    const sg_golden_task **tasks;
    bench__phase *ph;
} bench__split;

static sg_worker *bench__start(const sg_sandbox *sb, const char *src, double *secs)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 20000; /* as golden.c starts its workers */
    lim.cpu_ms = 10000;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL;
    sg_diag d;
    sg_diag_init(&d);
    double t0 = bench__now();
    sg_status st = sg_worker_new(sb, src, strlen(src), &lim, NULL, &w, &imp, &d);
    *secs = bench__now() - t0;
    bool ok = st == SG_OK && sg_outcome_info_get(imp)->kind == SG_OUTCOME_OK;
    sg_outcome_free(imp);
    if (!ok) {
        sg_worker_free(w);
        return NULL;
    }
    return w;
}

static void bench__split_one(void *ctx, size_t i)
{
    bench__split *s = ctx;
    const sg_golden_task *t = s->tasks[i];
    bench__phase *p = &s->ph[i];
    const char *src = t->canonical_solution;
    sg_worker *ref = bench__start(s->sb, src, &p->start_ref);
    sg_worker *cand = bench__start(s->sb, src, &p->start_cand);
    if (!ref || !cand) {
        p->failed = true;
        sg_worker_free(ref);
        sg_worker_free(cand);
        return;
    }
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.cpu_ms = (uint64_t)(t->timeout_s * 1000 + 0.5);
    lim.wall_ms = lim.cpu_ms + 500;
    char **texts = calloc(t->ncases + 1, sizeof *texts);
    sg_outcome **outs = calloc(BENCH_BATCH, sizeof *outs);
    size_t n = 0;
    for (size_t k = 0; texts && k < t->ncases; k++)
        if ((texts[n] = bench__call_text(t->entry_point, &t->cases[k])))
            n++;
    /* the first call of a worker also runs the runner's deferred part in its zygote (the call
     * loop, gc.freeze): timed apart with a trivial call */
    double t0 = bench__now();
    sg_outcome *first = NULL;
    sg_diag fd;
    sg_diag_init(&fd);
    if (sg_worker_call(cand, "None", &lim, &first, &fd) != SG_OK)
        p->failed = true;
    sg_outcome_free(first);
    p->first_call = bench__now() - t0;
    t0 = bench__now();
    for (size_t at = 0; outs && at < n;) {
        size_t m = n - at < BENCH_BATCH ? n - at : BENCH_BATCH, done = 0;
        sg_diag d;
        sg_diag_init(&d);
        if (sg_worker_call_batch(cand, (const char *const *)texts + at, m, &lim, outs, &done, &d) != SG_OK ||
            done == 0) {
            p->failed = true;
            break;
        }
        for (size_t k = 0; k < done; k++)
            sg_outcome_free(outs[k]);
        at += done;
        p->items += done;
    }
    p->calls = bench__now() - t0;
    t0 = bench__now();
    sg_worker_free(cand);
    sg_worker_free(ref);
    p->teardown = bench__now() - t0;
    for (size_t k = 0; texts && k < n; k++)
        free(texts[k]);
    free(texts);
    free(outs);
}

/* ---- the naive way: one python3 process per case ---------------------------------------------- */

/* Appended to the canonical solution: a tagged-JSON encoder (docs/tasks.md, the runner's rules)
 * that imports nothing costly, then the call. Names start with __nb_ to stay out of the way. */
static const char bench__naive_tail[] =
    "\n\n"
    "__nb_esc = {i: '\\\\u%04x' % i for i in range(32)}\n"
    "__nb_esc[34] = '\\\\\"'\n"
    "__nb_esc[92] = '\\\\\\\\'\n"
    "def __nb_enc(v, d=0):\n"
    "    t = type(v)\n"
    "    if d > 32:\n"
    "        raise ValueError('nested more than 32 deep')\n"
    "    if v is None:\n"
    "        return 'null'\n"
    "    if t is bool:\n"
    "        return 'true' if v else 'false'\n"
    "    if t is int:\n"
    "        return str(v) if -9007199254740991 <= v <= 9007199254740991 else '{\"$int\": \"%d\"}' % v\n"
    "    if t is float:\n"
    "        if v != v:\n"
    "            return '{\"$float\": \"nan\"}'\n"
    "        if v in (1e999, -1e999) or (v == 0.0 and repr(v)[0] == '-'):\n"
    "            return '{\"$float\": \"%r\"}' % v\n"
    "        return repr(v)\n"
    "    if t is str:\n"
    "        return '\"' + v.translate(__nb_esc) + '\"'\n"
    "    if t is list:\n"
    "        return '[' + ', '.join([__nb_enc(x, d + 1) for x in v]) + ']'\n"
    "    if t is tuple:\n"
    "        return '{\"$tuple\": [' + ', '.join([__nb_enc(x, d + 1) for x in v]) + ']}'\n"
    "    if t is set or t is frozenset:\n"
    "        return '{\"$set\": [' + ', '.join(sorted([__nb_enc(x, d + 1) for x in v])) + ']}'\n"
    "    if t is bytes:\n"
    "        import binascii\n"
    "        return '{\"$bytes\": \"%s\"}' % binascii.b2a_base64(v, newline=False).decode('ascii')\n"
    "    if t is dict:\n"
    "        if all(type(k) is str for k in v) and not (len(v) == 1 and next(iter(v)).startswith('$')):\n"
    "            return '{' + ', '.join([__nb_enc(k) + ': ' + __nb_enc(x, d + 1) for k, x in v.items()]) + '}'\n"
    "        return '{\"$dict\": [' + ', '.join(['[' + __nb_enc(k, d + 1) + ', ' + __nb_enc(x, d + 1) + ']'\n"
    "                                          for k, x in v.items()]) + ']}'\n"
    "    raise TypeError('a value of type %s has no encoding' % t.__qualname__)\n"
    "import sys as __nb_sys\n"
    "try:\n"
    "    __nb_r = ";

static const char bench__naive_end[] =
    "\n"
    "except BaseException as __nb_e:\n"
    "    __nb_sys.stdout.write('E\\n' + ''.join(['%s\\t%s\\t%s\\n' % (c.__module__, c.__qualname__, c.__name__)\n"
    "                                           for c in type(__nb_e).__mro__]))\n"
    "else:\n"
    "    __nb_sys.stdout.write('V ' + __nb_enc(__nb_r) + '\\n')\n";

typedef struct bench__ncase {
    const sg_golden_task *t;
    size_t k;
    bool passed;
    double wall;
    char why[160];
} bench__ncase;

typedef struct bench__naive {
    const char *python;
    const char *dir;
    bench__ncase *cases;
} bench__naive;

/* Run `python -I -S file` with stdout captured into `out` (capped), at most `timeout_s`.
 * Returns 0 when it exited (status in *ret_status), 1 on timeout, -1 when it could not run. */
static int bench__spawn(const char *python, const char *file, double timeout_s, sg_buf *out, int *ret_status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)python, "-I", "-S", (char *)file, NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, python, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    double deadline = bench__now() + timeout_s;
    bool timed_out = false;
    char buf[8192];
    for (;;) {
        double left = deadline - bench__now();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        int pr = poll(&pf, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            timed_out = pr == 0;
            break;
        }
        ssize_t r = read(fds[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        sg_buf_append(out, buf, (size_t)r);
    }
    close(fds[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *ret_status = status;
    return timed_out ? 1 : 0;
}

/* Does the exception class chain printed by the naive program (lines "module\tqualname\tname")
 * match `name`, as stage 3 matches `raises` (docs/tasks.md)? */
static bool bench__naive_raises(const char *lines, const char *name)
{
    bool dotted = strchr(name, '.') != NULL;
    char line[600];
    for (const char *p = lines; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l < sizeof line) {
            memcpy(line, p, l);
            line[l] = 0;
            char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
            if (t1 && t2) {
                *t1 = *t2 = 0;
                if (!dotted && !strcmp(t2 + 1, name))
                    return true;
                char full[1210];
                snprintf(full, sizeof full, "%s.%s", line, t1 + 1);
                if (dotted && !strcmp(full, name))
                    return true;
            }
        }
        p += l + (e != NULL);
    }
    return false;
}

static void bench__naive_one(void *ctx, size_t i)
{
    bench__naive *nb = ctx;
    bench__ncase *nc = &nb->cases[i];
    const sg_golden_task *t = nc->t;
    const sg_golden_case *cs = &t->cases[nc->k];
    double t0 = bench__now();
    char path[600];
    snprintf(path, sizeof path, "%.500s/case%zu.py", nb->dir, i);
    sg_buf prog, out;
    sg_buf_init(&prog, 16u << 20);
    sg_buf_init(&out, BENCH_OUT_CAP);
    char *call = bench__call_text(t->entry_point, cs);
    sg_buf_puts(&prog, t->canonical_solution);
    sg_buf_puts(&prog, bench__naive_tail);
    sg_buf_puts(&prog, call ? call : "None");
    sg_buf_puts(&prog, bench__naive_end);
    free(call);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, prog.data, prog.len) != (ssize_t)prog.len) {
        snprintf(nc->why, sizeof nc->why, "cannot write %.140s", path);
        if (fd >= 0)
            close(fd);
        goto out;
    }
    close(fd);
    int status = 0;
    int rc = bench__spawn(nb->python, path, t->timeout_s, &out, &status);
    unlink(path);
    if (rc != 0) {
        snprintf(nc->why, sizeof nc->why, rc > 0 ? "timeout" : "cannot run python");
        goto out;
    }
    const char *o = out.data ? out.data : "";
    if (!strncmp(o, "V ", 2)) {
        const char *nl = strchr(o, '\n');
        size_t l = nl ? (size_t)(nl - o - 2) : strlen(o + 2);
        sg_value *got = NULL;
        if (sg_value_from_text(o + 2, l, "naive", &got, NULL) != SG_OK) {
            snprintf(nc->why, sizeof nc->why, "undecodable output: %.100s", o + 2);
        } else if (cs->raises) {
            snprintf(nc->why, sizeof nc->why, "returned instead of raising %.80s", cs->raises);
        } else {
            double atol = cs->has_atol ? cs->atol : t->atol, rtol = cs->has_rtol ? cs->rtol : 0;
            nc->passed = t->compare_python ? sg_value_python_equal(got, cs->expected, atol)
                                           : sg_value_strict_equal(got, cs->expected, atol, rtol);
            if (!nc->passed)
                snprintf(nc->why, sizeof nc->why, "wrong value: %.100s", o + 2);
        }
        sg_value_free(got);
    } else if (!strncmp(o, "E\n", 2)) {
        nc->passed = cs->raises && bench__naive_raises(o + 2, cs->raises);
        if (!nc->passed)
            snprintf(nc->why, sizeof nc->why, "raised %.100s", o + 2);
    } else {
        snprintf(nc->why, sizeof nc->why, "no result (wait status %d)", status);
    }
out:
    sg_buf_free(&prog);
    sg_buf_free(&out);
    nc->wall = bench__now() - t0;
}

/* Median wall time of a bare `python3 -I -S` start (the naive way's floor), in seconds. */
static double bench__bare_start(const char *python, const char *dir, int runs)
{
    char path[600];
    snprintf(path, sizeof path, "%.500s/pass.py", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs("pass\n", f);
    fclose(f);
    double *t = calloc((size_t)runs, sizeof *t);
    if (!t)
        return 0;
    for (int k = 0; k < runs; k++) {
        sg_buf out;
        sg_buf_init(&out, 1024);
        int status;
        double t0 = bench__now();
        bench__spawn(python, path, 10, &out, &status);
        t[k] = bench__now() - t0;
        sg_buf_free(&out);
    }
    double m = bench__median(t, (size_t)runs);
    free(t);
    unlink(path);
    return m;
}

/* ---- reporting -------------------------------------------------------------------------------- */

typedef struct bench__totals {
    double wall;
    size_t cases, inputs, discarded, calls, pass, fail, error;
} bench__totals;

static bench__totals bench__sum(const bench__trun *runs, size_t n, double wall)
{
    bench__totals s = {.wall = wall};
    for (size_t k = 0; k < n; k++) {
        s.cases += runs[k].cases;
        s.inputs += runs[k].inputs;
        s.discarded += runs[k].discarded;
        s.calls += runs[k].calls;
        s.pass += runs[k].verdict == SG_GOLDEN_PASS;
        s.fail += runs[k].verdict == SG_GOLDEN_FAIL;
        s.error += runs[k].verdict == SG_GOLDEN_ERROR;
    }
    return s;
}

static int bench__print_bad(const char *what, const sg_golden_task **tasks, const bench__trun *runs, size_t n)
{
    int bad = 0;
    for (size_t k = 0; k < n; k++)
        if (runs[k].verdict != SG_GOLDEN_PASS) {
            printf("  !! %s: canonical %s is %s: %.180s\n", what, tasks[k]->task_id,
                   sg_golden_verdict_name(runs[k].verdict), runs[k].error);
            bad++;
        }
    return bad;
}

static const char *bench__met(bool ok)
{
    return ok ? "met" : "MISSED";
}

typedef struct bench__slow {
    size_t index;
    double wall;
} bench__slow;

static int bench__cmp_slow(const void *a, const void *b)
{
    double x = ((const bench__slow *)a)->wall, y = ((const bench__slow *)b)->wall;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void bench__print_slowest(const sg_golden_task **tasks, const bench__trun *runs, size_t n, size_t top)
{
    bench__slow *s = calloc(n ? n : 1, sizeof *s);
    if (!s)
        return;
    for (size_t k = 0; k < n; k++)
        s[k] = (bench__slow){k, runs[k].wall};
    qsort(s, n, sizeof *s, bench__cmp_slow);
    for (size_t k = 0; k < n && k < top; k++) {
        const bench__trun *r = &runs[s[k].index];
        printf("    %-34s %7.0f ms  %4zu cases %5zu inputs %5zu discarded %6zu calls  %.2f ms/call\n",
               tasks[s[k].index]->task_id, r->wall * 1e3, r->cases, r->inputs, r->discarded, r->calls,
               r->calls ? r->wall * 1e3 / (double)r->calls : 0.0);
    }
    free(s);
}

static void bench__usage(void)
{
    fprintf(stderr, "usage: bench_golden [-j N] [--tasks N] [--repeat R] [--max-inputs N] [--no-naive] [--no-full]\n"
                    "                    [--python PATH] [--json FILE]\n");
}

int main(int argc, char **argv)
{
    int threads = 2, repeat = 1;
    size_t max_tasks = 0;
    unsigned max_inputs = 0;
    bool naive = true, full = true;
    const char *python = "/usr/bin/python3", *json_path = NULL;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(a, "-j") && v) {
            threads = atoi(v);
            k++;
        } else if (!strcmp(a, "--tasks") && v) {
            max_tasks = (size_t)strtoul(v, NULL, 10);
            k++;
        } else if (!strcmp(a, "--repeat") && v) {
            repeat = atoi(v);
            k++;
        } else if (!strcmp(a, "--max-inputs") && v) {
            max_inputs = (unsigned)strtoul(v, NULL, 10);
            k++;
        } else if (!strcmp(a, "--python") && v) {
            python = v;
            k++;
        } else if (!strcmp(a, "--json") && v) {
            json_path = v;
            k++;
        } else if (!strcmp(a, "--no-naive")) {
            naive = false;
        } else if (!strcmp(a, "--no-full")) {
            full = false;
        } else {
            bench__usage();
            return 2;
        }
    }
    if (threads < 1 || threads > 64 || repeat < 1 || repeat > 15) {
        bench__usage();
        return 2;
    }
    sg_diag d;
    sg_diag_init(&d);
    const sg_golden_suite *suite = NULL;
    if (sg_golden_builtin_suite(&suite, &d) != SG_OK) {
        fprintf(stderr, "bench_golden: the built-in suite does not load: %s\n", d.message);
        return 3;
    }
    sg_sandbox *sb = NULL;
    if (sg_sandbox_new(python, &sb, &d) != SG_OK) {
        fprintf(stderr, "bench_golden: SKIP: the sandbox is unavailable: %s\n", d.message);
        return 3;
    }
    size_t ntasks = sg_golden_suite_count(suite);
    if (max_tasks && max_tasks < ntasks)
        ntasks = max_tasks;
    const sg_golden_task **tasks = calloc(ntasks + 1, sizeof *tasks);
    bench__trun *runs_a = calloc(ntasks + 1, sizeof *runs_a), *runs_b = calloc(ntasks + 1, sizeof *runs_b);
    bench__phase *ph = calloc(ntasks + 1, sizeof *ph);
    if (!tasks || !runs_a || !runs_b || !ph)
        return 3;
    size_t ncases = 0;
    for (size_t k = 0; k < ntasks; k++) {
        tasks[k] = sg_golden_suite_task(suite, k);
        ncases += tasks[k]->ncases;
    }
    double load[3] = {0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = 0;
        fclose(lf);
    }
    printf("stage 3 throughput: %zu built-in tasks, %zu structured cases, canonical solutions; %d threads, "
           "%ld cores online, load %.2f\n",
           ntasks, ncases, threads, sysconf(_SC_NPROCESSORS_ONLN), load[0]);
    int bad = 0;

    /* warm-up (not timed): page cache, the interpreter's .pyc files, the sandbox's first start */
    bench__golden g = {.sb = sb, .tasks = tasks, .runs = runs_a, .pooled = true};
    sg_golden_opts_init(&g.opts);
    g.opts.no_properties = true;
    bench__golden_one(&g, 0);
    bench__pools_free();
    bench__golden gu = g; /* the same without a pool: a sandbox started (and stopped) per task */
    gu.pooled = false;

    /* (a) structured cases: the worker way, then the naive way (same cases, same threads); with
     * --repeat R the two alternate R times and the medians are reported (the machine is shared) */
    printf("\n(a) structured cases only (no property checks); a case = one `tests` entry judged\n");
    double rate_a = 0, rate_n = 0, bare = 0, wall_a = 0, wall_n = 0;
    double ra[16] = {0}, rn[16] = {0}, ru[16] = {0};
    size_t naive_pass = 0;
    bench__totals a = {0};
    bench__ncase *nc = NULL;
    char dir[] = "/tmp/sgbench.XXXXXX";
    bench__naive nb = {.python = python, .dir = dir};
    if (naive) {
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 3;
        }
        nc = calloc(ncases + 1, sizeof *nc);
        if (!nc)
            return 3;
        nb.cases = nc;
        nc[0] = (bench__ncase){.t = tasks[0], .k = 0};
        bench__naive_one(&nb, 0); /* warm-up */
    }
    /* the pools' first pass, timed on its own: each thread starts its sandboxes and its zygotes
     * import the standard-library modules the tasks name (once) */
    double wall_c = bench__parallel(threads, ntasks, bench__golden_one, &g);
    bench__totals ac = bench__sum(runs_a, ntasks, wall_c);
    printf("  worker  sg_golden_run, pool   %6zu cases in %7.2f s  %8.1f cases/s  (cold: the pools' first pass, "
           "their sandboxes started in it)\n",
           ac.cases, wall_c, (double)ac.cases / wall_c);
    bad += bench__print_bad("(a, cold pool)", tasks, runs_a, ntasks);
    for (int round = 0; round < repeat; round++) {
        wall_a = bench__parallel(threads, ntasks, bench__golden_one, &g);
        a = bench__sum(runs_a, ntasks, wall_a);
        ra[round] = (double)a.cases / wall_a;
        printf("  worker  sg_golden_run, pool   %6zu cases in %7.2f s  %8.1f cases/s  (%zu tasks: %zu pass, %zu fail, "
               "%zu error; %zu worker calls; warm: %u sandbox starts so far)\n",
               a.cases, wall_a, ra[round], ntasks, a.pass, a.fail, a.error, a.calls, bench__pool_starts());
        bad += bench__print_bad("(a)", tasks, runs_a, ntasks);
        double wall_u = bench__parallel(threads, ntasks, bench__golden_one, &gu);
        bench__totals u = bench__sum(runs_a, ntasks, wall_u);
        ru[round] = (double)u.cases / wall_u;
        printf("  worker  sg_golden_run, no pool%6zu cases in %7.2f s  %8.1f cases/s  (a sandbox started per task)\n",
               u.cases, wall_u, ru[round]);
        bad += bench__print_bad("(a, no pool)", tasks, runs_a, ntasks);
        if (!naive)
            continue;
        size_t at = 0;
        for (size_t k = 0; k < ntasks; k++)
            for (size_t c = 0; c < tasks[k]->ncases; c++)
                nc[at++] = (bench__ncase){.t = tasks[k], .k = c};
        wall_n = bench__parallel(threads, ncases, bench__naive_one, &nb);
        naive_pass = 0;
        for (size_t k = 0; k < ncases; k++)
            naive_pass += nc[k].passed;
        rn[round] = (double)ncases / wall_n;
        printf("  naive   python3 per case      %6zu cases in %7.2f s  %8.1f cases/s  (%zu passed; %s -I -S FILE)\n",
               ncases, wall_n, rn[round], naive_pass, python);
        for (size_t k = 0, shown = 0; k < ncases; k++)
            if (!nc[k].passed && shown++ < 5) {
                printf("  !! naive: %s case %zu: %s\n", nc[k].t->task_id, nc[k].k, nc[k].why);
                bad++;
            }
    }
    rate_a = bench__median(ra, (size_t)repeat);
    if (naive) {
        rate_n = bench__median(rn, (size_t)repeat);
        bare = bench__bare_start(python, dir, 30);
        rmdir(dir);
        double ratio = rate_a / rate_n;
        printf("  ratio   %.1fx the naive way%s   target %.0fx: %s;  %.0f cases/s target %.0f: %s\n", ratio,
               repeat > 1 ? " (medians)" : "", BENCH_TARGET_RATIO, bench__met(ratio >= BENCH_TARGET_RATIO), rate_a,
               BENCH_TARGET_RATE, bench__met(rate_a >= BENCH_TARGET_RATE));
    } else {
        printf("  %.0f cases/s target %.0f: %s (naive way not run)\n", rate_a, BENCH_TARGET_RATE,
               bench__met(rate_a >= BENCH_TARGET_RATE));
    }

    /* breakdown of (a) */
    bench__split sp = {.sb = sb, .tasks = tasks, .ph = ph};
    double wall_s = bench__parallel(threads, ntasks, bench__split_one, &sp);
    double s_ref = 0, s_cand = 0, s_first = 0, s_calls = 0, s_down = 0, g_task = 0;
    size_t items = 0, sfail = 0;
    double *starts = calloc(2 * ntasks + 1, sizeof *starts);
    size_t nstarts = 0;
    for (size_t k = 0; k < ntasks; k++) {
        s_ref += ph[k].start_ref;
        s_cand += ph[k].start_cand;
        s_first += ph[k].first_call;
        s_calls += ph[k].calls;
        s_down += ph[k].teardown;
        items += ph[k].items;
        sfail += ph[k].failed;
        g_task += runs_a[k].wall;
        if (starts) {
            starts[nstarts++] = ph[k].start_ref;
            starts[nstarts++] = ph[k].start_cand;
        }
    }
    double nt = (double)ntasks;
    double parts = (s_ref + s_cand + s_first + s_calls + s_down) / nt;
    printf("\nbreakdown of (a), per task (averages over %zu tasks, %d threads; the same work outside "
           "sg_golden_run, %.2f s wall):\n",
           ntasks, threads, wall_s);
    printf("  sg_golden_run, whole task          %7.2f ms  (%.1f cases/task)\n", g_task / nt * 1e3, (double)a.cases / nt);
    printf("    start+import reference worker   %7.2f ms  (unused by (a) when every case has an expected value)\n",
           s_ref / nt * 1e3);
    printf("    start+import candidate worker   %7.2f ms  (median of all starts %.2f ms)\n", s_cand / nt * 1e3,
           bench__median(starts, nstarts) * 1e3);
    printf("    first call of the candidate     %7.2f ms  (zygote's deferred setup: call loop, gc.freeze; one fork)\n",
           s_first / nt * 1e3);
    printf("    the cases' calls, batches of %u  %7.2f ms  (%.3f ms/call over %zu calls)\n", BENCH_BATCH,
           s_calls / nt * 1e3, items ? s_calls / (double)items * 1e3 : 0.0, items);
    printf("    teardown of both workers        %7.2f ms\n", s_down / nt * 1e3);
    double rest = g_task / nt * 1e3 - parts * 1e3;
    printf("    rest (sg_golden_run's own work)  %7.2f ms  (%s)\n", rest,
           rest >= 0 ? "program text, decode+compare, exception-class calls"
                     : "negative: within the noise between the two runs, plus the extra first call");
    printf("  of a task: worker start/import+teardown %.0f%%, first call %.0f%%, the cases' calls %.0f%%\n",
           g_task > 0 ? (s_ref + s_cand + s_down) / g_task * 100 : 0.0, g_task > 0 ? s_first / g_task * 100 : 0.0,
           g_task > 0 ? s_calls / g_task * 100 : 0.0);
    if (sfail)
        printf("  !! %zu tasks failed the breakdown run\n", sfail);
    if (naive)
        printf("  naive: %.2f ms per case (%.2f ms of it a bare `python3 -I -S` start, median of 30), "
               "%d threads\n",
               wall_n / (double)ncases * threads * 1e3, bare * 1e3, threads);
    free(starts);

    /* (b) the full stage */
    bench__totals b = {0};
    double rate_b = 0;
    if (full) {
        bench__golden gb = {.sb = sb, .tasks = tasks, .runs = runs_b, .pooled = true};
        sg_golden_opts_init(&gb.opts);
        gb.opts.max_inputs = max_inputs;
        double wall_b = bench__parallel(threads, ntasks, bench__golden_one, &gb);
        b = bench__sum(runs_b, ntasks, wall_b);
        rate_b = (double)(b.cases + b.inputs) / wall_b;
        printf("\n(b) the full stage: structured cases + property checks on generated inputs (budget: %s);\n"
               "    a case here = a structured case OR a generated input checked (discarded inputs not "
               "counted)\n",
               max_inputs ? "--max-inputs" : "each task's fuzz.max_inputs, default 300");
        printf("  worker  sg_golden_run         %6zu cases in %7.2f s  %8.1f cases/s  (%zu structured + %zu "
               "generated; %zu discarded; %zu worker calls, %.0f calls/s)\n",
               b.cases + b.inputs, wall_b, rate_b, b.cases, b.inputs, b.discarded, b.calls,
               (double)b.calls / wall_b);
        printf("  verdicts: %zu pass, %zu fail, %zu error\n", b.pass, b.fail, b.error);
        bad += bench__print_bad("(b)", tasks, runs_b, ntasks);
        if (naive) {
            double ratio = rate_b / rate_n;
            printf("  ratio   %.1fx the naive way's cases/s of (a)   target %.0fx: %s;  %.0f cases/s target %.0f: %s\n",
                   ratio, BENCH_TARGET_RATIO, bench__met(ratio >= BENCH_TARGET_RATIO), rate_b, BENCH_TARGET_RATE,
                   bench__met(rate_b >= BENCH_TARGET_RATE));
        } else {
            printf("  %.0f cases/s target %.0f: %s\n", rate_b, BENCH_TARGET_RATE, bench__met(rate_b >= BENCH_TARGET_RATE));
        }
        double per_task = 0;
        for (size_t k = 0; k < ntasks; k++)
            per_task += runs_b[k].wall;
        printf("  per task: %.0f ms average, %.1f inputs checked, %.1f calls; %.3f ms per call beyond the two "
               "worker starts of (a)'s breakdown\n",
               per_task / nt * 1e3, (double)b.inputs / nt, (double)b.calls / nt,
               b.calls ? (per_task - s_ref - s_cand - s_down) / (double)b.calls * 1e3 : 0.0);
        printf("  slowest tasks:\n");
        bench__print_slowest(tasks, runs_b, ntasks, 6);
    }

    if (json_path) {
        json_t *o = json_pack("{s:i, s:i, s:i, s:f, s:{s:i, s:f, s:f, s:i}, s:{s:i, s:f, s:f, s:i, s:f}, "
                              "s:{s:f, s:f, s:f, s:f, s:f, s:f}}",
                              "tasks", (json_int_t)ntasks, "cases", (json_int_t)ncases, "threads", threads,
                              "load", load[0], "worker_a", "cases", (json_int_t)a.cases, "seconds", wall_a,
                              "cases_per_s", rate_a, "calls", (json_int_t)a.calls, "naive", "cases",
                              (json_int_t)(naive ? ncases : 0), "seconds", wall_n, "cases_per_s", rate_n,
                              "passed", (json_int_t)naive_pass, "bare_start_ms", bare * 1e3, "breakdown_ms_per_task",
                              "golden_run", g_task / nt * 1e3, "start_ref", s_ref / nt * 1e3, "start_cand",
                              s_cand / nt * 1e3, "first_call", s_first / nt * 1e3, "calls", s_calls / nt * 1e3, "teardown", s_down / nt * 1e3);
        if (o) {
            json_object_set_new(o, "worker_a_pool", json_string("warm: one sg_golden_pool per thread, started and "
                                                                "warmed by the cold pass"));
            json_object_set_new(o, "worker_a_cold_pool_cases_per_s", json_real((double)ac.cases / wall_c));
            json_object_set_new(o, "worker_a_no_pool_cases_per_s", json_real(bench__median(ru, (size_t)repeat)));
        }
        if (o && full)
            json_object_set_new(o, "worker_b",
                                json_pack("{s:i, s:i, s:i, s:i, s:f, s:f}", "cases", (json_int_t)b.cases, "inputs",
                                          (json_int_t)b.inputs, "discarded", (json_int_t)b.discarded, "calls",
                                          (json_int_t)b.calls, "seconds", b.wall, "cases_per_s", rate_b));
        /* per task, for finding the bottleneck: (a)'s wall and calls, the breakdown's phases, (b)'s
         * wall, inputs and calls, and the task's property names */
        json_t *per = json_array();
        for (size_t k = 0; o && per && k < ntasks; k++) {
            json_t *props = json_array();
            for (size_t q = 0; props && q < tasks[k]->nprops; q++)
                json_array_append_new(props, json_string(sg_golden_prop_name(tasks[k]->props[q].kind)));
            json_t *row = json_pack("{s:s, s:i, s:f, s:i, s:f, s:f, s:f, s:f, s:f, s:o}", "task_id",
                                    tasks[k]->task_id, "cases", (json_int_t)runs_a[k].cases, "a_ms",
                                    runs_a[k].wall * 1e3, "a_calls", (json_int_t)runs_a[k].calls, "start_ref_ms",
                                    ph[k].start_ref * 1e3, "start_cand_ms", ph[k].start_cand * 1e3, "first_call_ms",
                                    ph[k].first_call * 1e3, "calls_ms", ph[k].calls * 1e3, "teardown_ms",
                                    ph[k].teardown * 1e3, "properties", props ? props : json_array());
            if (row && full) {
                json_object_set_new(row, "b_ms", json_real(runs_b[k].wall * 1e3));
                json_object_set_new(row, "b_inputs", json_integer((json_int_t)runs_b[k].inputs));
                json_object_set_new(row, "b_calls", json_integer((json_int_t)runs_b[k].calls));
                json_object_set_new(row, "b_verdict", json_string(sg_golden_verdict_name(runs_b[k].verdict)));
            }
            json_array_append_new(per, row);
        }
        if (o)
            json_object_set_new(o, "per_task", per);
        else
            json_decref(per);
        if (!o || json_dump_file(o, json_path, JSON_INDENT(2)) != 0)
            fprintf(stderr, "bench_golden: cannot write %s\n", json_path);
        json_decref(o);
    }
    free(nc);
    free(tasks);
    free(runs_a);
    free(runs_b);
    free(ph);
    bench__pools_free();
    sg_sandbox_free(sb);
    return bad ? 1 : 0;
}
