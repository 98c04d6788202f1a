/* The seam of `serve` and `audit`: one input to the verdict document of `check --format json`
 * (static gate, then the golden stage when a task is given). Public API only. */
#include "cli_pipeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double sg_cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

const char *sg_cli_outcome_name(sg_cli_outcome o)
{
    switch (o) {
    case SG_CLI_PASS: return "pass";
    case SG_CLI_BLOCK: return "block";
    default: return "error";
    }
}

sg_status sg_cli_pipeline_checker(const sg_cli_pipeline *p, sg_checker **ret)
{
    return sg_checker_new(p->rules, &p->opts, ret);
}

void sg_cli_result_clear(sg_cli_result *r)
{
    free(r->json);
    for (size_t i = 0; i < r->nrules; i++)
        free(r->rules[i]);
    free(r->rules);
    memset(r, 0, sizeof *r);
    r->max_severity = -1;
    r->golden = "not_run";
    r->contract = "none";
}

static void pipeline__msg(sg_cli_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pipeline__msg(sg_cli_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* The verdict document of one report, compact, as `check --format json` renders it. */
static sg_status pipeline__render(const sg_cli_pipeline *p, sg_report *rep, char **ret)
{
    /* elapsed_ms and stage times are 0: the document of an input is the same on every run (audit's resume and the
     * sharded runs compare equal record for record) */
    /* the verdict names the policy that produced it (a file's path, or "request") */
    sg_render_opts ro = {.color = false, .elapsed_ms = 0, .rules = p->rules, .fail_on = p->opts.fail_on, .no_times = true,
                         .policy_path = p->policy_name ? p->policy_name : p->policy ? p->policy->path : NULL};
    return sg_render_string(SG_FORMAT_JSON, &rep, 1, &ro, true, ret);
}

/* The blocking findings' rule ids and the worst severity, for summaries and metrics. */
static sg_status pipeline__collect(const sg_report *rep, sg_cli_result *r)
{
    size_t n = sg_report_count(rep);
    for (size_t i = 0; i < n; i++) {
        const sg_finding *f = sg_report_finding(rep, i);
        if (!f || !f->blocking)
            continue;
        char **grown = realloc(r->rules, (r->nrules + 1) * sizeof *grown);
        if (!grown)
            return SG_ERR_NOMEM;
        r->rules = grown;
        if (!(r->rules[r->nrules] = strdup(f->rule_id ? f->rule_id : "?")))
            return SG_ERR_NOMEM;
        r->nrules++;
        r->findings++;
        if ((int)f->severity > r->max_severity)
            r->max_severity = (int)f->severity;
    }
    return SG_OK;
}

/* The task a request names: its own suite (task_json, tests) or a borrowed task. Fills
 * r->message and returns SG_ERR_INVALID_ARG when there is none. */
static sg_status pipeline__task(const sg_cli_pipeline *p, const sg_cli_request *req, sg_golden_suite **own,
                                const sg_golden_task **ret, sg_cli_result *r)
{
    sg_diag d;
    sg_diag_init(&d);
    sg_status st;
    if (req->task_json) {
        st = sg_golden_suite_load_buffer("task", req->task_json, strlen(req->task_json), own, &d);
        if (st != SG_OK) {
            pipeline__msg(r, "task: %s", d.message[0] ? d.message : sg_strerror(st));
            return st == SG_ERR_NOMEM ? st : SG_ERR_INVALID_ARG;
        }
        if (sg_golden_suite_count(*own) != 1) {
            pipeline__msg(r, "task: expected exactly one task");
            return SG_ERR_INVALID_ARG;
        }
        *ret = sg_golden_suite_task(*own, 0);
        return SG_OK;
    }
    if (req->tests) {
        st = sg_golden_suite_from_asserts("tests", req->tests, req->tests_len, own, &d);
        if (st != SG_OK) {
            pipeline__msg(r, "tests: %s", d.message[0] ? d.message : sg_strerror(st));
            return st == SG_ERR_NOMEM ? st : SG_ERR_INVALID_ARG;
        }
        *ret = sg_golden_suite_task(*own, 0);
        return SG_OK;
    }
    const sg_golden_task *t = p->suite ? sg_golden_suite_find(p->suite, req->task_id) : NULL;
    if (!t)
        t = sg_golden_builtin_task(req->task_id);
    if (!t) {
        pipeline__msg(r, "unknown task_id \"%.200s\" (%s)", req->task_id,
                      p->suite ? "not in the suite, nor a built-in task" : "not a built-in task; give --suite FILE");
        return SG_ERR_INVALID_ARG;
    }
    *ret = t;
    return SG_OK;
}

sg_status sg_cli_pipeline_run(const sg_cli_pipeline *p, sg_checker *checker, const sg_cli_request *req,
                              sg_cli_result *r)
{
    memset(r, 0, sizeof *r);
    r->max_severity = -1;
    r->golden = "not_run";
    r->contract = req->tests ? "tests" : req->task_json || req->task_id ? "task" : "none";
    sg_golden_suite *own = NULL;
    const sg_golden_task *task = NULL;
    char *prog = NULL;
    sg_report *rep = NULL;
    const char *name = req->name ? req->name : "<input>";
    sg_status st = SG_OK;

    bool want_task = req->task_json || req->tests || (req->task_id && (!p->static_only || req->completion));
    if (want_task && (st = pipeline__task(p, req, &own, &task, r)) != SG_OK) {
        r->outcome = st == SG_ERR_NOMEM ? SG_CLI_ERROR : SG_CLI_BAD_INPUT;
        if (st == SG_ERR_NOMEM)
            pipeline__msg(r, "out of memory");
        goto out;
    }
    if (task && !req->tests && sg_golden_task_declared_properties(task) > 0)
        r->contract = "properties";
    const char *text = req->code;
    size_t tlen = req->len;
    if (req->completion) {
        if (!task) {
            r->outcome = SG_CLI_BAD_INPUT;
            pipeline__msg(r, "a completion needs its task's prompt: a task_id of the suite");
            goto out;
        }
        if (memchr(req->code, 0, req->len)) {
            r->outcome = SG_CLI_BAD_INPUT;
            pipeline__msg(r, "the completion holds a NUL character");
            goto out;
        }
        /* as `eval` builds it: prompt + completion, unless the completion already holds the
         * prompt (harnesses that store prompt + completion) */
        char *z = malloc(req->len + 1); /* (a copy, not strndup: the code need not be NUL-terminated) */
        if (z) {
            memcpy(z, req->code, req->len);
            z[req->len] = '\0';
        }
        char *with_prompt = z ? sg_golden_task_candidate_source(task, "") : NULL;
        if (with_prompt && *with_prompt && !strncmp(z, with_prompt, strlen(with_prompt)))
            prog = strdup(z);
        else if (with_prompt)
            prog = sg_golden_task_candidate_source(task, z);
        free(with_prompt);
        free(z);
        if (!prog) {
            r->outcome = SG_CLI_ERROR;
            pipeline__msg(r, "out of memory");
            goto out;
        }
        text = prog;
        tlen = strlen(prog);
    }
    bool run_golden = task && !p->static_only;

    double t0 = sg_cli_now_ms();
    sg_diag d;
    sg_diag_init(&d);
    st = sg_checker_check(checker, name, text, tlen, &rep, &d);
    r->static_ms = sg_cli_now_ms() - t0;
    if (st == SG_ERR_NOMEM || st == SG_ERR_INTERNAL) {
        r->outcome = SG_CLI_ERROR;
        pipeline__msg(r, "%s", sg_strerror(st));
        goto out;
    }
    if (st == SG_ERR_EMPTY && req->empty_passes && !run_golden) {
        if (sg_report_new_empty(name, &rep) != SG_OK) {
            r->outcome = SG_CLI_ERROR;
            pipeline__msg(r, "out of memory");
            goto out;
        }
        st = SG_OK;
    } else if (st != SG_OK) {
        /* input the gate cannot check: an error verdict document (blocked), as check renders it */
        if (d.status == SG_OK) {
            d.status = st;
            snprintf(d.message, sizeof d.message, "%s", sg_strerror(st));
        }
        r->outcome = SG_CLI_BAD_INPUT;
        pipeline__msg(r, "%s", d.message);
        if (sg_report_new_error(name, &d, &rep) != SG_OK) {
            r->outcome = SG_CLI_ERROR;
            goto out;
        }
    }
    if (run_golden) {
        double g0 = sg_cli_now_ms();
        sg_status gs;
        if (!p->sandbox) {
            gs = sg_report_golden_error(rep, sg_golden_task_id(task), p->sandbox_error);
        } else {
            sg_golden_opts go;
            sg_cli_golden_task_opts(&p->golden, task, &go);
            go.keep_passing = true;
            go.cancel = p->cancel;
            go.pool = req->pool;
            if (p->golden_max_seconds > 0 && (go.max_seconds <= 0 || go.max_seconds > p->golden_max_seconds))
                go.max_seconds = p->golden_max_seconds;
            sg_diag gd;
            sg_diag_init(&gd);
            /* a report of an input that could not be checked records the stage as skipped */
            gs = st == SG_OK ? sg_report_run_golden(rep, p->sandbox, task, sg_golden_task_id(task), text, tlen, &go, &gd)
                             : sg_report_run_golden(rep, p->sandbox, task, sg_golden_task_id(task), NULL, 0, &go, &gd);
            if (gs != SG_OK && gs != SG_ERR_NOMEM) {
                char why[700];
                snprintf(why, sizeof why, "%s: %s", sg_strerror(gs), gd.message[0] ? gd.message : "the stage did not run");
                gs = sg_report_golden_error(rep, sg_golden_task_id(task), why);
            }
        }
        r->golden_ms = sg_cli_now_ms() - g0;
        if (gs != SG_OK) {
            r->outcome = SG_CLI_ERROR;
            pipeline__msg(r, "%s", sg_strerror(gs));
            goto out;
        }
        switch (sg_report_golden_stage(rep)) {
        case SG_STAGE_SKIPPED: r->golden = "skipped"; break;
        case SG_STAGE_FAILED:
            r->golden = "error";
            pipeline__msg(r, "the golden stage could not run: %s", sg_report_golden_reason(rep));
            break;
        case SG_STAGE_RAN: {
            const sg_golden_result *g = sg_report_golden(rep);
            sg_golden_verdict v = sg_golden_result_verdict(g);
            r->golden = v == SG_GOLDEN_PASS ? "pass" : v == SG_GOLDEN_FAIL ? "fail" : "error";
            if (v == SG_GOLDEN_ERROR)
                pipeline__msg(r, "the golden stage could not judge it: %s", sg_golden_result_error(g));
            break;
        }
        default: break;
        }
    }
    if (p->policy && (st = sg_cli_require_stages(rep, p->policy,
                                                 "this command does not run it: snipgate check --task ID "
                                                 "--fuzz DURATION does")) != SG_OK) {
        r->outcome = SG_CLI_ERROR;
        pipeline__msg(r, "%s", sg_strerror(st));
        goto out;
    }
    if ((st = pipeline__collect(rep, r)) != SG_OK || (st = pipeline__render(p, rep, &r->json)) != SG_OK) {
        r->outcome = SG_CLI_ERROR;
        pipeline__msg(r, "cannot render the verdict: %s", sg_strerror(st));
        goto out;
    }
    if (r->outcome == SG_CLI_BAD_INPUT)
        goto out;
    if (!strcmp(r->golden, "error"))
        r->outcome = SG_CLI_ERROR; /* the gate failed: never a pass */
    else
        r->outcome = sg_report_blocked(rep) ? SG_CLI_BLOCK : SG_CLI_PASS;
out:
    sg_report_free(rep);
    free(prog);
    sg_golden_suite_free(own);
    return SG_OK;
}

sg_status sg_cli_require_stages(sg_report *rep, const sg_policy_info *pi, const char *fuzz_hint)
{
    for (int stg = SG_PIPE_GOLDEN; pi && stg < SG_PIPE_COUNT; stg++) {
        if (!pi->required[stg] || sg_report_stage(rep, (sg_pipe_stage)stg, NULL, NULL) != SG_STAGE_STATUS_NOT_RUN)
            continue;
        char why[600];
        snprintf(why, sizeof why, "%s requires the %s stage, which did not run (%s)", pi->path,
                 sg_pipe_stage_name((sg_pipe_stage)stg),
                 stg == SG_PIPE_GOLDEN ? "give --task, --suite or --tests" : fuzz_hint);
        sg_status st = sg_report_add_reason(rep, SG_CRIT_STAGE_REQUIRED, (sg_pipe_stage)stg, NULL, 0, 0, why);
        if (st != SG_OK)
            return st;
    }
    return SG_OK;
}

void sg_cli_contracts_count(sg_cli_contracts *c, const char *contract, bool static_only)
{
    const char *k = contract ? contract : "none";
    c->properties += !strcmp(k, "properties");
    c->task += !strcmp(k, "task");
    c->tests += !strcmp(k, "tests");
    c->none += !strcmp(k, "none");
    c->static_only += static_only;
}

void sg_cli_contracts_add(sg_cli_contracts *c, const sg_cli_result *r)
{
    sg_cli_contracts_count(c, r->contract, !strcmp(r->golden, "not_run") || !strcmp(r->golden, "skipped"));
}

json_t *sg_cli_contracts_json(const sg_cli_contracts *c)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "properties", (json_int_t)c->properties, "task",
                     (json_int_t)c->task, "tests", (json_int_t)c->tests, "none", (json_int_t)c->none, "with_contract",
                     (json_int_t)(c->properties + c->task + c->tests), "static_only", (json_int_t)c->static_only);
}

void sg_cli_contracts_text(FILE *out, const char *indent, const sg_cli_contracts *c)
{
    size_t with = c->properties + c->task + c->tests, all = with + c->none;
    fprintf(out, "%scontracts: %zu of %zu with one (%.0f%%: properties %zu, task %zu, tests %zu), none %zu; "
                 "judged by the static gate alone %zu\n",
            indent, with, all, all ? 100.0 * (double)with / (double)all : 0.0, c->properties, c->task, c->tests,
            c->none, c->static_only);
}
