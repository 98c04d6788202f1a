/*
 * Unit tests of the fuzz stage's parts (issue 9 part 1): the choice-stream decoder and encoder
 * (golden_tasks/gen.c: any bytes decode to a value of the type; example values round-trip), and
 * the worker's streams with the coverage tracer, end to end in the real sandbox (items in order,
 * shared child state, the zygote untouched, a forged frame, a limit ending the stream and the
 * restart, os._exit, coverage counters and comparison operands). A kernel that refuses the
 * sandbox skips the sandbox tests loudly (fails under CI=true).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "golden_tasks/gen.h"
#include "golden_tasks/typelang.h"
#include "golden_tasks/value.h"
#include "sandbox/tracer/cov.h"
#include "snipgate/snipgate.h"

/* ---- choice streams ------------------------------------------------------------------------ */

static const char *const types[] = {
    "int",          "int(-5..5)",          "int(0..)",        "float",          "float(0..1)",
    "bool",         "None",                "str",             "str(ascii, max=4)", "str(chars='abc', min=2)",
    "bytes",        "list[int]",           "list[int(0..9)](sorted, min=1, max=3)",
    "set[str]",     "dict[str, int]",      "tuple[int, str]", "tuple[int, ...]", "int | str | None",
    "list[list[int]]",
};

static void test_decode_any_bytes(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        sg_type *ty = NULL;
        sg_diag d;
        sg_diag_init(&d);
        if (sg_type_parse(types[t], &ty, &d) != SG_OK)
            fail_msg("%s: %s", types[t], d.message);
        for (int round = 0; round < 400; round++) {
            uint8_t buf[64];
            size_t n = (size_t)(round % 65);
            for (size_t k = 0; k < n; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                buf[k] = round % 3 ? (uint8_t)x : (uint8_t)(x & 0x81); /* many zeros and ones too */
            }
            sg_choices c = {buf, n, 0, UINT32_MAX};
            sg_value *v = NULL;
            assert_int_equal(sg_gen_decode(&c, ty, &v), SG_OK);
            if (!sg_type_conforms(v, ty, true)) {
                sg_buf b;
                sg_buf_init(&b, 4096);
                sg_value_repr(v, &b);
                fail_msg("%s: decoded %s does not conform", types[t], b.data);
            }
            sg_value_free(v);
        }
        sg_type_free(ty);
    }
}

static void test_encode_round_trip(void **state)
{
    (void)state;
    static const struct {
        const char *type, *value;
    } cases[] = {
        {"int", "48879"},           {"int", "-3"},          {"int(-5..5)", "-5"},
        {"str", "\"snipgate\""},    {"str", "\"\""},        {"str", "\"caf\\u00e9\""},
        {"bool", "true"},           {"float", "2.5"},       {"list[int]", "[1, 2, 3]"},
        {"dict[str, int]", "{\"a\": 1, \"b\": 2}"},         {"tuple[int, str]", "{\"$tuple\": [7, \"x\"]}"},
        {"int | str", "\"x\""},     {"list[str]", "[]"},    {"set[int]", "{\"$set\": [1, 5]}"},
        /* NUL, any plane (astral: U+1D11E, U+10FFFF), 0 and 0xFF bytes: exact */
        {"str", "\"a\\u0000b\\u0000\""},  {"str", "\"\\u0000\""},  {"str", "\"x\\ud834\\udd1e\\udbff\\udfff\\u00ff\\u0100\\uffff\""},
        {"str(ascii, max=4)", "\"\\u0000a\""},             {"list[str]", "[\"\\u0000\", \"\", \"\\u4e2d\"]"},
        {"bytes", "{\"$bytes\": \"AP8Aqv8=\"}"},          {"dict[str, bytes]", "{\"$dict\": [[\"\\u0000\", {\"$bytes\": \"/w==\"}]]}"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        sg_type *ty = NULL;
        sg_value *v = NULL, *back = NULL;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_type_parse(cases[k].type, &ty, &d), SG_OK);
        if (sg_value_from_text(cases[k].value, strlen(cases[k].value), "v", &v, &d) != SG_OK)
            fail_msg("%s: %s", cases[k].value, d.message);
        sg_buf b;
        sg_buf_init(&b, 4096);
        assert_int_equal(sg_gen_encode(ty, v, UINT32_MAX, &b), SG_OK);
        sg_choices c = {(const uint8_t *)b.data, b.len, 0, UINT32_MAX};
        assert_int_equal(sg_gen_decode(&c, ty, &back), SG_OK);
        if (!sg_value_strict_equal(back, v, 0, 0))
            fail_msg("%s %s does not round-trip", cases[k].type, cases[k].value);
        assert_int_equal(c.pos, b.len); /* every byte used: positions stay where the fuzzer put them */
        sg_buf_free(&b);
        sg_value_free(v);
        sg_value_free(back);
        sg_type_free(ty);
    }
}

