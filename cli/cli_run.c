/*
 * `snipgate run FILE [--call EXPR] [--stdin FILE] [--timeout S] [--memory MB] [--format F]`:
 * execute one snippet in the sandbox and print its classified outcome. Public API only.
 * Exit codes: 0 outcome ok, 1 any other outcome, 2 bad usage or input, 3 sandbox setup failure.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "snipgate/snipgate.h"

#define RUN_MAX_INPUT (8u << 20)

static void run__usage(FILE *out)
{
    fprintf(out,
            "usage: snipgate run FILE [options]\n"
            "\n"
            "Execute FILE (Python; a Markdown answer, *.md, runs its Python fences at their own lines;\n"
            "'-' for stdin) in the sandbox and report the outcome: ok, exception, timeout, memory_limit,\n"
            "output_limit, forbidden_syscall, signal or setup_error. Nothing runs if the kernel refuses\n"
            "any isolation layer.\n"
            "\n"
            "options:\n"
            "  --call EXPR        after running FILE's top level, evaluate EXPR (e.g. 'f(1, 2)')\n"
            "                     in a fresh child and report its outcome and value repr\n"
            "  --stdin FILE       bytes given to the snippet's stdin (default: empty)\n"
            "  --timeout S        CPU and wall-clock limit in seconds (default 5 CPU, 10 wall)\n"
            "  --cpu S, --wall S  set one of them (also accepts 250ms, 1.5s)\n"
            "  --memory MB        memory limit (default 256; accepts 64K, 1G)\n"
            "  --tasks N          processes + threads (default 64)\n"
            "  --fsize MB         largest file written (default 16)\n"
            "  --nofile N         open files (default 64)\n"
            "  --tmp MB           size of the private /tmp (default 16)\n"
            "  --max-output MB    cap on captured stdout and on stderr (default 1)\n"
            "  --rlimit-memory    limit memory with RLIMIT_AS even where cgroups are usable\n"
            "  --interpreter P    absolute path of the Python interpreter (default /usr/bin/python3)\n"
            "  --sandbox-id UID[:GID]\n"
            "                     host uid (and gid) of the sandbox when snipgate runs as root\n"
            "                     (default 65534; never 0). Unprivileged, your own ids are used\n"
            "  --                 end of options (a FILE may start with '-')\n"
            "  --format F         text (default) or json\n"
            "  -h, --help         this help\n"
            "\n"
            "exit codes: 0 ok, 1 any other outcome, 2 bad usage or input, 3 setup error\n");
}

/* Read a whole file (or stdin for "-") into memory, at most RUN_MAX_INPUT bytes. */
static int run__read_file(const char *path, char **ret_buf, size_t *ret_len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rbe") : stdin;
    if (!f) {
        sg_cli_error("run", "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap + 1);
    int rc = -1;
    if (!buf) {
        sg_cli_error("run", "out of memory");
        goto out_close;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= RUN_MAX_INPUT) {
                sg_cli_error("run", "'%s' is larger than %u bytes", path, RUN_MAX_INPUT);
                goto out_close;
            }
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                sg_cli_error("run", "out of memory");
                goto out_close;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) {
                sg_cli_error("run", "cannot read '%s': %s", path, strerror(errno));
                goto out_close;
            }
            break;
        }
    }
    buf[len] = '\0';
    *ret_buf = buf;
    *ret_len = len;
    buf = NULL;
    rc = 0;
out_close:
    free(buf);
    if (f != stdin)
        fclose(f);
    return rc;
}

/* Text for a person's terminal: everything the candidate controls (the detail and traceback
 * hold its exception message, the value its repr, the output its bytes) goes through
 * sg_text_write_safe, so that a CR or an escape sequence cannot draw a fake outcome line. */
