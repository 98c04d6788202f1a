/*
 * `snipgate serve --listen 127.0.0.1:PORT | unix:/path`: the gate behind a code-generation
 * service, as an HTTP JSON API on libmicrohttpd.
 *
 *   POST /v1/check  {"code", "name"?, "task"? | "task_id"? | "tests"?}  -> the verdict document
 *   GET  /healthz   -> {"status": "ok"}
 *   GET  /metrics   -> Prometheus text
 *
 * Threads: libmicrohttpd's one polling thread reads requests; a request that parses is queued
 * (bounded: 503 with Retry-After when full) and its connection suspended; -j workers, each with
 * its own checker, judge through the seam (cli_pipeline.c) and resume the connection. The main
 * thread waits for signals and enforces each request's time budget (504 when it runs out: no
 * verdict, never a pass). SIGTERM/SIGINT: stop accepting, finish every accepted request, stop.
 * Public API only.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pipeline.h"

/* libmicrohttpd is opened when `serve` starts, not linked into the executable: loading it and
 * what it needs (GnuTLS, whose constructor initialises its crypto and reads its configuration,
 * p11-kit, nettle, gmp, idn2, unistring, ffi) cost every other command (check, run, audit) about
 * 1.3 ms of a 1.9 ms start (docs/design.md, "Libraries, and why"). The header still gives the
 * types; the calls below go through this table (serve__mhd_open fills all of it or fails). */
#include <dlfcn.h>
#ifndef SG_MHD_SONAME
#define SG_MHD_SONAME "libmicrohttpd.so.12"
#endif
#define SERVE__MHD_FUNCS(X)                                                                          \
    X(MHD_add_response_header) X(MHD_create_response_from_buffer) X(MHD_destroy_response)           \
    X(MHD_get_connection_info) X(MHD_get_daemon_info) X(MHD_lookup_connection_value)                 \
    X(MHD_queue_response)                                                                            \
    X(MHD_quiesce_daemon) X(MHD_resume_connection) X(MHD_start_daemon) X(MHD_stop_daemon)            \
    X(MHD_suspend_connection)
#define SERVE__MHD_MEMBER(f) __typeof__(f) *f;
static struct {
    SERVE__MHD_FUNCS(SERVE__MHD_MEMBER)
} serve__mhd;
#undef SERVE__MHD_MEMBER

