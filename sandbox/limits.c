/*
 * Limits: parsing and defaults (public API), rlimits (applied by the launcher before exec) and
 * cgroups (set up by the supervisor): cgroup v2 if it has the memory controller, else v1 (hybrid
 * hosts like Debian 12 with systemd's legacy layout), else RLIMIT_AS. The mechanism that was in
 * force is reported in every outcome.
 */
#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h> /* isfinite only: no libm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "sandbox/sandbox.h"

#define LIMITS_MIB (1024ULL * 1024ULL)

void sg_sandbox_limits_init(sg_sandbox_limits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->cpu_ms = 5000;
    limits->wall_ms = 10000;
    limits->memory_bytes = 256 * LIMITS_MIB;
    limits->max_tasks = 64;
    limits->file_size_bytes = 16 * LIMITS_MIB;
    limits->open_files = 64;
    limits->tmp_bytes = 16 * LIMITS_MIB;
    limits->stdout_bytes = 1 * LIMITS_MIB;
    limits->stderr_bytes = 1 * LIMITS_MIB;
    limits->prefer_rlimit_memory = false;
}

/* Round a non-negative, range-checked double up (no libm needed). */
static uint64_t limits__ceil(double v)
{
    uint64_t r = (uint64_t)v;
    return (double)r < v ? r + 1 : r;
}

/* "1.5", "2s", "250ms", "1m" -> milliseconds. Plain numbers are seconds. */
int sg_limits_parse_duration_ms(const char *s, uint64_t *ret_ms)
{
    if (!s || !isdigit((unsigned char)s[0]))
        return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return -1;
    double scale = 1000.0;
    if (!strcmp(end, "ms"))
        scale = 1.0;
    else if (!strcmp(end, "s") || !*end)
        scale = 1000.0;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        scale = 60000.0;
    else
        return -1;
    double ms = v * scale;
    if (ms > 86400000.0)
        return -1;
    *ret_ms = limits__ceil(ms);
    return 0;
}

/* "256", "256M", "1G", "64K", "100B", "1.5G" -> bytes; a plain number is `default_unit` bytes. */
int sg_limits_parse_size(const char *s, uint64_t default_unit, uint64_t *ret_bytes)
{
    if (!s || !isdigit((unsigned char)s[0]))
        return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return -1;
    double unit;
    if (!*end)
        unit = (double)default_unit;
    else if (!strcasecmp(end, "b"))
        unit = 1;
    else if (!strcasecmp(end, "k") || !strcasecmp(end, "kb") || !strcasecmp(end, "kib"))
        unit = 1024.0;
    else if (!strcasecmp(end, "m") || !strcasecmp(end, "mb") || !strcasecmp(end, "mib"))
        unit = 1024.0 * 1024.0;
    else if (!strcasecmp(end, "g") || !strcasecmp(end, "gb") || !strcasecmp(end, "gib"))
        unit = 1024.0 * 1024.0 * 1024.0;
    else
        return -1;
    double bytes = v * unit;
    if (bytes > 1099511627776.0 * 64) /* 64 TiB */
        return -1;
    *ret_bytes = limits__ceil(bytes);
    return 0;
}

static sg_status limits__bad(sg_diag *diag, const char *name, const char *value, const char *why)
{
    if (diag) {
        diag->status = SG_ERR_INVALID_ARG;
        snprintf(diag->message, sizeof diag->message, "bad value '%s' for limit '%s': %s", value,
                 name, why);
    }
    return SG_ERR_INVALID_ARG;
}

