/*
 * Benchmark helper for bench/sandbox_bench.sh (not part of the build: the script compiles it
 * against build dir's libsnipgate.a). Modes:
 *   warm N     one persistent worker, N calls of a trivial function: median/p90 latency, calls/s
 *   batch N    one persistent worker, N calls of a trivial function in batches of 64
 *              (sg_worker_call_batch): per-item cost and items/s
 *   phases N   N cold runs of `pass` through the API, timing sandbox_new, start+import, finish
 *   pool N     one pooled worker (the golden stage's pool): N different candidates, each made
 *              current (sg_worker_rebind) and given its first call; the time from the rebind to
 *              the call's outcome is "a new candidate ready to take its first call" (issue 24):
 *              a private sandbox forked from the template (its own user, pid, mount and IPC
 *              namespaces, /tmp and /proc, the candidate's process forked from its init), the
 *              candidate's import and one call
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "snipgate/snipgate.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[(int)(p * (n - 1))];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "warm";
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    if (n < 1)
        n = 1;
    sg_diag d;
    sg_diag_init(&d);
    sg_sandbox *sb = NULL;
    if (sg_sandbox_new(NULL, &sb, &d) != SG_OK) {
        fprintf(stderr, "sandbox: %s\n", d.message);
        return 3;
    }
    double *t = calloc((size_t)n, sizeof *t);
    if (!strcmp(mode, "warm")) {
        const char src[] = "def f(a, b):\n    return a + b\n";
        sg_worker *w = NULL;
        sg_outcome *imp = NULL, *o = NULL;
        if (sg_worker_new(sb, src, sizeof src - 1, NULL, NULL, &w, &imp, &d) != SG_OK) {
            fprintf(stderr, "worker: %s\n", d.message);
            return 3;
        }
        sg_outcome_free(imp);
        for (int i = 0; i < 50; i++) { /* warm up */
            sg_worker_call(w, "f(1, 2)", NULL, &o, &d);
            sg_outcome_free(o);
        }
        double start = now_ms();
        for (int i = 0; i < n; i++) {
            double a = now_ms();
            if (sg_worker_call(w, "f(1, 2)", NULL, &o, &d) != SG_OK) {
                fprintf(stderr, "call %d failed: %s\n", i, d.message);
                return 1;
            }
            if (sg_outcome_info_get(o)->kind != SG_OUTCOME_OK) {
                char *js = NULL;
                sg_outcome_to_json(o, &js);
                fprintf(stderr, "call %d: %s\n", i, js ? js : "?");
                free(js);
                return 1;
            }
            t[i] = now_ms() - a;
            sg_outcome_free(o);
        }
        double total = now_ms() - start;
        printf("warm calls: n=%d median=%.3f ms p90=%.3f ms calls/s=%.0f restarts=%u\n", n,
               pct(t, n, 0.5), pct(t, n, 0.9), n / (total / 1e3), sg_worker_starts(w) - 1);
        sg_worker_free(w);
    } else if (!strcmp(mode, "batch")) {
        const char src[] = "def f(a, b):\n    return a + b\n";
        sg_worker *w = NULL;
        sg_outcome *imp = NULL, *outs[64];
        const char *codes[64];
        for (int i = 0; i < 64; i++)
            codes[i] = "f(1, 2)";
        if (sg_worker_new(sb, src, sizeof src - 1, NULL, NULL, &w, &imp, &d) != SG_OK) {
            fprintf(stderr, "worker: %s\n", d.message);
            return 3;
        }
        sg_outcome_free(imp);
        int items = 0, batches = 0;
        double start = now_ms();
        while (items < n) {
            size_t k = (size_t)(n - items < 64 ? n - items : 64), done = 0;
            double a = now_ms();
            if (sg_worker_call_batch(w, codes, k, NULL, outs, &done, &d) != SG_OK || done != k) {
                fprintf(stderr, "batch failed: %s\n", d.message);
                return 1;
            }
            for (size_t i = 0; i < done; i++) {
                if (sg_outcome_info_get(outs[i])->kind != SG_OUTCOME_OK) {
                    fprintf(stderr, "item %zu not ok\n", i);
                    return 1;
                }
                sg_outcome_free(outs[i]);
            }
            t[batches++] = (now_ms() - a) / (double)k;
            items += (int)k;
        }
        double total = now_ms() - start;
        printf("batched calls (64 per child): n=%d median=%.3f ms/item items/s=%.0f restarts=%u\n", n,
               pct(t, batches, 0.5), n / (total / 1e3), sg_worker_starts(w) - 1);
        sg_worker_free(w);
    } else if (!strcmp(mode, "pool")) {
        sg_worker *w = NULL;
        sg_outcome *o = NULL;
        sg_worker_opts opts;
        sg_worker_opts_init(&opts);
        opts.pooled = true;
        if (sg_worker_new(sb, "", 0, NULL, &opts, &w, NULL, &d) != SG_OK) {
            fprintf(stderr, "pooled worker: %s\n", d.message);
            return 3;
        }
        char src[96];
        for (int i = -20; i < n; i++) { /* 20 to warm up */
            int len = snprintf(src, sizeof src, "def f(a, b):\n    return a + b + %d\n", i);
            double a = now_ms();
            if (sg_worker_rebind(w, src, (size_t)len, &opts, &d) != SG_OK ||
                sg_worker_call(w, "f(1, 2)", NULL, &o, &d) != SG_OK) {
                fprintf(stderr, "pooled call: %s\n", d.message);
                return 1;
            }
            if (sg_outcome_info_get(o)->kind != SG_OUTCOME_OK) {
                fprintf(stderr, "candidate %d: not ok: %s\n", i, sg_outcome_info_get(o)->detail);
                return 1;
            }
            sg_outcome_free(o);
            if (i >= 0)
                t[i] = now_ms() - a;
        }
        printf("new candidate, first call (pooled): n=%d median=%.3f ms p90=%.3f ms restarts=%u\n", n,
               pct(t, n, 0.5), pct(t, n, 0.9), sg_worker_starts(w) - 1);
        sg_worker_free(w);
    } else {
        double *t_new = calloc((size_t)n, sizeof *t), *t_imp = calloc((size_t)n, sizeof *t);
        for (int i = 0; i < n; i++) {
            double a = now_ms();
            sg_sandbox *s2 = NULL;
            sg_sandbox_new(NULL, &s2, &d);
            double b = now_ms();
            sg_worker *w = NULL;
            sg_outcome *imp = NULL, *o = NULL;
            sg_worker_opts opts;
            sg_worker_opts_init(&opts);
            opts.as_main = true;
            if (sg_worker_new(s2, "pass\n", 5, NULL, &opts, &w, &imp, &d) != SG_OK)
                return 3;
            double c = now_ms();
            sg_worker_finish(w, &o, &d);
            sg_worker_free(w);
            double e = now_ms();
            t_new[i] = b - a;
            t_imp[i] = c - b;
            t[i] = e - c;
            sg_outcome_free(imp);
            sg_outcome_free(o);
            sg_sandbox_free(s2);
        }
        printf("phases: sandbox_new %.3f ms, start+import %.3f ms, finish+teardown %.3f ms (medians)\n",
               pct(t_new, n, 0.5), pct(t_imp, n, 0.5), pct(t, n, 0.5));
    }
    sg_sandbox_free(sb);
    free(t);
    return 0;
}
