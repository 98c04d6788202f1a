/*
 * Policy files (.snipgate.yml): the severity threshold, rules, extra packs, the network
 * allow-list, required stages, budgets and exclude globs, read with libyaml's document API.
 * Every key is known: an unknown one is an error with file, line and column, as in rule packs.
 * Ownership: a policy owns every string its info points to (its arena).
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <yaml.h>

#include "base/util.h"
#include "gate/policy_toml.h"
#include "sandbox/sandbox.h"

#define POLICY_MAX_BYTES (1u << 20)
#define POLICY_MAX_LIST 10000
#define POLICY_NAME ".snipgate.yml"
#define POLICY_PYPROJECT "pyproject.toml"

struct sg_policy {
    sg_arena *arena;
    sg_policy_info info;
};

typedef struct policy__ctx {
    yaml_document_t doc;
    const char *path;
    sg_diag *diag;
    sg_policy *p;
    bool typed; /* from TOML: a string is a quoted scalar, a number or boolean a plain one */
} policy__ctx;

static sg_status policy__err(policy__ctx *c, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static sg_status policy__err(policy__ctx *c, const yaml_node_t *node, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long line = node ? (long)node->start_mark.line + 1 : 0;
    long col = node ? (long)node->start_mark.column + 1 : 0;
    return sg_diag_set(c->diag, SG_ERR_POLICY, c->path, line, col, -1, 0, "%s", msg);
}

static const char *policy__scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

typedef sg_status (*policy__fn)(policy__ctx *c, yaml_node_t *v, const char *key);

typedef struct policy__key {
    const char *name;
    policy__fn fn;
} policy__key;

/* Dispatch every key of mapping `m` to its parser; an unknown key is an error naming the known. */
static sg_status policy__mapping(policy__ctx *c, yaml_node_t *m, const char *what, const policy__key *keys)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return policy__err(c, m, "%s must be a mapping", what);
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&c->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&c->doc, p->value);
        const char *ks = policy__scalar(k);
        if (!ks)
            return policy__err(c, k, "%s: keys must be strings", what);
        const policy__key *hit = NULL;
        for (const policy__key *e = keys; e->name; e++)
            if (!strcmp(e->name, ks))
                hit = e;
        if (!hit) {
            char list[300] = "";
            for (const policy__key *e = keys; e->name; e++) {
                strncat(list, e->name, sizeof list - strlen(list) - 1);
                if (e[1].name)
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            return policy__err(c, k, "%s: unknown key '%s' (expected one of: %s)", what, ks, list);
        }
        sg_status st = hit->fn(c, v, ks);
        if (st)
            return st;
    }
    return SG_OK;
}

/* A list of strings (a single string is a list of one). */
static sg_status policy__strv(policy__ctx *c, yaml_node_t *n, const char *key, const char *const **ret, size_t *ret_n)
{
    const char *one = policy__scalar(n);
    size_t count = one ? 1 : n && n->type == YAML_SEQUENCE_NODE ? (size_t)(n->data.sequence.items.top -
                                                                               n->data.sequence.items.start)
                                                                 : (size_t)-1;
    if (count == (size_t)-1)
        return policy__err(c, n, "'%s' must be a list of strings", key);
    if (count > POLICY_MAX_LIST)
        return policy__err(c, n, "'%s': more than %d entries", key, POLICY_MAX_LIST);
    const char **v = sg_arena_alloc(c->p->arena, (count + 1) * sizeof *v);
    if (!v)
        return SG_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *it = one ? n : yaml_document_get_node(&c->doc, n->data.sequence.items.start[i]);
        const char *s = policy__scalar(it);
        if (!s || !*s || (c->typed && it->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE))
            return policy__err(c, it, "'%s': each entry must be a non-empty string", key);
        if (!(v[i] = sg_arena_strdup(c->p->arena, s)))
            return SG_ERR_NOMEM;
    }
    v[count] = NULL;
    *ret = v;
    *ret_n = count;
    return SG_OK;
}

static sg_status policy__fail_on(policy__ctx *c, yaml_node_t *v, const char *key)
{
    const char *s = policy__scalar(v);
    if (!s || sg_severity_parse(s, &c->p->info.fail_on))
        return policy__err(c, v, "'%s' must be low, medium, high or critical", key);
    c->p->info.has_fail_on = true;
    return SG_OK;
}

