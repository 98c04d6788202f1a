/*
 * Rule packs: the data that says what the static gate looks for, loaded from YAML (libyaml).
 * The default pack (rules/default.yml) is compiled into the binary. Format: docs/rules.md.
 * Files: ruleset.c (the set's life cycle, freezing, lookups), loader.c (the YAML loader, one
 * parser per rule kind), anchor.c (literal anchors of regular expressions); pack_int.h is their
 * private header.
 * Ownership: an sg_rules set owns its rules and every string in them. After sg_rules_freeze()
 * (done by sg_checker_new) the set is read-only and may be shared between threads: every
 * function that changes a set refuses a frozen one. The one exception is a query rule of the
 * built-in pack, compiled on first use: sg_rule_query_prog() compiles it once under the rule's
 * lock and publishes it through an atomic pointer; the rule owns it and frees it with itself.
 */
#ifndef SG_PACK_H
#define SG_PACK_H

#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include <tree_sitter/api.h>

#include "base/util.h"
#include "parsers/resolve.h"

typedef enum sg_rule_kind {
    SG_KIND_CALLS,
    SG_KIND_IMPORTS,
    SG_KIND_ATTRIBUTES,
    SG_KIND_CREDENTIALS,
    SG_KIND_NETWORK,
    SG_KIND_QUERY,
    SG_KIND_BUILTIN,
} sg_rule_kind;

typedef enum sg_builtin {
    SG_BUILTIN_SYNTAX_ERROR,
    SG_BUILTIN_LIMIT,
    SG_BUILTIN_IGNORED_SUPPRESSION,
    SG_BUILTIN_DYNAMIC_ATTRIBUTE, /* getattr(<module in names>, <non-constant>) */
} sg_builtin;

typedef enum sg_cond_op {
    SG_COND_TRUTHY,          /* the argument is present and truthy (or not a literal) */
    SG_COND_NOT_LITERAL,     /* the argument is present and not a constant */
    SG_COND_LITERAL_IN,      /* the argument is a constant string matching one of values */
    SG_COND_RESOLVES_IN,     /* the argument names one of values (qualified names) */
    SG_COND_NOT_RESOLVES_IN, /* the argument is absent or names none of values */
    SG_COND_ABSENT,
    SG_COND_PRESENT,
    SG_COND_FALSY,           /* the argument is present and a falsy literal */
    SG_COND_NOT_LITERAL_IN,  /* the argument is absent, or a constant matching none of values (or not a
                                constant: cannot prove it, reported with confidence medium) */
    SG_COND_IS_STRING,       /* the argument is a string: a literal, f-string, concatenation, format... */
    SG_COND_UNKNOWN_PROGRAM, /* the argument is a command whose program (argv[0]) is not a constant */
    SG_COND_ARGV_CONTAINS,   /* the argument is an argv list one of whose constant items matches values */
    SG_COND_DICT_KEYS_IN,    /* the argument is a mapping written out ({"K": v}, dict(K=v), with **
                                spreads) one of whose constant keys matches values */
    SG_COND_NOT_PYTHON_MODULE_IN, /* the argument is not an argv starting a Python interpreter on a
                                     module by name (python3 [flags] -m M ...) with M matching values */
    SG_COND_MODE_BITS,       /* the argument is a file mode with one of these bits: an int literal
                                ("0o4000") or a name that resolves to one of the values
                                (stat.S_ISUID), alone or or-ed / added with others */
} sg_cond_op;

typedef struct sg_cond {
    int position;  /* positional index, -1 if only by keyword */
    char *keyword; /* keyword name(s), comma-separated; NULL if only positional */
    bool receiver; /* the object a method is called on (`Path(p)` in `Path(p).write_text(x)`) */
    sg_cond_op op;
    char **values;
    size_t nvalues;
} sg_cond;

