# snipgate in-sandbox runner: the only Python in snipgate. It is embedded into the binary and
# started as `/usr/bin/python3 -s -S -B -u -c BOOT (PYTHONHASHSEED=0)` *inside* the sandbox, after every isolation layer
# is in force. It is NOT trusted: the candidate runs in this same process and may rewrite anything
# here. Everything it reports is a claim that the supervisor judges (see docs/sandbox.md).
#
# File descriptors (set up by the launcher):
#   0 stdin, 1 stdout, 2 stderr (pipes read by the supervisor, capped there)
#   3 this file (memfd; preceded by its bytecode, see WORKER_BOOT), 4 the candidate source (memfd)
#   5 requests from the supervisor, 6 results to the supervisor
# Frames on 5 and 6: 4-byte little-endian payload length, then fields; a field is one tag byte,
# a 4-byte little-endian length and that many bytes (UTF-8).
#
# Startup must stay cheap (cold launches are benchmarked): only builtin modules are imported
# (`posix`, not `os`: importing os loads 7 more modules, ~0.3 ms), tracebacks are formatted by hand
# instead of importing `traceback`, and the runner is precompiled to bytecode at build time
# (sandbox/runner_pyc.py; compiling it at every start cost ~0.6 ms). The bootstrap leaves this
# file's bytes in the global `RUNNER_SRC` and the precompiled part after the `#@later` marker in
# `RUNNER_LATER`; without bytecode (another interpreter version) only the part above the marker is
# compiled at startup and the rest (exception formatting, the call loop) the first time it is
# needed.
import posix as os  # read, write, close, fork, wait4, _exit: all the runner needs from os
import sys

REQ_FD, RES_FD = 5, 6
MAX_TEXT = 1 << 16  # cap on any one text field we send (the supervisor caps again)

# type's own descriptors, taken before the candidate runs. A metaclass can give a class any
# `__mro__`, `__name__` or `__qualname__` *attribute*; these read what the interpreter itself
# keeps (tp_mro, the MRO `except` matches by, and the class's own names). Exception classes are
# reported through them (_format_exception_impl, _mro_text).
_TYPE, _STR = type, str
_MRO = type.__dict__["__mro__"].__get__
_NAME = type.__dict__["__name__"].__get__
_QUALNAME = type.__dict__["__qualname__"].__get__
_MODULE = type.__dict__["__module__"].__get__
# The classes of the builtins module by identity, also taken before the candidate runs: a class
# the candidate makes under a builtin's name with __module__ "builtins" (set __name__ first) is
# reported with no module, so it never passes for the builtin it imitates (_class_names).
_ID = id
_BUILTIN_TYPES = {_ID(_v): _v for _v in vars(__import__("builtins")).values() if isinstance(_v, type)}
# json's C encoder, taken before the candidate runs. `import json` costs ~18 ms here (it imports
# re), paid once per sandbox on its first call; _json alone ~0.5 ms. None: use json (fallback).
try:
    import _json
    _MAKE_ENCODER, _ENCODE_STR = _json.make_encoder, _json.encode_basestring
    del _json
except ImportError:
    _MAKE_ENCODER = _ENCODE_STR = None


def _read_all(fd):
    parts = []
    while True:
        b = os.read(fd, 1 << 16)
        if not b:
            break
        parts.append(b)
    os.close(fd)
    return b"".join(parts)


def _text(s):
    if not isinstance(s, str):
        try:
            s = str(s)
        except BaseException:
            s = "<unprintable>"
    b = s.encode("utf-8", "backslashreplace")
    return b[:MAX_TEXT]


def _send(fields):
    body = bytearray()
    for tag, val in fields:
        v = _text(val)
        body += tag.encode() + len(v).to_bytes(4, "little") + v
    data = len(body).to_bytes(4, "little") + bytes(body)
    view = memoryview(data)
    while view:
        n = os.write(RES_FD, view)
        view = view[n:]


def _read_exact(n):
    buf = b""
    while len(buf) < n:
        b = os.read(REQ_FD, n - len(buf))
        if not b:
            return None
        buf += b
    return buf


