/* Unit tests of the sandbox: limit parsing, outcome classification, frames, the seccomp policy
 * (evaluated on the compiled BPF), JSON field names, and the persistent worker end to end. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <termios.h>

#include <cmocka.h>
#include <jansson.h>

#include "snipgate/snipgate.h"
#include "sandbox/sandbox.h"

/* ---- limit parsing ------------------------------------------------------------------------ */

static void test_limits_parse(void **state)
{
    (void)state;
    static const struct {
        const char *name, *value;
        sg_status want;
        size_t field;
        uint64_t expect;
    } cases[] = {
        {"cpu", "2", SG_OK, offsetof(sg_sandbox_limits, cpu_ms), 2000},
        {"cpu", "1.5s", SG_OK, offsetof(sg_sandbox_limits, cpu_ms), 1500},
        {"wall", "250ms", SG_OK, offsetof(sg_sandbox_limits, wall_ms), 250},
        {"wall", "1m", SG_OK, offsetof(sg_sandbox_limits, wall_ms), 60000},
        {"memory", "64", SG_OK, offsetof(sg_sandbox_limits, memory_bytes), 64ull << 20},
        {"memory", "1G", SG_OK, offsetof(sg_sandbox_limits, memory_bytes), 1ull << 30},
        {"memory", "65536K", SG_OK, offsetof(sg_sandbox_limits, memory_bytes), 64ull << 20},
        {"fsize", "100B", SG_OK, offsetof(sg_sandbox_limits, file_size_bytes), 100},
        {"stdout", "2", SG_OK, offsetof(sg_sandbox_limits, stdout_bytes), 2ull << 20},
        {"tasks", "10", SG_OK, offsetof(sg_sandbox_limits, max_tasks), 10},
        {"nofile", "32", SG_OK, offsetof(sg_sandbox_limits, open_files), 32},
        {"cpu", "0", SG_ERR_INVALID_ARG, 0, 0},
        {"cpu", "-1", SG_ERR_INVALID_ARG, 0, 0},
        {"cpu", "abc", SG_ERR_INVALID_ARG, 0, 0},
        {"cpu", "1x", SG_ERR_INVALID_ARG, 0, 0},
        {"cpu", "", SG_ERR_INVALID_ARG, 0, 0},
        {"wall", "nan", SG_ERR_INVALID_ARG, 0, 0},
        {"wall", "1e30", SG_ERR_INVALID_ARG, 0, 0},
        {"memory", "1", SG_ERR_INVALID_ARG, 0, 0},   /* below 16 MiB */
        {"memory", "12Q", SG_ERR_INVALID_ARG, 0, 0},
        {"memory", "999999999G", SG_ERR_INVALID_ARG, 0, 0},
        {"tasks", "1", SG_ERR_INVALID_ARG, 0, 0},
        {"tasks", "5x", SG_ERR_INVALID_ARG, 0, 0},
        {"nofile", "3", SG_ERR_INVALID_ARG, 0, 0},
        {"bogus", "1", SG_ERR_INVALID_ARG, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sg_sandbox_limits l, before;
        sg_sandbox_limits_init(&l);
        before = l;
        sg_diag d;
        sg_diag_init(&d);
        sg_status st = sg_sandbox_limits_set(&l, cases[i].name, cases[i].value, &d);
        if (st != cases[i].want)
            fail_msg("case %zu (%s=%s): status %d", i, cases[i].name, cases[i].value, st);
        if (st == SG_OK) {
            uint64_t got;
            memcpy(&got, (char *)&l + cases[i].field, sizeof got);
            if (got != cases[i].expect)
                fail_msg("case %zu: got %llu", i, (unsigned long long)got);
        } else {
            assert_memory_equal(&l, &before, sizeof l); /* unchanged on failure */
            assert_true(d.message[0] != '\0');
        }
    }
    sg_sandbox_limits l;
    sg_sandbox_limits_init(&l);
    assert_int_equal(sg_sandbox_limits_set(&l, "timeout", "3", NULL), SG_OK);
    assert_int_equal(l.cpu_ms, 3000);
    assert_int_equal(l.wall_ms, 3000);
}

/* ---- outcome classification -------------------------------------------------------------- */

static void frame_of(struct sg_frame *f, const char *kind, const char *type)
{
    memset(f, 0, sizeof *f);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    f->fields['k'] = strdup(kind);
    f->lens['k'] = strlen(kind);
    if (type) {
        f->fields['t'] = strdup(type);
        f->lens['t'] = strlen(type);
    }
}

static void test_classify(void **state)
{
    (void)state;
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    struct sg_frame ready, ok, exc, memerr, exit0, exit3;
    frame_of(&ready, "ready", NULL);
    frame_of(&ok, "ok", NULL);
    frame_of(&exc, "exception", "ValueError");
    frame_of(&memerr, "exception", "MemoryError");
    frame_of(&exit0, "exit", NULL);
    exit0.fields[SG_TAG_EXIT_CODE] = strdup("0");
    frame_of(&exit3, "exit", NULL);
    exit3.fields[SG_TAG_EXIT_CODE] = strdup("3");
    const int exited0 = 0, exited1 = 1 << 8;
    static const char *const none = NULL;
    struct {
        struct sg_facts f;
        sg_outcome_kind want;
        const char *tkind;
    } cases[] = {
        {{.result = &ready, .have_status = true, .wstatus = exited0}, SG_OUTCOME_OK, none},
        {{.result = &ready}, SG_OUTCOME_OK, none}, /* worker import, still alive */
        {{.result = &ready, .have_status = true, .wstatus = exited1}, SG_OUTCOME_EXCEPTION, none},
        {{.result = NULL, .have_status = true, .wstatus = exited0}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &ok, .is_call = true, .have_status = true}, SG_OUTCOME_OK, none},
        {{.result = &ready, .is_call = true, .have_status = true}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &exc, .have_status = true}, SG_OUTCOME_EXCEPTION, none},
        /* MemoryError is the memory limit only with the cgroup's own evidence */
        {{.result = &memerr, .have_status = true, .wstatus = exited1}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &memerr, .have_status = true, .mem_limit_hit = true}, SG_OUTCOME_MEMORY_LIMIT, none},
        {{.result = &exit0, .have_status = true}, SG_OUTCOME_OK, none},
        {{.result = &exit0}, SG_OUTCOME_EXCEPTION, none}, /* no observed exit: not ok */
        {{.result = &exit0, .is_call = true, .have_status = true}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &exit3, .have_status = true, .wstatus = 3 << 8}, SG_OUTCOME_EXCEPTION, none},
        /* an "exit 0" frame never beats the real status */
        {{.result = &exit0, .have_status = true, .wstatus = 3 << 8}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &ok, .is_call = true}, SG_OUTCOME_EXCEPTION, none}, /* call exit not observed */
        /* CPU the supervisor measured over the limit, however the process ended */
        {{.result = &exit0, .have_status = true, .cpu_ms = 5001}, SG_OUTCOME_TIMEOUT, "cpu"},
        {{.result = &ok, .is_call = true, .have_status = true, .cpu_timeout = true}, SG_OUTCOME_TIMEOUT, "cpu"},
        /* trusted facts win over whatever the frames say */
        {{.result = &ready, .forbidden = true, .syscall = "ptrace"}, SG_OUTCOME_FORBIDDEN_SYSCALL, none},
        {{.result = &ok, .is_call = true, .output_limit = true}, SG_OUTCOME_OUTPUT_LIMIT, none},
        {{.result = &ok, .is_call = true, .wall_timeout = true}, SG_OUTCOME_TIMEOUT, "wall"},
        {{.result = &ready, .oom_kill = true, .have_status = true, .wstatus = SIGKILL}, SG_OUTCOME_MEMORY_LIMIT, none},
        {{.have_status = true, .wstatus = SIGXCPU}, SG_OUTCOME_TIMEOUT, "cpu"},
        {{.have_status = true, .wstatus = SIGKILL, .cpu_ms = 6000}, SG_OUTCOME_TIMEOUT, "cpu"},
        /* SIGKILL: only the supervisor (or the cgroup at a limit) sends it; from anyone else it
         * came from outside the sandbox and the call was not judged */
        {{.have_status = true, .wstatus = SIGKILL, .cpu_ms = 10, .supervisor_killed = true}, SG_OUTCOME_SIGNAL, none},
        {{.have_status = true, .wstatus = SIGKILL, .cpu_ms = 10}, SG_OUTCOME_SETUP_ERROR, none},
        {{.result = &ok, .is_call = true, .have_status = true, .wstatus = SIGKILL}, SG_OUTCOME_SETUP_ERROR, none},
        /* SIGILL: nothing in the sandbox may send it; the kernel's answer to uretprobe (which
         * skips seccomp) or an illegal instruction: a forbidden call */
        {{.result = &ok, .is_call = true, .have_status = true, .wstatus = SIGILL}, SG_OUTCOME_FORBIDDEN_SYSCALL, none},
        {{.have_status = true, .wstatus = SIGILL, .cpu_ms = 10}, SG_OUTCOME_FORBIDDEN_SYSCALL, none},
        {{.result = &ok, .is_call = true, .have_status = true, .wstatus = SIGTERM}, SG_OUTCOME_SIGNAL, none},
        {{.result = &ok, .is_call = true, .have_status = true, .wstatus = SIGSEGV}, SG_OUTCOME_SIGNAL, none},
        {{.result = &ok, .is_call = true, .protocol_error = true}, SG_OUTCOME_EXCEPTION, none},
        /* the supervisor's kill after a protocol error, whether or not its status came in first */
        {{.result = &ok, .is_call = true, .protocol_error = true, .supervisor_killed = true, .have_status = true,
          .wstatus = SIGKILL},
         SG_OUTCOME_EXCEPTION, none},
        {{.is_call = true, .protocol_error = true, .have_status = true, .wstatus = SIGSEGV}, SG_OUTCOME_EXCEPTION, none},
        {{.result = &ready, .forbidden = true, .wall_timeout = true}, SG_OUTCOME_FORBIDDEN_SYSCALL, none},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *tk = NULL;
        sg_outcome_kind got = sg_outcome_classify(&cases[i].f, &lim, &tk);
        if (got != cases[i].want)
            fail_msg("case %zu: %s, want %s", i, sg_outcome_kind_name(got), sg_outcome_kind_name(cases[i].want));
        if ((tk == NULL) != (cases[i].tkind == NULL) || (tk && strcmp(tk, cases[i].tkind)))
            fail_msg("case %zu: timeout kind %s", i, tk ? tk : "(null)");
    }
    struct sg_frame *all[] = {&ready, &ok, &exc, &memerr, &exit0, &exit3};
    for (size_t i = 0; i < 6; i++)
        sg_frame_clear(all[i]);
    for (int k = 0; k <= SG_OUTCOME_SETUP_ERROR; k++) {
        sg_outcome_kind back;
        assert_int_equal(sg_outcome_kind_parse(sg_outcome_kind_name((sg_outcome_kind)k), &back), SG_OK);
        assert_int_equal(back, k);
    }
    sg_outcome_kind dummy;
    assert_int_equal(sg_outcome_kind_parse("pass", &dummy), SG_ERR_INVALID_ARG);
}

