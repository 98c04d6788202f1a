/*
 * The fuzz stage's target side (snipgate/fuzz.h, docs/fuzz.md): fuzz inputs decode into typed
 * arguments (golden_tasks/gen.c choice streams, the task's signature or inferred types), go to
 * the candidate through a coverage worker's stream, and come back as an outcome the supervisor
 * classified, plus the tracer's counters and comparison operands (untrusted: copied, bounds-checked,
 * used only to steer the search).
 *
 * A finding: an exception the task does not declare, a hang past the per-input limit, a crash of
 * the interpreter, a memory blow-up, a forbidden system call, an output flood, or (with a
 * reference) a different answer. An input the reference does not answer normally is discarded.
 * Stream items share one call child, so a finding seen there is confirmed by replaying the input
 * alone in a fresh call of both workers before it counts; it is then shrunk (golden_tasks/shrink.c)
 * with the same replay as predicate.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/util.h"
#include "snipgate/snipgate.h"
#include "golden_tasks/annot.h"
#include "golden_tasks/gen.h"
#include "golden_tasks/golden.h"
#include "golden_tasks/shrink.h"
#include "golden_tasks/task.h"
#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"
#include "sandbox/tracer/cov.h"

#define FZ_TEXT_CAP 60000u
#define FZ_DICT_MAX 256

enum fz_kind {
    FZ_NONE = 0,
    FZ_DISCARD,   /* the reference rejects the input, or it does not fit the types */
    FZ_EXCEPTION, /* an exception the task does not declare */
    FZ_HANG,
    FZ_CRASH,
    FZ_MEMORY,
    FZ_SYSCALL,
    FZ_OUTPUT,
    FZ_DIFFERS,
};

static const char *const fz__kind_names[] = {"none",   "discard", "exception", "hang",   "crash",
                                             "memory", "syscall", "output",    "differs"};

typedef struct fz_verdict {
    enum fz_kind kind;
    sg_outcome *cand, *ref;
    char *why; /* DIFFERS: what differs (malloc'd) */
} fz_verdict;

struct sg_fuzz {
    const sg_sandbox *sb;
    const sg_golden_task *task;
    sg_fuzz_opts opts;
    const char *entry;
    sg_type **types; /* borrowed from the task, or owned (inferred) */
    size_t ntypes;
    bool own_types;
    sg_golden_kwparams kw; /* keyword arguments: decoded after the positional ones, passed by name */
    char *cand_src, *ref_src;
    sg_worker *cand, *ref;
    sg_sandbox_limits input_limits;
    int cov_fd;
    struct sg_cov_map *map; /* shared with the sandbox: untrusted contents */
    struct sg_cov_map snap; /* the copy we read */
    uint8_t edges_seen[SG_COV_EDGES];
    uint8_t lines_seen[SG_COV_LINES];
    uint64_t execs, discarded, unconfirmed;
    /* the finding */
    bool found;
    enum fz_kind fkind;
    char *f_input, *f_args_json, *f_kwargs_json, *f_exc_type, *f_exc_message, *f_traceback, *f_got, *f_expected,
        *f_detail;
    long f_exc_line;
    unsigned f_shrink_calls;
    double f_found_s;       /* seconds from sg_fuzz_new to the confirmed finding (before shrinking) */
    uint64_t f_found_execs; /* inputs run until then */
    struct timespec t0;
    /* shrinking (the positional arguments; the keyword ones stay as found, as in the golden stage) */
    enum fz_kind want_kind;
    char *want_exc;
    const sg_value *shrink_kwargs;
    struct timespec shrink_t0;
    unsigned shrink_timeouts; /* the candidate's timeouts while shrinking (FZ_SHRINK_MAX_TIMEOUTS) */
};

/* A hang is shrunk by running inputs that hang again: at most this many of them time out while
 * shrinking a finding (issue 24; docs/fuzz.md), then the shrinking stops where it is. */
#define FZ_SHRINK_MAX_TIMEOUTS 2u

void sg_fuzz_opts_init(sg_fuzz_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->max_shrink_calls = 300;
    opts->max_shrink_seconds = 10;
}

size_t sg_fuzz_counters(void)
{
    return 1 + SG_COV_EDGES;
}

static char *fz__strdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void fz__verdict_clear(fz_verdict *v)
{
    sg_outcome_free(v->cand);
    sg_outcome_free(v->ref);
    free(v->why);
    memset(v, 0, sizeof *v);
}

/* ---- programs and workers ----------------------------------------------------------------- */

/* The reference program: its source, and a contract check when the task has one (an input the
 * contract refuses is one the reference rejects). Malloc'd; NULL without a reference. */
static char *fz__reference_program(const sg_golden_task *t, sg_status *st)
{
    *st = SG_OK;
    char *base = sg_golden_task_reference_source(t);
    if (!base)
        return NULL;
    sg_buf b;
    sg_buf_init(&b, 16u << 20);
    sg_buf_puts(&b, base);
    free(base);
    sg_buf_puts(&b, "\n");
    if (t->contract && t->entry_point) {
        sg_value *src = sg_value_new_str(SG_VAL_STR, t->contract, strlen(t->contract));
        if (!src) {
            sg_buf_free(&b);
            *st = SG_ERR_NOMEM;
            return NULL;
        }
        sg_buf_puts(&b, "\ndef __sg_contract(*a, **k):\n"
                        "    import inspect, textwrap\n"
                        "    ba = inspect.signature(");
        sg_buf_puts(&b, t->entry_point);
        sg_buf_puts(&b, ").bind(*a, **k)\n"
                        "    ns = dict(globals())\n"
                        "    ns.update(ba.arguments)\n"
                        "    exec(textwrap.dedent(");
        sg_value_literal(src, &b);
        sg_buf_puts(&b, "), ns)\n    return True\n");
        sg_value_free(src);
    }
    if (b.failed || b.truncated) {
        sg_buf_free(&b);
        *st = SG_ERR_NOMEM;
        return NULL;
    }
    return b.data;
}