static sg_status policy__enable(policy__ctx *c, yaml_node_t *v, const char *key)
{
    return policy__strv(c, v, key, &c->p->info.enable, &c->p->info.n_enable);
}

static sg_status policy__disable(policy__ctx *c, yaml_node_t *v, const char *key)
{
    return policy__strv(c, v, key, &c->p->info.disable, &c->p->info.n_disable);
}

/* rules.honor_suppressions: true (every rule), false (none), or a list of rule ids */
static sg_status policy__honor(policy__ctx *c, yaml_node_t *v, const char *key)
{
    const char *s = v->type == YAML_SCALAR_NODE ? policy__scalar(v) : NULL;
    if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
        c->p->info.honor_all_suppressions = !strcmp(s, "true");
        return SG_OK;
    }
    if (v->type != YAML_SEQUENCE_NODE)
        return policy__err(c, v, "'%s' must be true, false or a list of rule ids", key);
    return policy__strv(c, v, key, &c->p->info.honor_suppressions, &c->p->info.n_honor_suppressions);
}

static sg_status policy__packs(policy__ctx *c, yaml_node_t *v, const char *key)
{
    sg_status st = policy__strv(c, v, key, &c->p->info.packs, &c->p->info.n_packs);
    if (st)
        return st;
    /* relative to the policy's directory */
    const char **packs = (const char **)c->p->info.packs;
    for (size_t i = 0; i < c->p->info.n_packs; i++)
        if (packs[i][0] != '/' && !(packs[i] = sg_arena_printf(c->p->arena, "%s/%s", c->p->info.dir, packs[i])))
            return SG_ERR_NOMEM;
    return SG_OK;
}

static sg_status policy__hosts(policy__ctx *c, yaml_node_t *v, const char *key)
{
    return policy__strv(c, v, key, &c->p->info.allow_hosts, &c->p->info.n_allow_hosts);
}

static sg_status policy__exclude(policy__ctx *c, yaml_node_t *v, const char *key)
{
    return policy__strv(c, v, key, &c->p->info.exclude, &c->p->info.n_exclude);
}

static sg_status policy__required(policy__ctx *c, yaml_node_t *v, const char *key)
{
    const char *const *names = NULL;
    size_t n = 0;
    sg_status st = policy__strv(c, v, key, &names, &n);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++) {
        int hit = -1;
        for (int s = 0; s < SG_PIPE_COUNT; s++)
            if (!strcmp(names[i], sg_pipe_stage_name((sg_pipe_stage)s)))
                hit = s;
        if (hit < 0)
            return policy__err(c, v, "'%s': unknown stage '%s' (expected static, golden or fuzz)", key, names[i]);
        c->p->info.required[hit] = true;
    }
    return SG_OK;
}

static sg_status policy__uint(policy__ctx *c, yaml_node_t *v, const char *key, unsigned long long min,
                              unsigned long long max, unsigned long long *ret)
{
    const char *s = policy__scalar(v);
    char *end = NULL;
    errno = 0;
    unsigned long long x = s && s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
    if (!s || !end || *end || errno || x < min || x > max)
        return policy__err(c, v, "'%s' must be an integer from %llu to %llu", key, min, max);
    *ret = x;
    return SG_OK;
}

static sg_status policy__max_bytes(policy__ctx *c, yaml_node_t *v, const char *key)
{
    const char *s = policy__scalar(v);
    uint64_t b = 0;
    if (!s || sg_size_parse(s, 1, &b) || b == 0 || b > (1ULL << 31))
        return policy__err(c, v, "'%s' must be a size from 1 byte to 2G (8388608, 512K, 8M)", key);
    c->p->info.max_bytes = b;
    return SG_OK;
}

static sg_status policy__max_depth(policy__ctx *c, yaml_node_t *v, const char *key)
{
    unsigned long long x = 0;
    sg_status st = policy__uint(c, v, key, 8, 100000, &x);
    if (!st)
        c->p->info.max_depth = (unsigned)x;
    return st;
}

/* A duration as the command line takes it ("10s", "500ms", a bare number of seconds), 1ms to
 * 3600s; `what` names it in the error. */
