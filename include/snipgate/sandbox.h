/*
 * snipgate sandbox: run untrusted Python under Linux namespaces, rlimits/cgroups and a seccomp
 * allow-list, and classify what happened. Included by snipgate.h; do not include it directly.
 *
 * Ownership (same rules as snipgate.h):
 *  - `sg_sandbox`, `sg_worker` and `sg_outcome` are opaque handles from `_new*` functions,
 *    released with the matching `_free` (NULL is a no-op).
 *  - `sg_outcome_info()` returns a view borrowed from its outcome: valid until sg_outcome_free.
 *  - Source, call text and stdin buffers are copied; callers keep theirs.
 *
 * Trust: nothing the sandboxed process prints, writes or exits with is a verdict by itself. The
 * outcome is decided outside the sandbox by snipgate from facts it observes (kernel wait status
 * reported by a trusted pid-1, seccomp notifications, cgroup events, its own clocks and output
 * caps). The repr of a returned value is *data* for a later stage to compare, never a pass.
 *
 * Threads: an `sg_sandbox` is immutable after creation and may be shared; an `sg_worker` belongs
 * to one thread at a time. Creating sandboxes from a multi-threaded program is supported: the
 * children only make raw system calls between fork and exec. The thread that creates a sandbox
 * (sg_run, sg_worker_new, a worker's restart inside sg_worker_call) must outlive it: the
 * sandbox's pid 1 carries a parent-death signal (SIGKILL), and Linux sends it when the creating
 * *thread* exits, not the process (a worker started on a short-lived thread dies with it; seen
 * when the golden stage tried starting its two workers on two threads). A worker whose sandbox
 * died that way restarts it at its next call (on the calling thread), like one that was killed.
 *
 * Failure: if the kernel refuses a namespace, a mount, a limit or the seccomp filter, the call
 * fails with SG_ERR_UNSUPPORTED or SG_ERR_SANDBOX and nothing runs. There is no fallback to
 * running code unsandboxed.
 */
#ifndef SNIPGATE_SANDBOX_H
#define SNIPGATE_SANDBOX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every way a run or a call can end. Append-only. */
typedef enum sg_outcome_kind {
    SG_OUTCOME_OK = 0,                /* ran to the end (a call returned a value) */
    SG_OUTCOME_EXCEPTION = 1,         /* an uncaught exception, SystemExit != 0, or no result */
    SG_OUTCOME_TIMEOUT = 2,           /* CPU or wall-clock limit (see timeout_kind) */
    SG_OUTCOME_MEMORY_LIMIT = 3,      /* the memory limit was hit (OOM kill or MemoryError) */
    SG_OUTCOME_OUTPUT_LIMIT = 4,      /* stdout or stderr exceeded its cap */
    SG_OUTCOME_FORBIDDEN_SYSCALL = 5, /* a system call outside the allow-list (name in syscall) */
    SG_OUTCOME_SIGNAL = 6,            /* killed by a signal */
    SG_OUTCOME_SETUP_ERROR = 7,       /* snipgate could not build the sandbox: never a pass */
} sg_outcome_kind;

/* "ok", "exception", "timeout", "memory_limit", "output_limit", "forbidden_syscall", "signal",
 * "setup_error". Never NULL ("unknown" for a bad value). */
SG_API const char *sg_outcome_kind_name(sg_outcome_kind kind);
/* Inverse of sg_outcome_kind_name; SG_ERR_INVALID_ARG for an unknown name. */
SG_API sg_status sg_outcome_kind_parse(const char *name, sg_outcome_kind *ret_kind);

/* Which mechanism enforced a limit. */
typedef enum sg_limit_mechanism {
    SG_MECH_NONE = 0,
    SG_MECH_RLIMIT = 1,
    SG_MECH_CGROUP_V1 = 2,
    SG_MECH_CGROUP_V2 = 3,
} sg_limit_mechanism;

/* "none", "rlimit", "cgroup_v1", "cgroup_v2". */
SG_API const char *sg_limit_mechanism_name(sg_limit_mechanism mech);

