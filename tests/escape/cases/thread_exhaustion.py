# expect: exception
import threading, time
ts = []
for i in range(100000):
    t = threading.Thread(target=time.sleep, args=(2,))
    t.start()
    ts.append(t)
