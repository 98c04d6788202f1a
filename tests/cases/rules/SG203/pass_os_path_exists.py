# expect: pass
import os

print(os.path.exists("/bin/ls"))
