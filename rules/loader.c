/*
 * The YAML rule-pack loader (libyaml's document API): one small parser per rule kind, chosen
 * from a table by the 'match' key that declares the kind. A pack is loaded into a staging set
 * and merged only when all of it is valid. Every error names the pack, line and column of the
 * offending node.
 */
#include "pack_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <yaml.h>

const TSLanguage *tree_sitter_python(void);

#define PACK_MAX_BYTES (4u << 20)
#define PACK_MAX_RULES 10000
#define PACK_MAX_LIST 10000

/* ------------------------------------------------------------------------------------------ */
/* YAML helpers                                                                                 */

typedef struct pack__ctx {
    yaml_document_t doc;
    const char *pack;
    sg_diag *diag;
    bool lazy; /* the built-in pack: queries compiled on first use (sg_rules_load_builtin) */
    /* a document rebuilt from the build-time bytes (loader__doc_from_blob): its nodes' values,
     * items and pairs live in these three blocks, freed with the node array instead of by
     * yaml_document_delete */
    void *blob_blocks[3];
} pack__ctx;

static sg_status pack__err(pack__ctx *c, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static sg_status pack__err(pack__ctx *c, const yaml_node_t *node, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long line = node ? (long)node->start_mark.line + 1 : 0;
    long col = node ? (long)node->start_mark.column + 1 : 0;
    return sg_diag_set(c->diag, SG_ERR_RULES, c->pack, line, col, -1, 0, "%s", msg);
}

static yaml_node_t *pack__node(pack__ctx *c, int id)
{
    return yaml_document_get_node(&c->doc, id);
}

static const char *pack__scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Check that every key of mapping `m` is one of the NULL-terminated `allowed`. */
static sg_status pack__check_keys(pack__ctx *c, yaml_node_t *m, const char *what, const char *const *allowed)
{
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *k = pack__node(c, p->key);
        const char *ks = pack__scalar(k);
        if (!ks)
            return pack__err(c, k, "%s: keys must be strings", what);
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            if (!strcmp(*a, ks))
                ok = true;
        if (!ok) {
            char list[300] = "";
            for (const char *const *a = allowed; *a; a++) {
                strncat(list, *a, sizeof list - strlen(list) - 1);
                if (a[1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            return pack__err(c, k, "%s: unknown key '%s' (expected one of: %s)", what, ks, list);
        }
    }
    return SG_OK;
}

static yaml_node_t *pack__get(pack__ctx *c, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *ks = pack__scalar(pack__node(c, p->key));
        if (ks && !strcmp(ks, key))
            return pack__node(c, p->value);
    }
    return NULL;
}

static sg_status pack__str(pack__ctx *c, yaml_node_t *m, const char *key, bool required, char **ret)
{
    yaml_node_t *n = pack__get(c, m, key);
    if (!n) {
        if (required)
            return pack__err(c, m, "missing required key '%s'", key);
        *ret = NULL;
        return SG_OK;
    }
    const char *s = pack__scalar(n);
    if (!s)
        return pack__err(c, n, "'%s' must be a string", key);
    *ret = strdup(s);
    return *ret ? SG_OK : SG_ERR_NOMEM;
}

static sg_status pack__bool(pack__ctx *c, yaml_node_t *n, const char *what, bool *ret)
{
    const char *s = pack__scalar(n);
    if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))) {
        *ret = true;
        return SG_OK;
    }
    if (s && (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))) {
        *ret = false;
        return SG_OK;
    }
    return pack__err(c, n, "'%s' must be true or false", what);
}

static sg_status pack__int(pack__ctx *c, yaml_node_t *n, const char *what, long min, long max, long *ret)
{
    const char *s = pack__scalar(n);
    char *end = NULL;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || errno || *end || v < min || v > max)
        return pack__err(c, n, "'%s' must be an integer from %ld to %ld", what, min, max);
    *ret = v;
    return SG_OK;
}

/* A string or a sequence of strings, into a malloc'd vector. */
static sg_status pack__strv(pack__ctx *c, yaml_node_t *n, const char *what, bool allow_empty, char ***ret,
                            size_t *ret_n)
{
    *ret = NULL;
    *ret_n = 0;
    if (n->type == YAML_SCALAR_NODE) {
        char **v = malloc(sizeof *v);
        if (!v || !(v[0] = strdup(pack__scalar(n)))) {
            free(v);
            return SG_ERR_NOMEM;
        }
        *ret = v;
        *ret_n = 1;
        return SG_OK;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return pack__err(c, n, "'%s' must be a string or a list of strings", what);
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (count > PACK_MAX_LIST)
        return pack__err(c, n, "'%s' has more than %d entries", what, PACK_MAX_LIST);
    char **v = calloc(count ? count : 1, sizeof *v);
    if (!v)
        return SG_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *it = pack__node(c, n->data.sequence.items.start[i]);
        const char *s = pack__scalar(it);
        if (!s || (!*s && !allow_empty)) {
            sg_strv_free(v, i);
            return pack__err(c, it, "'%s' entries must be non-empty strings", what);
        }
        if (!(v[i] = strdup(s))) {
            sg_strv_free(v, i);
            return SG_ERR_NOMEM;
        }
    }
    *ret = v;
    *ret_n = count;
    return SG_OK;
}

