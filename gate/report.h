/* The report of one document: internal layout shared by check.c and render.c.
 * Ownership: the report owns every string of its findings (in its arena). */
#ifndef SG_REPORT_H
#define SG_REPORT_H

#include "base/util.h"

struct sg_report {
    char *path;
    sg_status error; /* SG_OK when the document was checked */
    sg_diag diag;
    sg_arena *arena;
    SG_ARRAY(sg_finding) findings;
    size_t blocks, bytes, suppressed;
    bool truncated; /* more findings than SG_ENGINE_MAX_HITS */
    sg_severity fail_on;
};

sg_status sg_report_new(const char *path, sg_report **ret_report);

#endif