def _recv():
    head = _read_exact(4)
    if head is None:
        return None
    body = _read_exact(int.from_bytes(head, "little"))
    if body is None:
        return None
    fields, i = {}, 0
    while i + 5 <= len(body):
        tag = chr(body[i])
        n = int.from_bytes(body[i + 1:i + 5], "little")
        v = body[i + 5:i + 5 + n]
        fields[tag] = v if tag == "S" else v.decode("utf-8", "replace")  # a source stays bytes (its coding)
        i += 5 + n
    return fields


SOURCES = {}  # filename -> list of lines, for tracebacks
GENUINE_DICTS = []  # dict subclasses of the standard library encoded as dicts (main())


def _load_later():
    """Compile the part of this file after the marker, once, into this module's globals."""
    if "_format_exception_impl" not in globals():
        code = RUNNER_LATER
        if code is None:
            code = compile(RUNNER_SRC.split(b"\n#@later\n", 1)[1], "<sg-runner>", "exec")
        exec(code, globals())


def _format_exception(e):
    _load_later()
    return _format_exception_impl(e)


def _flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except BaseException:
            pass


def _read_by_supervisor(fds, ioctl=None):
    """Wait until the supervisor has read everything written on these pipes (FIONREAD is 0).

    An item's output and its result frame travel on different pipes, and the supervisor cannot
    tell the order of bytes across two pipes. So a batch item hands over in two steps: its
    output is all read before its frame is written, and its frame is read before the next item
    prints anything; each item's output is then exactly what was read between two frames.
    A descriptor that is no pipe (the candidate's own doing) is not waited for."""
    if ioctl is None:
        import fcntl
        ioctl = fcntl.ioctl
    sleep = None
    turns, delay = 0, 0.00005
    for fd in fds:
        while True:
            try:
                left = int.from_bytes(ioctl(fd, 0x541B, b"\0\0\0\0"), "little")  # FIONREAD
            except BaseException:
                break
            if left == 0:
                break
            turns += 1
            if turns <= 64:  # the supervisor is usually awake on the other core: yield a while
                os.sched_yield()
                continue
            if sleep is None:
                import time
                sleep = time.sleep
            sleep(delay)
            delay = min(delay * 2, 0.002)


def _load_tracer():
    """The tracer: an extension module in a sealed memfd (fd 7) from the supervisor, loaded before
    the candidate runs. With the shared coverage map (fd 8: a fuzzed worker), attach() installs
    its coverage trace function for good, and nothing keeps a name of the module: a fuzzed call
    runs as any other call. Its count() is the C event counter of counted calls (_counted),
    kept wherever the module is loaded (sg_worker_opts.fast_count, and coverage workers)."""
    import _imp

    class Spec:
        name = "_sgtrace"
        origin = "/proc/self/fd/7"
    global COUNT
    m = _imp.create_dynamic(Spec())
    COUNT = m.counter()  # (holds no reference to the module: once m goes, nothing names it)
    if _fd_open(8):  # the coverage map: a fuzzed worker
        m.attach(8)
        os.close(8)
    sys.modules.pop("_sgtrace", None)
    del m
    os.close(7)


def _fd_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def _pool_setup():
    """A pooled zygote (sg_worker_opts.pooled) serves many candidates, one per call child, and
    never runs any of their code itself. Two things keep one call from reaching a later call
    (another candidate's): the zygote is made non-dumpable, so its memory and descriptors under
    /proc/2 (mem, fd/5, the request pipe) are closed to its children (same uid); and it blocks
    every signal it can (a signal sent to it stays pending; a fork starts with none pending).
    SIGKILL and SIGSTOP remain: they end or stall the call that sent them, and the sandbox is
    restarted for the next one."""
    import ctypes
    import _signal
    if _fd_open(7):  # the tracer module, for its event counter (no coverage in a pool)
        _load_tracer()
    if ctypes.CDLL(None).prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
        raise OSError("prctl(PR_SET_DUMPABLE, 0) failed")
    _ns_setup(ctypes)
    global POOL_SIGMASK, POOL_DICTS
    POOL_SIGMASK = _signal.pthread_sigmask(_signal.SIG_BLOCK, _signal.valid_signals())
    import collections
    POOL_DICTS = (collections.Counter, collections.OrderedDict, collections.defaultdict)
    for name in POOL_PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass


# A pooled call child is forked into namespaces of its own (docs/sandbox.md, "Candidates are
# strangers"): a new user namespace owning a new pid namespace (the child is its init and forks
# the candidate's process, pid 2: the zygote, the sandbox's pid 1 and every other candidate have
# no pid it can name: no kill, prlimit, ptrace or /proc of theirs), a new mount namespace (a
# fresh tmpfs on /tmp and a /proc of its own pid namespace) and a new IPC namespace. CPython 3.11 has no os.unshare and no clone
# with flags, so the clone is a raw system call through ctypes, bracketed by the interpreter's
# own fork hooks (PyOS_BeforeFork / PyOS_AfterFork_*), exactly as os.fork brackets its fork().
# The supervisor lets through only this clone, with exactly these flags, from the zygote, then
# two mounts and one fork from the child, before the candidate's code runs (sandbox/worker.c).
NS_CLONE_FLAGS = 0x10000000 | 0x20000000 | 0x00020000 | 0x08000000 | 17  # USER PID NS IPC, SIGCHLD
NS = None  # (clone, nr, before, after_parent, after_child, libc, maps, caps, ctypes)


def _ns_setup(ctypes):
    global NS
    nr = {"x86_64": 56, "aarch64": 220}.get(os.uname().machine)
    if nr is None:
        raise OSError("no clone system call number known for " + os.uname().machine)
    clone = ctypes.PyDLL(None, use_errno=True).syscall  # PyDLL: the GIL stays held, as in os.fork
    clone.restype = ctypes.c_long
    clone.argtypes = [ctypes.c_long] * 6
    api = ctypes.pythonapi
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    caps = (ctypes.byref(Header(0x20080522, 0)), (ctypes.c_uint32 * 6)())  # _LINUX_CAPABILITY_VERSION_3, all 0
    maps = (("/proc/self/setgroups", b"deny"), ("/proc/self/uid_map", b"%d %d 1" % (os.getuid(), os.getuid())),
            ("/proc/self/gid_map", b"%d %d 1" % (os.getgid(), os.getgid())))
    NS = (clone, nr, api.PyOS_BeforeFork, api.PyOS_AfterFork_Parent, api.PyOS_AfterFork_Child, libc,
          maps, caps, ctypes)


def _ns_fork():
    clone, nr, before, after_parent, after_child = NS[:5]
    before()
    pid = clone(nr, NS_CLONE_FLAGS, 0, 0, 0, 0)
    if pid == 0:
        after_child()
        return 0
    after_parent()
    if pid < 0:
        raise OSError(NS[8].get_errno(), "clone into new namespaces failed")
    return pid


# A pooled call writes its output and its frames on pipes made for it alone (docs/sandbox.md,
# "Candidates are strangers"): the zygote makes them before the clone, read ends at CALL_FDS[0:3]
# and write ends at CALL_FDS[3:6]; the supervisor takes the read ends from the zygote (pidfd_getfd,
# while it holds the clone) and reads this call's stdout, stderr and frames there, then closes
# them. The call child puts the write ends on 1, 2 and RES_FD; the zygote closes all six after the
# clone. No flag, byte or frame of one call reaches another, and the zygote's own result pipe
# (its `done` frames) is one no call child holds.
CALL_FDS = (10, 11, 12, 13, 14, 15)


def _call_pipes():
    for k in range(3):
        r, w = os.pipe()
        os.dup2(r, CALL_FDS[k], False)
        os.dup2(w, CALL_FDS[3 + k], False)
        os.close(r)
        os.close(w)


def _call_pipes_close():
    for fd in CALL_FDS:
        try:
            os.close(fd)
        except OSError:
            pass


