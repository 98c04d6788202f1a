/*
 * Constant evaluation: the value of a constant string expression ("a" "b", "a" + "b",
 * "".join([...]), s[::-1], chr(65), str.lower(), a name bound once to one), Python escapes,
 * f-string prefixes and skeletons, and literal truthiness. Every evaluation carries a depth and
 * a work budget (res->budget).
 */
#include "resolve_int.h"
#include "tswalk.h"

#include <ctype.h>
#include <nettle/base16.h>
#include <nettle/base64.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

void sg_py_unescape(sg_buf *out, const char *s, size_t n)
{
    const__unescape(out, s, n);
}

/* A single string literal appended to out; an f-string only when every interpolation is a constant
 * without conversion or format (f"{'sys'}tem"). */
static bool const__string(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth)
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
            bool ok = sg_node_nnamed(c) == 1 &&
                      sg_const_eval(cx, scope, sg_node_named(c, 0), out, depth + 1);
            if (!ok) {
                sg_children_end(&it);
                return false;
            }
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

/* ------------------------------------------------------------------------------------------ */
/* Calls with a constant value                                                                  */

/* Is the callee `fn` one of `names`? Its last component (`last`) is compared first, so that only a
 * call whose name could match costs a resolution. */
static bool const__callee_in(sg_res_cx *cx, sg_scope *scope, TSNode fn, const char *last, size_t ll,
                             const char *const *names, size_t n)
{
    bool candidate = false;
    for (size_t i = 0; i < n && !candidate; i++) {
        const char *l = strrchr(names[i], '.');
        l = l ? l + 1 : names[i];
        candidate = strlen(l) == ll && !memcmp(l, last, ll);
    }
    if (!candidate)
        return false;
    sg_cands f = {0};
    sg_res_expr(cx, scope, fn, &f, 0);
    for (int k = 0; k < f.n; k++)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(f.q[k], names[i]))
                return true;
    return false;
}

#define CONST__N(a) (sizeof(a) / sizeof((a)[0]))

/* Calls whose value, as far as names and path patterns go, is their argument. */
/* (shutil.which("git") is the program git found on PATH: the argv rules judge the name) */
static const char *const const__identity_calls[] = {"os.path.expanduser", "os.path.expandvars", "os.fspath",
                                                    "os.path.abspath",    "os.path.realpath",   "os.path.normpath",
                                                    "shutil.which"};
/* Path constructors and joins: their arguments joined with "/". */
static const char *const const__path_calls[] = {"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
                                                "pathlib.PurePosixPath", "os.path.join"};
/* The user's home directory, written "~" so that home path patterns ("~/.ssh*") apply. */
static const char *const const__home_calls[] = {"pathlib.Path.home", "pathlib.PurePath.home", "pathlib.PosixPath.home"};
static const char *const const__getenv_calls[] = {"os.getenv", "os.environ.get"};
static const char *const const__hex_calls[] = {"bytes.fromhex", "bytearray.fromhex", "binascii.unhexlify",
                                               "binascii.a2b_hex", "base64.b16decode"};
static const char *const const__b64_calls[] = {"base64.b64decode", "base64.standard_b64decode", "binascii.a2b_base64",
                                               "base64.decodebytes"};
static const char *const const__b64url_calls[] = {"base64.urlsafe_b64decode"};
static const char *const const__b32_calls[] = {"base64.b32decode", "binascii.a2b_base32"};
static const char *const const__b32hex_calls[] = {"base64.b32hexdecode"};
static const char *const const__b85_calls[] = {"base64.b85decode"};
static const char *const const__a85_calls[] = {"base64.a85decode"};
static const char *const const__codecs_calls[] = {"codecs.decode", "codecs.encode"};

/* The positional argument `i` (not a keyword, no splat before it) of an argument list, or null. */
static TSNode const__pos_arg(const sg_syms *sy, TSNode args, uint32_t i)
{
    uint32_t n = sg_node_nnamed(args);
    for (uint32_t k = 0; k <= i && k < n; k++) {
        TSNode a = sg_node_named(args, k);
        if (sg_node_is(a, sy->keyword_argument) || sg_node_is(a, sy->list_splat) ||
            sg_node_is(a, sy->dictionary_splat))
            return (TSNode){0};
        if (k == i)
            return a;
    }
    return (TSNode){0};
}

/* The keyword argument `kw` of an argument list, or null. */
static TSNode const__kw_arg(sg_res_cx *cx, TSNode args, const char *kw)
{
    const sg_syms *sy = cx->res->sy;
    uint32_t n = sg_node_nnamed(args);
    size_t kl = strlen(kw);
    for (uint32_t k = 0; k < n; k++) {
        TSNode a = sg_node_named(args, k);
        if (!sg_node_is(a, sy->keyword_argument))
            continue;
        size_t l;
        const char *t = sg_node_text(cx->src, sg_node_field(a, sy->f_name), &l);
        if (l == kl && !memcmp(t, kw, l))
            return sg_node_field(a, sy->f_value);
    }
    return (TSNode){0};
}

/* The constant value of `n` in a scratch buffer `b` (initialised here; the caller releases it). */
static bool const__tmp(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_buf *b, int depth)
{
    sg_buf_init(b, RES_MAX_CONST);
    return !ts_node_is_null(n) && sg_const_eval(cx, scope, n, b, depth + 1) && !b->failed && !b->truncated;
}

/* The constant text of `n` as a NUL-terminated copy in `dst` (cap bytes), or false. */
static bool const__text(sg_res_cx *cx, sg_scope *scope, TSNode n, char *dst, size_t cap, int depth)
{
    sg_buf b;
    bool ok = const__tmp(cx, scope, n, &b, depth) && b.len < cap && !memchr(b.data ? b.data : "", 0, b.len);
    if (ok) {
        memcpy(dst, b.data ? b.data : "", b.len);
        dst[b.len] = 0;
    }
    sg_res_buf_done(cx->res, &b);
    return ok;
}

/* Append path part `p` to a path in `out` as os.path.join does (an absolute part restarts). */
static void const__path_join(sg_buf *out, const char *p, size_t n)
{
    if (n && p[0] == '/')
        out->len = 0;
    else if (out->len && out->data[out->len - 1] != '/')
        sg_buf_append(out, "/", 1);
    sg_buf_append(out, p, n);
}

/* Path parts (every positional argument) joined onto `out`. */
static bool const__path_args(sg_res_cx *cx, sg_scope *scope, TSNode args, sg_buf *out, int depth)
{
    uint32_t n = sg_node_nnamed(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = const__pos_arg(cx->res->sy, args, i);
        sg_buf b;
        bool ok = const__tmp(cx, scope, a, &b, depth);
        if (ok)
            const__path_join(out, b.data ? b.data : "", b.len);
        sg_res_buf_done(cx->res, &b);
        if (!ok)
            return false;
    }
    return true;
}

