# expect: block SG206@8
import subprocess

def options():
    return {"shell": True}

def run(cmd):
    return subprocess.run(cmd, **options())