def _ns_enter(tmp_opts):
    """In the call child, before anything of the candidate's runs: map its ids, mount a fresh /tmp and its own /proc, then drop every capability the new user
    namespace gave it and become non-dumpable again."""
    libc, maps, caps, ctypes = NS[5:9]
    if libc.prctl(4, 1, 0, 0, 0) != 0:  # PR_SET_DUMPABLE: /proc/self/*_map are ours again
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 1)")
    for path, text in maps:
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, text)
        finally:
            os.close(fd)
    flags = 0x2 | 0x4 | 0x8  # MS_NOSUID MS_NODEV MS_NOEXEC
    if libc.mount(b"sg-tmp", b"/tmp", b"tmpfs", flags, tmp_opts.encode()) != 0:
        raise OSError(ctypes.get_errno(), "mount /tmp")
    if libc.mount(b"proc", b"/proc", b"proc", flags, b"subset=pid") != 0:
        raise OSError(ctypes.get_errno(), "mount /proc")
    if libc.capset(*caps) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # non-dumpable again
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0)")


def _ns_init():
    """The call child is pid 1 of its pid namespace, and the kernel spares a namespace's init
    every signal it sends itself without a handler (raise(SIGSEGV), os.abort(), os.kill of its
    own pid would not end it). So it stays this namespace's init, running nothing of the
    candidate's: it forks the process that imports and runs the candidate (pid 2 there, with the
    ordinary signal semantics; the supervisor watches that process and holds this one's wait
    until it has read its exit), reaps it and exits."""
    pid = os.fork()
    if pid == 0:
        return
    try:
        while os.waitpid(pid, 0)[0] != pid:
            pass
    finally:
        os._exit(0)


POOL_SIGMASK = POOL_DICTS = COUNT = None
# Standard-library modules a pooled zygote imports at its start, before any candidate, so that
# each call child finds them in sys.modules instead of importing them again (`import re` is ~9 ms
# here, `typing` ~14, `inspect` ~31; all of them ~80 ms and ~11 MB, once per pooled sandbox). All of
# them, always: the zygote's state (and the memory it holds against the sandbox's limit) is the
# same whatever candidates came before. Only the read-only standard library's code runs; modules
# with import-time effects (this, antigravity) or that reach for the network are not among them.
POOL_PRELOAD = (
    "re math cmath collections heapq typing itertools functools operator bisect string copy random "
    "datetime decimal fractions hashlib unicodedata statistics json csv urllib.parse calendar shlex "
    "array dataclasses enum textwrap inspect numbers struct zlib base64 binascii ipaddress difflib "
    "html uuid pprint time abc contextlib io keyword queue reprlib secrets locale").split()


def _setup(step, what):
    """A setup step before any candidate runs; its failure is reported as snipgate.<what> and ends
    the interpreter (the supervisor: a sandbox that did not start)."""
    try:
        step()
    except BaseException as e:
        _send([("k", "exception"), ("t", "snipgate." + what), ("m", repr(e)), ("b", ""), ("l", "")])
        os._exit(1)


def main():
    as_main = sys.argv[1][:1] == "1"
    # The runner runs as __main__ (python -c): a candidate that is not __main__ itself finds an
    # empty module there, never the runner's names (functions keep their globals; `runner`
    # keeps the module alive for as long as main() runs, which is the process's life).
    runner = sys.modules.get("__main__")
    blank = type(sys)("__main__")
    blank.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = blank
    if "p" in sys.argv[1][1:]:
        _setup(_pool_setup, "PoolError")
        os.close(4)
        os.close(3)
        _flush()
        _send([("k", "ready")])
        req = _recv()
        if req is None:
            os._exit(0)
        _load_later()
        serve(None, req)
        return
    # the tracer's memfd (sg_worker_opts.coverage or fast_count): not named on the command line
    if _fd_open(7):
        _setup(_load_tracer, "TracerError")
    if "c" in sys.argv[1][1:]:
        # sg_worker_opts.stdlib_dicts: the genuine Counter, OrderedDict and defaultdict classes,
        # taken before the candidate runs (it may replace the module's names later), are encoded
        # as the dicts they are (docs/tasks.md, "Tagged values"); ~5 ms, so only when asked.
        import collections
        GENUINE_DICTS.extend((collections.Counter, collections.OrderedDict, collections.defaultdict))
    src = _read_all(4)
    os.close(3)
    sys.argv = ["<snippet>"]
    mod = type(sys)("__main__" if as_main else "snippet")
    mod.__dict__["__builtins__"] = __builtins__
    mod.__dict__["__file__"] = "<snippet>"
    sys.modules[mod.__name__] = mod
    SOURCES["<snippet>"] = src.decode("utf-8", "replace").splitlines()
    # Phase 1: import the candidate once, in this process (the zygote).
    try:
        exec(compile(src, "<snippet>", "exec"), mod.__dict__)
        first = [("k", "ready")]
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        first = [("k", "exit"), ("c", code), ("m", e.code)]
    except BaseException as e:
        first = _format_exception(e)
    _flush()
    _send(first)
    if first[0][1] == "exit":
        os._exit(first[1][1] & 0xFF)  # the status Python itself would exit with
    if first[0][1] != "ready":
        os._exit(1)  # an uncaught exception: Python exits 1
    req = _recv()
    if req is None:  # end of input: a plain run is over
        _flush()
        os._exit(0)
    _load_later()
    serve(mod, req)


