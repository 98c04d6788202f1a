/*
 * libFuzzer harness: Markdown / LLM-answer extraction (parsers/extract.c) on arbitrary bytes, as
 * each input kind (auto with and without a .md name, Python, Markdown). An input is either refused
 * with a located diagnostic (empty, NUL byte, bad UTF-8) or split into blocks whose line maps are
 * consistent with the document: every block line is the document line it maps to, minus the
 * indentation it says was removed. Any crash, leak or sanitizer report is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t fuzz__lines(const char *s, size_t n)
{
    size_t k = 1;
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + n - p))); p++)
        k++;
    return k;
}

static void fuzz__check_block(sg_doc *doc, const sg_block *b)
{
    if (!b->text || b->text[b->len] || strlen(b->text) != b->len || !b->nlines || !b->line_map || !b->col_shift)
        abort();
    if (!doc->markdown) {
        /* the whole document (less a BOM) is the one block, line i at line i + 1 */
        if (b->len != doc->len - doc->skip || memcmp(b->text, doc->src + doc->skip, b->len) ||
            b->nlines != fuzz__lines(b->text, b->len))
            abort();
        for (size_t i = 0; i < b->nlines; i++)
            if (b->line_map[i] != (long)i + 1 || b->col_shift[i])
                abort();
        return;
    }
    /* a fenced body: one "\n"-terminated line per mapped document line, in increasing order */
    const char *p = b->text, *end = b->text + b->len;
    long prev = 0;
    for (size_t i = 0; i < b->nlines; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            abort();
        const char *dl;
        size_t dlen;
        if (b->line_map[i] <= prev || sg_doc_line(doc, b->line_map[i], &dl, &dlen) != SG_OK)
            abort();
        prev = b->line_map[i];
        if (b->col_shift[i] > dlen || (size_t)(nl - p) != dlen - b->col_shift[i] ||
            memcmp(p, dl + b->col_shift[i], (size_t)(nl - p)))
            abort();
        p = nl + 1;
    }
    if (p != end)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        const char *path;
        sg_input_kind kind;
    } runs[] = {{"a.py", SG_INPUT_AUTO}, {"answer.md", SG_INPUT_AUTO}, {NULL, SG_INPUT_PYTHON},
                {NULL, SG_INPUT_MARKDOWN}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        sg_doc doc;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_doc_extract(runs[r].path, (const char *)data, size, runs[r].kind, &doc, &d);
        if (st != SG_OK) {
            /* refused: one of the documented reasons, with a message */
            if ((st != SG_ERR_EMPTY && st != SG_ERR_BINARY && st != SG_ERR_ENCODING) || !d.message[0])
                abort();
            if ((st == SG_ERR_BINARY || st == SG_ERR_ENCODING) && (d.offset < 0 || (size_t)d.offset >= size))
                abort();
            continue;
        }
        if (!doc.blocks.len || (runs[r].kind == SG_INPUT_PYTHON && (doc.markdown || doc.blocks.len != 1)))
            abort();
        for (size_t i = 0; i < doc.blocks.len; i++)
            fuzz__check_block(&doc, &doc.blocks.items[i]);
        /* every document line is reachable, the next one is not */
        const char *dl;
        size_t dlen;
        size_t n = fuzz__lines((const char *)data, size);
        if (sg_doc_line(&doc, (long)n, &dl, &dlen) != SG_OK || sg_doc_line(&doc, (long)n + 1, &dl, &dlen) == SG_OK ||
            sg_doc_line(&doc, 0, &dl, &dlen) == SG_OK)
            abort();
        sg_doc_free(&doc);
    }
    return 0;
}