static void run__print_text(FILE *out, const sg_outcome_info *i)
{
    fprintf(out, "outcome: %s", sg_outcome_kind_name(i->kind));
    if (i->detail[0]) {
        fputs(" (", out);
        sg_text_write_safe(out, i->detail, strlen(i->detail), false);
        fputc(')', out);
    }
    fputc('\n', out);
    if (i->value_repr) {
        fputs("value: ", out);
        sg_text_write_safe(out, i->value_repr, strlen(i->value_repr), false);
        fputc('\n', out);
    }
    if (i->traceback && i->traceback[0])
        sg_text_write_safe(out, i->traceback, strlen(i->traceback), true);
    fprintf(out, "exit_code: %d  signal: %d  cpu_ms: %llu  wall_ms: %llu  peak_rss_kb: %llu\n",
            i->exit_code, i->signal, (unsigned long long)i->cpu_ms, (unsigned long long)i->wall_ms,
            (unsigned long long)i->peak_rss_kb);
    fprintf(out, "limits: memory %s, tasks %s\n", sg_limit_mechanism_name(i->memory_mechanism),
            sg_limit_mechanism_name(i->tasks_mechanism));
    if (i->stdout_len) {
        fprintf(out, "--- stdout (%zu bytes%s)\n", i->stdout_len, i->stdout_truncated ? ", truncated" : "");
        sg_text_write_safe(out, i->stdout_data, i->stdout_len, true);
        if (i->stdout_data[i->stdout_len - 1] != '\n')
            fputc('\n', out);
    }
    if (i->stderr_len) {
        fprintf(out, "--- stderr (%zu bytes%s)\n", i->stderr_len, i->stderr_truncated ? ", truncated" : "");
        sg_text_write_safe(out, i->stderr_data, i->stderr_len, true);
        if (i->stderr_data[i->stderr_len - 1] != '\n')
            fputc('\n', out);
    }
}

static int run__emit(const sg_outcome *o, bool json)
{
    if (json) {
        char *s = NULL;
        if (sg_outcome_to_json(o, &s) != SG_OK) {
            sg_cli_error("run", "out of memory");
            return -1;
        }
        puts(s);
        free(s);
    } else {
        run__print_text(stdout, sg_outcome_info_get(o));
    }
    return fflush(stdout) == 0 ? 0 : -1;
}

/* A sandbox that could not be built: report it as a setup_error outcome and exit 3. */
static int run__setup_error(sg_status st, const sg_diag *diag, const sg_sandbox_limits *limits, bool json)
{
    sg_outcome *o = NULL;
    sg_cli_error("run", "%s: %s", sg_strerror(st), diag->message[0] ? diag->message : "sandbox setup failed");
    if (sg_outcome_new_setup_error(diag, limits, &o) == SG_OK) {
        (void)run__emit(o, json);
        sg_outcome_free(o);
    }
    return st == SG_ERR_INVALID_ARG ? SG_EXIT_USAGE : SG_EXIT_INTERNAL;
}

/* SIGTERM, SIGINT, SIGHUP: stop the sandbox, clean up (processes, cgroups), then die of it. */
static volatile sig_atomic_t run__signal;

static void run__on_signal(int sig)
{
    run__signal = sig;
    sg_sandbox_interrupt();
}

static void run__handle_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = run__on_signal; /* no SA_RESTART: the supervisor's poll wakes up */
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed stdout is a write error, reported after cleanup */
}

static int run__parse_ids(const char *s, uint32_t *uid, uint32_t *gid)
{
    unsigned long u = 0, g = 0;
    char *end = NULL;
    errno = 0;
    u = strtoul(s, &end, 10);
    if (errno || end == s || u > 0xfffffffeul)
        return -1;
    g = u;
    if (*end == ':') {
        const char *gs = end + 1;
        g = strtoul(gs, &end, 10);
        if (errno || end == gs || g > 0xfffffffeul)
            return -1;
    }
    if (*end)
        return -1;
    *uid = (uint32_t)u;
    *gid = (uint32_t)g;
    return 0;
}

static int run__main(int argc, char **argv);

/* `--opt=value` is `--opt value`, as with every other verb (getopt_long): split it before the
 * options are read (up to a lone "--"). */
