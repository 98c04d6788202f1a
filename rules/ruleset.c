/*
 * The rule set: its life cycle (new, free, disable, allow a host, merge a loaded pack), its
 * freezing, and the lookups the resolver and the engine make on a frozen set. Every function
 * that changes a set passes sg_rules_mutable() first, so a frozen set cannot change.
 */
#include "pack_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "parsers/tsarena.h"

/* ------------------------------------------------------------------------------------------ */
/* Rules                                                                                        */

void sg_strv_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void ruleset__patterns_free(sg_patterns *p)
{
    sg_strv_free(p->v, p->n);
}

void sg_rule_free(sg_rule *r)
{
    if (!r)
        return;
    free((char *)r->info.id);
    free((char *)r->info.name);
    free((char *)r->info.confidence);
    free((char *)r->info.message);
    free((char *)r->info.fix);
    free((char *)r->info.rationale);
    free((char *)r->info.example);
    free((char *)r->info.matches);
    free((char *)r->info.pack);
    switch (r->kind) {
    case SG_KIND_CALLS:
        ruleset__patterns_free(&r->calls.names);
        for (size_t i = 0; i < r->calls.nwhere; i++) {
            free(r->calls.where[i].keyword);
            sg_strv_free(r->calls.where[i].values, r->calls.where[i].nvalues);
        }
        free(r->calls.where);
        break;
    case SG_KIND_NETWORK:
        ruleset__patterns_free(&r->network.names);
        free(r->network.host_keyword);
        break;
    case SG_KIND_IMPORTS:
        ruleset__patterns_free(&r->imports.names);
        break;
    case SG_KIND_ATTRIBUTES:
        ruleset__patterns_free(&r->attributes.names);
        break;
    case SG_KIND_CREDENTIALS: {
        sg_rule_credentials *c = &r->credentials;
        if (c->has_name_re)
            regfree(&c->name_re);
        if (c->has_ignore_name_re)
            regfree(&c->ignore_name_re);
        if (c->has_ignore_value_re)
            regfree(&c->ignore_value_re);
        for (size_t i = 0; i < c->nvalue_res; i++)
            regfree(&c->value_res[i]);
        if (c->value_anchors)
            for (size_t i = 0; i < c->nvalue_res; i++)
                free(c->value_anchors[i]);
        free(c->value_anchors);
        free(c->value_res);
        sg_strv_free(c->value_res_src, c->nvalue_src);
        break;
    }
    case SG_KIND_QUERY: {
        sg_rule_query *q = &r->query;
        sg_strv_free(q->needles, q->nneedles);
        sg_strv_free(q->any_needles, q->nany_needles);
        sg_strv_free(q->in_match, q->nin_match);
        sg_query_prog_free(atomic_load_explicit(&q->prog, memory_order_acquire));
        if (q->lock_ready)
            pthread_mutex_destroy(&q->lock);
        free(q->capture_name);
        free(q->src);
        break;
    }
    case SG_KIND_BUILTIN:
        ruleset__patterns_free(&r->builtin.modules);
        break;
    }
    free(r);
}

sg_status sg_rule_query_prog(const sg_rule *r, const sg_query_prog **ret_prog)
{
    if (!r || r->kind != SG_KIND_QUERY)
        return SG_ERR_INTERNAL;
    /* A shared rule is read-only but for this: its compiled form, made once under its lock and
     * published with release order, so a thread that sees the pointer sees the whole prog. */
    sg_rule_query *q = (sg_rule_query *)&r->query;
    sg_query_prog *p = atomic_load_explicit(&q->prog, memory_order_acquire);
    if (p) {
        *ret_prog = p;
        return SG_OK;
    }
    if (!q->lock_ready)
        return SG_ERR_INTERNAL;
    sg_status st = SG_OK;
    pthread_mutex_lock(&q->lock);
    p = atomic_load_explicit(&q->prog, memory_order_acquire);
    if (!p) {
        /* from the heap, not from the arena of the check that asked first: the query outlives it */
        unsigned saved = sg_tsarena_suspend();
        sg_query_error e;
        st = sg_query_prog_new(q->src, q->capture_name, &p, &e);
        sg_tsarena_resume(saved);
        if (!st)
            atomic_store_explicit(&q->prog, p, memory_order_release);
        else if (st != SG_ERR_NOMEM)
            st = SG_ERR_INTERNAL; /* only a built-in query is compiled here: a unit test compiles them */
    }
    pthread_mutex_unlock(&q->lock);
    if (st)
        return st;
    *ret_prog = p;
    return SG_OK;
}

