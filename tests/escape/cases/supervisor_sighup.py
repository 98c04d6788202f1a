# expect: stopped
# supervisor: HUP@0.5
# args: --call f()
# snipgate gets SIGHUP while a call runs: it stops the sandbox, removes its cgroups, leaves no
# process (sg-init included) and exits 128+signal without an outcome.
import time
def f():
    time.sleep(5)
