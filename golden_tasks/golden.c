/* Stage 3 driver: structured cases, asserts, properties, shrinking (golden.h). */
#include "base/util.h"
#include "golden_tasks/golden.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

#include "golden_tasks/annot.h"
#include "golden_tasks/evalplus.h"
#include "golden_tasks/gen.h"
#include "golden_tasks/shrink.h"

const TSLanguage *tree_sitter_python(void);

#define GOLDEN_MAX_CASES 200000u
#define GOLDEN_TEXT_CAP (SG_WORKER_MAX_CALL_BYTES)
#define GOLDEN_REPR_CAP 4096

struct sg_golden_result {
    sg_golden_verdict verdict;
    char error[512];
    SG_ARRAY(sg_golden_case_result) cases;
    sg_arena *arena;
    size_t cases_run, cases_passed, inputs_checked, inputs_discarded, calls;
    size_t discarded_by[SG_DISCARD_COUNT];
    size_t eff_checked;   /* scaled inputs whose cost was judged (golden__efficiency) */
    unsigned eff_scale;   /* the largest scale among them (0: the task's own inputs only) */
    uint64_t seed;
    long counterexample;
    uint64_t cx_size; /* sg_value_size of the counterexample's arguments */
};

void sg_golden_opts_init(sg_golden_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->max_shrink_calls = 1500;
    opts->max_shrink_seconds = 10;
}

const char *sg_golden_verdict_name(sg_golden_verdict v)
{
    return v == SG_GOLDEN_PASS ? "pass" : v == SG_GOLDEN_FAIL ? "fail" : "error";
}

/* ---- the run ------------------------------------------------------------------------------ */

/* A call text whose outcome was computed ahead, in a batch (golden__prefetch). */
#define GOLDEN_EFF_ITEMS 32u /* scaled inputs (golden__efficiency), at most */

typedef struct golden__pf {
    sg_worker *w;
    char *text;
    sg_outcome *o; /* NULL: only wanted (collect mode) */
    const sg_value *args; /* a generated input's reference call: its arguments (borrowed from
                           * the block; golden__prefetch fences them), else NULL */
    sg_value *view;       /* computed: the value of `text` taken from a combined item (below),
                           * used instead of the outcome's own value; else NULL */
    /* wanted: a combined item (golden__combined_text), one call of the candidate that answers
     * both its call `split_call` and its argument check `split_mt`; else both NULL */
    char *split_call, *split_mt;
    /* a scaled input of golden__efficiency sent with the last block (golden__eff_want_*): its
     * event budget and 1 + its index there; else 0, 0 */
    uint64_t budget;
    size_t eff;
} golden__pf;

typedef struct golden__run {
    const sg_golden_task *task;
    sg_golden_opts opts;
    const char *entry;        /* the function under test */
    sg_worker *cand, *ref;
    /* With a pool: the programs, and workers of the run's own once shrinking starts
     * (golden__unpool); they are freed at the end, the pool's stay warm. */
    const sg_sandbox *sandbox;
    const char *progs[2];     /* [0] candidate, [1] reference */
    sg_worker *own[2];
    bool unpooled;            /* the run's own workers are in use (or being started) */
    bool unpool_tried;
    sg_sandbox_limits lim;
    sg_golden_result *r;
    bool failed_internal;     /* an internal error happened: the verdict is error */
    sg_type **types;          /* argument types for generation (signature or inferred) */
    size_t ntypes;
    bool inferred;            /* types are ours to free (from annotations or inferred) */
    sg_golden_kwparams kw;    /* keyword arguments for generation (signature.kwargs or annotations) */
    const char *ref_src, *cand_src; /* for annotations */
    struct timespec t0;
    long pre_lines;           /* candidate program lines before the candidate text */
    long cand_lines;          /* lines of the candidate text */
    /* Batching: calls whose texts are known ahead run in one call child per batch
     * (sg_worker_call_batch, ~50x cheaper than a fork per call); golden__call takes their
     * outcomes from `pf`. In collect mode the assert runners only record the texts they will
     * call (`want`), so they can be batched before the real pass. */
    SG_ARRAY(golden__pf) pf;
    SG_ARRAY(golden__pf) want;
    bool collect;
    /* The scaled inputs of golden__efficiency sent with the last block of generated inputs (one
     * call of each worker fewer): armed by that block's flush; the outcomes kept for
     * golden__efficiency, which calls on its own for what is missing (or bad: then both) */
    bool eff_arm;
    struct {
        size_t n, cn;                       /* the reference's items, the candidate's */
        char *text[GOLDEN_EFF_ITEMS];       /* the reference's texts (golden__eff_items' order) */
        sg_outcome *ref[GOLDEN_EFF_ITEMS], *cand[GOLDEN_EFF_ITEMS];
        size_t nref, ncand;                 /* outcomes kept */
        bool bad;
    } effm;
    bool asserts_ahead;       /* the asserts' calls were sent before the imports were judged */
    TSTree *he_tree;          /* HumanEval's test, parsed once (golden__humaneval_check) */
    TSNode he_body;
    bool he_split;
    /* The task's own example inputs written in asserts (HumanEval's check, MBPP's test_list):
     * each call of the function under test is evaluated once more by the reference with a
     * recorder in its place, batched with the asserts' calls (golden__want_example), and its
     * arguments become examples for type inference, seeds and mutations (golden__take_examples).
     * The candidate never evaluates them. */
    SG_ARRAY(char *) ex_texts;
    SG_ARRAY(sg_value *) ex_args;
    /* Generated inputs (properties, shrinking): the reference answers them within gen_lim, or
     * the input is discarded; after GOLDEN_MAX_REF_TIMEOUTS such timeouts the search ends (the
     * generated domain is too large for this reference; the inputs checked so far stand). */
    bool generated;
    sg_sandbox_limits gen_lim;
    unsigned ref_timeouts;
    /* Generated inputs the reference timed out on: a later input at least as large in every
     * argument (golden__dominates) is discarded without a call (golden__fenced). */
    SG_ARRAY(sg_value *) fence;
    bool judging_block; /* golden__try_input checks a block's input: GOLDEN_REF_DONE may end it */
    /* A timeout of the candidate (cpu or wall) on any call ends its run (docs/tasks.md, "A
     * candidate that times out"): no call of the candidate is made after it. Outcomes computed
     * before it (a batch's earlier items) are still judged; whatever needs a new call of the
     * candidate ends its stage (GOLDEN_STOPPED). The input that timed out is reported
     * (criterion sandbox-timeout), never shrunk: one timed-out call per candidate and run. */
    bool cand_stopped;
    bool stop_consumed;       /* the timed-out outcome was judged, and so recorded as a failure */
    long stop_case;           /* the case that reports it (index in r->cases), or -1 */
    char *stop_text;          /* the call text that timed out */
    char stop_kind[16];       /* "cpu", "wall" */
} golden__run;

/* What golden__call returns when a new call of a stopped candidate would be needed: the end of
 * the stage, not an error (golden__stage_end). Never set with failed_internal. */
#define GOLDEN_STOPPED SG_ERR_INTERRUPTED
/* A generated input whose reference call was not computed ahead, after the reference's last
 * allowed timeout (golden__ref_exhausted): the search ends before it (golden__block_flush). */
#define GOLDEN_REF_DONE ((sg_status)1000)

#define GOLDEN_MAX_REF_TIMEOUTS 4u
#define GOLDEN_GEN_REF_CPU_MS 100u

typedef enum { GR_VALUE, GR_RAISE, GR_TIMEOUT, GR_NOENC, GR_OTHER } golden__rk;

typedef struct golden__res {
    golden__rk kind;
    sg_value *value;
    sg_outcome *o;
    const sg_outcome_info *info;
    bool stop; /* the candidate's timeout that stopped it (golden__run.cand_stopped) */
} golden__res;

static void golden__res_free(golden__res *res)
{
    sg_value_free(res->value);
    sg_outcome_free(res->o);
    memset(res, 0, sizeof *res);
}

static double golden__elapsed(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A generated input discarded (not a failure), counted with its reason. */
static void golden__discard(golden__run *g, sg_golden_discard why)
{
    g->r->inputs_discarded++;
    g->r->discarded_by[(unsigned)why < SG_DISCARD_COUNT ? why : SG_DISCARD_REFERENCE_TIMEOUT]++;
}

static void golden__internal(golden__run *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void golden__internal(golden__run *g, const char *fmt, ...)
{
    if (!g->failed_internal) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->r->error, sizeof g->r->error, fmt, ap);
        va_end(ap);
    }
    g->failed_internal = true;
}

/* The caller's cancel flag is set: recorded once as the internal error that ends the run. */
static bool golden__cancelled(golden__run *g)
{
    if (!g->opts.cancel || !atomic_load(g->opts.cancel))
        return false;
    golden__internal(g, "cancelled by the caller before a verdict (a time budget ran out)");
    return true;
}

static const char *golden__dup(golden__run *g, const char *s)
{
    return s ? sg_arena_strdup(g->r->arena, s) : NULL;
}

static const char *golden__repr(golden__run *g, const sg_value *v)
{
    sg_buf b;
    sg_buf_init(&b, GOLDEN_REPR_CAP);
    sg_value_repr(v, &b);
    if (b.truncated)
        sg_buf_puts(&b, "...");
    const char *s = golden__dup(g, b.data ? b.data : "");
    sg_buf_free(&b);
    return s;
}

#define GOLDEN_BATCH_ITEMS 256u
/* Texts per worker call (within SG_WORKER_MAX_CALL_BYTES): a block's candidate calls and their
 * argument checks (two texts per input) in one call of the candidate's worker. */
#define GOLDEN_CALL_ITEMS (2 * GOLDEN_BATCH_ITEMS)

/* The limits of a call in worker w: the task's, except the reference's on generated inputs. */
static const sg_sandbox_limits *golden__lim(const golden__run *g, const sg_worker *w)
{
    return g->generated && w == g->ref ? &g->gen_lim : &g->lim;
}

/*
 * The reference's answer to a generated input, settled by its Python events where its time would
 * decide (docs/tasks.md, "Generated inputs"): whether an input is checked or discarded as
 * reference_timeout, and with it the fence, the tightened types and the reference's timeout
 * count, must not change with the load of the machine. A first, uncounted call (gen_lim, CPU
 * 100 ms) that answers stands. One that times out is asked again, counted (the tracer's C
 * counter): past GOLDEN_REF_EVENTS events it is a timeout (kind "events"); within them its answer
 * stands, unless the call also spent more CPU than GOLDEN_GEN_REF_CPU_MS plus
 * GOLDEN_REF_NS_PER_EVENT per event (work inside builtins, which no event counts: the 100 ms
 * bound, for that part only; traced Python code stays below it), or unless it counted fewer than
 * GOLDEN_REF_NATIVE_EVENTS and its first call ran out of CPU time (then that timeout stands: a
 * call that few events cannot spend 100 ms in Python code alone). So a reference near 100 ms
 * gets the same answer whether its first call finished or not: within 110 ms no Python code
 * runs more than GOLDEN_REF_EVENTS events unless its events average under 9 ns (only a loop
 * whose body is next to nothing: `for i in r: pass` is 6.7 ns an event here; a small recursive
 * function, four events a call, ~10 ns; ordinary lines 20-50 ns), and work inside builtins stays
 * judged by its time, as before. The price: a reference that needs more than 100 ms is asked
 * twice, the second time counted (3-5x slower), and one within the events is kept, so its input
 * is checked (both sides compute it) where it used to be discarded.
 */
#define GOLDEN_REF_EVENTS 12000000u
#define GOLDEN_REF_NS_PER_EVENT 300u
/* Fewer events than this cannot take 100 ms of CPU as Python code alone (that needs over 100 ns
 * an event; ordinary lines take 20-50): a first call that ran out of CPU with fewer spent it in
 * builtins, and its timeout stands (one measurement near the bound, as before, not two) */
#define GOLDEN_REF_NATIVE_EVENTS 1000000u

static bool golden__ref_unsettled(const sg_outcome_info *in)
{
    /* (counted already: settled, or a scaled input of the efficiency check) */
    return in->kind == SG_OUTCOME_TIMEOUT && !in->has_cost;
}

/* Settle the reference's outcome *o of `text` on a generated input (above); *o is replaced. A
 * call that cannot be made is an error (the caller reports it; nothing is decided). */
static sg_status golden__ref_settle(golden__run *g, sg_worker *w, const char *text, sg_outcome **o, sg_diag *d)
{
    if (!g->generated || w != g->ref || !*o || !golden__ref_unsettled(sg_outcome_info_get(*o)))
        return SG_OK;
    sg_sandbox_limits lim = *golden__lim(g, w);
    uint64_t cap = GOLDEN_GEN_REF_CPU_MS + (uint64_t)GOLDEN_REF_EVENTS * GOLDEN_REF_NS_PER_EVENT / 1000000u;
    lim.cpu_ms = cap;
    lim.wall_ms = 3 * cap + 1000;
    lim.cost_events = GOLDEN_REF_EVENTS;
    lim.cost_cpu_ms = GOLDEN_GEN_REF_CPU_MS; /* (the same bound, checked as the call goes) */
    lim.cost_cpu_ns_per_event = GOLDEN_REF_NS_PER_EVENT;
    sg_outcome *again = NULL;
    sg_status st = sg_worker_call(w, text, &lim, &again, d);
    if (st != SG_OK)
        return st;
    g->r->calls++;
    const sg_outcome_info *in = sg_outcome_info_get(again);
    const sg_outcome_info *first = sg_outcome_info_get(*o);
    bool over = in->has_cost && in->cost > GOLDEN_REF_EVENTS;
    if (!over && in->has_cost && in->cost < GOLDEN_REF_NATIVE_EVENTS && first->timeout_kind &&
        !strcmp(first->timeout_kind, "cpu")) {
        /* too few events to have used 100 ms of CPU on their own: builtins' work, which only
         * its time measures; the first call's CPU timeout stands */
        sg_outcome_free(again);
        return SG_OK;
    }
    if (!over && in->has_cost && (in->kind == SG_OUTCOME_OK || in->kind == SG_OUTCOME_EXCEPTION) &&
        in->cpu_ms > GOLDEN_GEN_REF_CPU_MS + in->cost * GOLDEN_REF_NS_PER_EVENT / 1000000u)
        over = true; /* (builtins' work past the old bound) */
    if (over) {
        sg_outcome *t = NULL;
        st = sg_outcome_new_events_timeout(again, &t);
        sg_outcome_free(again);
        if (st != SG_OK)
            return st;
        again = t;
    } else if (!in->has_cost && in->kind != SG_OUTCOME_TIMEOUT) {
        /* no count: the call ended otherwise (out of memory, a crash); the reference did not
         * answer within its limits, as its first call said */
        sg_outcome_free(again);
        return SG_OK;
    }
    sg_outcome_free(*o);
    *o = again;
    return SG_OK;
}

/* Our own int bounds (types from annotations or examples) shrink tenfold, down to -10..10. */
static void golden__tighten(sg_type *t, int depth)
{
    if (!t || depth > 64)
        return;
    if (t->kind == SG_TY_INT && t->has_lo && t->has_hi && t->ilo < -10 && t->ihi > 10) {
        t->ilo = t->ilo / 10 < -10 ? t->ilo / 10 : -10;
        t->ihi = t->ihi / 10 > 10 ? t->ihi / 10 : 10;
    }
    for (size_t k = 0; k < t->n; k++)
        golden__tighten(t->items[k], depth + 1);
}

/* The candidate timed out on call `text`: it is stopped (golden__run.cand_stopped). */
static void golden__stop(golden__run *g, const char *text, const sg_outcome_info *info)
{
    if (g->cand_stopped)
        return;
    g->cand_stopped = true;
    g->stop_text = strdup(text ? text : "");
    snprintf(g->stop_kind, sizeof g->stop_kind, "%s", info->timeout_kind ? info->timeout_kind : "?");
}

/* Is the candidate stopped and `text` not among its outcomes computed ahead (a call would be
 * needed)? */
static bool golden__cand_blocked(const golden__run *g, const char *text);

/* st, with a stopped candidate's GOLDEN_STOPPED read as the end of the stage (SG_OK). */
static sg_status golden__stage_end(const golden__run *g, sg_status st)
{
    return st == GOLDEN_STOPPED && g->cand_stopped && !g->failed_internal ? SG_OK : st;
}

/* A call's outcome: a timeout of the candidate stops it; a reference timeout on a generated
 * input is counted, and where the types are ours, the numbers generated next are smaller (a
 * reference like prime_fib(n) is only fast for small n). */
static void golden__count_timeout(golden__run *g, const sg_worker *w, const sg_outcome *o, const char *text)
{
    if (o && w == g->cand && sg_outcome_info_get(o)->kind == SG_OUTCOME_TIMEOUT)
        golden__stop(g, text, sg_outcome_info_get(o));
    if (!g->generated || w != g->ref || !o || sg_outcome_info_get(o)->kind != SG_OUTCOME_TIMEOUT)
        return;
    g->ref_timeouts++;
    for (size_t k = 0; g->inferred && k < g->ntypes; k++)
        golden__tighten(g->types[k], 0);
}

static bool golden__ref_exhausted(const golden__run *g)
{
    return g->generated && g->ref_timeouts >= GOLDEN_MAX_REF_TIMEOUTS;
}

static void golden__pf_clear(golden__run *g)
{
    for (size_t k = 0; k < g->pf.len; k++) {
        free(g->pf.items[k].text);
        sg_outcome_free(g->pf.items[k].o);
        sg_value_free(g->pf.items[k].view);
    }
    g->pf.len = 0;
}

static void golden__want_clear(golden__run *g)
{
    for (size_t k = 0; k < g->want.len; k++) {
        free(g->want.items[k].text);
        free(g->want.items[k].split_call);
        free(g->want.items[k].split_mt);
    }
    g->want.len = 0;
}

/* Record a text to run ahead (collect mode); NULL text or out of memory: just not batched. */
static void golden__eff_keep(golden__run *g, const sg_worker *w, size_t idx, sg_outcome *o);
static void golden__eff_want_ref(golden__run *g);
static void golden__eff_want_cand(golden__run *g);
static void golden__eff_unkeep(golden__run *g);

static void golden__want(golden__run *g, sg_worker *w, const char *text)
{
    if (!w || !text)
        return;
    char *t = strdup(text);
    if (!t || sg_array_push(&g->want, ((golden__pf){w, t, NULL, NULL, NULL, NULL, NULL, 0, 0}), 0) < 0)
        free(t);
}

/* A generated input's size, argument by argument: |n| for numbers, the length for strings, the
 * elements and their sizes for containers (a reference's time mostly grows with these). */
static double golden__size(const sg_value *v, int depth)
{
    if (!v || depth > 32)
        return 0;
    switch (v->kind) {
    case SG_VAL_BOOL:
        return v->b;
    case SG_VAL_INT:
        if (v->big) {
            size_t digits = strlen(v->big) - (v->big[0] == '-');
            return digits > 300 ? 1e300 : pow(10.0, (double)digits - 1);
        }
        return fabs((double)v->i);
    case SG_VAL_FLOAT:
        return isnan(v->f) ? 0 : isinf(v->f) ? 1e300 : fabs(v->f);
    case SG_VAL_COMPLEX:
        return (isfinite(v->f) ? fabs(v->f) : 1e300) + (isfinite(v->im) ? fabs(v->im) : 1e300);
    case SG_VAL_STR:
    case SG_VAL_BYTES:
        return (double)v->len;
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
    case SG_VAL_SET:
    case SG_VAL_DICT: {
        double t = (double)v->n;
        for (size_t k = 0; k < sg_value_slots(v); k++)
            t += golden__size(v->items[k], depth + 1);
        return t;
    }
    default:
        return 0;
    }
}

/* Is every argument of `a` at least as large as the same argument of `b`? */
static bool golden__dominates(const sg_value *a, const sg_value *b)
{
    if (a->kind != SG_VAL_LIST || b->kind != SG_VAL_LIST || a->n != b->n)
        return false;
    for (size_t k = 0; k < a->n; k++)
        if (golden__size(a->items[k], 0) < golden__size(b->items[k], 0))
            return false;
    return true;
}

static bool golden__fenced(const golden__run *g, const sg_value *args)
{
    for (size_t k = 0; args && k < g->fence.len; k++)
        if (golden__dominates(args, g->fence.items[k]))
            return true;
    return false;
}

#define GOLDEN_MAX_FENCE 64u

/* The reference timed out on generated input `args`: fence it (a copy; best effort). */
static void golden__fence_add(golden__run *g, const sg_value *args)
{
    if (!args || !g->generated || g->fence.len >= GOLDEN_MAX_FENCE || golden__fenced(g, args))
        return;
    sg_value *c = sg_value_copy(args);
    if (c && sg_array_push(&g->fence, c, 0) < 0)
        sg_value_free(c);
}

/*
 * The batch item after `prev` failed without its own frame, stopped with its main thread alone
 * running: was that code still `prev`'s, behind a frame it forged? `prev` runs alone (a single
 * call is strict: its outcome needs a clean exit). If it ends as it did in the batch, by a value
 * or an exception, it is innocent (true). Otherwise its outcome alone replaces the batch's (a
 * timeout stops the candidate, on `prev`'s text) and the failed item is left to run alone later.
 * A call that cannot be made leaves `prev` as it was, and false: the failed item runs alone too.
 */
static bool golden__prev_innocent(golden__run *g, sg_worker *w, golden__pf *prev)
{
    if (golden__cancelled(g))
        return false;
    sg_outcome *alone = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_call(w, prev->text, golden__lim(g, w), &alone, &d) != SG_OK)
        return false; /* (golden__call meets the same failure and reports it) */
    g->r->calls++;
    if (golden__ref_settle(g, w, prev->text, &alone, &d) != SG_OK) {
        sg_outcome_free(alone);
        return false;
    }
    sg_outcome_kind was = sg_outcome_info_get(prev->o)->kind, now = sg_outcome_info_get(alone)->kind;
    if (now == was && (now == SG_OUTCOME_OK || now == SG_OUTCOME_EXCEPTION)) {
        sg_outcome_free(alone);
        return true;
    }
    sg_outcome_free(prev->o);
    prev->o = alone;
    golden__count_timeout(g, w, alone, prev->text);
    return false;
}

/*
 * Run the wanted texts of worker `w` in batches and keep their outcomes for golden__call. Best
 * effort: whatever is not computed here (a failed batch, the items after one that did not end
 * cleanly, which are retried in the next batch) is computed by golden__call one by one. The
 * wanted list is consumed (texts of other workers stay).
 */
/* The reference's answers, kept by a pool across the runs of one task (golden__rc_*): a copy of
 * the outcome of `text` under limits `lim`, or NULL. */
static sg_outcome *golden__rc_get(golden__run *g, const char *text, const sg_sandbox_limits *lim);
static void golden__rc_put(golden__run *g, const char *text, const sg_sandbox_limits *lim, const sg_outcome *o);
static bool golden__rc_has(golden__run *g, const char *text, const sg_sandbox_limits *lim);

/* Keep the outcome `o` of wanted item `wi` (taken). A combined item (golden__combined_text)
 * answers its two texts: its value (ret, args after, kwargs after) splits into the call's value
 * and the argument check's; an outcome without a value (an exception, a timeout, a crash) is both
 * texts' outcome; a value that cannot be read (not plain data) is neither's, so golden__call
 * makes both calls alone. Returns how many entries were kept (0-2), -1 when out of memory. */
static int golden__pf_keep(golden__run *g, sg_worker *w, golden__pf *wi, sg_outcome *o)
{
    if (!wi->split_call) {
        if (sg_array_push(&g->pf, ((golden__pf){w, wi->text, o, NULL, NULL, NULL, NULL, 0, 0}), 0) < 0) {
            sg_outcome_free(o);
            return -1;
        }
        wi->text = NULL;
        return 1;
    }
    const sg_outcome_info *in = sg_outcome_info_get(o);
    sg_value *cv = NULL, *mv = NULL;
    if (in->kind == SG_OUTCOME_OK) {
        sg_value *v = NULL;
        sg_diag d;
        sg_diag_init(&d);
        if (!in->value_json || sg_value_from_text(in->value_json, strlen(in->value_json), "result", &v, &d) != SG_OK ||
            (v->kind != SG_VAL_TUPLE && v->kind != SG_VAL_LIST) || v->n != 3) {
            sg_value_free(v);
            sg_outcome_free(o);
            return 0;
        }
        cv = sg_value_copy(v->items[0]);
        mv = sg_value_new(SG_VAL_TUPLE);
        bool built = cv && mv && sg_value_push(mv, sg_value_copy(v->items[1])) == 0 &&
                     sg_value_push(mv, sg_value_copy(v->items[2])) == 0;
        sg_value_free(v);
        if (!built) {
            sg_value_free(cv);
            sg_value_free(mv);
            sg_outcome_free(o);
            return -1;
        }
    }
    sg_outcome *o2 = NULL;
    if (sg_outcome_copy(o, &o2) != SG_OK) {
        sg_value_free(cv);
        sg_value_free(mv);
        sg_outcome_free(o);
        return -1;
    }
    if (sg_array_push(&g->pf, ((golden__pf){w, wi->split_call, o, NULL, cv, NULL, NULL, 0, 0}), 0) < 0) {
        sg_value_free(cv);
        sg_value_free(mv);
        sg_outcome_free(o);
        sg_outcome_free(o2);
        return -1;
    }
    wi->split_call = NULL;
    if (sg_array_push(&g->pf, ((golden__pf){w, wi->split_mt, o2, NULL, mv, NULL, NULL, 0, 0}), 0) < 0) {
        sg_value_free(mv);
        sg_outcome_free(o2);
        return -1;
    }
    wi->split_mt = NULL;
    return 2;
}

