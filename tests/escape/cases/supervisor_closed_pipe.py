# expect: stopped
# supervisor: pipe
# args: --wall 1 --call f()
# The reader of snipgate's output is gone (SIGPIPE territory): the sandbox is released before the
# outcome is written, the write error is reported (exit 3), nothing is left behind.
import time
def f():
    time.sleep(5)
