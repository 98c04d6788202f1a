/*
 * The tree-sitter-python grammar as snipgate sees it: node types and fields compared by id,
 * looked up once from ONE table (SG_PY_SYMBOLS / SG_PY_FIELDS below, used both to declare the
 * struct members and to initialise them), and the small node helpers every pass uses.
 *
 * Ownership: the symbol table is static, initialised once (thread-safe) and never freed. Nodes
 * are borrowed from their tree; sg_children holds a walk (tswalk.h) that sg_children_end releases.
 */
#ifndef SG_SYMS_H
#define SG_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "tswalk.h"

/* X(member, grammar name, named): every node type the static gate compares against. */
#define SG_PY_SYMBOLS(X)                                                                                 \
    X(module, "module", true)                                                                          \
    X(import_statement, "import_statement", true)                                                      \
    X(import_from_statement, "import_from_statement", true)                                            \
    X(aliased_import, "aliased_import", true)                                                          \
    X(dotted_name, "dotted_name", true)                                                                \
    X(wildcard_import, "wildcard_import", true)                                                        \
    X(relative_import, "relative_import", true)                                                        \
    X(future_import_statement, "future_import_statement", true)                                        \
    X(function_definition, "function_definition", true)                                                \
    X(class_definition, "class_definition", true)                                                      \
    X(lambda, "lambda", true)                                                                          \
    X(parameters, "parameters", true)                                                                  \
    X(lambda_parameters, "lambda_parameters", true)                                                    \
    X(identifier, "identifier", true)                                                                  \
    X(typed_parameter, "typed_parameter", true)                                                        \
    X(default_parameter, "default_parameter", true)                                                    \
    X(typed_default_parameter, "typed_default_parameter", true)                                        \
    X(list_splat_pattern, "list_splat_pattern", true)                                                  \
    X(dictionary_splat_pattern, "dictionary_splat_pattern", true)                                      \
    X(assignment, "assignment", true)                                                                  \
    X(augmented_assignment, "augmented_assignment", true)                                              \
    X(call, "call", true)                                                                              \
    X(argument_list, "argument_list", true)                                                            \
    X(keyword_argument, "keyword_argument", true)                                                      \
    X(attribute, "attribute", true)                                                                    \
    X(subscript, "subscript", true)                                                                    \
    X(string, "string", true)                                                                          \
    X(string_start, "string_start", true)                                                              \
    X(string_content, "string_content", true)                                                          \
    X(string_end, "string_end", true)                                                                  \
    X(comparison_operator, "comparison_operator", true)                                                \
    X(expression_statement, "expression_statement", true)                                              \
    X(interpolation, "interpolation", true)                                                            \
    X(concatenated_string, "concatenated_string", true)                                                \
    X(binary_operator, "binary_operator", true)                                                        \
    X(parenthesized_expression, "parenthesized_expression", true)                                      \
    X(conditional_expression, "conditional_expression", true)                                          \
    X(boolean_operator, "boolean_operator", true)                                                      \
    X(global_statement, "global_statement", true)                                                      \
    X(nonlocal_statement, "nonlocal_statement", true)                                                  \
    X(for_statement, "for_statement", true)                                                            \
    X(for_in_clause, "for_in_clause", true)                                                            \
    X(as_pattern_target, "as_pattern_target", true)                                                    \
    X(named_expression, "named_expression", true)                                                      \
    X(dictionary, "dictionary", true)                                                                  \
    X(pair, "pair", true)                                                                              \
    X(dictionary_splat, "dictionary_splat", true)                                                      \
    X(list_splat, "list_splat", true)                                                                  \
    X(tuple, "tuple", true)                                                                            \
    X(list, "list", true)                                                                              \
    X(set, "set", true)                                                                                \
    X(true_, "true", true)                                                                             \
    X(false_, "false", true)                                                                           \
    X(none, "none", true)                                                                              \
    X(integer, "integer", true)                                                                        \
    X(float_, "float", true)                                                                           \
    X(comment, "comment", true)                                                                        \
    X(exec_statement, "exec_statement", true)                                                          \
    X(list_comprehension, "list_comprehension", true)                                                  \
    X(dictionary_comprehension, "dictionary_comprehension", true)                                      \
    X(set_comprehension, "set_comprehension", true)                                                    \
    X(generator_expression, "generator_expression", true)                                              \
    X(pattern_list, "pattern_list", true)                                                              \
    X(tuple_pattern, "tuple_pattern", true)                                                            \
    X(list_pattern, "list_pattern", true)                                                              \
    X(expression_list, "expression_list", true)                                                        \
    X(slice, "slice", true)                                                                            \
    X(unary_operator, "unary_operator", true)                                                          \
    X(return_statement, "return_statement", true)                                                      \
    X(yield, "yield", true)                                                                            \
    X(decorator, "decorator", true)                                                                    \
    X(type, "type", true)                                                                              \
    X(block, "block", true)                                                                            \
    X(eq_token, "=", false)                                                                            \
    X(delete_statement, "delete_statement", true)                                                      \
    X(if_statement, "if_statement", true)                                                              \
    X(while_statement, "while_statement", true)                                                        \
    X(try_statement, "try_statement", true)                                                            \
    X(with_statement, "with_statement", true)                                                          \
    X(match_statement, "match_statement", true)                                                        \
    X(print_statement, "print_statement", true)                                                        \
    X(case_clause, "case_clause", true)                                                                \
    X(case_pattern, "case_pattern", true)                                                              \
    X(class_pattern, "class_pattern", true)                                                            \
    X(keyword_pattern, "keyword_pattern", true)                                                        \
    X(dict_pattern, "dict_pattern", true)                                                              \
    X(as_pattern, "as_pattern", true)                                                                  \
    X(splat_pattern, "splat_pattern", true)                                                            \
    X(with_item, "with_item", true)