static sg_status fz__worker(sg_fuzz *fz, const char *prog, bool coverage, sg_worker **ret, sg_diag *diag)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 20000;
    lim.cpu_ms = 10000;
    sg_worker_opts wo;
    sg_worker_opts_init(&wo);
    wo.stdlib_dicts = fz->task->compare_python;
    wo.coverage = coverage;
    wo.coverage_fd = coverage ? fz->cov_fd : -1;
    sg_outcome *imp = NULL;
    sg_status st = sg_worker_new(fz->sb, prog, strlen(prog), &lim, &wo, ret, &imp, diag);
    if (st != SG_OK)
        return st;
    const sg_outcome_info *in = sg_outcome_info_get(imp);
    if (in->kind != SG_OUTCOME_OK) {
        st = sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0, "the %s does not import: %s%s%s",
                         coverage ? "candidate" : "reference", sg_outcome_kind_name(in->kind),
                         in->exc_type ? ": " : "", in->exc_type ? in->exc_type : "");
        if (in->exc_type && !strcmp(in->exc_type, "snipgate.TracerError"))
            st = sg_diag_set(diag, SG_ERR_UNSUPPORTED, NULL, 0, 0, -1, 0,
                             "the coverage tracer does not load in the sandbox's interpreter: %s", in->exc_message);
        sg_worker_free(*ret);
        *ret = NULL;
    }
    sg_outcome_free(imp);
    return st;
}

static sg_status fz__types(sg_fuzz *fz)
{
    const sg_golden_task *t = fz->task;
    if (t->has_signature) {
        fz->types = t->sig_args;
        fz->ntypes = t->nsig_args;
        return SG_OK;
    }
    const char *srcs[2] = {fz->ref_src, fz->cand_src};
    for (int k = 0; k < 2; k++) {
        if (!srcs[k])
            continue;
        sg_status st = sg_annot_arg_types(srcs[k], fz->entry, &fz->types, &fz->ntypes);
        if (st == SG_OK) {
            fz->own_types = true;
            return SG_OK;
        }
        if (st == SG_ERR_NOMEM)
            return st;
    }
    SG_ARRAY(const sg_value *) same = {0};
    size_t arity = t->ncases ? t->cases[0].args->n : t->nfuzz_seeds ? t->fuzz_seeds[0]->n : 0;
    for (size_t k = 0; k < t->ncases + t->nfuzz_seeds; k++) {
        const sg_value *a = k < t->ncases ? t->cases[k].args : t->fuzz_seeds[k - t->ncases];
        if (a->n == arity && sg_array_push(&same, a, 0) < 0) {
            sg_array_free(&same);
            return SG_ERR_NOMEM;
        }
    }
    sg_status st = same.len ? sg_gen_infer_types(same.items, same.len, &fz->types, &fz->ntypes) : SG_ERR_INVALID_ARG;
    sg_array_free(&same);
    fz->own_types = st == SG_OK;
    return st;
}

