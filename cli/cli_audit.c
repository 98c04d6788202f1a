/*
 * `snipgate audit PATH...`: the gate over a corpus of snippets. Inputs are directories (every
 * *.py file is a record), JSONL record files ({"id", "code", "task_id"?}, or HumanEval samples
 * {"task_id", "completion"}), single Python files, or stdin (JSONL). Every record gets one JSONL
 * line out, in input order: its id, status and verdict document (the seam, cli_pipeline.c), or
 * its error. A bad record never stops the run nor loses another record.
 *
 * Threads: one reader (parses records into a bounded window), -j workers (each with its own
 * checker), and the main thread writing lines in input order, the progress bar and the summary.
 * Public API only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <yajl/yajl_parse.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pipeline.h"

#define AUDIT_MAX_JOBS 256
#define AUDIT_WORST 10
/* A regular output file gets the lines written so far once the writer has waited this long for
 * the next (docs/audit.md, -o). */
#define AUDIT_FILE_FLUSH_MS 100

/* One record, from the reader to a worker to the writer. */
typedef struct audit__rec {
    char *id;
    char *source;     /* FILE:LINE, or the file */
    char *code;
    size_t len;
    char *task_id;
    bool completion;
    bool walked;      /* a file found in a directory walk (empty: passes, as in check) */
    char *error;      /* a bad record: why (nothing runs) */
    /* the worker's part */
    bool done;
    bool slow;        /* it ran in the sandbox (the golden stage): milliseconds to seconds */
    sg_cli_result res;
    char *line;       /* the output line, no newline */
} audit__rec;

/* Ids of the lines already in the output (resume), each with how many lines it has there: the
 * k-th record of an id in the input is done when the output holds more than k lines of it (ids
 * may repeat, and 7 and "7" are written alike). */
typedef struct audit__seen {
    char **ids; /* open addressing, power-of-two size */
    size_t *counts;
    size_t cap, len;
} audit__seen;

typedef struct audit__rulecount {
    char *rule;
    size_t n;
} audit__rulecount;

typedef struct audit__worst {
    char *id;
    bool dangerous; /* a finding of a rule, not only "could not be checked" (SG001, SG002) */
    int sev;
    size_t findings;
    char *rules; /* comma-separated, at most a few */
} audit__worst;

typedef struct audit__ctx {
    sg_cli_pipeline pipe;
    char **paths;
    size_t npaths;
    bool use_stdin;
    unsigned long shard_i, shard_n;
    audit__seen done_ids;
    size_t resumed_block, resumed_error; /* statuses of the lines a resume found */
    /* the window */
    audit__rec *ring;
    size_t cap;
    size_t produced, taken, written;
    size_t slow_pending; /* records done that ran in the sandbox and whose lines are not written */
    bool eof;
    bool stop;    /* the writer failed: everyone ends */
    bool writer_waiting; /* the writer sleeps until ring[written] is done */
    sg_status fatal;
    pthread_mutex_t lock;
    pthread_cond_t can_produce, can_take, can_write;
    /* reader's counters (under lock) */
    size_t skipped_done, skipped_shard;
    unsigned long long bytes_total, bytes_read;
    /* per-sample counters of HumanEval samples without an id, by task id */
    json_t *sample_counts;
    char reader_error[600];
} audit__ctx;

/* Out of memory in the reader: the run stops (the writer sees it under the lock). */
static void audit__fail(audit__ctx *c)
{
    pthread_mutex_lock(&c->lock);
    c->fatal = SG_ERR_NOMEM;
    pthread_mutex_unlock(&c->lock);
}

static void audit__help(FILE *out)
{
    fputs("usage: snipgate audit [options] [PATH...]   (no PATH or -: JSONL records on stdin)\n"
          "\n"
          "Run the gate over a corpus. PATH is a directory (every *.py below it is a record, its path the\n"
          "id), a JSONL file (*.jsonl, *.json: one record per line), or a Python file (one record).\n"
          "A record is {\"id\": ..., \"code\": \"...\", \"task_id\"?: ...} or a HumanEval-style sample\n"
          "{\"task_id\": ..., \"completion\": \"...\"} (id: TASK_ID/N, N its index among that task's samples;\n"
          "the program is the task's prompt + completion, so its task must be in --suite or built in).\n"
          "With a task_id the golden stage runs too (unless --static-only).\n"
          "\n"
          "Out: one JSON line per record, in input order (-o FILE, default stdout):\n"
          "  {\"id\", \"source\", \"status\": \"pass\"|\"block\"|\"error\", \"error\": null|\"why\",\n"
          "   \"verdict\": the document of `check --format json` for that record, or null}\n"
          "A bad record (invalid JSON, a missing field, huge code, an unknown task) gets its own error line.\n"
          "\n"
          "options:\n"
          "  -o, --output FILE          write the lines to FILE. Resumable: when FILE exists, the ids it holds\n"
          "                             are skipped and new lines are appended (a torn last line is dropped)\n"
          "  -j, --jobs N               check with N threads (default: online CPUs)\n"
          "  --shard I/N                only the records whose id hashes to shard I of N (0 <= I < N)\n"
          "  --summary FILE             write the summary as JSON to FILE (- for stdout)\n"
          "  --quiet                    no text summary on stderr\n"
          "  --progress / --no-progress progress bar with rate and ETA on stderr (default: when stderr is a terminal)\n"
          "  --suite FILE               the tasks of the records' task_ids (else: built-in tasks)\n"
          "  --static-only              the static gate only: task ids are not run\n"
          "  --fail-on SEVERITY, --rules FILE, --no-default-rules, --disable ID, --allow-host HOST,\n"
          "  --max-bytes N, --seed N, --property-budget B, --no-properties, --interpreter P\n"
          "                             as for `snipgate check`\n"
          "\n"
          "exit: 0 every record passed, 1 a record was blocked or bad, 2 bad usage or an unreadable PATH,\n"
          "3 the gate could not judge a record (golden stage error) or the run failed (never a pass)\n",
          out);
}

/* ------------------------------------------------------------------------------------------ */
/* Ids already done (resume)                                                                    */

static uint64_t audit__hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot of `id`, or of the empty slot where it would go. */
static size_t audit__seen_slot(const audit__seen *s, const char *id)
{
    size_t i = audit__hash(id) & (s->cap - 1);
    while (s->ids[i] && strcmp(s->ids[i], id))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* One more output line of `id`. */
static int audit__seen_add(audit__seen *s, const char *id)
{
    if (s->cap) {
        size_t i = audit__seen_slot(s, id);
        if (s->ids[i]) {
            s->counts[i]++;
            return 0;
        }
    }
    if ((s->len + 1) * 2 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 1024;
        char **n = calloc(nc, sizeof *n);
        size_t *k = calloc(nc, sizeof *k);
        if (!n || !k) {
            free(n);
            free(k);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->ids[i])
                continue;
            size_t j = audit__hash(s->ids[i]) & (nc - 1);
            while (n[j])
                j = (j + 1) & (nc - 1);
            n[j] = s->ids[i];
            k[j] = s->counts[i];
        }
        free(s->ids);
        free(s->counts);
        s->ids = n;
        s->counts = k;
        s->cap = nc;
    }
    char *dup = strdup(id);
    if (!dup)
        return -1;
    size_t j = audit__seen_slot(s, id);
    s->ids[j] = dup;
    s->counts[j] = 1;
    s->len++;
    return 0;
}

/* Is this record of `id` one the output already holds? Takes one line of it if so. */
static bool audit__seen_take(audit__seen *s, const char *id)
{
    if (!s->cap)
        return false;
    size_t i = audit__seen_slot(s, id);
    if (!s->ids[i] || !s->counts[i])
        return false;
    s->counts[i]--;
    return true;
}

