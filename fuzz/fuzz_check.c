/*
 * libFuzzer harness: the whole static gate (extraction, prescan, tree-sitter, resolution, every
 * default rule, rendering) on arbitrary bytes, as Python and as Markdown. Any crash, leak, hang
 * or sanitizer report is a bug; a rejected input (NUL, bad UTF-8, empty) is fine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sg_rules *fuzz__rules;
static sg_checker *fuzz__py, *fuzz__md;
static FILE *fuzz__null;

static void fuzz__init(void)
{
    sg_options o;
    sg_options_init(&o);
    o.parse_steps = 4000000; /* small inputs: a few MB of work at most per input */
    if (sg_rules_new_default(&fuzz__rules) || sg_rules_allow_host(fuzz__rules, "api.example.com"))
        abort();
    o.input_kind = SG_INPUT_AUTO;
    if (sg_checker_new(fuzz__rules, &o, &fuzz__py))
        abort();
    o.input_kind = SG_INPUT_MARKDOWN;
    o.honor_suppressions = true;
    if (sg_checker_new(fuzz__rules, &o, &fuzz__md))
        abort();
    fuzz__null = fopen("/dev/null", "w");
    if (!fuzz__null)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz__rules)
        fuzz__init();
    sg_checker *checkers[] = {fuzz__py, fuzz__md};
    for (int k = 0; k < 2; k++) {
        sg_report *r = NULL;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_checker_check(checkers[k], k ? "f.md" : "f", (const char *)data, size, &r, &d);
        if (st == SG_OK) {
            /* every finding is located inside the document */
            for (size_t i = 0; i < sg_report_count(r); i++) {
                const sg_finding *f = sg_report_finding(r, i);
                if (f->line < 1 || f->column < 1 || f->end_line < f->line || !f->rule_id || !f->message)
                    abort();
            }
            sg_render_opts ro = {.rules = fuzz__rules};
            sg_report *reps[] = {r};
            if (sg_render(fuzz__null, (sg_format)(size % 3), reps, 1, &ro))
                abort();
            sg_report_free(r);
        } else if (st == SG_ERR_INTERNAL || st == SG_ERR_NOMEM || st == SG_ERR_INVALID_ARG) {
            abort(); /* the gate itself failed */
        }
    }
    return 0;
}
