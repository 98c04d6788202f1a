# expect: block SG210@3
import subprocess
subprocess.run(["find", ".", "-name", "*.py", "-exec", "sh", "-c", "cat {}", ";"])
