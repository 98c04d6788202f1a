/* libFuzzer harness: `snipgate serve`'s request decoder (POST /v1/check bodies: JSON with code,
 * name, task, task_id, tests and a policy, which is loaded and turned into a rule set of its
 * own). A body is either a usable job or a 400 that says why; never a crash, a hang or a leak. */
#include <stdint.h>
#include <stdlib.h>

#include "cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[600];
    int rc = sg_cli_serve_decode((const char *)data, size, why, sizeof why);
    if (rc == 2)
        abort(); /* a job the worker could not use */
    if (rc == 1 && why[0] == '\0')
        abort(); /* every 400 says why */
    return 0;
}