static sg_status pack__regex(pack__ctx *c, yaml_node_t *n, const char *what, regex_t *re, bool icase)
{
    const char *s = pack__scalar(n);
    if (!s)
        return pack__err(c, n, "'%s' must be a regular expression string", what);
    int rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
    if (rc) {
        char buf[200];
        regerror(rc, re, buf, sizeof buf);
        return pack__err(c, n, "'%s': bad regular expression: %s", what, buf);
    }
    return SG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Rule parsing                                                                                  */

static const struct {
    const char *name;
    sg_cond_op op;
    bool takes_values;
} pack__cond_ops[] = {
    {"truthy", SG_COND_TRUTHY, false},         {"not_literal", SG_COND_NOT_LITERAL, false},
    {"literal_in", SG_COND_LITERAL_IN, true},  {"resolves_in", SG_COND_RESOLVES_IN, true},
    {"not_resolves_in", SG_COND_NOT_RESOLVES_IN, true}, {"absent", SG_COND_ABSENT, false},
    {"present", SG_COND_PRESENT, false},       {"falsy", SG_COND_FALSY, false},
    {"not_literal_in", SG_COND_NOT_LITERAL_IN, true}, {"is_string", SG_COND_IS_STRING, false},
    {"unknown_program", SG_COND_UNKNOWN_PROGRAM, false}, {"argv_contains", SG_COND_ARGV_CONTAINS, true},
    {"mode_bits", SG_COND_MODE_BITS, true},    {"dict_keys_in", SG_COND_DICT_KEYS_IN, true},
    {"not_python_module_in", SG_COND_NOT_PYTHON_MODULE_IN, true},
};

static sg_status pack__cond(pack__ctx *c, yaml_node_t *n, sg_cond *cond)
{
    static const char *const keys[] = {"position", "keyword", "receiver", "truthy", "not_literal", "literal_in",
                                       "resolves_in", "not_resolves_in", "absent", "present", "falsy",
                                       "not_literal_in", "is_string", "unknown_program", "argv_contains", "mode_bits", "dict_keys_in",
                                       "not_python_module_in", NULL};
    cond->position = -1;
    if (n->type != YAML_MAPPING_NODE)
        return pack__err(c, n, "a 'where' condition must be a mapping");
    sg_status st = pack__check_keys(c, n, "where", keys);
    if (st)
        return st;
    yaml_node_t *pos = pack__get(c, n, "position");
    if (pos) {
        long v;
        if ((st = pack__int(c, pos, "position", 0, 255, &v)))
            return st;
        cond->position = (int)v;
    }
    if ((st = pack__str(c, n, "keyword", false, &cond->keyword)))
        return st;
    yaml_node_t *recv = pack__get(c, n, "receiver");
    if (recv && (st = pack__bool(c, recv, "receiver", &cond->receiver)))
        return st;
    if (cond->receiver && (cond->position >= 0 || cond->keyword))
        return pack__err(c, n, "a condition on the 'receiver' takes no 'position' or 'keyword'");
    if (cond->position < 0 && !cond->keyword && !cond->receiver)
        return pack__err(c, n, "a condition needs 'position', 'keyword' (or both) or 'receiver'");
    int found = 0;
    for (size_t i = 0; i < sizeof pack__cond_ops / sizeof pack__cond_ops[0]; i++) {
        yaml_node_t *v = pack__get(c, n, pack__cond_ops[i].name);
        if (!v)
            continue;
        found++;
        cond->op = pack__cond_ops[i].op;
        if (pack__cond_ops[i].takes_values) {
            /* an empty literal is a literal too ("" binds to every interface) */
            if ((st = pack__strv(c, v, pack__cond_ops[i].name, true, &cond->values, &cond->nvalues)))
                return st;
        } else {
            bool b;
            if ((st = pack__bool(c, v, pack__cond_ops[i].name, &b)))
                return st;
            if (!b)
                return pack__err(c, v, "'%s' can only be true", pack__cond_ops[i].name);
        }
    }
    if (found != 1)
        return pack__err(c, n, "a condition needs exactly one test (truthy, not_literal, literal_in, "
                               "resolves_in, not_resolves_in, absent, present, falsy, not_literal_in, "
                               "is_string, unknown_program, argv_contains, mode_bits, dict_keys_in)");
    return SG_OK;
}

static sg_status pack__credentials_map(pack__ctx *c, yaml_node_t *n, sg_rule_credentials *r)
{
    static const char *const keys[] = {"names", "ignore_names", "values", "ignore_values", "min_length", NULL};
    if (n->type != YAML_MAPPING_NODE)
        return pack__err(c, n, "'credentials' must be a mapping");
    sg_status st = pack__check_keys(c, n, "credentials", keys);
    if (st)
        return st;
    yaml_node_t *v;
    if ((v = pack__get(c, n, "names"))) {
        if ((st = pack__regex(c, v, "names", &r->name_re, true)))
            return st;
        r->has_name_re = true;
    }
    if ((v = pack__get(c, n, "ignore_names"))) {
        if ((st = pack__regex(c, v, "ignore_names", &r->ignore_name_re, true)))
            return st;
        r->has_ignore_name_re = true;
    }
    if ((v = pack__get(c, n, "ignore_values"))) {
        if ((st = pack__regex(c, v, "ignore_values", &r->ignore_value_re, false)))
            return st;
        r->has_ignore_value_re = true;
    }
    if ((v = pack__get(c, n, "values"))) {
        char **srcs;
        size_t count;
        if ((st = pack__strv(c, v, "values", false, &srcs, &count)))
            return st;
        r->value_res = calloc(count ? count : 1, sizeof *r->value_res);
        if (!r->value_res) {
            sg_strv_free(srcs, count);
            return SG_ERR_NOMEM;
        }
        r->value_res_src = srcs;
        r->nvalue_src = count;
        for (size_t i = 0; i < count; i++) {
            int rc = regcomp(&r->value_res[i], srcs[i], REG_EXTENDED | REG_NOSUB);
            if (rc) {
                char buf[200];
                regerror(rc, &r->value_res[i], buf, sizeof buf);
                r->nvalue_res = i;
                return pack__err(c, v, "'values' entry %zu: bad regular expression: %s", i + 1, buf);
            }
            r->nvalue_res = i + 1;
        }
        r->value_anchors = calloc(count ? count : 1, sizeof *r->value_anchors);
        if (!r->value_anchors)
            return SG_ERR_NOMEM;
        for (size_t i = 0; i < count; i++)
            if (sg_regex_anchor(srcs[i], &r->value_anchors[i]))
                return SG_ERR_NOMEM;
    }
    r->min_length = 1;
    if ((v = pack__get(c, n, "min_length"))) {
        long ml;
        if ((st = pack__int(c, v, "min_length", 1, 4096, &ml)))
            return st;
        r->min_length = (size_t)ml;
    }
    if (!r->has_name_re && !r->nvalue_res)
        return pack__err(c, n, "'credentials' needs 'names' or 'values'");
    return SG_OK;
}

static sg_status pack__network_map(pack__ctx *c, yaml_node_t *n, sg_rule_network *r)
{
    static const char *const keys[] = {"host", "report", NULL};
    static const char *const host_keys[] = {"position", "keyword", NULL};
    if (n->type != YAML_MAPPING_NODE)
        return pack__err(c, n, "'network' must be a mapping");
    sg_status st = pack__check_keys(c, n, "network", keys);
    if (st)
        return st;
    r->host_position = -1;
    yaml_node_t *h = pack__get(c, n, "host");
    if (h) {
        if (h->type != YAML_MAPPING_NODE)
            return pack__err(c, h, "'host' must be a mapping with 'position' and/or 'keyword'");
        if ((st = pack__check_keys(c, h, "host", host_keys)))
            return st;
        yaml_node_t *p = pack__get(c, h, "position");
        if (p) {
            long v;
            if ((st = pack__int(c, p, "position", 0, 255, &v)))
                return st;
            r->host_position = (int)v;
        }
        if ((st = pack__str(c, h, "keyword", false, &r->host_keyword)))
            return st;
    }
    char *report = NULL;
    if ((st = pack__str(c, n, "report", true, &report)))
        return st;
    if (!strcmp(report, "disallowed"))
        r->unverifiable = false;
    else if (!strcmp(report, "unverifiable"))
        r->unverifiable = true;
    else
        st = pack__err(c, pack__get(c, n, "report"), "'report' must be 'disallowed' or 'unverifiable'");
    free(report);
    if (!st && !r->unverifiable && r->host_position < 0 && !r->host_keyword)
        st = pack__err(c, n, "a 'disallowed' network rule needs 'host'");
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Query rules: compiling, and the prefilters the engine tests before running a query           */

/* A #match? pattern that is an alternation of words, "^(a|b|c)$": one of the words must be in the
 * source for the query to match, which the engine tests before running it. Other patterns: none. */
static sg_status pack__any_needles(const char *pat, sg_rule_query *r)
{
    size_t n = strlen(pat);
    if (n < 5 || strncmp(pat, "^(", 2) || strcmp(pat + n - 2, ")$"))
        return SG_OK;
    for (size_t i = 2; i < n - 2; i++)
        if (!isalnum((unsigned char)pat[i]) && pat[i] != '_' && pat[i] != '|')
            return SG_OK;
    for (const char *p = pat + 2; p < pat + n - 2;) {
        size_t l = strcspn(p, "|)");
        char **nv = realloc(r->any_needles, (r->nany_needles + 1) * sizeof *nv);
        if (!nv)
            return SG_ERR_NOMEM;
        r->any_needles = nv;
        if (!(nv[r->nany_needles] = strndup(p, l)))
            return SG_ERR_NOMEM;
        r->nany_needles++;
        p += l + 1;
    }
    return SG_OK;
}

/* One predicate step of a query, as ts_query_predicates_for_pattern() gives it: a string (a
 * predicate's name, a string or bare-word argument: NUL-terminated text) or a capture. */
typedef struct pack__pstep {
    TSQueryPredicateStepType type;
    const char *s; /* a string step's text; NULL for a capture or the end of a predicate */
} pack__pstep;

/* The prefilters of a query from the predicate steps of all its patterns, in order: with one
 * pattern only, the string of every `#eq? @c "s"` (needles: all must occur) and the words of the
 * first `#match? @c "^(a|b)$"` (any_needles: one must occur). A step list that is not a
 * well-formed predicate derives nothing. Fails only with SG_ERR_NOMEM. */
static sg_status pack__prefilter(const pack__pstep *st, size_t n, uint32_t npatterns, sg_rule_query *r)
{
    if (npatterns != 1)
        return SG_OK;
    bool at_start = true;
    for (size_t i = 0; i < n; i++) {
        if (at_start && st[i].type == TSQueryPredicateStepTypeString && i + 2 < n &&
            st[i + 1].type == TSQueryPredicateStepTypeCapture && st[i + 2].type == TSQueryPredicateStepTypeString) {
            if (!strcmp(st[i].s, "match?") && !r->nany_needles) {
                if (pack__any_needles(st[i + 2].s, r))
                    return SG_ERR_NOMEM;
            } else if (!strcmp(st[i].s, "eq?")) {
                /* a match needs this exact text in the source: cheap to test before running */
                char **nv = realloc(r->needles, (r->nneedles + 1) * sizeof *nv);
                if (!nv)
                    return SG_ERR_NOMEM;
                r->needles = nv;
                if (!(nv[r->nneedles] = strdup(st[i + 2].s)))
                    return SG_ERR_NOMEM;
                r->nneedles++;
            }
        }
        at_start = st[i].type == TSQueryPredicateStepTypeDone;
    }
    return SG_OK;
}

/* The prefilters of a compiled query (its predicates were checked by sg_query_prog_new). */
static sg_status pack__prefilter_prog(const sg_query_prog *p, sg_rule_query *r)
{
    SG_ARRAY(pack__pstep) steps = {0};
    sg_status st = SG_OK;
    uint32_t npatterns = ts_query_pattern_count(p->query);
    for (uint32_t k = 0; k < npatterns && !st; k++) {
        uint32_t n;
        const TSQueryPredicateStep *ps = ts_query_predicates_for_pattern(p->query, k, &n);
        for (uint32_t i = 0; i < n && !st; i++) {
            uint32_t len;
            pack__pstep s = {ps[i].type, ps[i].type == TSQueryPredicateStepTypeString
                                             ? ts_query_string_value_for_id(p->query, ps[i].value_id, &len)
                                             : NULL};
            if (sg_array_push(&steps, s, 0))
                st = SG_ERR_NOMEM;
        }
    }
    if (!st)
        st = pack__prefilter(steps.items, steps.len, npatterns, r);
    sg_array_free(&steps);
    return st;
}

/* Reading a query's text as ts_query_new() reads it (tree-sitter 0.25, lib/src/query.c:
 * stream_skip_whitespace, ts_query__parse_pattern, ts_query__parse_predicate,
 * ts_query__parse_string_literal), as far as the prefilters need: how many patterns, and every
 * predicate's steps. Conservative: anything it does not follow exactly (a byte outside ASCII, an
 * escaped NUL, a top-level item other than a parenthesised pattern or an alternation, unbalanced
 * brackets, a malformed predicate) makes it give up, and the rule is compiled at load. */
typedef struct pack__qtext {
    const char *p, *end;
    SG_ARRAY(pack__pstep) steps;
    char *buf; /* the steps' texts, unescaped; never moves (sized for the whole query) */
    size_t used;
} pack__qtext;

static void pack__qtext_skip(pack__qtext *t)
{
    for (;;) {
        if (t->p < t->end && isspace((unsigned char)*t->p))
            t->p++;
        else if (t->p < t->end && *t->p == ';')
            while (t->p < t->end && *t->p != '\n')
                t->p++;
        else
            break;
    }
}

static bool pack__qtext_ident_start(const pack__qtext *t)
{
    return t->p < t->end && (isalnum((unsigned char)*t->p) || *t->p == '_' || *t->p == '-');
}

/* An identifier (the caller checked its first byte) into buf; its text, or NULL (no room). */
static const char *pack__qtext_ident(pack__qtext *t)
{
    char *s = t->buf + t->used;
    do
        t->buf[t->used++] = *t->p++;
    while (t->p < t->end && (isalnum((unsigned char)*t->p) || strchr("_-.?!", *t->p)));
    t->buf[t->used++] = 0;
    return s;
}

/* A string literal at '"' into buf; its text, or NULL when unsure. */
static const char *pack__qtext_string(pack__qtext *t)
{
    char *s = t->buf + t->used;
    for (t->p++; t->p < t->end; t->p++) {
        char ch = *t->p;
        if (ch == '"') {
            t->p++;
            t->buf[t->used++] = 0;
            return s;
        }
        if (ch == '\n')
            return NULL; /* a syntax error */
        if (ch == '\\') {
            if (++t->p == t->end)
                return NULL;
            ch = *t->p == 'n' ? '\n' : *t->p == 'r' ? '\r' : *t->p == 't' ? '\t' : *t->p;
            if (*t->p == '0')
                return NULL; /* "\0" cuts the text short for strdup: not worth following */
        }
        t->buf[t->used++] = ch;
    }
    return NULL;
}

/* A predicate after its "(#" or "(.": its name, arguments and end into steps. */
static sg_status pack__qtext_predicate(pack__qtext *t, bool *ret_ok)
{
    *ret_ok = false;
    if (!pack__qtext_ident_start(t))
        return SG_OK;
    pack__pstep name = {TSQueryPredicateStepTypeString, pack__qtext_ident(t)};
    if (sg_array_push(&t->steps, name, 0))
        return SG_ERR_NOMEM;
    pack__qtext_skip(t);
    for (;;) {
        pack__pstep s = {TSQueryPredicateStepTypeString, NULL};
        if (t->p == t->end) {
            return SG_OK;
        } else if (*t->p == ')') {
            t->p++;
            s.type = TSQueryPredicateStepTypeDone;
            if (sg_array_push(&t->steps, s, 0))
                return SG_ERR_NOMEM;
            *ret_ok = true;
            return SG_OK;
        } else if (*t->p == '@') {
            t->p++;
            if (!pack__qtext_ident_start(t))
                return SG_OK;
            pack__qtext_ident(t);
            s.type = TSQueryPredicateStepTypeCapture;
        } else if (*t->p == '"') {
            if (!(s.s = pack__qtext_string(t)))
                return SG_OK;
        } else if (pack__qtext_ident_start(t)) {
            s.s = pack__qtext_ident(t);
        } else {
            return SG_OK;
        }
        if (sg_array_push(&t->steps, s, 0))
            return SG_ERR_NOMEM;
        pack__qtext_skip(t);
    }
}

/* The prefilters of query `src` from its text into r, *ret_sure = true; or nothing set and
 * *ret_sure = false when the reading gave up. Fails only with SG_ERR_NOMEM. */
static sg_status pack__prefilter_text(const char *src, sg_rule_query *r, bool *ret_sure)
{
    *ret_sure = false;
    size_t len = strlen(src);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)src[i] >= 0x80)
            return SG_OK;
    pack__qtext t = {.p = src, .end = src + len, .buf = malloc(2 * len + 2)};
    if (!t.buf)
        return SG_ERR_NOMEM;
    sg_status st = SG_OK;
    bool ok = true;
    uint32_t npatterns = 0;
    size_t depth = 0;
    pack__qtext_skip(&t);
    while (ok && !st && t.p < t.end) {
        char ch = *t.p;
        if (ch == '(') {
            t.p++;
            pack__qtext_skip(&t);
            if (t.p < t.end && (*t.p == '#' || *t.p == '.')) {
                t.p++;
                if (depth == 0)
                    ok = false; /* a predicate outside any pattern */
                else
                    st = pack__qtext_predicate(&t, &ok);
            } else {
                npatterns += depth++ == 0;
            }
        } else if (ch == '[') {
            t.p++;
            npatterns += depth++ == 0;
        } else if (ch == ')' || ch == ']') {
            t.p++;
            ok = depth-- > 0;
        } else if (ch == '"' && depth > 0) {
            ok = pack__qtext_string(&t) != NULL;
        } else if (ch == '@' && npatterns > 0) {
            t.p++;
            if ((ok = pack__qtext_ident_start(&t)))
                pack__qtext_ident(&t);
        } else if (depth > 0 || ((ch == '*' || ch == '+' || ch == '?') && npatterns > 0)) {
            t.p++; /* a node or field name, an anchor, a quantifier...: nothing the prefilters need */
        } else {
            ok = false;
        }
        pack__qtext_skip(&t);
    }
    if (!st && ok && depth == 0 && npatterns > 0) {
        st = pack__prefilter(t.steps.items, t.steps.len, npatterns, r);
        *ret_sure = !st;
    }
    sg_array_free(&t.steps);
    free(t.buf);
    return st;
}