static void golden__pf_drop_last(golden__run *g)
{
    golden__pf *p = &g->pf.items[--g->pf.len];
    free(p->text);
    sg_outcome_free(p->o);
    sg_value_free(p->view);
}

/*
 * The reference's calls on a block's generated inputs are made in the prefetch's order (smallest
 * input first), and that order alone decides the fence, the reference's timeout count and the
 * tightened types (docs/tasks.md): a call the batches did not settle (a batch that broke off, an
 * item retried alone, a failed batch) is made here, alone, in its place in that order, not later
 * as the inputs are judged in the order they were generated. Otherwise which inputs were
 * fenced, and when the reference's fourth timeout ended the search, would depend on where a
 * batch happened to break. A call that cannot be made stops the pass (golden__call makes it
 * when judged and reports the error).
 */
static const sg_outcome_info *golden__pf_peek(const golden__run *g, const sg_worker *w, const char *text);

static void golden__ref_fill(golden__run *g, sg_worker *w, golden__pf *ws, size_t n)
{
    for (size_t k = 0; k < n && !g->failed_internal && !golden__ref_exhausted(g) && !golden__cancelled(g); k++) {
        golden__pf *wi = &ws[k];
        if (!wi->text || wi->eff || golden__pf_peek(g, w, wi->text) || (wi->args && golden__fenced(g, wi->args)))
            continue; /* (kept already: golden__pf_keep took its text) */
        sg_outcome *o = golden__rc_get(g, wi->text, golden__lim(g, w));
        if (!o) {
            sg_diag d;
            sg_diag_init(&d);
            if (sg_worker_call(w, wi->text, golden__lim(g, w), &o, &d) != SG_OK)
                return;
            if (golden__ref_settle(g, w, wi->text, &o, &d) != SG_OK) {
                sg_outcome_free(o);
                return;
            }
            golden__rc_put(g, wi->text, golden__lim(g, w), o);
        }
        g->r->calls++;
        golden__count_timeout(g, w, o, wi->text);
        if (sg_outcome_info_get(o)->kind == SG_OUTCOME_TIMEOUT && wi->args)
            golden__fence_add(g, wi->args);
        if (golden__pf_keep(g, w, wi, o) < 0)
            return;
    }
}

static void golden__prefetch(golden__run *g, sg_worker *w)
{
    SG_ARRAY(golden__pf) ws = {0};
    size_t keep = 0;
    for (size_t k = 0; k < g->want.len; k++) {
        golden__pf *p = &g->want.items[k];
        if (p->w != w) {
            g->want.items[keep++] = *p;
        } else if (sg_array_push(&ws, *p, 0) < 0) {
            free(p->text);
            free(p->split_call);
            free(p->split_mt);
        }
    }
    g->want.len = keep;
    sg_outcome *outs[GOLDEN_CALL_ITEMS];
    const char *batch[GOLDEN_CALL_ITEMS];
    uint64_t budgets[GOLDEN_CALL_ITEMS];
    size_t at = 0;
    bool ok = true, fenced = false;
    int prev_kept = 0; /* entries the previous item of this batch kept */
    /* (a timeout of the candidate ends its batches: the items after it are never run) */
    while (ok && at < ws.len && !g->failed_internal && !golden__ref_exhausted(g) &&
           !(w == g->cand && g->cand_stopped) && !golden__cancelled(g)) {
        sg_outcome *kept_o =
            w == g->ref && !ws.items[at].eff ? golden__rc_get(g, ws.items[at].text, golden__lim(g, w)) : NULL;
        if (kept_o) {
            /* the reference answered this text in an earlier run of the task: as if called now */
            golden__pf *wi = &ws.items[at];
            g->r->calls++;
            golden__count_timeout(g, w, kept_o, wi->text);
            if (sg_outcome_info_get(kept_o)->kind == SG_OUTCOME_TIMEOUT && wi->args)
                fenced = true, golden__fence_add(g, wi->args);
            if (golden__pf_keep(g, w, wi, kept_o) < 0)
                ok = false;
            at++;
        }
        size_t n = 0, bytes = 0;
        bool budgeted = false; /* (scaled inputs of golden__efficiency among the items) */
        while (!kept_o && at + n < ws.len && n < GOLDEN_CALL_ITEMS) {
            if (n && w == g->ref && !ws.items[at + n].eff &&
                golden__rc_has(g, ws.items[at + n].text, golden__lim(g, w)))
                break; /* (answered from the pool: the batch ends before it) */
            size_t l = strlen(ws.items[at + n].text) + 1;
            if (bytes + l > SG_WORKER_MAX_CALL_BYTES)
                break;
            batch[n] = ws.items[at + n].text;
            budgets[n] = ws.items[at + n].budget;
            budgeted |= budgets[n] > 0;
            bytes += l;
            n++;
        }
        if (kept_o) {
            n = 0; /* (the fence below still applies) */
        } else if (n == 0) {
            at++; /* too large for any batch: golden__call will say so */
            continue;
        }
        size_t done = 0;
        if (n) {
        sg_diag d;
        sg_diag_init(&d);
        if ((budgeted ? sg_worker_call_batch_budgets(w, batch, budgets, n, golden__lim(g, w), outs, &done, &d)
                      : sg_worker_call_batch(w, batch, n, golden__lim(g, w), outs, &done, &d)) != SG_OK)
            break;
        }
        prev_kept = 0;
        for (size_t k = 0; k < done; k++) {
            golden__pf *wi = &ws.items[at + k];
            g->r->calls++;
            if (wi->eff) { /* a scaled input: kept for golden__efficiency, nothing else */
                golden__eff_keep(g, w, wi->eff - 1, outs[k]);
                prev_kept = 0;
                continue;
            }
            const sg_outcome_info *in = sg_outcome_info_get(outs[k]);
            if (k + 1 == done && k > 0 && in->batch_no_frame) {
                /* The batch's last item failed without its frame, perhaps by the previous item's
                 * doing: a frame it forged before it went on looping, printing or allocating
                 * (checked now: the previous item alone), a thread it left or a frame it forged
                 * before it ended the process (batch_unsure: neither is trusted from this batch;
                 * golden__call runs both alone), so that only an input that fails alone is
                 * blamed. */
                golden__pf *prev = prev_kept > 0 ? &g->pf.items[g->pf.len - 1] : NULL;
                bool prev_here = ok && prev && prev->w == w;
                bool unsure = in->batch_unsure; /* (read before the outcome is freed) */
                if (!unsure && prev_here && golden__prev_innocent(g, w, prev)) {
                    /* its failure is its own: judged below */
                } else {
                    sg_outcome_free(outs[k]);
                    for (int q = 0; prev_here && unsure && q < prev_kept; q++)
                        golden__pf_drop_last(g);
                    break;
                }
            }
            sg_diag sd;
            sg_diag_init(&sd);
            if (golden__ref_settle(g, w, wi->text, &outs[k], &sd) != SG_OK) {
                /* (golden__call makes this call again and reports what fails) */
                for (size_t q = k; q < done; q++)
                    sg_outcome_free(outs[q]);
                done = k;
                ok = false;
                break;
            }
            in = sg_outcome_info_get(outs[k]);
            golden__count_timeout(g, w, outs[k], wi->split_call ? wi->split_call : wi->text);
            if (w == g->ref)
                golden__rc_put(g, wi->text, golden__lim(g, w), outs[k]);
            if (w == g->ref && in->kind == SG_OUTCOME_TIMEOUT && wi->args)
                fenced = true, golden__fence_add(g, wi->args);
            int kept = ok ? golden__pf_keep(g, w, wi, outs[k]) : (sg_outcome_free(outs[k]), -1);
            if (kept < 0)
                ok = false;
            prev_kept = kept < 0 ? 0 : kept;
        }
        at += done;
        if (fenced) {
            /* the reference's calls not made yet on inputs the fence now covers are dropped
             * (golden__check_input discards those inputs without a call) */
            size_t out = at;
            for (size_t k = at; k < ws.len; k++) {
                if (ws.items[k].args && golden__fenced(g, ws.items[k].args)) {
                    free(ws.items[k].text);
                    free(ws.items[k].split_call);
                    free(ws.items[k].split_mt);
                    continue;
                }
                ws.items[out++] = ws.items[k];
            }
            ws.len = out;
            fenced = false;
        }
    }
    if (w == g->ref && g->generated && ok)
        golden__ref_fill(g, w, ws.items, ws.len);
    for (size_t k = 0; k < ws.len; k++) {
        free(ws.items[k].text);
        free(ws.items[k].split_call);
        free(ws.items[k].split_mt);
    }
    sg_array_free(&ws);
}

static void golden__prefetch_wanted(golden__run *g)
{
    if (g->ref)
        golden__prefetch(g, g->ref);
    golden__prefetch(g, g->cand);
    golden__want_clear(g);
}

static bool golden__cand_blocked(const golden__run *g, const char *text)
{
    if (!g->cand_stopped)
        return false;
    for (size_t k = 0; k < g->pf.len; k++) {
        const golden__pf *p = &g->pf.items[k];
        if (p->w == g->cand && p->o && !strcmp(p->text, text))
            return false;
    }
    return true;
}

/* One call in a worker. An sg_status error is an internal error (recorded); the outcome of the
 * candidate's code is data in *res. A prefetched outcome of the same text is used (once). A
 * stopped candidate is not called again: GOLDEN_STOPPED (nothing recorded). */
static sg_status golden__call(golden__run *g, sg_worker *w, const char *text, golden__res *res)
{
    memset(res, 0, sizeof *res);
    if (strlen(text) > SG_WORKER_MAX_CALL_BYTES) {
        res->kind = GR_OTHER;
        return SG_ERR_TOO_LARGE;
    }
    if (w == g->cand && golden__cand_blocked(g, text)) {
        res->kind = GR_OTHER;
        return GOLDEN_STOPPED;
    }
    for (size_t k = 0; k < g->pf.len && !res->o; k++) {
        golden__pf *p = &g->pf.items[k];
        if (p->w == w && p->o && !strcmp(p->text, text)) {
            res->o = p->o;
            res->value = p->view; /* (a combined item's part: golden__pf_keep) */
            p->o = NULL;
            free(p->text);
            *p = g->pf.items[--g->pf.len];
        }
    }
    if (!res->o && w == g->ref && g->judging_block && golden__ref_exhausted(g)) {
        res->kind = GR_OTHER; /* (what was computed ahead is judged; nothing more is called) */
        return GOLDEN_REF_DONE;
    }
    if (!res->o && w == g->ref && (res->o = golden__rc_get(g, text, golden__lim(g, w)))) {
        g->r->calls++; /* (answered in an earlier run of the task: as if called now) */
        golden__count_timeout(g, w, res->o, text);
    }
    if (!res->o) {
        if (golden__cancelled(g))
            return SG_ERR_INTERRUPTED;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_worker_call(w, text, golden__lim(g, w), &res->o, &d);
        if (st == SG_OK) {
            g->r->calls++;
            st = golden__ref_settle(g, w, text, &res->o, &d);
        }
        if (st != SG_OK) {
            golden__internal(g, "worker call failed: %s: %s", sg_strerror(st), d.message);
            return st;
        }
        golden__count_timeout(g, w, res->o, text);
        if (w == g->ref)
            golden__rc_put(g, text, golden__lim(g, w), res->o);
    }
    res->info = sg_outcome_info_get(res->o);
    if (w == g->cand && res->info->kind == SG_OUTCOME_TIMEOUT && g->cand_stopped && !g->stop_consumed) {
        /* the one timeout of the candidate: judged here, so its caller records it */
        g->stop_consumed = true;
        res->stop = true;
    }
    if (res->value && res->info->kind != SG_OUTCOME_OK) {
        sg_value_free(res->value); /* (not reached: a view comes with an ok outcome) */
        res->value = NULL;
    }
    switch (res->info->kind) {
    case SG_OUTCOME_OK:
        if (res->value) {
            res->kind = GR_VALUE;
        } else if (res->info->value_json) {
            sg_diag vd;
            sg_diag_init(&vd);
            if (sg_value_from_text(res->info->value_json, strlen(res->info->value_json), "result", &res->value,
                                   &vd) != SG_OK) {
                res->kind = GR_NOENC; /* TRUST: sandbox output that does not decode is a failure */
                return SG_OK;
            }
            res->kind = GR_VALUE;
        } else {
            res->kind = GR_NOENC;
        }
        return SG_OK;
    case SG_OUTCOME_EXCEPTION:
        res->kind = GR_RAISE;
        return SG_OK;
    case SG_OUTCOME_TIMEOUT:
        res->kind = GR_TIMEOUT;
        return SG_OK;
    case SG_OUTCOME_SETUP_ERROR:
        golden__internal(g, "sandbox setup error: %s", res->info->detail);
        return SG_ERR_SANDBOX;
    default:
        res->kind = GR_OTHER;
        return SG_OK;
    }
}

static const char *golden__res_reason(golden__run *g, const golden__res *res)
{
    char buf[700];
    switch (res->kind) {
    case GR_VALUE:
        return "wrong value";
    case GR_RAISE:
        snprintf(buf, sizeof buf, "raised %s%s%.500s", res->info->exc_type ? res->info->exc_type : "(no result)",
                 res->info->exc_message && *res->info->exc_message ? ": " : "",
                 res->info->exc_message ? res->info->exc_message : "");
        return golden__dup(g, buf);
    case GR_TIMEOUT:
        snprintf(buf, sizeof buf, "timeout (%s)", res->info->timeout_kind ? res->info->timeout_kind : "?");
        return golden__dup(g, buf);
    case GR_NOENC:
        snprintf(buf, sizeof buf, "returned a value that is not plain data: %.400s",
                 res->info->value_error ? res->info->value_error : "undecodable");
        return golden__dup(g, buf);
    default:
        snprintf(buf, sizeof buf, "%s%s%.400s", sg_outcome_kind_name(res->info->kind),
                 res->info->detail && *res->info->detail ? ": " : "", res->info->detail ? res->info->detail : "");
        return golden__dup(g, buf);
    }
}

/* A line of the candidate program -> a line of the candidate text as given, 0 when outside it
 * (the prompt, MBPP test_imports before it; the task's test, setup and helpers after it). */
static long golden__map_line(const golden__run *g, long line)
{
    long l = line - g->pre_lines;
    return line > 0 && l >= 1 && l <= g->cand_lines ? l : 0;
}

/* The traceback with every `File "<snippet>", line N` frame mapped to the candidate text's
 * lines; frames in code the task added become `File "<task>", line N` (N a program line). */
static const char *golden__map_traceback(golden__run *g, const char *tb)
{
    static const char key[] = "File \"<snippet>\", line ";
    if (!tb)
        return NULL;
    sg_buf b;
    sg_buf_init(&b, strlen(tb) + 4096);
    const char *p = tb, *hit;
    while ((hit = strstr(p, key))) {
        const char *num = hit + sizeof key - 1;
        char *end = NULL;
        long line = strtol(num, &end, 10);
        sg_buf_append(&b, p, (size_t)(hit - p));
        if (end == num) {
            sg_buf_append(&b, hit, sizeof key - 1);
            p = num;
            continue;
        }
        long m = golden__map_line(g, line);
        if (m)
            sg_buf_printf(&b, "File \"<snippet>\", line %ld", m);
        else
            sg_buf_printf(&b, "File \"<task>\", line %ld", line);
        p = end;
    }
    sg_buf_puts(&b, p);
    const char *s = b.failed ? NULL : golden__dup(g, b.data ? b.data : "");
    sg_buf_free(&b);
    return s;
}

/* Append a case result; fills exception fields from a candidate result. */
static sg_golden_case_result *golden__add(golden__run *g, sg_golden_case_kind kind, size_t index, bool passed,
                                          const golden__res *cres)
{
    sg_golden_case_result c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.index = index;
    c.passed = passed;
    if (cres && cres->info) {
        if (cres->kind == GR_VALUE)
            c.got = golden__repr(g, cres->value);
        else if (cres->kind == GR_NOENC && cres->info->value_repr)
            c.got = golden__dup(g, cres->info->value_repr);
        if (cres->kind == GR_RAISE) {
            c.exc_type = golden__dup(g, cres->info->exc_type);
            c.exc_message = golden__dup(g, cres->info->exc_message);
            c.traceback = golden__map_traceback(g, cres->info->traceback);
            c.exc_line = golden__map_line(g, cres->info->exc_line);
        }
        if (!passed)
            c.reason = golden__res_reason(g, cres);
    }
    if (sg_array_push(&g->r->cases, c, GOLDEN_MAX_CASES) < 0) {
        golden__internal(g, "too many case results");
        return NULL;
    }
    if (cres && cres->stop && !passed)
        g->stop_case = (long)(g->r->cases.len - 1);
    return &g->r->cases.items[g->r->cases.len - 1];
}

/* ---- call text ---------------------------------------------------------------------------- */

/* "lit, lit, name=lit"; argument k is written wrap[k](lit) when the task wraps it (evalplus.h) */
void sg_golden_args_text(sg_buf *b, const char *const *wrap, const sg_value *args, const sg_value *kwargs, bool repr)
{
    for (size_t k = 0; k < args->n; k++) {
        if (k)
            sg_buf_puts(b, ", ");
        const char *w = wrap && k < 4 ? wrap[k] : NULL;
        if (w) {
            sg_buf_puts(b, w);
            sg_buf_puts(b, "(");
        }
        (repr ? sg_value_repr : sg_value_literal)(args->items[k], b);
        if (w)
            sg_buf_puts(b, ")");
    }
    for (size_t k = 0; kwargs && k < kwargs->n; k++) {
        if (k || args->n)
            sg_buf_puts(b, ", ");
        sg_buf_append(b, kwargs->items[2 * k]->s, kwargs->items[2 * k]->len); /* identifiers (checked) */
        sg_buf_puts(b, "=");
        (repr ? sg_value_repr : sg_value_literal)(kwargs->items[2 * k + 1], b);
    }
}

/* Text of `fn(args)`; NULL when too long or out of memory. Malloc'd. */
static char *golden__call_text(const char *const *wrap, const char *fn, const sg_value *args,
                               const sg_value *kwargs, bool repr)
{
    sg_buf b;
    sg_buf_init(&b, repr ? GOLDEN_REPR_CAP : GOLDEN_TEXT_CAP);
    sg_buf_puts(&b, fn);
    sg_buf_puts(&b, "(");
    sg_golden_args_text(&b, wrap, args, kwargs, repr);
    sg_buf_puts(&b, ")");
    if (b.failed || (!repr && b.truncated)) {
        sg_buf_free(&b);
        return NULL;
    }
    if (repr && b.truncated)
        sg_buf_puts(&b, "...");
    return b.data;
}

static const char *golden__encode(golden__run *g, const sg_value *v)
{
    sg_buf b;
    sg_buf_init(&b, 1 << 16);
    sg_value_encode(v, &b);
    const char *s = b.truncated ? NULL : golden__dup(g, b.data);
    sg_buf_free(&b);
    return s;
}

/* ---- exception matching ------------------------------------------------------------------- */

/* A name of the builtins module: then only the builtins module's own class matches it (a class the
 * candidate names ValueError is not a ValueError; the runner reports a class that claims the
 * builtins module without being its class with no module). */
static bool golden__builtin_exc(const char *name)
{
    return sg_golden_python_builtin(name, strlen(name));
}

/* One "module\tqualname\tname" line of an MRO report: does it name class `name`? */
static bool golden__mro_row_matches(const char *row, size_t len, const char *name, bool dotted)
{
    const char *t1 = memchr(row, '\t', len);
    const char *t2 = t1 ? memchr(t1 + 1, '\t', len - (size_t)(t1 + 1 - row)) : NULL;
    if (!t2 || memchr(t2 + 1, '\t', len - (size_t)(t2 + 1 - row)))
        return false; /* not three fields: no class */
    size_t ml = (size_t)(t1 - row), ql = (size_t)(t2 - t1 - 1), nl = len - (size_t)(t2 + 1 - row);
    if (!dotted)
        return nl && nl == strlen(name) && !memcmp(t2 + 1, name, nl) &&
               (!golden__builtin_exc(name) || (ml == 8 && !memcmp(row, "builtins", 8)));
    return ml && ql && strlen(name) == ml + 1 + ql && !memcmp(name, row, ml) && name[ml] == '.' &&
           !memcmp(name + ml + 1, t1 + 1, ql);
}

bool sg_golden_exc_matches(const sg_outcome_info *in, const char *name)
{
    if (!in || !in->exc_type || !name || !*name)
        return false;
    const char *et = in->exc_type;
    bool dotted = strchr(name, '.') != NULL;
    if (!in->exc_mro) {
        /* no MRO reported (the runner always sends one: something is off): the type's own name,
         * exactly, and never a builtin's (a class of the candidate's __main__ shows as its bare
         * name): a finding or a failed case rather than a guess */
        return !strcmp(et, name) && !golden__builtin_exc(name);
    }
    for (const char *row = in->exc_mro; *row;) {
        size_t len = strcspn(row, "\n");
        if (golden__mro_row_matches(row, len, name, dotted))
            return true;
        row += len + (row[len] == '\n');
    }
    return false;
}

/* Does the exception of `res` match class name `name`? */
static bool golden__exc_matches(const golden__res *res, const char *name)
{
    return res->kind == GR_RAISE && sg_golden_exc_matches(res->info, name);
}

/* ---- programs ----------------------------------------------------------------------------- */

static const char golden__helpers[] =
    "\n\n"
    "def __sg_plain_fn(f):\n"
    "    ok = (type(None), bool, int, float, str, bytes, list, tuple, dict, set)\n"
    "    def plain(x, depth=0):\n"
    "        t = type(x)\n"
    "        if depth > 32 or t not in ok:\n"
    "            raise TypeError('a value of type %s has no encoding' % t.__qualname__)\n"
    "        if t in (list, tuple, set):\n"
    "            for y in x:\n"
    "                plain(y, depth + 1)\n"
    "        elif t is dict:\n"
    "            for k, v in x.items():\n"
    "                plain(k, depth + 1)\n"
    "                plain(v, depth + 1)\n"
    "        return x\n"
    "    return lambda *a, **k: plain(f(*a, **k))\n";

/* Program text: base + extras (test prelude, setup) + helpers (+ contract helper). Malloc'd. */
static char *golden__program(golden__run *g, const char *base, bool reference)
{
    const sg_golden_task *t = g->task;
    sg_buf b;
    sg_buf_init(&b, 16u << 20);
    if (t->format == SG_TASK_MBPP) {
        for (size_t k = 0; k < t->ntest_imports; k++) {
            sg_buf_puts(&b, t->test_imports[k]);
            sg_buf_puts(&b, "\n");
        }
    }
    sg_buf_puts(&b, base);
    sg_buf_puts(&b, "\n");
    if (t->format == SG_TASK_MBPP && t->test_setup_code) {
        sg_buf_puts(&b, "\n");
        sg_buf_puts(&b, t->test_setup_code);
        sg_buf_puts(&b, "\n");
    }
    if (t->format == SG_TASK_HUMANEVAL && t->test) {
        sg_buf_puts(&b, "\n");
        sg_buf_puts(&b, t->test);
        sg_buf_puts(&b, "\n");
    }
    sg_buf_puts(&b, golden__helpers);
    if (reference && t->contract && g->entry) {
        sg_value *src = sg_value_new_str(SG_VAL_STR, t->contract, strlen(t->contract));
        if (!src) {
            sg_buf_free(&b);
            return NULL;
        }
        sg_buf_puts(&b, "\ndef __sg_contract(*a, **k):\n"
                        "    import inspect, textwrap\n"
                        "    ba = inspect.signature(");
        sg_buf_puts(&b, g->entry);
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
        return NULL;
    }
    return b.data;
}

typedef struct golden__rc_entry {
    char *text;
    uint32_t cpu_ms, wall_ms;
    sg_outcome *o;
} golden__rc_entry;

struct sg_golden_pool {
    const sg_sandbox *sb;
    sg_worker *w[2]; /* [0] candidates, [1] references */
    unsigned starts_done; /* of workers freed since (another sandbox) */
    unsigned long calls_done; /* their calls (sg_golden_pool_calls) */
    /* The reference's answers in the runs of one task (its id and reference program: rc_key):
     * eval's samples of a task, serve's requests for it. A reference is the task's fixed code,
     * so a text it answered once is answered again from here (a copy of the outcome, counted as
     * a call, judged the same: the verdict's bytes do not change). Another task clears it. */
    uint64_t rc_key;
    golden__rc_entry *rc;      /* open addressing, rc_cap slots (a power of 2) */
    size_t rc_cap, rc_n, rc_bytes;
    size_t rc_hits; /* answers served from it so far (sg_golden_pool_reused) */
    sg_outcome *rc_import; /* the reference's import, when it ended ok (golden__import) */
};

#define GOLDEN_RC_MAX_BYTES (64u << 20)
#define GOLDEN_RC_MAX_ENTRIES 65536u