/* Open the library and take every function the server calls; false with a message on stderr. */
static bool serve__mhd_open(void)
{
    void *h = dlopen(SG_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        sg_cli_error("serve", "the HTTP server library %s cannot be loaded (%s): install libmicrohttpd12",
                     SG_MHD_SONAME, e ? e : "unknown error");
        return false;
    }
#define SERVE__MHD_TAKE(f)                                                                           \
    if (!(*(void **)&serve__mhd.f = dlsym(h, #f))) {                                                 \
        sg_cli_error("serve", "the HTTP server library %s has no %s", SG_MHD_SONAME, #f);           \
        return false;                                                                                \
    }
    SERVE__MHD_FUNCS(SERVE__MHD_TAKE)
#undef SERVE__MHD_TAKE
    return true; /* kept open for the process's life */
}

#define MHD_add_response_header (*serve__mhd.MHD_add_response_header)
#define MHD_create_response_from_buffer (*serve__mhd.MHD_create_response_from_buffer)
#define MHD_destroy_response (*serve__mhd.MHD_destroy_response)
#define MHD_get_connection_info (*serve__mhd.MHD_get_connection_info)
#define MHD_get_daemon_info (*serve__mhd.MHD_get_daemon_info)
#define MHD_lookup_connection_value (*serve__mhd.MHD_lookup_connection_value)
#define MHD_queue_response (*serve__mhd.MHD_queue_response)
#define MHD_quiesce_daemon (*serve__mhd.MHD_quiesce_daemon)
#define MHD_resume_connection (*serve__mhd.MHD_resume_connection)
#define MHD_start_daemon (*serve__mhd.MHD_start_daemon)
#define MHD_stop_daemon (*serve__mhd.MHD_stop_daemon)
#define MHD_suspend_connection (*serve__mhd.MHD_suspend_connection)

#define SERVE_MAX_JOBS 256
/* A request is accepted while the estimate of its finish stays within this share of the time
 * budget: an estimate is an average, and the margin keeps an accepted request from a 504. */
#define SERVE_ADMIT_SHARE 0.8

/* One accepted check, shared by its connection and a worker (refcounted under the server lock). */
typedef struct serve__job {
    struct MHD_Connection *conn;
    int refs;
    bool done;        /* the worker has finished (res is valid) */
    bool timed_out;   /* the budget ran out first: the answer is 504 */
    bool resumed;     /* the connection was resumed (only once) */
    atomic_int cancel; /* set with timed_out: the worker's golden run stops at its next call */
    double t_accept, deadline;
    double t_start;   /* when a worker took it (0: still queued) */
    char *name, *code, *task_id, *task_json, *tests;
    size_t len, tests_len;
    sg_policy *policy; /* the request's own policy, or NULL */
    sg_rules *rules;   /* with a policy: the rule set it makes (the server's, adjusted) */
    sg_cli_result res;
    struct serve__job *prev, *next; /* the in-flight list */
} serve__job;

/* The per-connection state of one request. */
typedef struct serve__req {
    int kind;        /* 1 POST /v1/check */
    char *body;
    size_t len, cap;
    bool too_large;
    serve__job *job;
} serve__req;

enum { SERVE_NCODES = 9 };
static const int serve__codes[SERVE_NCODES] = {200, 400, 404, 405, 413, 500, 503, 504, 0};
static const double serve__buckets[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                        0.25,   0.5,   1,      2.5,   5,    10,   30};
#define SERVE_NBUCKETS (sizeof serve__buckets / sizeof serve__buckets[0])

typedef struct serve__hist {
    unsigned long long counts[SERVE_NBUCKETS + 1];
    double sum;
    unsigned long long n;
} serve__hist;

/* What a request's "policy" may do (--request-policy). */
typedef enum { SERVE_RP_TIGHTEN, SERVE_RP_DENY, SERVE_RP_ALLOW } serve__rp;

/* A connection's request deadline (--request-deadline): from the connection's start, or the end
 * of its previous request, to the last byte of the request's body. The entries are added and
 * removed by libmicrohttpd's connection notifications; the main loop's sweep shuts down the
 * socket of a connection past its deadline while receiving (libmicrohttpd notifies CLOSED, under
 * conns_lock here, before it closes the socket: the descriptor the sweep shuts down is still that
 * connection's). */
typedef struct serve__conn {
    struct serve__conn *prev, *next;
    int fd;
    double start;   /* ms: when the current request's first byte could come */
    bool receiving; /* the current request is not fully received */
} serve__conn;

typedef struct serve__server {
    sg_cli_pipeline pipe;
    serve__rp request_policy; /* default tighten: a request may only make the gate stricter */
    unsigned long per_client; /* connections one client address may hold (--max-client-connections) */
    double deadline_ms;       /* --request-deadline */
    pthread_mutex_t conns_lock;
    serve__conn conns;        /* list head (under conns_lock) */
    unsigned long long cut;   /* connections shut down at their deadline */
    unsigned long long lane_taken; /* requests the small lane judged (under lock) */
    double last_sweep;
    bool no_default; /* the server's rule options, from which a request's policy starts */
    char **packs, **disables, **hosts;
    size_t npacks, ndisables, nhosts;
    long workers;
    size_t queue_cap, max_body;
    double budget_ms;
    pthread_mutex_t lock;
    pthread_cond_t can_take, idle;
    serve__job **queue;
    size_t qhead, qlen;
    bool stopping;       /* workers end when the queue is empty */
    bool draining;       /* a signal came: new requests get 503 */
    serve__job inflight; /* list head */
    size_t ninflight;
    long busy;
    /* metrics (under lock) */
    unsigned long long by_code[SERVE_NCODES];
    unsigned long long verdicts[3]; /* pass, block, error */
    unsigned long long golden[4];   /* pass, fail, error, skipped */
    sg_cli_contracts contracts;     /* of the requests judged (not the 400s) */
    serve__hist h_static, h_golden, h_total;
    double started;
    /* admission: the recent time a worker spends on a request, by kind (0 static only, 1 with
     * the golden stage), a moving average; 0 until one of that kind finished */
    double avg_ms[2];
    unsigned long long refused_budget; /* 503s for a queue that would outlast the budget */
} serve__server;

static int serve__job_kind(const serve__job *j)
{
    return j->task_id || j->task_json || j->tests;
}

/*
 * Would a new request of `j`'s kind finish within the time budget (SERVE_ADMIT_SHARE of it)? The
 * work ahead of it (the
 * queued requests, and what is left of those being judged, each at its kind's recent average)
 * shared by the workers, then its own. Called under s->lock. A server with nothing ahead takes
 * every request (its own time is then the budget's business: 504), so that a kind slower than
 * the budget is not refused forever. Returns the milliseconds ahead when it would not.
 */
static double serve__too_late(serve__server *s, const serve__job *j)
{
    double own = s->avg_ms[serve__job_kind(j)];
    if (own <= 0)
        return 0;
    double now = sg_cli_now_ms(), ahead = 0;
    for (serve__job *q = s->inflight.next; q != &s->inflight; q = q->next) {
        if (q->done || q->timed_out)
            continue;
        double est = s->avg_ms[serve__job_kind(q)];
        if (q->t_start > 0)
            est = est > now - q->t_start ? est - (now - q->t_start) : 0;
        ahead += est;
    }
    ahead /= (double)s->workers;
    return ahead > 0 && ahead + own > SERVE_ADMIT_SHARE * s->budget_ms ? ahead : 0;
}


static serve__server *serve__srv; /* for the libmicrohttpd callbacks' closures only */

static void serve__help(FILE *out)
{
    fputs("usage: snipgate serve --listen 127.0.0.1:PORT | unix:/PATH [options]\n"
          "\n"
          "An HTTP JSON API for a code-generation service:\n"
          "  POST /v1/check  {\"code\": \"...\", \"name\"?: \"x.py\", \"task\"?: {...} | \"task_id\"?: ID | \"tests\"?: \"...\",\n"
          "                   \"policy\"?: {...}}  (policy: the keys of .snipgate.yml, docs/policy.md, on top of\n"
          "                  the server's options; rules.packs and exclude are refused over HTTP)\n"
          "                  200 with the verdict document of `check --format json` (pass or block);\n"
          "                  400 {\"error\"} bad JSON, fields, unknown task, input that cannot be checked;\n"
          "                  413 body too large; 503 + Retry-After queue full, shutting down, or the\n"
          "                  work ahead would not let it finish within the time budget;\n"
          "                  504 time budget exceeded; 500 the gate could not judge (never a pass)\n"
          "  GET /healthz    {\"status\": \"ok\"}\n"
          "  GET /metrics    Prometheus text: requests by status, verdicts, stage latency histograms,\n"
          "                  golden (sandbox) outcomes, queue depth, workers busy\n"
          "\n"
          "options:\n"
          "  --listen ADDR              HOST:PORT (IPv4; PORT 0 picks one) or unix:/PATH (required)\n"
          "  -j, --jobs N               checker threads (default: online CPUs)\n"
          "  --queue N                  accepted requests waiting for a checker (default 64)\n"
          "  --max-body BYTES           largest request body (default 1048576)\n"
          "  --time-budget MS           per request, from acceptance to answer (default 10000)\n"
          "  --max-client-connections N  connections one client address may hold (default 64; TCP)\n"
          "  --request-deadline S       seconds a request may take to arrive, headers and body, from its\n"
          "                             connection's start or its previous request's end (default 30);\n"
          "                             past it the connection is closed\n"
          "  --request-policy MODE      what a request's \"policy\" may do: tighten (default: only make the\n"
          "                             gate stricter: a lower fail_on, stages.required, smaller budgets),\n"
          "                             deny (refuse any), allow (anything but packs, exclude, fuzz budgets)\n"
          "  --suite FILE               tasks that task_id may name (else: built-in tasks)\n"
          "  --fail-on SEVERITY, --rules FILE, --no-default-rules, --disable ID, --allow-host HOST,\n"
          "  --seed N, --property-budget B, --no-properties, --interpreter P   as for `snipgate check`\n"
          "\n"
          "Prints 'snipgate serve: listening on ADDR' on stderr when ready. SIGTERM or SIGINT: stop\n"
          "accepting, answer every accepted request, exit 0.\n",
          out);
}

/* ------------------------------------------------------------------------------------------ */
/* Metrics                                                                                      */

static void serve__observe(serve__hist *h, double seconds)
{
    size_t i = 0;
    while (i < SERVE_NBUCKETS && seconds > serve__buckets[i])
        i++;
    h->counts[i]++;
    h->sum += seconds;
    h->n++;
}

static void serve__count_code(serve__server *s, int code)
{
    size_t i = 0;
    while (i < SERVE_NCODES - 1 && serve__codes[i] != code)
        i++;
    s->by_code[i]++;
}

static void serve__hist_text(FILE *f, const char *stage, const serve__hist *h)
{
    unsigned long long cum = 0;
    for (size_t i = 0; i < SERVE_NBUCKETS; i++) {
        cum += h->counts[i];
        fprintf(f, "snipgate_stage_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n", stage, serve__buckets[i], cum);
    }
    cum += h->counts[SERVE_NBUCKETS];
    fprintf(f, "snipgate_stage_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n", stage, cum);
    fprintf(f, "snipgate_stage_seconds_sum{stage=\"%s\"} %.6f\nsnipgate_stage_seconds_count{stage=\"%s\"} %llu\n",
            stage, h->sum, stage, h->n);
}

static char *serve__metrics(serve__server *s, size_t *ret_len)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    pthread_mutex_lock(&s->lock);
    fputs("# HELP snipgate_requests_total HTTP requests answered, by status code.\n"
          "# TYPE snipgate_requests_total counter\n", f);
    for (size_t i = 0; i < SERVE_NCODES; i++) {
        if (serve__codes[i])
            fprintf(f, "snipgate_requests_total{code=\"%d\"} %llu\n", serve__codes[i], s->by_code[i]);
        else
            fprintf(f, "snipgate_requests_total{code=\"other\"} %llu\n", s->by_code[i]);
    }
    fputs("# HELP snipgate_verdicts_total Verdicts of POST /v1/check.\n# TYPE snipgate_verdicts_total counter\n", f);
    static const char *vn[] = {"pass", "block", "error"};
    for (size_t i = 0; i < 3; i++)
        fprintf(f, "snipgate_verdicts_total{verdict=\"%s\"} %llu\n", vn[i], s->verdicts[i]);
    fputs("# HELP snipgate_golden_total Outcomes of the golden stage (sandboxed runs).\n"
          "# TYPE snipgate_golden_total counter\n", f);
    static const char *gn[] = {"pass", "fail", "error", "skipped"};
    for (size_t i = 0; i < 4; i++)
        fprintf(f, "snipgate_golden_total{outcome=\"%s\"} %llu\n", gn[i], s->golden[i]);
    fputs("# HELP snipgate_contracts_total Judged requests by the contract they came with: properties (a task that "
          "declares properties), task, tests (plain asserts), none (the static gate alone can judge it).\n"
          "# TYPE snipgate_contracts_total counter\n", f);
    fprintf(f,
            "snipgate_contracts_total{kind=\"properties\"} %zu\nsnipgate_contracts_total{kind=\"task\"} %zu\n"
            "snipgate_contracts_total{kind=\"tests\"} %zu\nsnipgate_contracts_total{kind=\"none\"} %zu\n"
            "# HELP snipgate_static_only_total Judged requests whose verdict the static gate alone made (no "
            "contract, or a golden stage that did not run).\n# TYPE snipgate_static_only_total counter\n"
            "snipgate_static_only_total %zu\n",
            s->contracts.properties, s->contracts.task, s->contracts.tests, s->contracts.none, s->contracts.static_only);
    fputs("# HELP snipgate_stage_seconds Time spent per stage (total: acceptance to answer).\n"
          "# TYPE snipgate_stage_seconds histogram\n", f);
    serve__hist_text(f, "static", &s->h_static);
    serve__hist_text(f, "golden", &s->h_golden);
    serve__hist_text(f, "total", &s->h_total);
    fprintf(f, "# HELP snipgate_queue_depth Accepted requests waiting for a checker.\n# TYPE snipgate_queue_depth gauge\n"
               "snipgate_queue_depth %zu\n"
               "# HELP snipgate_queue_capacity Size of the queue.\n# TYPE snipgate_queue_capacity gauge\n"
               "snipgate_queue_capacity %zu\n"
               "# HELP snipgate_workers_busy Checkers judging a request.\n# TYPE snipgate_workers_busy gauge\n"
               "snipgate_workers_busy %ld\n"
               "# HELP snipgate_workers Checker threads.\n# TYPE snipgate_workers gauge\nsnipgate_workers %ld\n"
               "# HELP snipgate_inflight Accepted requests not answered yet.\n# TYPE snipgate_inflight gauge\n"
               "snipgate_inflight %zu\n"
               "# HELP snipgate_uptime_seconds Seconds since the server started.\n# TYPE snipgate_uptime_seconds gauge\n"
               "snipgate_uptime_seconds %.3f\n"
               "# HELP snipgate_refused_budget_total Requests refused (503) because the work ahead would not "
               "leave them time to finish within the time budget.\n# TYPE snipgate_refused_budget_total counter\n"
               "snipgate_refused_budget_total %llu\n"
               "# HELP snipgate_request_deadline_cut_total Connections closed because a request was not received "
               "within --request-deadline.\n# TYPE snipgate_request_deadline_cut_total counter\n"
               "snipgate_request_deadline_cut_total %llu\n"
               "# HELP snipgate_small_lane_total Small static requests judged by the small lane's checker.\n"
               "# TYPE snipgate_small_lane_total counter\nsnipgate_small_lane_total %llu\n",
            s->qlen, s->queue_cap, s->busy, s->workers, s->ninflight, (sg_cli_now_ms() - s->started) / 1000,
            s->refused_budget, __atomic_load_n(&s->cut, __ATOMIC_RELAXED), s->lane_taken);
    pthread_mutex_unlock(&s->lock);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    *ret_len = len;
    return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* Jobs                                                                                         */

static void serve__job_unref(serve__server *s, serve__job *j)
{
    /* under s->lock */
    if (--j->refs > 0)
        return;
    free(j->name);
    free(j->code);
    free(j->task_id);
    free(j->task_json);
    free(j->tests);
    sg_policy_free(j->policy);
    sg_rules_free(j->rules);
    sg_cli_result_clear(&j->res);
    free(j);
}

/* Mark the job answered (under s->lock), once: true when the caller must resume its connection,
 * which it does after releasing the lock (libmicrohttpd takes its own locks there). */
static bool serve__resume(serve__server *s, serve__job *j)
{
    if (j->resumed)
        return false;
    j->resumed = true;
    j->prev->next = j->next;
    j->next->prev = j->prev;
    j->prev = j->next = j;
    s->ninflight--;
    if (!s->ninflight)
        pthread_cond_broadcast(&s->idle);
    return true;
}

/* The pipeline one job runs: the server's, or the server's with the request's policy applied. */
static void serve__job_pipeline(const serve__server *s, const serve__job *j, sg_cli_pipeline *p)
{
    *p = s->pipe;
    /* what is left of the request's budget caps its property search (it may have waited in the
     * queue), and a 504 stops its golden run at the next call instead of letting it finish */
    p->cancel = &j->cancel;
    double left_s = (j->deadline - sg_cli_now_ms()) / 1000;
    if (left_s < 0.001)
        left_s = 0.001;
    if (p->golden_max_seconds <= 0 || left_s < p->golden_max_seconds)
        p->golden_max_seconds = left_s;
    if (!j->policy)
        return;
    const sg_policy_info *pi = sg_policy_get(j->policy);
    p->rules = j->rules;
    p->policy = pi;
    p->policy_name = "request";
    if (pi->has_fail_on)
        p->opts.fail_on = pi->fail_on;
    if (pi->max_bytes)
        p->opts.max_bytes = (size_t)pi->max_bytes;
    if (pi->max_depth)
        p->opts.max_depth = pi->max_depth;
    if (pi->parse_steps)
        p->opts.parse_steps = pi->parse_steps;
    /* the request's time budget stays the cap */
    if (pi->parse_cpu_ms && pi->parse_cpu_ms < p->opts.parse_timeout_ms)
        p->opts.parse_timeout_ms = pi->parse_cpu_ms;
    if (pi->property_inputs || pi->property_seconds > 0) {
        p->golden.opts.max_inputs = pi->property_inputs;
        p->golden.opts.max_seconds = pi->property_seconds;
        p->golden.budget_given = true;
    }
}

/* The small lane: one more checker thread that takes only small static requests (no task, no
 * tests, a body of at most SERVE_SMALL bytes), so that a few huge or slow requests holding every
 * `-j` checker cannot make `x = 1` wait past its budget. The -j checkers take every request in
 * order; the lane takes the first small one waiting. */
#define SERVE_SMALL (64u * 1024u)
static _Thread_local bool serve__in_lane;

static bool serve__small(const serve__job *j)
{
    return !j->task_id && !j->task_json && !j->tests && j->len <= SERVE_SMALL;
}

/* The next job this thread may take, removed from the queue (under s->lock); NULL if none. */
static serve__job *serve__take(serve__server *s)
{
    size_t k = 0;
    if (serve__in_lane)
        while (k < s->qlen && !serve__small(s->queue[(s->qhead + k) % s->queue_cap]))
            k++;
    if (k >= s->qlen)
        return NULL;
    serve__job *j = s->queue[(s->qhead + k) % s->queue_cap];
    if (k == 0) { /* the head */
        s->qhead = (s->qhead + 1) % s->queue_cap;
    } else { /* the jobs after it move up one place, in order */
        for (size_t i = k; i + 1 < s->qlen; i++)
            s->queue[(s->qhead + i) % s->queue_cap] = s->queue[(s->qhead + i + 1) % s->queue_cap];
    }
    s->qlen--;
    return j;
}

static void *serve__worker(void *arg);

static void *serve__lane(void *arg)
{
    serve__in_lane = true;
    return serve__worker(arg);
}

static void *serve__worker(void *arg)
{
    serve__server *s = arg;
    sg_checker *checker = NULL;
    sg_status cst = sg_cli_pipeline_checker(&s->pipe, &checker);
    sg_golden_pool *pool = NULL; /* this thread's warm sandboxes: golden requests start none */
    if (cst == SG_OK)
        cst = sg_golden_pool_new(&pool);
    pthread_mutex_lock(&s->lock);
    for (;;) {
        serve__job *j;
        while (!(j = serve__take(s)) && !s->stopping)
            pthread_cond_wait(&s->can_take, &s->lock);
        if (!j) /* stopping, and nothing (for the lane: nothing small) is left */
            break;
        if (serve__in_lane)
            s->lane_taken++;
        if (j->timed_out) { /* answered 504 while it waited */
            serve__job_unref(s, j);
            continue;
        }
        s->busy++;
        j->t_start = sg_cli_now_ms();
        pthread_mutex_unlock(&s->lock);

        sg_cli_result res;
        if (cst != SG_OK) {
            memset(&res, 0, sizeof res);
            res.outcome = SG_CLI_ERROR;
            res.golden = "not_run";
            snprintf(res.message, sizeof res.message, "the checker could not be made: %s", sg_strerror(cst));
        } else {
            sg_cli_request req = {.name = j->name ? j->name : "<request>", .code = j->code, .len = j->len,
                                  .task_id = j->task_id, .task_json = j->task_json, .tests = j->tests,
                                  .tests_len = j->tests_len, .pool = pool};
            sg_cli_pipeline jp;
            serve__job_pipeline(s, j, &jp);
            sg_checker *own = NULL; /* a request's policy has a rule set, so a checker, of its own */
            sg_status rst = j->policy ? sg_cli_pipeline_checker(&jp, &own) : SG_OK;
            if (rst == SG_OK)
                rst = sg_cli_pipeline_run(&jp, own ? own : checker, &req, &res);
            sg_checker_free(own);
            if (rst != SG_OK) {
                memset(&res, 0, sizeof res);
                res.outcome = SG_CLI_ERROR;
                res.golden = "not_run";
                snprintf(res.message, sizeof res.message, "%s", rst == SG_ERR_NOMEM ? "out of memory" : sg_strerror(rst));
            }
        }

        pthread_mutex_lock(&s->lock);
        s->busy--;
        {
            double took = sg_cli_now_ms() - j->t_start, *avg = &s->avg_ms[serve__job_kind(j)];
            *avg = *avg > 0 ? 0.7 * *avg + 0.3 * took : took;
        }
        serve__observe(&s->h_static, res.static_ms / 1000);
        if (strcmp(res.golden, "not_run"))
            serve__observe(&s->h_golden, res.golden_ms / 1000);
        static const char *gn[] = {"pass", "fail", "error", "skipped"};
        for (size_t i = 0; i < 4; i++)
            if (!strcmp(res.golden, gn[i]))
                s->golden[i]++;
        if (res.outcome != SG_CLI_BAD_INPUT)
            sg_cli_contracts_add(&s->contracts, &res);
        j->res = res;
        j->done = true;
        struct MHD_Connection *conn = serve__resume(s, j) ? j->conn : NULL;
        serve__job_unref(s, j); /* the connection still holds it while suspended */
        if (conn) {
            pthread_mutex_unlock(&s->lock);
            MHD_resume_connection(conn);
            pthread_mutex_lock(&s->lock);
        }
    }
    pthread_mutex_unlock(&s->lock);
    sg_golden_pool_free(pool);
    sg_checker_free(checker);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* HTTP                                                                                         */

static enum MHD_Result serve__send(struct MHD_Connection *conn, int code, const char *ctype, char *body, size_t len,
                                   unsigned retry_after)
{
    serve__server *s = serve__srv;
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    if (retry_after) { /* seconds */
        char ra[24];
        snprintf(ra, sizeof ra, "%u", retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, ra);
    }
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)code, r);
    MHD_destroy_response(r);
    pthread_mutex_lock(&s->lock);
    serve__count_code(s, code);
    pthread_mutex_unlock(&s->lock);
    return ok;
}

/* {"error": message} with a status code. */
static enum MHD_Result serve__error(struct MHD_Connection *conn, int code, const char *msg, unsigned retry_after)
{
    json_t *j = json_pack("{s:s}", "error", msg);
    char *body = j ? sg_json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!body)
        body = strdup("{\"error\":\"(message not valid UTF-8)\"}");
    if (!body)
        return MHD_NO;
    return serve__send(conn, code, "application/json", body, strlen(body), retry_after);
}

static char *serve__strdup_len(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* The fields of a check request into a job. Returns NULL with `why` filled on a bad request. */
/*
 * A request's policy: the keys of a .snipgate.yml (JSON is YAML), loaded with the same loader
 * and applied on top of the server's options as `check --config` applies a file: fail_on,
 * budgets, stages.required, and a rule set of its own (rules.enable/disable, network.allow_hosts
 * added to the server's). rules.packs (files on the server), exclude (no meaning for one
 * snippet) and the fuzz budget (serve does not run the fuzz stage) are refused. false with `why`
 * on a bad policy (or *nomem).
 */
/* Under --request-policy tighten: the first key of a request's policy that could let something
 * through that the server's options block, or NULL. */
static const char *serve__loosens(const serve__server *s, const sg_policy_info *pi)
{
    const sg_options *o = &s->pipe.opts;
    if (pi->n_enable)
        return "rules.enable";
    if (pi->n_disable)
        return "rules.disable";
    if (pi->honor_all_suppressions || pi->n_honor_suppressions)
        return "rules.honor_suppressions";
    if (pi->n_allow_hosts)
        return "network.allow_hosts";
    if (pi->has_fail_on && pi->fail_on > o->fail_on)
        return "fail_on above the server's";
    if (pi->max_bytes && pi->max_bytes > o->max_bytes)
        return "budgets.max_bytes above the server's";
    if (pi->max_depth && pi->max_depth > o->max_depth)
        return "budgets.max_depth above the server's";
    if (pi->parse_steps && (!o->parse_steps || pi->parse_steps > o->parse_steps))
        return "budgets.parse_steps above the server's";
    if (pi->parse_cpu_ms && (!o->parse_timeout_ms || pi->parse_cpu_ms > o->parse_timeout_ms))
        return "budgets.parse_cpu above the server's";
    if (pi->property_inputs || pi->property_seconds > 0)
        return "budgets.property_inputs / property_seconds";
    return NULL;
}

static bool serve__policy(serve__server *s, json_t *policy, serve__job *job, char *why, size_t whylen, bool *nomem)
{
    if (s->request_policy == SERVE_RP_DENY) {
        snprintf(why, whylen, "policy: this server refuses request policies (started with --request-policy deny)");
        return false;
    }
    char *text = sg_json_dumps(policy, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text) {
        *nomem = true;
        return false;
    }
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_policy_load_buffer("policy", text, strlen(text), &job->policy, &d);
    free(text);
    if (st == SG_ERR_NOMEM) {
        *nomem = true;
        return false;
    }
    if (st) {
        /* the loader names the document ("policy: ...") */
        snprintf(why, whylen, "%.*s", (int)(whylen > 1 ? whylen - 1 : 0), d.message[0] ? d.message : sg_strerror(st));
        return false;
    }
    const sg_policy_info *pi = sg_policy_get(job->policy);
    if (pi->n_packs) {
        snprintf(why, whylen, "policy: rules.packs is refused over HTTP (it names files on the server); "
                              "start the server with --rules");
        return false;
    }
    if (pi->n_exclude) {
        snprintf(why, whylen, "policy: exclude has no meaning for one snippet");
        return false;
    }
    const char *loose = s->request_policy == SERVE_RP_TIGHTEN ? serve__loosens(s, pi) : NULL;
    if (loose) {
        snprintf(why, whylen, "policy: %s is refused: this server lets a request only make the gate stricter "
                              "(--request-policy tighten; its operator can allow more with --request-policy allow)",
                 loose);
        return false;
    }
    if (pi->fuzz_seconds > 0 || pi->fuzz_runs) {
        snprintf(why, whylen, "policy: %s%s%s is refused over HTTP (serve does not run the fuzz stage: "
                              "snipgate check --task ID --fuzz DURATION does)",
                 pi->fuzz_seconds > 0 ? "budgets.fuzz_seconds" : "", pi->fuzz_seconds > 0 && pi->fuzz_runs ? ", " : "",
                 pi->fuzz_runs ? "budgets.fuzz_runs" : "");
        return false;
    }
    /* the server's rule options plus the policy's lists, as check merges them */
    size_t nd = s->ndisables + pi->n_disable, nh = s->nhosts + pi->n_allow_hosts;
    char **dis = calloc(nd ? nd : 1, sizeof *dis), **hosts = calloc(nh ? nh : 1, sizeof *hosts);
    if (!dis || !hosts) {
        free(dis);
        free(hosts);
        *nomem = true;
        return false;
    }
    for (size_t i = 0; i < s->ndisables; i++)
        dis[i] = s->disables[i];
    for (size_t i = 0; i < pi->n_disable; i++)
        dis[s->ndisables + i] = (char *)pi->disable[i];
    for (size_t i = 0; i < s->nhosts; i++)
        hosts[i] = s->hosts[i];
    for (size_t i = 0; i < pi->n_allow_hosts; i++)
        hosts[s->nhosts + i] = (char *)pi->allow_hosts[i];
    char msg[400];
    sg_cli_capture(msg, sizeof msg);
    int rc = sg_cli_build_rules("serve", s->no_default, s->packs, s->npacks, dis, nd, hosts, nh,
                                pi->max_bytes ? (size_t)pi->max_bytes : s->pipe.opts.max_bytes, &job->rules);
    if (!rc && pi->n_enable)
        rc = sg_cli_enable_only("serve", job->rules, pi);
    sg_cli_capture(NULL, 0);
    free(dis);
    free(hosts);
    if (rc) {
        /* the server's own lists were accepted at start: what fails is the policy's */
        const char *m = !strncmp(msg, "--disable: ", 11) ? msg + 11 : msg;
        if (rc == SG_EXIT_INTERNAL)
            *nomem = true;
        else
            snprintf(why, whylen, "%s%.*s", m == msg ? "" : "policy: rules.disable: ",
                     (int)(whylen > 40 ? whylen - 40 : 0), m);
        return false;
    }
    return true;
}

static serve__job *serve__parse(serve__server *s, const char *body, size_t len, char *why, size_t whylen,
                                bool *nomem)
{
    json_error_t je;
    json_t *j = sg_json_loadb_guarded(body, len, JSON_REJECT_DUPLICATES, &je, nomem);
    serve__job *job = NULL;
    if (!j && *nomem)
        return NULL;
    if (!j) {
        snprintf(why, whylen, "invalid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        snprintf(why, whylen, "the request must be a JSON object {\"code\": ...}");
        goto out;
    }
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v)
    {
        if (strcmp(key, "code") && strcmp(key, "name") && strcmp(key, "task") && strcmp(key, "task_id") &&
            strcmp(key, "tests") && strcmp(key, "policy")) {
            snprintf(why, whylen, "unknown field '%.100s' (fields: code, name, task, task_id, tests, policy)", key);
            goto out;
        }
    }
    json_t *code = json_object_get(j, "code"), *name = json_object_get(j, "name"), *task = json_object_get(j, "task"),
           *tid = json_object_get(j, "task_id"), *tests = json_object_get(j, "tests"),
           *policy = json_object_get(j, "policy");
    if (!code) {
        snprintf(why, whylen, "missing field code");
        goto out;
    }
    if (!json_is_string(code)) {
        snprintf(why, whylen, "code must be a string");
        goto out;
    }
    if (name && !json_is_string(name)) {
        snprintf(why, whylen, "name must be a string");
        goto out;
    }
    if ((task != NULL) + (tid != NULL) + (tests != NULL) > 1) {
        snprintf(why, whylen, "task, task_id and tests exclude each other");
        goto out;
    }
    if (task && !json_is_object(task)) {
        snprintf(why, whylen, "task must be an object (a task in snipgate's JSONL format, docs/tasks.md)");
        goto out;
    }
    if (tid && !json_is_string(tid) && !json_is_integer(tid)) {
        snprintf(why, whylen, "task_id must be a string or an integer");
        goto out;
    }
    if (tests && !json_is_string(tests)) {
        snprintf(why, whylen, "tests must be a string (Python asserts)");
        goto out;
    }
    if (policy && !json_is_object(policy)) {
        snprintf(why, whylen, "policy must be an object (the keys of a .snipgate.yml policy file, docs/policy.md)");
        goto out;
    }
    if (!(job = calloc(1, sizeof *job)))
        goto out_nomem;
    if (policy && !serve__policy(s, policy, job, why, whylen, nomem))
        goto out_free_job;
    job->len = json_string_length(code);
    if (!(job->code = serve__strdup_len(json_string_value(code), job->len)))
        goto out_nomem;
    if (name && !(job->name = strdup(json_string_value(name))))
        goto out_nomem;
    if (task && !(job->task_json = sg_json_dumps(task, JSON_COMPACT | JSON_PRESERVE_ORDER)))
        goto out_nomem;
    if (tid) {
        if (json_is_string(tid))
            job->task_id = strdup(json_string_value(tid));
        else if (asprintf(&job->task_id, "%lld", (long long)json_integer_value(tid)) < 0)
            job->task_id = NULL;
        if (!job->task_id)
            goto out_nomem;
    }
    if (tests) {
        job->tests_len = json_string_length(tests);
        if (!(job->tests = serve__strdup_len(json_string_value(tests), job->tests_len)))
            goto out_nomem;
    }
    json_decref(j);
    return job;
out_nomem:
    *nomem = true;
out_free_job:
    if (job) {
        sg_policy_free(job->policy);
        sg_rules_free(job->rules);
        free(job->code);
        free(job->name);
        free(job->task_json);
        free(job->task_id);
        free(job->tests);
        free(job);
        job = NULL;
    }
out:
    json_decref(j);
    return NULL;
}

/* For fuzz/fuzz_request.c: decode one POST /v1/check body exactly as the server does, against a
 * server with the default options and rules. 0: a job was made (its fields checked, then freed);
 * 1: refused as a 400 with a message; -1: out of memory. */
int sg_cli_serve_decode(const char *body, size_t len, char *why, size_t whylen)
{
    static serve__server srv;
    static bool ready;
    if (!ready) {
        sg_options_init(&srv.pipe.opts);
        ready = true;
    }
    bool nomem = false;
    why[0] = '\0';
    serve__job *j = serve__parse(&srv, body, len, why, whylen, &nomem);
    if (!j)
        return nomem ? -1 : 1;
    /* what the worker relies on: the code is there with its length, a policy has its rule set */
    int rc = j->code && strlen(j->code) <= j->len && (!j->policy || j->rules) &&
                     (!j->tests || strlen(j->tests) <= j->tests_len)
                 ? 0
                 : 2;
    j->refs = 1;
    serve__job_unref(&srv, j);
    return rc;
}

/* The answer of a finished (or timed-out) job. */
static enum MHD_Result serve__answer(serve__server *s, struct MHD_Connection *conn, serve__job *j)
{
    pthread_mutex_lock(&s->lock);
    bool timed_out = j->timed_out && !j->done;
    double total = (sg_cli_now_ms() - j->t_accept) / 1000;
    serve__observe(&s->h_total, total);
    if (timed_out) {
        s->verdicts[2]++;
        pthread_mutex_unlock(&s->lock);
        char msg[200];
        snprintf(msg, sizeof msg, "the time budget of %.0f ms ran out: no verdict (never a pass)", s->budget_ms);
        return serve__error(conn, MHD_HTTP_GATEWAY_TIMEOUT, msg, 0);
    }
    sg_cli_result *r = &j->res;
    s->verdicts[r->outcome == SG_CLI_PASS ? 0 : r->outcome == SG_CLI_BLOCK ? 1 : 2]++;
    pthread_mutex_unlock(&s->lock);
    if ((r->outcome == SG_CLI_PASS || r->outcome == SG_CLI_BLOCK) && r->json) {
        char *body = r->json;
        r->json = NULL;
        return serve__send(conn, MHD_HTTP_OK, "application/json", body, strlen(body), 0);
    }
    if (r->outcome == SG_CLI_BAD_INPUT)
        return serve__error(conn, MHD_HTTP_BAD_REQUEST, r->message[0] ? r->message : "the input cannot be checked",
                            false);
    /* the gate failed: an error, with the verdict document when there is one (never a pass) */
    json_t *doc = r->json ? json_loads(r->json, 0, NULL) : NULL;
    json_t *e = json_pack("{s:s, s:o}", "error", r->message[0] ? r->message : "the gate could not judge the input",
                          "verdict", doc ? doc : json_null());
    char *body = e ? sg_json_dumps(e, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(e);
    if (!body)
        return serve__error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "the gate could not judge the input", 0);
    return serve__send(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "application/json", body, strlen(body), 0);
}

static serve__conn *serve__conn_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? (serve__conn *)ci->socket_context : NULL;
}

/* The connection's request is received (false), or its next one may start arriving (true: its
 * deadline runs from now). */
static void serve__set_receiving(serve__server *s, struct MHD_Connection *conn, bool receiving)
{
    serve__conn *c = serve__conn_of(conn);
    if (!c)
        return;
    pthread_mutex_lock(&s->conns_lock);
    c->receiving = receiving;
    if (receiving)
        c->start = sg_cli_now_ms();
    pthread_mutex_unlock(&s->conns_lock);
}

static void serve__notify_conn(void *cls, struct MHD_Connection *conn, void **socket_context,
                               enum MHD_ConnectionNotificationCode toe)
{
    serve__server *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        serve__conn *c = ci ? calloc(1, sizeof *c) : NULL;
        if (!c)
            return; /* (no deadline for it: the idle timeout still holds) */
        c->fd = ci->connect_fd;
        c->start = sg_cli_now_ms();
        c->receiving = true;
        pthread_mutex_lock(&s->conns_lock);
        c->next = s->conns.next;
        c->prev = &s->conns;
        c->next->prev = c;
        s->conns.next = c;
        pthread_mutex_unlock(&s->conns_lock);
        *socket_context = c;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        serve__conn *c = *socket_context;
        pthread_mutex_lock(&s->conns_lock);
        c->prev->next = c->next;
        c->next->prev = c->prev;
        pthread_mutex_unlock(&s->conns_lock);
        free(c);
        *socket_context = NULL;
    }
}