sg_status sg_fuzz_new(const sg_sandbox *sandbox, const sg_golden_task *task, const char *candidate, size_t len,
                      const sg_fuzz_opts *opts, sg_fuzz **ret, sg_diag *diag)
{
    if (!sandbox || !task || !candidate || !ret)
        return SG_ERR_INVALID_ARG;
    if (memchr(candidate, 0, len))
        return sg_diag_set(diag, SG_ERR_BINARY, NULL, 0, 0, -1, 0, "the candidate holds a NUL byte");
    if (!task->entry_point || !*task->entry_point)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0,
                           "task %s names no entry point: the fuzz stage calls one function", task->task_id);
    sg_fuzz *fz = calloc(1, sizeof *fz);
    if (!fz)
        return SG_ERR_NOMEM;
    fz->cov_fd = -1;
    fz->map = MAP_FAILED;
    fz->sb = sandbox;
    fz->task = task;
    if (opts)
        fz->opts = *opts;
    else
        sg_fuzz_opts_init(&fz->opts);
    fz->entry = task->entry_point;
    sg_status st = SG_ERR_NOMEM;
    char *text = sg_strndup_buf(candidate, len);
    if (!text)
        goto fail;
    if (fz->opts.completion) {
        fz->cand_src = sg_golden_task_candidate_source(task, text);
        free(text);
    } else {
        fz->cand_src = text;
    }
    if (!fz->cand_src)
        goto fail;
    fz->ref_src = fz__reference_program(task, &st);
    if (st != SG_OK)
        goto fail;
    if ((st = fz__types(fz)) != SG_OK) {
        if (st != SG_ERR_NOMEM)
            st = sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0,
                             "task %s: no argument types to fuzz with (give it a signature, annotate %s, or "
                             "give example inputs)", task->task_id, fz->entry);
        goto fail;
    }
    const char *kw_srcs[2] = {fz->ref_src, fz->cand_src};
    if ((st = sg_golden_kwparams_get(task, fz->entry, kw_srcs, 2, &fz->kw)) != SG_OK)
        goto fail;
    if (fz->kw.missing) {
        /* every call would fail for want of it: findings that are not the candidate's */
        st = sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0,
                         "task %s: %s's keyword-only parameter '%s' has no default and no type to fuzz with "
                         "(give it in signature.kwargs, or annotate it)", task->task_id, fz->entry, fz->kw.missing);
        goto fail;
    }
    double to = fz->opts.input_timeout_s > 0 ? fz->opts.input_timeout_s : task->timeout_s > 0 ? task->timeout_s : 2;
    sg_sandbox_limits_init(&fz->input_limits);
    fz->input_limits.cpu_ms = (uint64_t)ceil(to * 1000);
    fz->input_limits.wall_ms = 3 * fz->input_limits.cpu_ms + 1000;
    fz->cov_fd = memfd_create("sg-coverage", MFD_CLOEXEC);
    if (fz->cov_fd < 0 || ftruncate(fz->cov_fd, sizeof(struct sg_cov_map)) < 0 ||
        (fz->map = mmap(NULL, sizeof(struct sg_cov_map), PROT_READ | PROT_WRITE, MAP_SHARED, fz->cov_fd, 0)) ==
            MAP_FAILED) {
        st = sg_diag_set(diag, SG_ERR_SANDBOX, NULL, 0, 0, -1, errno, "cannot make the coverage map: %s",
                         strerror(errno));
        goto fail;
    }
    if ((st = fz__worker(fz, fz->cand_src, true, &fz->cand, diag)) != SG_OK)
        goto fail;
    if (fz->ref_src && (st = fz__worker(fz, fz->ref_src, false, &fz->ref, diag)) != SG_OK)
        goto fail;
    if ((st = sg_worker_stream_begin(fz->cand, &fz->input_limits, diag)) != SG_OK ||
        (fz->ref && (st = sg_worker_stream_begin(fz->ref, &fz->input_limits, diag)) != SG_OK))
        goto fail;
    clock_gettime(CLOCK_MONOTONIC, &fz->t0);
    *ret = fz;
    return SG_OK;
fail:
    sg_fuzz_free(fz);
    return st;
}

static void fz__finding_free(sg_fuzz *fz)
{
    char **all[] = {&fz->f_input,       &fz->f_args_json, &fz->f_kwargs_json, &fz->f_exc_type, &fz->f_exc_message,
                    &fz->f_traceback,   &fz->f_got,       &fz->f_expected,    &fz->f_detail};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        free(*all[k]);
        *all[k] = NULL;
    }
}

void sg_fuzz_free(sg_fuzz *fz)
{
    if (!fz)
        return;
    sg_worker_free(fz->cand);
    sg_worker_free(fz->ref);
    if (fz->map != MAP_FAILED)
        munmap(fz->map, sizeof(struct sg_cov_map));
    if (fz->cov_fd >= 0)
        close(fz->cov_fd);
    if (fz->own_types) {
        for (size_t k = 0; k < fz->ntypes; k++)
            sg_type_free(fz->types[k]);
        free(fz->types);
    }
    sg_golden_kwparams_free(&fz->kw);
    fz__finding_free(fz);
    free(fz->want_exc);
    free(fz->cand_src);
    free(fz->ref_src);
    free(fz);
}

/* ---- one input ---------------------------------------------------------------------------- */

/* Decode an input into the argument list and the keyword arguments (a dict; after the positional
 * ones, each keyword parameter is a "given?" byte then its value, or just its value when it is
 * required); NULLs (and SG_OK) when it does not fit the types. */
static sg_status fz__decode(const sg_fuzz *fz, const uint8_t *data, size_t size, sg_value **ret, sg_value **ret_kw)
{
    *ret = *ret_kw = NULL;
    sg_choices c = {data, size, 0, fz->task->fuzz_has_max_size ? fz->task->fuzz_max_size : UINT32_MAX};
    sg_value *args = sg_value_new(SG_VAL_LIST), *kw = sg_value_new(SG_VAL_DICT);
    sg_status st = args && kw ? SG_OK : SG_ERR_NOMEM;
    bool fits = true;
    for (size_t k = 0; st == SG_OK && fits && k < fz->ntypes + fz->kw.n; k++) {
        bool pos = k < fz->ntypes;
        const sg_golden_kwparam *p = pos ? NULL : &fz->kw.items[k - fz->ntypes];
        if (p && !p->required) {
            uint8_t given = c.pos < c.len ? c.data[c.pos++] : 0;
            if (!(given & 1))
                continue; /* left to its default */
        }
        const sg_type *ty = pos ? fz->types[k] : p->type;
        sg_value *a = NULL;
        if ((st = sg_gen_decode(&c, ty, &a)) != SG_OK)
            break;
        if (!sg_type_conforms(a, ty, true)) {
            sg_value_free(a);
            fits = false;
        } else if (pos) {
            if (sg_value_push(args, a) < 0)
                st = SG_ERR_NOMEM;
        } else {
            sg_value *key = sg_value_new_str(SG_VAL_STR, p->name, strlen(p->name));
            if (!key || sg_value_push(kw, key) < 0) {
                sg_value_free(a);
                st = SG_ERR_NOMEM;
            } else if (sg_value_push(kw, a) < 0) {
                st = SG_ERR_NOMEM;
            }
        }
    }
    if (st != SG_OK || !fits) {
        sg_value_free(args);
        sg_value_free(kw);
        return st;
    }
    *ret = args;
    *ret_kw = kw;
    return SG_OK;
}