/* Decode base16 or base64 text (nettle, the Debian library) into out. */
static bool const__decode(const char *s, size_t n, int kind, sg_buf *out)
{
    uint8_t dst[RES_MAX_CONST];
    size_t dl = 0;
    if (n > RES_MAX_CONST)
        return false;
    if (kind == 16) {
        struct base16_decode_ctx c;
        base16_decode_init(&c);
        if (BASE16_DECODE_LENGTH(n) > sizeof dst || !base16_decode_update(&c, &dl, dst, n, s) || !base16_decode_final(&c))
            return false;
    } else {
        struct base64_decode_ctx c;
        if (kind == 65)
            base64url_decode_init(&c);
        else
            base64_decode_init(&c);
        if (BASE64_DECODE_LENGTH(n) > sizeof dst || !base64_decode_update(&c, &dl, dst, n, s) || !base64_decode_final(&c))
            return false;
    }
    sg_buf_append(out, (const char *)dst, dl);
    return true;
}

/*
 * Base32 (RFC 4648; `hex`: the extended-hex alphabet) and base85 (`a85`: Ascii85 as
 * base64.a85decode's defaults read it, else base64.b85decode's RFC 1924 alphabet), which no
 * library snipgate links decodes (nettle has base16 and base64 only): a few lines each, for
 * folding only (a string the interpreter would refuse may still fold; the gate then reads what
 * the author meant). Padding: '=' for base32, partial final groups for base85.
 */
static bool const__decode_b32(const char *s, size_t n, bool hex, sg_buf *out)
{
    uint64_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int c = toupper((unsigned char)s[i]), v;
        if (c == '=')
            break;
        if (!hex && c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (!hex && c >= '2' && c <= '7')
            v = c - '2' + 26;
        else if (hex && c >= '0' && c <= '9')
            v = c - '0';
        else if (hex && c >= 'A' && c <= 'V')
            v = c - 'A' + 10;
        else
            return false;
        acc = (acc << 5) | (uint64_t)v;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            char byte = (char)((acc >> bits) & 0xff);
            sg_buf_append(out, &byte, 1);
        }
    }
    return true;
}

static bool const__decode_b85(const char *s, size_t n, bool a85, sg_buf *out)
{
    static const char b85[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    uint32_t group[5];
    int have = 0;
    for (size_t i = 0; i <= n; i++) {
        bool end = i == n;
        if (!end) {
            unsigned char c = (unsigned char)s[i];
            if (a85 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'))
                continue;
            if (a85 && c == 'z' && have == 0) {
                sg_buf_append(out, "\0\0\0\0", 4);
                continue;
            }
            int v;
            if (a85) {
                if (c < '!' || c > 'u')
                    return false;
                v = c - '!';
            } else {
                const char *at = c ? memchr(b85, c, sizeof b85 - 1) : NULL;
                if (!at)
                    return false;
                v = (int)(at - b85);
            }
            group[have++] = (uint32_t)v;
            if (have < 5)
                continue;
        }
        if (have == 0)
            break;
        int pad = 5 - have;
        while (have < 5)
            group[have++] = 84;
        uint64_t val = 0;
        for (int k = 0; k < 5; k++)
            val = val * 85 + group[k];
        if (val > 0xffffffffull)
            return false;
        char four[4] = {(char)(val >> 24), (char)(val >> 16), (char)(val >> 8), (char)val};
        sg_buf_append(out, four, (size_t)(4 - pad));
        have = 0;
    }
    return true;
}

/* rot13 of ASCII letters (codecs "rot13"). */
static void const__rot13(char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'z')
            s[i] = (char)('a' + (c - 'a' + 13) % 26);
        else if (c >= 'A' && c <= 'Z')
            s[i] = (char)('A' + (c - 'A' + 13) % 26);
    }
}

/* Byte offsets of the code points of s (at most max); returns their number. */
static size_t const__codepoints(const char *s, size_t n, uint32_t *offs, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < max; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            offs[k++] = (uint32_t)i;
    return k;
}

/* The items of a sequence given to str.join: a list or tuple of constants, a constant string (its
 * characters), reversed(<constant>), map(chr, [ints]). Appends them joined by `sep`. */
static bool const__join_items(sg_res_cx *cx, sg_scope *scope, TSNode seq, const sg_buf *sep, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    seq = sg_node_unparen(seq);
    if (sg_node_is(seq, sy->list) || sg_node_is(seq, sy->tuple)) {
        uint32_t k = sg_node_nnamed(seq);
        bool ok = true;
        for (uint32_t i = 0; i < k && ok; i++) {
            if (i && sep->len)
                sg_buf_append(out, sep->data, sep->len);
            ok = sg_const_eval(cx, scope, sg_node_named(seq, i), out, depth + 1);
        }
        return ok;
    }
    bool reverse = false;
    TSNode src = seq;
    if (sg_node_is(seq, sy->call)) {
        TSNode fn = sg_node_unparen(sg_node_field(seq, sy->f_function)); /* (reversed)(...) too */
        TSNode args = sg_node_field(seq, sy->f_arguments);
        size_t fl;
        const char *f = sg_node_text(cx->src, fn, &fl);
        if (!sg_node_is(fn, sy->identifier) || !sg_node_is(args, sy->argument_list))
            return false;
        if (fl == 8 && !memcmp(f, "reversed", 8) && sg_node_nnamed(args) == 1) {
            reverse = true;
            src = sg_node_named(args, 0);
        } else if (fl == 3 && !memcmp(f, "map", 3) && sg_node_nnamed(args) == 2) {
            TSNode g = sg_node_named(args, 0), l = sg_node_unparen(sg_node_named(args, 1));
            size_t gl;
            const char *gt = sg_node_text(cx->src, g, &gl);
            if (!(gl == 3 && !memcmp(gt, "chr", 3)) || !(sg_node_is(l, sy->list) || sg_node_is(l, sy->tuple)))
                return false;
            uint32_t k = sg_node_nnamed(l);
            for (uint32_t i = 0; i < k; i++) {
                TSNode a = sg_node_named(l, i);
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
                if (i && sep->len)
                    sg_buf_append(out, sep->data, sep->len);
                const__put_utf8(out, v);
            }
            return true;
        } else {
            return false;
        }
    }
    sg_buf tmp;
    bool ok = const__tmp(cx, scope, src, &tmp, depth);
    uint32_t *offs = ok ? malloc((tmp.len + 1) * sizeof *offs) : NULL;
    if (ok && !offs) {
        sg_res_fail(res);
        ok = false;
    }
    if (ok) {
        size_t k = const__codepoints(tmp.data ? tmp.data : "", tmp.len, offs, tmp.len + 1);
        for (size_t j = 0; j < k; j++) {
            size_t i = reverse ? k - 1 - j : j;
            size_t end = i + 1 < k ? offs[i + 1] : tmp.len;
            if (j && sep->len)
                sg_buf_append(out, sep->data, sep->len);
            sg_buf_append(out, tmp.data + offs[i], end - offs[i]);
        }
    }
    free(offs);
    sg_res_buf_done(res, &tmp);
    return ok;
}

