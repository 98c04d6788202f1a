# expect: block SG206@3
import threading, subprocess
t = threading.Thread(target=subprocess.call, args=("id",), kwargs={"shell": True})
t.start()
