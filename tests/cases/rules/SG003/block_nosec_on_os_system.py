# expect: block SG003@4 SG201@4
# options: --fail-on low
import os
os.system("ls")  # nosec