static uint64_t golden__fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void golden__rc_clear(sg_golden_pool *p)
{
    for (size_t k = 0; k < p->rc_cap; k++) {
        free(p->rc[k].text);
        sg_outcome_free(p->rc[k].o);
    }
    free(p->rc);
    p->rc = NULL;
    p->rc_cap = p->rc_n = p->rc_bytes = 0;
    sg_outcome_free(p->rc_import);
    p->rc_import = NULL;
}

/* The pool's cache serves this run: the same task and reference program, else it is emptied. */
static void golden__rc_prepare(golden__run *g, const char *ref_prog)
{
    sg_golden_pool *p = g->opts.pool;
    if (!p || !ref_prog)
        return;
    const char *id = g->task->task_id ? g->task->task_id : "";
    uint64_t key = golden__fnv(golden__fnv(14695981039346656037ULL, id, strlen(id) + 1), ref_prog, strlen(ref_prog));
    if (key != p->rc_key) {
        golden__rc_clear(p);
        p->rc_key = key;
    }
}

static golden__rc_entry *golden__rc_slot(sg_golden_pool *p, const char *text, const sg_sandbox_limits *lim)
{
    if (!p->rc_cap)
        return NULL;
    uint64_t h = golden__fnv(14695981039346656037ULL, text, strlen(text)) ^ ((uint64_t)lim->cpu_ms << 32 | lim->wall_ms);
    for (size_t i = 0; i < p->rc_cap; i++) {
        golden__rc_entry *e = &p->rc[(h + i) & (p->rc_cap - 1)];
        if (!e->text || (e->cpu_ms == lim->cpu_ms && e->wall_ms == lim->wall_ms && !strcmp(e->text, text)))
            return e;
    }
    return NULL;
}

static sg_outcome *golden__rc_get(golden__run *g, const char *text, const sg_sandbox_limits *lim)
{
    sg_golden_pool *p = g->opts.pool;
    golden__rc_entry *e = p && p->rc_key ? golden__rc_slot(p, text, lim) : NULL;
    sg_outcome *o = NULL;
    if (e && e->text && sg_outcome_copy(e->o, &o) != SG_OK)
        o = NULL;
    if (o)
        p->rc_hits++;
    return o;
}

static bool golden__rc_has(golden__run *g, const char *text, const sg_sandbox_limits *lim)
{
    sg_golden_pool *p = g->opts.pool;
    golden__rc_entry *e = p && p->rc_key ? golden__rc_slot(p, text, lim) : NULL;
    return e && e->text;
}

static void golden__rc_put(golden__run *g, const char *text, const sg_sandbox_limits *lim, const sg_outcome *o)
{
    sg_golden_pool *p = g->opts.pool;
    if (!p || !p->rc_key || !o || golden__cancelled(g))
        return;
    const sg_outcome_info *in = sg_outcome_info_get(o);
    if (in->kind == SG_OUTCOME_SETUP_ERROR || in->batch_unsure || in->batch_no_frame)
        return; /* (not an answer of the reference's code) */
    size_t bytes = strlen(text) + in->stdout_len + in->stderr_len + (in->value_json ? strlen(in->value_json) : 0) +
                   (in->value_repr ? strlen(in->value_repr) : 0) + (in->traceback ? strlen(in->traceback) : 0) + 256;
    if (p->rc_bytes + bytes > GOLDEN_RC_MAX_BYTES || p->rc_n >= GOLDEN_RC_MAX_ENTRIES)
        return;
    if (2 * (p->rc_n + 1) > p->rc_cap) {
        size_t ncap = p->rc_cap ? 2 * p->rc_cap : 1024;
        golden__rc_entry *old = p->rc, *nr = calloc(ncap, sizeof *nr);
        if (!nr)
            return;
        size_t ocap = p->rc_cap;
        p->rc = nr;
        p->rc_cap = ncap;
        for (size_t k = 0; k < ocap; k++) {
            if (!old[k].text)
                continue;
            sg_sandbox_limits l = {0};
            l.cpu_ms = old[k].cpu_ms;
            l.wall_ms = old[k].wall_ms;
            *golden__rc_slot(p, old[k].text, &l) = old[k];
        }
        free(old);
    }
    golden__rc_entry *e = golden__rc_slot(p, text, lim);
    if (!e || e->text)
        return; /* (already kept) */
    sg_outcome *c = NULL;
    char *t = strdup(text);
    if (!t || sg_outcome_copy(o, &c) != SG_OK) {
        free(t);
        return;
    }
    *e = (golden__rc_entry){t, (uint32_t)lim->cpu_ms, (uint32_t)lim->wall_ms, c};
    p->rc_n++;
    p->rc_bytes += bytes;
}

sg_status sg_golden_pool_new(sg_golden_pool **ret_pool)
{
    if (!ret_pool)
        return SG_ERR_INVALID_ARG;
    *ret_pool = calloc(1, sizeof **ret_pool);
    return *ret_pool ? SG_OK : SG_ERR_NOMEM;
}

void sg_golden_pool_free(sg_golden_pool *pool)
{
    if (!pool)
        return;
    sg_worker_free(pool->w[0]);
    sg_worker_free(pool->w[1]);
    golden__rc_clear(pool);
    free(pool);
}

size_t sg_golden_pool_reused(const sg_golden_pool *pool)
{
    return pool ? pool->rc_hits : 0;
}

unsigned sg_golden_pool_starts(const sg_golden_pool *pool)
{
    if (!pool)
        return 0;
    return pool->starts_done + (pool->w[0] ? sg_worker_starts(pool->w[0]) : 0) +
           (pool->w[1] ? sg_worker_starts(pool->w[1]) : 0);
}

unsigned long sg_golden_pool_calls(const sg_golden_pool *pool)
{
    if (!pool)
        return 0;
    return pool->calls_done + sg_worker_calls(pool->w[0]) + sg_worker_calls(pool->w[1]);
}

/*
 * The worker of slot `slot` (0 candidate, 1 reference) with `program` loaded. Without a pool: a
 * new sandbox, and the import's outcome in *ret_import. With one: the pool's warm worker given
 * the program (started on first use), and *ret_import NULL: the import runs in each call child
 * and is known after the first call (golden__import).
 */
static sg_status golden__start_quiet(golden__run *g, const char *program, sg_worker **ret, sg_outcome **ret_import,
                                     const sg_sandbox *sb, int slot, sg_diag *d)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 20000;
    lim.cpu_ms = 10000;
    if (golden__cancelled(g))
        return SG_ERR_INTERRUPTED;
    sg_worker_opts wo;
    sg_worker_opts_init(&wo);
    /* Python `==` semantics (HumanEval, MBPP, EvalPlus): a Counter equals the dict it holds */
    wo.stdlib_dicts = g->task->compare_python;
    wo.fast_count = true; /* (counted calls: the efficiency check, the reference's settling) */
    wo.cancel = g->opts.cancel; /* a cancelled run stops its calls at once, not at the next one */
    sg_golden_pool *pool = g->unpooled ? NULL : g->opts.pool;
    sg_status st;
    if (!pool) {
        st = sg_worker_new(sb, program, strlen(program), &lim, &wo, ret, ret_import, d);
    } else {
        *ret_import = NULL;
        if (pool->sb != sb) {
            for (int k = 0; k < 2; k++) {
                pool->starts_done += pool->w[k] ? sg_worker_starts(pool->w[k]) : 0;
                pool->calls_done += sg_worker_calls(pool->w[k]);
                sg_worker_free(pool->w[k]);
                pool->w[k] = NULL;
            }
            pool->sb = sb;
        }
        wo.pooled = true;
        st = pool->w[slot] ? sg_worker_rebind(pool->w[slot], program, strlen(program), &wo, d)
                           : sg_worker_new(sb, program, strlen(program), &lim, &wo, &pool->w[slot], NULL, d);
        *ret = st == SG_OK ? pool->w[slot] : NULL;
    }
    return st;
}

static sg_status golden__start(golden__run *g, const char *program, sg_worker **ret, sg_outcome **ret_import,
                               const sg_sandbox *sb, int slot)
{
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = golden__start_quiet(g, program, ret, ret_import, sb, slot, &d);
    if (st != SG_OK && st != SG_ERR_INTERRUPTED)
        golden__internal(g, "cannot start a worker: %s: %s", sg_strerror(st), d.message);
    return st;
}

/*
 * Shrinking makes hundreds of calls, many of them one at a time, and in a pooled worker every
 * call child imports the program again (~2.5 ms a call here; the planted-bug runs took 60% longer
 * in a pool than in workers of their own). So when a pooled run starts shrinking, it starts
 * workers of its own (the way a run without a pool does: import once, fork per call) and uses
 * them from then on. Should one not start or not import as the pooled one did, the run stays on
 * the pool's workers (slower, the same verdicts).
 */
static void golden__unpool(golden__run *g)
{
    if (!g->opts.pool || g->unpool_tried || g->failed_internal || golden__cancelled(g))
        return;
    g->unpool_tried = true;
    g->unpooled = true; /* golden__start_quiet: no pool */
    sg_worker *mine[2] = {NULL, NULL};
    sg_worker *const want[2] = {g->cand, g->ref};
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++) {
        if (!want[k])
            continue;
        sg_outcome *imp = NULL;
        sg_diag d;
        sg_diag_init(&d);
        ok = golden__start_quiet(g, g->progs[k], &mine[k], &imp, g->sandbox, k, &d) == SG_OK &&
             sg_outcome_info_get(imp)->kind == SG_OUTCOME_OK;
        sg_outcome_free(imp);
    }
    if (!ok) {
        sg_worker_free(mine[0]);
        sg_worker_free(mine[1]);
        g->unpooled = false; /* the pool's workers, as before (not tried again) */
        return;
    }
    golden__pf_clear(g); /* outcomes computed by the pool's workers, keyed by them */
    golden__want_clear(g);
    g->own[0] = mine[0];
    g->own[1] = mine[1];
    g->cand = mine[0];
    if (g->ref)
        g->ref = mine[1];
}

/* The import outcome of worker `w` (a pooled worker's: after its first call, else one import-only
 * call now). A pool keeps the reference's import with its answers (the same task and reference
 * program): when every call of a later run is answered from there, its import needs no call
 * either. */
static sg_status golden__import(golden__run *g, sg_worker *w, sg_outcome **ret_import)
{
    if (*ret_import)
        return SG_OK;
    sg_golden_pool *p = g->unpooled ? NULL : g->opts.pool;
    bool kept = p && p->rc_key && w == g->ref;
    if (kept && p->rc_import && sg_outcome_copy(p->rc_import, ret_import) == SG_OK)
        return SG_OK;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_worker_import(w, ret_import, &d);
    if (st != SG_OK)
        golden__internal(g, "cannot import a program: %s: %s", sg_strerror(st), d.message);
    else if (kept && !golden__cancelled(g) && sg_outcome_info_get(*ret_import)->kind == SG_OUTCOME_OK &&
             sg_outcome_copy(*ret_import, &p->rc_import) != SG_OK)
        p->rc_import = NULL;
    return st;
}

/* ---- (a) structured cases ----------------------------------------------------------------- */

/* Floats of a task that gives no tolerance (no `atol` of its own, none on the case or the
 * property): equal within |got - expected| <= 1e-6 + 1e-7 * |expected|, EvalPlus's practice for
 * its float tasks (a mean computed with math.fsum differs from a plain sum in the last bit).
 * Everything but floats compares exactly; nan equals nan. */
#define GOLDEN_DEFAULT_ATOL 1e-6
#define GOLDEN_DEFAULT_RTOL 1e-7

/* The tolerance of a comparison: the case's or property's own (has_*), else the task's `atol`
 * (and no rtol), else the defaults. */
static void golden__tolerance(const golden__run *g, bool has_atol, double atol, bool has_rtol, double rtol,
                              double *ret_atol, double *ret_rtol)
{
    bool given = has_atol || has_rtol || g->task->has_atol;
    *ret_atol = has_atol ? atol : g->task->has_atol ? g->task->atol : given ? 0 : GOLDEN_DEFAULT_ATOL;
    *ret_rtol = has_rtol ? rtol : given ? 0 : GOLDEN_DEFAULT_RTOL;
}

static bool golden__equal(golden__run *g, const sg_value *got, const sg_value *exp, double atol, double rtol)
{
    bool eq = !g->task->compare_python         ? sg_value_strict_equal(got, exp, atol, rtol)
              : rtol > 0 && !g->task->has_atol ? sg_value_python_close(got, exp, atol, rtol) /* the default */
                                               : sg_value_python_equal(got, exp, atol);
    return sg_evalplus_match(g->task, got, exp, eq);
}

/* The prefetched outcome of `text` in worker `w`, not consumed; NULL when there is none. */
static const sg_outcome_info *golden__pf_peek(const golden__run *g, const sg_worker *w, const char *text);

/* Does outcome `in` (NULL: none) hold a value that decodes (what golden__call reads as GR_VALUE)? */
static bool golden__info_value(const sg_outcome_info *in)
{
    if (!in || in->kind != SG_OUTCOME_OK || !in->value_json)
        return false;
    sg_value *v = NULL;
    sg_diag d;
    sg_diag_init(&d);
    bool ok = sg_value_from_text(in->value_json, strlen(in->value_json), "result", &v, &d) == SG_OK;
    sg_value_free(v);
    return ok;
}

/* Run the calls of cases [from, to) ahead, in batches (golden__prefetch): the reference's first
 * (EvalPlus inputs), then the candidate's, but not on an input the reference is known to reject
 * (golden__run_case discards it without calling the candidate: a timeout there would stop the
 * candidate on an input that is never judged). */
static void golden__want_cases(golden__run *g, size_t from, size_t to)
{
    golden__pf_clear(g);
    for (int side = g->ref ? 0 : 1; side < 2; side++) {
        for (size_t k = from; k < to; k++) {
            const sg_golden_case *cs = &g->task->cases[k];
            bool evalplus = !cs->expected && !cs->raises;
            if (side == 0 && !evalplus)
                continue;
            char *text = golden__call_text(g->task->arg_wrap, g->entry, cs->args, cs->kwargs, false);
            if (side == 0)
                golden__want(g, g->ref, text);
            else if (!evalplus || (text && golden__info_value(golden__pf_peek(g, g->ref, text))))
                golden__want(g, g->cand, text);
            free(text);
        }
        golden__prefetch(g, side == 0 ? g->ref : g->cand);
    }
}

static sg_status golden__run_case(golden__run *g, size_t index)
{
    const sg_golden_task *t = g->task;
    const sg_golden_case *cs = &t->cases[index];
    bool evalplus = !cs->expected && !cs->raises;
    char *text = golden__call_text(g->task->arg_wrap, g->entry, cs->args, cs->kwargs, false);
    if (!text && evalplus) {
        /* an EvalPlus input too large to send (Mbpp/301 has one): not checkable, discarded like
         * an input the reference rejects; the task's other inputs still decide */
        golden__discard(g, SG_DISCARD_TOO_LARGE);
        return SG_OK;
    }
    if (!text) {
        golden__internal(g, "case %zu: call text over %u bytes", index, SG_WORKER_MAX_CALL_BYTES);
        return SG_ERR_TOO_LARGE;
    }
    golden__res ref = {0}, res = {0};
    sg_status st = SG_OK;
    const sg_value *expected = cs->expected;
    if (golden__cand_blocked(g, text)) {
        free(text);
        return GOLDEN_STOPPED; /* (not the reference's call either) */
    }
    if (evalplus) {
        /* EvalPlus: the expected output is the reference's, computed in its own sandbox */
        if (!g->ref) {
            free(text);
            return SG_OK;
        }
        if ((st = golden__call(g, g->ref, text, &ref)) != SG_OK)
            goto out;
        if (ref.kind != GR_VALUE) {
            /* the reference rejects this input: not a valid input */
            golden__discard(g, ref.kind == GR_RAISE   ? SG_DISCARD_REFERENCE_RAISED
                               : ref.kind == GR_NOENC ? SG_DISCARD_REFERENCE_UNENCODABLE
                                                      : SG_DISCARD_REFERENCE_TIMEOUT);
            goto out;
        }
        expected = ref.value;
    }
    if ((st = golden__call(g, g->cand, text, &res)) != SG_OK)
        goto out;
    bool pass;
    double atol, rtol;
    golden__tolerance(g, cs->has_atol, cs->atol, cs->has_rtol, cs->rtol, &atol, &rtol);
    if (cs->raises) {
        pass = golden__exc_matches(&res, cs->raises);
    } else {
        pass = res.kind == GR_VALUE && golden__equal(g, res.value, expected, atol, rtol);
    }
    g->r->cases_run++;
    g->r->cases_passed += pass;
    if (!pass || g->opts.keep_passing) {
        sg_golden_case_result *c =
            golden__add(g, evalplus ? SG_GCASE_INPUT : SG_GCASE_TEST, evalplus ? index - (t->ncases - t->nbase_inputs - t->nplus_inputs) : index,
                        pass, &res);
        if (c) {
            char *shown = golden__call_text(g->task->arg_wrap, g->entry, cs->args, cs->kwargs, true);
            c->input = golden__dup(g, shown);
            free(shown);
            c->args_json = golden__encode(g, cs->args);
            c->name = golden__dup(g, cs->name);
            if (cs->raises) {
                char buf[300];
                snprintf(buf, sizeof buf, "raises %.250s", cs->raises);
                c->expected = golden__dup(g, buf);
                if (!pass && res.kind == GR_VALUE)
                    c->reason = "returned instead of raising";
                else if (!pass && res.kind == GR_RAISE)
                    c->reason = golden__dup(g, "raised a different exception");
            } else {
                c->expected = golden__repr(g, expected);
            }
        }
    }
out:
    golden__res_free(&ref);
    golden__res_free(&res);
    free(text);
    return st;
}

/* ---- (a) asserts (HumanEval check, MBPP test_list) ---------------------------------------- */

typedef struct golden__ts {
    TSParser *parser;
} golden__ts;

static bool golden__node_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

/* The names whose calls are the candidate side of an assert. */
typedef struct golden__targets {
    const char *const *names;
    size_t n;
} golden__targets;

static bool golden__is_target_call(TSNode n, const char *src, const golden__targets *target)
{
    if (!golden__node_is(n, "call"))
        return false;
    TSNode f = ts_node_child_by_field_name(n, "function", 8);
    if (!golden__node_is(f, "identifier"))
        return false;
    uint32_t s = ts_node_start_byte(f), e = ts_node_end_byte(f);
    for (size_t k = 0; k < target->n; k++)
        if (e - s == strlen(target->names[k]) && !strncmp(src + s, target->names[k], e - s))
            return true;
    return false;
}

typedef struct {
    uint32_t start, end;
} golden__span;

/* Maximal calls of `target` under n (at most `cap`). Returns the count, or cap+1 when over. */
static size_t golden__target_calls(TSNode n, const char *src, const golden__targets *target, golden__span *out, size_t cap,
                                   size_t have, int depth)
{
    if (have > cap || depth > 200)
        return cap + 1;
    if (golden__is_target_call(n, src, target)) {
        if (have < cap)
            out[have] = (golden__span){ts_node_start_byte(n), ts_node_end_byte(n)};
        return have + 1;
    }
    uint32_t nc = ts_node_child_count(n);
    for (uint32_t k = 0; k < nc && have <= cap; k++)
        have = golden__target_calls(ts_node_child(n, k), src, target, out, cap, have, depth + 1);
    return have;
}

static char *golden__slice(const char *src, uint32_t s, uint32_t e)
{
    char *p = malloc(e - s + 1);
    if (p) {
        memcpy(p, src + s, e - s);
        p[e - s] = 0;
    }
    return p;
}

/* Wrap candidate-side text for the candidate's worker: HumanEval binds `candidate`. */
static char *golden__cand_expr(golden__run *g, const char *expr, bool humaneval)
{
    sg_buf b;
    sg_buf_init(&b, GOLDEN_TEXT_CAP);
    if (humaneval) {
        sg_buf_puts(&b, "(lambda candidate: (");
        sg_buf_puts(&b, expr);
        sg_buf_puts(&b, "))(");
        sg_buf_puts(&b, g->entry);
        sg_buf_puts(&b, ")");
    } else {
        sg_buf_puts(&b, "(");
        sg_buf_puts(&b, expr);
        sg_buf_puts(&b, ")");
    }
    if (b.failed || b.truncated) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}

#define GOLDEN_MAX_EXAMPLES 64u

static bool golden__ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (unsigned char)c >= 0x80;
}

/* Collect mode: the call `src[s..e)` of the function under test (a name, then its arguments),
 * evaluated by the reference with a recorder bound to that name, so that the arguments come
 * back as data (golden__take_examples). A call whose arguments call the same name again is
 * left out (the recorder would stand in for the inner call too). */
static void golden__want_example(golden__run *g, const char *src, uint32_t s, uint32_t e)
{
    if (!g->ref || g->ex_texts.len >= GOLDEN_MAX_EXAMPLES)
        return;
    uint32_t n = 0;
    while (s + n < e && golden__ident_char(src[s + n]))
        n++;
    if (n == 0 || n > 200)
        return;
    for (uint32_t k = s + n; k + n <= e; k++)
        if (!golden__ident_char(src[k - 1]) && !strncmp(src + k, src + s, n) &&
            (k + n == e || !golden__ident_char(src[k + n])))
            return;
    sg_buf b;
    sg_buf_init(&b, GOLDEN_TEXT_CAP);
    sg_buf_puts(&b, "(lambda ");
    sg_buf_append(&b, src + s, n);
    sg_buf_puts(&b, ": (");
    sg_buf_append(&b, src + s, e - s);
    sg_buf_puts(&b, "))(lambda *a, **k: [list(a), k])");
    if (b.failed || b.truncated) {
        sg_buf_free(&b);
        return;
    }
    for (size_t k = 0; k < g->ex_texts.len; k++)
        if (!strcmp(g->ex_texts.items[k], b.data)) {
            sg_buf_free(&b);
            return;
        }
    if (sg_array_push(&g->ex_texts, b.data, 0) < 0) {
        sg_buf_free(&b);
        return;
    }
    golden__want(g, g->ref, b.data);
}

/* The recorded calls' positional arguments, as examples (calls with keyword arguments, or
 * that the reference could not evaluate to plain data, are left out). Best effort: a call that
 * fails only adds no example; out of memory ends it. */
static void golden__take_examples(golden__run *g)
{
    for (size_t k = 0; k < g->ex_texts.len && g->ref && !g->failed_internal && !golden__cancelled(g); k++) {
        golden__res res;
        if (golden__call(g, g->ref, g->ex_texts.items[k], &res) != SG_OK) {
            golden__res_free(&res);
            break;
        }
        const sg_value *v = res.kind == GR_VALUE ? res.value : NULL;
        if (v && v->kind == SG_VAL_LIST && v->n == 2 && v->items[0]->kind == SG_VAL_LIST &&
            v->items[1]->kind == SG_VAL_DICT && v->items[1]->n == 0) {
            sg_value *a = sg_value_copy(v->items[0]);
            if (!a || sg_array_push(&g->ex_args, a, 0) < 0) {
                sg_value_free(a);
                golden__res_free(&res);
                break;
            }
        }
        golden__res_free(&res);
    }
    for (size_t k = 0; k < g->ex_texts.len; k++)
        free(g->ex_texts.items[k]);
    g->ex_texts.len = 0;
}

#define GOLDEN_MAX_SPANS 64

/* One assert statement (node `as` in `src`). `target` names the function under test in the
 * assert's text ("candidate" for HumanEval, the entry point for MBPP). */
