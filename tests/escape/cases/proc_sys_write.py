# expect: exception|ok
# check: host_hostname_unchanged
# Only the sandbox's own uts namespace could change, if at all; the host's name must not.
with open("/proc/sys/kernel/hostname", "w") as f:
    f.write("pwned")
import socket
print(socket.gethostname())
