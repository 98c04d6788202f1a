/*
 * The supervisor: starts a sandbox (clone into namespaces, then the checklist of contain.c),
 * serves the seccomp notifications, reads capped output and result frames, enforces the wall
 * clock, and classifies each phase (the import of the candidate, each call, the final exit).
 *
 * Processes:  snipgate (supervisor, trusted)
 *               └─ pid 1 "init" (trusted C: reaps, reports the interpreter's wait status)
 *                    └─ pid 2 the interpreter = the zygote (untrusted: the candidate is imported)
 *                         └─ one forked child per call (untrusted)
 * Channels (all O_CLOEXEC on our side):
 *   status pipe  pid 1 -> us: setup errors, the interpreter's wait status + rusage   (trusted)
 *   ctl socket   launcher -> us, once, before exec: the seccomp listener fd + its pid (trusted)
 *   listener     kernel -> us: syscall number, arch, pid of every non-allowed call   (trusted)
 *   req pipe     us -> zygote: call requests
 *   res pipe     zygote/child -> us: result frames                                    (UNTRUSTED)
 *   stdout/err   pipes, capped here                                                   (UNTRUSTED)
 * Killing pid 1 (SIGKILL) kills every process of the sandbox: that is the wall-clock kill, the
 * output-limit kill and the forbidden-syscall kill.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

extern const unsigned char sg_sandbox_runner_py[];
extern const size_t sg_sandbox_runner_py_len;
extern const unsigned char sg_sandbox_runner_pyc[]; /* magic + marshal, or empty (sandbox/CMakeLists.txt) */
extern const size_t sg_sandbox_runner_pyc_len;
extern const unsigned char sg_sandbox_tracer_so[]; /* sandbox/tracer/sgtrace.c built, or empty */
extern const size_t sg_sandbox_tracer_so_len;

#define WORKER_MAX_SOURCE (8u << 20)
#define WORKER_MAX_CALL SG_WORKER_MAX_CALL_BYTES

/* Set by sg_sandbox_interrupt (from a signal handler): every worker stops. */
static volatile sig_atomic_t worker__interrupted;

void sg_sandbox_interrupt(void)
{
    worker__interrupted = 1;
}

#define WORKER_MAX_FRAME SG_FRAME_MAX_BODY
/*
 * The bootstrap, given with -c. fd 3 holds: the build interpreter's 4-byte magic number, a 4-byte
 * little-endian length N, N bytes of marshal.dumps((startup_code, later_code)) of runner.py, then
 * runner.py itself. The bytecode is used only if this interpreter has the same magic number (any
 * doubt: compile the source, as before). Only builtin modules are imported here.
 */
#define WORKER_BOOT \
    "import posix,marshal,sys\n" \
    "sys.path[:]=[p for p in sys.path if p]\n" \
    "B=posix.read(3,1<<20);n=int.from_bytes(B[4:8],'little');RUNNER_SRC=B[8+n:];RUNNER_LATER=None\n" \
    "try:\n" \
    " if not n or B[:4]!=sys.modules['_frozen_importlib_external'].MAGIC_NUMBER:raise ValueError\n" \
    " C,RUNNER_LATER=marshal.loads(B[8:8+n])\n" \
    "except Exception:C=compile(RUNNER_SRC.split(b'\\n#@later\\n')[0],'<sg-runner>','exec')\n" \
    "del B,n\n" \
    "exec(C)"

/* A byte buffer whose cap is fixed when it is reset: bytes beyond it are dropped and flagged. */
struct worker_buf {
    char *data;
    size_t len;
    size_t alloc;
    size_t cap;
    bool truncated;
};

enum worker_phase { PHASE_IMPORT, PHASE_CALL, PHASE_FINISH };

struct sg_worker {
    const struct sg_sandbox *sb;
    sg_sandbox_limits limits;
    bool as_main;
    bool stdlib_dicts;
    bool fast_count; /* opts.fast_count, with the tracer built in: fd 7 without fd 8 */
    bool pooled;     /* opts.pooled: the zygote imports nothing; each call child imports `source` */
    bool pool_import_pending; /* pooled: the current source's import outcome is not known yet */
    const atomic_int *cancel; /* opts.cancel: this worker's own interrupt */
    int cov_fd;      /* the coverage map (opts.coverage), dup'ed; -1 without coverage */
    char *source;
    size_t source_len;
    char *stdin_data;
    size_t stdin_len;
    unsigned starts;
    unsigned long calls;     /* call children asked for (sg_worker_calls) */

    /* the running sandbox */
    bool alive;
    bool ready; /* the import ended `ready`: calls are served */
    pid_t init_pid;
    pid_t zygote_pid; /* host pid of the interpreter, from the kernel (SCM_CREDENTIALS) */
    int out_fd, err_fd, res_fd, req_fd, status_fd, ctl_fd, notify_fd, life_fd;
    struct sg_cgroup cg;
    uint64_t start_ns;
    bool killed;
    bool interrupted; /* killed because sg_sandbox_interrupt() was called: no verdict */
    bool share_tmp;   /* calls share /tmp (opts); else pid 1 gives each call a fresh one */
    bool tmp_dirty;   /* a call ran since /tmp was last reset */
    bool tmp_reset_pending;
    int tmp_reset_err;
    int exec_budget; /* execve calls the supervisor lets through: the launcher's one */
    int fork_budget; /* process clones it lets through: one per call, from the zygote only */
    int init_fork_budget; /* pooled: the one plain fork of the call's init (the candidate's
                             process), before the candidate runs */
    pid_t call_init_pid;  /* pooled: the call's init, once known (its waits are held too) */
    int mount_budget;/* pooled: mounts it lets through, from the call child's runner before the
                        candidate runs (its own /tmp and /proc: sandbox/runner.py, _ns_enter) */
    char tmp_opts[64]; /* the tmpfs options of /tmp (a pooled call child mounts its own) */

    /* the current phase */
    struct worker_buf out, err, res;
    /* pooled: during a call, out_fd/err_fd/res_fd are the call's own pipes (taken from the
     * zygote, runner.py CALL_FDS) and these keep the zygote's; zres buffers the zygote's frames */
    bool call_pipes;
    int zout_fd, zerr_fd, zres_fd;
    struct worker_buf zres;
    struct sg_facts facts;
    struct sg_frame result, done;
    bool have_result, have_done;
    uint32_t call_id;      /* of the current call: frames with another id are stale, dropped */
    /* The call child, observed by the supervisor itself (trusted): found among the zygote's
     * children, watched through a pidfd, read as a zombie before the zygote may reap it. */
    pid_t call_pid;
    int threads_at_kill; /* of the call process when the supervisor killed it (batches), 0 unknown */
    int call_pidfd;
    bool call_exit_seen;
    int call_wstatus;
    uint64_t call_cpu_ms;
    /* The zygote's waits are held until the call child's exit is read. Several: a held wait4 is
     * interrupted by the child's SIGCHLD and restarted (a new notification) before we may have
     * read the exit; letting the restarted one through would reap the child unread. */
    uint64_t wait_held_ids[16];
    unsigned wait_held;
    /* A batch (sg_worker_call_batch): the items run one after another in the call child. Item j
     * is judged `ok` only once the supervisor sees the child go on (item j+1's frame) or exit
     * cleanly; time, CPU, output and memory-limit hits are measured between item frames. */
    size_t batch_n;        /* 0: a plain call */
    const uint64_t *batch_budgets; /* each item's event budget (sg_worker_call_batch_budgets), or NULL */
    size_t batch_next;     /* the item whose frame comes next */
    sg_outcome **batch_out;
    sg_status batch_err;
    bool pend_valid;       /* item batch_next-1 has its frame and awaits what comes next */
    struct sg_frame pend_frame;
    struct worker_buf pend_out, pend_err;
    uint64_t pend_cpu_ms, pend_wall_ms;
    bool pend_mem_hit;
    uint64_t item_cpu_base_ms, item_start_ns, item_deadline_ns, item_wall_ms;
    uint64_t child_cpu_last_ms;  /* worker__child_cpu_ms */
    uint64_t call_child_cpu_ms;  /* the call child's own CPU, read from its zombie */
    /* CPU accounting of the phase (trusted: /proc of the zygote and its child, or pid 1) */
    uint64_t cpu_base_ticks;
    uint64_t next_cpu_check_ns;
    bool have_exit_report;
    struct sg_child_report exit_report;
    bool setup_failed;
    struct sg_child_report setup_report;
    uint64_t oom_at_phase_start;
    uint64_t limit_hits_at_phase_start;

    sg_outcome *import_outcome;

    /* A stream (sg_worker_stream_*): batch machinery with items sent one at a time; each item's
     * outcome is emitted when its frame arrives (provisional, see sandbox.h). */
    bool stream;          /* batch_n counts as unbounded; items are judged at their frame */
    size_t stream_sent;   /* items sent: a frame for an item not sent yet is a protocol error */
    bool stream_got;      /* the current item's frame arrived */
    sg_outcome *stream_outcome;
    sg_sandbox_limits stream_saved;
    sg_sandbox_limits stream_lim; /* of the last sg_worker_stream_begin: a restart uses them */
    bool has_stream_lim;
    /* per-item costs of a stream, in system calls (each is expensive on a virtual machine) */
    int stat_fd;          /* /proc/<call child>/stat, kept open (pread) */
    int hits_fd;          /* the cgroup's limit-hits file, kept open (pread) */
    bool pipe_ignored;    /* SIGPIPE is ignored by this process: writes need no masking */
    bool stream_pending;  /* an item was sent (sg_worker_stream_send), not yet waited for */
    bool stream_immediate;/* its answer is the import's outcome: nothing was sent */
};

/* sg_sandbox_interrupt() was called, or this worker's cancel flag is set */
static bool worker__stop_wanted(const struct sg_worker *w)
{
    return worker__interrupted || (w->cancel && atomic_load(w->cancel));
}

/* The whole environment of the interpreter (nothing of ours is inherited). PYTHONHASHSEED=0:
 * str and bytes hashing, hence set and dict-of-set iteration order, is the same in every run and
 * in the candidate's and the reference's workers, so verdicts that compare them are
 * deterministic (Mbpp/2 returns tuple(set(a) & set(b))). The interpreter runs with -s -S, not
 * -I (which would ignore PYTHONHASHSEED): with this environment that is the same isolation, and
 * the bootstrap drops the current directory from sys.path as -I would. */
static const char *const worker__env[] = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=/tmp",
                                          "TMPDIR=/tmp", "PYTHONHASHSEED=0", NULL};

const char *sg_stage_name(enum sg_stage stage)
{
    static const char *const names[] = {"none", "parent death signal", "user namespace", "mounts",
                                        "hostname", "init", "fork", "file descriptors", "rlimits",
                                        "capabilities", "no_new_privs", "seccomp", "exec"};
    return (unsigned)stage < sizeof names / sizeof names[0] ? names[stage] : "unknown";
}

static uint64_t worker__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void worker__close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void worker__buf_reset(struct worker_buf *b, size_t cap)
{
    b->len = 0;
    b->cap = cap;
    b->truncated = false;
}