void sg_query_prog_free(sg_query_prog *p)
{
    if (!p)
        return;
    if (p->query)
        ts_query_delete(p->query);
    for (uint32_t i = 0; i < p->nstrings; i++)
        if (p->res_set[i])
            regfree(&p->res[i]);
    free(p->res);
    free(p->res_set);
    free(p);
}

static sg_status pack__query_fail(sg_query_error *e, bool capture_phase, bool at_capture, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static sg_status pack__query_fail(sg_query_error *e, bool capture_phase, bool at_capture, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    e->capture_phase = capture_phase;
    e->at_capture = at_capture;
    return SG_ERR_RULES;
}

/* The query and its predicates (only those the engine evaluates; #match? patterns compile now). */
static sg_status pack__query_compile(const char *src, sg_query_prog *p, sg_query_error *e)
{
    uint32_t err_off = 0;
    TSQueryError err = TSQueryErrorNone;
    p->query = ts_query_new(tree_sitter_python(), src, (uint32_t)strlen(src), &err_off, &err);
    if (!p->query) {
        static const char *const names[] = {"none", "syntax", "node type", "field", "capture", "structure", "language"};
        return pack__query_fail(e, false, false, "'query': %s error at offset %u", err < 7 ? names[err] : "unknown",
                                err_off);
    }
    uint32_t nstr = ts_query_string_count(p->query);
    p->res = calloc(nstr ? nstr : 1, sizeof *p->res);
    p->res_set = calloc(nstr ? nstr : 1, sizeof *p->res_set);
    if (!p->res || !p->res_set)
        return SG_ERR_NOMEM;
    p->nstrings = nstr;
    for (uint32_t k = 0; k < ts_query_pattern_count(p->query); k++) {
        uint32_t nsteps;
        const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(p->query, k, &nsteps);
        bool at_start = true;
        for (uint32_t i = 0; i < nsteps; i++) {
            if (at_start && steps[i].type == TSQueryPredicateStepTypeString) {
                uint32_t len;
                const char *name = ts_query_string_value_for_id(p->query, steps[i].value_id, &len);
                if (strcmp(name, "eq?") && strcmp(name, "not-eq?") && strcmp(name, "match?") &&
                    strcmp(name, "not-match?"))
                    return pack__query_fail(e, false, false,
                                            "'query': unsupported predicate #%s (supported: #eq?, #not-eq?, "
                                            "#match?, #not-match?)", name);
                if (strstr(name, "match?")) {
                    if (i + 2 >= nsteps || steps[i + 1].type != TSQueryPredicateStepTypeCapture ||
                        steps[i + 2].type != TSQueryPredicateStepTypeString)
                        return pack__query_fail(e, false, false, "'query': #%s takes a capture and a pattern string",
                                                name);
                    uint32_t id = steps[i + 2].value_id, plen;
                    const char *pat = ts_query_string_value_for_id(p->query, id, &plen);
                    if (id < nstr && !p->res_set[id]) {
                        int rc = regcomp(&p->res[id], pat, REG_EXTENDED | REG_NOSUB);
                        if (rc)
                            return pack__query_fail(e, false, false, "'query': bad #match? pattern '%s'", pat);
                        p->res_set[id] = true;
                    }
                } else if (i + 2 >= nsteps || steps[i + 1].type != TSQueryPredicateStepTypeCapture ||
                           steps[i + 2].type == TSQueryPredicateStepTypeDone) {
                    return pack__query_fail(e, false, false, "'query': #%s takes a capture and a capture or string",
                                            name);
                }
            }
            at_start = steps[i].type == TSQueryPredicateStepTypeDone;
        }
    }
    return SG_OK;
}

sg_status sg_query_prog_new(const char *src, const char *capture, sg_query_prog **ret_prog, sg_query_error *e)
{
    sg_query_prog *p = calloc(1, sizeof *p);
    if (!p)
        return SG_ERR_NOMEM;
    sg_status st = pack__query_compile(src, p, e);
    if (!st && capture) {
        uint32_t n = ts_query_capture_count(p->query);
        bool found = false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t len;
            const char *name = ts_query_capture_name_for_id(p->query, i, &len);
            if (!strcmp(name, capture)) {
                p->capture = i;
                found = true;
            }
        }
        if (!found)
            st = pack__query_fail(e, true, true, "'capture': the query has no capture @%s", capture);
    } else if (!st && ts_query_capture_count(p->query) == 0) {
        st = pack__query_fail(e, true, false, "'query' needs at least one @capture to locate findings");
    }
    if (st) {
        sg_query_prog_free(p);
        return st;
    }
    *ret_prog = p;
    return SG_OK;
}

