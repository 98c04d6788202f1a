/*
 * Internal helpers shared by every module: a typed growable array with a hard cap, a bump arena,
 * a capped string buffer. Ownership: an array owns its items buffer (sg_array_free releases it);
 * an arena owns every byte it handed out (sg_arena_free releases them all at once).
 */
#ifndef SG_UTIL_H
#define SG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "snipgate/snipgate.h"

/* A typed growable array. `max` (0 = SIZE_MAX/elem) caps the count for untrusted growth. */
#define SG_ARRAY(T) struct { T *items; size_t len, cap; }

/* Make room for one more element; returns 0 or -1 (out of memory or over `max`). */
int sg_array_grow(void **items, size_t *cap, size_t len, size_t elem, size_t max);

#define sg_array_push(a, v, max)                                                              \
    (((a)->len < (a)->cap ||                                                                  \
      sg_array_grow((void **)&(a)->items, &(a)->cap, (a)->len, sizeof *(a)->items, (max)) == 0) \
         ? ((a)->items[(a)->len++] = (v), 0)                                                  \
         : -1)
#define sg_array_free(a) (free((a)->items), (a)->items = NULL, (a)->len = (a)->cap = 0)
/* Bounds-checked element pointer, or NULL. */
#define sg_array_at(a, i) ((size_t)(i) < (a)->len ? &(a)->items[(i)] : NULL)

/* A bump allocator: many small allocations, one free. A failed allocation is remembered
 * (sg_arena_failed): callers that cannot propagate NULL at once check the flag afterwards, so an
 * out-of-memory condition is never mistaken for "nothing found". */
typedef struct sg_arena sg_arena;
sg_arena *sg_arena_new(void);
void sg_arena_free(sg_arena *arena);
/* True once an allocation from this arena failed (sticky). */
bool sg_arena_failed(const sg_arena *arena);
void *sg_arena_alloc(sg_arena *arena, size_t size);
char *sg_arena_strndup(sg_arena *arena, const char *s, size_t n);
/* strndup for buffers that need not be NUL-terminated: never reads past s + n (ASan's
 * strict_string_checks flags strndup there). NULL when out of memory. */
char *sg_strndup_buf(const char *s, size_t n);
char *sg_arena_strdup(sg_arena *arena, const char *s);
/* printf into the arena; NULL on failure. */
char *sg_arena_printf(sg_arena *arena, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable string with a byte cap; once the cap is hit, further appends are dropped and
 * `truncated` is set (the contents stay valid and terminated). */
typedef struct sg_buf {
    char *data;
    size_t len, cap, max;
    bool truncated;
    bool failed; /* out of memory */
} sg_buf;

void sg_buf_init(sg_buf *buf, size_t max);
void sg_buf_free(sg_buf *buf);
void sg_buf_append(sg_buf *buf, const char *s, size_t n);
void sg_buf_puts(sg_buf *buf, const char *s);
void sg_buf_printf(sg_buf *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set a diag (which may be NULL) and return `status`. */
sg_status sg_diag_set(sg_diag *diag, sg_status status, const char *path, long line, long column,
                      long long offset, int sys_errno, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Read a whole file into a malloc'd buffer (NUL-terminated), refusing more than max bytes. */
sg_status sg_read_file(const char *path, size_t max, char **ret_buf, size_t *ret_len, sg_diag *diag);
/* Read a whole stream (e.g. stdin), refusing more than max bytes. */
sg_status sg_read_stream(FILE *f, const char *label, size_t max, char **ret_buf, size_t *ret_len,
                         sg_diag *diag);

/* Validate UTF-8; returns the offset of the first bad byte or -1 if all valid. */
long long sg_utf8_invalid_offset(const char *s, size_t n);
/* The decimal digits of v into buf (room for 20, not terminated), as "%llu" writes them, without
 * printf; returns their count. */
size_t sg_fmt_ull(unsigned long long v, char *buf);
/* Number of code points in the first n bytes of valid UTF-8. */
size_t sg_utf8_count(const char *s, size_t n);

/* Case-sensitive shell-style glob match supporting '*' and '?'; a backslash makes the next character
 * stand for itself (a backslash before a star matches a star, and nothing else). */
bool sg_glob_match(const char *pattern, const char *s);

/* memmem() for needles searched in Python source: memchr() on the needle's byte that is rarest
 * in Python code, then a compare. Same result as memmem(); several times fewer instructions for
 * needles that start with a common byte such as a quote. */
const char *sg_memmem(const char *hay, size_t hn, const char *needle, size_t nn);

#endif
