/*
 * Verdict renderers: compiler-style text, JSON (docs/verdict-schema.md) and SARIF 2.1.0.
 * JSON and SARIF are built with jansson. Text output sanitises untrusted bytes (control
 * characters, bidirectional overrides) before they reach a terminal.
 */
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#include <unistr.h>
#include <uniwidth.h>

#include "base/jgen.h"
#include "report.h"
#include "rules/pack.h"


/* ------------------------------------------------------------------------------------------ */
/* Text                                                                                         */

/* Write untrusted text to a terminal: C0/C1 controls (but tab, and newline when asked) and
 * bidi/zero-width format characters become '?'. */
void sg_text_write_safe(FILE *out, const char *s, size_t n, bool keep_newlines)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' && keep_newlines) {
            fputc(c, out);
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fputc('?', out);
            continue;
        }
        if (c == 0xe2 && i + 2 < n) {
            unsigned char c1 = (unsigned char)s[i + 1], c2 = (unsigned char)s[i + 2];
            /* U+200B..U+200F, U+202A..U+202E, U+2066..U+2069 */
            if ((c1 == 0x80 && ((c2 >= 0x8b && c2 <= 0x8f) || (c2 >= 0xaa && c2 <= 0xae))) ||
                (c1 == 0x81 && c2 >= 0xa6 && c2 <= 0xa9)) {
                fputc('?', out);
                i += 2;
                continue;
            }
        }
        if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f) {
            fputc('?', out);
            i++;
            continue;
        }
        fputc(c, out);
    }
}

static void render__safe(FILE *out, const char *s, size_t n)
{
    sg_text_write_safe(out, s, n, false);
}

static void render__safe_str(FILE *out, const char *s)
{
    render__safe(out, s, strlen(s));
}

static const char *render__color(sg_severity s)
{
    switch (s) {
    case SG_SEV_CRITICAL: return "\033[1;35m";
    case SG_SEV_HIGH: return "\033[1;31m";
    case SG_SEV_MEDIUM: return "\033[1;33m";
    default: return "\033[1;36m";
    }
}

static void render__upper(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; src[i] && i + 1 < n; i++)
        dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = 0;
}

static void render__caret(FILE *out, const sg_finding *f)
{
    const char *s = f->snippet;
    size_t len = strlen(s);
    fprintf(out, "%6ld | ", f->line);
    render__safe(out, s, len);
    fputs("\n       | ", out);
    /* Walk code points up to the column, keeping tabs and padding by each character's display
     * width (two cells for CJK and most emoji, none for combining marks), so that the caret lines
     * up under the finding in a terminal. */
    long col = 1;
    size_t i = 0;
    while (i < len && col < f->column) {
        ucs4_t uc = 0;
        int n = u8_mbtouc(&uc, (const uint8_t *)s + i, len - i);
        if (s[i] == '\t') {
            fputc('\t', out);
        } else {
            int w = uc_width(uc, "UTF-8");
            for (int k = 0; k < (w < 0 ? 1 : w); k++)
                fputc(' ', out);
        }
        i += n > 0 ? (size_t)n : 1;
        col++;
    }
    /* the underline: the display width of the finding's characters on this line */
    long cps = f->end_line == f->line ? f->end_column - f->column : (long)sg_utf8_count(s + i, len - i);
    long width = 0;
    for (size_t j = i; j < len && cps > 0; cps--) {
        ucs4_t uc = 0;
        int n = u8_mbtouc(&uc, (const uint8_t *)s + j, len - j);
        int w = s[j] == '\t' ? 1 : uc_width(uc, "UTF-8");
        width += w < 0 ? 1 : w;
        j += n > 0 ? (size_t)n : 1;
    }
    if (width < 1)
        width = 1;
    if (width > 120)
        width = 120;
    fputc('^', out);
    for (long k = 1; k < width; k++)
        fputc('~', out);
    fputc('\n', out);
}

/* Untrusted multi-line text (a traceback), each line indented, at most `max_lines` lines. */
static void render__indented(FILE *out, const char *s, const char *indent, size_t max_lines)
{
    size_t shown = 0, total = 0;
    for (const char *p = s; *p;) {
        size_t l = strcspn(p, "\n");
        if (l || p[l]) {
            if (shown < max_lines) {
                fputs(indent, out);
                render__safe(out, p, l);
                fputc('\n', out);
                shown++;
            }
            total++;
        }
        p += l;
        if (*p == '\n')
            p++;
    }
    if (total > shown)
        fprintf(out, "%s... (%zu more lines)\n", indent, total - shown);
}

/* The location and title of a failing golden case: "test 2 (empty)", "assert at tests.py:3",
 * "property differential". */
static void render__golden_title(FILE *out, const sg_report *rep, const sg_golden_case_result *c)
{
    switch (c->kind) {
    case SG_GCASE_TEST:
        fprintf(out, "test %zu", c->index);
        if (c->name) {
            fputs(" (", out);
            render__safe_str(out, c->name);
            fputc(')', out);
        }
        break;
    case SG_GCASE_INPUT:
        fprintf(out, "input %zu", c->index);
        break;
    case SG_GCASE_ASSERT:
        if (c->test_line) {
            fputs("assert at ", out);
            render__safe_str(out, rep->golden_task);
            fprintf(out, ":%ld", c->test_line);
        } else {
            fprintf(out, "assert %zu", c->index);
        }
        break;
    case SG_GCASE_CHECK:
        fputs("check(candidate)", out);
        break;
    case SG_GCASE_PROPERTY:
        fputs("property ", out);
        render__safe_str(out, c->name ? c->name : "?");
        break;
    case SG_GCASE_IMPORT:
        fputs("import", out);
        break;
    }
}

static void render__golden_case(FILE *out, const sg_report *rep, size_t k, const sg_render_opts *o)
{
    const sg_golden_case_result *c = sg_golden_result_case(rep->golden, k);
    long line = rep->golden_lines[k];
    if (o->color)
        fputs("\033[1m", out);
    render__safe_str(out, rep->path);
    if (line > 0)
        fprintf(out, ":%ld", line);
    fprintf(out, ":%s %sFAIL%s %s ", o->color ? "\033[0m" : "", o->color ? "\033[1;31m" : "", o->color ? "\033[0m" : "",
            sg_golden_rule_id(c));
    render__golden_title(out, rep, c);
    if (c->kind == SG_GCASE_PROPERTY)
        fprintf(out, " on a generated input, shrunk in %u call%s", c->shrink_calls, c->shrink_calls == 1 ? "" : "s");
    fputc('\n', out);
    if (c->input && c->kind != SG_GCASE_IMPORT) {
        fputs(c->kind == SG_GCASE_ASSERT ? "       | " : "       input:    ", out);
        render__safe_str(out, c->input);
        fputc('\n', out);
    }
    if (c->expected) {
        fputs("       expected: ", out);
        render__safe_str(out, c->expected);
        fputc('\n', out);
    }
    fputs("       got:      ", out);
    if (c->exc_type) {
        fputs("raised ", out);
        render__safe_str(out, c->exc_type);
        if (c->exc_message && *c->exc_message) {
            fputs(": ", out);
            render__safe_str(out, c->exc_message);
        }
        if (line > 0) {
            fputs(" (at ", out);
            render__safe_str(out, rep->path);
            fprintf(out, ":%ld)", line);
        }
    } else if (c->got) {
        render__safe_str(out, c->got);
    } else {
        render__safe_str(out, c->reason ? c->reason : "no result");
    }
    fputc('\n', out);
    if (c->reason && (c->got || c->exc_type) && strcmp(c->reason, "wrong value") && strncmp(c->reason, "raised ", 7)) {
        fputs("       reason:   ", out);
        render__safe_str(out, c->reason);
        fputc('\n', out);
    }
    if (rep->golden_tracebacks[k] && *rep->golden_tracebacks[k])
        render__indented(out, rep->golden_tracebacks[k], "       | ", 16);
}

#define RENDER_GOLDEN_TEXT_CASES 10

/* The golden stage of one report: a summary line, each failing case (the first ten; JSON has
 * them all) and the shrunk counterexample. */
static void render__golden_text(FILE *out, const sg_report *rep, const sg_render_opts *o)
{
    if (rep->golden_stage == SG_STAGE_NOT_RUN)
        return;
    if (o->color)
        fputs("\033[1m", out);
    render__safe_str(out, rep->path);
    fprintf(out, ":%s golden ", o->color ? "\033[0m" : "");
    render__safe_str(out, rep->golden_task ? rep->golden_task : "?");
    if (rep->golden_stage != SG_STAGE_RAN) {
        fputs(rep->golden_stage == SG_STAGE_SKIPPED ? ": skipped: " : ": ERROR: ", out);
        render__safe_str(out, rep->golden_reason ? rep->golden_reason : "");
        fputc('\n', out);
        return;
    }
    const sg_golden_result *g = rep->golden;
    sg_golden_verdict v = sg_golden_result_verdict(g);
    const char *vs = v == SG_GOLDEN_PASS ? "PASS" : v == SG_GOLDEN_FAIL ? "FAIL" : "ERROR";
    const char *vc = v == SG_GOLDEN_PASS ? "\033[1;32m" : "\033[1;31m";
    fprintf(out, ": %s%s%s, %zu of %zu cases passed, %zu generated inputs checked (%zu discarded", o->color ? vc : "",
            vs, o->color ? "\033[0m" : "", sg_golden_result_cases_passed(g), sg_golden_result_cases_run(g),
            sg_golden_result_inputs_checked(g), sg_golden_result_inputs_discarded(g));
    static const char *const why[SG_DISCARD_COUNT] = {
        "outside the examples' domain", "rejected by the contract", "the reference raises",
        "the reference timed out",      "larger than a reference timeout", "too large to send",
        "the reference's value has no encoding"};
    const char *sep = ": ";
    for (int k = 0; k < SG_DISCARD_COUNT; k++) {
        size_t n = sg_golden_result_inputs_discarded_by(g, (sg_golden_discard)k);
        if (n) {
            fprintf(out, "%s%zu %s", sep, n, why[k]);
            sep = ", ";
        }
    }
    fputc(')', out);
    size_t eff = sg_golden_result_efficiency_checked(g);
    if (eff) {
        unsigned sc = sg_golden_result_efficiency_scale(g);
        if (sc)
            fprintf(out, ", cost compared on %zu scaled input%s (up to %ux)", eff, eff == 1 ? "" : "s", sc);
        else
            fprintf(out, ", cost compared on %zu efficiency input%s", eff, eff == 1 ? "" : "s");
    }
    fprintf(out, ", seed %llu\n", (unsigned long long)sg_golden_result_seed(g));
    if (v == SG_GOLDEN_ERROR) {
        fputs("       error:    ", out);
        render__safe_str(out, sg_golden_result_error(g));
        fputc('\n', out);
    }
    size_t n = sg_golden_result_count(g), shown = 0, failing = 0;
    const sg_golden_case_result *cx = sg_golden_result_counterexample(g);
    for (size_t k = 0; k < n; k++) {
        const sg_golden_case_result *c = sg_golden_result_case(g, k);
        if (c->passed)
            continue;
        failing++;
        /* the first failing cases, and the counterexample wherever it is */
        if (shown < RENDER_GOLDEN_TEXT_CASES || c == cx) {
            render__golden_case(out, rep, k, o);
            shown++;
        }
    }
    if (failing > shown)
        fprintf(out, "       ... and %zu more failing case%s (--format json lists them all)\n", failing - shown,
                failing - shown == 1 ? "" : "s");
    if (cx)
        fprintf(out, "       replay the generated inputs: --seed %llu\n", (unsigned long long)sg_golden_result_seed(g));
}

