# expect: timeout
# timeout_kind: cpu
# args: --cpu 1 --wall 8
# max_cpu_ms: 1600
# The snippet catches SIGXCPU and keeps burning CPU: the supervisor measures it and stops it.
import signal
signal.signal(signal.SIGXCPU, lambda *a: None)
while True:
    pass