/* ---- frames (untrusted input) -------------------------------------------------------------- */

static void test_frames(void **state)
{
    (void)state;
    struct sg_frame f;
    memset(&f, 0, sizeof f);
    const unsigned char good[] = "k\x02\x00\x00\x00okr\x01\x00\x00\x00" "3";
    assert_int_equal(sg_frame_parse(good, sizeof good - 1, &f), 0);
    assert_string_equal(f.kind, "ok");
    assert_string_equal(sg_frame_get(&f, SG_TAG_REPR, NULL), "3");
    assert_null(sg_frame_get(&f, SG_TAG_TYPE, NULL));
    const struct {
        const char *b;
        size_t n;
    } bad[] = {
        {"", 0},                                     /* no kind */
        {"k\x02\x00\x00", 4},                        /* short header */
        {"k\xff\xff\xff\x7fok", 7},                  /* length past the end */
        {"\x80\x01\x00\x00\x00x", 6},                /* tag out of range */
        {"k\x02\x00\x00\x00okk\x02\x00\x00\x00ok", 14}, /* duplicate field */
        {"k\x03\x00\x00\x00o\0k", 8},                /* NUL inside the kind */
        {"r\x01\x00\x00\x00" "3", 6},                /* no kind field */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (sg_frame_parse((const unsigned char *)bad[i].b, bad[i].n, &f) != -1)
            fail_msg("bad frame %zu accepted", i);
    sg_frame_clear(&f);
}

static int frames_seen;
static void count_frame(void *ctx, struct sg_frame *f)
{
    (void)ctx;
    frames_seen += sg_frame_is(f, "ok") && !strcmp(sg_frame_get(f, SG_TAG_CALL_ID, NULL), "7");
}

/* Encoder and framing: what the supervisor writes parses back; a stream splits at frame ends. */
static void test_frame_stream(void **state)
{
    (void)state;
    unsigned char buf[256];
    size_t n = 4;
    assert_int_equal(sg_frame_put(buf, sizeof buf, &n, SG_TAG_KIND, "ok", 2), 0);
    assert_int_equal(sg_frame_put(buf, sizeof buf, &n, SG_TAG_CALL_ID, "7", 1), 0);
    sg_frame_seal(buf, n);
    assert_int_equal(sg_frame_put(buf, 20, &(size_t){16}, SG_TAG_CODE, "too long", 8), -1);
    unsigned char stream[600];
    memcpy(stream, buf, n);
    memcpy(stream + n, buf, n);
    memcpy(stream + 2 * n, buf, 3); /* a partial third frame */
    size_t used = 0;
    frames_seen = 0;
    assert_int_equal(sg_frame_split(stream, 2 * n + 3, &used, count_frame, NULL), 0);
    assert_int_equal(frames_seen, 2);
    assert_int_equal(used, 2 * n);
    /* A length over the cap is refused before anything is buffered for it. */
    const unsigned char huge[] = {0xff, 0xff, 0xff, 0x7f, 'k'};
    assert_int_equal(sg_frame_split(huge, sizeof huge, &used, count_frame, NULL), -1);
}

/* ---- seccomp policy ------------------------------------------------------------------------- */

static sg_sandbox *sandbox; /* the kernel group's sandbox (NULL where the kernel refuses) */

/* The program the sandbox loads: the one compiled at build time (no kernel needed to look at). */
extern const unsigned char sg_sandbox_seccomp_bpf[];
extern const size_t sg_sandbox_seccomp_bpf_len;
static struct sg_sandbox policy;

static uint32_t act(uint32_t arch, int nr, uint64_t a0, uint64_t a1)
{
    uint64_t args[6] = {a0, a1, 0, 0, 0, 0};
    return sg_seccomp_eval(&policy, arch, nr, args) & SECCOMP_RET_ACTION_FULL;
}

static void test_seccomp_policy(void **state)
{
    sg_diag bd;
    sg_diag_init(&bd);
    memset(&policy, 0, sizeof policy);
    if (sg_sandbox_seccomp_bpf_len) {
        policy.bpf = (struct sock_filter *)sg_sandbox_seccomp_bpf;
        policy.bpf_len = (unsigned short)(sg_sandbox_seccomp_bpf_len / sizeof(struct sock_filter));
    } else {
        assert_int_equal(sg_seccomp_build(&policy, &bd), SG_OK); /* leaked: one per test run */
    }
    (void)state;
    const uint32_t X64 = AUDIT_ARCH_X86_64;
    /* What CPython needs (measured) is allowed. */
    const int allowed[] = {SYS_read, SYS_write, SYS_openat, SYS_close, SYS_mmap, SYS_mprotect,
                           SYS_munmap, SYS_brk, SYS_futex, SYS_newfstatat, SYS_getdents64,
                           SYS_rt_sigaction, SYS_getrandom,
                           SYS_prlimit64, SYS_lseek, SYS_clock_nanosleep};
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (act(X64, allowed[i], 0, 0) != SECCOMP_RET_ALLOW)
            fail_msg("syscall %d not allowed", allowed[i]);
    /* Dangerous calls go to the supervisor (reported by name, sandbox killed). */
    const int denied[] = {SYS_ptrace, SYS_mount, SYS_unshare, SYS_setns, SYS_bpf,
                          SYS_perf_event_open, SYS_keyctl, SYS_userfaultfd, SYS_io_uring_setup,
                          SYS_kexec_load, SYS_init_module, SYS_personality, SYS_socket,
                          SYS_socketpair, SYS_execveat, SYS_fork, SYS_vfork, SYS_chroot,
                          SYS_pivot_root, SYS_process_vm_writev, SYS_setuid, SYS_prctl,
                          SYS_open_by_handle_at, SYS_add_key, SYS_execve, SYS_flock,
                          SYS_mincore, SYS_fadvise64, SYS_exit_group, SYS_wait4, SYS_waitid};
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++)
        if (act(X64, denied[i], 0, 0) != SECCOMP_RET_USER_NOTIF)
            fail_msg("syscall %d not sent to the supervisor", denied[i]);
    /* exit_group is mediated: the supervisor reads what is queued before letting it through. */
    assert_true(sg_seccomp_is_exit_group(X64, SYS_exit_group));
    assert_false(sg_seccomp_is_exit_group(AUDIT_ARCH_I386, 252));
    assert_true(sg_seccomp_is_wait(X64, SYS_wait4));
    assert_true(sg_seccomp_is_wait(X64, SYS_waitid));
    /* fcntl: descriptor flags and duplication only (low 32 bits of the command). */
    const int fcntl_ok[] = {F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC, F_GETPIPE_SZ};
    for (size_t i = 0; i < sizeof fcntl_ok / sizeof fcntl_ok[0]; i++)
        if (act(X64, SYS_fcntl, 3, (uint64_t)fcntl_ok[i]) != SECCOMP_RET_ALLOW)
            fail_msg("fcntl command %d not allowed", fcntl_ok[i]);
    assert_int_equal(act(X64, SYS_fcntl, 3, 0xffffffff00000000ull | F_GETFD), SECCOMP_RET_ALLOW);
    const int fcntl_no[] = {F_NOTIFY, F_SETLEASE, F_GETLEASE, F_SETOWN, F_SETOWN_EX, F_SETSIG,
                            F_SETPIPE_SZ, F_SETLK, F_SETLKW, F_GETLK, F_OFD_SETLK, F_OFD_SETLKW,
                            F_OFD_GETLK, F_ADD_SEALS};
    for (size_t i = 0; i < sizeof fcntl_no / sizeof fcntl_no[0]; i++)
        if (act(X64, SYS_fcntl, 3, (uint64_t)fcntl_no[i]) != SECCOMP_RET_USER_NOTIF)
            fail_msg("fcntl command %d not sent to the supervisor", fcntl_no[i]);
    /* clone: threads only; namespaces and processes go to the supervisor. */
    const uint64_t thread = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
                            CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
    assert_int_equal(act(X64, SYS_clone, thread, 0), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_clone, thread | CLONE_NEWUSER, 0), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_clone, thread | CLONE_NEWNS, 0), SECCOMP_RET_USER_NOTIF);
    const uint64_t fork_flags = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD;
    assert_int_equal(act(X64, SYS_clone, fork_flags, 0), SECCOMP_RET_USER_NOTIF);
    assert_true(sg_seccomp_is_process_clone(X64, SYS_clone, fork_flags));
    assert_false(sg_seccomp_is_process_clone(X64, SYS_clone, fork_flags | CLONE_NEWPID));
    assert_false(sg_seccomp_is_process_clone(X64, SYS_clone, CLONE_VM | CLONE_VFORK | SIGCHLD));
    assert_false(sg_seccomp_is_process_clone(X64, SYS_clone, thread));
    /* clone3 -> ENOSYS so glibc falls back to clone. */
    uint64_t none[6] = {0};
    assert_int_equal(sg_seccomp_eval(&policy, X64, SYS_clone3, none), SECCOMP_RET_ERRNO | ENOSYS);
    /* ioctl: TCGETS allowed, TIOCSTI not, compared on the low 32 bits. */
    assert_int_equal(act(X64, SYS_ioctl, 0, TCGETS), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_ioctl, 0, 0xffffffff00000000ull | TCGETS), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_ioctl, 0, TIOCSTI), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_ioctl, 0, 0xffffffff00000000ull | TIOCSTI), SECCOMP_RET_USER_NOTIF);
    /* prctl: only PR_SET_DUMPABLE to 0 or 1 (a pooled zygote, its call child); every other
     * option or value goes to the supervisor. */
    assert_int_equal(act(X64, SYS_prctl, PR_SET_DUMPABLE, 0), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_DUMPABLE, 1), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_DUMPABLE, 2), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_DUMPABLE, 0x100000000ull), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_NAME, 0), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_NO_NEW_PRIVS, 0), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prctl, PR_SET_SECCOMP, 0), SECCOMP_RET_USER_NOTIF);
    /* prlimit64 on the caller only: another pid (the pooled zygote, pid 1) is the supervisor's
     * to judge, as a forbidden call. */
    assert_int_equal(act(X64, SYS_prlimit64, 0, RLIMIT_NOFILE), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_prlimit64, 1, RLIMIT_NOFILE), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prlimit64, 2, RLIMIT_AS), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_prlimit64, 0x100000000ull, RLIMIT_AS), SECCOMP_RET_USER_NOTIF);
    /* RLIMIT_CPU may be read, never set (the kernel's SIGKILL at a hard CPU limit the candidate
     * lowered would pass for a kill from outside); every other limit may be set */
    {
        uint64_t get_cpu[6] = {0, RLIMIT_CPU, 0, 0x1000, 0, 0}, set_cpu[6] = {0, RLIMIT_CPU, 0x1000, 0, 0, 0},
                 set_cpu_hi[6] = {0, 0xffffffff00000000ull | RLIMIT_CPU, 0x1000, 0, 0, 0};
        assert_int_equal(sg_seccomp_eval(&policy, X64, SYS_prlimit64, get_cpu) & SECCOMP_RET_ACTION_FULL, SECCOMP_RET_ALLOW);
        assert_int_equal(sg_seccomp_eval(&policy, X64, SYS_prlimit64, set_cpu) & SECCOMP_RET_ACTION_FULL,
                         SECCOMP_RET_USER_NOTIF);
        assert_int_equal(sg_seccomp_eval(&policy, X64, SYS_prlimit64, set_cpu_hi) & SECCOMP_RET_ACTION_FULL,
                         SECCOMP_RET_USER_NOTIF);
        for (uint64_t r = 1; r < RLIM_NLIMITS; r++) {
            uint64_t set[6] = {0, r, 0x1000, 0, 0, 0}, other[6] = {1, r, 0x1000, 0, 0, 0};
            if ((sg_seccomp_eval(&policy, X64, SYS_prlimit64, set) & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW)
                fail_msg("setting rlimit %u refused", (unsigned)r);
            if ((sg_seccomp_eval(&policy, X64, SYS_prlimit64, other) & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF)
                fail_msg("another pid's rlimit %u allowed", (unsigned)r);
            assert_int_equal(act(X64, SYS_setrlimit, r, 0x1000), SECCOMP_RET_ALLOW);
        }
        assert_int_equal(act(X64, SYS_setrlimit, RLIMIT_CPU, 0x1000), SECCOMP_RET_USER_NOTIF);
        assert_int_equal(act(X64, SYS_setrlimit, RLIM_NLIMITS, 0x1000), SECCOMP_RET_USER_NOTIF);
    }
    /* signals: any but SIGILL and SIGKILL (0..64), for kill, tkill (second argument) and tgkill
     * (third) */
    for (uint64_t sig = 0; sig <= 66; sig++) {
        uint32_t want = sig == SIGKILL || sig == SIGILL || sig > 64 ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW;
        uint64_t tg[6] = {2, 2, sig, 0, 0, 0}, tghi[6] = {2, 2, sig | 0x100000000ull, 0, 0, 0};
        if (act(X64, SYS_kill, 2, sig) != want || act(X64, SYS_tkill, 2, sig) != want ||
            (sg_seccomp_eval(&policy, X64, SYS_tgkill, tg) & SECCOMP_RET_ACTION_FULL) != want)
            fail_msg("signal %u: not %s", (unsigned)sig, want == SECCOMP_RET_ALLOW ? "allowed" : "refused");
        if (act(X64, SYS_kill, 0, sig | 0xffffffff00000000ull) != SECCOMP_RET_USER_NOTIF ||
            (sg_seccomp_eval(&policy, X64, SYS_tgkill, tghi) & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF)
            fail_msg("signal %u with high bits set allowed", (unsigned)sig);
    }
    /* futex: anything private; on a shared key only waits (no wake of another sandbox's waiter) */
    assert_int_equal(act(X64, SYS_futex, 0, 128 | 0 /* WAIT_PRIVATE */), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_futex, 0, 128 | 1 /* WAKE_PRIVATE */), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_futex, 0, 0 /* WAIT, shared */), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_futex, 0, 256 | 9 /* WAIT_BITSET|CLOCK_REALTIME */), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_futex, 0, 1 /* WAKE, shared */), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_futex, 0, 10 /* WAKE_BITSET, shared */), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_futex, 0, 5 /* WAKE_OP, shared */), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_futex, 0, 4 /* CMP_REQUEUE, shared */), SECCOMP_RET_USER_NOTIF);
    /* sysinfo (host uptime, load, memory) fails as if absent; capset (dropping) is allowed */
    assert_int_equal(sg_seccomp_eval(&policy, X64, SYS_sysinfo, none), SECCOMP_RET_ERRNO | ENOSYS);
    assert_int_equal(act(X64, SYS_capset, 0, 0), SECCOMP_RET_ALLOW);
    /* the pooled call child's clone: exactly its namespaces and SIGCHLD */
    assert_true(sg_seccomp_is_ns_clone(X64, SYS_clone, SG_CALL_NS_FLAGS | SIGCHLD));
    assert_false(sg_seccomp_is_ns_clone(X64, SYS_clone, SG_CALL_NS_FLAGS | CLONE_NEWNET | SIGCHLD));
    assert_false(sg_seccomp_is_ns_clone(X64, SYS_clone, SG_CALL_NS_FLAGS));
    assert_false(sg_seccomp_is_ns_clone(X64, SYS_clone, fork_flags));
    assert_false(sg_seccomp_is_process_clone(X64, SYS_clone, SG_CALL_NS_FLAGS | SIGCHLD));
    assert_int_equal(act(X64, SYS_clone, SG_CALL_NS_FLAGS | SIGCHLD, 0), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, SYS_mount, 0, 0), SECCOMP_RET_USER_NOTIF);
    /* sendmsg only on the launcher's hand-over fd. */
    assert_int_equal(act(X64, SYS_sendmsg, SG_FD_NOTIFY_SOCK, 0), SECCOMP_RET_ALLOW);
    assert_int_equal(act(X64, SYS_sendmsg, 3, 0), SECCOMP_RET_USER_NOTIF);
    /* Non-native architectures and x32 never reach an allow rule. */
    assert_int_equal(act(AUDIT_ARCH_I386, 3 /* i386 read */, 0, 0), SECCOMP_RET_USER_NOTIF);
    assert_int_equal(act(X64, 0x40000000 | SYS_read, 0, 0), SECCOMP_RET_USER_NOTIF);
    char name[64];
    sg_seccomp_name(X64, SYS_ptrace, name, sizeof name);
    assert_string_equal(name, "ptrace");
    sg_seccomp_name(AUDIT_ARCH_I386, 20, name, sizeof name);
    assert_string_equal(name, "i386:getpid");
    assert_true(sg_seccomp_is_execve(X64, SYS_execve));
    /* The program the sandbox loads (compiled at build time when possible) is exactly what
     * seccomp.c builds with libseccomp now. */
    struct sg_sandbox fresh;
    memset(&fresh, 0, sizeof fresh);
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_seccomp_build(&fresh, &d), SG_OK);
    assert_int_equal(fresh.bpf_len, policy.bpf_len);
    assert_memory_equal(fresh.bpf, policy.bpf, fresh.bpf_len * sizeof *fresh.bpf);
    free(fresh.bpf);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static void test_json_fields(void **state)
{
    (void)state;
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    struct sg_frame exc;
    frame_of(&exc, "exception", "ValueError");
    struct sg_facts f = {.result = &exc, .have_status = true, .cpu_ms = 5, .wall_ms = 7,
                         .memory_mechanism = SG_MECH_CGROUP_V1, .tasks_mechanism = SG_MECH_RLIMIT};
    sg_outcome *o = NULL;
    const char out[] = "bad \xff utf8 \0 nul";
    assert_int_equal(sg_outcome_build(&f, &lim, out, sizeof out - 1, true, "", 0, false, &o), SG_OK);
    char *s = NULL;
    assert_int_equal(sg_outcome_to_json(o, &s), SG_OK);
    json_error_t err;
    json_t *j = json_loads(s, JSON_ALLOW_NUL, &err);
    assert_non_null(j);
    const char *keys[] = {"outcome", "exit_code", "signal", "syscall", "cpu_ms", "wall_ms",
                          "peak_rss_kb", "stdout", "stderr", "truncated", "limits"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!json_object_get(j, keys[i]))
            fail_msg("missing key %s", keys[i]);
    assert_string_equal(json_string_value(json_object_get(j, "outcome")), "exception");
    assert_true(json_is_true(json_object_get(j, "truncated")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "limits"), "memory_mechanism")),
                        "cgroup_v1");
    assert_int_equal(json_string_length(json_object_get(j, "stdout")), strlen("bad \xEF\xBF\xBD utf8 ") + 1 + 4);
    json_decref(j);
    free(s);
    sg_outcome_free(o);
    sg_frame_clear(&exc);
}

