# expect: ok
# stdout-excludes: snipgate
# The cgroup namespace is created after pid 1 joined the sandbox's cgroups: its paths show "/",
# not snipgate-<supervisor host pid>.
for p in ("/proc/self/cgroup", "/proc/1/cgroup", "/proc/self/mountinfo"):
    try:
        print(open(p).read())
    except OSError as e:
        print(p, type(e).__name__)
