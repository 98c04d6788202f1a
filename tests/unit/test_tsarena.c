/* parsers/tsarena: tree-sitter allocating from a per-thread arena gives the same trees and the same
 * verdicts as the heap; windows nest; a window that outgrows the arena continues on the heap and
 * its trees are deleted as usual (under ASan/LSan: no leak, no bad free); slots come back when
 * threads exit; another allocator switches the arena off; memory a window took back is poisoned
 * under ASan. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parsers/syms.h"
#include "parsers/tsarena.h"
#include <snipgate/snipgate.h>

/* the runtime's current allocator (its alloc.h: linked in from libsnipgate) */
extern void *(*ts_current_malloc)(size_t size);
extern void (*ts_current_free)(void *ptr);

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

typedef struct src {
    char *path, *text;
    size_t len;
} src;

static src *srcs;
static size_t nsrcs;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        *len = (size_t)n;
    }
    return b;
}

static void load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".py") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = slurp(path, &len);
        if (!text)
            continue;
        srcs = realloc(srcs, (nsrcs + 1) * sizeof *srcs);
        assert_non_null(srcs);
        srcs[nsrcs++] = (src){strdup(path), text, len};
    }
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    const char *root = getenv("SNIPGATE_SOURCE_DIR");
    if (!root)
        root = ".";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/cases/block", root);
    load_dir(dir);
    snprintf(dir, sizeof dir, "%s/tests/cases/pass", root);
    load_dir(dir);
    return nsrcs >= 100 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < nsrcs; i++) {
        free(srcs[i].path);
        free(srcs[i].text);
    }
    free(srcs);
    return 0;
}

static TSParser *parser(void)
{
    TSParser *p = ts_parser_new();
    assert_true(ts_parser_set_language(p, sg_python_language()));
    return p;
}

/* The tree as an S-expression, in the C library's memory (ts_node_string allocates through
 * tree-sitter's allocator: in a window, from the arena). */
static char *tree_text(TSTree *t)
{
    char *s = ts_node_string(ts_tree_root_node(t));
    assert_non_null(s);
    char *copy = strdup(s);
    ts_current_free(s);
    assert_non_null(copy);
    return copy;
}

static char *heap_text(const src *s)
{
    assert_false(sg_tsarena_clean()); /* no window open */
    TSParser *p = parser();
    TSTree *t = ts_parser_parse_string(p, NULL, s->text, (uint32_t)s->len);
    char *text = tree_text(t);
    ts_tree_delete(t);
    ts_parser_delete(p);
    return text;
}

static void test_window_parses_as_the_heap(void **state)
{
    (void)state;
    for (size_t i = 0; i < nsrcs; i++) {
        char *want = heap_text(&srcs[i]);
        assert_true(sg_tsarena_begin());
        TSParser *p = parser();
        TSTree *t = ts_parser_parse_string(p, NULL, srcs[i].text, (uint32_t)srcs[i].len);
        char *got = tree_text(t);
        assert_true(sg_tsarena_clean());
        sg_tsarena_end(true); /* no delete: the arena takes the parser and the tree back */
        if (strcmp(want, got) != 0)
            fail_msg("%s: the tree parsed in the arena differs", srcs[i].path);
        free(want);
        free(got);
    }
    size_t hw = sg_tsarena_high_water();
    print_message("%zu files parsed in the arena, at most %zu bytes in one window\n", nsrcs, hw);
    assert_true(hw > 4096);
}

static void test_windows_nest(void **state)
{
    (void)state;
    const src *a = &srcs[0], *b = &srcs[1];
    char *want_a = heap_text(a), *want_b = heap_text(b);
    assert_true(sg_tsarena_begin());
    TSParser *p = parser();
    TSTree *ta = ts_parser_parse_string(p, NULL, a->text, (uint32_t)a->len);
    assert_true(sg_tsarena_begin());
    TSParser *q = parser();
    TSTree *tb = ts_parser_parse_string(q, NULL, b->text, (uint32_t)b->len);
    char *got_b = tree_text(tb);
    sg_tsarena_end(true);
    /* the inner end took nothing back: the outer tree is whole, and new allocations do not
     * overwrite it */
    TSTree *tb2 = ts_parser_parse_string(q, NULL, b->text, (uint32_t)b->len);
    char *got_a = tree_text(ta), *got_b2 = tree_text(tb2);
    sg_tsarena_end(true);
    assert_string_equal(want_a, got_a);
    assert_string_equal(want_b, got_b);
    assert_string_equal(want_b, got_b2);
    free(want_a);
    free(want_b);
    free(got_a);
    free(got_b);
    free(got_b2);
}

