# expect: ok
# stdout-excludes: READ
# variants: SNIPGATE_PROC_NO_SUBSET=1
# Root-only and host-wide /proc files: host keyrings, page flags, kernel heap and timer layout.
import os
names = ["keys", "key-users", "kpageflags", "kpagecount", "kpagecgroup", "slabinfo", "vmallocinfo",
         "timer_list", "kcore", "sched_debug", "latency_stats", "kallsyms", "iomem", "modules"]
for n in names:
    try:
        with open("/proc/" + n, "rb") as f:
            data = f.read(4096)
        if data and not (n == "kallsyms" and set(data.split()[0]) <= set(b"0")):
            print("READ", n, len(data))
    except OSError as e:
        print("refused", n, type(e).__name__)
