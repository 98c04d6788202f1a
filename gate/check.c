/*
 * The static gate for one document: validate and extract (parsers/extract), parse each block
 * with tree-sitter, bind names across blocks (parsers/resolve), run the rules (rules/engine),
 * then map every hit back to the document's own lines and columns.
 */
#include <ctype.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <strings.h>
#include <tree_sitter/api.h>

#include "parsers/doctest.h"
#include "parsers/extract.h"
#include "parsers/prescan.h"
#include "parsers/resolve.h"
#include "parsers/tsarena.h"
#include "report.h"
#include "rules/engine.h"
#include "rules/pack.h"

struct sg_checker {
    const sg_rules *rules;
    sg_options opts;
    TSParser *parser;
};

static pthread_mutex_t check__freeze_lock = PTHREAD_MUTEX_INITIALIZER;

sg_status sg_checker_new(const sg_rules *rules, const sg_options *opts, sg_checker **ret_checker)
{
    if (!rules || !ret_checker)
        return SG_ERR_INVALID_ARG;
    pthread_mutex_lock(&check__freeze_lock);
    /* The set becomes read-only from here on (documented in snipgate.h). */
    sg_status st = sg_rules_freeze((sg_rules *)rules);
    pthread_mutex_unlock(&check__freeze_lock);
    if (st)
        return st;
    sg_checker *c = calloc(1, sizeof *c);
    if (!c)
        return SG_ERR_NOMEM;
    c->rules = rules;
    if (opts)
        c->opts = *opts;
    else
        sg_options_init(&c->opts);
    if (!c->opts.max_depth)
        c->opts.max_depth = 400;
    c->parser = ts_parser_new();
    if (!c->parser || !ts_parser_set_language(c->parser, sg_python_language())) {
        sg_checker_free(c);
        return SG_ERR_INTERNAL;
    }
    *ret_checker = c;
    return SG_OK;
}

void sg_checker_free(sg_checker *checker)
{
    if (!checker)
        return;
    if (checker->parser)
        ts_parser_delete(checker->parser);
    free(checker);
}

/* why a parse was stopped (check__parse) */
typedef enum { CHECK_CUT_NONE, CHECK_CUT_STEPS, CHECK_CUT_ERROR, CHECK_CUT_CPU } check__cut;

typedef struct check__block {
    sg_block *b;
    TSTree *tree;
    size_t *line_starts; /* byte offset of each block line */
    size_t nlines;
    check__cut cut;    /* the parse was stopped by a limit (no tree) */
    uint32_t error_at; /* with CHECK_CUT_ERROR: where the parse first met the error */
    bool too_deep; /* brackets nested beyond what Python accepts, or bad indentation: not parsed */
    bool indent_error; /* Python would reject the indentation (parsed all the same) */
    const char *prescan_msg;
    TSPoint deep_where;
    size_t seq; /* block number in the resolver */
    bool depth_exceeded;
    TSPoint depth_where;
} check__block;

static size_t *check__line_starts(const char *s, size_t n, size_t *ret_count)
{
    size_t count = 1;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            count++;
    size_t *ls = malloc(count * sizeof *ls);
    if (!ls)
        return NULL;
    size_t k = 0;
    ls[k++] = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            ls[k++] = i + 1;
    *ret_count = count;
    return ls;
}

/* Block point -> document line/column (1-based, columns in code points). */
static void check__map(const sg_checker *c, const check__block *cb, TSPoint p, long *line, long *col)
{
    size_t row = p.row < cb->nlines ? p.row : cb->nlines - 1;
    const sg_block *b = cb->b;
    long doc_line = row < b->nlines ? b->line_map[row] : (b->nlines ? b->line_map[b->nlines - 1] : 1);
    unsigned shift = row < b->nlines ? b->col_shift[row] : 0;
    size_t start = cb->line_starts[row];
    size_t bytes = p.column;
    if (start + bytes > b->len)
        bytes = b->len - start;
    *line = doc_line + c->opts.line_offset;
    *col = (long)(sg_utf8_count(b->text + start, bytes) + shift + 1);
}

