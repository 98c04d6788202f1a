/*
 * The golden stage of a checked document (snipgate/golden.h, sg_report_run_golden): find the
 * program the static gate checked (the whole Python document, or the Markdown blocks it checked,
 * joined), run it on the task in the sandbox, and keep the result in the report with every
 * exception line mapped back to the document. The static gate comes first: a blocked report runs
 * nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "golden_tasks/golden.h"
#include "parsers/extract.h"
#include "report.h"

bool sg_report_golden_blocks(const sg_report *r)
{
    if (r->golden_stage == SG_STAGE_FAILED)
        return true;
    return r->golden_stage == SG_STAGE_RAN && sg_golden_result_verdict(r->golden) != SG_GOLDEN_PASS;
}

const char *sg_golden_rule_id(const sg_golden_case_result *c)
{
    return c->kind == SG_GCASE_PROPERTY ? "SG-PROPERTY" : "SG-GOLDEN";
}

sg_golden_stage sg_report_golden_stage(const sg_report *report)
{
    return report ? report->golden_stage : SG_STAGE_NOT_RUN;
}

const sg_golden_result *sg_report_golden(const sg_report *report)
{
    return report && report->golden_stage == SG_STAGE_RAN ? report->golden : NULL;
}

const char *sg_report_golden_reason(const sg_report *report)
{
    return report && (report->golden_stage == SG_STAGE_SKIPPED || report->golden_stage == SG_STAGE_FAILED)
               ? report->golden_reason
               : NULL;
}

sg_status sg_report_golden_error(sg_report *report, const char *task_label, const char *reason)
{
    if (!report || !task_label || !reason || report->golden_stage != SG_STAGE_NOT_RUN)
        return SG_ERR_INVALID_ARG;
    bool skip = sg_report_blocked(report); /* the static gate first: it would not have run */
    const char *t = sg_arena_strdup(report->arena, task_label);
    const char *why = sg_arena_strdup(report->arena, !skip           ? reason
                                                     : report->error ? "the input could not be checked; nothing was run"
                                                                     : "the static gate blocked; nothing was run");
    if (!t || !why)
        return SG_ERR_NOMEM;
    report->golden_task = t;
    report->golden_reason = why;
    report->golden_stage = skip ? SG_STAGE_SKIPPED : SG_STAGE_FAILED;
    return SG_OK;
}

/* The program the static gate checked, and for each of its lines (0-based) the document line
 * (1-based, before --line-offset). Python: the document itself. Markdown: the checked blocks,
 * each ending with a newline, in order. */
typedef struct golden__prog {
    sg_buf text;
    SG_ARRAY(long) lines;
} golden__prog;

static sg_status golden__program(const sg_report *r, const char *buf, size_t len, golden__prog *p, sg_diag *diag)
{
    sg_doc doc;
    sg_status st = sg_doc_extract(r->path, buf, len, r->markdown ? SG_INPUT_MARKDOWN : SG_INPUT_PYTHON, &doc, diag);
    if (st != SG_OK)
        return st;
    sg_buf_init(&p->text, len + 2 * r->blocks + 16);
    size_t n = r->markdown ? r->blocks : (doc.blocks.len ? 1 : 0);
    for (size_t k = 0; k < n && st == SG_OK; k++) {
        size_t bi = r->markdown ? r->checked_blocks[k] : k;
        if (bi >= doc.blocks.len) {
            st = sg_diag_set(diag, SG_ERR_INVALID_ARG, r->path, 0, 0, -1, 0,
                             "the document is not the one that was checked");
            break;
        }
        const sg_block *b = &doc.blocks.items[bi];
        size_t row = 0;
        for (size_t i = 0; i <= b->len && st == SG_OK; i++) {
            if (i < b->len && b->text[i] != '\n')
                continue;
            if (i == b->len && (i == 0 || b->text[i - 1] == '\n'))
                break; /* no partial last line */
            long line = row < b->nlines ? b->line_map[row] : (b->nlines ? b->line_map[b->nlines - 1] : 1);
            if (sg_array_push(&p->lines, line, 0) < 0)
                st = SG_ERR_NOMEM;
            row++;
        }
        sg_buf_append(&p->text, b->text, b->len);
        if (b->len && b->text[b->len - 1] != '\n')
            sg_buf_puts(&p->text, "\n");
    }
    sg_doc_free(&doc);
    if (st == SG_OK && (p->text.failed || p->text.truncated))
        st = SG_ERR_NOMEM;
    if (st == SG_OK && !p->text.len)
        st = sg_diag_set(diag, SG_ERR_EMPTY, r->path, 0, 0, -1, 0, "no Python code to run");
    return st;
}

