/*
 * The frame protocol (frame.h): decoder, encoder and length-prefix framing. The decoder reads
 * bytes from the candidate's process: every length is checked against what is there.
 */
#include <stdlib.h>
#include <string.h>

#include "sandbox/frame.h"

static uint32_t frame__u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void frame__put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)((v >> (8 * i)) & 0xff);
}

void sg_frame_clear(struct sg_frame *frame)
{
    for (int i = 0; i < SG_FRAME_NTAGS; i++) {
        free(frame->fields[i]);
        frame->fields[i] = NULL;
        frame->lens[i] = 0;
    }
    frame->kind[0] = '\0';
}

/* Trust boundary: `body` comes from the sandbox. */
int sg_frame_parse(const unsigned char *body, size_t len, struct sg_frame *frame)
{
    sg_frame_clear(frame);
    size_t i = 0;
    while (i < len) {
        if (len - i < 5)
            goto fail;
        unsigned tag = body[i];
        uint32_t n = frame__u32(body + i + 1);
        i += 5;
        if (tag >= SG_FRAME_NTAGS || n > len - i || frame->fields[tag])
            goto fail;
        frame->fields[tag] = malloc((size_t)n + 1);
        if (!frame->fields[tag])
            goto fail;
        memcpy(frame->fields[tag], body + i, n);
        frame->fields[tag][n] = '\0';
        frame->lens[tag] = n;
        i += n;
    }
    const char *k = frame->fields[SG_TAG_KIND];
    if (!k || !*k || strlen(k) >= sizeof frame->kind || frame->lens[SG_TAG_KIND] != strlen(k))
        goto fail;
    memcpy(frame->kind, k, strlen(k) + 1);
    return 0;
fail:
    sg_frame_clear(frame);
    return -1;
}

const char *sg_frame_get(const struct sg_frame *frame, enum sg_frame_tag tag, size_t *ret_len)
{
    if (!frame || (unsigned)tag >= SG_FRAME_NTAGS || !frame->fields[tag])
        return NULL;
    if (ret_len)
        *ret_len = frame->lens[tag];
    return frame->fields[tag];
}

bool sg_frame_is(const struct sg_frame *frame, const char *kind)
{
    return frame && !strcmp(frame->kind, kind);
}

int sg_frame_put(unsigned char *buf, size_t cap, size_t *len, enum sg_frame_tag tag, const char *val,
                 size_t val_len)
{
    if (*len > cap || cap - *len < 5 || cap - *len - 5 < val_len || val_len > SG_FRAME_MAX_BODY)
        return -1;
    unsigned char *p = buf + *len;
    p[0] = (unsigned char)tag;
    frame__put_u32(p + 1, (uint32_t)val_len);
    if (val_len)
        memcpy(p + 5, val, val_len);
    *len += 5 + val_len;
    return 0;
}

void sg_frame_seal(unsigned char *buf, size_t len)
{
    frame__put_u32(buf, (uint32_t)(len - 4));
}

int sg_frame_split(const unsigned char *data, size_t len, size_t *ret_consumed,
                   void (*on_frame)(void *ctx, struct sg_frame *frame), void *ctx)
{
    size_t off = 0;
    int rc = 0;
    while (len - off >= 4) {
        uint32_t n = frame__u32(data + off);
        if (n > SG_FRAME_MAX_BODY) {
            rc = -1;
            break;
        }
        if (len - off - 4 < n)
            break;
        struct sg_frame f;
        memset(&f, 0, sizeof f);
        if (sg_frame_parse(data + off + 4, n, &f) < 0) {
            rc = -1;
            break;
        }
        on_frame(ctx, &f);
        sg_frame_clear(&f);
        off += 4 + n;
    }
    *ret_consumed = off;
    return rc;
}