/* Glob patterns of qualified names ("os.system", "subprocess.*"), owned by the rule. */
typedef struct sg_patterns {
    char **v;
    size_t n;
    /* sg_patterns_index(): the first bytes a matching name can start with (a pattern starting
     * with a wildcard allows all), so most names are refused without a glob match */
    bool indexed;
    uint8_t first[32];
} sg_patterns;

/* calls: a call to a matching name (and, optionally, conditions on its arguments). */
typedef struct sg_rule_calls {
    sg_patterns names;
    sg_cond *where;
    size_t nwhere;
    bool where_any;  /* any condition suffices (default: all) */
    size_t nall;     /* where_any with where: where[0..nall) must all hold, then one of the rest */
    bool references; /* also a callable passed or stored as a value */
} sg_rule_calls;

/* network: a call to a matching name whose host is not allowed (or cannot be determined). */
typedef struct sg_rule_network {
    sg_patterns names;
    int host_position;  /* -1 if only by keyword */
    char *host_keyword; /* comma-separated keyword names */
    bool unverifiable;  /* report calls whose host cannot be determined (else: disallowed hosts) */
} sg_rule_network;

/* imports / attributes: a matching module imported, a matching attribute name used. */
typedef struct sg_rule_names {
    sg_patterns names;
} sg_rule_names;

/* credentials: string literals assigned to credential-like names, or shaped like secrets. */
typedef struct sg_rule_credentials {
    bool has_name_re, has_ignore_name_re, has_ignore_value_re;
    regex_t name_re, ignore_name_re, ignore_value_re;
    regex_t *value_res;
    char **value_anchors; /* per value pattern: literals every match contains (sg_regex_anchor), or NULL */
    char **value_res_src;
    size_t nvalue_src;
    size_t nvalue_res;
    size_t min_length;
} sg_rule_credentials;

/* A query rule's compiled form: read-only once made, owned by its rule. */
typedef struct sg_query_prog {
    TSQuery *query;
    uint32_t capture; /* index of the capture that locates the finding */
    regex_t *res;     /* compiled #match? patterns, indexed by query string id */
    bool *res_set;
    uint32_t nstrings;
} sg_query_prog;

/* query: a tree-sitter query. A pack loaded from a file is compiled at load (its errors are load
 * errors); the built-in pack's queries on first use (sg_rule_query_prog), after the prefilters
 * below, read from the query's text, said that the source may match (a unit test compiles them
 * all). */
typedef struct sg_rule_query {
    char *src;
    char *capture_name;            /* the 'capture' key; NULL: the query's first capture */
    _Atomic(sg_query_prog *) prog; /* NULL until compiled; published once, with `lock` held */
    pthread_mutex_t lock;
    bool lock_ready; /* `lock` was initialised (sg_rule_free destroys it) */
    char **needles;  /* strings a positive #eq? requires in the source; all must occur */
    size_t nneedles;
    char **any_needles; /* the words of a positive #match? "^(a|b)$": one of them must occur */
    size_t nany_needles;
    char **in_match; /* text_any: every match holds one of these texts; the query runs only
                        around their occurrences */
    size_t nin_match;
} sg_rule_query;

/* builtin: a check of the gate itself. */
typedef struct sg_rule_builtin {
    sg_builtin which;
    sg_patterns modules; /* dynamic-attribute: the sensitive modules */
} sg_rule_builtin;

/* A rule: the common part, then the fields of its kind only (`kind` says which member). */
typedef struct sg_rule {
    sg_rule_info info; /* strings owned by the rule */
    sg_rule_kind kind;
    union {
        sg_rule_calls calls;             /* SG_KIND_CALLS */
        sg_rule_network network;         /* SG_KIND_NETWORK */
        sg_rule_names imports;           /* SG_KIND_IMPORTS */
        sg_rule_names attributes;        /* SG_KIND_ATTRIBUTES */
        sg_rule_credentials credentials; /* SG_KIND_CREDENTIALS */
        sg_rule_query query;             /* SG_KIND_QUERY */
        sg_rule_builtin builtin;         /* SG_KIND_BUILTIN */
    };
} sg_rule;