static sg_status policy__duration(policy__ctx *c, yaml_node_t *v, const char *key, const char *what, double *sec)
{
    if (sg_duration_parse(policy__scalar(v), sec) || *sec * 1000 < 1)
        return policy__err(c, v, "'%s' must be a %s from 1ms to 3600s (10s, 500ms, 2.5)", key, what);
    return SG_OK;
}

static sg_status policy__parse_cpu(policy__ctx *c, yaml_node_t *v, const char *key)
{
    double sec = 0;
    sg_status st = policy__duration(c, v, key, "CPU time", &sec);
    if (!st)
        c->p->info.parse_cpu_ms = (uint32_t)(sec * 1000 + 0.5);
    return st;
}

static sg_status policy__parse_steps(policy__ctx *c, yaml_node_t *v, const char *key)
{
    unsigned long long x = 0;
    sg_status st = policy__uint(c, v, key, 1000, 100000000000ULL, &x);
    if (!st)
        c->p->info.parse_steps = x;
    return st;
}

static sg_status policy__property_inputs(policy__ctx *c, yaml_node_t *v, const char *key)
{
    unsigned long long x = 0;
    sg_status st = policy__uint(c, v, key, 1, 100000, &x);
    if (!st)
        c->p->info.property_inputs = (unsigned)x;
    return st;
}

static sg_status policy__property_seconds(policy__ctx *c, yaml_node_t *v, const char *key)
{
    const char *s = policy__scalar(v);
    char *end = NULL;
    errno = 0;
    double x = s && s[0] >= '0' && s[0] <= '9' ? strtod(s, &end) : 0;
    if (!s || !end || *end || errno || !(x > 0) || x > 600)
        return policy__err(c, v, "'%s' must be a number of seconds, more than 0 and at most 600", key);
    c->p->info.property_seconds = x;
    return SG_OK;
}

/* The fuzz stage's budget (docs/fuzz.md): a duration as --fuzz takes it ("10s", "500ms", a bare
 * number of seconds) and a number of inputs as --fuzz-runs. */
static sg_status policy__fuzz_seconds(policy__ctx *c, yaml_node_t *v, const char *key)
{
    double sec = 0;
    sg_status st = policy__duration(c, v, key, "duration", &sec);
    if (!st)
        c->p->info.fuzz_seconds = sec;
    return st;
}

static sg_status policy__fuzz_runs(policy__ctx *c, yaml_node_t *v, const char *key)
{
    unsigned long long x = 0;
    sg_status st = policy__uint(c, v, key, 1, 1000000000ULL, &x);
    if (!st)
        c->p->info.fuzz_runs = x;
    return st;
}

static sg_status policy__rules(policy__ctx *c, yaml_node_t *v, const char *key)
{
    static const policy__key keys[] = {
        {"enable", policy__enable}, {"disable", policy__disable}, {"packs", policy__packs},
        {"honor_suppressions", policy__honor}, {NULL, NULL}};
    return policy__mapping(c, v, key, keys);
}

static sg_status policy__network(policy__ctx *c, yaml_node_t *v, const char *key)
{
    static const policy__key keys[] = {{"allow_hosts", policy__hosts}, {NULL, NULL}};
    return policy__mapping(c, v, key, keys);
}

static sg_status policy__stages(policy__ctx *c, yaml_node_t *v, const char *key)
{
    static const policy__key keys[] = {{"required", policy__required}, {NULL, NULL}};
    return policy__mapping(c, v, key, keys);
}

static sg_status policy__budgets(policy__ctx *c, yaml_node_t *v, const char *key)
{
    static const policy__key keys[] = {{"max_bytes", policy__max_bytes},
                                       {"max_depth", policy__max_depth},
                                       {"parse_cpu", policy__parse_cpu},
                                       {"parse_steps", policy__parse_steps},
                                       {"property_inputs", policy__property_inputs},
                                       {"property_seconds", policy__property_seconds},
                                       {"fuzz_seconds", policy__fuzz_seconds},
                                       {"fuzz_runs", policy__fuzz_runs},
                                       {NULL, NULL}};
    return policy__mapping(c, v, key, keys);
}

static const policy__key policy__top[] = {
    {"fail_on", policy__fail_on}, {"rules", policy__rules},     {"network", policy__network},
    {"stages", policy__stages},   {"budgets", policy__budgets}, {"exclude", policy__exclude},
    {NULL, NULL},
};

