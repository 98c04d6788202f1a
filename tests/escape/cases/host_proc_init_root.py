# expect: exception
import os
print(os.listdir("/proc/1/root"))
