/*
 * `check --fuzz`: the fuzz stage (docs/fuzz.md). For each file that passed the earlier stages,
 * run snipgate-fuzz (the libFuzzer driver, a process of its own: libFuzzer calls exit() and
 * installs signal handlers) on the program the golden stage ran, read its one-line JSON result
 * and attach it to the report. Anything but a well-formed result and a clean exit is the stage
 * failing: the file blocks and `check` exits 3, never a pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

#define FUZZ_MAX_OUT (4u << 20)
#define FUZZ_ERR_TAIL 2048u

void sg_cli_fuzz_init(sg_cli_fuzz *f)
{
    memset(f, 0, sizeof *f);
    f->runs = -1;
    f->policy_runs = -1;
}

/* "10s", "500ms", "2m", "1.5" (seconds). */
static int fuzz__duration(const char *s, double *ret)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0))
        return -1;
    double mul = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "ms") ? 0.001 : !strcmp(end, "m") ? 60 : -1;
    if (mul < 0 || v * mul > 86400 || v * mul < 0.001)
        return -1;
    *ret = v * mul;
    return 0;
}

int sg_cli_fuzz_opt(const char *verb, sg_cli_fuzz *f, int c, const char *arg)
{
    unsigned long ul;
    switch (c) {
    case SG_OPT_FUZZ:
        if (fuzz__duration(arg, &f->seconds)) {
            sg_cli_error(verb, "--fuzz takes a duration: 10s, 500ms, 2m (got '%s')", arg);
            return SG_EXIT_USAGE;
        }
        f->given = true;
        return 0;
    case SG_OPT_FUZZ_RUNS:
        if (sg_cli_parse_ulong(arg, 1000000000UL, &ul) || ul == 0) {
            sg_cli_error(verb, "--fuzz-runs must be from 1 to 1000000000 (got '%s')", arg);
            return SG_EXIT_USAGE;
        }
        f->runs = (long long)ul;
        f->given = true;
        return 0;
    case SG_OPT_FUZZ_CORPUS:
        f->corpus = arg;
        return 0;
    }
    return SG_EXIT_USAGE;
}

/* snipgate-fuzz: $SNIPGATE_FUZZ_BIN, else next to this executable. */
static int fuzz__binary(char *path, size_t size)
{
    const char *env = getenv("SNIPGATE_FUZZ_BIN");
    if (env && *env) {
        snprintf(path, size, "%s", env);
        return access(path, X_OK);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if (strlen(self) + sizeof "/snipgate-fuzz" > size)
        return -1;
    memcpy(path, self, strlen(self));
    memcpy(path + strlen(self), "/snipgate-fuzz", sizeof "/snipgate-fuzz");
    return access(path, X_OK);
}

static double fuzz__now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Run the driver: the program on its stdin, its result line from stdout. Returns 0 with the
 * output in *ret_out (malloc'd), or -1 with why in `err`. */
static int fuzz__spawn(char *const *argv, const char *prog, double deadline_s, char **ret_out, char *err, size_t errlen)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, er[2] = {-1, -1};
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot make pipes: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (in[i] >= 0) close(in[i]);
            if (out[i] >= 0) close(out[i]);
            if (er[i] >= 0) close(er[i]);
        }
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, er[1], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &all);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    close(er[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        close(er[0]);
        snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(rc));
        return -1;
    }
    /* the program: the driver reads all of it before it starts (a dead reader: EPIPE, not SIGPIPE) */
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    size_t len = strlen(prog), off = 0;
    while (off < len) {
        ssize_t n = write(in[1], prog + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    close(in[1]);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) > 0)
        ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    char *buf = malloc(FUZZ_MAX_OUT + 1);
    char tail[FUZZ_ERR_TAIL + 1];
    size_t blen = 0, tlen = 0;
    bool killed = false, timed_out = false;
    int fds[2] = {out[0], er[0]};
    while (buf && (fds[0] >= 0 || fds[1] >= 0)) {
        if (!killed && (fuzz__now() > deadline_s || sg_cli_signal())) {
            kill(pid, SIGKILL);
            killed = true;
            timed_out = !sg_cli_signal();
        }
        struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
        if (poll(p, 2, 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i] < 0 || !p[i].revents)
                continue;
            char tmp[8192];
            ssize_t n = read(fds[i], tmp, sizeof tmp);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(fds[i]);
                fds[i] = -1;
                continue;
            }
            if (i == 0) {
                size_t take = (size_t)n < FUZZ_MAX_OUT - blen ? (size_t)n : FUZZ_MAX_OUT - blen;
                memcpy(buf + blen, tmp, take);
                blen += take;
            } else { /* keep the end of the driver's log for error messages */
                for (ssize_t k = 0; k < n; k++) {
                    if (tlen == FUZZ_ERR_TAIL) {
                        memmove(tail, tail + 1, FUZZ_ERR_TAIL - 1);
                        tlen--;
                    }
                    tail[tlen++] = tmp[k];
                }
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    tail[tlen] = '\0';
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    buf[blen] = '\0';
    if (killed || !WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3)) {
        /* the last line of the log says most */
        while (tlen && (tail[tlen - 1] == '\n' || tail[tlen - 1] == '\r'))
            tail[--tlen] = '\0';
        const char *last = strrchr(tail, '\n');
        snprintf(err, errlen, "snipgate-fuzz %s%s%.600s", timed_out ? "ran past its deadline and was killed"
                                                      : killed ? "was stopped"
                                                      : WIFSIGNALED(status) ? "was killed by a signal"
                                                                            : "failed",
                 tlen ? ": " : "", tlen ? (last ? last + 1 : tail) : "");
        free(buf);
        return -1;
    }
    *ret_out = buf;
    return 0;
}

