# expect: exception
# stdout-excludes: {SECRET}
print(open("/proc/1/environ", "rb").read())