static void render__text(FILE *out, sg_report *const *reps, size_t n, const sg_render_opts *o)
{
    size_t nfind = 0, nblock = 0, nfiles_blocked = 0, nerr = 0;
    for (size_t r = 0; r < n; r++) {
        const sg_report *rep = reps[r];
        if (rep->error) {
            nerr++;
            nfiles_blocked++;
            fputs(o->color ? "\033[1m" : "", out);
            render__safe_str(out, rep->path);
            if (rep->diag.line > 0)
                fprintf(out, ":%ld", rep->diag.line);
            fprintf(out, ":%s error:%s ", o->color ? "\033[1;31m" : "", o->color ? "\033[0m" : "");
            if (o->errors_on_stderr)
                fprintf(out, "not checked (%s)", sg_diag_code(&rep->diag));
            else
                render__safe_str(out, rep->diag.message[0] ? rep->diag.message : sg_strerror(rep->error));
            fputc('\n', out);
            render__golden_text(out, rep, o);
            continue;
        }
        if (sg_report_blocked(rep))
            nfiles_blocked++;
        for (size_t i = 0; i < rep->findings.len; i++) {
            const sg_finding *f = &rep->findings.items[i];
            char sev[16];
            render__upper(sev, sg_severity_name(f->severity), sizeof sev);
            nfind++;
            if (f->blocking)
                nblock++;
            if (o->color)
                fputs("\033[1m", out);
            render__safe_str(out, rep->path);
            fprintf(out, ":%ld:%ld:%s ", f->line, f->column, o->color ? "\033[0m" : "");
            fprintf(out, "%s%s%s %s ", o->color ? render__color(f->severity) : "", sev, o->color ? "\033[0m" : "",
                    f->rule_id);
            render__safe_str(out, f->message);
            if (f->baseline)
                fputs(" [baseline]", out);
            else if (f->suppressed)
                fputs(" [suppressed]", out);
            else if (!f->blocking)
                fputs(" [advisory]", out);
            fputc('\n', out);
            render__caret(out, f);
            if (f->fix && *f->fix) {
                fputs("       = fix: ", out);
                render__safe_str(out, f->fix);
                fputc('\n', out);
            }
        }
        if (rep->truncated)
            fprintf(out, "%s: note: too many findings; the list was cut\n", rep->path);
        render__golden_text(out, rep, o);
        sg_report_fuzz_text(out, rep);
    }
    /* every reason's criterion (docs/blocking.md), and each stage's result over the files */
    size_t crit[SG_CRIT_COUNT] = {0};
    for (size_t r = 0; r < n; r++) {
        sg_reason *xs = NULL;
        size_t nx = 0;
        if (sg_report_reasons(reps[r], &xs, &nx) != SG_OK)
            continue; /* out of memory: the counts line is informational */
        for (size_t i = 0; i < nx; i++)
            crit[xs[i].criterion]++;
        free(xs);
    }
    if (n == 0)
        crit[SG_CRIT_NOTHING_CHECKED]++;
    bool any = false;
    for (int c = 0; c < SG_CRIT_COUNT; c++)
        if (crit[c]) {
            fprintf(out, "%s%s %zu", any ? ", " : "blocked by: ", sg_criterion_get((sg_criterion)c)->id, crit[c]);
            any = true;
        }
    if (any)
        fputc('\n', out);
    fputs("stages:", out);
    for (int st = 0; st < SG_PIPE_COUNT; st++) {
        size_t counts[5] = {0};
        double total = 0;
        const char *note = NULL;
        for (size_t r = 0; r < n; r++) {
            double ms = 0;
            const char *nt = NULL;
            sg_stage_status s = sg_report_stage(reps[r], (sg_pipe_stage)st, &ms, &nt);
            counts[s]++;
            total += ms;
            if (!note)
                note = nt;
        }
        fprintf(out, "%s %s", st ? ";" : "", sg_pipe_stage_name((sg_pipe_stage)st));
        bool ran = false;
        for (int k = SG_STAGE_STATUS_PASS; k <= SG_STAGE_STATUS_ERROR; k++)
            ran |= counts[k] > 0;
        if (!ran) {
            fprintf(out, " %s", counts[SG_STAGE_STATUS_SKIPPED] ? "skipped" : "not run");
            continue;
        }
        static const char *const what[] = {"not run", "skipped", "pass", "block", "error"};
        bool first = true;
        for (int k = SG_STAGE_STATUS_ERROR; k >= 0; k--)
            if (counts[k]) {
                fprintf(out, "%s%zu %s", first ? " " : ", ", counts[k], what[k]);
                first = false;
            }
        fprintf(out, " (%.1f ms)", total);
    }
    fputc('\n', out);
    bool blocked = sg_reports_blocked(reps, n);
    fprintf(out, "%s%s%s: %zu file%s checked, %zu finding%s (%zu blocking at >= %s)",
            o->color ? (blocked ? "\033[1;31m" : "\033[1;32m") : "", blocked ? "BLOCK" : "PASS",
            o->color ? "\033[0m" : "", n - nerr, n - nerr == 1 ? "" : "s", nfind, nfind == 1 ? "" : "s", nblock,
            sg_severity_name(o->fail_on));
    if (nerr)
        fprintf(out, ", %zu input error%s", nerr, nerr == 1 ? "" : "s");
    size_t gs[4] = {0}; /* passed, failed, errors, skipped */
    bool golden = false;
    for (size_t r = 0; r < n; r++) {
        const sg_report *rep = reps[r];
        golden |= rep->golden_stage != SG_STAGE_NOT_RUN;
        if (rep->golden_stage == SG_STAGE_RAN)
            gs[sg_golden_result_verdict(rep->golden) == SG_GOLDEN_PASS   ? 0
               : sg_golden_result_verdict(rep->golden) == SG_GOLDEN_FAIL ? 1
                                                                          : 2]++;
        else if (rep->golden_stage == SG_STAGE_FAILED)
            gs[2]++;
        else if (rep->golden_stage == SG_STAGE_SKIPPED)
            gs[3]++;
    }
    if (golden)
        fprintf(out, "; golden: %zu passed, %zu failed, %zu error%s, %zu skipped", gs[0], gs[1], gs[2],
                gs[2] == 1 ? "" : "s", gs[3]);
    fputc('\n', out);
}

/* ------------------------------------------------------------------------------------------ */
/* JSON                                                                                         */

/* Every JSON value is checked: a value jansson could not allocate fails the whole rendering
 * (SG_ERR_NOMEM), never an output with a file or a finding silently left out. */
static json_t *render__check(bool *failed, json_t *v)
{
    if (!v)
        *failed = true;
    return v;
}

static void render__append(bool *failed, json_t *arr, json_t *v)
{
    if (!arr) {
        json_decref(v);
        *failed = true;
    } else if (!v || json_array_append_new(arr, v)) { /* steals v, even on failure */
        *failed = true;
    }
}

static void render__set(bool *failed, json_t *obj, const char *key, json_t *v)
{
    if (!obj) {
        json_decref(v);
        *failed = true;
    } else if (!v || json_object_set_new(obj, key, v)) { /* steals v, even on failure */
        *failed = true;
    }
}

/* json_decref(v) and NULL if anything failed, else v. */
static json_t *render__result(bool failed, json_t *v)
{
    if (failed || !v) {
        json_decref(v);
        return NULL;
    }
    return v;
}

static json_t *render__str(const char *s)
{
    /* jansson rejects invalid UTF-8; inputs were validated, but never fail on it. (Out of memory,
     * NULL is returned and json_pack fails on it.) */
    const char *v = s ? s : "";
    json_t *j = json_string(v);
    if (j || sg_utf8_invalid_offset(v, strlen(v)) < 0)
        return j; /* NULL: out of memory */
    return json_string("<invalid UTF-8>");
}

static json_t *render__cwe(int cwe)
{
    if (!cwe)
        return json_null();
    char buf[32];
    snprintf(buf, sizeof buf, "CWE-%d", cwe);
    return json_string(buf);
}

/* A key and a string as render__str writes it: NULL as "". */
static void render__wks(sg_jgen *g, const char *key, const char *s)
{
    sg_jgen_key(g, key);
    sg_jgen_str(g, s ? s : "");
}

/* A key and a string, NULL as null. */
static void render__wkv(sg_jgen *g, const char *key, const char *s)
{
    sg_jgen_key(g, key);
    sg_jgen_str(g, s);
}

static void render__wki(sg_jgen *g, const char *key, long long v)
{
    sg_jgen_key(g, key);
    sg_jgen_int(g, v);
}

/* A positive line or column, else null. */
static void render__wpos(sg_jgen *g, const char *key, long v)
{
    sg_jgen_key(g, key);
    if (v > 0)
        sg_jgen_int(g, v);
    else
        sg_jgen_null(g);
}

static const char *render__finding_criterion_id(const sg_finding *f);

static void render__finding(sg_jgen *g, const sg_finding *f)
{
    sg_jgen_map(g);
    render__wks(g, "rule_id", f->rule_id);
    render__wks(g, "name", f->name);
    render__wkv(g, "severity", sg_severity_name(f->severity));
    render__wks(g, "confidence", f->confidence);
    sg_jgen_key(g, "cwe");
    if (f->cwe) {
        char buf[32];
        snprintf(buf, sizeof buf, "CWE-%d", f->cwe);
        sg_jgen_str(g, buf);
    } else {
        sg_jgen_null(g);
    }
    render__wki(g, "line", f->line);
    render__wki(g, "column", f->column);
    render__wki(g, "end_line", f->end_line);
    render__wki(g, "end_column", f->end_column);
    render__wks(g, "message", f->message);
    render__wks(g, "snippet", f->snippet);
    render__wks(g, "fix", f->fix);
    sg_jgen_key(g, "blocking");
    sg_jgen_bool(g, f->blocking);
    sg_jgen_key(g, "suppressed");
    sg_jgen_bool(g, f->suppressed);
    render__wkv(g, "criterion", render__finding_criterion_id(f));
    if (f->baseline) {
        sg_jgen_key(g, "baseline");
        sg_jgen_bool(g, true);
    }
    sg_jgen_map_end(g);
}

static json_t *render__str_or_null(const char *s)
{
    return s ? render__str(s) : json_null();
}

