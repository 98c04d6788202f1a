# expect: timeout
# timeout_kind: wall
# args: --wall 1
import time
time.sleep(30)