static sg_status golden__run_assert(golden__run *g, const char *src, TSNode as, const golden__targets *target,
                                    bool humaneval, size_t index)
{
    sg_status st = SG_OK;
    TSNode expr = ts_node_named_child(as, 0);
    if (ts_node_is_null(expr))
        return SG_OK;
    char *assert_text = golden__slice(src, ts_node_start_byte(as), ts_node_end_byte(as));
    char *cand_text = NULL, *exp_text = NULL, *judge_text = NULL;
    golden__res cres = {0}, eres = {0};
    golden__span spans[GOLDEN_MAX_SPANS];
    size_t nspans = golden__target_calls(expr, src, target, spans, GOLDEN_MAX_SPANS, 0, 0);
    if (!assert_text)
        return SG_ERR_NOMEM;
    if (nspans == 0) {
        free(assert_text);
        return SG_OK; /* does not involve the function under test */
    }
    for (size_t k = 0; g->collect && k < nspans && k < GOLDEN_MAX_SPANS; k++)
        golden__want_example(g, src, spans[k].start, spans[k].end);
    bool pass = false;
    const char *reason = NULL;
    sg_golden_case_result *c = NULL;
    /* the == form: a side with the candidate, a side without */
    if (golden__node_is(expr, "comparison_operator") && ts_node_child_count(expr) == 3 &&
        !strcmp(ts_node_type(ts_node_child(expr, 1)), "==")) {
        TSNode l = ts_node_child(expr, 0), rr = ts_node_child(expr, 2);
        golden__span tmp[1];
        bool hl = golden__target_calls(l, src, target, tmp, 0, 0, 0) > 0;
        bool hr = golden__target_calls(rr, src, target, tmp, 0, 0, 0) > 0;
        if (hl != hr) {
            TSNode cn = hl ? l : rr, en = hl ? rr : l;
            char *cside = golden__slice(src, ts_node_start_byte(cn), ts_node_end_byte(cn));
            exp_text = golden__slice(src, ts_node_start_byte(en), ts_node_end_byte(en));
            cand_text = cside ? golden__cand_expr(g, cside, humaneval) : NULL;
            free(cside);
            if (!cand_text || !exp_text) {
                st = SG_ERR_NOMEM;
                goto out;
            }
            if (g->collect) {
                golden__want(g, g->ref, exp_text);
                golden__want(g, g->cand, cand_text);
                goto out;
            }
            /* TRUST: the expected side is evaluated by the reference, never by the candidate */
            if ((st = golden__call(g, g->ref, exp_text, &eres)) != SG_OK)
                goto out;
            if (eres.kind != GR_VALUE) {
                golden__internal(g, "assert %zu: the reference cannot evaluate the expected side: %s", index,
                                 golden__res_reason(g, &eres));
                st = SG_ERR_INTERNAL;
                goto out;
            }
            if ((st = golden__call(g, g->cand, cand_text, &cres)) != SG_OK)
                goto out;
            pass = cres.kind == GR_VALUE && sg_value_python_equal(cres.value, eres.value, g->task->atol);
            g->r->cases_run++;
            g->r->cases_passed += pass;
            if (!pass || g->opts.keep_passing) {
                c = golden__add(g, SG_GCASE_ASSERT, index, pass, &cres);
                if (c)
                    c->expected = golden__repr(g, eres.value);
            }
            goto report;
        }
    }
    /* the general form: every call of the candidate evaluated by the candidate, the assertion
     * itself by the reference with those values as literals */
    if (nspans > GOLDEN_MAX_SPANS) {
        golden__internal(g, "assert %zu: too many calls of %s", index, target->names[0]);
        st = SG_ERR_INTERNAL;
        goto out;
    }
    {
        uint32_t es = ts_node_start_byte(expr), ee = ts_node_end_byte(expr);
        sg_buf jb;
        sg_buf_init(&jb, GOLDEN_TEXT_CAP);
        sg_buf_puts(&jb, humaneval ? "(lambda candidate: bool(" : "bool(");
        uint32_t at = es;
        for (size_t k = 0; k < nspans; k++) {
            char *call = golden__slice(src, spans[k].start, spans[k].end);
            char *ct = call ? golden__cand_expr(g, call, humaneval) : NULL;
            free(call);
            if (!ct) {
                sg_buf_free(&jb);
                st = SG_ERR_NOMEM;
                goto out;
            }
            if (g->collect) {
                golden__want(g, g->cand, ct);
                free(ct);
                continue;
            }
            golden__res_free(&cres);
            st = golden__call(g, g->cand, ct, &cres);
            free(ct);
            if (st != SG_OK) {
                sg_buf_free(&jb);
                goto out;
            }
            if (cres.kind != GR_VALUE) {
                sg_buf_free(&jb);
                g->r->cases_run++;
                c = golden__add(g, SG_GCASE_ASSERT, index, false, &cres);
                goto report;
            }
            sg_buf_append(&jb, src + at, spans[k].start - at);
            sg_buf_puts(&jb, "(");
            sg_value_literal(cres.value, &jb);
            sg_buf_puts(&jb, ")");
            at = spans[k].end;
        }
        if (g->collect) {
            sg_buf_free(&jb);
            goto out;
        }
        sg_buf_append(&jb, src + at, ee - at);
        sg_buf_puts(&jb, ")");
        if (humaneval) {
            sg_buf_puts(&jb, ")(");
            sg_buf_puts(&jb, g->entry);
            sg_buf_puts(&jb, ")");
        }
        if (jb.failed || jb.truncated) {
            sg_buf_free(&jb);
            golden__internal(g, "assert %zu: judged text too long", index);
            st = SG_ERR_INTERNAL;
            goto out;
        }
        judge_text = jb.data;
        if ((st = golden__call(g, g->ref, judge_text, &eres)) != SG_OK)
            goto out;
        pass = eres.kind == GR_VALUE && eres.value->kind == SG_VAL_BOOL && eres.value->b;
        g->r->cases_run++;
        g->r->cases_passed += pass;
        if (!pass || g->opts.keep_passing) {
            c = golden__add(g, SG_GCASE_ASSERT, index, pass, nspans == 1 ? &cres : NULL);
            if (c && !pass)
                reason = eres.kind == GR_VALUE ? "assertion is false" : golden__res_reason(g, &eres);
        }
    }
report:
    if (c) {
        c->name = golden__dup(g, assert_text);
        c->input = golden__dup(g, assert_text);
        if (!humaneval && g->task->test_list_lines && index < g->task->ntest_list)
            c->test_line = g->task->test_list_lines[index];
        if (reason)
            c->reason = reason;
    }
out:
    golden__res_free(&cres);
    golden__res_free(&eres);
    free(assert_text);
    free(cand_text);
    free(exp_text);
    free(judge_text);
    return st;
}

/* The whole check(candidate) of a HumanEval test whose body is not only asserts: run in the
 * candidate's worker with every result forced to plain data. Weaker than the split asserts. */
static sg_status golden__run_whole_check(golden__run *g)
{
    char text[400];
    snprintf(text, sizeof text, "check(__sg_plain_fn(%s))", g->entry);
    golden__res res;
    sg_status st = golden__call(g, g->cand, text, &res);
    if (st != SG_OK)
        return st;
    bool pass = res.kind == GR_VALUE && res.value->kind == SG_VAL_NONE;
    g->r->cases_run++;
    g->r->cases_passed += pass;
    if (!pass || g->opts.keep_passing) {
        sg_golden_case_result *c = golden__add(g, SG_GCASE_CHECK, 0, pass, &res);
        if (c) {
            c->name = "check(candidate)";
            c->input = golden__dup(g, text);
        }
    }
    golden__res_free(&res);
    return SG_OK;
}

/* HumanEval's test: its tree (NULL: no memory; the run's, parsed once and freed with the run), the
 * body of its check(candidate) in *body, and in *split whether that body is asserts alone (then
 * each assert is run and judged on its own; else check runs whole). */
static TSTree *golden__humaneval_check(golden__run *g, TSParser *p, TSNode *body, bool *split)
{
    if (g->he_tree) {
        *body = g->he_body;
        *split = g->he_split;
        return g->he_tree;
    }
    const char *src = g->task->test;
    TSTree *tree = ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
    *split = false;
    if (!tree)
        return NULL;
    TSNode root = ts_tree_root_node(tree);
    bool found = false;
    for (uint32_t k = 0; k < ts_node_named_child_count(root) && !found; k++) {
        TSNode n = ts_node_named_child(root, k);
        if (!golden__node_is(n, "function_definition"))
            continue;
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
        if (e - s == 5 && !strncmp(src + s, "check", 5)) {
            *body = ts_node_child_by_field_name(n, "body", 4);
            found = true;
        }
    }
    bool sp = found && !ts_node_has_error(root);
    for (uint32_t k = 0; sp && k < ts_node_named_child_count(*body); k++) {
        TSNode s = ts_node_named_child(*body, k);
        if (golden__node_is(s, "assert_statement") || golden__node_is(s, "comment") || golden__node_is(s, "pass_statement"))
            continue;
        if (golden__node_is(s, "expression_statement") && ts_node_named_child_count(s) == 1 &&
            golden__node_is(ts_node_named_child(s, 0), "string"))
            continue;
        sp = false;
    }
    *split = sp;
    g->he_tree = tree;
    g->he_body = *body;
    g->he_split = sp;
    return tree;
}

/* One pass over check(candidate)'s asserts: collecting their calls (pass 0) or judging them. */
static sg_status golden__humaneval_pass(golden__run *g, TSNode body, int pass)
{
    static const char *const cand[] = {"candidate"};
    const golden__targets target = {cand, 1};
    sg_status st = SG_OK;
    g->collect = pass == 0;
    size_t index = 0;
    for (uint32_t k = 0; k < ts_node_named_child_count(body) && st == SG_OK; k++) {
        TSNode s = ts_node_named_child(body, k);
        if (golden__node_is(s, "assert_statement"))
            st = golden__run_assert(g, g->task->test, s, &target, true, index++);
    }
    g->collect = false;
    return st;
}

static sg_status golden__run_mbpp_pass(golden__run *g, TSParser *p);

/*
 * The asserts' calls of a HumanEval or MBPP task without cases of its own, collected and sent
 * ahead in batches before the programs' imports are judged. In a pooled worker every call imports
 * the program first (its item 0), so the imports' outcomes come with these batches, and neither
 * worker needs an import-only call (2 of the 8 calls of a typical HumanEval task). The judging
 * pass (golden__run_humaneval, golden__run_mbpp) then takes the outcomes from them.
 */
static sg_status golden__asserts_ahead(golden__run *g, TSParser *p)
{
    const sg_golden_task *t = g->task;
    if (t->ncases || g->failed_internal || (t->format != SG_TASK_HUMANEVAL && t->format != SG_TASK_MBPP))
        return SG_OK;
    sg_status st;
    if (t->format == SG_TASK_HUMANEVAL) {
        TSNode body = {0};
        bool split = false;
        TSTree *tree = golden__humaneval_check(g, p, &body, &split);
        if (!tree)
            return SG_OK; /* (golden__run_humaneval says so) */
        st = split ? golden__humaneval_pass(g, body, 0) : SG_OK;
        if (!split)
            return SG_OK;
    } else {
        g->collect = true;
        st = golden__run_mbpp_pass(g, p);
        g->collect = false;
    }
    if (st != SG_OK) {
        golden__want_clear(g);
        return SG_OK; /* (the judging pass meets the same error and reports it) */
    }
    golden__prefetch_wanted(g);
    g->asserts_ahead = true;
    return SG_OK;
}

static sg_status golden__run_humaneval(golden__run *g, TSParser *p)
{
    TSNode body = {0};
    bool split = false;
    TSTree *tree = golden__humaneval_check(g, p, &body, &split);
    if (!tree) {
        golden__internal(g, "cannot parse the task's test");
        return SG_ERR_INTERNAL;
    }
    sg_status st = SG_OK;
    if (!split) {
        st = golden__run_whole_check(g);
    } else {
        /* twice: first only to collect the calls, which then run ahead in batches (unless
         * golden__asserts_ahead did that already) */
        for (int pass = g->asserts_ahead ? 1 : 0; pass < 2 && st == SG_OK; pass++) {
            st = golden__humaneval_pass(g, body, pass);
            if (pass == 0)
                golden__prefetch_wanted(g);
        }
        golden__take_examples(g);
        golden__pf_clear(g);
    }
    return st;
}

/* twice: first only to collect the calls, which then run ahead in batches (unless
 * golden__asserts_ahead did that already) */
static sg_status golden__run_mbpp(golden__run *g, TSParser *p)
{
    sg_status st = SG_OK;
    if (!g->asserts_ahead) {
        g->collect = true;
        st = golden__run_mbpp_pass(g, p);
        g->collect = false;
        if (st == SG_OK)
            golden__prefetch_wanted(g);
    }
    if (st == SG_OK)
        st = golden__run_mbpp_pass(g, p);
    golden__take_examples(g);
    golden__pf_clear(g);
    golden__want_clear(g);
    return st;
}

static sg_status golden__run_mbpp_pass(golden__run *g, TSParser *p)
{
    const sg_golden_task *t = g->task;
    sg_status st = SG_OK;
    /* an assert-only task (--tests) names its functions under test; MBPP has one entry point */
    const golden__targets target = t->ntargets ? (golden__targets){(const char *const *)t->targets, t->ntargets}
                                               : (golden__targets){&g->entry, 1};
    for (size_t k = 0; k < t->ntest_list && st == SG_OK; k++) {
        const char *src = t->test_list[k];
        TSTree *tree = ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
        if (!tree)
            return SG_ERR_NOMEM;
        TSNode root = ts_tree_root_node(tree);
        TSNode as = ts_node_named_child(root, 0);
        if (ts_node_has_error(root) || !golden__node_is(as, "assert_statement")) {
            ts_tree_delete(tree);
            golden__internal(g, "test_list[%zu] is not one assert statement", k);
            return SG_ERR_INTERNAL;
        }
        st = golden__run_assert(g, src, as, &target, false, k);
        ts_tree_delete(tree);
    }
    return st;
}

/* MBPP has no entry_point: the first top-level function of `code` called in test_list[0]. */
static char *golden__mbpp_entry(const sg_golden_task *t, TSParser *p)
{
    if (!t->code || !t->ntest_list)
        return NULL;
    TSTree *tree = ts_parser_parse_string(p, NULL, t->code, (uint32_t)strlen(t->code));
    if (!tree)
        return NULL;
    TSNode root = ts_tree_root_node(tree);
    char *found = NULL;
    char *fallback = NULL;
    for (uint32_t k = 0; k < ts_node_named_child_count(root) && !found; k++) {
        TSNode n = ts_node_named_child(root, k);
        if (!golden__node_is(n, "function_definition"))
            continue;
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        char *nm = golden__slice(t->code, ts_node_start_byte(name), ts_node_end_byte(name));
        if (!nm)
            break;
        char pat[300];
        snprintf(pat, sizeof pat, "%.280s(", nm);
        if (strstr(t->test_list[0], pat))
            found = nm;
        else if (!fallback)
            fallback = nm;
        else
            free(nm);
    }
    ts_tree_delete(tree);
    if (found) {
        free(fallback);
        return found;
    }
    return fallback;
}

/* ---- (b) properties ----------------------------------------------------------------------- */

typedef struct golden__prop {
    sg_golden_prop_kind kind;
    const sg_golden_property *p; /* NULL: the default differential */
} golden__prop;

typedef struct golden__check {
    /* the outcome of checking one input */
    bool discarded;
    sg_golden_discard why; /* (when discarded) */
    bool failed;
    size_t prop;            /* failing property index */
    const char *reason;
    golden__res ref, cand;
} golden__check;

typedef struct golden__props {
    golden__prop items[16];
    size_t n;
} golden__props;

/* Does property k apply to an input (`only`: all, or that one; `ref_rejects`: the reference
 * raised on it)? */
static bool golden__prop_applies(const golden__props *ps, size_t k, long only, bool ref_rejects)
{
    if (only >= 0 && (size_t)only != k)
        return false;
    const golden__prop *pp = &ps->items[k];
    return !ref_rejects || pp->kind == SG_PROP_NO_RAISE ||
           (pp->kind == SG_PROP_DIFFERENTIAL && pp->p && pp->p->same_exceptions);
}

/* The property a timeout of the candidate is reported under: no_raise (where a timeout fails by
 * definition), else differential, else the first that applies. */
static size_t golden__timeout_prop(const golden__props *ps, long only, bool ref_rejects)
{
    static const sg_golden_prop_kind order[] = {SG_PROP_NO_RAISE, SG_PROP_DIFFERENTIAL};
    for (size_t o = 0; o < 2; o++)
        for (size_t k = 0; k < ps->n; k++)
            if (ps->items[k].kind == order[o] && golden__prop_applies(ps, k, only, ref_rejects))
                return k;
    for (size_t k = 0; k < ps->n; k++)
        if (golden__prop_applies(ps, k, only, ref_rejects))
            return k;
    return only >= 0 ? (size_t)only : 0;
}

/* The candidate's timeout was computed ahead but never judged (an earlier input of its batch
 * failed first and ended the search, or its assert failed on an earlier call): it is reported
 * all the same, by its call text, under the property a timeout fails (`ps`, generated inputs)
 * or as a case of the known answers (NULL). A timeout is never left out of the verdict. */
static void golden__report_stop(golden__run *g, const golden__props *ps)
{
    if (!g->cand_stopped || g->stop_consumed || g->failed_internal)
        return;
    g->stop_consumed = true;
    bool asserts = g->task->format == SG_TASK_HUMANEVAL || g->task->format == SG_TASK_MBPP;
    size_t prop = ps && ps->n ? golden__timeout_prop(ps, -1, false) : 0;
    sg_golden_case_result *c = golden__add(g, ps ? SG_GCASE_PROPERTY : asserts ? SG_GCASE_ASSERT : SG_GCASE_TEST,
                                           prop, false, NULL);
    if (!c)
        return;
    char buf[64];
    snprintf(buf, sizeof buf, "timeout (%s)", g->stop_kind);
    c->reason = golden__dup(g, buf);
    c->input = golden__dup(g, g->stop_text);
    c->name = ps && ps->n ? sg_golden_prop_name(ps->items[prop].kind) : NULL;
    if (ps)
        g->r->inputs_checked++;
    else
        g->r->cases_run++;
    g->stop_case = (long)(g->r->cases.len - 1);
}

/* The case that reports the candidate's timeout names its input and says that nothing ran after
 * it (its reason starts with "timeout": criterion sandbox-timeout). */
static void golden__stop_reason(golden__run *g)
{
    if (g->stop_case < 0 || (size_t)g->stop_case >= g->r->cases.len)
        return;
    sg_golden_case_result *c = &g->r->cases.items[g->stop_case];
    char buf[1024];
    snprintf(buf, sizeof buf, "timeout (%s) on %.700s: the candidate's first timeout ends its run (no further call)",
             g->stop_kind, c->input ? c->input : g->stop_text ? g->stop_text : "?");
    const char *r = golden__dup(g, buf);
    if (r)
        c->reason = r;
}

/* Does an argument hold a list, dict or set (at any depth): can a call change it? */
static bool golden__mutable(const sg_value *v, int depth)
{
    if (!v || depth > 64)
        return false;
    if (v->kind == SG_VAL_LIST || v->kind == SG_VAL_DICT || v->kind == SG_VAL_SET)
        return true;
    for (size_t k = 0; v->kind == SG_VAL_TUPLE && k < v->n; k++)
        if (golden__mutable(v->items[k], depth + 1))
            return true;
    return false;
}

/* Side effects on arguments are checked (issue 26): the task does not allow them, there is a
 * reference to compare with, and an argument could change. */
static bool golden__effects_checked(const golden__run *g, const sg_value *args, const sg_value *kwargs)
{
    if (!g->ref || g->task->mutation_allowed)
        return false;
    for (size_t i = 0; args && i < args->n; i++)
        if (golden__mutable(args->items[i], 0))
            return true;
    for (size_t i = 0; kwargs && kwargs->kind == SG_VAL_DICT && i < kwargs->n; i++)
        if (golden__mutable(kwargs->items[2 * i + 1], 0))
            return true;
    return false;
}

/* The call that returns the arguments as the candidate left them, or (combined) the value too. */
static char *golden__effects_text(golden__run *g, const sg_value *args, const sg_value *kwargs, bool combined)
{
    sg_buf b;
    sg_buf_init(&b, GOLDEN_TEXT_CAP);
    sg_buf_printf(&b, "(lambda a, k: (%s(*a, **k), a, k)%s)([", g->entry, combined ? "" : "[1:]");
    for (size_t i = 0; i < args->n; i++) {
        if (i)
            sg_buf_puts(&b, ", ");
        sg_value_literal(args->items[i], &b);
    }
    sg_buf_puts(&b, "], ");
    if (kwargs && kwargs->n)
        sg_value_literal(kwargs, &b);
    else
        sg_buf_puts(&b, "{}");
    sg_buf_puts(&b, ")");
    if (b.failed || b.truncated) {
        sg_buf_free(&b);
        return NULL;
    }
    return b.data;
}

/* The call that returns the arguments as the candidate left them (malloc'd; NULL if too long). */
static char *golden__mutation_text(golden__run *g, const sg_value *args, const sg_value *kwargs)
{
    return golden__effects_text(g, args, kwargs, false);
}

/* One call that answers both the call and golden__mutation_text: (value, args, kwargs) after the
 * call, split by golden__pf_keep (malloc'd; NULL if too long). */
static char *golden__combined_text(golden__run *g, const sg_value *args, const sg_value *kwargs)
{
    return golden__effects_text(g, args, kwargs, true);
}

/* Check every property (or only `only`, >= 0) on one input. Fills *out (caller frees its res). */
/* The second call of `idempotent`: f with argument p->arg replaced by the first result. NULL when
 * it cannot be sent (too large) or out of memory (*nomem). Malloc'd. */
static char *golden__idem_text(golden__run *g, const sg_golden_property *p, const sg_value *args,
                               const sg_value *kwargs, const sg_value *result, bool *nomem)
{
    sg_value *a2 = sg_value_copy(args), *y = sg_value_copy(result);
    if (!a2 || !y) {
        sg_value_free(a2);
        sg_value_free(y);
        *nomem = true;
        return NULL;
    }
    sg_value_free(a2->items[p->arg]);
    a2->items[p->arg] = y;
    char *t2 = golden__call_text(g->task->arg_wrap, g->entry, a2, kwargs, false);
    sg_value_free(a2);
    return t2;
}

/* The reference-side call of `roundtrip`: inverse(result). NULL when too large or out of memory.
 * Malloc'd. */
static char *golden__inverse_text(const sg_golden_property *p, const sg_value *result)
{
    sg_buf b;
    sg_buf_init(&b, GOLDEN_TEXT_CAP);
    const char *dot = strrchr(p->inverse, '.');
    if (dot)
        sg_buf_printf(&b, "__import__('%.*s', fromlist=['_']).%s(", (int)(dot - p->inverse), p->inverse, dot + 1);
    else
        sg_buf_printf(&b, "%s(", p->inverse);
    sg_value_literal(result, &b);
    sg_buf_puts(&b, ")");
    char *t = NULL;
    if (!b.failed && !b.truncated)
        t = strdup(b.data);
    sg_buf_free(&b);
    return t;
}

/* The arguments as worker `w` left them after the call, as [args, kwargs] (*ret_after, owned by
 * *res), or NULL when it cannot say (a non-plain value: *ret_noenc; another outcome). */
static sg_status golden__after(golden__run *g, sg_worker *w, const char *mt, golden__res *res,
                               const sg_value **ret_after, bool *ret_noenc)
{
    *ret_after = NULL;
    *ret_noenc = false;
    sg_status st = golden__call(g, w, mt, res);
    if (st != SG_OK)
        return st;
    if (res->kind == GR_VALUE && res->value->kind == SG_VAL_TUPLE && res->value->n == 2 &&
        res->value->items[0]->kind == SG_VAL_LIST)
        *ret_after = res->value;
    *ret_noenc = res->kind == GR_NOENC;
    return SG_OK;
}

/*
 * Side effects on the arguments, against the reference's (issue 26): the candidate's call leaves
 * the arguments as the reference's call does. Checked on the candidate first (one more call of it
 * per input, batched); the reference's call is made only when the candidate changed something
 * (an in-place task: the reference changes them the same way). A change the reference does not
 * make fails, naming the argument.
 */
static sg_status golden__check_effects(golden__run *g, const sg_value *args, const sg_value *kwargs, bool *fail,
                                       const char **reason, bool *ret_stop)
{
    char *mt = golden__mutation_text(g, args, kwargs);
    if (!mt)
        return SG_OK; /* (too long to send: not checked) */
    golden__res cm, rm;
    memset(&rm, 0, sizeof rm);
    const sg_value *ca = NULL, *ra = NULL;
    bool cnoenc, rnoenc;
    sg_status st = golden__after(g, g->cand, mt, &cm, &ca, &cnoenc);
    *ret_stop |= cm.stop; /* (the candidate's one timeout, judged here) */
    if (st != SG_OK || cm.stop || cm.kind == GR_TIMEOUT) {
        if (st == SG_OK && cm.kind == GR_TIMEOUT) {
            *fail = true;
            *reason = golden__res_reason(g, &cm);
        }
        goto out;
    }
    long changed = -1; /* the first argument the candidate changed; -2: a keyword argument */
    for (size_t i = 0; ca && i < args->n && changed == -1; i++)
        if (!sg_value_strict_equal(ca->items[0]->items[i], args->items[i], 0, 0))
            changed = (long)i;
    if (ca && changed == -1 && kwargs && kwargs->n && !sg_value_strict_equal(ca->items[1], kwargs, 0, 0))
        changed = -2;
    if (ca && changed == -1 && !g->task->mutation_expected)
        goto out; /* unchanged: nothing to compare (unless the task expects its changes) */
    if ((st = golden__after(g, g->ref, mt, &rm, &ra, &rnoenc)) != SG_OK)
        goto out;
    if (!ra)
        goto out; /* the reference's effects cannot be read: not judged */
    if (!ca) {
        *fail = cnoenc;
        *reason = "an argument holds non-plain data after the call (the reference's do not)";
        goto out;
    }
    if (!sg_value_strict_equal(ca->items[0], ra->items[0], 0, 0) || !sg_value_strict_equal(ca->items[1], ra->items[1], 0, 0)) {
        *fail = true;
        char buf[200];
        if (changed == -1)
            snprintf(buf, sizeof buf, "the call leaves its arguments unchanged; the reference changes them (the task "
                                      "expects it: \"mutation\": \"expected\")");
        else if (changed >= 0)
            snprintf(buf, sizeof buf, "the call changed argument %ld (0-based), which the reference leaves %s", changed,
                     sg_value_strict_equal(ra->items[0]->items[changed], args->items[changed], 0, 0) ? "unchanged"
                                                                                                   : "otherwise");
        else
            snprintf(buf, sizeof buf, "the call changed a keyword argument, which the reference leaves unchanged");
        const char *r = golden__dup(g, buf);
        *reason = r ? r : "the call changed its arguments unlike the reference";
    }
out:
    free(mt);
    golden__res_free(&cm);
    golden__res_free(&rm);
    return st;
}

