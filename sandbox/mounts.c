/*
 * Mounts: plan (in the parent) which host files the interpreter needs, then (in pid 1 of the
 * sandbox) build a fresh root from them:
 *   tmpfs root (read-only once built)
 *     read-only, nosuid, nodev binds of: the interpreter, its ELF loader, the loader's library
 *       directory, the interpreter's standard library; the host's symlinks on the way recreated
 *     /dev/{null,zero,urandom}  binds of the host device nodes
 *     /tmp                      private tmpfs, size-capped, nosuid nodev noexec
 *     /proc                     proc of the new pid namespace
 *   pivot_root into it and detach the old root, so no host path is reachable any more.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

#define MOUNTS_ROOT "/tmp" /* staging point of the new root, in our private mount namespace */

/* ---- parent side: planning (may allocate) ----------------------------------------------- */

static bool mounts__has_link(const struct sg_sandbox *sb, const char *path)
{
    for (size_t i = 0; i < sb->nlinks; i++)
        if (!strcmp(sb->links[i].path, path))
            return true;
    return false;
}

static bool mounts__covered(const struct sg_sandbox *sb, const char *path)
{
    for (size_t i = 0; i < sb->nbinds; i++) {
        size_t n = strlen(sb->binds[i].path);
        if (!strncmp(sb->binds[i].path, path, n) && (path[n] == '\0' || path[n] == '/'))
            return true;
    }
    return false;
}

/* Lexically clean an absolute path ("//", ".", ".."): the part before the link was physical. */
static int mounts__normalize(const char *in, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = in; *p;) {
        while (*p == '/')
            p++;
        const char *e = strchrnul(p, '/');
        size_t n = (size_t)(e - p);
        if (n == 0 || (n == 1 && p[0] == '.')) {
            /* skip */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            out[o] = '\0';
        } else {
            if (o + 1 + n + 1 > len)
                return -1;
            out[o++] = '/';
            memcpy(out + o, p, n);
            o += n;
            out[o] = '\0';
        }
        p = e;
    }
    if (o == 0) {
        if (len < 2)
            return -1;
        out[0] = '/';
        out[1] = '\0';
    }
    return 0;
}

/*
 * Make `path` reachable in the new root exactly as on the host: every symlink met on the way is
 * recreated (e.g. /lib64 -> usr/lib64), and the final file or directory is bind-mounted.
 */
sg_status sg_mounts_plan_path(struct sg_sandbox *sb, const char *path, sg_diag *diag)
{
    char cur[SG_SB_PATH_MAX];
    if (path[0] != '/' || strlen(path) >= sizeof cur) {
        snprintf(diag->message, sizeof diag->message, "bad sandbox path '%s'", path);
        return SG_ERR_INVALID_ARG;
    }
    snprintf(cur, sizeof cur, "%s", path);
    for (int hops = 0; hops < 16; hops++) {
        /* Find the first prefix of cur that is a symlink on the host. */
        char prefix[SG_SB_PATH_MAX];
        size_t len = strlen(cur);
        bool relinked = false;
        for (size_t i = 1; i <= len; i++) {
            if (cur[i] != '/' && cur[i] != '\0')
                continue;
            memcpy(prefix, cur, i);
            prefix[i] = '\0';
            struct stat st;
            if (lstat(prefix, &st) < 0) {
                diag->sys_errno = errno;
                snprintf(diag->path, sizeof diag->path, "%s", prefix);
                snprintf(diag->message, sizeof diag->message, "interpreter file '%.300s' missing: %s",
                         prefix, strerror(errno));
                return SG_ERR_INVALID_ARG;
            }
            if (!S_ISLNK(st.st_mode))
                continue;
            char target[SG_SB_PATH_MAX];
            ssize_t n = readlink(prefix, target, sizeof target - 1);
            if (n <= 0)
                return SG_ERR_SANDBOX;
            target[n] = '\0';
            if (!mounts__has_link(sb, prefix) && !mounts__covered(sb, prefix)) {
                if (sb->nlinks == SG_SB_MAX_BINDS)
                    return SG_ERR_SANDBOX;
                snprintf(sb->links[sb->nlinks].path, SG_SB_PATH_MAX, "%s", prefix);
                snprintf(sb->links[sb->nlinks].target, SG_SB_PATH_MAX, "%s", target);
                sb->nlinks++;
            }
            /* Continue with the resolved path: target (relative to the link's dir) + rest. */
            char next[SG_SB_PATH_MAX * 2];
            const char *rest = cur + i;
            if (target[0] == '/') {
                snprintf(next, sizeof next, "%s%s", target, rest);
            } else {
                char dir[SG_SB_PATH_MAX];
                snprintf(dir, sizeof dir, "%s", prefix);
                char *slash = strrchr(dir, '/');
                if (slash == dir)
                    dir[1] = '\0';
                else
                    *slash = '\0';
                snprintf(next, sizeof next, "%s/%s%s", strcmp(dir, "/") ? dir : "", target, rest);
            }
            if (mounts__normalize(next, cur, sizeof cur) < 0)
                return SG_ERR_SANDBOX;
            relinked = true;
            break;
        }
        if (relinked)
            continue;
        if (mounts__covered(sb, cur))
            return SG_OK;
        if (sb->nbinds == SG_SB_MAX_BINDS)
            return SG_ERR_SANDBOX;
        struct stat st;
        if (stat(cur, &st) < 0)
            return SG_ERR_SANDBOX;
        if (S_ISDIR(st.st_mode)) { /* a directory bind replaces binds of files inside it */
            size_t keep = 0, n = strlen(cur);
            for (size_t i = 0; i < sb->nbinds; i++)
                if (strncmp(sb->binds[i].path, cur, n) || sb->binds[i].path[n] != '/')
                    sb->binds[keep++] = sb->binds[i];
            sb->nbinds = keep;
        }
        snprintf(sb->binds[sb->nbinds].path, SG_SB_PATH_MAX, "%s", cur);
        sb->binds[sb->nbinds].is_dir = S_ISDIR(st.st_mode);
        sb->nbinds++;
        return SG_OK;
    }
    snprintf(diag->message, sizeof diag->message, "too many symlinks resolving '%s'", path);
    return SG_ERR_SANDBOX;
}

