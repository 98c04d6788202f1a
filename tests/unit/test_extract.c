/* parsers/extract: input validation and Markdown fence extraction with line maps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "parsers/extract.h"

typedef struct extract_case {
    const char *name;
    const char *input;
    size_t len; /* 0: strlen(input) */
    const char *path;
    sg_input_kind kind;
    sg_status status;
    /* on SG_OK */
    bool markdown;
    size_t nblocks;
    const char *text0;   /* first block's text */
    long first_line0;    /* document line of the first block's first line */
    unsigned shift0;     /* indentation removed from the first block's first line */
    bool unlabeled0;
    const char *text1;   /* second block, if any */
    long first_line1;
    size_t skipped;
    size_t skip;         /* BOM bytes */
    /* on failure */
    long long offset;    /* expected diag.offset (-2: do not check) */
    long line;           /* expected diag.line (-2: do not check) */
} extract_case;

static const extract_case extract_cases[] = {
    {"plain python", "import os\nx = 1\n", 0, "a.py", SG_INPUT_AUTO, SG_OK, false, 1, "import os\nx = 1\n", 1, 0,
     false, NULL, 0, 0, 0, -2, -2},
    {"python fence", "Text\n\n```python\nx = 1\ny = 2\n```\nmore\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true, 1,
     "x = 1\ny = 2\n", 4, 0, false, NULL, 0, 0, 0, -2, -2},
    {"py fence", "```py\nprint(1)\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true, 1, "print(1)\n", 2, 0, false, NULL,
     0, 0, 0, -2, -2},
    {"tilde fence", "intro\n~~~python\na = 1\n~~~\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true, 1, "a = 1\n", 3, 0,
     false, NULL, 0, 0, 0, -2, -2},
    {"unlabeled fence", "x\n```\nb = 2\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true, 1, "b = 2\n", 3, 0, true, NULL,
     0, 0, 0, -2, -2},
    {"indented fence", "1. step\n\n   ```python\n   import os\n     x = 1\n   ```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK,
     true, 1, "import os\n  x = 1\n", 4, 3, false, NULL, 0, 0, 0, -2, -2},
    {"python3 label and attributes", "```Python3 {.numberLines}\nz = 3\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true,
     1, "z = 3\n", 2, 0, false, NULL, 0, 0, 0, -2, -2},
    {"other language skipped", "```bash\nls\n```\n\n```python\nq = 1\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true, 1,
     "q = 1\n", 6, 0, false, NULL, 0, 1, 0, -2, -2},
    {"two blocks", "```python\na = 1\n```\ntext\n```py\nb = 2\nc = 3\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true,
     2, "a = 1\n", 2, 0, false, "b = 2\nc = 3\n", 6, 0, 0, -2, -2},
    {"longer closing fence and CRLF", "````python\r\nx = 1\r\n```\r\ny = 2\r\n````\r\n", 0, "a.md", SG_INPUT_AUTO, SG_OK,
     true, 1, "x = 1\n```\ny = 2\n", 2, 0, false, NULL, 0, 0, 0, -2, -2},
    {"unclosed fence runs to the end", "```python\nimport os\nos.system('x')\n", 0, "a.md", SG_INPUT_AUTO, SG_OK, true,
     1, "import os\nos.system('x')\n", 2, 0, false, NULL, 0, 0, 0, -2, -2},
    {"fences detected without .md name", "Answer:\n```python\nk = 1\n```\n", 0, NULL, SG_INPUT_AUTO, SG_OK, true, 1,
     "k = 1\n", 3, 0, false, NULL, 0, 0, 0, -2, -2},
    {"forced python ignores fences", "```python\nk = 1\n```\n", 0, NULL, SG_INPUT_PYTHON, SG_OK, false, 1,
     "```python\nk = 1\n```\n", 1, 0, false, NULL, 0, 0, 0, -2, -2},
    {"BOM skipped", "\xef\xbb\xbfx = 1\n", 0, "a.py", SG_INPUT_AUTO, SG_OK, false, 1, "x = 1\n", 1, 0, false, NULL, 0,
     0, 3, -2, -2},
    {"empty", "", 0, "a.py", SG_INPUT_AUTO, SG_ERR_EMPTY, false, 0, NULL, 0, 0, false, NULL, 0, 0, 0, -2, -2},
    {"whitespace only", " \n\t\n\r\n", 0, "a.py", SG_INPUT_AUTO, SG_ERR_EMPTY, false, 0, NULL, 0, 0, false, NULL, 0, 0,
     0, -2, -2},
    {"BOM only", "\xef\xbb\xbf", 0, "a.py", SG_INPUT_AUTO, SG_ERR_EMPTY, false, 0, NULL, 0, 0, false, NULL, 0, 0, 0, -2,
     -2},
    {"markdown without python", "# Title\n\n```bash\nls\n```\n", 0, "a.md", SG_INPUT_AUTO, SG_ERR_EMPTY, false, 0,
     NULL, 0, 0, false, NULL, 0, 0, 0, -2, -2},
    {"markdown with an empty python fence", "```python\n\n   \n```\n", 0, "a.md", SG_INPUT_AUTO, SG_ERR_EMPTY, false, 0,
     NULL, 0, 0, false, NULL, 0, 0, 0, -2, -2},
    {"NUL byte", "x = 1\ny = \0\n", 12, "a.py", SG_INPUT_AUTO, SG_ERR_BINARY, false, 0, NULL, 0, 0, false, NULL, 0, 0,
     0, 10, 2},
    {"NUL first", "\0abc", 4, "a.py", SG_INPUT_AUTO, SG_ERR_BINARY, false, 0, NULL, 0, 0, false, NULL, 0, 0, 0, 0, 1},
    {"invalid UTF-8 byte", "ok = 1\nbad = '\xff'\n", 0, "a.py", SG_INPUT_AUTO, SG_ERR_ENCODING, false, 0, NULL, 0, 0,
     false, NULL, 0, 0, 0, 14, 2},
    {"truncated UTF-8 sequence", "s = '\xc3", 0, "a.py", SG_INPUT_AUTO, SG_ERR_ENCODING, false, 0, NULL, 0, 0, false,
     NULL, 0, 0, 0, 5, 1},
    {"overlong encoding", "s = '\xc0\x80'\n", 0, "a.py", SG_INPUT_AUTO, SG_ERR_ENCODING, false, 0, NULL, 0, 0, false,
     NULL, 0, 0, 0, 5, 1},
    {"UTF-16 surrogate", "s = '\xed\xa0\x80'\n", 0, "a.py", SG_INPUT_AUTO, SG_ERR_ENCODING, false, 0, NULL, 0, 0,
     false, NULL, 0, 0, 0, 5, 1},
    {"beyond U+10FFFF", "s = '\xf4\x90\x80\x80'\n", 0, "a.py", SG_INPUT_AUTO, SG_ERR_ENCODING, false, 0, NULL, 0, 0,
     false, NULL, 0, 0, 0, 5, 1},
    {"valid multibyte at the very end", "s = '\xc3\xa9'\n# \xf0\x9f\x98\x80", 0, "a.py", SG_INPUT_AUTO, SG_OK, false, 1,
     "s = '\xc3\xa9'\n# \xf0\x9f\x98\x80", 1, 0, false, NULL, 0, 0, 0, -2, -2},
};