static const sg_outcome_info *golden__pf_peek(const golden__run *g, const sg_worker *w, const char *text);

static sg_status golden__check_input(golden__run *g, const golden__props *ps, const sg_value *args,
                                     const sg_value *kwargs, long only, golden__check *out)
{
    memset(out, 0, sizeof *out);
    char *call = golden__call_text(g->task->arg_wrap, g->entry, args, kwargs, false);
    if (!call) {
        out->discarded = true; /* too large to send: not a usable input */
        out->why = SG_DISCARD_TOO_LARGE;
        return SG_OK;
    }
    if (golden__cand_blocked(g, call)) {
        free(call);
        return GOLDEN_STOPPED; /* (nor the reference's calls for it) */
    }
    sg_status st = SG_OK;
    bool need_ref_always = false;
    for (size_t k = 0; k < ps->n; k++)
        if ((only < 0 || (size_t)only == k) &&
            (ps->items[k].kind == SG_PROP_DIFFERENTIAL && ps->items[k].p && ps->items[k].p->same_exceptions))
            need_ref_always = true;
    /* the contract (reference side) */
    if (g->ref && g->task->contract) {
        char *ct = golden__call_text(g->task->arg_wrap, "__sg_contract", args, kwargs, false);
        golden__res cr;
        if (!ct) {
            out->discarded = true;
            out->why = SG_DISCARD_TOO_LARGE;
            goto out;
        }
        st = golden__call(g, g->ref, ct, &cr);
        free(ct);
        if (st != SG_OK)
            goto out;
        bool ok = cr.kind == GR_VALUE && cr.value->kind == SG_VAL_BOOL && cr.value->b;
        golden__res_free(&cr);
        if (!ok) {
            out->discarded = true;
            out->why = SG_DISCARD_CONTRACT;
            goto out;
        }
    }
    bool ref_rejects = false;
    if (g->ref && g->generated && !golden__pf_peek(g, g->ref, call) && golden__fenced(g, args)) {
        out->discarded = true; /* at least as large as an input the reference timed out on */
        out->why = SG_DISCARD_FENCED;
        goto out;
    }
    if (g->ref) {
        if ((st = golden__call(g, g->ref, call, &out->ref)) != SG_OK)
            goto out;
        if (out->ref.kind == GR_TIMEOUT)
            golden__fence_add(g, args);
        ref_rejects = out->ref.kind != GR_VALUE;
        if (ref_rejects && out->ref.kind != GR_RAISE) {
            out->discarded = true; /* a timeout or a crash of the reference, or a value it cannot send */
            out->why = out->ref.kind == GR_NOENC ? SG_DISCARD_REFERENCE_UNENCODABLE : SG_DISCARD_REFERENCE_TIMEOUT;
            goto out;
        }
    }
    /* does any property still apply? */
    bool any = false;
    for (size_t k = 0; k < ps->n; k++) {
        if (only >= 0 && (size_t)only != k)
            continue;
        sg_golden_prop_kind kind = ps->items[k].kind;
        if (!ref_rejects || kind == SG_PROP_NO_RAISE || (kind == SG_PROP_DIFFERENTIAL && need_ref_always))
            any = true;
    }
    if (!any) {
        out->discarded = true;
        out->why = SG_DISCARD_REFERENCE_RAISED;
        goto out;
    }
    if ((st = golden__call(g, g->cand, call, &out->cand)) != SG_OK)
        goto out;
    const golden__res *c = &out->cand, *r = &out->ref;
    if (c->kind == GR_TIMEOUT) {
        /* a timeout of the candidate fails whatever the properties say (criterion
         * sandbox-timeout); it has stopped the candidate (golden__run.cand_stopped) */
        out->failed = true;
        out->prop = golden__timeout_prop(ps, only, ref_rejects);
        out->reason = golden__res_reason(g, c);
        goto out;
    }
    for (size_t k = 0; k < ps->n && !out->failed; k++) {
        if (only >= 0 && (size_t)only != k)
            continue;
        const golden__prop *pp = &ps->items[k];
        const sg_golden_property *p = pp->p;
        if (ref_rejects && pp->kind != SG_PROP_NO_RAISE && !(pp->kind == SG_PROP_DIFFERENTIAL && p && p->same_exceptions))
            continue;
        bool fail = false;
        const char *reason = NULL;
        switch (pp->kind) {
        case SG_PROP_NO_RAISE:
            if (c->kind == GR_RAISE) {
                bool m = false;
                for (size_t e = 0; p && e < p->nexcept && !m; e++)
                    m = golden__exc_matches(c, p->except[e]);
                fail = !m;
            } else {
                fail = c->kind == GR_TIMEOUT || c->kind == GR_OTHER;
            }
            break;
        case SG_PROP_RETURNS_TYPE: {
            const sg_type *t = p && p->type ? p->type : g->task->sig_returns;
            if (c->kind == GR_NOENC)
                fail = true;
            else if (c->kind == GR_VALUE && t && !sg_type_conforms(c->value, t, true)) {
                fail = true;
                reason = "the result does not conform to the declared type";
            }
            break;
        }
        case SG_PROP_IDEMPOTENT: {
            if (c->kind != GR_VALUE || !p || p->arg >= args->n)
                break;
            bool nomem = false;
            char *t2 = golden__idem_text(g, p, args, kwargs, c->value, &nomem);
            if (nomem) {
                st = SG_ERR_NOMEM;
                goto out;
            }
            if (!t2)
                break;
            golden__res again;
            st = golden__call(g, g->cand, t2, &again);
            free(t2);
            if (st != SG_OK)
                goto out;
            fail = !(again.kind == GR_VALUE && sg_value_strict_equal(again.value, c->value, 0, 0));
            if (fail)
                reason = again.kind == GR_TIMEOUT ? golden__res_reason(g, &again) : "f(f(x)) differs from f(x)";
            out->cand.stop |= again.stop; /* the case reported from out->cand reports the timeout */
            golden__res_free(&again);
            break;
        }
        case SG_PROP_SORTED_PERMUTATION: {
            if (c->kind == GR_NOENC) {
                fail = true;
                break;
            }
            if (c->kind != GR_VALUE || !p || p->arg >= args->n)
                break;
            const sg_value *y = c->value, *x = args->items[p->arg];
            fail = y->kind != SG_VAL_LIST || x->n != y->n;
            if (!fail && (x->kind == SG_VAL_LIST || x->kind == SG_VAL_TUPLE)) {
                bool *used = calloc(y->n + 1, 1);
                if (!used) {
                    st = SG_ERR_NOMEM;
                    goto out;
                }
                for (size_t i = 0; i < x->n && !fail; i++) {
                    bool m = false;
                    for (size_t j = 0; j < y->n && !m; j++)
                        if (!used[j] && sg_value_strict_equal(y->items[j], x->items[i], 0, 0))
                            used[j] = m = true;
                    fail = !m;
                }
                free(used);
                for (size_t i = 1; i < y->n && !fail; i++) {
                    bool ok = true;
                    bool bad = p->reverse ? sg_value_less(y->items[i - 1], y->items[i], &ok)
                                          : sg_value_less(y->items[i], y->items[i - 1], &ok);
                    fail = bad || !ok;
                }
            }
            if (fail)
                reason = "not a sorted permutation of the input";
            break;
        }
        case SG_PROP_ROUNDTRIP: {
            if (c->kind != GR_VALUE || !p || !p->inverse || p->arg >= args->n || !g->ref)
                break;
            char *it = golden__inverse_text(p, c->value);
            if (!it)
                break;
            golden__res inv;
            st = golden__call(g, g->ref, it, &inv); /* TRUST: the inverse is the reference's */
            free(it);
            if (st != SG_OK)
                goto out;
            fail = !(inv.kind == GR_VALUE && sg_value_strict_equal(inv.value, args->items[p->arg], 0, 0));
            if (fail)
                reason = "inverse(f(x)) differs from x";
            golden__res_free(&inv);
            break;
        }
        case SG_PROP_NO_MUTATION: {
            char *mt = golden__mutation_text(g, args, kwargs);
            if (!mt)
                break;
            golden__res m;
            st = golden__call(g, g->cand, mt, &m);
            free(mt);
            if (st != SG_OK)
                goto out;
            if (m.kind == GR_VALUE && m.value->kind == SG_VAL_TUPLE && m.value->n == 2 &&
                m.value->items[0]->kind == SG_VAL_LIST && m.value->items[0]->n == args->n) {
                const sg_value *after = m.value->items[0];
                for (size_t i = 0; i < args->n && !fail; i++) {
                    bool listed = !p || !p->has_args;
                    for (size_t q = 0; p && p->has_args && q < p->nargs; q++)
                        listed |= p->args[q] == i;
                    if (listed && !sg_value_strict_equal(after->items[i], args->items[i], 0, 0))
                        fail = true;
                }
                if (!fail && (!p || !p->has_args) && kwargs && kwargs->n &&
                    !sg_value_strict_equal(m.value->items[1], kwargs, 0, 0))
                    fail = true;
                if (fail)
                    reason = "the call mutated its arguments";
            } else if (m.kind == GR_NOENC) {
                fail = true;
                reason = "an argument holds non-plain data after the call";
            } else if (m.kind == GR_TIMEOUT) {
                fail = true; /* (the candidate is stopped) */
                reason = golden__res_reason(g, &m);
            }
            out->cand.stop |= m.stop;
            golden__res_free(&m);
            break;
        }
        case SG_PROP_DIFFERENTIAL: {
            if (!g->ref)
                break;
            double atol, rtol;
            golden__tolerance(g, p && p->has_atol, p ? p->atol : 0, p && p->has_rtol, p ? p->rtol : 0, &atol, &rtol);
            if (r->kind == GR_VALUE) {
                fail = !(c->kind == GR_VALUE && golden__equal(g, c->value, r->value, atol, rtol));
                if (fail && c->kind == GR_VALUE)
                    reason = "differs from the reference";
                if (!fail && golden__effects_checked(g, args, kwargs)) {
                    bool stop = false;
                    st = golden__check_effects(g, args, kwargs, &fail, &reason, &stop);
                    out->cand.stop |= stop;
                    if (st != SG_OK)
                        goto out;
                }
            } else if (r->kind == GR_RAISE && p && p->same_exceptions) {
                const char *rn = r->info->exc_type ? r->info->exc_type : "";
                const char *dot = strrchr(rn, '.');
                fail = !golden__exc_matches(c, dot ? dot + 1 : rn);
                if (fail) {
                    char buf[400];
                    snprintf(buf, sizeof buf, "the reference raises %.200s here; the candidate %s", rn,
                             c->kind == GR_RAISE ? "raises another exception" : "does not");
                    reason = golden__dup(g, buf);
                }
            }
            break;
        }
        }
        if (fail) {
            out->failed = true;
            out->prop = k;
            out->reason = reason ? reason : golden__res_reason(g, c);
        }
    }
out:
    free(call);
    return st;
}

typedef struct golden__shrink_ctx {
    golden__run *g;
    const golden__props *ps;
    const sg_value *kwargs;
    size_t prop;
    golden__check last; /* the check of the last input accepted (last_set) */
    bool last_set;
} golden__shrink_ctx;

static void golden__check_free(golden__check *ch)
{
    golden__res_free(&ch->ref);
    golden__res_free(&ch->cand);
}

static bool golden__in_domain(const golden__run *g, const sg_value *args);

/* (A timeout of the candidate fails, so the shrinker takes that input, and the next call ends
 * the shrinking with GOLDEN_STOPPED: no input is shrunk by running more timeouts.) */
static sg_status golden__shrink_pred(void *ctx, const sg_value *args, bool *ret)
{
    golden__shrink_ctx *s = ctx;
    if (!golden__in_domain(s->g, args)) {
        *ret = false; /* outside the examples' envelope: not a counterexample */
        return SG_OK;
    }
    golden__check ch;
    sg_status st = golden__check_input(s->g, s->ps, args, s->kwargs, (long)s->prop, &ch);
    *ret = st == SG_OK && !ch.discarded && ch.failed;
    if (*ret) {
        if (s->last_set)
            golden__check_free(&s->last);
        s->last = ch; /* the case reported if the candidate stops (no replay then) */
        s->last_set = true;
    } else {
        golden__check_free(&ch);
    }
    return st;
}

static void golden__prefetch_inputs(golden__run *g, const golden__props *ps, long only, const sg_value *const *args,
                                    const sg_value *const *kwargs, size_t n);

static void golden__shrink_prep(void *ctx, const sg_value *const *args, size_t n)
{
    golden__shrink_ctx *s = ctx;
    if (s->g->cand_stopped)
        return; /* nothing more is run (and what was computed stays for golden__report_stop) */
    golden__pf_clear(s->g);
    golden__want_clear(s->g);
    const sg_value *kw[16];
    for (size_t k = 0; k < 16; k++)
        kw[k] = s->kwargs;
    for (size_t at = 0; at < n; at += 16) /* (the shrinker announces up to 16 at a time) */
        golden__prefetch_inputs(s->g, s->ps, (long)s->prop, args + at, kw, n - at < 16 ? n - at : 16);
}

/* FNV-1a of the encoded arguments, for de-duplication. */
static uint64_t golden__hash(const sg_value *args)
{
    sg_buf b;
    sg_buf_init(&b, 1 << 20);
    sg_value_encode(args, &b);
    uint64_t h = 1469598103934665603ULL;
    for (size_t k = 0; k < b.len; k++)
        h = (h ^ (unsigned char)b.data[k]) * 1099511628211ULL;
    sg_buf_free(&b);
    return h;
}

typedef struct golden__seen {
    uint64_t *slots;
    size_t cap, n;
} golden__seen;

/* true when new (and now recorded) */
static bool golden__seen_add(golden__seen *s, uint64_t h)
{
    if (h == 0)
        h = 1;
    if (!s->slots || s->n * 2 >= s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        uint64_t *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return true;
        for (size_t k = 0; k < s->cap; k++)
            if (s->slots[k])
                for (size_t j = s->slots[k] & (ncap - 1);; j = (j + 1) & (ncap - 1))
                    if (!ns[j]) {
                        ns[j] = s->slots[k];
                        break;
                    }
        free(s->slots);
        s->slots = ns;
        s->cap = ncap;
    }
    for (size_t j = h & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        if (s->slots[j] == h)
            return false;
        if (!s->slots[j]) {
            s->slots[j] = h;
            s->n++;
            return true;
        }
    }
}

static bool golden__conforms(golden__run *g, const sg_value *args)
{
    if (args->n != g->ntypes)
        return false;
    for (size_t k = 0; k < args->n; k++)
        if (!sg_type_conforms(args->items[k], g->types[k], !g->inferred))
            return false;
    return true;
}

/* Record a failing input: shrink it, then report it as a property case. Takes `args` and
 * `*first` (its check, which failed). A candidate that timed out is not called again: its input
 * is reported as it is (not shrunk, not replayed), and shrinking stops at its first timeout. */
static sg_status golden__report_failure(golden__run *g, const golden__props *ps, sg_value *args,
                                        const sg_value *kwargs, size_t prop, golden__check *first)
{
    const char *first_reason = first->reason;
    golden__shrink_ctx sc = {.g = g, .ps = ps, .kwargs = kwargs, .prop = prop};
    unsigned calls = 0;
    sg_status st = SG_OK;
    if (!g->cand_stopped) {
        golden__unpool(g);
        /* the shrinker's budget is its own: time and calls */
        /* exact types only: validity past them is the contract's and the reference's to decide
         * (docs/tasks.md: a minimal input resists every single step among valid inputs) */
        bool options = false;
        st = golden__stage_end(g, sg_shrink_prepared(&args, g->types, g->types ? g->ntypes : 0, options,
                                                     golden__shrink_pred, golden__shrink_prep, &sc,
                                                     g->opts.max_shrink_calls, &calls));
        if (!g->cand_stopped)
            golden__pf_clear(g); /* (a stopped candidate's computed outcomes stay: golden__report_stop) */
    }
    if (st != SG_OK) {
        if (sc.last_set)
            golden__check_free(&sc.last);
        golden__check_free(first);
        sg_value_free(args);
        return st;
    }
    golden__check ch;
    if (g->cand_stopped) {
        /* no replay: the check of the input as it stands (the last one the shrinker took) */
        if (sc.last_set) {
            ch = sc.last;
            golden__check_free(first);
        } else {
            ch = *first;
        }
        sc.last_set = false;
    } else {
        if (sc.last_set)
            golden__check_free(&sc.last);
        golden__check_free(first);
        if ((st = golden__check_input(g, ps, args, kwargs, (long)prop, &ch)) != SG_OK) {
            sg_value_free(args);
            return golden__stage_end(g, st);
        }
    }
    if (!ch.failed) {
        /* flaky: the shrunk input no longer fails; fail closed on the original evidence */
        char buf[700];
        snprintf(buf, sizeof buf, "failed once (%.500s), then passed on replay (nondeterministic)",
                 first_reason ? first_reason : "?");
        ch.reason = golden__dup(g, buf);
    }
    /* Several failing cases often shrink to the same minimal input: report it once. */
    char *shown = golden__call_text(g->task->arg_wrap, g->entry, args, kwargs, true);
    const char *pname = sg_golden_prop_name(ps->items[prop].kind);
    for (size_t k = 0; shown && k < g->r->cases.len; k++) {
        const sg_golden_case_result *o = &g->r->cases.items[k];
        if (o->kind == SG_GCASE_PROPERTY && o->input && o->name && !strcmp(o->input, shown) && !strcmp(o->name, pname)) {
            free(shown);
            golden__res_free(&ch.ref);
            golden__res_free(&ch.cand);
            sg_value_free(args);
            return SG_OK;
        }
    }
    sg_golden_case_result *c = golden__add(g, SG_GCASE_PROPERTY, prop, false, &ch.cand);
    if (c) {
        c->name = pname;
        c->input = golden__dup(g, shown);
        c->args_json = golden__encode(g, args);
        c->reason = ch.reason;
        c->shrink_calls = calls;
        if (ch.ref.kind == GR_VALUE && ch.ref.value) /* (no reference: no expected value) */
            c->expected = golden__repr(g, ch.ref.value);
        else if (ch.ref.info && ch.ref.kind == GR_RAISE) {
            char buf[300];
            snprintf(buf, sizeof buf, "raises %.250s", ch.ref.info->exc_type ? ch.ref.info->exc_type : "?");
            c->expected = golden__dup(g, buf);
        }
        /* the smallest counterexample found is the one reported */
        uint64_t size = sg_value_size(args);
        if (g->r->counterexample < 0 || size < g->r->cx_size) {
            g->r->counterexample = (long)(g->r->cases.len - 1);
            g->r->cx_size = size;
        }
    }
    free(shown);
    golden__res_free(&ch.ref);
    golden__res_free(&ch.cand);
    sg_value_free(args);
    return SG_OK;
}

/* Try one input: returns *stop when a failure was found and reported. Takes `args`. */
static sg_status golden__try_input(golden__run *g, const golden__props *ps, sg_value *args,
                                   const sg_value *kwargs, bool *stop)
{
    golden__check ch;
    g->judging_block = true;
    sg_status st = golden__check_input(g, ps, args, kwargs, -1, &ch);
    g->judging_block = false;
    if (st == GOLDEN_REF_DONE) {
        *stop = true; /* not a failure, and not an input checked */
        golden__check_free(&ch);
        sg_value_free(args);
        return SG_OK;
    }
    if (st == SG_OK) {
        if (ch.discarded)
            golden__discard(g, ch.why);
        else
            g->r->inputs_checked++;
    }
    bool failed = st == SG_OK && ch.failed;
    if (st != SG_OK || !failed) {
        golden__check_free(&ch);
        sg_value_free(args);
        return st;
    }
    *stop = true;
    return golden__report_failure(g, ps, args, kwargs, ch.prop, &ch);
}

/* Generated inputs are checked in blocks: the calls every input needs (the contract, the
 * reference, the candidate, the mutation check) run ahead in batches, then each input is judged
 * in order exactly as one at a time; the first failure stops the search (the rest of its block
 * is dropped unjudged). Deterministic: blocks depend only on the seed and the budget. */
typedef struct golden__block {
    const golden__props *ps;
    golden__seen *seen;
    struct {
        sg_value *args;
        const sg_value *kwargs;
        sg_value *own_kwargs; /* generated keyword arguments (kwargs points here), or NULL */
    } items[GOLDEN_BATCH_ITEMS];
    size_t n;
    bool stop;
    bool last; /* the stage's last block: golden__efficiency's scaled inputs go with it */
} golden__block;

/* Will golden__check_input run the candidate on this input, from what the reference's calls
 * computed ahead say? Not when the contract rejects it, the reference times out or crashes on
 * it, or raises and no property judges the candidate then (the input is discarded): a
 * candidate's timeout there would stop it on an input that is never judged. Unknown (not
 * computed ahead): no (golden__check_input calls it then, if it must). */
static bool golden__cand_needed(const golden__run *g, const golden__props *ps, long only, const sg_value *args,
                                const sg_value *kwargs, const char *call)
{
    if (!g->ref)
        return true;
    if (g->task->contract) {
        char *ct = golden__call_text(g->task->arg_wrap, "__sg_contract", args, kwargs, false);
        const sg_outcome_info *ci = ct ? golden__pf_peek(g, g->ref, ct) : NULL;
        free(ct);
        if (!ci || ci->kind != SG_OUTCOME_OK || !ci->value_json || strcmp(ci->value_json, "true"))
            return false;
    }
    const sg_outcome_info *ri = golden__pf_peek(g, g->ref, call);
    if (golden__info_value(ri))
        return true;
    if (!ri || ri->kind != SG_OUTCOME_EXCEPTION)
        return false; /* a timeout or a crash of the reference: discarded */
    for (size_t k = 0; k < ps->n; k++)
        if (golden__prop_applies(ps, k, only, true))
            return true;
    return false;
}

/* The calls an input needs: `side` 0 the reference's (contract, call), 1 the candidate's (call,
 * mutation check; only where golden__cand_needed, for property `only` or all). */
static void golden__want_side(golden__run *g, const golden__props *ps, long only, const sg_value *args,
                              const sg_value *kwargs, int side)
{
    char *call = golden__call_text(g->task->arg_wrap, g->entry, args, kwargs, false);
    if (!call)
        return;
    if (side != 1 && g->ref && g->task->contract) {
        char *ct = golden__call_text(g->task->arg_wrap, "__sg_contract", args, kwargs, false);
        golden__want(g, g->ref, ct);
        free(ct);
    }
    if (side != 1 && g->ref) {
        char *t = strdup(call);
        if (!t || sg_array_push(&g->want, ((golden__pf){g->ref, t, NULL, g->generated ? args : NULL, NULL, NULL, NULL, 0, 0}),
                                0) < 0)
            free(t);
    }
    if (side != 1 && g->task->mutation_expected && golden__effects_checked(g, args, kwargs)) {
        char *mt = golden__mutation_text(g, args, kwargs);
        golden__want(g, g->ref, mt);
        free(mt);
    }
    bool skip = side == 1 && !golden__cand_needed(g, ps, only, args, kwargs, call);
    if (side == 0 || skip) {
        free(call);
        return;
    }
    bool want_mt = false;
    for (size_t k = 0; k < ps->n; k++)
        want_mt |= ps->items[k].kind == SG_PROP_NO_MUTATION ||
                   (ps->items[k].kind == SG_PROP_DIFFERENTIAL && golden__effects_checked(g, args, kwargs));
    char *mt = want_mt ? golden__mutation_text(g, args, kwargs) : NULL;
    char *ct = mt ? golden__combined_text(g, args, kwargs) : NULL;
    /* the call and its argument check in one item of the candidate's batch (golden__pf_keep) */
    if (ct && sg_array_push(&g->want, ((golden__pf){g->cand, ct, NULL, NULL, NULL, call, mt, 0, 0}), 0) == 0)
        return;
    free(ct);
    golden__want(g, g->cand, call);
    golden__want(g, g->cand, mt);
    free(call);
    free(mt);
}

/* The prefetched outcome of `text` in worker `w`, not consumed; NULL when there is none. */
static const sg_outcome_info *golden__pf_peek(const golden__run *g, const sg_worker *w, const char *text)
{
    for (size_t k = 0; k < g->pf.len; k++) {
        const golden__pf *p = &g->pf.items[k];
        if (p->w == w && p->o && !strcmp(p->text, text))
            return sg_outcome_info_get(p->o);
    }
    return NULL;
}

/*
 * The calls that depend on the candidate's first answer to an input, wanted once that answer is
 * prefetched so that they batch too: idempotent's f(f(x)) (candidate), roundtrip's inverse (the
 * reference). (An exception's classes come with its outcome: no call.) The same texts
 * golden__check_input will call; best effort like every prefetch (what is not prefetched
 * is called one by one), and no decision is taken here.
 */
/* The value of `text`'s prefetched ok outcome in worker `w` (a copy; a combined item's part where
 * it is one), NULL when there is none or it has no plain value. *ret_info: the outcome's info. */