/* The compiled form of query rule `r` into *ret_prog, compiling it on first use: at most once per
 * rule whichever thread asks first, the others wait for it and then share it (read-only). Its
 * memory is tree-sitter's heap, never a check's arena (tsarena.h). Fails with SG_ERR_NOMEM, or
 * SG_ERR_INTERNAL when the query does not compile: the check is then an error, never a pass. */
sg_status sg_rule_query_prog(const sg_rule *r, const sg_query_prog **ret_prog);

/* The name patterns of a rule (calls, network, imports, attributes; a builtin's modules), or
 * NULL for a kind without any. */
const sg_patterns *sg_rule_patterns(const sg_rule *r);

typedef sg_name_alias sg_alias;

struct sg_rules {
    SG_ARRAY(sg_rule *) rules;
    SG_ARRAY(char *) allow_hosts;
    SG_ARRAY(sg_alias) module_aliases;
    /* Built by sg_rules_freeze: first dotted component of every calls/network pattern, for a
     * quick reject of call names no rule can match. */
    SG_ARRAY(char *) roots;
    SG_ARRAY(char *) module_roots; /* roots of dotted patterns */
    /* hash indexes of the two (open addressing; a slot holds an item's index + 1, 0 is empty;
     * cap a power of two, at most half full) */
    struct sg_rules_index {
        uint32_t *slots;
        uint32_t cap;
    } roots_index, module_roots_index;
    bool wildcard_root;
    bool frozen;
};

/* Prepare a set for matching (idempotent). */
sg_status sg_rules_freeze(sg_rules *rules);
/* True if some calls/network rule pattern matches `qname` (used for `from m import *`). */
bool sg_rules_knows(const sg_rules *rules, const char *qname);
/* The literal runs every match of POSIX ERE `re` must contain, as a malloc'd list of
 * NUL-terminated strings ended by an empty one ("a\0bc\0\0"); *ret_anchors is NULL when none of
 * at least 2 bytes can be derived. Used to skip regexec on text that cannot match. Fails only with
 * SG_ERR_NOMEM. */
sg_status sg_regex_anchor(const char *re, char **ret_anchors);
/* True if `text` contains every run of an anchor list (always true for NULL). */
bool sg_regex_anchors_in(const char *anchors, const char *text, size_t n);
/* True if `qname`'s first component may match some calls/network rule. */
bool sg_rules_root_known(const sg_rules *rules, const char *qname, size_t root_len);
/* True if `name` (n bytes) is the first component of a dotted calls/network pattern: a module
 * some rule is about (os, subprocess, pickle...). */
bool sg_rules_module_root(const sg_rules *rules, const char *name, size_t n);
/* True if the first component of `qname` is a module alias (posix -> os). */
bool sg_rules_root_alias(const sg_rules *rules, const char *qname, size_t root_len);
bool sg_rules_name_match(char *const *patterns, size_t n, const char *qname);
/* Fill p->first from the patterns (the loader does it for every rule it makes). */
void sg_patterns_index(sg_patterns *p);
/* sg_rules_name_match over p, refusing first through p->first when it is indexed. */
bool sg_patterns_match(const sg_patterns *p, const char *qname);
bool sg_rules_host_allowed(const sg_rules *rules, const char *host);
/* The resolver's narrow view of a (frozen) rule set: its module aliases and name predicates. */
void sg_rules_names(const sg_rules *rules, sg_names *ret_names);
/* The built-in rule for a builtin check, or NULL if disabled/absent. */
const sg_rule *sg_rules_builtin(const sg_rules *rules, sg_builtin which);

extern const unsigned char sg_default_rules_yml[];
extern const size_t sg_default_rules_yml_len;
/* The same pack's YAML document, serialised at build time (rules/pack_gen.c); may be empty. */
extern const unsigned char sg_default_rules_bin[];
extern const size_t sg_default_rules_bin_len;

#endif
