/*
 * The frame protocol between the supervisor and the runner (sandbox/runner.py) inside the sandbox.
 *
 * Wire format, both directions: a frame is a 4-byte little-endian body length, then the body; a
 * body is a sequence of fields, each a one-byte tag, a 4-byte little-endian length and that many
 * bytes (UTF-8 text). Requests (supervisor -> runner, fd 5) carry a call: CODE, CPU_MS, CALL_ID.
 * Results (runner -> supervisor, fd 6) carry a KIND and the fields of that kind:
 *   ready                              the candidate's top level ran (import phase)
 *   exit       EXIT_CODE MESSAGE MRO   SystemExit
 *   exception  TYPE MESSAGE TRACEBACK LINE MRO
 *   ok         REPR PYTYPE VALUE_JSON | VALUE_ERROR, CALL_ID     a call returned
 *   done       CALL_ID PEAK_RSS        the zygote is ready for the next call
 * Trust: result frames come from the candidate's process and are UNTRUSTED: every length is
 * checked, the body is capped (SG_FRAME_MAX_BODY), a tag appears once, and what a frame says is
 * a claim the supervisor judges (see outcome.c), never a verdict.
 *
 * Ownership: a `struct sg_frame` owns its field copies; sg_frame_clear frees them.
 */
#ifndef SG_SANDBOX_FRAME_H
#define SG_SANDBOX_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Field tags (one byte on the wire; runner.py writes the same letters). */
enum sg_frame_tag {
    SG_TAG_KIND = 'k',
    SG_TAG_TYPE = 't',        /* exception type name */
    SG_TAG_MESSAGE = 'm',     /* exception message, or SystemExit's argument */
    SG_TAG_TRACEBACK = 'b',
    SG_TAG_LINE = 'l',        /* line in the snippet */
    SG_TAG_MRO = 'o',         /* the exception type's MRO: a line per class, module TAB qualname TAB name */
    SG_TAG_EXIT_CODE = 'c',
    SG_TAG_REPR = 'r',        /* repr() of a returned value */
    SG_TAG_PYTYPE = 'y',      /* type name of a returned value */
    SG_TAG_VALUE_JSON = 'j',  /* the returned value as tagged JSON */
    SG_TAG_VALUE_ERROR = 'J', /* why the returned value has no tagged JSON */
    SG_TAG_CALL_ID = 'i',
    SG_TAG_PEAK_RSS = 'p',    /* the zygote's claim about its call child, in KiB */
    SG_TAG_CODE = 'x',        /* request: the call's source text */
    SG_TAG_CPU_MS = 'u',      /* request: the call's CPU limit */
    SG_TAG_ITEMS = 'n',       /* request: the code holds this many NUL-separated items (a batch);
                                 result: the item index a result frame belongs to */
    SG_TAG_STREAM = 's',      /* request: start a stream (items follow, one request each) */
    SG_TAG_END = 'e',         /* request: end of the stream */
    SG_TAG_SOURCE = 'S',      /* request (pooled worker): the candidate's source, imported first */
    SG_TAG_FLAGS = 'f',       /* request (pooled worker): '1' as __main__, 'c' stdlib dicts */
    SG_TAG_TMP = 'T',         /* request (pooled worker): the tmpfs options of the call's own /tmp */
    SG_TAG_COST_BUDGET = 'B', /* request: count each item's Python events, stop it past this many */
    SG_TAG_COST = 'C',
    SG_TAG_COST_CPU = 'N',    /* request: with a budget, "ms,ns": stop a counted item once its
                                 thread's CPU passes ms plus ns per event (limits.cost_cpu_ms) */        /* result (a counted call): the events it counted (a claim) */
};

#define SG_FRAME_MAX_BODY (1u << 20)
#define SG_FRAME_NTAGS 128

struct sg_frame {
    char kind[16];
    char *fields[SG_FRAME_NTAGS]; /* indexed by tag byte, malloc'd, NUL-terminated */
    size_t lens[SG_FRAME_NTAGS];
};

void sg_frame_clear(struct sg_frame *frame);

/* Parse one frame body (untrusted bytes). Returns 0, or -1 if malformed (frame cleared). */
int sg_frame_parse(const unsigned char *body, size_t len, struct sg_frame *frame);

/* A field's text (NUL-terminated; *ret_len its length if ret_len), or NULL if absent. */
const char *sg_frame_get(const struct sg_frame *frame, enum sg_frame_tag tag, size_t *ret_len);

/* True if `frame` is non-NULL and of kind `kind`. */
bool sg_frame_is(const struct sg_frame *frame, const char *kind);

/* Encoder: append one field to buf[*len .. cap). Returns -1 (nothing written) if it does not fit. */
int sg_frame_put(unsigned char *buf, size_t cap, size_t *len, enum sg_frame_tag tag, const char *val,
                 size_t val_len);

/* Write the 4-byte length prefix of a frame whose body is buf[4 .. len). */
void sg_frame_seal(unsigned char *buf, size_t len);

/*
 * Framing: parse every complete frame at the start of `data` (a stream buffer), calling `on_frame`
 * for each (the callback may take the frame's fields; whatever remains is cleared after it).
 * Sets *ret_consumed to the bytes used. Returns 0, or -1 on a frame over SG_FRAME_MAX_BODY or a
 * malformed body (the stream is unusable from there).
 */
int sg_frame_split(const unsigned char *data, size_t len, size_t *ret_consumed,
                   void (*on_frame)(void *ctx, struct sg_frame *frame), void *ctx);

#endif
