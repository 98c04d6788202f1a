# expect: forbidden_syscall
import os
os.system("touch {HOSTFILE}")