/* `entry(lit, lit, ..., name=lit, ...)`, or NULL when over the call size (or out of memory).
 * Malloc'd. */
static char *fz__call_text(const sg_fuzz *fz, const sg_value *args, const sg_value *kwargs, bool contract)
{
    sg_buf b;
    sg_buf_init(&b, FZ_TEXT_CAP);
    sg_buf lits;
    sg_buf_init(&lits, FZ_TEXT_CAP);
    sg_golden_args_text(&lits, NULL, args, kwargs, false);
    sg_buf_puts(&lits, "");
    if (contract)
        sg_buf_printf(&b, "(__sg_contract(%s), %s(%s))[1]", lits.data, fz->entry, lits.data);
    else
        sg_buf_printf(&b, "%s(%s)", fz->entry, lits.data);
    bool bad = lits.failed || lits.truncated || b.failed || b.truncated;
    sg_buf_free(&lits);
    if (bad) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}

/* Does the task declare the exception (a case's `raises`, a no_raise property's `except`)? Matched
 * as the golden stage matches them: any class of the exception's MRO, as the interpreter keeps it. */
static bool fz__declared(const sg_fuzz *fz, const sg_outcome_info *in)
{
    const sg_golden_task *t = fz->task;
    for (size_t k = 0; k < t->ncases; k++)
        if (t->cases[k].raises && sg_golden_exc_matches(in, t->cases[k].raises))
            return true;
    for (size_t k = 0; k < t->nprops; k++)
        if (t->props[k].kind == SG_PROP_NO_RAISE)
            for (size_t j = 0; j < t->props[k].nexcept; j++)
                if (sg_golden_exc_matches(in, t->props[k].except[j]))
                    return true;
    return false;
}

/* The candidate's outcome alone: what kind of finding it is (before asking the reference). */
static enum fz_kind fz__classify(const sg_fuzz *fz, const sg_outcome_info *in)
{
    switch (in->kind) {
    case SG_OUTCOME_OK:
        return FZ_NONE;
    case SG_OUTCOME_EXCEPTION:
        return in->exc_type && fz__declared(fz, in) ? FZ_NONE : FZ_EXCEPTION;
    case SG_OUTCOME_TIMEOUT:
        return FZ_HANG;
    case SG_OUTCOME_MEMORY_LIMIT:
        return FZ_MEMORY;
    case SG_OUTCOME_OUTPUT_LIMIT:
        return FZ_OUTPUT;
    case SG_OUTCOME_FORBIDDEN_SYSCALL:
        return FZ_SYSCALL;
    case SG_OUTCOME_SIGNAL:
        return FZ_CRASH;
    default:
        return FZ_NONE; /* setup_error: handled by the caller as an error */
    }
}

static sg_status fz__setup_failed(const sg_outcome *o, sg_diag *diag)
{
    const sg_outcome_info *in = sg_outcome_info_get(o);
    return sg_diag_set(diag, SG_ERR_SANDBOX, NULL, 0, 0, -1, 0, "the sandbox failed: %s", in->detail);
}

/* Compare the candidate's value with the reference's (both ok). NULL: equal; else what differs. */
static char *fz__differs(const sg_fuzz *fz, const sg_outcome_info *c, const sg_outcome_info *r, sg_status *st)
{
    *st = SG_OK;
    if (!r->value_json)
        return NULL; /* the reference's answer has no encoding: nothing to compare */
    if (!c->value_json)
        return fz__strdup(c->value_error ? c->value_error : "the value has no encoding");
    sg_value *got = NULL, *exp = NULL;
    if (sg_value_from_text(c->value_json, strlen(c->value_json), "candidate", &got, NULL) != SG_OK ||
        sg_value_from_text(r->value_json, strlen(r->value_json), "reference", &exp, NULL) != SG_OK) {
        sg_value_free(got);
        sg_value_free(exp);
        *st = SG_ERR_INTERNAL;
        return NULL;
    }
    const sg_golden_task *t = fz->task;
    bool eq = t->compare_python ? sg_value_python_equal(got, exp, t->atol) : sg_value_strict_equal(got, exp, t->atol, 0);
    sg_value_free(got);
    sg_value_free(exp);
    return eq ? NULL : fz__strdup("a different value than the reference");
}

/* Judge one argument list: in the streams, or alone (fresh calls: confirmation and shrinking).
 * In the streams the reference's item is sent before the candidate's answer is awaited, so the
 * two sandboxes work at the same time (its answer is unused for a declared exception). */