/* The first ERROR or MISSING node in document order. */
static TSNode check__first_error(TSNode root)
{
    TSNode n = root;
    for (int guard = 0; guard < 100000; guard++) {
        TSTreeCursor cur = ts_tree_cursor_new(n);
        bool descended = false;
        if (ts_tree_cursor_goto_first_child(&cur)) {
            do {
                TSNode ch = ts_tree_cursor_current_node(&cur);
                if (ts_node_is_missing(ch) || ts_node_symbol(ch) == (TSSymbol)-1) {
                    ts_tree_cursor_delete(&cur);
                    return ch;
                }
                if (ts_node_has_error(ch)) {
                    n = ch;
                    descended = true;
                    break;
                }
            } while (ts_tree_cursor_goto_next_sibling(&cur));
        }
        ts_tree_cursor_delete(&cur);
        if (!descended)
            return n;
    }
    return n;
}

static const sg_rule *check__builtin(const sg_checker *c, sg_builtin which)
{
    return sg_rules_builtin(c->rules, which);
}

/* Record a hit as a finding. Past the cap on findings the hit is dropped and the report marked
 * truncated (which blocks: see check__truncated), unless `over_cap` (the truncation finding). */
static sg_status check__add_ex(sg_checker *c, sg_report *rep, sg_doc *doc, const check__block *cb, const sg_hit *h,
                               bool over_cap)
{
    sg_finding f = {0};
    const sg_rule *r = h->rule;
    check__map(c, cb, h->start, &f.line, &f.column);
    check__map(c, cb, h->end, &f.end_line, &f.end_column);
    if (f.end_line < f.line || (f.end_line == f.line && f.end_column < f.column)) {
        f.end_line = f.line;
        f.end_column = f.column;
    }
    sg_arena *a = rep->arena;
    f.rule_id = sg_arena_strdup(a, r->info.id);
    f.name = sg_arena_strdup(a, r->info.name);
    f.severity = r->info.severity;
    f.confidence = sg_arena_strdup(a, h->confidence ? h->confidence : r->info.confidence);
    f.cwe = r->info.cwe;
    if (cb->b->doctest_line > 0)
        f.message = sg_arena_printf(a, "%s (in a doctest example of the docstring at line %ld: doctest runs it)",
                                    h->message ? h->message : r->info.message,
                                    cb->b->doctest_line + c->opts.line_offset);
    else
        f.message = sg_arena_strdup(a, h->message ? h->message : r->info.message);
    f.fix = sg_arena_strdup(a, r->info.fix ? r->info.fix : "");
    const char *ls;
    size_t ll;
    long doc_line = f.line - c->opts.line_offset;
    sg_status lst = sg_doc_line(doc, doc_line, &ls, &ll);
    if (lst == SG_ERR_NOMEM)
        return lst;
    if (lst == SG_OK) {
        if (ll > 400) {
            ll = 400;
            while (ll > 0 && ((unsigned char)ls[ll] & 0xc0) == 0x80)
                ll--;
        }
        f.snippet = sg_arena_strndup(a, ls, ll);
    } else {
        f.snippet = sg_arena_strdup(a, "");
    }
    if (!f.rule_id || !f.name || !f.confidence || !f.message || !f.fix || !f.snippet)
        return SG_ERR_NOMEM;
    f.blocking = f.severity >= c->opts.fail_on;
    if (rep->findings.len >= SG_ENGINE_MAX_HITS * 2 && !over_cap) {
        /* the cap on findings per document: the report says it is truncated */
        rep->truncated = true;
        return SG_OK;
    }
    /* Anything else is out of memory: a finding would be lost, so the check fails. */
    if (sg_array_push(&rep->findings, f, 0))
        return SG_ERR_NOMEM;
    return SG_OK;
}

static sg_status check__add(sg_checker *c, sg_report *rep, sg_doc *doc, const check__block *cb, const sg_hit *h)
{
    return check__add_ex(c, rep, doc, cb, h, false);
}

/* Findings were dropped past a cap: any of them could have been the one that blocks (10,000 low
 * findings, then eval()), so a truncated report blocks with SG002 where the cut happened. */
static sg_status check__truncated(sg_checker *c, sg_report *rep, sg_doc *doc, const check__block *cb)
{
    const sg_rule *lim = check__builtin(c, SG_BUILTIN_LIMIT);
    sg_hit h = {lim, {0, 0}, {0, 0},
                sg_arena_printf(rep->arena, "%s: more than %d findings in one block or %d in the document; the "
                                            "rest were not recorded, so the snippet cannot be passed (a fixed "
                                            "limit: no option raises it)",
                                lim->info.message, SG_ENGINE_MAX_HITS, SG_ENGINE_MAX_HITS * 2),
                NULL};
    return check__add_ex(c, rep, doc, cb, &h, true);
}

static int check__cmp(const void *pa, const void *pb)
{
    const sg_finding *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->column != b->column)
        return a->column < b->column ? -1 : 1;
    return strcmp(a->rule_id, b->rule_id);
}

