# expect: block SG205@3 SG210@3
import pty
pty.spawn("/bin/sh")
