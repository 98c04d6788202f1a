/*
 * `[tool.snipgate]` in pyproject.toml (docs/policy.md): the table read with the TOML grammar
 * (tree-sitter-toml) and handed to the policy loader as the libyaml document a .snipgate.yml with
 * the same keys would give, so that both files go through one set of checks and messages.
 */
#ifndef SG_GATE_POLICY_TOML_H
#define SG_GATE_POLICY_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "base/util.h"

/* Build `doc` from the `tool.snipgate` table of the TOML text `buf`. On SG_OK, *ret_found says
 * whether the table is there; when it is, `doc` holds it (a mapping at the root; each node's
 * start mark is its place in the file) and the caller deletes it. A TOML error (syntax, a key
 * defined twice, `tool.snipgate` not a table...) is SG_ERR_POLICY with file, line and column in
 * diag; SG_ERR_NOMEM. */
sg_status sg_policy_toml_document(const char *path, const char *buf, size_t len, yaml_document_t *doc,
                                  bool *ret_found, sg_diag *diag);

/* Does this pyproject.toml configure snipgate: a `tool.snipgate` table, or text that does not
 * parse and names `tool.snipgate` (the loader then reports the error rather than passing over a
 * policy the user wrote)? */
bool sg_policy_toml_has_table(const char *buf, size_t len);

#endif
