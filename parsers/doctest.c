/*
 * Doctest examples as code (doctest.h). A docstring is the first statement of a module, class or
 * function body when it is a string literal (or literals joined side by side) without an `f` or
 * `b` prefix. Its value is decoded as Python does (escapes, line continuations), and its examples
 * are found as doctest finds them: a line whose first non-blank characters are `>>>` starts one,
 * the lines right after it that start with `...` continue it; the source is what follows the
 * prompt and one blank.
 */
#include "doctest.h"

#include <stdlib.h>
#include <string.h>

#include "parsers/resolve.h"
#include "parsers/syms.h"

#define DOCTEST_MAX_BLOCKS 100000

/* Names that can give an object a docstring the gate never reads (doctest.h). Compared with
 * whole identifiers (attribute names included). */
static const char *const doctest__dynamic_names[] = {
    "__doc__",      "__test__",    "setattr",      "__setattr__", "wraps",           "update_wrapper",
    "new_class",    "__dict__",    "globals",      "locals",      "vars",            "__code__",
    "__globals__",  "FunctionType", "CodeType",    "LambdaType",  "__build_class__", "__builtins__",
    "builtins",     "__import__",  "import_module", "metaclass",  "__prepare__",     "__init_subclass__",
    "__module__",   "__wrapped__",
};

/* One line of a decoded docstring: where its first byte came from in the block. */
typedef struct doctest__line {
    size_t off;    /* in the decoded text */
    uint32_t row;  /* block row of its first byte */
    uint32_t col;  /* byte column of its first byte */
    bool exact;    /* its bytes are the source's, one for one (no escape on the line) */
} doctest__line;

typedef struct doctest__cx {
    const sg_block *b;
    const size_t *line_starts;
    size_t nlines;
    const sg_syms *sy;
    sg_doctests *out;
    sg_buf dec;
    SG_ARRAY(doctest__line) lines;
    bool nomem;
} doctest__cx;

static bool doctest__new_line(doctest__cx *cx, uint32_t row, uint32_t col, bool exact)
{
    doctest__line l = {cx->dec.len, row, col, exact};
    if (sg_array_push(&cx->lines, l, 0)) {
        cx->nomem = true;
        return false;
    }
    return true;
}

/* The length in bytes of the escape sequence at s[0] == '\\' (n > 1 bytes available). */
static size_t doctest__escape_len(const char *s, size_t n)
{
    char c = s[1];
    size_t k = 2;
    if (c >= '0' && c <= '7') {
        while (k < n && k < 4 && s[k] >= '0' && s[k] <= '7')
            k++;
    } else if (c == 'x' || c == 'u' || c == 'U') {
        size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        while (k < n && k < 2 + digits && s[k] && strchr("0123456789abcdefABCDEF", s[k]))
            k++;
    } else if (c == 'N' && n > 2 && s[2] == '{') {
        const char *e = memchr(s + 2, '}', n - 2);
        if (e && !memchr(s + 2, '\n', (size_t)(e - s - 2)))
            k = (size_t)(e - s) + 1;
    } else if (c == '\r' && n > 2 && s[2] == '\n') {
        k = 3;
    }
    return k;
}

/* Decode one string literal's content into cx->dec (the lines noted). False: not a docstring
 * (an f-string, bytes, an interpolation) or out of memory. */