sg_status sg_sandbox_limits_set(sg_sandbox_limits *limits, const char *name, const char *value,
                                sg_diag *diag)
{
    if (!limits || !name || !value)
        return SG_ERR_INVALID_ARG;
    uint64_t v = 0;
    if (!strcmp(name, "cpu") || !strcmp(name, "wall") || !strcmp(name, "timeout")) {
        if (sg_limits_parse_duration_ms(value, &v) < 0)
            return limits__bad(diag, name, value, "expected a duration such as 2, 1.5s or 250ms");
        if (v == 0)
            return limits__bad(diag, name, value, "must be above zero");
        if (name[0] != 'w')
            limits->cpu_ms = v;
        if (name[0] != 'c')
            limits->wall_ms = v;
        return SG_OK;
    }
    static const struct {
        const char *name;
        size_t offset;
        uint64_t min;
    } sizes[] = {
        {"memory", offsetof(sg_sandbox_limits, memory_bytes), 16 * LIMITS_MIB},
        {"fsize", offsetof(sg_sandbox_limits, file_size_bytes), 1},
        {"tmp", offsetof(sg_sandbox_limits, tmp_bytes), 64 * 1024},
        {"stdout", offsetof(sg_sandbox_limits, stdout_bytes), 1},
        {"stderr", offsetof(sg_sandbox_limits, stderr_bytes), 1},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (strcmp(name, sizes[i].name))
            continue;
        if (sg_limits_parse_size(value, LIMITS_MIB, &v) < 0)
            return limits__bad(diag, name, value, "expected a size such as 256, 64K, 256M or 1G");
        if (v < sizes[i].min)
            return limits__bad(diag, name, value, "too small");
        memcpy((char *)limits + sizes[i].offset, &v, sizeof v);
        return SG_OK;
    }
    if (!strcmp(name, "tasks") || !strcmp(name, "nofile")) {
        char *end = NULL;
        errno = 0;
        if (!isdigit((unsigned char)value[0]))
            return limits__bad(diag, name, value, "expected a count");
        unsigned long long n = strtoull(value, &end, 10);
        if (errno || *end || n > 1000000)
            return limits__bad(diag, name, value, "expected a count up to 1000000");
        if (name[0] == 't') {
            if (n < 2)
                return limits__bad(diag, name, value, "at least 2 (the interpreter and a call)");
            limits->max_tasks = n;
        } else {
            if (n < 16)
                return limits__bad(diag, name, value, "at least 16 (the runner needs a few)");
            limits->open_files = n;
        }
        return SG_OK;
    }
    if (diag) {
        diag->status = SG_ERR_INVALID_ARG;
        snprintf(diag->message, sizeof diag->message, "unknown limit '%s'", name);
    }
    return SG_ERR_INVALID_ARG;
}

const char *sg_limit_mechanism_name(sg_limit_mechanism mech)
{
    switch (mech) {
    case SG_MECH_NONE: return "none";
    case SG_MECH_RLIMIT: return "rlimit";
    case SG_MECH_CGROUP_V1: return "cgroup_v1";
    case SG_MECH_CGROUP_V2: return "cgroup_v2";
    }
    return "none";
}

/*
 * Under rlimits only (no memory cgroup), /tmp (tmpfs) and pipe buffers are kernel memory that
 * RLIMIT_AS does not count. They are bounded apart and taken out of the address-space budget:
 * /tmp is at most a quarter of the memory limit, pipes hold at most 64 KiB each (F_SETPIPE_SZ is
 * forbidden) and there are at most open_files / 2 of them.
 */
uint64_t sg_limits_rlimit_tmp_bytes(const sg_sandbox_limits *l)
{
    return l->tmp_bytes < l->memory_bytes / 4 ? l->tmp_bytes : l->memory_bytes / 4;
}

uint64_t sg_limits_pipe_bytes(const sg_sandbox_limits *l)
{
    return (l->open_files / 2 + 1) * 65536u;
}

uint64_t sg_limits_rlimit_as_bytes(const sg_sandbox_limits *l)
{
    uint64_t other = sg_limits_rlimit_tmp_bytes(l) + sg_limits_pipe_bytes(l);
    uint64_t floor = 8u << 20;
    return l->memory_bytes > other + floor ? l->memory_bytes - other : floor;
}

/* ---- rlimits (launcher, before exec; no allocation) ------------------------------------- */

static int limits__set(int resource, uint64_t soft, uint64_t hard)
{
    struct rlimit rl = {.rlim_cur = (rlim_t)soft, .rlim_max = (rlim_t)hard};
    return setrlimit(resource, &rl);
}

