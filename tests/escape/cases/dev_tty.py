# expect: exception
open("/dev/tty", "w").write("x")
