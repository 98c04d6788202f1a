/*
 * `snipgate eval --suite FILE SAMPLES.jsonl`: judge generated samples the way code-eval harnesses
 * do (HumanEval's samples format: `task_id`, `completion`), with the static gate first and the
 * golden stage in the sandbox, and report pass@k (the unbiased estimator of the HumanEval paper).
 * Public API only.
 *
 * Every sample line gets one output line, in input order: its result, or its error (invalid
 * JSON, a missing field, an unknown task_id). A bad line never stops the others.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pipeline.h"

#define EVAL_MAX_INPUT (1u << 30)
#define EVAL_MAX_K 16
#define EVAL_MAX_JOBS 64
#define EVAL_GROUP_MAX 8 /* samples of one task a thread takes at once (eval__worker) */

/* One line of the samples file (read by sg_golden_samples_load_buffer) and its result. */
typedef struct eval__sample {
    const sg_golden_sample *in; /* borrowed from eval__ctx.loaded */
    /* results */
    char *out; /* the output line (JSON, no newline), set when done */
    bool done;
    bool passed;
    bool blocked;      /* by the static gate */
    bool golden_error; /* the golden stage could not judge it */
} eval__sample;

typedef struct eval__ctx {
    sg_rules *rules;
    sg_options opts;
    sg_golden_suite *suite;
    sg_cli_golden golden;
    sg_sandbox *sandbox;
    char sandbox_error[600];
    sg_golden_samples *loaded;
    eval__sample *samples;
    size_t nsamples;
    size_t next;
    long threads; /* workers started */
    bool fatal;  /* out of memory */
    long active; /* workers still running */
    pthread_mutex_t lock;
    pthread_cond_t cond;
} eval__ctx;

static void eval__help(FILE *out)
{
    fputs("usage: snipgate eval --suite FILE [options] SAMPLES.jsonl   (- for stdin)\n"
          "\n"
          "Judge generated samples against a task suite, like the human-eval harness: each line of\n"
          "SAMPLES.jsonl is {\"task_id\": ..., \"completion\": \"...\"} (other fields are ignored). Each\n"
          "sample's program goes through the static gate, then, if it passes, the golden stage in the\n"
          "sandbox (known answers, then generated inputs). A sample passes when both pass. Then pass@k\n"
          "per task and overall, with the unbiased estimator 1 - C(n-c, k) / C(n, k) (n samples of a\n"
          "task, c of them passed), averaged over the tasks that have at least k samples.\n"
          "\n"
          "options:\n"
          "  --suite FILE               the tasks: JSONL in snipgate's format, HumanEval, MBPP or MBPP+/EvalPlus\n"
          "                             (required; docs/tasks.md)\n"
          "  -o, --output FILE          per-sample results as JSONL, one line per sample line, in order\n"
          "                             (default: stdout). Fields: line, task_id, sample, mode, safety,\n"
          "                             findings, golden, cases_passed, cases_run, inputs_checked, passed,\n"
          "                             first_failure, seed, golden_error, inputs_discarded,\n"
          "                             inputs_discarded_by, efficiency_checked; a bad line: line, task_id\n"
          "                             (if known), error\n"
          "  --k LIST                   pass@k for these k, comma-separated (default 1,10); a task with fewer\n"
          "                             than k samples is left out of pass@k for that k (and the summary says so)\n"
          "  --summary FILE             write the summary as JSON to FILE (default: text on stderr)\n"
          "  --completion               a completion continues its task's prompt: the program is prompt +\n"
          "                             completion (the default; tasks whose prompt is not a program prefix,\n"
          "                             MBPP and built-in tasks, take the completion as it is). A completion\n"
          "                             that already starts with the prompt is taken as the whole program\n"
          "  --whole-program            every completion is a whole program\n"
          "  -j, --jobs N               samples judged in parallel, each with its own sandboxes (default: online\n"
          "                             CPUs; at most 64)\n"
          "  --seed N                   seed of the generated inputs (default: each task's, else 0x5eed)\n"
          "  --property-budget B        generated inputs per sample: N, and/or T, a cap on the search time (as\n"
          "                             for check: reaching it is a golden error). Default: 200 inputs (the\n"
          "                             task's fuzz.max_inputs when smaller), the task's cap\n"
          "  --no-properties            known answers only (the human-eval harness's check)\n"
          "  --interpreter P            absolute path of the Python interpreter (default /usr/bin/python3)\n"
          "  --fail-on SEVERITY         static gate: block on findings at or above low|medium|high|critical\n"
          "                             (default medium)\n"
          "  --rules FILE, --no-default-rules, --disable ID, --allow-host HOST\n"
          "                             static gate rules, as for snipgate check\n"
          "\n"
          "exit: 0 every sample was judged (passing or not), 2 bad usage, an unreadable or malformed suite,\n"
          "or bad sample lines (each reported on its own output line; the other samples are judged),\n"
          "3 internal error (also: the golden stage could not judge a sample; it counts as not passed)\n",
          out);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading the samples                                                                          */

/* Read the samples (sg_golden_samples_load_buffer) and make a result slot for each. */
static int eval__read_samples(eval__ctx *ctx, const char *buf, size_t len)
{
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_samples_load_buffer(ctx->suite, buf, len, &ctx->loaded, &d) != SG_OK)
        return -1;
    size_t n = sg_golden_samples_count(ctx->loaded);
    if (!(ctx->samples = calloc(n ? n : 1, sizeof *ctx->samples)))
        return -1;
    for (size_t i = 0; i < n; i++)
        ctx->samples[i].in = sg_golden_samples_get(ctx->loaded, i);
    ctx->nsamples = n;
    return 0;
}

