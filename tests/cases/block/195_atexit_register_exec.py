# expect: block SG102@3
import atexit
atexit.register(exec, "print(1)")