static void audit__seen_free(audit__seen *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->ids[i]);
    free(s->ids);
    free(s->counts);
}

/*
 * Read an existing output file: every complete line must be a verdict line with an id (else
 * refuse: it is not our output). A last line without its newline (a run killed mid-write) is cut
 * off. Returns 0, or an exit code after printing the error.
 */
static int audit__resume(audit__ctx *c, const char *path, size_t *ret_done)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        sg_cli_error("audit", "cannot open %s: %s", path, strerror(errno));
        return SG_EXIT_USAGE;
    }
    struct stat sb;
    if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        close(fd); /* /dev/null, a pipe, a terminal: nothing to resume from, nothing to cut */
        return 0;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return SG_EXIT_INTERNAL;
    }
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    off_t good = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[n - 1] != '\n') {
            fprintf(stderr, "snipgate: audit: note: %s: dropping a torn last line (%zd bytes)\n", path, n);
            break;
        }
        json_error_t je;
        bool nomem;
        json_t *j = sg_json_loadb_guarded(line, (size_t)n, 0, &je, &nomem);
        if (nomem) {
            sg_cli_error("audit", "out of memory reading %s", path);
            rc = SG_EXIT_INTERNAL;
            break;
        }
        /* a line of ours has exactly these: an input file (records with ids and code), or any
         * other JSONL, is refused, never taken as a previous run */
        json_t *id = j ? json_object_get(j, "id") : NULL, *src = j ? json_object_get(j, "source") : NULL;
        json_t *st = j ? json_object_get(j, "status") : NULL, *verdict = j ? json_object_get(j, "verdict") : NULL;
        const char *sv = json_string_value(st);
        if (!json_is_string(id) || !json_is_string(src) || !sv || !json_object_get(j, "error") ||
            !(json_is_object(verdict) || json_is_null(verdict)) ||
            (strcmp(sv, "pass") && strcmp(sv, "block") && strcmp(sv, "error")) || json_object_size(j) != 5) {
            json_decref(j);
            sg_cli_error("audit", "%s:%zu: not a verdict line of snipgate audit (id, source, status, error, "
                                  "verdict): refusing to resume into it or write over it", path, lineno);
            rc = SG_EXIT_USAGE;
            break;
        }
        c->resumed_block += !strcmp(sv, "block");
        c->resumed_error += !strcmp(sv, "error");
        if (audit__seen_add(&c->done_ids, json_string_value(id))) {
            json_decref(j);
            rc = SG_EXIT_INTERNAL;
            break;
        }
        json_decref(j);
        good += n;
        (*ret_done)++;
    }
    free(line);
    if (!rc && ftruncate(fd, good) != 0) {
        sg_cli_error("audit", "cannot truncate %s: %s", path, strerror(errno));
        rc = SG_EXIT_INTERNAL;
    }
    fclose(f);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The reader                                                                                   */

static char *audit__printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *audit__printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}

static void audit__rec_free(audit__rec *r)
{
    free(r->id);
    free(r->source);
    free(r->code);
    free(r->task_id);
    free(r->error);
    free(r->line);
    sg_cli_result_clear(&r->res);
    memset(r, 0, sizeof *r);
}

/* Hand one record to the workers (waits for room in the window). The record's id decides the
 * shard and whether it is already done. Takes ownership of *r. Returns -1 when the run stops. */
static int audit__emit(audit__ctx *c, audit__rec *r)
{
    if (!r->id || !r->source) {
        audit__rec_free(r);
        audit__fail(c);
        return -1;
    }
    bool skip_shard = c->shard_n > 1 && audit__hash(r->id) % c->shard_n != c->shard_i;
    bool skip_done = !skip_shard && audit__seen_take(&c->done_ids, r->id);
    pthread_mutex_lock(&c->lock);
    if (skip_shard || skip_done) {
        c->skipped_shard += skip_shard;
        c->skipped_done += skip_done;
        pthread_mutex_unlock(&c->lock);
        audit__rec_free(r);
        return 0;
    }
    if (c->produced - c->written >= c->cap && !c->stop) {
        /* a full window: wait until half of it is written */
        while (c->produced - c->written > c->cap / 2 && !c->stop)
            pthread_cond_wait(&c->can_produce, &c->lock);
    }
    if (c->stop) {
        pthread_mutex_unlock(&c->lock);
        audit__rec_free(r);
        return -1;
    }
    c->ring[c->produced % c->cap] = *r;
    c->produced++;
    pthread_cond_signal(&c->can_take);
    pthread_mutex_unlock(&c->lock);
    memset(r, 0, sizeof *r);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* A JSONL record, read with yajl's event parser                                                */

/* The fields a record is read for; every other field is skipped, whatever it holds. */
enum { AUDIT_F_ID, AUDIT_F_CODE, AUDIT_F_COMPLETION, AUDIT_F_TASK, AUDIT_F_N };
static const char *const audit__field_names[AUDIT_F_N] = {"id", "code", "completion", "task_id"};

typedef enum { AUDIT_V_ABSENT, AUDIT_V_STRING, AUDIT_V_INT, AUDIT_V_NULL, AUDIT_V_OTHER } audit__vtype;

typedef struct audit__jrec {
    struct {
        audit__vtype type;
        char *s; /* a string's bytes (NUL-terminated; it may hold NULs of its own: "\u0000") */
        size_t len;
        long long i;
    } v[AUDIT_F_N];
    int depth;  /* maps and arrays open; 1 inside the record's object */
    int field;  /* the AUDIT_F_* whose value comes next at depth 1, or -1 */
    bool started, not_object, twice, nomem;
} audit__jrec;

/* A value at `depth` (before it, for a map or an array). */
static int audit__jval(audit__jrec *j, audit__vtype t, const unsigned char *s, size_t n, long long i)
{
    if (j->depth == 0) {
        j->not_object = true; /* a value that is not an object, or a second top-level value */
        return 1;
    }
    if (j->depth != 1 || j->field < 0)
        return 1;
    int f = j->field;
    j->field = -1;
    free(j->v[f].s); /* a field named twice (refused later): its first value */
    j->v[f].s = NULL;
    j->v[f].type = t;
    j->v[f].i = i;
    if (t == AUDIT_V_STRING) {
        if (!(j->v[f].s = malloc(n + 1))) {
            j->nomem = true;
            return 0;
        }
        memcpy(j->v[f].s, s, n);
        j->v[f].s[n] = 0;
        j->v[f].len = n;
    }
    return 1;
}

static int audit__jnull(void *ctx)
{
    return audit__jval(ctx, AUDIT_V_NULL, NULL, 0, 0);
}

static int audit__jbool(void *ctx, int b)
{
    (void)b;
    return audit__jval(ctx, AUDIT_V_OTHER, NULL, 0, 0);
}

static int audit__jint(void *ctx, long long v)
{
    return audit__jval(ctx, AUDIT_V_INT, NULL, 0, v);
}

static int audit__jdouble(void *ctx, double d)
{
    (void)d;
    return audit__jval(ctx, AUDIT_V_OTHER, NULL, 0, 0);
}

static int audit__jstring(void *ctx, const unsigned char *s, size_t n)
{
    return audit__jval(ctx, AUDIT_V_STRING, s, n, 0);
}

static int audit__jopen(audit__jrec *j, bool map)
{
    if (j->depth == 0 && (j->started || !map))
        j->not_object = true;
    j->started = true;
    if (j->depth > 0 && !audit__jval(j, AUDIT_V_OTHER, NULL, 0, 0))
        return 0;
    j->depth++;
    return 1;
}

static int audit__jstart_map(void *ctx)
{
    return audit__jopen(ctx, true);
}

static int audit__jstart_array(void *ctx)
{
    return audit__jopen(ctx, false);
}

static int audit__jend(void *ctx)
{
    audit__jrec *j = ctx;
    j->depth--;
    return 1;
}

static int audit__jkey(void *ctx, const unsigned char *s, size_t n)
{
    audit__jrec *j = ctx;
    if (j->depth != 1)
        return 1;
    j->field = -1;
    for (int f = 0; f < AUDIT_F_N; f++) {
        if (strlen(audit__field_names[f]) == n && !memcmp(audit__field_names[f], s, n)) {
            /* a record naming one of them twice is ambiguous (which code was meant?) */
            if (j->v[f].type != AUDIT_V_ABSENT)
                j->twice = true;
            j->field = f;
        }
    }
    return 1;
}

static const yajl_callbacks audit__jcallbacks = {
    .yajl_null = audit__jnull,
    .yajl_boolean = audit__jbool,
    .yajl_integer = audit__jint,
    .yajl_double = audit__jdouble,
    .yajl_string = audit__jstring,
    .yajl_start_map = audit__jstart_map,
    .yajl_map_key = audit__jkey,
    .yajl_end_map = audit__jend,
    .yajl_start_array = audit__jstart_array,
    .yajl_end_array = audit__jend,
};

/* yajl 2.1.0's parser writes through an allocation that failed (its string and state buffers):
 * out of memory, the process ends here rather than read a record through a corrupted heap (it
 * never passes anything: the run exits by the signal). jansson's loader, used before, wrote past
 * a buffer in the same case. */
static void *audit__jmalloc(void *ctx, size_t n)
{
    (void)ctx;
    void *p = malloc(n);
    if (!p) {
        fputs("snipgate: audit: out of memory reading a record\n", stderr);
        abort();
    }
    return p;
}

static void *audit__jrealloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    void *q = realloc(p, n);
    if (!q && n) {
        fputs("snipgate: audit: out of memory reading a record\n", stderr);
        abort();
    }
    return q;
}

