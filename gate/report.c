/* Reports: one per checked (or unreadable) document. */
#include "report.h"

#include <stdlib.h>

sg_status sg_report_new(const char *path, sg_report **ret_report)
{
    sg_report *r = calloc(1, sizeof *r);
    if (!r)
        return SG_ERR_NOMEM;
    r->arena = sg_arena_new();
    r->path = strdup(path ? path : "<stdin>");
    if (!r->arena || !r->path) {
        sg_report_free(r);
        return SG_ERR_NOMEM;
    }
    sg_diag_init(&r->diag);
    *ret_report = r;
    return SG_OK;
}

sg_status sg_report_new_error(const char *path, const sg_diag *diag, sg_report **ret_report)
{
    if (!ret_report || !diag || diag->status == SG_OK)
        return SG_ERR_INVALID_ARG;
    sg_report *r;
    sg_status st = sg_report_new(path, &r);
    if (st)
        return st;
    r->diag = *diag;
    r->error = diag->status;
    *ret_report = r;
    return SG_OK;
}

sg_status sg_report_new_empty(const char *path, sg_report **ret_report)
{
    if (!ret_report)
        return SG_ERR_INVALID_ARG;
    return sg_report_new(path, ret_report);
}

void sg_report_free(sg_report *report)
{
    if (!report)
        return;
    free(report->path);
    sg_golden_result_free(report->golden);
    sg_array_free(&report->findings);
    sg_array_free(&report->extra);
    sg_arena_free(report->arena);
    free(report);
}

const char *sg_report_path(const sg_report *report)
{
    return report ? report->path : NULL;
}

bool sg_report_blocked(const sg_report *report)
{
    if (!report || report->error || sg_report_golden_blocks(report) || report->extra.len ||
        report->fuzz_stage == SG_STAGE_FAILED)
        return true;
    for (size_t i = 0; i < report->findings.len; i++)
        if (report->findings.items[i].blocking)
            return true;
    return false;
}

sg_status sg_report_error(const sg_report *report, const sg_diag **ret_diag)
{
    if (!report)
        return SG_ERR_INVALID_ARG;
    if (ret_diag)
        *ret_diag = &report->diag;
    return report->error;
}

size_t sg_report_count(const sg_report *report)
{
    return report ? report->findings.len : 0;
}

const sg_finding *sg_report_finding(const sg_report *report, size_t index)
{
    return report ? sg_array_at(&report->findings, index) : NULL;
}

size_t sg_report_blocks(const sg_report *report)
{
    return report ? report->blocks : 0;
}

size_t sg_report_bytes(const sg_report *report)
{
    return report ? report->bytes : 0;
}

bool sg_reports_blocked(sg_report *const *reports, size_t n)
{
    if (n == 0)
        return true; /* nothing checked */
    for (size_t i = 0; i < n; i++)
        if (sg_report_blocked(reports[i]))
            return true;
    return false;
}