/* Resource limits. A value of 0 means "no limit" only where stated. */
typedef struct sg_sandbox_limits {
    uint64_t cpu_ms;          /* CPU time of one run or call (default 5000; rounded up to s) */
    uint64_t wall_ms;         /* wall-clock time; kills every process of the sandbox (10000) */
    uint64_t memory_bytes;    /* memory of the whole sandbox (default 256 MiB) */
    uint64_t max_tasks;       /* processes + threads (default 64) */
    uint64_t file_size_bytes; /* largest file the code may write (default 16 MiB) */
    uint64_t open_files;      /* RLIMIT_NOFILE (default 64) */
    uint64_t tmp_bytes;       /* size of the private /tmp (default 16 MiB) */
    uint64_t stdout_bytes;    /* captured stdout cap; more kills the run (default 1 MiB) */
    uint64_t stderr_bytes;    /* captured stderr cap (default 1 MiB) */
    bool prefer_rlimit_memory;/* use RLIMIT_AS even if a cgroup memory controller is usable */
    uint64_t cost_events;     /* worker calls: count each call's Python events (function calls and
                                 lines run, in any Python code it reaches) and stop it past this
                                 many; the count is in sg_outcome_info.cost. 0 (default): not
                                 counted. A deterministic measure of work (no clock), reported by
                                 the candidate's own process: a claim that can only make the
                                 candidate look cheaper (docs/sandbox.md) */
    uint64_t cost_cpu_ms;     /* with cost_events: also stop a counted call, at an event, once its
                                 thread's CPU time passes cost_cpu_ms plus cost_cpu_ns_per_event
                                 for each event counted (work inside builtins, which no event
                                 counts); it then reports cost_events + 1, as past its budget.
                                 0 (default): no such bound. Checked by the call's own process,
                                 a claim like the count: for trusted code (the golden stage's
                                 reference, docs/tasks.md); the call's own CPU limit still applies */
    uint64_t cost_cpu_ns_per_event;
} sg_sandbox_limits;

/* Fill in the defaults above. */
SG_API void sg_sandbox_limits_init(sg_sandbox_limits *limits);

/*
 * Set one limit by name from text, with units:
 *   durations ("cpu", "wall", "timeout" = both): "2", "1.5", "2s", "250ms"  (plain = seconds)
 *   sizes ("memory", "fsize", "tmp", "stdout", "stderr"): "256", "256M", "1G", "64K", "100B"
 *        (plain = MiB)
 *   counts ("tasks", "nofile").
 * Fails with SG_ERR_INVALID_ARG (unknown name, malformed value, zero where a limit is required,
 * or out of range), with the reason in diag; the limits are unchanged on failure.
 */
SG_API sg_status sg_sandbox_limits_set(sg_sandbox_limits *limits, const char *name, const char *value,
                                       sg_diag *diag);

/* ---------------------------------------------------------------------------------------------
 * A sandbox: the policy (interpreter, read-only binds, compiled seccomp filter). Immutable.
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_sandbox sg_sandbox;

/*
 * Make a sandbox for `interpreter` (an absolute path; NULL for /usr/bin/python3). Resolves the
 * files the interpreter needs and compiles the seccomp allow-list. Fails with SG_ERR_INVALID_ARG
 * (relative or missing interpreter), SG_ERR_UNSUPPORTED (the kernel lacks seccomp user
 * notification or unprivileged user namespaces), SG_ERR_SANDBOX or SG_ERR_NOMEM.
 */
SG_API sg_status sg_sandbox_new(const char *interpreter, sg_sandbox **ret_sandbox, sg_diag *diag);
SG_API void sg_sandbox_free(sg_sandbox *sandbox);

/*
 * The host uid and gid the sandboxed processes have when snipgate runs as root (default 65534,
 * "nobody"). Never 0: SG_ERR_INVALID_ARG for 0 or -1. Unprivileged, the kernel only lets a user
 * namespace map the caller's own ids, and those are used. Call before the first worker is made
 * from this sandbox; it is the one setting that changes a sandbox after sg_sandbox_new.
 */
