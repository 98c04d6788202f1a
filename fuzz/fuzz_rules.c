/* libFuzzer harness: the YAML rule-pack loader on arbitrary bytes. A malformed pack must be
 * refused with a located error and leave the set usable; never a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sg_rules *rules;
    if (sg_rules_new_default(&rules))
        abort();
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_rules_load_buffer(rules, "fuzz.yml", (const char *)data, size, (size % 2) == 1, &d);
    if (st != SG_OK && st != SG_ERR_RULES && st != SG_ERR_UNKNOWN_RULE && st != SG_ERR_INVALID_ARG &&
        st != SG_ERR_TOO_LARGE)
        abort();
    if (st != SG_OK && d.message[0] == 0)
        abort(); /* every refusal says why */
    sg_checker *c;
    if (sg_checker_new(rules, NULL, &c) == SG_OK) {
        static const char snippet[] = "import os\nos.system('x')\neval(input())\n";
        sg_report *r = NULL;
        if (sg_checker_check(c, "s.py", snippet, strlen(snippet), &r, NULL) != SG_OK)
            abort(); /* whatever the pack says, checking a valid snippet is never an error */
        sg_report_free(r);
        sg_checker_free(c);
    }
    sg_rules_free(rules);
    return 0;
}
