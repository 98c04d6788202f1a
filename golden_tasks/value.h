/*
 * Python values as data (docs/tasks.md, "Tagged values"): a tree of None, bool, int, float, str,
 * bytes, list, tuple, dict, set and complex, decoded from and encoded to the tagged JSON encoding, rendered
 * as Python literal text for call text, and compared (strict / python).
 *
 * Ownership: every sg_value is a malloc'd tree; a node owns its string bytes and its children.
 * sg_value_free(v) releases the whole tree (NULL is a no-op). Functions that return a value
 * (`ret_*`) hand the caller a new tree. Constructors take ownership of the children passed to
 * them (sg_value_push), also when they fail (the child is freed then).
 *
 * Trust: decoded JSON may come from a task file or from the sandbox (a candidate's result): every
 * decoder enforces the caps of docs/tasks.md (depth 32, 100,000 values, 4300 digits, ...).
 */
#ifndef SG_GOLDEN_VALUE_H
#define SG_GOLDEN_VALUE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

#define SG_VALUE_MAX_DEPTH 32
#define SG_VALUE_MAX_COUNT 100000
#define SG_VALUE_MAX_DIGITS 4300
#define SG_VALUE_MAX_SAFE_INT 9007199254740991LL

typedef enum sg_value_kind {
    SG_VAL_NONE = 0,
    SG_VAL_BOOL,
    SG_VAL_INT,
    SG_VAL_FLOAT,
    SG_VAL_STR,
    SG_VAL_BYTES,
    SG_VAL_LIST,
    SG_VAL_TUPLE,
    SG_VAL_DICT,
    SG_VAL_SET,
    SG_VAL_COMPLEX, /* f: real part, im: imaginary part */
} sg_value_kind;

typedef struct sg_value sg_value;
struct sg_value {
    sg_value_kind kind;
    bool b;           /* bool */
    int64_t i;        /* int, when big == NULL */
    char *big;        /* int outside int64: canonical decimal text ("-123..."), else NULL */
    double f;         /* float; complex: the real part */
    double im;        /* complex: the imaginary part */
    char *s;          /* str (UTF-8) or bytes; NUL-terminated for convenience, may hold NULs */
    size_t len;       /* bytes in s */
    sg_value **items; /* list/tuple/set elements; dict: key0, value0, key1, value1, ... */
    size_t n;         /* elements (dict: pairs) */
    size_t cap;       /* allocated slots in items */
    bool half;        /* dict: a key was pushed, its value not yet */
};

/* "None", "bool", "int", "float", "str", "bytes", "list", "tuple", "dict", "set", "complex". */
const char *sg_value_kind_name(sg_value_kind kind);

void sg_value_free(sg_value *v);
/* Scalars; NULL when out of memory. */
sg_value *sg_value_new(sg_value_kind kind);
sg_value *sg_value_new_int(int64_t i);
sg_value *sg_value_new_float(double f);
sg_value *sg_value_new_bool(bool b);
/* str/bytes from `len` bytes (copied). A str must be valid UTF-8 (not checked here). */
sg_value *sg_value_new_str(sg_value_kind kind, const char *s, size_t len);
/* An int from decimal text "-?(0|[1-9][0-9]*)" (checked; NULL if malformed or too long). */
sg_value *sg_value_new_int_text(const char *digits, size_t len);
/* Append a child to a list/tuple/set (or a key then a value to a dict): takes `child` (freed on
 * failure). Returns 0, or -1 when out of memory. */
int sg_value_push(sg_value *container, sg_value *child);
/* Number of children slots (dict: 2 * pairs). */
size_t sg_value_slots(const sg_value *v);
/* A deep copy, NULL when out of memory. */
sg_value *sg_value_copy(const sg_value *v);

/* Decode a tagged JSON value (docs/tasks.md). `path` names the field in errors ("tests[3].args[0]");
 * the message goes to diag (SG_ERR_INVALID_ARG), or SG_ERR_NOMEM. */
sg_status sg_value_from_json(const json_t *j, const char *path, sg_value **ret, sg_diag *diag);
/* Parse text then decode (duplicate member names rejected). */
sg_status sg_value_from_text(const char *text, size_t len, const char *path, sg_value **ret,
                             sg_diag *diag);
/* Decode PLAIN JSON as Python's json module reads it (EvalPlus base_input): objects are str-keyed
 * dicts, "$" keys are ordinary. `big` are numbers jansson could not hold, see task.c. */
sg_status sg_value_from_plain_json(const json_t *j, const char *path, sg_value **ret, sg_diag *diag);

/* Append the canonical tagged JSON text (Python json.dumps(..., ensure_ascii=False) style) to buf. */
void sg_value_encode(const sg_value *v, sg_buf *buf);
/* Append Python's repr() of the value (for reports). Sets keep their stored order. */
void sg_value_repr(const sg_value *v, sg_buf *buf);
/* Append a Python expression evaluating to an equal value, that names no variable at all (so a
 * candidate shadowing `float` or `set` cannot change it): nan is (1e999-1e999), inf 1e999, the
 * empty set {*()}. */
void sg_value_literal(const sg_value *v, sg_buf *buf);

/* Strict equality (docs/tasks.md); atol/rtol apply to finite floats at any depth. */
bool sg_value_strict_equal(const sg_value *got, const sg_value *exp, double atol, double rtol);
/* Python `==` with nan == nan and floats within atol (compare: "python"). */
bool sg_value_python_equal(const sg_value *got, const sg_value *exp, double atol);
/* The same where only floats of `exp` tolerate a difference (atol + rtol * |expected|): an int
 * expected compares exactly (the default tolerance of a task that gives none). */
bool sg_value_python_close(const sg_value *got, const sg_value *exp, double atol, double rtol);
/* Python equality as hashing sees it (1 == True == 1.0, nan == nan): duplicate keys/elements. */
bool sg_value_hash_equal(const sg_value *a, const sg_value *b);
bool sg_value_hashable(const sg_value *v);
/* Python `a < b` for orderable pairs; sets *ok false when Python would raise TypeError. */
bool sg_value_less(const sg_value *a, const sg_value *b, bool *ok);

/* A size measure for shrinking: smaller is simpler (node count, lengths, magnitudes). */
uint64_t sg_value_size(const sg_value *v);
/* Total order for "simpler first" tie-breaking; <0, 0, >0. */
int sg_value_cmp_simpler(const sg_value *a, const sg_value *b);

#endif