static void worker__buf_free(struct worker_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* Append up to the cap (growing geometrically); returns -1 only when out of memory. */
static int worker__buf_add(struct worker_buf *b, const char *p, size_t n)
{
    size_t room = b->cap - b->len;
    size_t take = n < room ? n : room;
    if (take < n)
        b->truncated = true;
    if (!take)
        return 0;
    if (b->len + take + 1 > b->alloc) {
        size_t want = b->alloc ? b->alloc : 4096;
        while (want < b->len + take + 1)
            want *= 2;
        if (want > b->cap + 1)
            want = b->cap + 1;
        char *d = realloc(b->data, want);
        if (!d)
            return -1;
        b->data = d;
        b->alloc = want;
    }
    memcpy(b->data + b->len, p, take);
    b->len += take;
    b->data[b->len] = '\0';
    return 0;
}

static int worker__memfd(const char *name, const void *data, size_t len)
{
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    (void)fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
    if (lseek(fd, 0, SEEK_SET) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* fd 3 of the interpreter: header, precompiled runner (if any), runner source (WORKER_BOOT). */
static int worker__runner_memfd(void)
{
    size_t pyc_len = sg_sandbox_runner_pyc_len;
    if (pyc_len <= 4 || getenv("SNIPGATE_RUNNER_NO_PYC")) /* no bytecode: the runner compiles source */
        pyc_len = 0;
    size_t code_len = pyc_len ? pyc_len - 4 : 0;
    size_t len = 8 + code_len + sg_sandbox_runner_py_len;
    unsigned char *buf = malloc(len);
    if (!buf)
        return -1;
    memset(buf, 0, 8);
    if (pyc_len) {
        memcpy(buf, sg_sandbox_runner_pyc, 4);
        for (int i = 0; i < 4; i++)
            buf[4 + i] = (unsigned char)((code_len >> (8 * i)) & 0xff);
        memcpy(buf + 8, sg_sandbox_runner_pyc + 4, code_len);
    }
    memcpy(buf + 8 + code_len, sg_sandbox_runner_py, sg_sandbox_runner_py_len);
    int fd = worker__memfd("sg-runner", buf, len);
    int saved = errno;
    free(buf);
    errno = saved;
    return fd;
}

static void worker__set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Kill every process of the sandbox: SIGKILL to its pid 1 tears the pid namespace down. */
static int worker__threads(pid_t pid);

static void worker__kill(struct sg_worker *w)
{
    if (w->alive && !w->killed) {
        /* (a batch item stopped while other threads ran may be paying for an earlier item's) */
        w->threads_at_kill = w->batch_n && w->call_pid > 0 ? worker__threads(w->call_pid) : 0;
        kill(w->init_pid, SIGKILL);
    }
    w->killed = true;
}

static void worker__close_all(struct sg_worker *w)
{
    worker__close(&w->zout_fd);
    worker__close(&w->zerr_fd);
    worker__close(&w->zres_fd);
    w->call_pipes = false;
    worker__close(&w->out_fd);
    worker__close(&w->err_fd);
    worker__close(&w->res_fd);
    worker__close(&w->req_fd);
    worker__close(&w->status_fd);
    worker__close(&w->ctl_fd);
    worker__close(&w->notify_fd);
    worker__close(&w->life_fd);
    worker__close(&w->call_pidfd);
    worker__close(&w->stat_fd);
    worker__close(&w->hits_fd);
}

/*
 * Read what is available from an output pipe; over the cap means output_limit and a kill.
 * In a batch an item's output and its frame come on separate pipes, whose order the
 * supervisor cannot see; the runner hands over in two steps (runner.py, _read_by_supervisor):
 * an item's output is all read before its frame is written, and its frame is read before the
 * next item prints. So output read before a frame is that item's, and after it the next's.
 */
static void worker__read_output(struct sg_worker *w, int *fd, struct worker_buf *b)
{
    char tmp[65536];
    for (;;) {
        ssize_t n = read(*fd, tmp, sizeof tmp);
        if (n > 0) {
            if (worker__buf_add(b, tmp, (size_t)n) < 0 || b->truncated) {
                w->facts.output_limit = true;
                worker__kill(w);
                if (b->truncated)
                    return;
            }
            continue;
        }
        if (n == 0)
            worker__close(fd);
        if (n < 0 && errno == EINTR)
            continue;
        return;
    }
}

static void worker__protocol_error(struct sg_worker *w)
{
    w->facts.protocol_error = true;
    worker__kill(w);
}

static void worker__take_frame(struct sg_frame *dst, struct sg_frame *src)
{
    sg_frame_clear(dst);
    memcpy(dst, src, sizeof *dst);
    memset(src, 0, sizeof *src);
}

static uint64_t worker__phase_cpu_ms(struct sg_worker *w);
static uint64_t worker__child_cpu_ms(struct sg_worker *w);

/* The event budget of batch slot idx: the current call's (sg_worker_call_batch_budgets: its item's
 * own; a pooled call's slot 0 is the import, never counted). */
static uint64_t worker__slot_budget(const struct sg_worker *w, size_t idx)
{
    if (!w->batch_budgets)
        return w->limits.cost_events;
    if (w->pooled && idx == 0)
        return 0;
    return w->batch_budgets[w->pooled ? idx - 1 : idx];
}

/* The facts of a finished batch item (or of the last one, with the final facts in `f`). */
static void worker__batch_emit(struct sg_worker *w, size_t idx, struct sg_facts *f, const struct worker_buf *out,
                               const struct worker_buf *err)
{
    f->is_call = true;
    f->import_item = w->pooled && idx == 0;
    f->memory_mechanism = w->cg.mech;
    f->tasks_mechanism = w->cg.tasks_mech;
    sg_sandbox_limits lim = w->limits;
    lim.cost_events = worker__slot_budget(w, idx);
    sg_status st = sg_outcome_build(f, &lim, out->data, out->len, out->truncated, err->data, err->len,
                                    err->truncated, &w->batch_out[idx]);
    if (st != SG_OK && w->batch_err == SG_OK) {
        w->batch_err = st;
        worker__kill(w);
    }
}

/* The current output buffers become the pending item's, and back. */
static void worker__swap_output(struct sg_worker *w)
{
    struct worker_buf t = w->pend_out;
    w->pend_out = w->out;
    w->out = t;
    t = w->pend_err;
    w->pend_err = w->err;
    w->err = t;
}

/* The pending item went on to the next one: it ended cleanly, as far as the supervisor saw. */
static void worker__batch_settle_pending(struct sg_worker *w)
{
    if (!w->pend_valid)
        return;
    struct sg_facts f;
    memset(&f, 0, sizeof f);
    f.result = &w->pend_frame;
    f.have_status = true;
    f.wstatus = 0;
    f.cpu_ms = w->pend_cpu_ms;
    f.wall_ms = w->pend_wall_ms;
    f.mem_limit_hit = w->pend_mem_hit;
    worker__batch_emit(w, w->batch_next - 1, &f, &w->pend_out, &w->pend_err);
    sg_frame_clear(&w->pend_frame);
    w->pend_valid = false;
}

/* A stream item's frame: its outcome now (provisional: the child has not been seen going on),
 * with its own CPU, wall time, output and memory-limit hits, measured since it was sent. */
static void worker__stream_item(struct sg_worker *w, struct sg_frame *f)
{
    uint64_t now = worker__now_ns();
    uint64_t cpu = worker__child_cpu_ms(w);
    uint64_t hits = sg_cgroup_read_hits(&w->cg, w->hits_fd);
    struct sg_facts fa;
    memset(&fa, 0, sizeof fa);
    fa.result = f;
    fa.have_status = true;
    fa.wstatus = 0;
    fa.cpu_ms = cpu > w->item_cpu_base_ms ? cpu - w->item_cpu_base_ms : 0;
    fa.wall_ms = (now - w->item_start_ns) / 1000000u;
    fa.mem_limit_hit = hits > w->limit_hits_at_phase_start;
    fa.is_call = true;
    fa.memory_mechanism = w->cg.mech;
    fa.tasks_mechanism = w->cg.tasks_mech;
    sg_outcome_free(w->stream_outcome);
    w->stream_outcome = NULL;
    sg_status st = sg_outcome_build(&fa, &w->limits, w->out.data, w->out.len, w->out.truncated, w->err.data,
                                    w->err.len, w->err.truncated, &w->stream_outcome);
    if (st != SG_OK && w->batch_err == SG_OK) {
        w->batch_err = st;
        worker__kill(w);
    }
    worker__buf_reset(&w->out, w->limits.stdout_bytes);
    worker__buf_reset(&w->err, w->limits.stderr_bytes);
    w->batch_next++;
    w->item_cpu_base_ms = cpu;
    w->limit_hits_at_phase_start = hits;
    w->stream_got = true;
}

/* Trust boundary: the result frame of batch item `batch_next` (any other index is a protocol
 * error). Output read before the frame belongs to the item (the runner's handover). */
static void worker__batch_item(struct sg_worker *w, struct sg_frame *f)
{
    char want[24];
    snprintf(want, sizeof want, "%zu", w->batch_next);
    const char *n = sg_frame_get(f, SG_TAG_ITEMS, NULL);
    if (!n || strcmp(n, want) || w->batch_next >= w->batch_n || (w->stream && w->batch_next >= w->stream_sent)) {
        worker__protocol_error(w);
        return;
    }
    /* (no read of output here: the runner wrote this frame once all of the item's output was
     * read, and the next item may already be printing: worker__read_output) */
    if (w->killed)
        return; /* an output limit: judged at the end, on this item */
    if (w->stream) {
        worker__stream_item(w, f);
        return;
    }
    worker__batch_settle_pending(w);
    uint64_t now = worker__now_ns();
    uint64_t cpu = worker__child_cpu_ms(w);
    if (w->hits_fd < 0) /* (kept open for the sandbox's life: one pread per item) */
        w->hits_fd = sg_cgroup_open_hits(&w->cg);
    uint64_t hits = sg_cgroup_read_hits(&w->cg, w->hits_fd);
    worker__take_frame(&w->pend_frame, f);
    if (w->pooled && w->batch_next == 0) {
        /* a pooled call's import: its output stays with the first item (the two frames often
         * arrive together, so a split between them would be a guess) */
        worker__buf_reset(&w->pend_out, w->limits.stdout_bytes);
        worker__buf_reset(&w->pend_err, w->limits.stderr_bytes);
    } else {
        worker__swap_output(w);
        worker__buf_reset(&w->out, w->limits.stdout_bytes);
        worker__buf_reset(&w->err, w->limits.stderr_bytes);
    }
    w->pend_cpu_ms = cpu > w->item_cpu_base_ms ? cpu - w->item_cpu_base_ms : 0;
    w->pend_wall_ms = (now - w->item_start_ns) / 1000000u;
    w->pend_mem_hit = hits > w->limit_hits_at_phase_start;
    w->pend_valid = true;
    w->batch_next++;
    w->item_cpu_base_ms = cpu;
    w->item_start_ns = now;
    w->item_deadline_ns = now + w->item_wall_ms * 1000000ull;
    w->limit_hits_at_phase_start = hits;
}

/* Trust boundary: a frame from the sandbox. Only kinds expected in this phase are accepted. */
static void worker__on_frame(struct sg_worker *w, enum worker_phase ph, struct sg_frame *f)
{
    const char *k = f->kind;
    if (ph == PHASE_CALL) {
        /* A frame of an earlier call (its id is not ours) is stale: dropped, never judged. */
        char want[16];
        snprintf(want, sizeof want, "%u", (unsigned)w->call_id);
        const char *id = sg_frame_get(f, SG_TAG_CALL_ID, NULL);
        if (!id || strcmp(id, want))
            return;
    }
    if (ph == PHASE_CALL && w->pooled && (w->mount_budget > 0 || w->init_fork_budget > 0)) {
        worker__protocol_error(w); /* a frame before the call child has its own /tmp and /proc */
        return;
    }
    /* (a pooled call's item 0 is the candidate's import: "ready", not "ok") */
    bool import_item = ph == PHASE_IMPORT || (ph == PHASE_CALL && w->pooled && w->batch_n && w->batch_next == 0);
    bool result_kind = !strcmp(k, "exception") || !strcmp(k, "exit") || !strcmp(k, import_item ? "ready" : "ok");
    if (ph == PHASE_CALL && w->batch_n && result_kind) {
        worker__batch_item(w, f);
    } else if (ph != PHASE_FINISH && result_kind && !w->have_result) {
        worker__take_frame(&w->result, f);
        w->have_result = true;
    } else if (ph == PHASE_CALL && !strcmp(k, "done") && !w->have_done && w->call_exit_seen) {
        /* (the zygote writes `done` after its wait for the call child returns, which we hold
         * until we have read the child's exit: a `done` before that is the child's forgery) */
        worker__take_frame(&w->done, f);
        w->have_done = true;
    } else {
        worker__protocol_error(w);
    }
}

/* Where frames come from: the one result pipe (a plain worker: the zygote and its call children
 * write on it), a pooled call's own pipe (its call child only: no `done`), or the pooled
 * zygote's pipe during a call (the zygote only: nothing but `done`). */
enum worker_frame_src { SRC_SHARED, SRC_CALL, SRC_ZYGOTE };

struct worker_frame_ctx {
    struct sg_worker *w;
    enum worker_phase ph;
    enum worker_frame_src src;
};

static void worker__frame_cb(void *ctx, struct sg_frame *f)
{
    struct worker_frame_ctx *c = ctx;
    bool done = !strcmp(f->kind, "done");
    if ((c->src == SRC_ZYGOTE && !done) || (c->src == SRC_CALL && done)) {
        worker__protocol_error(c->w); /* a frame on a pipe its kind never comes on */
        return;
    }
    worker__on_frame(c->w, c->ph, f);
}

/* Trust boundary: read what the runner sent and parse every complete frame (frame.c). */
static void worker__read_frames_from(struct sg_worker *w, enum worker_phase ph, int *fd, struct worker_buf *b,
                                     enum worker_frame_src src)
{
    char tmp[65536];
    for (;;) {
        ssize_t n = read(*fd, tmp, sizeof tmp);
        if (n > 0) {
            if (worker__buf_add(b, tmp, (size_t)n) < 0 || b->truncated) {
                worker__protocol_error(w);
                return;
            }
            if ((size_t)n < sizeof tmp)
                break; /* a pipe read short of the buffer has emptied it (for now) */
            continue;
        }
        if (n == 0)
            worker__close(fd);
        if (n < 0 && errno == EINTR)
            continue;
        break;
    }
    struct worker_frame_ctx ctx = {w, ph, src};
    size_t off = 0;
    if (sg_frame_split((const unsigned char *)b->data, b->len, &off, worker__frame_cb, &ctx) < 0)
        worker__protocol_error(w);
    if (off) {
        memmove(b->data, b->data + off, b->len - off);
        b->len -= off;
    }
}

static void worker__read_frames(struct sg_worker *w, enum worker_phase ph)
{
    worker__read_frames_from(w, ph, &w->res_fd, &w->res, w->call_pipes ? SRC_CALL : SRC_SHARED);
}

/*
 * Trusted: a pooled zygote made this call's pipes just before the clone the supervisor now holds
 * (runner.py, CALL_FDS: read ends at 10, 11, 12). Take the read ends from it (pidfd_getfd: the
 * zygote runs no candidate code and is stopped in that clone) and read this call's stdout,
 * stderr and frames there; the zygote's own pipes wait (its `done` comes on its result pipe).
 * false: no pipes (the zygote is gone or broken): the caller kills the sandbox.
 */
#define WORKER_CALL_FD0 10
static bool worker__take_call_pipes(struct sg_worker *w)
{
    if (w->call_pipes || w->res.len)
        return false; /* (the zygote wrote nothing since its last `done`) */
    int pfd = (int)syscall(SYS_pidfd_open, w->zygote_pid, 0);
    if (pfd < 0)
        return false;
    int got[3] = {-1, -1, -1};
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        struct stat st;
        got[k] = (int)syscall(SYS_pidfd_getfd, pfd, WORKER_CALL_FD0 + k, 0);
        ok = got[k] >= 0 && fstat(got[k], &st) == 0 && S_ISFIFO(st.st_mode);
    }
    close(pfd);
    if (!ok) {
        for (int k = 0; k < 3; k++)
            if (got[k] >= 0)
                close(got[k]);
        return false;
    }
    for (int k = 0; k < 3; k++)
        worker__set_nonblock(got[k]);
    w->zout_fd = w->out_fd;
    w->zerr_fd = w->err_fd;
    w->zres_fd = w->res_fd;
    w->out_fd = got[0];
    w->err_fd = got[1];
    w->res_fd = got[2];
    struct worker_buf t = w->zres;
    w->zres = w->res;
    w->res = t;
    worker__buf_reset(&w->res, WORKER_MAX_FRAME + 4);
    w->call_pipes = true;
    return true;
}

/* The call is over: close its pipes (read to the end by now) and go back to the zygote's. */
static void worker__end_call_pipes(struct sg_worker *w)
{
    if (!w->call_pipes)
        return;
    worker__close(&w->out_fd);
    worker__close(&w->err_fd);
    worker__close(&w->res_fd);
    w->out_fd = w->zout_fd;
    w->err_fd = w->zerr_fd;
    w->res_fd = w->zres_fd;
    w->zout_fd = w->zerr_fd = w->zres_fd = -1;
    struct worker_buf t = w->res;
    w->res = w->zres;
    w->zres = t;
    w->zres.len = 0;
    w->call_pipes = false;
}


/* Trusted: the launcher (pre-exec) sends the seccomp listener; the kernel adds its pid. */
static void worker__recv_listener(struct sg_worker *w)
{
    char byte;
    union {
        char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
        struct cmsghdr align;
    } cbuf;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf.buf,
                         .msg_controllen = sizeof cbuf.buf};
    ssize_t n = recvmsg(w->ctl_fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    int fd = -1;
    pid_t pid = 0;
    for (struct cmsghdr *cm = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
            cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
            memcpy(&fd, CMSG_DATA(cm), sizeof fd);
        } else if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS &&
                   cm->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
            struct ucred cr;
            memcpy(&cr, CMSG_DATA(cm), sizeof cr);
            pid = cr.pid;
        }
    }
    worker__close(&w->ctl_fd);
    if (fd < 0 || pid <= 0) {
        if (fd >= 0)
            close(fd);
        /* The launcher died before exec (its report explains why) or misbehaved: stop. */
        worker__kill(w);
        return;
    }
    worker__set_nonblock(fd);
    w->notify_fd = fd;
    w->zygote_pid = pid;
}

