/* libFuzzer harness: the policy loader (.snipgate.yml, docs/policy.md) on arbitrary bytes, read
 * both as YAML and as a pyproject.toml's [tool.snipgate] table (gate/policy_toml.c). A malformed
 * policy is refused with a located reason (file:line:col); a loaded one answers every accessor
 * and its exclude matcher; never a crash, a hang or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const char *path, const uint8_t *data, size_t size)
{
    sg_policy *p = NULL;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_policy_load_buffer(path, (const char *)data, size, &p, &d);
    if (st != SG_OK) {
        if (p)
            abort(); /* a refusal returns no policy */
        if (st != SG_ERR_POLICY && st != SG_ERR_TOO_LARGE && st != SG_ERR_INVALID_ARG)
            abort();
        if (d.message[0] == 0)
            abort(); /* every refusal says why */
        return;
    }
    const sg_policy_info *in = sg_policy_get(p);
    if (!in)
        abort();
    /* every list is as long as it says, every string readable */
    size_t total = 0;
    for (size_t k = 0; k < in->n_enable; k++)
        total += strlen(in->enable[k]);
    for (size_t k = 0; k < in->n_disable; k++)
        total += strlen(in->disable[k]);
    for (size_t k = 0; k < in->n_packs; k++)
        total += strlen(in->packs[k]);
    for (size_t k = 0; k < in->n_allow_hosts; k++)
        total += strlen(in->allow_hosts[k]);
    for (size_t k = 0; k < in->n_exclude; k++)
        total += strlen(in->exclude[k]);
    if (in->has_fail_on && (in->fail_on < SG_SEV_LOW || in->fail_on > SG_SEV_CRITICAL))
        abort();
    static const char *const paths[] = {"/repo/a.py", "/repo/tests/fixtures/x.py", "/elsewhere/b_pb2.py",
                                        "rel/c.py", "/repo/", ""};
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++)
        (void)sg_policy_excludes(p, paths[k]);
    (void)total;
    sg_policy_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one("/repo/.snipgate.yml", data, size);
    one("/repo/pyproject.toml", data, size);
    return 0;
}
