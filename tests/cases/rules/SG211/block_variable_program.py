# expect: block SG211@4
import subprocess
def run(tool):
    return subprocess.run([tool, "--version"], capture_output=True)
