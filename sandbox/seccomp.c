/*
 * seccomp: the allow-list derived from what CPython 3.11 actually calls (strace evidence in
 * sandbox/SECCOMP.md), compiled once with libseccomp into a classic-BPF program in the parent,
 * loaded by the launcher with a raw seccomp(2) so that the child allocates nothing.
 *
 * Actions:
 *   ALLOW        the measured list below (some with argument conditions)
 *   ERRNO        clone3 -> ENOSYS, so glibc falls back to clone, whose flags the filter can see
 *   USER_NOTIF   everything else, including non-native architectures: the supervisor receives
 *                the notification (syscall number and arch come from the kernel, not from the
 *                untrusted process), names it and kills the sandbox. Three calls are *mediated*
 *                instead: the one execve of the interpreter, the one fork per worker call,
 *                wait4/waitid (the zygote's wait for its call child is held until the supervisor
 *                has read the child's exit itself), and exit_group, which the supervisor lets through only after it has read every
 *                notification already queued (a thread's forbidden call cannot vanish with a
 *                sibling's exit).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

/* futex(2) operation bits (linux/futex.h): the private flag, and the command without it and
 * without FUTEX_CLOCK_REALTIME (256). */
#define SECCOMP_FUTEX_PRIVATE 128u
#define SECCOMP_FUTEX_CMD_MASK 0xfffffe7fu

/* Namespace flags a clone may never carry (CLONE_NEWTIME is clone3-only: 0x80 is CSIGNAL). */
#define SECCOMP_CLONE_NEW_MASK                                                                     \
    (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |     \
     CLONE_NEWCGROUP)

/* Allowed without conditions. Why each one is here: sandbox/SECCOMP.md. */
static const char *const seccomp__allow[] = {
    /* measured: `python3 -I -S -c 'import json, re, math'` */
    "access", "arch_prctl", "brk", "close", "getdents64",
    "getrandom", "gettid", "lseek", "mmap", "mprotect", "munmap", "newfstatat", "openat",
    "pread64", "read", "readlink", "rseq", "rt_sigaction", "set_robust_list",
    "set_tid_address",
    /* measured: the runner (frames, fork per call, wait, rlimits) and common stdlib use */
    "write", "exit", "rt_sigprocmask", "rt_sigreturn", "madvise", "mremap", "clock_nanosleep",
    "nanosleep", "getpid", "getppid", "getcwd", "unlink", "fstat", "stat",
    "lstat", "statx", "readlinkat", "faccessat", "faccessat2", "dup", "dup2", "dup3", "pipe2",
    "close_range",
    "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "uname",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "sched_yield", "sched_getaffinity",
    "getcpu", "getrlimit", "getrusage", "times", "sigaltstack", "get_robust_list",
    "mkdir", "mkdirat", "rmdir", "unlinkat", "rename", "renameat", "renameat2", "link",
    "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "ftruncate", "truncate",
    "fsync", "fdatasync", "utimensat", "umask", "chdir", "fchdir", "readv", "writev",
    "pwrite64", "preadv", "pwritev", "sendfile", "copy_file_range", "statfs", "fstatfs",
    "fallocate", "msync", "poll", "ppoll", "select",
    "pselect6", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2",
    "getpgrp", "getpgid", "getsid", "setsid", "getpriority", "alarm", "setitimer", "getitimer",
    "pause", "rt_sigsuspend", "rt_sigtimedwait", "restart_syscall",
    "sched_getparam", "sched_getscheduler", "membarrier",
    /* capset can only lower a process's own capabilities (nothing here holds CAP_SETPCAP over
     * another): a pooled call child drops the ones its fresh user namespace gave it */
    "capset",
};

/*
 * fcntl commands allowed (low 32 bits: the kernel reads an unsigned int): descriptor flags and
 * duplication only. Locks, leases, directory notification, owner and signal settings and pipe
 * resizing are channels to other sandboxes or the host (a lock on a shared read-only inode,
 * F_NOTIFY on a bound directory) or memory outside the limits (F_SETPIPE_SZ): forbidden.
 */