/* A query rule's query and capture: compiled now (a pack from a file: its errors are load errors),
 * or, for the built-in pack (c->lazy), on first use when its prefilters can be read from the text
 * (else now as well). */
static sg_status pack__query_src(pack__ctx *c, yaml_node_t *q, yaml_node_t *cap, sg_rule_query *r)
{
    const char *src = pack__scalar(q);
    if (!src)
        return pack__err(c, q, "'query' must be a string");
    if (!(r->src = strdup(src)))
        return SG_ERR_NOMEM;
    const char *cs = pack__scalar(cap);
    if (cs && !(r->capture_name = strdup(cs)))
        return SG_ERR_NOMEM;
    if (pthread_mutex_init(&r->lock, NULL))
        return SG_ERR_NOMEM;
    r->lock_ready = true;
    sg_status st;
    if (c->lazy) {
        if (cap && !cs)
            return pack__err(c, cap, "'capture' must be a string");
        bool sure;
        if ((st = pack__prefilter_text(src, r, &sure)) || sure)
            return st;
    }
    sg_query_prog *p = NULL;
    sg_query_error e;
    st = sg_query_prog_new(src, cs, &p, &e);
    if (cap && !cs && (!st || (st == SG_ERR_RULES && e.capture_phase))) {
        /* the query itself is sound: the error is the key's type, as the loader always said */
        sg_query_prog_free(p);
        return pack__err(c, cap, "'capture' must be a string");
    }
    if (st == SG_ERR_RULES)
        return pack__err(c, e.at_capture ? cap : q, "%s", e.message);
    if (st)
        return st;
    atomic_store_explicit(&r->prog, p, memory_order_relaxed); /* published with the set */
    return pack__prefilter_prog(p, r);
}