const sg_patterns *sg_rule_patterns(const sg_rule *r)
{
    switch (r->kind) {
    case SG_KIND_CALLS:
        return &r->calls.names;
    case SG_KIND_NETWORK:
        return &r->network.names;
    case SG_KIND_IMPORTS:
        return &r->imports.names;
    case SG_KIND_ATTRIBUTES:
        return &r->attributes.names;
    case SG_KIND_BUILTIN:
        return &r->builtin.modules;
    case SG_KIND_CREDENTIALS:
    case SG_KIND_QUERY:
        break;
    }
    return NULL;
}

static void ruleset__clear_rules(sg_rules *rules)
{
    for (size_t i = 0; i < rules->rules.len; i++)
        sg_rule_free(rules->rules.items[i]);
    rules->rules.len = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The set's life cycle                                                                         */

sg_status sg_rules_mutable(const sg_rules *rules, sg_diag *diag, const char *path, const char *detail)
{
    if (!rules->frozen)
        return SG_OK;
    if (detail)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, path, 0, 0, -1, 0, "rule set is in use and cannot change (%s)",
                           detail);
    return sg_diag_set(diag, SG_ERR_INVALID_ARG, path, 0, 0, -1, 0, "rule set is in use and cannot change");
}

static void ruleset__free_contents(sg_rules *rules)
{
    ruleset__clear_rules(rules);
    sg_array_free(&rules->rules);
    for (size_t i = 0; i < rules->allow_hosts.len; i++)
        free(rules->allow_hosts.items[i]);
    sg_array_free(&rules->allow_hosts);
    for (size_t i = 0; i < rules->module_aliases.len; i++) {
        free(rules->module_aliases.items[i].from);
        free(rules->module_aliases.items[i].to);
    }
    sg_array_free(&rules->module_aliases);
}

void sg_rules_clear_staged(sg_rules *staged)
{
    ruleset__free_contents(staged);
}

void sg_rules_free(sg_rules *rules)
{
    if (!rules)
        return;
    ruleset__free_contents(rules);
    for (size_t i = 0; i < rules->roots.len; i++)
        free(rules->roots.items[i]);
    sg_array_free(&rules->roots);
    for (size_t i = 0; i < rules->module_roots.len; i++)
        free(rules->module_roots.items[i]);
    sg_array_free(&rules->module_roots);
    free(rules->roots_index.slots);
    free(rules->module_roots_index.slots);
    free(rules);
}

sg_status sg_rules_new_empty(sg_rules **ret_rules)
{
    if (!ret_rules)
        return SG_ERR_INVALID_ARG;
    sg_rules *r = calloc(1, sizeof *r);
    if (!r)
        return SG_ERR_NOMEM;
    *ret_rules = r;
    return SG_OK;
}

sg_status sg_rules_new_default(sg_rules **ret_rules)
{
    sg_rules *r;
    sg_status st = sg_rules_new_empty(&r);
    if (st)
        return st;
    sg_diag d;
    sg_diag_init(&d);
    st = sg_rules_load_builtin_compiled(r, "default", sg_default_rules_bin, sg_default_rules_bin_len,
                                        (const char *)sg_default_rules_yml, sg_default_rules_yml_len, &d);
    if (st) {
        sg_rules_free(r);
        return st == SG_ERR_NOMEM ? SG_ERR_NOMEM : SG_ERR_INTERNAL;
    }
    *ret_rules = r;
    return SG_OK;
}

size_t sg_rules_count(const sg_rules *rules)
{
    return rules ? rules->rules.len : 0;
}

const sg_rule_info *sg_rules_info(const sg_rules *rules, size_t index)
{
    if (!rules || index >= rules->rules.len)
        return NULL;
    return &rules->rules.items[index]->info;
}

sg_status sg_rules_disable(sg_rules *rules, const char *id, sg_diag *diag)
{
    if (!rules || !id)
        return SG_ERR_INVALID_ARG;
    char detail[512];
    snprintf(detail, sizeof detail, "cannot disable %s", id);
    sg_status st = sg_rules_mutable(rules, diag, NULL, detail);
    if (st)
        return st;
    for (size_t i = 0; i < rules->rules.len; i++) {
        sg_rule *r = rules->rules.items[i];
        if (!strcmp(r->info.id, id)) {
            if (r->kind == SG_KIND_BUILTIN && r->builtin.which != SG_BUILTIN_IGNORED_SUPPRESSION &&
                r->builtin.which != SG_BUILTIN_DYNAMIC_ATTRIBUTE)
                return sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0,
                                   "rule %s cannot be disabled: a snippet the gate cannot read is never passed", id);
            r->info.enabled = false;
            return SG_OK;
        }
    }
    return sg_diag_set(diag, SG_ERR_UNKNOWN_RULE, NULL, 0, 0, -1, 0, "no rule with id '%s'", id);
}