/* A line of the candidate program (1-based) -> the document line shown to the user, 0 unknown. */
static long golden__doc_line(const sg_report *r, const golden__prog *p, long line)
{
    if (line < 1 || (size_t)line > p->lines.len)
        return 0;
    return p->lines.items[line - 1] + r->line_offset;
}

/* The traceback with the candidate's frames named by the document and its lines. Frames in the
 * task's code stay `File "<task>"`. Arena string, NULL when out of memory. */
static const char *golden__traceback(sg_report *r, const golden__prog *p, const char *tb)
{
    static const char key[] = "File \"<snippet>\", line ";
    sg_buf b;
    sg_buf_init(&b, strlen(tb) * 2 + strlen(r->path) * 64 + 256);
    const char *at = tb, *hit;
    while ((hit = strstr(at, key))) {
        const char *num = hit + sizeof key - 1;
        char *end = NULL;
        long line = strtol(num, &end, 10);
        sg_buf_append(&b, at, (size_t)(hit - at));
        long d = end == num ? 0 : golden__doc_line(r, p, line);
        if (d) {
            /* the path as a Python string literal would show it (a quote in it stays readable) */
            sg_buf_printf(&b, "File \"%s\", line %ld", r->path, d);
            at = end;
        } else {
            sg_buf_append(&b, hit, sizeof key - 1);
            at = num;
        }
    }
    sg_buf_puts(&b, at);
    const char *s = b.failed ? NULL : sg_arena_strdup(r->arena, b.data ? b.data : "");
    sg_buf_free(&b);
    return s;
}

sg_status sg_report_run_golden(sg_report *report, const sg_sandbox *sandbox, const sg_golden_task *task,
                               const char *task_label, const char *buf, size_t len, const sg_golden_opts *opts,
                               sg_diag *diag)
{
    if (!report || !sandbox || !task || (!buf && len) || report->golden_stage != SG_STAGE_NOT_RUN)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, report ? report->path : NULL, 0, 0, -1, 0,
                           "sg_report_run_golden: bad argument or stage already run");
    const char *label = sg_arena_strdup(report->arena, task_label ? task_label : sg_golden_task_id(task));
    if (!label)
        return sg_diag_set(diag, SG_ERR_NOMEM, report->path, 0, 0, -1, 0, "out of memory");
    /* the static gate first: nothing it blocked (or could not check) ever runs */
    if (sg_report_blocked(report)) {
        const char *why =
            sg_arena_strdup(report->arena, report->error ? "the input could not be checked; nothing was run"
                                                         : "the static gate blocked; nothing was run");
        if (!why)
            return sg_diag_set(diag, SG_ERR_NOMEM, report->path, 0, 0, -1, 0, "out of memory");
        report->golden_task = label;
        report->golden_reason = why;
        report->golden_stage = SG_STAGE_SKIPPED;
        return SG_OK;
    }
    golden__prog prog;
    memset(&prog, 0, sizeof prog);
    sg_golden_result *res = NULL;
    sg_status st = golden__program(report, buf ? buf : "", len, &prog, diag);
    if (st != SG_OK)
        goto out_free;
    sg_golden_opts o;
    if (opts)
        o = *opts;
    else
        sg_golden_opts_init(&o);
    o.completion = false; /* the program is complete: it is what the static gate checked */
    double t0 = sg_verdict_now_ms();
    st = sg_golden_run(sandbox, task, prog.text.data, prog.text.len, &o, &res, diag);
    report->golden_ms = sg_verdict_now_ms() - t0;
    if (st != SG_OK)
        goto out_free;
    size_t n = sg_golden_result_count(res);
    long *lines = sg_arena_alloc(report->arena, (n ? n : 1) * sizeof *lines);
    const char **tbs = sg_arena_alloc(report->arena, (n ? n : 1) * sizeof *tbs);
    if (!lines || !tbs) {
        st = sg_diag_set(diag, SG_ERR_NOMEM, report->path, 0, 0, -1, 0, "out of memory");
        goto out_free;
    }
    for (size_t k = 0; k < n; k++) {
        const sg_golden_case_result *c = sg_golden_result_case(res, k);
        lines[k] = golden__doc_line(report, &prog, c->exc_line);
        tbs[k] = NULL;
        if (c->traceback && !(tbs[k] = golden__traceback(report, &prog, c->traceback))) {
            st = sg_diag_set(diag, SG_ERR_NOMEM, report->path, 0, 0, -1, 0, "out of memory");
            goto out_free;
        }
    }
    report->golden = res;
    res = NULL;
    report->golden_lines = lines;
    report->golden_tracebacks = tbs;
    report->golden_task = label;
    report->golden_stage = SG_STAGE_RAN;
