/*
 * Outcomes: classification of the facts a phase produced, outcome objects and their JSON.
 *
 * Trust: classification ranks the facts snipgate observed itself first (seccomp notification,
 * its own output caps and clock, the cgroup OOM counter, pid 1's wait status) and only then the
 * runner's frames. A frame can make an outcome worse (exception) but an `ok` needs both the
 * frame and a clean exit, and even then it only carries data (the repr of a value) for a later
 * stage to judge: the candidate cannot turn a failure into a pass by printing or forging.
 */
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sandbox/sandbox.h"

struct sg_outcome {
    sg_outcome_info info;
    char *syscall;
    char *stdout_data;
    char *stderr_data;
    char *exc_type;
    char *exc_message;
    char *traceback;
    char *exc_mro;
    char *value_repr;
    char *value_json;
    char *value_error;
    char *detail;
};

static const char *const outcome__names[] = {
    [SG_OUTCOME_OK] = "ok",
    [SG_OUTCOME_EXCEPTION] = "exception",
    [SG_OUTCOME_TIMEOUT] = "timeout",
    [SG_OUTCOME_MEMORY_LIMIT] = "memory_limit",
    [SG_OUTCOME_OUTPUT_LIMIT] = "output_limit",
    [SG_OUTCOME_FORBIDDEN_SYSCALL] = "forbidden_syscall",
    [SG_OUTCOME_SIGNAL] = "signal",
    [SG_OUTCOME_SETUP_ERROR] = "setup_error",
};

const char *sg_outcome_kind_name(sg_outcome_kind kind)
{
    if ((unsigned)kind < sizeof outcome__names / sizeof outcome__names[0])
        return outcome__names[kind];
    return "unknown";
}

sg_status sg_outcome_kind_parse(const char *name, sg_outcome_kind *ret_kind)
{
    for (unsigned i = 0; name && i < sizeof outcome__names / sizeof outcome__names[0]; i++) {
        if (!strcmp(name, outcome__names[i])) {
            *ret_kind = (sg_outcome_kind)i;
            return SG_OK;
        }
    }
    return SG_ERR_INVALID_ARG;
}

/*
 * The verdict table, in order of precedence. Pure: unit-tested on hand-made facts.
 */
