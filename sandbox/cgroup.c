/*
 * Cgroups (set up by the supervisor): cgroup v2 if it has the memory controller, else v1 (hybrid
 * hosts like Debian 12 with systemd's legacy layout), else rlimits (limits.c). The mechanism that
 * was in force is reported in every outcome. The kernel's counters read here (OOM kills, refused
 * charges, peak memory) are trusted facts for the verdict.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "sandbox/sandbox.h"

static int cgroup__write(const char *dir, const char *file, const char *text)
{
    char path[SG_SB_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int cgroup__read(const char *dir, const char *file, char *buf, size_t len)
{
    char path[SG_SB_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* Our own cgroup path for `controller` ("" for the v2 line) from /proc/self/cgroup. */
static int cgroup__own_cgroup(const char *controller, char *buf, size_t len)
{
    char data[4096];
    if (cgroup__read("/proc/self", "cgroup", data, sizeof data) < 0)
        return -1;
    char *save = NULL; /* strtok_r: supervisors run in several threads (eval -j, serve) */
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *ctrls = c1 + 1;
        bool match = false;
        if (!*controller) {
            match = !strcmp(line, "0") && !*ctrls;
        } else {
            for (const char *p = ctrls; p && *p;) {
                const char *comma = strchr(p, ',');
                size_t n = comma ? (size_t)(comma - p) : strlen(p);
                if (n == strlen(controller) && !strncmp(p, controller, n))
                    match = true;
                p = comma ? comma + 1 : NULL;
            }
        }
        if (match) {
            snprintf(buf, len, "%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
            return 0;
        }
    }
    return -1;
}

static bool cgroup__has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n])))
            return true;
    return false;
}