/* The task_id of a sample as written (a string or an integer), or null. */
static json_t *eval__id(const sg_golden_sample *in)
{
    if (!in->id)
        return json_null();
    return in->id_is_integer ? json_integer((json_int_t)in->id_integer) : json_string(in->id);
}

/* ------------------------------------------------------------------------------------------ */
/* Judging one sample                                                                           */

static json_t *eval__str(const char *s)
{
    json_t *j = s ? json_string(s) : json_null();
    return j ? j : json_string("<invalid UTF-8>");
}

/* The first failing case of a golden result, as in the verdict's golden.failures[]. */
static json_t *eval__first_failure(const sg_golden_result *g)
{
    for (size_t k = 0; k < sg_golden_result_count(g); k++) {
        const sg_golden_case_result *c = sg_golden_result_case(g, k);
        if (c->passed)
            continue;
        json_t *exc = c->exc_type ? json_pack("{s:o, s:o, s:o}", "type", eval__str(c->exc_type), "message",
                                              eval__str(c->exc_message ? c->exc_message : ""), "line",
                                              c->exc_line ? json_integer(c->exc_line) : json_null())
                                  : json_null();
        return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "kind", sg_golden_case_kind_name(c->kind), "index",
                         (json_int_t)c->index, "input", eval__str(c->input), "expected", eval__str(c->expected), "got",
                         eval__str(c->got), "reason", eval__str(c->reason), "exception", exc ? exc : json_null(),
                         "name", eval__str(c->name));
    }
    return json_null();
}

/* The program of a sample, and how it was made ("completion" or "whole_program"). Malloc'd. */
static char *eval__program(const eval__ctx *ctx, const eval__sample *s, const char **ret_mode)
{
    *ret_mode = "whole_program";
    if (ctx->golden.whole_program || !sg_golden_task_completes_prompt(s->in->task))
        return strdup(s->in->completion);
    /* a "completion" that already holds the prompt is the whole program (harnesses that store
     * prompt + completion) */
    char *with_prompt = sg_golden_task_candidate_source(s->in->task, "");
    if (with_prompt && *with_prompt && !strncmp(s->in->completion, with_prompt, strlen(with_prompt))) {
        free(with_prompt);
        return strdup(s->in->completion);
    }
    free(with_prompt);
    *ret_mode = "completion";
    return sg_golden_task_candidate_source(s->in->task, s->in->completion);
}

