/* parsers/tswalk: the fast preorder walk yields what tree-sitter's own cursor visits, node for node
 * (the same TSNode values: subtree, position, alias), on hand-made edge cases and on every Python
 * file of the repository and of the machine's standard library. The walk reads tree-sitter's
 * internals; this test is what holds it to the public API when the pinned version changes. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "parsers/syms.h"
#include "parsers/tswalk.h"

typedef struct seen {
    TSNode node;
    unsigned depth;
} seen;

typedef struct seen_list {
    seen *items;
    size_t len, cap;
} seen_list;

static void seen_push(seen_list *l, TSNode n, unsigned depth)
{
    if (l->len == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        assert_non_null(l->items);
    }
    l->items[l->len++] = (seen){n, depth};
}

/* The cursor's preorder of `root`, entering a node's children only while its depth < max_depth. */
static void cursor_walk(TSNode root, unsigned max_depth, seen_list *out)
{
    TSTreeCursor c = ts_tree_cursor_new(root);
    unsigned depth = 0;
    for (;;) {
        seen_push(out, ts_tree_cursor_current_node(&c), depth);
        if (depth < max_depth && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
                done = true;
                break;
            }
            depth--;
        }
        if (done || depth == 0)
            break;
    }
    ts_tree_cursor_delete(&c);
}

static void fast_walk(TSNode root, unsigned max_depth, seen_list *out)
{
    sg_walk w;
    sg_walk_init(&w, root);
    TSNode n;
    unsigned depth;
    bool descend = false;
    while (sg_walk_next(&w, descend, &n, &depth)) {
        seen_push(out, n, depth);
        descend = depth < max_depth;
    }
    sg_walk_end(&w);
}

static void assert_same_node(TSNode a, TSNode b, const char *what, size_t i)
{
    if (!ts_node_eq(a, b) || ts_node_symbol(a) != ts_node_symbol(b) ||
        ts_node_start_byte(a) != ts_node_start_byte(b) || ts_node_end_byte(a) != ts_node_end_byte(b) ||
        ts_node_start_point(a).row != ts_node_start_point(b).row ||
        ts_node_start_point(a).column != ts_node_start_point(b).column ||
        ts_node_end_point(a).row != ts_node_end_point(b).row ||
        ts_node_end_point(a).column != ts_node_end_point(b).column || ts_node_is_named(a) != ts_node_is_named(b) ||
        memcmp(a.context, b.context, sizeof a.context) != 0)
        fail_msg("%s: node %zu differs: %s [%u..%u] vs %s [%u..%u]", what, i, ts_node_type(a),
                 ts_node_start_byte(a), ts_node_end_byte(a), ts_node_type(b), ts_node_start_byte(b),
                 ts_node_end_byte(b));
}

static void assert_same_list(const seen_list *a, const seen_list *b, const char *what)
{
    if (a->len != b->len)
        fail_msg("%s: the cursor visits %zu nodes, the walk %zu", what, a->len, b->len);
    for (size_t i = 0; i < a->len; i++) {
        assert_same_node(a->items[i].node, b->items[i].node, what, i);
        if (a->items[i].depth != b->items[i].depth)
            fail_msg("%s: node %zu (%s) at depth %u vs %u", what, i, ts_node_type(a->items[i].node),
                     a->items[i].depth, b->items[i].depth);
    }
}

/* Every way the static gate walks: whole trees, trees cut at a depth, walks from inner nodes and
 * the children of every node. Returns the number of nodes compared. */