static bool doctest__decode_string(doctest__cx *cx, TSNode str)
{
    const char *src = cx->b->text;
    bool raw = false;
    uint32_t a = 0, z = ts_node_end_byte(str);
    TSPoint at = ts_node_start_point(str);
    bool have_start = false;
    sg_children it;
    TSNode c;
    sg_children_init(&it, str);
    while (sg_children_next(&it, &c)) {
        TSSymbol s = ts_node_symbol(c);
        if (s == cx->sy->string_start) {
            size_t len;
            const char *t = sg_node_text(src, c, &len);
            for (size_t k = 0; k < len && t[k] != '\'' && t[k] != '"'; k++) {
                char p = t[k] | 0x20;
                if (p == 'f' || p == 'b' || p == 't') {
                    sg_children_end(&it);
                    return false;
                }
                raw |= p == 'r';
            }
            a = ts_node_end_byte(c);
            at = ts_node_end_point(c);
            have_start = true;
        } else if (s == cx->sy->interpolation) {
            sg_children_end(&it);
            return false;
        } else if (s == cx->sy->string_end) {
            z = ts_node_start_byte(c);
        }
    }
    sg_children_end(&it);
    if (!have_start || z < a)
        return false;
    uint32_t row = at.row, col = at.column;
    doctest__line *cur = cx->lines.len ? &cx->lines.items[cx->lines.len - 1] : NULL;
    if (cur && cur->off == cx->dec.len) {
        /* the line starts here: at the content, after the opening quotes */
        cur->row = row;
        cur->col = col;
    } else if (cur) {
        cur->exact = false; /* a line made of two literals' texts */
    }
    for (uint32_t i = a; i < z;) {
        char ch = src[i];
        if (!raw && ch == '\\' && i + 1 < z) {
            size_t k = doctest__escape_len(src + i, z - i);
            size_t before = cx->dec.len;
            sg_py_unescape(&cx->dec, src + i, k);
            if (cur)
                cur->exact = false;
            for (size_t j = 0; j < k; j++) {
                if (src[i + j] == '\n') {
                    row++;
                    col = 0;
                } else {
                    col++;
                }
            }
            /* a newline the escape made starts a line at the source position after it */
            for (size_t j = before; j < cx->dec.len; j++) {
                if (cx->dec.data[j] != '\n')
                    continue;
                doctest__line l = {j + 1, row, col, false};
                if (sg_array_push(&cx->lines, l, 0)) {
                    cx->nomem = true;
                    return false;
                }
                cur = &cx->lines.items[cx->lines.len - 1];
            }
            i += (uint32_t)k;
            continue;
        }
        sg_buf_append(&cx->dec, &ch, 1);
        i++;
        if (ch == '\n') {
            row++;
            col = 0;
            if (!doctest__new_line(cx, row, col, true))
                return false;
            cur = &cx->lines.items[cx->lines.len - 1];
        } else {
            col++;
        }
    }
    if (cx->dec.failed)
        cx->nomem = true;
    return !cx->dec.failed;
}

/* Code points of block row `row` before byte column `col`, plus the block's own shift there. */
static unsigned doctest__col(const doctest__cx *cx, uint32_t row, uint32_t col)
{
    if (row >= cx->nlines || row >= cx->b->nlines)
        return 0;
    size_t start = cx->line_starts[row];
    size_t bytes = col;
    if (start + bytes > cx->b->len)
        bytes = cx->b->len - start;
    return (unsigned)sg_utf8_count(cx->b->text + start, bytes) + cx->b->col_shift[row];
}

static long doctest__doc_line(const doctest__cx *cx, uint32_t row)
{
    const sg_block *b = cx->b;
    if (!b->nlines)
        return 1;
    return row < b->nlines ? b->line_map[row] : b->line_map[b->nlines - 1];
}

typedef struct doctest__out {
    sg_buf text;
    SG_ARRAY(long) map;
    SG_ARRAY(unsigned) shift;
} doctest__out;

/* Append one source line of an example: decoded line `li`, its code starting `skip` bytes in. */
static bool doctest__emit(doctest__cx *cx, doctest__out *o, size_t li, size_t skip, size_t end)
{
    const doctest__line *l = &cx->lines.items[li];
    sg_buf_append(&o->text, cx->dec.data + l->off + skip, end - (l->off + skip));
    sg_buf_append(&o->text, "\n", 1);
    /* a line an escape began or joined maps approximately (to where its source starts) */
    uint32_t col = l->col + (uint32_t)skip;
    if (sg_array_push(&o->map, doctest__doc_line(cx, l->row), 0) ||
        sg_array_push(&o->shift, doctest__col(cx, l->row, col), 0) || o->text.failed) {
        cx->nomem = true;
        return false;
    }
    return true;
}

/* Decoded line `li`: its end, and, when its first non-blank characters are `prompt` (">>>" or
 * "..."), how many bytes come before its source (the prompt and one blank); 0 otherwise. */