/* "{} {name} {0}".format(...) with constant arguments and plain fields only. */
static bool const__format(sg_res_cx *cx, sg_scope *scope, const sg_buf *tpl, TSNode args, sg_buf *out, int depth)
{
    const sg_syms *sy = cx->res->sy;
    const char *t = tpl->data ? tpl->data : "";
    uint32_t next = 0;
    for (size_t i = 0; i < tpl->len; i++) {
        char c = t[i];
        if ((c == '{' || c == '}') && i + 1 < tpl->len && t[i + 1] == c) {
            sg_buf_append(out, &c, 1);
            i++;
            continue;
        }
        if (c == '}')
            return false;
        if (c != '{') {
            sg_buf_append(out, &c, 1);
            continue;
        }
        size_t j = i + 1;
        while (j < tpl->len && t[j] != '}')
            j++;
        if (j >= tpl->len || j - i - 1 > 64)
            return false;
        char field[72];
        memcpy(field, t + i + 1, j - i - 1);
        field[j - i - 1] = 0;
        if (strpbrk(field, ":!.[{"))
            return false;
        TSNode a;
        if (!field[0])
            a = const__pos_arg(sy, args, next++);
        else if (isdigit((unsigned char)field[0]))
            a = const__pos_arg(sy, args, (uint32_t)strtoul(field, NULL, 10));
        else
            a = const__kw_arg(cx, args, field);
        if (ts_node_is_null(a) || !sg_const_eval(cx, scope, a, out, depth + 1))
            return false;
        i = j;
    }
    return true;
}

/* "sys%s" % "tem", "%s%s" % ("sys", "tem"): %s and %% only, constant arguments. */
static bool const__percent(sg_res_cx *cx, sg_scope *scope, const sg_buf *tpl, TSNode right, sg_buf *out, int depth)
{
    const sg_syms *sy = cx->res->sy;
    const char *t = tpl->data ? tpl->data : "";
    right = sg_node_unparen(right);
    bool tuple = sg_node_is(right, sy->tuple);
    uint32_t next = 0, nitems = tuple ? sg_node_nnamed(right) : 1;
    for (size_t i = 0; i < tpl->len; i++) {
        if (t[i] != '%') {
            sg_buf_append(out, t + i, 1);
            continue;
        }
        if (i + 1 >= tpl->len)
            return false;
        char c = t[++i];
        if (c == '%') {
            sg_buf_append(out, "%", 1);
            continue;
        }
        if (c != 's' || next >= nitems)
            return false;
        TSNode a = tuple ? sg_node_named(right, next) : right;
        next++;
        if (!sg_const_eval(cx, scope, a, out, depth + 1))
            return false;
    }
    return next == nitems;
}

/* s.translate(str.maketrans("abc", "xyz"[, "del"])) with ASCII tables. */
static bool const__translate(sg_res_cx *cx, sg_scope *scope, const sg_buf *in, TSNode table, sg_buf *out, int depth)
{
    const sg_syms *sy = cx->res->sy;
    table = sg_node_unparen(table);
    if (!sg_node_is(table, sy->call))
        return false;
    TSNode fn = sg_node_unparen(sg_node_field(table, sy->f_function));
    TSNode args = sg_node_field(table, sy->f_arguments);
    size_t fl;
    const char *f = sg_node_text(cx->src, fn, &fl);
    if (!sg_node_is(args, sy->argument_list) || fl < 9 || memcmp(f + fl - 9, "maketrans", 9))
        return false;
    uint32_t na = sg_node_nnamed(args);
    if (na < 2 || na > 3)
        return false;
    sg_buf from, to, del;
    bool ok = const__tmp(cx, scope, const__pos_arg(sy, args, 0), &from, depth) &&
              const__tmp(cx, scope, const__pos_arg(sy, args, 1), &to, depth) && from.len == to.len;
    sg_buf_init(&del, RES_MAX_CONST);
    if (ok && na == 3)
        ok = sg_const_eval(cx, scope, const__pos_arg(sy, args, 2), &del, depth + 1);
    int map[128];
    for (int i = 0; i < 128; i++)
        map[i] = i;
    for (size_t i = 0; ok && i < from.len; i++) {
        unsigned char a = (unsigned char)from.data[i], b = (unsigned char)to.data[i];
        ok = a < 128 && b < 128;
        if (ok)
            map[a] = b;
    }
    for (size_t i = 0; ok && i < del.len; i++) {
        ok = (unsigned char)del.data[i] < 128;
        if (ok)
            map[(unsigned char)del.data[i]] = -1;
    }
    for (size_t i = 0; ok && i < in->len; i++) {
        unsigned char c = (unsigned char)in->data[i];
        if (c >= 128) {
            sg_buf_append(out, in->data + i, 1);
        } else if (map[c] >= 0) {
            char m = (char)map[c];
            sg_buf_append(out, &m, 1);
        }
    }
    sg_res_buf_done(cx->res, &from);
    sg_res_buf_done(cx->res, &to);
    sg_res_buf_done(cx->res, &del);
    return ok;
}

/* A string method on a constant object: join, lower, upper, strip, casefold, decode/encode (as far
 * as names go, bytes and text are the same), replace, format, translate, the path methods
 * (joinpath, expanduser, resolve, absolute). */