static const unsigned long seccomp__fcntls[] = {F_DUPFD,         F_GETFD, F_SETFD, F_GETFL, F_SETFL,
                                                F_DUPFD_CLOEXEC, F_GETPIPE_SZ};

/* ioctl requests allowed (compared on the low 32 bits). TIOCSTI is not among them. */
static const unsigned long seccomp__ioctls[] = {TCGETS, TIOCGWINSZ, FIONREAD, FIOCLEX, FIONCLEX,
                                                FIONBIO};

static sg_status seccomp__fail(sg_diag *diag, const char *what, int rc)
{
    diag->sys_errno = -rc;
    snprintf(diag->message, sizeof diag->message, "seccomp filter: %s failed: %s", what,
             strerror(-rc));
    return SG_ERR_SANDBOX;
}

/* Allow syscall `nr` when its second argument (low 32 bits: ioctl requests, fcntl commands) is
 * one of `values`. */
static sg_status seccomp__allow_arg1(scmp_filter_ctx ctx, int nr, const unsigned long *values, size_t n,
                                     sg_diag *diag)
{
    for (size_t i = 0; i < n; i++) {
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
                                  SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, values[i]));
        if (rc < 0)
            return seccomp__fail(diag, "argument rule", rc);
    }
    return SG_OK;
}

/*
 * kill, tkill and tgkill with any signal number 0..64 but SIGILL and SIGKILL (its argument
 * `arg`): SIGKILL comes only from outside the sandbox (the supervisor, the cgroup's OOM killer,
 * or the host), so a call that died of it and was not killed by the supervisor was killed from
 * outside (a gate error, not the candidate's doing: sg_outcome_classify). SIGILL comes only from
 * the kernel: from `uretprobe`, which kernels from 6.11 run without consulting seccomp and which
 * outside a uprobe trampoline ends its caller with SIGILL, or from an illegal machine
 * instruction; sg_outcome_classify reports it as a forbidden call. Either sent from inside is a
 * forbidden call. The ranges are masks over all 64 bits: garbage in the upper half (the kernel
 * reads an int) matches none of them.
 */
/* Resources 1..15 (RLIMIT_NLIMITS is 16): every limit but RLIMIT_CPU (0), as masks over all
 * 64 bits of the argument. */
static const struct {
    uint64_t mask, datum;
} seccomp__rlimits[] = {{~(uint64_t)0, 1}, {~(uint64_t)1, 2}, {~(uint64_t)3, 4}, {~(uint64_t)7, 8}};
_Static_assert(RLIMIT_CPU == 0 && RLIM_NLIMITS == 16, "the masks cover 1..15");

static sg_status seccomp__allow_signals(scmp_filter_ctx ctx, int nr, unsigned arg, sg_diag *diag)
{
    static const struct {
        uint64_t mask, datum;
    } ranges[] = {
        {~(uint64_t)3, 0},   /* 0..3 (4 is SIGILL) */
        {~(uint64_t)0, 5},   /* 5 */
        {~(uint64_t)1, 6},   /* 6, 7 */
        {~(uint64_t)0, 8},   /* 8 (9 is SIGKILL) */
        {~(uint64_t)1, 10},  /* 10, 11 */
        {~(uint64_t)3, 12},  /* 12..15 */
        {~(uint64_t)15, 16}, /* 16..31 */
        {~(uint64_t)31, 32}, /* 32..63 */
        {~(uint64_t)0, 64},  /* 64 */
    };
    _Static_assert(SIGKILL == 9 && SIGILL == 4, "the ranges leave out 4 and 9");
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
                                  SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, ranges[i].mask, ranges[i].datum));
        if (rc < 0)
            return seccomp__fail(diag, "signal rule", rc);
    }
    return SG_OK;
}