int sg_cli_run(int argc, char **argv)
{
    char **args = calloc((size_t)argc * 2 + 1, sizeof *args);
    char **owned = calloc((size_t)argc + 1, sizeof *owned);
    if (!args || !owned) {
        free(args);
        free(owned);
        sg_cli_error("run", "out of memory");
        return SG_EXIT_INTERNAL;
    }
    int n = 0, no = 0, rc;
    bool opts = true;
    for (int a = 0; a < argc; a++) {
        const char *eq = argv[a] ? strchr(argv[a], '=') : NULL;
        if (a > 0 && opts && !strcmp(argv[a], "--"))
            opts = false;
        if (a > 0 && opts && !strncmp(argv[a], "--", 2) && eq && eq > argv[a] + 2) {
            if (!(owned[no] = strndup(argv[a], (size_t)(eq - argv[a])))) {
                sg_cli_error("run", "out of memory");
                rc = SG_EXIT_INTERNAL;
                goto out_free;
            }
            args[n++] = owned[no++];
            args[n++] = (char *)eq + 1;
        } else {
            args[n++] = argv[a];
        }
    }
    rc = run__main(n, args);
out_free:
    for (int i = 0; i < no; i++)
        free(owned[i]);
    free(owned);
    free(args);
    return rc;
}