/* The kernel's sizes of the notification structures (checked once against our buffers). */
union worker_notif {
    struct seccomp_notif n;
    char pad[1024];
};
union worker_resp {
    struct seccomp_notif_resp r;
    char pad[1024];
};

static bool worker__notif_sizes_ok(void)
{
    static struct seccomp_notif_sizes sizes;
    if (!sizes.seccomp_notif && syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
        sizes.seccomp_notif = sizeof(struct seccomp_notif);
        sizes.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
    }
    return sizes.seccomp_notif <= sizeof(union worker_notif) &&
           sizes.seccomp_notif_resp <= sizeof(union worker_resp);
}

static void worker__forbid(struct sg_worker *w, const char *name)
{
    if (!w->facts.forbidden) {
        w->facts.forbidden = true;
        snprintf(w->facts.syscall, sizeof w->facts.syscall, "%s", name);
    }
    /* No answer: the caller stays blocked in the system call until the kill reaches it. */
    worker__kill(w);
}

enum worker_recv { RECV_NONE, RECV_GOT, RECV_DEAD };

/*
 * Take one pending notification. A notification that poll announced and that is gone when we
 * ask (ENOENT) was withdrawn because its caller was killed meanwhile, typically by a sibling
 * thread's exit: a system call outside the allow-list was attempted, even if we cannot name it.
 */
static enum worker_recv worker__recv_notif(struct sg_worker *w, union worker_notif *req)
{
    memset(req, 0, sizeof *req);
    if (ioctl(w->notify_fd, SECCOMP_IOCTL_NOTIF_RECV, &req->n) == 0)
        return RECV_GOT;
    if (errno == ENOENT && !w->killed)
        worker__forbid(w, "unknown (withdrawn: caller killed before it was read)");
    else if (errno != ENOENT && errno != EINTR && errno != EAGAIN)
        worker__close(&w->notify_fd);
    return w->notify_fd < 0 ? RECV_DEAD : RECV_NONE;
}

static void worker__answer(struct sg_worker *w, uint64_t id)
{
    union worker_resp resp;
    memset(&resp, 0, sizeof resp);
    resp.r.id = id;
    resp.r.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    (void)ioctl(w->notify_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp.r);
}

static bool worker__notif_pending(const struct sg_worker *w)
{
    struct pollfd p = {.fd = w->notify_fd, .events = POLLIN};
    return w->notify_fd >= 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

/* Trusted: fields of /proc/PID/stat (the kernel's): state, CPU ticks, exit code of a zombie. */
struct worker_stat {
    char state;
    uint64_t self_ticks;     /* utime + stime (every thread, dead ones included) */
    uint64_t children_ticks; /* cutime + cstime (children it has reaped) */
    int exit_code;           /* wait status of a zombie (field 52) */
    int threads;             /* num_threads (field 20) */
};

static bool worker__parse_stat(char *buf, ssize_t n, struct worker_stat *ret);

static bool worker__read_stat(pid_t pid, struct worker_stat *ret)
{
    char buf[2048], path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    return worker__parse_stat(buf, n, ret);
}

/* The same through a descriptor kept open (streams: one pread per item). */
static bool worker__read_stat_fd(int fd, struct worker_stat *ret)
{
    char buf[2048];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    return worker__parse_stat(buf, n, ret);
}

static bool worker__parse_stat(char *buf, ssize_t n, struct worker_stat *ret)
{
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return false;
    memset(ret, 0, sizeof *ret);
    unsigned long long v[64] = {0};
    int field = 3;
    ret->state = p[2];
    char *save = NULL; /* strtok_r: supervisors run in several threads (eval -j, serve) */
    for (char *tok = strtok_r(p + 4, " ", &save); tok && field < 53; tok = strtok_r(NULL, " ", &save))
        v[++field - 3 < 64 ? field - 3 : 63] = strtoull(tok, NULL, 10);
    /* v[k] holds field k + 3 */
    ret->self_ticks = v[14 - 3] + v[15 - 3];
    ret->children_ticks = v[16 - 3] + v[17 - 3];
    ret->exit_code = field >= 52 ? (int)v[52 - 3] : -1;
    ret->threads = (int)v[20 - 3];
    return true;
}

/* The number of threads of a live process, 0 if unknown. */
static int worker__threads(pid_t pid)
{
    struct worker_stat st;
    return worker__read_stat(pid, &st) ? st.threads : 0;
}

static uint64_t worker__ticks_to_ms(uint64_t ticks)
{
    static long hz;
    if (!hz)
        hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
    return ticks * 1000u / (uint64_t)hz;
}

/* The zygote's only child: the process the current call forked (from its main thread, the only
 * thread allowed to fork). 0 if there is none (yet). */
static pid_t worker__first_child(pid_t parent)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)parent, (int)parent);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return (pid_t)strtol(buf, NULL, 10);
}

/* The process that runs the call: the zygote's child; in a pooled worker, the child of the call's
 * init (the zygote's child, pid 1 of the call's own pid namespace: sandbox/runner.py), once that
 * init has forked it. 0 while it does not exist yet. */
static pid_t worker__find_call_child(struct sg_worker *w)
{
    pid_t c = worker__first_child(w->zygote_pid);
    if (c <= 0 || !w->pooled)
        return c;
    w->call_init_pid = c;
    return w->init_fork_budget > 0 ? 0 : worker__first_child(c);
}

/* Start watching the call child (pidfd: readable once it has exited). */
static void worker__watch_call_child(struct sg_worker *w)
{
    if (w->call_pid || w->zygote_pid <= 0)
        return;
    pid_t c = worker__find_call_child(w);
    if (c <= 0)
        return;
    int fd = (int)syscall(SYS_pidfd_open, c, 0);
    if (fd < 0) {
        w->facts.protocol_error = true; /* a call we cannot watch is not judged */
        worker__kill(w);
        return;
    }
    w->call_pid = c;
    w->call_pidfd = fd;
}

/* CPU of the phase so far, as the kernel counts it: the zygote (threads and reaped children
 * included) and the call child while it is not reaped. */
static uint64_t worker__phase_cpu_ms(struct sg_worker *w)
{
    struct worker_stat z, c;
    uint64_t ticks = 0;
    if (w->zygote_pid > 0 && worker__read_stat(w->zygote_pid, &z))
        ticks = z.self_ticks + z.children_ticks;
    ticks = ticks > w->cpu_base_ticks ? ticks - w->cpu_base_ticks : 0;
    if (w->call_pid && !w->call_exit_seen && worker__read_stat(w->call_pid, &c))
        ticks += c.self_ticks;
    return worker__ticks_to_ms(ticks);
}

/* CPU of the call child alone (a batch's items run there; the zygote only waits), as the kernel
 * counts it. Monotonic: a moment when the child is not known yet or cannot be read returns the
 * last reading, so an item's CPU is never inflated by what earlier items used. */
static bool worker__read_stat_fd(int fd, struct worker_stat *ret);

static uint64_t worker__child_cpu_ms(struct sg_worker *w)
{
    struct worker_stat c;
    if ((w->stream || w->batch_n) && w->call_pid && !w->call_exit_seen && w->stat_fd < 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)w->call_pid);
        w->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    if (w->call_pid && !w->call_exit_seen &&
        (w->stat_fd >= 0 ? worker__read_stat_fd(w->stat_fd, &c) : worker__read_stat(w->call_pid, &c))) {
        uint64_t ms = worker__ticks_to_ms(c.self_ticks);
        if (ms > w->child_cpu_last_ms)
            w->child_cpu_last_ms = ms;
    }
    return w->call_exit_seen ? w->call_child_cpu_ms : w->child_cpu_last_ms;
}

/*
 * Trusted: a system call outside the allow-list, described by the kernel (number, arch, caller's
 * pid: nothing the caller can forge). Mediated calls are let through (CONTINUE is safe here: the
 * decision never looks at memory the caller could change):
 *   - the execve of the interpreter by the launcher (once),
 *   - one plain fork per worker call, from the zygote,
 *   - exit_group, once every notification queued before it has been read: a thread's forbidden
 *     call is seen before a sibling's exit could withdraw it.
 * Anything else is forbidden: name it, kill everything.
 */