static size_t doctest__prompt(const doctest__cx *cx, size_t li, const char *prompt, size_t *ret_end)
{
    const doctest__line *l = &cx->lines.items[li];
    size_t end = li + 1 < cx->lines.len ? cx->lines.items[li + 1].off - 1 : cx->dec.len;
    const char *s = cx->dec.data + l->off;
    size_t len = end - l->off, ws = 0;
    *ret_end = end;
    while (ws < len && (s[ws] == ' ' || s[ws] == '\t'))
        ws++;
    if (len - ws < 3 || memcmp(s + ws, prompt, 3))
        return 0;
    return ws + 3 + (len > ws + 3 && s[ws + 3] == ' ');
}

/* The examples of the decoded docstring (cx->dec, cx->lines) as one block, if it has any. */
static void doctest__examples(doctest__cx *cx, TSNode str)
{
    doctest__out o = {0};
    sg_buf_init(&o.text, 0);
    size_t n = cx->lines.len;
    for (size_t li = 0; li < n;) {
        size_t end, skip = doctest__prompt(cx, li, ">>>", &end);
        if (!skip) {
            li++;
            continue;
        }
        if (!doctest__emit(cx, &o, li, skip, end))
            goto out;
        /* its continuation lines */
        for (li++; li < n && (skip = doctest__prompt(cx, li, "...", &end)); li++)
            if (!doctest__emit(cx, &o, li, skip, end))
                goto out;
    }
    if (!o.map.len)
        goto out;
    sg_block nb = {0};
    nb.len = o.text.len;
    nb.text = o.text.data;
    nb.line_map = o.map.items;
    nb.col_shift = o.shift.items;
    nb.nlines = o.map.len;
    nb.doctest_line = doctest__doc_line(cx, ts_node_start_point(str).row);
    if (sg_array_push(&cx->out->blocks, nb, DOCTEST_MAX_BLOCKS)) {
        cx->nomem = true;
        goto out;
    }
    return; /* the block owns them now */
out:
    sg_buf_free(&o.text);
    sg_array_free(&o.map);
    sg_array_free(&o.shift);
}

/* `body` (a module or a block) starts with a docstring: extract its examples. */
static void doctest__body(doctest__cx *cx, TSNode body)
{
    TSNode first = sg_node_named(body, 0);
    if (ts_node_is_null(first) || ts_node_symbol(first) != cx->sy->expression_statement ||
        sg_node_nnamed(first) != 1)
        return;
    TSNode str = sg_node_named(first, 0);
    TSSymbol s = ts_node_symbol(str);
    if (s != cx->sy->string && s != cx->sy->concatenated_string)
        return;
    sg_buf_free(&cx->dec);
    sg_buf_init(&cx->dec, 0);
    cx->lines.len = 0;
    TSPoint p = ts_node_start_point(str);
    if (!doctest__new_line(cx, p.row, p.column, true))
        return;
    if (s == cx->sy->string) {
        if (!doctest__decode_string(cx, str))
            return;
    } else {
        uint32_t np = sg_node_nnamed(str);
        for (uint32_t i = 0; i < np; i++) {
            TSNode part = sg_node_named(str, i);
            if (ts_node_symbol(part) != cx->sy->string || !doctest__decode_string(cx, part))
                return;
        }
    }
    if (cx->dec.failed) {
        cx->nomem = true;
        return;
    }
    if (cx->dec.len)
        doctest__examples(cx, str);
}

static void doctest__add_name(doctest__cx *cx, void *arr, const char *t, size_t len)
{
    SG_ARRAY(char *) *a = arr;
    for (size_t i = 0; i < a->len; i++)
        if (strlen(a->items[i]) == len && !memcmp(a->items[i], t, len))
            return;
    char *c = sg_strndup_buf(t, len);
    if (!c || sg_array_push(a, c, 0)) {
        free(c);
        cx->nomem = true;
    }
}