static void audit__jfree(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static const yajl_alloc_funcs audit__jalloc = {audit__jmalloc, audit__jrealloc, audit__jfree, NULL};

/* Parse one line: 0, or an error message (malloc'd) for a line that is not one JSON value. j's
 * strings are the caller's to free (audit__jrec_clear) either way. */
static char *audit__jparse(audit__jrec *j, const char *text, size_t len)
{
    memset(j, 0, sizeof *j);
    j->field = -1;
    yajl_alloc_funcs af = audit__jalloc; /* (yajl_alloc takes it non-const) */
    yajl_handle h = yajl_alloc(&audit__jcallbacks, &af, j);
    if (!h) {
        j->nomem = true;
        return NULL;
    }
    yajl_status st = yajl_parse(h, (const unsigned char *)text, len);
    size_t at = yajl_get_bytes_consumed(h); /* where the parse stopped, or the end */
    if (st == yajl_status_ok) {
        st = yajl_complete_parse(h);
        at = len;
    }
    char *err = NULL;
    if (st == yajl_status_error) {
        /* yajl's message ("lexical error: invalid char in json text."), and where */
        unsigned char *m = yajl_get_error(h, 0, (const unsigned char *)text, len);
        size_t ml = m ? strcspn((const char *)m, "\n") : 0;
        while (ml && (m[ml - 1] == '.' || m[ml - 1] == ' '))
            ml--;
        err = audit__printf("invalid JSON: %.*s (at byte %zu)", (int)ml, m ? (const char *)m : "", at);
        if (m)
            yajl_free_error(h, m);
        if (!err)
            j->nomem = true;
    }
    yajl_free(h);
    return err;
}

static void audit__jrec_clear(audit__jrec *j)
{
    for (int f = 0; f < AUDIT_F_N; f++)
        free(j->v[f].s);
}

/* An id from a record's field: a string (up to a NUL it holds), or an integer's text. NULL if
 * neither (or out of memory: *nomem). */
static char *audit__id_text(const audit__jrec *j, int f, bool *nomem)
{
    char *s = NULL;
    if (j->v[f].type == AUDIT_V_STRING)
        s = strdup(j->v[f].s);
    else if (j->v[f].type == AUDIT_V_INT)
        s = audit__printf("%lld", j->v[f].i);
    else
        return NULL;
    if (!s)
        *nomem = true;
    return s;
}

/* Does the line hold a "\uD800"-"\uDFFF" escape (half of a surrogate pair, or a lone one)? A
 * literal "\\uD800" counts too: it only sends the line through the slower check. */
static bool audit__has_surrogate_escape(const char *s, size_t n)
{
    for (const char *p = s, *end = s + n; (p = memchr(p, '\\', (size_t)(end - p))) && end - p >= 4; p++)
        if (p[1] == 'u' && (p[2] == 'd' || p[2] == 'D') && strchr("89abcdefABCDEF", p[3]) && p[3])
            return true;
    return false;
}

/* One JSONL line into a record (never fails but for out of memory: a bad line is an error record). */
static void audit__parse_line(audit__ctx *c, const char *file, size_t lineno, const char *text, size_t len,
                              bool too_long, audit__rec *r)
{
    memset(r, 0, sizeof *r);
    r->source = audit__printf("%s:%zu", file, lineno);
    if (too_long) {
        r->id = audit__printf("%s:%zu", file, lineno);
        r->error = audit__printf("record larger than the limit (--max-bytes %zu, JSON escapes counted)",
                                 c->pipe.opts.max_bytes);
        return;
    }
    audit__jrec j;
    char *bad = audit__jparse(&j, text, len);
    if (!bad && !j.nomem && audit__has_surrogate_escape(text, len)) {
        /* yajl writes '?' for an unpaired surrogate escape: the code judged would not be the
         * code given. jansson's loader refuses it, as it always has. */
        json_error_t je;
        bool chk_nomem;
        json_t *chk = sg_json_loadb_guarded(text, len, JSON_ALLOW_NUL, &je, &chk_nomem);
        if (chk_nomem || (!chk && !(bad = audit__printf("invalid JSON: %s", je.text))))
            j.nomem = true;
        json_decref(chk);
    }
    bool nomem = j.nomem;
    if (bad || j.not_object || nomem) {
        r->id = audit__printf("%s:%zu", file, lineno);
        r->error = bad ? bad : nomem ? NULL : strdup("a record must be a JSON object");
        if (nomem) { /* the run stops (audit__emit) */
            free(r->id);
            r->id = NULL;
        }
        audit__jrec_clear(&j);
        return;
    }
    if (j.twice) {
        r->id = audit__printf("%s:%zu", file, lineno);
        r->error = strdup("a record names id, code, completion or task_id twice");
        audit__jrec_clear(&j);
        return;
    }
    bool has_code = j.v[AUDIT_F_CODE].type != AUDIT_V_ABSENT, has_comp = j.v[AUDIT_F_COMPLETION].type != AUDIT_V_ABSENT;
    audit__vtype tt = j.v[AUDIT_F_TASK].type;
    if (tt != AUDIT_V_ABSENT && tt != AUDIT_V_NULL && !(r->task_id = audit__id_text(&j, AUDIT_F_TASK, &nomem)))
        r->error = strdup("task_id must be a string or an integer");
    if (j.v[AUDIT_F_ID].type != AUDIT_V_ABSENT) {
        if (!(r->id = audit__id_text(&j, AUDIT_F_ID, &nomem)) && !r->error)
            r->error = strdup("id must be a string or an integer");
    } else if (!has_code && has_comp && r->task_id) {
        /* a HumanEval sample: TASK_ID/N, N its index among that task's samples in the input */
        json_t *cnt = json_object_get(c->sample_counts, r->task_id);
        json_int_t k = cnt ? json_integer_value(cnt) : 0;
        if (json_object_set_new(c->sample_counts, r->task_id, json_integer(k + 1)))
            nomem = true;
        r->id = audit__printf("%s/%lld", r->task_id, (long long)k);
    }
    if (!r->id && !nomem)
        r->id = audit__printf("%s:%zu", file, lineno);
    if (!r->error && !nomem) {
        int f = has_code ? AUDIT_F_CODE : AUDIT_F_COMPLETION;
        if (!has_code && !has_comp)
            r->error = strdup("missing field code (or task_id and completion)");
        else if (j.v[f].type != AUDIT_V_STRING)
            r->error = audit__printf("%s must be a string", has_code ? "code" : "completion");
        else if (j.v[f].len > c->pipe.opts.max_bytes)
            r->error = audit__printf("code of %zu bytes is larger than --max-bytes %zu", j.v[f].len,
                                     c->pipe.opts.max_bytes);
        else if (!has_code && !r->task_id)
            r->error = strdup("a completion needs its task_id");
        else {
            r->len = j.v[f].len;
            r->code = j.v[f].s; /* taken */
            j.v[f].s = NULL;
            r->completion = !has_code;
        }
    }
    if (nomem) { /* the run stops (audit__emit) */
        free(r->id);
        r->id = NULL;
    }
    audit__jrec_clear(&j);
}

/*
 * A JSONL stream read by lines on its descriptor: memchr finds each newline in a 256 KiB buffer
 * (getc per byte was a third of the reader's instructions). read() returns what a pipe holds, so
 * a stdin stage gets each line as soon as it is whole.
 */
typedef struct audit__in {
    int fd;
    char *buf;
    size_t start, end, cap;
    int err; /* errno of a failed read, 0 */
} audit__in;

/*
 * Read one line of at most `cap` bytes into *buf (grown as needed, without the newline). A longer
 * line is consumed and reported with *too_long. Returns -1 at end of file (or a read error, in
 * in->err), -2 when out of memory.
 */
static int audit__getline(audit__in *in, size_t cap, char **buf, size_t *bufcap, size_t *len, bool *too_long,
                          size_t *consumed)
{
    size_t n = 0;
    bool any = false;
    *too_long = false;
    for (;;) {
        if (in->start == in->end) {
            ssize_t r;
            do
                r = read(in->fd, in->buf, in->cap);
            while (r < 0 && errno == EINTR);
            if (r <= 0) {
                if (r < 0)
                    in->err = errno;
                break;
            }
            in->start = 0;
            in->end = (size_t)r;
        }
        const char *p = in->buf + in->start;
        size_t avail = in->end - in->start;
        const char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        any = true;
        *consumed += take + (nl != NULL);
        in->start += take + (nl != NULL);
        size_t room = n < cap ? cap - n : 0;
        size_t k = take < room ? take : room;
        if (take > room)
            *too_long = true;
        if (k) {
            if (n + k + 1 > *bufcap) {
                size_t nc = *bufcap ? *bufcap : 4096;
                while (nc < n + k + 1)
                    nc *= 2;
                char *g = realloc(*buf, nc);
                if (!g)
                    return -2;
                *buf = g;
                *bufcap = nc;
            }
            memcpy(*buf + n, p, k);
            n += k;
        }
        if (nl)
            break;
    }
    if (!any)
        return -1;
    if (*buf)
        (*buf)[n] = 0;
    *len = n;
    return 0;
}

static int audit__read_jsonl(audit__ctx *c, int fd, const char *label)
{
    audit__in in = {.fd = fd, .cap = 256 * 1024};
    if (!(in.buf = malloc(in.cap))) {
        audit__fail(c);
        return -1;
    }
    char *buf = NULL;
    size_t bufcap = 0, len = 0, lineno = 0;
    bool too_long;
    /* a record's line: its code, JSON-escaped (up to 6 bytes a byte), and the other fields */
    size_t cap = c->pipe.opts.max_bytes > (SIZE_MAX - 65536) / 6 ? SIZE_MAX / 2 : c->pipe.opts.max_bytes * 6 + 65536;
    int rc = 0;
    for (;;) {
        size_t consumed = 0;
        int g = audit__getline(&in, cap, &buf, &bufcap, &len, &too_long, &consumed);
        if (g == -1)
            break;
        if (g == -2) {
            audit__fail(c);
            rc = -1;
            break;
        }
        lineno++;
        pthread_mutex_lock(&c->lock);
        c->bytes_read += consumed;
        pthread_mutex_unlock(&c->lock);
        if (!too_long && strspn(buf ? buf : "", " \t\r") == len)
            continue; /* blank lines are no records */
        audit__rec r;
        audit__parse_line(c, label, lineno, buf ? buf : "", len, too_long, &r);
        if ((rc = audit__emit(c, &r)))
            break;
    }
    if (!rc && in.err) {
        audit__rec r = {.id = audit__printf("%s:%zu", label, lineno + 1), .source = audit__printf("%s", label),
                        .error = audit__printf("read error: %s", strerror(in.err))};
        rc = audit__emit(c, &r);
    }
    free(in.buf);
    free(buf);
    return rc;
}

static int audit__read_py(audit__ctx *c, const char *path, bool walked)
{
    audit__rec r = {.id = strdup(path), .source = strdup(path), .walked = walked};
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_read_input(path, c->pipe.opts.max_bytes, &r.code, &r.len, &d);
    if (st != SG_OK)
        r.error = audit__printf("%s", d.message[0] ? d.message : sg_strerror(st));
    struct stat sb;
    if (stat(path, &sb) == 0) {
        pthread_mutex_lock(&c->lock);
        c->bytes_read += (unsigned long long)sb.st_size;
        pthread_mutex_unlock(&c->lock);
    }
    return audit__emit(c, &r);
}

static bool audit__is_jsonl(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (!strcmp(dot, ".jsonl") || !strcmp(dot, ".json") || !strcmp(dot, ".ndjson"));
}

/* Every *.py below dir, in sorted order, symlinks not followed (as `check` walks). With `count`,
 * only add up sizes for the ETA. */
static int audit__walk(audit__ctx *c, const char *dir, int depth, bool count)
{
    if (depth > 64)
        return 0;
    char **names = NULL;
    size_t n = 0;
    int rc = sg_cli_dir_names(dir, &names, &n);
    if (rc == -1) {
        if (count)
            return 0;
        audit__rec r = {.id = strdup(dir), .source = strdup(dir),
                        .error = audit__printf("cannot read directory: %s", strerror(errno))};
        return audit__emit(c, &r);
    }
    if (rc)
        audit__fail(c);
    for (size_t i = 0; i < n && !rc; i++) {
        char *p = audit__printf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (!p) {
            audit__fail(c);
            rc = -1;
            break;
        }
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && names[i][0] != '.') {
            rc = audit__walk(c, p, depth + 1, count);
        } else if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            const char *dot = strrchr(names[i], '.');
            if (dot && (!strcmp(dot, ".py") || !strcmp(dot, ".pyw"))) {
                if (count)
                    c->bytes_total += (unsigned long long)st.st_size;
                else
                    rc = audit__read_py(c, p, true);
            }
        }
        free(p);
    }
    sg_cli_free_names(names, n);
    return rc;
}

