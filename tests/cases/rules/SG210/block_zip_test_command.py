# expect: block SG210@4
import subprocess

subprocess.run(["zip", "out.zip", "notes.txt", "-T", "-TT", "sh -c id"])