SG_API sg_status sg_sandbox_set_host_ids(sg_sandbox *sandbox, uint32_t uid, uint32_t gid,
                                         sg_diag *diag);

/* ---------------------------------------------------------------------------------------------
 * Outcomes
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_outcome sg_outcome;

/* A read-only view of an outcome. Strings are NUL-terminated and never NULL unless stated. */
typedef struct sg_outcome_info {
    sg_outcome_kind kind;
    int exit_code;            /* exit status of the interpreter/call child, -1 if none */
    int signal;               /* terminating signal, 0 if none */
    const char *syscall;      /* forbidden system call name, NULL if none */
    const char *timeout_kind; /* "cpu" or "wall" for a timeout (a run's), "events" for one made by
                                 sg_outcome_new_events_timeout; else NULL */
    uint64_t cpu_ms;
    uint64_t wall_ms;
    uint64_t peak_rss_kb;
    const char *stdout_data;  /* captured bytes (may hold NULs), `stdout_len` of them */
    size_t stdout_len;
    bool stdout_truncated;
    const char *stderr_data;
    size_t stderr_len;
    bool stderr_truncated;
    const char *exc_type;     /* exception outcome: "ValueError", ...; else NULL */
    const char *exc_message;  /* may be "" */
    const char *traceback;    /* frames of <snippet> and <call> only, snippet line numbers */
    long exc_line;            /* line in the snippet, 0 if unknown */
    const char *value_repr;   /* ok outcome of a call: repr() of the value (capped), else NULL */
    const char *value_json;   /* ok outcome of a call: the value as tagged JSON (docs/tasks.md,
                                 exact plain types only), NULL if it has none: see value_error */
    const char *value_error;  /* why a returned value has no value_json ("a value of type Foo has
                                 no encoding", over the size cap, ...), else NULL */
    const char *detail;       /* one line of human-readable detail, "" if none */
    sg_limit_mechanism memory_mechanism;
    sg_limit_mechanism tasks_mechanism;
    sg_sandbox_limits limits; /* the limits that were in force */
    const char *exc_mro;      /* exception outcome (and SystemExit): the classes of the exception
                                 type's __mro__ as the interpreter keeps it (not a metaclass's
                                 __mro__ attribute), a line each, "module\tqualname\tname" (a
                                 name the runner could not read plainly is empty); NULL if not
                                 reported. A claim of the candidate's process, like exc_type. */
    bool batch_unsure;        /* a batch item that failed without its own result frame, after an
                                 earlier item of the same batch: the failure may be that item's
                                 doing (a thread it left running, a frame it forged before it
                                 ended the process), so re-run it alone to be sure of whom to
                                 blame; false when the supervisor stopped it with only the main
                                 thread running (sg_worker_call_batch) */
    bool has_cost;            /* a call made with limits.cost_events: its process reported a count */
    uint64_t cost;            /* that count (may exceed limits.cost_events by one: the event that
                                 stopped the call). A claim of the candidate's process */
    bool batch_no_frame;      /* a batch item that failed without its own result frame, after an
                                 earlier item of the same batch (batch_unsure or not): the earlier
                                 item may have forged its own frame and still be the code running
                                 in the main thread (a loop, output, memory), so a caller that
                                 names the input to blame runs that earlier item alone first */
} sg_outcome_info;

SG_API const sg_outcome_info *sg_outcome_info_get(const sg_outcome *outcome);

/*
 * The outcome as one JSON object: {"outcome", "exit_code", "signal", "syscall", "cpu_ms",
 * "wall_ms", "peak_rss_kb", "stdout", "stderr", "truncated", "limits": {...}, ...}. The string is
 * malloc'd; free() it. Fails with SG_ERR_NOMEM.
 */
SG_API sg_status sg_outcome_to_json(const sg_outcome *outcome, char **ret_json);

/* An outcome of kind setup_error describing `diag` (for a sandbox that could not be built). */
SG_API sg_status sg_outcome_new_setup_error(const sg_diag *diag, const sg_sandbox_limits *limits,
                                            sg_outcome **ret_outcome);
