/* Greedy value-tree shrinking (shrink.h). */
#include "golden_tasks/shrink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef SG_ARRAY(sg_value *) shrink__list;

#define SHRINK_MAX_STEPS 20000

static int shrink__add(shrink__list *out, sg_value *v)
{
    if (!v)
        return -1;
    if (sg_array_push(out, v, SHRINK_MAX_STEPS) < 0) {
        sg_value_free(v);
        return out->len >= SHRINK_MAX_STEPS ? 0 : -1;
    }
    return 0;
}

/* A copy of container `v` with slot range [from, to) removed (element units; dict: pairs). */
static sg_value *shrink__drop(const sg_value *v, size_t from, size_t to)
{
    sg_value *c = sg_value_new(v->kind);
    if (!c)
        return NULL;
    size_t per = v->kind == SG_VAL_DICT ? 2 : 1;
    for (size_t k = 0; k < v->n; k++) {
        if (k >= from && k < to)
            continue;
        for (size_t x = 0; x < per; x++)
            if (sg_value_push(c, sg_value_copy(v->items[per * k + x])) < 0) {
                sg_value_free(c);
                return NULL;
            }
    }
    return c;
}

/* A copy of `v` with slot `slot` replaced by `w` (taken). */
static sg_value *shrink__replace(const sg_value *v, size_t slot, sg_value *w)
{
    sg_value *c = sg_value_copy(v);
    if (!c) {
        sg_value_free(w);
        return NULL;
    }
    sg_value_free(c->items[slot]);
    c->items[slot] = w;
    return c;
}

static size_t shrink__cp_len(const unsigned char *s, size_t at, size_t len, bool bytes)
{
    if (bytes)
        return 1;
    unsigned char c = s[at];
    size_t n = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : 4;
    return at + n <= len ? n : len - at;
}

static int shrink__steps(const sg_value *v, bool chunks, shrink__list *out, int depth, bool keep_len)
{
    switch (v->kind) {
    case SG_VAL_BOOL:
        if (v->b)
            return shrink__add(out, sg_value_new_bool(false));
        return 0;
    case SG_VAL_INT: {
        if (v->big) {
            /* toward 0: zero, then a 64-bit value of the same sign */
            if (shrink__add(out, sg_value_new_int(0)) < 0)
                return -1;
            return shrink__add(out, sg_value_new_int(v->big[0] == '-' ? INT64_MIN : INT64_MAX));
        }
        int64_t i = v->i;
        if (i == 0)
            return 0;
        int64_t cands[4] = {0, i / 2, i > 0 ? i - 1 : i + 1, i < 0 && i != INT64_MIN ? -i : 0};
        uint64_t mi = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
        for (int k = 0; k < 4; k++) {
            int64_t w = cands[k];
            uint64_t mw = w < 0 ? (uint64_t)0 - (uint64_t)w : (uint64_t)w;
            bool dup = false;
            for (int q = 0; q < k; q++)
                dup |= cands[q] == w;
            /* smaller magnitude, or a negative number made positive */
            if (dup || !(mw < mi || (k == 3 && i < 0 && w > 0)))
                continue;
            if (shrink__add(out, sg_value_new_int(w)) < 0)
                return -1;
        }
        return 0;
    }
    case SG_VAL_FLOAT:
        if (v->f != 0.0 || signbit(v->f))
            if (shrink__add(out, sg_value_new_float(0.0)) < 0)
                return -1;
        if (isfinite(v->f) && v->f != trunc(v->f) && trunc(v->f) != 0.0)
            if (shrink__add(out, sg_value_new_float(trunc(v->f))) < 0)
                return -1;
        return 0;
    case SG_VAL_STR:
    case SG_VAL_BYTES: {
        bool bytes = v->kind == SG_VAL_BYTES;
        const unsigned char *s = (const unsigned char *)v->s;
        size_t len = v->len;
        if (chunks && len > 1) {
            /* first or second half dropped */
            size_t half = len / 2;
            while (!bytes && half < len && (s[half] & 0xC0) == 0x80)
                half++;
            if (shrink__add(out, sg_value_new_str(v->kind, v->s, half)) < 0 ||
                shrink__add(out, sg_value_new_str(v->kind, v->s + half, len - half)) < 0)
                return -1;
        }
        char *buf = malloc(len + 2);
        if (!buf)
            return -1;
        for (size_t at = 0; at < len;) {
            size_t n = shrink__cp_len(s, at, len, bytes);
            memcpy(buf, s, at);
            memcpy(buf + at, s + at + n, len - at - n);
            if (shrink__add(out, sg_value_new_str(v->kind, buf, len - n)) < 0) {
                free(buf);
                return -1;
            }
            at += n;
        }
        for (size_t at = 0; at < len;) {
            size_t n = shrink__cp_len(s, at, len, bytes);
            static const char fills[2] = {'a', '0'};
            for (int f = 0; f < 2; f++) {
                bool lower = bytes ? s[at] != (unsigned char)fills[f] : (n > 1 || s[at] > (unsigned char)fills[f]);
                if (!lower)
                    continue;
                memcpy(buf, s, at);
                buf[at] = fills[f];
                memcpy(buf + at + 1, s + at + n, len - at - n);
                if (shrink__add(out, sg_value_new_str(v->kind, buf, len - n + 1)) < 0) {
                    free(buf);
                    return -1;
                }
            }
            at += n;
        }
        free(buf);
        return 0;
    }
    case SG_VAL_LIST:
    case SG_VAL_TUPLE:
    case SG_VAL_SET:
    case SG_VAL_DICT: {
        bool droppable = !keep_len && v->kind != SG_VAL_TUPLE;
        if (droppable && chunks && v->n > 1) {
            if (shrink__add(out, shrink__drop(v, 0, v->n / 2)) < 0 ||
                shrink__add(out, shrink__drop(v, v->n / 2, v->n)) < 0)
                return -1;
        }
        if (droppable)
            for (size_t k = 0; k < v->n; k++)
                if (shrink__add(out, shrink__drop(v, k, k + 1)) < 0)
                    return -1;
        if (depth >= 8 || v->kind == SG_VAL_SET)
            return 0;
        for (size_t k = 0; k < v->n; k++) {
            size_t slot = v->kind == SG_VAL_DICT ? 2 * k + 1 : k;
            shrink__list sub = {0};
            if (shrink__steps(v->items[slot], chunks, &sub, depth + 1, false) < 0) {
                for (size_t x = 0; x < sub.len; x++)
                    sg_value_free(sub.items[x]);
                sg_array_free(&sub);
                return -1;
            }
            for (size_t x = 0; x < sub.len; x++) {
                if (shrink__add(out, shrink__replace(v, slot, sub.items[x])) < 0) {
                    for (size_t y = x + 1; y < sub.len; y++)
                        sg_value_free(sub.items[y]);
                    sg_array_free(&sub);
                    return -1;
                }
            }
            sg_array_free(&sub);
        }
        return 0;
    }
    default:
        return 0;
    }
}