main()

#@later


def _class_names(c):
    """[module, qualname, name] of class c, through type's own descriptors; one that is not a
    plain str of at most 300 characters without a tab, a newline or a NUL is "" (matches no
    name)."""
    out = []
    for get in (_MODULE, _QUALNAME, _NAME):
        try:
            v = get(c)
        except BaseException:
            v = None
        out.append(v if _TYPE(v) is _STR and len(v) <= 300 and not ("\t" in v or "\n" in v or "\0" in v) else "")
    if out[0] == "builtins" and _BUILTIN_TYPES.get(_ID(c)) is not c:
        out[0] = ""
    return out


def _mro_text(t):
    """The classes of t's MRO as the interpreter keeps it, one a line: module, qualname and name,
    tab-separated; at most 64 (a declared class further up is not seen: a finding, never a pass)."""
    return "\n".join("\t".join(_class_names(c)) for c in _MRO(t)[:64])


def _format_exception_impl(e):
    """Type, message, a traceback limited to the snippet's and the call's own frames, and the
    classes of the type's MRO (docs/tasks.md: `raises` matches any of them)."""
    t = _TYPE(e)
    try:
        mod = _MODULE(t)
    except BaseException:  # a class whose __module__ was deleted
        mod = None
    qual = _QUALNAME(t)
    if mod == "builtins" and _BUILTIN_TYPES.get(_ID(t)) is not t:
        mod = "?"  # not the builtin it is named after (shown as ?.ValueError)
    name = qual if _TYPE(mod) is not _STR or mod in ("builtins", "__main__") else mod + "." + qual
    try:
        msg = str(e)
    except BaseException:
        msg = "<exception str() failed>"
    lines = ["Traceback (most recent call last):"]
    tb = e.__traceback__
    while tb is not None:
        co = tb.tb_frame.f_code
        fname = co.co_filename
        if fname != "<sg-runner>":
            lines.append('  File "%s", line %d, in %s' % (fname, tb.tb_lineno, co.co_name))
            src = SOURCES.get(fname)
            if src and 0 < tb.tb_lineno <= len(src):
                lines.append("    " + src[tb.tb_lineno - 1].strip())
        tb = tb.tb_next
    if isinstance(e, SyntaxError) and e.filename in SOURCES:
        lines.append('  File "%s", line %s' % (e.filename, e.lineno))
        if e.text:
            lines.append("    " + e.text.strip())
    lines.append(name + (": " + msg if msg else ""))
    line_no = ""
    if isinstance(e, SyntaxError) and e.filename in SOURCES:
        line_no = e.lineno
    else:
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == "<snippet>":
                line_no = tb.tb_lineno
            tb = tb.tb_next
    return [("k", "exception"), ("t", name), ("m", msg), ("b", "\n".join(lines) + "\n"),
            ("l", line_no), ("o", _mro_text(t))]


MAX_INT = (1 << 53) - 1