/* The exception's MRO report (SG_TAG_MRO): kept whole from an exception or exit frame; dropped over
 * its cap or with a NUL (never cut: a cut name could match a declared one); ignored in another
 * kind of frame; copied with the outcome. */
static void test_exc_mro_field(void **state)
{
    (void)state;
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    struct {
        const char *kind;
        const char *mro;
        size_t len;
        bool call;
        int status;
        bool kept;
    } cases[] = {
        {"exception", "m\tE\tE\nbuiltins\tValueError\tValueError", 0, true, 0, true},
        {"exit", "builtins\tSystemExit\tSystemExit", 0, true, 0, true},
        {"exception", "m\tE\tE\0\nbuiltins\tValueError\tValueError", 37, true, 0, false},
        {"exception", NULL, 70000, true, 0, false}, /* over the cap */
        {"ok", "builtins\tValueError\tValueError", 0, true, 1 << 8, false}, /* NoResult: not from this frame */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sg_frame fr;
        frame_of(&fr, cases[k].kind, strcmp(cases[k].kind, "ok") ? "E" : NULL);
        size_t len = cases[k].mro ? (cases[k].len ? cases[k].len : strlen(cases[k].mro)) : cases[k].len;
        fr.fields['o'] = malloc(len + 1);
        if (cases[k].mro)
            memcpy(fr.fields['o'], cases[k].mro, len);
        else
            memset(fr.fields['o'], 'x', len);
        fr.fields['o'][len] = '\0';
        fr.lens['o'] = len;
        struct sg_facts f = {.result = &fr, .have_status = true, .wstatus = cases[k].status, .is_call = cases[k].call};
        sg_outcome *o = NULL, *c = NULL;
        assert_int_equal(sg_outcome_build(&f, &lim, "", 0, false, "", 0, false, &o), SG_OK);
        const sg_outcome_info *in = sg_outcome_info_get(o);
        assert_int_equal(in->kind, SG_OUTCOME_EXCEPTION);
        if (cases[k].kept)
            assert_string_equal(in->exc_mro, cases[k].mro);
        else if (in->exc_mro)
            fail_msg("case %zu: an MRO was kept: %.80s", k, in->exc_mro);
        assert_int_equal(sg_outcome_copy(o, &c), SG_OK);
        if (cases[k].kept)
            assert_string_equal(sg_outcome_info_get(c)->exc_mro, cases[k].mro);
        else
            assert_null(sg_outcome_info_get(c)->exc_mro);
        sg_outcome_free(c);
        sg_outcome_free(o);
        sg_frame_clear(&fr);
    }
}