static void test_extract_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof extract_cases / sizeof extract_cases[0]; i++) {
        const extract_case *c = &extract_cases[i];
        size_t len = c->len ? c->len : strlen(c->input);
        sg_doc doc;
        sg_diag d;
        sg_diag_init(&d);
        print_message("case: %s\n", c->name);
        sg_status st = sg_doc_extract(c->path, c->input, len, c->kind, &doc, &d);
        assert_int_equal(st, c->status);
        if (st != SG_OK) {
            assert_int_equal(d.status, c->status);
            assert_true(d.message[0] != 0);
            if (c->offset != -2)
                assert_int_equal(d.offset, c->offset);
            if (c->line != -2)
                assert_int_equal(d.line, c->line);
            continue;
        }
        assert_int_equal(doc.markdown, c->markdown);
        assert_int_equal(doc.blocks.len, c->nblocks);
        assert_int_equal(doc.skipped_fences, c->skipped);
        assert_int_equal(doc.skip, c->skip);
        const sg_block *b = &doc.blocks.items[0];
        assert_string_equal(b->text, c->text0);
        assert_int_equal(b->len, strlen(c->text0));
        assert_true(b->nlines >= 1);
        assert_int_equal(b->line_map[0], c->first_line0);
        assert_int_equal(b->col_shift[0], c->shift0);
        assert_int_equal(b->unlabeled, c->unlabeled0);
        /* Line maps are consecutive inside a block. */
        for (size_t k = 1; k < b->nlines && c->markdown; k++)
            assert_int_equal(b->line_map[k], b->line_map[k - 1] + 1);
        if (c->text1) {
            assert_string_equal(doc.blocks.items[1].text, c->text1);
            assert_int_equal(doc.blocks.items[1].line_map[0], c->first_line1);
        }
        sg_doc_free(&doc);
    }
}