/* Build the allow-list with libseccomp and keep it as raw BPF in the sandbox. */
sg_status sg_seccomp_build(struct sg_sandbox *sb, sg_diag *diag)
{
    sg_status st = SG_ERR_SANDBOX;
    int rc;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
    if (!ctx)
        return seccomp__fail(diag, "seccomp_init", -ENOMEM);
    /* We set no_new_privs ourselves (it must be on before the filter anyway). */
    /* A binary tree of syscall numbers instead of a linear list: the kernel emulates the filter
     * for every syscall number when it loads it (the action cache), and runs it for each call
     * that the cache cannot answer (those with argument checks); both walk O(log n) now. */
    if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) < 0 ||
        (rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_NOTIFY)) < 0 ||
        (rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0) {
        st = seccomp__fail(diag, "seccomp_attr_set", rc);
        goto out_release;
    }
    for (size_t i = 0; i < sizeof seccomp__allow / sizeof seccomp__allow[0]; i++) {
        int nr = seccomp_syscall_resolve_name(seccomp__allow[i]);
        if (nr == __NR_SCMP_ERROR)
            continue; /* not on this architecture (e.g. `stat` on aarch64) */
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) < 0) {
            st = seccomp__fail(diag, seccomp__allow[i], rc);
            goto out_release;
        }
    }
    if ((st = seccomp__allow_arg1(ctx, SCMP_SYS(ioctl), seccomp__ioctls,
                                  sizeof seccomp__ioctls / sizeof seccomp__ioctls[0], diag)) != SG_OK ||
        (st = seccomp__allow_arg1(ctx, SCMP_SYS(fcntl), seccomp__fcntls,
                                  sizeof seccomp__fcntls / sizeof seccomp__fcntls[0], diag)) != SG_OK ||
        (st = seccomp__allow_signals(ctx, SCMP_SYS(kill), 1, diag)) != SG_OK ||
        (st = seccomp__allow_signals(ctx, SCMP_SYS(tkill), 1, diag)) != SG_OK ||
        (st = seccomp__allow_signals(ctx, SCMP_SYS(tgkill), 2, diag)) != SG_OK)
        goto out_release;
    st = SG_ERR_SANDBOX;
    /* Threads only: CLONE_THREAD set, no namespace flag. A process clone is mediated. */
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | SECCOMP_CLONE_NEW_MASK,
                                  CLONE_THREAD));
    if (rc < 0) {
        st = seccomp__fail(diag, "clone rule", rc);
        goto out_release;
    }
    /* clone3 passes its flags in memory the filter cannot read: make libc fall back. */
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) < 0) {
        st = seccomp__fail(diag, "clone3 rule", rc);
        goto out_release;
    }
    /* The launcher hands the listener to the supervisor on this one fd, closed before exec. */
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendmsg), 1,
                          SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)SG_FD_NOTIFY_SOCK));
    if (rc < 0) {
        st = seccomp__fail(diag, "sendmsg rule", rc);
        goto out_release;
    }
    /* prctl(PR_SET_DUMPABLE, 0 or 1) and nothing else of prctl: the pooled zygote makes itself
     * non-dumpable (its /proc/PID files are then closed to every other process of the sandbox's
     * uid), and its call child dumpable again for the moment it writes its own uid_map (a file
     * of a non-dumpable process belongs to root); dumpable concerns the caller alone. */
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 2, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)PR_SET_DUMPABLE),
                          SCMP_A1(SCMP_CMP_LE, 1));
    if (rc < 0) {
        st = seccomp__fail(diag, "prctl rule", rc);
        goto out_release;
    }
    /* prlimit64 on the caller itself only (pid 0, what getrlimit/setrlimit pass): the limits of
     * another process (the pooled zygote, pid 1) are not a candidate's to read or lower. Any
     * limit may be read (no new value); RLIMIT_CPU may not be set: the kernel's SIGKILL at a
     * hard CPU limit the candidate lowered would pass for a kill from outside the sandbox
     * (seccomp__allow_signals). The supervisor measures and enforces CPU itself. */
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0),
                          SCMP_A2(SCMP_CMP_EQ, 0));
    if (rc < 0) {
        st = seccomp__fail(diag, "prlimit64 rule", rc);
        goto out_release;
    }
    for (size_t i = 0; i < sizeof seccomp__rlimits / sizeof seccomp__rlimits[0]; i++) {
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0),
                                   SCMP_A1(SCMP_CMP_MASKED_EQ, seccomp__rlimits[i].mask,
                                           seccomp__rlimits[i].datum))) < 0 ||
            (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setrlimit), 1,
                                   SCMP_A0(SCMP_CMP_MASKED_EQ, seccomp__rlimits[i].mask,
                                           seccomp__rlimits[i].datum))) < 0) {
            st = seccomp__fail(diag, "rlimit rule", rc);
            goto out_release;
        }
    }
    /* futex: any operation on a process-private futex; on a shared one (a key that another
     * process mapping the same file page also reaches: the read-only standard library and
     * interpreter are mapped by every sandbox) only waiting, as glibc's pthread_join does on the
     * tid the kernel clears. Waking, requeueing or wake-op on a shared key is forbidden, so no
     * sandbox can wake another's waiter. */
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(futex), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FUTEX_PRIVATE, SECCOMP_FUTEX_PRIVATE))) < 0 ||
        (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(futex), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FUTEX_CMD_MASK, 0 /* FUTEX_WAIT */))) < 0 ||
        (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(futex), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FUTEX_CMD_MASK, 9 /* FUTEX_WAIT_BITSET */))) < 0) {
        st = seccomp__fail(diag, "futex rule", rc);
        goto out_release;
    }
    /* sysinfo tells the host's uptime, load and free memory: it fails (ENOSYS, as on a kernel
     * without it) instead; glibc's callers (sysconf of the physical pages) fall back. */
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(sysinfo), 0)) < 0) {
        st = seccomp__fail(diag, "sysinfo rule", rc);
        goto out_release;
    }
    /* Export the program: libseccomp writes it to an fd; a memfd keeps it in memory. */
    int mfd = memfd_create("sg-bpf", MFD_CLOEXEC);
    if (mfd < 0) {
        st = seccomp__fail(diag, "memfd_create", -errno);
        goto out_release;
    }
    if ((rc = seccomp_export_bpf(ctx, mfd)) < 0) {
        st = seccomp__fail(diag, "seccomp_export_bpf", rc);
        goto out_close;
    }
    off_t size = lseek(mfd, 0, SEEK_END);
    if (size <= 0 || size % (off_t)sizeof(struct sock_filter) ||
        size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
        st = seccomp__fail(diag, "export size", -EINVAL);
        goto out_close;
    }
    sb->bpf = malloc((size_t)size);
    if (!sb->bpf) {
        st = SG_ERR_NOMEM;
        goto out_close;
    }
    if (pread(mfd, sb->bpf, (size_t)size, 0) != size) {
        free(sb->bpf);
        sb->bpf = NULL;
        st = seccomp__fail(diag, "read back", -EIO);
        goto out_close;
    }
    sb->bpf_len = (unsigned short)(size / (off_t)sizeof(struct sock_filter));
    st = SG_OK;