/* ---- the persistent worker, end to end: one test per behaviour ------------------------------ */

static bool kernel_refused; /* sg_sandbox_new refused: the kernel lacks a feature */

static bool kernel_ok(void)
{
    if (sandbox)
        return true;
    if (getenv("CI") && !strcmp(getenv("CI"), "true"))
        fail_msg("sandbox unavailable under CI=true");
    print_message("*** SKIP: the kernel refuses the sandbox\n");
    return false;
}

static const char worker_src[] = "import os\n"
                                 "state = []\n"
                                 "def f(a, b):\n    return a + b\n"
                                 "def grow():\n    state.append(1)\n    return len(state)\n"
                                 "def boom():\n    raise KeyError('k')\n"
                                 "def spin():\n    while True: pass\n"
                                 "def net():\n    import socket; socket.socket()\n"
                                 "def fork():\n    return os.fork()\n"
                                 "r, w = os.pipe()\n";

static sg_worker *worker_of(const char *src, const sg_worker_opts *opts)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 1000;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_new(sandbox, src, strlen(src), &lim, opts, &w, &imp, &d) != SG_OK)
        fail_msg("worker: %s", d.message);
    assert_int_equal(sg_outcome_info_get(imp)->kind, SG_OUTCOME_OK);
    sg_outcome_free(imp);
    return w;
}

static const sg_outcome_info *call(sg_worker *w, const char *code, sg_outcome **o)
{
    sg_diag d;
    sg_diag_init(&d);
    sg_status st = sg_worker_call(w, code, NULL, o, &d);
    if (st != SG_OK)
        fail_msg("call %s: %s", code, d.message);
    return sg_outcome_info_get(*o);
}

/* A call's outcome kind and value repr (NULL: not checked). */
static void expect_call(sg_worker *w, const char *code, sg_outcome_kind kind, const char *repr)
{
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, code, &o);
    if (i->kind != kind)
        fail_msg("%s: %s (%s), want %s", code, sg_outcome_kind_name(i->kind), i->detail,
                 sg_outcome_kind_name(kind));
    if (repr)
        assert_string_equal(i->value_repr, repr);
    sg_outcome_free(o);
}

static void test_worker_returns_values(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    expect_call(w, "f(1, 2)", SG_OUTCOME_OK, "3");
    expect_call(w, "f('a', 'b')", SG_OUTCOME_OK, "'ab'");
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "x = 1\nprint('side', x)", &o); /* statements work too */
    assert_int_equal(i->kind, SG_OUTCOME_OK);
    assert_string_equal(i->value_repr, "None");
    assert_string_equal(i->stdout_data, "side 1\n");
    sg_outcome_free(o);
    sg_worker_free(w);
}

static void test_worker_calls_share_no_memory(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    for (int k = 0; k < 3; k++)
        expect_call(w, "grow()", SG_OUTCOME_OK, "1"); /* each call is a fresh fork */
    sg_worker_free(w);
}

static void test_worker_exception_has_snippet_line(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "boom()", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(i->exc_type, "KeyError");
    assert_int_equal(i->exc_line, 9);
    assert_string_equal(i->exc_mro, "builtins\tKeyError\tKeyError\nbuiltins\tLookupError\tLookupError\n"
                                    "builtins\tException\tException\nbuiltins\tBaseException\tBaseException\n"
                                    "builtins\tobject\tobject");
    sg_outcome_free(o);
    /* a class's MRO as the interpreter keeps it, not what its metaclass answers; SystemExit too */
    i = call(w, "exec('class M(type):\\n    __mro__ = property(lambda c: (ValueError,))\\n"
                "    __name__ = property(lambda c: \\'ValueError\\')\\n"
                "class E(KeyError, metaclass=M): pass\\nraise E()')", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(i->exc_type, "snippet.E");
    assert_non_null(i->exc_mro);
    static const char e_mro[] = "snippet\tE\tE\nbuiltins\tKeyError\tKeyError\n";
    assert_true(!strncmp(i->exc_mro, e_mro, sizeof e_mro - 1));
    assert_null(strstr(i->exc_mro, "ValueError"));
    sg_outcome_free(o);
    i = call(w, "exec('class Quit(SystemExit): pass\\nraise Quit(4)')", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(i->exc_type, "SystemExit");
    assert_string_equal(i->exc_mro, "snippet\tQuit\tQuit\nbuiltins\tSystemExit\tSystemExit\n"
                                    "builtins\tBaseException\tBaseException\nbuiltins\tobject\tobject");
    sg_outcome_free(o);
    sg_worker_free(w);
}

static void test_worker_forbidden_call_restarts_sandbox(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "net()", &o);
    assert_int_equal(i->kind, SG_OUTCOME_FORBIDDEN_SYSCALL);
    assert_string_equal(i->syscall, "socket");
    sg_outcome_free(o);
    expect_call(w, "f(2, 2)", SG_OUTCOME_OK, "4"); /* restarted transparently */
    assert_int_equal(sg_worker_starts(w), 2);
    sg_worker_free(w);
}

static void test_worker_call_may_not_fork(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "fork()", &o);
    assert_int_equal(i->kind, SG_OUTCOME_FORBIDDEN_SYSCALL);
    assert_string_equal(i->syscall, "clone");
    sg_outcome_free(o);
    sg_worker_free(w);
}

/* The per-call CPU limit is measured by the supervisor, in ms, even if SIGXCPU is caught. */
static void test_worker_call_cpu_limit(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.cpu_ms = 300;
    lim.wall_ms = 5000;
    sg_outcome *o = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_worker_call(w, "import signal\nsignal.signal(signal.SIGXCPU, lambda *a: None)\nspin()",
                                    &lim, &o, &d), SG_OK);
    const sg_outcome_info *i = sg_outcome_info_get(o);
    assert_int_equal(i->kind, SG_OUTCOME_TIMEOUT);
    assert_string_equal(i->timeout_kind, "cpu");
    if (i->cpu_ms < 300 || i->cpu_ms > 800)
        fail_msg("a 300 ms CPU limit stopped the call at %llu ms", (unsigned long long)i->cpu_ms);
    sg_outcome_free(o);
    expect_call(w, "f(1, 1)", SG_OUTCOME_OK, "2");
    sg_worker_free(w);
}

static void test_worker_many_calls(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    for (int k = 0; k < 200; k++)
        expect_call(w, "f(2, 3)", SG_OUTCOME_OK, "5");
    assert_int_equal(sg_worker_starts(w), 1);
    sg_worker_free(w);
}

static void test_worker_failed_import_fails_every_call(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    sg_worker *w = NULL;
    sg_outcome *imp = NULL, *o = NULL;
    sg_diag d;
    sg_diag_init(&d);
    const char bad[] = "x = 1\nraise ValueError('at import')\n";
    assert_int_equal(sg_worker_new(sandbox, bad, sizeof bad - 1, &lim, NULL, &w, &imp, &d), SG_OK);
    assert_int_equal(sg_outcome_info_get(imp)->kind, SG_OUTCOME_EXCEPTION);
    assert_int_equal(sg_outcome_info_get(imp)->exc_line, 2);
    const sg_outcome_info *i = call(w, "x", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    sg_outcome_free(o);
    sg_outcome_free(imp);
    sg_worker_free(w);
}

/* Without the precompiled runner (another interpreter's magic number), the bootstrap compiles
 * runner.py from source: same outcomes, the later part included. */
static void test_worker_runner_from_source(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    setenv("SNIPGATE_RUNNER_NO_PYC", "1", 1);
    sg_worker *w = worker_of(worker_src, NULL);
    unsetenv("SNIPGATE_RUNNER_NO_PYC");
    expect_call(w, "f(1, 2)", SG_OUTCOME_OK, "3");
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "boom()", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_int_equal(i->exc_line, 9);
    static const char key_mro[] = "builtins\tKeyError\tKeyError\nbuiltins\tLookupError\t";
    assert_true(i->exc_mro && !strncmp(i->exc_mro, key_mro, sizeof key_mro - 1));
    sg_outcome_free(o);
    sg_worker_free(w);
}

/* Every call starts with an empty /tmp unless the caller chose to share it. */
static void test_worker_fresh_tmp_per_call(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const char *write_it = "open('/tmp/left', 'w').write('x')";
    const char *look = "__import__('os').path.exists('/tmp/left')";
    sg_worker *w = worker_of(worker_src, NULL);
    expect_call(w, write_it, SG_OUTCOME_OK, NULL);
    expect_call(w, look, SG_OUTCOME_OK, "False");
    expect_call(w, "open('left', 'w').write('y')", SG_OUTCOME_OK, NULL); /* relative: cwd is /tmp */
    expect_call(w, look, SG_OUTCOME_OK, "False");
    sg_worker_free(w);
    sg_worker_opts opts;
    sg_worker_opts_init(&opts);
    opts.share_tmp = true;
    w = worker_of(worker_src, &opts);
    expect_call(w, write_it, SG_OUTCOME_OK, NULL);
    expect_call(w, look, SG_OUTCOME_OK, "True");
    sg_worker_free(w);
}

/* Descriptors the import left open, and the request pipe, do not reach a call. */
static void test_worker_calls_share_no_descriptors(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "os.write(w, b'from call 1')", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(i->exc_type, "OSError");
    sg_outcome_free(o);
    i = call(w, "os.read(5, 100)", &o); /* the next call's request */
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    sg_outcome_free(o);
    expect_call(w, "f(3, 4)", SG_OUTCOME_OK, "7");
    sg_worker_free(w);
}

/* A frame with another call's id (stale, or forged as such) is dropped, not judged. */
static void test_worker_stale_frame_dropped(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    expect_call(w, "f(0, 0)", SG_OUTCOME_OK, "0"); /* call 1 */
    const char *forge = "def field(t, d): return t + len(d).to_bytes(4, 'little') + d\n"
                        "b = field(b'k', b'ok') + field(b'r', b'999') + field(b'i', b'1')\n"
                        "os.write(6, len(b).to_bytes(4, 'little') + b)\n"
                        "f(2, 3)";
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, forge, &o); /* call 2: its own result is None */
    assert_int_equal(i->kind, SG_OUTCOME_OK);
    assert_string_equal(i->value_repr, "None");
    sg_outcome_free(o);
    sg_worker_free(w);
}