/* An outcome of kind timeout, timeout_kind "events", for a counted call (limits.cost_events)
 * whose count went past its budget: src's cpu_ms, wall_ms, limits, cost and peak_rss_kb, nothing
 * it printed or raised. For a trusted caller that decides by the count (the golden stage's
 * reference on generated inputs, docs/tasks.md); SG_ERR_INVALID_ARG when src has no count. */
SG_API sg_status sg_outcome_new_events_timeout(const sg_outcome *src, sg_outcome **ret_outcome);
SG_API void sg_outcome_free(sg_outcome *outcome);
/* A deep copy of an outcome (its own info and captured bytes). SG_ERR_NOMEM on failure. */
SG_API sg_status sg_outcome_copy(const sg_outcome *src, sg_outcome **ret_outcome);

/* ---------------------------------------------------------------------------------------------
 * Workers: one sandboxed interpreter that imports the candidate once and then serves calls, each
 * in a fresh forked child with its own CPU limit and the sandbox's wall limit.
 * ------------------------------------------------------------------------------------------- */

typedef struct sg_worker sg_worker;

typedef struct sg_worker_opts {
    bool as_main;            /* run the candidate as __main__ (like `python3 FILE`); default false */
    const char *stdin_data;  /* bytes for the candidate's stdin (copied); NULL for /dev/null */
    size_t stdin_len;
    bool share_tmp;          /* calls see one /tmp (what earlier calls wrote); default false:
                                every call starts with a fresh, empty /tmp */
    bool stdlib_dicts;       /* results that are collections.Counter, OrderedDict or defaultdict
                                (the genuine classes, taken before the candidate runs) get a
                                value_json as the dicts they hold; default false: only exact plain
                                types do. Costs ~5 ms at start (import collections). */
    bool coverage;           /* load the coverage tracer into the sandbox (fuzzing): during the
                                items of a stream, the candidate's line transitions and comparison
                                operands go into `coverage_fd`, a memfd of the coverage map's size
                                (the fuzz layer makes it). Needs the tracer built in (CPython 3.11
                                headers at build time): else sg_worker_new fails with
                                SG_ERR_UNSUPPORTED. Default false. */
    int coverage_fd;         /* borrowed; dup'ed into each sandbox started */
    bool fast_count;         /* load the tracer module (without coverage) so that counted calls
                                (limits.cost_events) count with its C trace function, at about a
                                fifth of the Python counter's cost; the counts are the same
                                either way (tests/tracer_count.py). Ignored when the tracer is not
                                built in. Default false. Pooled workers allowed. */
    const atomic_int *cancel;/* NULL, or a flag another thread may set: the worker then stops as
                                sg_sandbox_interrupt() stops every worker (its sandbox killed at
                                once, SG_ERR_INTERRUPTED, nothing judged), this worker only */
    bool pooled;             /* a worker that serves one candidate after another (the golden
                                stage's pool, sg_worker_rebind): its zygote never runs a
                                candidate's code; each call child imports the current source
                                first, under the call's limits, then runs the items. No
                                coverage, stdin_data, share_tmp or streams. Default false. */
} sg_worker_opts;

SG_API void sg_worker_opts_init(sg_worker_opts *opts);

/*
 * Start a sandbox, run the candidate's top level once (its "import") under `limits`, and return
 * the worker with the outcome of that import in `*ret_import` (caller frees it). A worker whose
 * import did not end `ok` still returns SG_OK: its calls return that import outcome again.
 * `sandbox` is borrowed and must outlive the worker. Fails with SG_ERR_SANDBOX, SG_ERR_UNSUPPORTED,
 * SG_ERR_TOO_LARGE (source over 8 MiB), SG_ERR_INVALID_ARG or SG_ERR_NOMEM; nothing ran then.
 */
SG_API sg_status sg_worker_new(const sg_sandbox *sandbox, const char *source, size_t source_len,
                               const sg_sandbox_limits *limits, const sg_worker_opts *opts,
                               sg_worker **ret_worker, sg_outcome **ret_import, sg_diag *diag);