static bool const__method(sg_res_cx *cx, sg_scope *scope, TSNode obj, const char *attr, size_t alen, TSNode args,
                          uint32_t nargs, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
#define CONST__IS(lit) (alen == sizeof lit - 1 && !memcmp(attr, lit, alen))
    bool known = CONST__IS("join") || CONST__IS("lower") || CONST__IS("upper") || CONST__IS("strip") ||
                 CONST__IS("casefold") || CONST__IS("decode") || CONST__IS("encode") || CONST__IS("replace") ||
                 CONST__IS("format") || CONST__IS("translate") || CONST__IS("joinpath") ||
                 CONST__IS("expanduser") || CONST__IS("resolve") || CONST__IS("absolute");
    if (!known)
        return false;
    sg_buf tmp;
    bool ok = const__tmp(cx, scope, obj, &tmp, depth);
    const char *d = tmp.data ? tmp.data : "";
    size_t dl = tmp.len;
    if (!ok) {
    } else if (CONST__IS("join")) {
        ok = nargs == 1 && const__join_items(cx, scope, sg_node_named(args, 0), &tmp, out, depth);
    } else if (CONST__IS("format")) {
        ok = const__format(cx, scope, &tmp, args, out, depth);
    } else if (CONST__IS("translate")) {
        ok = nargs == 1 && const__translate(cx, scope, &tmp, sg_node_named(args, 0), out, depth);
    } else if (CONST__IS("joinpath")) {
        sg_buf_append(out, d, dl);
        ok = const__path_args(cx, scope, args, out, depth);
    } else if (CONST__IS("replace")) {
        sg_buf a, b;
        bool oka = const__tmp(cx, scope, const__pos_arg(res->sy, args, 0), &a, depth);
        bool okb = const__tmp(cx, scope, const__pos_arg(res->sy, args, 1), &b, depth);
        ok = nargs == 2 && oka && okb && a.len;
        for (size_t i = 0; ok && i < dl;) {
            if (dl - i >= a.len && !memcmp(d + i, a.data, a.len)) {
                sg_buf_append(out, b.data ? b.data : "", b.len);
                i += a.len;
            } else {
                sg_buf_append(out, d + i++, 1);
            }
        }
        sg_res_buf_done(res, &a);
        sg_res_buf_done(res, &b);
    } else if (nargs > 1 || (nargs == 1 && (CONST__IS("expanduser") || CONST__IS("resolve") || CONST__IS("absolute")))) {
        ok = false;
    } else {
        for (size_t i = 0; i < dl; i++) {
            if (attr[0] == 'l' || attr[0] == 'c')
                tmp.data[i] = (char)tolower((unsigned char)tmp.data[i]);
            else if (attr[0] == 'u')
                tmp.data[i] = (char)toupper((unsigned char)tmp.data[i]);
        }
        if (CONST__IS("strip")) {
            while (dl && isspace((unsigned char)*d)) {
                d++;
                dl--;
            }
            while (dl && isspace((unsigned char)d[dl - 1]))
                dl--;
        }
        sg_buf_append(out, d, dl);
    }
#undef CONST__IS
    sg_res_buf_done(res, &tmp);
    return ok;
}

static bool const__call(sg_res_cx *cx, sg_scope *scope, TSNode call, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    TSNode fn = sg_node_unparen(sg_node_field(call, sy->f_function));
    TSNode args = sg_node_field(call, sy->f_arguments);
    if (!sg_node_is(args, sy->argument_list))
        return false;
    uint32_t nargs = sg_node_nnamed(args);
    const char *last;
    size_t ll;
    if (sg_node_is(fn, sy->attribute)) {
        TSNode obj = sg_node_unparen(sg_node_field(fn, sy->f_object));
        last = sg_node_text(cx->src, sg_node_field(fn, sy->f_attribute), &ll);
        if (const__method(cx, scope, obj, last, ll, args, nargs, out, depth))
            return true;
    } else if (sg_node_is(fn, sy->identifier)) {
        last = sg_node_text(cx->src, fn, &ll);
        if (ll == 3 && !memcmp(last, "chr", 3) && nargs == 1) {
            TSNode a = sg_node_named(args, 0);
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
        if (((ll == 3 && !memcmp(last, "str", 3)) || (ll == 5 && !memcmp(last, "bytes", 5))) && nargs >= 1 &&
            nargs <= 2)
            return sg_const_eval(cx, scope, sg_node_named(args, 0), out, depth + 1);
    } else {
        return false;
    }
    /* qualified functions: checked by their last component before any resolution */
    if (nargs == 1 && const__callee_in(cx, scope, fn, last, ll, const__identity_calls, CONST__N(const__identity_calls)))
        return sg_const_eval(cx, scope, sg_node_named(args, 0), out, depth + 1);
    if (const__callee_in(cx, scope, fn, last, ll, const__path_calls, CONST__N(const__path_calls))) {
        if (!nargs)
            sg_buf_append(out, ".", 1);
        return const__path_args(cx, scope, args, out, depth);
    }
    if (nargs == 0 && const__callee_in(cx, scope, fn, last, ll, const__home_calls, CONST__N(const__home_calls))) {
        sg_buf_append(out, "~", 1);
        return true;
    }
    if (nargs >= 1 && nargs <= 2 && const__callee_in(cx, scope, fn, last, ll, const__getenv_calls, CONST__N(const__getenv_calls))) {
        char k[8];
        if (const__text(cx, scope, sg_node_named(args, 0), k, sizeof k, depth) && !strcmp(k, "HOME")) {
            sg_buf_append(out, "~", 1);
            return true;
        }
        return false;
    }
    int kind = 0;
    if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__hex_calls, CONST__N(const__hex_calls)))
        kind = 16;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__b64_calls, CONST__N(const__b64_calls)))
        kind = 64;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__b64url_calls, CONST__N(const__b64url_calls)))
        kind = 65;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__b32_calls, CONST__N(const__b32_calls)))
        kind = 32;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__b32hex_calls, CONST__N(const__b32hex_calls)))
        kind = 33;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__b85_calls, CONST__N(const__b85_calls)))
        kind = 85;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__a85_calls, CONST__N(const__a85_calls)))
        kind = 86;
    else if (nargs >= 1 && const__callee_in(cx, scope, fn, last, ll, const__codecs_calls, CONST__N(const__codecs_calls))) {
        TSNode enc = const__pos_arg(sy, args, 1);
        if (ts_node_is_null(enc))
            enc = const__kw_arg(cx, args, "encoding");
        char e[32];
        if (ts_node_is_null(enc) || !const__text(cx, scope, enc, e, sizeof e, depth))
            return false;
        if (!strcasecmp(e, "rot13") || !strcasecmp(e, "rot_13") || !strcasecmp(e, "rot-13")) {
            sg_buf tmp;
            bool ok = const__tmp(cx, scope, const__pos_arg(sy, args, 0), &tmp, depth);
            if (ok) {
                const__rot13(tmp.data, tmp.len);
                sg_buf_append(out, tmp.data ? tmp.data : "", tmp.len);
            }
            sg_res_buf_done(res, &tmp);
            return ok;
        }
        if (last[0] == 'd' && (!strcasecmp(e, "hex") || !strcasecmp(e, "hex_codec") || !strcasecmp(e, "base16")))
            kind = 16;
        else if (last[0] == 'd' && (!strcasecmp(e, "base64") || !strcasecmp(e, "base_64") || !strcasecmp(e, "base64_codec")))
            kind = 64;
        else
            return false;
    }
    if (kind) {
        sg_buf tmp;
        bool ok = const__tmp(cx, scope, const__pos_arg(sy, args, 0), &tmp, depth) && tmp.len <= RES_MAX_CONST;
        const char *in = tmp.data ? tmp.data : "";
        if (ok)
            ok = kind == 32 || kind == 33 ? const__decode_b32(in, tmp.len, kind == 33, out)
                 : kind == 85 || kind == 86 ? const__decode_b85(in, tmp.len, kind == 86, out)
                                            : const__decode(in, tmp.len, kind, out);
        sg_res_buf_done(res, &tmp);
        return ok;
    }
    return false;
}