static void check__sort_dedupe(sg_report *rep)
{
    if (!rep->findings.len)
        return;
    qsort(rep->findings.items, rep->findings.len, sizeof *rep->findings.items, check__cmp);
    size_t w = 1;
    for (size_t i = 1; i < rep->findings.len; i++) {
        sg_finding *p = &rep->findings.items[w - 1], *f = &rep->findings.items[i];
        if (p->line == f->line && p->column == f->column && !strcmp(p->rule_id, f->rule_id))
            continue;
        rep->findings.items[w++] = *f;
    }
    rep->findings.len = w;
}

/* Does the comment text name `rule` as a whole word (SG201, not SG2011)? */
static bool check__names_rule(const char *t, size_t n, const char *rule)
{
    size_t rl = strlen(rule);
    for (size_t i = 0; rl && i + rl <= n; i++) {
        if (strncmp(t + i, rule, rl))
            continue;
        bool before = i == 0 || !(isalnum((unsigned char)t[i - 1]) || t[i - 1] == '-' || t[i - 1] == '_');
        bool after = i + rl == n || !(isalnum((unsigned char)t[i + rl]) || t[i + rl] == '-' || t[i + rl] == '_');
        if (before && after)
            return true;
    }
    return false;
}

/* May a comment silence a finding of `rule` (options.honor_rules: all when empty)? */
static bool check__may_silence(const sg_checker *c, const char *rule)
{
    if (!c->opts.n_honor_rules)
        return true;
    for (size_t i = 0; i < c->opts.n_honor_rules; i++)
        if (c->opts.honor_rules[i] && !strcmp(c->opts.honor_rules[i], rule))
            return true;
    return false;
}

/* Suppression comments: honoured for the rules they name (finding silenced) or reported (SG003)
 * per the options. */
static sg_status check__suppressions(sg_checker *c, sg_report *rep, sg_doc *doc, const check__block *cb,
                                     const sg_engine_out *out, size_t first)
{
    const sg_rule *ign = check__builtin(c, SG_BUILTIN_IGNORED_SUPPRESSION);
    for (size_t s = 0; s < out->suppressions.len; s++) {
        TSPoint p = out->suppressions.items[s];
        long line, col;
        check__map(c, cb, p, &line, &col);
        /* the comment's text, to its end of line */
        const char *ct = "";
        size_t cl = 0;
        if (p.row < cb->nlines) {
            size_t off = cb->line_starts[p.row] + p.column;
            if (off < cb->b->len) {
                ct = cb->b->text + off;
                cl = strcspn(ct, "\n");
                if (cl > cb->b->len - off)
                    cl = cb->b->len - off;
            }
        }
        bool any = false, unnamed = false, refused = false;
        for (size_t i = first; i < rep->findings.len; i++) {
            sg_finding *f = &rep->findings.items[i];
            if (f->line != line || !strcmp(f->rule_id, ign ? ign->info.id : ""))
                continue;
            any = true;
            /* only for the rules the comment names (# nosec SG201, # noqa: SG201,SG101): a bare
             * marker or another tool's code (# noqa: S605) silences nothing */
            bool named = check__names_rule(ct, cl, f->rule_id);
            if (c->opts.honor_suppressions && named && check__may_silence(c, f->rule_id)) {
                f->suppressed = true;
                f->blocking = false;
            } else if (c->opts.honor_suppressions && named) {
                refused = true; /* the policy does not let this rule be silenced */
            } else {
                unnamed = true;
            }
        }
        if (any && c->opts.honor_suppressions && !unnamed && !refused)
            rep->suppressed++;
        /* an ignored comment is reported (SG003), with why it silenced nothing */
        const char *why = !any || !ign ? NULL
                          : !c->opts.honor_suppressions
                              ? "did not silence the findings there (generated code cannot switch the gate off)"
                          : refused ? "names a rule the policy does not let a comment silence "
                                      "(rules.honor_suppressions)"
                          : unnamed ? "does not name the rule of a finding there (name it: # nosec SG201)"
                                    : NULL;
        if (why) {
            sg_hit h = {ign, p, p,
                        sg_arena_printf(rep->arena, "%s: %s # nosec / # noqa comment on line %ld %s", ign->info.message,
                                        c->opts.honor_suppressions ? "the" : "a", line, why),
                        NULL};
            if (!h.message)
                return SG_ERR_NOMEM;
            sg_status st = check__add(c, rep, doc, cb, &h);
            if (st)
                return st;
        }
    }
    return SG_OK;
}

