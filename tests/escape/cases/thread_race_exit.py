# expect: forbidden_syscall
# syscall: socket
# repeat: 10
# A thread issues a forbidden call while the main thread exits at once: the kernel withdraws a
# pending notification when its caller dies, so the exit must not be let through before the
# supervisor has read what is queued.
import os, socket, threading, time
ready = threading.Event()
def attempt():
    ready.set()
    socket.socket()
threading.Thread(target=attempt).start()
ready.wait()
time.sleep(0.001)
os._exit(0)
