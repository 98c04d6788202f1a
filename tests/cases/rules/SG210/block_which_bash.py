# expect: block SG210@5
import shutil, subprocess

def run(script):
    subprocess.run([shutil.which("bash"), "-c", script])
