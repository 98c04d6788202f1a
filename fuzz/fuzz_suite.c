/*
 * libFuzzer harness: the task-file loader (sg_golden_suite_load_buffer: snipgate JSONL, HumanEval,
 * MBPP, MBPP+ lines) and the --tests file of plain asserts (sg_golden_suite_from_asserts), on
 * arbitrary bytes. An input is either refused with a status and a message or loads a suite whose
 * every task answers its accessors, and is found again by its id. Any crash, leak or sanitizer
 * report is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz__walk(const sg_golden_suite *s)
{
    size_t n = sg_golden_suite_count(s);
    if (sg_golden_suite_task(s, n))
        abort();
    for (size_t i = 0; i < n; i++) {
        const sg_golden_task *t = sg_golden_suite_task(s, i);
        const char *id = t ? sg_golden_task_id(t) : NULL;
        if (!id || sg_golden_suite_find(s, id) != t)
            abort(); /* ids are unique and findable */
        char *prog = sg_golden_task_candidate_source(t, "    return 0\n");
        if (!prog)
            abort();
        free(prog);
        unsigned inputs;
        double secs;
        sg_golden_task_fuzz_budget(t, &inputs, &secs);
        if (sg_golden_task_prompt_lines(t) < 0 || (!sg_golden_task_completes_prompt(t) && sg_golden_task_prompt_lines(t)))
            abort();
    }
}

/* A refused input: bad input (with a message saying where), never the loader itself failing. */
static void fuzz__status(sg_status st, const sg_diag *d)
{
    if (st == SG_ERR_INTERNAL || (st == SG_ERR_INVALID_ARG && !d->message[0]))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sg_golden_suite *s = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_golden_suite_load_buffer("fuzz.jsonl", (const char *)data, size, &s, &d);
    if (st == SG_OK) {
        fuzz__walk(s);
        sg_golden_suite_free(s);
    } else {
        fuzz__status(st, &d);
    }
    s = NULL;
    sg_diag_init(&d);
    st = sg_golden_suite_from_asserts("test_fuzz.py", (const char *)data, size, &s, &d);
    if (st == SG_OK) {
        if (sg_golden_suite_count(s) != 1)
            abort();
        fuzz__walk(s);
        sg_golden_suite_free(s);
    } else {
        fuzz__status(st, &d);
    }
    return 0;
}
