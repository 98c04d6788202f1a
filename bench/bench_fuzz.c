/*
 * The fuzz stage's throughput (issue 9, "Performance"; bench/README.md): inputs per second into
 * the sandboxed candidate, side by side in one run:
 *   stream+cov   one coverage worker's stream (sg_worker_stream_call), the tracer on: what
 *                snipgate-fuzz does per input (every sandbox layer on)
 *   stream       the same stream without the tracer
 *   batch        sg_worker_call_batch of 64 (the property stage's path), no tracer
 *   spawn        a fresh `python3 -c` per input, no sandbox at all (the naive harness)
 * on a small function (a + b) and a loop-heavy one (a loop of 100 iterations with a comparison).
 *   bench_fuzz [N]    N inputs per stream row (default 5000; spawn runs N/50)
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/tracer/cov.h"
#include "snipgate/snipgate.h"

extern char **environ;

static const char small_src[] = "def f(a, b):\n    return a + b\n";
static const char loop_src[] = "def f(a, b):\n"
                               "    t = 0\n"
                               "    for i in range(100):\n"
                               "        if i == a:\n"
                               "            t += b\n"
                               "        t += i\n"
                               "    return t\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of this process and of every reaped descendant (a freed worker's sandbox). */
static double cpu_s(void)
{
    struct rusage a, b;
    getrusage(RUSAGE_SELF, &a);
    getrusage(RUSAGE_CHILDREN, &b);
    return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
           (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec) / 1e6;
}

static double g_cpu_us; /* CPU per input of the last row: the supervisor (this process) */
static double g_sb_us;  /* and the sandbox's call child: the items' cpu_ms add up to its total */

static sg_worker *start(sg_sandbox *sb, const char *src, int cov_fd)
{
    sg_worker_opts o;
    sg_worker_opts_init(&o);
    o.coverage = cov_fd >= 0;
    o.coverage_fd = cov_fd;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_new(sb, src, strlen(src), NULL, &o, &w, &imp, &d) != SG_OK) {
        fprintf(stderr, "bench_fuzz: worker: %s\n", d.message);
        exit(3);
    }
    sg_outcome_free(imp);
    return w;
}

static double run_stream(sg_sandbox *sb, const char *src, int cov_fd, struct sg_cov_map *map, int n)
{
    sg_worker *w = start(sb, src, cov_fd);
    sg_diag d;
    sg_diag_init(&d);
    char call[64];
    double t0 = 0, c0 = 0, sb_ms = 0;
    for (int i = -200; i < n; i++) { /* 200 warm-up inputs */
        if (i == 0) {
            t0 = now_s();
            c0 = cpu_s();
        }
        if (map)
            memset(map, 0, sizeof *map);
        snprintf(call, sizeof call, "f(%d, %d)", i % 97, i);
        sg_outcome *o = NULL;
        bool open = false;
        if (sg_worker_stream_call(w, call, &o, &open, &d) != SG_OK ||
            sg_outcome_info_get(o)->kind != SG_OUTCOME_OK) {
            fprintf(stderr, "bench_fuzz: stream call failed: %s\n", d.message);
            exit(3);
        }
        if (i >= 0)
            sb_ms += sg_outcome_info_get(o)->cpu_ms;
        sg_outcome_free(o);
    }
    double rate = n / (now_s() - t0);
    sg_worker_free(w); /* (its sandbox's CPU is counted once it is reaped) */
    g_cpu_us = (cpu_s() - c0) * 1e6 / n;
    g_sb_us = sb_ms * 1000 / n;
    return rate;
}