/* Every rlimit of the run. RLIMIT_CPU is soft+1 hard so a CPU timeout shows up as SIGXCPU. */
int sg_limits_apply_rlimits(const struct sg_child_plan *plan)
{
    const sg_sandbox_limits *l = plan->limits;
    uint64_t cpu_s = (l->cpu_ms + 999) / 1000;
    if (plan->cpu_rlimit && limits__set(RLIMIT_CPU, cpu_s, cpu_s + 1) < 0)
        return -1;
    if (limits__set(RLIMIT_CORE, 0, 0) < 0 ||
        limits__set(RLIMIT_FSIZE, l->file_size_bytes, l->file_size_bytes) < 0 ||
        limits__set(RLIMIT_NOFILE, l->open_files, l->open_files) < 0 ||
        limits__set(RLIMIT_MEMLOCK, 0, 0) < 0 || limits__set(RLIMIT_MSGQUEUE, 0, 0) < 0)
        return -1;
    /* Counted per user in this (fresh) user namespace: bounds processes and threads. */
    if (limits__set(RLIMIT_NPROC, l->max_tasks, l->max_tasks) < 0)
        return -1;
    uint64_t as = sg_limits_rlimit_as_bytes(l);
    if (plan->use_rlimit_as && limits__set(RLIMIT_AS, as, as) < 0)
        return -1;
    return 0;
}

/* ---- cgroups (supervisor side) ------------------------------------------------------------ */

static int limits__write(const char *dir, const char *file, const char *text)
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

static int limits__read(const char *dir, const char *file, char *buf, size_t len)
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
static int limits__own_cgroup(const char *controller, char *buf, size_t len)
{
    char data[4096];
    if (limits__read("/proc/self", "cgroup", data, sizeof data) < 0)
        return -1;
    for (char *line = strtok(data, "\n"); line; line = strtok(NULL, "\n")) {
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

static bool limits__has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n])))
            return true;
    return false;
}

static bool limits__is_fs(const char *path, long magic)
{
    struct statfs sf;
    return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/*
 * A supervisor killed outright (SIGKILL, a crash) leaves its cgroup directories behind. Once per
 * process and parent directory, remove the `snipgate-<pid>-<n>` ones whose pid is dead (rmdir
 * refuses a cgroup that still has tasks, so a live sandbox is never touched).
 */
static void limits__remove_stale(const char *parent)
{
    static char done[4][SG_SB_PATH_MAX];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    size_t slot = 0;
    for (; slot < 4 && done[slot][0]; slot++)
        if (!strcmp(done[slot], parent))
            break;
    bool seen = slot < 4 && done[slot][0];
    if (!seen && slot < 4)
        snprintf(done[slot], sizeof done[slot], "%s", parent);
    pthread_mutex_unlock(&lock);
    if (seen)
        return;
    DIR *d = opendir(parent);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        int pid = 0;
        unsigned n = 0;
        char path[SG_SB_PATH_MAX + 300];
        if (sscanf(e->d_name, "snipgate-%d-%u", &pid, &n) != 2 || pid <= 0 || pid == getpid())
            continue;
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
        (void)rmdir(path);
    }
    closedir(d);
}

static int limits__mkdir_child(const char *parent, const char *tag, char *out, size_t len)
{
    limits__remove_stale(parent);
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
static bool limits__try_v2(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg)
{
    const char *base = NULL;
    if (limits__is_fs("/sys/fs/cgroup", CGROUP2_SUPER_MAGIC))
        base = "/sys/fs/cgroup";
    else if (limits__is_fs("/sys/fs/cgroup/unified", CGROUP2_SUPER_MAGIC))
        base = "/sys/fs/cgroup/unified";
    if (!base)
        return false;
    char own[SG_SB_PATH_MAX / 2], dir[SG_SB_PATH_MAX], ctrl[512];
    if (limits__own_cgroup("", own, sizeof own) < 0)
        return false;
    snprintf(dir, sizeof dir, "%s%s", base, own);
    if (limits__read(dir, "cgroup.subtree_control", ctrl, sizeof ctrl) < 0)
        return false;
    if (!limits__has_word(ctrl, "memory")) {
        (void)limits__write(dir, "cgroup.subtree_control", "+memory");
        (void)limits__write(dir, "cgroup.subtree_control", "+pids");
        if (limits__read(dir, "cgroup.subtree_control", ctrl, sizeof ctrl) < 0 ||
            !limits__has_word(ctrl, "memory"))
            return false;
    }
    if (limits__mkdir_child(dir, tag, cg->mem_dir, sizeof cg->mem_dir) < 0)
        return false;
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, limits->memory_bytes);
    if (limits__write(cg->mem_dir, "memory.max", num) < 0) {
        rmdir(cg->mem_dir);
        cg->mem_dir[0] = '\0';
        return false;
    }
    (void)limits__write(cg->mem_dir, "memory.swap.max", "0");
    cg->mech = SG_MECH_CGROUP_V2;
    snprintf(num, sizeof num, "%" PRIu64, limits->max_tasks);
    if (limits__has_word(ctrl, "pids") && limits__write(cg->mem_dir, "pids.max", num) == 0)
        cg->tasks_mech = SG_MECH_CGROUP_V2;
    return true;
}