/*
 * Pooled workers (opts.pooled). sg_worker_new starts the sandbox and its zygote (the runner
 * alone; the zygote makes itself non-dumpable and blocks signals, so that a call child cannot
 * reach the calls after it) and keeps `source` as the current candidate; `*ret_import` is set to
 * NULL (ret_import may be NULL): the import runs in every call child, as item 0 before the call's
 * items, and its outcome is known after the first call (sg_worker_import). An import that does
 * not end `ok` is kept: every later call of that source returns it (as with sg_worker_new).
 * sg_worker_rebind makes `source` the current candidate, with opts' as_main, stdlib_dicts and
 * cancel (other fields must be defaults): no sandbox restart, nothing of the previous candidate
 * remains (each call child is a fresh fork of the zygote, with a fresh /tmp, and the supervisor
 * drains what it wrote before the call ends). SG_ERR_INVALID_ARG on a worker that is not pooled.
 */
SG_API sg_status sg_worker_rebind(sg_worker *worker, const char *source, size_t source_len,
                                  const sg_worker_opts *opts, sg_diag *diag);
/*
 * A copy of the worker's import outcome in `*ret_import` (caller frees). A pooled worker that has
 * not run a call of its current source yet runs an import-only call to learn it. Fails like
 * sg_worker_call.
 */
SG_API sg_status sg_worker_import(sg_worker *worker, sg_outcome **ret_import, sg_diag *diag);

/*
 * Run `code` (an expression such as "f(1, 2)", or statements) in a fresh child forked from the
 * worker. On SG_OK `*ret_outcome` holds the classified result (ok with value_repr, exception, ...).
 * The call's CPU limit is `limits->cpu_ms` (NULL: the worker's limits); its wall limit
 * `limits->wall_ms` kills the whole sandbox, which restarts transparently at the next call.
 * Fails with SG_ERR_INVALID_ARG (code over 60000 bytes or NUL bytes), SG_ERR_SANDBOX (the worker
 * could not be restarted) or SG_ERR_NOMEM.
 */
SG_API sg_status sg_worker_call(sg_worker *worker, const char *code, const sg_sandbox_limits *limits,
                                sg_outcome **ret_outcome, sg_diag *diag);

/*
 * Run `n` call texts one after another in ONE fresh child forked from the worker (they share
 * that child's state, as the asserts of a test file share a process; not the worker's, which
 * stays as the import left it). Each item has the CPU and wall limits of `limits`, measured by
 * the supervisor between the items' result frames; output is attributed to an item by when it
 * arrives (best effort: stdout, stderr and the frames are separate pipes, so under load an item's
 * output can land on its neighbour; output is data, no verdict depends on it). An item is `ok` only once the supervisor sees the child go on to the next item or exit
 * cleanly. Fills ret_outcomes[0 .. *ret_done): every item up to and including the first one that
 * did not end cleanly (a timeout, a crash, a forbidden system call, os._exit); the rest did not
 * run (their slots stay NULL): call them again. Up to SG_WORKER_MAX_CALL_BYTES of text in all
 * (one byte of separator between items). Fails like sg_worker_call; on failure every slot is NULL.
 */
SG_API sg_status sg_worker_call_batch(sg_worker *worker, const char *const *codes, size_t n,
                                      const sg_sandbox_limits *limits, sg_outcome **ret_outcomes,
                                      size_t *ret_done, sg_diag *diag);
/* The same with each item's own Python-event budget (limits->cost_events for all of them is
 * replaced): budgets[i] > 0 counts item i's events and stops it past budgets[i] (its outcome has
 * has_cost and cost, its limits cost_events), 0 leaves it uncounted. One call child runs the items
 * of different kinds together (the golden stage's generated inputs and its scaled ones). */
SG_API sg_status sg_worker_call_batch_budgets(sg_worker *worker, const char *const *codes, const uint64_t *budgets,
                                              size_t n, const sg_sandbox_limits *limits, sg_outcome **ret_outcomes,
                                              size_t *ret_done, sg_diag *diag);