void sg_policy_free(sg_policy *p)
{
    if (!p)
        return;
    sg_arena_free(p->arena);
    free(p);
}

/* The directory of `path`, absolute when it can be resolved (arena). */
static char *policy__dir(sg_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? sg_arena_strndup(a, path, slash == path ? 1 : (size_t)(slash - path)) : sg_arena_strdup(a, ".");
    if (!dir)
        return NULL;
    char *abs = realpath(dir, NULL);
    if (!abs)
        return dir;
    char *r = sg_arena_strdup(a, abs);
    free(abs);
    return r;
}

/* A TOML policy: pyproject.toml, or any file named *.toml given with --config. */
static bool policy__is_toml(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".toml");
}

sg_status sg_policy_load_buffer(const char *path, const char *buf, size_t len, sg_policy **ret_policy, sg_diag *diag)
{
    if (!path || (!buf && len) || !ret_policy)
        return SG_ERR_INVALID_ARG;
    if (len > POLICY_MAX_BYTES)
        return sg_diag_set(diag, SG_ERR_TOO_LARGE, path, 0, 0, -1, 0, "policy file larger than %u bytes",
                           POLICY_MAX_BYTES);
    sg_policy *p = calloc(1, sizeof *p);
    if (!p || !(p->arena = sg_arena_new())) {
        free(p);
        return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
    }
    p->info.path = sg_arena_strdup(p->arena, path);
    p->info.dir = policy__dir(p->arena, path);
    if (!p->info.path || !p->info.dir) {
        sg_policy_free(p);
        return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
    }
    policy__ctx c = {.path = path, .diag = diag, .p = p};
    sg_status st;
    bool have_doc = false;
    if (policy__is_toml(path)) {
        /* pyproject.toml (or any .toml): its [tool.snipgate] table */
        c.typed = true;
        st = sg_policy_toml_document(path, buf, len, &c.doc, &have_doc, diag);
        if (st == SG_OK && !have_doc)
            st = sg_diag_set(diag, SG_ERR_POLICY, path, 0, 0, -1, 0,
                             "no [tool.snipgate] table in this TOML file (docs/policy.md)");
        if (st) {
            sg_policy_free(p);
            return st;
        }
    } else {
        yaml_parser_t parser;
        if (!yaml_parser_initialize(&parser)) {
            sg_policy_free(p);
            return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
        }
        yaml_parser_set_input_string(&parser, (const unsigned char *)(buf ? buf : ""), len);
        if (!yaml_parser_load(&parser, &c.doc)) {
            st = sg_diag_set(diag, SG_ERR_POLICY, path, (long)parser.problem_mark.line + 1,
                             (long)parser.problem_mark.column + 1, (long long)parser.problem_mark.index, 0,
                             "YAML error: %s%s%s", parser.problem ? parser.problem : "malformed",
                             parser.context ? " " : "", parser.context ? parser.context : "");
            yaml_parser_delete(&parser);
            sg_policy_free(p);
            return st;
        }
        yaml_parser_delete(&parser);
        have_doc = true;
    }
    yaml_node_t *root = yaml_document_get_root_node(&c.doc);
    /* an empty file (or only comments) is the default policy */
    st = root ? policy__mapping(&c, root, "policy", policy__top) : SG_OK;
    if (st == SG_OK && sg_arena_failed(p->arena))
        st = SG_ERR_NOMEM;
    if (have_doc)
        yaml_document_delete(&c.doc);
    if (st) {
        if (st == SG_ERR_NOMEM)
            sg_diag_set(diag, st, path, 0, 0, -1, 0, "out of memory");
        sg_policy_free(p);
        return st;
    }
    *ret_policy = p;
    return SG_OK;
}

sg_status sg_policy_load_file(const char *path, sg_policy **ret_policy, sg_diag *diag)
{
    if (!path || !ret_policy)
        return SG_ERR_INVALID_ARG;
    char *buf = NULL;
    size_t len = 0;
    sg_status st = sg_read_file(path, POLICY_MAX_BYTES, &buf, &len, diag);
    if (st)
        return st;
    st = sg_policy_load_buffer(path, buf, len, ret_policy, diag);
    free(buf);
    return st;
}

