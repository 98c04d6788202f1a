# expect: exception
# check: sentinel_alive
import os, signal
os.kill({SENTINEL_PID}, signal.SIGTERM)
