# expect: block SG204@4
import os

os.spawnl(os.P_WAIT, "/usr/bin/curl", "curl", "https://x")
