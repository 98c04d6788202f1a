/*
 * Private interface of the sandbox. One file per kernel facility:
 *   namespaces.c  user/mount/pid/net/ipc/uts/cgroup namespaces, uid maps, the pid-1 init
 *   mounts.c      the tmpfs root, read-only binds, /tmp, /dev, /proc, pivot_root
 *   limits.c      limits parsing, rlimits (and what rlimit mode carves out of the memory limit)
 *   cgroup.c      cgroups: v2, else v1, else none (rlimits only); their trusted counters
 *   frame.c       the frame protocol with the runner (frame.h)
 *   seccomp.c     the allow-list (libseccomp -> BPF), loading it, reading notifications
 *   contain.c     the checklist that applies all of them in order (sg_contain_*)
 *   worker.c      the supervisor: start, event loop, calls, restart, kill
 *   outcome.c     outcome objects, classification, JSON
 *
 * Ownership: a `struct sg_sandbox` owns its strings and its BPF program. Code that runs in the
 * sandbox's processes between fork and exec (contain.c, namespaces.c, mounts.c and the
 * sg_*_child functions) must not allocate: it only reads memory prepared by the parent.
 */
#ifndef SG_SANDBOX_PRIVATE_H
#define SG_SANDBOX_PRIVATE_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "snipgate/snipgate.h"
#include "sandbox/frame.h"

#define SG_SB_MAX_BINDS 16
#define SG_SB_PATH_MAX 512
#define SG_SB_UID 1000 /* the uid/gid the code runs as inside the user namespace */
#define SG_SB_OUTER_ID 65534 /* default host uid/gid of the sandbox when snipgate runs as root */

/* File descriptor numbers inside the sandbox (what runner.py expects). */
enum {
    SG_FD_RUNNER = 3,
    SG_FD_SOURCE = 4,
    SG_FD_REQ = 5,
    SG_FD_RES = 6,
    SG_FD_TRACER = 7,   /* coverage workers only: the tracer extension (sealed memfd) */
    SG_FD_COVERAGE = 8, /* coverage workers only: the shared coverage map (sandbox/tracer/cov.h) */
    SG_FD_FIRST_FREE = 9,
    SG_FD_NOTIFY_SOCK = 200, /* launcher only: sends the seccomp listener fd, closed before exec */
    SG_FD_STATUS = 201,      /* launcher only: setup errors to the supervisor, O_CLOEXEC */
};

/* One read-only bind: host path (resolved, no symlinks) mounted at the same path in the root. */
struct sg_bind {
    char path[SG_SB_PATH_MAX];
    bool is_dir;
};

/* A symlink to recreate in the new root (e.g. /lib -> usr/lib on merged-/usr systems). */
struct sg_link {
    char path[SG_SB_PATH_MAX];
    char target[SG_SB_PATH_MAX];
};

struct sg_sandbox {
    char interpreter[SG_SB_PATH_MAX]; /* resolved path executed inside */
    struct sg_bind binds[SG_SB_MAX_BINDS];
    size_t nbinds;
    struct sg_link links[SG_SB_MAX_BINDS];
    size_t nlinks;
    uid_t outer_uid;         /* host ids of the sandbox when we run as root (never 0) */
    gid_t outer_gid;
    struct sock_filter *bpf; /* compiled allow-list */
    unsigned short bpf_len;
};

/* Which way a limit is enforced, decided by the parent before starting a sandbox. */
struct sg_cgroup {
    sg_limit_mechanism mech;       /* memory: CGROUP_V2, CGROUP_V1 or RLIMIT */
    sg_limit_mechanism tasks_mech; /* tasks: CGROUP_V2, CGROUP_V1 or RLIMIT */
    char mem_dir[SG_SB_PATH_MAX];  /* cgroup directory holding the memory limit ("" if none) */
    char pids_dir[SG_SB_PATH_MAX]; /* v1: a separate pids cgroup ("" if none / same as mem_dir) */
    uint64_t oom_kills_at_start;
};