sg_outcome_kind sg_outcome_classify(const struct sg_facts *facts, const sg_sandbox_limits *limits,
                                    const char **ret_timeout_kind)
{
    *ret_timeout_kind = NULL;
    const struct sg_frame *r = facts->result;
    int sig = facts->have_status && WIFSIGNALED(facts->wstatus) ? WTERMSIG(facts->wstatus) : 0;
    bool exited0 = facts->have_status && WIFEXITED(facts->wstatus) && WEXITSTATUS(facts->wstatus) == 0;
    if (facts->forbidden)
        return SG_OUTCOME_FORBIDDEN_SYSCALL;
    if (facts->output_limit)
        return SG_OUTCOME_OUTPUT_LIMIT;
    if (facts->wall_timeout) {
        *ret_timeout_kind = "wall";
        return SG_OUTCOME_TIMEOUT;
    }
    if (facts->oom_kill)
        return SG_OUTCOME_MEMORY_LIMIT;
    /* CPU the supervisor measured over the limit is a timeout, however the process ended (it may
     * have caught SIGXCPU or raised its own soft limit). */
    if (facts->cpu_timeout || sig == SIGXCPU || (limits->cpu_ms && facts->cpu_ms > limits->cpu_ms)) {
        *ret_timeout_kind = "cpu";
        return SG_OUTCOME_TIMEOUT;
    }
    /* Nothing inside the sandbox can send SIGKILL (seccomp) or set the CPU limit whose hard end
     * is a SIGKILL: one the supervisor did not send, at no limit, came from outside (the host's
     * OOM killer, an operator): the gate could not judge this call. */
    if (sig == SIGKILL && !facts->supervisor_killed && !facts->protocol_error)
        return SG_OUTCOME_SETUP_ERROR;
    /* Nothing inside the sandbox can send SIGILL (seccomp) and CPython executes no illegal
     * instruction: the kernel sent it, for `uretprobe` (which kernels from 6.11 run without
     * consulting seccomp; outside a uprobe trampoline it ends its caller with SIGILL) or for
     * native code the candidate made (ctypes). Either is outside what the allow-list lets a
     * candidate do. */
    if (sig == SIGILL)
        return SG_OUTCOME_FORBIDDEN_SYSCALL;
    /* before the signal: a protocol error makes the supervisor kill the sandbox, and whether
     * that SIGKILL's status is in by now is a race */
    if (facts->protocol_error)
        return SG_OUTCOME_EXCEPTION;
    if (sig)
        return SG_OUTCOME_SIGNAL;
    if (sg_frame_is(r, "exception")) {
        /* A MemoryError is the memory limit only when the cgroup saw the limit hit; a class of
         * that name raised by the snippet is just an exception. */
        const char *t = sg_frame_get(r, SG_TAG_TYPE, NULL);
        if (facts->mem_limit_hit && t && !strcmp(t, "MemoryError"))
            return SG_OUTCOME_MEMORY_LIMIT;
        return SG_OUTCOME_EXCEPTION;
    }
    /* A frame can only make things worse: `ok` needs the expected frame AND a clean exit that
     * the supervisor observed (a live zygote after its import has no status yet). */
    if (sg_frame_is(r, "exit")) {
        const char *c = sg_frame_get(r, SG_TAG_EXIT_CODE, NULL);
        return !facts->is_call && exited0 && c && !strcmp(c, "0") ? SG_OUTCOME_OK
                                                                 : SG_OUTCOME_EXCEPTION;
    }
    bool good = sg_frame_is(r, facts->is_call && !facts->import_item ? "ok" : "ready");
    if (good && (exited0 || (!facts->have_status && !facts->is_call)))
        return SG_OUTCOME_OK;
    return SG_OUTCOME_EXCEPTION; /* no result, or a non-zero exit */
}