out_free:
    sg_golden_result_free(res);
    sg_buf_free(&prog.text);
    sg_array_free(&prog.lines);
    return st;
}

sg_status sg_document_program(const char *path, const char *buf, size_t len, char **ret_text, size_t *ret_len,
                              sg_diag *diag)
{
    if ((!buf && len) || !ret_text || !ret_len)
        return SG_ERR_INVALID_ARG;
    const char *dot = path ? strrchr(path, '.') : NULL;
    sg_input_kind kind = SG_INPUT_AUTO;
    if (dot && (!strcmp(dot, ".py") || !strcmp(dot, ".pyw")))
        kind = SG_INPUT_PYTHON;
    else if (dot && (!strcmp(dot, ".md") || !strcmp(dot, ".markdown")))
        kind = SG_INPUT_MARKDOWN;
    sg_doc doc;
    sg_status st = sg_doc_extract(path, buf ? buf : "", len, kind, &doc, diag);
    if (st != SG_OK)
        return st;
    if (!doc.markdown) {
        sg_doc_free(&doc);
        char *t = malloc(len + 1);
        if (!t)
            return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
        memcpy(t, buf, len);
        t[len] = 0;
        *ret_text = t;
        *ret_len = len;
        return SG_OK;
    }
    bool labeled = false;
    long last = 0;
    for (size_t k = 0; k < doc.blocks.len; k++) {
        const sg_block *b = &doc.blocks.items[k];
        labeled |= !b->unlabeled;
        if (b->nlines && b->line_map[b->nlines - 1] > last)
            last = b->line_map[b->nlines - 1];
    }
    /* each document line: the block line placed there, or nothing */
    const char **at = calloc((size_t)last + 2, sizeof *at);
    size_t *at_len = calloc((size_t)last + 2, sizeof *at_len);
    sg_buf out;
    sg_buf_init(&out, len + (size_t)last + 16);
    if (!at || !at_len) {
        st = SG_ERR_NOMEM;
        goto out_free;
    }
    for (size_t k = 0; k < doc.blocks.len; k++) {
        const sg_block *b = &doc.blocks.items[k];
        if (labeled && b->unlabeled)
            continue;
        const char *p = b->text;
        for (size_t row = 0; row < b->nlines && p < b->text + b->len; row++) {
            size_t l = strcspn(p, "\n");
            long dl = b->line_map[row];
            if (dl >= 1 && dl <= last) {
                at[dl] = p;
                at_len[dl] = l;
            }
            p += l + (p[l] == '\n');
        }
    }
    for (long dl = 1; dl <= last; dl++) {
        if (at[dl])
            sg_buf_append(&out, at[dl], at_len[dl]);
        sg_buf_puts(&out, "\n");
    }
    if (out.failed || out.truncated)
        st = SG_ERR_NOMEM;
out_free:
    free(at);
    free(at_len);
    sg_doc_free(&doc);
    if (st != SG_OK) {
        sg_buf_free(&out);
        return sg_diag_set(diag, st, path, 0, 0, -1, 0, "out of memory");
    }
    *ret_text = out.data ? out.data : strdup("");
    *ret_len = out.len;
    return *ret_text ? SG_OK : SG_ERR_NOMEM;
}

/* The program the golden stage runs for this report's document and, per program line, the
 * document line (before the line offset): for the fuzz stage (gate/fuzz.c). Malloc'd. */
sg_status sg_report_program(const sg_report *r, const char *buf, size_t len, char **ret_text, long **ret_lines,
                            size_t *ret_nlines, sg_diag *diag)
{
    golden__prog prog;
    memset(&prog, 0, sizeof prog);
    sg_status st = golden__program(r, buf ? buf : "", len, &prog, diag);
    if (st == SG_OK) {
        *ret_text = prog.text.data;
        *ret_lines = prog.lines.items;
        *ret_nlines = prog.lines.len;
        return SG_OK;
    }
    sg_buf_free(&prog.text);
    sg_array_free(&prog.lines);
    return st;
}
