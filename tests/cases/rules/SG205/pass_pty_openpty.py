# expect: pass
import pty

master, slave = pty.openpty()