static void *audit__reader(void *arg)
{
    audit__ctx *c = arg;
    int rc = 0;
    if (c->use_stdin)
        rc = audit__read_jsonl(c, STDIN_FILENO, "<stdin>");
    for (size_t i = 0; i < c->npaths && !rc; i++) {
        const char *p = c->paths[i];
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = audit__walk(c, p, 0, false);
        } else if (audit__is_jsonl(p)) {
            int fd = open(p, O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                audit__rec r = {.id = strdup(p), .source = strdup(p),
                                .error = audit__printf("cannot read: %s", strerror(errno))};
                rc = audit__emit(c, &r);
                continue;
            }
            rc = audit__read_jsonl(c, fd, p);
            close(fd);
        } else {
            rc = audit__read_py(c, p, false);
        }
    }
    pthread_mutex_lock(&c->lock);
    c->eof = true;
    pthread_cond_broadcast(&c->can_take);
    pthread_cond_broadcast(&c->can_write);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Workers                                                                                      */

/* The output line of a judged (or bad) record. NULL when out of memory. */
static char *audit__line(const audit__rec *r)
{
    const char *status;
    const char *error = NULL;
    if (r->error) {
        status = "error";
        error = r->error;
    } else {
        status = sg_cli_outcome_name(r->res.outcome);
        if (r->res.outcome == SG_CLI_BAD_INPUT || r->res.outcome == SG_CLI_ERROR)
            error = r->res.message[0] ? r->res.message : "the record could not be judged";
    }
    return sg_render_record_line(r->id, r->source, status, error,
                                 !r->error && r->res.json ? r->res.json : NULL);
}

