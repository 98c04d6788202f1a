# expect: forbidden_syscall
# syscall: socket
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("\0snipgate-escape")
