# expect: forbidden_syscall
# syscall: socket
# repeat: 10
# A thread issues a forbidden call and the main thread exits the moment the kernel shows that
# thread blocked in it: the kernel withdraws a pending notification when its caller dies, so the
# exit must not be let through before the supervisor has read what is queued.
import os, socket, threading
def attempt():
    socket.socket()
t = threading.Thread(target=attempt)
t.start()
path = "/proc/self/task/%d/syscall" % t.native_id
while not open(path).read().startswith("41 "):  # 41: socket, blocked awaiting the supervisor
    pass
os._exit(0)
