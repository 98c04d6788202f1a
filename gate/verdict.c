/*
 * The verdict pipeline's vocabulary: the stages, the blocking criteria (one table, also
 * docs/blocking.md) and the reasons of a report, derived from what each stage recorded.
 * Ownership: reasons borrow their strings from the report; added reasons are copied into its
 * arena.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "report.h"

static const sg_criterion_info verdict__criteria[SG_CRIT_COUNT] = {
    [SG_CRIT_FINDING] = {"finding", "a rule finding at or above the severity threshold (--fail-on, policy fail_on)",
                         "static"},
    [SG_CRIT_UNCHECKABLE] = {"uncheckable",
                             "the snippet cannot be checked: unreadable, too large, binary, not UTF-8, empty Markdown, "
                             "a syntax error (SG001) or a cap of the checker (SG002)",
                             "static"},
    [SG_CRIT_GOLDEN_CASE] = {"golden-case",
                             "a known answer of the task is not met (wrong value, exception, not importable)", "golden"},
    [SG_CRIT_PROPERTY] = {"property", "a property (or the differential check) fails on a generated input", "golden"},
    [SG_CRIT_FUZZ_EXCEPTION] = {"fuzz-exception", "the fuzzer finds an exception the contract does not declare", "fuzz"},
    [SG_CRIT_FUZZ_HANG] = {"fuzz-hang", "the fuzzer finds an input that hangs", "fuzz"},
    [SG_CRIT_FUZZ_CRASH] = {"fuzz-crash", "the fuzzer finds an input that crashes the interpreter", "fuzz"},
    [SG_CRIT_FUZZ_MEMORY] = {"fuzz-memory", "the fuzzer finds an input that blows up memory", "fuzz"},
    [SG_CRIT_SANDBOX_SYSCALL] = {"sandbox-syscall", "the sandbox reports a forbidden system call", "golden, fuzz"},
    [SG_CRIT_SANDBOX_TIMEOUT] = {"sandbox-timeout", "the sandbox reports a CPU or wall-clock timeout", "golden, fuzz"},
    [SG_CRIT_SANDBOX_LIMIT] = {"sandbox-limit", "the sandbox reports the memory or output limit", "golden, fuzz"},
    [SG_CRIT_GATE_ERROR] = {"gate-error",
                            "the gate itself failed (out of memory, internal error, no sandbox, a stage that could "
                            "not judge): never a pass",
                            "any"},
    [SG_CRIT_NOTHING_CHECKED] = {"nothing-checked",
                                 "no input was checked (no Python found, every file excluded)", "pipeline"},
    [SG_CRIT_STAGE_REQUIRED] = {"stage-required", "the policy requires a stage that did not run", "pipeline"},
    [SG_CRIT_TOO_SLOW] = {"too-slow",
                          "on a scaled input the candidate costs more Python events (calls and lines) than the "
                          "reference's times the task's factor plus its slack",
                          "golden"},
};

const sg_criterion_info *sg_criterion_get(sg_criterion criterion)
{
    return (unsigned)criterion < SG_CRIT_COUNT ? &verdict__criteria[criterion] : NULL;
}

const char *sg_pipe_stage_name(sg_pipe_stage stage)
{
    static const char *const names[SG_PIPE_COUNT] = {"static", "golden", "fuzz"};
    return (unsigned)stage < SG_PIPE_COUNT ? names[stage] : "?";
}

const char *sg_stage_status_name(sg_stage_status status)
{
    static const char *const names[] = {"not_run", "skipped", "pass", "block", "error"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "?";
}

double sg_verdict_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

const char *sg_diag_code(const sg_diag *d)
{
    if (!d)
        return "internal";
    switch (d->status) {
    case SG_ERR_IO:
        if (d->sys_errno == ENOENT || d->sys_errno == ENOTDIR)
            return "not_found";
        if (d->sys_errno == ENXIO || d->sys_errno == ESPIPE || d->sys_errno == EISDIR)
            return "not_regular";
        return "io_error";
    case SG_ERR_TOO_LARGE: return "too_large";
    case SG_ERR_BINARY: return "binary";
    case SG_ERR_ENCODING: return "encoding";
    case SG_ERR_EMPTY:
        /* the extractor's two cases: nothing at all, or Markdown without a Python block */
        return strstr(d->message, "no Python") ? "no_python" : "empty";
    case SG_ERR_NOMEM: return "out_of_memory";
    default: return "internal";
    }
}

