# expect: timeout
# timeout_kind: wall
# args: --wall 1
import signal, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
    signal.signal(s, signal.SIG_IGN)
while True:
    time.sleep(0.1)