/* an operand's bytes in the input are the operand: the comparison feedback relies on it */
static void test_str_bytes_are_literal(void **state)
{
    (void)state;
    sg_type *ty = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_type_parse("str", &ty, &d), SG_OK);
    static const uint8_t in[] = "snipgate";
    sg_choices c = {in, sizeof in, 0, UINT32_MAX}; /* with its terminating 0 */
    sg_value *v = NULL;
    assert_int_equal(sg_gen_decode(&c, ty, &v), SG_OK);
    assert_int_equal(v->len, 8);
    assert_memory_equal(v->s, "snipgate", 8);
    sg_value_free(v);
    sg_type_free(ty);
}

/* str: C0 80 is a NUL, well-formed UTF-8 its character, any other byte >= 0x80 a favoured
 * character; bytes: FF 00 a 0 byte, FF FF a 0xFF byte, FF then another byte 0xFF alone */
static void decode_one(const char *type, const uint8_t *in, size_t n, const char *want, size_t want_len, size_t used)
{
    sg_type *ty = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_type_parse(type, &ty, &d), SG_OK);
    sg_choices c = {in, n, 0, UINT32_MAX};
    sg_value *v = NULL;
    assert_int_equal(sg_gen_decode(&c, ty, &v), SG_OK);
    if (v->len != want_len || memcmp(v->s, want, want_len)) {
        sg_buf b;
        sg_buf_init(&b, 4096);
        sg_value_repr(v, &b);
        fail_msg("%s: decoded %s", type, b.data);
    }
    assert_int_equal(c.pos, used);
    assert_true(sg_type_conforms(v, ty, true));
    sg_value_free(v);
    sg_type_free(ty);
}

static void test_str_nul_and_unicode(void **state)
{
    (void)state;
    static const uint8_t nul[] = {'a', 0xC0, 0x80, 'b', 0, 'z'};
    decode_one("str", nul, sizeof nul, "a\0b", 3, 5);
    static const uint8_t clef[] = {0xF0, 0x9D, 0x84, 0x9E, 'x', 0xE4, 0xB8, 0xAD, 0xC3, 0xA9, 0};
    decode_one("str", clef, sizeof clef, "\xF0\x9D\x84\x9Ex\xE4\xB8\xAD\xC3\xA9", 10, sizeof clef);
    /* not UTF-8 (a lone continuation, an overlong form, a surrogate, a cut sequence): one
     * favoured character per byte that could not start a sequence, never a surrogate */
    static const uint8_t bad[] = {0x80, 0xC1, 0x81, 0xED, 0xA0, 0x80, 0xF0, 0x9D, 0};
    sg_type *ty = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_type_parse("str", &ty, &d), SG_OK);
    sg_choices c = {bad, sizeof bad, 0, UINT32_MAX};
    sg_value *v = NULL;
    assert_int_equal(sg_gen_decode(&c, ty, &v), SG_OK);
    assert_int_equal(c.pos, sizeof bad);
    assert_true(sg_type_conforms(v, ty, true));
    assert_null(memchr(v->s, 0, v->len));
    assert_null(strstr(v->s, "\xED\xA0")); /* no surrogate: the value must encode as UTF-8 */
    sg_value_free(v);
    sg_type_free(ty);
    /* a NUL folds into chars= like any character */
    static const uint8_t fold[] = {0xC0, 0x80, 0};
    sg_type *tc = NULL;
    assert_int_equal(sg_type_parse("str(chars='xy')", &tc, &d), SG_OK);
    sg_choices cf = {fold, sizeof fold, 0, UINT32_MAX};
    assert_int_equal(sg_gen_decode(&cf, tc, &v), SG_OK);
    assert_int_equal(v->len, 1);
    assert_true(v->s[0] == 'x' || v->s[0] == 'y');
    sg_value_free(v);
    sg_type_free(tc);
    static const uint8_t bytes[] = {0xFF, 0x00, 0xFF, 0xFF, 0xFF, 'A', 0x01, 0};
    decode_one("bytes", bytes, sizeof bytes, "\0\xFF\xFF" "A\x01", 5, sizeof bytes);
}

