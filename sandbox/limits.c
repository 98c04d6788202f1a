/*
 * Limits: parsing and defaults (public API), and rlimits (applied by the launcher before exec),
 * with what rlimit mode carves out of the memory limit. Cgroups are in cgroup.c.
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
