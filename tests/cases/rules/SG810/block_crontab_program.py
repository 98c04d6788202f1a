# expect: block SG810@3
import subprocess
subprocess.run(["crontab", "jobs.txt"])