static sg_status fz__judge(sg_fuzz *fz, const sg_value *args, const sg_value *kwargs, bool alone, fz_verdict *v,
                           sg_diag *diag)
{
    memset(v, 0, sizeof *v);
    char *text = fz__call_text(fz, args, kwargs, false);
    char *rtext = fz->ref ? fz__call_text(fz, args, kwargs, fz->task->contract != NULL) : NULL;
    if (!text || (fz->ref && !rtext)) {
        free(text);
        free(rtext);
        v->kind = FZ_DISCARD;
        return SG_OK;
    }
    sg_status st;
    bool open = false, ref_sent = false;
    if (alone) {
        st = sg_worker_call(fz->cand, text, &fz->input_limits, &v->cand, diag);
    } else {
        st = sg_worker_stream_send(fz->cand, text, diag);
        if (st == SG_OK && fz->ref && (st = sg_worker_stream_send(fz->ref, rtext, diag)) == SG_OK)
            ref_sent = true;
        if (st == SG_OK)
            st = sg_worker_stream_wait(fz->cand, &v->cand, &open, diag);
    }
    free(text);
    if (st == SG_OK) {
        const sg_outcome_info *ci = sg_outcome_info_get(v->cand);
        if (ci->kind == SG_OUTCOME_SETUP_ERROR)
            st = fz__setup_failed(v->cand, diag);
        else
            v->kind = fz__classify(fz, ci);
    }
    bool need_ref = st == SG_OK && fz->ref &&
                    !(v->kind == FZ_NONE && sg_outcome_info_get(v->cand)->kind != SG_OUTCOME_OK);
    if (ref_sent) {
        sg_outcome *ro = NULL;
        sg_status rs = sg_worker_stream_wait(fz->ref, &ro, &open, diag);
        if (st == SG_OK)
            st = rs;
        if (need_ref && rs == SG_OK)
            v->ref = ro;
        else
            sg_outcome_free(ro);
    } else if (need_ref) {
        st = sg_worker_call(fz->ref, rtext, &fz->input_limits, &v->ref, diag);
    }
    free(rtext);
    if (st != SG_OK || !need_ref)
        return st;
    const sg_outcome_info *ci = sg_outcome_info_get(v->cand), *ri = sg_outcome_info_get(v->ref);
    if (ri->kind == SG_OUTCOME_SETUP_ERROR)
        return fz__setup_failed(v->ref, diag);
    if (ri->kind != SG_OUTCOME_OK) {
        v->kind = FZ_DISCARD; /* the reference rejects this input */
        return SG_OK;
    }
    if (v->kind == FZ_NONE) {
        v->why = fz__differs(fz, ci, ri, &st);
        if (v->why)
            v->kind = FZ_DIFFERS;
    }
    return st;
}

static bool fz__same(const sg_fuzz *fz, const fz_verdict *v)
{
    if (v->kind != fz->want_kind)
        return false;
    if (v->kind != FZ_EXCEPTION)
        return true;
    const char *e = sg_outcome_info_get(v->cand)->exc_type;
    return e && fz->want_exc && !strcmp(e, fz->want_exc);
}

static double fz__elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static sg_status fz__shrink_pred(void *ctx, const sg_value *args, bool *ret)
{
    sg_fuzz *fz = ctx;
    *ret = false;
    if (fz__elapsed(&fz->shrink_t0) > fz->opts.max_shrink_seconds || fz->shrink_timeouts >= FZ_SHRINK_MAX_TIMEOUTS)
        return SG_OK; /* out of time, or of timeouts: keep what we have */
    /* in the streams (fast); the shrunk input is replayed alone before it is reported */
    fz_verdict v;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = fz__judge(fz, args, fz->shrink_kwargs, false, &v, &d);
    if (st == SG_OK && v.cand && sg_outcome_info_get(v.cand)->kind == SG_OUTCOME_TIMEOUT)
        fz->shrink_timeouts++;
    if (st == SG_OK)
        *ret = fz__same(fz, &v);
    fz__verdict_clear(&v);
    return st;
}

/* Keep the finding: the (shrunk) input and what its replay alone showed. */
static sg_status fz__record(sg_fuzz *fz, const sg_value *args, const sg_value *kwargs, const fz_verdict *v)
{
    fz__finding_free(fz);
    fz->found = true;
    fz->fkind = v->kind;
    const sg_outcome_info *ci = sg_outcome_info_get(v->cand);
    const sg_outcome_info *ri = v->ref ? sg_outcome_info_get(v->ref) : NULL;
    sg_buf b;
    sg_buf_init(&b, 1 << 20);
    sg_value_encode(args, &b);
    sg_buf_puts(&b, "");
    fz->f_args_json = b.failed ? NULL : b.data;
    if (kwargs->n) {
        sg_buf kb;
        sg_buf_init(&kb, 1 << 20);
        sg_value_encode(kwargs, &kb);
        sg_buf_puts(&kb, "");
        if (!(fz->f_kwargs_json = kb.failed ? NULL : kb.data))
            return SG_ERR_NOMEM;
    }
    fz->f_input = fz__call_text(fz, args, kwargs, false);
    fz->f_exc_type = fz__strdup(ci->exc_type);
    fz->f_exc_message = fz__strdup(ci->exc_message);
    fz->f_traceback = fz__strdup(ci->traceback);
    fz->f_exc_line = ci->exc_line;
    fz->f_got = fz__strdup(ci->value_repr);
    fz->f_expected = ri ? fz__strdup(ri->value_repr) : NULL;
    const char *detail = v->why ? v->why
                         : ci->kind == SG_OUTCOME_FORBIDDEN_SYSCALL ? ci->syscall
                         : ci->kind == SG_OUTCOME_TIMEOUT            ? ci->timeout_kind
                                                                     : ci->detail;
    fz->f_detail = fz__strdup(detail ? detail : "");
    if (!fz->f_args_json || !fz->f_input || !fz->f_detail)
        return SG_ERR_NOMEM;
    return SG_OK;
}

