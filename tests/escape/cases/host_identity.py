# expect: ok
# check: host_ids
# Judged from the host while this runs: as root, every process of the sandbox is host uid/gid
# 65534 with no supplementary group; unprivileged, it is the caller's own ids. Never 0.
import time
time.sleep(0.4)