/* ------------------------------------------------------------------------------------------ */
/* One parser per rule kind: `m` is the rule's 'match' mapping, `v` the node of the kind's key.  */

static sg_status pack__calls(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    (void)m;
    return pack__strv(c, v, "calls", false, &r->calls.names.v, &r->calls.names.n);
}

static sg_status pack__network(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    yaml_node_t *calls = pack__get(c, m, "calls");
    if (!calls)
        return pack__err(c, m, "rule %s: 'network' needs 'calls'", r->info.id);
    sg_status st = pack__network_map(c, v, &r->network);
    if (st)
        return st;
    return pack__strv(c, calls, "calls", false, &r->network.names.v, &r->network.names.n);
}

static sg_status pack__imports(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    (void)m;
    return pack__strv(c, v, "imports", false, &r->imports.names.v, &r->imports.names.n);
}

static sg_status pack__attributes(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    (void)m;
    return pack__strv(c, v, "attributes", false, &r->attributes.names.v, &r->attributes.names.n);
}

static sg_status pack__credentials(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    (void)m;
    return pack__credentials_map(c, v, &r->credentials);
}

static sg_status pack__query(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    sg_status st = pack__query_src(c, v, pack__get(c, m, "capture"), &r->query);
    yaml_node_t *ta = pack__get(c, m, "text_any");
    if (st || !ta)
        return st;
    /* text_any: every match holds one of these texts (the rule vouches for it), so the query
     * runs only around their occurrences, and not at all on a source without one */
    return pack__strv(c, ta, "text_any", false, &r->query.in_match, &r->query.nin_match);
}

static sg_status pack__builtin(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r)
{
    const char *b = pack__scalar(v);
    static const char *const names[] = {"syntax-error", "limit", "ignored-suppression", "dynamic-attribute"};
    bool ok = false;
    for (int i = 0; i < 4; i++)
        if (b && !strcmp(b, names[i])) {
            r->builtin.which = (sg_builtin)i;
            ok = true;
        }
    if (!ok)
        return pack__err(c, v, "rule %s: unknown builtin check '%s'", r->info.id, b ? b : "");
    if ((r->builtin.which == SG_BUILTIN_SYNTAX_ERROR || r->builtin.which == SG_BUILTIN_LIMIT) &&
        (!r->info.enabled || r->info.severity != SG_SEV_CRITICAL))
        return pack__err(c, v, "rule %s: the %s check must stay enabled and critical (a snippet the gate cannot "
                               "read is never passed)", r->info.id, b);
    if (r->builtin.which == SG_BUILTIN_DYNAMIC_ATTRIBUTE) {
        yaml_node_t *mods = pack__get(c, m, "modules");
        if (!mods)
            return pack__err(c, m, "rule %s: 'dynamic-attribute' needs 'modules'", r->info.id);
        return pack__strv(c, mods, "modules", false, &r->builtin.modules.v, &r->builtin.modules.n);
    }
    return SG_OK;
}

/* The rule kinds by the 'match' key that declares them ('network' before 'calls': a network
 * rule has both). */
static const struct {
    const char *key;
    sg_rule_kind kind;
    sg_status (*parse)(pack__ctx *c, yaml_node_t *m, yaml_node_t *v, sg_rule *r);
} pack__kinds[] = {
    {"network", SG_KIND_NETWORK, pack__network},
    {"calls", SG_KIND_CALLS, pack__calls},
    {"imports", SG_KIND_IMPORTS, pack__imports},
    {"attributes", SG_KIND_ATTRIBUTES, pack__attributes},
    {"credentials", SG_KIND_CREDENTIALS, pack__credentials},
    {"query", SG_KIND_QUERY, pack__query},
    {"builtin", SG_KIND_BUILTIN, pack__builtin},
};

/* The argument conditions of a calls rule ('where', 'where_any', or both: every condition of
 * 'where' and one of 'where_any'; only calls rules have them) and whether it also matches
 * references. */
static sg_status pack__where(pack__ctx *c, yaml_node_t *m, sg_rule *r)
{
    sg_status st;
    yaml_node_t *lists[2] = {pack__get(c, m, "where"), pack__get(c, m, "where_any")};
    size_t counts[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (!lists[k])
            continue;
        if (r->kind != SG_KIND_CALLS)
            return pack__err(c, lists[k], "rule %s: conditions apply only to 'calls' rules", r->info.id);
        if (lists[k]->type != YAML_SEQUENCE_NODE)
            return pack__err(c, lists[k], "rule %s: '%s' must be a list of conditions", r->info.id,
                             k ? "where_any" : "where");
        counts[k] = (size_t)(lists[k]->data.sequence.items.top - lists[k]->data.sequence.items.start);
    }
    if (lists[1] && !counts[1])
        return pack__err(c, lists[1], "rule %s: 'where_any' needs at least one condition", r->info.id);
    if (counts[0] + counts[1]) {
        r->calls.where_any = lists[1] != NULL;
        r->calls.nall = lists[1] ? counts[0] : 0;
        r->calls.where = calloc(counts[0] + counts[1], sizeof *r->calls.where);
        if (!r->calls.where)
            return SG_ERR_NOMEM;
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < counts[k]; i++) {
                sg_cond *cond = &r->calls.where[r->calls.nwhere++];
                if ((st = pack__cond(c, pack__node(c, lists[k]->data.sequence.items.start[i]), cond)))
                    return st;
            }
    }
    bool references = r->kind == SG_KIND_CALLS && r->calls.nwhere == 0;
    yaml_node_t *v = pack__get(c, m, "references");
    if (v && (st = pack__bool(c, v, "references", &references)))
        return st;
    if (r->kind == SG_KIND_CALLS)
        r->calls.references = references; /* other kinds accept the key and ignore it */
    return SG_OK;
}

static const char *pack__kind_name(sg_rule_kind k)
{
    static const char *const names[] = {"calls", "imports", "attributes", "credentials", "network", "query", "builtin"};
    return names[k];
}

static char *pack__describe(const sg_rule *r)
{
    sg_buf b;
    sg_buf_init(&b, 400);
    switch (r->kind) {
    case SG_KIND_CALLS:
    case SG_KIND_NETWORK:
    case SG_KIND_IMPORTS:
    case SG_KIND_ATTRIBUTES:
        sg_buf_puts(&b, r->kind == SG_KIND_IMPORTS ? "import " : r->kind == SG_KIND_ATTRIBUTES ? "attribute " : "call ");
        for (size_t i = 0; i < sg_rule_patterns(r)->n; i++)
            sg_buf_printf(&b, "%s%s", i ? ", " : "", sg_rule_patterns(r)->v[i]);
        if (r->kind == SG_KIND_CALLS && r->calls.nwhere)
            sg_buf_printf(&b, " (with %zu argument condition%s)", r->calls.nwhere, r->calls.nwhere > 1 ? "s" : "");
        if (r->kind == SG_KIND_NETWORK)
            sg_buf_puts(&b, r->network.unverifiable ? " whose host cannot be verified"
                                                    : " to a host not on the allow-list");
        break;
    case SG_KIND_CREDENTIALS:
        sg_buf_printf(&b, "string literals assigned to credential-like names%s",
                      r->credentials.nvalue_res ? " or shaped like known secrets" : "");
        break;
    case SG_KIND_QUERY:
        sg_buf_printf(&b, "query %s", r->query.src);
        break;
    case SG_KIND_BUILTIN: {
        static const char *const d[] = {"code that does not parse", "input beyond a size, depth or time limit",
                                        "a # nosec / # noqa comment that was not honoured",
                                        "getattr() with a non-constant name on a sensitive module"};
        sg_buf_puts(&b, d[r->builtin.which]);
        break;
    }
    }
    if (b.failed) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data ? b.data : strdup("");
}