/* A call ends when the supervisor has seen its child exit: its CPU and status are the kernel's. */
static void test_worker_call_exit_observed(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "os._exit(3)", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_int_equal(i->exit_code, 3);
    sg_outcome_free(o);
    i = call(w, "import signal\nos.kill(os.getpid(), signal.SIGSEGV)", &o);
    assert_int_equal(i->kind, SG_OUTCOME_SIGNAL);
    assert_int_equal(i->signal, SIGSEGV);
    sg_outcome_free(o);
    expect_call(w, "f(1, 2)", SG_OUTCOME_OK, "3");
    sg_worker_free(w);
}

/* A batch runs its items in one child, in order; each has its own result, output and limits. */
static sg_outcome *batch_outs[8];

static size_t batch(sg_worker *w, const char *const *codes, size_t n, uint64_t cpu_ms)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = cpu_ms;
    size_t done = 99;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_call_batch(w, codes, n, &lim, batch_outs, &done, &d) != SG_OK)
        fail_msg("batch: %s", d.message);
    assert_true(done >= 1 && done <= n);
    for (size_t i = done; i < n; i++)
        assert_null(batch_outs[i]);
    return done;
}

static void batch_free(size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sg_outcome_free(batch_outs[i]);
        batch_outs[i] = NULL;
    }
}

static void test_worker_batch(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    const char *const ok[] = {"f(1, 2)", "print('two')\nx = 2", "boom()", "grow()", "grow()"};
    assert_int_equal(batch(w, ok, 5, 1000), 5);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_OK);
    assert_string_equal(sg_outcome_info_get(batch_outs[0])->value_repr, "3");
    /* output is attributed by arrival (best effort: stdout and the frames are two pipes): the
     * items' outputs together hold what was printed, once */
    char all[64];
    snprintf(all, sizeof all, "%s%s%s", sg_outcome_info_get(batch_outs[0])->stdout_data,
             sg_outcome_info_get(batch_outs[1])->stdout_data, sg_outcome_info_get(batch_outs[2])->stdout_data);
    assert_string_equal(all, "two\n");
    assert_int_equal(sg_outcome_info_get(batch_outs[2])->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(sg_outcome_info_get(batch_outs[2])->exc_type, "KeyError");
    /* the items share their child (as the asserts of one test file share a process) ... */
    assert_string_equal(sg_outcome_info_get(batch_outs[3])->value_repr, "1");
    assert_string_equal(sg_outcome_info_get(batch_outs[4])->value_repr, "2");
    batch_free(5);
    /* ... but never the worker's state: the next batch starts from the import again */
    const char *const again[] = {"grow()"};
    assert_int_equal(batch(w, again, 1, 1000), 1);
    assert_string_equal(sg_outcome_info_get(batch_outs[0])->value_repr, "1");
    batch_free(1);
    sg_worker_free(w);
}

/* Output caps are per item: items that each print more than half their cap (but 64 KiB under it)
 * all pass, however fast the child runs ahead of the supervisor (it once read on while the child
 * printed the next items' output, and an honest item got output_limit); an item over its cap is
 * the one that gets it. */
static void test_worker_batch_output_cap_per_item(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of("import os\ndef p(n):\n    os.write(1, b'o' * n)\n    return n\n", NULL);
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 5000;
    lim.stdout_bytes = 200000;
    const char *codes[40];
    for (int i = 0; i < 40; i++)
        codes[i] = i == 30 ? "p(200001)" : "p(130000)";
    sg_outcome *outs[40] = {0};
    size_t done = 0;
    sg_diag d;
    sg_diag_init(&d);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(sg_worker_call_batch(w, codes, 40, &lim, outs, &done, &d), SG_OK);
        if (done != 31)
            for (size_t i = 0; i < done; i++)
                print_message("round %d item %zu: %s %zu\n", round, i,
                              sg_outcome_kind_name(sg_outcome_info_get(outs[i])->kind), sg_outcome_info_get(outs[i])->stdout_len);
        assert_int_equal(done, 31);
        for (int i = 0; i < 30; i++) {
            const sg_outcome_info *o = sg_outcome_info_get(outs[i]);
            if (o->kind != SG_OUTCOME_OK)
                fail_msg("round %d item %d: %s, %zu bytes", round, i, sg_outcome_kind_name(o->kind), o->stdout_len);
        }
        assert_int_equal(sg_outcome_info_get(outs[30])->kind, SG_OUTCOME_OUTPUT_LIMIT);
        for (int i = 0; i < 31; i++)
            sg_outcome_free(outs[i]);
    }
    sg_worker_free(w);
}

/* The first item that does not end cleanly ends the batch: its outcome is the supervisor's
 * (a CPU limit per item, a death, a forbidden call); the items after it did not run. */
static void test_worker_batch_stops_at_failure(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(worker_src, NULL);
    const char *const spin[] = {"f(1, 1)", "spin()", "f(2, 2)"};
    assert_int_equal(batch(w, spin, 3, 200), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_OK);
    assert_int_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_TIMEOUT);
    assert_true(sg_outcome_info_get(batch_outs[1])->cpu_ms >= 200);
    batch_free(3);
    /* each item has the whole limit: 4 items of ~120 ms CPU pass a 200 ms per-item limit */
    const char *const busy[] = {"sum(range(2_000_000))", "sum(range(2_000_000))", "sum(range(2_000_000))",
                                "sum(range(2_000_000))"};
    size_t n = batch(w, busy, 4, 400);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sg_outcome_info_get(batch_outs[i])->kind, SG_OUTCOME_OK);
    assert_int_equal(n, 4);
    batch_free(4);
    const char *const die[] = {"f(1, 1)", "os._exit(0)", "f(2, 2)"};
    assert_int_equal(batch(w, die, 3, 1000), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_EXCEPTION);
    assert_null(sg_outcome_info_get(batch_outs[1])->value_repr);
    batch_free(3);
    const char *const net[] = {"net()", "f(2, 2)"};
    assert_int_equal(batch(w, net, 2, 1000), 1);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_FORBIDDEN_SYSCALL);
    batch_free(2);
    /* a frame forged for a later item (with the real call id, found in the runner's frame) is a
     * protocol error, never that item's result */
    const char *const forge[] = {
        "import posix, sys\n"
        "fr = sys._getframe()\n"
        "while 'cid' not in fr.f_locals: fr = fr.f_back\n"
        "def fld(t, v): v = v.encode(); return t.encode() + len(v).to_bytes(4, 'little') + v\n"
        "b = fld('k', 'ok') + fld('r', '99') + fld('i', fr.f_locals['cid']) + fld('n', '2')\n"
        "posix.write(6, len(b).to_bytes(4, 'little') + b)",
        "f(2, 2)", "f(3, 3)"};
    size_t fn = batch(w, forge, 3, 1000);
    assert_int_equal(fn, 1);
    /* a protocol error (exception), or the SIGKILL it caused when the supervisor reads the
     * child's status after killing it (signal): never ok, never the forged value */
    sg_outcome_kind fk = sg_outcome_info_get(batch_outs[0])->kind;
    assert_true(fk == SG_OUTCOME_EXCEPTION || fk == SG_OUTCOME_SIGNAL);
    assert_null(sg_outcome_info_get(batch_outs[0])->value_repr);
    batch_free(3);
    const char *const last[] = {"f(3, 3)"};
    assert_int_equal(batch(w, last, 1, 1000), 1);
    assert_string_equal(sg_outcome_info_get(batch_outs[0])->value_repr, "6");
    batch_free(1);
    sg_worker_free(w);
}

/* A batch item that fails without its own frame after an earlier item is "unsure" (the earlier
 * item may have left a thread running or forged its frame and then ended the process): callers
 * re-run it alone. Stopped with only its main thread running, it is its own failure. */
static void test_worker_batch_unsure_blame(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    const char *src = "import os, sys, threading\n"
                      "def ok(x):\n    return x\n"
                      "def nap():\n    import time\n    time.sleep(2)\n    return 2\n"
                      "def spin():\n    while True:\n        pass\n"
                      "def leave_thread():\n    threading.Thread(target=spin, daemon=True).start()\n    return 1\n"
                      "def forge():\n" /* this item's own result frame, value 1, sent by the item */
                      "    f = sys._getframe()\n"
                      "    while f is not None and 'cid' not in f.f_locals:\n"
                      "        f = f.f_back\n"
                      "    L = f.f_locals\n"
                      "    f.f_globals['_send']([('k', 'ok'), ('r', '1'), ('y', 'int'), ('j', '1'), ('i', L['cid']),\n"
                      "                          ('n', L['n'] + L.get('base', 0))])\n"
                      "def forge_and_exit():\n    forge()\n    os._exit(3)\n"
                      "def forge_and_spin():\n    forge()\n    spin()\n";
    sg_worker *w = worker_of(src, NULL);
    /* the main thread spins in item 1 itself: its own timeout */
    const char *const own[] = {"ok(1)", "spin()", "ok(3)"};
    assert_int_equal(batch(w, own, 3, 300), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_TIMEOUT);
    assert_false(sg_outcome_info_get(batch_outs[1])->batch_unsure);
    assert_true(sg_outcome_info_get(batch_outs[1])->batch_no_frame);
    assert_false(sg_outcome_info_get(batch_outs[0])->batch_no_frame);
    batch_free(2);
    /* item 0 forges its own frame and loops in the main thread: item 1, which never ran, carries
     * the timeout; the supervisor cannot tell whose code loops, so it says the item had no frame
     * of its own (callers that blame an input check item 0 alone: test_golden_run) */
    const char *const forge_loop[] = {"forge_and_spin()", "ok(2)", "ok(3)"};
    assert_int_equal(batch(w, forge_loop, 3, 300), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_OK);
    assert_int_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_TIMEOUT);
    assert_true(sg_outcome_info_get(batch_outs[1])->batch_no_frame);
    batch_free(2);
    expect_call(w, "forge_and_spin()", SG_OUTCOME_TIMEOUT, NULL);
    /* item 0 leaves a spinning thread: item 1, which only sleeps, is charged its CPU and times
     * out, unsure */
    const char *const thread[] = {"leave_thread()", "nap()", "ok(3)"};
    assert_int_equal(batch(w, thread, 3, 300), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_OK);
    assert_int_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_TIMEOUT);
    assert_true(sg_outcome_info_get(batch_outs[1])->batch_unsure);
    batch_free(2);
    /* item 0 forges its own frame and ends the process: item 1 (which never ran) is unsure */
    const char *const forge[] = {"forge_and_exit()", "ok(2)", "ok(3)"};
    assert_int_equal(batch(w, forge, 3, 2000), 2);
    assert_int_equal(sg_outcome_info_get(batch_outs[0])->kind, SG_OUTCOME_OK);
    assert_int_not_equal(sg_outcome_info_get(batch_outs[1])->kind, SG_OUTCOME_OK);
    assert_true(sg_outcome_info_get(batch_outs[1])->batch_unsure);
    batch_free(2);
    /* alone, each is judged strictly: the forger fails, the honest item passes */
    expect_call(w, "forge_and_exit()", SG_OUTCOME_EXCEPTION, NULL);
    expect_call(w, "ok(2)", SG_OUTCOME_OK, "2");
    /* the first item of a batch has no earlier item to blame */
    const char *const first[] = {"forge_and_exit()"};
    assert_int_equal(batch(w, first, 1, 2000), 1);
    assert_false(sg_outcome_info_get(batch_outs[0])->batch_unsure);
    batch_free(1);
    sg_worker_free(w);
}

