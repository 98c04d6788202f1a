/*
 * Private header of the rule set (rules/ruleset.c, rules/loader.c): rule life cycle, the one
 * guard every mutator of a set passes, and the merge of a loaded pack into a set.
 * Ownership: as in pack.h; sg_rules_merge takes the staged set's contents.
 */
#ifndef SG_PACK_INT_H
#define SG_PACK_INT_H

#include "pack.h"

/* Free a vector of n malloc'd strings and the vector itself (NULL is a no-op). */
void sg_strv_free(char **v, size_t n);
/* Free a rule and everything it owns, whatever its kind (NULL is a no-op). Works on a rule being
 * built, as long as `kind` was set before any kind-specific field. */
void sg_rule_free(sg_rule *r);

/* The guard of every function that changes a set: SG_OK, or SG_ERR_INVALID_ARG once the set is
 * frozen (shared, read-only). The diagnostic says "rule set is in use and cannot change", then
 * " (<detail>)" when `detail` is not NULL; `path` names the pack, if any. */
sg_status sg_rules_mutable(const sg_rules *rules, sg_diag *diag, const char *path, const char *detail);

/* Why a query did not compile: the message the loader reports, and where it points. */
typedef struct sg_query_error {
    bool capture_phase; /* the query and its predicates are sound; its capture is not */
    bool at_capture;    /* the message is about the 'capture' key (else about the query) */
    char message[400];
} sg_query_error;

/* Compile query `src` (tree-sitter-python) into a new prog: the query, its predicates (only
 * #eq?, #not-eq?, #match? and #not-match?; every #match? pattern compiles as a POSIX ERE) and the
 * capture named `capture` (NULL: the first; the query needs one). Fails with SG_ERR_RULES (*err
 * says why) or SG_ERR_NOMEM. Takes ~8 ms (ts_query_new analyses the whole grammar). */
sg_status sg_query_prog_new(const char *src, const char *capture, sg_query_prog **ret_prog, sg_query_error *err);
/* Free a prog (NULL is a no-op). */
void sg_query_prog_free(sg_query_prog *prog);

/* sg_rules_load_buffer for the built-in pack only: its query rules are compiled on first use
 * (sg_rule_query_prog), their prefilters read from the query text, so a check whose source no
 * query can match compiles none. Only for a pack whose queries a unit test compiles at build
 * time: a query error would surface as SG_ERR_INTERNAL at check time instead of at load. */
sg_status sg_rules_load_builtin(sg_rules *rules, const char *name, const char *buf, size_t len, sg_diag *diag);
/* sg_rules_load_builtin from the pack's document as rules/pack_gen.c serialised it (`blob`, which
 * skips scanning and parsing the YAML); the YAML text `buf` is parsed instead when the blob is
 * empty or does not check out. */
sg_status sg_rules_load_builtin_compiled(sg_rules *rules, const char *name, const unsigned char *blob, size_t blob_len,
                                         const char *buf, size_t len, sg_diag *diag);
/* For the unit tests: the blob rebuilds exactly the document yaml_parser_load makes of `buf`
 * (every node's type, value, items, pairs and start mark). */
bool sg_rules_blob_matches_yaml(const unsigned char *blob, size_t blob_len, const char *buf, size_t len);

/* Free what a staging set (a set not allocated by sg_rules_new_*) holds, not the set itself. */
void sg_rules_clear_staged(sg_rules *staged);
/* Move a staged set's rules, allowed hosts and module aliases into `rules` (a rule with an
 * existing id replaces it in place; `replace_all` drops every rule first). Takes every item of
 * `staged`. Failure to grow (SG_ERR_NOMEM) leaves the set partially merged but consistent. */
sg_status sg_rules_merge(sg_rules *rules, sg_rules *staged, bool replace_all);

#endif
