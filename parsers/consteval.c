/*
 * Constant evaluation: the value of a constant string expression ("a" "b", "a" + "b",
 * "".join([...]), s[::-1], chr(65), str.lower(), a name bound once to one), Python escapes,
 * f-string prefixes and skeletons, and literal truthiness. Every evaluation carries a depth and
 * a work budget (res->budget).
 */
#include "resolve_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int const__hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static void const__put_utf8(sg_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    sg_buf_append(b, u, n);
}

/* Decode Python escapes of a non-raw string body into b. */
static void const__unescape(sg_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 >= n) {
            /* copy the run up to the next backslash at once */
            const char *bs = memchr(s + i, '\\', n - i);
            size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
            if (run == 0)
                run = 1;
            sg_buf_append(b, s + i, run);
            i += run - 1;
            continue;
        }
        char c = s[++i];
        switch (c) {
        case 'n': sg_buf_append(b, "\n", 1); break;
        case 't': sg_buf_append(b, "\t", 1); break;
        case 'r': sg_buf_append(b, "\r", 1); break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            unsigned v = 0;
            size_t k = 0;
            while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                v = v * 8 + (unsigned)(s[i] - '0');
                i++;
                k++;
            }
            i--;
            const__put_utf8(b, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            unsigned long v = 0;
            size_t k;
            for (k = 0; k < digits && i + 1 + k < n && const__hexval((unsigned char)s[i + 1 + k]) >= 0; k++)
                v = v * 16 + (unsigned long)const__hexval((unsigned char)s[i + 1 + k]);
            if (k == digits && v <= 0x10ffff) {
                const__put_utf8(b, v);
                i += digits;
            } else {
                sg_buf_append(b, "\\", 1);
                sg_buf_append(b, &c, 1);
            }
            break;
        }
        case '\n': break;
        case '\\': case '\'': case '"': sg_buf_append(b, &c, 1); break;
        case 'a': sg_buf_append(b, "\a", 1); break;
        case 'b': sg_buf_append(b, "\b", 1); break;
        case 'f': sg_buf_append(b, "\f", 1); break;
        case 'v': sg_buf_append(b, "\v", 1); break;
        default:
            sg_buf_append(b, "\\", 1);
            sg_buf_append(b, &c, 1);
        }
    }
}

/* A single string literal (no interpolation) appended to out. */
static bool const__string(sg_res_cx *cx, TSNode n, sg_buf *out, bool *ret_fstring)
{
    const sg_syms *sy = cx->res->sy;
    bool raw = false, fstr = false, bytes = false;
    sg_children it;
    TSNode c;
    sg_children_init(&it, n);
    while (sg_children_next(&it, &c)) {
        TSSymbol s = ts_node_symbol(c);
        size_t len;
        const char *t = sg_node_text(cx->src, c, &len);
        if (s == sy->string_start) {
            for (size_t k = 0; k < len && t[k] != '\'' && t[k] != '"'; k++) {
                char p = (char)tolower((unsigned char)t[k]);
                raw |= p == 'r';
                fstr |= p == 'f';
                bytes |= p == 'b';
            }
        } else if (s == sy->interpolation) {
            if (ret_fstring)
                *ret_fstring = true;
            sg_children_end(&it);
            return false;
        } else if (s == sy->string_content) {
            if (raw)
                sg_buf_append(out, t, len);
            else
                const__unescape(out, t, len);
        }
    }
    sg_children_end(&it);
    (void)fstr;
    (void)bytes;
    return !out->failed && !out->truncated;
}

static bool const__lookup(sg_res_cx *cx, sg_scope *scope, TSNode id, sg_buf *out, int depth);

/* os.path.expanduser("~/.ssh/id_rsa"), os.path.expandvars(...), os.fspath(...): as far as path
 * patterns go ("~/.ssh*", "* /.ssh/ *") the value is the argument. `name` is the callee's last
 * component, checked first so that only these calls cost a resolution. */
static bool const__path_identity(sg_res_cx *cx, sg_scope *scope, TSNode fn, const char *name, size_t nl)
{
    static const char *const calls[] = {"os.path.expanduser", "os.path.expandvars", "os.fspath"};
    bool candidate = false;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0] && !candidate; i++) {
        const char *last = strrchr(calls[i], '.') + 1;
        candidate = strlen(last) == nl && !memcmp(last, name, nl);
    }
    if (!candidate)
        return false;
    sg_cands f = {0};
    sg_res_expr(cx, scope, fn, &f, 0);
    for (int k = 0; k < f.n; k++)
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
            if (!strcmp(f.q[k], calls[i]))
                return true;
    return false;
}