static double run_batch(sg_sandbox *sb, const char *src, int n)
{
    sg_worker *w = start(sb, src, -1);
    sg_diag d;
    sg_diag_init(&d);
    enum { B = 64 };
    char texts[B][64];
    const char *codes[B];
    sg_outcome *outs[B];
    double t0 = now_s(), c0 = cpu_s(), sb_ms = 0;
    int done_items = 0;
    while (done_items < n) {
        for (int k = 0; k < B; k++) {
            snprintf(texts[k], sizeof texts[k], "f(%d, %d)", (done_items + k) % 97, done_items + k);
            codes[k] = texts[k];
        }
        size_t done = 0;
        if (sg_worker_call_batch(w, codes, B, NULL, outs, &done, &d) != SG_OK || done != B) {
            fprintf(stderr, "bench_fuzz: batch failed: %s\n", d.message);
            exit(3);
        }
        for (int k = 0; k < B; k++) {
            sb_ms += sg_outcome_info_get(outs[k])->cpu_ms;
            sg_outcome_free(outs[k]);
        }
        done_items += B;
    }
    double rate = done_items / (now_s() - t0);
    sg_worker_free(w);
    g_cpu_us = (cpu_s() - c0) * 1e6 / done_items;
    g_sb_us = sb_ms * 1000 / done_items;
    return rate;
}

static double run_spawn(const char *src, int n)
{
    char prog[1024];
    double t0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < n; i++) {
        snprintf(prog, sizeof prog, "%sprint(f(%d, %d))\n", src, i % 97, i);
        char *argv[] = {"/usr/bin/python3", "-c", prog, NULL};
        pid_t pid;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
        if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
            fprintf(stderr, "bench_fuzz: cannot spawn python3\n");
            exit(3);
        }
        posix_spawn_file_actions_destroy(&fa);
        int st;
        waitpid(pid, &st, 0);
    }
    g_cpu_us = (cpu_s() - c0) * 1e6 / n; /* (python3 is reaped: all of it) */
    g_sb_us = 0;
    return n / (now_s() - t0);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    signal(SIGPIPE, SIG_IGN); /* as snipgate-fuzz does: stream writes need no signal masking */
    if (n < 100)
        n = 100;
    sg_diag d;
    sg_diag_init(&d);
    sg_sandbox *sb = NULL;
    if (sg_sandbox_new(NULL, &sb, &d) != SG_OK) {
        fprintf(stderr, "bench_fuzz: sandbox: %s\n", d.message);
        return 3;
    }
    int fd = memfd_create("sg-coverage", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, sizeof(struct sg_cov_map)) < 0)
        return 3;
    struct sg_cov_map *map = mmap(NULL, sizeof *map, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return 3;
    const char *srcs[2] = {small_src, loop_src};
    double r[4][2], c[4][2], sbc[4][2];
    for (int k = 0; k < 2; k++) {
        r[0][k] = run_stream(sb, srcs[k], fd, map, n);
        c[0][k] = g_cpu_us;
        sbc[0][k] = g_sb_us;
        r[1][k] = run_stream(sb, srcs[k], -1, NULL, n);
        c[1][k] = g_cpu_us;
        sbc[1][k] = g_sb_us;
        r[2][k] = run_batch(sb, srcs[k], n);
        c[2][k] = g_cpu_us;
        sbc[2][k] = g_sb_us;
        r[3][k] = run_spawn(srcs[k], n / 50);
        c[3][k] = g_cpu_us;
        sbc[3][k] = g_sb_us;
    }
    double load[3] = {0};
    getloadavg(load, 3);
    printf("%-14s %12s %12s   %-27s\n", "", "execs/s", "", "CPU us/input: supervisor+sandbox");
    printf("%-14s %12s %12s   %13s %13s\n", "", "small", "loop-heavy", "small", "loop-heavy");
    const char *names[4] = {"stream+cov", "stream", "batch(64)", "spawn python3"};
    for (int i = 0; i < 4; i++)
        printf("%-14s %12.0f %12.0f   %6.0f+%-6.0f %6.0f+%-6.0f\n", names[i], r[i][0], r[i][1], c[i][0], sbc[i][0],
               c[i][1], sbc[i][1]);
    printf("(load average %.1f on %ld CPUs while measuring)\n", load[0], sysconf(_SC_NPROCESSORS_ONLN));
    printf("(%d inputs per row, %d for spawn; every sandbox layer on except in spawn)\n", n, n / 50);
    munmap(map, sizeof *map);
    close(fd);
    sg_sandbox_free(sb);
    return 0;
}