/* ---- attaching the stage's result to a report (gate/fuzz.c): fail closed ---------------------- */

static sg_report *checked(const char *doc)
{
    sg_rules *rules = NULL;
    sg_checker *ck = NULL;
    sg_options o;
    sg_options_init(&o);
    sg_report *r = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_rules_new_default(&rules), SG_OK);
    assert_int_equal(sg_checker_new(rules, &o, &ck), SG_OK);
    assert_int_equal(sg_checker_check(ck, "c.py", doc, strlen(doc), &r, &d), SG_OK);
    sg_checker_free(ck);
    sg_rules_free(rules);
    assert_false(sg_report_blocked(r));
    return r;
}

static void test_attach_result(void **state)
{
    (void)state;
    static const char doc[] = "def score(word, n):\n    if n == 7:\n        raise KeyError('k')\n    return n\n";
    static const char *const broken[] = {
        "{not json", "{}", "{\"status\": \"ok\"}", "{\"status\": \"error\", \"error\": \"boom\"}",
        "{\"status\": \"ok\", \"finding\": 3}",
        "{\"status\": \"ok\", \"finding\": {\"kind\": \"nonsense\", \"input\": \"score(1, 2)\"}}",
    };
    for (size_t k = 0; k < sizeof broken / sizeof *broken; k++) {
        sg_report *r = checked(doc);
        assert_int_equal(sg_report_add_fuzz(r, doc, strlen(doc), "t", broken[k], NULL, NULL), SG_OK);
        if (sg_report_fuzz_stage(r) != SG_STAGE_FAILED || !sg_report_blocked(r) ||
            sg_report_stage(r, SG_PIPE_FUZZ, NULL, NULL) != SG_STAGE_STATUS_ERROR)
            fail_msg("a malformed result must fail the stage and block: %s", broken[k]);
        sg_report_free(r);
    }
    /* no driver (an error): failed, blocked, a gate-error reason */
    sg_report *r = checked(doc);
    assert_int_equal(sg_report_add_fuzz(r, doc, strlen(doc), "t", NULL, "no snipgate-fuzz", NULL), SG_OK);
    sg_reason *xs = NULL;
    size_t nx = 0;
    assert_int_equal(sg_report_reasons(r, &xs, &nx), SG_OK);
    assert_int_equal(nx, 1);
    assert_int_equal(xs[0].criterion, SG_CRIT_GATE_ERROR);
    free(xs);
    sg_report_free(r);
    /* a clean result: the stage passes, nothing blocks */
    r = checked(doc);
    assert_int_equal(sg_report_add_fuzz(r, doc, strlen(doc), "t",
                                        "{\"status\": \"ok\", \"finding\": null, \"execs\": 10, \"seconds\": 1.5}",
                                        NULL, NULL),
                     SG_OK);
    assert_false(sg_report_blocked(r));
    double ms = 0;
    assert_int_equal(sg_report_stage(r, SG_PIPE_FUZZ, &ms, NULL), SG_STAGE_STATUS_PASS);
    assert_true(ms > 1499 && ms < 1501);
    assert_int_equal(sg_report_add_fuzz(r, doc, strlen(doc), "t", "{}", NULL, NULL), SG_ERR_INVALID_ARG); /* once */
    sg_report_free(r);
    /* a finding: one SG-FUZZ reason at the document line of the exception */
    r = checked(doc);
    assert_int_equal(sg_report_add_fuzz(r, doc, strlen(doc), "t",
                                        "{\"status\": \"ok\", \"finding\": {\"kind\": \"exception\", \"input\": "
                                        "\"score(0, 7)\", \"exc_type\": \"KeyError\", \"exc_message\": \"'k'\", "
                                        "\"exc_line\": 3}}",
                                        NULL, NULL),
                     SG_OK);
    assert_true(sg_report_blocked(r));
    assert_int_equal(sg_report_reasons(r, &xs, &nx), SG_OK);
    assert_int_equal(nx, 1);
    assert_int_equal(xs[0].criterion, SG_CRIT_FUZZ_EXCEPTION);
    assert_int_equal(xs[0].stage, SG_PIPE_FUZZ);
    assert_string_equal(xs[0].rule_id, "SG-FUZZ");
    assert_int_equal(xs[0].line, 3);
    assert_non_null(strstr(xs[0].message, "score(0, 7) raised KeyError"));
    free(xs);
    assert_int_equal(sg_report_stage(r, SG_PIPE_FUZZ, NULL, NULL), SG_STAGE_STATUS_BLOCK);
    sg_report_free(r);
}