static bool check__py_name(const char *path)
{
    if (!path)
        return false;
    const char *dot = strrchr(path, '.');
    return dot && (!strcasecmp(dot, ".py") || !strcasecmp(dot, ".pyw") || !strcasecmp(dot, ".pyi"));
}

static bool check__md_name(const char *path)
{
    if (!path)
        return false;
    const char *dot = strrchr(path, '.');
    return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown") || !strcasecmp(dot, ".mdx"));
}

/*
 * The parse's limits are measured in work, so that a busy machine never changes a verdict:
 * tree-sitter calls check__progress every 100 parser operations (shifts, reductions, recovery
 * steps, balancing), the same number of times for the same text on any machine and any load.
 *  - parse_steps: operations in all. Past it, SG002 (raise it with --parse-steps). Valid Python
 *    takes 1.5 operations a byte (7 MB of ordinary code: 11 M) and at most 6 (`x\n` lines), so
 *    the default, 64 M, lets any valid file under the 8 MiB input cap parse.
 *  - error recovery: once every version of the parse is in error (tree-sitter's has_error: the
 *    tree will hold an error whatever follows), it may take parse_steps / 16 more operations;
 *    past that the block is reported as not parsing (SG001) where the error was first seen. The
 *    snippet is blocked either way; this bounds the cost of garbage.
 *  - parse_timeout_ms (--parse-cpu, default 60 s): CPU time of the checking thread, a backstop
 *    for text far outside valid code, where one operation of error recovery can cost 20 times
 *    more than in valid code (8 MB of `"a" b ` repeated: 18 M operations, 74 s), so the step
 *    count alone does not bound it. Valid code within the step limit parses in a fraction of it
 *    (8 MiB of `x\n` lines: about 14 s here), so on valid code the verdict is the step count's.
 *    Its clock starts 800 operations into the parse (check__progress).
 */
#define CHECK_OPS_PER_CALLBACK 100

typedef struct check__reader {
    const char *text;
    size_t len;
    double timeout;           /* CPU seconds the parse may take; 0 for no limit */
    double end;               /* thread CPU seconds at which to stop; 0 until the clock starts */
    uint64_t calls;           /* progress callbacks so far */
    uint64_t max_calls;       /* 0: no limit */
    uint64_t error_calls;     /* callbacks since the parse first met an error */
    uint64_t max_error_calls; /* 0: no limit */
    uint32_t error_at;        /* byte offset of the parse when it first had an error */
    check__cut cut;
} check__reader;

static double check__cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *check__read(void *payload, uint32_t byte, TSPoint pos, uint32_t *bytes_read)
{
    (void)pos;
    check__reader *r = payload;
    if (byte >= r->len) {
        *bytes_read = 0;
        return "";
    }
    *bytes_read = (uint32_t)(r->len - byte);
    return r->text + byte;
}

/* true stops the parse */
static bool check__progress(TSParseState *state)
{
    check__reader *r = state->payload;
    r->calls++;
    if (state->has_error && r->error_calls++ == 0)
        r->error_at = state->current_byte_offset;
    if (r->max_calls && r->calls > r->max_calls)
        r->cut = CHECK_CUT_STEPS;
    else if (r->max_error_calls && r->error_calls > r->max_error_calls)
        r->cut = CHECK_CUT_ERROR;
    else if (r->timeout > 0 && r->calls % 8 == 0) {
        /* the clock starts at the first look (800 operations in: tens of microseconds of
         * work), so that a parse shorter than that, most snippets, reads no clock: a thread's CPU
         * clock is a system call */
        double now = check__cpu_now();
        if (r->end == 0)
            r->end = now + r->timeout;
        else if (now > r->end)
            r->cut = CHECK_CUT_CPU;
    }
    return r->cut != CHECK_CUT_NONE;
}

static TSTree *check__parse(sg_checker *c, TSParser *parser, const char *text, size_t len, check__cut *cut,
                            uint32_t *error_at)
{
    check__reader r = {.text = text, .len = len};
    r.timeout = c->opts.parse_timeout_ms / 1000.0;
    if (c->opts.parse_steps) {
        r.max_calls = (c->opts.parse_steps + CHECK_OPS_PER_CALLBACK - 1) / CHECK_OPS_PER_CALLBACK;
        r.max_error_calls = r.max_calls / 16 ? r.max_calls / 16 : 1;
    }
    TSParseOptions po = {.payload = &r, .progress_callback = check__progress};
    TSTree *t = ts_parser_parse_with_options(parser, NULL,
                                             (TSInput){.payload = &r, .read = check__read,
                                                       .encoding = TSInputEncodingUTF8},
                                             po);
    /* a parse stopped after its last check may still return a tree: the limit was hit all the same */
    if (!t && r.cut == CHECK_CUT_NONE)
        r.cut = CHECK_CUT_STEPS;
    *cut = r.cut;
    *error_at = r.error_at;
    if (t && r.cut) {
        ts_tree_delete(t);
        t = NULL;
    }
    if (!t)
        ts_parser_reset(parser);
    return t;
}

