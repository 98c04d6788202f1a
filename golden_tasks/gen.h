/*
 * Deterministic input generation for property checks (docs/tasks.md, "Property checks").
 *
 * The PRNG is xoshiro256** (Blackman and Vigna) seeded through splitmix64 from one 64-bit seed,
 * so a run replays exactly from the seed it reports. Generated inputs are value trees conforming
 * to a type (with its options), in three families:
 *   - boundary values of each type first (0, -1, 1, the ends of ranges, empty and one-element
 *     containers, nan, inf, -0.0, empty, long and non-ASCII strings), see sg_gen_boundary;
 *   - type-aware mutations of example inputs (grow and shrink containers, nudge numbers across
 *     0/-1/len-1/range ends, splice strings, reuse constants of the task), sg_gen_mutate;
 *   - random values, sg_gen_value.
 *
 * Ownership: an sg_gen is malloc'd (sg_gen_new / sg_gen_free). Every returned value or type is
 * a new tree the caller frees. Types and values passed in are borrowed.
 */
#ifndef SG_GOLDEN_GEN_H
#define SG_GOLDEN_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"

typedef struct sg_rng {
    uint64_t s[4];
} sg_rng;

/* Seed with splitmix64(seed); the same seed gives the same stream everywhere. */
void sg_rng_seed(sg_rng *rng, uint64_t seed);
uint64_t sg_rng_next(sg_rng *rng);
/* Uniform in [0, n) (n > 0), without modulo bias. */
uint64_t sg_rng_below(sg_rng *rng, uint64_t n);
/* Uniform double in [0, 1). */
double sg_rng_unit(sg_rng *rng);

typedef struct sg_gen {
    sg_rng rng;
    uint64_t seed;
    bool has_max_size;       /* fuzz.max_size: overrides the default container/str sizes */
    unsigned max_size;
    sg_value **constants;    /* pool of constants seen in the task (borrowed values) */
    size_t nconstants;
} sg_gen;

void sg_gen_init(sg_gen *gen, uint64_t seed);

/* A random value conforming to `t`. SG_ERR_NOMEM, or SG_ERR_INVALID_ARG for an uninhabitable
 * type (never for a parsed one). */
sg_status sg_gen_value(sg_gen *gen, const sg_type *t, sg_value **ret);

/* The k-th boundary value of `t` (k = 0, 1, ...). *ret is NULL when k is past the last one or
 * that boundary does not conform to the type; *ret_more is false once k is past the last one. */
sg_status sg_gen_boundary(const sg_type *t, unsigned k, unsigned max_size, sg_value **ret, bool *ret_more);

/* A mutation of the argument list `args` (a list value): one argument changed by a type-aware
 * operator. `types` may be NULL (no signature). The result may not conform: check it. */
sg_status sg_gen_mutate(sg_gen *gen, const sg_value *args, sg_value **ret);

/* Infer one type per positional argument from example argument lists (list values, all of the
 * same length `nargs`). Each type is a new tree; the array is malloc'd. SG_ERR_INVALID_ARG when
 * there are no examples or their lengths differ. */
sg_status sg_gen_infer_types(const sg_value *const *examples, size_t nexamples, sg_type ***ret_types,
                             size_t *ret_n);

/*
 * Choice streams (the fuzz stage, fuzz/): a value of type `t` decoded from bytes, so that a
 * byte-level fuzzer explores typed inputs, and its comparison feedback lands: the bytes of an
 * operand appear as such in the stream. Decoding never fails on any bytes (an exhausted stream
 * reads as zeros, which decode to the simplest value: 0, "", [], False, the first alternative):
 *   bool 1 byte (low bit); int 8 bytes little-endian two's complement, folded into the type's
 *   range when outside it (a value inside the range is itself); float 8 bytes (IEEE bits),
 *   non-finite or out-of-range values folded in; str: characters up to a 0 byte (or the end), a
 *   byte b < 0x80 the character b, C0 80 a NUL (modified UTF-8), a well-formed UTF-8 sequence
 *   its character (any plane; never a surrogate), any other byte >= 0x80 one of 32 characters
 *   generators favour (type options chars=/ascii fold a character into the allowed set, by the
 *   byte that began it); bytes: the bytes up to a 0 byte, FF 00 a 0 byte and FF FF a 0xFF byte
 *   (FF before another byte is 0xFF itself); list, set,
 *   dict, variadic tuple: before each element a byte whose low bit says "one more"; fixed tuple:
 *   its members; union: 1 byte choosing the alternative. Sizes are clamped to the type's min/max
 *   (default max as the generators': 32 characters, 8 elements, or the task's fuzz.max_size).
 * sg_gen_encode writes the bytes that decode to `v` (for seeds: the task's example inputs);
 * values it cannot represent exactly (an int beyond 64 bits, a lone surrogate in a str) encode to
 * a nearby value. The decoded value is checked with sg_type_conforms by the caller.
 */
typedef struct sg_choices {
    const uint8_t *data;
    size_t len;
    size_t pos;
    unsigned max_size; /* UINT32_MAX: the defaults */
} sg_choices;

sg_status sg_gen_decode(sg_choices *c, const sg_type *t, sg_value **ret);
/* The bytes (1 to 4, in out) a str argument holds for character cp in a choice stream: C0 80 for
 * a NUL, else its UTF-8 (U+FFFD for a surrogate or a value beyond Unicode). */
size_t sg_gen_choice_char(uint32_t cp, char *out);
/* Append the encoding of `v` as type `t` to `buf`. SG_ERR_NOMEM (buf failed), SG_ERR_INVALID_ARG
 * when v's kind does not fit t. */
sg_status sg_gen_encode(const sg_type *t, const sg_value *v, unsigned max_size, sg_buf *buf);

#endif