/* ---- streams, end to end -------------------------------------------------------------------- */

static sg_sandbox *sandbox;

static bool kernel_ok(void)
{
    if (sandbox)
        return true;
    if (getenv("CI") && !strcmp(getenv("CI"), "true"))
        fail_msg("sandbox unavailable under CI=true");
    print_message("*** SKIP: the kernel refuses the sandbox\n");
    return false;
}

static const char src[] = "import os\n"
                          "state = []\n"
                          "def grow():\n    state.append(1)\n    return len(state)\n"
                          "def magic(s, n):\n"
                          "    if n == 48879:\n"
                          "        if s == 'snipgate':\n"
                          "            return 1\n"
                          "    return 0\n"
                          "def spin():\n    while True: pass\n"
                          "def boom():\n    raise KeyError('k')\n"
                          "def forge(k):\n"
                          "    body = b''\n"
                          "    for tag, val in ((b'k', b'ok'), (b'r', b'666'), (b'y', b'int'), (b'j', b'666'),\n"
                          "                     (b'i', b'%d' % k), (b'n', b'%d' % (k + 1))):\n"
                          "        body += tag + len(val).to_bytes(4, 'little') + val\n"
                          "    os.write(6, len(body).to_bytes(4, 'little') + body)\n"
                          "    return 1\n";

static int cov_fd = -1;
static struct sg_cov_map *map;

static sg_worker *stream_worker(bool coverage)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 4000;
    lim.cpu_ms = 500;
    sg_worker_opts o;
    sg_worker_opts_init(&o);
    o.coverage = coverage;
    o.coverage_fd = coverage ? cov_fd : -1;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_new(sandbox, src, strlen(src), &lim, &o, &w, &imp, &d) != SG_OK)
        fail_msg("worker: %s", d.message);
    assert_int_equal(sg_outcome_info_get(imp)->kind, SG_OUTCOME_OK);
    sg_outcome_free(imp);
    return w;
}

static const sg_outcome_info *item(sg_worker *w, const char *code, sg_outcome **o, bool *open)
{
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_stream_call(w, code, o, open, &d) != SG_OK)
        fail_msg("stream call %s: %s", code, d.message);
    return sg_outcome_info_get(*o);
}