static bool ruleset__valid_host(const char *h)
{
    if (!*h || strlen(h) > 253)
        return false;
    for (const char *p = h; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr(".-_*:[]", *p))
            return false;
    return true;
}

sg_status sg_rules_allow_host(sg_rules *rules, const char *host)
{
    /* A frozen set is shared, read-only, between checkers and threads. */
    if (!rules || !host || sg_rules_mutable(rules, NULL, NULL, NULL) || !ruleset__valid_host(host))
        return SG_ERR_INVALID_ARG;
    char *h = strdup(host);
    if (!h)
        return SG_ERR_NOMEM;
    for (char *p = h; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (sg_array_push(&rules->allow_hosts, h, 0)) {
        free(h);
        return SG_ERR_NOMEM;
    }
    return SG_OK;
}

sg_status sg_rules_merge(sg_rules *rules, sg_rules *staged, bool replace_all)
{
    sg_status st = sg_rules_mutable(rules, NULL, NULL, NULL);
    if (st) {
        sg_rules_clear_staged(staged);
        return st;
    }
    if (replace_all)
        ruleset__clear_rules(rules);
    /* Merge: a rule with an existing id replaces it in place. Failure to grow is the only error
     * left and leaves the set partially merged but consistent. */
    st = SG_OK;
    for (size_t i = 0; i < staged->rules.len; i++) {
        sg_rule *r = staged->rules.items[i];
        bool replaced = false;
        for (size_t k = 0; k < rules->rules.len && !replaced; k++)
            if (!strcmp(rules->rules.items[k]->info.id, r->info.id)) {
                sg_rule_free(rules->rules.items[k]);
                rules->rules.items[k] = r;
                replaced = true;
            }
        if (!replaced && sg_array_push(&rules->rules, r, 0)) {
            sg_rule_free(r);
            st = SG_ERR_NOMEM;
        }
    }
    sg_array_free(&staged->rules);
    for (size_t i = 0; i < staged->allow_hosts.len; i++)
        if (st || sg_array_push(&rules->allow_hosts, staged->allow_hosts.items[i], 0)) {
            free(staged->allow_hosts.items[i]);
            st = SG_ERR_NOMEM;
        }
    sg_array_free(&staged->allow_hosts);
    for (size_t i = 0; i < staged->module_aliases.len; i++)
        if (st || sg_array_push(&rules->module_aliases, staged->module_aliases.items[i], 0)) {
            free(staged->module_aliases.items[i].from);
            free(staged->module_aliases.items[i].to);
            st = SG_ERR_NOMEM;
        }
    sg_array_free(&staged->module_aliases);
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Lookups on a frozen set                                                                      */

bool sg_rules_host_allowed(const sg_rules *rules, const char *host)
{
    size_t hl = strlen(host);
    for (size_t i = 0; i < rules->allow_hosts.len; i++) {
        const char *a = rules->allow_hosts.items[i];
        if (!strcasecmp(a, host))
            return true;
        if (a[0] == '*' && a[1] == '.') {
            size_t al = strlen(a + 1); /* ".example.com" */
            if (hl > al && !strcasecmp(host + hl - al, a + 1))
                return true;
        }
    }
    return false;
}

bool sg_rules_name_match(char *const *patterns, size_t n, const char *qname)
{
    for (size_t i = 0; i < n; i++)
        if (sg_glob_match(patterns[i], qname))
            return true;
    return false;
}

void sg_patterns_index(sg_patterns *p)
{
    memset(p->first, 0, sizeof p->first);
    for (size_t i = 0; i < p->n; i++) {
        unsigned char c = (unsigned char)p->v[i][0];
        if (c == '*' || c == '?' || !c) {
            memset(p->first, 0xff, sizeof p->first);
            break;
        }
        p->first[c >> 3] |= (uint8_t)(1u << (c & 7));
    }
    p->indexed = true;
}

bool sg_patterns_match(const sg_patterns *p, const char *qname)
{
    unsigned char c = (unsigned char)qname[0];
    if (p->indexed && !(p->first[c >> 3] & (1u << (c & 7))))
        return false;
    return sg_rules_name_match(p->v, p->n, qname);
}

static bool ruleset__calls_kind(const sg_rule *r)
{
    return r->kind == SG_KIND_CALLS || r->kind == SG_KIND_NETWORK;
}

bool sg_rules_knows(const sg_rules *rules, const char *qname)
{
    for (size_t i = 0; i < rules->rules.len; i++) {
        const sg_rule *r = rules->rules.items[i];
        if (r->info.enabled && ruleset__calls_kind(r) && sg_patterns_match(sg_rule_patterns(r), qname))
            return true;
    }
    return false;
}

/* r is the n bytes at name (the first byte compared before anything else: these lookups run for
 * every name the resolver meets) */
static bool ruleset__is(const char *r, const char *name, size_t n)
{
    return n ? r[0] == name[0] && !strncmp(r, name, n) && !r[n] : !r[0];
}

static uint32_t ruleset__hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Is name[0..n) one of `items` (through `ix` when it has been built, else by a scan)? */
static bool ruleset__in(char *const *items, size_t len, const struct sg_rules_index *ix, const char *name, size_t n)
{
    if (!ix->cap) {
        for (size_t i = 0; i < len; i++)
            if (ruleset__is(items[i], name, n))
                return true;
        return false;
    }
    for (uint32_t h = ruleset__hash(name, n) & (ix->cap - 1);; h = (h + 1) & (ix->cap - 1)) {
        uint32_t s = ix->slots[h];
        if (!s)
            return false;
        if (ruleset__is(items[s - 1], name, n))
            return true;
    }
}

/* Index item `k` of `items` (already pushed) in `ix`, growing it to stay at most half full. */
static sg_status ruleset__index_add(char *const *items, size_t len, struct sg_rules_index *ix)
{
    if ((len + 1) * 2 > ix->cap) {
        uint32_t cap = ix->cap ? ix->cap * 2 : 256;
        while ((len + 1) * 2 > cap)
            cap *= 2;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return SG_ERR_NOMEM;
        free(ix->slots);
        ix->slots = slots;
        ix->cap = cap;
        for (size_t i = 0; i + 1 < len; i++) { /* (the last one is added below) */
            uint32_t h = ruleset__hash(items[i], strlen(items[i])) & (cap - 1);
            while (slots[h])
                h = (h + 1) & (cap - 1);
            slots[h] = (uint32_t)i + 1;
        }
    }
    uint32_t h = ruleset__hash(items[len - 1], strlen(items[len - 1])) & (ix->cap - 1);
    while (ix->slots[h])
        h = (h + 1) & (ix->cap - 1);
    ix->slots[h] = (uint32_t)len;
    return SG_OK;
}

bool sg_rules_root_known(const sg_rules *rules, const char *qname, size_t root_len)
{
    if (rules->wildcard_root)
        return true;
    return ruleset__in(rules->roots.items, rules->roots.len, &rules->roots_index, qname, root_len);
}

/* The checks that keep an unreadable snippet from passing exist even in an empty rule set. */
static const sg_rule ruleset__fallback_syntax = {
    .info = {.id = "SG001", .name = "syntax-error", .severity = SG_SEV_CRITICAL, .confidence = "high", .cwe = 20,
             .message = "the snippet does not parse as Python, so it cannot be checked",
             .fix = "Regenerate the snippet; only complete, valid Python 3 can pass the gate.", .kind = "builtin",
             .matches = "code that does not parse", .pack = "builtin", .enabled = true, .rationale = "",
             .example = ""},
    .kind = SG_KIND_BUILTIN, .builtin = {.which = SG_BUILTIN_SYNTAX_ERROR}};
static const sg_rule ruleset__fallback_limit = {
    .info = {.id = "SG002", .name = "analysis-limit", .severity = SG_SEV_CRITICAL, .confidence = "high", .cwe = 400,
             .message = "the snippet exceeds an analysis limit, so it cannot be checked",
             .fix = "Simplify the code. The message names the limit and the option that raises it, if one does.",
             .kind = "builtin", .matches = "input beyond a limit", .pack = "builtin",
             .enabled = true, .rationale = "", .example = ""},
    .kind = SG_KIND_BUILTIN, .builtin = {.which = SG_BUILTIN_LIMIT}};

bool sg_rules_root_alias(const sg_rules *rules, const char *qname, size_t root_len)
{
    /* an alias may be dotted (six.moves.urllib: urllib): its first component is what counts */
    for (size_t i = 0; i < rules->module_aliases.len; i++) {
        const char *f = rules->module_aliases.items[i].from;
        if ((!root_len || f[0] == qname[0]) && strcspn(f, ".") == root_len && !memcmp(f, qname, root_len))
            return true;
    }
    return false;
}

const sg_rule *sg_rules_builtin(const sg_rules *rules, sg_builtin which)
{
    for (size_t i = 0; i < rules->rules.len; i++) {
        const sg_rule *r = rules->rules.items[i];
        if (r->kind == SG_KIND_BUILTIN && r->builtin.which == which && r->info.enabled)
            return r;
    }
    if (which == SG_BUILTIN_SYNTAX_ERROR)
        return &ruleset__fallback_syntax;
    if (which == SG_BUILTIN_LIMIT)
        return &ruleset__fallback_limit;
    return NULL;
}

bool sg_rules_module_root(const sg_rules *rules, const char *name, size_t n)
{
    return ruleset__in(rules->module_roots.items, rules->module_roots.len, &rules->module_roots_index, name, n);
}

static sg_status ruleset__add_root(sg_rules *rules, const char *pattern)
{
    size_t n = strcspn(pattern, ".");
    if (pattern[n] == '.' && !memchr(pattern, '*', n) && !memchr(pattern, '?', n) &&
        !sg_rules_module_root(rules, pattern, n)) {
        char *m = strndup(pattern, n);
        if (!m || sg_array_push(&rules->module_roots, m, 0)) {
            free(m);
            return SG_ERR_NOMEM;
        }
        if (ruleset__index_add(rules->module_roots.items, rules->module_roots.len, &rules->module_roots_index))
            return SG_ERR_NOMEM;
    }
    if (memchr(pattern, '*', n) || memchr(pattern, '?', n)) {
        rules->wildcard_root = true;
        return SG_OK;
    }
    if (ruleset__in(rules->roots.items, rules->roots.len, &rules->roots_index, pattern, n))
        return SG_OK;
    char *root = strndup(pattern, n);
    if (!root || sg_array_push(&rules->roots, root, 0)) {
        free(root);
        return SG_ERR_NOMEM;
    }
    return ruleset__index_add(rules->roots.items, rules->roots.len, &rules->roots_index);
}

sg_status sg_rules_freeze(sg_rules *rules)
{
    if (rules->frozen)
        return SG_OK;
    for (size_t i = 0; i < rules->rules.len; i++) {
        const sg_rule *r = rules->rules.items[i];
        if (ruleset__calls_kind(r) ||
            (r->kind == SG_KIND_BUILTIN && r->builtin.which == SG_BUILTIN_DYNAMIC_ATTRIBUTE)) {
            const sg_patterns *p = sg_rule_patterns(r);
            for (size_t k = 0; k < p->n; k++)
                if (ruleset__add_root(rules, p->v[k]))
                    return SG_ERR_NOMEM;
        }
        if (r->kind != SG_KIND_CALLS)
            continue;
        for (size_t w = 0; w < r->calls.nwhere; w++)
            if (r->calls.where[w].op == SG_COND_RESOLVES_IN || r->calls.where[w].op == SG_COND_NOT_RESOLVES_IN ||
                r->calls.where[w].op == SG_COND_MODE_BITS)
                for (size_t k = 0; k < r->calls.where[w].nvalues; k++)
                    if ((r->calls.where[w].op != SG_COND_MODE_BITS || !isdigit((unsigned char)r->calls.where[w].values[k][0])) &&
                        ruleset__add_root(rules, r->calls.where[w].values[k]))
                        return SG_ERR_NOMEM;
    }
    rules->frozen = true;
    return SG_OK;
}

static bool ruleset__knows(const void *ctx, const char *qname)
{
    return sg_rules_knows(ctx, qname);
}

static bool ruleset__root_known(const void *ctx, const char *qname, size_t root_len)
{
    return sg_rules_root_known(ctx, qname, root_len);
}

static bool ruleset__module_root(const void *ctx, const char *name, size_t n)
{
    return sg_rules_module_root(ctx, name, n);
}

static bool ruleset__root_alias(const void *ctx, const char *qname, size_t root_len)
{
    return sg_rules_root_alias(ctx, qname, root_len);
}

void sg_rules_names(const sg_rules *rules, sg_names *ret_names)
{
    ret_names->ctx = rules;
    ret_names->aliases = rules->module_aliases.items;
    ret_names->naliases = rules->module_aliases.len;
    ret_names->knows = ruleset__knows;
    ret_names->root_known = ruleset__root_known;
    ret_names->module_root = ruleset__module_root;
    ret_names->root_alias = ruleset__root_alias;
}
