/* `snipgate check` and `snipgate rules`: the static gate from the command line. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pipeline.h"
#include "snipgate/snipgate.h"

#define CHECK_MAX_FILES 1000000

typedef struct check__opts {
    sg_rules *rules;
    sg_options opts;
    sg_format format;
    const char *output;
    const char *stdin_name;
    long jobs;
    int color; /* -1 auto */
    /* stage 3: with --task or --tests, each file that passes the static gate runs on the task */
    sg_cli_golden golden;
    bool stdin_used;           /* an input is "-" */
    bool allow_empty;          /* --allow-empty: nothing to check is a pass (a pre-commit hook) */
    const sg_golden_task *task;
    const char *task_label;
    sg_golden_opts gopts;
    sg_sandbox *sandbox;       /* NULL when it could not be set up (sandbox_error says why) */
    sg_cli_fuzz fuzz;          /* stage 4: --fuzz, --fuzz-runs, --fuzz-corpus */
    bool fuzz_on;              /* those, or the task's fuzz.stage_seconds / stage_runs */
    char sandbox_error[600];
} check__opts;

static void check__help(FILE *out)
{
    fputs("usage: snipgate check [options] PATH... (or - for stdin)\n"
          "\n"
          "Statically check Python files, directories (recursively, *.py), Markdown / LLM output\n"
          "(```python, ```py and unlabeled fences that parse as Python) or stdin.\n"
          "\n"
          "options:\n"
          "  --format text|json|sarif|gitlab  output format (default text; gitlab: a GitLab SAST report,\n"
          "                             gl-sast-report.json)\n"
          "  -o, --output FILE          write the verdict to FILE instead of stdout\n"
          "  --config FILE              the policy file: .snipgate.yml, or a .toml file's [tool.snipgate] (default:\n"
          "                             the nearest directory upwards with a .snipgate.yml, or else a\n"
          "                             pyproject.toml holding [tool.snipgate]; docs/policy.md). Options\n"
          "                             given here win over it; lists (rules, disabled rules, hosts) add up\n"
          "  --no-config                use no policy file\n"
          "  --changed-since REV        check only the inputs changed since the merge base of REV and HEAD\n"
          "                             (committed, uncommitted and untracked files; git); without a PATH,\n"
          "                             the whole repository\n"
          "  --exit-zero                exit 0 when the verdict is block (it is still reported); errors keep\n"
          "                             their exit codes\n"
          "  --allow-empty              nothing to check (only Markdown without Python, or only files the\n"
          "                             policy excludes) exits 0 with a note instead of 2 (the pre-commit hook)\n"
          "  --baseline FILE            a previous JSON verdict (--format json): its findings are reported as\n"
          "                             [baseline] and do not block; only new ones do (matched by path, rule\n"
          "                             and source line, wherever the line moved)\n"
          "  --fail-on SEVERITY         block on findings at or above low|medium|high|critical (default medium)\n"
          "  --rules FILE               load a YAML rule pack on top of the default (repeatable;\n"
          "                             a rule with an existing id replaces it)\n"
          "  --no-default-rules         start from an empty rule set\n"
          "  --disable ID[,ID...]       disable rules by id (repeatable)\n"
          "  --allow-host HOST          allow network calls to HOST or *.DOMAIN (repeatable), on any port;\n"
          "                             '*' and HOST:PORT are refused\n"
          "  --honor-suppressions       let # nosec SG201 / # noqa: SG201 silence the rules they name on their\n"
          "                             line (a bare marker or another tool's code silences nothing; off by\n"
          "                             default: generated code must not switch the gate off)\n"
          "  --line-offset N            add N to every reported line (snippet cut from a larger file)\n"
          "  --lang auto|python|markdown  how to read inputs (default auto: by extension, then content)\n"
          "  --max-bytes N              refuse inputs and rule packs larger than N (default 8M; units as\n"
          "                             run --memory: 512K, 8M, 1G, 100B; a bare number is bytes)\n"
          "  --max-depth N              block code nested deeper than N syntax levels (default 400)\n"
          "  --parse-steps N            block code whose parse takes more than N tree-sitter parser steps\n"
          "                             (default 64000000: any valid file under the 8M input cap fits; a\n"
          "                             syntax error gets N/16 steps of recovery). Counted in work, so the\n"
          "                             same input gets the same verdict on any machine and load\n"
          "  --parse-cpu T              also stop a parse after T of CPU time of the checking thread (60s,\n"
          "                             500ms; default 60s): a backstop for text far outside valid code,\n"
          "                             whose error recovery can cost 20x more per step; valid code within\n"
          "                             --parse-steps parses in a fraction of it (--parse-timeout MS: the\n"
          "                             same, in milliseconds)\n"
          "  --stdin-name NAME          name stdin in reports (default <stdin>)\n"
          "  -j, --jobs N               check files with N threads (default: online CPUs)\n"
          "  --color / --no-color       colour text output (default: when stdout is a terminal)\n"
          "\n"
          "golden tasks (stage 3: each file that passes the static gate runs in the sandbox on a task;\n"
          "a file the static gate blocks is never run):\n"
          "  --task ID                  a built-in task (sg/<name>, compiled in), or with --suite a task of that file\n"
          "  --suite FILE               the task file for --task: JSONL in snipgate's format, HumanEval, MBPP or\n"
          "                             MBPP+/EvalPlus, loaded as it is (docs/tasks.md)\n"
          "  --tests FILE               plain assertions against the snippet: every top-level `assert` of FILE is\n"
          "                             one case (`assert f(2) == 4`); its other statements are setup code. The\n"
          "                             functions under test are the names the asserts call that FILE does not\n"
          "                             define or import (the snippet must define them)\n"
          "  --completion               FILE continues the task's prompt (HumanEval-style completion): the\n"
          "                             program checked and run is prompt + FILE; lines are FILE's\n"
          "  --seed N                   seed of the generated inputs (0..2^63-1; default: the task's, else\n"
          "                             0x5eed); reported in the output, so that a failure replays\n"
          "  --property-budget B        generated inputs per file: N (1..100000), and/or T, a cap on the search\n"
          "                             time (10s, 500ms; at most 600s): 500 | 20s | 500,20s. Reaching the cap\n"
          "                             is an error (the gate could not judge: exit 3), never a pass on fewer\n"
          "                             inputs. Default: 200 inputs (the task's fuzz.max_inputs when smaller),\n"
          "                             the task's cap (fuzz.max_seconds, default 30s)\n"
          "  --no-properties            known answers only: no generated inputs, no shrinking\n"
          "  --interpreter P            absolute path of the Python interpreter (default /usr/bin/python3)\n"
          "  --fuzz DURATION            stage 4, after the golden stage passes: fuzz the task's entry point with\n"
          "                             libFuzzer, guided by the candidate's Python coverage (10s, 500ms, 2m);\n"
          "                             a finding blocks (SG-FUZZ): an undeclared exception, a hang, a crash, a\n"
          "                             memory blow-up, a forbidden system call, or a different answer than the\n"
          "                             reference. Also run with a fuzz budget in the policy (budgets.fuzz_seconds,\n"
          "                             fuzz_runs) or the task (fuzz.stage_seconds, stage_runs); these flags win\n"
          "  --fuzz-runs N              stop after N fuzz inputs (with --fuzz: whichever comes first)\n"
          "  --fuzz-corpus DIR          keep the inputs that found new coverage in DIR and start from them\n"
          "                             (per task: later candidates for the same task start from there)\n"
          "  A case reports its input, expected and got, or the exception with its line in the snippet;\n"
          "  a hang is a timeout of that case. Failing cases block (SG-GOLDEN), and so do failing\n"
          "  properties, shown as a shrunk counterexample (SG-PROPERTY).\n"
          "\n"
          "exit: 0 pass, 1 blocked, 2 bad usage or unreadable input (also: an unknown task id, an unreadable\n"
          "or malformed suite or tests file), 3 internal error (also: the golden stage could not judge a\n"
          "file, e.g. the sandbox could not be set up; never a pass)\n",
          out);
}

