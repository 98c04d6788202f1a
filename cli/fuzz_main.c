/*
 * snipgate-fuzz: the fuzz stage's driver process (docs/fuzz.md). `snipgate check --fuzz` runs it
 * as a child: libFuzzer (LLVMFuzzerRunDriver from clang's fuzzer_no_main runtime) searches the
 * bytes, the library (snipgate/fuzz.h) turns each input into a typed call of the candidate in the
 * sandbox and hands back the candidate's Python coverage as libFuzzer extra counters and its
 * comparisons as comparison hooks. libFuzzer calls exit() and installs signal handlers, which is
 * why this is a process of its own.
 *
 *   snipgate-fuzz --task ID [--suite FILE] [--completion] [--time S] [--runs N] [--corpus DIR]
 *                 [--seed K] [--input-timeout S] [--interpreter PATH]   < candidate
 *
 * Prints ONE line of JSON on stdout: {"status": "ok", "finding": ..., "execs": ...} (exit 0), or
 * {"status": "error", "error": "..."} (exit 3). libFuzzer's own log goes to stderr. Any other
 * exit (libFuzzer stopping on its own error, a crash) is an error for the caller.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *data, size_t size));
void __sanitizer_weak_hook_memcmp(void *caller_pc, const void *s1, const void *s2, size_t n, int result);
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b);

#define FUZZ_NCOUNTERS (1 + 16384)
/* libFuzzer reads these after every input (its "extra counters"): the candidate's coverage. */
__attribute__((section("__libfuzzer_extra_counters"))) uint8_t sg_fuzz_extra_counters[FUZZ_NCOUNTERS];

static sg_sandbox *g_sb;
static sg_golden_suite *g_suite;
static sg_fuzz *g_fz;
static char g_tmp[64];
static bool g_done;
static uint64_t g_seed = 1;
static struct timespec g_t0;

static double fuzz__elapsed(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - g_t0.tv_sec) + (double)(t.tv_nsec - g_t0.tv_nsec) / 1e9;
}

static void fuzz__rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            fuzz__rm_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void fuzz__cleanup(void)
{
    sg_fuzz_free(g_fz);
    g_fz = NULL;
    sg_sandbox_free(g_sb);
    g_sb = NULL;
    sg_golden_suite_free(g_suite);
    g_suite = NULL;
    if (g_tmp[0])
        fuzz__rm_tree(g_tmp);
    g_tmp[0] = '\0';
}

/* The one line of output, then the end. */
static void fuzz__emit_error(const char *msg)
{
    if (!g_done) {
        json_t *j = json_pack("{s:s, s:s}", "status", "error", "error", msg);
        char *s = j ? sg_json_dumps(j, JSON_COMPACT) : NULL;
        printf("%s\n", s ? s : "{\"status\":\"error\",\"error\":\"out of memory\"}");
        free(s);
        json_decref(j);
        fflush(stdout);
        g_done = true;
    }
}

static void fuzz__emit_result(void)
{
    if (g_done || !g_fz)
        return;
    char *r = NULL;
    if (sg_fuzz_result_json(g_fz, &r) != SG_OK) {
        fuzz__emit_error("out of memory");
        return;
    }
    json_t *j = json_loads(r, 0, NULL);
    free(r);
    if (j) {
        json_object_set_new(j, "status", json_string("ok"));
        json_object_set_new(j, "seed", json_integer((json_int_t)g_seed));
        json_object_set_new(j, "seconds", json_real(fuzz__elapsed()));
    }
    char *s = j ? sg_json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) {
        fuzz__emit_error("out of memory");
        return;
    }
    printf("%s\n", s);
    free(s);
    fflush(stdout);
    g_done = true;
}

/* libFuzzer ends with exit(0) when its budget is spent: the result without a finding. */
static void fuzz__at_exit(void)
{
    fuzz__emit_result();
    fuzz__cleanup();
}

static void fuzz__hook_bytes(void *ctx, const uint8_t *in_input, const uint8_t *wanted, size_t n)
{
    (void)ctx;
    /* the "call site" only spreads the entries over libFuzzer's tables */
    __sanitizer_weak_hook_memcmp((void *)(uintptr_t)(0x1000 + n), in_input, wanted, n, 1);
}

