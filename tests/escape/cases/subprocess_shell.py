# expect: forbidden_syscall
import subprocess
print(subprocess.run(["/bin/sh", "-c", "id"], capture_output=True))