sg_status sg_shrink_steps(const sg_value *v, bool chunks, sg_value ***ret, size_t *ret_n)
{
    shrink__list out = {0};
    if (shrink__steps(v, chunks, &out, 0, false) < 0) {
        for (size_t k = 0; k < out.len; k++)
            sg_value_free(out.items[k]);
        sg_array_free(&out);
        return SG_ERR_NOMEM;
    }
    *ret = out.items;
    *ret_n = out.len;
    return SG_OK;
}

static bool shrink__conforms(const sg_value *args, sg_type *const *types, size_t ntypes, bool options)
{
    if (!types)
        return true;
    for (size_t k = 0; k < args->n && k < ntypes; k++)
        if (!sg_type_conforms(args->items[k], types[k], options))
            return false;
    return true;
}

/* Collect distinct non-zero int64 values of a tree (at most `cap`). */
static void shrink__ints(const sg_value *v, int64_t *out, size_t *n, size_t cap, int depth)
{
    if (v->kind == SG_VAL_INT && !v->big && v->i != 0) {
        for (size_t k = 0; k < *n; k++)
            if (out[k] == v->i)
                return;
        if (*n < cap)
            out[(*n)++] = v->i;
        return;
    }
    for (size_t k = 0; k < sg_value_slots(v) && depth < 16; k++)
        shrink__ints(v->items[k], out, n, cap, depth + 1);
}

/* Replace every int equal to `from` by `to`, in place. */
static void shrink__subst(sg_value *v, int64_t from, int64_t to, int depth)
{
    if (v->kind == SG_VAL_INT && !v->big && v->i == from) {
        v->i = to;
        return;
    }
    for (size_t k = 0; k < sg_value_slots(v) && depth < 16; k++)
        shrink__subst(v->items[k], from, to, depth + 1);
}

/* Steps that move every occurrence of one int together (keys that must stay equal, such as
 * the tie in a stable merge): to 0, halfway, one step toward 0. */
static int shrink__together(const sg_value *args, shrink__list *out)
{
    int64_t ints[16];
    size_t n = 0;
    shrink__ints(args, ints, &n, 16, 0);
    for (size_t k = 0; k < n; k++) {
        int64_t i = ints[k];
        int64_t to[3] = {0, i / 2, i > 0 ? i - 1 : i + 1};
        for (int t = 0; t < 3; t++) {
            if ((t == 1 && to[1] == 0) || (t == 2 && (to[2] == 0 || to[2] == to[1])))
                continue;
            sg_value *c = sg_value_copy(args);
            if (!c)
                return -1;
            shrink__subst(c, i, to[t], 0);
            if (shrink__add(out, c) < 0)
                return -1;
        }
    }
    return 0;
}

static bool shrink__conforms(const sg_value *args, sg_type *const *types, size_t ntypes, bool options);

#define SHRINK_WINDOW 16

/* Announce the conforming inputs among items[from..] (up to SHRINK_WINDOW of them, at most
 * `budget`) to prep; returns the index after the last one announced. */