static void test_doc_line(void **state)
{
    (void)state;
    static const char src[] = "first\r\nsecond\n\nfourth";
    sg_doc doc;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_doc_extract("a.py", src, strlen(src), SG_INPUT_PYTHON, &doc, &d), SG_OK);
    static const struct {
        long line;
        bool ok;
        const char *text;
    } rows[] = {{1, true, "first"}, {2, true, "second"}, {3, true, ""}, {4, true, "fourth"}, {0, false, NULL},
                {5, false, NULL},   {-3, false, NULL}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *s = NULL;
        size_t n = 0;
        bool ok = sg_doc_line(&doc, rows[i].line, &s, &n) == SG_OK;
        assert_int_equal(ok, rows[i].ok);
        if (ok) {
            assert_int_equal(n, strlen(rows[i].text));
            assert_memory_equal(s, rows[i].text, n);
        }
    }
    sg_doc_free(&doc);
}

/* The indented-fence line map: every block line maps to its document line and removed indent. */
static void test_indented_line_map(void **state)
{
    (void)state;
    static const char src[] = "- item\n\n  ```python\n  a = 1\n\n  if a:\n      b = 2\n  ```\n";
    sg_doc doc;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_doc_extract("x.md", src, strlen(src), SG_INPUT_AUTO, &doc, &d), SG_OK);
    assert_int_equal(doc.blocks.len, 1);
    const sg_block *b = &doc.blocks.items[0];
    assert_string_equal(b->text, "a = 1\n\nif a:\n    b = 2\n");
    static const long lines[] = {4, 5, 6, 7};
    static const unsigned shifts[] = {2, 0, 2, 2};
    assert_int_equal(b->nlines, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(b->line_map[i], lines[i]);
        assert_int_equal(b->col_shift[i], shifts[i]);
    }
    sg_doc_free(&doc);
}

static void test_doc_free_is_safe(void **state)
{
    (void)state;
    sg_doc_free(NULL);
    sg_doc doc;
    sg_diag d;
    sg_diag_init(&d);
    /* A failed extract leaves a doc that need not (but may) be freed. */
    assert_int_equal(sg_doc_extract("a.py", "", 0, SG_INPUT_AUTO, &doc, &d), SG_ERR_EMPTY);
    sg_doc_free(&doc);
}

/* The strict UTF-8 rule, a byte at a time (what sg_utf8_invalid_offset did before it skipped
 * ASCII eight bytes at a time): the offset of the first invalid sequence, or -1. */
static long long utf8_reference(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i], need, min;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            need = 1, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef)
            need = 2, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4)
            need = 3, min = 0x10000;
        else
            return (long long)i;
        if (n - i <= need)
            return (long long)i;
        unsigned cp = c & (0x3f >> need);
        for (unsigned k = 1; k <= need; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return (long long)i;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return (long long)i;
        i += need + 1;
    }
    return -1;
}

static void test_utf8_invalid_offset(void **state)
{
    (void)state;
    /* fixed cases: an invalid byte after ASCII runs of every length around the 8-byte steps */
    assert_int_equal(sg_utf8_invalid_offset("", 0), -1);
    assert_int_equal(sg_utf8_invalid_offset("abcdefgh\xff", 9), 8);
    assert_int_equal(sg_utf8_invalid_offset("abcdefghijklmnop\xc3\xa9", 18), -1);
    assert_int_equal(sg_utf8_invalid_offset("abcdefghi\xc0\x80", 11), 9);          /* overlong */
    assert_int_equal(sg_utf8_invalid_offset("abcdefghijklmno\xed\xa0\x80", 18), 15); /* surrogate */
    assert_int_equal(sg_utf8_invalid_offset("abcdefgh\xf0\x9f\x98", 11), 8);      /* cut short */
    assert_int_equal(sg_utf8_invalid_offset("abc\0defgh\x80", 10), 9);            /* NUL is ASCII */
    unsigned char buf[64];
    for (size_t len = 1; len <= 40; len++)
        for (size_t at = 0; at < len; at++) {
            memset(buf, 'a', len);
            buf[at] = 0x80;
            assert_int_equal(sg_utf8_invalid_offset((const char *)buf, len), (long long)at);
        }
    /* random text, mostly ASCII with some high bytes, against the byte-at-a-time rule */
    uint32_t x = 12345;
    for (int round = 0; round < 200000; round++) {
        size_t len = 0;
        x = x * 1103515245u + 12345u;
        size_t n = (x >> 16) % sizeof buf;
        for (; len < n; len++) {
            x = x * 1103515245u + 12345u;
            unsigned r = x >> 16;
            buf[len] = (unsigned char)(r % 16 ? 0x20 + r % 0x5f : 0x80 + (r >> 4) % 0x80);
        }
        long long want = utf8_reference(buf, len);
        if (sg_utf8_invalid_offset((const char *)buf, len) != want)
            fail_msg("round %d: %lld, want %lld", round, sg_utf8_invalid_offset((const char *)buf, len), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extract_table),
        cmocka_unit_test(test_doc_line),
        cmocka_unit_test(test_indented_line_map),
        cmocka_unit_test(test_doc_free_is_safe),
        cmocka_unit_test(test_utf8_invalid_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
