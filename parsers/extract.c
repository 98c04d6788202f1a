/* Input validation and Markdown fence extraction with a line map back to the document. */
#include "extract.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

static bool extract__is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

/* A line of the document: [start, start+len) without the newline; next is the next line's start. */
typedef struct {
    const char *start;
    size_t len;
    size_t next;
} extract__line;

static extract__line extract__line_at(const char *s, size_t n, size_t pos)
{
    extract__line l = {s + pos, 0, n};
    const char *nl = memchr(s + pos, '\n', n - pos);
    if (nl) {
        l.len = (size_t)(nl - (s + pos));
        l.next = (size_t)(nl - s) + 1;
    } else {
        l.len = n - pos;
    }
    if (l.len && l.start[l.len - 1] == '\r')
        l.len--;
    return l;
}

/* A fence opener or closer. */
typedef struct extract__fence_info {
    unsigned indent; /* spaces before the fence (0-3) */
    char ch;         /* '`' or '~' */
    size_t count;    /* how many */
    const char *info; /* the info string (language), trimmed */
    size_t info_len;
} extract__fence_info;

/* A fence opener/closer: up to 3 spaces, then >= 3 backticks or tildes. */
static bool extract__fence(extract__line l, extract__fence_info *f)
{
    size_t i = 0;
    while (i < l.len && i < 4 && l.start[i] == ' ')
        i++;
    if (i > 3 || i >= l.len || (l.start[i] != '`' && l.start[i] != '~'))
        return false;
    char ch = l.start[i];
    size_t count = 0;
    while (i + count < l.len && l.start[i + count] == ch)
        count++;
    if (count < 3)
        return false;
    const char *info = l.start + i + count;
    size_t info_len = l.len - i - count;
    while (info_len && isspace((unsigned char)*info)) {
        info++;
        info_len--;
    }
    while (info_len && isspace((unsigned char)info[info_len - 1]))
        info_len--;
    if (ch == '`' && memchr(info, '`', info_len))
        return false;
    *f = (extract__fence_info){.indent = (unsigned)i, .ch = ch, .count = count, .info = info, .info_len = info_len};
    return true;
}

/* 1 python, 0 unlabeled, -1 another language. */
static int extract__lang(const char *info, size_t n)
{
    if (n == 0)
        return 0;
    size_t w = 0;
    while (w < n && !isspace((unsigned char)info[w]) && info[w] != '{' && info[w] != ',')
        w++;
    static const char *const names[] = {"python", "py", "python3", "py3", "pycon", "ipython", "python2", "sage"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == w && !strncasecmp(info, names[i], w))
            return 1;
    if (w == 0)
        return 0;
    return -1;
}

void sg_block_free(sg_block *b)
{
    free(b->text);
    free(b->line_map);
    free(b->col_shift);
}

void sg_doc_free(sg_doc *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->blocks.len; i++)
        sg_block_free(&doc->blocks.items[i]);
    sg_array_free(&doc->blocks);
    free(doc->line_starts);
    doc->line_starts = NULL;
}

static size_t extract__count_lines(const char *s, size_t n)
{
    size_t lines = 1;
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + n - p))); p++)
        lines++;
    return lines;
}

static sg_status extract__whole(sg_doc *doc, const char *path, sg_diag *diag)
{
    const char *s = doc->src + doc->skip;
    size_t n = doc->len - doc->skip;
    sg_block b = {0};
    b.nlines = extract__count_lines(s, n);
    b.text = malloc(n + 1);
    b.line_map = malloc(b.nlines * sizeof *b.line_map);
    b.col_shift = calloc(b.nlines, sizeof *b.col_shift);
    if (!b.text || !b.line_map || !b.col_shift)
        goto out_nomem;
    memcpy(b.text, s, n);
    b.text[n] = 0;
    b.len = n;
    for (size_t i = 0; i < b.nlines; i++)
        b.line_map[i] = (long)i + 1;
    if (sg_array_push(&doc->blocks, b, 0))
        goto out_nomem;
    return SG_OK;
out_nomem:
    sg_block_free(&b);
    return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
}

