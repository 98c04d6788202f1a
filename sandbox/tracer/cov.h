/*
 * The coverage map shared between the in-sandbox tracer (sandbox/tracer/sgtrace.c) and the fuzzing
 * harness (fuzz/): one memfd of sizeof(struct sg_cov_map) bytes, mapped shared by both.
 *
 * Trust: the tracer runs in the candidate's process, so the candidate can write anything here.
 * The harness copies the map before reading it and bounds-checks every count and length: what is
 * in it can only steer the fuzzer (waste its budget), never crash the harness or decide a verdict.
 */
#ifndef SG_SANDBOX_TRACER_COV_H
#define SG_SANDBOX_TRACER_COV_H

#include <stdint.h>

#define SG_COV_EDGES 16384u  /* line transitions (prev line, line) hashed into 8-bit counters */
#define SG_COV_LINES 8192u   /* one byte per snippet line: ran or not */
#define SG_COV_CMPS 64u      /* comparison operands recorded per input */
#define SG_COV_CMP_BYTES 64u /* of each operand, at most */

enum sg_cov_cmp_kind {
    SG_COV_CMP_STR = 1, /* two str operands, UTF-8 (truncated to SG_COV_CMP_BYTES) */
    SG_COV_CMP_INT = 2, /* two int operands that fit int64, 8 bytes little-endian each */
};

struct sg_cov_cmp {
    uint8_t kind;
    uint8_t la, lb; /* bytes used in a and b */
    uint8_t pad;
    uint8_t a[SG_COV_CMP_BYTES];
    uint8_t b[SG_COV_CMP_BYTES];
};

struct sg_cov_map {
    uint32_t ncmp; /* records written (the tracer stops at SG_COV_CMPS) */
    uint32_t pad;
    uint8_t edges[SG_COV_EDGES];
    uint8_t lines[SG_COV_LINES];
    struct sg_cov_cmp cmps[SG_COV_CMPS];
};

#endif
