# expect: ok
# check: sentinel_alive
import os, signal
try:
    os.kill(-1, signal.SIGTERM)
except OSError as e:
    print(e)
print("alive")
