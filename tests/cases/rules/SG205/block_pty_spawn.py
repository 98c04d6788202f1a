# expect: block SG205@4
import pty

pty.spawn("/usr/bin/top")
