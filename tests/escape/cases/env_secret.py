# expect: ok
# stdout-excludes: {SECRET}
import os
print(dict(os.environ))
print(open("/proc/self/environ", "rb").read())
print(open("/proc/1/cmdline", "rb").read())