static void worker__handle_notif(struct sg_worker *w)
{
    if (!worker__notif_sizes_ok()) {
        worker__kill(w);
        return;
    }
    union worker_notif req;
    if (worker__recv_notif(w, &req) != RECV_GOT)
        return;
    const struct seccomp_data *d = &req.n.data;
    pid_t pid = (pid_t)req.n.pid;
    if (pid == w->zygote_pid && w->exec_budget > 0 && sg_seccomp_is_execve(d->arch, d->nr)) {
        w->exec_budget--;
    } else if (pid == w->zygote_pid && w->fork_budget > 0 && !w->pooled &&
               sg_seccomp_is_process_clone(d->arch, d->nr, d->args[0])) {
        w->fork_budget--;
    } else if (pid == w->zygote_pid && w->fork_budget > 0 && w->pooled &&
               sg_seccomp_is_ns_clone(d->arch, d->nr, d->args[0])) {
        /* a pooled zygote forks each call child into namespaces of its own, and nothing else */
        w->fork_budget--;
        w->mount_budget = 2;
        w->init_fork_budget = 1;
        if (!worker__take_call_pipes(w)) {
            worker__protocol_error(w);
            return;
        }
    } else if (pid != w->zygote_pid && w->init_fork_budget > 0 && w->mount_budget == 0 && w->pooled &&
               sg_seccomp_is_process_clone(d->arch, d->nr, d->args[0])) {
        /* the call's init forking the process that runs the candidate (after its mounts) */
        w->init_fork_budget--;
    } else if (pid != w->zygote_pid && w->mount_budget > 0 && sg_seccomp_is_mount(d->arch, d->nr)) {
        /* the call child's runner mounting its own /tmp and /proc, before the candidate runs (the
         * child can run nothing else before them; its capabilities are dropped right after) */
        w->mount_budget--;
    } else if (sg_seccomp_is_wait(d->arch, d->nr)) {
        /* The zygote waiting for its call child: held until we have read the child's exit
         * ourselves (it stays a zombie until then). Any other wait goes through. */
        if ((pid == w->zygote_pid || (w->pooled && pid == w->call_init_pid && pid > 0)) && !w->call_exit_seen) {
            worker__watch_call_child(w);
            if (w->call_pid && w->wait_held < 16) {
                w->wait_held_ids[w->wait_held++] = req.n.id;
                return;
            }
        }
    } else if (sg_seccomp_is_exit_group(d->arch, d->nr)) {
        /* Drain first: every notification queued now is judged before this exit proceeds. */
        while (!w->killed && worker__notif_pending(w))
            worker__handle_notif(w);
        if (w->killed)
            return;
    } else {
        char name[64];
        sg_seccomp_name(d->arch, d->nr, name, sizeof name);
        worker__forbid(w, name);
        return;
    }
    worker__answer(w, req.n.id);
}

/* Trusted: the call child has exited; read its zombie's wait status and CPU, then let the
 * zygote's held wait reap it. If it is already gone (auto-reaped), the call is not judged. */
static void worker__observe_call_exit(struct sg_worker *w)
{
    /* Everything the call child wrote on the result pipe is there now (its exit comes after its
     * writes) and the zygote writes nothing before its held wait returns: read it all. Bytes
     * left over are a frame the child never finished: a protocol error of this call, dropped
     * here, so that they cannot swallow the zygote's `done` or the next call's frames. */
    if (w->res_fd >= 0)
        worker__read_frames(w, PHASE_CALL);
    if (w->res.len > 0) {
        worker__protocol_error(w);
        w->res.len = 0;
    }
    struct worker_stat c, z;
    uint64_t zticks = 0;
    if (w->zygote_pid > 0 && worker__read_stat(w->zygote_pid, &z))
        zticks = z.self_ticks + z.children_ticks;
    if (worker__read_stat(w->call_pid, &c) && c.state == 'Z' && c.exit_code >= 0) {
        w->call_wstatus = c.exit_code;
        uint64_t own = zticks > w->cpu_base_ticks ? zticks - w->cpu_base_ticks : 0;
        w->call_cpu_ms = worker__ticks_to_ms(own + c.self_ticks);
        w->call_child_cpu_ms = worker__ticks_to_ms(c.self_ticks);
        if (w->call_child_cpu_ms < w->child_cpu_last_ms)
            w->call_child_cpu_ms = w->child_cpu_last_ms;
        w->facts.have_status = true;
    } else {
        w->facts.protocol_error = true;
    }
    w->call_exit_seen = true;
    worker__close(&w->call_pidfd);
    for (unsigned k = 0; k < w->wait_held; k++)
        worker__answer(w, w->wait_held_ids[k]); /* a withdrawn one: ENOENT, harmless */
    w->wait_held = 0;
}

/* pid 1 is gone: reap it, collect what is left in the pipes, release the cgroup. */
static void worker__reap(struct sg_worker *w, enum worker_phase ph)
{
    int st;
    while (waitpid(w->init_pid, &st, __WALL) < 0 && errno == EINTR)
        ;
    w->alive = false;
    w->ready = false;
    if (w->out_fd >= 0)
        worker__read_output(w, &w->out_fd, &w->out);
    if (w->err_fd >= 0)
        worker__read_output(w, &w->err_fd, &w->err);
    if (w->res_fd >= 0)
        worker__read_frames(w, ph);
    if (sg_cgroup_oom_kills(&w->cg) > w->oom_at_phase_start)
        w->facts.oom_kill = true;
    if (sg_cgroup_limit_hits(&w->cg) > w->limit_hits_at_phase_start)
        w->facts.mem_limit_hit = true;
    uint64_t peak = sg_cgroup_peak_kb(&w->cg);
    if (peak > w->facts.peak_rss_kb && ph != PHASE_CALL)
        w->facts.peak_rss_kb = peak;
    worker__close_all(w);
    sg_cgroup_remove(&w->cg);
}

static void worker__read_status(struct sg_worker *w, enum worker_phase ph)
{
    for (;;) {
        struct sg_child_report r;
        ssize_t n = read(w->status_fd, &r, sizeof r);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return;
        if (n == 0) {
            worker__reap(w, ph);
            return;
        }
        if (n != (ssize_t)sizeof r) {
            w->setup_failed = true;
            snprintf(w->setup_report.msg, sizeof w->setup_report.msg, "short status report");
            worker__kill(w);
            continue;
        }
        r.msg[sizeof r.msg - 1] = '\0';
        if (r.type == SG_REPORT_SETUP_ERROR && !w->setup_failed) {
            w->setup_failed = true;
            w->setup_report = r;
        } else if (r.type == SG_REPORT_TMP_RESET) {
            w->tmp_reset_pending = false;
            w->tmp_reset_err = r.err;
        } else if (r.type == SG_REPORT_EXITED) {
            w->have_exit_report = true;
            w->exit_report = r;
        }
    }
}

static bool worker__phase_done(const struct sg_worker *w, enum worker_phase ph)
{
    if (!w->alive)
        return true;
    if (w->killed)
        return false; /* wait for the teardown to finish */
    if (ph == PHASE_IMPORT)
        return w->have_result && !strcmp(w->result.kind, "ready");
    if (ph == PHASE_CALL && w->stream && w->stream_got)
        return true;
    if (ph == PHASE_CALL)
        return w->have_done && w->call_exit_seen;
    return false;
}

/* Check the phase's CPU against the limit (trusted measurement); returns the next check time. */
static uint64_t worker__check_cpu(struct sg_worker *w, uint64_t now)
{
    if (!w->alive || w->killed || w->zygote_pid <= 0 || !w->limits.cpu_ms)
        return now + 50000000ull;
    uint64_t used = worker__phase_cpu_ms(w);
    if (w->batch_n) { /* the item's own CPU: the call child's, since the previous item frame */
        used = worker__child_cpu_ms(w);
        used = used > w->item_cpu_base_ms ? used - w->item_cpu_base_ms : 0;
    }
    if (used > w->limits.cpu_ms) {
        w->facts.cpu_timeout = true;
        w->facts.cpu_ms = used;
        worker__kill(w);
        return now + 50000000ull;
    }
    /* Half the remaining budget (threads on every core spend it fastest), 2 to 50 ms. */
    uint64_t wait_ms = (w->limits.cpu_ms - used) / 2;
    wait_ms = wait_ms < 2 ? 2 : wait_ms > 50 ? 50 : wait_ms;
    return now + wait_ms * 1000000ull;
}

/* The event loop of one phase: until it is done, the sandbox is dead, or a limit kills it. */
static void worker__pump(struct sg_worker *w, enum worker_phase ph, uint64_t deadline_ns)
{
    while (!worker__phase_done(w, ph)) {
        uint64_t now = worker__now_ns();
        if (ph == PHASE_CALL && w->batch_n)
            deadline_ns = w->item_deadline_ns; /* the wall limit holds per item */
        if (!w->killed && worker__stop_wanted(w)) {
            w->interrupted = true;
            worker__kill(w);
        }
        if (!w->killed && now >= deadline_ns) {
            w->facts.wall_timeout = true;
            worker__kill(w);
        }
        if (now >= w->next_cpu_check_ns)
            w->next_cpu_check_ns = worker__check_cpu(w, now);
        if (ph == PHASE_CALL && !w->call_pid && w->fork_budget == 0)
            worker__watch_call_child(w); /* forked: watch it even if the zygote never waits */
        struct pollfd p[8];
        int *fds[8] = {&w->out_fd, &w->err_fd,    &w->res_fd,     &w->status_fd,
                       &w->ctl_fd, &w->notify_fd, &w->call_pidfd, &w->zres_fd};
        for (int i = 0; i < 8; i++) {
            p[i].fd = *fds[i];
            p[i].events = POLLIN;
            p[i].revents = 0;
        }
        uint64_t until = w->next_cpu_check_ns < deadline_ns ? w->next_cpu_check_ns : deadline_ns;
        int timeout = w->killed ? 1000 : until > now ? (int)((until - now) / 1000000u) + 1 : 0;
        int rc = poll(p, 8, timeout);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            worker__kill(w);
            continue;
        }
        if (p[4].revents && w->ctl_fd >= 0)
            worker__recv_listener(w);
        if (p[5].revents && w->notify_fd >= 0) {
            if (p[5].revents & (POLLHUP | POLLERR | POLLNVAL))
                worker__close(&w->notify_fd);
            else
                worker__handle_notif(w);
        }
        if (p[6].revents && w->call_pidfd >= 0)
            worker__observe_call_exit(w);
        /* In a batch the frames go first (an item's frame reads the rest of its output; the
         * runner's handover makes the order exact either way, worker__read_output). */
        bool frames_first = ph == PHASE_CALL && w->batch_n && !w->stream;
        if (frames_first && p[2].revents && w->res_fd >= 0)
            worker__read_frames(w, ph);
        if (p[0].revents && w->out_fd >= 0)
            worker__read_output(w, &w->out_fd, &w->out);
        if (p[1].revents && w->err_fd >= 0)
            worker__read_output(w, &w->err_fd, &w->err);
        if (!frames_first && p[2].revents && w->res_fd >= 0)
            worker__read_frames(w, ph);
        if (p[3].revents && w->status_fd >= 0)
            worker__read_status(w, ph);
        if (p[7].revents && w->zres_fd >= 0)
            worker__read_frames_from(w, ph, &w->zres_fd, &w->zres, SRC_ZYGOTE);
    }
}

static void worker__phase_begin(struct sg_worker *w, enum worker_phase ph)
{
    if (ph != PHASE_FINISH) {
        worker__buf_reset(&w->out, w->limits.stdout_bytes);
        worker__buf_reset(&w->err, w->limits.stderr_bytes);
        sg_frame_clear(&w->result);
        w->have_result = false;
    }
    sg_frame_clear(&w->done);
    w->have_done = false;
    memset(&w->facts, 0, sizeof w->facts);
    worker__close(&w->call_pidfd);
    worker__close(&w->stat_fd);
    w->call_pid = 0;
    w->call_init_pid = 0;
    w->call_exit_seen = false;
    w->call_wstatus = 0;
    w->call_cpu_ms = 0;
    w->call_child_cpu_ms = 0;
    w->child_cpu_last_ms = 0;
    w->wait_held = 0;
    struct worker_stat z;
    w->cpu_base_ticks = 0;
    if (ph != PHASE_IMPORT && w->zygote_pid > 0 && worker__read_stat(w->zygote_pid, &z))
        w->cpu_base_ticks = ph == PHASE_CALL ? z.self_ticks + z.children_ticks : 0;
    w->next_cpu_check_ns = worker__now_ns() + 2000000ull;
    w->facts.memory_mechanism = w->cg.mech;
    w->facts.tasks_mechanism = w->cg.tasks_mech;
    w->oom_at_phase_start = sg_cgroup_oom_kills(&w->cg);
    w->limit_hits_at_phase_start = sg_cgroup_limit_hits(&w->cg);
}

