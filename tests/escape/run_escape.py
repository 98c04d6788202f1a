#!/usr/bin/env python3
"""Escape suite for the snipgate sandbox (test driver only; it never runs inside the sandbox).

Each cases/*.py is a hostile snippet. Header lines say what must happen:
    # expect: forbidden_syscall|exception   outcome(s) accepted
    # syscall: ptrace                       the forbidden syscall's name (or names: a|b)
    # timeout_kind: cpu                     cpu or wall
    # args: --wall 1                        extra `snipgate run` arguments
    # check: listener_silent                a check made OUTSIDE the sandbox that the attack failed
    # stdout-excludes: a|b                  regex that must not match stdout+stderr
    # stdout-contains: text                 literal that must be in stdout
    # max_wall_ms: 5000                     upper bound on the reported wall time
Placeholders filled in by this driver: {PORT} (a TCP+UDP listener on 127.0.0.1 that must receive
nothing), {HOSTFILE} (a host path that must not appear), {SECRET} (a value placed in snipgate's
environment that must not leak), {SENTINEL_PID} (a host process that must survive).

After all cases: no process of any sandbox left, no mount added, no cgroup left, no file left.
A kernel that refuses the sandbox is a loud SKIP (exit 77), or a FAILURE when CI=true.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SECRET = "sg-escape-secret-7f3a9c"
SANDBOX_ID = 65534  # the default host uid/gid of a sandbox started by root
MARKER = "/tmp/sg_escape_marker"


class Listener:
    """TCP and UDP on one 127.0.0.1 port; records anything that reaches it."""

    def __init__(self):
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.tcp.bind(("127.0.0.1", 0))
        self.port = self.tcp.getsockname()[1]
        self.tcp.listen(16)
        self.tcp.settimeout(0.2)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.udp.settimeout(0.2)
        self.events = []
        self.stop = False
        self.threads = [threading.Thread(target=self._tcp, daemon=True),
                        threading.Thread(target=self._udp, daemon=True)]
        for t in self.threads:
            t.start()

    def _tcp(self):
        while not self.stop:
            try:
                conn, addr = self.tcp.accept()
                self.events.append(("tcp", addr))
                conn.close()
            except socket.timeout:
                pass
            except OSError:
                return

    def _udp(self):
        while not self.stop:
            try:
                data, addr = self.udp.recvfrom(65536)
                self.events.append(("udp", addr, data))
            except socket.timeout:
                pass
            except OSError:
                return

    def close(self):
        self.stop = True
        for t in self.threads:
            t.join()
        self.tcp.close()
        self.udp.close()


def parse_case(path):
    meta = {"expect": [], "checks": [], "excludes": [], "contains": [], "args": []}
    with open(path) as f:
        text = f.read()
    for line in text.splitlines():
        m = re.match(r"#\s*([a-z_-]+):\s*(.*)$", line)
        if not m:
            break
        key, val = m.group(1), m.group(2).strip()
        if key == "expect":
            meta["expect"] = val.split("|")
        elif key == "check":
            meta["checks"].append(val)
        elif key == "stdout-excludes":
            meta["excludes"].append(val)
        elif key == "stdout-contains":
            meta["contains"].append(val)
        elif key == "args":
            # --call takes the rest of the line (it may hold spaces): put it last
            head, sep, call = val.partition("--call ")
            meta["args"] = head.split() + (["--call", call] if sep else [])
        else:
            meta[key] = val
    return text, meta


def procs_of_sandboxes():
    """Host processes that belong to any sandbox (pid 1 is named sg-init; the runner's argv)."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % d) as f:
                comm = f.read().strip()
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if comm == "sg-init" or b"<sg-runner>" in cmd:
            found.append((int(d), comm))
    return found


# Attribution: the suite runs beside other users of the machine (other test runs, services), so
# after-suite checks count only what this run's own snipgate processes left. The driver is a child
# subreaper: a sandbox process orphaned by its snipgate is re-parented to the driver, not lost.
OUR_SUPERVISORS = set()


def become_subreaper():
    import ctypes
    if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def parent_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def ours(pid):
    """True if `pid` descends from this driver (its snipgate processes, or orphans it adopted)."""
    me, seen = os.getpid(), 0
    while pid > 1 and seen < 64:
        pid = parent_of(pid)
        if pid == me:
            return True
        seen += 1
    return False


def our_sandbox_procs():
    return [p for p in procs_of_sandboxes() if ours(p[0])]


def sg_run(cmd, env=None, timeout=120, preexec_fn=None):
    """subprocess.run(cmd, capture_output=True, ...) that records snipgate's pid (whose cgroups
    are named snipgate-<pid>-N)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, preexec_fn=preexec_fn)
    OUR_SUPERVISORS.add(proc.pid)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def cgroup_leftovers(only_ours=True):
    left = []
    for base in glob.glob("/sys/fs/cgroup/*/") + ["/sys/fs/cgroup/"]:
        for root, dirs, _ in os.walk(base):
            left += [os.path.join(root, d) for d in dirs
                     if re.match(r"snipgate-(\d+)-", d) and (not only_ours or int(d.split("-")[1]) in OUR_SUPERVISORS)]
            if root.count("/") > 8:
                dirs[:] = []
    return left


VOLATILE_SYSCTLS = ("kernel/ns_last_pid", "kernel/random/", "fs/dentry-state", "fs/inode-",
                    "fs/file-nr", "kernel/pty/nr", "fs/quota/", "vm/stat_refresh")


def sysctl_snapshot():
    """Every sysctl this user could write, with its value: the host state a sandbox must not touch."""
    snap = {}
    for root, dirs, files in os.walk("/proc/sys"):
        for n in files:
            path = os.path.join(root, n)
            rel = path[len("/proc/sys/"):]
            if any(rel.startswith(v) for v in VOLATILE_SYSCTLS) or not os.access(path, os.W_OK):
                continue
            try:
                with open(path, "rb") as f:
                    snap[rel] = f.read(4096)
            except OSError:
                pass
    return snap


def sysctl_changes(before):
    after = sysctl_snapshot()
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def plant_cgroups(pid, n=0):
    """Make snipgate-<pid>-<n> directories in the cgroups snipgate would use (ours): what a
    supervisor killed outright leaves behind. Root only; returns what was made."""
    planted = []
    if os.geteuid() != 0:
        return planted
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for ctrl in ctrls.split(","):
                if ctrl in ("memory", "pids"):
                    d = "/sys/fs/cgroup/%s%s/snipgate-%d-%d" % (ctrl, path.rstrip("/"), pid, n)
                    try:
                        os.mkdir(d)
                        planted.append(d)
                    except OSError:
                        pass
    return planted


def plant_stale_cgroups():
    """What a supervisor killed outright leaves, for a pid that is dead now. The next snipgate
    must remove them."""
    dead = 4000000
    while True:
        try:
            os.kill(dead, 0)
            dead += 1
        except ProcessLookupError:
            break
        except PermissionError:
            dead += 1
    return plant_cgroups(dead)


def check_reused_pid_cleanup(binary, probe):
    """A dead supervisor's cgroups whose pid the next snipgate gets (pids are reused; seen in CI):
    that snipgate must remove them too, not take them for its own. Planted from the child just
    before it becomes snipgate, so the pid is the one snipgate runs with. Root only."""
    if os.geteuid() != 0:
        return []
    planted = []

    def plant():
        planted.extend(plant_cgroups(os.getpid(), 4242))
        with open(os.path.join(os.path.dirname(probe), "planted"), "w") as f:
            f.write("\n".join(planted))
    p = subprocess.run([binary, "run", probe, "--format", "json"], capture_output=True, preexec_fn=plant)
    with open(os.path.join(os.path.dirname(probe), "planted")) as f:
        planted = [l for l in f.read().splitlines() if l]
    problems = []
    if not planted:
        problems.append("could not plant a reused-pid cgroup (no memory or pids cgroup of ours)")
    if p.returncode != 0:
        problems.append("snipgate run of the probe exited %d: %r" % (p.returncode, p.stderr[-300:]))
    left = [d for d in planted if os.path.exists(d)]
    for d in left:
        try:
            os.rmdir(d)
        except OSError:
            pass
    if left:
        problems.append("a dead predecessor's cgroups with snipgate's own pid were not removed: %r" % left)
    return problems


def mount_count():
    with open("/proc/self/mountinfo") as f:
        return len(f.readlines())


IA32_PROBE = r"""
import ctypes, mmap
code = bytes([0xb8, 0x14, 0, 0, 0, 0xcd, 0x80, 0xc3])  # mov eax, 20 (getpid); int 0x80; ret
buf = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
buf.write(code)
print(ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(buf)))())
"""


def host_has(feature):
    """Kernel features some cases need, probed on the host (harmless probes only)."""
    if feature == "ia32_syscalls":  # kernels built or booted without ia32 emulation fault on int 0x80
        p = subprocess.run(["/usr/bin/python3", "-c", IA32_PROBE], capture_output=True)
        return p.returncode == 0
    raise ValueError("unknown requirement %r" % feature)


def run_case(binary, path, ctx):
    text, meta = parse_case(path)
    name = os.path.basename(path)[:-3]
    if "requires" in meta and not host_has(meta["requires"]):
        return name, [], 0.0, {"outcome": "skipped (host kernel lacks %s)" % meta["requires"]}
    hostfile = os.path.join(ctx["hostdir"], name + ".escaped")
    src = (text.replace("{PORT}", str(ctx["listener"].port))
               .replace("{HOSTFILE}", hostfile)
               .replace("{SECRET}", SECRET)
               .replace("{SENTINEL_PID}", str(ctx["sentinel"].pid)))
    case_file = os.path.join(ctx["workdir"], name + ".py")
    with open(case_file, "w") as f:
        f.write(src)
    env = dict(os.environ, SNIPGATE_ESCAPE_SECRET=SECRET)
    for kv in meta.get("env", "").split():
        k, _, v = kv.partition("=")
        env[k] = v
    pad = []
    if "argv_pad_bytes" in meta:  # many arguments: pid 1's copy of our argv must still be wiped
        n = int(meta["argv_pad_bytes"])
        pad = ["--tmp", "16"] * (n // len("--tmp 16 ") + 1)
    cmd = [binary, "run", case_file, "--format", "json"] + meta["args"] + pad
    t0 = time.monotonic()
    # repeat: N runs a racy case N times; every run must meet every expectation.
    # variants: K=V|K=V runs it again with each extra environment (another kernel path).
    for variant in [""] + [v for v in meta.get("variants", "").split("|") if v]:
        venv = dict(env)
        for kv in variant.split():
            k, _, v = kv.partition("=")
            venv[k] = v
        for _ in range(int(meta.get("repeat", "1"))):
            _, errors, out = check_run(cmd, venv, meta, ctx, name, hostfile)
            if errors:
                errors = ["[%s] %s" % (variant, e) for e in errors] if variant else errors
                return name, errors, time.monotonic() - t0, out
    return name, errors, time.monotonic() - t0, out


def sandbox_identities():
    """Host view of every sandbox process: (comm, uids, gids, groups) from /proc/PID/status."""
    found = []
    for pid, comm in our_sandbox_procs():
        try:
            with open("/proc/%d/status" % pid) as f:
                st = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
        except OSError:
            continue
        found.append((comm, st["Uid"].split(), st["Gid"].split(), st["Groups"].split()))
    return found


def big_argv_room():
    """Room for megabytes of arguments (the kernel allows a quarter of the stack limit)."""
    resource.setrlimit(resource.RLIMIT_STACK, (64 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))


def run_sampled(cmd, env):
    """Run the case while sampling, from the host, the ids its sandbox processes have."""
    seen, done = [], threading.Event()

    def sample():
        while not done.is_set():
            seen.extend(sandbox_identities())
            time.sleep(0.01)
    t = threading.Thread(target=sample)
    t.start()
    try:
        return sg_run(cmd, env=env), seen
    finally:
        done.set()
        t.join()


def run_and_signal(cmd, env, spec):
    """supervisor: SIG@SECONDS sends SIG to snipgate itself mid-run; 'pipe' closes its stdout."""
    if spec == "pipe":
        r, w = os.pipe()
        proc = subprocess.Popen(cmd, stdout=w, stderr=subprocess.PIPE, env=env)
        OUR_SUPERVISORS.add(proc.pid)
        os.close(w)
        os.close(r)  # nobody will read the outcome
        _, err = proc.communicate(timeout=120)
        return proc.returncode, err, None
    sig, _, delay = spec.partition("@")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    OUR_SUPERVISORS.add(proc.pid)
    mine, until = set(), time.monotonic() + float(delay)
    while time.monotonic() < until:  # this supervisor's sandboxes: sg-init whose parent it is
        for pid, comm in procs_of_sandboxes():
            try:
                with open("/proc/%d/stat" % pid) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == proc.pid:
                        mine.add(pid)
            except (OSError, ValueError, IndexError):
                pass
        time.sleep(0.02)
    proc.send_signal(getattr(signal, "SIG" + sig))
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err, mine


def check_run(cmd, env, meta, ctx, name, hostfile):
    if "supervisor" in meta:
        # The supervisor is stopped mid-run: no outcome, a clean exit code, and nothing left on
        # the host (processes, cgroups: checked here and again after the suite).
        spec = meta["supervisor"]
        rc, err, mine = run_and_signal(cmd, env, spec)
        errors = []
        want = 3 if spec == "pipe" else 128 + getattr(signal, "SIG" + spec.partition("@")[0])
        if rc != want:
            errors.append("snipgate exited %d, expected %d (%r)" % (rc, want, err[-300:]))
        if mine is not None and not mine:
            errors.append("no sandbox of this supervisor was seen before the signal")
        left = [p for p in procs_of_sandboxes() if mine is None or p[0] in mine]
        if mine is not None and left:
            errors.append("sandbox processes left after the supervisor stopped: %r" % left)
        return name, errors, {"outcome": "stopped (%s)" % spec}
    if "host_ids" in meta["checks"]:
        p, seen = run_sampled(cmd, env)
    else:
        p, seen = sg_run(cmd, env=env, preexec_fn=big_argv_room if len(cmd) > 1000 else None), []
    errors = []
    try:
        out = json.loads(p.stdout)
    except ValueError:
        return name, ["no JSON (exit %d): %r %r" % (p.returncode, p.stdout[:300], p.stderr[:300])], None
    got = out["outcome"]
    if "expect-rlimit" in meta and out.get("limits", {}).get("memory_mechanism") == "rlimit":
        meta = dict(meta, expect=meta["expect-rlimit"].split("|"))
    if got not in meta["expect"]:
        errors.append("outcome %s, expected %s (%s)" % (got, "|".join(meta["expect"]), out.get("detail")))
    if "syscall" in meta and out.get("syscall") not in meta["syscall"].split("|"):
        errors.append("syscall %r, expected %r" % (out.get("syscall"), meta["syscall"]))
    if "timeout_kind" in meta and out.get("timeout_kind") != meta["timeout_kind"]:
        errors.append("timeout_kind %r, expected %r" % (out.get("timeout_kind"), meta["timeout_kind"]))
    if "max_cpu_ms" in meta and out["cpu_ms"] > int(meta["max_cpu_ms"]):
        errors.append("cpu_ms %d over %s" % (out["cpu_ms"], meta["max_cpu_ms"]))
    if "max_json_bytes" in meta and len(p.stdout) > int(meta["max_json_bytes"]):
        errors.append("%d bytes of JSON, over %s" % (len(p.stdout), meta["max_json_bytes"]))
    if "max_wall_ms" in meta and out["wall_ms"] > int(meta["max_wall_ms"]):
        errors.append("wall_ms %d over %s" % (out["wall_ms"], meta["max_wall_ms"]))
    want_rc = 0 if got == "ok" else 1
    if p.returncode != want_rc:
        errors.append("exit code %d for outcome %s" % (p.returncode, got))
    both = out["stdout"] + out["stderr"]
    for pat in meta["excludes"]:
        pat = pat.replace("{SECRET}", SECRET)
        if re.search(pat, both):
            errors.append("output matches forbidden pattern %r" % pat)
    for lit in meta["contains"]:
        if lit not in out["stdout"]:
            errors.append("stdout lacks %r" % lit)
    if SECRET in both or SECRET in json.dumps(out.get("exception")):
        errors.append("the environment secret leaked")
    # Checks made outside the sandbox.
    for check in meta["checks"]:
        if check == "listener_silent":
            if ctx["listener"].events:
                errors.append("listener on 127.0.0.1 received %r" % ctx["listener"].events)
        elif check == "hostfile_absent":
            if os.path.exists(hostfile) or any(os.path.exists(p) for p in (
                    "/usr/lib/python3.11/sg_escape_evil.py", "/sg_evil", "/usr/bin/sg_evil", "/sg_evil_dir")):
                errors.append("a host file was written")
        elif check == "few_pids":
            pids = [int(x) for x in out["stdout"].split()]
            if not pids or max(pids) > 16 or os.getpid() in pids and os.getpid() > 16:
                errors.append("host pids visible: %r" % pids[:20])
        elif check == "sentinel_alive":
            if ctx["sentinel"].poll() is not None:
                errors.append("the host sentinel process was killed")
        elif check == "host_hostname_unchanged":
            if socket.gethostname() != ctx["hostname"]:
                errors.append("the host's hostname changed to %r" % socket.gethostname())
        elif check == "host_ids":
            # As root the sandbox must be the unprivileged SANDBOX_ID, else our own ids; never 0,
            # and no supplementary group inherited from a root supervisor.
            want = str(SANDBOX_ID if os.geteuid() == 0 else os.geteuid())
            if not seen:
                errors.append("no sandbox process was seen from the host")
            # The interpreter is what runs the candidate's code (pid 1 runs only snipgate's own
            # code, and is briefly the supervisor's ids while it waits for the maps).
            seen = [x for x in seen if x[0] != "sg-init"]
            if not seen:
                errors.append("no interpreter of the sandbox was seen from the host")
            for comm, uids, gids, groups in seen:
                if set(uids) != {want} or "0" in gids or (os.geteuid() == 0 and groups):
                    errors.append("%s runs as uid %s gid %s groups %s on the host" % (comm, uids, gids, groups))
                    break
        elif check == "no_daemon":
            pass  # covered by the global leftover-process check
        elif check == "tmp_marker_absent":
            if os.path.exists(MARKER):
                errors.append("a sandbox /tmp file reached the host")
        else:
            errors.append("unknown check %r" % check)
    return name, errors, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    ap.add_argument("--as-user", type=int, default=None,
                    help="run as root, drop to this uid/gid (and no groups) first: the suite as an "
                         "unprivileged user")
    args = ap.parse_args()
    if args.as_user is not None:
        if os.geteuid() != 0:
            print("*** SKIP: --as-user needs root (this run is unprivileged already)", file=sys.stderr)
            return 77
        # Copies the unprivileged user can reach whatever the permissions of the checkout are.
        stage = tempfile.mkdtemp(prefix="sg-escape-unpriv-")
        os.chmod(stage, 0o755)
        binary = os.path.join(stage, "snipgate")
        shutil.copy2(args.binary, binary)
        shutil.copytree(args.cases, os.path.join(stage, "cases"))
        for root, dirs, files in os.walk(stage):
            for n in dirs + files:
                os.chmod(os.path.join(root, n), 0o755)
        args.binary, args.cases = binary, os.path.join(stage, "cases")
        os.setgroups([])
        os.setgid(args.as_user)
        os.setuid(args.as_user)
        os.environ["HOME"] = "/tmp"
    in_ci = os.environ.get("CI") == "true"
    become_subreaper()

    with tempfile.TemporaryDirectory(prefix="sg-escape-") as workdir:
        probe = os.path.join(workdir, "probe.py")
        with open(probe, "w") as f:
            f.write("pass\n")
        p = subprocess.run([args.binary, "run", probe, "--format", "json"], capture_output=True)
        try:
            outcome = json.loads(p.stdout)
        except ValueError:
            outcome = {"outcome": "setup_error", "detail": p.stderr.decode(errors="replace")}
        if outcome["outcome"] != "ok":
            msg = "*** SANDBOX UNAVAILABLE: %s" % outcome.get("detail")
            print(msg, file=sys.stderr)
            if in_ci:
                print("*** FAILURE: CI=true requires every kernel feature", file=sys.stderr)
                return 1
            print("*** SKIPPING the escape suite (set CI=true to make this a failure)", file=sys.stderr)
            return 77

        # Two snapshots a moment apart: what changes on its own is not the suite's doing.
        sysctls_before = sysctl_snapshot()
        time.sleep(0.2)
        for k in sysctl_changes(sysctls_before):
            sysctls_before.pop(k, None)
        mounts_before = mount_count()
        stale = plant_stale_cgroups()
        reused_pid_problems = check_reused_pid_cleanup(args.binary, probe)
        cgroups_before = set(cgroup_leftovers(only_ours=False))
        host_tmp_before = set(os.listdir("/tmp"))
        listener = Listener()
        sentinel = subprocess.Popen(["sleep", "600"])
        hostdir = tempfile.mkdtemp(prefix="sg-escape-host-")
        ctx = {"hostname": socket.gethostname(), "listener": listener, "sentinel": sentinel, "hostdir": hostdir, "workdir": workdir}
        cases = sorted(glob.glob(os.path.join(args.cases, "*.py")))
        cases = [c for c in cases if args.k in os.path.basename(c)]
        failures = 0
        t0 = time.monotonic()
        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                for name, errors, elapsed, out in pool.map(lambda c: run_case(args.binary, c, ctx), cases):
                    status = "ok  " if not errors else "FAIL"
                    detail = out["outcome"] if out else "-"
                    if out and out.get("syscall"):
                        detail += " " + out["syscall"]
                    print("%s %-28s %-32s %6.0f ms" % (status, name, detail, elapsed * 1000))
                    for e in errors:
                        print("       " + e)
                    failures += bool(errors)
        finally:
            listener.close()
            alive = sentinel.poll() is None
            sentinel.kill()
            sentinel.wait()
        # Global after-suite checks: nothing of any sandbox is left on the host.
        time.sleep(0.2)
        leftovers = []
        if not alive:
            leftovers.append("the sentinel process died")
        left = our_sandbox_procs()
        if left:
            leftovers.append("sandbox processes left: %r" % left)
            for pid, _ in left:  # adopted by us (subreaper): end and reap them
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        if [d for d in stale if os.path.exists(d)]:
            leftovers.append("stale cgroups of a dead supervisor not removed: %r" % stale)
        leftovers += reused_pid_problems
        # Directories that were there before the suite began are another run's (a pid of ours can
        # be a pid some earlier, killed supervisor had).
        left_cg = sorted(set(cgroup_leftovers()) - cgroups_before)
        if left_cg:
            leftovers.append("cgroups left: %r" % left_cg)
        changed = [k for k in sysctl_changes(sysctls_before) if k in sysctls_before]
        if changed:
            leftovers.append("host sysctls changed: %r" % changed[:20])
            for k in changed:  # put the host back as it was
                try:
                    with open("/proc/sys/" + k, "wb") as f:
                        f.write(sysctls_before[k])
                except OSError:
                    pass
        if mount_count() != mounts_before:
            leftovers.append("host mount table changed: %d -> %d" % (mounts_before, mount_count()))
        new_tmp = set(os.listdir("/tmp")) - host_tmp_before
        new_tmp = {n for n in new_tmp if not n.startswith("sg-escape-")}
        if os.path.exists(MARKER):
            leftovers.append("marker file reached host /tmp")
        if os.listdir(hostdir):
            leftovers.append("files in the host directory: %r" % os.listdir(hostdir))
        os.rmdir(hostdir) if not os.listdir(hostdir) else None
        for l in leftovers:
            print("FAIL after-suite: " + l)
        if new_tmp:
            print("note: new entries in host /tmp during the run (not necessarily ours): %r" % sorted(new_tmp))
        total = len(cases)
        print("%d cases, %d failed, %d leftover problems, %.1f s (as uid %d, %d writable sysctls compared)" % (
            total, failures, len(leftovers), time.monotonic() - t0, os.geteuid(), len(sysctls_before)))
        return 1 if failures or leftovers or total < 40 and not args.k else 0


if __name__ == "__main__":
    sys.exit(main())
