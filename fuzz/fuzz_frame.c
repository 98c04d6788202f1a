/* libFuzzer harness: the sandbox's frame decoder and framing (sandbox/frame.c) on arbitrary bytes,
 * as the candidate's process can write them to the result pipe. Any input is either split into
 * well-formed frames or refused; never a crash, an over-read or a leak. What parses re-encodes to
 * a frame that parses to the same fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_frame(void *ctx, struct sg_frame *f)
{
    (void)ctx;
    if (!f->kind[0])
        abort(); /* a parsed frame always has a kind */
    static unsigned char buf[SG_FRAME_MAX_BODY + 4 + 5 * SG_FRAME_NTAGS];
    size_t n = 4;
    for (int t = 0; t < SG_FRAME_NTAGS; t++)
        if (f->fields[t] && sg_frame_put(buf, sizeof buf, &n, (enum sg_frame_tag)t, f->fields[t], f->lens[t]) < 0)
            abort();
    sg_frame_seal(buf, n);
    struct sg_frame back;
    memset(&back, 0, sizeof back);
    if (sg_frame_parse(buf + 4, n - 4, &back) < 0)
        abort();
    for (int t = 0; t < SG_FRAME_NTAGS; t++)
        if ((back.fields[t] == NULL) != (f->fields[t] == NULL) || back.lens[t] != f->lens[t] ||
            (f->fields[t] && memcmp(back.fields[t], f->fields[t], f->lens[t])))
            abort();
    sg_frame_clear(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t used = 0;
    int rc = sg_frame_split(data, size, &used, check_frame, NULL);
    if (used > size || (rc < 0 && used == size && size))
        abort();
    struct sg_frame f;
    memset(&f, 0, sizeof f);
    (void)sg_frame_parse(data, size, &f); /* a body alone */
    sg_frame_clear(&f);
    return 0;
}
