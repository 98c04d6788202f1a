# expect: forbidden_syscall
# syscall: socket
import socket
socket.create_connection(("1.1.1.1", 53), timeout=2).sendall(b"x")