/* One failing golden case (docs/verdict.md, "golden.failures[]"). */
static json_t *render__golden_case_json(const sg_report *rep, size_t k)
{
    const sg_golden_case_result *c = sg_golden_result_case(rep->golden, k);
    bool failed = false;
    json_t *args = json_null();
    if (c->args_json) {
        json_t *a = json_loads(c->args_json, JSON_DECODE_ANY, NULL); /* tagged JSON the engine wrote */
        if (a) {
            json_decref(args);
            args = a;
        }
    }
    json_t *exc = json_null();
    if (c->exc_type) {
        exc = json_pack("{s:o, s:o, s:o, s:o}", "type", render__str(c->exc_type), "message",
                        render__str(c->exc_message), "traceback", render__str_or_null(rep->golden_tracebacks[k]),
                        "line", rep->golden_lines[k] > 0 ? json_integer(rep->golden_lines[k]) : json_null());
        render__check(&failed, exc);
    }
    json_t *j = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "rule_id", sg_golden_rule_id(c),
                          "kind", sg_golden_case_kind_name(c->kind), "index", (json_int_t)c->index, "name",
                          render__str_or_null(c->name), "input", render__str_or_null(c->input), "args", args,
                          "expected", render__str_or_null(c->expected), "got", render__str_or_null(c->got), "reason",
                          render__str_or_null(c->reason), "exception", exc ? exc : json_null(), "test_line",
                          c->test_line ? json_integer(c->test_line) : json_null());
    if (j && c->kind == SG_GCASE_PROPERTY)
        render__set(&failed, j, "shrink_calls", json_integer(c->shrink_calls));
    if (j)
        render__set(&failed, j, "criterion", json_string(sg_criterion_get(sg_golden_case_criterion(c))->id));
    return render__result(failed, j);
}

/* The golden stage of one report (docs/verdict.md, "golden"). */
static json_t *render__golden_json(const sg_report *rep)
{
    static const char *const stages[] = {"not_run", "skipped", "ran", "error"};
    if (rep->golden_stage != SG_STAGE_RAN)
        return json_pack("{s:o, s:s, s:o}", "task_id", render__str(rep->golden_task), "status",
                         rep->golden_stage == SG_STAGE_SKIPPED ? "skipped" : stages[rep->golden_stage & 3], "error",
                         rep->golden_stage == SG_STAGE_FAILED ? render__str(rep->golden_reason) : json_null());
    const sg_golden_result *g = rep->golden;
    bool failed = false;
    json_t *fails = render__check(&failed, json_array());
    json_t *all = render__check(&failed, json_array());
    json_t *cx = json_null();
    const sg_golden_case_result *cxc = sg_golden_result_counterexample(g);
    for (size_t k = 0; k < sg_golden_result_count(g); k++) {
        const sg_golden_case_result *c = sg_golden_result_case(g, k);
        /* every recorded case, passing ones included (the engine records those on request) */
        if (c->kind != SG_GCASE_PROPERTY)
            render__append(&failed, all,
                           json_pack("{s:s, s:I, s:o, s:o, s:b, s:o, s:o, s:o}", "kind",
                                     sg_golden_case_kind_name(c->kind), "index", (json_int_t)c->index, "name",
                                     render__str_or_null(c->name), "input", render__str_or_null(c->input), "passed",
                                     c->passed, "expected", render__str_or_null(c->expected), "got",
                                     render__str_or_null(c->got), "test_line",
                                     c->test_line ? json_integer(c->test_line) : json_null()));
        if (c->passed)
            continue;
        render__append(&failed, fails, render__golden_case_json(rep, k));
        if (c == cxc) {
            json_decref(cx);
            cx = render__check(&failed, render__golden_case_json(rep, k));
        }
    }
    sg_golden_verdict v = sg_golden_result_verdict(g);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)sg_golden_result_seed(g));
    json_t *j = json_pack("{s:o, s:s, s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o}", "task_id",
                          render__str(rep->golden_task), "status", sg_golden_verdict_name(v), "error",
                          v == SG_GOLDEN_ERROR ? render__str(sg_golden_result_error(g)) : json_null(), "seed", seed,
                          "cases_run", (json_int_t)sg_golden_result_cases_run(g), "cases_passed",
                          (json_int_t)sg_golden_result_cases_passed(g), "inputs_checked",
                          (json_int_t)sg_golden_result_inputs_checked(g), "inputs_discarded",
                          (json_int_t)sg_golden_result_inputs_discarded(g), "calls",
                          (json_int_t)sg_golden_result_calls(g), "failures", fails ? fails : json_null(),
                          "counterexample", cx ? cx : json_null());
    if (j)
        render__set(&failed, j, "cases", all);
    else
        json_decref(all);
    /* why generated inputs were discarded: reason -> count, the reasons with a count */
    json_t *by = render__check(&failed, json_object());
    for (int k = 0; by && k < SG_DISCARD_COUNT; k++) {
        size_t n = sg_golden_result_inputs_discarded_by(g, (sg_golden_discard)k);
        if (n)
            render__set(&failed, by, sg_golden_discard_name((sg_golden_discard)k), json_integer((json_int_t)n));
    }
    render__set(&failed, j, "inputs_discarded_by", by);
    render__set(&failed, j, "efficiency_checked", json_integer((json_int_t)sg_golden_result_efficiency_checked(g)));
    return render__result(failed, j);
}

/* The criterion of a finding: NULL unless it blocks. */
static const char *render__finding_criterion_id(const sg_finding *f)
{
    if (!f->blocking)
        return NULL;
    bool cap = !strcmp(f->rule_id, "SG001") || !strcmp(f->rule_id, "SG002");
    return sg_criterion_get(cap ? SG_CRIT_UNCHECKABLE : SG_CRIT_FINDING)->id;
}

static json_t *render__finding_criterion(const sg_finding *f)
{
    const char *id = render__finding_criterion_id(f);
    return id ? json_string(id) : json_null();
}

/* The directory %SRCROOT% stands for in the SARIF document being written, and the root of a JSON verdict's paths (sg_render_opts.srcroot;
 * NULL: the working directory). Per thread: documents are rendered in parallel. */
static _Thread_local const char *render__root;

static const char *render__json_path(const char *path, char *real);

static void render__reason(sg_jgen *g, const sg_reason *x, const char *path)
{
    char real[PATH_MAX];
    path = path ? render__json_path(path, real) : NULL;
    sg_jgen_map(g);
    render__wkv(g, "criterion", sg_criterion_get(x->criterion)->id);
    render__wkv(g, "stage", x->criterion == SG_CRIT_NOTHING_CHECKED ? "pipeline" : sg_pipe_stage_name(x->stage));
    render__wkv(g, "path", path);
    render__wkv(g, "rule_id", x->rule_id);
    render__wpos(g, "line", x->line);
    render__wpos(g, "column", x->column);
    render__wks(g, "message", x->message);
    sg_jgen_map_end(g);
}

/* A stage's summary over every report: the strictest status (error > block > pass > skipped >
 * not run), the total time, and how many files ended each way. */
/* Milliseconds, to the microsecond. */
static double render__ms(double ms)
{
    return (double)(long long)(ms * 1000.0 + 0.5) / 1000.0;
}

/* rep's status of stage st, with its time (0 without times: a deterministic document) and note */
static sg_stage_status render__stage_of(const sg_report *rep, int st, bool times, double *ms, const char **note)
{
    *ms = 0;
    *note = NULL;
    sg_stage_status s = sg_report_stage(rep, (sg_pipe_stage)st, ms, note);
    if (!times)
        *ms = 0;
    return s;
}

static void render__stage_summary(sg_jgen *g, sg_report *const *reps, size_t n, sg_pipe_stage stage, bool times)
{
    static const int rank[] = {[SG_STAGE_STATUS_NOT_RUN] = 0, [SG_STAGE_STATUS_SKIPPED] = 1,
                               [SG_STAGE_STATUS_PASS] = 2, [SG_STAGE_STATUS_BLOCK] = 3, [SG_STAGE_STATUS_ERROR] = 4};
    size_t counts[5] = {0};
    double total = 0;
    sg_stage_status worst = SG_STAGE_STATUS_NOT_RUN;
    const char *note = NULL;
    for (size_t r = 0; r < n; r++) {
        double ms;
        const char *nt;
        sg_stage_status s = render__stage_of(reps[r], stage, times, &ms, &nt);
        counts[s]++;
        total += ms;
        if (rank[s] > rank[worst] || !note) {
            if (rank[s] >= rank[worst])
                note = nt;
            if (rank[s] > rank[worst])
                worst = s;
        }
    }
    if (n == 0)
        note = "nothing was checked";
    sg_jgen_map(g);
    render__wkv(g, "status", sg_stage_status_name(worst));
    sg_jgen_key(g, "time_ms");
    sg_jgen_real(g, render__ms(total));
    render__wkv(g, "note", worst != SG_STAGE_STATUS_PASS ? note : NULL);
    sg_jgen_key(g, "files");
    sg_jgen_map(g);
    render__wki(g, "pass", (long long)counts[SG_STAGE_STATUS_PASS]);
    render__wki(g, "block", (long long)counts[SG_STAGE_STATUS_BLOCK]);
    render__wki(g, "error", (long long)counts[SG_STAGE_STATUS_ERROR]);
    render__wki(g, "skipped", (long long)counts[SG_STAGE_STATUS_SKIPPED]);
    render__wki(g, "not_run", (long long)counts[SG_STAGE_STATUS_NOT_RUN]);
    sg_jgen_map_end(g);
    sg_jgen_map_end(g);
}

static void render__file_stages(sg_jgen *g, const sg_report *rep, bool times)
{
    sg_jgen_map(g);
    for (int st = 0; st < SG_PIPE_COUNT; st++) {
        double ms;
        const char *note;
        sg_stage_status s = render__stage_of(rep, st, times, &ms, &note);
        sg_jgen_key(g, sg_pipe_stage_name((sg_pipe_stage)st));
        sg_jgen_map(g);
        render__wkv(g, "status", sg_stage_status_name(s));
        sg_jgen_key(g, "time_ms");
        sg_jgen_real(g, render__ms(ms));
        render__wkv(g, "note", note);
        sg_jgen_map_end(g);
    }
    sg_jgen_map_end(g);
}

/*
 * The stage objects of a one-report document, "stages" (the summary) and files[0].stages, depend
 * on the report's (status, time, note) of each stage and nothing else; an audit renders the same
 * few combinations (static pass, golden and fuzz not run) for most of its records. The last
 * combination a thread rendered is kept with both texts, written by a compact generator, and
 * inserted whole (sg_jgen_raw) when the next report has the same key: the same bytes, without
 * some 40 keys and values through yajl. A key or text too large for the buffers is not kept.
 */
#define RENDER_MEMO_KEY 512
#define RENDER_MEMO_TEXT 1024
typedef struct render__memo {
    unsigned char key[RENDER_MEMO_KEY];
    size_t klen;
    char summary[RENDER_MEMO_TEXT], file[RENDER_MEMO_TEXT];
    size_t slen, flen;
    unsigned long gen; /* changes with the texts (render__tpl) */
} render__memo;
static _Thread_local render__memo render__memo_tl;

