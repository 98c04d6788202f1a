# expect: forbidden_syscall
# syscall: socket
# check: listener_silent
import socket
s = socket.create_connection(("127.0.0.1", {PORT}), timeout=2)
s.sendall(b"escaped")
