# expect: pass
import subprocess

subprocess.run(["tee", "-a", "build.log"], input=b"done\n")