/* X(member, grammar field name): every field the static gate asks for. */
#define SG_PY_FIELDS(X)                                                                                  \
    X(f_name, "name")                                                                                  \
    X(f_alias, "alias")                                                                                \
    X(f_left, "left")                                                                                  \
    X(f_right, "right")                                                                                \
    X(f_function, "function")                                                                          \
    X(f_arguments, "arguments")                                                                        \
    X(f_object, "object")                                                                              \
    X(f_attribute, "attribute")                                                                        \
    X(f_value, "value")                                                                                \
    X(f_subscript, "subscript")                                                                        \
    X(f_module_name, "module_name")                                                                    \
    X(f_body, "body")                                                                                  \
    X(f_parameters, "parameters")                                                                      \
    X(f_key, "key")                                                                                    \
    X(f_type, "type")                                                                                  \
    X(f_operator, "operator")                                                                          \
    X(f_subject, "subject")                                                                            \
    X(f_superclasses, "superclasses")

#define SG_SYMS__MEMBER(member, name, named) TSSymbol member;
#define SG_SYMS__FIELD(member, name) TSFieldId member;
typedef struct sg_syms {
    SG_PY_SYMBOLS(SG_SYMS__MEMBER)
    SG_PY_FIELDS(SG_SYMS__FIELD)
} sg_syms;
#undef SG_SYMS__MEMBER
#undef SG_SYMS__FIELD

/* The symbol table of tree-sitter-python (initialised once, thread-safe). */
const sg_syms *sg_syms_get(void);
const TSLanguage *sg_python_language(void);

/* Iterate a node's named children in order, without extras: a comment or a line continuation
 * can stand between any two tokens, so counting them would shift every position after them
 * (`getattr(os, # c` then `"system")` on the next line). ts_node_named_child(n, i) costs O(i). */
typedef struct sg_children {
    sg_walk walk;
} sg_children;
void sg_children_init(sg_children *it, TSNode parent);
bool sg_children_next(sg_children *it, TSNode *ret_child);
void sg_children_end(sg_children *it);

/* The named children of n that are not extras: how many, and the i-th (null past the end); what
 * the passes use instead of ts_node_named_child_count / ts_node_named_child, which count
 * comments and line continuations. */
uint32_t sg_node_nnamed(TSNode n);
TSNode sg_node_named(TSNode n, uint32_t i);

/* A field of a node (fast paths for the common node shapes). */
TSNode sg_node_field(TSNode n, TSFieldId f);
/* The node without the parentheses around it (at most 64 levels). */
TSNode sg_node_unparen(TSNode n);

/* A node's source text: a pointer into `src` and its length (not NUL-terminated). */
static inline const char *sg_node_text(const char *src, TSNode n, size_t *len)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    *len = b - a;
    return src + a;
}

/* True if `n` is a node (not null) of type `s`. */
static inline bool sg_node_is(TSNode n, TSSymbol s)
{
    return !ts_node_is_null(n) && ts_node_symbol(n) == s;
}

#endif
