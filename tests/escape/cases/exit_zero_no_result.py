# expect: exception
import os
os._exit(0)