static void fuzz__hook_int(void *ctx, uint64_t a, uint64_t b)
{
    (void)ctx;
    __sanitizer_cov_trace_cmp8(a, b);
}

static int fuzz__one(const uint8_t *data, size_t size)
{
    sg_fuzz_hooks hooks = {fuzz__hook_bytes, fuzz__hook_int, NULL};
    bool finding = false;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_fuzz_run_one(g_fz, data, size, sg_fuzz_extra_counters, &hooks, &finding, &d);
    if (st != SG_OK) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s: %s", sg_strerror(st), d.message);
        fuzz__emit_error(msg);
        fuzz__cleanup();
        _exit(3); /* not exit(): libFuzzer would call that a crash of the target */
    }
    if (finding) {
        fuzz__emit_result();
        fuzz__cleanup();
        _exit(0);
    }
    return 0;
}

static sg_status fuzz__write_seed(void *ctx, const uint8_t *bytes, size_t n)
{
    unsigned *k = ctx;
    char path[128];
    snprintf(path, sizeof path, "%s/seeds/seed-%u", g_tmp, (*k)++);
    FILE *f = fopen(path, "wb");
    if (!f)
        return SG_ERR_IO;
    size_t w = fwrite(bytes, 1, n, f);
    if (fclose(f) != 0 || w != n)
        return SG_ERR_IO;
    return SG_OK;
}

static int fuzz__fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fuzz__fail(const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fuzz__emit_error(msg);
    fuzz__cleanup();
    return 3;
}