/* The key of rep's stage objects into key (false: it does not fit). */
static bool render__memo_key(const sg_report *rep, bool times, unsigned char *key, size_t *klen)
{
    size_t k = 0;
    for (int st = 0; st < SG_PIPE_COUNT; st++) {
        double ms;
        const char *note;
        sg_stage_status s = render__stage_of(rep, st, times, &ms, &note);
        size_t nl = note ? strlen(note) : 0;
        if (k + 1 + sizeof ms + 1 + sizeof nl + nl > RENDER_MEMO_KEY)
            return false;
        key[k++] = (unsigned char)s;
        memcpy(key + k, &ms, sizeof ms);
        k += sizeof ms;
        key[k++] = note != NULL;
        memcpy(key + k, &nl, sizeof nl);
        k += sizeof nl;
        memcpy(key + k, note ? note : "", nl);
        k += nl;
    }
    *klen = k;
    return true;
}

static void render__stage_summaries(sg_jgen *g, sg_report *const *reps, size_t n, bool times)
{
    sg_jgen_map(g);
    for (int st = 0; st < SG_PIPE_COUNT; st++) {
        sg_jgen_key(g, sg_pipe_stage_name((sg_pipe_stage)st));
        render__stage_summary(g, reps, n, (sg_pipe_stage)st, times);
    }
    sg_jgen_map_end(g);
}

/* A fragment's text into dst (false: out of memory or too large). */
static bool render__memo_text(char *dst, size_t *dlen, sg_jgen *f)
{
    size_t len = 0;
    char *text = sg_jgen_finish(f, &len);
    bool ok = text && len && len < RENDER_MEMO_TEXT;
    if (ok) {
        memcpy(dst, text, len + 1);
        *dlen = len;
    }
    free(text);
    return ok;
}

/* Whether this thread's memo holds rep's stage objects (compact documents of one report). */
static const render__memo *render__memo_get(const sg_report *rep, bool times)
{
    render__memo *m = &render__memo_tl;
    unsigned char key[RENDER_MEMO_KEY];
    size_t klen;
    if (!render__memo_key(rep, times, key, &klen))
        return NULL;
    if (m->klen == klen && !memcmp(m->key, key, klen))
        return m;
    m->klen = 0;
    sg_jgen *fs = sg_jgen_new(false), *ff = sg_jgen_new(false);
    if (fs)
        render__stage_summaries(fs, (sg_report *const *)&rep, 1, times);
    if (ff)
        render__file_stages(ff, rep, times);
    bool ok = render__memo_text(m->summary, &m->slen, fs);
    ok = render__memo_text(m->file, &m->flen, ff) && ok;
    if (!ok)
        return NULL;
    memcpy(m->key, key, klen);
    m->klen = klen;
    m->gen++;
    return m;
}

/*
 * The template of a clean document: compact, of one report with no finding, reason or error, no
 * golden or fuzz stage and no baseline (92% of the records of an audit of the standard library).
 * Such a document is the last one this thread made but for its path and its byte count when the
 * rest is the same: the verdict, fail_on and policy, the stage objects (the memo above, by its
 * generation), the file's blocks, blocked and truncated fields and the elapsed time. The last
 * one's text is kept with those two values cut out, and the next goes out as three copies around
 * them (the path written by yajl, as every string): the same bytes, without its 37 keys.
 */
#define RENDER_TPL_TEXT 4096
#define RENDER_TPL_POLICY 256
typedef struct render__tpl_key {
    unsigned long gen; /* of the memo it was made with; 0: no template */
    bool blocked_doc, blocked_file, truncated;
    size_t blocks;
    int fail_on;
    double elapsed;
    const char *policy; /* the document's policy path, or NULL */
} render__tpl_key;
typedef struct render__tpl {
    render__tpl_key key; /* key.policy points at `policy` */
    char policy[RENDER_TPL_POLICY];
    char text[RENDER_TPL_TEXT];
    size_t len, path_at, bytes_at; /* where the path's and the byte count's texts go */
} render__tpl;
static _Thread_local render__tpl render__tpl_tl;

/* Whether rep's document can come from a template (above). */
static bool render__tpl_clean(const sg_report *rep, size_t nx, const sg_render_opts *o, const render__memo *memo)
{
    return memo && !rep->error && rep->findings.len == 0 && nx == 0 && rep->golden_stage == SG_STAGE_NOT_RUN &&
           rep->fuzz_stage == SG_STAGE_NOT_RUN && !o->baseline &&
           (!o->policy_path || strlen(o->policy_path) < RENDER_TPL_POLICY);
}

/* The key of this document's values. */
static render__tpl_key render__tpl_key_of(sg_report *const *reps, const sg_render_opts *o, const render__memo *memo)
{
    const sg_report *rep = reps[0];
    return (render__tpl_key){.gen = memo->gen,
                             .blocked_doc = sg_reports_blocked(reps, 1),
                             .blocked_file = sg_report_blocked(rep),
                             .truncated = rep->truncated,
                             .blocks = rep->blocks,
                             .fail_on = (int)o->fail_on,
                             .elapsed = render__ms(o->elapsed_ms),
                             .policy = o->policy_path};
}

static bool render__tpl_same(const render__tpl_key *a, const render__tpl_key *b)
{
    return a->gen && a->gen == b->gen && a->blocked_doc == b->blocked_doc && a->blocked_file == b->blocked_file &&
           a->truncated == b->truncated && a->blocks == b->blocks && a->fail_on == b->fail_on &&
           !memcmp(&a->elapsed, &b->elapsed, sizeof a->elapsed) && !a->policy == !b->policy &&
           (!a->policy || !strcmp(a->policy, b->policy));
}

/* The document of rep from a template's text (len bytes, the path's text to go at path_at and
 * the byte count's at bytes_at); NULL when out of memory. */
static char *render__tpl_fill(const char *text, size_t len, size_t path_at, size_t bytes_at, const sg_report *rep)
{
    sg_jgen *pg = sg_jgen_new(false);
    if (!pg)
        return NULL;
    sg_jgen_str(pg, rep->path ? rep->path : "");
    size_t pl = 0;
    char *path = sg_jgen_finish(pg, &pl);
    if (!path)
        return NULL;
    char d[24];
    size_t dl = sg_fmt_ull(rep->bytes, d);
    char *out = malloc(len + pl + dl + 1);
    if (out) {
        char *w = out;
        memcpy(w, text, path_at);
        w += path_at;
        memcpy(w, path, pl);
        w += pl;
        memcpy(w, text + path_at, bytes_at - path_at);
        w += bytes_at - path_at;
        memcpy(w, d, dl);
        w += dl;
        memcpy(w, text + bytes_at, len - bytes_at);
        w += len - bytes_at;
        *w = 0;
    }
    free(path);
    return out;
}

/* A document written with a one-character value ("0") at path_at and at *bytes_at, made a
 * template's text in place: both cut out, *len and *bytes_at moved. */
static bool render__tpl_cut(char *doc, size_t *len, size_t path_at, size_t *bytes_at)
{
    size_t n = *len, at = *bytes_at;
    if (path_at >= at || at >= n || doc[path_at] != '0' || doc[at] != '0')
        return false;
    memmove(doc + path_at, doc + path_at + 1, at - path_at - 1);
    memmove(doc + at - 1, doc + at + 1, n - at - 1);
    *len = n - 2;
    *bytes_at = at - 1;
    doc[*len] = 0;
    return true;
}

/* One report in files[] (docs/verdict.md). */
static void render__file(sg_jgen *g, const sg_report *rep, const sg_reason *xs, size_t nx, bool times,
                         const render__memo *memo, size_t *path_at)
{
    sg_jgen_map(g);
    if (path_at) { /* making a template: a placeholder (render__tpl_cut) */
        sg_jgen_key(g, "path");
        sg_jgen_raw(g, "0", 1);
        *path_at = sg_jgen_len(g) - 1;
    } else {
        char real[PATH_MAX];
        render__wks(g, "path", render__json_path(rep->path, real));
    }
    sg_jgen_key(g, "blocked");
    sg_jgen_bool(g, sg_report_blocked(rep));
    render__wki(g, "blocks", (long long)rep->blocks);
    sg_jgen_key(g, "error");
    if (rep->error) {
        sg_jgen_map(g);
        render__wkv(g, "code", sg_diag_code(&rep->diag));
        render__wks(g, "message", rep->diag.message);
        render__wki(g, "line", rep->diag.line);
        render__wki(g, "offset", rep->diag.offset);
        sg_jgen_map_end(g);
    } else {
        sg_jgen_null(g);
    }
    sg_jgen_key(g, "truncated");
    sg_jgen_bool(g, rep->truncated);
    sg_jgen_key(g, "findings");
    sg_jgen_arr(g);
    for (size_t i = 0; i < rep->findings.len; i++)
        render__finding(g, &rep->findings.items[i]);
    sg_jgen_arr_end(g);
    sg_jgen_key(g, "stages");
    if (memo)
        sg_jgen_raw(g, memo->file, memo->flen);
    else
        render__file_stages(g, rep, times);
    sg_jgen_key(g, "reasons");
    sg_jgen_arr(g);
    for (size_t i = 0; i < nx; i++)
        render__reason(g, &xs[i], NULL);
    sg_jgen_arr_end(g);
    if (rep->golden_stage != SG_STAGE_NOT_RUN) {
        /* only when a golden stage was asked for: a static-only verdict is unchanged */
        sg_jgen_key(g, "golden");
        json_t *j = render__golden_json(rep);
        sg_jgen_json(g, j);
        json_decref(j);
    }
    if (rep->fuzz_stage != SG_STAGE_NOT_RUN) {
        sg_jgen_key(g, "fuzz");
        json_t *j = sg_report_fuzz_json(rep);
        sg_jgen_json(g, j);
        json_decref(j);
    }
    sg_jgen_map_end(g);
}

char *sg_render_record_line(const char *id, const char *source, const char *status, const char *error,
                            const char *verdict_json)
{
    if (!id || !source || !status)
        return NULL;
    if (sg_utf8_invalid_offset(id, strlen(id)) >= 0 || sg_utf8_invalid_offset(source, strlen(source)) >= 0 ||
        (error && sg_utf8_invalid_offset(error, strlen(error)) >= 0)) {
        id = source = "<invalid UTF-8>";
        status = "error";
        error = "the record's id or path is not valid UTF-8";
    }
    const char *doc = verdict_json ? verdict_json : "null";
    /* yajl, as the verdict (a jansson object packed and dumped cost 12,000 instructions a line);
     * the document goes in whole */
    sg_jgen *g = sg_jgen_new(false);
    if (!g)
        return NULL;
    sg_jgen_map(g);
    sg_jgen_key(g, "id");
    sg_jgen_str(g, id);
    sg_jgen_key(g, "source");
    sg_jgen_str(g, source);
    sg_jgen_key(g, "status");
    sg_jgen_str(g, status);
    sg_jgen_key(g, "error");
    sg_jgen_str(g, error);
    sg_jgen_key(g, "verdict");
    sg_jgen_raw(g, doc, strlen(doc));
    sg_jgen_map_end(g);
    return sg_jgen_finish(g, NULL);
}