/* Under the lock: whether the writer has lines to write now. It is woken for a batch, not for
 * every line (a wake-up per line cost a context switch and a flush per record): when the head of
 * the window is done and either no record is waiting for a worker (the workers idle: a slow
 * stdin stream gets every line at once), a quarter of the window is taken and not yet written
 * (the reader waits for room), the input has ended, or a record that ran in the sandbox is done
 * (its line, seconds in the making, is not held back for a batch of others). */
static bool audit__writable(const audit__ctx *c)
{
    if (c->written == c->produced || !c->ring[c->written % c->cap].done)
        return false;
    return c->taken == c->produced || c->taken - c->written >= c->cap / 4 || c->eof || c->stop ||
           c->slow_pending;
}

/* Whether s is strict UTF-8, as jansson (which writes the line) holds its strings to. Out of
 * memory reads as "no": the record becomes an error line, never a pass. */
static bool audit__utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p && *p < 0x80)
        p++;
    if (!*p)
        return true; /* ASCII, the common case: no allocation */
    json_t *j = json_string(s);
    bool ok = j != NULL;
    json_decref(j);
    return ok;
}

static void *audit__worker(void *arg)
{
    audit__ctx *c = arg;
    sg_checker *checker = NULL;
    sg_status cst = sg_cli_pipeline_checker(&c->pipe, &checker);
    sg_golden_pool *pool = NULL; /* this thread's warm sandboxes (records with a task_id) */
    if (cst == SG_OK)
        cst = sg_golden_pool_new(&pool);
    for (;;) {
        pthread_mutex_lock(&c->lock);
        while (c->taken == c->produced && !c->eof && !c->stop)
            pthread_cond_wait(&c->can_take, &c->lock);
        if (c->stop || c->taken == c->produced) {
            pthread_mutex_unlock(&c->lock);
            break;
        }
        size_t seq = c->taken++;
        audit__rec *r = &c->ring[seq % c->cap];
        pthread_mutex_unlock(&c->lock);

        bool bad_name = !r->error && (!audit__utf8(r->id) || !audit__utf8(r->source));
        if (bad_name || (!r->error && cst != SG_OK)) {
            /* nothing is judged. The outcome says so even if the message cannot be allocated (a
             * zeroed result would read as a pass). A name that is not UTF-8 is a path's (JSON
             * input is UTF-8): its line could not name it. */
            r->res.outcome = SG_CLI_ERROR;
            snprintf(r->res.message, sizeof r->res.message, "%s",
                     bad_name ? "the record's id or path is not valid UTF-8" : "the checker could not be made");
            r->error = bad_name ? audit__printf("%s", r->res.message)
                                : audit__printf("the checker could not be made: %s", sg_strerror(cst));
        } else if (!r->error) {
            sg_cli_request req = {.name = r->id, .code = r->code, .len = r->len, .task_id = r->task_id,
                                  .completion = r->completion, .empty_passes = r->walked, .pool = pool};
            if (sg_cli_pipeline_run(&c->pipe, checker, &req, &r->res) != SG_OK)
                r->res.outcome = SG_CLI_ERROR;
        }
        r->line = audit__line(r);
        bool slow = !r->error && r->res.golden && strcmp(r->res.golden, "not_run") && strcmp(r->res.golden, "skipped");
        pthread_mutex_lock(&c->lock);
        r->done = true;
        r->slow = slow;
        c->slow_pending += slow;
        if (c->writer_waiting && audit__writable(c))
            pthread_cond_signal(&c->can_write);
        pthread_mutex_unlock(&c->lock);
    }
    sg_golden_pool_free(pool);
    sg_checker_free(checker);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Summary                                                                                      */

typedef struct audit__sum {
    size_t records, pass, block, bad, errors;
    size_t static_blocked;
    size_t golden_pass, golden_fail, golden_error, golden_skipped;
    audit__rulecount *rules;
    size_t nrules;
    audit__worst worst[AUDIT_WORST];
    size_t nworst;
    sg_cli_contracts contracts; /* of the records judged (bad records are not) */
} audit__sum;

static int audit__sum_add(audit__sum *s, const audit__rec *r)
{
    s->records++;
    if (r->error || r->res.outcome == SG_CLI_BAD_INPUT) {
        s->bad++;
        return 0;
    }
    switch (r->res.outcome) {
    case SG_CLI_PASS: s->pass++; break;
    case SG_CLI_BLOCK: s->block++; break;
    default: s->errors++; break;
    }
    if (r->res.findings)
        s->static_blocked++;
    sg_cli_contracts_add(&s->contracts, &r->res);
    const char *g = r->res.golden;
    s->golden_pass += !strcmp(g, "pass");
    s->golden_fail += !strcmp(g, "fail");
    s->golden_error += !strcmp(g, "error");
    s->golden_skipped += !strcmp(g, "skipped");
    for (size_t i = 0; i < r->res.nrules; i++) {
        size_t k = 0;
        while (k < s->nrules && strcmp(s->rules[k].rule, r->res.rules[i]))
            k++;
        if (k == s->nrules) {
            audit__rulecount *g2 = realloc(s->rules, (s->nrules + 1) * sizeof *g2);
            if (!g2)
                return -1;
            s->rules = g2;
            if (!(s->rules[k].rule = strdup(r->res.rules[i])))
                return -1;
            s->rules[k].n = 0;
            s->nrules++;
        }
        s->rules[k].n++;
    }
    /* the worst records: what a rule found (not only SG001/SG002: a file the gate could not
     * check, critical as that is, is no danger found), then the highest severity, then most
     * blocking findings; ties keep input order */
    if (!r->res.findings)
        return 0;
    bool dangerous = false;
    for (size_t i = 0; i < r->res.nrules && !dangerous; i++)
        dangerous = strcmp(r->res.rules[i], "SG001") && strcmp(r->res.rules[i], "SG002");
    size_t pos = s->nworst;
    while (pos > 0 && (s->worst[pos - 1].dangerous < dangerous ||
                       (s->worst[pos - 1].dangerous == dangerous &&
                        (s->worst[pos - 1].sev < r->res.max_severity ||
                         (s->worst[pos - 1].sev == r->res.max_severity && s->worst[pos - 1].findings < r->res.findings)))))
        pos--;
    if (pos >= AUDIT_WORST)
        return 0;
    if (s->nworst == AUDIT_WORST) {
        free(s->worst[AUDIT_WORST - 1].id);
        free(s->worst[AUDIT_WORST - 1].rules);
        s->nworst--;
    }
    memmove(&s->worst[pos + 1], &s->worst[pos], (s->nworst - pos) * sizeof s->worst[0]);
    s->nworst++;
    char rules[200] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->res.nrules && used + 1 < sizeof rules; i++) {
        if (strstr(rules, r->res.rules[i]))
            continue;
        int w = snprintf(rules + used, sizeof rules - used, "%s%s", used ? "," : "", r->res.rules[i]);
        if (w < 0 || (size_t)w >= sizeof rules - used)
            break;
        used += (size_t)w;
    }
    s->worst[pos] = (audit__worst){strdup(r->id), dangerous, r->res.max_severity, r->res.findings, strdup(rules)};
    return s->worst[pos].id && s->worst[pos].rules ? 0 : -1;
}