/* The status of a gate failure (not a verdict on the snippet). */
static bool verdict__gate_failure(sg_status st)
{
    return st == SG_ERR_NOMEM || st == SG_ERR_INTERNAL || st == SG_ERR_INVALID_ARG || st == SG_ERR_SANDBOX ||
           st == SG_ERR_UNSUPPORTED || st == SG_ERR_INTERRUPTED;
}

/* The criterion of a failing golden case. The sandbox's outcome names (sg_outcome_kind_name)
 * start the case's reason when the sandbox stopped the call. */
sg_criterion sg_golden_case_criterion(const sg_golden_case_result *c)
{
    const char *r = c->reason ? c->reason : "";
    if (!strncmp(r, "timeout", 7))
        return SG_CRIT_SANDBOX_TIMEOUT;
    if (!strncmp(r, "too-slow", 8))
        return SG_CRIT_TOO_SLOW;
    if (!strncmp(r, "forbidden_syscall", 17))
        return SG_CRIT_SANDBOX_SYSCALL;
    if (!strncmp(r, "memory_limit", 12) || !strncmp(r, "output_limit", 12))
        return SG_CRIT_SANDBOX_LIMIT;
    return c->kind == SG_GCASE_PROPERTY ? SG_CRIT_PROPERTY : SG_CRIT_GOLDEN_CASE;
}

sg_stage_status sg_report_stage(const sg_report *r, sg_pipe_stage stage, double *ret_ms, const char **ret_note)
{
    sg_stage_status s = SG_STAGE_STATUS_NOT_RUN;
    double ms = 0;
    const char *note = NULL;
    if (!r)
        return s;
    switch (stage) {
    case SG_PIPE_STATIC: {
        ms = r->static_ms;
        if (r->error) {
            s = verdict__gate_failure(r->error) ? SG_STAGE_STATUS_ERROR : SG_STAGE_STATUS_BLOCK;
            note = r->diag.message[0] ? r->diag.message : sg_strerror(r->error);
            break;
        }
        s = SG_STAGE_STATUS_PASS;
        for (size_t i = 0; i < r->findings.len; i++)
            if (r->findings.items[i].blocking)
                s = SG_STAGE_STATUS_BLOCK;
        break;
    }
    case SG_PIPE_GOLDEN:
        ms = r->golden_ms;
        switch (r->golden_stage) {
        case SG_STAGE_NOT_RUN: s = SG_STAGE_STATUS_NOT_RUN; note = "no task, tests or contract given"; break;
        case SG_STAGE_SKIPPED: s = SG_STAGE_STATUS_SKIPPED; note = r->golden_reason; break;
        case SG_STAGE_FAILED: s = SG_STAGE_STATUS_ERROR; note = r->golden_reason; break;
        case SG_STAGE_RAN:
            switch (sg_golden_result_verdict(r->golden)) {
            case SG_GOLDEN_PASS: s = SG_STAGE_STATUS_PASS; break;
            case SG_GOLDEN_FAIL: s = SG_STAGE_STATUS_BLOCK; break;
            default: s = SG_STAGE_STATUS_ERROR; note = sg_golden_result_error(r->golden); break;
            }
        }
        break;
    case SG_PIPE_FUZZ:
        s = r->fuzz_status;
        ms = r->fuzz_ms;
        note = r->fuzz_note;
        if (s == SG_STAGE_STATUS_NOT_RUN && !note)
            note = "not asked for (check --fuzz, docs/fuzz.md)";
        break;
    default:
        return s;
    }
    if (ret_ms)
        *ret_ms = ms;
    if (ret_note)
        *ret_note = note;
    return s;
}