/* The verdict document (docs/verdict.md), written as it goes (yajl): the document of an audit
 * record was a quarter of the audit's instructions as a jansson tree built and dumped. Indented
 * (for people) or compact; NULL when out of memory. */
static char *render__json_doc(sg_report *const *reps, size_t n, const sg_render_opts *o, bool indent);

/* JSON: paths relative to the root (sg_render_opts.srcroot) when the file is under it. */
static char *render__json(sg_report *const *reps, size_t n, const sg_render_opts *o, bool indent)
{
    render__root = o->srcroot && o->srcroot[0] == '/' ? o->srcroot : NULL;
    char *text = render__json_doc(reps, n, o, indent);
    render__root = NULL;
    return text;
}

static char *render__json_doc(sg_report *const *reps, size_t n, const sg_render_opts *o, bool indent)
{
    size_t crit_counts[SG_CRIT_COUNT] = {0};
    size_t nfind = 0, nblock = 0, nfiles_blocked = 0, nerr = 0, bytes = 0, blocks = 0, suppressed = 0,
           in_baseline = 0;
    size_t by_sev[4] = {0};
    size_t gs[4] = {0}; /* golden: indexed by sg_golden_verdict (pass, fail, error), then skipped */
    bool golden = false, failed = false;
    /* every report's reasons first: the document's reasons[] comes before files[] */
    sg_reason **xs = calloc(n ? n : 1, sizeof *xs);
    size_t *nx = calloc(n ? n : 1, sizeof *nx);
    failed = !xs || !nx;
    for (size_t r = 0; r < n && !failed; r++) {
        const sg_report *rep = reps[r];
        if (sg_report_reasons(rep, &xs[r], &nx[r]) != SG_OK) {
            failed = true;
            break;
        }
        for (size_t i = 0; i < nx[r]; i++)
            crit_counts[xs[r][i].criterion]++;
        for (size_t i = 0; i < rep->findings.len; i++) {
            const sg_finding *f = &rep->findings.items[i];
            nfind++;
            nblock += f->blocking;
            suppressed += f->suppressed;
            in_baseline += f->baseline;
            by_sev[f->severity & 3]++;
        }
        nfiles_blocked += sg_report_blocked(rep);
        bytes += rep->bytes;
        blocks += rep->blocks;
        if (rep->error)
            nerr++;
        if (rep->golden_stage != SG_STAGE_NOT_RUN) {
            golden = true;
            if (rep->golden_stage == SG_STAGE_RAN)
                gs[sg_golden_result_verdict(rep->golden)]++;
            else
                gs[rep->golden_stage == SG_STAGE_SKIPPED ? 3 : 2]++;
        }
    }
    sg_reason none = {SG_CRIT_NOTHING_CHECKED, SG_PIPE_STATIC, NULL, 0, 0,
                      "nothing was checked (no Python input found, or every file excluded)"};
    if (n == 0)
        crit_counts[SG_CRIT_NOTHING_CHECKED]++;
    const render__memo *memo = !failed && !indent && n == 1 ? render__memo_get(reps[0], !o->no_times) : NULL;
    /* a clean document: from the template, or written to make one */
    render__tpl_key key, *tpl = NULL;
    size_t path_at = 0, bytes_at = 0;
    if (memo && render__tpl_clean(reps[0], nx[0], o, memo)) {
        key = render__tpl_key_of(reps, o, memo);
        if (render__tpl_same(&render__tpl_tl.key, &key)) {
            free(xs[0]);
            free(xs);
            free(nx);
            const render__tpl *t = &render__tpl_tl;
            return render__tpl_fill(t->text, t->len, t->path_at, t->bytes_at, reps[0]);
        }
        tpl = &key;
    }
    sg_jgen *g = failed ? NULL : sg_jgen_new(indent);
    if (g) {
        sg_jgen_map(g);
        render__wkv(g, "schema_version", SG_VERDICT_SCHEMA_VERSION);
        render__wkv(g, "verdict", sg_reports_blocked(reps, n) ? "block" : "pass");
        render__wkv(g, "fail_on", sg_severity_name(o->fail_on));
        sg_jgen_key(g, "tool");
        sg_jgen_map(g);
        render__wkv(g, "name", "snipgate");
        render__wkv(g, "version", sg_version());
        sg_jgen_map_end(g);
        render__wkv(g, "policy", o->policy_path);
        sg_jgen_key(g, "stages");
        if (memo)
            sg_jgen_raw(g, memo->summary, memo->slen);
        else
            render__stage_summaries(g, reps, n, !o->no_times);
        sg_jgen_key(g, "reasons");
        sg_jgen_arr(g);
        for (size_t r = 0; r < n; r++)
            for (size_t i = 0; i < nx[r]; i++)
                render__reason(g, &xs[r][i], reps[r]->path);
        if (n == 0)
            render__reason(g, &none, NULL);
        sg_jgen_arr_end(g);
        sg_jgen_key(g, "files");
        sg_jgen_arr(g);
        for (size_t r = 0; r < n; r++)
            render__file(g, reps[r], xs[r], nx[r], !o->no_times, memo, tpl ? &path_at : NULL);
        sg_jgen_arr_end(g);
        sg_jgen_key(g, "stats");
        sg_jgen_map(g);
        render__wki(g, "files", (long long)n);
        render__wki(g, "blocked_files", (long long)nfiles_blocked);
        render__wki(g, "errors", (long long)nerr);
        render__wki(g, "findings", (long long)nfind);
        render__wki(g, "blocking_findings", (long long)nblock);
        render__wki(g, "suppressed", (long long)suppressed);
        if (tpl) {
            sg_jgen_key(g, "bytes");
            sg_jgen_raw(g, "0", 1);
            bytes_at = sg_jgen_len(g) - 1;
        } else {
            render__wki(g, "bytes", (long long)bytes);
        }
        render__wki(g, "python_blocks", (long long)blocks);
        sg_jgen_key(g, "elapsed_ms");
        sg_jgen_real(g, render__ms(o->elapsed_ms));
        sg_jgen_key(g, "by_severity");
        sg_jgen_map(g);
        render__wki(g, "low", (long long)by_sev[0]);
        render__wki(g, "medium", (long long)by_sev[1]);
        render__wki(g, "high", (long long)by_sev[2]);
        render__wki(g, "critical", (long long)by_sev[3]);
        sg_jgen_map_end(g);
        if (golden) {
            sg_jgen_key(g, "golden");
            sg_jgen_map(g);
            render__wki(g, "passed", (long long)gs[SG_GOLDEN_PASS]);
            render__wki(g, "failed", (long long)gs[SG_GOLDEN_FAIL]);
            render__wki(g, "errors", (long long)gs[SG_GOLDEN_ERROR]);
            render__wki(g, "skipped", (long long)gs[3]);
            sg_jgen_map_end(g);
        }
        sg_jgen_key(g, "by_criterion");
        sg_jgen_map(g);
        for (int c = 0; c < SG_CRIT_COUNT; c++)
            if (crit_counts[c])
                render__wki(g, sg_criterion_get((sg_criterion)c)->id, (long long)crit_counts[c]);
        sg_jgen_map_end(g);
        render__wki(g, "checked_files", (long long)(n - nerr));
        if (o->baseline)
            render__wki(g, "baseline_matched", (long long)in_baseline);
        sg_jgen_map_end(g);
        sg_jgen_map_end(g);
    }
    for (size_t r = 0; xs && r < n; r++)
        free(xs[r]);
    free(xs);
    free(nx);
    if (!tpl)
        return sg_jgen_finish(g, NULL);
    size_t len = 0;
    char *doc = sg_jgen_finish(g, &len);
    if (!doc)
        return NULL;
    render__tpl *t = &render__tpl_tl;
    t->key.gen = 0;
    if (!render__tpl_cut(doc, &len, path_at, &bytes_at)) {
        free(doc);
        return NULL; /* cannot be: the placeholders are where the writer said */
    }
    char *ret = render__tpl_fill(doc, len, path_at, bytes_at, reps[0]);
    if (len <= sizeof t->text) {
        memcpy(t->text, doc, len);
        t->len = len;
        t->path_at = path_at;
        t->bytes_at = bytes_at;
        t->key = key;
        if (key.policy) {
            memcpy(t->policy, key.policy, strlen(key.policy) + 1); /* shorter than RENDER_TPL_POLICY */
            t->key.policy = t->policy;
        }
    }
    free(doc);
    return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* SARIF 2.1.0                                                                                  */

static const char *render__level(sg_severity s)
{
    return s >= SG_SEV_HIGH ? "error" : s == SG_SEV_MEDIUM ? "warning" : "note";
}

static const char *render__secsev(sg_severity s)
{
    static const char *const v[] = {"2.0", "5.5", "8.0", "9.5"};
    return v[s & 3];
}

/* A relative path as a URI reference (percent-encoding what RFC 3986 does not allow). */
static json_t *render__uri(const char *path)
{
    size_t n = strlen(path);
    char *buf = malloc(n * 3 + 1);
    if (!buf)
        return json_string("");
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if (isalnum(c) || strchr("-._~/!$&'()*+,;=:@", c)) {
            buf[o++] = (char)c;
        } else {
            snprintf(buf + o, 4, "%%%02X", c);
            o += 3;
        }
    }
    buf[o] = 0;
    json_t *j = json_string(buf);
    free(buf);
    return j;
}

#define RENDER_SRCROOT "%SRCROOT%"


/* The file `path` relative to %SRCROOT% (render__root) when it is under it: a pointer into `real`
 * (PATH_MAX bytes, which gets its real path), or NULL (no root, no such file, or outside: then
 * *ret_outside says whether `real` holds the file's absolute path). */
static const char *render__under_root(const char *path, char *real, bool *ret_outside)
{
    *ret_outside = false;
    if (!render__root || !path[0] || !realpath(path, real))
        return NULL;
    size_t rl = strlen(render__root);
    while (rl > 1 && render__root[rl - 1] == '/')
        rl--;
    if (!strncmp(real, render__root, rl) && real[rl] == '/')
        return real + rl + 1;
    *ret_outside = true;
    return NULL;
}

/* A path in a JSON verdict: relative to the root (render__root) when the file is under it (a
 * baseline made in any directory of the repository names files alike), else as given. */
static const char *render__json_path(const char *path, char *real)
{
    bool outside;
    const char *rel = path ? render__under_root(path, real, &outside) : NULL;
    return rel ? rel : path;
}

/* The SARIF artifactLocation of a path: relative to %SRCROOT% (in the run's originalUriBaseIds)
 * when the file is under it (`../src/a.py` written from src/ with the repository as the root is
 * `src/a.py`, never a `..`), else an absolute file:// URI. */
