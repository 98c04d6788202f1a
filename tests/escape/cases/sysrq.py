# expect: exception
open("/proc/sysrq-trigger", "w").write("b")