/* The common part of a rule (id, name, severity, confidence, cwe, message, fix, rationale,
 * example, enabled) into `info`, whose strings the rule owns even on failure. */
static sg_status pack__rule_info(pack__ctx *c, yaml_node_t *n, sg_rule_info *info)
{
    sg_status st;
    char *sev = NULL, *conf = NULL;
    yaml_node_t *v;
    if ((st = pack__str(c, n, "id", true, (char **)&info->id)) ||
        (st = pack__str(c, n, "name", true, (char **)&info->name)) ||
        (st = pack__str(c, n, "message", true, (char **)&info->message)) ||
        (st = pack__str(c, n, "fix", false, (char **)&info->fix)) ||
        (st = pack__str(c, n, "rationale", false, (char **)&info->rationale)) ||
        (st = pack__str(c, n, "example", false, (char **)&info->example)) ||
        (st = pack__str(c, n, "severity", true, &sev)) || (st = pack__str(c, n, "confidence", false, &conf)))
        goto out_free;
    for (const char *p = info->id; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.') {
            st = pack__err(c, pack__get(c, n, "id"), "rule id '%s' may hold only letters, digits, '-', '_' and '.'",
                           info->id);
            goto out_free;
        }
    if (sg_severity_parse(sev, &info->severity)) {
        st = pack__err(c, pack__get(c, n, "severity"), "severity must be low, medium, high or critical (got '%s')", sev);
        goto out_free;
    }
    if (!conf && !(conf = strdup("high"))) {
        st = SG_ERR_NOMEM;
        goto out_free;
    }
    if (strcmp(conf, "low") && strcmp(conf, "medium") && strcmp(conf, "high")) {
        st = pack__err(c, pack__get(c, n, "confidence"), "confidence must be low, medium or high");
        goto out_free;
    }
    info->confidence = conf;
    conf = NULL;
    if ((!info->fix && !(info->fix = strdup(""))) || (!info->rationale && !(info->rationale = strdup(""))) ||
        (!info->example && !(info->example = strdup("")))) {
        st = SG_ERR_NOMEM;
        goto out_free;
    }
    if ((v = pack__get(c, n, "cwe"))) {
        const char *s = pack__scalar(v);
        long cwe;
        if (s && !strncasecmp(s, "CWE-", 4)) {
            yaml_node_t tmp = *v;
            tmp.data.scalar.value = (yaml_char_t *)(s + 4);
            st = pack__int(c, &tmp, "cwe", 1, 100000, &cwe);
        } else {
            st = pack__int(c, v, "cwe", 1, 100000, &cwe);
        }
        if (st)
            goto out_free;
        info->cwe = (int)cwe;
    }
    if ((v = pack__get(c, n, "enabled")) && (st = pack__bool(c, v, "enabled", &info->enabled)))
        goto out_free;
    free(sev);
    return SG_OK;
out_free:
    free(sev);
    free(conf);
    return st;
}