/* Shut down the sockets of connections whose request is not received by its deadline (a slow
 * sender that keeps each connection alive one byte at a time). From the main loop. */
static void serve__sweep(serve__server *s)
{
    double now = sg_cli_now_ms();
    if (now - s->last_sweep < 200)
        return;
    s->last_sweep = now;
    pthread_mutex_lock(&s->conns_lock);
    for (serve__conn *c = s->conns.next; c != &s->conns; c = c->next)
        if (c->receiving && now - c->start > s->deadline_ms) {
            c->receiving = false;
            shutdown(c->fd, SHUT_RDWR);
            __atomic_add_fetch(&s->cut, 1, __ATOMIC_RELAXED);
        }
    pthread_mutex_unlock(&s->conns_lock);
}

/* Trust boundary: everything here comes from the network. */
static enum MHD_Result serve__handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                     const char *version, const char *upload_data, size_t *upload_data_size,
                                     void **con_cls)
{
    serve__server *s = cls;
    serve__req *rq = *con_cls;
    /* the request is received when it is answered at once (no body is read) or at the call after
     * its body (upload_data_size 0); only a POST to /v1/check reads one */
    bool reads_body = !rq && !strcmp(url, "/v1/check") && !strcmp(method, "POST");
    if (!reads_body && !*upload_data_size)
        serve__set_receiving(s, conn, false);
    if (!rq) {
        if (!strcmp(url, "/healthz") || !strcmp(url, "/metrics")) {
            if (strcmp(method, "GET") && strcmp(method, "HEAD"))
                return serve__error(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "use GET", 0);
            if (!strcmp(url, "/healthz")) {
                pthread_mutex_lock(&s->lock);
                bool stopping = s->stopping || s->draining;
                pthread_mutex_unlock(&s->lock);
                char *b = strdup(stopping ? "{\"status\":\"stopping\"}" : "{\"status\":\"ok\"}");
                return b ? serve__send(conn, stopping ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK, "application/json",
                                       b, strlen(b), stopping ? 1 : 0)
                         : MHD_NO;
            }
            size_t len = 0;
            char *m = serve__metrics(s, &len);
            return m ? serve__send(conn, MHD_HTTP_OK, "text/plain; version=0.0.4", m, len, 0) : MHD_NO;
        }
        if (strcmp(url, "/v1/check"))
            return serve__error(conn, MHD_HTTP_NOT_FOUND, "no such endpoint (POST /v1/check, GET /healthz, GET /metrics)",
                                false);
        if (strcmp(method, "POST"))
            return serve__error(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "use POST", 0);
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > s->max_body) {
            char msg[120];
            snprintf(msg, sizeof msg, "the body is larger than %zu bytes", s->max_body);
            return serve__error(conn, MHD_HTTP_CONTENT_TOO_LARGE, msg, 0);
        }
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        rq->kind = 1;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_data_size) {
        /* the body, capped: beyond the limit it is read and dropped, then answered 413 */
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (rq->too_large || rq->len + n > s->max_body) {
            rq->too_large = true;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t nc = rq->cap ? rq->cap : 4096;
            while (nc < rq->len + n + 1)
                nc *= 2;
            char *g = realloc(rq->body, nc);
            if (!g)
                return MHD_NO;
            rq->body = g;
            rq->cap = nc;
        }
        memcpy(rq->body + rq->len, upload_data, n);
        rq->len += n;
        return MHD_YES;
    }
    if (rq->job) /* resumed: the worker finished or the budget ran out */
        return serve__answer(s, conn, rq->job);
    if (rq->too_large) {
        char msg[120];
        snprintf(msg, sizeof msg, "the body is larger than %zu bytes", s->max_body);
        return serve__error(conn, MHD_HTTP_CONTENT_TOO_LARGE, msg, 0);
    }
    char why[300] = "";
    bool nomem = false;
    serve__job *j = serve__parse(serve__srv, rq->body ? rq->body : "", rq->len, why, sizeof why, &nomem);
    if (!j)
        return nomem ? serve__error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory", false)
                     : serve__error(conn, MHD_HTTP_BAD_REQUEST, why, 0);
    j->conn = conn;
    j->t_accept = sg_cli_now_ms();
    j->deadline = j->t_accept + s->budget_ms;
    pthread_mutex_lock(&s->lock);
    double ahead_ms = s->stopping || s->draining || s->qlen == s->queue_cap ? 0 : serve__too_late(s, j);
    if (s->stopping || s->draining || s->qlen == s->queue_cap || ahead_ms > 0) {
        bool stopping = s->stopping || s->draining;
        if (ahead_ms > 0)
            s->refused_budget++;
        j->refs = 1;
        serve__job_unref(s, j); /* (its policy and rule set too) */
        pthread_mutex_unlock(&s->lock);
        char msg[200];
        unsigned retry = 1;
        if (stopping) {
            snprintf(msg, sizeof msg, "the server is shutting down");
        } else if (ahead_ms > 0) {
            retry = ahead_ms >= 1e6 ? 1000 : (unsigned)((ahead_ms + 999) / 1000);
            snprintf(msg, sizeof msg, "the requests ahead (about %.0f ms per worker) leave no time to judge this one "
                                      "within the time budget of %.0f ms: retry later", ahead_ms, s->budget_ms);
        } else {
            snprintf(msg, sizeof msg, "the queue is full: retry later");
        }
        return serve__error(conn, MHD_HTTP_SERVICE_UNAVAILABLE, msg, retry);
    }
    j->refs = 2; /* the connection's and the worker's */
    rq->job = j;
    s->queue[(s->qhead + s->qlen) % s->queue_cap] = j;
    s->qlen++;
    j->next = &s->inflight;
    j->prev = s->inflight.prev;
    s->inflight.prev->next = j;
    s->inflight.prev = j;
    s->ninflight++;
    /* suspended before a worker can see it (the worker needs this lock to take it) */
    MHD_suspend_connection(conn);
    pthread_cond_broadcast(&s->can_take); /* (the lane takes only small ones: wake every taker) */
    pthread_mutex_unlock(&s->lock);
    return MHD_YES;
}

