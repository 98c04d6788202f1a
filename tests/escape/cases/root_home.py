# expect: exception
import os
print(os.listdir("/root"))