static sg_status pack__rule(pack__ctx *c, yaml_node_t *n, sg_rule **ret)
{
    static const char *const keys[] = {"id", "name", "severity", "confidence", "cwe", "message", "fix",
                                       "rationale", "example", "enabled", "match", NULL};
    static const char *const match_keys[] = {"calls", "where", "where_any", "references", "imports",
                                             "attributes", "credentials", "network", "query", "capture",
                                             "text_any", "builtin", "modules", NULL};
    if (n->type != YAML_MAPPING_NODE)
        return pack__err(c, n, "each rule must be a mapping");
    sg_status st = pack__check_keys(c, n, "rule", keys);
    if (st)
        return st;
    sg_rule *r = calloc(1, sizeof *r);
    if (!r)
        return SG_ERR_NOMEM;
    r->info.enabled = true;
    if ((st = pack__rule_info(c, n, &r->info)))
        goto out_free;
    yaml_node_t *m = pack__get(c, n, "match");
    if (!m || m->type != YAML_MAPPING_NODE) {
        st = pack__err(c, m ? m : n, "rule %s: 'match' must be a mapping", r->info.id);
        goto out_free;
    }
    if ((st = pack__check_keys(c, m, "match", match_keys)))
        goto out_free;

    /* Exactly one kind per rule ('calls' with 'network' is the network kind). */
    size_t kind = 0;
    int declared = 0;
    for (size_t k = 0; k < sizeof pack__kinds / sizeof pack__kinds[0]; k++)
        if (pack__get(c, m, pack__kinds[k].key) &&
            !(pack__kinds[k].kind == SG_KIND_CALLS && pack__get(c, m, "network")) && !declared++)
            kind = k;
    if (declared != 1) {
        st = pack__err(c, m, "rule %s: 'match' needs exactly one of calls, imports, attributes, credentials, "
                             "network (with calls), query, builtin", r->info.id);
        goto out_free;
    }
    r->kind = pack__kinds[kind].kind; /* before any field of the kind is set (sg_rule_free) */
    if ((st = pack__kinds[kind].parse(c, m, pack__get(c, m, pack__kinds[kind].key), r)))
        goto out_free;
    if ((st = pack__where(c, m, r)))
        goto out_free;
    if (sg_rule_patterns(r))
        sg_patterns_index((sg_patterns *)sg_rule_patterns(r));
    r->info.kind = pack__kind_name(r->kind);
    if (!(r->info.matches = pack__describe(r)) || !(r->info.pack = strdup(c->pack))) {
        st = SG_ERR_NOMEM;
        goto out_free;
    }
    *ret = r;
    return SG_OK;
out_free:
    sg_rule_free(r);
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Pack loading                                                                                  */

static sg_status pack__load_doc(pack__ctx *c, sg_rules *staged)
{
    static const char *const keys[] = {"version", "rules", "allow_hosts", "module_aliases", "disable", NULL};
    yaml_node_t *root = yaml_document_get_root_node(&c->doc);
    if (!root)
        return pack__err(c, NULL, "the rule pack is empty");
    if (root->type != YAML_MAPPING_NODE)
        return pack__err(c, root, "a rule pack must be a mapping with 'version' and 'rules'");
    sg_status st = pack__check_keys(c, root, "pack", keys);
    if (st)
        return st;
    yaml_node_t *ver = pack__get(c, root, "version");
    long version;
    if (!ver)
        return pack__err(c, root, "missing 'version: 1'");
    if ((st = pack__int(c, ver, "version", 1, 1, &version)))
        return st;
    yaml_node_t *rl = pack__get(c, root, "rules");
    if (rl) {
        if (rl->type != YAML_SEQUENCE_NODE)
            return pack__err(c, rl, "'rules' must be a list");
        for (yaml_node_item_t *it = rl->data.sequence.items.start; it < rl->data.sequence.items.top; it++) {
            sg_rule *r = NULL;
            if (staged->rules.len >= PACK_MAX_RULES)
                return pack__err(c, rl, "more than %d rules", PACK_MAX_RULES);
            if ((st = pack__rule(c, pack__node(c, *it), &r)))
                return st;
            for (size_t i = 0; i < staged->rules.len; i++)
                if (!strcmp(staged->rules.items[i]->info.id, r->info.id)) {
                    yaml_node_t *n = pack__node(c, *it);
                    sg_rule_free(r);
                    return pack__err(c, n, "duplicate rule id in one pack");
                }
            if (sg_array_push(&staged->rules, r, 0)) {
                sg_rule_free(r);
                return SG_ERR_NOMEM;
            }
        }
    }
    yaml_node_t *hosts = pack__get(c, root, "allow_hosts");
    if (hosts) {
        char **v;
        size_t nv;
        if ((st = pack__strv(c, hosts, "allow_hosts", false, &v, &nv)))
            return st;
        for (size_t i = 0; i < nv; i++) {
            st = sg_rules_allow_host(staged, v[i]);
            if (st == SG_ERR_INVALID_ARG)
                st = pack__err(c, hosts, "allow_hosts: '%s' is not a host name", v[i]);
            if (st)
                break;
        }
        sg_strv_free(v, nv);
        if (st)
            return st;
    }
    yaml_node_t *al = pack__get(c, root, "module_aliases");
    if (al) {
        if (al->type != YAML_MAPPING_NODE)
            return pack__err(c, al, "'module_aliases' must map a module name to the module it stands for");
        for (yaml_node_pair_t *p = al->data.mapping.pairs.start; p < al->data.mapping.pairs.top; p++) {
            const char *from = pack__scalar(pack__node(c, p->key)), *to = pack__scalar(pack__node(c, p->value));
            if (!from || !to || !*from || !*to)
                return pack__err(c, pack__node(c, p->key), "module_aliases entries must be non-empty strings");
            sg_alias a = {strdup(from), strdup(to)};
            if (!a.from || !a.to || sg_array_push(&staged->module_aliases, a, 0)) {
                free(a.from);
                free(a.to);
                return SG_ERR_NOMEM;
            }
        }
    }
    return SG_OK;
}

static sg_status loader__load_buffer(sg_rules *rules, const char *name, const char *buf, size_t len, size_t max,
                                     bool replace_all, bool lazy, sg_diag *diag);
static sg_status loader__load_doc(sg_rules *rules, pack__ctx *cp, bool replace_all);
static void loader__doc_delete(pack__ctx *c);

sg_status sg_rules_load_buffer(sg_rules *rules, const char *name, const char *buf, size_t len, bool replace_all,
                               sg_diag *diag)
{
    return loader__load_buffer(rules, name, buf, len, PACK_MAX_BYTES, replace_all, false, diag);
}

sg_status sg_rules_load_builtin(sg_rules *rules, const char *name, const char *buf, size_t len, sg_diag *diag)
{
    return loader__load_buffer(rules, name, buf, len, PACK_MAX_BYTES, false, true, diag);
}

static bool loader__get32(const unsigned char *b, size_t len, size_t *at, uint32_t *v)
{
    if (len - *at < 4 || *at > len)
        return false;
    const unsigned char *p = b + *at;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    *at += 4;
    return true;
}

/* The document rules/pack_gen.c serialised, rebuilt as libyaml's yaml_document_t (the same ids,
 * values and start marks as yaml_parser_load gives; no tags or styles, which the loader does not
 * read) in four allocations: the node array (doc->nodes) and blocks[0..2] for the scalars' text,
 * the sequences' items and the mappings' pairs. SG_OK; SG_ERR_RULES, with nothing allocated, when
 * the bytes are short, malformed or refer to a node that is not there; SG_ERR_NOMEM. */
static sg_status loader__doc_from_blob(const unsigned char *b, size_t len, yaml_document_t *doc, void *blocks[3])
{
    size_t at = 8;
    uint32_t n;
    memset(doc, 0, sizeof *doc);
    if (len < 12 || memcmp(b, "SGPACK1\n", 8) || !loader__get32(b, len, &at, &n) || n == 0 || n > len / 13)
        return SG_ERR_RULES;
    /* pass 1: check the layout and size the blocks */
    size_t nodes_at = at, text = 0, items = 0, pairs = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t line, col, k, x = 0, y = 0;
        if (at >= len)
            return SG_ERR_RULES;
        unsigned char t = b[at++];
        if ((t != 1 && t != 2 && t != 3) || !loader__get32(b, len, &at, &line) || !loader__get32(b, len, &at, &col) ||
            !loader__get32(b, len, &at, &k))
            return SG_ERR_RULES;
        if (t == 1) {
            if (k > len - at)
                return SG_ERR_RULES;
            at += k;
            text += (size_t)k + 1;
            continue;
        }
        for (uint32_t j = 0; j < k; j++) {
            if (!loader__get32(b, len, &at, &x) || (t == 3 && !loader__get32(b, len, &at, &y)))
                return SG_ERR_RULES;
            if (x < 1 || x > n || (t == 3 && (y < 1 || y > n)))
                return SG_ERR_RULES;
        }
        if (t == 2)
            items += k;
        else
            pairs += k;
    }
    if (at != len)
        return SG_ERR_RULES;
    yaml_node_t *nodes = calloc(n, sizeof *nodes);
    char *tx = malloc(text);
    yaml_node_item_t *it = malloc((items ? items : 1) * sizeof *it);
    yaml_node_pair_t *pr = malloc((pairs ? pairs : 1) * sizeof *pr);
    if (!nodes || !tx || !it || !pr) {
        free(nodes);
        free(tx);
        free(it);
        free(pr);
        return SG_ERR_NOMEM;
    }
    /* pass 2: fill them */
    at = nodes_at;
    size_t to = 0, io = 0, po = 0;
    for (uint32_t i = 0; i < n; i++) {
        yaml_node_t *node = &nodes[i];
        unsigned char t = b[at++];
        uint32_t line = 0, col = 0, k = 0, x = 0, y = 0;
        loader__get32(b, len, &at, &line); /* (pass 1 checked every field) */
        loader__get32(b, len, &at, &col);
        loader__get32(b, len, &at, &k);
        node->start_mark.line = node->end_mark.line = line;
        node->start_mark.column = node->end_mark.column = col;
        if (t == 1) {
            node->type = YAML_SCALAR_NODE;
            node->data.scalar.value = (yaml_char_t *)(tx + to);
            node->data.scalar.length = k;
            node->data.scalar.style = YAML_ANY_SCALAR_STYLE;
            memcpy(tx + to, b + at, k);
            tx[to + k] = 0;
            to += (size_t)k + 1;
            at += k;
        } else if (t == 2) {
            node->type = YAML_SEQUENCE_NODE;
            node->data.sequence.items.start = it + io;
            for (uint32_t j = 0; j < k; j++) {
                loader__get32(b, len, &at, &x);
                it[io++] = (yaml_node_item_t)x;
            }
            node->data.sequence.items.end = node->data.sequence.items.top = it + io;
        } else {
            node->type = YAML_MAPPING_NODE;
            node->data.mapping.pairs.start = pr + po;
            for (uint32_t j = 0; j < k; j++) {
                loader__get32(b, len, &at, &x);
                loader__get32(b, len, &at, &y);
                pr[po].key = (int)x;
                pr[po++].value = (int)y;
            }
            node->data.mapping.pairs.end = node->data.mapping.pairs.top = pr + po;
        }
    }
    doc->nodes.start = nodes;
    doc->nodes.end = doc->nodes.top = nodes + n;
    doc->start_implicit = doc->end_implicit = 1;
    blocks[0] = tx;
    blocks[1] = it;
    blocks[2] = pr;
    return SG_OK;
}

