/*
 * The signature type language of docs/tasks.md ("The type language"): parse a type string into a
 * tree, check whether a value conforms to it, print it back.
 *
 * Ownership: sg_type_parse returns a malloc'd tree the caller releases with sg_type_free (NULL is
 * a no-op); a node owns its children and its `chars` array. Types are immutable once parsed.
 * Limits: a type string is at most 512 bytes, brackets nest at most 6 deep, unions have at most
 * 8 alternatives (docs/tasks.md).
 */
#ifndef SG_GOLDEN_TYPELANG_H
#define SG_GOLDEN_TYPELANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden_tasks/value.h"

#define SG_TYPE_MAX_BYTES 512
#define SG_TYPE_MAX_NEST 6
#define SG_TYPE_MAX_ALTS 8

typedef enum sg_type_kind {
    SG_TY_NONE = 0,
    SG_TY_BOOL,
    SG_TY_INT,
    SG_TY_FLOAT,
    SG_TY_STR,
    SG_TY_BYTES,
    SG_TY_LIST,
    SG_TY_SET,
    SG_TY_DICT,
    SG_TY_TUPLE,
    SG_TY_UNION,
} sg_type_kind;

typedef struct sg_type sg_type;
struct sg_type {
    sg_type_kind kind;
    bool has_lo, has_hi;  /* int/float range ends */
    int64_t ilo, ihi;     /* int range */
    double flo, fhi;      /* float range */
    bool finite;          /* float: no nan/inf (implied by a range) */
    bool ascii;           /* str */
    uint32_t *chars;      /* str chars=: sorted distinct code points, NULL if none */
    size_t nchars;
    bool has_min, has_max;/* sizes as written (defaults apply when absent) */
    unsigned min, max;
    bool sorted;          /* list */
    bool envelope;        /* the bounds, sizes or chars here are the examples' envelope, a domain
                           * generated inputs are held to (golden.c, golden__in_envelope) */
    bool variadic;        /* tuple[T, ...] */
    sg_type **items;      /* list/set: [elem]; dict: [key, value]; tuple: members; union: alts */
    size_t n;
};

/*
 * Parse a type string. On failure returns SG_ERR_INVALID_ARG with the reason and the byte offset
 * (diag->offset, 0-based; diag->column = offset + 1) of the offending token, or SG_ERR_NOMEM.
 */
sg_status sg_type_parse(const char *text, sg_type **ret, sg_diag *diag);
void sg_type_free(sg_type *t);

/* Hashable types: None, bool, int, float, str, bytes, tuples and unions of hashable types. */
bool sg_type_hashable(const sg_type *t);
/* Whether `v` conforms. With options false only the exact types are checked, recursively (what
 * the arguments of a structured case must satisfy). */
bool sg_type_conforms(const sg_value *v, const sg_type *t, bool options);
/* Canonical text of a type (appended to buf). */
void sg_type_format(const sg_type *t, sg_buf *buf);

#endif