static int run__main(int argc, char **argv)
{
    uint32_t host_uid = 0, host_gid = 0;
    bool have_ids = false, no_more_options = false;
    const char *file = NULL, *call = NULL, *stdin_path = NULL, *interpreter = NULL;
    bool json = false;
    sg_sandbox_limits limits;
    sg_sandbox_limits_init(&limits);
    sg_diag diag;
    sg_diag_init(&diag);

    static const struct {
        const char *flag;
        const char *limit;
    } limit_flags[] = {
        {"--timeout", "timeout"}, {"--cpu", "cpu"},       {"--wall", "wall"},
        {"--memory", "memory"},   {"--tasks", "tasks"},   {"--fsize", "fsize"},
        {"--nofile", "nofile"},   {"--tmp", "tmp"},
    };
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        const char *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (no_more_options || (arg[0] != '-' || !arg[1])) {
            if (file) {
                sg_cli_error("run", "only one FILE can be run");
                return SG_EXIT_USAGE;
            }
            file = arg;
            continue;
        }
        if (!strcmp(arg, "--")) {
            no_more_options = true;
            continue;
        }
        if (!strcmp(arg, "--sandbox-id")) {
            if (!val || run__parse_ids(val, &host_uid, &host_gid) < 0 || !host_uid || !host_gid) {
                sg_cli_error("run", "--sandbox-id needs UID or UID:GID, unprivileged ids (not 0)");
                return SG_EXIT_USAGE;
            }
            have_ids = true;
            a++;
            continue;
        }
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            run__usage(stdout);
            return SG_EXIT_PASS;
        }
        bool handled = false;
        for (size_t k = 0; k < sizeof limit_flags / sizeof limit_flags[0]; k++) {
            if (strcmp(arg, limit_flags[k].flag))
                continue;
            if (!val) {
                sg_cli_error("run", "%s needs a value", arg);
                return SG_EXIT_USAGE;
            }
            if (sg_sandbox_limits_set(&limits, limit_flags[k].limit, val, &diag) != SG_OK) {
                sg_cli_error("run", "%s", diag.message);
                return SG_EXIT_USAGE;
            }
            a++;
            handled = true;
        }
        if (handled)
            continue;
        if (!strcmp(arg, "--max-output")) {
            if (!val || sg_sandbox_limits_set(&limits, "stdout", val, &diag) != SG_OK ||
                sg_sandbox_limits_set(&limits, "stderr", val, &diag) != SG_OK) {
                sg_cli_error("run", "%s", val ? diag.message : "--max-output needs a value");
                return SG_EXIT_USAGE;
            }
            a++;
        } else if (!strcmp(arg, "--rlimit-memory")) {
            limits.prefer_rlimit_memory = true;
        } else if (!strcmp(arg, "--call") || !strcmp(arg, "--stdin") || !strcmp(arg, "--format") ||
                   !strcmp(arg, "--interpreter")) {
            if (!val) {
                sg_cli_error("run", "%s needs a value", arg);
                return SG_EXIT_USAGE;
            }
            if (arg[2] == 'c')
                call = val;
            else if (arg[2] == 's')
                stdin_path = val;
            else if (arg[2] == 'i')
                interpreter = val;
            else if (!strcmp(val, "json"))
                json = true;
            else if (strcmp(val, "text")) {
                sg_cli_error("run", "unknown format '%s' (text or json)", val);
                return SG_EXIT_USAGE;
            }
            a++;
        } else {
            sg_cli_error("run", "unknown option '%s'", arg);
            run__usage(stderr);
            return SG_EXIT_USAGE;
        }
    }
    if (!file) {
        sg_cli_error("run", "missing FILE");
        run__usage(stderr);
        return SG_EXIT_USAGE;
    }
    /* Refused before anything runs: the snippet's top level must not run for a call we reject. */
    if (call && strlen(call) > SG_WORKER_MAX_CALL_BYTES) {
        sg_cli_error("run", "--call text is %zu bytes, over the %u byte limit", strlen(call),
                     SG_WORKER_MAX_CALL_BYTES);
        return SG_EXIT_USAGE;
    }
    run__handle_signals();

    int rc = SG_EXIT_INTERNAL;
    char *src = NULL, *in = NULL;
    size_t src_len = 0, in_len = 0;
    sg_sandbox *sb = NULL;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL, *res = NULL;
    if (run__read_file(file, &src, &src_len) < 0 || (stdin_path && run__read_file(stdin_path, &in, &in_len) < 0)) {
        rc = SG_EXIT_USAGE;
        goto out_free;
    }
    /* a Markdown answer runs its Python fences, as `check` reads them (lines stay the document's) */
    const char *dot = strcmp(file, "-") ? strrchr(file, '.') : NULL;
    if (dot && (!strcmp(dot, ".md") || !strcmp(dot, ".markdown"))) {
        char *prog = NULL;
        size_t plen = 0;
        sg_diag md;
        sg_diag_init(&md);
        sg_status mst = sg_document_program(file, src, src_len, &prog, &plen, &md);
        if (mst != SG_OK) {
            sg_cli_error("run", "%s: %s", file, md.message[0] ? md.message : sg_strerror(mst));
            rc = mst == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
            goto out_free;
        }
        free(src);
        src = prog;
        src_len = plen;
    }
    sg_status st = sg_sandbox_new(interpreter, &sb, &diag);
    if (st == SG_OK && have_ids)
        st = sg_sandbox_set_host_ids(sb, host_uid, host_gid, &diag);
    if (st != SG_OK) {
        rc = run__setup_error(st, &diag, &limits, json);
        goto out_free;
    }
    sg_worker_opts opts;
    sg_worker_opts_init(&opts);
    opts.as_main = call == NULL;
    opts.stdin_data = in;
    opts.stdin_len = in_len;
    st = sg_worker_new(sb, src, src_len, &limits, &opts, &w, &imp, &diag);
    if (st == SG_OK) {
        if (call && sg_outcome_info_get(imp)->kind == SG_OUTCOME_OK)
            st = sg_worker_call(w, call, NULL, &res, &diag);
        else
            st = sg_worker_finish(w, &res, &diag);
    }
    /* Everything the sandbox held is released before printing: a reader that closed our stdout
     * (or a signal now) cannot leave a sandbox process or cgroup behind. */
    sg_worker_free(w);
    w = NULL;
    if (st == SG_ERR_INTERRUPTED || run__signal) {
        sg_outcome_free(res);
        res = NULL;
        sg_cli_error("run", "interrupted: the sandbox was stopped, no outcome");
        rc = 128 + (run__signal ? run__signal : SIGTERM);
        goto out_free;
    }
    if (st != SG_OK) {
        rc = run__setup_error(st, &diag, &limits, json);
        goto out_free;
    }
    if (run__emit(res, json) < 0) {
        sg_cli_error("run", "cannot write the outcome: %s", strerror(errno));
        rc = SG_EXIT_INTERNAL;
        goto out_free;
    }
    /* (a setup_error here: the run was killed from outside the sandbox, it judged nothing) */
    rc = sg_outcome_info_get(res)->kind == SG_OUTCOME_OK            ? SG_EXIT_PASS
         : sg_outcome_info_get(res)->kind == SG_OUTCOME_SETUP_ERROR ? SG_EXIT_INTERNAL
                                                                    : SG_EXIT_BLOCK;
out_free:
    sg_outcome_free(res);
    sg_outcome_free(imp);
    sg_worker_free(w);
    sg_sandbox_free(sb);
    free(src);
    free(in);
    return rc;
}
