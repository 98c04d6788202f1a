/* Task files: the JSONL loader for every task format of docs/tasks.md, and the built-in suite. */
#include "golden_tasks/task.h"

#include "golden_tasks/evalplus.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sg_golden_suite {
    SG_ARRAY(sg_golden_task) tasks;
};

static const char *const task__prop_names[] = {"no_raise",    "returns_type", "idempotent",  "sorted_permutation",
                                               "roundtrip",   "no_mutation",  "differential"};

const char *sg_golden_prop_name(sg_golden_prop_kind kind)
{
    return (unsigned)kind < 7 ? task__prop_names[kind] : "?";
}

/* ---- freeing ------------------------------------------------------------------------------ */

static void task__strv_free(char **v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(v[k]);
    free(v);
}

static void task__free(sg_golden_task *t)
{
    free(t->task_id);
    free(t->prompt);
    free(t->entry_point);
    free(t->canonical_solution);
    free(t->test);
    free(t->text);
    free(t->code);
    free(t->test_setup_code);
    free(t->contract);
    free(t->assertion);
    free(t->source_file);
    task__strv_free(t->test_list, t->ntest_list);
    task__strv_free(t->challenge_test_list, t->nchallenge);
    task__strv_free(t->test_imports, t->ntest_imports);
    for (size_t k = 0; k < t->ncases; k++) {
        sg_golden_case *c = &t->cases[k];
        sg_value_free(c->args);
        sg_value_free(c->kwargs);
        sg_value_free(c->expected);
        free(c->raises);
        free(c->name);
    }
    free(t->cases);
    for (size_t k = 0; k < t->nsig_args; k++)
        sg_type_free(t->sig_args[k]);
    free(t->sig_args);
    sg_type_free(t->sig_returns);
    task__strv_free(t->sig_kwnames, t->nsig_kw);
    for (size_t k = 0; k < t->nsig_kw; k++)
        sg_type_free(t->sig_kwtypes[k]);
    free(t->sig_kwtypes);
    for (size_t k = 0; k < t->nprops; k++) {
        sg_golden_property *p = &t->props[k];
        task__strv_free(p->except, p->nexcept);
        sg_type_free(p->type);
        free(p->inverse);
        free(p->args);
    }
    free(t->props);
    for (size_t k = 0; k < t->nfuzz_seeds; k++)
        sg_value_free(t->fuzz_seeds[k]);
    free(t->fuzz_seeds);
    for (size_t k = 0; k < t->neff_inputs; k++)
        sg_value_free(t->eff_inputs[k]);
    free(t->eff_inputs);
    task__strv_free(t->tags, t->ntags);
    task__strv_free(t->targets, t->ntargets);
    free(t->test_list_lines);
    memset(t, 0, sizeof *t);
}

void sg_golden_task_clear(sg_golden_task *task)
{
    if (task)
        task__free(task);
}

sg_status sg_golden_suite_adopt(sg_golden_task *task, sg_golden_suite **ret)
{
    sg_golden_suite *s = calloc(1, sizeof *s);
    if (!s || sg_array_push(&s->tasks, *task, 1) < 0) {
        free(s);
        task__free(task);
        return SG_ERR_NOMEM;
    }
    memset(task, 0, sizeof *task);
    *ret = s;
    return SG_OK;
}

void sg_golden_suite_free(sg_golden_suite *suite)
{
    if (!suite)
        return;
    for (size_t k = 0; k < suite->tasks.len; k++)
        task__free(&suite->tasks.items[k]);
    sg_array_free(&suite->tasks);
    free(suite);
}

size_t sg_golden_suite_count(const sg_golden_suite *suite)
{
    return suite ? suite->tasks.len : 0;
}

const sg_golden_task *sg_golden_suite_task(const sg_golden_suite *suite, size_t index)
{
    return suite ? sg_array_at(&suite->tasks, index) : NULL;
}

const sg_golden_task *sg_golden_suite_find(const sg_golden_suite *suite, const char *id)
{
    for (size_t k = 0; suite && id && k < suite->tasks.len; k++)
        if (!strcmp(suite->tasks.items[k].task_id, id))
            return &suite->tasks.items[k];
    return NULL;
}

/* ---- field readers ------------------------------------------------------------------------ */

typedef struct task__ctx {
    const char *file;
    long line;
    sg_diag *diag;
} task__ctx;