/* s[i], s[a:b], s[a:b:c] with integer literals, on code points. */
static bool const__slice(sg_res_cx *cx, sg_scope *scope, TSNode n, sg_buf *out, int depth)
{
    const sg_syms *sy = cx->res->sy;
    TSNode sub = sg_node_field(n, sy->f_subscript);
    long v[3] = {0, 0, 1};
    bool given[3] = {false, false, false};
    bool is_slice = sg_node_is(sub, sy->slice);
    if (!is_slice && !sg_node_is(sub, sy->integer) && !sg_node_is(sub, sy->unary_operator))
        return false;
    /* the parts of a slice: integers (or -integers) separated by ':' tokens */
    uint32_t cc = is_slice ? ts_node_child_count(sub) : 1;
    int part = 0;
    for (uint32_t i = 0; i < cc; i++) {
        TSNode c = is_slice ? ts_node_child(sub, i) : sub;
        if (!ts_node_is_named(c)) {
            size_t l;
            const char *t = sg_node_text(cx->src, c, &l);
            if (l == 1 && *t == ':' && ++part > 2)
                return false;
            continue;
        }
        if (sg_node_is(c, sy->comment))
            continue;
        bool neg = false;
        if (sg_node_is(c, sy->unary_operator)) {
            size_t l;
            const char *t = sg_node_text(cx->src, c, &l);
            neg = l && t[0] == '-';
            c = sg_node_named(c, 0);
        }
        if (!sg_node_is(c, sy->integer))
            return false;
        size_t l;
        const char *t = sg_node_text(cx->src, c, &l);
        char num[24];
        if (l >= sizeof num)
            return false;
        memcpy(num, t, l);
        num[l] = 0;
        v[part] = strtol(num, NULL, 0) * (neg ? -1 : 1);
        given[part] = true;
    }
    sg_buf tmp;
    bool ok = const__tmp(cx, scope, sg_node_field(n, sy->f_value), &tmp, depth);
    uint32_t *o = ok ? malloc((tmp.len + 1) * sizeof *o) : NULL;
    if (ok && !o) {
        sg_res_fail(cx->res);
        ok = false;
    }
    if (ok) {
        long len = (long)const__codepoints(tmp.data ? tmp.data : "", tmp.len, o, tmp.len + 1);
#define CONST__AT(i) (tmp.data + o[i]), ((size_t)((i) + 1 < len ? o[(i) + 1] : (uint32_t)tmp.len) - o[i])
        if (!is_slice) {
            long i = v[0] < 0 ? v[0] + len : v[0];
            ok = i >= 0 && i < len;
            if (ok)
                sg_buf_append(out, CONST__AT(i));
        } else {
            long step = given[2] ? v[2] : 1;
            ok = step != 0;
            long lo = step > 0 ? 0 : -1, hi = step > 0 ? len : len - 1;
            long a = given[0] ? (v[0] < 0 ? v[0] + len : v[0]) : (step > 0 ? 0 : len - 1);
            long b = given[1] ? (v[1] < 0 ? v[1] + len : v[1]) : (step > 0 ? len : -1);
            a = a < lo ? lo : a > hi ? hi : a;
            if (given[1])
                b = b < lo ? lo : b > hi ? hi : b;
            for (long i = a; ok && (step > 0 ? i < b : i > b); i += step)
                if (i >= 0 && i < len)
                    sg_buf_append(out, CONST__AT(i));
        }
#undef CONST__AT
    }
    free(o);
    sg_res_buf_done(cx->res, &tmp);
    return ok;
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
        return const__string(cx, scope, n, out, depth);
    if (s == sy->concatenated_string) {
        sg_children it;
        TSNode part;
        bool ok = true;
        sg_children_init(&it, n);
        while (ok && sg_children_next(&it, &part))
            ok = const__string(cx, scope, part, out, depth);
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
        if (ol == 1 && *o == '*') {
            /* "_" * 2, 2 * "_": repetition by an int literal, within the constant size cap */
            TSNode l = sg_node_unparen(sg_node_field(n, sy->f_left)), r = sg_node_unparen(sg_node_field(n, sy->f_right));
            bool lnum = sg_node_is(l, sy->integer), rnum = sg_node_is(r, sy->integer);
            if (lnum == rnum)
                return false;
            size_t nl;
            const char *nt = sg_node_text(cx->src, lnum ? l : r, &nl);
            char num[16];
            if (nl == 0 || nl >= sizeof num)
                return false;
            memcpy(num, nt, nl);
            num[nl] = 0;
            char *endp;
            unsigned long times = strtoul(num, &endp, 0);
            if (*endp || times > RES_MAX_CONST)
                return false;
            sg_buf one;
            bool ok = const__tmp(cx, scope, lnum ? r : l, &one, depth);
            if (ok && one.len * times > RES_MAX_CONST)
                ok = false;
            for (unsigned long k = 0; ok && k < times; k++)
                sg_buf_append(out, one.data ? one.data : "", one.len);
            sg_res_buf_done(res, &one);
            return ok;
        }
        if (ol == 1 && (*o == '%' || *o == '/')) {
            /* "sys%s" % "tem"; Path.home() / ".ssh" / "authorized_keys" */
            sg_buf left;
            bool ok = const__tmp(cx, scope, sg_node_field(n, sy->f_left), &left, depth);
            if (ok && *o == '%') {
                ok = const__percent(cx, scope, &left, sg_node_field(n, sy->f_right), out, depth);
            } else if (ok) {
                sg_buf right;
                ok = const__tmp(cx, scope, sg_node_field(n, sy->f_right), &right, depth);
                if (ok) {
                    sg_buf_append(out, left.data ? left.data : "", left.len);
                    if (right.len && right.data[0] == '/')
                        out->len -= left.len;
                    else if (left.len && left.data[left.len - 1] != '/')
                        sg_buf_append(out, "/", 1);
                    sg_buf_append(out, right.data ? right.data : "", right.len);
                }
                sg_res_buf_done(res, &right);
            }
            sg_res_buf_done(res, &left);
            return ok;
        }
        return false;
    }
    if (s == sy->subscript) {
        /* os.environ["HOME"] is the home directory */
        TSNode v = sg_node_unparen(sg_node_field(n, sy->f_value));
        if (sg_node_is(v, sy->attribute)) {
            size_t al;
            const char *a = sg_node_text(cx->src, sg_node_field(v, sy->f_attribute), &al);
            if (al == 7 && !memcmp(a, "environ", 7)) {
                char k[8];
                sg_cands e = {0};
                if (const__text(cx, scope, sg_node_field(n, sy->f_subscript), k, sizeof k, depth) && !strcmp(k, "HOME"))
                    sg_res_expr(cx, scope, v, &e, 0);
                for (int i = 0; i < e.n; i++)
                    if (!strcmp(e.q[i], "os.environ")) {
                        sg_buf_append(out, "~", 1);
                        return true;
                    }
                return false;
            }
        }
        return const__slice(cx, scope, n, out, depth);
    }
    if (s == sy->attribute) {
        /* sys.executable is a Python interpreter */
        size_t al;
        const char *a = sg_node_text(cx->src, sg_node_field(n, sy->f_attribute), &al);
        if (al == 10 && !memcmp(a, "executable", 10)) {
            sg_cands e = {0};
            sg_res_expr(cx, scope, n, &e, 0);
            for (int i = 0; i < e.n; i++)
                if (!strcmp(e.q[i], "sys.executable")) {
                    sg_buf_append(out, "python3", 7);
                    return true;
                }
        }
        return false;
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
        return sg_is_literal(res, scope, sg_node_named(n, 0));
    return sg_const_str(res, scope, n, NULL) != NULL;
}

/* The binding a name bound exactly once stands for (RES_ALIAS, with its value), or NULL; a scope
 * that star-imports could rebind it, so names there are not followed. */
static sg_binding *const__sole_alias(sg_res_cx *cx, sg_scope *scope, TSNode id, sg_scope **ret_owner)
{
    if (!scope || !sg_node_is(id, cx->res->sy->identifier))
        return NULL;
    size_t n;
    const char *name = sg_res_ident(cx, id, &n);
    sg_scope *owner = NULL;
    sg_binding *b = name ? sg_scope_find(scope, name, (uint32_t)n, &owner) : NULL;
    if (!b || b->next || b->kind != RES_ALIAS || ts_node_is_null(b->node) || !owner || owner->stars.len)
        return NULL;
    if (ret_owner)
        *ret_owner = owner;
    return b;
}

static int const__truthy(sg_res_cx *cx, sg_scope *scope, TSNode n, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    n = sg_node_unparen(n);
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->true_)
        return 1;
    if (s == sy->false_ || s == sy->none)
        return 0;
    if (s == sy->integer || s == sy->float_) {
        size_t l;
        const char *t = sg_node_text(cx->src, n, &l);
        for (size_t i = 0; i < l; i++)
            if (t[i] != '0' && t[i] != '.' && t[i] != '_' && t[i] != 'x' && t[i] != 'X' && t[i] != 'o' &&
                t[i] != 'O' && t[i] != 'b' && t[i] != 'B' && t[i] != 'j' && t[i] != 'J' && t[i] != 'e' && t[i] != 'E')
                return 1;
        return 0;
    }
    if (s == sy->tuple)
        return sg_node_nnamed(n) > 0;
    if (s == sy->list || s == sy->dictionary || s == sy->set) /* (reached by name: may be filled later) */
        return depth ? -1 : sg_node_nnamed(n) > 0;
    if (s == sy->identifier && depth < 8) {
        /* a name bound exactly once: what it was bound to (SHELL = False; shell=SHELL). Writes
         * through globals() or setattr on the module are blocked by their own rule (SG503). */
        sg_binding *b = const__sole_alias(cx, scope, n, NULL);
        if (b && !sg_node_is(b->node, sy->augmented_assignment)) {
            sg_res_cx in = {res, b->src};
            int t = const__truthy(&in, b->scope, b->node, depth + 1);
            if (t >= 0)
                return t;
        }
    }
    sg_buf b;
    sg_buf_init(&b, RES_MAX_CONST);
    res->budget = RES_BUDGET;
    bool ok = sg_const_eval(cx, scope, n, &b, 0) && !b.failed && !b.truncated;
    size_t len = b.len;
    sg_res_buf_done(res, &b);
    return ok ? len > 0 : -1;
}

