/*
 * Namespaces: the clone that creates them all at once, the uid/gid maps of the user namespace,
 * the hostname of the uts namespace, and the tiny init that is pid 1 of the pid namespace.
 * Everything here except sg_ns_clone runs in the sandbox's pid 1, before or instead of exec: no
 * allocation, raw system calls only.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

/*
 * Create the child that becomes pid 1 of fresh user, mount, pid, net, ipc, uts and cgroup
 * namespaces. A raw clone (fork semantics, no new stack) so that it works the same under ASan.
 * Returns the child's pid in the parent, 0 in the child, -1 with errno on failure.
 */
pid_t sg_ns_clone(void)
{
    return (pid_t)syscall(SYS_clone, (unsigned long)(SG_NS_FLAGS | SIGCHLD), NULL, NULL, NULL, NULL);
}

static int ns__write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    ssize_t n = write(fd, text, len);
    int saved = errno;
    close(fd);
    if (n != (ssize_t)len) {
        errno = n < 0 ? saved : EIO;
        return -1;
    }
    return 0;
}

/*
 * Supervisor side, right after the clone: map SG_SB_UID/GID inside `pid`'s user namespace to one
 * unprivileged outer id. Trust boundary: the ids decide what the sandbox is on the host.
 *   - As root, the outer ids are `outer_uid`/`outer_gid` (65534 by default, never 0): a
 *     privileged writer may map any id, and setgroups stays allowed so that pid 1 can drop the
 *     supplementary groups it inherited from us (root's group 0 among them).
 *   - Unprivileged, the only mapping the kernel allows is our own ids, after denying setgroups.
 * Returns 0, or -1 with errno set.
 */
int sg_ns_write_maps(pid_t pid, bool privileged, uid_t outer_uid, gid_t outer_gid)
{
    char path[64], line[64];
    if (outer_uid == 0 || outer_gid == 0) {
        errno = EPERM; /* never host root, whatever the configuration says */
        return -1;
    }
    if (!privileged) {
        snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
        if (ns__write_file(path, "deny") < 0 && errno != ENOENT)
            return -1;
    }
    snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
    snprintf(line, sizeof line, "%d %u 1\n", SG_SB_UID, (unsigned)outer_uid);
    if (ns__write_file(path, line) < 0)
        return -1;
    snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
    snprintf(line, sizeof line, "%d %u 1\n", SG_SB_UID, (unsigned)outer_gid);
    return ns__write_file(path, line);
}

/*
 * pid 1, once the supervisor has written the maps: no supplementary groups (where setgroups is
 * allowed: the privileged case), then become the mapped ids. The old ids were unmapped in this
 * namespace, not 0, so the capabilities we hold here survive the change (until exec).
 */
int sg_ns_become_mapped(void)
{
    if (syscall(SYS_setgroups, 0, NULL) < 0 && errno != EPERM)
        return -1;
    if (syscall(SYS_setresgid, SG_SB_UID, SG_SB_UID, SG_SB_UID) < 0)
        return -1;
    return (int)syscall(SYS_setresuid, SG_SB_UID, SG_SB_UID, SG_SB_UID);
}

int sg_ns_set_hostname(void)
{
    static const char name[] = "sandbox";
    if (sethostname(name, sizeof name - 1) < 0)
        return -1;
    return setdomainname(name, sizeof name - 1);
}

/*
 * Parent side: where our argv and environment strings are (fields 48-51 of /proc/self/stat), so
 * that pid 1 can wipe its copy. No size cap: a megabyte of arguments is wiped like ten bytes.
 */
void sg_ns_argv_range(unsigned long ret_range[4])
{
    char buf[2048];
    memset(ret_range, 0, 4 * sizeof ret_range[0]);
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p)
        return;
    /* After ") " comes field 3; arg_start is field 48, env_end field 51. */
    int field = 2;
    for (char *tok = p + 1; *tok && field < 51; tok++) {
        if (*tok != ' ')
            continue;
        field++;
        if (field >= 48)
            ret_range[field - 48] = strtoul(tok + 1, NULL, 10);
    }
    for (int i = 0; i < 4; i += 2)
        if (ret_range[i + 1] <= ret_range[i])
            ret_range[i] = ret_range[i + 1] = 0;
}

/*
 * pid 1 is a fork of snipgate, so /proc/1/cmdline would show snipgate's argv (host paths, the
 * call text) to the code inside: wipe that memory and the environment strings (our
 * copy-on-write copies) and rename the task.
 */
int sg_ns_hide_cmdline(const struct sg_child_plan *plan)
{
    for (int i = 0; i < 4; i += 2)
        if (plan->arg_range[i] && plan->arg_range[i + 1] > plan->arg_range[i])
            memset((void *)plan->arg_range[i], 0, plan->arg_range[i + 1] - plan->arg_range[i]);
    return prctl(PR_SET_NAME, "sg-init", 0, 0, 0);
}

/* Trust boundary: pid 1 and the pre-exec launcher tell the supervisor what happened. */
void sg_ns_report(int status_fd, int type, enum sg_stage stage, int err, const char *msg)
{
    struct sg_child_report r;
    memset(&r, 0, sizeof r);
    r.type = type;
    r.stage = (int32_t)stage;
    r.err = err;
    if (msg)
        snprintf(r.msg, sizeof r.msg, "%s", msg);
    ssize_t n = write(status_fd, &r, sizeof r);
    (void)n;
}

/*
 * pid 1 of the sandbox: wait for the launcher (the interpreter) to exit, then report its wait
 * status and resource usage and exit, which makes the kernel kill whatever else is still alive
 * in the pid namespace (daemons, stray children). Meanwhile it serves the supervisor's commands
 * (a fresh /tmp between worker calls) and reaps any other process. Its signal dispositions stay
 * at default, so processes inside cannot kill it (pid-1 protection); the supervisor can (SIGKILL).
 */
void sg_ns_init_loop(const struct sg_child_plan *plan, pid_t launcher)
{
    int pidfd = (int)syscall(SYS_pidfd_open, launcher, 0);
    int ctl = plan->init_ctl_fd;
    if (pidfd < 0)
        _exit(121);
    for (;;) {
        struct pollfd p[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = ctl, .events = POLLIN}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            _exit(120);
        }
        if (p[1].revents) {
            char cmd;
            ssize_t n = read(ctl, &cmd, 1);
            if (n == 1 && cmd == SG_INIT_CMD_RESET_TMP) {
                int rc = sg_mounts_reset_tmp(plan);
                sg_ns_report(plan->status_fd, SG_REPORT_TMP_RESET, SG_STAGE_MOUNTS, rc < 0 ? errno : 0,
                             rc < 0 ? "reset /tmp" : NULL);
            } else if (n == 0) {
                ctl = -1; /* the supervisor is gone: PDEATHSIG ends us */
            }
        }
        if (!p[0].revents)
            continue;
        for (;;) {
            int st = 0;
            struct rusage ru;
            memset(&ru, 0, sizeof ru);
            pid_t pid = wait4(-1, &st, __WALL | WNOHANG, &ru);
            if (pid < 0 && errno == EINTR)
                continue;
            if (pid <= 0)
                break;
            if (pid != launcher)
                continue;
            struct sg_child_report r;
            memset(&r, 0, sizeof r);
            r.type = SG_REPORT_EXITED;
            r.wstatus = st;
            r.cpu_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
                       (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
            r.maxrss_kb = ru.ru_maxrss;
            ssize_t n = write(plan->status_fd, &r, sizeof r);
            (void)n;
            _exit(0);
        }
    }
}
