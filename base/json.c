/* JSON text out of jansson values, failing whole on a failed allocation. */
#include <jansson.h>

#include "base/util.h"

/* Appends to a buffer whose failure is sticky: once an append failed, every later one fails too
 * and the whole dump is refused, whatever jansson made of the -1. */
static int json__append(const char *buffer, size_t size, void *data)
{
    sg_buf *b = data;
    sg_buf_append(b, buffer, size);
    return b->failed ? -1 : 0;
}

char *sg_json_dumps(const struct json_t *json, size_t flags)
{
    /* Not json_dumps: jansson 2.14 ignores a failed append of an object key's closing quote and
     * returns malformed JSON as a success (unit.test_oom found it through the verdict). */
    if (!json)
        return NULL;
    sg_buf b;
    sg_buf_init(&b, 0);
    int rc = json_dump_callback(json, json__append, &b, flags);
    if (rc || b.failed || b.truncated || !b.data) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}