static sg_value *golden__pf_value(const golden__run *g, const sg_worker *w, const char *text,
                                  const sg_outcome_info **ret_info)
{
    *ret_info = NULL;
    for (size_t k = 0; k < g->pf.len; k++) {
        const golden__pf *p = &g->pf.items[k];
        if (p->w != w || !p->o || strcmp(p->text, text))
            continue;
        const sg_outcome_info *in = sg_outcome_info_get(p->o);
        *ret_info = in;
        if (in->kind != SG_OUTCOME_OK)
            return NULL;
        if (p->view)
            return sg_value_copy(p->view);
        sg_value *v = NULL;
        sg_diag d;
        sg_diag_init(&d);
        if (!in->value_json || sg_value_from_text(in->value_json, strlen(in->value_json), "result", &v, &d) != SG_OK)
            return NULL;
        return v;
    }
    return NULL;
}

static void golden__want_second(golden__run *g, const golden__props *ps, const sg_value *args, const sg_value *kwargs)
{
    char *call = golden__call_text(g->task->arg_wrap, g->entry, args, kwargs, false);
    if (!call)
        return;
    const sg_outcome_info *ci;
    sg_value *v = golden__pf_value(g, g->cand, call, &ci);
    for (size_t k = 0; ci && k < ps->n; k++) {
        const sg_golden_property *p = ps->items[k].p;
        switch (ps->items[k].kind) {
        case SG_PROP_IDEMPOTENT:
            if (v && p && p->arg < args->n) {
                bool nomem = false;
                char *t = golden__idem_text(g, p, args, kwargs, v, &nomem);
                golden__want(g, g->cand, t);
                free(t);
            }
            break;
        case SG_PROP_ROUNDTRIP:
            if (v && p && p->inverse && p->arg < args->n && g->ref) {
                char *t = golden__inverse_text(p, v);
                golden__want(g, g->ref, t);
                free(t);
            }
            break;
        default:
            break;
        }
    }
    sg_value_free(v);
    /* the differential's effects: the reference's changes are read where the candidate's
     * answer is right and it changed an argument (golden__check_effects) */
    bool diff = false;
    for (size_t k = 0; k < ps->n; k++)
        diff |= ps->items[k].kind == SG_PROP_DIFFERENTIAL;
    char *mt = diff && ci && ci->kind == SG_OUTCOME_OK && golden__effects_checked(g, args, kwargs)
                   ? golden__mutation_text(g, args, kwargs)
                   : NULL;
    const sg_outcome_info *mi = NULL;
    sg_value *after = mt ? golden__pf_value(g, g->cand, mt, &mi) : NULL;
    bool same = after && (after->kind == SG_VAL_LIST || after->kind == SG_VAL_TUPLE) && after->n == 2 &&
                sg_value_strict_equal(after->items[0], args, 0, 0) &&
                (!kwargs || !kwargs->n || sg_value_strict_equal(after->items[1], kwargs, 0, 0));
    if (mi && !same && !g->task->mutation_expected) /* (expected: wanted with the call) */
        golden__want(g, g->ref, mt);
    sg_value_free(after);
    free(mt);
    free(call);
}

/* Do any of the properties make calls that depend on the candidate's first answer? */
static bool golden__has_second(const golden__run *g, const golden__props *ps)
{
    for (size_t k = 0; k < ps->n; k++) {
        sg_golden_prop_kind kind = ps->items[k].kind;
        if (kind == SG_PROP_IDEMPOTENT || kind == SG_PROP_ROUNDTRIP)
            return true;
        if (kind == SG_PROP_DIFFERENTIAL && g->ref && !g->task->mutation_allowed)
            return true; /* (the reference's effects, golden__want_second) */
    }
    return false;
}

/* The calls of these inputs, ahead in batches: the reference's first, then the candidate's on
 * the inputs it will be run on (golden__cand_needed), then the calls that depend on its answers. */
static void golden__prefetch_inputs(golden__run *g, const golden__props *ps, long only, const sg_value *const *args,
                                    const sg_value *const *kwargs, size_t n)
{
    if (g->ref) {
        /* The reference answers the inputs smallest first (the sum over the arguments of
         * log(1 + size), equal ones in their order): one only fast on small inputs times out on
         * the smallest it cannot answer, and the fence covers the larger ones without a call.
         * (Only the order of its calls: the inputs are judged in their own order.) */
        size_t order[GOLDEN_BATCH_ITEMS];
        double key[GOLDEN_BATCH_ITEMS];
        for (size_t k = 0; k < n && k < GOLDEN_BATCH_ITEMS; k++) {
            key[k] = 0;
            for (size_t i = 0; args[k]->kind == SG_VAL_LIST && i < args[k]->n; i++)
                key[k] += log1p(golden__size(args[k]->items[i], 0));
            size_t j = k;
            for (; j > 0 && key[order[j - 1]] > key[k]; j--)
                order[j] = order[j - 1];
            order[j] = k;
        }
        for (size_t k = 0; k < n && k < GOLDEN_BATCH_ITEMS; k++)
            golden__want_side(g, ps, only, args[order[k]], kwargs[order[k]], 0);
        if (g->eff_arm) /* the last block: the scaled inputs after its inputs, in the same calls */
            golden__eff_want_ref(g);
        golden__prefetch(g, g->ref);
    }
    for (size_t k = 0; k < n; k++)
        golden__want_side(g, ps, only, args[k], kwargs[k], 1);
    if (g->eff_arm)
        golden__eff_want_cand(g);
    g->eff_arm = false;
    golden__prefetch(g, g->cand);
    if (golden__has_second(g, ps)) {
        for (size_t k = 0; k < n; k++)
            golden__want_second(g, ps, args[k], kwargs[k]);
        golden__prefetch_wanted(g);
    }
}

static sg_status golden__block_flush(golden__run *g, golden__block *b)
{
    sg_status st = SG_OK;
    if (!b->stop && !g->cand_stopped) {
        const sg_value *args[GOLDEN_BATCH_ITEMS], *kwargs[GOLDEN_BATCH_ITEMS];
        for (size_t k = 0; k < b->n; k++) {
            args[k] = b->items[k].args;
            kwargs[k] = b->items[k].kwargs;
        }
        g->eff_arm = b->last && b->n > 0;
        golden__prefetch_inputs(g, b->ps, -1, args, kwargs, b->n);
        g->eff_arm = false;
    }
    /* The inputs whose calls were computed ahead are judged even when the reference's timeouts
     * ended the search meanwhile (they were found before the last timeout); the first one that
     * needs a new reference call ends it (GOLDEN_REF_DONE: not a failure, no input reported). */
    for (size_t k = 0; k < b->n; k++) {
        if (st == SG_OK && !b->stop)
            st = golden__try_input(g, b->ps, b->items[k].args, b->items[k].kwargs, &b->stop);
        else
            sg_value_free(b->items[k].args);
        sg_value_free(b->items[k].own_kwargs);
    }
    if (golden__ref_exhausted(g))
        b->stop = true;
    b->n = 0;
    golden__pf_clear(g);
    golden__want_clear(g);
    return st;
}

/* Take `args` and `own_kwargs` (owned; the keyword arguments are own_kwargs if given, else the
 * borrowed `kwargs`); a repeated input is dropped. */
static sg_status golden__block_add_kw(golden__run *g, golden__block *b, sg_value *args, const sg_value *kwargs,
                                      sg_value *own_kwargs)
{
    if (own_kwargs)
        kwargs = own_kwargs;
    uint64_t h = golden__hash(args);
    if (kwargs && kwargs->n)
        h = (h ^ golden__hash(kwargs)) * 1099511628211ULL;
    if (b->stop || !golden__seen_add(b->seen, h)) {
        sg_value_free(args);
        sg_value_free(own_kwargs);
        return SG_OK;
    }
    b->items[b->n].args = args;
    b->items[b->n].kwargs = kwargs;
    b->items[b->n].own_kwargs = own_kwargs;
    return ++b->n == GOLDEN_BATCH_ITEMS ? golden__block_flush(g, b) : SG_OK;
}

static sg_status golden__block_add(golden__run *g, golden__block *b, sg_value *args, const sg_value *kwargs)
{
    return golden__block_add_kw(g, b, args, kwargs, NULL);
}

/* Keyword arguments for a generated input: each keyword parameter (sg_golden_kwparams) is given
 * (a generated value) or, unless required, left to its default, at random. NULL on error (*st set). */
static sg_value *golden__gen_kwargs(const sg_golden_kwparams *kp, sg_gen *gen, sg_status *st)
{
    sg_value *kw = sg_value_new(SG_VAL_DICT);
    for (size_t k = 0; kw && k < kp->n && *st == SG_OK; k++) {
        if (!kp->items[k].required && sg_rng_below(&gen->rng, 2))
            continue;
        sg_value *v = NULL;
        const char *name = kp->items[k].name;
        sg_value *key = sg_value_new_str(SG_VAL_STR, name, strlen(name));
        if (!key || sg_value_push(kw, key) < 0 || (*st = sg_gen_value(gen, kp->items[k].type, &v)) != SG_OK ||
            sg_value_push(kw, v) < 0) {
            if (*st == SG_OK)
                *st = SG_ERR_NOMEM;
            sg_value_free(kw);
            return NULL;
        }
    }
    if (!kw && *st == SG_OK)
        *st = SG_ERR_NOMEM;
    return kw;
}

/* Types that come from annotations or examples say nothing about magnitudes: an unbounded int
 * would be generated up to 2**63, where a reference like `range(n)` runs out of time on every
 * input (each a discarded input costing a whole timeout). Generated ints stay in -1000..1000 and
 * floats finite; the examples and their mutations still reach beyond (conformance of these
 * types is structural). A task that wants more says so in its `signature`. */
#define GOLDEN_PLAIN_INT_BOUND 1000

static void golden__plain_bounds(sg_type *t, int depth)
{
    if (!t || depth > 64)
        return;
    if (t->kind == SG_TY_INT && !t->has_lo && !t->has_hi) {
        t->has_lo = t->has_hi = true;
        t->ilo = -GOLDEN_PLAIN_INT_BOUND;
        t->ihi = GOLDEN_PLAIN_INT_BOUND;
    } else if (t->kind == SG_TY_FLOAT) {
        t->finite = true;
    }
    for (size_t k = 0; k < t->n; k++)
        golden__plain_bounds(t->items[k], depth + 1);
}

void sg_golden_kwparams_free(sg_golden_kwparams *kw)
{
    if (!kw)
        return;
    free(kw->items);
    sg_annot_kw_free(kw->def, kw->ndef);
    memset(kw, 0, sizeof *kw);
}

sg_status sg_golden_kwparams_get(const sg_golden_task *t, const char *entry, const char *const *srcs, size_t nsrcs,
                                 sg_golden_kwparams *ret)
{
    memset(ret, 0, sizeof *ret);
    /* the def that says which keyword-only parameters are required (and their annotations) */
    sg_status st = SG_ERR_EMPTY;
    for (size_t k = 0; k < nsrcs && st == SG_ERR_EMPTY && entry; k++)
        if (srcs[k])
            st = sg_annot_kwonly(srcs[k], entry, &ret->def, &ret->ndef);
    if (st == SG_ERR_NOMEM)
        return st;
    size_t cap = t->has_signature ? t->nsig_kw : ret->ndef;
    if (cap && !(ret->items = calloc(cap, sizeof *ret->items))) {
        sg_golden_kwparams_free(ret);
        return SG_ERR_NOMEM;
    }
    if (t->has_signature) {
        for (size_t k = 0; k < t->nsig_kw; k++) {
            sg_golden_kwparam *it = &ret->items[ret->n++];
            it->name = t->sig_kwnames[k];
            it->type = t->sig_kwtypes[k];
            for (size_t d = 0; d < ret->ndef; d++)
                it->required |= ret->def[d].required && !strcmp(ret->def[d].name, it->name);
        }
    }
    for (size_t d = 0; d < ret->ndef; d++) {
        const sg_annot_kw *p = &ret->def[d];
        bool given = false;
        for (size_t k = 0; k < ret->n; k++)
            given |= !strcmp(ret->items[k].name, p->name);
        if (!t->has_signature && p->type && !given) {
            ret->items[ret->n++] = (sg_golden_kwparam){p->name, p->type, p->required};
            given = true;
        }
        if (p->required && !given && !ret->missing)
            ret->missing = p->name;
    }
    return SG_OK;
}

/* The envelope of the examples' values at type node `t` (types inferred from the examples
 * only): ints all >= 0 (or >= 1), floats all >= 0 (or > 0), strings, bytes and containers never
 * empty, strings of digits only. Such a node keeps generated inputs in that domain
 * (golden__in_envelope): a task whose examples are all positive says nothing about negatives,
 * and a correct answer must not be blocked where the reference's answer means nothing. Values
 * of another kind than the node's (a mixed union) leave it unrestricted. */