static size_t shrink__announce(sg_value *const *items, size_t len, size_t from, sg_type *const *types, size_t ntypes,
                               bool options, uint64_t below, sg_shrink_prep prep, void *ctx, unsigned budget)
{
    const sg_value *win[SHRINK_WINDOW];
    size_t n = 0, k = from;
    for (; k < len && n < SHRINK_WINDOW && n < budget; k++) {
        const sg_value *c = items[k];
        if (c && (!below || sg_value_size(c) < below) && shrink__conforms(c, types, ntypes, options))
            win[n++] = c;
    }
    if (prep && n > 1)
        prep(ctx, win, n);
    return k;
}

/* Two single steps at once, for inputs whose single steps all pass. */
static sg_status shrink__pairs(sg_value **args_inout, sg_type *const *types, size_t ntypes, bool options,
                               sg_shrink_pred pred, sg_shrink_prep prep, void *ctx, unsigned max_calls,
                               unsigned *calls, bool *found)
{
    sg_status st = SG_OK;
    shrink__list first = {0};
    uint64_t size0 = sg_value_size(*args_inout);
    *found = false;
    if (shrink__steps(*args_inout, false, &first, 0, true) < 0 || shrink__together(*args_inout, &first) < 0) {
        st = SG_ERR_NOMEM;
        goto out;
    }
    for (size_t a = 0; a < first.len && !*found && *calls < max_calls && st == SG_OK; a++) {
        shrink__list second = {0};
        if (shrink__steps(first.items[a], false, &second, 0, true) < 0) {
            st = SG_ERR_NOMEM;
        }
        size_t announced = 0;
        for (size_t b = 0; b < second.len && !*found && *calls < max_calls && st == SG_OK; b++) {
            if (b >= announced)
                announced = shrink__announce(second.items, second.len, b, types, ntypes, options, size0, prep, ctx,
                                             max_calls - *calls);
            sg_value *cand = second.items[b];
            if (sg_value_size(cand) >= size0 || !shrink__conforms(cand, types, ntypes, options))
                continue;
            bool fails = false;
            (*calls)++;
            if ((st = pred(ctx, cand, &fails)) == SG_OK && fails) {
                sg_value_free(*args_inout);
                *args_inout = cand;
                second.items[b] = NULL;
                *found = true;
            }
        }
        for (size_t b = 0; b < second.len; b++)
            sg_value_free(second.items[b]);
        sg_array_free(&second);
    }
out:
    for (size_t a = 0; a < first.len; a++)
        sg_value_free(first.items[a]);
    sg_array_free(&first);
    return st;
}

sg_status sg_shrink(sg_value **args_inout, sg_type *const *types, size_t ntypes, bool options, sg_shrink_pred pred,
                    void *ctx, unsigned max_calls, unsigned *ret_calls)
{
    return sg_shrink_prepared(args_inout, types, ntypes, options, pred, NULL, ctx, max_calls, ret_calls);
}

sg_status sg_shrink_prepared(sg_value **args_inout, sg_type *const *types, size_t ntypes, bool options,
                             sg_shrink_pred pred, sg_shrink_prep prep, void *ctx, unsigned max_calls,
                             unsigned *ret_calls)
{
    unsigned calls = 0;
    sg_status st = SG_OK;
    bool progress = true;
    bool chunks = true;
    while (progress && calls < max_calls) {
        progress = false;
        shrink__list steps = {0};
        /* the argument list keeps its length: shrink members only */
        if (shrink__steps(*args_inout, chunks, &steps, 0, true) < 0 || shrink__together(*args_inout, &steps) < 0) {
            st = SG_ERR_NOMEM;
            for (size_t k = 0; k < steps.len; k++)
                sg_value_free(steps.items[k]);
            sg_array_free(&steps);
            break;
        }
        size_t k, announced = 0;
        for (k = 0; k < steps.len && calls < max_calls; k++) {
            if (k >= announced)
                announced = shrink__announce(steps.items, steps.len, k, types, ntypes, options, 0, prep, ctx,
                                             max_calls - calls);
            sg_value *cand = steps.items[k];
            if (!shrink__conforms(cand, types, ntypes, options))
                continue;
            bool fails = false;
            calls++;
            if ((st = pred(ctx, cand, &fails)) != SG_OK)
                break;
            if (fails) {
                sg_value_free(*args_inout);
                *args_inout = cand;
                steps.items[k] = NULL;
                progress = true;
                break;
            }
        }
        for (size_t x = 0; x < steps.len; x++)
            sg_value_free(steps.items[x]);
        sg_array_free(&steps);
        if (st != SG_OK)
            break;
        if (!progress && chunks) {
            /* chunk drops exhausted: a last pass over the single steps only */
            chunks = false;
            progress = true;
        } else if (!progress) {
            /* a local minimum of single steps: try two steps at once (a shorter string and a
             * smaller count that only fail together), smaller inputs only */
            bool found = false;
            if ((st = shrink__pairs(args_inout, types, ntypes, options, pred, prep, ctx, max_calls, &calls, &found)) !=
                SG_OK)
                break;
            progress = found;
        }
    }
    if (ret_calls)
        *ret_calls = calls;
    return st;
}