/* A finding from the stream: confirm it alone, shrink it, keep it. *ret_kept: it held. */
static sg_status fz__confirm(sg_fuzz *fz, sg_value **args, const sg_value *kwargs, const fz_verdict *seen,
                             bool *ret_kept, sg_diag *diag)
{
    *ret_kept = false;
    fz->want_kind = seen->kind;
    free(fz->want_exc);
    fz->want_exc = fz__strdup(sg_outcome_info_get(seen->cand)->exc_type);
    fz_verdict v;
    sg_status st = fz__judge(fz, *args, kwargs, true, &v, diag);
    bool same = st == SG_OK && fz__same(fz, &v);
    fz__verdict_clear(&v);
    if (st != SG_OK || !same) {
        if (st == SG_OK)
            fz->unconfirmed++;
        return st;
    }
    fz->f_found_s = fz__elapsed(&fz->t0);
    fz->f_found_execs = fz->execs;
    clock_gettime(CLOCK_MONOTONIC, &fz->shrink_t0);
    fz->shrink_timeouts = 0;
    unsigned calls = 0;
    unsigned budget = fz->want_kind == FZ_HANG || fz->want_kind == FZ_MEMORY ? fz->opts.max_shrink_calls / 10
                                                                              : fz->opts.max_shrink_calls;
    sg_value *orig = sg_value_copy(*args);
    if (!orig)
        return SG_ERR_NOMEM;
    fz->shrink_kwargs = kwargs;
    st = sg_shrink(args, fz->types, fz->ntypes, true, fz__shrink_pred, fz, budget, &calls);
    fz->shrink_kwargs = NULL;
    fz->f_shrink_calls = calls;
    /* the shrunk input replayed alone is what the verdict shows; if it does not hold there (the
     * stream's shared state helped), the confirmed input is reported as it was */
    if (st == SG_OK)
        st = fz__judge(fz, *args, kwargs, true, &v, diag);
    if (st == SG_OK && !fz__same(fz, &v)) {
        fz__verdict_clear(&v);
        sg_value_free(*args);
        *args = orig;
        orig = NULL;
        st = fz__judge(fz, *args, kwargs, true, &v, diag);
        if (st == SG_OK && !fz__same(fz, &v))
            v.kind = fz->want_kind; /* flaky: the confirmation held once; say what it was */
    }
    sg_value_free(orig);
    if (st != SG_OK)
        return st;
    st = fz__record(fz, *args, kwargs, &v);
    fz__verdict_clear(&v);
    *ret_kept = st == SG_OK;
    return st;
}

/* A str operand (UTF-8 bytes) as a str argument holds it in an input (golden_tasks/gen.c): its
 * NULs as C0 80, then the 0 that ends it. `out` holds 2 * n + 1 bytes; returns the length. */
static size_t fz__stream_str(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t o = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] == 0) {
            out[o++] = 0xC0;
            out[o++] = 0x80;
        } else {
            out[o++] = s[k];
        }
    }
    out[o++] = 0;
    return o;
}

/* Trust boundary: the coverage map is written by the candidate's process. Copy, then read only
 * the copy, with every count and length bounded. */
static void fz__feedback(sg_fuzz *fz, const uint8_t *data, size_t size, uint8_t *counters, const sg_fuzz_hooks *hooks)
{
    memcpy(&fz->snap, fz->map, sizeof fz->snap);
    counters[0] = 1; /* the constant entry counter: every input has a feature */
    memcpy(counters + 1, fz->snap.edges, SG_COV_EDGES);
    for (size_t k = 0; k < SG_COV_EDGES; k++)
        fz->edges_seen[k] |= fz->snap.edges[k] != 0;
    for (size_t k = 0; k < SG_COV_LINES; k++)
        fz->lines_seen[k] |= fz->snap.lines[k] != 0;
    if (!hooks)
        return;
    uint32_t n = fz->snap.ncmp < SG_COV_CMPS ? fz->snap.ncmp : SG_COV_CMPS;
    for (uint32_t k = 0; k < n; k++) {
        const struct sg_cov_cmp *c = &fz->snap.cmps[k];
        if (c->la > SG_COV_CMP_BYTES || c->lb > SG_COV_CMP_BYTES)
            continue;
        if (c->kind == SG_COV_CMP_INT && c->la == 8 && c->lb == 8 && hooks->cmp_int) {
            uint64_t a = 0, b = 0;
            for (int i = 0; i < 8; i++) {
                a |= (uint64_t)c->a[i] << (8 * i);
                b |= (uint64_t)c->b[i] << (8 * i);
            }
            hooks->cmp_int(hooks->ctx, a, b);
        } else if (c->kind == SG_COV_CMP_STR && hooks->cmp_bytes) {
            /* Where one operand sits in the input (as a str argument: its bytes, NULs as C0 80,
             * then the 0 that ends it), the other is what the fuzzer may try there, encoded
             * the same way, terminator included. */
            for (int side = 0; side < 2; side++) {
                const uint8_t *x = side ? c->b : c->a, *y = side ? c->a : c->b;
                uint8_t pat[2 * SG_COV_CMP_BYTES + 1], want[2 * SG_COV_CMP_BYTES + 1];
                size_t lp = fz__stream_str(x, side ? c->lb : c->la, pat);
                size_t lw = fz__stream_str(y, side ? c->la : c->lb, want);
                const uint8_t *at = lp <= size ? memmem(data, size, pat, lp) : NULL;
                if (!at)
                    continue;
                size_t room = size - (size_t)(at - data), m = lw < room ? lw : room;
                if (m > 1)
                    hooks->cmp_bytes(hooks->ctx, at, want, m);
                break;
            }
        }
    }
}