static bool const__call(sg_res_cx *cx, sg_scope *scope, TSNode call, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode fn = sg_node_field(call, sy->f_function);
    TSNode args = sg_node_field(call, sy->f_arguments);
    if (!sg_node_is(args, sy->argument_list))
        return false;
    uint32_t nargs = ts_node_named_child_count(args);
    if (sg_node_is(fn, sy->attribute)) {
        TSNode obj = sg_node_unparen(sg_node_field(fn, sy->f_object));
        size_t alen;
        const char *attr = sg_node_text(cx->src, sg_node_field(fn, sy->f_attribute), &alen);
        if (alen == 4 && !memcmp(attr, "join", 4) && nargs == 1) {
            sg_buf sep;
            sg_buf_init(&sep, RES_MAX_CONST);
            bool ok = sg_const_eval(cx, scope, obj, &sep, depth + 1);
            TSNode seq = sg_node_unparen(ts_node_named_child(args, 0));
            if (ok && (sg_node_is(seq, sy->list) || sg_node_is(seq, sy->tuple))) {
                uint32_t k = ts_node_named_child_count(seq);
                for (uint32_t i = 0; i < k && ok; i++) {
                    if (i && sep.len)
                        sg_buf_append(out, sep.data, sep.len);
                    ok = sg_const_eval(cx, scope, ts_node_named_child(seq, i), out, depth + 1);
                }
            } else {
                ok = false;
            }
            sg_res_buf_done(res, &sep);
            return ok;
        }
        if (((alen == 5 && (!memcmp(attr, "lower", 5) || !memcmp(attr, "upper", 5) || !memcmp(attr, "strip", 5))) ||
             (alen == 6 && !memcmp(attr, "decode", 6)) || (alen == 8 && !memcmp(attr, "casefold", 8))) &&
            nargs <= 1) {
            sg_buf tmp;
            sg_buf_init(&tmp, RES_MAX_CONST);
            bool ok = sg_const_eval(cx, scope, obj, &tmp, depth + 1);
            if (ok) {
                for (size_t i = 0; i < tmp.len; i++) {
                    if (attr[0] == 'l' || attr[0] == 'c')
                        tmp.data[i] = (char)tolower((unsigned char)tmp.data[i]);
                    else if (attr[0] == 'u')
                        tmp.data[i] = (char)toupper((unsigned char)tmp.data[i]);
                }
                const char *d = tmp.data ? tmp.data : "";
                size_t dl = tmp.len;
                if (attr[0] == 's') {
                    while (dl && isspace((unsigned char)*d)) {
                        d++;
                        dl--;
                    }
                    while (dl && isspace((unsigned char)d[dl - 1]))
                        dl--;
                }
                sg_buf_append(out, d, dl);
            }
            sg_res_buf_done(res, &tmp);
            return ok;
        }
        if (nargs == 1 && const__path_identity(cx, scope, fn, attr, alen))
            return sg_const_eval(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        return false;
    }
    if (sg_node_is(fn, sy->identifier)) {
        size_t fl;
        const char *f = sg_node_text(cx->src, fn, &fl);
        if (nargs == 1 && const__path_identity(cx, scope, fn, f, fl))
            return sg_const_eval(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
        if (fl == 3 && !memcmp(f, "chr", 3) && nargs == 1) {
            TSNode a = ts_node_named_child(args, 0);
            if (!sg_node_is(a, sy->integer))
                return false;
            size_t al;
            const char *at = sg_node_text(cx->src, a, &al);
            char num[32];
            if (al >= sizeof num)
                return false;
            memcpy(num, at, al);
            num[al] = 0;
            unsigned long v = strtoul(num, NULL, 0);
            if (v > 0x10ffff)
                return false;
            const__put_utf8(out, v);
            return true;
        }
        if (fl == 3 && !memcmp(f, "str", 3) && nargs == 1)
            return sg_const_eval(cx, scope, ts_node_named_child(args, 0), out, depth + 1);
    }
    return false;
}

bool sg_const_eval(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    if (depth > 48 || --res->budget < 0 || ts_node_is_null(n))
        return false;
    n = sg_node_unparen(n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->string)
        return const__string(cx, n, out, NULL);
    if (s == sy->concatenated_string) {
        sg_children it;
        TSNode part;
        bool ok = true;
        sg_children_init(&it, n);
        while (ok && sg_children_next(&it, &part))
            ok = const__string(cx, part, out, NULL);
        sg_children_end(&it);
        return ok;
    }
    if (s == sy->binary_operator) {
        TSNode op = sg_node_field(n, sy->f_operator);
        size_t ol;
        const char *o = sg_node_text(cx->src, op, &ol);
        if (ol == 1 && *o == '+')
            return sg_const_eval(cx, scope, sg_node_field(n, sy->f_left), out, depth + 1) &&
                   sg_const_eval(cx, scope, sg_node_field(n, sy->f_right), out, depth + 1);
        return false;
    }
    if (s == sy->subscript) {
        /* s[::-1] */
        TSNode sub = sg_node_field(n, sy->f_subscript);
        size_t sl;
        const char *st = sg_node_text(cx->src, sub, &sl);
        char compact[16];
        size_t cl = 0;
        for (size_t i = 0; i < sl && cl < sizeof compact - 1; i++)
            if (!isspace((unsigned char)st[i]))
                compact[cl++] = st[i];
        compact[cl] = 0;
        if (!sg_node_is(sub, sy->slice) || strcmp(compact, "::-1"))
            return false;
        sg_buf tmp;
        sg_buf_init(&tmp, RES_MAX_CONST);
        bool ok = sg_const_eval(cx, scope, sg_node_field(n, sy->f_value), &tmp, depth + 1);
        if (ok) {
            /* reverse by code points */
            size_t i = tmp.len;
            while (i > 0) {
                size_t j = i - 1;
                while (j > 0 && ((unsigned char)tmp.data[j] & 0xc0) == 0x80)
                    j--;
                sg_buf_append(out, tmp.data + j, i - j);
                i = j;
            }
        }
        sg_res_buf_done(res, &tmp);
        return ok;
    }
    if (s == sy->call)
        return const__call(cx, scope, n, out, depth);
    if (s == sy->identifier && scope)
        return const__lookup(cx, scope, n, out, depth);
    return false;
}

const char *sg_const_str(sg_resolver *res, sg_scope *scope, TSNode expr, size_t *ret_len)
{
    sg_res_cx cx = {res, res->cur_src};
    sg_buf b;
    sg_buf_init(&b, RES_MAX_CONST);
    res->budget = RES_BUDGET;
    bool ok = sg_const_eval(&cx, scope, expr, &b, 0);
    const char *r = NULL;
    if (ok && !b.failed && !b.truncated) {
        r = sg_arena_strndup(res->arena, b.data ? b.data : "", b.len);
        if (ret_len)
            *ret_len = b.len;
    }
    sg_res_buf_done(res, &b);
    return r;
}

/* The literal text of an f-string: up to its first interpolation (prefix), or whole with every
 * interpolation replaced by "x" (skeleton; NULL when there is no interpolation). */
static const char *const__fstring(sg_resolver *res, TSNode n, bool skeleton)
{
    const sg_syms *sy = res->sy;
    if (!sg_node_is(n, sy->string))
        return NULL;
    sg_buf b;
    sg_buf_init(&b, RES_MAX_CONST);
    bool raw = false, any = false;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        TSSymbol s = ts_node_symbol(c);
        size_t len;
        const char *t = sg_node_text(res->cur_src, c, &len);
        if (s == sy->string_start) {
            for (size_t k = 0; k < len && t[k] != '\'' && t[k] != '"'; k++)
                raw |= tolower((unsigned char)t[k]) == 'r';
        } else if (s == sy->interpolation) {
            any = true;
            if (!skeleton)
                break;
            sg_buf_append(&b, "x", 1);
        } else if (s == sy->string_content) {
            if (raw)
                sg_buf_append(&b, t, len);
            else
                const__unescape(&b, t, len);
        }
    }
    const char *r = (any || !skeleton) && !b.failed ? sg_arena_strndup(res->arena, b.data ? b.data : "", b.len) : NULL;
    sg_res_buf_done(res, &b);
    return r;
}

const char *sg_fstring_prefix(sg_resolver *res, TSNode n)
{
    return const__fstring(res, n, false);
}

const char *sg_fstring_skeleton(sg_resolver *res, TSNode n)
{
    return const__fstring(res, n, true);
}

bool sg_is_literal(sg_resolver *res, sg_scope *scope, TSNode n)
{
    const sg_syms *sy = res->sy;
    n = sg_node_unparen(n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->integer || s == sy->float_ || s == sy->true_ || s == sy->false_ || s == sy->none)
        return true;
    if (s == sy->unary_operator)
        return sg_is_literal(res, scope, ts_node_named_child(n, 0));
    return sg_const_str(res, scope, n, NULL) != NULL;
}

int sg_literal_truthy(sg_resolver *res, sg_scope *scope, TSNode n)
{
    const sg_syms *sy = res->sy;
    n = sg_node_unparen(n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->true_)
        return 1;
    if (s == sy->false_ || s == sy->none)
        return 0;
    if (s == sy->integer || s == sy->float_) {
        size_t l;
        const char *t = sg_node_text(res->cur_src, n, &l);
        for (size_t i = 0; i < l; i++)
            if (t[i] != '0' && t[i] != '.' && t[i] != '_' && t[i] != 'x' && t[i] != 'X' && t[i] != 'o' &&
                t[i] != 'O' && t[i] != 'b' && t[i] != 'B' && t[i] != 'j' && t[i] != 'J' && t[i] != 'e' && t[i] != 'E')
                return 1;
        return 0;
    }
    if (s == sy->list || s == sy->tuple || s == sy->dictionary || s == sy->set)
        return ts_node_named_child_count(n) > 0;
    size_t len;
    if (sg_const_str(res, scope, n, &len))
        return len > 0;
    return -1;
}

static bool const__lookup(sg_res_cx *cx, sg_scope *scope, TSNode id, sg_buf *out, int depth)
{
    size_t n;
    const char *name = sg_node_text(cx->src, id, &n);
    sg_scope *owner;
    sg_binding *b = sg_scope_find(scope, name, (uint32_t)n, &owner);
    if (!b || b->next || b->kind != RES_ALIAS)
        return false; /* only a name bound exactly once to a constant */
    sg_res_cx inner = {cx->res, b->src};
    return sg_const_eval(&inner, b->scope, b->node, out, depth + 4);
}