const sg_policy_info *sg_policy_get(const sg_policy *p)
{
    return p ? &p->info : NULL;
}

sg_status sg_policy_find(const char *start_dir, char **ret_path)
{
    if (!ret_path)
        return SG_ERR_INVALID_ARG;
    char *dir = realpath(start_dir ? start_dir : ".", NULL);
    if (!dir)
        return errno == ENOMEM ? SG_ERR_NOMEM : SG_ERR_IO;
    size_t cap = strlen(dir) + sizeof POLICY_PYPROJECT + 2;
    char *cand = malloc(cap);
    if (!cand) {
        free(dir);
        return SG_ERR_NOMEM;
    }
    for (;;) {
        snprintf(cand, cap, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", POLICY_NAME);
        if (access(cand, F_OK) == 0) {
            free(dir);
            *ret_path = cand;
            return SG_OK;
        }
        /* then pyproject.toml, when it has a [tool.snipgate] table (as Ruff and Bandit read
         * theirs); one that cannot be read is passed over like one without the table */
        snprintf(cand, cap, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", POLICY_PYPROJECT);
        char *text = NULL;
        size_t tlen = 0;
        if (access(cand, F_OK) == 0 && sg_read_file(cand, POLICY_MAX_BYTES, &text, &tlen, NULL) == SG_OK) {
            bool ours = sg_policy_toml_has_table(text, tlen);
            free(text);
            if (ours) {
                free(dir);
                *ret_path = cand;
                return SG_OK;
            }
        }
        char *slash = strrchr(dir, '/');
        if (!slash || !strcmp(dir, "/"))
            break;
        if (slash == dir)
            slash[1] = 0;
        else
            *slash = 0;
    }
    free(dir);
    free(cand);
    *ret_path = NULL;
    return SG_OK;
}

bool sg_policy_excludes(const sg_policy *p, const char *path)
{
    if (!p || !path || !p->info.n_exclude)
        return false;
    /* the path relative to the policy's directory, when it is under it */
    char *abs = NULL;
    char cwd[PATH_MAX];
    if (path[0] == '/') {
        abs = strdup(path);
    } else if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd) + strlen(path) + 2;
        if ((abs = malloc(n)))
            snprintf(abs, n, "%s/%s", cwd, path);
    }
    const char *rel = path;
    size_t dl = strlen(p->info.dir);
    if (abs && !strncmp(abs, p->info.dir, dl) && abs[dl] == '/')
        rel = abs + dl + 1;
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    bool hit = false;
    for (size_t i = 0; i < p->info.n_exclude && !hit; i++) {
        const char *g = p->info.exclude[i];
        if (strchr(g, '/')) {
            /* "dir/" excludes everything below dir */
            size_t gl = strlen(g);
            hit = fnmatch(g, rel, 0) == 0 || (g[gl - 1] == '/' && !strncmp(rel, g, gl));
        } else {
            /* any component's name */
            for (const char *s = rel; s && *s && !hit;) {
                const char *e = strchr(s, '/');
                char name[NAME_MAX + 1];
                size_t l = e ? (size_t)(e - s) : strlen(s);
                if (l <= NAME_MAX) {
                    memcpy(name, s, l);
                    name[l] = 0;
                    hit = fnmatch(g, name, 0) == 0;
                }
                s = e ? e + 1 : NULL;
            }
        }
    }
    free(abs);
    return hit;
}

sg_status sg_size_parse(const char *s, uint64_t default_unit, uint64_t *ret_bytes)
{
    uint64_t b;
    if (!s || !ret_bytes || sg_limits_parse_size(s, default_unit, &b) < 0)
        return SG_ERR_INVALID_ARG;
    *ret_bytes = b;
    return SG_OK;
}

sg_status sg_duration_parse(const char *s, double *ret_seconds)
{
    if (!s || !ret_seconds || !(s[0] >= '0' && s[0] <= '9'))
        return SG_ERR_INVALID_ARG;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v == v))
        return SG_ERR_INVALID_ARG;
    if (!strcmp(end, "ms"))
        v /= 1000;
    else if (*end && strcmp(end, "s"))
        return SG_ERR_INVALID_ARG;
    if (!(v > 0) || v > 3600)
        return SG_ERR_INVALID_ARG;
    *ret_seconds = v;
    return SG_OK;
}
