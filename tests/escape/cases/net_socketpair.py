# expect: forbidden_syscall
# syscall: socketpair
import _socket
_socket.socketpair()