/* parser: the one to use (inside an arena window, a fresh one: tsarena.h). in_arena: inside a
 * window, whose end takes the trees back when it stayed clean. */
static sg_status check__run(sg_checker *c, TSParser *parser, bool in_arena, sg_report *rep, sg_doc *doc,
                            sg_diag *diag)
{
    sg_status st = SG_OK;
    size_t nb = doc->blocks.len;
    check__block *cbs = calloc(nb, sizeof *cbs);
    sg_names names;
    sg_rules_names(c->rules, &names);
    sg_resolver *res = sg_resolver_new(&names, c->opts.max_depth);
    sg_engine_out out = {0};
    sg_doctests dts = {0};
    bool doctests_clean = true; /* every docstring's examples parsed (doctest.h) */
    size_t ncbs = nb;
    if (!cbs || !res) {
        st = SG_ERR_NOMEM;
        goto out_free;
    }
    size_t used = 0;
    const check__block *cut = NULL; /* the first block where findings were dropped */
    for (size_t i = 0; i < nb; i++) {
        sg_block *b = &doc->blocks.items[i];
        check__block *cb = &cbs[used];
        cb->b = b;
        sg_prescan ps;
        sg_python_prescan(b->text, b->len, SG_MAX_BRACKET_DEPTH, &ps);
        cb->too_deep = ps.kind == SG_PRESCAN_TOO_DEEP;
        cb->indent_error = ps.kind == SG_PRESCAN_INDENT;
        cb->deep_where = (TSPoint){ps.row, ps.column};
        cb->prescan_msg = ps.message;
        cb->tree = cb->too_deep ? NULL : check__parse(c, parser, b->text, b->len, &cb->cut, &cb->error_at);
        if ((cb->too_deep || cb->indent_error || cb->cut == CHECK_CUT_ERROR) && b->unlabeled) {
            /* An unlabeled fence Python would reject: not Python, not ours to check. */
            if (cb->tree)
                ts_tree_delete(cb->tree);
            cb->tree = NULL;
            continue;
        }
        if (cb->tree && b->unlabeled && ts_node_has_error(ts_tree_root_node(cb->tree))) {
            /* An unlabeled fence that is not Python (shell output, prose): not ours to check. */
            ts_tree_delete(cb->tree);
            cb->tree = NULL;
            continue;
        }
        if (!(cb->line_starts = check__line_starts(b->text, b->len, &cb->nlines))) {
            st = SG_ERR_NOMEM;
            goto out_free;
        }
        used++;
    }
    if (!used) {
        st = sg_diag_set(diag, SG_ERR_EMPTY, rep->path, 0, 0, 0, 0,
                         "no Python code found (fenced blocks hold no parseable Python)");
        goto out_free;
    }
    rep->blocks = used;
    rep->markdown = doc->markdown;
    rep->line_offset = c->opts.line_offset;
    if (doc->markdown) {
        /* which blocks were checked: the golden stage runs exactly these */
        if (!(rep->checked_blocks = sg_arena_alloc(rep->arena, used * sizeof *rep->checked_blocks))) {
            st = SG_ERR_NOMEM;
            goto out_free;
        }
        for (size_t i = 0; i < used; i++)
            rep->checked_blocks[i] = (size_t)(cbs[i].b - doc->blocks.items);
    }
    /* The docstrings' doctest examples are code (parsers/doctest.h): one more block each, after
     * the document's own, checked like them; one that does not parse adds no finding (doctest
     * would stop at it) but a doctest runner then stays blocked (SG106). */
    for (size_t i = 0; i < used; i++)
        if (cbs[i].tree && (st = sg_doctest_extract(cbs[i].b, cbs[i].line_starts, cbs[i].nlines,
                                                    ts_tree_root_node(cbs[i].tree), &dts)))
            goto out_free;
    if (dts.blocks.len) {
        check__block *more = calloc(used + dts.blocks.len, sizeof *more);
        if (!more) {
            st = SG_ERR_NOMEM;
            goto out_free;
        }
        memcpy(more, cbs, used * sizeof *cbs);
        free(cbs);
        cbs = more;
        ncbs = used + dts.blocks.len;
        for (size_t i = 0; i < dts.blocks.len; i++) {
            check__block *cb = &cbs[used];
            cb->b = &dts.blocks.items[i];
            sg_prescan ps;
            sg_python_prescan(cb->b->text, cb->b->len, SG_MAX_BRACKET_DEPTH, &ps);
            cb->tree = ps.kind != SG_PRESCAN_OK ? NULL
                                                : check__parse(c, parser, cb->b->text, cb->b->len, &cb->cut,
                                                               &cb->error_at);
            if (!cb->tree || !sg_doctest_python3(ts_tree_root_node(cb->tree))) {
                doctests_clean = false;
                if (cb->tree)
                    ts_tree_delete(cb->tree);
                memset(cb, 0, sizeof *cb);
                continue;
            }
            if (!(cb->line_starts = check__line_starts(cb->b->text, cb->b->len, &cb->nlines))) {
                st = SG_ERR_NOMEM;
                goto out_free;
            }
            used++;
        }
    }
    out.own_doctests = doctests_clean && !dts.dynamic ? &dts : NULL;
    if (!doctests_clean)
        out.own_doctests_why = "a doctest example does not parse";
    else if (dts.dynamic)
        out.own_doctests_why = sg_arena_printf(rep->arena, "`%s` can give an object a docstring at run time",
                                               dts.dynamic_why);
    sg_engine_interest(res);
    size_t bound = 0;
    for (size_t i = 0; i < used; i++) {
        if (!cbs[i].tree)
            continue;
        cbs[i].seq = bound++;
        bool before = sg_resolver_depth_exceeded(res, NULL);
        if ((st = sg_resolver_bind(res, ts_tree_root_node(cbs[i].tree), cbs[i].b->text)))
            goto out_free;
        if (!before && sg_resolver_depth_exceeded(res, &cbs[i].depth_where))
            cbs[i].depth_exceeded = true;
    }
    for (size_t i = 0; i < used; i++) {
        check__block *cb = &cbs[i];
        size_t first = rep->findings.len;
        out.hits.len = 0;
        out.suppressions.len = 0;
        out.truncated = false;
        if (cb->too_deep) {
            const sg_rule *se = check__builtin(c, SG_BUILTIN_SYNTAX_ERROR);
            sg_hit h = {se, cb->deep_where, cb->deep_where,
                        sg_arena_printf(rep->arena, "%s: %s", se->info.message, cb->prescan_msg),
                        NULL};
            if ((st = check__add(c, rep, doc, cb, &h)))
                goto out_free;
            continue;
        }
        if (cb->cut == CHECK_CUT_ERROR) {
            /* where the parse first met the error: its line from the block's line starts */
            size_t lo = 0, hi = cb->nlines;
            while (hi - lo > 1) {
                size_t mid = lo + (hi - lo) / 2;
                if (cb->line_starts[mid] <= cb->error_at)
                    lo = mid;
                else
                    hi = mid;
            }
            TSPoint at = {(uint32_t)lo, (uint32_t)(cb->error_at - cb->line_starts[lo])};
            const sg_rule *se = check__builtin(c, SG_BUILTIN_SYNTAX_ERROR);
            sg_hit h = {se, at, at,
                        sg_arena_printf(rep->arena,
                                        "%s: a syntax error at or before this point (error recovery stopped after "
                                        "%llu parser steps)",
                                        se->info.message,
                                        (unsigned long long)(c->opts.parse_steps / 16)),
                        NULL};
            if ((st = check__add(c, rep, doc, cb, &h)))
                goto out_free;
            continue;
        }
        if (cb->cut) {
            const sg_rule *lim = check__builtin(c, SG_BUILTIN_LIMIT);
            const char *why =
                cb->cut == CHECK_CUT_CPU
                    ? sg_arena_printf(rep->arena, "parsing took more than %u ms of CPU time (raise it with --parse-cpu)",
                                      c->opts.parse_timeout_ms)
                    : sg_arena_printf(rep->arena, "parsing took more than %llu parser steps (raise it with --parse-steps)",
                                      (unsigned long long)c->opts.parse_steps);
            sg_hit h = {lim, {0, 0}, {0, 0}, sg_arena_printf(rep->arena, "%s: %s", lim->info.message, why), NULL};
            if ((st = check__add(c, rep, doc, cb, &h)))
                goto out_free;
            continue;
        }
        TSNode root = ts_tree_root_node(cb->tree);
        if ((st = sg_engine_run(c->rules, res, cb->seq, root, cb->b->text, &out)))
            goto out_free;
        TSPoint lw;
        size_t lblock;
        const char *lreason = NULL;
        if (sg_resolver_limit_hit(res, &lblock, &lw, &lreason) && lblock == cb->seq) {
            const sg_rule *lim = check__builtin(c, SG_BUILTIN_LIMIT);
            if ((st = sg_engine_hit(&out, lim, lw, lw, sg_arena_printf(rep->arena, "%s: %s%s", lim->info.message, lreason,
                                                                    strstr(lreason, "raises it")
                                                                        ? ""
                                                                        : " (a fixed limit: no option raises it)"),
                                    NULL)))
                goto out_free;
        }
        if (cb->depth_exceeded) {
            TSPoint where = cb->depth_where;
            const sg_rule *lim = check__builtin(c, SG_BUILTIN_LIMIT);
            if ((st = sg_engine_hit(&out, lim, where, where,
                                    sg_arena_printf(rep->arena, "%s: syntax tree deeper than %u levels (raise it with --max-depth)",
                                                    lim->info.message, c->opts.max_depth),
                                    NULL)))
                goto out_free;
        }
        bool tree_error = ts_node_has_error(root);
        TSNode first_error = tree_error ? check__first_error(root) : root;
        if (cb->indent_error && (!tree_error || ts_node_start_point(first_error).row > cb->deep_where.row)) {
            /* Report the earliest error only, as Python would. */
            const sg_rule *se = check__builtin(c, SG_BUILTIN_SYNTAX_ERROR);
            if ((st = sg_engine_hit(&out, se, cb->deep_where, cb->deep_where,
                                    sg_arena_printf(rep->arena, "%s: %s", se->info.message, cb->prescan_msg), NULL)))
                goto out_free;
            tree_error = false;
        }
        if (tree_error) {
            const sg_rule *se = check__builtin(c, SG_BUILTIN_SYNTAX_ERROR);
            TSNode e = first_error;
            const char *msg;
            if (ts_node_is_missing(e)) {
                msg = sg_arena_printf(rep->arena, "%s: missing `%s`", se->info.message, ts_node_type(e));
            } else {
                uint32_t a = ts_node_start_byte(e), z = ts_node_end_byte(e);
                size_t n = z - a, k = 0;
                char tok[48];
                while (k < n && k < 40 && cb->b->text[a + k] != '\n') {
                    tok[k] = cb->b->text[a + k];
                    k++;
                }
                while (k > 0 && k < n && ((unsigned char)cb->b->text[a + k] & 0xc0) == 0x80)
                    k--;
                tok[k] = 0;
                msg = k ? sg_arena_printf(rep->arena, "%s: unexpected `%s`", se->info.message, tok)
                        : sg_arena_printf(rep->arena, "%s: unexpected end of input", se->info.message);
            }
            if ((st = sg_engine_hit(&out, se, ts_node_start_point(e), ts_node_end_point(e), msg, NULL)))
                goto out_free;
        }
        for (size_t k = 0; k < out.hits.len; k++)
            if ((st = check__add(c, rep, doc, cb, &out.hits.items[k])))
                goto out_free;
        if (out.truncated || out.hits.len >= SG_ENGINE_MAX_HITS)
            rep->truncated = true;
        if (rep->truncated && !cut)
            cut = cb;
        if ((st = check__suppressions(c, rep, doc, cb, &out, first)))
            goto out_free;
    }
    if (rep->truncated && !cut)
        cut = &cbs[0];
    if (cut && (st = check__truncated(c, rep, doc, cut)))
        goto out_free;
    /* A message that could not be formatted means memory ran out somewhere: not a verdict. */
    if (sg_arena_failed(rep->arena) || sg_resolver_failed(res))
        st = SG_ERR_NOMEM;
    else
        check__sort_dedupe(rep);
out_free:
    sg_engine_out_free(&out);
    if (cbs) {
        /* in a clean arena window the trees go back with the arena at its end (tsarena.h) */
        bool keep_trees = in_arena && sg_tsarena_clean();
        for (size_t i = 0; i < ncbs; i++) {
            if (cbs[i].tree && !keep_trees)
                ts_tree_delete(cbs[i].tree);
            free(cbs[i].line_starts);
        }
        free(cbs);
    }
    sg_resolver_free(res);
    sg_doctests_free(&dts);
    if (st == SG_ERR_NOMEM)
        sg_diag_set(diag, st, rep->path, 0, 0, -1, 0, "out of memory");
    else if (st && st != SG_ERR_EMPTY && diag && diag->status == SG_OK)
        sg_diag_set(diag, st, rep->path, 0, 0, -1, 0, "internal error while checking");
    return st;
}