/* Everything the children need, prepared by the parent before clone (no allocation after). */
struct sg_child_plan {
    const struct sg_sandbox *sb;
    const sg_sandbox_limits *limits;
    bool use_rlimit_as;
    bool use_rlimit_nproc;
    bool cpu_rlimit; /* RLIMIT_CPU (soft = limit, hard = soft + 1 s) as a backstop */
    int life_fd;    /* read end of a pipe only the supervisor writes: one byte once the uid/gid
                       maps are written; EOF = supervisor gone */
    int status_fd;  /* write end: struct sg_child_report to the supervisor */
    int init_ctl_fd;/* pid 1 only, = life_fd once set up: commands from the supervisor (SG_INIT_CMD_*) */
    int fds[9];     /* what becomes fds 0..8 of the interpreter (7, 8: -1 unless coverage) */
    int notify_sock;/* sends the seccomp listener to the supervisor */
    int cg_fds[2];  /* opened by the supervisor: pid 1 joins its cgroups by writing "0", or -1 */
    char tmp_opts[64];
    bool proc_no_subset; /* test hook (SNIPGATE_PROC_NO_SUBSET): the older kernels' /proc masks */
    unsigned long arg_range[4]; /* our argv and env strings: wiped in pid 1 (/proc/1/cmdline) */
    char *const *argv;
    char *const *envp;
};

/* Stages of the setup, reported with errno when one fails (also the checklist order). */
enum sg_stage {
    SG_STAGE_NONE = 0,
    SG_STAGE_PARENT_DEATH,
    SG_STAGE_USER_NS,
    SG_STAGE_MOUNTS,
    SG_STAGE_HOSTNAME,
    SG_STAGE_INIT,
    SG_STAGE_FORK,
    SG_STAGE_FDS,
    SG_STAGE_RLIMITS,
    SG_STAGE_CAPS,
    SG_STAGE_NO_NEW_PRIVS,
    SG_STAGE_SECCOMP,
    SG_STAGE_EXEC,
};

const char *sg_stage_name(enum sg_stage stage);

/* What pid 1 (trusted) tells the supervisor. Fixed size, below PIPE_BUF: written atomically. */
struct sg_child_report {
    int32_t type; /* SG_REPORT_* */
    int32_t stage;
    int32_t err;
    int32_t wstatus;
    int64_t cpu_us;
    int64_t maxrss_kb;
    char msg[160];
};
enum { SG_REPORT_SETUP_ERROR = 1, SG_REPORT_EXITED = 2, SG_REPORT_TMP_RESET = 3 };
/* Commands the supervisor sends pid 1, one byte each. */
#define SG_INIT_CMD_RESET_TMP 't' /* replace /tmp by a fresh empty tmpfs, then report */

/* namespaces.c */
/* The cgroup namespace is not among them: pid 1 unshares it after joining its cgroups, so that
 * /proc/self/cgroup inside shows "/" and not snipgate's cgroup names. */