sg_status sg_cli_fuzz_report(const sg_cli_fuzz *f, const sg_cli_golden *g, const sg_golden_opts *gopts,
                             const sg_golden_task *task, const char *task_label, sg_report *rep, const char *buf,
                             size_t len)
{
    sg_diag d;
    sg_diag_init(&d);
    if (sg_report_blocked(rep))
        return sg_report_add_fuzz(rep, buf, len, task_label, NULL, NULL, &d);
    /* the command line's budget, else the policy's, else the task's; a number of inputs alone
     * runs for up to 600 s, and no budget at all (not reached: the stage is off) for 10 s */
    double seconds = f->seconds;
    long long runs = f->runs;
    if (!f->given && f->policy_given) {
        seconds = f->policy_seconds;
        runs = f->policy_runs;
    } else if (!f->given) {
        uint64_t task_runs = 0;
        sg_golden_task_fuzz_stage(task, &seconds, &task_runs);
        runs = task_runs ? (long long)task_runs : -1;
    }
    if (!(seconds > 0))
        seconds = runs > 0 ? 600 : 10;
    char err[1200] = "";
    char bin[PATH_MAX] = "";
    if (fuzz__binary(bin, sizeof bin) != 0) {
        snprintf(err, sizeof err, "the fuzz stage needs snipgate-fuzz next to snipgate (%.600s): it is built when "
                                  "libclang-rt-14-dev is installed", bin);
        return sg_report_add_fuzz(rep, buf, len, task_label, NULL, err, &d);
    }
    char *prog = NULL;
    sg_status st = sg_report_fuzz_program(rep, buf, len, &prog, &d);
    if (st == SG_ERR_NOMEM)
        return st;
    if (st != SG_OK) {
        snprintf(err, sizeof err, "%s: %s", sg_strerror(st), d.message);
        return sg_report_add_fuzz(rep, buf, len, task_label, NULL, err, &d);
    }
    char a_time[32], a_runs[32], a_seed[32];
    snprintf(a_time, sizeof a_time, "%.3f", seconds);
    snprintf(a_runs, sizeof a_runs, "%lld", runs);
    unsigned long long seed = gopts->has_seed ? gopts->seed : 1; /* --seed, else 1 */
    snprintf(a_seed, sizeof a_seed, "%llu", seed ? seed : 1);
    char *argv[20];
    int n = 0;
    argv[n++] = bin;
    argv[n++] = "--task";
    argv[n++] = (char *)sg_golden_task_id(task);
    if (g->suite_path) {
        argv[n++] = "--suite";
        argv[n++] = (char *)g->suite_path;
    }
    argv[n++] = "--time";
    argv[n++] = a_time;
    if (runs > 0) {
        argv[n++] = "--runs";
        argv[n++] = a_runs;
    }
    argv[n++] = "--seed";
    argv[n++] = a_seed;
    if (f->corpus) {
        argv[n++] = "--corpus";
        argv[n++] = (char *)f->corpus;
    }
    if (g->interpreter) {
        argv[n++] = "--interpreter";
        argv[n++] = (char *)g->interpreter;
    }
    argv[n] = NULL;
    char *out = NULL;
    /* the budget, plus time to start, confirm and shrink a finding */
    int rc = fuzz__spawn(argv, prog, fuzz__now() + seconds + 120, &out, err, sizeof err);
    free(prog);
    if (rc != 0)
        return sg_report_add_fuzz(rep, buf, len, task_label, NULL, err, &d);
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    st = sg_report_add_fuzz(rep, buf, len, task_label, out, NULL, &d);
    free(out);
    return st;
}
