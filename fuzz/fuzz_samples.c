/*
 * libFuzzer harness: the samples loader of `snipgate eval` (sg_golden_samples_load_buffer) on
 * arbitrary bytes, against a small fixed suite (a string id, an MBPP integer id). Every input
 * loads (only memory can run out); each non-blank line is one sample, good (its task found by its
 * id, numbered among its task's samples in order) or bad with a reason. Any crash, leak or
 * sanitizer report is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz__suite_text[] =
    "{\"task_id\": \"t/add\", \"prompt\": \"def add(a, b):\\n\", \"entry_point\": \"add\", "
    "\"canonical_solution\": \"    return a + b\\n\", \"tests\": [{\"args\": [1, 2], \"expected\": 3}]}\n"
    "{\"task_id\": 7, \"text\": \"Square.\", \"code\": \"def sq(x):\\n    return x * x\\n\", "
    "\"test_list\": [\"assert sq(2) == 4\"], \"test_setup_code\": \"\"}\n";

static sg_golden_suite *fuzz__suite;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz__suite && sg_golden_suite_load_buffer("suite.jsonl", fuzz__suite_text, sizeof fuzz__suite_text - 1,
                                                    &fuzz__suite, NULL) != SG_OK)
        abort();
    sg_golden_samples *ss = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_golden_samples_load_buffer(fuzz__suite, (const char *)data, size, &ss, &d) != SG_OK)
        abort(); /* only out of memory may fail a load */
    size_t n = sg_golden_samples_count(ss), ntasks = sg_golden_suite_count(fuzz__suite);
    size_t per_task[2] = {0, 0};
    long prev = 0;
    if (sg_golden_samples_get(ss, n) || ntasks != 2)
        abort();
    for (size_t i = 0; i < n; i++) {
        const sg_golden_sample *s = sg_golden_samples_get(ss, i);
        if (!s || s->line <= prev)
            abort();
        prev = s->line;
        if (s->error) {
            if (!s->error[0] || s->task || s->completion)
                abort();
            continue;
        }
        /* a good sample: its task is the suite's task of that id, in its place, counted in order */
        if (!s->id || !s->task || !s->completion || s->task_index >= ntasks ||
            sg_golden_suite_task(fuzz__suite, s->task_index) != s->task ||
            sg_golden_suite_find(fuzz__suite, s->id) != s->task || s->sample != per_task[s->task_index]++)
            abort();
    }
    if (n > size / 2 + 1)
        abort(); /* a sample is at least one non-blank byte and a newline */
    sg_golden_samples_free(ss);
    return 0;
}
