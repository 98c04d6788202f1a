/*
 * The rule engine: walks a bound block (see parsers/resolve.h) and records a hit for every rule
 * that matches, in block coordinates. Ownership: hits and their messages live in the resolver's
 * arena; the caller owns the sg_engine_out arrays (sg_engine_out_free).
 */
#ifndef SG_ENGINE_H
#define SG_ENGINE_H

#include "parsers/resolve.h"
#include "rules/pack.h"

typedef struct sg_hit {
    const sg_rule *rule;
    TSPoint start, end;   /* block coordinates (row 0-based, column in bytes) */
    const char *message;  /* the finding's full message */
    const char *confidence; /* overrides the rule's when not NULL */
} sg_hit;

typedef struct sg_engine_out {
    SG_ARRAY(sg_hit) hits;
    SG_ARRAY(TSPoint) suppressions; /* where # nosec / # noqa comments start (block coordinates) */
    bool truncated; /* more than SG_ENGINE_MAX_HITS hits: the rest were dropped (the report says so) */
    bool failed;    /* a hit could not be recorded (out of memory), sticky: the check is an error */
    /* in: the docstrings' doctest examples of the whole document, when every one was read and
     * parsed and nothing can make a docstring at run time (parsers/doctest.h); NULL otherwise.
     * Then a doctest runner over the snippet's own objects runs only checked code (SG106). */
    const struct sg_doctests *own_doctests;
    const char *own_doctests_why; /* in, when own_doctests is NULL: why (for SG106's message) */
} sg_engine_out;

#define SG_ENGINE_MAX_HITS 10000

/* Tell the resolver which node types the engine visits (call before binding). */
void sg_engine_interest(sg_resolver *res);
/* Run every enabled rule over block number `block` (already bound with sg_resolver_bind).
 * SG_ERR_NOMEM when any allocation failed while matching (in the engine or the resolver): a
 * finding may be missing, so the caller must not turn the hits into a verdict. */
sg_status sg_engine_run(const sg_rules *rules, sg_resolver *res, size_t block, TSNode root, const char *src,
                        sg_engine_out *out);
void sg_engine_out_free(sg_engine_out *out);

/* Record one hit (used for the builtin checks by the caller, too). Past SG_ENGINE_MAX_HITS the
 * hit is dropped and `truncated` set (SG_OK); an allocation failure sets `failed` and returns
 * SG_ERR_NOMEM. */
sg_status sg_engine_hit(sg_engine_out *out, const sg_rule *rule, TSPoint start, TSPoint end, const char *message,
                   const char *confidence);

#endif