static int golden__envelope(sg_type *t, const sg_value *const *vals, size_t n, int depth)
{
    if (!t || n == 0 || depth > 32 || t->kind == SG_TY_UNION)
        return 0;
    static const sg_value_kind kinds[] = {
        [SG_TY_NONE] = SG_VAL_NONE, [SG_TY_BOOL] = SG_VAL_BOOL, [SG_TY_INT] = SG_VAL_INT,
        [SG_TY_FLOAT] = SG_VAL_FLOAT, [SG_TY_STR] = SG_VAL_STR, [SG_TY_BYTES] = SG_VAL_BYTES,
        [SG_TY_LIST] = SG_VAL_LIST, [SG_TY_TUPLE] = SG_VAL_TUPLE, [SG_TY_DICT] = SG_VAL_DICT,
        [SG_TY_SET] = SG_VAL_SET};
    if ((size_t)t->kind >= sizeof kinds / sizeof *kinds)
        return 0;
    bool nonneg = true, pos = true, nonempty = true, digits = t->kind == SG_TY_STR;
    for (size_t k = 0; k < n; k++) {
        const sg_value *v = vals[k];
        if (v->kind != kinds[t->kind])
            return 0;
        switch (v->kind) {
        case SG_VAL_INT:
            nonneg &= v->big ? v->big[0] != '-' : v->i >= 0;
            pos &= v->big ? v->big[0] != '-' : v->i >= 1;
            break;
        case SG_VAL_FLOAT:
            nonneg &= v->f >= 0;
            pos &= v->f > 0;
            break;
        case SG_VAL_STR:
        case SG_VAL_BYTES:
            nonempty &= v->len > 0;
            for (size_t i = 0; i < v->len && digits; i++)
                digits = v->s[i] >= '0' && v->s[i] <= '9';
            break;
        case SG_VAL_LIST:
        case SG_VAL_TUPLE:
        case SG_VAL_SET:
        case SG_VAL_DICT:
            nonempty &= v->n > 0;
            break;
        default:
            break;
        }
    }
    switch (t->kind) {
    case SG_TY_INT:
        if (nonneg) {
            int64_t lo = pos ? 1 : 0;
            if (!t->has_lo || t->ilo < lo)
                t->ilo = lo;
            t->has_lo = t->envelope = true;
            if (t->has_hi && t->ihi < t->ilo)
                t->ihi = t->ilo;
        }
        return 0;
    case SG_TY_FLOAT:
        if (nonneg) {
            double lo = pos ? nextafter(0.0, 1.0) : 0.0;
            if (!t->has_lo || t->flo < lo)
                t->flo = lo;
            t->has_lo = t->envelope = true;
        }
        return 0;
    case SG_TY_STR:
    case SG_TY_BYTES:
        if (nonempty && (!t->has_min || t->min < 1)) {
            t->has_min = t->envelope = true;
            t->min = 1;
        }
        if (nonempty && digits && !t->chars) {
            if (!(t->chars = malloc(10 * sizeof *t->chars)))
                return -1;
            for (uint32_t c = 0; c < 10; c++)
                t->chars[c] = '0' + c;
            t->nchars = 10;
            t->ascii = t->envelope = true;
        }
        return 0;
    case SG_TY_LIST:
    case SG_TY_TUPLE:
    case SG_TY_SET:
    case SG_TY_DICT:
        break;
    default:
        return 0;
    }
    bool fixed = t->kind == SG_TY_TUPLE && !t->variadic;
    if (nonempty && !fixed && (!t->has_min || t->min < 1)) {
        t->has_min = t->envelope = true;
        t->min = 1;
    }
    /* the children: every element (dict: keys, then values; a fixed tuple: member by member) */
    for (size_t c = 0; c < t->n; c++) {
        SG_ARRAY(const sg_value *) kids = {0};
        for (size_t k = 0; k < n; k++) {
            const sg_value *v = vals[k];
            for (size_t i = 0; i < sg_value_slots(v); i++) {
                bool mine = fixed ? i == c : t->kind == SG_TY_DICT ? i % 2 == c : c == 0;
                if (mine && sg_array_push(&kids, v->items[i], 0) < 0) {
                    sg_array_free(&kids);
                    return -1;
                }
            }
        }
        int rc = golden__envelope(t->items[c], kids.items, kids.len, depth + 1);
        sg_array_free(&kids);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Does `v` lie in the envelope of type `t` (only its envelope nodes are checked; a value of
 * another kind is left to sg_type_conforms)? */
static bool golden__in_envelope(const sg_value *v, const sg_type *t, int depth)
{
    if (!t || depth > 32)
        return true;
    switch (t->kind) {
    case SG_TY_INT:
        if (!t->envelope || v->kind != SG_VAL_INT || !t->has_lo)
            return true;
        return v->big ? v->big[0] != '-' : v->i >= t->ilo;
    case SG_TY_FLOAT:
        return !t->envelope || v->kind != SG_VAL_FLOAT || !t->has_lo || v->f >= t->flo;
    case SG_TY_STR:
    case SG_TY_BYTES:
        if (!t->envelope || (v->kind != SG_VAL_STR && v->kind != SG_VAL_BYTES))
            return true;
        if (t->has_min && v->len < t->min)
            return false;
        if (t->chars && t->nchars == 10 && t->chars[0] == '0')
            for (size_t i = 0; i < v->len; i++)
                if (v->s[i] < '0' || v->s[i] > '9')
                    return false;
        return true;
    case SG_TY_LIST:
    case SG_TY_TUPLE:
    case SG_TY_SET:
    case SG_TY_DICT: {
        if (v->kind != SG_VAL_LIST && v->kind != SG_VAL_TUPLE && v->kind != SG_VAL_SET && v->kind != SG_VAL_DICT)
            return true;
        bool fixed = t->kind == SG_TY_TUPLE && !t->variadic;
        if (t->envelope && t->has_min && v->n < t->min)
            return false;
        for (size_t i = 0; i < sg_value_slots(v); i++) {
            size_t c = fixed ? i : t->kind == SG_TY_DICT ? i % 2 : 0;
            if (c < t->n && !golden__in_envelope(v->items[i], t->items[c], depth + 1))
                return false;
        }
        return true;
    }
    default:
        return true;
    }
}

/* Every argument of `args` in its type's envelope. */
static bool golden__in_domain(const golden__run *g, const sg_value *args)
{
    for (size_t k = 0; args->kind == SG_VAL_LIST && k < args->n && k < g->ntypes; k++)
        if (!golden__in_envelope(args->items[k], g->types[k], 0))
            return false;
    return true;
}

/* A generated input that conforms to the argument types and lies in the examples' envelope is
 * kept; otherwise it is freed (one outside the envelope counted as discarded). */
static bool golden__admit(golden__run *g, sg_value *a)
{
    if (!golden__conforms(g, a)) {
        sg_value_free(a);
        return false;
    }
    if (!golden__in_domain(g, a)) {
        golden__discard(g, SG_DISCARD_ENVELOPE); /* outside the examples' envelope */
        sg_value_free(a);
        return false;
    }
    return true;
}

/* Argument types for generation and shrinking: the signature's, else the reference's
 * annotations, else the candidate's (read, never run: annot.h), else inferred from the examples
 * of the most common arity. SG_ERR_INVALID_ARG when there is nothing to infer from. */
static sg_status golden__setup_types(golden__run *g)
{
    const sg_golden_task *t = g->task;
    if (g->types)
        return SG_OK;
    if (t->has_signature) {
        g->types = t->sig_args;
        g->ntypes = t->nsig_args;
        return SG_OK;
    }
    const char *srcs[2] = {g->ref_src, g->cand_src};
    for (int k = 0; k < 2; k++) {
        if (!srcs[k])
            continue;
        sg_status ast = sg_annot_arg_types(srcs[k], g->entry, &g->types, &g->ntypes);
        if (ast == SG_OK) {
            g->inferred = true;
            for (size_t i = 0; i < g->ntypes; i++)
                golden__plain_bounds(g->types[i], 0);
            return SG_OK;
        }
        if (ast == SG_ERR_NOMEM)
            return ast;
    }
    SG_ARRAY(const sg_value *) same = {0};
    size_t arity = t->ncases        ? t->cases[0].args->n
                   : t->nfuzz_seeds ? t->fuzz_seeds[0]->n
                   : g->ex_args.len ? g->ex_args.items[0]->n
                                    : 0;
    for (size_t k = 0; k < t->ncases + t->nfuzz_seeds + g->ex_args.len; k++) {
        const sg_value *a = k < t->ncases                    ? t->cases[k].args
                            : k < t->ncases + t->nfuzz_seeds ? t->fuzz_seeds[k - t->ncases]
                                                             : g->ex_args.items[k - t->ncases - t->nfuzz_seeds];
        if (a->n == arity && sg_array_push(&same, a, 0) < 0) {
            sg_array_free(&same);
            return SG_ERR_NOMEM;
        }
    }
    sg_status st = same.len ? sg_gen_infer_types(same.items, same.len, &g->types, &g->ntypes) : SG_ERR_INVALID_ARG;
    if (st == SG_OK) {
        g->inferred = true;
        for (size_t i = 0; i < g->ntypes; i++) {
            golden__plain_bounds(g->types[i], 0);
            /* the examples' envelope: the domain of the generated inputs */
            SG_ARRAY(const sg_value *) at = {0};
            for (size_t k = 0; k < same.len; k++)
                if (i < same.items[k]->n && sg_array_push(&at, same.items[k]->items[i], 0) < 0)
                    st = SG_ERR_NOMEM;
            if (st == SG_OK && golden__envelope(g->types[i], at.items, at.len, 0) < 0)
                st = SG_ERR_NOMEM;
            sg_array_free(&at);
        }
    }
    sg_array_free(&same);
    return st;
}

static sg_status golden__properties(golden__run *g)
{
    const sg_golden_task *t = g->task;
    golden__props ps = {.n = 0};
    bool has_diff = false;
    for (size_t k = 0; k < t->nprops && ps.n < 15; k++) {
        ps.items[ps.n++] = (golden__prop){t->props[k].kind, &t->props[k]};
        has_diff |= t->props[k].kind == SG_PROP_DIFFERENTIAL;
    }
    if (g->ref && !has_diff)
        ps.items[ps.n++] = (golden__prop){SG_PROP_DIFFERENTIAL, NULL};
    if (ps.n == 0)
        return SG_OK;
    /* argument types: the signature's, else inferred from the examples */
    SG_ARRAY(const sg_value *) examples = {0};
    for (size_t k = 0; k < t->ncases; k++)
        if (sg_array_push(&examples, t->cases[k].args, 0) < 0)
            goto nomem;
    for (size_t k = 0; k < t->nfuzz_seeds; k++)
        if (sg_array_push(&examples, t->fuzz_seeds[k], 0) < 0)
            goto nomem;
    for (size_t k = 0; k < g->ex_args.len; k++)
        if (sg_array_push(&examples, g->ex_args.items[k], 0) < 0)
            goto nomem;
    if (!g->types) {
        sg_status tst = golden__setup_types(g);
        if (tst == SG_ERR_NOMEM)
            goto nomem;
        if (tst != SG_OK) {
            sg_array_free(&examples);
            return SG_OK; /* nothing to generate from: stage (a) only */
        }
    }
    const char *kw_srcs[2] = {g->ref_src, g->cand_src};
    if (!g->kw.items && !g->kw.def && sg_golden_kwparams_get(t, g->entry, kw_srcs, 2, &g->kw) != SG_OK)
        goto nomem;
    for (size_t k = 0; !t->has_signature && k < g->kw.ndef; k++)
        if (g->kw.def[k].type) /* (our own copies: bounded as the positional ones) */
            golden__plain_bounds(g->kw.def[k].type, 0);
    bool kw_required = false;
    for (size_t k = 0; k < g->kw.n; k++)
        kw_required |= g->kw.items[k].required;
    sg_gen gen;
    sg_gen_init(&gen, g->r->seed);
    if (t->fuzz_has_max_size) {
        gen.has_max_size = true;
        gen.max_size = t->fuzz_max_size;
    }
    /* constants of the task: strings of the examples */
    SG_ARRAY(sg_value *) consts = {0};
    for (size_t k = 0; k < examples.len; k++)
        for (size_t a = 0; a < examples.items[k]->n; a++) {
            sg_value *v = examples.items[k]->items[a];
            if ((v->kind == SG_VAL_STR || v->kind == SG_VAL_BYTES) && v->len < 48)
                sg_array_push(&consts, v, 256);
        }
    gen.constants = consts.items;
    gen.nconstants = consts.len;
    unsigned max_inputs = g->opts.max_inputs ? g->opts.max_inputs : t->fuzz_max_inputs;
    double max_seconds = g->opts.max_seconds > 0 ? g->opts.max_seconds : t->fuzz_max_seconds;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    golden__seen seen = {0};
    sg_status st = SG_OK;
    golden__block blk = {.ps = &ps, .seen = &seen};
    bool cut = false; /* the wall-clock cap ended the search before its input budget */
    sg_value *no_kwargs = sg_value_new(SG_VAL_DICT);
    if (!no_kwargs)
        goto nomem_gen;
    unsigned tried = 0;
    /* 1. the examples themselves (structured cases, seeds) */
    for (size_t k = 0; k < examples.len && !blk.stop && st == SG_OK; k++) {
        if (k < t->ncases && t->cases[k].raises)
            continue;
        sg_value *a = sg_value_copy(examples.items[k]);
        if (!a)
            goto nomem_gen;
        const sg_value *kw = k < t->ncases ? t->cases[k].kwargs : no_kwargs;
        st = golden__block_add(g, &blk, a, kw);
        if (k >= t->ncases - t->nbase_inputs - t->nplus_inputs && k < t->ncases && k > 64)
            break; /* EvalPlus inputs were run in stage (a); a few suffice as examples */
    }
    /* 2. boundary values: the diagonal, then one argument at a time */
    for (unsigned phase = 0; phase <= g->ntypes && !blk.stop && st == SG_OK; phase++) {
        for (unsigned b = 0; b < 24 && !blk.stop && st == SG_OK && tried < max_inputs / 2; b++) {
            if (golden__elapsed(&t0) > max_seconds) {
                cut = true;
                break;
            }
            sg_value *a = sg_value_new(SG_VAL_LIST);
            if (!a)
                goto nomem_gen;
            bool ok = true;
            for (size_t i = 0; i < g->ntypes && ok; i++) {
                unsigned k = phase == 0 ? b : (i + 1 == phase ? b : 0);
                sg_value *v = NULL;
                bool more;
                if ((st = sg_gen_boundary(g->types[i], k, gen.has_max_size ? gen.max_size : UINT32_MAX, &v, &more)) != SG_OK)
                    break;
                if (!v)
                    ok = false;
                else if (sg_value_push(a, v) < 0)
                    goto nomem_gen;
            }
            if (!ok || st != SG_OK) {
                sg_value_free(a);
                continue;
            }
            tried++;
            if (!golden__in_domain(g, a)) {
                golden__discard(g, SG_DISCARD_ENVELOPE); /* outside the examples' envelope */
                sg_value_free(a);
                continue;
            }
            sg_value *kw = NULL; /* keyword-only parameters without a default are always given */
            if (kw_required && !(kw = golden__gen_kwargs(&g->kw, &gen, &st))) {
                sg_value_free(a);
                continue;
            }
            st = golden__block_add_kw(g, &blk, a, no_kwargs, kw);
        }
    }
    /* 2b. the examples' own boundaries (issue 26 item 3): for each int argument, one below the
     * smallest value the examples give it and one above the largest, each in the example that
     * gives it (fib(1) -> fib(0), a range's end + 1); outside the envelope, discarded as above */
    for (size_t i = 0; i < g->ntypes && examples.len && !blk.stop && st == SG_OK && tried < max_inputs; i++) {
        size_t klo = 0, khi = 0;
        bool have = false;
        for (size_t k = 0; k < examples.len; k++) {
            const sg_value *ex = examples.items[k];
            const sg_value *v = ex->kind == SG_VAL_LIST && i < ex->n ? ex->items[i] : NULL;
            if (!v || v->kind != SG_VAL_INT || v->big || v->i <= INT64_MIN + 1 || v->i >= INT64_MAX - 1)
                continue;
            if (!have || v->i < examples.items[klo]->items[i]->i)
                klo = k;
            if (!have || v->i > examples.items[khi]->items[i]->i)
                khi = k;
            have = true;
        }
        for (int side = 0; have && side < 2 && !blk.stop && st == SG_OK && tried < max_inputs; side++) {
            size_t k = side ? khi : klo;
            int64_t x = examples.items[k]->items[i]->i + (side ? 1 : -1);
            sg_value *a = sg_value_copy(examples.items[k]);
            sg_value *nv = sg_value_new_int(x);
            if (!a || !nv) {
                sg_value_free(a);
                sg_value_free(nv);
                goto nomem_gen;
            }
            sg_value_free(a->items[i]);
            a->items[i] = nv;
            tried++;
            if (!golden__admit(g, a))
                continue;
            sg_value *kw = NULL;
            if (kw_required && !(kw = golden__gen_kwargs(&g->kw, &gen, &st))) {
                sg_value_free(a);
                continue;
            }
            const sg_value *ekw = k < t->ncases && t->cases[k].kwargs ? t->cases[k].kwargs : no_kwargs;
            st = golden__block_add_kw(g, &blk, a, ekw, kw);
        }
    }
    /* 3. mutations of the examples and random values */
    while (!blk.stop && st == SG_OK && tried < max_inputs && !(cut = golden__elapsed(&t0) > max_seconds)) {
        sg_value *a = NULL;
        bool mutate = examples.len && sg_rng_below(&gen.rng, 2) == 0;
        if (mutate) {
            if ((st = sg_gen_mutate(&gen, examples.items[sg_rng_below(&gen.rng, examples.len)], &a)) != SG_OK)
                break;
        } else {
            a = sg_value_new(SG_VAL_LIST);
            if (!a)
                goto nomem_gen;
            for (size_t i = 0; i < g->ntypes && st == SG_OK; i++) {
                sg_value *v = NULL;
                if ((st = sg_gen_value(&gen, g->types[i], &v)) == SG_OK && sg_value_push(a, v) < 0)
                    st = SG_ERR_NOMEM;
            }
        }
        tried++;
        if (st != SG_OK) {
            sg_value_free(a);
            continue;
        }
        if (!golden__admit(g, a))
            continue;
        sg_value *kw = NULL;
        if (g->kw.n && !(kw = golden__gen_kwargs(&g->kw, &gen, &st))) {
            sg_value_free(a);
            continue;
        }
        st = golden__block_add_kw(g, &blk, a, no_kwargs, kw);
    }
    blk.last = true;
    if (st == SG_OK)
        st = golden__block_flush(g, &blk);
    st = golden__stage_end(g, st);
    golden__report_stop(g, &ps);
    /* Verdicts must not depend on the machine's load: a search the time cap cut short is not a
     * pass with fewer inputs. A failure found before the cap stands. */
    if (st == SG_OK && cut && !blk.stop && !g->cand_stopped)
        golden__internal(g, "the property search hit its %.0f s time cap after %u of %u generated inputs; "
                            "nothing was decided (raise fuzz.max_seconds or lower fuzz.max_inputs)",
                         max_seconds, tried, max_inputs);
    for (size_t k = 0; k < blk.n; k++) {
        sg_value_free(blk.items[k].args);
        sg_value_free(blk.items[k].own_kwargs);
    }
    blk.n = 0;
    sg_value_free(no_kwargs);
    free(seen.slots);
    sg_array_free(&consts);
    sg_array_free(&examples);
    return st;
nomem_gen:
    for (size_t k = 0; k < blk.n; k++) {
        sg_value_free(blk.items[k].args);
        sg_value_free(blk.items[k].own_kwargs);
    }
    golden__pf_clear(g);
    golden__want_clear(g);
    sg_value_free(no_kwargs);
    free(seen.slots);
    sg_array_free(&consts);
nomem:
    sg_array_free(&examples);
    golden__internal(g, "out of memory");
    return SG_ERR_NOMEM;
}

/* ---- efficiency (issue 26 item 5; docs/tasks.md, "Efficiency") ----------------------------- */

/* The candidate's cost on scaled inputs against the reference's, in Python events (function
 * calls and lines run: limits.cost_events), a measure no clock and no load can change. */
#define GOLDEN_EFF_REF_MAX 5000u      /* the reference's events at a size, at most: no larger size */
#define GOLDEN_EFF_CAND_MAX 1000000u  /* a candidate's budget at any size, at most */
#define GOLDEN_EFF_BASES 2u           /* examples scaled (the largest ones) */
#define GOLDEN_EFF_TEXT_MAX 16384u    /* bytes of one scaled call's text, at most */

/* A candidate's budget at a size: factor x the reference's cost + slack, the task's own terms when
 * it gives a factor, else 20 and 400,000 (docs/tasks.md, "Efficiency"). */
static double golden__eff_factor(const sg_golden_task *t)
{
    return t->eff_factor > 0 ? t->eff_factor : 20;
}

static uint64_t golden__eff_slack(const sg_golden_task *t)
{
    return t->eff_factor > 0 ? t->eff_slack : 400000;
}

/* An argument scaled `times` times: a str's or bytes' characters and a list's or tuple's
 * elements each repeated in place ("ab" -> "aabb", [3, 1] -> [3, 3, 1, 1]: order, sortedness,
 * palindromes and character classes stay), an int multiplied (a count or a size grows with the
 * input); anything else, and what is inside a container, as it is. NULL: out of memory or over
 * the value caps. */
static sg_value *golden__scaled(const sg_value *v, unsigned times)
{
    switch (v->kind) {
    case SG_VAL_INT:
        if (v->big || v->i > INT64_MAX / (int64_t)times || v->i < -(INT64_MAX / (int64_t)times))
            return sg_value_copy(v);
        return sg_value_new_int(v->i * (int64_t)times);
    case SG_VAL_STR:
    case SG_VAL_BYTES: {
        if (v->len * times > GOLDEN_EFF_TEXT_MAX)
            return NULL;
        char *s = malloc(v->len * times + 1);
        if (!s)
            return NULL;
        size_t o = 0;
        for (size_t k = 0; k < v->len;) {
            size_t e = k + 1; /* one character: a UTF-8 sequence for str, a byte for bytes */
            while (v->kind == SG_VAL_STR && e < v->len && ((unsigned char)v->s[e] & 0xC0) == 0x80)
                e++;
            for (unsigned r = 0; r < times; r++) {
                memcpy(s + o, v->s + k, e - k);
                o += e - k;
            }
            k = e;
        }
        sg_value *n = sg_value_new_str(v->kind, s, o);
        free(s);
        return n;
    }
    case SG_VAL_LIST:
    case SG_VAL_TUPLE: {
        if (v->n * times > SG_VALUE_MAX_COUNT / 4)
            return NULL;
        sg_value *n = sg_value_new(v->kind);
        for (size_t k = 0; n && k < v->n; k++)
            for (unsigned r = 0; r < times; r++) {
                sg_value *c = sg_value_copy(v->items[k]);
                if (!c || sg_value_push(n, c) < 0) {
                    sg_value_free(c);
                    sg_value_free(n);
                    return NULL;
                }
            }
        return n;
    }
    default:
        return sg_value_copy(v);
    }
}

typedef struct golden__eff_item {
    sg_value *args;
    const sg_value *kwargs;
    char *text;
    unsigned scale;   /* 2, 4, 8...: the example scaled; 0: the task's own input number `index` */
    size_t chain;     /* which example (or 0: the task's inputs) */
    size_t index;
    bool usable;      /* the reference answered within GOLDEN_EFF_REF_MAX events */
    uint64_t ref, budget;
    bool has_cand;    /* the candidate ran it and reported a count: */
    uint64_t cand;
} golden__eff_item;

static int golden__eff_cmp(const void *a, const void *b)
{
    const golden__eff_item *x = a, *y = b;
    if (x->scale != y->scale)
        return x->scale < y->scale ? -1 : 1;
    if (x->chain != y->chain)
        return x->chain < y->chain ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* The largest examples (sum over the arguments of log(1 + size)), distinct, at most `cap`. */
static size_t golden__eff_bases(golden__run *g, const sg_value **ex, const sg_value **exkw, size_t nex,
                                size_t *out, size_t cap)
{
    size_t n = 0;
    double best[GOLDEN_EFF_BASES];
    for (size_t k = 0; k < nex; k++) {
        if (!golden__conforms(g, ex[k]))
            continue;
        double s = 0;
        for (size_t i = 0; i < ex[k]->n; i++)
            s += log1p(golden__size(ex[k]->items[i], 0));
        bool dup = false;
        for (size_t j = 0; j < n && !dup; j++)
            dup = sg_value_strict_equal(ex[out[j]], ex[k], 0, 0) && sg_value_strict_equal(exkw[out[j]], exkw[k], 0, 0);
        if (dup)
            continue;
        size_t at = n;
        while (at > 0 && s > best[at - 1]) /* (equal sizes: the first one stays first) */
            at--;
        if (at >= cap)
            continue;
        size_t last = n < cap ? n : cap - 1;
        for (size_t j = last; j > at; j--) {
            out[j] = out[j - 1];
            best[j] = best[j - 1];
        }
        out[at] = k;
        best[at] = s;
        if (n < cap)
            n++;
    }
    return n;
}

static void golden__eff_free(golden__eff_item *it, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        sg_value_free(it[k].args);
        free(it[k].text);
    }
}

/* Record the candidate's failure on item `k` of `it` (too-slow when `o` is NULL or ok; else what
 * the sandbox reported). */
static void golden__eff_fail(golden__run *g, const golden__eff_item *it, size_t n, size_t k, const sg_outcome *o)
{
    const golden__eff_item *x = &it[k];
    const sg_outcome_info *in = o ? sg_outcome_info_get(o) : NULL;
    char *shown = golden__call_text(g->task->arg_wrap, g->entry, x->args, x->kwargs, true);
    char where[96];
    if (x->scale)
        snprintf(where, sizeof where, "the example scaled %ux", x->scale);
    else
        snprintf(where, sizeof where, "the task's efficiency input %zu", x->index + 1);
    golden__res res = {.kind = GR_OTHER, .o = NULL, .info = in};
    bool slow = !in || (in->kind != SG_OUTCOME_TIMEOUT && in->has_cost && in->cost > x->budget);
    if (in && in->kind == SG_OUTCOME_TIMEOUT)
        res.kind = GR_TIMEOUT;
    sg_golden_case_result *c = golden__add(g, SG_GCASE_PROPERTY, 0, false, slow ? NULL : &res);
    if (!c) {
        free(shown);
        return;
    }
    c->name = "efficiency";
    c->input = golden__dup(g, shown ? shown : x->text);
    c->args_json = golden__encode(g, x->args);
    free(shown);
    if (!slow) {
        if (res.kind == GR_TIMEOUT) {
            g->stop_consumed = true;
            g->stop_case = (long)(g->r->cases.len - 1);
        }
        return;
    }
    char buf[900], exp[160], got[96];
    bool stopped = in->cost > x->budget && in->kind == SG_OUTCOME_EXCEPTION && in->exc_type &&
                   strstr(in->exc_type, "_CostExceeded");
    snprintf(exp, sizeof exp, "at most %llu Python events (the reference: %llu)", (unsigned long long)x->budget,
             (unsigned long long)x->ref);
    if (stopped)
        snprintf(got, sizeof got, "more than %llu Python events (stopped there)", (unsigned long long)x->budget);
    else
        snprintf(got, sizeof got, "%llu Python events", (unsigned long long)in->cost);
    c->expected = golden__dup(g, exp);
    c->got = golden__dup(g, got);
    size_t off = (size_t)snprintf(buf, sizeof buf,
                                  "too-slow: on %s, the candidate costs %s where the reference costs %llu "
                                  "(its budget: %.0f x %llu + %llu, at most %u; calls and lines counted)",
                                  where, got, (unsigned long long)x->ref, golden__eff_factor(g->task),
                                  (unsigned long long)x->ref, (unsigned long long)golden__eff_slack(g->task),
                                  GOLDEN_EFF_CAND_MAX);
    /* the same example one size smaller, for the growth */
    for (size_t j = n; j-- > 0 && off < sizeof buf;) {
        if (j == k || it[j].chain != x->chain || !it[j].has_cand || !it[j].scale || it[j].scale >= x->scale)
            continue;
        snprintf(buf + off, sizeof buf - off, "; scaled %ux: %llu against %llu", it[j].scale,
                 (unsigned long long)it[j].cand, (unsigned long long)it[j].ref);
        break;
    }
    c->reason = golden__dup(g, buf);
}

/* After the properties pass: the candidate on scaled inputs, its cost against the reference's. */
/* Would golden__efficiency judge this run now? */
static bool golden__eff_due(const golden__run *g)
{
    if (g->task->eff_off || !g->ref || !g->cand || !g->entry || g->cand_stopped || g->failed_internal)
        return false;
    for (size_t k = 0; k < g->r->cases.len; k++)
        if (!g->r->cases.items[k].passed)
            return false; /* blocked already */
    return true;
}

/* The scaled inputs with their texts in it[0..n), in order of size (every example's 2x first),
 * their keyword arguments `no_kwargs` or the examples' (borrowed); the same every time for a run.
 * Returns n; *nomem on an allocation failure. */
static size_t golden__eff_items(golden__run *g, golden__eff_item *it, const sg_value *no_kwargs, bool *nomem)
{
    const sg_golden_task *t = g->task;
    unsigned doublings = t->eff_factor > 0 ? t->eff_doublings : 4;
    size_t n = 0;
    *nomem = false;
    if (t->neff_inputs) {
        for (size_t k = 0; k < t->neff_inputs && n < GOLDEN_EFF_ITEMS; k++) {
            sg_value *a = sg_value_copy(t->eff_inputs[k]);
            if (!a) {
                *nomem = true;
                return golden__eff_free(it, n), 0;
            }
            it[n++] = (golden__eff_item){.args = a, .kwargs = no_kwargs, .scale = 0, .chain = 0, .index = k};
        }
    } else if (g->types && doublings) {
        SG_ARRAY(const sg_value *) ex = {0};
        SG_ARRAY(const sg_value *) exkw = {0};
        bool bad = false;
        for (size_t k = 0; k < t->ncases; k++)
            if (!t->cases[k].raises)
                bad |= sg_array_push(&ex, t->cases[k].args, 0) < 0 ||
                       sg_array_push(&exkw, t->cases[k].kwargs ? t->cases[k].kwargs : no_kwargs, 0) < 0;
        for (size_t k = 0; k < t->nfuzz_seeds; k++)
            bad |= sg_array_push(&ex, t->fuzz_seeds[k], 0) < 0 || sg_array_push(&exkw, no_kwargs, 0) < 0;
        for (size_t k = 0; k < g->ex_args.len; k++)
            bad |= sg_array_push(&ex, g->ex_args.items[k], 0) < 0 || sg_array_push(&exkw, no_kwargs, 0) < 0;
        size_t base[GOLDEN_EFF_BASES];
        size_t nb = bad ? 0 : golden__eff_bases(g, ex.items, exkw.items, ex.len, base, GOLDEN_EFF_BASES);
        for (size_t b = 0; b < nb && !bad; b++) {
            unsigned times = 1;
            for (unsigned d = 1; d <= doublings && n < GOLDEN_EFF_ITEMS; d++) {
                times *= 2;
                const sg_value *e = ex.items[base[b]];
                sg_value *a = sg_value_new(SG_VAL_LIST);
                bool ok = a != NULL;
                for (size_t i = 0; ok && i < e->n; i++) {
                    sg_value *sc = golden__scaled(e->items[i], times);
                    ok = sc && sg_value_push(a, sc) >= 0;
                    if (!ok)
                        sg_value_free(sc);
                }
                if (!ok || !golden__conforms(g, a) || !golden__in_domain(g, a)) {
                    sg_value_free(a); /* (out of memory, or outside the task's domain: no larger size) */
                    break;
                }
                it[n++] = (golden__eff_item){.args = a, .kwargs = exkw.items[base[b]], .scale = times, .chain = b, .index = d};
            }
        }
        sg_array_free(&ex);
        sg_array_free(&exkw);
        if (bad) {
            *nomem = true;
            return golden__eff_free(it, n), 0;
        }
    }
    /* texts; the batch in order of size (every example's 2x first) */
    size_t total = 0, m = 0;
    qsort(it, n, sizeof *it, golden__eff_cmp);
    for (size_t k = 0; k < n; k++) {
        char *text = golden__call_text(t->arg_wrap, g->entry, it[k].args, it[k].kwargs, false);
        if (!text || strlen(text) > GOLDEN_EFF_TEXT_MAX || total + strlen(text) + 1 > SG_WORKER_MAX_CALL_BYTES) {
            free(text);
            sg_value_free(it[k].args);
            continue;
        }
        total += strlen(text) + 1;
        it[k].text = text;
        it[m++] = it[k];
    }
    return m;
}

/* From the reference's outcomes on it[0..n) (done of them): the sizes used (usable, ref, budget)
 * and the candidate's calls, their indexes in cidx and their count returned, the largest budget
 * in *top. A size is used when the reference answered it within GOLDEN_EFF_REF_MAX events, also
 * within a tenth of the call's CPU limit and within a generated input's reference limit
 * (builtins' work is not counted: sum(range(n)) costs one line; a candidate that needs ten times
 * the reference's CPU is too slow by any measure, so an honest one never times out on a size
 * kept); an example's chain ends at its first size that is not. */
static size_t golden__eff_budgets(const golden__run *g, golden__eff_item *it, size_t n, sg_outcome *const *outs,
                                  size_t done, size_t *cidx, uint64_t *top)
{
    double factor = golden__eff_factor(g->task);
    uint64_t slack = golden__eff_slack(g->task);
    bool ended[GOLDEN_EFF_BASES + 1] = {false};
    size_t cn = 0;
    *top = 0;
    for (size_t k = 0; k < n; k++) {
        const sg_outcome_info *in = k < done && outs[k] ? sg_outcome_info_get(outs[k]) : NULL;
        size_t ch = it[k].chain < GOLDEN_EFF_BASES ? it[k].chain : GOLDEN_EFF_BASES;
        bool ok = !ended[ch] && in && in->kind == SG_OUTCOME_OK && in->has_cost && in->cost <= GOLDEN_EFF_REF_MAX &&
                  in->cpu_ms * 10 <= g->lim.cpu_ms && in->cpu_ms <= GOLDEN_GEN_REF_CPU_MS;
        if (!ok) {
            ended[ch] = true;
            continue;
        }
        it[k].usable = true;
        it[k].ref = in->cost;
        double b = factor * (double)in->cost + (double)slack;
        it[k].budget = b > GOLDEN_EFF_CAND_MAX ? GOLDEN_EFF_CAND_MAX : (uint64_t)b;
        if (it[k].budget > *top)
            *top = it[k].budget;
        cidx[cn++] = k;
    }
    return cn;
}

/* Drop what was kept of the scaled inputs sent with the last block. */
static void golden__eff_unkeep(golden__run *g)
{
    for (size_t k = 0; k < GOLDEN_EFF_ITEMS; k++) {
        free(g->effm.text[k]);
        sg_outcome_free(g->effm.ref[k]);
        sg_outcome_free(g->effm.cand[k]);
    }
    memset(&g->effm, 0, sizeof g->effm);
}

/* Keep the outcome of a scaled input that came with a block (golden__prefetch): a value or an
 * exception (a budget passed is one) that the supervisor saw end cleanly; anything else (a
 * limit, a death, an item that may carry its neighbour's doing) makes golden__efficiency call
 * on its own, as without the block. */
static void golden__eff_keep(golden__run *g, const sg_worker *w, size_t idx, sg_outcome *o)
{
    const sg_outcome_info *in = o ? sg_outcome_info_get(o) : NULL;
    bool cand = w == g->cand;
    if (!in || in->batch_no_frame || in->batch_unsure ||
        (in->kind != SG_OUTCOME_OK && in->kind != SG_OUTCOME_EXCEPTION) || idx >= GOLDEN_EFF_ITEMS ||
        idx != (cand ? g->effm.ncand : g->effm.nref)) {
        g->effm.bad = true;
        sg_outcome_free(o);
        return;
    }
    if (cand)
        g->effm.cand[g->effm.ncand++] = o;
    else
        g->effm.ref[g->effm.nref++] = o;
}

/* Want `text` of worker w as scaled input `idx` (from 0) with its budget; a failure makes the check
 * call on its own (effm.bad). */
static void golden__eff_want(golden__run *g, sg_worker *w, const char *text, uint64_t budget, size_t idx)
{
    char *t = strdup(text);
    if (!t || sg_array_push(&g->want, ((golden__pf){w, t, NULL, NULL, NULL, NULL, NULL, budget, idx + 1}), 0) < 0) {
        free(t);
        g->effm.bad = true;
    }
}

/* The reference's scaled inputs, wanted with the last block's calls (eff_arm). */
static void golden__eff_want_ref(golden__run *g)
{
    golden__eff_unkeep(g);
    if (!golden__eff_due(g))
        return;
    golden__eff_item it[GOLDEN_EFF_ITEMS];
    sg_value *no_kwargs = sg_value_new(SG_VAL_DICT);
    bool nomem = false;
    size_t n = no_kwargs ? golden__eff_items(g, it, no_kwargs, &nomem) : 0;
    for (size_t k = 0; k < n; k++) {
        g->effm.text[k] = it[k].text;
        it[k].text = NULL;
        golden__eff_want(g, g->ref, g->effm.text[k], GOLDEN_EFF_REF_MAX, k);
    }
    g->effm.n = n;
    golden__eff_free(it, n);
    sg_value_free(no_kwargs);
}

/* The candidate's scaled inputs, wanted with the last block's calls, once the reference has
 * answered all of its own (their budgets come from its costs). */
static void golden__eff_want_cand(golden__run *g)
{
    if (!g->effm.n || g->effm.bad || g->effm.nref != g->effm.n || !golden__eff_due(g))
        return;
    golden__eff_item it[GOLDEN_EFF_ITEMS];
    sg_value *no_kwargs = sg_value_new(SG_VAL_DICT);
    bool nomem = false;
    size_t n = no_kwargs ? golden__eff_items(g, it, no_kwargs, &nomem) : 0;
    bool same = n == g->effm.n;
    for (size_t k = 0; k < n && same; k++)
        same = !strcmp(it[k].text, g->effm.text[k]);
    size_t cidx[GOLDEN_EFF_ITEMS];
    uint64_t top = 0;
    size_t cn = same ? golden__eff_budgets(g, it, n, g->effm.ref, n, cidx, &top) : 0;
    for (size_t j = 0; j < cn; j++)
        golden__eff_want(g, g->cand, it[cidx[j]].text, top, j);
    g->effm.cn = cn;
    golden__eff_free(it, n);
    sg_value_free(no_kwargs);
}

static sg_status golden__efficiency(golden__run *g)
{
    if (!golden__eff_due(g)) {
        golden__eff_unkeep(g);
        return SG_OK;
    }
    golden__eff_item it[GOLDEN_EFF_ITEMS];
    sg_value *no_kwargs = sg_value_new(SG_VAL_DICT);
    bool nomem = !no_kwargs;
    size_t n = no_kwargs ? golden__eff_items(g, it, no_kwargs, &nomem) : 0;
    if (nomem)
        goto nomem;
    if (!n || golden__cancelled(g)) {
        golden__eff_free(it, n);
        sg_value_free(no_kwargs);
        golden__eff_unkeep(g);
        return golden__cancelled(g) ? SG_ERR_INTERRUPTED : SG_OK;
    }
    /* the outcomes that came with the last block, when they are these inputs' and all there */
    bool kept = !g->effm.bad && g->effm.n == n && g->effm.nref == n;
    for (size_t k = 0; k < n && kept; k++)
        kept = g->effm.text[k] && !strcmp(g->effm.text[k], it[k].text);
    const char *texts[GOLDEN_EFF_ITEMS];
    sg_outcome *outs[GOLDEN_EFF_ITEMS] = {0};
    for (size_t k = 0; k < n; k++)
        texts[k] = it[k].text;
    sg_sandbox_limits lim = g->lim;
    lim.cost_events = GOLDEN_EFF_REF_MAX;
    size_t done = 0;
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = SG_OK;
    if (kept) {
        for (size_t k = 0; k < n; k++) {
            outs[k] = g->effm.ref[k];
            g->effm.ref[k] = NULL;
        }
        done = n;
    } else {
        st = sg_worker_call_batch(g->ref, texts, n, &lim, outs, &done, &d);
        if (st != SG_OK) {
            golden__eff_free(it, n);
            sg_value_free(no_kwargs);
            golden__eff_unkeep(g);
            golden__internal(g, "worker call failed: %s: %s", sg_strerror(st), d.message);
            return st;
        }
        g->r->calls += done;
    }
    size_t cidx[GOLDEN_EFF_ITEMS];
    uint64_t top = 0;
    size_t cn = golden__eff_budgets(g, it, n, outs, done, cidx, &top);
    const char *ctexts[GOLDEN_EFF_ITEMS];
    for (size_t j = 0; j < cn; j++)
        ctexts[j] = it[cidx[j]].text;
    for (size_t k = 0; k < n; k++) {
        sg_outcome_free(outs[k]);
        outs[k] = NULL;
    }
    kept = kept && g->effm.cn == cn && g->effm.ncand == cn;
    if (cn && !golden__cancelled(g)) {
        lim.cost_events = top;
        done = 0;
        if (kept) {
            for (size_t j = 0; j < cn; j++) {
                outs[j] = g->effm.cand[j];
                g->effm.cand[j] = NULL;
            }
            done = cn;
        } else if ((st = sg_worker_call_batch(g->cand, ctexts, cn, &lim, outs, &done, &d)) != SG_OK) {
            golden__eff_free(it, n);
            sg_value_free(no_kwargs);
            golden__eff_unkeep(g);
            golden__internal(g, "worker call failed: %s: %s", sg_strerror(st), d.message);
            return st;
        } else {
            g->r->calls += done;
        }
        for (size_t j = 0; j < done && j < cn; j++) {
            golden__eff_item *x = &it[cidx[j]];
            const sg_outcome_info *in = outs[j] ? sg_outcome_info_get(outs[j]) : NULL;
            if (!in)
                break;
            if (in->kind == SG_OUTCOME_TIMEOUT) {
                golden__count_timeout(g, g->cand, outs[j], x->text);
                golden__eff_fail(g, it, n, cidx[j], outs[j]);
                break;
            }
            if (in->kind == SG_OUTCOME_SETUP_ERROR) {
                golden__internal(g, "sandbox setup error: %s", in->detail);
                break;
            }
            if (in->kind != SG_OUTCOME_OK && in->kind != SG_OUTCOME_EXCEPTION) {
                golden__eff_fail(g, it, n, cidx[j], outs[j]); /* the sandbox stopped it */
                break;
            }
            g->r->eff_checked++;
            if (x->scale > g->r->eff_scale)
                g->r->eff_scale = x->scale;
            /* (the count is the candidate's claim: one it leaves out makes it look cheaper, so
             * only a count over the budget is a finding) */
            x->has_cand = in->has_cost;
            x->cand = in->cost;
            if (in->has_cost && in->cost > x->budget) {
                golden__eff_fail(g, it, n, cidx[j], outs[j]);
                break;
            }
        }
        for (size_t j = 0; j < cn; j++)
            sg_outcome_free(outs[j]);
    }
    golden__eff_free(it, n);
    sg_value_free(no_kwargs);
    golden__eff_unkeep(g);
    return golden__cancelled(g) ? SG_ERR_INTERRUPTED : SG_OK;
nomem:
    golden__eff_free(it, n);
    sg_value_free(no_kwargs);
    golden__eff_unkeep(g);
    golden__internal(g, "out of memory");
    return SG_ERR_NOMEM;
}

/* The first failing structured case or EvalPlus input, shrunk against the reference. Best
 * effort: the case has already failed; this only adds a minimal counterexample. */
static void golden__shrink_failed_case(golden__run *g)
{
    const sg_golden_task *t = g->task;
    static const sg_golden_property strict_diff = {.kind = SG_PROP_DIFFERENTIAL, .same_exceptions = true};
    golden__props ps = {.n = 0};
    ps.items[ps.n++] = (golden__prop){SG_PROP_DIFFERENTIAL, &strict_diff};
    for (size_t k = 0; k < t->nprops && ps.n < 15; k++)
        if (t->props[k].kind == SG_PROP_NO_MUTATION)
            ps.items[ps.n++] = (golden__prop){SG_PROP_NO_MUTATION, &t->props[k]};
    if (golden__setup_types(g) == SG_ERR_NOMEM)
        return;
    size_t ncases = g->r->cases.len, tried = 0;
    for (size_t k = 0; k < ncases && tried < 4; k++) {
        const sg_golden_case_result *c = &g->r->cases.items[k];
        if (c->passed || (c->kind != SG_GCASE_TEST && c->kind != SG_GCASE_INPUT))
            continue;
        tried++;
        size_t idx = c->kind == SG_GCASE_TEST ? c->index : t->ncases - t->nbase_inputs - t->nplus_inputs + c->index;
        if (idx >= t->ncases)
            return;
        const sg_golden_case *cs = &t->cases[idx];
        golden__check ch;
        if (golden__check_input(g, &ps, cs->args, cs->kwargs, -1, &ch) != SG_OK) {
            golden__check_free(&ch);
            break;
        }
        bool failed = ch.failed && !ch.discarded;
        sg_value *a = failed ? sg_value_copy(cs->args) : NULL;
        if (!a) {
            golden__check_free(&ch);
            continue;
        }
        if (golden__report_failure(g, &ps, a, cs->kwargs, ch.prop, &ch) != SG_OK || g->cand_stopped)
            break;
    }
    golden__report_stop(g, &ps);
}

/* ---- the driver --------------------------------------------------------------------------- */

sg_status sg_golden_run(const sg_sandbox *sandbox, const sg_golden_task *task, const char *candidate, size_t len,
                        const sg_golden_opts *opts, sg_golden_result **ret, sg_diag *diag)
{
    if (!sandbox || !task || !candidate || !ret)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, NULL, 0, 0, -1, 0, "sg_golden_run: NULL argument");
    if (memchr(candidate, 0, len))
        return sg_diag_set(diag, SG_ERR_BINARY, NULL, 0, 0, -1, 0, "candidate holds a NUL byte");
    golden__run g;
    memset(&g, 0, sizeof g);
    g.task = task;
    if (opts)
        g.opts = *opts;
    else
        sg_golden_opts_init(&g.opts);
    if (!g.opts.max_shrink_calls)
        g.opts.max_shrink_calls = 1500;
    g.r = calloc(1, sizeof *g.r);
    if (!g.r || !(g.r->arena = sg_arena_new())) {
        free(g.r);
        return sg_diag_set(diag, SG_ERR_NOMEM, NULL, 0, 0, -1, 0, "out of memory");
    }
    g.r->counterexample = -1;
    g.stop_case = -1;
    g.r->seed = g.opts.has_seed ? g.opts.seed : task->fuzz_has_seed ? task->fuzz_seed : 0x5eedULL;
    clock_gettime(CLOCK_MONOTONIC, &g.t0);
    sg_sandbox_limits_init(&g.lim);
    uint64_t ms = (uint64_t)ceil(task->timeout_s * 1000);
    /* A case is judged by its CPU time (the supervisor's measurement); the wall limit only
     * catches a case that waits (sleeps, blocks) and is generous, so that a busy machine, where
     * wall time runs ahead of CPU time, does not turn a correct case into a timeout. */
    g.lim.cpu_ms = ms;
    g.lim.wall_ms = 3 * ms + 1000;

    TSParser *parser = ts_parser_new();
    char *cand_text = NULL, *cand_prog = NULL, *ref_src = NULL, *ref_prog = NULL, *mbpp_entry = NULL;
    sg_outcome *imp = NULL, *cimp = NULL;
    if (!parser || !ts_parser_set_language(parser, tree_sitter_python())) {
        golden__internal(&g, "tree-sitter is unavailable");
        goto done;
    }
    g.entry = task->entry_point;
    if (!g.entry && task->ntargets)
        g.entry = task->targets[0];
    if (!g.entry && task->format == SG_TASK_MBPP) {
        mbpp_entry = golden__mbpp_entry(task, parser);
        g.entry = mbpp_entry;
    }
    if (!g.entry) {
        golden__internal(&g, "the task names no function under test");
        goto done;
    }
    cand_text = g.opts.completion ? NULL : sg_strndup_buf(candidate, len);
    if (g.opts.completion) {
        char *completion = sg_strndup_buf(candidate, len);
        cand_text = completion ? sg_golden_task_candidate_source(task, completion) : NULL;
        free(completion);
        g.pre_lines = sg_golden_task_prompt_lines(task);
    }
    if (task->format == SG_TASK_MBPP)
        for (size_t k = 0; k < task->ntest_imports; k++)
            for (const char *p = task->test_imports[k];; p++)
                if (!*p || *p == '\n') {
                    g.pre_lines++; /* each import is followed by a newline */
                    if (!*p)
                        break;
                }
    g.cand_lines = 1;
    for (size_t k = 0; k < len; k++)
        g.cand_lines += candidate[k] == '\n' && k + 1 < len;
    ref_src = sg_golden_task_reference_source(task);
    cand_prog = cand_text ? golden__program(&g, cand_text, false) : NULL;
    g.ref_src = ref_src;
    g.cand_src = cand_text;
    ref_prog = ref_src ? golden__program(&g, ref_src, true) : NULL;
    golden__rc_prepare(&g, ref_prog);
    g.sandbox = sandbox;
    g.progs[0] = cand_prog;
    g.progs[1] = ref_prog;
    if (!cand_prog || (ref_src && !ref_prog)) {
        golden__internal(&g, "out of memory or program too large");
        goto done;
    }
    /* The reference is started only when something will ask it: an EvalPlus input (expected
     * values are its answers), HumanEval/MBPP asserts (their expected side), properties and
     * shrinking (differential, roundtrip, generated inputs). Known answers alone with
     * --no-properties need only the candidate (one sandbox start instead of two). */
    bool need_ref = !g.opts.no_properties || task->format != SG_TASK_SNIPGATE;
    for (size_t k = 0; k < task->ncases && !need_ref; k++)
        need_ref = !task->cases[k].expected && !task->cases[k].raises;
    if (ref_prog && need_ref) {
        if (golden__start(&g, ref_prog, &g.ref, &imp, sandbox, 1) != SG_OK)
            goto done;
    } else if (task->format == SG_TASK_HUMANEVAL || task->format == SG_TASK_MBPP || task->format == SG_TASK_EVALPLUS) {
        golden__internal(&g, "the task has no reference solution to evaluate its expected values");
        goto done;
    }
    if (golden__start(&g, cand_prog, &g.cand, &cimp, sandbox, 0) != SG_OK)
        goto done;
    /* the first cases' calls, ahead in batches (in pooled workers they import the programs too) */
    if (task->ncases)
        golden__want_cases(&g, 0, task->ncases < 256 ? task->ncases : 256);
    else
        golden__asserts_ahead(&g, parser);
    /* a task whose reference does not import cannot judge anything */
    if (g.ref) {
        if (golden__import(&g, g.ref, &imp) != SG_OK)
            goto done;
        const sg_outcome_info *ii = sg_outcome_info_get(imp);
        if (ii->kind != SG_OUTCOME_OK) {
            golden__internal(&g, "the reference solution does not import: %s %s", sg_outcome_kind_name(ii->kind),
                             ii->exc_type ? ii->exc_type : ii->detail);
            goto done;
        }
    }
    sg_outcome_free(imp);
    imp = cimp;
    cimp = NULL;
    if (golden__import(&g, g.cand, &imp) != SG_OK)
        goto done;
    const sg_outcome_info *ci = sg_outcome_info_get(imp);
    if (ci->kind != SG_OUTCOME_OK) {
        /* the candidate did not import: every case fails */
        golden__res res = {.kind = ci->kind == SG_OUTCOME_EXCEPTION ? GR_RAISE
                                   : ci->kind == SG_OUTCOME_TIMEOUT ? GR_TIMEOUT
                                                                    : GR_OTHER,
                           .info = ci};
        sg_golden_case_result *c = golden__add(&g, SG_GCASE_IMPORT, 0, false, &res);
        if (c)
            c->name = "import";
        g.r->cases_run++;
        goto done;
    }
    /* (a) */
    sg_status st = SG_OK;
    for (size_t k = 0; k < task->ncases && st == SG_OK && !g.failed_internal; k++) {
        if (k && k % 256 == 0) /* the next cases' calls, ahead in batches */
            golden__want_cases(&g, k, k + 256 < task->ncases ? k + 256 : task->ncases);
        st = golden__run_case(&g, k);
    }
    st = golden__stage_end(&g, st);
    if (!g.asserts_ahead)
        golden__pf_clear(&g);
    /* (a candidate stopped in the asserts' batches sent ahead is judged on their outcomes) */
    if (st == SG_OK && !g.failed_internal && (!g.cand_stopped || g.asserts_ahead) && task->format == SG_TASK_HUMANEVAL)
        st = golden__stage_end(&g, golden__run_humaneval(&g, parser));
    if (st == SG_OK && !g.failed_internal && (!g.cand_stopped || g.asserts_ahead) && task->format == SG_TASK_MBPP)
        st = golden__stage_end(&g, golden__run_mbpp(&g, parser));
    golden__report_stop(&g, NULL);
    if (st != SG_OK && !g.failed_internal)
        golden__internal(&g, "%s", sg_strerror(st));
    /* (c) for a failing case: shrink its input against the reference (a different result or
     * exception class, or a mutated argument) to a minimal counterexample */
    g.generated = true; /* from here on, inputs are generated: gen_lim for the reference */
    g.gen_lim = g.lim;
    if (g.gen_lim.cpu_ms > GOLDEN_GEN_REF_CPU_MS)
        g.gen_lim.cpu_ms = GOLDEN_GEN_REF_CPU_MS;
    if (g.gen_lim.wall_ms > GOLDEN_GEN_REF_CPU_MS + 600)
        g.gen_lim.wall_ms = GOLDEN_GEN_REF_CPU_MS + 600;
    /* (neither once the candidate timed out: it is not called again) */
    if (!g.failed_internal && !g.cand_stopped && g.ref && !g.opts.no_properties && g.r->cases_passed < g.r->cases_run)
        golden__shrink_failed_case(&g);
    /* (b), (c): also after a failure in (a), which is blocked already, to find a smaller
     * counterexample than the failing case's */
    if (!g.failed_internal && !g.cand_stopped && !g.opts.no_properties) {
        st = golden__stage_end(&g, golden__properties(&g));
        if (st == SG_OK && !g.failed_internal)
            st = golden__stage_end(&g, golden__efficiency(&g));
        if (st != SG_OK && !g.failed_internal)
            golden__internal(&g, "%s", sg_strerror(st));
    }
    golden__stop_reason(&g);
done:
    free(g.stop_text);
    if (g.he_tree)
        ts_tree_delete(g.he_tree);
    golden__eff_unkeep(&g);
    golden__pf_clear(&g);
    golden__want_clear(&g);
    sg_array_free(&g.pf);
    sg_array_free(&g.want);
    for (size_t k = 0; k < g.ex_texts.len; k++)
        free(g.ex_texts.items[k]);
    sg_array_free(&g.ex_texts);
    for (size_t k = 0; k < g.ex_args.len; k++)
        sg_value_free(g.ex_args.items[k]);
    sg_array_free(&g.ex_args);
    for (size_t k = 0; k < g.fence.len; k++)
        sg_value_free(g.fence.items[k]);
    sg_array_free(&g.fence);
    if (g.inferred) {
        for (size_t k = 0; k < g.ntypes; k++)
            sg_type_free(g.types[k]);
        free(g.types);
    }
    sg_golden_kwparams_free(&g.kw);
    sg_outcome_free(imp);
    sg_outcome_free(cimp);
    sg_worker_free(g.own[0]); /* (a pooled run's own workers, from shrinking on) */
    sg_worker_free(g.own[1]);
    if (!g.opts.pool) {
        sg_worker_free(g.cand);
        sg_worker_free(g.ref);
    } else {
        /* a pool's workers stay warm for the next run; they keep neither this run's programs
         * nor its cancel flag (the caller's, which may not outlive the run) */
        sg_worker_opts wo;
        sg_worker_opts_init(&wo);
        wo.pooled = true;
        for (int k = 0; k < 2; k++)
            if (g.opts.pool->w[k])
                (void)sg_worker_rebind(g.opts.pool->w[k], "", 0, &wo, NULL);
    }
    ts_parser_delete(parser);
    free(cand_text);
    free(cand_prog);
    free(ref_src);
    free(ref_prog);
    free(mbpp_entry);
    /* the verdict: an internal error is never a pass; nothing checked is an error */
    bool any_fail = false;
    for (size_t k = 0; k < g.r->cases.len; k++)
        any_fail |= !g.r->cases.items[k].passed;
    if (g.failed_internal)
        g.r->verdict = SG_GOLDEN_ERROR;
    else if (any_fail)
        g.r->verdict = SG_GOLDEN_FAIL;
    else if (g.r->cases_run == 0 && g.r->inputs_checked == 0) {
        g.r->verdict = SG_GOLDEN_ERROR;
        snprintf(g.r->error, sizeof g.r->error, "nothing was checked: the task has no usable case or input");
    } else
        g.r->verdict = SG_GOLDEN_PASS;
    *ret = g.r;
    return SG_OK;
}

void sg_golden_result_free(sg_golden_result *r)
{
    if (!r)
        return;
    sg_array_free(&r->cases);
    sg_arena_free(r->arena);
    free(r);
}

sg_golden_verdict sg_golden_result_verdict(const sg_golden_result *r)
{
    return r ? r->verdict : SG_GOLDEN_ERROR;
}

const char *sg_golden_result_error(const sg_golden_result *r)
{
    return r ? r->error : "no result";
}

size_t sg_golden_result_count(const sg_golden_result *r)
{
    return r ? r->cases.len : 0;
}

const sg_golden_case_result *sg_golden_result_case(const sg_golden_result *r, size_t index)
{
    return r ? sg_array_at(&r->cases, index) : NULL;
}

size_t sg_golden_result_cases_run(const sg_golden_result *r)
{
    return r ? r->cases_run : 0;
}

size_t sg_golden_result_cases_passed(const sg_golden_result *r)
{
    return r ? r->cases_passed : 0;
}

size_t sg_golden_result_inputs_checked(const sg_golden_result *r)
{
    return r ? r->inputs_checked : 0;
}

static const char *const golden__discard_names[SG_DISCARD_COUNT] = {
    "envelope", "contract", "reference_raised", "reference_timeout", "fenced", "too_large", "reference_unencodable"};

const char *sg_golden_discard_name(sg_golden_discard reason)
{
    return (unsigned)reason < SG_DISCARD_COUNT ? golden__discard_names[reason] : "unknown";
}

size_t sg_golden_result_inputs_discarded_by(const sg_golden_result *r, sg_golden_discard reason)
{
    return r && (unsigned)reason < SG_DISCARD_COUNT ? r->discarded_by[reason] : 0;
}

size_t sg_golden_result_inputs_discarded(const sg_golden_result *r)
{
    return r ? r->inputs_discarded : 0;
}

size_t sg_golden_result_efficiency_checked(const sg_golden_result *r)
{
    return r ? r->eff_checked : 0;
}

unsigned sg_golden_result_efficiency_scale(const sg_golden_result *r)
{
    return r ? r->eff_scale : 0;
}

size_t sg_golden_result_calls(const sg_golden_result *r)
{
    return r ? r->calls : 0;
}

uint64_t sg_golden_result_seed(const sg_golden_result *r)
{
    return r ? r->seed : 0;
}

const sg_golden_case_result *sg_golden_result_counterexample(const sg_golden_result *r)
{
    return r && r->counterexample >= 0 ? &r->cases.items[r->counterexample] : NULL;
}

static const char *const golden__kind_names[] = {"test", "input", "assert", "check", "property", "import"};

const char *sg_golden_case_kind_name(sg_golden_case_kind kind)
{
    return (unsigned)kind < sizeof golden__kind_names / sizeof golden__kind_names[0] ? golden__kind_names[kind] : "?";
}

static int golden__jset_str(json_t *o, const char *k, const char *v)
{
    return v ? json_object_set_new(o, k, json_string(v)) : 0;
}

sg_status sg_golden_result_to_json(const sg_golden_result *r, char **ret_json)
{
    json_t *o = json_object();
    json_t *cases = json_array();
    if (!o || !cases) {
        json_decref(o);
        json_decref(cases);
        return SG_ERR_NOMEM;
    }
    json_object_set_new(o, "verdict", json_string(sg_golden_verdict_name(r->verdict)));
    if (r->verdict == SG_GOLDEN_ERROR)
        json_object_set_new(o, "error", json_string(r->error));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    json_object_set_new(o, "seed", json_string(seed));
    json_object_set_new(o, "cases_run", json_integer((json_int_t)r->cases_run));
    json_object_set_new(o, "cases_passed", json_integer((json_int_t)r->cases_passed));
    json_object_set_new(o, "inputs_checked", json_integer((json_int_t)r->inputs_checked));
    json_object_set_new(o, "inputs_discarded", json_integer((json_int_t)r->inputs_discarded));
    json_t *by = json_object();
    for (int k = 0; by && k < SG_DISCARD_COUNT; k++)
        if (r->discarded_by[k])
            json_object_set_new(by, golden__discard_names[k], json_integer((json_int_t)r->discarded_by[k]));
    if (by)
        json_object_set_new(o, "inputs_discarded_by", by);
    json_object_set_new(o, "efficiency_checked", json_integer((json_int_t)r->eff_checked));
    json_object_set_new(o, "calls", json_integer((json_int_t)r->calls));
    for (size_t k = 0; k < r->cases.len; k++) {
        const sg_golden_case_result *c = &r->cases.items[k];
        json_t *j = json_object();
        if (!j)
            continue;
        json_object_set_new(j, "kind", json_string(golden__kind_names[c->kind]));
        json_object_set_new(j, "index", json_integer((json_int_t)c->index));
        json_object_set_new(j, "passed", json_boolean(c->passed));
        golden__jset_str(j, "name", c->name);
        golden__jset_str(j, "input", c->input);
        golden__jset_str(j, "args", c->args_json);
        golden__jset_str(j, "expected", c->expected);
        golden__jset_str(j, "got", c->got);
        golden__jset_str(j, "reason", c->reason);
        golden__jset_str(j, "exc_type", c->exc_type);
        golden__jset_str(j, "exc_message", c->exc_message);
        golden__jset_str(j, "traceback", c->traceback);
        if (c->exc_line)
            json_object_set_new(j, "exc_line", json_integer(c->exc_line));
        if (c->test_line)
            json_object_set_new(j, "test_line", json_integer(c->test_line));
        json_array_append_new(cases, j);
    }
    json_object_set_new(o, "cases", cases);
    char *s = sg_json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!s)
        return SG_ERR_NOMEM;
    *ret_json = s;
    return SG_OK;
}
