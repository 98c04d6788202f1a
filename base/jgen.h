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

#endif
