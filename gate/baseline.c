/*
 * Baselines: the findings of a previous JSON verdict, keyed by path, rule, the source line's text
 * and its rank among equal ones, so that a finding is recognised after the lines around it moved.
 * Ownership: a baseline owns its keys (one malloc'd array of strings).
 */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "report.h"

#define BASELINE_MAX_BYTES (256u << 20)

struct sg_baseline {
    char **keys; /* sorted */
    size_t n;
    char *root;  /* the directory paths are relative to (the repository's top level), or NULL:
                    the current directory */
};

static int baseline__cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One spelling of a path for matching: `./d.py`, `d.py`, `sub/../d.py` and `/abs/repo/d.py`
 * (the root being /abs/repo) are one file. The root is `root` (the repository's top level), or
 * the current directory when NULL; a relative `path` is relative to `base` (the root for a path
 * of the baseline file, which a verdict wrote relative to it; NULL: the current directory, for
 * the paths being checked). An existing file: its real path, made relative to the root when it
 * is below it; otherwise the text without `./` segments and repeated slashes. Written to buf
 * (size PATH_MAX). */
static const char *baseline__norm(const char *path, char *buf, const char *root, const char *base)
{
    char real[PATH_MAX], cwd[PATH_MAX], joined[PATH_MAX];
    const char *at = path;
    if (base && path[0] && path[0] != '/' && strcmp(path, "<stdin>")) {
        int w = snprintf(joined, sizeof joined, "%s/%s", base, path);
        if (w > 0 && (size_t)w < sizeof joined)
            at = joined;
    }
    if (path[0] && strcmp(path, "<stdin>") && realpath(at, real)) {
        size_t cl;
        const char *top = root ? root : getcwd(cwd, sizeof cwd);
        if (top && (cl = strlen(top)) && !strncmp(real, top, cl) && real[cl] == '/')
            snprintf(buf, PATH_MAX, "%s", real + cl + 1);
        else
            snprintf(buf, PATH_MAX, "%s", real);
        return buf;
    }
    size_t o = 0;
    for (const char *p = path; *p && o + 1 < PATH_MAX;) {
        if (p[0] == '.' && p[1] == '/' && (p == path || p[-1] == '/')) {
            p += 2;
            continue;
        }
        if (*p == '/' && o && buf[o - 1] == '/') {
            p++;
            continue;
        }
        buf[o++] = *p++;
    }
    buf[o] = 0;
    return buf;
}

/* "path\x1frule\x1fsnippet-trimmed\x1frank" (malloc'd), the path as baseline__norm spells it */
static char *baseline__key(const char *path_in, const char *rule, const char *snippet, unsigned rank,
                           const char *root, const char *base)
{
    char pbuf[PATH_MAX];
    const char *path = baseline__norm(path_in, pbuf, root, base);
    const char *s = snippet ? snippet : "";
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        len--;
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    size_t n = strlen(path) + strlen(rule) + len + 32;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%s\x1f%s\x1f%.*s\x1f%u", path, rule, (int)len, s, rank);
    return k;
}

void sg_baseline_free(sg_baseline *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->keys[i]);
    free(b->keys);
    free(b->root);
    free(b);
}

sg_status sg_baseline_load_file(const char *path, sg_baseline **ret, sg_diag *diag)
{
    return sg_baseline_load_file_at(path, NULL, ret, diag);
}

sg_status sg_baseline_load_file_at(const char *path, const char *root, sg_baseline **ret, sg_diag *diag)
{
    if (!path || !ret || (root && root[0] != '/'))
        return SG_ERR_INVALID_ARG;
    char *buf = NULL;
    size_t len = 0;
    sg_status st = sg_read_file(path, BASELINE_MAX_BYTES, &buf, &len, diag);
    if (st)
        return st;
    json_error_t je;
    bool nomem;
    json_t *doc = sg_json_loadb_guarded(buf, len, 0, &je, &nomem);
    free(buf);
    if (nomem)
        return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory reading the baseline");
    json_t *files = doc ? json_object_get(doc, "files") : NULL;
    if (!doc || !json_is_array(files)) {
        json_decref(doc);
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, path, doc ? 0 : je.line, doc ? 0 : je.column, -1, 0,
                           "not a snipgate JSON verdict (%s)", doc ? "no \"files\" array" : je.text);
    }
    sg_baseline *b = calloc(1, sizeof *b);
    size_t cap = 0;
    st = b ? SG_OK : SG_ERR_NOMEM;
    if (b && root && !(b->root = realpath(root, NULL)) && !(b->root = strdup(root)))
        st = SG_ERR_NOMEM;
    size_t fi;
    json_t *f;
    json_array_foreach(files, fi, f)
    {
        const char *fp = json_string_value(json_object_get(f, "path"));
        json_t *fs = json_object_get(f, "findings");
        if (st || !fp || !json_is_array(fs))
            continue;
        size_t xi;
        json_t *x;
        json_array_foreach(fs, xi, x)
        {
            const char *rule = json_string_value(json_object_get(x, "rule_id"));
            const char *snip = json_string_value(json_object_get(x, "snippet"));
            if (st || !rule)
                continue;
            /* rank among the equal findings before it in this file */
            unsigned rank = 0;
            for (size_t k = 0; k < xi; k++) {
                json_t *y = json_array_get(fs, k);
                const char *r2 = json_string_value(json_object_get(y, "rule_id"));
                const char *s2 = json_string_value(json_object_get(y, "snippet"));
                rank += r2 && !strcmp(r2, rule) && !strcmp(s2 ? s2 : "", snip ? snip : "");
            }
            if (b->n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                char **p = realloc(b->keys, nc * sizeof *p);
                if (!p) {
                    st = SG_ERR_NOMEM;
                    continue;
                }
                b->keys = p;
                cap = nc;
            }
            if (!(b->keys[b->n] = baseline__key(fp, rule, snip, rank, b->root, b->root)))
                st = SG_ERR_NOMEM;
            else
                b->n++;
        }
    }
    json_decref(doc);
    if (st) {
        sg_baseline_free(b);
        return sg_diag_set(diag, st, path, 0, 0, -1, 0, "out of memory");
    }
    if (b->n)
        qsort(b->keys, b->n, sizeof *b->keys, baseline__cmp);
    *ret = b;
    return SG_OK;
}

sg_status sg_baseline_apply(const sg_baseline *b, sg_report *r, size_t *ret_matched)
{
    if (!b || !r)
        return SG_ERR_INVALID_ARG;
    size_t matched = 0;
    for (size_t i = 0; i < r->findings.len; i++) {
        sg_finding *f = &r->findings.items[i];
        unsigned rank = 0;
        for (size_t k = 0; k < i; k++)
            rank += !strcmp(r->findings.items[k].rule_id, f->rule_id) &&
                    !strcmp(r->findings.items[k].snippet, f->snippet);
        char *key = baseline__key(r->path, f->rule_id, f->snippet, rank, b->root, NULL);
        if (!key)
            return SG_ERR_NOMEM;
        if (b->n && bsearch(&key, b->keys, b->n, sizeof *b->keys, baseline__cmp)) {
            f->baseline = true;
            f->blocking = false;
            matched++;
        }
        free(key);
    }
    if (ret_matched)
        *ret_matched = matched;
    return SG_OK;
}