def _no_default(o):
    raise TypeError("a value of type %s has no encoding" % getattr(type(o), "__qualname__", "?"))


def _dumps(v):
    """json.dumps(v, ensure_ascii=False, allow_nan=False), to the byte: the same C encoder json
    uses, with its default separators; a fresh one each time (its circular-reference markers)."""
    if _MAKE_ENCODER is None:
        import json
        return json.dumps(v, ensure_ascii=False, allow_nan=False)
    return "".join(_MAKE_ENCODER({}, _no_default, _ENCODE_STR, None, ": ", ", ", False, False, False)(v, 0))


def _encode(value):
    """The value as tagged JSON (docs/tasks.md, "Tagged values"): exact plain types only.

    Returns (json_text, None) or (None, why). A subclass of a plain type, a user class or a value
    over the bounds (32 levels, 100,000 values) has no encoding: the caller's case fails.
    """
    count = [0]

    def enc(v, depth):
        count[0] += 1
        if count[0] > 100000:
            raise ValueError("more than 100000 values")
        if depth > 32:
            raise ValueError("nested more than 32 deep")
        t = type(v)
        if v is None or t is bool or t is str:
            return v
        if t is int:
            return v if -MAX_INT <= v <= MAX_INT else {"$int": str(v)}
        if t is float:
            if v != v or v in (float("inf"), float("-inf")) or (v == 0.0 and str(v)[0] == "-"):
                return {"$float": "nan" if v != v else str(v)}
            return v
        if t is complex:
            return {"$complex": [enc(v.real, depth + 1), enc(v.imag, depth + 1)]}
        if t is list:
            return [enc(x, depth + 1) for x in v]
        if t is tuple:
            return {"$tuple": [enc(x, depth + 1) for x in v]}
        if t is set or t is frozenset:
            items = [enc(x, depth + 1) for x in v]
            items.sort(key=_dumps)
            return {"$set": items}
        if t is bytes:
            import binascii
            return {"$bytes": binascii.b2a_base64(v, newline=False).decode("ascii")}
        if t is dict or any(t is g for g in GENUINE_DICTS):
            # dict's own methods: what the dict holds, whatever its class's methods say
            keys = list(dict.keys(v))
            # (a key holding NUL goes in the pair form: JSON readers refuse it as an object key)
            if all(type(k) is str and "\0" not in k for k in keys) and not (len(keys) == 1 and keys[0].startswith("$")):
                return {k: enc(x, depth + 1) for k, x in dict.items(v)}
            return {"$dict": [[enc(k, depth + 1), enc(x, depth + 1)] for k, x in dict.items(v)]}
        raise TypeError("a value of type %s has no encoding" % getattr(t, "__qualname__", "?"))

    try:
        return _dumps(enc(value, 0)), None
    except (TypeError, ValueError, RecursionError) as e:
        return None, str(e)


class _CostExceeded(BaseException):
    """Raised into a counted call past its budget (below)."""


def _counted(code, ns, is_expr, budget, cost, cpu_rule=None):
    """Run the call with a trace function that counts its Python events: each function call and
    each line run, in any Python code the call reaches (not the work inside builtins). Past
    `budget` events the call is stopped (_CostExceeded raised at that event). The count is
    deterministic for the same program and input (PYTHONHASHSEED is fixed) and needs no clock;
    like every frame field it is the candidate's claim: it can only lower its own count (switch
    the tracer off, run in a thread), which makes it look cheaper, never an honest one costlier
    (docs/tasks.md, "Efficiency"). The tracer module's C counter (COUNT) counts the same events
    at a fraction of the cost where it is loaded; this Python one is the fallback.
    cpu_rule (ms, ns) (limits.cost_cpu_ms): every 1024 events, past ms plus ns an event of this
    thread's CPU time since the call began, the call stops as past its budget (count budget + 1):
    work inside builtins, which no event counts."""
    base, per = cpu_rule if cpu_rule else (0, 0)
    if COUNT is not None:
        return COUNT(code, ns, is_expr, budget, cost, _CostExceeded, base * 1000000, per)
    clock = start = 0
    if base:
        import time
        clock = time.thread_time_ns
        start = clock()

    def tr(frame, event, arg):
        if event == "line" or event == "call":
            n = cost[0] + 1
            cost[0] = n
            if n > budget:
                raise _CostExceeded
            if clock and not n & 1023 and clock() - start > base * 1000000 + per * n:
                cost[0] = budget + 1
                raise _CostExceeded
        return tr
    sys.settrace(tr)
    try:
        return eval(code, ns) if is_expr else exec(code, ns)
    finally:
        sys.settrace(None)


