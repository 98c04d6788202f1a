# expect: block SG201@3
import threading, os
threading.Thread(target=os.system, args=("id",)).start()
