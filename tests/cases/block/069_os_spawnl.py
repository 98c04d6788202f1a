# expect: block SG204@3
import os
os.spawnl(os.P_WAIT, "/bin/ls", "ls")
