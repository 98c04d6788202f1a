/*
 * The fuzz stage of a checked document (snipgate/fuzz.h, docs/fuzz.md): the caller ran the
 * stage's driver (snipgate-fuzz) on the program the golden stage ran, and hands its result here.
 * A finding becomes a reason of the verdict (docs/blocking.md: fuzz-exception, fuzz-hang,
 * fuzz-crash, fuzz-memory, sandbox-syscall, sandbox-limit, or property for a different answer
 * than the reference), rule id SG-FUZZ, at the line of the document where the exception was
 * raised; the stage's status is recorded for the pipeline (sg_report_set_stage) and its summary
 * (execs, coverage, seed, the finding) kept for the renderers. A stage that could not run blocks
 * too (gate-error): the gate failed, never a pass.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

sg_status sg_report_fuzz_program(const sg_report *report, const char *buf, size_t len, char **ret_text, sg_diag *diag)
{
    if (!report || (!buf && len) || !ret_text)
        return SG_ERR_INVALID_ARG;
    long *lines = NULL;
    size_t n = 0;
    sg_status st = sg_report_program(report, buf, len, ret_text, &lines, &n, diag);
    free(lines);
    return st;
}

static const char *fuzz__title(const char *kind)
{
    static const char *const names[][2] = {
        {"exception", "an exception the task does not declare"},
        {"hang", "a hang past the per-input time limit"},
        {"crash", "a crash of the interpreter"},
        {"memory", "a memory blow-up (the sandbox's memory limit)"},
        {"syscall", "a forbidden system call"},
        {"output", "an output flood (the sandbox's output limit)"},
        {"differs", "a different answer than the reference"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(kind, names[k][0]))
            return names[k][1];
    return NULL;
}

/* The blocking criterion of a finding (docs/blocking.md). A different answer than the
 * reference is the differential property failing on a generated input. */
static sg_criterion fuzz__criterion(const char *kind)
{
    return !strcmp(kind, "exception") ? SG_CRIT_FUZZ_EXCEPTION
           : !strcmp(kind, "hang")    ? SG_CRIT_FUZZ_HANG
           : !strcmp(kind, "crash")   ? SG_CRIT_FUZZ_CRASH
           : !strcmp(kind, "memory")  ? SG_CRIT_FUZZ_MEMORY
           : !strcmp(kind, "syscall") ? SG_CRIT_SANDBOX_SYSCALL
           : !strcmp(kind, "output")  ? SG_CRIT_SANDBOX_LIMIT
                                      : SG_CRIT_PROPERTY;
}