/* Try cgroup v1: separate memory and pids hierarchies under /sys/fs/cgroup/<controller>. */
static bool limits__try_v1(const sg_sandbox_limits *limits, const char *tag, struct sg_cgroup *cg)
{
    char own[SG_SB_PATH_MAX / 2], dir[SG_SB_PATH_MAX], num[32];
    if (!limits__is_fs("/sys/fs/cgroup/memory", CGROUP_SUPER_MAGIC) ||
        limits__own_cgroup("memory", own, sizeof own) < 0)
        return false;
    snprintf(dir, sizeof dir, "/sys/fs/cgroup/memory%s", own);
    if (limits__mkdir_child(dir, tag, cg->mem_dir, sizeof cg->mem_dir) < 0)
        return false;
    snprintf(num, sizeof num, "%" PRIu64, limits->memory_bytes);
    if (limits__write(cg->mem_dir, "memory.limit_in_bytes", num) < 0) {
        rmdir(cg->mem_dir);
        cg->mem_dir[0] = '\0';
        return false;
    }
    (void)limits__write(cg->mem_dir, "memory.memsw.limit_in_bytes", num);
    cg->mech = SG_MECH_CGROUP_V1;
    if (limits__is_fs("/sys/fs/cgroup/pids", CGROUP_SUPER_MAGIC) &&
        limits__own_cgroup("pids", own, sizeof own) == 0) {
        snprintf(dir, sizeof dir, "/sys/fs/cgroup/pids%s", own);
        if (limits__mkdir_child(dir, tag, cg->pids_dir, sizeof cg->pids_dir) == 0) {
            snprintf(num, sizeof num, "%" PRIu64, limits->max_tasks);
            if (limits__write(cg->pids_dir, "pids.max", num) == 0) {
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
    if (!limits__try_v2(limits, tag, cg))
        (void)limits__try_v1(limits, tag, cg);
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

/* Trusted fact: the number of OOM kills the kernel counted in the sandbox's memory cgroup. */
uint64_t sg_cgroup_oom_kills(const struct sg_cgroup *cg)
{
    char buf[1024];
    if (!cg->mem_dir[0])
        return 0;
    const char *file = cg->mech == SG_MECH_CGROUP_V2 ? "memory.events" : "memory.oom_control";
    if (limits__read(cg->mem_dir, file, buf, sizeof buf) < 0)
        return 0;
    const char *p = strstr(buf, "oom_kill ");
    return p ? strtoull(p + 9, NULL, 10) : 0;
}

/* Trusted fact: how often the memory cgroup refused to grow past its limit (v1 failcnt, v2 the
 * "max" event). An allocation refused there is the memory limit at work. */
uint64_t sg_cgroup_limit_hits(const struct sg_cgroup *cg)
{
    char buf[1024];
    if (!cg->mem_dir[0])
        return 0;
    if (cg->mech == SG_MECH_CGROUP_V2) {
        if (limits__read(cg->mem_dir, "memory.events", buf, sizeof buf) < 0)
            return 0;
        const char *p = strstr(buf, "\nmax ");
        return p ? strtoull(p + 5, NULL, 10) : (!strncmp(buf, "max ", 4) ? strtoull(buf + 4, NULL, 10) : 0);
    }
    if (limits__read(cg->mem_dir, "memory.failcnt", buf, sizeof buf) < 0)
        return 0;
    return strtoull(buf, NULL, 10);
}

uint64_t sg_cgroup_peak_kb(const struct sg_cgroup *cg)
{
    char buf[64];
    if (!cg->mem_dir[0])
        return 0;
    const char *file = cg->mech == SG_MECH_CGROUP_V2 ? "memory.peak" : "memory.max_usage_in_bytes";
    if (limits__read(cg->mem_dir, file, buf, sizeof buf) < 0)
        return 0;
    return strtoull(buf, NULL, 10) / 1024;
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