static void test_stream_items_share_the_child_not_the_zygote(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = stream_worker(false);
    sg_outcome *o;
    bool open;
    for (int k = 1; k <= 5; k++) {
        const sg_outcome_info *in = item(w, "grow()", &o, &open);
        assert_int_equal(in->kind, SG_OUTCOME_OK);
        char want[8];
        snprintf(want, sizeof want, "%d", k);
        assert_string_equal(in->value_repr, want); /* one child: its state carries over */
        assert_true(open);
        sg_outcome_free(o);
    }
    const sg_outcome_info *in = item(w, "boom()", &o, &open);
    assert_int_equal(in->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(in->exc_type, "KeyError");
    assert_true(open); /* an exception is an answer: the stream goes on */
    sg_outcome_free(o);
    bool clean = false;
    assert_int_equal(sg_worker_stream_end(w, &clean, NULL), SG_OK);
    assert_true(clean);
    /* a fresh call forks the zygote, which the stream never touched */
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_worker_call(w, "grow()", NULL, &o, &d), SG_OK);
    assert_string_equal(sg_outcome_info_get(o)->value_repr, "1");
    sg_outcome_free(o);
    /* and a stream after a call starts a new child */
    in = item(w, "grow()", &o, &open);
    assert_string_equal(in->value_repr, "1");
    sg_outcome_free(o);
    assert_int_equal(sg_worker_starts(w), 1);
    sg_worker_free(w);
}

static void test_stream_limit_ends_it_and_restarts(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = stream_worker(false);
    sg_outcome *o;
    bool open;
    assert_int_equal(item(w, "grow()", &o, &open)->kind, SG_OUTCOME_OK);
    sg_outcome_free(o);
    const sg_outcome_info *in = item(w, "spin()", &o, &open);
    assert_int_equal(in->kind, SG_OUTCOME_TIMEOUT);
    assert_false(open);
    sg_outcome_free(o);
    in = item(w, "grow()", &o, &open); /* a new sandbox, a new stream */
    assert_int_equal(in->kind, SG_OUTCOME_OK);
    assert_string_equal(in->value_repr, "1");
    assert_true(open);
    sg_outcome_free(o);
    assert_int_equal(sg_worker_starts(w), 2);
    in = item(w, "os._exit(0)", &o, &open); /* an exit without a result frame is no answer */
    assert_int_not_equal(in->kind, SG_OUTCOME_OK);
    assert_false(open);
    sg_outcome_free(o);
    sg_worker_free(w);
}

static void test_stream_forged_frame(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = stream_worker(false);
    sg_outcome *o;
    bool open;
    /* item 0 writes a frame for item 1, which was not sent yet: a protocol error, never "666" */
    const sg_outcome_info *in = item(w, "forge(1)", &o, &open);
    assert_false(in->kind == SG_OUTCOME_OK && in->value_repr && !strcmp(in->value_repr, "666"));
    if (in->kind == SG_OUTCOME_OK) { /* its own frame came first: the forged one ends the stream */
        sg_outcome_free(o);
        in = item(w, "grow()", &o, &open);
        assert_false(in->kind == SG_OUTCOME_OK && !strcmp(in->value_repr ? in->value_repr : "", "666"));
    }
    sg_outcome_free(o);
    sg_worker_free(w);
}

/* two workers at once (the candidate's and the reference's): send both, then wait for both */
static void test_stream_send_wait_two_workers(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *a = stream_worker(false), *b = stream_worker(false);
    sg_diag d;
    sg_diag_init(&d);
    for (int k = 1; k <= 3; k++) {
        assert_int_equal(sg_worker_stream_send(a, "grow()", &d), SG_OK);
        assert_int_equal(sg_worker_stream_send(b, k == 2 ? "boom()" : "grow()", &d), SG_OK);
        assert_int_equal(sg_worker_stream_send(a, "grow()", &d), SG_ERR_INVALID_ARG); /* one at a time */
        sg_outcome *oa = NULL, *ob = NULL;
        bool open = false;
        assert_int_equal(sg_worker_stream_wait(b, &ob, &open, &d), SG_OK);
        assert_int_equal(sg_worker_stream_wait(a, &oa, &open, &d), SG_OK);
        char want[8];
        snprintf(want, sizeof want, "%d", k);
        assert_string_equal(sg_outcome_info_get(oa)->value_repr, want);
        assert_int_equal(sg_outcome_info_get(ob)->kind, k == 2 ? SG_OUTCOME_EXCEPTION : SG_OUTCOME_OK);
        sg_outcome_free(oa);
        sg_outcome_free(ob);
    }
    sg_outcome *o = NULL;
    bool open = false;
    assert_int_equal(sg_worker_stream_wait(a, &o, &open, &d), SG_ERR_INVALID_ARG); /* nothing sent */
    /* an item sent and never awaited is dropped by the end of the stream */
    assert_int_equal(sg_worker_stream_send(a, "grow()", &d), SG_OK);
    bool clean = false;
    assert_int_equal(sg_worker_stream_end(a, &clean, &d), SG_OK);
    assert_true(clean);
    sg_worker_free(a);
    sg_worker_free(b);
}