static const char *fuzz__jstr(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The SG-FUZZ reason of a result's `finding` object. */
static sg_status fuzz__add_finding(sg_report *r, json_t *f, const char *prog, const long *map, size_t nmap)
{
    const char *kind = fuzz__jstr(f, "kind"), *input = fuzz__jstr(f, "input");
    const char *title = kind ? fuzz__title(kind) : NULL;
    if (!title || !input)
        return SG_ERR_INTERNAL;
    const char *exc = fuzz__jstr(f, "exc_type"), *msg = fuzz__jstr(f, "exc_message");
    const char *got = fuzz__jstr(f, "got"), *exp = fuzz__jstr(f, "expected"), *detail = fuzz__jstr(f, "detail");
    json_t *jl = json_object_get(f, "exc_line");
    long pline = json_is_integer(jl) ? (long)json_integer_value(jl) : 0;
    if (pline < 1 || (size_t)pline > nmap) {
        /* no line of the snippet (a hang, a crash, a different answer): the entry point's def */
        size_t en = strcspn(input, "(");
        long k = 1;
        for (const char *p = prog; p && *p; k++) {
            const char *q = p + strspn(p, " \t");
            if (!strncmp(q, "def ", 4) && !strncmp(q + 4 + strspn(q + 4, " "), input, en) &&
                strchr(" (", q[4 + strspn(q + 4, " ") + en])) {
                pline = k;
                break;
            }
            p = strchr(p, '\n');
            p = p ? p + 1 : NULL;
        }
    }
    long dline = pline >= 1 && (size_t)pline <= nmap ? map[pline - 1] + r->line_offset : 0;
    sg_buf b;
    sg_buf_init(&b, 8192);
    sg_buf_printf(&b, "fuzzing found %s: %s", title, input);
    if (exc)
        sg_buf_printf(&b, " raised %s%s%s", exc, msg && *msg ? ": " : "", msg ? msg : "");
    else if (!strcmp(kind, "differs"))
        sg_buf_printf(&b, " returned %s, the reference %s", got ? got : "a value with no encoding",
                      exp ? exp : "?");
    else if (detail && *detail)
        sg_buf_printf(&b, " (%s)", detail);
    if (exc && !dline)
        sg_buf_puts(&b, " (outside the snippet's lines)");
    const char *message = b.failed ? NULL : sg_arena_strdup(r->arena, b.data ? b.data : "");
    sg_buf_free(&b);
    if (!message)
        return SG_ERR_NOMEM;
    r->fuzz_line = dline > 0 ? dline : 1;
    r->fuzz_message = message;
    return sg_report_add_reason(r, fuzz__criterion(kind), SG_PIPE_FUZZ, "SG-FUZZ", r->fuzz_line, 1, message);
}

/* The stage's status for the verdict pipeline (docs/blocking.md); a stage that could not run is a
 * gate-error reason. */
static sg_status fuzz__record_stage(sg_report *r, double ms)
{
    sg_stage_status s = r->fuzz_stage == SG_STAGE_SKIPPED ? SG_STAGE_STATUS_SKIPPED
                        : r->fuzz_stage == SG_STAGE_FAILED ? SG_STAGE_STATUS_ERROR
                        : r->fuzz_message                 ? SG_STAGE_STATUS_BLOCK
                                                          : SG_STAGE_STATUS_PASS;
    sg_status st = sg_report_set_stage(r, SG_PIPE_FUZZ, s, ms, r->fuzz_stage == SG_STAGE_RAN ? NULL : r->fuzz_reason);
    if (st == SG_OK && s == SG_STAGE_STATUS_ERROR)
        st = sg_report_add_reason(r, SG_CRIT_GATE_ERROR, SG_PIPE_FUZZ, NULL, 0, 0, r->fuzz_reason);
    return st;
}

sg_status sg_report_add_fuzz(sg_report *report, const char *buf, size_t len, const char *task_label,
                             const char *result_json, const char *error, sg_diag *diag)
{
    if (!report || (!buf && len) || !task_label || report->fuzz_stage != SG_STAGE_NOT_RUN)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, report ? report->path : NULL, 0, 0, -1, 0,
                           "sg_report_add_fuzz: bad argument or stage already run");
    const char *label = sg_arena_strdup(report->arena, task_label);
    if (!label)
        return SG_ERR_NOMEM;
    report->fuzz_task = label;
    if (!result_json || error) {
        /* not run: skipped when an earlier stage blocked (nothing ran), else the gate failed */
        bool skip = !error;
        report->fuzz_reason = sg_arena_strdup(report->arena, error ? error : "an earlier stage blocked; nothing was fuzzed");
        report->fuzz_stage = skip ? SG_STAGE_SKIPPED : SG_STAGE_FAILED;
        return report->fuzz_reason ? fuzz__record_stage(report, 0) : SG_ERR_NOMEM;
    }
    json_error_t je;
    bool nomem; /* the fuzzer's result, from its sandboxed run: guarded (snipgate.h); NULL is the error below */
    json_t *j = sg_json_loadb_guarded(result_json, strlen(result_json), 0, &je, &nomem);
    json_t *status = j ? json_object_get(j, "status") : NULL;
    json_t *finding = j ? json_object_get(j, "finding") : NULL;
    sg_status st = SG_OK;
    if (!json_is_string(status) || strcmp(json_string_value(status), "ok") || !finding ||
        (!json_is_null(finding) && !json_is_object(finding))) {
        const char *why = j && json_is_string(json_object_get(j, "error")) ? json_string_value(json_object_get(j, "error"))
                                                                           : "the fuzz stage's result is malformed";
        report->fuzz_reason = sg_arena_strdup(report->arena, why);
        report->fuzz_stage = SG_STAGE_FAILED;
        json_decref(j);
        return report->fuzz_reason ? fuzz__record_stage(report, 0) : SG_ERR_NOMEM;
    }
    json_t *secs = json_object_get(j, "seconds");
    double ms = json_is_number(secs) && json_number_value(secs) >= 0 ? json_number_value(secs) * 1000 : 0;
    if (json_is_object(finding)) {
        char *prog = NULL;
        long *map = NULL;
        size_t nmap = 0;
        st = sg_report_program(report, buf, len, &prog, &map, &nmap, diag);
        if (st == SG_OK)
            st = fuzz__add_finding(report, finding, prog, map, nmap);
        free(prog);
        free(map);
    }
    if (st == SG_OK) {
        char *s = sg_json_dumps(j, JSON_COMPACT);
        report->fuzz_json = s ? sg_arena_strdup(report->arena, s) : NULL;
        free(s);
        st = report->fuzz_json ? SG_OK : SG_ERR_NOMEM;
    }
    json_decref(j);
    if (st == SG_OK)
        report->fuzz_stage = SG_STAGE_RAN;
    else if (st != SG_ERR_NOMEM) {
        report->fuzz_reason = sg_arena_strdup(report->arena, "the fuzz stage's finding could not be attached");
        report->fuzz_stage = SG_STAGE_FAILED;
        st = report->fuzz_reason ? SG_OK : SG_ERR_NOMEM;
    }
    return st == SG_OK ? fuzz__record_stage(report, ms) : st;
}

