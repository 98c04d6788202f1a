/* The report of one document: internal layout shared by check.c and render.c.
 * Ownership: the report owns every string of its findings (in its arena). */
#ifndef SG_REPORT_H
#define SG_REPORT_H

#include <stdio.h>

#include <jansson.h>

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
    /* what the golden stage needs to find the program the static gate checked */
    bool markdown;          /* read as Markdown: the checked blocks are the program */
    long line_offset;       /* the checker's --line-offset */
    size_t *checked_blocks; /* Markdown: doc block index of each checked block (arena), `blocks` of them */
    /* stage 3 (gate/golden.c) */
    sg_golden_stage golden_stage;
    const char *golden_task;   /* label of the task (arena) */
    const char *golden_reason; /* SG_STAGE_SKIPPED / SG_STAGE_FAILED: why (arena) */
    sg_golden_result *golden;  /* SG_STAGE_RAN: owned */
    long *golden_lines;        /* per recorded case: the document line of its exception, 0 unknown */
    const char **golden_tracebacks; /* per recorded case: the traceback in document lines, or NULL */
    /* the pipeline (gate/verdict.c) */
    double static_ms, golden_ms;          /* each stage's wall time on this document */
    sg_stage_status fuzz_status;          /* set by sg_report_set_stage (the fuzz stage is external) */
    double fuzz_ms;
    const char *fuzz_note;                /* arena */
    SG_ARRAY(sg_reason) extra;            /* reasons added by sg_report_add_reason (strings: arena) */
    /* stage 4, fuzzing (gate/fuzz.c): a finding is an SG-FUZZ finding in `findings` */
    sg_golden_stage fuzz_stage;
    const char *fuzz_task;   /* label of the task (arena) */
    const char *fuzz_reason; /* SG_STAGE_SKIPPED / SG_STAGE_FAILED: why (arena) */
    const char *fuzz_json;   /* SG_STAGE_RAN: the stage's summary as JSON text (arena) */
    const char *fuzz_message;/* the finding's SG-FUZZ reason (arena), NULL without one */
    long fuzz_line;          /* and its document line */
};

sg_status sg_report_new(const char *path, sg_report **ret_report);

/* Does the golden stage block this report (a failed or erroneous run, or a stage that could not
 * start)? */
bool sg_report_golden_blocks(const sg_report *report);
/* The SARIF/JSON rule id of a failing golden case: "SG-PROPERTY" for a property on a generated
 * input, else "SG-GOLDEN". */
const char *sg_golden_rule_id(const sg_golden_case_result *c);

/* The blocking criterion of a failing golden case (golden-case, property, or a sandbox limit). */
sg_criterion sg_golden_case_criterion(const sg_golden_case_result *c);

/* Milliseconds on the monotonic clock (stage times in the verdict; never a limit). */
double sg_verdict_now_ms(void);
/* For the fuzz stage: the program the golden stage runs and its document line map (golden.c). */
sg_status sg_report_program(const sg_report *r, const char *buf, size_t len, char **ret_text, long **ret_lines,
                            size_t *ret_nlines, sg_diag *diag);
/* The fuzz stage's summary line in text verdicts, and its JSON object (NULL when not run). */
void sg_report_fuzz_text(FILE *out, const sg_report *report);
json_t *sg_report_fuzz_json(const sg_report *report);

#endif