/* Free a document: libyaml's, or one loader__doc_from_blob made. */
static void loader__doc_delete(pack__ctx *c)
{
    if (c->blob_blocks[0]) {
        free(c->doc.nodes.start);
        for (int i = 0; i < 3; i++)
            free(c->blob_blocks[i]);
        memset(&c->doc, 0, sizeof c->doc);
        memset(c->blob_blocks, 0, sizeof c->blob_blocks);
    } else {
        yaml_document_delete(&c->doc);
    }
}

bool sg_rules_blob_matches_yaml(const unsigned char *blob, size_t blob_len, const char *buf, size_t len)
{
    pack__ctx b = {0};
    if (loader__doc_from_blob(blob, blob_len, &b.doc, b.blob_blocks) != SG_OK)
        return false;
    yaml_parser_t parser;
    yaml_document_t y;
    bool same = yaml_parser_initialize(&parser);
    if (same) {
        yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
        same = yaml_parser_load(&parser, &y);
        yaml_parser_delete(&parser);
    }
    if (!same) {
        loader__doc_delete(&b);
        return false;
    }
    size_t n = (size_t)(y.nodes.top - y.nodes.start);
    same = n == (size_t)(b.doc.nodes.top - b.doc.nodes.start);
    for (size_t i = 0; i < n && same; i++) {
        const yaml_node_t *p = y.nodes.start + i, *q = b.doc.nodes.start + i;
        same = p->type == q->type && p->start_mark.line == q->start_mark.line &&
               p->start_mark.column == q->start_mark.column;
        if (!same)
            break;
        if (p->type == YAML_SCALAR_NODE) {
            same = p->data.scalar.length == q->data.scalar.length &&
                   !memcmp(p->data.scalar.value, q->data.scalar.value, p->data.scalar.length) &&
                   !q->data.scalar.value[q->data.scalar.length];
        } else if (p->type == YAML_SEQUENCE_NODE) {
            ptrdiff_t k = p->data.sequence.items.top - p->data.sequence.items.start;
            same = k == q->data.sequence.items.top - q->data.sequence.items.start &&
                   !memcmp(p->data.sequence.items.start, q->data.sequence.items.start, (size_t)k * sizeof(yaml_node_item_t));
        } else {
            ptrdiff_t k = p->data.mapping.pairs.top - p->data.mapping.pairs.start;
            same = k == q->data.mapping.pairs.top - q->data.mapping.pairs.start;
            for (ptrdiff_t j = 0; j < k && same; j++)
                same = p->data.mapping.pairs.start[j].key == q->data.mapping.pairs.start[j].key &&
                       p->data.mapping.pairs.start[j].value == q->data.mapping.pairs.start[j].value;
        }
    }
    yaml_document_delete(&y);
    loader__doc_delete(&b);
    return same;
}

sg_status sg_rules_load_builtin_compiled(sg_rules *rules, const char *name, const unsigned char *blob, size_t blob_len,
                                         const char *buf, size_t len, sg_diag *diag)
{
    if (!rules || !buf)
        return SG_ERR_INVALID_ARG;
    pack__ctx c = {.pack = name ? name : "<rules>", .diag = diag, .lazy = true};
    sg_status st = blob ? loader__doc_from_blob(blob, blob_len, &c.doc, c.blob_blocks) : SG_ERR_RULES;
    if (st == SG_ERR_NOMEM)
        return sg_diag_set(diag, st, c.pack, 0, 0, -1, 0, "out of memory");
    if (st)
        return sg_rules_load_builtin(rules, name, buf, len, diag); /* (the YAML text, parsed) */
    st = sg_rules_mutable(rules, diag, name, NULL);
    if (st) {
        loader__doc_delete(&c);
        return st;
    }
    return loader__load_doc(rules, &c, false);
}

static sg_status loader__load_buffer(sg_rules *rules, const char *name, const char *buf, size_t len, size_t max,
                                     bool replace_all, bool lazy, sg_diag *diag)
{
    if (!rules || !buf)
        return SG_ERR_INVALID_ARG;
    sg_status st = sg_rules_mutable(rules, diag, name, NULL);
    if (st)
        return st;
    if (len > max)
        return sg_diag_set(diag, SG_ERR_TOO_LARGE, name, 0, 0, -1, 0, "rule pack is %zu bytes, larger than the limit of %zu bytes (see --max-bytes)", len, max);
    pack__ctx c = {.pack = name ? name : "<rules>", .diag = diag, .lazy = lazy};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return SG_ERR_NOMEM;
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    if (!yaml_parser_load(&parser, &c.doc)) {
        st = sg_diag_set(diag, SG_ERR_RULES, c.pack, (long)parser.problem_mark.line + 1,
                         (long)parser.problem_mark.column + 1, (long long)parser.problem_mark.index, 0,
                         "YAML error: %s%s%s", parser.problem ? parser.problem : "malformed",
                         parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return st;
    }
    yaml_parser_delete(&parser);
    return loader__load_doc(rules, &c, replace_all);
}

/* Load the document in c->doc (deleted here) into `rules`: staged first, merged only when the
 * whole pack is valid. */
static sg_status loader__load_doc(sg_rules *rules, pack__ctx *cp, bool replace_all)
{
    pack__ctx c = *cp;
    sg_diag *diag = c.diag;
    sg_rules staged = {0};
    sg_status st = pack__load_doc(&c, &staged);
    yaml_node_t *root = yaml_document_get_root_node(&c.doc);
    yaml_node_t *dis = st == SG_OK ? pack__get(&c, root, "disable") : NULL;
    char **disable = NULL;
    size_t ndisable = 0;
    long dis_line = dis ? (long)dis->start_mark.line + 1 : 0, dis_col = dis ? (long)dis->start_mark.column + 1 : 0;
    if (dis)
        st = pack__strv(&c, dis, "disable", false, &disable, &ndisable);
    loader__doc_delete(&c);
    if (st) {
        sg_rules_clear_staged(&staged);
        sg_strv_free(disable, ndisable);
        return st == SG_ERR_NOMEM ? sg_diag_set(diag, st, c.pack, 0, 0, -1, 0, "out of memory") : st;
    }
    st = sg_rules_merge(rules, &staged, replace_all);
    for (size_t i = 0; i < ndisable && !st; i++) {
        st = sg_rules_disable(rules, disable[i], diag);
        if (st && diag) {
            snprintf(diag->path, sizeof diag->path, "%s", c.pack);
            diag->line = dis_line;
            diag->column = dis_col;
        }
    }
    sg_strv_free(disable, ndisable);
    return st;
}

sg_status sg_rules_load_file(sg_rules *rules, const char *path, bool replace_all, sg_diag *diag)
{
    return sg_rules_load_file_max(rules, path, 0, replace_all, diag);
}

sg_status sg_rules_load_file_max(sg_rules *rules, const char *path, size_t max_bytes, bool replace_all, sg_diag *diag)
{
    if (!rules || !path)
        return SG_ERR_INVALID_ARG;
    char *buf;
    size_t len;
    size_t max = max_bytes ? max_bytes : PACK_MAX_BYTES;
    sg_status st = sg_read_file(path, max, &buf, &len, diag);
    if (st)
        return st;
    if (memchr(buf, 0, len)) {
        free(buf);
        return sg_diag_set(diag, SG_ERR_RULES, path, 0, 0, -1, 0, "rule pack contains a NUL byte");
    }
    st = loader__load_buffer(rules, path, buf, len, max, replace_all, false, diag);
    free(buf);
    return st;
}
