# expect: block SG816@4
import subprocess

subprocess.run(["systemctl", "--user", "enable", "--now", "updater.service"])
