/*
 * The sandbox policy object: which interpreter, which host files it needs (read-only binds and
 * the symlinks leading to them), and the compiled seccomp allow-list. Built once, immutable,
 * shared by every worker made from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

/* The allow-list compiled at build time (sandbox/seccomp_gen.c), or empty. */
extern const unsigned char sg_sandbox_seccomp_bpf[];
extern const size_t sg_sandbox_seccomp_bpf_len;

/*
 * The compiled allow-list: the program built at build time by seccomp.c itself when there is one
 * (no libseccomp work at start: ~0.35 ms), else built now. Both are the same bytes (unit test).
 */
static sg_status policy__filter(struct sg_sandbox *sb, sg_diag *diag)
{
    size_t n = sg_sandbox_seccomp_bpf_len;
    if (n == 0 || n % sizeof(struct sock_filter) || n / sizeof(struct sock_filter) > BPF_MAXINSNS)
        return sg_seccomp_build(sb, diag);
    sb->bpf = malloc(n);
    if (!sb->bpf)
        return SG_ERR_NOMEM;
    memcpy(sb->bpf, sg_sandbox_seccomp_bpf, n);
    sb->bpf_len = (unsigned short)(n / sizeof(struct sock_filter));
    return SG_OK;
}

/* Refuse early, with the reason, when the kernel lacks what the sandbox cannot do without. */
static sg_status policy__probe(sg_diag *diag)
{
    uint32_t action = SECCOMP_RET_USER_NOTIF;
    if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0) {
        diag->sys_errno = errno;
        snprintf(diag->message, sizeof diag->message,
                 "the kernel does not support seccomp user notification (%s): refusing to run",
                 strerror(errno));
        return SG_ERR_UNSUPPORTED;
    }
    FILE *f = fopen("/proc/sys/user/max_user_namespaces", "re");
    if (f) {
        long n = -1;
        if (fscanf(f, "%ld", &n) == 1 && n == 0) {
            fclose(f);
            snprintf(diag->message, sizeof diag->message,
                     "user namespaces are disabled (user.max_user_namespaces = 0): refusing to run");
            return SG_ERR_UNSUPPORTED;
        }
        fclose(f);
    }
    return SG_OK;
}

/* The standard library directory of `exe` (/usr/bin/python3.11 -> /usr/lib/python3.11). */
static sg_status policy__stdlib_dir(const char *real_exe, char *buf, size_t len)
{
    const char *base = strrchr(real_exe, '/');
    char prefix[SG_SB_PATH_MAX];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(base - real_exe), real_exe);
    char *slash = strrchr(prefix, '/'); /* strip "/bin" */
    if (!slash)
        return SG_ERR_INVALID_ARG;
    *slash = '\0';
    int n = snprintf(buf, len, "%s/lib/%s", prefix, base + 1);
    struct stat st;
    if (n < 0 || (size_t)n >= len || stat(buf, &st) < 0 || !S_ISDIR(st.st_mode))
        return SG_ERR_INVALID_ARG;
    return SG_OK;
}

sg_status sg_sandbox_new(const char *interpreter, sg_sandbox **ret_sandbox, sg_diag *diag)
{
    sg_diag local;
    if (!diag) {
        sg_diag_init(&local);
        diag = &local;
    }
    if (!ret_sandbox)
        return SG_ERR_INVALID_ARG;
    if (!interpreter)
        interpreter = "/usr/bin/python3";
    if (interpreter[0] != '/' || strlen(interpreter) >= SG_SB_PATH_MAX) {
        snprintf(diag->message, sizeof diag->message, "interpreter must be an absolute path: '%s'",
                 interpreter);
        return SG_ERR_INVALID_ARG;
    }
    sg_status st = policy__probe(diag);
    if (st != SG_OK)
        return st;
    struct sg_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb)
        return SG_ERR_NOMEM;
    char real[PATH_MAX], interp[SG_SB_PATH_MAX], libdir[PATH_MAX], stdlib_dir[SG_SB_PATH_MAX];
    if (!realpath(interpreter, real) || access(real, X_OK) < 0) {
        diag->sys_errno = errno;
        snprintf(diag->path, sizeof diag->path, "%s", interpreter);
        snprintf(diag->message, sizeof diag->message, "interpreter '%s' not usable: %s", interpreter,
                 strerror(errno));
        st = SG_ERR_INVALID_ARG;
        goto fail;
    }
    snprintf(sb->interpreter, sizeof sb->interpreter, "%s", interpreter);
    sb->outer_uid = SG_SB_OUTER_ID;
    sb->outer_gid = SG_SB_OUTER_ID;
    if ((st = sg_mounts_plan_path(sb, interpreter, diag)) != SG_OK)
        goto fail;
    /* The ELF loader, and its directory as the library directory (ld.so's default path). */
    if (sg_mounts_elf_interp(real, interp, sizeof interp) == SG_OK) {
        if ((st = sg_mounts_plan_path(sb, interp, diag)) != SG_OK)
            goto fail;
        if (realpath(interp, libdir)) {
            *strrchr(libdir, '/') = '\0';
            if ((st = sg_mounts_plan_path(sb, libdir, diag)) != SG_OK)
                goto fail;
        }
    }
    if (policy__stdlib_dir(real, stdlib_dir, sizeof stdlib_dir) != SG_OK) {
        snprintf(diag->message, sizeof diag->message,
                 "cannot find the standard library of '%.300s' (expected PREFIX/lib/NAME)", real);
        st = SG_ERR_INVALID_ARG;
        goto fail;
    }
    if ((st = sg_mounts_plan_path(sb, stdlib_dir, diag)) != SG_OK)
        goto fail;
    if ((st = policy__filter(sb, diag)) != SG_OK)
        goto fail;
    *ret_sandbox = sb;
    return SG_OK;
fail:
    diag->status = st;
    sg_sandbox_free(sb);
    return st;
}

sg_status sg_sandbox_set_host_ids(sg_sandbox *sb, uint32_t uid, uint32_t gid, sg_diag *diag)
{
    if (!sb)
        return SG_ERR_INVALID_ARG;
    if (uid == 0 || gid == 0 || uid == (uint32_t)-1 || gid == (uint32_t)-1) {
        if (diag)
            snprintf(diag->message, sizeof diag->message,
                     "the sandbox's host uid and gid must be unprivileged ids (not 0, not -1): %u:%u",
                     (unsigned)uid, (unsigned)gid);
        return SG_ERR_INVALID_ARG;
    }
    sb->outer_uid = (uid_t)uid;
    sb->outer_gid = (gid_t)gid;
    return SG_OK;
}

void sg_sandbox_free(sg_sandbox *sb)
{
    if (!sb)
        return;
    free(sb->bpf);
    free(sb);
}
