/*
 * libFuzzer harness: the verdict renderers (gate/render.c) on reports built from fuzzed input.
 *
 * Input: "PATH\nTASK\nREASON\nDOCUMENT". The document goes through the checker (default rules) under
 * the fuzzed path (arbitrary bytes: file names need not be UTF-8), giving real findings with
 * fuzzed snippets, or an error report (NUL byte, bad UTF-8, empty). A non-empty TASK attaches a
 * golden stage that could not start (sg_report_golden_error) with the fuzzed label and reason;
 * an empty report for the same path is rendered alongside. (A golden result with case records
 * needs a sandbox run and is not built here.)
 *
 * Every format is rendered to memory; abort() (so libFuzzer reports it) when rendering fails, when
 * the JSON or SARIF output does not parse as JSON (jansson json_loadb), when the JSON verdict
 * disagrees with sg_reports_blocked, or when SARIF lacks a required field: version "2.1.0",
 * runs[].tool.driver.name, results[].ruleId naming rules[ruleIndex], results[].message.text,
 * and locations whose region has startLine >= 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "snipgate/snipgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sg_rules *fuzz__rules;
static sg_checker *fuzz__checker;
static size_t fuzz__size; /* of the current input: picks render options */

static void fuzz__init(void)
{
    sg_options o;
    sg_options_init(&o);
    o.parse_steps = 4000000; /* small inputs: a few MB of work at most per input */
    o.honor_suppressions = true;
    if (sg_rules_new_default(&fuzz__rules) || sg_checker_new(fuzz__rules, &o, &fuzz__checker))
        abort();
}

/* The next "\n"-terminated field of the input as a C string (cut at a NUL), or "" at the end. */
static char *fuzz__field(const char **p, const char *end)
{
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *stop = nl ? nl : end;
    size_t n = (size_t)(stop - *p);
    const char *nul = memchr(*p, 0, n);
    size_t k = nul ? (size_t)(nul - *p) : n;
    char *s = malloc(k + 1); /* not strndup: ASan's strict_string_checks reads past an unterminated end */
    if (!s)
        abort();
    memcpy(s, *p, k);
    s[k] = '\0';
    *p = nl ? nl + 1 : end;
    return s;
}

static char *fuzz__render(sg_format fmt, sg_report *const *reps, size_t n, size_t *ret_len)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    /* with the rule set (SARIF lists every rule: slow) for inputs of odd length; without it SARIF
     * lists only the rules the findings name */
    sg_render_opts ro = {.rules = (fuzz__size & 1) ? fuzz__rules : NULL, .fail_on = SG_SEV_MEDIUM,
                         .color = (fuzz__size & 2) != 0};
    if (sg_render(f, fmt, reps, n, &ro) != SG_OK)
        abort(); /* rendering a valid report failed */
    if (fclose(f))
        abort();
    *ret_len = len;
    return buf;
}

static json_t *fuzz__parse(const char *buf, size_t len)
{
    json_error_t je;
    json_t *j = json_loadb(buf, len, 0, &je);
    if (!j || !json_is_object(j))
        abort(); /* the output is not one JSON object */
    return j;
}

static bool fuzz__is_str(json_t *j)
{
    return json_is_string(j) && json_string_length(j) == strlen(json_string_value(j));
}

static void fuzz__check_location(json_t *loc)
{
    json_t *pl = json_object_get(loc, "physicalLocation");
    if (!json_is_object(pl) || !fuzz__is_str(json_object_get(json_object_get(pl, "artifactLocation"), "uri")))
        abort();
    json_t *region = json_object_get(pl, "region");
    if (!region)
        return;
    json_t *sl = json_object_get(region, "startLine"), *sc = json_object_get(region, "startColumn"),
           *el = json_object_get(region, "endLine");
    if (!json_is_integer(sl) || json_integer_value(sl) < 1 || (sc && (!json_is_integer(sc) || json_integer_value(sc) < 1)) ||
        (el && (!json_is_integer(el) || json_integer_value(el) < json_integer_value(sl))))
        abort();
}

