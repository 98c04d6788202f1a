/*
 * The checklist: every isolation layer, applied in order, in the processes of the sandbox.
 *
 *   pid 1 (init, trusted C, never runs Python)        pid 2 (launcher, becomes the interpreter)
 *   1. die with the supervisor; default signals      8. fds 0..6 (7, 8 with coverage) only
 *   2. join the sandbox's cgroups, then a fresh       9. new session, cwd /tmp
 *      cgroup namespace rooted there                 10. rlimits (cpu, fsize, nofile, nproc, core, as)
 *   3. user namespace: wait for the supervisor to
 *      write the uid/gid maps (an unprivileged host
 *      id, never root), become the mapped ids
 *   4. mounts: tmpfs root, ro binds, pivot_root      11. all capabilities dropped
 *   5. hostname of the uts namespace                 12. no_new_privs
 *   6. not dumpable, argv wiped (/proc/1/cmdline)     13. seccomp allow-list, listener to supervisor
 *   7. fork the launcher, then reap until it exits   14. execve the interpreter, scrubbed env
 *
 * The namespaces user, mount, pid, net, ipc and uts were created by the clone that started pid 1
 * (sg_ns_clone); the cgroup namespace comes in step 2. Any failure is reported to the supervisor with its stage and
 * errno, and nothing runs: there is no degraded mode.
 * Runs between fork and exec: raw system calls only, no allocation.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

#define CONTAIN_STEP(stage_, what_, expr)                                                         \
    do {                                                                                           \
        if ((expr) < 0)                                                                            \
            contain__fail(status_fd, (stage_), (what_));                                           \
    } while (0)

__attribute__((noreturn)) static void contain__fail(int status_fd, enum sg_stage stage, const char *what)
{
    sg_ns_report(status_fd, SG_REPORT_SETUP_ERROR, stage, errno, what);
    _exit(127);
}

/* Step 1 (again after step 3, which clears it): PDEATHSIG is set after the clone or the credential
 * change; if the supervisor died in between, stop now. The pipe may hold the supervisor's one
 * byte: only a hang-up means it is gone. */
static int contain__parent_alive(int life_fd)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
        return -1;
    struct pollfd p = {.fd = life_fd, .events = POLLIN};
    if (poll(&p, 1, 0) < 0 || (p.revents & (POLLHUP | POLLERR))) {
        errno = ESRCH;
        return -1;
    }
    return 0;
}

/* Step 3: the supervisor writes our uid/gid maps (sg_ns_write_maps), then one byte. */
static int contain__wait_maps(int life_fd)
{
    char byte;
    ssize_t n;
    while ((n = read(life_fd, &byte, 1)) < 0 && errno == EINTR)
        ;
    if (n != 1) {
        errno = n == 0 ? ESRCH : errno;
        return -1;
    }
    return sg_ns_become_mapped();
}

/*
 * Step 1b: default dispositions and an empty mask. pid 1 ignores signals from inside its
 * namespace only while it has no handler: a handler inherited from the program that embeds
 * snipgate (ASan's SIGSEGV handler, a server's SIGTERM handler) would make it killable from
 * inside. The mask is inherited across exec, so the interpreter gets a clean one too.
 */
static int contain__reset_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            (void)sigaction(sig, &sa, NULL); /* EINVAL for glibc-reserved RT signals: fine */
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Step 8: move the inherited fds to 0..6 (7, 8 with coverage; and two launcher-only fds), close the rest. */
static int contain__arrange_fds(const struct sg_child_plan *plan, int *status_fd)
{
    int high[9];
    for (int i = 0; i < 9; i++) {
        high[i] = -1;
        if (i >= SG_FD_TRACER && plan->fds[i] < 0)
            continue; /* no coverage: 7 and 8 are closed below */
        if ((high[i] = fcntl(plan->fds[i], F_DUPFD_CLOEXEC, 300)) < 0)
            return -1;
    }
    int sock = fcntl(plan->notify_sock, F_DUPFD_CLOEXEC, 300);
    int st = fcntl(*status_fd, F_DUPFD_CLOEXEC, 300);
    if (sock < 0 || st < 0)
        return -1;
    for (int i = 0; i < 9; i++) {
        if (high[i] < 0)
            (void)close(i); /* whatever the launcher had there must not reach the interpreter */
        else if (dup2(high[i], i) < 0) /* dup2 clears O_CLOEXEC: these survive exec */
            return -1;
    }
    if (dup3(sock, SG_FD_NOTIFY_SOCK, O_CLOEXEC) < 0 || dup3(st, SG_FD_STATUS, O_CLOEXEC) < 0)
        return -1;
    *status_fd = SG_FD_STATUS;
    if (syscall(SYS_close_range, SG_FD_FIRST_FREE, SG_FD_NOTIFY_SOCK - 1, 0) < 0 ||
        syscall(SYS_close_range, SG_FD_STATUS + 1, ~0U, 0) < 0)
        return -1;
    return 0;
}