int main(int argc, char **argv)
{
    const char *task_id = NULL, *suite = NULL, *corpus = NULL, *interp = NULL;
    double seconds = 10, input_timeout = 0;
    long long runs = -1;
    bool completion = false;
    static const struct option longopts[] = {
        {"task", required_argument, NULL, 't'},     {"suite", required_argument, NULL, 's'},
        {"time", required_argument, NULL, 'T'},     {"runs", required_argument, NULL, 'r'},
        {"corpus", required_argument, NULL, 'c'},   {"seed", required_argument, NULL, 'S'},
        {"input-timeout", required_argument, NULL, 'i'}, {"interpreter", required_argument, NULL, 'I'},
        {"completion", no_argument, NULL, 'C'},     {NULL, 0, NULL, 0}};
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 't': task_id = optarg; break;
        case 's': suite = optarg; break;
        case 'c': corpus = optarg; break;
        case 'I': interp = optarg; break;
        case 'C': completion = true; break;
        case 'T':
            seconds = strtod(optarg, &end);
            if (*end || !(seconds > 0) || seconds > 86400)
                return fuzz__fail("--time: not a duration in seconds: %s", optarg);
            break;
        case 'i':
            input_timeout = strtod(optarg, &end);
            if (*end || !(input_timeout > 0) || input_timeout > 60)
                return fuzz__fail("--input-timeout: not a duration in seconds (0..60]: %s", optarg);
            break;
        case 'r':
            errno = 0;
            runs = strtoll(optarg, &end, 10);
            if (*end || errno || runs < 0)
                return fuzz__fail("--runs: not a count: %s", optarg);
            break;
        case 'S':
            errno = 0;
            g_seed = strtoull(optarg, &end, 10);
            if (*end || errno)
                return fuzz__fail("--seed: not a number: %s", optarg);
            break;
        default:
            return fuzz__fail("usage: snipgate-fuzz --task ID [--suite FILE] [--time S] [--runs N] [--corpus DIR] "
                              "[--seed K] < candidate");
        }
    }
    if (!task_id)
        return fuzz__fail("--task is required");
    clock_gettime(CLOCK_MONOTONIC, &g_t0);
    signal(SIGPIPE, SIG_IGN); /* a dead sandbox's pipe is an error return, not a signal */
    sg_diag d;
    sg_diag_init(&d);
    const sg_golden_task *task = NULL;
    if (suite) {
        if (sg_golden_suite_load_file(suite, &g_suite, &d) != SG_OK)
            return fuzz__fail("%s", d.message);
        task = sg_golden_suite_find(g_suite, task_id);
    } else {
        task = sg_golden_builtin_task(task_id);
    }
    if (!task)
        return fuzz__fail("no task %s in %s", task_id, suite ? suite : "the built-in suite");
    char *src = NULL;
    size_t len = 0;
    if (sg_read_input(NULL, 8u << 20, &src, &len, &d) != SG_OK)
        return fuzz__fail("cannot read the candidate: %s", d.message);
    if (sg_sandbox_new(interp, &g_sb, &d) != SG_OK) {
        free(src);
        return fuzz__fail("cannot make the sandbox: %s", d.message);
    }
    sg_fuzz_opts fo;
    sg_fuzz_opts_init(&fo);
    fo.completion = completion;
    fo.input_timeout_s = input_timeout;
    sg_status st = sg_fuzz_new(g_sb, task, src, len, &fo, &g_fz, &d);
    free(src);
    if (st != SG_OK)
        return fuzz__fail("%s: %s", sg_strerror(st), d.message);
    if (sg_fuzz_counters() != FUZZ_NCOUNTERS)
        return fuzz__fail("internal: counter sizes differ");

    /* seeds and dictionary in a private temporary directory */
    snprintf(g_tmp, sizeof g_tmp, "/tmp/snipgate-fuzz-XXXXXX");
    if (!mkdtemp(g_tmp)) {
        g_tmp[0] = '\0';
        return fuzz__fail("cannot make a temporary directory: %s", strerror(errno));
    }
    char seeds[128], fresh[128], dict[128], artifacts[128];
    snprintf(seeds, sizeof seeds, "%s/seeds", g_tmp);
    snprintf(fresh, sizeof fresh, "%s/new", g_tmp);
    snprintf(dict, sizeof dict, "%s/dict", g_tmp);
    snprintf(artifacts, sizeof artifacts, "%s/", g_tmp);
    if (mkdir(seeds, 0700) < 0 || mkdir(fresh, 0700) < 0)
        return fuzz__fail("cannot make a temporary directory: %s", strerror(errno));
    if (corpus && mkdir(corpus, 0755) < 0 && errno != EEXIST)
        return fuzz__fail("--corpus %s: %s", corpus, strerror(errno));
    unsigned nseeds = 0;
    if (sg_fuzz_seeds(g_fz, fuzz__write_seed, &nseeds) != SG_OK)
        return fuzz__fail("cannot write the seed inputs");
    char *dtext = NULL;
    if (sg_fuzz_dictionary(g_fz, &dtext) != SG_OK)
        return fuzz__fail("out of memory");
    FILE *df = fopen(dict, "w");
    bool dict_ok = df && fputs(dtext, df) >= 0;
    bool has_entries = strchr(dtext, '"') != NULL;
    free(dtext);
    if (!df || fclose(df) != 0 || !dict_ok)
        return fuzz__fail("cannot write the dictionary");

    char a_time[64], a_runs[64], a_seed[64], a_dict[160], a_art[160];
    snprintf(a_time, sizeof a_time, "-max_total_time=%d", (int)(seconds + 0.999));
    snprintf(a_runs, sizeof a_runs, "-runs=%lld", runs);
    snprintf(a_seed, sizeof a_seed, "-seed=%llu", (unsigned long long)(g_seed ? g_seed : 1));
    snprintf(a_dict, sizeof a_dict, "-dict=%s", dict);
    snprintf(a_art, sizeof a_art, "-artifact_prefix=%s", artifacts);
    char *fargv[16];
    int fargc = 0;
    fargv[fargc++] = argv[0];
    fargv[fargc++] = a_time;
    fargv[fargc++] = a_runs;
    fargv[fargc++] = a_seed;
    fargv[fargc++] = "-timeout=0";   /* the sandbox enforces the per-input limits */
    fargv[fargc++] = "-max_len=512";
    fargv[fargc++] = "-rss_limit_mb=0";
    fargv[fargc++] = a_art;
    if (has_entries)
        fargv[fargc++] = a_dict;
    fargv[fargc++] = corpus ? (char *)corpus : fresh; /* new inputs go to the first directory */
    fargv[fargc++] = seeds;
    fargv[fargc] = NULL;
    char **fa = fargv;
    atexit(fuzz__at_exit);
    LLVMFuzzerRunDriver(&fargc, &fa, fuzz__one);
    return 0; /* (libFuzzer exits itself) */
}
