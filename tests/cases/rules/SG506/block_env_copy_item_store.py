# expect: block SG506@8
import os
import subprocess

def run_tool(args):
    env = os.environ.copy()
    env["LD_PRELOAD"] = "/tmp/libhook.so"
    return subprocess.run(["make", "-C", args], env=env, check=True)