static void fuzz__check_sarif(json_t *doc)
{
    json_t *runs = json_object_get(doc, "runs");
    const char *version = json_string_value(json_object_get(doc, "version"));
    if (!version || strcmp(version, "2.1.0") || !json_is_array(runs) ||
        !json_array_size(runs))
        abort();
    size_t i, k;
    json_t *run, *res, *loc;
    json_array_foreach(runs, i, run) {
        json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
        json_t *rules = json_object_get(driver, "rules"), *results = json_object_get(run, "results");
        if (!fuzz__is_str(json_object_get(driver, "name")) || !json_is_array(rules) || !json_is_array(results))
            abort();
        json_array_foreach(results, k, res) {
            json_t *id = json_object_get(res, "ruleId"), *ix = json_object_get(res, "ruleIndex");
            if (!fuzz__is_str(id) || !fuzz__is_str(json_object_get(json_object_get(res, "message"), "text")))
                abort();
            if (ix) {
                json_t *rule = json_array_get(rules, (size_t)json_integer_value(ix));
                if (!json_is_integer(ix) || !rule || !json_equal(json_object_get(rule, "id"), id))
                    abort(); /* ruleIndex does not name the rule ruleId names */
            }
            json_t *locs = json_object_get(res, "locations");
            size_t m;
            if (locs && !json_is_array(locs))
                abort();
            json_array_foreach(locs, m, loc) fuzz__check_location(loc);
        }
        /* tool execution notifications (an input that could not be checked) have locations too */
        json_t *notes = json_object_get(json_array_get(json_object_get(run, "invocations"), 0),
                                        "toolExecutionNotifications");
        json_t *note;
        json_array_foreach(notes, k, note) {
            json_t *locs = json_object_get(note, "locations");
            size_t m;
            if (!fuzz__is_str(json_object_get(json_object_get(note, "message"), "text")))
                abort();
            json_array_foreach(locs, m, loc) fuzz__check_location(loc);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz__rules)
        fuzz__init();
    fuzz__size = size;
    const char *p = (const char *)data, *end = p + size;
    char *path = fuzz__field(&p, end), *task = fuzz__field(&p, end), *reason = fuzz__field(&p, end);

    sg_report *reps[2] = {NULL, NULL};
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_checker_check(fuzz__checker, path, p, (size_t)(end - p), &reps[0], &d);
    if (st == SG_ERR_INTERNAL || st == SG_ERR_NOMEM || st == SG_ERR_INVALID_ARG)
        abort(); /* the gate itself failed */
    if (st != SG_OK && sg_report_new_error(path, &d, &reps[0]) != SG_OK)
        abort();
    if (task[0] && sg_report_golden_error(reps[0], task, reason) != SG_OK)
        abort();
    if (sg_report_new_empty(path, &reps[1]) != SG_OK)
        abort();
    bool blocked = sg_reports_blocked(reps, 2);

    size_t len;
    char *out = fuzz__render(SG_FORMAT_TEXT, reps, 2, &len);
    free(out);

    out = fuzz__render(SG_FORMAT_JSON, reps, 2, &len);
    json_t *j = fuzz__parse(out, len);
    const char *verdict = json_string_value(json_object_get(j, "verdict"));
    json_t *files = json_object_get(j, "files");
    if (!verdict || strcmp(verdict, blocked ? "block" : "pass") || json_array_size(files) != 2 ||
        !fuzz__is_str(json_object_get(json_array_get(files, 0), "path")))
        abort();
    json_decref(j);
    free(out);

    out = fuzz__render(SG_FORMAT_SARIF, reps, 2, &len);
    j = fuzz__parse(out, len);
    fuzz__check_sarif(j);
    json_decref(j);
    free(out);

    sg_report_free(reps[0]);
    sg_report_free(reps[1]);
    free(path);
    free(task);
    free(reason);
    return 0;
}