out_close:
    close(mfd);
out_release:
    seccomp_release(ctx);
    return st;
}

/* Load the compiled filter into the calling thread; returns the notification listener fd. */
int sg_seccomp_load(const struct sg_sandbox *sb)
{
    struct sock_fprog prog = {.len = sb->bpf_len, .filter = sb->bpf};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                        &prog);
}

/*
 * Run the compiled classic BPF over a seccomp_data, in user space: the unit tests use it to
 * prove what the filter allows and denies without loading it. Supports what libseccomp emits.
 */
uint32_t sg_seccomp_eval(const struct sg_sandbox *sb, uint32_t arch, int nr, const uint64_t args[6])
{
    struct seccomp_data d;
    memset(&d, 0, sizeof d);
    d.nr = nr;
    d.arch = arch;
    for (int i = 0; i < 6; i++)
        d.args[i] = args ? args[i] : 0;
    const unsigned char *data = (const unsigned char *)&d;
    uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = {0};
    for (unsigned pc = 0; pc < sb->bpf_len; pc++) {
        const struct sock_filter *f = &sb->bpf[pc];
        switch (f->code) {
        case BPF_LD | BPF_W | BPF_ABS:
            if (f->k + 4 > sizeof d)
                return SECCOMP_RET_KILL_PROCESS;
            memcpy(&a, data + f->k, 4);
            break;
        case BPF_LD | BPF_IMM: a = f->k; break;
        case BPF_LDX | BPF_IMM: x = f->k; break;
        case BPF_LD | BPF_MEM: a = mem[f->k % BPF_MEMWORDS]; break;
        case BPF_LDX | BPF_MEM: x = mem[f->k % BPF_MEMWORDS]; break;
        case BPF_ST: mem[f->k % BPF_MEMWORDS] = a; break;
        case BPF_STX: mem[f->k % BPF_MEMWORDS] = x; break;
        case BPF_ALU | BPF_AND | BPF_K: a &= f->k; break;
        case BPF_ALU | BPF_OR | BPF_K: a |= f->k; break;
        case BPF_ALU | BPF_AND | BPF_X: a &= x; break;
        case BPF_MISC | BPF_TAX: x = a; break;
        case BPF_MISC | BPF_TXA: a = x; break;
        case BPF_JMP | BPF_JA: pc += f->k; break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += (a == f->k) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGT | BPF_K: pc += (a > f->k) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += (a >= f->k) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JSET | BPF_K: pc += (a & f->k) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JEQ | BPF_X: pc += (a == x) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGT | BPF_X: pc += (a > x) ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGE | BPF_X: pc += (a >= x) ? f->jt : f->jf; break;
        case BPF_RET | BPF_K: return f->k;
        case BPF_RET | BPF_A: return a;
        default: return SECCOMP_RET_KILL_PROCESS; /* unknown opcode: fail closed */
        }
    }
    return SECCOMP_RET_KILL_PROCESS;
}