static sg_status worker__setup_error(struct sg_worker *w, sg_diag *diag)
{
    const struct sg_child_report *r = &w->setup_report;
    int e = r->err;
    sg_status st = SG_ERR_SANDBOX;
    if ((e == EPERM || e == EINVAL || e == ENOSYS || e == EACCES) &&
        (r->stage == SG_STAGE_USER_NS || r->stage == SG_STAGE_MOUNTS || r->stage == SG_STAGE_SECCOMP ||
         r->stage == SG_STAGE_NO_NEW_PRIVS))
        st = SG_ERR_UNSUPPORTED;
    diag->status = st;
    diag->sys_errno = e;
    snprintf(diag->message, sizeof diag->message, "sandbox setup failed at %s (%s): %s; nothing was run",
             sg_stage_name((enum sg_stage)r->stage), r->msg, e ? strerror(e) : "error");
    return st;
}

/* Start one sandbox: memfds and pipes, cgroup, clone into the namespaces, the checklist. */
static sg_status worker__start(struct sg_worker *w, sg_diag *diag)
{
    static atomic_uint counter;
    sg_status st = SG_ERR_SANDBOX;
    int runner_fd = -1, src_fd = -1, in_fd = -1, tracer_fd = -1;
    int out[2] = {-1, -1}, err[2] = {-1, -1}, req[2] = {-1, -1}, res[2] = {-1, -1};
    int status[2] = {-1, -1}, life[2] = {-1, -1}, cgfd[2] = {-1, -1}, ctl[2] = {-1, -1};

    runner_fd = worker__runner_memfd();
    if ((w->cov_fd >= 0 || w->fast_count) &&
        (tracer_fd = worker__memfd("sg-tracer", sg_sandbox_tracer_so, sg_sandbox_tracer_so_len)) < 0)
        runner_fd = runner_fd >= 0 ? (close(runner_fd), -1) : -1;
    src_fd = worker__memfd("sg-source", w->source, w->pooled ? 0 : w->source_len);
    in_fd = w->stdin_data ? worker__memfd("sg-stdin", w->stdin_data, w->stdin_len)
                          : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (runner_fd < 0 || src_fd < 0 || in_fd < 0 || pipe2(out, O_CLOEXEC) < 0 ||
        pipe2(err, O_CLOEXEC) < 0 || pipe2(req, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0 ||
        pipe2(status, O_CLOEXEC) < 0 || pipe2(life, O_CLOEXEC) < 0 ||
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl) < 0) {
        diag->sys_errno = errno;
        snprintf(diag->message, sizeof diag->message, "cannot create the sandbox's pipes: %s",
                 strerror(errno));
        goto out_close;
    }
    int one = 1;
    if (setsockopt(ctl[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0)
        goto out_close;

    char tag[48];
    snprintf(tag, sizeof tag, "%d-%u", (int)getpid(), atomic_fetch_add(&counter, 1));
    if ((st = sg_cgroup_setup(&w->limits, tag, &w->cg, diag)) != SG_OK)
        goto out_close;
    if ((st = sg_cgroup_open_join(&w->cg, cgfd, diag)) != SG_OK)
        goto out_cgroup;

    struct sg_child_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.sb = w->sb;
    plan.limits = &w->limits;
    plan.use_rlimit_as = w->cg.mech == SG_MECH_RLIMIT;
    plan.use_rlimit_nproc = true;
    /* A plain run keeps RLIMIT_CPU as a backstop. A worker's zygote serves calls for as long as
     * the caller wants: its CPU per phase is the supervisor's measurement alone (the kernel's
     * limit would kill it after thousands of calls, and the supervisor may lack the
     * CAP_SYS_RESOURCE needed to raise it later). */
    plan.cpu_rlimit = w->as_main && !w->pooled;
    plan.life_fd = life[0];
    plan.init_ctl_fd = -1; /* pid 1 takes life_fd over once it is set up */
    plan.status_fd = status[1];
    int fds[9] = {in_fd, out[1], err[1], runner_fd, src_fd, req[0], res[1], tracer_fd, w->cov_fd};
    memcpy(plan.fds, fds, sizeof fds);
    plan.notify_sock = ctl[1];
    plan.cg_fds[0] = cgfd[0];
    plan.cg_fds[1] = cgfd[1];
    uint64_t tmp = plan.use_rlimit_as ? sg_limits_rlimit_tmp_bytes(&w->limits) : w->limits.tmp_bytes;
    snprintf(plan.tmp_opts, sizeof plan.tmp_opts, "size=%llu,nr_inodes=4096,mode=1777",
             (unsigned long long)tmp);
    memcpy(w->tmp_opts, plan.tmp_opts, sizeof w->tmp_opts);
    /* -u: the candidate's output reaches the supervisor as it is written, so what it printed
     * before a timeout or a kill is still in the outcome. */
    /* flags: as_main, then 'c' (stdlib dicts). The coverage tracer (fds 7 and 8) is not named
     * here: the command line is the candidate's to read (/proc/self/cmdline), and a fuzzed call
     * must look like any other (docs/fuzz.md). */
    char flags[4] = {w->as_main ? '1' : '0', 0, 0, 0};
    if (w->pooled)
        strcat(flags, "p"); /* the candidate and its flags come with each call */
    else if (w->stdlib_dicts)
        strcat(flags, "c");
    char *argv[] = {(char *)w->sb->interpreter, "-s", "-S", "-B", "-u", "-c", WORKER_BOOT, flags, NULL};
    plan.argv = argv;
    plan.envp = (char *const *)worker__env;
    sg_ns_argv_range(plan.arg_range);
    plan.proc_no_subset = getenv("SNIPGATE_PROC_NO_SUBSET") != NULL;

    pid_t pid = sg_ns_clone();
    if (pid == 0)
        sg_contain_child(&plan); /* never returns */
    if (pid < 0) {
        int e = errno;
        diag->sys_errno = e;
        st = (e == EPERM || e == EINVAL || e == ENOSPC || e == EUSERS || e == EACCES)
                 ? SG_ERR_UNSUPPORTED
                 : SG_ERR_SANDBOX;
        snprintf(diag->message, sizeof diag->message,
                 "the kernel refused to create the sandbox's namespaces (clone: %s); nothing was run",
                 strerror(e));
        goto out_cgroup;
    }
    /* Trust boundary: the ids the sandbox has on the host. pid 1 waits for this byte. */
    bool privileged = geteuid() == 0;
    uid_t ouid = privileged ? w->sb->outer_uid : geteuid();
    gid_t ogid = privileged ? w->sb->outer_gid : getegid();
    if (sg_ns_write_maps(pid, privileged, ouid, ogid) < 0 || write(life[1], "m", 1) != 1) {
        int e = errno;
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
            ;
        diag->sys_errno = e;
        st = SG_ERR_SANDBOX;
        snprintf(diag->message, sizeof diag->message,
                 "cannot map the sandbox to host uid %u gid %u (%s); nothing was run",
                 (unsigned)ouid, (unsigned)ogid, strerror(e));
        goto out_cgroup;
    }
    w->init_pid = pid;
    /* Keep our ends; the child's ends close here. */
    w->out_fd = out[0];
    w->err_fd = err[0];
    w->res_fd = res[0];
    w->req_fd = req[1];
    w->status_fd = status[0];
    w->ctl_fd = ctl[0];
    w->life_fd = life[1];
    w->notify_fd = -1;
    out[0] = err[0] = res[0] = req[1] = status[0] = ctl[0] = life[1] = -1;
    worker__set_nonblock(w->out_fd);
    worker__set_nonblock(w->err_fd);
    worker__set_nonblock(w->res_fd);
    worker__set_nonblock(w->req_fd);
    worker__set_nonblock(w->status_fd);
    w->alive = true;
    w->killed = false;
    w->threads_at_kill = 0;
    w->ready = false;
    w->zygote_pid = 0;
    w->exec_budget = 1;
    w->fork_budget = 0;
    w->have_exit_report = false;
    w->setup_failed = false;
    w->tmp_reset_pending = false;
    w->starts++;
    w->start_ns = worker__now_ns();
    worker__buf_reset(&w->res, WORKER_MAX_FRAME + 4);
    st = SG_OK;
    goto out_close;
out_cgroup:
    sg_cgroup_remove(&w->cg);
out_close:
    if (runner_fd >= 0)
        close(runner_fd);
    if (tracer_fd >= 0)
        close(tracer_fd);
    if (src_fd >= 0)
        close(src_fd);
    if (in_fd >= 0)
        close(in_fd);
    int *all[] = {out, err, req, res, status, life, cgfd, ctl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        worker__close(&all[i][0]);
        worker__close(&all[i][1]);
    }
    return st;
}

/* Kill and clean up whatever is running (no outcome). */
static void worker__stop(struct sg_worker *w)
{
    if (!w->alive)
        return;
    worker__kill(w);
    int st;
    while (waitpid(w->init_pid, &st, __WALL) < 0 && errno == EINTR)
        ;
    w->alive = false;
    w->ready = false;
    worker__close_all(w);
    sg_cgroup_remove(&w->cg);
}

/* Trusted: CPU time and peak RSS of a live process, from the kernel (/proc/PID/stat, status). */
/* Read /proc/<pid>/<name> into buf (terminated); false if it cannot be read. */
static bool worker__read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return true;
}

static void worker__proc_usage(pid_t pid, uint64_t *cpu_ms, uint64_t *peak_kb)
{
    char buf[2048];
    if (worker__read_proc(pid, "stat", buf, sizeof buf)) {
        char *p = strrchr(buf, ')');
        unsigned long long ut = 0, stt = 0;
        if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) == 2) {
            long hz = sysconf(_SC_CLK_TCK);
            *cpu_ms = (ut + stt) * 1000ull / (unsigned long long)(hz > 0 ? hz : 100);
        }
    }
    if (worker__read_proc(pid, "status", buf, sizeof buf)) {
        char *p = strstr(buf, "VmHWM:");
        if (p)
            *peak_kb = strtoull(p + 6, NULL, 10);
    }
}

static sg_status worker__outcome(struct sg_worker *w, bool is_call, uint64_t began_ns, sg_outcome **ret)
{
    struct sg_facts *f = &w->facts;
    f->is_call = is_call;
    f->supervisor_killed = w->killed;
    f->result = w->have_result ? &w->result : NULL;
    f->wall_ms = (worker__now_ns() - began_ns) / 1000000u;
    if (w->alive && sg_cgroup_oom_kills(&w->cg) > w->oom_at_phase_start)
        f->oom_kill = true;
    if (w->alive && sg_cgroup_limit_hits(&w->cg) > w->limit_hits_at_phase_start)
        f->mem_limit_hit = true;
    if (is_call) {
        /* The call child's exit as we read it ourselves; the zygote's report (the done frame)
         * only contributes the peak RSS figure, which judges nothing. */
        f->wstatus = w->call_wstatus;
        if (!f->cpu_timeout) {
            f->cpu_ms = w->call_exit_seen ? w->call_cpu_ms : worker__phase_cpu_ms(w);
            if (w->batch_n) { /* the last item judged: its own CPU, since the previous item frame */
                uint64_t c = w->call_exit_seen ? w->call_child_cpu_ms : worker__child_cpu_ms(w);
                f->cpu_ms = c > w->item_cpu_base_ms ? c - w->item_cpu_base_ms : 0;
            }
        }
        const char *p = w->have_done ? sg_frame_get(&w->done, SG_TAG_PEAK_RSS, NULL) : NULL;
        f->peak_rss_kb = p ? strtoull(p, NULL, 10) : 0;
    } else if (w->have_exit_report && !w->alive) {
        f->have_status = true;
        f->wstatus = w->exit_report.wstatus;
        f->cpu_ms = (uint64_t)w->exit_report.cpu_us / 1000u;
        if ((uint64_t)w->exit_report.maxrss_kb > f->peak_rss_kb)
            f->peak_rss_kb = (uint64_t)w->exit_report.maxrss_kb;
    } else if (w->alive && w->zygote_pid > 0 && !is_call) {
        worker__proc_usage(w->zygote_pid, &f->cpu_ms, &f->peak_rss_kb);
    }
    return sg_outcome_build(f, &w->limits, w->out.data, w->out.len, w->out.truncated, w->err.data,
                            w->err.len, w->err.truncated, ret);
}

/* Stopped by sg_sandbox_interrupt(): tear the sandbox down now (processes, cgroups). */
static sg_status worker__interrupted_error(struct sg_worker *w, sg_diag *diag)
{
    worker__stop(w);
    w->interrupted = false;
    diag->status = SG_ERR_INTERRUPTED;
    snprintf(diag->message, sizeof diag->message, "interrupted: the sandbox was killed, nothing was judged");
    return SG_ERR_INTERRUPTED;
}