static size_t compare_source(TSParser *p, const char *src, size_t len, const char *what)
{
    TSTree *tree = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
    assert_non_null(tree);
    TSNode root = ts_tree_root_node(tree);
    seen_list a = {0}, b = {0};
    cursor_walk(root, UINT32_MAX, &a);
    fast_walk(root, UINT32_MAX, &b);
    assert_same_list(&a, &b, what);
    size_t total = a.len;
    /* cut at depths 1..3: the subtrees below are skipped the same way */
    for (unsigned cut = 1; cut <= 3; cut++) {
        seen_list c = {0}, d = {0};
        cursor_walk(root, cut, &c);
        fast_walk(root, cut, &d);
        assert_same_list(&c, &d, what);
        free(c.items);
        free(d.items);
    }
    /* from every node: its subtree, and its children alone (sg_children rests on them) */
    for (size_t i = 0; i < a.len; i++) {
        TSNode n = a.items[i].node;
        seen_list c = {0}, d = {0};
        if (i % 7 == 0) { /* whole subtrees from a sample of nodes (all of them is quadratic) */
            cursor_walk(n, UINT32_MAX, &c);
            fast_walk(n, UINT32_MAX, &d);
            assert_same_list(&c, &d, what);
            c.len = d.len = 0;
        }
        cursor_walk(n, 1, &c);
        if (c.len)
            memmove(c.items, c.items + 1, --c.len * sizeof *c.items); /* without n itself */
        sg_walk w;
        sg_walk_init_children(&w, n);
        TSNode kid;
        unsigned depth;
        while (sg_walk_next(&w, false, &kid, &depth))
            seen_push(&d, kid, depth);
        sg_walk_end(&w);
        assert_same_list(&c, &d, what);
        /* named children without extras: sg_node_nnamed / sg_node_named / sg_children (the i-th
         * costs O(i): nodes of thousands of children, such as a module's, are left out) */
        if (c.len > 300) {
            free(c.items);
            free(d.items);
            continue;
        }
        uint32_t k = 0;
        sg_children it;
        TSNode ch;
        sg_children_init(&it, n);
        for (size_t j = 0; j < c.len; j++) {
            if (!ts_node_is_named(c.items[j].node) || ts_node_is_extra(c.items[j].node))
                continue;
            assert_same_node(c.items[j].node, sg_node_named(n, k), what, j);
            assert_true(sg_children_next(&it, &ch));
            assert_same_node(c.items[j].node, ch, what, j);
            k++;
        }
        assert_false(sg_children_next(&it, &ch));
        sg_children_end(&it);
        if (sg_node_nnamed(n) != k)
            fail_msg("%s: %s at %u has %u named children that are not extras, sg_node_nnamed says %u", what,
                     ts_node_type(n), ts_node_start_byte(n), k, sg_node_nnamed(n));
        assert_true(ts_node_is_null(sg_node_named(n, k)));
        free(c.items);
        free(d.items);
    }
    /* the first and last child, computed from the children array, are ts_node_child's */
    for (size_t i = 0; i < a.len; i++) {
        TSNode n = a.items[i].node;
        uint32_t count = ts_node_child_count(n);
        TSNode first = sg_node_first_child(n), last = sg_node_last_child(n);
        if (!count) {
            assert_true(ts_node_is_null(first) && ts_node_is_null(last));
            continue;
        }
        assert_same_node(ts_node_child(n, 0), first, what, i);
        assert_same_node(ts_node_child(n, count - 1), last, what, i);
    }
    /* sg_node_field (fast paths by position, on the walk) agrees with the field map */
    const sg_syms *sy = sg_syms_get();
    const TSFieldId fields[] = {sy->f_function, sy->f_arguments, sy->f_object, sy->f_attribute, sy->f_name,
                                sy->f_key, sy->f_value, sy->f_left, sy->f_right};
    for (size_t i = 0; i < a.len; i++)
        for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
            TSSymbol ns = ts_node_symbol(a.items[i].node);
            if ((ns == sy->keyword_argument && fields[k] == sy->f_key) || (ns == sy->pair && fields[k] == sy->f_name))
                continue; /* by design: sg_node_field answers `name` and `key` alike for both shapes */
            TSNode want = ts_node_child_by_field_id(a.items[i].node, fields[k]);
            TSNode got = sg_node_field(a.items[i].node, fields[k]);
            if (ts_node_is_null(want) != ts_node_is_null(got))
                fail_msg("%s: field %u of %s at %u: %s vs %s", what, fields[k], ts_node_type(a.items[i].node),
                         ts_node_start_byte(a.items[i].node), ts_node_is_null(want) ? "null" : ts_node_type(want),
                         ts_node_is_null(got) ? "null" : ts_node_type(got));
            if (!ts_node_is_null(want))
                assert_same_node(want, got, what, i);
        }
    free(a.items);
    free(b.items);
    ts_tree_delete(tree);
    return total;
}

static TSParser *parser(void)
{
    TSParser *p = ts_parser_new();
    assert_non_null(p);
    assert_true(ts_parser_set_language(p, sg_python_language()));
    return p;
}