/* Is `n` (an identifier) `globals()` handed to doctest.run_docstring_examples? */
static bool doctest__globals_for_runner(doctest__cx *cx, TSNode n)
{
    const sg_syms *sy = cx->sy;
    TSNode call = ts_node_parent(n);
    if (ts_node_is_null(call) || ts_node_symbol(call) != sy->call ||
        sg_node_nnamed(sg_node_field(call, sy->f_arguments)) != 0)
        return false;
    TSNode args = ts_node_parent(call);
    TSNode outer = ts_node_is_null(args) ? args : ts_node_parent(args);
    if (ts_node_is_null(outer) || ts_node_symbol(args) != sy->argument_list || ts_node_symbol(outer) != sy->call)
        return false;
    size_t len;
    const char *t = sg_node_text(cx->b->text, sg_node_field(outer, sy->f_function), &len);
    static const char want[] = "run_docstring_examples";
    return len >= sizeof want - 1 && !memcmp(t + len - (sizeof want - 1), want, sizeof want - 1);
}

static void doctest__note_dynamic(doctest__cx *cx, TSNode n)
{
    const sg_syms *sy = cx->sy;
    TSSymbol s = ts_node_symbol(n);
    size_t len;
    const char *t = sg_node_text(cx->b->text, n, &len);
    if (s == sy->identifier) {
        if (len == 7 && !memcmp(t, "globals", 7) && doctest__globals_for_runner(cx, n))
            return;
        for (size_t i = 0; i < sizeof doctest__dynamic_names / sizeof doctest__dynamic_names[0]; i++) {
            if (strlen(doctest__dynamic_names[i]) == len && !memcmp(doctest__dynamic_names[i], t, len)) {
                cx->out->dynamic = true;
                cx->out->dynamic_why = doctest__dynamic_names[i];
                return;
            }
        }
        /* type(name, bases, namespace) makes a class whose docstring is any value (and so does
         * an alias of type called so); type(x) and isinstance(x, type) are only questions */
        if (len == 4 && !memcmp(t, "type", 4)) {
            /* the uses that make nothing: type(x), isinstance(x, type), issubclass(c, (type, T)),
             * x is type; anything else (an alias, a container, a call with three arguments) may */
            TSNode at = n, parent = ts_node_parent(n);
            while (!ts_node_is_null(parent) && ts_node_symbol(parent) == sy->parenthesized_expression) {
                at = parent;
                parent = ts_node_parent(parent);
            }
            TSSymbol ps = ts_node_is_null(parent) ? 0 : ts_node_symbol(parent);
            bool question = false;
            if (ps == sy->call)
                question = ts_node_eq(sg_node_field(parent, sy->f_function), at) &&
                           sg_node_nnamed(sg_node_field(parent, sy->f_arguments)) == 1;
            else if (ps == sy->comparison_operator)
                question = true;
            else if (ps == sy->argument_list || ps == sy->tuple) {
                TSNode args = ps == sy->tuple ? ts_node_parent(parent) : parent;
                TSNode call = ts_node_is_null(args) ? args : ts_node_parent(args);
                if (!ts_node_is_null(call) && ts_node_symbol(args) == sy->argument_list &&
                    ts_node_symbol(call) == sy->call) {
                    size_t fl;
                    const char *ft = sg_node_text(cx->b->text, sg_node_field(call, sy->f_function), &fl);
                    question = (fl == 10 && !memcmp(ft, "isinstance", 10)) || (fl == 10 && !memcmp(ft, "issubclass", 10));
                }
            }
            if (!question) {
                cx->out->dynamic = true;
                cx->out->dynamic_why = "type";
            }
        }
    } else if (s == sy->string_content) {
        /* a name written as text ("__doc__" in a namespace dict, a getattr/setattr string) */
        static const char *const texts[] = {"__doc__", "__test__"};
        for (size_t i = 0; i < 2; i++) {
            size_t tl = strlen(texts[i]);
            for (size_t k = 0; k + tl <= len; k++) {
                if (!memcmp(t + k, texts[i], tl)) {
                    cx->out->dynamic = true;
                    cx->out->dynamic_why = texts[i];
                    return;
                }
            }
        }
    }
}