def _run_call(text, ns, budget=0, cpu_rule=None):
    """Evaluate one call (an expression, or statements) in the candidate's namespace; with a
    budget, count its events (_counted) and add the count to the result (field C)."""
    if budget <= 0:
        return _run_call1(text, ns, 0, None)
    cost = [0]
    fields = _run_call1(text, ns, budget, cost, cpu_rule)
    return fields + [("C", str(cost[0]))]


def _run_call1(text, ns, budget, cost, cpu_rule=None):
    SOURCES["<call>"] = text.splitlines()
    try:
        try:
            code = compile(text, "<call>", "eval")
            is_expr = True
        except SyntaxError:
            code = compile(text, "<call>", "exec")
            is_expr = False
        if budget > 0:
            value = _counted(code, ns, is_expr, budget, cost, cpu_rule)
        else:
            value = eval(code, ns) if is_expr else exec(code, ns)
        try:
            r = repr(value)
        except BaseException as e:
            return _format_exception(e)
        j, why = _encode(value)
        value_field = ("j", j) if j is not None else ("J", why)
        return [("k", "ok"), ("r", r), ("y", type(value).__qualname__), value_field]
    except SystemExit as e:
        return [("k", "exit"), ("c", e.code if isinstance(e.code, int) else 1), ("m", e.code),
                ("o", _mro_text(_TYPE(e)))]
    except BaseException as e:
        return _format_exception(e)


def serve(mod, req):
    """Phase 2: one forked child per call request. The supervisor watches the child itself (its
    exit status and CPU come from the kernel, not from us); the done frame says we are ready."""
    import gc
    gc.freeze()
    import fcntl
    fork, wait4, exit_, ioctl = os.fork, os.wait4, os._exit, fcntl.ioctl
    os.chdir("/")  # not the import's /tmp: between calls pid 1 replaces it with a fresh one
    while req is not None:
        cid = req.get("i", "")
        batch = "n" in req
        stream = "s" in req
        items = req.get("x", "").split("\0") if batch else [req.get("x", "")]
        base = 0
        if mod is None:  # pooled: item 0 is the import, the request's items are 1..n
            base = 1
            if req.get("n") == "0":
                items = []
        if mod is None:
            _call_pipes()
        pid = fork() if mod is not None else _ns_fork()
        if pid == 0:
            try:
                if mod is None:
                    for k, fd in enumerate((1, 2, RES_FD)):  # this call's own pipes
                        os.dup2(CALL_FDS[3 + k], fd)
                    _call_pipes_close()
                    try:
                        _ns_enter(req.get("T", ""))
                    except BaseException as e:
                        os.write(2, ("snipgate: the call's namespaces: %s\n" % (e,)).encode())
                        raise
                    _ns_init()
                if POOL_SIGMASK is not None:
                    import _signal
                    _signal.pthread_sigmask(_signal.SIG_SETMASK, POOL_SIGMASK)
                # Calls share nothing through descriptors: not the request pipe (the next call's
                # text), not what the import left open. 0-2 and the result pipe stay.
                if stream:  # the items come on the request pipe, one request each
                    os.closerange(3, REQ_FD)
                else:
                    os.closerange(3, RES_FD)  # REQ_FD among them
                os.closerange(RES_FD + 1, 1 << 16)
                os.chdir("/tmp")
                # (no RLIMIT_CPU here: the supervisor measures and enforces CPU per item, and
                # seccomp lets no process of the sandbox set that limit)
            except BaseException:
                exit_(1)
            if mod is None:  # pooled: this child imports the request's candidate first
                mod = _pool_import(req, cid)
            if stream:
                _stream(mod.__dict__, cid, ioctl)
                exit_(0)
            # A batch: the items run one after another in this one child; each result frame
            # names its item, so the supervisor can attribute time and output to it.
            # B: one budget for every item, or one per item ("b0,b1,..."; 0: not counted)
            try:
                budgets = [int(x or 0) for x in str(req.get("B", "0")).split(",")]
            except ValueError:
                budgets = [0]
            try:  # N: "ms,ns", a CPU bound on the counted items (_counted)
                cpu_rule = tuple(int(x) for x in req["N"].split(",")) if "N" in req else None
                cpu_rule = cpu_rule if cpu_rule and len(cpu_rule) == 2 else None
            except ValueError:
                cpu_rule = None
            for n, text in enumerate(items):
                try:
                    budget = budgets[n] if len(budgets) > 1 and n < len(budgets) else budgets[0]
                    fields = _run_call(text, mod.__dict__, budget, cpu_rule)
                except BaseException as e:
                    fields = _format_exception(e)
                _flush()
                try:
                    if batch:
                        _read_by_supervisor((1, 2), ioctl)
                    _send(fields + [("i", cid)] + ([("n", n + base)] if batch else []))
                    if batch and n + 1 < len(items):
                        _read_by_supervisor((RES_FD,), ioctl)
                except BaseException:
                    exit_(1)
            exit_(0)
        if mod is None:
            _call_pipes_close()
        _, status, ru = wait4(pid, 0)
        _send([("k", "done"), ("i", cid), ("p", ru.ru_maxrss)])
        req = _recv()
    _flush()
    exit_(0)