/* String hashing is the same in every worker (PYTHONHASHSEED=0): set order, hence results that
 * the golden stage compares between two workers, does not depend on the run. */
static void test_worker_hash_seed_fixed(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    char first[64] = "";
    for (int k = 0; k < 2; k++) {
        sg_worker *w = worker_of(worker_src, NULL);
        sg_outcome *o = NULL;
        const sg_outcome_info *i = call(w, "(hash('snipgate'), '' in __import__('sys').path)", &o);
        assert_int_equal(i->kind, SG_OUTCOME_OK);
        assert_non_null(strstr(i->value_repr, "False)")); /* no current directory on sys.path */
        if (k == 0)
            snprintf(first, sizeof first, "%s", i->value_repr);
        else
            assert_string_equal(first, i->value_repr);
        sg_outcome_free(o);
        sg_worker_free(w);
    }
}

/* stdlib_dicts: the genuine Counter (taken before the candidate ran) encodes as the dict it
 * holds; a look-alike class, or the genuine one without the option, has no encoding. */
static void test_worker_stdlib_dicts(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    static const char src[] = "import collections\n"
                              "Real = collections.Counter\n"
                              "class Counter(dict):\n    __module__ = 'collections'\n"
                              "    def __eq__(self, other): return True\n"
                              "collections.Counter = Counter\n";
    sg_worker_opts opts;
    sg_worker_opts_init(&opts);
    opts.stdlib_dicts = true;
    for (int with = 1; with >= 0; with--) {
        sg_worker *w = worker_of(src, with ? &opts : NULL);
        sg_outcome *o = NULL;
        const sg_outcome_info *i = call(w, "Real('abca')", &o);
        assert_int_equal(i->kind, SG_OUTCOME_OK);
        if (with) {
            assert_non_null(i->value_json);
            if (!strstr(i->value_json, "\"a\": 2") && !strstr(i->value_json, "\"a\":2"))
                fail_msg("value_json %s", i->value_json);
        } else {
            assert_null(i->value_json);
        }
        sg_outcome_free(o);
        /* a key holding NUL: the pair form (JSON readers refuse it as an object key) */
        i = call(w, "{'a\\x00b': 1, 'c': [2]}", &o);
        assert_int_equal(i->kind, SG_OUTCOME_OK);
        assert_non_null(i->value_json);
        assert_string_equal(i->value_json, "{\"$dict\": [[\"a\\u0000b\", 1], [\"c\", [2]]]}");
        sg_outcome_free(o);
        i = call(w, "collections.Counter(a=2)", &o); /* the candidate's look-alike */
        assert_int_equal(i->kind, SG_OUTCOME_OK);
        assert_null(i->value_json);
        assert_non_null(i->value_error);
        sg_outcome_free(o);
        sg_worker_free(w);
    }
}

static void test_bad_interpreter(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_sandbox *sb = NULL;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_sandbox_new("python3", &sb, &d), SG_ERR_INVALID_ARG);
    assert_int_equal(sg_sandbox_new("/nonexistent/python", &sb, &d), SG_ERR_INVALID_ARG);
    assert_null(sb);
    assert_int_equal(sg_sandbox_new(NULL, &sb, &d), SG_OK);
    assert_int_equal(sg_sandbox_set_host_ids(sb, 0, 65534, &d), SG_ERR_INVALID_ARG);
    assert_int_equal(sg_sandbox_set_host_ids(sb, 65534, 0, &d), SG_ERR_INVALID_ARG);
    assert_int_equal(sg_sandbox_set_host_ids(sb, 1234, 1234, &d), SG_OK);
    sg_sandbox_free(sb);
}

/* ---- pooled workers: one candidate after another in one sandbox ------------------------------- */

static sg_worker *pool_of_opts(const char *src, bool fast_count)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 1000;
    sg_worker_opts wo;
    sg_worker_opts_init(&wo);
    wo.pooled = true;
    wo.fast_count = fast_count;
    sg_worker *w = NULL;
    sg_outcome *imp = (sg_outcome *)&wo; /* set to NULL by sg_worker_new */
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_new(sandbox, src, strlen(src), &lim, &wo, &w, &imp, &d) != SG_OK)
        fail_msg("pooled worker: %s", d.message);
    assert_null(imp);
    return w;
}

static sg_worker *pool_of(const char *src)
{
    return pool_of_opts(src, false);
}

static void rebind(sg_worker *w, const char *src)
{
    sg_worker_opts wo;
    sg_worker_opts_init(&wo);
    wo.pooled = true;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_rebind(w, src, strlen(src), &wo, &d) != SG_OK)
        fail_msg("rebind: %s", d.message);
}

static sg_outcome_kind import_kind(sg_worker *w)
{
    sg_outcome *o = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_import(w, &o, &d) != SG_OK)
        fail_msg("import: %s", d.message);
    sg_outcome_kind k = sg_outcome_info_get(o)->kind;
    sg_outcome_free(o);
    return k;
}

/* A counted call (limits.cost_events): the count of Python events (calls and lines) is the
 * same on every run of the same call, grows with the work, is absent without a budget, and a
 * call past its budget is stopped at it (issue 26 item 5); also through a pooled worker and in a
 * batch, where each item is counted on its own. */
static const char cost_src[] = "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
                               "def loop(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n"
                               "def heavy(n):\n    t = 0\n    for i in range(n):\n        t += sum(range(20000))\n"
                               "    return t\n";

static uint64_t counted_cpu(sg_worker *w, const char *code, uint64_t budget, uint64_t cpu_ms, sg_outcome_kind *kind)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 1000;
    lim.cost_events = budget;
    lim.cost_cpu_ms = cpu_ms;
    sg_outcome *o = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_call(w, code, &lim, &o, &d) != SG_OK)
        fail_msg("call %s: %s", code, d.message);
    const sg_outcome_info *i = sg_outcome_info_get(o);
    if (kind)
        *kind = i->kind;
    if (!i->has_cost)
        fail_msg("%s: no cost reported (%s: %s)", code, sg_outcome_kind_name(i->kind), i->detail);
    uint64_t c = i->cost;
    sg_outcome_free(o);
    return c;
}

static uint64_t counted(sg_worker *w, const char *code, uint64_t budget, sg_outcome_kind *kind)
{
    return counted_cpu(w, code, budget, 0, kind);
}

/* the counts every counter must give (the Python one, the tracer's C one) */
static uint64_t counted_fib10, counted_loop100;

extern const size_t sg_sandbox_tracer_so_len; /* (sandbox/worker.c: 0 when not built in) */

static bool tracer_built(void)
{
    return sg_sandbox_tracer_so_len > 0;
}

/* Which counter a counted call runs under: the Python one is a sys.settrace function, the C
 * one installs no Python-visible trace function. */
static void expect_counter(sg_worker *w, bool c_counter)
{
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 1000;
    lim.cost_events = 1000;
    sg_outcome *o = NULL;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_worker_call(w, "__import__('sys').gettrace() is None", &lim, &o, &d) != SG_OK)
        fail_msg("counter: %s", d.message);
    assert_int_equal(sg_outcome_info_get(o)->kind, SG_OUTCOME_OK);
    assert_string_equal(sg_outcome_info_get(o)->value_repr, c_counter ? "True" : "False");
    sg_outcome_free(o);
}