/* Judge one sample: fills s->out and the flags. Returns -1 out of memory. */
static int eval__judge(eval__ctx *ctx, sg_checker *checker, sg_golden_pool *pool, eval__sample *s)
{
    if (s->in->error) {
        json_t *j = json_pack("{s:I, s:o, s:s}", "line", (json_int_t)s->in->line, "task_id", eval__id(s->in), "error",
                              s->in->error);
        s->out = j ? sg_json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        return s->out ? 0 : -1;
    }
    const char *mode = NULL;
    char *prog = eval__program(ctx, s, &mode);
    if (!prog)
        return -1;
    char label[300];
    snprintf(label, sizeof label, "%.200s#%zu", s->in->id, s->in->sample);
    sg_diag d;
    sg_diag_init(&d);
    sg_report *rep = NULL;
    size_t plen = strlen(prog);
    sg_status st = sg_checker_check(checker, label, prog, plen, &rep, &d);
    if (st == SG_ERR_NOMEM || st == SG_ERR_INTERNAL) {
        free(prog);
        return -1;
    }
    if (st != SG_OK && sg_report_new_error(label, &d, &rep) != SG_OK) {
        free(prog);
        return -1;
    }
    sg_golden_opts o;
    sg_cli_golden_task_opts(&ctx->golden, s->in->task, &o);
    o.pool = pool;
    if (ctx->sandbox) {
        sg_diag_init(&d);
        st = sg_report_run_golden(rep, ctx->sandbox, s->in->task, s->in->id, prog, plen, &o, &d);
        if (st == SG_ERR_NOMEM) {
            free(prog);
            sg_report_free(rep);
            return -1;
        }
        if (st != SG_OK) {
            char why[700];
            snprintf(why, sizeof why, "%s: %s", sg_strerror(st), d.message);
            st = sg_report_golden_error(rep, s->in->id, why);
        }
    } else {
        st = sg_report_golden_error(rep, s->in->id, ctx->sandbox_error);
    }
    free(prog);
    if (st != SG_OK) {
        sg_report_free(rep);
        return -1; /* out of memory */
    }

    /* static gate: blocking findings (or why the program could not be checked) */
    json_t *findings = json_array();
    const sg_diag *ed = NULL;
    sg_status es = sg_report_error(rep, &ed);
    s->blocked = es != SG_OK;
    if (es != SG_OK && findings)
        json_array_append_new(findings, json_pack("{s:s, s:I, s:o}", "rule_id", "input", "line", (json_int_t)ed->line,
                                                  "message", eval__str(ed->message)));
    for (size_t k = 0; k < sg_report_count(rep) && findings; k++) {
        const sg_finding *f = sg_report_finding(rep, k);
        if (!f->blocking)
            continue;
        s->blocked = true;
        json_array_append_new(findings, json_pack("{s:o, s:I, s:o}", "rule_id", eval__str(f->rule_id), "line",
                                                  (json_int_t)f->line, "message", eval__str(f->message)));
    }
    const sg_golden_result *g = sg_report_golden(rep);
    sg_golden_stage stage = sg_report_golden_stage(rep);
    const char *gv = stage == SG_STAGE_SKIPPED ? "skipped"
                     : g                       ? sg_golden_verdict_name(sg_golden_result_verdict(g))
                                               : "error";
    s->golden_error = stage == SG_STAGE_FAILED || (g && sg_golden_result_verdict(g) == SG_GOLDEN_ERROR);
    s->passed = !s->blocked && g && sg_golden_result_verdict(g) == SG_GOLDEN_PASS;
    char seed[32] = "";
    if (g)
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)sg_golden_result_seed(g));
    const char *gerr = stage == SG_STAGE_FAILED                              ? sg_report_golden_reason(rep)
                       : g && sg_golden_result_verdict(g) == SG_GOLDEN_ERROR ? sg_golden_result_error(g)
                                                                             : NULL;
    json_t *j = json_pack("{s:I, s:o, s:I, s:s, s:s, s:o, s:s, s:I, s:I, s:I, s:b, s:o, s:o, s:o}", "line",
                          (json_int_t)s->in->line, "task_id", eval__id(s->in), "sample", (json_int_t)s->in->sample,
                          "mode", mode,
                          "safety", s->blocked ? "block" : "pass", "findings", findings ? findings : json_null(),
                          "golden", gv, "cases_passed", (json_int_t)(g ? sg_golden_result_cases_passed(g) : 0),
                          "cases_run", (json_int_t)(g ? sg_golden_result_cases_run(g) : 0), "inputs_checked",
                          (json_int_t)(g ? sg_golden_result_inputs_checked(g) : 0), "passed", s->passed,
                          "first_failure", g ? eval__first_failure(g) : json_null(), "seed",
                          g ? json_string(seed) : json_null(), "golden_error", gerr ? eval__str(gerr) : json_null());
    if (j) {
        /* generated inputs discarded (not valid inputs: never failures), and why */
        json_t *by = json_object();
        for (int k = 0; by && g && k < SG_DISCARD_COUNT; k++) {
            size_t n = sg_golden_result_inputs_discarded_by(g, (sg_golden_discard)k);
            if (n && json_object_set_new(by, sg_golden_discard_name((sg_golden_discard)k), json_integer((json_int_t)n)))
                json_decref(by), by = NULL;
        }
        if (!by || json_object_set_new(j, "inputs_discarded", json_integer((json_int_t)(g ? sg_golden_result_inputs_discarded(g) : 0))) ||
            json_object_set_new(j, "inputs_discarded_by", by) ||
            json_object_set_new(j, "efficiency_checked",
                                json_integer((json_int_t)(g ? sg_golden_result_efficiency_checked(g) : 0)))) {
            json_decref(j);
            j = NULL;
        }
    }
    sg_report_free(rep);
    if (!j)
        return -1;
    s->out = sg_json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return s->out ? 0 : -1;
}