#define SG_NS_FLAGS                                                                                \
    (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
pid_t sg_ns_clone(void);
int sg_ns_write_maps(pid_t pid, bool privileged, uid_t outer_uid, gid_t outer_gid);
int sg_ns_become_mapped(void);
int sg_ns_set_hostname(void);
void sg_ns_argv_range(unsigned long ret_range[4]);
int sg_ns_hide_cmdline(const struct sg_child_plan *plan);
void sg_ns_report(int status_fd, int type, enum sg_stage stage, int err, const char *msg);
__attribute__((noreturn)) void sg_ns_init_loop(const struct sg_child_plan *plan, pid_t launcher);

/* mounts.c */
sg_status sg_mounts_plan_path(struct sg_sandbox *sb, const char *path, sg_diag *diag);
sg_status sg_mounts_elf_interp(const char *exe, char *buf, size_t len);
int sg_mounts_setup(const struct sg_child_plan *plan, enum sg_stage *ret_stage, const char **ret_what);
int sg_mounts_reset_tmp(const struct sg_child_plan *plan);

/* limits.c and cgroup.c */
int sg_limits_apply_rlimits(const struct sg_child_plan *plan);
uint64_t sg_limits_rlimit_tmp_bytes(const sg_sandbox_limits *l);
uint64_t sg_limits_pipe_bytes(const sg_sandbox_limits *l);
uint64_t sg_limits_rlimit_as_bytes(const sg_sandbox_limits *l);
sg_status sg_cgroup_setup(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg,
                          sg_diag *diag);
sg_status sg_cgroup_open_join(const struct sg_cgroup *cg, int fds[2], sg_diag *diag);
int sg_cgroup_join(const struct sg_child_plan *plan);
uint64_t sg_cgroup_oom_kills(const struct sg_cgroup *cg);
uint64_t sg_cgroup_peak_kb(const struct sg_cgroup *cg);
uint64_t sg_cgroup_limit_hits(const struct sg_cgroup *cg);
int sg_cgroup_open_hits(const struct sg_cgroup *cg);
uint64_t sg_cgroup_read_hits(const struct sg_cgroup *cg, int fd);
void sg_cgroup_remove(struct sg_cgroup *cg);
int sg_limits_parse_duration_ms(const char *s, uint64_t *ret_ms);
int sg_limits_parse_size(const char *s, uint64_t default_unit, uint64_t *ret_bytes);

/* seccomp.c */
sg_status sg_seccomp_build(struct sg_sandbox *sb, sg_diag *diag);
int sg_seccomp_load(const struct sg_sandbox *sb); /* returns the listener fd, or -1 with errno */
/* The action the filter takes for (nr, args) on the native arch: SECCOMP_RET_ALLOW,
 * SECCOMP_RET_ERRNO|e, SECCOMP_RET_USER_NOTIF... Evaluates the compiled BPF (for unit tests). */
uint32_t sg_seccomp_eval(const struct sg_sandbox *sb, uint32_t arch, int nr, const uint64_t args[6]);
/* Name of syscall `nr` on audit arch `arch` into buf ("ptrace", "i386:mount", "#451"). */
void sg_seccomp_name(uint32_t arch, int nr, char *buf, size_t len);
bool sg_seccomp_is_process_clone(uint32_t arch, int nr, uint64_t arg0);
/* The namespaces of a pooled call child: its own user namespace (owning the rest), pid namespace
 * (it is pid 1 there: the zygote, pid 1 of the sandbox and every other candidate have no pid it
 * can name), mount namespace (its own /tmp and /proc) and IPC namespace. */
#define SG_CALL_NS_FLAGS (CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC)
bool sg_seccomp_is_ns_clone(uint32_t arch, int nr, uint64_t arg0);
bool sg_seccomp_is_mount(uint32_t arch, int nr);
bool sg_seccomp_is_execve(uint32_t arch, int nr);
bool sg_seccomp_is_exit_group(uint32_t arch, int nr);
bool sg_seccomp_is_wait(uint32_t arch, int nr);

/* contain.c: the checklist, run in pid 1 and in the launcher (pid 2). */
__attribute__((noreturn)) void sg_contain_child(const struct sg_child_plan *plan);

/* outcome.c */
/* Facts the supervisor gathered about one phase, from trusted sources and from frames. */
struct sg_facts {
    bool forbidden;
    char syscall[96];
    bool wall_timeout;
    bool output_limit;
    bool protocol_error;
    bool oom_kill;              /* trusted: the cgroup counted an OOM kill */
    bool mem_limit_hit;         /* trusted: the cgroup counted allocations refused at its limit */
    bool cpu_timeout;           /* trusted: the supervisor measured CPU over the limit */
    bool supervisor_killed;     /* trusted: the supervisor sent the sandbox SIGKILL itself */
    bool batch_unsure;          /* trusted: sg_outcome_info.batch_unsure */
    bool batch_no_frame;        /* trusted: sg_outcome_info.batch_no_frame */
    bool have_status;
    int wstatus;                /* of the interpreter (pid 1's report) or call child (zygote's) */
    uint64_t cpu_ms;
    uint64_t peak_rss_kb;
    uint64_t wall_ms;
    const struct sg_frame *result; /* the frame with the result (kind ok/ready/exception/exit) */
    bool is_call;
    bool import_item;           /* a pooled call's item 0: the candidate's import ("ready" is good) */
    sg_limit_mechanism memory_mechanism;
    sg_limit_mechanism tasks_mechanism;
};
sg_outcome_kind sg_outcome_classify(const struct sg_facts *facts, const sg_sandbox_limits *limits,
                                    const char **ret_timeout_kind);
sg_status sg_outcome_build(const struct sg_facts *facts, const sg_sandbox_limits *limits,
                           const char *out, size_t out_len, bool out_trunc, const char *err,
                           size_t err_len, bool err_trunc, sg_outcome **ret_outcome);

#endif