static void check_counted_calls(sg_worker *w)
{
    sg_outcome_kind k;
    uint64_t a = counted(w, "fib(10)", 1000000, &k), b = counted(w, "fib(10)", 1000000, NULL);
    assert_int_equal(k, SG_OUTCOME_OK);
    assert_true(a == b);     /* deterministic */
    assert_true(a >= 177);   /* fib(10) makes 177 calls, each a call event and lines */
    if (!counted_fib10)
        counted_fib10 = a;
    assert_true(a == counted_fib10); /* the same in every worker, whichever counter it has */
    if (!counted_loop100)
        counted_loop100 = counted(w, "loop(100)", 1000000, NULL);
    assert_true(counted(w, "loop(100)", 1000000, NULL) == counted_loop100);
    /* limits.cost_cpu_ms: work inside builtins past the bound stops the call as past its
     * budget (checked every 1024 events); without it the same call runs into its CPU limit */
    uint64_t hv = counted_cpu(w, "heavy(100000)", 1000000, 20, &k);
    assert_int_equal(k, SG_OUTCOME_EXCEPTION);
    assert_true(hv == 1000001);
    assert_true(counted_cpu(w, "heavy(10)", 1000000, 20, &k) < 100); /* (fewer than 1024 events) */
    assert_int_equal(k, SG_OUTCOME_OK);
    uint64_t l1 = counted(w, "loop(100)", 1000000, NULL), l2 = counted(w, "loop(200)", 1000000, NULL);
    assert_true(l2 > l1 + 150); /* two line events per iteration */
    /* past its budget: stopped there, the count one over it */
    uint64_t big = counted(w, "fib(40)", 5000, &k);
    assert_true(big == 5001);
    assert_int_equal(k, SG_OUTCOME_EXCEPTION);
    /* without a budget: not counted, no cost */
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "fib(5)", &o);
    assert_int_equal(i->kind, SG_OUTCOME_OK);
    assert_false(i->has_cost);
    char *json = NULL;
    assert_int_equal(sg_outcome_to_json(o, &json), SG_OK);
    assert_null(strstr(json, "cost"));
    free(json);
    sg_outcome_free(o);
    /* a batch: every item counted on its own */
    const char *codes[2] = {"fib(10)", "loop(100)"};
    sg_outcome *outs[2] = {NULL, NULL};
    size_t done = 0;
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 1000;
    lim.cost_events = 1000000;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_worker_call_batch(w, codes, 2, &lim, outs, &done, &d), SG_OK);
    assert_int_equal(done, 2);
    assert_true(sg_outcome_info_get(outs[0])->has_cost && sg_outcome_info_get(outs[0])->cost == a);
    assert_true(sg_outcome_info_get(outs[1])->has_cost && sg_outcome_info_get(outs[1])->cost == l1);
    assert_int_equal(sg_outcome_to_json(outs[0], &json), SG_OK);
    assert_non_null(strstr(json, "\"cost\":"));
    assert_non_null(strstr(json, "\"cost_events\":1000000"));
    free(json);
    sg_outcome_free(outs[0]);
    sg_outcome_free(outs[1]);
    /* each item its own budget (sg_worker_call_batch_budgets): 0 leaves an item uncounted, a
     * small one stops its item alone (the next item runs), limits->cost_events is not used */
    const char *mixed[5] = {"loop(100)", "fib(40)", "fib(10)", "loop(100)", "loop(100)"};
    const uint64_t budgets[5] = {0, 300, 1000000, 0, 1000000};
    sg_outcome *mo[5] = {NULL, NULL, NULL, NULL, NULL};
    lim.cost_events = 7;
    assert_int_equal(sg_worker_call_batch_budgets(w, mixed, budgets, 5, &lim, mo, &done, &d), SG_OK);
    assert_int_equal(done, 5);
    const sg_outcome_info *m0 = sg_outcome_info_get(mo[0]), *m1 = sg_outcome_info_get(mo[1]),
                          *m2 = sg_outcome_info_get(mo[2]), *m3 = sg_outcome_info_get(mo[3]),
                          *m4 = sg_outcome_info_get(mo[4]);
    /* the last item (its outcome is made when the child exits) is counted as well */
    assert_int_equal(m4->kind, SG_OUTCOME_OK);
    assert_true(m4->has_cost && m4->cost == l1);
    assert_int_equal(m0->kind, SG_OUTCOME_OK);
    assert_false(m0->has_cost);
    assert_int_equal(m1->kind, SG_OUTCOME_EXCEPTION);
    assert_true(m1->has_cost && m1->cost == 301);
    assert_int_equal(m2->kind, SG_OUTCOME_OK);
    assert_true(m2->has_cost && m2->cost == a);
    assert_int_equal(m3->kind, SG_OUTCOME_OK);
    assert_false(m3->has_cost);
    assert_string_equal(m3->value_repr, "4950");
    assert_int_equal(sg_outcome_to_json(mo[1], &json), SG_OK);
    assert_non_null(strstr(json, "\"cost_events\":300"));
    free(json);
    assert_int_equal(sg_outcome_to_json(mo[0], &json), SG_OK);
    assert_null(strstr(json, "cost"));
    free(json);
    for (int q = 0; q < 5; q++)
        sg_outcome_free(mo[q]);
    assert_int_equal(sg_worker_call_batch_budgets(w, mixed, NULL, 4, &lim, mo, &done, &d), SG_ERR_INVALID_ARG);
}

static void test_worker_counted_calls(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = worker_of(cost_src, NULL);
    check_counted_calls(w);
    expect_counter(w, false);
    sg_worker_free(w);
    w = pool_of(cost_src);
    check_counted_calls(w);
    expect_counter(w, false);
    sg_worker_free(w);
    /* with the tracer's C counter (sg_worker_opts.fast_count, where the tracer is built in):
     * the same counts */
    sg_worker_opts wo;
    sg_worker_opts_init(&wo);
    wo.fast_count = true;
    w = worker_of(cost_src, &wo);
    check_counted_calls(w);
    expect_counter(w, tracer_built());
    sg_worker_free(w);
    w = pool_of_opts(cost_src, true);
    check_counted_calls(w);
    expect_counter(w, tracer_built());
    sg_worker_free(w);
}