/* The check of one document, with the parser to use (sg_checker_check); frees doc. */
static sg_status check__check(sg_checker *c, TSParser *parser, bool in_arena, const char *label, const char *buf,
                              size_t len, sg_input_kind kind, sg_doc *doc, sg_report **ret_report, sg_diag *diag)
{
    sg_status st;
    if (doc->markdown && kind == SG_INPUT_AUTO) {
        /* Fences found in a document of unknown type. If the whole text is valid Python (fences
         * inside strings), it is Python: checking only the fences would let code outside them
         * through. */
        check__cut cut = CHECK_CUT_NONE;
        uint32_t err_at;
        sg_prescan ps;
        sg_python_prescan(doc->src + doc->skip, doc->len - doc->skip, SG_MAX_BRACKET_DEPTH, &ps);
        TSTree *t = ps.kind != SG_PRESCAN_OK
                        ? NULL
                        : check__parse(c, parser, doc->src + doc->skip, doc->len - doc->skip, &cut, &err_at);
        /* A parse stopped by its budget with no error seen is taken as Python (and blocked there
         * by the same limit): never let the code outside the fences go unchecked. */
        bool is_python = (t && !ts_node_has_error(ts_tree_root_node(t))) || cut == CHECK_CUT_STEPS ||
                         cut == CHECK_CUT_CPU;
        if (t)
            ts_tree_delete(t);
        if (is_python) {
            sg_doc_free(doc);
            if ((st = sg_doc_extract(label, buf, len, SG_INPUT_PYTHON, doc, diag)))
                return st;
        }
    }
    sg_report *rep;
    if ((st = sg_report_new(label, &rep))) {
        sg_doc_free(doc);
        return sg_diag_set(diag, st, label, 0, 0, -1, 0, "out of memory");
    }
    rep->bytes = len;
    rep->fail_on = c->opts.fail_on;
    double t0 = sg_verdict_now_ms();
    st = check__run(c, parser, in_arena, rep, doc, diag);
    rep->static_ms = sg_verdict_now_ms() - t0;
    sg_doc_free(doc);
    if (st) {
        sg_report_free(rep);
        return st;
    }
    *ret_report = rep;
    return SG_OK;
}