static char *outcome__dup(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        if (len)
            memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static void outcome__sync(sg_outcome *o)
{
    o->info.syscall = o->syscall;
    o->info.stdout_data = o->stdout_data;
    o->info.stderr_data = o->stderr_data;
    o->info.exc_type = o->exc_type;
    o->info.exc_message = o->exc_message;
    o->info.traceback = o->traceback;
    o->info.exc_mro = o->exc_mro;
    o->info.value_repr = o->value_repr;
    o->info.value_json = o->value_json;
    o->info.value_error = o->value_error;
    o->info.detail = o->detail;
}

void sg_outcome_free(sg_outcome *o)
{
    if (!o)
        return;
    free(o->syscall);
    free(o->stdout_data);
    free(o->stderr_data);
    free(o->exc_type);
    free(o->exc_message);
    free(o->traceback);
    free(o->exc_mro);
    free(o->value_repr);
    free(o->value_json);
    free(o->value_error);
    free(o->detail);
    free(o);
}

const sg_outcome_info *sg_outcome_info_get(const sg_outcome *outcome)
{
    return outcome ? &outcome->info : NULL;
}

static const char *outcome__field(const struct sg_frame *f, enum sg_frame_tag tag)
{
    return sg_frame_get(f, tag, NULL);
}

/*
 * Copy of a text field taken from a frame (untrusted), capped like the output it stands for: at
 * most `cap` bytes, cut on a UTF-8 boundary, "..." marking the cut.
 */
#define OUTCOME_TYPE_CAP 200
#define OUTCOME_MRO_CAP (1u << 16)
static char *outcome__capped(const char *s, size_t len, size_t cap)
{
    if (len <= cap)
        return outcome__dup(s, len);
    size_t n = cap > 3 ? cap - 3 : 0;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    char *d = malloc(n + 4);
    if (d) {
        memcpy(d, s, n);
        memcpy(d + n, "...", 4);
    }
    return d;
}

sg_status sg_outcome_build(const struct sg_facts *facts, const sg_sandbox_limits *limits,
                           const char *out, size_t out_len, bool out_trunc, const char *err,
                           size_t err_len, bool err_trunc, sg_outcome **ret_outcome)
{
    sg_outcome *o = calloc(1, sizeof *o);
    if (!o)
        return SG_ERR_NOMEM;
    const char *tkind = NULL;
    o->info.kind = sg_outcome_classify(facts, limits, &tkind);
    o->info.timeout_kind = tkind;
    o->info.exit_code = -1;
    const struct sg_frame *r = facts->result;
    if (facts->have_status) {
        if (WIFEXITED(facts->wstatus))
            o->info.exit_code = WEXITSTATUS(facts->wstatus);
        if (WIFSIGNALED(facts->wstatus))
            o->info.signal = WTERMSIG(facts->wstatus);
    }
    o->info.cpu_ms = facts->cpu_ms;
    o->info.wall_ms = facts->wall_ms;
    o->info.peak_rss_kb = facts->peak_rss_kb;
    o->info.stdout_len = out_len;
    o->info.stderr_len = err_len;
    o->info.stdout_truncated = out_trunc;
    o->info.stderr_truncated = err_trunc;
    o->info.memory_mechanism = facts->memory_mechanism;
    o->info.batch_unsure = facts->batch_unsure;
    o->info.batch_no_frame = facts->batch_no_frame;
    o->info.tasks_mechanism = facts->tasks_mechanism;
    o->info.limits = *limits;
    o->stdout_data = outcome__dup(out ? out : "", out_len);
    o->stderr_data = outcome__dup(err ? err : "", err_len);
    if (!o->stdout_data || !o->stderr_data)
        goto fail;
    /* a forbidden call the supervisor did not see notified is the SIGILL of sg_outcome_classify */
    const char *sysname = facts->forbidden ? facts->syscall : "uretprobe";
    if (o->info.kind == SG_OUTCOME_FORBIDDEN_SYSCALL && !(o->syscall = outcome__dup(sysname, strlen(sysname))))
        goto fail;
    char detail[256] = "";
    switch (o->info.kind) {
    case SG_OUTCOME_FORBIDDEN_SYSCALL:
        if (facts->forbidden)
            snprintf(detail, sizeof detail, "forbidden syscall: %s", facts->syscall);
        else
            snprintf(detail, sizeof detail, "forbidden syscall: uretprobe (killed by SIGILL, which only the "
                                            "kernel sends here: for uretprobe, which skips seccomp, or an "
                                            "illegal instruction in native code)");
        break;
    case SG_OUTCOME_TIMEOUT:
        snprintf(detail, sizeof detail, "%s time limit of %llu ms exceeded", tkind,
                 (unsigned long long)(tkind && tkind[0] == 'w' ? limits->wall_ms : limits->cpu_ms));
        break;
    case SG_OUTCOME_OUTPUT_LIMIT:
        snprintf(detail, sizeof detail, "%s exceeded its cap", out_trunc ? "stdout" : "stderr");
        break;
    case SG_OUTCOME_MEMORY_LIMIT:
        snprintf(detail, sizeof detail, "memory limit of %llu bytes (%s)",
                 (unsigned long long)limits->memory_bytes,
                 sg_limit_mechanism_name(facts->memory_mechanism));
        break;
    case SG_OUTCOME_SIGNAL:
        snprintf(detail, sizeof detail, "killed by signal %d (%s)", o->info.signal,
                 strsignal(o->info.signal));
        break;
    case SG_OUTCOME_SETUP_ERROR:
        snprintf(detail, sizeof detail, "killed by SIGKILL from outside the sandbox (not by snipgate, at no "
                                        "limit): the call was not judged");
        break;
    default:
        break;
    }
    if (o->info.kind == SG_OUTCOME_EXCEPTION || o->info.kind == SG_OUTCOME_MEMORY_LIMIT) {
        const char *t = NULL, *m = "", *b = "";
        if (facts->protocol_error) {
            t = "snipgate.ProtocolError";
            m = "the sandbox sent a malformed or unexpected result frame";
        } else if (sg_frame_is(r, "exception")) {
            t = outcome__field(r, SG_TAG_TYPE);
            m = outcome__field(r, SG_TAG_MESSAGE) ? outcome__field(r, SG_TAG_MESSAGE) : "";
            b = outcome__field(r, SG_TAG_TRACEBACK) ? outcome__field(r, SG_TAG_TRACEBACK) : "";
            if (outcome__field(r, SG_TAG_LINE))
                o->info.exc_line = atol(outcome__field(r, SG_TAG_LINE));
        } else if (sg_frame_is(r, "exit")) {
            t = "SystemExit";
            m = outcome__field(r, SG_TAG_MESSAGE) ? outcome__field(r, SG_TAG_MESSAGE) : "";
        } else if (o->info.kind == SG_OUTCOME_EXCEPTION) {
            t = "snipgate.NoResult";
            m = "the interpreter exited without reporting a result";
        }
        if (t) {
            size_t cap = limits->stderr_bytes;
            o->exc_type = outcome__capped(t, strlen(t), OUTCOME_TYPE_CAP);
            o->exc_message = outcome__capped(m, strlen(m), cap);
            o->traceback = outcome__capped(b, strlen(b), cap);
            if (!o->exc_type || !o->exc_message || !o->traceback)
                goto fail;
            /* the MRO is matched against declared names: never cut (a cut name could match),
             * dropped whole over the cap or with a NUL instead (the type's own name is matched
             * then) */
            size_t mlen = 0;
            const char *mro = facts->protocol_error || !(sg_frame_is(r, "exception") || sg_frame_is(r, "exit"))
                                  ? NULL
                                  : sg_frame_get(r, SG_TAG_MRO, &mlen);
            if (mro && mlen <= OUTCOME_MRO_CAP && !memchr(mro, 0, mlen) && !(o->exc_mro = outcome__dup(mro, mlen)))
                goto fail;
            if (!detail[0])
                snprintf(detail, sizeof detail, "%s: %.200s", t, m);
        }
    }
    if (o->info.kind == SG_OUTCOME_OK && facts->is_call && outcome__field(r, SG_TAG_REPR)) {
        if (!(o->value_repr = outcome__capped(outcome__field(r, SG_TAG_REPR), r->lens[SG_TAG_REPR], limits->stdout_bytes)))
            goto fail;
        /* The encoded value is data for a comparison made outside: never cut (a cut JSON text
         * is not the value); over the cap it is refused instead. */
        const char *j = outcome__field(r, SG_TAG_VALUE_JSON), *why = outcome__field(r, SG_TAG_VALUE_ERROR);
        char capmsg[96];
        if (j && r->lens[SG_TAG_VALUE_JSON] > limits->stdout_bytes) {
            snprintf(capmsg, sizeof capmsg, "the encoded value is over %llu bytes",
                     (unsigned long long)limits->stdout_bytes);
            j = NULL;
            why = capmsg;
        } else if (!j && !why) {
            why = "no encoded value was reported";
        }
        if (j && !(o->value_json = outcome__dup(j, r->lens[SG_TAG_VALUE_JSON])))
            goto fail;
        if (why && !(o->value_error = outcome__capped(why, strlen(why), 200)))
            goto fail;
    }
    /* A counted call's event count (limits->cost_events): digits only, else none (a claim: it
     * can make the candidate look cheaper, which the caller treats as no finding) */
    const char *cost = facts->is_call && limits->cost_events && !facts->protocol_error
                           ? outcome__field(r, SG_TAG_COST)
                           : NULL;
    if (cost && *cost && strlen(cost) <= 19 && strspn(cost, "0123456789") == strlen(cost)) {
        o->info.has_cost = true;
        o->info.cost = strtoull(cost, NULL, 10);
    }
    if (!(o->detail = outcome__dup(detail, strlen(detail))))
        goto fail;
    outcome__sync(o);
    *ret_outcome = o;
    return SG_OK;
fail:
    sg_outcome_free(o);
    return SG_ERR_NOMEM;
}

static sg_status outcome__dupfield(char **dst, const char *src, size_t len)
{
    if (!src)
        return SG_OK;
    *dst = outcome__dup(src, len);
    return *dst ? SG_OK : SG_ERR_NOMEM;
}

sg_status sg_outcome_copy(const sg_outcome *src, sg_outcome **ret_outcome)
{
    sg_outcome *o = calloc(1, sizeof *o);
    if (!o)
        return SG_ERR_NOMEM;
    o->info = src->info;
    if (outcome__dupfield(&o->syscall, src->syscall, src->syscall ? strlen(src->syscall) : 0) ||
        outcome__dupfield(&o->stdout_data, src->stdout_data, src->info.stdout_len) ||
        outcome__dupfield(&o->stderr_data, src->stderr_data, src->info.stderr_len) ||
        outcome__dupfield(&o->exc_type, src->exc_type, src->exc_type ? strlen(src->exc_type) : 0) ||
        outcome__dupfield(&o->exc_message, src->exc_message,
                          src->exc_message ? strlen(src->exc_message) : 0) ||
        outcome__dupfield(&o->traceback, src->traceback, src->traceback ? strlen(src->traceback) : 0) ||
        outcome__dupfield(&o->exc_mro, src->exc_mro, src->exc_mro ? strlen(src->exc_mro) : 0) ||
        outcome__dupfield(&o->value_repr, src->value_repr,
                          src->value_repr ? strlen(src->value_repr) : 0) ||
        outcome__dupfield(&o->value_json, src->value_json,
                          src->value_json ? strlen(src->value_json) : 0) ||
        outcome__dupfield(&o->value_error, src->value_error,
                          src->value_error ? strlen(src->value_error) : 0) ||
        outcome__dupfield(&o->detail, src->detail, src->detail ? strlen(src->detail) : 0)) {
        sg_outcome_free(o);
        return SG_ERR_NOMEM;
    }
    outcome__sync(o);
    *ret_outcome = o;
    return SG_OK;
}

/* An outcome made here, not from a run (o, its info filled in): `detail`, no output; o is freed
 * on failure. */
static sg_status outcome__bare_finish(sg_outcome *o, const char *detail, sg_outcome **ret_outcome)
{
    o->detail = outcome__dup(detail, strlen(detail));
    o->stdout_data = outcome__dup("", 0);
    o->stderr_data = outcome__dup("", 0);
    if (!o->detail || !o->stdout_data || !o->stderr_data) {
        sg_outcome_free(o);
        return SG_ERR_NOMEM;
    }
    outcome__sync(o);
    *ret_outcome = o;
    return SG_OK;
}

sg_status sg_outcome_new_events_timeout(const sg_outcome *src, sg_outcome **ret_outcome)
{
    if (!src || !src->info.has_cost)
        return SG_ERR_INVALID_ARG;
    sg_outcome *o = calloc(1, sizeof *o);
    if (!o)
        return SG_ERR_NOMEM;
    o->info.kind = SG_OUTCOME_TIMEOUT;
    o->info.timeout_kind = "events";
    o->info.exit_code = -1;
    o->info.cpu_ms = src->info.cpu_ms;
    o->info.wall_ms = src->info.wall_ms;
    o->info.peak_rss_kb = src->info.peak_rss_kb;
    o->info.limits = src->info.limits;
    o->info.memory_mechanism = src->info.memory_mechanism;
    o->info.tasks_mechanism = src->info.tasks_mechanism;
    o->info.has_cost = true;
    o->info.cost = src->info.cost;
    return outcome__bare_finish(o, "the call went past its event budget", ret_outcome);
}

sg_status sg_outcome_new_setup_error(const sg_diag *diag, const sg_sandbox_limits *limits,
                                     sg_outcome **ret_outcome)
{
    sg_outcome *o = calloc(1, sizeof *o);
    if (!o)
        return SG_ERR_NOMEM;
    o->info.kind = SG_OUTCOME_SETUP_ERROR;
    o->info.exit_code = -1;
    if (limits)
        o->info.limits = *limits;
    else
        sg_sandbox_limits_init(&o->info.limits);
    const char *msg = diag && diag->message[0] ? diag->message : "the sandbox could not be set up";
    return outcome__bare_finish(o, msg, ret_outcome);
}

/* Bytes from the sandbox may be anything: keep valid UTF-8, replace the rest with U+FFFD. */
static json_t *outcome__json_text(const char *s, size_t len)
{
    if (!s)
        return json_null();
    char *buf = malloc(len * 3 + 1);
    if (!buf)
        return NULL;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = p[i];
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = n > 0 && i + n <= len;
        for (size_t k = 1; ok && k < n; k++)
            ok = (p[i + k] & 0xC0) == 0x80;
        if (ok && n == 2 && c < 0xC2)
            ok = false;
        if (ok && n == 3) {
            unsigned cp = (c & 0x0F) << 12 | (p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F);
            ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
        }
        if (ok && n == 4) {
            unsigned cp = (c & 0x07) << 18 | (p[i + 1] & 0x3F) << 12 | (p[i + 2] & 0x3F) << 6 |
                          (p[i + 3] & 0x3F);
            ok = cp >= 0x10000 && cp <= 0x10FFFF;
        }
        if (ok) {
            memcpy(buf + o, p + i, n);
            o += n;
            i += n;
        } else {
            memcpy(buf + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i += 1;
        }
    }
    json_t *j = json_stringn(buf, o);
    free(buf);
    return j;
}

sg_status sg_outcome_to_json(const sg_outcome *outcome, char **ret_json)
{
    const sg_outcome_info *i = &outcome->info;
    json_t *root = json_object();
    json_t *lim = json_object();
    if (!root || !lim)
        goto fail;
    int bad = 0;
    bad |= json_object_set_new(root, "outcome", json_string(sg_outcome_kind_name(i->kind)));
    bad |= json_object_set_new(root, "exit_code", i->exit_code >= 0 ? json_integer(i->exit_code) : json_null());
    bad |= json_object_set_new(root, "signal", i->signal ? json_integer(i->signal) : json_null());
    bad |= json_object_set_new(root, "syscall", i->syscall ? json_string(i->syscall) : json_null());
    bad |= json_object_set_new(root, "timeout_kind", i->timeout_kind ? json_string(i->timeout_kind) : json_null());
    bad |= json_object_set_new(root, "cpu_ms", json_integer((json_int_t)i->cpu_ms));
    bad |= json_object_set_new(root, "wall_ms", json_integer((json_int_t)i->wall_ms));
    bad |= json_object_set_new(root, "peak_rss_kb", json_integer((json_int_t)i->peak_rss_kb));
    bad |= json_object_set_new(root, "stdout", outcome__json_text(i->stdout_data, i->stdout_len));
    bad |= json_object_set_new(root, "stderr", outcome__json_text(i->stderr_data, i->stderr_len));
    bad |= json_object_set_new(root, "truncated", json_boolean(i->stdout_truncated || i->stderr_truncated));
    bad |= json_object_set_new(root, "stdout_truncated", json_boolean(i->stdout_truncated));
    bad |= json_object_set_new(root, "stderr_truncated", json_boolean(i->stderr_truncated));
    if (i->exc_type) {
        json_t *e = json_object();
        if (!e)
            goto fail;
        bad |= json_object_set_new(root, "exception", e);
        bad |= json_object_set_new(e, "type", outcome__json_text(i->exc_type, strlen(i->exc_type)));
        bad |= json_object_set_new(e, "message", outcome__json_text(i->exc_message, strlen(i->exc_message)));
        bad |= json_object_set_new(e, "traceback", outcome__json_text(i->traceback, strlen(i->traceback)));
        bad |= json_object_set_new(e, "line", i->exc_line > 0 ? json_integer(i->exc_line) : json_null());
    } else {
        bad |= json_object_set_new(root, "exception", json_null());
    }
    bad |= json_object_set_new(root, "value_repr",
                               i->value_repr ? outcome__json_text(i->value_repr, strlen(i->value_repr)) : json_null());
    bool nomem = false; /* the candidate's value: guarded (snipgate.h) */
    json_t *value = i->value_json ? sg_json_loadb_guarded(i->value_json, strlen(i->value_json), JSON_DECODE_ANY, NULL,
                                                          &nomem)
                                  : NULL;
    bad |= nomem;
    bad |= json_object_set_new(root, "value", value ? value : json_null());
    bad |= json_object_set_new(root, "value_error",
                               i->value_error ? outcome__json_text(i->value_error, strlen(i->value_error))
                                              : (i->value_json && !value ? json_string("not valid JSON")
                                                                         : json_null()));
    bad |= json_object_set_new(root, "detail", outcome__json_text(i->detail, strlen(i->detail)));
    if (i->has_cost) /* (a counted call only: other outcomes' JSON is unchanged) */
        bad |= json_object_set_new(root, "cost", json_integer((json_int_t)(i->cost > INT64_MAX ? INT64_MAX : i->cost)));
    const sg_sandbox_limits *l = &i->limits;
    bad |= json_object_set_new(lim, "cpu_ms", json_integer((json_int_t)l->cpu_ms));
    bad |= json_object_set_new(lim, "wall_ms", json_integer((json_int_t)l->wall_ms));
    bad |= json_object_set_new(lim, "memory_bytes", json_integer((json_int_t)l->memory_bytes));
    bad |= json_object_set_new(lim, "memory_mechanism", json_string(sg_limit_mechanism_name(i->memory_mechanism)));
    bad |= json_object_set_new(lim, "tasks", json_integer((json_int_t)l->max_tasks));
    bad |= json_object_set_new(lim, "tasks_mechanism", json_string(sg_limit_mechanism_name(i->tasks_mechanism)));
    bad |= json_object_set_new(lim, "file_size_bytes", json_integer((json_int_t)l->file_size_bytes));
    bad |= json_object_set_new(lim, "open_files", json_integer((json_int_t)l->open_files));
    /* What applied: under rlimits /tmp and pipes are carved out of the memory limit. */
    bool rl = i->memory_mechanism == SG_MECH_RLIMIT;
    bad |= json_object_set_new(lim, "tmp_bytes",
                               json_integer((json_int_t)(rl ? sg_limits_rlimit_tmp_bytes(l) : l->tmp_bytes)));
    bad |= json_object_set_new(lim, "pipe_bytes", json_integer((json_int_t)sg_limits_pipe_bytes(l)));
    bad |= json_object_set_new(lim, "address_space_bytes",
                               rl ? json_integer((json_int_t)sg_limits_rlimit_as_bytes(l)) : json_null());
    bad |= json_object_set_new(lim, "stdout_bytes", json_integer((json_int_t)l->stdout_bytes));
    bad |= json_object_set_new(lim, "stderr_bytes", json_integer((json_int_t)l->stderr_bytes));
    if (l->cost_events)
        bad |= json_object_set_new(lim, "cost_events", json_integer((json_int_t)(l->cost_events > INT64_MAX ? INT64_MAX : l->cost_events)));
    bad |= json_object_set_new(root, "limits", lim);
    lim = NULL;
    if (bad)
        goto fail;
    char *s = sg_json_dumps(root, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(root);
    if (!s)
        return SG_ERR_NOMEM;
    *ret_json = s;
    return SG_OK;
fail:
    json_decref(lim);
    json_decref(root);
    return SG_ERR_NOMEM;
}
