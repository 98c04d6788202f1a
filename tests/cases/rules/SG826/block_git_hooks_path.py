# expect: block SG826@4
import subprocess

subprocess.run(["git", "config", "--global", "core.hooksPath", "/tmp/hooks"], check=True)
