# expect: exception
# The exit frame says "0" (an int subclass whose str is "0") but the process exits with 3: the
# wait status the supervisor observed decides.
class Zero(int):
    def __str__(self):
        return "0"
    __repr__ = __str__
raise SystemExit(Zero(3))