static bool cgroup__is_fs(const char *path, long magic)
{
    struct statfs sf;
    return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/*
 * A supervisor killed outright (SIGKILL, a crash) leaves its cgroup directories behind. Once per
 * process and parent directory, before this process makes its first cgroup there, remove the
 * `snipgate-<pid>-<n>` ones whose pid is dead, or is our own pid: pids are reused, and this
 * process has made none there yet, so a directory with our pid is a dead predecessor's (seen in
 * CI: a killed supervisor's directories outlived it because a later process had its pid). rmdir
 * refuses a cgroup that still has tasks, so a live sandbox is never touched. The scan runs under
 * the lock, so no thread of ours creates a cgroup in that parent before it is done.
 */
static void cgroup__remove_stale(const char *parent)
{
    static char done[4][SG_SB_PATH_MAX];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    size_t slot = 0;
    for (; slot < 4 && done[slot][0]; slot++)
        if (!strcmp(done[slot], parent))
            break;
    if (slot >= 4 || done[slot][0]) {
        pthread_mutex_unlock(&lock);
        return;
    }
    snprintf(done[slot], sizeof done[slot], "%s", parent);
    DIR *d = opendir(parent);
    for (struct dirent *e; d && (e = readdir(d));) {
        int pid = 0;
        unsigned n = 0;
        char path[SG_SB_PATH_MAX + 300];
        if (sscanf(e->d_name, "snipgate-%d-%u", &pid, &n) != 2 || pid <= 0)
            continue;
        if (pid != getpid() && (kill(pid, 0) == 0 || errno != ESRCH))
            continue;
        snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
        (void)rmdir(path);
    }
    if (d)
        closedir(d);
    pthread_mutex_unlock(&lock);
}

static int cgroup__mkdir_child(const char *parent, const char *tag, char *out, size_t len)
{
    cgroup__remove_stale(parent);
    int n = snprintf(out, len, "%s/snipgate-%s", parent, tag);
    if (n < 0 || (size_t)n >= len) {
        out[0] = '\0';
        return -1;
    }
    if (mkdir(out, 0755) < 0 && errno != EEXIST) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

/* Try cgroup v2: our own cgroup must offer the memory controller to its children. */
static bool cgroup__try_v2(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg)
{
    const char *base = NULL;
    if (cgroup__is_fs("/sys/fs/cgroup", CGROUP2_SUPER_MAGIC))
        base = "/sys/fs/cgroup";
    else if (cgroup__is_fs("/sys/fs/cgroup/unified", CGROUP2_SUPER_MAGIC))
        base = "/sys/fs/cgroup/unified";
    if (!base)
        return false;
    char own[SG_SB_PATH_MAX / 2], dir[SG_SB_PATH_MAX], ctrl[512];
    if (cgroup__own_cgroup("", own, sizeof own) < 0)
        return false;
    snprintf(dir, sizeof dir, "%s%s", base, own);
    if (cgroup__read(dir, "cgroup.subtree_control", ctrl, sizeof ctrl) < 0)
        return false;
    if (!cgroup__has_word(ctrl, "memory")) {
        (void)cgroup__write(dir, "cgroup.subtree_control", "+memory");
        (void)cgroup__write(dir, "cgroup.subtree_control", "+pids");
        if (cgroup__read(dir, "cgroup.subtree_control", ctrl, sizeof ctrl) < 0 ||
            !cgroup__has_word(ctrl, "memory"))
            return false;
    }
    if (cgroup__mkdir_child(dir, tag, cg->mem_dir, sizeof cg->mem_dir) < 0)
        return false;
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, limits->memory_bytes);
    if (cgroup__write(cg->mem_dir, "memory.max", num) < 0) {
        rmdir(cg->mem_dir);
        cg->mem_dir[0] = '\0';
        return false;
    }
    (void)cgroup__write(cg->mem_dir, "memory.swap.max", "0");
    cg->mech = SG_MECH_CGROUP_V2;
    snprintf(num, sizeof num, "%" PRIu64, limits->max_tasks);
    if (cgroup__has_word(ctrl, "pids") && cgroup__write(cg->mem_dir, "pids.max", num) == 0)
        cg->tasks_mech = SG_MECH_CGROUP_V2;
    return true;
}

/* Try cgroup v1: separate memory and pids hierarchies under /sys/fs/cgroup/<controller>. */
static bool cgroup__try_v1(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg)
{
    char own[SG_SB_PATH_MAX / 2], dir[SG_SB_PATH_MAX], num[32];
    if (!cgroup__is_fs("/sys/fs/cgroup/memory", CGROUP_SUPER_MAGIC) ||
        cgroup__own_cgroup("memory", own, sizeof own) < 0)
        return false;
    snprintf(dir, sizeof dir, "/sys/fs/cgroup/memory%s", own);
    if (cgroup__mkdir_child(dir, tag, cg->mem_dir, sizeof cg->mem_dir) < 0)
        return false;
    snprintf(num, sizeof num, "%" PRIu64, limits->memory_bytes);
    if (cgroup__write(cg->mem_dir, "memory.limit_in_bytes", num) < 0) {
        rmdir(cg->mem_dir);
        cg->mem_dir[0] = '\0';
        return false;
    }
    (void)cgroup__write(cg->mem_dir, "memory.memsw.limit_in_bytes", num);
    cg->mech = SG_MECH_CGROUP_V1;
    if (cgroup__is_fs("/sys/fs/cgroup/pids", CGROUP_SUPER_MAGIC) &&
        cgroup__own_cgroup("pids", own, sizeof own) == 0) {
        snprintf(dir, sizeof dir, "/sys/fs/cgroup/pids%s", own);
        if (cgroup__mkdir_child(dir, tag, cg->pids_dir, sizeof cg->pids_dir) == 0) {
            snprintf(num, sizeof num, "%" PRIu64, limits->max_tasks);
            if (cgroup__write(cg->pids_dir, "pids.max", num) == 0) {
                cg->tasks_mech = SG_MECH_CGROUP_V1;
            } else {
                rmdir(cg->pids_dir);
                cg->pids_dir[0] = '\0';
            }
        }
    }
    return true;
}

/*
 * Decide how memory and tasks are limited for one sandbox and create its cgroup(s) if any.
 * Never fails for lack of cgroups: rlimits are the last resort and always in force for tasks.
 */
sg_status sg_cgroup_setup(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg,
                          sg_diag *diag)
{
    (void)diag;
    memset(cg, 0, sizeof *cg);
    cg->mech = SG_MECH_RLIMIT;
    cg->tasks_mech = SG_MECH_RLIMIT;
    if (limits->prefer_rlimit_memory || getenv("SNIPGATE_NO_CGROUP"))
        return SG_OK;
    if (!cgroup__try_v2(limits, tag, cg))
        (void)cgroup__try_v1(limits, tag, cg);
    cg->oom_kills_at_start = sg_cgroup_oom_kills(cg);
    return SG_OK;
}

/*
 * Open the files through which pid 1 moves itself into the sandbox's cgroups. Joining by writing
 * "0" from the (single-threaded) child itself migrates one thread, which skips the global
 * threadgroup lock that makes moving another process cost a full RCU grace period (8-25 ms
 * measured here on cgroup v1). Permission is checked with our credentials, at open time.
 */
sg_status sg_cgroup_open_join(const struct sg_cgroup *cg, int fds[2], sg_diag *diag)
{
    const char *dirs[2] = {cg->mem_dir, cg->pids_dir};
    fds[0] = fds[1] = -1;
    for (int i = 0; i < 2; i++) {
        if (!dirs[i][0])
            continue;
        char path[SG_SB_PATH_MAX + 32];
        bool v2 = cg->mech == SG_MECH_CGROUP_V2;
        snprintf(path, sizeof path, "%s/%s", dirs[i], v2 ? "cgroup.procs" : "tasks");
        fds[i] = open(path, O_WRONLY | O_CLOEXEC);
        if (fds[i] < 0) {
            diag->sys_errno = errno;
            snprintf(diag->message, sizeof diag->message, "cannot open %.400s: %s", path, strerror(errno));
            if (fds[0] >= 0)
                close(fds[0]);
            fds[0] = -1;
            return SG_ERR_SANDBOX;
        }
    }
    return SG_OK;
}

/* Child side (pid 1, before it forks anything): join the cgroups opened above. */
int sg_cgroup_join(const struct sg_child_plan *plan)
{
    for (int i = 0; i < 2; i++)
        if (plan->cg_fds[i] >= 0 && write(plan->cg_fds[i], "0", 1) != 1)
            return -1;
    return 0;
}

/* A counter from a file of the sandbox's memory cgroup: the number after `key ` on a line of its
 * own, or the file's whole content for a NULL key; 0 if there is none. */
static uint64_t cgroup__counter(const struct sg_cgroup *cg, const char *file, const char *key)
{
    char buf[1024];
    if (!cg->mem_dir[0] || cgroup__read(cg->mem_dir, file, buf, sizeof buf) < 0)
        return 0;
    if (!key)
        return strtoull(buf, NULL, 10);
    size_t n = strlen(key);
    for (const char *p = buf; (p = strstr(p, key)); p += n)
        if ((p == buf || p[-1] == '\n') && p[n] == ' ')
            return strtoull(p + n + 1, NULL, 10);
    return 0;
}

/* Trusted fact: the number of OOM kills the kernel counted in the sandbox's memory cgroup. */
uint64_t sg_cgroup_oom_kills(const struct sg_cgroup *cg)
{
    return cgroup__counter(cg, cg->mech == SG_MECH_CGROUP_V2 ? "memory.events" : "memory.oom_control",
                           "oom_kill");
}

/* Trusted fact: how often the memory cgroup refused to grow past its limit (v1 failcnt, v2 the
 * "max" event). An allocation refused there is the memory limit at work. */
uint64_t sg_cgroup_limit_hits(const struct sg_cgroup *cg)
{
    if (cg->mech == SG_MECH_CGROUP_V2)
        return cgroup__counter(cg, "memory.events", "max");
    return cgroup__counter(cg, "memory.failcnt", NULL);
}

/* The limit-hits file kept open (streams read it after every item: one pread instead of an
 * open, a read and a close). -1 if there is none. */
int sg_cgroup_open_hits(const struct sg_cgroup *cg)
{
    if (!cg->mem_dir[0] || (cg->mech != SG_MECH_CGROUP_V2 && cg->mech != SG_MECH_CGROUP_V1))
        return -1;
    char path[SG_SB_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", cg->mem_dir, cg->mech == SG_MECH_CGROUP_V2 ? "memory.events" : "memory.failcnt");
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* sg_cgroup_limit_hits through a descriptor of sg_cgroup_open_hits. */
uint64_t sg_cgroup_read_hits(const struct sg_cgroup *cg, int fd)
{
    char buf[1024];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    if (n < 0)
        return sg_cgroup_limit_hits(cg);
    buf[n] = '\0';
    if (cg->mech != SG_MECH_CGROUP_V2)
        return strtoull(buf, NULL, 10);
    for (const char *p = buf; (p = strstr(p, "max")); p += 3)
        if ((p == buf || p[-1] == '\n') && p[3] == ' ')
            return strtoull(p + 4, NULL, 10);
    return 0;
}

uint64_t sg_cgroup_peak_kb(const struct sg_cgroup *cg)
{
    return cgroup__counter(cg, cg->mech == SG_MECH_CGROUP_V2 ? "memory.peak" : "memory.max_usage_in_bytes",
                           NULL) / 1024;
}

/* Remove the cgroup(s); the sandbox is dead by now (pid 1 reaped means every task is gone). */
void sg_cgroup_remove(struct sg_cgroup *cg)
{
    char *dirs[2] = {cg->mem_dir, cg->pids_dir};
    for (int i = 0; i < 2; i++) {
        if (!dirs[i][0])
            continue;
        for (int tries = 0; tries < 200; tries++) {
            if (rmdir(dirs[i]) == 0 || errno == ENOENT)
                break;
            if (errno != EBUSY)
                break;
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        dirs[i][0] = '\0';
    }
}