/*
 * Let the interpreter exit (end of input) and wait for it, adding what it did on the way out
 * (atexit handlers, buffered output, its exit status) to `*ret_outcome`, a copy of the import
 * outcome updated with the final facts. Used by `snipgate run` without --call. The worker is
 * stopped afterwards. Fails like sg_worker_call.
 */
SG_API sg_status sg_worker_finish(sg_worker *worker, sg_outcome **ret_outcome, sg_diag *diag);

/*
 * Async-signal-safe: ask every worker of this process to stop. The phase that is running (or the
 * next one) kills its sandbox, waits for it, removes its cgroups and fails with
 * SG_ERR_INTERRUPTED; nothing is judged. Sticky: it holds for the rest of the process's life. For a SIGTERM/SIGINT/SIGHUP handler, so that a
 * supervisor that is told to stop leaves no process or cgroup behind.
 */
SG_API void sg_sandbox_interrupt(void);

/*
 * Streams: one call child that serves call texts one at a time, as they are sent (the fuzzer's
 * path: thousands of inputs a second). Like a batch, the items share that child's state; each
 * has the per-item CPU and wall limits of `limits` (NULL: the worker's), measured by the
 * supervisor, and a limit, a crash or a forbidden system call ends the stream (and may kill the
 * sandbox, which restarts at the next item).
 *
 * sg_worker_stream_call sends one item and waits for its result frame. An `ok` there is PROVISIONAL:
 * the supervisor has seen the frame but not yet the child go on (a child that dies right after
 * it ends the stream at the next item or at sg_worker_stream_end, where `*ret_clean` turns false).
 * Callers that report anything must confirm it by replaying the input alone (sg_worker_call).
 * *ret_open is false when the item ended the stream; the next sg_worker_stream_call starts a new
 * stream (a fresh call child). sg_worker_call and sg_worker_call_batch end an open stream first.
 * Fails like sg_worker_call.
 */
SG_API sg_status sg_worker_stream_begin(sg_worker *worker, const sg_sandbox_limits *limits, sg_diag *diag);
SG_API sg_status sg_worker_stream_call(sg_worker *worker, const char *code, sg_outcome **ret_outcome,
                                       bool *ret_open, sg_diag *diag);
/*
 * The two halves of sg_worker_stream_call, so that two workers (a candidate's and a reference's)
 * work on their items at the same time: send an item, then wait for its answer (exactly one
 * wait per send; sending again before waiting is SG_ERR_INVALID_ARG). An item's limits run from
 * when it is sent; they are enforced while its worker is waited for (a limit passed meanwhile is
 * caught at the first check). Fail like sg_worker_stream_call.
 */
SG_API sg_status sg_worker_stream_send(sg_worker *worker, const char *code, sg_diag *diag);
SG_API sg_status sg_worker_stream_wait(sg_worker *worker, sg_outcome **ret_outcome, bool *ret_open, sg_diag *diag);
/* End the open stream (no-op without one): the child exits; *ret_clean (if not NULL) says whether
 * it exited cleanly, as the supervisor saw it. */
SG_API sg_status sg_worker_stream_end(sg_worker *worker, bool *ret_clean, sg_diag *diag);

/* Longest call text sg_worker_call accepts, in bytes. */
#define SG_WORKER_MAX_CALL_BYTES 60000u

/* Kill the sandbox (every process in it), wait for it and release everything it held. */
SG_API void sg_worker_free(sg_worker *worker);

/* Number of sandboxes this worker has started (1 + restarts after a kill). */
SG_API unsigned sg_worker_starts(const sg_worker *worker);

/* Number of call children this worker has forked (one per sg_worker_call, sg_worker_call_batch,
 * stream and import-only call that reached the sandbox): what a caller pays per call. */
SG_API unsigned long sg_worker_calls(const sg_worker *worker);

#ifdef __cplusplus
}
#endif

#endif /* SNIPGATE_SANDBOX_H */