static int audit__by_count(const void *a, const void *b)
{
    const audit__rulecount *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

static json_t *audit__sum_json(const audit__sum *s, const audit__ctx *c, size_t resumed, double ms)
{
    json_t *rules = json_object(), *worst = json_array();
    for (size_t i = 0; i < s->nrules && rules; i++)
        json_object_set_new(rules, s->rules[i].rule, json_integer((json_int_t)s->rules[i].n));
    for (size_t i = 0; i < s->nworst && worst; i++)
        json_array_append_new(worst, json_pack("{s:s, s:s, s:I, s:s}", "id", s->worst[i].id, "severity",
                                               sg_severity_name((sg_severity)s->worst[i].sev), "findings",
                                               (json_int_t)s->worst[i].findings, "rules", s->worst[i].rules));
    json_t *contracts = sg_cli_contracts_json(&s->contracts);
    return json_pack("{s:I, s:{s:I, s:I, s:I}, s:I, s:I, s:I, s:I, s:I, s:o, s:{s:I, s:{s:I, s:I, s:I, s:I}}, s:o, "
                     "s:o, s:f, s:f}",
                     "records", (json_int_t)s->records, "by_status", "pass", (json_int_t)s->pass, "block",
                     (json_int_t)s->block, "error", (json_int_t)(s->bad + s->errors), "bad_records",
                     (json_int_t)s->bad, "gate_errors", (json_int_t)s->errors, "skipped_done",
                     (json_int_t)c->skipped_done, "resumed_lines", (json_int_t)resumed, "skipped_shard", (json_int_t)c->skipped_shard,
                     "by_rule", rules ? rules : json_null(), "by_stage", "static_blocked",
                     (json_int_t)s->static_blocked, "golden", "pass", (json_int_t)s->golden_pass, "fail",
                     (json_int_t)s->golden_fail, "error", (json_int_t)s->golden_error, "skipped",
                     (json_int_t)s->golden_skipped, "worst", worst ? worst : json_null(), "contracts",
                     contracts ? contracts : json_null(), "elapsed_s", ms / 1000,
                     "records_per_s", ms > 0 ? (double)s->records / (ms / 1000) : 0.0);
}

static void audit__sum_text(FILE *out, const audit__sum *s, const audit__ctx *c, double ms)
{
    fprintf(out, "snipgate audit: %zu records in %.1f s (%.0f/s): %zu pass, %zu block, %zu error (%zu bad records, "
                 "%zu gate errors)\n",
            s->records, ms / 1000, ms > 0 ? (double)s->records / (ms / 1000) : 0.0, s->pass, s->block,
            s->bad + s->errors, s->bad, s->errors);
    if (c->skipped_done || c->skipped_shard)
        fprintf(out, "  skipped: %zu already in the output, %zu in other shards\n", c->skipped_done, c->skipped_shard);
    fprintf(out, "  stages: static gate blocked %zu; golden: %zu pass, %zu fail, %zu error, %zu skipped\n",
            s->static_blocked, s->golden_pass, s->golden_fail, s->golden_error, s->golden_skipped);
    sg_cli_contracts_text(out, "  ", &s->contracts);
    if (s->nrules) {
        fprintf(out, "  by rule:");
        for (size_t i = 0; i < s->nrules && i < 15; i++)
            fprintf(out, " %s %zu", s->rules[i].rule, s->rules[i].n);
        fprintf(out, "%s\n", s->nrules > 15 ? " ..." : "");
    }
    for (size_t i = 0; i < s->nworst; i++)
        fprintf(out, "  worst %zu: %s (%s, %zu blocking findings: %s)\n", i + 1, s->worst[i].id,
                sg_severity_name((sg_severity)s->worst[i].sev), s->worst[i].findings, s->worst[i].rules);
}

static void audit__sum_free(audit__sum *s)
{
    for (size_t i = 0; i < s->nrules; i++)
        free(s->rules[i].rule);
    free(s->rules);
    for (size_t i = 0; i < s->nworst; i++) {
        free(s->worst[i].id);
        free(s->worst[i].rules);
    }
}

static void audit__progress(audit__ctx *c, size_t done, double t0, bool final)
{
    double el = (sg_cli_now_ms() - t0) / 1000;
    double rate = el > 0 ? (double)done / el : 0;
    pthread_mutex_lock(&c->lock);
    unsigned long long br = c->bytes_read, bt = c->bytes_total;
    pthread_mutex_unlock(&c->lock);
    char eta[32] = "?";
    double frac = bt ? (double)br / (double)bt : 0;
    if (frac > 1)
        frac = 1;
    if (bt && frac > 0.001 && el > 0.5) {
        long s = (long)(el / frac - el);
        snprintf(eta, sizeof eta, "%ld:%02ld", s / 60, s % 60);
    }
    char bar[31];
    int fill = bt ? (int)(frac * 30) : 0;
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %3.0f%% %zu records %.0f/s ETA %s   %s", bar, frac * 100, done, rate,
            final ? "0:00" : eta, final ? "\n" : "");
    fflush(stderr);
}

/* ------------------------------------------------------------------------------------------ */

enum {
    OPT_SHARD = 1000, OPT_SUMMARY, OPT_QUIET, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_STATIC_ONLY, OPT_FAIL_ON,
    OPT_MAX_BYTES,
};

