/*
 * Argument types from a function's annotations (docs/tasks.md, "Property checks": the signature,
 * else the reference's or the candidate's annotations, else types inferred from the examples).
 *
 * The source is parsed with tree-sitter, never run. The annotation of every positional parameter
 * of the top-level `def NAME(...)`, up to the first one with a default or a `*`, is translated
 * into the type language: `int`, `float`, `str`, `bytes`, `bool`, `None`, `list[T]`, `List[T]`,
 * `Sequence[T]`, `Iterable[T]`, `set[T]`, `Set[T]`, `dict[K, V]`, `Dict[K, V]`, `Mapping[K, V]`,
 * `tuple[A, B]`, `tuple[T, ...]`, `Tuple[...]`, `Optional[T]`, `Union[A, B]`, `A | B`, with or
 * without a `typing.` prefix. Anything else (an unannotated parameter, a bare `list`, `Any`, a
 * class, a string annotation) means the annotations do not say: SG_ERR_EMPTY.
 *
 * Ownership: *ret is a malloc'd array of *ret_n malloc'd types (sg_type_free each, then free).
 */
#ifndef SG_GOLDEN_ANNOT_H
#define SG_GOLDEN_ANNOT_H

#include <stdbool.h>
#include <stddef.h>

#include "golden_tasks/typelang.h"

/* SG_OK with the types; SG_ERR_EMPTY when `fn` is not found or its annotations do not give every
 * type (or it takes no positional parameter); SG_ERR_NOMEM. */
sg_status sg_annot_arg_types(const char *src, const char *fn, sg_type ***ret, size_t *ret_n);

/* The type-language text of one annotation (a Python expression), or NULL (malloc'd). For tests. */
char *sg_annot_type_text(const char *annotation);

/* A keyword-only parameter of a def (after `*` or `*args`, before `**kw`). */
typedef struct sg_annot_kw {
    char *name;     /* malloc'd */
    sg_type *type;  /* its annotation in the type language, NULL when it has none we read */
    bool required;  /* no default: every call must pass it */
} sg_annot_kw;

/* The keyword-only parameters of the top-level `def fn` of `src`, in order (*ret NULL and *ret_n 0
 * when it has none). SG_ERR_EMPTY when `fn` is not defined there (or has more than 32
 * parameters); SG_ERR_NOMEM. Free with sg_annot_kw_free. */
sg_status sg_annot_kwonly(const char *src, const char *fn, sg_annot_kw **ret, size_t *ret_n);
void sg_annot_kw_free(sg_annot_kw *kw, size_t n);

#endif
