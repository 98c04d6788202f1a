/* Verb dispatch, help and the small helpers every verb shares. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "snipgate/snipgate.h"

struct cli__verb {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct cli__verb cli__verbs[] = {
    {"check", sg_cli_check, "check Python files, directories, Markdown or stdin (static gate; with\n"
                            "           --task/--tests also the golden stage in the sandbox)"},
    {"rules", sg_cli_rules, "list the active rules"},
    {"run", sg_cli_run, "execute one snippet in the sandbox and report its outcome"},
    {"eval", sg_cli_eval, "judge generated samples against a task suite and report pass@k"},
    {"audit", sg_cli_audit, "run the gate over a corpus (directories, JSONL records, HumanEval samples,\n"
                            "           stdin), in parallel, resumable, sharded; JSONL verdicts and a summary"},
    {"serve", sg_cli_serve, "an HTTP JSON API: POST /v1/check, GET /healthz, GET /metrics"},
};

static void cli__usage(FILE *out)
{
    fprintf(out, "usage: snipgate <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cli__verbs / sizeof cli__verbs[0]; i++)
        fprintf(out, "  %-8s %s\n", cli__verbs[i].name, cli__verbs[i].summary);
    fprintf(out, "\noptions:\n  -V, --version  print the version\n  -h, --help     this help\n"
                 "\n'snipgate help <command>' or 'snipgate <command> --help' describes a command and every option.\n"
                 "exit codes: 0 pass, 1 blocked, 2 bad usage or input, 3 internal error\n");
}

int sg_cli_main(int argc, char **argv)
{
    sg_json_guard_install(); /* jansson's loader reads outside text (snipgate.h) */
    if (argc < 2) {
        cli__usage(stderr);
        return SG_EXIT_USAGE;
    }
    const char *verb = argv[1];
    if (!strcmp(verb, "help") && argc >= 3) {
        /* snipgate help VERB: the verb's own --help */
        for (size_t i = 0; i < sizeof cli__verbs / sizeof cli__verbs[0]; i++)
            if (!strcmp(argv[2], cli__verbs[i].name)) {
                char *args[] = {argv[2], (char *)"--help", NULL};
                return cli__verbs[i].fn(2, args);
            }
        fprintf(stderr, "snipgate: help: unknown command '%s'\n", argv[2]);
        cli__usage(stderr);
        return SG_EXIT_USAGE;
    }
    if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help")) {
        cli__usage(stdout);
        return SG_EXIT_PASS;
    }
    if (!strcmp(verb, "--version") || !strcmp(verb, "-V")) {
        printf("snipgate %s\n", sg_version());
        return SG_EXIT_PASS;
    }
    for (size_t i = 0; i < sizeof cli__verbs / sizeof cli__verbs[0]; i++)
        if (!strcmp(verb, cli__verbs[i].name))
            return cli__verbs[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "snipgate: unknown command '%s'\n", verb);
    cli__usage(stderr);
    return SG_EXIT_USAGE;
}

/* sg_cli_capture: where this thread's error messages go instead of stderr (the server answers
 * them as 400s). */
static _Thread_local char *cli__capture;
static _Thread_local size_t cli__capture_len;

void sg_cli_capture(char *buf, size_t len)
{
    cli__capture = buf;
    cli__capture_len = len;
    if (buf && len)
        buf[0] = '\0';
}

void sg_cli_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    if (cli__capture && cli__capture_len) {
        va_start(ap, fmt);
        vsnprintf(cli__capture, cli__capture_len, fmt, ap);
        va_end(ap);
        return;
    }
    fprintf(stderr, "snipgate: %s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int sg_cli_parse_long(const char *s, long min, long max, long *ret)
{
    if (!s || !*s)
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *ret = v;
    return 0;
}

int sg_cli_parse_ulong(const char *s, unsigned long max, unsigned long *ret)
{
    long v;
    if (!s || *s == '-' || sg_cli_parse_long(s, 0, (long)(max > (unsigned long)LONG_MAX ? LONG_MAX : max), &v))
        return -1;
    *ret = (unsigned long)v;
    return 0;
}

static int cli__cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sg_cli_dir_names(const char *dir, char ***ret_names, size_t *ret_n)
{
    *ret_names = NULL;
    *ret_n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "__pycache__") ||
            !strcmp(e->d_name, "node_modules"))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **p = realloc(names, cap * sizeof *p);
            if (!p) {
                rc = -2;
                break;
            }
            names = p;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = -2;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc) {
        sg_cli_free_names(names, n);
        return rc;
    }
    qsort(names, n, sizeof *names, cli__cmpstr);
    *ret_names = names;
    *ret_n = n;
    return 0;
}

void sg_cli_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}