static void test_edge_cases(void **state)
{
    (void)state;
    static const char *cases[] = {
        "",
        "\n\n   \n",
        "# only a comment\n",
        "x = 1  # trailing comment\n",
        "def f(a, /, b=2, *args, c: int = 3, **kw) -> None:\n    '''doc'''\n    return a\n",
        "@decorator(1)\nclass C(B, metaclass=M):\n    x: int = 0\n    def m(self): pass\n",
        "print >> sys.stderr, 'x'\nexec 'code'\n", /* Python 2 forms: aliases and errors */
        ("match p:\n    case Point(x=0, y=[1, *rest]) | {'k': v, **kw} as q if q:\n        pass\n"
         "    case _:\n        pass\n"),
        "f'{a!r:>{width}} {b=}' rb'raw' u'x' 'a' 'b'\n",
        "lambda *a, **k: (yield from g()) if a else [i async for i in x if i]\n",
        "async def g():\n    async with a as (b, c):\n        await d\n",
        "x = (1,\n# comment inside\n     2)\n",
        "if x:\npass\n",            /* an indentation error */
        "def (:\n  return ]]]\n", /* ERROR nodes */
        "x = [1, 2\n",            /* a MISSING token */
        "a[1:2, ::3, ...] = b @ c ** -d // e\n",
        "global a, b\nnonlocal c\ndel x, y[0]\nassert x, 'm'\nraise E from F\n",
        "try:\n    pass\nexcept* (A, B) as e:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
        "type Alias[T] = list[T]\ndef f[T: int, *Ts, **P](x: T) -> T: ...\n",
        "\\\nx = 1\n",
        "\xef\xbb\xbfx = 'caf\xc3\xa9'\n",
        "getattr(os, # c\n    \"system\")(\"ls\")\n", /* extras among children: positions skip them */
        "f = \\\n    eval\na, \\\n b = (x, # c\n y)\nimport os as o, sys # c\n",
        "from m import (a, # one\n  b as c, # two\n)\n",
    };
    TSParser *p = parser();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        compare_source(p, cases[i], strlen(cases[i]), what);
    }
    ts_parser_delete(p);
}

/* Nesting far deeper than the walk's inline frames: the frames grow. */
static void test_deep_nesting(void **state)
{
    (void)state;
    TSParser *p = parser();
    size_t n = 300;
    char *src = malloc(4 * n + 16);
    assert_non_null(src);
    size_t k = 0;
    k += (size_t)sprintf(src + k, "x = ");
    for (size_t i = 0; i < n; i++)
        src[k++] = '(';
    src[k++] = '1';
    for (size_t i = 0; i < n; i++)
        src[k++] = ')';
    src[k++] = '\n';
    size_t nodes = compare_source(p, src, k, "300 parentheses");
    assert_true(nodes > 3 * n);
    k = (size_t)sprintf(src, "y = ");
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(src + k, "-");
    k += (size_t)sprintf(src + k, "a.b[c](d)\n");
    compare_source(p, src, k, "300 unary minus");
    free(src);
    ts_parser_delete(p);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            char *b = realloc(buf, cap);
            assert_non_null(b);
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (!r)
            break;
        n += r;
    }
    fclose(f);
    *len = n;
    return buf;
}

static size_t compare_dir(TSParser *p, const char *dir, int depth, size_t *files)
{
    size_t nodes = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "build-deps") || !strncmp(e->d_name, "build", 5) ||
            !strcmp(e->d_name, "site-packages") || !strcmp(e->d_name, "dist-packages"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth > 0) {
            nodes += compare_dir(p, path, depth - 1, files);
            continue;
        }
        size_t nl = strlen(e->d_name);
        if (!S_ISREG(st.st_mode) || nl < 4 || strcmp(e->d_name + nl - 3, ".py") || st.st_size > (1 << 20))
            continue;
        size_t len;
        char *src = slurp(path, &len);
        if (!src)
            continue;
        nodes += compare_source(p, src, len, path);
        free(src);
        (*files)++;
    }
    closedir(d);
    return nodes;
}

static void test_repository_sources(void **state)
{
    (void)state;
    const char *root = getenv("SNIPGATE_SOURCE_DIR");
    if (!root)
        root = ".";
    TSParser *p = parser();
    size_t files = 0;
    size_t nodes = compare_dir(p, root, 6, &files);
    print_message("the walk and the cursor agree on %zu nodes of %zu Python files under %s\n", nodes, files, root);
    assert_true(files >= 20);
    ts_parser_delete(p);
}

static void test_standard_library(void **state)
{
    (void)state;
    const char *dir = "/usr/lib/python3.11";
    struct stat st;
    if (stat(dir, &st) != 0) {
        print_message("SKIP: %s is not on this machine\n", dir);
        skip();
    }
    TSParser *p = parser();
    size_t files = 0;
    size_t nodes = compare_dir(p, dir, 0, &files); /* the top level: ~200 modules */
    print_message("the walk and the cursor agree on %zu nodes of %zu files of %s\n", nodes, files, dir);
    assert_true(files >= 50);
    ts_parser_delete(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_repository_sources),
        cmocka_unit_test(test_standard_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