int sg_literal_truthy(sg_resolver *res, sg_scope *scope, TSNode n)
{
    sg_res_cx cx = {res, res->cur_src};
    return const__truthy(&cx, scope, n, 0);
}

bool sg_mapping_read_only_use(const char *src, TSNode id)
{
    const sg_syms *sy = sg_syms_get();
    TSNode p = ts_node_parent(id);
    if (sg_node_is(p, sy->dictionary_splat))
        return true; /* **name: read */
    if (sg_node_is(p, sy->subscript) && ts_node_eq(sg_node_field(p, sy->f_value), id)) {
        /* name[k] read as a value: not a target (assignment, del, for, unpacking), and nothing
         * is done to the item (name[k].append(...), name[k][j] = ...) */
        TSNode q = ts_node_parent(p);
        TSSymbol qs = ts_node_symbol(q);
        if (qs == sy->assignment || qs == sy->augmented_assignment || qs == sy->for_statement ||
            qs == sy->for_in_clause)
            return !ts_node_eq(sg_node_field(q, sy->f_left), p);
        return qs != sy->delete_statement && qs != sy->expression_list && qs != sy->pattern_list &&
               qs != sy->tuple_pattern && qs != sy->list_pattern && qs != sy->as_pattern && qs != sy->with_item &&
               qs != sy->subscript && qs != sy->attribute && qs != sy->call;
    }
    if (sg_node_is(p, sy->attribute) && ts_node_eq(sg_node_field(p, sy->f_object), id)) {
        /* name.get(...), .items(), .keys(), .values(), .copy(): called, and reading only */
        TSNode q = ts_node_parent(p);
        if (!sg_node_is(q, sy->call) || !ts_node_eq(sg_node_field(q, sy->f_function), p))
            return false;
        TSNode a = sg_node_field(p, sy->f_attribute);
        uint32_t l = ts_node_end_byte(a) - ts_node_start_byte(a);
        const char *t = src + ts_node_start_byte(a);
        static const char *const reads[] = {"get", "items", "keys", "values", "copy"};
        for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
            if (strlen(reads[i]) == l && !memcmp(reads[i], t, l))
                return true;
    }
    return false;
}

/* Is this occurrence of a dict's name one that cannot change the dict (sg_const_dict)? */
static bool const__dict_use_ok(const sg_syms *sy, TSNode id, const sg_binding *b)
{
    TSNode p = ts_node_parent(id);
    if (sg_node_is(p, sy->assignment))
        return ts_node_eq(sg_node_field(p, sy->f_left), id) && ts_node_eq(sg_node_field(p, sy->f_right), b->node);
    return sg_mapping_read_only_use(b->src, id);
}