static json_t *render__artifact(const char *path)
{
    char cwd[4096], real[PATH_MAX];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    bool outside;
    const char *rel = render__under_root(path, real, &outside);
    if (rel)
        return json_pack("{s:o, s:s}", "uri", render__uri(rel), "uriBaseId", RENDER_SRCROOT);
    if (outside)
        path = real; /* outside the root: absolute */
    /* (a file that is gone, or <stdin>: as before, relative to the working directory) */
    size_t cl = have_cwd ? strlen(cwd) : 0;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    if (!render__root && path[0] == '/' && have_cwd && cl > 1 && !strncmp(path, cwd, cl) && path[cl] == '/')
        return json_pack("{s:o, s:s}", "uri", render__uri(path + cl + 1), "uriBaseId", RENDER_SRCROOT);
    if (path[0] != '/' && strncmp(path, "../", 3) && strcmp(path, ".."))
        return json_pack("{s:o, s:s}", "uri", render__uri(path), "uriBaseId", RENDER_SRCROOT);
    /* outside the working directory */
    char *abs = NULL;
    size_t n = strlen(path) + cl + 2;
    if (!(abs = malloc(n)))
        return NULL;
    if (path[0] == '/')
        snprintf(abs, n, "%s", path);
    else
        snprintf(abs, n, "%s/%s", have_cwd ? cwd : "", path);
    json_t *u = render__uri(abs);
    free(abs);
    if (!u)
        return NULL;
    char *full = malloc(strlen(json_string_value(u)) + 8);
    if (!full) {
        json_decref(u);
        return NULL;
    }
    sprintf(full, "file://%s", json_string_value(u));
    json_decref(u);
    json_t *j = json_pack("{s:s}", "uri", full);
    free(full);
    return j;
}

/* The working directory as the %SRCROOT% base (SARIF originalUriBaseIds), with its final '/'. */
static json_t *render__srcroot(void)
{
    char cwd[4096];
    if (render__root)
        snprintf(cwd, sizeof cwd, "%s", render__root);
    else if (!getcwd(cwd, sizeof cwd))
        return json_object();
    json_t *u = render__uri(cwd);
    if (!u)
        return NULL;
    const char *v = json_string_value(u);
    char *full = malloc(strlen(v) + 10);
    if (!full) {
        json_decref(u);
        return NULL;
    }
    sprintf(full, "file://%s%s", v, strcmp(v, "/") ? "/" : "");
    json_decref(u);
    json_t *j = json_pack("{s:{s:s}}", RENDER_SRCROOT, "uri", full);
    free(full);
    return j;
}

/* A stable fingerprint of a finding for code-scanning tools (followed across commits that move
 * it): FNV-1a 64 of the rule, the source line without surrounding blanks, and its occurrence
 * among equal ones in the file. */
static json_t *render__fingerprint(const char *rule, const char *snippet, unsigned occurrence)
{
    uint64_t h = 1469598103934665603ULL;
    const char *parts[2] = {rule, snippet ? snippet : ""};
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k];
        size_t len = strlen(p);
        while (k == 1 && len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
            len--;
        while (k == 1 && len && (*p == ' ' || *p == '\t')) {
            p++;
            len--;
        }
        for (size_t i = 0; i < len; i++) {
            h ^= (unsigned char)p[i];
            h *= 1099511628211ULL;
        }
        h ^= 0xff;
        h *= 1099511628211ULL;
    }
    char buf[48];
    snprintf(buf, sizeof buf, "%016llx:%u", (unsigned long long)h, occurrence);
    return json_pack("{s:s}", "snipgate/v1", buf);
}

static long render__pos(long v)
{
    return v < 1 ? 1 : v;
}

static json_t *render__sarif_rule(const sg_rule_info *ri)
{
    bool failed = false;
    json_t *tags = render__check(&failed, json_array());
    render__append(&failed, tags, json_string("security"));
    if (ri->cwe) {
        char t[48];
        snprintf(t, sizeof t, "external/cwe/cwe-%d", ri->cwe);
        render__append(&failed, tags, json_string(t));
    }
    if (failed) {
        json_decref(tags);
        return NULL;
    }
    char help[1200];
    snprintf(help, sizeof help, "%s. Fix: %s", ri->message, ri->fix && *ri->fix ? ri->fix : "remove the construct.");
    return json_pack("{s:o, s:o, s:{s:o}, s:{s:o}, s:{s:o}, s:{s:s}, s:{s:o, s:s, s:s, s:o}}", "id",
                     render__str(ri->id), "name", render__str(ri->name), "shortDescription", "text",
                     render__str(ri->message), "fullDescription", "text", render__str(ri->matches), "help", "text",
                     render__str(help), "defaultConfiguration", "level", render__level(ri->severity), "properties",
                     "tags", tags, "precision", ri->confidence, "security-severity", render__secsev(ri->severity),
                     "cwe", render__cwe(ri->cwe));
}

/* The golden stage's two rules (docs/verdict.md). */
static json_t *render__sarif_golden_rule(bool property)
{
    const char *id = property ? "SG-PROPERTY" : "SG-GOLDEN";
    const char *name = property ? "golden-property" : "golden-case";
    const char *shortd = property ? "A property of the task fails on a generated input"
                                  : "A golden case of the task fails";
    const char *full = property
                           ? "On an input generated from the task's signature or examples (shrunk to a minimal "
                             "counterexample), the candidate breaks a property the task names, or differs from the "
                             "reference solution (the default differential check)."
                           : "A known answer of the task (a structured case, an EvalPlus input, a HumanEval or MBPP "
                             "assert, an assert of --tests) is not met: wrong value, exception, timeout, a value "
                             "that is not plain data, or the candidate does not import.";
    const char *help = property ? "Fix the function for the counterexample shown; rerun with the reported --seed to "
                                  "replay the same inputs."
                                : "Fix the function so that it returns the expected value for the input shown.";
    return json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:[s], s:s}}", "id", id, "name", name,
                     "shortDescription", "text", shortd, "fullDescription", "text", full, "help", "text", help,
                     "defaultConfiguration", "level", "error", "properties", "tags", "correctness", "precision",
                     "high");
}

/* "test 2 (empty): f([], 3): expected -1, got raised IndexError: ..." */
static char *render__golden_message(const sg_report *rep, const sg_golden_case_result *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    render__golden_title(m, rep, c);
    if (c->input && c->kind != SG_GCASE_IMPORT)
        fprintf(m, ": %.2000s", c->input);
    if (c->expected)
        fprintf(m, ": expected %.2000s", c->expected);
    fputs(c->expected ? ", got " : ": got ", m);
    if (c->exc_type)
        fprintf(m, "raised %.200s%s%.1000s", c->exc_type, c->exc_message && *c->exc_message ? ": " : "",
                c->exc_message ? c->exc_message : "");
    else
        fprintf(m, "%.2000s", c->got ? c->got : c->reason ? c->reason : "no result");
    if (fclose(m) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The golden results of one report: failing cases as SARIF results, a stage error as a
 * notification. Rule indices of SG-GOLDEN / SG-PROPERTY are in `index`. */
static void render__sarif_golden(bool *failed, const sg_report *rep, json_t *rules, json_t *index, json_t *results,
                                 json_t *notes)
{
    if (rep->golden_stage == SG_STAGE_FAILED ||
        (rep->golden_stage == SG_STAGE_RAN && sg_golden_result_verdict(rep->golden) == SG_GOLDEN_ERROR)) {
        char msg[700];
        snprintf(msg, sizeof msg, "golden stage (task %.100s) could not judge the snippet: %.500s", rep->golden_task,
                 rep->golden_stage == SG_STAGE_FAILED ? rep->golden_reason : sg_golden_result_error(rep->golden));
        render__append(failed, notes,
                       json_pack("{s:s, s:{s:o}, s:[{s:{s:o}}]}", "level", "error", "message", "text",
                                 render__str(msg), "locations", "physicalLocation", "artifactLocation",
                                 render__artifact(rep->path)));
    }
    if (rep->golden_stage != SG_STAGE_RAN)
        return;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)sg_golden_result_seed(rep->golden));
    for (size_t k = 0; k < sg_golden_result_count(rep->golden) && !*failed; k++) {
        const sg_golden_case_result *c = sg_golden_result_case(rep->golden, k);
        if (c->passed)
            continue;
        const char *id = sg_golden_rule_id(c);
        json_t *ix = index ? json_object_get(index, id) : NULL;
        if (!ix) {
            ix = json_integer((json_int_t)json_array_size(rules));
            render__set(failed, index, id, ix);
            render__append(failed, rules, render__sarif_golden_rule(c->kind == SG_GCASE_PROPERTY));
            if (*failed)
                break;
        }
        char *msg = render__golden_message(rep, c);
        if (!msg) {
            *failed = true;
            break;
        }
        json_t *loc = json_pack("{s:o}", "artifactLocation", render__artifact(rep->path));
        if (loc && rep->golden_lines[k] > 0)
            render__set(failed, loc, "region", json_pack("{s:I}", "startLine", (json_int_t)render__pos(rep->golden_lines[k])));
        json_t *res = json_pack("{s:s, s:O, s:s, s:{s:o}, s:[{s:o}], s:{s:o, s:s, s:I, s:o, s:o, s:o, s:s}}",
                                "ruleId", id, "ruleIndex", ix, "level", "error", "message", "text", render__str(msg),
                                "locations", "physicalLocation", loc, "properties", "golden_task",
                                render__str(rep->golden_task), "kind", sg_golden_case_kind_name(c->kind), "index",
                                (json_int_t)c->index, "input", render__str_or_null(c->input), "expected",
                                render__str_or_null(c->expected), "got", render__str_or_null(c->got), "seed", seed);
        free(msg);
        if (res)
            render__set(failed, json_object_get(res, "properties"), "criterion",
                        json_string(sg_criterion_get(sg_golden_case_criterion(c))->id));
        if (res && c->test_line)
            render__set(failed, res, "relatedLocations",
                        json_pack("[{s:{s:o, s:{s:I}}}]", "physicalLocation", "artifactLocation",
                                  render__artifact(rep->golden_task), "region", "startLine",
                                  (json_int_t)render__pos(c->test_line)));
        render__append(failed, results, res);
    }
}

/* The fuzz stage of one report (gate/fuzz.c): its finding as an SG-FUZZ result, a stage that
 * could not run as a notification. */
static void render__sarif_fuzz(bool *failed, const sg_report *rep, json_t *rules, json_t *index, json_t *results,
                               json_t *notes)
{
    if (rep->fuzz_stage == SG_STAGE_FAILED) {
        char msg[700];
        snprintf(msg, sizeof msg, "fuzz stage (task %.100s) could not run: %.500s",
                 rep->fuzz_task ? rep->fuzz_task : "?", rep->fuzz_reason ? rep->fuzz_reason : "");
        render__append(failed, notes,
                       json_pack("{s:s, s:{s:o}, s:[{s:{s:{s:o}}}]}", "level", "error", "message", "text",
                                 render__str(msg), "locations", "physicalLocation", "artifactLocation", "uri",
                                 render__uri(rep->path)));
    }
    if (rep->fuzz_stage != SG_STAGE_RAN || !rep->fuzz_message || *failed)
        return;
    json_t *ix = index ? json_object_get(index, "SG-FUZZ") : NULL;
    if (!ix) {
        sg_rule_info ri = {.id = "SG-FUZZ", .name = "fuzz-finding", .severity = SG_SEV_HIGH, .confidence = "high",
                           .message = "fuzzing found an input on which the candidate misbehaves",
                           .fix = "reproduce it with the input shown, then fix the candidate",
                           .matches = "inputs found by the fuzz stage (docs/fuzz.md)"};
        ix = json_integer((json_int_t)json_array_size(rules));
        render__set(failed, index, "SG-FUZZ", ix);
        render__append(failed, rules, render__sarif_rule(&ri));
        if (*failed)
            return;
    }
    json_t *res = json_pack("{s:s, s:O, s:s, s:{s:o}, s:[{s:{s:{s:o}, s:{s:I}}}], s:{s:o, s:o}}", "ruleId",
                            "SG-FUZZ", "ruleIndex", ix, "level", "error", "message", "text",
                            render__str(rep->fuzz_message), "locations", "physicalLocation", "artifactLocation",
                            "uri", render__uri(rep->path), "region", "startLine", (json_int_t)rep->fuzz_line,
                            "properties", "fuzz_task", render__str(rep->fuzz_task ? rep->fuzz_task : ""), "fuzz",
                            sg_report_fuzz_json(rep));
    render__append(failed, results, res);
}