/* A name for (arch, nr) from libseccomp's tables: "ptrace", or "i386:mount" off the native arch. */
void sg_seccomp_name(uint32_t arch, int nr, char *buf, size_t len)
{
    char *name = seccomp_syscall_resolve_num_arch(arch, nr);
    const char *prefix = "";
    if (arch == AUDIT_ARCH_I386)
        prefix = "i386:";
    else if (arch != seccomp_arch_native())
        prefix = "foreign:";
    if (name)
        snprintf(buf, len, "%s%s", prefix, name);
    else
        snprintf(buf, len, "%s#%d", prefix, nr);
    free(name);
}

/* True for a plain fork as CPython/glibc make it: clone with only tid bookkeeping and SIGCHLD. */
bool sg_seccomp_is_process_clone(uint32_t arch, int nr, uint64_t arg0)
{
    if (arch != (uint32_t)seccomp_arch_native() || nr != SCMP_SYS(clone))
        return false;
    const uint64_t ok = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CSIGNAL;
    return (arg0 & ~ok) == 0 && (arg0 & CSIGNAL) == SIGCHLD;
}

/* True for the clone a pooled zygote makes for each call child (sandbox/runner.py, _ns_fork): a
 * fork into a new user, pid, mount and IPC namespace, and nothing else. */
bool sg_seccomp_is_ns_clone(uint32_t arch, int nr, uint64_t arg0)
{
    if (arch != (uint32_t)seccomp_arch_native() || nr != SCMP_SYS(clone))
        return false;
    return arg0 == (uint64_t)(SG_CALL_NS_FLAGS | SIGCHLD);
}

bool sg_seccomp_is_mount(uint32_t arch, int nr)
{
    return arch == (uint32_t)seccomp_arch_native() && nr == SCMP_SYS(mount);
}

bool sg_seccomp_is_wait(uint32_t arch, int nr)
{
    return arch == (uint32_t)seccomp_arch_native() && (nr == SCMP_SYS(wait4) || nr == SCMP_SYS(waitid));
}

bool sg_seccomp_is_exit_group(uint32_t arch, int nr)
{
    return arch == (uint32_t)seccomp_arch_native() && nr == SCMP_SYS(exit_group);
}

bool sg_seccomp_is_execve(uint32_t arch, int nr)
{
    return arch == (uint32_t)seccomp_arch_native() && nr == SCMP_SYS(execve);
}
