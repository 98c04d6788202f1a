# expect: forbidden_syscall
# syscall: ioctl
import fcntl, termios
for fd in (0, 1, 2):
    fcntl.ioctl(fd, termios.TIOCSTI, b"x")
