# expect: pass
import os
import subprocess

def run_tool(args):
    env = os.environ.copy()
    env["LC_ALL"] = "C"
    env.update(TZ="UTC")
    return subprocess.run(["make", "-C", args], env=env, check=True, capture_output=True)