sg_status sg_doctest_extract(const sg_block *b, const size_t *line_starts, size_t nlines, TSNode root,
                             sg_doctests *out)
{
    doctest__cx cx = {.b = b, .line_starts = line_starts, .nlines = nlines, .sy = sg_syms_get(), .out = out};
    sg_buf_init(&cx.dec, 0);
    sg_walk w;
    sg_walk_init(&w, root);
    TSNode n;
    unsigned depth;
    while (!cx.nomem && sg_walk_next(&w, true, &n, &depth)) {
        TSSymbol s = ts_node_symbol(n);
        if (s == cx.sy->module) {
            doctest__body(&cx, n);
        } else if (s == cx.sy->function_definition || s == cx.sy->class_definition) {
            TSNode body = sg_node_field(n, cx.sy->f_body);
            if (!ts_node_is_null(body) && ts_node_symbol(body) == cx.sy->block)
                doctest__body(&cx, body);
            TSNode name = sg_node_field(n, cx.sy->f_name);
            size_t len;
            const char *t = ts_node_is_null(name) ? NULL : sg_node_text(b->text, name, &len);
            if (t)
                doctest__add_name(&cx, &out->defined, t, len);
        } else if (s == cx.sy->import_statement || s == cx.sy->import_from_statement ||
                   s == cx.sy->assignment || s == cx.sy->augmented_assignment ||
                   s == cx.sy->named_expression || s == cx.sy->for_statement || s == cx.sy->with_item ||
                   s == cx.sy->global_statement || s == cx.sy->nonlocal_statement) {
            /* every identifier bound here, and a few that are not: an over-approximation */
            TSNode target = s == cx.sy->assignment || s == cx.sy->augmented_assignment
                                ? sg_node_field(n, cx.sy->f_left)
                                : s == cx.sy->named_expression ? sg_node_field(n, cx.sy->f_name)
                                : s == cx.sy->for_statement    ? sg_node_field(n, cx.sy->f_left)
                                                               : n;
            sg_walk iw;
            sg_walk_init(&iw, target);
            TSNode id;
            unsigned d2;
            while (!cx.nomem && sg_walk_next(&iw, true, &id, &d2)) {
                if (ts_node_symbol(id) != cx.sy->identifier)
                    continue;
                size_t len;
                const char *t = sg_node_text(b->text, id, &len);
                doctest__add_name(&cx, &out->rebound, t, len);
            }
            sg_walk_end(&iw);
        }
        if (!out->dynamic && !cx.nomem)
            doctest__note_dynamic(&cx, n);
    }
    sg_walk_end(&w);
    sg_buf_free(&cx.dec);
    sg_array_free(&cx.lines);
    return cx.nomem ? SG_ERR_NOMEM : SG_OK;
}

static bool doctest__in(const void *arr, const char *name, size_t n)
{
    const SG_ARRAY(char *) *a = arr;
    for (size_t i = 0; i < a->len; i++)
        if (strlen(a->items[i]) == n && !memcmp(a->items[i], name, n))
            return true;
    return false;
}

bool sg_doctest_own_name(const sg_doctests *d, const char *name, size_t n)
{
    return doctest__in(&d->defined, name, n) && !doctest__in(&d->rebound, name, n);
}

bool sg_doctest_python3(TSNode root)
{
    const sg_syms *sy = sg_syms_get();
    if (ts_node_has_error(root))
        return false;
    sg_walk w;
    sg_walk_init(&w, root);
    TSNode n;
    unsigned depth;
    bool ok = true;
    while (ok && sg_walk_next(&w, true, &n, &depth))
        ok = ts_node_symbol(n) != sy->print_statement && ts_node_symbol(n) != sy->exec_statement;
    sg_walk_end(&w);
    return ok;
}

void sg_doctests_free(sg_doctests *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->defined.len; i++)
        free(d->defined.items[i]);
    for (size_t i = 0; i < d->rebound.len; i++)
        free(d->rebound.items[i]);
    sg_array_free(&d->defined);
    sg_array_free(&d->rebound);
    for (size_t i = 0; i < d->blocks.len; i++)
        sg_block_free(&d->blocks.items[i]);
    sg_array_free(&d->blocks);
}