def _pool_import(req, cid):
    """In a pooled worker's call child: run the request's candidate source (field S) as a fresh
    module and report it as item 0 (kind ready, or the exception / exit); a candidate that did
    not import ends the child (its items do not run)."""
    if "c" in req.get("f", ""):
        GENUINE_DICTS.extend(POOL_DICTS)
    as_main = "1" in req.get("f", "")
    src = req.get("S", b"")
    mod = type(sys)("__main__" if as_main else "snippet")
    mod.__dict__["__builtins__"] = __builtins__
    mod.__dict__["__file__"] = "<snippet>"
    sys.modules[mod.__name__] = mod
    sys.argv = ["<snippet>"]
    SOURCES["<snippet>"] = src.decode("utf-8", "replace").splitlines()
    code = 1
    try:
        exec(compile(src, "<snippet>", "exec"), mod.__dict__)
        first = [("k", "ready")]
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        first = [("k", "exit"), ("c", code), ("m", e.code), ("o", _mro_text(_TYPE(e)))]
    except BaseException as e:
        first = _format_exception(e)
    _flush()
    try:
        _send(first + [("i", cid), ("n", 0)])
    except BaseException:
        os._exit(1)
    if first[0][1] != "ready":
        os._exit(code & 0xFF)
    return mod


def _stream(ns, cid, ioctl=None):
    """A stream child: read one item per request until the end request (or end of input), and
    answer each with its result frame. The supervisor measures every item."""
    n = 0
    buf = b""
    read = os.read
    while True:
        # one read per request as a rule (the supervisor sends one and waits for the answer)
        while len(buf) < 4 or len(buf) < 4 + int.from_bytes(buf[:4], "little"):
            chunk = read(REQ_FD, 1 << 16)
            if not chunk:
                return
            buf += chunk
        size = 4 + int.from_bytes(buf[:4], "little")
        body, buf = buf[4:size], buf[size:]
        req, i = {}, 0
        while i + 5 <= len(body):
            k = int.from_bytes(body[i + 1:i + 5], "little")
            req[chr(body[i])] = body[i + 5:i + 5 + k].decode("utf-8", "replace")
            i += 5 + k
        if "x" not in req:
            return
        try:
            fields = _run_call(req["x"], ns)
        except BaseException as e:
            fields = _format_exception(e)
        _flush()
        _read_by_supervisor((1, 2), ioctl)  # (the next item is sent after this frame is read)
        _send(fields + [("i", cid), ("n", n)])
        n += 1