static json_t *render__sarif_doc(sg_report *const *reps, size_t n, const sg_render_opts *o);

static json_t *render__sarif(sg_report *const *reps, size_t n, const sg_render_opts *o)
{
    render__root = o->srcroot && o->srcroot[0] == '/' ? o->srcroot : NULL;
    json_t *j = render__sarif_doc(reps, n, o);
    render__root = NULL;
    return j;
}

static json_t *render__sarif_doc(sg_report *const *reps, size_t n, const sg_render_opts *o)
{
    bool failed = false;
    json_t *rules = render__check(&failed, json_array());
    /* Every enabled rule of the set, plus any rule a finding names that the set lacks. */
    size_t nr = o->rules ? sg_rules_count(o->rules) : 0;
    json_t *index = render__check(&failed, json_object());
    for (size_t i = 0; i < nr; i++) {
        const sg_rule_info *ri = sg_rules_info(o->rules, i);
        if (!ri->enabled)
            continue;
        render__set(&failed, index, ri->id, json_integer((json_int_t)json_array_size(rules)));
        render__append(&failed, rules, render__sarif_rule(ri));
    }
    json_t *results = render__check(&failed, json_array());
    json_t *notes = render__check(&failed, json_array());
    for (size_t r = 0; r < n; r++) {
        const sg_report *rep = reps[r];
        if (rep->error) {
            render__append(
                &failed, notes, json_pack("{s:s, s:{s:o}, s:[{s:{s:o}}]}", "level", "error", "message", "text",
                                 render__str(rep->diag.message), "locations", "physicalLocation", "artifactLocation",
                                 render__artifact(rep->path)));
            render__sarif_golden(&failed, rep, rules, index, results, notes);
            render__sarif_fuzz(&failed, rep, rules, index, results, notes);
            continue;
        }
        for (size_t i = 0; i < rep->findings.len; i++) {
            const sg_finding *f = &rep->findings.items[i];
            json_t *ix = index ? json_object_get(index, f->rule_id) : NULL;
            if (!ix) {
                sg_rule_info ri = {.id = f->rule_id, .name = f->name, .severity = f->severity,
                                   .confidence = f->confidence, .cwe = f->cwe, .message = f->message, .fix = f->fix,
                                   .matches = f->message};
                ix = json_integer((json_int_t)json_array_size(rules));
                render__set(&failed, index, f->rule_id, ix);
                render__append(&failed, rules, render__sarif_rule(&ri));
                if (failed)
                    break;
            }
            /* SARIF lines and columns start at 1: a line a negative --line-offset moved before the
             * start is clamped (the JSON verdict keeps the line as computed) */
            long sl = render__pos(f->line), el = render__pos(f->end_line), sc = render__pos(f->column),
                 ec = render__pos(f->end_column);
            if (el < sl)
                el = sl;
            if (el == sl && ec < sc)
                ec = sc;
            unsigned occ = 0;
            for (size_t k = 0; k < i; k++)
                occ += !strcmp(rep->findings.items[k].rule_id, f->rule_id) &&
                       !strcmp(rep->findings.items[k].snippet, f->snippet);
            json_t *res = json_pack(
                "{s:o, s:O, s:s, s:{s:o}, s:[{s:{s:o, s:{s:I, s:I, s:I, s:I, s:{s:o}}}}], s:o, s:{s:s, s:b, s:I}}",
                "ruleId", render__str(f->rule_id), "ruleIndex", ix, "level", render__level(f->severity), "message",
                "text", render__str(f->message), "locations", "physicalLocation", "artifactLocation",
                render__artifact(rep->path), "region", "startLine", (json_int_t)sl, "startColumn", (json_int_t)sc,
                "endLine", (json_int_t)el, "endColumn", (json_int_t)ec, "snippet", "text", render__str(f->snippet),
                "partialFingerprints", render__fingerprint(f->rule_id, f->snippet, occ), "properties", "severity",
                sg_severity_name(f->severity), "blocking", f->blocking, "line", (json_int_t)f->line);
            if (f->suppressed && res)
                render__set(&failed, res, "suppressions", json_pack("[{s:s}]", "kind", "inSource"));
            if (o->baseline && res)
                render__set(&failed, res, "baselineState", json_string(f->baseline ? "unchanged" : "new"));
            if (f->blocking && res)
                render__set(&failed, json_object_get(res, "properties"), "criterion", render__finding_criterion(f));
            render__append(&failed, results, res);
        }
        render__sarif_golden(&failed, rep, rules, index, results, notes);
        render__sarif_fuzz(&failed, rep, rules, index, results, notes);
    }
    json_decref(index);
    if (failed || !rules || !results || !notes) {
        json_decref(rules);
        json_decref(results);
        json_decref(notes);
        return NULL;
    }
    /* the run succeeded when every input was read and every stage could judge */
    bool ok = true;
    for (size_t r = 0; r < n; r++) {
        sg_stage_status gs = sg_report_stage(reps[r], SG_PIPE_GOLDEN, NULL, NULL);
        ok &= !reps[r]->error && gs != SG_STAGE_STATUS_ERROR;
    }
    json_t *run = json_pack("{s:{s:{s:s, s:s, s:o}}, s:o, s:s, s:o, s:[{s:b, s:o}], s:{s:s, s:s}}", "tool",
                            "driver", "name", "snipgate", "version", sg_version(), "rules", rules,
                            "originalUriBaseIds", render__srcroot(), "columnKind", "unicodeCodePoints", "results",
                            results, "invocations", "executionSuccessful", ok, "toolExecutionNotifications", notes,
                            "properties", "verdict", sg_reports_blocked(reps, n) ? "block" : "pass",
                            "schema_version", SG_VERDICT_SCHEMA_VERSION);
    if (!run)
        return NULL;
    return json_pack("{s:s, s:s, s:[o]}", "$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version",
                     "2.1.0", "runs", run);
}

/* ------------------------------------------------------------------------------------------ */
/* GitLab SAST (gl-sast-report.json)                                                            */

/* A path relative to %SRCROOT% (the repository's top level: what GitLab expects), or as given. */
static json_t *render__gl_file(const char *path)
{
    char real[PATH_MAX];
    bool outside;
    const char *rel = render__under_root(path, real, &outside);
    if (rel)
        return json_string(rel);
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return json_string(path);
}