/* Options shared by `check`, `rules` and `eval`: returns 0, or an exit code. */
int sg_cli_rules_opt(int c, const char *arg, bool *no_default, char ***packs, size_t *npacks, char ***disables,
                     size_t *ndisables, char ***hosts, size_t *nhosts)
{
    switch (c) {
    case 'R': {
        char **p = realloc(*packs, (*npacks + 1) * sizeof *p);
        if (!p)
            return SG_EXIT_INTERNAL;
        p[(*npacks)++] = (char *)arg;
        *packs = p;
        return 0;
    }
    case 'N':
        *no_default = true;
        return 0;
    case 'D': {
        char **p = realloc(*disables, (*ndisables + 1) * sizeof *p);
        if (!p)
            return SG_EXIT_INTERNAL;
        p[(*ndisables)++] = (char *)arg;
        *disables = p;
        return 0;
    }
    case 'A': {
        char **p = realloc(*hosts, (*nhosts + 1) * sizeof *p);
        if (!p)
            return SG_EXIT_INTERNAL;
        p[(*nhosts)++] = (char *)arg;
        *hosts = p;
        return 0;
    }
    }
    return SG_EXIT_USAGE;
}

/* Build the rule set from the parsed options; prints an error and returns an exit code on failure. */
int sg_cli_build_rules(const char *verb, bool no_default, char **packs, size_t npacks, char **disables,
                       size_t ndisables, char **hosts, size_t nhosts, size_t max_bytes, sg_rules **ret)
{
    sg_rules *rules = NULL;
    sg_status st = no_default ? sg_rules_new_empty(&rules) : sg_rules_new_default(&rules);
    if (st) {
        sg_cli_error(verb, "cannot load the default rules: %s", sg_strerror(st));
        return SG_EXIT_INTERNAL;
    }
    sg_diag d;
    for (size_t i = 0; i < npacks; i++) {
        sg_diag_init(&d);
        st = sg_rules_load_file_max(rules, packs[i], max_bytes, false, &d);
        if (st) {
            if (d.line)
                sg_cli_error(verb, "%s:%ld:%ld: %s", packs[i], d.line, d.column, d.message);
            else
                sg_cli_error(verb, "%s: %s", packs[i], d.message[0] ? d.message : sg_strerror(st));
            sg_rules_free(rules);
            return st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
        }
    }
    for (size_t i = 0; i < ndisables; i++) {
        char *list = strdup(disables[i]);
        if (!list) {
            sg_rules_free(rules);
            return SG_EXIT_INTERNAL;
        }
        char *save = NULL;
        for (char *id = strtok_r(list, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
            sg_diag_init(&d);
            st = sg_rules_disable(rules, id, &d);
            if (st) {
                sg_cli_error(verb, "--disable: %s", d.message);
                free(list);
                sg_rules_free(rules);
                return SG_EXIT_USAGE;
            }
        }
        free(list);
    }
    for (size_t i = 0; i < nhosts; i++) {
        /* refused rather than silently matching nothing */
        if (!strcmp(hosts[i], "*") || strchr(hosts[i], ':')) {
            sg_cli_error(verb, "--allow-host / network.allow_hosts: '%s' is refused: %s", hosts[i],
                         hosts[i][0] == '*' && !hosts[i][1]
                             ? "allowing every host is turning the network rules off; disable them by id instead "
                               "(--disable, `snipgate rules` lists them)"
                             : "give the host without a port (api.example.com): an allowed host is allowed on every "
                               "port");
            sg_rules_free(rules);
            return SG_EXIT_USAGE;
        }
        st = sg_rules_allow_host(rules, hosts[i]);
        if (st) {
            sg_cli_error(verb, "--allow-host: '%s' is not a host name (use example.com or *.example.com)", hosts[i]);
            sg_rules_free(rules);
            return st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
        }
    }
    *ret = rules;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Inputs                                                                                       */

typedef struct check__input {
    char *path;    /* NULL for stdin */
    bool walked;   /* found in a directory walk (Markdown without Python there is skipped) */
    bool skipped;  /* nothing to check: left out of the verdict */
    sg_report *report;
} check__input;

typedef struct check__list {
    check__input *items;
    size_t len, cap;
    bool overflow;
} check__list;

static int check__push(check__list *l, char *path, bool walked)
{
    if (l->len >= CHECK_MAX_FILES) {
        l->overflow = true;
        free(path);
        return 0;
    }
    if (l->len == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        check__input *p = realloc(l->items, nc * sizeof *p);
        if (!p) {
            free(path);
            return -1;
        }
        l->items = p;
        l->cap = nc;
    }
    l->items[l->len++] = (check__input){path, walked, false, NULL};
    return 0;
}

static int check__cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Recursively collect *.py, *.pyw, *.md and *.markdown files below dir, in sorted order, without following symlinks. */
static int check__walk(check__list *l, const char *dir, int depth, const sg_policy *policy, size_t *excluded)
{
    if (depth > 64)
        return 0;
    char **names = NULL;
    size_t n = 0;
    int rc = sg_cli_dir_names(dir, &names, &n);
    if (rc == -1)
        return check__push(l, strdup(dir), false); /* reported as unreadable when checked */
    if (rc)
        return -1;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(len);
        if (!p) {
            rc = -1;
            break;
        }
        snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (lstat(p, &st) != 0 || S_ISLNK(st.st_mode)) {
            free(p);
            continue;
        }
        if (sg_policy_excludes(policy, p)) {
            (*excluded)++;
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            /* hidden directories (.git, .venv) are not the snippet's; hidden .py files are */
            if (names[i][0] != '.')
                rc = check__walk(l, p, depth + 1, policy, excluded);
            free(p);
        } else if (S_ISREG(st.st_mode)) {
            const char *dot = strrchr(names[i], '.');
            /* Python, and Markdown (LLM answers are often saved as .md): its fences are checked */
            if (dot && (!strcmp(dot, ".py") || !strcmp(dot, ".pyw") || !strcmp(dot, ".md") ||
                        !strcmp(dot, ".markdown")))
                rc = check__push(l, p, true);
            else
                free(p);
        } else {
            /* a FIFO, socket or device would block or never end: never opened, said once */
            const char *dot = strrchr(names[i], '.');
            if (dot && (!strcmp(dot, ".py") || !strcmp(dot, ".pyw") || !strcmp(dot, ".md") ||
                        !strcmp(dot, ".markdown")))
                fprintf(stderr, "snipgate: check: note: %s: not a regular file (a FIFO, socket or device): skipped\n",
                        p);
            free(p);
        }
    }
    sg_cli_free_names(names, n);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Checking, in parallel                                                                        */

typedef struct check__pool {
    check__opts *co;
    check__list *list;
    size_t *order; /* indices into list, largest file first (NULL: list order) */
    size_t next;
    pthread_mutex_t lock;
    sg_status fatal;
} check__pool;

/* Stage 3 on a checked document (`buf`: what the checker saw). The report records the result, a
 * skipped stage (the static gate blocked) or why the stage could not run. */
static sg_status check__golden(check__opts *co, sg_report *rep, const char *buf, size_t len)
{
    if (!co->sandbox)
        return sg_report_golden_error(rep, co->task_label, co->sandbox_error);
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_report_run_golden(rep, co->sandbox, co->task, co->task_label, buf, len, &co->gopts, &d);
    if (st == SG_ERR_NOMEM)
        return st;
    if (st != SG_OK) {
        char why[700];
        snprintf(why, sizeof why, "%s: %s", sg_strerror(st), d.message[0] ? d.message : "the stage did not run");
        return sg_report_golden_error(rep, co->task_label, why);
    }
    return SG_OK;
}

static bool check__py_name(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    return dot && (!strcmp(dot, ".py") || !strcmp(dot, ".pyw") || !strcmp(dot, ".pyi"));
}

static sg_report *check__one(sg_checker *checker, check__opts *co, const char *path, bool walked)
{
    sg_diag d;
    sg_diag_init(&d);
    char *buf = NULL, *prog = NULL;
    size_t len = 0;
    sg_status st;
    const char *label = path ? path : (co->stdin_name ? co->stdin_name : "<stdin>");
    struct stat sb;
    if (path && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        /* a FIFO, socket or device would block or never end: an input error, never a hang */
        d.status = st = SG_ERR_IO;
        d.sys_errno = ESPIPE;
        snprintf(d.path, sizeof d.path, "%s", path);
        snprintf(d.message, sizeof d.message, "not a regular file (a FIFO, socket or device): not read");
    } else {
        st = sg_read_input(path, co->opts.max_bytes, &buf, &len, &d);
    }
    sg_report *rep = NULL;
    const char *text = buf;
    size_t tlen = len;
    if (st == SG_OK && co->task && co->golden.completion && !memchr(buf, 0, len)) {
        /* a completion: the program that runs, prompt + FILE, is the one the static gate checks
         * (the checker's line offset takes the prompt's lines away again) */
        if (!(prog = sg_golden_task_candidate_source(co->task, buf)))
            st = SG_ERR_NOMEM;
        text = prog;
        tlen = prog ? strlen(prog) : 0;
    }
    if (st == SG_OK)
        st = sg_checker_check(checker, label, text, tlen, &rep, &d);
    if (st == SG_OK && co->task && check__golden(co, rep, text, tlen) != SG_OK) {
        sg_report_free(rep);
        rep = NULL;
        free(buf);
        free(prog);
        return NULL; /* out of memory: fatal */
    }
    if (st == SG_OK && co->fuzz_on &&
        sg_cli_fuzz_report(&co->fuzz, &co->golden, &co->gopts, co->task, co->task_label, rep, text, tlen) != SG_OK) {
        sg_report_free(rep);
        rep = NULL;
        free(buf);
        free(prog);
        return NULL; /* out of memory: fatal */
    }
    free(buf);
    free(prog);
    /* An empty (or blank) Python file is a valid module: it passes, named or walked. Markdown
     * without Python is an input error when named ("no_python"), and skipped in a walk. */
    if (st == SG_ERR_EMPTY && strcmp(sg_diag_code(&d), "no_python") &&
        (co->opts.input_kind == SG_INPUT_PYTHON || check__py_name(path))) {
        if (sg_report_new_empty(label, &rep) != SG_OK)
            return NULL;
        /* With a task, the empty module is still the candidate: it defines nothing, so its cases
         * fail (a run that checked nothing is not a pass). The golden stage refuses empty text, so
         * it runs the module that is the same as an empty one, `pass`. */
        if (co->task && check__golden(co, rep, "pass\n", 5) != SG_OK) {
            sg_report_free(rep);
            return NULL;
        }
        return rep;
    }
    if (st != SG_OK) {
        if (d.status == SG_OK) {
            d.status = st;
            snprintf(d.message, sizeof d.message, "%s", sg_strerror(st));
        }
        if (sg_report_new_error(label, &d, &rep) != SG_OK)
            return NULL;
        /* the stage was asked for: the verdict says it was skipped (nothing ran) */
        if (co->task && check__golden(co, rep, NULL, 0) != SG_OK) {
            sg_report_free(rep);
            return NULL;
        }
    }
    return rep;
}

static void *check__worker(void *arg)
{
    check__pool *p = arg;
    sg_checker *checker = NULL;
    if (sg_checker_new(p->co->rules, &p->co->opts, &checker) != SG_OK) {
        pthread_mutex_lock(&p->lock);
        p->fatal = SG_ERR_INTERNAL;
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->list->len)
            break;
        if (p->order)
            i = p->order[i];
        check__input *in = &p->list->items[i];
        in->report = check__one(checker, p->co, in->path, in->walked);
        const sg_diag *d;
        if (in->report && (in->walked || p->co->allow_empty) && sg_report_error(in->report, &d) == SG_ERR_EMPTY) {
            /* (empty) Markdown without Python met in a walk, or named with --allow-empty: nothing
             * to check */
            in->skipped = true;
            sg_report_free(in->report);
            in->report = NULL;
        } else if (!in->report) {
            pthread_mutex_lock(&p->lock);
            p->fatal = SG_ERR_NOMEM;
            pthread_mutex_unlock(&p->lock);
        }
    }
    sg_checker_free(checker);
    return NULL;
}

static const off_t *check__sizes; /* for check__by_size, set around one qsort */

static int check__by_size(const void *a, const void *b)
{
    off_t x = check__sizes[*(const size_t *)a], y = check__sizes[*(const size_t *)b];
    return x > y ? -1 : x < y ? 1 : 0;
}

static double check__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The task of --task / --suite / --tests (nothing without them). Prints an error and returns an
 * exit code when the options do not fit together or the task cannot be loaded; nothing has run. */
static int check__load_task(check__opts *co, sg_golden_suite **ret_suite)
{
    sg_cli_golden *g = &co->golden;
    if (g->tests_path && g->task_id) {
        sg_cli_error("check", "--tests and --task exclude each other (a tests file is its own task)");
        return SG_EXIT_USAGE;
    }
    if (g->suite_path && !g->task_id) {
        sg_cli_error("check", "--suite needs --task ID (which task of %s)", g->suite_path);
        return SG_EXIT_USAGE;
    }
    if (!g->task_id && !g->tests_path) {
        if (g->tuned || g->completion || g->interpreter) {
            sg_cli_error("check", "--seed, --property-budget, --no-properties, --completion and --interpreter "
                                  "need --task or --tests");
            return SG_EXIT_USAGE;
        }
        return 0;
    }
    if (g->completion && g->tests_path) {
        sg_cli_error("check", "--completion needs a task with a prompt (--task), not --tests");
        return SG_EXIT_USAGE;
    }
    if (g->tests_path && !strcmp(g->tests_path, "-") && co->stdin_used) {
        sg_cli_error("check", "stdin (-) cannot be both an input and the --tests file");
        return SG_EXIT_USAGE;
    }
    if (g->tests_path) {
        sg_diag d;
        sg_diag_init(&d);
        char *buf = NULL;
        size_t len = 0;
        sg_status st = sg_read_input(strcmp(g->tests_path, "-") ? g->tests_path : NULL, co->opts.max_bytes, &buf,
                                     &len, &d);
        if (st != SG_OK) {
            sg_cli_error("check", "--tests: cannot read %s: %s", g->tests_path, d.message[0] ? d.message : sg_strerror(st));
            return st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
        }
        st = sg_golden_suite_from_asserts(g->tests_path, buf, len, ret_suite, &d);
        free(buf);
        if (st != SG_OK) {
            sg_cli_error("check", "--tests: %s", d.message[0] ? d.message : sg_strerror(st)); /* FILE:LINE: why */
            return st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
        }
        co->task = sg_golden_suite_task(*ret_suite, 0);
        co->task_label = g->tests_path;
    } else if (g->suite_path) {
        int rc = sg_cli_load_suite("check", g->suite_path, ret_suite);
        if (rc)
            return rc;
        if (!(co->task = sg_golden_suite_find(*ret_suite, g->task_id))) {
            sg_cli_error("check", "--task: %s has no task '%s' (%zu tasks)", g->suite_path, g->task_id,
                         sg_golden_suite_count(*ret_suite));
            return SG_EXIT_USAGE;
        }
        co->task_label = g->task_id;
    } else {
        const sg_golden_suite *builtin = NULL;
        sg_diag d;
        sg_diag_init(&d);
        if (sg_golden_builtin_suite(&builtin, &d) != SG_OK) {
            sg_cli_error("check", "the built-in suite does not load: %s", d.message);
            return SG_EXIT_INTERNAL;
        }
        if (!(co->task = sg_golden_suite_find(builtin, g->task_id))) {
            sg_cli_error("check", "--task: no built-in task '%s'%s", g->task_id,
                         strncmp(g->task_id, "sg/", 3) ? " (built-in ids are sg/<name>; --suite FILE for a task "
                                                         "of your own)"
                                                       : "");
            /* near misses: built-in ids that contain the name asked for */
            const char *want = strncmp(g->task_id, "sg/", 3) ? g->task_id : g->task_id + 3;
            size_t shown = 0;
            for (size_t k = 0; k < sg_golden_suite_count(builtin) && shown < 8 && *want; k++) {
                const char *id = sg_golden_task_id(sg_golden_suite_task(builtin, k));
                if (strstr(id, want))
                    fprintf(stderr, "%s  %s\n", shown++ ? "" : "snipgate: check: did you mean:\n", id);
            }
            return SG_EXIT_USAGE;
        }
        co->task_label = g->task_id;
    }
    if (g->completion && !sg_golden_task_completes_prompt(co->task))
        fprintf(stderr, "snipgate: check: note: task %s takes whole programs; --completion changes nothing\n",
                co->task_label);
    if (g->completion) {
        co->opts.line_offset -= sg_golden_task_prompt_lines(co->task);
        co->opts.input_kind = SG_INPUT_PYTHON; /* a completion is Python text, whatever its name */
    }
    sg_cli_golden_task_opts(g, co->task, &co->gopts);
    co->gopts.keep_passing = true; /* the verdict lists every case, passing ones too */
    return 0;
}

enum {
    OPT_FORMAT = 1000, OPT_FAIL_ON, OPT_HONOR, OPT_OFFSET, OPT_LANG, OPT_MAX_BYTES, OPT_MAX_DEPTH, OPT_STDIN_NAME,
    OPT_COLOR, OPT_NO_COLOR, OPT_PARSE_TIMEOUT, OPT_EXPLAIN, OPT_CRITERIA, OPT_CONFIG, OPT_NO_CONFIG, OPT_PARSE_CPU, OPT_BASELINE, OPT_CHANGED_SINCE, OPT_PARSE_STEPS, OPT_EXIT_ZERO, OPT_ALLOW_EMPTY,
};

/* The policy: --config FILE, else .snipgate.yml or pyproject.toml's [tool.snipgate] from the
 * current directory upwards (sg_policy_find; none with
 * --no-config). Prints the error (FILE:LINE:COL: why) and returns an exit code on failure. */
static int check__policy(check__opts *co, const char *config, bool no_config, sg_policy **ret)
{
    (void)co;
    *ret = NULL;
    if (no_config)
        return 0;
    char *found = NULL;
    if (!config) {
        sg_status fst = sg_policy_find(".", &found);
        if (fst == SG_ERR_NOMEM)
            return SG_EXIT_INTERNAL;
        if (!found)
            return 0;
    }
    const char *path = config ? config : found;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_policy_load_file(path, ret, &d);
    int rc = 0;
    if (st) {
        if (d.line)
            sg_cli_error("check", "%s:%ld:%ld: %s", path, d.line, d.column, d.message);
        else
            sg_cli_error("check", "%s: %s", path, d.message[0] ? d.message : sg_strerror(st));
        rc = st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
    }
    free(found);
    return rc;
}

/* Run git with `argv` (no shell), its stdout into a malloc'd NUL-terminated buffer. Returns the
 * exit status (-1 if it could not run). */
static int check__git(char *const argv[], char **ret_out, size_t *ret_len, bool quiet)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        if (quiet) { /* ("not a git repository" is an answer here, not an error) */
            int dn = open("/dev/null", O_WRONLY | O_CLOEXEC);
            if (dn >= 0)
                dup2(dn, STDERR_FILENO);
        }
        execvp("git", argv);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    ssize_t r = 0;
    while (buf && (r = read(fds[0], buf + len, cap - len - 1)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        len += (size_t)r;
        if (cap - len < 2) {
            char *nb = cap < (256u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!buf)
        return -2; /* out of memory */
    buf[len] = 0;
    *ret_out = buf;
    *ret_len = len;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The top level of the git work tree around the current directory (malloc'd), or NULL (none, or
 * out of memory: *ret_nomem, so that an allocation failure is an error, never a verdict made
 * without the root). */
static char *check__git_top(bool *ret_nomem)
{
    char *out = NULL;
    size_t len = 0;
    char *cmd[] = {"git", "rev-parse", "--show-toplevel", NULL};
    int rc = check__git(cmd, &out, &len, true);
    if (rc != 0 || !len) {
        *ret_nomem = rc == -2;
        free(out);
        return NULL;
    }
    out[strcspn(out, "\n")] = 0;
    return out;
}

/* The top level of the work tree around the current directory for naming paths (malloc'd), or
 * NULL: the nearest directory upwards that holds a `.git` entry (a directory, or a worktree's
 * file), or $GIT_WORK_TREE. Found with a few lstat calls, not a git process: `check --format
 * json` runs it every time. Out of memory: NULL with *ret_nomem. */
static char *check__work_tree(bool *ret_nomem)
{
    *ret_nomem = false;
    const char *wt = getenv("GIT_WORK_TREE");
    char buf[PATH_MAX + 8];
    if (wt && wt[0]) {
        errno = 0;
        char *r = realpath(wt, NULL);
        *ret_nomem = !r && errno == ENOMEM;
        return r;
    }
    if (!getcwd(buf, PATH_MAX))
        return NULL;
    for (;;) {
        size_t n = strlen(buf);
        struct stat st;
        snprintf(buf + n, sizeof buf - n, "%s.git", n > 1 ? "/" : "");
        bool found = lstat(buf, &st) == 0;
        buf[n] = 0;
        if (found) {
            char *r = strdup(buf);
            *ret_nomem = !r;
            return r;
        }
        if (n <= 1)
            return NULL;
        char *slash = strrchr(buf, '/');
        if (!slash)
            return NULL;
        if (slash == buf)
            slash[1] = 0; /* the root */
        else
            *slash = 0;
    }
}

/* The files changed since REV: against the merge base of REV and HEAD (what a pull request
 * changed, not what its target branch did since), the working tree included, plus untracked
 * files. Real paths, sorted. Prints the error and returns an exit code on failure. */
static int check__changed_since(const char *rev, const char *top, char ***ret, size_t *ret_n)
{
    char *out = NULL;
    size_t len = 0;
    char *mb[] = {"git", "merge-base", (char *)rev, "HEAD", NULL};
    if (rev[0] == '-' || check__git(mb, &out, &len, false) != 0 || len < 7) {
        sg_cli_error("check", "--changed-since: no merge base of '%s' and HEAD (is this a git work tree, and "
                              "is %s a revision?)", rev, rev);
        free(out);
        return SG_EXIT_USAGE;
    }
    out[strcspn(out, "\n")] = 0;
    char base[128];
    snprintf(base, sizeof base, "%s", out);
    free(out);
    /* the whole repository (top: its top level, names relative to it), or what is under the
     * current directory (names relative to it) */
    char *diff_cwd[] = {"git", "diff", "--name-only", "-z", "--relative", "--diff-filter=ACMRT", base, "--", NULL};
    char *untracked_cwd[] = {"git", "ls-files", "-z", "--others", "--exclude-standard", NULL};
    char *diff_top[] = {"git", "-C", (char *)top, "diff", "--name-only", "-z", "--diff-filter=ACMRT", base, "--", NULL};
    char *untracked_top[] = {"git", "-C", (char *)top, "ls-files", "-z", "--others", "--exclude-standard", NULL};
    char **diff = top ? diff_top : diff_cwd, **untracked = top ? untracked_top : untracked_cwd;
    char **list = NULL;
    size_t n = 0, cap = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (check__git(pass ? untracked : diff, &out, &len, false) != 0) {
            sg_cli_error("check", "--changed-since: git %s failed", pass ? "ls-files" : "diff");
            free(out);
            goto out_fail;
        }
        for (size_t i = 0; i < len;) {
            const char *name = out + i;
            size_t l = strlen(name);
            i += l + 1;
            char joined[PATH_MAX];
            if (top && l && snprintf(joined, sizeof joined, "%s/%s", top, name) < (int)sizeof joined)
                name = joined;
            else if (top)
                continue;
            char *real = l ? realpath(name, NULL) : NULL;
            if (!real)
                continue; /* deleted since */
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                char **p = realloc(list, nc * sizeof *p);
                if (!p) {
                    free(real);
                    free(out);
                    goto out_fail;
                }
                list = p;
                cap = nc;
            }
            list[n++] = real;
        }
        free(out);
    }
    if (n)
        qsort(list, n, sizeof *list, check__cmpstr);
    *ret = list;
    *ret_n = n;
    return 0;
out_fail:
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
    return SG_EXIT_USAGE;
}

/* Append `n` borrowed strings to a list of option values. */
static int check__merge(char ***list, size_t *len, const char *const *add, size_t n)
{
    if (!n)
        return 0;
    char **p = realloc(*list, (*len + n) * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[(*len)++] = (char *)add[i];
    *list = p;
    return 0;
}

/* rules.enable: every rule not listed is disabled (the built-in checks that cannot be stay). */
int sg_cli_enable_only(const char *verb, sg_rules *rules, const sg_policy_info *pi)
{
    for (size_t k = 0; k < pi->n_enable; k++) {
        bool found = false;
        for (size_t i = 0; i < sg_rules_count(rules) && !found; i++)
            found = !strcmp(sg_rules_info(rules, i)->id, pi->enable[k]);
        if (!found) {
            sg_cli_error(verb, "%s: rules.enable: no rule with id '%s'", pi->path, pi->enable[k]);
            return SG_EXIT_USAGE;
        }
    }
    for (size_t i = 0; i < sg_rules_count(rules); i++) {
        const sg_rule_info *ri = sg_rules_info(rules, i);
        bool keep = false;
        for (size_t k = 0; k < pi->n_enable && !keep; k++)
            keep = !strcmp(ri->id, pi->enable[k]);
        if (!keep && ri->enabled) {
            sg_diag d;
            sg_diag_init(&d);
            sg_status st = sg_rules_disable(rules, ri->id, &d);
            if (st == SG_ERR_INVALID_ARG && !strcmp(ri->kind, "builtin"))
                continue; /* the checks that say a snippet could not be read stay on */
            if (st) {
                sg_cli_error(verb, "%s: rules.enable: %s", pi->path, d.message);
                return st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
            }
        }
    }
    return 0;
}

int sg_cli_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, OPT_FORMAT}, {"output", required_argument, NULL, 'o'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON}, {"rules", required_argument, NULL, 'R'},
        {"no-default-rules", no_argument, NULL, 'N'}, {"disable", required_argument, NULL, 'D'},
        {"allow-host", required_argument, NULL, 'A'}, {"honor-suppressions", no_argument, NULL, OPT_HONOR},
        {"line-offset", required_argument, NULL, OPT_OFFSET}, {"lang", required_argument, NULL, OPT_LANG},
        {"max-bytes", required_argument, NULL, OPT_MAX_BYTES}, {"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
        {"parse-timeout", required_argument, NULL, OPT_PARSE_TIMEOUT},
        {"parse-cpu", required_argument, NULL, OPT_PARSE_CPU},
        {"parse-steps", required_argument, NULL, OPT_PARSE_STEPS},
        {"stdin-name", required_argument, NULL, OPT_STDIN_NAME}, {"jobs", required_argument, NULL, 'j'},
        {"color", no_argument, NULL, OPT_COLOR}, {"no-color", no_argument, NULL, OPT_NO_COLOR},
        {"config", required_argument, NULL, OPT_CONFIG}, {"no-config", no_argument, NULL, OPT_NO_CONFIG},
        {"baseline", required_argument, NULL, OPT_BASELINE},
        {"changed-since", required_argument, NULL, OPT_CHANGED_SINCE},
        {"exit-zero", no_argument, NULL, OPT_EXIT_ZERO}, {"allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY},
        SG_CLI_GOLDEN_LONGOPTS, SG_CLI_FUZZ_LONGOPTS, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    check__opts co = {.format = SG_FORMAT_TEXT, .color = -1};
    sg_options_init(&co.opts);
    sg_cli_golden_init(&co.golden);
    sg_cli_fuzz_init(&co.fuzz);
    sg_golden_suite *suite = NULL;
    bool no_default = false;
    char **packs = NULL, **disables = NULL, **hosts = NULL;
    size_t npacks = 0, ndisables = 0, nhosts = 0;
    int rc = SG_EXIT_USAGE;
    check__list list = {0};
    FILE *out = stdout;
    const char *config = NULL;
    bool no_config = false, fail_on_given = false, max_bytes_given = false, max_depth_given = false,
         parse_cpu_given = false, parse_steps_given = false;
    sg_policy *policy = NULL;
    size_t excluded = 0;
    const char *baseline_path = NULL, *changed_since = NULL;
    bool exit_zero = false, honor_given = false;
    char *repo_top = NULL; /* --changed-since without a path: the repository's top level */
    char *path_root = NULL; /* the root of a verdict's and a baseline's paths (below) */
    char **changed = NULL;
    size_t nchanged = 0;
    sg_baseline *baseline = NULL;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    co.jobs = nproc > 0 ? nproc : 1;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:j:h", longopts, NULL)) != -1) {
        unsigned long ul;
        long l;
        switch (c) {
        case OPT_FORMAT:
            if (sg_format_parse(optarg, &co.format)) {
                sg_cli_error("check", "--format must be text, json, sarif or gitlab (got '%s')", optarg);
                goto out_free;
            }
            break;
        case 'o':
            co.output = optarg;
            break;
        case OPT_CONFIG:
            config = optarg;
            break;
        case OPT_BASELINE:
            baseline_path = optarg;
            break;
        case OPT_CHANGED_SINCE:
            changed_since = optarg;
            break;
        case OPT_EXIT_ZERO:
            exit_zero = true;
            break;
        case OPT_ALLOW_EMPTY:
            co.allow_empty = true;
            break;
        case OPT_NO_CONFIG:
            no_config = true;
            break;
        case OPT_FAIL_ON:
            fail_on_given = true;
            if (sg_severity_parse(optarg, &co.opts.fail_on)) {
                sg_cli_error("check", "--fail-on must be low, medium, high or critical (got '%s')", optarg);
                goto out_free;
            }
            break;
        case 'R': case 'N': case 'D': case 'A':
            if ((rc = sg_cli_rules_opt(c, optarg, &no_default, &packs, &npacks, &disables, &ndisables, &hosts,
                                       &nhosts)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case OPT_HONOR:
            co.opts.honor_suppressions = true;
            honor_given = true;
            break;
        case OPT_OFFSET:
            if (sg_cli_parse_long(optarg, -100000000L, 100000000L, &l)) {
                sg_cli_error("check", "--line-offset must be an integer (got '%s')", optarg);
                goto out_free;
            }
            co.opts.line_offset = l;
            break;
        case OPT_LANG:
            if (!strcmp(optarg, "auto"))
                co.opts.input_kind = SG_INPUT_AUTO;
            else if (!strcmp(optarg, "python"))
                co.opts.input_kind = SG_INPUT_PYTHON;
            else if (!strcmp(optarg, "markdown"))
                co.opts.input_kind = SG_INPUT_MARKDOWN;
            else {
                sg_cli_error("check", "--lang must be auto, python or markdown (got '%s')", optarg);
                goto out_free;
            }
            break;
        case OPT_MAX_BYTES: {
            max_bytes_given = true;
            uint64_t b = 0;
            if (sg_size_parse(optarg, 1, &b) || b == 0 || b > (1ULL << 31)) {
                sg_cli_error("check", "--max-bytes must be a size from 1 byte to 2G: 8388608, 512K, 8M (got '%s')",
                             optarg);
                goto out_free;
            }
            co.opts.max_bytes = (size_t)b;
            break;
        }
        case OPT_MAX_DEPTH:
            max_depth_given = true;
            if (sg_cli_parse_ulong(optarg, 100000, &ul) || ul < 8) {
                sg_cli_error("check", "--max-depth must be from 8 to 100000 (got '%s')", optarg);
                goto out_free;
            }
            co.opts.max_depth = (unsigned)ul;
            break;
        case OPT_PARSE_TIMEOUT:
            parse_cpu_given = true;
            if (sg_cli_parse_ulong(optarg, 3600000, &ul) || ul == 0) {
                sg_cli_error("check", "--parse-timeout must be from 1 to 3600000 ms of CPU time (got '%s')", optarg);
                goto out_free;
            }
            co.opts.parse_timeout_ms = (uint32_t)ul;
            break;
        case OPT_PARSE_STEPS:
            parse_steps_given = true;
            if (sg_cli_parse_ulong(optarg, 100000000000UL, &ul) || ul < 1000) {
                sg_cli_error("check", "--parse-steps must be a number of parser steps from 1000 to 100000000000 (got '%s')", optarg);
                goto out_free;
            }
            co.opts.parse_steps = ul;
            break;
        case OPT_PARSE_CPU: {
            double sec = 0;
            parse_cpu_given = true;
            if (sg_duration_parse(optarg, &sec) || sec * 1000 < 1) {
                sg_cli_error("check", "--parse-cpu must be a CPU time from 1ms to 3600s: 10s, 500ms (got '%s')", optarg);
                goto out_free;
            }
            co.opts.parse_timeout_ms = (uint32_t)(sec * 1000 + 0.5);
            break;
        }
        case OPT_STDIN_NAME:
            co.stdin_name = optarg;
            break;
        case 'j':
            if (sg_cli_parse_long(optarg, 1, 256, &l)) {
                sg_cli_error("check", "--jobs must be from 1 to 256 (got '%s')", optarg);
                goto out_free;
            }
            co.jobs = l;
            break;
        case OPT_COLOR:
            co.color = 1;
            break;
        case OPT_NO_COLOR:
            co.color = 0;
            break;
        case SG_OPT_TASK: case SG_OPT_SUITE: case SG_OPT_TESTS: case SG_OPT_SEED: case SG_OPT_BUDGET:
        case SG_OPT_NO_PROPERTIES: case SG_OPT_COMPLETION: case SG_OPT_INTERPRETER:
            if ((rc = sg_cli_golden_opt("check", &co.golden, c, optarg)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case SG_OPT_FUZZ: case SG_OPT_FUZZ_RUNS: case SG_OPT_FUZZ_CORPUS:
            if ((rc = sg_cli_fuzz_opt("check", &co.fuzz, c, optarg)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case 'h':
            check__help(stdout);
            rc = SG_EXIT_PASS;
            goto out_free;
        case ':':
            sg_cli_error("check", "option '%s' needs a value", argv[optind - 1]);
            goto out_free;
        default:
            sg_cli_error("check", "unknown option '%s' (see snipgate check --help)", argv[optind - 1]);
            goto out_free;
        }
    }
    char **inputs = argv + optind;
    int ninputs = argc - optind;
    if (ninputs <= 0 && changed_since) {
        /* --changed-since REV alone: what changed in the whole repository */
        bool nomem = false;
        if (!(repo_top = check__git_top(&nomem))) {
            if (nomem)
                goto out_nomem;
            sg_cli_error("check", "--changed-since without a path checks the git repository around the current "
                                  "directory, and there is none here");
            goto out_free;
        }
        inputs = &repo_top;
        ninputs = 1;
    }
    if (ninputs <= 0) {
        sg_cli_error("check", "no input given (a file, a directory, or - for stdin; see --help)");
        goto out_free;
    }
    for (int i = 0; i < ninputs; i++)
        co.stdin_used |= !strcmp(inputs[i], "-");
    if (config && no_config) {
        sg_cli_error("check", "--config and --no-config exclude each other");
        goto out_free;
    }
    if ((rc = check__policy(&co, config, no_config, &policy)))
        goto out_free;
    rc = SG_EXIT_USAGE;
    const sg_policy_info *pi = sg_policy_get(policy);
    if (pi) {
        /* the command line wins over the policy; lists add up */
        if (pi->has_fail_on && !fail_on_given)
            co.opts.fail_on = pi->fail_on;
        /* rules.honor_suppressions: all rules, or only those listed (--honor-suppressions: all) */
        if (!honor_given && (pi->honor_all_suppressions || pi->n_honor_suppressions)) {
            co.opts.honor_suppressions = true;
            co.opts.honor_rules = pi->honor_all_suppressions ? NULL : pi->honor_suppressions;
            co.opts.n_honor_rules = pi->honor_all_suppressions ? 0 : pi->n_honor_suppressions;
        }
        if (pi->max_bytes && !max_bytes_given)
            co.opts.max_bytes = (size_t)pi->max_bytes;
        if (pi->max_depth && !max_depth_given)
            co.opts.max_depth = pi->max_depth;
        if (pi->parse_cpu_ms && !parse_cpu_given)
            co.opts.parse_timeout_ms = pi->parse_cpu_ms;
        if (pi->parse_steps && !parse_steps_given)
            co.opts.parse_steps = pi->parse_steps;
        if ((pi->property_inputs || pi->property_seconds > 0) && !co.golden.budget_given) {
            co.golden.opts.max_inputs = pi->property_inputs;
            co.golden.opts.max_seconds = pi->property_seconds;
            co.golden.budget_given = true;
        }
        if (pi->fuzz_seconds > 0 || pi->fuzz_runs) {
            /* used when a task is given; --fuzz / --fuzz-runs replace it (docs/policy.md) */
            co.fuzz.policy_given = true;
            co.fuzz.policy_seconds = pi->fuzz_seconds;
            co.fuzz.policy_runs = pi->fuzz_runs ? (long long)pi->fuzz_runs : -1;
        }
        if (check__merge(&packs, &npacks, pi->packs, pi->n_packs) ||
            check__merge(&disables, &ndisables, pi->disable, pi->n_disable) ||
            check__merge(&hosts, &nhosts, pi->allow_hosts, pi->n_allow_hosts))
            goto out_nomem;
    }
    /* The root of the paths in a JSON, SARIF or GitLab verdict and in a baseline: the repository's
     * top level (or the policy file's directory), so that a verdict written, or a baseline made
     * or applied, from any directory of the repository names files alike, without '..' */
    if (baseline_path || co.format == SG_FORMAT_JSON || co.format == SG_FORMAT_SARIF || co.format == SG_FORMAT_GITLAB) {
        bool nomem = false;
        path_root = repo_top ? strdup(repo_top) : check__work_tree(&nomem);
        if (repo_top && !path_root)
            goto out_nomem;
        if (!path_root && !nomem && pi && pi->dir) {
            errno = 0;
            if (!(path_root = realpath(pi->dir, NULL)) && errno == ENOMEM)
                nomem = true;
        }
        if (nomem)
            goto out_nomem;
    }
    if (baseline_path) {
        sg_diag bd;
        sg_diag_init(&bd);
        sg_status bst = sg_baseline_load_file_at(baseline_path, path_root, &baseline, &bd);
        if (bst) {
            sg_cli_error("check", "--baseline %s: %s", baseline_path, bd.message[0] ? bd.message : sg_strerror(bst));
            rc = bst == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
            goto out_free;
        }
    }
    if ((rc = check__load_task(&co, &suite)))
        goto out_free;
    rc = SG_EXIT_USAGE;
    if ((co.fuzz.given || co.fuzz.corpus) && (!co.task || co.golden.tests_path || !co.golden.task_id)) {
        sg_cli_error("check", "--fuzz, --fuzz-runs and --fuzz-corpus need --task ID (with or without --suite)");
        goto out_free;
    }
    bool fuzz_budget = co.fuzz.given || co.fuzz.policy_given || sg_golden_task_fuzz_stage(co.task, NULL, NULL);
    if (co.fuzz.corpus && !fuzz_budget) {
        sg_cli_error("check", "--fuzz-corpus needs --fuzz or --fuzz-runs (or a fuzz budget in the policy or the task)");
        goto out_free;
    }
    /* a budget on the command line, in the policy or in the task turns the stage on, with a task */
    co.fuzz_on = co.task && !co.golden.tests_path && fuzz_budget;
    if ((rc = sg_cli_build_rules("check", no_default, packs, npacks, disables, ndisables, hosts, nhosts, co.opts.max_bytes,
                                 &co.rules)))
        goto out_free;
    if (pi && pi->n_enable && (rc = sg_cli_enable_only("check", co.rules, pi)))
        goto out_free;
    rc = SG_EXIT_USAGE;

    bool seen_stdin = false;
    for (int i = 0; i < ninputs; i++) {
        const char *p = inputs[i];
        struct stat st;
        if (!strcmp(p, "-")) {
            if (seen_stdin) {
                sg_cli_error("check", "stdin (-) given twice");
                goto out_free;
            }
            seen_stdin = true;
            if (check__push(&list, NULL, false))
                goto out_nomem;
        } else if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t before = list.len;
            if (check__walk(&list, p, 0, policy, &excluded))
                goto out_nomem;
            if (list.len == before)
                fprintf(stderr, "snipgate: check: note: no Python or Markdown files under %s\n", p);
        } else {
            if (sg_policy_excludes(policy, p)) {
                excluded++;
                continue;
            }
            char *dup = strdup(p);
            if (!dup || check__push(&list, dup, false))
                goto out_nomem;
        }
    }
    if (changed_since) {
        if ((rc = check__changed_since(changed_since, repo_top, &changed, &nchanged)))
            goto out_free;
        rc = SG_EXIT_USAGE;
        /* keep the inputs that changed (stdin is always checked) */
        size_t kept = 0, dropped = 0;
        for (size_t i = 0; i < list.len; i++) {
            char *real = list.items[i].path ? realpath(list.items[i].path, NULL) : NULL;
            bool keep = !list.items[i].path ||
                        (real && bsearch(&real, changed, nchanged, sizeof *changed, check__cmpstr));
            free(real);
            if (keep) {
                list.items[kept++] = list.items[i];
            } else {
                free(list.items[i].path);
                dropped++;
            }
        }
        list.len = kept;
        fprintf(stderr, "snipgate: check: note: %zu input%s changed since %s (%zu unchanged left out)\n", kept,
                kept == 1 ? "" : "s", changed_since, dropped);
    }
    if (excluded)
        fprintf(stderr, "snipgate: check: note: %zu file%s excluded by %s\n", excluded, excluded == 1 ? "" : "s",
                pi->path);
    if (list.overflow)
        fprintf(stderr, "snipgate: check: note: only the first %d files are checked\n", CHECK_MAX_FILES);

    if (co.task) {
        /* one sandbox policy for every file; each run starts its own workers */
        sg_diag sd;
        sg_diag_init(&sd);
        sg_status sst = sg_sandbox_new(co.golden.interpreter, &co.sandbox, &sd);
        if (sst == SG_ERR_INVALID_ARG) {
            sg_cli_error("check", "--interpreter: %s", sd.message[0] ? sd.message : sg_strerror(sst));
            co.sandbox = NULL;
            goto out_free;
        }
        if (sst != SG_OK) {
            /* the kernel or the system refuses: each file's stage is an error (exit 3) */
            snprintf(co.sandbox_error, sizeof co.sandbox_error, "the sandbox could not be set up: %s: %s",
                     sg_strerror(sst), sd.message[0] ? sd.message : "no detail");
            co.sandbox = NULL;
        }
        sg_cli_trap_signals();
    }
    double t0 = check__now_ms();
    check__pool pool = {.co = &co, .list = &list};
    pthread_mutex_init(&pool.lock, NULL);
    long jobs = co.jobs;
    /* Largest files first, so that threads finish together (the verdict keeps input order). */
    size_t *order = NULL;
    off_t *sizes = NULL;
    if (jobs > 1 && list.len > 1 && (order = malloc(list.len * sizeof *order)) &&
        (sizes = malloc(list.len * sizeof *sizes))) {
        for (size_t i = 0; i < list.len; i++) {
            struct stat st;
            order[i] = i;
            sizes[i] = list.items[i].path && stat(list.items[i].path, &st) == 0 ? st.st_size : 0;
        }
        check__sizes = sizes;
        qsort(order, list.len, sizeof *order, check__by_size);
        pool.order = order;
    }
    if ((size_t)jobs > list.len)
        jobs = (long)(list.len ? list.len : 1);
    if (jobs <= 1 || seen_stdin) {
        check__worker(&pool);
    } else {
        pthread_t tids[256];
        long started = 0;
        for (long i = 0; i < jobs; i++)
            if (pthread_create(&tids[i], NULL, check__worker, &pool) == 0)
                started++;
            else
                break;
        if (started == 0)
            check__worker(&pool);
        for (long i = 0; i < started; i++)
            pthread_join(tids[i], NULL);
    }
    pthread_mutex_destroy(&pool.lock);
    free(order);
    free(sizes);
    check__sizes = NULL;
    if (pool.fatal) {
        sg_cli_error("check", "%s", sg_strerror(pool.fatal));
        rc = SG_EXIT_INTERNAL;
        goto out_free;
    }
    if (sg_cli_signal()) {
        sg_cli_error("check", "interrupted: the sandboxes were stopped, no verdict");
        rc = 128 + sg_cli_signal();
        goto out_free;
    }

    /* leave out what had nothing to check (Markdown without Python met in a walk) */
    size_t kept = 0, skipped = 0;
    for (size_t i = 0; i < list.len; i++) {
        if (list.items[i].skipped) {
            free(list.items[i].path);
            skipped++;
        } else {
            list.items[kept++] = list.items[i];
        }
    }
    list.len = kept;
    if (skipped)
        fprintf(stderr, "snipgate: check: note: %zu Markdown file%s without Python skipped\n", skipped,
                skipped == 1 ? "" : "s");

    /* findings of the baseline are reported, not blocking: only new ones block */
    for (size_t i = 0; baseline && i < list.len; i++)
        if (sg_baseline_apply(baseline, list.items[i].report, NULL) != SG_OK)
            goto out_nomem;
    /* stages the policy requires that did not run on a file */
    for (size_t i = 0; pi && i < list.len; i++)
        if (sg_cli_require_stages(list.items[i].report, pi,
                                  "give --task ID with --fuzz DURATION or --fuzz-runs N, or a fuzz budget in the "
                                  "policy or the task") != SG_OK)
            goto out_nomem;

    sg_report **reps = malloc((list.len ? list.len : 1) * sizeof *reps);
    if (!reps)
        goto out_nomem;
    bool any_error = false;
    for (size_t i = 0; i < list.len; i++) {
        reps[i] = list.items[i].report;
        const sg_diag *d;
        sg_status es = sg_report_error(reps[i], &d);
        if (es) {
            any_error = true;
            if (es == SG_ERR_INTERNAL || es == SG_ERR_NOMEM) {
                sg_cli_error("check", "%s: %s", sg_report_path(reps[i]), d->message);
                rc = SG_EXIT_INTERNAL;
            }
        }
    }
    if (co.output && !strcmp(co.output, "-"))
        co.output = NULL; /* -o - is stdout */
    if (co.output) {
        out = fopen(co.output, "we");
        if (!out) {
            sg_cli_error("check", "cannot write %s: %s", co.output, strerror(errno));
            out = stdout;
            free(reps);
            rc = SG_EXIT_USAGE;
            goto out_free;
        }
    }
    /* colour: --color / --no-color, else on a terminal unless NO_COLOR is set and not empty
     * (no-color.org) or TERM is dumb */
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    bool color_env = !(nc && *nc) && !(term && !strcmp(term, "dumb"));
    /* SARIF's %SRCROOT% and the root of JSON paths: path_root (above) */
    sg_render_opts ro = {.srcroot = co.format == SG_FORMAT_TEXT ? NULL : path_root, .color = co.color == 1 || (co.color < 0 && !co.output && isatty(STDOUT_FILENO) && color_env),
                         .elapsed_ms = check__now_ms() - t0, .rules = co.rules, .fail_on = co.opts.fail_on,
                         /* each input error is printed once, on stderr; the text verdict names it */
                         .errors_on_stderr = co.format == SG_FORMAT_TEXT && !co.output,
                         .policy_path = pi ? pi->path : NULL, .baseline = baseline != NULL};
    sg_status rst = sg_render(out, co.format, reps, list.len, &ro);

    bool blocked = sg_reports_blocked(reps, list.len);
    free(reps);
    if (rst) {
        sg_cli_error("check", "cannot write the verdict: %s", sg_strerror(rst));
        rc = SG_EXIT_INTERNAL;
    } else if (rc == SG_EXIT_INTERNAL) {
        /* already reported */
    } else if (list.len == 0 && co.allow_empty) {
        /* a commit that stages only prose or excluded files: nothing to check is no failure of
         * the hook (a person who runs check on nothing gets exit 2 without the flag) */
        fprintf(stderr, "snipgate: check: note: nothing to check (no Python among the inputs): exit 0 "
                        "(--allow-empty)\n");
        rc = SG_EXIT_PASS;
    } else if (list.len == 0) {
        sg_cli_error("check", "nothing was checked: no Python or Markdown file with Python among the inputs");
        rc = SG_EXIT_USAGE;
    } else if (any_error) {
        for (size_t i = 0; i < list.len; i++) {
            const sg_diag *d;
            if (sg_report_error(list.items[i].report, &d))
                sg_cli_error("check", "%s: %s", sg_report_path(list.items[i].report), d->message);
        }
        rc = SG_EXIT_USAGE;
    } else {
        /* --exit-zero: a block is reported, and exits 0 (errors keep their codes) */
        rc = blocked && !exit_zero ? SG_EXIT_BLOCK : SG_EXIT_PASS;
    }
    /* a golden stage that could not judge a file is the gate failing, not a verdict on it */
    for (size_t i = 0; i < list.len && rst == SG_OK; i++) {
        const sg_report *r = list.items[i].report;
        const sg_golden_result *g = sg_report_golden(r);
        if (sg_report_golden_stage(r) == SG_STAGE_FAILED) {
            sg_cli_error("check", "%s: the golden stage could not run (see the verdict)", sg_report_path(r));
            rc = SG_EXIT_INTERNAL;
        } else if (g && sg_golden_result_verdict(g) == SG_GOLDEN_ERROR) {
            sg_cli_error("check", "%s: the golden stage could not judge it: %s", sg_report_path(r),
                         sg_golden_result_error(g));
            rc = SG_EXIT_INTERNAL;
        }
        if (sg_report_fuzz_stage(r) == SG_STAGE_FAILED) {
            sg_cli_error("check", "%s: the fuzz stage could not run (see the verdict)", sg_report_path(r));
            rc = SG_EXIT_INTERNAL;
        }
    }
    goto out_free;

out_nomem:
    sg_cli_error("check", "out of memory");
    rc = SG_EXIT_INTERNAL;
out_free:
    if (out != stdout && fclose(out) != 0 && rc != SG_EXIT_INTERNAL) {
        sg_cli_error("check", "cannot write %s: %s", co.output, strerror(errno));
        rc = SG_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < list.len; i++) {
        free(list.items[i].path);
        sg_report_free(list.items[i].report);
    }
    free(list.items);
    free(packs);
    free(disables);
    free(hosts);
    sg_rules_free(co.rules);
    sg_sandbox_free(co.sandbox);
    sg_golden_suite_free(suite);
    sg_policy_free(policy);
    sg_baseline_free(baseline);
    for (size_t i = 0; i < nchanged; i++)
        free(changed[i]);
    free(changed);
    free(repo_top);
    free(path_root);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* snipgate rules                                                                               */

/* The blocking criteria table (docs/blocking.md is this table, checked by a test). */
static int rules__criteria(sg_format format)
{
    if (format == SG_FORMAT_JSON) {
        fputs("[\n", stdout);
        for (int c = 0; c < SG_CRIT_COUNT; c++) {
            const sg_criterion_info *ci = sg_criterion_get((sg_criterion)c);
            /* ids, triggers and stages are static ASCII without quotes or backslashes */
            printf("  {\"id\": \"%s\", \"trigger\": \"%s\", \"stage\": \"%s\"}%s\n", ci->id, ci->trigger, ci->stage,
                   c + 1 < SG_CRIT_COUNT ? "," : "");
        }
        fputs("]\n", stdout);
    } else if (format == SG_FORMAT_MARKDOWN) {
        fputs("| id | trigger | stage |\n| --- | --- | --- |\n", stdout);
        for (int c = 0; c < SG_CRIT_COUNT; c++) {
            const sg_criterion_info *ci = sg_criterion_get((sg_criterion)c);
            printf("| `%s` | %s | %s |\n", ci->id, ci->trigger, ci->stage);
        }
    } else {
        for (int c = 0; c < SG_CRIT_COUNT; c++) {
            const sg_criterion_info *ci = sg_criterion_get((sg_criterion)c);
            printf("%-16s %-13s %s\n", ci->id, ci->stage, ci->trigger);
        }
    }
    return fflush(stdout) || ferror(stdout) ? SG_EXIT_INTERNAL : SG_EXIT_PASS;
}

int sg_cli_rules(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, OPT_FORMAT}, {"rules", required_argument, NULL, 'R'},
        {"no-default-rules", no_argument, NULL, 'N'}, {"disable", required_argument, NULL, 'D'},
        {"allow-host", required_argument, NULL, 'A'}, {"all", no_argument, NULL, 'a'},
        {"explain", required_argument, NULL, OPT_EXPLAIN}, {"criteria", no_argument, NULL, OPT_CRITERIA},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    bool no_default = false, all = false, criteria = false;
    sg_format format = SG_FORMAT_TEXT;
    const char *explain = NULL;
    char **packs = NULL, **disables = NULL, **hosts = NULL;
    size_t npacks = 0, ndisables = 0, nhosts = 0;
    sg_rules *rules = NULL;
    int rc = SG_EXIT_USAGE;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":ha", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT:
            if (!strcmp(optarg, "json"))
                format = SG_FORMAT_JSON;
            else if (!strcmp(optarg, "markdown"))
                format = SG_FORMAT_MARKDOWN;
            else if (!strcmp(optarg, "text"))
                format = SG_FORMAT_TEXT;
            else {
                sg_cli_error("rules", "--format must be text, json or markdown (got '%s')", optarg);
                goto out_free;
            }
            break;
        case OPT_EXPLAIN:
            explain = optarg;
            break;
        case 'R': case 'N': case 'D': case 'A':
            if ((rc = sg_cli_rules_opt(c, optarg, &no_default, &packs, &npacks, &disables, &ndisables, &hosts,
                                       &nhosts)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case 'a':
            all = true;
            break;
        case OPT_CRITERIA:
            criteria = true;
            break;
        case 'h':
            fputs("usage: snipgate rules [--format text|json|markdown] [--all] [--rules FILE] [--no-default-rules]\n"
                  "                      [--disable ID] [--allow-host HOST]\n"
                  "       snipgate rules --explain ID [--rules FILE] [--no-default-rules]\n"
                  "       snipgate rules --criteria [--format text|json|markdown]\n"
                  "List the active rules: id, severity, CWE, kind and what each matches (--all: disabled too);\n"
                  "markdown is the reference page (docs/rules-reference.md). --explain prints one rule: id, name,\n"
                  "severity, CWE, message, rationale, fix and an example it blocks. --criteria prints the blocking\n"
                  "criteria every reason of a verdict names (docs/blocking.md).\n",
                  stdout);
            rc = SG_EXIT_PASS;
            goto out_free;
        case ':':
            sg_cli_error("rules", "option '%s' needs a value", argv[optind - 1]);
            goto out_free;
        default:
            sg_cli_error("rules", "unknown option '%s'", argv[optind - 1]);
            goto out_free;
        }
    }
    if (optind < argc) {
        sg_cli_error("rules", "unexpected argument '%s'", argv[optind]);
        goto out_free;
    }
    if (criteria) {
        rc = rules__criteria(format);
        goto out_free;
    }
    if ((rc = sg_cli_build_rules("rules", no_default, packs, npacks, disables, ndisables, hosts, nhosts, 0, &rules)))
        goto out_free;
    if (explain) {
        sg_status est = sg_rules_explain(stdout, rules, explain);
        if (est == SG_ERR_UNKNOWN_RULE) {
            sg_cli_error("rules", "--explain: no rule with id '%s' (`snipgate rules --all` lists them)", explain);
            rc = SG_EXIT_USAGE;
        } else {
            rc = est == SG_OK ? SG_EXIT_PASS : SG_EXIT_INTERNAL;
        }
        goto out_free;
    }
    rc = sg_rules_render(stdout, rules, format, all) == SG_OK ? SG_EXIT_PASS : SG_EXIT_INTERNAL;
out_free:
    free(packs);
    free(disables);
    free(hosts);
    sg_rules_free(rules);
    return rc;
}