sg_status sg_report_set_stage(sg_report *r, sg_pipe_stage stage, sg_stage_status status, double ms, const char *note)
{
    if (!r || stage != SG_PIPE_FUZZ || (unsigned)status > SG_STAGE_STATUS_ERROR || ms < 0)
        return SG_ERR_INVALID_ARG;
    const char *n = NULL;
    if (note && !(n = sg_arena_strdup(r->arena, note)))
        return SG_ERR_NOMEM;
    r->fuzz_status = status;
    r->fuzz_ms = ms;
    r->fuzz_note = n;
    return SG_OK;
}

sg_status sg_report_add_reason(sg_report *r, sg_criterion criterion, sg_pipe_stage stage, const char *rule_id,
                               long line, long column, const char *message)
{
    if (!r || (unsigned)criterion >= SG_CRIT_COUNT || (unsigned)stage >= SG_PIPE_COUNT || !message)
        return SG_ERR_INVALID_ARG;
    sg_reason x = {criterion, stage, NULL, line > 0 ? line : 0, column > 0 ? column : 0, NULL};
    if ((rule_id && !(x.rule_id = sg_arena_strdup(r->arena, rule_id))) ||
        !(x.message = sg_arena_strdup(r->arena, message)) || sg_array_push(&r->extra, x, 100000) < 0)
        return SG_ERR_NOMEM;
    return SG_OK;
}

typedef SG_ARRAY(sg_reason) verdict__list;

static void verdict__push(verdict__list *l, bool *failed, sg_reason x)
{
    if (sg_array_push(l, x, 0) < 0)
        *failed = true;
}

sg_status sg_report_reasons(const sg_report *r, sg_reason **ret_reasons, size_t *ret_count)
{
    if (!r || !ret_reasons || !ret_count)
        return SG_ERR_INVALID_ARG;
    verdict__list l = {0};
    bool failed = false;
    if (r->error) {
        sg_criterion c = verdict__gate_failure(r->error) ? SG_CRIT_GATE_ERROR : SG_CRIT_UNCHECKABLE;
        verdict__push(&l, &failed,
                      (sg_reason){c, SG_PIPE_STATIC, NULL, r->diag.line > 0 ? r->diag.line : 0,
                                  r->diag.column > 0 ? r->diag.column : 0,
                                  r->diag.message[0] ? r->diag.message : sg_strerror(r->error)});
    }
    for (size_t i = 0; i < r->findings.len; i++) {
        const sg_finding *f = &r->findings.items[i];
        if (!f->blocking)
            continue;
        bool cap = !strcmp(f->rule_id, "SG001") || !strcmp(f->rule_id, "SG002");
        verdict__push(&l, &failed,
                      (sg_reason){cap ? SG_CRIT_UNCHECKABLE : SG_CRIT_FINDING, SG_PIPE_STATIC, f->rule_id, f->line,
                                  f->column, f->message});
    }
    if (r->golden_stage == SG_STAGE_FAILED) {
        verdict__push(&l, &failed,
                      (sg_reason){SG_CRIT_GATE_ERROR, SG_PIPE_GOLDEN, NULL, 0, 0,
                                  r->golden_reason ? r->golden_reason : "the golden stage could not run"});
    } else if (r->golden_stage == SG_STAGE_RAN) {
        const sg_golden_result *g = r->golden;
        if (sg_golden_result_verdict(g) == SG_GOLDEN_ERROR)
            verdict__push(&l, &failed,
                          (sg_reason){SG_CRIT_GATE_ERROR, SG_PIPE_GOLDEN, NULL, 0, 0, sg_golden_result_error(g)});
        for (size_t k = 0; k < sg_golden_result_count(g); k++) {
            const sg_golden_case_result *c = sg_golden_result_case(g, k);
            if (c->passed)
                continue;
            verdict__push(&l, &failed,
                          (sg_reason){sg_golden_case_criterion(c), SG_PIPE_GOLDEN, sg_golden_rule_id(c),
                                      r->golden_lines[k] > 0 ? r->golden_lines[k] : 0, 0,
                                      c->reason ? c->reason : "the case fails"});
        }
    }
    for (size_t i = 0; i < r->extra.len; i++)
        verdict__push(&l, &failed, r->extra.items[i]);
    if (failed) {
        sg_array_free(&l);
        return SG_ERR_NOMEM;
    }
    *ret_reasons = l.items;
    *ret_count = l.len;
    return SG_OK;
}