static sg_status extract__markdown(sg_doc *doc, const char *path, sg_diag *diag)
{
    const char *s = doc->src;
    size_t n = doc->len;
    size_t pos = doc->skip;
    long line = 1;
    while (pos < n) {
        extract__line l = extract__line_at(s, n, pos);
        extract__fence_info open;
        if (!extract__fence(l, &open)) {
            pos = l.next;
            line++;
            continue;
        }
        int lang = extract__lang(open.info, open.info_len);
        /* Collect the body up to the closing fence (or the end of the document). */
        sg_buf text;
        sg_buf_init(&text, 0);
        SG_ARRAY(long) map = {0};
        SG_ARRAY(unsigned) shift = {0};
        size_t p = l.next;
        long ln = line + 1;
        bool ok = true;
        while (p < n) {
            extract__line b = extract__line_at(s, n, p);
            extract__fence_info close;
            if (extract__fence(b, &close) && close.ch == open.ch && close.count >= open.count && close.info_len == 0) {
                p = b.next;
                ln++;
                break;
            }
            unsigned strip = 0;
            while (strip < open.indent && strip < b.len && b.start[strip] == ' ')
                strip++;
            sg_buf_append(&text, b.start + strip, b.len - strip);
            sg_buf_append(&text, "\n", 1);
            if (sg_array_push(&map, ln, 0) || sg_array_push(&shift, strip, 0))
                ok = false;
            p = b.next;
            ln++;
        }
        if (!ok || text.failed) {
            sg_buf_free(&text);
            sg_array_free(&map);
            sg_array_free(&shift);
            return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
        }
        if (lang < 0 || !text.len || extract__is_blank(text.data, text.len)) {
            if (lang < 0)
                doc->skipped_fences++;
            sg_buf_free(&text);
            sg_array_free(&map);
            sg_array_free(&shift);
        } else {
            sg_block b = {.text = text.data, .len = text.len, .line_map = map.items, .col_shift = shift.items,
                          .nlines = map.len, .unlabeled = lang == 0};
            if (sg_array_push(&doc->blocks, b, 0)) {
                sg_block_free(&b);
                return sg_diag_set(diag, SG_ERR_NOMEM, path, 0, 0, -1, 0, "out of memory");
            }
        }
        pos = p;
        line = ln;
    }
    return SG_OK;
}

static bool extract__has_fence(const char *s, size_t n)
{
    size_t pos = 0;
    while (pos < n) {
        extract__line l = extract__line_at(s, n, pos);
        extract__fence_info f;
        if (extract__fence(l, &f))
            return true;
        pos = l.next;
    }
    return false;
}

static bool extract__md_name(const char *path)
{
    if (!path)
        return false;
    const char *dot = strrchr(path, '.');
    return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown") || !strcasecmp(dot, ".mdx") ||
                   !strcasecmp(dot, ".txt"));
}

sg_status sg_doc_extract(const char *path, const char *buf, size_t len, sg_input_kind kind, sg_doc *doc,
                         sg_diag *diag)
{
    memset(doc, 0, sizeof *doc);
    doc->src = buf;
    doc->len = len;
    const char *label = path ? path : "<stdin>";
    if (len == 0)
        return sg_diag_set(diag, SG_ERR_EMPTY, label, 0, 0, 0, 0, "input is empty");
    const char *nul = memchr(buf, 0, len);
    if (nul) {
        long long off = nul - buf;
        long line = (long)extract__count_lines(buf, (size_t)off);
        return sg_diag_set(diag, SG_ERR_BINARY, label, line, 0, off, 0,
                           "input contains a NUL byte at offset %lld (binary file?)", off);
    }
    long long bad = sg_utf8_invalid_offset(buf, len);
    if (bad >= 0) {
        long line = (long)extract__count_lines(buf, (size_t)bad);
        return sg_diag_set(diag, SG_ERR_ENCODING, label, line, 0, bad, 0,
                           "input is not valid UTF-8 (byte 0x%02x at offset %lld)", (unsigned char)buf[bad], bad);
    }
    if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
        doc->skip = 3;
    if (extract__is_blank(buf + doc->skip, len - doc->skip))
        return sg_diag_set(diag, SG_ERR_EMPTY, label, 0, 0, 0, 0, "input holds only white space");

    bool md = kind == SG_INPUT_MARKDOWN ||
              (kind == SG_INPUT_AUTO && (extract__md_name(path) || extract__has_fence(buf, len)));
    doc->markdown = md;
    sg_status st = md ? extract__markdown(doc, label, diag) : extract__whole(doc, label, diag);
    if (st != SG_OK) {
        sg_doc_free(doc);
        return st;
    }
    if (doc->blocks.len == 0) {
        sg_doc_free(doc);
        return sg_diag_set(diag, SG_ERR_EMPTY, label, 0, 0, 0, 0,
                           "no Python code found (no ```python, ```py or unlabeled fenced block)");
    }
    return SG_OK;
}

sg_status sg_doc_line(sg_doc *doc, long line, const char **ret_start, size_t *ret_len)
{
    if (line < 1)
        return SG_ERR_INVALID_ARG;
    if (!doc->line_starts) {
        size_t count = extract__count_lines(doc->src, doc->len);
        doc->line_starts = malloc(count * sizeof *doc->line_starts);
        if (!doc->line_starts)
            return SG_ERR_NOMEM;
        size_t k = 0;
        doc->line_starts[k++] = 0;
        for (const char *p = doc->src; (p = memchr(p, '\n', (size_t)(doc->src + doc->len - p))); p++)
            doc->line_starts[k++] = (size_t)(p - doc->src) + 1;
        doc->nlines = k;
    }
    if ((size_t)line > doc->nlines)
        return SG_ERR_INVALID_ARG;
    extract__line l = extract__line_at(doc->src, doc->len, doc->line_starts[line - 1]);
    *ret_start = l.start;
    *ret_len = l.len;
    return SG_OK;
}