/*
 * Calls share no files: before each call pid 1 replaces /tmp by a fresh tmpfs (unless the caller
 * chose share_tmp). The request goes out as soon as a call ends, so the work overlaps the
 * caller's; the next call waits for pid 1's report. Any failure stops the sandbox (fail closed).
 */
/* Did anything use the sandbox's /tmp since it was made? Read from outside (statfs and stat
 * through the zygote's root): a tmpfs holding only its root directory and no block, whose root
 * still has the mode pid 1 gave it and three equal times (a chmod, a utime or a read of the
 * directory changes one of them: the state a call could leave for the next one in an empty
 * tmpfs), is as pid 1 made it, and the remount (an RCU grace period in the kernel, ~20 ms here)
 * is skipped. Unknown = used. */
static bool worker__tmp_used(const struct sg_worker *w)
{
    char path[64];
    struct statfs sf;
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d/root/tmp", (int)w->zygote_pid);
    if (w->zygote_pid <= 0 || statfs(path, &sf) < 0 || stat(path, &st) < 0)
        return true;
    if (sf.f_files - sf.f_ffree > 1 || sf.f_blocks > sf.f_bfree)
        return true;
    if (st.st_mode != (S_IFDIR | 01777) || st.st_nlink != 2)
        return true;
    return st.st_atim.tv_sec != st.st_mtim.tv_sec || st.st_atim.tv_nsec != st.st_mtim.tv_nsec ||
           st.st_ctim.tv_sec != st.st_mtim.tv_sec || st.st_ctim.tv_nsec != st.st_mtim.tv_nsec;
}

static int worker__write_request(int fd, const unsigned char *p, size_t len);

static void worker__tmp_reset_begin(struct sg_worker *w)
{
    /* (a pooled call child mounts a /tmp of its own in its own mount namespace: the zygote's is
     * never a candidate's) */
    if (w->share_tmp || w->pooled || !w->alive || w->killed || w->tmp_reset_pending || !worker__tmp_used(w))
        return;
    unsigned char cmd = SG_INIT_CMD_RESET_TMP;
    if (worker__write_request(w->life_fd, &cmd, 1) < 0) { /* pid 1 is gone (no SIGPIPE here) */
        worker__kill(w);
        return;
    }
    w->tmp_reset_pending = true;
    w->tmp_reset_err = 0;
}

static sg_status worker__tmp_reset_wait(struct sg_worker *w, sg_diag *diag)
{
    if (w->share_tmp)
        return SG_OK;
    worker__tmp_reset_begin(w);
    uint64_t deadline = worker__now_ns() + 5000000000ull;
    while (w->alive && w->tmp_reset_pending && worker__now_ns() < deadline && !worker__stop_wanted(w)) {
        struct pollfd p = {.fd = w->status_fd, .events = POLLIN};
        if (poll(&p, 1, 100) > 0)
            worker__read_status(w, PHASE_CALL);
    }
    if (w->alive && !w->tmp_reset_pending && !w->tmp_reset_err)
        return SG_OK;
    if (worker__stop_wanted(w))
        return worker__interrupted_error(w, diag);
    worker__stop(w);
    diag->status = SG_ERR_SANDBOX;
    diag->sys_errno = w->tmp_reset_err;
    snprintf(diag->message, sizeof diag->message, "the sandbox could not give the call a fresh /tmp (%s)",
             w->tmp_reset_err ? strerror(w->tmp_reset_err) : "no answer from its pid 1");
    w->tmp_reset_pending = false;
    return SG_ERR_SANDBOX;
}


/* Start the sandbox and import the candidate; the import outcome is kept in the worker. */
static sg_status worker__boot(struct sg_worker *w, sg_diag *diag)
{
    sg_status st = worker__start(w, diag);
    if (st != SG_OK)
        return st;
    worker__phase_begin(w, PHASE_IMPORT);
    worker__pump(w, PHASE_IMPORT, w->start_ns + w->limits.wall_ms * 1000000ull);
    if (w->interrupted)
        return worker__interrupted_error(w, diag);
    if (w->setup_failed) {
        worker__stop(w);
        return worker__setup_error(w, diag);
    }
    if (!w->alive && w->zygote_pid == 0 && !w->killed) {
        worker__stop(w);
        diag->status = SG_ERR_SANDBOX;
        snprintf(diag->message, sizeof diag->message,
                 "the sandbox exited before the interpreter started; nothing was run");
        return SG_ERR_SANDBOX;
    }
    sg_outcome *o = NULL;
    if ((st = worker__outcome(w, false, w->start_ns, &o)) != SG_OK) {
        worker__stop(w);
        return st;
    }
    if (w->pooled) {
        /* the zygote's own start (no candidate ran): anything but `ok` is a broken sandbox */
        const sg_outcome_info *bi = sg_outcome_info_get(o);
        w->ready = w->alive && bi->kind == SG_OUTCOME_OK;
        if (!w->ready) {
            diag->status = SG_ERR_SANDBOX;
            snprintf(diag->message, sizeof diag->message, "the pooled zygote did not start: %s %s %s",
                     sg_outcome_kind_name(bi->kind), bi->exc_type ? bi->exc_type : "",
                     bi->exc_message ? bi->exc_message : bi->detail ? bi->detail : "");
            sg_outcome_free(o);
            worker__stop(w);
            return SG_ERR_SANDBOX;
        }
        sg_outcome_free(o);
        return SG_OK;
    }
    sg_outcome_free(w->import_outcome);
    w->import_outcome = o;
    w->ready = w->alive && sg_outcome_info_get(o)->kind == SG_OUTCOME_OK;
    if (!w->ready) {
        worker__stop(w);
    }
    return SG_OK;
}

void sg_worker_opts_init(sg_worker_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->coverage_fd = -1;
}

static sg_diag *worker__diag(sg_diag *diag, sg_diag *local)
{
    if (diag)
        return diag;
    sg_diag_init(local);
    return local;
}

sg_status sg_worker_new(const sg_sandbox *sandbox, const char *source, size_t source_len,
                        const sg_sandbox_limits *limits, const sg_worker_opts *opts,
                        sg_worker **ret_worker, sg_outcome **ret_import, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    bool pooled = opts && opts->pooled;
    if (!sandbox || (!source && source_len) || !ret_worker || (!ret_import && !pooled))
        return SG_ERR_INVALID_ARG;
    if (ret_import)
        *ret_import = NULL;
    if (pooled && (opts->coverage || opts->stdin_data || opts->share_tmp)) {
        snprintf(diag->message, sizeof diag->message,
                 "a pooled worker serves one candidate after another: no coverage, stdin or shared /tmp");
        return SG_ERR_INVALID_ARG;
    }
    if (source_len > WORKER_MAX_SOURCE) {
        snprintf(diag->message, sizeof diag->message, "source is %zu bytes, over the %u byte limit",
                 source_len, WORKER_MAX_SOURCE);
        return SG_ERR_TOO_LARGE;
    }
    sg_worker *w = calloc(1, sizeof *w);
    if (!w)
        return SG_ERR_NOMEM;
    w->out_fd = w->err_fd = w->res_fd = w->req_fd = w->status_fd = w->ctl_fd = w->notify_fd =
        w->life_fd = w->call_pidfd = w->cov_fd = w->stat_fd = w->hits_fd = w->zout_fd = w->zerr_fd =
            w->zres_fd = -1;
    if (opts && opts->coverage) {
        if (sg_sandbox_tracer_so_len == 0) {
            free(w);
            snprintf(diag->message, sizeof diag->message,
                     "coverage: this snipgate was built without the tracer (CPython 3.11 headers)");
            return SG_ERR_UNSUPPORTED;
        }
        if (opts->coverage_fd < 0 || (w->cov_fd = fcntl(opts->coverage_fd, F_DUPFD_CLOEXEC, 3)) < 0) {
            free(w);
            snprintf(diag->message, sizeof diag->message, "coverage: no usable coverage map descriptor");
            return SG_ERR_INVALID_ARG;
        }
    }
    w->sb = sandbox;
    if (limits)
        w->limits = *limits;
    else
        sg_sandbox_limits_init(&w->limits);
    w->as_main = opts ? opts->as_main : false;
    w->share_tmp = opts ? opts->share_tmp : false;
    w->stdlib_dicts = opts ? opts->stdlib_dicts : false;
    w->fast_count = opts && opts->fast_count && sg_sandbox_tracer_so_len > 0;
    w->cancel = opts ? opts->cancel : NULL;
    w->pooled = pooled;
    w->pool_import_pending = pooled;
    w->source = malloc(source_len + 1);
    if (!w->source)
        goto fail_nomem;
    if (source_len)
        memcpy(w->source, source, source_len);
    w->source_len = source_len;
    if (opts && opts->stdin_data) {
        w->stdin_data = malloc(opts->stdin_len + 1);
        if (!w->stdin_data)
            goto fail_nomem;
        memcpy(w->stdin_data, opts->stdin_data, opts->stdin_len);
        w->stdin_len = opts->stdin_len;
    }
    sg_status st = worker__boot(w, diag);
    if (st == SG_OK && !pooled)
        st = sg_outcome_copy(w->import_outcome, ret_import);
    if (st != SG_OK) {
        sg_worker_free(w);
        return st;
    }
    *ret_worker = w;
    return SG_OK;
fail_nomem:
    sg_worker_free(w);
    return SG_ERR_NOMEM;
}

/* Write a whole request without letting a dead reader raise SIGPIPE in our process. */
static int worker__write_request(int fd, const unsigned char *p, size_t len)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = 0;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = -1;
            break;
        }
        p += n;
        len -= (size_t)n;
    }
    if (rc < 0 && errno == EPIPE) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&block, NULL, &zero) > 0)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}


/* A copy of `src` in each of outs[0 .. n); on failure none (every slot NULL). */
static sg_status worker__copy_n(const sg_outcome *src, sg_outcome **outs, size_t n, size_t *ret_done)
{
    for (size_t i = 0; i < n; i++) {
        sg_status st = sg_outcome_copy(src, &outs[i]);
        if (st != SG_OK) {
            for (size_t j = 0; j < i; j++) {
                sg_outcome_free(outs[j]);
                outs[j] = NULL;
            }
            return st;
        }
    }
    *ret_done = n;
    return SG_OK;
}

/* The import failed: every item gets its outcome. */
static sg_status worker__copy_import(sg_worker *w, sg_outcome **outs, size_t n, size_t *ret_done)
{
    return worker__copy_n(w->import_outcome, outs, n, ret_done);
}

/*
 * Between calls: a sandbox that died meanwhile (killed after its call ended, or by the kernel's
 * parent-death signal when the thread that started it exited) is reaped now, so that the call
 * restarts it instead of failing on it.
 */
static void worker__check_alive(struct sg_worker *w)
{
    if (w->alive && !w->killed && w->status_fd >= 0) {
        struct pollfd p = {.fd = w->status_fd, .events = POLLIN};
        if (poll(&p, 1, 0) > 0)
            worker__read_status(w, PHASE_CALL); /* reaps on end of file */
    }
    if (w->alive && w->killed)
        worker__stop(w);
}

/*
 * A pooled call's outcomes: bouts[0] is the import of the current source, bouts[1 .. *ret_done)
 * the items. The first import outcome of a source is kept (sg_worker_import); an import that did
 * not end `ok` is every item's outcome, as a failed import is in a worker that is not pooled.
 */
static sg_status worker__pool_results(sg_worker *w, sg_outcome **bouts, size_t n, sg_outcome **outs,
                                      size_t *ret_done)
{
    size_t bdone = *ret_done;
    *ret_done = 0;
    sg_status st = SG_OK;
    if (bdone == 0 || !bouts[0]) {
        st = SG_ERR_INTERNAL;
        goto out_free;
    }
    if (w->pool_import_pending) {
        if ((st = sg_outcome_copy(bouts[0], &w->import_outcome)) != SG_OK)
            goto out_free;
        w->pool_import_pending = false;
    }
    if (sg_outcome_info_get(bouts[0])->kind != SG_OUTCOME_OK) {
        st = worker__copy_n(bouts[0], outs, n, ret_done);
        goto out_free;
    }
    for (size_t i = 1; i < bdone; i++) {
        outs[i - 1] = bouts[i];
        bouts[i] = NULL;
    }
    *ret_done = bdone - 1;
out_free:
    for (size_t i = 0; i < bdone; i++)
        sg_outcome_free(bouts[i]);
    return st;
}

/*
 * One call child for `n` texts (n == 1 and !batch: a plain call). On SG_OK, outs[0..*ret_done)
 * hold outcomes: every item up to the first that did not end cleanly (that one included).
 */
