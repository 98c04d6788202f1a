# expect: forbidden_syscall
# syscall: socket
import socket
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", {PORT}))
