/*
 * A task from a file of plain assertions (`snipgate check --tests FILE`): every top-level
 * `assert` is one case of an MBPP-style task, the rest of the file is setup code, and the
 * functions under test are the names the asserts call that the file does not bind itself
 * (snipgate/golden.h, sg_golden_suite_from_asserts).
 */
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "base/util.h"
#include "golden_tasks/golden.h"
#include "golden_tasks/task.h"

const TSLanguage *tree_sitter_python(void);

#define ASSERTS_MAX_CASES 10000u
#define ASSERTS_MAX_NAMES 4096u

/* Python 3.11's builtins: never the candidate's (a candidate that shadows `sorted` must not
 * decide what the expected side of `f(x) == sorted(y)` is). */
/* clang-format off */
static const char *const asserts__builtins[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
    "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
    "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
    "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
    "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
    "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
    "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented", "NotImplementedError",
    "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
    "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit",
    "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
    "ValueError", "Warning", "ZeroDivisionError", "abs", "aiter", "all", "anext", "any", "ascii", "bin",
    "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex",
    "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter",
    "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input",
    "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview",
    "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr",
    "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple",
    "type", "vars", "zip",
};
/* clang-format on */

typedef SG_ARRAY(char *) asserts__names;

typedef struct asserts__ctx {
    const char *name;
    const char *src;
    asserts__names bound;   /* names the file binds at the top level */
    asserts__names targets; /* names the asserts call that are not bound nor builtins */
    sg_diag *diag;
} asserts__ctx;

bool sg_golden_python_builtin(const char *name, size_t len)
{
    for (size_t k = 0; k < sizeof asserts__builtins / sizeof asserts__builtins[0]; k++)
        if (strlen(asserts__builtins[k]) == len && !strncmp(asserts__builtins[k], name, len))
            return true;
    return false;
}

static bool asserts__has(const asserts__names *v, const char *s, size_t n)
{
    for (size_t k = 0; k < v->len; k++)
        if (strlen(v->items[k]) == n && !strncmp(v->items[k], s, n))
            return true;
    return false;
}

static int asserts__add(asserts__names *v, const char *s, size_t n)
{
    if (asserts__has(v, s, n))
        return 0;
    char *d = sg_strndup_buf(s, n);
    if (!d || sg_array_push(v, d, ASSERTS_MAX_NAMES) < 0) {
        free(d);
        return -1;
    }
    return 0;
}

static void asserts__names_free(asserts__names *v)
{
    for (size_t k = 0; k < v->len; k++)
        free(v->items[k]);
    sg_array_free(v);
}

static bool asserts__is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