static sg_status worker__call(sg_worker *w, const char *const *codes, const uint64_t *budgets, size_t n,
                              bool batch, const sg_sandbox_limits *limits, sg_outcome **outs, size_t *ret_done,
                              sg_diag *diag)
{
    *ret_done = 0;
    if (w->stream || w->stream_pending) {
        sg_status est = sg_worker_stream_end(w, NULL, diag);
        if (est != SG_OK)
            return est;
    }
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (!codes[i])
            return SG_ERR_INVALID_ARG;
        len += strlen(codes[i]) + (i ? 1 : 0);
        if (len > WORKER_MAX_CALL) {
            snprintf(diag->message, sizeof diag->message, "call text over %u bytes", WORKER_MAX_CALL);
            return SG_ERR_INVALID_ARG;
        }
    }
    /* An import that failed fails every call the same way; a killed sandbox restarts (also one
     * killed after its call ended: the output drain of a pooled call, an allocation failure). */
    if (w->import_outcome && sg_outcome_info_get(w->import_outcome)->kind != SG_OUTCOME_OK)
        return worker__copy_import(w, outs, n, ret_done);
    worker__check_alive(w);
    if (!w->alive || !w->ready) {
        sg_status st = worker__boot(w, diag);
        if (st != SG_OK)
            return st;
        if (!w->ready)
            return worker__copy_import(w, outs, n, ret_done);
    }
    sg_status rst = worker__tmp_reset_wait(w, diag);
    if (rst != SG_OK)
        return rst;
    const sg_sandbox_limits *l = limits ? limits : &w->limits;
    uint64_t cpu = l->cpu_ms < w->limits.cpu_ms ? l->cpu_ms : w->limits.cpu_ms;
    sg_sandbox_limits saved = w->limits;
    w->limits.cpu_ms = cpu;
    w->limits.wall_ms = l->wall_ms;
    w->limits.stdout_bytes = l->stdout_bytes;
    w->limits.stderr_bytes = l->stderr_bytes;
    w->limits.cost_events = l->cost_events;
    w->limits.cost_cpu_ms = l->cost_cpu_ms;
    w->limits.cost_cpu_ns_per_event = l->cost_cpu_ns_per_event;

    /* A pooled worker's call is always a batch whose item 0 is the import of the current source:
     * its items' outcomes land in bouts[1..] and are handed to the caller's slots afterwards. */
    size_t bn = w->pooled ? n + 1 : n;
    bool as_batch = batch || w->pooled;
    sg_outcome **bouts = w->pooled ? calloc(bn, sizeof *bouts) : outs;
    size_t rcap = WORKER_MAX_CALL + 160 + (w->pooled ? w->source_len + 32 : 0) + (budgets ? 21 * n + 8 : 0);
    char *text = malloc(len + 1);
    unsigned char *req = malloc(rcap);
    /* each item's budget: "b0,b1,...", one per item (field B) */
    char *blist = budgets ? malloc(21 * n + 8) : NULL;
    if (blist) {
        size_t bo = 0;
        for (size_t i = 0; i < n; i++)
            bo += (size_t)snprintf(blist + bo, 21 * n + 8 - bo, "%s%llu", i ? "," : "", (unsigned long long)budgets[i]);
    }
    if (!text || !req || !bouts || (budgets && !blist)) {
        free(text);
        free(req);
        free(blist);
        if (bouts != outs)
            free(bouts);
        w->limits = saved;
        return SG_ERR_NOMEM;
    }
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            text[off++] = '\0';
        size_t k = strlen(codes[i]);
        memcpy(text + off, codes[i], k);
        off += k;
    }
    char num[24], id[16], items[24], budget[24], costcpu[48];
    snprintf(costcpu, sizeof costcpu, "%llu,%llu", (unsigned long long)w->limits.cost_cpu_ms,
             (unsigned long long)w->limits.cost_cpu_ns_per_event);
    snprintf(num, sizeof num, "%llu", (unsigned long long)cpu);
    snprintf(budget, sizeof budget, "%llu", (unsigned long long)w->limits.cost_events);
    snprintf(items, sizeof items, "%zu", n);
    w->call_id++;
    snprintf(id, sizeof id, "%u", (unsigned)w->call_id);
    size_t rn = 4;
    char flags[3] = {0, 0, 0};
    if (w->as_main)
        strcat(flags, "1");
    if (w->stdlib_dicts)
        strcat(flags, "c");
    int bad = sg_frame_put(req, rcap, &rn, SG_TAG_CODE, text, len) < 0 ||
              sg_frame_put(req, rcap, &rn, SG_TAG_CPU_MS, num, strlen(num)) < 0 ||
              sg_frame_put(req, rcap, &rn, SG_TAG_CALL_ID, id, strlen(id)) < 0 ||
              (as_batch && sg_frame_put(req, rcap, &rn, SG_TAG_ITEMS, items, strlen(items)) < 0) ||
              (blist && sg_frame_put(req, rcap, &rn, SG_TAG_COST_BUDGET, blist, strlen(blist)) < 0) ||
              (!blist && w->limits.cost_events &&
               sg_frame_put(req, rcap, &rn, SG_TAG_COST_BUDGET, budget, strlen(budget)) < 0) ||
              ((blist || w->limits.cost_events) && w->limits.cost_cpu_ms &&
               sg_frame_put(req, rcap, &rn, SG_TAG_COST_CPU, costcpu, strlen(costcpu)) < 0) ||
              (w->pooled && (sg_frame_put(req, rcap, &rn, SG_TAG_SOURCE, w->source, w->source_len) < 0 ||
                             sg_frame_put(req, rcap, &rn, SG_TAG_FLAGS, flags, strlen(flags)) < 0 ||
                             sg_frame_put(req, rcap, &rn, SG_TAG_TMP, w->tmp_opts, strlen(w->tmp_opts)) < 0));
    free(text);
    free(blist);
    if (bad) {
        free(req);
        if (bouts != outs)
            free(bouts);
        w->limits = saved;
        return SG_ERR_INTERNAL;
    }
    sg_frame_seal(req, rn);

    worker__phase_begin(w, PHASE_CALL);
    uint64_t began = worker__now_ns();
    if (as_batch) {
        w->batch_n = bn;
        w->batch_next = 0;
        w->batch_out = bouts;
        w->batch_budgets = budgets;
        w->batch_err = SG_OK;
        w->pend_valid = false;
        w->item_cpu_base_ms = 0;
        w->item_start_ns = began;
        w->item_wall_ms = l->wall_ms;
        w->item_deadline_ns = began + l->wall_ms * 1000000ull;
    }
    w->fork_budget = 1;
    w->calls++;
    if (worker__write_request(w->req_fd, req, rn) < 0)
        worker__protocol_error(w); /* the zygote stopped reading: it is broken */
    free(req);
    worker__pump(w, PHASE_CALL, began + l->wall_ms * 1000000ull);
    w->fork_budget = 0;
    w->mount_budget = 0;
    w->init_fork_budget = 0;
    if (w->pooled && w->alive && !w->killed) {
        /* Everything the call child wrote is in the pipes (it has exited): read it now, so that
         * none of it is counted on the next call, another candidate's. */
        if (w->out_fd >= 0)
            worker__read_output(w, &w->out_fd, &w->out);
        if (w->err_fd >= 0)
            worker__read_output(w, &w->err_fd, &w->err);
    }
    worker__end_call_pipes(w);
    sg_status st = SG_OK;
    if (w->interrupted) {
        st = worker__interrupted_error(w, diag);
        if (as_batch) { /* nothing is judged: the items settled so far go too */
            for (size_t i = 0; i < bn; i++) {
                sg_outcome_free(bouts[i]);
                bouts[i] = NULL;
            }
            sg_frame_clear(&w->pend_frame);
            w->pend_valid = false;
            w->batch_n = 0;
            w->batch_out = NULL;
            w->batch_budgets = NULL;
        }
    } else if (!as_batch) {
        st = worker__outcome(w, true, began, &outs[0]);
        if (st == SG_OK)
            *ret_done = 1;
    } else {
        /* Every item with a frame before the last one went on: settled already, or now. The last
         * item (or the one that never sent its frame) gets the final facts. */
        size_t last = w->batch_next;
        if (w->pend_valid && w->batch_next < bn) {
            worker__batch_settle_pending(w);
            /* the item after the pending one failed without its own frame: its own doing only if
             * the supervisor stopped it with the main thread alone running */
            w->facts.batch_unsure = !w->killed || w->threads_at_kill != 1;
            w->facts.batch_no_frame = true;
        } else if (w->pend_valid) {
            last = w->batch_next - 1;
            worker__take_frame(&w->result, &w->pend_frame);
            w->have_result = true;
            if (!(w->pooled && last == 0)) /* (a pooled import's output was never moved) */
                worker__swap_output(w);
            w->item_cpu_base_ms -= w->pend_cpu_ms; /* its CPU counts from its own start */
            w->item_start_ns -= w->pend_wall_ms * 1000000ull;
            w->pend_valid = false;
        }
        st = w->batch_err;
        w->facts.import_item = w->pooled && last == 0;
        if (st == SG_OK) {
            uint64_t ce = w->limits.cost_events; /* (the last item's own budget) */
            w->limits.cost_events = worker__slot_budget(w, last);
            st = worker__outcome(w, true, w->item_start_ns, &bouts[last]);
            w->limits.cost_events = ce;
        }
        w->facts.import_item = false;
        if (st == SG_OK) {
            *ret_done = last + 1;
        } else {
            for (size_t i = 0; i < bn; i++) {
                sg_outcome_free(bouts[i]);
                bouts[i] = NULL;
            }
        }
        sg_frame_clear(&w->pend_frame);
        w->pend_valid = false;
        w->batch_n = 0;
        w->batch_out = NULL;
        w->batch_budgets = NULL;
    }
    w->limits = saved;
    if (w->pooled) {
        if (st == SG_OK)
            st = worker__pool_results(w, bouts, n, outs, ret_done);
        free(bouts);
    }
    if (st == SG_OK)
        worker__tmp_reset_begin(w); /* for the next call, while the caller looks at this one */
    return st;
}

sg_status sg_worker_call(sg_worker *w, const char *code, const sg_sandbox_limits *limits,
                         sg_outcome **ret_outcome, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !code || !ret_outcome)
        return SG_ERR_INVALID_ARG;
    size_t done = 0;
    *ret_outcome = NULL;
    return worker__call(w, &code, NULL, 1, false, limits, ret_outcome, &done, diag);
}

sg_status sg_worker_call_batch_budgets(sg_worker *w, const char *const *codes, const uint64_t *budgets, size_t n,
                                       const sg_sandbox_limits *limits, sg_outcome **ret_outcomes, size_t *ret_done,
                                       sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !codes || !budgets || !n || !ret_outcomes || !ret_done)
        return SG_ERR_INVALID_ARG;
    *ret_done = 0;
    for (size_t i = 0; i < n; i++)
        ret_outcomes[i] = NULL;
    return worker__call(w, codes, budgets, n, true, limits, ret_outcomes, ret_done, diag);
}

sg_status sg_worker_call_batch(sg_worker *w, const char *const *codes, size_t n,
                               const sg_sandbox_limits *limits, sg_outcome **ret_outcomes, size_t *ret_done,
                               sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !codes || !n || !ret_outcomes || !ret_done)
        return SG_ERR_INVALID_ARG;
    *ret_done = 0;
    for (size_t i = 0; i < n; i++)
        ret_outcomes[i] = NULL;
    return worker__call(w, codes, NULL, n, true, limits, ret_outcomes, ret_done, diag);
}

/* What a pooled worker does not do (sg_worker_opts.pooled). */
static sg_status worker__no_pooled(sg_diag *diag, const char *what)
{
    snprintf(diag->message, sizeof diag->message, "a pooled worker has no %s", what);
    return SG_ERR_UNSUPPORTED;
}

sg_status sg_worker_rebind(sg_worker *w, const char *source, size_t source_len, const sg_worker_opts *opts,
                           sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || (!source && source_len))
        return SG_ERR_INVALID_ARG;
    if (!w->pooled || (opts && (opts->coverage || opts->stdin_data || opts->share_tmp))) {
        snprintf(diag->message, sizeof diag->message,
                 "rebind: only a pooled worker takes another source, and only as_main, stdlib_dicts and cancel");
        return SG_ERR_INVALID_ARG;
    }
    if (source_len > WORKER_MAX_SOURCE) {
        snprintf(diag->message, sizeof diag->message, "source is %zu bytes, over the %u byte limit",
                 source_len, WORKER_MAX_SOURCE);
        return SG_ERR_TOO_LARGE;
    }
    char *copy = malloc(source_len + 1);
    if (!copy)
        return SG_ERR_NOMEM;
    if (source_len)
        memcpy(copy, source, source_len);
    free(w->source);
    w->source = copy;
    w->source_len = source_len;
    w->as_main = opts ? opts->as_main : false;
    w->stdlib_dicts = opts ? opts->stdlib_dicts : false;
    w->cancel = opts ? opts->cancel : NULL;
    sg_outcome_free(w->import_outcome);
    w->import_outcome = NULL;
    w->pool_import_pending = true;
    return SG_OK;
}