static void test_pool_serves_candidates(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = pool_of("def f(x):\n    return x + 1\nG = []\n");
    expect_call(w, "f(1)", SG_OUTCOME_OK, "2");
    assert_int_equal(import_kind(w), SG_OUTCOME_OK);
    expect_call(w, "G.append(1) or len(G)", SG_OUTCOME_OK, "1");
    expect_call(w, "G.append(1) or len(G)", SG_OUTCOME_OK, "1"); /* each call imports afresh */
    /* each call writes on pipes made for it alone: stdout, stderr and the result pipe are new
     * (other inodes) every call, and the zygote's own pipes are not among its descriptors */
    {
        const char *ino = "tuple(__import__('os').fstat(fd).st_ino for fd in (1, 2, 6))";
        sg_outcome *a = NULL, *b = NULL;
        const sg_outcome_info *ia = call(w, ino, &a), *ib = call(w, ino, &b);
        assert_int_equal(ia->kind, SG_OUTCOME_OK);
        assert_int_equal(ib->kind, SG_OUTCOME_OK);
        long a1, a2, a3, b1, b2, b3;
        assert_int_equal(sscanf(ia->value_repr, "(%ld, %ld, %ld)", &a1, &a2, &a3), 3);
        assert_int_equal(sscanf(ib->value_repr, "(%ld, %ld, %ld)", &b1, &b2, &b3), 3);
        if (a1 == b1 || a2 == b2 || a3 == b3 || a1 == a2 || a2 == a3)
            fail_msg("pipes shared between calls: %s then %s", ia->value_repr, ib->value_repr);
        sg_outcome_free(a);
        sg_outcome_free(b);
        /* a `done` frame (the zygote's word that the call is over) on the call's own pipe is a
         * protocol error, not the end of the call */
        expect_call(w,
                    "__import__('os').write(6, (lambda b: len(b).to_bytes(4, 'little') + b)("
                    "b'k' + (4).to_bytes(4, 'little') + b'done')) and 1",
                    SG_OUTCOME_EXCEPTION, NULL);
        expect_call(w, "f(1)", SG_OUTCOME_OK, "2");
    }
    /* another candidate: nothing of the first one is left */
    rebind(w, "def g():\n    return 'second'\n");
    expect_call(w, "g()", SG_OUTCOME_OK, "'second'");
    expect_call(w, "f(1)", SG_OUTCOME_EXCEPTION, NULL);
    const char *items[] = {"g()", "1 / 0", "g() * 2"};
    sg_outcome *outs[3];
    size_t done = 0;
    sg_diag d;
    sg_diag_init(&d);
    assert_int_equal(sg_worker_call_batch(w, items, 3, NULL, outs, &done, &d), SG_OK);
    assert_int_equal(done, 3);
    assert_string_equal(sg_outcome_info_get(outs[0])->value_repr, "'second'");
    assert_int_equal(sg_outcome_info_get(outs[1])->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(sg_outcome_info_get(outs[2])->value_repr, "'secondsecond'");
    for (int k = 0; k < 3; k++)
        sg_outcome_free(outs[k]);
    /* a candidate whose import fails: every call gets the import's outcome, with its line */
    rebind(w, "x = 1\nraise ValueError('at import')\ndef h():\n    return 1\n");
    sg_outcome *o = NULL;
    const sg_outcome_info *i = call(w, "h()", &o);
    assert_int_equal(i->kind, SG_OUTCOME_EXCEPTION);
    assert_string_equal(i->exc_type, "ValueError");
    assert_int_equal(i->exc_line, 2);
    sg_outcome_free(o);
    assert_int_equal(import_kind(w), SG_OUTCOME_EXCEPTION);
    /* sys.exit at the top level is not an import */
    rebind(w, "import sys\nsys.exit(0)\n");
    assert_int_equal(import_kind(w), SG_OUTCOME_EXCEPTION);
    /* an import that spins is stopped by the call's limits; the next candidate runs */
    rebind(w, "while True:\n    pass\n");
    expect_call(w, "1", SG_OUTCOME_TIMEOUT, NULL);
    rebind(w, "# coding: latin-1\nS = '\xe9'\n"); /* a source's coding cookie is honoured */
    expect_call(w, "S == '\\u00e9'", SG_OUTCOME_OK, "True");
    rebind(w, "def f(x):\n    return x * 10\n");
    expect_call(w, "f(4)", SG_OUTCOME_OK, "40");
    assert_int_equal(sg_worker_starts(w), 3); /* two restarts: the forged `done`'s, the timeout's */
    /* the zygote imported the allow-listed standard-library modules at its start (the same
     * whatever came before); never another one (`this` prints when imported) */
    rebind(w, "import sys\nPRE = sorted(m for m in ('re', 'this', 'heapq', 'inspect') if m in sys.modules)\n");
    expect_call(w, "PRE", SG_OUTCOME_OK, "['heapq', 'inspect', 're']");
    /* what a pooled worker does not do */
    assert_int_equal(sg_worker_stream_begin(w, NULL, &d), SG_ERR_UNSUPPORTED);
    sg_worker_free(w);
    sg_worker *plain = worker_of(worker_src, NULL);
    assert_int_equal(sg_worker_rebind(plain, "x = 1\n", 6, NULL, &d), SG_ERR_INVALID_ARG);
    sg_worker_free(plain);
}

/* A hostile candidate in a pooled worker cannot reach the next candidate's calls: not through
 * the zygote's memory or descriptors (non-dumpable), not with signals (blocked, or fatal to its
 * own call), not with forged frames or output left in the pipes. */
/* A hostile candidate of a pooled worker: each attack aims at what the candidates after it would
 * share with it (the zygote, pid 1, /tmp, the pipes). The candidate runs as pid 2 of the call's
 * own pid namespace, whose pid 1 is the call's init (the runner, trusted): the zygote and the
 * sandbox's pid 1 have no pid there (3, 4 and 100 name nothing). */
static const char pool_hostile[] =
    "import os, signal, fcntl, time\n"
    "def attack(what):\n"
    "    if what == 'who':\n"
    "        return (os.getpid(), os.getppid(), sorted(os.listdir('/proc')))\n"
    "    if what == 'mem':\n"
    "        try:\n"
    "            open('/proc/1/mem', 'r+b')\n"
    "            return 'OPENED'\n"
    "        except OSError as e:\n"
    "            return type(e).__name__\n"
    "    if what == 'stat':\n"
    "        try:\n"
    "            return open('/proc/3/stat').read()\n"
    "        except OSError as e:\n"
    "            return type(e).__name__\n"
    "    if what == 'fd':\n"
    "        for fd in (5, 6):\n"
    "            try:\n"
    "                os.open('/proc/1/fd/%d' % fd, os.O_WRONLY)\n"
    "                return 'OPENED %d' % fd\n"
    "            except OSError as e:\n"
    "                err = type(e).__name__\n"
    "        return err\n"
    "    if what == 'signals':\n"
    "        out = []\n"
    "        for pid in (3, 4, 100):\n"
    "            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1, signal.SIGSTOP):\n"
    "                try:\n"
    "                    os.kill(pid, s)\n"
    "                    out.append('sent')\n"
    "                except OSError as e:\n"
    "                    out.append(type(e).__name__)\n"
    "        return sorted(set(out))\n"
    "    if what == 'rtsig':\n"
    "        for k in range(1000):\n"
    "            try:\n"
    "                os.kill(3, signal.SIGRTMIN)\n"
    "            except Exception:\n"
    "                pass\n"
    "        return 'queued'\n"
    "    if what == 'chmod':\n"
    "        os.chmod('.', 0)\n"
    "        os.utime('.', (12345, 67890))\n"
    "        return 'chmod'\n"
    "    if what == 'nonblock':\n"
    "        for fd in (1, 2, 6):\n"
    "            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)\n"
    "        return 'nonblock'\n"
    "    if what == 'frames':\n"
    "        def field(t, v):\n"
    "            v = v.encode()\n"
    "            return t.encode() + len(v).to_bytes(4, 'little') + v\n"
    "        for cid in range(1, 64):\n"
    "            for k, n in (('ready', 0), ('ok', 1), ('done', None)):\n"
    "                body = field('k', k) + field('r', '666') + field('y', 'int') + field('j', '666')\n"
    "                body += field('i', str(cid)) + (field('n', str(n)) if n is not None else b'')\n"
    "                os.write(6, len(body).to_bytes(4, 'little') + body)\n"
    "        return 'forged'\n"
    "    if what == 'output':\n"
    "        os.write(1, b'A' * 60000)\n"
    "        os.write(2, b'B' * 60000)\n"
    "        return 'written'\n"
    "    if what == 'partial':\n"
    "        os.write(6, (1000000).to_bytes(4, 'little') + b'k')\n"
    "        return 'partial'\n"
    "    if what == 'stop':\n"
    "        os.kill(1, signal.SIGSTOP)\n"
    "        return 'stopped'\n";

/* The honest candidate after each attack: a file of its own in /tmp, 100 KB of output and a
 * 100 KB value (pipes that another call left non-blocking would cut them). */
static const char pool_victim[] =
    "def victim():\n"
    "    import os\n"
    "    open('/tmp/mine', 'w').write('x' * 1000)\n"
    "    assert sorted(os.listdir('/tmp')) == ['mine'], os.listdir('/tmp')\n"
    "    print('v' * 100000)\n"
    "    return [7] * 20000\n";

static void test_pool_hostile_candidate(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = pool_of(pool_hostile);
    /* the candidate sees its own pid namespace only: itself and the call's init */
    expect_call(w, "attack('who')", SG_OUTCOME_OK, "(2, 1, ['1', '2', 'self', 'thread-self'])");
    expect_call(w, "attack('mem')", SG_OUTCOME_OK, "'PermissionError'");
    expect_call(w, "attack('stat')", SG_OUTCOME_OK, "'FileNotFoundError'");
    expect_call(w, "attack('fd')", SG_OUTCOME_OK, "'PermissionError'");
    expect_call(w, "attack('signals')", SG_OUTCOME_OK, "['ProcessLookupError']");
    sg_sandbox_limits lim;
    sg_sandbox_limits_init(&lim);
    lim.wall_ms = 3000;
    lim.cpu_ms = 2000;
    const char *attacks[] = {"rtsig", "chmod", "nonblock", "frames", "output", "partial", "stop",
                             "prlimit", "sigkill"};
    for (size_t k = 0; k < sizeof attacks / sizeof attacks[0]; k++) {
        rebind(w, pool_hostile);
        char text[160];
        if (!strcmp(attacks[k], "prlimit"))
            snprintf(text, sizeof text, "__import__('resource').prlimit(2, __import__('resource').RLIMIT_NOFILE, (4, 4))");
        else if (!strcmp(attacks[k], "sigkill")) /* any SIGKILL from inside, even to itself */
            snprintf(text, sizeof text, "__import__('os').kill(1, 9)");
        else
            snprintf(text, sizeof text, "attack('%s')", attacks[k]);
        sg_outcome *o = NULL;
        sg_diag d;
        sg_diag_init(&d);
        assert_int_equal(sg_worker_call(w, text, &lim, &o, &d), SG_OK); /* whatever it gets */
        if (!strcmp(attacks[k], "prlimit")) {
            assert_int_equal(sg_outcome_info_get(o)->kind, SG_OUTCOME_FORBIDDEN_SYSCALL);
            assert_string_equal(sg_outcome_info_get(o)->syscall, "prlimit64");
        }
        if (!strcmp(attacks[k], "sigkill")) {
            assert_int_equal(sg_outcome_info_get(o)->kind, SG_OUTCOME_FORBIDDEN_SYSCALL);
            assert_string_equal(sg_outcome_info_get(o)->syscall, "kill");
        }
        sg_outcome_free(o);
        /* the next candidate: its own value, its own /tmp, none of the attacker's output */
        rebind(w, pool_victim);
        for (int rep = 0; rep < 2; rep++) {
            const sg_outcome_info *i = call(w, "victim()", &o);
            if (i->kind != SG_OUTCOME_OK || strncmp(i->value_repr, "[7, 7", 5))
                fail_msg("after %s: %s %.200s", attacks[k], sg_outcome_kind_name(i->kind),
                         i->value_repr ? i->value_repr : i->detail);
            assert_int_equal(strlen(i->stdout_data), 100001);
            assert_string_equal(i->stderr_data, "");
            sg_outcome_free(o);
        }
    }
    sg_worker_free(w);
}

static void *start_pool_worker(void *ret)
{
    *(sg_worker **)ret = pool_of("def f():\n    return 5\n");
    expect_call(*(sg_worker **)ret, "f()", SG_OUTCOME_OK, "5");
    return NULL;
}

/* A worker started on a thread that has exited (its sandbox got the parent-death signal) is
 * restarted by its next call, on the calling thread, instead of failing on the dead one. */
static void test_worker_outlives_its_thread(void **state)
{
    (void)state;
    if (!kernel_ok())
        skip();
    sg_worker *w = NULL;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, start_pool_worker, &w), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_non_null(w);
    struct timespec ts = {0, 100 * 1000000L}; /* the kernel's kill of the orphaned sandbox */
    nanosleep(&ts, NULL);
    expect_call(w, "f()", SG_OUTCOME_OK, "5");
    assert_int_equal(sg_worker_starts(w), 2);
    expect_call(w, "f()", SG_OUTCOME_OK, "5");
    assert_int_equal(sg_worker_starts(w), 2);
    sg_worker_free(w);
}

/* The kernel group: a sandbox if the kernel allows one. A refusal is not a group failure: the
 * tests skip loudly (and fail under CI=true), and main() reports 77. */
static int setup_kernel(void **state)
{
    (void)state;
    sg_diag d;
    sg_diag_init(&d);
    if (sg_sandbox_new(NULL, &sandbox, &d) != SG_OK) {
        print_message("*** the kernel refuses the sandbox: %s\n", d.message);
        sandbox = NULL;
        kernel_refused = true;
    }
    return 0;
}

static int teardown_kernel(void **state)
{
    (void)state;
    sg_sandbox_free(sandbox);
    sandbox = NULL;
    return 0;
}

int main(void)
{
    /* Kernel-free: always run, whatever the kernel allows. */
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(test_limits_parse), cmocka_unit_test(test_classify),
        cmocka_unit_test(test_frames),       cmocka_unit_test(test_frame_stream),
        cmocka_unit_test(test_seccomp_policy),
        cmocka_unit_test(test_json_fields),
        cmocka_unit_test(test_exc_mro_field),
    };
    const struct CMUnitTest kernel[] = {
        cmocka_unit_test(test_worker_returns_values),
        cmocka_unit_test(test_worker_calls_share_no_memory),
        cmocka_unit_test(test_worker_exception_has_snippet_line),
        cmocka_unit_test(test_worker_forbidden_call_restarts_sandbox),
        cmocka_unit_test(test_worker_call_may_not_fork),
        cmocka_unit_test(test_worker_call_cpu_limit),
        cmocka_unit_test(test_worker_many_calls),
        cmocka_unit_test(test_worker_failed_import_fails_every_call),
        cmocka_unit_test(test_worker_runner_from_source),
        cmocka_unit_test(test_worker_fresh_tmp_per_call),
        cmocka_unit_test(test_worker_calls_share_no_descriptors),
        cmocka_unit_test(test_worker_stale_frame_dropped),
        cmocka_unit_test(test_worker_call_exit_observed),
        cmocka_unit_test(test_worker_batch),
        cmocka_unit_test(test_worker_batch_output_cap_per_item),
        cmocka_unit_test(test_worker_hash_seed_fixed),
        cmocka_unit_test(test_worker_stdlib_dicts),
        cmocka_unit_test(test_worker_batch_stops_at_failure),
        cmocka_unit_test(test_worker_batch_unsure_blame),
        cmocka_unit_test(test_bad_interpreter),
        cmocka_unit_test(test_worker_counted_calls),
        cmocka_unit_test(test_pool_serves_candidates),
        cmocka_unit_test(test_pool_hostile_candidate),
        cmocka_unit_test(test_worker_outlives_its_thread),
    };
    int failed = cmocka_run_group_tests_name("kernel-free", pure, NULL, NULL);
    failed += cmocka_run_group_tests_name("sandbox", kernel, setup_kernel, teardown_kernel);
    if (failed)
        return 1;
    return kernel_refused ? 77 : 0;
}