sg_status sg_fuzz_run_one(sg_fuzz *fz, const uint8_t *data, size_t size, uint8_t *counters, const sg_fuzz_hooks *hooks,
                          bool *ret_finding, sg_diag *diag)
{
    if (!fz || (!data && size) || !counters || !ret_finding)
        return SG_ERR_INVALID_ARG;
    *ret_finding = false;
    memset(counters, 0, sg_fuzz_counters());
    if (fz->found) {
        *ret_finding = true;
        return SG_OK;
    }
    sg_value *args = NULL, *kwargs = NULL;
    sg_status st = fz__decode(fz, data, size, &args, &kwargs);
    if (st != SG_OK)
        return st;
    if (!args) {
        fz->discarded++;
        counters[0] = 1;
        return SG_OK;
    }
    memset(fz->map, 0, sizeof *fz->map);
    fz_verdict v;
    st = fz__judge(fz, args, kwargs, false, &v, diag);
    fz->execs++;
    fz__feedback(fz, data, size, counters, hooks);
    if (st == SG_OK) {
        if (v.kind == FZ_DISCARD)
            fz->discarded++;
        else if (v.kind != FZ_NONE)
            st = fz__confirm(fz, &args, kwargs, &v, ret_finding, diag);
    }
    fz__verdict_clear(&v);
    sg_value_free(args);
    sg_value_free(kwargs);
    return st;
}

/* ---- seeds and dictionary ----------------------------------------------------------------- */

sg_status sg_fuzz_seeds(sg_fuzz *fz, sg_status (*each)(void *ctx, const uint8_t *bytes, size_t n), void *ctx)
{
    const sg_golden_task *t = fz->task;
    unsigned max = t->fuzz_has_max_size ? t->fuzz_max_size : UINT32_MAX;
    for (size_t k = 0; k < t->ncases + t->nfuzz_seeds; k++) {
        const sg_value *a = k < t->ncases ? t->cases[k].args : t->fuzz_seeds[k - t->ncases];
        const sg_value *kw = k < t->ncases ? t->cases[k].kwargs : NULL;
        if (a->n != fz->ntypes)
            continue;
        sg_buf b;
        sg_buf_init(&b, 1 << 20);
        sg_status st = SG_OK;
        for (size_t i = 0; i < a->n && st == SG_OK; i++)
            st = sg_gen_encode(fz->types[i], a->items[i], max, &b);
        /* the keyword arguments as fz__decode reads them; one the stage does not generate (or a
         * required one missing) makes the example no seed */
        size_t used = 0;
        for (size_t i = 0; i < fz->kw.n && st == SG_OK; i++) {
            const sg_golden_kwparam *p = &fz->kw.items[i];
            const sg_value *val = NULL;
            for (size_t j = 0; kw && j < kw->n && !val; j++)
                if (kw->items[2 * j]->len == strlen(p->name) && !memcmp(kw->items[2 * j]->s, p->name, strlen(p->name)))
                    val = kw->items[2 * j + 1];
            used += val != NULL;
            if (!p->required)
                sg_buf_append(&b, val ? "\1" : "\0", 1);
            if (val)
                st = sg_gen_encode(p->type, val, max, &b);
            else if (p->required)
                st = SG_ERR_INVALID_ARG;
        }
        if (st == SG_OK && kw && used != kw->n)
            st = SG_ERR_INVALID_ARG;
        if (st == SG_OK && b.len && !b.truncated)
            st = each(ctx, (const uint8_t *)b.data, b.len);
        else if (st == SG_ERR_INVALID_ARG)
            st = SG_OK; /* an example that does not fit the types: not a seed */
        sg_buf_free(&b);
        if (st != SG_OK)
            return st;
    }
    return SG_OK;
}

/* One dictionary entry: "bytes" with \xNN escapes. */
static void fz__dict_entry(sg_buf *out, const uint8_t *p, size_t n)
{
    sg_buf_puts(out, "\"");
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
            sg_buf_append(out, (const char *)&p[i], 1);
        else
            sg_buf_printf(out, "\\x%02X", p[i]);
    }
    sg_buf_puts(out, "\"\n");
}

/* The code point of a str literal's escape at p (after the backslash); advances p. */
static uint32_t fz__escape(const char **pp)
{
    const char *p = *pp;
    char e = *p++;
    uint32_t cp = (unsigned char)e;
    int hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (hex) {
        uint32_t v = 0;
        int k = 0;
        for (; k < hex && isxdigit((unsigned char)p[k]); k++)
            v = v * 16 + (uint32_t)(isdigit((unsigned char)p[k]) ? p[k] - '0' : (p[k] | 32) - 'a' + 10);
        if (k == hex) {
            cp = v;
            p += k;
        }
    } else if (e >= '0' && e <= '7') {
        cp = (uint32_t)(e - '0');
        for (int k = 0; k < 2 && *p >= '0' && *p <= '7'; k++)
            cp = cp * 8 + (uint32_t)(*p++ - '0');
    } else {
        cp = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : cp;
    }
    *pp = p;
    return cp;
}