static void test_overflow_continues_on_the_heap(void **state)
{
    (void)state;
    const src *big = &srcs[0];
    for (size_t i = 1; i < nsrcs; i++)
        if (srcs[i].len > big->len)
            big = &srcs[i];
    char *want = heap_text(big);
    assert_true(sg_tsarena_limit(8192));
    assert_true(sg_tsarena_begin());
    TSParser *p = parser();
    TSTree *t = ts_parser_parse_string(p, NULL, big->text, (uint32_t)big->len);
    assert_false(sg_tsarena_clean());
    char *got = tree_text(t);
    /* as the checker does when the window is not clean: delete as usual (arena blocks are
     * skipped, heap blocks freed; LeakSanitizer sees a leak or a bad free otherwise) */
    ts_tree_delete(t);
    ts_parser_delete(p);
    sg_tsarena_end(true);
    assert_true(sg_tsarena_limit(0));
    assert_string_equal(want, got);
    free(want);
    free(got);
    /* the next window starts clean */
    assert_true(sg_tsarena_begin());
    assert_true(sg_tsarena_clean());
    sg_tsarena_end(true);
}

static void *thread_window(void *arg)
{
    const src *s = arg;
    bool began = sg_tsarena_begin();
    if (began) {
        TSParser *p = ts_parser_new();
        ts_parser_set_language(p, sg_python_language());
        ts_parser_parse_string(p, NULL, s->text, (uint32_t)s->len);
        began = sg_tsarena_clean();
        sg_tsarena_end(true);
    }
    return began ? (void *)1 : NULL;
}

static void test_slots_come_back(void **state)
{
    (void)state;
    /* more threads, one after the other, than the arena has slots: each gets one */
    for (int i = 0; i < 300; i++) {
        pthread_t t;
        void *ok = NULL;
        assert_int_equal(pthread_create(&t, NULL, thread_window, &srcs[(size_t)i % nsrcs]), 0);
        assert_int_equal(pthread_join(t, &ok), 0);
        if (!ok)
            fail_msg("thread %d had no arena", i);
    }
    /* and two at once have different slots (each parses its own file) */
    pthread_t t1, t2;
    void *ok1, *ok2;
    assert_int_equal(pthread_create(&t1, NULL, thread_window, &srcs[0]), 0);
    assert_int_equal(pthread_create(&t2, NULL, thread_window, &srcs[1]), 0);
    pthread_join(t1, &ok1);
    pthread_join(t2, &ok2);
    assert_non_null(ok1);
    assert_non_null(ok2);
}

static void test_another_allocator_switches_it_off(void **state)
{
    (void)state;
    ts_set_allocator(NULL, NULL, NULL, NULL); /* tree-sitter's defaults */
    bool began = sg_tsarena_begin();
    sg_tsarena_end(began);
    sg_tsarena_install();
    assert_false(began);
    began = sg_tsarena_begin();
    sg_tsarena_end(began);
    assert_true(began);
}

static void test_memory_is_poisoned_after_end(void **state)
{
    (void)state;
#ifdef TEST_ASAN
    assert_true(sg_tsarena_begin());
    char *p = ts_current_malloc(64);
    memset(p, 1, 64);
    assert_false(__asan_address_is_poisoned(p));
    assert_false(__asan_address_is_poisoned(p + 63));
    sg_tsarena_end(true);
    assert_true(__asan_address_is_poisoned(p));
    assert_true(__asan_address_is_poisoned(p + 63));
#else
    print_message("SKIP: not an AddressSanitizer build\n");
    skip();
#endif
}

/* The verdict documents of every case: with the arena (a fresh parser per check) and without it
 * (the checker's own parser, tree-sitter's default allocator) they are the same bytes. */
static char *verdicts(sg_checker *c)
{
    size_t cap = 1 << 20, len = 0;
    char *all = malloc(cap);
    assert_non_null(all);
    for (size_t i = 0; i < nsrcs; i++) {
        sg_report *r = NULL;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_checker_check(c, srcs[i].path, srcs[i].text, srcs[i].len, &r, &d), SG_OK);
        sg_render_opts o = {.no_times = true};
        char *doc = NULL;
        assert_int_equal(sg_render_string(SG_FORMAT_JSON, &r, 1, &o, true, &doc), SG_OK);
        size_t n = strlen(doc);
        while (len + n + 2 > cap) {
            all = realloc(all, cap *= 2);
            assert_non_null(all);
        }
        memcpy(all + len, doc, n);
        len += n;
        all[len++] = '\n';
        all[len] = 0;
        free(doc);
        sg_report_free(r);
    }
    return all;
}

static void test_verdicts_are_the_same(void **state)
{
    (void)state;
    sg_rules *rules;
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    sg_checker *c;
    assert_int_equal(sg_checker_new(rules, NULL, &c), SG_OK);
    char *with = verdicts(c);
    ts_set_allocator(NULL, NULL, NULL, NULL);
    char *without = verdicts(c);
    sg_tsarena_install();
    assert_string_equal(with, without);
    assert_non_null(strstr(with, "\"verdict\":\"block\""));
    free(with);
    free(without);
    sg_checker_free(c);
    sg_rules_free(rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_parses_as_the_heap),
        cmocka_unit_test(test_windows_nest),
        cmocka_unit_test(test_overflow_continues_on_the_heap),
        cmocka_unit_test(test_slots_come_back),
        cmocka_unit_test(test_another_allocator_switches_it_off),
        cmocka_unit_test(test_memory_is_poisoned_after_end),
        cmocka_unit_test(test_verdicts_are_the_same),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
