/*
 * The samples file of `snipgate eval` (golden.h, sg_golden_samples_load_buffer): HumanEval's
 * samples format, one JSON object per line with `task_id` and `completion`. A bad line is recorded
 * with its reason and never stops the others; only running out of memory fails the load.
 *
 * Trust: the bytes are untrusted (a model's output, collected by some harness). Every string kept
 * is copied; the suite is only read.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "snipgate/snipgate.h"

struct sg_golden_samples {
    SG_ARRAY(sg_golden_sample) items;
};

static void samples__clear(sg_golden_sample *s)
{
    free((char *)s->id);
    free((char *)s->completion);
    free((char *)s->error);
}

void sg_golden_samples_free(sg_golden_samples *samples)
{
    if (!samples)
        return;
    for (size_t i = 0; i < samples->items.len; i++)
        samples__clear(&samples->items.items[i]);
    sg_array_free(&samples->items);
    free(samples);
}

size_t sg_golden_samples_count(const sg_golden_samples *samples)
{
    return samples ? samples->items.len : 0;
}

const sg_golden_sample *sg_golden_samples_get(const sg_golden_samples *samples, size_t index)
{
    return samples ? sg_array_at(&samples->items, index) : NULL;
}

static char *samples__printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *samples__printf(const char *fmt, ...)
{
    char buf[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

/* Parse one line into `s` (its error field says what is wrong with a bad line). -1: out of memory. */
static int samples__parse_line(const sg_golden_suite *suite, sg_golden_sample *s, const char *text, size_t len)
{
    json_error_t je;
    bool nomem;
    json_t *j = sg_json_loadb_guarded(text, len, JSON_REJECT_DUPLICATES, &je, &nomem);
    if (!j && nomem)
        return -1;
    if (!j) {
        s->error = samples__printf("invalid JSON: %s (column %ld)", je.text, (long)je.column);
        return s->error ? 0 : -1;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        s->error = strdup("a sample must be a JSON object with task_id and completion");
        return s->error ? 0 : -1;
    }
    json_t *id = json_object_get(j, "task_id"), *comp = json_object_get(j, "completion");
    char idbuf[32];
    const char *idtext = NULL;
    if (json_is_string(id)) {
        idtext = json_string_value(id);
    } else if (json_is_integer(id)) {
        s->id_is_integer = true;
        s->id_integer = (long long)json_integer_value(id);
        snprintf(idbuf, sizeof idbuf, "%lld", s->id_integer);
        idtext = idbuf;
    }
    if (idtext && !(s->id = strdup(idtext))) {
        json_decref(j);
        return -1;
    }
    if (!id)
        s->error = strdup("missing field task_id");
    else if (!idtext)
        s->error = strdup("task_id must be a string or an integer");
    else if (!comp)
        s->error = strdup("missing field completion");
    else if (!json_is_string(comp))
        s->error = strdup("completion must be a string");
    else if (memchr(json_string_value(comp), 0, json_string_length(comp)))
        s->error = strdup("completion holds a NUL character");
    else if (!(s->task = sg_golden_suite_find(suite, idtext)))
        s->error = samples__printf("unknown task_id \"%.200s\" (not in the suite)", idtext);
    else if (!(s->completion = strdup(json_string_value(comp))))
        s->error = NULL;
    json_decref(j);
    if (!s->error && !s->completion)
        return -1;
    return 0;
}

sg_status sg_golden_samples_load_buffer(const sg_golden_suite *suite, const char *buf, size_t len,
                                        sg_golden_samples **ret, sg_diag *diag)
{
    if (!suite || (!buf && len) || !ret)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0, "NULL argument");
    sg_golden_samples *out = calloc(1, sizeof *out);
    size_t *count = NULL;
    if (!out)
        goto out_nomem;
    /* lines ("\n", an optional "\r" before it); blank lines are skipped, not numbered away */
    long line = 0;
    for (size_t pos = 0; pos < len;) {
        line++;
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        const char *text = buf + pos;
        size_t tlen = end - pos;
        pos = nl ? end + 1 : len;
        if (tlen && text[tlen - 1] == '\r')
            tlen--;
        size_t k = 0;
        while (k < tlen && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (k == tlen)
            continue;
        sg_golden_sample s = {.line = line};
        if (samples__parse_line(suite, &s, text, tlen) < 0 || sg_array_push(&out->items, s, 0)) {
            samples__clear(&s);
            goto out_nomem;
        }
    }
    /* the index of each sample among its task's, and the task's index in the suite */
    size_t ntasks = sg_golden_suite_count(suite);
    count = calloc(ntasks ? ntasks : 1, sizeof *count);
    if (!count)
        goto out_nomem;
    for (size_t i = 0; i < out->items.len; i++) {
        sg_golden_sample *s = &out->items.items[i];
        if (s->error)
            continue;
        for (size_t t = 0; t < ntasks; t++)
            if (sg_golden_suite_task(suite, t) == s->task) {
                s->task_index = t;
                break;
            }
        s->sample = count[s->task_index]++;
    }
    free(count);
    *ret = out;
    return SG_OK;
out_nomem:
    sg_golden_samples_free(out);
    return sg_diag_set(diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
}