static void test_stream_coverage(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = stream_worker(true);
    sg_outcome *o;
    bool open;
    memset(map, 0, sizeof *map);
    assert_int_equal(item(w, "magic('abc', 1)", &o, &open)->kind, SG_OUTCOME_OK);
    sg_outcome_free(o);
    unsigned edges1 = 0;
    for (unsigned k = 0; k < SG_COV_EDGES; k++)
        edges1 += map->edges[k] != 0;
    assert_true(edges1 >= 2);
    assert_int_equal(map->lines[7], 1);  /* if n == 48879 */
    assert_int_equal(map->lines[8], 0);  /* not reached */
    assert_int_equal(map->ncmp, 1);      /* 1 == 48879 */
    assert_int_equal(map->cmps[0].kind, SG_COV_CMP_INT);
    assert_int_equal(map->cmps[0].b[0], 0xef);
    assert_int_equal(map->cmps[0].b[1], 0xbe);
    memset(map, 0, sizeof *map);
    assert_int_equal(item(w, "magic('abc', 48879)", &o, &open)->kind, SG_OUTCOME_OK);
    sg_outcome_free(o);
    assert_int_equal(map->lines[8], 1); /* one level deeper: new lines, new edges */
    assert_int_equal(map->ncmp, 2);
    assert_int_equal(map->cmps[1].kind, SG_COV_CMP_STR);
    assert_int_equal(map->cmps[1].la, 3);
    assert_memory_equal(map->cmps[1].a, "abc", 3);
    assert_int_equal(map->cmps[1].lb, 8);
    assert_memory_equal(map->cmps[1].b, "snipgate", 8);
    /* only the candidate's code is traced: the runner's own lines leave no line marks past it */
    unsigned lines = 0;
    for (unsigned k = 0; k < SG_COV_LINES; k++)
        lines += map->lines[k];
    assert_true(lines <= 3);
    sg_worker_free(w);
}

static int setup(void **state)
{
    (void)state;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_sandbox_new(NULL, &sandbox, &d) != SG_OK)
        sandbox = NULL;
    cov_fd = memfd_create("sg-coverage-test", MFD_CLOEXEC);
    if (cov_fd < 0 || ftruncate(cov_fd, sizeof(struct sg_cov_map)) < 0)
        return -1;
    map = mmap(NULL, sizeof *map, PROT_READ | PROT_WRITE, MAP_SHARED, cov_fd, 0);
    return map == MAP_FAILED ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    sg_sandbox_free(sandbox);
    munmap(map, sizeof *map);
    close(cov_fd);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_any_bytes),
        cmocka_unit_test(test_encode_round_trip),
        cmocka_unit_test(test_str_bytes_are_literal),
        cmocka_unit_test(test_str_nul_and_unicode),
        cmocka_unit_test(test_attach_result),
        cmocka_unit_test(test_stream_items_share_the_child_not_the_zygote),
        cmocka_unit_test(test_stream_limit_ends_it_and_restarts),
        cmocka_unit_test(test_stream_forged_frame),
        cmocka_unit_test(test_stream_send_wait_two_workers),
        cmocka_unit_test(test_stream_coverage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
