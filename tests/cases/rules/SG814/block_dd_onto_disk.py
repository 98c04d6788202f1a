# expect: block SG814@4
import subprocess

subprocess.check_call(["dd", "if=/dev/zero", "of=/dev/sda", "bs=1M"])
