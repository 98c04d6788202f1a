# expect: pass
import subprocess

subprocess.run(["convert", "in.png", "out.png"], check=True)
