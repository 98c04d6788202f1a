# expect: forbidden_syscall|exception
import socket
print(socket.getaddrinfo("example.com", 80))
