/* A streaming JSON writer for the verdict documents. Compact: yajl's generator (libyajl) writing
 * into a buffer, with jansson's conventions so the text is the same as a jansson dump of the same
 * document (strings checked as strict UTF-8, reals as jansson prints them). Indented: a jansson
 * tree built as the calls come and dumped with JSON_INDENT(2) at the end. Failure is sticky:
 * after a failed allocation, an invalid real or a misplaced call every later call does nothing
 * and sg_jgen_finish returns NULL. */
#ifndef SG_BASE_JGEN_H
#define SG_BASE_JGEN_H

#include <stdbool.h>
#include <stddef.h>

struct json_t;
typedef struct sg_jgen sg_jgen;

sg_jgen *sg_jgen_new(bool indent); /* NULL when out of memory */
void sg_jgen_map(sg_jgen *g);
void sg_jgen_map_end(sg_jgen *g);
void sg_jgen_arr(sg_jgen *g);
void sg_jgen_arr_end(sg_jgen *g);
/* A key: the program's own ASCII names only (not checked as UTF-8), valid until its value. */
void sg_jgen_key(sg_jgen *g, const char *key);
/* A string; NULL writes null; invalid UTF-8 writes "<invalid UTF-8>" (as render's jansson path). */
void sg_jgen_str(sg_jgen *g, const char *s);
void sg_jgen_int(sg_jgen *g, long long v);
void sg_jgen_bool(sg_jgen *g, bool v);
void sg_jgen_null(sg_jgen *g);
void sg_jgen_real(sg_jgen *g, double v);
/* A jansson value (dumped by jansson, compact, and inserted as one value); NULL fails. */
void sg_jgen_json(sg_jgen *g, const struct json_t *v);
/* Compact generators: a value another compact generator wrote (sg_jgen_finish's text of a
 * complete value: a memoised fragment), inserted whole. An indented generator fails. */
void sg_jgen_raw(sg_jgen *g, const char *json, size_t len);
void sg_jgen_fail(sg_jgen *g);
/* Compact: the length of the text written so far (a value's separator is written with it); 0
 * when indenting. */
size_t sg_jgen_len(const sg_jgen *g);
/* The text (malloc'd, NUL-terminated; the caller frees it), or NULL if anything failed or the
 * document is not complete. Frees g either way. */
char *sg_jgen_finish(sg_jgen *g, size_t *len);

/*
 * jansson's loader for text from outside (request bodies, files), guarded: jansson 2.14 writes
 * past a buffer when an allocation fails inside a string (lex_scan: its saved text loses bytes
 * and the copy runs on to a quote), so a failed allocation inside the loader must not return.
 * sg_json_guard_install (once, before any thread) routes jansson's allocations through a check
 * that ends the process with a message when one fails inside sg_json_loadb_guarded; room for the
 * load (8 times the text, 64 KiB more) is tried first, and its absence is a clean failure (NULL,
 * *nomem). Without the install, the load is json_loadb's.
 */
struct json_error_t;
void sg_json_guard_install(void);
struct json_t *sg_json_loadb_guarded(const char *buf, size_t len, size_t flags, struct json_error_t *e, bool *nomem);

#endif
