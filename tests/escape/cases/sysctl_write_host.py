# expect: ok|exception
# stdout-excludes: WROTE
# variants: SNIPGATE_PROC_NO_SUBSET=1
# The host's global sysctls (a pipe core pattern plus any crash is code execution as host root).
# The variant runs on the masked /proc of kernels without subset=pid.
# The driver compares a snapshot of every writable host sysctl before and after the suite.
import os
targets = {
    "kernel/core_pattern": "|/bin/false sg-escape",
    "kernel/core_uses_pid": None, "vm/swappiness": None, "kernel/printk_ratelimit": None,
    "vm/drop_caches": "3", "kernel/sysrq": None, "fs/protected_regular": None,
    "kernel/randomize_va_space": "0", "vm/overcommit_memory": None, "kernel/panic": None,
}
for roots in ("/proc/sys", "/proc/self/root/proc/sys", "/proc/1/root/proc/sys"):
    for key, value in targets.items():
        path = os.path.join(roots, key)
        try:
            if value is None:
                with open(path) as f:
                    value = str(int(f.read().split()[0]) + 1)
            with open(path, "w") as f:
                f.write(value)
            print("WROTE", path)
        except (OSError, ValueError) as e:
            print("refused", path, type(e).__name__)