/* Every occurrence of b's name in `region` is one that cannot change the dict. */
static bool const__dict_unchanged(sg_resolver *res, const sg_binding *b, TSNode region)
{
    const sg_syms *sy = res->sy;
    sg_res_cx cx = {res, b->src};
    if (!sg_resolver_scan(res, 0, ts_node_start_point(b->node)))
        return false; /* (not knowing is "may have changed") */
    sg_walk w;
    sg_walk_init(&w, region);
    bool ok = true;
    unsigned long steps = 0;
    TSNode n;
    unsigned depth;
    while (sg_walk_next(&w, true, &n, &depth)) {
        steps++;
        if (sg_node_is(n, sy->identifier)) {
            size_t l;
            const char *t = sg_res_ident(&cx, n, &l);
            if (!t) {
                ok = false;
                break;
            }
            if (l == b->name_len && !memcmp(t, b->name, l) && !const__dict_use_ok(sy, n, b)) {
                ok = false;
                break;
            }
        }
    }
    sg_walk_end(&w);
    sg_resolver_scan(res, steps, ts_node_start_point(b->node));
    return ok;
}

TSNode sg_const_dict(sg_resolver *res, sg_scope *scope, TSNode expr)
{
    const sg_syms *sy = res->sy;
    sg_res_cx cx = {res, res->cur_src};
    sg_scope *owner = NULL;
    sg_binding *b = const__sole_alias(&cx, scope, sg_node_unparen(expr), &owner);
    if (!b || b->src != res->cur_src)
        return (TSNode){0};
    TSNode v = b->node;
    /* bound by a plain `name = ...` (not a = b = {...} or :=, which leave another name on it) */
    TSNode asg = ts_node_parent(v);
    if (!sg_node_is(asg, sy->assignment) || sg_node_is(ts_node_parent(asg), sy->assignment))
        return (TSNode){0};
    if (!sg_node_is(v, sy->dictionary)) {
        /* dict(k=v, ...): `dict` the builtin */
        TSNode fn = sg_node_field(v, sy->f_function);
        TSNode args = sg_node_field(v, sy->f_arguments);
        size_t fl;
        const char *ft =
            sg_node_is(v, sy->call) && sg_node_is(fn, sy->identifier) ? sg_node_text(b->src, fn, &fl) : NULL;
        if (!ft || fl != 4 || memcmp(ft, "dict", 4) || !sg_node_is(args, sy->argument_list) ||
            sg_scope_find(scope, "dict", 4, NULL))
            return (TSNode){0};
    }
    if (!b->dict_frozen) {
        /* where it can be changed from: its function, or the whole (one-block) document */
        TSNode region = {0};
        if (res->scopes.len && owner == res->scopes.items[0]) {
            if (res->nblocks == 1)
                region = ts_tree_root_node(v.tree);
        } else if (owner->func && !owner->is_class) {
            for (TSNode a = ts_node_parent(v); !ts_node_is_null(a); a = ts_node_parent(a))
                if (sg_node_is(a, sy->function_definition)) {
                    region = a;
                    break;
                }
        }
        b->dict_frozen = !ts_node_is_null(region) && const__dict_unchanged(res, b, region) ? 1 : -1;
    }
    return b->dict_frozen > 0 ? v : (TSNode){0};
}

/* The literal sequence a loop `for name in <it>` walks: a list, tuple or set display of at most
 * RES_MAX_CHOICES items without a splat, or a name bound once to such a tuple. Null otherwise. */
static TSNode const__loop_items(sg_res_cx *cx, const sg_binding *b)
{
    const sg_syms *sy = cx->res->sy;
    TSNode it = sg_node_unparen(sg_node_field(b->node, sy->f_right));
    if (sg_node_is(it, sy->identifier)) {
        sg_binding *t = const__sole_alias(cx, b->scope, it, NULL);
        it = t && t->src == cx->src && sg_node_is(t->node, sy->tuple) ? t->node : (TSNode){0};
    }
    if (!sg_node_is(it, sy->list) && !sg_node_is(it, sy->tuple) && !sg_node_is(it, sy->set))
        return (TSNode){0};
    uint32_t k = sg_node_nnamed(it);
    if (k == 0 || k > RES_MAX_CHOICES)
        return (TSNode){0};
    for (uint32_t i = 0; i < k; i++)
        if (sg_node_is(sg_node_named(it, i), sy->list_splat) || sg_node_is(sg_node_named(it, i), sy->comment))
            return (TSNode){0};
    return it;
}

/* A loop variable (`for name in ("a", "b")`): while sg_const_choices tries the loop's items one
 * at a time, the one being tried; otherwise not a constant, and the loop is noted as the one to
 * try (res->choice_seen). */
static bool const__loop_item(sg_res_cx *cx, sg_binding *b, sg_buf *out, int depth)
{
    sg_resolver *res = cx->res;
    if (!sg_node_is(sg_node_unparen(sg_node_field(b->node, res->sy->f_left)), res->sy->identifier))
        return false;
    TSNode it = const__loop_items(cx, b);
    if (ts_node_is_null(it))
        return false;
    if (res->choice_b == b)
        return sg_const_eval(cx, b->scope, sg_node_named(it, res->choice_i), out, depth + 4);
    if (!res->choice_seen)
        res->choice_seen = b;
    return false;
}

static bool const__lookup(sg_res_cx *cx, sg_scope *scope, TSNode id, sg_buf *out, int depth)
{
    size_t n;
    const char *name = sg_node_text(cx->src, id, &n);
    sg_scope *owner;
    sg_binding *b = sg_scope_find(scope, name, (uint32_t)n, &owner);
    if (!b && n == 8 && !memcmp(name, "__name__", 8)) {
        sg_buf_append(out, "__main__", 8); /* a snippet runs as the main module */
        return true;
    }
    if (!b || b->next || b->kind != RES_ALIAS)
        return false; /* only a name bound exactly once to a constant */
    sg_res_cx inner = {cx->res, b->src};
    const sg_syms *sy = cx->res->sy;
    if (sg_node_is(b->node, sy->for_statement) || sg_node_is(b->node, sy->for_in_clause))
        return const__loop_item(&inner, b, out, depth);
    return sg_const_eval(&inner, b->scope, b->node, out, depth + 4);
}

/* ------------------------------------------------------------------------------------------ */
/* Commands and strings                                                                         */