int sg_cli_audit(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"jobs", required_argument, NULL, 'j'},
        {"shard", required_argument, NULL, OPT_SHARD}, {"summary", required_argument, NULL, OPT_SUMMARY},
        {"quiet", no_argument, NULL, OPT_QUIET}, {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS}, {"static-only", no_argument, NULL, OPT_STATIC_ONLY},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON}, {"rules", required_argument, NULL, 'R'},
        {"no-default-rules", no_argument, NULL, 'N'}, {"disable", required_argument, NULL, 'D'},
        {"allow-host", required_argument, NULL, 'A'}, {"max-bytes", required_argument, NULL, OPT_MAX_BYTES},
        SG_CLI_GOLDEN_LONGOPTS, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    audit__ctx c;
    memset(&c, 0, sizeof c);
    sg_options_init(&c.pipe.opts);
    sg_cli_golden_init(&c.pipe.golden);
    bool no_default = false, quiet = false;
    int progress = -1;
    char **packs = NULL, **disables = NULL, **hosts = NULL;
    size_t npacks = 0, ndisables = 0, nhosts = 0;
    sg_rules *rules = NULL;
    sg_golden_suite *suite = NULL;
    sg_sandbox *sandbox = NULL;
    const char *output = NULL, *summary_path = NULL;
    FILE *out = stdout;
    int rc = SG_EXIT_USAGE;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN), jobs = nproc > 0 ? nproc : 1;
    pthread_t reader, tids[AUDIT_MAX_JOBS];
    long started = 0;
    bool reader_started = false, sync_made = false, write_failed = false;
    audit__sum sum;
    memset(&sum, 0, sizeof sum);
    size_t resumed = 0;

    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, ":o:j:h", longopts, NULL)) != -1) {
        unsigned long ul;
        long l;
        switch (ch) {
        case 'o': output = optarg; break;
        case 'j':
            if (sg_cli_parse_long(optarg, 1, AUDIT_MAX_JOBS, &l)) {
                sg_cli_error("audit", "--jobs must be from 1 to %d (got '%s')", AUDIT_MAX_JOBS, optarg);
                goto out_free;
            }
            jobs = l;
            break;
        case OPT_SHARD: {
            char *slash = strchr(optarg, '/'), ibuf[32];
            if (!slash || (size_t)(slash - optarg) >= sizeof ibuf) {
                sg_cli_error("audit", "--shard must be I/N with 0 <= I < N (got '%s')", optarg);
                goto out_free;
            }
            memcpy(ibuf, optarg, (size_t)(slash - optarg));
            ibuf[slash - optarg] = 0;
            if (sg_cli_parse_ulong(ibuf, 1000000, &c.shard_i) || sg_cli_parse_ulong(slash + 1, 1000000, &c.shard_n) ||
                c.shard_n == 0 || c.shard_i >= c.shard_n) {
                sg_cli_error("audit", "--shard must be I/N with 0 <= I < N <= 1000000 (got '%s')", optarg);
                goto out_free;
            }
            break;
        }
        case OPT_SUMMARY: summary_path = optarg; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_PROGRESS: progress = 1; break;
        case OPT_NO_PROGRESS: progress = 0; break;
        case OPT_STATIC_ONLY: c.pipe.static_only = true; break;
        case OPT_FAIL_ON:
            if (sg_severity_parse(optarg, &c.pipe.opts.fail_on)) {
                sg_cli_error("audit", "--fail-on must be low, medium, high or critical (got '%s')", optarg);
                goto out_free;
            }
            break;
        case OPT_MAX_BYTES:
            if (sg_cli_parse_ulong(optarg, 1UL << 31, &ul) || ul == 0) {
                sg_cli_error("audit", "--max-bytes must be from 1 to %lu (got '%s')", 1UL << 31, optarg);
                goto out_free;
            }
            c.pipe.opts.max_bytes = ul;
            break;
        case 'R': case 'N': case 'D': case 'A':
            if ((rc = sg_cli_rules_opt(ch, optarg, &no_default, &packs, &npacks, &disables, &ndisables, &hosts,
                                       &nhosts)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case SG_OPT_TASK: case SG_OPT_TESTS: case SG_OPT_COMPLETION: case SG_OPT_WHOLE_PROGRAM:
            sg_cli_error("audit", "'%s' is not an audit option: records carry their task_id (see --help)",
                         argv[optind - 1]);
            goto out_free;
        case SG_OPT_SUITE: case SG_OPT_SEED: case SG_OPT_BUDGET: case SG_OPT_NO_PROPERTIES: case SG_OPT_INTERPRETER:
            if ((rc = sg_cli_golden_opt("audit", &c.pipe.golden, ch, optarg)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case 'h':
            audit__help(stdout);
            rc = SG_EXIT_PASS;
            goto out_free;
        case ':':
            sg_cli_error("audit", "option '%s' needs a value", argv[optind - 1]);
            goto out_free;
        default:
            sg_cli_error("audit", "unknown option '%s' (see snipgate audit --help)", argv[optind - 1]);
            goto out_free;
        }
    }
    /* inputs: every PATH must exist now (a file that vanishes later is an error record) */
    c.paths = argv + optind;
    c.npaths = (size_t)(argc - optind);
    if (c.npaths == 0)
        c.use_stdin = true;
    for (size_t i = 0; i < c.npaths; i++) {
        struct stat st;
        if (!strcmp(c.paths[i], "-")) {
            if (c.npaths != 1) {
                sg_cli_error("audit", "stdin (-) is read alone, not with other paths");
                goto out_free;
            }
            c.use_stdin = true;
            c.npaths = 0;
            break;
        }
        if (stat(c.paths[i], &st) != 0) {
            sg_cli_error("audit", "cannot read %s: %s", c.paths[i], strerror(errno));
            goto out_free;
        }
        if (S_ISDIR(st.st_mode))
            audit__walk(&c, c.paths[i], 0, true);
        else
            c.bytes_total += (unsigned long long)st.st_size;
    }
    if (c.pipe.golden.suite_path && (rc = sg_cli_load_suite("audit", c.pipe.golden.suite_path, &suite)))
        goto out_free;
    rc = SG_EXIT_USAGE;
    if ((rc = sg_cli_build_rules("audit", no_default, packs, npacks, disables, ndisables, hosts, nhosts, c.pipe.opts.max_bytes, &rules)))
        goto out_free;
    rc = SG_EXIT_INTERNAL;
    c.pipe.rules = rules;
    c.pipe.suite = suite;
    if (!c.pipe.static_only) {
        /* the sandbox is made once; a record without a task never uses it */
        sg_diag sd;
        sg_diag_init(&sd);
        sg_status sst = sg_sandbox_new(c.pipe.golden.interpreter, &sandbox, &sd);
        if (sst == SG_ERR_INVALID_ARG) {
            sg_cli_error("audit", "--interpreter: %s", sd.message[0] ? sd.message : sg_strerror(sst));
            rc = SG_EXIT_USAGE;
            goto out_free;
        }
        if (sst != SG_OK) {
            snprintf(c.pipe.sandbox_error, sizeof c.pipe.sandbox_error, "the sandbox could not be set up: %s: %s",
                     sg_strerror(sst), sd.message[0] ? sd.message : "no detail");
            sandbox = NULL;
        }
        c.pipe.sandbox = sandbox;
    }
    if (output) {
        if ((rc = audit__resume(&c, output, &resumed)))
            goto out_free;
        rc = SG_EXIT_INTERNAL;
        if (!(out = fopen(output, "ae"))) {
            sg_cli_error("audit", "cannot write %s: %s", output, strerror(errno));
            out = stdout;
            rc = SG_EXIT_USAGE;
            goto out_free;
        }
    }
    /* glibc takes a size only with a buffer (without one it keeps st_blksize, 4 KiB); static, as
     * stdout outlives this call */
    static char out_buf[1u << 18];
    setvbuf(out, out_buf, _IOFBF, sizeof out_buf);
    /* a pipe or a terminal gets its lines as they are ready (a stdin-to-stdout stage streams); a
     * regular file, whole buffers (flushed at every wait, 20,000 records took 6,900 writes) */
    struct stat out_st;
    bool stream = fstat(fileno(out), &out_st) != 0 || !S_ISREG(out_st.st_mode);
    if (!(c.sample_counts = json_object()))
        goto out_nomem;
    c.cap = (size_t)jobs * 64;
    if (!(c.ring = calloc(c.cap, sizeof *c.ring)))
        goto out_nomem;
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.can_produce, NULL);
    pthread_cond_init(&c.can_take, NULL);
    pthread_cond_init(&c.can_write, NULL);
    sync_made = true;
    signal(SIGPIPE, SIG_IGN);
    bool show = progress == 1 || (progress < 0 && isatty(STDERR_FILENO));
    double t0 = sg_cli_now_ms(), last = t0;
    if (pthread_create(&reader, NULL, audit__reader, &c) != 0)
        goto out_nomem;
    reader_started = true;
    for (long i = 0; i < jobs; i++) {
        if (pthread_create(&tids[i], NULL, audit__worker, &c) != 0)
            break;
        started++;
    }
    if (!started) {
        sg_cli_error("audit", "cannot start a worker thread");
        pthread_mutex_lock(&c.lock);
        c.stop = true;
        pthread_cond_broadcast(&c.can_produce);
        pthread_mutex_unlock(&c.lock);
        goto out_join;
    }
    /* the writer: lines in input order, as each becomes ready. Lines go through stdio's buffer,
     * flushed whenever the writer would wait when streaming, and at the end; a killed run leaves
     * whole lines and at most one torn last line, which a resume drops. */
    write_failed = false;
    bool dirty = false;
    bool batch = false; /* a line was just written: write on while lines are done */
    for (;;) {
        pthread_mutex_lock(&c.lock);
        /* a batch, then every line after it that is done (see audit__writable) */
        while (!(batch ? c.written < c.produced && c.ring[c.written % c.cap].done : audit__writable(&c)) &&
               !(c.eof && c.written == c.produced)) {
            batch = false;
            if (dirty && stream) {
                pthread_mutex_unlock(&c.lock);
                if (!write_failed && fflush(out) == EOF) {
                    sg_cli_error("audit", "cannot write %s: %s", output ? output : "stdout", strerror(errno));
                    write_failed = true;
                }
                dirty = false;
                pthread_mutex_lock(&c.lock);
                continue;
            }
            c.writer_waiting = true;
            /* a regular file: the lines written so far reach it when the next one is slow to
             * come (a record in the golden stage: seconds), AUDIT_FILE_FLUSH_MS after the
             * wait began; a wait that short (static records) costs no write */
            bool flush_later = dirty && !stream && !write_failed;
            if (show || flush_later) {
                long wait_ms = flush_later ? AUDIT_FILE_FLUSH_MS : 200;
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += wait_ms * 1000000L;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                bool timed_out = pthread_cond_timedwait(&c.can_write, &c.lock, &ts) == ETIMEDOUT;
                c.writer_waiting = false;
                if (flush_later && timed_out) {
                    pthread_mutex_unlock(&c.lock);
                    if (fflush(out) == EOF) {
                        sg_cli_error("audit", "cannot write %s: %s", output ? output : "stdout", strerror(errno));
                        write_failed = true;
                    }
                    dirty = false;
                    pthread_mutex_lock(&c.lock);
                }
                if (show && sg_cli_now_ms() - last > 200) {
                    size_t w = c.written;
                    pthread_mutex_unlock(&c.lock);
                    audit__progress(&c, w, t0, false);
                    last = sg_cli_now_ms();
                    pthread_mutex_lock(&c.lock);
                }
            } else {
                pthread_cond_wait(&c.can_write, &c.lock);
                c.writer_waiting = false;
            }
        }
        if (c.eof && c.written == c.produced) {
            pthread_mutex_unlock(&c.lock);
            break;
        }
        audit__rec *r = &c.ring[c.written % c.cap];
        c.slow_pending -= r->slow;
        pthread_mutex_unlock(&c.lock);
        bool nomem = !r->line || audit__sum_add(&sum, r);
        if (nomem) {
            pthread_mutex_lock(&c.lock);
            c.fatal = SG_ERR_NOMEM;
            pthread_mutex_unlock(&c.lock);
        } else if (!write_failed) {
            if (fputs(r->line, out) == EOF || fputc('\n', out) == EOF) {
                sg_cli_error("audit", "cannot write %s: %s", output ? output : "stdout", strerror(errno));
                write_failed = true;
            }
            dirty = true;
        }
        audit__rec_free(r);
        batch = true;
        pthread_mutex_lock(&c.lock);
        c.written++;
        if (write_failed || c.fatal) {
            c.stop = true;
            pthread_cond_broadcast(&c.can_take);
        }
        /* the reader refills when half the window is free (not once per line) */
        if (c.produced - c.written <= c.cap / 2)
            pthread_cond_signal(&c.can_produce);
        bool stop = c.stop;
        pthread_mutex_unlock(&c.lock);
        if (stop)
            break;
        if (show && sg_cli_now_ms() - last > 200) {
            audit__progress(&c, c.written, t0, false);
            last = sg_cli_now_ms();
        }
    }
    if (!write_failed && fflush(out) == EOF) {
        sg_cli_error("audit", "cannot write %s: %s", output ? output : "stdout", strerror(errno));
        write_failed = true;
    }
out_join:
    pthread_mutex_lock(&c.lock);
    if (c.stop)
        pthread_cond_broadcast(&c.can_produce);
    pthread_mutex_unlock(&c.lock);
    for (long i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (reader_started)
        pthread_join(reader, NULL);
    double ms = sg_cli_now_ms() - t0;
    if (show)
        audit__progress(&c, c.written, t0, true);
    if (c.fatal || write_failed || !started) {
        if (c.fatal)
            sg_cli_error("audit", "%s: the run stopped", sg_strerror(c.fatal));
        rc = SG_EXIT_INTERNAL;
        goto out_free;
    }
    if (sum.nrules)
        qsort(sum.rules, sum.nrules, sizeof *sum.rules, audit__by_count);
    if (!quiet)
        audit__sum_text(stderr, &sum, &c, ms);
    if (summary_path) {
        json_t *js = audit__sum_json(&sum, &c, resumed, ms);
        FILE *sf = !strcmp(summary_path, "-") ? stdout : fopen(summary_path, "we");
        int bad = !js || !sf || json_dumpf(js, sf, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', sf) == EOF;
        if (sf && sf != stdout && fclose(sf) != 0)
            bad = 1;
        json_decref(js);
        if (bad) {
            sg_cli_error("audit", "cannot write the summary to %s", summary_path);
            rc = SG_EXIT_INTERNAL;
            goto out_free;
        }
    }
    /* the exit code covers the whole output: the lines a resume found count too (a resumed
     * "error" line may have been a bad record or a gate error: it counts as a block) */
    rc = sum.errors ? SG_EXIT_INTERNAL
         : (sum.block || sum.bad || c.resumed_block || c.resumed_error) ? SG_EXIT_BLOCK
                                                                       : SG_EXIT_PASS;
    goto out_free;

out_nomem:
    sg_cli_error("audit", "out of memory");
    rc = SG_EXIT_INTERNAL;
out_free:
    if (out != stdout && fclose(out) != 0 && rc != SG_EXIT_INTERNAL) {
        sg_cli_error("audit", "cannot write %s: %s", output, strerror(errno));
        rc = SG_EXIT_INTERNAL;
    }
    if (c.ring) {
        for (size_t i = c.written; i < c.produced; i++)
            audit__rec_free(&c.ring[i % c.cap]);
        free(c.ring);
    }
    if (sync_made) {
        pthread_mutex_destroy(&c.lock);
        pthread_cond_destroy(&c.can_produce);
        pthread_cond_destroy(&c.can_take);
        pthread_cond_destroy(&c.can_write);
    }
    json_decref(c.sample_counts);
    audit__seen_free(&c.done_ids);
    audit__sum_free(&sum);
    free(packs);
    free(disables);
    free(hosts);
    sg_rules_free(rules);
    sg_sandbox_free(sandbox);
    sg_golden_suite_free(suite);
    return rc;
}