static int asserts__bind_node(asserts__ctx *c, TSNode n)
{
    return asserts__add(&c->bound, c->src + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

/* Identifiers an assignment target binds (a, (a, b), [a, *b]; not x.attr or x[i]). */
static int asserts__bind_pattern(asserts__ctx *c, TSNode n, int depth)
{
    if (ts_node_is_null(n) || depth > 64)
        return 0;
    if (asserts__is(n, "identifier"))
        return asserts__bind_node(c, n);
    if (asserts__is(n, "attribute") || asserts__is(n, "subscript"))
        return 0;
    for (uint32_t k = 0; k < ts_node_named_child_count(n); k++)
        if (asserts__bind_pattern(c, ts_node_named_child(n, k), depth + 1) < 0)
            return -1;
    return 0;
}

/* The names one top-level statement of the setup binds. */
static int asserts__bind_statement(asserts__ctx *c, TSNode n)
{
    if (asserts__is(n, "decorated_definition"))
        n = ts_node_child_by_field_name(n, "definition", 10);
    if (asserts__is(n, "function_definition") || asserts__is(n, "class_definition"))
        return asserts__bind_node(c, ts_node_child_by_field_name(n, "name", 4));
    if (asserts__is(n, "import_statement") || asserts__is(n, "import_from_statement")) {
        for (uint32_t k = 0; k < ts_node_named_child_count(n); k++) {
            TSNode x = ts_node_named_child(n, k);
            if (asserts__is(n, "import_from_statement") &&
                ts_node_eq(x, ts_node_child_by_field_name(n, "module_name", 11)))
                continue;
            if (asserts__is(x, "aliased_import"))
                x = ts_node_child_by_field_name(x, "alias", 5);
            else if (asserts__is(x, "dotted_name"))
                x = ts_node_named_child(x, 0); /* import a.b binds a */
            if (asserts__is(x, "identifier") && asserts__bind_node(c, x) < 0)
                return -1;
        }
        return 0;
    }
    if (asserts__is(n, "expression_statement")) {
        for (uint32_t k = 0; k < ts_node_named_child_count(n); k++) {
            TSNode x = ts_node_named_child(n, k);
            while (asserts__is(x, "assignment") || asserts__is(x, "augmented_assignment")) {
                if (asserts__bind_pattern(c, ts_node_child_by_field_name(x, "left", 4), 0) < 0)
                    return -1;
                x = ts_node_child_by_field_name(x, "right", 5); /* a = b = f */
            }
        }
        return 0;
    }
    /* for/with/try/if at the top level: whatever their patterns bind */
    if (asserts__is(n, "for_statement"))
        return asserts__bind_pattern(c, ts_node_child_by_field_name(n, "left", 4), 0);
    return 0;
}

/* Functions the assert calls by a plain name that the file does not bind: the candidate's. */
static int asserts__collect_calls(asserts__ctx *c, TSNode n, int depth)
{
    if (depth > 200)
        return 0;
    if (asserts__is(n, "call")) {
        TSNode f = ts_node_child_by_field_name(n, "function", 8);
        if (asserts__is(f, "identifier")) {
            const char *s = c->src + ts_node_start_byte(f);
            size_t len = ts_node_end_byte(f) - ts_node_start_byte(f);
            if (!sg_golden_python_builtin(s, len) && !asserts__has(&c->bound, s, len) && asserts__add(&c->targets, s, len) < 0)
                return -1;
        }
    }
    for (uint32_t k = 0; k < ts_node_named_child_count(n); k++)
        if (asserts__collect_calls(c, ts_node_named_child(n, k), depth + 1) < 0)
            return -1;
    return 0;
}

/* The first ERROR or MISSING node (for the line of a syntax error). */
static TSNode asserts__first_error(TSNode n, int depth)
{
    if (!strcmp(ts_node_type(n), "ERROR") || ts_node_is_missing(n) || depth > 500)
        return n;
    for (uint32_t k = 0; k < ts_node_child_count(n); k++) {
        TSNode ch = ts_node_child(n, k);
        if (ts_node_has_error(ch))
            return asserts__first_error(ch, depth + 1);
    }
    return n;
}

sg_status sg_golden_suite_from_asserts(const char *name, const char *buf, size_t len, sg_golden_suite **ret,
                                       sg_diag *diag)
{
    const char *label = name ? name : "<tests>";
    if (!buf || !ret)
        return sg_diag_set(diag, SG_ERR_INVALID_ARG, label, 0, 0, -1, 0, "sg_golden_suite_from_asserts: NULL argument");
    if (len > SG_GOLDEN_MAX_FILE || len > UINT32_MAX / 2)
        return sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0, "%s: too large", label);
    const char *nul = memchr(buf, 0, len);
    if (nul)
        return sg_diag_set(diag, SG_ERR_BINARY, label, 0, 0, nul - buf, 0, "%s: NUL byte at offset %td", label,
                           nul - buf);
    long long bad = sg_utf8_invalid_offset(buf, len);
    if (bad >= 0)
        return sg_diag_set(diag, SG_ERR_ENCODING, label, 0, 0, bad, 0, "%s: invalid UTF-8 at offset %lld", label, bad);

    char *src = sg_strndup_buf(buf, len);
    TSParser *parser = ts_parser_new();
    TSTree *tree = NULL;
    asserts__ctx c = {.name = label, .src = src, .diag = diag};
    sg_golden_task t;
    memset(&t, 0, sizeof t);
    sg_buf setup;
    sg_buf_init(&setup, SG_GOLDEN_MAX_LINE);
    SG_ARRAY(char *) tests = {0};
    SG_ARRAY(long) lines = {0};
    sg_status st = SG_ERR_NOMEM;
    if (!src || !parser || !ts_parser_set_language(parser, tree_sitter_python()) ||
        !(tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)len)))
        goto out_free;
    TSNode root = ts_tree_root_node(tree);
    if (ts_node_has_error(root)) {
        TSNode e = asserts__first_error(root, 0);
        long line = (long)ts_node_start_point(e).row + 1;
        st = sg_diag_set(diag, SG_ERR_INVALID_ARG, label, line, (long)ts_node_start_point(e).column + 1, -1, 0,
                         "%s:%ld: syntax error", label, line);
        goto out_free;
    }
    /* setup first, so that every name it binds is known before the asserts are read */
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t k = 0; k < n; k++) {
        TSNode s = ts_node_named_child(root, k);
        if (asserts__is(s, "assert_statement") || asserts__is(s, "comment"))
            continue;
        sg_buf_append(&setup, src + ts_node_start_byte(s), ts_node_end_byte(s) - ts_node_start_byte(s));
        sg_buf_puts(&setup, "\n");
        if (asserts__bind_statement(&c, s) < 0)
            goto out_free;
    }
    for (uint32_t k = 0; k < n; k++) {
        TSNode s = ts_node_named_child(root, k);
        if (!asserts__is(s, "assert_statement"))
            continue;
        if (tests.len >= ASSERTS_MAX_CASES) {
            st = sg_diag_set(diag, SG_ERR_TOO_LARGE, label, (long)ts_node_start_point(s).row + 1, 0, -1, 0,
                             "%s:%ld: more than %u asserts", label, (long)ts_node_start_point(s).row + 1,
                             ASSERTS_MAX_CASES);
            goto out_free;
        }
        char *text = sg_strndup_buf(src + ts_node_start_byte(s), ts_node_end_byte(s) - ts_node_start_byte(s));
        if (!text || sg_array_push(&tests, text, 0) < 0) {
            free(text);
            goto out_free;
        }
        if (sg_array_push(&lines, (long)ts_node_start_point(s).row + 1, 0) < 0 ||
            asserts__collect_calls(&c, ts_node_named_child(s, 0), 0) < 0)
            goto out_free;
    }
    if (setup.failed || setup.truncated) {
        st = setup.failed ? SG_ERR_NOMEM
                          : sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0, "%s: setup code too large", label);
        goto out_free;
    }
    if (!tests.len) {
        st = sg_diag_set(diag, SG_ERR_INVALID_ARG, label, 0, 0, -1, 0,
                         "%s: no top-level assert statement (write `assert f(2) == 4` at the top level; asserts "
                         "inside functions are not collected)",
                         label);
        goto out_free;
    }
    if (!c.targets.len) {
        st = sg_diag_set(diag, SG_ERR_INVALID_ARG, label, lines.items[0], 0, -1, 0,
                         "%s:%ld: no assert calls a function of the snippet (the asserts must call functions the "
                         "file does not define or import itself, e.g. `assert f(2) == 4`)",
                         label, lines.items[0]);
        goto out_free;
    }
    /* the setup runs BEFORE the candidate (as MBPP's test_imports do), so that the snippet's own
     * definitions win over a helper of the same name in the tests file */
    t.task_id = strdup(label);
    t.code = strdup("");
    if (setup.len) {
        t.test_imports = calloc(1, sizeof *t.test_imports);
        if (t.test_imports && (t.test_imports[0] = strdup(setup.data)))
            t.ntest_imports = 1;
    }
    if (!t.task_id || !t.code || (setup.len && !t.ntest_imports))
        goto out_free;
    t.format = SG_TASK_MBPP;
    t.line = 0;
    t.compare_python = true;
    t.timeout_s = 2;
    t.fuzz_max_inputs = 300;
    t.eff_doublings = 4;
    t.eff_factor = 20;
    t.eff_slack = 400000;
    t.fuzz_max_seconds = 2;
    t.test_list = tests.items;
    t.ntest_list = tests.len;
    t.test_list_lines = lines.items;
    t.targets = c.targets.items;
    t.ntargets = c.targets.len;
    tests.items = NULL;
    tests.len = 0;
    lines.items = NULL;
    c.targets.items = NULL;
    c.targets.len = 0;
    st = sg_golden_suite_adopt(&t, ret);
    if (st != SG_OK)
        sg_diag_set(diag, st, label, 0, 0, -1, 0, "out of memory");
out_free:
    if (st == SG_ERR_NOMEM && diag && diag->status == SG_OK)
        sg_diag_set(diag, st, label, 0, 0, -1, 0, "out of memory");
    sg_golden_task_clear(&t);
    for (size_t k = 0; k < tests.len; k++)
        free(tests.items[k]);
    sg_array_free(&tests);
    sg_array_free(&lines);
    asserts__names_free(&c.bound);
    asserts__names_free(&c.targets);
    sg_buf_free(&setup);
    if (tree)
        ts_tree_delete(tree);
    if (parser)
        ts_parser_delete(parser);
    free(src);
    return st;
}