sg_golden_stage sg_report_fuzz_stage(const sg_report *report)
{
    return report ? report->fuzz_stage : SG_STAGE_NOT_RUN;
}

/* Untrusted text (the candidate's exception message): control bytes shown as '?'. */
static void fuzz__safe(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], out);
}

void sg_report_fuzz_text(FILE *out, const sg_report *r)
{
    if (r->fuzz_stage == SG_STAGE_NOT_RUN)
        return;
    fuzz__safe(out, r->path, strlen(r->path));
    fputs(": fuzz ", out);
    fuzz__safe(out, r->fuzz_task ? r->fuzz_task : "?", strlen(r->fuzz_task ? r->fuzz_task : "?"));
    if (r->fuzz_stage != SG_STAGE_RAN) {
        fprintf(out, ": %s: ", r->fuzz_stage == SG_STAGE_SKIPPED ? "skipped" : "ERROR");
        fuzz__safe(out, r->fuzz_reason ? r->fuzz_reason : "", r->fuzz_reason ? strlen(r->fuzz_reason) : 0);
        fputc('\n', out);
        return;
    }
    json_t *j = json_loads(r->fuzz_json, 0, NULL);
    json_t *f = j ? json_object_get(j, "finding") : NULL;
    fprintf(out, ": %s: %lld execs, %lld edges, %lld of %lld lines run, seed %lld\n",
            json_is_object(f) ? "FINDING" : "no finding",
            (long long)json_integer_value(json_object_get(j, "execs")),
            (long long)json_integer_value(json_object_get(j, "edges")),
            (long long)json_integer_value(json_object_get(j, "lines")),
            (long long)json_integer_value(json_object_get(j, "lines_total")),
            (long long)json_integer_value(json_object_get(j, "seed")));
    if (json_is_object(f) && r->fuzz_message) {
        fuzz__safe(out, r->path, strlen(r->path));
        fprintf(out, ":%ld:1: BLOCK SG-FUZZ ", r->fuzz_line);
        fuzz__safe(out, r->fuzz_message, strlen(r->fuzz_message));
        fputc('\n', out);
    }
    const char *tb = json_is_object(f) ? fuzz__jstr(f, "traceback") : NULL;
    if (tb && *tb) {
        for (const char *p = tb; *p;) {
            size_t n = strcspn(p, "\n");
            fputs("       | ", out);
            fuzz__safe(out, p, n);
            fputc('\n', out);
            p += n + (p[n] ? 1 : 0);
        }
    }
    json_decref(j);
}

json_t *sg_report_fuzz_json(const sg_report *r)
{
    if (r->fuzz_stage == SG_STAGE_NOT_RUN)
        return NULL;
    static const char *const stages[] = {"not_run", "skipped", "ran", "failed"};
    json_t *o = r->fuzz_stage == SG_STAGE_RAN ? json_loads(r->fuzz_json, 0, NULL) : json_object();
    if (!o)
        return NULL;
    json_object_del(o, "status");
    if (json_object_set_new(o, "stage", json_string(stages[r->fuzz_stage])) < 0 ||
        json_object_set_new(o, "task", json_string(r->fuzz_task ? r->fuzz_task : "")) < 0 ||
        (r->fuzz_reason && json_object_set_new(o, "reason", json_string(r->fuzz_reason)) < 0)) {
        json_decref(o);
        return NULL;
    }
    return o;
}