static sg_status task__err(task__ctx *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static sg_status task__err(task__ctx *c, const char *field, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sg_diag_set(c->diag, SG_ERR_INVALID_ARG, c->file, c->line, 0, -1, 0, "%s:%ld: %s: %s", c->file,
                       c->line, field, msg);
}

/* Re-prefix a value decoder's message ("path: reason") with the file and line. */
static sg_status task__value_err(task__ctx *c, sg_status st)
{
    if (st == SG_ERR_NOMEM || !c->diag)
        return st;
    char msg[sizeof c->diag->message];
    snprintf(msg, sizeof msg, "%s", c->diag->message);
    return sg_diag_set(c->diag, st, c->file, c->line, 0, -1, 0, "%s:%ld: %s", c->file, c->line, msg);
}

static bool task__is_ident(const char *s, bool dotted)
{
    if (!s || !*s)
        return false;
    bool start = true;
    for (; *s; s++) {
        char ch = *s;
        if (ch == '.' && dotted && !start) {
            start = true;
            continue;
        }
        bool alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (unsigned char)ch >= 0x80;
        if (!(alpha || (!start && ch >= '0' && ch <= '9')))
            return false;
        start = false;
    }
    return !start;
}

static sg_status task__str(task__ctx *c, json_t *j, const char *field, char **out)
{
    if (!json_is_string(j))
        return task__err(c, field, "must be a string");
    if (strlen(json_string_value(j)) != json_string_length(j))
        return task__err(c, field, "holds a NUL character");
    *out = strdup(json_string_value(j));
    return *out ? SG_OK : SG_ERR_NOMEM;
}

static sg_status task__strv(task__ctx *c, json_t *j, const char *field, char ***out, size_t *n)
{
    if (!json_is_array(j))
        return task__err(c, field, "must be an array of strings");
    *out = calloc(json_array_size(j) + 1, sizeof **out);
    if (!*out)
        return SG_ERR_NOMEM;
    size_t k;
    json_t *x;
    json_array_foreach(j, k, x)
    {
        char sub[128];
        snprintf(sub, sizeof sub, "%s[%zu]", field, k);
        sg_status st = task__str(c, x, sub, &(*out)[k]);
        if (st != SG_OK)
            return st;
        (*n)++;
    }
    return SG_OK;
}

static sg_status task__num(task__ctx *c, json_t *j, const char *field, double lo, double hi, bool lo_open,
                           double *out)
{
    if (!json_is_number(j))
        return task__err(c, field, "must be a number");
    double v = json_number_value(j);
    if (!isfinite(v) || v < lo || v > hi || (lo_open && v == lo))
        return task__err(c, field, "out of range");
    *out = v;
    return SG_OK;
}

static sg_status task__uint(task__ctx *c, json_t *j, const char *field, json_int_t lo, json_int_t hi,
                            json_int_t *out)
{
    if (!json_is_integer(j))
        return task__err(c, field, "must be an integer");
    json_int_t v = json_integer_value(j);
    if (v < lo || v > hi)
        return task__err(c, field, "out of range (%lld..%lld)", (long long)lo, (long long)hi);
    *out = v;
    return SG_OK;
}

static sg_status task__type(task__ctx *c, json_t *j, const char *field, sg_type **out)
{
    if (!json_is_string(j))
        return task__err(c, field, "must be a type string");
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_type_parse(json_string_value(j), out, &d);
    if (st == SG_ERR_NOMEM)
        return st;
    if (st != SG_OK)
        return task__err(c, field, "%s", d.message);
    return SG_OK;
}

/* ---- cases -------------------------------------------------------------------------------- */

static sg_status task__case(task__ctx *c, json_t *j, const char *field, sg_golden_case *cs)
{
    if (!json_is_object(j))
        return task__err(c, field, "must be an object");
    const char *key;
    json_t *x;
    char sub[160];
    sg_status st = SG_OK;
    json_object_foreach(j, key, x)
    {
        snprintf(sub, sizeof sub, "%s.%.40s", field, key);
        if (!strcmp(key, "args")) {
            if (!json_is_array(x))
                return task__err(c, sub, "must be an array");
            st = sg_value_from_json(x, sub, &cs->args, c->diag);
        } else if (!strcmp(key, "kwargs")) {
            if (!json_is_object(x))
                return task__err(c, sub, "must be an object");
            const char *kn;
            json_t *kv;
            cs->kwargs = sg_value_new(SG_VAL_DICT);
            if (!cs->kwargs)
                return SG_ERR_NOMEM;
            json_object_foreach(x, kn, kv)
            {
                char kp[240];
                snprintf(kp, sizeof kp, "%s.%.40s", sub, kn);
                if (!task__is_ident(kn, false))
                    return task__err(c, kp, "not a Python identifier");
                sg_value *v = NULL;
                if ((st = sg_value_from_json(kv, kp, &v, c->diag)) != SG_OK)
                    return task__value_err(c, st);
                if (sg_value_push(cs->kwargs, sg_value_new_str(SG_VAL_STR, kn, strlen(kn))) < 0 ||
                    sg_value_push(cs->kwargs, v) < 0)
                    return SG_ERR_NOMEM;
            }
        } else if (!strcmp(key, "expected")) {
            st = sg_value_from_json(x, sub, &cs->expected, c->diag);
        } else if (!strcmp(key, "raises")) {
            if ((st = task__str(c, x, sub, &cs->raises)) == SG_OK && !task__is_ident(cs->raises, true))
                return task__err(c, sub, "not an exception class name");
        } else if (!strcmp(key, "atol")) {
            cs->has_atol = true;
            st = task__num(c, x, sub, 0, 1e300, false, &cs->atol);
        } else if (!strcmp(key, "rtol")) {
            cs->has_rtol = true;
            st = task__num(c, x, sub, 0, 1e300, false, &cs->rtol);
        } else if (!strcmp(key, "name")) {
            st = task__str(c, x, sub, &cs->name);
        } else {
            return task__err(c, sub, "unknown field");
        }
        if (st != SG_OK)
            return task__value_err(c, st);
    }
    if (!!cs->expected + !!cs->raises != 1 && !json_object_get(j, "expected"))
        return task__err(c, field, "exactly one of expected or raises is required");
    if (json_object_get(j, "expected") && json_object_get(j, "raises"))
        return task__err(c, field, "exactly one of expected or raises is required");
    if (!cs->args && !(cs->args = sg_value_new(SG_VAL_LIST)))
        return SG_ERR_NOMEM;
    if (!cs->kwargs && !(cs->kwargs = sg_value_new(SG_VAL_DICT)))
        return SG_ERR_NOMEM;
    return SG_OK;
}

/* ---- properties --------------------------------------------------------------------------- */

static sg_status task__property(task__ctx *c, json_t *j, const char *field, sg_golden_property *p)
{
    if (!json_is_object(j))
        return task__err(c, field, "must be an object");
    json_t *name = json_object_get(j, "name");
    if (!json_is_string(name))
        return task__err(c, field, "name is required");
    int kind = -1;
    for (int k = 0; k < 7; k++)
        if (!strcmp(json_string_value(name), task__prop_names[k]))
            kind = k;
    if (kind < 0)
        return task__err(c, field, "unknown property \"%.60s\"", json_string_value(name));
    p->kind = (sg_golden_prop_kind)kind;
    static const char *const allowed[7] = {"except", "type", "arg", "arg reverse", "inverse arg", "args",
                                           "atol rtol same_exceptions"};
    const char *key;
    json_t *x;
    char sub[160];
    json_object_foreach(j, key, x)
    {
        if (!strcmp(key, "name"))
            continue;
        snprintf(sub, sizeof sub, "%s.%.40s", field, key);
        /* the key must be one of this property's parameter names */
        const char *a = allowed[kind];
        size_t kl = strlen(key);
        bool ok = false;
        for (const char *q = a; (q = strstr(q, key)); q += kl)
            if ((q == a || q[-1] == ' ') && (q[kl] == 0 || q[kl] == ' '))
                ok = true;
        if (!ok)
            return task__err(c, sub, "not a parameter of %s", task__prop_names[kind]);
        sg_status st = SG_OK;
        json_int_t iv = 0;
        if (!strcmp(key, "except")) {
            st = task__strv(c, x, sub, &p->except, &p->nexcept);
        } else if (!strcmp(key, "type")) {
            st = task__type(c, x, sub, &p->type);
        } else if (!strcmp(key, "arg")) {
            if ((st = task__uint(c, x, sub, 0, 255, &iv)) == SG_OK)
                p->arg = (unsigned)iv;
        } else if (!strcmp(key, "reverse") || !strcmp(key, "same_exceptions")) {
            if (!json_is_boolean(x))
                return task__err(c, sub, "must be a boolean");
            *(key[0] == 'r' ? &p->reverse : &p->same_exceptions) = json_is_true(x);
        } else if (!strcmp(key, "inverse")) {
            if ((st = task__str(c, x, sub, &p->inverse)) == SG_OK && !task__is_ident(p->inverse, true))
                return task__err(c, sub, "not a function name");
        } else if (!strcmp(key, "args")) {
            if (!json_is_array(x))
                return task__err(c, sub, "must be an array of indices");
            p->has_args = true;
            p->args = calloc(json_array_size(x) + 1, sizeof *p->args);
            if (!p->args)
                return SG_ERR_NOMEM;
            size_t k;
            json_t *e;
            json_array_foreach(x, k, e)
            {
                if ((st = task__uint(c, e, sub, 0, 255, &iv)) != SG_OK)
                    return st;
                p->args[p->nargs++] = (unsigned)iv;
            }
        } else if (!strcmp(key, "atol")) {
            p->has_atol = true;
            st = task__num(c, x, sub, 0, 1e300, false, &p->atol);
        } else if (!strcmp(key, "rtol")) {
            p->has_rtol = true;
            st = task__num(c, x, sub, 0, 1e300, false, &p->rtol);
        }
        if (st != SG_OK)
            return st;
    }
    if (p->kind == SG_PROP_ROUNDTRIP && !p->inverse)
        return task__err(c, field, "roundtrip needs inverse");
    return SG_OK;
}

/* ---- EvalPlus plain inputs ---------------------------------------------------------------- */

/* A marker string standing for a non-JSON token (NaN, Infinity, a huge integer) that the line
 * rewriter replaced; see task__rewrite. It starts with a NUL, which no task text may hold. */
#define TASK_MARK "\\u0000sg:"
#define TASK_MARK_RAW "\0sg:"
#define TASK_MARK_LEN 4

/* Whether the `len`-byte line has the literal `lit` at offset k (the line is a slice of the caller's
 * buffer, not terminated: strncmp could read past its end; found by fuzz_suite). */
static bool task__at(const char *s, size_t len, size_t k, const char *lit)
{
    size_t n = strlen(lit);
    return n <= len - k && !memcmp(s + k, lit, n);
}

/* Replace the non-JSON tokens Python's json module accepts (NaN, Infinity, -Infinity) and
 * integer literals too large for jansson, outside strings, with marker strings. Returns a new
 * buffer (or NULL: nothing to replace / out of memory, see *nomem). */
static char *task__rewrite(const char *s, size_t len, size_t *ret_len, bool *nomem)
{
    *nomem = false;
    bool need = false;
    bool in_str = false;
    for (size_t k = 0; k < len && !need; k++) {
        char ch = s[k];
        if (in_str) {
            if (ch == '\\')
                k++;
            else if (ch == '"')
                in_str = false;
        } else if (ch == '"')
            in_str = true;
        else if (ch == 'N' || ch == 'I')
            need = true;
        else if (ch >= '0' && ch <= '9') {
            size_t e = k;
            while (e < len && s[e] >= '0' && s[e] <= '9')
                e++;
            if (e - k >= 19 && !(e < len && (s[e] == '.' || s[e] == 'e' || s[e] == 'E')) &&
                !(k > 0 && (s[k - 1] == '.' || s[k - 1] == 'e' || s[k - 1] == 'E' || s[k - 1] == '+' ||
                            (s[k - 1] == '-' && k > 1 && (s[k - 2] == 'e' || s[k - 2] == 'E')))))
                need = true;
            k = e - 1;
        }
    }
    if (!need)
        return NULL;
    sg_buf b;
    sg_buf_init(&b, SG_GOLDEN_MAX_LINE * 2);
    in_str = false;
    for (size_t k = 0; k < len; k++) {
        char ch = s[k];
        if (in_str) {
            if (ch == '\\' && k + 1 < len) {
                sg_buf_append(&b, s + k, 2);
                k++;
                continue;
            }
            if (ch == '"')
                in_str = false;
            sg_buf_append(&b, &ch, 1);
            continue;
        }
        if (ch == '"') {
            in_str = true;
            sg_buf_append(&b, &ch, 1);
        } else if (task__at(s, len, k, "NaN")) {
            sg_buf_puts(&b, "\"" TASK_MARK "nan\"");
            k += 2;
        } else if (task__at(s, len, k, "-Infinity")) {
            sg_buf_puts(&b, "\"" TASK_MARK "-inf\"");
            k += 8;
        } else if (task__at(s, len, k, "Infinity")) {
            sg_buf_puts(&b, "\"" TASK_MARK "inf\"");
            k += 7;
        } else if ((ch >= '0' && ch <= '9') || (ch == '-' && k + 1 < len && s[k + 1] >= '0' && s[k + 1] <= '9')) {
            size_t e = k + (ch == '-');
            while (e < len && s[e] >= '0' && s[e] <= '9')
                e++;
            size_t int_end = e;
            if (e < len && s[e] == '.')
                for (e++; e < len && s[e] >= '0' && s[e] <= '9'; e++)
                    ;
            if (e < len && (s[e] == 'e' || s[e] == 'E')) {
                e++;
                if (e < len && (s[e] == '+' || s[e] == '-'))
                    e++;
                while (e < len && s[e] >= '0' && s[e] <= '9')
                    e++;
            }
            bool is_float = e != int_end;
            if (!is_float && e - k - (ch == '-') >= 19) {
                sg_buf_puts(&b, "\"" TASK_MARK "int:");
                sg_buf_append(&b, s + k, e - k);
                sg_buf_puts(&b, "\"");
            } else {
                sg_buf_append(&b, s + k, e - k);
            }
            k = e - 1;
        } else {
            sg_buf_append(&b, &ch, 1);
        }
    }
    if (b.failed || b.truncated) {
        *nomem = b.failed;
        sg_buf_free(&b);
        return NULL;
    }
    *ret_len = b.len;
    return b.data;
}

/* Turn marker strings inside a decoded plain value back into floats / ints. */
static sg_status task__unmark(sg_value *v)
{
    if (v->kind == SG_VAL_STR && v->len >= TASK_MARK_LEN && !memcmp(v->s, TASK_MARK_RAW, TASK_MARK_LEN)) {
        const char *p = v->s + TASK_MARK_LEN;
        if (!strncmp(p, "int:", 4)) {
            sg_value *n = sg_value_new_int_text(p + 4, strlen(p + 4));
            if (!n)
                return SG_ERR_INVALID_ARG;
            free(v->s);
            v->s = NULL;
            v->len = 0;
            v->kind = SG_VAL_INT;
            v->i = n->i;
            v->big = n->big;
            n->big = NULL;
            sg_value_free(n);
            return SG_OK;
        }
        double f = !strcmp(p, "nan") ? NAN : !strcmp(p, "inf") ? INFINITY : -INFINITY;
        free(v->s);
        v->s = NULL;
        v->len = 0;
        v->kind = SG_VAL_FLOAT;
        v->f = f;
        return SG_OK;
    }
    if (v->kind == SG_VAL_DICT) {
        for (size_t k = 0; k < v->n; k++) {
            sg_value *key = v->items[2 * k];
            if (key->len >= TASK_MARK_LEN && !memcmp(key->s, TASK_MARK_RAW, TASK_MARK_LEN))
                return SG_ERR_INVALID_ARG;
        }
    }
    for (size_t k = 0; k < sg_value_slots(v); k++)
        if (task__unmark(v->items[k]) != SG_OK)
            return SG_ERR_INVALID_ARG;
    return SG_OK;
}

/* Does a tagged value (or any text field) hold a marker? Then the line had a non-JSON token where
 * only base_input/plus_input may have one. */
static bool task__has_mark(const sg_value *v)
{
    if ((v->kind == SG_VAL_STR) && v->len >= TASK_MARK_LEN && !memcmp(v->s, TASK_MARK_RAW, TASK_MARK_LEN))
        return true;
    for (size_t k = 0; k < sg_value_slots(v); k++)
        if (task__has_mark(v->items[k]))
            return true;
    return false;
}

static sg_status task__inputs(task__ctx *c, json_t *j, const char *field, sg_golden_task *t, size_t *count)
{
    if (json_is_object(j) && json_object_size(j) == 0)
        return SG_OK;
    if (!json_is_array(j))
        return task__err(c, field, "must be an array of argument arrays");
    size_t k;
    json_t *x;
    json_array_foreach(j, k, x)
    {
        char sub[160];
        snprintf(sub, sizeof sub, "%s[%zu]", field, k);
        if (!json_is_array(x))
            return task__err(c, sub, "must be an array of arguments");
        sg_value *args = NULL;
        sg_status st = sg_value_from_plain_json(x, sub, &args, c->diag);
        if (st != SG_OK)
            return task__value_err(c, st);
        if (task__unmark(args) != SG_OK) {
            sg_value_free(args);
            return task__err(c, sub, "bad non-JSON token");
        }
        sg_golden_case *cs = &t->cases[t->ncases++];
        cs->args = args;
        if (!(cs->kwargs = sg_value_new(SG_VAL_DICT)))
            return SG_ERR_NOMEM;
        (*count)++;
    }
    return SG_OK;
}

/* ---- one task ----------------------------------------------------------------------------- */

static const char *const task__known[] = {
    "task_id", "prompt", "entry_point", "canonical_solution", "complete_solution", "test", "text", "code",
    "test_list", "test_setup_code", "challenge_test_list", "test_imports", "source_file", "base_input",
    "plus_input", "atol", "contract", "assertion", "tests", "signature", "properties", "compare", "timeout",
    "fuzz", "tags", "mutation", "efficiency", NULL};

static sg_status task__signature(task__ctx *c, json_t *j, sg_golden_task *t)
{
    if (!json_is_object(j))
        return task__err(c, "signature", "must be an object");
    const char *key;
    json_t *x;
    sg_status st;
    t->has_signature = true;
    json_object_foreach(j, key, x)
    {
        char sub[160];
        snprintf(sub, sizeof sub, "signature.%.40s", key);
        if (!strcmp(key, "args")) {
            if (!json_is_array(x))
                return task__err(c, sub, "must be an array of type strings");
            t->sig_args = calloc(json_array_size(x) + 1, sizeof *t->sig_args);
            if (!t->sig_args)
                return SG_ERR_NOMEM;
            size_t k;
            json_t *e;
            json_array_foreach(x, k, e)
            {
                char ap[200];
                snprintf(ap, sizeof ap, "%s[%zu]", sub, k);
                if ((st = task__type(c, e, ap, &t->sig_args[k])) != SG_OK)
                    return st;
                t->nsig_args++;
            }
        } else if (!strcmp(key, "returns")) {
            if ((st = task__type(c, x, sub, &t->sig_returns)) != SG_OK)
                return st;
        } else if (!strcmp(key, "kwargs")) {
            if (!json_is_object(x))
                return task__err(c, sub, "must be an object");
            size_t n = json_object_size(x);
            t->sig_kwnames = calloc(n + 1, sizeof *t->sig_kwnames);
            t->sig_kwtypes = calloc(n + 1, sizeof *t->sig_kwtypes);
            if (!t->sig_kwnames || !t->sig_kwtypes)
                return SG_ERR_NOMEM;
            const char *kn;
            json_t *kt;
            json_object_foreach(x, kn, kt)
            {
                char kp[240];
                snprintf(kp, sizeof kp, "%s.%.40s", sub, kn);
                if (!task__is_ident(kn, false))
                    return task__err(c, kp, "not a Python identifier");
                if (!(t->sig_kwnames[t->nsig_kw] = strdup(kn)))
                    return SG_ERR_NOMEM;
                if ((st = task__type(c, kt, kp, &t->sig_kwtypes[t->nsig_kw])) != SG_OK) {
                    t->nsig_kw++;
                    return st;
                }
                t->nsig_kw++;
            }
        } else {
            return task__err(c, sub, "unknown field");
        }
    }
    if (!t->sig_args || !t->sig_returns)
        return task__err(c, "signature", "args and returns are required");
    return SG_OK;
}

/* An array of argument arrays (tagged values): fuzz.seeds, efficiency.inputs. `*out` holds `*n`
 * lists so far also on failure (freed with the task). */
static sg_status task__arg_lists(task__ctx *c, json_t *x, const char *field, sg_value ***out, size_t *n)
{
    if (!json_is_array(x))
        return task__err(c, field, "must be an array of argument arrays");
    if (!(*out = calloc(json_array_size(x) + 1, sizeof **out)))
        return SG_ERR_NOMEM;
    size_t k;
    json_t *e;
    json_array_foreach(x, k, e)
    {
        char ap[200];
        snprintf(ap, sizeof ap, "%s[%zu]", field, k);
        if (!json_is_array(e))
            return task__err(c, ap, "must be an array of arguments");
        sg_status st = sg_value_from_json(e, ap, &(*out)[k], c->diag);
        if (st != SG_OK)
            return task__value_err(c, st);
        (*n)++;
    }
    return SG_OK;
}

/* "efficiency": false, true, or {"doublings", "factor", "slack", "inputs"} */
static sg_status task__efficiency(task__ctx *c, json_t *j, sg_golden_task *t)
{
    if (json_is_boolean(j)) {
        t->eff_off = json_is_false(j);
        return SG_OK;
    }
    if (!json_is_object(j))
        return task__err(c, "efficiency", "must be false, true or an object");
    const char *key;
    json_t *x;
    sg_status st = SG_OK;
    json_object_foreach(j, key, x)
    {
        char sub[160];
        snprintf(sub, sizeof sub, "efficiency.%.40s", key);
        json_int_t iv = 0;
        if (!strcmp(key, "doublings")) {
            if ((st = task__uint(c, x, sub, 0, 8, &iv)) == SG_OK)
                t->eff_doublings = (unsigned)iv;
        } else if (!strcmp(key, "factor")) {
            st = task__num(c, x, sub, 1, 1e6, false, &t->eff_factor);
        } else if (!strcmp(key, "slack")) {
            if ((st = task__uint(c, x, sub, 0, 1000000, &iv)) == SG_OK)
                t->eff_slack = (uint64_t)iv;
        } else if (!strcmp(key, "inputs")) {
            st = task__arg_lists(c, x, sub, &t->eff_inputs, &t->neff_inputs);
        } else {
            return task__err(c, sub, "unknown field");
        }
        if (st != SG_OK)
            return st;
    }
    return SG_OK;
}

static sg_status task__fuzz(task__ctx *c, json_t *j, sg_golden_task *t)
{
    if (!json_is_object(j))
        return task__err(c, "fuzz", "must be an object");
    const char *key;
    json_t *x;
    sg_status st = SG_OK;
    json_object_foreach(j, key, x)
    {
        char sub[160];
        snprintf(sub, sizeof sub, "fuzz.%.40s", key);
        json_int_t iv = 0;
        if (!strcmp(key, "max_inputs")) {
            if ((st = task__uint(c, x, sub, 1, 100000, &iv)) == SG_OK)
                t->fuzz_max_inputs = (unsigned)iv;
        } else if (!strcmp(key, "max_seconds")) {
            st = task__num(c, x, sub, 0, 600, true, &t->fuzz_max_seconds);
        } else if (!strcmp(key, "seed")) {
            if ((st = task__uint(c, x, sub, 0, INT64_MAX, &iv)) == SG_OK) {
                t->fuzz_has_seed = true;
                t->fuzz_seed = (uint64_t)iv;
            }
        } else if (!strcmp(key, "max_size")) {
            if ((st = task__uint(c, x, sub, 0, 64, &iv)) == SG_OK) {
                t->fuzz_has_max_size = true;
                t->fuzz_max_size = (unsigned)iv;
            }
        } else if (!strcmp(key, "stage_seconds")) { /* the fuzz stage's budget (docs/fuzz.md) */
            st = task__num(c, x, sub, 0, 3600, true, &t->fuzz_stage_seconds);
        } else if (!strcmp(key, "stage_runs")) {
            if ((st = task__uint(c, x, sub, 1, 1000000000, &iv)) == SG_OK)
                t->fuzz_stage_runs = (uint64_t)iv;
        } else if (!strcmp(key, "seeds")) {
            st = task__arg_lists(c, x, sub, &t->fuzz_seeds, &t->nfuzz_seeds);
        } else {
            return task__err(c, sub, "unknown field");
        }
        if (st != SG_OK)
            return st;
    }
    return SG_OK;
}

static sg_status task__parse(task__ctx *c, json_t *j, sg_golden_task *t)
{
    sg_status st = SG_OK;
    if (!json_is_object(j))
        return task__err(c, "(line)", "a task must be a JSON object");
    t->line = c->line;
    t->timeout_s = 2;
    t->fuzz_max_inputs = 300;
    t->eff_doublings = 4;
    t->eff_factor = 20;
    t->eff_slack = 400000;
    t->fuzz_max_seconds = 30; /* a cap, not the budget: hitting it is an error verdict */
    const char *key;
    json_t *x;
    json_object_foreach(j, key, x)
    {
        bool known = !strncmp(key, "x_", 2);
        for (size_t k = 0; task__known[k] && !known; k++)
            known = !strcmp(key, task__known[k]);
        if (!known)
            return task__err(c, key, "unknown field");
    }
    json_t *id = json_object_get(j, "task_id");
    if (json_is_integer(id)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(id));
        t->task_id = strdup(buf);
        t->id_is_int = true;
        if (!t->task_id)
            return SG_ERR_NOMEM;
    } else if (json_is_string(id) && json_string_length(id) > 0) {
        if ((st = task__str(c, id, "task_id", &t->task_id)) != SG_OK)
            return st;
    } else {
        return task__err(c, "task_id", id ? "must be a non-empty string or an integer" : "is required");
    }
#define STR_FIELD(name)                                                                                  \
    if ((x = json_object_get(j, #name)) && (st = task__str(c, x, #name, &t->name)) != SG_OK)              \
        return st;
    STR_FIELD(prompt)
    STR_FIELD(entry_point)
    STR_FIELD(canonical_solution)
    STR_FIELD(test)
    STR_FIELD(text)
    STR_FIELD(code)
    STR_FIELD(test_setup_code)
    STR_FIELD(contract)
    STR_FIELD(assertion)
    STR_FIELD(source_file)
#undef STR_FIELD
    if (t->entry_point && !task__is_ident(t->entry_point, false))
        return task__err(c, "entry_point", "not a Python identifier");
    if ((x = json_object_get(j, "test_list")) && (st = task__strv(c, x, "test_list", &t->test_list, &t->ntest_list)))
        return st;
    if ((x = json_object_get(j, "challenge_test_list")) &&
        (st = task__strv(c, x, "challenge_test_list", &t->challenge_test_list, &t->nchallenge)))
        return st;
    if ((x = json_object_get(j, "test_imports")) &&
        (st = task__strv(c, x, "test_imports", &t->test_imports, &t->ntest_imports)))
        return st;
    if ((x = json_object_get(j, "tags")) && (st = task__strv(c, x, "tags", &t->tags, &t->ntags)))
        return st;
    if ((x = json_object_get(j, "complete_solution"))) {
        if (!json_is_boolean(x))
            return task__err(c, "complete_solution", "must be a boolean");
        t->complete_solution = json_is_true(x);
    }
    if ((x = json_object_get(j, "atol")) && (st = task__num(c, x, "atol", 0, 1e300, false, &t->atol)))
        return st;
    t->has_atol = x != NULL;
    if ((x = json_object_get(j, "mutation"))) {
        const char *m = json_string_value(x);
        if (!m || (strcmp(m, "checked") && strcmp(m, "allowed") && strcmp(m, "expected")))
            return task__err(c, "mutation", "must be \"checked\", \"allowed\" or \"expected\"");
        t->mutation_allowed = !strcmp(m, "allowed");
        t->mutation_expected = !strcmp(m, "expected");
    }
    if ((x = json_object_get(j, "timeout")) && (st = task__num(c, x, "timeout", 0, 60, true, &t->timeout_s)))
        return st;
    json_t *tests = json_object_get(j, "tests");
    json_t *base = json_object_get(j, "base_input"), *plus = json_object_get(j, "plus_input");
    size_t ncases = (json_is_array(tests) ? json_array_size(tests) : 0) + (json_is_array(base) ? json_array_size(base) : 0) +
                    (json_is_array(plus) ? json_array_size(plus) : 0);
    t->cases = calloc(ncases + 1, sizeof *t->cases);
    if (!t->cases)
        return SG_ERR_NOMEM;
    if (tests) {
        if (!json_is_array(tests) || json_array_size(tests) == 0)
            return task__err(c, "tests", "must be a non-empty array of cases");
        size_t k;
        json_array_foreach(tests, k, x)
        {
            char sub[64];
            snprintf(sub, sizeof sub, "tests[%zu]", k);
            sg_golden_case *cs = &t->cases[t->ncases++];
            if ((st = task__case(c, x, sub, cs)) != SG_OK)
                return st;
            if (task__has_mark(cs->args) || task__has_mark(cs->kwargs) || (cs->expected && task__has_mark(cs->expected)))
                return task__err(c, sub, "NaN/Infinity tokens are not JSON here: use {\"$float\": ...}");
        }
    }
    if (base && (st = task__inputs(c, base, "base_input", t, &t->nbase_inputs)) != SG_OK)
        return st;
    if (plus && (st = task__inputs(c, plus, "plus_input", t, &t->nplus_inputs)) != SG_OK)
        return st;
    if ((x = json_object_get(j, "signature")) && (st = task__signature(c, x, t)) != SG_OK)
        return st;
    if ((x = json_object_get(j, "properties"))) {
        if (!json_is_array(x))
            return task__err(c, "properties", "must be an array");
        t->props = calloc(json_array_size(x) + 1, sizeof *t->props);
        if (!t->props)
            return SG_ERR_NOMEM;
        size_t k;
        json_t *e;
        json_array_foreach(x, k, e)
        {
            char sub[64];
            snprintf(sub, sizeof sub, "properties[%zu]", k);
            if ((st = task__property(c, e, sub, &t->props[t->nprops++])) != SG_OK)
                return st;
            for (size_t q = 0; q + 1 < t->nprops; q++)
                if (t->props[q].kind == t->props[k].kind)
                    return task__err(c, sub, "property %s named twice", task__prop_names[t->props[k].kind]);
        }
    }
    t->compare_python = !tests;
    if ((x = json_object_get(j, "compare"))) {
        const char *s = json_string_value(x);
        if (!s || (strcmp(s, "strict") && strcmp(s, "python")))
            return task__err(c, "compare", "must be \"strict\" or \"python\"");
        t->compare_python = !strcmp(s, "python");
    }
    if ((x = json_object_get(j, "efficiency")) && (st = task__efficiency(c, x, t)) != SG_OK)
        return st;
    if ((x = json_object_get(j, "fuzz")) && (st = task__fuzz(c, x, t)) != SG_OK)
        return st;
    bool needs_entry = json_object_get(j, "test") || tests || json_object_get(j, "signature") ||
                       json_object_get(j, "properties") || base || plus;
    if (needs_entry && !t->entry_point)
        return task__err(c, "entry_point", "is required with test, tests, signature, properties or inputs");
    if (t->has_signature)
        for (size_t k = 0; k < t->ncases && k < (size_t)json_array_size(tests); k++) {
            const sg_golden_case *cs = &t->cases[k];
            bool ok = cs->args->n <= t->nsig_args;
            for (size_t a = 0; ok && a < cs->args->n; a++)
                ok = sg_type_conforms(cs->args->items[a], t->sig_args[a], false);
            if (!ok)
                return task__err(c, "tests", "case %zu: arguments do not match the signature's types", k);
        }
    t->format = tests ? SG_TASK_SNIPGATE
                : t->test ? SG_TASK_HUMANEVAL
                : t->test_list ? SG_TASK_MBPP
                : (base || plus) ? SG_TASK_EVALPLUS
                : SG_TASK_OTHER;
    return sg_evalplus_adapt(t);
}

/* ---- files -------------------------------------------------------------------------------- */

sg_status sg_golden_suite_load_buffer(const char *name, const char *buf, size_t len, sg_golden_suite **ret,
                                      sg_diag *diag)
{
    sg_golden_suite *s = calloc(1, sizeof *s);
    if (!s)
        return sg_diag_set(diag, SG_ERR_NOMEM, name, 0, 0, -1, 0, "out of memory");
    task__ctx c = {.file = name ? name : "<suite>", .diag = diag};
    sg_status st = SG_OK;
    size_t pos = 0;
    while (pos < len) {
        c.line++;
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        size_t llen = end - pos;
        const char *line = buf + pos;
        pos = nl ? end + 1 : len;
        if (llen && line[llen - 1] == '\r')
            llen--;
        if (llen > SG_GOLDEN_MAX_LINE) {
            st = sg_diag_set(diag, SG_ERR_TOO_LARGE, c.file, c.line, 0, -1, 0, "%s:%ld: line longer than 4 MiB",
                             c.file, c.line);
            goto out_fail;
        }
        size_t k = 0;
        while (k < llen && (line[k] == ' ' || line[k] == '\t'))
            k++;
        if (k == llen || line[k] == '#')
            continue;
        if (s->tasks.len >= SG_GOLDEN_MAX_TASKS) {
            st = sg_diag_set(diag, SG_ERR_TOO_LARGE, c.file, c.line, 0, -1, 0, "%s:%ld: more than %u tasks", c.file,
                             c.line, SG_GOLDEN_MAX_TASKS);
            goto out_fail;
        }
        if (memchr(line, 0, llen)) {
            st = sg_diag_set(diag, SG_ERR_BINARY, c.file, c.line, 0, -1, 0, "%s:%ld: NUL byte in the line", c.file,
                             c.line);
            goto out_fail;
        }
        bool nomem;
        size_t rlen = 0;
        char *rewritten = task__rewrite(line, llen, &rlen, &nomem);
        if (nomem) {
            st = SG_ERR_NOMEM;
            goto out_fail;
        }
        json_error_t je;
        json_t *j = sg_json_loadb_guarded(rewritten ? rewritten : line, rewritten ? rlen : llen,
                                          JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je, &nomem);
        free(rewritten);
        if (!j && nomem) {
            st = sg_diag_set(diag, SG_ERR_NOMEM, c.file, c.line, 0, -1, 0, "%s:%ld: out of memory", c.file, c.line);
            goto out_fail;
        }
        if (!j) {
            st = sg_diag_set(diag, SG_ERR_INVALID_ARG, c.file, c.line, je.column, -1, 0, "%s:%ld: (json): %s",
                             c.file, c.line, je.text);
            goto out_fail;
        }
        sg_golden_task t;
        memset(&t, 0, sizeof t);
        st = task__parse(&c, j, &t);
        json_decref(j);
        if (st == SG_OK && sg_golden_suite_find(s, t.task_id))
            st = task__err(&c, "task_id", "duplicate task id \"%.80s\"", t.task_id);
        if (st == SG_OK && sg_array_push(&s->tasks, t, SG_GOLDEN_MAX_TASKS) < 0)
            st = SG_ERR_NOMEM;
        if (st != SG_OK) {
            task__free(&t);
            if (st == SG_ERR_NOMEM)
                sg_diag_set(diag, SG_ERR_NOMEM, c.file, c.line, 0, -1, 0, "out of memory");
            goto out_fail;
        }
    }
    *ret = s;
    return SG_OK;
out_fail:
    sg_golden_suite_free(s);
    return st;
}

sg_status sg_golden_suite_load_file(const char *path, sg_golden_suite **ret, sg_diag *diag)
{
    char *buf = NULL;
    size_t len = 0;
    sg_status st = sg_read_file(path, SG_GOLDEN_MAX_FILE, &buf, &len, diag);
    if (st != SG_OK)
        return st;
    st = sg_golden_suite_load_buffer(path, buf, len, ret, diag);
    free(buf);
    return st;
}

/* ---- the built-in suite ------------------------------------------------------------------- */

extern const unsigned char sg_golden_builtin_jsonl[];
extern const size_t sg_golden_builtin_jsonl_len;

static pthread_once_t task__builtin_once = PTHREAD_ONCE_INIT;
static sg_golden_suite *task__builtin;
static sg_status task__builtin_status;
static sg_diag task__builtin_diag;

static void task__builtin_load(void)
{
    sg_diag_init(&task__builtin_diag);
    task__builtin_status = sg_golden_suite_load_buffer("<builtin>", (const char *)sg_golden_builtin_jsonl,
                                                       sg_golden_builtin_jsonl_len, &task__builtin,
                                                       &task__builtin_diag);
}

sg_status sg_golden_builtin_suite(const sg_golden_suite **ret, sg_diag *diag)
{
    pthread_once(&task__builtin_once, task__builtin_load);
    if (task__builtin_status != SG_OK) {
        if (diag)
            *diag = task__builtin_diag;
        return task__builtin_status == SG_ERR_NOMEM ? SG_ERR_NOMEM : SG_ERR_INTERNAL;
    }
    *ret = task__builtin;
    return SG_OK;
}

const sg_golden_task *sg_golden_builtin_task(const char *id)
{
    const sg_golden_suite *s = NULL;
    if (sg_golden_builtin_suite(&s, NULL) != SG_OK)
        return NULL;
    return sg_golden_suite_find(s, id);
}

/* ---- programs ----------------------------------------------------------------------------- */

static char *task__concat(const char *a, const char *b)
{
    size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
    char *s = malloc(la + lb + 1);
    if (!s)
        return NULL;
    if (la)
        memcpy(s, a, la);
    if (lb)
        memcpy(s + la, b, lb);
    s[la + lb] = 0;
    return s;
}

char *sg_golden_task_reference_source(const sg_golden_task *t)
{
    if (t->format == SG_TASK_MBPP && t->code && !t->canonical_solution)
        return strdup(t->code);
    if (!t->canonical_solution)
        return t->code ? strdup(t->code) : NULL;
    if (t->complete_solution)
        return strdup(t->canonical_solution);
    return task__concat(t->prompt, t->canonical_solution);
}

bool sg_golden_task_completes_prompt(const sg_golden_task *t)
{
    return t && !t->complete_solution && t->format != SG_TASK_MBPP && t->prompt;
}

char *sg_golden_task_candidate_source(const sg_golden_task *t, const char *completion)
{
    if (!t || !completion)
        return NULL;
    if (!sg_golden_task_completes_prompt(t))
        return strdup(completion);
    return task__concat(t->prompt, completion);
}

long sg_golden_task_prompt_lines(const sg_golden_task *t)
{
    long n = 0;
    if (sg_golden_task_completes_prompt(t))
        for (const char *p = t->prompt; *p; p++)
            n += *p == '\n';
    return n;
}

void sg_golden_task_fuzz_budget(const sg_golden_task *t, unsigned *ret_inputs, double *ret_seconds)
{
    if (ret_inputs)
        *ret_inputs = t ? t->fuzz_max_inputs : 0;
    if (ret_seconds)
        *ret_seconds = t ? t->fuzz_max_seconds : 0;
}

bool sg_golden_task_fuzz_stage(const sg_golden_task *t, double *ret_seconds, uint64_t *ret_runs)
{
    if (ret_seconds)
        *ret_seconds = t ? t->fuzz_stage_seconds : 0;
    if (ret_runs)
        *ret_runs = t ? t->fuzz_stage_runs : 0;
    return t && (t->fuzz_stage_seconds > 0 || t->fuzz_stage_runs > 0);
}

size_t sg_golden_task_declared_properties(const sg_golden_task *t)
{
    return t ? t->nprops : 0;
}

const char *sg_golden_task_id(const sg_golden_task *t)
{
    return t ? t->task_id : NULL;
}
