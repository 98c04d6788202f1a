# expect: pass
import subprocess
subprocess.run(["git", "-c", "user.name=Bot", "commit", "-m", "msg"], check=True)
subprocess.run(["ls", "-l"], executable="/bin/ls", check=True)
subprocess.run(["git", "log", "--format=%H"], check=True)