/* The items of an argv (see sg_const_argv), evaluated in the source and scope of `cx`. */
static int const__argv(sg_res_cx *cx, sg_scope *scope, TSNode n, const char **items, int max, int depth)
{
    sg_resolver *res = cx->res;
    const sg_syms *sy = res->sy;
    n = sg_node_unparen(n);
    if (depth > 8 || ts_node_is_null(n))
        return -1;
    if (sg_node_is(n, sy->identifier) && scope) {
        size_t len;
        const char *name = sg_node_text(cx->src, n, &len);
        sg_scope *owner;
        sg_binding *b = sg_scope_find(scope, name, (uint32_t)len, &owner);
        if (!b || b->next || b->kind != RES_ALIAS)
            return -1;
        sg_res_cx inner = {res, b->src};
        return const__argv(&inner, b->scope, b->node, items, max, depth + 1);
    }
    if (sg_node_is(n, sy->call)) {
        /* "ls -l".split() */
        TSNode fn = sg_node_unparen(sg_node_field(n, sy->f_function));
        TSNode args = sg_node_field(n, sy->f_arguments);
        size_t al;
        if (!sg_node_is(fn, sy->attribute) || !sg_node_is(args, sy->argument_list) || sg_node_nnamed(args))
            return -1;
        const char *a = sg_node_text(cx->src, sg_node_field(fn, sy->f_attribute), &al);
        if (al != 5 || memcmp(a, "split", 5))
            return -1;
        sg_buf b;
        bool ok = const__tmp(cx, scope, sg_node_field(fn, sy->f_object), &b, depth);
        int k = 0;
        const char *d = b.data ? b.data : "";
        for (size_t i = 0; ok && i < b.len && k < max;) {
            while (i < b.len && isspace((unsigned char)d[i]))
                i++;
            size_t j = i;
            while (j < b.len && !isspace((unsigned char)d[j]))
                j++;
            if (j > i)
                items[k++] = sg_arena_strndup(res->arena, d + i, j - i);
            i = j;
        }
        sg_res_buf_done(res, &b);
        return ok ? k : -1;
    }
    if (!sg_node_is(n, sy->list) && !sg_node_is(n, sy->tuple))
        return -1;
    int k = 0;
    sg_children it;
    TSNode c;
    sg_children_init(&it, n);
    while (k < max && sg_children_next(&it, &c)) {
        if (sg_node_is(c, sy->comment))
            continue;
        if (sg_node_is(c, sy->list_splat)) {
            items[k++] = NULL; /* unknown from here on */
            break;
        }
        sg_buf b;
        bool ok = const__tmp(cx, scope, c, &b, depth);
        items[k++] = ok ? sg_arena_strndup(res->arena, b.data ? b.data : "", b.len) : NULL;
        sg_res_buf_done(res, &b);
    }
    sg_children_end(&it);
    return k;
}

int sg_name_values(sg_resolver *res, sg_scope *scope, TSNode name, TSNode *values, int max)
{
    sg_res_cx cx = {res, res->cur_src};
    name = sg_node_unparen(name);
    if (!scope || !sg_node_is(name, res->sy->identifier))
        return 0;
    size_t n;
    const char *t = sg_res_ident(&cx, name, &n);
    sg_scope *owner = NULL;
    int k = 0;
    for (sg_binding *b = t ? sg_scope_find(scope, t, (uint32_t)n, &owner) : NULL; b && k < max; b = b->next)
        if (b->kind == RES_ALIAS && !ts_node_is_null(b->node) && b->src == res->cur_src)
            values[k++] = b->node;
    return k;
}

int sg_const_choices(sg_resolver *res, sg_scope *scope, TSNode expr, const char **items, int max)
{
    if (max < 1)
        return -1;
    res->choice_b = NULL;
    res->choice_seen = NULL;
    const char *one = sg_const_str(res, scope, expr, NULL);
    if (one) {
        items[0] = one;
        return 1;
    }
    sg_binding *b = res->choice_seen;
    res->choice_seen = NULL;
    if (!b)
        return -1;
    sg_res_cx cx = {res, b->src};
    TSNode it = const__loop_items(&cx, b);
    uint32_t k = ts_node_is_null(it) ? 0 : sg_node_nnamed(it);
    if (k == 0 || k > (uint32_t)max)
        return -1;
    int n = 0;
    res->choice_b = b;
    for (uint32_t i = 0; i < k; i++) {
        res->choice_i = i;
        const char *v = sg_const_str(res, scope, expr, NULL);
        if (!v) { /* (another loop, or an item that is not a constant) */
            n = -1;
            break;
        }
        items[n++] = v;
    }
    res->choice_b = NULL;
    res->choice_seen = NULL;
    return n;
}

int sg_const_argv(sg_resolver *res, sg_scope *scope, TSNode expr, const char **items, int max)
{
    sg_res_cx cx = {res, res->cur_src};
    res->budget = RES_BUDGET;
    return const__argv(&cx, scope, expr, items, max, 0);
}

/* Methods and functions that return text. */
static bool const__text_call(const char *t, size_t l)
{
    static const char *const names[] = {"format", "join", "replace", "strip", "lstrip", "rstrip", "lower",
                                        "upper", "decode", "format_map", "read", "input", "str", "repr",
                                        "getvalue", "dedent", "substitute"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == l && !memcmp(names[i], t, l))
            return true;
    return false;
}

static bool const__stringish(sg_res_cx *cx, sg_scope *scope, TSNode n, int depth)
{
    const sg_syms *sy = cx->res->sy;
    n = sg_node_unparen(n);
    if (depth > 8 || ts_node_is_null(n) || --cx->res->budget < 0)
        return false;
    TSSymbol s = ts_node_symbol(n);
    if (s == sy->string || s == sy->concatenated_string)
        return true;
    if (s == sy->binary_operator) {
        size_t ol;
        const char *o = sg_node_text(cx->src, sg_node_field(n, sy->f_operator), &ol);
        if (ol == 1 && *o == '%')
            return const__stringish(cx, scope, sg_node_field(n, sy->f_left), depth + 1);
        return ol == 1 && *o == '+' &&
               (const__stringish(cx, scope, sg_node_field(n, sy->f_left), depth + 1) ||
                const__stringish(cx, scope, sg_node_field(n, sy->f_right), depth + 1));
    }
    if (s == sy->call) {
        TSNode fn = sg_node_unparen(sg_node_field(n, sy->f_function));
        TSNode name = sg_node_is(fn, sy->attribute) ? sg_node_field(fn, sy->f_attribute) : fn;
        size_t l;
        const char *t = sg_node_text(cx->src, name, &l);
        return (sg_node_is(name, sy->identifier)) && const__text_call(t, l);
    }
    if (s == sy->conditional_expression)
        return const__stringish(cx, scope, sg_node_named(n, 0), depth + 1) ||
               const__stringish(cx, scope, sg_node_named(n, 2), depth + 1);
    if (s == sy->identifier && scope) {
        size_t len;
        const char *name = sg_node_text(cx->src, n, &len);
        sg_scope *owner;
        for (sg_binding *b = sg_scope_find(scope, name, (uint32_t)len, &owner); b; b = b->next) {
            if (b->kind != RES_ALIAS)
                continue;
            sg_res_cx inner = {cx->res, b->src};
            if (const__stringish(&inner, b->scope, b->node, depth + 1))
                return true;
        }
    }
    return false;
}

bool sg_is_stringish(sg_resolver *res, sg_scope *scope, TSNode expr)
{
    sg_res_cx cx = {res, res->cur_src};
    res->budget = RES_BUDGET;
    return const__stringish(&cx, scope, expr, 0);
}
