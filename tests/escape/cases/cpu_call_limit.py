# expect: timeout
# timeout_kind: cpu
# args: --cpu 200ms --wall 8 --call f()
# max_cpu_ms: 700
# A worker call's CPU limit, measured by the supervisor (the call child may catch SIGXCPU).
import signal
def f():
    signal.signal(signal.SIGXCPU, lambda *a: None)
    while True:
        pass