static void *eval__worker(void *arg)
{
    eval__ctx *ctx = arg;
    sg_checker *checker = NULL;
    bool fatal = sg_checker_new(ctx->rules, &ctx->opts, &checker) != SG_OK;
    sg_golden_pool *pool = NULL; /* this thread's warm sandboxes, for every sample it judges */
    fatal = fatal || sg_golden_pool_new(&pool) != SG_OK;
    for (;;) {
        /* A run of consecutive samples of one task goes to one thread (at most
         * EVAL_GROUP_MAX, and one at a time once fewer samples are left than the threads could
         * share): its pool answers the reference's calls once for all of them, where samples
         * dealt one by one had every thread's pool compute the same answers. */
        pthread_mutex_lock(&ctx->lock);
        size_t i = ctx->next, end = i + 1;
        if (i < ctx->nsamples && ctx->samples[i].in->task &&
            ctx->nsamples - i > (size_t)ctx->threads * EVAL_GROUP_MAX)
            while (end < ctx->nsamples && end - i < EVAL_GROUP_MAX && ctx->samples[end].in->task == ctx->samples[i].in->task)
                end++;
        ctx->next = end > ctx->nsamples ? ctx->nsamples : end;
        bool stop = ctx->fatal || fatal || sg_cli_signal();
        pthread_mutex_unlock(&ctx->lock);
        if (i >= ctx->nsamples || stop)
            break;
        for (; i < end && i < ctx->nsamples && !fatal && !sg_cli_signal(); i++) {
            eval__sample *s = &ctx->samples[i];
            if (eval__judge(ctx, checker, pool, s) < 0)
                fatal = true;
            pthread_mutex_lock(&ctx->lock);
            s->done = true;
            if (fatal)
                ctx->fatal = true; /* (the rest of the group stays undone: the output stops there) */
            pthread_cond_broadcast(&ctx->cond);
            pthread_mutex_unlock(&ctx->lock);
        }
    }
    pthread_mutex_lock(&ctx->lock);
    if (fatal)
        ctx->fatal = true;
    ctx->active--;
    pthread_cond_broadcast(&ctx->cond);
    pthread_mutex_unlock(&ctx->lock);
    sg_golden_pool_free(pool);
    sg_checker_free(checker);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* pass@k                                                                                       */

/* The unbiased estimator of pass@k (Chen et al. 2021): 1 - C(n-c, k) / C(n, k), computed as
 * 1 - prod_{i=n-c+1}^{n} (1 - k/i), which stays exact where the binomials overflow. */
static double eval__pass_at_k(size_t n, size_t c, size_t k)
{
    if (n - c < k)
        return 1.0;
    double p = 1.0;
    for (size_t i = n - c + 1; i <= n; i++)
        p *= 1.0 - (double)k / (double)i;
    return 1.0 - p;
}

static int eval__parse_k(const char *s, size_t *ks, size_t *nk)
{
    *nk = 0;
    for (const char *p = s;;) {
        char *end = NULL;
        errno = 0;
        if (*p < '0' || *p > '9')
            return -1;
        unsigned long v = strtoul(p, &end, 10);
        if (errno || v < 1 || v > 1000000 || *nk >= EVAL_MAX_K || (*end && *end != ','))
            return -1;
        for (size_t i = 0; i < *nk; i++)
            if (ks[i] == v)
                return -1;
        ks[(*nk)++] = v;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* The summary: counts, pass@k per task and overall. Text on stderr, or JSON to `path`. */
static int eval__summary(eval__ctx *ctx, const size_t *ks, size_t nk, const char *path)
{
    size_t ntasks = sg_golden_suite_count(ctx->suite);
    size_t *n = calloc(ntasks ? ntasks : 1, sizeof *n), *c = calloc(ntasks ? ntasks : 1, sizeof *c);
    if (!n || !c) {
        free(n);
        free(c);
        return -1;
    }
    size_t bad = 0, passed = 0, blocked = 0, errors = 0, judged = 0, with_samples = 0;
    sg_cli_contracts contracts = {0};
    for (size_t i = 0; i < ctx->nsamples; i++) {
        const eval__sample *s = &ctx->samples[i];
        if (s->in->error) {
            bad++;
            continue;
        }
        judged++;
        /* contract coverage: every sample has its task; the static gate alone judged the ones it
         * blocked (their golden stage did not run) */
        bool props = sg_golden_task_declared_properties(sg_golden_suite_task(ctx->suite, s->in->task_index)) > 0;
        sg_cli_contracts_count(&contracts, props ? "properties" : "task", s->blocked);
        n[s->in->task_index]++;
        c[s->in->task_index] += s->passed;
        passed += s->passed;
        blocked += s->blocked;
        errors += s->golden_error;
    }
    for (size_t t = 0; t < ntasks; t++)
        with_samples += n[t] > 0;
    double sum[EVAL_MAX_K] = {0};
    size_t used[EVAL_MAX_K] = {0};
    for (size_t t = 0; t < ntasks; t++)
        for (size_t q = 0; q < nk; q++)
            if (n[t] && n[t] >= ks[q]) {
                sum[q] += eval__pass_at_k(n[t], c[t], ks[q]);
                used[q]++;
            }
    int rc = 0;
    if (!path) {
        fprintf(stderr,
                "eval: %zu samples judged (%zu bad lines) over %zu of %zu tasks; %zu passed, %zu blocked by "
                "the static gate, %zu golden-stage errors\n",
                judged, bad, with_samples, ntasks, passed, blocked, errors);
        sg_cli_contracts_text(stderr, "", &contracts);
        for (size_t q = 0; q < nk; q++) {
            if (used[q])
                fprintf(stderr, "pass@%zu: %.4f over %zu tasks", ks[q], sum[q] / (double)used[q], used[q]);
            else
                fprintf(stderr, "pass@%zu: - (no task has %zu samples)", ks[q], ks[q]);
            if (used[q] < with_samples)
                fprintf(stderr, " (%zu task%s skipped: fewer than %zu samples)", with_samples - used[q],
                        with_samples - used[q] == 1 ? "" : "s", ks[q]);
            fputc('\n', stderr);
        }
        for (size_t t = 0; t < ntasks; t++) {
            if (!n[t])
                continue;
            fprintf(stderr, "  %-24s n=%zu c=%zu", sg_golden_task_id(sg_golden_suite_task(ctx->suite, t)), n[t], c[t]);
            for (size_t q = 0; q < nk; q++) {
                if (n[t] >= ks[q])
                    fprintf(stderr, "  pass@%zu=%.4f", ks[q], eval__pass_at_k(n[t], c[t], ks[q]));
                else
                    fprintf(stderr, "  pass@%zu=-", ks[q]);
            }
            fputc('\n', stderr);
        }
    } else {
        bool failed = false;
        json_t *tasks = json_array(), *overall = json_object(), *karr = json_array();
        failed |= !tasks || !overall || !karr;
        for (size_t q = 0; q < nk && !failed; q++) {
            char key[32];
            snprintf(key, sizeof key, "pass@%zu", ks[q]);
            failed |= json_array_append_new(karr, json_integer((json_int_t)ks[q])) != 0;
            failed |= json_object_set_new(overall, key,
                                          json_pack("{s:o, s:I, s:I}", "value",
                                                    used[q] ? json_real(sum[q] / (double)used[q]) : json_null(),
                                                    "tasks", (json_int_t)used[q], "skipped_tasks",
                                                    (json_int_t)(with_samples - used[q]))) != 0;
        }
        for (size_t t = 0; t < ntasks && !failed; t++) {
            if (!n[t])
                continue;
            json_t *o = json_pack("{s:s, s:I, s:I}", "task_id", sg_golden_task_id(sg_golden_suite_task(ctx->suite, t)),
                                  "n", (json_int_t)n[t], "c", (json_int_t)c[t]);
            for (size_t q = 0; q < nk && o; q++) {
                char key[32];
                snprintf(key, sizeof key, "pass@%zu", ks[q]);
                failed |= json_object_set_new(
                              o, key, n[t] >= ks[q] ? json_real(eval__pass_at_k(n[t], c[t], ks[q])) : json_null()) != 0;
            }
            failed |= !o || json_array_append_new(tasks, o) != 0;
        }
        json_t *doc =
            failed ? NULL
                   : json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "suite",
                               ctx->golden.suite_path, "samples", (json_int_t)judged, "bad_lines", (json_int_t)bad,
                               "tasks_with_samples", (json_int_t)with_samples, "passed", (json_int_t)passed, "blocked",
                               (json_int_t)blocked, "golden_errors", (json_int_t)errors, "contracts",
                               sg_cli_contracts_json(&contracts), "k", karr, "pass_at_k", overall, "tasks", tasks);
        if (!doc) {
            if (failed) {
                json_decref(tasks);
                json_decref(overall);
                json_decref(karr);
            }
            free(n);
            free(c);
            return -1;
        }
        FILE *f = fopen(path, "we");
        if (!f) {
            sg_cli_error("eval", "cannot write %s: %s", path, strerror(errno));
            rc = SG_EXIT_USAGE;
        } else {
            if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) || fputc('\n', f) == EOF)
                rc = SG_EXIT_INTERNAL;
            if (fclose(f) != 0)
                rc = SG_EXIT_INTERNAL;
            if (rc == SG_EXIT_INTERNAL)
                sg_cli_error("eval", "cannot write %s", path);
        }
        json_decref(doc);
    }
    free(n);
    free(c);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */

enum { OPT_K = 3000, OPT_SUMMARY, OPT_FAIL_ON };

int sg_cli_eval(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"k", required_argument, NULL, OPT_K},
        {"summary", required_argument, NULL, OPT_SUMMARY},
        {"jobs", required_argument, NULL, 'j'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"rules", required_argument, NULL, 'R'},
        {"no-default-rules", no_argument, NULL, 'N'},
        {"disable", required_argument, NULL, 'D'},
        {"allow-host", required_argument, NULL, 'A'},
        SG_CLI_GOLDEN_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    eval__ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    sg_options_init(&ctx.opts);
    ctx.opts.input_kind = SG_INPUT_PYTHON;
    sg_cli_golden_init(&ctx.golden);
    pthread_mutex_init(&ctx.lock, NULL);
    pthread_cond_init(&ctx.cond, NULL);
    bool no_default = false;
    char **packs = NULL, **disables = NULL, **hosts = NULL;
    size_t npacks = 0, ndisables = 0, nhosts = 0;
    const char *output = NULL, *summary = NULL;
    size_t ks[EVAL_MAX_K] = {1, 10}, nk = 2;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    long jobs = nproc > 0 ? nproc : 1;
    char *buf = NULL;
    FILE *out = stdout;
    int rc = SG_EXIT_USAGE;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_K:
            if (eval__parse_k(optarg, ks, &nk)) {
                sg_cli_error("eval",
                             "--k must be distinct integers from 1 to 1000000, comma-separated, at most %d "
                             "(got '%s')",
                             EVAL_MAX_K, optarg);
                goto out_free;
            }
            break;
        case OPT_SUMMARY: summary = optarg; break;
        case 'j':
            if (sg_cli_parse_long(optarg, 1, EVAL_MAX_JOBS, &jobs)) {
                sg_cli_error("eval", "--jobs must be from 1 to %d (got '%s')", EVAL_MAX_JOBS, optarg);
                goto out_free;
            }
            break;
        case OPT_FAIL_ON:
            if (sg_severity_parse(optarg, &ctx.opts.fail_on)) {
                sg_cli_error("eval", "--fail-on must be low, medium, high or critical (got '%s')", optarg);
                goto out_free;
            }
            break;
        case 'R':
        case 'N':
        case 'D':
        case 'A':
            if ((rc =
                     sg_cli_rules_opt(c, optarg, &no_default, &packs, &npacks, &disables, &ndisables, &hosts, &nhosts)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case SG_OPT_SUITE:
        case SG_OPT_SEED:
        case SG_OPT_BUDGET:
        case SG_OPT_NO_PROPERTIES:
        case SG_OPT_COMPLETION:
        case SG_OPT_WHOLE_PROGRAM:
        case SG_OPT_INTERPRETER:
            if ((rc = sg_cli_golden_opt("eval", &ctx.golden, c, optarg)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case SG_OPT_TASK:
        case SG_OPT_TESTS:
            sg_cli_error("eval", "--task and --tests are for snipgate check; eval takes the task of each sample "
                                 "from --suite");
            goto out_free;
        case 'h':
            eval__help(stdout);
            rc = SG_EXIT_PASS;
            goto out_free;
        case ':': sg_cli_error("eval", "option '%s' needs a value", argv[optind - 1]); goto out_free;
        default:
            sg_cli_error("eval", "unknown option '%s' (see snipgate eval --help)", argv[optind - 1]);
            goto out_free;
        }
    }
    if (ctx.golden.completion && ctx.golden.whole_program) {
        sg_cli_error("eval", "--completion and --whole-program exclude each other");
        goto out_free;
    }
    if (!ctx.golden.suite_path) {
        sg_cli_error("eval", "--suite FILE is required (the tasks the samples answer)");
        goto out_free;
    }
    if (optind + 1 != argc) {
        sg_cli_error("eval",
                     optind >= argc ? "no samples file given (SAMPLES.jsonl, or - for stdin)"
                                    : "one samples file only (got '%s' too)",
                     optind < argc ? argv[optind + 1] : "");
        goto out_free;
    }
    const char *samples_path = argv[optind];
    if ((rc = sg_cli_build_rules("eval", no_default, packs, npacks, disables, ndisables, hosts, nhosts, 0, &ctx.rules)))
        goto out_free;
    if ((rc = sg_cli_load_suite("eval", ctx.golden.suite_path, &ctx.suite)))
        goto out_free;
    rc = SG_EXIT_USAGE;
    sg_diag d;
    sg_diag_init(&d);
    size_t len = 0;
    sg_status st = sg_read_input(strcmp(samples_path, "-") ? samples_path : NULL, EVAL_MAX_INPUT, &buf, &len, &d);
    if (st != SG_OK) {
        sg_cli_error("eval", "cannot read %s: %s", samples_path, d.message[0] ? d.message : sg_strerror(st));
        rc = st == SG_ERR_NOMEM ? SG_EXIT_INTERNAL : SG_EXIT_USAGE;
        goto out_free;
    }
    if (eval__read_samples(&ctx, buf, len) < 0)
        goto out_nomem;
    free(buf);
    buf = NULL;
    if (output && !(out = fopen(output, "we"))) {
        sg_cli_error("eval", "cannot write %s: %s", output, strerror(errno));
        out = stdout;
        goto out_free;
    }

    sg_diag_init(&d);
    if ((st = sg_sandbox_new(ctx.golden.interpreter, &ctx.sandbox, &d)) == SG_ERR_INVALID_ARG) {
        sg_cli_error("eval", "--interpreter: %s", d.message[0] ? d.message : sg_strerror(st));
        ctx.sandbox = NULL;
        goto out_free;
    } else if (st != SG_OK) {
        snprintf(ctx.sandbox_error, sizeof ctx.sandbox_error, "the sandbox could not be set up: %s: %s",
                 sg_strerror(st), d.message[0] ? d.message : "no detail");
        sg_cli_error("eval", "%s", ctx.sandbox_error);
        ctx.sandbox = NULL; /* every sample is then a golden error: judged, never passed */
    }
    sg_cli_trap_signals();

    /* the workers judge samples in any order; the results are written in input order as soon as
     * each one and all before it are done */
    if ((size_t)jobs > ctx.nsamples)
        jobs = ctx.nsamples ? (long)ctx.nsamples : 1;
    pthread_t tids[EVAL_MAX_JOBS];
    long started = 0;
    ctx.active = jobs;
    ctx.threads = jobs;
    for (long i = 0; i < jobs; i++) {
        if (pthread_create(&tids[i], NULL, eval__worker, &ctx) != 0) {
            pthread_mutex_lock(&ctx.lock);
            ctx.active -= jobs - i;
            pthread_mutex_unlock(&ctx.lock);
            break;
        }
        started++;
    }
    bool write_failed = false;
    if (started == 0) {
        ctx.active = 1;
        eval__worker(&ctx);
    }
    for (size_t i = 0; i < ctx.nsamples; i++) {
        pthread_mutex_lock(&ctx.lock);
        while (!ctx.samples[i].done && ctx.active > 0)
            pthread_cond_wait(&ctx.cond, &ctx.lock);
        bool done = ctx.samples[i].done;
        pthread_mutex_unlock(&ctx.lock);
        if (!done)
            break;
        if (!write_failed && ctx.samples[i].out &&
            (fputs(ctx.samples[i].out, out) == EOF || fputc('\n', out) == EOF || fflush(out) != 0))
            write_failed = true;
        free(ctx.samples[i].out);
        ctx.samples[i].out = NULL;
    }
    for (long i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (sg_cli_signal()) {
        sg_cli_error("eval", "interrupted: the sandboxes were stopped; the results written so far stand");
        rc = 128 + sg_cli_signal();
        goto out_free;
    }
    if (ctx.fatal)
        goto out_nomem;
    if (write_failed) {
        sg_cli_error("eval", "cannot write the results: %s", strerror(errno));
        rc = SG_EXIT_INTERNAL;
        goto out_free;
    }
    int src = eval__summary(&ctx, ks, nk, summary);
    if (src < 0)
        goto out_nomem;
    size_t bad = 0, gerr = 0;
    for (size_t i = 0; i < ctx.nsamples; i++) {
        bad += ctx.samples[i].in->error != NULL;
        gerr += ctx.samples[i].golden_error;
    }
    if (src)
        rc = src;
    else if (gerr || !ctx.sandbox) {
        sg_cli_error("eval",
                     "%zu sample%s could not be judged by the golden stage (counted as not passed; see "
                     "golden_error in the results)",
                     gerr, gerr == 1 ? "" : "s");
        rc = SG_EXIT_INTERNAL;
    } else if (bad) {
        sg_cli_error("eval", "%zu bad sample line%s (see their error lines in the results)", bad, bad == 1 ? "" : "s");
        rc = SG_EXIT_USAGE;
    } else {
        rc = SG_EXIT_PASS;
    }
    goto out_free;

out_nomem:
    sg_cli_error("eval", "out of memory");
    rc = SG_EXIT_INTERNAL;
out_free:
    if (out != stdout && fclose(out) != 0 && rc != SG_EXIT_INTERNAL) {
        sg_cli_error("eval", "cannot write %s: %s", output, strerror(errno));
        rc = SG_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < ctx.nsamples; i++)
        free(ctx.samples[i].out);
    free(ctx.samples);
    sg_golden_samples_free(ctx.loaded);
    free(buf);
    free(packs);
    free(disables);
    free(hosts);
    sg_sandbox_free(ctx.sandbox);
    sg_golden_suite_free(ctx.suite);
    sg_rules_free(ctx.rules);
    pthread_mutex_destroy(&ctx.lock);
    pthread_cond_destroy(&ctx.cond);
    return rc;
}