sg_status sg_checker_check(sg_checker *c, const char *path, const char *buf, size_t len, sg_report **ret_report,
                           sg_diag *diag)
{
    if (!c || (!buf && len) || !ret_report)
        return SG_ERR_INVALID_ARG;
    const char *label = path ? path : "<stdin>";
    if (len > c->opts.max_bytes)
        return sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0,
                           "input is %zu bytes, larger than the limit of %zu bytes (see --max-bytes)", len,
                           c->opts.max_bytes);
    if (len > UINT32_MAX / 2)
        return sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0, "input is too large to parse");
    sg_input_kind kind = c->opts.input_kind;
    if (kind == SG_INPUT_AUTO && check__py_name(path))
        kind = SG_INPUT_PYTHON;
    else if (kind == SG_INPUT_AUTO && check__md_name(path))
        kind = SG_INPUT_MARKDOWN;
    sg_doc doc;
    sg_status st = sg_doc_extract(label, buf ? buf : "", len, kind, &doc, diag);
    if (st)
        return st;
    /* tree-sitter allocates from this thread's arena until the end of the check (tsarena.h): a
     * parser of its own, dropped with the arena, as are its trees */
    bool in_arena = sg_tsarena_begin();
    TSParser *parser = c->parser;
    if (in_arena) {
        parser = ts_parser_new();
        if (!ts_parser_set_language(parser, sg_python_language())) {
            ts_parser_delete(parser);
            sg_tsarena_end(in_arena);
            sg_doc_free(&doc);
            return sg_diag_set(diag, SG_ERR_INTERNAL, label, 0, 0, -1, 0, "internal error: no parser");
        }
    }
    st = check__check(c, parser, in_arena, label, buf, len, kind, &doc, ret_report, diag);
    if (in_arena && !sg_tsarena_clean())
        ts_parser_delete(parser);
    sg_tsarena_end(in_arena);
    return st;
}