static void serve__completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                             enum MHD_RequestTerminationCode toe)
{
    serve__server *s = cls;
    serve__req *rq = *con_cls;
    serve__set_receiving(s, conn, true); /* a keep-alive connection's next request: its deadline starts */
    if (!rq)
        return;
    if (rq->job) {
        pthread_mutex_lock(&s->lock);
        serve__job_unref(s, rq->job);
        pthread_mutex_unlock(&s->lock);
    }
    free(rq->body);
    free(rq);
    *con_cls = NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Listening                                                                                    */

/* A listening socket for ADDR (HOST:PORT or unix:/PATH). Returns the fd, or -1 after printing
 * the error; *ret_label is what to announce. */
static int serve__listen(const char *addr, char *label, size_t labellen, char **ret_unlink)
{
    int fd;
    if (!strncmp(addr, "unix:", 5)) {
        const char *path = addr + 5;
        struct sockaddr_un su = {.sun_family = AF_UNIX};
        if (!*path || strlen(path) >= sizeof su.sun_path) {
            sg_cli_error("serve", "--listen unix:PATH: the path must be 1 to %zu bytes", sizeof su.sun_path - 1);
            return -1;
        }
        memcpy(su.sun_path, path, strlen(path) + 1);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int brc = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&su, sizeof su);
        if (brc != 0 && errno == EADDRINUSE) {
            /* a socket file a crashed server left: removed when nobody listens on it (a
             * connection refused); a live server's socket, or a file that is no socket, stays */
            struct stat st;
            int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            bool stale = lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && probe >= 0 &&
                         connect(probe, (struct sockaddr *)&su, sizeof su) != 0 && errno == ECONNREFUSED;
            if (probe >= 0)
                close(probe);
            if (!stale) {
                sg_cli_error("serve", "cannot listen on %s: %s (%s)", addr, strerror(EADDRINUSE),
                             lstat(path, &st) == 0 && !S_ISSOCK(st.st_mode) ? "a file that is not a socket is there"
                                                                            : "a server is listening on it");
                close(fd);
                return -1;
            }
            fprintf(stderr, "snipgate: serve: note: removed the stale socket %s (nobody listened on it)\n", path);
            brc = unlink(path) == 0 ? bind(fd, (struct sockaddr *)&su, sizeof su) : -1;
        }
        if (fd < 0 || brc != 0 || listen(fd, 1024) != 0) {
            sg_cli_error("serve", "cannot listen on %s: %s", addr, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        snprintf(label, labellen, "%s", addr);
        *ret_unlink = strdup(path);
        return fd;
    }
    const char *colon = strrchr(addr, ':');
    char host[64];
    unsigned long port;
    if (!colon || (size_t)(colon - addr) >= sizeof host || sg_cli_parse_ulong(colon + 1, 65535, &port)) {
        sg_cli_error("serve", "--listen must be HOST:PORT (IPv4) or unix:/PATH (got '%s')", addr);
        return -1;
    }
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = 0;
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, !strcmp(host, "localhost") ? "127.0.0.1" : host, &sin.sin_addr) != 1) {
        sg_cli_error("serve", "--listen: '%s' is not an IPv4 address", host);
        return -1;
    }
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(fd, 1024) != 0) {
        sg_cli_error("serve", "cannot listen on %s: %s", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    socklen_t sl = sizeof sin;
    getsockname(fd, (struct sockaddr *)&sin, &sl);
    snprintf(label, labellen, "%s:%u", host, (unsigned)ntohs(sin.sin_port));
    return fd;
}

/* Answer 504 for every in-flight job whose budget ran out. Called without s->lock. */
static void serve__expire(serve__server *s)
{
    for (;;) {
        double now = sg_cli_now_ms();
        struct MHD_Connection *conn = NULL;
        pthread_mutex_lock(&s->lock);
        for (serve__job *j = s->inflight.next; j != &s->inflight; j = j->next) {
            if (!j->done && now > j->deadline) {
                j->timed_out = true;
                atomic_store(&j->cancel, 1);
                if (serve__resume(s, j))
                    conn = j->conn;
                break;
            }
        }
        pthread_mutex_unlock(&s->lock);
        if (!conn)
            return;
        MHD_resume_connection(conn);
    }
}

enum {
    OPT_LISTEN = 1000, OPT_QUEUE, OPT_MAX_BODY, OPT_BUDGET_MS, OPT_FAIL_ON, OPT_REQUEST_POLICY, OPT_PER_CLIENT,
    OPT_DEADLINE,
};

int sg_cli_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, OPT_LISTEN}, {"jobs", required_argument, NULL, 'j'},
        {"queue", required_argument, NULL, OPT_QUEUE}, {"max-body", required_argument, NULL, OPT_MAX_BODY},
        {"time-budget", required_argument, NULL, OPT_BUDGET_MS}, {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"request-policy", required_argument, NULL, OPT_REQUEST_POLICY},
        {"max-client-connections", required_argument, NULL, OPT_PER_CLIENT},
        {"request-deadline", required_argument, NULL, OPT_DEADLINE},
        {"rules", required_argument, NULL, 'R'}, {"no-default-rules", no_argument, NULL, 'N'},
        {"disable", required_argument, NULL, 'D'}, {"allow-host", required_argument, NULL, 'A'},
        SG_CLI_GOLDEN_LONGOPTS, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    serve__server s;
    memset(&s, 0, sizeof s);
    sg_options_init(&s.pipe.opts);
    sg_cli_golden_init(&s.pipe.golden);
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    s.workers = nproc > 0 ? nproc : 1;
    s.queue_cap = 64;
    s.max_body = 1u << 20;
    s.per_client = 64;
    s.deadline_ms = 30000;
    s.budget_ms = 10000;
    const char *listen_addr = NULL;
    bool no_default = false;
    char **packs = NULL, **disables = NULL, **hosts = NULL;
    size_t npacks = 0, ndisables = 0, nhosts = 0;
    sg_rules *rules = NULL;
    sg_golden_suite *suite = NULL;
    sg_sandbox *sandbox = NULL;
    char *unlink_path = NULL;
    struct MHD_Daemon *d = NULL;
    pthread_t tids[SERVE_MAX_JOBS];
    long started = 0;
    pthread_t lane_tid;
    bool lane = false; /* the small lane's thread started */
    bool sync_made = false;
    int lfd = -1, rc = SG_EXIT_USAGE;

    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, ":j:h", longopts, NULL)) != -1) {
        unsigned long ul;
        long l;
        switch (ch) {
        case OPT_LISTEN: listen_addr = optarg; break;
        case 'j':
            if (sg_cli_parse_long(optarg, 1, SERVE_MAX_JOBS, &l)) {
                sg_cli_error("serve", "--jobs must be from 1 to %d (got '%s')", SERVE_MAX_JOBS, optarg);
                goto out_free;
            }
            s.workers = l;
            break;
        case OPT_QUEUE:
            if (sg_cli_parse_ulong(optarg, 1000000, &ul) || ul == 0) {
                sg_cli_error("serve", "--queue must be from 1 to 1000000 (got '%s')", optarg);
                goto out_free;
            }
            s.queue_cap = ul;
            break;
        case OPT_MAX_BODY:
            if (sg_cli_parse_ulong(optarg, 1UL << 30, &ul) || ul == 0) {
                sg_cli_error("serve", "--max-body must be from 1 to %lu (got '%s')", 1UL << 30, optarg);
                goto out_free;
            }
            s.max_body = ul;
            break;
        case OPT_BUDGET_MS:
            if (sg_cli_parse_ulong(optarg, 3600000, &ul) || ul == 0) {
                sg_cli_error("serve", "--time-budget must be from 1 to 3600000 ms (got '%s')", optarg);
                goto out_free;
            }
            s.budget_ms = (double)ul;
            break;
        case OPT_PER_CLIENT:
            if (sg_cli_parse_ulong(optarg, 4000, &ul) || ul == 0) {
                sg_cli_error("serve", "--max-client-connections must be from 1 to 4000 (got '%s')", optarg);
                goto out_free;
            }
            s.per_client = ul;
            break;
        case OPT_DEADLINE:
            if (sg_cli_parse_ulong(optarg, 3600, &ul) || ul == 0) {
                sg_cli_error("serve", "--request-deadline must be from 1 to 3600 seconds (got '%s')", optarg);
                goto out_free;
            }
            s.deadline_ms = (double)ul * 1000;
            break;
        case OPT_REQUEST_POLICY:
            if (!strcmp(optarg, "tighten"))
                s.request_policy = SERVE_RP_TIGHTEN;
            else if (!strcmp(optarg, "deny"))
                s.request_policy = SERVE_RP_DENY;
            else if (!strcmp(optarg, "allow"))
                s.request_policy = SERVE_RP_ALLOW;
            else {
                sg_cli_error("serve", "--request-policy must be tighten, deny or allow (got '%s')", optarg);
                goto out_free;
            }
            break;
        case OPT_FAIL_ON:
            if (sg_severity_parse(optarg, &s.pipe.opts.fail_on)) {
                sg_cli_error("serve", "--fail-on must be low, medium, high or critical (got '%s')", optarg);
                goto out_free;
            }
            break;
        case 'R': case 'N': case 'D': case 'A':
            if ((rc = sg_cli_rules_opt(ch, optarg, &no_default, &packs, &npacks, &disables, &ndisables, &hosts,
                                       &nhosts)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case SG_OPT_TASK: case SG_OPT_TESTS: case SG_OPT_COMPLETION: case SG_OPT_WHOLE_PROGRAM:
            sg_cli_error("serve", "'%s' is not a serve option: requests carry their task (see --help)",
                         argv[optind - 1]);
            goto out_free;
        case SG_OPT_SUITE: case SG_OPT_SEED: case SG_OPT_BUDGET: case SG_OPT_NO_PROPERTIES: case SG_OPT_INTERPRETER:
            if ((rc = sg_cli_golden_opt("serve", &s.pipe.golden, ch, optarg)))
                goto out_free;
            rc = SG_EXIT_USAGE;
            break;
        case 'h':
            serve__help(stdout);
            rc = SG_EXIT_PASS;
            goto out_free;
        case ':':
            sg_cli_error("serve", "option '%s' needs a value", argv[optind - 1]);
            goto out_free;
        default:
            sg_cli_error("serve", "unknown option '%s' (see snipgate serve --help)", argv[optind - 1]);
            goto out_free;
        }
    }
    if (optind < argc) {
        sg_cli_error("serve", "unexpected argument '%s'", argv[optind]);
        goto out_free;
    }
    if (!listen_addr) {
        sg_cli_error("serve", "--listen HOST:PORT or unix:/PATH is required");
        goto out_free;
    }
    if (!serve__mhd_open()) {
        rc = SG_EXIT_INTERNAL;
        goto out_free;
    }
    /* the static gate's parse gets the request's budget at most */
    if (s.pipe.opts.parse_timeout_ms == 0 || s.pipe.opts.parse_timeout_ms > s.budget_ms)
        s.pipe.opts.parse_timeout_ms = (uint32_t)s.budget_ms;
    s.pipe.golden_max_seconds = s.budget_ms / 1000;
    if (s.pipe.golden.suite_path && (rc = sg_cli_load_suite("serve", s.pipe.golden.suite_path, &suite)))
        goto out_free;
    if ((rc = sg_cli_build_rules("serve", no_default, packs, npacks, disables, ndisables, hosts, nhosts, s.pipe.opts.max_bytes, &rules)))
        goto out_free;
    rc = SG_EXIT_INTERNAL;
    s.pipe.rules = rules;
    s.pipe.suite = suite;
    s.no_default = no_default;
    s.packs = packs, s.npacks = npacks;
    s.disables = disables, s.ndisables = ndisables;
    s.hosts = hosts, s.nhosts = nhosts;
    {
        sg_diag sd;
        sg_diag_init(&sd);
        sg_status sst = sg_sandbox_new(s.pipe.golden.interpreter, &sandbox, &sd);
        if (sst == SG_ERR_INVALID_ARG) {
            sg_cli_error("serve", "--interpreter: %s", sd.message[0] ? sd.message : sg_strerror(sst));
            rc = SG_EXIT_USAGE;
            goto out_free;
        }
        if (sst != SG_OK) {
            snprintf(s.pipe.sandbox_error, sizeof s.pipe.sandbox_error, "the sandbox could not be set up: %s: %s",
                     sg_strerror(sst), sd.message[0] ? sd.message : "no detail");
            fprintf(stderr, "snipgate: serve: note: %s (requests with a task will be answered 500)\n",
                    s.pipe.sandbox_error);
            sandbox = NULL;
        }
        s.pipe.sandbox = sandbox;
    }
    if (!(s.queue = calloc(s.queue_cap, sizeof *s.queue))) {
        sg_cli_error("serve", "out of memory");
        goto out_free;
    }
    s.inflight.next = s.inflight.prev = &s.inflight;
    pthread_mutex_init(&s.lock, NULL);
    pthread_mutex_init(&s.conns_lock, NULL);
    s.conns.next = s.conns.prev = &s.conns;
    pthread_cond_init(&s.can_take, NULL);
    pthread_cond_init(&s.idle, NULL);
    sync_made = true;
    s.started = sg_cli_now_ms();
    serve__srv = &s;

    /* signals: every thread blocks them; the main thread takes them with sigtimedwait */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    char label[300];
    if ((lfd = serve__listen(listen_addr, label, sizeof label, &unlink_path)) < 0) {
        rc = SG_EXIT_USAGE;
        goto out_free;
    }
    for (long i = 0; i < s.workers; i++) {
        if (pthread_create(&tids[i], NULL, serve__worker, &s) != 0)
            break;
        started++;
    }
    lane = started && pthread_create(&lane_tid, NULL, serve__lane, &s) == 0;
    if (!started) {
        sg_cli_error("serve", "cannot start a worker thread");
        goto out_stop;
    }
    d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC, 0,
                         NULL, NULL, serve__handle, &s, MHD_OPTION_LISTEN_SOCKET, lfd,
                         MHD_OPTION_NOTIFY_COMPLETED, serve__completed, &s, MHD_OPTION_NOTIFY_CONNECTION,
                         serve__notify_conn, &s, MHD_OPTION_CONNECTION_TIMEOUT,
                         (unsigned)60, MHD_OPTION_CONNECTION_LIMIT, (unsigned)4000,
                         /* one client address cannot hold every connection (4,000 slow senders made
                          * every other client's request time out); Unix sockets have no address */
                         MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s.per_client, MHD_OPTION_END);
    if (!d) {
        sg_cli_error("serve", "the HTTP server (libmicrohttpd) could not start");
        goto out_stop;
    }
    fprintf(stderr, "snipgate serve: listening on %s (%ld workers, queue %zu)\n", label, s.workers, s.queue_cap);
    fflush(stderr);

    int sig = 0;
    for (;;) {
        struct timespec ts = {0, 20 * 1000000};
        sig = sigtimedwait(&sigs, NULL, &ts);
        if (sig > 0)
            break;
        serve__expire(&s);
        serve__sweep(&s);
    }
    /* stop accepting; finish every accepted request (their budgets still apply) */
    MHD_socket q = MHD_quiesce_daemon(d);
    if (q != MHD_INVALID_SOCKET)
        close(q);
    lfd = -1;
    if (unlink_path)
        unlink(unlink_path);
    pthread_mutex_lock(&s.lock);
    s.draining = true;
    fprintf(stderr, "snipgate serve: signal %d: draining %zu accepted requests\n", sig, s.ninflight);
    while (s.ninflight) {
        pthread_mutex_unlock(&s.lock);
        serve__expire(&s);
        pthread_mutex_lock(&s.lock);
        if (!s.ninflight)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&s.idle, &s.lock, &ts);
    }
    pthread_mutex_unlock(&s.lock);
    /* let the polling thread send the last answers before the daemon stops */
    for (int i = 0; i < 50; i++) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
        if (!info || info->num_connections == 0)
            break;
        usleep(10000);
    }
    rc = SG_EXIT_PASS;
out_stop:
    pthread_mutex_lock(&s.lock);
    s.stopping = true;
    pthread_cond_broadcast(&s.can_take);
    pthread_mutex_unlock(&s.lock);
    /* workers finish what they hold (a timed-out job still runs to its end: its sandbox too) */
    for (long i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (lane)
        pthread_join(lane_tid, NULL);
    if (d)
        MHD_stop_daemon(d);
    else if (lfd >= 0)
        close(lfd);
    if (rc == SG_EXIT_PASS)
        fprintf(stderr, "snipgate serve: stopped\n");
    else
        rc = SG_EXIT_INTERNAL;
out_free:
    if (sync_made) {
        pthread_mutex_destroy(&s.lock);
        pthread_mutex_destroy(&s.conns_lock);
        pthread_cond_destroy(&s.can_take);
        pthread_cond_destroy(&s.idle);
    }
    if (unlink_path) {
        unlink(unlink_path);
        free(unlink_path);
    }
    free(s.queue);
    free(packs);
    free(disables);
    free(hosts);
    sg_rules_free(rules);
    sg_sandbox_free(sandbox);
    sg_golden_suite_free(suite);
    serve__srv = NULL;
    return rc;
}