/* The str and int literals of a Python source, as inputs encode them (a lexer good enough for
 * constants: comments skipped, escapes decoded, a NUL as C0 80 as a str argument holds it,
 * f-strings and long literals ignored). */
static void fz__scan(const char *src, sg_buf *out, unsigned *count)
{
    const char *p = src;
    while (*p && *count < FZ_DICT_MAX) {
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        bool ident_before = p > src && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if ((*p == '\'' || *p == '"') && !(p > src && ((p[-1] | 32) == 'f'))) {
            char q = *p;
            bool triple = p[1] == q && p[2] == q;
            p += triple ? 3 : 1;
            uint8_t lit[SG_COV_CMP_BYTES + 4];
            size_t n = 0;
            bool ok = true;
            while (*p && !(triple ? (p[0] == q && p[1] == q && p[2] == q) : *p == q)) {
                char ch = *p++;
                if (!triple && ch == '\n') {
                    ok = false;
                    break;
                }
                uint32_t cp = (unsigned char)ch;
                bool esc = ch == '\\' && *p;
                if (esc)
                    cp = fz__escape(&p);
                if (n + 4 > SG_COV_CMP_BYTES || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                    ok = false;
                else if (!esc && cp != 0)
                    lit[n++] = (uint8_t)cp; /* (a source byte as it is: UTF-8 stays UTF-8) */
                else
                    n += sg_gen_choice_char(cp, (char *)lit + n);
            }
            if (*p)
                p += triple ? 3 : 1;
            if (ok && n > 0 && n <= 32) {
                lit[n] = 0;
                fz__dict_entry(out, lit, n + 1);
                (*count)++;
            }
            continue;
        }
        if (*p >= '0' && *p <= '9' && !ident_before) {
            char *end = NULL;
            errno = 0;
            long long v = strtoll(p, &end, 0);
            if (end && end != p && errno == 0 && *end != '.' && (*end | 32) != 'e' && (*end | 32) != 'j') {
                uint8_t le[8];
                for (int i = 0; i < 8; i++)
                    le[i] = (uint8_t)(((unsigned long long)v >> (8 * i)) & 0xff);
                if (v > 1 || v < -1) {
                    fz__dict_entry(out, le, 8);
                    (*count)++;
                }
                p = end;
                continue;
            }
            while (*p >= '0' && *p <= '9')
                p++;
            continue;
        }
        p++;
    }
}

sg_status sg_fuzz_dictionary(const sg_fuzz *fz, char **ret_text)
{
    sg_buf b;
    sg_buf_init(&b, 1 << 20);
    sg_buf_puts(&b, "# constants of the candidate and the reference (snipgate fuzz stage)\n");
    unsigned count = 0;
    fz__scan(fz->cand_src, &b, &count);
    if (fz->ref_src)
        fz__scan(fz->ref_src, &b, &count);
    if (b.failed) {
        sg_buf_free(&b);
        return SG_ERR_NOMEM;
    }
    *ret_text = b.data;
    return SG_OK;
}

/* ---- result ------------------------------------------------------------------------------- */

static json_t *fz__jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

sg_status sg_fuzz_result_json(const sg_fuzz *fz, char **ret_json)
{
    size_t edges = 0, lines = 0, total = 0;
    for (size_t k = 0; k < SG_COV_EDGES; k++)
        edges += fz->edges_seen[k];
    for (const char *p = fz->cand_src; *p; p++)
        total += *p == '\n';
    if (*fz->cand_src && fz->cand_src[strlen(fz->cand_src) - 1] != '\n')
        total++;
    for (size_t k = 1; k < SG_COV_LINES && k <= total; k++) /* (the map is the candidate's to scribble on) */
        lines += fz->lines_seen[k];
    json_t *finding = json_null();
    if (fz->found)
        finding = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:I, s:f, s:I}", "kind",
                            fz__kind_names[fz->fkind], "input", fz__jstr(fz->f_input), "args_json",
                            fz__jstr(fz->f_args_json), "kwargs_json", fz__jstr(fz->f_kwargs_json), "exc_type",
                            fz__jstr(fz->f_exc_type), "exc_message",
                            fz__jstr(fz->f_exc_message), "exc_line", (json_int_t)fz->f_exc_line, "traceback",
                            fz__jstr(fz->f_traceback), "got", fz__jstr(fz->f_got), "expected",
                            fz__jstr(fz->f_expected), "detail", fz__jstr(fz->f_detail), "shrink_calls",
                            (json_int_t)fz->f_shrink_calls, "found_after_s", fz->f_found_s, "found_after_execs",
                            (json_int_t)fz->f_found_execs);
    unsigned starts = sg_worker_starts(fz->cand);
    json_t *j = finding ? json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "finding", finding, "execs",
                                    (json_int_t)fz->execs, "discarded", (json_int_t)fz->discarded, "unconfirmed",
                                    (json_int_t)fz->unconfirmed, "edges", (json_int_t)edges, "lines",
                                    (json_int_t)lines, "lines_total", (json_int_t)total, "restarts",
                                    (json_int_t)(starts ? starts - 1 : 0))
                        : NULL;
    char *s = j ? sg_json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s)
        return SG_ERR_NOMEM;
    *ret_json = s;
    return SG_OK;
}