static void render__gl_time(char *buf, size_t n, double ms_ago)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    time_t t = ts.tv_sec - (time_t)(ms_ago / 1000.0);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* GitLab's security report schema (SAST, 15.0.7): scan (analyzer, scanner, type, times, status)
 * and one vulnerability per finding that is not silenced (# nosec with a policy, or a baseline):
 * a stable id (the SARIF fingerprint with the file), the rule as identifier (and its CWE),
 * severity, and the location in the file relative to the repository. */
static json_t *render__gitlab_doc(sg_report *const *reps, size_t n, const sg_render_opts *o)
{
    bool failed = false;
    json_t *vulns = render__check(&failed, json_array());
    bool ok = true;
    for (size_t r = 0; r < n && !failed; r++) {
        const sg_report *rep = reps[r];
        ok &= !rep->error;
        for (size_t i = 0; i < rep->findings.len && !failed; i++) {
            const sg_finding *f = &rep->findings.items[i];
            if (f->suppressed || f->baseline)
                continue;
            unsigned occ = 0;
            for (size_t k = 0; k < i; k++)
                occ += !strcmp(rep->findings.items[k].rule_id, f->rule_id) &&
                       !strcmp(rep->findings.items[k].snippet, f->snippet);
            json_t *fp = render__fingerprint(f->rule_id, f->snippet, occ), *file = render__gl_file(rep->path);
            char id[600];
            snprintf(id, sizeof id, "%s:%s", file ? json_string_value(file) : rep->path,
                     fp ? json_string_value(json_object_get(fp, "snipgate/v1")) : "");
            json_decref(fp);
            static const char *const sev[] = {"Low", "Medium", "High", "Critical"};
            json_t *ids = json_pack("[{s:s, s:s, s:s}]", "type", "snipgate_rule_id", "name",
                                    f->name ? f->name : f->rule_id, "value", f->rule_id);
            if (ids && f->cwe > 0) {
                char cn[32], cv[16], url[80];
                snprintf(cn, sizeof cn, "CWE-%d", f->cwe);
                snprintf(cv, sizeof cv, "%d", f->cwe);
                snprintf(url, sizeof url, "https://cwe.mitre.org/data/definitions/%d.html", f->cwe);
                json_array_append_new(ids, json_pack("{s:s, s:s, s:s, s:s}", "type", "cwe", "name", cn, "value", cv,
                                                     "url", url));
            }
            long sl = f->line > 0 ? f->line : 1, el = f->end_line >= sl ? f->end_line : sl;
            json_t *v = json_pack("{s:o, s:s, s:o, s:o, s:s, s:{s:o, s:I, s:I}, s:o}", "id", render__str(id),
                                  "category", "sast", "name", render__str(f->message),
                                  "description", render__str(f->fix && f->fix[0] ? f->fix : f->message),
                                  "severity", sev[f->severity <= SG_SEV_CRITICAL ? f->severity : SG_SEV_CRITICAL],
                                  "location", "file", file, "start_line", (json_int_t)sl,
                                  "end_line", (json_int_t)el, "identifiers", ids);
            if (!v || json_array_append_new(vulns, v))
                failed = true;
        }
    }
    if (failed) {
        json_decref(vulns);
        return NULL;
    }
    char start[32], end[32];
    render__gl_time(start, sizeof start, o->elapsed_ms);
    render__gl_time(end, sizeof end, 0);
    json_t *tool = json_pack("{s:s, s:s, s:s, s:{s:s}}", "id", "snipgate", "name", "snipgate", "version", sg_version(),
                             "vendor", "name", "snipgate");
    return json_pack("{s:s, s:{s:o, s:O, s:s, s:s, s:s, s:s}, s:o}", "version", "15.0.7", "scan", "analyzer", tool,
                     "scanner", tool, "type", "sast", "start_time", start, "end_time", end, "status",
                     ok ? "success" : "failure", "vulnerabilities", vulns);
}

sg_status sg_render(FILE *out, sg_format format, sg_report *const *reports, size_t n, const sg_render_opts *opts)
{
    if (!out || (!reports && n))
        return SG_ERR_INVALID_ARG;
    sg_render_opts o = {0};
    if (opts)
        o = *opts;
    if (format == SG_FORMAT_MARKDOWN)
        return SG_ERR_INVALID_ARG; /* a verdict has no Markdown form */
    if (format == SG_FORMAT_TEXT) {
        render__text(out, reports, n, &o);
    } else {
        /* dumped to memory, then written at once: jansson's json_dumpf writes token by token */
        char *text = NULL;
        sg_status st = sg_render_string(format, reports, n, &o, false, &text);
        if (st != SG_OK)
            return st;
        bool bad = fputs(text, out) == EOF || fputc('\n', out) == EOF;
        free(text);
        if (bad)
            return SG_ERR_IO;
    }
    if (fflush(out) || ferror(out))
        return SG_ERR_IO;
    return SG_OK;
}

sg_status sg_render_string(sg_format format, sg_report *const *reports, size_t n, const sg_render_opts *opts,
                           bool compact, char **ret)
{
    if (!ret || (!reports && n) || (format != SG_FORMAT_JSON && format != SG_FORMAT_SARIF && format != SG_FORMAT_GITLAB))
        return SG_ERR_INVALID_ARG;
    *ret = NULL;
    sg_render_opts o = {0};
    if (opts)
        o = *opts;
    if (format == SG_FORMAT_JSON) {
        char *text = render__json(reports, n, &o, !compact);
        *ret = text;
        return text ? SG_OK : SG_ERR_NOMEM;
    }
    json_t *doc;
    if (format == SG_FORMAT_GITLAB) {
        render__root = o.srcroot && o.srcroot[0] == '/' ? o.srcroot : NULL;
        doc = render__gitlab_doc(reports, n, &o);
        render__root = NULL;
    } else {
        doc = render__sarif(reports, n, &o);
    }
    if (!doc)
        return SG_ERR_NOMEM;
    *ret = sg_json_dumps(doc, (compact ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    return *ret ? SG_OK : SG_ERR_NOMEM;
}

/* ------------------------------------------------------------------------------------------ */
/* Rules for people: the reference page and `snipgate rules --explain`                          */

/* Text inside a Markdown table cell or a paragraph: one line, `|` escaped, and outside `code`
 * spans the characters Markdown would read as emphasis or HTML (__globals__, os.exec*, <string>). */
static void render__md_inline(FILE *out, const char *s)
{
    bool code = false;
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '`')
            code = !code;
        if (*p == '|')
            fputs("\\|", out);
        else if (*p == '\n' || *p == '\r' || *p == '\t')
            fputc(' ', out);
        else if (!code && (*p == '*' || *p == '_' || *p == '\\'))
            fprintf(out, "\\%c", *p);
        else if (!code && *p == '<')
            fputs("&lt;", out);
        else
            fputc(*p, out);
    }
}

/* A code block, fenced by more backquotes than the text contains in a row. */
static void render__md_code(FILE *out, const char *lang, const char *s)
{
    size_t run = 0, longest = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t fence = longest >= 3 ? longest + 1 : 3;
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
    fprintf(out, "%s\n", lang);
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    fwrite(s, 1, n, out);
    fputc('\n', out);
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
    fputc('\n', out);
}

static void render__md_rule(FILE *out, const sg_rule_info *ri)
{
    fprintf(out, "## %s %s\n\n", ri->id, ri->name);
    fprintf(out, "- Severity: **%s**, confidence %s%s\n", sg_severity_name(ri->severity), ri->confidence,
            ri->severity >= SG_SEV_MEDIUM ? " (blocks at the default `--fail-on medium`)"
                                          : " (reported; blocks with `--fail-on low`)");
    if (ri->cwe)
        fprintf(out, "- CWE: [CWE-%d](https://cwe.mitre.org/data/definitions/%d.html)\n", ri->cwe, ri->cwe);
    fprintf(out, "- Kind: %s%s\n", ri->kind, ri->enabled ? "" : " (disabled)");
    fputs("- Matches: ", out);
    render__md_inline(out, ri->matches);
    fputs("\n- Reported as: \"", out);
    render__md_inline(out, ri->message);
    fputs("\"\n\n", out);
    if (ri->rationale && *ri->rationale) {
        fputs("**Why:** ", out);
        render__md_inline(out, ri->rationale);
        fputs("\n\n", out);
    }
    if (ri->fix && *ri->fix) {
        fputs("**Fix:** ", out);
        render__md_inline(out, ri->fix);
        fputs("\n\n", out);
    }
    if (ri->example && *ri->example) {
        fputs("Blocked:\n\n", out);
        render__md_code(out, "python", ri->example);
        fputc('\n', out);
    }
}

static void render__rules_markdown(FILE *out, const sg_rules *rules, bool all)
{
    size_t n = sg_rules_count(rules);
    fputs("<!-- Generated by `snipgate rules --format markdown` from the rule pack (rules/default.yml):\n"
          "     do not edit; regenerate with\n"
          "     build/snipgate rules --format markdown > docs/rules-reference.md -->\n"
          "# Rules reference\n\n"
          "Every rule of the default pack: what it matches, why it is dangerous, what to do instead, and a\n"
          "snippet it blocks. Findings at or above `--fail-on` (default: medium) block. The pack format is\n"
          "in [rules.md](rules.md); `snipgate rules --explain ID` prints one rule.\n\n"
          "| ID | Name | Severity | CWE | Kind |\n"
          "| --- | --- | --- | --- | --- |\n",
          out);
    for (size_t i = 0; i < n; i++) {
        const sg_rule_info *ri = sg_rules_info(rules, i);
        if (!ri->enabled && !all)
            continue;
        fprintf(out, "| [%s](#", ri->id);
        for (const char *p = ri->id; *p; p++)
            fputc(tolower((unsigned char)*p), out);
        fputc('-', out);
        for (const char *p = ri->name; *p; p++)
            fputc(isalnum((unsigned char)*p) || *p == '-' || *p == '_' ? tolower((unsigned char)*p) : '-', out);
        fputs(") | ", out);
        render__md_inline(out, ri->name);
        fprintf(out, " | %s | ", sg_severity_name(ri->severity));
        if (ri->cwe)
            fprintf(out, "CWE-%d", ri->cwe);
        fprintf(out, " | %s |\n", ri->kind);
    }
    fputc('\n', out);
    for (size_t i = 0; i < n; i++) {
        const sg_rule_info *ri = sg_rules_info(rules, i);
        if (ri->enabled || all)
            render__md_rule(out, ri);
    }
}

sg_status sg_rules_explain(FILE *out, const sg_rules *rules, const char *id)
{
    if (!out || !rules || !id)
        return SG_ERR_INVALID_ARG;
    const sg_rule_info *ri = NULL;
    for (size_t i = 0; i < sg_rules_count(rules) && !ri; i++)
        if (!strcmp(sg_rules_info(rules, i)->id, id))
            ri = sg_rules_info(rules, i);
    if (!ri)
        return SG_ERR_UNKNOWN_RULE;
    fprintf(out, "%s %s\n", ri->id, ri->name);
    fprintf(out, "  severity:   %s (confidence %s)%s\n", sg_severity_name(ri->severity), ri->confidence,
            ri->enabled ? "" : ", disabled");
    if (ri->cwe)
        fprintf(out, "  CWE:        CWE-%d https://cwe.mitre.org/data/definitions/%d.html\n", ri->cwe, ri->cwe);
    else
        fputs("  CWE:        -\n", out);
    fputs("  kind:       ", out);
    render__safe_str(out, ri->kind);
    fputs("\n  matches:    ", out);
    render__safe_str(out, ri->matches);
    fputs("\n  message:    ", out);
    render__safe_str(out, ri->message);
    fputs("\n  rationale:  ", out);
    render__safe_str(out, ri->rationale && *ri->rationale ? ri->rationale : "-");
    fputs("\n  fix:        ", out);
    render__safe_str(out, ri->fix && *ri->fix ? ri->fix : "-");
    fputs("\n  example:", out);
    if (ri->example && *ri->example) {
        fputc('\n', out);
        const char *p = ri->example;
        while (*p) {
            size_t l = strcspn(p, "\n");
            fputs("    ", out);
            render__safe(out, p, l);
            fputc('\n', out);
            p += l;
            if (*p == '\n')
                p++;
        }
    } else {
        fputs("    -\n", out);
    }
    return fflush(out) || ferror(out) ? SG_ERR_IO : SG_OK;
}

sg_status sg_rules_render(FILE *out, const sg_rules *rules, sg_format format, bool all)
{
    if (!out || !rules)
        return SG_ERR_INVALID_ARG;
    size_t n = sg_rules_count(rules);
    if (format == SG_FORMAT_MARKDOWN) {
        render__rules_markdown(out, rules, all);
    } else if (format != SG_FORMAT_JSON) {
        fprintf(out, "%-6s %-30s %-9s %-8s %-11s %s\n", "ID", "NAME", "SEVERITY", "CWE", "KIND", "MATCHES");
        for (size_t i = 0; i < n; i++) {
            const sg_rule_info *ri = sg_rules_info(rules, i);
            if (!ri->enabled && !all)
                continue;
            char cwe[16] = "-";
            if (ri->cwe)
                snprintf(cwe, sizeof cwe, "CWE-%d", ri->cwe);
            fprintf(out, "%-6s %-30s %-9s %-8s %-11s %s", ri->id, ri->name, sg_severity_name(ri->severity), cwe,
                    ri->kind, ri->enabled ? "" : "[disabled] ");
            render__safe_str(out, ri->matches);
            fputc('\n', out);
        }
    } else {
        bool failed = false;
        json_t *arr = render__check(&failed, json_array());
        for (size_t i = 0; i < n; i++) {
            const sg_rule_info *ri = sg_rules_info(rules, i);
            if (!ri->enabled && !all)
                continue;
            render__append(&failed, arr, json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "id",
                                                 render__str(ri->id), "name", render__str(ri->name), "severity",
                                                 sg_severity_name(ri->severity), "confidence",
                                                 render__str(ri->confidence), "cwe", render__cwe(ri->cwe), "kind",
                                                 render__str(ri->kind), "matches", render__str(ri->matches),
                                                 "message", render__str(ri->message), "fix", render__str(ri->fix),
                                                 "pack", render__str(ri->pack), "enabled", ri->enabled));
            /* appended after the original keys: consumers that read the first ones keep working */
            json_t *last = json_array_get(arr, json_array_size(arr) - 1);
            if (last && !failed) {
                render__set(&failed, last, "rationale", render__str(ri->rationale));
                render__set(&failed, last, "example", render__str(ri->example));
            }
        }
        if (!(arr = render__result(failed, arr)))
            return SG_ERR_NOMEM;
        int rc = json_dumpf(arr, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(arr);
        if (rc)
            return SG_ERR_IO;
        fputc('\n', out);
    }
    return fflush(out) || ferror(out) ? SG_ERR_IO : SG_OK;
}