sg_status sg_worker_import(sg_worker *w, sg_outcome **ret_import, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !ret_import)
        return SG_ERR_INVALID_ARG;
    *ret_import = NULL;
    if (w->pooled && !w->import_outcome) {
        size_t done = 0;
        sg_status st = worker__call(w, NULL, NULL, 0, true, NULL, NULL, &done, diag);
        if (st != SG_OK)
            return st;
    }
    if (!w->import_outcome) {
        diag->status = SG_ERR_SANDBOX;
        snprintf(diag->message, sizeof diag->message, "the candidate's import has no outcome");
        return SG_ERR_SANDBOX;
    }
    return sg_outcome_copy(w->import_outcome, ret_import);
}

/* ---- streams --------------------------------------------------------------------------------- */

/* Send one request frame of up to three fields (NULL tags skipped). */
static int worker__send_fields(struct sg_worker *w, const enum sg_frame_tag *tags, const char *const *vals,
                               const size_t *lens, int nf)
{
    size_t cap = 4 + 3 * 5 + WORKER_MAX_CALL + 64, rn = 4;
    unsigned char *req = malloc(cap);
    if (!req)
        return -2;
    for (int i = 0; i < nf; i++)
        if (sg_frame_put(req, cap, &rn, tags[i], vals[i], lens[i]) < 0) {
            free(req);
            return -1;
        }
    sg_frame_seal(req, rn);
    int rc = 0;
    if (w->pipe_ignored) { /* no SIGPIPE to mask: one system call */
        for (size_t off = 0; off < rn && rc == 0;) {
            ssize_t n = write(w->req_fd, req + off, rn - off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                rc = -1;
            else
                off += (size_t)n;
        }
    } else {
        rc = worker__write_request(w->req_fd, req, rn);
    }
    free(req);
    return rc;
}

/* The stream is over (its child ended or was killed): restore the worker's limits. */
static void worker__stream_close(struct sg_worker *w)
{
    w->limits = w->stream_saved;
    w->stream = false;
    w->batch_n = 0;
    w->stream_got = false;
    w->fork_budget = 0;
    worker__close(&w->hits_fd);
    worker__close(&w->stat_fd);
    if (w->alive && !w->killed)
        worker__tmp_reset_begin(w);
}

sg_status sg_worker_stream_begin(sg_worker *w, const sg_sandbox_limits *limits, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w)
        return SG_ERR_INVALID_ARG;
    if (w->pooled)
        return worker__no_pooled(diag, "streams");
    if (w->stream || w->stream_pending) {
        sg_status est = sg_worker_stream_end(w, NULL, diag);
        if (est != SG_OK)
            return est;
    }
    if (w->import_outcome && sg_outcome_info_get(w->import_outcome)->kind != SG_OUTCOME_OK)
        return SG_OK; /* every item gets the import's outcome (sg_worker_stream_call) */
    if (!w->alive || !w->ready) {
        sg_status st = worker__boot(w, diag);
        if (st != SG_OK || !w->ready)
            return st;
    }
    sg_status rst = worker__tmp_reset_wait(w, diag);
    if (rst != SG_OK)
        return rst;
    if (limits) {
        w->stream_lim = *limits;
        w->has_stream_lim = true;
    }
    const sg_sandbox_limits *l = limits ? limits : &w->limits;
    w->stream_saved = w->limits;
    w->limits.cpu_ms = l->cpu_ms < w->limits.cpu_ms ? l->cpu_ms : w->limits.cpu_ms;
    w->limits.wall_ms = l->wall_ms;
    w->limits.stdout_bytes = l->stdout_bytes;
    w->limits.stderr_bytes = l->stderr_bytes;
    char id[16], num[24];
    w->call_id++;
    snprintf(id, sizeof id, "%u", (unsigned)w->call_id);
    snprintf(num, sizeof num, "%llu", (unsigned long long)w->limits.cpu_ms);
    worker__phase_begin(w, PHASE_CALL);
    worker__close(&w->hits_fd);
    w->hits_fd = sg_cgroup_open_hits(&w->cg);
    struct sigaction sa;
    w->pipe_ignored = sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
    w->stream = true;
    w->stream_sent = 0;
    w->stream_got = false;
    w->batch_n = SIZE_MAX;
    w->batch_next = 0;
    w->batch_out = NULL;
    w->batch_budgets = NULL;
    w->batch_err = SG_OK;
    w->pend_valid = false;
    w->item_cpu_base_ms = 0;
    w->fork_budget = 1;
    w->calls++;
    enum sg_frame_tag tags[3] = {SG_TAG_STREAM, SG_TAG_CPU_MS, SG_TAG_CALL_ID};
    const char *vals[3] = {"1", num, id};
    size_t lens[3] = {1, strlen(num), strlen(id)};
    int rc = worker__send_fields(w, tags, vals, lens, 3);
    if (rc == -2) {
        worker__stream_close(w);
        return SG_ERR_NOMEM;
    }
    if (rc < 0)
        worker__protocol_error(w); /* the zygote stopped reading: it is broken */
    return SG_OK;
}

sg_status sg_worker_stream_send(sg_worker *w, const char *code, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !code || w->stream_pending)
        return SG_ERR_INVALID_ARG;
    if (w->pooled)
        return worker__no_pooled(diag, "streams");
    size_t len = strlen(code);
    if (len > WORKER_MAX_CALL) {
        snprintf(diag->message, sizeof diag->message, "call text over %u bytes", WORKER_MAX_CALL);
        return SG_ERR_INVALID_ARG;
    }
    sg_outcome_free(w->stream_outcome);
    w->stream_outcome = NULL;
    w->stream_immediate = false;
    if (w->import_outcome && sg_outcome_info_get(w->import_outcome)->kind != SG_OUTCOME_OK) {
        w->stream_pending = w->stream_immediate = true; /* the answer: the import's outcome */
        return SG_OK;
    }
    if (!w->stream) {
        sg_status st = sg_worker_stream_begin(w, w->has_stream_lim ? &w->stream_lim : NULL, diag);
        if (st != SG_OK)
            return st;
        if (!w->stream) { /* the restart's import failed */
            w->stream_pending = w->stream_immediate = true;
            return SG_OK;
        }
    }
    w->stream_pending = true;
    uint64_t now = worker__now_ns();
    w->item_start_ns = now;
    w->item_wall_ms = w->limits.wall_ms;
    w->item_deadline_ns = now + w->limits.wall_ms * 1000000ull;
    w->stream_got = false;
    w->stream_sent++;
    enum sg_frame_tag tags[1] = {SG_TAG_CODE};
    const char *vals[1] = {code};
    int rc = worker__send_fields(w, tags, vals, &len, 1);
    if (rc == -2) {
        worker__kill(w);
        worker__pump(w, PHASE_CALL, now);
        worker__stream_close(w);
        w->stream_pending = false;
        return SG_ERR_NOMEM;
    }
    if (rc < 0)
        worker__protocol_error(w); /* judged by sg_worker_stream_wait */
    return SG_OK;
}

sg_status sg_worker_stream_wait(sg_worker *w, sg_outcome **ret_outcome, bool *ret_open, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !ret_outcome || !ret_open || !w->stream_pending)
        return SG_ERR_INVALID_ARG;
    *ret_outcome = NULL;
    *ret_open = false;
    w->stream_pending = false;
    if (w->stream_immediate) {
        w->stream_immediate = false;
        return w->import_outcome ? sg_outcome_copy(w->import_outcome, ret_outcome) : SG_ERR_SANDBOX;
    }
    /* (the item's limits were running since it was sent; they are checked from here on) */
    worker__pump(w, PHASE_CALL, w->item_deadline_ns);
    sg_status st = SG_OK;
    if (w->interrupted) {
        st = worker__interrupted_error(w, diag);
        worker__stream_close(w);
        return st;
    }
    if (w->stream_got && w->batch_err == SG_OK) {
        *ret_outcome = w->stream_outcome;
        w->stream_outcome = NULL;
        *ret_open = true;
        return SG_OK;
    }
    /* The item did not end cleanly: the supervisor's final facts are its outcome. */
    st = w->batch_err;
    if (st == SG_OK)
        st = worker__outcome(w, true, w->item_start_ns, ret_outcome);
    worker__stream_close(w);
    return st;
}

sg_status sg_worker_stream_call(sg_worker *w, const char *code, sg_outcome **ret_outcome, bool *ret_open,
                                sg_diag *diag)
{
    if (!w || !code || !ret_outcome || !ret_open)
        return SG_ERR_INVALID_ARG;
    *ret_outcome = NULL;
    *ret_open = false;
    sg_status st = sg_worker_stream_send(w, code, diag);
    if (st != SG_OK)
        return st;
    return sg_worker_stream_wait(w, ret_outcome, ret_open, diag);
}

sg_status sg_worker_stream_end(sg_worker *w, bool *ret_clean, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w)
        return SG_ERR_INVALID_ARG;
    if (ret_clean)
        *ret_clean = true;
    if (w->stream_pending) { /* an item sent and never waited for: its answer is dropped */
        sg_outcome *o = NULL;
        bool open = false;
        sg_status st = sg_worker_stream_wait(w, &o, &open, diag);
        sg_outcome_free(o);
        if (st != SG_OK)
            return st;
    }
    if (!w->stream)
        return SG_OK;
    enum sg_frame_tag tags[1] = {SG_TAG_END};
    const char *vals[1] = {"1"};
    size_t len = 1;
    if (w->alive && !w->killed && worker__send_fields(w, tags, vals, &len, 1) < 0)
        worker__protocol_error(w);
    /* wait for the child's exit and the zygote's done frame; no item frame may come now */
    w->stream_got = false;
    w->stream_sent = w->batch_next;
    w->item_start_ns = worker__now_ns();
    w->item_deadline_ns = w->item_start_ns + w->limits.wall_ms * 1000000ull;
    worker__pump(w, PHASE_CALL, w->item_deadline_ns);
    bool clean = !w->killed && w->alive && w->call_exit_seen && w->call_wstatus == 0 && !w->facts.protocol_error &&
                 !w->facts.forbidden;
    if (ret_clean)
        *ret_clean = clean;
    sg_status st = SG_OK;
    if (w->interrupted)
        st = worker__interrupted_error(w, diag);
    worker__stream_close(w);
    return st;
}

sg_status sg_worker_finish(sg_worker *w, sg_outcome **ret_outcome, sg_diag *diag)
{
    sg_diag local;
    diag = worker__diag(diag, &local);
    if (!w || !ret_outcome)
        return SG_ERR_INVALID_ARG;
    if (w->pooled)
        return worker__no_pooled(diag, "plain run to finish");
    if (w->stream || w->stream_pending) {
        sg_status est = sg_worker_stream_end(w, NULL, diag);
        if (est != SG_OK)
            return est;
    }
    if (!w->alive || !w->import_outcome)
        return w->import_outcome ? sg_outcome_copy(w->import_outcome, ret_outcome) : SG_ERR_SANDBOX;
    worker__phase_begin(w, PHASE_FINISH);
    worker__close(&w->req_fd); /* end of input: the runner exits */
    worker__pump(w, PHASE_FINISH, w->start_ns + w->limits.wall_ms * 1000000ull);
    if (w->interrupted)
        return worker__interrupted_error(w, diag);
    return worker__outcome(w, false, w->start_ns, ret_outcome);
}

void sg_worker_free(sg_worker *w)
{
    if (!w)
        return;
    worker__stop(w);
    worker__buf_free(&w->out);
    worker__buf_free(&w->err);
    worker__buf_free(&w->res);
    worker__buf_free(&w->zres);
    worker__buf_free(&w->pend_out);
    worker__buf_free(&w->pend_err);
    sg_frame_clear(&w->pend_frame);
    sg_frame_clear(&w->result);
    sg_frame_clear(&w->done);
    sg_outcome_free(w->import_outcome);
    sg_outcome_free(w->stream_outcome);
    if (w->cov_fd >= 0)
        close(w->cov_fd);
    free(w->source);
    free(w->stdin_data);
    free(w);
}

unsigned sg_worker_starts(const sg_worker *w)
{
    return w ? w->starts : 0;
}

unsigned long sg_worker_calls(const sg_worker *w)
{
    return w ? w->calls : 0;
}
