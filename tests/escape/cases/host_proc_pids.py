# expect: ok
# check: few_pids
import os
print(" ".join(sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int)))