/* Step 11: empty bounding, ambient, permitted, effective and inheritable sets. */
static int contain__drop_caps(void)
{
    for (int cap = 0; cap < 64; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            return -1;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
        return -1;
    struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    return (int)syscall(SYS_capset, &hdr, data);
}

/* Step 13: load the filter; trust boundary: the listener fd goes to the supervisor. */
static int contain__seccomp(const struct sg_child_plan *plan)
{
    int listener = sg_seccomp_load(plan->sb);
    if (listener < 0)
        return -1;
    char cbuf[CMSG_SPACE(sizeof(int))];
    memset(cbuf, 0, sizeof cbuf);
    char byte = 'L';
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
                         .msg_controllen = sizeof cbuf};
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &listener, sizeof(int));
    ssize_t n = sendmsg(SG_FD_NOTIFY_SOCK, &msg, MSG_NOSIGNAL);
    int saved = errno;
    close(listener);
    close(SG_FD_NOTIFY_SOCK);
    errno = saved;
    return n == 1 ? 0 : -1;
}

/* pid 2: the launcher, turning into the interpreter once every layer is on. */
__attribute__((noreturn)) static void contain__launcher(const struct sg_child_plan *plan)
{
    int status_fd = plan->status_fd;
    CONTAIN_STEP(SG_STAGE_FDS, "arrange file descriptors", contain__arrange_fds(plan, &status_fd));
    CONTAIN_STEP(SG_STAGE_FDS, "new session", setsid());
    CONTAIN_STEP(SG_STAGE_FDS, "chdir /tmp", chdir("/tmp"));
    CONTAIN_STEP(SG_STAGE_RLIMITS, "set rlimits", sg_limits_apply_rlimits(plan));
    CONTAIN_STEP(SG_STAGE_CAPS, "drop capabilities", contain__drop_caps());
    CONTAIN_STEP(SG_STAGE_NO_NEW_PRIVS, "no_new_privs", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
    CONTAIN_STEP(SG_STAGE_SECCOMP, "load seccomp filter", contain__seccomp(plan));
    execve(plan->argv[0], plan->argv, plan->envp);
    contain__fail(status_fd, SG_STAGE_EXEC, "execve the interpreter");
}

/* pid 1 keeps only its two pipes to the supervisor (status out, commands in) at 300 and 301. */
static int contain__keep_init_fds(struct sg_child_plan *mine)
{
    if (dup3(mine->status_fd, 300, O_CLOEXEC) < 0 || dup3(mine->init_ctl_fd, 301, O_CLOEXEC) < 0)
        return -1;
    if (syscall(SYS_close_range, 0, 299, 0) < 0 || syscall(SYS_close_range, 302, ~0U, 0) < 0)
        return -1;
    mine->status_fd = 300;
    mine->init_ctl_fd = 301;
    return 0;
}

void sg_contain_child(const struct sg_child_plan *plan)
{
    int status_fd = plan->status_fd;
    enum sg_stage stage;
    const char *what = "";

    CONTAIN_STEP(SG_STAGE_PARENT_DEATH, "parent-death signal", contain__parent_alive(plan->life_fd));
    CONTAIN_STEP(SG_STAGE_INIT, "default signal handling", contain__reset_signals());
    CONTAIN_STEP(SG_STAGE_INIT, "join cgroups", sg_cgroup_join(plan));
    CONTAIN_STEP(SG_STAGE_INIT, "cgroup namespace", unshare(CLONE_NEWCGROUP));
    CONTAIN_STEP(SG_STAGE_USER_NS, "wait for the uid/gid maps", contain__wait_maps(plan->life_fd));
    CONTAIN_STEP(SG_STAGE_PARENT_DEATH, "parent-death signal", contain__parent_alive(plan->life_fd));
    if (sg_mounts_setup(plan, &stage, &what) < 0)
        contain__fail(status_fd, stage, what);
    CONTAIN_STEP(SG_STAGE_HOSTNAME, "set hostname", sg_ns_set_hostname());
    CONTAIN_STEP(SG_STAGE_INIT, "not dumpable", prctl(PR_SET_DUMPABLE, 0, 0, 0, 0));
    CONTAIN_STEP(SG_STAGE_INIT, "hide snipgate's argv", sg_ns_hide_cmdline(plan));

    pid_t launcher = (pid_t)syscall(SYS_clone, (unsigned long)SIGCHLD, NULL, NULL, NULL, NULL);
    CONTAIN_STEP(SG_STAGE_FORK, "fork the launcher", launcher);
    if (launcher == 0)
        contain__launcher(plan);

    struct sg_child_plan mine = *plan;
    mine.init_ctl_fd = plan->life_fd; /* after the maps byte, the supervisor's commands */
    CONTAIN_STEP(SG_STAGE_INIT, "close fds in init", contain__keep_init_fds(&mine));
    sg_ns_init_loop(&mine, launcher);
}