/* The ELF program interpreter (PT_INTERP) of `exe`, e.g. /lib64/ld-linux-x86-64.so.2. */
sg_status sg_mounts_elf_interp(const char *exe, char *buf, size_t len)
{
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return SG_ERR_IO;
    sg_status rc = SG_ERR_SANDBOX;
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64)
        goto out_close;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) != (ssize_t)sizeof ph)
            goto out_close;
        if (ph.p_type != PT_INTERP)
            continue;
        if (ph.p_filesz == 0 || ph.p_filesz >= len)
            goto out_close;
        if (pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
            goto out_close;
        buf[ph.p_filesz - 1] = '\0';
        rc = SG_OK;
        break;
    }
out_close:
    close(fd);
    return rc;
}

/* ---- child side: building the root (pid 1, no allocation) -------------------------------- */

static int mounts__mkdir_p(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int r = mkdir(path, 0755);
        *p = '/';
        if (r < 0 && errno != EEXIST)
            return -1;
    }
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int mounts__touch(char *path)
{
    char *slash = strrchr(path, '/');
    *slash = '\0';
    int r = mounts__mkdir_p(path);
    *slash = '/';
    if (r < 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Read-only bind of host `src` at `dst`, keeping the flags the kernel locked on the source. */
static int mounts__bind_ro(const char *src, const char *dst)
{
    if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
        return -1;
    unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV;
    struct statvfs sv;
    if (statvfs(src, &sv) == 0) {
        if (sv.f_flag & ST_NOEXEC)
            flags |= MS_NOEXEC;
        if (sv.f_flag & ST_NOATIME)
            flags |= MS_NOATIME;
        if (sv.f_flag & ST_NODIRATIME)
            flags |= MS_NODIRATIME;
        if (sv.f_flag & ST_RELATIME)
            flags |= MS_RELATIME;
    }
    return mount(NULL, dst, NULL, flags, NULL);
}

static int mounts__join(char *buf, size_t len, const char *a, const char *b)
{
    int n = snprintf(buf, len, "%s%s", a, b);
    if (n < 0 || (size_t)n >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/*
 * /proc of the new pid namespace, showing only what Python needs: the process directories
 * (`subset=pid`, Linux >= 5.8). On an older kernel, container runtimes' recipe instead: the
 * host-wide writable parts read-only, the root-only and host-wide files masked by /dev/null, the
 * directories of host hardware by an empty read-only tmpfs.
 */
static int mounts__proc(const struct sg_child_plan *plan, char *path, const char **ret_what)
{
    const unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (!plan->proc_no_subset && mount("proc", path, "proc", flags, "subset=pid") == 0)
        return 0;
    if (!plan->proc_no_subset && errno != EINVAL)
        return -1;
    *ret_what = "mount proc";
    if (mount("proc", path, "proc", flags, NULL) < 0)
        return -1;
    static const char *const read_only[] = {"/sys", "/sysrq-trigger", "/irq", "/bus", "/fs"};
    static const char *const masked_files[] = {
        "/kcore", "/keys", "/key-users", "/kpagecount", "/kpageflags", "/kpagecgroup",
        "/slabinfo", "/vmallocinfo", "/timer_list", "/sched_debug", "/latency_stats",
        "/kallsyms", "/config.gz", "/pagetypeinfo", "/zoneinfo", "/buddyinfo", "/iomem",
        "/ioports", "/sysvipc/shm", "/mtrr", "/modules", "/lockdep", "/lock_stat"};
    static const char *const masked_dirs[] = {"/acpi", "/scsi", "/driver", "/dynamic_debug",
                                              "/tty", "/pressure"};
    char sub[SG_SB_PATH_MAX + 48];
    struct stat st;
    for (size_t i = 0; i < sizeof read_only / sizeof read_only[0]; i++) {
        *ret_what = "read-only /proc part";
        if (mounts__join(sub, sizeof sub, path, read_only[i]) < 0)
            return -1;
        if (lstat(sub, &st) < 0)
            continue; /* not in this kernel */
        if (mount(sub, sub, NULL, MS_BIND | MS_REC, NULL) < 0 ||
            mount(NULL, sub, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | flags, NULL) < 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof masked_files / sizeof masked_files[0]; i++) {
        *ret_what = "mask /proc file";
        if (mounts__join(sub, sizeof sub, path, masked_files[i]) < 0)
            return -1;
        if (lstat(sub, &st) < 0)
            continue;
        if (mount("/dev/null", sub, NULL, MS_BIND, NULL) < 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof masked_dirs / sizeof masked_dirs[0]; i++) {
        *ret_what = "mask /proc directory";
        if (mounts__join(sub, sizeof sub, path, masked_dirs[i]) < 0)
            return -1;
        if (lstat(sub, &st) < 0 || !S_ISDIR(st.st_mode))
            continue;
        if (mount("sg-empty", sub, "tmpfs", MS_RDONLY | flags, "size=4k,nr_inodes=1,mode=0555") < 0)
            return -1;
    }
    return 0;
}

#define MOUNTS_STEP(what_, expr)                                                                   \
    do {                                                                                           \
        *ret_what = (what_);                                                                       \
        if ((expr) < 0)                                                                            \
            return -1;                                                                             \
    } while (0)

/*
 * pid 1, between worker calls: a fresh empty /tmp for the next call. The old tmpfs is detached
 * (freed once the last process using it is gone); nothing a call wrote is seen by the next.
 */
int sg_mounts_reset_tmp(const struct sg_child_plan *plan)
{
    if (umount2("/tmp", MNT_DETACH) < 0)
        return -1;
    return mount("sg-tmp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, plan->tmp_opts);
}

/*
 * Build the new root and pivot into it. On failure returns -1 with errno set and `*ret_what`
 * naming the step. Runs in pid 1 after the uid maps are written (tmpfs needs a mapped uid).
 */
int sg_mounts_setup(const struct sg_child_plan *plan, enum sg_stage *ret_stage, const char **ret_what)
{
    const struct sg_sandbox *sb = plan->sb;
    char path[SG_SB_PATH_MAX + 16];
    *ret_stage = SG_STAGE_MOUNTS;

    MOUNTS_STEP("make / private", mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
    MOUNTS_STEP("tmpfs root", mount("sg-root", MOUNTS_ROOT, "tmpfs", MS_NOSUID | MS_NODEV,
                                    "size=1m,nr_inodes=512,mode=0755"));
    for (size_t i = 0; i < sb->nlinks; i++) {
        MOUNTS_STEP("symlink path", mounts__join(path, sizeof path, MOUNTS_ROOT, sb->links[i].path));
        char *slash = strrchr(path, '/');
        *slash = '\0';
        MOUNTS_STEP("mkdir for symlink", mounts__mkdir_p(path));
        *slash = '/';
        MOUNTS_STEP("symlink", symlink(sb->links[i].target, path));
    }
    for (size_t i = 0; i < sb->nbinds; i++) {
        MOUNTS_STEP("bind path", mounts__join(path, sizeof path, MOUNTS_ROOT, sb->binds[i].path));
        MOUNTS_STEP("bind target", sb->binds[i].is_dir ? mounts__mkdir_p(path) : mounts__touch(path));
        MOUNTS_STEP("read-only bind", mounts__bind_ro(sb->binds[i].path, path));
    }
    static const char *const devs[] = {"/dev/null", "/dev/zero", "/dev/urandom"};
    for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) {
        MOUNTS_STEP("dev path", mounts__join(path, sizeof path, MOUNTS_ROOT, devs[i]));
        MOUNTS_STEP("dev node", mounts__touch(path));
        MOUNTS_STEP("bind dev node", mount(devs[i], path, NULL, MS_BIND, NULL));
    }
    MOUNTS_STEP("tmp dir", mounts__join(path, sizeof path, MOUNTS_ROOT, "/tmp"));
    MOUNTS_STEP("tmp dir", mounts__mkdir_p(path));
    MOUNTS_STEP("tmpfs /tmp", mount("sg-tmp", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                                    plan->tmp_opts));
    MOUNTS_STEP("proc dir", mounts__join(path, sizeof path, MOUNTS_ROOT, "/proc"));
    MOUNTS_STEP("proc dir", mounts__mkdir_p(path));
    MOUNTS_STEP("mount proc", mounts__proc(plan, path, ret_what));

    MOUNTS_STEP("chdir new root", chdir(MOUNTS_ROOT));
    MOUNTS_STEP("pivot_root", (int)syscall(SYS_pivot_root, ".", "."));
    MOUNTS_STEP("detach old root", umount2(".", MNT_DETACH));
    MOUNTS_STEP("chdir /", chdir("/"));
    MOUNTS_STEP("read-only root",
                mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL));
    return 0;
}
